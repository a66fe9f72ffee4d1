"""Correlation with human judgments: coefficients against scipy, levels against their definitions."""

from __future__ import annotations

import math

import numpy as np
import pytest

scipy_stats = pytest.importorskip("scipy.stats")

from rouge155py import ComputeError, ConfigError, InputError, UsageError, score  # noqa: E402
from rouge155py.stats.correlation import (  # noqa: E402
    CorrelateSettings,
    correlate,
    correlation_difference,
    kendall_tau_b,
    level_coefficient,
    pearson,
    report_variants,
    spearman,
    williams_test,
)
from rouge155py.stats.judgments import Judgments, read_judgments  # noqa: E402
from rouge155py.stats.tables import correlation_table  # noqa: E402

TABLES = 1200


def random_tables(seed: int):  # type: ignore[no-untyped-def]
    """Pairs of columns of 3 to 80 values; half of them drawn from a few values (many ties)."""
    rng = np.random.default_rng(seed)
    for k in range(TABLES):
        n = int(rng.integers(3, 81))
        if k % 2:
            x = rng.integers(0, 5, size=n).astype(float)
            y = rng.integers(0, 4, size=n) + 0.5 * x
        else:
            x = rng.normal(size=n)
            y = 0.6 * x + rng.normal(size=n)
        if np.all(x == x[0]) or np.all(y == y[0]):
            x[0] += 1
            y[0] += 1
        yield x, y


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (pearson, lambda x, y: scipy_stats.pearsonr(x, y).statistic),
        (spearman, lambda x, y: scipy_stats.spearmanr(x, y).statistic),
        (kendall_tau_b, lambda x, y: scipy_stats.kendalltau(x, y, variant="b").statistic),
    ],
    ids=["pearson", "spearman", "kendall-tau-b"],
)
def test_coefficients_equal_scipy(ours, theirs) -> None:  # type: ignore[no-untyped-def]
    worst = 0.0
    count = 0
    for x, y in random_tables(17):
        worst = max(worst, abs(float(ours(x, y)) - float(theirs(x, y))))
        count += 1
    assert count == TABLES
    assert worst <= 1e-12, worst


def test_coefficients_of_a_batch_are_those_of_each_row() -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, 6, size=(40, 25)).astype(float)
    y = x + rng.integers(0, 3, size=(40, 25))
    for compute in (pearson, spearman, kendall_tau_b):
        batch = compute(x, y)
        assert batch.shape == (40,)
        assert all(batch[k] == pytest.approx(float(compute(x[k], y[k])), abs=1e-15) for k in range(40))


@pytest.mark.parametrize("points", [1, 2, 3, 7, 30, 150, 151, 400])
def test_kernels_kendall_is_the_pairwise_form_and_scipys_bit_for_bit(monkeypatch, points: int) -> None:  # type: ignore[no-untyped-def]
    """The C kernel's tau-b (Knight's sort) against the forms that run without it: the pairwise
    one up to _PAIRWISE_KENDALL points, scipy's past it; rows with many ties, all ties, none."""
    from rouge155py import _kernel

    if _kernel.accel is None:
        pytest.skip("the C kernel is not built")
    rng = np.random.default_rng(points)
    x = np.concatenate([rng.integers(0, 4, size=(20, points)), rng.random((20, points))]).astype(float)
    y = np.concatenate([rng.integers(0, 3, size=(20, points)), rng.random((20, points))]).astype(float)
    x[0], y[1], y[2] = 1.0, 2.0, x[2]
    by_rows = np.empty(40)
    _kernel.accel.kendall_tau_b(x.data, y.data, points, points > 150, by_rows.data)
    with_kernel = kendall_tau_b(x.reshape(5, 8, points), y.reshape(5, 8, points))
    monkeypatch.setattr(_kernel, "accel", None)
    without = kendall_tau_b(x.reshape(5, 8, points), y.reshape(5, 8, points))
    assert with_kernel.shape == (5, 8)
    assert np.array_equal(by_rows.reshape(5, 8), without, equal_nan=True)
    assert np.array_equal(with_kernel, without, equal_nan=True)
    assert np.isnan(without.flat[0]) and np.isnan(without.flat[1])


