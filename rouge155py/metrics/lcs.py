"""ROUGE-L and ROUGE-W: summary-level union LCS with unigram clipping.

For each model sentence, the LCS with every peer sentence marks model
positions (backtrack: diagonal on equal tokens, else up when the cell above is
at least the cell to the left, else left). A marked position counts as a hit
only while the token still has budget in both the model's and the peer's
unigram counts (taken from the n-gram reader), and each hit spends one of each.
ROUGE-W does the same with the weighted DP and weighs runs of counted hits.
"""

from __future__ import annotations

import itertools
import operator
from array import array
from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterator, Optional, Sequence

from .. import _kernel
from ..errors import ComputeError, LimitError, UsageError
from ..text.corpus import Corpus, Vocabulary
from . import GIVEN_MODEL, GIVEN_PEER, ModelCounts, given_list
from . import perl_power as _power
from .base import KernelSpec, Metric, Task, Trace

if TYPE_CHECKING:
    from ..inputs.readers import Document

__all__ = [
    "MAX_LCS_CELLS",
    "Lcs",
    "LcsText",
    "UnionLcs",
    "WeightedLcs",
    "check_table_size",
    "counted_hits",
    "hit_marks",
    "lcs_marks",
    "lcs_text",
    "score_lcs",
    "score_wlcs",
    "token_text",
]

#: The largest LCS table of one model sentence against one peer sentence (m × n
#: cells). Its backtrack takes one bit per cell, so at most 256 MiB; the Perl
#: keeps two tables of Perl scalars, some 100 GB for as many cells.
MAX_LCS_CELLS = 2**31


def _budget(unigram_ids: array) -> memoryview:
    """The kernel's clipping budget of a text (distinct ids, then their counts), made once per text."""
    assert _kernel.accel is not None  # asked for only where the kernel is in use
    return memoryview(_kernel.accel.budget(unigram_ids)).cast("i")


class LcsText:
    """A summary as the LCS metrics see it: the LCS reader's sentences and the n-gram reader's
    unigrams (the clipping budget).

    Built from tokens of any kind: given a ``vocabulary`` (tokens -> the run's
    integer ids; it must give a new id to a new token, as
    :class:`rouge155py.text.corpus.Vocabulary`) the kernel scores it, else the
    pure-Python path does. :meth:`from_ids` builds one from a corpus's ids.
    """

    # Set by from_ids alone, whose texts make their sentences and unigrams from them when asked.
    _ids: array
    _offsets: array
    _unigram_ids: array

    def __init__(
        self,
        sentences: Sequence[Sequence[Hashable]],
        unigrams: Counter[Hashable],
        unigram_total: int,
        vocabulary: Optional[dict[Hashable, int]] = None,
    ) -> None:
        self._sentences: Optional[Sequence[Sequence[Hashable]]] = sentences
        self._unigrams: Optional[Counter[Hashable]] = unigrams
        self.unigram_total = unigram_total
        #: The number of tokens of the longest sentence.
        self.longest = max(map(len, sentences), default=0)
        self._packed: Optional[tuple[array, array, memoryview]] = None
        if _kernel.accel is not None and vocabulary is not None:
            ids = array("i", [vocabulary[t] for s in sentences for t in s])
            offsets = array("i", itertools.accumulate(map(len, sentences), initial=0))
            self._packed = (
                ids,
                offsets,
                _budget(array("i", map(vocabulary.__getitem__, unigrams.elements()))),
            )

    @classmethod
    def from_ids(cls, ids: array, offsets: array, unigram_ids: array) -> LcsText:
        """From token ids: the LCS reader's sentences end to end, where each starts; the n-gram reader's."""
        text = cls.__new__(cls)
        text._sentences = text._unigrams = None
        text._ids, text._offsets, text._unigram_ids = ids, offsets, unigram_ids
        text.unigram_total = len(unigram_ids)
        text.longest = max(map(operator.sub, offsets[1:], offsets[:-1]), default=0)
        text._packed = (ids, offsets, _budget(unigram_ids)) if _kernel.accel is not None else None
        return text

    @property
    def sentences(self) -> Sequence[Sequence[Hashable]]:
        """The tokens of each sentence."""
        if self._sentences is None:
            ids, offsets = self._ids, self._offsets
            self._sentences = [ids[start:end].tolist() for start, end in zip(offsets, offsets[1:])]
        return self._sentences

    @property
    def unigrams(self) -> Counter[Hashable]:
        """The clipping budget: each token of the n-gram reader, with its count."""
        if self._unigrams is None:
            self._unigrams = Counter(self._unigram_ids)
        return self._unigrams


