"""``scripts/`` holds what a user runs, ``tests/`` what the tests need: neither imports the other.

A script imports the installed package and its siblings in ``scripts/`` (the
directory of a script run is on the path already), and edits no ``sys.path``;
the tests import their own modules with ``tests/`` as the import root. Where a
script needs the tests' code (the reference Perl's installer), it runs it as a
program.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = REPO / "scripts"
TESTS = REPO / "tests"


def _imported(path: Path) -> Iterator[tuple[int, str]]:
    """The line and top-level name of each absolute import in a file."""
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name.split(".")[0]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module.split(".")[0]


def _top_level_names(root: Path) -> set[str]:
    """What ``import NAME`` finds with ``root`` on the path: its modules and packages."""
    packages = {p.name for p in root.iterdir() if (p / "__init__.py").is_file()}
    return {p.stem for p in root.glob("*.py")} | packages


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(REPO)}:{line}"


@pytest.mark.parametrize(
    ("files", "other"),
    [(sorted(SCRIPTS.glob("*.py")), TESTS), (sorted(TESTS.rglob("*.py")), SCRIPTS)],
    ids=["scripts-import-no-test-module", "tests-import-no-script"],
)
def test_neither_tree_imports_the_other(files: list[Path], other: Path) -> None:
    names = _top_level_names(other) | {other.name}
    found = [
        f"{_where(path, line)} imports {name}"
        for path in files
        for line, name in _imported(path)
        if name in names
    ]
    assert not found, found


def test_no_script_edits_the_import_path() -> None:
    found = [
        _where(path, number)
        for path in sorted(SCRIPTS.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "sys.path" in line
    ]
    assert not found, found


def test_every_package_of_rouge155py_is_installed() -> None:
    """setup.cfg names its packages one by one: a package it leaves out is missing from a wheel."""
    import configparser

    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    listed = set(config["options"]["packages"].split())
    source = REPO / "rouge155py"
    found = {
        ".".join(("rouge155py", *init.parent.relative_to(source).parts))
        for init in source.rglob("__init__.py")
    }
    assert found <= listed, sorted(found - listed)


def _metric_classes() -> dict[tuple[str, str], type]:
    """Each metric class (a subclass of ``Metric``) by (module, name) where it is defined."""
    import importlib

    from rouge155py.metrics.base import Metric

    found = {}
    for path in sorted((REPO / "rouge155py" / "metrics").glob("*.py")):
        module = importlib.import_module(f"rouge155py.metrics.{path.stem}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Metric) and value is not Metric:
                found[value.__module__, value.__name__] = value
    return found


def test_only_the_registry_and_the_metrics_name_a_metric_class() -> None:
    """A metric is its file in ``metrics/`` and its registry line: no other module imports a
    metric class (a metric's file may import the base it extends)."""
    classes = _metric_classes()
    package = REPO / "rouge155py"
    wrong = []
    for path in sorted(package.rglob("*.py")):
        if path == package / "metrics" / "plan.py":
            continue
        parts = path.relative_to(REPO).with_suffix("").parts
        here = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        tree = ast.parse(path.read_bytes(), str(path))
        bases = {
            base.id
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)
            for base in node.bases
            if isinstance(base, ast.Name)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or (not node.module and not node.level):
                continue
            package_parts = here.split(".")[: len(here.split(".")) - node.level + (parts[-1] == "__init__")]
            source = (
                ".".join(package_parts + ([node.module] if node.module else []))
                if node.level
                else node.module
            )
            for alias in node.names:
                if (source, alias.name) in classes and alias.name not in bases:
                    wrong.append(f"{_where(path, node.lineno)}: {alias.name}")
    assert not wrong


PACKAGE = REPO / "rouge155py"
#: The faces, whose import paths users rely on, and the package's own ground (errors, version,
#: the kernel's loader); every other module lives in a folder named for the data it handles.
TOP_LEVEL = {
    "__init__", "__main__", "_kernel", "_version", "api", "batches", "cli", "dask", "errors",
    "incremental", "paraphrases", "rouge155", "torchmetrics",
}  # fmt: skip


def _room(module: str) -> str:
    """The room of a module of the package: its folder at the top level, or the module itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module_of(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_of(path) for path in PACKAGE.rglob("*.py")}


def _modules_imported(path: Path) -> Iterator[tuple[int, str]]:
    """The line and module of each import of the package in one of its files (relative or
    absolute, at any depth: under ``TYPE_CHECKING`` and inside functions too)."""
    package = list(path.relative_to(REPO).parent.parts)  # what a relative import starts from
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            for alias in node.names:
                module = f"{target}.{alias.name}"
                module = module if module in MODULES else target
                if module in MODULES:
                    yield node.lineno, module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    yield node.lineno, alias.name


def _circles(place: Callable[[str], str]) -> list[str]:
    """Each import that closes a circle between the places of the package's modules."""
    uses: dict[str, set[str]] = {}
    where: dict[tuple[str, str], str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        here = place(_module_of(path))
        for line, module in _modules_imported(path):
            other = place(module)
            if other not in (here, "rouge155py", "__init__"):
                uses.setdefault(here, set()).add(other)
                where.setdefault((here, other), _where(path, line))

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            room = todo.pop()
            if room == goal:
                return True
            if room not in seen:
                seen.add(room)
                todo.extend(uses.get(room, ()))
        return False

    return [
        f"{where[here, other]}: {here} uses {other}, which uses {here} again"
        for here, others in sorted(uses.items())
        for other in sorted(others)
        if reaches(other, here)
    ]


def test_the_package_top_level_holds_the_faces_and_its_ground() -> None:
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    assert modules == TOP_LEVEL, sorted(modules ^ TOP_LEVEL)


def test_the_rooms_of_the_package_import_each_other_one_way() -> None:
    """No circle of imports between the package's top-level modules and folders: each room
    uses rooms below it only, so it can be read (and tested) without those above."""
    circles = _circles(_room)
    assert not circles, circles


def test_no_module_of_the_package_imports_one_that_imports_it() -> None:
    """Nor between two modules of one folder (type-checking imports included)."""
    circles = _circles(lambda module: module)
    assert not circles, circles
