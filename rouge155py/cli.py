"""The ``rouge155py`` command: ROUGE-1.5.5.pl's command line, clear errors."""

from __future__ import annotations

import contextlib
import errno
import gc
import json
import os
import re
import signal
import sys
import time
from typing import TYPE_CHECKING, Any, Iterator, NoReturn, Optional, Sequence

from ._version import __version__
from .errors import OutputError, ReportDiffers, RougeError, UsageError, WorkerStopped
from .inputs.files import write_all
from .report.writing import escape_surrogates
from .run.progress import terminal_progress

if TYPE_CHECKING:
    from .report import Report
    from .settings.argv import Request

# The run imports what it needs, so that memory running out while they are imported (their
# dataclasses are made then) is one error line, as any failure is: the options and the report
# always, the evaluation once the command line asks for one, the workers' code
# (multiprocessing) only for -j N > 1, and click only by those who use the click command
# (``main``): the command itself (``entry``) hands its arguments to ``run`` as they are,
# which is all the click command does.

__all__ = ["entry", "main", "run"]

main: Any  # the click command, made by __getattr__ when first asked for


class _Terminated(BaseException):
    """SIGTERM arrived: stop as Ctrl-C stops the run (not an ``Exception``: nothing catches it)."""


def _diagnostics(report: Report, seconds: float) -> None:
    """``-v``: what was evaluated, on stderr (the Perl's debug lines are in the report)."""
    from ._kernel import kernel_available

    o = report.options
    kernel = "C kernel" if kernel_available() else "pure Python"
    data = o.data_dir or "bundled data"
    source = o.source.name if o.source is not None else "evals given"
    _say(f"rouge155py {__version__}: {source}, {data}, {kernel}")
    for result in report.results:
        _say(f"  {result.peer_id} {result.label}: {len(result.instances)} instances")
    ran = report.processes
    asked = f" (-j asked for {o.jobs}; -v runs in one)" if o.jobs != ran else ""
    _say(f"  {seconds:.3f} s, {ran} process{'es' if ran != 1 else ''}{asked}")


def _output(text: str) -> None:
    """Write the report (or usage text) to stdout, every byte of it.

    The process's own stdout is written by :func:`~rouge155py.report.writing.write_all`:
    a device that takes part of it and then fails is an :class:`OutputError`,
    never a report cut short that exits 0. A stream put in its place (a test
    runner's) is written as a stream.
    """
    stream = sys.stdout
    if stream is None:  # started with its stdout closed
        raise OutputError("cannot write the report: standard output is closed")
    data = text.encode("utf-8", "surrogateescape")
    try:
        stream.flush()
        original = sys.__stdout__  # None where the process started without one
        if original is not None and stream is original:
            write_all(original.fileno(), data)
        else:
            stream.buffer.write(data)
            stream.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        _drop_stdout()
        raise OutputError(f"cannot write the report to standard output: {exc.strerror}") from None


