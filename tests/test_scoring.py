"""Hand-worked cases for combining models (-f) and turning counts into R, P, F (-p)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rouge155py.metrics import ModelCounts, rounded_ratio
from rouge155py.metrics.scoring import (
    Totals,
    combine_models,
    f_measure,
    fmt5,
    instance_scores,
    ratio,
    rounded,
)

# Three models of one instance: (hit, model count, peer count, -f B score).
MODELS = [
    ModelCounts(hit=2, model_count=8, peer_count=6, score=0.25),
    ModelCounts(hit=3, model_count=5, peer_count=6, score=0.6),
    ModelCounts(hit=1, model_count=4, peer_count=6, score=0.25),
]


def test_model_average_sums_every_count() -> None:
    # -f A: hits 2 + 3 + 1 = 6, model counts 8 + 5 + 4 = 17, peer counts 6 * 3 = 18.
    assert combine_models(MODELS, best_model=False) == Totals(model_count=17, peer_count=18, hit=6)


def test_best_model_keeps_the_highest_score() -> None:
    # -f B: 0.6 (the second model) beats 0.25.
    assert combine_models(MODELS, best_model=True) == Totals(model_count=5, peer_count=6, hit=3)


def test_best_model_tie_keeps_the_first() -> None:
    # $gramScore > $gramScoreBest is strict: the third model (also 0.25) does not replace
    # the first.
    tied = [MODELS[0], MODELS[2]]
    assert combine_models(tied, best_model=True) == Totals(model_count=8, peer_count=6, hit=2)
    assert combine_models(tied[::-1], best_model=True) == Totals(model_count=4, peer_count=6, hit=1)


def test_best_model_compares_rounded_recalls() -> None:
    # For ROUGE-N, -S and -BE the -f B score is sprintf("%07.5f"): 33333/100000 and 1/3
    # both read 0.33333, so the first model stays although 1/3 is larger.
    first = ModelCounts(33333, 100000, 9, rounded_ratio(33333, 100000))
    second = ModelCounts(1, 3, 9, rounded_ratio(1, 3))
    assert first.score == second.score == 0.33333
    assert combine_models([first, second], best_model=True) == Totals(100000, 9, 33333)


def test_best_model_starts_below_zero() -> None:
    # $gramScoreBest starts at -1, so a first model scoring 0 is taken.
    zero = [ModelCounts(0, 7, 3, 0.0), ModelCounts(0, 2, 3, 0.0)]
    assert combine_models(zero, best_model=True) == Totals(model_count=7, peer_count=3, hit=0)


def test_no_model_gives_zero_totals() -> None:
    assert combine_models([], best_model=False) == Totals(0, 0, 0)
    assert combine_models([], best_model=True) == Totals(0, 0, 0)


def test_combine_keeps_float_counts() -> None:
    # ROUGE-W counts are floats (weighted lengths): summed as they are.
    models = [ModelCounts(1.5, 4.0, 2.25, 0.5), ModelCounts(0.5, 9.0, 2.25, 0.2)]
    assert combine_models(models, best_model=False) == Totals(13.0, 4.5, 2.0)


def test_instance_scores_balanced() -> None:
    # hit 3, model 4, peer 6: R = 3/4 = 0.75000, P = 3/6 = 0.50000,
    # F (alpha 0.5) = P*R / (0.5 P + 0.5 R) = 0.375 / 0.625 = 0.6.
    assert instance_scores(Totals(4, 6, 3), 0.5) == (0.75, 0.5, 0.6)


def test_f_is_computed_from_the_rounded_p_and_r() -> None:
    # hit 1, model 1, peer 6: R = 1.00000, P = 1/6 -> "0.16667".
    # From the exact values F = 2 * (1/6) / (7/6) = 2/7 = 0.285714... -> 0.28571, but the
    # Perl uses the rounded strings: 2 * 0.16667 / 1.16667 = 33334/116667 = 0.2857192... -> 0.28572.
    r, p, f = instance_scores(Totals(1, 6, 1), 0.5)
    assert (r, p) == (1.0, 0.16667)
    assert Fraction(33334, 116667) > Fraction(285715, 1000000)  # so it rounds up to 0.28572
    assert f == 0.28572


@pytest.mark.parametrize(("alpha", "expected_f"), [(0.0, 0.75), (1.0, 0.5), (0.5, 0.6)])
def test_alpha_weighs_precision_against_recall(alpha: float, expected_f: float) -> None:
    # F = P R / ((1 - alpha) P + alpha R): alpha 0 gives R, alpha 1 gives P.
    assert instance_scores(Totals(4, 6, 3), alpha)[2] == expected_f


def test_zero_counts_give_zero_scores() -> None:
    assert instance_scores(Totals(0, 0, 0), 0.5) == (0.0, 0.0, 0.0)
    # No peer units: P = 0, and F = 0 since P R = 0.
    assert instance_scores(Totals(4, 0, 0), 0.5) == (0.0, 0.0, 0.0)


def test_zero_precision_with_alpha_zero_gives_zero_f() -> None:
    # Model count 2 with 1 hit gives R = 0.5, no peer units gives P = 0.
    # alpha 0: the denominator is (1 - 0) * 0 + 0 * 0.5 = 0, not > 0, so F = 0 (not R).
    assert instance_scores(Totals(2, 0, 1), 0.0) == (0.5, 0.0, 0.0)


def test_power_is_applied_before_rounding() -> None:
    # ROUGE-W with w = 2: R = (hit / count) ** (1/2) = (9/16) ** 0.5 = 0.75,
    # P = (9/36) ** 0.5 = 0.5, F = 0.6.
    assert instance_scores(Totals(16.0, 36.0, 9.0), 0.5, power=0.5) == (0.75, 0.5, 0.6)


def test_fmt5_is_seven_wide() -> None:
    assert fmt5(0.5) == "0.50000"
    assert fmt5(0) == "0.00000"
    assert fmt5(1 / 3) == "0.33333"
    assert fmt5(12.345678) == "12.34568"


@given(
    st.floats(0, 1e6, allow_nan=False)
    | st.integers(0, 2**20).map(lambda k: (2 * k + 1) / 2**21)  # exact binary ties at the 6th decimal
    | st.integers(0, 10**7).map(lambda k: k / 10**7 + 5e-6)  # halfway as written, not exactly
    | st.sampled_from([0.0, -0.0, 0.125, 2.5e-6, 7.5e-6, math.inf, -math.inf])
)
def test_rounded_is_the_printed_value_read_back(value: float) -> None:
    """rounded() (round to 5 decimals) keeps exactly what sprintf("%7.5f") prints."""
    expected = float(fmt5(value))
    assert rounded(value) == expected and math.copysign(1, rounded(value)) == math.copysign(1, expected)


def test_ratio_of_scalars() -> None:
    assert ratio(3, 4) == 0.75
    assert ratio(3, 0) == 0.0
    assert ratio(3, -1) == 0.0  # only a positive count divides


def test_f_measure_scalars() -> None:
    # P = 0.5, R = 0.75, alpha 0.5: 0.375 / 0.625 = 0.6.
    assert f_measure(0.5, 0.75, 0.5) == pytest.approx(0.6, abs=1e-15)
    assert f_measure(0.0, 0.0, 0.5) == 0.0
    assert f_measure(0.5, 0.75, 0.0) == 0.75
    assert f_measure(0.5, 0.75, 1.0) == 0.5


@given(st.floats(min_value=1e-6, max_value=1.0), st.floats(min_value=0.0, max_value=1.0))
def test_f_measure_of_equal_p_and_r_is_that_value(x: float, alpha: float) -> None:
    assert math.isclose(f_measure(x, x, alpha), x, rel_tol=1e-12)


@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.sampled_from([0.0, 0.3, 0.5, 1.0]))
def test_f_lies_between_p_and_r(hit: int, model: int, peer: int, alpha: float) -> None:
    r, p, f = instance_scores(Totals(model, peer, min(hit, model, peer)), alpha)
    if p > 0 and r > 0:
        assert min(p, r) - 1e-5 <= f <= max(p, r) + 1e-5
    else:
        assert f == 0.0  # P R = 0, or the denominator is 0
