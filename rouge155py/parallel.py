"""``-j N``: N worker processes compute the report a single process prints.

Two rounds over one pool. First the chunks of evals that a single process
scores one after the other, cut smaller, are taken by the workers as they
become free: each summary file is read and tokenized by one worker only.
Then each (peer, metric) instance table is resampled and summarized, again in
small groups. The parent checks the models and collects the warnings in the
Perl's order beforehand, and joins the parts in that order, so the report,
warnings included, is the one a single process prints. With ``-m`` and ``-M``
together the Perl's stemming depends on the order in which all peers are
processed, so that combination runs in one process.
"""

from __future__ import annotations

import gc
import math
import multiprocessing
from dataclasses import replace
from typing import Optional, TypeVar

from .config import Eval, EvalConfig
from .engine import Grouped, Scorer, instance_tables, merge_rows, score_evals, summarize_metric
from .errors import RougeError
from .evaluation import evaluate, load_config
from .metrics.plan import metric_plan
from .options import Options
from .planning import check_evals, check_resamples, evaluated_peers, scored_evals
from .report import Report
from .results import MetricResult, Row

__all__ = ["evaluate_parallel"]

T = TypeVar("T")
_CHUNKS_PER_JOB = 16  # more, smaller chunks: the workers finish closer together
_scorer: Optional[Scorer] = None  # one per worker process, kept between its chunks


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


def _summarize(job: tuple[Options, list[tuple[str, int, dict[str, Row]]]]) -> list[MetricResult]:
    """Averages and intervals of some (peer, metric) instance tables."""
    options, tables = job
    plan = metric_plan(options)
    return [summarize_metric(options, plan[index], peer_id, rows) for peer_id, index, rows in tables]


def _groups(items: list[T], count: int) -> list[list[T]]:
    size = max(1, math.ceil(len(items) / count))
    return [items[start : start + size] for start in range(0, len(items), size)]


def evaluate_parallel(options: Options, config: Optional[EvalConfig] = None) -> Report:
    """Same report as :func:`evaluate`, computed by ``options.jobs`` processes."""
    if config is None:
        config = load_config(options)
    plan = metric_plan(options)
    single = replace(options, jobs=1)
    if not plan or options.jobs <= 1:
        return evaluate(single, config)
    check_resamples(options)
    peers = evaluated_peers(options, config)
    scorer = Scorer(options)  # the data files are read once, before the workers are forked
    chunks = scored_evals(options, config, peers, options.jobs * _CHUNKS_PER_JOB)
    workers = min(options.jobs, len(chunks))
    if workers <= 1:
        return evaluate(single, config)
    report = Report(options)
    report.warnings = check_evals(config, peers, scorer.corpus.exists)
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    gc.freeze()  # the workers' collector leaves the inherited objects (and their pages) alone
    try:
        pool = context.Pool(workers)
    finally:
        gc.unfreeze()  # only in the workers: this process may live on (the Python API)
    with pool:
        grouped: Grouped = {}
        for part in pool.imap(_score, [(single, evals, peers) for evals in chunks]):
            if isinstance(part, RougeError):
                break
            merge_rows(grouped, part)
        else:
            tables = instance_tables(plan, peers, grouped)
            jobs = [(single, group) for group in _groups(tables, workers * _CHUNKS_PER_JOB)]
            for results in pool.imap(_summarize, jobs):
                report.results.extend(results)
            return report
    # A file could not be read or scored: the error a single process meets first is the one to give.
    return evaluate(single, config)
