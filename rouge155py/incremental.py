"""An evaluation loop's ROUGE: ``update()`` batch by batch, ``compute()`` the one exact report.

    from rouge155py import Rouge

    acc = Rouge(max_ngram=2, stem=True).accumulator()
    for predictions, references in loader:  # a batch of items at a time
        acc.update(predictions, references)  # scored now: only the rows are kept, no text
    report = acc.compute()  # the bytes of one Rouge(...).score() over every item

Each :meth:`RougeAccumulator.update` scores its items at once
(:func:`~rouge155py.run.batches.score_texts`, as :meth:`Rouge.score` does) and keeps their instance rows; the
texts are dropped. :meth:`~RougeAccumulator.compute` summarizes the rows
(:func:`~rouge155py.run.batches.summarize_batches`) and may be called again after
more updates. The state pickles: states built in other processes (ranks of a
distributed loop, workers of a pool) are joined with
:meth:`~RougeAccumulator.merge`.

Which item is which (the eval IDs of the report, and the order the Perl's
bootstrap and warnings follow) is decided in one of two ways, fixed by an
accumulator's first update:

- **update order** (no ``ids``): items are numbered as they come, the first
  update's from 1, the next update's after them; ``a.merge(b)`` appends b's
  items after a's, in that order. The report is that of one ``score()`` over
  the items in that order.
- **explicit IDs** (``update(..., ids=[...])``): each item names its place in
  the whole data set by a distinct whole number (a dataset index). Batches
  and states may come in any order: the report is that of one ``score()``
  over the items sorted by ID (eval ``k`` is the k-th smallest ID; with IDs
  0 .. N-1, item ``i`` is eval ``i + 1``). An ID given twice (in two updates
  or two merged states) is an error: a sampler that pads its last batch with
  repeated items must drop them.

A change of the state (:meth:`~RougeAccumulator.update`,
:meth:`~RougeAccumulator.merge`, :meth:`~RougeAccumulator.reset`) is all or
nothing: one cut short by an exception or a KeyboardInterrupt leaves the state
as it was, so a loop may simply call it again.
"""

from __future__ import annotations

import numbers
from array import array
from typing import Any, Callable, Collection, NamedTuple, Optional, Sequence, Union

from ._kernel import notice_missing_kernel
from .errors import UsageError, described
from .inputs.texts import (
    Predictions,
    References,
    check_multi_ref,
    config_from_texts,
    text_format,
    text_inputs,
)
from .report import Report
from .run.batches import TEXT_CHUNK, BatchMark, EvalTable, ScoredBatch, score_text_chunks, summarize_batches
from .run.collector import paused_gc
from .run.columns import IntColumn
from .run.score import Grouped, RowTable
from .settings.options import ROWS, HoldsOptions, Options, as_options

__all__ = ["RougeAccumulator"]

_MAX_ID = 2**63 - 2  # the largest position a batch takes (its eval ID is one more)


def _item_ids(ids: Any, count: int) -> list[int]:
    """The explicit IDs of an update's ``count`` items: distinct whole numbers from 0 (a list, a
    tuple, or an array whose ``tolist()`` is a list: numpy's, torch's)."""
    values = ids.tolist() if not isinstance(ids, Sequence) and hasattr(ids, "tolist") else ids
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise UsageError(f"ids must be a list of whole numbers, one per item, got {described(ids)}")
    values = list(values)
    if len(values) != count:
        raise UsageError(f"ids holds {len(values)} IDs for {count} items")
    out = []
    for value in values:
        whole = isinstance(value, numbers.Integral) and not isinstance(value, bool)
        if not whole or not 0 <= int(value) <= _MAX_ID:
            raise UsageError(f"an item ID must be a whole number from 0 to 2**63 - 2, got {described(value)}")
        out.append(int(value))
    if len(set(out)) != len(out):
        twice = sorted({i for i in out if out.count(i) > 1})[:5]
        raise UsageError(f"item ID(s) {', '.join(map(str, twice))} given twice in one update")
    return out


