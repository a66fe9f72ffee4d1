"""ParaEval and its paraphrase tables on hostile inputs: bounded memory and time, one error line.

Each case gave gigabytes, a traceback, a hang or a cut output before: a word repeated in both
texts (every pair of its places a candidate), overlapping groups whose searches added up, a
group far into a long peer, a ``.gz`` table whose first line inflates to gigabytes, a corrupt
``.gz`` table, the pivot builder on lines sharing one foreign phrase or writing to a closed
pipe, a table checked by name and opened by name again.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import resource
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from rouge155py import UsageError, score
from rouge155py.metrics import paraeval, paraphrases
from rouge155py.metrics.paraeval import Candidate, ParaEval, candidates, greedy, match_pair, solve_phrases

REPO = Path(__file__).resolve().parent.parent.parent
MEMORY_MB = 1024  # address space of a run below: each case took several GB before


def _run(args: list[str], cwd: Path, memory_mb: int = MEMORY_MB, **kwargs) -> subprocess.CompletedProcess:
    """``python -m ...args`` with at most ``memory_mb`` of address space."""

    def prepare() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    options = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=cwd,
        env=env,
        timeout=300,
        preexec_fn=prepare,
        check=False,
        **options,
    )


def _one_error_line(done: subprocess.CompletedProcess, code: int, words: str) -> str:
    err = done.stderr.decode("utf-8", "backslashreplace")
    assert done.returncode == code, err
    assert "Traceback" not in err, err
    lines = err.rstrip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("rouge155py: error: ") and words in lines[0], err
    return lines[0]


def _paraeval_run(tmp_path: Path, peer: str, model: str, table: bytes, name: str = "t.tsv"):
    (tmp_path / "h.txt").write_text(peer + "\n")
    (tmp_path / "r.txt").write_text(model + "\n")
    (tmp_path / name).write_bytes(table)
    return _run(
        ["rouge155py", "-a", "-x", "-n", "1", "--hyp", "h.txt", "--ref", "r.txt", "--paraphrases", name],
        tmp_path,
    )


def _recall(done: subprocess.CompletedProcess) -> str:
    line = next(x for x in done.stdout.decode().splitlines() if "ParaEval-3 Average_R" in x)
    return line.split()[3]


# -- item: the candidates of a word repeated in both texts are never all held -----------------


def test_a_word_repeated_in_both_texts_runs_in_bounded_memory(tmp_path: Path) -> None:
    # Every pair of places of "a" and "b" was a candidate row: 36 million rows, over 6 GB.
    done = _paraeval_run(tmp_path, " ".join(["b"] * 6000), " ".join(["a"] * 6000), b"a\tb\n")
    assert done.returncode == 0, done.stderr.decode()
    assert _recall(done) == "1.00000"
    assert done.stderr == b""  # tier 2 is greedy by definition: nothing to say


def test_a_phrase_repeated_in_both_texts_is_matched_greedily_in_bounded_memory(tmp_path: Path) -> None:
    # 3,499 x 3,499 two-word candidates for tier 1: more than its states allow, so greedy, and said.
    done = _paraeval_run(tmp_path, " ".join(["b"] * 3500), " ".join(["a"] * 3500), b"a a\tb b\n")
    assert done.returncode == 0, done.stderr.decode()
    assert _recall(done) == "1.00000"
    assert b"ParaEval: tier 1 matched greedily" in done.stderr


@pytest.mark.slow
def test_a_group_far_into_a_long_peer_searches_in_bounded_memory(tmp_path: Path) -> None:
    # Each state held an int as wide as the peer up to the group: 266,000 words in, 3.5 GB.
    peer = " ".join(["zz"] * 266_000 + ["b"] * 20)
    done = _paraeval_run(tmp_path, peer, " ".join(["a"] * 20), b"a a\tb b\n")
    assert done.returncode == 0, done.stderr.decode()
    assert _recall(done) == "1.00000"


def _blocks(groups: int, words: int) -> list[Candidate]:
    """``groups`` groups sharing no word, each every pair of two-word phrases of ``words`` words."""
    found = []
    for g in range(groups):
        at = g * words
        for i in range(words - 1):
            for j in range(words - 1):
                found.append(Candidate(at + i, 2, at + j, 2))
    return found


def test_the_states_of_all_groups_of_a_pair_count_against_one_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each group alone is searched within the cap; 40 of them went on for 40 times as long.
    monkeypatch.setattr(paraeval, "MAX_STATES", 2000)
    one, exact = solve_phrases(_blocks(1, 6), 6)
    assert exact and len(one) == 3
    chosen, exact = solve_phrases(_blocks(40, 6), 6 * 40)
    assert not exact
    assert sum(c.model_length for c in chosen) == 40 * 6


def test_a_search_past_its_bytes_is_matched_greedily(monkeypatch: pytest.MonkeyPatch) -> None:
    found = _blocks(1, 6)
    assert solve_phrases(found, 6)[1]
    monkeypatch.setattr(paraeval, "MAX_SEARCH_BYTES", 20_000)
    chosen, exact = solve_phrases(found, 6)
    assert not exact
    assert chosen == sorted(greedy(found, set(), set()))


def test_candidates_not_held_are_taken_in_greedys_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random texts and tables: past MAX_CANDIDATES (tier 2) and the states (tier 1), the
    candidates taken without listing them are those greedy takes of the listed ones."""
    import random

    rng = random.Random(33)
    words = "a b c d".split()
    for _ in range(300):
        peer = [rng.choice(words) for _ in range(rng.randint(1, 30))]
        model = [rng.choice(words) for _ in range(rng.randint(1, 30))]
        pairs = [
            (
                " ".join(rng.choices(words, k=rng.randint(1, 3))),
                " ".join(rng.choices(words, k=rng.randint(1, 3))),
            )
            for _ in range(rng.randint(0, 8))
        ]
        metric = ParaEval("3", pairs=pairs)
        listed = metric.match_tokens(peer, model)
        found = _texts(metric, peer, model)
        monkeypatch.setattr(paraeval, "MAX_CANDIDATES", 0)
        streamed = metric.match_tokens(peer, model)
        monkeypatch.setattr(paraeval, "_MASK_CELLS", 0)  # listed from each link's places, no mask
        monkeypatch.setattr(paraphrases, "_LINK_BLOCK", 1)  # the table's pairs looked up a phrase at a time
        assert streamed == metric.match_tokens(peer, model)
        expanded = candidates(*found)
        monkeypatch.undo()
        assert streamed.words == listed.words and streamed.tier3 == listed.tier3
        assert expanded == candidates(*found)
        # Tier 1 with no state to search: greedy over every multi-word candidate.
        multi = [c for c in candidates(*found) if c.model_length > 1 and c.peer_length > 1]
        cut = match_pair(*found, limit=0)
        assert list(cut.phrases) == sorted(greedy(multi, set(), set()))
        assert cut.exact == (not multi)


