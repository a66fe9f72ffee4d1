"""ROUGE-L and ROUGE-W: summary-level union LCS with unigram clipping.

For each model sentence, the LCS with every peer sentence marks model
positions (backtrack: diagonal on equal tokens, else up when the cell above is
at least the cell to the left, else left). A marked position counts as a hit
only while the token still has budget in both the model's and the peer's
unigram counts (taken from the n-gram reader), and each hit spends one of each.
ROUGE-W does the same with the weighted DP and weighs runs of counted hits.
"""

from __future__ import annotations

from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..errors import ComputeError
from . import ModelCounts

try:
    from .. import _accel
except ImportError:  # the optional C kernel was not built: the pure-Python path
    _accel = None

__all__ = ["LcsText", "kernel_available", "lcs_marks", "score_lcs", "score_wlcs", "wlcs_marks"]

Marker = Callable[[list[str], list[str], list[bool]], None]


def kernel_available() -> bool:
    """Whether the compiled union-LCS kernel is in use."""
    return _accel is not None


@dataclass(frozen=True)
class LcsText:
    """A summary as the LCS metrics see it, plus a packed form for the kernel.

    ``sentences`` come from the LCS reader; ``unigrams`` (the clipping budget)
    from the n-gram reader. ``vocabulary`` maps tokens to the run's integer ids
    (it must give a new id to a new token, as :class:`rouge155py.corpus.Vocabulary`).
    """

    sentences: list[list[str]]
    unigrams: Counter[str]
    unigram_total: int
    vocabulary: Optional[dict[str, int]] = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if _accel is None or self.vocabulary is None:
            return
        vocab = self.vocabulary
        ids = array("i", [vocab[t] for s in self.sentences for t in s])
        offsets, at = array("i", [0]), 0
        for sentence in self.sentences:
            at += len(sentence)
            offsets.append(at)
        budget = sorted(zip(map(vocab.__getitem__, self.unigrams), self.unigrams.values()))
        unigram_ids = array("i", [i for i, _ in budget])
        unigram_counts = array("i", [n for _, n in budget])
        longest = max(map(len, self.sentences), default=0)
        object.__setattr__(self, "_packed", (ids, offsets, unigram_ids, unigram_counts, longest))


def lcs_marks(model: list[str], peer: list[str], mask: list[bool]) -> None:
    """Mark in ``mask`` the model positions of the Perl's LCS backtrack."""
    m, n = len(model), len(peer)
    if m == 0 or n == 0:
        return
    rows = [[0] * (n + 1)]
    for token in model:
        above = rows[-1]
        row = [0] * (n + 1)
        for j in range(1, n + 1):
            if token == peer[j - 1]:
                row[j] = above[j - 1] + 1
            elif above[j] >= row[j - 1]:
                row[j] = above[j]
            else:
                row[j] = row[j - 1]
        rows.append(row)
    _backtrack(model, peer, rows, mask)


def _backtrack(model: list[str], peer: list[str], rows: list[list], mask: list[bool]) -> None:
    i, j = len(model), len(peer)
    while i and j:
        if model[i - 1] == peer[j - 1]:
            i -= 1
            j -= 1
            mask[i] = True
        elif rows[i - 1][j] >= rows[i][j - 1]:
            i -= 1
        else:
            j -= 1


def wlcs_marks(weight: float) -> Marker:
    """The weighted-LCS marker for ``-w weight``: f(k) = k ** weight."""

    def mark(model: list[str], peer: list[str], mask: list[bool]) -> None:
        n = len(peer)
        if not model or not n:
            return
        rows: list[list[float]] = [[0] * (n + 1)]
        runs = [0] * (n + 1)
        for token in model:
            above, above_runs = rows[-1], runs
            row: list[float] = [0] * (n + 1)
            runs = [0] * (n + 1)
            for j in range(1, n + 1):
                if token == peer[j - 1]:
                    k = above_runs[j - 1]
                    # f(k+1) is added, then f(k) subtracted: two roundings, in this order.
                    row[j] = above[j - 1] + (k + 1) ** weight - k**weight
                    runs[j] = k + 1
                elif above[j] >= row[j - 1]:
                    row[j] = above[j]
                else:
                    row[j] = row[j - 1]
            rows.append(row)
        _backtrack(model, peer, rows, mask)

    return mark


