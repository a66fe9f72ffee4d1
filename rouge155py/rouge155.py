"""pyrouge's ``Rouge155`` without Perl: the same attributes and methods, the same output text.

    from rouge155py import Rouge155
    r = Rouge155()
    r.system_dir, r.model_dir = "systems", "models"
    r.system_filename_pattern = r"sys\\.(\\d+)\\.txt"  # group 1: the document ID
    r.model_filename_pattern = r"model\\.[A-Z]\\.#ID#\\.txt"
    output = r.convert_and_evaluate()  # what pyrouge 0.1.3 returns, byte for byte
    scores = r.output_to_dict(output)  # {"rouge_1_recall": ..., "rouge_1_recall_cb": ..., ...}

The evals are those of the configuration pyrouge 0.1.3 writes, and each
summary is the document its file would be: plain text becomes, in memory, the
SEE HTML pyrouge writes, so the Perl's SEE rules apply as they did (a ``<``
ends a sentence, empty lines are skipped). No ROUGE home, settings file or
temporary file is needed: ``rouge_dir`` only names the data directory (``-e``).
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any, Literal, Optional, Union, overload

from .errors import (
    ConfigError,
    DataError,
    InputError,
    InvalidValue,
    MissingResource,
    RougeError,
    UsageError,
    described,
)
from .inputs.config import EvalConfig, config_from_documents
from .inputs.files import read_file
from .inputs.readers import SummaryFile, SummaryText
from .inputs.readers.document import Document
from .report import write
from .report.archived import ArchivedReport, read_report
from .run.evaluate import evaluate
from .settings.argv import parse_command_line

__all__ = ["Rouge155"]

_LOG = logging.getLogger(__name__)
StrPath = Union[str, "os.PathLike[str]"]

# pyrouge's default options; "-e DATA" comes first when a data directory is set.
_DEFAULT_ARGS = ("-c", "95", "-2", "-1", "-U", "-r", "1000", "-n", "4", "-w", "1.2", "-a")
# Where pyrouge puts its configuration's path on the command line; no file path holds a NUL.
_OWN_CONFIG = "\0pyrouge configuration"
_QUOTED = re.compile(r'"(.+)"')  # pyrouge strips one pair of quotes this way (re.match)
_SCORE_LINE = re.compile(r"(\d+) (ROUGE-\S+) (Average_\w): (\d.\d+) \(95%-conf.int. (\d.\d+) - (\d.\d+)\)")
_MEASURES = {"Average_R": "recall", "Average_P": "precision", "Average_F": "f_score"}


class _Directory:
    """A directory attribute, None until set; it must exist when set (any existing path, as in pyrouge)."""

    def __init__(self, what: str, error: type[RougeError]) -> None:
        self.what, self.error = what, error

    def __set_name__(self, owner: type, name: str) -> None:
        self.name, self.attr = name, "_" + name

    def __get__(self, obj: Optional[Rouge155], owner: type) -> Optional[StrPath]:
        return self if obj is None else getattr(obj, self.attr, None)  # type: ignore[return-value]

    def __set__(self, obj: Rouge155, path: StrPath) -> None:
        if path is not None and not isinstance(path, (str, os.PathLike)):  # an int would be a descriptor
            raise UsageError(f"{self.name} must be a path (a str or os.PathLike), got {described(path)}")
        if path is None or not os.path.exists(path):
            raise self.error(f"Cannot set {self.what} directory because the path {path} does not exist.")
        setattr(obj, self.attr, path)
        obj._split.discard(self.what)  # new summaries: not split or converted yet
        obj._converted.discard(self.what)


class Rouge155:
    """pyrouge 0.1.3's ``Rouge155``, computed by rouge155py.

    ``rouge_dir``: a ROUGE home whose ``data/`` becomes ``-e`` (optional: the
    bundled data otherwise). ``rouge_args``: options replacing the defaults
    ``-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a``, for every call, enclosing
    quotes removed. ``-m`` (stemming) is always added, as pyrouge does, unless
    ``stemming`` says otherwise.

    ``log_level`` and ``stemming`` are those of pltrdy's fork of pyrouge (which
    files2rouge and SummEval call): ``log_level`` sets the level of ``log``, the
    logger of this module where the Perl's warnings go (``logging.ERROR``
    silences them; None leaves it as it is); ``stemming=True`` adds ``-m``,
    ``False`` leaves it out, as the fork does; None (the default) is pyrouge
    0.1.3's, ``-m`` always. Errors are :class:`~rouge155py.errors.RougeError`
    (so ``Exception``, what pyrouge raised): the same messages where pyrouge
    had its own.
    """

    home_dir = _Directory("home", DataError)
    data_dir = _Directory("data", DataError)
    system_dir = _Directory("system", InputError)
    model_dir = _Directory("model", InputError)

    def __init__(
        self,
        rouge_dir: Optional[StrPath] = None,
        rouge_args: Optional[str] = None,
        log_level: Union[int, str, None] = None,
        stemming: Optional[bool] = None,
    ) -> None:
        self.log = _LOG  # pyrouge's logger attribute; the Perl's warnings go there
        if stemming is not None and not isinstance(stemming, bool):
            raise UsageError(f"stemming must be True, False or None, got {described(stemming)}")
        self.stemming: bool = True if stemming is None else stemming
        if log_level is not None:
            if isinstance(log_level, bool) or not isinstance(log_level, (int, str)):
                raise UsageError(f"log_level must be a logging level or None, got {described(log_level)}")
            try:
                self.log.setLevel(log_level)
            except ValueError:  # an unknown level name
                raise InvalidValue(f"log_level {described(log_level)} is not a logging level") from None
        self._split: set[str] = set()  # "system", "model": summaries split into sentences
        self._converted: set[str] = set()  # plain text read as the HTML pyrouge writes for it
        self._config_file: Optional[str] = None
        self.system_filename_pattern: Optional[str] = None
        self.model_filename_pattern: Optional[str] = None
        if rouge_dir is not None and not isinstance(rouge_dir, (str, os.PathLike)):
            raise UsageError(f"rouge_dir must be a path (a str or os.PathLike), got {described(rouge_dir)}")
        if rouge_dir:
            self.home_dir = rouge_dir
            self.data_dir = os.path.join(rouge_dir, "data")
        _check_args(rouge_args)
        quoted = _QUOTED.match(rouge_args) if rouge_args else None
        self.args: Optional[str] = quoted.group(1) if quoted else (rouge_args or None)

    @property
    def config_file(self) -> Optional[str]:
        """The configuration :meth:`write_config` last wrote (evaluating needs none)."""
        return self._config_file

    @config_file.setter
    def config_file(self, path: str) -> None:
        directory = os.path.dirname(path) or os.curdir
        if not os.path.isdir(directory):
            raise UsageError(
                f"Cannot set configuration file directory because the path {directory} does not exist."
            )
        self._config_file = path

    def evaluate(self, system_id: object = 1, rouge_args: Optional[str] = None) -> str:
        """Score the summaries as they are (SEE HTML files); the ROUGE output text."""
        _check_args(rouge_args)
        config = self._config(_system_id(system_id))
        return _run(*self._command_line(rouge_args), config)

    def convert_and_evaluate(
        self, system_id: object = 1, split_sentences: bool = False, rouge_args: Optional[str] = None
    ) -> str:
        """Score plain-text summaries (one sentence per line), converted as pyrouge converts them.

        From then on, as in pyrouge, :meth:`evaluate` reads these directories
        converted too, until they are set again (they are not converted twice).
        """
        if split_sentences:
            self.split_sentences()
        self._converted.update(("system", "model"))
        return self.evaluate(system_id, rouge_args)

    def split_sentences(self) -> None:
        """Split the summaries into sentences with nltk's Punkt model, as pyrouge does, when read."""
        try:
            from nltk.tokenize import sent_tokenize

            sent_tokenize("Punkt is here.")
        except ImportError:
            raise UsageError("split_sentences needs nltk: pip install nltk") from None
        except LookupError:
            raise MissingResource(
                "split_sentences needs nltk's Punkt model: python -m nltk.downloader punkt_tab"
            ) from None
        self._split.update(("system", "model"))

    def write_config(self, config_file_path: Optional[str] = None, system_id: object = None) -> str:
        """Write pyrouge's configuration for the directories (in a new temporary directory by default)."""
        import tempfile  # only here: scoring writes no file

        path = config_file_path or os.path.join(tempfile.mkdtemp(), "rouge_conf.xml")
        self.config_file = path
        dirs = (self.system_dir, self.system_filename_pattern, self.model_dir, self.model_filename_pattern)
        self.write_config_static(*dirs, path, system_id or 1)
        return path

    @staticmethod
    def write_config_static(
        system_dir: Optional[StrPath],
        system_filename_pattern: Optional[str],
        model_dir: Optional[StrPath],
        model_filename_pattern: Optional[str],
        config_file_path: StrPath,
        system_id: object = None,
    ) -> None:
        """Write the ROUGE-EVAL XML pyrouge writes, byte for byte (SEE format, nothing escaped)."""
        pairs = _pairs(system_dir, system_filename_pattern, model_dir, model_filename_pattern)
        parts = ['<ROUGE-EVAL version="1.55">']
        for number, (system, models) in enumerate(pairs, start=1):
            model_lines = "\n\t\t\t".join(
                f'<M ID="{chr(65 + i)}">{name}</M>' for i, name in enumerate(models)
            )
            parts.append(
                f'\n    <EVAL ID="{number}">\n'
                f"        <MODEL-ROOT>{model_dir}</MODEL-ROOT>\n"
                f"        <PEER-ROOT>{system_dir}</PEER-ROOT>\n"
                f'        <INPUT-FORMAT TYPE="SEE">\n        </INPUT-FORMAT>\n'
                f'        <PEERS>\n            <P ID="{system_id}">{system}</P>\n        </PEERS>\n'
                f"        <MODELS>\n            {model_lines}\n        </MODELS>\n    </EVAL>\n"
            )
        parts.append("</ROUGE-EVAL>")
        with open(config_file_path, "wb") as handle:
            handle.write("".join(parts).encode("utf-8", "surrogateescape"))

    @staticmethod
    def convert_summaries_to_rouge_format(input_dir: StrPath, output_dir: StrPath) -> None:
        """Write every file of ``input_dir`` to ``output_dir`` (made if needed) as pyrouge's SEE HTML."""
        os.makedirs(output_dir, exist_ok=True)
        for name in os.listdir(input_dir):
            html = Rouge155.convert_text_to_rouge_format(_read_text(os.path.join(input_dir, name)))
            with open(os.path.join(output_dir, name), "wb") as handle:
                handle.write(html.encode("utf-8", "surrogateescape"))

    @staticmethod
    def convert_text_to_rouge_format(text: str, title: str = "dummy title") -> str:
        """pyrouge's SEE HTML: an anchor per ``\\n``-separated line, as is (no escaping, no last newline)."""
        if not isinstance(text, str) or not isinstance(title, str):
            raise UsageError(f"text and title must be strings, got {described(text)} and {described(title)}")
        anchors = "\n".join(
            f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{line}</a>'
            for i, line in enumerate(text.split("\n"), start=1)
        )
        head = f'<html>\n<head>\n<title>{title}</title>\n</head>\n<body bgcolor="white">\n'
        return f"{head}{anchors}\n</body>\n</html>"

    @staticmethod
    @overload
    def output_to_dict(output: str) -> dict[str, float]: ...

    @staticmethod
    @overload
    def output_to_dict(output: str, by_system: Literal[False]) -> dict[str, float]: ...

    @staticmethod
    @overload
    def output_to_dict(output: str, by_system: Literal[True]) -> dict[str, dict[str, float]]: ...

    @staticmethod
    def output_to_dict(output: str, by_system: bool = False) -> Any:
        """pyrouge's dictionary of a ROUGE output: ``rouge_1_recall``, ``..._cb``, ``..._ce``, ...

        Only lines with a numeric system ID and a 95% interval count; a later
        system overwrites an earlier one, as in pyrouge. ``by_system``: a dictionary of that
        kind for each system ID (any ID, any confidence), as :func:`read_report` reads the
        report, which a multi-system report needs.
        """
        if not isinstance(output, str):
            raise UsageError(f"output must be the text evaluate() returns, got {described(output)}")
        if by_system:
            return _by_system(read_report(output, "the output", lenient=True))
        scores: dict[str, float] = {}
        for line in output.split("\n"):
            match = _SCORE_LINE.match(line)
            if match:
                _, metric, measure, value, low, high = match.groups()
                key = f"{metric.lower().replace('-', '_')}_{_MEASURES[measure]}"
                scores[key], scores[f"{key}_cb"], scores[f"{key}_ce"] = float(value), float(low), float(high)
        return scores

    def _command_line(self, rouge_args: Optional[str]) -> tuple[list[str], bool]:
        """pyrouge's precedence: the constructor's arguments, this call's, else the defaults (True)."""
        given = self.args or rouge_args
        stem = ["-m"] if self.stemming else []
        if given:
            return [*given.split(), *stem, _OWN_CONFIG], False
        data = ["-e", os.fspath(self.data_dir)] if self.data_dir is not None else []
        return [*data, *_DEFAULT_ARGS, *stem, _OWN_CONFIG], True

    def _config(self, peer_id: str) -> EvalConfig:
        pairs = _pairs(
            self.system_dir, self.system_filename_pattern, self.model_dir, self.model_filename_pattern
        )
        peers = {peer_id: [self._document("system", name) for name, _ in pairs]}
        return config_from_documents(peers, [[self._document("model", name) for name in m] for _, m in pairs])

    def _document(self, kind: str, name: str) -> Document:
        """The summary ROUGE reads where pyrouge would have written its split or converted copy."""
        path = f"{self.system_dir if kind == 'system' else self.model_dir}/{name}"
        if kind not in self._split and kind not in self._converted:
            return SummaryFile(path, "SEE")
        text = _read_text(path)
        if kind in self._split:
            text = _punkt_sentences(text)
        if kind in self._converted:
            text = self.convert_text_to_rouge_format(text)
        return SummaryText.of(text, "SEE", path)


