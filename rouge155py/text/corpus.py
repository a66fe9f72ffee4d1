"""Every document read and tokenized once per run, whatever the number of metrics and peers.

The corpus caches, per document and stemming choice, the token ids of its
sentences (one integer per counted token, the same id for the same form all
run long), and whatever view a metric builds on top of them
(:meth:`Corpus.view`). Its text stage (the Perl's rules, or ``--lang``'s)
says how a text splits into tokens and what each token counts as.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Callable, Hashable, Optional, TypeVar

from .. import _kernel
from ..inputs.readers import (
    Document,
    SummaryText,
    limit_for_lcs,
    limit_for_ngrams,
    read_be_lines,
    read_sentences,
    spl_text,
)
from .stage import TextStage

if TYPE_CHECKING:
    from typing_extensions import CapsuleType

__all__ = ["Corpus", "Encoded", "TokenIds", "Vocabulary"]

T = TypeVar("T")


class Vocabulary(dict[Hashable, int]):
    """Token -> integer id, a new id for each new token (a str, or a custom tokenizer's token)."""

    def __missing__(self, token: Hashable) -> int:
        value = self[token] = len(self)
        return value


class TokenIds(dict[str, int]):
    """A split token -> the id of the form the metrics count, under one stemming choice; -1: a stopword.

    Each distinct token goes through the stopword list and the stemmer once per run.
    """

    def __init__(self, stage: TextStage, stem: bool, vocabulary: Vocabulary) -> None:
        super().__init__()
        self._stage = stage
        self._stem = stem
        self._vocabulary = vocabulary
        self._memo: Optional[CapsuleType] = None

    def memo(self) -> CapsuleType:
        """The kernel's memo of these ids (made once): it asks this dict once per distinct token."""
        if self._memo is None:
            assert _kernel.accel is not None  # asked for only where the kernel splits
            self._memo = _kernel.accel.token_memo(self)
        return self._memo

    def __missing__(self, token: str) -> int:
        form = self._stage.counted(token, self._stem)
        value = self[token] = -1 if form is None else self._vocabulary[form]
        return value


#: Distinct tokens remembered across chunks of evals; past this the maps start again (bounded memory).
_MAX_REMEMBERED = 1 << 21

Encoded = tuple[array, array]  # token ids end to end, and where each text's ids start (len + 1 offsets)


def _arrays(found: tuple[bytes, bytes]) -> Encoded:
    """The kernel's int32 ids and offsets as arrays."""
    ids, offsets = array("i"), array("i")
    ids.frombytes(found[0])
    offsets.frombytes(found[1])
    return ids, offsets


class Corpus:
    """Cached views of the documents of one run."""

    def __init__(self, stage: TextStage, words: float, nbytes: float) -> None:
        """``stage`` (see :func:`~rouge155py.text.stage.text_stage`); ``words``/``nbytes``: ``-l``/``-b``."""
        self.tokenizer = stage
        self._words = words
        self._bytes = nbytes
        self._cache: dict[Hashable, object] = {}
        self._encoded: dict[tuple[Document, bool], Encoded] = {}
        self._limited = bool(words or nbytes)
        # The kernel knows the Perl's tokens; a stage that splits otherwise (--lang) splits in Python.
        self._kernel_splits = _kernel.accel is not None and getattr(stage, "splits_as_the_perl", False)
        self._forget_tokens()

    def _forget_tokens(self) -> None:
        self.vocabulary = Vocabulary()
        self._lasting: dict[Hashable, object] = {}
        self._lasting_tokens = 0  # the distinct tokens that lasting values brought in
        self._token_ids = {stem: TokenIds(self.tokenizer, stem, self.vocabulary) for stem in (False, True)}

    def clear(self) -> None:
        """Forget every document read so far (their tokens are not needed again).

        Token ids stay valid across chunks, unless the run has seen very many distinct tokens.
        """
        self._cache.clear()
        self._encoded.clear()
        if self._remembered() - self._lasting_tokens > _MAX_REMEMBERED:
            self._forget_tokens()

    def _remembered(self) -> int:
        return len(self.vocabulary) + len(self._token_ids[False]) + len(self._token_ids[True])

    def view(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value cached under ``key``, made once."""
        try:
            return self._cache[key]  # type: ignore[return-value]
        except KeyError:
            value = self._cache[key] = make()
            return value

    def viewed(self, key: Hashable) -> bool:
        """Whether a view is cached under ``key``."""
        return key in self._cache

    def lasting(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value cached under ``key``, made once and kept across chunks of evals while the token
        ids stay valid (a paraphrase table in those ids)."""
        try:
            return self._lasting[key]  # type: ignore[return-value]
        except KeyError:
            before = self._remembered()
            value = self._lasting[key] = make()
            # Its tokens stay for the run: only the documents' count towards the bound on them.
            self._lasting_tokens += self._remembered() - before
            return value

    def sentences(self, document: Document) -> list[str]:
        """The document's sentences (lowercased), before any length limit.

        Kept only when a length limit needs them again; else each stemming
        choice reads the document once, and only its token ids stay in memory.
        """
        if not self._limited:
            return read_sentences(document)
        return self.view(("sentences", document), lambda: read_sentences(document))

    def encode(self, texts: list[str], stem: bool) -> Encoded:
        """The ids of the counted tokens of each text, end to end, and where each text's ids start."""
        table = self._token_ids[stem]
        if self._kernel_splits:
            found = _kernel.accel.encode(texts, table, self.tokenizer.removes_stopwords, table.memo())  # type: ignore[union-attr]
            return _arrays(found)
        split = self.tokenizer.split
        ids, offsets = array("i"), array("i", [0])
        if self.tokenizer.removes_stopwords:
            for text in texts:
                ids.extend([i for i in map(table.__getitem__, split(text)) if i >= 0])
                offsets.append(len(ids))
        else:
            for text in texts:
                ids.extend(map(table.__getitem__, split(text)))
                offsets.append(len(ids))
        return ids, offsets

    def sentence_ids(self, document: Document, stem: bool) -> Encoded:
        """Token ids of the document's sentences, before any length limit."""
        key = (document, stem)  # asked for by every metric and pair: a plain dict, no closure
        found = self._encoded.get(key)
        if found is None:
            found = self._encoded[key] = self._read_ids(document, stem)
        return found

    def _read_ids(self, document: Document, stem: bool) -> Encoded:
        """:meth:`encode` of the document's sentences; an SPL document's text goes to the kernel
        whole, which splits its lines and lowercases them as :func:`read_sentences` does."""
        accel = _kernel.accel
        if self._kernel_splits and not self._limited and accel is not None:
            text = spl_text(document)
            if text is not None:
                table = self._token_ids[stem]
                found = accel.encode_lines(text, table, self.tokenizer.removes_stopwords, table.memo())
                if found is not None:
                    return _arrays(found)
        return self.encode(self.sentences(document), stem)

    def token_ids(self, document: Document, stem: bool) -> array:
        """The n-gram reader's token ids (``-l``/``-b`` applied across sentences)."""
        if not self._limited:
            return self.sentence_ids(document, stem)[0]

        def make() -> array:
            pieces = limit_for_ngrams(self.sentences(document), self._words, self._bytes)
            return self.encode([" ".join(pieces)], stem)[0]

        return self.view(("ids", document, stem), make)

    def ngram_sentence_ids(self, document: Document, stem: bool) -> Encoded:
        """The n-gram reader's token ids (:meth:`token_ids`), and where each sentence's start."""
        if not self._limited:
            return self.sentence_ids(document, stem)

        def make() -> Encoded:
            return self.encode(limit_for_ngrams(self.sentences(document), self._words, self._bytes), stem)

        return self.view(("sentence-ids", document, stem), make)

    def lcs_sentence_ids(self, document: Document, stem: bool) -> Encoded:
        """Token ids of each sentence as the LCS reader keeps them (its own ``-l``/``-b`` rules)."""
        if not self._limited:
            return self.sentence_ids(document, stem)
        return self.encode(limit_for_lcs(self.sentences(document), self._words, self._bytes), stem)

    def be_lines(self, document: Document) -> list[str]:
        """The Basic Element lines of a document."""
        return self.view(("be-lines", document), lambda: read_be_lines(document))

    def exists(self, document: Document) -> bool:
        """Whether the document exists (the Perl's ``-e`` test on model files)."""
        if type(document) is SummaryText:  # in memory: no need to hash its text for a cache
            return True
        return self.view(("exists", document), document.exists)
