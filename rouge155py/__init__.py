"""rouge155py: ROUGE-1.5.5.pl in Python, with the same command line and the same bytes.

Python strings, the Perl's exact numbers::

    from rouge155py import Rouge
    report = Rouge(max_ngram=2, stem=True).score(predictions, references)
    print(report.to_legacy(), end="")

Batches of items scored anywhere (a Dask, Spark or Ray cluster), one exact report::

    from rouge155py import Rouge, score_batch, summarize_batches, text_items
    options = Rouge(max_ngram=2, stem=True).options
    items = text_items(predictions, references)
    batches = [score_batch(items[i : i + 1000], options) for i in range(0, len(items), 1000)]
    report = summarize_batches(batches, options)  # batches in any order

An evaluation loop, batch by batch (:mod:`rouge155py.incremental`)::

    acc = Rouge(max_ngram=2, stem=True, multi_ref="best-f").accumulator()
    acc.update(predictions, references)  # per batch; merge() states of other processes
    report = acc.compute()  # the bytes of one Rouge(...).score() over every item

HF ``evaluate``'s rouge arguments and keys, the Perl's numbers (:mod:`rouge155py.hf`)::

    evaluate.load(rouge155py.evaluate_module_path()).compute(predictions=..., references=...)

A ROUGE-1.5.5.pl command line::

    from rouge155py import evaluate_args
    report = evaluate_args(["-e", "data", "-a", "-n", "2", "config.xml"])

Each public name is imported from its module on first use, so that
``import rouge155py`` (and the command line) loads only what a run needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ._version import __version__

if TYPE_CHECKING:  # what type checkers see of the names imported on first use below (_HOMES)
    from .api import Rouge, score
    from .errors import ComputeError, ConfigError, DataError, InputError, RougeError, UsageError
    from .hf import evaluate_module_path
    from .incremental import RougeAccumulator
    from .inputs.texts import Sentences
    from .report import FORMATS, Report, format_legacy
    from .report.results import MetricResult, Summary
    from .report.views import MetricScores, Score
    from .rouge155 import Rouge155
    from .run.batches import (
        EvalItem,
        ScoredBatch,
        TextItem,
        eval_items,
        score_batch,
        summarize_batches,
        text_items,
    )
    from .run.evaluate import evaluate, evaluate_args
    from .settings.argv import parse_command_line
    from .settings.options import Options

__all__ = [
    "FORMATS",
    "ComputeError",
    "ConfigError",
    "DataError",
    "EvalItem",
    "InputError",
    "MetricResult",
    "MetricScores",
    "Options",
    "Report",
    "Rouge",
    "Rouge155",
    "RougeAccumulator",
    "RougeError",
    "Score",
    "ScoredBatch",
    "Sentences",
    "Summary",
    "TextItem",
    "UsageError",
    "__version__",
    "eval_items",
    "evaluate",
    "evaluate_args",
    "evaluate_module_path",
    "format_legacy",
    "parse_command_line",
    "score",
    "score_batch",
    "summarize_batches",
    "text_items",
]

# Public name -> the module (relative to this package) that defines it.
_HOMES = {
    "Rouge": "api",
    "score": "api",
    "EvalItem": "run.batches",
    "ScoredBatch": "run.batches",
    "TextItem": "run.batches",
    "eval_items": "run.batches",
    "score_batch": "run.batches",
    "summarize_batches": "run.batches",
    "text_items": "run.batches",
    "ComputeError": "errors",
    "ConfigError": "errors",
    "DataError": "errors",
    "InputError": "errors",
    "RougeError": "errors",
    "UsageError": "errors",
    "evaluate": "run.evaluate",
    "evaluate_args": "run.evaluate",
    "evaluate_module_path": "hf",
    "RougeAccumulator": "incremental",
    "Options": "settings.options",
    "parse_command_line": "settings.argv",
    "FORMATS": "report",
    "Report": "report",
    "format_legacy": "report",
    "MetricResult": "report.results",
    "Summary": "report.results",
    "Rouge155": "rouge155",
    "Sentences": "inputs.texts",
    "MetricScores": "report.views",
    "Score": "report.views",
}


def __getattr__(name: str) -> object:
    """Import a public name's module on first access (PEP 562) and keep the name here."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's names, the public ones not yet imported included."""
    return sorted(set(globals()) | set(__all__))
