"""The accumulator's changes are all or nothing, whatever interrupts them; the API's ``jobs=`` is
capped as ``-j`` is; the HF module's empty input.

An interrupt is raised at every step of ``update()``, ``merge()`` and ``reset()`` in turn (every
bytecode instruction of every frame they run, by a trace function), and the state must be the one
before; the same call then made again must give exactly what one uninterrupted call gives.
"""

from __future__ import annotations

import ctypes
import dis
import functools
import gc
import sys
import threading
from functools import partial
from types import CodeType, FrameType
from typing import Any, Callable, Optional

import pytest

from rouge155py import Rouge, RougeAccumulator, UsageError
from rouge155py.run.executors import max_workers

Step = Callable[[RougeAccumulator], Any]


class _Interrupter:
    """A trace function that interrupts the ``at``-th instruction run under it, as ``how`` says.

    ``"raise"``: KeyboardInterrupt raised by that very instruction (any instruction, even where no
    signal is ever taken); ``"signal"``: raised by the first instruction from there on where Python
    takes a signal's (a function's start, the return of a call, a backward jump); ``"twice"``: two
    Ctrl-C in a row, the second raised where the handlers of the first next make a call.
    """

    def __init__(self, at: int, how: str) -> None:
        self.at, self.how = at, how
        self.steps = 0
        self.fired = False

    def __call__(self, frame: FrameType, event: str, arg: Any) -> Optional[Callable[..., Any]]:
        frame.f_trace_opcodes = True
        return self._step

    def _step(self, frame: FrameType, event: str, arg: Any) -> Optional[Callable[..., Any]]:
        if event == "opcode" and not self.fired:
            self.steps += 1
            takes = self.how != "signal" or frame.f_lasti in _signal_points(frame.f_code)
            if self.steps >= self.at and takes:
                self.fired = True
                if self.how == "twice":
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(
                        ctypes.c_ulong(threading.get_ident()), ctypes.py_object(KeyboardInterrupt)
                    )
                raise KeyboardInterrupt
        return self._step


@functools.cache
def _signal_points(code: CodeType) -> frozenset[int]:
    """The offsets of the instructions before which Python may raise a signal's exception."""
    points = set()
    after_call = False
    for instruction in dis.get_instructions(code):
        if after_call or instruction.opname in ("RESUME", "JUMP_BACKWARD"):
            points.add(instruction.offset)
        after_call = instruction.opname.startswith("CALL")
    return frozenset(points)


def _interrupted(call: Callable[[], Any], at: int, how: str) -> bool:
    """Run ``call`` with an interrupt at its ``at``-th step: False when it ended before."""
    tracer = _Interrupter(at, how)
    try:
        sys.settrace(tracer)
        try:
            call()
        finally:
            sys.settrace(None)
    except KeyboardInterrupt:
        assert tracer.fired
    if how == "twice":
        try:  # an interrupt left pending that nothing ran into yet is raised here
            _pass()
        except KeyboardInterrupt:
            pass
    return tracer.fired


def _pass() -> None:
    pass


def _table(table: Any) -> tuple[Any, ...]:
    return tuple(table.ids), [tuple(row) for row in table.items()]


def _contents(acc: RougeAccumulator) -> tuple[Any, ...]:
    """Everything the state holds, in a form two states can be compared by."""
    state = acc._state
    batch = state.batch
    evals = batch.table
    return (
        state.items,
        state.by_id,
        state.undo,
        sorted(state.ids),
        (list(evals.positions), evals.eval_ids, evals.peer_ids, list(evals.models)),
        sorted(evals.missing.items()),
        sorted(evals.failures.items()),
        {key: _table(table) for key, table in batch.rows.items()},
        {key: _table(table) for key, table in batch.stemmed_rows.items()},
        list(batch.inexact),
    )


def _result(acc: RougeAccumulator) -> tuple[Any, ...]:
    try:
        report = acc.compute().to_legacy()
    except UsageError as error:  # an accumulator holding nothing has nothing to compute
        report = str(error)
    return len(acc), acc.numbering, report


STEM = dict(max_ngram=2, stem=True, multi_ref="average", resamples=30)
# -m -M: rows with the peer stemmed kept apart too; -t 1: rows of counts, not of floats
STEM_MODELS = dict(max_ngram=1, stem=True, stem_models_only=True, counting=1, multi_ref="best", resamples=30)


def _filled(options: dict[str, Any], by_id: bool) -> RougeAccumulator:
    """An accumulator with two systems' items from two updates."""
    acc = Rouge(**options).accumulator()
    acc.update(
        {"A": ["the cat sat", "dogs barked"], "B": ["a cat", "the dog"]},
        [["the cat sat on the mat", "a cat sat"], "dogs barked at night"],
        ids=[4, 0] if by_id else None,
    )
    acc.update({"A": ["cars drove fast"], "B": ["cars"]}, ["the cars drove fast"], ids=[7] if by_id else None)
    return acc


def _update(by_id: bool) -> Step:
    """An update bringing a third system (new rows) besides the two known."""
    return lambda acc: acc.update(
        {"A": ["big red car", "police said"], "B": ["red car", ""], "C": ["a big car", "officials said"]},
        [["a big red car", "the red car"], "police said so"],
        ids=[2, 9] if by_id else None,
    )


