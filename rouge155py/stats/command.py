"""The command line's analyses of a run: ``--compare``, ``--judgments``, tables and ``--plot``.

Asked for by the long options below (or by ``--format markdown|latex``), the
command prints what they make instead of the report; without them, nothing
here runs and the report is the Perl's, byte for byte.

- ``--compare paired-bootstrap|permutation``: paired tests between the systems
  (all pairs, or each against ``--baseline SYSTEM``), Holm-corrected;
- ``--judgments FILE``: every metric of the run against each human judgment
  of the file, at the system, summary and global levels (Pearson, Spearman,
  Kendall's tau-b, bootstrap intervals over systems and inputs at once);
- ``--measure R|P|F`` (F), ``--samples N`` (10000 for comparisons, 1000 for
  correlations), ``--seed N`` (12345);
- ``--plot FILE.png|FILE.svg``: the systems with their intervals; with
  ``--judgments`` also ``FILE-scatter.png``, the metrics against the first judgment.
  Alone it prints the report as without it (in any ``--format``); the pictures are
  drawn once the output is written, so that one that fails never takes it along.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..errors import ComputeError, ConfigError, UsageError, install_hint
from ..report import perl_number, strict_json
from ..report.writing import escape_surrogates, escaped_strings, spreadsheet_safe
from .tables import TABLE_FORMATS

if TYPE_CHECKING:
    from ..report import Report
    from ..settings.argv import Request

__all__ = ["Analysis", "analysis_of"]

#: The output formats of an analysis: the tables', and JSON and CSV ("legacy" is the text table).
_FORMATS = ("legacy", "text", "json", "csv", "html", *TABLE_FORMATS)
#: ``--power``'s numbers of items, as multiples of the two systems' common items.
POWER_FACTORS = (0.25, 0.5, 1, 2, 4)


def _whole(option: str, text: str) -> int:
    if not re.fullmatch(r"\s*[0-9]+\s*", text):
        raise UsageError(f"{option} needs a whole number, got {text!r}")
    return int(text)


@dataclass(frozen=True)
class Analysis:
    """What the command line asks of a run besides its report, checked before the run."""

    output_format: str
    test: Optional[str] = None
    baseline: Optional[str] = None
    seed: int = 12345
    samples: Optional[int] = None
    measure: str = "f"
    judgments: Optional[str] = None
    scores: Optional[str] = None  # --scores: other metrics' scores, correlated beside ROUGE's
    power: Optional[tuple[str, str]] = None  # --power A,B: how many items would separate them
    plot: Optional[str] = None
    #: --metrics: metrics beside ROUGE, as (label, metric), scored on the run's texts
    metrics: tuple[tuple[str, Any], ...] = ()
    qarla: bool = False  # --qarla: QUEEN, KING and JACK of the run's variants and --metrics
    show_signature: bool = False  # --signature: each analysis's signature on stderr too

    def run(self, report: Report, say: Callable[[str], None], output: Callable[[str], None]) -> None:
        """The tables in the format asked for, handed to ``output``, then ``--plot``'s pictures:
        a picture that cannot be drawn is an error once the tables are out, never instead of
        them. Warnings and signatures go to ``say``."""
        from .correlation import report_variants
        from .significance import CompareSettings, compare, compare_items

        comparisons = correlations = None
        # The run's variants (read once: --scores' names are checked against them, --judgments
        # correlates them), and --scores' columns, named with their direction where lower.
        rouge = report_variants(report, [self.measure]) if self.scores or self.judgments else {}
        # The run's texts, read once for --metrics and --qarla, and each summary's sentences.
        texts = summaries = None
        if self.metrics or self.qarla:
            from ..other_metrics.evals import Summaries

            texts, summaries = _texts(report, "--metrics" if self.metrics else "--qarla"), Summaries()
        others = self._others(report, texts, summaries, say) if self.metrics else None
        external = self._external(rouge, others)
        named = None
        if external is not None:
            from .tables import named as with_direction

            named = {with_direction(m, external.lower_is_better): v for m, v in external.variants.items()}
        if self.test is not None:
            samples = self.samples if self.samples is not None else 10_000
            comparisons = compare(
                report, self.test, self.baseline, self.measure, samples=samples, seed=self.seed
            )
            if named is not None:  # other metrics' scores compared alike
                settings = CompareSettings(self.test, samples, self.seed)
                more = compare_items(named, "score", self.baseline, settings)
                comparisons.rows.extend(more.rows)
                comparisons.warnings.extend(more.warnings)
            for warning in comparisons.warnings:
                say(warning)
            if self.show_signature:
                say(comparisons.signature)
        judgments = None
        if self.judgments is not None:
            from .annotators import read_judging

            judgments, annotations = read_judging(self.judgments)
            correlations = self._correlations(rouge, judgments, say, external)
            if annotations is not None:
                self._agreement(annotations, correlations, say)
        power = self._power(report) if self.power is not None else None
        qarla = self._qarla(report, texts, summaries, say) if self.qarla else None
        output(self._formatted(report, Found(comparisons, correlations, power, others, qarla)))
        if self.plot is not None:
            self._draw(report, judgments, comparisons, named, qarla[1] if qarla else None)

    def _agreement(self, annotations: Any, correlations: Any, say: Callable[[str], None]) -> None:
        """Judgments by several annotators: each judgment's Krippendorff's alpha, and the
        annotators' ceiling at every level and coefficient of the correlations."""
        from .annotators import annotator_ceiling, krippendorff_alpha

        for judgment in annotations.columns:
            alpha = {
                level: krippendorff_alpha(annotations, judgment, level) for level in ("interval", "ordinal")
            }
            correlations.agreement[judgment] = {
                "annotators": len(annotations.annotators(judgment)),
                "alpha_interval": alpha["interval"],
                "alpha_ordinal": alpha["ordinal"],
            }
            try:
                for level, coefficient in dict.fromkeys((r.level, r.coefficient) for r in correlations.rows):
                    ceiling = annotator_ceiling(annotations, judgment, level, coefficient)
                    correlations.ceilings[(judgment, level, coefficient)] = ceiling
            except ComputeError as error:
                say(f"rouge155py: warning: no annotators' ceiling: {error}")

    def _external(self, rouge: Any, others: Any = None) -> Any:
        """``--scores``' columns and ``--metrics``' scores (None: neither), beside the run's
        variants, no two of them of one name."""
        from .judgments import MetricTable, read_scores

        table = read_scores(self.scores) if self.scores is not None else None
        if table is not None:
            clash = sorted(set(table.variants) & set(rouge))
            if clash:
                names = ", ".join(clash)
                raise ConfigError(f"{table.name}: {names} is the name of a ROUGE variant of the run")
        if others is None:
            return table
        given = set(table.variants) if table is not None else set()
        clash = sorted(set(others.variants) & (set(rouge) | given))
        if clash:
            where = f"{table.name} has" if table is not None and set(clash) & given else "the run has"
            raise ConfigError(f"--metrics: {where} a column {', '.join(clash)} already")
        if table is None:
            return MetricTable("--metrics", dict(others.variants), others.lower_is_better)
        return MetricTable(
            table.name,
            {**table.variants, **others.variants},
            table.lower_is_better | others.lower_is_better,
        )

    def _others(self, report: Report, texts: Any, summaries: Any, say: Callable[[str], None]) -> Any:
        """``--metrics``: each metric on the run's texts."""
        from ..other_metrics.evals import score_evals

        others = score_evals(texts, self.metrics, report.options.shown_peer_id, summaries)
        if self.show_signature:
            for signature in others.signatures.values():
                say(signature)
        return others

    def _correlations(
        self, rouge: Any, judgments: Any, say: Callable[[str], None], external: Any = None
    ) -> Any:
        from .correlation import CorrelateSettings, correlate

        samples = self.samples if self.samples is not None else 1000
        settings = CorrelateSettings(samples=samples, seed=self.seed)
        variants = dict(rouge)
        lower: frozenset[str] = frozenset()
        if external is not None:
            variants.update(external.variants)
            lower = external.lower_is_better
        found = correlate(variants, judgments, settings=settings, lower_is_better=lower)
        for warning in found.warnings:
            say(warning)
        if self.show_signature:
            say(found.signature)
        return found

    def _draw(
        self, report: Report, judgments: Any, comparisons: Any, named: Any = None, kings: Any = None
    ) -> None:
        from .plots import plot_king, plot_scatter, plot_systems

        path = self.plot
        assert path is not None
        plot_systems(report, path, measure=self.measure, comparisons=comparisons)
        stem, dot, suffix = path.rpartition(".")
        if judgments is not None:
            plot_scatter(report, judgments, f"{stem}-scatter{dot}{suffix}", self.measure, extra=named)
        if kings:
            plot_king(kings, f"{stem}-king{dot}{suffix}")

    def _qarla(self, report: Report, texts: Any, summaries: Any, say: Callable[[str], None]) -> Any:
        """``--qarla``: QUEEN of each system and model, KING of the metrics (each alone, then all
        together) and JACK, the similarities made by the run's options and ``--metrics``."""
        from .qarla import king_table, qarla
        from .similarities import run_similarities

        settings: dict[str, Any] = {"seed": self.seed}
        if self.samples is not None:
            settings["samples"] = self.samples
        names, inputs = run_similarities(report.options, texts, self.measure, self.metrics, summaries)
        found = qarla(names, inputs, **settings)
        kings = king_table(names, inputs, **settings) if found.king is not None else []
        for note in found.notes:
            say(f"rouge155py: note: {note}")
        if self.show_signature:
            say(found.signature)
        return found, kings

    def _power(self, report: Report) -> list[dict[str, Any]]:
        """Per metric: the power of the test (``--compare``'s, else the permutation test) to
        separate the two systems at a quarter, half, once, twice and four times their common
        items, the items it needs for 80%, and its type-I error at their number."""
        from .power import differences_of, power_curve, required_items, type_one_error

        assert self.power is not None
        a, b = self.power
        test = self.test or "permutation"
        samples = self.samples if self.samples is not None else 1000
        labels = list(dict.fromkeys(r.label for r in report.results))
        rows = []
        for label in labels:
            differences = differences_of(report, label, a, b, self.measure)
            n = differences.size
            sizes = [max(2, round(n * factor)) for factor in POWER_FACTORS]
            curve = power_curve(differences, sizes, test, samples=samples, seed=self.seed)
            null = type_one_error(differences, [n], test=test, samples=samples, seed=self.seed)[0]
            row: dict[str, Any] = {
                "metric": label,
                "a": a,
                "b": b,
                "difference": float(differences.mean()),
                "items": n,
            }
            for factor, point in zip(POWER_FACTORS, curve):
                row[f"power_{factor:g}n"] = point.power
            row["items_for_80"] = required_items(curve)
            row["type_one_error"] = null.power
            rows.append(row)
        return rows

    def _formatted(self, report: Report, found: Found) -> str:
        """What the analyses found, in the format asked for (the report where they found nothing)."""
        fmt = self.output_format
        if found.nothing and fmt not in ("markdown", "latex"):
            from ..report import write

            return write(fmt, report)  # --plot alone: the report, as without it
        if fmt == "json":
            document = escaped_strings(strict_json(self._document(found)))
            return json.dumps(document, indent=2, allow_nan=False) + "\n"
        if fmt == "html":
            return self._page(report, found)
        if fmt == "csv":
            return _csv(self._rows(found))
        table_format = "text" if fmt == "legacy" else fmt
        parts = []
        comparisons = found.comparisons
        if fmt in ("markdown", "latex") and (comparisons is None or comparisons.baseline is not None):
            from .tables import systems_table

            parts.append(systems_table(report, fmt, self.measure, comparisons=comparisons))
        parts += [table for _, table in self._tables(found, table_format)]
        return "\n".join(parts)

    def _document(self, found: Found) -> dict[str, Any]:
        """``--format json``: each analysis's signature and rows."""
        from .tables import metrics_rows

        document: dict[str, Any] = {}
        if found.others is not None:
            document["metrics"] = {"signatures": found.others.signatures, "rows": metrics_rows(found.others)}
        if found.comparisons is not None:
            comparisons = found.comparisons
            document["comparisons"] = {"signature": comparisons.signature, "rows": comparisons.to_dicts()}
        correlations = found.correlations
        if correlations is not None:
            document["correlations"] = {"signature": correlations.signature, "rows": correlations.to_dicts()}
            if correlations.agreement:
                document["correlations"]["agreement"] = correlations.agreement
                document["correlations"]["ceilings"] = [
                    {"judgment": j, "level": lv, "coefficient": c, "value": v}
                    for (j, lv, c), v in correlations.ceilings.items()
                ]
        if found.power is not None:
            document["power"] = {"test": self.test or "permutation", "seed": self.seed, "rows": found.power}
        if found.qarla is not None:
            qarla, kings = found.qarla
            document["qarla"] = {
                "signature": qarla.signature,
                "rows": qarla.to_dicts(),
                "king": [{"metrics": list(r.metrics), **r.king.__dict__} for r in kings],
                "notes": qarla.notes,
            }
        return document

    def _rows(self, found: Found) -> list[dict[str, Any]]:
        """``--format csv``: the rows of the one table asked for."""
        from .tables import comparisons_csv_rows, metrics_rows

        if found.power is not None:
            return list(found.power)
        if found.qarla is not None:
            return list(found.qarla[0].to_dicts())
        if found.comparisons is not None:
            return comparisons_csv_rows(found.comparisons)
        if found.correlations is not None:
            return list(found.correlations.to_dicts())
        return metrics_rows(found.others)

    def _tables(self, found: Found, fmt: str) -> list[tuple[str, str]]:
        """Each analysis's tables, titled, in the text formats (``text``, ``markdown``, ``latex``)."""
        from .tables import comparisons_table, king_table, metrics_table, power_table, qarla_table

        tables = []
        if found.others is not None:
            tables.append(("Metrics beside ROUGE", metrics_table(found.others, fmt)))
        if found.comparisons is not None:
            tables.append(("Paired tests", comparisons_table(found.comparisons, fmt)))
        if found.correlations is not None:
            tables += _correlation_tables(found.correlations, fmt)
        if found.power is not None:
            tables.append(("Power", power_table(found.power, fmt, self.test or "permutation", self.seed)))
        if found.qarla is not None:
            tables.append(("QARLA", qarla_table(found.qarla[0], fmt)))
            if found.qarla[1]:
                tables.append(("QARLA: KING of each set of metrics", king_table(found.qarla[1], fmt)))
        return tables

    def _page(self, report: Report, found: Found) -> str:
        """The HTML page: its systems table marked where a system differs from the baseline,
        and the analyses' tables (as text) after it."""
        from ..report.html import format_html

        comparisons = found.comparisons
        marked = set()
        baseline = comparisons.baseline if comparisons is not None else None
        if baseline is not None:
            for result in report.results:
                system = report.options.shown_peer_id(result.peer_id)
                compared = comparisons.against(result.label, self.measure, system)
                if compared is not None and compared.significant(comparisons.settings.level):
                    marked.add((system, result.label))
        return format_html(report, frozenset(marked), baseline, self._tables(found, "text"))


