"""Step 1 (score a batch of evals into rows) and step 2 (merge batches, bootstrap, report):
the functions of :mod:`rouge155py.batches`, which every executor of a run calls."""

from __future__ import annotations

import numbers
import threading
from array import array
from dataclasses import dataclass, field, fields
from typing import (
    Any,
    Callable,
    Iterable,
    Iterator,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    Union,
)

from ..errors import RougeError, UsageError, described
from ..inputs.config import Eval, EvalConfig, TextConfig
from ..inputs.readers import Document, SummaryFile, SummaryText
from ..inputs.texts import (
    DEFAULT_PEER_ID,
    SummaryInput,
    SummaryLike,
    check_multi_ref,
    item_eval,
    text_format,
    text_inputs,
)
from ..metrics.base import Metric, Task
from ..metrics.batch import rs_text_rows
from ..metrics.plan import metric_plan
from ..report import Report
from ..report.results import Counts, Row, Summary, eval_id_of
from ..settings.options import HoldsOptions, Options, as_options
from .columns import IntColumn, int64_array
from .ids import IdColumn, Ids, copied, numbered_ids
from .plan import (
    check_resamples,
    eval_chunks,
    first_missing_model,
    missing_model,
    peer_warnings,
    plan_tasks,
    walk_tasks,
)
from .progress import ProgressFn
from .score import (
    Grouped,
    RowTable,
    Scorer,
    group_rows,
    instance_tables,
    kernel_grouped,
    merge_rows,
    metric_result,
    score_evals,
    table_summaries,
)

__all__ = [
    "CHUNK_EVALS",
    "TEXT_CHUNK",
    "EvalItem",
    "EvalRecord",
    "EvalTable",
    "Failure",
    "InstanceRow",
    "ScoredBatch",
    "TableSummaries",
    "TextItem",
    "batch_scorer",
    "eval_items",
    "merged_batches",
    "peer_id_list",
    "score_batch",
    "score_chunk",
    "score_chunks",
    "score_in_chunks",
    "score_text_chunks",
    "score_texts",
    "summaries_here",
    "summarize_batches",
    "text_items",
]


class TextItem(NamedTuple):
    """Item ``index`` (0-based) as :func:`rouge155py.score` numbers it: eval ``str(index + 1)``.

    ``predictions``: one system's summary (peer ID ``"1"``) or a mapping
    system ID -> summary; ``references``: one summary or a list of them. A
    summary is a string (its lines are its sentences), bytes, or a list of
    sentence strings.
    """

    index: int  # type: ignore[assignment]  # the public name (TextItem(index=...), item.index) over tuple.index
    predictions: Union[SummaryInput, Mapping[Any, SummaryInput]]
    references: Union[SummaryInput, Sequence[SummaryInput]]


class EvalItem(NamedTuple):
    """Eval entry ``position`` (0-based) of a configuration; its files are read where it is scored."""

    position: int
    entry: Eval


Item = Union[TextItem, EvalItem]


class Failure(NamedTuple):
    """The error an eval's scoring met first: at metric ``metric_index`` (of the plan), for ``peer_id``."""

    metric_index: int
    peer_id: str
    error: RougeError


class EvalRecord(NamedTuple):
    """What the report needs of one eval besides its rows."""

    position: int
    eval_id: str
    peer_ids: tuple[str, ...]
    models: int
    missing_model: Optional[str] = None  # the first model file that does not exist
    failure: Optional[Failure] = None


class InstanceRow(NamedTuple):
    """One instance: R, P, F (rounded as the Perl keeps them), or under ``-t`` model, peer and hit counts."""

    eval_id: str
    peer_id: str
    metric: str
    row: Row


