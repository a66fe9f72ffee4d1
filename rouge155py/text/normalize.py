"""Text normalisation: the Perl's character rules, reduced to one token pattern.

The Perl puts spaces around every ``-``, turns every byte outside
``[A-Za-z0-9-]`` into a space and splits on whitespace: its tokens are the
runs of ASCII letters and digits, and each ``-`` alone. A token counts when it
starts with ``[a-z0-9$]``, so of those only the runs that start with a
lowercase letter or a digit count ("-" never does, and no "$" survives).
"""

from __future__ import annotations

import re

__all__ = ["counted_tokens"]

_COUNTED = re.compile(r"(?<![A-Za-z0-9])[a-z0-9][A-Za-z0-9]*")


def counted_tokens(text: str) -> list[str]:
    """The normalised text's tokens that the metrics count, in order."""
    return _COUNTED.findall(text)