@dataclass(frozen=True)
class Found:
    """What the analyses of a run found (None: not asked for)."""

    comparisons: Any = None
    correlations: Any = None
    power: Any = None
    others: Any = None  # --metrics' scores
    qarla: Any = None  # QARLA, and KING of each set of metrics

    @property
    def nothing(self) -> bool:
        """Whether no analysis was asked for (``--plot`` alone)."""
        return all(value is None for value in self.__dict__.values())


def _texts(report: Report, option: str) -> Any:
    """The run's evals with their texts (:meth:`~rouge155py.report.Report.texts_read`)."""
    config = report.texts_read()
    if config is None:
        raise UsageError(f"{option} needs the run's texts: the report was made from evals in memory")
    return config


def _correlation_tables(correlations: Any, fmt: str) -> list[tuple[str, str]]:
    """Each judgment's Pearson, Spearman and Kendall tables (intervals, p-values), titled."""
    from .tables import correlation_table

    return [
        (
            f"Correlation with {judgment}: {coefficient}",
            correlation_table(correlations, fmt, coefficient, judgment, intervals=True, p_values=True),
        )
        for judgment in dict.fromkeys(r.judgment for r in correlations.rows)
        for coefficient in ("pearson", "spearman", "kendall")
    ]


def _cell(value: Any) -> Any:
    """A CSV cell: a text never read as a formula, an infinity or NaN spelled as the Perl does."""
    if isinstance(value, str):
        return spreadsheet_safe(value)
    if isinstance(value, float) and not math.isfinite(value):
        return perl_number(value)
    return value


