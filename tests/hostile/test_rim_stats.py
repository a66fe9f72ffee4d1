"""The statistics held to the core's standard: no conclusion from noise, non-finite scores or one
item; any item ID; judgments read by a strict grammar; bounded memory whatever the systems."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import Result

from rouge155py import ComputeError, ConfigError, UsageError, evaluate_args
from rouge155py.errors import LimitError
from rouge155py.stats import judgments as judgments_module
from rouge155py.stats.correlation import CorrelateSettings, correlate, pearson, report_variants
from rouge155py.stats.judgments import Judgments, read_judgments
from rouge155py.stats.significance import TESTS, CompareSettings, compare_items

from .support import invoke

REPO = Path(__file__).resolve().parent.parent.parent
CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")
BASE = ["-e", str(REPO / "data"), "-a", "-r", "50"]
EVALS = [f"D{e:02d}" for e in range(1, 11)]


def assert_error(result: Result, code: int, pattern: str) -> None:
    lines = result.stderr_bytes.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rouge155py: error: "), lines
    assert result.exit_code == code, lines
    assert result.stdout_bytes == b""
    assert re.search(pattern, lines[0]), lines[0]


def two_systems(a: list[float], b: list[float]) -> dict[str, Any]:
    return {"M": {"A": {str(i): x for i, x in enumerate(a)}, "B": {str(i): x for i, x in enumerate(b)}}}


# Class 1: ties judged on the scores' own scale.


@pytest.mark.parametrize("test", TESTS)
def test_scores_within_a_relative_1e9_are_ties_not_a_significant_difference(test: str) -> None:
    noise = two_systems([1000 * (1 + 1e-12)] * 30, [1000.0] * 30)
    (row,) = compare_items(noise, settings=CompareSettings(test, samples=999)).rows
    assert row.p_value == 1.0 and not row.significant(0.05)
    # A real difference on the same scale is still found.
    real = two_systems([1000 * (1 + 1e-6) + 1e-4 * (i % 3) for i in range(30)], [1000.0] * 30)
    (row,) = compare_items(real, settings=CompareSettings(test, samples=999)).rows
    assert row.p_value < 0.01 and row.significant(0.05)


# Class 5 (statistics): NaN or infinite scores are refused, naming the system and item.


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
@pytest.mark.parametrize("test", TESTS)
def test_non_finite_scores_are_refused_naming_system_and_item(bad: float, test: str) -> None:
    scores = two_systems([0.1, 0.2, 0.3, 0.4], [0.5, bad, 0.2, 0.1])
    with pytest.raises(ComputeError, match=rf"M: the score of system 'B' on item '1' is {bad}: "):
        compare_items(scores, settings=CompareSettings(test, samples=50))


@pytest.mark.parametrize("bad", ["0.5", None, True, [0.5]])
def test_scores_that_are_not_numbers_are_refused_not_converted(bad: Any) -> None:
    scores = two_systems([0.1, 0.2, 0.3], [0.5, 0.4, 0.2])
    scores["M"]["B"]["2"] = bad
    with pytest.raises(UsageError, match=r"M: the score of system 'B' on item '2' is not a number"):
        compare_items(scores)
    rows = [
        {"eval_id": i, "system": s, "q": float(k + j)}
        for k, i in enumerate("012")
        for j, s in enumerate("ABC")
    ]
    variant = {s: {str(i): 0.1 * (i + j) for i in range(3)} for j, s in enumerate("ABC")}
    variant["B"]["2"] = bad
    with pytest.raises(UsageError, match=r"V: the score of system 'B' on item '2' is not a number"):
        correlate({"V": variant}, Judgments.from_rows(rows), settings=CorrelateSettings(samples=10))


def test_scores_whose_sums_overflow_are_refused() -> None:
    with pytest.raises(ComputeError, match="their sums overflow"):
        compare_items(two_systems([1e308, 1e308, 0.0], [0.0, 1.0, 2.0]))


def test_correlate_refuses_a_non_finite_score() -> None:
    rows = [
        {"eval_id": e, "system": s, "q": float(k + j)}
        for k, e in enumerate("xyz")
        for j, s in enumerate("abc")
    ]
    variant = {s: {e: 0.1 * (k + j) for k, e in enumerate("xyz")} for j, s in enumerate("abc")}
    variant["b"]["y"] = float("nan")
    with pytest.raises(ComputeError, match=r"V: the score of system 'b' on item 'y' is nan"):
        correlate({"V": variant}, Judgments.from_rows(rows), settings=CorrelateSettings(samples=10))


@pytest.mark.parametrize("fmt", ["text", "json", "csv", "markdown"])
def test_compare_on_a_run_with_infinite_scores_is_one_line_and_exit_6(fmt: str) -> None:
    # -w 0.005: ROUGE-W's weight is a power beyond the largest double, its F infinite.
    result = invoke(
        *BASE, "-n", "0", "-w", "0.005", "-d", "--compare", "paired-bootstrap", "--format", fmt, CONFIG
    )
    assert_error(result, 6, r"ROUGE-W-0.005: the score of system '1' on item 'D01' is inf: a paired test")


# Class 1: a test needs two items at least.


@pytest.mark.parametrize("test", TESTS)
def test_one_item_is_refused_in_python(test: str) -> None:
    with pytest.raises(
        ComputeError, match="M: 1 item scored by every system: a paired test needs two or more"
    ):
        compare_items(two_systems([0.2], [0.9]), settings=CompareSettings(test, samples=50))


@pytest.mark.parametrize("test", TESTS)
def test_one_eval_is_refused_on_the_command_line(tmp_path: Path, test: str) -> None:
    (tmp_path / "h1").write_text("a b c\n")
    (tmp_path / "h2").write_text("a c\n")
    (tmp_path / "r").write_text("a b d\n")
    hyps = ["--hyp", str(tmp_path / "h1"), "--hyp", str(tmp_path / "h2")]
    result = invoke("-n", "1", *hyps, "--ref", str(tmp_path / "r"), "--compare", test)
    assert_error(result, 6, "ROUGE-1: 1 item scored by every system: a paired test needs two or more")


# Class 1: any hashable item ID.


@pytest.mark.parametrize("test", TESTS)
def test_integer_item_ids_give_the_numbers_of_their_strings(test: str) -> None:
    a, b = [0.1, 0.5, 0.25, 0.75, 0.3, 0.9], [0.2, 0.1, 0.3, 0.35, 0.1, 0.4]
    by_index = {"M": {"A": dict(enumerate(a)), "B": dict(enumerate(b))}}
    settings = CompareSettings(test, samples=300, seed=3)
    assert (
        compare_items(by_index, settings=settings).rows
        == compare_items(two_systems(a, b), settings=settings).rows
    )
    # Integers, strings of digits, strings and tuples together: one fixed order, each its own item.
    mixed = {5: 0.1, "5": 0.3, "x": 0.2, (1, 2): 0.6, 10: 0.4}
    other = {key: value / 2 for key, value in mixed.items()}
    (row,) = compare_items({"M": {"A": mixed, "B": other}}, settings=settings).rows
    assert row.items == 5


# Class 1: judgments by a strict number grammar, the file and line in the error.


def write_judgments(tmp_path: Path, name: str, cell: Any) -> Path:
    """Judgments of the bundled run's three systems, one cell replaced by ``cell``."""
    path = tmp_path / name
    rows = [(e, s, 0.1 * s + 0.01 * k) for k, e in enumerate(EVALS) for s in (1, 2, 3)]
    if name.endswith(".jsonl"):
        lines = [json.dumps({"eval_id": e, "system": str(s), "q": q}) for e, s, q in rows]
        lines[1] = lines[1].replace(json.dumps(rows[1][2]), cell)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:
        lines = ["eval_id,system,q", *(f"{e},{s},{q!r}" for e, s, q in rows)]
        lines[2] = f"{rows[1][0]},{rows[1][1]},{cell}"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def assert_refused(path: Path, pattern: str) -> None:
    """The judgments file is refused in Python (ConfigError) and on the command line (exit 3)."""
    with pytest.raises(ConfigError, match=pattern):
        read_judgments(path)
    assert_error(invoke(*BASE, "-n", "1", "--judgments", str(path), CONFIG), 3, pattern)


