"""The report and its writers: the legacy ROUGE-1.5.5 text, byte for byte, JSON and CSV.

Formatting happens here only: results hold numbers. :data:`FORMATS` maps each
output format's name to its writer; the command line and the API look it up.

Schemas (R, P, F and their bounds are the printed values, 5 decimals):

- JSON: ``{"signature", "version", "confidence", "resamples", "warnings",
  "systems": {peer ID: {metric: {"recall"|"precision"|"f": {"average",
  "conf_int": [low, high]}, "instances": {eval ID: {"recall", "precision",
  "f"}}}}}}``; under ``-t 1`` an instance holds ``{"model", "peer", "hit"}``
  counts, under ``-t 2`` the metric holds ``"counts"`` instead of R, P, F.
  With ``--paraphrases``, ``"paraeval_inexact"`` lists the instance IDs whose
  ParaEval tier 1 was matched greedily past its bound (empty when all are exact).
- CSV: one header line, then for each peer and metric one ``average`` row
  (averages and bounds, or ``-t 2`` counts), then one ``instance`` row per eval
  (R, P, F, or ``-t 1`` counts), in the report's order. Columns:
  :data:`CSV_COLUMNS`; a value that does not apply is empty.

JSON and CSV are valid UTF-8 whatever the names: a peer or eval ID, or a
warning, holding bytes that are not UTF-8 (a system ID given on the command
line) shows each such byte as the four characters ``\\xNN`` (backslash, x, two
hex digits), another lone surrogate (from JSONL) as ``\\ud800``. The legacy
report prints the bytes themselves, as the Perl does, and IDs raw; only a lone
surrogate that is not a byte is shown as ``\\ud800`` there. A CSV text cell
that a spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@``, a tab
or a carriage return first) gets a ``'`` before it; numbers never do.

Infinite and NaN scores (ROUGE-W where ``-w`` makes a power overflow) are
printed as the Perl prints them: ``Inf``, ``-Inf``, ``NaN`` (padded as
``%7.5f`` pads in the legacy report); JSON, which has no such numbers, holds
``null`` and names each in ``"non_finite"`` (JSON Pointer -> ``"Inf"``...).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any, Callable, Optional, Union, overload

from .._version import __version__
from ..errors import UsageError
from ..metrics.scoring import fmt5
from .results import MetricResult, eval_id_of

if TYPE_CHECKING:
    from ..inputs.config import EvalConfig
    from ..settings.options import Options
    from .views import MetricScores

__all__ = [
    "CSV_COLUMNS",
    "FORMATS",
    "Report",
    "format_legacy",
    "json_document",
    "perl_number",
    "perl_printed",
    "rows",
    "strict_json",
    "write",
]

_RULE = "-" * 45
_DOTS = "." * 45
_SCORES = ("recall", "precision", "f")
_COUNTS = ("model", "peer", "hit")
CSV_COLUMNS = (
    "row",
    "peer_id",
    "metric",
    "eval_id",
    "recall",
    "recall_low",
    "recall_high",
    "precision",
    "precision_low",
    "precision_high",
    "f",
    "f_low",
    "f_high",
    "model_count",
    "peer_count",
    "hit_count",
)


@dataclass
class Report:
    """Everything an evaluation prints, in order: results and warnings (and ``-v``'s lines)."""

    options: Options
    results: list[MetricResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: ``-v``: per result, the Perl's debug lines printed before it (:mod:`rouge155py.run.verbose`).
    traces: list[list[str]] = field(default_factory=list)
    #: ParaEval: the instance IDs whose tier 1 was matched greedily past its bound (JSON
    #: ``paraeval_inexact``).
    inexact: list[str] = field(default_factory=list)
    #: Lines for stderr about the input (empty summaries, text the rules find no word in), in no format.
    notes: list[str] = field(default_factory=list)
    #: The processes that ran the evaluation (``-j`` asks for at most so many).
    processes: int = 1

    #: The metric names asked for (``rouge_types``), in rouge-score's vocabulary: the names
    #: the views show; None: every metric of the report.
    rouge_types: Optional[tuple[str, ...]] = None
    #: The items' labels where ``Rouge.score`` was given pandas Series (their index), which
    #: :meth:`to_frame` uses; None: the items are 0..N-1.
    item_index: Any = field(default=None, repr=False, compare=False)
    #: The evals scored, where the face that made the report kept them (``Rouge.score``): the
    #: HTML page's item view reads their texts; None: it reads the options' source again, if any.
    texts: Optional[EvalConfig] = field(default=None, repr=False, compare=False)
    _views: dict[tuple[str, str], MetricScores] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def texts_read(self) -> Optional[EvalConfig]:
        """The evals scored, with their texts: those the face kept (:attr:`texts`), else the
        options' source read again (the HTML page's item view, the metrics beside ROUGE); None
        where there is neither."""
        if self.texts is not None:
            return self.texts
        source = self.options.source
        return None if source is None else source.read()

    def _label(self, name: str) -> str:
        """The Perl's label of a metric name in either vocabulary that the report holds, or a
        KeyError listing the names it holds."""
        labels = {r.label for r in self.results}
        if isinstance(name, str) and name in labels:  # a label is itself (perl_label)
            return name
        from ..metrics.names import UnknownName, modern_name, perl_label

        try:
            label = perl_label(name)
        except UnknownName as error:
            if name in labels:  # a label without a rouge-score name (BE, ParaEval)
                return name
            reason = f"{error}; " if name == "rougeL" else ""
            label = None
        else:
            reason = ""
        if label not in labels:
            held = ", ".join(
                f"{modern_name(x)} ({x})" if modern_name(x) != x else x for x in _unique(self.results)
            )
            raise KeyError(f"{reason}no metric {name!r} in this report; it holds {held}")
        return label

    def result(self, label: str, peer_id: Optional[str] = None) -> MetricResult:
        """The result of one metric for a peer (the only one by default): ``"rouge1"`` or
        ``"ROUGE-1"``, ``"rougeLsum"`` or ``"ROUGE-L"``... (see :mod:`rouge155py.metrics.names`)."""
        label = self._label(label)
        shown = self.options.shown_peer_id
        found = [
            r
            for r in self.results
            if r.label == label and (peer_id is None or peer_id in (r.peer_id, shown(r.peer_id)))
        ]
        if len(found) != 1:
            peers = sorted({shown(r.peer_id) for r in self.results if r.label == label})
            which = f"peer {peer_id!r}" if peer_id is not None else f"one of the peers {peers}"
            raise KeyError(f"no single result for {label} and {which}; the report's systems: {peers}")
        return found[0]

    @property
    def systems(self) -> list[str]:
        """The systems (peer IDs as shown), in the report's order."""
        shown = self.options.shown_peer_id
        return list(dict.fromkeys(shown(r.peer_id) for r in self.results))

    @property
    def names(self) -> list[str]:
        """The metrics in rouge-score's vocabulary (``rouge1``, ``rougeLsum``...), in the report's
        order: those asked for with ``rouge_types``, else all."""
        from ..metrics.names import modern_name

        if self.rouge_types is not None:
            return list(self.rouge_types)
        return [modern_name(label) for label in _unique(self.results)]

    @overload
    def __getitem__(self, key: str) -> MetricScores: ...

    @overload
    def __getitem__(self, key: tuple[str, str]) -> MetricScores: ...

    def __getitem__(self, key: Union[str, tuple[str, str]]) -> MetricScores:
        """``report["rouge1"]`` (one system) or ``report["rouge1", "sysA"]``: that metric's
        per-item Scores, plain mean, bootstrap mean and interval
        (:class:`~rouge155py.report.views.MetricScores`)."""
        from .views import MetricScores

        name, system = key if isinstance(key, tuple) else (key, None)
        if self.options.counting:
            raise UsageError("per-item Scores need counting=0: under -t 1/-t 2 the rows are counts")
        if system is None and len(self.systems) > 1:
            raise KeyError(
                f"{len(self.systems)} systems: name one, report[{name!r}, system] ({self.systems})"
            )
        result = self.result(name, system)
        shown = self.options.shown_peer_id(result.peer_id)
        view = self._views.get((result.label, shown))
        if view is None:
            view = self._views[(result.label, shown)] = MetricScores(
                result, shown, self.options.dialect is not None
            )
        return view

    def to_dict(self) -> dict[str, Any]:
        """The numbers in rouge-score's vocabulary, JSON-ready: ``{"signature", "multi_ref",
        "confidence", "resamples", "items", "systems": {system: {name: {"mean",
        "bootstrap_mean", "low", "high": {"precision", "recall", "fmeasure"}, "items": [...]}}}}``;
        ``items`` is a list, position i = input item i (``"eval_ids"`` names the evals where
        they are not the API's 1..N). An infinite or NaN score stays a float here (ROUGE-W
        where ``-w`` overflows): :func:`strict_json` makes the dict strict JSON."""
        from .views import report_dict

        return report_dict(self)

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per (item, system, name): index ``item`` (0..N-1, input
        order, or the index of the pandas Series ``Rouge.score`` was given), columns
        ``system``, ``name``, ``precision``, ``recall``, ``fmeasure``. Needs pandas
        (``pip install pandas``), which rouge155py does not depend on."""
        from .views import report_frame

        return report_frame(self)

    def __repr__(self) -> str:
        from .views import short_repr

        return short_repr(self)

    def format(self, name: str) -> str:
        """The report in an output format: ``legacy`` (the Perl's bytes), ``json``, ``csv`` or ``html``."""
        return write(name, self)

    def to_legacy(self) -> str:
        """The report exactly as ROUGE-1.5.5.pl prints it."""
        return self.format("legacy")

    def to_json(self) -> dict[str, Any]:
        """The numbers as a JSON-ready document (see :func:`rouge155py.report.json_document`)."""
        return json_document(self)

    def to_html(self) -> str:
        """The report as one self-contained HTML page: the systems and items tables, and each
        item's texts with what matched (see :mod:`rouge155py.report.html`)."""
        return self.format("html")

    def to_rows(self) -> list[dict[str, Any]]:
        """One dict per instance: peer, metric, eval ID and its row (see :func:`rouge155py.report.rows`)."""
        return rows(self)


def _unique(results: list[MetricResult]) -> list[str]:
    """The results' labels, each once, in order."""
    return list(dict.fromkeys(r.label for r in results))


def perl_number(value: Union[int, float, str]) -> str:
    """A number as Perl prints it without a format: integers plainly, else ``%.15g``."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    if value == 0:
        return "0"  # Perl prints a negative zero as 0
    return f"{value:.15g}"


def perl_printed(line: str) -> str:
    """A line as Perl's ``print`` writes its characters, in the form the command writes as bytes
    (UTF-8, a byte that is not one as a surrogate escape).

    Each character below U+0100 is one byte (an ID written ``é`` in the XML is the byte E9);
    a line holding a wider one is written in UTF-8 whole (the Perl warns "Wide character").
    """
    if line.isascii():
        return line
    try:
        return line.encode("latin-1").decode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return line


def _printed(value: float) -> float:
    """A score as the legacy report prints it, as a number."""
    return float(fmt5(value))


def _metric_text(result: MetricResult, confidence: str, per_eval: bool, counting: int) -> list[str]:
    head = f"{result.peer_id} {result.label}"
    lines = [_RULE]
    if result.summary is not None:
        s = result.summary
        for k, name in enumerate("RPF"):
            lines.append(
                f"{head} Average_{name}: {fmt5(s.average[k])} "
                f"({confidence}%-conf.int. {fmt5(s.lower[k])} - {fmt5(s.upper[k])})"
            )
    else:
        m, p, h = (perl_number(c) for c in result.counts or (0, 0, 0))
        lines.append(f"{head} M_count: {m} P_count: {p} H_count: {h}")
    if per_eval:
        show = perl_number if counting else fmt5
        lines.append(_DOTS)
        for instance, row in result.instances.items():
            r, p, f = (show(v) for v in row)
            lines.append(f"{head} Eval {instance} R:{r} P:{p} F:{f}")
    return lines


def format_legacy(report: Report) -> str:
    """The report exactly as ROUGE-1.5.5.pl prints it."""
    o = report.options
    confidence = o.confidence_label
    assert confidence is not None  # Options sets it from confidence, always a number
    lines: list[str] = []
    for k, result in enumerate(report.results):
        if k < len(report.traces):
            lines.extend(report.traces[k])
        lines.extend(_metric_text(result, confidence, o.per_eval, o.counting))
    if len(report.traces) == len(report.results) + 1:  # a partial report: the block the Perl died in
        lines.extend(report.traces[-1])
    text = "".join(perl_printed(line) + "\n" for line in lines)
    # An ID from JSON may hold a lone surrogate, which no encoding writes: shown as \uDXXX.
    if text.isascii():
        return text
    from .writing import escape_unencodable  # the writers' module: imported by runs that write

    return escape_unencodable(text)


def json_document(report: Report) -> dict[str, Any]:
    """The numbers as a JSON-ready document (schema in the module docstring)."""
    o = report.options
    systems: dict[str, dict[str, Any]] = {}
    names = _COUNTS if o.counting else _SCORES
    for result in report.results:
        entry: dict[str, Any] = {}
        if result.summary is not None:
            s = result.summary
            for k, name in enumerate(_SCORES):
                entry[name] = {
                    "average": _printed(s.average[k]),
                    "conf_int": [_printed(s.lower[k]), _printed(s.upper[k])],
                }
        else:
            entry["counts"] = dict(zip(_COUNTS, result.counts or (0, 0, 0)))
        entry["instances"] = {
            eval_id_of(i, result.peer_id): dict(zip(names, row)) for i, row in result.instances.items()
        }
        systems.setdefault(o.shown_peer_id(result.peer_id), {})[result.label] = entry
    document = {
        "signature": o.signature(__version__),
        "version": __version__,
        "confidence": o.confidence,
        "resamples": o.resamples,
        "systems": systems,
        "warnings": report.warnings,
    }
    if o.paraphrases is not None:
        document["paraeval_inexact"] = report.inexact
    return document if all(map(_all_finite, report.results)) else strict_json(document)


def strict_json(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` as JSON can hold it: each infinity or NaN as None, and ``"non_finite"``
    naming each (its JSON Pointer -> ``"Inf"``, ``"-Inf"``, ``"NaN"``) where there is one."""
    spelled: dict[str, str] = {}
    found: dict[str, Any] = _finite(document, "", spelled)
    if spelled:
        found["non_finite"] = spelled
    return found


def _all_finite(result: MetricResult) -> bool:
    """Whether every number of a result is finite (a sum that overflows says no: then the
    document is walked, which finds what is not)."""
    s = result.summary
    if s is not None and not math.isfinite(sum(s.average + s.lower + s.upper)):
        return False
    counts = result.counts or (0, 0, 0)
    return math.isfinite(sum(counts)) and math.isfinite(sum(chain.from_iterable(result.instances.values())))


def _finite(value: Any, pointer: str, spelled: dict[str, str]) -> Any:
    """``value`` with each infinity or NaN as None (JSON has no such number), its JSON Pointer
    (RFC 6901) and its Perl spelling (``Inf``, ``-Inf``, ``NaN``) put in ``spelled``."""
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        spelled[pointer] = perl_number(value)
        return None
    if isinstance(value, dict):
        return {
            key: _finite(item, f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}", spelled)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_finite(item, f"{pointer}/{k}", spelled) for k, item in enumerate(value)]
    return value


def rows(report: Report) -> list[dict[str, Any]]:
    """The CSV rows as dicts (keys :data:`CSV_COLUMNS`; None where a value does not apply)."""
    counting = report.options.counting
    out: list[dict[str, Any]] = []
    for result in report.results:
        base = {"peer_id": report.options.shown_peer_id(result.peer_id), "metric": result.label}
        average: dict[str, Any] = {"row": "average", **base, "eval_id": None}
        if result.summary is not None:
            s = result.summary
            for k, name in enumerate(_SCORES):
                average[name] = _printed(s.average[k])
                average[f"{name}_low"] = _printed(s.lower[k])
                average[f"{name}_high"] = _printed(s.upper[k])
        else:
            average.update(zip(("model_count", "peer_count", "hit_count"), result.counts or (0, 0, 0)))
        out.append(average)
        for instance, row in result.instances.items():
            item: dict[str, Any] = {
                "row": "instance",
                **base,
                "eval_id": eval_id_of(instance, result.peer_id),
            }
            names = ("model_count", "peer_count", "hit_count") if counting else _SCORES
            item.update(zip(names, row))
            out.append(item)
    return [{column: row.get(column) for column in CSV_COLUMNS} for row in out]


def _csv_value(column: str, value: Optional[Union[int, float, str]]) -> str:
    if value is None:
        return ""
    if isinstance(value, str):  # an ID, a label: never a formula
        from .writing import spreadsheet_safe

        return spreadsheet_safe(value)
    if column.startswith(_SCORES):
        return fmt5(value).lstrip()  # Inf, NaN unpadded
    return perl_number(value)


def format_csv(report: Report) -> str:
    """The per-instance and average rows as CSV."""
    import csv
    import io

    from .writing import escape_surrogates

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows(report):
        writer.writerow([_csv_value(column, row[column]) for column in CSV_COLUMNS])
    return escape_surrogates(buffer.getvalue())


def format_json(report: Report) -> str:
    """The JSON document, indented, with a final newline."""
    import json

    from .writing import escaped_strings

    document = json_document(report)
    text = json.dumps(document, indent=2, allow_nan=False)
    if "\\ud" in text:  # a surrogate, lone or in a pair: the names are made valid UTF-8 first
        text = json.dumps(escaped_strings(document), indent=2, allow_nan=False)
    return text + "\n"


def format_html(report: Report) -> str:
    """One self-contained HTML page (:mod:`rouge155py.report.html`, loaded when asked for)."""
    from .html import format_html as page

    return page(report)


FORMATS: dict[str, Callable[[Report], str]] = {
    "legacy": format_legacy,
    "text": format_legacy,
    "json": format_json,
    "csv": format_csv,
    "html": format_html,
}


def write(name: str, report: Report) -> str:
    """The report in the output format ``name`` (see :data:`FORMATS`)."""
    try:
        writer = FORMATS[name]
    except KeyError:
        raise UsageError(f"unknown output format {name!r}: use one of {', '.join(FORMATS)}") from None
    return writer(report)
