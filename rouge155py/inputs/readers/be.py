"""SIMPLE Basic Element files: one ``head|modifier|relation`` per line."""

from __future__ import annotations

__all__ = ["lines"]


def lines(raw_lines: list[str]) -> list[str]:
    """Every line without its ``\\n``; empty lines are kept (and later rejected)."""
    return [line[:-1] if line.endswith("\n") else line for line in raw_lines]
