"""Hand-worked cases for the metric kernels: n-grams, skip-bigrams, LCS, WLCS and BE.

Every expected number below is computed by hand (the comment next to it shows
how) from the corresponding routine of ROUGE-1.5.5.pl: createNGram, ngramScore,
createSkipBigram, lcs/lcs_inner/markLCS, wlcs/wlcs_inner, computeWLCSScore and
createBE/getBEScore.
"""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from fractions import Fraction
from typing import Callable, Iterator, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge155py
from rouge155py import _kernel
from rouge155py._kernel import kernel_available
from rouge155py.errors import ComputeError, InputError, LimitError, UsageError
from rouge155py.metrics import Grams, ModelCounts, clipped_hits, rounded_ratio, score_grams
from rouge155py.metrics import lcs as lcs_module
from rouge155py.metrics.base import Metric
from rouge155py.metrics.be import BE_MODES, BasicElements, basic_elements
from rouge155py.metrics.lcs import Lcs, LcsText, WeightedLcs, lcs_marks, score_lcs, score_wlcs
from rouge155py.metrics.ngram import NGram, ngrams
from rouge155py.metrics.scoring import Totals, combine_models
from rouge155py.metrics.skipbigram import SkipBigram, skip_bigram_hits, skip_bigram_total, skip_bigrams
from rouge155py.text.corpus import Vocabulary

# ---------------------------------------------------------------------------
# ROUGE-N
# ---------------------------------------------------------------------------


def test_bigrams_of_a_short_text() -> None:
    # a b a b: the bigrams are (a b), (b a), (a b): 4 - 2 + 1 = 3 of them.
    grams = ngrams(["a", "b", "a", "b"], 2)
    assert grams.total == 3
    assert grams.counts == Counter({("a", "b"): 2, ("b", "a"): 1})


def test_unigrams_are_the_tokens() -> None:
    grams = ngrams(["a", "b", "a"], 1)
    assert grams.total == 3
    assert grams.counts == Counter({"a": 2, "b": 1})


@pytest.mark.parametrize(("tokens", "n"), [([], 1), ([], 2), (["a"], 2), (["a", "b"], 3)])
def test_text_shorter_than_n_has_no_ngram(tokens: list[str], n: int) -> None:
    # The Perl loops i = 0 .. $#tokens - n + 1, which is empty here: _cn_ = 0.
    grams = ngrams(tokens, n)
    assert grams.total == 0
    assert not grams.counts


def test_trigram_count() -> None:
    # 5 tokens give 5 - 3 + 1 = 3 trigrams.
    grams = ngrams(["w1", "w2", "w3", "w4", "w5"], 3)
    assert grams.total == 3
    assert set(grams.counts) == {("w1", "w2", "w3"), ("w2", "w3", "w4"), ("w3", "w4", "w5")}


def test_clipped_hits_take_the_smaller_count() -> None:
    # a: min(model 2, peer 1) = 1; b: min(1, 3) = 1; c only in the peer: 0. Total 2.
    model = Counter({"a": 2, "b": 1})
    peer = Counter({"a": 1, "b": 3, "c": 5})
    assert clipped_hits(model, peer) == 2
    # Both loops of the implementation (smaller side first) give the same sum.
    assert clipped_hits(peer, model) == 2


def test_score_grams_counts_and_rounded_recall() -> None:
    # model: the cat sat on the mat (6 unigrams); peer: the cat the (3 unigrams).
    # hits: the = min(2, 2) = 2, cat = min(1, 1) = 1 -> 3; recall 3/6 = 0.50000.
    model = ngrams("the cat sat on the mat".split(), 1)
    peer = ngrams("the cat the".split(), 1)
    counts = score_grams(model, peer)
    assert counts == ModelCounts(hit=3, model_count=6, peer_count=3)
    assert rounded_ratio(counts.hit, counts.model_count) == 0.5  # what -f B compares


