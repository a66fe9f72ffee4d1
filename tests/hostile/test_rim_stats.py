"""The statistics held to the core's standard: no conclusion from noise, non-finite scores or one
item; any item ID; judgments read by a strict grammar; bounded memory whatever the systems."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from rouge155py.cli import main

REPO = Path(__file__).resolve().parent.parent.parent
CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")
BASE = ["-e", str(REPO / "data"), "-a", "-r", "50"]
EVALS = [f"D{e:02d}" for e in range(1, 11)]


def invoke(*args: str) -> Result:
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"unexpected exception: {result.exception!r}") from result.exception
    return result


def assert_error(result: Result, code: int, pattern: str) -> None:
    lines = result.stderr_bytes.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rouge155py: error: "), lines
    assert result.exit_code == code, lines
    assert result.stdout_bytes == b""
    assert re.search(pattern, lines[0]), lines[0]


def two_systems(a: list[float], b: list[float]) -> dict[str, Any]:
    return {"M": {"A": {str(i): x for i, x in enumerate(a)}, "B": {str(i): x for i, x in enumerate(b)}}}


# Class 4 (--compare): memory bounded whatever the number of systems.

_BOUNDED = """
import resource, sys
limit = 1 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import numpy as np
from rouge155py.stats.significance import CompareSettings, compare_items
rng = np.random.default_rng(1)
items = int(sys.argv[2])
scores = {"M": {f"S{s:03d}": {str(i): float(v) for i, v in enumerate(rng.random(items))} for s in range(300)}}
found = compare_items(scores, settings=CompareSettings(sys.argv[1], samples=3000))
print(len(found.rows))
"""


def test_compare_of_300_systems_fits_in_1_gb_of_address_space() -> None:
    # 44,850 pairs x 3,000 samples: 1.1 GB as one matrix of resampled differences.
    done = subprocess.run(
        [sys.executable, "-c", _BOUNDED, "paired-bootstrap", "5"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split() == ["44850"]
