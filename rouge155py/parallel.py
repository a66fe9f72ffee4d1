"""``-j N``: evaluate with worker processes (placeholder until the fast engine lands)."""

from __future__ import annotations

from .evaluate import Report, evaluate
from .options import Options

__all__ = ["evaluate_parallel"]


def evaluate_parallel(options: Options) -> Report:
    """Same report as :func:`evaluate`."""
    return evaluate(options)
