"""The JSONL door (``rouge155py --jsonl FILE``), proved against ROUGE-1.5.5.pl.

Each in-memory case of :func:`~.doors.make_door_case` is written as a JSONL
file, one object a line in the shapes dataset tools export (``prediction`` or
``predictions``, ``reference`` or ``references``, sentence lists, an ``id`` at
times, keys that are ignored), beside the SPL files it stands for. The port's
report on the JSONL file must be the bytes the Perl prints for those files.
``ROUGE155PY_DOOR_CASES`` (default 60) sets how many, half of them run by the Perl;
the fast tier (``-m "not slow"``) runs the first three.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from tier import first_fast, seed_chunks

from rouge155py import RougeError, Sentences, evaluate_args, format_legacy

from .doors import DoorCase, Summary, make_door_case, option_words, write_door_case
from .runner import DATA_DIR, Outcome, Result, compare

CASES = max(4, int(os.environ.get("ROUGE155PY_DOOR_CASES", "60")) // 2)
CHUNK = 10
TIMEOUT = 120.0


def _as_json(summary: Summary) -> Any:
    """A summary as a JSON value holding the same bytes (bytes read as UTF-8, the rest escaped)."""
    if isinstance(summary, bytes):
        return summary.decode("utf-8", "surrogateescape")
    if isinstance(summary, Sentences):
        return list(summary)  # a JSONL line's list of sentences
    return summary


def write_jsonl_case(case: DoorCase, root: Path) -> list[str]:
    """The case's JSONL file in ``root``; the rouge155py arguments that score it (without ``-e``)."""
    rng = random.Random(case.seed)
    systems = case.systems()
    lines = []
    for index, references in enumerate(case.references):
        item: dict[str, Any] = {}
        if rng.random() < 0.3:
            item["source"] = "an article the summaries are of"
        if rng.random() < 0.3:
            item["id"] = str(index + 1) if rng.random() < 0.5 else index + 1
        if isinstance(case.predictions, list):
            item["prediction"] = _as_json(case.predictions[index])
        else:
            item["predictions"] = {peer_id: _as_json(items[index]) for peer_id, items in systems.items()}
        if isinstance(references, (str, bytes)) and rng.random() < 0.5:
            item["reference"] = _as_json(references)
        else:
            listed = [references] if isinstance(references, (str, bytes)) else references
            item["references"] = [_as_json(r) for r in listed]
        lines.append(json.dumps(item, ensure_ascii=rng.random() < 0.5))
    text = "\n".join(lines) + ("\n" if rng.random() < 0.8 else "")
    (root / "items.jsonl").write_text(text, encoding="utf-8", errors="surrogatepass")
    words = option_words(case.options)
    if case.options.get("jobs", 1) > 1:
        words += ["-j", str(case.options["jobs"])]
    return [*words, "--jsonl", "items.jsonl"]


def _chunks(count: int) -> list[Any]:
    """``count`` cases in chunks, the first few in the fast tier."""
    return first_fast(seed_chunks(0, count, CHUNK))


def _port(args: list[str]) -> Outcome:
    try:
        text = format_legacy(evaluate_args(["-e", str(DATA_DIR), *args])).encode("utf-8", "surrogateescape")
    except RougeError as error:
        return Outcome(error.exit_code, b"", str(error).encode(), 0.0)
    return Outcome(0, text, b"", 0.0)


@pytest.mark.parametrize(("start", "stop"), _chunks(CASES), ids=str)
def test_jsonl_matches_perl(oracle, tmp_path: Path, monkeypatch, start: int, stop: int) -> None:
    problems = []
    for seed in range(start, stop):
        case = make_door_case(seed)
        written = write_door_case(case, tmp_path / str(seed))
        args = write_jsonl_case(case, tmp_path / str(seed))
        monkeypatch.chdir(tmp_path / str(seed))
        port = _port(args)
        proc = oracle.run(written.command(oracle.data_dir), cwd=written.cwd, timeout=TIMEOUT)
        perl = Outcome(proc.returncode, proc.stdout, proc.stderr, 0.0)
        problem = compare(Result(case, perl, port))
        if problem is not None:
            problems.append(f"{problem}\nrouge155py arguments: {args}")
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize(("start", "stop"), _chunks(2 * CASES), ids=str)
def test_jsonl_matches_configuration_door(tmp_path: Path, monkeypatch, start: int, stop: int) -> None:
    """Without the Perl: ``--jsonl`` prints what the SPL configuration it stands for prints."""
    problems = []
    for seed in range(start, stop):
        case = make_door_case(seed)
        written = write_door_case(case, tmp_path / str(seed))
        args = write_jsonl_case(case, tmp_path / str(seed))
        monkeypatch.chdir(written.cwd)
        config = _port(written.args)
        monkeypatch.chdir(tmp_path / str(seed))
        door = _port(args)
        if (config.returncode, config.stdout) != (door.returncode, door.stdout):
            problems.append(f"{case.describe()}\n{config}\n{door}\nrouge155py arguments: {args}")
    assert not problems, "\n\n".join(problems)
