"""Tables for a paper: systems x metrics, comparisons, and correlations laid out as the ROUGE paper's.

Each table is rendered as plain text (aligned columns), Markdown or LaTeX
(``booktabs`` rules, which a comment on its first line names). Scores are printed
with 5 decimals as the Perl prints them (an infinite or undefined one as ``Inf``,
``-Inf``, ``NaN``), coefficients and p-values with 4. Every text (system IDs, metric and judgment names, the
caption) is escaped for its format: Markdown's ``\\ | * _ ` ~``, HTML and links,
LaTeX's ten special characters; a line break or another control character is
shown as ``\\xNN`` in all three, a lone surrogate as JSON's output shows it.

- :func:`systems_table`: one row per system, one column per metric: the mean
  and its confidence interval (the report's, the Perl's bootstrap), the best
  of each column in bold, a dagger where a system differs from the baseline
  (Holm-adjusted p-value below the level of the comparisons).
- :func:`comparisons_table`: one row per comparison.
- :func:`correlation_table`: as Table 1 of Lin (2004): the ROUGE variants as
  rows, the settings of the runs (e.g. case, stem, stop) within each level as
  columns; the best of each column in bold.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, Collection, Optional, Sequence

from ..errors import UsageError, described
from ..metrics.scoring import fmt5
from ..report.writing import escape_controls, escape_surrogates
from .correlation import Correlations
from .scores import measure_index
from .significance import Comparisons

if TYPE_CHECKING:
    from ..report import Report

__all__ = [
    "TABLE_FORMATS",
    "comparisons_table",
    "correlation_table",
    "curve_table",
    "king_table",
    "metrics_rows",
    "metrics_table",
    "named",
    "power_table",
    "qarla_table",
    "render",
    "systems_table",
]

TABLE_FORMATS = ("text", "markdown", "latex")
#: How a measure is shown.
_SHOWN = {"recall": "R", "precision": "P", "f": "F"}
#: A cell: its text, whether it is bold, whether it carries the significance mark.
Cell = tuple[str, bool, bool]
_LATEX_SPECIAL = re.compile(r"([&%$#_{}~^\\])")
_LATEX_WORDS = {"~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}
#: What Markdown reads as more than text: a backslash, a cell's end, emphasis and code marks,
#: HTML (``&``, ``>``, and a ``<`` that opens a tag), the ``]`` of a link or image ``](``.
_MARKDOWN_SPECIAL = re.compile(r"[\\|*_`~&>]|<(?=[A-Za-z/!?])|\](?=\()")
_MARKDOWN_WORDS = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _plain(text: str) -> str:
    """A cell's text on one line and valid UTF-8: line breaks and other controls as ``\\xNN``, a
    lone surrogate as JSON's output shows it (``\\xNN`` for a byte, ``\\ud800``)."""
    return escape_surrogates(escape_controls(text))


def _latex_text(text: str) -> str:
    """Text as LaTeX typesets it, whatever it holds: its ten special characters escaped."""
    return _LATEX_SPECIAL.sub(lambda m: _LATEX_WORDS.get(m.group(1), "\\" + m.group(1)), _plain(text))


def _markdown_text(text: str) -> str:
    """Text as Markdown shows it: no cell break, emphasis, link, image or HTML of its own."""
    return _MARKDOWN_SPECIAL.sub(lambda m: _MARKDOWN_WORDS.get(m.group(), "\\" + m.group()), _plain(text))


def _shown(cell: Cell, fmt: str) -> str:
    text, bold, mark = cell
    if fmt == "markdown":
        text = _markdown_text(text)
        text = f"**{text}**" if bold else text
        return text + ("†" if mark else "")
    if fmt == "latex":
        text = _latex_text(text)
        text = f"\\textbf{{{text}}}" if bold else text
        return text + ("$^\\dagger$" if mark else "")
    return ("*" if bold else "") + _plain(text) + ("+" if mark else "")


