"""Metrics: each turns one peer and one model into raw counts.

Every metric returns :class:`ModelCounts` (hits, model count, peer count, and
the score ``-f B`` compares); :mod:`rouge155py.metrics.scoring` alone turns counts into
recall, precision and F.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Hashable, NamedTuple, Optional, Sequence, Union

from ..errors import UsageError

__all__ = [
    "GIVEN_MODEL",
    "GIVEN_PEER",
    "Grams",
    "ModelCounts",
    "clipped_hits",
    "given_list",
    "perl_power",
    "rounded_ratio",
    "score_grams",
    "skip_reach",
]

Number = Union[int, float]


class ModelCounts(NamedTuple):
    """What one model contributes to an instance."""

    hit: Number
    model_count: Number
    peer_count: Number
    score: Optional[float] = None  # None: the rounded recall, computed when -f B asks


@dataclass(frozen=True)
class Grams:
    """A multiset of units (n-grams, skip-bigrams, BEs) and the count the Perl keeps."""

    counts: Counter[Hashable]
    total: int


def clipped_hits(model: Counter[Hashable], peer: Counter[Hashable]) -> int:
    """Sum over the model's units of min(peer count, model count)."""
    if len(peer) < len(model):
        return sum(min(n, model[g]) for g, n in peer.items() if g in model)
    return sum(min(n, peer[g]) for g, n in model.items() if g in peer)


def perl_power(x: float, y: float) -> float:
    """``x ** y`` as C and Perl compute it: infinity where the result overflows (Python raises)."""
    try:
        return x**y
    except OverflowError:
        return math.inf


def rounded_ratio(hit: Number, count: Number) -> float:
    """The Perl's per-model recall for ``-f B``: ``%07.5f`` of hit/count read back, 0 without units.

    ``round(x, 5)`` is that value (see :func:`rouge155py.metrics.scoring.rounded`; the zero padding
    changes no digit).
    """
    return round(hit / count, 5) if count != 0 else 0.0


def score_grams(model: Grams, peer: Grams) -> ModelCounts:
    """Clipped unit matches of one model against the peer."""
    return ModelCounts(clipped_hits(model.counts, peer.counts), model.total, peer.total)


# Token positions are int32: a skip-bigram reach of this much or more is no limit.
_NO_LIMIT = 2**31


def skip_reach(distance: float) -> int:
    """The largest j - i of a skip-bigram (i, j) under ``-2 distance``; -1 for no limit.

    The Perl pairs token i with j <= i + distance + 1, any j when distance < 0.
    A distance of 1e19 pairs every token with every later one, as no limit does
    (and as an integer it would not fit the kernel's).
    """
    if distance < 0 or distance + 1 >= _NO_LIMIT:
        return -1
    return math.floor(distance + 1)


#: The names of the two texts of :meth:`~rouge155py.metrics.base.Metric.score_pair` in its errors.
GIVEN_PEER, GIVEN_MODEL = "the peer given", "the model given"


def given_list(text: Sequence[Any], name: str) -> list[Any]:
    """A text given to ``score_pair``, as a list: a string is refused, its items would be characters."""
    if isinstance(text, (str, bytes, bytearray)):
        raise UsageError(
            f"{name} is a {type(text).__name__}; expected a list (of tokens, sentences or BE lines)"
        )
    return list(text)
