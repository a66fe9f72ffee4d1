"""The report's writers (``rouge155py/report/__init__.py``) on results built by hand.

Each report here is one the API scored, its results then replaced, so that its
options are made the way the library makes them whatever the report's own
constructor takes. The legacy lines are the Perl's ``print`` statements: R, P
and F as ``%7.5f``, ``-t`` counts as Perl prints a number (``%.15g``, integers
plainly); JSON and CSV hold the printed values and stay valid UTF-8.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import random
import shutil
import struct
import subprocess
from typing import Any

import pytest

import rouge155py
from rouge155py.errors import UsageError
from rouge155py.report import (
    CSV_COLUMNS,
    FORMATS,
    Report,
    format_legacy,
    json_document,
    perl_number,
    perl_printed,
    rows,
    write,
)
from rouge155py.report.results import MetricResult, Summary

Triple = tuple[float, float, float]
RULE = "-" * 45
DOTS = "." * 45
SUMMARY = Summary(average=(0.5, 0.25, 1 / 3), lower=(0.4, 0.2, 0.123454), upper=(0.6, 0.3, 0.999996))


def report_of(results: list[MetricResult], warnings: tuple[str, ...] = (), **options: Any) -> Report:
    """A report of ``results`` under the API's ``options`` (``per_eval``, ``counting``...)."""
    scored = rouge155py.score(["a b"], ["a b"], max_ngram=1, **options)
    return dataclasses.replace(scored, results=list(results), warnings=list(warnings), traces=[])


def scores(peer: str = "1", label: str = "ROUGE-1", **instances: Triple) -> MetricResult:
    """A result with averages and intervals; ``instances`` maps eval IDs to rows."""
    rows = {f"{eval_id}.{peer}": row for eval_id, row in instances.items()}
    return MetricResult(peer, label, rows, summary=SUMMARY)


def counted(peer: str, counts: Triple, **instances: Triple) -> MetricResult:
    """A ``-t 2`` result: summed counts, no averages."""
    rows = {f"{eval_id}.{peer}": row for eval_id, row in instances.items()}
    return MetricResult(peer, "ROUGE-1", rows, counts=counts)


# -- the legacy text ----------------------------------------------------------


def test_legacy_prints_averages_and_bounds_at_five_decimals() -> None:
    report = report_of([scores(D01=(0.5, 0.25, 1 / 3))])
    assert format_legacy(report).split("\n") == [
        RULE,
        "1 ROUGE-1 Average_R: 0.50000 (95%-conf.int. 0.40000 - 0.60000)",
        "1 ROUGE-1 Average_P: 0.25000 (95%-conf.int. 0.20000 - 0.30000)",
        "1 ROUGE-1 Average_F: 0.33333 (95%-conf.int. 0.12345 - 1.00000)",
        "",
    ]


def test_legacy_per_eval_lines_follow_the_rows_order() -> None:
    report = report_of([scores(D02=(1.0, 0.0, 0.0), D01=(0.5, 0.25, 1 / 3))], per_eval=True)
    assert format_legacy(report).split("\n")[4:] == [
        DOTS,
        "1 ROUGE-1 Eval D02.1 R:1.00000 P:0.00000 F:0.00000",
        "1 ROUGE-1 Eval D01.1 R:0.50000 P:0.25000 F:0.33333",
        "",
    ]


@pytest.mark.parametrize(("confidence", "label"), [(90, "90"), (99.5, "99.5"), (0, "0")])
def test_legacy_names_the_confidence_as_perl_prints_it(confidence: float, label: str) -> None:
    lines = format_legacy(report_of([scores()], confidence=confidence)).split("\n")
    assert lines[1] == f"1 ROUGE-1 Average_R: 0.50000 ({label}%-conf.int. 0.40000 - 0.60000)"


