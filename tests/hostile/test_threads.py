"""Threads and signal handlers against the C kernel.

A Python signal handler that sleeps or writes lets other threads run while the
interrupted call is still inside the kernel, and the kernel lets the GIL go
around its long loops: every call must own its buffers. The scoring runs in a
child process, so that a crash fails the test instead of ending pytest.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rouge155py._kernel import kernel_available

from .support import REPO

# The child scores each job once alone, then again from several threads at once (the main
# thread among them, as only it runs signal handlers) for SECONDS while SIGALRM fires every
# millisecond, its handler writing and sleeping; every report must be what it was alone.
CHILD = r"""
import os, random, signal, sys, threading, time

import rouge155py

SECONDS = float(sys.argv[1])
FULL = dict(max_ngram=2, wlcs_weight=1.2, skip_distance=4, skip_unigrams=True)


def summary(rng, *lengths):
    words = [f"w{i}" for i in range(50)]
    return "\n".join(" ".join(rng.choice(words) for _ in range(n)) for n in lengths)


def job(seed, peer, model, **options):
    rng = random.Random(seed)
    return [summary(rng, *peer)], [[summary(rng, *model), summary(rng, *model)]], options


JOBS = [
    job(0, (3000, 7, 1001), (3000, 7, 1001), **FULL),  # tables of 9,000,000 cells: signals inside
    job(1, (12000, 7), (12000, 7)),  # ROUGE-L alone, 144,000,000 cells
    job(2, (500, 7, 167), (500, 7, 167), **FULL),
    job(3, (1500, 500), (60, 60), wlcs_weight=1.5, skip_distance=-1, skip_unigrams=True),
]


def report(k):
    predictions, references, options = JOBS[k]
    return rouge155py.score(predictions, references, resamples=20, multi_ref="average", **options).to_legacy()


alone = [report(k) for k in range(len(JOBS))]
differ = []


def again(k, stop):
    while not stop.is_set() and not differ:
        if report(k) != alone[k]:
            differ.append(k)


NULL = os.open(os.devnull, os.O_WRONLY)
inside = []


def handler(signum, frame):
    if inside:  # the next signal came during the sleep
        return
    inside.append(signum)
    os.write(NULL, b"x")
    time.sleep(0.001)
    inside.pop()


signal.signal(signal.SIGALRM, handler)
stop = threading.Event()
threads = [threading.Thread(target=again, args=(k, stop)) for k in range(1, len(JOBS))]
for t in threads:
    t.start()
signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
end = time.monotonic() + SECONDS
rounds = 0
while time.monotonic() < end and not differ:
    if report(0) != alone[0]:
        differ.append(0)
    rounds += 1
signal.setitimer(signal.ITIMER_REAL, 0, 0)
stop.set()
for t in threads:
    t.join()
print(f"job {differ[0]} differs" if differ else "identical", rounds)
"""


@pytest.mark.slow
@pytest.mark.skipif(
    not kernel_available() and not os.environ.get("ROUGE155PY_REQUIRE_KERNEL"),
    reason="C kernel not built (tables of 144,000,000 cells are out of the Python path's reach)",
)
def test_threads_score_while_signal_handlers_sleep() -> None:
    """ROUGE-N/L/W/S from four threads, SIGALRM every ms: the reports of one thread alone, no crash."""
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "3"], capture_output=True, env=env, cwd=REPO, timeout=120
    )
    err = done.stderr.decode("utf-8", "replace")[-2000:]
    assert done.returncode == 0, f"the child ended with {done.returncode}: {err}"
    assert done.stdout.split()[0] == b"identical", done.stdout
    assert int(done.stdout.split()[-1]) > 0, done.stdout
