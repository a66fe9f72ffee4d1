"""Paired significance between systems: exact against brute force, seeded, Holm by hand."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from rouge155py import ComputeError, UsageError, evaluate_args, score
from rouge155py.stats.scores import item_scores
from rouge155py.stats.significance import (
    CompareSettings,
    bootstrap_differences,
    compare,
    compare_items,
    holm,
    permutation_p_values,
)

CONFIG = ["-e", "data", "-a", "-n", "2", "-r", "20", "examples/duc-mini/rouge-config.xml"]


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return evaluate_args(CONFIG)


def brute_force_p(a: list[int], b: list[int]) -> Fraction:
    """Two-sided exact permutation p-value: every way of swapping the two scores of each item."""
    observed = abs(sum(a) - sum(b))
    at_least = 0
    for swaps in itertools.product((False, True), repeat=len(a)):
        left = sum(y if s else x for x, y, s in zip(a, b, swaps))
        right = sum(x if s else y for x, y, s in zip(a, b, swaps))
        at_least += abs(left - right) >= observed
    return Fraction(at_least, 2 ** len(a))


def test_exact_permutation_equals_brute_force_on_small_cases() -> None:
    rng = np.random.default_rng(7)
    cases = 0
    for n in range(1, 11):
        for _ in range(30):
            # Scores in units of 1e-5 from a few values, so that ties and equal sums are common.
            a = [int(v) for v in rng.choice([0, 25000, 33333, 50000, 66667, 100000], size=n)]
            b = [int(v) for v in rng.choice([0, 25000, 33333, 50000, 66667, 100000], size=n)]
            d = np.array([[x - y] for x, y in zip(a, b)], dtype=np.float64)
            p, exact = permutation_p_values(d, samples=2**n, seed=1)
            assert exact
            assert Fraction(float(p[0])) == brute_force_p(a, b), (a, b)
            cases += 1
    assert cases == 300


def test_monte_carlo_permutation_is_near_the_exact_p_value() -> None:
    rng = np.random.default_rng(11)
    for _ in range(5):
        a = [int(v) for v in rng.integers(0, 100000, size=14)]
        b = [int(v) + int(d) for v, d in zip(a, rng.integers(-20000, 26000, size=14))]
        exact = float(brute_force_p(a, b))
        d = np.array([[x - y] for x, y in zip(a, b)], dtype=np.float64)
        p, was_exact = permutation_p_values(d, samples=4000, seed=3)
        assert not was_exact
        error = math.sqrt(exact * (1 - exact) / 4000)
        assert abs(float(p[0]) - exact) <= 5 * error + 1 / 4001


def test_bootstrap_differences_are_the_means_of_the_drawn_items() -> None:
    table = np.array([[1.0, 5.0, 2.0, 7.0, 3.0], [2.0, 2.0, 2.0, 2.0, 9.0], [0.0, 1.0, 0.0, 1.0, 0.0]])
    drawn = bootstrap_differences(table, [(0, 1), (2, 0)], samples=50, seed=4)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([4, 0])))
    indices = rng.integers(0, 5, size=(50, 5))
    for k, picked in enumerate(indices):
        assert drawn[0, k] == pytest.approx(np.mean(table[0, picked] - table[1, picked]), abs=1e-12)
        assert drawn[1, k] == pytest.approx(np.mean(table[2, picked] - table[0, picked]), abs=1e-12)


def test_holm_by_hand() -> None:
    # sorted: 0.01 x 4 = 0.04; 0.02 x 3 = 0.06; 0.03 x 2 = 0.06 (kept monotone); 0.5 x 1.
    assert holm([0.03, 0.5, 0.01, 0.02]) == pytest.approx([0.06, 0.5, 0.04, 0.06])
    assert holm([0.4, 0.4]) == [0.8, 0.8]
    assert holm([0.9, 0.6]) == [1.0, 1.0]
    assert holm([]) == []


def test_report_comparisons_use_the_rounded_instance_scores(report) -> None:  # type: ignore[no-untyped-def]
    found = compare(report, baseline="3", measure="R", samples=2000, seed=5)
    scores = item_scores(report, "recall")
    assert {(row.metric, row.system) for row in found.rows} == {
        (m, s) for m in ("ROUGE-1", "ROUGE-2", "ROUGE-L") for s in ("1", "2")
    }
    for row in found.rows:
        mine, base = scores[row.metric][row.system], scores[row.metric]["3"]
        assert row.items == len(mine) == 10
        assert row.mean == pytest.approx(sum(mine.values()) / 10, abs=1e-12)
        assert row.difference == pytest.approx(row.mean - sum(base.values()) / 10, abs=1e-12)
        assert row.low <= row.difference <= row.high
        assert 0 < row.p_value <= row.p_holm <= 1
    again = compare(report, baseline="3", measure="R", samples=2000, seed=5)
    assert again.rows == found.rows
    other = compare(report, baseline="3", measure="R", samples=2000, seed=6)
    assert [r.low for r in other.rows] != [r.low for r in found.rows]
    assert "seed:5" in found.signature and "test:paired-bootstrap" in found.signature


def test_a_subset_of_metrics_gives_the_same_numbers(report) -> None:  # type: ignore[no-untyped-def]
    whole = compare(report, test="permutation", samples=500, seed=9)
    part = compare(report, test="permutation", metrics=["ROUGE-2"], samples=500, seed=9)
    assert part.rows == [row for row in whole.rows if row.metric == "ROUGE-2"]
    assert all(row.exact is False for row in whole.rows)  # 2^10 > 500 swaps


def test_all_pairs_are_each_pair_once(report) -> None:  # type: ignore[no-untyped-def]
    found = compare(report, metrics=["ROUGE-1"], samples=200)
    assert [(r.system, r.other) for r in found.rows] == [("1", "2"), ("1", "3"), ("2", "3")]


def test_identical_systems_are_not_different() -> None:
    scores = {"M": {"a": {"1": 0.5, "2": 0.25, "3": 1.0}, "b": {"1": 0.5, "2": 0.25, "3": 1.0}}}
    for test in ("paired-bootstrap", "permutation"):
        (row,) = compare_items(scores, settings=CompareSettings(test, samples=100)).rows
        assert row.difference == 0 and row.p_value == 1 and row.low == row.high == 0


def test_missing_items_are_left_out_with_a_warning() -> None:
    scores = {"M": {"a": {"1": 0.5, "2": 0.25, "3": 1.0}, "b": {"1": 0.25, "2": 0.0}}}
    found = compare_items(scores, settings=CompareSettings(samples=100))
    assert found.rows[0].items == 2
    assert found.warnings == ["M: 1 scores left out: 2 items are scored for every system"]


def test_errors() -> None:
    one = score(["a b c"], ["a b d"], max_ngram=1, resamples=5)
    with pytest.raises(ComputeError, match="a comparison needs two or more"):
        compare(one)
    two = score({"x": ["a b c"], "y": ["a c"]}, ["a b d"], max_ngram=1, resamples=5)
    with pytest.raises(UsageError, match="baseline 'z' is not a system"):
        compare(two, baseline="z")
    with pytest.raises(UsageError, match="test must be one of"):
        compare(two, test="t-test")
    with pytest.raises(UsageError, match="samples must be at least 1"):
        compare(two, samples=0)
    with pytest.raises(UsageError, match="measure must be one of"):
        compare(two, measure="Q")
    with pytest.raises(UsageError, match="no metric ROUGE-9"):
        compare(two, metrics=["ROUGE-9"])
    counted = score({"x": ["a b c"], "y": ["a c"]}, ["a b d"], max_ngram=1, resamples=5, counting=1)
    with pytest.raises(UsageError, match="need -t 0"):
        compare(counted)
    apart = {"M": {"a": {"1": 0.5}, "b": {"2": 0.25}}}
    with pytest.raises(ComputeError, match="no item is scored for every system"):
        compare_items(apart)


def test_batches_give_the_same_comparisons() -> None:
    from rouge155py import Rouge, score_batch, summarize_batches, text_items

    rouge = Rouge(max_ngram=2, resamples=10)
    predictions = {
        "a": ["the cat sat", "a dog ran", "birds fly high"],
        "b": ["the cat", "dogs ran far", "fly"],
    }
    references = ["the cat sat down", "a dog ran away", "birds fly"]
    items = text_items(predictions, references)
    whole = rouge.score(predictions, references)
    batches = [score_batch(items[2:], rouge.options), score_batch(items[:2], rouge.options)]
    merged = summarize_batches(batches, rouge.options)
    assert compare(merged, "permutation", samples=64).rows == compare(whole, "permutation", samples=64).rows
    assert compare(merged, samples=64).rows[0].items == 3
