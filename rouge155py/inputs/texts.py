"""The texts-in-memory door: summaries given as Python values made into evals over documents.

This is what the Python API, the Hugging Face metric, the accumulator and Dask read: a
summary is a string (its lines are its sentences, as in an SPL file), a :class:`Sentences`
(its sentences, joined with newlines: the same SPL text) or, in a JSONL line or a
:class:`~rouge155py.run.batches.TextItem`, a list of sentence strings. The Python API reads its
arguments by one rule (:func:`text_inputs`): a string is one summary, a list of strings
several summaries. A summary becomes the document an SPL file with those bytes (``str``
encoded as UTF-8) would be, so every rule of the Perl's SPL reader holds: empty lines are
dropped, nothing is trimmed. With ``-3`` (BE) a summary is Basic Element lines, read as SIMPLE.
"""

from __future__ import annotations

import numbers
from array import array
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence, TypeVar, Union, cast

from .. import _kernel
from ..errors import UsageError, described
from .config import Eval, TextConfig
from .files import MAX_FILE_BYTES, too_large
from .readers import Document, SummaryText

__all__ = [
    "DEFAULT_PEER_ID",
    "Predictions",
    "References",
    "Sentences",
    "SummaryInput",
    "SummaryLike",
    "by_system_id",
    "check_multi_ref",
    "config_from_texts",
    "item_eval",
    "one_line",
    "prediction_document",
    "reference_documents",
    "summary_document",
    "text_format",
    "text_inputs",
]


class Sentences:
    """One summary given as its sentences: ``Sentences(["First one.", "Second one."])`` is
    the summary ``"First one.\nSecond one."``, on either side of :func:`rouge155py.score`,
    where a plain list of strings is several summaries."""

    __slots__ = ("sentences",)

    def __init__(self, sentences: Iterable[str]) -> None:
        if isinstance(sentences, (str, bytes, bytearray)):
            raise UsageError(f"Sentences takes a list of sentence strings, got {described(sentences)}")
        found = tuple(sentences)
        for number, sentence in enumerate(found, start=1):
            if not isinstance(sentence, str):
                raise UsageError(f"Sentences: sentence {number} is {described(sentence)}; expected a str")
        self.sentences: tuple[str, ...] = found

    def text(self) -> str:
        """The summary's text: its sentences, one a line."""
        return "\n".join(self.sentences)

    def __iter__(self) -> Iterator[str]:
        return iter(self.sentences)

    def __len__(self) -> int:
        return len(self.sentences)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sentences) and other.sentences == self.sentences

    def __hash__(self) -> int:
        return hash(self.sentences)

    def __repr__(self) -> str:
        return f"Sentences({list(self.sentences)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return Sentences, (self.sentences,)


SummaryInput = Union[str, bytes, Sentences, Sequence[str]]
#: A summary as the Python API takes it: one string, bytes, or :class:`Sentences`.
SummaryLike = Union[str, bytes, Sentences]
T = TypeVar("T")
_SUMMARY = "a str, bytes or a list of sentence strings"
#: The peer ID of a single system given as a list (pyrouge's default system ID).
DEFAULT_PEER_ID = "1"


#: One system's predictions, one summary per item, or system ID -> such an iterable.
Predictions = Union[Iterable[SummaryLike], Mapping[Any, Iterable[SummaryLike]]]
#: Each item's references: one summary or a list (a tuple) of them.
References = Iterable[Union[SummaryLike, Sequence[SummaryLike]]]


def check_multi_ref(multi_ref: Optional[str], model_counts: Iterable[int]) -> None:
    """A ``UsageError`` naming the three rules where an eval has several references (its number
    of models, in eval order) and no rule was chosen (``multi_ref`` None): the Python API never
    averages them silently."""
    if multi_ref is not None:
        return
    counts = list(model_counts)
    if max(counts, default=0) <= 1:
        return
    for position, count in enumerate(counts):
        if count > 1:
            raise UsageError(
                f"item {position} has {count} references: choose how they combine with "
                "multi_ref='average' (the Perl's -f A: counts summed over the references), "
                "'best' (-f B: the reference of highest recall) or 'best-f' (rouge-score's rule: "
                "per item and metric, the reference of highest F); if they are the sentences of one "
                "reference, give it as one string ('\\n'.join(sentences)) or rouge155py.Sentences(sentences)"
            )


