"""One row per setting: its flags, how the command line reads it, its check, its stages, its
help, and which faces set it.

A row is declared where :class:`~rouge155py.Options` declares the field (:func:`setting`); the
table is read from the dataclass once (:func:`rows_of`), and the lists the faces use (the API's
keywords, the checks, the parser's long options, the signature's order, the usage text) are
derived from it.
"""

from __future__ import annotations

import numbers
import os
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, Literal, Optional, TypeVar

from ..errors import UsageError, described

__all__ = ["ROUTES", "STAGES", "Setting", "rows_of", "setting"]

#: Who reads a setting: where the evals come from (a door), which peers are reported, the text
#: stage, the metrics, the scoring, the bootstrap, or the run itself (output, processes).
STAGES = ("source", "selection", "text", "metrics", "scoring", "resampling", "run")
#: How the command line reads a setting: a switch (given: True), a Perl number, the text as
#: given, each value of a repeated option, or code of its own (the Perl's quirks).
ROUTES = ("switch", "number", "text", "repeated", "custom")

Route = Literal["switch", "number", "text", "repeated", "custom"]
Check = Callable[[str, Any], Any]
T = TypeVar("T")


def _is_numpy_bool(value: object) -> bool:
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")


def flag(name: str, value: Any) -> bool:
    """True or False (numpy's too)."""
    if isinstance(value, bool) or _is_numpy_bool(value):
        return bool(value)
    raise UsageError(f"{name} must be True or False, got {described(value)}")


def whole(name: str, value: Any) -> int:
    """A whole number, not a bool."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    raise UsageError(f"{name} must be a whole number (an int), got {described(value)}")


def real(name: str, value: Any) -> float:
    """A number, not a bool: an int or float kept as it is, another real as a float."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and not _is_numpy_bool(value):
        try:
            float(value)
        except OverflowError:
            raise UsageError(f"{name} must be a finite number, got {described(value)}") from None
        if type(value) is int or type(value) is float:
            return value
        return float(value)
    raise UsageError(f"{name} must be a number, got {described(value)}")


def text(name: str, value: Any) -> str:
    """A string."""
    if isinstance(value, str):
        return str(value)
    raise UsageError(f"{name} must be a string, got {described(value)}")


def path(name: str, value: Any) -> str:
    """A path: a str or an os.PathLike, kept as a str."""
    given = os.fspath(value) if isinstance(value, os.PathLike) else value
    if isinstance(given, str):
        return str(given)
    raise UsageError(f"{name} must be a path (a str or os.PathLike), got {described(value)}")


def paths(name: str, value: Any) -> tuple[str, ...]:
    """A list or tuple of paths, kept as a tuple."""
    if not isinstance(value, (list, tuple)):
        raise UsageError(f"{name} must be a tuple of paths, got {described(value)}")
    return tuple(path(f"{name}[{i}]", one) for i, one in enumerate(value))


def ids(name: str, value: Any) -> tuple[str, ...]:
    """IDs: a list or tuple of strings, each of which may name several, separated by commas."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise UsageError(f"{name} must be a tuple of IDs (strings), got {described(value)}")
    found: list[str] = []
    for one in value:
        if not isinstance(one, str):
            raise UsageError(f"{name} must hold strings, got {described(one)}")
        parts = one.split(",")
        if not all(parts):
            raise UsageError(f"{name}: an empty ID in {one!r}")
        found.extend(parts)
    return tuple(found)


@dataclass(frozen=True)
class Setting:
    """One setting: the field of :class:`~rouge155py.Options` (and the API's keyword) ``name``.

    ``perl``: its ROUGE-1.5.5.pl flag letter (``"n"``), ``long``: this port's long option
    (``"--lang"``); ``route``: how the command line reads them (:data:`ROUTES`); ``check``:
    what a value must be (it returns the value kept); ``stages``: who reads it
    (:data:`STAGES`; each stage's settings object is built from its rows). ``door``: it says
    where the evals come from or which peers are reported, which the API's callers give
    themselves (not a keyword of :class:`~rouge155py.Rouge`); ``unset``: the API's keyword
    defaults to None, "not chosen", which decides something of its own; ``free``: it changes no
    number (accumulators that differ in it merge); ``metric``: ``rouge_types`` sets it;
    ``hf``: HF evaluate's call sets it (with ``rouge_types``, ``use_stemmer``, ``dialect``,
    ``multi_ref``). ``signature``: the parts of :meth:`~rouge155py.Options.signature` that its
    value brings, in order. ``synopsis``: its ``-h`` text, ``help``: its ``-H`` lines (a row
    may speak for the rows that follow it, which then have none).
    """

    check: Check
    stages: tuple[str, ...] = ()
    perl: Optional[str] = None
    long: Optional[str] = None
    route: Route = "custom"
    door: bool = False
    unset: bool = False
    free: bool = False
    metric: bool = False
    hf: bool = False
    signature: tuple[str, ...] = ()
    synopsis: str = ""
    help: str = ""
    name: str = ""  # the field's, filled in by rows_of
    default: Any = None  # the field's
    annotation: str = ""  # the field's type, as written

    @property
    def api(self) -> bool:
        """Whether :class:`~rouge155py.Rouge` takes it as a keyword."""
        return not self.door


def setting(default: T, check: Check, stages: tuple[str, ...] = (), **row: Any) -> T:
    """A field of :class:`~rouge155py.Options` with its row of the table (see :class:`Setting`)."""
    return field(default=default, metadata={"setting": Setting(check, stages, **row)})


def rows_of(cls: type) -> tuple[Setting, ...]:
    """The table: one row per field of the dataclass ``cls``, in the fields' order."""
    rows = []
    for option in fields(cls):
        row = option.metadata["setting"]
        rows.append(replace(row, name=option.name, default=option.default, annotation=str(option.type)))
    return tuple(rows)
