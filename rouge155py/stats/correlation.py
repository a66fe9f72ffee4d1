"""Does the metric agree with people? ROUGE variants against human judgments.

Three levels (as in Deutsch, Dror and Roth, TACL 2021), on the grid of judged
systems x judged items:

- ``system``: each system's mean over the items, correlated across systems;
- ``summary``: per item, the systems' scores correlated; the mean over the items
  whose coefficient is defined (an item where every system scores the same has none);
- ``global``: every (system, item) score, correlated;
- ``per-system``, on request: per system, its items' scores correlated; the mean over the
  systems whose coefficient is defined (as METEOR's paper reports segment-level r).

Coefficients: Pearson's r, Spearman's rho (Pearson's r of the ranks, ties
given their mean rank) and Kendall's tau-b, computed here along the last axis
of arrays (so that thousands of bootstrap samples are one call), and checked
against scipy.stats. Confidence intervals are bootstrap percentile intervals
over systems, over items (inputs), or over both at once; a difference of two
variants' coefficients is tested by a paired bootstrap (the same draws for
both) and, for Pearson's r, by Williams' test for dependent correlations that
share one variable (Williams 1959; Steiger 1980, eq. 11).

Needs scipy (the ``[stats]`` extra) for ranks, large Kendall's tau and the t
distribution.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping, Optional, Sequence

import numpy as np

from .. import _kernel
from ..errors import ComputeError, ConfigError, UsageError, described, install_hint
from .judgments import Judgments
from .scores import finite_table, item_scores, measure_index
from .significance import _blocks, _generator, checked_draws, signature_of
from .significance import _bootstrap_p_values as bootstrap_p_values

if TYPE_CHECKING:
    from ..report import Report

__all__ = [
    "ALL_LEVELS",
    "COEFFICIENTS",
    "LEVELS",
    "MISSING",
    "PERMUTATIONS",
    "RESAMPLING",
    "AggregationPoint",
    "Correlation",
    "Correlations",
    "Difference",
    "aggregation_curve",
    "complete_items",
    "correlate",
    "correlation_difference",
    "kendall_tau_b",
    "level_p_value",
    "pearson",
    "permutation_p_value",
    "permutation_swaps",
    "report_variants",
    "spearman",
    "williams_test",
]

LEVELS = ("system", "summary", "global")
#: Every level, the default three and ``per-system`` (each system's items correlated, the
#: mean over the systems: the METEOR paper's segment-level figure), asked for by name.
ALL_LEVELS = (*LEVELS, "per-system")
RESAMPLING = ("systems", "inputs", "both", "none")
#: Variant name -> system ID -> eval ID -> score.
Variants = Mapping[str, Mapping[str, Mapping[str, float]]]
#: Above this many points Kendall's tau is scipy's (n log n) instead of the pairwise form here.
_PAIRWISE_KENDALL = 150


def _scipy_stats() -> Any:
    try:
        import scipy.stats
    except ImportError:
        raise UsageError(f"correlations need scipy: {install_hint('scipy', 'stats')}") from None
    return scipy.stats


def pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson's r along the last axis (NaN where either side is constant), of any finite numbers
    (each row scaled first: :func:`_scaled`)."""
    return _pearson(
        _scaled(np.asarray(x, dtype=np.float64), rows=True),
        _scaled(np.asarray(y, dtype=np.float64), rows=True),
    )


def _pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return _joined_pearson(_normalized(x), _normalized(y))