@dataclass
class EvalTable:
    """What the report needs of each eval of a batch, by columns (a few dozen bytes an eval):
    position, eval ID, peer IDs (equal tuples shared) and number of models; the first missing
    model file and the scoring error of the few evals that have one, by row."""

    positions: IntColumn = field(default_factory=IntColumn)
    eval_ids: Ids = field(default_factory=list)
    peer_ids: list[tuple[str, ...]] = field(default_factory=list)
    models: IntColumn = field(default_factory=IntColumn)
    missing: dict[int, str] = field(default_factory=dict)
    failures: dict[int, Failure] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.eval_ids)

    def add(self, record: EvalRecord) -> None:
        """Append one eval's record."""
        row = len(self.eval_ids)
        self.positions.append(record.position)
        self.eval_ids.append(record.eval_id)
        self.peer_ids.append(record.peer_ids)
        self.models.append(record.models)
        if record.missing_model is not None:
            self.missing[row] = record.missing_model
        if record.failure is not None:
            self.failures[row] = record.failure

    def extend(self, other: EvalTable) -> None:
        """Append another table's evals (it is spent: an empty table takes its columns as they are)."""
        rows = len(self.eval_ids)
        if not rows:
            self.positions, self.eval_ids, self.peer_ids = other.positions, other.eval_ids, other.peer_ids
            self.models, self.missing, self.failures = other.models, other.missing, other.failures
            return
        self.positions.extend(other.positions)
        self.eval_ids.extend(other.eval_ids)
        self.peer_ids.extend(other.peer_ids)
        self.models.extend(other.models)
        self.missing.update((rows + k, name) for k, name in other.missing.items())
        self.failures.update((rows + k, failure) for k, failure in other.failures.items())

    def truncate(self, length: int) -> None:
        """Keep the first ``length`` evals (see :meth:`ScoredBatch.truncate`)."""
        del self.positions[length:], self.eval_ids[length:], self.peer_ids[length:], self.models[length:]
        for extra in [row for row in self.missing if row >= length]:
            del self.missing[extra]
        for extra in [row for row in self.failures if row >= length]:
            del self.failures[extra]

    def record(self, row: int) -> EvalRecord:
        """One eval's record."""
        return EvalRecord(
            self.positions[row],
            self.eval_ids[row],
            self.peer_ids[row],
            self.models[row],
            self.missing.get(row),
            self.failures.get(row),
        )


class BatchMark(NamedTuple):
    """The lengths of a :class:`ScoredBatch`'s tables at one moment (:meth:`ScoredBatch.mark`)."""

    evals: int
    rows: dict[tuple[str, int], int]
    stemmed_rows: dict[tuple[str, int], int]
    inexact: int


@dataclass
class ScoredBatch:
    """The rows of some evals and what the report needs of each eval; small and picklable, no text.

    ``settings``: what the rows depend on (:attr:`Options.rows_settings`), which
    the summary must share; ``labels``: the metrics' labels. ``rows``: (peer ID,
    metric index) -> its instances' rows, held compactly. ``stemmed_rows``
    (``-m`` with ``-M`` only): rows of the same instances with the peer
    stemmed, for those the Perl's walk may still stem.
    """

    settings: tuple[Any, ...]
    labels: tuple[str, ...] = ()
    table: EvalTable = field(default_factory=EvalTable)
    rows: Grouped = field(default_factory=dict)
    stemmed_rows: Grouped = field(default_factory=dict)
    #: ParaEval: instance IDs whose tier 1 was matched greedily past its bound.
    inexact: list[str] = field(default_factory=list)

    @property
    def evals(self) -> list[EvalRecord]:
        """What the report needs of each eval, one record each."""
        return [self.table.record(row) for row in range(len(self.table))]

    def extend(self, other: ScoredBatch) -> None:
        """Take in the evals and rows of another batch scored with the same settings (its
        tables become this batch's: the other is spent)."""
        self.table.extend(other.table)
        merge_rows(self.rows, other.rows)
        merge_rows(self.stemmed_rows, other.stemmed_rows)
        self.inexact.extend(other.inexact)

    def mark(self) -> BatchMark:
        """How far each of this batch's tables reaches now, to :meth:`truncate` back to."""
        return BatchMark(
            len(self.table),
            {key: len(table) for key, table in self.rows.items()},
            {key: len(table) for key, table in self.stemmed_rows.items()},
            len(self.inexact),
        )

    def truncate(self, mark: BatchMark) -> None:
        """Undo every :meth:`extend` since ``mark`` was taken, finished or cut short by an interrupt.
        Only drops what is past the mark, so a call that is itself interrupted is finished by the next."""
        self.table.truncate(mark.evals)
        for grouped, lengths in ((self.rows, mark.rows), (self.stemmed_rows, mark.stemmed_rows)):
            for extra in [key for key in grouped if key not in lengths]:
                del grouped[extra]
            for key, length in lengths.items():
                grouped[key].truncate(length)
        del self.inexact[mark.inexact :]

    def instances(self) -> Iterator[InstanceRow]:
        """Every instance row of the batch (under ``-m -M``, as scored without the peer stemmed)."""
        for (peer_id, index), table in self.rows.items():
            for instance_id, row in table.items():
                yield InstanceRow(eval_id_of(instance_id, peer_id), peer_id, self.labels[index], row)


#: The bootstrap of instance tables, in their order: averages and intervals, or ``-t 2`` sums.
TableSummaries = Callable[[list[RowTable], Options, Optional[ProgressFn]], list[Union[Summary, Counts]]]
# A document standing for one a batch has read and scored.
_SCORED = SummaryText("", "SPL", "<scored in a batch>")
_local = threading.local()


