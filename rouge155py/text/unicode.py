"""The text stage of ``--lang``: words of every script, and the language's Snowball stemmer.

A summary's bytes are read as UTF-8 (bytes that are not UTF-8, such as a
character cut by ``-b``, read as U+FFFD and separate words), normalized with
NFKC, case-folded and normalized again. A word is then a run of letters,
marks and numbers (Unicode categories L, M, N) that starts with a letter or
a number; a zero-width joiner or non-joiner between two such runs (Persian,
Indic scripts) keeps them one word. In scripts written without spaces
(:data:`NO_SPACE_BLOCKS`: Chinese, Japanese, Thai ...) each letter or digit,
with the marks that follow it, is a word of its own. Everything else
separates words.

With ``-m`` every word is stemmed by ``nltk.stem.SnowballStemmer`` of the
language (:data:`SNOWBALL_LANGUAGES`); nltk is imported only then. ``-s``
removes the words of a user's list. The legacy stage (ASCII, the Perl's
Porter variant) is :mod:`rouge155py.text.tokenize`; ``--lang en`` is that one.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import unicodedata
from functools import lru_cache
from typing import Callable, Iterable, Optional

from ..errors import UsageError
from .languages import language_code
from .tokenize import Stems, TextStageBase

__all__ = [
    "ENGLISH",
    "NLTK_INSTALL",
    "NO_SPACE_BLOCKS",
    "SNOWBALL_LANGUAGES",
    "TOKENIZER_NAME",
    "UnicodeTokenizer",
    "canonical_language",
    "nltk_available",
    "nltk_version",
    "normalize",
    "snowball_stemmer",
    "stopword_entries",
    "unicode_tokens",
]

#: How to get nltk, which the Snowball stemmers need (the package's ``lang`` extra holds it).
NLTK_INSTALL = "pip install nltk (the [lang] extra of rouge155py)"

#: The language whose ``--lang`` is the legacy text stage (the Perl's tokenizer and stemmer).
ENGLISH = "en"

#: ISO 639-1 code -> the name of its stemmer in ``nltk.stem.SnowballStemmer``.
SNOWBALL_LANGUAGES = {
    "ar": "arabic",
    "da": "danish",
    "de": "german",
    "es": "spanish",
    "fi": "finnish",
    "fr": "french",
    "hu": "hungarian",
    "it": "italian",
    "nb": "norwegian",
    "nl": "dutch",
    "no": "norwegian",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sv": "swedish",
}

#: Unicode blocks of scripts written without spaces: each letter or digit there is a word.
#: Han (CJK ideographs and their extensions), Hiragana, Katakana, Bopomofo, Yi, Thai,
#: Lao, Myanmar, Khmer.
NO_SPACE_BLOCKS = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x19E0, 0x19FF),  # Khmer symbols
    (0x2E80, 0x2FDF),  # CJK and Kangxi radicals
    (0x3000, 0x303F),  # CJK symbols: iteration marks, ideographic numbers
    (0x3040, 0x31FF),  # Hiragana, Katakana, Bopomofo, Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA000, 0xA4CF),  # Yi
    (0xA9E0, 0xA9FF),  # Myanmar extended B
    (0xAA60, 0xAA7F),  # Myanmar extended A
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # halfwidth Katakana
    (0x1AFF0, 0x1B16F),  # Kana extensions
    (0x20000, 0x3FFFF),  # CJK extensions B and later, compatibility supplement
)

_JOINERS = "\u200c\u200d"  # zero-width non-joiner, zero-width joiner

#: The tokenizer's name in the signature: its rules (version 1) and the Unicode
#: database the character classes come from.
TOKENIZER_NAME = f"unicode1-nfkc-casefold-ucd{unicodedata.unidata_version}"


def canonical_language(code: str) -> str:
    """The code of ``--lang``'s value, two letters where there are (``DE``, ``deu``, ``de-DE``,
    ``de_DE.UTF-8`` -> ``de``); an unknown language is a :class:`UsageError`.

    Any language is taken: the tokenizer is the same for every one, only the stemmer depends on it.
    """
    return language_code(code)


def nltk_available() -> bool:
    """Whether nltk can be imported (it is not imported here)."""
    try:
        return importlib.util.find_spec("nltk") is not None
    except (ImportError, ValueError):
        return False


def nltk_version() -> str:
    """The installed nltk's version, without importing it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nltk")
    except PackageNotFoundError:
        return "unknown"