def _csv(rows: list[dict[str, Any]]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else [], lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: _cell(value) for key, value in row.items()} for row in rows)
    return escape_surrogates(buffer.getvalue())


def analysis_of(request: Request) -> Optional[Analysis]:
    """The analysis a command line asks for, checked; None for the report alone."""
    given = request.analysis
    fmt = request.output_format
    if not given and fmt not in TABLE_FORMATS:
        return None
    if fmt not in _FORMATS:
        raise UsageError(f"--format must be one of {', '.join(_FORMATS)} with an analysis, got {fmt!r}")
    from .scores import measure_index
    from .significance import TESTS, checked_draws

    test = given.get("--compare")
    if test is not None and test not in TESTS:
        raise UsageError(f"--compare must be one of {', '.join(TESTS)}, got {test!r}")
    if "--baseline" in given and test is None:
        raise UsageError("--baseline names the system the others are compared with: add --compare TEST")
    plot = given.get("--plot")
    if "--scores" in given and "--judgments" not in given and test is None:
        raise UsageError(
            "--scores adds metrics to the correlations with people and to the comparisons: "
            "give --judgments FILE or --compare TEST too"
        )
    power = None
    if "--power" in given:
        pair = [part.strip() for part in given["--power"].split(",")]
        if len(pair) != 2 or not all(pair) or pair[0] == pair[1]:
            raise UsageError(f"--power names two systems, A,B: got {given['--power']!r}")
        power = (pair[0], pair[1])
    metrics = _metrics(given)
    qarla = "--qarla" in given
    tabled = (test is not None) + ("--judgments" in given) + (power is not None) + qarla
    if fmt == "csv" and tabled != 1 and (tabled or (plot is None and not metrics)):
        raise UsageError("--format csv holds one table: give one of --compare, --judgments, --power, --qarla")
    if fmt == "json" and not tabled and plot is None and not metrics:
        raise UsageError("--format json with an analysis needs --compare, --judgments or --metrics")
    if plot is not None and not plot.lower().endswith((".png", ".svg")):
        raise UsageError(f"--plot draws a PNG or an SVG file: its name ends in .png or .svg, got {plot!r}")
    if plot is not None and importlib.util.find_spec("matplotlib") is None:
        raise UsageError(f"--plot needs matplotlib: {install_hint('matplotlib', 'plot')}")
    counting = request.options.counting if request.options is not None else 0
    if counting and (tabled or fmt in ("markdown", "latex")):
        raise UsageError(
            "--compare, --judgments, --qarla and tables need -t 0: under -t 1/-t 2 instances hold counts"
        )
    if counting == 2 and plot is not None:
        raise UsageError("--plot draws averages: under -t 2 the report holds counts (give -t 0 or -t 1)")
    seed = _whole("--seed", given["--seed"]) if "--seed" in given else 12345
    samples = _whole("--samples", given["--samples"]) if "--samples" in given else None
    checked_draws(1 if samples is None else samples, seed, 95.0)
    return Analysis(
        output_format=fmt,
        test=test,
        baseline=given.get("--baseline"),
        seed=seed,
        samples=samples,
        measure=measure_index(given.get("--measure", "F"))[0],
        judgments=given.get("--judgments"),
        scores=given.get("--scores"),
        power=power,
        plot=plot,
        metrics=metrics,
        qarla=qarla,
        show_signature=request.show_signature,
    )