def text_items(
    predictions: Union[Iterable[SummaryLike], Mapping[Any, Iterable[SummaryLike]]],
    references: Iterable[Union[SummaryLike, Sequence[SummaryLike]]],
    start: int = 0,
) -> list[TextItem]:
    """The items of :func:`rouge155py.score`'s arguments, read by its rule
    (:func:`~rouge155py.inputs.texts.text_inputs`); item ``i`` gets index ``start + i``."""
    systems, entries = text_inputs(predictions, references)
    if not isinstance(predictions, Mapping):
        return [TextItem(start + i, p, r) for i, (p, r) in enumerate(zip(systems[DEFAULT_PEER_ID], entries))]
    return [
        TextItem(start + i, {peer_id: items[i] for peer_id, items in systems.items()}, r)
        for i, r in enumerate(entries)
    ]


def eval_items(config: EvalConfig) -> list[EvalItem]:
    """The eval entries of a configuration, each with its position."""
    return [EvalItem(position, entry) for position, entry in enumerate(config.evals)]


def _iterated(values: Any, name: str, what: str) -> Iterator[Any]:
    """The values of an iterable argument (not one string, whose characters would be the values)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise UsageError(f"{name} must be an iterable of {what}s, got {described(values)}")
    return iter(values)


def peer_id_list(peer_ids: Iterable[str]) -> list[str]:
    """The peer IDs :func:`summarize_batches` is given besides the batches' own: strings."""
    named = list(_iterated(peer_ids, "peer_ids", "system ID"))
    for peer_id in named:
        if not isinstance(peer_id, str):
            raise UsageError(f"peer_ids holds {described(peer_id)}; expected system IDs as strings")
    return named


_MAX_POSITION = 2**63 - 1  # positions of 64 bits, as system IDs given as numbers


def _placed(item: Any, input_format: str) -> tuple[int, Eval]:
    """An item's position in the run and its eval."""
    if (
        type(item) is EvalItem
        and type(item[0]) is int
        and 0 <= item[0] < _MAX_POSITION
        and type(item[1]) is Eval
    ):
        return item  # the common case, checked without the numbers ABC (a hot path)
    if not isinstance(item, tuple) or len(item) not in (2, 3):
        raise UsageError(f"an item is a TextItem or an EvalItem, got {type(item).__name__}")
    position = item[0]
    whole = isinstance(position, numbers.Integral) and not isinstance(position, bool)
    if not whole or not 0 <= position < _MAX_POSITION:  # its eval ID is the number written out
        expected = "a whole number from 0 to 2**63 - 2"
        raise UsageError(f"an item's index must be {expected}, got {described(position)}")
    position = int(position)  # a numpy integer too, as a DataFrame's column gives it
    if len(item) == 3:
        return position, item_eval(position, item[1], item[2], input_format)
    if not isinstance(item[1], Eval):
        raise UsageError(f"an EvalItem holds an Eval, got {type(item[1]).__name__}")
    return position, item[1]


def batch_scorer(options: Options, fresh: bool = False) -> Scorer:
    """This thread's scorer, kept between batches scored with the same text and scoring settings:
    its data files are read once (``-j`` workers, forked later, inherit it). ``fresh``: a new one
    (a run reads its data files anew)."""
    scorer = getattr(_local, "scorer", None)
    if fresh or scorer is None or (scorer.text, scorer.scoring) != (options.text, options.scoring):
        scorer = _local.scorer = Scorer(options.text, options.scoring)
    return scorer


def _switch(options: Options, plan: list[Metric]) -> Optional[int]:
    """``-m`` with ``-M``: the first metric whose reading of a model switches ``-m`` off, if any."""
    if not options.text.stems_across_evals:
        return None
    return next((index for index, metric in enumerate(plan) if metric.switches_stemming), None)


