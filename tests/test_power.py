"""Power and type-I error of the paired tests, by resampling the user's own items."""

from __future__ import annotations

import numpy as np
import pytest

from rouge155py import Rouge
from rouge155py.errors import UsageError
from rouge155py.stats.power import (
    _bootstrap_p_values,
    differences_of,
    power_curve,
    required_items,
    type_one_error,
)
from rouge155py.stats.significance import _generator


@pytest.mark.parametrize("test", ["permutation", "paired-bootstrap"])
def test_where_no_difference_exists_the_share_found_is_near_the_level(test: str) -> None:
    rng = np.random.default_rng(1)
    differences = rng.normal(0.03, 0.1, size=60)  # a difference, which centering removes
    found = type_one_error(differences, [40], test=test, replicates=600, samples=400, seed=3)
    share = found[0].power
    if test == "permutation":
        assert abs(share - 0.05) < 0.03, share  # 600 replicates: a standard error of 0.009
    else:  # the paired bootstrap's shifted p-values run a little liberal at 40 items
        assert 0.02 < share < 0.12, share


def test_power_grows_with_the_items_and_the_required_number_is_read_off() -> None:
    rng = np.random.default_rng(2)
    differences = rng.normal(0.02, 0.1, size=80)
    curve = power_curve(differences, [10, 40, 160, 640], replicates=150, samples=300, seed=5)
    powers = [point.power for point in curve]
    assert powers[0] < 0.4 and powers[-1] > 0.95 and powers == sorted(powers)
    assert required_items(curve) == next(p.items for p in curve if p.power >= 0.8)
    assert required_items(curve, target=1.01) is None


def test_the_bootstrap_p_value_is_its_definition() -> None:
    rng = np.random.default_rng(4)
    column = rng.normal(0.01, 0.1, size=(25, 1))
    p = _bootstrap_p_values(column, 300, 9)[0]
    draws = _generator(9, 0).integers(0, 25, size=(300, 25))
    observed = column[:, 0].mean()
    count = sum(abs(column[draw, 0].mean() - observed) >= abs(observed) - 1e-15 for draw in draws)
    assert p == (1 + count) / 301


def test_differences_of_a_report_and_bad_arguments() -> None:
    report = Rouge(rouge_types=["rouge1"], stem=True, multi_ref="average").score(
        {"A": ["the cat sat on the mat", "dogs bark"], "B": ["a cat sat", "dogs bark at night"]},
        ["a cat sat on a mat", "dogs bark all night"],
    )
    found = differences_of(report, "rouge1", "A", "B")
    a, b = report["rouge1", "A"].items, report["rouge1", "B"].items
    assert found.tolist() == [x.fmeasure - y.fmeasure for x, y in zip(a, b)]
    with pytest.raises(UsageError, match="no system"):
        differences_of(report, "ROUGE-1", "A", "C")
    with pytest.raises(UsageError, match="test must be"):
        power_curve(found, [4], test="t-test")
    with pytest.raises(UsageError, match="sizes"):
        power_curve(found, [1])
