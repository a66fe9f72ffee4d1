"""ROUGE-N and skip-bigram counts of one (peer, model) pair, by the C kernel.

The kernel enumerates the units exactly as the plain definitions in
:mod:`.ngram` and :mod:`.skipbigram` do and clips each against the model's
counts; without the kernel, :mod:`.units` computes the same with numpy.
"""

from __future__ import annotations

import math
from array import array
from typing import Optional

from . import ModelCounts

try:
    from .. import _accel
except ImportError:  # the optional C kernel was not built
    _accel = None

__all__ = ["available", "pair_counts"]

_LONGEST_NGRAM = 64  # the kernel's limit; longer n-grams take the numpy path


def available(n: int) -> bool:
    """Whether the kernel can count units of this size (n = 0: skip-bigrams)."""
    return _accel is not None and n <= _LONGEST_NGRAM


def pair_counts(peer: array, model: array, n: int, distance: Optional[float], unigrams: bool) -> ModelCounts:
    """Counts of n-grams (n > 0) or of skip-bigrams within ``distance`` (n = 0)."""
    if n:
        hit, model_units, peer_units = _accel.unit_hits(peer, model, 0, n, 0, False)
    else:
        reach = -1 if distance is None or distance < 0 else math.floor(distance + 1)
        hit, model_units, peer_units = _accel.unit_hits(peer, model, 1, 0, reach, unigrams)
    return ModelCounts(hit, model_units, peer_units)
