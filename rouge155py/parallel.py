"""``-j N``: N processes (this one and N - 1 workers) run the two steps one process runs.

The executor of :func:`rouge155py.evaluation.evaluate` for ``-j``. A run whose
evals are known at the start (a plain XML configuration, read at once, or any
other source) and hold fewer than :data:`MIN_SHARED_PAIRS` (peer, model) pairs
is made in this process alone: workers would make it slower. Else the
workers (:mod:`rouge155py.workers`) start first. The evals are handed out in
chunks as they become known: this process reads an XML configuration that the
parser reads one child of the root at a time while the workers score the evals read before (step 1,
:func:`~rouge155py.batches.score_batch`); once it has read the file, it scores
chunks too, between two looks at the workers. Each summary file is read and
tokenized by one process only. A worker runs one task and has the next waiting
in its pipe, so it never waits for this process; chunks are a few hundred
(peer, model) pairs while the configuration is read, then smaller and smaller
(and smaller still here and for a task that waits), so that all finish close
together. An eval that the XML opens again after it was handed out (the Perl
merges the two) sends the run back to the start, on the whole configuration.
Step 2 (:func:`~rouge155py.batches.summarize_batches`) merges the batches and
gives a share of the (peer, metric) tables to each process to resample. The
batches keep any error in the Perl's order, so the report, warnings and errors
included, is the one a single process makes. The configuration is read once,
whatever happens (a pipe or standard input gives its bytes only once).
"""

from __future__ import annotations

import math
import os
from collections import deque
from typing import TYPE_CHECKING, Any, Optional, Union

from .batches import CHUNK_EVALS, EvalItem, ScoredBatch, score_batch, score_in_chunks, summaries_here
from .config import Eval, EvalConfig, XmlEval, XmlEvalStream
from .engine import RowTable
from .errors import RougeError, UsageError
from .progress import ProgressFn
from .readers.document import Document, SummaryFile
from .results import Counts, Summary
from .settings.options import Options
from .workers import Workers, WorkerStopped, max_workers

if TYPE_CHECKING:
    from .evaluation import Evals

__all__ = ["WorkerRun"]

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
    return score_batch([EvalItem(position, _unpacked(ev)) for position, ev in packed], options)


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
        self._pool: Optional[Workers] = None
        self._evals: Optional[_Evals] = None
        self.alone = False  # too few pairs to share: this process makes the run as without -j

    def open(self, options: Options, config: Optional[EvalConfig]) -> _Evals:
        """The run's evals: an XML configuration is read as the workers score (see the module);
        one that is read at once (a plain file), and any other, is known before they start."""
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
        self._pool = Workers(min(self.jobs, max_workers()) - 1)
        self.processes = self._pool.count + 1

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
                _drain(self._pool)
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
    pool: Workers, options: Options, evals: _Evals, progress: Optional[ProgressFn]
) -> list[ScoredBatch]:
    """Step 1 on every eval as the evals become known, by the workers and, once the
    configuration is read, by this process too; each batch merged into one as it comes."""
    batches: list[ScoredBatch] = []
    processes = pool.count + 1
    given: dict[int, tuple[int, int]] = {}  # each task given out: its evals and (peer, model) pairs
    handed = done = 0

    def add(count: int, batch: ScoredBatch) -> None:
        nonlocal done
        if batches:
            batches[0].extend(batch)  # the rows grow in place, not copied again at the end
        else:
            batches.append(batch)
        done += count
        if progress is not None:
            progress("scoring", done, done + sum(n for n, _ in given.values()) + evals.pending_count)

    while True:
        # An error in the configuration is the first a single process meets: it is raised as it is.
        evals.read(1 if pool.free(1) is not None else _STEPS_PER_READ)  # a worker waits for work
        finished = pool.collect(0)
        while finished:  # every reply in: each frees room for a task
            for tag, batch in finished:
                add(given.pop(tag)[0], batch)
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
            chunk, chunk_pairs = evals.chunk(2 * processes * (1 + load))
            if not chunk:
                break
            pool.submit(conn, _score, (options, [(k, _packed(ev)) for k, ev in chunk]), handed)
            given[handed] = (len(chunk), chunk_pairs)
            handed += 1
        if not evals.finished:
            continue
        # A small share here: this process is back to feed the workers before they run dry.
        chunk, _ = evals.chunk(4 * processes, _READING_PAIRS)
        if chunk:
            add(len(chunk), score_batch([EvalItem(k, ev) for k, ev in chunk], options))
        elif not pool.busy:
            return batches
        else:
            for tag, batch in pool.collect(None):
                add(given.pop(tag)[0], batch)


def _summarized(
    pool: Workers, options: Options, tables: list[RowTable], progress: Optional[ProgressFn]
) -> list[Union[Summary, Counts]]:
    """The bootstrap of the tables, in their order: a share to each worker, the last one here."""
    shares = _shares(tables, pool.count + 1)
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
        summaries[-1].extend(summaries_here([rows], options))
        done += 1
        if progress is not None:
            progress("bootstrap", done, len(tables))
        collect(0)  # a worker that ended is an error now (off the main thread, SIGCHLD tells nothing)
    while pool.busy:
        collect(None)
    return [summary for part in summaries for summary in part]


def _drain(pool: Workers) -> None:
    """Wait for every task given out, and drop what it returns."""
    while pool.busy:
        pool.collect(None)
