"""Counting units (n-grams, skip-bigrams) of many files at once, with numpy.

Tokens are integer ids; a unit is an integer code. All files of one metric are
concatenated, so one pass computes every file's units and one pass computes
the clipped hits of every (peer, model) pair: sum over units of
min(peer count, model count). Units never span two files.

A long text has too many skip-bigrams to hold (n^2 / 2 for n tokens without a
distance limit): :func:`skip_bigram_hits` scores one pair holding only the
units of the shorter text, and reads the longer one token by token.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from . import skip_reach

__all__ = ["UnitTable", "ngram_units", "skip_bigram_hits", "skip_bigram_total", "skip_bigram_units"]

_LIMIT = 1 << 62


def _concat(files: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Token ids of all files end to end, and the file index of each position."""
    lengths = np.fromiter((len(f) for f in files), dtype=np.int64, count=len(files))
    ids = np.concatenate(files).astype(np.int64) if len(files) else np.zeros(0, np.int64)
    return ids, np.repeat(np.arange(len(files), dtype=np.int64), lengths)


def ngram_units(files: Sequence[np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """(codes, file index) of every n-gram of every file."""
    ids, owner = _concat(files)
    base = int(ids.max()) + 1 if len(ids) else 1
    codes, valid = ids, np.ones(len(ids), dtype=bool)
    bound = base  # codes are below this
    for k in range(1, n):
        if bound > _LIMIT // base:  # the next code would overflow: renumber densely first
            _, codes = np.unique(codes, return_inverse=True)
            codes, bound = codes.reshape(-1).astype(np.int64), len(codes)
        codes = codes[:-1] * base + ids[k:]
        bound *= base
        valid = valid[:-1] & (owner[:-k] == owner[k:])
    return codes[valid], owner[: len(valid)][valid]


def skip_bigram_units(
    files: Sequence[np.ndarray], distance: float, unigrams: bool
) -> tuple[np.ndarray, np.ndarray]:
    """(codes, file index) of the skip-bigrams (and ``-u`` unigrams) of every file.

    Token i pairs with i + 1 .. i + distance + 1 (every later token when
    distance < 0); unigrams are every token but the last of its file.
    """
    return _skip_bigram_codes(files, skip_reach(distance), unigrams)


def _skip_bigram_codes(
    files: Sequence[np.ndarray], reach: int, unigrams: bool
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`skip_bigram_units` by the largest j - i (-1: no limit). Codes: a * base + b,
    a -u unigram a + base^2, where base is one more than the largest id."""
    ids, owner = _concat(files)
    base = int(ids.max()) + 1 if len(ids) else 1
    longest = max((len(f) for f in files), default=0)
    reach = longest - 1 if reach < 0 else min(reach, longest - 1)
    codes, owners = [], []
    if unigrams and len(ids) > 1:
        keep = owner[:-1] == owner[1:]
        codes.append(ids[:-1][keep] + base * base)
        owners.append(owner[:-1][keep])
    for k in range(1, reach + 1):
        keep = owner[:-k] == owner[k:]
        codes.append(ids[:-k][keep] * base + ids[k:][keep])
        owners.append(owner[:-k][keep])
    if not codes:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(codes), np.concatenate(owners)


def skip_bigram_total(length: int, reach: int, unigrams: bool) -> int:
    """The Perl's skip-bigram count of a text of ``length`` tokens (reach -1: no limit).

    Token i < last pairs with min(reach, last - i) later tokens: the sum over
    k = 1 .. last of min(reach, k); ``-u`` adds one unigram per token but the last.
    """
    last = length - 1
    if last < 1:
        return 0
    if reach < 0 or reach >= last:
        pairs = last * (last + 1) // 2
    else:
        pairs = reach * (reach + 1) // 2 + (last - reach) * reach
    return pairs + (last if unigrams else 0)


def skip_bigram_hits(peer: np.ndarray, model: np.ndarray, reach: int, unigrams: bool) -> int:
    """Clipped skip-bigram hits of one pair (reach -1: no limit), holding the shorter text's units only.

    Per first token a of the shorter text's units, one pass over the longer
    text: c[j], the copies of a among the tokens that token j pairs with as
    second (all before it, or the ``reach`` before it), summed over the j
    holding b, is the count of (a, b).  The work is the longer text's length
    per distinct first token.
    """
    short, long = (peer, model) if len(peer) <= len(model) else (model, peer)
    codes, _ = _skip_bigram_codes([short], reach, unigrams)
    if not len(codes) or len(long) < 2:
        return 0
    codes, counts = np.unique(codes, return_counts=True)
    base = int(short.max()) + 1
    single = codes >= base * base  # -u unigrams
    firsts = np.where(single, codes - base * base, codes // base)
    seconds = np.where(single, -1, codes % base)
    last = len(long) - 1
    ends = np.arange(last + 1)
    starts = np.maximum(ends - reach, 0) if reach >= 0 else np.zeros_like(ends)
    seen = np.zeros(len(codes), dtype=np.int64)
    for a in np.unique(firsts):
        held = np.concatenate(([0], np.cumsum(long == a)))  # held[k]: copies of a in long[:k]
        mine = np.flatnonzero(firsts == a)
        unigram = mine[seconds[mine] < 0]
        seen[unigram] = held[last]
        pairs = mine[seconds[mine] >= 0]
        if not len(pairs):
            continue
        wanted = seconds[pairs]  # ascending, as the codes are
        at = np.minimum(np.searchsorted(wanted, long), len(wanted) - 1)
        hit = wanted[at] == long
        before = held[ends] - held[starts]
        seen[pairs] = np.bincount(at[hit], weights=before[hit], minlength=len(wanted)).astype(np.int64)
    return int(np.minimum(counts, seen).sum())


class UnitTable:
    """Per-file unit counts of many files, for clipped hits between any two of them."""

    def __init__(self, codes: np.ndarray, owner: np.ndarray, files: int) -> None:
        self.totals = np.bincount(owner, minlength=files).astype(np.int64)
        dense = codes
        self._width = int(codes.max()) + 1 if len(codes) else 1
        if self._width > _LIMIT // max(files, 1):  # file * width would overflow: renumber
            _, dense = np.unique(codes, return_inverse=True)
            dense = dense.reshape(-1).astype(np.int64)
            self._width = int(dense.max()) + 1
        keys = owner * self._width + dense
        self._keys, counts = np.unique(keys, return_counts=True)
        self._counts = counts.astype(np.int64)
        self._starts = np.searchsorted(self._keys, np.arange(files + 1, dtype=np.int64) * self._width)

    def hits(self, peers: np.ndarray, models: np.ndarray) -> np.ndarray:
        """Clipped hits of each pair (peers[q], models[q])."""
        pairs = len(peers)
        if not pairs or not len(self._keys):
            return np.zeros(pairs, dtype=np.int64)
        starts, ends = self._starts[models], self._starts[models + 1]
        sizes = ends - starts
        pair = np.repeat(np.arange(pairs), sizes)
        offsets = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        at = np.repeat(starts, sizes) + offsets
        model_count = self._counts[at]
        wanted = self._keys[at] + (peers[pair] - models[pair]) * self._width
        found = np.minimum(np.searchsorted(self._keys, wanted), len(self._keys) - 1)
        peer_count = np.where(self._keys[found] == wanted, self._counts[found], 0)
        return np.bincount(pair, weights=np.minimum(model_count, peer_count), minlength=pairs).astype(
            np.int64
        )
