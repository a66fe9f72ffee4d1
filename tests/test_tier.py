"""The fast tier (``python -m pytest -m "not slow"``) still reaches every module of the package.

A module counts as reached when a test file with tests in the fast tier imports it, or
imports (in ``tests/``) a helper that does, or imports a module of the package that
imports it. Two modules are run rather than imported: ``__main__`` (``python -m
rouge155py``) and the HF ``evaluate`` script (loaded by the path
``evaluate_module_path()`` gives). A file is left out of the fast tier wholesale by
``pytestmark = pytest.mark.slow`` (alone or in a list).
"""

from __future__ import annotations

import ast
import configparser
import functools
from collections.abc import Iterable, Iterator
from pathlib import Path

import rouge155py

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "rouge155py"
TESTS = REPO / "tests"

# The command line's analyses import the plots in a function that a function of cli imports.
LAZY_STEPS = 2
# Module -> what a test file's text holds when it runs that module.
RUN_BY = {
    "rouge155py.__main__": ('"-m", "rouge155py"', 'run_module("rouge155py"'),
    "rouge155py.hf.rouge155py": ("evaluate_module_path(",),
    "rouge155py.paraphrases": ('"rouge155py.paraphrases",',),
}


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path, REPO): path for path in sorted(PACKAGE.rglob("*.py"))}
TEST_MODULES = {_module_name(path, TESTS): path for path in sorted(TESTS.rglob("*.py"))}


def _nodes(tree: ast.AST, lazy: bool) -> Iterator[ast.AST]:
    """The nodes run on import (``lazy``: also those in functions), not under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            for kept in node.orelse:
                yield kept
                yield from _nodes(kept, lazy)
            continue
        yield node
        if lazy or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield from _nodes(node, lazy)


@functools.cache
def _imported(path: Path, name: str, lazy: bool = True) -> frozenset[str]:
    """The dotted names a file imports (``from a import b`` gives ``a`` and ``a.b``), on import
    alone unless ``lazy``; ``name`` is the file's module, which relative imports start from."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in _nodes(ast.parse(path.read_bytes(), str(path)), lazy):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = [*package[: len(package) - node.level + 1], *([node.module] if node.module else [])]
            module = ".".join(base if node.level else [node.module or ""])
            found.add(module)
            for alias in node.names:
                found.add(f"{module}.{alias.name}")
                home = rouge155py._HOMES.get(alias.name) if module == "rouge155py" else None
                if home is not None:  # a public name, imported from its module on first use
                    found.add(f"rouge155py.{home}")
    return frozenset(found)


def _known(names: Iterable[str], modules: dict[str, Path]) -> set[str]:
    """The modules among ``names`` and their packages."""
    return {
        prefix
        for name in names
        for prefix in (".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2))
        if prefix in modules
    }


def _closure(start: set[str], modules: dict[str, Path], lazy: bool = True) -> set[str]:
    """``start`` and the modules they import, and those import, ..."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_known(_imported(modules[name], name, lazy), modules))
    return seen


def is_slow_wholesale(path: Path) -> bool:
    """The file marks every test slow: a module-level ``pytestmark`` holding ``pytest.mark.slow``."""
    for node in ast.parse(path.read_bytes(), str(path)).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "pytestmark" for target in node.targets
        ):
            value = node.value
            marks = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
            return any(ast.unparse(mark) == "pytest.mark.slow" for mark in marks)
    return False


def unreached(slow: set[str]) -> list[str]:
    """The package's modules that no test file reaches but those in ``slow`` (paths in ``tests/``)."""
    fast = {
        name
        for name, path in TEST_MODULES.items()
        if path.name == "conftest.py"
        or (
            path.name.startswith("test_")
            and path.relative_to(TESTS).as_posix() not in slow
            and not is_slow_wholesale(path)
        )
    }
    files = [TEST_MODULES[name] for name in _closure(fast, TEST_MODULES)]
    reached = set().union(*(_known(_imported(path, _module_name(path, TESTS)), MODULES) for path in files))
    # What importing them loads, then what their functions import, LAZY_STEPS times (followed
    # to the end, that reaches everything: ``cli`` imports most modules in some function).
    reached = _closure(reached, MODULES, lazy=False)
    for _ in range(LAZY_STEPS):
        lazily = set().union(*(_known(_imported(MODULES[name], name), MODULES) for name in reached))
        reached |= _closure(lazily, MODULES, lazy=False)
    texts = [path.read_text(encoding="utf-8") for path in files]
    reached |= {module for module, marks in RUN_BY.items() if any(m in text for m in marks for text in texts)}
    return sorted(set(MODULES) - reached)


def test_every_module_is_reached_by_the_fast_tier() -> None:
    assert unreached(set()) == []


def test_a_module_whose_tests_are_all_slow_is_unreached() -> None:
    """The check sees a module whose only importers are left out: the Dask door's."""
    assert unreached(set()) == []
    assert unreached({"test_dask.py", "test_api.py", "hostile/test_api_fuzz.py"}) == ["rouge155py.dask"]
    everything = {path.relative_to(TESTS).as_posix() for path in TESTS.rglob("test_*.py")}
    assert unreached(everything) == sorted(MODULES)


def test_the_slow_marker_is_registered_and_markers_are_strict() -> None:
    """A misspelt ``@pytest.mark.slwo`` is an error, not a test left in the fast tier."""
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg", encoding="utf-8")
    section = config["tool:pytest"]
    assert "--strict-markers" in section["addopts"].split()
    assert any(line.startswith("slow:") for line in section["markers"].strip().splitlines())
