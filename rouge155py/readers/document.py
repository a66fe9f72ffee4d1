"""Documents: a summary's bytes and input format, whether it lives in a file or in memory.

A document is keyed by what it is: a file by its path, a text by its bytes.
Equal documents are read and tokenized once per run. Every door (XML
configurations, ``-z`` lists, line-aligned files, Python strings, pyrouge
folders) turns its inputs into documents; the readers never see where one
came from.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Optional, Union

from ..errors import InputError, LimitError, RougeError

__all__ = [
    "MAX_CONFIG_BYTES",
    "MAX_FILE_BYTES",
    "Document",
    "SummaryFile",
    "SummaryText",
    "perl_lines",
    "read_file",
    "read_stdin",
    "too_large",
]

#: The largest summary file read: its text takes many times its size in memory
#: once tokenized, and /dev/zero never ends.
MAX_FILE_BYTES = 64 * 2**20
#: The largest configuration or file list (about 600,000 evals).
MAX_CONFIG_BYTES = 256 * 2**20
_CHUNK = 2**20


def too_large(name: str, limit: int = MAX_FILE_BYTES) -> LimitError:
    """The refusal of an input of more than ``limit`` bytes, the same whatever door it came by."""
    return LimitError(f"{name} is larger than {limit >> 20} MiB: refused")


def _read_chunks(read: Callable[[int], Optional[bytes]], chunks: list[bytes], limit: int) -> int:
    """Append what ``read`` returns to ``chunks`` until its end or until more than ``limit``
    bytes are held (``/dev/zero`` never ends); the number of bytes held."""
    size = sum(map(len, chunks))
    while size <= limit:
        chunk = read(_CHUNK)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return size


def read_stdin(error: type[RougeError], reading: str, limit: int) -> bytes:
    """Standard input's bytes, under the same limit as a file's; ``error`` with ``reading`` when
    it cannot be read (a process started with it closed has none)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        why = "standard input is closed" if sys.stdin is None else "standard input is not a byte stream"
        raise error(f"{reading}: {why}")
    chunks: list[bytes] = []
    try:
        size = _read_chunks(stream.read, chunks, limit)
    except (OSError, ValueError) as exc:  # ValueError: a stream closed by the program itself
        raise error(f"{reading}: {getattr(exc, 'strerror', None) or exc}") from None
    if size > limit:
        raise too_large("standard input", limit)
    return b"".join(chunks)


def read_file(
    path: str,
    error: type[RougeError],
    opening: str,
    reading: str,
    directory_empty: bool = False,
    limit: int = MAX_FILE_BYTES,
) -> bytes:
    """The bytes of a file; ``error`` with ``opening`` or ``reading`` (and the reason) when it fails.

    With ``directory_empty`` a directory reads as empty (the Perl reads nothing
    from a summary that is one), else it is an error. A FIFO is read
    only when a writer is already there: opening one without a writer would wait
    for ever. A file larger than ``limit`` bytes is refused (:class:`LimitError`).
    """
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, os.O_RDONLY | nonblocking | getattr(os, "O_CLOEXEC", 0))
    except IsADirectoryError:
        if directory_empty:
            return b""
        raise error(f"{opening}: {os.strerror(errno.EISDIR)}") from None
    except OSError as exc:
        raise error(f"{opening}: {exc.strerror}") from None
    except ValueError:  # a NUL byte: the Perl's C string would end there, a path cannot hold one
        raise error(f"{opening}: the file name holds a NUL byte") from None
    status = os.fstat(fd)
    mode = status.st_mode
    if stat.S_ISDIR(mode):
        os.close(fd)
        if directory_empty:
            return b""
        raise error(f"{opening}: {os.strerror(errno.EISDIR)}")
    if stat.S_ISREG(mode) and status.st_size < min(limit, _CHUNK):
        # A small regular file: one read; a short read is its end.
        try:
            data = os.read(fd, status.st_size + 1)
        except OSError as exc:
            os.close(fd)
            raise error(f"{reading}: {exc.strerror}") from None
        if len(data) <= status.st_size:
            os.close(fd)
            return data
        chunks_before = [data]  # it grew since fstat: read the rest as any file
    else:
        chunks_before = []
    with open(fd, "rb", buffering=0) as handle:
        chunks: list[bytes] = chunks_before
        try:
            if stat.S_ISFIFO(mode):
                first = handle.read(_CHUNK)  # None: a writer is there, with nothing written yet
                if first == b"":
                    raise OSError(errno.EPIPE, "a FIFO that no process is writing to")
                chunks.append(first or b"")
            if nonblocking:
                os.set_blocking(fd, True)
        except OSError as exc:
            raise error(f"{opening}: {exc.strerror}") from None
        try:
            size = _read_chunks(handle.read, chunks, limit)
        except OSError as exc:
            raise error(f"{reading}: {exc.strerror}") from None
    if size > limit:
        raise too_large(path, limit)
    return b"".join(chunks)


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

    def lines(self) -> list[str]:
        """The file's lines, bytes one-to-one as latin-1 characters."""
        data = read_file(self.path, InputError, f"Cannot open {self.path}", f"Cannot read {self.path}", True)
        return perl_lines(data.decode("latin-1"))


@dataclass(frozen=True)
class SummaryText:
    """A summary held in memory: the bytes a file would hold, as latin-1 characters."""

    text: str
    input_format: str
    name: str = field(default="<text>", compare=False)

    @classmethod
    def of(cls, content: Union[str, bytes], input_format: str, name: str = "<text>") -> SummaryText:
        """A text as the file it would be written to: ``str`` is encoded as UTF-8."""
        data = content.encode("utf-8", "surrogateescape") if isinstance(content, str) else bytes(content)
        return cls(data.decode("latin-1"), input_format, name)

    def exists(self) -> bool:
        return True

    def lines(self) -> list[str]:
        return perl_lines(self.text)


Document = Union[SummaryFile, SummaryText]