@pytest.mark.parametrize("points", [1, 2, 3, 30, 1500])
def test_kernels_ranks_are_scipys(points: int) -> None:
    from rouge155py import _kernel
    from rouge155py.stats.correlation import average_ranks

    if _kernel.accel is None:
        pytest.skip("the C kernel is not built")
    rng = np.random.default_rng(points)
    values = np.concatenate([rng.integers(0, 4, size=(6, points)), rng.random((6, points))]).astype(float)
    values[1, 0] = math.nan
    ranks = np.empty_like(values)
    _kernel.accel.average_ranks(values.data, points, ranks.data)
    assert np.array_equal(ranks, scipy_stats.rankdata(values, axis=-1), equal_nan=True)
    assert np.array_equal(
        average_ranks(values.reshape(3, 4, points)), ranks.reshape(3, 4, points), equal_nan=True
    )


@pytest.mark.parametrize("level", ["summary", "global"])
@pytest.mark.parametrize("resample", ["systems", "inputs", "both"])
@pytest.mark.parametrize(
    ("coefficient", "kernel"), [("spearman", True), ("spearman", False), ("kendall", True)]
)
def test_samples_counted_are_the_samples_laid_out(  # type: ignore[no-untyped-def]
    monkeypatch, level: str, resample: str, coefficient: str, kernel: bool
) -> None:
    """A level's coefficient on bootstrap samples, from how many times each sample holds each
    cell (or system), is what the sample laid out gives, bit for bit (ties, one value, 3 to
    1,500 cells, each way of resampling; Spearman's with and without the C kernel)."""
    from rouge155py import _kernel
    from rouge155py.stats.correlation import CorrelateSettings, _draws, _global_counted, _summary_counted

    if kernel and _kernel.accel is None:
        pytest.skip("the C kernel is not built")
    if not kernel:
        monkeypatch.setattr(_kernel, "accel", None)
    counted_samples = _global_counted if level == "global" else _summary_counted
    rng = np.random.default_rng(7)
    for systems, items in [(3, 1), (4, 6), (30, 50)]:
        for x in (rng.random((systems, items)), rng.integers(0, 3, size=(systems, items)).astype(float)):
            y = rng.integers(1, 6, size=(systems, items)).astype(float)
            y[:, 0] = 2.0
            rows, columns = _draws(
                CorrelateSettings(samples=60, resample=resample, seed=items), systems, items
            )
            counted = counted_samples(coefficient, [x], [y], rows, columns)[0][0]
            laid_out = [
                level_coefficient(level, coefficient, x[r[:, None], c[None, :]], y[r[:, None], c[None, :]])
                for r, c in zip(rows, columns)
            ]
            assert np.array_equal(counted, np.array(laid_out, dtype=float), equal_nan=True)


def test_constant_input_has_no_coefficient() -> None:
    for compute in (pearson, spearman, kendall_tau_b):
        assert math.isnan(float(compute(np.ones(5), np.arange(5.0))))


@pytest.mark.parametrize("coefficient", ["pearson", "spearman", "kendall"])
def test_levels_follow_their_definitions(coefficient: str) -> None:
    """System: means per system; summary: per item across systems, averaged; global: every cell."""
    of = {
        "pearson": lambda a, b: scipy_stats.pearsonr(a, b).statistic,
        "spearman": lambda a, b: scipy_stats.spearmanr(a, b).statistic,
        "kendall": lambda a, b: scipy_stats.kendalltau(a, b).statistic,
    }[coefficient]
    rng = np.random.default_rng(5)
    for _ in range(30):
        systems, items = int(rng.integers(3, 9)), int(rng.integers(2, 7))
        x = rng.integers(0, 5, size=(systems, items)).astype(float)
        y = x + rng.normal(size=(systems, items))
        x[:, 0] = 1.0  # one item where every system scores the same: left out of the summary level
        system = of(x.mean(axis=1), y.mean(axis=1))
        summary = np.mean([of(x[:, j], y[:, j]) for j in range(1, items) if len(set(x[:, j])) > 1])
        whole = of(x.ravel(), y.ravel())
        assert level_coefficient("system", coefficient, x, y) == pytest.approx(system, abs=1e-12)
        assert level_coefficient("global", coefficient, x, y) == pytest.approx(whole, abs=1e-12)
        if any(len(set(x[:, j])) > 1 for j in range(1, items)):
            assert level_coefficient("summary", coefficient, x, y) == pytest.approx(summary, abs=1e-12)


