"""The optional compiled kernel: ``accel`` is the ``_accel`` module, or None where it was not built.

Every caller has a pure-Python or numpy path that gives the same bytes. Setting
``ROUGE155PY_NO_KERNEL`` (to anything but an empty string) takes those paths
although the kernel is built: how they are compared and measured against it.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Optional

__all__ = ["accel", "kernel_available"]

accel: Optional[ModuleType]
try:
    from . import _accel as accel
except ImportError:  # no C compiler at install time
    accel = None
if os.environ.get("ROUGE155PY_NO_KERNEL"):
    accel = None


def kernel_available() -> bool:
    """Whether the compiled kernel is in use."""
    return accel is not None
