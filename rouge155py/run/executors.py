"""The executors of a run: what runs its two steps, step 1 (:func:`~rouge155py.run.batches.score_batch`
on chunks of evals) and step 2 (the bootstrap of the (peer, metric) tables), for
:func:`rouge155py.run.evaluate.evaluate`, which chooses one with :func:`executor_for`.

* :class:`ThisProcess`: both steps here, one chunk after the other.
* :class:`Threads`: ``jobs`` threads (:class:`concurrent.futures.ThreadPoolExecutor`) for evals
  that the C kernel scores, given in memory or from a file that holds them line by line (JSONL,
  line-aligned files): it lets the GIL go, and no text is copied.
* :class:`WorkerRun`: ``-j N``, this process and N - 1 worker processes
  (:class:`concurrent.futures.ProcessPoolExecutor`).

``-j N``. A run whose evals are known at the start (a plain XML configuration, read at once,
or any other source) and hold fewer than :data:`MIN_SHARED_PAIRS` (peer, model) pairs is made
in this process alone: workers would make it slower. Else the workers start first. The evals
are handed out in chunks as they become known: this process reads an XML configuration that the
parser reads one child of the root at a time while the workers score the evals read before;
once it has read the file, it scores chunks too, between two looks at the workers. Each summary
file is read and tokenized by one process only. Each worker has a task running and the next
one waiting, so it never waits for this process; chunks are a few hundred (peer, model) pairs
while the configuration is read, then smaller and smaller (and smaller still here and for a
task that waits), so that all finish close together. An eval that the XML opens again after it
was handed out (the Perl merges the two) sends the run back to the start, on the whole
configuration. Step 2 gives a share of the tables to each process to resample. The batches keep
any error in the Perl's order, so the report, warnings and errors included, is the one a single
process makes. The configuration is read once, whatever happens (a pipe or standard input gives
its bytes only once).

The workers are forked where the system can, else spawned. Forked, each starts with all this
process holds: the scorer, whose data files this process read once (a stopword list from a pipe
gives its bytes only once), and the modules loaded. ``forkserver`` was measured against
``fork`` on a ``-j 2`` run of 6,000 DUC-like (peer, model) pairs on 2 cores: 0.46 s against
0.38 s (median of 15 alternating runs, the whole process), and its workers would have to read
the data files again. Fewer workers start where descriptors run short (none
at all: this process does the work). They ignore Ctrl-C and die at once on SIGTERM: this
process alone reports an interruption, after it has stopped them. A worker that dies (the
kernel's out-of-memory killer) is an error at once, whatever this process is doing (SIGCHLD,
on the main thread; a broken pool elsewhere), never a wait; a worker whose parent dies ends
within a tenth of a second.
"""

from __future__ import annotations

import math
import os
import queue
import signal
import sys
import threading
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Protocol, Union

from ..errors import RougeError, UsageError, WorkerStopped
from ..inputs.config import Eval, EvalConfig, TextConfig, XmlEval, XmlEvalStream
from ..inputs.readers.document import Document, SummaryFile
from ..inputs.selection import select_models
from ..inputs.sources import StreamedEvals
from ..report.results import Counts, Summary
from ..settings.options import Options
from .batches import (
    CHUNK_EVALS,
    TEXT_CHUNK,
    EvalItem,
    ScoredBatch,
    merged_batches,
    score_chunk,
    score_chunks,
    score_in_chunks,
    score_text_chunks,
    score_texts,
    scored_batch,
    summaries_here,
)
from .plan import RunPlan
from .progress import ProgressFn
from .score import RowTable, table_summaries

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor

__all__ = [
    "MIN_SHARED_PAIRS",
    "Evals",
    "Executor",
    "ThisProcess",
    "Threads",
    "WorkerRun",
    "WorkerStopped",
    "executor_for",
    "load_config",
    "max_workers",
    "min_shared_pairs",
]


class Evals(Protocol):
    """A run's evals as an executor reads them."""

    def whole(self) -> EvalConfig:
        """Every eval (read to the end of its source now, where it is not yet)."""
        ...

    def first(self, count: int) -> list[Eval]:
        """Up to ``count`` of the first evals, of those known now (nothing is read for them)."""
        ...


class Executor(Protocol):
    """What runs the two steps: the scoring of every eval, and the bootstrap of the tables."""

    def open(self, options: Options, config: Optional[EvalConfig]) -> Evals: ...

    def start(self) -> None: ...

    def score(self, evals: Evals, options: Options, progress: Optional[ProgressFn]) -> list[ScoredBatch]: ...

    def summaries(
        self, tables: list[RowTable], options: Options, progress: Optional[ProgressFn] = None
    ) -> list[Union[Summary, Counts]]: ...

    def close(self) -> None: ...

    @property
    def processes(self) -> int:
        """How many processes ran the steps (this one included)."""
        ...


