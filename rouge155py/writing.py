"""Writing out: bytes to a file descriptor to the last byte, text as valid UTF-8.

``write()`` may take part of what it is given: a file that reaches the size
limit or a full disk takes what fits, a pipe whose reader goes away takes what
it held. Python's unbuffered streams hand that count back and drop the rest,
and a descriptor another process made non-blocking refuses with EAGAIN when
it is full. :func:`write_all` goes on where each write stopped and waits for a
full descriptor to take more, so that a report is either all written or ends
in an ``OSError`` (``BrokenPipeError`` once the reader is gone).

A name that is not UTF-8 (a file name, an argument) reaches Python as lone
surrogates, which strict UTF-8 readers refuse: :func:`escape_surrogates`
shows each such byte as the four characters ``\\xNN``, another lone surrogate
(a JSON ``"\\ud800"``) as ``\\ud800``. :func:`escape_unencodable` escapes only
the latter, for the legacy report, which writes the bytes themselves.
:func:`escape_controls` shows a line break or another control character as
``\\xNN`` (a table row stays one line), and :func:`spreadsheet_safe` keeps a CSV
text cell from being read as a formula.
"""

from __future__ import annotations

import errno
import os
import re
import select
from typing import Any

__all__ = [
    "escape_controls",
    "escape_surrogates",
    "escape_unencodable",
    "escaped_strings",
    "spreadsheet_safe",
    "write_all",
]

_SURROGATE = re.compile("[\ud800-\udfff]")
#: The lone surrogates that ``surrogateescape`` cannot write as a byte.
_UNENCODABLE = re.compile("[\ud800-\udc7f\udd00-\udfff]")
#: C0 controls (tab too), DEL, C1 controls (NEL among them), and the line breaks of Unicode that
#: Python's ``splitlines`` knows.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: What makes a spreadsheet read a cell as a formula (OWASP's CSV injection list).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd``; an ``OSError`` tells why it could not."""
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            _wait_writable(fd)
            continue
        if written == 0:  # no error and no progress: going on would spin
            raise OSError(errno.EIO, "the device takes no more bytes")
        view = view[written:]


def _wait_writable(fd: int) -> None:
    """Block until ``fd`` takes more, or has an error for the next write to raise."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        poller.poll()
    else:
        select.select([], [fd], [fd])


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    if 0xDC80 <= code <= 0xDCFF:  # the byte ``code - 0xDC00`` that was not UTF-8
        return f"\\x{code & 0xFF:02x}"
    return f"\\u{code:04x}"


def escape_surrogates(text: str) -> str:
    """``text`` made valid UTF-8: a byte that was not UTF-8 as ``\\xNN``, another surrogate as ``\\uDXXX``."""
    return _SURROGATE.sub(_escape, text)


def escaped_strings(value: Any) -> Any:
    """``value`` (a JSON-ready document) with :func:`escape_surrogates` applied to every string in it."""
    if isinstance(value, str):
        return escape_surrogates(value)
    if isinstance(value, dict):
        return {escaped_strings(key): escaped_strings(item) for key, item in value.items()}
    if isinstance(value, list):
        return [escaped_strings(item) for item in value]
    return value


def escape_unencodable(text: str) -> str:
    """``text`` with each lone surrogate that is not a byte of a name (U+DC80 to U+DCFF, which
    ``surrogateescape`` writes back as that byte) shown as ``\\uDXXX``: UTF-8 cannot hold it."""
    return _UNENCODABLE.sub(_escape, text)


def _control(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` on one line: each control character or line break as ``\\xNN`` (``\\u2028``)."""
    return _CONTROL.sub(_control, text)


def spreadsheet_safe(text: str) -> str:
    """A CSV text cell (an ID, a name) that no spreadsheet reads as a formula: one starting with
    ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a ``'`` before it (OWASP's rule)."""
    return "'" + text if text.startswith(_FORMULA_START) else text
