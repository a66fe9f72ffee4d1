"""Text normalisation: the Perl's character rules, reduced to a token pattern.

The Perl puts spaces around every ``-``, turns every byte outside
``[A-Za-z0-9-]`` into a space and splits on whitespace: the tokens are thus the
runs of ASCII letters and digits, and each ``-`` alone.
"""

from __future__ import annotations

import re

__all__ = ["counted_tokens", "raw_tokens"]

_TOKEN = re.compile(r"[A-Za-z0-9]+|-")
# A token counts when it starts with [a-z0-9$]: of the tokens above, those that
# start with a lowercase letter or a digit ("-" never counts).
_COUNTED = re.compile(r"(?<![A-Za-z0-9])[a-z0-9][A-Za-z0-9]*")


def raw_tokens(text: str) -> list[str]:
    """The whitespace-separated tokens of the normalised text."""
    return _TOKEN.findall(text)


def counted_tokens(text: str) -> list[str]:
    """The tokens of ``raw_tokens`` that the metrics count, in order."""
    return _COUNTED.findall(text)
