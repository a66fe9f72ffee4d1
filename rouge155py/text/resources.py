"""The data files: SMART stopwords and the WordNet 2.0 exception lists.

Lookup order: ``-e DIR``, then ``ROUGE_EVAL_HOME``, then ``RED_EVAL_HOME``
(resolved by the options), else the copy bundled with the package. A real
ROUGE-1.5.5 ``data/`` directory works: its ``WordNet-2.0-Exceptions/*.exc``
are read directly, so its Berkeley-DB file is never needed. A user's stopword
list (``--stopwords FILE``) is read from its path, under the summaries' size limit;
one that is not a regular file (a pipe) is read once, and its bytes kept.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Optional

from ..errors import DataError, LimitError
from ..inputs.files import read_file

if TYPE_CHECKING:  # pathlib is imported only by the functions that return a Path
    from pathlib import Path

__all__ = [
    "EXCEPTION_FILES",
    "STOPWORDS_FILE",
    "LinguisticData",
    "bundled_data_dir",
    "bundled_exceptions",
    "exception_dir",
    "load_data",
    "stopword_file_digest",
    "stopword_file_lines",
]

STOPWORDS_FILE = "smart_common_words.txt"
EXCEPTION_FILES = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")
EXCEPTION_DIRS = ("WordNet-2.0-Exceptions", "WordNet-exceptions")
_FIELDS = re.compile(rb"[ \t\n\r\f\v]+")


@dataclass(frozen=True)
class LinguisticData:
    """Stopwords (exact lines) and the inflection exception map (None: the bundled lists, not
    read yet: :func:`bundled_exceptions` reads them when a stem first needs them)."""

    stopwords: frozenset[str]
    exceptions: Optional[dict[str, str]]
    source: str


def _bundled_dir() -> str:
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # rouge155py/, above text/
    inside = os.path.join(package, "data")
    if os.path.isfile(os.path.join(inside, STOPWORDS_FILE)):
        return inside
    return os.path.join(os.path.dirname(package), "data")


def bundled_data_dir() -> Path:
    """The data directory shipped inside the package, or the source tree's."""
    from pathlib import Path

    return Path(_bundled_dir())


def _read_lines(directory: str, path: str, what: str) -> list[bytes]:
    """The lines of a data file, read as every input is (no wait on a FIFO, at most a summary's size).

    Anything that keeps it from being read, its size included, makes the directory a bad one.
    """
    bad = f"bad data directory {directory}"
    try:
        data = read_file(path, DataError, f"{bad}: cannot open {what} {path}", f"{bad}: cannot read {path}")
    except LimitError as error:
        raise DataError(f"{bad}: {error}") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def _read_exceptions(directory: str, lists: str) -> dict[str, str]:
    # Same as inserting every line into the Perl's hash in this order: a later
    # line overwrites an earlier key; a line without a second field maps to "".
    exceptions: dict[str, str] = {}
    for name in EXCEPTION_FILES:
        for line in _read_lines(directory, os.path.join(lists, name), "WordNet exception list"):
            # bytes.split() splits at the same ASCII spaces, faster, but drops a leading empty field.
            fields = line.split(None, 2) if line[:1].isalnum() else _FIELDS.split(line)
            exceptions[fields[0].decode("latin-1")] = fields[1].decode("latin-1") if len(fields) > 1 else ""
    return exceptions


def _exception_dir(directory: str) -> Optional[str]:
    for name in EXCEPTION_DIRS:
        candidate = os.path.join(directory, name)
        if all(os.path.isfile(os.path.join(candidate, f)) for f in EXCEPTION_FILES):
            return candidate
    return None


def exception_dir(directory: os.PathLike[str] | str) -> Optional[Path]:
    """The directory of the four WordNet exception lists in a data directory, or None."""
    from pathlib import Path

    found = _exception_dir(os.fspath(directory))
    return None if found is None else Path(found)


@lru_cache(maxsize=8)
def load_data(data_dir: Optional[str], stems: bool = True) -> LinguisticData:
    """Load stopwords and exceptions from ``data_dir`` (None: the bundled data).

    The exception lists are those of the first of :data:`EXCEPTION_DIRS` the
    directory holds, all four of them; the bundled ones only where it holds none.
    A directory given is read whole, as the Perl opens its exception database on
    every run. Where ``stems`` is False (a run that never stems), the bundled lists,
    which ship with the package, are only looked for: ``exceptions`` is then None.
    """
    bundled = _bundled_dir()
    directory = data_dir if data_dir is not None else bundled
    lines = _read_lines(directory, os.path.join(directory, STOPWORDS_FILE), "stopword list")
    stopwords = frozenset(line.decode("latin-1") for line in lines)
    found = _listed(directory)
    owner, lists = (directory, found) if found is not None else (bundled, _exception_dir(bundled))
    if lists is None:
        raise DataError(f"no WordNet exception lists in {directory} or in {bundled}")
    if data_dir is None:
        return LinguisticData(stopwords, bundled_exceptions() if stems else None, str(directory))
    return LinguisticData(stopwords, _read_exceptions(owner, lists), str(directory))


def _listed(directory: str) -> Optional[str]:
    """The first of :data:`EXCEPTION_DIRS` a directory holds, whatever it is (a broken link: read, fails)."""
    candidates = (os.path.join(directory, name) for name in EXCEPTION_DIRS)
    return next((path for path in candidates if os.path.lexists(path)), None)


@lru_cache(maxsize=1)
def bundled_exceptions() -> dict[str, str]:
    """The bundled WordNet exception lists, read once."""
    bundled = _bundled_dir()
    lists = _listed(bundled)
    if lists is None:
        raise DataError(f"no WordNet exception lists in {bundled}")
    return _read_exceptions(bundled, lists)


#: The stopword lists read from a pipe, a FIFO or a device, by (device, inode, time of the last
#: write): such a file gives its bytes once (``--stopwords <(...)``), and a run needs them again.
_ONE_SHOT: dict[tuple[int, int, int], bytes] = {}


def _stopword_file(path: str) -> bytes:
    return read_file(
        path,
        DataError,
        f"cannot open stopword list {path}",
        f"cannot read stopword list {path}",
        once=_ONE_SHOT,
    )


def stopword_file_lines(path: str) -> list[bytes]:
    """The lines of a user's stopword list (``--stopwords FILE``), without line ends."""
    lines = _stopword_file(path).split(b"\n")
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def stopword_file_digest(path: str) -> str:
    """The first 12 hexadecimal digits of the SHA-256 of a user's stopword list."""
    import hashlib

    return hashlib.sha256(_stopword_file(path)).hexdigest()[:12]
