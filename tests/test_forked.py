"""Worker processes and pipes made by ``fork()`` (``rouge155py/forked.py``), beyond what ``-j`` shows.

``tests/test_parallel.py`` sends large objects both ways and reports how a
worker ended; here: a message read from pieces or cut short, a closed
connection, the descriptors a worker keeps, a pipe pair that cannot be made
whole, a pipe the system will not enlarge, and a worker still running when
waited for with a time-out.
"""

from __future__ import annotations

import errno
import os
import pickle
import signal
import struct
import sys
import threading
import time
from pathlib import Path

import pytest

from rouge155py import forked

LINUX = sys.platform.startswith("linux")


def _connection() -> tuple[forked.Connection, int]:
    """A connection reading one raw pipe (its own writes go to another), and that pipe's write end."""
    read_fd, write_fd = os.pipe()
    other_read, other_write = os.pipe()
    os.close(other_read)
    return forked.Connection(read_fd, other_write), write_fd


def _framed(obj: object) -> bytes:
    data = pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
    return struct.pack("!Q", len(data)) + data


def test_a_message_is_read_whole_from_pieces() -> None:
    """The length and the object arrive in pieces written at different moments."""
    connection, write_fd = _connection()
    message = _framed({"rows": list(range(1000))})
    cuts = [0, 3, 8, 100, len(message) // 2, len(message)]

    def writer() -> None:
        for start, end in zip(cuts, cuts[1:]):
            os.write(write_fd, message[start:end])
            time.sleep(0.01)  # each piece its own read, where the reader is waiting

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert connection.recv() == {"rows": list(range(1000))}
    finally:
        thread.join()
        os.close(write_fd)
        connection.close()


@pytest.mark.parametrize("kept", [0, 4, 8, 20], ids=["nothing", "half-a-length", "a-length", "part-of-it"])
def test_an_end_inside_a_message_is_eof(kept: int) -> None:
    """A writer gone (a worker killed) before its message is whole: EOFError, never a short object."""
    connection, write_fd = _connection()
    os.write(write_fd, _framed(list(range(100)))[:kept])
    os.close(write_fd)
    try:
        with pytest.raises(EOFError):
            connection.recv()
    finally:
        connection.close()


def test_a_closed_connection_refuses_and_closes_again_quietly() -> None:
    mine, theirs = forked.Pipe()
    theirs.close()
    mine.close()
    assert mine.descriptors == ()
    with pytest.raises(OSError, match="closed"):
        mine.fileno()
    with pytest.raises(OSError, match="closed"):
        mine.send("x")
    mine.close()


def test_a_worker_keeps_only_its_own_pipe(tmp_path: Path) -> None:
    """Descriptors a worker inherits (a file, another worker's pipe) are closed in it; its pipe and
    the three standard streams stay open."""
    mine, theirs = forked.Pipe()
    other_mine, other_theirs = forked.Pipe()
    extra = os.open(tmp_path / "held", os.O_WRONLY | os.O_CREAT)
    inherited = {"file": [extra], "other pipe": [*other_mine.descriptors, *other_theirs.descriptors]}
    own = list(theirs.descriptors)

    def is_open(fd: int) -> bool:
        try:
            os.fstat(fd)
        except OSError as error:
            assert error.errno == errno.EBADF
            return False
        return True

    def worker() -> None:
        forked.keep_only(theirs)
        found = {name: [is_open(fd) for fd in fds] for name, fds in inherited.items()}
        found["standard"] = [is_open(fd) for fd in (0, 1, 2)]
        found["own"] = [is_open(fd) for fd in own]
        theirs.send(found)

    child = forked.Process(target=worker)
    child.start()
    theirs.close()  # the worker's end: here, a worker that died early is the end of the pipe at once
    try:
        assert forked.wait([mine], 30) == [mine]
        assert mine.recv() == {
            "file": [False],
            "other pipe": [False] * 4,
            "standard": [True] * 3,
            "own": [True, True],
        }
    finally:
        child.join(30)
        for connection in (mine, other_mine, other_theirs):
            connection.close()
        os.close(extra)
    assert child.exitcode == 0


@pytest.mark.skipif(not LINUX, reason="lists the open descriptors in /proc")
def test_a_pipe_pair_that_cannot_be_made_closes_its_first_half(monkeypatch: pytest.MonkeyPatch) -> None:
    """No descriptor left for the second pipe: the first one's are closed, not leaked."""
    made = []
    pipe = forked._pipe

    def second_fails() -> tuple[int, int, int]:
        if made:
            raise OSError(errno.EMFILE, "Too many open files")
        made.append(pipe())
        return made[-1]

    monkeypatch.setattr(forked, "_pipe", second_fails)
    before = set(os.listdir("/proc/self/fd"))
    with pytest.raises(OSError, match="Too many open files"):
        forked.Pipe()
    assert made and set(os.listdir("/proc/self/fd")) <= before


@pytest.mark.skipif(not LINUX, reason="pipe sizes are Linux's")
def test_a_pipe_the_system_will_not_enlarge_keeps_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above the user's pipe memory the system refuses (EPERM): the pipe keeps its default size."""
    import fcntl

    def refused(fd: int, command: int, size: int) -> int:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(fcntl, "fcntl", refused)
    mine, theirs = forked.Pipe()
    try:
        assert mine.capacity == theirs.capacity == forked.DEFAULT_PIPE_BYTES
        mine.send("still a pipe")
        assert theirs.recv() == "still a pipe"
    finally:
        mine.close()
        theirs.close()


def test_a_worker_still_running_after_a_time_out_is_killed() -> None:
    child = forked.Process(target=lambda: time.sleep(60))
    child.start()
    child.join(0.01)
    assert child.is_alive() and child.exitcode is None
    child.kill()
    child.join()
    assert not child.is_alive() and child.exitcode == -signal.SIGKILL
    child.kill()  # an ended process: nothing to signal, nothing raised
    child.terminate()
    assert child.exitcode == -signal.SIGKILL
