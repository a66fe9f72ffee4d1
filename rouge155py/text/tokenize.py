"""From text pieces to the tokens a metric counts: stopwords, token filter, stemming."""

from __future__ import annotations

from ..resources import LinguisticData
from .normalize import counted_tokens
from .stem import porter_stem

__all__ = ["Tokenizer"]


class Tokenizer:
    """Turns text into tokens under one run's ``-s`` setting and data files."""

    def __init__(self, data: LinguisticData, remove_stopwords: bool) -> None:
        self._stopwords = data.stopwords if remove_stopwords else frozenset()
        self._exceptions = data.exceptions
        self._stems: dict[str, str] = {}

    def morph_stem(self, token: str) -> str:
        """WordNet exception first, else the Perl's Porter variant."""
        stem = self._stems.get(token)
        if stem is None:
            lowered = token.translate(_LOWER)
            found = self._exceptions.get(lowered)
            stem = self._stems[token] = found if found is not None else porter_stem(lowered)
        return stem

    def tokens(self, pieces: list[str], stem: bool) -> list[str]:
        """Counted tokens of the pieces, stemmed when longer than 3 bytes under ``-m``."""
        found = counted_tokens(" ".join(pieces))
        if self._stopwords:
            found = [t for t in found if t not in self._stopwords]
        if stem:
            stems, morph = self._stems, self.morph_stem
            found = [(stems.get(t) or morph(t)) if len(t) > 3 else t for t in found]
        return found


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
