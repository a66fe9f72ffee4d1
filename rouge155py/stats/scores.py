"""Per-item scores of a report: metric -> system -> eval ID -> score, as the tests and correlations take them.

The rows are those of the report (R, P and F rounded to 5 decimals, ``-t 0``):
the numbers the Perl averages and resamples. Under ``-t 1``/``-t 2`` an
instance holds counts, not a score of its own: refused.
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any, Hashable, Mapping, Optional, Sequence

import numpy as np

from ..errors import ComputeError, UsageError, described
from ..report.results import eval_id_of

if TYPE_CHECKING:
    from ..report import Report

__all__ = ["MEASURES", "ItemScores", "check_item_scores", "item_scores", "measure_index"]

#: R, P, F: each measure's name and its position in an instance's row.
MEASURES = {"recall": 0, "precision": 1, "f": 2}
_SHORT = {"r": "recall", "p": "precision", "f": "f"}

#: metric label -> system ID -> eval ID -> score (any hashable item ID in Python).
ItemScores = Mapping[str, Mapping[str, Mapping[Any, float]]]


def measure_index(measure: str) -> tuple[str, int]:
    """A measure's name and position: ``recall``/``r``/``R``, ``precision``/``p``, ``f``/``F``."""
    if not isinstance(measure, str):
        raise UsageError(f"the measure must be one of R, P, F, got {described(measure)}")
    name = _SHORT.get(measure.lower(), measure.lower())
    if name not in MEASURES:
        raise UsageError(
            f"the measure must be one of R, P, F (recall, precision, f), got {described(measure)}"
        )
    return name, MEASURES[name]


def check_item_scores(scores: Any) -> None:
    """Refuse what is not metric label -> system ID -> {item ID: score} (a UsageError): the
    labels and system IDs are strings; the scores themselves are checked by :func:`finite_table`."""
    if not isinstance(scores, Mapping):
        raise UsageError(
            f"the scores must be a mapping metric -> system -> item -> score, got {described(scores)}"
        )
    for metric, systems in scores.items():
        if not isinstance(metric, str):
            raise UsageError(f"a metric label is a string, got {described(metric)}")
        if not isinstance(systems, Mapping):
            raise UsageError(
                f"{metric}: the systems must be a mapping system -> item -> score, got {described(systems)}"
            )
        for system, items in systems.items():
            if not isinstance(system, str):
                raise UsageError(f"{metric}: a system ID is a string, got {described(system)}")
            if not isinstance(items, Mapping):
                raise UsageError(
                    f"{metric}: the scores of system {described(system)} must be a mapping item -> score, "
                    f"got {described(items)}"
                )


def item_scores(
    report: Report, measure: str = "f", metrics: Optional[Sequence[str]] = None
) -> dict[str, dict[str, dict[str, float]]]:
    """Every system's score on every item, per metric, for one measure (R, P or F).

    ``metrics``: labels to keep (``"ROUGE-1"``, ``"ROUGE-L"`` ...), all by default.
    System IDs are shown as a person reads them (the system ID as typed).
    """
    if report.options.counting:
        raise UsageError("per-item scores need -t 0: under -t 1/-t 2 an instance holds counts, not a score")
    _, position = measure_index(measure)
    found: dict[str, dict[str, dict[str, float]]] = {}
    for result in report.results:
        if metrics is not None and result.label not in metrics:
            continue
        system = report.options.shown_peer_id(result.peer_id)
        found.setdefault(result.label, {})[system] = {
            eval_id_of(instance, result.peer_id): float(row[position])
            for instance, row in result.instances.items()
        }
    if metrics is not None:
        missing = [label for label in metrics if label not in found]
        if missing:
            known = ", ".join(sorted({r.label for r in report.results}))
            raise UsageError(f"no metric {', '.join(missing)} in the report (it has: {known})")
    return found


def scores_table(
    systems: Mapping[str, Mapping[Hashable, float]], order: Sequence[str]
) -> tuple[list[Hashable], list[list[float]]]:
    """The item IDs every system in ``order`` has, and each system's scores on them."""
    common = set.intersection(*(set(systems[s]) for s in order)) if order else set()
    items = sorted(common, key=_eval_key)
    return items, [[systems[s][i] for i in items] for s in order]


def _eval_key(eval_id: Hashable) -> tuple[int, int, str, str]:
    """Item IDs in order, whatever their type (a dataset's indices are integers): whole numbers
    and strings of digits by value first, then strings, then any other ID by its repr; the
    type's name last, so that 5 and "5" are two IDs in a fixed order."""
    kind = type(eval_id).__name__
    if isinstance(eval_id, int) and not isinstance(eval_id, bool):
        return (0, int(eval_id), "", kind)
    if isinstance(eval_id, str):
        if eval_id.isascii() and eval_id.isdigit() and len(eval_id) <= _LONGEST_NUMBER:
            return (0, int(eval_id), eval_id, kind)
        return (1, 0, eval_id, kind)
    return (2, 0, described(eval_id), kind)


#: Digit strings read as numbers to order item IDs: longer ones are ordered as strings (Python
#: refuses to read integers of more than 4,300 digits from text).
_LONGEST_NUMBER = 4000


def finite_table(
    label: str, rows: Sequence[Sequence[Any]], systems: Sequence[str], items: Sequence[Hashable], use: str
) -> np.ndarray:
    """Scores as systems x items floats; a score that is not a number (a UsageError) or not a
    finite one (a ComputeError: nothing can be concluded from it) is refused, naming the system
    and item. ``use`` says what needs them (``"a paired test"``)."""
    for system, row in zip(systems, rows):
        for item, value in zip(items, row):
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                where = f"{label}: the score of system {described(system)} on item {described(item)}"
                raise UsageError(f"{where} is not a number: {described(value)}")
    try:
        table = np.array(rows, dtype=np.float64).reshape(len(systems), len(items))
    except OverflowError:  # an integer beyond a double's range
        table = np.array([[double_of(value) for value in row] for row in rows]).reshape(
            len(systems), len(items)
        )
    bad = np.argwhere(~np.isfinite(table))
    if bad.size:
        system, item = bad[0]
        value = rows[system][item]
        shown = described(value) if isinstance(value, int) else str(table[system, item])
        raise ComputeError(
            f"{label}: the score of system {described(systems[system])} on item {described(items[item])} is "
            f"{shown}: {use} needs finite scores"
        )
    return table


def double_of(value: Any) -> float:
    """A score as a double; an integer beyond a double's range as infinity (refused as such)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf
