"""The front door: every surface's run, one sequence, on the executor chosen here.

The command line, :class:`~rouge155py.Rouge`, :func:`~rouge155py.score`,
:func:`~rouge155py.evaluate_args` and :class:`~rouge155py.Rouge155` call
:func:`evaluate`. The sequence: the evals (as the options' source gives them,
or as given) -> the checks the Perl makes before it scores -> step 1,
:func:`~rouge155py.batches.score_batch`, on chunks of evals -> step 2,
:func:`~rouge155py.batches.summarize_batches` -> the report. The executor runs
the steps: this process, or ``-j`` workers (:mod:`rouge155py.parallel`); the
batch API and a Dask cluster (:mod:`rouge155py.dask`) run the same two steps.
Peers, metrics and evals are visited in the Perl's order, which matters for
one of its quirks (``-m`` with ``-M``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterator, Optional, Protocol, Union

from ._kernel import notice_missing_kernel
from .batches import (
    CHUNK_EVALS,
    TEXT_CHUNK,
    EvalItem,
    ScoredBatch,
    batch_scorer,
    score_batch,
    score_in_chunks,
    score_text_chunks,
    score_texts,
    summaries_here,
    summarize_batches,
)
from .collector import paused_gc
from .config import Eval, EvalConfig, TextConfig
from .engine import RowTable, table_summaries
from .errors import RougeError, UsageError
from .hints import SAMPLED_EVALS, unread_script_hint
from .metrics.batch import kernel_applies
from .metrics.plan import metric_plan
from .options import Options, parse_command_line
from .planning import check_resamples, first_missing_model
from .progress import ProgressFn
from .readers import Document
from .report import Report
from .results import Counts, Summary

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

__all__ = [
    "Evals",
    "Executor",
    "ThisProcess",
    "Threads",
    "evaluate",
    "evaluate_args",
    "executor_for",
    "load_config",
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


def load_config(options: Options) -> EvalConfig:
    """The evals the options' source names (line-aligned files, JSONL, XML, a ``-z`` list)."""
    source = options.source
    if source is None:
        raise UsageError("the options name no configuration: pass the evals to evaluate()")
    return source.read()


class _Read:
    """A configuration read whole; ``owned`` where the run read it (its evals may then be
    dropped as they are scored: a caller's configuration is left as it was given)."""

    def __init__(self, config: EvalConfig, owned: bool) -> None:
        self.config, self.owned = config, owned

    def whole(self) -> EvalConfig:
        return self.config

    def first(self, count: int) -> list[Eval]:
        return self.config.first(count)


class ThisProcess:
    """The executor of one process: step 1 on consecutive chunks of evals, step 2 here."""

    processes = 1

    def open(self, options: Options, config: Optional[EvalConfig]) -> Evals:
        if config is not None:
            return _Read(config, owned=False)
        return _Read(load_config(options), owned=True)

    def start(self) -> None:
        """Nothing to start."""

    def score(self, evals: Evals, options: Options, progress: Optional[ProgressFn]) -> list[ScoredBatch]:
        """One batch of every eval, scored a chunk at a time and merged as it goes
        (:func:`~rouge155py.batches.score_in_chunks`); the evals are dropped as they are scored
        where the run read them."""
        config = evals.whole()
        if isinstance(config, TextConfig):
            return score_text_chunks(config, options, progress, TEXT_CHUNK)
        owned = isinstance(evals, _Read) and evals.owned
        return score_in_chunks(config.evals, options, progress, CHUNK_EVALS, owned)

    summaries = staticmethod(summaries_here)

    def close(self) -> None:
        """Nothing to stop."""


class Threads(ThisProcess):
    """``jobs`` threads of this process, for evals given in memory that the C kernel scores: it
    lets the GIL go while it scores a chunk, and no text is copied to another process. One
    pool runs both steps."""

    def __init__(self, jobs: int) -> None:
        from .workers import max_workers  # -j's cap: more threads only compete for the CPUs

        self.jobs = min(jobs, max_workers())
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
                    score_batch,
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

    def summaries(
        self, tables: list[RowTable], options: Options, progress: Optional[ProgressFn] = None
    ) -> list[Union[Summary, Counts]]:
        """The bootstrap of each table, by the threads (the kernel's sums let the GIL go)."""
        out = table_summaries(options.scoring, options.resampling, tables, self._threads(self.jobs))
        if progress is not None:
            for done in range(1, len(tables) + 1):
                progress("bootstrap", done, len(tables))
        return out