def _by_system(report: ArchivedReport) -> dict[str, dict[str, float]]:
    """pyrouge's keys for each system of a report: ``rouge_1_recall``, ``..._cb``, ``..._ce``."""
    systems: dict[str, dict[str, float]] = {}
    for row, text in report.numbers.items():
        measure, _, bound = row.field.partition(" ")
        if measure not in ("R", "P", "F"):
            continue  # counts (-t 2) and instance lines (-d) have no key in pyrouge's dictionary
        key = f"{row.metric.lower().replace('-', '_')}_{_MEASURES['Average_' + measure]}"
        key += {"": "", "low": "_cb", "high": "_ce"}[bound]
        systems.setdefault(row.system, {})[key] = float(text)
    return systems


def _run(argv: list[str], defaults: bool, config: EvalConfig) -> str:
    """Parse the command line as ROUGE-1.5.5.pl would and score ``config``; the report as ROUGE prints it."""
    # The defaults name their data directory or mean the bundled one, whatever ROUGE_EVAL_HOME says.
    request = parse_command_line(argv, environ={} if defaults else None)
    options = request.options
    if options is None:
        raise UsageError(f"the ROUGE arguments {' '.join(argv[:-2])!r} ask for no evaluation")
    for warning in request.warnings:
        _LOG.warning(warning)
    own = options.config_path == _OWN_CONFIG  # else ROUGE reads the configuration the arguments name
    if own and options.file_list_format is not None:
        raise UsageError("-z needs a file list: here the evals are those of the summary directories")
    report = evaluate(options, config if own else None)
    for warning in report.warnings:
        _LOG.warning(warning)
    return write(request.output_format, report)


