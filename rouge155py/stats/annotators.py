"""Judgments given by several annotators: their agreement, per-annotator normalization, and the
ceiling a metric can reach.

A table as the judgments' (:mod:`rouge155py.stats.judgments`) with an ``annotator`` column
(or ``rater``, ``judge``): one row per eval ID, system and annotator. An annotator may skip
cells.

- :func:`krippendorff_alpha`: Krippendorff's alpha (2011) over the judged cells, ``interval``
  or ``ordinal``; cells with fewer than two values do not count (they pair with nothing).
- :meth:`Annotations.judgments`: one score per cell, the mean of its annotators, each first
  z-normalized over the cells it judged where asked (Leusch et al. at the 2005 workshop);
  the result is what :func:`~rouge155py.stats.correlation.correlate` takes.
- :func:`annotator_ceiling`: how well one annotator predicts the others: each annotator's
  scores correlated with the mean of the others', at a level, averaged over the annotators.
  A metric correlating with the mean judgment near this figure is as close as a person is.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional, Union

import numpy as np

from ..errors import ComputeError, ConfigError, UsageError
from .judgments import (
    ITEM_COLUMNS,
    SYSTEM_COLUMNS,
    Judgments,
    column_of,
    file_name,
    identifier,
    number,
    read_rows,
)

__all__ = [
    "ANNOTATOR_COLUMNS",
    "Annotations",
    "annotator_ceiling",
    "krippendorff_alpha",
    "read_annotations",
    "read_judging",
]

ANNOTATOR_COLUMNS = ("annotator", "rater", "judge")
Cell = tuple[str, str]  # (eval ID, system)


@dataclass
class Annotations:
    """Judgment name -> (eval ID, system) -> annotator -> score."""

    name: str
    scores: dict[str, dict[Cell, dict[str, float]]] = field(default_factory=dict)

    @property
    def columns(self) -> list[str]:
        """The judgments' names, in the file's order."""
        return list(self.scores)

    def annotators(self, judgment: str) -> list[str]:
        """Everyone who judged ``judgment``, sorted."""
        return sorted({a for by in self._table(judgment).values() for a in by})

    def _table(self, judgment: str) -> dict[Cell, dict[str, float]]:
        if judgment not in self.scores:
            raise UsageError(f"no judgment {judgment!r} (there are: {', '.join(self.scores)})")
        return self.scores[judgment]

    def _add(self, row: Any, where: str) -> None:
        if not isinstance(row, dict):
            raise ConfigError(f"{where}: a row is an object of columns, got {type(row).__name__}")
        keys = [
            column_of(row, names, where, what)
            for names, what in ((ITEM_COLUMNS, "the item (eval ID)"), (SYSTEM_COLUMNS, "the system"))
        ]
        annotator_key = column_of(row, ANNOTATOR_COLUMNS, where, "the annotator")
        cell = (identifier(row[keys[0]], where), identifier(row[keys[1]], where))
        annotator = identifier(row[annotator_key], where)
        columns = [c for c in row if c not in (*keys, annotator_key)]
        if not columns:
            raise ConfigError(f"{where}: no judgment column besides the eval ID, system and annotator")
        if self.scores and set(columns) != set(self.scores):
            raise ConfigError(f"{where}: the columns differ from the first row's ({', '.join(self.scores)})")
        for column in columns:
            by_annotator = self.scores.setdefault(str(column), {}).setdefault(cell, {})
            if annotator in by_annotator:
                raise ConfigError(f"{where}: {annotator!r} judged eval {cell[0]!r}, system {cell[1]!r} twice")
            by_annotator[annotator] = number(row[column], where, str(column))

    @classmethod
    def from_rows(cls, rows: list[dict[str, Any]], name: str = "annotations") -> Annotations:
        """Annotations from dicts (a file's rows, or a DataFrame's ``to_dict("records")``)."""
        found = cls(name)
        for line, row in enumerate(rows, 1):
            found._add(row, f"{name}: row {line}")
        if not found.scores:
            raise ConfigError(f"{name}: no judgment")
        return found

    def judgments(self, normalize: bool = False) -> Judgments:
        """One score per cell: the mean of its annotators' scores, each annotator's first
        z-normalized over every cell it judged (``normalize``), for the correlations."""
        found = Judgments(self.name)
        for judgment, table in self.scores.items():
            shift: dict[str, tuple[float, float]] = {}
            if normalize:
                for annotator in self.annotators(judgment):
                    values = np.array([by[annotator] for by in table.values() if annotator in by])
                    spread = float(values.std())
                    if values.size < 2 or spread == 0:
                        raise ComputeError(
                            f"{self.name}: {annotator!r} gives one {judgment} everywhere: "
                            "it cannot be z-normalized"
                        )
                    shift[annotator] = (float(values.mean()), spread)
            cells = found.scores.setdefault(judgment, {})
            for cell, by in table.items():
                given = [(v - shift[a][0]) / shift[a][1] if normalize else v for a, v in sorted(by.items())]
                cells[cell] = math.fsum(given) / len(given)
        return found


def read_annotations(path: Union[str, os.PathLike[str]]) -> Annotations:
    """The annotations of a CSV or JSONL file (see the module)."""
    name = file_name(path, "annotations")
    found = Annotations(name)
    read_rows(name, found._add)
    if not found.scores:
        raise ConfigError(f"{name}: no judgment in the file")
    return found


def read_judging(path: Union[str, os.PathLike[str]]) -> tuple[Judgments, Optional[Annotations]]:
    """A judgments file as the command line reads it: with an annotator column, its annotations
    and their per-cell means (:meth:`Annotations.judgments`); else the judgments alone."""
    name = file_name(path, "judgments")
    rows: list[tuple[Any, str]] = []
    read_rows(name, lambda row, where: rows.append((row, where)))
    annotated = (
        bool(rows) and isinstance(rows[0][0], dict) and any(c in rows[0][0] for c in ANNOTATOR_COLUMNS)
    )
    if not annotated:
        judgments = Judgments(name)
        for row, where in rows:
            judgments._add(row, where)
        judgments._check_filled()
        return judgments, None
    annotations = Annotations(name)
    for row, where in rows:
        annotations._add(row, where)
    if not annotations.scores:
        raise ConfigError(f"{name}: no judgment in the file")
    return annotations.judgments(), annotations


def _delta(level: str, values: np.ndarray) -> np.ndarray:
    """The squared difference of every pair of pairable values, by the level's metric."""
    if level == "interval":
        return (values[:, None] - values[None, :]) ** 2
    distinct, counts = np.unique(values, return_counts=True)
    below = np.concatenate([[0], np.cumsum(counts)])  # values ranked below each distinct one
    where = np.searchsorted(distinct, values)
    low, high = np.minimum.outer(where, where), np.maximum.outer(where, where)
    between = below[high + 1] - below[low]  # the values from the lower to the higher, both ends
    return (between - (counts[low] + counts[high]) / 2) ** 2


