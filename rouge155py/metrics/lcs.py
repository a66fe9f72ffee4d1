"""ROUGE-L and ROUGE-W: summary-level union LCS with unigram clipping.

For each model sentence, the LCS with every peer sentence marks model
positions (backtrack: diagonal on equal tokens, else up when the cell above is
at least the cell to the left, else left). A marked position counts as a hit
only while the token still has budget in both the model's and the peer's
unigram counts (taken from the n-gram reader), and each hit spends one of each.
ROUGE-W does the same with the weighted DP and weighs runs of counted hits.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from ..errors import ComputeError
from . import ModelCounts

__all__ = ["LcsText", "lcs_marks", "score_lcs", "score_wlcs", "wlcs_marks"]

Marker = Callable[[list[str], list[str], list[bool]], None]


@dataclass(frozen=True)
class LcsText:
    """A summary as the LCS metrics see it."""

    sentences: list[list[str]]
    unigrams: Counter[str]
    unigram_total: int


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


def score_lcs(model: LcsText, peer: LcsText) -> ModelCounts:
    """ROUGE-L counts of one model: hits, model tokens, peer tokens."""
    hit = 0
    base = 0

    def add(sentence: list[str], mask: list[bool], counted: list[bool]) -> None:
        nonlocal hit, base
        base += len(sentence)
        hit += sum(counted)

    _union_hits(model, peer, lcs_marks, add)
    score = hit / base if base > 0 else 0.0
    return ModelCounts(hit, base, peer.unigram_total, score)


def score_wlcs(model: LcsText, peer: LcsText, weight: float, path: str) -> ModelCounts:
    """ROUGE-W counts of one model, with the Perl's weights applied twice to the base."""
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
    if base == 0:
        raise ComputeError(f"ROUGE-W: model summary {path} has no tokens (division by zero)")
    score = (hit / base) ** (1 / weight)
    return ModelCounts(hit, base**weight, peer.unigram_total**weight, score)