class _Scoring:
    """One batch's scoring: its plan, evaluated peers and the ``-m -M`` switch."""

    def __init__(self, options: Options, plan: list[Metric], peers: list[str]) -> None:
        self.options, self.plan, self.peers = options, plan, peers
        self.scorer = batch_scorer(options)
        self.switch = _switch(options, plan)

    def score(self, evals: list[Eval], batch: ScoredBatch) -> None:
        """Add the rows of some evals to the batch (raises what their scoring raises)."""
        plan, peers = self.plan, self.peers
        if self.switch is None:
            merge_rows(batch.rows, score_evals(self.scorer, plan, evals, peers))
        else:
            rows = score_evals(self.scorer, plan, evals, peers, stem_now=False)
            with_models = [ev for ev in evals if ev.models]
            stemmed = score_evals(self.scorer, plan[: self.switch + 1], with_models, peers, stem_now=True)
            merge_rows(batch.rows, rows)
            merge_rows(batch.stemmed_rows, stemmed)
        for metric in plan:
            batch.inexact.extend(metric.take_inexact())

    def failure(self, ev: Eval, batch: ScoredBatch) -> Optional[Failure]:
        """The error scoring one eval meets first in the Perl's walk (peer by peer, then metric
        by metric); the rows of the tasks the walk makes before it are added to the batch:
        the Perl prints them before it dies (:attr:`~rouge155py.errors.RougeError.partial`)."""
        stem_now = None if self.switch is None else False
        tasks = plan_tasks(self.options.text, [ev], self.plan, self.peers, stem_now)
        done: list[Task] = []
        rows: list[Row] = []
        found = None
        try:
            for task in tasks:
                try:
                    rows.extend(self.scorer.rows(self.plan, [task]))
                except RougeError as error:
                    found = Failure(task.metric_index, task.peer_id, error)
                    break
                done.append(task)
            merge_rows(batch.rows, group_rows(done, rows))
            if self.switch is not None and ev.models:  # the same tasks with the peer stemmed
                before = self.switch + 1
                stemmed = plan_tasks(self.options.text, [ev], self.plan, self.peers, True)[: len(done)]
                stemmed = [task for task in stemmed if task.metric_index < before]
                merge_rows(batch.stemmed_rows, group_rows(stemmed, self.scorer.rows(self.plan, stemmed)))
        except RougeError:
            pass  # the rows the walk makes before the failure cannot be had: the failure is kept
        finally:
            self.scorer.corpus.clear()
        return found


def _missing_models(run: _Scoring, evals: list[Eval], peers: list[str]) -> dict[str, str]:
    """Eval ID -> its first model file that does not exist, of the evals that hold an evaluated
    peer (the Perl's ``-e`` test, made before it reads anything: asked only once something
    went wrong, since a model that was read exists)."""
    chosen = set(peers)
    missing: dict[str, str] = {}
    try:
        for ev in evals:
            if not chosen.isdisjoint(ev.peers):
                found = first_missing_model(ev, run.scorer.corpus.exists)
                if found is not None:
                    missing[ev.eval_id] = found
    finally:
        run.scorer.corpus.clear()
    return missing


def score_batch(items: Iterable[Item], options: Union[Options, HoldsOptions]) -> ScoredBatch:
    """Score the evals of some items: their instance rows and what the report needs of each eval
    (see :func:`scored_batch`). The models of each item are the caller's: ``models``,
    ``drop_models`` and ``jackknife`` choose them before a run, not here."""
    options = as_options(options)
    if options.selection.reshapes:
        raise UsageError(
            "models, drop_models and jackknife choose each eval's models before a run "
            "(Rouge.score, the command line): the batch steps score the models their items give"
        )
    return scored_batch(items, options)


def scored_batch(items: Iterable[Item], options: Union[Options, HoldsOptions]) -> ScoredBatch:
    """Score the evals of some items: their instance rows and what the report needs of each eval.

    ``options``: an :class:`Options` or a :class:`~rouge155py.Rouge` (texts
    are SPL summaries, or SIMPLE BE lines under ``be_mode``). A file that
    cannot be read or a score the Perl dies on is kept in the batch, to be
    raised by :func:`summarize_batches` if it is the error one process meets
    first. Any other error is raised here.
    """
    options = as_options(options)
    plan = metric_plan(options.metrics)
    batch = ScoredBatch(options.rows_settings, tuple(metric.label for metric in plan))
    if not plan:
        return batch
    check_resamples(options.counting, options.resampling)
    input_format = text_format(options.be_mode)
    listed = list(_iterated(items, "items", "item"))
    placed = [_placed(item, input_format) for item in listed]
    if options.multi_ref is None:  # a text item's several references need a rule, as in Rouge.score
        check_multi_ref(None, (len(ev.models) for item, (_, ev) in zip(listed, placed) if len(item) == 3))
    evals = [ev for _, ev in placed]
    peers = options.selection.evaluated({p for ev in evals for p in ev.peers})
    run = _Scoring(options, plan, peers)
    peer_sets: dict[tuple[str, ...], tuple[str, ...]] = {}
    failures: dict[str, Failure] = {}
    # Each variant fixes its -m state: any chunks will do.
    together = run.switch is None and options.text.stems_across_evals
    try:
        for chunk in eval_chunks(evals, peers, together):
            try:
                run.score(chunk, batch)
            except RougeError:
                for ev in chunk:
                    try:
                        run.score([ev], batch)
                    except RougeError as error:
                        failures[ev.eval_id] = run.failure(ev, batch) or Failure(0, peers[0], error)
    except Exception:
        missing = _missing_models(run, evals, peers)
        if not missing:
            raise
        # The report stops at a missing model; what was scored before this error is not whole.
        failures.clear()
        batch.rows.clear()
        batch.stemmed_rows.clear()
        batch.inexact.clear()
        for metric in plan:
            metric.take_inexact()
    else:
        # Every model of a scored eval has been read: none can be missing where none failed.
        missing = _missing_models(run, evals, peers) if failures else {}
    table = batch.table
    for row, (position, ev) in enumerate(placed):  # EvalTable.add, by columns (a hot loop)
        names = tuple(ev.peers)
        table.positions.append(position)
        table.eval_ids.append(ev.eval_id)
        table.peer_ids.append(peer_sets.setdefault(names, names))
        table.models.append(len(ev.models))
        if missing or failures:
            if ev.eval_id in missing:
                table.missing[row] = missing[ev.eval_id]
            if ev.eval_id in failures:
                table.failures[row] = failures[ev.eval_id]
    _number_ids(batch)
    return batch


