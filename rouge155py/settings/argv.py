"""The command line: ROUGE-1.5.5.pl's options read as its ``Getopt::Std`` does, and this port's.

``parse_command_line`` reads an argument vector exactly as ROUGE-1.5.5.pl
does (bundled flags such as ``-am``, values glued or separate, ``-2 -1``),
reads numbers as Perl does, and returns a :class:`Request` holding
:class:`~rouge155py.Options`. The rows of the table (:data:`~.options.ROWS`) say which flag
sets which option and how it is read; the Perl's quirks are the code below.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from ..errors import UsageError, described
from ..inputs.doors import command_line_door
from ..inputs.sources import CommandLine
from .options import ROWS, Options
from .presets import listing, preset
from .table import Setting

__all__ = ["PERL_OPTION_SPEC", "MissingConfiguration", "Request", "parse_command_line", "preset_values"]

#: The Perl's own ``getopts`` string, plus ``j:`` for ``-j N`` (processes).
PERL_OPTION_SPEC = "ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:j:"
#: The order in which the Perl reads its numbers (so the first bad one is named first).
_PERL_NUMBERS = "lbcwrpt2n"

_NUM_PREFIX = re.compile(r"\s*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)", re.ASCII)
_SPECIAL = re.compile(r"\s*([+-]?(?:infinity|inf|nan))", re.ASCII | re.IGNORECASE)


class MissingConfiguration(UsageError):
    """No configuration file: the command shows its short usage, after the unknown options found."""

    def __init__(self, message: str, warnings: list[str]) -> None:
        super().__init__(message)
        self.warnings = warnings


@dataclass(frozen=True)
class Request:
    """What the command line asks for: usage text, or an evaluation."""

    usage: Optional[str] = None  # "short" or "full" when help was asked for
    options: Optional[Options] = None
    output_format: str = "legacy"
    make_home: Optional[str] = None  # --make-home DIR
    show_signature: bool = False
    show_version: bool = False
    quiet: bool = False  # --quiet: no progress line on a terminal
    check: Optional[str] = None  # --check ARCHIVED: the report the run must reproduce
    tolerance: Optional[float] = None  # --tolerance X: --check compares numbers within X
    listing: Optional[str] = None  # text printed as it is (--preset list)
    warnings: list[str] = field(default_factory=list)
    #: The analyses' long options and their values (rouge155py.stats.command reads them).
    analysis: dict[str, str] = field(default_factory=dict)


def _getopts(argv: list[str], spec: str) -> tuple[dict[str, Optional[str]], list[str], list[str]]:
    """Perl ``Getopt::Std::getopts``: options stop at the first non-option or ``--``."""
    found: dict[str, Optional[str]] = {}
    warnings: list[str] = []
    args = list(argv)
    while args and len(args[0]) >= 2 and args[0].startswith("-"):
        first, rest = args[0][1], args[0][2:]
        if first == "-" and rest == "":
            args.pop(0)
            break
        position = spec.find(first)  # as Perl's index(): even ":" is found
        if position >= 0:
            if spec[position + 1 : position + 2] == ":":
                args.pop(0)
                found[first] = (args.pop(0) if args else None) if rest == "" else rest
            else:
                found[first] = "1"
                if rest == "":
                    args.pop(0)
                else:
                    args[0] = "-" + rest
        else:
            warnings.append(f"Unknown option: {first}")
            if rest:
                args[0] = "-" + rest
            else:
                args.pop(0)
    return found, args, warnings


def _number(name: str, value: str, warnings: list[str]) -> float:
    """The value as Perl reads a string as a number: its numeric prefix, else 0.

    Like Perl, a value that is not wholly a number gives a warning, not an error,
    so every command line the Perl accepts prints the same report here.
    """
    match = _NUM_PREFIX.match(value)
    text = match.group(1) if match else ""
    special = _SPECIAL.match(value)
    if special:
        number = float(special.group(1).lower().replace("infinity", "inf"))
        text = special.group(0).strip()
    else:
        number = float(text) if text else 0.0
    if not math.isfinite(number):
        raise UsageError(f"option -{name} needs a finite number, got {value!r}")
    if not text or value.strip() != text:
        warnings.append(f'Argument "{value}" isn\'t numeric (option -{name}): read as {number:g}')
    return number


#: The long options of a request (not settings): output, help, version, a ROUGE home.
_REQUEST_FLAGS = ("--json", "--signature", "--help", "--version", "--quiet")
_REQUEST_VALUED = ("--format", "--make-home", "--check", "--tolerance")
#: The analyses of a run (significance, correlation, plots): rouge155py.stats.command checks them.
_ANALYSIS = (
    "--compare",
    "--baseline",
    "--seed",
    "--samples",
    "--measure",
    "--judgments",
    "--scores",
    "--power",
    "--plot",
    "--metrics",
    "--wordnet",
    "--parses",
)
_ANALYSIS_FLAGS = ("--qarla",)
_SWITCHES = {row.long for row in ROWS if row.long and row.route == "switch"}
_FLAGS = {*_REQUEST_FLAGS, *_ANALYSIS_FLAGS, *_SWITCHES}
_REPEATED = {row.long for row in ROWS if row.long and row.route == "repeated"}
_VALUED = {*_REQUEST_VALUED, *_ANALYSIS, *(row.long for row in ROWS if row.long)} - _FLAGS - _REPEATED
_ALIASES = {"--sep": "--sentence-separator"}


def _close_option(name: str) -> str:
    """`` (did you mean --hyp?)`` for a mistyped long option, or nothing."""
    import difflib  # only for an option that is wrong

    known = sorted({*_FLAGS, *_VALUED, *_REPEATED, *_ALIASES})
    close = difflib.get_close_matches(name, known, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _long_options(argv: Sequence[str]) -> tuple[list[str], dict[str, Optional[str]], dict[str, list[str]]]:
    """Take out the long options of this port (``--json``, ``--jobs N`` ...); the values of each
    option that may be repeated (``--hyp``, ``--ref``) apart, in order."""
    rest: list[str] = []
    found: dict[str, Optional[str]] = {}
    repeated: dict[str, list[str]] = {name: [] for name in _REPEATED}
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--":
            rest.append(arg)
            rest.extend(args)
            break
        name, eq, value = arg.partition("=")
        name = _ALIASES.get(name, name)
        if name in _FLAGS and not eq:
            found[name] = "1"
        elif name in _VALUED or name in _REPEATED:
            if not eq:
                if not args:
                    raise UsageError(f"option {name} needs a value")
                value = args.pop(0)
            if name in _REPEATED:
                repeated[name].append(value)
            else:
                found[name] = value
        elif arg.startswith("--") and len(arg) > 2:
            raise UsageError(f"unknown option {arg}{_close_option(name)}")
        else:
            rest.append(arg)
    return rest, found, repeated


def _arguments(argv: object) -> list[str]:
    """A command line given from Python: a list of strings (or paths), never one string."""
    if isinstance(argv, (str, bytes)):
        raise UsageError(
            f"the command line must be a list of arguments, not one string ({described(argv)}): "
            "split it first (shlex.split)"
        )
    if not isinstance(argv, (list, tuple)):
        raise UsageError(f"the command line must be a list of arguments, got {described(argv)}")
    arguments = [os.fspath(arg) if isinstance(arg, os.PathLike) else arg for arg in argv]
    for index, arg in enumerate(arguments):
        if not isinstance(arg, str):
            raise UsageError(f"argument {index} of the command line is {described(arg)}; expected a str")
    return [str(arg) for arg in arguments]


def _perl_order(row: Setting) -> int:
    """Where the Perl reads the row's number (one it does not know: last)."""
    place = _PERL_NUMBERS.find(row.perl or "?")
    return place if place >= 0 else len(_PERL_NUMBERS)