def executor_for(options: Options, plan: RunPlan, in_memory: bool = False) -> Executor:
    """The one choice of executor: under ``jobs``/``-j N``, threads for evals that the C kernel
    scores (``plan.kernel``: measured faster than processes, which are sent the texts) where they
    are given in memory or come from a source read a chunk at a time (a JSONL file, line-aligned
    files: the threads score each chunk as the next is read), else workers; without it (and under
    ``-v``, which prints every instance's texts in the Perl's walk order) this process."""
    if options.jobs > 1 and not options.verbose:
        if plan.kernel and (in_memory or hasattr(options.source, "read_in_chunks")):
            return Threads(options.jobs)
        return WorkerRun(options.jobs)
    return ThisProcess()


def max_workers() -> int:
    """The most processes a run uses (this one included), whatever ``-j`` asks: twice the CPUs,
    at least 8."""
    try:
        # Linux's: on macOS and Windows mypy knows no such function (on Linux the ignore is unused).
        cpus = len(os.sched_getaffinity(0))  # type: ignore[attr-defined, unused-ignore]
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(8, 2 * cpus)


# --------------------------------------------------------------------------
# This process, threads
# --------------------------------------------------------------------------


def load_config(options: Options) -> EvalConfig:
    """The evals the options' source names (line-aligned files, JSONL, XML, a ``-z`` list)."""
    source = options.source
    if source is None:
        raise UsageError("the options name no configuration: pass the evals to evaluate()")
    return source.read()


def chosen_models(options: Options, config: Optional[EvalConfig]) -> EvalConfig:
    """The evals (the options' source's where none are given) with the models the options choose
    (``--models``, ``--drop-model``, ``--model-subset``), each a peer too under ``--jackknife``:
    read whole, before anything is scored."""
    chosen = options.selection
    whole = config if config is not None else load_config(options)
    return select_models(whole, chosen.models, chosen.drop_models, chosen.jackknife, chosen.model_subset)


class _Read:
    """A configuration read whole; ``owned`` where the run read it (its evals may then be
    dropped as they are scored: a caller's configuration is left as it was given)."""

    def __init__(self, config: EvalConfig, owned: bool) -> None:
        self.config, self.owned = config, owned

    def whole(self) -> EvalConfig:
        return self.config

    def first(self, count: int) -> list[Eval]:
        return self.config.first(count)


def _streamed(options: Options) -> Optional[StreamedEvals]:
    """The options' source read a chunk at a time as it is scored, where it can be (a JSONL file,
    line-aligned files; not under ``-v``, whose lines walk every eval once all are read)."""
    reader = getattr(options.source, "read_in_chunks", None)
    if reader is None or options.verbose:
        return None
    stream: Optional[StreamedEvals] = reader(TEXT_CHUNK)
    return stream


class ThisProcess:
    """The executor of one process: step 1 on consecutive chunks of evals, step 2 here."""

    processes = 1

    def open(self, options: Options, config: Optional[EvalConfig]) -> Evals:
        if options.selection.reshapes:
            return _Read(chosen_models(options, config), owned=True)
        if config is not None:
            return _Read(config, owned=False)
        streamed = _streamed(options)
        if streamed is not None:
            return streamed
        return _Read(load_config(options), owned=True)

    def start(self) -> None:
        """Nothing to start."""

    def score(self, evals: Evals, options: Options, progress: Optional[ProgressFn]) -> list[ScoredBatch]:
        """One batch of every eval, scored a chunk at a time and merged as it goes
        (:func:`~rouge155py.run.batches.score_in_chunks`); the evals are dropped as they are scored
        where the run read them, and a source read a chunk at a time is scored as it is read."""
        if isinstance(evals, StreamedEvals):
            return score_chunks(evals.chunks(), options, progress, evals.estimated_total)
        config = evals.whole()
        if isinstance(config, TextConfig):
            return score_text_chunks(config, options, progress, TEXT_CHUNK)
        owned = isinstance(evals, _Read) and evals.owned
        return score_in_chunks(config.evals, options, progress, CHUNK_EVALS, owned)

    summaries = staticmethod(summaries_here)

    def close(self) -> None:
        """Nothing to stop."""