def test_score_for_best_model_is_rounded_to_five_decimals() -> None:
    # ngramScore keeps sprintf("%07.5f", hit / count) for -f B: 1/3 -> 0.33333, 2/3 -> 0.66667.
    assert rounded_ratio(1, 3) == 0.33333
    assert rounded_ratio(2, 3) == 0.66667
    # No model n-gram: the score is 0, not a division by zero.
    assert rounded_ratio(0, 0) == 0.0
    model = Grams(Counter(), 0)
    counts = score_grams(model, ngrams(["a"], 1))
    assert counts.score is None  # left to -f B, which takes rounded_ratio(hit, model count)
    assert combine_models([counts], best_model=True) == Totals(0, 1, 0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from("abcd"), max_size=12),
    st.lists(st.sampled_from("abcd"), max_size=12),
    st.integers(1, 3),
)
def test_clipped_hits_symmetric_and_bounded(model: list[str], peer: list[str], n: int) -> None:
    m, p = ngrams(model, n), ngrams(peer, n)
    hits = clipped_hits(m.counts, p.counts)
    assert hits == clipped_hits(p.counts, m.counts)
    assert 0 <= hits <= min(m.total, p.total)


# ---------------------------------------------------------------------------
# ROUGE-S / ROUGE-SU
# ---------------------------------------------------------------------------

FIVE = ["a", "b", "c", "d", "e"]


def test_skip_distance_zero_is_bigrams() -> None:
    # j <= i + 0 + 1: (a b) (b c) (c d) (d e) = 4 pairs.
    grams = skip_bigrams(FIVE, 0, False)
    assert grams.total == 4
    assert grams.counts == Counter({("a", "b"): 1, ("b", "c"): 1, ("c", "d"): 1, ("d", "e"): 1})


def test_skip_distance_one() -> None:
    # j <= i + 2: a->b,c  b->c,d  c->d,e  d->e = 7 pairs.
    grams = skip_bigrams(FIVE, 1, False)
    assert grams.total == 7
    assert set(grams.counts) == {
        ("a", "b"),
        ("a", "c"),
        ("b", "c"),
        ("b", "d"),
        ("c", "d"),
        ("c", "e"),
        ("d", "e"),
    }


@pytest.mark.parametrize("distance", [4, -1, -5])
def test_large_or_negative_distance_takes_all_pairs(distance: int) -> None:
    # 5 tokens: C(5, 2) = 10 pairs (d = 4 already reaches j = i + 5 > last).
    grams = skip_bigrams(FIVE, distance, False)
    assert grams.total == 10
    assert sum(grams.counts.values()) == 10


@pytest.mark.parametrize(("distance", "pairs"), [(0, 4), (1, 7), (4, 10), (-1, 10)])
def test_unigrams_skip_the_last_token(distance: int, pairs: int) -> None:
    # -u adds the unigram of token i for i = 0 .. n-2 only: a b c d, never e.
    grams = skip_bigrams(FIVE, distance, True)
    assert grams.total == pairs + 4
    assert grams.counts["e"] == 0
    assert all(grams.counts[t] == 1 for t in "abcd")


@pytest.mark.parametrize("unigrams", [False, True])
def test_one_token_text_gives_no_unit(unigrams: bool) -> None:
    # for (i = 0; i < $#tokens; i++) with $#tokens = 0: the loop never runs.
    assert skip_bigrams(["a"], -1, unigrams) == Grams(Counter(), 0)
    assert skip_bigrams([], 4, unigrams) == Grams(Counter(), 0)


def test_two_tokens_with_unigrams() -> None:
    # i = 0 only: unigram a and pair (a b); b's unigram is never added.
    grams = skip_bigrams(["a", "b"], 4, True)
    assert grams.total == 2
    assert grams.counts == Counter({"a": 1, ("a", "b"): 1})


def test_repeated_tokens() -> None:
    # a a a, no limit: pairs (0,1) (0,2) (1,2) all "a a" = 3; unigrams at i = 0, 1 = 2.
    grams = skip_bigrams(["a", "a", "a"], -1, True)
    assert grams.total == 5
    assert grams.counts == Counter({("a", "a"): 3, "a": 2})


