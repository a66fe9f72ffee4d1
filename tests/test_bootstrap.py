"""Bootstrap resampling: Perl's drand48, the resample means and the confidence interval.

The reference is computeAverages/bootstrapResampling of ROUGE-1.5.5.pl: resample
i calls srand(i) and draws int(rand(N)) N times; the printed average is the mean
of the sorted resample means, and each bound interpolates between two ranked
resample means.
"""

from __future__ import annotations

import math
import random
import subprocess
from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tier import first_fast

from rouge155py import _kernel
from rouge155py.errors import ComputeError
from rouge155py.metrics.scoring import f_measure, fmt5, ratio
from rouge155py.report.results import Summary
from rouge155py.run import bootstrap
from rouge155py.run.bootstrap import STREAMING, Streamed, Streaming, drand48_indices, resample, summarize

MASK48 = (1 << 48) - 1


def perl_rand_ints(seed: int, n: int, count: int) -> list[int]:
    """int(rand(n)) ``count`` times after srand(seed), with plain integers.

    Perl >= 5.20 seeds its drand48 with state = (seed << 16) + 0x330E and steps
    state = (state * 0x5DEECE66D + 0xB) mod 2**48; rand(n) = n * state / 2**48.
    """
    state = (seed << 16) + 0x330E
    out = []
    for _ in range(count):
        state = (state * 0x5DEECE66D + 0xB) & MASK48
        out.append(int(n * state / 2**48))
    return out


def test_first_state_by_hand() -> None:
    # srand(0): state = 0x330E = 13070; next = 13070 * 25214903917 + 11 = 329558794195201,
    # minus 2**48 = 281474976710656 gives 48083817484545. rand(2) = 2 * 48083817484545 / 2**48
    # = 0.3416..., so int(rand(2)) = 0.
    assert 13070 * 0x5DEECE66D + 0xB == 329558794195201
    assert 329558794195201 % 2**48 == 48083817484545
    assert perl_rand_ints(0, 2, 1) == [0]
    assert drand48_indices(2, 1)[0, 0] == 0


def test_known_perl_draws() -> None:
    # perl -e 'srand(3); print join(",", map { int(rand(7)) } 1..7)' prints 5,6,2,1,3,3,1
    # (Perl 5.36); srand(0..3) with rand(3) three times: 0,2,0 / 0,1,2 / 2,0,1 / 2,2,0.
    assert drand48_indices(7, 4)[3].tolist() == [5, 6, 2, 1, 3, 3, 1]
    assert drand48_indices(3, 4).tolist() == [[0, 2, 0], [0, 1, 2], [2, 0, 1], [2, 2, 0]]


@pytest.mark.parametrize(
    ("n", "resamples"),
    [(1, 3), (2, 5), (7, 10), (50, 20), (1000, 3), pytest.param(99991, 2, marks=pytest.mark.slow)],
)
def test_indices_match_the_integer_lcg(n: int, resamples: int) -> None:
    table = drand48_indices(n, resamples)
    assert table.shape == (resamples, n)
    for seed in range(resamples):
        assert table[seed].tolist() == perl_rand_ints(seed, n, n)


def test_indices_are_read_only_and_cached() -> None:
    table = drand48_indices(5, 3)
    assert drand48_indices(5, 3) is table
    with pytest.raises(ValueError):
        table[0, 0] = 1


def test_a_single_instance_is_always_drawn() -> None:
    assert drand48_indices(1, 6).tolist() == [[0]] * 6


@pytest.mark.parametrize(
    ("seed", "n"),
    [(0, 1), (3, 7), (1, 10), (999, 25), (12, 1000), pytest.param(5, 123457, marks=pytest.mark.slow)],
)
def test_indices_match_the_perl(oracle, seed: int, n: int) -> None:
    script = f'srand({seed}); print join(",", map {{ int(rand({n})) }} 1..{n})'
    done = subprocess.run([oracle.perl, "-e", script], capture_output=True, check=True, timeout=120)
    perl = [int(v) for v in done.stdout.decode().split(",")]
    assert drand48_indices(n, seed + 1)[seed].tolist() == perl


# ---------------------------------------------------------------------------
# resample
# ---------------------------------------------------------------------------


