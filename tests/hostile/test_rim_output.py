"""What the reports print when the numbers or the IDs are hostile.

- ROUGE-W at a ``-w`` whose powers overflow a double: the legacy report prints ``Inf`` and
  ``NaN`` as the Perl does (the catalogue's ``w-band-*`` cases compare the bytes with the
  Perl), JSON holds ``null`` and says why in ``non_finite``, CSV and the tables spell them as
  the Perl does;
- a lone surrogate in a JSONL ID: every format writes valid UTF-8 (``\\ud800``);
- IDs that hold line breaks, Markdown, HTML, LaTeX or a spreadsheet formula: each format
  escapes them its own way; the legacy report keeps the Perl's bytes.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from rouge155py.metrics.scoring import fmt5
from rouge155py.report import json_document, perl_number

from . import fuzz
from .catalogue import BAND_CONFIG, BAND_TEXTS
from .support import DATA, build

HOSTILE_IDS = {
    "newline": "sys\nA",
    "formula": '=HYPERLINK("http://127.0.0.1:9/x","click")',
    "html": "<img src=x onerror=alert(1)>",
    "markdown": "a|b **bold** [link](http://127.0.0.1:9/) `code` ~~gone~~",
    "latex": "50% & $x^2$ #1 {a_b} ~ \\par \\\\",
    "minus": "-1",
}


def run(tmp_path: Path, *args: str) -> fuzz.Outcome:
    outcome = fuzz.run_isolated(["-e", DATA, *args], tmp_path, timeout=120)
    err = outcome.stderr.decode("utf-8", "backslashreplace")
    assert fuzz.judge(outcome) == "ok" and outcome.exit_code == 0, err
    return outcome


def text_of(outcome: fuzz.Outcome) -> str:
    """The output, which must be valid UTF-8 whatever the IDs."""
    return outcome.stdout.decode("utf-8")


def band(tmp_path: Path) -> Path:
    """The catalogue's three evals of two systems whose ROUGE-W overflows at small ``-w``."""
    for name, data in {**BAND_TEXTS, "config.xml": BAND_CONFIG}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return tmp_path / "config.xml"


def jsonl(tmp_path: Path, rows: list[dict[str, Any]]) -> str:
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return str(path)


def systems_items(systems: list[str], items: int = 4) -> list[dict[str, Any]]:
    """Items where the systems score differently (a comparison has something to compare)."""
    words = "the cat sat on the mat all day long".split()
    return [
        {
            "id": str(k + 1),
            "predictions": {s: " ".join(words[: 3 + (j + k) % 5]) for j, s in enumerate(systems)},
            "reference": " ".join(words[k % 3 :]),
        }
        for k in range(items)
    ]


# --------------------------------------------------------------------------
# Non-finite scores
# --------------------------------------------------------------------------


def test_fmt5_spells_infinities_and_nan_as_perls_sprintf() -> None:
    """Perl's ``sprintf("%7.5f")`` gives ``    Inf``, ``   -Inf``, ``    NaN`` (any sign)."""
    inf, nan = math.inf, math.nan
    assert [fmt5(v) for v in (inf, -inf, nan, -nan)] == ["    Inf", "   -Inf", "    NaN", "    NaN"]
    assert fmt5(0.5) == "0.50000" and fmt5(-0.5) == "-0.50000"


@pytest.mark.parametrize("weight", ["0.001", "0.003", "0.005", "500"])
def test_legacy_report_prints_inf_and_nan_as_the_perl(tmp_path: Path, weight: str) -> None:
    """The bytes are the Perl's (the catalogue's w-band cases); here: no Python spelling is left."""
    config = band(tmp_path)
    text = text_of(run(tmp_path, "-a", "-n", "0", "-w", weight, "-d", str(config)))
    assert "Inf" in text or "NaN" in text
    assert not re.search(r"\b(inf|nan)\b", text)


