"""rouge155py: ROUGE-1.5.5.pl in Python, with the same command line and the same bytes.

The API mirrors the command line::

    from rouge155py import evaluate_args, format_legacy
    report = evaluate_args(["-e", "data", "-a", "-n", "2", "config.xml"])
    print(format_legacy(report), end="")
"""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import (
    ComputeError,
    ConfigError,
    DataError,
    InputError,
    RougeError,
    UsageError,
)
from .evaluation import Report, evaluate
from .options import Options, parse_command_line
from .report import format_legacy, to_json

__all__ = [
    "ComputeError",
    "ConfigError",
    "DataError",
    "InputError",
    "Options",
    "Report",
    "RougeError",
    "UsageError",
    "__version__",
    "evaluate",
    "evaluate_args",
    "format_legacy",
    "parse_command_line",
    "to_json",
]


def evaluate_args(argv: list[str]) -> Report:
    """Evaluate a ROUGE-1.5.5.pl command line (without the program name)."""
    request = parse_command_line(argv)
    if request.options is None:
        raise UsageError("the command line asks for no evaluation")
    return evaluate(request.options)
