"""The optional compiled kernel: ``accel`` is the ``_accel`` module, or None where it was not built.

Every caller has a pure-Python or numpy path that gives the same bytes. Setting
``ROUGE155PY_NO_KERNEL`` (to anything but an empty string) takes those paths
although the kernel is built: how they are compared and measured against it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from types import ModuleType
from typing import Optional

__all__ = ["KERNEL_MISSING", "accel", "kernel_available", "notice_missing_kernel"]

#: The line that says the kernel was not built, and how to get it.
KERNEL_MISSING = (
    "rouge155py: note: the C kernel is not built (no C compiler when rouge155py was installed): "
    "the same numbers, several times slower; install a wheel built with it, or a C compiler "
    "(gcc) and reinstall (README: Install)"
)

accel: Optional[ModuleType]
try:
    import rouge155py._accel as accel  # the module itself, not a name of the package
except ImportError:  # no C compiler at install time
    accel = None
_missing = accel is None  # not built; switched off below on purpose is not missing
_noticed = False
if os.environ.get("ROUGE155PY_NO_KERNEL"):
    accel = None


def kernel_available() -> bool:
    """Whether the compiled kernel is in use."""
    return accel is not None


def notice_missing_kernel() -> None:
    """Say :data:`KERNEL_MISSING` on stderr, once per process, where the kernel was not built."""
    global _noticed
    if not _missing or _noticed:
        return
    _noticed = True
    with contextlib.suppress(AttributeError, OSError, ValueError):
        sys.stderr.write(KERNEL_MISSING + "\n")
        sys.stderr.flush()
