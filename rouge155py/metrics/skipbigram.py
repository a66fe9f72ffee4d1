"""ROUGE-S and ROUGE-SU: skip-bigrams, with unigrams under ``-u``.

:func:`skip_bigrams` is the plain definition, the specification the C kernel
(:mod:`.pairs`) is tested against, unit for unit, and the path without it;
:class:`SkipBigram` is the metric the engine runs.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Hashable, Optional, Sequence

from . import Grams, ModelCounts
from .base import KernelSpec
from .pairs import UnitMetric

__all__ = ["SkipBigram", "skip_bigram_hits", "skip_bigram_total", "skip_bigrams"]

# Without the kernel, a text of more skip-bigrams than this is scored pair by pair (skip_bigram_hits).
_HELD_UNITS = 100_000


def skip_bigrams(tokens: Sequence[Hashable], distance: float, unigrams: bool) -> Grams:
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
        self.distance_label = label  # -2 as given
        self.unigrams = unigrams
        suffix = label if distance >= 0 else "*"
        self.label = f"ROUGE-{'SU' if unigrams else 'S'}{suffix}"

    def grams(self, tokens: Sequence[Hashable]) -> Grams:
        assert self.distance is not None  # a SkipBigram is made with its distance
        return skip_bigrams(tokens, self.distance, self.unigrams)

    def kernel_spec(self) -> Optional[KernelSpec]:
        return (1, 0, self.reach, self.unigrams, 0.0)

    def trace_totals(self) -> tuple[str, tuple[str, str, str], bool]:
        head = f"ROUGE-S{self.distance_label}"
        return head, (f"{head}-R", f"{head}-P", f"{head}-F"), True  # the Perl prints the recall thrice

    def holds(self, tokens: int) -> bool:
        return skip_bigram_total(tokens, self.reach, self.unigrams) <= _HELD_UNITS

    def long_counts(self, peer: Sequence[Hashable], model: Sequence[Hashable]) -> ModelCounts:
        reach = self.reach
        return ModelCounts(
            skip_bigram_hits(peer, model, reach, self.unigrams),
            skip_bigram_total(len(model), reach, self.unigrams),
            skip_bigram_total(len(peer), reach, self.unigrams),
        )


def skip_bigram_total(length: int, reach: int, unigrams: bool) -> int:
    """The Perl's skip-bigram count of a text of ``length`` tokens (reach -1: no limit).

    Token i < last pairs with min(reach, last - i) later tokens: the sum over
    k = 1 .. last of min(reach, k); ``-u`` adds one unigram per token but the last.
    """
    last = length - 1
    if last < 1:
        return 0
    if reach < 0 or reach >= last:
        pairs = last * (last + 1) // 2
    else:
        pairs = reach * (reach + 1) // 2 + (last - reach) * reach
    return pairs + (last if unigrams else 0)


def skip_bigram_hits(peer: Sequence[Hashable], model: Sequence[Hashable], reach: int, unigrams: bool) -> int:
    """Clipped skip-bigram hits of one pair (reach -1: no limit), holding the shorter text's units only.

    One pass over the longer text keeps, per first token of the shorter text's units, its
    copies among the tokens that the current token pairs with as second (all before it, or
    the ``reach`` before it): at a token b, the count of each unit (a, b) grows by those of a.
    """
    short, long = (peer, model) if len(peer) <= len(model) else (model, peer)
    units = skip_bigrams(short, reach - 1 if reach >= 0 else -1, unigrams).counts
    if not units or len(long) < 2:
        return 0
    firsts: dict[Hashable, list[Hashable]] = {}  # second token -> the first tokens it pairs with
    seen: Counter[Hashable] = Counter()
    for unit in units:
        if isinstance(unit, tuple):
            firsts.setdefault(unit[1], []).append(unit[0])
    if unigrams:
        for token in long[:-1]:
            if token in units:
                seen[token] += 1
    held: Counter[Hashable] = Counter()  # copies of each first token in the window
    for j, token in enumerate(long):
        for first in firsts.get(token, ()):
            if held[first]:
                seen[(first, token)] += held[first]
        held[token] += 1
        if reach >= 0 and j - reach >= 0:
            held[long[j - reach]] -= 1
    return sum(min(count, seen[unit]) for unit, count in units.items())
