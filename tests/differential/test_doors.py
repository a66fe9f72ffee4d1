"""The doors without a configuration file, proved against ROUGE-1.5.5.pl.

- ``Rouge(**options).score(predictions, references)``: its legacy text must be
  the bytes the Perl prints for the SPL (or SIMPLE BE) files the texts stand for.
- ``rouge155py --hyp FILE --ref FILE ... [--sep SEP]``: the bytes the Perl prints
  for the SPL evaluation the line-aligned files stand for (line i is eval ``i``);
  with several ``--hyp`` (``NAME=FILE``, or files named as their systems), one
  peer per hypothesis file in each eval.

``ROUGE155PY_DOOR_CASES`` (default 60) in-memory cases, half as many
line-aligned ones, a quarter as many with several systems. The Perl tests are
skipped when the reference Perl is not installed; the same cases are always
checked against this port's own configuration-file door, which the other
differential tests hold to the Perl. The fast tier (``-m "not slow"``) runs the
first three cases of each kind.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

import pytest
from tier import first_fast, seed_chunks

from rouge155py import InputError, Rouge, RougeError, UsageError, evaluate_args, format_legacy
from rouge155py.cli import main
from rouge155py.metrics.scoring import fmt5
from rouge155py.report import CSV_COLUMNS, perl_number

from .doors import (
    AlignedCase,
    DoorCase,
    Written,
    make_aligned_case,
    make_door_case,
    make_systems_case,
    option_words,
    write_aligned_case,
    write_door_case,
    write_evals,
)
from .runner import DATA_DIR, REPO_ROOT, Outcome, Result, compare

CASES = int(os.environ.get("ROUGE155PY_DOOR_CASES", "60"))
ALIGNED_CASES = max(4, CASES // 2)
SYSTEM_CASES = max(4, CASES // 4)
CHUNK = 10
TIMEOUT = 120.0


def _chunks(count: int) -> list[Any]:
    """``count`` cases in chunks, the first few in the fast tier."""
    return first_fast(seed_chunks(0, count, CHUNK))


def _perl(oracle: Any, written: Written) -> Outcome:
    start = time.perf_counter()
    proc = oracle.run(written.command(oracle.data_dir), cwd=written.cwd, timeout=TIMEOUT)
    return Outcome(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)


def _api(case: DoorCase) -> Outcome:
    start = time.perf_counter()
    try:
        report = Rouge(**case.options).score(case.predictions, case.references)
    except RougeError as error:
        return Outcome(error.exit_code, b"", str(error).encode(), time.perf_counter() - start)
    text = report.to_legacy().encode("utf-8", "surrogateescape")
    return Outcome(0, text, b"", time.perf_counter() - start)


def _port_cli(args: list[str], cwd: Path, stdin: bytes = b"") -> Outcome:
    """``python -m rouge155py -e DATA ARGS`` from this repository."""
    env = dict(os.environ)
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + old if old else "")
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "rouge155py", "-e", str(DATA_DIR), *args],
        cwd=str(cwd),
        env=env,
        input=stdin,
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )
    return Outcome(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)


def _in_process(args: list[str]) -> Outcome:
    """``evaluate_args(args)`` as an outcome: the legacy bytes, or the error's exit code."""
    try:
        text = format_legacy(evaluate_args(args)).encode("utf-8", "surrogateescape")
    except RougeError as error:
        return Outcome(error.exit_code, b"", str(error).encode(), 0.0)
    return Outcome(0, text, b"", 0.0)


def _check(case: Any, perl: Outcome, port: Outcome) -> Optional[str]:
    """None when the two agree and fail only where the case is built to make the Perl die."""
    problem = compare(Result(case, perl, port))
    if problem is not None:
        return problem
    failed = perl.returncode != 0
    if failed != (case.expect_failure is not None):
        what = "failed" if failed else "succeeded"
        return f"{case.describe()}\nboth {what}; perl stderr: {perl.stderr.decode('latin-1')[-400:]}"
    return None


def _same(case: Any, name_a: str, a: Outcome, name_b: str, b: Outcome) -> Optional[str]:
    """None when two runs of this port print the same bytes or fail with the same exit status."""
    if (a.returncode, a.stdout) == (b.returncode, b.stdout):
        return None
    head = f"{case.describe()}\nexit status: {name_a} {a.returncode}, {name_b} {b.returncode}"
    if a.returncode != b.returncode:
        failed = a if a.returncode else b
        return f"{head}\n{failed.stderr.decode('latin-1')}"
    shown = (f"{name} stdout:\n{o.stdout.decode('latin-1')}" for name, o in ((name_a, a), (name_b, b)))
    return "\n".join((head, *shown))


