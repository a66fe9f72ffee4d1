"""The models each eval is scored against, chosen before scoring: ``--models K``,
``--drop-model ID`` and ``--jackknife``.

A model is named by its ID where the configuration gives one (an XML's ``<M ID="A">``), else
by its place, ``M1``, ``M2``, ... in the eval's order (line-aligned reference files, a JSONL
object's references, the API's). ``--models K`` keeps each eval's first K
models, ``--drop-model ID`` leaves a model out of every eval that has it (the drop first, then
the first K). Under ``--jackknife`` each model of an eval of two or more is also a peer of it,
named by its ID: it is scored against the others (:func:`~rouge155py.metrics.scoring.jackknife_row`),
so that the people who wrote the models and the systems are reported alike.
"""

from __future__ import annotations

from typing import Optional

from ..errors import ConfigError
from .config import Eval, EvalConfig

__all__ = ["model_ids", "select_models"]

_SHOWN = 5


def model_ids(ev: Eval) -> list[str]:
    """The IDs of an eval's models: the configuration's, else ``M`` and their places from 1."""
    return list(ev.model_ids) if ev.model_ids is not None else [f"M{k + 1}" for k in range(len(ev.models))]


def select_models(
    config: EvalConfig, models: Optional[int], drop: tuple[str, ...], jackknife: bool
) -> EvalConfig:
    """The evals with the models chosen (and, under ``jackknife``, each model a peer too); a
    note names the evals left with one model under ``jackknife`` (scored as without it)."""
    dropped = set(drop)
    systems = set(config.peer_ids)
    evals: list[Eval] = []
    peer_ids = set(config.peer_ids)
    alone: list[str] = []
    for ev in config.evals:
        kept = [(i, m) for i, m in zip(model_ids(ev), ev.models) if i not in dropped]
        if models is not None:
            kept = kept[:models]
        peers = dict(ev.peers)
        if jackknife and len(kept) >= 2:
            for model_id, document in kept:
                if model_id in systems:
                    raise ConfigError(
                        f"eval {ev.eval_id}: model {model_id!r} has a system's ID: --jackknife reports "
                        "each model as a system named by its ID"
                    )
                peers[model_id] = document
                peer_ids.add(model_id)
        elif jackknife:
            alone.append(ev.eval_id)
        evals.append(Eval(ev.eval_id, peers, [m for _, m in kept], [i for i, _ in kept]))
    notes = list(config.notes)
    if alone:
        shown = ", ".join(alone[:_SHOWN]) + (", ..." if len(alone) > _SHOWN else "")
        notes.append(
            f"rouge155py: warning: --jackknife: {len(alone)} evals with fewer than two models ({shown}): "
            "scored as without it"
        )
    return EvalConfig(evals, peer_ids, notes)
