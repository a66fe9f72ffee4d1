"""The shared rule of the tagged formats: a line counts when it matches at its start."""

from __future__ import annotations

import re

__all__ = ["matching_sentences"]


def matching_sentences(pattern: re.Pattern[str], lines: list[str]) -> list[str]:
    """Group 1 of every line that ``pattern`` matches from its first byte."""
    found = []
    for line in lines:
        match = pattern.match(line)
        if match:
            found.append(match.group(1))
    return found
