"""A report's numbers in rouge-score's vocabulary: per-item :class:`Score` lists, plain and
bootstrap means, a dict and a DataFrame, a short repr.

Views are built from the public result API (:class:`~rouge155py.report.results.MetricResult`,
its instances in order) when first asked for: scoring does not build them. Values are
the Perl's: an item's R, P, F as it keeps them (rounded to 5 decimals; rouge-score's
dialect keeps its unrounded ones), the bootstrap mean and bounds as the report prints
them, the plain mean over items rounded as the Perl rounds (5 decimals). ``to_legacy()``
is untouched by any of it.
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Protocol, Union

from ..errors import UsageError
from ..metrics.names import modern_name
from ..metrics.scoring import fmt5
from .index import ItemIndex
from .results import MetricResult, eval_id_of

if TYPE_CHECKING:
    from ..settings.options import Options

__all__ = ["MetricScores", "Score", "Viewed", "item_positions", "report_dict", "report_frame", "short_repr"]

_FIELDS = ("precision", "recall", "fmeasure")


class Score(NamedTuple):
    """One item's (or a mean's) scores, in rouge-score's field order."""

    precision: float
    recall: float
    fmeasure: float


def _printed(value: float) -> float:
    """A value as the report prints it (5 decimals), as a number: no float noise."""
    return float(fmt5(value))


def item_positions(eval_ids: list[str]) -> Optional[list[int]]:
    """Each eval's item index where the evals are items 0..N-1 as the API numbers them
    (eval IDs ``1``..``N`` in any order), else None."""
    try:
        numbers = [int(eval_id) - 1 for eval_id in eval_ids]
    except ValueError:
        return None
    if sorted(numbers) != list(range(len(numbers))) or any(not e.isdigit() for e in eval_ids):
        return None
    return numbers


class MetricScores:
    """One metric of one system: its items' :class:`Score` in input order, the plain
    ``mean`` over them, and the Perl's bootstrap mean with its interval (``low``, ``high``).

    ``items[i]`` is item i of :func:`rouge155py.score`'s inputs (eval ``str(i + 1)``);
    for other inputs, the evals in order (``eval_ids`` names them).
    """

    def __init__(self, result: MetricResult, system: str, exact: bool) -> None:
        self.result = result
        self.label = result.label
        self.name = modern_name(result.label)
        self.system = system
        self._exact = exact  # rouge-score's dialect: unrounded rows and mean

    @cached_property
    def _ordered(self) -> tuple[list[str], list[Score]]:
        peer_id = self.result.peer_id
        ids, scores = [], []
        for instance_id, (recall, precision, f) in self.result.instances.items():
            ids.append(eval_id_of(instance_id, peer_id))
            scores.append(Score(precision, recall, f))
        positions = item_positions(ids)
        if positions is not None and positions != list(range(len(ids))):
            order = sorted(range(len(ids)), key=positions.__getitem__)
            ids, scores = [ids[k] for k in order], [scores[k] for k in order]
        return ids, scores

    @property
    def items(self) -> list[Score]:
        """Each item's Score, position i = input item i."""
        return self._ordered[1]

    @property
    def eval_ids(self) -> list[str]:
        """The eval ID of each item (``str(i + 1)`` for the API's item i)."""
        return self._ordered[0]

    @cached_property
    def mean(self) -> Score:
        """The plain mean over the items (5 decimals, as the Perl rounds; unrounded in
        rouge-score's dialect); 0 without items."""
        items = self.items
        if not items:
            return Score(0.0, 0.0, 0.0)
        means = [math.fsum(column) / len(items) for column in zip(*items)]
        return Score(*(means if self._exact else map(_printed, means)))

    def _summary(self, which: str) -> Score:
        summary = self.result.summary
        if summary is None:
            raise UsageError(f"{self.name}: no bootstrap under -t 2 (counting=2), which sums counts")
        recall, precision, f = getattr(summary, which)
        return Score(_printed(precision), _printed(recall), _printed(f))

    @property
    def bootstrap_mean(self) -> Score:
        """The Perl's bootstrap mean (its ``Average_R/P/F``), as printed: it moves with the
        item order and ``resamples``; :attr:`mean` does not."""
        return self._summary("average")

    @property
    def low(self) -> Score:
        """The lower bound of the Perl's bootstrap confidence interval, as printed."""
        return self._summary("lower")

    @property
    def high(self) -> Score:
        """The upper bound of the Perl's bootstrap confidence interval, as printed."""
        return self._summary("upper")

    def to_dict(self) -> dict[str, Any]:
        """``mean``, ``bootstrap_mean``, ``low``, ``high`` and ``items`` as plain dicts and lists."""
        found: dict[str, Any] = {"mean": self.mean._asdict()}
        if self.result.summary is not None:
            for key in ("bootstrap_mean", "low", "high"):
                found[key] = getattr(self, key)._asdict()
        found["items"] = [score._asdict() for score in self.items]
        return found

    def __repr__(self) -> str:
        f = self.mean.fmeasure
        return f"<MetricScores {self.name} of system {self.system}: {len(self.items)} items, mean F {f:.5f}>"