@pytest.mark.parametrize("coefficient", ["pearson", "spearman", "kendall"])
def test_the_per_system_level_is_the_mean_of_each_systems_coefficient(coefficient: str) -> None:
    variants, judgments = synthetic(seed=5, systems=7, items=9)
    theirs = {
        "pearson": lambda a, b: scipy_stats.pearsonr(a, b).statistic,
        "spearman": lambda a, b: scipy_stats.spearmanr(a, b).statistic,
        "kendall": lambda a, b: scipy_stats.kendalltau(a, b).statistic,
    }[coefficient]
    found = correlate(
        variants,
        judgments,
        levels=["per-system"],
        coefficients=[coefficient],
        settings=CorrelateSettings(samples=200),
    )
    items = sorted(variants["good"]["s0"], key=int)
    for variant in ("good", "noisy"):
        row = found.get(variant, "coverage", "per-system", coefficient)
        per_system = [
            theirs(
                [variants[variant][s][i] for i in items],
                [judgments.scores["coverage"][(i, s)] for i in items],
            )
            for s in sorted(variants[variant])
        ]
        assert row.value == pytest.approx(float(np.mean(per_system)), abs=1e-12)
        assert row.low <= row.value <= row.high and math.isnan(row.p)
    default = correlate(variants, judgments, settings=CorrelateSettings(resample="none"))
    assert {r.level for r in default.rows} == {"system", "summary", "global"}  # asked for by name only


def test_williams_test_on_steigers_example() -> None:
    # Steiger (1980), the example of Williams' test: n = 103, r12 = .4, r13 = .5, r23 = .1:
    # t(100) = -0.89, two-sided p = 0.37.
    t, one_sided, two_sided = williams_test(0.4, 0.5, 0.1, 103)
    assert round(t, 2) == -0.89
    assert round(two_sided, 2) == 0.37
    assert one_sided == pytest.approx(1 - two_sided / 2)
    # By the definition, from its parts.
    determinant = 1 - 0.16 - 0.25 - 0.01 + 2 * 0.4 * 0.5 * 0.1
    expected = -0.1 * math.sqrt(102 * 1.1) / math.sqrt(2 * 102 / 100 * determinant + 0.45**2 * 0.9**3)
    assert t == pytest.approx(expected, rel=1e-15)
    assert williams_test(0.5, 0.4, 0.1, 103)[0] == pytest.approx(-t)
    assert williams_test(0.3, 0.3, 0.2, 10)[0] == 0
    with pytest.raises(ComputeError, match="more than 3 points"):
        williams_test(0.3, 0.2, 0.1, 3)


def synthetic(seed: int = 1, systems: int = 6, items: int = 8):  # type: ignore[no-untyped-def]
    """Variants and judgments on a grid: variant "good" follows the judgment, "noisy" less so."""
    rng = np.random.default_rng(seed)
    quality = rng.uniform(size=systems)
    human = quality[:, None] + 0.3 * rng.normal(size=(systems, items))
    good = human + 0.1 * rng.normal(size=(systems, items))
    noisy = human + 1.0 * rng.normal(size=(systems, items))
    names = [f"s{k}" for k in range(systems)]
    items_ids = [str(j + 1) for j in range(items)]

    def table(values: np.ndarray) -> dict[str, dict[str, float]]:
        return {s: {i: float(values[a, b]) for b, i in enumerate(items_ids)} for a, s in enumerate(names)}

    rows = [
        {"eval_id": i, "system": s, "coverage": float(human[a, b])}
        for a, s in enumerate(names)
        for b, i in enumerate(items_ids)
    ]
    return {"good": table(good), "noisy": table(noisy)}, Judgments.from_rows(rows)


def test_correlate_gives_every_row_with_reproducible_intervals() -> None:
    variants, judgments = synthetic()
    settings = CorrelateSettings(samples=300, seed=4)
    found = correlate(variants, judgments, settings=settings)
    assert len(found.rows) == 2 * 3 * 3
    for row in found.rows:
        assert row.systems == 6 and row.items == 8
        assert row.low <= row.high
    good = found.get("good", "coverage", "system", "pearson")
    assert good.value > found.get("noisy", "coverage", "system", "pearson").value
    assert correlate(variants, judgments, settings=settings).rows == found.rows
    moved = correlate(variants, judgments, settings=CorrelateSettings(samples=300, seed=5))
    assert moved.rows != found.rows
    none = correlate(variants, judgments, settings=CorrelateSettings(resample="none"))
    assert all(math.isnan(r.low) for r in none.rows)
    assert [r.value for r in none.rows] == [r.value for r in found.rows]