def render(header: Sequence[str], rows: Sequence[Sequence[Cell]], fmt: str, caption: str = "") -> str:
    """A table in a format of :data:`TABLE_FORMATS`; ``caption`` below it (a LaTeX caption)."""
    if not isinstance(fmt, str) or fmt not in TABLE_FORMATS:
        raise UsageError(f"the table format must be one of {', '.join(TABLE_FORMATS)}, got {described(fmt)}")
    head = [(name, False, False) for name in header]
    shown = [[_shown(cell, fmt) for cell in row] for row in [head, *rows]]
    if fmt == "markdown":
        lines = [
            f"| {' | '.join(shown[0])} |",
            "|" + "|".join(["---", *(["---:"] * (len(header) - 1))]) + "|",
        ]
        lines += [f"| {' | '.join(row)} |" for row in shown[1:]]
        return "\n".join(lines) + (f"\n\n{_markdown_text(caption)}\n" if caption else "\n")
    if fmt == "latex":
        spec = "l" + "r" * (len(header) - 1)
        lines = [
            "% needs \\usepackage{booktabs}",
            "\\begin{table}[t]",
            "\\centering",
            f"\\begin{{tabular}}{{{spec}}}",
            "\\toprule",
        ]
        lines.append(" & ".join(shown[0]) + " \\\\")
        lines.append("\\midrule")
        lines += [" & ".join(row) + " \\\\" for row in shown[1:]]
        lines += ["\\bottomrule", "\\end{tabular}"]
        if caption:
            lines.append(f"\\caption{{{_latex_text(caption)}}}")
        return "\n".join([*lines, "\\end{table}"]) + "\n"
    widths = [max(len(row[k]) for row in shown) for k in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) if k == 0 else cell.rjust(w) for k, (cell, w) in enumerate(zip(row, widths)))
        for row in shown
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    caption = caption.replace(" in bold", " marked *")  # plain text has no bold: it marks with *
    return "\n".join(line.rstrip() for line in lines) + (f"\n\n{_plain(caption)}\n" if caption else "\n")


def named(metric: str, lower_is_better: Collection[str]) -> str:
    """A metric's name as the tables and plots show it: with its direction where lower is better."""
    return f"{metric} (lower is better)" if metric in lower_is_better else metric


def _score(value: float) -> str:
    """A score as the Perl prints it (``Inf``, ``NaN`` without the padding of ``%7.5f``)."""
    return fmt5(value).lstrip()


def _best(values: Sequence[float]) -> float:
    defined = [v for v in values if not math.isnan(v)]
    return max(defined) if defined else math.nan


def systems_table(
    report: Report,
    fmt: str = "markdown",
    measure: str = "f",
    metrics: Optional[Sequence[str]] = None,
    comparisons: Optional[Comparisons] = None,
    intervals: bool = True,
) -> str:
    """Systems x metrics: the report's average of one measure, its interval, the best in bold, and
    (with ``comparisons`` made against a baseline) a dagger where a system differs from it."""
    name, position = measure_index(measure)
    if report.options.counting:
        raise UsageError("a systems table needs -t 0 averages (under -t 1/-t 2 there are counts)")
    labels: list[str] = []
    cells: dict[tuple[str, str], tuple[float, float, float]] = {}
    for result in report.results:
        if metrics is not None and result.label not in metrics:
            continue
        if result.label not in labels:
            labels.append(result.label)
        s = result.summary
        if s is not None:
            system = report.options.shown_peer_id(result.peer_id)
            cells[(system, result.label)] = (s.average[position], s.lower[position], s.upper[position])
    systems = sorted({system for system, _ in cells})
    best = {
        label: _best([float(fmt5(cells[(s, label)][0])) for s in systems if (s, label) in cells])
        for label in labels
    }
    baseline = comparisons.baseline if comparisons is not None else None
    rows: list[list[Cell]] = []
    for system in systems:
        row: list[Cell] = [(system + (" (baseline)" if system == baseline else ""), False, False)]
        for label in labels:
            if (system, label) not in cells:
                row.append(("", False, False))
                continue
            average, low, high = cells[(system, label)]
            text = _score(average) + (f" [{_score(low)}, {_score(high)}]" if intervals else "")
            mark = False
            if comparisons is not None:
                compared = comparisons.against(label, name, system)
                mark = compared is not None and compared.significant(comparisons.settings.level)
            row.append((text, float(fmt5(average)) == best[label], mark))
        rows.append(row)
    caption = (
        f"{_SHOWN[name]} of each system: the average and its {report.options.confidence_label}% interval"
    )
    caption += f" ({report.options.resample_count} resamples); the best of each metric in bold."
    if comparisons is not None and baseline is not None:
        settings = comparisons.settings
        caption += (
            f" Marked: differs from {baseline} ({settings.test}, {settings.samples} samples,"
            f" seed {settings.seed}, Holm-adjusted p < {settings.level:g})."
        )
    return render(["system", *labels], rows, fmt, caption)


