"""The orchestrator: the only module that calls more than one stage.

options -> config -> corpus (readers, text) -> metrics -> scoring ->
bootstrap -> :class:`Report`. Peers, metrics and evals are visited in the
Perl's order, which matters for one of its quirks (``-m`` with ``-M``).
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from typing import Optional, Union

import numpy as np

from .bootstrap import Summary, resample, summarize
from .config import Eval, EvalConfig, read_file_list, read_xml_config
from .corpus import Corpus
from .errors import ComputeError, InputError
from .metrics import ModelCounts, score_grams
from .metrics.lcs import score_lcs, score_wlcs
from .options import Options
from .resources import load_data
from .scoring import Totals, combine_models, instance_scores

__all__ = ["MetricResult", "MetricSpec", "Report", "evaluate", "load_config", "metric_plan"]

Row = Union[tuple[str, str, str], tuple[float, float, float]]


@dataclass(frozen=True)
class MetricSpec:
    """One line group of the report: a metric with its parameters and label."""

    label: str
    kind: str  # "N", "L", "W", "S" or "BE"
    n: int = 0
    unigrams: bool = False


@dataclass
class MetricResult:
    """One peer's result for one metric."""

    peer_id: str
    label: str
    instances: dict[str, Row]
    summary: Optional[Summary] = None
    counts: Optional[tuple[int, int, int]] = None  # -t 2: model, peer and hit counts


