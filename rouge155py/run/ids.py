"""Columns of eval and instance IDs held as numbers where they are the API's.

Evals given in memory (and ``--jsonl`` chunks of plain pairs) are numbered: eval ``str(place + 1)``,
its instance of peer P ``f"{place + 1}.{P}"``. A million such IDs as strings take about 110 MB;
held as their numbers they take at most 8 MB a column (none while they count up by one, an
:class:`~rouge155py.run.columns.IntColumn`), the strings made only when one is read.
"""

from __future__ import annotations

import operator
from array import array
from typing import Iterable, Iterator, MutableSequence, Optional, Sequence, Union, overload

from .columns import IntColumn, int64_array

__all__ = ["IdColumn", "Ids", "copied", "numbered_ids", "string_order"]


class IdColumn(MutableSequence[str]):
    """IDs ``f"{number}{suffix}"``, held as the numbers (an :class:`IntColumn`) while every ID has
    that form; an ID of another form appended or extended with turns the column into strings for good. A
    mutable sequence of ``str`` as the lists of IDs it stands for are used: ``len``, indexing,
    slices, iteration, ``==``, ``append``, ``extend``, ``del column[k:]``."""

    def __init__(self, numbers: Iterable[int], suffix: str = "") -> None:
        self.numbers = numbers if isinstance(numbers, IntColumn) else IntColumn(numbers)
        self.suffix = suffix
        self._strings: Union[list[str], None] = None

    def __len__(self) -> int:
        return len(self.numbers) if self._strings is None else len(self._strings)

    @overload
    def __getitem__(self, k: int) -> str: ...

    @overload
    def __getitem__(self, k: slice) -> list[str]: ...

    def __getitem__(self, k: Union[int, slice]) -> Union[str, list[str]]:
        if self._strings is not None:
            return self._strings[k]
        if isinstance(k, slice):
            return [f"{n}{self.suffix}" for n in self.numbers[k]]
        return f"{self.numbers[k]}{self.suffix}"

    def __iter__(self) -> Iterator[str]:
        if self._strings is not None:
            return iter(self._strings)
        suffix = self.suffix
        return (f"{n}{suffix}" for n in self.numbers)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, IdColumn) and self._strings is None and other._strings is None:
            return self.suffix == other.suffix and self.numbers == other.numbers
        if isinstance(other, (IdColumn, list)):
            return len(self) == len(other) and all(map(operator.eq, self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list

    @overload
    def __setitem__(self, k: int, value: str) -> None: ...

    @overload
    def __setitem__(self, k: slice, value: Iterable[str]) -> None: ...

    def __setitem__(self, k: Union[int, slice], value: Union[str, Iterable[str]]) -> None:
        self._listed()[k] = value  # type: ignore[index, assignment]

    def __delitem__(self, k: Union[int, slice]) -> None:
        if self._strings is not None:
            del self._strings[k]
        else:
            del self.numbers[k]

    def insert(self, index: int, value: str) -> None:
        self._listed().insert(index, value)

    def __reduce__(self) -> tuple:
        if self._strings is not None:
            return list, (self._strings,)
        return IdColumn, (self.numbers, self.suffix)

    def numbered(self) -> bool:
        """Whether the IDs are still held as numbers."""
        return self._strings is None

    def append(self, value: str) -> None:
        self._listed().append(value)

    def extend(self, values: Iterable[str]) -> None:
        if self._strings is None and isinstance(values, IdColumn) and values._strings is None:
            if values.suffix == self.suffix:
                self.numbers.extend(values.numbers)
                return
        self._listed().extend(values)

    def copy(self) -> IdColumn:
        column = IdColumn(self.numbers.copy(), self.suffix)
        if self._strings is not None:
            column._strings = list(self._strings)
        return column

    def _listed(self) -> list[str]:
        if self._strings is None:
            self._strings = list(self)
            self.numbers = IntColumn()
        return self._strings


#: A column of IDs: a list of strings, or an :class:`IdColumn`.
Ids = Union[list[str], IdColumn]


def numbered_ids(ids: Ids, suffix: str = "") -> Ids:
    """The IDs as an :class:`IdColumn` of numbers where each is ``f"{n}{suffix}"``, ``n`` written as
    ``str`` writes a number below 10**18 (``"7"``, ``"7.P"``; not ``"07"`` or ``"+7"``); else
    ``ids`` as they are. Evals given as entries or read from line-aligned files are numbered so:
    held as numbers, a million IDs take 8 MB instead of about 110."""
    if isinstance(ids, IdColumn) or not ids:
        return ids
    cut = len(suffix)
    numbers = array("q")
    for value in ids:
        head = value[: len(value) - cut]
        if (
            value[len(head) :] != suffix
            or not (head.isascii() and head.isdigit())
            or (head[0] == "0" and len(head) > 1)
            or len(head) > 18
        ):
            return ids
        numbers.append(int(head))
    return IdColumn(IntColumn(numbers), suffix)


def copied(ids: Ids) -> Ids:
    """A column of the same IDs that grows apart from this one."""
    return ids.copy() if isinstance(ids, IdColumn) else list(ids)


def string_order(ids: Sequence[str]) -> array:
    """The positions (int64) of the IDs sorted as strings (the Perl's sort keys). The IDs ``1..N`` of a
    numbered column in order (the common case) are put in that order without making a string:
    a shorter number comes before the longer ones it begins (``"12"``, and ``"12.P"``, before
    ``"120..."``, as ``.`` sorts before the digits), so the order is the numbers' depth-first
    walk, 1, 10, 100, ..., 101, ..., 11, ..."""
    if isinstance(ids, IdColumn) and ids.numbered() and not ids.suffix[:1].isdigit():
        numbers = ids.numbers
        count = len(numbers)
        if count and numbers[0] == 1 and numbers[-1] == count and numbers.increasing():
            return _decimal_walk(count)
        order = _decimal_order(numbers.as_array())
        if order is not None:
            return order
    return array("q", sorted(range(len(ids)), key=ids.__getitem__))


def _decimal_order(numbers: array) -> Optional[array]:
    """The positions of the numbers (each from 0 to 10**18 - 1; else None) in the order of their
    decimal strings, without making one: by the number written to the longest one's width with
    zeros after it, then by its own width (a number before the longer ones it begins); a stable
    sort, as ``sorted`` is."""
    import numpy as np

    values = np.frombuffer(numbers, dtype=np.int64)
    if not len(values):
        return array("q")
    if values.min() < 0 or values.max() >= 10**18:
        return None
    widths = np.maximum(np.searchsorted(10 ** np.arange(18, dtype=np.int64), values, side="right"), 1)
    widest = int(widths.max())
    padded = values * (10 ** (widest - widths)).astype(np.int64)
    return int64_array(np.lexsort((widths, padded)))


def _decimal_walk(count: int) -> array:
    """1..count in the order of their decimal strings, less one each (positions)."""
    out = array("q")
    number = 1
    for _ in range(count):
        out.append(number - 1)
        if number * 10 <= count:
            number *= 10
        else:
            while number % 10 == 9 or number + 1 > count:
                number //= 10
            number += 1
    return out