class Threads(ThisProcess):
    """``jobs`` threads of this process, for evals that the C kernel scores, given in memory or
    read a chunk at a time (:meth:`_chunk_batches`): it lets the GIL go while it scores a chunk,
    and no text is copied to another process. One pool runs both steps."""

    def __init__(self, jobs: int) -> None:
        self.jobs = min(jobs, max_workers())  # -j's cap: more threads only compete for the CPUs
        self._pool: Optional[ThreadPoolExecutor] = None

    def start(self) -> None:
        """Nothing yet: the threads start with the first tasks, no more of them than tasks."""

    def _threads(self, tasks: int) -> ThreadPoolExecutor:
        """The pool, made at its first use: ``jobs`` threads, or fewer where fewer ``tasks`` share them."""
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor  # imported where threads run

            self._pool = ThreadPoolExecutor(max(1, min(self.jobs, tasks)))
        return self._pool

    def close(self) -> None:
        """Stop the threads (each ends once its task is done); chunks not started are dropped (a
        run that ended early, by an error or Ctrl-C, does not wait for them)."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def score(self, evals: Evals, options: Options, progress: Optional[ProgressFn]) -> list[ScoredBatch]:
        """The batches of every eval, chunks scored by the threads (each with its own scorer)."""
        if isinstance(evals, StreamedEvals):
            return merged_batches(self._chunk_batches(evals, options, progress))
        config = evals.whole()
        jobs = self.jobs
        if isinstance(config, TextConfig):
            total = config.items
            # Chunks of equal size, as many for each thread, of at most TEXT_CHUNK items.
            pieces = jobs * max(1, -(-total // (jobs * TEXT_CHUNK)))
            size = max(1, -(-total // pieces))
            submit = self._threads(-(-total // size)).submit
            futures = [
                submit(score_texts, config, start, start + size, options) for start in range(0, total, size)
            ]
        else:
            total = len(config.evals)
            size = max(1, min(CHUNK_EVALS, -(-total // jobs)))
            entries = config.evals
            submit = self._threads(-(-total // size)).submit
            futures = [
                submit(
                    scored_batch,
                    [EvalItem(start + k, ev) for k, ev in enumerate(entries[start : start + size])],
                    options,
                )
                for start in range(0, total, size)
            ]
        batches = []
        for future in futures:
            batches.append(future.result())
            if progress is not None:
                progress("scoring", min(total, len(batches) * size), total)
        return batches

    def _chunk_batches(
        self, evals: StreamedEvals, options: Options, progress: Optional[ProgressFn]
    ) -> Iterator[ScoredBatch]:
        """The batch of each chunk of a source read a chunk at a time, in the source's order: this
        thread reads the next chunk while the threads score the last ones, and holds at most
        ``jobs + 1`` chunks. A chunk's error comes before the error of reading a later one, as in
        one process, which scores a chunk before it reads the next."""
        pending: deque[tuple[Future[ScoredBatch], int]] = deque()
        submit = self._threads(self.jobs).submit
        chunks = evals.chunks()
        done = 0

        def collected() -> ScoredBatch:
            nonlocal done
            future, count = pending.popleft()
            batch = future.result()
            done += count
            if progress is not None:
                progress("scoring", done, max(done, evals.estimated_total()))
            return batch

        while True:
            try:
                chunk = next(chunks, None)
            except Exception:
                while pending:
                    collected()  # an earlier chunk's error first
                raise
            if chunk is None:
                break
            config, places = chunk
            pending.append((submit(score_chunk, config, places, options), len(places)))
            del chunk, config, places
            while len(pending) > self.jobs:
                yield collected()
        while pending:
            yield collected()

    def summaries(
        self, tables: list[RowTable], options: Options, progress: Optional[ProgressFn] = None
    ) -> list[Union[Summary, Counts]]:
        """The bootstrap of each table, by the threads (the kernel's sums let the GIL go)."""
        out = table_summaries(options.scoring, options.resampling, tables, self._threads(self.jobs))
        if progress is not None:
            for done in range(1, len(tables) + 1):
                progress("bootstrap", done, len(tables))
        return out


# --------------------------------------------------------------------------
# Worker processes
# --------------------------------------------------------------------------

_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
#: Descriptors left free in this process (a summary file, a module loaded...).
_SPARE_DESCRIPTORS = 4
#: Descriptors the pool holds whatever its workers: its two queues' pipes and its wake-up pipe.
_POOL_DESCRIPTORS = 6
_PARENT_CHECK = 0.1  # seconds between a worker's looks at its parent


class _Workers:
    """Worker processes (a :class:`~concurrent.futures.ProcessPoolExecutor`), started at once."""

    def __init__(self, count: int) -> None:
        """``count`` workers at most, forked where the system can (each starts with what this
        process holds), else spawned; none where descriptors or processes run short."""
        self._pool: Optional[ProcessPoolExecutor] = None
        self._processes: list[Any] = []  # multiprocessing's, of the workers started
        self.count = 0  # how many workers there are (spawned ones start as tasks come)
        self._watching = False  # whether a worker's end raises WorkerStopped (SIGCHLD)
        self._sigchld: Any = None  # the SIGCHLD handler replaced while the workers live
        self._prompt = False  # whether the GIL's switch interval is shortened for the pool
        self._finished: queue.SimpleQueue[Future[Any]] = queue.SimpleQueue()  # tasks ended, in turn
        count = min(count, _room_for_workers())
        if count > 0:
            try:
                self._start(count)
                self.count = count
            except OSError:  # no descriptor, process or memory left for them: no worker
                self.close()
                self._processes = []
            except BaseException:  # Ctrl-C, SIGTERM, a worker's end: none is left behind
                self.close()
                raise

    def _start(self, count: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        fork = "fork" in multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if fork else "spawn")
        _prompt_threads(True)
        self._prompt = True
        self._pool = pool = ProcessPoolExecutor(count, context, initializer=_serve, initargs=(os.getpid(),))
        self._watch()  # before the workers start: one that ends is then known to this process
        blocking = hasattr(signal, "pthread_sigmask")
        # Ctrl-C and SIGTERM wait until each worker has set its own handling of them; the pool's
        # threads, started now, keep them blocked: only this thread takes them.
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS) if blocking else None
        try:
            _flush_std_streams()  # a forked worker that ends flushes what it inherited
            import gc

            gc.freeze()  # the workers' collector leaves the inherited objects (and their pages) alone
            try:
                pool.submit(int)  # the workers start (forked: all at once, now) with the first task
            finally:
                gc.unfreeze()  # only in the workers: this process may live on (the Python API)
                self._known()
        finally:
            if previous is not None:  # blocked above
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a pending signal raises here
        self._ended(0, None)  # one that ended before

    def _watch(self) -> None:
        """Notice a worker's end at once (SIGCHLD), where this thread may handle the signal and
        the caller has no handler of its own; an ignored SIGCHLD (which leaves no exit status) is
        handled too, until the workers are stopped."""
        chld = getattr(signal, "SIGCHLD", None)
        if chld is None or signal.getsignal(chld) not in (signal.SIG_DFL, signal.SIG_IGN):  # asyncio's...
            return
        try:
            self._sigchld = signal.signal(chld, self._ended)
        except ValueError:  # not the main thread
            return
        self._watching = True

    def _ended(self, signum: int, frame: object) -> None:
        if not self._watching:
            return
        handling = sys.exc_info()[1]
        if handling is not None and not isinstance(handling, Exception):
            return  # the run is already ending (Ctrl-C, SIGTERM): its own ending stands
        for process in self._processes:
            end = _end(process)
            if end is not None:
                self._watching = False
                raise WorkerStopped(end)

    def _known(self) -> None:
        """Know the workers started (the pool's own record of them is all there is)."""
        processes = getattr(self._pool, "_processes", None)
        if processes and len(processes) != len(self._processes):
            self._processes = list(processes.values())

    def submit(self, function: Callable[[Any], Any], argument: Any) -> Future[Any]:
        """``function(argument)`` in a worker. The argument is pickled here, at once: the pool's
        thread that sends it would pickle it while this thread computes, both taking turns at
        the GIL, and the worker would start late."""
        from pickle import dumps  # what the pool imports: a run in one process has no need of it

        assert self._pool is not None
        future = self._pool.submit(_call, function, dumps(argument, -1))  # the highest protocol
        future.add_done_callback(self._finished.put)
        self._known()
        return future

    def finished(self, block: bool) -> list[Future[Any]]:
        """The tasks ended since the last call (waiting for one where ``block``).

        Not :func:`concurrent.futures.wait`: Ctrl-C may stop it while it holds some of the
        futures' locks, and the pool's thread would then wait for them for ever; this queue
        holds none while it waits."""
        found = []
        try:
            found.append(self._finished.get(block))
            while True:
                found.append(self._finished.get_nowait())
        except queue.Empty:
            pass
        return found

    def result(self, future: Future[Any]) -> Any:
        """A task's value; its error as this process would raise it; a worker's end as the run's."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            return future.result()
        except BrokenProcessPool:
            raise WorkerStopped(self._first_end()) from None
        except (RougeError, MemoryError) as error:
            error.__cause__ = None  # the worker's traceback: the run's error is one line
            raise

    def _first_end(self) -> str:
        """How the worker that ended first ended, as far as can be told: one not stopped by the pool."""
        ends = [end for end in map(_end, self._processes) if end is not None]
        first = next((end for end in ends if "SIGTERM" not in end), ends[0] if ends else None)
        return first or f"a worker process stopped ({_how(None)})"

    def close(self) -> None:
        """Stop every worker now. Ctrl-C and SIGTERM wait until every worker is stopped (the run
        then ends as they ask)."""
        self._watching = False
        blocking = hasattr(signal, "pthread_sigmask")
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS) if blocking else None
        try:
            for process in self._processes:
                if process.exitcode is None:
                    process.terminate()
            alive = _ended_within(self._processes, 2.0)
            for process in alive:
                process.kill()
            _ended_within(alive, None)
            if self._pool is not None:
                _let_replies_go(self._pool)
                self._pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None
            for process in self._processes:
                process.join()  # ended: its exit status is read at once
            if self._prompt:
                _prompt_threads(False)
                self._prompt = False
            if self._sigchld is not None:
                signal.signal(signal.SIGCHLD, self._sigchld)
                self._sigchld = None
        finally:
            if previous is not None:  # blocked above
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _ended_within(processes: list[Any], seconds: Optional[float]) -> list[Any]:
    """Wait until the processes have ended, ``seconds`` at most (None: no limit); those still
    running. Their end is seen, not reaped: the pool's thread may reap them meanwhile."""
    from multiprocessing.connection import wait

    deadline = None if seconds is None else time.monotonic() + seconds
    running = {process.sentinel: process for process in processes if process.exitcode is None}
    while running:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            break
        for sentinel in wait(list(running), left):
            del running[sentinel]
    return list(running.values())