# -- the in-memory API -------------------------------------------------------


@pytest.fixture
def sealed(tmp_path: Path, monkeypatch) -> Any:
    """An empty read-only folder, the working directory and TMPDIR while the API runs."""
    folder = tmp_path / "sealed"
    folder.mkdir()
    folder.chmod(0o555)
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setenv("TMPDIR", str(folder))

    def run(case: Any) -> Outcome:
        before = os.getcwd()
        os.chdir(folder)
        try:
            return _api(case)
        finally:
            os.chdir(before)

    yield run
    assert list(folder.iterdir()) == []
    folder.chmod(0o755)


@pytest.mark.parametrize(("start", "stop"), _chunks(CASES), ids=str)
def test_api_matches_perl(oracle, tmp_path: Path, sealed: Any, start: int, stop: int) -> None:
    problems = []
    for seed in range(start, stop):
        case = make_door_case(seed)
        written = write_door_case(case, tmp_path / str(seed))
        problem = _check(case, _perl(oracle, written), sealed(case))
        if problem is not None:
            problems.append(problem)
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize(("start", "stop"), _chunks(CASES), ids=str)
def test_api_matches_configuration_door(tmp_path: Path, monkeypatch, start: int, stop: int) -> None:
    """Without the Perl: the API prints what the port prints for the written files."""
    problems = []
    for seed in range(start, stop):
        case = make_door_case(seed)
        written = write_door_case(case, tmp_path / str(seed))
        monkeypatch.chdir(written.cwd)
        problem = _same(case, "configuration", _in_process(written.command(DATA_DIR)), "API", _api(case))
        if problem is not None:
            problems.append(problem)
    assert not problems, "\n\n".join(problems)


def test_api_writes_no_file(tmp_path: Path, monkeypatch) -> None:
    cwd, scratch = tmp_path / "cwd", tmp_path / "tmp"
    cwd.mkdir(mode=0o555)
    scratch.mkdir(mode=0o555)
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.setenv("TMPDIR", str(scratch))
    case = next(c for c in map(make_door_case, range(100)) if len(c.references) >= 6 and not c.expect_failure)
    for jobs in (1, 2):
        report = Rouge(**{**case.options, "jobs": jobs}).score(case.predictions, case.references)
        assert report.results
    assert list(cwd.iterdir()) == []
    assert list(scratch.iterdir()) == []


# -- line-aligned files ------------------------------------------------------


_ALIGNED_KINDS = first_fast(
    [
        pytest.param(make_aligned_case, start, stop, id=f"one-{start}")
        for start, stop in seed_chunks(0, ALIGNED_CASES, CHUNK)
    ]
) + first_fast(
    [
        pytest.param(make_systems_case, start, stop, id=f"systems-{start}")
        for start, stop in seed_chunks(0, SYSTEM_CASES, CHUNK)
    ]
)


@pytest.mark.parametrize(("make", "start", "stop"), _ALIGNED_KINDS)
def test_aligned_files_match_perl(oracle, tmp_path: Path, make: Any, start: int, stop: int) -> None:
    problems = []
    for seed in range(start, stop):
        case = make(seed)
        root = tmp_path / str(seed)
        port_args, written = write_aligned_case(case, root)
        stdin = case.file_bytes(0) if case.stdin else b""
        problem = _check(case, _perl(oracle, written), _port_cli(port_args, root, stdin))
        if problem is not None:
            problems.append(f"{problem}\nrouge155py arguments: {port_args}")
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize(("make", "start", "stop"), _ALIGNED_KINDS)
def test_aligned_files_match_configuration_door(
    tmp_path: Path, monkeypatch, make: Any, start: int, stop: int
) -> None:
    """Without the Perl: ``--hyp``/``--ref`` print what the equivalent SPL configuration prints."""
    problems = []
    for seed in range(start, stop):
        case = make(seed)
        root = tmp_path / str(seed)
        port_args, written = write_aligned_case(case, root)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(case.file_bytes(0))))
        monkeypatch.chdir(written.cwd)
        config = _in_process(written.command(DATA_DIR))
        monkeypatch.chdir(root)
        door = _in_process(["-e", str(DATA_DIR), *port_args])
        problem = _same(case, "configuration", config, "--hyp/--ref", door)
        if problem is not None:
            problems.append(f"{problem}\nrouge155py arguments: {port_args}")
    assert not problems, "\n\n".join(problems)


