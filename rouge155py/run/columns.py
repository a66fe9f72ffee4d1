"""A column of integers held as a progression while it is one.

A run's columns of eval positions, eval and instance ID numbers, and numbers of models mostly
grow by one, or stay the same, from one eval to the next: a million of them as an int64 array
take 8 MB a column, as a progression three numbers. The column turns into an array for good
the first time a value breaks the progression.
"""

from __future__ import annotations

import operator
from array import array
from typing import Any, Iterable, Iterator, MutableSequence, Optional, Union, overload

__all__ = ["IntColumn", "int64_array"]


class IntColumn(MutableSequence[int]):
    """Integers ``first + step * k`` for ``k < count`` while they are that, else an int64 array; a
    mutable sequence of ``int`` as an ``array("q")`` is used: ``len``, indexing, slices,
    iteration, ``==``, ``append``, ``extend``, ``del column[k:]``."""

    __slots__ = ("_array", "_count", "_first", "_step")

    def __init__(self, values: Iterable[int] = ()) -> None:
        self._first = self._step = self._count = 0
        self._array: Optional[array] = None
        if isinstance(values, IntColumn):
            self._first, self._step, self._count = values._first, values._step, values._count
            self._array = None if values._array is None else array("q", values._array)
            return
        if isinstance(values, (array, list, tuple, range)):
            if isinstance(values, range) or len(values) < 2 or _progression(values):
                if len(values):
                    self._first, self._count = int(values[0]), len(values)
                    self._step = int(values[1]) - self._first if len(values) > 1 else 0
                return
            self._array = array("q", values)
            return
        self.extend(values)

    @classmethod
    def progression(cls, first: int, step: int, count: int) -> IntColumn:
        """The column ``first, first + step, ...`` of ``count`` values."""
        column = cls()
        column._first, column._step, column._count = first, step, max(0, count)
        return column

    def increasing(self) -> bool:
        """Whether every value is greater than the one before."""
        if self._array is None:
            return self._count < 2 or self._step > 0
        values = self._array
        return all(map(operator.lt, values, values[1:]))

    def as_array(self) -> array:
        """The values as an int64 array (the column's own while it holds one: do not change it)."""
        return array("q", self) if self._array is None else self._array

    def is_progression(self) -> bool:
        """Whether the values are still held as a progression (then :attr:`step` is theirs)."""
        return self._array is None

    @property
    def step(self) -> int:
        """The progression's step (0 for fewer than two values); see :meth:`is_progression`."""
        return self._step

    def __len__(self) -> int:
        return self._count if self._array is None else len(self._array)

    @overload
    def __getitem__(self, k: int) -> int: ...

    @overload
    def __getitem__(self, k: slice) -> IntColumn: ...

    def __getitem__(self, k: Union[int, slice]) -> Union[int, IntColumn]:
        if self._array is not None:
            return IntColumn(self._array[k]) if isinstance(k, slice) else self._array[k]
        if isinstance(k, slice):
            start, stop, stride = k.indices(self._count)
            taken = len(range(start, stop, stride))
            return IntColumn.progression(self._first + self._step * start, self._step * stride, taken)
        if k < 0:
            k += self._count
        if not 0 <= k < self._count:
            raise IndexError("IntColumn index out of range")
        return self._first + self._step * k

    def __iter__(self) -> Iterator[int]:
        if self._array is not None:
            return iter(self._array)
        if self._step:
            return iter(range(self._first, self._first + self._step * self._count, self._step))
        return iter([self._first] * self._count)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, IntColumn) and self._array is None and other._array is None:
            if self._count != other._count:
                return False
            if self._count == 0:
                return True
            return self._first == other._first and (self._count == 1 or self._step == other._step)
        if isinstance(other, (IntColumn, array, list, tuple, range)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as an array

    def __reduce__(self) -> tuple:
        if self._array is None:
            return IntColumn.progression, (self._first, self._step, self._count)
        return IntColumn, (self._array,)

    @overload
    def __setitem__(self, k: int, value: int) -> None: ...

    @overload
    def __setitem__(self, k: slice, value: Iterable[int]) -> None: ...

    def __setitem__(self, k: Union[int, slice], value: Union[int, Iterable[int]]) -> None:
        self._arrayed()[k] = value  # type: ignore[index]

    def __delitem__(self, k: Union[int, slice]) -> None:
        if self._array is None and isinstance(k, slice) and k.step in (None, 1):
            start, stop, _ = k.indices(self._count)
            if stop >= self._count and start < self._count:  # a tail: the rest is still a progression
                self._count = start
                return
        del self._arrayed()[k]

    def insert(self, index: int, value: int) -> None:
        self._arrayed().insert(index, value)

    def append(self, value: int) -> None:
        if self._array is None:
            value = int(value)
            if self._count == 0:
                self._first, self._step, self._count = value, 0, 1
                return
            last = self._first + self._step * (self._count - 1)
            if self._count == 1 or value - last == self._step:
                self._step = value - last
                self._count += 1
                return
        self._arrayed().append(value)

    def extend(self, values: Iterable[int]) -> None:
        if self._array is None and isinstance(values, IntColumn) and values._array is None:
            if values._count == 0:
                return
            if self._count == 0:
                self._first, self._step, self._count = values._first, values._step, values._count
                return
            gap = values._first - (self._first + self._step * (self._count - 1))
            if (self._count == 1 or gap == self._step) and (values._count == 1 or values._step == gap):
                self._step = gap
                self._count += values._count
                return
        rest = iter(values)
        if self._array is None:
            for value in rest:
                self.append(value)
                if self._array is not None:  # broken: the rest go to the array at once
                    break
            else:
                return
        self._arrayed().extend(rest)

    def copy(self) -> IntColumn:
        """A column of the same values that grows apart from this one."""
        return IntColumn(self)

    def _arrayed(self) -> array:
        """The values as an int64 array, from now on."""
        if self._array is None:
            self._array = array("q", iter(self))
        return self._array


def _progression(values: Union[array, list, tuple]) -> bool:
    """Whether two or more values step by the same amount from each to the next."""
    first, count = values[0], len(values)
    step = values[1] - first
    if not step:
        return values.count(first) == count
    if values[-1] != first + step * (count - 1):  # also where the steps would leave int64
        return False
    return array("q", values) == array("q", range(first, first + step * count, step))


def int64_array(values: Any) -> array:
    """A numpy array of integers as an int64 ``array`` (positions an order gives, say)."""
    out = array("q")
    out.frombytes(values.astype("int64").tobytes())
    return out
