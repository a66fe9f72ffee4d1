"""Every door reads its inputs through the one bounded reader, and memory running out is one line.

pyrouge's ``convert_and_evaluate()``, a line of ``--hyp``/``--ref`` files and a
Python string get the limits and refusals a summary file gets (no wait on a
FIFO without a writer, no more than 64 MiB); standard input closed is an input
error; libxml2 or an import running out of memory (``ulimit -v``) is
``out of memory``, exit 1, never a traceback or "invalid XML".
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from rouge155py import InputError, Rouge155, score
from rouge155py.cli import run
from rouge155py.errors import LimitError
from rouge155py.inputs.config import read_xml_config
from rouge155py.inputs.files import MAX_FILE_BYTES

from .support import DATA, REPO, fuzz

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="FIFOs, /dev/zero, rlimits")

CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")


def parsed_config(tmp_path: Path) -> str:
    """The example configuration with a comment: one that only the XML parser reads."""
    path = tmp_path / "commented.xml"
    path.write_text(Path(CONFIG).read_text().replace("\n", "\n<!-- a comment -->\n", 1))
    return str(path)


OVER = MAX_FILE_BYTES + 1


@contextlib.contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail, rather than hang, when the block waits longer than ``seconds`` (a FIFO's open)."""

    def expired(signum: int, frame: object) -> None:
        raise AssertionError(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def sparse(path: Path, size: int) -> Path:
    """A file of ``size`` NUL bytes that takes no room on disk."""
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def python(code: str, *, memory_mb: int = 0, stdin_closed: bool = False) -> subprocess.CompletedProcess:
    """``python -c code`` in the repository, with at most ``memory_mb`` of address space."""

    def prepare() -> None:
        if memory_mb:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
        if stdin_closed:
            os.close(0)

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        timeout=120,
        preexec_fn=prepare,
        check=False,
    )


# --------------------------------------------------------------------------
# pyrouge's door
# --------------------------------------------------------------------------


def pyrouge_dirs(root: Path) -> tuple[Path, Path]:
    systems, models = root / "systems", root / "models"
    systems.mkdir()
    models.mkdir()
    for doc in ("1", "2"):
        (systems / f"sys.{doc}.txt").write_text("the cat sat on the mat\n")
        (models / f"ref.A.{doc}.txt").write_text("a cat sat on a mat\n")
    return systems, models


def pyrouge(systems: Path, models: Path) -> Rouge155:
    r = Rouge155(rouge_args=f"-e {DATA} -n 1 -r 10 -a")
    r.system_dir, r.model_dir = str(systems), str(models)
    r.system_filename_pattern, r.model_filename_pattern = r"sys.(\d+).txt", "ref.[A-Z].#ID#.txt"
    return r


def test_pyrouge_convert_and_evaluate_does_not_wait_on_a_fifo(tmp_path: Path) -> None:
    systems, models = pyrouge_dirs(tmp_path)
    os.remove(systems / "sys.2.txt")
    os.mkfifo(systems / "sys.2.txt")
    with within(10), pytest.raises(InputError, match=r"sys\.2\.txt: a FIFO that no process is writing to"):
        pyrouge(systems, models).convert_and_evaluate()


@pytest.mark.slow
def test_pyrouge_convert_and_evaluate_refuses_what_evaluate_refuses(tmp_path: Path) -> None:
    """A 65 MiB model file: both ways of reading the folders refuse it, with the same words."""
    systems, models = pyrouge_dirs(tmp_path)
    big = sparse(models / "ref.B.1.txt", OVER)
    messages = []
    for method in ("evaluate", "convert_and_evaluate"):
        with pytest.raises(LimitError) as refused:
            getattr(pyrouge(systems, models), method)()
        messages.append(str(refused.value))
    assert messages == [f"{big} is larger than 64 MiB: refused"] * 2


def test_pyrouge_convert_and_evaluate_reads_dev_zero_within_the_limit(tmp_path: Path) -> None:
    """``/dev/zero`` as a system summary: refused at 64 MiB, in a process that has 1 GiB of room."""
    systems, models = pyrouge_dirs(tmp_path)
    os.remove(systems / "sys.1.txt")
    os.symlink("/dev/zero", systems / "sys.1.txt")
    code = (
        "import sys\nfrom rouge155py import Rouge155, RougeError\n"
        f"r = Rouge155(rouge_args='-e {DATA} -n 1 -r 10 -a')\n"
        f"r.system_dir, r.model_dir = {str(systems)!r}, {str(models)!r}\n"
        "r.system_filename_pattern, r.model_filename_pattern = r'sys.(\\d+).txt', 'ref.[A-Z].#ID#.txt'\n"
        "try:\n    r.convert_and_evaluate()\nexcept RougeError as error:\n    print(error)\n"
    )
    done = python(code, memory_mb=1024)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode() == f"{systems / 'sys.1.txt'} is larger than 64 MiB: refused\n"


