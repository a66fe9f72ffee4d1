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

A ROUGE-1.5.5.pl command line::

    from rouge155py import evaluate_args
    report = evaluate_args(["-e", "data", "-a", "-n", "2", "config.xml"])
"""

from __future__ import annotations

from ._version import __version__
from .api import Rouge, score
from .batches import EvalItem, ScoredBatch, TextItem, eval_items, score_batch, summarize_batches, text_items
from .errors import (
    ComputeError,
    ConfigError,
    DataError,
    InputError,
    RougeError,
    UsageError,
)
from .evaluation import evaluate
from .options import Options, parse_command_line
from .report import FORMATS, Report, format_legacy
from .results import MetricResult, Summary
from .rouge155 import Rouge155

__all__ = [
    "FORMATS",
    "ComputeError",
    "ConfigError",
    "DataError",
    "EvalItem",
    "InputError",
    "MetricResult",
    "Options",
    "Report",
    "Rouge",
    "Rouge155",
    "RougeError",
    "ScoredBatch",
    "Summary",
    "TextItem",
    "UsageError",
    "__version__",
    "eval_items",
    "evaluate",
    "evaluate_args",
    "format_legacy",
    "parse_command_line",
    "score",
    "score_batch",
    "summarize_batches",
    "text_items",
]


def evaluate_args(argv: list[str]) -> Report:
    """Evaluate a ROUGE-1.5.5.pl command line (without the program name)."""
    request = parse_command_line(argv)
    if request.options is None:
        raise UsageError("the command line asks for no evaluation")
    return evaluate(request.options)
