"""Ctrl-C while ``python -m rouge155py`` imports its own modules, before any handler of its own."""

from __future__ import annotations

import os
import subprocess
import sys

from .support import REPO

# An import hook stands in for a SIGINT that lands while the command's modules load:
# the first import of rouge155py.settings.options raises KeyboardInterrupt, as the signal would there.
PROBE = """
import runpy, sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "rouge155py.settings.options":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv = ["rouge155py", "--version"]
runpy.run_module("rouge155py", run_name="__main__")
"""


def test_interrupt_while_importing_is_one_line_and_130() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, env=env, timeout=60)
    assert (run.returncode, run.stderr, run.stdout) == (130, b"rouge155py: interrupted\n", b"")
