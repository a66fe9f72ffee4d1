"""Output: the legacy ROUGE-1.5.5 text, byte for byte, and a JSON document."""

from __future__ import annotations

import math
from typing import Any, Union

from .evaluation import MetricResult, Report

__all__ = ["format_legacy", "perl_number", "to_json"]

_RULE = "-" * 45
_DOTS = "." * 45


def perl_number(value: Union[int, float, str]) -> str:
    """A number as Perl prints it without a format: integers plainly, else ``%.15g``."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    return f"{value:.15g}"


def _metric_text(result: MetricResult, confidence: str, per_eval: bool) -> list[str]:
    head = f"{result.peer_id} {result.label}"
    lines = [_RULE]
    if result.summary is not None:
        s = result.summary
        for k, name in enumerate("RPF"):
            lines.append(
                f"{head} Average_{name}: {s.average[k]} ({confidence}%-conf.int. {s.lower[k]} - {s.upper[k]})"
            )
    else:
        m, p, h = result.counts or (0, 0, 0)
        lines.append(f"{head} M_count: {m} P_count: {p} H_count: {h}")
    if per_eval:
        lines.append(_DOTS)
        for instance, row in result.instances.items():
            r, p, f = (perl_number(v) for v in row)
            lines.append(f"{head} Eval {instance} R:{r} P:{p} F:{f}")
    return lines


def format_legacy(report: Report) -> str:
    """The report exactly as ROUGE-1.5.5.pl prints it."""
    o = report.options
    lines: list[str] = []
    for result in report.results:
        lines.extend(_metric_text(result, o.confidence_label, o.per_eval))
    return "".join(line + "\n" for line in lines)


def to_json(report: Report, signature: str) -> dict[str, Any]:
    """A machine-readable form of the same numbers (floats, not strings)."""
    o = report.options
    systems: dict[str, dict[str, Any]] = {}
    for result in report.results:
        entry: dict[str, Any] = {}
        if result.summary is not None:
            s = result.summary
            for k, name in enumerate(("recall", "precision", "f")):
                entry[name] = {
                    "average": float(s.average[k]),
                    "conf_int": [float(s.lower[k]), float(s.upper[k])],
                }
        else:
            entry["counts"] = dict(zip(("model", "peer", "hit"), result.counts or (0, 0, 0)))
        if o.per_eval:
            entry["per_eval"] = {i: [float(v) for v in row] for i, row in result.instances.items()}
        systems.setdefault(result.peer_id, {})[result.label] = entry
    return {
        "signature": signature,
        "confidence": o.confidence,
        "resamples": o.resamples,
        "systems": systems,
        "warnings": report.warnings,
    }
