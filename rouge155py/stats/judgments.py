"""Human judgments: a table of scores per item (eval ID) and system, one or more columns.

CSV (a header line) or JSONL (one object a line), UTF-8::

    eval_id,system,coverage,responsiveness
    D061,1,0.42,3
    {"eval_id": "D061", "system": "1", "coverage": 0.42, "responsiveness": 3}

The item's column is ``eval_id`` (or ``item``, ``id``, ``input``, ``topic``), the
system's ``system`` (or ``peer_id``, ``peer``); every other column is a
judgment, a number on every row (Pyramid, LitePyramid, coverage,
responsiveness ...). A file is JSONL when its name ends in ``.jsonl`` or
``.json`` or its first non-blank byte is ``{``; else CSV. An empty cell,
NaN or infinity, a cell that is not a number, a row given twice or a missing
column is an error naming the file and line (:class:`~rouge155py.errors.ConfigError`);
a file that cannot be read is an :class:`~rouge155py.errors.InputError`.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from ..errors import ConfigError, InputError, LimitError, UsageError, described
from ..inputs.files import MAX_CONFIG_BYTES, MAX_FILE_BYTES, json_value, read_file

__all__ = [
    "DIRECTION_ROW",
    "ITEM_COLUMNS",
    "SYSTEM_COLUMNS",
    "Judgments",
    "MetricTable",
    "read_judgments",
    "read_scores",
]

#: The row (CSV: its item cell; JSONL: an object's only key) that says, per metric column,
#: whether a higher score is better (``true``/``false``, ``1``/``0``, ``yes``/``no``).
DIRECTION_ROW = "higher_is_better"

ITEM_COLUMNS = ("eval_id", "item", "id", "input", "topic")
SYSTEM_COLUMNS = ("system", "peer_id", "peer")


@dataclass
class Judgments:
    """Judgment name -> (eval ID, system ID) -> score, and where they came from."""

    name: str
    scores: dict[str, dict[tuple[str, str], float]] = field(default_factory=dict)
    #: A metric table's directions (column -> higher is better), read from its direction row;
    #: None: a table of judgments, which has none.
    _directions: Optional[dict[str, bool]] = field(default=None, repr=False)

    @property
    def columns(self) -> list[str]:
        """The judgments' names, in the file's order."""
        return list(self.scores)

    def systems(self) -> list[str]:
        """Every system judged, sorted."""
        return sorted({s for table in self.scores.values() for _, s in table})

    def items(self) -> list[str]:
        """Every eval ID judged, sorted."""
        return sorted({i for table in self.scores.values() for i, _ in table})

    @classmethod
    def from_rows(cls, rows: list[dict[str, Any]], name: str = "judgments") -> Judgments:
        """Judgments from dicts (the rows of a file, or a DataFrame's ``to_dict("records")``)."""
        found = cls(name)
        if not isinstance(rows, (list, tuple)):
            raise UsageError(f"judgment rows must be a list of dicts, got {described(rows)}")
        for line, row in enumerate(rows, 1):
            found._add(row, f"{name}: row {line}")
        found._check_filled()
        return found

    def _add(self, row: Any, where: str) -> None:
        if not isinstance(row, dict):
            raise ConfigError(f"{where}: a row is an object of columns, got {described(row)}")
        if self._directions is not None and _directions(row, where, self._directions):
            return
        item_key = column_of(row, ITEM_COLUMNS, where, "the item (eval ID)")
        system_key = column_of(row, SYSTEM_COLUMNS, where, "the system")
        key = (identifier(row[item_key], where), identifier(row[system_key], where))
        columns = [c for c in row if c not in (item_key, system_key)]
        if not columns:
            raise ConfigError(f"{where}: no judgment column besides {item_key} and {system_key}")
        if self.scores and set(columns) != set(self.scores):
            raise ConfigError(f"{where}: the columns differ from the first row's ({', '.join(self.scores)})")
        for column in columns:
            table = self.scores.setdefault(str(column), {})
            if key in table:
                raise ConfigError(f"{where}: eval {key[0]!r} and system {key[1]!r} are judged twice")
            table[key] = number(row[column], where, str(column))

    def _check_filled(self) -> None:
        if not self.scores:
            raise ConfigError(f"{self.name}: no judgment in the file")


_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no")


def _directions(row: dict[str, Any], where: str, found: dict[str, bool]) -> bool:
    """Whether ``row`` is a direction row; if so, its directions go into ``found``."""
    if set(row) == {DIRECTION_ROW} and isinstance(row[DIRECTION_ROW], dict):  # JSONL
        given = row[DIRECTION_ROW]
    else:
        keys = [name for name in ITEM_COLUMNS if name in row]
        if len(keys) != 1 or row[keys[0]] != DIRECTION_ROW:
            return False
        given = {c: v for c, v in row.items() if c not in (*ITEM_COLUMNS, *SYSTEM_COLUMNS)}
    if found:
        raise ConfigError(f"{where}: a second {DIRECTION_ROW} row")
    for column, value in given.items():
        text = str(value).strip().lower()
        if isinstance(value, bool):
            found[str(column)] = value
        elif text in _TRUE or text in _FALSE:
            found[str(column)] = text in _TRUE
        else:
            raise ConfigError(
                f"{where}: {DIRECTION_ROW} of {column} is true or false, got {described(value)}"
            )
    return True


def column_of(row: dict[str, Any], names: tuple[str, ...], where: str, what: str) -> str:
    found = [name for name in names if name in row]
    if len(found) != 1:
        wanted = " or ".join(names)
        raise ConfigError(f"{where}: {what} needs one column named {wanted}, found {len(found)}")
    return found[0]


def identifier(value: Any, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise ConfigError(f"{where}: an eval or system ID is a string or an integer, got {described(value)}")
    return str(value)


#: A judgment in text: decimal digits, a point, an exponent (or NaN or infinity, refused as not
#: finite); not the ``_``, hex or other digits that Python's float() would take too.
_NUMBER = re.compile(r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|nan|inf|infinity)", re.I)


def number(value: Any, where: str, column: str) -> float:
    if isinstance(value, str):
        text = value.strip()
        if not _NUMBER.fullmatch(text):
            raise ConfigError(f"{where}: {column} is not a number: {described(value)}")
        number = float(text)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:
            size = (
                f"an integer of {len(str(abs(value)))} digits"
                if isinstance(value, int) and value.bit_length() < 13_000  # only an int overflows
                else described(value)
            )
            raise ConfigError(f"{where}: {column} is {size}, beyond the range of a number") from None
    else:
        raise ConfigError(f"{where}: {column} is not a number: {described(value)}")
    if not math.isfinite(number):
        raise ConfigError(f"{where}: {column} is {described(value)}: every judgment must be a finite number")
    return number


def _json_row(raw: str, where: str) -> Any:
    """One JSONL line parsed, its nesting bounded (the parser recurses once a level)."""
    try:
        return json_value(raw)
    except ValueError as error:
        raise ConfigError(f"{where}: not a JSON object ({error})") from None


def _is_jsonl(path: str, text: str) -> bool:
    if path.lower().endswith((".jsonl", ".json")):
        return True
    return text.lstrip()[:1] == "{"


@dataclass(frozen=True)
class MetricTable:
    """Other metrics' scores (BLEU, METEOR, BERTScore, a QA metric ...): variants beside ROUGE's.

    ``variants``: metric -> system -> eval ID -> score; ``lower_is_better``: the metrics whose
    direction row says a lower score is better (an error rate), whose correlations with people
    are expected negative."""

    name: str
    variants: dict[str, dict[str, dict[str, float]]]
    lower_is_better: frozenset[str]


def read_scores(path: Union[str, os.PathLike[str]]) -> MetricTable:
    """Metric scores from a CSV or JSONL file laid out as judgments (eval ID, system, one column
    per metric), with an optional direction row: CSV ``higher_is_better,,true,false`` (its
    item cell, empty system cell), JSONL ``{"higher_is_better": {"TER": false}}``. A metric it
    does not name is higher-is-better; a name it gives that is not a column is an error."""
    table = _read_table(path, "scores", {})
    directions = table._directions or {}
    unknown = sorted(set(directions) - set(table.scores))
    if unknown:
        raise ConfigError(f"{table.name}: {DIRECTION_ROW} names {', '.join(unknown)}, not a column")
    variants: dict[str, dict[str, dict[str, float]]] = {}
    for metric, cells in table.scores.items():
        by_system = variants.setdefault(metric, {})
        for (eval_id, system), value in cells.items():
            by_system.setdefault(system, {})[eval_id] = value
    lower = frozenset(metric for metric, higher in directions.items() if not higher)
    return MetricTable(table.name, variants, lower)


def read_judgments(path: Union[str, os.PathLike[str]]) -> Judgments:
    """The judgments of a CSV or JSONL file (see the module's docstring)."""
    return _read_table(path, "judgments", None)


def _read_table(
    path: Union[str, os.PathLike[str]], what: str, directions: Optional[dict[str, bool]]
) -> Judgments:
    name = file_name(path, what)
    found = Judgments(name, _directions=directions)
    read_rows(name, found._add)
    found._check_filled()
    return found


def _flat_row(row: Any, where: str) -> Any:
    """A row of sacrerouge's ``metrics.jsonl`` (``instance_id``, ``summarizer_id``,
    ``summarizer_type``, ``metrics``: nested names) as a table row: the eval ID, the system, and
    each metric under its names joined by ``_`` (``rouge-1_f1``), a list of values averaged as
    sacrerouge averages them. Any other row is itself."""
    if not (isinstance(row, dict) and {"instance_id", "summarizer_id", "metrics"} <= set(row)):
        return row
    if not isinstance(row["metrics"], dict):
        raise ConfigError(f"{where}: sacrerouge's metrics is an object of metrics")
    flat: dict[str, Any] = {"eval_id": row["instance_id"], "system": row["summarizer_id"]}

    def add(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                add(f"{prefix}_{key}" if prefix else str(key), inner)
        elif isinstance(value, list) and value and all(isinstance(v, (int, float)) for v in value):
            flat[prefix] = math.fsum(value) / len(value)
        else:
            flat[prefix] = value

    add("", row["metrics"])
    return flat


def file_name(path: Union[str, os.PathLike[str]], what: str) -> str:
    """``path`` as a str, or a :class:`UsageError` naming ``what`` the file holds."""
    name = os.fspath(path) if isinstance(path, os.PathLike) else path
    if not isinstance(name, str):
        raise UsageError(f"the {what} file must be a path, got {described(path)}")
    return name


def read_rows(name: str, add: Callable[[Any, str], None]) -> None:
    """Each row of a CSV or JSONL table (see the module), handed to ``add`` with where it is; a row
    of sacrerouge's ``metrics.jsonl`` as a table row (:func:`_flat_row`)."""
    data = read_file(name, InputError, f"Cannot open {name}", f"Cannot read {name}", limit=MAX_CONFIG_BYTES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{name}: not UTF-8 (byte {error.start})") from None
    if _is_jsonl(name, text):
        for line, raw in enumerate(text.split("\n"), 1):
            if not raw.strip():
                continue
            where = f"{name}, line {line}"
            add(_flat_row(_json_row(raw, where), where), where)
    else:
        _read_csv(name, text, add)


def _read_csv(name: str, text: str, add: Callable[[Any, str], None]) -> None:
    """The rows of a CSV file into ``found``; a cell may be as large as a summary file."""
    reader = csv.reader(io.StringIO(text, newline=""))
    header: Optional[list[str]] = None
    limit = csv.field_size_limit(MAX_FILE_BYTES)
    try:
        for fields in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in fields):
                continue
            if header is None:
                header = [cell.strip() for cell in fields]
                if len(set(header)) != len(header):
                    raise ConfigError(f"{name}, line {line}: a column is named twice")
                continue
            if len(fields) != len(header):
                raise ConfigError(f"{name}, line {line}: {len(fields)} cells, the header has {len(header)}")
            add(dict(zip(header, (cell.strip() for cell in fields))), f"{name}, line {line}")
    except csv.Error as error:
        where = f"{name}, line {reader.line_num}"
        if "field limit" in str(error):
            raise LimitError(
                f"{where}: a cell larger than a summary file may be ({MAX_FILE_BYTES >> 20} MiB): refused"
            ) from None
        raise ConfigError(f"{where}: not CSV ({error})") from None
    finally:
        csv.field_size_limit(limit)