def _let_replies_go(pool: ProcessPoolExecutor) -> None:
    """Close this process's end for writing of the pool's pipe of replies, once every worker has
    ended. A worker stopped in the middle of its reply leaves the pool's thread reading the rest
    of it, which no process is left to write but this one: with this end closed, the thread reads
    the end of the pipe, takes the pool for broken and ends (else shutting the pool down waits for
    it for ever). This process never writes to that pipe."""
    replies = getattr(pool, "_result_queue", None)  # the pool's own (Python 3.9 to 3.13)
    writer = getattr(replies, "_writer", None)
    if writer is not None:
        writer.close()


#: The GIL's switch interval while workers live: the pool's threads, which hand the tasks to the
#: workers and take their replies, wait for the GIL no longer than this while this thread
#: computes (at Python's 5 ms, a worker waited for its task, and -j 2 took about a tenth longer).
_SWITCH_INTERVAL = 0.0005
_switching = threading.Lock()
_switch = {"pools": 0, "before": 0.0}  # the pools that shortened it, and the interval before the first


def _prompt_threads(on: bool) -> None:
    """Shorten the switch interval while a pool lives (pools of several threads at once: until
    the last one ends), then set it back."""
    with _switching:
        if on:
            if not _switch["pools"]:
                _switch["before"] = sys.getswitchinterval()
                sys.setswitchinterval(min(_SWITCH_INTERVAL, _switch["before"]))
            _switch["pools"] += 1
        elif _switch["pools"]:
            _switch["pools"] -= 1
            if not _switch["pools"]:
                sys.setswitchinterval(_switch["before"])


