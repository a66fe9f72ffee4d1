"""The orchestrator: the only module that calls more than one stage.

options -> config -> corpus (readers, text) -> metrics -> scoring ->
bootstrap -> :class:`Report`. Peers, metrics and evals are visited in the
Perl's order, which matters for one of its quirks (``-m`` with ``-M``).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional, Union

from .bootstrap import Summary, resample, summarize
from .config import Eval, EvalConfig, read_file_list, read_xml_config
from .corpus import Corpus
from .errors import ComputeError, InputError
from .metrics import ModelCounts, pairs, score_grams
from .metrics.lcs import score_lcs, score_wlcs
from .options import Options
from .resources import load_data
from .scoring import combine_models, instance_scores

__all__ = [
    "Grouped",
    "MetricResult",
    "MetricSpec",
    "Report",
    "Scorer",
    "check_evals",
    "check_resamples",
    "evaluate",
    "evaluated_peers",
    "group_rows",
    "instance_tables",
    "load_config",
    "merge_rows",
    "metric_plan",
    "plan_tasks",
    "score_evals",
    "scored_evals",
    "summarize_metric",
]

# About this many units (n-grams, skip-bigrams) are counted at once: a bound on memory.
_CHUNK_UNITS = 100_000
# Evals are scored in chunks naming about this many summary files, whose tokens are
# then dropped: a bound on memory however many evals there are.
_CHUNK_FILES = 500

Row = Union[tuple[str, str, str], tuple[float, float, float]]
Grouped = dict[tuple[str, int], dict[str, Row]]  # (peer ID, metric index) -> instance ID -> row


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


@dataclass(frozen=True)
class Task:
    """One instance to score: a peer against the models of one eval, for one metric.

    ``peer_stem`` and ``model_stems`` (per model: token stemming, unigram
    stemming) are fixed when the task is planned, in the Perl's order.
    """

    peer_id: str
    spec: int
    eval_id: str
    input_format: Optional[str]
    peer: str
    models: tuple[str, ...]
    peer_stem: bool
    model_stems: tuple[tuple[bool, bool], ...]

    @property
    def instance_id(self) -> str:
        return f"{self.eval_id}.{self.peer_id}"


def evaluated_peers(options: Options, config: EvalConfig) -> list[str]:
    """The peers to report: all of the configuration's (sorted) under ``-a``, else the system ID."""
    return sorted(config.peer_ids) if options.all_systems else [options.system_id or ""]


def check_evals(config: EvalConfig, peers: list[str], exists: Callable[[str], bool]) -> list[str]:
    """Check that the models of every eval an evaluated peer is in exist; the missing-peer warnings.

    The walk is the Perl's (peer, then eval), so the first missing model file
    raised and the order of the warnings are its own.
    """
    checked: set[str] = set()
    warnings: list[str] = []
    for peer_id in peers:
        for ev in config.evals:
            if peer_id not in ev.peers:
                warnings.append(
                    f"*ROUGE Warning: test instance for peer {peer_id} "
                    f"does not exist for evaluation {ev.eval_id}"
                )
            elif ev.eval_id not in checked:
                for path in ev.model_paths():
                    if not exists(path):
                        raise InputError(f"Cannot find model summary: {path}")
                checked.add(ev.eval_id)
    return warnings


def plan_tasks(options: Options, evals: list[Eval], plan: list[MetricSpec], peers: list[str]) -> list[Task]:
    """Every task of some evals in the Perl's order (peer, metric, eval); their models are checked.

    ``-M`` stems models, and the Perl does it by switching ``-m`` on and then
    off for good: with ``-m`` too, peers stop being stemmed after the first
    model read that way. The order of this walk decides which tasks that is.
    """
    models_of = {ev.eval_id: tuple(ev.model_paths()) for ev in evals}
    stem_now, only_models = options.stem, options.stem_models_only
    tasks: list[Task] = []
    for peer_id in peers:
        for index, spec in enumerate(plan):
            for ev in evals:
                if peer_id not in ev.peers:
                    continue
                models = models_of[ev.eval_id]
                forced = only_models or stem_now
                if spec.kind == "N":
                    stems = ((stem_now, stem_now),) * len(models)
                elif spec.kind == "W":
                    first = ((stem_now, forced),)
                    rest = ((stem_now if not only_models else False, forced),) * (len(models) - 1)
                    stems = (first + rest) if models else ()
                else:
                    stems = ((forced, forced),) * len(models)
                peer = ev.peer_path(peer_id)
                tasks.append(Task(peer_id, index, ev.eval_id, ev.input_format, peer, models, stem_now, stems))
                if models and spec.kind != "N" and only_models:
                    stem_now = False
    return tasks