def test_fractional_distance_compares_numerically() -> None:
    # The Perl tests j <= i + 1.5 + 1, i.e. j <= i + 2: the same units as distance 1.
    assert skip_bigrams(FIVE, 1.5, True) == skip_bigrams(FIVE, 1, True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abc"), max_size=10), st.integers(-2, 5), st.booleans())
def test_skip_bigram_total_is_the_number_of_units(tokens: list[str], distance: int, unigrams: bool) -> None:
    grams = skip_bigrams(tokens, distance, unigrams)
    n = len(tokens)
    pairs = sum(1 for i in range(n - 1) for j in range(i + 1, n) if distance < 0 or j <= i + distance + 1)
    assert grams.total == pairs + (max(n - 1, 0) if unigrams else 0)
    assert grams.total == sum(grams.counts.values())


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from("abcd"), max_size=40),
    st.lists(st.sampled_from("abce"), max_size=12),
    st.sampled_from([-1, 0, 1, 1.5, 4, 1e19]),
    st.booleans(),
)
def test_skip_bigram_pair_path_is_the_definition(
    long: list[str], short: list[str], distance: float, unigrams: bool
) -> None:
    """The pair path without the kernel (a text too long to hold its units) counts what the
    definition counts, either text the longer."""
    metric = SkipBigram(distance, str(distance), unigrams)
    for peer, model in ((long, short), (short, long)):
        model_units, peer_units = (skip_bigrams(text, distance, unigrams) for text in (model, peer))
        expected = score_grams(model_units, peer_units)
        assert metric.long_counts(peer, model) == expected
        assert skip_bigram_hits(peer, model, metric.reach, unigrams) == expected.hit
        assert skip_bigram_total(len(peer), metric.reach, unigrams) == expected.peer_count


# ---------------------------------------------------------------------------
# ROUGE-L: marks, tie-breaks, union LCS, clipping
# ---------------------------------------------------------------------------


def _marks(model: list[str], peer: list[str]) -> list[bool]:
    mask = [False] * len(model)
    lcs_marks(model, peer, mask)
    return mask


def test_tie_goes_up_when_above_equals_left() -> None:
    # model a b, peer b a. DP (rows model, columns peer):
    #   c[1][1]=0 (a/b, up), c[1][2]=1 (a/a, diag), c[2][1]=1 (b/b, diag), c[2][2]: b/a,
    #   above c[1][2]=1 >= left c[2][1]=1 -> up.
    # Backtrack from (2,2): up to (1,2), a == a: diagonal, marks model position 0.
    assert _marks(["a", "b"], ["b", "a"]) == [True, False]


def test_diagonal_taken_on_equal_tokens() -> None:
    # model a a, peer a: at (2,1) the tokens are equal, so the backtrack goes diagonal
    # at once and marks the LAST a, not the first.
    assert _marks(["a", "a"], ["a"]) == [False, True]


def test_lcs_marks_accumulate_into_the_mask() -> None:
    mask = [False, False, True]
    lcs_marks(["a", "b", "c"], ["a"], mask)
    assert mask == [True, False, True]
    lcs_marks(["a", "b", "c"], [], mask)  # an empty peer sentence marks nothing
    assert mask == [True, False, True]


def test_lcs_backtrack_choice_between_equal_length_subsequences() -> None:
    # model x y a b, peer a b x z y: "x y" and "a b" are both LCSs of length 2.
    # Rows of c (columns a b x z y):
    #   x: 0 0 1 1 1    y: 0 0 1 1 2    a: 1 1 1 1 2    b: 1 2 2 2 2
    # Backtrack (4,5): b/y up (2 >= 2), (3,5): a/y up (2 >= 1), (2,5): y == y mark 1,
    # (1,4): x/z left (0 < 1), (1,3): x == x mark 0.  So x y is marked.
    assert _marks(["x", "y", "a", "b"], ["a", "b", "x", "z", "y"]) == [True, True, False, False]


def _text(
    sentences: list[list[str]],
    vocabulary: Optional[Vocabulary],
    unigrams: Optional[list[str]] = None,
) -> LcsText:
    tokens = [t for s in sentences for t in s] if unigrams is None else unigrams
    return LcsText(sentences, Counter(tokens), len(tokens), vocabulary)