def _kept_items(case: AlignedCase) -> list[int]:
    """The items ``--skip-empty`` keeps: those where no line (after ``--sep``) is only whitespace."""
    peers, models = case.documents()
    return [
        i
        for i, refs in enumerate(models)
        if all(found[i].strip(b" \t\n\r\f\v") for found in peers.values())
        and all(r.strip(b" \t\n\r\f\v") for r in refs)
    ]


@pytest.mark.parametrize(("make", "start", "stop"), _ALIGNED_KINDS)
def test_skip_empty_matches_perl(oracle, tmp_path: Path, make: Any, start: int, stop: int) -> None:
    """``--skip-empty``: the Perl's bytes for the evaluation of the items kept, under their line numbers."""
    problems = []
    for seed in range(start, stop):
        case = make(seed)
        root = tmp_path / str(seed)
        port_args, _ = write_aligned_case(case, root)
        peers, models = case.documents()
        kept = _kept_items(case)
        stdin = case.file_bytes(0) if case.stdin else b""
        if not kept:  # the Perl has nothing to score: no report, and here an error says so
            port = _port_cli([*port_args, "--skip-empty"], root, stdin)
            last = port.stderr.decode("utf-8", "replace").rstrip("\n").split("\n")[-1]
            if port.returncode != 4 or not re.search(r": nothing to score \(--skip-empty left out ", last):
                problems.append(f"{case.describe()}\nevery item empty: exit {port.returncode}, {last}")
            continue
        config = write_evals(
            root / "kept",
            {peer_id: [found[i] for i in kept] for peer_id, found in peers.items()},
            [models[i] for i in kept],
            eval_ids=[str(i + 1) for i in kept],
        )
        perl = _perl(oracle, Written(root / "kept", [*option_words(case.options), "-a", config]))
        problem = compare(Result(case, perl, _port_cli([*port_args, "--skip-empty"], root, stdin)))
        if problem is not None:
            problems.append(f"{problem}\nkept items: {kept}")
    assert not problems, "\n\n".join(problems)


def _write_lines(path: Path, count: int) -> None:
    path.write_bytes(b"".join(b"the cat sat on mat %d\n" % i for i in range(count)))


def test_mismatched_line_counts_are_an_error(tmp_path: Path) -> None:
    _write_lines(tmp_path / "hyp.txt", 3)
    _write_lines(tmp_path / "ref1.txt", 3)
    _write_lines(tmp_path / "ref2.txt", 2)
    for hyp, stdin in (("hyp.txt", b""), ("-", (tmp_path / "hyp.txt").read_bytes())):
        args = ["--hyp", hyp, "--ref", "ref1.txt", "--ref", "ref2.txt", "--sep", "<q>", "-n", "2"]
        out = _port_cli(args, tmp_path, stdin)
        assert out.returncode == 4, out.stderr
        assert out.stdout == b""
        lines = out.stderr.decode().splitlines()
        assert len(lines) == 1, out.stderr
        message = lines[0]
        assert message.startswith("rouge155py: error: ")
        assert re.search(rf"(?<![\w.]){re.escape(hyp)}\W+3\b", message), message
        assert re.search(r"ref2\.txt\W+2\b", message), message
        assert "Traceback" not in message


def test_nothing_to_score_is_said(tmp_path: Path, monkeypatch) -> None:
    """A configuration with no eval: the Perl's report (none) and a warning; empty line-aligned
    files, an empty JSONL file and no prediction given: an error that says so."""
    config = write_evals(tmp_path, {}, [])
    monkeypatch.chdir(tmp_path)
    report = evaluate_args(["-e", str(DATA_DIR), "-n", "2", "-a", config])
    assert format_legacy(report) == ""
    assert report.notes == [f"rouge155py: warning: {config}: no eval to score"]
    (tmp_path / "hyp.txt").write_bytes(b"")
    (tmp_path / "ref.txt").write_bytes(b"")
    (tmp_path / "items.jsonl").write_bytes(b"\n")
    for run, error, message in (
        (lambda: Rouge(max_ngram=2).score([], []), UsageError, "nothing to score: no eval"),
        (
            lambda: _cli(["--hyp", "hyp.txt", "--ref", "ref.txt"]),
            InputError,
            "hyp.txt, ref.txt: nothing to score (no lines)",
        ),
        (lambda: _cli(["--jsonl", "items.jsonl"]), InputError, "items.jsonl: nothing to score (no objects)"),
    ):
        with pytest.raises(error) as raised:
            run()
        assert str(raised.value).startswith(message)