def _drop_stdout() -> None:
    """Point stdout at /dev/null: what is left in its buffer must not fail again at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)


_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")


def _say(line: str) -> None:
    """One line on stderr, if stderr still takes it.

    A file name's control characters and its bytes that are not UTF-8 are shown
    as ``\\xNN``; what stderr's encoding cannot hold is escaped too, so that
    the line always comes out. The process's own stderr gets the bytes written
    to the last one.
    """
    stream = sys.stderr
    if stream is None:  # started with its stderr closed
        return
    line = escape_surrogates(_CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", line)) + "\n"
    with contextlib.suppress(OSError, ValueError):
        stream.flush()  # what it holds comes first; a flush that fails must not keep the line out
    with contextlib.suppress(OSError, ValueError, LookupError):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        data = line.encode(encoding, "backslashreplace")
        original = sys.__stderr__
        if original is not None and stream is original:
            write_all(original.fileno(), data)
        else:
            stream.write(data.decode(encoding))
            stream.flush()


class _StopSignals:
    """Ctrl-C (SIGINT) and SIGTERM while a run lasts: the first one to arrive raises
    (KeyboardInterrupt, :class:`_Terminated`) and decides how the run ends; any later one is
    ignored, so that the workers are stopped and the one line is written whatever else arrives.

    Python runs the handlers of signals that arrived together (while this process was in C code)
    in the order of their numbers: where the system has ``memfd_create``, the interpreter's wakeup
    file records the order of arrival, which is the order kept. A signal the parent process
    ignores stays ignored; off the main thread (where no handler can be set) nothing is changed.
    """

    def __init__(self) -> None:
        self.stopping = False  # a signal has arrived, or the run has ended: any other is ignored
        self.signalled: Optional[int] = None  # the signal that stopped the run, once one has
        self._previous: dict[int, Any] = {}
        self._arrivals = -1  # the wakeup file: each signal's number, in the order of arrival

    def start(self) -> None:
        """Set the handlers (from now on a signal raises: the caller is ready to catch it)."""
        if hasattr(os, "memfd_create"):
            self._record_arrivals()
        for number in (signal.SIGINT, signal.SIGTERM):
            handler = signal.getsignal(number)
            if handler is signal.SIG_IGN or handler is None:  # None: not set from Python
                continue
            self._previous[number] = handler  # first: a signal may come as soon as the handler is set
            try:
                signal.signal(number, self._stop)
            except ValueError:  # not the main thread of the main interpreter
                del self._previous[number]
                return

    def _record_arrivals(self) -> None:
        try:
            fd = os.memfd_create("rouge155py-signals", os.MFD_CLOEXEC)
        except OSError:  # no descriptor left: signals that arrive together go by their numbers
            return
        os.set_blocking(fd, False)  # what set_wakeup_fd asks for (a file never blocks anyway)
        try:
            previous = signal.set_wakeup_fd(fd)
        except ValueError:  # not the main thread: no handler either
            previous = None
        if previous != -1:  # the caller has one of its own: it is kept
            if previous is not None:
                signal.set_wakeup_fd(previous)
            os.close(fd)
            return
        self._arrivals = fd

    def _stop(self, signum: int, frame: object) -> None:
        if self.stopping:
            return
        self.stopping = True
        signum = self.first_arrived() or signum
        self.signalled = signum
        raise KeyboardInterrupt if signum == signal.SIGINT else _Terminated

    def first_arrived(self) -> Optional[int]:
        """The first stop signal that has arrived, where the wakeup file records arrivals (the
        system writes it as each signal comes, before any handler runs: a handler may itself be
        interrupted by another, a worker's end say, before it has raised), else the one
        that raised."""
        if self._arrivals != -1:  # the file has SIGCHLD's too
            arrived = [n for n in os.pread(self._arrivals, 4096, 0) if n in (signal.SIGINT, signal.SIGTERM)]
            if arrived:
                return arrived[0]
        return self.signalled

    def restore(self) -> None:
        """The handlers as they were (for a caller that lives on after the run)."""
        if self._arrivals != -1:
            signal.set_wakeup_fd(-1)
            os.close(self._arrivals)
            self._arrivals = -1
        for number, handler in self._previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def _memory_errors_unraised() -> Iterator[None]:
    """While the run lasts, a MemoryError that nothing can catch (raised in a finalizer, or in
    lxml's error log while the parser runs out) is not printed: the run's own error line says it."""
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, MemoryError):
            previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


_GC_THRESHOLD = 100_000  # allocations between young-generation collections (Python's default: 700)


def _parsed(argv: Sequence[str]) -> Request:
    """The command line's request; without a configuration, its unknown options and the short
    usage are shown before the error line (the Perl prints them and its usage)."""
    from .settings.argv import MissingConfiguration, parse_command_line

    try:
        return parse_command_line(argv)
    except MissingConfiguration as error:
        from .settings.usage import synopsis

        for warning in error.warnings:
            _say(warning)
        for line in synopsis("rouge155py").splitlines():
            _say(line)
        raise


def _run(argv: Sequence[str]) -> int:
    from .report import FORMATS, write

    request = _parsed(argv)
    analysis = None
    if request.analysis or request.output_format in ("markdown", "latex"):
        from .stats.command import analysis_of

        analysis = analysis_of(request)
    elif request.output_format not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {request.output_format!r}")
    for warning in request.warnings:
        _say(warning)
    if request.show_version:
        _output(f"rouge155py {__version__}\n")
        return 0
    if request.usage is not None:
        from .settings.usage import usage

        _output(usage("rouge155py", request.usage == "full"))
        return 0
    if request.listing is not None:
        _output(request.listing)
        return 0
    if request.make_home is not None:
        from .text.home import make_home

        _output(f"{make_home(request.make_home)}\n")
        return 0
    options = request.options
    assert options is not None
    archive = None
    if request.check is not None:  # unreadable, or not a report: said before the run
        from .report.check import read_archive

        archive = read_archive(request.check)
    # A run makes millions of small objects and few reference cycles: the collector runs
    # less often (this process only; the Python API leaves it as the caller set it).
    gc.set_threshold(_GC_THRESHOLD, 50, 100)
    from .run.evaluate import evaluate

    started = time.perf_counter()
    progress = terminal_progress(sys.stderr, request.quiet)
    try:
        try:
            report = evaluate(options, None, progress)
        finally:
            if progress is not None:
                progress.close()  # before anything else reaches stderr
    except RougeError as error:
        if error.partial is not None and analysis is None:
            _print_partial(error.partial, request.output_format)
        raise
    if options.verbose:
        _diagnostics(report, time.perf_counter() - started)
    for warning in report.warnings:
        _say(warning)
    for note in report.notes:
        _say(note)
    if request.show_signature:
        _say(options.signature(__version__))
    if archive is not None:
        _check(request, report, *archive)
    elif analysis is None:
        _output(write(request.output_format, report))
    else:
        analysis.run(report, _say, _output)
    return 0


def _check(request: Request, report: Report, archived_text: str, archived: Any) -> None:
    """``--check``: the report as usual (``--format json``: the verdict instead), the verdict on
    stderr; a difference is :class:`~rouge155py.errors.ReportDiffers` (exit 8)."""
    from .report import format_legacy, write
    from .report.check import check_report

    assert request.check is not None
    legacy = format_legacy(report)
    now = legacy.encode("utf-8", "surrogateescape").decode("latin-1")  # the bytes written
    verdict = check_report(request.check, archived_text, archived, now, request.tolerance)
    if request.output_format == "json":
        _output(json.dumps(verdict.to_json(), indent=2) + "\n")
    else:  # the legacy report is made once
        _output(legacy if request.output_format == "legacy" else write(request.output_format, report))
    if verdict.agrees:
        _say(f"rouge155py: check: {verdict.summary()}")
        return
    for line in verdict.lines():
        _say(line)
    raise ReportDiffers(verdict.summary())


def _print_partial(report: Report, output_format: str) -> None:
    """What the Perl prints before it dies part-way (the report's blocks before the one it dies
    in, and the warnings met until then), written out before the error line; the Perl's own
    format only: a JSON or CSV document cut short would read as a whole one."""
    from .report import format_legacy

    if output_format not in ("legacy", "text"):
        return
    for warning in report.warnings:
        _say(warning)
    _output(format_legacy(report))


# What the dynamic loader says when a shared object finds no room in the address space.
_UNMAPPED = ("failed to map segment", "Cannot allocate memory", "cannot allocate memory")


def _interrupted() -> int:
    _drop_stdout()  # a part of the report is not flushed at exit, nor waited for
    _say("rouge155py: interrupted")
    # A KeyboardInterrupt that left code run by exec() of a string (dataclasses make their
    # methods so, while a module is imported) leaves CPython's "unhandled KeyboardInterrupt"
    # flag set, and the interpreter would then kill itself with SIGINT at exit instead of
    # exiting 130. Each exec() of a string clears that flag as it starts.
    exec("")
    return 130


def _terminated() -> int:
    _drop_stdout()
    _say("rouge155py: terminated")
    return 143


def run(argv: Sequence[str]) -> int:
    """Run one command line; returns the exit code.

    Every failure is one ``rouge155py: error:`` line and the exit code of its
    class; Ctrl-C and SIGTERM are one line and 130 or 143 (worker processes
    are stopped first; the first signal decides, later ones are ignored); a
    closed output pipe ends the run quietly with 141.
    """
    stop = _StopSignals()
    try:
        return _stoppable(argv, stop)
    finally:
        stop.restore()


def _stoppable(argv: Sequence[str], stop: _StopSignals) -> int:
    """:func:`_checked`, and the one line of a signal that arrives whenever it arrives (a signal
    met while an error is reported is the run's ending too); ``stop`` ignores any signal after."""
    try:
        stop.start()
        with _memory_errors_unraised():
            code = _checked(argv, stop)
        stop.stopping = True  # inside the try: a signal that came before this is still the run's
        return code
    except KeyboardInterrupt:
        return _interrupted()
    except _Terminated:
        return _terminated()
    except WorkerStopped as stopped:  # a worker's end noticed where nothing else could take it
        signum = stop.first_arrived()
        if isinstance(stopped.__context__, KeyboardInterrupt) or signum == signal.SIGINT:
            return _interrupted()
        if isinstance(stopped.__context__, _Terminated) or signum == signal.SIGTERM:
            return _terminated()
        error = RougeError(str(stopped))
        _say(f"rouge155py: error: {error}")
        return error.exit_code


def _checked(argv: Sequence[str], stop: Optional[_StopSignals] = None) -> int:
    """:func:`_run`, each failure turned into its line and exit code; where a stop signal has
    already been raised, an error met while it unwinds (a worker's pipe closed by the same
    signal, say) ends the run as the signal does: the first signal decides."""
    try:
        return _run(argv)
    except RougeError as error:
        signum = None if stop is None else stop.first_arrived()
        if signum is not None:
            return _interrupted() if signum == signal.SIGINT else _terminated()
        _say(f"rouge155py: error: {error}")
        return error.exit_code
    except MemoryError:
        _say("rouge155py: error: out of memory")
        return 1
    except ImportError as error:
        # A compiled module that cannot be mapped into memory (ulimit -v): its loader's words.
        if not any(words in str(error) for words in _UNMAPPED):
            raise
        _say(f"rouge155py: error: out of memory: {error}")
        return 1
    except OverflowError as error:
        # A power beyond the largest double, where the Perl goes on with Inf and NaN.
        _say(f"rouge155py: error: a score is not a number ({error}); the Perl prints NaN here")
        return 6
    except RuntimeError as error:
        # Python 3.11 wraps what a class's creation raises (dataclass fields, while a
        # module is imported) in a RuntimeError: the signal is its cause.
        if isinstance(error.__cause__, KeyboardInterrupt):
            return _interrupted()
        if isinstance(error.__cause__, _Terminated):
            return _terminated()
        raise
    except BrokenPipeError:
        # The reader went away (| head): no traceback, and none at exit either.
        _drop_stdout()
        return 141
    except OSError as error:
        # No descriptor left (ulimit -n) for a module the run imports as it needs it.
        if error.errno not in (errno.EMFILE, errno.ENFILE):
            raise
        _say(f"rouge155py: error: {error.strerror} (ulimit -n): cannot open {error.filename}")
        return 1


def entry() -> NoReturn:
    """The ``rouge155py`` command (and ``python -m rouge155py``): :func:`run` of its arguments.

    The report and every message are written and flushed by then; the process
    ends without the interpreter's teardown, which would free every object of
    the run one by one (about 14 ms of a small run) for no one.
    """
    # The collector's setting of a run (see _run) from the start: importing the run's modules
    # makes many objects and no garbage (about 1 ms of young-generation collections).
    gc.set_threshold(_GC_THRESHOLD, 50, 100)
    code = _stoppable(sys.argv[1:], _StopSignals())  # the handlers stay: a signal now changes nothing
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    os._exit(code)


def _click_command() -> Any:
    """The click command ``main``: the same command, for click's test runner and click groups."""
    import click

    class Verbatim(click.Command):
        """Hands the arguments over untouched: click would drop a ``--`` the Perl keeps as a system ID."""

        def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
            ctx.params["argv"] = tuple(args)
            return []

    @click.command(cls=Verbatim, add_help_option=False)
    @click.argument("argv", nargs=-1, type=click.UNPROCESSED)
    def main(argv: Optional[Sequence[str]] = None) -> None:
        """Score summaries with ROUGE-1.5.5's rules; same command line, same output."""
        sys.exit(run(list(argv or ())))

    return main


def __getattr__(name: str) -> Any:
    """``main``, the click command, made when first asked for (PEP 562)."""
    if name == "main":
        command = globals()["main"] = _click_command()
        return command
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
