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
shows each such byte as the four characters ``\\xNN``.
"""

from __future__ import annotations

import errno
import os
import re
import select

__all__ = ["escape_surrogates", "write_all"]

_SURROGATE = re.compile("[\ud800-\udfff]")


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