def summary_document(summary: SummaryInput, input_format: str, name: str) -> SummaryText:
    """The document of one summary: a string, bytes, or a list of sentences; one larger than a
    summary file may be (:data:`~rouge155py.inputs.files.MAX_FILE_BYTES`) is refused."""
    if isinstance(summary, (str, bytes, bytearray)):
        text = summary
    elif isinstance(summary, Sentences):
        text = summary.text()
    elif _is_list(summary):
        for number, sentence in enumerate(summary, start=1):
            if not isinstance(sentence, str):
                raise UsageError(f"{name}: sentence {number} is {described(sentence)}; expected a str")
        text = "\n".join(summary)
    else:
        raise UsageError(f"{name} is {described(summary)}; expected {_SUMMARY}")
    return SummaryText(file_text(text, name), input_format, name)


def file_text(text: Union[str, bytes, bytearray], name: str) -> str:
    """The bytes the file of a summary would hold (``str`` as UTF-8), as latin-1 characters; a
    summary larger than a summary file may be (:data:`~rouge155py.inputs.files.MAX_FILE_BYTES`) is refused."""
    if type(text) is str and text.isascii():  # its UTF-8 bytes are its characters
        found = text
    else:
        try:
            found = SummaryText.of(bytes(text) if isinstance(text, bytearray) else text, "SPL", name).text
        except UnicodeEncodeError as error:  # a lone surrogate of the str: no bytes stand for it
            surrogate = error.object[error.start]
            raise UsageError(
                f"{name} holds a lone surrogate (U+{ord(surrogate):04X}), which is not text"
            ) from None
    if len(found) > MAX_FILE_BYTES:
        raise too_large(name)
    return found


def _is_list(value: object) -> bool:
    """An ordered sequence of items that is not itself text (a set or a dict has no order to keep)."""
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def _listed(value: Any, name: str, expected: str) -> list[Any]:
    """``value`` as a list, or an error naming what it is and what was expected."""
    if not _is_list(value):
        raise UsageError(f"{name} is {described(value)}; expected {expected}")
    return list(value)


def one_line(summary: Any) -> Any:
    """A summary (or a list of references) with its lines joined into one: one sentence, as
    rouge-score's ``rougeL`` reads a whole text (other values are left for the readers to refuse)."""
    if isinstance(summary, (list, tuple)):
        return [one_line(s) for s in summary]
    if isinstance(summary, str):
        return " ".join(summary.splitlines())
    return summary


def text_format(be_mode: Optional[str]) -> str:
    """The input format of summaries given as text: SPL, or SIMPLE BE lines under ``-3``."""
    return "SIMPLE" if be_mode is not None else "SPL"


def prediction_document(summary: SummaryInput, input_format: str, index: int, peer_id: str) -> SummaryText:
    """The prediction of system ``peer_id`` for item ``index`` (0-based)."""
    return summary_document(summary, input_format, _prediction_name(index, peer_id))


def reference_documents(
    item: Union[SummaryInput, Sequence[SummaryInput]], input_format: str, index: int
) -> list[SummaryText]:
    """The references of item ``index`` (0-based): one summary, or a list of them."""
    return [
        summary_document(s, input_format, REFERENCE_NAME.format(model=k + 1, item=index + 1))
        for k, s in enumerate(_references(item, index))
    ]


def by_system_id(predictions: Mapping[Any, T]) -> dict[str, T]:
    """The mapping keyed by system IDs as strings (a key is a str or an int), which must differ."""
    systems: dict[str, T] = {}
    for peer_id, value in predictions.items():
        number = isinstance(peer_id, numbers.Integral) and not isinstance(peer_id, bool)
        if not (isinstance(peer_id, str) or (number and abs(int(peer_id)).bit_length() <= 64)):
            what = f"a system ID (a key of predictions) is {described(peer_id)}"
            raise UsageError(f"{what}; expected a str or an int of at most 64 bits")
        systems[str(peer_id) if isinstance(peer_id, str) else str(int(peer_id))] = value
    if len(systems) != len(predictions):
        raise UsageError(f"system IDs must differ as strings: {sorted(map(described, predictions))}")
    return systems


