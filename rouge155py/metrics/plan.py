"""The metric registry: which metrics a run computes, in the Perl's output order.

Each entry turns the metric settings into zero or more metrics; the report
lists them in registry order: ROUGE-N (1..n), L, W, S/SU, BE, then ParaEval's rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from .base import Metric
from .lcs import Lcs, WeightedLcs
from .ngram import NGram
from .skipbigram import SkipBigram

# Basic Elements (-3) and ParaEval (--paraphrases) are imported by the runs that use them.

__all__ = ["REGISTRY", "MetricSettings", "metric_plan"]


@dataclass(frozen=True)
class MetricSettings:
    """Which metrics a run computes: ``-n``, ROUGE-L (off under ``-x``/``-3``), ``-w``, ``-2``
    with ``-u``/``-U``, ``-3``. Labels are the values as given (``-w 1.20`` prints ``W-1.20``).
    Checked by :class:`~rouge155py.Options`, which builds them."""

    max_ngram: int = 0
    lcs: bool = True
    wlcs_weight: Optional[float] = None
    wlcs_label: Optional[str] = None
    skip_distance: Optional[float] = None
    skip_label: Optional[str] = None
    skip_unigrams: bool = False
    skip_both: bool = False
    be_mode: Optional[str] = None
    paraphrases: Optional[str] = None  # --paraphrases FILE: ParaEval rows
    paraphrase_feature: Optional[str] = None
    paraphrase_threshold: Optional[float] = None
    paraeval_variants: str = "3"

    def signature_parts(self) -> dict[str, str]:
        """The signature's parts that name the metrics (see :meth:`Options.signature`)."""
        return {
            "n": str(self.max_ngram),
            "L": "yes" if self.lcs else "no",
            "w": self.wlcs_label or "no",
            "2": self.skip_label if self.skip_distance is not None else "no",  # type: ignore[dict-item]
            "u": "yes" if self.skip_unigrams else "no",
            "U": "yes" if self.skip_both else "no",
            "3": self.be_mode or "no",
            **self._paraeval_parts(),
        }

    def _paraeval_parts(self) -> dict[str, str]:
        """ParaEval's parts: the rows, the table's digest, feature and threshold."""
        if self.paraphrases is None:
            return {}
        from .paraeval import variant_labels
        from .paraphrases import table_digest

        parts = {"paraeval": "+".join(variant_labels(self.paraeval_variants))}
        parts["pp"] = f"sha256-{table_digest(self.paraphrases)}"
        if self.paraphrase_threshold is not None:
            parts["pp-min"] = f"{self.paraphrase_threshold:g}"
            parts["pp-feature"] = self.paraphrase_feature or "default"
        return parts


def _ngrams(o: MetricSettings) -> list[Metric]:
    return [NGram(n) for n in range(1, o.max_ngram + 1)]


def _lcs(o: MetricSettings) -> list[Metric]:
    return [Lcs()] if o.lcs else []


def _weighted_lcs(o: MetricSettings) -> list[Metric]:
    if o.wlcs_weight is None:
        return []
    assert o.wlcs_label is not None  # Options gives a weight its label
    return [WeightedLcs(o.wlcs_weight, o.wlcs_label)]


def _skip_bigrams(o: MetricSettings) -> list[Metric]:
    if o.skip_distance is None:
        return []
    assert o.skip_label is not None  # Options gives a distance its label
    if o.skip_unigrams:
        return [SkipBigram(o.skip_distance, o.skip_label, unigrams=True)]
    plain = SkipBigram(o.skip_distance, o.skip_label, unigrams=False)
    return [plain, SkipBigram(o.skip_distance, o.skip_label, unigrams=True)] if o.skip_both else [plain]


def _basic_elements(o: MetricSettings) -> list[Metric]:
    if o.be_mode is None:
        return []
    from .be import BasicElements

    return [BasicElements(o.be_mode)]


def _paraeval(o: MetricSettings) -> list[Metric]:
    if o.paraphrases is None:
        return []
    from .paraeval import ParaEval, variant_labels
    from .paraphrases import TableSpec

    spec = TableSpec(o.paraphrases, o.paraphrase_feature, o.paraphrase_threshold)
    return [ParaEval(variant, spec) for variant in variant_labels(o.paraeval_variants)]


REGISTRY: dict[str, Callable[[MetricSettings], list[Metric]]] = {
    "N": _ngrams,
    "L": _lcs,
    "W": _weighted_lcs,
    "S": _skip_bigrams,
    "BE": _basic_elements,
    "ParaEval": _paraeval,
}


def metric_plan(settings: MetricSettings) -> list[Metric]:
    """The metrics of a run, in the Perl's output order."""
    return [metric for make in REGISTRY.values() for metric in make(settings)]
