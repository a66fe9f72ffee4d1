"""The one choice of a run's text stage: the Perl's, or ``--lang``'s Unicode one.

Readers, length limits, metrics, the bootstrap and the reports are the same
for both: a stage only turns a reader's text into the tokens the metrics count
(tokenize, remove stopwords, stem).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional, Protocol

from ..options import Options
from ..resources import load_data, stopword_file_lines
from . import tokenize, unicode

__all__ = ["TextStage", "text_stage"]


class TextStage(Protocol):
    """What the corpus asks of a text stage."""

    def tokens(self, pieces: list[str], stem: bool) -> list[str]:
        """Counted tokens of the pieces of a document (joined by spaces)."""
        ...

    def sentence_tokens(self, sentences: list[str], stem: bool) -> list[list[str]]:
        """Counted tokens of each sentence."""
        ...

    def split(self, text: str) -> list[str]:
        """A text's tokens before stopwords and stemming."""
        ...

    @property
    def removes_stopwords(self) -> bool:
        """Whether :meth:`counted` drops some tokens."""
        ...

    def counted(self, token: str, stem: bool) -> Optional[str]:
        """The counted form of one split token (``None``: a stopword)."""
        ...

    def morph_stem(self, token: str) -> str:
        """The stem of one token (the BE reader's ``-m``)."""
        ...


def text_stage(options: Options) -> TextStage:
    """The stage ``options`` ask for: ``--lang`` (not ``en``) is Unicode, else the Perl's rules.

    ``--stopwords FILE`` replaces the SMART list in either; the Unicode stage
    reads no data directory.
    """
    user_list = stopword_file_lines(options.stopwords_file) if options.stopwords_file is not None else None
    if options.unicode_text:
        return unicode.UnicodeTokenizer(
            options.lang or "",
            unicode.stopword_entries(user_list) if user_list is not None else frozenset(),
            stem=options.stem or options.stem_models_only,
        )
    data = load_data(options.data_dir)
    if user_list is not None:
        data = replace(data, stopwords=tokenize.stopword_entries(user_list))
    return tokenize.Tokenizer(data, options.stopwords)
