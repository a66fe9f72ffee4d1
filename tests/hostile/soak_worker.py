"""The API side of the soak test, run as its own process: threads x signals x ``jobs``.

Several threads (the main one among them) score texts of growing lengths again
and again, some with ``jobs=2``, while SIGALRM fires every millisecond into a
handler that gives the GIL away (``os.write`` and ``time.sleep``). Every report
must equal the one computed before the storm began. Prints ``runs=N mismatches=M errors=E`` and exits 0
when all runs agreed; a crash of the kernel ends the process by a signal.

With ``interrupts`` for the number of threads: accumulators fed batch by batch, each
``update()`` and ``merge()`` interrupted by a KeyboardInterrupt at a random moment (a
one-shot timer) and made again, as a training loop would, until it is in; every report
must equal the one of the same batches accumulated without interrupts. Prints
``runs=N mismatches=M errors=E interrupts=I``.
"""

from __future__ import annotations

import gc
import os
import random
import signal
import sys
import threading
import time
from functools import partial
from typing import Callable, Optional

import rouge155py

OPTIONS = dict(
    max_ngram=2,
    wlcs_weight=1.2,
    skip_distance=4,
    skip_both=True,
    resamples=50,
    stem=True,
    multi_ref="average",
)
SIZES = (20, 150, 400, 900, 1500)  # words per sentence: tables that keep outgrowing the last one


def texts(seed: int, words_per_sentence: int) -> tuple[list[rouge155py.Sentences], list[list[str]]]:
    """Four predictions (sentence lists) with two references each, from a small vocabulary."""
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(30)] + ["running", "cats", "the", "of", "happily"]

    def summary() -> list[str]:
        lengths = [rng.randint(words_per_sentence // 2, words_per_sentence) for _ in range(rng.randint(1, 3))]
        return [" ".join(rng.choice(vocabulary) for _ in range(length)) for length in lengths]

    predictions = [rouge155py.Sentences(summary()) for _ in range(4)]
    return predictions, [[" ".join(summary()), " ".join(summary())] for _ in range(4)]


def main(seconds: float, threads: int) -> int:
    workloads = [texts(seed, size) for seed, size in enumerate(SIZES)]
    expected = [rouge155py.score(*workload, **OPTIONS).to_legacy() for workload in workloads]
    null = os.open(os.devnull, os.O_WRONLY)

    inside = []

    def storm(signum: int, frame: object) -> None:
        if inside:  # a storm that arrives during its own handler is let go, not nested
            return
        inside.append(signum)
        try:
            os.write(null, b".")
            time.sleep(0.0002)
        finally:
            inside.clear()

    signal.signal(signal.SIGALRM, storm)
    signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
    deadline = time.monotonic() + seconds
    tally = {"runs": 0, "mismatches": 0, "errors": 0}
    lock = threading.Lock()

    def work(index: int) -> None:
        jobs = 2 if index % 2 else 1
        turn = index
        while time.monotonic() < deadline:
            turn += 1
            which = turn % len(workloads)
            try:
                got = rouge155py.score(*workloads[which], jobs=jobs, **OPTIONS).to_legacy()
                outcome = "runs" if got == expected[which] else "mismatches"
            except Exception as error:  # any failure is counted and shown
                print(f"thread {index}: {type(error).__name__}: {error}", file=sys.stderr)
                outcome = "errors"
            with lock:
                tally[outcome] += 1

    # The main thread scores too: only there do signal handlers run, inside the kernel's loops.
    pool = [threading.Thread(target=work, args=(i,)) for i in range(1, threads)]
    for thread in pool:
        thread.start()
    work(0)
    for thread in pool:
        thread.join()
    signal.setitimer(signal.ITIMER_REAL, 0, 0)
    print(" ".join(f"{k}={v}" for k, v in tally.items()))
    return 0 if tally["mismatches"] == tally["errors"] == 0 and tally["runs"] > 0 else 1


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def until_in(change: Callable[[], object], size: Callable[[], int], grows: int, span: float) -> int:
    """Make ``change`` (which adds ``grows`` items) under a KeyboardInterrupt due within ``span``
    seconds (twice as long at each attempt), again until it is in; the number of interrupts it
    took. An interrupt that comes once the change is made (as the call returns) leaves it in:
    ``len`` tells which."""
    rng, interrupts = random.Random(), 0
    while True:
        before = size()
        try:
            try:
                signal.setitimer(signal.ITIMER_REAL, rng.uniform(1e-6, span))
                change()
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except KeyboardInterrupt:
            interrupts += 1
            span *= 2
        if size() == before + grows:
            return interrupts
        if size() != before:
            raise AssertionError(f"{size() - before} of {grows} items taken: neither all nor none")


def accumulate(seconds: float) -> int:
    """Accumulators whose every change is interrupted at a random moment, then made again."""
    rouge = rouge155py.Rouge(**OPTIONS)
    batches = [texts(seed, size) for seed, size in enumerate(SIZES * 2)]
    half = len(batches) // 2
    starts = [0]
    for predictions, _ in batches:
        starts.append(starts[-1] + len(predictions))

    def fill(acc: rouge155py.RougeAccumulator, by_id: bool, part: range, span: Optional[float]) -> int:
        """Batches ``part`` into ``acc``, interrupted within ``span`` times what each took (None: not)."""
        interrupts = 0
        for k in part:
            predictions, references = batches[k]
            ids = list(range(starts[k], starts[k + 1])) if by_id else None
            update = partial(acc.update, predictions, references, ids=ids)
            if span is None:
                began = time.perf_counter()
                update()
                takes[k] = time.perf_counter() - began
            else:
                interrupts += until_in(update, acc.__len__, len(predictions), takes[k] * span)
        return interrupts

    takes = [0.0] * len(batches)  # what each batch's update took without interrupts
    expected = {}
    for by_id in (False, True):
        clean = rouge.accumulator()
        fill(clean, by_id, range(len(batches)), None)
        expected[by_id] = clean.compute().to_legacy()
    signal.signal(signal.SIGALRM, _interrupt)
    deadline = time.monotonic() + seconds
    tally = {"runs": 0, "mismatches": 0, "errors": 0, "interrupts": 0}
    rng = random.Random(33)
    while time.monotonic() < deadline:
        by_id, span = rng.random() < 0.5, rng.uniform(0.2, 1.5)
        try:
            first, second = rouge.accumulator(), rouge.accumulator()
            tally["interrupts"] += fill(first, by_id, range(half), span)
            tally["interrupts"] += fill(second, by_id, range(half, len(batches)), span)
            merge = partial(first.merge, second)
            tally["interrupts"] += until_in(merge, first.__len__, len(second), min(takes) * span)
            got = first.compute().to_legacy()
            outcome = "runs" if got == expected[by_id] and gc.isenabled() else "mismatches"
        except Exception as error:  # any failure is counted and shown
            print(f"{type(error).__name__}: {error}", file=sys.stderr)
            outcome = "errors"
        tally[outcome] += 1
    print(" ".join(f"{k}={v}" for k, v in tally.items()))
    return 0 if tally["mismatches"] == tally["errors"] == 0 and tally["runs"] > 0 else 1


if __name__ == "__main__":
    if sys.argv[2] == "interrupts":
        sys.exit(accumulate(float(sys.argv[1])))
    sys.exit(main(float(sys.argv[1]), int(sys.argv[2])))
