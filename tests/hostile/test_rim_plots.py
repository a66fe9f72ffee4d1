"""``--plot`` and :mod:`rouge155py.stats.plots` at their edges.

Every run the report can print is drawn (an interval that leaves out its average is drawn as
given); labels are text, never math; what the functions refuse is one of the project's errors;
a picture that cannot be drawn or written is one line and exit 1 after the report or tables,
which it never takes along; the same data draws the same bytes whatever matplotlib's settings.
"""

from __future__ import annotations

import os
import resource
import site
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import Result
from tier import first_fast

from rouge155py import UsageError, score
from rouge155py.errors import OutputError
from rouge155py.stats.judgments import Judgments

from .support import DATA, REPO, invoke

matplotlib = pytest.importorskip("matplotlib")
plots = pytest.importorskip("rouge155py.stats.plots")

CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")
RUN = ["-e", DATA, "-a", "-n", "2", "-r", "50", CONFIG]
TIMEOUT = 60.0


def stderr_lines(result: Any) -> list[str]:
    data = result.stderr_bytes if isinstance(result, Result) else result.stderr
    return data.decode("utf-8", "backslashreplace").splitlines()


def one_error_line(lines: list[str], pattern: str) -> None:
    """The last line is the run's one error line; no traceback before it."""
    assert lines and lines[-1].startswith("rouge155py: error: ") and pattern in lines[-1], lines
    assert all(line.startswith("rouge155py: ") for line in lines), lines
    assert sum(line.startswith("rouge155py: error: ") for line in lines) == 1, lines


def systems(*names: str, resamples: int = 5, **options: Any) -> Any:
    summaries = ["a b c", "x y z", "a d"]
    return score(
        {name: summaries[k % 3 :] + summaries[: k % 3] for k, name in enumerate(names)},
        ["a b d", "x y w", "a d e"],
        max_ngram=1,
        resamples=resamples,
        **options,
    )


# --- 1. every run the report can print is drawn -------------------------------------------


