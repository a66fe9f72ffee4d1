"""``--make-home DIR``: a "ROUGE home" folder whose ``ROUGE-1.5.5.pl`` runs rouge155py.

Programs that run the Perl by path (pyrouge, files2rouge, rouge-metric's
wrapper) are pointed at this folder and work unchanged, with no Perl on the
machine: the script is a shell script, which ``perl SCRIPT`` also hands to
``/bin/sh`` (Perl runs the interpreter a ``#!`` line names when it is not
Perl). It names this Python by its absolute path, so it runs under an empty
environment too (files2rouge passes only ``ROUGE_EVAL_HOME``). ``data/``
holds the stopwords and the WordNet exception lists in the layout of the
ROUGE-1.5.5 release.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

from .errors import UsageError
from .resources import EXCEPTION_FILES, STOPWORDS_FILE, bundled_data_dir, exception_dir

__all__ = ["SCRIPT_NAME", "make_home"]

SCRIPT_NAME = "ROUGE-1.5.5.pl"
_EXCEPTIONS = "WordNet-2.0-Exceptions"
_MARK = "# ROUGE-1.5.5.pl's command line, run by rouge155py (same options, same output).\n"
# Not "python -m": that puts the caller's working directory first on sys.path,
# where any file such as dataclasses.py would shadow the module rouge155py needs.
_RUN = "import sys; sys.path[:] = [p for p in sys.path if p]; from rouge155py.cli import main; main()"


def make_home(directory: str) -> str:
    """Write the folder (made if needed) and return the script's path."""
    home = Path(directory)
    script = home / SCRIPT_NAME
    bundled = bundled_data_dir()
    source = exception_dir(bundled)
    if source is None:  # the package is broken, not the user's input
        raise RuntimeError(f"no WordNet exception lists in {bundled}")
    try:
        if script.is_file() and _MARK not in script.read_text("latin-1"):
            raise UsageError(f"{script} exists and rouge155py did not write it (a real ROUGE?): not replaced")
        (home / "data" / _EXCEPTIONS).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bundled / STOPWORDS_FILE, home / "data" / STOPWORDS_FILE)
        for name in EXCEPTION_FILES:
            shutil.copyfile(source / name, home / "data" / _EXCEPTIONS / name)
        script.write_text(
            f'#!/bin/sh\n{_MARK}exec {shlex.quote(sys.executable)} -c {shlex.quote(_RUN)} "$@"\n',
            encoding="utf-8",
        )
        script.chmod(0o755)
    except OSError as exc:
        raise UsageError(f"cannot make the ROUGE home {directory}: {exc.strerror or exc}") from None
    return os.fspath(script.resolve())
