"""Scoring planned instances: metric counts -> instance rows -> per-peer summaries.

The :class:`Scorer` keeps one run's corpus, so each document is read and
tokenized once, whatever the number of metrics and peers; rows are grouped per
(peer, metric) and summarized by the bootstrap.
"""

from __future__ import annotations

import functools
import re
from array import array
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional, Sequence, Union

from ..inputs.config import Eval
from ..metrics.base import Metric, Task
from ..metrics.batch import KernelRows, kernel_metrics, kernel_state
from ..metrics.scoring import (
    ScoringSettings,
    best_by_f,
    best_by_perl_f,
    combine_models,
    instance_scores,
    jackknife_row,
    split_scores,
)
from ..report.results import (
    Counts,
    InstanceRows,
    MetricResult,
    Row,
    RowValues,
    Summary,
    float_rows,
    row_at,
    rows_at,
)
from ..settings.stages import ResampleSettings
from ..text.corpus import Corpus
from ..text.stage import TextSettings, text_stage
from .bootstrap import STREAMING, FlatRows, means_together, resample, summarize
from .ids import Ids, copied, string_order
from .plan import plan_tasks

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

__all__ = [
    "Grouped",
    "RowTable",
    "Scorer",
    "eval_order",
    "eval_positions",
    "group_rows",
    "instance_tables",
    "kernel_grouped",
    "merge_rows",
    "metric_result",
    "score_evals",
    "table_summaries",
    "table_summary",
]


class RowTable:
    """The rows of one peer and metric, in the order they were scored, held compactly.

    Rows of floats (R, P, F) take 24 bytes each in one array; rows with other
    values (``-t`` counts) are kept as they are. An instance ID is in a table
    once: eval IDs are unique, and so are their instance IDs for one peer.
    """

    __slots__ = ("_index", "_rows", "_values", "ids")

    def __init__(self) -> None:
        self.ids: Ids = []
        self._values = array("d")
        self._rows: Optional[list[Row]] = None  # once a row is not three floats
        self._index: Optional[dict[str, int]] = None  # made by the first lookup

    @classmethod
    def of_floats(cls, ids: Ids, values: array) -> RowTable:
        """A table of these instance IDs and their rows of floats (R, P, F of each, end to end)."""
        table = cls()
        table.ids, table._values = ids, values
        return table

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, instance_id: str, row: Row) -> None:
        """Append one instance's row."""
        self.ids.append(instance_id)
        if self._index is not None:
            self._index[instance_id] = len(self.ids) - 1
        if self._rows is None and _all_floats(row):
            self._values.extend(row)
            return
        self._tuples().append(row)

    def extend(self, other: RowTable) -> None:
        """Append the rows of another table (other evals)."""
        if self._rows is None and other._rows is None and self._index is None:
            self.ids.extend(other.ids)
            self._values.extend(other._values)
            return
        for instance_id, row in other.items():
            self.add(instance_id, row)

    def truncate(self, length: int) -> None:
        """Keep the first ``length`` rows: an extension cut short is undone by dropping what it added
        (again and again if need be: the same call finishes what an interrupted one began)."""
        del self.ids[length:]
        if self._rows is None:
            del self._values[3 * length :]
        else:
            del self._rows[length:]
        self._index = None

    def _tuples(self) -> list[Row]:
        """The rows as tuples, from now on (a row that is not three floats came)."""
        if self._rows is None:
            self._rows = list(float_rows(self._values))
            self._values = array("d")
        return self._rows

    def items(self) -> Iterator[tuple[str, Row]]:
        """(instance ID, row) in the order they were added."""
        return zip(self.ids, float_rows(self._values) if self._rows is None else self._rows)

    def get(self, instance_id: str) -> Optional[Row]:
        """The row of an instance ID, or None."""
        if self._index is None:
            self._index = {i: k for k, i in enumerate(self.ids)}
        k = self._index.get(instance_id)
        return None if k is None else row_at(self._values if self._rows is None else self._rows, k)

    def set(self, instance_id: str, row: Row) -> None:
        """Replace the row of an instance ID (add it when it is not there)."""
        if self.get(instance_id) is None:
            self.add(instance_id, row)
            return
        assert self._index is not None
        k = self._index[instance_id]
        if self._rows is None and _all_floats(row):
            self._values[3 * k : 3 * k + 3] = array("d", row)
            return
        self._tuples()[k] = row

    @property
    def values(self) -> RowValues:
        """The rows, in the order they were added, held compactly."""
        return self._values if self._rows is None else self._rows


