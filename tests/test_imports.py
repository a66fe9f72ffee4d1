"""What a start imports: ``import rouge155py`` nothing heavy, a command line only what its run needs.

Each case runs in a new interpreter and looks at ``sys.modules`` when it is
done, so the modules this test process has imported do not count.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rouge155py
from rouge155py._kernel import kernel_available

REPO = Path(__file__).resolve().parent.parent
FILE_LIST = ["-e", "data", "-n", "2", "-z", "SPL", "examples/duc-mini/filelist-spl.txt", "SYS1"]
XML_CONFIG = ["-e", "data", "-a", "-n", "2", "examples/duc-mini/rouge-config.xml"]

# Runs ``python -m rouge155py ARGS...`` and writes the exit code and the loaded modules to OUT.
_CLI_PROBE = """\
import os, runpy, sys
def _exit(code):  # the command ends with os._exit: end with SystemExit here, to look at the modules
    raise SystemExit(code)
os._exit = _exit
out = sys.argv[1]
sys.argv = ["rouge155py", *sys.argv[2:]]
try:
    runpy.run_module("rouge155py", run_name="__main__", alter_sys=True)
    code = 0
except SystemExit as exit:
    code = exit.code
modules = sorted(sys.modules)
with open(out, "w", encoding="utf-8") as f:
    f.write("\\n".join([str(code), *modules]))
"""


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -c code args...`` in the repository, which must succeed."""
    run = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    return run


def _modules_of_import(statement: str) -> set[str]:
    """The modules loaded by ``statement`` in a new interpreter."""
    run = _python(f"{statement}\nimport sys\nprint('\\n'.join(sys.modules))")
    return set(run.stdout.split())


def _modules_of_run(tmp_path: Path, *argv: str) -> set[str]:
    """The modules loaded by a successful ``python -m rouge155py argv...`` with a report on stdout."""
    out = tmp_path / "modules.txt"
    run = _python(_CLI_PROBE, str(out), *argv)
    code, *modules = out.read_text(encoding="utf-8").split("\n")
    assert code == "0", run.stderr
    return set(modules)


def _check_absent(modules: set[str], *names: str) -> None:
    loaded = sorted(name for name in names if name in modules)
    assert not loaded, f"imported: {', '.join(loaded)}"


def _refuses_unknown_name(module: str) -> str:
    """Probe lines: an unknown name of ``module`` raises an AttributeError that names it."""
    return f"""\
try:
    {module}.no_such_name
except AttributeError as error:
    assert "no_such_name" in str(error)
else:
    raise AssertionError("an unknown name resolved")
"""


def test_import_loads_nothing_heavy() -> None:
    modules = _modules_of_import("import rouge155py")
    _check_absent(modules, "lxml", "numpy", "multiprocessing", "click", "nltk", "dask")
    assert {m for m in modules if m.startswith("rouge155py")} == {"rouge155py", "rouge155py._version"}


def test_every_public_name_resolves() -> None:
    code = """\
import rouge155py
missing = [name for name in rouge155py.__all__ if name not in dir(rouge155py)]
assert not missing, missing
for name in rouge155py.__all__:
    getattr(rouge155py, name)
from rouge155py import Rouge, api, errors, report
from rouge155py.report import results
assert rouge155py.Rouge is Rouge is api.Rouge
assert rouge155py.Summary is results.Summary
assert rouge155py.UsageError is errors.UsageError
assert rouge155py.FORMATS is report.FORMATS
"""
    _python(code + _refuses_unknown_name("rouge155py"))


def test_star_import() -> None:
    code = """\
from rouge155py import *
import rouge155py
names = globals()
assert all(names[name] is getattr(rouge155py, name) for name in rouge155py.__all__)
"""
    _python(code)


def test_evaluate_args_in_a_new_interpreter() -> None:
    code = """\
import sys, rouge155py
report = rouge155py.evaluate_args(sys.argv[1:])
assert "ROUGE-2 Average_R" in report.to_legacy()
"""
    _python(code, *FILE_LIST)


