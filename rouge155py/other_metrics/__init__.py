"""Metrics beside ROUGE, for the analyses: the 2005 workshop's METEOR, NIST, BLEU, WER, PER,
HWCM and STM (see :mod:`rouge155py.other_metrics.base` for the recipe).

:data:`METRICS` is the registry: a metric's name on the command line, and where its class
lives (imported when it is used: BLEU needs sacrebleu, the ``[metrics]`` extra).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from .base import OtherMetric

__all__ = ["METRICS", "metric_class"]

#: name -> "module:class", one line per metric.
METRICS = {
    "meteor": "meteor:Meteor",
    "nist": "nist:Nist",
    "bleu": "bleu:Bleu",
    "wer": "wer:Wer",
    "per": "wer:Per",
    "hwcm": "syntax:Hwcm",
    "stm": "syntax:Stm",
}


def metric_class(name: str) -> type[OtherMetric]:
    """The class of the metric ``name`` (a UsageError naming the known ones otherwise)."""
    where = METRICS.get(name.lower())
    if where is None:
        raise UsageError(f"no metric {name!r}: the metrics are {', '.join(METRICS)}")
    module, _, cls = where.partition(":")
    found: type[OtherMetric] = getattr(importlib.import_module(f"{__name__}.{module}"), cls)
    return found
