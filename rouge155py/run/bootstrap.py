"""Bootstrap resampling exactly as ROUGE-1.5.5.pl does it.

Resample i seeds Perl's drand48 with ``srand(i)`` and draws N instance indices
``int(rand(N))``. The draws depend only on (i, N). Sums run in draw order, one
draw at a time, so every float addition is the Perl's. The summary sorts each
column's r values ascending, adds them left to right (the mean) and reads the
interval bounds at two ranks.

Up to ``Streaming.above`` resamples, the values are made at once and held.
Above it, :func:`resample` returns :class:`Streamed`, which holds none: the
values are made again (the kernel's ``bootstrap_sums`` and :func:`_drawn`
start at any resample), a block of consecutive resamples at a time, whenever
they are read. :func:`summarize` then walks each column's ascending order a
window of values at a time. A strided sample of the resamples places the
windows; each pass over the blocks keeps the values inside the next windows
(at most ``Streaming.budget`` of them), sorts them, carries on the column's
sum and notes the values at the ranks read. A value frequent enough to fill a
window is a window of its own and is only counted. A window that turns out
too full is split, by the values it did keep, for the next pass. The values,
their order of addition and the ranks read are those of the in-memory path,
so the summary is the same to the bit.
"""

from __future__ import annotations

import math
import operator
from array import array
from bisect import bisect_right
from collections import deque
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass
from functools import lru_cache, reduce
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Iterable,
    Iterator,
    NamedTuple,
    Optional,
    Sequence,
    Union,
    overload,
)

from .. import _kernel
from ..errors import ComputeError
from ..report.results import Summary

if TYPE_CHECKING:
    import numpy as np

    from .._kernel import Kernel

__all__ = [
    "STREAMING",
    "FlatRows",
    "Streamed",
    "Streaming",
    "drand48_indices",
    "resample",
    "summarize",
]

_SCALE = 2.0**-48
_SCORE_BLOCK = 2**16  # -t 1: resamples turned into scores at a time, as Python floats
_FILL = 0.9  # share of the budget a window is planned to fill
_NUMPY_BLOCK = 8  # without the kernel, blocks are this many times larger
_NUMPY_ADD = 2**16  # without the kernel, values added at a time


@dataclass(frozen=True)
class Streaming:
    """When resample values are streamed rather than held, and in what sizes.

    A pass holds at most ``budget`` values (8 bytes each, and as much again
    while they are sorted), whatever the number of resamples.
    """

    above: int = 2**17  #: more resamples than this are streamed
    block: int = 2**12  #: resamples made at a time (without the kernel, 8 times more)
    budget: int = 2**19  #: resample values kept at a time, to be sorted and added
    sample: int = 2**15  #: resamples drawn (strided) to place the windows


STREAMING = Streaming()


def _drawn(n: int, seeds: np.ndarray) -> Iterator[np.ndarray]:
    """For k = 0 .. n - 1: the k-th ``int(rand(n))`` after ``srand(seed)``, for every seed at once."""
    import numpy as np

    state = (seeds.astype(np.uint64) << np.uint64(16)) + np.uint64(0x330E)
    multiplier, increment, mask = np.uint64(0x5DEECE66D), np.uint64(0xB), np.uint64((1 << 48) - 1)
    for _ in range(n):
        with np.errstate(over="ignore"):
            state = (state * multiplier + increment) & mask
        yield (float(n) * (state.astype(np.float64) * _SCALE)).astype(np.int64)


@lru_cache(maxsize=64)
def drand48_indices(n: int, resamples: int, first: int = 0) -> np.ndarray:
    """Index matrix (resamples × n): row i holds ``int(rand(n))`` n times after ``srand(first + i)``."""
    import numpy as np

    out = np.empty((resamples, n), dtype=np.int64)
    for k, drawn in enumerate(_drawn(n, np.arange(first, first + resamples, dtype=np.uint64))):
        out[:, k] = drawn
    out.setflags(write=False)
    return out