@pytest.mark.parametrize("kernel", [True, False])
def test_grids_drawn_together_are_each_pair_drawn_alone(monkeypatch, kernel: bool) -> None:  # type: ignore[no-untyped-def]
    """The bootstrap's coefficients of several variants with several judgments at once (each
    grid's sample, ranks or normalized side made once) are those of each pair alone, bit for
    bit, at every level with every coefficient."""
    from rouge155py import _kernel
    from rouge155py.stats.correlation import ALL_LEVELS, COEFFICIENTS, _draws, _resampled, _resampled_grids

    if not kernel:
        monkeypatch.setattr(_kernel, "accel", None)
    rng = np.random.default_rng(11)
    systems, items = 7, 9
    xs = [
        rng.random((systems, items)),
        rng.integers(0, 4, (systems, items)).astype(float),
        rng.random((systems, items)),
    ]
    ys = [rng.integers(1, 6, (systems, items)).astype(float), rng.normal(size=(systems, items))]
    rows, columns = _draws(CorrelateSettings(samples=40, seed=3), systems, items)
    for level in ALL_LEVELS:
        for coefficient in COEFFICIENTS:
            together = _resampled_grids(level, coefficient, xs, ys, rows, columns)
            for y, drawn in zip(ys, together):
                for x, values in zip(xs, drawn):
                    alone = _resampled(level, coefficient, x, y, rows, columns)
                    assert values.tobytes() == alone.tobytes(), (level, coefficient)


def test_two_judgments_correlate_as_each_alone() -> None:
    """correlate() of two judgments gives each the rows it gives when correlated alone."""
    variants, judgments = synthetic(seed=6, systems=8, items=6)
    rng = np.random.default_rng(6)
    rows = [
        {
            "eval_id": i,
            "system": s,
            "coverage": judgments.scores["coverage"][(i, s)],
            "grade": float(rng.integers(1, 4)),
        }
        for (i, s) in judgments.scores["coverage"]
    ]
    both = Judgments.from_rows(rows)
    settings = CorrelateSettings(samples=200, seed=8)
    found = correlate(variants, both, settings=settings)
    alone = [
        row
        for name in ("coverage", "grade")
        for row in correlate(variants, both, judgment_names=[name], settings=settings).rows
    ]
    assert sorted(found.rows, key=repr) == sorted(alone, key=repr)


def test_each_coefficient_has_scipys_p_value() -> None:
    variants, judgments = synthetic(seed=3, systems=9, items=7)
    found = correlate(variants, judgments, settings=CorrelateSettings(resample="none"))
    tests = {
        "pearson": scipy_stats.pearsonr,
        "spearman": scipy_stats.spearmanr,
        "kendall": scipy_stats.kendalltau,
    }
    names = sorted(variants["good"])
    items = sorted(variants["good"][names[0]], key=int)
    human = np.array([[judgments.scores["coverage"][(i, s)] for i in items] for s in names])
    for row in found.rows:
        grid_ = np.array([[variants[row.variant][s][i] for i in items] for s in names])
        if row.level == "summary":
            assert math.isnan(row.p)  # a mean of per-input coefficients: no closed form
            continue
        a, b = (
            (grid_.mean(axis=1), human.mean(axis=1))
            if row.level == "system"
            else (grid_.ravel(), human.ravel())
        )
        expected = tests[row.coefficient](a, b)
        assert row.value == pytest.approx(expected.statistic, abs=1e-12)
        assert row.p == pytest.approx(expected.pvalue, rel=1e-12), (row.variant, row.level, row.coefficient)
    table = correlation_table(found, "text", "pearson", p_values=True)
    good = found.get("good", "coverage", "system", "pearson")
    assert f"p={good.p:.3g}" in table and "against no correlation" in table


def test_difference_of_two_variants() -> None:
    variants, judgments = synthetic(seed=2, systems=12, items=10)
    found = correlation_difference(
        variants, judgments, "good", "noisy", settings=CorrelateSettings(samples=400)
    )
    assert found.difference == pytest.approx(found.value_a - found.value_b)
    assert found.low <= found.difference <= found.high
    assert 0 < found.p_bootstrap <= 1 and 0 < found.p_williams <= 1
    r_ab = float(
        pearson(
            np.array([np.mean(list(variants["good"][s].values())) for s in sorted(variants["good"])]),
            np.array([np.mean(list(variants["noisy"][s].values())) for s in sorted(variants["good"])]),
        )
    )
    assert found.williams_t == pytest.approx(williams_test(found.value_a, found.value_b, r_ab, 12)[0])
    kendall = correlation_difference(
        variants, judgments, "good", "noisy", coefficient="kendall", settings=CorrelateSettings(samples=100)
    )
    assert math.isnan(kendall.p_williams)


