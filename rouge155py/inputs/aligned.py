"""The line-aligned files door (``--hyp``, ``--ref``): line i of each hypothesis file against
line i of each reference file."""

from __future__ import annotations

import os
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import islice, zip_longest
from typing import TYPE_CHECKING, BinaryIO, ClassVar, Iterable, Iterator, Optional, Sequence, Union

from ..errors import InputError, UsageError
from .config import Eval, EvalConfig, TextConfig, items_differ
from .files import MAX_FILE_BYTES, too_large
from .readers import Document, SummaryText
from .sources import (
    Chunk,
    CommandLine,
    StreamedEvals,
    blank,
    empty_note,
    file_lines,
    nothing_read,
    streamed_lines,
)
from .texts import DEFAULT_PEER_ID

if TYPE_CHECKING:
    from .sources import DoorSettings

__all__ = ["AlignedFiles", "AlignedStream", "hypothesis_systems", "read_aligned_files"]


def hypothesis_systems(specs: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The peer ID and file of each ``--hyp``: ``NAME=FILE``, else FILE named by its file name
    without extension (``out/sysA.txt``: ``sysA``); one unnamed file is system ``1``.

    Two files that name one system are an error naming both (``NAME=FILE`` tells them apart);
    a file whose name holds ``=`` is given with its folder (``./a=b.txt``).
    """
    if len(specs) == 1 and _named(specs[0]) is None:
        return ((DEFAULT_PEER_ID, specs[0]),)
    found: dict[str, tuple[str, str]] = {}  # peer ID -> (the --hyp as given, its file)
    for spec in specs:
        peer_id, path = _named(spec) or (_file_id(spec), spec)
        if peer_id in found:
            raise UsageError(
                f"--hyp {found[peer_id][0]} and --hyp {spec} both name system {peer_id!r}: "
                "name them with --hyp NAME=FILE"
            )
        found[peer_id] = (spec, path)
    if sum(path == "-" for _, path in found.values()) > 1:
        raise UsageError("standard input (-) can be read by one --hyp only")
    return tuple((peer_id, path) for peer_id, (_, path) in found.items())


def _named(spec: str) -> Optional[tuple[str, str]]:
    """``NAME=FILE`` as (NAME, FILE); None where the text before ``=`` is not a name (a folder)."""
    name, eq, path = spec.partition("=")
    if not eq or not name or not path or "/" in name or os.sep in name:
        return None
    return name, path


def _file_id(path: str) -> str:
    """A hypothesis file's system ID: its name without folder and extension."""
    if path == "-":
        raise UsageError("--hyp - (standard input) among several --hyp needs a name: --hyp NAME=-")
    peer_id = os.path.splitext(os.path.basename(path.rstrip("/" + os.sep)))[0]
    if not peer_id:
        raise UsageError(f"--hyp {path}: no file name to name its system: --hyp NAME=FILE")
    return peer_id


def read_aligned_files(
    hypotheses: Union[str, Sequence[tuple[str, str]]],
    references: Sequence[str],
    separator: Optional[str],
    skip_empty: bool = False,
) -> EvalConfig:
    """Evals from line-aligned files: line i of each hypothesis file against line i of each
    reference file (eval ID ``i``).

    ``hypotheses``: one file (system ``1``) or (peer ID, file) pairs, one per system;
    ``separator`` (e.g. ``<q>``) splits a line into sentences. Empty lines are named in the
    config's notes; ``skip_empty`` leaves out every item where a line is empty. Each file is
    read whole, as a configuration is (:meth:`AlignedFiles.read_in_chunks` reads regular files
    of any size).
    """
    systems = ((DEFAULT_PEER_ID, hypotheses),) if isinstance(hypotheses, str) else tuple(hypotheses)
    source = AlignedFiles(systems, tuple(references), separator, skip_empty)
    lines = [file_lines(path) for path in source.files]
    counts = [len(found) for found in lines]
    if len(set(counts)) > 1:
        raise _different_lengths(source.files, counts)
    if not references and counts[0]:
        raise items_differ(systems[0][0], counts[0], 0)
    stream = AlignedStream(source, lines, max(1, counts[0]))
    del lines
    return stream.read_whole()


def _different_lengths(files: Sequence[str], counts: Sequence[int]) -> InputError:
    listed = ", ".join(f"{path}: {count}" for path, count in zip(files, counts))
    return InputError(f"line-aligned files must have the same number of lines ({listed})")


@dataclass(frozen=True)
class AlignedFiles:
    """Line-aligned files: line i of each hypothesis file (peer ID, file: one per system) against
    line i of each reference file; ``skip_empty`` leaves out the items where a line is empty."""

    hypotheses: tuple[tuple[str, str], ...]
    references: tuple[str, ...]
    separator: Optional[str] = None
    skip_empty: bool = False

    flags: ClassVar[tuple[str, ...]] = ("--hyp", "--ref")
    setting_flags: ClassVar[tuple[str, ...]] = ("--sentence-separator", "--skip-empty")
    described: ClassVar[str] = "line-aligned files (--hyp, --ref)"

    @classmethod
    def check(cls, line: CommandLine) -> None:
        if not all(line.repeated[flag] for flag in cls.flags):
            raise UsageError(
                "line-aligned files need a --hyp FILE (one per system) and at least one --ref FILE"
            )

    @property
    def name(self) -> str:
        return f"{', '.join(path for _, path in self.hypotheses)} against {', '.join(self.references)}"

    @property
    def files(self) -> tuple[str, ...]:
        """Every file: the hypotheses' in system order, then the references'."""
        return (*(path for _, path in self.hypotheses), *self.references)

    def read(self) -> EvalConfig:
        return read_aligned_files(self.hypotheses, self.references, self.separator, self.skip_empty)

    def read_in_chunks(self, size: int) -> Optional[AlignedStream]:
        """The files read ``size`` lines at a time, in step, as the run scores them
        (:class:`AlignedStream`): regular files, of any size; None where one is standard input or
        a pipe, or where no reference file is given (all read whole: :meth:`read`)."""
        if not self.references:
            return None
        with ExitStack() as opened:  # each file closed again unless the stream takes them all
            handles, lines = [], []
            for path in self.files:
                found = streamed_lines(path)
                if found is None:
                    return None
                handles.append(opened.enter_context(found[0]))
                lines.append(found[1])
            opened.pop_all()
        return AlignedStream(self, lines, size, handles[0])

    @classmethod
    def applies(cls, options: DoorSettings) -> bool:
        return options.hypothesis_path is not None or bool(options.hypothesis_paths)

    @classmethod
    def from_options(cls, options: DoorSettings) -> AlignedFiles:
        hypotheses = (
            hypothesis_systems(options.hypothesis_paths)
            if options.hypothesis_paths
            else ((DEFAULT_PEER_ID, str(options.hypothesis_path)),)
        )
        return cls(hypotheses, options.reference_paths, options.sentence_separator, options.skip_empty)


class AlignedStream(StreamedEvals):
    """The evals of line-aligned files, read a chunk of lines at a time, every file in step, as
    the run scores them (each chunk dropped before the next is read): every check and note of
    the door (:func:`read_aligned_files` reads files whole through it). A chunk of one
    hypothesis file against one reference file is held by columns (:class:`~.config.TextConfig`),
    which the C kernel scores as it scores the API's lists; any other holds its lines'
    documents. An eval's place in the files is its line's number less one; its documents are
    named ``FILE:LINE``."""

    def __init__(
        self,
        source: AlignedFiles,
        lines: Sequence[Iterable[bytes]],
        size: int,
        handle: Optional[BinaryIO] = None,
    ) -> None:
        super().__init__(size, handle)
        self.source = source
        self._lines = [iter(found) for found in lines]  # each file's, in source.files' order
        # A line of each file (None from a file that ended); None once every file ended.
        self._rows: Optional[Iterator[tuple[bytes, ...]]] = zip_longest(*self._lines)
        self._cut = source.separator.encode("utf-8", "surrogateescape") if source.separator else None
        self.lines = 0  # read so far, in each file
        self.kept = 0  # evals made so far
        self._empty: list[list[int]] = [[] for _ in self._lines]  # each file's empty lines

    def estimated_total(self) -> int:
        """About how many lines the files hold, from the bytes read so far."""
        return self._estimated(self.lines)

    def whole(self) -> EvalConfig:
        """The files read (and checked) to their end: every peer and the notes (each file's empty
        lines, in the files' order), with no eval (those were handed out in chunks)."""
        while self._read() is not None:
            pass
        source = self.source
        notes = [
            empty_note(path, f"of {self.lines} lines empty", empty, source.skip_empty)
            for path, empty in zip(source.files, self._empty)
            if empty
        ]
        peer_ids = {peer_id for peer_id, _ in source.hypotheses} if self.kept else set()
        return EvalConfig([], peer_ids, notes)

    def _read(self) -> Optional[Chunk]:
        """The next chunk of lines (None at the files' end): one with an eval, where
        ``skip_empty`` leaves out every line of some."""
        while self._rows is not None:
            rows = list(islice(self._rows, self.size))
            if rows and None in rows[-1]:  # a file ended before another: count every file's lines
                counts = [
                    self.lines + sum(row[k] is not None for row in rows) + sum(1 for _ in lines)
                    for k, lines in enumerate(self._lines)
                ]
                raise _different_lengths(self.source.files, counts)
            first = self.lines
            self.lines += len(rows)
            chunk = self._chunk(rows, first) if rows else None
            if len(rows) < self.size:
                self._rows = None
                if not self.kept:  # every line left out by --skip-empty, if there was one
                    raise nothing_read(", ".join(self.source.files), "lines", self.lines)
            if chunk is not None:
                return chunk
        return None

    def _chunk(self, rows: list[tuple[bytes, ...]], first: int) -> Optional[Chunk]:
        """The evals of lines ``first + 1`` on (a row: a line of each file), file by file: each line
        a summary as its SPL file would hold it (at most :data:`~.files.MAX_FILE_BYTES`)."""
        source, cut = self.source, self._cut
        files = source.files
        columns: list[list[str]] = []
        left_out: set[int] = set()
        for path, found in zip(files, zip(*rows)):
            if cut:
                found = tuple(line.replace(cut, b"\n") for line in found)
            if max(map(len, found)) > MAX_FILE_BYTES:
                number = next(n for n, line in enumerate(found, first + 1) if len(line) > MAX_FILE_BYTES)
                raise too_large(f"{path}:{number}")
            texts = [line.decode("latin-1") for line in found]  # the bytes, one character each
            columns.append(texts)
            empty = [number for number, text in enumerate(texts, start=first + 1) if blank(text)]
            self._empty[len(columns) - 1].extend(empty)
            if source.skip_empty:
                left_out.update(empty)
        kept = [k for k in range(len(rows)) if first + k + 1 not in left_out]
        if not kept:
            return None
        self.kept += len(kept)
        places = [first + k for k in kept]
        systems = source.hypotheses
        if len(systems) == 1 and len(columns) == 2:  # one system, one reference file: by columns
            peer_texts, model_texts = ([texts[k] for k in kept] for texts in columns) if left_out else columns
            config = TextConfig(
                {systems[0][0]: peer_texts},
                model_texts,
                range(len(model_texts) + 1),
                "SPL",
                _line_names(files[0]),
                _line_names(files[1]),
                places,
            )
            return config, places
        evals = []
        for k, place in zip(kept, places):
            documents: list[Document] = [
                SummaryText(texts[k], "SPL", f"{path}:{place + 1}") for path, texts in zip(files, columns)
            ]
            peers = {peer_id: document for (peer_id, _), document in zip(systems, documents)}
            evals.append(Eval(str(place + 1), peers, documents[len(systems) :]))
        return EvalConfig(evals, {peer_id for peer_id, _ in systems}), places


def _line_names(path: str) -> str:
    """How :class:`~.config.TextConfig` names the lines of a file, ``FILE:LINE`` (its ``item``)."""
    return path.replace("{", "{{").replace("}", "}}") + ":{item}"