# For N = 3 and r = 4 the draws are (see above) [0,2,0], [0,1,2], [2,0,1], [2,2,0].
def _resample(rows, resamples: int, counting: int, alpha: float) -> np.ndarray:
    """resample() returns three lists; as an array (3 × r) for the checks below."""
    return np.array(resample(rows, resamples, counting, alpha), dtype=float).reshape(3, resamples)


ROWS_SCORES = np.array([[0.5, 0.25, 1.0], [0.0, 0.5, 0.25], [1.0, 0.75, 0.5]])


def test_resample_means_of_rounded_scores() -> None:
    # counting 0: a resample is the mean of the drawn rows, summed in draw order.
    #   seed 0, rows 0 2 0: R (0.5 + 1.0 + 0.5)/3, P (0.25 + 0.75 + 0.25)/3, F (1 + 0.5 + 1)/3
    #   seed 1, rows 0 1 2: R 1.5/3, P 1.5/3, F 1.75/3
    #   seed 2, rows 2 0 1: the same sums as seed 1
    #   seed 3, rows 2 2 0: R 2.5/3, P 1.75/3, F 2.0/3
    values = _resample(ROWS_SCORES, 4, 0, 0.5)
    assert values.shape == (3, 4)
    assert values[0].tolist() == [2.0 / 3, 1.5 / 3, 1.5 / 3, 2.5 / 3]
    assert values[1].tolist() == [1.25 / 3, 1.5 / 3, 1.5 / 3, 1.75 / 3]
    assert values[2].tolist() == [2.5 / 3, 1.75 / 3, 1.75 / 3, 2.0 / 3]


def test_resample_of_raw_counts() -> None:
    # counting 1: rows are (model count, peer count, hits); sums, then R, P, F.
    rows = np.array([[4.0, 5.0, 2.0], [2.0, 2.0, 1.0], [6.0, 3.0, 3.0]])
    #   seed 0, rows 0 2 0: M 14, P 13, H 7 -> R 7/14, P 7/13
    #   seed 1, rows 0 1 2: M 12, P 10, H 6 -> R 6/12, P 6/10 (seed 2: the same sums)
    #   seed 3, rows 2 2 0: M 16, P 11, H 8 -> R 8/16, P 8/11
    values = _resample(rows, 4, 1, 0.5)
    recall = [7 / 14, 6 / 12, 6 / 12, 8 / 16]
    precision = [7 / 13, 6 / 10, 6 / 10, 8 / 11]
    f = [p * r / (0.5 * p + 0.5 * r) for p, r in zip(precision, recall)]
    assert values[0].tolist() == recall
    assert values[1].tolist() == precision
    assert values[2].tolist() == f


def test_resample_of_raw_counts_with_zero_sums() -> None:
    # No model or peer units at all: R = P = 0 and F = 0 (the denominator is not > 0).
    values = _resample(np.zeros((2, 3)), 3, 1, 0.5)
    assert values.tolist() == [[0.0] * 3] * 3


def test_resample_alpha_only_matters_for_counting_one() -> None:
    rows = np.array([[4.0, 8.0, 2.0]])
    # One instance: every resample sums it once. R = 2/4, P = 2/8; alpha 1 gives F = P.
    assert _resample(rows, 2, 1, 1.0)[2].tolist() == [0.25, 0.25]
    assert _resample(rows, 2, 1, 0.0)[2].tolist() == [0.5, 0.5]


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.tuples(*[st.integers(0, 10000)] * 3), min_size=1, max_size=12),
    st.integers(1, 8),
)
def test_resample_means_match_the_draws(rows: list[tuple[int, int, int]], resamples: int) -> None:
    table = np.array(rows, dtype=float) / 10000
    n = len(rows)
    values = _resample(table, resamples, 0, 0.5)
    for seed in range(resamples):
        for column in range(3):
            total = 0.0
            for index in perl_rand_ints(seed, n, n):
                total += table[index, column]
            assert values[column, seed] == total / n


# ---------------------------------------------------------------------------
# summarize
# ---------------------------------------------------------------------------


def _rows(*values: float) -> np.ndarray:
    return np.array([list(values)] * 3)


def printed(values: np.ndarray, confidence: float, resamples: float) -> Summary:
    """The summary as the report prints it (``%7.5f``)."""
    s = summarize(values, confidence, resamples)
    return Summary(*(tuple(fmt5(v) for v in part) for part in (s.average, s.lower, s.upper)))  # type: ignore[arg-type]


