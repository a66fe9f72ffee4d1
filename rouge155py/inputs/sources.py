"""Where a run's evals come from: the :class:`Source` protocol and the registry of doors.

A door is one way in for a run's evals, chosen from its :class:`~rouge155py.options.Options`:
line-aligned files (:class:`~rouge155py.inputs.aligned.AlignedFiles`), a JSONL file
(:class:`~rouge155py.inputs.jsonl.JsonlFile`), a ``-z`` list
(:class:`~rouge155py.inputs.xml.FileList`) or an XML configuration
(:class:`~rouge155py.inputs.xml.XmlFile`). Summaries given as Python values (the API, the
Hugging Face metric, the accumulator, Dask) are the texts door,
:mod:`rouge155py.inputs.texts`, which the caller opens itself: no option chooses it.

To add a door:

1. its file, ``inputs/NAME.py``: a class that is a :class:`Source` (``name``, ``read()``)
   and a :class:`Door` (the classmethods ``applies(options)``: whether the options choose
   it, and ``from_options(options)``: the source they describe);
2. a registry line: the class in :data:`SOURCES`, where its precedence puts it (the first
   door that applies is the run's);
3. its settings: the fields of :class:`~rouge155py.options.Options` it reads (marked as door
   fields there), and the command-line options that set them.

Helpers more than one door reads (a file's lines, the note naming empty summaries) are here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Protocol, Sequence

from ..config import EvalConfig
from ..errors import InputError
from ..files import MAX_CONFIG_BYTES, read_file, read_stdin
from ..readers import SummaryText

if TYPE_CHECKING:
    from ..options import Options

__all__ = ["SOURCES", "Door", "Source", "empty_note", "file_lines", "is_empty", "source_of"]


class Source(Protocol):
    """One door's input: where the evals come from."""

    @property
    def name(self) -> str:
        """What ``-v`` names as the run's input."""
        ...

    def read(self) -> EvalConfig:
        """Every eval, read now."""
        ...


class Door(Protocol):
    """A door's class: whether the options choose it, and its source built from them."""

    def applies(self, options: Options) -> bool:
        """Whether ``options`` name this door's input."""
        ...

    def from_options(self, options: Options) -> Source:
        """The source ``options`` describe (where :meth:`applies`)."""
        ...


def file_lines(path: str) -> list[bytes]:
    """The lines of a file (``-``: standard input), without line ends; a file holds at most
    what a configuration may (:data:`~rouge155py.files.MAX_CONFIG_BYTES`)."""
    reading = f"Cannot read {path}"
    if path == "-":
        data = read_stdin(InputError, reading, MAX_CONFIG_BYTES)
    else:
        data = read_file(path, InputError, f"Cannot open {path}", reading, limit=MAX_CONFIG_BYTES)
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


_BLANK = " \t\n\r\f\v"
_SHOWN = 5  # the first line numbers a note names


def is_empty(document: SummaryText) -> bool:
    """Whether a summary holds nothing but ASCII whitespace: every score against it is 0."""
    return not document.text.strip(_BLANK)


def empty_note(where: str, what: str, numbers: Sequence[int], skipped: bool) -> str:
    """The one stderr line naming the empty summaries of a file: how many, and the first line numbers."""
    shown = ", ".join(map(str, numbers[:_SHOWN])) + (", ..." if len(numbers) > _SHOWN else "")
    done = "left out (--skip-empty)" if skipped else "scored 0 (--skip-empty leaves such items out)"
    return f"rouge155py: warning: {where}: {len(numbers)} {what} ({shown}): {done}"


def source_of(options: Options) -> Optional[Source]:
    """The source of the first door in :data:`SOURCES` the options choose; None where none
    does (the caller gives the evals)."""
    for door in SOURCES:
        if door.applies(options):
            return door.from_options(options)
    return None


# The doors import the helpers above: they are loaded after them (the package loads this module first).
from .aligned import AlignedFiles  # noqa: E402
from .jsonl import JsonlFile  # noqa: E402
from .xml import FileList, XmlFile  # noqa: E402

#: Every door chosen by options, in order of precedence.
SOURCES: tuple[Door, ...] = (AlignedFiles, JsonlFile, FileList, XmlFile)
