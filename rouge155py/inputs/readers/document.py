"""Documents: a summary's bytes and input format, whether it lives in a file or in memory.

A document is keyed by what it is: a file by its path, a text by its bytes.
Equal documents are read and tokenized once per run. Every door (XML
configurations, ``-z`` lists, line-aligned files, Python strings, pyrouge
folders) turns its inputs into documents; the readers never see where one
came from.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import NamedTuple, Optional, Union

from ...errors import InputError
from ..files import read_file

__all__ = ["Document", "SummaryFile", "SummaryText", "perl_lines"]


def perl_lines(text: str) -> list[str]:
    """The lines Perl's ``<FH>`` returns: split after each ``\\n``, which each line keeps."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    if not lines[-1]:
        lines.pop()
    return lines


class SummaryFile(NamedTuple):
    """A summary file, read when it is first needed (a tuple: it keys the corpus's caches, cheaply)."""

    path: str
    input_format: Optional[str]

    @property
    def name(self) -> str:
        return self.path

    def exists(self) -> bool:
        """The Perl's ``-e`` test, made on model files before anything is read."""
        return os.path.exists(self.path)

    def content(self) -> str:
        """The file's bytes, one-to-one as latin-1 characters."""
        data = read_file(self.path, InputError, f"Cannot open {self.path}", f"Cannot read {self.path}", True)
        return data.decode("latin-1")

    def lines(self) -> list[str]:
        """The file's lines, bytes one-to-one as latin-1 characters."""
        return perl_lines(self.content())


@dataclass(frozen=True)
class SummaryText:
    """A summary held in memory: the bytes a file would hold, as latin-1 characters."""

    text: str
    input_format: str
    name: str = field(default="<text>", compare=False)

    @classmethod
    def of(cls, content: Union[str, bytes], input_format: str, name: str = "<text>") -> SummaryText:
        """A text as the file it would be written to: ``str`` is encoded as UTF-8."""
        if isinstance(content, str) and content.isascii():  # its UTF-8 bytes are its characters
            return cls(content, input_format, name)
        data = content.encode("utf-8", "surrogateescape") if isinstance(content, str) else bytes(content)
        return cls(data.decode("latin-1"), input_format, name)

    def exists(self) -> bool:
        return True

    def content(self) -> str:
        return self.text

    def lines(self) -> list[str]:
        return perl_lines(self.text)


Document = Union[SummaryFile, SummaryText]