@pytest.fixture(
    params=[
        pytest.param(False, id="python"),
        pytest.param(
            True,
            id="kernel",
            marks=pytest.mark.skipif(not kernel_available(), reason="C kernel not built"),
        ),
    ]
)
def make_texts(request: pytest.FixtureRequest):
    """Builds (model, peer) LcsTexts for the pure-Python path or the C kernel."""

    def make(model, peer, model_unigrams=None, peer_unigrams=None):
        vocab = Vocabulary() if request.param else None
        return _text(model, vocab, model_unigrams), _text(peer, vocab, peer_unigrams)

    return make


def test_union_lcs_example_of_the_rouge_paper(make_texts) -> None:
    # r = w1 w2 w3 w4 w5; c1 = w1 w2 w6 w7 w8; c2 = w1 w3 w8 w9 w5.
    # LCS(r, c1) = w1 w2, LCS(r, c2) = w1 w3 w5; their union marks w1 w2 w3 w5: 4 of 5.
    # Budgets: every model token once, the peer has w1 twice: all 4 marks count.
    model, peer = make_texts(
        [["w1", "w2", "w3", "w4", "w5"]],
        [["w1", "w2", "w6", "w7", "w8"], ["w1", "w3", "w8", "w9", "w5"]],
    )
    counts = score_lcs(model, peer)
    assert (counts.hit, counts.model_count, counts.peer_count) == (4, 5, 10)
    assert Fraction(counts.hit, counts.model_count) == Fraction(4, 5)  # R_lcs
    assert Fraction(counts.hit, counts.peer_count) == Fraction(2, 5)  # P_lcs = 4/10
    assert counts.score == 0.8  # -f B compares hit/base unrounded


def test_union_hits_are_clipped_by_unigram_budgets(make_texts) -> None:
    # Model sentences "a b" and "a c"; one peer sentence "a b c".
    # Sentence 1 marks a, b: both counted (peer budget a: 1 -> 0).
    # Sentence 2 marks a, c: a is marked again but the peer has only one a left -> 0,
    # so only c counts. hit = 3 (not 4), base = 4 model tokens, peer count = 3.
    model, peer = make_texts([["a", "b"], ["a", "c"]], [["a", "b", "c"]])
    counts = score_lcs(model, peer)
    assert (counts.hit, counts.model_count, counts.peer_count) == (3, 4, 3)
    assert Fraction(counts.hit, counts.model_count) == Fraction(3, 4)


def test_model_budget_also_clips(make_texts) -> None:
    # Model "a a" (one sentence) but the n-gram reader's text has a single a:
    # peer "a a" marks both positions, only the first is counted.
    model, peer = make_texts([["a", "a"]], [["a", "a"]], model_unigrams=["a"])
    assert score_lcs(model, peer).hit == 1


def test_peer_budget_is_renewed_for_every_model(make_texts) -> None:
    # %tmp_peer_1grams = %peer_1grams is copied before each model: scoring the same
    # peer twice gives the same hits.
    model, peer = make_texts([["a", "b"]], [["a", "b"]])
    first = score_lcs(model, peer)
    assert score_lcs(model, peer) == first
    assert first.hit == 2


def test_empty_model_scores_zero_for_rouge_l(make_texts) -> None:
    model, peer = make_texts([], [["a"]])
    assert score_lcs(model, peer) == ModelCounts(0, 0, 1, 0.0)


# ---------------------------------------------------------------------------
# ROUGE-W
# ---------------------------------------------------------------------------


def test_wlcs_prefers_consecutive_matches() -> None:
    # Same texts as the LCS tie case above, weight 2 (f(k) = k*k). The WLCS cells:
    #   row b, column b: a matched a with run 1 at c[3][1] = 1, so c = 1 + f(2) - f(1) = 4,
    #   which beats the two separate hits x, y (1 + 1 = 2) and is carried to (4,5).
    # Backtrack: left, left, left to (4,2), diag marks b, diag marks a.
    mask = [False] * 4
    lcs_marks(["x", "y", "a", "b"], ["a", "b", "x", "z", "y"], mask, 2.0)
    assert mask == [False, False, True, True]


