"""What an evaluation computes: numbers, not text (:mod:`rouge155py.report` formats them).

A report holds one :class:`MetricResult` per (peer, metric) in the Perl's
output order. Each holds the per-instance rows (``eval ID.peer ID`` ->
R, P, F as the Perl rounds and averages them, or the raw model, peer and hit
counts under ``-t 1``/``-t 2``) and either a :class:`Summary` (average and
confidence interval of R, P, F) or, under ``-t 2``, the summed counts.
"""

from __future__ import annotations

from array import array
from collections.abc import ItemsView, Iterator, Mapping, ValuesView
from dataclasses import dataclass
from operator import itemgetter
from typing import Callable, Optional, Sequence, Union

__all__ = ["Counts", "InstanceRows", "MetricResult", "Row", "Scores", "Summary", "eval_id_of"]

#: An instance's rounded recall, precision and F (``-t 0``).
Scores = tuple[float, float, float]
#: Model, peer and hit counts: an instance's under ``-t 1``, their sums under ``-t 2``.
Counts = tuple[Union[int, float], Union[int, float], Union[int, float]]
#: An instance's row: its :data:`Scores`, or its :data:`Counts` under ``-t``.
Row = Union[Scores, Counts]
#: Rows held compactly: all floats as one array of 3 values a row, else the row tuples.
RowValues = Union[array, list[Row]]


def eval_id_of(instance_id: str, peer_id: str) -> str:
    """The eval ID of an instance ID (``eval ID.peer ID``; both may hold dots)."""
    return instance_id[: -len(peer_id) - 1]


def float_rows(values: array) -> Iterator[Row]:
    """Rows held as one array of floats, as tuples."""
    return zip(values[0::3], values[1::3], values[2::3])


def row_at(values: RowValues, k: int) -> Row:
    """Row ``k`` of compactly held rows."""
    if isinstance(values, array):
        return values[3 * k], values[3 * k + 1], values[3 * k + 2]
    return values[k]


#: The most rows :func:`rows_at` picks in C (each row's bytes an object for a moment, about 110
#: bytes a row): a larger table takes the loop, which makes none (100,000 would add 11 MB to the peak).
_PICKED_ROWS = 1 << 16


def rows_at(values: RowValues, positions: Sequence[int]) -> RowValues:
    """The rows at these positions, in that order, held as compactly."""
    if not isinstance(values, array):
        return [values[k] for k in positions]
    out = array("d")
    if len(positions) < 2 or len(values) > 3 * _PICKED_ROWS:  # itemgetter gives 2 or more as a tuple
        for k in positions:
            out.extend(values[3 * k : 3 * k + 3])
        return out
    import struct

    # Each row's 24 bytes as one object, picked and joined in C: a third of the time of the loop.
    rows = struct.Struct("24s" * (len(values) // 3)).unpack(values)
    out.frombytes(b"".join(itemgetter(*positions)(rows)))
    return out


class InstanceRows(Mapping[str, Row]):
    """Instance ID -> row, in a fixed order; rows of floats take 24 bytes each.

    A read-only mapping: iteration, ``items()`` and ``values()`` follow the
    order given, or the order that ``order(ids)`` gives (the positions of the
    IDs), found when it is first needed: a report without ``-d`` needs none.
    Looking up one ID builds an index once.
    """

    __slots__ = ("_ids", "_index", "_order", "_values")

    def __init__(
        self,
        ids: Sequence[str],
        values: RowValues,
        order: Optional[Callable[[Sequence[str]], list[int]]] = None,
    ) -> None:
        self._ids = ids
        self._values = values
        self._order = order
        self._index: Optional[dict[str, int]] = None

    def _ordered(self) -> Sequence[str]:
        """The IDs in the mapping's order (the rows put in that order first, once)."""
        if self._order is not None:
            positions = self._order(self._ids)
            self._ids = [self._ids[k] for k in positions]
            self._values = rows_at(self._values, positions)
            self._order = None
        return self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ordered())

    def __getitem__(self, instance_id: str) -> Row:
        if self._index is None:
            self._index = {i: k for k, i in reversed(list(enumerate(self._ordered())))}
        return row_at(self._values, self._index[instance_id])

    def items(self) -> ItemsView[str, Row]:
        return _Items(self)

    def values(self) -> ValuesView[Row]:
        return _Values(self)

    def rows(self) -> Iterator[Row]:
        """The rows in order."""
        self._ordered()
        values = self._values
        return float_rows(values) if isinstance(values, array) else iter(values)

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def __reduce__(self) -> tuple:
        return InstanceRows, (self._ordered(), self._values)


class _Items(ItemsView[str, Row]):
    _mapping: InstanceRows  # set by MappingView.__init__

    def __iter__(self) -> Iterator[tuple[str, Row]]:
        rows = self._mapping
        return zip(rows._ordered(), rows.rows())


class _Values(ValuesView[Row]):
    _mapping: InstanceRows  # set by MappingView.__init__

    def __iter__(self) -> Iterator[Row]:
        return self._mapping.rows()


@dataclass(frozen=True)
class Summary:
    """Average and confidence bounds of R, P and F over the instances (unrounded)."""

    average: tuple[float, float, float]
    lower: tuple[float, float, float]
    upper: tuple[float, float, float]


@dataclass
class MetricResult:
    """One peer's result for one metric.

    ``instances`` maps each instance ID (``eval ID.peer ID``) to its row (an
    :class:`InstanceRows` where the engine made it), in the Perl's ``-d``
    order: R, P, F rounded to 5 decimals, or under ``-t`` the model, peer and
    hit counts.
    """

    peer_id: str
    label: str
    instances: Mapping[str, Row]
    summary: Optional[Summary] = None
    counts: Optional[Counts] = None  # -t 2: model, peer and hit counts summed over instances
