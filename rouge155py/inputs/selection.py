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

from ..errors import ConfigError, InputError
from .config import Eval, EvalConfig
from .files import MAX_CONFIG_BYTES, read_file

__all__ = ["model_ids", "read_subset_file", "select_models", "subsets"]

_SHOWN = 5


def model_ids(ev: Eval) -> list[str]:
    """The IDs of an eval's models: the configuration's, else ``M`` and their places from 1."""
    return list(ev.model_ids) if ev.model_ids is not None else [f"M{k + 1}" for k in range(len(ev.models))]


def read_subset_file(path: str) -> bytes:
    """The bytes of a ``--model-subset`` file."""
    return read_file(path, InputError, f"Cannot open {path}", f"Cannot read {path}", limit=MAX_CONFIG_BYTES)


def subsets(path: str) -> dict[str, list[str]]:
    """A ``--model-subset`` file: eval ID -> the IDs of the models it keeps, from lines
    ``EVAL_ID MODEL_ID ...`` (blank lines and ``#`` comments skipped; an eval named twice is an
    error)."""
    found: dict[str, list[str]] = {}
    for number, raw in enumerate(read_subset_file(path).decode("utf-8", "surrogateescape").splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) < 2:
            raise ConfigError(f"{path}:{number}: an eval ID and at least one model ID")
        if words[0] in found:
            raise ConfigError(f"{path}:{number}: eval {words[0]!r} is named twice")
        found[words[0]] = words[1:]
    return found


def select_models(
    config: EvalConfig,
    models: Optional[int],
    drop: tuple[str, ...],
    jackknife: bool,
    subset: Optional[str] = None,
) -> EvalConfig:
    """The evals with the models chosen (``subset``: a ``--model-subset`` file's path, then the
    drop, then the first ``models``) and, under ``jackknife``, each model a peer too; a note
    names the evals left with one model under ``jackknife`` (scored as without it)."""
    dropped = set(drop)
    chosen = subsets(subset) if subset is not None else {}
    unknown = set(chosen) - {ev.eval_id for ev in config.evals}
    if unknown:
        raise ConfigError(f"{subset}: eval {sorted(unknown)[0]!r} is not in the configuration")
    systems = set(config.peer_ids)
    evals: list[Eval] = []
    peer_ids = set(config.peer_ids)
    alone: list[str] = []
    for ev in config.evals:
        ids = model_ids(ev)
        kept = [(i, m) for i, m in zip(ids, ev.models) if i not in dropped]
        if ev.eval_id in chosen:
            wanted = chosen[ev.eval_id]
            missing = [i for i in wanted if i not in ids]
            if missing:
                raise ConfigError(f"{subset}: eval {ev.eval_id!r} has no model {missing[0]!r}")
            kept = [(i, m) for i, m in kept if i in wanted]
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
