"""Run one generated case through the reference Perl and through the port, and compare.

The port is run as ``python -m rouge155py -e DATA ARGS`` from the case directory, with
this repository first on ``PYTHONPATH`` and its bundled ``data`` directory; the Perl as
``perl ROUGE-1.5.5.pl -e ORACLE_DATA ARGS``.  They agree when both exit 0 with the same
stdout bytes (under ``-v``, the lines the Perl prints in its hash order compared as
multisets: :func:`canonical`), or when both exit non-zero (the port's error text is free).
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reference.oracle import Oracle

    from .generate import Case

__all__ = [
    "DATA_DIR",
    "REPO_ROOT",
    "Outcome",
    "Result",
    "canonical",
    "compare",
    "run_both",
    "run_perl",
    "run_port",
    "same_report",
]

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = REPO_ROOT / "data"
DEFAULT_TIMEOUT = 120.0
_DIFF_LINES = 40
_STDERR_CHARS = 600


@dataclass
class Outcome:
    """How one implementation ended on one case."""

    returncode: int
    stdout: bytes
    stderr: bytes
    seconds: float
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


@dataclass
class Result:
    """Both outcomes of one case."""

    case: Case
    perl: Outcome
    port: Outcome


def _timed_out(exc: subprocess.TimeoutExpired, seconds: float) -> Outcome:
    def as_bytes(data: bytes | str | None) -> bytes:
        if data is None:
            return b""
        return data.encode() if isinstance(data, str) else data

    return Outcome(-1, as_bytes(exc.stdout), as_bytes(exc.stderr), seconds, timed_out=True)


def run_perl(case: Case, oracle: Oracle, timeout: float = DEFAULT_TIMEOUT) -> Outcome:
    """Run the reference Perl on ``case``."""
    start = time.perf_counter()
    try:
        proc = oracle.run(["-e", str(oracle.data_dir), *case.args], cwd=case.cwd, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        return _timed_out(exc, time.perf_counter() - start)
    return Outcome(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)


def port_command(case: Case) -> list[str]:
    """The command line that runs the port on ``case``."""
    return [sys.executable, "-m", "rouge155py", "-e", str(DATA_DIR), *case.args]


def run_port(case: Case, timeout: float = DEFAULT_TIMEOUT) -> Outcome:
    """Run ``python -m rouge155py`` from this repository on ``case``."""
    env = dict(os.environ)
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + old if old else "")
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            port_command(case),
            cwd=str(case.cwd),
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        return _timed_out(exc, time.perf_counter() - start)
    return Outcome(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)


def run_both(case: Case, oracle: Oracle, timeout: float = DEFAULT_TIMEOUT) -> Result:
    """Run ``case`` through the Perl and through the port."""
    return Result(case, run_perl(case, oracle, timeout), run_port(case, timeout))


def _tail(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip()
    if len(text) > _STDERR_CHARS:
        text = "..." + text[-_STDERR_CHARS:]
    return text


def _stdout_diff(perl: bytes, port: bytes) -> str:
    """A unified diff of the two stdouts, cut after the first differing lines."""
    a = perl.decode("latin-1").splitlines(keepends=True)
    b = port.decode("latin-1").splitlines(keepends=True)
    lines = list(difflib.unified_diff(a, b, "perl", "port", n=1))
    if not lines:
        # Same lines, different bytes (a missing final newline, for instance).
        return f"stdout differs only in line endings: perl {perl[-20:]!r}, port {port[-20:]!r}"
    shown = [line if line.endswith("\n") else line + "\n" for line in lines[:_DIFF_LINES]]
    if len(lines) > _DIFF_LINES:
        shown.append(f"... ({len(lines) - _DIFF_LINES} more diff lines)\n")
    return "".join(shown).rstrip("\n")


_COUNT_FIELD = b"_cn_"
_MATCH = b"* Match: "


def _hash_fields(line: bytes) -> list[bytes] | None:
    """The pairs (or, where a key holds the separator, the fields) of a ``-v`` unit dump
    ``key|count|...`` or ``key#count#...``, sorted; None for any other line."""
    for separator in (b"|", b"#"):
        fields = line.split(separator)
        if len(fields) % 2 == 0 and _COUNT_FIELD in fields[0::2]:
            pairs = [separator.join(p) for p in zip(fields[0::2], fields[1::2])]
            if all(count.isdigit() for count in fields[1::2]):
                return sorted(pairs)
            return sorted(fields)
    return None


def canonical(stdout: bytes) -> list[bytes]:
    """The lines of a report, with what ``-v`` prints in Perl's hash order put in one order.

    A unit dump becomes its sorted pairs, a run of ``* Match:`` lines is sorted;
    every other line is kept as it is (a report without ``-v`` has no such lines).
    """
    out: list[bytes] = []
    matches: list[bytes] = []
    for line in stdout.split(b"\n"):
        if line.startswith(_MATCH):
            matches.append(line)
            continue
        out.extend(sorted(matches))
        matches = []
        fields = _hash_fields(line)
        out.append(line if fields is None else b"\0".join([b"units:", *fields]))
    out.extend(sorted(matches))
    return out


def same_report(perl: bytes, port: bytes) -> bool:
    """The same bytes, or under ``-v`` the same lines but for the order Perl's hashes give."""
    return perl == port or canonical(perl) == canonical(port)


def compare(result: Result) -> str | None:
    """None when the two agree; otherwise a description of how they differ."""
    perl, port = result.perl, result.port
    if perl.timed_out or port.timed_out:
        who = " and ".join(n for n, o in (("perl", perl), ("port", port)) if o.timed_out)
        return f"{result.case.describe()}\n{who} timed out"
    if perl.returncode != 0 and port.returncode != 0:
        return None
    if perl.returncode == 0 and port.returncode == 0 and same_report(perl.stdout, port.stdout):
        return None
    parts = [result.case.describe()]
    if perl.returncode != port.returncode:
        parts.append(f"exit status: perl {perl.returncode}, port {port.returncode}")
        failed = perl if perl.returncode != 0 else port
        name = "perl" if failed is perl else "port"
        parts.append(f"{name} stderr: {_tail(failed.stderr)}")
    if not same_report(perl.stdout, port.stdout):
        parts.append(_stdout_diff(perl.stdout, port.stdout))
    return "\n".join(parts)