def check_table_size(label: str, model: LcsText, peer: LcsText, model_name: str, peer_name: str) -> None:
    """Refuse a pair of sentences whose LCS table would exceed :data:`MAX_LCS_CELLS`."""
    m, n = model.longest, peer.longest
    if m * n > MAX_LCS_CELLS:
        raise LimitError(
            f"{label}: a sentence of {m} tokens in {model_name} against one of {n} tokens in "
            f"{peer_name} makes an LCS table of {m * n} cells, more than {MAX_LCS_CELLS}: refused"
        )


def lcs_marks(
    model: Sequence[Hashable], peer: Sequence[Hashable], mask: list[bool], weight: Optional[float] = None
) -> None:
    """Mark in ``mask`` the model positions of the Perl's LCS backtrack: of the plain LCS, or
    with ``weight`` of ROUGE-W's weighted LCS (f(k) = k ** weight)."""
    n = len(peer)
    if not model or not n:
        return
    f = None if weight is None else _weights(weight, len(model) + 2)
    zero = 0 if f is None else 0.0
    above = [zero] * (n + 1)
    above_runs = [0] * (n + 1)
    ups = []
    for token in model:
        row = [zero] * (n + 1)
        runs = above_runs if f is None else [0] * (n + 1)  # ROUGE-W alone counts runs
        up = bytearray(n + 1)
        for j in range(1, n + 1):
            if token == peer[j - 1]:
                if f is None:
                    row[j] = above[j - 1] + 1
                else:
                    k = above_runs[j - 1]
                    # f(k+1) is added, then f(k) subtracted: two roundings, in this order.
                    row[j] = above[j - 1] + f[k + 1] - f[k]
                    runs[j] = k + 1
            elif above[j] >= row[j - 1]:
                row[j] = above[j]
                up[j] = 1
            else:
                row[j] = row[j - 1]
        ups.append(_packed_bits(up))
        above, above_runs = row, runs
    _backtrack(model, peer, ups, mask)


def _packed_bits(flags: bytearray) -> bytes:
    """One bit per cell: the table's backtrack moves take m × n / 8 bytes, not its values."""
    import numpy as np

    return np.packbits(np.frombuffer(flags, dtype=np.uint8)).tobytes()


def _backtrack(
    model: Sequence[Hashable], peer: Sequence[Hashable], ups: list[bytes], mask: list[bool]
) -> None:
    """Diagonal on equal tokens, else up where the cell above was at least the one to the left."""
    i, j = len(model), len(peer)
    while i and j:
        if model[i - 1] == peer[j - 1]:
            i -= 1
            j -= 1
            mask[i] = True
        elif ups[i - 1][j >> 3] >> (7 - (j & 7)) & 1:
            i -= 1
        else:
            j -= 1


_WEIGHT_TABLES: dict[float, array] = {}


def _weights(weight: float, size: int) -> array:
    """f[k] = k ** weight for k < size, the same for the kernel and the pure path."""
    table = _WEIGHT_TABLES.get(weight)
    if table is None or len(table) < size:
        table = _WEIGHT_TABLES[weight] = array("d", [_power(k, weight) for k in range(max(size, 256))])
    return table


def _union_hits(model: LcsText, peer: LcsText, weight: Optional[float], on_sentence: Callable) -> None:
    """Shared walk: union LCS (``weight``: ROUGE-W's) per model sentence, clipped by the unigram budgets."""
    model_budget = Counter(model.unigrams)
    peer_budget = Counter(peer.unigrams)
    peer_sentences = peer.sentences
    for sentence in model.sentences:
        mask = [False] * len(sentence)
        for peer_sentence in peer_sentences:
            lcs_marks(sentence, peer_sentence, mask, weight)
        counted = []
        for j, token in enumerate(sentence):
            ok = mask[j] and model_budget[token] > 0 and peer_budget[token] > 0
            if ok:
                model_budget[token] -= 1
                peer_budget[token] -= 1
            counted.append(ok)
        on_sentence(sentence, mask, counted)


def hit_marks(model: LcsText, peer: LcsText) -> list[list[bool]]:
    """Per model sentence, whether each token is one of ROUGE-L's hits (the union LCS, clipped)."""
    found: list[list[bool]] = []
    _union_hits(model, peer, None, lambda sentence, mask, counted: found.append(counted))
    return found


