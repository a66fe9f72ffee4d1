"""The registry of doors: :data:`SOURCES`, in order of precedence, and what runs over it (the
source options choose, the command line's rules of the doors). A new door is a line here; see
:mod:`rouge155py.inputs.sources` for the rest of the recipe."""

from __future__ import annotations

from typing import Optional

from ..errors import UsageError
from .aligned import AlignedFiles
from .jsonl import JsonlFile
from .sources import CommandLine, Door, DoorSettings, Source
from .xml import FileList, XmlFile

__all__ = ["SOURCES", "command_line_door", "source_of"]

#: Every door chosen by options, in order of precedence.
SOURCES: tuple[Door, ...] = (AlignedFiles, JsonlFile, FileList, XmlFile)


def source_of(options: DoorSettings) -> Optional[Source]:
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
