"""ParaEval's C kernel (``_paraeval.c``): its functions as rouge155py calls them.

A table's arrays are handed over once (int32 tokens, int64 starts, uint64 hashes, int32 order,
int64 keys: :class:`~rouge155py.metrics.paraphrases.PhraseTable`'s); texts are int32 buffers of
token ids and of where each sentence starts.
"""

from typing import Any, TypeVar

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
    candidate_type: type[tuple[int, int, int, int]],
    /,
) -> list[_Match]:
    """The tiers of each (model, peer) pair of texts (``pairs``: int32 indices into ``texts``),
    each a ``match_type`` of (model words, peer words, (tier 1's model words, peer words),
    (tier 2's), tier 3, tier 3 after tier 1 alone, exact, tier 1's candidates, tier 2's), a
    candidate a ``candidate_type`` of (model start, model length, peer start, peer length): the
    fields of ``PairMatch`` and ``Candidate``. The limit and bytes are tier 1's bounds
    (``paraeval.MAX_STATES`` or the caller's, ``MAX_SEARCH_BYTES`` and the bytes it counts per
    state and candidate)."""
