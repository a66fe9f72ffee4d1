"""``-j N``: N worker processes compute the report a single process prints.

Two rounds over the same workers. First the chunks of evals that a single
process scores one after the other, cut smaller, are taken by the workers as
they become free: each summary file is read and tokenized by one worker only.
Then each (peer, metric) instance table is resampled and summarized, again in
small groups. The parent checks the models and collects the warnings in the
Perl's order beforehand, and joins the parts in that order, so the report,
warnings included, is the one a single process prints. With ``-m`` and ``-M``
together the Perl's stemming depends on the order in which all peers are
processed, so that combination runs in one process.

The workers ignore Ctrl-C and die at once on SIGTERM: the parent alone reports
an interruption, after it has stopped them. A worker that dies (the kernel's
out-of-memory killer) is an error, never a wait for ever; a parent that dies
leaves no worker behind (each reads its tasks from a pipe only the parent holds).
"""

from __future__ import annotations

import gc
import math
import multiprocessing
import os
import signal
import traceback
from dataclasses import replace
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterator, Optional, TypeVar

from .config import Eval, EvalConfig
from .engine import Grouped, RowTable, Scorer, instance_tables, merge_rows, score_evals, summarize_metric
from .errors import RougeError
from .evaluation import evaluate, load_config
from .metrics.plan import metric_plan
from .options import Options
from .planning import check_evals, check_resamples, evaluated_peers, scored_evals
from .progress import ProgressFn
from .report import Report
from .results import MetricResult

__all__ = ["evaluate_parallel", "max_workers"]

T = TypeVar("T")
R = TypeVar("R")
_CHUNKS_PER_JOB = 16  # more, smaller chunks: the workers finish closer together
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
_scorer: Optional[Scorer] = None  # one per worker process, kept between its chunks


def max_workers() -> int:
    """The most worker processes a run starts, whatever ``-j`` asks: twice the CPUs, at least 8."""
    try:
        cpus = len(os.sched_getaffinity(0))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(8, 2 * cpus)


def _serve(conn: Connection, inherited: list[Connection]) -> None:
    """A worker: run the tasks the parent sends, one at a time, until its pipe closes."""
    for other in inherited:
        other.close()  # the parent's ends of the pipes: only the parent may hold them
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
            reply = (False, error, traceback.format_exc())
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception:  # the result or the error does not pickle
            conn.send((False, RuntimeError("a worker's reply could not be sent"), traceback.format_exc()))


class _Workers:
    """Worker processes, each fed one task at a time over its own pipe."""

    def __init__(self, context: Any, count: int) -> None:
        self._processes: list[Any] = []
        self._conns: list[Connection] = []
        fork = context.get_start_method() == "fork"
        blocking = hasattr(signal, "pthread_sigmask")
        # Ctrl-C and SIGTERM wait until each worker has set its own handling of them.
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS) if blocking else None
        try:
            gc.freeze()  # the workers' collector leaves the inherited objects (and their pages) alone
            try:
                for _ in range(count):
                    mine, theirs = context.Pipe()
                    inherited = [*self._conns, mine] if fork else []  # parent ends, its own too
                    process = context.Process(target=_serve, args=(theirs, inherited), daemon=True)
                    process.start()
                    theirs.close()
                    self._processes.append(process)
                    self._conns.append(mine)
            finally:
                gc.unfreeze()  # only in the workers: this process may live on (the Python API)
                if blocking:
                    signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a pending signal raises here
        except BaseException:
            self.close()
            raise

    def map(self, function: Callable[[T], R], arguments: list[T]) -> Iterator[R]:
        """``function`` of each argument, in order, computed by the workers as they become free."""
        todo = iter(enumerate(arguments))
        busy: dict[Connection, int] = {}
        done: dict[int, R] = {}

        def feed(conn: Connection) -> None:
            task = next(todo, None)
            if task is not None:
                conn.send((function, task[1]))
                busy[conn] = task[0]

        for conn in self._conns:
            feed(conn)
        for wanted in range(len(arguments)):
            while wanted not in done:
                for conn in wait(list(busy)):
                    done[busy.pop(conn)] = self._reply(conn)
                    feed(conn)
            yield done.pop(wanted)

    def _reply(self, conn: Connection) -> Any:
        try:
            reply = conn.recv()
        except (EOFError, OSError):
            process = self._processes[self._conns.index(conn)]
            process.join(1)
            raise RougeError(f"a worker process stopped ({_how(process.exitcode)})") from None
        if reply[0]:
            return reply[1]
        error = reply[1]
        if isinstance(error, (RougeError, MemoryError)):
            raise error
        raise error from RuntimeError(f"in a worker process:\n{reply[2]}")

    def close(self) -> None:
        """Stop every worker now (an idle one would stop by itself once its pipe closes)."""
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


def _how(exitcode: Optional[int]) -> str:
    if exitcode is None:
        return "still running"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"killed by {name}" + (", out of memory?" if name == "SIGKILL" else "")
    return f"exit status {exitcode}"


def _score(job: tuple[Options, list[Eval], list[str]]) -> Grouped | RougeError:
    """The rows of every peer and metric in some evals (an error is returned, not raised)."""
    global _scorer
    options, evals, peers = job
    try:
        if _scorer is None:
            _scorer = Scorer(options)
        return score_evals(options, _scorer, metric_plan(options), evals, peers)
    except RougeError as error:
        return error


def _summarize(job: tuple[Options, list[tuple[str, int, RowTable]]]) -> list[MetricResult]:
    """Averages and intervals of some (peer, metric) instance tables."""
    options, tables = job
    plan = metric_plan(options)
    return [summarize_metric(options, plan[index], peer_id, rows) for peer_id, index, rows in tables]


def _groups(items: list[T], count: int) -> list[list[T]]:
    size = max(1, math.ceil(len(items) / count))
    return [items[start : start + size] for start in range(0, len(items), size)]


def evaluate_parallel(
    options: Options, config: Optional[EvalConfig] = None, progress: Optional[ProgressFn] = None
) -> Report:
    """Same report as :func:`evaluate`, computed by ``options.jobs`` processes (``progress`` alike)."""
    if config is None:
        config = load_config(options)
    plan = metric_plan(options)
    single = replace(options, jobs=1)
    if not plan or options.jobs <= 1:
        return evaluate(single, config, progress)
    check_resamples(options)
    peers = evaluated_peers(options, config)
    scorer = Scorer(options)  # the data files are read once, before the workers are forked
    chunks = scored_evals(options, config, peers, options.jobs * _CHUNKS_PER_JOB)
    workers = min(options.jobs, len(chunks), max_workers())
    if workers <= 1:
        return evaluate(single, config, progress)
    report = Report(options)
    report.warnings = check_evals(config, peers, scorer.corpus.exists)
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = _Workers(context, workers)
    try:
        grouped: Grouped = {}
        total, done = sum(map(len, chunks)), 0
        for evals, part in zip(chunks, pool.map(_score, [(single, evals, peers) for evals in chunks])):
            if isinstance(part, RougeError):
                break
            merge_rows(grouped, part)
            done += len(evals)
            if progress is not None:
                progress("scoring", done, total)
        else:
            tables = instance_tables(plan, peers, grouped)
            jobs = [(single, group) for group in _groups(tables, workers * _CHUNKS_PER_JOB)]
            for results in pool.map(_summarize, jobs):
                report.results.extend(results)
                if progress is not None:
                    progress("bootstrap", len(report.results), len(tables))
            return report
    finally:
        pool.close()
    # A file could not be read or scored: the error a single process meets first is the one to give.
    return evaluate(single, config)
