"""Judgments by several annotators: Krippendorff's alpha against the ``krippendorff`` package,
per-annotator z-normalization and the annotator ceiling against their definitions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

scipy_stats = pytest.importorskip("scipy.stats")
krippendorff = pytest.importorskip("krippendorff")

from rouge155py.errors import ComputeError, ConfigError  # noqa: E402
from rouge155py.stats.annotators import (  # noqa: E402
    Annotations,
    annotator_ceiling,
    krippendorff_alpha,
    read_annotations,
)
from rouge155py.stats.correlation import CorrelateSettings, correlate  # noqa: E402


def _random(seed: int, annotators: int = 4, cells: int = 40, missing: float = 0.25):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    data = np.full((annotators, cells), np.nan)
    rows = []
    for c in range(cells):
        truth = rng.integers(1, 6)
        for a in range(annotators):
            if rng.random() >= missing:
                value = float(np.clip(truth + rng.integers(-1, 2), 1, 5))
                data[a, c] = value
                rows.append({"eval_id": f"D{c // 4}", "system": str(c % 4), "annotator": f"a{a}", "q": value})
    return Annotations.from_rows(rows), data


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("level", ["interval", "ordinal"])
def test_alpha_is_the_krippendorff_packages(seed: int, level: str) -> None:
    annotations, data = _random(seed)
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert krippendorff_alpha(annotations, "q", level) == pytest.approx(expected, abs=1e-12)


def test_alpha_of_perfect_agreement_and_of_nothing_to_pair() -> None:
    rows = [{"eval_id": i, "system": "1", "rater": r, "q": float(i)} for i in range(1, 6) for r in "xy"]
    assert krippendorff_alpha(Annotations.from_rows(rows), "q") == 1.0
    alone = Annotations.from_rows([{"eval_id": i, "system": "1", "rater": "x", "q": i} for i in range(3)])
    with pytest.raises(ComputeError, match="two annotators"):
        krippendorff_alpha(alone, "q")


def _complete(seed: int, annotators: int = 3, systems: int = 6, items: int = 5):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    quality = rng.uniform(size=systems)
    grid = quality[None, :, None] + 0.4 * rng.normal(size=(annotators, systems, items))
    grid += rng.uniform(-2, 2, size=(annotators, 1, 1))  # each annotator's own offset
    rows = [
        {"eval_id": str(i), "system": f"s{s}", "annotator": f"a{a}", "q": float(grid[a, s, i])}
        for a in range(annotators)
        for s in range(systems)
        for i in range(items)
    ]
    return Annotations.from_rows(rows), grid


def test_z_normalized_judgments_are_the_mean_of_each_annotators_z_scores() -> None:
    annotations, grid = _complete(1)
    z = (grid - grid.mean(axis=(1, 2), keepdims=True)) / grid.std(axis=(1, 2), keepdims=True)
    plain = annotations.judgments()
    normalized = annotations.judgments(normalize=True)
    for s in range(6):
        for i in range(5):
            assert plain.scores["q"][(str(i), f"s{s}")] == pytest.approx(grid[:, s, i].mean(), abs=1e-12)
            assert normalized.scores["q"][(str(i), f"s{s}")] == pytest.approx(z[:, s, i].mean(), abs=1e-12)
    variants = {"q-copy": {f"s{s}": {str(i): float(grid[0, s, i]) for i in range(5)} for s in range(6)}}
    assert correlate(variants, normalized, settings=CorrelateSettings(resample="none")).rows  # it correlates


@pytest.mark.parametrize(("level", "coefficient"), [("system", "pearson"), ("global", "kendall")])
def test_the_ceiling_is_each_annotator_against_the_others(level: str, coefficient: str) -> None:
    annotations, grid = _complete(2, annotators=4)
    test = scipy_stats.pearsonr if coefficient == "pearson" else scipy_stats.kendalltau
    values = []
    for a in range(4):
        others = np.delete(grid, a, axis=0).mean(axis=0)
        x, y = (
            (grid[a].mean(axis=1), others.mean(axis=1))
            if level == "system"
            else (grid[a].ravel(), others.ravel())
        )
        values.append(test(x, y).statistic)
    assert annotator_ceiling(annotations, "q", level, coefficient) == pytest.approx(
        np.mean(values), abs=1e-12
    )
    sparse, _ = _random(3)
    with pytest.raises(ComputeError, match="every annotator on every cell"):
        annotator_ceiling(sparse, "q")


def test_reading_annotations(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("eval_id,system,annotator,q\nD1,1,x,3\nD1,1,y,4\nD1,2,x,2\n", encoding="utf-8")
    found = read_annotations(path)
    assert found.scores == {"q": {("D1", "1"): {"x": 3.0, "y": 4.0}, ("D1", "2"): {"x": 2.0}}}
    assert found.annotators("q") == ["x", "y"]
    twice = tmp_path / "b.csv"
    twice.write_text("eval_id,system,annotator,q\nD1,1,x,3\nD1,1,x,4\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="judged eval 'D1', system '1' twice"):
        read_annotations(twice)
    none = tmp_path / "c.jsonl"
    none.write_text('{"eval_id": "D1", "system": "1", "q": 3}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="the annotator needs one column"):
        read_annotations(none)