def _number_ids(batch: ScoredBatch) -> None:
    """A batch's eval and instance IDs held as numbers where they are numbers (see
    :func:`~rouge155py.run.ids.numbered_ids`): the tables of a peer's metrics hold the same IDs,
    made numbers once."""
    batch.table.eval_ids = numbered_ids(batch.table.eval_ids)
    for grouped in (batch.rows, batch.stemmed_rows):
        made: dict[str, tuple[Ids, Ids]] = {}  # peer ID -> (the IDs as they were, as numbers)
        for (peer_id, _), rows in grouped.items():
            was = made.get(peer_id)
            if was is not None and was[0] == rows.ids:
                rows.ids = copied(was[1])
                continue
            numbered = numbered_ids(rows.ids, f".{peer_id}")
            made[peer_id] = (rows.ids, numbered)
            rows.ids = numbered


def score_texts(config: TextConfig, start: int, stop: int, options: Options) -> ScoredBatch:
    """Step 1 for items ``start`` to ``stop - 1`` of texts held by columns: the C kernel scores
    them from the columns where it applies (no document is made), else :func:`score_batch`
    scores their evals. The same batch either way."""
    plan = metric_plan(options.metrics)
    stop = min(stop, config.items)
    peers = options.selection.evaluated(config.peer_ids)
    if plan and peers and stop > start and config.input_format == "SPL" and _switch(options, plan) is None:
        check_resamples(options.counting, options.resampling)
        starts = config.starts
        first, last = starts[start], starts[stop]
        if last - first == stop - start:  # one model an item, the common case
            spans = array("i", range(stop - start + 1))
        else:
            spans = array("i", [at - first for at in starts[start : stop + 1]])
        texts = [config.peer_texts[peer_id][start:stop] for peer_id in peers]
        values = None
        if options.text.dialect is not None:  # its options hold no -s, -t or other rule (Options checks)
            values = rs_text_rows(plan, options.text.stem, texts, config.model_texts[first:last], spans)
        else:
            kernel = batch_scorer(options).kernel(plan)
            if kernel is not None:
                values = kernel.text_rows(texts, config.model_texts[first:last], spans)
        if values is not None:
            return _text_batch(config, start, stop, options, plan, peers, values)
    return scored_batch(
        [EvalItem(config.places[start + k], ev) for k, ev in enumerate(config.evals_between(start, stop))],
        options,
    )


def _text_batch(
    config: TextConfig,
    start: int,
    stop: int,
    options: Options,
    plan: list[Metric],
    peers: list[str],
    values: array,
) -> ScoredBatch:
    """The batch of the kernel's rows of items ``start`` to ``stop - 1`` (every item holds every peer)."""
    batch = ScoredBatch(options.rows_settings, tuple(metric.label for metric in plan))
    positions = IntColumn(config.places[start:stop])
    numbers = IntColumn([k + 1 for k in positions])  # eval IDs str(k + 1), held as numbers
    groups = [(peer_id, IdColumn(numbers, "." + peer_id)) for peer_id in peers]
    batch.rows = kernel_grouped(len(plan), groups, values)
    table = batch.table
    table.positions = positions
    table.eval_ids = IdColumn(numbers)
    table.peer_ids = [tuple(config.peer_texts)] * (stop - start)
    starts = config.starts
    table.models = IntColumn([starts[k + 1] - starts[k] for k in range(start, stop)])
    return batch


def score_text_chunks(
    config: TextConfig, options: Options, progress: Optional[ProgressFn], size: int
) -> list[ScoredBatch]:
    """:func:`score_in_chunks` for texts held by columns: one batch of every item, scored
    ``size`` items at a time by :func:`score_texts`."""
    total = config.items

    def batches() -> Iterator[ScoredBatch]:
        for start in range(0, total, size):
            yield score_texts(config, start, start + size, options)
            if progress is not None:
                progress("scoring", min(total, start + size), total)

    return merged_batches(batches())


