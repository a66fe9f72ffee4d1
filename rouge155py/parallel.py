"""``-j N``: the peers are split among N worker processes; the output is the same.

Each process (this one and N - 1 workers) evaluates a contiguous group of peers
with its own file cache and returns its part of the report; the parts are joined in peer order, so the
report, warnings included, is the one a single process prints. With ``-m`` and
``-M`` together the Perl's stemming depends on the order in which all peers are
processed, so that combination runs in one process.
"""

from __future__ import annotations

import multiprocessing
from dataclasses import replace

from .config import EvalConfig
from .evaluation import Report, evaluate, evaluated_peers, load_config, metric_plan
from .options import Options
from .resources import load_data

__all__ = ["evaluate_parallel"]


def _worker(job: tuple[Options, EvalConfig, list[str]]) -> Report:
    options, config, peers = job
    return evaluate(options, config, peers)


def evaluate_parallel(options: Options) -> Report:
    """Same report as :func:`evaluate`, computed by ``options.jobs`` processes."""
    config = load_config(options)
    peers = evaluated_peers(options, config)
    single = replace(options, jobs=1)
    workers = min(options.jobs, len(peers))
    if workers <= 1 or not metric_plan(options) or (options.stem and options.stem_models_only):
        return evaluate(single, config)
    size, extra = divmod(len(peers), workers)
    groups, start = [], 0
    for k in range(workers):
        end = start + size + (1 if k < extra else 0)
        groups.append(peers[start:end])
        start = end
    load_data(options.data_dir)  # read once, before the workers are forked
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(workers - 1) as pool:
        # This process takes the first group while the workers take the others.
        pending = pool.map_async(_worker, [(single, config, group) for group in groups[1:]])
        parts = [evaluate(single, config, groups[0]), *pending.get()]
    report = Report(options)
    for part in parts:
        report.results.extend(part.results)
        report.warnings.extend(part.warnings)
    return report
