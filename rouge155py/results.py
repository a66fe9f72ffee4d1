"""What an evaluation produces: numbers, not text (the report writers format them).

A :class:`Report` holds one :class:`MetricResult` per (peer, metric) in the
Perl's output order. Each holds the per-instance rows (``eval ID.peer ID`` ->
R, P, F as the Perl rounds and averages them, or the raw model, peer and hit
counts under ``-t 1``/``-t 2``) and either a :class:`Summary` (average and
confidence interval of R, P, F) or, under ``-t 2``, the summed counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional, Union

if TYPE_CHECKING:
    from .options import Options

__all__ = ["Counts", "MetricResult", "Report", "Row", "Summary"]

Row = tuple[Union[int, float], Union[int, float], Union[int, float]]
Counts = tuple[Union[int, float], Union[int, float], Union[int, float]]


@dataclass(frozen=True)
class Summary:
    """Average and confidence bounds of R, P and F over the instances (unrounded)."""

    average: tuple[float, float, float]
    lower: tuple[float, float, float]
    upper: tuple[float, float, float]


@dataclass
class MetricResult:
    """One peer's result for one metric.

    ``instances`` maps each instance ID (``eval ID.peer ID``) to its row, in
    the Perl's ``-d`` order: R, P, F rounded to 5 decimals, or under ``-t``
    the model, peer and hit counts.
    """

    peer_id: str
    label: str
    instances: dict[str, Row]
    summary: Optional[Summary] = None
    counts: Optional[Counts] = None  # -t 2: model, peer and hit counts summed over instances


@dataclass
class Report:
    """Everything an evaluation prints, in order: results and warnings."""

    options: Options
    results: list[MetricResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def result(self, label: str, peer_id: Optional[str] = None) -> MetricResult:
        """The result of one metric (``"ROUGE-1"``, ``"ROUGE-L"``...) for a peer (the only one by default)."""
        found = [r for r in self.results if r.label == label and (peer_id is None or r.peer_id == peer_id)]
        if len(found) != 1:
            peers = sorted({r.peer_id for r in found})
            which = f"peer {peer_id!r}" if peer_id is not None else f"one of the peers {peers}"
            raise KeyError(f"no single result for {label} and {which}")
        return found[0]

    def format(self, name: str) -> str:
        """The report in an output format: ``legacy`` (the Perl's bytes), ``json`` or ``csv``."""
        from .report import write

        return write(name, self)

    def to_legacy(self) -> str:
        """The report exactly as ROUGE-1.5.5.pl prints it."""
        return self.format("legacy")

    def to_json(self) -> dict[str, Any]:
        """The numbers as a JSON-ready document (see :func:`rouge155py.report.json_document`)."""
        from .report import json_document

        return json_document(self)

    def to_rows(self) -> list[dict[str, Any]]:
        """One dict per instance: peer, metric, eval ID and its row (see :func:`rouge155py.report.rows`)."""
        from .report import rows

        return rows(self)
