"""``-j N``: N worker processes compute the report a single process prints.

Two rounds over one pool. First the evals are cut into small consecutive
chunks that the workers take as they become free: each summary file then
belongs to one worker, which reads and tokenizes it once, and nothing is read
twice. Then each (peer, metric) instance table is resampled and summarized,
again in small groups. The parent checks the models and collects the warnings
in the Perl's order beforehand, and joins the parts in that order, so the
report, warnings included, is the one a single process prints. With ``-m``
and ``-M`` together the Perl's stemming depends on the order in which all
peers are processed, so that combination runs in one process.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from dataclasses import replace
from typing import Optional, TypeVar

from .config import Eval, EvalConfig
from .errors import RougeError
from .evaluation import (
    MetricResult,
    Report,
    Row,
    Scorer,
    check_evals,
    check_resamples,
    evaluate,
    evaluated_peers,
    group_rows,
    load_config,
    metric_plan,
    plan_tasks,
    summarize_metric,
)
from .options import Options
from .resources import load_data

__all__ = ["evaluate_parallel"]

T = TypeVar("T")
_CHUNKS_PER_JOB = 16  # more, smaller chunks: the workers finish closer together
_scorer: Optional[Scorer] = None  # one per worker process: its file cache serves all its chunks

Grouped = dict[tuple[str, int], dict[str, Row]]


def _chunks(items: list[T], workers: int) -> list[list[T]]:
    size = max(1, math.ceil(len(items) / (workers * _CHUNKS_PER_JOB)))
    return [items[start : start + size] for start in range(0, len(items), size)]


def _score_evals(job: tuple[Options, list[Eval], list[str]]) -> Grouped | RougeError:
    """The rows of every peer and metric in some evals (an error is returned, not raised)."""
    global _scorer
    options, evals, peers = job
    try:
        if _scorer is None:
            _scorer = Scorer(options)
        plan = metric_plan(options)
        tasks, _ = plan_tasks(options, EvalConfig(evals, set(peers)), plan, _scorer.corpus.exists, peers)
        return group_rows(tasks, _scorer.rows(plan, tasks))
    except RougeError as error:
        return error


def _summarize(job: tuple[Options, list[tuple[str, int, dict[str, Row]]]]) -> list[MetricResult]:
    """Averages and intervals of some (peer, metric) instance tables."""
    options, tables = job
    plan = metric_plan(options)
    return [summarize_metric(options, plan[index], peer_id, rows) for peer_id, index, rows in tables]


def evaluate_parallel(options: Options) -> Report:
    """Same report as :func:`evaluate`, computed by ``options.jobs`` processes."""
    config = load_config(options)
    plan = metric_plan(options)
    peers = evaluated_peers(options, config)
    single = replace(options, jobs=1)
    if options.jobs <= 1 or not plan or (options.stem and options.stem_models_only):
        return evaluate(single, config)
    check_resamples(options)
    load_data(options.data_dir)  # read once, before the workers are forked
    report = Report(options)
    _, report.warnings = check_evals(config, peers, os.path.exists)
    chosen = set(peers)
    evals = [ev for ev in config.evals if not chosen.isdisjoint(ev.peers)]
    workers = min(options.jobs, len(evals))
    if workers <= 1:
        return evaluate(single, config)
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(workers) as pool:
        grouped: Grouped = {}
        for part in pool.imap(_score_evals, [(single, chunk, peers) for chunk in _chunks(evals, workers)]):
            if isinstance(part, RougeError):
                break
            for key, rows in part.items():  # an instance ID belongs to one eval: no overlap
                grouped.setdefault(key, {}).update(rows)
        else:
            tables = [
                (peer_id, index, grouped.get((peer_id, index), {}))
                for peer_id in peers
                for index in range(len(plan))
            ]
            for results in pool.imap(_summarize, [(single, chunk) for chunk in _chunks(tables, workers)]):
                report.results.extend(results)
            return report
    # A file could not be read or scored: the error a single process meets first is the one to give.
    return evaluate(single, config)
