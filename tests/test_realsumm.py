"""The correlation analyses on a real judged corpus: REALSumm's 14 abstractive systems on 100
CNN/DailyMail documents, LitePyramid recall against the metrics REALSumm computed
(tests/fixtures/realsumm/, CC BY 4.0; its README names the source)."""

from __future__ import annotations

import csv
import itertools
import math
from pathlib import Path

import numpy as np
import pytest

scipy_stats = pytest.importorskip("scipy.stats")

from rouge155py.stats import read_judgments, read_scores  # noqa: E402
from rouge155py.stats.correlation import (  # noqa: E402
    CorrelateSettings,
    correlate,
    correlation_difference,
    permutation_p_value,
)

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "realsumm"
TESTS = {
    "pearson": scipy_stats.pearsonr,
    "spearman": scipy_stats.spearmanr,
    "kendall": scipy_stats.kendalltau,
}


def _grids() -> tuple[list[str], list[str], dict[str, np.ndarray], np.ndarray]:
    """Systems, documents, each metric's grid and the judgment's, read with the csv module."""
    with open(FIXTURE / "scores.csv", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))[1:]  # the direction row aside
    with open(FIXTURE / "judgments.csv", encoding="utf-8") as file:
        judged = {(r["eval_id"], r["system"]): float(r["litepyramid_recall"]) for r in csv.DictReader(file)}
    systems = sorted({r["system"] for r in rows})
    documents = sorted({r["eval_id"] for r in rows})
    metrics = [c for c in rows[0] if c not in ("eval_id", "system")]
    cell = {(r["eval_id"], r["system"]): r for r in rows}
    grids = {m: np.array([[float(cell[(d, s)][m]) for d in documents] for s in systems]) for m in metrics}
    human = np.array([[judged[(d, s)] for d in documents] for s in systems])
    return systems, documents, grids, human


def test_the_fixture_is_realsumms_abstractive_grid() -> None:
    systems, documents, _, human = _grids()
    assert len(systems) == 14 and len(documents) == 100 and human.shape == (14, 100)
    table = read_scores(FIXTURE / "scores.csv")
    assert table.lower_is_better == {"js_divergence"} and len(table.variants) == 7


def test_every_coefficient_and_p_value_is_scipys() -> None:
    _, documents, grids, human = _grids()
    found = correlate(
        read_scores(FIXTURE / "scores.csv").variants,
        read_judgments(FIXTURE / "judgments.csv"),
        settings=CorrelateSettings(resample="none"),
    )
    assert len(found.rows) == 7 * 3 * 3
    for row in found.rows:
        x, test = grids[row.variant], TESTS[row.coefficient]
        if row.level == "system":
            expected = test(x.mean(axis=1), human.mean(axis=1))
        elif row.level == "global":
            expected = test(x.ravel(), human.ravel())
        else:  # per document, across the systems; the mean of the defined ones
            per_document = [test(x[:, k], human[:, k]).statistic for k in range(len(documents))]
            value = np.nanmean([v for v in per_document if math.isfinite(v)])
            assert row.value == pytest.approx(value, abs=1e-12) and math.isnan(row.p)
            continue
        assert row.value == pytest.approx(expected.statistic, abs=1e-12), (
            row.variant,
            row.level,
            row.coefficient,
        )
        assert row.p == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-300), (row.variant, row.level)


