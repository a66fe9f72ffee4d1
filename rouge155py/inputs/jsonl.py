"""The JSONL door (``--jsonl``): one JSON object a line, one eval each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Optional

from ..errors import ConfigError, UsageError, described
from .config import Eval, EvalConfig
from .files import json_value
from .sources import CommandLine, empty_note, file_lines, is_empty, nothing_read
from .texts import item_eval, text_format

if TYPE_CHECKING:
    from .sources import DoorSettings

__all__ = ["FIELDS", "JsonlFile", "field_keys", "jsonl_fields", "read_jsonl"]

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
    keys = {role: (fields or {}).get(role, role) for role in FIELDS}
    evals: list[Eval] = []
    peer_ids: set[str] = set()
    seen: set[str] = set()
    objects = 0
    empty: list[int] = []
    for number, line in enumerate(file_lines(path), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            item = json_value(line)
        except ValueError as error:  # not JSON, nested too deep, or not UTF-8
            raise ConfigError(f"{where}: not a JSON object ({error})") from None
        if not isinstance(item, dict):
            raise ConfigError(f"{where}: a line holds a JSON object, got {type(item).__name__}")
        ev = _jsonl_eval(item, objects, where, separator, input_format, keys)
        objects += 1
        if any(map(is_empty, (*ev.peers.values(), *ev.models))):  # type: ignore[arg-type]
            empty.append(number)
            if skip_empty:
                continue
        if ev.eval_id in seen:
            raise ConfigError(f"{where}: eval ID {ev.eval_id!r} is given twice")
        seen.add(ev.eval_id)
        peer_ids.update(ev.peers)
        evals.append(ev)
    if not evals:
        raise nothing_read(path, "objects", objects)
    what = f"of {objects} objects with an empty prediction or reference, on lines"
    return EvalConfig(evals, peer_ids, [empty_note(path, what, empty, skip_empty)] if empty else [])


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
