"""The analyses on the command line: --compare, --judgments, tables, --plot; their errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional

import pytest
from click.testing import CliRunner, Result

from rouge155py.cli import main

REPO = Path(__file__).resolve().parent.parent
BASE = ["-e", str(REPO / "data"), "-a", "-n", "2", "-r", "50"]
CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")


def invoke(*args: str) -> Result:
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(main, [*BASE, *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"unexpected exception: {result.exception!r}") from result.exception
    return result


def assert_error(result: Result, code: int, pattern: Optional[str] = None) -> None:
    lines = result.stderr_bytes.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rouge155py: error: "), lines
    assert result.exit_code == code, lines
    assert result.stdout_bytes == b""
    if pattern is not None:
        assert re.search(pattern, lines[0]), lines[0]


#: The bundled example's eval IDs.
EVALS = [f"D{e:02d}" for e in range(1, 11)]


def judgments_file(tmp_path: Path, rows: list[str]) -> str:
    path = tmp_path / "judged.csv"
    path.write_text("eval_id,system,quality\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def test_the_report_is_unchanged_without_an_analysis() -> None:
    plain = invoke(CONFIG)
    assert plain.exit_code == 0
    assert plain.stdout_bytes.startswith(
        b"---------------------------------------------\n1 ROUGE-1 Average_R"
    )


def test_compare_prints_the_comparisons_table() -> None:
    result = invoke("--compare", "permutation", "--baseline", "3", "--samples", "2000", CONFIG)
    assert result.exit_code == 0, result.stderr_bytes
    lines = result.stdout_bytes.decode().splitlines()
    header = [
        "metric",
        "measure",
        "system",
        "vs",
        "items",
        "difference",
        "95%",
        "interval",
        "p",
        "(bootstrap)",
        "p",
        "(permutation)",
        "p",
        "(Holm)",
    ]
    assert lines[0].split() == header
    rows = [line for line in lines if line.startswith("ROUGE-")]
    assert len(rows) == 6 and all(" 3 " in row for row in rows)
    assert "permutation, 2000 samples, seed 12345" in lines[-1]
    assert "The interval and p (bootstrap) come from the paired bootstrap's draws" in lines[-1]


def test_an_interval_is_read_beside_the_p_value_of_its_own_test() -> None:
    """Under --compare permutation each row also holds the paired bootstrap's p-value from the
    draws that make its interval: the p-value --compare paired-bootstrap gives, same seed."""
    asked = ("--samples", "2000", "--format", "json", CONFIG)
    permuted = json.loads(invoke("--compare", "permutation", *asked).stdout_bytes)["comparisons"]["rows"]
    booted = json.loads(invoke("--compare", "paired-bootstrap", *asked).stdout_bytes)["comparisons"]["rows"]
    assert len(permuted) == len(booted) == 9
    for p, b in zip(permuted, booted):
        assert (p["low"], p["high"], p["p_bootstrap"]) == (b["low"], b["high"], b["p_value"])
        assert b["p_bootstrap"] == b["p_value"]
        inside = p["low"] <= 0 <= p["high"]
        assert inside == (p["p_bootstrap"] >= 0.05) or abs(p["p_bootstrap"] - 0.05) < 0.01


def test_compare_as_json_names_its_settings_and_is_reproducible() -> None:
    first = invoke(
        "--compare", "paired-bootstrap", "--seed", "7", "--samples", "300", "--format", "json", CONFIG
    )
    again = invoke(
        "--compare", "paired-bootstrap", "--seed", "7", "--samples", "300", "--format", "json", CONFIG
    )
    assert first.exit_code == 0 and first.stdout_bytes == again.stdout_bytes
    document = json.loads(first.stdout_bytes)
    assert "seed:7" in document["comparisons"]["signature"]
    assert "samples:300" in document["comparisons"]["signature"]
    assert len(document["comparisons"]["rows"]) == 9  # 3 pairs x 3 metrics
    other = invoke(
        "--compare", "paired-bootstrap", "--seed", "8", "--samples", "300", "--format", "json", CONFIG
    )
    assert other.stdout_bytes != first.stdout_bytes


def test_signature_names_the_analysis_too() -> None:
    result = invoke("--compare", "permutation", "--samples", "100", "--signature", CONFIG)
    lines = result.stderr_bytes.decode().splitlines()
    assert lines[0].startswith("n:2|") and lines[1].startswith("test:permutation|samples:100|seed:12345|")


@pytest.mark.parametrize("fmt", ["markdown", "latex"])
def test_tables_mark_the_best_and_the_significant(fmt: str) -> None:
    result = invoke(
        "--compare", "permutation", "--baseline", "3", "--format", fmt, "--samples", "500", CONFIG
    )
    text = result.stdout_bytes.decode()
    bold, mark = ("**0.", "†") if fmt == "markdown" else ("\\textbf{", "$^\\dagger$")
    first_row = next(line for line in text.splitlines() if line.lstrip("| ").startswith("1 "))
    assert first_row.count(bold) == 3 and first_row.count(mark) == 3
    baseline_row = next(line for line in text.splitlines() if "3 (baseline)" in line)
    assert bold not in baseline_row and mark not in baseline_row


def test_a_table_without_analysis() -> None:
    result = invoke("--format", "markdown", CONFIG)
    lines = result.stdout_bytes.decode().splitlines()
    assert lines[0] == "| system | ROUGE-1 | ROUGE-2 | ROUGE-L |"
    assert len([line for line in lines if line.startswith("| ")]) == 4


def test_judgments_give_the_correlation_tables(tmp_path: Path) -> None:
    pytest.importorskip("scipy")
    # System 1 best, as ROUGE says, with some noise per eval.
    rows = [f"{e},{s},{(4 - int(s)) / 3 + (k % 3) / 10:.3f}" for k, e in enumerate(EVALS) for s in "123"]
    path = judgments_file(tmp_path, rows)
    result = invoke("--judgments", path, "--samples", "200", CONFIG)
    assert result.exit_code == 0, result.stderr_bytes
    text = result.stdout_bytes.decode()
    assert text.count("correlation with quality (3 systems, 10 inputs)") == 3
    csv_result = invoke("--judgments", path, "--samples", "200", "--format", "csv", CONFIG)
    lines = csv_result.stdout_bytes.decode().splitlines()
    assert (
        lines[0]
        == "variant,judgment,level,coefficient,value,low,high,systems,items,p,higher_is_better,tied_with_best"
    )
    assert len(lines) == 1 + 3 * 3 * 3  # metrics x levels x coefficients


def test_plots_are_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "systems.png"
    result = invoke("--format", "markdown", "--plot", str(target), CONFIG)
    assert result.exit_code == 0, result.stderr_bytes
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "systems.svg"
    assert invoke("--format", "markdown", "--plot", str(svg), CONFIG).exit_code == 0
    drawn = svg.read_bytes()
    assert b"<svg" in drawn
    assert invoke("--format", "markdown", "--plot", str(svg), CONFIG).exit_code == 0
    assert svg.read_bytes() == drawn  # no date, no random ids: the same data draws the same bytes


def test_a_plot_that_cannot_be_written() -> None:
    pytest.importorskip("matplotlib")
    failed = invoke("--format", "markdown", "--plot", "/nonexistent/x.png", CONFIG)
    lines = failed.stderr_bytes.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rouge155py: error: cannot write /nonexistent/x.png")
    assert failed.exit_code == 1
    assert failed.stdout_bytes == invoke("--format", "markdown", CONFIG).stdout_bytes  # the tables first


@pytest.mark.parametrize(
    ("args", "code", "pattern"),
    [
        (["--compare", "t-test"], 2, "--compare must be one of paired-bootstrap, permutation"),
        (["--baseline", "1"], 2, "add --compare"),
        (["--compare", "permutation", "--baseline", "9"], 2, "baseline '9' is not a system"),
        (["--compare", "permutation", "--seed", "x"], 2, "--seed needs a whole number"),
        (["--compare", "permutation", "--samples", "0"], 2, "samples must be at least 1"),
        (["--compare", "permutation", "--samples", "99999999"], 7, "more than 10000000"),
        (["--compare", "permutation", "--measure", "Q"], 2, "measure must be one of R, P, F"),
        (["--compare", "permutation", "--format", "yaml"], 2, "--format must be one of"),
        (["--format", "csv", "--compare", "permutation", "--judgments", "x.csv"], 2, "one table"),
        (["--format", "markdown", "--plot", "x.pdf"], 2, r"\.png or \.svg"),
        (["--compare", "permutation", "-t", "1"], 2, "need -t 0"),
        (["--judgments", "/nonexistent/judged.csv"], 4, "Cannot open /nonexistent/judged.csv"),
    ],
)
def test_errors_are_one_line_with_their_exit_code(args: list[str], code: int, pattern: str) -> None:
    assert_error(invoke(*args, CONFIG), code, pattern)


@pytest.mark.parametrize(
    ("rows", "code", "pattern"),
    [
        (["D01,1,0.5", "D01,2,nan"], 3, "line 3: quality is 'nan': every judgment must be a finite number"),
        (["D01,1,0.5", "D01,9,0.3", "D01,2,0.1"], 3, "system '9' is judged but not scored"),
        (["D99,1,0.5", "D99,2,0.3", "D99,3,0.1"], 3, "eval 'D99' is judged but not scored"),
        (["D01,1,0.5", "D02,1,0.3"], 6, "1 judged system"),
        (["D01,1,0.5", "D01,2,0.5", "D01,3,0.5"], 6, "quality is the same for every system and item"),
        (
            ["D01,1,0.5", "D01,2,0.4", "D01,3,0.3", "D02,1,0.5"],
            3,
            "quality has no score for eval 'D02' of system '2'",
        ),
    ],
)
def test_bad_judgment_files(tmp_path: Path, rows: list[str], code: int, pattern: str) -> None:
    pytest.importorskip("scipy")
    assert_error(invoke("--judgments", judgments_file(tmp_path, rows), CONFIG), code, pattern)


@pytest.mark.slow
def test_scatter_plots_with_judgments(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    rows = [f"{e},{s},{(4 - int(s)) / 3 + (k % 3) / 10:.3f}" for k, e in enumerate(EVALS) for s in "123"]
    target = tmp_path / "drawn.png"
    result = invoke(
        "--judgments", judgments_file(tmp_path, rows), "--samples", "20", "--plot", str(target), CONFIG
    )
    assert result.exit_code == 0, result.stderr_bytes
    assert target.read_bytes()[:4] == (tmp_path / "drawn-scatter.png").read_bytes()[:4] == b"\x89PNG"


def _marked_markdown(text: str) -> set[tuple[str, int]]:
    first = text.split("\n\n")[0]  # the systems table (the paired tests' table follows)
    rows = [line.split("|")[1:-1] for line in first.splitlines() if line.startswith("| ") and "[" in line]
    return {
        (cells[0].split()[0], k) for cells in rows for k, cell in enumerate(cells[1:]) if "\u2020" in cell
    }


def _marked_html(page: str) -> set[tuple[str, int]]:
    table = page[page.index("<table class=systems>") : page.index("</table>")]
    found = set()
    for row in re.findall(r"<tr><th scope=row>(.*?)</tr>", table):
        system = row.split("<")[0].split()[0]
        for k, cell in enumerate(re.findall(r"<td>(.*?)</td>", row)):
            if "\u2020" in cell:
                found.add((system, k))
    return found


def test_the_html_page_marks_what_the_systems_table_marks() -> None:
    asked = ("--compare", "permutation", "--baseline", "2", "--samples", "2000")
    markdown = invoke(*asked, "--format", "markdown", CONFIG)
    page = invoke(*asked, "--format", "html", CONFIG)
    assert markdown.exit_code == page.exit_code == 0, page.stderr
    html = page.stdout_bytes.decode()
    assert _marked_html(html) == _marked_markdown(markdown.stdout_bytes.decode()) != set()
    assert "2 <span class=baseline>(baseline)</span>" in html and "<h2>Paired tests</h2>" in html
    all_pairs = invoke("--compare", "permutation", "--samples", "2000", "--format", "html", CONFIG)
    assert all_pairs.exit_code == 0 and _marked_html(all_pairs.stdout_bytes.decode()) == set()


def test_a_compare_plot_shows_the_baseline_and_the_marks(tmp_path: Path) -> None:
    matplotlib = pytest.importorskip("matplotlib")
    target = tmp_path / "systems.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text kept as text, to be read here
        result = invoke("--compare", "permutation", "--baseline", "2", "--plot", str(target), CONFIG)
    assert result.exit_code == 0, result.stderr
    drawn = target.read_text(encoding="utf-8")
    assert drawn.count("2 (baseline)") == 3  # one panel per metric
    assert drawn.count("1 \u2020") == 3 and drawn.count("3 \u2020") == 2  # as the table marks them
    assert drawn.count("stroke-dasharray") >= 3  # the baseline's average, a dashed line per panel


def _judged_and_scored(tmp_path: Path) -> tuple[str, Path]:
    """A judgments file for the bundled example, and a scores file of two other metrics for it:
    bleu (the judgment plus noise) and ter (one less the judgment: a perfect error rate)."""
    quality = {(e, s): (4 - int(s)) / 3 + (k % 3) / 10 for k, e in enumerate(EVALS) for s in "123"}
    path = judgments_file(tmp_path, [f"{e},{s},{q:.3f}" for (e, s), q in quality.items()])
    scores = tmp_path / "scores.csv"
    lines = ["eval_id,system,bleu,ter", "higher_is_better,,true,false"]
    lines += [f"{e},{s},{q + 0.2 * ((int(e[1:]) % 5) / 5):.4f},{1 - q:.4f}" for (e, s), q in quality.items()]
    scores.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, scores


def test_other_metrics_scores_are_correlated_beside_rouges(tmp_path: Path) -> None:
    pytest.importorskip("scipy")
    path, scores = _judged_and_scored(tmp_path)
    text = invoke("--judgments", path, "--scores", str(scores), "--samples", "100", CONFIG)
    assert text.exit_code == 0, text.stderr_bytes
    table = text.stdout_bytes.decode().split("\n\n")[0]  # Pearson's table
    assert "ter (lower is better)" in table and "bleu" in table and "ROUGE-1 F" in table
    ter_row = next(line for line in table.splitlines() if line.startswith("ter"))
    assert "*-1.0000" in ter_row  # a perfect error rate: r = -1, marked the best of its column
    found = json.loads(
        invoke("--judgments", path, "--scores", str(scores), "--format", "json", CONFIG).stdout_bytes
    )
    rows = found["correlations"]["rows"]
    assert {r["variant"] for r in rows if not r["higher_is_better"]} == {"ter"}
    assert invoke("--scores", str(scores), CONFIG).exit_code == 2  # without --judgments
    clash = tmp_path / "clash.csv"
    clash.write_text(
        "eval_id,system,ROUGE-1 F\n" + "\n".join(f"{e},{s},0.5" for e in EVALS for s in "123") + "\n"
    )
    assert_error(invoke("--judgments", path, "--scores", str(clash), CONFIG), 3, "ROUGE-1 F is the name")


def test_power_of_the_tests_to_separate_two_systems() -> None:
    from rouge155py import evaluate_args
    from rouge155py.stats.power import differences_of, power_curve, type_one_error

    found = invoke("--power", "2,3", "--samples", "400", "--format", "json", CONFIG)
    assert found.exit_code == 0, found.stderr_bytes
    rows = json.loads(found.stdout_bytes)["power"]["rows"]
    assert [r["metric"] for r in rows] == ["ROUGE-1", "ROUGE-2", "ROUGE-L"]
    report = evaluate_args(["-e", str(REPO / "data"), "-a", "-n", "2", CONFIG])
    for row in rows:
        differences = differences_of(report, row["metric"], "2", "3")
        curve = power_curve(differences, [2, 5, 10, 20, 40], samples=400)
        assert [row[f"power_{f:g}n"] for f in (0.25, 0.5, 1, 2, 4)] == [p.power for p in curve]
        assert row["type_one_error"] == type_one_error(differences, [10], samples=400)[0].power
        assert row["difference"] == pytest.approx(float(differences.mean()))
    text = invoke("--power", "2,3", "--samples", "400", CONFIG).stdout_bytes.decode()
    assert "How many items would separate 2 and 3" in text and "80% at" in text
    csv_lines = (
        invoke("--power", "1,2", "--samples", "200", "--format", "csv", CONFIG)
        .stdout_bytes.decode()
        .splitlines()
    )
    assert csv_lines[0].startswith("metric,a,b,difference,items,power_0.25n") and len(csv_lines) == 4
    page = invoke("--power", "1,2", "--samples", "200", "--format", "html", CONFIG).stdout_bytes.decode()
    assert "<h2>Power</h2>" in page and "80% at" in page
    assert_error(invoke("--power", "2", CONFIG), 2, "--power names two systems")
    assert_error(invoke("--power", "2,9", CONFIG), 2, "no system '9'")


def test_judgments_by_several_annotators(tmp_path: Path) -> None:
    pytest.importorskip("scipy")
    from rouge155py.stats.annotators import annotator_ceiling, krippendorff_alpha, read_annotations

    base = {(e, s): (4 - int(s)) / 3 + (k % 3) / 10 for k, e in enumerate(EVALS) for s in "123"}
    annotated = tmp_path / "annotated.csv"
    lines = ["eval_id,system,annotator,quality"]
    lines += [
        f"{e},{s},{a},{q + 0.05 * ((k + j) % 4):.3f}"
        for k, ((e, s), q) in enumerate(base.items())
        for j, a in enumerate("xyz")
    ]
    annotated.write_text("\n".join(lines) + "\n", encoding="utf-8")
    annotations = read_annotations(annotated)
    means = tmp_path / "means.csv"
    mean_of = annotations.judgments().scores["quality"]
    means.write_text(
        "eval_id,system,quality\n" + "".join(f"{e},{s},{v!r}\n" for (e, s), v in mean_of.items())
    )
    found = json.loads(
        invoke("--judgments", str(annotated), "--samples", "100", "--format", "json", CONFIG).stdout_bytes
    )
    plain = json.loads(
        invoke("--judgments", str(means), "--samples", "100", "--format", "json", CONFIG).stdout_bytes
    )
    assert found["correlations"]["rows"] == plain["correlations"]["rows"]  # correlated with the cells' means
    agreement = found["correlations"]["agreement"]["quality"]
    assert agreement["annotators"] == 3
    assert agreement["alpha_interval"] == pytest.approx(krippendorff_alpha(annotations, "quality"), abs=1e-15)
    assert agreement["alpha_ordinal"] == pytest.approx(
        krippendorff_alpha(annotations, "quality", "ordinal"), abs=1e-15
    )
    ceilings = {(c["level"], c["coefficient"]): c["value"] for c in found["correlations"]["ceilings"]}
    assert len(ceilings) == 9
    assert ceilings[("system", "pearson")] == pytest.approx(
        annotator_ceiling(annotations, "quality"), abs=1e-15
    )
    text = invoke("--judgments", str(annotated), "--samples", "100", CONFIG).stdout_bytes.decode()
    assert text.count("annotators' ceiling") == 3 and "Krippendorff's alpha" in text


def test_other_metrics_in_the_comparisons_and_the_plots(tmp_path: Path) -> None:
    matplotlib = pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    from rouge155py.stats.judgments import read_scores
    from rouge155py.stats.significance import CompareSettings, compare_items

    path, scores = _judged_and_scored(tmp_path)
    found = json.loads(
        invoke(
            "--compare",
            "permutation",
            "--samples",
            "500",
            "--scores",
            str(scores),
            "--format",
            "json",
            CONFIG,
        ).stdout_bytes
    )
    rows = found["comparisons"]["rows"]
    external = [r for r in rows if r["metric"] in ("bleu", "ter (lower is better)")]
    assert {r["metric"] for r in external} == {"bleu", "ter (lower is better)"} and len(external) == 6
    table = read_scores(scores)
    named = {"bleu": table.variants["bleu"], "ter (lower is better)": table.variants["ter"]}
    expected = compare_items(named, "score", settings=CompareSettings("permutation", 500, 12345)).to_dicts()
    assert external == json.loads(json.dumps(expected))
    target = tmp_path / "systems.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        drawn = invoke(
            "--judgments", path, "--scores", str(scores), "--samples", "50", "--plot", str(target), CONFIG
        )
    assert drawn.exit_code == 0, drawn.stderr
    scatter = (tmp_path / "systems-scatter.svg").read_text(encoding="utf-8")
    assert "bleu: r = " in scatter and "ter (lower is better): r = " in scatter
    assert invoke("--scores", str(scores), CONFIG).exit_code == 2  # neither --judgments nor --compare
