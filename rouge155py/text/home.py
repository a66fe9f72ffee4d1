"""``--make-home DIR``: a "ROUGE home" folder whose ``ROUGE-1.5.5.pl`` runs rouge155py.

Programs that run the Perl by path (pyrouge, files2rouge, rouge-metric's
wrapper) are pointed at this folder and work unchanged, with no Perl on the
machine: the script is a shell script, which ``perl SCRIPT`` also hands to
``/bin/sh`` (Perl runs the interpreter a ``#!`` line names when it is not
Perl). It names this Python by its absolute path, so it runs under an empty
environment too (files2rouge passes only ``ROUGE_EVAL_HOME``). ``data/``
holds the stopwords and the WordNet exception lists in the layout of the
ROUGE-1.5.5 release.

Nothing outside DIR is written, opened or chmod-ed, whatever was planted in
it: each file is written to a new temporary file beside its name (created
with ``O_EXCL | O_NOFOLLOW``) and renamed over the name, which replaces a
link, a FIFO or a device node there instead of writing through it; the
folders ``data`` and its exception folder are opened without following a
link, and refused when they are not folders. Renaming also keeps each file
whole at every moment, so that several runs may make one home at once.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import stat
import sys
from typing import Iterator

from ..errors import UsageError
from ..inputs.files import write_all
from .resources import EXCEPTION_FILES, STOPWORDS_FILE, bundled_data_dir, exception_dir

__all__ = ["SCRIPT_NAME", "make_home"]

SCRIPT_NAME = "ROUGE-1.5.5.pl"
_EXCEPTIONS = "WordNet-2.0-Exceptions"
_MARK = "# ROUGE-1.5.5.pl's command line, run by rouge155py (same options, same output).\n"
# Not "python -m": that puts the caller's working directory first on sys.path,
# where any file such as dataclasses.py would shadow the module rouge155py needs.
_RUN = "import sys; sys.path[:] = [p for p in sys.path if p]; from rouge155py.cli import main; main()"
_HEAD = 4096  # bytes of an existing script read for the mark (it is on the second line)
_HOME = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC  # DIR itself is the user's: a link to it is followed
# O_NONBLOCK: opening a FIFO never waits for a writer (nor, with O_DIRECTORY, a reader).
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def make_home(directory: str) -> str:
    """Write the folder (made if needed) and return the script's path."""
    bundled = bundled_data_dir()
    source = exception_dir(bundled)
    if source is None:  # the package is broken, not the user's input
        raise RuntimeError(f"no WordNet exception lists in {bundled}")
    script = f'#!/bin/sh\n{_MARK}exec {shlex.quote(sys.executable)} -c {shlex.quote(_RUN)} "$@"\n'
    try:
        os.makedirs(directory, exist_ok=True)
        with contextlib.ExitStack() as stack:
            home = stack.enter_context(_opened(os.open(directory, _HOME)))
            _check_script(home, os.path.join(directory, SCRIPT_NAME))
            data = stack.enter_context(_folder(home, directory, "data"))
            exceptions = stack.enter_context(_folder(data, os.path.join(directory, "data"), _EXCEPTIONS))
            _put(data, STOPWORDS_FILE, (bundled / STOPWORDS_FILE).read_bytes(), 0o644)
            for name in EXCEPTION_FILES:
                _put(exceptions, name, (source / name).read_bytes(), 0o644)
            _put(home, SCRIPT_NAME, script.encode("utf-8", "surrogateescape"), 0o755)
    except OSError as exc:
        raise UsageError(f"cannot make the ROUGE home {directory}: {exc.strerror or exc}") from None
    return os.path.join(os.path.realpath(directory), SCRIPT_NAME)


@contextlib.contextmanager
def _opened(fd: int) -> Iterator[int]:
    try:
        yield fd
    finally:
        os.close(fd)


def _check_script(home: int, shown: str) -> None:
    """Refuse a regular file at the script's name that rouge155py did not write (a real ROUGE?).

    Whatever else is there (a link, a FIFO, a device node) is replaced, never opened.
    """
    try:
        if not stat.S_ISREG(os.stat(SCRIPT_NAME, dir_fd=home, follow_symlinks=False).st_mode):
            return
        fd = os.open(SCRIPT_NAME, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=home)
    except FileNotFoundError:
        return
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO):  # replaced by a link or a socket meanwhile
            return
        raise
    with _opened(fd):
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        head = os.read(fd, _HEAD)
    if _MARK.encode() not in head:
        raise UsageError(f"{shown} exists and rouge155py did not write it (a real ROUGE?): not replaced")


@contextlib.contextmanager
def _folder(parent: int, parent_shown: str, name: str) -> Iterator[int]:
    """The folder ``name`` in ``parent``, made if needed and opened without following a link."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(name, 0o777, dir_fd=parent)
    try:
        fd = os.open(name, _FOLDER, dir_fd=parent)
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
            raise
        shown = os.path.join(parent_shown, name)
        raise UsageError(f"{shown} is not a folder (a symbolic link or another file): not followed") from None
    with _opened(fd):
        yield fd


def _put(folder: int, name: str, data: bytes, mode: int) -> None:
    """Make ``name`` in ``folder`` a regular file holding ``data``, replacing whatever the name was."""
    temporary, fd = _new_file(folder, name)
    try:
        with _opened(fd):
            write_all(fd, data)
            os.fchmod(fd, mode)
            os.fsync(fd)  # whole on disk before it takes the name
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise


def _new_file(folder: int, name: str) -> tuple[str, int]:
    """A temporary file of a name no other run picks, created in ``folder`` beside ``name``."""
    while True:
        temporary = f".{name}.{os.getpid()}.{os.urandom(6).hex()}.tmp"
        try:
            return temporary, os.open(temporary, _NEW_FILE, 0o600, dir_fd=folder)
        except FileExistsError:
            continue
