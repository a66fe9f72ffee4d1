"""From counts to scores: ``-f`` combines models, ``-p`` weighs P against R.

``ratio`` and ``f_measure`` are the only formulas of the Perl's dialect; the
per-instance scores (rounded to ``%7.5f`` as the Perl does), the ``-t 1``
resamples and the report all go through them. ``fmt5`` is the Perl's number
format, used here for the rounding the Perl does and by the report writers for
printing. rouge-score's dialect has its own rule: unrounded P and R, its
:func:`harmonic_f`, and of several models the one with the highest F
(:func:`best_by_f`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Optional, Sequence

from . import ModelCounts, Number, perl_power, rounded_ratio

__all__ = [
    "ScoringSettings",
    "Totals",
    "best_by_f",
    "best_by_perl_f",
    "best_index",
    "combine_models",
    "f_measure",
    "fmt5",
    "harmonic_f",
    "instance_scores",
    "jackknife_row",
    "ratio",
    "rouge_score_prf",
    "rounded",
    "split_scores",
]


@dataclass(frozen=True)
class ScoringSettings:
    """How an instance's model counts become its row: ``-f`` (``best_model``: B; ``best_f``: the
    model of highest F), ``-p`` (``alpha``) and ``-t`` (``counting``: 0 scores, 1 or 2 raw counts)."""

    best_model: bool = False
    alpha: float = 0.5
    counting: int = 0
    dialect: Optional[str] = None  # "rouge-score": its F, the best model by F
    best_f: bool = (
        False  # multi_ref="best-f" in the Perl's dialect: the model whose own row has the highest F
    )
    jackknife: bool = False  # the mean over every set of all models but one (jackknife_row)

    def signature_parts(self) -> dict[str, str]:
        """The signature's parts that name the scoring (see :meth:`Options.signature`)."""
        by_f = self.dialect is not None or self.best_f
        best = "F" if by_f else "B" if self.best_model else "A"
        parts = {"f": best, "p": repr(self.alpha), "t": str(self.counting)}
        if self.jackknife:
            parts["jk"] = "yes"
        return parts


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
    """The Perl's ``sprintf("%7.5f")``: an infinity or a NaN as Perl spells them (``    Inf``,
    ``   -Inf``, ``    NaN`` whatever its sign), where Python writes ``inf`` and ``nan``."""
    text = f"{value:7.5f}"
    if text[-1] > "9":  # "inf" or "nan": a number ends in a digit
        return ("NaN" if value != value else "Inf" if value > 0 else "-Inf").rjust(7)
    return text


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
        recall = round(perl_power(hit / model_count, power), 5) if model_count != 0 else 0.0
        precision = round(perl_power(hit / peer_count, power), 5) if peer_count != 0 else 0.0
    return recall, precision, round(f_measure(precision, recall, alpha), 5)


def jackknife_row(
    score: Callable[[Sequence[Any]], tuple[float, float, float]], per_model: Sequence[Any], own: Optional[int]
) -> tuple[float, float, float]:
    """``--jackknife``: the mean of an instance's rows against each set of all its models but
    one, ``score`` making a row of some models' counts; their R, P and F are summed in model
    order and divided by their number (ROUGE 1.4's procedure, as ROUGE-1.5.5's RELEASE-NOTE
    gives it). A peer that is model ``own`` itself (a person) is scored against the others
    alone; an instance of one model as without the jackknife."""
    count = len(per_model)
    if count < 2:
        return score(per_model)
    if own is not None:
        return score([c for k, c in enumerate(per_model) if k != own])
    recall = precision = f = 0.0
    for k in range(count):
        r, p, one_f = score([*per_model[:k], *per_model[k + 1 :]])
        recall += r
        precision += p
        f += one_f
    return recall / count, precision / count, f / count


def best_by_perl_f(
    per_model: Sequence[Any], alpha: float, power: Optional[float] = None, split: bool = False
) -> tuple[float, float, float]:
    """``multi_ref="best-f"``: the row of each model alone (as ``-f A`` scores one model, or
    :func:`split_scores` for ParaEval's ``split`` counts), the first of highest F."""
    best: Optional[tuple[float, float, float]] = None
    for counts in per_model:
        if split:
            row = split_scores([counts], False, alpha)
        else:
            row = instance_scores(Totals(counts.model_count, counts.peer_count, counts.hit), alpha, power)
        if best is None or row[2] > best[2]:
            best = row
    return best if best is not None else instance_scores(Totals(0, 0, 0), alpha, power)


def harmonic_f(precision: float, recall: float) -> float:
    """rouge-score's F: 2·P·R / (P + R), computed in that order; 0.0 where P + R is 0."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def rouge_score_prf(counts: ModelCounts) -> tuple[float, float, float]:
    """rouge-score's R, P, F of one model's counts: unrounded hit / max(count, 1), and :func:`harmonic_f`."""
    recall = counts.hit / max(counts.model_count, 1)
    precision = counts.hit / max(counts.peer_count, 1)
    return recall, precision, harmonic_f(precision, recall)


def best_index(values: Sequence[float]) -> int:
    """The index of the first highest value (``numpy.argmax``), as rouge-score picks a target by F."""
    if not len(values):
        raise ValueError("attempt to get argmax of an empty sequence")
    best = 0
    for k, value in enumerate(values):
        if value > values[best]:
            best = k
    return best


def best_by_f(per_model: Sequence[ModelCounts]) -> tuple[float, float, float]:
    """rouge-score's R, P, F of an instance: of the first model with the highest F (``score_multi``)."""
    if not per_model:
        return 0.0, 0.0, 0.0
    scored = [rouge_score_prf(counts) for counts in per_model]
    return scored[best_index([f for _, _, f in scored])]


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
