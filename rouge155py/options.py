"""Command-line options: the Perl's ``Getopt::Std`` rules and its checks.

``parse_command_line`` reads an argument vector exactly as ROUGE-1.5.5.pl
does (bundled flags such as ``-am``, values glued or separate, ``-2 -1``),
reads numbers as Perl does, and returns :class:`Options`, which check their
values where the Perl dies. Long options are this port's additions.
"""

from __future__ import annotations

import math
import numbers
import os
import re
import sys
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any, Callable, Mapping, Optional, Protocol, Sequence, TypeVar

from .bootstrap import ResampleSettings
from .errors import LimitError, UsageError, described
from .inputs.aligned import hypothesis_systems
from .inputs.sources import CommandLine, Source, command_line_door, source_of
from .metrics.plan import MetricSettings
from .planning import PeerSelection
from .scoring import ScoringSettings
from .text.stage import TextSettings

__all__ = [
    "DOOR_FIELDS",
    "MAX_NGRAM",
    "MAX_RESAMPLES",
    "MULTI_REF",
    "PERL_OPTION_SPEC",
    "HoldsOptions",
    "Options",
    "Request",
    "as_options",
    "parse_command_line",
]

#: The largest -n: every n is a metric computed for every instance and printed.
MAX_NGRAM = 100
#: The most resamples (-r): their means take 24 bytes each while they are drawn and sorted.
MAX_RESAMPLES = 10_000_000

#: The rules for an item with several references (``multi_ref``): ``-f A``, ``-f B``, and the
#: reference of highest F (rouge-score's rule; in the Perl's dialect, its F of each reference alone).
MULTI_REF = ("average", "best", "best-f")

#: The Perl's own ``getopts`` string, plus ``j:`` for ``-j N`` (processes).
PERL_OPTION_SPEC = "ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:j:"

_NUM_PREFIX = re.compile(r"\s*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)", re.ASCII)
_SPECIAL = re.compile(r"\s*([+-]?(?:infinity|inf|nan))", re.ASCII | re.IGNORECASE)


def _is_numpy_bool(value: object) -> bool:
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")


def _flag(name: str, value: Any) -> bool:
    if isinstance(value, bool) or _is_numpy_bool(value):
        return bool(value)
    raise UsageError(f"{name} must be True or False, got {described(value)}")


def _whole(name: str, value: Any) -> int:
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    raise UsageError(f"{name} must be a whole number (an int), got {described(value)}")


def _real(name: str, value: Any) -> float:
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and not _is_numpy_bool(value):
        try:
            float(value)
        except OverflowError:
            raise UsageError(f"{name} must be a finite number, got {described(value)}") from None
        if type(value) is int or type(value) is float:
            return value
        return float(value)
    raise UsageError(f"{name} must be a number, got {described(value)}")


def _text(name: str, value: Any) -> str:
    if isinstance(value, str):
        return str(value)
    raise UsageError(f"{name} must be a string, got {described(value)}")


def _path(name: str, value: Any) -> str:
    path = os.fspath(value) if isinstance(value, os.PathLike) else value
    if isinstance(path, str):
        return str(path)
    raise UsageError(f"{name} must be a path (a str or os.PathLike), got {described(value)}")