def _normalized(values: np.ndarray) -> np.ndarray:
    """One side of Pearson's r along the last axis: the values less their mean, divided by the
    root of their sum of squares (NaN where they are constant). Made once for a side that is
    correlated with several others."""
    centered = values - values.mean(axis=-1, keepdims=True)
    norm = np.sqrt((centered * centered).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return centered / norm[..., None]


def _joined_pearson(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson's r of two sides made by :func:`_normalized`."""
    return np.clip((a * b).sum(axis=-1), -1.0, 1.0)


#: Magnitudes whose sums of squares stay far from overflow and underflow: left as they are.
_SAFE = (2.0**-500, 2.0**500)


def _scaled(values: np.ndarray, rows: bool = False) -> np.ndarray:
    """``values`` times the power of two that brings the largest magnitude (of each row along the
    last axis, or of all) into [0.5, 1), where it lies outside the safe range. Exact, so every
    coefficient is what it was; then no sum, mean, difference or square overflows."""
    axis = -1 if rows else None
    largest = np.maximum(values.max(axis=axis, keepdims=rows), -values.min(axis=axis, keepdims=rows))
    if np.all((largest == 0) | ((largest > _SAFE[0]) & (largest < _SAFE[1]))):
        return values
    _, exponent = np.frexp(np.where(np.isfinite(largest), largest, 0.0))
    return np.ldexp(values, -exponent)


def spearman(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman's rho along the last axis: Pearson's r of the ranks (ties: their mean rank)."""
    return _pearson(average_ranks(x), average_ranks(y))


def average_ranks(values: np.ndarray) -> np.ndarray:
    """The ranks along the last axis, ties given their mean rank: scipy.stats.rankdata's numbers,
    from the C kernel where it is built."""
    values = np.asarray(values, dtype=np.float64)
    accel = _kernel.accel
    if accel is None or values.size == 0:
        return np.asarray(_scipy_stats().rankdata(values, axis=-1), dtype=np.float64)
    rows = np.ascontiguousarray(values)
    ranks = np.empty_like(rows)
    accel.average_ranks(rows.data, rows.shape[-1], ranks.data)
    return ranks


def kendall_tau_b(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall's tau-b along the last axis: (concordant - discordant) / sqrt((n0 - n1)(n0 - n2)),
    n0 the pairs, n1 and n2 those tied in x and in y. Past _PAIRWISE_KENDALL points, rounded as
    scipy.stats.kendalltau (divided by each root in turn). The C kernel gives the same numbers
    (Knight's sort, n log n) as the pairwise form and scipy, which run without it."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    shape, n = x.shape[:-1], x.shape[-1]
    flat_x, flat_y = x.reshape(-1, n), y.reshape(-1, n)
    out = np.empty(flat_x.shape[0])
    accel = _kernel.accel
    if accel is not None and n and out.size:  # the same numbers, by Knight's sort in C
        x_rows, y_rows = np.ascontiguousarray(flat_x), np.ascontiguousarray(flat_y)
        accel.kendall_tau_b(x_rows.data, y_rows.data, n, n > _PAIRWISE_KENDALL, out.data)
        return out.reshape(shape)
    if n > _PAIRWISE_KENDALL:
        stats = _scipy_stats()
        for k in range(flat_x.shape[0]):
            out[k] = stats.kendalltau(flat_x[k], flat_y[k]).statistic
        return out.reshape(shape)
    first, second = np.triu_indices(n, 1)
    pairs = len(first)
    for start, size in _row_blocks(flat_x.shape[0], pairs):
        sx = np.sign(flat_x[start : start + size, first] - flat_x[start : start + size, second])
        sy = np.sign(flat_y[start : start + size, first] - flat_y[start : start + size, second])
        s = (sx * sy).sum(axis=-1)
        untied_x = pairs - (sx == 0).sum(axis=-1)
        untied_y = pairs - (sy == 0).sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + size] = s / np.sqrt(untied_x.astype(np.float64) * untied_y)
    return np.clip(out, -1.0, 1.0).reshape(shape)


def _row_blocks(rows: int, cells: int) -> list[tuple[int, int]]:
    sizes = _blocks(rows, cells) if rows else []
    starts = np.cumsum([0, *sizes])[:-1]
    return [(int(a), b) for a, b in zip(starts, sizes)]


COEFFICIENTS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "pearson": pearson,
    "spearman": spearman,
    "kendall": kendall_tau_b,
}


def level_coefficient(level: str, coefficient: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The coefficient at a level of grids ``x``, ``y`` (..., systems, items): one value per grid.

    Each grid is scaled as a whole (:func:`_scaled`), so that its means cannot overflow either."""
    return _joined(level, coefficient, _side(level, coefficient, x), _side(level, coefficient, y))


def _side(level: str, coefficient: str, grid: np.ndarray) -> np.ndarray:
    """What a level's coefficient takes of one grid (..., systems, items), before it meets the
    other: the values the level correlates along the last axis (the systems' means, each item's
    systems, each system's items, every cell), ranked for Spearman's, normalized for Pearson's
    and Spearman's (:func:`_normalized`)."""
    values = _scaled(np.asarray(grid, dtype=np.float64))
    if level == "system":
        values = values.mean(axis=-1)
    elif level == "summary":
        values = np.swapaxes(values, -1, -2)
    elif level == "global":
        values = values.reshape((*values.shape[:-2], values.shape[-2] * values.shape[-1]))
    if coefficient == "spearman":
        values = average_ranks(values)
    return values if coefficient == "kendall" else _normalized(values)


def _joined(level: str, coefficient: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The level's coefficient of two sides made by :func:`_side` (the summary and per-system
    levels: the mean of the defined coefficients)."""
    values = kendall_tau_b(a, b) if coefficient == "kendall" else _joined_pearson(a, b)
    return _mean_defined(values) if level in ("summary", "per-system") else values


def level_p_value(level: str, coefficient: str, x: np.ndarray, y: np.ndarray) -> float:
    """The two-sided p-value of the coefficient at a level (against no correlation): scipy.stats'
    ``pearsonr``, ``spearmanr`` or ``kendalltau`` (tau-b) of the values the level correlates, the
    systems' means or every cell. The summary and per-system levels, means of coefficients, have
    none in closed form: NaN."""
    if level in ("summary", "per-system"):
        return math.nan
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    a, b = (x.mean(axis=-1), y.mean(axis=-1)) if level == "system" else (x.ravel(), y.ravel())
    if a.size < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return math.nan
    stats = _scipy_stats()
    test = {"pearson": stats.pearsonr, "spearman": stats.spearmanr, "kendall": stats.kendalltau}[coefficient]
    return float(test(a, b).pvalue)


def _mean_defined(per_item: np.ndarray) -> np.ndarray:
    """The mean along the last axis of the coefficients that are defined (NaN where none is)."""
    defined = np.isfinite(per_item)
    count = defined.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(defined, per_item, 0.0).sum(axis=-1) / count


def williams_test(r12: float, r13: float, r23: float, n: int) -> tuple[float, float, float]:
    """Williams' test that r12 and r13, which share variable 1, differ: (t, one-sided p, two-sided p).

    t = (r12 - r13) sqrt((n - 1)(1 + r23)) / sqrt(2 (n - 1)/(n - 3) |R| + ((r12 + r13)/2)^2 (1 - r23)^3),
    |R| = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23, with n - 3 degrees of freedom; the
    one-sided p is that of r12 > r13.
    """
    if n <= 3:
        raise ComputeError(f"Williams' test needs more than 3 points, got {n}")
    determinant = 1 - r12 * r12 - r13 * r13 - r23 * r23 + 2 * r12 * r13 * r23
    mean = (r12 + r13) / 2
    denominator = math.sqrt(2 * (n - 1) / (n - 3) * determinant + mean * mean * (1 - r23) ** 3)
    if denominator == 0:
        raise ComputeError("Williams' test is undefined: the two variants are perfectly correlated")
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / denominator
    distribution = _scipy_stats().t
    return t, float(distribution.sf(t, n - 3)), float(2 * distribution.sf(abs(t), n - 3))


@dataclass(frozen=True)
class CorrelateSettings:
    """The bootstrap of the confidence intervals: over what, how many samples, the seed."""

    resample: str = "both"
    samples: int = 1000
    seed: int = 12345
    confidence: float = 95.0

    def __post_init__(self) -> None:
        if not isinstance(self.resample, str) or self.resample not in RESAMPLING:
            raise UsageError(
                f"resample must be one of {', '.join(RESAMPLING)}, got {described(self.resample)}"
            )
        samples, seed, confidence = checked_draws(self.samples, self.seed, self.confidence)
        object.__setattr__(self, "samples", samples)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "confidence", confidence)

    def signature(self) -> str:
        """``resample:both|samples:1000|seed:12345|ci:95|rng:pcg64|...``."""
        parts = {"resample": self.resample, "samples": self.samples, "seed": self.seed}
        return signature_of({**parts, "ci": f"{self.confidence:g}"})


@dataclass(frozen=True)
class Correlation:
    """One coefficient of one variant against one judgment at one level, with its interval."""

    variant: str
    judgment: str
    level: str
    coefficient: str
    value: float
    low: float
    high: float
    systems: int
    items: int
    #: Two-sided p-value against no correlation (:func:`level_p_value`; NaN at the summary level).
    p: float = math.nan
    #: Whether a higher score of the variant is better; where not (an error rate), a good
    #: variant's coefficients are negative, and tables and differences read them negated.
    higher_is_better: bool = True
    #: Whether the variant is not significantly less in agreement than the best variant of its
    #: column (judgment, level, coefficient): the best itself, or a paired bootstrap against it
    #: (the intervals' draws) whose Holm-adjusted p-value is at least 1 - confidence. None
    #: without resampling, or with one variant.
    tied_with_best: Optional[bool] = None

    @property
    def oriented(self) -> float:
        """The coefficient as "agreement": itself, or negated for a lower-is-better variant."""
        return self.value if self.higher_is_better else -self.value


@dataclass
class Correlations:
    """Every coefficient of a run, the settings that made them, and what was left out."""

    settings: CorrelateSettings
    rows: list[Correlation] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Judgments by several annotators: per judgment, their number and Krippendorff's alpha
    #: (``alpha_interval``, ``alpha_ordinal``); and the annotators' ceiling by (judgment,
    #: level, coefficient): each annotator against the others' mean, averaged.
    agreement: dict[str, dict[str, float]] = field(default_factory=dict)
    ceilings: dict[tuple[str, str, str], float] = field(default_factory=dict)

    @property
    def signature(self) -> str:
        """The bootstrap's settings."""
        return self.settings.signature()

    def get(self, variant: str, judgment: str, level: str, coefficient: str) -> Correlation:
        """The row of a variant, judgment, level and coefficient."""
        for row in self.rows:
            if (row.variant, row.judgment, row.level, row.coefficient) == (
                variant,
                judgment,
                level,
                coefficient,
            ):
                return row
        raise KeyError(f"no correlation of {variant} with {judgment} at the {level} level ({coefficient})")

    def to_dicts(self) -> list[dict[str, Any]]:
        """One dict per coefficient (JSON- and CSV-ready)."""
        return [dict(row.__dict__) for row in self.rows]


def report_variants(
    report: Report, measures: Sequence[str] = ("recall", "precision", "f"), setting: str = ""
) -> dict[str, dict[str, dict[str, float]]]:
    """A report's variants: ``"ROUGE-1 R"``... -> system -> eval ID -> score (``setting`` appended
    in brackets, e.g. ``"ROUGE-1 R [stem]"``, to tell the runs of several settings apart)."""
    suffix = f" [{setting}]" if setting else ""
    per_measure = {measure_index(m)[0]: item_scores(report, measure_index(m)[0]) for m in measures}
    labels = next(iter(per_measure.values()), {})
    return {
        f"{label} {name[0].upper()}{suffix}": per_measure[name][label]
        for label in labels
        for name in per_measure
    }


@dataclass(frozen=True)
class Grid:
    """Judged systems x judged items: a variant's scores and a judgment's, as arrays."""

    systems: list[str]
    items: list[str]
    warnings: tuple[str, ...] = ()


MISSING = ("error", "drop-items")


def complete_items(variants: Variants, judgments: Judgments) -> tuple[list[str], list[str]]:
    """The judged items (eval IDs) every judged system has every judgment and every variant's
    score for, and the others, both sorted: ``missing="drop-items"`` keeps the first."""
    systems = judgments.systems()
    kept: list[str] = []
    dropped: list[str] = []
    for item in judgments.items():
        whole = all((item, s) in table for table in judgments.scores.values() for s in systems) and all(
            item in scores.get(s, {}) for scores in variants.values() for s in systems
        )
        (kept if whole else dropped).append(item)
    return kept, dropped


def _kept_items(
    variants: Variants, judgments: Judgments, missing: str, found: list[str]
) -> Optional[list[str]]:
    """The items a run keeps under ``missing`` (None: every judged one, checked), saying on
    ``found`` which it leaves out."""
    (missing,) = _checked_names([missing], MISSING, "rule for missing cells")
    if missing == "error":
        return None
    kept, dropped = complete_items(variants, judgments)
    if dropped:
        shown = ", ".join(dropped[:10]) + (", ..." if len(dropped) > 10 else "")
        found.append(
            f"{judgments.name}: {len(dropped)} of {len(kept) + len(dropped)} judged items left out, "
            f"a judgment or a score missing for some system (missing='drop-items'): {shown}"
        )
    if len(kept) < 2:
        raise ComputeError(
            f"{judgments.name}: {len(kept)} item(s) judged and scored for every system: too few"
        )
    return kept


def grid(
    variant: str,
    scores: Mapping[str, Mapping[str, float]],
    judgments: Judgments,
    items: Optional[Sequence[str]] = None,
) -> Grid:
    """The judged systems and items (``items``: those kept), checked against what the variant scores."""
    systems = judgments.systems()
    items = list(judgments.items() if items is None else items)
    if len(systems) < 3:
        raise ComputeError(
            f"{judgments.name}: {len(systems)} judged system(s): a correlation needs 3 or more"
        )
    for system in systems:
        if system not in scores:
            raise ConfigError(f"{judgments.name}: system {system!r} is judged but not scored ({variant})")
        for item in items:
            if item not in scores[system]:
                raise ConfigError(
                    f"{judgments.name}: eval {item!r} is judged but not scored "
                    f"for system {system!r} ({variant})"
                )
    for name, table in judgments.scores.items():
        for system in systems:
            for item in items:
                if (item, system) not in table:
                    raise ConfigError(
                        f"{judgments.name}: {name} has no score for eval {item!r} of system {system!r}"
                    )
    left = sorted(set(scores) - set(systems))
    warnings = (f"{variant}: systems not judged, left out: {', '.join(left)}",) if left else ()
    return Grid(systems, items, warnings)


def _arrays(
    variant: str, scores: Mapping[str, Mapping[str, float]], judgments: Judgments, name: str, where: Grid
) -> tuple[np.ndarray, np.ndarray]:
    """A variant's grid (its scores checked: :func:`~.scores.finite_table`) and a judgment's, each
    scaled by a power of two (:func:`_scaled`)."""
    rows = [[scores[s][i] for i in where.items] for s in where.systems]
    x = finite_table(variant, rows, where.systems, where.items, "a correlation")
    table = judgments.scores[name]
    y = np.array([[table[(i, s)] for i in where.items] for s in where.systems], dtype=np.float64)
    return _scaled(x), _scaled(y)


def _check_judgment(name: str, y: np.ndarray, judgments: Judgments, levels: Sequence[str]) -> None:
    """A judgment that cannot correlate with anything: the same everywhere, or (at the system
    level) the same mean for every system."""
    if np.all(y == y.flat[0]):
        raise ComputeError(f"{judgments.name}: {name} is the same for every system and item: no correlation")
    means = y.mean(axis=1)
    if "system" in levels and np.all(means == means[0]):
        raise ComputeError(
            f"{judgments.name}: {name} ties every system (the same mean): no system-level correlation"
        )


def _draws(settings: CorrelateSettings, systems: int, items: int) -> tuple[np.ndarray, np.ndarray]:
    """The bootstrap's rows and columns: (samples, systems), (samples, items)."""
    rng = _generator(settings.seed, 2)
    samples = settings.samples
    rows = (
        rng.integers(0, systems, size=(samples, systems))
        if settings.resample in ("systems", "both")
        else None
    )
    columns = (
        rng.integers(0, items, size=(samples, items)) if settings.resample in ("inputs", "both") else None
    )
    if rows is None:
        rows = np.broadcast_to(np.arange(systems), (samples, systems))
    if columns is None:
        columns = np.broadcast_to(np.arange(items), (samples, items))
    return rows, columns


def _resampled(
    level: str, coefficient: str, x: np.ndarray, y: np.ndarray, rows: np.ndarray, columns: np.ndarray
) -> np.ndarray:
    """The coefficient on each bootstrap sample of the grid."""
    return _resampled_grids(level, coefficient, [x], [y], rows, columns)[0][0]


def _resampled_grids(
    level: str,
    coefficient: str,
    xs: Sequence[np.ndarray],
    ys: Sequence[np.ndarray],
    rows: np.ndarray,
    columns: np.ndarray,
) -> list[list[np.ndarray]]:
    """The coefficient of each grid ``x`` with each grid ``y`` (of the same systems and items) on
    each bootstrap sample, by ``y`` then ``x``: what is drawn of a grid (its sample, ranks or
    normalized side) is made once for all the grids it meets."""
    samples = rows.shape[0]
    outs = [[np.empty(samples) for _ in xs] for _ in ys]
    counted = level in ("summary", "global") and (
        coefficient == "spearman" or (coefficient == "kendall" and _kernel.accel is not None)
    )
    y = ys[0]
    cells = y.size * (y.shape[0] if coefficient == "kendall" and not counted else 1) * (len(xs) + len(ys))
    for start, size in _row_blocks(samples, cells):
        part = slice(start, start + size)
        if counted:
            by_counts = _global_counted if level == "global" else _summary_counted
            values = by_counts(coefficient, xs, ys, rows[part], columns[part])
        else:
            r = rows[part, :, None]
            c = columns[part, None, :]
            x_sides = [_side(level, coefficient, x[r, c]) for x in xs]
            y_sides = [_side(level, coefficient, y[r, c]) for y in ys]
            values = [
                [_joined(level, coefficient, x_side, y_side) for x_side in x_sides] for y_side in y_sides
            ]
        for out_y, values_y in zip(outs, values):
            for out, value in zip(out_y, values_y):
                out[part] = value
    return outs


def _global_counted(
    coefficient: str,
    xs: Sequence[np.ndarray],
    ys: Sequence[np.ndarray],
    rows: np.ndarray,
    columns: np.ndarray,
) -> list[list[np.ndarray]]:
    """Spearman's or Kendall's coefficient of each whole grid ``x`` with each ``y`` on bootstrap
    samples (by ``y`` then ``x``), from how many times each sample holds each cell (its rows'
    draws times its columns'), not from the sample laid out and sorted: the same numbers as
    :func:`level_coefficient` gives of it."""
    systems, items = ys[0].shape
    samples = rows.shape[0]
    held = (_drawn(rows, systems)[:, :, None] * _drawn(columns, items)[:, None, :]).reshape(samples, -1)
    if coefficient == "kendall":
        return [[_kendall_counted(x.ravel(), y.ravel(), held) for x in xs] for y in ys]
    laid_out = (rows[:, :, None] * items + columns[:, None, :]).reshape(samples, -1)
    x_sides = [_normalized(_counted_ranks(x.ravel(), held, laid_out)) for x in xs]
    y_sides = [_normalized(_counted_ranks(y.ravel(), held, laid_out)) for y in ys]
    return [[_joined_pearson(x_side, y_side) for x_side in x_sides] for y_side in y_sides]


def _summary_counted(
    coefficient: str,
    xs: Sequence[np.ndarray],
    ys: Sequence[np.ndarray],
    rows: np.ndarray,
    columns: np.ndarray,
) -> list[list[np.ndarray]]:
    """The summary level's Spearman or Kendall of each grid ``x`` with each ``y`` on bootstrap
    samples (the mean over the sample's items of each item's coefficient across the sample's
    systems; by ``y`` then ``x``), each item's from how many times the sample holds each system:
    the numbers :func:`level_coefficient` gives of it."""
    systems, items = ys[0].shape
    samples = rows.shape[0]
    held = _drawn(rows, systems)
    if coefficient == "kendall":
        found = []
        for y in ys:
            found_y = []
            for x in xs:
                each_item = np.array(
                    [_kendall_counted(x[:, item], y[:, item], held) for item in range(items)]
                )
                found_y.append(_mean_defined(np.take_along_axis(each_item.T, columns, axis=1)))
            found.append(found_y)
        return found
    laid_out = (columns[:, :, None] * systems + rows[:, None, :]).reshape(samples, -1)
    shape = (samples, items, systems)

    def side(grid: np.ndarray) -> np.ndarray:
        return _normalized(_counted_ranks(grid.T, held, laid_out).reshape(shape))

    x_sides = [side(x) for x in xs]
    y_sides = [side(y) for y in ys]
    return [[_mean_defined(_joined_pearson(x_side, y_side)) for x_side in x_sides] for y_side in y_sides]


def _kendall_counted(x: np.ndarray, y: np.ndarray, held: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of the cells (``x``, ``y``) on each sample, a row of ``held`` (how many
    times it holds each cell): the C kernel's :func:`kendall_tau_b` of the sample laid out."""
    accel = _kernel.accel
    assert accel is not None
    at = np.lexsort((y, x)).astype(np.intp)
    cells = np.concatenate((x, y))
    out = np.empty(held.shape[0])
    accel.kendall_tau_b_counted(at.data, cells.data, held.data, x.size > _PAIRWISE_KENDALL, out.data)
    return out


def _drawn(draws: np.ndarray, size: int) -> np.ndarray:
    """How many times each sample (a row of ``draws``) drew each of ``size`` things."""
    samples = draws.shape[0]
    offsets = (draws + np.arange(samples)[:, None] * size).ravel()
    return np.bincount(offsets, minlength=samples * size).reshape(samples, size)


def _counted_ranks(values: np.ndarray, held: np.ndarray, laid_out: np.ndarray) -> np.ndarray:
    """The mean ranks of samples of ``values`` (1-D, or rows each ranked apart), laid out as
    ``laid_out`` says (the flat position of the value at each place), from how many times each
    sample holds each value of a row (``held``, a count per sample and position in a row): a run
    of equal values held through the t-th value of the sample, after b others, ranks
    0.5 (b + t + 1), as scipy.stats.rankdata ranks the laid-out sample."""
    lines = np.atleast_2d(values)
    count, width = lines.shape
    order = np.argsort(lines, axis=1, kind="stable")
    ordered = np.take_along_axis(lines, order, axis=1)
    first = np.ones(lines.shape, dtype=bool)
    first[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    place = np.arange(width)
    start = np.maximum.accumulate(np.where(first, place, 0), axis=1)  # where each run starts
    last = np.ones(lines.shape, dtype=bool)
    last[:, :-1] = first[:, 1:]
    end = np.minimum.accumulate(np.where(last, place, width)[:, ::-1], axis=1)[:, ::-1]
    line = np.arange(count)[:, None] * width  # positions in the flat (line, place) order below
    accel = _kernel.accel
    if accel is not None:
        out = np.empty(laid_out.shape)
        runs = np.concatenate((order.ravel(), (start + line).ravel(), (end + line).ravel())).astype(np.intp)
        held = np.ascontiguousarray(held, dtype=np.int64)
        accel.counted_ranks(
            runs.data, held.data, np.ascontiguousarray(laid_out, dtype=np.intp).data, width, out.data
        )
        return out
    flat_order = (order + line).ravel()
    held_in_order = np.take(held, order.ravel(), axis=1).reshape(-1, count, width)
    through = np.cumsum(held_in_order, axis=2).reshape(-1, count * width)
    before = through - held_in_order.reshape(through.shape)  # up to the value before a place
    ranks_in_order = 0.5 * (
        np.take(before, (start + line).ravel(), axis=1) + np.take(through, (end + line).ravel(), axis=1) + 1
    )
    in_order = np.empty_like(flat_order)
    in_order[flat_order] = np.arange(flat_order.size)  # a value's place among its line's, sorted
    return np.take_along_axis(ranks_in_order, in_order[laid_out], axis=1)


def _interval(values: np.ndarray, confidence: float) -> tuple[float, float]:
    defined = values[np.isfinite(values)]
    if defined.size == 0:
        return math.nan, math.nan
    tail = (100.0 - confidence) / 2
    low, high = np.percentile(defined, [tail, 100.0 - tail])
    return float(low), float(high)


def _checked_names(given: Optional[Sequence[str]], known: Sequence[str], what: str) -> list[str]:
    if given is None:
        return list(known)
    unknown = [name for name in given if name not in known]
    if unknown:
        raise UsageError(f"unknown {what} {', '.join(map(str, unknown))}: use {', '.join(known)}")
    return list(given)


def correlate(
    variants: Variants,
    judgments: Judgments,
    levels: Optional[Sequence[str]] = None,
    coefficients: Optional[Sequence[str]] = None,
    judgment_names: Optional[Sequence[str]] = None,
    settings: Optional[CorrelateSettings] = None,
    lower_is_better: Collection[str] = (),
    missing: str = "error",
) -> Correlations:
    """Every variant against every judgment, at each level, with each coefficient and its interval.

    ``variants``: name -> system -> eval ID -> score (:func:`report_variants`
    makes them from a report; merge the dicts of several runs for several
    stemming or stopword settings). Judged systems and items must all be
    scored; systems the run scores but nobody judged are left out (a warning).
    ``lower_is_better``: the variants whose lower scores are better (their rows say so).
    ``missing``: ``"error"`` (every judged system must be judged and scored on every judged
    item), or ``"drop-items"``: the items where a judgment or a score is missing for some
    system are left out, for every variant and level alike, and a warning names them.
    """
    _scipy_stats()
    settings = settings or CorrelateSettings()
    levels = _checked_names(levels, ALL_LEVELS, "level") if levels is not None else list(LEVELS)
    coefficients = _checked_names(coefficients, tuple(COEFFICIENTS), "coefficient")
    names = _checked_names(judgment_names, judgments.columns, "judgment")
    found = Correlations(settings)
    if not variants:
        raise UsageError("no variant to correlate")
    draws: Optional[tuple[np.ndarray, np.ndarray]] = None
    grids: list[tuple[str, Grid, dict[str, tuple[np.ndarray, np.ndarray]]]] = []
    kept = _kept_items(variants, judgments, missing, found.warnings)
    for variant, scores in variants.items():  # every check first, in this order
        where = grid(variant, scores, judgments, kept)
        found.warnings.extend(w for w in where.warnings if w not in found.warnings)
        if draws is None and settings.resample != "none":
            draws = _draws(settings, len(where.systems), len(where.items))
        arrays = {}
        for name in names:
            arrays[name] = x, y = _arrays(variant, scores, judgments, name, where)
            _check_judgment(name, y, judgments, levels)
        grids.append((variant, where, arrays))
    intervals: dict[tuple[str, str, str, str], tuple[float, float]] = {}
    ties: dict[tuple[str, str, str, str], bool] = {}
    # The judged systems and items are the same for every variant, and a variant's grid the same
    # for every judgment: each is drawn once for all the others.
    xs = [arrays[names[0]][0] for _, _, arrays in grids]
    ys = [grids[0][2][name][1] for name in names]
    resampled = {
        (level, coefficient): _resampled_grids(level, coefficient, xs, ys, *draws)
        for level in levels
        for coefficient in coefficients
        if draws is not None
    }
    for name, y in zip(names, ys):
        for level in levels:
            for coefficient in coefficients:
                if draws is None:
                    continue
                drawn = resampled[level, coefficient][names.index(name)]
                for (variant, _, _), values in zip(grids, drawn):
                    intervals[variant, name, level, coefficient] = _interval(values, settings.confidence)
                if len(grids) > 1:
                    signs = [-1.0 if v in lower_is_better else 1.0 for v, _, _ in grids]
                    observed = [
                        sign * float(level_coefficient(level, coefficient, x, y))
                        for sign, x in zip(signs, xs)
                    ]
                    oriented = [sign * values for sign, values in zip(signs, drawn)]
                    for (variant, _, _), is_tied in zip(
                        grids, _tied(observed, oriented, settings.confidence)
                    ):
                        ties[variant, name, level, coefficient] = is_tied
    for variant, where, arrays in grids:
        for name in names:
            x, y = arrays[name]
            for level in levels:
                for coefficient in coefficients:
                    value = float(level_coefficient(level, coefficient, x, y))
                    low, high = intervals.get((variant, name, level, coefficient), (math.nan, math.nan))
                    found.rows.append(
                        Correlation(
                            variant,
                            name,
                            level,
                            coefficient,
                            value,
                            low,
                            high,
                            len(where.systems),
                            len(where.items),
                            level_p_value(level, coefficient, x, y),
                            variant not in lower_is_better,
                            ties.get((variant, name, level, coefficient)),
                        )
                    )
    return found


def _tied(observed: list[float], drawn: list[np.ndarray], confidence: float) -> list[bool]:
    """Which variants are not significantly below the best (by their oriented coefficients): a
    paired bootstrap of each one's difference from the best on the same draws, p-values
    adjusted by Holm's procedure over the variants, tied where the adjusted p is at least
    1 - confidence (the best is tied with itself; an undefined coefficient is not tied)."""
    from .significance import holm

    finite = [k for k, value in enumerate(observed) if math.isfinite(value)]
    if not finite:
        return [False] * len(observed)
    best = max(finite, key=lambda k: observed[k])
    others = [k for k in finite if k != best]
    p_values = []
    for k in others:
        p = _shifted_p_value(drawn[best] - drawn[k], observed[best] - observed[k])
        p_values.append(p if math.isfinite(p) else 1.0)
    level = 1 - confidence / 100
    tied = [False] * len(observed)
    tied[best] = True
    for k, adjusted in zip(others, holm(p_values)):
        tied[k] = adjusted >= level
    return tied


def _shifted_p_value(drawn: np.ndarray, observed: float) -> float:
    """The paired bootstrap's two-sided p-value of a difference: its defined draws shifted to the
    null, (1 + #{|d* - d| >= |d|}) / (draws + 1); NaN without a defined draw."""
    defined = drawn[np.isfinite(drawn)]
    if not defined.size:
        return math.nan
    return float(bootstrap_p_values(defined[None, :], np.array([observed]), np.array([1e-12]))[0])


@dataclass(frozen=True)
class Difference:
    """Variant ``a``'s coefficient minus ``b``'s against one judgment at one level.

    ``low``/``high``: the paired bootstrap's interval of the difference;
    ``p_bootstrap``: its two-sided p-value (the draws shifted to the null);
    ``williams_t``/``p_williams`` (two-sided): Williams' test, for Pearson's r at
    the system and global levels (NaN otherwise). Each variant's coefficient is
    oriented as agreement (negated where lower scores are better, ``lower_is_better``),
    so a positive difference always means ``a`` agrees with people more than ``b``;
    ``value_a``/``value_b`` are the oriented coefficients, ``oriented`` says whether
    either was negated.
    """

    a: str
    b: str
    judgment: str
    level: str
    coefficient: str
    value_a: float
    value_b: float
    difference: float
    low: float
    high: float
    p_bootstrap: float
    williams_t: float
    p_williams: float
    oriented: bool = False
    #: The permutation test's two-sided p-value (Deutsch et al. 2021; see
    #: :func:`permutation_p_value`), and what it swapped: ``"systems"``, ``"inputs"``,
    #: ``"both"``; NaN and ``""`` where it was not asked for.
    p_permutation: float = math.nan
    permutation: str = ""


def correlation_difference(
    variants: Variants,
    judgments: Judgments,
    a: str,
    b: str,
    judgment: Optional[str] = None,
    level: str = "system",
    coefficient: str = "pearson",
    settings: Optional[CorrelateSettings] = None,
    lower_is_better: Collection[str] = (),
    permutation: Optional[str] = None,
    missing: str = "error",
) -> Difference:
    """Whether variant ``a`` agrees with a judgment more than ``b`` (see :class:`Difference`);
    ``permutation`` (``"systems"``, ``"inputs"`` or ``"both"``) adds the permutation test's
    p-value, with ``settings``' samples and seed; ``missing`` as :func:`correlate` takes it."""
    _scipy_stats()
    settings = settings or CorrelateSettings()
    if settings.resample == "none":
        raise UsageError("a paired bootstrap needs resampling: systems, inputs or both")
    for name in (a, b):
        if name not in variants:
            raise UsageError(f"no variant {name!r} (there are: {', '.join(variants)})")
    (judgment,) = _checked_names(
        [judgment] if judgment else judgments.columns[:1], judgments.columns, "judgment"
    )
    (level,) = _checked_names([level], ALL_LEVELS, "level")
    (coefficient,) = _checked_names([coefficient], tuple(COEFFICIENTS), "coefficient")
    kept = _kept_items({a: variants[a], b: variants[b]}, judgments, missing, [])
    where = grid(a, variants[a], judgments, kept)
    grid(b, variants[b], judgments, kept)
    xa, y = _arrays(a, variants[a], judgments, judgment, where)
    xb, _ = _arrays(b, variants[b], judgments, judgment, where)
    _check_judgment(judgment, y, judgments, [level])
    sign_a = -1.0 if a in lower_is_better else 1.0  # agreement: an error rate's r negated
    sign_b = -1.0 if b in lower_is_better else 1.0
    value_a = sign_a * float(level_coefficient(level, coefficient, xa, y))
    value_b = sign_b * float(level_coefficient(level, coefficient, xb, y))
    observed = value_a - value_b
    draws = _draws(settings, len(where.systems), len(where.items))
    drawn = sign_a * _resampled(level, coefficient, xa, y, *draws) - sign_b * _resampled(
        level, coefficient, xb, y, *draws
    )
    low, high = _interval(drawn, settings.confidence)
    p_bootstrap = _shifted_p_value(drawn, observed)
    t = p_williams = math.nan
    if coefficient == "pearson" and level in ("system", "global"):
        pick = (lambda m: m.mean(axis=1)) if level == "system" else (lambda m: m.ravel())
        r_ab = sign_a * sign_b * float(pearson(pick(xa), pick(xb)))  # of the oriented scores
        t, _, p_williams = williams_test(value_a, value_b, r_ab, pick(xa).size)
    oriented = sign_a < 0 or sign_b < 0
    p_permutation = math.nan
    if permutation is not None:
        p_permutation = permutation_p_value(
            sign_a * xa, sign_b * xb, y, level, coefficient, permutation, settings.samples, settings.seed
        )
    return Difference(
        a,
        b,
        judgment,
        level,
        coefficient,
        value_a,
        value_b,
        observed,
        low,
        high,
        p_bootstrap,
        t,
        p_williams,
        oriented,
        p_permutation,
        permutation or "",
    )


PERMUTATIONS = ("systems", "inputs", "both")


def _standardized(grid: np.ndarray) -> np.ndarray:
    """A grid less its mean, over its standard deviation (every cell): metrics on one scale."""
    spread = grid.std()
    return (grid - grid.mean()) / (spread if spread > 0 else 1.0)


def permutation_swaps(method: str, samples: int, systems: int, items: int, seed: int) -> np.ndarray:
    """Which cells each sample swaps between the two variants: (samples, systems, items) booleans.
    ``systems``: whole rows, each with probability 1/2; ``inputs``: whole columns; ``both``: the
    rows, then the columns (a cell is swapped when exactly one of its row and column is)."""
    rng = _generator(seed, 3)
    rows = rng.random((samples, systems, 1)) < 0.5 if method in ("systems", "both") else None
    columns = rng.random((samples, 1, items)) < 0.5 if method in ("inputs", "both") else None
    if rows is None:
        assert columns is not None
        return np.broadcast_to(columns, (samples, systems, items))
    if columns is None:
        return np.broadcast_to(rows, (samples, systems, items))
    return rows ^ columns


def permutation_p_value(
    xa: np.ndarray,
    xb: np.ndarray,
    y: np.ndarray,
    level: str,
    coefficient: str,
    method: str,
    samples: int,
    seed: int,
    swaps: Optional[np.ndarray] = None,
) -> float:
    """The two-sided permutation test that two variants' coefficients with ``y`` differ (Deutsch,
    Dror and Roth, TACL 2021: Perm-Systems, Perm-Inputs, Perm-Both).

    Each grid (systems x items) is standardized (its mean and deviation over every cell) so
    that the variants are on one scale; each sample swaps the two variants' scores of whole
    systems, whole inputs, or both (:func:`permutation_swaps`), and the p-value is
    (1 + #{|d*| >= |d|}) / (samples + 1) for the observed difference d. ``swaps`` (booleans,
    samples x systems x items) replaces the random ones: an exact test enumerates them all.
    """
    (method,) = _checked_names([method], PERMUTATIONS, "permutation")
    a, b, z = _standardized(xa), _standardized(xb), _standardized(y)
    observed = float(
        level_coefficient(level, coefficient, a, z) - level_coefficient(level, coefficient, b, z)
    )
    if not math.isfinite(observed):
        return math.nan
    if swaps is None:
        swaps = permutation_swaps(method, samples, a.shape[0], a.shape[1], seed)
    step = max(1, _PERMUTED_CELLS // a.size)
    count = total = 0
    for start in range(0, len(swaps), step):
        block = swaps[start : start + step]
        da = np.where(block, b, a)
        db = np.where(block, a, b)
        zb = np.broadcast_to(z, da.shape)
        drawn = level_coefficient(level, coefficient, da, zb) - level_coefficient(level, coefficient, db, zb)
        defined = drawn[np.isfinite(drawn)]
        count += int((np.abs(defined) >= abs(observed) - 1e-12).sum())
        total += defined.size
    return (1 + count) / (total + 1)


#: Cells of permuted grids made at once (two arrays of float64: about 64 MB).
_PERMUTED_CELLS = 4_000_000


@dataclass(frozen=True)
class AggregationPoint:
    """A variant's coefficient once its items are pooled into ``groups`` groups of ``size``."""

    variant: str
    size: int
    groups: int
    value: float

    @property
    def across(self) -> int:
        """Where the point lies on its curve: the group size."""
        return self.size


def aggregation_curve(
    variants: Variants,
    judgments: Judgments,
    judgment: Optional[str] = None,
    coefficient: str = "pearson",
    sizes: Optional[Sequence[int]] = None,
    seed: int = 12345,
) -> list[AggregationPoint]:
    """Each variant's correlation as the items are pooled (Dorr et al. at the 2005 workshop):
    for each group size g (1, 2, 4, ... up to half the items by default), the items in an
    order shuffled once by ``seed`` are cut into groups of g (a remainder left out), each
    system's scores and the judgment are averaged within each group, and the coefficient is
    that of every (system, group) cell. Size 1 is the global level."""
    _scipy_stats()
    (judgment,) = _checked_names(
        [judgment] if judgment else judgments.columns[:1], judgments.columns, "judgment"
    )
    (coefficient,) = _checked_names([coefficient], tuple(COEFFICIENTS), "coefficient")
    first = next(iter(variants), None)
    if first is None:
        raise UsageError("no variant to correlate")
    where = grid(first, variants[first], judgments)
    n = len(where.items)
    if sizes is None:
        sizes = [1 << k for k in range(n.bit_length()) if 1 << k <= max(1, n // 2)]
    if any(not isinstance(g, int) or g < 1 or g > n for g in sizes):
        raise UsageError(f"group sizes must be whole numbers from 1 to the {n} items, got {list(sizes)}")
    order = _generator(seed, 5).permutation(n)
    found = []
    for variant, scores in variants.items():
        grid(variant, scores, judgments)
        x, y = _arrays(variant, scores, judgments, judgment, where)
        x, y = x[:, order], y[:, order]
        for g in sizes:
            groups = n // g
            pooled_x = x[:, : groups * g].reshape(x.shape[0], groups, g).mean(axis=2)
            pooled_y = y[:, : groups * g].reshape(y.shape[0], groups, g).mean(axis=2)
            value = float(level_coefficient("global", coefficient, pooled_x, pooled_y))
            found.append(AggregationPoint(variant, g, groups, value))
    return found
