"""``--check ARCHIVED``: a run against an archived ROUGE-1.5.5 report (the Perl's, under
tests/fixtures/perl/), its verdict, ``--tolerance``, and the report reader it stands on."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from test_fixtures import CASE_NAMES, FIXTURES, REPO, _run_port

from rouge155py import Rouge155
from rouge155py.report.archived import Row, read_report
from rouge155py.report.check import check_report, read_archive

DATA = str(REPO / "data")


def _args(name: str) -> list[str]:
    args = json.loads((FIXTURES / name / "args.json").read_text(encoding="utf-8"))
    assert isinstance(args, list)
    return args


def _checked(monkeypatch: pytest.MonkeyPatch, archived: Path, *args: str) -> tuple[int, bytes, str]:
    monkeypatch.chdir(REPO)
    code, stdout, stderr = _run_port(["-e", DATA, "--check", str(archived), *args])
    return code, stdout, stderr.decode("utf-8", "replace")


AGREEING = [
    name
    for name in CASE_NAMES
    if (FIXTURES / name / "exit_code.txt").read_text().strip() == "0"
    and (FIXTURES / name / "stdout.txt").stat().st_size
]


@pytest.mark.parametrize("name", AGREEING)
def test_each_archived_perl_output_agrees(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The Perl's outputs (``-v``'s too, its lines as a multiset), run again with their options:
    exit 0, the report on stdout as without --check, and one verdict line on stderr."""
    archived = FIXTURES / name / "stdout.txt"
    code, stdout, stderr = _checked(monkeypatch, archived, *_args(name))
    assert code == 0, stderr
    how = r"its numbers; \d+ -v lines not compared" if "-v" in _args(name) else "byte for byte"
    assert re.search(rf"^rouge155py: check: the report agrees with .* \({how}, \d+ numbers\)$", stderr, re.M)
    if "-v" not in _args(name):
        assert stdout == archived.read_bytes()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (["-c", "99"], "-c 95 (its intervals are 95%)"),
        (["-n", "1"], "-n 2 (it has ROUGE-2, the run goes to 1)"),
        (["-d"], "no -d (it prints no eval)"),
        (["-3", "HM"], None),
    ],
)
def test_a_changed_option_is_a_difference_that_names_it(
    monkeypatch: pytest.MonkeyPatch, change: list[str], named: str
) -> None:
    args = _args("duc-official")
    if change[0] in args:  # the Perl's getopts keeps an option's last value: change it in place
        at = args.index(change[0])
        args[at : at + len(change)] = change
    else:
        args = [*change, *args]
    archived = FIXTURES / "duc-official" / "stdout.txt"
    code, _, stderr = _checked(monkeypatch, archived, *args)
    lines = stderr.splitlines()
    assert code == (4 if change[0] == "-3" else 8), stderr  # -3 on SEE files: the Perl's own error
    if named is None:
        return
    assert lines[-1].startswith(f"rouge155py: error: the report differs from {archived} (byte for byte): ")
    assert f"the archive implies: {named}" in stderr
    if change == ["-c", "99"]:  # numbers differ: the table; -n 1 and -d only drop or add rows
        assert re.match(r"  system +metric +field +archived +now +difference$", lines[0])


def test_a_dropped_stemmer_is_said_to_change_numbers_only(monkeypatch: pytest.MonkeyPatch) -> None:
    args = [a for a in _args("duc-official") if a != "-m"]
    code, _, stderr = _checked(monkeypatch, FIXTURES / "duc-official" / "stdout.txt", *args)
    assert code == 8
    assert re.search(r"^  1 +ROUGE-1 +R +0\.\d{5} +0\.\d{5} +[-+]0\.\d{5}$", stderr, re.M)
    assert "the archive implies: nothing in its lines: the numbers change with -m, -s" in stderr


def _nudged(text: str) -> str:
    """Every average one unit of the last digit higher (0.00001)."""

    def up(m: re.Match[str]) -> str:
        return f"{float(m.group(0)) + 0.00001:.5f}"

    return re.sub(r"(?<=Average_[RPF]: )\d\.\d{5}", up, text)


@pytest.mark.parametrize(("tolerance", "code"), [(None, 8), ("0.000005", 8), ("0.00002", 0), ("1", 0)])
def test_tolerance_compares_numbers_within_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, tolerance: str, code: int
) -> None:
    archived = tmp_path / "nudged.out"
    archived.write_text(_nudged((FIXTURES / "duc-official" / "stdout.txt").read_text()))
    extra = [] if tolerance is None else ["--tolerance", tolerance]
    got, _, stderr = _checked(monkeypatch, archived, *extra, *_args("duc-official"))
    assert got == code, stderr
    if code == 8:
        assert re.search(r"^  1 +ROUGE-1 +R +0\.\d{5} +0\.\d{5} +-0\.00001$", stderr, re.M)
    else:
        assert f"within {float(tolerance):g}" in stderr