def _paths(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise UsageError(f"{name} must be a tuple of paths, got {described(value)}")
    return tuple(_path(f"{name}[{i}]", path) for i, path in enumerate(value))


# Each option's check, which returns the value kept (a numpy scalar becomes a Python one);
# an option whose default is None may be None.
_CHECKS: dict[str, Callable[[str, Any], Any]] = {
    **dict.fromkeys(("config_path", "data_dir", "stopwords_file", "hypothesis_path", "jsonl_path"), _path),
    **dict.fromkeys(
        ("system_id", "file_list_format", "file_list_peer_id", "be_mode", "lang", "dialect", "multi_ref"),
        _text,
    ),
    "paraphrases": _path,
    **dict.fromkeys(("paraphrase_feature", "paraeval_variants"), _text),
    "paraphrase_threshold": _real,
    **dict.fromkeys(("wlcs_label", "skip_label", "confidence_label", "sentence_separator"), _text),
    **dict.fromkeys(("max_ngram", "counting", "jobs"), _whole),
    **dict.fromkeys(("length_limit", "byte_limit", "alpha", "resamples", "confidence"), _real),
    **dict.fromkeys(("wlcs_weight", "skip_distance"), _real),
    **dict.fromkeys(("all_systems", "lcs", "skip_unigrams", "skip_both", "stem", "stem_models_only"), _flag),
    **dict.fromkeys(("stopwords", "best_model", "per_eval", "verbose", "skip_empty"), _flag),
    **dict.fromkeys(("reference_paths", "hypothesis_paths"), _paths),
}


T = TypeVar("T")
_DOOR = {"door": True}
#: The value objects :class:`Options` builds (each made once, when first asked for).
_SETTINGS = ("source", "selection", "text", "metrics", "scoring", "resampling")


@dataclass(frozen=True)
class Options:
    """Everything that changes what is computed or printed, with the Perl's defaults.

    Checked when built, where the Perl dies: ``confidence`` within 0..100,
    ``alpha`` within 0..1, ``wlcs_weight`` above 0, not both length limits,
    ``counting`` 0, 1 or 2; ``lang`` (an ISO 639 code, stored as its two-letter
    form) and what goes with it (see ``_check_text_stage``); and the size limits
    of README's "Errors and limits" (:data:`MAX_NGRAM`, :data:`MAX_RESAMPLES`), a
    :class:`LimitError`. Labels (``wlcs_label``, ``skip_label``,
    ``confidence_label``) are the values as the command line gave them; left
    None, they are the numbers as Perl prints them.
    """

    # Where the evals come from and which peers are reported: each door sets these (DOOR_FIELDS).
    config_path: Optional[str] = field(default=None, metadata=_DOOR)
    system_id: Optional[str] = field(default=None, metadata=_DOOR)
    all_systems: bool = field(default=False, metadata=_DOOR)
    file_list_format: Optional[str] = field(default=None, metadata=_DOOR)
    file_list_peer_id: str = field(default="X", metadata=_DOOR)
    data_dir: Optional[str] = None
    max_ngram: int = 0  # -n: ROUGE-1 .. ROUGE-max_ngram
    lcs: bool = True
    wlcs_weight: Optional[float] = None
    wlcs_label: Optional[str] = None
    skip_distance: Optional[float] = None
    skip_label: Optional[str] = None
    skip_unigrams: bool = False
    skip_both: bool = False
    be_mode: Optional[str] = None
    stem: bool = False
    stem_models_only: bool = False
    stopwords: bool = False
    stopwords_file: Optional[str] = None  # --stopwords FILE: the list -s removes, not the SMART list
    lang: Optional[str] = None  # --lang: the Unicode text stage and Snowball stemmer; "en" is the legacy one
    dialect: Optional[str] = None  # --dialect: None, the Perl's; "rouge-score", its text stage and scores
    length_limit: float = 0
    byte_limit: float = 0
    best_model: bool = False
    multi_ref: Optional[str] = None  # None: not chosen (-f A, the Perl's default); see MULTI_REF
    alpha: float = 0.5
    counting: int = 0
    resamples: float = 1000  # -r as given: the Perl uses the value itself in the CI formula
    confidence: float = 95.0
    confidence_label: Optional[str] = None
    per_eval: bool = False
    verbose: bool = False
    jobs: int = 1
    hypothesis_path: Optional[str] = field(default=None, metadata=_DOOR)  # line-aligned files
    reference_paths: tuple[str, ...] = field(default=(), metadata=_DOOR)
    sentence_separator: Optional[str] = field(default=None, metadata=_DOOR)
    jsonl_path: Optional[str] = field(default=None, metadata=_DOOR)  # one JSON object per item
    paraphrases: Optional[str] = None  # --paraphrases FILE: ParaEval rows with this table
    paraphrase_feature: Optional[str] = None  # the PPDB feature compared with the threshold
    paraphrase_threshold: Optional[float] = None  # the least score of a pair kept
    paraeval_variants: str = "3"  # the ParaEval rows: 3, 2, P, T (comma-separated)
    # Each --hyp: NAME=FILE or FILE (several: several systems; see inputs.aligned.hypothesis_systems).
    hypothesis_paths: tuple[str, ...] = field(default=(), metadata=_DOOR)
    skip_empty: bool = field(default=False, metadata=_DOOR)  # --skip-empty: items with an empty summary

    def __post_init__(self) -> None:
        for option in fields(self):
            value = getattr(self, option.name)
            if value is not None or option.default is not None:
                object.__setattr__(self, option.name, _CHECKS[option.name](option.name, value))
        for name in ("length_limit", "byte_limit", "alpha", "resamples", "confidence"):
            if not math.isfinite(getattr(self, name)):
                raise UsageError(f"{name} must be a finite number, got {getattr(self, name)!r}")
        if self.confidence < 0 or self.confidence > 100:
            raise UsageError("Confidence interval should be within 0 and 100 (option -c).")
        if self.alpha < 0 or self.alpha > 1:
            raise UsageError(
                "Relative importance of ROUGE recall and precision (option -p) "
                "has to be between 0 and 1 inclusively."
            )
        if self.wlcs_weight is not None and not (self.wlcs_weight > 0 and math.isfinite(self.wlcs_weight)):
            raise UsageError("ROUGE-W weight factor must be greater than 0 (option -w).")
        if self.skip_distance is not None and not math.isfinite(self.skip_distance):
            raise UsageError(f"the skip distance (-2) must be a finite number, got {self.skip_distance!r}")
        if self.length_limit and self.byte_limit:
            raise UsageError("Please specify length limit in words or bytes but not both.")
        if self.counting not in (0, 1, 2):
            raise UsageError(f"counting (-t) must be 0, 1 or 2, got {described(self.counting)}")
        if self.max_ngram < 0:
            raise UsageError(f"max_ngram (-n) must be a whole number, got {described(self.max_ngram)}")
        if self.max_ngram > MAX_NGRAM:
            given = described(self.max_ngram)
            raise LimitError(f"-n {given}: more than {MAX_NGRAM} n-gram sizes are refused")
        if self.counting != 2 and self.resample_count > MAX_RESAMPLES:
            raise LimitError(f"{self.resample_count} resamples (-r): more than {MAX_RESAMPLES} are refused")
        if self.jobs < 1:
            raise UsageError("the number of jobs must be at least 1")
        if self.sentence_separator == "":
            raise UsageError("the sentence separator must not be empty")
        if self.hypothesis_paths:
            if self.hypothesis_path is not None:
                raise UsageError("hypothesis_path and hypothesis_paths name the hypotheses twice: give one")
            hypothesis_systems(self.hypothesis_paths)  # two files naming one system are an error now
        self._check_text_stage()
        self._check_multi_ref()
        self._check_dialect()
        self._check_paraeval()
        labels = (
            ("wlcs_label", self.wlcs_weight),
            ("skip_label", self.skip_distance),
            ("confidence_label", self.confidence),
        )
        for name, value in labels:
            if getattr(self, name) is None and value is not None:
                object.__setattr__(self, name, f"{value:.15g}")
        for name in _SETTINGS:  # a value object made while the checks ran saw values not yet final
            self.__dict__.pop(name, None)

    def _check_text_stage(self) -> None:
        """``lang`` in its two-letter form, and the options that go with it.

        Outside English: ``-s`` has a user's list (``--stopwords``), ``-m``/``-M``
        a Snowball stemmer and nltk installed (nothing else needs it), and BE
        (``-3``, English parses) is not asked for. ``--stopwords`` needs ``-s``.
        """
        if self.stopwords_file is not None and not self.stopwords:
            raise UsageError("--stopwords FILE is the list that -s removes: add -s")
        if self.stopwords_file == "":
            raise UsageError("--stopwords needs a file name")
        if self.lang is None:
            return
        from .text.unicode import NLTK_INSTALL, SNOWBALL_LANGUAGES, canonical_language, nltk_available

        object.__setattr__(self, "lang", canonical_language(self.lang))
        if not self.unicode_text:
            return
        lang = self.lang
        if self.be_mode is not None:
            raise UsageError(f"Basic Elements (-3) are English parses: not with --lang {lang}")
        if self.stopwords and self.stopwords_file is None:
            raise UsageError(
                f"-s with --lang {lang} needs a stopword list: --stopwords FILE (the SMART list is English)"
            )
        if (self.stem or self.stem_models_only) and lang not in SNOWBALL_LANGUAGES:
            known = " ".join(sorted(SNOWBALL_LANGUAGES))
            raise UsageError(f"-m/-M: no Snowball stemmer for --lang {lang} (there are: {known})")
        if (self.stem or self.stem_models_only) and not nltk_available():
            raise UsageError(f"-m/-M with --lang {lang} needs nltk: {NLTK_INSTALL}")

    def _check_multi_ref(self) -> None:
        """``multi_ref``: one of :data:`MULTI_REF`, in agreement with ``best_model`` (``"best"``
        sets it); ``"best-f"`` picks a reference by its F, which ``-t 1``/``-t 2`` counts and ``-v``'s
        Perl lines do not have; rouge-score's dialect always takes the reference of highest F."""
        rule = self.multi_ref
        if rule is None:
            return
        if rule not in MULTI_REF:
            known = ", ".join(map(repr, MULTI_REF))
            raise UsageError(f"multi_ref must be one of {known} (or None), got {described(rule)}")
        if self.dialect is not None:
            if rule != "best-f":
                raise UsageError(
                    f"multi_ref={rule!r}: the rouge-score dialect takes the reference of highest F "
                    "(multi_ref='best-f', its default)"
                )
            return
        if rule == "best":
            object.__setattr__(self, "best_model", True)
        elif self.best_model:
            raise UsageError(f"multi_ref={rule!r} and best_model=True (-f B) name two rules: give one")
        if rule == "best-f" and (self.counting or self.verbose):
            given = "-t 1/-t 2 (counting), whose rows are counts" if self.counting else "-v (verbose)"
            raise UsageError(
                f"multi_ref='best-f' picks each item's reference by its F: not with {given}; "
                "use multi_ref='average' (-f A) or 'best' (-f B)"
            )

    def _check_dialect(self) -> None:
        """rouge-score's dialect has ROUGE-N and ROUGE-L, its tokens and stemmer, its F: no other option."""
        if self.dialect is None:
            return
        from .text.rouge_score import DIALECT

        if self.dialect != DIALECT:
            raise UsageError(
                f"--dialect must be {DIALECT} (none: ROUGE-1.5.5's), got {described(self.dialect)}"
            )
        others = {
            "-w": self.wlcs_weight is not None,
            "-2": self.skip_distance is not None,
            "-3": self.be_mode is not None,
            "-M": self.stem_models_only,
            "-s": self.stopwords,
            "--lang": self.lang is not None,
            "-l": bool(self.length_limit),
            "-b": bool(self.byte_limit),
            "-f B": self.best_model,
            "-p": self.alpha != 0.5,
            "-t": bool(self.counting),
            "-v": self.verbose,
        }
        given = [name for name, on in others.items() if on]
        if given:
            raise UsageError(
                f"--dialect {DIALECT} computes rouge-score's ROUGE-N and ROUGE-L (-n, -x, -m): "
                f"not with {', '.join(given)}"
            )

    def _check_paraeval(self) -> None:
        """ParaEval's options: a table, known variants, and what its rows cannot go with."""
        if self.paraphrases is None:
            if self.paraphrase_feature is not None or self.paraphrase_threshold is not None:
                raise UsageError("--paraphrase-feature and --paraphrase-threshold need --paraphrases FILE")
            return
        from .metrics.paraeval import variant_labels

        variant_labels(self.paraeval_variants)
        if self.paraphrases == "":
            raise UsageError("--paraphrases needs a file name")
        if self.paraphrase_threshold is not None and not math.isfinite(self.paraphrase_threshold):
            raise UsageError(
                f"the paraphrase threshold must be a finite number, got {self.paraphrase_threshold!r}"
            )
        if self.counting:
            raise UsageError(
                "--paraphrases needs -t 0: ParaEval matches model and peer words in different numbers, "
                "which the three counts of -t 1 and -t 2 cannot hold"
            )
        if self.be_mode is not None:
            raise UsageError("--paraphrases compares words: not with Basic Elements (-3)")
        if self.dialect is not None:
            raise UsageError("--paraphrases adds rows to ROUGE-1.5.5's report: not with --dialect")
        if self.verbose:
            raise UsageError(
                "-v prints the Perl's debug lines, and ParaEval has none: not with --paraphrases"
            )

    @property
    def unicode_text(self) -> bool:
        """Whether the text stage is ``--lang``'s Unicode one (any language but English)."""
        return self.text.unicode_text

    # The value objects each stage is given; Options is the façade that checks and builds them.

    @cached_property
    def source(self) -> Optional[Source]:
        """Where the evals come from: line-aligned files, a JSONL file, a ``-z`` list or an XML
        configuration (the first door of :data:`~rouge155py.inputs.sources.SOURCES` they choose);
        None where the caller gives the evals."""
        return source_of(self)

    def _settings(self, kind: type[T]) -> T:
        """A value object of ``kind``, whose fields are fields of the same names here."""
        return kind(**{f.name: getattr(self, f.name) for f in fields(kind)})  # type: ignore[arg-type]

    @cached_property
    def selection(self) -> PeerSelection:
        """Which peers are reported (``-a``, or the system ID)."""
        return self._settings(PeerSelection)

    @cached_property
    def text(self) -> TextSettings:
        """The text stage: tokens, stopwords, stemming, length limits."""
        return self._settings(TextSettings)

    @cached_property
    def metrics(self) -> MetricSettings:
        """The metrics computed."""
        return self._settings(MetricSettings)

    @cached_property
    def scoring(self) -> ScoringSettings:
        """How model counts become an instance's row (``-f`` or ``multi_ref``, ``-p``, ``-t``)."""
        best_f = self.multi_ref == "best-f" and self.dialect is None
        return ScoringSettings(self.best_model, self.alpha, self.counting, self.dialect, best_f)

    @cached_property
    def resampling(self) -> ResampleSettings:
        """The bootstrap (``-r``, ``-c``)."""
        return self._settings(ResampleSettings)

    @property
    def rows_settings(self) -> tuple[PeerSelection, TextSettings, MetricSettings, ScoringSettings]:
        """What the instance rows depend on: rows scored apart (batches) must agree on all of it."""
        return self.selection, self.text, self.metrics, self.scoring

    @property
    def resample_count(self) -> int:
        """How many resamples the Perl draws: ``for (i = 0; i < r; i++)``."""
        return self.resampling.resample_count

    @property
    def system_peer_id(self) -> str:
        """The peer the system ID names, as the Perl holds it (:func:`~rouge155py.files.perl_string`)."""
        return self.selection.peer_id

    def shown_peer_id(self, peer_id: str) -> str:
        """A peer ID as a person reads it: the system ID as given, any other (the XML's) as it is."""
        return self.selection.shown(peer_id)

    def signature(self, version: str) -> str:
        """A short string naming every setting that changes the numbers: the parts of the
        metrics, text stage, scoring and bootstrap settings, in a fixed order.

        A user's stopword list (``--stopwords``) adds ``sw:`` and the start of
        its SHA-256; the Unicode text stage adds its language, tokenizer, stemmer
        and nltk version. Without either, it is the legacy settings alone.
        """
        parts: dict[str, str] = {}
        for settings in (self.metrics, self.text, self.scoring, self.resampling):
            parts.update(settings.signature_parts())
        ordered = [key for key in _SIGNATURE_ORDER if key in parts]
        return "|".join([*(f"{key}:{parts[key]}" for key in ordered), f"version:{version}"])


#: The order of the signature's parts (each settings object names its own).
_SIGNATURE_ORDER: tuple[str, ...]
_SIGNATURE_ORDER = ("n", "L", "w", "2", "u", "U", "3", "m", "M", "s", "l", "b", "f", "p", "t", "c", "r")
_SIGNATURE_ORDER += ("sw", "lang", "tok", "stem", "nltk", "dialect", "paraeval", "pp", "pp-feature", "pp-min")
#: The fields of :class:`Options` that say where the evals come from and which peers are reported.
DOOR_FIELDS = tuple(f.name for f in fields(Options) if f.metadata.get("door"))


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


_FLAGS = {"--json", "--signature", "--help", "--version", "--quiet", "--skip-empty"}
_VALUED = {
    "--jobs",
    "--format",
    "--jsonl",
    "--sentence-separator",
    "--make-home",
    "--lang",
    "--stopwords",
    "--dialect",
    "--paraphrases",
    "--paraphrase-feature",
    "--paraphrase-threshold",
    "--paraeval-variants",
}
#: The analyses of a run (significance, correlation, plots): rouge155py.stats.command checks them.
_ANALYSIS = ("--compare", "--baseline", "--seed", "--samples", "--measure", "--judgments", "--plot")
_VALUED.update(_ANALYSIS)
_REPEATED = {"--ref", "--hyp"}
_ALIASES = {"--sep": "--sentence-separator"}


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
            raise UsageError(f"unknown option {arg}")
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


class HoldsOptions(Protocol):
    """What holds its options as ``.options``: a :class:`~rouge155py.Rouge`."""

    options: Options


def as_options(value: object) -> Options:
    """The options a batch or cluster function is given: an :class:`Options`, or a
    :class:`~rouge155py.Rouge`'s (its module is loaded where one exists)."""
    if isinstance(value, Options):
        return value
    api = sys.modules.get(f"{__package__}.api")
    if api is not None and isinstance(value, api.Rouge):
        return value.options
    raise UsageError(f"options must be an Options or a Rouge, got {described(value)}")


def parse_command_line(argv: Sequence[str], environ: Optional[Mapping[str, str]] = None) -> Request:
    """Parse and validate a ROUGE-1.5.5.pl command line."""
    if environ is not None and not isinstance(environ, Mapping):
        raise UsageError(f"environ must be a mapping (like os.environ) or None, got {described(environ)}")
    env = os.environ if environ is None else environ
    argv, long_opts, repeated = _long_options(_arguments(argv))
    hypotheses, refs = repeated["--hyp"], repeated["--ref"]
    output_format = "json" if "--json" in long_opts else long_opts.get("--format") or "legacy"
    if "--version" in long_opts:
        return Request(show_version=True)
    if "--help" in long_opts:
        return Request(usage="full")
    if "--make-home" in long_opts:
        return Request(make_home=long_opts["--make-home"])
    opts, args, warnings = _getopts(list(argv), PERL_OPTION_SPEC)
    if "H" in opts:
        return Request(usage="full", warnings=warnings)
    if "h" in opts:
        return Request(usage="short", warnings=warnings)
    jsonl = long_opts.get("--jsonl")
    aligned = command_line_door(CommandLine(long_opts, repeated, args, opts.get("z")))  # a file door
    if aligned:
        args = [""]  # no configuration file; every peer is evaluated
    if not args:
        raise MissingConfiguration(
            "Please specify the ROUGE configuration file or use option '-h' for help", warnings
        )

    def given(name: str) -> bool:
        return opts.get(name) is not None

    def number_or(name: str, default: T) -> float | T:
        """The option's value read as a number (:func:`_number`), ``default`` where not given."""
        value = opts.get(name)
        return default if value is None else _number(name, value, warnings)

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
    length_limit = number_or("l", 0)
    byte_limit = number_or("b", 0)

    confidence_text = opts.get("c")
    confidence_label = "95" if confidence_text is None else confidence_text
    confidence = _number("c", confidence_label, warnings)

    weight = number_or("w", None)

    resamples = number_or("r", 1000)

    alpha = number_or("p", 0.5)

    t = number_or("t", None)
    counting = int(t) if t is not None and t in (1, 2) else 0

    skip_distance = number_or("2", None)
    ngram_value = number_or("n", 0)
    max_ngram = math.floor(ngram_value) if ngram_value >= 1 else 0
    jobs_text = long_opts.get("--jobs") or opts.get("j") or "1"
    if not re.fullmatch(r"[0-9]+", jobs_text.strip()):
        raise UsageError(f"the number of jobs (-j, --jobs) must be a whole number, got {jobs_text!r}")
    jobs = int(jobs_text)
    threshold_text = long_opts.get("--paraphrase-threshold")
    threshold = None
    if threshold_text is not None:
        try:
            threshold = float(threshold_text)
        except ValueError:
            raise UsageError(f"--paraphrase-threshold needs a number, got {threshold_text!r}") from None

    options = Options(
        config_path=args[0] if not aligned else None,
        system_id=system_id,
        all_systems=all_systems,
        file_list_format=file_list,
        file_list_peer_id=list_peer,
        data_dir=data_dir,
        max_ngram=max_ngram,
        lcs=not given("x") and not given("3"),
        wlcs_weight=weight,
        wlcs_label=opts.get("w"),
        skip_distance=skip_distance,
        skip_label=opts.get("2"),
        skip_unigrams=given("u"),
        skip_both=given("U"),
        be_mode=opts.get("3"),
        stem=given("m"),
        stem_models_only=given("M"),
        stopwords=given("s"),
        stopwords_file=long_opts.get("--stopwords"),
        lang=long_opts.get("--lang"),
        dialect=long_opts.get("--dialect"),
        length_limit=length_limit,
        byte_limit=byte_limit,
        best_model=opts.get("f") == "B",
        alpha=alpha,
        counting=counting,
        resamples=resamples,
        confidence=confidence,
        confidence_label=confidence_label,
        per_eval=given("d"),
        verbose=given("v"),
        jobs=jobs,
        reference_paths=tuple(refs),
        sentence_separator=long_opts.get("--sentence-separator"),
        jsonl_path=jsonl,
        paraphrases=long_opts.get("--paraphrases"),
        paraphrase_feature=long_opts.get("--paraphrase-feature"),
        paraphrase_threshold=threshold,
        paraeval_variants=long_opts.get("--paraeval-variants") or "3",
        hypothesis_paths=tuple(hypotheses),
        skip_empty="--skip-empty" in long_opts,
    )
    return Request(
        options=options,
        output_format=output_format,
        show_signature="--signature" in long_opts,
        quiet="--quiet" in long_opts,
        warnings=warnings,
        analysis={
            name: value for name, value in long_opts.items() if name in _ANALYSIS and value is not None
        },
    )
