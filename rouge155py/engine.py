"""Scoring planned instances: metric counts -> instance rows -> per-peer summaries.

The :class:`Scorer` keeps one run's corpus, so each document is read and
tokenized once, whatever the number of metrics and peers; rows are grouped per
(peer, metric) and summarized by the bootstrap.
"""

from __future__ import annotations

import functools
import re
from typing import Optional

from .bootstrap import resample, summarize
from .config import Eval
from .corpus import Corpus
from .metrics.base import Metric, Task
from .options import Options
from .planning import plan_tasks
from .results import MetricResult, Row
from .scoring import combine_models, instance_scores
from .text.stage import text_stage

__all__ = [
    "Grouped",
    "Scorer",
    "eval_order",
    "group_rows",
    "instance_tables",
    "merge_rows",
    "score_evals",
    "summarize_metric",
]

Grouped = dict[tuple[str, int], dict[str, Row]]  # (peer ID, metric index) -> instance ID -> row


class Scorer:
    """Computes the rows of tasks; its corpus reads and tokenizes each document once."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.corpus = Corpus(text_stage(options), options.length_limit, options.byte_limit)

    def rows(self, plan: list[Metric], tasks: list[Task]) -> list[Row]:
        """The row of every task: rounded R, P, F, or raw counts under ``-t``."""
        o = self.options
        by_metric: dict[int, list[int]] = {}
        for i, t in enumerate(tasks):
            by_metric.setdefault(t.spec, []).append(i)
        rows: list[Row] = [(0, 0, 0)] * len(tasks)
        best, alpha = o.best_model, o.alpha
        for index, members in by_metric.items():
            metric = plan[index]
            counts = metric.counts(self.corpus, [tasks[i] for i in members])
            power = metric.power
            for i, per_model in zip(members, counts):
                totals = combine_models(per_model, best)
                rows[i] = tuple(totals) if o.counting else instance_scores(totals, alpha, power)
        return rows


def score_evals(
    options: Options,
    scorer: Scorer,
    plan: list[Metric],
    evals: list[Eval],
    peers: list[str],
    stem_now: Optional[bool] = None,
) -> Grouped:
    """The rows of every peer and metric in some (checked) evals; their documents are then forgotten.

    ``stem_now`` fixes the ``-m`` state of every task (see :func:`~rouge155py.planning.walk_tasks`).
    """
    try:
        tasks = plan_tasks(options, evals, plan, peers, stem_now)
        return group_rows(tasks, scorer.rows(plan, tasks))
    finally:
        scorer.corpus.clear()


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
    plan: list[Metric], peers: list[str], grouped: Grouped
) -> list[tuple[str, int, dict[str, Row]]]:
    """(peer ID, metric index, its rows) in the Perl's output order: peers, then metrics."""
    return [
        (peer_id, index, grouped.get((peer_id, index), {})) for peer_id in peers for index in range(len(plan))
    ]


_LEAD = re.compile(r"[0-9]+")


def _by_eval_id(a: str, b: str) -> int:
    """The Perl's ``-d`` order: leading numbers compared as numbers, else strings."""
    ma, mb = _LEAD.match(a), _LEAD.match(b)
    if ma and mb:
        x, y = int(ma.group()), int(mb.group())
    else:
        x, y = a, b  # type: ignore[assignment]
    return (x > y) - (x < y)


def eval_order(ids: list[str]) -> list[str]:
    """Instance IDs (sorted as strings) in the Perl's ``-d`` order: a stable sort by :func:`_by_eval_id`.

    Where every ID starts with a number, that order is by the number, and where
    none does, by the string: a key gives the same stable sort, much faster.
    """
    leads = [_LEAD.match(i) for i in ids]
    if all(leads):
        numbers = {i: int(m.group()) for i, m in zip(ids, leads)}  # type: ignore[union-attr]
        return sorted(ids, key=numbers.__getitem__)
    if not any(leads):
        return sorted(ids)
    return sorted(ids, key=functools.cmp_to_key(_by_eval_id))


def summarize_metric(
    options: Options, metric: Metric, peer_id: str, instances: dict[str, Row]
) -> MetricResult:
    """Averages and confidence intervals (or ``-t 2`` count sums) of one peer's metric."""
    o = options
    ids = sorted(instances)
    per_eval = {i: instances[i] for i in eval_order(ids)}
    if o.counting == 2:
        sums = [0, 0, 0]
        for i in ids:
            for k in range(3):
                sums[k] += instances[i][k]
        return MetricResult(
            peer_id, metric.label, per_eval, counts=(int(sums[0]), int(sums[1]), int(sums[2]))
        )
    rows = [[float(v) for v in instances[i]] for i in ids]
    values = resample(rows, o.resample_count, o.counting, o.alpha)
    summary = summarize(values, o.confidence, o.resamples)
    return MetricResult(peer_id, metric.label, per_eval, summary=summary)