def _renumbered(batch: ScoredBatch, position: Callable[[int], int]) -> ScoredBatch:
    """A copy of a batch of text items with item ``p`` moved to ``position(p)`` (eval ID
    ``str(position(p) + 1)``, its instances ``EVAL.PEER``); the batch itself is left as it was."""

    def instance(instance_id: str) -> str:
        eval_id, dot, peer_id = instance_id.partition(".")  # a text item's eval ID is digits
        return f"{position(int(eval_id) - 1) + 1}{dot}{peer_id}"

    same = position is _same

    def rows(grouped: Grouped) -> Grouped:
        out: Grouped = {}
        for key, table in grouped.items():
            ids = list(table.ids) if same else [instance(i) for i in table.ids]
            values = table.values
            if isinstance(values, array):
                out[key] = RowTable.of_floats(ids, array("d", values))
            else:
                copy = out[key] = RowTable()
                for instance_id, row in zip(ids, values):
                    copy.add(instance_id, row)
        return out

    old = batch.table
    positions = IntColumn(old.positions if same else [position(p) for p in old.positions])
    table = EvalTable(
        positions,
        [str(p + 1) for p in positions],
        list(old.peer_ids),
        IntColumn(old.models),
        dict(old.missing),
        dict(old.failures),
    )
    inexact = [instance(i) for i in batch.inexact]
    return ScoredBatch(
        batch.settings, batch.labels, table, rows(batch.rows), rows(batch.stemmed_rows), inexact
    )


def _same(p: int) -> int:
    return p


class _State(NamedTuple):
    """An accumulator's state, replaced as a whole by one assignment (an interrupt cannot split it).

    ``undo`` is set while items are being added to ``batch`` and ``ids``: the marks to cut them
    back to, should the change not reach its end (see :meth:`RougeAccumulator._settled`).
    """

    batch: ScoredBatch
    ids: set[int]  # explicit IDs taken
    items: int  # items taken
    by_id: Optional[bool]  # None until the first update fixes the numbering
    undo: Optional[tuple[BatchMark, frozenset[int]]] = None


