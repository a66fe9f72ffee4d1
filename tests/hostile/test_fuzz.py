"""A few hundred cases of the fuzz target (``scripts/fuzz.py``; ``--cases N`` runs many more).

Generated and mutated configurations, file lists, summaries and command lines:
each run exits 0, or with a documented exit code and one error line; never a
traceback, a hang, a death by signal or a file left behind.
"""

from __future__ import annotations

import os

from .support import fuzz

CASES = int(os.environ.get("ROUGE155PY_FUZZ_CASES", "300"))
SEED = int(os.environ.get("ROUGE155PY_FUZZ_SEED", "2024"))


def test_fuzz_outcomes_are_clean() -> None:
    tally = fuzz.run_cases(CASES, SEED, timeout=30.0)
    problems = [fuzz.describe(case, outcome, verdict) for case, outcome, verdict in tally.bad]
    assert not problems, "\n".join(problems[:10])
    assert tally.counts["ok"] > CASES // 4  # most cases get as far as scoring
    assert sum(tally.counts.values()) == CASES
