"""The one choice of a run's text stage: the Perl's, ``--lang``'s Unicode one, or rouge-score's.

Readers, length limits, metrics, the bootstrap and the reports are the same
for both: a stage only turns a reader's text into the tokens the metrics count
(tokenize, remove stopwords, stem).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional, Protocol

from . import tokenize
from .resources import load_data, stopword_file_digest, stopword_file_lines

# The Unicode stage (--lang) and rouge-score's (--dialect) are imported by the runs that use them.

__all__ = ["TextSettings", "TextStage", "text_stage"]


@dataclass(frozen=True)
class TextSettings:
    """What turns a summary into the tokens the metrics count: the stage, its data and the limits.

    ``data_dir`` (``-e``; None: the bundled data), ``stopwords`` (``-s``),
    ``stopwords_file`` (``--stopwords``), ``lang`` (``--lang``, its two-letter
    code), ``stem`` (``-m``), ``stem_models_only`` (``-M``), ``length_limit``
    (``-l`` words) and ``byte_limit`` (``-b``). Checked by
    :class:`~rouge155py.Options`, which builds them.
    """

    data_dir: Optional[str] = None
    stopwords: bool = False
    stopwords_file: Optional[str] = None
    lang: Optional[str] = None
    stem: bool = False
    stem_models_only: bool = False
    length_limit: float = 0
    byte_limit: float = 0
    dialect: Optional[str] = None  # "rouge-score": its tokens and stemmer

    @property
    def unicode_text(self) -> bool:
        """Whether the stage is ``--lang``'s Unicode one (any language but English)."""
        if self.lang is None:
            return False
        from . import unicode

        return self.lang != unicode.ENGLISH

    @property
    def stems_across_evals(self) -> bool:
        """``-m`` with ``-M``: the Perl switches stemming off for good during the walk."""
        return self.stem and self.stem_models_only

    def signature_parts(self) -> dict[str, str]:
        """The signature's parts that name this stage (see :meth:`Options.signature`)."""
        parts = {
            "m": "yes" if self.stem else "no",
            "M": "yes" if self.stem_models_only else "no",
            "s": "yes" if self.stopwords else "no",
            "l": f"{self.length_limit:g}",
            "b": f"{self.byte_limit:g}",
        }
        if self.stopwords_file is not None:
            parts["sw"] = f"sha256-{stopword_file_digest(self.stopwords_file)}"
        if self.unicode_text:
            from . import unicode

            stemmer = unicode.SNOWBALL_LANGUAGES.get(self.lang or "")
            parts["lang"] = self.lang or ""
            parts["tok"] = unicode.TOKENIZER_NAME
            parts["stem"] = f"snowball-{stemmer}" if stemmer else "none"
            if stemmer and (self.stem or self.stem_models_only):  # nltk changes nothing unless it stems
                parts["nltk"] = unicode.nltk_version()
        if self.dialect is not None:
            parts["dialect"] = self.dialect
        return parts


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


def text_stage(settings: TextSettings) -> TextStage:
    """The stage the settings ask for: ``--dialect rouge-score`` is rouge-score's, ``--lang``
    (not ``en``) is Unicode, else the Perl's rules.

    ``--stopwords FILE`` replaces the SMART list in either; the Unicode stage
    reads no data directory.
    """
    if settings.dialect is not None:
        from . import rouge_score

        if settings.dialect == rouge_score.DIALECT:
            return rouge_score.RougeScoreTokenizer()
    user_list = stopword_file_lines(settings.stopwords_file) if settings.stopwords_file is not None else None
    if settings.unicode_text:
        from . import unicode

        return unicode.UnicodeTokenizer(
            settings.lang or "",
            unicode.stopword_entries(user_list) if user_list is not None else frozenset(),
            stem=settings.stem or settings.stem_models_only,
        )
    data = load_data(settings.data_dir, stems=settings.stem or settings.stem_models_only)
    if user_list is not None:
        data = replace(data, stopwords=tokenize.stopword_entries(user_list))
    return tokenize.Tokenizer(data, settings.stopwords)