def test_summary_with_95_percent() -> None:
    # r = 4, c = 95: delta = 4 * 2.5 / 100 = 0.1; upper index int(4 - 0.1 - 1) = 2,
    # lower index int(0.1) = 0; ratio 4 - 0.1 - 1 - 2 = 0.9 for both bounds.
    # Ranked: 0.1 0.2 0.3 0.4.  Lower 0.1 + (0.2 - 0.1) * 0.9 = 0.19;
    # upper 0.3 + (0.4 - 0.3) * 0.9 = 0.39; average 1.0 / 4 = 0.25.
    summary = printed(_rows(0.4, 0.1, 0.3, 0.2), 95.0, 4)
    assert summary == Summary(("0.25000",) * 3, ("0.19000",) * 3, ("0.39000",) * 3)


def test_summary_with_100_percent() -> None:
    # c = 100: delta 0, upper index 3 (the next one is past the end, ratio 0): the extremes.
    summary = printed(_rows(0.4, 0.1, 0.3, 0.2), 100.0, 4)
    assert summary.lower == ("0.10000",) * 3
    assert summary.upper == ("0.40000",) * 3


def test_summary_with_0_percent_crosses_the_bounds() -> None:
    # c = 0: delta = 4 * 50 / 100 = 2; upper index int(4 - 2 - 1) = 1, lower index 2,
    # ratio 0: the lower bound (0.3) is above the upper bound (0.2).
    summary = printed(_rows(0.4, 0.1, 0.3, 0.2), 0.0, 4)
    assert summary.lower == ("0.30000",) * 3
    assert summary.upper == ("0.20000",) * 3


def test_summary_with_0_percent_and_an_odd_count() -> None:
    # r = 5, c = 0: delta 2.5; upper index int(1.5) = 1, lower index 2, ratio 0.5.
    # Ranked 0.1 .. 0.5: lower 0.3 + 0.1 * 0.5 = 0.35, upper 0.2 + 0.1 * 0.5 = 0.25.
    summary = printed(_rows(0.5, 0.4, 0.3, 0.2, 0.1), 0.0, 5)
    assert summary.lower == ("0.35000",) * 3
    assert summary.upper == ("0.25000",) * 3
    assert summary.average == ("0.30000",) * 3


def test_single_resample_reads_zero_past_the_end() -> None:
    # r = 1, c = 95: delta 0.025; upper index int(-0.025) = 0, lower index 0, and the
    # ratio is 1 - 0.025 - 1 - 0 = -0.025. Index 1 is past the end and reads 0:
    # bound = 0.4 + (0 - 0.4) * (-0.025) = 0.41 for both.
    summary = printed(np.array([[0.4], [0.2], [0.0]]), 95.0, 1)
    assert summary.average == ("0.40000", "0.20000", "0.00000")
    assert summary.lower == ("0.41000", "0.20500", "0.00000")
    assert summary.upper == ("0.41000", "0.20500", "0.00000")


def test_fractional_resample_count_enters_the_formula() -> None:
    # -r 1.5 draws 2 resamples; delta = 1.5 * 2.5 / 100 = 0.0375; upper index
    # int(0.4625) = 0, lower index 0, ratio 0.4625. Both bounds: 0.2 + 0.2 * 0.4625 = 0.2925.
    summary = printed(_rows(0.4, 0.2), 95.0, 1.5)
    assert summary.lower == ("0.29250",) * 3
    assert summary.upper == ("0.29250",) * 3
    assert summary.average == ("0.30000",) * 3


def test_average_sums_the_sorted_values() -> None:
    # The mean is exactly 2.4977 / 4 = 0.624425. Summed in this order the float total
    # gives 0.62442; summed in ascending order (as the Perl does) it gives 0.62443.
    values = [0.99913, 0.91204, 0.58377, 0.00276]
    unsorted = 0.0
    for v in values:
        unsorted += v
    assert f"{unsorted / 4:7.5f}" == "0.62442"
    assert printed(_rows(*values), 95.0, 4).average == ("0.62443",) * 3


def test_no_resample_divides_by_zero() -> None:
    with pytest.raises(ComputeError):
        summarize(np.zeros((3, 0)), 95.0, 0)


# ---------------------------------------------------------------------------
# Streamed resamples: the summary without holding the r values
# ---------------------------------------------------------------------------