def test_json_is_valid_and_says_which_values_are_not_finite(tmp_path: Path) -> None:
    config = band(tmp_path)
    legacy = text_of(run(tmp_path, "-a", "-n", "0", "-w", "0.003", "-d", str(config)))
    out = text_of(run(tmp_path, "-a", "-n", "0", "-w", "0.003", "-d", "--format", "json", str(config)))

    def refuse(constant: str) -> Any:
        raise AssertionError(f"{constant} is not JSON")

    document = json.loads(out, parse_constant=refuse)
    spelled = document["non_finite"]
    assert spelled and set(spelled.values()) <= {"Inf", "-Inf", "NaN"}
    for pointer in spelled:
        value: Any = document
        for key in pointer.split("/")[1:]:
            value = value[int(key)] if isinstance(value, list) else value[key]
        assert value is None, pointer
    f = document["systems"]["1"]["ROUGE-W-0.003"]["f"]
    assert f["average"] is None and spelled["/systems/1/ROUGE-W-0.003/f/average"] == "Inf"
    assert "1 ROUGE-W-0.003 Average_F:     Inf" in legacy
    # A finite report has no such key.
    finite = text_of(run(tmp_path, "-a", "-n", "0", "-w", "1.2", "--format", "json", str(config)))
    assert "non_finite" not in json.loads(finite)


def test_json_document_of_the_api_is_json_ready(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rouge155py import evaluate_args

    config = band(tmp_path)
    monkeypatch.chdir(tmp_path)
    report = evaluate_args(["-e", DATA, "-a", "-n", "0", "-w", "0.001", "-d", str(config)])
    document = json_document(report)
    json.dumps(document, allow_nan=False)
    assert document["non_finite"]
    assert json.loads(report.format("json"), parse_constant=lambda c: 1 / 0)["non_finite"]


def test_csv_and_tables_spell_non_finite_scores_as_the_perl(tmp_path: Path) -> None:
    config = band(tmp_path)
    args = ("-a", "-n", "0", "-w", "0.003", "-d")
    rows = list(csv.DictReader(io.StringIO(text_of(run(tmp_path, *args, "--format", "csv", str(config))))))
    average = next(r for r in rows if r["row"] == "average" and r["metric"] == "ROUGE-W-0.003")
    assert (average["f"], average["f_high"]) == ("Inf", "NaN")
    for fmt in ("markdown", "latex"):
        table = text_of(run(tmp_path, *args, "--format", fmt, str(config)))
        assert "Inf [" in table and "NaN]" in table and " inf" not in table and "nan" not in table


# --------------------------------------------------------------------------
# A lone surrogate in an ID
# --------------------------------------------------------------------------

LONE = [{"predictions": {"B\ud800": "a b", "C": "a c"}, "reference": "a b"}] * 2


#: How each format shows the ID ``B\ud800``: JSON's escape, then the format's own escaping.
SHOWN = {
    "legacy": "B\\ud800",
    "csv": "B\\ud800",
    "markdown": "B\\\\ud800",
    "latex": "B\\textbackslash{}ud800",
    "json": '"B\\\\ud800"',
}


@pytest.mark.parametrize("fmt", ["legacy", "markdown", "latex"])
def test_a_lone_surrogate_in_a_system_id_keeps_the_report(tmp_path: Path, fmt: str) -> None:
    text = text_of(run(tmp_path, "-n", "1", "--format", fmt, "--jsonl", jsonl(tmp_path, LONE)))
    assert SHOWN[fmt] in text


@pytest.mark.parametrize("fmt", ["legacy", "csv", "json", "markdown"])
def test_a_lone_surrogate_in_a_compared_system(tmp_path: Path, fmt: str) -> None:
    items = systems_items(["B\ud800", "C"])
    args = ("-n", "1", "--compare", "permutation", "--samples", "200", "--format", fmt)
    text = text_of(run(tmp_path, *args, "--jsonl", jsonl(tmp_path, items)))
    assert SHOWN[fmt] in text


def test_a_lone_surrogate_in_an_eval_id_under_d(tmp_path: Path) -> None:
    rows = [{"id": "E\ud800", "prediction": "a b", "reference": "a b"}]
    text = text_of(run(tmp_path, "-n", "1", "-d", "--jsonl", jsonl(tmp_path, rows)))
    assert "1 ROUGE-1 Eval E\\ud800.1 R:1.00000" in text


# --------------------------------------------------------------------------
# IDs that would break a table or become a formula
# --------------------------------------------------------------------------


def markdown_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("|")]


def test_markdown_rows_stay_rows_and_show_no_markup(tmp_path: Path) -> None:
    systems = list(HOSTILE_IDS.values())
    text = text_of(
        run(tmp_path, "-n", "1", "--format", "markdown", "--jsonl", jsonl(tmp_path, systems_items(systems)))
    )
    rows = markdown_rows(text)
    assert len(rows) == 2 + len(systems)
    for row in rows:  # every row has its columns: no cell is split by an ID's "|"
        assert len(re.findall(r"(?<!\\)\|", row.replace("\\\\", ""))) == 4, row
    assert "sys\\\\x0aA" in text  # shown as sys\x0aA
    assert "<img" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "**bold**" not in text and "\\*\\*bold\\*\\*" in text
    assert "[link](" not in text and "[link\\](" in text  # no link: its "]" escaped
    assert "`code`" not in text and "~~" not in text


