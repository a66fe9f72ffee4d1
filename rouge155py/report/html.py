"""The report as one self-contained HTML page (``--format html``, :meth:`Report.to_html`).

No network and no file beside it: styles, a picture (SVG) and a small script are inside. The
page holds the systems table (each metric's average F with its confidence interval, the best
of each column in bold), a picture of those intervals, and the items table (each eval's F for
every system and metric). Both tables are plain HTML, readable with JavaScript off. With it,
the items table sorts by any column or by the difference between two systems on a metric,
and a click on an item shows each system's summary beside each reference, as ROUGE read them,
with the matched unigrams, bigrams and ROUGE-L's hits marked (:mod:`rouge155py.report.items`).
The item view needs the texts: a run of the command line reads its inputs again for it, a
report of :meth:`rouge155py.Rouge.score` keeps them; a report made from rows only (an
accumulator's, batches') has the tables alone.
"""

from __future__ import annotations

import json
import math
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Protocol, Sequence

from .._version import __version__
from ..errors import UsageError
from ..metrics.scoring import fmt5
from .items import ItemTexts, item_texts, matches
from .results import MetricResult, eval_id_of
from .writing import escape_surrogates

if TYPE_CHECKING:
    from ..inputs.config import EvalConfig
    from ..settings.options import Options


class Report(Protocol):
    """What the page reads of a :class:`rouge155py.Report`."""

    options: Options
    results: list[MetricResult]

    def texts_read(self) -> Optional[EvalConfig]: ...


__all__ = ["format_html"]


def _text(value: str) -> str:
    """An ID or label as HTML text: escaped, valid UTF-8."""
    return escape(escape_surrogates(value))


def _number(value: float) -> str:
    """A score as the Perl's report prints it: 5 decimals, ``Inf``/``NaN`` spelled as it does."""
    return fmt5(value).strip()


def format_html(
    report: Report,
    marked: frozenset[tuple[str, str]] = frozenset(),
    baseline: Optional[str] = None,
    analyses: Sequence[tuple[str, str]] = (),
) -> str:
    """The page (see the module). ``marked``: the (system, metric label) cells that differ
    significantly from the ``baseline`` system (a dagger, :mod:`rouge155py.stats`'s paired
    tests); ``analyses``: (title, text table) sections added after the systems."""
    if report.options.counting:
        raise UsageError("--format html shows scores: not with -t 1 or -t 2 (counts)")
    results = [r for r in report.results if r.summary is not None]
    labels = list(dict.fromkeys(r.label for r in results))
    systems = list(dict.fromkeys(r.peer_id for r in results))
    by_key = {(r.peer_id, r.label): r for r in results}
    items = _item_scores(results)
    texts = _texts(report)
    parts = [
        _HEAD.replace("{title}", "ROUGE report").replace("{style}", _resource("page.css")),
        "<header><h1>ROUGE report</h1>",
        f"<p class=meta>rouge155py {__version__}; {len(systems)} system(s), {len(items)} item(s); "
        f"<code>{_text(report.options.signature(__version__))}</code></p></header>",
        _systems_table(labels, systems, by_key, report, marked, baseline),
        *(
            f"<section class=analysis><h2>{_text(title)}</h2><pre>{_text(table)}</pre></section>"
            for title, table in analyses
        ),
        _picture(labels, systems, by_key),
        _items_table(labels, systems, items),
        "<section id=item hidden><h2>Item <span id=item-id></span></h2>"
        "<p class=controls>system <select id=item-system></select> "
        "<label><input type=checkbox id=show-u checked> <span class=u>unigrams</span></label> "
        "<label><input type=checkbox id=show-b checked> <span class=b>bigrams</span></label> "
        "<label><input type=checkbox id=show-l checked> <span class=l>ROUGE-L hits</span></label> "
        "<span class=s>not counted</span></p><div id=item-body></div></section>",
        '<script type="application/json" id=data>',
        _data(labels, systems, items, texts),
        "</script>",
        f"<script>\n{_resource('page.js')}</script>",
        "</body></html>\n",
    ]
    return "\n".join(parts)


def _item_scores(results: list[MetricResult]) -> dict[str, dict[tuple[str, str], float]]:
    """Eval ID -> (system, metric) -> the instance's F, in the report's eval order."""
    found: dict[str, dict[tuple[str, str], float]] = {}
    for result in results:
        for instance_id, row in result.instances.items():
            found.setdefault(eval_id_of(instance_id, result.peer_id), {})[(result.peer_id, result.label)] = (
                float(row[2])
            )
    return found


def _texts(report: Report) -> Optional[list[ItemTexts]]:
    """The items' texts, where the report can have them (see the module); None: tables alone."""
    if report.options.be_mode is not None:
        return None
    config = report.texts_read()
    return None if config is None else list(item_texts(report.options, config))


def _systems_table(
    labels: list[str],
    systems: list[str],
    by_key: dict,
    report: Report,
    marked: frozenset[tuple[str, str]],
    baseline: Optional[str],
) -> str:
    best = {
        label: max(
            (by_key[(s, label)].summary.average[2] for s in systems if (s, label) in by_key), default=None
        )
        for label in labels
    }
    confidence = report.options.confidence_label or "95"
    rows = []
    display = report.options.shown_peer_id
    for system in systems:
        name = _text(display(system)) + (
            " <span class=baseline>(baseline)</span>" if display(system) == baseline else ""
        )
        cells = [f"<th scope=row>{name}</th>"]
        for label in labels:
            result = by_key.get((system, label))
            if result is None:
                cells.append("<td></td>")
                continue
            average, low, high = (result.summary.average[2], result.summary.lower[2], result.summary.upper[2])
            shown = _number(average)
            if average == best[label]:
                shown = f"<strong>{shown}</strong>"
            if (display(system), label) in marked:
                shown += '<sup class=differs title="differs significantly from the baseline">\u2020</sup>'
            cells.append(f"<td>{shown} <span class=ci>[{_number(low)}, {_number(high)}]</span></td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    head = "".join(f"<th scope=col>{_text(label)} F</th>" for label in labels)
    return (
        "<section id=systems><h2>Systems</h2>"
        f"<table class=systems><thead><tr><th scope=col>system</th>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"<p class=note>Each metric's average F (the Perl's) and its {_text(confidence)}% confidence "
        "interval (its bootstrap); the best of each column in bold"
        + (
            "; \u2020 differs significantly from the baseline (the paired test below)"
            if baseline is not None
            else ""
        )
        + ".</p></section>"
    )


