"""``--check ARCHIVED``: does a run reproduce an archived ROUGE-1.5.5 report?

The run's legacy report is compared with the archived one: byte for byte, or number for number
within ``--tolerance``. Where they differ, :class:`Verdict` says how: each number that differs
(archived, now, difference), the rows only one side prints, and the options the archived
report's lines imply that the run lacks (ROUGE-SU4 rows: ``-2 4 -u``; 99% intervals: ``-c 99``;
instance lines: ``-d``). A run that scored nothing never agrees. Under ``-v`` (some of whose
lines the Perl prints in its hashes' order) the numbers alone are compared.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

from ..errors import ConfigError, InputError
from ..inputs.files import read_file
from .archived import ArchivedReport, Row, read_report

__all__ = ["Verdict", "check_report", "implied_settings", "read_archive"]

#: Differing numbers a verdict's table shows on stderr (JSON holds all).
SHOWN = 20
_NGRAM = re.compile(r"ROUGE-(\d+)")
_SKIP = re.compile(r"ROUGE-S(U?)(\*|\d+)")


def read_archive(path: str) -> tuple[str, ArchivedReport]:
    """An archived report's text (its bytes as the Perl's, one character a byte) and numbers.
    Unreadable: an :class:`~rouge155py.errors.InputError`; not a report: a ``ConfigError``."""
    found = read_file(path, InputError, f"--check: cannot open {path}", f"--check: cannot read {path}")
    text = found.decode("latin-1")
    archived = read_report(text, path, lenient=True)
    if text.strip() and not archived.numbers:
        raise ConfigError(f"{path}: not a ROUGE-1.5.5 report (no line of scores in it)")
    return text, archived


@dataclass
class Verdict:
    """What ``--check`` found: whether the run agrees with the archived report, and if not, how."""

    archived: str
    agrees: bool
    tolerance: Optional[float] = None
    #: Numbers the two print differently (beyond the tolerance): (row, archived, now).
    differing: list[tuple[Row, str, str]] = field(default_factory=list)
    only_archived: list[Row] = field(default_factory=list)
    only_now: list[Row] = field(default_factory=list)
    #: The options the archived report implies that the run lacks (or has and it does not).
    implied: list[str] = field(default_factory=list)
    #: The archive's lines other than scores (``-v``'s, some in the Perl's hash order): not compared.
    unchecked: int = 0
    scored_nothing: bool = False
    compared: int = 0

    def summary(self) -> str:
        """The one line of the verdict."""
        how = "byte for byte" if self.tolerance is None else f"within {self.tolerance:g}"
        if self.unchecked:
            how = (
                f"{'its numbers' if self.tolerance is None else how}; {self.unchecked} -v lines not compared"
            )
        if self.agrees:
            return f"the report agrees with {self.archived} ({how}, {self.compared} numbers)"
        parts = []
        if self.scored_nothing:
            parts.append("the run scored nothing")
        if self.differing:
            parts.append(f"{len(self.differing)} of {self.compared} numbers differ")
        if self.only_archived:
            parts.append(f"{len(self.only_archived)} only in the archive")
        if self.only_now:
            parts.append(f"{len(self.only_now)} only in this run")
        if not parts:
            parts.append("the bytes differ")
        return f"the report differs from {self.archived} ({how}): {', '.join(parts)}"

    def lines(self) -> list[str]:
        """The table of differences and what the archive implies, for stderr."""
        out: list[str] = []
        if self.differing:
            rows = [("system", "metric", "field", "archived", "now", "difference")]
            for row, was, now in self.differing[:SHOWN]:
                rows.append((*row, was, now, _difference(was, now)))
            widths = [max(len(r[k]) for r in rows) for k in range(6)]
            out.extend("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
            if len(self.differing) > SHOWN:
                out.append(f"  ... {len(self.differing) - SHOWN} more (--format json lists them all)")
        for label, found in (
            ("only in the archive", self.only_archived),
            ("only in this run", self.only_now),
        ):
            if found:
                out.append(f"  {label}: {_grouped(found)}")
        if self.implied:
            out.append(f"  the archive implies: {'; '.join(self.implied)}")
        return out

    def to_json(self) -> dict[str, Any]:
        """The verdict as a JSON object."""
        return {
            "archived": self.archived,
            "agrees": self.agrees,
            "compared": "bytes" if self.tolerance is None else {"tolerance": self.tolerance},
            "numbers": self.compared,
            "scored_nothing": self.scored_nothing,
            "differences": [
                {"system": r.system, "metric": r.metric, "field": r.field, "archived": a, "now": n}
                for r, a, n in self.differing
            ],
            "only_archived": [list(r) for r in self.only_archived],
            "only_now": [list(r) for r in self.only_now],
            "unchecked_lines": self.unchecked,
            "implied_settings": self.implied,
        }


def check_report(
    name: str,
    archived_text: str,
    archived: ArchivedReport,
    now_text: str,
    tolerance: Optional[float] = None,
) -> Verdict:
    """The verdict on a run's legacy report (``now_text``) against an archived one
    (:func:`read_archive`)."""
    now = read_report(now_text, "the run's report", lenient=True)
    verdict = Verdict(name, False, tolerance, compared=len(archived.numbers.keys() & now.numbers.keys()))
    verdict.scored_nothing = not now.numbers
    verdict.only_archived = [row for row in archived.numbers if row not in now.numbers]
    verdict.only_now = [row for row in now.numbers if row not in archived.numbers]
    for row, was in archived.numbers.items():
        if row in now.numbers and not _same(was, now.numbers[row], tolerance):
            verdict.differing.append((row, was, now.numbers[row]))
    verdict.unchecked = len(archived.other_lines)
    differs = bool(verdict.differing or verdict.only_archived or verdict.only_now)
    if tolerance is None and not verdict.unchecked:
        differs = differs or archived_text != now_text
    verdict.agrees = not differs and not verdict.scored_nothing
    if not verdict.agrees:
        verdict.implied = implied_settings(archived, now)
    return verdict


def _same(was: str, now: str, tolerance: Optional[float]) -> bool:
    if tolerance is None or was == now:
        return was == now
    a, b = float(was), float(now)
    return math.isfinite(a) and math.isfinite(b) and abs(a - b) <= tolerance


def _difference(was: str, now: str) -> str:
    try:
        return f"{float(now) - float(was):+.5f}"
    except ValueError:
        return ""


def _grouped(rows: list[Row]) -> str:
    """Rows named by system and metric (with how many numbers each), in order."""
    counts = Counter((row.system, row.metric) for row in rows)
    shown = [f"{system} {metric} ({count})" for (system, metric), count in counts.items()]
    return ", ".join(shown[:8]) + (f", ... {len(shown) - 8} more" if len(shown) > 8 else "")


def implied_settings(archived: ArchivedReport, now: ArchivedReport) -> list[str]:
    """The options the archived report's lines imply where the run's lines differ."""
    implied: list[str] = []
    metrics, mine = set(archived.metrics), set(now.metrics)
    orders = [int(m.group(1)) for m in map(_NGRAM.fullmatch, metrics) if m]
    mine_orders = [int(m.group(1)) for m in map(_NGRAM.fullmatch, mine) if m]
    if orders and max(orders) != max(mine_orders, default=0):
        implied.append(
            f"-n {max(orders)} (it has ROUGE-{max(orders)}, the run goes to {max(mine_orders, default=0)})"
        )
    if "ROUGE-L" in metrics and "ROUGE-L" not in mine:
        implied.append("no -x (it has ROUGE-L)")
    if "ROUGE-L" in mine and "ROUGE-L" not in metrics:
        implied.append("-x (it has no ROUGE-L)")
    weights = {m[len("ROUGE-W-") :] for m in metrics if m.startswith("ROUGE-W-")}
    if weights != {m[len("ROUGE-W-") :] for m in mine if m.startswith("ROUGE-W-")}:
        implied.append(
            f"-w {min(weights)} (it has ROUGE-W-{min(weights)})" if weights else "no -w (it has no ROUGE-W)"
        )
    skips = {(m.group(1), m.group(2)) for m in map(_SKIP.fullmatch, metrics) if m}
    if skips and not skips <= {(m.group(1), m.group(2)) for m in map(_SKIP.fullmatch, mine) if m}:
        gap = next(iter(sorted(g for _, g in skips)))
        unigrams = {u for u, _ in skips}
        flag = "-U" if unigrams == {"", "U"} else "-u" if unigrams == {"U"} else ""
        implied.append(
            f"-2 {'-1' if gap == '*' else gap}{' ' + flag if flag else ''} (it has {_named(skips)})"
        )
    be = sorted(m[len("ROUGE-BE-") :] for m in metrics if m.startswith("ROUGE-BE-"))
    if be and not any(m.startswith("ROUGE-BE-") for m in mine):
        implied.append(f"-3 {be[0]} (it has ROUGE-BE-{be[0]})")
    if archived.confidence is not None and now.confidence not in (None, archived.confidence):
        implied.append(f"-c {archived.confidence} (its intervals are {archived.confidence}%)")
    if archived.per_eval != now.per_eval:
        implied.append("-d (it prints each eval)" if archived.per_eval else "no -d (it prints no eval)")
    if archived.counts != now.counts:
        implied.append("-t 2 (it prints counts)" if archived.counts else "no -t 2 (it prints averages)")
    systems = [s for s in archived.systems if s not in set(now.systems)]
    if systems:
        implied.append(f"-a or the system ID (it scores {', '.join(systems[:5])})")
    if not implied and metrics == mine:
        implied.append(
            "nothing in its lines: the numbers change with -m, -s, -l/-b, -f, -p, -r, the data "
            "directory (-e) or the summaries"
        )
    return implied


def _named(skips: set[tuple[str, str]]) -> str:
    return ", ".join(f"ROUGE-S{u}{g}" for u, g in sorted(skips))
