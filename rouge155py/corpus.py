"""Every file read and tokenized once per run, whatever the number of metrics and peers.

The corpus caches, per (path, format): the sentences; per stemming choice:
the n-gram reader's tokens and the LCS reader's token sentences; and, on top,
each metric's counts of a file.
"""

from __future__ import annotations

import os
from array import array
from collections import Counter
from typing import Callable, Hashable, Optional, TypeVar

from .metrics import Grams
from .metrics.be import basic_elements
from .metrics.lcs import LcsText
from .readers import limit_for_lcs, limit_for_ngrams, read_be_lines, read_sentences
from .resources import LinguisticData
from .text.tokenize import Tokenizer

__all__ = ["Corpus", "Vocabulary"]

T = TypeVar("T")


class Vocabulary(dict):  # type: ignore[type-arg]
    """Token -> integer id, a new id for each new token."""

    def __missing__(self, token: str) -> int:
        value = self[token] = len(self)
        return value


class Corpus:
    """Cached views of the summary files of one run."""

    def __init__(self, data: LinguisticData, remove_stopwords: bool, words: float, nbytes: float) -> None:
        self.tokenizer = Tokenizer(data, remove_stopwords)
        self._words = words
        self._bytes = nbytes
        self._cache: dict[Hashable, object] = {}
        self.vocabulary = Vocabulary()
        self._limited = bool(words or nbytes)

    def clear(self) -> None:
        """Forget every file read so far (their tokens are not needed again)."""
        self._cache.clear()
        self.vocabulary = Vocabulary()

    def _cached(self, key: Hashable, make: Callable[[], T]) -> T:
        try:
            return self._cache[key]  # type: ignore[return-value]
        except KeyError:
            value = self._cache[key] = make()
            return value

    def sentences(self, path: str, fmt: Optional[str]) -> list[str]:
        """The file's sentences (lowercased), before any length limit.

        Kept only when a length limit needs them again; else each stemming
        choice reads the file once, and only its tokens stay in memory.
        """
        if not self._limited:
            return read_sentences(path, fmt)
        return self._cached(("sentences", path, fmt), lambda: read_sentences(path, fmt))

    def sentence_tokens(self, path: str, fmt: Optional[str], stem: bool) -> list[list[str]]:
        """Tokens of each sentence, before any length limit."""
        return self._cached(
            ("sentence tokens", path, fmt, stem),
            lambda: self.tokenizer.sentence_tokens(self.sentences(path, fmt), stem),
        )

    def tokens(self, path: str, fmt: Optional[str], stem: bool) -> list[str]:
        """Tokens as the n-gram reader sees them (``-l``/``-b`` applied across sentences)."""
        if not self._limited:
            return [t for sentence in self.sentence_tokens(path, fmt, stem) for t in sentence]
        return self._cached(
            ("tokens", path, fmt, stem),
            lambda: self.tokenizer.tokens(
                limit_for_ngrams(self.sentences(path, fmt), self._words, self._bytes), stem
            ),
        )

    def token_ids(self, path: str, fmt: Optional[str], stem: bool) -> array:
        """The n-gram reader's tokens as the run's integer ids."""
        return self._cached(
            ("ids", path, fmt, stem),
            lambda: array("i", map(self.vocabulary.__getitem__, self.tokens(path, fmt, stem))),
        )

    def exists(self, path: str) -> bool:
        """Whether the path exists (the Perl's ``-e`` test on model files)."""
        return self._cached(("exists", path), lambda: os.path.exists(path))

    def lcs_text(self, path: str, fmt: Optional[str], stem: bool, unigram_stem: bool) -> LcsText:
        """ROUGE-L/W view: the LCS reader's sentences and the n-gram reader's unigrams."""

        def make() -> LcsText:
            if self._limited:
                kept = limit_for_lcs(self.sentences(path, fmt), self._words, self._bytes)
                sentences = self.tokenizer.sentence_tokens(kept, stem)
            else:
                sentences = self.sentence_tokens(path, fmt, stem)
            unigrams = self.tokens(path, fmt, unigram_stem)
            return LcsText(sentences, Counter(unigrams), len(unigrams), self.vocabulary)

        return self._cached(("lcs", path, fmt, stem, unigram_stem), make)

    def basic_elements(self, path: str, fmt: Optional[str], stem: bool, mode: str) -> Grams:
        """ROUGE-BE units of a file."""

        def make() -> Grams:
            lines = self._cached(("be-lines", path, fmt), lambda: read_be_lines(path, fmt))
            return basic_elements(lines, mode, self.tokenizer.morph_stem if stem else None, path)

        return self._cached(("be", path, fmt, stem, mode), make)
