"""``--make-home DIR``: a "ROUGE home" folder whose ``ROUGE-1.5.5.pl`` runs rouge155py.

Programs that run the Perl by path (pyrouge, files2rouge, rouge-metric's
wrapper) are pointed at this folder and work unchanged, with no Perl on the
machine: the script is a shell script, which ``perl SCRIPT`` also hands to
``/bin/sh`` (Perl runs the interpreter a ``#!`` line names when it is not
Perl). ``data/`` holds the stopwords and the WordNet exception lists in the
layout of the ROUGE-1.5.5 release.
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


def make_home(directory: str) -> str:
    """Write the folder (made if needed) and return the script's path."""
    home = Path(directory)
    bundled = bundled_data_dir()
    source = exception_dir(bundled)
    if source is None:  # the package is broken, not the user's input
        raise RuntimeError(f"no WordNet exception lists in {bundled}")
    try:
        (home / "data" / _EXCEPTIONS).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bundled / STOPWORDS_FILE, home / "data" / STOPWORDS_FILE)
        for name in EXCEPTION_FILES:
            shutil.copyfile(source / name, home / "data" / _EXCEPTIONS / name)
        script = home / SCRIPT_NAME
        script.write_text(
            "#!/bin/sh\n"
            "# ROUGE-1.5.5.pl's command line, run by rouge155py (same options, same output).\n"
            f'exec {shlex.quote(sys.executable)} -m rouge155py "$@"\n',
            encoding="utf-8",
        )
        script.chmod(0o755)
    except OSError as exc:
        raise UsageError(f"cannot make the ROUGE home {directory}: {exc.strerror or exc}") from None
    return os.fspath(script.resolve())
