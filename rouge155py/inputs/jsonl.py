"""The JSONL door (``--jsonl``): one JSON object a line, one eval each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, ClassVar, Iterable, Optional, Union

from ..errors import ConfigError, UsageError, described
from .config import Eval, EvalConfig
from .files import MAX_FILE_BYTES, json_value
from .sources import (
    Chunk,
    CommandLine,
    StreamedEvals,
    blank,
    empty_note,
    file_lines,
    is_empty,
    nothing_read,
    streamed_lines,
)
from .texts import DEFAULT_PEER_ID, config_from_texts, item_eval, text_format

if TYPE_CHECKING:
    from .sources import DoorSettings

__all__ = ["FIELDS", "JsonlFile", "JsonlStream", "field_keys", "jsonl_fields", "read_jsonl"]

#: The roles of an object's fields; each is read from the key of its name unless
#: ``--jsonl-fields ROLE=KEY,...`` names another.
FIELDS = ("prediction", "predictions", "reference", "references", "id")


@dataclass(frozen=True)
class JsonlFile:
    """A JSONL file (``-``: standard input): one JSON object a line, one eval each.

    An object holds ``"prediction"`` (one system's summary, system ``1``) or
    ``"predictions"`` (system ID -> summary), and ``"references"`` (a list of
    summaries) or ``"reference"`` (one); a summary is a string (its lines are
    its sentences) or a list of sentence strings, as :func:`rouge155py.score`
    takes them. ``"id"`` (a string or an integer) is the eval's ID, else its
    number (1, 2 ...); other keys are ignored. ``separator`` (``--sep``) splits
    a string into sentences, as for line-aligned files. Summaries are SPL
    texts, or SIMPLE BE lines (``input_format``, under ``-3``).
    """

    path: str
    separator: Optional[str] = None
    input_format: str = "SPL"
    skip_empty: bool = False
    fields: tuple[tuple[str, str], ...] = ()  # (role, key) pairs that differ from the roles' names

    flags: ClassVar[tuple[str, ...]] = ("--jsonl",)
    setting_flags: ClassVar[tuple[str, ...]] = ("--sentence-separator", "--skip-empty", "--jsonl-fields")
    described: ClassVar[str] = "--jsonl"

    @classmethod
    def check(cls, line: CommandLine) -> None:
        """No rule of its own."""

    @property
    def name(self) -> str:
        return self.path

    def read(self) -> EvalConfig:
        return read_jsonl(self.path, self.separator, self.input_format, self.skip_empty, dict(self.fields))

    def read_in_chunks(self, size: int) -> Optional[JsonlStream]:
        """The file read ``size`` objects at a time as the run scores them (:class:`JsonlStream`):
        a regular file, of any size; None for standard input or a pipe, read whole (:meth:`read`)."""
        found = streamed_lines(self.path)
        if found is None:
            return None
        handle, lines = found
        return JsonlStream(self, lines, size, handle)

    @classmethod
    def applies(cls, options: DoorSettings) -> bool:
        return options.jsonl_path is not None

    @classmethod
    def from_options(cls, options: DoorSettings) -> JsonlFile:
        input_format = text_format(options.be_mode)
        fields = tuple(field_keys(options.jsonl_fields).items()) if options.jsonl_fields else ()
        return cls(
            str(options.jsonl_path), options.sentence_separator, input_format, options.skip_empty, fields
        )


def field_keys(value: str, name: str = "--jsonl-fields") -> dict[str, str]:
    """The keys named by ``ROLE=KEY[,ROLE=KEY ...]`` (e.g. ``prediction=summary,references=highlights``),
    by role; a role it does not name keeps its own name. A part that is not ``ROLE=KEY``, a role
    that is not one of :data:`FIELDS` or is given twice, and two roles read from one key are
    usage errors."""
    keys: dict[str, str] = {}
    for part in value.split(","):
        role, equals, key = part.partition("=")
        if not equals or not role or not key:
            raise UsageError(f"{name}: {part!r} is not ROLE=KEY (e.g. prediction=summary)")
        if role not in FIELDS:
            raise UsageError(f"{name}: {role!r} is not a role: the roles are {', '.join(FIELDS)}")
        if role in keys:
            raise UsageError(f"{name}: the role {role} is given twice")
        keys[role] = key
    read = {role: keys.get(role, role) for role in FIELDS}
    if len(set(read.values())) < len(read):
        raise UsageError(f"{name}: two roles would be read from one key ({value})")
    return keys


def jsonl_fields(name: str, value: Any) -> str:
    """The check of the ``jsonl_fields`` setting: a string that :func:`field_keys` reads."""
    if not isinstance(value, str):
        raise UsageError(f"{name} must be a string ROLE=KEY[,ROLE=KEY ...], got {described(value)}")
    field_keys(value, name)
    return value


def read_jsonl(
    path: str,
    separator: Optional[str] = None,
    input_format: str = "SPL",
    skip_empty: bool = False,
    fields: Optional[dict[str, str]] = None,
) -> EvalConfig:
    """The evals of a JSONL file (see :class:`JsonlFile`), in its order; blank lines are skipped.

    Objects with an empty prediction or reference are named in the notes; ``skip_empty``
    leaves them out (an eval's default ID stays its object's number). ``fields`` maps a role
    to the key it is read from (:func:`field_keys`).
    """
    source = JsonlFile(path, separator, input_format, skip_empty, tuple((fields or {}).items()))
    return JsonlStream(source, file_lines(path), _WHOLE_CHUNK).read_whole()


#: Objects a chunk of a file read whole (:func:`read_jsonl`) holds on its way to the evals.
_WHOLE_CHUNK = 2048


class JsonlStream(StreamedEvals):
    """The evals of a JSONL file, read a chunk of objects at a time as the run scores them (each
    chunk dropped before the next is read): every check and note of the door (:func:`read_jsonl`
    reads a file whole through it). A chunk whose objects each hold one prediction and ASCII
    reference strings (and no ID) is held by columns (:class:`~.config.TextConfig`), which the
    C kernel scores as it scores the API's lists. An eval's place in the file is its object's
    number less one."""

    def __init__(
        self, source: JsonlFile, lines: Iterable[bytes], size: int, handle: Optional[BinaryIO] = None
    ) -> None:
        super().__init__(size, handle)
        self.source = source
        self._keys = {role: dict(source.fields).get(role, role) for role in FIELDS}
        self._lines = enumerate(lines, start=1)
        self.peer_ids: set[str] = set()
        self.objects = 0  # read so far
        self.kept = 0  # evals made so far
        self._empty: list[int] = []
        self._given: set[str] = set()  # IDs an object's "id" gave
        self._numbered = bytearray()  # 1 at k: object k's ID is its number k + 1
        self._ended = False

    def estimated_total(self) -> int:
        """About how many objects the file holds, from the bytes read so far."""
        return self._estimated(self.objects)

    def whole(self) -> EvalConfig:
        """The file read (and checked) to its end: every peer and the notes, with no eval (those
        were handed out in chunks)."""
        while self._read() is not None:
            pass
        what = f"of {self.objects} objects with an empty prediction or reference, on lines"
        notes = (
            [empty_note(self.source.path, what, self._empty, self.source.skip_empty)] if self._empty else []
        )
        return EvalConfig([], set(self.peer_ids), notes)

    def _read(self) -> Optional[Chunk]:
        """The next chunk of objects (None at the file's end)."""
        if self._ended:
            return None
        plain: list[tuple[int, str, Union[str, list[str]]]] = []
        evals: list[tuple[int, Eval]] = []
        source, keys = self.source, self._keys
        for number, line in self._lines:
            if not line.strip():
                continue
            where = f"{source.path}:{number}"
            try:
                item = json_value(line)
            except ValueError as error:
                raise ConfigError(f"{where}: not a JSON object ({error})") from None
            if not isinstance(item, dict):
                raise ConfigError(f"{where}: a line holds a JSON object, got {type(item).__name__}")
            index = self.objects
            self.objects += 1
            pair = _plain_pair(item, keys, source.separator) if source.input_format == "SPL" else None
            ev: Optional[Eval] = None
            if pair is None:
                ev = _jsonl_eval(item, index, where, source.separator, source.input_format, keys)
                empty = any(map(is_empty, (*ev.peers.values(), *ev.models)))  # type: ignore[arg-type]
                given = keys["id"] in item
            else:
                prediction, references = pair
                texts = [references] if isinstance(references, str) else references
                empty = blank(prediction) or any(map(blank, texts))
                given = False
            self._numbered.append(0)
            if empty:
                self._empty.append(number)
                if source.skip_empty:
                    continue
            eval_id = str(index + 1) if ev is None else ev.eval_id
            self._check_new(eval_id, given, where)
            if given:
                self._given.add(eval_id)
            else:
                self._numbered[index] = 1
            if ev is not None:
                self.peer_ids.update(ev.peers)
                evals.append((index, ev))
            elif pair is not None:
                self.peer_ids.add(DEFAULT_PEER_ID)
                plain.append((index, *pair))
            self.kept += 1
            if len(plain) + len(evals) == self.size:
                break
        else:
            self._ended = True
            if not self.kept:
                raise nothing_read(source.path, "objects", self.objects)
        if not plain and not evals:
            return None
        if not evals:
            places = [index for index, _, _ in plain]
            columns = config_from_texts(
                [p for _, p, _ in plain], [r for _, _, r in plain], source.input_format, places
            )
            return columns, places
        for index, prediction, references in plain:
            evals.append((index, item_eval(index, prediction, references, source.input_format)))
        evals.sort(key=lambda entry: entry[0])
        return EvalConfig([ev for _, ev in evals], {p for _, ev in evals for p in ev.peers}), [
            i for i, _ in evals
        ]

    def _check_new(self, eval_id: str, given: bool, where: str) -> None:
        """An eval ID seen before is an error, at the line of its second object."""
        if eval_id in self._given:
            raise ConfigError(f"{where}: eval ID {eval_id!r} is given twice")
        if given and eval_id.isdigit() and eval_id == str(int(eval_id)):
            number = int(eval_id)
            if 1 <= number <= len(self._numbered) and self._numbered[number - 1]:
                raise ConfigError(f"{where}: eval ID {eval_id!r} is given twice")


def _plain_pair(
    item: dict[str, Any], keys: dict[str, str], separator: Optional[str]
) -> Optional[tuple[str, Union[str, list[str]]]]:
    """An object's one prediction and its references, where it holds nothing else that counts: an
    ASCII prediction string, one reference string or a list of them, no ID, no other role (None
    for any other object, which :func:`_jsonl_eval` reads)."""
    if (
        keys["id"] in item
        or keys["predictions"] in item
        or (keys["references"] in item and keys["reference"] in item)
    ):
        return None
    prediction = item.get(keys["prediction"])
    if type(prediction) is not str or not _plain_text(prediction):
        return None
    references: Union[str, list[str]]
    given = item.get(keys["reference"], item.get(keys["references"]))
    if keys["reference"] in item:
        if type(given) is not str or not _plain_text(given):
            return None
    elif type(given) is not list or not given or not all(type(r) is str and _plain_text(r) for r in given):
        return None
    references = given
    if separator:
        prediction = prediction.replace(separator, "\n")
        references = (
            references.replace(separator, "\n")
            if isinstance(references, str)
            else [r.replace(separator, "\n") for r in references]
        )
    return prediction, references


def _plain_text(text: str) -> bool:
    return text.isascii() and len(text) <= MAX_FILE_BYTES


def _jsonl_eval(
    item: dict[str, Any],
    index: int,
    where: str,
    separator: Optional[str],
    input_format: str,
    keys: dict[str, str],
) -> Eval:
    """Eval ``index`` (0-based) of a JSONL file, from its line's object; ``keys``: each role's key."""

    def one(*roles: str) -> tuple[str, Any]:
        found = [role for role in roles if keys[role] in item]
        if len(found) != 1:
            named = " or ".join(repr(keys[role]) for role in roles)
            raise ConfigError(f"{where}: an object needs one of {named}{_renaming_hint(item, roles)}")
        return found[0], item[keys[found[0]]]

    def split(summary: Any) -> Any:
        return summary.replace(separator, "\n") if separator and isinstance(summary, str) else summary

    key, predictions = one("prediction", "predictions")
    if key == "predictions" and not isinstance(predictions, dict):
        raise ConfigError(f'{where}: "{keys[key]}" maps system IDs to summaries')
    key, references = one("reference", "references")
    if key == "references" and not isinstance(references, list):
        raise ConfigError(f'{where}: "{keys[key]}" is a list of summaries')
    eval_id = item.get(keys["id"], index + 1)
    if not isinstance(eval_id, (str, int)) or isinstance(eval_id, bool):
        raise ConfigError(f'{where}: "{keys["id"]}" is a string or an integer, got {described(eval_id)}')
    if isinstance(predictions, dict):
        predictions = {peer_id: split(summary) for peer_id, summary in predictions.items()}
    else:
        predictions = split(predictions)
    references = [split(r) for r in references] if key == "references" else [split(references)]
    try:
        ev = item_eval(index, predictions, references, input_format)
    except UsageError as error:
        raise ConfigError(f"{where}: {error}") from None
    ev.eval_id = str(eval_id)
    return ev


def _renaming_hint(item: dict[str, Any], roles: tuple[str, ...]) -> str:
    """For an object that lacks a role's key: how its own keys could be named (``--jsonl-fields``)."""
    others = [key for key in item if isinstance(key, str) and key not in FIELDS]
    if not others:
        return ""
    shown = ", ".join(repr(key) for key in others[:5])
    return f" (its keys: {shown}; --jsonl-fields {roles[0]}=KEY or {roles[1]}=KEY reads another)"