def _pairs(
    system_dir: Optional[StrPath],
    system_pattern: Optional[str],
    model_dir: Optional[StrPath],
    model_pattern: Optional[str],
) -> list[tuple[str, list[str]]]:
    """pyrouge's evals: each system file whose name matches (``re.match``, sorted names) and its models."""
    if system_dir is None or model_dir is None:
        raise UsageError("set system_dir and model_dir first")
    if system_pattern is None or model_pattern is None:
        raise UsageError("set system_filename_pattern and model_filename_pattern first")
    for kind, pattern in (("system", system_pattern), ("model", model_pattern)):
        if not isinstance(pattern, str):
            raise UsageError(
                f"{kind}_filename_pattern must be a regular expression, got {described(pattern)}"
            )
    system = _compile(system_pattern, "system_filename_pattern")
    system_names, model_names = _listdir(system_dir), sorted(_listdir(model_dir))
    pairs = []
    for name in sorted(system_names):
        match = system.match(name)
        if match is None:
            continue
        if system.groups < 1:  # pyrouge fails here too, on the first file matched (IndexError)
            raise UsageError(
                f"system_filename_pattern {system_pattern!r} needs a group (the document ID): (\\d+)"
            )
        doc_id = match.group(1) or ""
        model = _compile(model_pattern.replace("#ID#", doc_id), "model_filename_pattern")
        models = [m for m in model_names if model.match(m)]
        if not models:
            raise ConfigError(
                f"Could not find any model summaries for the system summary with ID {doc_id}. "
                f"Specified model filename pattern was: {model_pattern}"
            )
        pairs.append((name, models))
    if not pairs:
        raise ConfigError(
            f"Did not find any files matching the pattern {system_pattern} "
            f"in the system summaries directory {system_dir}."
        )
    return pairs