def test_a_run_with_one_eval_prints_its_report_and_draws(tmp_path: Path) -> None:
    """The issue's case: the average 0.6666699999999951 lies under its interval 0.66667 - 0.66667."""
    (tmp_path / "h").write_text("a b c\n" * 3)
    (tmp_path / "r").write_text("a b d\n" * 3)
    files = ["-n", "1", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r")]
    plain = invoke(*files)
    picture = tmp_path / "x.png"
    drawn = invoke(*files, "--plot", str(picture))
    assert (drawn.exit_code, stderr_lines(drawn)) == (0, []), stderr_lines(drawn)
    assert drawn.stdout_bytes == plain.stdout_bytes != b""  # --plot alone: the report, as without it
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    markdown = invoke(*files, "--format", "markdown", "--plot", str(tmp_path / "x.svg"))
    assert markdown.exit_code == 0 and markdown.stdout_bytes.startswith(b"| system |")


@pytest.mark.parametrize("output_format", ["json", "csv", "text"])
def test_plot_alone_prints_the_report_in_any_format(tmp_path: Path, output_format: str) -> None:
    plain = invoke("--format", output_format, *RUN)
    drawn = invoke("--format", output_format, "--plot", str(tmp_path / "s.png"), *RUN)
    assert drawn.exit_code == 0, stderr_lines(drawn)
    assert drawn.stdout_bytes == plain.stdout_bytes
    assert (tmp_path / "s.png").stat().st_size > 0


@pytest.mark.parametrize("resamples", [1, 2, 3, 5])
def test_intervals_that_leave_out_the_average_are_drawn(tmp_path: Path, resamples: int) -> None:
    """-r 1 and -r 2 read ranks past the end as 0 (the Perl's rule): bounds above the average."""
    report = systems("x", "y", resamples=resamples)
    plots.plot_systems(report, tmp_path / "r.svg")
    ElementTree.parse(tmp_path / "r.svg")


def test_counting_one_is_drawn_and_counting_two_refused(tmp_path: Path) -> None:
    (tmp_path / "h").write_text("a b c\na c\n")
    (tmp_path / "r").write_text("a b d\na b\n")
    files = ["-n", "1", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r")]
    drawn = invoke("-t", "1", *files, "--plot", str(tmp_path / "t1.png"))
    assert drawn.exit_code == 0 and drawn.stdout_bytes == invoke("-t", "1", *files).stdout_bytes
    refused = invoke("-t", "2", *files, "--plot", str(tmp_path / "t2.png"))
    assert refused.exit_code == 2 and refused.stdout_bytes == b""
    one_error_line(stderr_lines(refused), "under -t 2 the report holds counts")
    with pytest.raises(UsageError, match="no average"):
        plots.plot_systems(systems("x", "y", counting=2), tmp_path / "t2.png")
    assert not (tmp_path / "t2.png").exists()


# --- 2. labels are text, never math ---------------------------------------------------------

#: A system ID, and as the picture shows it: text, on one line, in UTF-8.
HOSTILE = {
    "$x^$": "$x^$",
    "$\\foo$": "$\\foo$",
    "$a$ and $b": "$a$ and $b",
    "\\": "\\",
    "a\\$b$": "a\\$b$",
    "\udcff\udc80": "\\xff\\x80",  # bytes that were not UTF-8, as the report's JSON shows them
    "中文": "中文",
    "é": "é",
    "a\x00--b": "a\\x00--b",
    "a\nb\tc": "a\\x0ab\\x09c",
    "\u202e": "\u202e",
}


@pytest.mark.parametrize("suffix", ["png", "svg"])
@pytest.mark.parametrize("name", list(HOSTILE), ids=[ascii(name) for name in HOSTILE])
def test_system_ids_are_drawn_as_text(tmp_path: Path, name: str, suffix: str) -> None:
    picture = tmp_path / f"s.{suffix}"
    plots.plot_systems(systems(name, "other"), picture)
    if suffix == "svg":
        drawn = picture.read_bytes().decode("utf-8")
        ElementTree.fromstring(drawn)  # well-formed: no control character in it
        assert f"<!-- {HOSTILE[name]} -->" in drawn.replace("- -", "--")  # matplotlib splits -- in comments


def test_judgment_columns_and_systems_are_drawn_as_text(tmp_path: Path) -> None:
    names = ["$x^$", "$\\bar", "中"]
    report = systems(*names)
    rows = [
        {"eval_id": eval_id, "system": name, "$\\foo$": 0.1 * (k + 1) + 0.05 * e}
        for e, eval_id in enumerate(("1", "2", "3"))
        for k, name in enumerate(names)
    ]
    judgments = Judgments.from_rows(rows)
    for suffix in ("png", "svg"):
        plots.plot_scatter(report, judgments, tmp_path / f"j.{suffix}")
    drawn = (tmp_path / "j.svg").read_text(encoding="utf-8")
    assert "$\\foo$ (mean per system)" in drawn and "$x^$" in drawn


def test_labels_in_the_command_line_pictures(tmp_path: Path) -> None:
    hyps = []
    for k, name in enumerate(["$x^$", "$\\bar", "中"]):
        (tmp_path / f"h{k}").write_text(["a b c\na c\nb c d\n", "a c\nb b\nc d\n", "a\nb\nd\n"][k])
        hyps += ["--hyp", f"{name}={tmp_path / f'h{k}'}"]
    (tmp_path / "r").write_text("a b d\na b\nb c\n")
    judged = "".join(
        f"{e},{s},{v + e / 10}\n" for e in (1, 2, 3) for s, v in (("$x^$", 0.9), ("$\\bar", 0.5), ("中", 0))
    )
    (tmp_path / "j.csv").write_text("eval_id,system,$\\foo$\n" + judged, encoding="utf-8")
    result = invoke(
        "-n", "1", *hyps, "--ref", str(tmp_path / "r"),
        "--judgments", str(tmp_path / "j.csv"), "--samples", "20", "--plot", str(tmp_path / "p.png"),
    )  # fmt: skip
    assert result.exit_code == 0, stderr_lines(result)
    assert (tmp_path / "p.png").exists() and (tmp_path / "p-scatter.png").exists()


# --- 3. what the functions refuse is one of the project's errors ----------------------------


def _refusals() -> list[tuple[str, Callable[[Any, Any, Path], None], str]]:
    return [
        (
            "measure",
            lambda r, j, d: plots.plot_systems(r, d / "a.png", measure="Q"),
            "measure must be one of",
        ),
        (
            "metric",
            lambda r, j, d: plots.plot_systems(r, d / "a.png", metrics=["ROUGE-9"]),
            "no metric 'ROUGE-9'",
        ),
        (
            "metric str",
            lambda r, j, d: plots.plot_systems(r, d / "a.png", metrics="ROUGE-1"),
            "a list of metric",
        ),
        ("metric int", lambda r, j, d: plots.plot_systems(r, d / "a.png", metrics=3), "a list of metric"),
        ("path int", lambda r, j, d: plots.plot_systems(r, 3), "a file name, got 3"),
        ("path None", lambda r, j, d: plots.plot_systems(r, None), "a file name, got None"),
        ("path pdf", lambda r, j, d: plots.plot_systems(r, d / "a.pdf"), ".png or .svg"),
        ("path NUL", lambda r, j, d: plots.plot_systems(r, str(d / "a\0.png")), "NUL"),
        ("report", lambda r, j, d: plots.plot_systems(None, d / "a.png"), "draws a Report"),
        ("report dict", lambda r, j, d: plots.plot_scatter({}, j, d / "a.png"), "draws a Report"),
        (
            "judgments",
            lambda r, j, d: plots.plot_scatter(r, None, d / "a.png"),
            "judgments must be Judgments",
        ),
        ("no columns", lambda r, j, d: plots.plot_scatter(r, Judgments("empty"), d / "a.png"), "no judgment"),
        (
            "judgment",
            lambda r, j, d: plots.plot_scatter(r, j, d / "a.png", judgment="nope"),
            "no judgment 'nope'",
        ),
        ("judgment int", lambda r, j, d: plots.plot_scatter(r, j, d / "a.png", judgment=5), "no judgment 5"),
        (
            "judgment list",
            lambda r, j, d: plots.plot_scatter(r, j, d / "a.png", judgment=[]),
            "no judgment a list",
        ),
        (
            "scatter metric",
            lambda r, j, d: plots.plot_scatter(r, j, d / "a.png", metrics=["X"]),
            "no metric 'X'",
        ),
        ("scatter path", lambda r, j, d: plots.plot_scatter(r, j, 1.5), "a file name, got 1.5"),
    ]


@pytest.mark.parametrize(("call", "pattern"), [c[1:] for c in _refusals()], ids=[c[0] for c in _refusals()])
def test_refusals_are_usage_errors(
    tmp_path: Path, call: Callable[[Any, Any, Path], None], pattern: str
) -> None:
    report = systems("x", "y", "z")
    rows = [{"eval_id": e, "system": s, "q": float(k)} for e in ("1", "2", "3") for k, s in enumerate("xyz")]
    with pytest.raises(UsageError) as raised:
        call(report, Judgments.from_rows(rows), tmp_path)
    assert pattern in str(raised.value) and "\n" not in str(raised.value)
    assert not list(tmp_path.iterdir())


def test_bytes_and_path_objects_are_file_names(tmp_path: Path) -> None:
    report = systems("x", "y")
    plots.plot_systems(report, os.fsencode(tmp_path / "b.png"))
    plots.plot_systems(report, tmp_path / "p.svg")
    assert (tmp_path / "b.png").exists() and (tmp_path / "p.svg").exists()


def test_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(UsageError, match="plots need matplotlib"):
        plots.plot_systems(systems("x", "y"), tmp_path / "a.png")
    refused = invoke("--plot", str(tmp_path / "a.png"), *RUN)  # before the run: nothing printed
    assert refused.exit_code == 2 and refused.stdout_bytes == b""
    one_error_line(stderr_lines(refused), "--plot needs matplotlib")


# --- 4. a picture that cannot be drawn or written comes after the report --------------------


def test_a_picture_that_cannot_be_written_comes_after_the_tables(tmp_path: Path) -> None:
    tables = invoke("--format", "markdown", *RUN)
    failed = invoke("--format", "markdown", "--plot", "/nonexistent/x.png", *RUN)
    assert failed.exit_code == 1 and failed.stdout_bytes == tables.stdout_bytes != b""
    one_error_line(stderr_lines(failed), "cannot write /nonexistent/x.png: No such file or directory")
    report = invoke(*RUN)
    folder = tmp_path / "folder.svg"
    folder.mkdir()
    failed = invoke("--plot", str(folder), *RUN)
    assert failed.exit_code == 1 and failed.stdout_bytes == report.stdout_bytes
    one_error_line(stderr_lines(failed), f"cannot write {folder}: Is a directory")


def test_a_picture_that_cannot_be_drawn_leaves_the_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from matplotlib.figure import Figure

    def refuse(self: Any, *args: Any, **kwargs: Any) -> None:
        raise ValueError("Image size of 700x99999999 pixels is too large.\nIt must be less than 2^23")

    monkeypatch.setattr(Figure, "savefig", refuse)
    picture = tmp_path / "kept.png"
    picture.write_bytes(b"before")
    with pytest.raises(OutputError, match=r"cannot draw .*kept.png: Image size .* too large\. It must"):
        plots.plot_systems(systems("x", "y"), picture)
    tables = invoke("--format", "markdown", *RUN)
    failed = invoke("--format", "markdown", "--plot", str(picture), *RUN)
    assert failed.exit_code == 1 and failed.stdout_bytes == tables.stdout_bytes
    one_error_line(stderr_lines(failed), "cannot draw")
    assert picture.read_bytes() == b"before"


def _limited(limit: int) -> Callable[[], None]:
    def few() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    return few


def _run(
    args: list[str], cwd: Path, limit: int, *python: str, env: Any = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *python, "-m", "rouge155py", *args],
        cwd=cwd,
        capture_output=True,
        timeout=TIMEOUT,
        preexec_fn=_limited(limit),
        env=env,
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="descriptor limits as Linux counts them")
@pytest.mark.parametrize("output_format", first_fast(["legacy", "markdown"]))
@pytest.mark.parametrize("limit", first_fast(range(5, 10)))
def test_few_descriptors_print_the_report_then_one_line(
    tmp_path: Path, limit: int, output_format: str
) -> None:
    """``ulimit -n 5`` or more: the report or tables always, then the picture or one error line."""
    args = ["--format", output_format, *RUN]
    plain = _run(args, REPO, 1024)
    drawn = _run([*args[:2], "--plot", str(tmp_path / "few.png"), *args[2:]], REPO, limit)
    assert drawn.stdout == plain.stdout != b""
    if drawn.returncode == 0:
        assert stderr_lines(drawn) == stderr_lines(plain)
        assert (tmp_path / "few.png").read_bytes()[:4] == b"\x89PNG"
    else:
        assert drawn.returncode == 1, stderr_lines(drawn)
        one_error_line(stderr_lines(drawn), "cannot draw")
        assert not (tmp_path / "few.png").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="descriptor limits as Linux counts them")