def _cli(args: list[str]) -> Any:
    return evaluate_args(["-e", str(DATA_DIR), "-n", "2", *args])


# -- the JSON and CSV writers print the legacy report's numbers ---------------

_AVERAGE = re.compile(r"(\S+) (\S+) Average_([RPF]): (\S+) \((?:\S+)%-conf\.int\. (\S+) - (\S+)\)")
_COUNT_LINE = re.compile(r"(\S+) (\S+) M_count: (\S+) P_count: (\S+) H_count: (\S+)")
_EVAL = re.compile(r"(\S+) (\S+) Eval (\S+) R:(\S+) P:(\S+) F:(\S+)")
_NAMES = {"R": "recall", "P": "precision", "F": "f"}


def _legacy_numbers(text: str) -> tuple[dict, dict, dict]:
    """Averages (with bounds), ``-t 2`` counts and ``-d`` rows as printed, keyed by peer and metric."""
    averages: dict[tuple[str, str], dict[str, tuple[str, str, str]]] = {}
    counts: dict[tuple[str, str], tuple[str, ...]] = {}
    instances: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {}
    for line in text.splitlines():
        if set(line) <= {"-", "."}:
            continue
        if m := _AVERAGE.fullmatch(line):
            averages.setdefault((m[1], m[2]), {})[_NAMES[m[3]]] = (m[4], m[5], m[6])
        elif m := _COUNT_LINE.fullmatch(line):
            counts[(m[1], m[2])] = (m[3], m[4], m[5])
        elif m := _EVAL.fullmatch(line):
            eval_id = m[3][: -len(m[1]) - 1]
            instances.setdefault((m[1], m[2]), {})[eval_id] = (m[4], m[5], m[6])
        else:
            raise AssertionError(f"unexpected legacy line {line!r}")
    return averages, counts, instances


def _format_cases() -> list[DoorCase]:
    """A few cases with -d, one per counting mode and one in BE mode, one without -d."""
    wanted = {0: None, 1: None, 2: None, "be": None, "no-d": None}
    for seed in range(500):
        case = make_door_case(seed)
        if case.expect_failure:
            continue
        key: Any = "be" if case.options.get("be_mode") else case.options.get("counting", 0)
        if not case.options.get("per_eval") and wanted["no-d"] is None:
            wanted["no-d"] = case
        elif key in wanted and wanted[key] is None:
            case.options["per_eval"] = True
            wanted[key] = case
        if all(wanted.values()):
            break
    return [case for case in wanted.values() if case is not None]


