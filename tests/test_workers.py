"""The worker processes of -j: a worker's end noticed at once, never in place of a stop signal's ending."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from tier import first_fast

from rouge155py.errors import InputError, WorkerStopped
from rouge155py.run.executors import _Workers as Workers

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGCHLD"), reason="no SIGCHLD")


def _kill_one(pool: Workers) -> None:
    process = pool._processes[0]
    os.kill(process.pid, signal.SIGKILL)
    process.join(5)


def _wait_for_handlers(seconds: float = 5.0) -> None:
    """Let the interpreter run pending signal handlers (they run between bytecodes)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(0.01)


def test_a_worker_killed_while_this_process_runs_raises_worker_stopped() -> None:
    pool = Workers(1)
    try:
        assert pool.count == 1
        with pytest.raises(WorkerStopped, match="killed by SIGKILL"):
            os.kill(pool._processes[0].pid, signal.SIGKILL)  # the pool's thread reaps it
            _wait_for_handlers()
    finally:
        pool.close()


def test_a_worker_killed_off_the_main_thread_fails_its_task_at_once() -> None:
    """Where SIGCHLD cannot be handled (the Python API in a thread), the task of a worker that
    died is the error, at once: never a wait for a reply that cannot come."""
    made: list[Workers] = []
    maker = threading.Thread(target=lambda: made.append(Workers(1)))
    maker.start()
    maker.join(30)
    pool = made[0]
    try:
        task = pool.submit(time.sleep, 60)
        time.sleep(0.3)
        started = time.monotonic()
        _kill_one(pool)
        with pytest.raises(WorkerStopped, match=r"killed by SIGKILL, out of memory\?"):
            pool.result(task)
        assert time.monotonic() - started < 10
    finally:
        pool.close()


def test_a_workers_error_is_raised_by_its_task() -> None:
    pool = Workers(1)
    try:
        with pytest.raises(InputError, match="no such file") as raised:
            pool.result(pool.submit(_fails, "no such file"))
        assert raised.value.__cause__ is None  # one line, as this process would raise it
        assert pool.result(pool.submit(abs, -3)) == 3
    finally:
        pool.close()


def _fails(message: str) -> None:
    raise InputError(message)


@pytest.mark.parametrize("ending", first_fast([KeyboardInterrupt, SystemExit]))
def test_a_worker_ending_while_a_stop_is_handled_leaves_the_stop_as_it_is(ending: type) -> None:
    """SIGTERM sent to a whole process group ends the workers while this process unwinds its
    own stop: the workers' ends must not replace it (the run would end with a traceback)."""
    pool = Workers(1)
    try:
        with pytest.raises(ending):
            try:
                raise ending()
            finally:
                _kill_one(pool)
                _wait_for_handlers(0.5)
                pool.close()
    finally:
        pool.close()
    assert signal.getsignal(signal.SIGCHLD) in (signal.SIG_DFL, signal.SIG_IGN, None)


_RAISES = """
import sys
from rouge155py import cli
from rouge155py.errors import WorkerStopped
context = {"terminated": cli._Terminated(), "interrupted": KeyboardInterrupt(), "none": None}[sys.argv[1]]

def fails(argv, stop=None):
    stopped = WorkerStopped("a worker process stopped (killed by SIGTERM)")
    stopped.__context__ = context
    raise stopped

cli._checked = fails
sys.exit(cli.run(["x.xml"]))
"""


@pytest.mark.parametrize(
    ("context", "code", "line"),
    [
        ("terminated", 143, "rouge155py: terminated"),
        ("interrupted", 130, "rouge155py: interrupted"),
        ("none", 1, "rouge155py: error: a worker process stopped (killed by SIGTERM)"),
    ],
)
def test_a_worker_stopped_that_reaches_the_command_is_one_line(context: str, code: int, line: str) -> None:
    """Wherever a worker's end escapes the run, the command ends with one line: the stop
    signal's where one was being handled, else the error's."""
    done = subprocess.run(
        [sys.executable, "-c", _RAISES, context], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (code, line + "\n")


_ERROR_WHILE_STOPPING = """
import os, signal, sys, time
from rouge155py import cli
from rouge155py.errors import RougeError

def run(argv):
    try:
        os.kill(os.getpid(), getattr(signal, sys.argv[1]))  # its handler raises here
        time.sleep(5)
    finally:  # cleaning up meets the worker that the same signal ended
        raise RougeError("a worker process stopped (killed by SIGTERM)")

cli._run = run
sys.exit(cli.run(["x.xml"]))
"""


@pytest.mark.parametrize(
    ("name", "code", "line"), [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")]
)
def test_an_error_met_while_a_stop_unwinds_is_the_stop(name: str, code: int, line: str) -> None:
    """The first signal decides the line and the exit code, even where an error replaces its
    exception on the way out (a worker's pipe found closed while the run stops)."""
    command = [sys.executable, "-c", _ERROR_WHILE_STOPPING, name]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (code, f"rouge155py: {line}\n")


def test_the_pools_threads_take_the_gil_promptly_while_workers_live() -> None:
    """The threads that hand tasks to the workers wait a short switch interval for the GIL while
    this thread computes; two pools at once, then the interval is set back."""
    before = sys.getswitchinterval()
    first, second = Workers(1), Workers(1)
    try:
        assert sys.getswitchinterval() <= 0.0005
        first.close()
        assert sys.getswitchinterval() <= 0.0005
    finally:
        first.close()
        second.close()
    assert sys.getswitchinterval() == before
    second.close()  # again: nothing changes
    assert sys.getswitchinterval() == before


#: The length a worker's reply says it has, of which it writes only the first bytes.
_REPLY_SAID = 1 << 20
_REPLY_WRITTEN = 16


def _reply_in_part(fd: int) -> None:
    """A worker's task that stops in the middle of its reply: the reply's header and its first
    bytes in the pool's pipe of replies (the descriptor this worker inherited), then a wait."""
    os.write(fd, _REPLY_SAID.to_bytes(4, "big") + b"\0" * _REPLY_WRITTEN)
    time.sleep(60)


def test_a_worker_stopped_in_the_middle_of_its_reply_leaves_nothing_waiting() -> None:
    """Ctrl-C while a worker writes its reply: stopping the workers ends its reply half written,
    and the pool's thread, which has read the part written, reads no more of it for ever
    unless this process, the last that could write the rest, lets it go."""
    made: list[Workers] = []  # made and closed off the main thread: no SIGCHLD handler to set back
    maker = threading.Thread(target=lambda: made.append(Workers(1)))
    maker.start()
    maker.join(30)
    pool = made[0]
    assert pool._pool is not None
    writer = pool._pool._result_queue._writer.fileno()  # type: ignore[attr-defined]
    pool.submit(_reply_in_part, writer)
    time.sleep(0.3)  # the pool's thread reads the header (it would wait as well reading it later)
    closing = threading.Thread(target=pool.close, daemon=True)
    closing.start()
    closing.join(20)
    waiting = closing.is_alive()
    if waiting:  # the rest of the reply, so that this test process can end
        os.write(writer, b"\0" * (_REPLY_SAID - _REPLY_WRITTEN))
        closing.join(20)
    assert not waiting, "the pool's thread waited for the rest of a stopped worker's reply"
    assert pool._pool is None