def _call(function: Callable[[Any], Any], argument: bytes) -> Any:
    """A worker's task: ``function`` on the argument pickled by :meth:`_Workers.submit`."""
    from pickle import loads

    return function(loads(argument))


def _serve(parent: int) -> None:
    """A worker's start: Ctrl-C ignored (its parent reports it), SIGTERM its end, and its end
    too once its parent has gone."""
    signal.set_wakeup_fd(-1)  # the parent's
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGCHLD"):
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()


def _orphaned(parent: int) -> None:
    """End this worker once its parent has gone (it then has another)."""
    stop = threading.Event()
    while not stop.wait(_PARENT_CHECK):
        if os.getppid() != parent:
            os._exit(1)


def _flush_std_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # closed: its own error comes when it is written
            pass


def _room_for_workers() -> int:
    """How many workers the descriptors allow, this process keeping :data:`_SPARE_DESCRIPTORS`
    free: the pool's own, and two per worker (two more while one is forked)."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        open_now = len(os.listdir("/proc/self/fd")) - 1  # the listing's own
    except (ImportError, OSError):
        return max_workers()
    if limit == resource.RLIM_INFINITY:
        return max_workers()
    return max(0, (limit - open_now - _POOL_DESCRIPTORS - 2 - _SPARE_DESCRIPTORS) // 2)


def _end(process: Any) -> Optional[str]:
    """How the worker ended (None: it runs), as the run's error says it; its exit status is
    read where the system keeps it, and waited for a moment where the pool's thread reaps it."""
    code = process.exitcode
    if code is None:
        try:
            found = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # reaped already: by the pool's thread, or by the system
            deadline = time.monotonic() + 1.0
            while process.exitcode is None and time.monotonic() < deadline:
                time.sleep(0.005)
            code = process.exitcode
        except (AttributeError, OSError):  # no waitid
            return None
        else:
            if found is None:
                return None  # running
            killed = found.si_code in (os.CLD_KILLED, os.CLD_DUMPED)
            code = -found.si_status if killed else found.si_status
    return f"a worker process stopped ({_how(code)})"


def _how(exitcode: Optional[int]) -> str:
    if exitcode is None:
        return "exit status unknown"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"killed by {name}" + (", out of memory?" if name == "SIGKILL" else "")
    return f"exit status {exitcode}"


