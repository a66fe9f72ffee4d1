"""The table of settings: each declared once, as a field of ``Options``, and every face read from it."""

from __future__ import annotations

import ast
import inspect
import os
import shutil
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from rouge155py import Rouge
from rouge155py.api import OPTION_NAMES
from rouge155py.metrics.plan import MetricSettings
from rouge155py.metrics.scoring import ScoringSettings
from rouge155py.settings.argv import PERL_OPTION_SPEC
from rouge155py.settings.options import ROWS, Options
from rouge155py.settings.stages import PeerSelection, ResampleSettings
from rouge155py.settings.table import ROUTES, STAGES
from rouge155py.text.stage import TextSettings

REPO = Path(__file__).resolve().parent.parent
# Each stage's settings object, and its fields that are not rows (made from several of them).
KINDS = {
    "selection": (PeerSelection, set()),
    "text": (TextSettings, set()),
    "metrics": (MetricSettings, set()),
    "scoring": (ScoringSettings, {"best_f"}),
    "resampling": (ResampleSettings, set()),
}


def test_one_row_per_option() -> None:
    assert [row.name for row in ROWS] == [f.name for f in fields(Options)]
    assert len({row.name for row in ROWS}) == len(ROWS) == 49
    for row in ROWS:
        assert row.route in ROUTES and set(row.stages) <= set(STAGES), row.name
        assert row.stages, row.name


@pytest.mark.parametrize("stage", sorted(KINDS))
def test_each_stage_reads_the_rows_of_its_stage(stage: str) -> None:
    kind, computed = KINDS[stage]
    assert {row.name for row in ROWS if stage in row.stages} == {f.name for f in fields(kind)} - computed


def test_the_perl_flags_are_the_perl_option_spec() -> None:
    valued = {letter for letter, colon in zip(PERL_OPTION_SPEC, PERL_OPTION_SPEC[1:] + " ") if colon == ":"}
    for row in ROWS:
        if row.perl is not None:
            assert row.perl in PERL_OPTION_SPEC, row.name
            if row.route != "custom":  # read by code of its own
                assert (row.route == "switch") == (row.perl not in valued), row.name


def _typed_keywords() -> list[tuple[str, object]]:
    """The keywords of ``Rouge.__init__`` that type checkers see (under ``TYPE_CHECKING``)."""
    tree = ast.parse((REPO / "rouge155py" / "api.py").read_text())
    rouge = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rouge")
    typed = next(n for n in rouge.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    init = typed.body[0]
    assert isinstance(init, ast.FunctionDef) and init.name == "__init__"
    return [
        (arg.arg, ast.literal_eval(default) if default is not None else None)
        for arg, default in zip(init.args.kwonlyargs, init.args.kw_defaults)
    ]


def test_the_typed_keywords_of_rouge_are_the_table() -> None:
    """Type checkers read a typed ``__init__``: the same keywords, defaults and order as the table's."""
    runtime = inspect.signature(Rouge.__init__).parameters.values()
    expected = [(p.name, p.default) for p in runtime if p.kind is inspect.Parameter.KEYWORD_ONLY]
    assert _typed_keywords() == expected
    assert [name for name, _ in expected] == ["rouge_types", *OPTION_NAMES]


# A setting added to the table, and only there.
_NEW_ROW = """\
    frobnicate: bool = setting(
        False,
        flag,
        stages=("run",),
        long="--frobnicate",
        route="switch",
        signature=("frob",),
        synopsis="[--frobnicate (a setting added by a test)]",
        help="--frobnicate: a setting added by a test,\\nwhose help has two lines.",
    )

    def __post_init__(self) -> None:
"""

_PROBE = """\
import inspect
from rouge155py import Rouge, parse_command_line, score
from rouge155py.settings.usage import usage

options = parse_command_line(["--frobnicate", "-a", "c.xml"], environ={}).options
assert options is not None and options.frobnicate is True, options
assert parse_command_line(["-a", "c.xml"], environ={}).options.frobnicate is False
assert options.signature("v").endswith("|frob:yes|version:v"), options.signature("v")
assert Rouge().options.signature("v").endswith("|frob:no|version:v")
assert Rouge(frobnicate=True).options.frobnicate is True
for function in (Rouge, score):
    parameter = inspect.signature(function).parameters["frobnicate"]
    assert (parameter.default, parameter.annotation) == (False, "bool"), parameter
assert "``frobnicate`` (``--frobnicate``)" in " ".join(Rouge.__doc__.split())  # lines wrapped anywhere
short, full = usage("rouge155py", False), usage("rouge155py", True)
assert "\\n         [--frobnicate (a setting added by a test)]\\n" in short, short
assert "\\n  --frobnicate: a setting added by a test,\\n  whose help has two lines.\\n" in full, full
print("reached")
"""


def test_a_new_row_reaches_the_command_line_rouge_the_signatures_and_the_usage(tmp_path: Path) -> None:
    package = tmp_path / "rouge155py"
    shutil.copytree(REPO / "rouge155py", package, ignore=shutil.ignore_patterns("__pycache__"))
    table = package / "settings" / "options.py"
    source = table.read_text()
    assert source.count("\n    def __post_init__(self) -> None:\n") == 1
    table.write_text(source.replace("    def __post_init__(self) -> None:\n", _NEW_ROW, 1))
    run = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (run.returncode, run.stdout) == (0, "reached\n"), run.stderr