#: A column's values as they are sorted and read: doubles in an array, without the kernel in numpy's.
Values = Union[array, "np.ndarray"]
#: R, P, F (or M, P, H): r values each; without the kernel, a numpy array (3 × r) or its rows.
Columns = Union[Sequence[Sequence[float]], "np.ndarray"]


def _numpy_sums(rows: np.ndarray, resamples: int) -> np.ndarray:
    """Sums (3 × r) of the rows drawn by resamples 0 .. r - 1, in the kernel's order of additions."""
    import numpy as np

    n = rows.shape[0]
    if not n:
        return np.zeros((3, resamples))
    return _drawn_sums(rows, drand48_indices(n, resamples).T, resamples)


def _drawn_sums(rows: np.ndarray, draws: Iterable[np.ndarray], count: int) -> np.ndarray:
    """Sums (3 × count) of the rows drawn: draws gives each draw's row index for every resample.

    Each resample's sum starts at 0.0 and adds its drawn rows in draw order, as the kernel does.
    """
    import numpy as np

    sums = np.zeros((3, count))
    columns = [np.ascontiguousarray(rows[:, k]) for k in range(3)]
    for drawn in draws:
        for total, column in zip(sums, columns):
            total += column[drawn]
    return sums


class FlatRows(SequenceABC):
    """Rows of three floats held as one array of 3 × N values (no tuple per row)."""

    def __init__(self, flat: array) -> None:
        self.flat = flat

    def __len__(self) -> int:
        return len(self.flat) // 3

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return tuple(self.flat[3 * index : 3 * index + 3])


def _flat(rows: Sequence[Sequence[float]]) -> array:
    """The rows' values end to end, as floats."""
    if isinstance(rows, FlatRows):
        return rows.flat
    return array("d", [float(v) for row in rows for v in row])


def _table(rows: Sequence[Sequence[float]]) -> Any:
    """The rows as a numpy array (N × 3) of floats."""
    import numpy as np

    if isinstance(rows, FlatRows):
        return np.frombuffer(rows.flat, dtype=np.float64).reshape(-1, 3)
    return np.asarray(rows, dtype=np.float64).reshape(-1, 3)


def _columns(rows: Sequence[Sequence[float]], resamples: int, mean: bool) -> Columns:
    """The r resample sums (``mean``: divided by N) of each column of the rows, in the Perl's order."""
    n = len(rows)
    if _kernel.accel is None:
        sums = _numpy_sums(_table(rows), resamples)
        return sums / n if mean and n else sums
    out = array("d", bytes(24 * resamples))
    if n:
        _kernel.accel.bootstrap_sums(_flat(rows), resamples, out, float(n) if mean else 0.0)
    return [out[k::3] for k in range(3)]


def _run_all(jobs: Iterable[Callable[[], None]]) -> None:
    for job in jobs:
        job()