def _union_hits(model: LcsText, peer: LcsText, marker: Marker, on_sentence: Callable) -> None:
    """Shared walk: union LCS per model sentence, clipped by the unigram budgets."""
    model_budget = Counter(model.unigrams)
    peer_budget = Counter(peer.unigrams)
    for sentence in model.sentences:
        mask = [False] * len(sentence)
        for peer_sentence in peer.sentences:
            marker(sentence, peer_sentence, mask)
        counted = []
        for j, token in enumerate(sentence):
            ok = mask[j] and model_budget[token] > 0 and peer_budget[token] > 0
            if ok:
                model_budget[token] -= 1
                peer_budget[token] -= 1
            counted.append(ok)
        on_sentence(sentence, mask, counted)


def _kernel(model: LcsText, peer: LcsText, weight: Optional[float]) -> Optional[tuple[float, float]]:
    """(hit, base) from the C kernel, or None when it is not in use for these texts."""
    m, p = getattr(model, "_packed", None), getattr(peer, "_packed", None)
    if m is None or p is None:
        return None
    weights = None if weight is None else _weights(weight, max(m[4], p[4]) + 2)
    return _accel.union_lcs(m[0], m[1], m[2], m[3], p[0], p[1], p[2], p[3], weights)


_WEIGHT_TABLES: dict[float, array] = {}


def _weights(weight: float, size: int) -> array:
    """f[k] = k ** weight for k < size, computed by Python as the pure path does."""
    table = _WEIGHT_TABLES.get(weight)
    if table is None or len(table) < size:
        table = _WEIGHT_TABLES[weight] = array("d", [k**weight for k in range(max(size, 256))])
    return table


def score_lcs(model: LcsText, peer: LcsText) -> ModelCounts:
    """ROUGE-L counts of one model: hits, model tokens, peer tokens."""
    fast = _kernel(model, peer, None)
    if fast is not None:
        return _lcs_counts(int(fast[0]), int(fast[1]), peer)
    hit = 0
    base = 0

    def add(sentence: list[str], mask: list[bool], counted: list[bool]) -> None:
        nonlocal hit, base
        base += len(sentence)
        hit += sum(counted)

    _union_hits(model, peer, lcs_marks, add)
    return _lcs_counts(hit, base, peer)


def _lcs_counts(hit: int, base: int, peer: LcsText) -> ModelCounts:
    # -f B compares the unrounded hit / base for ROUGE-L.
    return ModelCounts(hit, base, peer.unigram_total, hit / base if base > 0 else 0.0)


def score_wlcs(model: LcsText, peer: LcsText, weight: float, path: str) -> ModelCounts:
    """ROUGE-W counts of one model, with the Perl's weights applied twice to the base."""
    fast = _kernel(model, peer, weight)
    if fast is not None:
        return _wlcs_counts(fast[0], fast[1], peer, weight, path)
    hit: float = 0
    base: float = 0

    def add(sentence: list[str], mask: list[bool], counted: list[bool]) -> None:
        nonlocal hit, base
        base += len(sentence) ** weight
        run = 0
        last = len(sentence) - 1
        for j, ok in enumerate(counted):
            if not ok:
                continue
            run += 1
            if j < last and not mask[j + 1]:
                hit += run**weight
                run = 0
            elif j == last:
                hit += run**weight
                run = 0

    _union_hits(model, peer, wlcs_marks(weight), add)
    return _wlcs_counts(hit, base, peer, weight, path)


def _wlcs_counts(hit: float, base: float, peer: LcsText, weight: float, path: str) -> ModelCounts:
    if base == 0:
        raise ComputeError(f"ROUGE-W: model summary {path} has no tokens (division by zero)")
    score = (hit / base) ** (1 / weight)
    return ModelCounts(hit, base**weight, peer.unigram_total**weight, score)
