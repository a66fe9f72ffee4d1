"""rouge-score's ``tokenize`` module: ``tokenize(text, stemmer)`` and the patterns it reads.

rouge-score reads ``NON_ALPHANUM_RE``, ``SPACES_RE`` and ``VALID_TOKEN_RE`` from
this module at every call, and code scoring other scripts re-points them
(``tokenize.NON_ALPHANUM_RE = re.compile(r"[^\\u0980-\\u09FFa-z0-9]+")`` for
Bengali). While the three are the module's own objects, the C kernel's text stage
gives the tokens (the same ones); once any of them, or ``tokenize`` itself, is
re-pointed, rouge-score's steps run in Python with the patterns in place, here
and in the scorer (:func:`patterns_are_own`).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from ..text import rouge_score as stage
from . import _surface

__all__ = [
    "NON_ALPHANUM_PATTERN",
    "NON_ALPHANUM_RE",
    "SPACES_PATTERN",
    "SPACES_RE",
    "VALID_TOKEN_PATTERN",
    "VALID_TOKEN_RE",
    "tokenize",
]

NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)

__getattr__, __dir__ = _surface.add_names(globals(), {"six": "six"})


def _is_default_stemmer(stemmer: Any) -> bool:
    """Whether ``stemmer`` is nltk's ``PorterStemmer()`` in its default mode, or this package's."""
    kind = type(stemmer)
    if kind.__module__ == "nltk.stem.porter" and kind.__name__ == "PorterStemmer":
        return getattr(stemmer, "mode", None) == "NLTK_EXTENSIONS"
    return kind.__module__ == f"{__package__}.tokenizers" and kind.__name__ == "PorterStemmer"


def tokenize(text: Any, stemmer: Optional[Any]) -> list[str]:
    """The tokens of a text: lowercased runs of ``a``-``z`` and ``0``-``9`` (what the
    module's patterns say, where they are re-pointed), those longer than 3 characters
    stemmed by ``stemmer`` when one is given."""
    if not patterns_are_own():
        return _pattern_tokens(text, stemmer)
    if not stemmer or _is_default_stemmer(stemmer):
        return stage.tokens(text, bool(stemmer))
    found = stage.tokens(text, False)
    stemmed = (_ensure_str(stemmer.stem(x)) if len(x) > 3 else x for x in found)
    return [t for t in stemmed if stage.valid_token(t)]


_OWN = (NON_ALPHANUM_RE, SPACES_RE, VALID_TOKEN_RE, tokenize)


def patterns_are_own() -> bool:
    """Whether the three patterns and ``tokenize`` are this module's own objects: then the
    kernel's text stage gives rouge-score's tokens (four identity checks, at every call)."""
    return (
        NON_ALPHANUM_RE is _OWN[0]
        and SPACES_RE is _OWN[1]
        and VALID_TOKEN_RE is _OWN[2]
        and tokenize is _OWN[3]
    )


def _pattern_tokens(text: Any, stemmer: Optional[Any]) -> list[str]:
    """rouge-score's steps with the patterns in place: lowercase, every match of
    ``NON_ALPHANUM_RE`` made a space, split at ``SPACES_RE``, the words longer than 3
    characters stemmed, and only the words ``VALID_TOKEN_RE`` matches kept."""
    words = SPACES_RE.split(NON_ALPHANUM_RE.sub(" ", _ensure_str(text.lower())))
    if stemmer:
        words = [_ensure_str(stemmer.stem(w)) if len(w) > 3 else w for w in words]
    return [w for w in words if VALID_TOKEN_RE.match(w)]


def _ensure_str(value: Any) -> str:
    """A text as rouge-score's ``six.ensure_str`` gives it: bytes read as UTF-8, a str as
    it is, anything else a TypeError."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if not isinstance(value, str):
        raise TypeError(f"not expecting type '{type(value)}'")
    return value
