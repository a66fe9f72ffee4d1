"""A progress line on stderr for long runs, drawn only on a terminal.

The orchestrators report each step of a run (``"scoring"``: evals scored,
``"bootstrap"``: instance tables summarized) to a :data:`ProgressFn`.
:class:`TerminalProgress` draws them on one line of a terminal once the run
has lasted ``delay`` seconds, and erases that line when the run ends, so a
pipe, a file or a CI log never receives a byte of it. The line is cut to the
terminal's width less one column (``COLUMNS`` where set, else the size of the
terminal the stream is), read at each drawing: a line that wrapped could not
be drawn over again with a carriage return.
"""

from __future__ import annotations

import os
import time
from typing import Callable, Optional, TextIO

__all__ = ["ProgressFn", "TerminalProgress", "terminal_progress"]

#: ``progress(step, done, total)``: ``done`` of ``total`` units of ``step`` are finished.
ProgressFn = Callable[[str, int, int], None]

_STEPS = {"scoring": "evals scored", "bootstrap": "tables resampled"}


class TerminalProgress:
    """Draws ``rouge155py: 1200/5000 evals scored (24%), 3.1 s`` on ``stream``, at most 10 times a second."""

    def __init__(
        self, stream: TextIO, delay: float = 2.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._stream = stream
        self._delay = delay
        self._clock = clock
        self._started = clock()
        self._drawn_at: Optional[float] = None
        self._width = 0

    def __call__(self, step: str, done: int, total: int) -> None:
        now = self._clock()
        elapsed = now - self._started
        if elapsed < self._delay or (
            self._drawn_at is not None and now - self._drawn_at < 0.1 and done < total
        ):
            return
        percent = 100 * done // total if total else 100
        room = self._room()
        line = f"rouge155py: {done}/{total} {_STEPS.get(step, step)} ({percent}%), {elapsed:.1f} s"[:room]
        self._write("\r" + line.ljust(min(self._width, room)))
        self._width = len(line)
        self._drawn_at = now

    def close(self) -> None:
        """Erase the line, if one was drawn."""
        if self._width:
            self._write("\r" + " " * min(self._width, self._room()) + "\r")
            self._width = 0

    def _room(self) -> int:
        """The columns a line may take without wrapping: the width less one, where the cursor waits."""
        return max(_columns(self._stream) - 1, 1)

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):
            self._width = 0  # the terminal went away: draw nothing more
            self._delay = float("inf")


def _columns(stream: TextIO) -> int:
    """The terminal's width: ``COLUMNS`` if a positive number, else the stream's terminal's, else 80."""
    setting = os.environ.get("COLUMNS", "").strip()
    if setting.isascii() and setting.isdigit() and int(setting) > 0:
        return int(setting)
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 80
    return columns if columns > 0 else 80


def terminal_progress(stream: Optional[TextIO], quiet: bool) -> Optional[TerminalProgress]:
    """A :class:`TerminalProgress` on ``stream`` when it is a terminal and not ``quiet``, else None."""
    if quiet or stream is None:
        return None
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):
        return None
    return TerminalProgress(stream) if interactive else None
