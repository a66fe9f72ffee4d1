"""From text pieces to the tokens a metric counts: stopwords, token filter, stemming."""

from __future__ import annotations

import re
from functools import lru_cache

from ..resources import LinguisticData
from .normalize import raw_tokens
from .stem import porter_stem

__all__ = ["Tokenizer"]

_COUNTED = re.compile(r"[a-z0-9$]")


class Tokenizer:
    """Turns text into tokens under one run's ``-s`` setting and data files."""

    def __init__(self, data: LinguisticData, remove_stopwords: bool) -> None:
        self._stopwords = data.stopwords if remove_stopwords else frozenset()
        self._exceptions = data.exceptions
        self.morph_stem = lru_cache(maxsize=None)(self._morph_stem)

    def _morph_stem(self, token: str) -> str:
        """WordNet exception first, else the Perl's Porter variant."""
        lowered = token.translate(_LOWER)
        found = self._exceptions.get(lowered)
        return found if found is not None else porter_stem(lowered)

    def tokens(self, pieces: list[str], stem: bool) -> list[str]:
        """Counted tokens of the pieces, stemmed when longer than 3 bytes under ``-m``."""
        out: list[str] = []
        stopwords = self._stopwords
        for piece in pieces:
            for token in raw_tokens(piece):
                if token in stopwords or not _COUNTED.match(token):
                    continue
                out.append(self.morph_stem(token) if stem and len(token) > 3 else token)
        return out


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
