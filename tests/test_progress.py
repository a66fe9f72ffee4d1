"""The progress line: only on a terminal, only after its delay, erased at the end, never in the report."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from rouge155py import cli
from rouge155py.run.progress import TerminalProgress, terminal_progress

REPO = Path(__file__).resolve().parent.parent
CONFIG = "examples/duc-mini/rouge-config.xml"
ARGS = ["-e", "data", "-a", "-n", "2", "-r", "200", CONFIG]


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_nothing_before_the_delay_then_one_line_erased_at_the_end() -> None:
    stream, clock = Terminal(), Clock()
    progress = TerminalProgress(stream, delay=2.0, clock=clock)
    clock.now += 1.9
    progress("scoring", 10, 50)
    assert stream.getvalue() == ""
    clock.now += 0.2
    progress("scoring", 20, 50)
    assert stream.getvalue() == "\rrouge155py: 20/50 evals scored (40%), 2.1 s"
    clock.now += 0.05
    progress("scoring", 21, 50)  # drawn at most ten times a second
    assert stream.getvalue().count("\r") == 1
    clock.now += 0.5
    progress("bootstrap", 3, 3)
    last = stream.getvalue().split("\r")[-1]
    assert last == "rouge155py: 3/3 tables resampled (100%), 2.7 s".ljust(
        len("rouge155py: 20/50 evals scored (40%), 2.1 s")
    )
    progress.close()
    assert stream.getvalue().endswith("\r" + " " * len(last.rstrip()) + "\r")


LONG_STEP = "ngrams of every peer sentence against every model sentence compared"


def drawn_lines(written: str) -> list[str]:
    """What each carriage return starts on the terminal's line."""
    return [part for part in written.split("\r") if part]


def read_terminal(leader: int) -> bytes:
    """All a pseudo-terminal received, once its follower end is closed."""
    written = b""
    try:
        while chunk := os.read(leader, 4096):
            written += chunk
    except OSError:  # EIO: the terminal has no writer left
        pass
    return written


def test_the_line_fits_the_columns_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "30")
    stream, clock = Terminal(), Clock()
    progress = TerminalProgress(stream, delay=0.0, clock=clock)
    progress(LONG_STEP, 1, 5)
    clock.now += 1
    monkeypatch.setenv("COLUMNS", "20")  # the terminal was made narrower: read at each drawing
    progress(LONG_STEP, 5, 5)
    progress.close()
    drawn = drawn_lines(stream.getvalue())
    assert drawn[0] == "rouge155py: 1/5 ngrams of eve"
    assert [len(line) for line in drawn] == [29, 19, 19]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal")
def test_the_line_fits_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """No COLUMNS: the width of the terminal the stream is, less one column, never wrapped."""
    monkeypatch.delenv("COLUMNS", raising=False)
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))
    with open(follower, "w", closefd=False) as stream:
        progress = TerminalProgress(stream, delay=0.0, clock=Clock())
        progress(LONG_STEP, 1, 5)
        progress.close()
    os.close(follower)
    try:
        written = read_terminal(leader)
    finally:
        os.close(leader)
    assert [len(line) for line in drawn_lines(written.decode())] == [39, 39]


def test_a_short_run_draws_nothing() -> None:
    stream, clock = Terminal(), Clock()
    progress = TerminalProgress(stream, clock=clock)
    progress("scoring", 50, 50)
    progress.close()
    assert stream.getvalue() == ""


def test_only_on_a_terminal_and_not_quiet() -> None:
    assert terminal_progress(io.StringIO(), quiet=False) is None
    assert terminal_progress(Terminal(), quiet=True) is None
    assert terminal_progress(None, quiet=False) is None
    assert isinstance(terminal_progress(Terminal(), quiet=False), TerminalProgress)


def _run_in_process(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[int, bytes, str]:
    """Run the command line with stderr a terminal and no delay before the progress line."""
    monkeypatch.chdir(REPO)
    out, err = io.BytesIO(), Terminal()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8"))
    monkeypatch.setattr(sys, "stderr", err)
    real = cli.terminal_progress
    monkeypatch.setattr(cli, "terminal_progress", lambda s, q: real(s, q) and TerminalProgress(s, delay=0.0))
    code = cli.run(argv)
    sys.stdout.flush()
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_report_is_the_same_with_the_line_drawn(monkeypatch: pytest.MonkeyPatch, jobs: str) -> None:
    code, quiet_out, quiet_err = _run_in_process(monkeypatch, ["--quiet", "-j", jobs, *ARGS])
    assert (code, quiet_err) == (0, "")
    code, out, err = _run_in_process(monkeypatch, ["-j", jobs, *ARGS])
    assert code == 0
    assert out == quiet_out
    assert "rouge155py: 10/10 evals scored (100%)" in err
    assert "tables resampled" in err
    assert err.startswith("\r") and err.endswith("\r")
    assert err.split("\r")[-2].strip() == ""  # the line is erased: the terminal is left as it was


def test_a_pipe_never_gets_the_line() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "rouge155py", *ARGS], cwd=REPO, capture_output=True, check=True
    )
    assert run.stderr == b""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal")
def test_a_short_run_on_a_real_terminal_leaves_it_untouched() -> None:
    leader, follower = pty.openpty()
    try:
        run = subprocess.run(
            [sys.executable, "-m", "rouge155py", *ARGS],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=follower,
            check=True,
        )
        os.close(follower)
        follower = -1
        written = read_terminal(leader)
    finally:
        os.close(leader)
        if follower >= 0:
            os.close(follower)
    assert written == b""
    assert run.stdout.startswith(b"---")
