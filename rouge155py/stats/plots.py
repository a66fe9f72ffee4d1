"""Pictures for a paper (needs matplotlib: the ``[plot]`` extra): PNG or SVG by the file's suffix.

- :func:`plot_systems`: one panel per metric, each system's average with its
  confidence interval (the report's: the Perl's bootstrap), best at the top.
- :func:`plot_scatter`: one panel per metric, each system's mean score against
  its mean human judgment, with Pearson's r and Kendall's tau-b in the title.

Each picture is drawn in matplotlib's default style whatever the caller's settings, its
labels as plain text (a ``$`` is a dollar, never math), and is written only once it is
drawn: the same data draws the same bytes, and a picture that cannot be drawn is an
:class:`~rouge155py.errors.OutputError` that leaves the file untouched.
"""

from __future__ import annotations

import io
import math
import os
import warnings
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Sequence, Union

import numpy as np

from ..errors import OutputError, RougeError, UsageError, described, install_hint
from ..report.writing import escape_controls, escape_surrogates
from .scores import item_scores, measure_index

if TYPE_CHECKING:
    from ..report import Report
    from .judgments import Judgments
    from .significance import Comparisons

__all__ = ["plot_curves", "plot_scatter", "plot_systems"]

_MEASURE_NAMES = {"recall": "Recall", "precision": "Precision", "f": "F"}

#: On top of matplotlib's defaults (where text is never handed to LaTeX): SVG ids from the
#: drawing, not at random.
_STYLE = {"svg.hashsalt": "rouge155py"}


def _text(label: str) -> str:
    """A label as one line of text: a control character (a newline too) as ``\\xNN``, and a
    byte that was not UTF-8 as ``\\xNN`` (an SVG is UTF-8, and XML holds no control characters);
    each ``$`` escaped, which matplotlib (3.5 has no ``text.parse_math``) then draws as a dollar
    instead of reading math between two of them."""
    return escape_controls(escape_surrogates(label)).replace("$", "\\$")


def _path(path: Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]) -> str:
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise UsageError(f"a plot's path is a file name, got {described(path)}")
    name = os.fsdecode(path)
    if not name.lower().endswith((".png", ".svg")):
        raise UsageError(f"a plot is a PNG or an SVG file: its name ends in .png or .svg, got {name!r}")
    if "\0" in name:
        raise UsageError(f"a plot's file name holds a NUL character: {name!r}")
    return name


def _checked_report(report: Report) -> None:
    from ..report import Report

    if not isinstance(report, Report):
        raise UsageError(f"a plot draws a Report (of evaluate or score), got {described(report)}")


def _labels(report: Report, metrics: Optional[Sequence[str]]) -> list[str]:
    """The metrics to draw, in the report's order: all of them, or those named (each must be there)."""
    known = list(dict.fromkeys(r.label for r in report.results))
    if not known:
        raise UsageError("nothing to plot: the report has no metric")
    if metrics is None:
        return known
    if isinstance(metrics, (str, bytes)) or not isinstance(metrics, Iterable):
        raise UsageError(f"metrics is a list of metric labels (['ROUGE-1']), got {described(metrics)}")
    wanted = list(metrics)
    missing = [label for label in wanted if label not in known]
    if missing:
        shown = ", ".join(described(label) for label in missing)
        raise UsageError(f"no metric {shown} in the report (it has: {', '.join(known)})")
    return [label for label in known if label in wanted]


def _metadata(path: str) -> dict[str, Optional[str]]:
    """No date or software version in the file: the same data draws the same bytes."""
    if path.lower().endswith(".svg"):
        return {"Date": None, "Creator": None}
    return {"Software": None}


def _grid(count: int) -> tuple[int, int]:
    columns = min(count, 3)
    return math.ceil(count / columns), columns


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _save(path: str, draw: Callable[[Any], Any]) -> None:
    """Draw the picture (``draw`` takes matplotlib's ``Figure`` class and returns the figure,
    its axes drawn), then write it to ``path``."""
    try:
        import matplotlib.style
        from matplotlib.figure import Figure

        # Warnings of the drawing (a glyph missing from the font: a box in its place; a label
        # too long for tight margins) are matplotlib's own; the picture is drawn all the same.
        with warnings.catch_warnings(), matplotlib.style.context(["default", _STYLE]):
            warnings.simplefilter("ignore")
            figure = draw(Figure)
            drawn = io.BytesIO()
            figure.savefig(
                drawn, format=path[-3:].lower(), dpi=110, bbox_inches="tight", metadata=_metadata(path)
            )
    except ImportError as error:
        if error.name == "matplotlib":
            raise UsageError(f"plots need matplotlib: {install_hint('matplotlib', 'plot')}") from None
        raise OutputError(f"cannot draw {path}: matplotlib cannot be loaded: {_one_line(error)}") from None
    except (MemoryError, RougeError):
        raise
    except OSError as error:  # a font or a module that cannot be opened (ulimit -n)
        where = f" ({error.filename})" if error.filename else ""
        raise OutputError(f"cannot draw {path}: {error.strerror or _one_line(error)}{where}") from None
    except Exception as error:  # whatever matplotlib refuses to draw (an image past its size limit)
        raise OutputError(f"cannot draw {path}: {_one_line(error)}") from None
    try:
        with open(path, "wb") as file:
            file.write(drawn.getbuffer())
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None