Packed = tuple[str, tuple[tuple[str, Any], ...], tuple[Any, ...]]  # an eval as it is sent to a worker


def _packed(ev: Eval) -> Packed:
    """An eval in a form that pickles fast: a summary file as a plain tuple."""
    return (
        ev.eval_id,
        tuple((peer_id, _plain(document)) for peer_id, document in ev.peers.items()),
        tuple(map(_plain, ev.models)),
    )


def _plain(document: Document) -> Any:
    return tuple(document) if type(document) is SummaryFile else document


def _unpacked(packed: Packed) -> Eval:
    eval_id, peers, models = packed
    return Eval(eval_id, {peer_id: _document(d) for peer_id, d in peers}, list(map(_document, models)))


def _document(value: Any) -> Document:
    return SummaryFile(*value) if type(value) is tuple else value


def _score(job: tuple[Options, list[tuple[int, Packed]]]) -> ScoredBatch:
    """A worker's task: step 1 on some evals (each with its position in the configuration)."""
    options, packed = job
    return scored_batch([EvalItem(position, _unpacked(ev)) for position, ev in packed], options)


def _summarize(job: tuple[Options, list[RowTable]]) -> list[Union[Summary, Counts]]:
    """A worker's task: the bootstrap of some (peer, metric) instance tables (only these go back)."""
    options, tables = job
    return summaries_here(tables, options)


