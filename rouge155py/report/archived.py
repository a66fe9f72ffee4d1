"""ROUGE-1.5.5's report read back: the numbers of a report the Perl (or this port) printed.

The legacy report is lines of four kinds between rules (``-----``) and, under ``-d``, dots:

- ``SYSTEM METRIC Average_R: 0.12345 (95%-conf.int. 0.11111 - 0.13333)`` (and ``_P``, ``_F``);
- ``SYSTEM METRIC M_count: 329 P_count: 260 H_count: 164`` (``-t 2``);
- ``SYSTEM METRIC Eval EVAL.SYSTEM R:0.12345 P:0.23456 F:0.34567`` (``-d``; counts under ``-t``).

:func:`read_report` keeps each number as printed (its text, for a comparison of bytes) and in
the order printed; ``--check`` (:mod:`rouge155py.report.check`) and pyrouge's
``output_to_dict`` read reports with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from ..errors import ConfigError

__all__ = ["ArchivedReport", "Row", "read_report"]

_AVERAGE = re.compile(r"(\S+) (\S+) Average_([RPF]): (\S+) \((\S+)%-conf\.int\. (\S+) - (\S+)\)")
_COUNTS = re.compile(r"(\S+) (\S+) M_count: (\S+) P_count: (\S+) H_count: (\S+)")
_EVAL = re.compile(r"(\S+) (\S+) Eval (\S+) R:(\S+) P:(\S+) F:(\S+)")
_RULES = ("-" * 45, "." * 45)
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|-?nan|-?inf", re.IGNORECASE)


class Row(NamedTuple):
    """Where a number stands, e.g. ``("1", "ROUGE-2", "R")``, ``("1", "ROUGE-2", "R low")``,
    ``("1", "ROUGE-2", "M_count")``, ``("1", "ROUGE-2", "D01.1 F")``."""

    system: str
    metric: str
    field: str


@dataclass
class ArchivedReport:
    """A report's numbers as printed, by row in the order printed; what its lines imply of the
    options that made it."""

    numbers: dict[Row, str] = field(default_factory=dict)
    #: The confidence of the intervals (``95``), None where no average is printed.
    confidence: Optional[str] = None
    #: Whether instance lines (``-d``) or count lines (``-t 2``) are printed.
    per_eval: bool = False
    counts: bool = False
    #: The lines that are none of the report's, with their line numbers (``lenient`` reading).
    other_lines: list[tuple[int, str]] = field(default_factory=list)

    @property
    def systems(self) -> list[str]:
        """The system IDs, in the order printed."""
        return list(dict.fromkeys(row.system for row in self.numbers))

    @property
    def metrics(self) -> list[str]:
        """The metrics, in the order printed."""
        return list(dict.fromkeys(row.metric for row in self.numbers))

    def value(self, row: Row) -> float:
        """A row's number as a float."""
        return float(self.numbers[row])


def read_report(text: str, where: str = "the report", lenient: bool = False) -> ArchivedReport:
    """The numbers of a legacy report. A line that is none of a report's is an error naming
    ``where`` and the line (:class:`~rouge155py.errors.ConfigError`), or kept apart where
    ``lenient``; so is a printed number that is not one."""
    found = ArchivedReport()
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line or line in _RULES:
            continue
        fields = _fields(line)
        if fields is None:
            if not lenient:
                shown = line if len(line) <= 60 else line[:57] + "..."
                raise ConfigError(f"{where}:{number}: not a line of a ROUGE-1.5.5 report: {shown!r}")
            found.other_lines.append((number, line))
            continue
        system, metric, named, confidence = fields
        if confidence is not None:
            if found.confidence not in (None, confidence):
                raise ConfigError(f"{where}:{number}: intervals of {confidence}% after {found.confidence}%")
            found.confidence = confidence
        for name, value in named:
            if not _NUMBER.fullmatch(value):
                raise ConfigError(f"{where}:{number}: {value!r} is not a number")
            row = Row(system, metric, name)
            if row in found.numbers:
                raise ConfigError(f"{where}:{number}: {system} {metric} {name} is printed twice")
            found.numbers[row] = value
        found.per_eval |= " Eval " in line
        found.counts |= " M_count: " in line
    return found


def _fields(line: str) -> Optional[tuple[str, str, list[tuple[str, str]], Optional[str]]]:
    """(system, metric, [(field, number)], confidence) of a report's line, None for another line."""
    average = _AVERAGE.fullmatch(line)
    if average:
        system, metric, measure, value, confidence, low, high = average.groups()
        return (
            system,
            metric,
            [(measure, value), (f"{measure} low", low), (f"{measure} high", high)],
            confidence,
        )
    counts = _COUNTS.fullmatch(line)
    if counts:
        system, metric, *values = counts.groups()
        return system, metric, list(zip(("M_count", "P_count", "H_count"), values)), None
    instance = _EVAL.fullmatch(line)
    if instance:
        system, metric, eval_id, *values = instance.groups()
        return system, metric, [(f"{eval_id} {name}", v) for name, v in zip("RPF", values)], None
    return None