def _picture(labels: list[str], systems: list[str], by_key: dict) -> str:
    """Each metric's F averages as dots on their intervals, a row per system (SVG)."""
    row, left, width = 18, 150, 420
    height = row * (len(systems) + 1)
    panels = []
    for label in labels:
        marks = []
        for k, system in enumerate(systems):
            result = by_key.get((system, label))
            if result is None:
                continue
            y = row * (k + 1)
            average, low, high = (result.summary.average[2], result.summary.lower[2], result.summary.upper[2])
            if not all(map(math.isfinite, (average, low, high))):
                continue

            def x(value: float) -> float:
                return round(left + width * min(max(value, 0.0), 1.0), 1)

            marks.append(
                f'<text x="{left - 6}" y="{y + 4}" text-anchor="end">{_text(system)}</text>'
                f'<line x1="{x(low)}" y1="{y}" x2="{x(high)}" y2="{y}" class=ci />'
                f'<circle cx="{x(average)}" cy="{y}" r="4"><title>{_text(system)}: {_number(average)} '
                f"[{_number(low)}, {_number(high)}]</title></circle>"
            )
        ticks = [(left + width * t / 4, t / 4) for t in range(5)]
        axis = "".join(
            f'<line x1="{at}" y1="{row / 2}" x2="{at}" y2="{height}" class=grid />'
            f'<text x="{at}" y="{height + 14}" text-anchor="middle">{value:.2f}</text>'
            for at, value in ticks
        )
        panels.append(
            f'<figure><figcaption>{_text(label)} F</figcaption><svg xmlns="http://www.w3.org/2000/svg" '
            f'role="img" width="{left + width + 20}" height="{height + 20}" '
            f'viewBox="0 0 {left + width + 20} {height + 20}">{axis}{"".join(marks)}</svg></figure>'
        )
    return f"<section id=picture><h2>Intervals</h2>{''.join(panels)}</section>"


def _items_table(
    labels: list[str], systems: list[str], items: dict[str, dict[tuple[str, str], float]]
) -> str:
    columns = [(s, label) for label in labels for s in systems]
    head = "".join(
        f'<th scope=col data-sort=num data-col="{k + 1}">{_text(s)} {_text(label)}</th>'
        for k, (s, label) in enumerate(columns)
    )
    body = []
    for position, (eval_id, scores) in enumerate(items.items()):
        cells = "".join(f"<td>{_number(scores[c])}</td>" if c in scores else "<td></td>" for c in columns)
        body.append(f"<tr data-item={position}><th scope=row>{_text(eval_id)}</th>{cells}</tr>")
    return (
        "<section id=items><h2>Items</h2>"
        "<p class=controls hidden id=item-controls>difference: <select id=diff-metric></select> "
        "<select id=diff-a></select> minus <select id=diff-b></select> "
        "(click a column's head to sort; click an item to see its texts)</p>"
        f"<table class=items id=items-table><thead><tr><th scope=col data-sort=id data-col=0>eval</th>{head}"
        "<th scope=col data-sort=num class=diff hidden>difference</th></tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table></section>"
    )


def _finite(value: Optional[float]) -> Optional[float]:
    return value if value is not None and math.isfinite(value) else None


def _marks(rows: list[list[int]]) -> list[str]:
    return ["".join(f"{m:x}" for m in sentence) for sentence in rows]


def _data(
    labels: list[str],
    systems: list[str],
    items: dict[str, dict[tuple[str, str], float]],
    texts: Optional[list[ItemTexts]],
) -> str:
    """The page's data for its script (JSON, ASCII, no ``<``): scores, and the items' texts."""
    document: dict[str, Any] = {
        "labels": labels,
        "systems": systems,
        "scores": [
            [[_finite(scores.get((s, label))) for s in systems] for label in labels]
            for scores in items.values()
        ],
        "ids": list(items),
        "texts": None,
    }
    if texts is not None:
        by_id = {t.eval_id: t for t in texts}
        shown: list[Optional[dict[str, Any]]] = []
        for eval_id in items:
            item = by_id.get(eval_id)
            if item is None:
                shown.append(None)
                continue
            peers = {}
            for system, peer in item.peers.items():
                against = [matches(peer, reference) for reference in item.references]
                peers[system] = {
                    "words": peer.words,
                    "marks": [[_marks(p), _marks(r)] for p, r in against],
                }
            shown.append(
                {
                    "references": [r.words for r in item.references],
                    "reference_ids": item.reference_ids,
                    "peers": peers,
                }
            )
        document["texts"] = shown
    text = json.dumps(document, ensure_ascii=True, separators=(",", ":"), allow_nan=False, default=str)
    return text.replace("<", "\\u003c")


_HEAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{title}</title>
<style>
{style}</style></head><body>"""


def _resource(name: str) -> str:
    """A file of the page (its style, its script), shipped beside this module."""
    return (Path(__file__).with_name(name)).read_text(encoding="utf-8")