def _number(value: float, digits: int = 4) -> str:
    return "nan" if math.isnan(value) else f"{value:.{digits}f}"


def _p(value: float) -> str:
    return "<0.0001" if value < 1e-4 else _number(value)


#: A comparison's numbers in CSV, as the tables show them: scores to 5 decimals, p to 4 digits.
_CSV_DIGITS = {"mean": 5, "other_mean": 5, "difference": 5, "low": 5, "high": 5}


def comparisons_csv_rows(comparisons: Comparisons) -> list[dict[str, Any]]:
    """:meth:`Comparisons.to_dicts` for CSV: the measure as the table writes it (``F``), scores
    rounded as the report rounds them, p-values to 4 significant digits (numbers, not text)."""
    rows = comparisons.to_dicts()
    for row in rows:
        row["measure"] = _SHOWN.get(row["measure"], row["measure"])
        for name, digits in _CSV_DIGITS.items():
            row[name] = round(row[name], digits)
        for name in ("p_value", "p_holm"):
            row[name] = float(f"{row[name]:.4g}")
    return rows


def comparisons_table(comparisons: Comparisons, fmt: str = "markdown") -> str:
    """One row per comparison: metric, systems, difference and interval, p-value, Holm's."""
    s = comparisons.settings
    permuted = s.test == "permutation"  # its p beside the bootstrap's, whose draws make the interval
    header = ["metric", "measure", "system", "vs", "items", "difference", f"{s.confidence:g}% interval"]
    header += ["p (bootstrap)", "p (permutation)", "p (Holm)"] if permuted else ["p", "p (Holm)"]
    rows: list[list[Cell]] = []
    for c in comparisons.rows:
        significant = c.significant(s.level)
        texts = [
            c.metric,
            _SHOWN.get(c.measure, c.measure),
            c.system,
            c.other,
            str(c.items),
            f"{c.difference:+.5f}",
        ]
        texts.append(f"[{c.low:+.5f}, {c.high:+.5f}]")
        if permuted:
            texts.append(_p(c.p_bootstrap))
        texts += [_p(c.p_value) + (" (exact)" if c.exact else ""), _p(c.p_holm)]
        rows.append([(text, False, significant and k == len(texts) - 1) for k, text in enumerate(texts)])
    caption = f"{s.test}, {s.samples} samples, seed {s.seed}; marked: Holm-adjusted p < {s.level:g}."
    if permuted:
        caption += (
            " The interval and p (bootstrap) come from the paired bootstrap's draws; p (permutation)"
            " and its Holm adjustment decide the mark."
        )
    return render(header, rows, fmt, caption)


def _parts(variant: str) -> tuple[str, str]:
    """A variant's metric and measure (``ROUGE-1 R [stem]`` -> ``ROUGE-1 R``) and its setting."""
    found = re.fullmatch(r"(.*?)(?: \[(.*)\])?", variant)
    assert found is not None
    return found.group(1), found.group(2) or ""