def _all_floats(row: Row) -> bool:
    return type(row[0]) is float and type(row[1]) is float and type(row[2]) is float


Grouped = dict[tuple[str, int], RowTable]  # (peer ID, metric index) -> its rows


class Scorer:
    """Computes the rows of tasks; its corpus reads and tokenizes each document once."""

    def __init__(self, text: TextSettings, scoring: ScoringSettings) -> None:
        self.text, self.scoring = text, scoring
        self.corpus = Corpus(text_stage(text), text.length_limit, text.byte_limit)
        self.kernel_state = kernel_state(text, scoring, self.corpus.tokenizer)

    def kernel(self, plan: list[Metric]) -> Optional[KernelRows]:
        """The C kernel's path for the plan's metrics, or None where :meth:`rows` must score."""
        if self.kernel_state is None:
            return None
        metrics = kernel_metrics(plan)
        if metrics is None:
            return None
        return KernelRows(
            self.kernel_state, metrics, self.text, self.scoring, self.corpus.tokenizer.removes_stopwords
        )

    def rows(self, plan: list[Metric], tasks: list[Task]) -> list[Row]:
        """The row of every task: rounded R, P, F, or raw counts under ``-t`` (rouge-score's
        dialect: its unrounded R, P, F)."""
        o = self.scoring
        by_metric: dict[int, list[int]] = {}
        for i, t in enumerate(tasks):
            by_metric.setdefault(t.metric_index, []).append(i)
        rows: list[Row] = [(0, 0, 0)] * len(tasks)
        best, alpha = o.best_model, o.alpha
        for index, members in by_metric.items():
            metric = plan[index]
            counts = metric.counts(self.corpus, [tasks[i] for i in members])
            if o.jackknife:
                score = _row_rule(metric, o)
                for i, per_model in zip(members, counts):
                    task = tasks[i]
                    own = next((k for k, model in enumerate(task.models) if model == task.peer), None)
                    rows[i] = jackknife_row(score, per_model, own)
                continue
            if o.dialect is not None:  # rouge-score's: unrounded, the model with the highest F
                for i, per_model in zip(members, counts):
                    rows[i] = best_by_f(per_model)
                continue
            power = metric.power
            if o.best_f:  # multi_ref="best-f": the model whose own row has the highest F
                for i, per_model in zip(members, counts):
                    rows[i] = best_by_perl_f(per_model, alpha, power, metric.split_hits)
                continue
            if metric.split_hits:
                for i, per_model in zip(members, counts):
                    rows[i] = split_scores(per_model, best, alpha)
                continue
            for i, per_model in zip(members, counts):
                totals = combine_models(per_model, best)
                rows[i] = (
                    (totals.model_count, totals.peer_count, totals.hit)
                    if o.counting
                    else instance_scores(totals, alpha, power)
                )
        return rows


def _row_rule(metric: Metric, o: ScoringSettings) -> Callable[[Sequence[Any]], Row]:
    """How some models' counts of an instance become its row (as :meth:`Scorer.rows` makes it),
    as a function: what ``--jackknife`` applies to each set of all models but one."""
    power = metric.power
    if o.best_f:
        return lambda per_model: best_by_perl_f(per_model, o.alpha, power, metric.split_hits)
    if metric.split_hits:
        return lambda per_model: split_scores(per_model, o.best_model, o.alpha)
    return lambda per_model: instance_scores(combine_models(per_model, o.best_model), o.alpha, power)


