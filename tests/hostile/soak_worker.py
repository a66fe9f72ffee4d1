"""The API side of the soak test, run as its own process: threads x signals x ``jobs``.

Several threads (the main one among them) score texts of growing lengths again
and again, some with ``jobs=2``, while SIGALRM fires every millisecond into a
handler that gives the GIL away (``os.write`` and ``time.sleep``). Every report
must equal the one computed before the storm began. Prints ``runs=N mismatches=M errors=E`` and exits 0
when all runs agreed; a crash of the kernel ends the process by a signal.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import threading
import time

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


if __name__ == "__main__":
    sys.exit(main(float(sys.argv[1]), int(sys.argv[2])))
