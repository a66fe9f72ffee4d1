"""The fast tier: ``python -m pytest -m "not slow"`` runs what is not marked ``slow``.

A sweep of generated cases keeps a quick representative there: its first few
cases, a chunk of their own; the rest of the sweep runs in the whole suite.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from _pytest.mark.structures import ParameterSet

SLOW = pytest.mark.slow
# The cases of a sweep that run in the fast tier.
QUICK = 3


def seed_chunks(first: int, count: int, size: int) -> list[tuple[int, int]]:
    """``count`` seeds from ``first`` as (start, stop) chunks of ``size``, the first ``QUICK`` apart."""
    stops = sorted({min(QUICK, count), *range(size, count, size), count} - {0})
    starts = [0, *stops[:-1]]
    return [(first + start, first + stop) for start, stop in zip(starts, stops)]


def first_fast(cases: Sequence[Any]) -> list[Any]:
    """The first case as it is, every other one marked slow (a case is a tuple, a value or a param)."""
    marked = []
    for case in cases[1:]:
        if isinstance(case, ParameterSet):
            marked.append(pytest.param(*case.values, marks=[*case.marks, SLOW], id=case.id))
        else:
            marked.append(pytest.param(*(case if isinstance(case, tuple) else (case,)), marks=SLOW))
    return [*cases[:1], *marked]