def correlation_table(
    correlations: Correlations,
    fmt: str = "markdown",
    coefficient: str = "pearson",
    judgment: Optional[str] = None,
    levels: Optional[Sequence[str]] = None,
    intervals: bool = False,
    p_values: bool = False,
) -> str:
    """Variants as rows; per level, one column per setting (the runs' ``[setting]`` suffixes),
    as Table 1 of Lin (2004). The best of each column is in bold; ``p_values``: each
    coefficient's two-sided p-value against no correlation after it (none at the summary level)."""
    rows_of = [r for r in correlations.rows if r.coefficient == coefficient]
    if not rows_of:
        raise UsageError(f"no {coefficient} coefficient among the correlations")
    judgment = judgment or rows_of[0].judgment
    rows_of = [r for r in rows_of if r.judgment == judgment]
    if not rows_of:
        raise UsageError(f"no correlation with the judgment {described(judgment)}")
    chosen = levels or list(dict.fromkeys(r.level for r in rows_of))
    variants = list(dict.fromkeys(_parts(r.variant)[0] for r in rows_of))
    settings = list(dict.fromkeys(_parts(r.variant)[1] for r in rows_of))
    columns = [(level, setting) for level in chosen for setting in settings]
    value = {(_parts(r.variant)[0], r.level, _parts(r.variant)[1]): r for r in rows_of}
    best = {
        col: _best([value[(v, *col)].oriented for v in variants if (v, *col) in value]) for col in columns
    }
    rows: list[list[Cell]] = []
    lower = {_parts(r.variant)[0] for r in rows_of if not r.higher_is_better}
    for variant in variants:
        row: list[Cell] = [(named(variant, lower), False, False)]
        for col in columns:
            found = value.get((variant, *col))
            if found is None:
                row.append(("", False, False))
                continue
            text = _number(found.value)
            if intervals:
                text += f" [{_number(found.low)}, {_number(found.high)}]"
            if p_values and math.isfinite(found.p):
                text += f" p={_p_value(found.p)}"
            row.append((text, found.oriented == best[col], bool(found.tied_with_best)))
        rows.append(row)
    ceilings = {
        level: correlations.ceilings[(judgment, level, coefficient)]
        for level in chosen
        if (judgment, level, coefficient) in correlations.ceilings
    }
    if ceilings:
        row = [("annotators' ceiling", False, False)]
        row += [(_number(ceilings[level]) if level in ceilings else "", False, False) for level, _ in columns]
        rows.append(row)
    header = ["variant", *(f"{level} {setting}".strip() for level, setting in columns)]
    r = rows_of[0]
    s = correlations.settings
    caption = (
        f"{coefficient} correlation with {judgment} ({r.systems} systems, {r.items} inputs); best in bold."
    )
    if intervals:
        caption += f" Intervals: bootstrap over {s.resample} ({s.samples} samples, seed {s.seed})."
    if lower:
        caption += (
            " A lower-is-better variant agrees most where its coefficient is most negative: best is read so."
        )
    agreement = correlations.agreement.get(judgment)
    if agreement:
        caption += (
            f" {agreement['annotators']:.0f} annotators; Krippendorff's alpha"
            f" {agreement['alpha_interval']:.3f} (interval), {agreement['alpha_ordinal']:.3f} (ordinal);"
            " the ceiling row: each annotator"
            " against the others' mean, averaged."
        )
    if any(r.tied_with_best for r in rows_of):
        caption += (
            " Marked: not significantly below the column's best (paired bootstrap on the intervals' draws,"
            f" Holm over the variants, p >= {1 - s.confidence / 100:.2g})."
        )
    if p_values:
        caption += (
            f" p: two-sided, against no correlation (scipy.stats' {_TESTS[coefficient]} of the system"
            " means, or of every cell at the global level); none at the summary level."
        )
    return render(header, rows, fmt, caption)


_TESTS = {"pearson": "pearsonr", "spearman": "spearmanr", "kendall": "kendalltau"}


def _p_value(p: float) -> str:
    """A p-value with three significant digits (``<1e-300`` spelled as scipy gives 0)."""
    return f"{p:.3g}" if p > 0 else "<1e-300"


def power_table(rows: Sequence[dict[str, Any]], fmt: str, test: str, seed: int) -> str:
    """``--power``'s rows (stats.command): per metric the difference, its items, the power at
    multiples of them, the items needed for 80% and the type-I error at their number."""
    factors = [key for key in rows[0] if key.startswith("power_")] if rows else []
    header = [
        "metric",
        "difference",
        "items",
        *(f"power at {key[6:]}" for key in factors),
        "80% at",
        "type-I",
    ]
    body: list[list[Cell]] = []
    for row in rows:
        needed = row["items_for_80"]
        cells = [
            row["metric"],
            f"{row['difference']:+.5f}",
            str(row["items"]),
            *(f"{row[key]:.2f}" for key in factors),
            "beyond" if needed is None else str(needed),
            f"{row['type_one_error']:.3f}",
        ]
        body.append([(cell, False, False) for cell in cells])
    a, b = (rows[0]["a"], rows[0]["b"]) if rows else ("", "")
    caption = (
        f"How many items would separate {a} and {b}: each metric's power ({test} test, p < 0.05) on "
        f"sets of items drawn with replacement from their common items, at multiples n of them; "
        f"'80% at' the fewest items reaching 80% power; 'type-I' the share found significant "
        f"with the differences centered (no difference), at n. 200 sets a size, seed {seed}."
    )
    return render(header, body, fmt, caption)