def _ranges(codes: Iterable[int]) -> str:
    """A regular-expression class body for sorted code points."""
    parts: list[str] = []
    start = previous = -2
    for code in codes:
        if code != previous + 1:
            if start >= 0:
                parts.append(f"\\U{start:08x}-\\U{previous:08x}")
            start = code
        previous = code
    if start >= 0:
        parts.append(f"\\U{start:08x}-\\U{previous:08x}")
    return "".join(parts)


@lru_cache(maxsize=1)
def _word_pattern() -> re.Pattern[str]:
    """Words: a no-space character with its marks, or a run of letters, marks and numbers."""
    no_space = bytearray(sys.maxunicode + 1)
    for first, last in NO_SPACE_BLOCKS:
        no_space[first : last + 1] = b"\x01" * (last - first + 1)
    alone: list[int] = []  # letters and numbers of no-space scripts
    start: list[int] = []  # letters and numbers elsewhere
    inside: list[int] = []  # those, and marks of every script
    marks: list[int] = []
    for code in range(sys.maxunicode + 1):
        kind = unicodedata.category(chr(code))[0]
        if kind == "M":
            marks.append(code)
            inside.append(code)
        elif kind in "LN":
            if no_space[code]:
                alone.append(code)
            else:
                start.append(code)
                inside.append(code)
    word = f"[{_ranges(start)}][{_ranges(inside)}]*"
    return re.compile(f"[{_ranges(alone)}][{_ranges(marks)}]*|{word}(?:[{_JOINERS}]+[{_ranges(inside)}]+)*")


def normalize(text: str) -> str:
    """NFKC, case folding, NFKC again (case folding can undo the first normalization)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def unicode_tokens(text: str) -> list[str]:
    """The words of a text, normalized, in order (no stopwords removed, nothing stemmed)."""
    return _word_pattern().findall(normalize(text))


def snowball_stemmer(language: str) -> Callable[[str], str]:
    """The ``stem`` function of nltk's Snowball stemmer for an ISO 639-1 code (imports nltk)."""
    name = SNOWBALL_LANGUAGES.get(language)
    if name is None:
        raise UsageError(f"no Snowball stemmer for --lang {language}")
    try:
        from nltk.stem.snowball import SnowballStemmer
    except ImportError:
        raise UsageError(f"-m/-M with --lang {language} needs nltk: {NLTK_INSTALL}") from None
    return SnowballStemmer(name).stem


def stopword_entries(lines: Iterable[bytes]) -> frozenset[str]:
    """A user's stopword list (UTF-8 lines): each line that is one word, as the tokenizer reads it.

    A line that holds no word or several (``don't``, two Chinese characters) is
    left out, since no token can equal it.
    """
    found: set[str] = set()
    for line in lines:
        words = unicode_tokens(line.decode("utf-8", "replace"))
        if len(words) == 1:
            found.add(words[0])
    return frozenset(found)


def _decoded(text: str) -> str:
    """A reader's text (bytes as latin-1 characters) as the UTF-8 it holds."""
    return text.encode("latin-1").decode("utf-8", "replace")


class UnicodeTokenizer(TextStageBase):
    """The ``--lang`` text stage: same interface as :class:`~rouge155py.text.tokenize.Tokenizer`."""

    def __init__(self, language: str, stopwords: frozenset[str] = frozenset(), stem: bool = False) -> None:
        """``stem``: load the language's stemmer now (``-m`` or ``-M`` is on)."""
        self.language = language
        self._stopwords = stopwords
        self._stemmer: Optional[Callable[[str], str]] = snowball_stemmer(language) if stem else None
        self._stems = Stems(lambda word: sys.intern(self.morph_stem(word)))

    def morph_stem(self, word: str) -> str:
        """The word's Snowball stem."""
        if self._stemmer is None:
            self._stemmer = snowball_stemmer(self.language)
        return self._stemmer(word)

    def split(self, text: str) -> list[str]:
        return unicode_tokens(_decoded(text))