def means_together(
    tables: Sequence[array],
    resamples: int,
    parts: int = 1,
    run: Optional[Callable[[Iterable[Callable[[], None]]], None]] = None,
    order: Optional[array] = None,
) -> Optional[list[Columns]]:
    """The r resample means of each column of several tables of the same N instances (rows of
    floats, end to end, in the same instance order; given ``order``, int64 positions, the
    rows at those positions, in that order): the same values as :func:`resample` of each
    with ``counting`` 0, from one pass of draws (a resample draws the same instances from
    every table). The resamples are made in ``parts`` consecutive shares, which ``run``
    calls (threads may: the kernel lets the GIL go). None without the kernel, or above the
    kernel's 32 tables."""
    width = 3 * len(tables)
    kernel = _kernel.accel
    if kernel is None or not tables or len(tables) > 32:
        return None
    n = len(tables[0]) // 3
    rows = tuple(tables)
    out = array("d", bytes(8 * width * resamples))
    view = memoryview(out)
    share = -(-resamples // max(1, parts))

    def job(first: int) -> Callable[[], None]:
        count = min(share, resamples - first)
        part = view[first * width : (first + count) * width]
        return lambda: kernel.bootstrap_sums(rows, count, part, float(n), first, 1, order)

    if n:
        (run or _run_all)([job(first) for first in range(0, resamples, share)])
    view.release()
    return [[out[3 * k + c :: width] for c in range(3)] for k in range(len(tables))]


def _scores(
    models: Sequence[float], peers: Sequence[float], hits: Sequence[float], alpha: float, need: Sequence[bool]
) -> list[Optional[list[float]]]:
    """R, P and F (where ``need`` asks for them) of count sums, by the formulas of the point estimate.

    Those are :func:`~rouge155py.metrics.scoring.ratio` and :func:`~rouge155py.metrics.scoring.f_measure`,
    written out here (a hot loop): the same float operations.
    """
    recall = precision = f = None
    if need[0] or need[2]:
        recall = [hit / model if model > 0 else 0.0 for model, hit in zip(models, hits)]
    if need[1] or need[2]:
        precision = [hit / peer if peer > 0 else 0.0 for peer, hit in zip(peers, hits)]
    if need[2]:
        beta = 1 - alpha
        assert precision is not None and recall is not None  # made above for need[2]
        f = [p * r / d if (d := beta * p + alpha * r) > 0 else 0.0 for p, r in zip(precision, recall)]
    return [recall if need[0] else None, precision if need[1] else None, f]


def _numpy_scores(sums: np.ndarray, alpha: float, need: Sequence[bool]) -> list[Optional[np.ndarray]]:
    """:func:`_scores` of count sums (3 × r) with numpy: elementwise, the same float operations."""
    import numpy as np

    models, peers, hits = sums
    recall = precision = f = None
    with np.errstate(divide="ignore", invalid="ignore"):
        if need[0] or need[2]:
            recall = np.where(models > 0, hits / models, 0.0)
        if need[1] or need[2]:
            precision = np.where(peers > 0, hits / peers, 0.0)
        if need[2]:
            assert precision is not None and recall is not None  # made above for need[2]
            denominator = (1 - alpha) * precision + alpha * recall
            f = np.where(denominator > 0, precision * recall / denominator, 0.0)
    return [recall if need[0] else None, precision if need[1] else None, f]


def resample(
    rows: Sequence[Sequence[float]],
    resamples: int,
    counting: int,
    alpha: float,
    streaming: Streaming = STREAMING,
) -> Columns:
    """The r resample values of R, P and F (three columns) of an instance table (N rows of 3).

    ``counting`` 0: rows are rounded R, P, F; a resample is their mean.
    ``counting`` 1: rows are (model count, peer count, hits); a resample is the
    R, P, F of their sums, by the formulas of the point estimate.
    Above ``streaming.above`` resamples the columns are a :class:`Streamed`.
    """
    if resamples > streaming.above:
        return Streamed(_Source(rows, counting, alpha, _kernel.accel), resamples, streaming)
    columns = _columns(rows, resamples, counting != 1)
    if counting != 1:
        return columns
    models, peers, hits = columns
    out = [array("d"), array("d"), array("d")]
    for start in range(0, resamples, _SCORE_BLOCK):
        block = slice(start, start + _SCORE_BLOCK)
        for column, values in zip(out, _scores(models[block], peers[block], hits[block], alpha, (True,) * 3)):
            column.extend(values)  # type: ignore[arg-type]
    return out


class _Source:
    """The resample values of one instance table, made again for any resamples asked for."""

    def __init__(
        self, rows: Sequence[Sequence[float]], counting: int, alpha: float, kernel: Optional[Kernel]
    ):
        self.n = len(rows)
        self.mean = counting != 1
        self.alpha = alpha
        self.kernel = kernel
        self.table: Any
        self.table = _table(rows) if kernel is None else _flat(rows)

    def block_size(self, block: int) -> int:
        """Resamples made at a time: numpy, called once per draw of a block, wants larger blocks."""
        return block if self.kernel is not None else block * _NUMPY_BLOCK

    def values(
        self, first: int, count: int, step: int = 1, need: Sequence[bool] = (True, True, True)
    ) -> list[Any]:
        """Columns R, P, F of the resamples first, first + step, ... (count of them); None where not needed.

        With the kernel the columns are sequences of floats, without it numpy arrays.
        """
        n = self.n
        if self.kernel is None:
            import numpy as np

            if n:
                seeds = np.arange(first, first + count * step, step, dtype=np.uint64)
                sums = _drawn_sums(self.table, _drawn(n, seeds), count)
                if self.mean:
                    sums = sums / n
            else:
                sums = np.zeros((3, count))
            if self.mean:
                return [sums[k] if need[k] else None for k in range(3)]
            return _numpy_scores(sums, self.alpha, need)
        out = array("d", bytes(24 * count))
        if n:
            self.kernel.bootstrap_sums(self.table, count, out, float(n) if self.mean else 0.0, first, step)
        if self.mean:
            return [out[k::3] if need[k] else None for k in range(3)]
        return _scores(out[0::3], out[1::3], out[2::3], self.alpha, need)


class Streamed(SequenceABC):
    """Three columns of ``resamples`` values that are not held: each read makes them again."""

    def __init__(self, source: _Source, resamples: int, streaming: Streaming):
        self.source = source
        self.resamples = resamples
        self.streaming = streaming

    def __len__(self) -> int:
        return 3

    @overload
    def __getitem__(self, index: int) -> Sequence[float]: ...

    @overload
    def __getitem__(self, index: slice) -> list[Sequence[float]]: ...

    def __getitem__(self, index: Union[int, slice]) -> Any:
        """Column index (0 R, 1 P, 2 F), all its values made and held."""
        if isinstance(index, slice):
            return [self[k] for k in range(3)[index]]
        k = range(3)[index]
        need = [j == k for j in range(3)]
        size = self.source.block_size(max(1, self.streaming.block))
        parts = [
            self.source.values(first, min(size, self.resamples - first), need=need)[k]
            for first in range(0, self.resamples, size)
        ]
        if self.source.kernel is not None:
            column = array("d")
            for part in parts:
                column.extend(part)
            return column
        import numpy as np

        return np.concatenate(parts) if parts else np.zeros(0)


def _bound(at: Callable[[int], float], index: int, weight: float) -> float:
    """Interpolate between the values ranked index and index + 1."""
    return at(index) + (at(index + 1) - at(index)) * weight


def summarize(values: Columns, confidence: float, resamples: float) -> Summary:
    """Mean of the resample values (summed in ascending order) and the CI bounds.

    ``resamples`` is ``-r`` as given: the Perl draws ceil(r) resamples but puts
    r itself into the interval formula. Ranks past either end read 0.
    """
    count = values.resamples if isinstance(values, Streamed) else len(values[0])
    if count <= 0:
        raise ComputeError("the number of resamples (-r) must be positive (division by zero)")
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(resamples - delta - 1)
    lower_a = int(delta)
    weight = resamples - delta - 1 - upper_a
    if isinstance(values, Streamed):
        walked = _walk(values, (lower_a, lower_a + 1, upper_a, upper_a + 1))
    else:
        walked = [_ranked(row) for row in values]
    averages, lowers, uppers = [], [], []
    for total, at in walked:
        averages.append(total / count)
        lowers.append(_bound(at, lower_a, weight))
        uppers.append(_bound(at, upper_a, weight))
    return Summary(tuple(averages), tuple(lowers), tuple(uppers))  # type: ignore[arg-type]


def _reader(ranked: Values) -> Callable[[int], float]:
    """The value ranked i; 0 past either end."""

    def at(i: int) -> float:
        return float(ranked[i]) if 0 <= i < len(ranked) else 0.0

    return at


def _ranked(values: Sequence[float]) -> tuple[float, Callable[[int], float]]:
    """The sum of the values added in ascending order (NaN last), and a reader of their ranks."""
    if _kernel.accel is not None:
        ranked = array("d", values) if isinstance(values, array) else array("d", map(float, values))
        return _kernel.accel.sort_and_sum(ranked), _reader(ranked)
    import numpy as np

    ascending = np.sort(np.asarray(values, dtype=np.float64), kind="stable")
    # cumsum adds strictly left to right: the Perl's order of additions.
    return float(np.cumsum(ascending)[-1]), _reader(ascending)


# ---------------------------------------------------------------------------
# Streamed summaries: each column's ascending order, a window at a time
# ---------------------------------------------------------------------------


class _Window(NamedTuple):
    """Values v with lo < v <= hi (v < hi where not ``closed``); one value lo == hi where ``point``.

    lo None: from -inf on, inclusive; hi None: up to +inf, inclusive. NaN is in no window.
    """

    lo: Optional[float]
    hi: Optional[float]
    closed: bool
    estimate: float  # values expected inside
    point: bool = False


class _Ops:
    """What a pass does with a column's values: pick a window's, count one value, keep, sort and add.

    With the kernel, values are sequences of floats and kept in arrays; without
    it, numpy arrays.
    """

    def __init__(self, kernel: Optional[Kernel]):
        self.kernel = kernel

    def select(self, values: Any, w: _Window) -> Any:
        """The values inside a window, in their order."""
        lo, hi = w.lo, w.hi
        if self.kernel is None:
            if lo is None:
                return values[values == values if hi is None else (values <= hi if w.closed else values < hi)]
            if hi is None:
                return values[lo < values]
            return values[(lo < values) & (values <= hi if w.closed else values < hi)]
        if lo is None:
            if hi is None:
                return [v for v in values if v == v]
            return [v for v in values if v <= hi] if w.closed else [v for v in values if v < hi]
        if hi is None:
            return [v for v in values if v > lo]
        # Two comparisons joined by "and" run faster than a chained one.
        if w.closed:
            return [v for v in values if v > lo and v <= hi]
        return [v for v in values if v > lo and v < hi]

    def count(self, values: Any, value: float) -> int:
        """How many of the values equal value."""
        if self.kernel is None:
            import numpy as np

            return int(np.count_nonzero(values == value))
        return values.count(value)

    def held(self) -> Any:
        """An empty store of kept values."""
        return [] if self.kernel is None else array("d")

    def keep(self, held: Any, inside: Any) -> None:
        if self.kernel is None:
            held.append(inside)
        else:
            held.fromlist(inside)

    def sort(self, held: Any) -> Values:
        """The kept values ascending (NaN last), sorted as the in-memory path sorts."""
        if self.kernel is None:
            import numpy as np

            ranked = np.concatenate(held) if held else np.zeros(0)
            held.clear()
            ranked.sort(kind="stable")
            return ranked
        self.kernel.sort_and_sum(held)
        return held

    def add(self, total: Optional[float], ranked: Values) -> float:
        """total + ranked[0] + ranked[1] + ..., left to right (total None: ranked[0] + ranked[1] + ...)."""
        if self.kernel is None:
            import numpy as np

            # cumsum adds strictly left to right, as in the in-memory path.
            for start in range(0, len(ranked), _NUMPY_ADD):
                part = ranked[start : start + _NUMPY_ADD]
                total = np.cumsum(part if total is None else np.concatenate(([total], part)))[-1]
            return float(total)  # type: ignore[arg-type]
        return reduce(operator.add, ranked, 0.0 if total is None else total)


def _plan(ranked: Values, scale: float, outer: _Window, budget: int) -> list[_Window]:
    """Windows covering ``outer`` in ascending order, from an ascending sample of its values.

    Each sample value stands for ``scale`` values. A window stands for at most
    ``_FILL`` of the budget, and the windows share the values about evenly; a
    value standing for more than an eighth of a share is a point window of its own.
    """
    if not isinstance(ranked, (list, array)):
        ranked = ranked.tolist()
    m = len(ranked)
    most = _FILL * budget / scale  # sample values a window may stand for
    share = m / max(1, math.ceil(m / most))
    heavy = share / 8
    out: list[_Window] = []
    lo, held, last, i = outer.lo, 0, outer.lo, 0
    while i < m:
        value = ranked[i]
        j = bisect_right(ranked, value, i)
        if j - i > heavy:
            out.append(_Window(lo, value, False, held * scale))
            out.append(_Window(value, value, True, (j - i) * scale, point=True))
            lo, held = value, 0
        else:
            if held and held + (j - i) > most:
                out.append(_Window(lo, last, True, held * scale))
                lo, held = last, 0
            held += j - i
            last = value
            if held >= share and j < m:
                out.append(_Window(lo, value, True, held * scale))
                lo, held = value, 0
        i = j
    out.append(_Window(lo, outer.hi, outer.closed, held * scale))
    return out


class _Column:
    """One column's walk: the windows ahead, the running sum and the values at the ranks read."""

    def __init__(self, windows: list[_Window], wanted: Sequence[int], ops: _Ops):
        self.ahead = deque(windows)
        self.wanted = wanted
        self.ops = ops
        # The kernel's sum starts at 0.0; numpy's cumsum at the first value.
        self.total: Optional[float] = None if ops.kernel is None else 0.0
        self.rank = 0  # values summed so far
        self.found: dict[int, float] = {}

    def _note(self, count: int, at: Callable[[int], float]) -> None:
        """The next count values (the i-th of them at(i)) are summed: note those at the ranks read."""
        for i in self.wanted:
            if self.rank <= i < self.rank + count:
                self.found[i] = float(at(i - self.rank))
        self.rank += count

    def add(self, ranked: Values) -> None:
        """Add ascending values to the sum, left to right."""
        if len(ranked):
            self._note(len(ranked), ranked.__getitem__)
            self.total = self.ops.add(self.total, ranked)

    def add_repeated(self, value: float, count: int) -> None:
        """Add one value count times, left to right (stopping where another addition changes nothing)."""
        if not count:
            return
        self._note(count, lambda i: value)
        total = self.total
        if total is None:
            total, count = value, count - 1
        for _ in range(count):
            new = total + value
            if new != new or (new == total and math.copysign(1.0, new) == math.copysign(1.0, total)):
                total = new  # NaN stays NaN; a sum that did not move never will
                break
            total = new
        self.total = total

    def close(self, count: int) -> tuple[float, Callable[[int], float]]:
        """The sum and a rank reader once every window is done: the ranks left are NaN (sorted last)."""
        if self.rank < count:
            self.add_repeated(float("nan"), count - self.rank)
        found = self.found
        return float(self.total), lambda i: found.get(i, 0.0)  # type: ignore[arg-type]


def _take(columns: list[_Column], budget: int) -> list[tuple[int, _Window]]:
    """The windows of the next pass, column by column: the next one and those expected to fit with it."""
    taken: list[tuple[int, _Window]] = []
    expected = -1.0  # no window to keep values yet
    for k, column in enumerate(columns):
        while column.ahead:
            w = column.ahead[0]
            if not w.point:
                if expected >= 0 and expected + w.estimate > budget * _FILL:
                    return taken
                expected = max(expected, 0.0) + w.estimate
            taken.append((k, column.ahead.popleft()))
    return taken


class _Pass:
    """The windows of one pass over the blocks: the values kept and counted in each.

    Kept values take room from the budget. A window that finds no room gives
    up its values and those of the windows after it, unless it is the first
    window to keep values: then it keeps what fits, as a sample to split it
    by, and counts the rest. The windows given up come back in the next pass.
    """

    def __init__(self, windows: list[tuple[int, _Window]], budget: int, ops: _Ops):
        self.windows = windows
        self.ops = ops
        self.room = budget
        self.kept = [ops.held() for _ in windows]
        self.sizes = [0] * len(windows)  # values kept
        self.seen = [0] * len(windows)  # values inside
        self.limit = len(windows)  # windows still collected
        self.first = next((j for j, (_, w) in enumerate(windows) if not w.point), -1)
        self.over = -1  # the window that keeps only a sample

    def need(self) -> list[bool]:
        """The columns that windows still collected are in."""
        return [any(k == c for k, _ in self.windows[: self.limit]) for c in range(3)]

    def _drop(self, start: int) -> None:
        """Give up the windows from start on."""
        for j in range(start, self.limit):
            self.room += self.sizes[j]
            self.kept[j], self.sizes[j], self.seen[j] = self.ops.held(), 0, 0
        self.limit = start

    def collect(self, made: Sequence[Any]) -> None:
        """Count and keep what each window finds among a block's values (made: per column, or None)."""
        ops, j = self.ops, 0
        while j < self.limit:
            k, w = self.windows[j]
            if w.point:
                self.seen[j] += ops.count(made[k], w.lo)  # type: ignore[arg-type]
                j += 1
                continue
            inside = ops.select(made[k], w)
            self.seen[j] += len(inside)
            if j != self.over:
                if len(inside) > self.room:
                    self._drop(j + 1)
                if len(inside) > self.room:
                    if j != self.first:
                        self._drop(j)
                        return
                    inside = inside[: self.room]
                    self.over = j
                ops.keep(self.kept[j], inside)
                self.sizes[j] += len(inside)
                self.room -= len(inside)
            j += 1

    def finish(self, columns: list[_Column], budget: int, sample: int) -> None:
        """Add the windows done to their columns' sums; the others go back (split, where one overflowed)."""
        back: list[list[_Window]] = [[] for _ in columns]
        for j, (k, w) in enumerate(self.windows):
            if j >= self.limit:
                back[k].append(w)
            elif w.point:
                columns[k].add_repeated(w.lo, self.seen[j])  # type: ignore[arg-type]
            elif j == self.over:
                back[k] += _split(w, self.ops.sort(self.kept[j]), self.seen[j], budget, sample)
            else:
                columns[k].add(self.ops.sort(self.kept[j]))
            self.kept[j] = None
        for column, windows in zip(columns, back):
            column.ahead.extendleft(reversed(windows))


def _split(w: _Window, ranked: Values, seen: int, budget: int, sample: int) -> list[_Window]:
    """Windows covering w, which holds seen values, by an ascending sample of them (ranked)."""
    if not len(ranked):
        return [w._replace(estimate=float(seen))]
    stride = max(1, len(ranked) // max(1, sample))
    picked = ranked[stride // 2 :: stride]
    return _plan(picked, seen / len(picked), w, budget)


def _sample(source: _Source, count: int, streaming: Streaming, ops: _Ops) -> tuple[list[Values], int]:
    """Each column's values at resamples 0, step, 2 step, ... (about ``streaming.sample``), ascending, no NaN.

    Each of them stands for count / drawn values, where drawn (the second part) counts the NaNs too.
    """
    step = max(1, count // max(1, streaming.sample))
    drawn = -(-count // step)
    block = source.block_size(max(1, streaming.block))
    held = [ops.held() for _ in range(3)]
    for start in range(0, drawn, block):
        for column, values in zip(held, source.values(start * step, min(block, drawn - start), step)):
            ops.keep(column, ops.select(values, _Window(None, None, True, 0.0)))
    return [ops.sort(column) for column in held], drawn


def _walk(values: Streamed, ranks: Sequence[int]) -> list[tuple[float, Callable[[int], float]]]:
    """For each column: the sum of its values in ascending order and a reader of the given ranks."""
    source, count, streaming = values.source, values.resamples, values.streaming
    budget = max(1, streaming.budget)
    ops = _Ops(source.kernel)
    wanted = sorted({i for i in ranks if 0 <= i < count})
    everything = _Window(None, None, True, float(count))
    samples, drawn = _sample(source, count, streaming, ops)
    columns = [_Column(_plan(ranked, count / drawn, everything, budget), wanted, ops) for ranked in samples]
    del samples
    block = source.block_size(max(1, streaming.block))
    while any(c.ahead for c in columns):
        work = _Pass(_take(columns, budget), budget, ops)
        for first in range(0, count, block):
            work.collect(source.values(first, min(block, count - first), need=work.need()))
        work.finish(columns, budget, streaming.sample)
    return [c.close(count) for c in columns]
