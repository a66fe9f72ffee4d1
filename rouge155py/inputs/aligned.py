"""The line-aligned files door (``--hyp``, ``--ref``): line i of each hypothesis file against
line i of each reference file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Optional, Sequence, Union

from ..errors import InputError, UsageError
from .config import EvalConfig, config_from_documents
from .readers import SummaryText
from .sources import CommandLine, empty_note, file_lines, is_empty, nothing_read
from .texts import DEFAULT_PEER_ID, summary_document

if TYPE_CHECKING:
    from .sources import DoorSettings

__all__ = ["AlignedFiles", "hypothesis_systems", "read_aligned_files"]


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
    config's notes; ``skip_empty`` leaves out every item where a line is empty.
    """
    systems = [(DEFAULT_PEER_ID, hypotheses)] if isinstance(hypotheses, str) else list(hypotheses)
    files = [path for _, path in systems] + list(references)
    lines = [file_lines(path) for path in files]
    if len({len(found) for found in lines}) > 1:
        counts = ", ".join(f"{path}: {len(found)}" for path, found in zip(files, lines))
        raise InputError(f"line-aligned files must have the same number of lines ({counts})")
    cut = separator.encode("utf-8", "surrogateescape") if separator else None

    def document(line: bytes, path: str, number: int) -> SummaryText:
        return summary_document(line.replace(cut, b"\n") if cut else line, "SPL", f"{path}:{number}")

    documents = [
        [document(line, path, i + 1) for i, line in enumerate(found)] for path, found in zip(files, lines)
    ]
    del lines
    peers = {peer_id: found for (peer_id, _), found in zip(systems, documents)}
    models = [list(item) for item in zip(*documents[len(systems) :])] if references else []
    config = config_from_documents(peers, models)
    skipped: set[int] = set()
    for path, found in zip(files, documents):
        empty = [i + 1 for i, doc in enumerate(found) if is_empty(doc)]
        if empty:
            config.notes.append(empty_note(path, f"of {len(found)} lines empty", empty, skip_empty))
            skipped.update(empty)
    if skip_empty and skipped:
        config.evals = [ev for number, ev in enumerate(config.evals, start=1) if number not in skipped]
        config.peer_ids = {peer_id for ev in config.evals for peer_id in ev.peers}
    if not config.evals:
        raise nothing_read(", ".join(files), "lines", len(skipped))
    return config


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

    def read(self) -> EvalConfig:
        return read_aligned_files(self.hypotheses, self.references, self.separator, self.skip_empty)

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
