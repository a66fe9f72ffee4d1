"""From text pieces to the tokens a metric counts: stopwords, token filter, stemming."""

from __future__ import annotations

import sys
from typing import Callable, Iterable

from ..resources import LinguisticData
from .normalize import ASCII_LOWER, counted_tokens
from .stem import porter_stem

__all__ = ["Tokenizer", "stopword_entries"]


def stopword_entries(lines: Iterable[bytes]) -> frozenset[str]:
    """A user's stopword list (``--stopwords``) for this stage: each line that is one counted token.

    Lines are lowercased (ASCII) as the readers lowercase summaries; a line with
    no token or several (``don't``) is left out, since no token can equal it.
    """
    found: set[str] = set()
    for line in lines:
        words = counted_tokens(line.decode("latin-1").translate(ASCII_LOWER))
        if len(words) == 1:
            found.add(words[0])
    return frozenset(found)


class _Stems(dict):  # type: ignore[type-arg]
    """Token -> counted form under -m: stemmed when longer than 3 bytes, computed once."""

    def __init__(self, morph_stem: Callable[[str], str]) -> None:
        super().__init__()
        self._morph_stem = morph_stem

    def __missing__(self, token: str) -> str:
        value = self[token] = self._morph_stem(token) if len(token) > 3 else token
        return value


class Tokenizer:
    """Turns text into tokens under one run's ``-s`` setting and data files."""

    def __init__(self, data: LinguisticData, remove_stopwords: bool) -> None:
        self._stopwords = data.stopwords if remove_stopwords else frozenset()
        self._exceptions = data.exceptions
        self._stems = _Stems(self.morph_stem)

    def morph_stem(self, token: str) -> str:
        """WordNet exception first, else the Perl's Porter variant (any length)."""
        lowered = token.translate(ASCII_LOWER)
        found = self._exceptions.get(lowered)
        return found if found is not None else porter_stem(lowered)

    def _counted(self, text: str, stem: bool) -> list[str]:
        found = counted_tokens(text)
        if self._stopwords:
            found = [t for t in found if t not in self._stopwords]
        # Both maps return shared string objects: one copy of each word per run.
        return list(map(self._stems.__getitem__ if stem else sys.intern, found))

    def tokens(self, pieces: list[str], stem: bool) -> list[str]:
        """Counted tokens of the pieces, stemmed when longer than 3 bytes under ``-m``."""
        return self._counted(" ".join(pieces), stem)

    def sentence_tokens(self, sentences: list[str], stem: bool) -> list[list[str]]:
        """Counted tokens of each sentence."""
        return [self._counted(sentence, stem) for sentence in sentences]
