"""``-j N``: the peers are shared out among N worker processes; the output is the same.

The peers are cut into small consecutive groups that the workers take as they
become free (a slow processor then costs little); each worker keeps one file
cache for all its groups. The parts are joined in peer order, so the report,
warnings included, is the one a single process prints. With ``-m`` and ``-M``
together the Perl's stemming depends on the order in which all peers are
processed, so that combination runs in one process.
"""

from __future__ import annotations

import math
import multiprocessing
from dataclasses import replace
from typing import Optional

from .config import EvalConfig
from .evaluation import Report, Scorer, evaluate, evaluated_peers, load_config, metric_plan
from .options import Options
from .resources import load_data

__all__ = ["evaluate_parallel"]

_GROUPS_PER_JOB = 8
_scorer: Optional[Scorer] = None  # one per worker process, kept between its groups


def _worker(job: tuple[Options, EvalConfig, list[str]]) -> Report:
    global _scorer
    options, config, peers = job
    if _scorer is None:
        _scorer = Scorer(options)
    return evaluate(options, config, peers, _scorer)


def evaluate_parallel(options: Options) -> Report:
    """Same report as :func:`evaluate`, computed by ``options.jobs`` processes."""
    config = load_config(options)
    peers = evaluated_peers(options, config)
    single = replace(options, jobs=1)
    workers = min(options.jobs, len(peers))
    if workers <= 1 or not metric_plan(options) or (options.stem and options.stem_models_only):
        return evaluate(single, config)
    size = math.ceil(len(peers) / (workers * _GROUPS_PER_JOB))
    groups = [peers[start : start + size] for start in range(0, len(peers), size)]
    load_data(options.data_dir)  # read once, before the workers are forked
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(workers) as pool:
        parts = pool.map(_worker, [(single, config, group) for group in groups], chunksize=1)
    report = Report(options)
    for part in parts:
        report.results.extend(part.results)
        report.warnings.extend(part.warnings)
    return report