def executor_for(options: Options, in_memory: bool = False, columns: bool = False) -> Executor:
    """The one choice of executor: under ``jobs``/``-j N``, threads for evals given in memory that
    the C kernel scores (measured faster than processes, which are sent the texts), else
    workers; without it (and under ``-v``, which prints every instance's texts in the Perl's
    walk order) this process. ``columns``: the evals are texts held by columns, which the kernel
    scores under ``multi_ref="best-f"`` too."""
    if options.jobs > 1 and not options.verbose:
        plan = metric_plan(options.metrics)
        if in_memory and kernel_applies(options.text, options.scoring, plan, columns):
            return Threads(options.jobs)
        from .parallel import WorkerRun

        return WorkerRun(options.jobs)
    return ThisProcess()


def evaluate(
    options: Options, config: Optional[EvalConfig] = None, progress: Optional[ProgressFn] = None
) -> Report:
    """Run the evaluation the options describe (over ``config`` when given) on the executor they
    choose; ``progress`` is told of each chunk of evals scored and each table resampled."""
    notice_missing_kernel()
    with paused_gc():  # the run makes many objects and no garbage cycle worth a collection
        plan = metric_plan(options.metrics)
        executor = executor_for(options, config is not None, isinstance(config, TextConfig))
        try:
            evals = executor.open(options, config)  # a configuration's errors come first, as in the Perl
            del config  # each chunk of evals is dropped once scored (where the caller keeps no reference)
            if not plan:
                evals.whole()
                return Report(options)
            try:
                check_resamples(options.counting, options.resampling)
                # The data files, read once, before any worker starts.
                scorer = batch_scorer(options, fresh=True)
                for metric in plan:
                    metric.prepare(scorer.corpus, options.text.stem)
            except RougeError:
                evals.whole()  # the configuration is read first, and its error is the first
                raise
            traced = None
            if options.verbose:
                traced = _verbose_traces(options, evals.whole(), scorer.corpus.exists)
            legacy_text = options.be_mode is None and not options.unicode_text
            hint = unread_script_hint(evals.first(SAMPLED_EVALS)) if legacy_text else None
            executor.start()
            batches = executor.score(evals, options, progress)
            whole = evals.whole()
            peer_ids, notes = whole.peer_ids, whole.notes
            del evals, whole
            try:
                report = summarize_batches(
                    _handed_over(batches), options, peer_ids, progress, executor.summaries
                )
            except RougeError as error:
                if error.partial is not None and traced is not None:
                    error.partial.traces = traced[0]  # down to the lines the Perl prints before it dies
                raise
            if traced is not None and traced[1] is not None:
                raise traced[1]
        finally:
            executor.close()
        report.traces = [] if traced is None else traced[0]
        report.notes = [*notes, hint] if hint is not None else notes
        report.processes = executor.processes
        return report


def _verbose_traces(
    options: Options, config: EvalConfig, exists: Callable[[Document], bool]
) -> tuple[list[list[str]], Optional[RougeError]]:
    """``-v``'s lines, and the error the Perl's walk meets, if any (a model that does not exist,
    which the Perl looks for before it reads: :func:`~rouge155py.verbose.verbose_traces`)."""
    from .verbose import verbose_traces

    peers = options.selection.evaluated(config.peer_ids)
    evals = config.evals
    return verbose_traces(
        options, config, metric_plan(options.metrics), peers, lambda k: first_missing_model(evals[k], exists)
    )


def evaluate_args(argv: list[str]) -> Report:
    """Evaluate a ROUGE-1.5.5.pl command line (without the program name), as the command does."""
    request = parse_command_line(argv)
    if request.options is None:
        raise UsageError("the command line asks for no evaluation")
    return evaluate(request.options)


def _handed_over(batches: list[ScoredBatch]) -> Iterator[ScoredBatch]:
    """The batches one by one, each let go as it is merged (its rows then live in one table)."""
    batches.reverse()
    while batches:
        yield batches.pop()
