"""Each metric of a run between two summaries of one input: what QARLA compares
(:class:`~rouge155py.stats.qarla.QarlaInput`).

QARLA needs a metric's similarity of a summary to **one** model, of a model to another, and of
two peers: for each input, every (peer, model), (model, model) and (peer, peer) pair, the first
summary scored against the second as its only reference. ROUGE's variants are the run's, made by
the same options on those pairs in one run of their own (every pair an eval of one peer and
one model); a metric beside ROUGE scores the pairs as items. An error rate (lower is better) is
taken with its sign turned, so that higher is more similar for every metric.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np

from ..errors import UsageError
from ..inputs.config import Eval, EvalConfig
from ..other_metrics.evals import Summaries
from .qarla import QarlaInput, compared_pairs, input_of

if TYPE_CHECKING:
    from ..other_metrics.base import OtherMetric
    from ..settings.options import Options

__all__ = ["run_similarities"]


_PEER = "x"  # the one peer ID of the pairs' run


def _pairs(config: EvalConfig) -> list[tuple[int, int, int, Any, Any]]:
    """Every pair QARLA compares: (eval's place, the two summaries' places among its peers then
    its models, their documents)."""
    pairs = []
    for e, ev in enumerate(config.evals):
        summaries = [*(ev.peers[p] for p in sorted(ev.peers)), *ev.models]
        for i, j in compared_pairs(len(ev.peers), len(ev.models)):
            pairs.append((e, i, j, summaries[i], summaries[j]))
    return pairs


def _rouge_values(options: Options, pairs: Sequence[tuple[Any, ...]], measure: str) -> dict[str, np.ndarray]:
    """Each ROUGE variant of the run's options on every pair (one eval each), in order."""
    from ..run.evaluate import evaluate
    from .correlation import report_variants

    evals = [Eval(str(k), {_PEER: first}, [second]) for k, (*_, first, second) in enumerate(pairs)]
    single = replace(options, all_systems=True, system_id=None, jobs=1)
    report = evaluate(single, EvalConfig(evals, {_PEER}))
    found = {}
    for variant, systems in report_variants(report, [measure]).items():
        scores = systems.get(_PEER, {})
        found[variant] = np.array([scores.get(str(k), np.nan) for k in range(len(pairs))], dtype=np.float64)
    return found


def _other_values(metric: OtherMetric, pairs: Sequence[tuple[Any, ...]], summaries: Summaries) -> np.ndarray:
    """A metric beside ROUGE on every pair (an item each)."""
    items = [summaries.item(str(k), first, [second]) for k, (*_, first, second) in enumerate(pairs)]
    values = metric.item_scores(metric.counts(items))
    return values if metric.higher_is_better else -values


def run_similarities(
    options: Options,
    config: EvalConfig,
    measure: str = "f",
    others: Sequence[tuple[str, OtherMetric]] = (),
    summaries: Optional[Summaries] = None,
) -> tuple[list[str], list[QarlaInput]]:
    """The metrics' names (ROUGE's variants of the run, then ``others``' labels) and each input's
    similarities (see the module); peers are named as ``options`` show them; ``summaries``: the
    reader of the run's other analyses (``--metrics``), if any."""
    if options.selection.reshapes:
        raise UsageError("QARLA compares the models themselves: not with models, drop_models or jackknife")
    pairs = _pairs(config)
    values = _rouge_values(options, pairs, measure)
    read = summaries if summaries is not None else Summaries()
    for label, metric in others:
        values[label] = _other_values(metric, pairs, read)
    names = list(values)
    stacked = np.stack([values[name] for name in names]) if names else np.zeros((0, len(pairs)))
    sizes = [len(ev.peers) + len(ev.models) for ev in config.evals]
    arrays = [np.full((len(names), n, n), np.nan) for n in sizes]
    for k, (e, i, j, *_) in enumerate(pairs):
        arrays[e][:, i, j] = stacked[:, k]
    return names, [
        input_of(ev.eval_id, [options.shown_peer_id(p) for p in sorted(ev.peers)], found, ev.model_ids)
        for ev, found in zip(config.evals, arrays)
    ]
