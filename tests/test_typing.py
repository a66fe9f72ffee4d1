"""Type checkers see rouge155py's annotations: ``py.typed`` is shipped, the lazy names are typed.

``mypy --strict`` on a small user script of the public API passes; the same script with a
wrong type fails, so the annotations are read, not skipped (mypy is in the ``test`` extra).
"""

from __future__ import annotations

import ast
import configparser
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rouge155py

REPO = Path(__file__).resolve().parent.parent

_SCRIPT = '''\
"""What a user writes with the public API."""

from __future__ import annotations

from typing import Any

from rouge155py import Options, Report, Rouge, RougeError, Score, Sentences, evaluate_args, score


def mean_f(report: Report, label: str) -> float:
    summary = report.result(label).summary
    assert summary is not None  # None under -t 2, which prints counts
    recall, precision, f = summary.average
    return f


report = Rouge(max_ngram=2, stem=True).score(["the cat sat"], [["a cat sat", "the cat is here"]])
text: str = report.to_legacy()
value: float = mean_f(report, "ROUGE-2")
options: Options = score(["dogs bark"], ["dogs bark at night"], max_ngram=1).options
try:
    evaluate_args(["-n", "2", "missing.xml"])
except RougeError as error:
    code: int = error.exit_code

modern = score(
    ["The cat sat.\\nIt purred.", Sentences(["A dog ran.", "It barked."])],
    [["A cat sat.", "The cat purred."], "A dog ran off."],
    rouge_types=["rouge1", "rougeLsum"],
    multi_ref="best-f",
    stem=True,
)
first: Score = modern["rouge1"].items[0]
f1: float = first.fmeasure + modern["rougeLsum"].mean.recall + modern["rouge1"].bootstrap_mean.precision
document: dict[str, Any] = modern.to_dict()
names: list[str] = modern.names
'''


def _mypy(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` on ``source``, rouge155py found as an installed package (this tree)."""
    pytest.importorskip("mypy")  # the test extra installs it
    (tmp_path / "user_script.py").write_text(source)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            "user_script.py",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@pytest.mark.slow
def test_mypy_strict_passes_on_a_user_script(tmp_path: Path) -> None:
    result = _mypy(tmp_path, _SCRIPT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout


@pytest.mark.slow
def test_mypy_sees_the_annotations(tmp_path: Path) -> None:
    result = _mypy(
        tmp_path, _SCRIPT.replace("text: str = report.to_legacy()", "text: int = report.to_legacy()")
    )
    assert result.returncode == 1
    assert (
        'Incompatible types in assignment (expression has type "str", variable has type "int")'
        in result.stdout
    )


@pytest.mark.slow
def test_mypy_sees_the_keywords(tmp_path: Path) -> None:
    result = _mypy(tmp_path, _SCRIPT.replace('multi_ref="best-f"', 'multi_ref="best-of"'))
    assert result.returncode == 1 and '"multi_ref" to "score" has incompatible type' in result.stdout
    result = _mypy(tmp_path, _SCRIPT.replace("stem=True,\n)", "stem=True,\n    stemming=True,\n)"))
    assert result.returncode == 1 and 'Unexpected keyword argument "stemming"' in result.stdout


def test_py_typed_is_shipped() -> None:
    """py.typed, and beside it the C kernel's annotations (_accel.pyi), go in the wheel (package
    data) and the sdist."""
    package = Path(rouge155py.__file__).parent
    assert (package / "py.typed").is_file() and (package / "_accel.pyi").is_file()
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg")
    assert {"py.typed", "_accel.pyi"} <= set(setup["options.package_data"]["rouge155py"].split())
    assert "rouge155py/*.pyi" in (REPO / "MANIFEST.in").read_text().split()


def test_the_kernels_stub_names_its_functions() -> None:
    """``_accel.pyi`` names every function the built kernel has, and ``_kernel.Kernel`` (what
    ``_kernel.accel`` is typed as; mypy checks the stub's module against it) names them too."""
    accel = pytest.importorskip("rouge155py._accel")
    package = Path(rouge155py.__file__).parent
    stub = ast.parse((package / "_accel.pyi").read_text())
    stubbed = {node.name for node in stub.body if isinstance(node, ast.FunctionDef)}
    assert stubbed == {name for name in dir(accel) if not name.startswith("_")}
    kernel = next(
        node
        for node in ast.walk(ast.parse((package / "_kernel.py").read_text()))
        if isinstance(node, ast.ClassDef) and node.name == "Kernel"
    )
    assert {node.name for node in kernel.body if isinstance(node, ast.FunctionDef)} == stubbed


def test_every_lazy_name_is_typed() -> None:
    """The names ``rouge155py`` imports on first use are imported for type checkers too."""
    tree = ast.parse((Path(rouge155py.__file__)).read_text())
    typed: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                typed.update({alias.name: str(statement.module) for alias in statement.names})
    homes = rouge155py._HOMES  # type: ignore[attr-defined]
    assert typed == homes
    assert set(homes) | {"__version__"} == set(rouge155py.__all__)