def test_legacy_t1_prints_counts_per_eval_as_perl_prints_numbers() -> None:
    """``-t 1``: averages as usual, each eval's model, peer and hit counts as numbers (ROUGE-W's
    weighted counts with 15 significant digits, from the Perl's own output)."""
    rows = {"D01": (329, 260, 164), "D02": (25405.582029312, 2096.18701455762, 287.281517862902)}
    report = report_of([scores(**rows)], counting=1, per_eval=True)
    assert format_legacy(report).split("\n")[1:] == [
        "1 ROUGE-1 Average_R: 0.50000 (95%-conf.int. 0.40000 - 0.60000)",
        "1 ROUGE-1 Average_P: 0.25000 (95%-conf.int. 0.20000 - 0.30000)",
        "1 ROUGE-1 Average_F: 0.33333 (95%-conf.int. 0.12345 - 1.00000)",
        DOTS,
        "1 ROUGE-1 Eval D01.1 R:329 P:260 F:164",
        "1 ROUGE-1 Eval D02.1 R:25405.582029312 P:2096.18701455762 F:287.281517862902",
        "",
    ]


def test_legacy_t2_prints_summed_counts() -> None:
    report = report_of([counted("1", (2905, 2720, 1656), D01=(329, 260, 164))], counting=2, per_eval=True)
    assert format_legacy(report).split("\n") == [
        RULE,
        "1 ROUGE-1 M_count: 2905 P_count: 2720 H_count: 1656",
        DOTS,
        "1 ROUGE-1 Eval D01.1 R:329 P:260 F:164",
        "",
    ]


def test_legacy_puts_each_results_trace_before_it() -> None:
    """``-v``: a result's debug lines come first; results past the traces have none."""
    report = report_of([scores("1"), scores("2"), scores("3")])
    report.traces = [["trace of 1"], ["trace of 2", "more"]]
    heads = [line for line in format_legacy(report).split("\n") if not line.startswith(("1 ", "2 ", "3 "))]
    assert heads == ["trace of 1", RULE, "trace of 2", "more", RULE, RULE, ""]


def test_legacy_writes_ids_as_the_perl_writes_their_characters() -> None:
    """An ID of characters below U+0100 is one byte each; a wider one makes the line UTF-8."""
    report = report_of([scores("\u00e9", D01=(1, 1, 1)), scores("\u03a9")], per_eval=True)
    data = format_legacy(report).encode("utf-8", "surrogateescape")
    assert b"\n\xe9 ROUGE-1 Eval D01.\xe9 R:" in data
    assert b"\n\xce\xa9 ROUGE-1 Average_R:" in data


@pytest.mark.parametrize(
    ("line", "written"),
    [
        ("plain ascii", b"plain ascii"),
        ("caf\u00e9", b"caf\xe9"),
        ("\u00c3\u00a9", b"\xc3\xa9"),  # two Latin-1 characters that are UTF-8 once written as bytes
        ("caf\u00e9 \u03a9", "caf\u00e9 \u03a9".encode()),  # a wide character: the whole line in UTF-8
    ],
)
def test_perl_printed(line: str, written: bytes) -> None:
    assert perl_printed(line).encode("utf-8", "surrogateescape") == written


# -- numbers ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (0, "0"),
        (123456789012345678, "123456789012345678"),
        (2.5, "2.5"),
        (1 / 3, "0.333333333333333"),
        (0.1 + 0.2, "0.3"),
        (1e20, "1e+20"),
        (1e-5, "1e-05"),
        (float("inf"), "Inf"),
        (float("-inf"), "-Inf"),
        (float("nan"), "NaN"),
        ("12", "12"),
    ],
)
def test_perl_number(value: Any, printed: str) -> None:
    assert perl_number(value) == printed


