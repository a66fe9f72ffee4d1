"""``-j N``: N processes (this one and N - 1 workers) compute the report a single process prints.

The workers start first. The evals are handed out in chunks as they become
known: this process reads an XML configuration one child of the root at a
time while the workers score the evals read before; once it has read the
file, it scores chunks too, between two looks at the workers. Each summary
file is read and tokenized by one process only. A worker runs one task and
has the next waiting in its pipe, so it never waits for this process; chunks
are a few hundred (peer, model) pairs while the configuration is read, then
smaller and smaller (and smaller still here and for a task that waits), so
that all finish close together. An eval that the XML opens again after it
was handed out (the Perl merges the two) sends the run back to the start, on
the whole configuration. Then the (peer, metric) instance tables are
resampled and summarized, a share of them in each process. The parts are
joined in the Perl's order and the warnings made once the configuration is
read, so the report, warnings included, is the one a single process prints;
on an error (a configuration, a missing or unreadable file) the run is made
again in one process, which names the error a single process meets first. The
configuration is read once, whatever happens: the run made again is made on
what was read (a pipe or standard input gives its bytes only once).
With ``-m`` and ``-M`` together the Perl's stemming depends on the order in
which all peers are processed, so that combination runs in one process.

The workers are made by ``fork()`` (:mod:`rouge155py.forked`), or by
multiprocessing where the system has none; fewer of them where descriptors or
processes run short (none: the run is made in this process). They ignore
Ctrl-C and die at once on SIGTERM: the parent alone reports an interruption,
after it has stopped them. A worker that dies (the kernel's out-of-memory
killer) is an error at once, whatever this process is doing (SIGCHLD, on the
main thread), never a wait; a parent that dies leaves no worker behind (each
reads its tasks from a pipe only the parent holds).
"""

from __future__ import annotations

import gc
import math
import os
import signal
from collections import deque
from dataclasses import replace
from typing import Any, Callable, NoReturn, Optional, TypeVar, Union

from . import forked
from .config import Eval, EvalConfig, XmlEval, XmlEvalStream
from .engine import (
    Grouped,
    RowTable,
    Scorer,
    instance_tables,
    merge_rows,
    metric_result,
    score_evals,
    table_summary,
)
from .errors import RougeError
from .evaluation import evaluate, load_config
from .metrics.base import Metric
from .metrics.plan import metric_plan
from .options import Options
from .planning import check_models, check_resamples, evaluated_peers, peer_warnings
from .progress import ProgressFn
from .readers.document import Document, SummaryFile
from .report import Report
from .results import Counts, MetricResult, Summary

__all__ = ["evaluate_parallel", "max_workers"]

T = TypeVar("T")
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
#: Descriptors left free in this process and in each worker (a summary file, a module loaded...).
_SPARE_DESCRIPTORS = 4
_scorer: Optional[Scorer] = None  # one per worker process, kept between its chunks


def max_workers() -> int:
    """The most processes a run uses (this one included), whatever ``-j`` asks: twice the CPUs,
    at least 8."""
    try:
        cpus = len(os.sched_getaffinity(0))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(8, 2 * cpus)


Connection = Any  # forked.Connection, or multiprocessing's where the system has no fork()


def _room(conn: Connection) -> int:
    """The largest task that may wait in a worker's pipe behind another: half of what it holds
    (a default pipe's size where the connection does not tell)."""
    return getattr(conn, "capacity", forked.DEFAULT_PIPE_BYTES) // 2


def _process_kit() -> tuple[Any, Callable[..., list[Any]]]:
    """What makes the workers, and waits on their pipes: :mod:`~rouge155py.forked`, else
    multiprocessing (imported only then)."""
    if hasattr(os, "fork"):
        return forked, forked.wait
    import multiprocessing
    from multiprocessing.connection import wait

    return multiprocessing.get_context(), wait


def _serve(conn: Connection, scorer: Optional[Scorer]) -> None:
    """A worker: run the tasks the parent sends, one at a time, until its pipe closes.

    A forked worker starts with the parent's ``scorer`` (its data files read once, by the
    parent: a stopword list from a pipe gives its bytes only once); a spawned one makes its own.
    """
    global _scorer
    if scorer is not None:
        forked.keep_only(conn)  # the parent's ends of the pipes: only the parent may hold them
        _scorer = scorer
    signal.set_wakeup_fd(-1)  # the parent's (its descriptor is closed here)
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
            reply = (False, error, _trace())
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception:  # the result or the error does not pickle
            conn.send((False, RuntimeError("a worker's reply could not be sent"), _trace()))


