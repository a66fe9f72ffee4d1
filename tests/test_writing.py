"""Writing out (``rouge155py/inputs/files.py``, ``rouge155py/report/writing.py``): every byte
or an ``OSError``; names made valid UTF-8.

``write()`` may take part of its bytes (a file at its size limit, a pipe whose
reader goes away) or refuse with EAGAIN (a descriptor another process made
non-blocking): :func:`write_all` goes on where each write stopped.
"""

from __future__ import annotations

import errno
import os
import sys
import threading
import types
from pathlib import Path
from typing import Callable

import pytest

from rouge155py.inputs import files as writing
from rouge155py.inputs.files import write_all
from rouge155py.report.writing import escape_surrogates

PAYLOAD = bytes(range(256)) * 4096  # 1 MiB, every byte value, no period of a pipe's size


def _read_all(fd: int, into: bytearray) -> None:
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return
        into += chunk


def _with_write(monkeypatch: pytest.MonkeyPatch, write: Callable[[int, memoryview], int]) -> list[int]:
    """Let ``writing`` call ``write`` for ``os.write`` (the rest of ``os`` as it is); the sizes asked."""
    asked: list[int] = []

    def recorded(fd: int, data: memoryview) -> int:
        asked.append(len(data))
        return write(fd, data)

    fake = types.SimpleNamespace(**{name: getattr(os, name) for name in dir(os) if not name.startswith("__")})
    fake.write = recorded
    monkeypatch.setattr(writing, "os", fake)
    return asked


def _error_writing(path: Path, mode: int, data: bytes) -> OSError:
    """The error of :func:`write_all` writing ``data`` to the file at ``path`` opened in ``mode``."""
    fd = os.open(path, mode | os.O_CREAT)
    try:
        with pytest.raises(OSError) as raised:
            write_all(fd, data)
    finally:
        os.close(fd)
    return raised.value


def test_short_writes_and_eagain_go_on_where_they_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each write takes at most 1,000 bytes and every third one refuses with EAGAIN."""
    calls = 0

    def stingy(fd: int, data: memoryview) -> int:
        nonlocal calls
        calls += 1
        if calls % 3 == 0:
            raise BlockingIOError(errno.EAGAIN, "full")
        return os.write(fd, data[:1000])

    asked = _with_write(monkeypatch, stingy)
    path = tmp_path / "out"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        write_all(fd, PAYLOAD[:100_000])
    finally:
        os.close(fd)
    assert path.read_bytes() == PAYLOAD[:100_000]
    assert asked[:4] == [100_000, 99_000, 98_000, 98_000]  # the refused write is asked again, whole


def test_a_device_that_takes_nothing_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def nothing(fd: int, data: memoryview) -> int:
        assert len(asked) < 5, "spinning on a write that makes no progress"
        return 0

    asked = _with_write(monkeypatch, nothing)
    assert _error_writing(tmp_path / "out", os.O_WRONLY, b"abc").errno == errno.EIO
    assert asked == [3]


def test_nothing_to_write_writes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _with_write(monkeypatch, lambda fd, data: pytest.fail("written"))
    write_all(-1, b"")
    assert asked == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipe sizes are Linux's")
def test_a_full_non_blocking_pipe_is_waited_for() -> None:
    """A real pipe of one page, non-blocking, read by another thread: 1 MiB arrives whole, in order."""
    import fcntl

    read_fd, write_fd = os.pipe()
    received = bytearray()
    try:
        fcntl.fcntl(write_fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
        os.set_blocking(write_fd, False)
        reader = threading.Thread(target=_read_all, args=(read_fd, received))
        reader.start()
        write_all(write_fd, PAYLOAD)
        os.close(write_fd)
        write_fd = -1
        reader.join()
    finally:
        if write_fd >= 0:
            os.close(write_fd)
        os.close(read_fd)
    assert bytes(received) == PAYLOAD


def test_a_pipe_without_reader_is_a_broken_pipe() -> None:
    read_fd, write_fd = os.pipe()
    os.close(read_fd)
    try:
        with pytest.raises(BrokenPipeError):
            write_all(write_fd, b"report\n")
    finally:
        os.close(write_fd)


def test_other_errors_are_raised(tmp_path: Path) -> None:
    assert _error_writing(tmp_path / "read-only", os.O_RDONLY, b"x").errno == errno.EBADF


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("plain", "plain"),
        ("caf\u00e9 \u03a9 \U0001f600", "caf\u00e9 \u03a9 \U0001f600"),  # characters, not bytes
        (os.fsdecode(b"caf\xe9"), "caf\\xe9"),  # a byte that was not UTF-8
        (os.fsdecode(b"\x80-\xff"), "\\x80-\\xff"),
        ("\ud83d", "\\ud83d"),  # half of a pair, alone
        ("\udc7f", "\\udc7f"),  # a low surrogate that stands for no byte
    ],
)
def test_escape_surrogates(text: str, escaped: str) -> None:
    assert escape_surrogates(text) == escaped
    escape_surrogates(text).encode("utf-8")  # strict: valid UTF-8
