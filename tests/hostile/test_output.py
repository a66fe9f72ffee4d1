"""Every byte rouge155py writes reaches its reader, or the run says it did not.

A report cut short must never exit 0: a write the kernel takes in part goes on
where it stopped, a non-blocking standard output is waited on until it takes
more, a full device is one error line and exit 1, a reader that went away is
exit 141. Each case runs buffered and unbuffered (``PYTHONUNBUFFERED``), which
take different paths through Python's own I/O.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tier import first_fast

from .support import DATA, REPO, write_workload

CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")
TIMEOUT = 60.0
LIMIT = 100_000  # bytes a file may grow to (RLIMIT_FSIZE): less than each big report
BUFFERING = ["buffered", "unbuffered"]
TOO_LARGE = "rouge155py: error: cannot write the report to standard output: File too large"
FORMATS = ["legacy", "json", "csv"]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipes' and files' limits")


def environment(buffering: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    if buffering == "unbuffered":
        env["PYTHONUNBUFFERED"] = "1"
    return env


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "rouge155py", *args]


def report_args(config: Path, output_format: str) -> list[str]:
    return ["-e", DATA, "-a", "-d", "-n", "1", "-r", "10", "--format", output_format, str(config)]


def limit_file_size(size: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "backslashreplace").splitlines()


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An evaluation whose every report is larger than a pipe's buffer and than LIMIT."""
    return write_workload(tmp_path_factory.mktemp("big"), evals=1000, systems=2, models=1, words=15, seed=3)


@pytest.fixture(scope="module")
def reports(big: Path) -> dict[str, bytes]:
    """Each format's whole report, written to a plain pipe."""
    out = {}
    for name in FORMATS:
        run = subprocess.run(
            command(*report_args(big, name)), capture_output=True, timeout=TIMEOUT, check=True
        )
        assert len(run.stdout) > 2 * LIMIT
        out[name] = run.stdout
    return out


# --------------------------------------------------------------------------
# A device that takes part of a write, then refuses
# --------------------------------------------------------------------------


@pytest.mark.parametrize("buffering", BUFFERING)
@pytest.mark.parametrize("output_format", FORMATS)
def test_a_report_cut_short_by_the_file_size_limit_is_an_error(
    big: Path, tmp_path: Path, output_format: str, buffering: str
) -> None:
    """The first write returns short (LIMIT bytes), the next one EFBIG: exit 1, never 0."""
    target = tmp_path / "report"
    with target.open("wb") as out:
        run = subprocess.run(
            command(*report_args(big, output_format)),
            stdout=out,
            stderr=subprocess.PIPE,
            env=environment(buffering),
            preexec_fn=lambda: limit_file_size(LIMIT),
            timeout=TIMEOUT,
        )
    assert lines(run.stderr) == [TOO_LARGE]
    assert run.returncode == 1
    assert target.stat().st_size == LIMIT


@pytest.mark.parametrize("buffering", BUFFERING)
@pytest.mark.parametrize("args", [["--version"], ["-H"]], ids=["version", "usage"])
def test_short_texts_cut_short_are_an_error(tmp_path: Path, args: list[str], buffering: str) -> None:
    """The version and the usage text: each checked to its last byte as well."""
    target = tmp_path / "out"
    with target.open("wb") as out:
        run = subprocess.run(
            command(*args),
            cwd=tmp_path,
            stdout=out,
            stderr=subprocess.PIPE,
            env=environment(buffering),
            preexec_fn=lambda: limit_file_size(5),
            timeout=TIMEOUT,
        )
    assert lines(run.stderr) == [TOO_LARGE]
    assert run.returncode == 1
    assert target.stat().st_size == 5


def test_a_home_cut_short_is_an_error(tmp_path: Path) -> None:
    """--make-home's files are checked too: a data file over the limit is one error line."""
    run = subprocess.run(
        command("--make-home", "home"),
        cwd=tmp_path,
        capture_output=True,
        preexec_fn=lambda: limit_file_size(1000),
        timeout=TIMEOUT,
    )
    assert lines(run.stderr) == ["rouge155py: error: cannot make the ROUGE home home: File too large"]
    assert run.returncode == 2
    assert run.stdout == b""
    assert not [path.name for path in (tmp_path / "home").rglob("*") if path.name.startswith(".")]


# --------------------------------------------------------------------------
# A non-blocking standard output and a slow reader
# --------------------------------------------------------------------------


def read_slowly(fd: int, pause: float) -> bytes:
    """Everything from ``fd`` until its end, a little at a time."""
    chunks = []
    while chunk := os.read(fd, 16384):
        chunks.append(chunk)
        time.sleep(pause)
    return b"".join(chunks)


