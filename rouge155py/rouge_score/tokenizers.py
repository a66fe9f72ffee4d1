"""rouge-score's ``tokenizers`` module: ``Tokenizer``, ``DefaultTokenizer``."""

from __future__ import annotations

import abc
from typing import Any

from ..text import rouge_score as stage
from . import tokenize

__all__ = ["DefaultTokenizer", "PorterStemmer", "Tokenizer"]


class Tokenizer(abc.ABC):
    """What a tokenizer provides: ``tokenize(text)``, a list of tokens."""

    @abc.abstractmethod
    def tokenize(self, text: Any) -> list[Any]:
        raise NotImplementedError("Tokenizer must override tokenize() method")


class PorterStemmer:
    """nltk's ``PorterStemmer()`` in its default mode, by the C kernel (nltk without it)."""

    def stem(self, word: str) -> str:
        """The stem of a word (lowercased first, as nltk does)."""
        return stage.stem(word.lower())


class DefaultTokenizer(Tokenizer):
    """rouge-score's tokenizer: lowercased runs of letters and digits, stemmed with ``use_stemmer``."""

    def __init__(self, use_stemmer: bool = False) -> None:
        self._stemmer = PorterStemmer() if use_stemmer else None

    def tokenize(self, text: Any) -> list[str]:
        return tokenize.tokenize(text, self._stemmer)
