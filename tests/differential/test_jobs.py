"""``-j N`` against one process on the random cases of the differential generator.

Every generated case (all metrics, odd inputs, missing peers, failing files)
runs with ``-j 1`` and with several workers: the exit code, the report and
stderr (warnings, and the error line when the case fails) must be the same.
No Perl is needed. ``ROUGE155PY_JOBS_CASES`` sets the number of cases; the fast
tier (``-m "not slow"``) runs the first three.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from tier import first_fast, seed_chunks

from .generate import make_case
from .runner import run_port

CASES = int(os.environ.get("ROUGE155PY_JOBS_CASES", "60"))
CHUNK = 10
FIRST_SEED = 300_000


@pytest.mark.parametrize(("start", "stop"), first_fast(seed_chunks(FIRST_SEED, CASES, CHUNK)), ids=str)
def test_jobs_match_one_process(tmp_path: Path, start: int, stop: int) -> None:
    problems = []
    for seed in range(start, stop):
        case = make_case(seed, tmp_path / str(seed), "ALL")
        if "-v" in case.args:  # -v reports the number of processes
            continue
        one = run_port(case)
        jobs = 2 + seed % 2
        many = run_port(dataclasses.replace(case, args=["-j", str(jobs), *case.args]))
        seen = (many.returncode, many.stdout, many.stderr)
        if seen != (one.returncode, one.stdout, one.stderr):
            problems.append(
                f"{case.describe()}\n-j {jobs}: exit {many.returncode} against {one.returncode}, "
                f"same stdout: {many.stdout == one.stdout}, stderr {many.stderr!r} against {one.stderr!r}"
            )
    assert not problems, "\n\n".join(problems)
