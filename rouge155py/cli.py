"""The ``rouge155py`` command: ROUGE-1.5.5.pl's command line, clear errors."""

from __future__ import annotations

import os
import sys
import time
from typing import Optional, Sequence

import click

from ._kernel import kernel_available
from ._version import __version__
from .errors import RougeError, UsageError
from .evaluation import evaluate
from .options import parse_command_line
from .parallel import evaluate_parallel
from .report import FORMATS, Report, write
from .usage import usage

__all__ = ["main"]


def _diagnostics(report: Report, seconds: float) -> None:
    """``-v``: what was evaluated, on stderr (the Perl's debug dump is not reproduced)."""
    o = report.options
    kernel = "C kernel" if kernel_available() else "pure Python"
    data = o.data_dir or "bundled data"
    source = o.config_path or f"{o.hypothesis_path} against {', '.join(o.reference_paths)}"
    click.echo(f"rouge155py {__version__}: {source}, {data}, {kernel}", err=True)
    for result in report.results:
        click.echo(f"  {result.peer_id} {result.label}: {len(result.instances)} instances", err=True)
    click.echo(f"  {seconds:.3f} s, {o.jobs} process(es)", err=True)


def run(argv: Sequence[str]) -> int:
    """Run one command line; returns the exit code."""
    try:
        request = parse_command_line(argv)
        if request.output_format not in FORMATS:
            raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {request.output_format!r}")
        for warning in request.warnings:
            click.echo(warning, err=True)
        if request.show_version:
            click.echo(f"rouge155py {__version__}")
            return 0
        if request.usage is not None:
            click.echo(usage("rouge155py", request.usage == "full"), nl=False)
            return 0
        if request.make_home is not None:
            from .home import make_home

            click.echo(make_home(request.make_home))
            return 0
        options = request.options
        assert options is not None
        started = time.perf_counter()
        report = evaluate_parallel(options) if options.jobs > 1 else evaluate(options)
        if options.verbose:
            _diagnostics(report, time.perf_counter() - started)
        for warning in report.warnings:
            click.echo(warning, err=True)
        signature = options.signature(__version__)
        if request.show_signature:
            click.echo(signature, err=True)
        out = sys.stdout.buffer
        out.write(write(request.output_format, report).encode("utf-8", "surrogateescape"))
        out.flush()
        return 0
    except RougeError as error:
        click.echo(f"rouge155py: error: {error}", err=True)
        return error.exit_code
    except KeyboardInterrupt:
        click.echo("rouge155py: interrupted", err=True)
        return 130
    except BrokenPipeError:
        # The reader went away (| head): no traceback, and none at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


@click.command(
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
def main(argv: Optional[Sequence[str]] = None) -> None:
    """Score summaries with ROUGE-1.5.5's rules; same command line, same output."""
    sys.exit(run(list(argv or ())))
