"""SEE/DUC HTML summaries: the Perl's line pattern, not an HTML parser.

Only lines that start with ``<a [size="N" ]name="N">[N]</a> <a href="#N" id=N>``
count; the sentence is everything after it up to the next ``<`` (the line end
included). Entities stay as they are.
"""

from __future__ import annotations

import re

from ._match import matching_sentences

__all__ = ["sentences"]

_LINE = re.compile(
    r'<a (?:size="[0-9]+" )?name="[0-9]+">\[[0-9]+\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)',
    re.ASCII,
)


def sentences(lines: list[str]) -> list[str]:
    """Sentence texts of the matching lines, in file order."""
    return matching_sentences(_LINE, lines)
