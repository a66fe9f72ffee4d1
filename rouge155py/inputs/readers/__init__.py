"""Summary readers: each input format's line rules, and the length limits.

A reader turns a document (a file or a text in memory) into its sentences,
lowercased (ASCII only), as ``str`` holding the bytes one-to-one (latin-1), so
byte rules hold everywhere.
"""

from __future__ import annotations

import functools
import re
from typing import Callable, Optional

from ...errors import InputError
from ..files import ascii_lower
from . import be, isi, see, spl
from .document import Document, SummaryFile, SummaryText
from .limits import limit_for_lcs, limit_for_ngrams

__all__ = [
    "Document",
    "SummaryFile",
    "SummaryText",
    "limit_for_lcs",
    "limit_for_ngrams",
    "read_be_lines",
    "read_sentences",
    "sentence_text",
    "spl_text",
]

_READERS: dict[str, Callable[[list[str]], list[str]]] = {
    "SEE": see.sentences,
    "ISI": isi.sentences,
    "SPL": spl.sentences,
}


@functools.lru_cache(maxsize=64)
def _format(input_format: Optional[str], known: tuple[str, ...]) -> Optional[str]:
    """The canonical name of a format given in any letter case, else None."""
    if input_format is None:
        return None
    pattern = "|".join(known)
    # Perl's /^SEE$/i: "$" also matches before a final newline.
    found = re.fullmatch(f"(?ai:({pattern}))\n?", input_format)
    return found.group(1).upper() if found else None


def read_sentences(document: Document, lowercase: bool = True) -> list[str]:
    """Sentences of a SEE, ISI or SPL document, lowercased as ROUGE reads them (the metrics
    beside ROUGE take them as written: ``lowercase=False``)."""
    lines = document.lines()
    kind = _format(document.input_format, tuple(_READERS))
    if kind is None:
        raise InputError(f"Unknown input format {document.input_format!r} for {document.name}")
    sentences = _READERS[kind](lines)
    return [ascii_lower(s) for s in sentences] if lowercase else sentences


def sentence_text(document: Document) -> str:
    """The document's sentences as one text, a line each (not yet lowercased): an SPL
    document's own text (:func:`spl_text`), whose lines are its sentences (an empty one holds no
    token)."""
    text = spl_text(document)
    return "\n".join(read_sentences(document)) if text is None else text


def spl_text(document: Document) -> Optional[str]:
    """An SPL document's text (its lines are its sentences, as :func:`read_sentences` reads them
    before lowercasing: those not empty); None for a document of any other format."""
    if _format(document.input_format, tuple(_READERS)) != "SPL":
        return None
    return document.content()


def read_be_lines(document: Document) -> list[str]:
    """Basic Element lines of a SIMPLE document (an ISI BE file reads as empty)."""
    lines = document.lines()
    kind = _format(document.input_format, ("SIMPLE", "ISI"))
    if kind == "SIMPLE":
        return be.lines(lines)
    if kind == "ISI":
        return []
    raise InputError(f"Unknown input format {document.input_format!r} for BE file {document.name}")