@pytest.mark.parametrize(
    ("name", "cell", "pattern"),
    [
        (
            "j.jsonl",
            "1" * 400,
            r"j\.jsonl, line 2: q is an integer of 400 digits, beyond the range of a number",
        ),
        ("j.csv", "1_0", r"j\.csv, line 3: q is not a number: '1_0'"),
        ("j.csv", "\u0661", r"j\.csv, line 3: q is not a number"),
        ("j.csv", "1e5_0", r"j\.csv, line 3: q is not a number: '1e5_0'"),
    ],
)
def test_judgment_cells_follow_a_strict_number_grammar(
    tmp_path: Path, name: str, cell: str, pattern: str
) -> None:
    assert_refused(write_judgments(tmp_path, name, cell), pattern)


def test_judgments_near_the_largest_double_correlate_as_their_scaled_values() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    report = evaluate_args([*BASE, "-n", "1", CONFIG])
    variants = report_variants(report, ["F"])
    rng = np.random.default_rng(5)
    small = {(e, str(s)): float(rng.random()) for e in EVALS for s in (1, 2, 3)}
    huge = {key: value * 2.0**1023 for key, value in small.items()}  # exact: the same numbers, scaled
    settings = CorrelateSettings(samples=200, seed=2)
    found = {}
    for name, table in (("small", small), ("huge", huge)):
        rows = [{"eval_id": e, "system": s, "q": q} for (e, s), q in table.items()]
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no overflow on the way
            found[name] = correlate(variants, Judgments.from_rows(rows, name), settings=settings)
    assert [r.value for r in found["huge"].rows] == [r.value for r in found["small"].rows]
    assert [(r.low, r.high) for r in found["huge"].rows] == [(r.low, r.high) for r in found["small"].rows]
    scores = variants["ROUGE-1 F"]
    x = [np.mean([scores[s][e] for e in EVALS]) for s in ("1", "2", "3")]
    y = [np.mean([small[(e, s)] for e in EVALS]) for s in ("1", "2", "3")]
    expected = scipy_stats.pearsonr(x, y).statistic
    assert found["huge"].get("ROUGE-1 F", "q", "system", "pearson").value == pytest.approx(
        expected, abs=1e-12
    )