def plot_systems(
    report: Report,
    path: Union[str, os.PathLike[str]],
    measure: str = "f",
    metrics: Optional[Sequence[str]] = None,
    comparisons: Optional[Comparisons] = None,
) -> None:
    """Each system's average of one measure and its interval, one panel per metric.

    The interval is drawn as the report gives it, even where it leaves out the average (the
    Perl's arithmetic puts an average of equal scores a rounding error outside; ``-r 1`` and
    ``-r 2`` read ranks past the end as 0). With ``comparisons`` made against a baseline, the
    baseline's average is a dashed line in each panel, its name says ``(baseline)``, and a
    system that differs from it significantly gets a dagger after its name.
    """
    target = _path(path)
    _checked_report(report)
    name, position = measure_index(measure)
    labels = _labels(report, metrics)
    shown = report.options.shown_peer_id
    baseline = comparisons.baseline if comparisons is not None else None
    panels = []
    for label in labels:
        found = []
        base = None
        for r in report.results:
            if r.label != label or r.summary is None:
                continue
            system = shown(r.peer_id)
            if system == baseline:
                base = r.summary.average[position]
                system += " (baseline)"
            elif comparisons is not None and baseline is not None:
                compared = comparisons.against(label, name, system)
                if compared is not None and compared.significant(comparisons.settings.level):
                    system += " \u2020"
            found.append((_text(system), r.summary))
        found.sort(key=lambda item: item[1].average[position])
        panels.append((_text(label), found, base))
    if not any(found for _, found, _ in panels):
        raise UsageError("nothing to plot: the report holds no average (-t 2 holds counts)")
    systems = {r.peer_id for r in report.results}
    axis = f"{_MEASURE_NAMES[name]} ({_text(str(report.options.confidence_label))}% interval)"

    def draw(figure_class: Any) -> Any:
        rows, columns = _grid(len(panels))
        height = max(2.4, 0.28 * len(systems) + 1.0)
        figure = figure_class(figsize=(4.2 * columns, height * rows))
        axes = figure.subplots(rows, columns, squeeze=False)
        for k, (label, found, base) in enumerate(panels):
            ax = axes[k // columns][k % columns]
            places = list(range(len(found)))
            if base is not None:
                ax.axvline(base, color="#b35900", linestyle="--", linewidth=1)
            lows = [s.lower[position] for _, s in found]
            highs = [s.upper[position] for _, s in found]
            ax.hlines(places, lows, highs, color="#7f9fbf")
            ax.plot(
                lows + highs, places + places, linestyle="none", marker="|", markersize=6, color="#7f9fbf"
            )
            ax.plot([s.average[position] for _, s in found], places, "o", color="#1f4e79")
            ax.set_yticks(places)
            ax.set_yticklabels([system for system, _ in found])
            ax.set_title(label)
            ax.set_xlabel(axis)
            ax.grid(axis="x", alpha=0.3)
        for k in range(len(panels), rows * columns):
            axes[k // columns][k % columns].set_visible(False)
        figure.tight_layout()
        return figure

    _save(target, draw)


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
    path: Union[str, os.PathLike[str]],
    measure: str = "f",
    judgment: Optional[str] = None,
    metrics: Optional[Sequence[str]] = None,
    extra: Optional[Mapping[str, Mapping[str, Mapping[str, float]]]] = None,
) -> None:
    """Each judged system's mean score against its mean judgment, one panel per metric;
    ``extra``: other metrics' scores (name -> system -> eval ID -> score), a panel each after."""
    from .correlation import grid, kendall_tau_b, pearson
    from .judgments import Judgments

    target = _path(path)
    _checked_report(report)
    if not isinstance(judgments, Judgments):
        raise UsageError(f"judgments must be Judgments (of read_judgments), got {described(judgments)}")
    if not judgments.columns:
        raise UsageError(f"{judgments.name}: no judgment to plot against")
    name, _ = measure_index(measure)
    judgment = judgments.columns[0] if judgment is None else judgment
    if not isinstance(judgment, str) or judgment not in judgments.scores:
        raise UsageError(f"no judgment {described(judgment)} (there are: {', '.join(judgments.columns)})")
    scores: dict[str, Mapping[str, Mapping[str, float]]] = dict(
        item_scores(report, name, _labels(report, metrics))
    )
    scores.update(extra or {})
    table = judgments.scores[judgment]
    panels = []
    for label, systems in scores.items():
        where = grid(label, systems, judgments)
        x = [sum(table[(i, s)] for i in where.items) / len(where.items) for s in where.systems]
        y = [sum(systems[s][i] for i in where.items) / len(where.items) for s in where.systems]
        r = float(pearson(np.array(x), np.array(y)))
        tau = float(kendall_tau_b(np.array(x), np.array(y)))
        title = f"{_text(label)}: r = {r:.3f}, tau = {tau:.3f}"
        axis = _text(label) if extra and label in extra else f"{_text(label)} {_MEASURE_NAMES[name]}"
        panels.append((title, axis, [_text(s) for s in where.systems], x, y))
    across = f"{_text(judgment)} (mean per system)"

    def draw(figure_class: Any) -> Any:
        rows, columns = _grid(len(panels))
        figure = figure_class(figsize=(4.4 * columns, 4.0 * rows))
        axes = figure.subplots(rows, columns, squeeze=False)
        for k, (title, label, systems, x, y) in enumerate(panels):
            ax = axes[k // columns][k % columns]
            ax.scatter(x, y, s=18, color="#1f4e79")
            for system, a, b, below in zip(systems, x, y, _crowded(x, y)):
                offset = (3, -8 if below else 3)
                ax.annotate(
                    system, (a, b), fontsize=8, xytext=offset, textcoords="offset points", color="#555555"
                )
            ax.margins(x=0.12, y=0.08)
            ax.set_title(title, fontsize=11)
            ax.set_xlabel(across, fontsize=10)
            ax.set_ylabel(label, fontsize=10)  # another metric's name alone: it has no R, P, F
            ax.tick_params(labelsize=9)
            ax.grid(alpha=0.3)
        for k in range(len(panels), rows * columns):
            axes[k // columns][k % columns].set_visible(False)
        figure.tight_layout()
        return figure

    _save(target, draw)


def plot_curves(
    points: Sequence[Any], path: Union[str, os.PathLike[str]], across: str = "references per eval"
) -> None:
    """A reference curve's or an aggregation curve's points (:func:`~.references.reference_curve`,
    :func:`~.correlation.aggregation_curve`): each variant's coefficient against the number of
    references (or the group size), a line per variant, a reference curve's lowest and highest
    over the subsets as a band."""
    target = _path(path)
    lines: dict[str, list[tuple[float, float, float, float]]] = {}
    for point in points:
        x = getattr(point, "across", None)
        if x is None or not hasattr(point, "variant") or not hasattr(point, "value"):
            raise UsageError(
                f"a curve's points are ReferencePoint or AggregationPoint, got {described(point)}"
            )
        low, high = getattr(point, "low", point.value), getattr(point, "high", point.value)
        lines.setdefault(_text(point.variant), []).append((float(x), point.value, low, high))
    if not lines:
        raise UsageError("nothing to plot: no point")

    def draw(figure_class: Any) -> Any:
        figure = figure_class(figsize=(6.4, 4.2))
        ax = figure.subplots()
        for variant, found in lines.items():
            found.sort()
            xs = [x for x, _, _, _ in found]
            ax.plot(xs, [v for _, v, _, _ in found], marker="o", label=variant)
            ax.fill_between(xs, [lo for _, _, lo, _ in found], [hi for _, _, _, hi in found], alpha=0.15)
        ax.set_xlabel(across, fontsize=10)
        ax.set_ylabel("correlation with the judgment", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=9)
        figure.tight_layout()
        return figure

    _save(target, draw)


def plot_king(rows: Sequence[Any], path: Union[str, os.PathLike[str]]) -> None:
    """QARLA's KING of each set of metrics (:func:`~.qarla.king_table`): a bar each, its interval
    where it was drawn; the higher, the better the set tells a model from a peer."""
    target = _path(path)
    if not rows:
        raise UsageError("nothing to plot: no KING")
    names = [_text(" + ".join(row.metrics)) for row in rows]
    values = [row.king.value for row in rows]
    below = [row.king.value - row.king.low for row in rows]
    above = [row.king.high - row.king.value for row in rows]

    def draw(figure_class: Any) -> Any:
        figure = figure_class(figsize=(6.4, 1.2 + 0.45 * len(rows)))
        ax = figure.subplots()
        places = list(range(len(rows)))[::-1]
        ax.barh(places, values, xerr=[below, above], color="#4c72b0", capsize=3)
        ax.set_yticks(places)
        ax.set_yticklabels(names, fontsize=9)
        ax.set_xlim(0, 1)
        ax.set_xlabel("KING: share of models that beat every peer", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        figure.tight_layout()
        return figure

    _save(target, draw)
