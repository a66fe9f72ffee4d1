"""Is system A better than B? Paired tests on per-item scores, seeded and reproducible.

Two tests of the difference of two systems' mean scores over the same items:

- ``paired-bootstrap`` (Koehn 2004): draw the items with replacement, the same
  draw for every system; the p-value is two-sided, from the differences shifted
  to the null (``|d* - d| >= |d|``, counted with the observed draw: ``(1 + k) / (B + 1)``).
- ``permutation`` (approximate randomization, Riezler and Maxwell 2005): swap
  the two systems' scores on each item with probability 1/2; the p-value is
  two-sided, ``(1 + k) / (R + 1)`` over R random swaps, or exact (every one of the
  2^n swaps counted, ``k / 2^n``) when 2^n is at most the number of samples.

Either way the difference's confidence interval is the bootstrap's percentile
interval (linear interpolation). Comparisons are all pairs, or each system
against a baseline; Holm's step-down correction adjusts the p-values of each
family (the comparisons of one metric and one measure). Draws come from numpy's
PCG64 seeded with ``seed`` (stream 0 for the bootstrap, 1 for the swaps), the
same draws for every metric, so a subset of metrics gives the same numbers.

Scores of a report are R, P or F rounded to 5 decimals: they are counted in
units of 1e-5, exact integers, so that sums and ties do not depend on the order
of additions. Other scores tie within a relative 1e-9 of the scores themselves.
A score that is not a finite number, or fewer than two items, is refused: a
p-value from them would be noise.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Hashable, Mapping, Optional, Sequence

import numpy as np

from .._version import __version__
from ..errors import ComputeError, LimitError, UsageError, described
from .scores import (
    ItemScores,
    check_item_scores,
    double_of,
    finite_table,
    item_scores,
    measure_index,
    scores_table,
)

if TYPE_CHECKING:
    from ..report import Report

__all__ = [
    "TESTS",
    "CompareSettings",
    "Comparison",
    "Comparisons",
    "bootstrap_differences",
    "compare",
    "compare_items",
    "holm",
    "permutation_p_values",
]

TESTS = ("paired-bootstrap", "permutation")
#: The most samples: each one draws every item of every system.
MAX_SAMPLES = 10_000_000
#: Samples drawn at a time: bounds memory (a block of draws holds samples x items numbers).
_BLOCK_CELLS = 1 << 22
#: The most items an exact permutation test enumerates (2^n swaps).
MAX_EXACT_ITEMS = 24


@dataclass(frozen=True)
class CompareSettings:
    """The test and its settings: everything that changes the numbers (see :meth:`signature`)."""

    test: str = "paired-bootstrap"
    samples: int = 10_000
    seed: int = 12345
    confidence: float = 95.0
    level: float = 0.05  # a difference is marked significant when its Holm-adjusted p-value is below

    def __post_init__(self) -> None:
        if not isinstance(self.test, str) or self.test not in TESTS:
            raise UsageError(f"the test must be one of {', '.join(TESTS)}, got {described(self.test)}")
        samples, seed, confidence = checked_draws(self.samples, self.seed, self.confidence)
        object.__setattr__(self, "samples", samples)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "confidence", confidence)
        object.__setattr__(self, "level", _fraction("level", self.level, 0, 1))

    def signature(self) -> str:
        """The settings as a string: ``test:paired-bootstrap|samples:10000|seed:12345|...``."""
        parts = {"test": self.test, "samples": self.samples, "seed": self.seed, "ci": f"{self.confidence:g}"}
        return signature_of({**parts, "level": f"{self.level:g}", "correction": "holm"})


def checked_draws(samples: Any, seed: Any, confidence: Any) -> tuple[int, int, float]:
    """A bootstrap's samples, seed and confidence, checked: whole numbers within bounds, 0 < c < 100."""
    found = []
    for name, value in (("samples", samples), ("seed", seed)):
        if not isinstance(value, numbers.Integral) or isinstance(value, bool):
            raise UsageError(f"{name} must be a whole number, got {described(value)}")
        found.append(int(value))
    if found[0] < 1:
        raise UsageError(f"samples must be at least 1, got {described(found[0])}")
    if found[0] > MAX_SAMPLES:
        raise LimitError(f"{described(found[0])} samples: more than {MAX_SAMPLES} are refused")
    if not 0 <= found[1] < 2**63:
        raise UsageError(f"the seed must be within 0 and 2^63 - 1, got {described(found[1])}")
    return found[0], found[1], _fraction("confidence", confidence, 0, 100)