needs_kernel = pytest.mark.skipif(_kernel.accel is None, reason="C kernel not built")
PATHS = [pytest.param(True, id="kernel", marks=needs_kernel), pytest.param(False, id="numpy")]
HELD = Streaming(above=10**9)  # never streams


def _bits(summary: Summary) -> tuple[str, ...]:
    """The summary's floats bit for bit (any NaN as one token: every NaN prints as nan)."""
    return tuple(
        float(v).hex() if v == v else "nan"
        for part in (summary.average, summary.lower, summary.upper)
        for v in part
    )


def _summaries(
    monkeypatch: pytest.MonkeyPatch,
    kernel: bool,
    rows: list[list[float]],
    resamples: float,
    counting: int,
    streaming: Streaming,
    confidence: float = 95.0,
    alpha: float = 0.4,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The summary held in memory and the streamed one, on the kernel or the numpy path."""
    if not kernel:
        monkeypatch.setattr(_kernel, "accel", None)
    count = math.ceil(resamples)
    held = resample(rows, count, counting, alpha, HELD)
    streamed = resample(rows, count, counting, alpha, streaming)
    assert not isinstance(held, Streamed)
    assert isinstance(streamed, Streamed)
    return _bits(summarize(held, confidence, resamples)), _bits(summarize(streamed, confidence, resamples))


def _table(rng: random.Random, kind: str, n: int, counting: int) -> list[list[float]]:
    """An instance table of n rows: rounded scores (counting 0) or counts (1), of one kind of spread."""

    def value() -> float:
        if kind == "equal":
            return 7.0 if counting else 0.5
        if kind == "few":
            return float(rng.choice([0, 2, 5])) if counting else rng.choice([0.0, 0.25, 0.5])
        if kind == "nan" and rng.random() < 0.1:
            return rng.choice([math.nan, math.inf, -math.inf])
        return float(rng.randrange(0, 40)) if counting else round(rng.random(), 5)

    return [[value() for _ in range(3)] for _ in range(n)]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy on NaN and inf - inf
@pytest.mark.parametrize("kernel", PATHS)
@pytest.mark.parametrize("counting", [0, 1])
@pytest.mark.parametrize("kind", first_fast(["spread", "few", "equal", "nan"]))
def test_streamed_summary_is_the_held_one(
    kernel: bool, counting: int, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random tables, window budgets from 1 value up, blocks that do not divide r, -r fractional or not."""
    rng = random.Random(f"{kind}{counting}")
    for _ in range(30):
        n = rng.choice([1, 2, 3, 6, 25])
        rows = _table(rng, kind, n, counting)
        resamples = rng.choice([1, 2, 5, 64, 301, 1000, 1000.5, 2049.25])
        count = math.ceil(resamples)
        streaming = Streaming(  # at most about 20 windows a column, so that the test stays fast
            above=0,
            block=rng.choice([1, 7, 64, 500] if count <= 64 else [7, 64, 500]),
            budget=max(count // 20, rng.choice([1, 3, 40, 333, 5000])),
            sample=rng.choice([1, 4, 50, 1000]),
        )
        confidence = rng.choice([95.0, 90.0, 0.0, 100.0, 99.9])
        with monkeypatch.context() as patch:
            held, streamed = _summaries(patch, kernel, rows, resamples, counting, streaming, confidence)
        assert streamed == held, (rows, resamples, streaming, confidence)


@pytest.mark.parametrize("kernel", PATHS)
def test_streamed_summary_of_no_instances(kernel: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    held, streamed = _summaries(
        monkeypatch, kernel, [], 10, 0, Streaming(above=0, block=3, budget=2, sample=2)
    )
    assert streamed == held == _bits(Summary((0.0,) * 3, (0.0,) * 3, (0.0,) * 3))  # type: ignore[arg-type]


@pytest.mark.parametrize("kernel", PATHS)
@pytest.mark.parametrize("counting", [0, 1])
def test_streamed_windows_hold_at_most_the_budget(
    kernel: bool, counting: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows are sorted one at a time, none larger than the budget; too-full windows get split."""
    rng = random.Random(counting)
    rows = _table(rng, "spread", 30, counting)
    sizes: list[int] = []
    splits: list[int] = []
    sort, split = bootstrap._Ops.sort, bootstrap._split

    def recording_sort(self: bootstrap._Ops, held: object) -> object:
        ranked = sort(self, held)
        sizes.append(len(ranked))  # type: ignore[arg-type]
        return ranked

    def recording_split(*args: object) -> object:
        splits.append(1)
        return split(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(bootstrap._Ops, "sort", recording_sort)
    monkeypatch.setattr(bootstrap, "_split", recording_split)
    # One sampled value per column misplaces the windows: they overflow and are split.
    streaming = Streaming(above=0, block=100, budget=150, sample=1)
    held, streamed = _summaries(monkeypatch, kernel, rows, 3001, counting, streaming)
    assert streamed == held
    assert splits
    windows = sizes[3:]  # the first three sorts are the samples
    assert max(windows) <= 150
    assert sum(windows) >= 3 * 3001 - 3 * 150 * len(splits)  # every value went through some window


@pytest.mark.parametrize("kernel", PATHS)
@pytest.mark.parametrize("counting", [0, 1])
def test_streamed_columns_read_as_the_held_ones(
    kernel: bool, counting: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not kernel:
        monkeypatch.setattr(_kernel, "accel", None)
    rows = _table(random.Random(3), "spread", 9, counting)
    held = resample(rows, 1001, counting, 0.5, HELD)
    streamed = resample(rows, 1001, counting, 0.5, Streaming(above=1000, block=64))
    assert isinstance(streamed, Streamed) and len(streamed) == 3
    for k in range(3):
        assert np.asarray(streamed[k]).tobytes() == np.asarray(held[k], dtype=float).tobytes()
    assert [np.asarray(c).tobytes() for c in streamed[1:]] == [
        np.asarray(streamed[k]).tobytes() for k in (1, 2)
    ]


def test_only_more_resamples_than_the_threshold_stream() -> None:
    rows = [[0.5, 0.25, 0.125]]
    assert not isinstance(resample(rows, STREAMING.above, 0, 0.5), Streamed)
    assert isinstance(resample(rows, STREAMING.above + 1, 0, 0.5), Streamed)
    assert STREAMING.above == 2**17


def test_streamed_at_the_default_sizes() -> None:
    """Just above the threshold, with the default block, budget and sample: the held summary."""
    rows = _table(random.Random(9), "spread", 40, 0)
    count = STREAMING.above + 12345
    streamed = resample(rows, count, 0, 0.5)
    assert isinstance(streamed, Streamed)
    held = resample(rows, count, 0, 0.5, HELD)
    assert _bits(summarize(streamed, 95.0, count)) == _bits(summarize(held, 95.0, count))


@needs_kernel
def test_kernel_makes_any_resamples_of_the_run() -> None:
    """bootstrap_sums(..., first, step) makes resamples first, first + step, ...: rows of the full run."""
    kernel = _kernel.accel
    rows = array("d", [float(v) for v in range(1, 22)])  # 7 instances
    full = array("d", bytes(24 * 40))
    kernel.bootstrap_sums(rows, 40, full, 7.0)
    part = array("d", bytes(24 * 6))
    kernel.bootstrap_sums(rows, 6, part, 7.0, 9, 5)  # resamples 9, 14, ..., 34
    assert part.tolist() == [v for i in range(9, 35, 5) for v in full[3 * i : 3 * i + 3]]
    sums = array("d", bytes(24 * 40))
    kernel.bootstrap_sums(rows, 40, sums)
    part = array("d", bytes(24 * 3))
    kernel.bootstrap_sums(rows, 3, part, 0.0, 37)  # resamples 37, 38, 39, not divided
    assert part.tolist() == sums[3 * 37 :].tolist()
    for first, step in ((-1, 1), (0, 0)):
        with pytest.raises(ValueError):
            kernel.bootstrap_sums(rows, 3, part, 0.0, first, step)


@needs_kernel
@pytest.mark.parametrize("tables", [1, 3, 4, 6])
@pytest.mark.parametrize("ordered", [False, True])
def test_keyed_rows_give_the_sums_of_the_rows(tables: int, ordered: bool) -> None:
    """bootstrap_sums(..., keyed=1) draws from each table's distinct rows and the instances' keys:
    the same sums bit for bit as the rows themselves (keyed=0), signed zeros and NaN included; a
    table of too many distinct rows falls back to the rows, with the same sums again."""
    kernel = _kernel.accel
    rng = random.Random(tables * 2 + ordered)
    n = 1001
    levels = [0.0, -0.0, 0.25, 1 / 3, 0.1 + 0.2, math.nan, 1.0, 2 / 7]
    values = [array("d", [rng.choice(levels) for _ in range(3 * n)]) for _ in range(tables)]
    values[-1] = array("d", [rng.random() for _ in range(3 * n)])  # all distinct: not keyed
    order = array("q", rng.sample(range(n), n)) if ordered else None
    for few in (values[:-1] or values, values):
        width = 3 * len(few)
        for resamples, first, step in ((7, 0, 1), (6, 5, 3), (53, 2, 1)):
            keyed, plain = array("d", bytes(8 * width * resamples)), array("d", bytes(8 * width * resamples))
            kernel.bootstrap_sums(tuple(few), resamples, keyed, float(n), first, step, order, 1)
            kernel.bootstrap_sums(tuple(few), resamples, plain, float(n), first, step, order, 0)
            assert keyed.tobytes() == plain.tobytes()
            auto = array("d", bytes(8 * width * resamples))
            kernel.bootstrap_sums(tuple(few), resamples, auto, float(n), first, step, order)
            assert auto.tobytes() == plain.tobytes()


@needs_kernel
@pytest.mark.parametrize("tables", [1, 2, 3, 5])
def test_every_path_adds_the_perls_draws_in_order(tables: int) -> None:
    """Packed, keyed and plain draws, with and without an order, for 1 to 40 instances and
    around 48 and 64 (fewer and more than the draws the kernel asks for ahead, at each of its
    distances) and an odd number of resamples (the last one alone): each sum is the drawn rows
    added one by one in the order of the Perl's draws (plain integers), bit for bit."""
    kernel = _kernel.accel
    rng = random.Random(tables)
    levels = [0.0, -0.0, 0.25, 1 / 3, 0.1 + 0.2, 1.0, 2 / 7, 1e-5]
    for n in [*range(1, 41), 47, 48, 49, 63, 64, 65, 97]:
        # rows from at most n / 4 + 1 distinct ones, so that keyed=1 keys them
        pools = [[[rng.choice(levels) for _ in range(3)] for _ in range(n // 4 + 1)] for _ in range(tables)]
        values = [array("d", [v for _ in range(n) for v in rng.choice(pool)]) for pool in pools]
        order = rng.sample(range(n), n)
        resamples, first, step = 5, rng.randrange(0, 9), rng.choice([1, 2])
        for ordered in (False, True):
            expected = []
            for i in range(resamples):
                for table in values:
                    sums = None
                    for k in perl_rand_ints(first + i * step, n, n):
                        row = order[k] if ordered else k
                        drawn = table[3 * row : 3 * row + 3]
                        sums = list(drawn) if sums is None else [a + b for a, b in zip(sums, drawn)]
                    expected.extend(sums)
            for keyed, ahead in ((0, -1), (1, -1), (1, 0), (1, 1), (1, 2)):
                out = array("d", bytes(8 * 3 * tables * resamples))
                given_order = array("q", order) if ordered else None
                kernel.bootstrap_sums(
                    tuple(values), resamples, out, 0.0, first, step, given_order, keyed, ahead
                )
                assert out.tobytes() == array("d", expected).tobytes(), (n, ordered, keyed, ahead)
            if tables == 1 and not ordered:
                out = array("d", bytes(24 * resamples))
                kernel.bootstrap_sums(values[0], resamples, out, 0.0, first, step)
                assert out.tobytes() == array("d", expected).tobytes(), n


@needs_kernel
def test_how_far_ahead_is_checked() -> None:
    rows = array("d", [0.5] * 30)
    out = array("d", bytes(24 * 4))
    for ahead in (-2, 3):
        with pytest.raises(ValueError, match="ahead"):
            _kernel.accel.bootstrap_sums(rows, 4, out, 0.0, 0, 1, None, 1, ahead)


@needs_kernel
def test_keys_past_two_bytes_give_the_sums_of_the_rows() -> None:
    """A table of more than 65,536 distinct rows (but at most a quarter of its instances) is keyed
    in 4 bytes, after a table of few kept in 2 (its keys then widened): the rows' sums bit for bit."""
    rng = np.random.default_rng(11)
    n = 300_000
    few = rng.integers(0, 10, (n, 3)) / 7
    many = rng.integers(0, 70_000, n)[:, None] / np.array([3.0, 5.0, 11.0])
    assert len(np.unique(many, axis=0)) > 65_536
    tables = (np.ascontiguousarray(few), np.ascontiguousarray(many), np.ascontiguousarray(few[::-1]))
    order = array("q", rng.permutation(n).tolist())
    keyed, plain = np.zeros((3, 9)), np.zeros((3, 9))
    _kernel.accel.bootstrap_sums(tables, 3, keyed, float(n), 4, 1, order, 1)
    _kernel.accel.bootstrap_sums(tables, 3, plain, float(n), 4, 1, order, 0)
    assert keyed.tobytes() == plain.tobytes()


@needs_kernel
def test_keyed_rows_of_a_large_table_match_numpy() -> None:
    """Rows large enough to be keyed by default (a table of 100,000 instances), of few distinct
    values as ROUGE's are: the numpy path's sums."""
    rng = np.random.default_rng(5)
    n = 100_000
    hits, models, peers = rng.integers(0, 30, n), rng.integers(30, 45, n), rng.integers(30, 45, n)
    table = np.stack([hits / models, hits / peers, 2 * hits / (models + peers)], axis=1)
    assert len(np.unique(table, axis=0)) < n // 4
    out = np.zeros((9, 3))
    _kernel.accel.bootstrap_sums(np.ascontiguousarray(table), 9, out)
    assert np.array_equal(out.T, bootstrap._numpy_sums(table, 9))


def test_indices_from_any_first_resample() -> None:
    assert drand48_indices(9, 4, 6).tolist() == drand48_indices(9, 10)[6:].tolist()
    for seed in (6, 7, 8, 9):
        assert drand48_indices(9, 4, 6)[seed - 6].tolist() == perl_rand_ints(seed, 9, 9)


@pytest.mark.parametrize("alpha", [0.0, 0.3, 0.5, 1.0])
def test_scores_are_those_of_the_point_estimate(alpha: float) -> None:
    """The -t 1 resample scores written out for speed are ratio() and f_measure(), bit for bit."""
    rng = random.Random(alpha)
    sums = [[float(rng.choice([0, 0, 1, 3, 17, 1000])) for _ in range(3)] for _ in range(400)]
    models, peers, hits = ([row[k] for row in sums] for k in range(3))
    recall = [ratio(h, m) for m, h in zip(models, hits)]
    precision = [ratio(h, p) for p, h in zip(peers, hits)]
    f = [f_measure(p, r, alpha) for p, r in zip(precision, recall)]
    expected = [np.array(c).tobytes() for c in (recall, precision, f)]
    written = bootstrap._scores(models, peers, hits, alpha, (True, True, True))
    assert [np.array(c).tobytes() for c in written] == expected
    vector = bootstrap._numpy_scores(np.array([models, peers, hits]), alpha, (True, True, True))
    assert [np.asarray(c).tobytes() for c in vector] == expected
    only_f = bootstrap._scores(models, peers, hits, alpha, (False, False, True))
    assert only_f[:2] == [None, None] and np.array(only_f[2]).tobytes() == expected[2]


@needs_kernel
@pytest.mark.parametrize("tables", [1, 3, 6])
def test_kernel_takes_rows_in_a_given_order(tables: int) -> None:
    """bootstrap_sums(..., order): the sums of the rows taken at those positions, bit for bit the
    sums of the rows reordered beforehand; an order that is not n positions in range is refused."""
    kernel = _kernel.accel
    rng = random.Random(tables)
    n = 257
    values = [array("d", [round(rng.random(), 5) for _ in range(3 * n)]) for _ in range(tables)]
    order = list(range(n))
    rng.shuffle(order)
    moved = [array("d", [v for k in order for v in table[3 * k : 3 * k + 3]]) for table in values]
    given, expected = array("d", bytes(24 * tables * 50)), array("d", bytes(24 * tables * 50))
    kernel.bootstrap_sums(tuple(values), 50, given, float(n), 3, 2, array("q", order))
    kernel.bootstrap_sums(tuple(moved), 50, expected, float(n), 3, 2)
    assert given.tobytes() == expected.tobytes()
    for bad in (order[:-1], [*order[:-1], n], [*order[:-1], -1]):
        with pytest.raises(ValueError, match="order"):
            kernel.bootstrap_sums(tuple(values), 50, given, float(n), 0, 1, array("q", bad))
