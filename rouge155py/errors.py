"""One exception hierarchy for every failure a user can cause.

The command line turns a :class:`RougeError` into one line on stderr and the
exit code of its class; nothing else reaches the user as a traceback.
"""

from __future__ import annotations

__all__ = [
    "ComputeError",
    "ConfigError",
    "DataError",
    "InputError",
    "LimitError",
    "OutputError",
    "RougeError",
    "UsageError",
]


class RougeError(Exception):
    """Base class: the evaluation cannot be carried out."""

    exit_code = 1


class UsageError(RougeError):
    """The command line or an option value is invalid."""

    exit_code = 2


class ConfigError(RougeError):
    """The evaluation configuration (XML or ``-z`` file list) is invalid."""

    exit_code = 3


class InputError(RougeError):
    """A peer or model file is missing, unreadable or malformed."""

    exit_code = 4


class DataError(RougeError):
    """The data directory (stopwords, WordNet exceptions) is unusable."""

    exit_code = 5


class ComputeError(RougeError):
    """The inputs make the computation undefined (the Perl divides by zero)."""

    exit_code = 6


class LimitError(RougeError):
    """An input or option beyond a documented size limit (README, "Errors and limits")."""

    exit_code = 7


class OutputError(RougeError):
    """The report cannot be written (a full disk, a failing device)."""

    exit_code = 1