def _trace() -> str:
    """The traceback of the exception being handled (traceback imported only then)."""
    import traceback

    return traceback.format_exc()


class _WorkerStopped(BaseException):
    """A worker ended while this process computed: raised by the SIGCHLD handler wherever this
    process was (not an ``Exception``: nothing on the way catches it); :func:`evaluate_parallel`
    makes it the run's error."""


class _Workers:
    """Worker processes, each given up to two tasks at a time over its own pipe (one it runs, one
    waiting in the pipe, so that it never waits for the parent between two tasks)."""

    def __init__(self, count: int, scorer: Scorer) -> None:
        """``count`` workers at most; ``scorer`` is the one each forked worker starts with."""
        context, self._wait = _process_kit()
        self._processes: list[Any] = []
        self._conns: list[Connection] = []
        self._tasks: dict[Connection, deque[Any]] = {}  # the tags of each worker's tasks, oldest first
        self._held: dict[Connection, bytes] = {}  # a task too large to wait in its worker's pipe
        self._watching = False  # whether a worker's end raises _WorkerStopped (SIGCHLD)
        self._sigchld: Any = None  # the SIGCHLD handler replaced while the workers live
        fork = context.get_start_method() == "fork"
        blocking = hasattr(signal, "pthread_sigmask")
        # Ctrl-C and SIGTERM wait until each worker has set its own handling of them.
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS) if blocking else None
        try:
            gc.freeze()  # the workers' collector leaves the inherited objects (and their pages) alone
            try:
                for _ in range(min(count, _room_for_workers())):
                    if not self._start(context, scorer if fork else None):
                        break
            finally:
                gc.unfreeze()  # only in the workers: this process may live on (the Python API)
                if blocking:
                    signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a pending signal raises here
            self._watch()
        except BaseException:
            self.close()
            raise

    def _start(self, context: Any, scorer: Optional[Scorer]) -> bool:
        """One more worker; False where the system has no descriptor or process left for it."""
        try:
            mine, theirs = context.Pipe()
        except OSError:
            return False
        process = context.Process(target=_serve, args=(theirs, scorer), daemon=True)
        try:
            process.start()
        except OSError:  # fork(): no process or no memory left
            mine.close()
            return False
        finally:
            theirs.close()
        self._processes.append(process)
        self._conns.append(mine)
        self._tasks[mine] = deque()
        return True

    def _watch(self) -> None:
        """Notice a worker's end at once (SIGCHLD), where this thread may handle the signal and
        the caller has no handler of its own; an ignored SIGCHLD (which leaves no exit status) is
        handled too, until the workers are stopped."""
        chld = getattr(signal, "SIGCHLD", None)
        if chld is None or not self._processes:
            return
        if signal.getsignal(chld) not in (signal.SIG_DFL, signal.SIG_IGN):  # asyncio's child watcher...
            return
        try:
            self._sigchld = signal.signal(chld, self._ended)
        except ValueError:  # not the main thread
            return
        self._watching = True
        self._ended(chld, None)  # one that ended before

    def _ended(self, signum: int, frame: object) -> None:
        if not self._watching:
            return
        for process in self._processes:
            if not process.is_alive():
                self._watching = False
                raise _WorkerStopped(_stopped(process))

    @property
    def count(self) -> int:
        """How many workers there are."""
        return len(self._conns)

    @property
    def busy(self) -> int:
        """How many tasks are given out and not yet collected."""
        return sum(map(len, self._tasks.values()))

    def load(self, conn: Connection) -> int:
        """How many tasks the worker ``conn`` has."""
        return len(self._tasks[conn])

    def tags(self, conn: Connection) -> list[Any]:
        """The tags of the worker's tasks."""
        return list(self._tasks[conn])

    def free(self, depth: int) -> Optional[Connection]:
        """The least busy worker with fewer than ``depth`` tasks, or None."""
        conn = min(self._conns, key=lambda c: len(self._tasks[c]) + (c in self._held))
        return conn if len(self._tasks[conn]) < depth and conn not in self._held else None

    def submit(self, conn: Connection, function: Callable[[T], Any], argument: T, tag: Any) -> None:
        """Give ``function(argument)`` to the worker ``conn``; :meth:`collect` returns it with ``tag``."""
        data = forked.dumps((function, argument), -1)  # the highest protocol
        if self._tasks[conn] and len(data) > _room(conn):
            self._held[conn] = data  # sent when the task it runs has ended: a full pipe would block
        else:
            self._send(conn, data)
        self._tasks[conn].append(tag)

    def _send(self, conn: Connection, data: bytes) -> None:
        try:
            conn.send_bytes(data)
        except OSError:  # the worker is gone (a broken pipe)
            self._gone(conn)

    def collect(self, timeout: Optional[float]) -> list[tuple[Any, Any]]:
        """(tag, result) of the tasks finished within ``timeout`` seconds (None: at least one)."""
        finished = []
        for conn in self._wait([c for c in self._conns if self._tasks[c]], timeout):
            tag = self._tasks[conn].popleft()
            result = self._reply(conn)
            held = self._held.pop(conn, None)
            if held is not None:
                self._send(conn, held)
            finished.append((tag, result))
        return finished

    def _reply(self, conn: Connection) -> Any:
        try:
            reply = conn.recv()
        except (EOFError, OSError):
            self._gone(conn)
        if reply[0]:
            return reply[1]
        error = reply[1]
        if isinstance(error, (RougeError, MemoryError)):
            raise error
        raise error from RuntimeError(f"in a worker process:\n{reply[2]}")

    def _gone(self, conn: Connection) -> NoReturn:
        process = self._processes[self._conns.index(conn)]
        process.join(1)
        raise RougeError(_stopped(process)) from None

    def close(self) -> None:
        """Stop every worker now (an idle one would stop by itself once its pipe closes).

        Ctrl-C and SIGTERM wait until every worker is stopped (the run then ends as they ask).
        """
        self._watching = False
        blocking = hasattr(signal, "pthread_sigmask")
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS) if blocking else None
        try:
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
            if self._sigchld is not None:
                signal.signal(signal.SIGCHLD, self._sigchld)
                self._sigchld = None
        finally:
            if blocking:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _room_for_workers() -> int:
    """How many workers the descriptors allow, each process keeping :data:`_SPARE_DESCRIPTORS`
    free: this one holds two per worker, and a worker its own two beside stdin, stdout, stderr
    (any number where the system tells neither its limit nor the descriptors open)."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        open_now = len(os.listdir("/proc/self/fd")) - 1  # the listing's own
    except (ImportError, OSError):
        return max_workers()
    if limit == resource.RLIM_INFINITY:
        return max_workers()
    if limit < 3 + 2 + _SPARE_DESCRIPTORS:
        return 0
    return max(0, (limit - open_now - 2 - _SPARE_DESCRIPTORS) // 2)  # 2: the child's ends, until forked


def _stopped(process: Any) -> str:
    """The run's error where a worker has ended."""
    return f"a worker process stopped ({_how(process)})"


