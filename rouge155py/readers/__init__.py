"""Summary readers: each input format's line rules, and the length limits.

A reader turns a file into its sentences, lowercased (ASCII only), as ``str``
holding the file's bytes one-to-one (latin-1), so byte rules hold everywhere.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from ..errors import InputError
from . import be, isi, see, spl
from .limits import limit_for_lcs, limit_for_ngrams

__all__ = ["limit_for_lcs", "limit_for_ngrams", "read_be_lines", "read_sentences"]

_READERS: dict[str, Callable[[list[str]], list[str]]] = {
    "SEE": see.sentences,
    "ISI": isi.sentences,
    "SPL": spl.sentences,
}
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _format(input_format: Optional[str], known: tuple[str, ...]) -> Optional[str]:
    """The canonical name of a format given in any letter case, else None."""
    if input_format is None:
        return None
    pattern = "|".join(known)
    # Perl's /^SEE$/i: "$" also matches before a final newline.
    found = re.fullmatch(f"(?ai:({pattern}))\n?", input_format)
    return found.group(1).upper() if found else None


def _file_lines(path: str) -> list[str]:
    """The file's lines as Perl's ``<FH>`` returns them: split after each ``\\n``."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except IsADirectoryError:
        return []  # the Perl opens a directory and reads nothing from it
    except OSError as exc:
        raise InputError(f"Cannot open {path}: {exc.strerror}") from None
    text = data.decode("latin-1")
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    if not lines[-1]:
        lines.pop()
    return lines


def read_sentences(path: str, input_format: Optional[str]) -> list[str]:
    """Sentences of a SEE, ISI or SPL file, lowercased."""
    lines = _file_lines(path)
    kind = _format(input_format, tuple(_READERS))
    if kind is None:
        raise InputError(f"Unknown input format {input_format!r} for {path}")
    return [s.translate(_LOWER) for s in _READERS[kind](lines)]


def read_be_lines(path: str, input_format: Optional[str]) -> list[str]:
    """Basic Element lines of a SIMPLE file (an ISI BE file reads as empty)."""
    lines = _file_lines(path)
    kind = _format(input_format, ("SIMPLE", "ISI"))
    if kind == "SIMPLE":
        return be.lines(lines)
    if kind == "ISI":
        return []
    raise InputError(f"Unknown input format {input_format!r} for BE file {path}")
