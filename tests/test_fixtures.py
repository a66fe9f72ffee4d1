"""The port against archived ROUGE-1.5.5.pl outputs (``reference/make_fixtures.py``).

Each directory under ``tests/fixtures/perl/`` holding an ``args.json`` is one
case: the port runs in this process, from the repository root, with
``-e <repo>/data`` and the stored arguments.  Where the Perl succeeded the port
must succeed and print the same bytes; where the Perl died the port must fail
with one ``rouge155py: error:`` line (under ``-v`` the lines the Perl prints in
its hash order are compared as multisets). Each case also runs with every eval in a
chunk of its own (the files of one chunk are forgotten before the next), and
without the C kernel.
"""

from __future__ import annotations

import difflib
import io
import json
import sys
from pathlib import Path

import pytest
from differential.runner import canonical

import rouge155py._kernel
import rouge155py.cli
import rouge155py.run.plan

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "perl"
MIN_CASES = 30
DIFF_LINES = 60


def _case_names() -> list[str]:
    if not FIXTURES.is_dir():
        return []
    return sorted(d.name for d in FIXTURES.iterdir() if (d / "args.json").is_file())


CASE_NAMES = _case_names()


def _run_port(argv: list[str]) -> tuple[int, bytes, bytes]:
    """``rouge155py.cli.run(argv)`` with stdout and stderr captured as bytes."""
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape", newline="\n")
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", newline="\n")
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr
    try:
        code = rouge155py.cli.run(argv)
        stdout.flush()
        stderr.flush()
    finally:
        sys.stdout, sys.stderr = saved
        stdout.detach()
        stderr.detach()
    return code, out.getvalue(), err.getvalue()


def _diff(expected: bytes, got: bytes) -> str:
    lines = difflib.unified_diff(
        expected.decode("latin-1").splitlines(),
        got.decode("latin-1").splitlines(),
        "perl",
        "port",
        lineterm="",
    )
    shown = list(lines)
    more = len(shown) - DIFF_LINES
    text = "\n".join(shown[:DIFF_LINES])
    return text + (f"\n... {more} more diff lines" if more > 0 else "")


def test_enough_cases() -> None:
    assert len(CASE_NAMES) >= MIN_CASES, f"only {len(CASE_NAMES)} cases in {FIXTURES}"


@pytest.mark.parametrize(
    "variant",
    ["default-chunks", "eval-per-chunk", "no-kernel"],
    ids=["default-chunks", "eval-per-chunk", "no-kernel"],
)
@pytest.mark.parametrize("name", CASE_NAMES)
def test_matches_perl(name: str, variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if variant == "eval-per-chunk":
        monkeypatch.setattr(rouge155py.run.plan, "_CHUNK_FILES", 1)
    if variant == "no-kernel":  # the pure-Python paths (numpy's bootstrap), as where no C compiler was found
        monkeypatch.setattr(rouge155py._kernel, "accel", None)
    case = FIXTURES / name
    args = json.loads((case / "args.json").read_text(encoding="utf-8"))
    assert isinstance(args, list) and all(isinstance(a, str) for a in args)
    perl_code = int((case / "exit_code.txt").read_text().strip())
    perl_stdout = (case / "stdout.txt").read_bytes()

    monkeypatch.chdir(REPO)
    code, stdout, stderr = _run_port(["-e", str(REPO / "data"), *args])
    command = " ".join(["rouge155py", "-e", "data", *args])
    errors = stderr.decode("utf-8", "replace")
    assert "Traceback" not in errors, f"{command}\n{errors}"

    if perl_code == 0:
        assert code == 0, f"{command}: the Perl succeeded, the port exited {code}\n{errors}"
        if "-v" in args:  # the lines in Perl's hash order are compared as multisets
            assert canonical(stdout) == canonical(perl_stdout), (
                f"{command}: stdout differs\n{_diff(perl_stdout, stdout)}"
            )
        else:
            assert stdout == perl_stdout, f"{command}: stdout differs\n{_diff(perl_stdout, stdout)}"
    else:
        assert code != 0, f"{command}: the Perl died (exit {perl_code}), the port exited 0"
        error_lines = [line for line in errors.splitlines() if line.startswith("rouge155py: error:")]
        assert len(error_lines) == 1, f"{command}: expected one error line on stderr\n{errors}"


# Every function of the kernel but the stemmer's (bound once where the stems are cached: the same stems).
_KERNEL_CALLS = (
    "score_pairs",
    "unit_hits",
    "union_lcs",
    "budget",
    "encode",
    "text_state",
    "bootstrap_sums",
    "sort_and_sum",
    "rs_score_pairs",
    "plain_texts",
    "rs_stem",
    "rs_encode",
)


@pytest.mark.skipif(rouge155py._kernel.accel is None, reason="C kernel not built")
@pytest.mark.parametrize("name", ["design-card", "duc-official"])
def test_one_switch_takes_every_path_off_the_kernel(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``_kernel.accel`` set to None is the whole switch (as where no C compiler built the kernel):
    a run then calls none of the kernel's functions, and prints the Perl's bytes."""

    def refused(*args: object) -> None:
        raise AssertionError("the kernel was called")

    case = FIXTURES / name
    argv = ["-e", str(REPO / "data"), *json.loads((case / "args.json").read_text(encoding="utf-8"))]
    monkeypatch.chdir(REPO)
    runs = [_run_port(argv)]  # on the kernel, every module of a run imported before the switch
    for function in _KERNEL_CALLS:
        monkeypatch.setattr(rouge155py._kernel.accel, function, refused)
    monkeypatch.setattr(rouge155py._kernel, "accel", None)
    runs.append(_run_port(argv))
    for code, stdout, stderr in runs:
        assert code == 0, stderr.decode("utf-8", "replace")
        assert stdout == (case / "stdout.txt").read_bytes()