def _read_plain(
    opts: dict[str, Optional[str]], long_opts: dict[str, Optional[str]], warnings: list[str]
) -> dict[str, Any]:
    """The options of the rows read plainly, those given: switches, texts, and Perl numbers in
    the order the Perl reads them."""
    values: dict[str, Any] = {}
    numbers = [row for row in ROWS if row.route == "number" and row.perl]
    for row in sorted(numbers, key=_perl_order):
        value = opts.get(row.perl or "")
        if value is not None:
            values[row.name] = _number(row.perl or "", value, warnings)
    for row in ROWS:
        if row.route == "switch":
            if (row.perl is not None and opts.get(row.perl) is not None) or (
                row.long and row.long in long_opts
            ):
                values[row.name] = True
        elif row.route == "text":
            given = opts.get(row.perl) if row.perl is not None else long_opts.get(row.long or "")
            if given is not None:
                values[row.name] = given
    return values


def _quirks(
    values: dict[str, Any], opts: dict[str, Optional[str]], long_opts: dict[str, Optional[str]]
) -> None:
    """The options the Perl (or this port) reads in a way of its own, into ``values``."""
    # -t other than 1 or 2 is 0, -n is floored, -x and -3 turn off ROUGE-L,
    # -f B alone is the best model.
    t = values.get("counting")
    values["counting"] = int(t) if t is not None and t in (1, 2) else 0
    ngram_value = values.get("max_ngram", 0)
    values["max_ngram"] = math.floor(ngram_value) if ngram_value >= 1 else 0
    values["lcs"] = opts.get("x") is None and opts.get("3") is None
    values["best_model"] = opts.get("f") == "B"
    jobs_text = long_opts.get("--jobs") or opts.get("j") or "1"
    if not re.fullmatch(r"[0-9]+", jobs_text.strip()):
        raise UsageError(f"the number of jobs (-j, --jobs) must be a whole number, got {jobs_text!r}")
    values["jobs"] = int(jobs_text)
    threshold_text = long_opts.get("--paraphrase-threshold")
    if threshold_text is not None:
        try:
            values["paraphrase_threshold"] = float(threshold_text)
        except ValueError:
            raise UsageError(f"--paraphrase-threshold needs a number, got {threshold_text!r}") from None
    values["paraeval_variants"] = long_opts.get("--paraeval-variants") or "3"
    models_text = long_opts.get("--models")
    if models_text is not None:
        if not re.fullmatch(r"[0-9]+", models_text.strip()) or int(models_text) < 1:
            raise UsageError(f"--models needs a whole number of 1 or more, got {models_text!r}")
        values["models"] = int(models_text)