def _shares(tables: list[RowTable], count: int) -> list[list[RowTable]]:
    """``count`` consecutive runs of the tables (some maybe empty), of about equal numbers of rows."""
    total = sum(map(len, tables))
    shares: list[list[RowTable]] = [[] for _ in range(count)]
    done = 0
    for table in tables:
        size = len(table)
        k = min(count - 1, (2 * done + size) * count // max(2 * total, 1))  # where its middle falls
        shares[k].append(table)
        done += size
    return shares


#: (peer, model) pairs in a chunk while the configuration is read, and at most after.
_READING_PAIRS = 128
_MAX_PAIRS = 512
_STEPS_PER_READ = 32  # children of the root read between two looks at busy workers


class _Reopened(Exception):
    """The XML configuration opened again an eval already handed to a worker."""


class _Evals:
    """The evals of a run as they become known, each handed out once, in the configuration's order.

    An XML configuration is read a few children of its root at a time
    (:meth:`read`); any other is known at once.
    """

    def __init__(self, options: Options, config: Optional[EvalConfig]) -> None:
        self._system_id = None if options.all_systems else options.system_peer_id
        self._stream: Optional[XmlEvalStream] = None
        self._pending: deque[tuple[Union[Eval, XmlEval], int]] = deque()  # and its pairs then
        if config is None:
            source = options.source
            if source is None:
                raise UsageError("the options name no configuration: pass the evals to evaluate()")
            stream = getattr(source, "stream", None)  # a source read as it is parsed (XML)
            if stream is not None:
                self._stream = stream()
            else:
                config = source.read()
        self._config = config
        self.taken: list[Eval] = []  # in the configuration's order
        self._handed: set[str] = set()
        self.pending_pairs = 0
        for ev in config.evals if config is not None else ():
            self._add(ev)

    @property
    def finished(self) -> bool:
        """Whether every eval is known."""
        return self._stream is None or self._stream.finished

    def read_walked(self) -> None:
        """Know every eval now where that costs no more than reading them later: the XML
        configuration was walked whole at once (a plain one), or is none."""
        if self._stream is not None and self._stream.walked:
            self.read(None)

    @property
    def pending_count(self) -> int:
        """How many evals are known and not handed out."""
        return len(self._pending)

    @property
    def done(self) -> bool:
        """Whether every eval is known and handed out."""
        return self.finished and not self._pending

    def read(self, steps: Optional[int]) -> None:
        """Read a few more children of the XML's root (None: all of them)."""
        stream = self._stream
        if stream is None or stream.finished:
            return
        while steps is None or steps > 0:
            if not stream.step():
                break
            steps = None if steps is None else steps - 1
        if not self._handed.isdisjoint(stream.touched):
            raise _Reopened
        stream.touched.clear()
        for entry in stream.opened:
            self._add(entry)
        stream.opened.clear()

    def _add(self, entry: Union[Eval, XmlEval]) -> None:
        pairs = self._pairs(entry)
        self._pending.append((entry, pairs))
        self.pending_pairs += pairs

    def _pairs(self, entry: Union[Eval, XmlEval]) -> int:
        """The (peer, model) pairs an eval holds for the evaluated peers (an XML eval may grow)."""
        peers = len(entry.peers) if self._system_id is None else int(self._system_id in entry.peers)
        return peers * max(1, len(entry.models))

    def chunk(self, parts: int, most: int = _MAX_PAIRS) -> tuple[list[tuple[int, Eval]], int]:
        """The next evals to hand out, each with its position, and their (peer, model) pairs:
        none while too few are known (an eval without an evaluated peer goes along, for its warning).

        While the configuration is read, chunks of about :data:`_READING_PAIRS`;
        then one of ``parts`` parts of what is left (up to ``most`` pairs), smaller and smaller.
        """
        if self.finished:
            share = math.ceil(self.pending_pairs / parts)
            pairs = min(most, max(1, share))
        elif self.pending_pairs >= _READING_PAIRS:
            pairs = _READING_PAIRS
        else:
            return [], 0
        chunk: list[tuple[int, Eval]] = []
        found = 0
        while self._pending and found < pairs:
            entry, counted = self._pending.popleft()
            self.pending_pairs -= counted
            if isinstance(entry, XmlEval):
                ev = entry.documents()
                counted = self._pairs(ev)  # what the XML gave it since, and its models by ID
            else:
                ev = entry
            chunk.append((len(self.taken), ev))
            self.taken.append(ev)
            self._handed.add(ev.eval_id)
            found += counted
        return chunk, found

    def first(self, count: int) -> list[Eval]:
        """Up to ``count`` of the first evals known now (an XML configuration that the parser
        reads as it is scored gives none before the scoring starts; a plain one, read at once,
        gives its first)."""
        if self._config is not None:
            return self._config.evals[:count]
        if not self.finished:
            return []
        return [ev if isinstance(ev, Eval) else ev.documents() for ev, _ in list(self._pending)[:count]]

    def whole(self) -> EvalConfig:
        """The whole configuration: once every eval is known and taken, the evals as taken; else
        read to its end now, every eval pending again (a pipe or standard input is read once)."""
        if self._config is not None:
            return self._config
        assert self._stream is not None
        if not self.done:
            self.restart()
            assert self._config is not None
            return self._config
        return EvalConfig(self.taken, self._stream.peer_ids)

    def restart(self) -> None:
        """Read the rest of the configuration; every eval is pending again, none handed out."""
        stream = self._stream
        assert stream is not None
        while stream.step():
            pass
        self._config = EvalConfig([x.documents() for x in stream.evals], stream.peer_ids)
        self._stream = None
        self._pending.clear()
        self.pending_pairs = 0
        self.taken.clear()
        self._handed.clear()
        for ev in self._config.evals:
            self._add(ev)


def min_shared_pairs() -> int:
    """The fewest (peer, model) pairs that ``-j`` shares among processes: a smaller run is made in
    this process alone, which is faster (workers cost their start, the evals and rows sent
    between processes, and small tasks). ``ROUGE155PY_MIN_SHARED_PAIRS`` sets another number
    (0: always share)."""
    setting = os.environ.get("ROUGE155PY_MIN_SHARED_PAIRS", "").strip()
    return int(setting) if setting.isdigit() else MIN_SHARED_PAIRS


#: See :func:`min_shared_pairs`. On 2 cores, -j 2 took longer than -j 1 on 1,000 CNN-like pairs of
#: about 60 words (one model each) and gained on 5,000 of them, and on 1,500 DUC-like pairs of
#: 100 words with 4 models each (6,000 (peer, model) pairs).
MIN_SHARED_PAIRS = 2000


class WorkerRun:
    """The ``-j`` executor: this process and up to ``jobs - 1`` workers (fewer where descriptors
    or processes run short; with none, this process runs every step alone, as it would; none
    either where the evals are known at the start and hold fewer than :func:`min_shared_pairs`
    (peer, model) pairs)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.processes = 1  # once started: this one and the workers that could be started
        self._pool: Optional[_Workers] = None
        self._evals: Optional[_Evals] = None
        self.alone = False  # this process makes the run as without -j

    def open(self, options: Options, config: Optional[EvalConfig]) -> _Evals:
        """The run's evals: an XML configuration is read as the workers score (see the module);
        one that is read at once (a plain file), and any other, is known before they start."""
        if options.selection.reshapes:
            config = chosen_models(options, config)
        self._evals = _Evals(options, config)
        self._evals.read_walked()
        return self._evals

    def start(self) -> None:
        """Start the workers (after the scorer is made: forked workers inherit it), unless the
        run is known to be too small to gain from them."""
        evals = self._evals
        if evals is not None and evals.finished and evals.pending_pairs < min_shared_pairs():
            self.alone = True
            return
        self._pool = _Workers(min(self.jobs, max_workers()) - 1)
        self.processes = self._pool.count + 1
        self.alone = not self._pool.count

    def close(self) -> None:
        """Stop every worker now."""
        if self._pool is not None:
            self._pool.close()

    def score(self, evals: Evals, options: Options, progress: Optional[ProgressFn]) -> list[ScoredBatch]:
        """Step 1 on every eval, by the workers and this process; the batches in any order."""
        assert isinstance(evals, _Evals)  # what open() made
        if self.alone:
            return score_in_chunks(evals.whole().evals, options, progress, CHUNK_EVALS, owned=False)
        assert self._pool is not None
        try:
            try:
                return _score_all(self._pool, options, evals, progress)
            except _Reopened:
                evals.restart()
                return _score_all(self._pool, options, evals, progress)
        except WorkerStopped as stopped:
            raise self._stopped(stopped) from None

    def summaries(
        self, tables: list[RowTable], options: Options, progress: Optional[ProgressFn] = None
    ) -> list[Union[Summary, Counts]]:
        """The bootstrap of the tables, in their order: a share to each worker, the last one here."""
        if self.alone:
            return summaries_here(tables, options, progress)
        assert self._pool is not None
        try:
            return _summarized(self._pool, options, tables, progress)
        except WorkerStopped as stopped:
            raise self._stopped(stopped) from None

    def _stopped(self, stopped: WorkerStopped) -> BaseException:
        """A worker's end as the run's error; Ctrl-C or SIGTERM, where it was they that stopped it."""
        self.close()
        cause = stopped.__context__
        if isinstance(cause, BaseException) and not isinstance(cause, Exception):
            return cause
        return RougeError(str(stopped))


def _score_all(
    pool: _Workers, options: Options, evals: _Evals, progress: Optional[ProgressFn]
) -> list[ScoredBatch]:
    """Step 1 on every eval as the evals become known, by the workers and, once the
    configuration is read, by this process too; each batch merged into one as it comes."""
    batches: list[ScoredBatch] = []
    workers = pool.count
    processes = workers + 1
    given: dict[Future[Any], tuple[int, int]] = {}  # each task given out: its evals and (peer, model) pairs
    done = 0

    def add(count: int, batch: ScoredBatch) -> None:
        nonlocal done
        if batches:
            batches[0].extend(batch)  # the rows grow in place, not copied again at the end
        else:
            batches.append(batch)
        done += count
        if progress is not None:
            progress("scoring", done, done + sum(n for n, _ in given.values()) + evals.pending_count)

    def collect(finished: Any) -> None:
        for future in finished:
            batch = pool.result(future)  # a worker's error, and a worker's end, are raised here
            add(given.pop(future)[0], batch)

    try:
        while True:
            # An error in the configuration is the first a single process meets: it is raised as it is.
            evals.read(1 if len(given) < workers else _STEPS_PER_READ)  # a worker waits for work
            collect(pool.finished(False))
            while len(given) < 2 * workers:  # each worker runs a task and has the next one waiting
                load = len(given) // workers  # the tasks of the least busy worker
                holds = sum(pairs for _, pairs in given.values()) / workers  # the pairs one has to score
                if load and evals.finished and evals.pending_pairs < 2 * holds:
                    break  # near the end, a task waiting for a worker would leave this process idle
                # A task that waits behind another is smaller: at the end, none is left holding much.
                chunk, chunk_pairs = evals.chunk(2 * processes * (1 + load))
                if not chunk:
                    break
                future = pool.submit(_score, (options, [(k, _packed(ev)) for k, ev in chunk]))
                given[future] = (len(chunk), chunk_pairs)
            if not evals.finished:
                continue
            # A small share here: this process is back to feed the workers before they run dry.
            chunk, _ = evals.chunk(4 * processes, _READING_PAIRS)
            if chunk:
                add(len(chunk), scored_batch([EvalItem(k, ev) for k, ev in chunk], options))
            elif not given:
                return batches
            else:
                collect(pool.finished(True))
    except _Reopened:
        while given:  # every task given out ends; what it returns is dropped
            for future in pool.finished(True):
                pool.result(future)
                del given[future]
        raise


def _summarized(
    pool: _Workers, options: Options, tables: list[RowTable], progress: Optional[ProgressFn]
) -> list[Union[Summary, Counts]]:
    """The bootstrap of the tables, in their order: a share to each worker, the last one here."""
    shares = _shares(tables, pool.count + 1)
    given = {pool.submit(_summarize, (options, share)): k for k, share in enumerate(shares[:-1])}
    summaries: list[list[Union[Summary, Counts]]] = [[] for _ in shares]
    done = 0

    def collect(finished: Any) -> None:
        nonlocal done
        for future in finished:
            part = pool.result(future)
            summaries[given.pop(future)] = part
            done += len(part)
            if progress is not None:
                progress("bootstrap", done, len(tables))

    for rows in shares[-1]:
        summaries[-1].extend(summaries_here([rows], options))
        done += 1
        if progress is not None:
            progress("bootstrap", done, len(tables))
        # A worker that ended is an error now (off the main thread, SIGCHLD tells nothing).
        collect(pool.finished(False))
    while given:
        collect(pool.finished(True))
    return [summary for part in summaries for summary in part]
