"""The fast paths (C kernel, batched numpy units) give the counts of the plain definitions."""

from __future__ import annotations

import math
import os
from array import array
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge155py import _kernel, bootstrap
from rouge155py.corpus import Vocabulary
from rouge155py.metrics import Grams, clipped_hits, pairs, units
from rouge155py.metrics.lcs import LcsText, score_lcs, score_wlcs
from rouge155py.metrics.ngram import ngrams
from rouge155py.metrics.skipbigram import skip_bigrams
from rouge155py.metrics.units import UnitTable, ngram_units, skip_bigram_units

needs_kernel = pytest.mark.skipif(
    not _kernel.kernel_available() and not os.environ.get("ROUGE155PY_REQUIRE_KERNEL"),
    reason="C kernel not built",
)

WORDS = ["a", "b", "c", "d", "e"]
sentences = st.lists(st.lists(st.sampled_from(WORDS), max_size=12), max_size=5)


def _texts(model: list[list[str]], peer: list[list[str]], extra: list[str]) -> tuple:
    def text(sents: list[list[str]], vocab: object) -> LcsText:
        unigrams = [t for s in sents for t in s] + extra  # the n-gram reader may differ
        return LcsText(sents, Counter(unigrams), len(unigrams), vocab)  # type: ignore[arg-type]

    vocab = Vocabulary()
    return text(model, vocab), text(peer, vocab), text(model, None), text(peer, None)


@needs_kernel
@settings(max_examples=400, deadline=None)
@given(sentences, sentences, st.lists(st.sampled_from(WORDS), max_size=3))
def test_rouge_l_kernel_matches_python(model, peer, extra) -> None:
    fast_m, fast_p, slow_m, slow_p = _texts(model, peer, extra)
    assert score_lcs(fast_m, fast_p) == score_lcs(slow_m, slow_p)


@settings(max_examples=400, deadline=None)
@given(
    sentences,
    sentences,
    st.lists(st.sampled_from(WORDS), max_size=3),
    st.sampled_from([1.2, 1.5, 2.0, 0.7]),
)
def test_rouge_w_kernel_matches_python(model, peer, extra, weight) -> None:
    if any(model):  # an empty model divides by zero in both paths (tested elsewhere)
        _assert_same_wlcs(*_texts(model, peer, extra), weight)


def _assert_same_wlcs(
    fast_m: LcsText, fast_p: LcsText, slow_m: LcsText, slow_p: LcsText, weight: float
) -> None:
    fast, slow = score_wlcs(fast_m, fast_p, weight, "m"), score_wlcs(slow_m, slow_p, weight, "m")
    assert (fast.hit, fast.model_count, fast.peer_count, fast.score) == (
        slow.hit,
        slow.model_count,
        slow.peer_count,
        slow.score,
    )


# Up to 150 tokens of 100 words: sentences longer than a machine word, peer sentences of
# few distinct tokens (ROUGE-L by bit vectors) and of more than the model's longest sentence
# has tokens (ROUGE-L by cells).
long_sentences = st.lists(
    st.lists(st.sampled_from([f"w{k}" for k in range(100)]), max_size=150), min_size=1, max_size=3
)


@needs_kernel
@settings(max_examples=150, deadline=None)
@given(long_sentences, long_sentences, st.lists(st.sampled_from(WORDS), max_size=40))
def test_long_sentences_kernel_matches_python(model, peer, extra) -> None:
    """Long sentences, many distinct tokens and budgets of many tokens (the sort's partitions)."""
    texts = _texts(model, peer, extra)
    assert score_lcs(texts[0], texts[1]) == score_lcs(texts[2], texts[3])
    if any(model):
        _assert_same_wlcs(*texts, 1.2)


token_lists = st.lists(st.lists(st.sampled_from(WORDS), max_size=15), min_size=1, max_size=6)


def _ids(files: list[list[str]]) -> list[np.ndarray]:
    vocab: dict[str, int] = {}
    return [np.array([vocab.setdefault(t, len(vocab)) for t in f], dtype=np.int64) for f in files]


def _reference_hits(grams: list[Grams], pairs: list[tuple[int, int]]) -> list[int]:
    return [clipped_hits(grams[m].counts, grams[p].counts) for p, m in pairs]


def _check_table(table: UnitTable, grams: list[Grams], data: st.DataObject) -> None:
    """Totals, and the hits of random pairs, equal the Counter definition."""
    assert table.totals.tolist() == [g.total for g in grams]
    pairs = data.draw(st.lists(st.tuples(*(st.integers(0, len(grams) - 1),) * 2), max_size=8))
    peers = np.array([p for p, _ in pairs], dtype=np.int64)
    models = np.array([m for _, m in pairs], dtype=np.int64)
    expected = _reference_hits(grams, pairs)
    assert table.hits(peers, models).tolist() == expected


@settings(max_examples=300, deadline=None)
@given(token_lists, st.integers(1, 4), st.data())
def test_batched_ngrams_match_reference(files, n, data) -> None:
    """Batched numpy units (and the C hits) equal the per-file Counter definition."""
    table = UnitTable(*ngram_units(_ids(files), n), len(files))
    _check_table(table, [ngrams(f, n) for f in files], data)


