"""What an evaluation computes: numbers, not text (:mod:`rouge155py.report` formats them).

A report holds one :class:`MetricResult` per (peer, metric) in the Perl's
output order. Each holds the per-instance rows (``eval ID.peer ID`` ->
R, P, F as the Perl rounds and averages them, or the raw model, peer and hit
counts under ``-t 1``/``-t 2``) and either a :class:`Summary` (average and
confidence interval of R, P, F) or, under ``-t 2``, the summed counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

__all__ = ["Counts", "MetricResult", "Row", "Summary"]

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