def test_an_error_rate_is_compared_by_its_agreement_not_its_sign() -> None:
    """The sign hazard: an error rate (|r| high, r negative) against a BLEU-like score."""
    variants, judgments = synthetic(seed=2, systems=12, items=10)
    error_rate = {s: {i: -v for i, v in row.items()} for s, row in variants["good"].items()}
    both = {"error rate": error_rate, "noisy": variants["noisy"]}
    settings = CorrelateSettings(samples=300, seed=1)
    naive = correlation_difference(both, judgments, "error rate", "noisy", settings=settings)
    assert naive.difference < 0 and not naive.oriented  # signed: the error rate looks worse
    found = correlation_difference(
        both, judgments, "error rate", "noisy", settings=settings, lower_is_better={"error rate"}
    )
    good = correlation_difference(variants, judgments, "good", "noisy", settings=settings)
    assert found.oriented and found.value_a == pytest.approx(good.value_a) and found.difference > 0
    assert (found.low, found.high, found.p_bootstrap) == pytest.approx(
        (good.low, good.high, good.p_bootstrap)
    )
    assert (found.williams_t, found.p_williams) == pytest.approx((good.williams_t, good.p_williams))
    rows = correlate(both, judgments, settings=settings, lower_is_better={"error rate"})
    row = rows.get("error rate", "coverage", "system", "pearson")
    assert row.value < 0 and row.oriented == -row.value and not row.higher_is_better
    table = correlation_table(rows, "markdown", "pearson")
    assert "| error rate (lower is better) | **" in table  # the best of its columns, read oriented


def test_metric_scores_files_and_their_directions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from rouge155py.stats.judgments import read_scores

    csv_path = write(
        tmp_path, "m.csv", "eval_id,system,bleu,ter\nhigher_is_better,,yes,0\n1,A,0.5,0.4\n1,B,0.3,0.6\n"
    )
    table = read_scores(csv_path)
    assert table.variants == {
        "bleu": {"A": {"1": 0.5}, "B": {"1": 0.3}},
        "ter": {"A": {"1": 0.4}, "B": {"1": 0.6}},
    }
    assert table.lower_is_better == {"ter"}
    jsonl = write(
        tmp_path,
        "m.jsonl",
        '{"higher_is_better": {"ter": false}}\n{"eval_id": 1, "system": "A", "ter": 0.4}\n',
    )
    assert read_scores(jsonl).lower_is_better == {"ter"}
    assert (
        read_scores(write(tmp_path, "n.csv", "eval_id,system,bleu\n1,A,0.5\n")).lower_is_better == frozenset()
    )
    for text, message in [
        ("eval_id,system,bleu\nhigher_is_better,,maybe\n1,A,0.5\n", "true or false"),
        (
            '{"higher_is_better": {"rouge": false}}\n{"eval_id": 1, "system": "A", "bleu": 1}\n',
            "not a column",
        ),
        ("eval_id,system,bleu\nhigher_is_better,,1\nhigher_is_better,,0\n1,A,0.5\n", "a second"),
    ]:
        with pytest.raises(ConfigError, match=message):
            read_scores(write(tmp_path, "bad.jsonl" if text.startswith("{") else "bad.csv", text))
    with pytest.raises(ConfigError, match="eval or system ID"):  # a judgments file has no direction row
        read_judgments(csv_path)


def _brute_force_p(xa, xb, y, level, both):  # type: ignore[no-untyped-def]
    """Every swap of whole systems (and, with ``both``, of whole inputs too), counted by hand."""
    import itertools

    def standard(grid):  # type: ignore[no-untyped-def]
        return (grid - grid.mean()) / grid.std()

    a, b, z = standard(xa), standard(xb), standard(y)

    def r(x):  # type: ignore[no-untyped-def]
        if level == "system":
            return scipy_stats.pearsonr(x.mean(axis=1), z.mean(axis=1)).statistic
        return scipy_stats.pearsonr(x.ravel(), z.ravel()).statistic

    observed = r(a) - r(b)
    systems, items = a.shape
    count = total = 0
    for rows in itertools.product([False, True], repeat=systems):
        for columns in itertools.product([False, True], repeat=items if both else 0):
            swap = np.array(rows)[:, None] ^ (np.array(columns)[None, :] if both else False)
            swap = np.broadcast_to(swap, a.shape)
            d = r(np.where(swap, b, a)) - r(np.where(swap, a, b))
            count += abs(d) >= abs(observed) - 1e-12
            total += 1
    return count, total