class Scorer:
    """Computes the rows of tasks; its corpus reads and tokenizes each file once."""

    def __init__(self, options: Options) -> None:
        self.options = options
        data = load_data(options.data_dir)
        self.corpus = Corpus(data, options.stopwords, options.length_limit, options.byte_limit)

    def model_counts(self, spec: MetricSpec, tasks: list[Task]) -> list[list[ModelCounts]]:
        """Per task, the counts of each of its models against its peer."""
        o, c = self.options, self.corpus
        if spec.kind in ("N", "S"):
            n = spec.n if spec.kind == "N" else 0
            if pairs.available(n):
                return [
                    [
                        pairs.pair_counts(
                            c.token_ids(t.peer, t.input_format, t.peer_stem),
                            c.token_ids(m, t.input_format, stem),
                            n,
                            o.skip_distance,
                            spec.unigrams,
                        )
                        for m, (stem, _) in zip(t.models, t.model_stems)
                    ]
                    for t in tasks
                ]
            out: list[list[ModelCounts]] = []
            for chunk in self._chunks(spec, tasks):
                out.extend(self._unit_counts(spec, chunk))
            return out
        if spec.kind == "BE":
            mode = o.be_mode or ""
            return [
                [
                    score_grams(
                        c.basic_elements(m, t.input_format, stem, mode),
                        c.basic_elements(t.peer, t.input_format, t.peer_stem, mode),
                    )
                    for m, (stem, _) in zip(t.models, t.model_stems)
                ]
                for t in tasks
            ]
        out = []
        for t in tasks:
            peer_text = c.lcs_text(t.peer, t.input_format, t.peer_stem, t.peer_stem)
            texts = [c.lcs_text(m, t.input_format, s, u) for m, (s, u) in zip(t.models, t.model_stems)]
            if spec.kind == "L":
                out.append([score_lcs(m, peer_text) for m in texts])
            else:
                weight = o.wlcs_weight or 1.0
                out.append([score_wlcs(m, peer_text, weight, p) for m, p in zip(texts, t.models)])
        return out

    def _chunks(self, spec: MetricSpec, tasks: list[Task]) -> Iterator[list[Task]]:
        """Consecutive groups of tasks whose files hold about _CHUNK_UNITS units: bounded memory."""
        o, c = self.options, self.corpus
        per_token = spec.n  # 0 for skip-bigrams without a distance limit: quadratic
        if spec.kind == "S" and o.skip_distance is not None and o.skip_distance >= 0:
            per_token = math.floor(o.skip_distance + 1) + spec.unigrams
        chunk: list[Task] = []
        seen: set[tuple] = set()
        units = 0
        for t in tasks:
            for view in [(t.peer, t.input_format, t.peer_stem)] + [
                (m, t.input_format, s) for m, (s, _) in zip(t.models, t.model_stems)
            ]:
                if view not in seen:
                    seen.add(view)
                    size = len(c.token_ids(*view))
                    units += size * per_token if per_token else size * size // 2
            chunk.append(t)
            if units >= _CHUNK_UNITS:
                yield chunk
                chunk, seen, units = [], set(), 0
        if chunk:
            yield chunk

    def _unit_counts(self, spec: MetricSpec, tasks: list[Task]) -> list[list[ModelCounts]]:
        """ROUGE-N or skip-bigram counts of a group of tasks, all pairs at once, with numpy."""
        import numpy as np

        from .metrics.units import UnitTable, ngram_units, skip_bigram_units

        o, c = self.options, self.corpus
        views: dict[tuple, int] = {}
        pair_list = []
        for t in tasks:
            p = views.setdefault((t.peer, t.input_format, t.peer_stem), len(views))
            for m, (stem, _) in zip(t.models, t.model_stems):
                pair_list.append((p, views.setdefault((m, t.input_format, stem), len(views))))
        files = [c.token_ids(*view) for view in views]
        if spec.kind == "N":
            codes, owner = ngram_units(files, spec.n)
        else:
            codes, owner = skip_bigram_units(files, o.skip_distance or 0, spec.unigrams)
        table = UnitTable(codes, owner, len(files))
        del codes, owner
        pair_array = np.array(pair_list, dtype=np.int64).reshape(-1, 2)
        hits = table.hits(pair_array[:, 0], pair_array[:, 1]).tolist()
        totals = table.totals.tolist()
        flat = [ModelCounts(h, totals[m], totals[p]) for h, (p, m) in zip(hits, pair_list)]
        out, at = [], 0
        for t in tasks:
            out.append(flat[at : at + len(t.models)])
            at += len(t.models)
        return out

    def rows(self, plan: list[MetricSpec], tasks: list[Task]) -> list[Row]:
        """The report row of every task: rounded R, P, F, or raw counts under ``-t``."""
        o = self.options
        by_spec: dict[int, list[int]] = {}
        for i, t in enumerate(tasks):
            by_spec.setdefault(t.spec, []).append(i)
        rows: list[Row] = [("", "", "")] * len(tasks)
        for index, members in by_spec.items():
            spec = plan[index]
            counts = self.model_counts(spec, [tasks[i] for i in members])
            power = 1 / (o.wlcs_weight or 1.0) if spec.kind == "W" else None
            for i, per_model in zip(members, counts):
                totals = combine_models(per_model, o.best_model)
                if o.counting:
                    rows[i] = (totals.model_count, totals.peer_count, totals.hit)  # type: ignore[assignment]
                else:
                    rows[i] = instance_scores(totals, o.alpha, power)
        return rows