def test_wlcs_weights_a_run_and_applies_the_weight_twice_to_the_base(make_texts) -> None:
    # Model "a b c d", peer "a b c", w = 2: one run of 3 -> hit = 3**2 = 9.
    # wlcs: base = 4**2 = 16; computeWLCSScore adds wlcsWeight(base) = 16**2 = 256.
    # Peer count: wlcsWeight(3 peer unigrams) = 3**2 = 9.  Score (9/16)**(1/2) = 3/4.
    model, peer = make_texts([["a", "b", "c", "d"]], [["a", "b", "c"]])
    counts = score_wlcs(model, peer, 2.0, "model")
    assert Fraction(counts.hit) == 9
    assert Fraction(counts.model_count) == 256
    assert Fraction(counts.peer_count) == 9
    assert counts.score == 0.75


def test_wlcs_two_runs(make_texts) -> None:
    # Model "a b c d e", peer "a b x d e": runs a b and d e -> 2**2 + 2**2 = 8.
    # base = 5**2 = 25 -> model count 25**2 = 625; peer 5 tokens -> 25.
    model, peer = make_texts([["a", "b", "c", "d", "e"]], [["a", "b", "x", "d", "e"]])
    counts = score_wlcs(model, peer, 2.0, "model")
    assert (Fraction(counts.hit), Fraction(counts.model_count), Fraction(counts.peer_count)) == (8, 625, 25)
    assert counts.score == (8 / 25) ** 0.5


def test_wlcs_runs_follow_model_positions_of_the_union(make_texts) -> None:
    # Model "a b"; peer sentences "a" and "b": each marks one position, the union
    # marks both, and wlcs weighs runs of adjacent MODEL positions: one run of 2 -> 4.
    model, peer = make_texts([["a", "b"]], [["a"], ["b"]])
    assert Fraction(score_wlcs(model, peer, 2.0, "model").hit) == 4


def test_wlcs_base_sums_weighted_sentence_lengths(make_texts) -> None:
    # Two model sentences of 2 and 3 tokens: base = 2**2 + 3**2 = 13, model count 13**2 = 169.
    # Peer "c d e": marks c d e in sentence 2, a run of 3 -> 9.
    model, peer = make_texts([["a", "b"], ["c", "d", "e"]], [["c", "d", "e"]])
    counts = score_wlcs(model, peer, 2.0, "model")
    assert (Fraction(counts.hit), Fraction(counts.model_count), Fraction(counts.peer_count)) == (9, 169, 9)


def test_wlcs_run_is_lost_when_its_last_mark_fails_the_budget(make_texts) -> None:
    # Model "a b", peer "a b", but the peer's unigram budget has no b.
    # j = 0: a counts, hitLen = 1; hitMask[1] is 1, so the run is not closed yet.
    # j = 1: b is marked but fails the budget: nothing happens, and the run of 1 is
    # never added. ROUGE-W hit = 0 while ROUGE-L counts a.
    model, peer = make_texts([["a", "b"]], [["a", "b"]], peer_unigrams=["a"])
    assert score_wlcs(model, peer, 2.0, "model").hit == 0
    assert score_lcs(model, peer).hit == 1


def test_wlcs_run_continues_across_a_marked_position_without_budget(make_texts) -> None:
    # Model "a b c", peer "a b c", peer budget a, c only: a counts (run 1), b is marked
    # but not counted (the run stays open since hitMask[2] = 1), c counts: run 2 at the
    # end of the sentence -> 2**2 = 4, not 1 + 1.
    model, peer = make_texts([["a", "b", "c"]], [["a", "b", "c"]], peer_unigrams=["a", "c"])
    assert Fraction(score_wlcs(model, peer, 2.0, "model").hit) == 4


@pytest.mark.parametrize("model_sentences", [[], [[]]])
def test_wlcs_empty_model_divides_by_zero(make_texts, model_sentences) -> None:
    # wlcs computes $$hit / $$base with base = 0: the Perl dies.
    model, peer = make_texts(model_sentences, [["a"]])
    with pytest.raises(ComputeError):
        score_wlcs(model, peer, 1.2, "model.spl")