def test_perl_number_is_perls_print_of_a_double() -> None:
    """Doubles of every magnitude and sign (counts, option values) against Perl's own ``print``."""
    perl = shutil.which("perl")
    if perl is None:
        pytest.skip("perl is not installed")
    rng = random.Random(1555)
    values = [0.0, 1e15, 1e16, 5e-324, 1.7976931348623157e308, float("inf"), float("nan")]
    values += [rng.random() * 10 ** rng.randint(-30, 30) for _ in range(2000)]
    values += [float(rng.randrange(10**17)) for _ in range(200)]
    values += [-0.0, float("-inf")] + [-v for v in values[7:50]]
    doubles = "".join(struct.pack(">d", v).hex() + "\n" for v in values).encode()
    program = 'chomp; print unpack("d>", pack("H16", $_)), "\\n"'
    done = subprocess.run([perl, "-ne", program], input=doubles, capture_output=True, check=True)
    printed = done.stdout.decode().split("\n")[:-1]
    assert [perl_number(v) for v in values] == printed


# -- JSON ---------------------------------------------------------------------


def test_json_document_schema() -> None:
    report = report_of(
        [scores("1", D01=(0.5, 0.25, 1 / 3)), scores("2", "ROUGE-L", D01=(1.0, 1.0, 1.0))],
        warnings=("a warning",),
        confidence=90,
        resamples=10,
    )
    document = json_document(report)
    assert document["version"] == rouge155py.__version__
    assert document["signature"].startswith("n:1|") and document["signature"].endswith(
        f"|c:90|r:10|version:{rouge155py.__version__}"
    )
    assert (document["confidence"], document["resamples"], document["warnings"]) == (90, 10, ["a warning"])
    assert set(document["systems"]) == {"1", "2"}
    assert document["systems"]["1"]["ROUGE-1"] == {
        "recall": {"average": 0.5, "conf_int": [0.4, 0.6]},
        "precision": {"average": 0.25, "conf_int": [0.2, 0.3]},
        "f": {"average": 0.33333, "conf_int": [0.12345, 1.0]},
        "instances": {"D01": {"recall": 0.5, "precision": 0.25, "f": 1 / 3}},
    }
    assert list(document["systems"]["2"]) == ["ROUGE-L"]


def test_json_eval_ids_keep_their_dots() -> None:
    """An instance ID is ``eval ID.peer ID``: the eval ID is what precedes the peer ID, dots and all."""
    document = json_document(report_of([scores("p.1", **{"D.01": (1, 1, 1)})]))
    assert list(document["systems"]["p.1"]["ROUGE-1"]["instances"]) == ["D.01"]


def test_json_counts_under_t1_and_t2() -> None:
    t1 = json_document(report_of([scores(D01=(329, 260, 164))], counting=1))["systems"]["1"]["ROUGE-1"]
    assert t1["instances"] == {"D01": {"model": 329, "peer": 260, "hit": 164}}
    assert t1["recall"]["average"] == 0.5
    t2 = json_document(report_of([counted("1", (2905, 2720, 1656), D01=(329, 260, 164))], counting=2))
    metric = t2["systems"]["1"]["ROUGE-1"]
    assert set(metric) == {"counts", "instances"}
    assert metric["counts"] == {"model": 2905, "peer": 2720, "hit": 1656}


def test_json_text_is_valid_utf8_whatever_the_ids() -> None:
    """A byte that was not UTF-8 (a lone surrogate) shows as ``\\xNN``; other IDs stay as they are."""
    report = report_of([scores("\udce9", D01=(1, 1, 1)), scores("\u00e9"), scores("\ud83d")])
    text = FORMATS["json"](report)
    assert text.endswith("}\n")
    document = json.loads(text.encode("utf-8"))
    assert set(document["systems"]) == {"\\xe9", "\u00e9", "\\ud83d"}
    assert list(document["systems"]["\\xe9"]["ROUGE-1"]["instances"]) == ["D01"]


def test_json_text_without_odd_ids_is_the_document() -> None:
    report = report_of([scores("1", D01=(0.5, 0.25, 1 / 3))])
    assert json.loads(FORMATS["json"](report)) == json_document(report)


