"""rouge-score's ``tokenize`` module: ``tokenize(text, stemmer)``."""

from __future__ import annotations

from typing import Any, Optional

from ..text import rouge_score as stage

__all__ = ["tokenize"]


def _is_default_stemmer(stemmer: Any) -> bool:
    """Whether ``stemmer`` is nltk's ``PorterStemmer()`` in its default mode, or this package's."""
    kind = type(stemmer)
    if kind.__module__ == "nltk.stem.porter" and kind.__name__ == "PorterStemmer":
        return getattr(stemmer, "mode", None) == "NLTK_EXTENSIONS"
    return kind.__module__ == f"{__package__}.tokenizers" and kind.__name__ == "PorterStemmer"


def tokenize(text: Any, stemmer: Optional[Any]) -> list[str]:
    """The tokens of a text: lowercased runs of ``a``-``z`` and ``0``-``9``, those longer than
    3 characters stemmed by ``stemmer`` when one is given."""
    if not stemmer or _is_default_stemmer(stemmer):
        return stage.tokens(text, bool(stemmer))
    found = stage.tokens(text, False)
    stemmed = (_as_str(stemmer.stem(x)) if len(x) > 3 else x for x in found)
    return [t for t in stemmed if stage.valid_token(t)]


def _as_str(value: Any) -> str:
    """A stemmer's output as rouge-score reads it: bytes as UTF-8."""
    return value.decode("utf-8") if isinstance(value, bytes) else value
