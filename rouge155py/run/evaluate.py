"""The front door: every surface's run, one sequence, on the executor chosen here.

The command line, :class:`~rouge155py.Rouge`, :func:`~rouge155py.score`,
:func:`~rouge155py.evaluate_args` and :class:`~rouge155py.Rouge155` call
:func:`evaluate`. The sequence: the evals (as the options' source gives them,
or as given) -> the checks the Perl makes before it scores -> step 1,
:func:`~rouge155py.run.batches.score_batch`, on chunks of evals -> step 2,
:func:`~rouge155py.run.batches.summarize_batches` -> the report. The executor runs
the steps (:mod:`rouge155py.run.executors`): this process, threads, or ``-j`` workers;
the batch API and a Dask cluster (:mod:`rouge155py.dask`) run the same two steps.
Peers, metrics and evals are visited in the Perl's order, which matters for
one of its quirks (``-m`` with ``-M``).
"""

from __future__ import annotations

from typing import Iterator, Optional

from .._kernel import notice_missing_kernel
from ..errors import RougeError, UsageError
from ..inputs.config import EvalConfig, TextConfig
from ..metrics.base import Metric
from ..report import Report
from ..settings.argv import parse_command_line
from ..settings.options import Options
from ..text.corpus import Corpus
from ..text.hints import SAMPLED_EVALS, unread_script_hint
from .batches import ScoredBatch, batch_scorer, summarize
from .collector import paused_gc
from .executors import executor_for
from .plan import check_resamples, run_plan
from .progress import ProgressFn

__all__ = ["evaluate", "evaluate_args"]


def evaluate(
    options: Options, config: Optional[EvalConfig] = None, progress: Optional[ProgressFn] = None
) -> Report:
    """Run the evaluation the options describe (over ``config`` when given) on the executor they
    choose; ``progress`` is told of each chunk of evals scored and each table resampled."""
    notice_missing_kernel()
    with paused_gc():  # the run makes many objects and no garbage cycle worth a collection
        given = config is not None
        plan = run_plan(options, isinstance(config, TextConfig))
        executor = executor_for(options, plan, given)
        try:
            evals = executor.open(options, config)  # a configuration's errors come first, as in the Perl
            del config  # each chunk of evals is dropped once scored (where the caller keeps no reference)
            if not plan.metrics:
                evals.whole()
                return Report(options)
            try:
                check_resamples(options.counting, options.resampling)
                # The data files, read once, before any worker starts.
                scorer = batch_scorer(options, fresh=True)
                for metric in plan.metrics:
                    metric.prepare(scorer.corpus, options.text.stem)
            except RougeError:
                evals.whole()  # the configuration is read first, and its error is the first
                raise
            traced = None
            if options.verbose:
                traced = _verbose_traces(options, evals.whole(), plan.metrics, scorer.corpus)
            legacy_text = options.be_mode is None and not options.unicode_text
            hint = unread_script_hint(evals.first(SAMPLED_EVALS)) if legacy_text else None
            executor.start()
            batches = executor.score(evals, options, progress)
            if not any(len(batch.table) for batch in batches):  # nothing was scored
                if given or options.source is None:
                    raise UsageError("nothing to score: no eval (no prediction) was given")
                # The Perl's doors print what the Perl prints (nothing, or a -z list's zeros).
                hint = f"rouge155py: warning: {options.source.name}: no eval to score"
            whole = evals.whole()
            peer_ids, notes = whole.peer_ids, whole.notes
            del evals, whole
            try:
                report = summarize(
                    _handed_over(batches), options, plan.metrics, peer_ids, progress, executor.summaries
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
    options: Options, config: EvalConfig, plan: list[Metric], corpus: Corpus
) -> tuple[list[list[str]], Optional[RougeError]]:
    """``-v``'s lines, and the error the Perl's walk meets, if any (a model that does not exist,
    which the Perl looks for before it reads: :func:`~rouge155py.run.verbose.verbose_traces`)."""
    from .verbose import verbose_traces

    return verbose_traces(options, config, plan, options.selection.evaluated(config.peer_ids), corpus)


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
