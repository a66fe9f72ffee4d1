"""Bootstrap resampling exactly as ROUGE-1.5.5.pl does it.

Resample i seeds Perl's drand48 with ``srand(i)`` and draws N instance indices
``int(rand(N))``. The draws depend only on (i, N), so they are made once per N
for all resamples at once. Sums run in draw order, one draw at a time across
all resamples, so every float addition is the Perl's.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from ._kernel import accel
from .errors import ComputeError
from .results import Summary
from .scoring import f_measure, ratio

if TYPE_CHECKING:
    import numpy as np

__all__ = ["drand48_indices", "resample", "summarize"]

_SCALE = 2.0**-48
_BLOCK = 256
_SCORE_BLOCK = 2**16  # -t 1: resamples turned into scores at a time, as Python floats


@lru_cache(maxsize=64)
def drand48_indices(n: int, resamples: int) -> np.ndarray:
    """Index matrix (resamples × n): row i holds ``int(rand(n))`` n times after ``srand(i)``."""
    import numpy as np

    state = (np.arange(resamples, dtype=np.uint64) << np.uint64(16)) + np.uint64(0x330E)
    out = np.empty((resamples, n), dtype=np.int64)
    multiplier, increment, mask = np.uint64(0x5DEECE66D), np.uint64(0xB), np.uint64((1 << 48) - 1)
    with np.errstate(over="ignore"):
        for k in range(n):
            state = (state * multiplier + increment) & mask
            out[:, k] = (float(n) * (state.astype(np.float64) * _SCALE)).astype(np.int64)
    out.setflags(write=False)
    return out


Columns = Sequence[Sequence[float]]  # R, P, F (or M, P, H): r values each


def _columns(rows: Sequence[Sequence[float]], resamples: int, mean: bool) -> Columns:
    """The r resample sums (``mean``: divided by N) of each column of the rows, in the Perl's order."""
    n = len(rows)
    if accel is None:
        import numpy as np

        sums = _numpy_sums(np.asarray(rows, dtype=np.float64).reshape(-1, 3), resamples)
        return sums / n if mean and n else sums
    out = array("d", bytes(24 * resamples))
    if n:
        flat = array("d", [float(v) for row in rows for v in row])
        accel.bootstrap_sums(flat, resamples, out, float(n) if mean else 0.0)
    return [out[k::3] for k in range(3)]


def resample(rows: Sequence[Sequence[float]], resamples: int, counting: int, alpha: float) -> Columns:
    """The r resample values of R, P and F (three columns) of an instance table (N rows of 3).

    ``counting`` 0: rows are rounded R, P, F; a resample is their mean.
    ``counting`` 1: rows are (model count, peer count, hits); a resample is the
    R, P, F of their sums, by the formulas of the point estimate.
    """
    columns = _columns(rows, resamples, counting != 1)
    if counting != 1:
        return columns
    models, peers, hits = columns
    out = [array("d"), array("d"), array("d")]
    for start in range(0, resamples, _SCORE_BLOCK):
        block = slice(start, start + _SCORE_BLOCK)
        recall = [ratio(hit, model) for model, hit in zip(models[block], hits[block])]
        precision = [ratio(hit, peer) for peer, hit in zip(peers[block], hits[block])]
        out[0].extend(recall)
        out[1].extend(precision)
        out[2].extend(f_measure(p, r, alpha) for p, r in zip(precision, recall))
    return out


def _numpy_sums(rows: np.ndarray, resamples: int) -> np.ndarray:
    """Resample sums (3 × r) without the C kernel, in the same order of additions."""
    import numpy as np

    n = rows.shape[0]
    sums = np.zeros((3, resamples))
    if n:
        index = drand48_indices(n, resamples)
        columns = rows.T
        for start in range(0, n, _BLOCK):
            # cumsum adds strictly left to right: the Perl's order of additions.
            block = columns[:, index[:, start : start + _BLOCK]]
            block[:, :, 0] += sums
            np.cumsum(block, axis=2, out=block)
            sums = block[:, :, -1]
    return sums


def _bound(ranked: Sequence[float], index: int, weight: float) -> float:
    """Interpolate between ranked[index] and ranked[index + 1]; past the end reads 0."""

    def at(i: int) -> float:
        return float(ranked[i]) if 0 <= i < len(ranked) else 0.0

    return at(index) + (at(index + 1) - at(index)) * weight


def summarize(values: Columns, confidence: float, resamples: float) -> Summary:
    """Mean of the resample values (summed in ascending order) and the CI bounds.

    ``resamples`` is ``-r`` as given: the Perl draws ceil(r) resamples but puts
    r itself into the interval formula.
    """
    count = len(values[0])
    if count <= 0:
        raise ComputeError("the number of resamples (-r) must be positive (division by zero)")
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(resamples - delta - 1)
    lower_a = int(delta)
    weight = resamples - delta - 1 - upper_a
    averages, lowers, uppers = [], [], []
    for row in values:
        ranked, total = _ranked(row)
        averages.append(total / count)
        lowers.append(_bound(ranked, lower_a, weight))
        uppers.append(_bound(ranked, upper_a, weight))
    return Summary(tuple(averages), tuple(lowers), tuple(uppers))  # type: ignore[arg-type]


def _ranked(values: Sequence[float]) -> tuple[Sequence[float], float]:
    """The values sorted ascending (NaN last), and their sum added left to right."""
    if accel is not None:
        ranked = array("d", values) if isinstance(values, array) else array("d", map(float, values))
        return ranked, accel.sort_and_sum(ranked)
    import numpy as np

    ranked = np.sort(np.asarray(values, dtype=np.float64), kind="stable")
    # cumsum adds strictly left to right: the Perl's order of additions.
    return ranked, float(np.cumsum(ranked)[-1])