def item_eval(
    index: int,
    predictions: Union[SummaryInput, Mapping[Any, SummaryInput]],
    references: Union[SummaryInput, Sequence[SummaryInput]],
    input_format: str,
) -> Eval:
    """Eval ``str(index + 1)`` as :func:`config_from_texts` makes it, from one item alone.

    ``predictions`` is one system's summary or a mapping system ID -> summary.
    """
    systems = (
        by_system_id(predictions) if isinstance(predictions, Mapping) else {DEFAULT_PEER_ID: predictions}
    )
    peers: dict[str, Document] = {
        peer_id: prediction_document(s, input_format, index, peer_id) for peer_id, s in systems.items()
    }
    return Eval(str(index + 1), peers, list(reference_documents(references, input_format, index)))


def _references(item: Union[SummaryInput, Sequence[SummaryInput]], index: int) -> list[SummaryInput]:
    """One reference (a string) or several (a list of strings or of sentence lists)."""
    if isinstance(item, (str, bytes, bytearray)):
        return [item]
    return _listed(item, f"the reference entry of item {index + 1}", "a summary or a list of summaries")


_SPELLINGS = (
    "give one summary as one string, a line per sentence ('\\n'.join(sentences)), "
    "or as rouge155py.Sentences(sentences)"
)


def _values(value: Any, name: str, expected: str) -> list[Any]:
    """The values of an ordered iterable (a list, a tuple, a generator, a pandas Series), or an error."""
    if isinstance(value, (str, bytes, bytearray)):
        raise UsageError(f"{name} must be {expected}, not one string")
    if isinstance(value, (set, frozenset, Mapping)) or not isinstance(value, Iterable):
        raise UsageError(f"{name} is {described(value)}; expected {expected} (in order)")
    if hasattr(value, "columns") and hasattr(value, "iloc"):  # a DataFrame iterates over its column names
        raise UsageError(f"{name} is a DataFrame; give one of its columns (df[name]), or a list")
    return list(value)


def _one_summary(value: Any, name: str) -> Union[str, bytes]:
    """A prediction or a reference of the Python API: a string, bytes, or :class:`Sentences`."""
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, bytearray):
        return bytes(value)
    if isinstance(value, Sentences):
        return value.text()
    if isinstance(value, (list, tuple)):
        what = f"a {type(value).__name__} of {len(value)}"
        raise UsageError(f"{name} is {what}, which would be several summaries: {_SPELLINGS}")
    raise UsageError(f"{name} is {described(value)}; expected a str, bytes or rouge155py.Sentences")


def _reference_entry(value: Any, name: str) -> Union[str, bytes, list[Union[str, bytes]]]:
    """An item's references: one summary, or a list of them (from a list or tuple: several
    references)."""
    if not isinstance(value, (list, tuple)):
        return _one_summary(value, name)
    found = []
    for k, reference in enumerate(value):
        if isinstance(reference, (list, tuple)):
            raise UsageError(
                f"{name}[{k}] is a {type(reference).__name__}: a reference given as its sentences is "
                f"rouge155py.Sentences(sentences) or '\\n'.join(sentences) ({name}, a list of "
                "strings, is several references)"
            )
        found.append(_one_summary(reference, f"{name}[{k}]"))
    return found


