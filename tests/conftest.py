"""Shared test setup: the repository paths and the reference Perl, when present."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, Iterator, Optional

import pytest
from click.testing import CliRunner
from reference.oracle import INSTALL, Oracle, find_oracle

REPO = Path(__file__).resolve().parent.parent

# -j shares even the small runs of the tests among processes (and the commands they start), so
# that the workers are what they test; tests of the rule that keeps small runs in one process
# set the number themselves.
os.environ["ROUGE155PY_MIN_SHARED_PAIRS"] = "0"

# Tests never wait on a network: Hugging Face's libraries read these when they are imported, so
# they are set here, before any test module imports evaluate, datasets or transformers.
NETWORK_OFF = {
    "HF_HUB_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_EVALUATE_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
}
os.environ.update(NETWORK_OFF)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With pytest-xdist's ``-n``, each test file's tests go to one worker (``--dist loadfile``;
    a ``--dist`` other than ``load`` is kept), so that a module's fixtures, such as the Perl's
    runs of the generated cases, run once. A hook, not ``addopts``: without xdist (``-p
    no:xdist``, or not installed) the suite runs in one process."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import LoadFileScheduling

    return LoadFileScheduling(config, log)


def untracked(root: Path) -> Optional[set[str]]:
    """The files and folders (empty ones too) in the checkout that git neither tracks nor
    ignores; None outside a git checkout."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--others", "--exclude-standard", "--directory", "-z"],
            cwd=root,
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return {name.decode("utf-8", "surrogateescape") for name in listed.split(b"\0") if name}


@pytest.fixture(scope="session", autouse=True)
def checkout_stays_clean() -> Iterator[None]:
    """Tests write under pytest's tmp_path: the run leaves no new file in the checkout."""
    before = untracked(REPO)
    yield
    after = untracked(REPO)
    if before is not None and after is not None and after - before:
        pytest.fail(f"the tests left files in the checkout: {', '.join(sorted(after - before))}")


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return REPO


def make_cli_runner() -> CliRunner:
    """A click runner that keeps stderr apart, on click 8.0 to today's."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()  # click >= 8.2 keeps stderr apart by itself


@pytest.fixture
def cli_runner() -> CliRunner:
    """See :func:`make_cli_runner`."""
    return make_cli_runner()


@pytest.fixture(scope="session")
def oracle() -> Oracle:
    """The reference ROUGE-1.5.5.pl; the test is skipped where it is not installed."""
    found = find_oracle()
    if found is None:
        pytest.skip(f"reference Perl not available ({INSTALL})")
    return found