# --------------------------------------------------------------------------
# Line-aligned files and Python strings: one summary's limit
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_an_aligned_line_over_the_summary_limit_is_refused_as_a_summary_file_is(tmp_path: Path) -> None:
    """The same 64 MiB + 1 bytes as the second line of ``--hyp`` and as a summary file: both refused."""
    (tmp_path / "ref.txt").write_text("a cat\nthe mat\n")
    line = sparse(tmp_path / "line", OVER)
    with open(tmp_path / "hyp.txt", "wb") as hyp, open(line, "rb") as source:
        hyp.write(b"the cat\n" + source.read() + b"\n")
    aligned = fuzz.run_isolated(["-e", DATA, "-n", "1", "--hyp", "hyp.txt", "--ref", "ref.txt"], tmp_path)
    assert (aligned.exit_code, aligned.stdout) == (7, b"")
    assert aligned.stderr.decode() == "rouge155py: error: hyp.txt:2 is larger than 64 MiB: refused\n"
    (tmp_path / "list.txt").write_text("line ref.txt\n")
    listed = fuzz.run_isolated(["-e", DATA, "-n", "1", "-z", "SPL", "list.txt"], tmp_path)
    assert listed.exit_code == 7
    assert listed.stderr.decode() == "rouge155py: error: line is larger than 64 MiB: refused\n"


def test_a_python_summary_over_the_limit_is_refused() -> None:
    with pytest.raises(LimitError, match=r"^prediction 2 of system 1 is larger than 64 MiB: refused$"):
        score(["a cat", "x" * OVER], ["a cat", "the mat"], max_ngram=1)


# --------------------------------------------------------------------------
# Standard input closed; memory running out
# --------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--hyp", "--ref"])
def test_standard_input_closed_is_an_input_error(tmp_path: Path, flag: str) -> None:
    (tmp_path / "one.txt").write_text("the cat sat\n")
    other = "--ref" if flag == "--hyp" else "--hyp"
    code = (
        "import sys\nfrom rouge155py.cli import run\n"
        f"sys.exit(run(['-e', {DATA!r}, '-n', '1', {flag!r}, '-', {other!r}, {str(tmp_path / 'one.txt')!r}]))"
    )
    done = python(code, stdin_closed=True)
    assert done.returncode == 4, done.stderr.decode()
    assert done.stderr == b"rouge155py: error: Cannot read -: standard input is closed\n"


def test_libxml2_out_of_memory_is_not_invalid_xml(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """libxml2 reports a failed allocation as a parse error (ERR_NO_MEMORY, "unknown error")."""
    from lxml import etree

    def no_memory(*args: object, **kwargs: object) -> Iterator[tuple[str, object]]:
        raise etree.XMLSyntaxError("unknown error", etree.ErrorTypes.ERR_NO_MEMORY, 0, 0)
        yield  # a generator, as iterparse's events are

    monkeypatch.setattr(etree, "iterparse", no_memory)
    monkeypatch.setattr(etree, "fromstring", lambda *args, **kwargs: next(no_memory()))
    config = parsed_config(tmp_path)
    with pytest.raises(MemoryError):
        read_xml_config(config)
    assert run(["-e", DATA, "-a", "-n", "1", config]) == 1
    assert capsys.readouterr().err == "rouge155py: error: out of memory\n"


# Runs ``python -m rouge155py ARGS...`` where importing MODULE fails with ERROR.
_FAILING_IMPORT = """\
import runpy, sys
module, error, sys.argv = sys.argv[1], eval(sys.argv[2]), ["rouge155py", *sys.argv[3:]]
class Failing:
    def find_spec(self, name, path=None, target=None):
        if name == module:
            raise error
sys.meta_path.insert(0, Failing())
runpy.run_module("rouge155py", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize(
    ("module", "error", "line"),
    [
        ("rouge155py.settings.options", "MemoryError()", "out of memory"),
        (
            "lxml.etree",
            "ImportError('/x/etree.so: failed to map segment from shared object')",
            "out of memory: /x/etree.so: failed to map segment from shared object",
        ),
    ],
    ids=["MemoryError", "shared object"],
)
def test_an_import_out_of_memory_is_one_error_line(
    module: str, error: str, line: str, tmp_path: Path
) -> None:
    config = parsed_config(tmp_path)
    args = [sys.executable, "-c", _FAILING_IMPORT, module, error, "-e", DATA, "-a", "-n", "1", config]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(args, cwd=REPO, env=env, capture_output=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr.decode() == f"rouge155py: error: {line}\n"


# Runs ``rouge155py ARGS...`` where the evaluation meets a MemoryError in a finalizer (which
# nothing can catch: the interpreter prints it), then runs out of memory itself.
_UNRAISABLE = """\
import sys
import rouge155py.run.evaluate
from rouge155py.cli import run
class Finalized:
    def __del__(self):
        raise MemoryError()
def evaluate(*args, **kwargs):
    Finalized()
    raise MemoryError()
rouge155py.run.evaluate.evaluate = evaluate
sys.exit(run(sys.argv[1:]))
"""


def test_a_memory_error_nothing_can_catch_is_not_printed_beside_the_error_line() -> None:
    args = [sys.executable, "-c", _UNRAISABLE, "-e", DATA, "-a", "-n", "1", CONFIG]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(args, cwd=REPO, env=env, capture_output=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (1, b"rouge155py: error: out of memory\n")
