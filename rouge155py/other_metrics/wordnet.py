"""WordNet's synsets of a word, read from a WordNet database directory (WNDB files), for METEOR.

METEOR's synonym module links two words that share a synset. A synset is named here by its part
of speech and its offset in its ``data.*`` file, as the ``index.*`` files list them, so only the
``index.noun``, ``index.verb``, ``index.adj`` and ``index.adv`` files and the exception lists
``noun.exc``, ``verb.exc``, ``adj.exc`` and ``adv.exc`` are read (never ``data.*`` nor
``lexnames``, which Debian's ``wordnet-base`` does not ship). Nothing is ever downloaded.

A word's synsets are those of its base forms in each part of speech, found as nltk's
``WordNetCorpusReader.synsets`` finds them (its ``_morphy``): the word itself and, if it is in the
part of speech's exception list, the list's base forms, else the forms made by each of WordNet's
detachment rules once (``-s``, ``-ses`` -> ``-s``, ``-ies`` -> ``-y`` ...); those of these forms
that the part of speech's index holds give their synsets. Words are lowercased first. The result
is the set of ``(part of speech, offset)`` pairs (``n``, ``v``, ``a`` with the satellites, ``r``),
which the tests compare with nltk's synsets of the same directory.

The reader is plain parsing: each line split on spaces, numbers read with ``int``; a file that
is missing, larger than :data:`MAX_FILE_BYTES` or malformed is a :class:`DataError` naming the
file and line. The license text at the top of each file (lines beginning with a space) is
skipped.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Iterator

from ..errors import DataError

__all__ = ["MAX_FILE_BYTES", "PARTS", "WordNet", "missing_files", "read_wordnet"]

#: Each part of speech and the suffix of its files.
PARTS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}

#: The largest index or exception file read (WordNet 3.0's index.noun is 4.8 MB).
MAX_FILE_BYTES = 64 * 1024 * 1024

# WordNet's detachment rules, in the order nltk's reader applies them (MORPHOLOGICAL_SUBSTITUTIONS).
_RULES = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}


def missing_files(directory: str) -> list[str]:
    """The files of a WordNet database that ``directory`` lacks (the index files; all of them
    where it is not a directory). The exception lists may be absent: none is then read."""
    needed = [f"index.{suffix}" for suffix in PARTS.values()]
    if not os.path.isdir(directory):
        return needed
    return [name for name in needed if not os.path.isfile(os.path.join(directory, name))]


def _lines(path: str) -> Iterator[tuple[int, str]]:
    """The numbered lines of a WordNet file, but the license's (they begin with a space)."""
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise DataError(f"WordNet: {path} holds {size} bytes, more than the {MAX_FILE_BYTES} read")
        with open(path, encoding="utf-8", errors="replace") as stream:
            for number, line in enumerate(stream, 1):
                if line.startswith(" ") or not line.strip():
                    continue
                yield number, line
    except OSError as error:
        raise DataError(f"WordNet: cannot read {path}: {error.strerror or error}") from None


def _read_index(path: str, pos: str) -> dict[str, tuple[int, ...]]:
    """lemma -> its synsets' offsets, from ``index.<pos>``: ``lemma pos synset_cnt p_cnt
    [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...``."""
    found: dict[str, tuple[int, ...]] = {}
    for number, line in _lines(path):
        fields = line.split()
        try:
            lemma, kind = fields[0], fields[1]
            synsets, pointers = int(fields[2]), int(fields[3])
            if synsets < 0 or pointers < 0:
                raise ValueError("a negative count")
            start = 4 + pointers + 2
            offsets = tuple(int(field) for field in fields[start : start + synsets])
            if kind != pos or len(offsets) != synsets:
                raise ValueError(f"part of speech {kind!r}, {len(offsets)} of {synsets} offsets")
        except (IndexError, ValueError) as error:
            raise DataError(f"WordNet: {path}:{number}: not an index line ({error})") from None
        found[lemma] = offsets
    return found


def _read_exceptions(path: str) -> dict[str, tuple[str, ...]]:
    """inflected form -> its base forms, from ``<pos>.exc`` (a later line of a form wins)."""
    found: dict[str, tuple[str, ...]] = {}
    if not os.path.isfile(path):
        return found
    for number, line in _lines(path):
        fields = line.split()
        if len(fields) < 2:
            raise DataError(f"WordNet: {path}:{number}: not an exception line (a form and its bases)")
        found[fields[0]] = tuple(fields[1:])
    return found


class WordNet:
    """The synsets of words, from a WordNet database directory (see the module's text)."""

    def __init__(self, directory: str) -> None:
        missing = missing_files(directory)
        if missing:
            raise DataError(f"WordNet: {directory} has no {', '.join(missing)}")
        self.directory = directory
        self._index = {
            pos: _read_index(os.path.join(directory, f"index.{s}"), pos) for pos, s in PARTS.items()
        }
        self._exceptions = {
            pos: _read_exceptions(os.path.join(directory, f"{suffix}.exc")) for pos, suffix in PARTS.items()
        }
        self._synsets: dict[str, frozenset[tuple[str, int]]] = {}

    def morphy(self, form: str, pos: str) -> list[str]:
        """The base forms of ``form`` in the part of speech ``pos`` that WordNet holds (nltk's
        ``_morphy``): ``form`` itself, then the exception list's bases of it, else the forms of
        one detachment rule each, in that order and each once."""
        index = self._index[pos]
        bases = self._exceptions[pos].get(form)
        if bases is None:
            bases = tuple(
                form[: len(form) - len(old)] + new for old, new in _RULES[pos] if form.endswith(old)
            )
        found: list[str] = []
        for base in (form, *bases):
            if base in index and base not in found:
                found.append(base)
        return found

    def synsets(self, word: str) -> frozenset[tuple[str, int]]:
        """The synsets of ``word`` (lowercased) in every part of speech, as (pos, offset) pairs."""
        word = word.lower()
        found = self._synsets.get(word)
        if found is None:
            found = frozenset(
                (pos, offset)
                for pos in PARTS
                for base in self.morphy(word, pos)
                for offset in self._index[pos][base]
            )
            if len(self._synsets) < 1 << 20:
                self._synsets[word] = found
        return found


@lru_cache(maxsize=4)
def _read(directory: str) -> WordNet:
    return WordNet(directory)


def read_wordnet(directory: str) -> WordNet:
    """The database of ``directory``, read once per directory (by its real path)."""
    return _read(os.path.realpath(directory))
