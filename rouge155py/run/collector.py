"""The cyclic garbage collector paused while a run makes objects by the hundred thousand."""

from __future__ import annotations

import contextlib
import gc
from typing import Iterator

__all__ = ["paused_gc"]


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector off for the duration (and back on after, where it was on).

    A run makes objects by the hundred thousand (evals, documents, rows, scores) and keeps most
    of them to its end: each collection would walk them all again, a cost per pair that grows
    with the number of pairs. Reference counting frees what the run drops, as it does without it.
    """
    was_on = gc.isenabled()
    try:  # disabled inside: an interrupt right after it still turns the collector back on
        gc.disable()
        yield
    finally:
        if was_on:
            gc.enable()
