#!/usr/bin/env python3
"""Measure the analyses of rouge155py.stats: exactness against references, stability, time.

    python scripts/check_stats.py                  # everything below
    python scripts/check_stats.py --only coefficients,permutation
    python scripts/check_stats.py --only timing --evals 50 --systems 30

Selections (``--only``, comma-separated):

  coefficients  Pearson, Spearman and Kendall's tau-b against scipy.stats on
                ``--tables`` random tables (3 to 80 pairs; half drawn from a few
                values, so with many ties): the count and the largest difference.
  permutation   the exact permutation test against a brute force over every swap
                (2^n of them) on small cases (n = 1 to 12, scores with ties): the
                count and the largest difference of p-values; then on n = 13 to 16
                how far the Monte Carlo test (10,000 samples) and the paired
                bootstrap's p-value are from the exact one.
  seeds         the paired bootstrap's 95% interval of a difference on the bundled
                example over ``--seeds`` seeds: width mean, standard deviation,
                min and max, and the spread of the p-value; the same for a
                correlation's interval on a generated judged example.
  timing        wall times on the bundled example and on a generated DUC-like
                judged run (``--evals`` x ``--systems``, 4 models of 100 words):
                the report alone, ``--compare`` with each test (all pairs),
                ``--judgments``; each its own process.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Optional

import numpy as np
from make_judgments_example import generate

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = [
    "-e",
    str(REPO / "data"),
    "-a",
    "-n",
    "2",
    str(REPO / "examples" / "duc-mini" / "rouge-config.xml"),
]


def coefficients(tables: int) -> None:
    import scipy.stats

    from rouge155py.stats.correlation import kendall_tau_b, pearson, spearman

    rng = np.random.default_rng(2026)
    pairs = []
    for k in range(tables):
        n = int(rng.integers(3, 81))
        if k % 2:
            x = rng.integers(0, 5, size=n).astype(float)
            y = rng.integers(0, 4, size=n) + 0.5 * x
        else:
            x = rng.normal(size=n)
            y = 0.6 * x + rng.normal(size=n)
        if len(set(x)) > 1 and len(set(y)) > 1:
            pairs.append((x, y))
    theirs = {
        "pearson": (pearson, lambda x, y: scipy.stats.pearsonr(x, y).statistic),
        "spearman": (spearman, lambda x, y: scipy.stats.spearmanr(x, y).statistic),
        "kendall tau-b": (kendall_tau_b, lambda x, y: scipy.stats.kendalltau(x, y).statistic),
    }
    for name, (ours, reference) in theirs.items():
        worst = max(abs(float(ours(x, y)) - float(reference(x, y))) for x, y in pairs)
        print(f"coefficients: {name}: {len(pairs)} tables, largest difference from scipy {worst:.3g}")


def _brute_force(a: list[int], b: list[int]) -> Fraction:
    observed = abs(sum(a) - sum(b))
    at_least = 0
    for swaps in itertools.product((False, True), repeat=len(a)):
        left = sum(y if s else x for x, y, s in zip(a, b, swaps))
        at_least += abs(2 * left - sum(a) - sum(b)) >= observed
    return Fraction(at_least, 2 ** len(a))


def permutation() -> None:
    from rouge155py.stats.significance import bootstrap_differences, permutation_p_values

    rng = np.random.default_rng(25)
    values = [0, 12500, 25000, 33333, 50000, 66667, 75000, 100000]
    cases = 0
    worst = 0.0
    for n in range(1, 13):
        for _ in range(25):
            a = [int(v) for v in rng.choice(values, size=n)]
            b = [int(v) for v in rng.choice(values, size=n)]
            d = np.array([[x - y] for x, y in zip(a, b)], dtype=np.float64)
            p, exact = permutation_p_values(d, 2**n, seed=1)
            assert exact
            worst = max(worst, abs(float(p[0]) - float(_brute_force(a, b))))
            cases += 1
    print(
        f"permutation: exact test against brute force: {cases} cases (n = 1..12),"
        f" largest difference {worst:.3g}"
    )
    monte, boot = [], []
    for n in range(13, 17):
        for _ in range(5):
            a = [int(v) for v in rng.integers(20000, 60000, size=n)]
            b = [x + int(e) for x, e in zip(a, rng.integers(-9000, 14000, size=n))]
            exact_p = float(_brute_force(a, b))
            d = np.array([[x - y] for x, y in zip(a, b)], dtype=np.float64)
            p, _ = permutation_p_values(d, 10_000, seed=2)
            monte.append(abs(float(p[0]) - exact_p))
            drawn = bootstrap_differences(np.array([a, b], dtype=np.float64), [(0, 1)], 10_000, seed=2)[0]
            observed = (sum(a) - sum(b)) / n
            at_least = int((np.abs(drawn - observed) >= abs(observed)).sum())
            boot.append(abs((1 + at_least) / 10_001 - exact_p))
    print(
        "permutation: n = 13..16, 20 cases, 10,000 samples:"
        f" Monte Carlo p - exact p: largest {max(monte):.4f},"
        f" mean {statistics.mean(monte):.4f}; paired bootstrap p - exact p: largest {max(boot):.4f},"
        f" mean {statistics.mean(boot):.4f} (another test: close, not equal)"
    )


def _spread(name: str, widths: list[float]) -> None:
    mean = statistics.mean(widths)
    sd = statistics.stdev(widths)
    print(
        f"seeds: {name}: {len(widths)} seeds, width mean {mean:.5f},"
        f" sd {sd:.5f} ({100 * sd / mean:.1f}% of the mean),"
        f" min {min(widths):.5f}, max {max(widths):.5f}"
    )


def seeds(count: int, workdir: Path) -> None:
    from rouge155py import evaluate_args
    from rouge155py.stats.correlation import CorrelateSettings, correlate, report_variants
    from rouge155py.stats.judgments import read_judgments
    from rouge155py.stats.significance import compare

    report = evaluate_args(EXAMPLE)
    for samples in (1000, 10_000):
        widths, p_values = [], []
        for seed in range(count):
            (row,) = compare(
                report, "paired-bootstrap", "3", metrics=["ROUGE-2"], samples=samples, seed=seed
            ).rows[1:]
            widths.append(row.high - row.low)
            p_values.append(row.p_value)
        _spread(f"bundled example, ROUGE-2 F, system 2 - system 3, {samples} samples", widths)
        print(f"seeds:   its p-value over the seeds: {min(p_values):.4f} to {max(p_values):.4f}")
    root = workdir / "judged-20x8"
    generate(root, 20, 8, 4, 100, 1)
    variant = report_variants(evaluate_args(["-a", "-n", "2", "-m", str(root / "config.xml")]), ["R"])
    judgments = read_judgments(root / "judgments.csv")
    for level in ("system", "summary"):
        widths = []
        for seed in range(count):
            settings = CorrelateSettings(samples=1000, seed=seed)
            found = correlate(
                {"ROUGE-2 R": variant["ROUGE-2 R"]}, judgments, [level], ["pearson"], ["coverage"], settings
            )
            widths.append(found.rows[0].high - found.rows[0].low)
        _spread(
            f"generated 20 x 8, ROUGE-2 R vs coverage, {level}-level Pearson, 1000 samples (both)", widths
        )


def _timed(argv: list[str]) -> float:
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "rouge155py", *argv], capture_output=True, check=False)
    seconds = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"failed: {' '.join(argv)}: {run.stderr.decode()}")
    return seconds


def timing(evals: int, systems: int, workdir: Path) -> None:
    root = workdir / f"judged-{evals}x{systems}"
    generate(root, evals, systems, 4, 100, 1)
    duc = ["-a", "-n", "2", "-m", "-2", "4", "-U", "-w", "1.2", str(root / "config.xml")]
    runs = [
        ("bundled example, report", EXAMPLE),
        ("bundled example, --compare paired-bootstrap", ["--compare", "paired-bootstrap", *EXAMPLE]),
        ("bundled example, --compare permutation", ["--compare", "permutation", *EXAMPLE]),
        (f"{evals} x {systems}, report", duc),
        (
            f"{evals} x {systems}, --compare paired-bootstrap (all pairs)",
            ["--compare", "paired-bootstrap", *duc],
        ),
        (f"{evals} x {systems}, --compare permutation (all pairs)", ["--compare", "permutation", *duc]),
        (
            f"{evals} x {systems}, --judgments (2 judgments)",
            ["--judgments", str(root / "judgments.csv"), *duc],
        ),
    ]
    for name, argv in runs:
        print(f"timing: {name}: {_timed(argv):.2f} s")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", default="coefficients,permutation,seeds,timing")
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--evals", type=int, default=50)
    parser.add_argument("--systems", type=int, default=30)
    args = parser.parse_args(argv)
    chosen = args.only.split(",")
    with tempfile.TemporaryDirectory(prefix="rouge155py-stats-") as work:
        workdir = Path(work)
        if "coefficients" in chosen:
            coefficients(args.tables)
        if "permutation" in chosen:
            permutation()
        if "seeds" in chosen:
            seeds(args.seeds, workdir)
        if "timing" in chosen:
            timing(args.evals, args.systems, workdir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