@settings(max_examples=300, deadline=None)
@given(token_lists, st.integers(-1, 5), st.booleans(), st.data())
def test_batched_skip_bigrams_match_reference(files, distance, unigrams, data) -> None:
    table = UnitTable(*skip_bigram_units(_ids(files), distance, unigrams), len(files))
    _check_table(table, [skip_bigrams(f, distance, unigrams) for f in files], data)


@settings(max_examples=100, deadline=None)
@given(token_lists, st.integers(1, 4))
def test_unit_codes_renumber_before_overflow(files, n) -> None:
    """With a tiny code limit every renumbering branch runs; the counts must not change."""
    expected = UnitTable(*ngram_units(_ids(files), n), len(files)).totals.tolist()
    original = units._LIMIT
    units._LIMIT = 8
    try:
        table = UnitTable(*ngram_units(_ids(files), n), len(files))
        grams = [ngrams(f, n) for f in files]
        pairs = [(p, m) for p in range(len(files)) for m in range(len(files))]
        peers = np.array([p for p, _ in pairs], dtype=np.int64)
        models = np.array([m for _, m in pairs], dtype=np.int64)
        assert table.totals.tolist() == expected
        assert table.hits(peers, models).tolist() == _reference_hits(grams, pairs)
    finally:
        units._LIMIT = original


@needs_kernel
@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(*(st.floats(0, 1, allow_nan=False),) * 3), max_size=40),
    st.integers(1, 300),
)
def test_bootstrap_kernel_matches_numpy(rows, resamples) -> None:
    table = np.array(rows, dtype=float).reshape(-1, 3)
    out = np.zeros((resamples, 3))
    if len(rows):
        _kernel.accel.bootstrap_sums(table, resamples, out)
    assert np.array_equal(out.T, bootstrap._numpy_sums(table, resamples))


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.floats(allow_nan=True, allow_infinity=True, width=64)
        | st.sampled_from([0.0, 0.5, 1.0, math.nan, math.inf]),
        max_size=200,
    )
)
def test_sort_and_sum_ascending_nan_last(values) -> None:
    """The bootstrap's ranks: ascending, NaN last; the sum added in that order."""
    found = array("d", values)
    total = _kernel.accel.sort_and_sum(found)
    numbers = sorted(v for v in values if not math.isnan(v))
    assert found[: len(numbers)].tolist() == numbers
    assert all(math.isnan(v) for v in found[len(numbers) :])
    expected = 0.0
    for v in [*numbers, *(v for v in values if math.isnan(v))]:
        expected += v
    assert total == expected or (math.isnan(total) and math.isnan(expected))


@needs_kernel
@settings(max_examples=500, deadline=None)
@given(
    token_lists,
    st.sampled_from([0, 1, 2, 3, 4, 9]),
    st.sampled_from([-1, 0, 1, 1.5, 4]),
    st.booleans(),
    st.sampled_from([0, 1 << 8, 1 << 16, 1 << 21, (1 << 31) - 8]),
)
def test_pair_kernel_matches_reference(files, n, distance, unigrams, offset) -> None:
    """The per-pair C counts (n > 0: n-grams; n = 0: skip-bigrams) equal the definitions.

    Large ids (``offset``) take the kernel's general path where n ids do not fit in 64 bits.
    """
    ids = [array("i", (f + offset).tolist()) for f in _ids(files)]
    peer, model = ids[0], ids[-1]
    if n:
        grams_p, grams_m = ngrams(files[0], n), ngrams(files[-1], n)
    else:
        grams_p = skip_bigrams(files[0], distance, unigrams)
        grams_m = skip_bigrams(files[-1], distance, unigrams)
    found = pairs.peer_counts(peer, [model, peer, array("i")], n, distance, unigrams)
    expected = [
        (clipped_hits(grams_m.counts, grams_p.counts), grams_m.total, grams_p.total),
        (grams_p.total, grams_p.total, grams_p.total),
        (0, 0, grams_p.total),
    ]
    assert [(c.hit, c.model_count, c.peer_count) for c in found] == expected


class _Table(dict):  # type: ignore[type-arg]
    """A token -> id map like the corpus's: a new id for a new token, -1 for a stopword."""

    def __missing__(self, token: str) -> int:
        value = self[token] = -1 if token in {"the", "a1"} else len(self)
        return value


texts = st.lists(
    st.binary(max_size=40).map(lambda b: b.decode("latin-1"))
    | st.lists(
        st.sampled_from(["the", "The", "a1", "Cat", "cat", "-", "x9Y", " ", "\xe9", "1st"]), max_size=12
    ).map("".join),
    max_size=5,
)


@needs_kernel
@settings(max_examples=500, deadline=None)
@given(texts, st.booleans())
def test_encode_kernel_splits_as_the_perl(texts, drop) -> None:
    """The kernel's token ids are those of counted_tokens, looked up in the same map."""
    from rouge155py.text.normalize import counted_tokens

    expected_table, table = _Table(), _Table()
    expected_ids, expected_offsets = [], [0]
    for text in texts:
        found = [expected_table[t] for t in counted_tokens(text)]
        expected_ids += [i for i in found if i >= 0 or not drop]
        expected_offsets.append(len(expected_ids))
    found_ids, found_offsets = _kernel.accel.encode(texts, table, drop)
    assert array("i", found_ids).tolist() == expected_ids
    assert array("i", found_offsets).tolist() == expected_offsets
    assert table == expected_table
