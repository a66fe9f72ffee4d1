"""Text written out as valid UTF-8, one line per table row, no formula in a CSV cell.

(The bytes themselves go out through :func:`rouge155py.inputs.files.write_all`.) A name that is
not UTF-8 (a file name, an argument) reaches Python as lone surrogates, which strict UTF-8
readers refuse: :func:`escape_surrogates` shows each such byte as the four characters ``\\xNN``,
another lone surrogate (a JSON ``"\\ud800"``) as ``\\ud800``. :func:`escape_unencodable` escapes
only the latter, for the legacy report, which writes the bytes themselves.
:func:`escape_controls` shows a line break or another control character as ``\\xNN`` (a table
row stays one line), and :func:`spreadsheet_safe` keeps a CSV text cell from being read as a
formula.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "escape_controls",
    "escape_surrogates",
    "escape_unencodable",
    "escaped_strings",
    "spreadsheet_safe",
]

_SURROGATE = re.compile("[\ud800-\udfff]")
#: The lone surrogates that ``surrogateescape`` cannot write as a byte.
_UNENCODABLE = re.compile("[\ud800-\udc7f\udd00-\udfff]")
#: C0 controls (tab too), DEL, C1 controls (NEL among them), and the line breaks of Unicode that
#: Python's ``splitlines`` knows.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: What makes a spreadsheet read a cell as a formula (OWASP's CSV injection list).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    if 0xDC80 <= code <= 0xDCFF:  # the byte ``code - 0xDC00`` that was not UTF-8
        return f"\\x{code & 0xFF:02x}"
    return f"\\u{code:04x}"


def escape_surrogates(text: str) -> str:
    """``text`` made valid UTF-8: a byte that was not UTF-8 as ``\\xNN``, another surrogate as ``\\uDXXX``."""
    return _SURROGATE.sub(_escape, text)


def escaped_strings(value: Any) -> Any:
    """``value`` (a JSON-ready document) with :func:`escape_surrogates` applied to every string in it."""
    if isinstance(value, str):
        return escape_surrogates(value)
    if isinstance(value, dict):
        return {escaped_strings(key): escaped_strings(item) for key, item in value.items()}
    if isinstance(value, list):
        return [escaped_strings(item) for item in value]
    return value


def escape_unencodable(text: str) -> str:
    """``text`` with each lone surrogate that is not a byte of a name (U+DC80 to U+DCFF, which
    ``surrogateescape`` writes back as that byte) shown as ``\\uDXXX``: UTF-8 cannot hold it."""
    return _UNENCODABLE.sub(_escape, text)


def _control(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` on one line: each control character or line break as ``\\xNN`` (``\\u2028``)."""
    return _CONTROL.sub(_control, text)


def spreadsheet_safe(text: str) -> str:
    """A CSV text cell (an ID, a name) that no spreadsheet reads as a formula: one starting with
    ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a ``'`` before it (OWASP's rule)."""
    return "'" + text if text.startswith(_FORMULA_START) else text
