"""ROUGE-S and ROUGE-SU: skip-bigrams, with unigrams under ``-u``.

:func:`skip_bigrams` is the plain definition, the specification the fast paths
(the C kernel in :mod:`.pairs`, the numpy batches in :mod:`.units`) are tested
against, unit for unit; :class:`SkipBigram` is the metric the engine runs.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Hashable

from . import Grams
from .pairs import UnitMetric

__all__ = ["SkipBigram", "skip_bigrams"]


def skip_bigrams(tokens: list[str], distance: float, unigrams: bool) -> Grams:
    """Pairs (i, j), i < j <= i + distance + 1 (any j when distance < 0).

    As in the Perl, i stops at the second-to-last token, so the last token's
    unigram is never counted under ``-u``.
    """
    counts: Counter[Hashable] = Counter()
    last = len(tokens) - 1
    total = 0
    for i in range(last):
        first = tokens[i]
        if unigrams:
            counts[first] += 1
            total += 1
        end = last if distance < 0 else min(last, i + math.floor(distance + 1))
        for j in range(i + 1, end + 1):
            counts[(first, tokens[j])] += 1
        total += max(end - i, 0)
    return Grams(counts, total)


class SkipBigram(UnitMetric):
    """ROUGE-S (``-2 d``) or ROUGE-SU (with ``-u``/``-U``); a negative distance is unlimited (``S*``)."""

    def __init__(self, distance: float, label: str, unigrams: bool) -> None:
        self.distance = distance
        self.unigrams = unigrams
        suffix = label if distance >= 0 else "*"
        self.label = f"ROUGE-{'SU' if unigrams else 'S'}{suffix}"
