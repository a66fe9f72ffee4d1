"""A few hundred cases of the fuzz target (``fuzz.py``, which says how to run many more).

Generated and mutated configurations, file lists, summaries and command lines:
each run exits 0, or with a documented exit code and one error line; never a
traceback, a hang, a death by signal or a file left behind.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import pytest
from reference.oracle import Oracle

from .support import fuzz

pytestmark = pytest.mark.slow

CASES = int(os.environ.get("ROUGE155PY_FUZZ_CASES", "300"))
SEED = int(os.environ.get("ROUGE155PY_FUZZ_SEED", "2024"))
KEEP = os.environ.get("ROUGE155PY_FUZZ_KEEP")
WITH_PERL = bool(os.environ.get("ROUGE155PY_FUZZ_PERL"))


@pytest.fixture
def perl(request: pytest.FixtureRequest) -> Optional[Oracle]:
    """The reference Perl where ``ROUGE155PY_FUZZ_PERL`` asks for it (skipped without it), else None."""
    return request.getfixturevalue("oracle") if WITH_PERL else None


def test_fuzz_outcomes_are_clean(perl: Optional[Oracle]) -> None:
    keep = None if KEEP is None else Path(KEEP)
    tally = fuzz.run_cases(CASES, SEED, timeout=30.0, keep=keep, oracle=perl)
    print(fuzz.summary(tally, SEED, perl is not None))
    problems = [fuzz.describe(case, outcome, verdict) for case, outcome, verdict in tally.bad]
    assert not problems, "\n".join(problems[:10])
    assert tally.counts["ok"] > CASES // 4  # most cases get as far as scoring
    assert sum(tally.counts.values()) == CASES
    differs = [fuzz.describe(*found) for found in tally.perl_cases if found[2] == "differs from the Perl"]
    assert not differs, "\n".join(differs[:10])