def test_score_loads_what_its_run_needs() -> None:
    """``rouge155py.score``: not the modules of rouge_types, BE, the report's formats and views,
    the command line or threads, unless the call asks for them."""
    modules = _modules_of_import(
        "import rouge155py\n"
        "report = rouge155py.score(['the cat sat on the mat'], ['a cat sat on a mat'], resamples=10)\n"
        "assert len(report.result('ROUGE-1').instances) == 1"
    )
    _check_absent(
        modules,
        "rouge155py.metrics.names",
        "rouge155py.metrics.be",
        "rouge155py.report.writing",
        "rouge155py.report.views",
        "rouge155py.cli",
        "concurrent.futures",
        "lxml",
        "multiprocessing",
        "pathlib" if "pathlib" not in _modules_of_import("pass") else "rouge155py.text.home",
    )
    if kernel_available():
        _check_absent(modules, "numpy")


def test_version_loads_no_evaluation(tmp_path: Path) -> None:
    modules = _modules_of_run(tmp_path, "--version")
    _check_absent(
        modules, "rouge155py.run.evaluate", "rouge155py.run.score", "multiprocessing", "lxml", "numpy"
    )


@pytest.mark.slow
def test_file_list_run(tmp_path: Path) -> None:
    modules = _modules_of_run(tmp_path, *FILE_LIST)
    assert "rouge155py.run.evaluate" in modules
    _check_absent(modules, "lxml", "multiprocessing", "concurrent.futures", "nltk", "dask", "click")
    if kernel_available():
        _check_absent(modules, "numpy")


@pytest.mark.slow
def test_hyp_ref_run(tmp_path: Path) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\na dog barked\n", encoding="utf-8")
    ref.write_text("a cat sat on a mat\nthe dog barked loudly\n", encoding="utf-8")
    modules = _modules_of_run(tmp_path, "-e", "data", "-n", "2", "--hyp", str(hyp), "--ref", str(ref))
    _check_absent(modules, "lxml", "multiprocessing", "concurrent.futures")
    if kernel_available():
        _check_absent(modules, "numpy")


def test_xml_run(tmp_path: Path) -> None:
    """A plain configuration is read without lxml; one with a comment (say) takes the parser."""
    modules = _modules_of_run(tmp_path, *XML_CONFIG)
    _check_absent(modules, "lxml", "multiprocessing", "concurrent.futures", "click")
    # A run in one process starts no worker: their code (and pickle) stays out.
    _check_absent(modules, "concurrent.futures.process", "_pickle")
    # Nor the stages and metrics of other options: --lang, --dialect, -3, --paraphrases.
    _check_absent(
        modules,
        "rouge155py.text.unicode",
        "rouge155py.text.rouge_score",
        "rouge155py.metrics.be",
        "rouge155py.metrics.paraeval",
    )
    if kernel_available():
        _check_absent(modules, "numpy")
    commented = tmp_path / "commented.xml"
    commented.write_text(Path(XML_CONFIG[-1]).read_text().replace("\n", "\n<!-- a comment -->\n", 1))
    modules = _modules_of_run(tmp_path, *XML_CONFIG[:-1], str(commented))
    assert "lxml.etree" in modules


@pytest.mark.skipif(not kernel_available(), reason="the C kernel stems the Perl's tokens")
def test_stemming_run_leaves_the_python_stemmer_and_pathlib(tmp_path: Path) -> None:
    """-m: the kernel stems every token of the Perl's text stage; the data files need no pathlib
    (unless the interpreter's start has it already: an editable install's import hook does)."""
    modules = _modules_of_run(tmp_path, "-m", *XML_CONFIG)
    assert "rouge155py.text.stem" in modules
    _check_absent(modules, "rouge155py.text.porter")
    if "pathlib" not in _modules_of_import("pass"):
        _check_absent(modules, "pathlib")


def test_click_command_made_when_asked_for() -> None:
    """``rouge155py.cli.main`` is a click command (for click's runner and groups), made on first use."""
    code = """\
import sys
import rouge155py.cli as cli
assert "click" not in sys.modules
import click
from rouge155py.cli import main
assert isinstance(main, click.Command) and cli.main is main
"""
    _python(code + _refuses_unknown_name("cli"))


@pytest.mark.parametrize("jobs", [["-j", "2"], ["--jobs", "2"]])
def test_jobs_run_on_the_standard_library_pool(tmp_path: Path, jobs: list[str]) -> None:
    modules = _modules_of_run(tmp_path, *jobs, *FILE_LIST)
    assert {"rouge155py.run.executors", "concurrent.futures.process", "multiprocessing"} <= modules


def test_this_process_sees_the_same_names() -> None:
    assert set(rouge155py.__all__) <= set(dir(rouge155py))
    assert rouge155py.evaluate_args.__module__ == "rouge155py.run.evaluate"
