"""Reading input files and standard input, bounded: no wait on a FIFO without a writer, no
endless read of ``/dev/zero``, one error class per caller; writing bytes out whole; the
Perl's byte rules for strings (``lc``, command-line words).

Every door reads through here: summaries, configurations and file lists, data
files, a user's stopword list, line-aligned and JSONL files.

``write()`` may take part of what it is given: a file that reaches the size
limit or a full disk takes what fits, a pipe whose reader goes away takes what
it held. Python's unbuffered streams hand that count back and drop the rest,
and a descriptor another process made non-blocking refuses with EAGAIN when
it is full. :func:`write_all` goes on where each write stopped and waits for a
full descriptor to take more, so that a report is either all written or ends
in an ``OSError`` (``BrokenPipeError`` once the reader is gone).
"""

from __future__ import annotations

import errno
import os
import select
import stat
import sys
from typing import Any, BinaryIO, Callable, Iterator, Optional, Union

from ..errors import LimitError, RougeError

__all__ = [
    "ASCII_LOWER",
    "MAX_CONFIG_BYTES",
    "MAX_FILE_BYTES",
    "MAX_JSON_DEPTH",
    "ascii_lower",
    "json_value",
    "line_stream",
    "lines_of",
    "own_output",
    "perl_string",
    "read_file",
    "read_stdin",
    "too_large",
    "write_all",
]

#: The largest summary file read: its text takes many times its size in memory
#: once tokenized, and /dev/zero never ends.
MAX_FILE_BYTES = 64 * 2**20
#: The largest configuration or file list (about 600,000 evals).
MAX_CONFIG_BYTES = 256 * 2**20
_CHUNK = 2**20
#: The deepest nesting of arrays and objects read in a JSON value given by a user (a
#: ``--jsonl`` line needs 3 levels): Python's parser recurses once a level, and 50,000
#: ``[`` would end in a RecursionError.
MAX_JSON_DEPTH = 100


class JsonTooDeep(ValueError):
    """A JSON value nested deeper than :data:`MAX_JSON_DEPTH` (a ``ValueError``, as
    :func:`json.loads` raises for any text that is not JSON)."""


def json_value(text: Union[str, bytes]) -> Any:
    """The value of a JSON text given by a user, nested :data:`MAX_JSON_DEPTH` levels deep at
    most; ``ValueError`` for one that is not JSON or is nested deeper.

    A text with no more ``[`` and ``{`` than the limit cannot be deeper (the common
    case: two counts in C); any other is parsed, then measured.
    """
    import json

    opening = ("[", "{") if isinstance(text, str) else (b"[", b"{")
    if text.count(opening[0]) + text.count(opening[1]) <= MAX_JSON_DEPTH:  # type: ignore[arg-type]
        return json.loads(text)
    try:
        value = json.loads(text)
    except RecursionError:
        raise JsonTooDeep(f"nested deeper than {MAX_JSON_DEPTH} levels") from None
    if _depth_over(value, MAX_JSON_DEPTH):
        raise JsonTooDeep(f"nested deeper than {MAX_JSON_DEPTH} levels")
    return value