class Viewed(Protocol):
    """What the views read of a report (:class:`~rouge155py.report.Report` is one)."""

    options: Options

    @property
    def systems(self) -> list[str]: ...

    @property
    def names(self) -> list[str]: ...

    def __getitem__(self, key: Union[str, tuple[str, str]]) -> MetricScores: ...


def _views(report: Viewed) -> list[MetricScores]:
    """The report's views, one per (system, name), in its order."""
    return [report[name, system] for system in report.systems for name in report.names]


def _ids_if_not_items(views: list[MetricScores]) -> Optional[list[str]]:
    """The eval IDs where they are not the API's ``1``..``N`` in order."""
    if not views:
        return None
    ids = views[0].eval_ids
    return None if ids == [str(k + 1) for k in range(len(ids))] else ids


def report_dict(report: Viewed) -> dict[str, Any]:
    """The report as a JSON-ready dict in rouge-score's vocabulary (see :meth:`Report.to_dict`)."""
    from .._version import __version__

    o = report.options
    views = _views(report)
    systems: dict[str, dict[str, Any]] = {}
    for view in views:
        systems.setdefault(view.system, {})[view.name] = view.to_dict()
    document: dict[str, Any] = {
        "signature": o.signature(__version__),
        "multi_ref": o.multi_ref or ("best" if o.best_model else "average"),
        "confidence": o.confidence,
        "resamples": o.resamples,
        "items": max((len(v.items) for v in views), default=0),
    }
    ids = _ids_if_not_items(views)
    if ids is not None:
        document["eval_ids"] = ids
    document["systems"] = systems
    return document


def report_frame(report: Viewed) -> Any:
    """The items as a pandas DataFrame (see :meth:`Report.to_frame`)."""
    try:
        import pandas as pd  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise ImportError("Report.to_frame needs pandas: pip install pandas") from None
    index: Optional[ItemIndex] = getattr(report, "item_index", None)
    if index is not None and index.clash:
        raise UsageError(f"Report.to_frame: {index.clash}")
    columns: dict[str, list[Any]] = {"item": [], "system": [], "name": [], **{f: [] for f in _FIELDS}}
    eval_ids: list[str] = []
    for view in _views(report):
        count = len(view.items)
        labels = index.labels if index is not None and len(index.labels) == count else range(count)
        columns["item"].extend(labels)
        columns["system"].extend([view.system] * count)
        columns["name"].extend([view.name] * count)
        for k, field in enumerate(_FIELDS):
            columns[field].extend(score[k] for score in view.items)
        eval_ids.extend(view.eval_ids)
    if _ids_if_not_items(_views(report)) is not None:
        columns["eval_id"] = eval_ids
    return pd.DataFrame(columns).set_index("item")


def short_repr(report: Viewed) -> str:
    """One line: systems, items, names and each one's mean F."""
    systems, names = report.systems, report.names
    shown = ", ".join(systems[:3]) + (", ..." if len(systems) > 3 else "")
    head = f"{len(systems)} system{'s' if len(systems) != 1 else ''} ({shown})"
    if report.options.counting:
        labels = ", ".join(names)
        return f"<Report: {head}, {labels}; -t {report.options.counting} counts>"
    first = [report[name, systems[0]] for name in names] if systems else []
    items = len(first[0].items) if first else 0
    means = " ".join(f"{v.name} {v.mean.fmeasure:.5f}" for v in first)
    more = " (first system)" if len(systems) > 1 else ""
    return f"<Report: {head}, {items} item{'s' if items != 1 else ''}; mean F{more}: {means}>"
