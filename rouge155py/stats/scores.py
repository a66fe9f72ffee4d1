"""Per-item scores of a report: metric -> system -> eval ID -> score, as the tests and correlations take them.

The rows are those of the report (R, P and F rounded to 5 decimals, ``-t 0``):
the numbers the Perl averages and resamples. Under ``-t 1``/``-t 2`` an
instance holds counts, not a score of its own: refused.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any, Hashable, Mapping, Optional, Sequence

import numpy as np

from ..errors import ComputeError, UsageError, described
from ..results import eval_id_of

if TYPE_CHECKING:
    from ..report import Report

__all__ = ["MEASURES", "ItemScores", "item_scores", "measure_index"]

#: R, P, F: each measure's name and its position in an instance's row.
MEASURES = {"recall": 0, "precision": 1, "f": 2}
_SHORT = {"r": "recall", "p": "precision", "f": "f"}

#: metric label -> system ID -> eval ID -> score (any hashable item ID in Python).
ItemScores = Mapping[str, Mapping[str, Mapping[Any, float]]]


def measure_index(measure: str) -> tuple[str, int]:
    """A measure's name and position: ``recall``/``r``/``R``, ``precision``/``p``, ``f``/``F``."""
    if not isinstance(measure, str):
        raise UsageError(f"the measure must be one of R, P, F, got {measure!r}")
    name = _SHORT.get(measure.lower(), measure.lower())
    if name not in MEASURES:
        raise UsageError(f"the measure must be one of R, P, F (recall, precision, f), got {measure!r}")
    return name, MEASURES[name]


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
        return (0, int(eval_id), str(int(eval_id)), kind)
    if isinstance(eval_id, str):
        if eval_id.isascii() and eval_id.isdigit():
            return (0, int(eval_id), eval_id, kind)
        return (1, 0, eval_id, kind)
    return (2, 0, repr(eval_id), kind)


def finite_table(
    label: str, rows: Sequence[Sequence[Any]], systems: Sequence[str], items: Sequence[Hashable], use: str
) -> np.ndarray:
    """Scores as systems x items floats; a score that is not a number (a UsageError) or not a
    finite one (a ComputeError: nothing can be concluded from it) is refused, naming the system
    and item. ``use`` says what needs them (``"a paired test"``)."""
    for system, row in zip(systems, rows):
        for item, value in zip(items, row):
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                where = f"{label}: the score of system {system!r} on item {item!r}"
                raise UsageError(f"{where} is not a number: {described(value)}")
    table = np.array(rows, dtype=np.float64).reshape(len(systems), len(items))
    bad = np.argwhere(~np.isfinite(table))
    if bad.size:
        system, item = bad[0]
        raise ComputeError(
            f"{label}: the score of system {systems[system]!r} on item {items[item]!r} is "
            f"{table[system, item]}: {use} needs finite scores"
        )
    return table