def counted_hits(model: LcsText, peer: LcsText, weight: Optional[float] = None) -> list[list[Hashable]]:
    """Per model sentence, the tokens counted as hits, in order (the Perl's ``-v`` lines);
    ``weight``: ROUGE-W's marks, else ROUGE-L's."""
    found: list[list[Hashable]] = []

    def add(sentence: list[str], mask: list[bool], counted: list[bool]) -> None:
        found.append([token for token, ok in zip(sentence, counted) if ok])

    _union_hits(model, peer, weight, add)
    return found


def _kernel_hits(model: LcsText, peer: LcsText, weight: Optional[float]) -> Optional[tuple[float, float]]:
    """(hit, base) from the C kernel, or None when it is not in use for these texts."""
    m, p = model._packed, peer._packed
    if m is None or p is None or _kernel.accel is None:  # packed only where the kernel is in use
        return None
    weights = None if weight is None else _weights(weight, max(model.longest, peer.longest) + 2)
    return _kernel.accel.union_lcs(m[0], m[1], m[2], p[0], p[1], p[2], weights)


def score_lcs(model: LcsText, peer: LcsText) -> ModelCounts:
    """ROUGE-L counts of one model: hits, model tokens, peer tokens."""
    fast = _kernel_hits(model, peer, None)
    if fast is not None:
        return _lcs_counts(int(fast[0]), int(fast[1]), peer)
    hit = 0
    base = 0

    def add(sentence: list[str], mask: list[bool], counted: list[bool]) -> None:
        nonlocal hit, base
        base += len(sentence)
        hit += sum(counted)

    _union_hits(model, peer, None, add)
    return _lcs_counts(hit, base, peer)


def _lcs_counts(hit: int, base: int, peer: LcsText) -> ModelCounts:
    # -f B compares the unrounded hit / base for ROUGE-L.
    return ModelCounts(hit, base, peer.unigram_total, hit / base if base > 0 else 0.0)


def score_wlcs(model: LcsText, peer: LcsText, weight: float, name: str) -> ModelCounts:
    """ROUGE-W counts of one model, with the Perl's weights applied twice to the base."""
    fast = _kernel_hits(model, peer, weight)
    if fast is not None:
        return _wlcs_counts(fast[0], fast[1], peer, weight, name)
    hit: float = 0
    base: float = 0

    def add(sentence: list[str], mask: list[bool], counted: list[bool]) -> None:
        nonlocal hit, base
        base += _power(len(sentence), weight)
        run = 0
        last = len(sentence) - 1
        for j, ok in enumerate(counted):
            if not ok:
                continue
            run += 1
            if (j < last and not mask[j + 1]) or j == last:
                hit += _power(run, weight)
                run = 0

    _union_hits(model, peer, weight, add)
    return _wlcs_counts(hit, base, peer, weight, name)


def _wlcs_counts(hit: float, base: float, peer: LcsText, weight: float, name: str) -> ModelCounts:
    if base == 0:
        raise ComputeError(f"ROUGE-W: model summary {name} has no tokens (division by zero)")
    # A power beyond the largest double is infinity, as in the Perl, which goes on with it
    # (and with the NaN of inf / inf): the report prints Inf and NaN where the Perl does.
    score = _power(hit / base, 1 / weight)
    counted = _power(base, weight)
    return ModelCounts(hit, counted, _power(peer.unigram_total, weight), score)


def lcs_text(corpus: Corpus, document: Document, stem: bool, unigram_stem: bool) -> LcsText:
    """The ROUGE-L/W view of a document: the LCS reader's sentences, the n-gram reader's unigrams."""

    def make() -> LcsText:
        return LcsText.from_ids(
            *corpus.lcs_sentence_ids(document, stem), corpus.token_ids(document, unigram_stem)
        )

    return corpus.view(("lcs", document, stem, unigram_stem), make)


def token_text(text: Sequence[Any], name: str, vocabulary: dict[Hashable, int]) -> LcsText:
    """The LCS view of a text given as tokens: a list of sentences (lists of tokens), or a
    flat list of tokens as one sentence; its unigrams are all its tokens."""
    items = given_list(text, name)
    nested = [isinstance(s, (list, tuple)) for s in items]
    if any(nested) and not all(nested):
        raise UsageError(f"{name} mixes sentences (lists of tokens) and tokens")
    sentences = [list(s) for s in items] if any(nested) else [items]
    unigrams = [t for s in sentences for t in s]
    return LcsText(sentences, Counter(unigrams), len(unigrams), vocabulary)


