"""rouge-score's ``tokenizers`` module: ``Tokenizer``, ``DefaultTokenizer`` (``porter``: nltk's module)."""

from __future__ import annotations

import abc
from typing import Any, Optional

from ..text import rouge_score as stage
from . import _surface, tokenize

__all__ = ["DefaultTokenizer", "PorterStemmer", "Tokenizer"]

__getattr__, __dir__ = _surface.add_names(globals(), {"porter": "nltk.stem.porter"})


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


_DEFAULT_TOKENIZE = DefaultTokenizer.tokenize


def kernel_stemming(tokenizer: Any) -> Optional[bool]:
    """Whether the kernel's text stage gives ``tokenizer``'s tokens stemmed (True) or not
    (False); None where its own ``tokenize()`` must give them: another tokenizer, another
    stemmer, or :mod:`.tokenize`'s patterns or function re-pointed (checked at each call)."""
    if (
        type(tokenizer) is not DefaultTokenizer
        or DefaultTokenizer.tokenize is not _DEFAULT_TOKENIZE
        or not tokenize.patterns_are_own()
    ):
        return None
    stemmer = tokenizer._stemmer
    if not stemmer:
        return False
    return True if type(stemmer) is PorterStemmer or tokenize._is_default_stemmer(stemmer) else None
