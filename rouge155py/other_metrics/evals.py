"""The run's evals as the metrics beside ROUGE read them, and their scores per system and item.

Each (eval, peer) pair is one :class:`~rouge155py.other_metrics.base.Item`: the summary's
sentences as the input format's reader finds them (not lowercased: each metric has its own
case rule), decoded from UTF-8 (a byte that is not is replaced), against every model of the
eval. A metric sees all the items of one system at once (NIST's weights, a corpus score),
and its item scores enter the analyses as ``--scores``' columns do.
"""

from __future__ import annotations

import math
import re
from dataclasses import MISSING, Field, dataclass, fields
from os import path as os_path
from typing import Any, Callable, Optional, Sequence

import numpy as np

from ..errors import UsageError
from ..inputs.config import EvalConfig
from ..inputs.readers import read_sentences
from ..inputs.readers.document import Document
from . import metric_class
from .base import Item, OtherMetric

__all__ = [
    "OtherScores",
    "Summaries",
    "items_of",
    "label_of",
    "metric_of",
    "metrics_of",
    "parse_name",
    "score_evals",
    "sentences_of",
]


@dataclass(frozen=True)
class OtherScores:
    """The metrics' scores of a run. ``variants``: label -> system -> eval ID -> item score (as
    ``--scores``' columns); ``corpus``: label -> system -> the score of the system's summed
    counts (the metrics that define one); ``signatures``: label -> how its scores were made."""

    variants: dict[str, dict[str, dict[str, float]]]
    corpus: dict[str, dict[str, float]]
    lower_is_better: frozenset[str]
    signatures: dict[str, str]


_TRUE = {"1", "yes", "true", "on"}
_FALSE = {"0", "no", "false", "off"}


def _value(text: str, default: Any, option: str, name: str) -> Any:
    """An option's value as written after ``=``, of the type of its default."""
    try:
        if isinstance(default, bool):
            if text.lower() in _TRUE | _FALSE:
                return text.lower() in _TRUE
            raise ValueError(text)
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            number = float(text)
            if not math.isfinite(number):
                raise ValueError(text)
            return number
    except ValueError:
        kind = "yes or no" if isinstance(default, bool) else f"a number ({type(default).__name__})"
        raise UsageError(f"--metrics {name}: {option} must be {kind}, got {text!r}") from None
    return text


def _example(option: Field[Any]) -> Any:
    """A value of an option's type: its default, or for one whose default is None (an
    ``Optional[float]``...), a value of the type its annotation names."""
    if option.default is not None and option.default is not MISSING:
        return option.default
    annotation = str(option.type)
    for kind in (bool, int, float):
        if re.search(rf"\b{kind.__name__}\b", annotation):
            return kind()
    return ""


def metric_of(spec: str, **given: Any) -> OtherMetric:
    """A metric from its ``--metrics`` entry, ``name`` or ``name:option=value:option=value``
    (``nist:n=4``, ``wer:length=average``); ``given`` sets options the command line has
    long options for (``wordnet=``, ``parses=``), for the metrics that have them."""
    name, *settings = spec.strip().split(":")
    cls = metric_class(name)
    known = {f.name: f for f in fields(cls)}
    options: dict[str, Any] = {k: v for k, v in given.items() if k in known and v is not None}
    for setting in settings:
        option, eq, text = setting.partition("=")
        option = option.strip()
        if not eq or option not in known:
            have = ", ".join(known) or "none"
            raise UsageError(f"--metrics {name}: no option {option!r} (its options: {have})")
        options[option] = _value(text.strip(), _example(known[option]), option, name)
    return cls(**options)


def label_of(spec: str, metric: OtherMetric) -> str:
    """How tables name a metric: its name, with the options the entry sets (``NIST(n=4)``)."""
    _, *settings = spec.strip().split(":")
    return f"{metric.name}({','.join(s.strip() for s in settings)})" if settings else metric.name


def _text(sentence: str) -> str:
    """A sentence of the reader (bytes as latin-1 characters) as text: UTF-8, else replaced."""
    return sentence.encode("latin-1").decode("utf-8", "replace")


def sentences_of(document: Document) -> tuple[str, ...]:
    """A summary's sentences as the metrics beside ROUGE read them (see the module)."""
    return tuple(_text(s) for s in read_sentences(document, lowercase=False))


def parse_name(document: Document) -> str:
    """The name a summary's parses are found by: its file's name (a text's name in memory)."""
    return os_path.basename(document.name)


class Summaries:
    """The summaries of a run as the metrics beside ROUGE read them, each document read once
    whatever the number of peers, metrics and pairs (QARLA's) it is part of."""

    def __init__(self) -> None:
        self._read: dict[Document, tuple[str, ...]] = {}

    def sentences(self, document: Document) -> tuple[str, ...]:
        """A document's sentences (:func:`sentences_of`), read at its first use."""
        found = self._read.get(document)
        if found is None:
            found = self._read[document] = sentences_of(document)
        return found

    def item(self, eval_id: str, peer: Document, models: Sequence[Document]) -> Item:
        """The item of a summary scored against ``models``, its parses named by the files'."""
        references = tuple(self.sentences(model) for model in models)
        names = (parse_name(peer), *(parse_name(model) for model in models))
        return Item(eval_id, self.sentences(peer), references, names)


def items_of(
    config: EvalConfig, shown: Callable[[str], str] = str, summaries: Optional[Summaries] = None
) -> dict[str, list[Item]]:
    """Each system's items, in the configuration's order of evals (``shown``: a peer ID as
    tables show it; ``summaries``: the reader of the run's other analyses, if any)."""
    read = summaries if summaries is not None else Summaries()
    found: dict[str, list[Item]] = {}
    for ev in config.evals:
        for peer_id, document in sorted(ev.peers.items()):
            found.setdefault(shown(peer_id), []).append(read.item(ev.eval_id, document, ev.models))
    return found


def metrics_of(specs: Sequence[str], **given: Any) -> list[tuple[str, OtherMetric]]:
    """``--metrics``' entries as (label, metric), each checked, none twice."""
    metrics = [(label_of(spec, m), m) for spec, m in ((s, metric_of(s, **given)) for s in specs)]
    labels = [label for label, _ in metrics]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise UsageError(f"--metrics names {', '.join(twice)} twice")
    return metrics


def score_evals(
    config: EvalConfig,
    metrics: Sequence[tuple[str, OtherMetric]],
    shown: Callable[[str], str] = str,
    summaries: Optional[Summaries] = None,
) -> OtherScores:
    """Every metric (label, metric) on every system of ``config``."""
    systems = items_of(config, shown, summaries)
    variants: dict[str, dict[str, dict[str, float]]] = {}
    corpus: dict[str, dict[str, float]] = {}
    for label, metric in metrics:
        for system, items in systems.items():
            counts = metric.counts(items)
            scores = metric.item_scores(counts)
            variants.setdefault(label, {})[system] = {
                item.eval_id: float(score) for item, score in zip(items, scores)
            }
            if metric.corpus:
                corpus.setdefault(label, {})[system] = float(metric.score(np.sum(counts, axis=0)))
    lower = frozenset(label for label, metric in metrics if not metric.higher_is_better)
    return OtherScores(variants, corpus, lower, {label: m.signature() for label, m in metrics})
