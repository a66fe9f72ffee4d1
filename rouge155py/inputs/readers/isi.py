"""ISI summaries: ``<S SNTNO="...">text</S>`` at the start of a line."""

from __future__ import annotations

import re

from ._match import matching_sentences

__all__ = ["sentences"]

_LINE = re.compile(r'<S SNTNO="[0-9a-z,]+">([^<]+)</S>', re.ASCII)


def sentences(lines: list[str]) -> list[str]:
    """Sentence texts of the matching lines, in file order."""
    return matching_sentences(_LINE, lines)
