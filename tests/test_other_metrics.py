"""The metrics beside ROUGE as the run feeds them: the registry, ``--metrics``' entries, the run's
texts as items, and the scores per system and item (a small metric of this file: the glue)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest
from test_stats_cli import invoke

from rouge155py.errors import UsageError
from rouge155py.inputs.config import read_xml_config as read_config
from rouge155py.other_metrics import METRICS, metric_class
from rouge155py.other_metrics.base import Item, OtherMetric
from rouge155py.other_metrics.evals import items_of, metric_of, metrics_of, score_evals

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "examples" / "duc-mini" / "rouge-config.xml"


@dataclass(frozen=True)
class WordRecall(OtherMetric):
    """The share of the first reference's words (lowercased, split on spaces) found in the summary."""

    name = "WR"
    corpus = True

    def counts(self, items: Sequence[Item]) -> np.ndarray:
        rows = []
        for item in items:
            peer = set(" ".join(item.peer).lower().split())
            reference = " ".join(item.references[0]).lower().split()
            rows.append([sum(word in peer for word in reference), len(reference)])
        return np.array(rows, dtype=np.float64)

    def score(self, counts: np.ndarray) -> float:
        return float(counts[0] / counts[1])


def test_every_registered_metric_names_a_class_of_its_module() -> None:
    """Each registry line leads to a metric class of that name, whose options are dataclass fields."""
    for name in METRICS:
        cls = metric_class(name)
        assert issubclass(cls, OtherMetric)
        assert cls.name.lower() == name


def test_an_unknown_metric_is_refused_with_the_known_ones() -> None:
    with pytest.raises(UsageError, match=r"no metric 'rouge9': the metrics are .*nist"):
        metric_class("rouge9")


def test_an_entrys_options_are_read_by_the_types_of_their_defaults() -> None:
    nist = metric_of("nist:n=4:case=yes")
    assert (nist.n, nist.case) == (4, True)  # type: ignore[attr-defined]
    with pytest.raises(UsageError, match=r"nist: n must be a number \(int\), got 'four'"):
        metric_of("nist:n=four")
    with pytest.raises(UsageError, match="nist: no option 'size'"):
        metric_of("nist:size=4")
    with pytest.raises(UsageError, match="names NIST twice"):
        metrics_of(["nist", "nist"])
    labels = [label for label, _ in metrics_of(["nist", "nist:n=4"])]
    assert labels == ["NIST", "NIST(n=4)"]
    assert metric_of("bleu:smooth_value=0.5").smooth_value == 0.5  # type: ignore[attr-defined]  # Optional[float]


def test_the_runs_texts_are_items_as_written_one_per_eval_and_peer() -> None:
    config = read_config(str(CONFIG))
    items = items_of(config)
    first = config.evals[0]
    assert sorted(items) == sorted({p for ev in config.evals for p in ev.peers})
    assert all(len(found) == len(config.evals) for found in items.values())
    item = items[sorted(first.peers)[0]][0]
    assert item.eval_id == first.eval_id
    assert len(item.references) == len(first.models)
    assert any(ch.isupper() for sentence in item.peer for ch in sentence)  # not lowercased
    assert item.parses[0] == Path(first.peers[sorted(first.peers)[0]].name).name


def test_scores_per_system_and_item_and_the_corpus_score_of_summed_counts() -> None:
    config = read_config(str(CONFIG))
    metric = WordRecall()
    scores = score_evals(config, [("WR", metric)])
    for system, items in items_of(config).items():
        counts = metric.counts(items)
        expected = {item.eval_id: row[0] / row[1] for item, row in zip(items, counts)}
        assert scores.variants["WR"][system] == pytest.approx(expected, abs=0)
        assert scores.corpus["WR"][system] == counts[:, 0].sum() / counts[:, 1].sum()
    assert scores.signatures == {"WR": "WR"}
    assert scores.lower_is_better == frozenset()


# --------------------------------------------------------------------------
# On the command line
# --------------------------------------------------------------------------

EVALS = [f"D{e:02d}" for e in range(1, 11)]


