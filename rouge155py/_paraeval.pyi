"""ParaEval's C kernel (``_paraeval.c``): its functions as rouge155py calls them.

A table's arrays are handed over once (int32 tokens, int64 starts, uint64 hashes, int32 order,
int64 keys: :class:`~rouge155py.metrics.paraphrases.PhraseTable`'s); texts are int32 buffers of
token ids and of where each sentence starts.
"""

from typing import Any, Optional, TypeVar

from _typeshed import ReadableBuffer
from typing_extensions import CapsuleType

_Match = TypeVar("_Match", bound=tuple[Any, ...])

def table(
    tokens: ReadableBuffer,
    starts: ReadableBuffer,
    hashes: ReadableBuffer,
    order: ReadableBuffer,
    keys: ReadableBuffer,
    /,
) -> CapsuleType:
    """The table's state for :func:`match` (its buffers held); ValueError where they are no table."""

def match(
    table: CapsuleType,
    texts: list[tuple[ReadableBuffer, ReadableBuffer]],
    pairs: ReadableBuffer,
    limit: int,
    search_bytes: int,
    state_bytes: int,
    candidate_bytes: int,
    match_type: type[_Match],
    candidate_type: Optional[type[tuple[int, int, int, int]]],
    /,
) -> list[_Match]:
    """The tiers of each (model, peer) pair of texts (``pairs``: int32 indices into ``texts``),
    each a ``match_type`` of (model words, peer words, (tier 1's model words, peer words),
    (tier 2's), tier 3, tier 3 after tier 1 alone, exact, tier 1's candidates, tier 2's), a
    candidate a ``candidate_type`` of (model start, model length, peer start, peer length): the
    fields of ``PairMatch`` and ``Candidate`` (``candidate_type`` None: the counts only, the
    tuples of candidates empty). The limit and bytes are tier 1's bounds
    (``paraeval.MAX_STATES`` or the caller's, ``MAX_SEARCH_BYTES`` and the bytes it counts per
    state and candidate)."""

def reader() -> CapsuleType:
    """A chunk of a table's pairs as they are read (:func:`pairs`, :func:`reader_add`)."""

def pairs(
    reader: CapsuleType,
    block: bytes,
    at: int,
    number: int,
    ppdb: bool,
    key: bytes,
    threshold: object,
    max_lines: int,
    max_bytes: int,
    /,
) -> tuple[int, int, bool]:
    """The lines of a block (lines joined by newlines) from byte ``at`` (line ``number``) read as
    ``read_pairs`` reads them: (where it stopped, its line, whether the chunk is full). It stops
    at a full chunk, at the end of the block (its length + 1), or at a line it leaves to the
    caller (a line it would refuse)."""

def reader_add(
    reader: CapsuleType, phrase: bytes, paraphrase: bytes, length: int, max_lines: int, max_bytes: int, /
) -> bool:
    """A pair read by the caller (its line's length); whether the chunk is full."""

def reader_chunk(reader: CapsuleType, /) -> tuple[list[str], bytes, int]:
    """The chunk read: its distinct phrases (lowercased; in the order they first occur among its
    phrases then its paraphrases), the int32 indices of its phrases then its paraphrases, its
    number of pairs. The reader is emptied."""

def builder() -> CapsuleType:
    """A table built from chunks of pairs (:func:`builder_add`)."""

def builder_add(
    builder: CapsuleType,
    tokens: ReadableBuffer,
    starts: ReadableBuffer,
    phrases: ReadableBuffer | None,
    count: int,
    /,
) -> bool:
    """A chunk of ``count`` pairs: its texts' int32 token ids end to end and int32 starts, its
    phrases then paraphrases as int32 indices of texts (None: the texts in order); False where
    two of its phrases have the same first hash and not the same second."""

def builder_arrays(
    builder: CapsuleType, /
) -> tuple[bool, bytearray, bytearray, bytearray, bytearray, bytearray, int]:
    """(collided, tokens, starts, hashes, order, keys, longest): whether phrases of two chunks
    have the same first hash and not the same second; the phrases' int32 token ids and int64
    starts, each where it first occurs; their uint64 first hashes ascending and the int32 phrase
    of each; the int64 keys of the pairs, each way, sorted; the most tokens of a phrase."""