def _check_args(rouge_args: object) -> None:
    if rouge_args is not None and not isinstance(rouge_args, str):
        raise UsageError(f"rouge_args must be a string of ROUGE options or None, got {described(rouge_args)}")


def _system_id(system_id: object) -> str:
    """The peer ID pyrouge writes for ``system_id``: its text, ``1`` for a false value."""
    if isinstance(system_id, str) or system_id is None:
        return system_id or "1"
    if isinstance(system_id, (int, float)) and abs(system_id) < 2**64:
        return str(system_id) if system_id else "1"
    raise UsageError(f"system_id must be a string or a number, got {described(system_id)}")


def _compile(pattern: str, what: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise UsageError(f"{what} {pattern!r} is not a regular expression: {exc}") from None


def _listdir(directory: StrPath) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError as exc:
        raise InputError(f"Cannot list {os.fspath(directory)}: {exc.strerror}") from None


def _read_text(path: str) -> str:
    """A file's text as pyrouge reads it (UTF-8, line ends kept); bytes pyrouge refused pass through.

    Read as every summary file is: no wait on a FIFO without a writer, no more than a summary's limit.
    """
    return read_file(path, InputError, f"Cannot open {path}", f"Cannot read {path}").decode(
        "utf-8", "surrogateescape"
    )


def _punkt_sentences(text: str) -> str:
    """pyrouge's splitting: ``\\n``, ``\\r`` and ``|`` become spaces, spaces are squeezed, Punkt splits."""
    from nltk.tokenize import sent_tokenize

    flat = re.sub(r"\s+", " ", re.sub(r"[\n\r|]", " ", text))
    return "\n".join(sent_tokenize(flat.strip(), language="english"))