class RougeAccumulator:
    """ROUGE over an evaluation loop: :meth:`update` per batch, :meth:`compute` the report.

    ``options``: a :class:`~rouge155py.Rouge` or an :class:`~rouge155py.Options`
    (not ``verbose``: ``-v`` prints texts, which are not kept). See the module's
    docstring for how items are numbered. The accumulator pickles; its state
    holds each instance's row (three floats a metric and system) and a few
    numbers per item.
    """

    def __init__(self, options: Union[Options, HoldsOptions]) -> None:
        self.options = as_options(options)
        #: A Rouge's ``rouge_types``: the names its reports' views show (as :meth:`Rouge.score`'s).
        self.rouge_types: Optional[tuple[str, ...]] = getattr(options, "rouge_types", None)
        if self.options.verbose:
            raise UsageError("verbose (-v) prints each instance's texts, which an accumulator does not keep")
        if self.options.selection.reshapes:
            raise UsageError(
                "models, drop_models and jackknife choose each eval's models before a run: an "
                "accumulator scores the references each update gives"
            )
        self.reset()

    def reset(self) -> None:
        """Forget every item (the options stay)."""
        self._state = _State(ScoredBatch(self.options.rows_settings), set(), 0, None)

    def _settled(self) -> _State:
        """The state, after undoing what a change cut short by an interrupt had added, if any.

        Called by every method before it reads the state: the undo that the interrupted change
        began (or could not begin) is finished here, however often it was itself interrupted.
        """
        state = self._state
        if state.undo is not None:
            mark, ids = state.undo
            state.batch.truncate(mark)
            state.ids.difference_update(ids)
            state = self._state = state._replace(undo=None)
        return state

    def _commit(self, batch: ScoredBatch, count: int, by_id: bool, ids: Collection[int]) -> None:
        """Add a batch of ``count`` items already scored (and checked): all of it or none of it."""
        state = self._settled()
        try:
            self._state = _State(
                state.batch, state.ids, state.items, state.by_id, (state.batch.mark(), frozenset(ids))
            )
            state.batch.extend(batch)
            state.ids.update(ids)
            self._state = _State(state.batch, state.ids, state.items + count, by_id)  # the change is made
        except BaseException:
            self._settled()
            raise

    def __getstate__(self) -> dict[str, Any]:
        """What pickles: the state without the rows a change cut short had left."""
        self._settled()
        return self.__dict__

    def __len__(self) -> int:
        """The items taken so far."""
        return self._settled().items

    @property
    def numbering(self) -> Optional[str]:
        """``"order"`` (items numbered as they came), ``"ids"`` (by explicit IDs), or None yet."""
        by_id = self._settled().by_id
        return None if by_id is None else "ids" if by_id else "order"

    def _check(self, by_id: bool) -> None:
        """Items numbered by ``ids`` (or not) may join this state's."""
        numbered = self._settled().by_id
        if numbered is not None and numbered != by_id:
            raise UsageError(
                f"this accumulator numbers items by {self.numbering}: give ids= to every update or to none"
            )

    def update(
        self,
        predictions: Predictions,
        references: References,
        ids: Optional[Sequence[int]] = None,
    ) -> None:
        """Score a batch of items now and keep their rows (not their texts).

        ``predictions`` and ``references`` are read as :meth:`rouge155py.Rouge.score`
        reads them (a mapping system ID -> iterable for several systems). ``ids``:
        each item's place in the whole data set (see the module's docstring).
        """
        state = self._settled()
        systems, entries = text_inputs(predictions, references)  # read as score() reads them
        count = len(entries)
        places: Sequence[int] = range(state.items, state.items + count)
        if ids is not None:
            places = _item_ids(ids, count)
            again = state.ids.intersection(places)
            if again:
                raise UsageError(f"item ID(s) {', '.join(map(str, sorted(again)[:5]))} already taken")
        if not count:
            return
        self._check(ids is not None)
        config = config_from_texts(systems, entries, text_format(self.options.be_mode), places)
        if self.options.multi_ref is None:  # items with several references need a rule, as in score()
            check_multi_ref(None, config.model_counts())
        notice_missing_kernel()
        with paused_gc():
            (scored,) = score_text_chunks(config, self.options, None, TEXT_CHUNK)  # one batch: this update's
            self._commit(scored, count, ids is not None, places if ids is not None else ())

    def merge(self, other: RougeAccumulator) -> RougeAccumulator:
        """Take in the items of another state, scored with the same options (it is left as it was):
        appended after this state's items, or placed by their IDs. Returns this accumulator."""
        if not isinstance(other, RougeAccumulator):
            raise UsageError(f"merge takes a RougeAccumulator, got {described(other)}")
        differ = [  # states may differ in the options that change no number (row.free: jobs)
            row.name
            for row in ROWS
            if not row.free and getattr(self.options, row.name) != getattr(other.options, row.name)
        ]
        if differ:
            shown = ", ".join(
                f"{name} {getattr(self.options, name)!r} vs {getattr(other.options, name)!r}"
                for name in differ
            )
            raise UsageError(f"cannot merge accumulators of different options: {shown}")
        state, theirs = self._settled(), other._settled()
        if theirs.by_id is None:
            return self
        self._check(theirs.by_id)
        if theirs.by_id:
            again = state.ids & theirs.ids
            if again:
                raise UsageError(f"item ID(s) {', '.join(map(str, sorted(again)[:5]))} in both states")
            added = _renumbered(theirs.batch, _same)
        else:
            offset = state.items
            added = _renumbered(theirs.batch, lambda p: p + offset)
        self._commit(added, theirs.items, theirs.by_id, theirs.ids)
        return self

    def compute(self) -> Report:
        """The report of every item so far: one ``Rouge(...).score()`` over them (see the module's
        docstring for their order). The state is kept: more updates may follow."""
        state = self._settled()
        if state.by_id:
            rank = {item_id: k for k, item_id in enumerate(sorted(state.ids))}
            moved: Callable[[int], int] = _same if len(rank) == max(rank) + 1 else rank.__getitem__
        else:
            moved = _same
        with paused_gc():
            report = summarize_batches([_renumbered(state.batch, moved)], self.options)
        report.rouge_types = self.rouge_types
        return report
