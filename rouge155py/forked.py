"""Worker processes made by ``fork()``, for ``-j``, without the multiprocessing package.

multiprocessing's import alone is about a tenth of the time of a small run,
and ``-j`` needs little of it: a process that runs one function, and a duplex
pipe that carries pickled objects. This module gives those where the system
has ``fork()``, with the names :mod:`multiprocessing` uses (``Pipe``,
``Process``, ``wait``), so that :mod:`rouge155py.parallel` drives either.

A child runs its target and leaves with ``os._exit``: it never returns into
the caller's code, runs no exit handler and flushes no buffer it inherited.
A worker keeps no descriptor but its own pipe's (:func:`keep_only`): one
forked while another thread made a pipe for its own worker would otherwise
hold that pipe open, and neither worker would see its end.

On Linux each pipe is made 1 MiB large where the system allows it (64 KiB
otherwise): a task or a reply of a few hundred evals then fits whole, and
its writer goes on with its work instead of waiting for the reader.
"""

from __future__ import annotations

import os
import select
import signal
import struct
import sys
import time
from typing import Any, Callable, Iterable, Optional

from .writing import write_all

try:  # pickle's C half alone: its Python half takes 2 ms to import, and is not needed here
    from _pickle import dumps, loads
except ImportError:  # an interpreter without it
    from pickle import dumps, loads

__all__ = [
    "DEFAULT_PIPE_BYTES",
    "Connection",
    "Pipe",
    "Process",
    "dumps",
    "get_start_method",
    "keep_only",
    "loads",
    "wait",
]

_HEADER = struct.Struct("!Q")  # the length of each pickled message
_PIPE_BYTES = 1 << 20  # the size asked for each pipe (Linux's default limit for a user)
DEFAULT_PIPE_BYTES = 65536  # the size of a pipe that keeps its default
_LINUX = sys.platform.startswith("linux")


class Connection:
    """One end of a duplex pipe: pickled objects, each sent whole."""

    def __init__(self, read_fd: int, write_fd: int, capacity: int = DEFAULT_PIPE_BYTES) -> None:
        self._read: Optional[int] = read_fd
        self._write: Optional[int] = write_fd
        self.capacity = capacity  # the bytes sent that the pipe holds until the other end reads them

    def fileno(self) -> int:
        """The descriptor to wait on for a message."""
        if self._read is None:
            raise OSError("the connection is closed")
        return self._read

    def send(self, obj: Any) -> None:
        """Send one object (it must pickle)."""
        self.send_bytes(dumps(obj, -1))  # the highest protocol

    def send_bytes(self, data: bytes) -> None:
        """Send an object pickled already (:meth:`recv` loads it)."""
        if self._write is None:
            raise OSError("the connection is closed")
        write_all(self._write, _HEADER.pack(len(data)))
        write_all(self._write, data)

    def recv(self) -> Any:
        """The next object; EOFError once the other end is closed."""
        (size,) = _HEADER.unpack(_read_exactly(self.fileno(), _HEADER.size))
        return loads(_read_exactly(self.fileno(), size))

    @property
    def descriptors(self) -> tuple[int, ...]:
        """The descriptors the connection holds (none once closed)."""
        return tuple(fd for fd in (self._read, self._write) if fd is not None)

    def close(self) -> None:
        """Close both descriptors (again: nothing)."""
        for fd in self.descriptors:
            os.close(fd)
        self._read = self._write = None


def _read_exactly(fd: int, size: int) -> bytes:
    if size == 0:
        return b""
    first = os.read(fd, size)
    if len(first) == size:
        return first
    if not first:
        raise EOFError
    data = bytearray(first)
    while len(data) < size:
        more = os.read(fd, size - len(data))
        if not more:
            raise EOFError
        data += more
    return bytes(data)


def _pipe() -> tuple[int, int, int]:
    """A pipe's two descriptors (close-on-exec) and its size, made large where the system allows it."""
    read_fd, write_fd = os.pipe()
    size = DEFAULT_PIPE_BYTES
    if _LINUX:
        try:
            import fcntl

            size = fcntl.fcntl(write_fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), _PIPE_BYTES)
        except (OSError, ImportError):  # above the user's pipe memory, or no descriptor to load fcntl
            pass
    return read_fd, write_fd, size


def Pipe() -> tuple[Connection, Connection]:  # multiprocessing's name
    """Two connected ends: what one sends, the other receives (OSError: no descriptor left)."""
    a_read, b_write, b_size = _pipe()
    try:
        b_read, a_write, a_size = _pipe()
    except OSError:
        os.close(a_read)
        os.close(b_write)
        raise
    return Connection(a_read, a_write, a_size), Connection(b_read, b_write, b_size)


def keep_only(connection: Connection) -> None:
    """Close every descriptor of this (forked) process but stdin, stdout, stderr and the
    connection's: what it inherited belongs to its parent, and to the parent's other children."""
    kept = {0, 1, 2, *connection.descriptors}
    found: Iterable[int] = range(os.sysconf("SC_OPEN_MAX"))  # where no directory lists them
    for listing in ("/proc/self/fd", "/dev/fd"):
        try:
            found = [int(name) for name in os.listdir(listing)]  # the listing's own is closed by now
            break
        except OSError:
            continue
    for fd in found:
        if fd not in kept:
            try:
                os.close(fd)
            except OSError:
                pass


class Process:
    """A child process running ``target(*args)``; its exit code is that of multiprocessing."""

    def __init__(self, target: Callable[..., Any], args: tuple[Any, ...] = (), daemon: bool = True) -> None:
        """``daemon`` is multiprocessing's argument, taken as it is: a child here never outlives the
        pipe it reads its tasks from."""
        self._target = target
        self._args = args
        self.pid: Optional[int] = None
        self.exitcode: Optional[int] = None  # None once ended too where SIGCHLD is ignored (no status kept)
        self._ended = False

    def start(self) -> None:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                self._target(*self._args)
                code = 0
            finally:
                os._exit(code)
        self.pid = pid

    def _reap(self, block: bool) -> None:
        if not self._ended and self.pid is not None:
            try:
                pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
            except ChildProcessError:  # reaped by the system already: SIGCHLD is ignored
                self._ended = True
                return
            if pid:
                self.exitcode = os.waitstatus_to_exitcode(status)
                self._ended = True

    def is_alive(self) -> bool:
        self._reap(False)
        return self.pid is not None and not self._ended

    def _signal(self, number: int) -> None:
        if self.is_alive():
            assert self.pid is not None
            os.kill(self.pid, number)

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def join(self, timeout: Optional[float] = None) -> None:
        """Wait for the child to end, at most ``timeout`` seconds."""
        if timeout is None:
            self._reap(True)
            return
        deadline = time.monotonic() + timeout
        pause = 0.0005
        while self.is_alive() and time.monotonic() < deadline:
            time.sleep(pause)
            pause = min(2 * pause, 0.05)


def get_start_method() -> str:
    return "fork"


def wait(connections: list[Connection], timeout: Optional[float] = None) -> list[Connection]:
    """The connections with a message (or an end) to read, waiting at most ``timeout`` seconds."""
    poller = select.poll()
    for connection in connections:
        poller.register(connection.fileno(), select.POLLIN | select.POLLHUP | select.POLLERR)
    ready = {fd for fd, _ in poller.poll(None if timeout is None else max(0, round(1000 * timeout)))}
    return [connection for connection in connections if connection.fileno() in ready]
