"""Faults around a run: a full disk, closed pipes, Ctrl-C and SIGTERM, a worker that dies.

Each run is a real ``python -m rouge155py`` process in a session of its own, so
that a signal can go to it alone or to its whole process group (what Ctrl-C
and many schedulers do), and so that no process of the run may outlive it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import pytest
from tier import first_fast

from .support import DATA, REPO, write_workload

CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")
HEAVY = ["-a", "-n", "4", "-w", "1.2", "-2", "-1", "-U", "-r", "1000"]
TIMEOUT = 60.0
GONE_WITHIN = 2.0

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and signals")


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "rouge155py", "-e", DATA, *args]


def start(
    args: list[str],
    cwd: Path,
    stdout: Optional[int] = subprocess.PIPE,
    preexec: Optional[Callable[[], None]] = None,
) -> subprocess.Popen:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.Popen(
        command(*args),
        cwd=cwd,
        stdout=stdout,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env=env,
        preexec_fn=preexec,
    )


def ignore_sigchld() -> None:
    """A parent shell's ``trap '' CHLD``: the system reaps the children, and keeps no exit status."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)


def lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "backslashreplace").splitlines()


def until(condition: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        time.sleep(0.005)


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def catches(pid: int, sig: signal.Signals) -> bool:
    """The process has a handler of its own for ``sig`` in place (/proc's SigCgt mask)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = int(next(line for line in status.splitlines() if line.startswith("SigCgt:")).split()[1], 16)
    return bool(caught & (1 << (sig - 1)))


def group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def assert_group_gone(pgid: int) -> None:
    deadline = time.monotonic() + GONE_WITHIN
    while not group_gone(pgid):
        if time.monotonic() > deadline:
            os.killpg(pgid, signal.SIGKILL)
            raise AssertionError(f"processes of the run left {GONE_WITHIN} s after it ended")
        time.sleep(0.02)


@pytest.fixture(scope="module")
def workloads(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("workloads")
    return {
        "long": write_workload(root / "long", evals=600, systems=6, models=4, words=100),
        "wide": write_workload(root / "wide", evals=600, systems=2, models=1, words=15, seed=2),
    }


# --------------------------------------------------------------------------
# Output devices
# --------------------------------------------------------------------------


def test_full_disk_is_one_error_line() -> None:
    with open("/dev/full", "wb") as full:
        run = start(["-a", CONFIG], REPO, stdout=full.fileno())
        _, err = run.communicate(timeout=TIMEOUT)
    assert run.returncode == 1
    assert lines(err) == [
        "rouge155py: error: cannot write the report to standard output: No space left on device"
    ]


def test_closed_stdout_is_one_error_line() -> None:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run(
        [*command("-a", CONFIG)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        timeout=TIMEOUT,
        pass_fds=(),
        preexec_fn=lambda: os.close(1),
    )
    assert run.returncode == 1
    assert lines(run.stderr) == ["rouge155py: error: cannot write the report: standard output is closed"]


def test_closed_pipe_ends_quietly() -> None:
    run = start(["-a", "-d", CONFIG], REPO)
    assert run.stdout is not None
    run.stdout.close()  # the reader is gone before the first byte
    _, err = run.communicate(timeout=TIMEOUT)
    assert run.returncode == 141
    assert err == b""


def test_full_stderr_keeps_the_exit_code(tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        run = subprocess.run(
            command("-a", "missing.xml"), cwd=tmp_path, stdout=subprocess.PIPE, stderr=full, timeout=TIMEOUT
        )
    assert run.returncode == 3


# --------------------------------------------------------------------------
# Ctrl-C and SIGTERM at several moments of a run
# --------------------------------------------------------------------------

MOMENTS = ["start", "forked", "scoring", "bootstrap", "writing"]  # "forked": as the workers start


def _moment_args(moment: str, workloads: dict[str, Path]) -> list[str]:
    if moment == "bootstrap":
        return ["-a", "-n", "2", "-r", "2000000", CONFIG]  # little to score, long to resample
    if moment == "writing":
        return ["-a", "-d", "-n", "1", "-r", "10", str(workloads["wide"])]  # over a pipe's 64 KiB
    return [*HEAVY, str(workloads["long"])]


def _reach(moment: str, run: subprocess.Popen, jobs: int) -> None:
    """Wait for the moment: only what any version of the program shows (its interpreter up,
    its workers started, its first bytes), so that the test also fails where no handler is set."""
    pid = run.pid
    if moment == "start":
        until(lambda: catches(pid, signal.SIGTERM) or run.poll() is not None, "the SIGTERM handler")
        return
    until(lambda: catches(pid, signal.SIGINT) or run.poll() is not None, "the interpreter")
    if moment == "writing":
        assert run.stdout is not None
        os.set_blocking(run.stdout.fileno(), False)
        until(lambda: _peek(run), "the first bytes of the report")
        time.sleep(0.1)  # the rest of it waits for the pipe
        return
    if jobs > 1:
        until(lambda: len(children(pid)) >= jobs - 1 or run.poll() is not None, "the worker processes")
    time.sleep(0.0 if moment == "forked" and jobs > 1 else 0.5)


def _peek(run: subprocess.Popen) -> bool:
    assert run.stdout is not None
    try:
        return bool(os.read(run.stdout.fileno(), 1))
    except BlockingIOError:
        return False


# One case in the fast tier: the one that needs no workload written.
_INTERRUPTS = [
    pytest.param(
        moment,
        sig,
        jobs,
        id=f"{moment}-{sig.name}-j{jobs}",
        marks=() if (moment, sig, jobs) == ("bootstrap", signal.SIGINT, 2) else pytest.mark.slow,
    )
    for moment in MOMENTS
    for sig in (signal.SIGINT, signal.SIGTERM)
    for jobs in (1, 2)
]


@pytest.mark.parametrize(("moment", "sig", "jobs"), _INTERRUPTS)
def test_interrupt(moment: str, sig: signal.Signals, jobs: int, request: pytest.FixtureRequest) -> None:
    """One line, exit 130 (SIGINT) or 143 (SIGTERM), and no process of the run left behind."""
    # Ctrl-C signals the whole process group; a scheduler signals the process or its group.
    whole_group = sig == signal.SIGINT or MOMENTS.index(moment) % 2 == 0
    workloads = {} if moment == "bootstrap" else request.getfixturevalue("workloads")
    args = _moment_args(moment, workloads)
    run = start([*args[:-1], "-j", str(jobs), args[-1]], REPO)
    send = (lambda: os.killpg(run.pid, sig)) if whole_group else (lambda: run.send_signal(sig))
    assert_stopped_by(sig, run, _signalled(run, moment, jobs, send))


def _signalled(run: subprocess.Popen, moment: str, jobs: int, send: Callable[[], None]) -> bytes:
    """The run's stderr, ``send`` called at the moment (the run killed if it does not end)."""
    try:
        _reach(moment, run, jobs)
        assert run.poll() is None, "the run ended before the signal"
        send()
        if run.stdout is not None:
            os.set_blocking(run.stdout.fileno(), True)
        _, err = run.communicate(timeout=TIMEOUT)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    return err


def assert_stopped_by(sig: signal.Signals, run: subprocess.Popen, err: bytes) -> None:
    """The one line and exit code of the signal, and no process of the run left."""
    word, code = ("interrupted", 130) if sig == signal.SIGINT else ("terminated", 143)
    assert lines(err) == [f"rouge155py: {word}"]
    assert run.returncode == code
    assert_group_gone(run.pid)


# --------------------------------------------------------------------------
# Worker processes that die, a parent that dies
# --------------------------------------------------------------------------

_SIGCHLD = {"default": None, "ignored": ignore_sigchld}


@pytest.mark.slow
@pytest.mark.parametrize("sigchld", ["default", "ignored"])
def test_killed_worker_is_one_error_line(workloads: dict[str, Path], tmp_path: Path, sigchld: str) -> None:
    run = start([*HEAVY, "-j", "2", str(workloads["long"])], tmp_path, preexec=_SIGCHLD[sigchld])
    until(lambda: len(children(run.pid)) >= 1, "the worker process")
    time.sleep(0.3)
    os.kill(children(run.pid)[0], signal.SIGKILL)
    _, err = run.communicate(timeout=TIMEOUT)
    assert run.returncode == 1
    assert lines(err) == ["rouge155py: error: a worker process stopped (killed by SIGKILL, out of memory?)"]
    assert_group_gone(run.pid)


@pytest.mark.slow
def test_workers_end_when_the_parent_is_killed(workloads: dict[str, Path], tmp_path: Path) -> None:
    run = start([*HEAVY, "-j", "2", str(workloads["long"])], tmp_path)
    until(lambda: len(children(run.pid)) >= 1, "the worker process")
    time.sleep(0.3)
    run.kill()
    run.communicate(timeout=TIMEOUT)
    assert_group_gone(run.pid)  # each worker finds its task pipe closed and ends


# --------------------------------------------------------------------------
# A second signal while the run stops
# --------------------------------------------------------------------------

PAIRS = [
    (signal.SIGINT, signal.SIGINT),
    (signal.SIGINT, signal.SIGTERM),
    (signal.SIGTERM, signal.SIGINT),
    (signal.SIGTERM, signal.SIGTERM),
]


def pending(pid: int, sig: signal.Signals) -> bool:
    """The signal is sent and not yet delivered: /proc's masks of pending signals (the
    process's, its threads')."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    masks = [int(line.split()[1], 16) for line in status.splitlines() if line[:7] in ("SigPnd:", "ShdPnd:")]
    return any(mask & (1 << (sig - 1)) for mask in masks)


def exited(pid: int) -> bool:
    """The process has ended (it is left a zombie, so its ID is not reused meanwhile)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


@pytest.mark.slow
@pytest.mark.parametrize("whole_group", [True, False], ids=["group", "process"])
@pytest.mark.parametrize("jobs", [1, 2], ids=["j1", "j2"])
@pytest.mark.parametrize("first, second", PAIRS, ids=[f"{a.name}-{b.name}" for a, b in PAIRS])
def test_a_second_signal_while_stopping_is_ignored(
    first: signal.Signals, second: signal.Signals, jobs: int, whole_group: bool, workloads: dict[str, Path]
) -> None:
    """The first signal decides the line and the exit code; more of them, sent one after
    the other until the run has ended, change nothing (Ctrl-C pressed twice, a scheduler's SIGTERM after it).

    The second signal follows once the first is delivered: two that are pending together have
    no order of arrival (the system delivers them by their numbers)."""
    run = start([*HEAVY, "-j", str(jobs), str(workloads["long"])], REPO)
    kill = os.killpg if whole_group else os.kill

    def send() -> None:
        kill(run.pid, first)
        until(lambda: not pending(run.pid, first), "the first signal delivered")
        deadline = time.monotonic() + TIMEOUT
        while not exited(run.pid) and time.monotonic() < deadline:
            kill(run.pid, second)

    assert_stopped_by(first, run, _signalled(run, "scoring", jobs, send))


# --------------------------------------------------------------------------
# Workers in a hostile environment
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_an_ignored_sigchld_changes_nothing(workloads: dict[str, Path]) -> None:
    """With SIGCHLD ignored (children reaped by the system), -j 2 prints -j 1's report."""
    args = ["-a", "-n", "2", "-2", "4", "-u", "-r", "100", str(workloads["long"])]
    one = subprocess.run(command(*args), cwd=REPO, capture_output=True, timeout=TIMEOUT)
    two = subprocess.run(
        command("-j", "2", *args), cwd=REPO, capture_output=True, timeout=TIMEOUT, preexec_fn=ignore_sigchld
    )
    assert (two.returncode, lines(two.stderr)) == (0, [])
    assert two.stdout == one.stdout and one.returncode == 0


def test_a_worker_killed_while_this_process_resamples() -> None:
    """This process's own share of the resampling takes minutes here: a worker killed meanwhile
    is one error line at once, not once that share is done."""
    run = start(["-a", "-n", "4", "-w", "1.2", "-2", "4", "-U", "-r", "10000000", "-j", "2", CONFIG], REPO)
    _, err = kill_a_worker_while_resampling(run)
    assert run.returncode == 1
    assert lines(err) == ["rouge155py: error: a worker process stopped (killed by SIGKILL, out of memory?)"]
    assert_group_gone(run.pid)


def kill_a_worker_while_resampling(run: subprocess.Popen) -> tuple[bytes, bytes]:
    """Kill a worker once the run resamples (there is little to score); the run's output, which
    must come long before this process's share of the resampling is done."""
    try:
        until(lambda: len(all_children(run.pid)) >= 1 or run.poll() is not None, "the worker process")
        time.sleep(0.5)
        assert run.poll() is None, "the run ended before the worker was killed"
        os.kill(all_children(run.pid)[0], signal.SIGKILL)
        try:
            return run.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            raise AssertionError("the worker's end was not noticed while this process resampled") from None
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()


@pytest.mark.parametrize("limit", first_fast(range(5, 12)))
def test_few_descriptors_mean_fewer_workers(limit: int) -> None:
    """``ulimit -n`` of 5 to 11 with -j 4: the workers the descriptors allow (maybe none), and
    -j 1's report, never a traceback."""
    import resource

    def few() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    args = ["-a", "-n", "2", "-r", "100", CONFIG]
    one = subprocess.run(command(*args), cwd=REPO, capture_output=True, timeout=TIMEOUT)
    four = subprocess.run(
        command("-j", "4", *args), cwd=REPO, capture_output=True, timeout=TIMEOUT, preexec_fn=few
    )
    assert (four.returncode, lines(four.stderr)) == (0, [])
    assert four.stdout == one.stdout and one.returncode == 0


THREADS = """
import sys, threading
from rouge155py.run import executors

# The threads start their workers together: each worker is forked holding the other thread's pipes.
made = threading.Barrier({threads})
room = executors._room_for_workers

def barrier_room():
    try:
        made.wait(5)
    except threading.BrokenBarrierError:
        pass
    return room()

executors._room_for_workers = barrier_room
import rouge155py
import rouge155py.run.plan

rouge155py.run.plan.kernel_applies = lambda *args: False  # jobs on worker processes, not threads

words = [f"w{{i}}" for i in range(300)]
def text(k):
    return " ".join(words[(k * 7 + j * 13) % 300] for j in range(60))

def score():
    rouge155py.score([text(k) for k in range(3000)], [[text(k + 1), text(k + 2)] for k in range(3000)],
                     max_ngram=4, jobs=2, resamples=1000, multi_ref="average")

for _ in range({threads}):
    threading.Thread(target=score, daemon=True).start()
print("started", flush=True)
threading.Event().wait()
"""


def start_script(script: str, cwd: Path) -> subprocess.Popen:
    """``python -c script`` in a session of its own, its stdout a pipe."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.Popen(
        [sys.executable, "-c", script], cwd=cwd, stdout=subprocess.PIPE, start_new_session=True, env=env
    )


def all_children(pid: int) -> list[int]:
    """The children of every thread of the process."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


@pytest.mark.parametrize("threads", [2, pytest.param(4, marks=pytest.mark.slow)])
def test_workers_of_several_threads_end_with_their_parent(tmp_path: Path, threads: int) -> None:
    """The Python API with jobs=2 in several threads at once, the process then killed: each worker
    holds its own pipe only, so each sees its end and none is left."""
    run = start_script(THREADS.format(threads=threads), tmp_path)
    try:
        assert run.stdout is not None and run.stdout.readline() == b"started\n"
        until(lambda: len(all_children(run.pid)) >= threads or run.poll() is not None, "the workers")
        assert run.poll() is None
        time.sleep(0.3)
        run.kill()
        run.wait()
        deadline = time.monotonic() + 5.0
        while not group_gone(run.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        left = not group_gone(run.pid)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
    assert not left, "workers left after their parent was killed"


RESAMPLING_THREAD = """
import os, threading
import rouge155py.run.plan
from rouge155py import score
from rouge155py.errors import RougeError

rouge155py.run.plan.kernel_applies = lambda *args: False  # jobs on worker processes, not threads

words = [f"w{i}" for i in range(200)]
def text(k):
    return " ".join(words[(k * 7 + j * 13) % 200] for j in range(20))

# 80 tables of 2,000,000 resamples: this process's share takes about a minute.
systems = {f"s{s}": [text(k + s) for k in range(20)] for s in range(80)}
references = [[text(k + 100), text(k + 200)] for k in range(20)]

def run():
    try:
        score(systems, references, max_ngram=1, lcs=False, jobs=2, resamples=2_000_000, multi_ref="average")
        print("done", flush=True)
    except RougeError as error:
        print(error, flush=True)
    os._exit(0)

threading.Thread(target=run).start()
threading.Event().wait()
"""


@pytest.mark.slow
def test_a_worker_killed_while_another_thread_resamples(tmp_path: Path) -> None:
    """Off the main thread no SIGCHLD handler can be set: this process looks at the workers
    between two tables of its own share, and a killed worker is the error then, not at its end."""
    run = start_script(RESAMPLING_THREAD, tmp_path)
    out, _ = kill_a_worker_while_resampling(run)
    assert lines(out) == ["a worker process stopped (killed by SIGKILL, out of memory?)"]
    assert_group_gone(run.pid)