@pytest.mark.parametrize(("level", "method"), [("system", "systems"), ("global", "both")])
def test_the_permutation_test_of_a_difference_is_the_exact_count(level: str, method: str) -> None:
    import itertools

    from rouge155py.stats.correlation import permutation_p_value

    variants, judgments = synthetic(seed=4, systems=5, items=4)
    names = sorted(variants["good"])
    items = sorted(variants["good"][names[0]], key=int)
    xa = np.array([[variants["good"][s][i] for i in items] for s in names])
    xb = np.array([[variants["noisy"][s][i] for i in items] for s in names])
    y = np.array([[judgments.scores["coverage"][(i, s)] for i in items] for s in names])
    both = method == "both"
    count, total = _brute_force_p(xa, xb, y, level, both)
    every = [
        np.broadcast_to(np.array(rows)[:, None] ^ (np.array(cols)[None, :] if both else False), xa.shape)
        for rows in itertools.product([False, True], repeat=5)
        for cols in itertools.product([False, True], repeat=4 if both else 0)
    ]
    exact = permutation_p_value(xa, xb, y, level, "pearson", method, 0, 0, swaps=np.array(every))
    assert exact == (1 + count) / (total + 1)
    sampled = permutation_p_value(xa, xb, y, level, "pearson", method, 20_000, 7)
    assert abs(sampled - count / total) < 0.015  # Monte Carlo error at 20,000 samples: about 0.0035
    found = correlation_difference(
        variants,
        judgments,
        "good",
        "noisy",
        level=level,
        settings=CorrelateSettings(samples=2000),
        permutation=method,
    )
    assert found.permutation == method and abs(found.p_permutation - count / total) < 0.04


@pytest.mark.parametrize("level", ["system", "global"])
def test_variants_tied_with_the_best_by_holm_adjusted_paired_bootstraps(level: str) -> None:
    from rouge155py.stats.significance import holm

    variants, judgments = synthetic(seed=6, systems=14, items=10)
    rng = np.random.default_rng(0)
    near = {s: {i: v + 0.01 * rng.normal() for i, v in row.items()} for s, row in variants["good"].items()}
    three = {"good": variants["good"], "near": near, "noisy": variants["noisy"]}
    settings = CorrelateSettings(samples=400, seed=3)
    found = correlate(three, judgments, levels=[level], coefficients=["pearson"], settings=settings)
    rows = {r.variant: r for r in found.rows}
    best = max(rows, key=lambda v: rows[v].value)
    assert rows[best].tied_with_best and rows["near"].tied_with_best
    others = [v for v in three if v != best]
    p_values = [
        correlation_difference(three, judgments, best, v, level=level, settings=settings).p_bootstrap
        for v in others
    ]
    for v, adjusted in zip(others, holm(p_values)):
        assert rows[v].tied_with_best == (adjusted >= 0.05), (v, adjusted)
    if level == "global":  # r = 0.97 against 0.42 over 140 cells: clearly below
        assert not rows["noisy"].tied_with_best
        assert "Marked: not significantly below the column's best" in correlation_table(
            found, "text", "pearson"
        )
    alone = correlate({"good": variants["good"]}, judgments, settings=settings)
    assert all(r.tied_with_best is None for r in alone.rows)


