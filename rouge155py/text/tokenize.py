"""From text pieces to the tokens a metric counts: stopwords, token filter, stemming."""

from __future__ import annotations

import sys
from typing import Any, Callable, Iterable, Optional

from ..inputs.files import ASCII_LOWER
from .normalize import counted_tokens
from .resources import LinguisticData, bundled_exceptions
from .stem import porter_stem

__all__ = ["Stems", "TextStageBase", "Tokenizer", "stopword_entries"]


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


class Stems(dict[str, str]):
    """Token -> counted form under -m, computed once: ``stem(token)`` when ``shortest`` or longer."""

    def __init__(self, stem: Callable[[str], str], shortest: int = 1) -> None:
        super().__init__()
        self._stem = stem
        self._shortest = shortest

    def __missing__(self, token: str) -> str:
        value = self[token] = self._stem(token) if len(token) >= self._shortest else token
        return value


class TextStageBase:
    """What both text stages share: stopwords removed, stems computed once, tokens of pieces or sentences.

    A stage sets ``_stopwords`` and ``_stems`` and says how a text splits (:meth:`split`).
    """

    _stopwords: frozenset[str]
    _stems: Stems

    def split(self, text: str) -> list[str]:
        """The text's tokens before stopwords and stemming: :meth:`counted` maps each one."""
        raise NotImplementedError

    @property
    def removes_stopwords(self) -> bool:
        """Whether :meth:`counted` drops some tokens."""
        return bool(self._stopwords)

    def counted(self, token: str, stem: bool) -> Optional[str]:
        """The form of one split token that the metrics count (``None``: a stopword, dropped)."""
        if token in self._stopwords:
            return None
        return self._stems[token] if stem else token

    def _counted(self, text: str, stem: bool) -> list[str]:
        found = self.split(text)
        if self._stopwords:
            found = [t for t in found if t not in self._stopwords]
        # Both maps return shared string objects: one copy of each word per run.
        return list(map(self._stems.__getitem__ if stem else sys.intern, found))

    def tokens(self, pieces: list[str], stem: bool) -> list[str]:
        """Counted tokens of the pieces (a reader's texts, joined by spaces), stemmed under ``-m``."""
        return self._counted(" ".join(pieces), stem)

    def sentence_tokens(self, sentences: list[str], stem: bool) -> list[list[str]]:
        """Counted tokens of each sentence."""
        return [self._counted(sentence, stem) for sentence in sentences]


class Tokenizer(TextStageBase):
    """Turns text into tokens under one run's ``-s`` setting and data files (the Perl's rules)."""

    def __init__(self, data: LinguisticData, remove_stopwords: bool) -> None:
        self._stopwords = data.stopwords if remove_stopwords else frozenset()
        self._exceptions = data.exceptions  # None: the bundled lists, read at the first stem
        self._stems = Stems(self.morph_stem, shortest=4)  # the Perl stems tokens longer than 3 bytes

    def morph_stem(self, token: str) -> str:
        """WordNet exception first, else the Perl's Porter variant (any length)."""
        lowered = token.translate(ASCII_LOWER)
        if self._exceptions is None:
            self._exceptions = bundled_exceptions()
        found = self._exceptions.get(lowered)
        return found if found is not None else porter_stem(lowered)

    split = staticmethod(counted_tokens)
    #: The C kernel's ``encode`` splits texts as :func:`counted_tokens` does.
    splits_as_the_perl = True

    def kernel_state(self, kernel: Any) -> object:
        """This stage's rules for the C kernel's ``score_pairs`` (its tokens, stopwords and
        stems, remembered across calls): one state per thread. Without the exception lists
        (a stage of a run that never stems, see :func:`~rouge155py.text.stage.text_stage`) the
        kernel is given none: it looks them up only to stem."""
        return kernel.text_state(self._stopwords, {} if self._exceptions is None else self._exceptions)