#: The long options of the metrics beside ROUGE, and the metrics they are for.
_METRIC_OPTIONS = {"--wordnet": ("wordnet", ("METEOR",)), "--parses": ("parses", ("HWCM", "STM"))}


def _metrics(given: dict[str, str]) -> tuple[tuple[str, Any], ...]:
    """``--metrics a,b:option=value,...``: the metrics beside ROUGE, made and checked now;
    ``--wordnet DIR`` is METEOR's, ``--parses DIR`` HWCM's and STM's."""
    from ..other_metrics import METRICS
    from ..other_metrics.evals import metrics_of

    made: tuple[tuple[str, Any], ...] = ()
    if "--metrics" in given:
        specs = [part for part in given["--metrics"].split(",") if part.strip()]
        if not specs:
            raise UsageError(f"--metrics names metrics, of: {', '.join(METRICS)}")
        options = {key: given.get(option) for option, (key, _) in _METRIC_OPTIONS.items()}
        made = tuple(metrics_of(specs, **options))
    for option, (_, users) in _METRIC_OPTIONS.items():
        if option in given and not any(metric.name in users for _, metric in made):
            wanted = " or ".join(name.lower() for name in users)
            raise UsageError(f"{option} is for --metrics {wanted}: add it to --metrics")
    return made
