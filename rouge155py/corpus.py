"""Every document read and tokenized once per run, whatever the number of metrics and peers.

The corpus caches, per document: its sentences; per stemming choice: the
n-gram reader's tokens and the LCS reader's token sentences; and whatever view
a metric builds on top of them (:meth:`Corpus.view`). Its text stage (the
Perl's rules, or ``--lang``'s) turns the readers' text into tokens.
"""

from __future__ import annotations

from array import array
from typing import Callable, Hashable, TypeVar

from .readers import Document, limit_for_lcs, limit_for_ngrams, read_be_lines, read_sentences
from .text.stage import TextStage

__all__ = ["Corpus", "Vocabulary"]

T = TypeVar("T")


class Vocabulary(dict):  # type: ignore[type-arg]
    """Token -> integer id, a new id for each new token."""

    def __missing__(self, token: str) -> int:
        value = self[token] = len(self)
        return value


class Corpus:
    """Cached views of the documents of one run."""

    def __init__(self, stage: TextStage, words: float, nbytes: float) -> None:
        """``stage`` (see :func:`~rouge155py.text.stage.text_stage`); ``words``/``nbytes``: ``-l``/``-b``."""
        self.tokenizer = stage
        self._words = words
        self._bytes = nbytes
        self._cache: dict[Hashable, object] = {}
        self.vocabulary = Vocabulary()
        self._limited = bool(words or nbytes)

    def clear(self) -> None:
        """Forget every document read so far (their tokens are not needed again)."""
        self._cache.clear()
        self.vocabulary = Vocabulary()

    def view(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value cached under ``key``, made once."""
        try:
            return self._cache[key]  # type: ignore[return-value]
        except KeyError:
            value = self._cache[key] = make()
            return value

    def sentences(self, document: Document) -> list[str]:
        """The document's sentences (lowercased), before any length limit.

        Kept only when a length limit needs them again; else each stemming
        choice reads the document once, and only its tokens stay in memory.
        """
        if not self._limited:
            return read_sentences(document)
        return self.view(("sentences", document), lambda: read_sentences(document))

    def sentence_tokens(self, document: Document, stem: bool) -> list[list[str]]:
        """Tokens of each sentence, before any length limit."""
        return self.view(
            ("sentence tokens", document, stem),
            lambda: self.tokenizer.sentence_tokens(self.sentences(document), stem),
        )

    def tokens(self, document: Document, stem: bool) -> list[str]:
        """Tokens as the n-gram reader sees them (``-l``/``-b`` applied across sentences)."""
        if not self._limited:
            return [t for sentence in self.sentence_tokens(document, stem) for t in sentence]
        return self.view(
            ("tokens", document, stem),
            lambda: self.tokenizer.tokens(
                limit_for_ngrams(self.sentences(document), self._words, self._bytes), stem
            ),
        )

    def lcs_sentence_tokens(self, document: Document, stem: bool) -> list[list[str]]:
        """Tokens of each sentence as the LCS reader keeps them (its own ``-l``/``-b`` rules)."""
        if not self._limited:
            return self.sentence_tokens(document, stem)
        kept = limit_for_lcs(self.sentences(document), self._words, self._bytes)
        return self.tokenizer.sentence_tokens(kept, stem)

    def token_ids(self, document: Document, stem: bool) -> array:
        """The n-gram reader's tokens as the run's integer ids."""
        return self.view(
            ("ids", document, stem),
            lambda: array("i", map(self.vocabulary.__getitem__, self.tokens(document, stem))),
        )

    def be_lines(self, document: Document) -> list[str]:
        """The Basic Element lines of a document."""
        return self.view(("be-lines", document), lambda: read_be_lines(document))

    def exists(self, document: Document) -> bool:
        """Whether the document exists (the Perl's ``-e`` test on model files)."""
        return self.view(("exists", document), document.exists)
