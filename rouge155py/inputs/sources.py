"""Where a run's evals come from: the :class:`Source` and :class:`Door` protocols, and the
helpers several doors share (the registry of doors is :mod:`rouge155py.inputs.doors`).

A door is one way in for a run's evals, chosen from its :class:`~rouge155py.Options`:
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
2. a registry line: the class in :data:`~rouge155py.inputs.doors.SOURCES`, where its
   precedence puts it (the first door that applies is the run's);
3. its settings: the fields of :class:`~rouge155py.Options` it reads (marked as door
   fields there), and the command-line options that set them (``parse_command_line``).

A source that can be scored as it is read has ``read_in_chunks(size)`` too: a
:class:`StreamedEvals`, or None where it is read whole (standard input, a pipe).

:func:`~rouge155py.inputs.doors.command_line_door` runs the doors' command-line rules: one
door named at most, its own ``check``, no configuration file or ``-z`` besides, and a setting
flag only with a door that takes it.

Helpers more than one door reads (a file's lines, the note naming empty summaries, the stream
of a source read a chunk at a time) are here.
"""

from __future__ import annotations

import os
from typing import BinaryIO, Iterator, Mapping, NamedTuple, Optional, Protocol, Sequence

from ..errors import InputError
from .config import Eval, EvalConfig
from .files import MAX_CONFIG_BYTES, line_stream, lines_of, read_file, read_stdin
from .readers import SummaryText

__all__ = [
    "Chunk",
    "CommandLine",
    "Door",
    "DoorSettings",
    "Source",
    "StreamedEvals",
    "blank",
    "empty_note",
    "file_lines",
    "is_empty",
    "nothing_read",
    "streamed_lines",
]


class DoorSettings(Protocol):
    """What the doors read of :class:`~rouge155py.Options`: its door fields and ``be_mode``."""

    @property
    def config_path(self) -> Optional[str]: ...
    @property
    def file_list_format(self) -> Optional[str]: ...
    @property
    def file_list_peer_id(self) -> str: ...
    @property
    def hypothesis_path(self) -> Optional[str]: ...
    @property
    def hypothesis_paths(self) -> tuple[str, ...]: ...
    @property
    def reference_paths(self) -> tuple[str, ...]: ...
    @property
    def sentence_separator(self) -> Optional[str]: ...
    @property
    def skip_empty(self) -> bool: ...
    @property
    def jsonl_path(self) -> Optional[str]: ...
    @property
    def jsonl_fields(self) -> Optional[str]: ...
    @property
    def be_mode(self) -> Optional[str]: ...


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

    def applies(self, options: DoorSettings) -> bool:
        """Whether ``options`` name this door's input."""
        ...

    def from_options(self, options: DoorSettings) -> Source:
        """The source ``options`` describe (where :meth:`applies`)."""
        ...


#: A chunk of a source read a chunk at a time: its evals (texts by columns where the door can
#: hold them so) and each one's place (0-based) in the source.
Chunk = tuple[EvalConfig, Sequence[int]]


class StreamedEvals:
    """A source's evals read a chunk at a time as the run scores them, each chunk dropped before
    the next is read (:class:`~rouge155py.inputs.jsonl.JsonlStream`,
    :class:`~rouge155py.inputs.aligned.AlignedStream`).

    The :class:`~rouge155py.run.executors.Evals` of a run, which scores its :meth:`chunks`:
    :meth:`first` reads ahead, :meth:`whole` reads (and checks) the rest and gives the peers
    and notes, no eval. A door's stream reads its next chunk in :meth:`_read`; ``handle``, the
    file it reads (the first of them), tells :meth:`estimated_total` how far it has come."""

    def __init__(self, size: int, handle: Optional[BinaryIO] = None) -> None:
        self.size = size
        self._handle = handle
        self._bytes = 1
        if handle is not None:
            try:
                self._bytes = max(1, os.fstat(handle.fileno()).st_size)
            except OSError:
                pass
        self._ahead: list[Chunk] = []  # read for first(), not yet handed out

    def chunks(self) -> Iterator[Chunk]:
        """Every chunk, in the source's order; its end checks that something was read."""
        while True:
            chunk = self._ahead.pop(0) if self._ahead else self._read()
            if chunk is None:
                return
            yield chunk

    def first(self, count: int) -> list[Eval]:
        """Up to ``count`` of the first evals (read ahead, for the chunks to come)."""
        found: list[Eval] = []
        for config, _ in self._ahead:
            found.extend(config.first(count - len(found)))
        while len(found) < count:
            chunk = self._read()
            if chunk is None:
                break
            self._ahead.append(chunk)
            found.extend(chunk[0].first(count - len(found)))
        return found[:count]

    def read_whole(self) -> EvalConfig:
        """Every eval (the chunks at once), its peers and the notes: the source read whole."""
        evals = [ev for config, _ in self.chunks() for ev in config.evals]
        whole = self.whole()
        return EvalConfig(evals, whole.peer_ids, whole.notes)

    def estimated_total(self) -> int:
        """About how many items the source holds, from the bytes read so far."""
        raise NotImplementedError

    def whole(self) -> EvalConfig:
        """The source read (and checked) to its end: every peer and the notes, with no eval (those
        were handed out in chunks)."""
        raise NotImplementedError

    def _read(self) -> Optional[Chunk]:
        """The next chunk (None at the source's end)."""
        raise NotImplementedError

    def _estimated(self, read: int) -> int:
        """About how many items the source holds, ``read`` of them read so far."""
        if self._handle is None:
            return read
        try:
            done = self._handle.tell() if not self._handle.closed else self._bytes
        except (OSError, ValueError):
            return read
        return max(read, round(read * self._bytes / max(1, done)))


def streamed_lines(path: str) -> Optional[tuple[BinaryIO, Iterator[bytes]]]:
    """A regular file open, and its lines (without line ends) read as they are asked for, each at
    most what a configuration may hold; None for standard input or a pipe (:func:`file_lines`
    reads those whole)."""
    handle = line_stream(path, InputError, f"Cannot open {path}")
    if handle is None:
        return None
    return handle, lines_of(handle, path, InputError, f"Cannot read {path}", MAX_CONFIG_BYTES)


def file_lines(path: str) -> list[bytes]:
    """The lines of a file (``-``: standard input), without line ends; a file holds at most
    what a configuration may (:data:`~rouge155py.inputs.files.MAX_CONFIG_BYTES`)."""
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
    return blank(document.text)


def blank(text: str) -> bool:
    """Whether a text holds nothing but ASCII whitespace."""
    return not text.strip(_BLANK)


def empty_note(where: str, what: str, numbers: Sequence[int], skipped: bool) -> str:
    """The one stderr line naming the empty summaries of a file: how many, and the first line numbers."""
    shown = ", ".join(map(str, numbers[:_SHOWN])) + (", ..." if len(numbers) > _SHOWN else "")
    done = "left out (--skip-empty)" if skipped else "scored 0 (--skip-empty leaves such items out)"
    return f"rouge155py: warning: {where}: {len(numbers)} {what} ({shown}): {done}"


def nothing_read(where: str, items: str, left_out: int) -> InputError:
    """The error of a door that read no item: a run that would score nothing does not succeed.
    ``items`` names what it reads (plural); ``left_out``: how many --skip-empty left out."""
    if not left_out:
        why = f"no {items}"
    elif left_out == 1:
        why = f"--skip-empty left out its only {items[:-1]}"
    else:
        why = f"--skip-empty left out all {left_out} {items}"
    return InputError(f"{where}: nothing to score ({why})")
