"""The metric registry: which metrics a run computes, in the Perl's output order.

Each entry turns the options into zero or more metrics; the report lists
them in registry order: ROUGE-N (1..n), L, W, S/SU, BE.
"""

from __future__ import annotations

from typing import Callable

from ..options import Options
from .base import Metric
from .be import BasicElements
from .lcs import Lcs, WeightedLcs
from .ngram import NGram
from .skipbigram import SkipBigram

__all__ = ["REGISTRY", "metric_plan"]


def _ngrams(o: Options) -> list[Metric]:
    return [NGram(n) for n in range(1, o.max_ngram + 1)]


def _lcs(o: Options) -> list[Metric]:
    return [Lcs()] if o.lcs else []


def _weighted_lcs(o: Options) -> list[Metric]:
    return [WeightedLcs(o.wlcs_weight, o.wlcs_label)] if o.wlcs_weight is not None else []


def _skip_bigrams(o: Options) -> list[Metric]:
    if o.skip_distance is None:
        return []
    if o.skip_unigrams:
        return [SkipBigram(o.skip_distance, o.skip_label, unigrams=True)]
    plain = SkipBigram(o.skip_distance, o.skip_label, unigrams=False)
    return [plain, SkipBigram(o.skip_distance, o.skip_label, unigrams=True)] if o.skip_both else [plain]


def _basic_elements(o: Options) -> list[Metric]:
    return [BasicElements(o.be_mode)] if o.be_mode is not None else []


REGISTRY: dict[str, Callable[[Options], list[Metric]]] = {
    "N": _ngrams,
    "L": _lcs,
    "W": _weighted_lcs,
    "S": _skip_bigrams,
    "BE": _basic_elements,
}


def metric_plan(options: Options) -> list[Metric]:
    """The metrics of a run, in the Perl's output order."""
    return [metric for make in REGISTRY.values() for metric in make(options)]