def score_chunks(
    chunks: Iterable[tuple[EvalConfig, Sequence[int]]],
    options: Options,
    progress: Optional[ProgressFn],
    total: Callable[[], int],
) -> list[ScoredBatch]:
    """Step 1 on a source read a chunk at a time (:class:`~rouge155py.inputs.sources.StreamedEvals`):
    each chunk scored as it comes (texts by columns as :func:`score_texts` scores them, else its
    evals at their places) and merged, then dropped before the next is read; ``total`` tells
    ``progress`` about how many evals there will be."""

    def batches() -> Iterator[ScoredBatch]:
        done = 0
        for config, places in chunks:
            yield score_chunk(config, places, options)
            done += len(places)
            del config, places
            if progress is not None:
                progress("scoring", done, max(done, total()))

    return merged_batches(batches())


def score_chunk(config: EvalConfig, places: Sequence[int], options: Options) -> ScoredBatch:
    """Step 1 on one chunk of a source read a chunk at a time: texts by columns as
    :func:`score_texts` scores them, else its evals at their places."""
    if isinstance(config, TextConfig):
        return score_texts(config, 0, config.items, options)
    return scored_batch([EvalItem(place, ev) for place, ev in zip(places, config.evals)], options)


def merged_batches(batches: Iterable[ScoredBatch]) -> list[ScoredBatch]:
    """One batch of batches scored one after another, each merged as it comes (its rows grow the
    first one's in place, and it is spent): ``[]`` for none."""
    merged: Optional[ScoredBatch] = None
    for batch in batches:
        if merged is None:
            merged = batch
        else:
            merged.extend(batch)
    return [] if merged is None else [merged]


def _stand_ins(records: list[EvalRecord]) -> list[Eval]:
    """The evals as the summary sees them: IDs, peers and numbers of models, without texts.

    Evals with the same peers or the same number of models share one dict or list (never changed).
    """
    peers: dict[tuple[str, ...], dict[str, Document]] = {}
    models: dict[int, list[Document]] = {}
    out = []
    for record in records:
        found = models.get(record.models) or models.setdefault(record.models, [_SCORED] * record.models)
        if record.missing_model is not None:
            found = [SummaryFile(record.missing_model, None), *found[1:]]
        named = peers.get(record.peer_ids) or peers.setdefault(
            record.peer_ids, dict.fromkeys(record.peer_ids, _SCORED)
        )
        out.append(Eval(record.eval_id, named, found))
    return out


def _first_failure(peers: list[str], records: list[EvalRecord]) -> Optional[tuple[Failure, int]]:
    """The error the Perl's walk meets first (peer, then metric, then eval) and the place of its
    eval in the run's order, if any: an eval's scoring error, or a model file that does not
    exist, which the Perl looks for when its walk first meets the eval (its first evaluated
    peer, the first metric) and finds missing before it reads anything."""
    rank = {peer_id: i for i, peer_id in enumerate(peers)}
    first: Optional[tuple[tuple[int, int, int, int], Failure, int]] = None
    for order, record in enumerate(records):
        found = []
        if record.missing_model is not None:
            met = min((rank[p] for p in record.peer_ids if p in rank), default=None)
            if met is not None:
                error = missing_model(record.missing_model)
                found.append(((met, 0, order, 0), Failure(0, peers[met], error)))
        failure = record.failure
        if failure is not None:
            found.append(((rank[failure.peer_id], failure.metric_index, order, 1), failure))
        for key, met_first in found:
            if first is None or key < first[0]:
                first = (key, met_first, order)
    return None if first is None else (first[1], first[2])


def _restem(
    options: Options,
    plan: list[Metric],
    config: EvalConfig,
    peers: list[str],
    grouped: Grouped,
    stemmed: Grouped,
) -> None:
    """``-m`` with ``-M``: the instances the Perl's walk plans before its switch take their stemmed rows."""
    switch = _switch(options, plan)
    if switch is None:
        return
    for task in walk_tasks(options.text, config.evals, plan[: switch + 1], peers):
        if not task.peer_stem:
            return  # switched off for good
        table = stemmed.get((task.peer_id, task.metric_index))
        row = None if table is None else table.get(task.instance_id)
        if row is not None:
            grouped.setdefault((task.peer_id, task.metric_index), RowTable()).set(task.instance_id, row)


def _differing(theirs: tuple[Any, ...], ours: tuple[Any, ...]) -> list[str]:
    """The names of the settings in which two batches' rows differ."""
    if len(theirs) != len(ours) or any(type(a) is not type(b) for a, b in zip(theirs, ours)):
        return ["the kind of settings"]
    return sorted(
        f.name for a, b in zip(theirs, ours) for f in fields(b) if getattr(a, f.name) != getattr(b, f.name)
    )


