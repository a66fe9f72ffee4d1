"""The compiled union-LCS kernel and the pure-Python path give identical counts."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge155py.metrics import lcs
from rouge155py.metrics.lcs import LcsText, score_lcs, score_wlcs

pytestmark = pytest.mark.skipif(not lcs.kernel_available(), reason="C kernel not built")

WORDS = ["a", "b", "c", "d", "e"]
sentences = st.lists(st.lists(st.sampled_from(WORDS), max_size=12), max_size=5)


def _texts(model: list[list[str]], peer: list[list[str]], extra: list[str]) -> tuple:
    def text(sents: list[list[str]], vocab: object) -> LcsText:
        unigrams = [t for s in sents for t in s] + extra  # the n-gram reader may differ
        return LcsText(sents, Counter(unigrams), len(unigrams), vocab)  # type: ignore[arg-type]

    vocab: dict[str, int] = {}
    return text(model, vocab), text(peer, vocab), text(model, None), text(peer, None)


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
    fast_m, fast_p, slow_m, slow_p = _texts(model, peer, extra)
    if not any(model):
        return  # an empty model divides by zero in both paths (tested elsewhere)
    fast, slow = score_wlcs(fast_m, fast_p, weight, "m"), score_wlcs(slow_m, slow_p, weight, "m")
    assert (fast.hit, fast.model_count, fast.peer_count, fast.score) == (
        slow.hit,
        slow.model_count,
        slow.peer_count,
        slow.score,
    )
