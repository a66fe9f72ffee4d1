"""Inputs that give their bytes once (a pipe, ``<(...)``, standard input): each is read once.

A stopword list, a configuration, a file list or line-aligned files given so
must make the run a regular file with the same bytes makes: the same report,
or the same error line and exit code, whatever the options (``--signature``
and ``--format json`` name the stopword list's digest; ``-j`` runs again in one
process after an error).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Optional

import pytest
from tier import first_fast

from .support import DATA, TIMEOUT, write_workload

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /dev/fd")

Outcome = tuple[int, bytes, bytes]


def run(args: list[str], cwd: Path, pipe: Optional[bytes] = None, stdin: Optional[bytes] = None) -> Outcome:
    """The exit code, stdout and stderr of rouge155py; ``{pipe}`` in ``args`` is a pipe that
    gives ``pipe`` (written by a thread as it is read, like ``<(cat FILE)``)."""
    fds: tuple[int, ...] = ()
    writer = None
    if pipe is not None:
        read_end, write_end = os.pipe()
        fds = (read_end,)
        args = [arg.replace("{pipe}", f"/dev/fd/{read_end}") for arg in args]

        def write() -> None:
            with open(write_end, "wb") as out:
                try:
                    out.write(pipe)
                except BrokenPipeError:
                    pass

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "rouge155py", "-e", DATA, *args],
            cwd=cwd,
            input=stdin if stdin is not None else b"",
            capture_output=True,
            pass_fds=fds,
            timeout=TIMEOUT,
        )
    finally:
        for fd in fds:
            os.close(fd)
    if writer is not None:
        writer.join(TIMEOUT)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_workload(tmp_path_factory.mktemp("one-shot"), evals=300, systems=3, models=2, words=30)


@pytest.fixture(scope="module")
def broken(config: Path) -> Path:
    """The configuration with a model missing in a late eval (the evals before are handed out)."""
    path = config.with_name("broken.xml")
    path.write_text(config.read_text().replace("e280.m1", "e280.missing"))
    return path


@pytest.mark.parametrize(
    "extra", first_fast([[], ["--signature"], ["--format", "json"], ["-j", "2"], ["-j", "3", "--signature"]])
)
def test_a_stopword_list_from_a_pipe(tmp_path: Path, config: Path, extra: list[str]) -> None:
    words = b"the\nof\nw1\nw2\n"
    listing = tmp_path / "stopwords.txt"
    listing.write_bytes(words)
    args = ["-a", "-n", "2", "-r", "100", "-s", *extra, str(config)]
    from_file = run(["--stopwords", str(listing), *args], tmp_path)
    assert from_file[0] == 0, from_file[2]
    assert run(["--stopwords", "{pipe}", *args], tmp_path, pipe=words) == from_file


@pytest.mark.parametrize("jobs", first_fast(["1", "2"]))
def test_a_configuration_from_a_pipe_with_an_error(tmp_path: Path, broken: Path, jobs: str) -> None:
    """-j 2 meets the error and runs again in one process, on what it read: the error of -j 1."""
    from_file = run(["-a", "-n", "2", "-r", "100", str(broken)], tmp_path)
    assert from_file[0] == 4, from_file[2]
    piped = run(["-a", "-n", "2", "-r", "100", "-j", jobs, "{pipe}"], tmp_path, pipe=broken.read_bytes())
    assert piped == from_file


@pytest.mark.parametrize("source", first_fast(["pipe", "stdin"]))
def test_a_file_list_from_a_pipe_with_an_error(tmp_path: Path, config: Path, source: str) -> None:
    root = config.parent
    lines = [f"{root}/e{k}.p0 {root}/e{k}.m0 {root}/e{k}.m1\n" for k in range(300)]
    lines[280] = f"{root}/e280.p0 {root}/e280.missing\n"
    listing = tmp_path / "list.txt"
    listing.write_text("".join(lines))
    args = ["-n", "2", "-r", "100", "-z", "SPL"]
    from_file = run([*args, str(listing)], tmp_path)
    assert from_file[0] == 4, from_file[2]
    data = listing.read_bytes()
    if source == "pipe":
        outcome = run(["-j", "2", *args, "{pipe}"], tmp_path, pipe=data)
    else:
        outcome = run(["-j", "2", *args, "/dev/stdin"], tmp_path, stdin=data)
    assert outcome == from_file


def test_line_aligned_files_from_standard_input_with_an_error(tmp_path: Path) -> None:
    references = tmp_path / "refs.txt"
    references.write_bytes(b"a b c\nd e f\n")
    hypotheses = b"a b\n"
    one = run(["--hyp", "-", "--ref", str(references)], tmp_path, stdin=hypotheses)
    assert one[0] == 4, one[2]
    assert run(["-j", "2", "--hyp", "-", "--ref", str(references)], tmp_path, stdin=hypotheses) == one