def text_inputs(
    predictions: Any, references: Any
) -> tuple[dict[str, list[Union[str, bytes]]], list[Union[str, bytes, list[Union[str, bytes]]]]]:
    """The Python API's arguments read by its one rule: system ID -> its predictions (one
    system's iterable is system ``1``), and each item's references.

    A ``str`` (or bytes) is one summary whose lines are its sentences; :class:`Sentences` is
    one summary given as its sentences; a list or tuple of them is several summaries: several
    references of an item, and an error for a prediction, which is one summary. A list inside
    an item's references is an error too. Each side is any ordered iterable (a list, a tuple,
    a generator, a pandas Series), one entry per item; their lengths must agree. Summaries
    come back as text (a :class:`Sentences` joined); an item's references as one text, or a
    list of them: the shapes :func:`item_eval` reads alike.
    """
    if isinstance(predictions, Mapping):
        systems = {
            peer_id: _values(items, f"predictions[{peer_id!r}]", "an iterable of summaries")
            for peer_id, items in by_system_id(predictions).items()
        }
        named = {peer_id: f"predictions[{peer_id!r}]" for peer_id in systems}
    else:
        expected = "an iterable of summaries or a mapping system ID -> iterable"
        systems = {DEFAULT_PEER_ID: _values(predictions, "predictions", expected)}
        named = {DEFAULT_PEER_ID: "predictions"}
    entries = _values(references, "references", "an iterable with one entry per prediction")
    for peer_id, items in systems.items():
        if len(items) != len(entries):
            raise UsageError(
                f"{named[peer_id]} has {len(items)} item{'s' if len(items) != 1 else ''} and references "
                f"{len(entries)}: "
                "one entry each per item"
            )
    # Strings, the common case, are taken as they are (an item's name is made only for an error).
    read = {
        peer_id: items
        if _plain(items)
        else [p if type(p) is str else _one_summary(p, f"{named[peer_id]}[{i}]") for i, p in enumerate(items)]
        for peer_id, items in systems.items()
    }
    return read, entries if _plain(entries) else [
        r if type(r) is str else _reference_entry(r, f"references[{i}]") for i, r in enumerate(entries)
    ]


#: The names of the API's summaries, as :class:`~rouge155py.inputs.config.TextConfig` formats them.
PREDICTION_NAME = "prediction {item} of system {peer}"
REFERENCE_NAME = "reference {model} of item {item}"


def config_from_texts(
    predictions: Any, references: Any, input_format: str = "SPL", places: Optional[Sequence[int]] = None
) -> TextConfig:
    """Evals ``1``..``N``: prediction i of every system against the references of item i,
    the arguments read as :func:`text_inputs` reads them; held by columns (no document is
    made for a text the C kernel scores). ``places``: each item's place in a larger
    run (eval ID ``str(place + 1)``), where it is one."""
    systems, models_given = text_inputs(predictions, references)
    if places is None:
        places = range(len(models_given))
    peers = {  # the lists _plain passes hold ASCII strs alone
        peer_id: cast("list[str]", items)
        if _plain(items)
        else [
            s
            if type(s) is str and s.isascii() and len(s) <= MAX_FILE_BYTES
            else file_text(s, _prediction_name(places[i], peer_id))
            for i, s in enumerate(items)
        ]
        for peer_id, items in systems.items()
    }
    if _plain(models_given):  # one reference an item
        return TextConfig(
            peers,
            cast("list[str]", models_given),
            range(len(models_given) + 1),
            input_format,
            PREDICTION_NAME,
            REFERENCE_NAME,
            places,
        )
    models: list[str] = []
    starts = array("q", [0])
    for i, item in enumerate(models_given):
        if type(item) is str and item.isascii() and len(item) <= MAX_FILE_BYTES:
            models.append(item)
        else:
            models.extend(
                file_text(s, REFERENCE_NAME.format(model=k + 1, item=places[i] + 1))
                for k, s in enumerate([item] if isinstance(item, (str, bytes)) else item)
            )
        starts.append(len(models))
    return TextConfig(peers, models, starts, input_format, PREDICTION_NAME, REFERENCE_NAME, places)


def _plain(texts: list[Any]) -> bool:
    """Whether every text is an ASCII str within the size of a summary file: its file's bytes, to
    be taken as it is (the common case, checked in bulk: by the kernel in one pass)."""
    if _kernel.accel is not None:
        return _kernel.accel.plain_texts(texts, MAX_FILE_BYTES)
    return (
        set(map(type, texts)) <= {str}
        and all(map(str.isascii, texts))
        and max(map(len, texts), default=0) <= MAX_FILE_BYTES
    )


def _prediction_name(index: int, peer_id: str) -> str:
    return PREDICTION_NAME.format(item=index + 1, peer=peer_id)