def test_pearson_of_values_near_the_largest_double_is_scipys_of_the_scaled_values() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(9)
    for _ in range(50):
        x, y = rng.normal(size=(2, int(rng.integers(3, 40))))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            r = float(pearson(x * 1e307, y * -3e306))
        assert r == pytest.approx(-scipy_stats.pearsonr(x, y).statistic, abs=1e-12)


# Class 7 (judgments): parser limits as one line.


def test_a_deeply_nested_jsonl_line_is_one_line_exit_3(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text('{"eval_id": "D01", "system": "1", "q": 0.5}\n' + "[" * 50_000 + "\n", encoding="utf-8")
    pattern = r"deep\.jsonl, line 2: not a JSON object \(nested deeper than 100 levels\)"
    assert_refused(path, pattern)


def test_a_csv_cell_over_csvs_own_limit_is_read_up_to_a_summary_files_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "wide.csv"
    path.write_text("eval_id,system,q\nD01,1," + "x" * 140_000 + "\n", encoding="utf-8")
    pattern = r"wide\.csv, line 2: q is not a number: 'xxx"
    assert_refused(path, pattern)
    monkeypatch.setattr(judgments_module, "MAX_FILE_BYTES", 100_000)  # a cell beyond it
    with pytest.raises(LimitError, match=r"wide\.csv, line 2: a cell larger than a summary file may be"):
        read_judgments(path)


# Class 4 (--compare): memory bounded whatever the number of systems.

_BOUNDED = """
import resource, sys
limit = 1 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import numpy as np
from rouge155py.stats.significance import CompareSettings, compare_items
rng = np.random.default_rng(1)
items = int(sys.argv[2])
scores = {"M": {f"S{s:03d}": {str(i): float(v) for i, v in enumerate(rng.random(items))} for s in range(300)}}
found = compare_items(scores, settings=CompareSettings(sys.argv[1], samples=3000))
print(len(found.rows))
"""


@pytest.mark.slow
def test_compare_of_300_systems_fits_in_1_gb_of_address_space() -> None:
    # 44,850 pairs x 3,000 samples: 1.1 GB as one matrix of resampled differences.
    done = subprocess.run(
        [sys.executable, "-c", _BOUNDED, "paired-bootstrap", "5"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split() == ["44850"]


GOOD = {"a": {1: 0.5, 2: 0.25, 3: 0.75}, "b": {1: 0.25, 2: 0.5, 3: 0.5}}


@pytest.mark.parametrize(
    "scores",
    [
        [("ROUGE-1", GOOD)],
        {"ROUGE-1": [("a", {1: 0.5})]},
        {"ROUGE-1": {"a": (0.5, 0.25), "b": (0.1, 0.2)}},
        {"ROUGE-1": {"a": np.array([0.5, 0.25]), "b": {1: 0.1}}},
        {1: GOOD},
        {"ROUGE-1": {0: GOOD["a"], 1: GOOD["b"]}},
    ],
    ids=["pairs", "system pairs", "tuples", "array", "int label", "int systems"],
)
def test_scores_of_another_shape_are_a_usage_error(scores: Any) -> None:
    with pytest.raises(UsageError, match=r"mapping|string"):
        compare_items(scores)


@pytest.mark.parametrize("baseline", [["a"], np.array(["a", "b"]), {"a": 1}])
def test_a_baseline_that_is_no_system_id_is_a_usage_error(baseline: Any) -> None:
    with pytest.raises(UsageError, match="baseline"):
        compare_items({"ROUGE-1": GOOD}, baseline=baseline)


@pytest.mark.parametrize("value", [np.array(["permutation"]), np.array([])], ids=["one", "empty"])
def test_settings_given_as_arrays_are_a_usage_error(value: Any) -> None:
    with pytest.raises(UsageError, match="test"):
        CompareSettings(value)
    with pytest.raises(UsageError, match="resample"):
        CorrelateSettings(value)


def test_bounds_beyond_the_digits_python_prints_are_described() -> None:
    with pytest.raises(UsageError, match="an int of 16610 bits"):
        CompareSettings(seed=10**5000)


def test_an_integer_score_beyond_a_double_is_not_finite() -> None:
    scores = {"ROUGE-1": {"a": {1: 10**400, 2: 0.5}, "b": {1: 0.25, 2: 0.5}}}
    with pytest.raises(ComputeError, match=r"system 'a' on item 1 is an int of 1329 bits"):
        compare_items(scores)


def test_item_ids_of_more_digits_than_python_reads_are_ordered_as_strings() -> None:
    long = "1" * 5000
    scores = {"ROUGE-1": {s: {long: v, "7": v / 2, 3: v / 4} for s, v in (("a", 0.5), ("b", 0.25))}}
    (row,) = compare_items(scores, settings=CompareSettings(samples=20)).rows
    assert row.items == 3


def test_a_level_beyond_a_double_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="level must be a finite number, got an int of 1329 bits"):
        CompareSettings(level=10**400)


@pytest.mark.parametrize("fmt", [10**5000, object()], ids=["huge int", "object"])
def test_a_table_format_of_another_kind_is_described(fmt: Any) -> None:
    from rouge155py.stats.tables import render

    with pytest.raises(UsageError, match="the table format must be one of"):
        render(["a"], [["b"]], fmt)


def test_a_judgment_past_the_digits_python_prints_is_described() -> None:
    rows = [{"item": "1", "system": "a", "q": 10**5000}]
    with pytest.raises(ConfigError, match="q is an int of 16610 bits, beyond the range of a number"):
        Judgments.from_rows(rows)