def curve_table(points: Sequence[Any], fmt: str = "markdown", across: str = "references") -> str:
    """A reference or aggregation curve as a table: a row per variant, a column per number of
    references (or group size); a reference curve's cells show the subsets' range too."""
    columns = sorted({p.across for p in points})
    variants = list(dict.fromkeys(p.variant for p in points))
    cell = {(p.variant, p.across): p for p in points}
    rows: list[list[Cell]] = []
    for variant in variants:
        row: list[Cell] = [(variant, False, False)]
        for x in columns:
            point = cell.get((variant, x))
            if point is None:
                row.append(("", False, False))
                continue
            text = _number(point.value)
            if hasattr(point, "low") and point.low != point.high:
                text += f" [{_number(point.low)}, {_number(point.high)}]"
            row.append((text, False, False))
        rows.append(row)
    caption = (
        f"Correlation with the judgment by {across}: the mean over the subsets, [lowest, highest]."
        if across == "references"
        else f"Correlation with the judgment by {across}: items pooled into groups of that size."
    )
    return render(["variant", *(f"{x:g}" for x in columns)], rows, fmt, caption)


def metrics_rows(others: Any) -> list[dict[str, Any]]:
    """``--metrics``' scores (:class:`~rouge155py.other_metrics.evals.OtherScores`): per metric and
    system, the corpus score (None where the metric has none), the mean of the item scores and
    the number of items."""
    rows = []
    for label, systems in others.variants.items():
        for system, items in sorted(systems.items()):
            values = list(items.values())
            corpus = others.corpus.get(label, {}).get(system)
            rows.append(
                {
                    "metric": label,
                    "system": system,
                    "corpus": corpus,
                    "mean": sum(values) / len(values) if values else None,
                    "items": len(values),
                    "lower_is_better": label in others.lower_is_better,
                }
            )
    return rows


def metrics_table(others: Any, fmt: str) -> str:
    """``--metrics``' scores as a table, each metric's signature under it."""
    header = ["metric", "system", "corpus", "mean of items", "items"]
    body: list[list[Cell]] = []
    for row in metrics_rows(others):
        metric = named(row["metric"], others.lower_is_better)
        cells = [
            metric,
            row["system"],
            "-" if row["corpus"] is None else _number(row["corpus"]),
            "-" if row["mean"] is None else _number(row["mean"]),
            str(row["items"]),
        ]
        body.append([(cell, False, False) for cell in cells])
    caption = "Metrics beside ROUGE: " + "; ".join(others.signatures.values())
    return render(header, body, fmt, caption)


def _estimate(e: Any) -> tuple[str, str]:
    """An estimate's value, and its interval (none where it was enumerated)."""
    interval = "" if e.exact else f"[{e.low:.4f}, {e.high:.4f}]"
    return f"{e.value:.4f}", interval


def qarla_table(found: Any, fmt: str) -> str:
    """QARLA (:class:`~rouge155py.stats.qarla.Qarla`): each system's and model's QUEEN, KING of
    the metrics together, JACK of the test set."""
    body: list[list[Cell]] = []
    rows = [
        *(("QUEEN", "system", name, e) for name, e in found.systems.items()),
        *(("QUEEN", "model", name, e) for name, e in found.models.items()),
        ("KING", "metrics", " + ".join(found.metrics), found.king),
        ("JACK", "test set", "", found.jack),
    ]
    for measure, kind, name, e in rows:
        if e is not None:
            body.append([(cell, False, False) for cell in (measure, kind, name, *_estimate(e), e.computed)])
    caption = (
        f"QARLA over {len(found.inputs)} inputs: QUEEN the probability that a summary is as close "
        "to a model as two other models are to each other under every metric; KING the share of "
        "models that beat every peer; JACK the share of models with two peers around them. "
        f"{found.signature}"
    )
    return render(["measure", "of", "name", "value", "interval", "computed"], body, fmt, caption)


def king_table(rows: Sequence[Any], fmt: str) -> str:
    """KING of each set of metrics (:func:`rouge155py.stats.qarla.king_table`): the higher, the
    better the set tells models from peers."""
    best = max((row.king.value for row in rows), default=math.nan)
    body: list[list[Cell]] = []
    for row in rows:
        value, interval = _estimate(row.king)
        marked = row.king.value == best
        cells = [(" + ".join(row.metrics), False, False), (value, marked, False), (interval, False, False)]
        body.append(cells)
    caption = "KING of each metric alone and of all together (best in bold)."
    return render(["metrics", "KING", "interval"], body, fmt, caption)