def _with_preset(name: str, argv: list[str]) -> list[str]:
    """The preset's options in front of the user's Perl options; a flag both give is an error."""
    fragment = list(preset(name).options)
    both = sorted(set(_getopts(fragment, PERL_OPTION_SPEC)[0]) & set(_getopts(argv, PERL_OPTION_SPEC)[0]))
    if both:
        flags = " ".join(f"-{flag}" for flag in both)
        raise UsageError(f"--preset {name} sets {flags} already: leave them out, or give no preset")
    return [*fragment, *argv]


def preset_values(name: str) -> dict[str, Any]:
    """The settings a preset gives, by field of :class:`Options` (those of the flags it sets)."""
    fragment = list(preset(name).options)
    flags = set(_getopts(fragment, PERL_OPTION_SPEC)[0])
    options = parse_command_line([*fragment, "-a", "-"], environ={}).options
    assert options is not None
    return {row.name: getattr(options, row.name) for row in ROWS if row.perl in flags}


def parse_command_line(argv: Sequence[str], environ: Optional[Mapping[str, str]] = None) -> Request:
    """Parse and validate a ROUGE-1.5.5.pl command line."""
    if environ is not None and not isinstance(environ, Mapping):
        raise UsageError(f"environ must be a mapping (like os.environ) or None, got {described(environ)}")
    env = os.environ if environ is None else environ
    argv, long_opts, repeated = _long_options(_arguments(argv))
    output_format = "json" if "--json" in long_opts else long_opts.get("--format") or "legacy"
    if "--version" in long_opts:
        return Request(show_version=True)
    if "--help" in long_opts:
        return Request(usage="full")
    if "--make-home" in long_opts:
        return Request(make_home=long_opts["--make-home"])
    chosen = long_opts.get("--preset")
    if chosen == "list":
        return Request(listing=listing())
    if chosen is not None:
        argv = _with_preset(chosen, argv)
    opts, args, warnings = _getopts(list(argv), PERL_OPTION_SPEC)
    if "H" in opts:
        return Request(usage="full", warnings=warnings)
    if "h" in opts:
        return Request(usage="short", warnings=warnings)
    aligned = command_line_door(CommandLine(long_opts, repeated, args, opts.get("z")))  # a file door
    if aligned:
        args = [""]  # no configuration file; every peer is evaluated
    if not args:
        raise MissingConfiguration(
            "Please specify the ROUGE configuration file or use option '-h' for help", warnings
        )

    def given(name: str) -> bool:
        return opts.get(name) is not None

    file_list = opts.get("z")
    all_systems = (given("a") and file_list is None) or aligned
    if len(args) == 1 and file_list is None and not all_systems:
        raise UsageError("Please specify a system ID to evaluate or use option '-a' to evaluate all systems.")
    system_id = args[1] if len(args) >= 2 else None
    # With -z the list's peers get the system ID known before the list is read:
    # the second argument when there are exactly two, "X" for one, none for more.
    list_peer = {1: "X", 2: args[1] if len(args) == 2 else ""}.get(len(args), "")
    if file_list is not None and system_id is None:
        system_id = "X"

    data_dir = opts.get("e")
    if data_dir is None:
        data_dir = env.get("ROUGE_EVAL_HOME", env.get("RED_EVAL_HOME"))

    if given("l") and given("b"):
        raise UsageError("Please specify length limit in words or bytes but not both.")
    # Numbers are read as Perl reads them ("07", "2.5", "1e1"): where the Perl
    # uses a fractional value, so does the computation.
    values = _read_plain(opts, long_opts, warnings)
    _quirks(values, opts, long_opts)
    values.update({row.name: tuple(repeated[row.long or ""]) for row in ROWS if row.route == "repeated"})

    options = Options(
        config_path=args[0] if not aligned else None,
        system_id=system_id,
        all_systems=all_systems,
        file_list_peer_id=list_peer,
        data_dir=data_dir,
        **values,
    )
    return Request(
        options=options,
        output_format=output_format,
        check=long_opts.get("--check"),
        tolerance=_tolerance(long_opts),
        show_signature="--signature" in long_opts,
        quiet="--quiet" in long_opts,
        warnings=warnings,
        analysis={
            name: value
            for name, value in long_opts.items()
            if name in (*_ANALYSIS, *_ANALYSIS_FLAGS) and value is not None
        },
    )


def _tolerance(long_opts: Mapping[str, Optional[str]]) -> Optional[float]:
    """``--tolerance X``: a finite number of 0 or more, given with ``--check``."""
    text = long_opts.get("--tolerance")
    if text is None:
        return None
    if "--check" not in long_opts:
        raise UsageError("--tolerance applies to --check ARCHIVED")
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise UsageError(f"--tolerance needs a number of 0 or more, got {text!r}")
    return value