#: Evals scored at a time in one process, between two words to ``progress``.
CHUNK_EVALS = 256
#: Items of texts held by columns scored at a time (no document is made for them: larger chunks).
TEXT_CHUNK = 2048


def score_in_chunks(
    entries: list[Eval], options: Options, progress: Optional[ProgressFn], size: int, owned: bool
) -> list[ScoredBatch]:
    """One batch of every eval in this process, scored ``size`` evals at a time and merged as
    it goes (each chunk's documents are then dropped, and its evals too where ``owned``: the
    list is emptied): the rows grow in place instead of being copied once more at the end.
    ``progress`` hears ``("scoring", done, total)`` after each chunk."""
    total = len(entries)
    chunks = [entries[start : start + size] for start in range(0, total, size)]
    if owned:
        entries.clear()  # only the chunks hold the evals now
    chunks.reverse()

    def batches() -> Iterator[ScoredBatch]:
        done = 0
        while chunks:
            chunk = chunks.pop()
            yield scored_batch([EvalItem(done + k, ev) for k, ev in enumerate(chunk)], options)
            done += len(chunk)
            del chunk
            if progress is not None:
                progress("scoring", done, total)

    return merged_batches(batches())


def summaries_here(
    tables: list[RowTable], options: Options, progress: Optional[ProgressFn] = None
) -> list[Union[Summary, Counts]]:
    """The bootstrap of each table, in this process (``progress`` told of each); a peer's tables
    are resampled together (:func:`~rouge155py.run.score.table_summaries`)."""
    out = table_summaries(options.scoring, options.resampling, tables)
    if progress is not None:
        for done in range(1, len(tables) + 1):
            progress("bootstrap", done, len(tables))
    return out


def summarize_batches(
    batches: Iterable[ScoredBatch],
    options: Union[Options, HoldsOptions],
    peer_ids: Iterable[str] = (),
    progress: Optional[ProgressFn] = None,
    summaries: TableSummaries = summaries_here,
) -> Report:
    """The report of every eval in the batches, as one process makes it, whatever their order.

    Batches are merged one at a time as the iterable yields them. ``options``
    must score as the batches' did. ``peer_ids``: peers the configuration
    names besides those of its evals (``-a`` reports every one). ``progress``
    is told of each table resampled; ``summaries`` resamples the tables
    (``-j`` shares them among its workers).
    """
    options = as_options(options)
    plan = metric_plan(options.metrics)
    if plan:
        check_resamples(options.counting, options.resampling)
    held = 0

    def counted() -> Iterator[ScoredBatch]:
        nonlocal held
        for batch in _iterated(batches, "batches", "ScoredBatch"):
            held += len(batch.table) if isinstance(batch, ScoredBatch) else 0
            yield batch

    report = summarize(counted(), options, plan, peer_ids, progress, summaries)
    if plan and not held:
        raise UsageError("nothing to summarize: the batches hold no eval (no prediction was scored)")
    return report


def summarize(
    batches: Iterable[ScoredBatch],
    options: Options,
    plan: list[Metric],
    peer_ids: Iterable[str] = (),
    progress: Optional[ProgressFn] = None,
    summaries: TableSummaries = summaries_here,
) -> Report:
    """:func:`summarize_batches` on a run's options and metric plan, as built and checked once."""
    named = peer_id_list(peer_ids)
    report = Report(options)
    if not plan:
        return report
    settings = options.rows_settings
    merged = ScoredBatch(settings)
    for batch in _iterated(batches, "batches", "ScoredBatch"):
        if not isinstance(batch, ScoredBatch):
            raise UsageError(f"batches holds {described(batch)}; expected ScoredBatch objects")
        if batch.settings != settings:
            differ = ", ".join(_differing(batch.settings, settings))
            raise UsageError(f"a batch was scored with other options ({differ}) than the summary's")
        merged.extend(batch)
    batch = None  # the last batch's columns are merged's now: let them go with it
    evals, grouped, stemmed = merged.table, merged.rows, merged.stemmed_rows
    inexact = set(merged.inexact)
    del merged
    order = _eval_order(evals)
    peer_sets = set(evals.peer_ids)  # few: equal tuples are shared
    peers = options.selection.evaluated({p for names in peer_sets for p in names} | set(named))
    if all(names.issuperset(peers) for names in map(set, peer_sets)):  # every eval holds every peer
        report.warnings = []
    else:
        eval_ids, peer_ids = _in_order(evals.eval_ids, order), _in_order(evals.peer_ids, order)
        report.warnings = peer_warnings(peers, eval_ids, peer_ids, options.shown_peer_id)
        del peer_ids, eval_ids
    if inexact:
        from ..metrics.paraeval import inexact_warning

        report.inexact = sorted(inexact)
        report.warnings.append(inexact_warning(report.inexact))
    first = None
    if evals.missing or evals.failures or stemmed:  # the evals are needed: stand-ins, made only now
        ordered = [evals.record(row) for row in order]
        config = EvalConfig(_stand_ins(ordered), set(peers))
        first = _first_failure(peers, ordered)
        _restem(options, plan, config, peers, grouped, stemmed)
        stemmed.clear()
        if first is not None:
            report.warnings = _warned_before(first, peers, ordered, report.warnings, options)
    del evals, order
    tables = instance_tables(plan, peers, grouped)
    grouped.clear()
    if first is not None:  # the Perl prints the blocks before the one it dies in
        rank = {peer_id: k for k, peer_id in enumerate(peers)}
        stop = (rank[first[0].peer_id], first[0].metric_index)
        tables = [t for t in tables if (rank[t[0]], t[1]) < stop]
    summed = summaries([rows for _, _, rows in tables], options, progress)
    report.results = [
        metric_result(plan[index], peer_id, rows, summary)
        for (peer_id, index, rows), summary in zip(tables, summed)
    ]
    if first is not None:
        error = first[0].error
        error.partial = report
        raise error
    return report


