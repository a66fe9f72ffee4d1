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
   and a :class:`Door`: the classmethods ``applies(options)`` (whether the options choose
   it) and ``from_options(options)`` (the source they describe), and for the command line
   ``flags`` (the long options that name it, which then replace the configuration file),
   ``setting_flags`` (the long options that only the doors taking them accept),
   ``described`` (how a message names it) and ``check(line)`` (its own rules);
2. a registry line: the class in :data:`SOURCES`, where its precedence puts it (the first
   door that applies is the run's);
3. its settings: the fields of :class:`~rouge155py.options.Options` it reads (marked as door
   fields there), and the command-line options that set them (``parse_command_line``).

:func:`command_line_door` runs the doors' command-line rules: one door named at most, its
own ``check``, no configuration file or ``-z`` besides, and a setting flag only with a door
that takes it.

Helpers more than one door reads (a file's lines, the note naming empty summaries) are here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, NamedTuple, Optional, Protocol, Sequence

from ..config import EvalConfig
from ..errors import InputError, UsageError
from ..files import MAX_CONFIG_BYTES, read_file, read_stdin
from ..readers import SummaryText

if TYPE_CHECKING:
    from ..options import Options

__all__ = [
    "SOURCES",
    "CommandLine",
    "Door",
    "Source",
    "command_line_door",
    "empty_note",
    "file_lines",
    "is_empty",
    "source_of",
]


class Source(Protocol):
    """One door's input: where the evals come from."""

    @property
    def name(self) -> str:
        """What ``-v`` names as the run's input."""
        ...

    def read(self) -> EvalConfig:
        """Every eval, read now."""
        ...


class CommandLine(NamedTuple):
    """What the doors' rules read of a command line: its long options, the ones that repeat
    (``--hyp``, ``--ref``) as lists, the arguments after the Perl's options, and ``-z``'s value."""

    long_opts: Mapping[str, Optional[str]]
    repeated: Mapping[str, Sequence[str]]
    args: Sequence[str]
    file_list: Optional[str]

    def gives(self, flag: str) -> bool:
        """Whether the command line gives option ``flag``."""
        return bool(self.repeated[flag]) if flag in self.repeated else self.long_opts.get(flag) is not None


class Door(Protocol):
    """A door's class: whether the options choose it, and its source built from them; on a
    command line, the options that name it (:attr:`flags`: they replace the configuration
    file), the options it alone takes (:attr:`setting_flags`) and its own rules (:meth:`check`)."""

    @property
    def flags(self) -> tuple[str, ...]:
        """The long options that name this door's input (none: the configuration file's doors)."""
        ...

    @property
    def setting_flags(self) -> tuple[str, ...]:
        """The long options that apply to the doors that take them alone."""
        ...

    @property
    def described(self) -> str:
        """How a message names the door."""
        ...

    def check(self, line: CommandLine) -> None:
        """A ``UsageError`` where a command line that names the door breaks one of its rules."""
        ...

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


def command_line_door(line: CommandLine) -> bool:
    """Whether a command line names a door that replaces the configuration file (a file door),
    after the doors' rules: one door at most, its own rules, no configuration file or ``-z``
    besides, and an option that some doors alone take only with one of them."""
    named = [door for door in SOURCES if any(map(line.gives, door.flags))]
    if len(named) > 1:
        spelled = ("/".join(door.flags) for door in reversed(named))
        raise UsageError(f"{' and '.join(spelled)} are two inputs: give one")
    for door in named:
        door.check(line)
        if line.args or line.file_list is not None:
            extra = line.args[0] if line.args else "-z"
            verb = "replaces" if len(door.flags) == 1 else "replace"
            raise UsageError(f"{' and '.join(door.flags)} {verb} the configuration file: remove {extra!r}")
        return True
    for flag in dict.fromkeys(flag for door in SOURCES for flag in door.setting_flags):
        if flag in line.long_opts:
            takers = " and ".join(door.described for door in SOURCES if flag in door.setting_flags)
            raise UsageError(f"{flag} applies to {takers}")
    return False


# The doors import the helpers above: they are loaded after them (the package loads this module first).
from .aligned import AlignedFiles  # noqa: E402
from .jsonl import JsonlFile  # noqa: E402
from .xml import FileList, XmlFile  # noqa: E402

#: Every door chosen by options, in order of precedence.
SOURCES: tuple[Door, ...] = (AlignedFiles, JsonlFile, FileList, XmlFile)
