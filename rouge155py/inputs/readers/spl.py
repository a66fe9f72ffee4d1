"""SPL summaries: one sentence per line; every non-empty line counts, untrimmed."""

from __future__ import annotations

__all__ = ["sentences"]


def sentences(lines: list[str]) -> list[str]:
    """Each line without its ``\\n``, unless that leaves nothing."""
    found = []
    for line in lines:
        text = line[:-1] if line.endswith("\n") else line
        if text:
            found.append(text)
    return found
