"""The configuration file doors: a ROUGE-EVAL XML configuration and a ``-z`` file list, thin
over the readers of :mod:`rouge155py.inputs.config`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .config import EvalConfig, XmlEvalStream, read_file_list, read_xml_config
from .files import perl_string
from .sources import CommandLine

if TYPE_CHECKING:
    from .sources import DoorSettings

__all__ = ["FileList", "XmlFile"]


class _ConfigurationDoor:
    """The command line of a door the configuration file names: the Perl's argument, with no
    option of its own and no rule beyond the Perl's."""

    flags: ClassVar[tuple[str, ...]] = ()
    setting_flags: ClassVar[tuple[str, ...]] = ()
    described: ClassVar[str] = "the configuration file"

    @classmethod
    def check(cls, line: CommandLine) -> None:
        """No rule of its own."""


@dataclass(frozen=True)
class XmlFile(_ConfigurationDoor):
    """A ROUGE-EVAL XML configuration; it may also be read as it is parsed (:meth:`stream`)."""

    path: str

    @property
    def name(self) -> str:
        return self.path

    def read(self) -> EvalConfig:
        return read_xml_config(self.path)

    def stream(self) -> XmlEvalStream:
        """The configuration read one child of its root at a time."""
        return XmlEvalStream(self.path)

    @classmethod
    def applies(cls, options: DoorSettings) -> bool:
        return options.config_path is not None

    @classmethod
    def from_options(cls, options: DoorSettings) -> XmlFile:
        return cls(str(options.config_path))


@dataclass(frozen=True)
class FileList(_ConfigurationDoor):
    """A ``-z`` file list of ``input_format`` files; its peers are ``peer_id`` (as the Perl holds it)."""

    path: str
    input_format: str
    peer_id: str

    @property
    def name(self) -> str:
        return self.path

    def read(self) -> EvalConfig:
        return read_file_list(self.path, self.input_format, self.peer_id)

    @classmethod
    def applies(cls, options: DoorSettings) -> bool:
        return options.config_path is not None and options.file_list_format is not None

    @classmethod
    def from_options(cls, options: DoorSettings) -> FileList:
        return cls(
            str(options.config_path), str(options.file_list_format), perl_string(options.file_list_peer_id)
        )
