"""Reference curves: each variant's correlation with people as the references per eval go from
1 to N, each subset's run checked against the same run made with ``--model-subset``."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

pytest.importorskip("scipy")

from rouge155py import evaluate_args, parse_command_line
from rouge155py.errors import ComputeError, UsageError
from rouge155py.stats.correlation import CorrelateSettings, correlate, report_variants
from rouge155py.stats.judgments import Judgments
from rouge155py.stats.references import reference_curve

REPO = Path(__file__).resolve().parent.parent
CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")
ARGS = ["-e", str(REPO / "data"), "-a", "-n", "2", "-m", "-r", "50"]


def _judgments() -> Judgments:
    rows = [
        {"eval_id": f"D{e:02d}", "system": s, "coverage": (4 - int(s)) / 3 + ((e * 7 + int(s) * 3) % 5) / 10}
        for e in range(1, 11)
        for s in "123"
    ]
    return Judgments.from_rows(rows)


def _system_r(argv: list[str], judgments: Judgments) -> dict[str, float]:
    variants = report_variants(evaluate_args(argv), ["f"])
    found = correlate(
        variants, judgments, ["system"], ["pearson"], settings=CorrelateSettings(resample="none")
    )
    return {r.variant: r.value for r in found.rows}


def test_each_subset_is_the_run_with_those_references(tmp_path: Path) -> None:
    judgments = _judgments()
    options = parse_command_line([*ARGS, CONFIG]).options
    curve = reference_curve(options, judgments, max_subsets=10)
    assert sorted({(p.references, p.subsets) for p in curve}) == [(1, 4), (2, 6), (3, 4), (4, 1)]
    config = options.source.read()
    ids = {ev.eval_id: ev.model_ids for ev in config.evals}
    for k in (1, 2, 4):
        values: dict[str, list[float]] = {}
        for places in itertools.combinations(range(4), k):
            subset = tmp_path / f"subset-{k}-{'-'.join(map(str, places))}.txt"
            subset.write_text("".join(f"{e} {' '.join(m[p] for p in places)}\n" for e, m in ids.items()))
            for variant, value in _system_r(
                [*ARGS, "--model-subset", str(subset), CONFIG], judgments
            ).items():
                values.setdefault(variant, []).append(value)
        for point in (p for p in curve if p.references == k):
            taken = values[point.variant]
            assert point.value == pytest.approx(sum(taken) / len(taken), abs=1e-12), (point.variant, k)
            assert (point.low, point.high) == (min(taken), max(taken))
    full = _system_r([*ARGS, CONFIG], judgments)
    assert {p.variant: p.value for p in curve if p.references == 4} == pytest.approx(full, abs=1e-12)


def test_a_sample_of_subsets_and_what_is_refused() -> None:
    judgments = _judgments()
    options = parse_command_line([*ARGS, CONFIG]).options
    sampled = reference_curve(options, judgments, max_subsets=3, seed=1)
    assert sorted({(p.references, p.subsets) for p in sampled}) == [(1, 3), (2, 3), (3, 3), (4, 1)]
    assert reference_curve(options, judgments, max_subsets=3, seed=1) == sampled  # seeded
    with pytest.raises(UsageError, match="chooses the references itself"):
        reference_curve(parse_command_line([*ARGS, "--models", "2", CONFIG]).options, judgments)
    config = options.source.read()
    config.evals[0].models.pop()
    with pytest.raises(ComputeError, match="same number of references"):
        reference_curve(options, judgments, config=config)


def test_the_curves_as_a_table_and_a_picture(tmp_path: Path) -> None:
    matplotlib = pytest.importorskip("matplotlib")
    from rouge155py.stats.correlation import aggregation_curve
    from rouge155py.stats.plots import plot_curves
    from rouge155py.stats.tables import curve_table

    judgments = _judgments()
    options = parse_command_line([*ARGS, CONFIG]).options
    curve = reference_curve(options, judgments, max_subsets=6)
    table = curve_table(curve, "text")
    one = next(p for p in curve if p.variant == "ROUGE-2 F" and p.references == 1)
    assert f"{one.value:.4f} [{one.low:.4f}, {one.high:.4f}]" in table and "mean over the subsets" in table
    target = tmp_path / "curve.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        plot_curves(curve, target)
    drawn = target.read_text(encoding="utf-8")
    assert "ROUGE-2 F" in drawn and "references per eval" in drawn
    variants = report_variants(evaluate_args([*ARGS, CONFIG]), ["f"])
    pooled = aggregation_curve(variants, judgments)
    assert "items pooled into groups" in curve_table(pooled, "markdown", across="group size")
    plot_curves(pooled, tmp_path / "pooled.png", across="items pooled per group")
    assert (tmp_path / "pooled.png").read_bytes()[:4] == b"\x89PNG"
