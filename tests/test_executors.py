"""The executors of a run: threads for evals in memory, each giving one process's report."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import rouge155py
from rouge155py.errors import InputError
from rouge155py.run import executors


def test_threads_give_the_report_of_one_process() -> None:
    texts = ["the cat sat on the mat", "a dog barked at the cat"] * 40
    two = rouge155py.score(texts, texts[::-1], jobs=2, resamples=50)
    one = rouge155py.score(texts, texts[::-1], jobs=1, resamples=50)
    assert two.to_legacy() == one.to_legacy() and two.processes == 1


def test_an_error_in_a_thread_ends_the_run_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chunk's error is raised by the run, once the threads have stopped."""
    scored = executors.score_texts

    def score_texts(config: Any, start: int, stop: int, options: Any) -> Any:
        if start:
            raise InputError(f"chunk at {start}")
        return scored(config, start, stop, options)

    monkeypatch.setattr(executors, "score_texts", score_texts)
    before = threading.active_count()
    texts = ["the cat sat on the mat"] * 30
    with pytest.raises(InputError, match="chunk at 15"):
        rouge155py.score(texts, texts, jobs=2)
    assert threading.active_count() == before
