"""ParaEval with an empty table is ROUGE-1: its printed rows against the Perl's ROUGE-1 rows.

Random ROUGE-N cases of the differential generator (``-t`` left out: ParaEval needs
``-t 0``, and no ``-v``: cases bundling them are skipped, as ``-n 0``; ``-d`` added, so
every instance's row is compared too) run through the Perl and through the port with
``--paraphrases`` naming an empty table; the port's ``ParaEval-3`` lines, renamed
``ROUGE-1``, must be the Perl's ``ROUGE-1`` lines byte for byte (averages, intervals,
and R, P, F of each instance).
``ROUGE155PY_PARAEVAL_DIFF_CASES`` (default 100) cases, seeds from 300,000 on; the fast
tier (``-m "not slow"``) runs the first three.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from tier import first_fast, seed_chunks

from rouge155py.settings.argv import parse_command_line

from .generate import make_case
from .runner import run_perl, run_port

if TYPE_CHECKING:
    from reference.oracle import Oracle

CASES = int(os.environ.get("ROUGE155PY_PARAEVAL_DIFF_CASES", "100"))
FIRST_SEED = 300_000 + int(os.environ.get("ROUGE155PY_DIFF_SEED", "0"))
CHUNK = 20


def _without_counting(args: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-t":
            skip = True
        else:
            out.append(arg)
    return out


def _rows(stdout: bytes, label: bytes) -> list[bytes]:
    """The report's lines of one metric (averages and ``-d`` rows), renamed ``ROUGE-1``."""
    out = []
    for line in stdout.split(b"\n"):
        fields = line.split(b" ")
        if len(fields) > 2 and fields[1] == label:
            out.append(b" ".join([fields[0], b"ROUGE-1", *fields[2:]]))
    return out


@pytest.mark.parametrize(("start", "stop"), first_fast(seed_chunks(FIRST_SEED, CASES, CHUNK)), ids=str)
def test_empty_table_paraeval_3_is_perl_rouge_1(
    oracle: Oracle, tmp_path: Path, start: int, stop: int
) -> None:
    empty = tmp_path / "empty-table.tsv"
    empty.write_bytes(b"")
    problems = []
    compared = lines = 0
    for seed in range(start, stop):
        case = make_case(seed, tmp_path / str(seed), "N")
        if case.expect_failure:
            continue
        case.args = ["-d", *_without_counting(case.args)]
        options = parse_command_line(case.args).options
        if options is None or options.verbose or options.counting or not options.max_ngram:
            continue  # bundled -at1, -sv ...; -n 0 prints no ROUGE-1 to compare with
        perl = run_perl(case, oracle)
        case.args = ["--paraphrases", str(empty), *case.args]
        port = run_port(case)
        if perl.returncode != 0 or port.returncode != 0:
            assert (perl.returncode == 0) == (port.returncode == 0), case.describe()
            continue
        expected = _rows(perl.stdout, b"ROUGE-1")
        got = _rows(port.stdout, b"ParaEval-3")
        if got != expected:
            problems.append(f"{case.describe()}\nperl: {expected[:6]!r}\nport: {got[:6]!r}")
        if expected:  # some evaluations print no row (no peer evaluated): they agree, and are not counted
            compared += 1
            lines += len(expected)
    print(f"seeds {start}..: {compared} evaluations compared, {lines} ROUGE-1 lines identical")
    assert not problems, "\n\n".join(problems)
    assert compared >= (stop - start) // 3  # most cases are compared, not skipped