def test_missing_cells_are_an_error_or_their_items_left_out_and_named() -> None:
    variants, judgments = synthetic(seed=8, systems=6, items=9)
    del judgments.scores["coverage"][("3", "s2")]  # a judgment missing
    del variants["noisy"]["s4"]["7"]  # a score missing
    with pytest.raises(ConfigError, match=r"no score|not scored"):
        correlate(variants, judgments, settings=CorrelateSettings(resample="none"))
    found = correlate(variants, judgments, settings=CorrelateSettings(resample="none"), missing="drop-items")
    assert any("2 of 9 judged items left out" in w and "3, 7" in w for w in found.warnings)
    kept = [str(i) for i in range(1, 10) if str(i) not in ("3", "7")]
    subset = {v: {s: {i: row[i] for i in kept} for s, row in table.items()} for v, table in variants.items()}
    judged = Judgments.from_rows(
        [
            {"eval_id": i, "system": s, "coverage": value}
            for (i, s), value in judgments.scores["coverage"].items()
            if i in kept
        ]
    )
    alone = correlate(subset, judged, settings=CorrelateSettings(resample="none"))
    assert [(r.variant, r.level, r.coefficient, r.value) for r in found.rows] == [
        (r.variant, r.level, r.coefficient, r.value) for r in alone.rows
    ]
    assert all(r.items == 7 for r in found.rows)
    difference = correlation_difference(
        variants, judgments, "good", "noisy", settings=CorrelateSettings(samples=200), missing="drop-items"
    )
    assert difference.value_a == pytest.approx(alone.get("good", "coverage", "system", "pearson").value)
    with pytest.raises(UsageError, match="rule for missing cells"):
        correlate(variants, judgments, missing="pairwise")


def test_the_aggregation_curve_pools_shuffled_items_before_correlating() -> None:
    from rouge155py.stats.correlation import aggregation_curve
    from rouge155py.stats.significance import _generator

    variants, judgments = synthetic(seed=9, systems=5, items=19)
    curve = aggregation_curve(variants, judgments, seed=4)
    assert [(p.size, p.groups) for p in curve if p.variant == "good"] == [(1, 19), (2, 9), (4, 4), (8, 2)]
    order = _generator(4, 5).permutation(19)
    systems = sorted(variants["good"])
    items = judgments.items()  # the judged items, in the grid's order (sorted as text)
    human = np.array([[judgments.scores["coverage"][(i, s)] for i in items] for s in systems])[:, order]
    for point in curve:
        x = np.array([[variants[point.variant][s][i] for i in items] for s in systems])[:, order]
        g, k = point.size, point.groups
        pooled_x = x[:, : g * k].reshape(5, k, g).mean(axis=2)
        pooled_y = human[:, : g * k].reshape(5, k, g).mean(axis=2)
        expected = scipy_stats.pearsonr(pooled_x.ravel(), pooled_y.ravel()).statistic
        assert point.value == pytest.approx(expected, abs=1e-12), (point.variant, g)
    global_level = correlate(variants, judgments, settings=CorrelateSettings(resample="none"))
    assert curve[0].value == pytest.approx(global_level.get("good", "coverage", "global", "pearson").value)
    with pytest.raises(UsageError, match="group sizes"):
        aggregation_curve(variants, judgments, sizes=[0])


def test_report_variants_name_metric_and_measure() -> None:
    report = score({"a": ["x y z", "x"], "b": ["x", "y z"]}, ["x y", "y z"], max_ngram=1, resamples=5)
    variants = report_variants(report, setting="stem")
    assert list(variants) == [
        "ROUGE-1 R [stem]",
        "ROUGE-1 P [stem]",
        "ROUGE-1 F [stem]",
        "ROUGE-L R [stem]",
        "ROUGE-L P [stem]",
        "ROUGE-L F [stem]",
    ]
    assert variants["ROUGE-1 R [stem]"]["b"] == {"1": 0.5, "2": 1.0}


def write(tmp_path, name: str, text: str) -> str:  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_reading_csv_and_jsonl(tmp_path) -> None:  # type: ignore[no-untyped-def]
    csv_path = write(tmp_path, "h.csv", "eval_id,system,coverage,resp\nD1,a,0.5,3\nD1,b,1e-1,2\n")
    jsonl_path = write(
        tmp_path,
        "h.jsonl",
        '{"topic": "D1", "peer": "a", "coverage": 0.5, "resp": 3}\n\n'
        '{"topic": "D1", "peer": "b", "coverage": 0.1, "resp": 2}\n',
    )
    for path in (csv_path, jsonl_path):
        found = read_judgments(path)
        assert found.columns == ["coverage", "resp"]
        assert found.scores["coverage"] == {("D1", "a"): 0.5, ("D1", "b"): 0.1}
        assert found.systems() == ["a", "b"] and found.items() == ["D1"]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("eval_id,system,c\n1,a,NaN\n", ConfigError, "line 2: c is 'NaN': every judgment must be a finite"),
        ("eval_id,system,c\n1,a,\n", ConfigError, "line 2: c is not a number: ''"),
        ("eval_id,system,c\n1,a,x\n", ConfigError, "c is not a number: 'x'"),
        ("eval_id,system,c\n1,a,1\n1,a,2\n", ConfigError, "line 3: eval '1' and system 'a' are judged twice"),
        ("item,c\n1,2\n", ConfigError, "the system needs one column named system or peer_id or peer"),
        ("eval_id,system\n1,a\n", ConfigError, "no judgment column"),
        ("eval_id,system,c\n1,a,1,2\n", ConfigError, "line 2: 4 cells, the header has 3"),
        ("", ConfigError, "no judgment in the file"),
        ('{"eval_id": 1, "system": "a", "c": NaN}\n', ConfigError, "every judgment must be a finite number"),
        ('{"eval_id": 1, "system": "a", "c": 1}\n{"eval_id": 1\n', ConfigError, "line 2: not a JSON object"),
    ],
)
def test_bad_judgment_files(tmp_path, text: str, error: type, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_judgments(write(tmp_path, "h.csv", text))


def test_missing_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="Cannot open"):
        read_judgments(str(tmp_path / "nothing.csv"))


