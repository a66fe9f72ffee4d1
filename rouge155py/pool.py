"""A fixed set of threads running the calls given to them in turn.

What the runs need of :class:`concurrent.futures.ThreadPoolExecutor` (``submit``, a task's
``result``, ``shutdown``), without its import, which takes logging's and traceback's: a few
milliseconds of the first call that uses threads.
"""

from __future__ import annotations

import threading
from collections import deque
from functools import partial
from typing import Any, Callable, Generic, Optional, TypeVar

__all__ = ["Task", "ThreadPool"]

T = TypeVar("T")


class Task(Generic[T]):
    """A call given to the pool: its value, or the exception it raised, once it has run."""

    __slots__ = ("_call", "_done", "_error", "_value")

    def __init__(self, call: Callable[[], T]) -> None:
        self._call: Optional[Callable[[], T]] = call
        self._done = threading.Event()
        self._value: Optional[T] = None
        self._error: Optional[BaseException] = None

    def run(self) -> None:
        """Make the call (in a thread of the pool)."""
        call, self._call = self._call, None
        try:
            self._value = call()  # type: ignore[misc]
        except BaseException as error:  # raised by result(), as a future raises it
            self._error = error
        finally:
            self._done.set()

    def cancel(self) -> None:
        """Never run the call: ``result`` raises."""
        self._call = None
        self._error = RuntimeError("the task was cancelled: its pool was shut down")
        self._done.set()

    def result(self) -> T:
        """The call's value, once it has run; the exception it raised is raised here."""
        self._done.wait()
        error = self._error
        if error is not None:
            try:
                raise error
            finally:
                del error, self  # no cycle through this frame's traceback
        return self._value  # type: ignore[return-value]


class ThreadPool:
    """``workers`` threads, started by the first task; ``shutdown`` waits for every task given."""

    def __init__(self, workers: int) -> None:
        self._max_workers = workers  # ThreadPoolExecutor's name for it (the bootstrap reads it)
        self._tasks: deque[Optional[Task[Any]]] = deque()
        self._waiting = threading.Condition()
        self._threads: list[threading.Thread] = []

    def submit(self, function: Callable[..., T], *args: Any) -> Task[T]:
        """Run ``function(*args)`` in a thread of the pool."""
        task = Task(partial(function, *args))
        with self._waiting:
            self._tasks.append(task)
            self._waiting.notify()
        if not self._threads:
            for _ in range(self._max_workers):
                thread = threading.Thread(target=self._work, daemon=True)
                thread.start()
                self._threads.append(thread)
        return task

    def _work(self) -> None:
        while True:
            with self._waiting:
                while not self._tasks:
                    self._waiting.wait()
                task = self._tasks.popleft()
            if task is None:  # shut down
                return
            task.run()
            del task

    def shutdown(self, cancel_pending: bool = False) -> None:
        """Stop the threads once every task given has run; with ``cancel_pending``, once the
        tasks already running have (the others never run: their ``result`` raises)."""
        with self._waiting:
            if cancel_pending:
                while self._tasks:
                    task = self._tasks.popleft()
                    if task is not None:
                        task.cancel()
            self._tasks.extend([None] * len(self._threads))
            self._waiting.notify_all()
        for thread in self._threads:
            thread.join()
        self._threads.clear()