# -- CSV ----------------------------------------------------------------------


def _csv(report: Report) -> list[list[str]]:
    return list(csv.reader(io.StringIO(write("csv", report))))


def test_csv_rows_average_then_instances() -> None:
    table = _csv(report_of([scores("1", D01=(0.5, 0.25, 1 / 3))]))
    assert tuple(table[0]) == CSV_COLUMNS
    average, instance = (dict(zip(CSV_COLUMNS, row)) for row in table[1:])
    assert average == {
        **dict.fromkeys(CSV_COLUMNS, ""),
        "row": "average",
        "peer_id": "1",
        "metric": "ROUGE-1",
        "recall": "0.50000",
        "recall_low": "0.40000",
        "recall_high": "0.60000",
        "precision": "0.25000",
        "precision_low": "0.20000",
        "precision_high": "0.30000",
        "f": "0.33333",
        "f_low": "0.12345",
        "f_high": "1.00000",
    }
    assert instance == {
        **dict.fromkeys(CSV_COLUMNS, ""),
        "row": "instance",
        "peer_id": "1",
        "metric": "ROUGE-1",
        "eval_id": "D01",
        "recall": "0.50000",
        "precision": "0.25000",
        "f": "0.33333",
    }


def test_csv_counts_under_t1_and_t2() -> None:
    values = CSV_COLUMNS.index("recall")
    rows_t1 = _csv(report_of([scores(D01=(25405.582029312, 2096.18701455762, 164))], counting=1))
    assert rows_t1[2][values:] == [""] * 9 + ["25405.582029312", "2096.18701455762", "164"]
    rows_t2 = _csv(report_of([counted("1", (2905, 2720, 1656), D01=(329, 260, 164))], counting=2))
    assert [row[values:] for row in rows_t2[1:]] == [
        [""] * 9 + ["2905", "2720", "1656"],
        [""] * 9 + ["329", "260", "164"],
    ]


def test_csv_quotes_and_escapes_ids() -> None:
    """Commas and quotes are quoted; a byte that was not UTF-8 shows as ``\\xNN``."""
    report = report_of([scores("a,b", **{'say "x"': (1, 1, 1)}), scores("\udce9", D01=(1, 1, 1))])
    text = write("csv", report)
    text.encode("utf-8")  # valid UTF-8
    assert '\ninstance,"a,b",ROUGE-1,"say ""x""",' in text
    assert [row[1] for row in _csv(report)[1:]] == ["a,b", "a,b", "\\xe9", "\\xe9"]


def test_rows_hold_none_where_a_value_does_not_apply() -> None:
    report = report_of([scores("1", D01=(0.5, 0.25, 1 / 3))])
    average, instance = rows(report)
    assert average["eval_id"] is None and average["model_count"] is None
    assert instance["recall_low"] is None and instance["f"] == 1 / 3
    assert report.to_rows() == rows(report)


# -- formats and lookups -----------------------------------------------------


def test_every_format_by_name() -> None:
    report = report_of([scores("1", D01=(0.5, 0.25, 1 / 3))], per_eval=True)
    assert write("text", report) == write("legacy", report) == report.to_legacy() == format_legacy(report)
    assert report.format("csv") == write("csv", report)
    with pytest.raises(UsageError, match="unknown output format 'xml': use one of legacy, text, json, csv"):
        report.format("xml")


def test_result_finds_one_metric_of_one_peer() -> None:
    report = report_of([scores("1"), scores("2"), scores("2", "ROUGE-L")])
    assert report.result("ROUGE-L").peer_id == "2"
    assert report.result("ROUGE-1", "2") is report.results[1]
    with pytest.raises(KeyError, match="one of the peers"):
        report.result("ROUGE-1")
    with pytest.raises(KeyError, match="peer '3'"):
        report.result("ROUGE-1", "3")