def test_judgments_that_do_not_fit_the_run() -> None:
    variants, judgments = synthetic()
    rows = [{"eval_id": i, "system": s, "c": v} for (i, s), v in judgments.scores["coverage"].items()]
    with pytest.raises(ConfigError, match="system 'x' is judged but not scored"):
        correlate(variants, Judgments.from_rows([*rows, {"eval_id": "1", "system": "x", "c": 1.0}]))
    with pytest.raises(ConfigError, match="eval '99' is judged but not scored for system 's0'"):
        correlate(variants, Judgments.from_rows([*rows, {"eval_id": "99", "system": "s0", "c": 1.0}]))
    with pytest.raises(ConfigError, match="c has no score for eval '1' of system 's0'"):
        correlate(variants, Judgments.from_rows(rows[1:]))
    with pytest.raises(ComputeError, match="1 judged system"):
        correlate(variants, Judgments.from_rows([r for r in rows if r["system"] == "s0"]))
    flat = [{**r, "c": 2.0} for r in rows]
    with pytest.raises(ComputeError, match="c is the same for every system and item"):
        correlate(variants, Judgments.from_rows(flat))
    tied = [{**r, "c": float(r["eval_id"])} for r in rows]
    with pytest.raises(ComputeError, match="c ties every system"):
        correlate(variants, Judgments.from_rows(tied))
    assert correlate(
        variants, Judgments.from_rows(tied), ["summary"], settings=CorrelateSettings(samples=20)
    ).rows
    fewer = {name: {s: v for s, v in table.items()} for name, table in variants.items()}
    fewer["good"]["extra"] = dict(fewer["good"]["s0"])
    found = correlate(
        fewer,
        judgments,
        levels=["system"],
        coefficients=["pearson"],
        settings=CorrelateSettings(resample="none"),
    )
    assert found.warnings == ["good: systems not judged, left out: extra"]
    with pytest.raises(UsageError, match="unknown level"):
        correlate(variants, judgments, levels=["corpus"])


def test_sacrerouges_metrics_jsonl_reads_as_scores_and_judgments() -> None:
    import json
    from pathlib import Path

    from rouge155py.stats.judgments import read_scores

    path = Path(__file__).resolve().parent / "fixtures" / "sacrerouge" / "metrics.jsonl"
    table = read_scores(path)
    assert sorted(table.variants) == ["bertscore_f1", "pyramid", "rouge-1_f1", "rouge-1_recall"]
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert table.variants["rouge-1_recall"]["A"]["d1"] == first["metrics"]["rouge-1"]["recall"]
    assert table.variants["pyramid"]["A"]["d1"] == sum(first["metrics"]["pyramid"]) / 2  # a list: its mean
    judged = read_judgments(path)
    found = correlate(
        {"bertscore_f1": table.variants["bertscore_f1"]},
        Judgments.from_rows(
            [{"eval_id": i, "system": s, "pyramid": v} for (i, s), v in judged.scores["pyramid"].items()]
        ),
        settings=CorrelateSettings(resample="none"),
    )
    assert found.get("bertscore_f1", "pyramid", "system", "pearson").value > 0.9
    from rouge155py.stats.annotators import read_judging

    read, annotations = read_judging(path)  # the command line's --judgments reads it alike
    assert read.scores == judged.scores and annotations is None