def summarize_metric(
    options: Options, spec: MetricSpec, peer_id: str, instances: dict[str, Row]
) -> MetricResult:
    """Averages and confidence intervals (or ``-t 2`` count sums) of one peer's metric."""
    o = options
    ids = sorted(instances)
    per_eval = {i: instances[i] for i in sorted(ids, key=functools.cmp_to_key(_by_eval_id))}
    if o.counting == 2:
        sums = [0, 0, 0]
        for i in ids:
            for k in range(3):
                sums[k] += instances[i][k]  # type: ignore[operator]
        return MetricResult(peer_id, spec.label, per_eval, counts=tuple(int(s) for s in sums))  # type: ignore[arg-type]
    rows = [[float(v) for v in instances[i]] for i in ids]
    values = resample(rows, o.resample_count, o.counting, o.alpha)
    summary = summarize(values, o.confidence, o.resamples)
    return MetricResult(peer_id, spec.label, per_eval, summary=summary)


def check_resamples(options: Options) -> None:
    """``-r 0``: the Perl divides by zero before it reads any file."""
    if options.counting != 2 and options.resample_count == 0:
        raise ComputeError("the number of resamples (-r) must be positive (division by zero)")


def scored_evals(options: Options, config: EvalConfig, peers: list[str], pieces: int = 1) -> list[list[Eval]]:
    """The evals that hold an evaluated peer, in consecutive chunks of about _CHUNK_FILES files.

    At least ``pieces`` chunks where there are enough evals. With ``-m`` and
    ``-M`` the Perl's stemming state runs across evals: one chunk.
    """
    chosen = set(peers)
    evals = [ev for ev in config.evals if not chosen.isdisjoint(ev.peers)]
    if options.stem and options.stem_models_only:
        return [evals] if evals else []
    files = sum(len(ev.peers) + len(ev.model_ids) for ev in evals)
    size = max(1, math.ceil(len(evals) / max(pieces, math.ceil(files / _CHUNK_FILES))))
    return [evals[start : start + size] for start in range(0, len(evals), size)]


def score_evals(
    options: Options, scorer: Scorer, plan: list[MetricSpec], evals: list[Eval], peers: list[str]
) -> Grouped:
    """The rows of every peer and metric in some (checked) evals; their files are then forgotten."""
    try:
        tasks = plan_tasks(options, evals, plan, peers)
        return group_rows(tasks, scorer.rows(plan, tasks))
    finally:
        scorer.corpus.clear()


def evaluate(options: Options, config: Optional[EvalConfig] = None) -> Report:
    """Run the evaluation the options describe, in one process, and return what to print."""
    report = Report(options)
    plan = metric_plan(options)
    if config is None:
        config = load_config(options)
    if not plan:
        return report
    check_resamples(options)
    peers = evaluated_peers(options, config)
    scorer = Scorer(options)
    report.warnings = check_evals(config, peers, scorer.corpus.exists)
    grouped: Grouped = {}
    for evals in scored_evals(options, config, peers):
        merge_rows(grouped, score_evals(options, scorer, plan, evals, peers))
    report.results = [
        summarize_metric(options, plan[index], peer_id, rows)
        for peer_id, index, rows in instance_tables(plan, peers, grouped)
    ]
    return report


def group_rows(tasks: list[Task], rows: list[Row]) -> Grouped:
    """The rows per (peer ID, metric index), by instance ID; the first row of an instance stays."""
    grouped: Grouped = {}
    for task, row in zip(tasks, rows):
        grouped.setdefault((task.peer_id, task.spec), {}).setdefault(task.instance_id, row)
    return grouped


def merge_rows(grouped: Grouped, part: Grouped) -> None:
    """Add the rows of other evals (an instance ID belongs to one eval: nothing overlaps)."""
    for key, rows in part.items():
        grouped.setdefault(key, {}).update(rows)


def instance_tables(
    plan: list[MetricSpec], peers: list[str], grouped: Grouped
) -> list[tuple[str, int, dict[str, Row]]]:
    """(peer ID, metric index, its rows) in the Perl's output order: peers, then metrics."""
    return [
        (peer_id, index, grouped.get((peer_id, index), {})) for peer_id in peers for index in range(len(plan))
    ]
