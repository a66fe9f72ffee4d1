"""rouge-score's text stage: its tokens, and nltk's Porter stemmer in its default mode.

rouge-score 0.1.2 lowercases a text with ``str.lower()`` (Unicode), makes every
run of characters other than ``a``-``z`` and ``0``-``9`` a separator, and, with
its stemmer, stems the tokens longer than 3 characters with nltk's
``PorterStemmer()`` (``NLTK_EXTENSIONS`` mode, which is not the Perl's variant).
Its ``rougeLsum`` sentences are the lines of a text (split at ``\\n``).

The C kernel (``rouge155py/_rs_text.c``) does all of it in one call for many
texts, with no Python object per token; without the kernel the same tokens come
from Python, stemmed by nltk's own stemmer (``pip install nltk``).
"""

from __future__ import annotations

import re
from array import array
from functools import lru_cache
from typing import Any, Callable, Hashable, NamedTuple, Sequence

from .. import _kernel
from ..errors import UsageError, install_hint
from .tokenize import Stems, TextStageBase

__all__ = [
    "DIALECT",
    "Encoded",
    "RougeScoreTokenizer",
    "as_text",
    "encode",
    "encode_tokens",
    "file_text_read",
    "nltk_stem",
    "split_tokens",
    "stem",
    "tokens",
    "valid_token",
]

#: The name of this dialect in options, signatures and on the command line.
DIALECT = "rouge-score"

_SEPARATORS = re.compile(r"[^a-z0-9]+")
# rouge-score's last check of a token (a stemmer's output): "$" lets a final newline through.
_VALID = re.compile(r"[a-z0-9]+$")


def nltk_stem() -> Callable[[str], str]:
    """``stem`` of nltk's ``PorterStemmer()`` (the path without the kernel; imports nltk)."""
    try:
        from nltk.stem.porter import PorterStemmer
    except ImportError:
        raise UsageError(
            f"rouge-score's stemmer without the C kernel needs nltk: {install_hint('nltk', 'lang')}"
        ) from None
    return PorterStemmer().stem


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """nltk's ``PorterStemmer().stem(word)`` (default mode) of a word of ``a``-``z`` and ``0``-``9``."""
    if _kernel.accel is not None:
        found = _kernel.accel.rs_stem(word)
        if found is not None:
            return found
    return _nltk_stem(word)


_NLTK_STEM: list[Callable[[str], str]] = []


def _nltk_stem(word: str) -> str:
    if not _NLTK_STEM:
        _NLTK_STEM.append(nltk_stem())
    return _NLTK_STEM[0](word)


def file_text_read(text: str) -> str:
    """A text that holds bytes as latin-1 characters (a reader's, a column of the API's), read as
    rouge-score reads them: the UTF-8 they hold, a byte that is not UTF-8 replaced."""
    return text if text.isascii() else text.encode("latin-1").decode("utf-8", "replace")


def split_tokens(text: str) -> list[str]:
    """A text's tokens before stemming: ``str.lower()``, then runs of ``a``-``z`` and ``0``-``9``."""
    return [t for t in _SEPARATORS.split(text.lower()) if t]


def valid_token(token: str) -> bool:
    """Whether rouge-score keeps a token (a stemmer's output included)."""
    return _VALID.match(token) is not None


def as_text(text: Any) -> str:
    """A text as a str: bytes are lowered as bytes (ASCII only), then read as UTF-8, as rouge-score does."""
    if isinstance(text, (bytes, bytearray)):
        # bytes.lower() leaves the two characters above as they are: separators.
        return bytes(text).lower().decode("utf-8").translate({0x212A: " ", 0x130: " "})
    return text


def tokens(text: Any, stemmed: bool) -> list[str]:
    """rouge-score's ``tokenize(text, stemmer)`` with its default stemmer (``stemmed``) or none."""
    text = as_text(text)
    if _kernel.accel is not None and isinstance(text, str):
        ids, _, _, words = _kernel.accel.rs_encode([text], stemmed, False, True)
        return [words[i] for i in memoryview(ids).cast("i")]
    found = split_tokens(text)
    return [stem(t) if len(t) > 3 else t for t in found] if stemmed else found


class Encoded(NamedTuple):
    """Texts as token ids: ``ids`` text after text; ``ends[s]`` the end of sentence s in ids;
    text t holds sentences ``starts[t]`` .. ``starts[t + 1] - 1``."""

    ids: Sequence[int]
    ends: Sequence[int]
    starts: Sequence[int]


def encode(texts: Sequence[Any], stemmed: bool, lines: bool) -> Encoded:
    """Token ids of texts (one vocabulary for all): their lines holding tokens are their
    sentences when ``lines`` is set, else each text is one sentence."""
    texts = [as_text(t) for t in texts]
    if _kernel.accel is not None and all(type(t) is str for t in texts):
        ids, ends, starts, _ = _kernel.accel.rs_encode(texts, stemmed, lines, False)
        return Encoded(memoryview(ids).cast("i"), memoryview(ends).cast("i"), memoryview(starts).cast("i"))
    vocabulary: dict[Hashable, int] = {}
    return encode_tokens(
        [[tokens(s, stemmed) for s in (t.split("\n") if lines else [t])] for t in texts], vocabulary
    )


def encode_tokens(texts: Sequence[Sequence[Sequence[Hashable]]], vocabulary: dict[Hashable, int]) -> Encoded:
    """Texts given as sentences of tokens (any hashable objects), as ids; sentences without
    tokens are left out (they change no score)."""
    ids, ends, starts = array("i"), array("i"), array("i")
    for sentences in texts:
        starts.append(len(ends))
        for sentence in sentences:
            if sentence:
                ids.extend(vocabulary.setdefault(t, len(vocabulary)) for t in sentence)
                ends.append(len(ids))
    starts.append(len(ends))
    return Encoded(ids, ends, starts)


class RougeScoreTokenizer(TextStageBase):
    """The engine's text stage for ``dialect="rouge-score"``: rouge-score's tokens, its stemmer
    on tokens longer than 3 characters under ``-m``, and the ``-s`` list if one is given."""

    splits_as_the_perl = False

    def __init__(self, stopwords: frozenset[str] = frozenset()) -> None:
        self._stopwords = stopwords
        self._stems = Stems(stem, shortest=4)

    def split(self, text: str) -> list[str]:
        return split_tokens(file_text_read(text))

    def morph_stem(self, token: str) -> str:
        return stem(token)