# ---------------------------------------------------------------------------
# ROUGE-BE
# ---------------------------------------------------------------------------

LINES = ["Dog|nil|nil", "dog|big|mod", "cat|NIL|subj", "cat|small|nil"]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        # H: modifier is nil -> heads dog (line 1), cat (line 3).
        ("H", {"dog": 1, "cat": 1}),
        # HM: modifier not nil.
        ("HM", {"dog|big": 1, "cat|small": 1}),
        # HMR: relation not nil.
        ("HMR", {"dog|big|mod": 1, "cat|nil|subj": 1}),
        # HM1: every line, as head|modifier.
        ("HM1", {"dog|nil": 1, "dog|big": 1, "cat|nil": 1, "cat|small": 1}),
        # HMR1: modifier not nil, relation may be nil.
        ("HMR1", {"dog|big|mod": 1, "cat|small|nil": 1}),
        # HMR2: every line, as the whole triple.
        ("HMR2", {"dog|nil|nil": 1, "dog|big|mod": 1, "cat|nil|subj": 1, "cat|small|nil": 1}),
    ],
)
def test_be_modes(mode: str, expected: dict[str, int]) -> None:
    # Lines are lowercased first (Dog -> dog, NIL -> nil).
    grams = basic_elements(LINES, mode, None, "be")
    assert grams.counts == Counter(expected)
    assert grams.total == sum(expected.values())


def test_be_modes_are_the_six_of_the_perl() -> None:
    assert BE_MODES == ("H", "HM", "HMR", "HM1", "HMR1", "HMR2")


def test_be_unknown_mode_selects_nothing() -> None:
    # createBE has no branch for another mode: only _cn_ = 0 is set.
    assert basic_elements(LINES, "XYZ", None, "be") == Grams(Counter(), 0)


def test_be_repeated_triples_count() -> None:
    grams = basic_elements(["a|b|c", "A|B|C", "a|b|d"], "HM", None, "be")
    assert grams.counts == Counter({"a|b": 3})
    assert grams.total == 3


@pytest.mark.parametrize("line", ["a|b|c||", "a|b|c|", "|b|c", "a||c"])
def test_be_trailing_empty_fields_are_dropped(line: str) -> None:
    # Perl split drops trailing empty fields only: all of these have 3 fields.
    grams = basic_elements([line], "HMR2", None, "be")
    assert grams.total == 1


@pytest.mark.parametrize("line", ["a|b", "a|b|c|d", "", "||", "abc"])
def test_be_wrong_field_count_is_an_error(line: str) -> None:
    # "||" splits to nothing; "" too: not 3 fields, the Perl dies.
    with pytest.raises(InputError):
        basic_elements(["x|y|z", line], "HMR2", None, "be")


def test_be_count_key_quirk() -> None:
    # createBE counts a BE whose key is "_cn_" by incrementing $BEMap{"_cn_"} (the total)
    # and then increments it again as the unit count: total 2 + 1 (dog) = 3, and the
    # key itself is never a unit (getBEScore skips "_cn_").
    grams = basic_elements(["_CN_|nil|r", "dog|nil|r"], "H", None, "be")
    assert grams.total == 3
    assert grams.counts == Counter({"dog": 1})


def _fake_stem(word: str) -> str:
    return {"nils": "nil"}.get(word, f"<{word}>")


def test_be_stemming_applies_to_long_heads_and_modifiers() -> None:
    # Head and modifier are stemmed only when longer than 3 bytes; every word of a
    # stemmed phrase is stemmed, whatever its own length ("big" inside "big dogs").
    # The relation is never stemmed.
    grams = basic_elements(["big dogs|runs|subjects", "cat|red|nil"], "HMR2", _fake_stem, "be")
    assert grams.counts == Counter({"<big> <dogs>|<runs>|subjects": 1, "cat|red|nil": 1})


def test_be_stemming_skips_words_without_letters_or_digits() -> None:
    # MorphStemMulti leaves words with no [A-Za-z0-9] alone. Its -LRB- test is upper case
    # but runs on the lowercased line, so "-lrb-" IS stemmed.
    grams = basic_elements(["-LRB- ... word|nil|r"], "H", _fake_stem, "be")
    assert grams.counts == Counter({"<-lrb-> ... <word>": 1})


