"""ROUGE-N: n-gram co-occurrence.

:func:`ngrams` is the plain definition, the specification the C kernel
(:mod:`.pairs`) is tested against, unit for unit, and the path without it;
:class:`NGram` is the metric the engine runs.
"""

from __future__ import annotations

from collections import Counter
from typing import Hashable, Optional, Sequence

from . import Grams
from .base import KernelSpec
from .pairs import LONGEST_NGRAM, UnitMetric

__all__ = ["NGram", "ngrams"]


def ngrams(tokens: Sequence[Hashable], n: int) -> Grams:
    """The n-grams of a token sequence (no n-gram spans two files)."""
    count = max(len(tokens) - n + 1, 0)
    if n == 1:
        return Grams(Counter(tokens), count)
    return Grams(Counter(tuple(tokens[i : i + n]) for i in range(count)), count)


class NGram(UnitMetric):
    """ROUGE-n. Unlike every other metric, it stems models as it stems the peer (``-m``)."""

    switches_stemming = False

    def __init__(self, n: int) -> None:
        self.n = n
        self.label = f"ROUGE-{n}"

    def model_stems(self, models: int, stem_now: bool, only_models: bool) -> tuple[tuple[bool, bool], ...]:
        return ((stem_now, stem_now),) * models

    def grams(self, tokens: Sequence[Hashable]) -> Grams:
        return ngrams(tokens, self.n)

    def kernel_spec(self) -> Optional[KernelSpec]:
        return (0, self.n, 0, False, 0.0) if self.n <= LONGEST_NGRAM else None

    def rs_kernel_spec(self) -> Optional[tuple[int, int]]:
        return (0, self.n)

    def trace_eval(self, eval_id: str) -> list[str]:
        return [f"@Eval ({eval_id})"]

    def trace_totals(self) -> tuple[str, tuple[str, str, str], bool]:
        name = f"ROUGE-{self.n}"
        return f"{self.n}-gram", (f"{name}-R", f"{name}-P", f"{name}-F"), False