def _warned_before(
    first: tuple[Failure, int],
    peers: list[str],
    records: list[EvalRecord],
    warned: list[str],
    options: Options,
) -> list[str]:
    """The missing-peer warnings the Perl's walk prints before it dies of ``first`` (each as it
    meets the eval, at the first metric), then the run's other warnings."""
    failure, at = first
    k = peers.index(failure.peer_id)
    eval_ids = [r.eval_id for r in records]
    peer_ids = [r.peer_ids for r in records]
    before = peer_warnings(peers[:k], eval_ids, peer_ids, options.shown_peer_id)
    upto = len(records) if failure.metric_index else at
    before += peer_warnings([failure.peer_id], eval_ids[:upto], peer_ids[:upto], options.shown_peer_id)
    missing = set(peer_warnings(peers, eval_ids, peer_ids, options.shown_peer_id))
    return before + [w for w in warned if w not in missing]


def _eval_order(evals: EvalTable) -> Sequence[int]:
    """The rows in the order of their positions; an eval in two batches is an error."""
    positions = evals.positions
    if positions.increasing() and _distinct(evals.eval_ids):
        return range(len(evals))  # the batches came in order (one process, threads), none twice
    if isinstance(evals.eval_ids, IdColumn) and evals.eval_ids.numbered():
        return _numbered_eval_order(positions, evals.eval_ids)
    order = sorted(range(len(evals)), key=positions.__getitem__)
    seen: set[str] = set()
    for k, row in enumerate(order):
        eval_id = evals.eval_ids[row]
        if (k and positions[order[k - 1]] == positions[row]) or eval_id in seen:
            raise UsageError(f"eval {eval_id!r} (position {positions[row]}) is in two batches")
        seen.add(eval_id)
    return order


def _numbered_eval_order(positions: IntColumn, eval_ids: IdColumn) -> array:
    """:func:`_eval_order` where the eval IDs are numbers (batches of numbered evals from a
    cluster, in any order), in int64 arrays: the same order, and the same first eval found twice,
    without a string or an int object an eval."""
    import numpy as np

    at = np.frombuffer(positions.as_array(), dtype=np.int64)
    order = np.argsort(at, kind="stable")
    placed = at[order]
    twice = np.flatnonzero(placed[1:] == placed[:-1]) + 1  # a position after its equal
    del placed
    numbers = np.frombuffer(eval_ids.numbers.as_array(), dtype=np.int64)[order]
    again = np.ones(len(numbers), dtype=bool)
    again[np.unique(numbers, return_index=True)[1]] = False  # an eval ID after its first place
    del numbers
    found = [int(k[0]) for k in (twice, np.flatnonzero(again)) if len(k)]
    if found:
        row = int(order[min(found)])
        raise UsageError(f"eval {eval_ids[row]!r} (position {positions[row]}) is in two batches")
    return int64_array(order)


def _distinct(eval_ids: Ids) -> bool:
    """Whether no eval ID is there twice (numbers in increasing order are not)."""
    if isinstance(eval_ids, IdColumn) and eval_ids.numbered():
        if eval_ids.numbers.increasing():
            return True
    return len(set(eval_ids)) == len(eval_ids)


def _in_order(values: Sequence[Any], order: Sequence[int]) -> Sequence[Any]:
    """The values of the rows in that order (the list itself where it is already)."""
    return values if isinstance(order, range) else [values[row] for row in order]
