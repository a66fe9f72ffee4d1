"""The README and the pages of ``docs/``: every code block that shows printed numbers runs and
prints them.

Such a block is a ``pycon`` block (a Python session, run by :mod:`doctest`) or a ``console``
block (``$ command`` lines, each run by the shell from the checkout, its output after it);
a block of any other language that shows a number with three or more decimals is refused,
since nothing would check it. Outputs are compared whole, except where a line holds only
``...``, which stands for any lines (doctest's ``ELLIPSIS``, here for both kinds).
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
PRINTED_NUMBER = re.compile(r"\d\.\d{3,}")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence
    language: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return [
        Block(page, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2)) for m in FENCE.finditer(text)
    ]


ALL = [block for page in PAGES for block in blocks(page)]
SESSIONS = [b for b in ALL if b.language == "pycon"]
CONSOLES = [b for b in ALL if b.language == "console"]


def test_there_are_checked_blocks() -> None:
    assert len(PAGES) > 5 and SESSIONS and CONSOLES
    assert any(b.page.name == "README.md" for b in SESSIONS) and any(
        b.page.name == "README.md" for b in CONSOLES
    )


@pytest.mark.parametrize(
    "block", [b for b in ALL if b.language not in ("pycon", "console")], ids=lambda b: b.where
)
def test_a_block_that_is_not_run_shows_no_printed_number(block: Block) -> None:
    found = PRINTED_NUMBER.search(block.text)
    assert found is None, (
        f"{block.where}: {found.group(0)!r} is shown, not checked: make the block pycon or console"
    )


@pytest.mark.parametrize("block", SESSIONS, ids=lambda b: b.where)
def test_a_python_session_prints_what_it_shows(block: Block) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, {}, block.where, str(block.page), block.line)
    assert test.examples, block.where
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    messages: list[str] = []
    runner.run(test, out=messages.append, clear_globs=True)
    assert runner.failures == 0, "".join(messages)


def _console_commands(block: Block) -> list[tuple[str, str]]:
    commands: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            assert commands, f"{block.where}: output before any $ command"
            commands[-1][1].append(line)
    return [(command, "\n".join(lines) + "\n" if lines else "") for command, lines in commands]


def _matches(shown: str, printed: str) -> bool:
    pattern = "".join(
        r"(?:.*\n)*" if line == "..." else re.escape(line) + r"\n" for line in shown.splitlines()
    )
    return re.fullmatch(pattern, printed) is not None


@pytest.mark.parametrize("block", CONSOLES, ids=lambda b: b.where)
def test_a_console_block_prints_what_it_shows(block: Block) -> None:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    for command, shown in _console_commands(block):
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode in (0, 141), f"{block.where}: {command}: {done.stderr}"
        assert _matches(shown, done.stdout), f"{block.where}: {command} printed\n{done.stdout}"


def test_the_checker_refuses_a_wrong_number(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    wrong = "```pycon\n>>> round(2 / 3, 5)\n0.66666\n```\n\n```console\n$ echo 0.12345\n0.12346\n```\n"
    page.write_text(wrong)
    session, console = blocks(page)
    with pytest.raises(AssertionError):
        test_a_python_session_prints_what_it_shows(replace(session, page=REPO / "README.md"))
    assert not _matches(_console_commands(console)[0][1], "0.12345\n")
    assert _matches("a\n...\nz\n", "a\nb\nc\nz\n") and not _matches("a\n...\nz\n", "a\nb\n")


def test_no_page_or_message_installs_an_extra_from_pypi() -> None:
    """rouge155py is not on PyPI: an extra is installed from the checkout (``'.[stats]'``), and
    ``rouge155py[stats]`` is named only where a page says it is for once it is published."""
    sources = [*PAGES, *sorted((REPO / "rouge155py").rglob("*.py")), *sorted((REPO / "tests").rglob("*.py"))]
    found = []
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"rouge155py\[\w", line) and "published" not in line and path != Path(__file__):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_every_page_is_in_the_sites_navigation() -> None:
    site = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    named = set(re.findall(r"^  - [^:\n]+: (\S+\.md)$", site, re.MULTILINE))
    assert named == {page.name for page in PAGES if page.parent.name == "docs"}