def test_no_descriptor_for_a_module_is_one_line(tmp_path: Path) -> None:
    """``ulimit -n 4``: where the interpreter starts at all (no ``.pth`` file importing while it
    is open; here ``-S`` and the paths by hand), the run has no descriptor left for the modules it
    imports as it goes."""
    paths = [str(REPO), *site.getsitepackages(), site.getusersitepackages()]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    found = _run(["--plot", str(tmp_path / "x.png"), *RUN], REPO, 4, "-S", env=env)
    assert found.returncode == 1 and found.stdout == b""
    one_error_line(stderr_lines(found), "Too many open files (ulimit -n): cannot open ")


# --- 5. the same data draws the same bytes --------------------------------------------------


@pytest.mark.parametrize("suffix", first_fast(["png", "svg"]))
def test_the_same_data_draws_the_same_bytes_whatever_the_settings(tmp_path: Path, suffix: str) -> None:
    report = systems("x", "$y$", "z")
    rows = [
        {"eval_id": e, "system": s, "q": float(k) + int(e)}
        for e in "123"
        for k, s in enumerate(["x", "$y$", "z"])
    ]
    judgments = Judgments.from_rows(rows)
    plots.plot_systems(report, tmp_path / f"a.{suffix}")
    plots.plot_scatter(report, judgments, tmp_path / f"sa.{suffix}")
    changed = {
        "font.size": 31.0,
        "text.usetex": True,  # would need LaTeX
        "axes.facecolor": "black",
        "svg.hashsalt": None,
        "lines.linewidth": 9.0,
    }
    if "text.parse_math" in matplotlib.rcParams:  # matplotlib 3.6 and later
        changed["text.parse_math"] = False  # would draw the backslash of an escaped $
    with matplotlib.rc_context(changed):
        plots.plot_systems(report, tmp_path / f"b.{suffix}")
        plots.plot_scatter(report, judgments, tmp_path / f"sb.{suffix}")
        assert all(matplotlib.rcParams[key] == value for key, value in changed.items())
    assert (tmp_path / f"a.{suffix}").read_bytes() == (tmp_path / f"b.{suffix}").read_bytes()
    assert (tmp_path / f"sa.{suffix}").read_bytes() == (tmp_path / f"sb.{suffix}").read_bytes()


@pytest.mark.slow
def test_the_same_bytes_from_two_processes(tmp_path: Path) -> None:
    for name in ("one.svg", "two.svg"):
        assert _run(["--plot", str(tmp_path / name), *RUN], REPO, 1024).returncode == 0
    assert (tmp_path / "one.svg").read_bytes() == (tmp_path / "two.svg").read_bytes()