def test_be_stemmed_modifier_decides_nil_for_h_but_not_for_hmr1() -> None:
    # H and HM test the STEMMED modifier; HMR1 tests the raw field.
    # "nils" stems to "nil" here.
    assert basic_elements(["dog|nils|r"], "H", _fake_stem, "be").counts == Counter({"dog": 1})
    assert basic_elements(["dog|nils|r"], "HM", _fake_stem, "be").total == 0
    assert basic_elements(["dog|nils|r"], "HMR1", _fake_stem, "be").counts == Counter({"dog|nil|r": 1})


def test_be_scores_clip_like_ngrams() -> None:
    # model: dog|big twice, cat|small once; peer: dog|big once, cat|small twice.
    # hits: min(2, 1) + min(1, 2) = 2; model total 3 -> recall 0.66667.
    model = basic_elements(["dog|big|m", "dog|big|m", "cat|small|m"], "HM", None, "m")
    peer = basic_elements(["dog|big|m", "cat|small|m", "cat|small|x"], "HM", None, "p")
    counts = score_grams(model, peer)
    assert counts == ModelCounts(2, 3, 3)
    assert rounded_ratio(counts.hit, counts.model_count) == 0.66667


# ---------------------------------------------------------------------------
# score_pair: one peer and one model given as tokens
# ---------------------------------------------------------------------------

SEVEN = [*FIVE, "f", "g"]
# Sentences of words the Perl's tokenizer keeps as they are; a text of up to five.
token_sentences = st.lists(st.lists(st.sampled_from(SEVEN), min_size=1, max_size=8), max_size=5)


@contextmanager
def _pure_path(kernel: bool) -> Iterator[None]:
    """The metrics with the C kernel (when built), or forced onto the pure-Python path."""
    with pytest.MonkeyPatch.context() as patch:
        if not kernel:
            patch.setattr(_kernel, "accel", None)
        yield


def _flat(sentences: list[list[str]]) -> list[str]:
    return [t for s in sentences for t in s]


def _lines(sentences: list[list[str]]) -> str:
    """A summary as rouge155py.score takes it: one line per sentence."""
    return "\n".join(" ".join(s) for s in sentences)


def _definition_text(sentences: list[list[str]]) -> LcsText:
    """The pure-Python LCS view of a text (no vocabulary: no kernel)."""
    tokens = _flat(sentences)
    return LcsText(sentences, Counter(tokens), len(tokens))


def _unit_metrics() -> list[tuple[Metric, Callable[[list[str]], Grams]]]:
    """ROUGE-N and ROUGE-S metrics, each with its plain definition."""
    out: list[tuple[Metric, Callable[[list[str]], Grams]]] = [
        (NGram(n), lambda tokens, n=n: ngrams(tokens, n)) for n in (1, 2, 3, 4)
    ]
    for distance, unigrams in [(4, False), (4, True), (0, False), (-1, True)]:
        out.append(
            (
                SkipBigram(distance, str(distance), unigrams),
                lambda tokens, d=distance, u=unigrams: skip_bigrams(tokens, d, u),
            )
        )
    return out


@pytest.mark.parametrize("kernel", [pytest.param(True, id="kernel"), pytest.param(False, id="python")])
@settings(max_examples=150, deadline=None)
@given(peer=token_sentences, model=token_sentences)
def test_score_pair_is_the_plain_definition(
    kernel: bool, peer: list[list[str]], model: list[list[str]]
) -> None:
    """ROUGE-N and ROUGE-S: clipped units of the definitions; ROUGE-L and ROUGE-W: the Python LCS."""
    with _pure_path(kernel):
        for metric, units in _unit_metrics():
            found = metric.score_pair(_flat(peer), _flat(model))
            assert found == score_grams(units(_flat(model)), units(_flat(peer)))
        assert Lcs().score_pair(peer, model) == score_lcs(_definition_text(model), _definition_text(peer))
        if _flat(model):
            found = WeightedLcs(1.2, "1.2").score_pair(peer, model)
            assert found == score_wlcs(_definition_text(model), _definition_text(peer), 1.2, "m")


