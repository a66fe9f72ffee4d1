"""Building a case's directory, running rouge155py and the Perl on it, judging the outcome."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Optional

from click.testing import CliRunner, Result

from rouge155py.cli import main

from . import fuzz
from .catalogue import PERL, Case, Directory, Fifo, Partial, Refused, Symlink
from .fuzz import DATA, REPO

ARCHIVE = Path(__file__).resolve().parent / "perl_archive.json"
TIMEOUT = 60.0  # against hangs only: every case ends in well under a second

__all__ = [
    "ARCHIVE",
    "DATA",
    "REPO",
    "TIMEOUT",
    "archived",
    "build",
    "check",
    "fuzz",
    "invoke",
    "perl_args",
    "port_args",
    "run_port",
]


def invoke(*args: str) -> Result:
    """The command line run in this process by click's runner, stderr apart; an exception other
    than the command's exit fails the test."""
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"unexpected exception: {result.exception!r}") from result.exception
    return result


def build(case: Case, root: Path) -> None:
    """Write the case's files under ``root``."""
    for name, content in case.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Fifo):
            os.mkfifo(path)
        elif isinstance(content, Symlink):
            os.symlink(content.target, path)
        elif isinstance(content, Directory):
            path.mkdir()
        else:
            path.write_bytes(content)


def port_args(case: Case) -> list[str]:
    return ["-e", DATA, *case.args] if case.data else list(case.args)


def perl_args(case: Case, oracle: Any) -> list[str]:
    args = [arg for arg in case.args if arg not in case.not_perl]
    return ["-e", str(oracle.data_dir), *args] if case.data else args


def run_port(case: Case, root: Path) -> fuzz.Outcome:
    return fuzz.run_isolated(port_args(case), root, TIMEOUT)


def archived() -> dict[str, Any]:
    """The Perl's outcomes recorded by ``archive.py``."""
    return json.loads(ARCHIVE.read_text(encoding="utf-8")) if ARCHIVE.is_file() else {}


def check(case: Case, outcome: fuzz.Outcome, perl_stdout: Optional[bytes]) -> None:
    """The outcome the case expects: the Perl's bytes, or one error line and its exit code."""
    verdict = fuzz.judge(outcome)
    err = outcome.stderr.decode("utf-8", "backslashreplace")
    assert verdict in fuzz.GOOD, f"{verdict}: exit {outcome.exit_code}, stderr:\n{err}"
    if case.expect == PERL or isinstance(case.expect, Partial):
        assert perl_stdout is not None, f"{case.name}: not archived (cd tests && python -m hostile.archive)"
        assert outcome.stdout == perl_stdout
    if case.expect == PERL:
        assert outcome.exit_code == 0, err
        return
    assert isinstance(case.expect, (Refused, Partial))
    assert outcome.exit_code == case.expect.exit_code, err
    line = err.rstrip("\n").split("\n")[-1]
    assert re.search(case.expect.pattern, line), line


def write_workload(root: Path, evals: int, systems: int, models: int, words: int, seed: int = 1) -> Path:
    """A generated evaluation (SPL files and ``config.xml`` under ``root``); returns the config."""
    import random

    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(400)]
    root.mkdir(parents=True, exist_ok=True)

    def summary(name: str) -> str:
        sentences = [
            " ".join(rng.choice(vocabulary) for _ in range(15)) + " ." for _ in range(max(1, words // 15))
        ]
        (root / name).write_text("\n".join(sentences) + "\n")
        return name

    parts = ['<ROUGE-EVAL version="1.0">']
    for e in range(evals):
        parts.append(f'<EVAL ID="{e}"><PEER-ROOT>{root}</PEER-ROOT><MODEL-ROOT>{root}</MODEL-ROOT>')
        parts.append('<INPUT-FORMAT TYPE="SPL"/><PEERS>')
        parts += [f'<P ID="{s}">{summary(f"e{e}.p{s}")}</P>' for s in range(systems)]
        parts.append("</PEERS><MODELS>")
        parts += [f'<M ID="{m}">{summary(f"e{e}.m{m}")}</M>' for m in range(models)]
        parts.append("</MODELS></EVAL>")
    parts.append("</ROUGE-EVAL>")
    path = root / "config.xml"
    path.write_text("\n".join(parts) + "\n")
    return path