def test_latex_rows_stay_in_the_tabular(tmp_path: Path) -> None:
    systems = list(HOSTILE_IDS.values())
    text = text_of(
        run(tmp_path, "-n", "1", "--format", "latex", "--jsonl", jsonl(tmp_path, systems_items(systems)))
    )
    body = text[text.index("\\begin{tabular}") : text.index("\n\\end{tabular}")]
    lines = body.split("\n")
    assert "" not in lines and len(lines) == 5 + len(systems)
    row = next(line for line in lines if line.startswith("50"))
    assert row.startswith(
        r"50\% \& \$x\textasciicircum{}2\$ \#1 \{a\_b\} \textasciitilde{} \textbackslash{}par"
    )
    assert "sys\\textbackslash{}x0aA" in body


def test_text_tables_keep_one_line_per_row(tmp_path: Path) -> None:
    items = systems_items(["sys\nA", "B\rC"])
    args = ("-n", "1", "--compare", "permutation", "--samples", "200")
    text = text_of(run(tmp_path, *args, "--jsonl", jsonl(tmp_path, items)))
    assert "sys\\x0aA" in text and "B\\x0dC" in text and "\r" not in text


def test_report_csv_ids_are_never_formulas(tmp_path: Path) -> None:
    systems = list(HOSTILE_IDS.values())
    items = systems_items(systems)
    items[0]["id"] = "@SUM(A1)"
    text = text_of(run(tmp_path, "-n", "1", "-d", "--format", "csv", "--jsonl", jsonl(tmp_path, items)))
    rows = list(csv.DictReader(io.StringIO(text)))
    peers = {row["peer_id"] for row in rows}
    assert "'" + HOSTILE_IDS["formula"] in peers and "'-1" in peers and HOSTILE_IDS["html"] in peers
    assert {row["eval_id"] for row in rows if row["row"] == "instance"} >= {"'@SUM(A1)", "2"}
    for row in rows:
        assert not row["peer_id"].startswith(("=", "+", "-", "@"))


def test_comparison_csv_ids_are_never_formulas_and_numbers_stay_numbers(tmp_path: Path) -> None:
    formula = HOSTILE_IDS["formula"]
    items = systems_items([formula, "-1", "+x", "\tTab"])
    args = ("-n", "1", "--compare", "permutation", "--samples", "200", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(text_of(run(tmp_path, *args, "--jsonl", jsonl(tmp_path, items))))))
    named = {row["system"] for row in rows} | {row["other"] for row in rows}
    assert named == {"'" + formula, "'-1", "'+x", "'\tTab"}
    differences = [row["difference"] for row in rows]
    assert any(d.startswith("-") for d in differences)  # a negative difference is a number, as it was
    assert all(float(d) == float(d) for d in differences)


def test_judgments_csv_ids_are_never_formulas(tmp_path: Path) -> None:
    systems = ["=1+1", "@x", "plain", "-y"]
    items = systems_items(systems, items=5)
    judged = tmp_path / "judged.csv"
    lines = ['eval_id,system,"=HYPERLINK(""http://127.0.0.1:9/"",""q"")",@quality']
    for k, item in enumerate(items):
        lines += [f"{item['id']},{s},{j + 1 + (j * 3 + k) % 2},{j % 3}" for j, s in enumerate(systems)]
    judged.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ("-n", "1", "--judgments", str(judged), "--samples", "50", "--format", "csv")
    text = text_of(run(tmp_path, *args, "--jsonl", jsonl(tmp_path, items)))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {row["judgment"] for row in rows} == {'\'=HYPERLINK("http://127.0.0.1:9/","q")', "'@quality"}
    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            assert not cell.startswith(("=", "+", "@")), cell
            assert not cell.startswith("-") or re.fullmatch(r"-[0-9.e+-]+|-Inf", cell), cell


def test_legacy_report_keeps_the_ids_bytes(tmp_path: Path) -> None:
    """The Perl prints IDs as they are: so does the legacy report (the catalogue's
    id-markup-peer case holds the Perl's bytes for such an ID from XML)."""
    systems = [HOSTILE_IDS["formula"], HOSTILE_IDS["markdown"], "sys\nA"]
    text = text_of(run(tmp_path, "-n", "1", "--jsonl", jsonl(tmp_path, systems_items(systems))))
    for system in systems:
        assert f"{system} ROUGE-1 Average_R:" in text