def _depth_over(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` levels in a parsed JSON value (a walk
    with a stack of its own: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, (list, dict)))
    return False


def too_large(name: str, limit: int = MAX_FILE_BYTES) -> LimitError:
    """The refusal of an input of more than ``limit`` bytes, the same whatever door it came by."""
    return LimitError(f"{name} is larger than {limit >> 20} MiB: refused")


def own_output(fd: int, status: Optional[os.stat_result] = None) -> Optional[str]:
    """Which of this process's own outputs (``"standard output"``, ``"standard error"``) the open
    file ``fd`` is, where reading it would wait for ever; else None.

    ``--hyp /dev/stdout | cat`` opens the pipe this process writes to: the only
    writer is the reader, which waits for bytes it would write itself. So do a
    FIFO or socket, and a terminal (that is not also standard input, where the
    user types): each is refused. A regular file or ``/dev/null`` that is also
    standard output is read as any file (it ends).
    """
    status = os.fstat(fd) if status is None else status
    mode = status.st_mode
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)):
        return None
    if stat.S_ISCHR(mode) and (not os.isatty(fd) or _same_file(0, status)):
        return None
    for own, name in ((1, "standard output"), (2, "standard error")):
        if _same_file(own, status):
            return name
    return None


def _same_file(fd: int, status: os.stat_result) -> bool:
    """Whether descriptor ``fd`` of this process is open on the file ``status`` describes."""
    try:
        own = os.fstat(fd)
    except OSError:  # closed
        return False
    return (own.st_dev, own.st_ino) == (status.st_dev, status.st_ino)


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
    once: Optional[dict[tuple[int, int, int], bytes]] = None,
) -> bytes:
    """The bytes of a file; ``error`` with ``opening`` or ``reading`` (and the reason) when it fails.

    With ``directory_empty`` a directory reads as empty (the Perl reads nothing
    from a summary that is one), else it is an error. A FIFO is read
    only when a writer is already there: opening one without a writer would wait
    for ever; one that is this process's own output is refused (:func:`own_output`).
    The file is opened once, and everything is read from that descriptor. A file
    larger than ``limit`` bytes is refused (:class:`LimitError`).

    ``once`` keeps the bytes of a file that is not a regular one (a pipe, a FIFO, a
    device: ``--stopwords <(...)``, which gives its bytes once) by the device, inode
    and time of the last write of the descriptor opened: a later call that opens that
    same file gets them from there.
    """
    fd = _opened(path, error, opening)
    if fd is None:
        if directory_empty:
            return b""
        raise error(f"{opening}: {os.strerror(errno.EISDIR)}")
    status = os.fstat(fd)
    mode = status.st_mode
    own = own_output(fd, status)
    if own is not None:
        os.close(fd)
        raise error(f"{opening}: it is this process's own {own}, which it would wait on for ever")
    if stat.S_ISDIR(mode):
        os.close(fd)
        if directory_empty:
            return b""
        raise error(f"{opening}: {os.strerror(errno.EISDIR)}")
    if once is not None and not stat.S_ISREG(mode):
        key = (status.st_dev, status.st_ino, status.st_mtime_ns)
        if key in once:
            os.close(fd)
            return once[key]
        data = _read_open(fd, mode, error, opening, reading, limit, path, [])
        once[key] = data
        return data
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
    return _read_open(fd, mode, error, opening, reading, limit, path, chunks_before)


def _opened(path: str, error: type[RougeError], opening: str) -> Optional[int]:
    """A descriptor of the file opened for reading, not blocking (a FIFO without a writer is not
    waited on); None where the system refuses to open a directory. ``error`` with ``opening`` and
    the reason when it cannot be opened."""
    try:
        return os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except IsADirectoryError:
        return None
    except OSError as exc:
        raise error(f"{opening}: {exc.strerror}") from None
    except ValueError:  # a NUL byte: the Perl's C string would end there, a path cannot hold one
        raise error(f"{opening}: the file name holds a NUL byte") from None


def line_stream(path: str, error: type[RougeError], opening: str) -> Optional[BinaryIO]:
    """A regular file opened to be read a line at a time (:func:`lines_of`), whatever its size;
    None for anything else (standard input, a pipe, a device: :func:`read_file` reads those whole,
    under its limit). ``error`` with ``opening`` and the reason when it cannot be opened."""
    if path == "-":
        return None
    fd = _opened(path, error, opening)
    if fd is None:
        raise error(f"{opening}: {os.strerror(errno.EISDIR)}")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    if getattr(os, "O_NONBLOCK", 0):
        os.set_blocking(fd, True)
    return open(fd, "rb")


def lines_of(
    handle: BinaryIO, path: str, error: type[RougeError], reading: str, limit: int
) -> Iterator[bytes]:
    """The lines of an open file, without line ends (``\r\n`` too), read as they are asked for; a
    line of more than ``limit`` bytes is refused (:class:`LimitError`). The file is closed at its end."""
    with handle:
        while True:
            try:
                line = handle.readline(limit + 2)
            except OSError as exc:
                raise error(f"{reading}: {exc.strerror}") from None
            if not line:
                return
            if line.endswith(b"\n"):
                line = line[:-1]
            if len(line) > limit:
                raise LimitError(f"{path}: a line is larger than {limit >> 20} MiB: refused")
            yield line[:-1] if line.endswith(b"\r") else line


def _read_open(
    fd: int,
    mode: int,
    error: type[RougeError],
    opening: str,
    reading: str,
    limit: int,
    path: str,
    chunks_before: list[bytes],
) -> bytes:
    """The rest of an open file's bytes (after ``chunks_before``), read in chunks; ``fd`` is closed."""
    with open(fd, "rb", buffering=0) as handle:
        chunks: list[bytes] = chunks_before
        try:
            if stat.S_ISFIFO(mode):
                first = handle.read(_CHUNK)  # None: a writer is there, with nothing written yet
                if first == b"":
                    raise OSError(errno.EPIPE, "a FIFO that no process is writing to")
                chunks.append(first or b"")
            if getattr(os, "O_NONBLOCK", 0):  # as read_file opened it
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


#: Perl's ``lc`` on bytes: ASCII letters only (a ``str.translate`` table).
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """Perl's ``lc`` on bytes, for text holding bytes one-to-one (latin-1): ASCII letters only."""
    try:
        return text.encode("latin-1").lower().decode("latin-1")  # bytes.lower() is ASCII-only
    except UnicodeEncodeError:
        return text.translate(ASCII_LOWER)


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd``; an ``OSError`` tells why it could not."""
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            _wait_writable(fd)
            continue
        if written == 0:  # no error and no progress: going on would spin
            raise OSError(errno.EIO, "the device takes no more bytes")
        view = view[written:]


def _wait_writable(fd: int) -> None:
    """Block until ``fd`` takes more, or has an error for the next write to raise."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        poller.poll()
    else:
        select.select([], [fd], [fd])