def _how(process: Any) -> str:
    if process.is_alive():
        return "still running"
    exitcode = process.exitcode
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
    return SummaryFile(*value) if type(value) is tuple else value  # type: ignore[no-any-return]


def _score(job: tuple[Options, list[Packed], list[str]]) -> Grouped | RougeError:
    """A worker's task: :func:`_scored` of some evals, with the worker's own scorer."""
    global _scorer
    options, packed, peers = job
    try:
        if _scorer is None:
            _scorer = Scorer(options)
    except RougeError as error:
        return error
    return _scored(options, _scorer, list(map(_unpacked, packed)), peers)


def _scored(options: Options, scorer: Scorer, evals: list[Eval], peers: list[str]) -> Grouped | RougeError:
    """The rows of every peer and metric in some evals, whose models must exist (an error is
    returned, not raised: a single process then names the first one)."""
    try:
        check_models(evals, peers, scorer.corpus.exists)
        return score_evals(options, scorer, metric_plan(options), evals, peers)
    except RougeError as error:
        return error


def _summarize(job: tuple[Options, list[RowTable]]) -> list[Union[Summary, Counts]]:
    """Averages and intervals of some (peer, metric) instance tables (only these go back)."""
    options, tables = job
    return [table_summary(options, rows) for rows in tables]


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


class _Failed(Exception):
    """The evaluation met an error (not the workers): a single process names the first one."""