def test_metrics_alone_print_each_systems_corpus_score_and_mean_of_items() -> None:
    result = invoke("--metrics", "wer,nist:n=4", "--format", "json", str(CONFIG))
    assert result.exit_code == 0, result.stderr_bytes
    document = json.loads(result.stdout_bytes)["metrics"]
    assert set(document["signatures"]) == {"WER", "NIST(n=4)"}
    assert document["signatures"]["NIST(n=4)"].startswith("NIST|n:4|")
    config = read_config(str(CONFIG))
    items = items_of(config)
    wer = metric_of("wer")
    for row in document["rows"]:
        if row["metric"] != "WER":
            continue
        counts = wer.counts(items[row["system"]])
        assert row["corpus"] == wer.score(counts.sum(axis=0))
        assert row["mean"] == pytest.approx(float(np.mean(wer.item_scores(counts))), rel=1e-15)
        assert (row["items"], row["lower_is_better"]) == (10, True)
    assert sorted(row["system"] for row in document["rows"]) == sorted(["1", "2", "3"] * 2)
    text = invoke("--metrics", "wer", str(CONFIG)).stdout_bytes.decode()
    assert "WER (lower is better)" in text and "mean of items" in text


def test_metrics_are_correlated_with_judgments_beside_rouge(tmp_path: Path) -> None:
    pytest.importorskip("scipy")
    path = tmp_path / "judged.csv"
    rows = [f"{e},{s},{(4 - int(s)) / 3 + (k % 3) / 10:.3f}" for k, e in enumerate(EVALS) for s in "123"]
    path.write_text("eval_id,system,quality\n" + "\n".join(rows) + "\n", encoding="utf-8")
    result = invoke(
        "--metrics", "wer,nist", "--judgments", str(path), "--samples", "100", "--format", "csv", str(CONFIG)
    )
    assert result.exit_code == 0, result.stderr_bytes
    found = {
        (row["variant"], row["level"], row["coefficient"]): row
        for row in csv.DictReader(io.StringIO(result.stdout_bytes.decode()))
    }
    assert {variant for variant, _, _ in found} == {"ROUGE-1 F", "ROUGE-2 F", "ROUGE-L F", "WER", "NIST"}
    assert found["WER", "system", "pearson"]["higher_is_better"] == "False"
    # The system level correlates each system's mean of item scores with its mean judgment.
    scores = score_evals(read_config(str(CONFIG)), [("WER", metric_of("wer"))])
    means = [np.mean(list(scores.variants["WER"][s].values())) for s in "123"]
    judged = [np.mean([float(r.split(",")[2]) for r in rows if r.split(",")[1] == s]) for s in "123"]
    expected = np.corrcoef(means, judged)[0, 1]
    assert float(found["WER", "system", "pearson"]["value"]) == pytest.approx(expected, abs=1e-12)


def test_metrics_are_compared_between_systems_beside_rouge() -> None:
    result = invoke(
        "--metrics",
        "per",
        "--compare",
        "permutation",
        "--baseline",
        "3",
        "--samples",
        "200",
        "--format",
        "json",
        str(CONFIG),
    )
    assert result.exit_code == 0, result.stderr_bytes
    rows = json.loads(result.stdout_bytes)["comparisons"]["rows"]
    assert {row["metric"] for row in rows} >= {"ROUGE-1", "PER (lower is better)"}


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (["--metrics", "rouge9"], "no metric 'rouge9': the metrics are "),
        (["--metrics", "wer:size=3"], "wer: no option 'size'"),
        (["--metrics", ","], "--metrics names metrics"),
        (["--metrics", "wer,wer"], "names WER twice"),
        (["--wordnet", "/usr/share/wordnet"], "--wordnet is for --metrics meteor"),
        (["--metrics", "wer", "--parses", "parses"], "--parses is for --metrics hwcm or stm"),
    ],
)
def test_metrics_options_that_cannot_work_are_one_error_line(args: list[str], pattern: str) -> None:
    result = invoke(*args, str(CONFIG))
    lines = result.stderr_bytes.decode().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, lines
    assert pattern in lines[0]
