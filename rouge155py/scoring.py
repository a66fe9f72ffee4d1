"""From counts to scores: ``-f`` combines models, ``-p`` weighs P against R.

``ratio`` and ``f_measure`` are the only formulas; the per-instance scores
(rounded to ``%7.5f`` as the Perl does), the ``-t 1`` resamples and the
report all go through them. ``fmt5`` is the Perl's number format, used here
for the rounding the Perl does and by the report writers for printing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, Optional, Sequence

from .metrics import ModelCounts, Number, rounded_ratio

__all__ = [
    "ScoringSettings",
    "Totals",
    "combine_models",
    "f_measure",
    "fmt5",
    "instance_scores",
    "ratio",
    "rounded",
    "split_scores",
]


@dataclass(frozen=True)
class ScoringSettings:
    """How an instance's model counts become its row: ``-f`` (``best_model``: B), ``-p``
    (``alpha``) and ``-t`` (``counting``: 0 scores, 1 or 2 raw counts)."""

    best_model: bool = False
    alpha: float = 0.5
    counting: int = 0

    def signature_parts(self) -> dict[str, str]:
        """The signature's parts that name the scoring (see :meth:`Options.signature`)."""
        return {"f": "B" if self.best_model else "A", "p": repr(self.alpha), "t": str(self.counting)}


class Totals(NamedTuple):
    """One instance's counts after ``-f`` has combined its models."""

    model_count: Number
    peer_count: Number
    hit: Number


def combine_models(per_model: Sequence[ModelCounts], best_model: bool) -> Totals:
    """``-f A`` sums over models in order; ``-f B`` keeps the first best-scoring one."""
    if not best_model:
        if len(per_model) == 1:  # 0 + x is x: the sum of one model is its counts
            counts = per_model[0]
            return Totals(counts.model_count, counts.peer_count, counts.hit)
        model_count: Number = 0
        peer_count: Number = 0
        hit: Number = 0
        for counts in per_model:
            hit += counts.hit
            model_count += counts.model_count
            peer_count += counts.peer_count
        return Totals(model_count, peer_count, hit)
    best = -1.0
    found = Totals(0, 0, 0)
    for counts in per_model:
        score = counts.score
        if score is None:
            score = rounded_ratio(counts.hit, counts.model_count)
        if score > best:
            best = score
            found = Totals(counts.model_count, counts.peer_count, counts.hit)
    return found


def ratio(hit: float, count: float) -> float:
    """hit / count, 0 where count is not positive."""
    return hit / count if count > 0 else 0.0


def f_measure(precision: float, recall: float, alpha: float) -> float:
    """P·R / ((1−α)·P + α·R), 0 where the denominator is not positive."""
    return ratio(precision * recall, (1 - alpha) * precision + alpha * recall)


def fmt5(value: float) -> str:
    """The Perl's ``sprintf("%7.5f")``."""
    return f"{value:7.5f}"


def rounded(value: float) -> float:
    """The value the Perl keeps after ``sprintf("%7.5f")``: what it prints and averages.

    ``round(value, 5)`` is ``float(fmt5(value))``: CPython rounds a float to 5
    decimals by the same correctly rounded conversion to 5 decimal digits that
    formats it (ties to even on the exact binary value, as C's printf does),
    then reads those digits back.
    """
    return round(value, 5)


def instance_scores(
    totals: Totals, alpha: float, power: Optional[float] = None
) -> tuple[float, float, float]:
    """Rounded R, P, F of one instance; F is computed from the ROUNDED P and R.

    ``power`` (ROUGE-W's 1/w) is applied to the ratios before rounding.
    """
    model_count, peer_count, hit = totals
    # rounded(), written out here (a hot loop).
    if power is None:
        recall = round(hit / model_count, 5) if model_count != 0 else 0.0
        precision = round(hit / peer_count, 5) if peer_count != 0 else 0.0
    else:
        recall = round((hit / model_count) ** power, 5) if model_count != 0 else 0.0
        precision = round((hit / peer_count) ** power, 5) if peer_count != 0 else 0.0
    return recall, precision, round(f_measure(precision, recall, alpha), 5)


def split_scores(per_model: Sequence[Any], best_model: bool, alpha: float) -> tuple[float, float, float]:
    """Rounded R, P, F of a ParaEval instance, whose counts hold the model words matched (``hit``)
    and the peer words matched (``peer_hit``) apart: ``-f A`` sums each over the models,
    ``-f B`` keeps the first model of best rounded recall."""
    if best_model:
        best, found = -1.0, None
        for counts in per_model:
            score = rounded_ratio(counts.hit, counts.model_count)
            if score > best:
                best, found = score, counts
        chosen = [found] if found is not None else []
    else:
        chosen = list(per_model)
    hit = model_count = peer_hit = peer_count = 0
    for counts in chosen:
        hit += counts.hit
        model_count += counts.model_count
        peer_hit += counts.peer_hit
        peer_count += counts.peer_count
    recall = round(hit / model_count, 5) if model_count != 0 else 0.0
    precision = round(peer_hit / peer_count, 5) if peer_count != 0 else 0.0
    return recall, precision, round(f_measure(precision, recall, alpha), 5)