def _texts(metric: ParaEval, peer: list[str], model: list[str]):
    """(model text, peer text, table) of a metric given pairs, as ``match_tokens`` builds them."""
    import numpy as np

    from rouge155py.metrics.paraphrases import TableSpec, build_table

    vocabulary: dict[str, int] = {}

    def encode(texts):
        from array import array

        ids, offsets = array("i"), array("i", [0])
        for text in texts:
            ids.extend(
                vocabulary.setdefault(w, len(vocabulary))
                for w in (text.split() if isinstance(text, str) else text)
            )
            offsets.append(len(ids))
        return ids, offsets

    pairs = list(metric.pairs or ())
    table = build_table(TableSpec("<pairs>"), encode, [([a for a, _ in pairs], [b for _, b in pairs])])

    def text(tokens: list[str]) -> paraeval.Text:
        ids, offsets = encode([tokens])
        return paraeval.Text(np.asarray(ids, np.int64), list(offsets), table)

    return text(model), text(peer), table


# -- item: a table's lines are read with a limit, .gz too ------------------------------------


@pytest.mark.slow
def test_a_gz_table_whose_first_line_inflates_past_the_limit_is_refused(tmp_path: Path) -> None:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"a" * (1 << 20)
    data = b"".join(packer.compress(block) for _ in range(96)) + packer.compress(b"\tb\n") + packer.flush()
    assert len(data) < 200_000
    done = _paraeval_run(tmp_path, "a b", "a b", data, "long.gz")
    line = _one_error_line(done, 7, "paraphrase table long.gz, line 1")
    assert "1 MiB" in line


def test_a_table_line_past_the_limit_is_refused_with_its_number(tmp_path: Path) -> None:
    table = b"a\tb\n" + b"c" * (2 << 20) + b"\td\n"
    done = _paraeval_run(tmp_path, "a b", "a b", table)
    _one_error_line(done, 7, "paraphrase table t.tsv, line 2")


# -- item: a corrupt .gz table is one line ----------------------------------------------------


CORRUPT_GZ = bytes.fromhex("1f8b0800000000000003") + b"\xff" * 20  # a gzip header, then no deflate block


def test_a_corrupt_gz_table_is_one_line(tmp_path: Path) -> None:
    done = _paraeval_run(tmp_path, "a b", "a b", CORRUPT_GZ, "bad.gz")
    _one_error_line(done, 4, "cannot read paraphrase table bad.gz")


