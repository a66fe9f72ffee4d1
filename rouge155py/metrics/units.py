"""Counting units (n-grams, skip-bigrams) of many files at once, with numpy.

Tokens are integer ids; a unit is an integer code. All files of one metric are
concatenated, so one pass computes every file's units and one pass computes
the clipped hits of every (peer, model) pair: sum over units of
min(peer count, model count). Units never span two files.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

__all__ = ["UnitTable", "ngram_units", "skip_bigram_units"]

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
    ids, owner = _concat(files)
    base = int(ids.max()) + 1 if len(ids) else 1
    longest = max((len(f) for f in files), default=0)
    reach = longest - 1 if distance < 0 else min(math.floor(distance + 1), longest - 1)
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