def _fraction(name: str, value: Any, low: float, high: float) -> float:
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not math.isfinite(double_of(value)):
        raise UsageError(f"{name} must be a finite number, got {described(value)}")
    # not low < value < high, written with the comparisons numbers.Real declares (value is finite)
    if value <= low or not value < high:
        raise UsageError(f"{name} must be above {low} and below {high}, got {described(value)}")
    return float(value)


def signature_of(parts: Mapping[str, Any]) -> str:
    """Settings as ``key:value|...``, then the generator, numpy's version and this version."""
    rest = {"rng": "pcg64", "numpy": np.__version__, "version": __version__}
    return "|".join(f"{key}:{value}" for key, value in {**parts, **rest}.items())


@dataclass(frozen=True)
class Comparison:
    """One paired comparison: ``system`` against ``other`` on one metric and measure.

    ``difference`` is mean(system) - mean(other) over the ``items`` both have;
    ``low``/``high`` its bootstrap confidence interval; ``p_value`` the test's
    two-sided p-value, ``p_holm`` after Holm's correction within the family;
    ``exact``: the permutation test counted every swap; ``p_bootstrap`` the paired
    bootstrap's p-value from the interval's own draws (``p_value`` itself under that
    test), so that an interval is always read beside the p-value of the same test.
    """

    metric: str
    measure: str
    system: str
    other: str
    items: int
    mean: float
    other_mean: float
    difference: float
    low: float
    high: float
    p_value: float
    p_holm: float
    exact: bool = False
    p_bootstrap: float = math.nan

    def significant(self, level: float) -> bool:
        """Whether the adjusted p-value is below ``level``."""
        return self.p_holm < level


@dataclass
class Comparisons:
    """Every comparison of a run, with the settings that made them."""

    settings: CompareSettings
    baseline: Optional[str]
    rows: list[Comparison] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def signature(self) -> str:
        """The settings' signature, and the comparisons made (all pairs or against a baseline)."""
        pairs = "all" if self.baseline is None else "baseline"
        return f"{self.settings.signature()}|pairs:{pairs}"

    def against(self, metric: str, measure: str, system: str) -> Optional[Comparison]:
        """The comparison of ``system`` with the baseline on a metric and measure, if made."""
        for row in self.rows:
            if (row.metric, row.measure, row.system) == (
                metric,
                measure,
                system,
            ) and row.other == self.baseline:
                return row
        return None

    def to_dicts(self) -> list[dict[str, Any]]:
        """One dict per comparison (JSON- and CSV-ready)."""
        return [dict(row.__dict__) for row in self.rows]


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given.

    With the m p-values sorted ascending, p_(i) becomes max over j <= i of
    min(1, (m - j + 1) p_(j)).
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda k: p_values[k])
    adjusted = [0.0] * m
    running = 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[k]))
        adjusted[k] = running
    return adjusted


def _generator(seed: int, stream: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, stream])))