@pytest.mark.parametrize("kernel", [pytest.param(True, id="kernel"), pytest.param(False, id="python")])
@settings(max_examples=8, deadline=None)
@given(st.lists(st.tuples(token_sentences, token_sentences.filter(any)), min_size=25, max_size=50))
def test_score_pair_gives_the_counts_of_a_run(kernel: bool, pairs: list[tuple]) -> None:
    """Per item, score_pair's counts are the instance's counts of rouge155py.score (-t 1, one model)."""
    report = rouge155py.score(
        [_lines(peer) for peer, _ in pairs],
        [_lines(model) for _, model in pairs],
        max_ngram=4,
        wlcs_weight=1.2,
        skip_distance=4,
        skip_both=True,
        counting=1,
        resamples=1,
    )
    metrics = [m for m, _ in _unit_metrics()[:6]] + [Lcs(), WeightedLcs(1.2, "1.2")]
    with _pure_path(kernel):
        for metric in metrics:
            rows = report.result(metric.label).instances
            for item, (peer, model) in enumerate(pairs, start=1):
                flat = not isinstance(metric, (Lcs, WeightedLcs))
                found = metric.score_pair(_flat(peer) if flat else peer, _flat(model) if flat else model)
                assert (found.model_count, found.peer_count, found.hit) == rows[f"{item}.1"], metric.label


be_lines = st.lists(
    st.tuples(*(st.sampled_from(["dog", "Cat", "nil", "big", "x"]),) * 3).map("|".join), max_size=6
)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.tuples(be_lines, be_lines), min_size=10, max_size=30), st.sampled_from(BE_MODES))
def test_be_score_pair_gives_the_counts_of_a_run(pairs: list[tuple], mode: str) -> None:
    """ROUGE-BE: BE lines as the reader gives them; the counts of rouge155py.score and of the definition."""
    report = rouge155py.score(
        ["\n".join(peer) for peer, _ in pairs],
        ["\n".join(model) for _, model in pairs],
        be_mode=mode,
        counting=1,
        resamples=1,
    )
    metric = BasicElements(mode)
    rows = report.result(metric.label).instances
    for item, (peer, model) in enumerate(pairs, start=1):
        found = metric.score_pair(peer, model)
        assert found == score_grams(
            basic_elements(model, mode, None, "m"), basic_elements(peer, mode, None, "p")
        )
        assert (found.model_count, found.peer_count, found.hit) == rows[f"{item}.1"]


def test_score_pair_takes_a_flat_list_as_one_sentence() -> None:
    assert Lcs().score_pair(["a", "b", "c"], ["a", "c"]) == Lcs().score_pair([["a", "b", "c"]], [["a", "c"]])
    assert Lcs().score_pair([("a", "b")], [["a"], ("b",)]) == Lcs().score_pair([["a", "b"]], [["a"], ["b"]])


def test_score_pair_refuses_sentences_mixed_with_tokens() -> None:
    with pytest.raises(UsageError, match="the peer given mixes sentences"):
        Lcs().score_pair([["a"], "b"], ["a"])


@pytest.mark.parametrize(
    "metric", [NGram(1), SkipBigram(4, "4", False), Lcs(), WeightedLcs(1.2, "1.2"), BasicElements("HM")]
)
def test_score_pair_refuses_a_string_for_a_list(metric: Metric) -> None:
    """A string's items are its characters: refused, not counted as tokens."""
    with pytest.raises(UsageError, match="the model given is a str; expected a list"):
        metric.score_pair(["a|b|c"], "a|b|c")


def test_score_pair_of_an_empty_rouge_w_model_divides_by_zero() -> None:
    with pytest.raises(ComputeError, match="the model given has no tokens"):
        WeightedLcs(1.2, "1.2").score_pair(["a"], [])


def test_score_pair_refuses_an_lcs_table_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lcs_module, "MAX_LCS_CELLS", 5)
    with pytest.raises(LimitError, match="a sentence of 3 tokens in the model given against one of 2 tokens"):
        Lcs().score_pair(["a", "b"], ["a", "b", "c"])