def _every_step(make: Callable[[], RougeAccumulator], step: Step, how: str = "raise") -> int:
    """Interrupt ``step`` at each of its steps in turn, on a fresh state: the state is the one before
    (or, past the one instant the change is made, the one after), and the step made again gives
    what it gives uninterrupted. Returns the number of steps."""
    clean = make()
    step(clean)
    after, result = _contents(clean), _result(clean)
    before_result = _result(make())
    made_at = 0
    at = 0
    while True:
        at += 1
        acc = make()
        before = _contents(acc)
        if not _interrupted(partial(step, acc), at, how):
            assert (_contents(acc), _result(acc)) == (after, result), f"step {at} of {at - 1}"
            return at - 1
        if how == "signal":
            assert gc.isenabled(), f"the collector left off by an interrupt at step {at}"
        else:
            gc.enable()  # an interrupt at the first instruction of a finally block skips its gc.enable()
        if how == "twice":
            len(acc)  # what the first interrupt's handler could not undo is undone by the next call
        if _contents(acc) == after:
            made_at = made_at or at  # interrupted once the change was made: all of it
            continue
        where = f"interrupted at step {at}"
        assert not made_at, f"{where}: the change was made at step {made_at}, then unmade"
        assert _contents(acc) == before, where
        assert _result(acc) == before_result, where
        step(acc)
        assert (_contents(acc), _result(acc)) == (after, result), f"made again after {where}"


@pytest.mark.slow
@pytest.mark.parametrize("by_id", [False, True], ids=["order", "ids"])
def test_an_update_interrupted_at_any_step_leaves_the_state_as_it_was(by_id: bool) -> None:
    steps = _every_step(lambda: _filled(STEM, by_id), _update(by_id))
    assert steps > 1000  # every instruction of reading, scoring and keeping the batch


@pytest.mark.slow
@pytest.mark.parametrize(("how", "by_id"), [("signal", True), ("twice", False)])
def test_an_update_interrupted_as_signals_do_leaves_the_state_as_it_was(how: str, by_id: bool) -> None:
    """Where Python takes signals (and the collector is turned back on), and twice in a row: a second
    interrupt stops the first one's undo, which the next call finishes."""
    assert _every_step(lambda: _filled(STEM, by_id), _update(by_id), how) > 1000


@pytest.mark.slow
@pytest.mark.parametrize("by_id", [False, True], ids=["order", "ids"])
def test_a_merge_interrupted_at_any_step_leaves_the_state_as_it_was(by_id: bool) -> None:
    other = Rouge(**STEM_MODELS).accumulator()
    _update(by_id)(other)
    kept = _contents(other)
    _every_step(lambda: _filled(STEM_MODELS, by_id), lambda acc: acc.merge(other))
    assert _contents(other) == kept


def test_a_reset_interrupted_at_any_step_leaves_the_state_as_it_was() -> None:
    _every_step(lambda: _filled(STEM, False), lambda acc: acc.reset())


def _threads_started(monkeypatch: pytest.MonkeyPatch) -> list[threading.Thread]:
    """The threads started from now on (the list grows as they start)."""
    started: list[threading.Thread] = []
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        started.append(thread)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    return started


@pytest.mark.parametrize("jobs", [2000, 10**9])
def test_jobs_starts_no_more_threads_than_chunks_nor_than_j_may(
    monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    """``jobs=`` is lowered as ``-j`` is (twice the CPUs, at least 8), and to the chunks of work;
    the report is the one of ``jobs=1``."""
    predictions, references = (
        ["the cat sat", "a dog barked", "cars"],
        ["the cat sat down", "dogs bark", "a car"],
    )
    runs = [
        (predictions[:1], references[:1]),
        (predictions * 700, references * 700),
        (predictions, references),
    ]
    alone = Rouge(max_ngram=2, resamples=50)
    expected = [alone.score(*run).to_legacy() for run in runs]
    started = _threads_started(monkeypatch)
    rouge = Rouge(max_ngram=2, resamples=50, jobs=jobs)
    assert rouge.score(*runs[0]).to_legacy() == expected[0]
    assert len(started) == 1  # one item: one chunk
    del started[:]
    assert rouge.score(*runs[1]).to_legacy() == expected[1]  # 2,100 items
    assert 0 < len(started) <= max_workers()
    del started[:]
    acc = rouge.accumulator()
    acc.update(*runs[2])
    assert acc.compute().to_legacy() == expected[2]
    assert not started  # the accumulator scores in the caller's thread


@pytest.mark.parametrize("dialect", [None, "rouge-score"])
@pytest.mark.parametrize("aggregate", [True, False])
def test_the_hf_module_refuses_no_items_in_one_clear_error(dialect: Optional[str], aggregate: bool) -> None:
    """HF's ``evaluate`` refuses empty inputs (IndexError, before its rouge module runs): so does the
    module, with its own error instead of a KeyError or empty lists."""
    from rouge155py.hf import compute

    empty = r"^predictions and references are empty: there is no item to score$"
    with pytest.raises(UsageError, match=empty):
        compute(predictions=[], references=[], dialect=dialect, use_aggregator=aggregate)
    assert compute(["a b"], ["a b"], dialect=dialect, use_aggregator=aggregate)["rouge1"] in (1.0, [1.0])
