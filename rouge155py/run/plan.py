"""Planning a run: which peers, which evals, which instances, in the Perl's order.

The Perl walks peers, then metrics, then evals; the order decides which model
is found missing first, the order of the missing-peer warnings, and (``-m``
with ``-M``) which instances are stemmed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Collection, Iterator, NamedTuple, Optional, Sequence

from ..errors import ComputeError, InputError
from ..inputs.config import Eval
from ..inputs.readers import Document
from ..metrics.base import Metric, Task
from ..metrics.batch import kernel_applies
from ..metrics.plan import metric_plan

if TYPE_CHECKING:
    from ..settings.options import Options
    from ..settings.stages import ResampleSettings
    from ..text.stage import TextSettings

__all__ = [
    "RunPlan",
    "check_resamples",
    "eval_chunks",
    "first_missing_model",
    "missing_model",
    "peer_warnings",
    "plan_tasks",
    "run_plan",
    "walk_tasks",
]

# Evals are scored in chunks naming about this many summary documents, whose tokens
# are then dropped: a bound on memory however many evals there are.
_CHUNK_FILES = 500


class RunPlan(NamedTuple):
    """What a run decides once, before it reads a file, and hands to each of its steps."""

    #: The metrics, in the report's order (:func:`~rouge155py.metrics.plan.metric_plan`).
    metrics: list[Metric]
    #: Whether the C kernel scores them (under ``jobs``, evals given in memory or read a chunk at
    #: a time are then scored on threads: :func:`~rouge155py.run.executors.executor_for`).
    kernel: bool


def run_plan(options: Options, columns: bool = False) -> RunPlan:
    """The plan of a run on these options; ``columns``: its evals are texts held by columns (see
    :func:`~rouge155py.metrics.batch.kernel_applies`)."""
    metrics = metric_plan(options.metrics)
    return RunPlan(metrics, kernel_applies(options.text, options.scoring, metrics, columns))


def check_resamples(counting: int, resampling: ResampleSettings) -> None:
    """``-r 0``: the Perl divides by zero before it reads any file (``-t 2`` draws none)."""
    if counting != 2 and resampling.resample_count == 0:
        raise ComputeError("the number of resamples (-r) must be positive (division by zero)")


def first_missing_model(ev: Eval, exists: Callable[[Document], bool]) -> Optional[str]:
    """The name of an eval's first model that does not exist (the Perl's ``-e`` test), or None."""
    return next((model.name for model in ev.models if not exists(model)), None)


def missing_model(name: str) -> InputError:
    """The Perl's error for a model summary that does not exist, met in its walk (peer, then eval)."""
    return InputError(f"Cannot find model summary: {name}")


def peer_warnings(
    peers: list[str],
    eval_ids: Sequence[str],
    peer_ids: Sequence[Collection[str]],
    shown: Callable[[str], str] = str,
) -> list[str]:
    """The Perl's warning for each evaluated peer (then eval k) where eval k has no summary of it;
    ``shown`` gives a peer ID as the warning names it (:meth:`PeerSelection.shown`)."""
    return [
        f"*ROUGE Warning: test instance for peer {shown(peer_id)} does not exist for evaluation {eval_id}"
        for peer_id in peers
        for eval_id, names in zip(eval_ids, peer_ids)
        if peer_id not in names
    ]


def plan_tasks(
    text: TextSettings,
    evals: list[Eval],
    plan: list[Metric],
    peers: list[str],
    stem_now: Optional[bool] = None,
) -> list[Task]:
    """Every task of some evals in the Perl's order (peer, metric, eval): see :func:`walk_tasks`."""
    return list(walk_tasks(text, evals, plan, peers, stem_now))


def walk_tasks(
    text: TextSettings,
    evals: list[Eval],
    plan: list[Metric],
    peers: list[str],
    stem_now: Optional[bool] = None,
) -> Iterator[Task]:
    """The tasks of some evals one by one, in the Perl's order (peer, metric, eval).

    ``-M`` stems models, and the Perl does it by switching ``-m`` on and then
    off for good: with ``-m`` too, peers stop being stemmed after the first
    model read that way. The order of this walk decides which tasks that is.
    Given ``stem_now``, every task is planned in that state, which never changes.
    """
    fixed = stem_now is not None
    if stem_now is None:
        stem_now = text.stem
    only_models = text.stem_models_only
    for peer_id in peers:
        instance_ids = [f"{ev.eval_id}.{peer_id}" for ev in evals]
        for index, metric in enumerate(plan):
            for ev, instance_id in zip(evals, instance_ids):
                if peer_id not in ev.peers:
                    continue
                models = tuple(ev.models)
                stems = metric.model_stems(len(models), stem_now, only_models)
                yield Task(
                    peer_id, index, ev.eval_id, ev.peers[peer_id], models, stem_now, stems, instance_id
                )
                if models and metric.switches_stemming and only_models and not fixed:
                    stem_now = False


def eval_chunks(
    evals: list[Eval], peers: list[str], together: bool = False, pieces: int = 1
) -> list[list[Eval]]:
    """The evals that hold an evaluated peer, in consecutive chunks of about _CHUNK_FILES documents.

    At least ``pieces`` chunks where there are enough evals; one chunk where
    they must be scored ``together`` (the Perl's ``-m -M`` state runs across evals).
    """
    chosen = set(peers)
    evals = [ev for ev in evals if not chosen.isdisjoint(ev.peers)]
    if together:
        return [evals] if evals else []
    files = sum(len(ev.peers) + len(ev.models) for ev in evals)
    size = max(1, math.ceil(len(evals) / max(pieces, math.ceil(files / _CHUNK_FILES))))
    return [evals[start : start + size] for start in range(0, len(evals), size)]