class _Evals:
    """The evals of a run as they become known, each handed out once, in the configuration's order.

    An XML configuration is read a few children of its root at a time
    (:meth:`read`); any other is known at once.
    """

    def __init__(self, options: Options, config: Optional[EvalConfig]) -> None:
        self._system_id = None if options.all_systems else options.system_peer_id
        self._stream: Optional[XmlEvalStream] = None
        self._pending: deque[tuple[Union[Eval, XmlEval], int]] = deque()  # and its pairs then
        self._config = config
        if config is None and options.hypothesis_path is None and options.file_list_format is None:
            if options.config_path is not None:
                self._stream = XmlEvalStream(options.config_path)
        if self._stream is None:
            self._config = config = config if config is not None else load_config(options)
        self.taken: list[Eval] = []  # in the configuration's order
        self._handed: set[str] = set()
        self.pending_pairs = 0
        for ev in config.evals if config is not None else ():
            self._add(ev)

    @property
    def finished(self) -> bool:
        """Whether every eval is known."""
        return self._stream is None or self._stream.finished

    @property
    def pending_count(self) -> int:
        """How many evals are known and not handed out."""
        return len(self._pending)

    @property
    def done(self) -> bool:
        """Whether every eval is known and handed out."""
        return self.finished and not self._pending

    def read(self, steps: int) -> None:
        """Read a few more children of the XML's root."""
        stream = self._stream
        if stream is None or stream.finished:
            return
        for _ in range(steps):
            if not stream.step():
                break
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

    def chunk(self, parts: int, most: int = _MAX_PAIRS) -> tuple[list[Eval], list[str], int]:
        """The next evals to hand out, their evaluated peers and their (peer, model) pairs: none
        while too few are known.

        While the configuration is read, chunks of about :data:`_READING_PAIRS`;
        then one of ``parts`` parts of what is left (up to ``most`` pairs), smaller and smaller.
        """
        if self.finished:
            share = math.ceil(self.pending_pairs / parts)
            pairs = min(most, max(1, share))
        elif self.pending_pairs >= _READING_PAIRS:
            pairs = _READING_PAIRS
        else:
            return [], [], 0
        chunk: list[Eval] = []
        found = 0
        while self._pending and found < pairs:
            entry, counted = self._pending.popleft()
            self.pending_pairs -= counted
            if isinstance(entry, XmlEval):
                ev = entry.documents()
                counted = self._pairs(ev)  # what the XML gave it since, and its models by ID
            else:
                ev = entry
            self.taken.append(ev)
            self._handed.add(ev.eval_id)
            if counted:
                chunk.append(ev)
                found += counted
        if self._system_id is not None:
            return chunk, [self._system_id], found
        return chunk, sorted({peer_id for ev in chunk for peer_id in ev.peers}), found

    def config(self) -> EvalConfig:
        """The whole configuration, once every eval is known and taken."""
        if self._config is not None:
            return self._config
        assert self._stream is not None and self._stream.finished and not self._pending
        return EvalConfig(self.taken, self._stream.peer_ids)

    def whole(self) -> EvalConfig:
        """The whole configuration, read to its end now if it is not yet: a single process runs on
        it without reading a pipe or standard input again."""
        if self._stream is not None:
            self.restart()
        assert self._config is not None
        return self._config

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


def _score_all(
    pool: _Workers, scorer: Scorer, options: Options, evals: _Evals, progress: Optional[ProgressFn]
) -> Grouped:
    """The rows of every eval, scored as the evals become known by the workers and, once the
    configuration is read, by this process too."""
    grouped: Grouped = {}
    processes = pool.count + 1
    given: dict[int, tuple[int, int]] = {}  # each task given out: its evals and (peer, model) pairs
    handed = done = 0

    def add(count: int, part: Grouped | RougeError) -> None:
        nonlocal done
        if isinstance(part, RougeError):
            raise _Failed
        merge_rows(grouped, part)
        done += count
        if progress is not None:
            progress("scoring", done, done + sum(n for n, _ in given.values()) + evals.pending_count)

    def returned(tag: int, part: Grouped | RougeError) -> None:
        add(given.pop(tag)[0], part)

    while True:
        # An error in the configuration is the first a single process meets: it is raised as it is.
        evals.read(1 if pool.free(1) is not None else _STEPS_PER_READ)  # a worker waits for work
        finished = pool.collect(0)
        while finished:  # every reply in: each frees room for a task
            for tag, part in finished:
                returned(tag, part)
            finished = pool.collect(0)
        while True:  # each worker runs a task and has the next one waiting
            conn = pool.free(2)
            if conn is None:
                break
            load = pool.load(conn)
            holds = sum(given[t][1] for t in pool.tags(conn))  # the pairs the worker has to score
            if load and evals.finished and evals.pending_pairs < 2 * holds:
                break  # near the end, a task waiting in a worker would leave this process idle
            # A task that waits behind another is smaller: at the end, none is left holding much.
            chunk, peers, chunk_pairs = evals.chunk(2 * processes * (1 + load))
            if not chunk:
                break
            pool.submit(conn, _score, (options, [_packed(ev) for ev in chunk], peers), handed)
            given[handed] = (len(chunk), chunk_pairs)
            handed += 1
        if not evals.finished:
            continue
        # A small share here: this process is back to feed the workers before they run dry.
        chunk, peers, _ = evals.chunk(4 * processes, _READING_PAIRS)
        if chunk:
            add(len(chunk), _scored(options, scorer, chunk, peers))
        elif not pool.busy:
            return grouped
        else:
            for tag, part in pool.collect(None):
                returned(tag, part)


