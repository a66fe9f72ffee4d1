"""ROUGE-N: n-gram co-occurrence, by its plain definition.

This is the specification the fast paths (the C kernel in :mod:`.pairs`, the
numpy batches in :mod:`.units`) are tested against, unit for unit.
"""

from __future__ import annotations

from collections import Counter

from . import Grams

__all__ = ["ngrams"]


def ngrams(tokens: list[str], n: int) -> Grams:
    """The n-grams of a token sequence (no n-gram spans two files)."""
    count = max(len(tokens) - n + 1, 0)
    if n == 1:
        return Grams(Counter(tokens), count)
    return Grams(Counter(tuple(tokens[i : i + n]) for i in range(count)), count)