def test_a_corrupt_gz_moses_table_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.gz").write_bytes(CORRUPT_GZ)
    done = _run(["rouge155py.paraphrases", "--moses", "bad.gz", "--out", "out.tsv"], tmp_path)
    _one_error_line(done, 4, "cannot read paraphrase table bad.gz")


# -- item: the pivot builder is bounded, and its output written whole or refused --------------


@pytest.mark.slow
def test_pivoting_lines_that_share_one_foreign_phrase_is_bounded(tmp_path: Path) -> None:
    # 3,000 English phrases of one foreign phrase: 9 million pairs, held at once before.
    (tmp_path / "moses.txt").write_text("".join(f"e{i} ||| f ||| 0.5 0.1 0.5 0.1\n" for i in range(3000)))
    done = _run(
        ["rouge155py.paraphrases", "--moses", "moses.txt", "--out", "-", "--threshold", "0.3"],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == b"" and done.stderr == b""
    done = _run(
        ["rouge155py.paraphrases", "--moses", "moses.txt", "--out", "out.tsv", "--threshold", "0.2"],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr.decode()
    with open(tmp_path / "out.tsv", "rb") as out:
        assert out.readline() == b"e0\te1\t0.25\n"
        assert sum(1 for _ in out) == 3000 * 2999 - 1


def test_the_pivot_builder_writing_to_a_closed_pipe_is_exit_1(tmp_path: Path) -> None:
    (tmp_path / "moses.txt").write_text("".join(f"e{i} ||| f ||| 0.5 0.1 0.5 0.1\n" for i in range(300)))
    read, write = os.pipe()
    os.close(read)  # the reader is gone before a byte is written (as `| head -c 10` once it has them)
    try:
        done = _run(["rouge155py.paraphrases", "--moses", "moses.txt", "--out", "-"], tmp_path, stdout=write)
    finally:
        os.close(write)
    _one_error_line(done, 1, "cannot write the table to standard output")


def test_the_pivot_builder_writing_to_a_full_disk_is_exit_1(tmp_path: Path) -> None:
    (tmp_path / "moses.txt").write_text("a ||| f ||| 0.5 0.1 0.5 0.1\nb ||| f ||| 0.5 0.1 0.5 0.1\n")
    done = _run(["rouge155py.paraphrases", "--moses", "moses.txt", "--out", "/dev/full"], tmp_path)
    _one_error_line(done, 1, "cannot write the table to /dev/full")


# -- item: the table is opened once, checked and digested from that descriptor ---------------


@pytest.mark.parametrize("name", ["t.tsv", "t.gz"])
def test_the_table_is_opened_once_and_its_digest_is_of_the_bytes_loaded(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = tmp_path / name
    loaded = b"bombing\tblowing up\n"
    if name.endswith(".gz"):
        loaded = gzip.compress(loaded)
    table.write_bytes(loaded)
    opened: list[str] = []
    real_open = os.open

    def counting_open(path, *args, **kwargs):
        if os.fspath(path) == str(table):
            opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", counting_open)
    monkeypatch.setattr("builtins.open", _refuse(str(table), open))
    report = score(["the bombing"], ["the blowing up"], paraphrases=str(table), lcs=False)
    table.write_bytes(b"another\ttable\n")  # the file changes after the run read it
    signature = report.to_json()["signature"]
    assert report.result("ParaEval-3").instances["1.1"][0] == 1.0
    assert len(opened) == 1
    assert f"pp:sha256-{hashlib.sha256(loaded).hexdigest()[:16]}" in signature


def _refuse(path: str, real_open):
    """``open`` that fails the test when it opens ``path`` by name (the table is read from the
    one descriptor its check was made on)."""

    def guarded(file, *args, **kwargs):
        assert not (isinstance(file, (str, os.PathLike)) and os.fspath(file) == path), "opened by name"
        return real_open(file, *args, **kwargs)

    return guarded


@pytest.mark.parametrize(
    "arguments",
    [({"a": 1},), ("0.5",), (None,), (0.0, "2"), (0.0, 2, -1), (0.0, True)],
    ids=["dict", "str", "none", "column str", "column negative", "column bool"],
)
def test_pivot_refuses_arguments_of_another_kind(arguments: tuple) -> None:
    from rouge155py.metrics.paraphrases import pivot

    with pytest.raises(UsageError):
        list(pivot([b"a ||| f ||| 0.5 0.5 0.5 0.5", b"b ||| f ||| 0.5 0.5 0.5 0.5"], *arguments))
