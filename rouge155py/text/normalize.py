"""Text normalisation: the Perl's character rules, reduced to a token pattern.

The Perl puts spaces around every ``-``, turns every byte outside
``[A-Za-z0-9-]`` into a space and splits on whitespace: the tokens are thus the
runs of ASCII letters and digits, and each ``-`` alone.
"""

from __future__ import annotations

import re

__all__ = ["raw_tokens"]

_TOKEN = re.compile(r"[A-Za-z0-9]+|-")


def raw_tokens(text: str) -> list[str]:
    """The whitespace-separated tokens of the normalised text."""
    return _TOKEN.findall(text)
