"""The threads of ``jobs`` runs in memory: values, errors and the end of a run as a future's."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from typing import Any

import pytest

import rouge155py
from rouge155py.errors import InputError
from rouge155py.pool import ThreadPool


def test_values_in_order_of_submission() -> None:
    pool = ThreadPool(3)
    tasks = [pool.submit(pow, k, 2) for k in range(50)]
    assert [task.result() for task in tasks] == [k * k for k in range(50)]
    pool.shutdown()


def test_a_task_error_is_raised_by_its_result_only() -> None:
    pool = ThreadPool(2)

    def fail(message: str) -> None:
        raise InputError(message)

    failing, fine = pool.submit(fail, "no such file"), pool.submit(len, "abc")
    with pytest.raises(InputError, match="no such file") as raised:
        failing.result()
    assert raised.traceback[-1].name == "fail"
    assert fine.result() == 3
    with pytest.raises(InputError):  # asked again: the same error
        failing.result()
    pool.shutdown()


def test_shutdown_waits_for_every_task_given() -> None:
    pool = ThreadPool(2)
    done: list[int] = []
    lock = threading.Lock()

    def slow(k: int) -> None:
        time.sleep(0.01)
        with lock:
            done.append(k)

    for k in range(8):
        pool.submit(slow, k)
    pool.shutdown()
    assert sorted(done) == list(range(8))
    assert not any(thread.is_alive() for thread in pool._threads)
    pool.shutdown()  # again: nothing to stop


def test_threads_start_with_the_first_task() -> None:
    pool = ThreadPool(4)
    before = threading.active_count()
    pool.shutdown()
    assert threading.active_count() == before
    assert pool.submit(sum, [1, 2]).result() == 3
    assert len(pool._threads) == 4
    pool.shutdown()
    assert threading.active_count() == before


def test_jobs_runs_take_neither_concurrent_futures_nor_its_imports() -> None:
    code = """\
import sys, rouge155py
texts = ["the cat sat on the mat", "a dog barked at the cat"] * 40
report = rouge155py.score(texts, texts[::-1], jobs=2, resamples=50)
one = rouge155py.score(texts, texts[::-1], jobs=1, resamples=50)
assert report.to_legacy() == one.to_legacy() and report.processes == 1
loaded = sorted({"concurrent.futures", "logging", "traceback"} & set(sys.modules))
assert not loaded, loaded
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def test_an_error_in_a_thread_ends_the_run_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chunk's error is raised by the run, once the threads have stopped."""
    from rouge155py import evaluation

    scored = evaluation.score_texts

    def score_texts(config: Any, start: int, stop: int, options: Any) -> Any:
        if start:
            raise InputError(f"chunk at {start}")
        return scored(config, start, stop, options)

    monkeypatch.setattr(evaluation, "score_texts", score_texts)
    before = threading.active_count()
    texts = ["the cat sat on the mat"] * 30
    with pytest.raises(InputError, match="chunk at 15"):
        rouge155py.score(texts, texts, jobs=2)
    assert threading.active_count() == before


def test_shutdown_can_drop_the_tasks_not_started() -> None:
    """A run that ends early (an error, Ctrl-C) waits only for the tasks already running."""
    pool = ThreadPool(1)
    started, release = threading.Event(), threading.Event()
    ran: list[int] = []

    def first() -> str:
        started.set()
        release.wait(5)
        return "done"

    running = pool.submit(first)
    queued = [pool.submit(ran.append, k) for k in range(5)]
    assert started.wait(5)
    stopper = threading.Thread(target=pool.shutdown, kwargs={"cancel_pending": True})
    stopper.start()
    while any(not task._done.is_set() for task in queued):
        time.sleep(0.001)
    release.set()
    stopper.join(5)
    assert not stopper.is_alive() and running.result() == "done" and ran == []
    for task in queued:
        with pytest.raises(RuntimeError, match="cancelled"):
            task.result()