def score_evals(
    scorer: Scorer,
    plan: list[Metric],
    evals: list[Eval],
    peers: list[str],
    stem_now: Optional[bool] = None,
) -> Grouped:
    """The rows of every peer and metric in some (checked) evals; their documents are then forgotten.

    ``stem_now`` fixes the ``-m`` state of every task (see :func:`~rouge155py.run.plan.walk_tasks`).
    The C kernel scores them all in one call where it can (:mod:`rouge155py.metrics.batch`).
    """
    kernel = scorer.kernel(plan) if stem_now is None else None
    if kernel is not None:
        found = kernel.rows(evals, peers)
        if found is not None:
            return kernel_grouped(len(plan), *found)
    try:
        tasks = plan_tasks(scorer.text, evals, plan, peers, stem_now)
        return group_rows(tasks, scorer.rows(plan, tasks))
    finally:
        scorer.corpus.clear()


def kernel_grouped(metrics: int, groups: Sequence[tuple[str, Ids]], values: array) -> Grouped:
    """The kernel's rows (per metric, per instance of each peer in turn) per (peer ID, metric index)."""
    grouped: Grouped = {}
    pairs = sum(len(ids) for _, ids in groups)
    at = 0
    for peer_id, ids in groups:
        for index in range(metrics):
            start = 3 * (index * pairs + at)
            grouped[(peer_id, index)] = RowTable.of_floats(copied(ids), values[start : start + 3 * len(ids)])
        at += len(ids)
    return grouped


def group_rows(tasks: list[Task], rows: list[Row]) -> Grouped:
    """The rows per (peer ID, metric index), in task order."""
    grouped: Grouped = {}
    table: Optional[RowTable] = None
    key = None
    for task, row in zip(tasks, rows):
        if (task.peer_id, task.metric_index) != key:
            key = (task.peer_id, task.metric_index)
            table = grouped.get(key)
            if table is None:
                table = grouped[key] = RowTable()
        table.add(task.instance_id, row)  # type: ignore[union-attr]
    return grouped


def merge_rows(grouped: Grouped, part: Grouped) -> None:
    """Add the rows of other evals (an instance ID belongs to one eval: nothing overlaps)."""
    for key, rows in part.items():
        table = grouped.get(key)
        if table is None:
            grouped[key] = rows
        else:
            table.extend(rows)