@pytest.mark.parametrize("buffering", BUFFERING)
@pytest.mark.parametrize("output_format", first_fast(["legacy", "json"]))
def test_a_non_blocking_stdout_gets_the_whole_report(
    big: Path, reports: dict[str, bytes], output_format: str, buffering: str
) -> None:
    """O_NONBLOCK on the pipe (set by another process sharing it): EAGAIN is waited out."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        run = subprocess.Popen(
            command(*report_args(big, output_format)),
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=environment(buffering),
        )
        os.close(write_end)
        write_end = -1
        time.sleep(0.3)  # the pipe fills: the run meets EAGAIN
        received = read_slowly(read_end, 0.002)
        _, err = run.communicate(timeout=TIMEOUT)
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
    assert lines(err) == []
    assert run.returncode == 0
    assert received == reports[output_format]


# --------------------------------------------------------------------------
# A reader that goes away
# --------------------------------------------------------------------------


def read_then_close(args: list[str], env: dict[str, str], size: int, wait_first: bool) -> tuple[int, bytes]:
    """Read ``size`` bytes of the run's stdout (after the run ended if ``wait_first``) and close it."""
    run = subprocess.Popen(command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert run.stdout is not None and run.stderr is not None
    if wait_first:
        run.wait(timeout=TIMEOUT)
    head = run.stdout.read(size)
    assert len(head) == size
    run.stdout.close()
    err = run.stderr.read()
    run.stderr.close()
    return run.wait(timeout=TIMEOUT), err


@pytest.mark.parametrize("buffering", BUFFERING)
def test_a_reader_that_goes_away_mid_report_is_141(big: Path, buffering: str) -> None:
    """``| head -c 10`` on a report larger than the pipe: the rest cannot be written, exit 141."""
    code, err = read_then_close(report_args(big, "legacy"), environment(buffering), 10, wait_first=False)
    assert err == b""
    assert code == 141


@pytest.mark.parametrize("buffering", BUFFERING)
def test_a_report_the_pipe_holds_whole_is_written(buffering: str) -> None:
    """A report smaller than the pipe's buffer is taken whole by the kernel: written, exit 0,
    whatever the reader does with it afterwards (the README's exit table says so)."""
    code, err = read_then_close(["-e", DATA, "-a", CONFIG], environment(buffering), 10, wait_first=True)
    assert err == b""
    assert code == 0


# --------------------------------------------------------------------------
# Names that are not UTF-8, an error line under any encoding
# --------------------------------------------------------------------------

PEER_BYTES = b"sys\xff\xe9"  # not UTF-8: Python holds it as surrogates
SHOWN = "sys\\xff\\xe9"  # how JSON, CSV and the error lines show it
ODD_ARGS = [b"-e", DATA.encode(), b"-n", b"1", b"-d", CONFIG.encode(), PEER_BYTES]


def run_odd_peer(*args: bytes) -> subprocess.CompletedProcess[bytes]:
    """A run naming a peer ID that is not UTF-8 (missing from the evaluation: a warning)."""
    run = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"rouge155py", *args, *ODD_ARGS],
        capture_output=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stderr
    return run


def test_json_is_strict_utf8_whatever_the_names() -> None:
    run = run_odd_peer(b"--format", b"json")
    document = json.loads(run.stdout.decode("utf-8", "strict"))
    assert list(document["systems"]) == [SHOWN]
    warning = f"*ROUGE Warning: test instance for peer {SHOWN} does not exist for evaluation D01"
    assert document["warnings"][0] == warning
    for text in (run.stdout.decode(), *document["warnings"], *document["systems"]):
        assert not any("\ud800" <= c <= "\udfff" for c in text)


def test_json_keeps_names_that_are_utf8() -> None:
    """A name outside the BMP (written as a surrogate pair by JSON) is not escaped: it is UTF-8."""
    name = "sys\xe9\U0001f600"
    run = subprocess.run(
        command("-e", DATA, "-n", "1", "--format", "json", CONFIG, name), capture_output=True, timeout=TIMEOUT
    )
    assert run.returncode == 0, run.stderr
    assert "\\ud83d\\ude00" in run.stdout.decode("ascii")
    assert list(json.loads(run.stdout)["systems"]) == [name]


def test_csv_is_strict_utf8_and_names_as_json_shows_them() -> None:
    run = run_odd_peer(b"--format", b"csv")
    rows = run.stdout.decode("utf-8", "strict").splitlines()[1:]
    assert rows and all(row.split(",")[1] == SHOWN for row in rows)


def test_the_legacy_report_keeps_the_bytes() -> None:
    """The Perl prints a peer ID's bytes as they are: so does the legacy report."""
    run = run_odd_peer()
    assert b"\n" + PEER_BYTES + b" ROUGE-1 Average_R: " in run.stdout


STRICT_STDERR = (
    "import sys; sys.stderr.reconfigure(errors='strict'); sys.argv[0] = 'rouge155py'; "
    "from rouge155py.cli import entry; entry()"
)


@pytest.mark.parametrize("encoding", ["ascii", "utf-8", "latin-1"])
def test_an_error_line_comes_out_whatever_stderr_encodes(tmp_path: Path, encoding: str) -> None:
    """A stderr that refuses what it cannot encode still gets the line, escaped where it must be."""
    name = "caf\xe9-\U0001f600.xml"
    env = {**os.environ, "PYTHONIOENCODING": f"{encoding}:strict"}
    run = subprocess.run(
        [sys.executable, "-c", STRICT_STDERR, "-a", name],
        cwd=tmp_path,
        capture_output=True,
        env=env,
        timeout=TIMEOUT,
    )
    assert run.returncode == 3
    shown = {
        "ascii": "caf\\xe9-\\U0001f600.xml",
        "latin-1": "caf\xe9-\\U0001f600.xml",
        "utf-8": name,
    }[encoding]
    assert run.stderr.decode(encoding).splitlines() == [
        f"rouge155py: error: cannot open configuration file {shown}: No such file or directory"
    ]


def test_an_error_line_shows_bytes_that_are_not_utf8_escaped(tmp_path: Path) -> None:
    run = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"rouge155py", b"-a", b"gone\xff.xml"],
        cwd=tmp_path,
        capture_output=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 3
    assert run.stderr == (
        b"rouge155py: error: cannot open configuration file gone\\xff.xml: No such file or directory\n"
    )