class UnionLcs(Metric):
    """ROUGE-L and ROUGE-W: the union LCS of each model sentence with the peer's sentences."""

    #: ROUGE-W's weight; None for ROUGE-L.
    weight: Optional[float] = None

    def text_counts(self, model: LcsText, peer: LcsText, name: str) -> ModelCounts:
        """The counts of one model (named ``name`` in errors) against the peer."""
        raise NotImplementedError

    def counts(self, corpus: Corpus, tasks: list[Task]) -> list[list[ModelCounts]]:
        out = []
        for t in tasks:
            peer = lcs_text(corpus, t.peer, t.peer_stem, t.peer_stem)
            per_model = []
            for m, (s, u) in zip(t.models, t.model_stems):
                model = lcs_text(corpus, m, s, u)
                check_table_size(self.label, model, peer, m.name, t.peer.name)
                per_model.append(self.text_counts(model, peer, m.name))
            out.append(per_model)
        return out

    def score_pair(self, peer: Sequence[Any], model: Sequence[Any]) -> ModelCounts:
        vocabulary = Vocabulary()
        peer_text = token_text(peer, GIVEN_PEER, vocabulary)
        model_text = token_text(model, GIVEN_MODEL, vocabulary)
        check_table_size(self.label, model_text, peer_text, GIVEN_MODEL, GIVEN_PEER)
        return self.text_counts(model_text, peer_text, GIVEN_MODEL)

    def trace(self, trace: Trace, task: Task) -> Iterator[str]:
        """The LCS reader's sentences of the peer, and of each model with the hits of its sentences."""
        weight = self.weight
        label = "LCS: " if weight is None else "ROUGE-W: "
        sentences, peer = trace.lcs_text(task.peer, task.peer_stem, task.peer_stem)
        yield f"***P {trace.name(task.peer)}"
        yield from trace.sentences(sentences, peer)
        for document, (stem, unigram_stem) in zip(task.models, task.model_stems):
            sentences, model = trace.lcs_text(document, stem, unigram_stem)
            for hits in counted_hits(model, peer, weight):
                yield label + (" ".join(map(str, hits)) if hits else "-")
            if weight is not None and not any(model.sentences):
                return  # the Perl divides by the model's length here and dies: the totals raise
            yield f"***M {trace.name(document)}"
            yield from trace.sentences(sentences, model)


class Lcs(UnionLcs):
    """ROUGE-L."""

    label = "ROUGE-L"

    def text_counts(self, model: LcsText, peer: LcsText, name: str) -> ModelCounts:
        return score_lcs(model, peer)

    def kernel_spec(self) -> Optional[KernelSpec]:
        return (2, 0, 0, False, 0.0)

    def rs_kernel_spec(self) -> Optional[tuple[int, int]]:
        return (2, 0)  # rougeLsum: a summary's lines are its sentences

    def trace_totals(self) -> tuple[str, tuple[str, str, str], bool]:
        return "ROUGE-L", ("ROUGE-L-R score", "ROUGE-L-P", "ROUGE-L-F"), False


class WeightedLcs(UnionLcs):
    """ROUGE-W with weight ``w`` (f(k) = k ** w); R and P are raised to 1/w."""

    weight: float

    def __init__(self, weight: float, label: str) -> None:
        self.weight = weight
        self.power = 1 / weight
        self.label = f"ROUGE-W-{label}"

    def model_stems(self, models: int, stem_now: bool, only_models: bool) -> tuple[tuple[bool, bool], ...]:
        # The Perl reads the first model's tokens before -M switches -m off.
        if not models:
            return ()
        forced = only_models or stem_now
        rest = stem_now and not only_models
        return ((stem_now, forced),) + ((rest, forced),) * (models - 1)

    def text_counts(self, model: LcsText, peer: LcsText, name: str) -> ModelCounts:
        return score_wlcs(model, peer, self.weight, name)

    def kernel_spec(self) -> Optional[KernelSpec]:
        return (3, 0, 0, False, self.weight)

    def trace_totals(self) -> tuple[str, tuple[str, str, str], bool]:
        head = self.label
        return head, (f"{head}-R score", f"{head}-P score", f"{head}-F score"), False
