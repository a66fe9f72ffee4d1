"""The C kernel (``_accel.c`` and ``_rs_text.c``): its functions as rouge155py calls them.

Token ids, offsets and budgets are int32 buffers (``array("i")``, their bytes or a memoryview),
rows and resample sums float64 ones; ids and offsets made by the kernel come back as bytes.
"""

from collections.abc import Iterable, Sequence
from typing import Literal, Optional, TypeVar, Union, overload

from _typeshed import ReadableBuffer, WriteableBuffer
from typing_extensions import CapsuleType

_Score = TypeVar("_Score", bound=tuple[float, float, float])

def union_lcs(
    model: ReadableBuffer,
    model_offsets: ReadableBuffer,
    model_budget: ReadableBuffer,
    peer: ReadableBuffer,
    peer_offsets: ReadableBuffer,
    peer_budget: ReadableBuffer,
    weights: Optional[ReadableBuffer],
    /,
) -> tuple[float, float]:
    """Union-LCS (hit, base) of one model against one peer; ``weights`` None for ROUGE-L."""

def budget(unigrams: ReadableBuffer, /) -> bytes:
    """A text's clipping budget: its distinct unigram ids ascending, then their counts (int32)."""

def bootstrap_sums(
    rows: Union[ReadableBuffer, tuple[ReadableBuffer, ...]],
    resamples: int,
    out: WriteableBuffer,
    divisor: float = 0.0,
    first: int = 0,
    step: int = 1,
    order: Optional[ReadableBuffer] = None,
    keyed: int = -1,
    ahead: int = -1,
    /,
) -> None:
    """The Perl's resample sums of rows of three floats (or of tables of them, from the same
    draws) into ``out``: resamples first, first + step, ...; divided by ``divisor`` unless 0.
    ``keyed``: draw from each table's distinct rows and the instances' keys when the rows are
    large (-1), never (0), whenever they allow it (1); ``ahead``: how far ahead keyed draws ask
    for their keys and values, the fastest on the first resamples (-1) or one of three (0 to 2):
    the same sums."""

def sort_and_sum(values: WriteableBuffer, /) -> float:
    """Sort float64 values in place (ascending, NaN last); their sum added in that order."""

def kendall_tau_b_counted(
    at: ReadableBuffer,
    cells: ReadableBuffer,
    weights: ReadableBuffer,
    two_roots: bool,
    out: WriteableBuffer,
    /,
) -> None:
    """Kendall's tau-b of samples of the cells (``cells``: their x, then their y, float64), each
    sample a row of int64 counts of each cell (``weights``), into ``out``: what
    :func:`kendall_tau_b` gives of the sample laid out. ``at``: the cells sorted by x, then y."""

def counted_ranks(
    runs: ReadableBuffer, held: ReadableBuffer, laid_out: ReadableBuffer, width: int, out: WriteableBuffer, /
) -> None:
    """The mean ranks of samples of rows of ``width`` values (each row ranked apart), from how
    many times a sample holds each value of a row (``held``, int64), laid out as ``laid_out``
    says (intp flat positions), into ``out`` (float64). ``runs`` (intp): each row's positions
    sorted by value, then where each sorted place's run of equal values starts, then ends."""

def average_ranks(values: ReadableBuffer, n: int, out: WriteableBuffer, /) -> None:
    """The ranks of each row of ``n`` float64 values into ``out``, ties given their mean rank
    (scipy.stats.rankdata's numbers); a row with a NaN is all NaN."""

def kendall_tau_b(
    x: ReadableBuffer, y: ReadableBuffer, n: int, two_roots: bool, out: WriteableBuffer, /
) -> None:
    """Kendall's tau-b of each row of ``n`` float64 pairs into ``out`` (one float64 a row); NaN
    where x or y ties every pair; ``two_roots``: divided by each root in turn (scipy's rounding)."""

def unit_hits(
    peer: ReadableBuffer, models: Sequence[ReadableBuffer], mode: int, n: int, reach: int, unigrams: bool, /
) -> tuple[tuple[int, int, int], ...]:
    """Per model (hit, model units, peer units): n-grams of size n (mode 0) or skip-bigrams
    within ``reach`` (mode 1; -1 any), with ``unigrams``."""

def token_memo(table: dict[str, int], /) -> CapsuleType:
    """An empty memo of ``table``'s ids, for :func:`encode` and :func:`encode_lines`."""

def encode(texts: list[str], table: dict[str, int], drop: bool, memo: CapsuleType, /) -> tuple[bytes, bytes]:
    """The int32 token ids of the texts as the Perl splits them, and where each text's ids start
    (``table``: token -> id, its ``__missing__`` called for a new token, asked once per distinct
    token with ``memo``, its :func:`token_memo`; ``drop``: no negative ids)."""

def encode_lines(
    text: str, table: dict[str, int], drop: bool, memo: CapsuleType, /
) -> Optional[tuple[bytes, bytes]]:
    """:func:`encode` of an SPL text's sentences (its lines that are not empty), lowercased, and
    where each sentence's ids start; None where ``text`` holds a character past latin-1."""

def text_state(stopwords: Iterable[str], exceptions: dict[str, str], /) -> CapsuleType:
    """A run's text stage for :func:`score_pairs`: the stopwords, the WordNet exceptions."""

def score_pairs(
    state: CapsuleType,
    texts: list[str],
    stem: bool,
    drop: bool,
    peers: ReadableBuffer,
    model_starts: ReadableBuffer,
    models: ReadableBuffer,
    metrics: Sequence[tuple[int, int, int, bool, float]],
    alpha: float,
    best_model: bool,
    max_cells: int,
    /,
) -> tuple[bytes, int]:
    """The float64 R, P, F rows of every metric and pair of SPL texts, and -1; or no rows and
    the first pair the Perl would die on (or whose LCS table is too large)."""

def rs_score_pairs(
    targets: Sequence[str],
    predictions: Sequence[str],
    stem: bool,
    metrics: Sequence[tuple[int, int]],
    names: Sequence[str],
    score_type: type[_Score],
    max_cells: int,
    /,
) -> Optional[list[dict[str, _Score]]]:
    """rouge-score's scores of each pair: per pair a dict name -> ``score_type(precision,
    recall, fmeasure)``; None where an LCS table is too large."""

def plain_texts(texts: list[str], longest: int, /) -> bool:
    """Whether every item is a str (not a subclass) of ASCII, at most ``longest`` characters."""

def porter_stem(word: str, /) -> Optional[str]:
    """The ``-m`` Porter stem of a word of a-z and 0-9; None for any other word."""

def rs_stem(word: str, /) -> Optional[str]:
    """nltk's Porter stem (its default mode) of a word of a-z and 0-9; None for any other."""

@overload
def rs_encode(
    texts: list[str], stem: bool, lines: bool, words: Literal[True], /
) -> tuple[bytes, bytes, bytes, list[str]]: ...
@overload
def rs_encode(
    texts: list[str], stem: bool, lines: bool, words: Literal[False], /
) -> tuple[bytes, bytes, bytes, None]: ...
@overload
def rs_encode(
    texts: list[str], stem: bool, lines: bool, words: bool, /
) -> tuple[bytes, bytes, bytes, Optional[list[str]]]:
    """rouge-score's tokens of the texts: int32 ids, where each sentence ends, where each text's
    sentences start, and (``words``) each id's counted form."""