@pytest.mark.parametrize("index", range(5))
def test_json_and_csv_print_the_legacy_numbers(cli_runner, tmp_path: Path, monkeypatch, index: int) -> None:
    case = _format_cases()[index]
    written = write_door_case(case, tmp_path)
    monkeypatch.chdir(written.cwd)
    printed = {}
    for name in ("legacy", "json", "csv"):
        result = cli_runner.invoke(main, [*written.command(DATA_DIR), "--format", name])
        assert result.exit_code == 0, result.stderr
        printed[name] = result.stdout_bytes.decode("utf-8", "surrogateescape")
    counting = case.options.get("counting", 0)
    averages, counts, instances = _legacy_numbers(printed["legacy"])
    assert bool(instances) == bool(case.options.get("per_eval"))

    systems = json.loads(printed["json"])["systems"]
    found = {(peer, metric) for peer, metrics in systems.items() for metric in metrics}
    assert found == set(averages) | set(counts)
    for (peer, metric), values in averages.items():
        entry = systems[peer][metric]
        for name, (average, low, high) in values.items():
            assert entry[name] == {"average": float(average), "conf_int": [float(low), float(high)]}
    for (peer, metric), (model, peer_count, hit) in counts.items():
        got = systems[peer][metric]["counts"]
        assert [perl_number(got[k]) for k in ("model", "peer", "hit")] == [model, peer_count, hit]
    keys = ("model", "peer", "hit") if counting else ("recall", "precision", "f")
    show = perl_number if counting else fmt5
    for (peer, metric), rows in instances.items():
        got = systems[peer][metric]["instances"]
        assert set(got) == set(rows)
        for eval_id, row in rows.items():
            assert tuple(show(got[eval_id][k]) for k in keys) == row, (peer, metric, eval_id)

    api = Rouge(**case.options).score(case.predictions, case.references)
    assert api.to_json()["systems"] == systems

    table = list(csv.reader(io.StringIO(printed["csv"])))
    assert tuple(table[0]) == CSV_COLUMNS
    records = [dict(zip(CSV_COLUMNS, row)) for row in table[1:]]
    order = [(r["peer_id"], r["metric"]) for r in records if r["row"] == "average"]
    legacy_order = []
    for line in printed["legacy"].splitlines():
        m = _AVERAGE.fullmatch(line) or _COUNT_LINE.fullmatch(line)
        if m and (m[1], m[2]) not in legacy_order:
            legacy_order.append((m[1], m[2]))
    assert order == legacy_order
    csv_instances: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {}
    for record in records:
        key = (record["peer_id"], record["metric"])
        if record["row"] == "average":
            if key in counts:
                assert (record["model_count"], record["peer_count"], record["hit_count"]) == counts[key]
            else:
                for name, bounds in averages[key].items():
                    assert (record[name], record[f"{name}_low"], record[f"{name}_high"]) == bounds
        else:
            assert record["row"] == "instance"
            columns = ("model_count", "peer_count", "hit_count") if counting else ("recall", "precision", "f")
            csv_instances.setdefault(key, {})[record["eval_id"]] = tuple(record[c] for c in columns)
    if instances:
        assert csv_instances == instances

    def cell(column: str, value: Any) -> str:
        if value is None:
            return ""
        return perl_number(value) if column.endswith("_count") or column in CSV_COLUMNS[:4] else fmt5(value)

    assert [[cell(c, r[c]) for c in CSV_COLUMNS] for r in api.to_rows()] == table[1:]


# -- the generators ------------------------------------------------------------


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_generators_are_deterministic(tmp_path: Path) -> None:
    for seed in range(30):
        a, b = make_door_case(seed), make_door_case(seed)
        assert (a.predictions, a.references, a.options) == (b.predictions, b.references, b.options)
        da, db, dx, dy = (tmp_path / name / str(seed) for name in "abxy")
        assert write_door_case(a, da).args == write_door_case(b, db).args
        assert _tree(da) == _tree(db)
        for make in (make_aligned_case, make_systems_case):
            x, y = make(seed), make(seed)
            assert write_aligned_case(x, dx)[0] == write_aligned_case(y, dy)[0]
            assert _tree(dx) == _tree(dy)
    assert make_door_case(1).references != make_door_case(2).references


@pytest.mark.slow
def test_aligned_cases_keep_their_line_counts() -> None:
    for seed in range(200):
        for case in (make_aligned_case(seed), make_systems_case(seed)):
            peers, models = case.documents()
            assert list(peers) == case.peer_ids
            assert all(len(found) == len(case.lines[0]) == len(models) for found in peers.values())
            assert all(len(refs) == len(case.lines) - len(case.peer_ids) for refs in models)
    assert all(len(make_systems_case(seed).peer_ids) > 1 for seed in range(20))
    cases = [make(seed) for make in (make_aligned_case, make_systems_case) for seed in range(40)]
    assert sum(len(_kept_items(case)) < len(case.lines[0]) for case in cases) >= 20  # --skip-empty has work


def test_several_systems_are_each_hypothesis_file(tmp_path: Path) -> None:
    """The systems door names every system of the case, in the Perl's order, on the command line."""
    case = make_systems_case(3)
    port_args, _ = write_aligned_case(case, tmp_path)
    assert port_args.count("--hyp") == len(case.peer_ids) > 1
    stdin = case.file_bytes(0) if case.stdin else b""
    out = _port_cli(port_args, tmp_path, stdin)
    assert out.returncode == 0, out.stderr
    printed = {line.split()[0] for line in out.stdout.decode("latin-1").splitlines() if "Average_R" in line}
    assert printed == set(case.peer_ids)