@dataclass
class Report:
    """Everything the run prints, in order."""

    options: Options
    results: list[MetricResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def metric_plan(options: Options) -> list[MetricSpec]:
    """The metrics in the Perl's output order: N..., L, W, S/SU, BE."""
    plan = [MetricSpec(f"ROUGE-{n}", "N", n=n) for n in range(1, options.max_ngram + 1)]
    if options.lcs:
        plan.append(MetricSpec("ROUGE-L", "L"))
    if options.wlcs_weight is not None:
        plan.append(MetricSpec(f"ROUGE-W-{options.wlcs_label}", "W"))
    if options.skip_distance is not None:
        suffix = options.skip_label if options.skip_distance >= 0 else "*"
        if options.skip_unigrams:
            plan.append(MetricSpec(f"ROUGE-SU{suffix}", "S", unigrams=True))
        else:
            plan.append(MetricSpec(f"ROUGE-S{suffix}", "S"))
            if options.skip_both:
                plan.append(MetricSpec(f"ROUGE-SU{suffix}", "S", unigrams=True))
    if options.be_mode is not None:
        plan.append(MetricSpec(f"ROUGE-BE-{options.be_mode}", "BE"))
    return plan


def load_config(options: Options) -> EvalConfig:
    """The XML configuration, or the ``-z`` file list."""
    if options.file_list_format is not None:
        return read_file_list(options.config_path, options.file_list_format, options.file_list_peer_id)
    return read_xml_config(options.config_path)


def _by_eval_id(a: str, b: str) -> int:
    """The Perl's ``-d`` order: leading numbers compared as numbers, else strings."""
    ma, mb = re.match(r"[0-9]+", a), re.match(r"[0-9]+", b)
    if ma and mb:
        x, y = int(ma.group()), int(mb.group())
    else:
        x, y = a, b  # type: ignore[assignment]
    return (x > y) - (x < y)


class _Run:
    """State of one evaluation run."""

    def __init__(self, options: Options) -> None:
        self.options = options
        data = load_data(options.data_dir)
        self.corpus = Corpus(data, options.stopwords, options.length_limit, options.byte_limit)
        # -M switches stemming on for models and then off for good: with -m it
        # ends peer stemming at the first model the Perl reads that way.
        self.stem_now = options.stem

    def model_counts(self, spec: MetricSpec, ev: Eval, peer: str, models: list[str]) -> list[ModelCounts]:
        """Counts of every model of one eval against the peer."""
        o, c, fmt = self.options, self.corpus, ev.input_format
        now, forced = self.stem_now, self.options.stem_models_only or self.stem_now
        if spec.kind == "N":
            p = c.ngrams(peer, fmt, now, spec.n)
            return [score_grams(c.ngrams(m, fmt, now, spec.n), p) for m in models]
        if spec.kind == "S":
            d = o.skip_distance if o.skip_distance is not None else 0
            p = c.skip_bigrams(peer, fmt, now, d, spec.unigrams)
            return [score_grams(c.skip_bigrams(m, fmt, forced, d, spec.unigrams), p) for m in models]
        if spec.kind == "BE":
            mode = o.be_mode or ""
            p = c.basic_elements(peer, fmt, now, mode)
            return [score_grams(c.basic_elements(m, fmt, forced, mode), p) for m in models]
        peer_text = c.lcs_text(peer, fmt, now, now)
        if spec.kind == "L":
            return [score_lcs(c.lcs_text(m, fmt, forced, forced), peer_text) for m in models]
        weight = o.wlcs_weight or 1.0
        out = []
        for k, m in enumerate(models):
            token_stem = now if (k == 0 or not o.stem_models_only) else False
            out.append(score_wlcs(c.lcs_text(m, fmt, token_stem, forced), peer_text, weight, m))
        return out

    def instance(self, spec: MetricSpec, ev: Eval, peer_id: str) -> Row:
        """One eval's row for one peer: rounded R, P, F, or raw counts under ``-t``."""
        models = ev.model_paths()
        for path in models:
            if not os.path.exists(path):
                raise InputError(f"Cannot find model summary: {path}")
        per_model = self.model_counts(spec, ev, ev.peer_path(peer_id), models)
        if models and spec.kind != "N" and self.options.stem_models_only:
            self.stem_now = False
        totals: Totals = combine_models(per_model, self.options.best_model)
        if self.options.counting:
            return (totals.model_count, totals.peer_count, totals.hit)  # type: ignore[return-value]
        if spec.kind == "W":
            power = 1 / (self.options.wlcs_weight or 1.0)
            return instance_scores(totals, self.options.alpha, lambda x: x**power)
        return instance_scores(totals, self.options.alpha)

    def result(self, spec: MetricSpec, peer_id: str, instances: dict[str, Row]) -> MetricResult:
        """Averages and confidence intervals (or ``-t 2`` count sums) of one metric."""
        o = self.options
        ids = sorted(instances)
        per_eval = {i: instances[i] for i in sorted(ids, key=functools.cmp_to_key(_by_eval_id))}
        if o.counting == 2:
            sums = [0, 0, 0]
            for i in ids:
                for k in range(3):
                    sums[k] += instances[i][k]  # type: ignore[operator]
            return MetricResult(peer_id, spec.label, per_eval, counts=tuple(int(s) for s in sums))  # type: ignore[arg-type]
        rows = np.array([[float(v) for v in instances[i]] for i in ids], dtype=float).reshape(-1, 3)
        values = resample(rows, o.resamples, o.counting, o.alpha)
        return MetricResult(peer_id, spec.label, per_eval, summary=summarize(values, o.confidence))


def evaluate(options: Options, config: Optional[EvalConfig] = None) -> Report:
    """Run the evaluation the options describe and return what to print."""
    report = Report(options)
    plan = metric_plan(options)
    if config is None:
        config = load_config(options)
    if not plan:
        return report
    if options.counting != 2 and options.resamples <= 0:
        raise ComputeError("the number of resamples (-r) must be positive (division by zero)")
    run = _Run(options)
    peers = sorted(config.peer_ids) if options.all_systems else [options.system_id or ""]
    warned: set[tuple[str, str]] = set()
    for peer_id in peers:
        for spec in plan:
            instances: dict[str, Row] = {}
            for ev in config.evals:
                if peer_id not in ev.peers:
                    if (ev.eval_id, peer_id) not in warned:
                        warned.add((ev.eval_id, peer_id))
                        report.warnings.append(
                            f"*ROUGE Warning: test instance for peer {peer_id} "
                            f"does not exist for evaluation {ev.eval_id}"
                        )
                    continue
                instances.setdefault(f"{ev.eval_id}.{peer_id}", run.instance(spec, ev, peer_id))
            report.results.append(run.result(spec, peer_id, instances))
    return report