def instance_tables(
    plan: list[Metric], peers: list[str], grouped: Grouped
) -> list[tuple[str, int, RowTable]]:
    """(peer ID, metric index, its rows) in the Perl's output order: peers, then metrics."""
    return [
        (peer_id, index, grouped.get((peer_id, index)) or RowTable())
        for peer_id in peers
        for index in range(len(plan))
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
    """Instance IDs (sorted as strings) in the Perl's ``-d`` order: a stable sort by :func:`_by_eval_id`."""
    return [ids[k] for k in eval_positions(ids)]


def eval_positions(ids: list[str]) -> list[int]:
    """The positions of instance IDs (sorted as strings) in the Perl's ``-d`` order.

    Where every ID starts with a number, that order is by the number, and where
    none does, by the string: a key gives the same stable sort, much faster.
    """
    leads = [_LEAD.match(i) for i in ids]
    positions = range(len(ids))
    if all(leads):
        numbers = [int(m.group()) for m in leads]  # type: ignore[union-attr]
        return sorted(positions, key=numbers.__getitem__)
    if not any(leads):
        return list(positions)

    def by_id(a: int, b: int) -> int:
        return _by_eval_id(ids[a], ids[b])

    return sorted(positions, key=functools.cmp_to_key(by_id))


def _perl_int(value: Union[int, float]) -> Union[int, float]:
    """Perl's ``int()``: an integer where the value fits one (64 bits), else the number itself
    (a double that large is whole already; an infinity or NaN stays one)."""
    return int(value) if -(2**63) <= value < 2**64 else value


def table_summary(
    scoring: ScoringSettings,
    resampling: ResampleSettings,
    table: RowTable,
    order: Optional[Sequence[int]] = None,
) -> Union[Summary, Counts]:
    """The averages and confidence intervals of a table's rows, resampled in the Perl's order
    of instance IDs (``order``: their positions in it, where known); under ``-t 2`` their
    summed counts."""
    ids = table.ids
    rows = rows_at(table.values, _by_id(ids) if order is None else order)
    if scoring.counting == 2:
        sums: list[Union[int, float]] = [0, 0, 0]
        for k in range(len(ids)):
            row = row_at(rows, k)
            for j in range(3):
                sums[j] += row[j]
        return _perl_int(sums[0]), _perl_int(sums[1]), _perl_int(sums[2])
    flat = FlatRows(rows) if isinstance(rows, array) else rows
    values = resample(flat, resampling.resample_count, scoring.counting, scoring.alpha)
    return summarize(values, resampling.confidence, resampling.resamples)


def table_summaries(
    scoring: ScoringSettings,
    resampling: ResampleSettings,
    tables: list[RowTable],
    threads: Optional[ThreadPoolExecutor] = None,
) -> list[Union[Summary, Counts]]:
    """:func:`table_summary` of each table; under ``-t 0`` the tables of the same instances (a
    peer's metrics) are resampled together, from the same draws (:func:`means_together`).
    Given ``threads``, the resamples of those are shared among them, and the other tables too."""
    out: list[Optional[Union[Summary, Counts]]] = [None] * len(tables)
    parts, run = 1, None
    if threads is not None:
        parts = threads._max_workers

        def run(jobs: Iterable[Callable[[], None]]) -> None:
            for future in [threads.submit(job) for job in jobs]:
                future.result()

    orders: list[Optional[Sequence[int]]] = [None] * len(tables)  # each sorted once for a peer's tables
    together = scoring.counting == 0 and resampling.resample_count <= STREAMING.above
    for same in _same_ids(tables):
        order = _by_id(tables[same[0]].ids)
        for k in same:
            orders[k] = order
        floats = [k for k in same if isinstance(tables[k].values, array)]
        if not together or len(floats) < 2:
            continue
        rows = [tables[k].values for k in floats]  # taken in the order by the kernel
        found = means_together(rows, resampling.resample_count, parts, run, order)  # type: ignore[arg-type]
        if found is None:
            continue
        for k, values in zip(floats, found):
            out[k] = summarize(values, resampling.confidence, resampling.resamples)
    if threads is not None:
        left = {
            k: threads.submit(table_summary, scoring, resampling, tables[k], orders[k])
            for k, s in enumerate(out)
            if s is None
        }
        return [summary if summary is not None else left[k].result() for k, summary in enumerate(out)]
    return [
        summary if summary is not None else table_summary(scoring, resampling, table, order)
        for table, summary, order in zip(tables, out, orders)
    ]


def _same_ids(tables: list[RowTable]) -> Iterator[list[int]]:
    """The indexes of tables with the same instance IDs (a peer's metrics), two or more a group."""
    groups: dict[tuple[int, str, str], list[int]] = {}
    for k, table in enumerate(tables):
        ids = table.ids
        if ids:
            groups.setdefault((len(ids), ids[0], ids[-1]), []).append(k)
    for members in groups.values():
        same = [k for k in members if tables[k].ids == tables[members[0]].ids]
        if len(same) > 1:
            yield same


def metric_result(
    metric: Metric, peer_id: str, table: RowTable, summed: Union[Summary, Counts]
) -> MetricResult:
    """One peer's result for a metric: the table's rows (put in the Perl's ``-d`` order when first
    read) and what :func:`table_summary` made of them."""
    instances = InstanceRows(table.ids, table.values, _per_eval_positions)
    if isinstance(summed, Summary):
        return MetricResult(peer_id, metric.label, instances, summary=summed)
    return MetricResult(peer_id, metric.label, instances, counts=summed)


def _by_id(ids: Sequence[str]) -> array:
    """The positions (int64) of instance IDs sorted as strings (the Perl's sort keys)."""
    return string_order(ids)


def _per_eval_positions(ids: Sequence[str]) -> list[int]:
    """The positions of instance IDs in the Perl's ``-d`` order: sorted as strings, then by eval."""
    by_id = _by_id(ids)
    return [by_id[k] for k in eval_positions([ids[k] for k in by_id])]