def krippendorff_alpha(annotations: Annotations, judgment: str, level: str = "interval") -> float:
    """Krippendorff's alpha of ``judgment`` over its cells (``interval`` or ``ordinal`` values):
    1 - observed / expected disagreement over the values of cells judged at least twice."""
    if level not in ("interval", "ordinal"):
        raise UsageError(f"alpha's level is interval or ordinal, got {level!r}")
    units = [list(by.values()) for by in annotations._table(judgment).values() if len(by) >= 2]
    values = np.array([v for unit in units for v in unit])
    n = values.size
    if n < 2:
        raise ComputeError(f"{annotations.name}: no cell of {judgment} has two annotators: no agreement")
    delta = _delta(level, values)
    expected = delta.sum() / (n * (n - 1))
    observed = 0.0
    start = 0
    for unit in units:
        m = len(unit)
        observed += delta[start : start + m, start : start + m].sum() / (m - 1)
        start += m
    observed /= n
    if expected == 0:
        raise ComputeError(f"{annotations.name}: every {judgment} is the same: alpha is undefined")
    return float(1 - observed / expected)


def annotator_ceiling(
    annotations: Annotations, judgment: str, level: str = "system", coefficient: str = "pearson"
) -> float:
    """The mean over the annotators of each one's coefficient with the mean of the others', on
    the grid of every judged system and eval ID; every annotator must have judged every cell."""
    from .correlation import ALL_LEVELS, COEFFICIENTS, level_coefficient

    if level not in ALL_LEVELS or coefficient not in COEFFICIENTS:
        raise UsageError(f"unknown level {level!r} or coefficient {coefficient!r}")
    table = annotations._table(judgment)
    annotators = annotations.annotators(judgment)
    if len(annotators) < 2:
        raise ComputeError(f"{annotations.name}: {judgment} has one annotator: no ceiling")
    missing = Counter(a for by in table.values() for a in annotators if a not in by)
    if missing:
        who, count = missing.most_common(1)[0]
        raise ComputeError(
            f"{annotations.name}: the ceiling needs every annotator on every cell; {who!r} misses {count}"
        )
    systems = sorted({s for _, s in table})
    items = sorted({i for i, _ in table})
    if len(table) != len(systems) * len(items):
        raise ComputeError(f"{annotations.name}: {judgment} is not judged for every system on every eval")
    grid = np.array([[[table[(i, s)][a] for i in items] for s in systems] for a in annotators])
    found = []
    for k in range(len(annotators)):
        others = np.delete(grid, k, axis=0).mean(axis=0)
        found.append(float(level_coefficient(level, coefficient, grid[k], others)))
    defined = [value for value in found if math.isfinite(value)]
    if not defined:
        raise ComputeError(
            f"{annotations.name}: no annotator's {coefficient} is defined at the {level} level"
        )
    return math.fsum(defined) / len(defined)