def _summarized(
    pool: _Workers,
    options: Options,
    plan: list[Metric],
    tables: list[tuple[str, int, RowTable]],
    progress: Optional[ProgressFn],
) -> list[MetricResult]:
    """The results of the tables, in their order: a share to each worker, the last one here."""
    shares = _shares([rows for _, _, rows in tables], pool.count + 1)
    for k, share in enumerate(shares[:-1]):
        conn = pool.free(1)
        assert conn is not None
        pool.submit(conn, _summarize, (options, share), k)
    summaries: list[list[Union[Summary, Counts]]] = [[] for _ in shares]
    done = 0

    def collect(timeout: Optional[float]) -> None:
        nonlocal done
        for k, part in pool.collect(timeout):
            summaries[k] = part
            done += len(part)
            if progress is not None:
                progress("bootstrap", done, len(tables))

    for rows in shares[-1]:
        summaries[-1].append(table_summary(options, rows))
        done += 1
        if progress is not None:
            progress("bootstrap", done, len(tables))
        collect(0)  # a worker that ended is an error now (off the main thread, SIGCHLD tells nothing)
    while pool.busy:
        collect(None)
    summed = [summary for part in summaries for summary in part]
    return [
        metric_result(plan[index], peer_id, rows, summary)
        for (peer_id, index, rows), summary in zip(tables, summed)
    ]


def evaluate_parallel(
    options: Options, config: Optional[EvalConfig] = None, progress: Optional[ProgressFn] = None
) -> Report:
    """Same report as :func:`evaluate`, computed by ``options.jobs`` processes (``progress`` alike)."""
    plan = metric_plan(options)
    single = replace(options, jobs=1)
    # -v prints every instance's texts in the Perl's walk order: one process.
    if not plan or options.jobs <= 1 or options.verbose or (options.stem and options.stem_models_only):
        return evaluate(single, config, progress)
    evals = _Evals(single, config)  # read first, as a single process reads it: its errors come first
    try:
        check_resamples(options)
        scorer = Scorer(single)  # the data files are read once, before the workers are forked
    except RougeError:
        return evaluate(single, evals.whole(), progress)  # the error a single process meets first
    pool: Optional[_Workers] = None
    try:
        try:
            pool = _Workers(min(options.jobs, max_workers()) - 1, scorer)  # and this process
            if not pool.count:  # no descriptor or process left for a worker
                pool.close()
                return evaluate(single, evals.whole(), progress)
            return _evaluated(pool, scorer, options, plan, evals, progress)
        finally:
            if pool is not None:
                pool.close()
    except _WorkerStopped as stopped:
        if pool is not None:
            pool.close()
        if isinstance(stopped.__context__, BaseException) and not isinstance(stopped.__context__, Exception):
            raise stopped.__context__ from None  # Ctrl-C or SIGTERM, which stopped the worker too
        raise RougeError(str(stopped)) from None


def _evaluated(
    pool: _Workers,
    scorer: Scorer,
    options: Options,
    plan: list[Metric],
    evals: _Evals,
    progress: Optional[ProgressFn],
) -> Report:
    """The report, scored and resampled by the workers and this process."""
    single = scorer.options
    try:
        try:
            grouped = _score_all(pool, scorer, single, evals, progress)
        except _Reopened:
            _drain(pool)
            evals.restart()
            scorer.corpus.clear()
            grouped = _score_all(pool, scorer, single, evals, progress)
    except _Failed:
        pool.close()
        return evaluate(single, evals.whole())  # the error a single process meets first
    whole = evals.config()
    report = Report(options)
    peers = evaluated_peers(options, whole)
    report.warnings = peer_warnings(whole, peers, options.shown_peer_id)
    tables = instance_tables(plan, peers, grouped)
    grouped.clear()
    report.results = _summarized(pool, single, plan, tables, progress)
    return report


def _drain(pool: _Workers) -> None:
    """Wait for every task given out, and drop what it returns."""
    while pool.busy:
        pool.collect(None)
