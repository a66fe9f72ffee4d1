"""One exception hierarchy for every failure a user can cause.

The command line turns a :class:`RougeError` into one line on stderr and the
exit code of its class; nothing else reaches the user as a traceback.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ComputeError",
    "ConfigError",
    "DataError",
    "InputError",
    "InvalidValue",
    "LimitError",
    "MissingResource",
    "OutputError",
    "ReportDiffers",
    "RougeError",
    "UnknownKeyword",
    "UsageError",
    "WorkerStopped",
    "described",
]


class RougeError(Exception):
    """Base class: the evaluation cannot be carried out."""

    exit_code = 1
    #: Where the Perl prints part of its report before it dies of this error (ROUGE-W on a
    #: model without tokens, after ROUGE-1..N and ROUGE-L): that part, a
    #: :class:`~rouge155py.report.Report`, which the command prints before the error line.
    partial: Any = None


class UsageError(RougeError):
    """The command line or an option value is invalid."""

    exit_code = 2


class InvalidValue(UsageError, ValueError):
    """An argument the API refuses where the library it stands in for raises ``ValueError``
    (an unknown rouge type in HF rouge's ``compute``): code catching either catches it."""


class MissingResource(UsageError, LookupError):
    """A resource of another package that is not installed (nltk's punkt model) where that
    package raises ``LookupError`` (rouge-score's ``split_summaries``, pyrouge's
    ``split_sentences``): code catching either catches it."""


class UnknownKeyword(UsageError, TypeError):
    """A keyword ``Rouge()`` or ``score()`` does not take, with the one meant where it is
    close or another library's name for it; Python's own ``TypeError`` for an unexpected
    keyword, so code catching either catches it."""


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
    """An input or option beyond a documented size limit (docs/errors.md)."""

    exit_code = 7


class OutputError(RougeError):
    """The report cannot be written (a full disk, a failing device)."""

    exit_code = 1


class ReportDiffers(RougeError):
    """``--check ARCHIVED``: the run does not reproduce the archived report."""

    exit_code = 8


class WorkerStopped(BaseException):
    """A ``-j`` worker ended while this process computed: raised by the SIGCHLD handler wherever
    this process was (not an ``Exception``: nothing on the way catches it); the pool's user
    makes it the run's error. Here, so that the command catches it without importing the
    evaluation."""


def install_hint(package: str, extra: str) -> str:
    """How to get what an optional feature needs: the package itself, or rouge155py's extra
    from its checkout (rouge155py is not on PyPI yet: its name with an extra is not found)."""
    return f"pip install {package} (or, in rouge155py's checkout, pip install '.[{extra}]')"


def described(value: object) -> str:
    """A value as an error message shows it: short, and without running the value's own code
    (its ``__str__`` or ``__repr__`` may raise, or take for ever)."""
    if value is None or type(value) in (bool, float):
        return repr(value)
    if isinstance(value, int) and type(value) is int:
        return repr(value) if value.bit_length() <= 64 else f"an int of {value.bit_length()} bits"
    if isinstance(value, (str, bytes)) and type(value) in (str, bytes):
        return repr(value) if len(value) <= 40 else f"{value[:40]!r}... ({len(value)} characters)"
    kind = type(value)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