def test_a_divergence_is_read_as_the_agreement_it_gives() -> None:
    variants = read_scores(FIXTURE / "scores.csv").variants
    judgments = read_judgments(FIXTURE / "judgments.csv")
    settings = CorrelateSettings(samples=300, seed=2)
    rows = correlate(
        variants, judgments, settings=CorrelateSettings(resample="none"), lower_is_better={"js_divergence"}
    )
    for level, coefficient in itertools.product(("system", "summary", "global"), TESTS):
        divergence = rows.get("js_divergence", "litepyramid_recall", level, coefficient)
        negated = rows.get("js-2", "litepyramid_recall", level, coefficient)
        assert divergence.value == pytest.approx(-negated.value, abs=1e-12) and divergence.value < 0
        assert divergence.oriented == pytest.approx(negated.value, abs=1e-12)
    as_divergence = correlation_difference(
        variants,
        judgments,
        "js_divergence",
        "rouge_1_f_score",
        settings=settings,
        lower_is_better={"js_divergence"},
    )
    as_published = correlation_difference(variants, judgments, "js-2", "rouge_1_f_score", settings=settings)
    assert as_divergence.oriented and not as_published.oriented
    for name in ("value_a", "difference", "low", "high", "p_bootstrap", "williams_t", "p_williams"):
        assert getattr(as_divergence, name) == pytest.approx(getattr(as_published, name), abs=1e-12), name


def test_the_permutation_test_on_a_real_subgrid_is_the_exact_count() -> None:
    _, _, grids, human = _grids()
    xa, xb, y = grids["bert_f_score"][:6, :5], grids["rouge_2_recall"][:6, :5], human[:6, :5]

    def standard(grid: np.ndarray) -> np.ndarray:
        return (grid - grid.mean()) / grid.std()

    a, b, z = standard(xa), standard(xb), standard(y)

    def r(x: np.ndarray) -> float:
        return float(scipy_stats.pearsonr(x.mean(axis=1), z.mean(axis=1)).statistic)

    observed = r(a) - r(b)
    swaps = [
        np.broadcast_to(np.array(rows)[:, None], a.shape)
        for rows in itertools.product([False, True], repeat=6)
    ]
    count = sum(abs(r(np.where(s, b, a)) - r(np.where(s, a, b))) >= abs(observed) - 1e-12 for s in swaps)
    exact = permutation_p_value(xa, xb, y, "system", "pearson", "systems", 0, 0, swaps=np.array(swaps))
    assert exact == (1 + count) / (len(swaps) + 1)


def test_the_per_system_level_on_realsumm() -> None:
    _, _, grids, human = _grids()
    found = correlate(
        read_scores(FIXTURE / "scores.csv").variants,
        read_judgments(FIXTURE / "judgments.csv"),
        levels=["per-system"],
        coefficients=["pearson"],
        settings=CorrelateSettings(resample="none"),
    )
    for row in found.rows:
        x = grids[row.variant]
        per_system = [scipy_stats.pearsonr(x[k], human[k]).statistic for k in range(x.shape[0])]
        assert row.value == pytest.approx(float(np.mean(per_system)), abs=1e-12), row.variant


def test_missing_cells_on_realsumm_leave_out_their_documents() -> None:
    from rouge155py.stats.judgments import Judgments

    variants = read_scores(FIXTURE / "scores.csv").variants
    judgments = read_judgments(FIXTURE / "judgments.csv")
    del judgments.scores["litepyramid_recall"][("7", "bart_out")]
    del variants["bert_f_score"]["presumm_out_trans_abs"]["42"]
    found = correlate(variants, judgments, settings=CorrelateSettings(resample="none"), missing="drop-items")
    assert any("2 of 100 judged items left out" in w for w in found.warnings)
    kept = [d for d in judgments.items() if d not in ("7", "42")]
    rows = [
        {"eval_id": d, "system": s, "litepyramid_recall": v}
        for (d, s), v in judgments.scores["litepyramid_recall"].items()
        if d in kept
    ]
    subset = {m: {s: {d: by[d] for d in kept} for s, by in table.items()} for m, table in variants.items()}
    alone = correlate(subset, Judgments.from_rows(rows), settings=CorrelateSettings(resample="none"))
    assert [(r.variant, r.level, r.coefficient, r.value, r.p) for r in found.rows] == [
        (r.variant, r.level, r.coefficient, r.value, r.p) for r in alone.rows
    ]
