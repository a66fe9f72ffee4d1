"""Pictures for a paper (needs matplotlib: the ``[plot]`` extra): PNG or SVG by the file's suffix.

- :func:`plot_systems`: one panel per metric, each system's average with its
  confidence interval (the report's: the Perl's bootstrap), best at the top.
- :func:`plot_scatter`: one panel per metric, each system's mean score against
  its mean human judgment, with Pearson's r and Kendall's tau-b in the title.
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

import numpy as np

from ..errors import OutputError, UsageError
from .scores import item_scores, measure_index

if TYPE_CHECKING:
    from ..report import Report
    from .judgments import Judgments

__all__ = ["plot_scatter", "plot_systems"]

_MEASURE_NAMES = {"recall": "Recall", "precision": "Precision", "f": "F"}


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise UsageError("plots need matplotlib: pip install 'rouge155py[plot]'") from None
    matplotlib.use("Agg")  # files only: no window, no display needed
    import matplotlib.pyplot as pyplot

    return pyplot


def _path(path: Union[str, os.PathLike]) -> str:  # type: ignore[type-arg]
    name = os.fspath(path)
    if not isinstance(name, str) or not name.lower().endswith((".png", ".svg")):
        raise UsageError(f"a plot is a PNG or an SVG file: its name ends in .png or .svg, got {name!r}")
    return name


def _save(figure: Any, path: str) -> None:
    try:
        with _pyplot().rc_context({"svg.hashsalt": "rouge155py"}):  # SVG ids from the drawing, not at random
            figure.savefig(path, dpi=110, bbox_inches="tight", metadata=_metadata(path))
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        _pyplot().close(figure)


def _metadata(path: str) -> dict[str, Optional[str]]:
    """No date or software version in the file: the same data draws the same bytes."""
    if path.lower().endswith(".svg"):
        return {"Date": None, "Creator": None}
    return {"Software": None}


def _grid(count: int) -> tuple[int, int]:
    columns = min(count, 3)
    return math.ceil(count / columns), columns


def plot_systems(
    report: Report,
    path: Union[str, os.PathLike],  # type: ignore[type-arg]
    measure: str = "f",
    metrics: Optional[Sequence[str]] = None,
) -> None:
    """Each system's average of one measure and its interval, one panel per metric."""
    target = _path(path)
    name, position = measure_index(measure)
    labels = [r.label for r in report.results if metrics is None or r.label in metrics]
    labels = list(dict.fromkeys(labels))
    if not labels:
        raise UsageError("nothing to plot: no metric in the report")
    pyplot = _pyplot()
    rows, columns = _grid(len(labels))
    systems = {report.options.shown_peer_id(r.peer_id) for r in report.results}
    height = max(2.4, 0.28 * len(systems) + 1.0)
    figure, axes = pyplot.subplots(rows, columns, figsize=(4.2 * columns, height * rows), squeeze=False)
    for k, label in enumerate(labels):
        ax = axes[k // columns][k % columns]
        found = [
            (report.options.shown_peer_id(r.peer_id), r.summary)
            for r in report.results
            if r.label == label and r.summary is not None
        ]
        found.sort(key=lambda item: item[1].average[position])
        means = [s.average[position] for _, s in found]
        below = [s.average[position] - s.lower[position] for _, s in found]
        above = [s.upper[position] - s.average[position] for _, s in found]
        places = list(range(len(found)))
        ax.errorbar(means, places, xerr=[below, above], fmt="o", color="#1f4e79", ecolor="#7f9fbf", capsize=3)
        ax.set_yticks(places)
        ax.set_yticklabels([system for system, _ in found])
        ax.set_title(label)
        ax.set_xlabel(f"{_MEASURE_NAMES[name]} ({report.options.confidence_label}% interval)")
        ax.grid(axis="x", alpha=0.3)
    for k in range(len(labels), rows * columns):
        axes[k // columns][k % columns].set_visible(False)
    figure.tight_layout()
    _save(figure, target)


def _crowded(x: Sequence[float], y: Sequence[float]) -> list[bool]:
    """Which points put their label below them: each one close to a point labelled above before it."""
    width = (max(x) - min(x)) or 1.0
    height = (max(y) - min(y)) or 1.0
    above: list[tuple[float, float]] = []
    below = []
    for a, b in zip(x, y):
        near = any(abs(a - c) < 0.06 * width and abs(b - d) < 0.05 * height for c, d in above)
        below.append(near)
        if not near:
            above.append((a, b))
    return below


def plot_scatter(
    report: Report,
    judgments: Judgments,
    path: Union[str, os.PathLike],  # type: ignore[type-arg]
    measure: str = "f",
    judgment: Optional[str] = None,
    metrics: Optional[Sequence[str]] = None,
) -> None:
    """Each judged system's mean score against its mean judgment, one panel per metric."""
    from .correlation import grid, kendall_tau_b, pearson

    target = _path(path)
    name, _ = measure_index(measure)
    judgment = judgment or judgments.columns[0]
    if judgment not in judgments.scores:
        raise UsageError(f"no judgment {judgment!r} (there are: {', '.join(judgments.columns)})")
    scores = item_scores(report, name, metrics)
    pyplot = _pyplot()
    rows, columns = _grid(len(scores))
    figure, axes = pyplot.subplots(rows, columns, figsize=(3.6 * columns, 3.3 * rows), squeeze=False)
    table = judgments.scores[judgment]
    for k, (label, systems) in enumerate(scores.items()):
        where = grid(label, systems, judgments)
        x = [sum(table[(i, s)] for i in where.items) / len(where.items) for s in where.systems]
        y = [sum(systems[s][i] for i in where.items) / len(where.items) for s in where.systems]
        ax = axes[k // columns][k % columns]
        ax.scatter(x, y, s=18, color="#1f4e79")
        for system, a, b, below in zip(where.systems, x, y, _crowded(x, y)):
            offset = (3, -8 if below else 3)
            ax.annotate(
                system, (a, b), fontsize=6, xytext=offset, textcoords="offset points", color="#555555"
            )
        ax.margins(x=0.12, y=0.08)

        r = float(pearson(np.array(x), np.array(y)))
        tau = float(kendall_tau_b(np.array(x), np.array(y)))
        ax.set_title(f"{label}: r = {r:.3f}, tau = {tau:.3f}", fontsize=9)
        ax.set_xlabel(f"{judgment} (mean per system)", fontsize=8)
        ax.set_ylabel(f"{label} {_MEASURE_NAMES[name]}", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    for k in range(len(scores), rows * columns):
        axes[k // columns][k % columns].set_visible(False)
    figure.tight_layout()
    _save(figure, target)