def test_json_gives_the_verdict_on_stdout(monkeypatch: pytest.MonkeyPatch) -> None:
    archived = FIXTURES / "duc-official" / "stdout.txt"
    changed = ["-c" if a == "-c" else "99" if a == "95" else a for a in _args("duc-official")]
    code, stdout, _ = _checked(monkeypatch, archived, "--format", "json", *changed)
    verdict = json.loads(stdout)
    assert code == 8 and verdict["agrees"] is False and verdict["compared"] == "bytes"
    assert "-c 95 (its intervals are 95%)" in verdict["implied_settings"]
    first = verdict["differences"][0]
    assert set(first) == {"system", "metric", "field", "archived", "now"}
    code, stdout, _ = _checked(monkeypatch, archived, "--format", "json", *_args("duc-official"))
    assert code == 0 and json.loads(stdout)["agrees"] is True


@pytest.mark.parametrize(
    ("content", "code", "message"),
    [
        (None, 4, r"--check: cannot open .*missing\.out: No such file or directory"),
        (b"this is not a report\n", 3, r"missing\.out: not a ROUGE-1\.5\.5 report"),
        (b"\x00\xff\x01 binary", 3, r"not a ROUGE-1\.5\.5 report"),
    ],
)
def test_an_archive_that_is_no_report_is_refused_before_the_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, content: bytes, code: int, message: str
) -> None:
    archived = tmp_path / "missing.out"
    if content is not None:
        archived.write_bytes(content)
    got, stdout, stderr = _checked(monkeypatch, archived, *_args("duc-official"))
    assert (got, stdout) == (code, b"")
    assert re.fullmatch(f"rouge155py: error: .*{message}.*\n", stderr), stderr


def test_a_run_that_scores_nothing_never_agrees(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "empty.xml"
    config.write_text('<ROUGE-EVAL version="1.0">\n</ROUGE-EVAL>\n')
    archived = tmp_path / "empty.out"
    archived.write_bytes(b"")
    code, stdout, stderr = _checked(monkeypatch, archived, "-a", "-n", "2", str(config))
    assert (code, stdout) == (8, b"")
    assert "the run scored nothing" in stderr.splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tolerance", "0.1"], "--tolerance applies to --check ARCHIVED"),
        (["--check", "x.out", "--tolerance", "-1"], "--tolerance needs a number of 0 or more, got '-1'"),
        (["--check", "x.out", "--tolerance", "nan"], "--tolerance needs a number of 0 or more, got 'nan'"),
    ],
)
def test_bad_tolerances_are_usage_errors(
    monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(REPO)
    code, _, stderr = _run_port(["-e", DATA, *args, *_args("duc-official")])
    assert (code, stderr.decode()) == (2, f"rouge155py: error: {message}\n")


def test_the_reader_keeps_each_number_as_printed() -> None:
    counts = read_report((FIXTURES / "count-totals-t2-d" / "stdout.txt").read_text())
    assert counts.per_eval and counts.counts and counts.confidence is None
    assert counts.numbers[Row("1", "ROUGE-1", "M_count")] == "2905"
    assert counts.numbers[Row("1", "ROUGE-1", "D01.1 R")] == "329"
    averages = read_report((FIXTURES / "duc-official" / "stdout.txt").read_text())
    assert not averages.per_eval and not averages.counts and averages.confidence == "95"
    assert averages.metrics == ["ROUGE-1", "ROUGE-2", "ROUGE-SU4"]
    first = (FIXTURES / "duc-official" / "stdout.txt").read_text().splitlines()[1]
    value, low, high = list(averages.numbers.values())[:3]
    assert first == f"1 ROUGE-1 Average_R: {value} (95%-conf.int. {low} - {high})"


def test_the_verdict_of_identical_reports(tmp_path: Path) -> None:
    archived = tmp_path / "a.out"
    archived.write_bytes((FIXTURES / "design-card" / "stdout.txt").read_bytes())
    text, report = read_archive(str(archived))
    verdict = check_report(str(archived), text, report, text)
    assert verdict.agrees and not verdict.lines() and verdict.compared == len(report.numbers)


def test_pyrouge_output_to_dict_by_system_keeps_every_system() -> None:
    text = "\n".join(
        f"{system} ROUGE-1 Average_{m}: 0.{k}0000 (95%-conf.int. 0.{k}1111 - 0.{k}2222)"
        for k, system in enumerate(["11", "A", "12"], start=1)
        for m in "RPF"
    )
    by_system = Rouge155.output_to_dict(text, by_system=True)
    assert list(by_system) == ["11", "A", "12"]
    assert by_system["A"] == {
        f"rouge_1_{name}{end}": value
        for name in ("recall", "precision", "f_score")
        for end, value in (("", 0.2), ("_cb", 0.21111), ("_ce", 0.22222))
    }
    assert Rouge155.output_to_dict(text) == by_system["12"]  # pyrouge's: numeric IDs, the last one


def test_the_docs_shell_line_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (REPO / "docs" / "duc-tac.md").read_text(encoding="utf-8")
    block = text.split("A plain shell line, here against")[1].split("```sh\n")[1].split("\n```")[0]
    words = shlex.split(block)
    assert words[0] == "rouge155py" and words[-2:] == [">", "/dev/null"]
    done = subprocess.run([sys.executable, "-m", *words[:-2]], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(
        "rouge155py: check: the report agrees with tests/fixtures/perl/design-card/"
    )
