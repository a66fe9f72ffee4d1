"""A pool of worker processes, each running one task at a time sent over its own pipe.

The workers are made by ``fork()`` (:mod:`rouge155py.forked`), or by
multiprocessing where the system has none; fewer of them where descriptors or
processes run short (none at all: the caller does the work). They ignore
Ctrl-C and die at once on SIGTERM: the parent alone reports an interruption,
after it has stopped them. A worker that dies (the kernel's out-of-memory
killer) is an error at once, whatever this process is doing (SIGCHLD, on the
main thread), never a wait; a parent that dies leaves no worker behind (each
reads its tasks from a pipe only the parent holds). The pool knows nothing of
ROUGE: :mod:`rouge155py.parallel` schedules the run's steps on it.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections import deque
from types import SimpleNamespace
from typing import Any, Callable, NoReturn, Optional, TypeVar

from .errors import RougeError, WorkerStopped
from .forked import DEFAULT_PIPE_BYTES, Pipe, Process, dumps, get_start_method, keep_only, wait

__all__ = ["WorkerStopped", "Workers", "max_workers"]

T = TypeVar("T")
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
#: Descriptors left free in this process and in each worker (a summary file, a module loaded...).
_SPARE_DESCRIPTORS = 4


def max_workers() -> int:
    """The most processes a run uses (this one included), whatever ``-j`` asks: twice the CPUs,
    at least 8."""
    try:
        # Linux's: on macOS and Windows mypy knows no such function (on Linux the ignore is unused).
        cpus = len(os.sched_getaffinity(0))  # type: ignore[attr-defined, unused-ignore]
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(8, 2 * cpus)


Connection = Any  # forked.Connection, or multiprocessing's where the system has no fork()


def _room(conn: Connection) -> int:
    """The largest task that may wait in a worker's pipe behind another: half of what it holds
    (a default pipe's size where the connection does not tell)."""
    return getattr(conn, "capacity", DEFAULT_PIPE_BYTES) // 2


def _process_kit() -> tuple[Any, Callable[..., list[Any]]]:
    """What makes the workers, and waits on their pipes: :mod:`~rouge155py.forked`, else
    multiprocessing (imported only then)."""
    if hasattr(os, "fork"):
        return SimpleNamespace(Pipe=Pipe, Process=Process, get_start_method=get_start_method), wait
    import multiprocessing
    from multiprocessing import connection

    return multiprocessing.get_context(), connection.wait


def _serve(conn: Connection, fork: bool) -> None:
    """A worker: run the tasks the parent sends, one at a time, until its pipe closes.

    A forked worker starts with all the parent held (a scorer whose data files the parent
    read once: a stopword list from a pipe gives its bytes only once); a spawned one has none.
    """
    if fork:
        keep_only(conn)  # the parent's ends of the pipes: only the parent may hold them
    signal.set_wakeup_fd(-1)  # the parent's (its descriptor is closed here)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        function, argument = task
        try:
            reply: tuple[Any, ...] = (True, function(argument))
        except Exception as error:
            reply = (False, error, _trace())
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception:  # the result or the error does not pickle
            conn.send((False, RuntimeError("a worker's reply could not be sent"), _trace()))


def _trace() -> str:
    """The traceback of the exception being handled (traceback imported only then)."""
    import traceback

    return traceback.format_exc()


class Workers:
    """Worker processes, each given up to two tasks at a time over its own pipe (one it runs, one
    waiting in the pipe, so that it never waits for the parent between two tasks)."""

    def __init__(self, count: int) -> None:
        """``count`` workers at most, forked where the system can (each starts with what this
        process holds), else spawned."""
        context, self._wait = _process_kit()
        self._processes: list[Any] = []
        self._conns: list[Connection] = []
        self._tasks: dict[Connection, deque[Any]] = {}  # the tags of each worker's tasks, oldest first
        self._held: dict[Connection, bytes] = {}  # a task too large to wait in its worker's pipe
        self._watching = False  # whether a worker's end raises WorkerStopped (SIGCHLD)
        self._sigchld: Any = None  # the SIGCHLD handler replaced while the workers live
        fork = context.get_start_method() == "fork"
        blocking = hasattr(signal, "pthread_sigmask")
        # Ctrl-C and SIGTERM wait until each worker has set its own handling of them.
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS) if blocking else None
        try:
            gc.freeze()  # the workers' collector leaves the inherited objects (and their pages) alone
            try:
                for _ in range(min(count, _room_for_workers())):
                    if not self._start(context, fork):
                        break
            finally:
                gc.unfreeze()  # only in the workers: this process may live on (the Python API)
                if previous is not None:  # blocked above
                    signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a pending signal raises here
            self._watch()
        except BaseException:
            self.close()
            raise

    def _start(self, context: Any, fork: bool) -> bool:
        """One more worker; False where the system has no descriptor or process left for it."""
        try:
            mine, theirs = context.Pipe()
        except OSError:
            return False
        process = context.Process(target=_serve, args=(theirs, fork), daemon=True)
        try:
            process.start()
        except OSError:  # fork(): no process or no memory left
            mine.close()
            return False
        finally:
            theirs.close()
        self._processes.append(process)
        self._conns.append(mine)
        self._tasks[mine] = deque()
        return True

    def _watch(self) -> None:
        """Notice a worker's end at once (SIGCHLD), where this thread may handle the signal and
        the caller has no handler of its own; an ignored SIGCHLD (which leaves no exit status) is
        handled too, until the workers are stopped."""
        chld = getattr(signal, "SIGCHLD", None)
        if chld is None or not self._processes:
            return
        if signal.getsignal(chld) not in (signal.SIG_DFL, signal.SIG_IGN):  # asyncio's child watcher...
            return
        try:
            self._sigchld = signal.signal(chld, self._ended)
        except ValueError:  # not the main thread
            return
        self._watching = True
        self._ended(chld, None)  # one that ended before

    def _ended(self, signum: int, frame: object) -> None:
        if not self._watching:
            return
        handling = sys.exc_info()[1]
        if handling is not None and not isinstance(handling, Exception):
            return  # the run is already ending (Ctrl-C, SIGTERM): its own ending stands
        for process in self._processes:
            if not process.is_alive():
                self._watching = False
                raise WorkerStopped(_stopped(process))

    @property
    def count(self) -> int:
        """How many workers there are."""
        return len(self._conns)

    @property
    def busy(self) -> int:
        """How many tasks are given out and not yet collected."""
        return sum(map(len, self._tasks.values()))

    def load(self, conn: Connection) -> int:
        """How many tasks the worker ``conn`` has."""
        return len(self._tasks[conn])

    def tags(self, conn: Connection) -> list[Any]:
        """The tags of the worker's tasks."""
        return list(self._tasks[conn])

    def free(self, depth: int) -> Optional[Connection]:
        """The least busy worker with fewer than ``depth`` tasks, or None."""
        if not self._conns:
            return None
        conn = min(self._conns, key=lambda c: len(self._tasks[c]) + (c in self._held))
        return conn if len(self._tasks[conn]) < depth and conn not in self._held else None

    def submit(self, conn: Connection, function: Callable[[T], Any], argument: T, tag: Any) -> None:
        """Give ``function(argument)`` to the worker ``conn``; :meth:`collect` returns it with ``tag``."""
        data = dumps((function, argument), -1)  # the highest protocol
        if self._tasks[conn] and len(data) > _room(conn):
            self._held[conn] = data  # sent when the task it runs has ended: a full pipe would block
        else:
            self._send(conn, data)
        self._tasks[conn].append(tag)

    def _send(self, conn: Connection, data: bytes) -> None:
        try:
            conn.send_bytes(data)
        except OSError:  # the worker is gone (a broken pipe)
            self._gone(conn)

    def collect(self, timeout: Optional[float]) -> list[tuple[Any, Any]]:
        """(tag, result) of the tasks finished within ``timeout`` seconds (None: at least one)."""
        finished = []
        for conn in self._wait([c for c in self._conns if self._tasks[c]], timeout):
            tag = self._tasks[conn].popleft()
            result = self._reply(conn)
            held = self._held.pop(conn, None)
            if held is not None:
                self._send(conn, held)
            finished.append((tag, result))
        return finished

    def _reply(self, conn: Connection) -> Any:
        try:
            reply = conn.recv()
        except (EOFError, OSError):
            self._gone(conn)
        if reply[0]:
            return reply[1]
        error = reply[1]
        if isinstance(error, (RougeError, MemoryError)):
            raise error
        raise error from RuntimeError(f"in a worker process:\n{reply[2]}")

    def _gone(self, conn: Connection) -> NoReturn:
        process = self._processes[self._conns.index(conn)]
        process.join(1)
        raise RougeError(_stopped(process)) from None

    def close(self) -> None:
        """Stop every worker now (an idle one would stop by itself once its pipe closes).

        Ctrl-C and SIGTERM wait until every worker is stopped (the run then ends as they ask).
        """
        self._watching = False
        blocking = hasattr(signal, "pthread_sigmask")
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS) if blocking else None
        try:
            for conn in self._conns:
                conn.close()
            for process in self._processes:
                if process.is_alive():
                    process.terminate()
            for process in self._processes:
                process.join(2)
                if process.is_alive():
                    process.kill()
                    process.join()
            if self._sigchld is not None:
                signal.signal(signal.SIGCHLD, self._sigchld)
                self._sigchld = None
        finally:
            if previous is not None:  # blocked above
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _room_for_workers() -> int:
    """How many workers the descriptors allow, each process keeping :data:`_SPARE_DESCRIPTORS`
    free: this one holds two per worker, and a worker its own two beside stdin, stdout, stderr
    (any number where the system tells neither its limit nor the descriptors open)."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        open_now = len(os.listdir("/proc/self/fd")) - 1  # the listing's own
    except (ImportError, OSError):
        return max_workers()
    if limit == resource.RLIM_INFINITY:
        return max_workers()
    if limit < 3 + 2 + _SPARE_DESCRIPTORS:
        return 0
    return max(0, (limit - open_now - 2 - _SPARE_DESCRIPTORS) // 2)  # 2: the child's ends, until forked


def _stopped(process: Any) -> str:
    """The run's error where a worker has ended."""
    return f"a worker process stopped ({_how(process)})"


def _how(process: Any) -> str:
    if process.is_alive():
        return "still running"
    exitcode = process.exitcode
    if exitcode is None:
        return "exit status unknown"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"killed by {name}" + (", out of memory?" if name == "SIGKILL" else "")
    return f"exit status {exitcode}"
