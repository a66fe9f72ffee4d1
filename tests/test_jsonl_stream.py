"""``--jsonl`` on a regular file is read a chunk of objects at a time as it is scored: the same
evals, IDs, notes and errors as the whole file read at once (standard input is read so), and no
limit on the file's size, only on a line's."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import rouge155py.inputs.sources as sources_module
import rouge155py.run.executors as executors
from rouge155py import RougeError, evaluate_args, format_legacy
from rouge155py._kernel import kernel_available
from rouge155py.errors import LimitError

REPO = Path(__file__).resolve().parent.parent
WORDS = "the cat sat on a mat dog ran far away quickly under old trees café über".split()


def _summary(rng: random.Random) -> Any:
    if rng.random() < 0.08:
        return rng.choice(["", "  \n ", "\t"])
    sentences = [" ".join(rng.choices(WORDS, k=rng.randint(1, 8))) for _ in range(rng.randint(1, 3))]
    return sentences if rng.random() < 0.15 else "\n".join(sentences)


def _object(rng: random.Random, number: int) -> dict[str, Any]:
    item: dict[str, Any] = {}
    if rng.random() < 0.15:
        item["predictions"] = {"A": _summary(rng), "B": _summary(rng)}
    else:
        item["prediction"] = _summary(rng)
    if rng.random() < 0.5:
        item["reference"] = _summary(rng)
    else:
        item["references"] = [_summary(rng) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.15:  # an ID of its own: now and then another object's number, or one seen
        item["id"] = rng.choice([f"doc{number}", str(rng.randint(1, number + 3)), rng.randint(1, 40)])
    return item


def _outcome(args: list[str]) -> tuple[Any, ...]:
    try:
        report = evaluate_args(["-e", str(REPO / "data"), *args])
    except RougeError as error:
        return (type(error).__name__, str(error))
    return ("ok", format_legacy(report), tuple(report.notes))


def _from_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes, args: list[str]) -> tuple[Any, ...]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    return _outcome([*args, "--jsonl", "-"])


@pytest.mark.parametrize("seed", range(30))
def test_a_file_read_in_chunks_gives_what_it_gives_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Random files (plain pairs, several references, sentence lists, several systems, IDs of
    their own, some repeated, empty summaries, non-ASCII text), read 3 objects at a time from
    the file and whole from standard input: the same report and notes, or the same error; and
    under -j 2, where threads score the chunks."""
    rng = random.Random(seed)
    monkeypatch.setattr(executors, "TEXT_CHUNK", 3)
    objects = [_object(rng, k + 1) for k in range(rng.randint(1, 14))]
    lines = [json.dumps(item, ensure_ascii=rng.random() < 0.5) for item in objects]
    if rng.random() < 0.2:
        lines.insert(rng.randint(0, len(lines)), "")
    if rng.random() < 0.15:
        lines.insert(rng.randint(0, len(lines)), rng.choice(["[1, 2]", "{not json"]))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    (tmp_path / "items.jsonl").write_bytes(data)
    for extra in ([], ["--skip-empty"], ["--sep", " on "]):
        args = ["-a", "-n", "2", "-m", *extra]
        path = str(tmp_path / "items.jsonl")
        streamed = _outcome([*args, "--jsonl", path])
        named = tuple(
            value.replace(path, "-") if isinstance(value, str) else tuple(v.replace(path, "-") for v in value)
            for value in streamed
        )
        assert named == _from_stdin(monkeypatch, data, args), (extra, lines)
        if kernel_available():  # -j 2: threads score the chunks as they are read
            assert _outcome(["-j", "2", *args, "--jsonl", path]) == streamed, (extra, lines)


PLAIN = {"prediction": "the cat sat", "reference": "a cat sat"}


@pytest.mark.parametrize(
    "ids",
    [
        [None, "5", None, None, None],  # object 5's number is an ID given before it
        [None, None, "1", None],  # an ID that is an earlier object's number
        [None, "x", None, None, "x"],  # one given twice, in another chunk
        [None, "05", None, None, None],  # not a number as the default IDs are written
        [7, None, None, None, None, None, None],  # an integer ID, a later object's number
    ],
)
def test_eval_ids_repeated_across_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ids: list[Any]
) -> None:
    monkeypatch.setattr(executors, "TEXT_CHUNK", 2)
    lines = [json.dumps(PLAIN if given is None else {**PLAIN, "id": given}) for given in ids]
    data = ("\n".join(lines) + "\n").encode()
    path = tmp_path / "items.jsonl"
    path.write_bytes(data)
    streamed = _outcome(["-a", "-n", "1", "--jsonl", str(path)])
    read_whole = _from_stdin(monkeypatch, data, ["-a", "-n", "1"])
    assert streamed[0] == read_whole[0]
    assert streamed[1].replace(str(path), "-") == read_whole[1]


def test_a_file_larger_than_a_configuration_may_be_is_read_a_line_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A regular file has no size limit (a line has); standard input, read whole, keeps it."""
    limit = 4000
    monkeypatch.setattr(sources_module, "MAX_CONFIG_BYTES", limit)  # the whole read's and a line's
    item = {"prediction": "the cat sat on the mat", "reference": "a cat sat on a mat"}
    data = ("\n".join(json.dumps(item) for _ in range(400)) + "\n").encode()
    assert len(data) > 5 * limit
    path = tmp_path / "items.jsonl"
    path.write_bytes(data)
    found = _outcome(["-a", "-n", "1", "--jsonl", str(path)])
    assert found[0] == "ok" and "1 ROUGE-1 Average_R: 0.66667" in found[1]
    assert _from_stdin(monkeypatch, data, ["-a", "-n", "1"])[0] == "LimitError"
    path.write_bytes(data + json.dumps({"prediction": "x" * limit, "reference": "y"}).encode() + b"\n")
    with pytest.raises(LimitError, match="a line is larger than"):
        evaluate_args(["-e", str(REPO / "data"), "-a", "-n", "1", "--jsonl", str(path)])