def test_helpers() -> None:
    from rouge155py.report.writing import escape_controls, spreadsheet_safe

    assert escape_controls("a\nb\tc\x7f\u2028") == "a\\x0ab\\x09c\\x7f\\u2028"
    assert [spreadsheet_safe(t) for t in ("=1", "+1", "-1", "@a", "\tx", "\rx", "a=1", "")] == [
        "'=1",
        "'+1",
        "'-1",
        "'@a",
        "'\tx",
        "'\rx",
        "a=1",
        "",
    ]
    assert perl_number(math.inf) == "Inf" and perl_number(-math.inf) == "-Inf"


def test_catalogue_band_cases_build(tmp_path: Path) -> None:
    from .catalogue import CASES

    names = {case.name for case in CASES}
    assert {"w-band-0.005", "w-band-0.001-verbose-one-eval", "w-500-summed-counts", "id-markup-peer"} <= names
    case = next(c for c in CASES if c.name == "w-band-0.005")
    build(case, tmp_path)
    assert (tmp_path / "sums" / "p2_3.spl").is_file()


def test_any_text_keeps_the_tables_shape() -> None:
    """2,000 random IDs of ASCII punctuation, controls, surrogates and wide characters: each
    Markdown row keeps its cells, each LaTeX row its ``&``s, no line is added or left empty."""
    import random

    from rouge155py.stats.tables import render

    rng = random.Random(7)
    alphabet = [chr(c) for c in range(0x7F + 1)] + ["\ud800", "\udce9", "\u2028", "\x85", "é", "Ω", "†"]
    for _ in range(200):
        cells = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(10)]
        rows = [[(cells[2 * k], k % 2 == 0, k % 3 == 0), (cells[2 * k + 1], False, False)] for k in range(5)]
        for fmt in ("markdown", "latex", "text"):
            text = render(["system", "metric"], rows, fmt, caption=cells[0])
            text.encode("utf-8")  # no lone surrogate left
            lines = text.split("\n")
            if fmt == "markdown":
                table = lines[: 2 + len(rows)]
                assert lines[2 + len(rows)] == ""
                for line in table:
                    assert len(re.findall(r"(?<!\\)\|", line.replace("\\\\", ""))) == 3, line
                assert not re.search(r"<[A-Za-z/!?]", text)
            elif fmt == "latex":
                body = lines[lines.index("\\midrule") + 1 : lines.index("\\bottomrule")]
                assert len(body) == len(rows)
                for line in body:
                    assert len(re.findall(r"(?<!\\)&", line.replace("\\\\", ""))) == 1, line
            else:
                assert len(lines) == 2 + len(rows) + (3 if cells[0] else 1) and lines[-1] == ""


def test_analysis_json_is_strict_json_or_refused(tmp_path: Path) -> None:
    """Scores that are infinite or NaN reach --compare: its JSON is strict (null, "non_finite")
    or the run is refused with one error line, never a traceback or a bare NaN."""
    config = band(tmp_path)
    args = ["-e", DATA, "-a", "-n", "0", "-w", "0.003", "--compare", "permutation", "--samples", "100"]
    outcome = fuzz.run_isolated([*args, "--format", "json", str(config)], tmp_path, timeout=120)
    assert fuzz.judge(outcome) in fuzz.GOOD, outcome.stderr.decode("utf-8", "backslashreplace")
    if outcome.exit_code == 0:
        document = json.loads(outcome.stdout, parse_constant=lambda c: 1 / 0)
        assert set(document["non_finite"].values()) <= {"Inf", "-Inf", "NaN"}
    else:
        assert outcome.exit_code == 6


def test_strict_json_names_what_it_nulls() -> None:
    from rouge155py.report import strict_json

    document = {"a": [1.0, math.inf], "b/c": {"~d": math.nan, "e": -math.inf}, "f": "NaN"}
    assert strict_json(document) == {
        "a": [1.0, None],
        "b/c": {"~d": None, "e": None},
        "f": "NaN",
        "non_finite": {"/a/1": "Inf", "/b~1c/~0d": "NaN", "/b~1c/e": "-Inf"},
    }
    assert strict_json({"a": 1.0}) == {"a": 1.0}
