"""How much data is enough: the power of the paired tests, and their type-I error, on the user's
own items, by resampling them.

- :func:`power_curve`: for each number of items n, draw ``replicates`` sets of n items with
  replacement from the paired items of two systems (their per-item differences), test each
  with the paired permutation test or the paired bootstrap of
  :mod:`rouge155py.stats.significance`, and report the share found significant at ``level``:
  the power to detect the observed difference with n inputs. :func:`required_items` reads
  the smallest n reaching a target power (80% by default).
- :func:`type_one_error`: the same with the differences centered first (their mean
  subtracted, their spread kept), where no difference exists: the share found significant is
  the test's type-I error on data shaped like the user's (Riezler and Maxwell's A/A check,
  without a second run). A test whose share is well above ``level`` at the user's n says
  more than the data holds.

Draws come from numpy's PCG64 seeded with ``seed`` (stream 4 for the replicates); each
replicate's test uses ``samples`` draws or swaps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np

from ..errors import ComputeError, UsageError
from ..metrics.names import perl_label
from .scores import item_scores, measure_index
from .significance import TESTS, _generator, _rounding, bootstrap_sums, permutation_p_values
from .significance import _bootstrap_p_values as bootstrap_p_values

if TYPE_CHECKING:
    from ..report import Report

__all__ = ["PowerPoint", "differences_of", "power_curve", "required_items", "type_one_error"]


@dataclass(frozen=True)
class PowerPoint:
    """At ``items`` inputs: the share of ``replicates`` resampled sets the test found significant."""

    items: int
    power: float
    replicates: int


def differences_of(report: Report, metric: str, a: str, b: str, measure: str = "f") -> np.ndarray:
    """System ``a``'s per-item score minus ``b``'s on a metric (a label or a rouge-score name),
    over the items both have, from a report."""
    name, _ = measure_index(measure)
    scores = item_scores(report, name)
    label = metric if metric in scores else perl_label(metric)
    if label not in scores:
        raise UsageError(f"no metric {metric!r} in the report (it has: {', '.join(scores)})")
    table = scores[label]
    for system in (a, b):
        if system not in table:
            raise UsageError(f"no system {system!r} in the report (it has: {', '.join(table)})")
    items = [i for i in table[a] if i in table[b]]
    if len(items) < 2:
        raise ComputeError(f"systems {a!r} and {b!r} share {len(items)} item(s): too few to resample")
    return np.array([table[a][i] - table[b][i] for i in items], dtype=np.float64)


def _bootstrap_p_values(differences: np.ndarray, samples: int, seed: int) -> np.ndarray:
    """The paired bootstrap's two-sided p-value of each column (items x replicates): the items
    drawn with replacement, the same draws for every column, shifted to the null (the draws,
    the ties and the p-values of :mod:`rouge155py.stats.significance`)."""
    n = differences.shape[0]
    means = bootstrap_sums(differences.T, samples, seed).T / n  # replicates x samples
    return bootstrap_p_values(means, differences.mean(axis=0), _rounding(differences) / n)


def _p_values(test: str, differences: np.ndarray, samples: int, seed: int) -> np.ndarray:
    if test == "permutation":
        return permutation_p_values(differences, samples, seed)[0]
    return _bootstrap_p_values(differences, samples, seed)


def _checked(
    differences: object, test: str, sizes: Sequence[int], level: float, replicates: int
) -> np.ndarray:
    if test not in TESTS:
        raise UsageError(f"test must be one of {', '.join(TESTS)}, got {test!r}")
    values = np.asarray(differences, dtype=np.float64)
    if values.ndim != 1 or values.size < 2 or not np.all(np.isfinite(values)):
        raise UsageError("differences must be two or more finite numbers, one per item")
    if not sizes or any(int(n) != n or n < 2 for n in sizes):
        raise UsageError(f"sizes must be whole numbers of items, 2 or more, got {list(sizes)}")
    if not 0 < level < 1 or replicates < 1:
        raise UsageError(
            f"level must be between 0 and 1 and replicates at least 1, got {level}, {replicates}"
        )
    return values


def power_curve(
    differences: object,
    sizes: Sequence[int],
    test: str = "permutation",
    level: float = 0.05,
    replicates: int = 200,
    samples: int = 1000,
    seed: int = 12345,
) -> list[PowerPoint]:
    """The test's power at each number of items (see the module)."""
    values = _checked(differences, test, sizes, level, replicates)
    rng = _generator(seed, 4)
    found = []
    for n in sizes:
        drawn = values[rng.integers(0, values.size, size=(int(n), replicates))]  # items x replicates
        p = _p_values(test, drawn, samples, seed)
        found.append(PowerPoint(int(n), float((p < level).mean()), replicates))
    return found


def type_one_error(differences: object, sizes: Sequence[int], **settings: Any) -> list[PowerPoint]:
    """The share of resampled sets the test calls significant where no difference exists: the
    differences centered (see the module); ``settings`` are :func:`power_curve`'s."""
    values = np.asarray(differences, dtype=np.float64)
    if values.ndim != 1 or not np.all(np.isfinite(values)):
        raise UsageError("differences must be two or more finite numbers, one per item")
    return power_curve(values - values.mean(), sizes, **settings)


def required_items(curve: Sequence[PowerPoint], target: float = 0.8) -> Optional[int]:
    """The fewest items of the curve whose power reaches ``target`` (None: no size does)."""
    reached = [point.items for point in curve if point.power >= target]
    return min(reached) if reached else None
