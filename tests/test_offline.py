"""The test session runs with Hugging Face's libraries offline, so no test waits on a network."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

NAMES = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE")


@pytest.mark.parametrize("name", NAMES)
def test_session_is_offline(name: str) -> None:
    assert os.environ.get(name) == "1"


def test_commands_started_by_tests_inherit_offline() -> None:
    code = "import os; print(os.environ.get('HF_HUB_OFFLINE'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "1"
