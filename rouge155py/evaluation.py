"""The orchestrator: the only module that calls every stage.

options -> config -> planning -> engine (corpus, metrics, scoring, bootstrap)
-> :class:`~rouge155py.results.Report`. Peers, metrics and evals are visited
in the Perl's order, which matters for one of its quirks (``-m`` with ``-M``).
"""

from __future__ import annotations

from typing import Optional

from .config import EvalConfig, read_file_list, read_xml_config
from .engine import Grouped, Scorer, merge_rows, score_evals, summarized
from .errors import UsageError
from .metrics.plan import metric_plan
from .options import Options, perl_string
from .planning import check_evals, check_resamples, evaluated_peers, scored_evals
from .progress import ProgressFn
from .report import Report
from .texts import read_aligned_files

__all__ = ["evaluate", "load_config"]


def load_config(options: Options) -> EvalConfig:
    """The evals the options name: line-aligned files, an XML configuration or a ``-z`` file list."""
    if options.hypothesis_path is not None:
        return read_aligned_files(
            options.hypothesis_path, options.reference_paths, options.sentence_separator
        )
    if options.config_path is None:
        raise UsageError("the options name no configuration: pass the evals to evaluate()")
    if options.file_list_format is not None:
        peer_id = perl_string(options.file_list_peer_id)
        return read_file_list(options.config_path, options.file_list_format, peer_id)
    return read_xml_config(options.config_path)


def evaluate(
    options: Options, config: Optional[EvalConfig] = None, progress: Optional[ProgressFn] = None
) -> Report:
    """Run the evaluation the options describe (over ``config`` when given), in one process.

    ``progress`` is told of each chunk of evals scored and each table resampled.
    """
    report = Report(options)
    plan = metric_plan(options)
    if config is None:
        config = load_config(options)
    if not plan:
        return report
    check_resamples(options)
    peers = evaluated_peers(options, config)
    scorer = Scorer(options)
    report.warnings = check_evals(config, peers, scorer.corpus.exists, options.shown_peer_id)
    if options.verbose:
        from .verbose import verbose_traces

        report.traces = verbose_traces(options, config, plan, peers)
    grouped: Grouped = {}
    chunks = scored_evals(options, config, peers)
    del config  # each chunk of evals is dropped once scored (where the caller keeps no reference)
    total, done = sum(map(len, chunks)), 0
    chunks.reverse()
    while chunks:
        evals = chunks.pop()
        merge_rows(grouped, score_evals(options, scorer, plan, evals, peers))
        done += len(evals)
        del evals
        if progress is not None:
            progress("scoring", done, total)
    count = len(peers) * len(plan)
    for result in summarized(options, plan, peers, grouped):
        report.results.append(result)
        if progress is not None:
            progress("bootstrap", len(report.results), count)
    return report