def _blocks(samples: int, cells_per_sample: int) -> list[int]:
    size = max(1, _BLOCK_CELLS // max(1, cells_per_sample))
    return [min(size, samples - start) for start in range(0, samples, size)]


def bootstrap_sums(table: np.ndarray, samples: int, seed: int) -> np.ndarray:
    """Each system's sum over ``samples`` draws of the items with replacement: (samples, systems).

    ``table`` is systems x items. Every system gets the same draw of items.
    """
    systems, n = table.shape
    rng = _generator(seed, 0)
    out = np.empty((samples, systems))
    done = 0
    for size in _blocks(samples, n):
        drawn = rng.integers(0, n, size=(size, n))
        flat = (drawn + n * np.arange(size)[:, None]).ravel()
        counts = np.bincount(flat, minlength=size * n).reshape(size, n).astype(np.float64)
        out[done : done + size] = counts @ table.T
        done += size
    return out


def bootstrap_differences(
    table: np.ndarray, pairs: Sequence[tuple[int, int]], samples: int, seed: int
) -> np.ndarray:
    """The mean differences (row a - row b) of each pair over the bootstrap draws: (pairs, samples)."""
    sums = bootstrap_sums(table, samples, seed)
    n = table.shape[1]
    return np.array([(sums[:, a] - sums[:, b]) / n for a, b in pairs]).reshape(len(pairs), samples)


#: The differences of pairs ``lo`` to ``hi`` (items x pairs), made when needed: all of them at
#: once would take items x pairs numbers, and pairs grow as the square of the systems.
Columns = Callable[[int, int], np.ndarray]


def _pair_chunks(pairs: int, rows: int) -> list[tuple[int, int]]:
    """Ranges of pairs whose ``rows`` x pairs numbers stay within a block."""
    size = max(1, _BLOCK_CELLS // max(1, rows))
    return [(lo, min(pairs, lo + size)) for lo in range(0, pairs, size)]


def _rounding(differences: np.ndarray) -> np.ndarray:
    """What two sums of the differences may differ by and still count as equal (rounding only)."""
    return 1e-9 * np.maximum(np.abs(differences).sum(axis=0), 1e-300)


def permutation_p_values(differences: np.ndarray, samples: int, seed: int) -> tuple[np.ndarray, bool]:
    """Two-sided p-values of the paired permutation test for each column of ``differences``
    (items x pairs), and whether they are exact (every swap counted).

    A swap of an item's two scores flips the sign of its difference.
    """
    n, pairs = differences.shape
    return _permutation(lambda lo, hi: differences[:, lo:hi], n, pairs, samples, seed, _rounding(differences))


def _permutation(
    columns: Columns, n: int, pairs: int, samples: int, seed: int, tolerance: np.ndarray
) -> tuple[np.ndarray, bool]:
    """:func:`permutation_p_values` of differences made a range of pairs at a time; ``tolerance``:
    per pair, how far below the observed sum a swapped sum may be and still reach it (ties)."""
    threshold = np.empty(pairs)
    for lo, hi in _pair_chunks(pairs, n):
        threshold[lo:hi] = np.abs(columns(lo, hi).sum(axis=0)) - tolerance[lo:hi]
    at_least = np.zeros(pairs, dtype=np.int64)

    def count(signs: np.ndarray) -> None:
        for lo, hi in _pair_chunks(pairs, max(n, signs.shape[0])):
            at_least[lo:hi] += (np.abs(signs @ columns(lo, hi)) >= threshold[lo:hi]).sum(axis=0)

    if n <= MAX_EXACT_ITEMS and 2**n <= samples:
        total = 2**n
        powers = np.arange(n, dtype=np.int64)
        for start in range(0, total, max(1, _BLOCK_CELLS // max(1, n))):
            codes = np.arange(start, min(total, start + _BLOCK_CELLS // max(1, n)), dtype=np.int64)
            count(1.0 - 2.0 * ((codes[:, None] >> powers) & 1))
        return at_least / total, True
    rng = _generator(seed, 1)
    for size in _blocks(samples, n):
        count(1.0 - 2.0 * rng.integers(0, 2, size=(size, n)))
    return (1 + at_least) / (samples + 1), False


def _bootstrap_p_values(drawn: np.ndarray, observed: np.ndarray, tolerance: np.ndarray) -> np.ndarray:
    """Two-sided p-values of the paired bootstrap, the draws shifted to the null."""
    at_least = (np.abs(drawn - observed[:, None]) >= (np.abs(observed) - tolerance)[:, None]).sum(axis=1)
    return (1 + at_least) / (drawn.shape[1] + 1)


def _checked_table(
    metric: str, rows: list[list[float]], names: Sequence[str], items: Sequence[Hashable]
) -> np.ndarray:
    """The scores as systems x items, refused where a test could not mean anything: a score that
    is not a finite number (:func:`finite_table`), fewer than two items, sums that overflow."""
    table = finite_table(metric, rows, names, items, "a paired test")
    if len(items) < 2:
        raise ComputeError(
            f"{metric}: {len(items)} item scored by every system: a paired test needs two or more "
            "(one item has no variance to test against)"
        )
    largest = float(np.abs(table).max())
    if not math.isfinite(largest * len(items)):
        raise ComputeError(f"{metric}: scores up to {largest:g} on {len(items)} items: their sums overflow")
    return table


def _family(
    metric: str,
    measure: str,
    systems: Mapping[str, Mapping[Any, float]],
    baseline: Optional[str],
    settings: CompareSettings,
    scale: Optional[float],
) -> tuple[list[Comparison], list[str]]:
    """The comparisons of one metric and measure.

    Memory stays within the samples x systems sums and a block at a time, whatever the number
    of pairs: each range of pairs is resampled, tested and dropped before the next.
    """
    names = sorted(systems)
    if baseline is not None:
        pairs = [(names.index(s), names.index(baseline)) for s in names if s != baseline]
    else:
        pairs = [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))]
    items, rows = scores_table(systems, names)
    warnings = []
    dropped = sum(len(systems[s]) for s in names) - len(items) * len(names)
    if dropped:
        warnings.append(
            f"{metric}: {dropped} scores left out: {len(items)} items are scored for every system"
        )
    if not items:
        raise ComputeError(f"{metric}: no item is scored for every system: nothing to compare")
    table = _checked_table(metric, rows, names, items)
    if scale is not None:  # rounded scores as exact integers (units of 1 / scale)
        table = np.round(table * scale)
    n, count = len(items), len(pairs)
    first = np.array([a for a, _ in pairs], dtype=np.intp)
    second = np.array([b for _, b in pairs], dtype=np.intp)

    def columns(lo: int, hi: int) -> np.ndarray:
        return (table[first[lo:hi]] - table[second[lo:hi]]).T

    # Ties on the scores' own scale: sums of whole units are exact (half a unit tells them apart);
    # other scores tie within a relative 1e-9 of the scores, not of their (maybe tiny) differences.
    tolerance = np.full(count, 0.5)
    totals = np.empty(count)
    for lo, hi in _pair_chunks(count, n):
        if scale is None:
            larger = np.maximum(np.abs(table[first[lo:hi]]), np.abs(table[second[lo:hi]]))
            tolerance[lo:hi] = 1e-9 * larger.sum(axis=1)
        totals[lo:hi] = columns(lo, hi).sum(axis=0)
    sums = np.ascontiguousarray(bootstrap_sums(table, settings.samples, settings.seed).T)
    tail = (100.0 - settings.confidence) / 2
    low, high, p_values = np.empty(count), np.empty(count), np.empty(count)
    for lo, hi in _pair_chunks(count, settings.samples):
        drawn = (sums[first[lo:hi]] - sums[second[lo:hi]]) / n
        low[lo:hi], high[lo:hi] = np.percentile(drawn, [tail, 100.0 - tail], axis=1)
        p_values[lo:hi] = _bootstrap_p_values(drawn, totals[lo:hi] / n, tolerance[lo:hi] / n)
    bootstrap_p = p_values.copy()
    del sums
    exact = False
    if settings.test == "permutation":
        p_values, exact = _permutation(columns, n, count, settings.samples, settings.seed, tolerance)
    adjusted = holm([float(p) for p in p_values])
    unit = 1.0 if scale is None else scale
    means = table.sum(axis=1) / (n * unit)
    totals /= n * unit
    found = [
        Comparison(
            metric=metric,
            measure=measure,
            system=names[a],
            other=names[b],
            items=n,
            mean=float(means[a]),
            other_mean=float(means[b]),
            difference=float(totals[k]),
            low=float(low[k] / unit),
            high=float(high[k] / unit),
            p_value=float(p_values[k]),
            p_holm=adjusted[k],
            exact=exact,
            p_bootstrap=float(bootstrap_p[k]),
        )
        for k, (a, b) in enumerate(pairs)
    ]
    return found, warnings


def compare_items(
    scores: ItemScores,
    measure: str = "f",
    baseline: Optional[str] = None,
    settings: Optional[CompareSettings] = None,
    scale: Optional[float] = None,
) -> Comparisons:
    """Paired comparisons of any per-item scores: metric -> system -> item ID -> score.

    ``scale``: the scores are multiples of 1 / scale (1e5 for a report's), counted exactly.
    """
    settings = settings or CompareSettings()
    check_item_scores(scores)
    if baseline is not None and not isinstance(baseline, str):
        raise UsageError(f"the baseline is a system ID (a string), got {described(baseline)}")
    found = Comparisons(settings, baseline)
    for metric, systems in scores.items():
        if len(systems) < 2:
            raise ComputeError(f"{metric}: {len(systems)} system(s): a comparison needs two or more")
        if baseline is not None and baseline not in systems:
            known = ", ".join(sorted(systems))
            raise UsageError(f"the baseline {baseline!r} is not a system of {metric} (there are: {known})")
        rows, warnings = _family(metric, measure, systems, baseline, settings, scale)
        found.rows.extend(rows)
        found.warnings.extend(warnings)
    return found


def compare(
    report: Report,
    test: str = "paired-bootstrap",
    baseline: Optional[str] = None,
    measure: str = "f",
    metrics: Optional[Sequence[str]] = None,
    samples: int = 10_000,
    seed: int = 12345,
    confidence: float = 95.0,
    level: float = 0.05,
) -> Comparisons:
    """Paired comparisons of a report's systems on each metric (or those of ``metrics``).

    ``test``: ``paired-bootstrap`` or ``permutation``; ``baseline``: a system
    ID (each other system against it), else all pairs; ``measure``: R, P or F.
    """
    settings = CompareSettings(test, samples, seed, confidence, level)
    name, _ = measure_index(measure)
    return compare_items(item_scores(report, name, metrics), name, baseline, settings, scale=1e5)
