"""Reading input files and standard input, bounded: no wait on a FIFO without a writer, no
endless read of ``/dev/zero``, one error class per caller.

Every door reads through here: summaries, configurations and file lists, data
files, a user's stopword list, line-aligned and JSONL files.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from typing import Callable, Optional

from .errors import LimitError, RougeError

__all__ = ["MAX_CONFIG_BYTES", "MAX_FILE_BYTES", "perl_string", "read_file", "read_stdin", "too_large"]

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


def perl_string(word: str) -> str:
    """A command-line word as Perl holds it: each of its bytes one character below U+0100.

    A system ID from the command line is bytes to the Perl, an ID in the XML is
    characters: ``é`` typed (UTF-8) is not the XML's ``ID="é"``, and each is printed
    as the Perl prints it (see :func:`rouge155py.report.perl_printed`).
    """
    return os.fsencode(word).decode("latin-1")
