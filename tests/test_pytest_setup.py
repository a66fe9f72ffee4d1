"""The suite runs with pytest-xdist (the README's ``-n auto``) and without it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# A quick test of another file, run by a pytest of its own.
QUICK = "tests/test_tier.py::test_the_slow_marker_is_registered_and_markers_are_strict"


def _pytest(*options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *options, QUICK]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)


def test_the_suite_runs_without_xdist() -> None:
    done = _pytest("-p", "no:xdist", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


def test_workers_take_a_test_file_each() -> None:
    pytest.importorskip("xdist")
    done = _pytest("-n", "2", "-v")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "scheduling tests via LoadFileScheduling" in done.stdout
