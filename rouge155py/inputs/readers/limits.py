"""Length limits ``-l`` (words) and ``-b`` (bytes), as the Perl's two readers apply them.

The n-gram reader keeps whole sentences while the running size stays under the
limit, then cuts the next one. The LCS reader (ROUGE-L/W) never advances its
running byte count, so with ``-b`` each sentence is compared to the limit alone.
Both return text pieces whose tokens, concatenated, are the tokens the Perl sees.
"""

from __future__ import annotations

import re

__all__ = ["limit_for_lcs", "limit_for_ngrams", "perl_split"]

_WS = re.compile(r"\s+", re.ASCII)


def perl_split(text: str) -> list[str]:
    """Perl ``split(/\\s+/, text)``: a leading empty field stays, trailing ones go."""
    fields = _WS.split(text)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def _first_words(fields: list[str], words: float, size: int) -> str:
    # The Perl joins fields[0 .. words - size - 1]; a range end is truncated toward zero.
    last = int(words - size - 1)
    return " ".join(fields[: last + 1]) if last >= 0 else ""


def limit_for_ngrams(sentences: list[str], words: float, nbytes: float) -> list[str]:
    """The pieces of text the n-gram reader keeps."""
    if words:
        kept, size = [], 0
        for sentence in sentences:
            fields = perl_split(sentence)
            if size + len(fields) < words:
                kept.append(sentence)
                size += len(fields)
            else:
                kept.append(_first_words(fields, words, size))
                break
        return kept
    if nbytes:
        kept, size = [], 0
        for sentence in sentences:
            if size + len(sentence) < nbytes:
                kept.append(sentence)
                size += len(sentence)
            else:
                kept.append(sentence[: int(nbytes - size)])
                break
        return kept
    return list(sentences)


def limit_for_lcs(sentences: list[str], words: float, nbytes: float) -> list[str]:
    """The sentences the LCS reader keeps (each stays a separate unit)."""
    if words:
        return limit_for_ngrams(sentences, words, 0)
    if nbytes:
        kept = []
        for sentence in sentences:
            if len(sentence) < nbytes:
                kept.append(sentence)
            else:
                kept.append(sentence[: int(nbytes)])
                break
        return kept
    return list(sentences)
