"""QARLA on a run (``--qarla``): the similarities each metric gives two summaries of an input,
checked pair by pair against a run of that pair alone, and the command line's tables."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from test_stats_cli import invoke

from rouge155py.inputs.config import Eval, EvalConfig, read_xml_config
from rouge155py.other_metrics.base import Item
from rouge155py.other_metrics.evals import metric_of, sentences_of
from rouge155py.run.evaluate import evaluate
from rouge155py.settings.argv import parse_command_line
from rouge155py.stats.correlation import report_variants
from rouge155py.stats.qarla import qarla
from rouge155py.stats.similarities import run_similarities

REPO = Path(__file__).resolve().parent.parent
CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")
ARGS = ["-e", str(REPO / "data"), "-a", "-n", "2", "-r", "50"]


def _alone(options: object, peer: object, model: object) -> dict[str, float]:
    """Each ROUGE variant of one summary against one model, in a run of that pair alone."""
    report = evaluate(options, EvalConfig([Eval("E", {"S": peer}, [model])], {"S"}))  # type: ignore[arg-type]
    return {variant: systems["S"]["E"] for variant, systems in report_variants(report, ["f"]).items()}


def test_each_pairs_similarity_is_its_score_in_a_run_of_its_own() -> None:
    options = parse_command_line([*ARGS, CONFIG]).options
    config = read_xml_config(CONFIG)
    wer = metric_of("wer")
    names, inputs = run_similarities(options, config, "f", [("WER", wer)])
    assert names == ["ROUGE-1 F", "ROUGE-2 F", "ROUGE-L F", "WER"]
    for ev, found in list(zip(config.evals, inputs))[:3]:
        peers = [ev.peers[p] for p in sorted(ev.peers)]
        assert found.peers == sorted(ev.peers) and found.model_ids == ev.model_ids
        for array, firsts, seconds in (
            (found.peer_model, peers, ev.models),
            (found.model_model, ev.models, ev.models),
            (found.peer_peer, peers, peers),
        ):
            for i, first in enumerate(firsts):
                for j, second in enumerate(seconds):
                    if array is not found.peer_model and i == j:
                        assert np.isnan(array[:, i, j]).all()
                        continue
                    expected = _alone(options, first, second)
                    assert [array[k, i, j] for k in range(3)] == [expected[n] for n in names[:3]]
                    item = Item("E", sentences_of(first), (sentences_of(second),))
                    assert array[3, i, j] == -wer.item_score(wer.counts([item])[0])  # lower is better


def test_qarla_on_the_command_line_is_qarla_of_the_runs_similarities() -> None:
    result = invoke("--qarla", "--metrics", "wer", "--format", "json", CONFIG)
    assert result.exit_code == 0, result.stderr_bytes
    document = json.loads(result.stdout_bytes)["qarla"]
    options = parse_command_line([*ARGS, CONFIG]).options
    names, inputs = run_similarities(options, read_xml_config(CONFIG), "f", [("WER", metric_of("wer"))])
    expected = qarla(names, inputs)
    assert document["rows"] == json.loads(json.dumps(expected.to_dicts()))
    assert document["signature"] == expected.signature
    assert [row["metrics"] for row in document["king"]] == [[n] for n in names] + [names]
    text = invoke("--qarla", CONFIG).stdout_bytes.decode()
    assert re.search(r"QUEEN +system +1 ", text) and "KING of each metric alone" in text


@pytest.mark.parametrize(
    ("args", "code", "pattern"),
    [
        (["-t", "1", "--qarla"], 2, "--qarla and tables need -t 0"),
        (["--qarla", "--compare", "permutation", "--format", "csv"], 2, "holds one table"),
    ],
)
def test_qarla_that_cannot_run_is_one_error_line(args: list[str], code: int, pattern: str) -> None:
    result = invoke(*args, CONFIG)
    lines = result.stderr_bytes.decode().splitlines()
    assert result.exit_code == code and len(lines) == 1 and pattern in lines[0], lines


def test_plot_draws_king_of_each_metric_set_and_other_metrics_by_their_names(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    judged = tmp_path / "judged.csv"
    rows = [f"D{e:02d},{s},{(4 - int(s)) / 3 + (e % 3) / 10:.3f}" for e in range(1, 11) for s in "123"]
    judged.write_text("eval_id,system,quality\n" + "\n".join(rows) + "\n", encoding="utf-8")
    target = tmp_path / "drawn.svg"
    args = ["--metrics", "wer", "--judgments", str(judged), "--qarla", "--samples", "20"]
    result = invoke(*args, "--plot", str(target), CONFIG)
    assert result.exit_code == 0, result.stderr_bytes
    king = (tmp_path / "drawn-king.svg").read_text(encoding="utf-8")
    assert "KING: share of models that beat every peer" in king
    assert "ROUGE-1 F + ROUGE-2 F + ROUGE-L F + WER" in king
    scatter = (tmp_path / "drawn-scatter.svg").read_text(encoding="utf-8")
    assert "WER (lower is better)" in scatter and "WER (lower is better) F" not in scatter  # no R, P, F
    assert "ROUGE-1 F" in scatter


@pytest.mark.slow
def test_rouge_meteor_nist_and_an_external_column_against_judgments_with_king(tmp_path: Path) -> None:
    """The workshop's analysis end to end: ROUGE's variants, METEOR and NIST on the run's texts,
    a column of another metric's scores, correlated with judgments, QARLA's KING of the set, as
    tables and pictures."""
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    systems, evals = "123", [f"D{e:02d}" for e in range(1, 11)]
    judged = tmp_path / "judged.csv"
    rows = [f"{e},{s},{(4 - int(s)) / 3 + (k % 3) / 10:.3f}" for k, e in enumerate(evals) for s in systems]
    judged.write_text("eval_id,system,quality\n" + "\n".join(rows) + "\n", encoding="utf-8")
    external = tmp_path / "external.csv"
    lines = [f"{e},{s},{int(s) * 7 + k % 5}" for k, e in enumerate(evals) for s in systems]
    external.write_text(
        "eval_id,system,TER\nhigher_is_better,,false\n" + "\n".join(lines) + "\n", encoding="utf-8"
    )
    args = ["--metrics", "meteor,nist", "--scores", str(external), "--judgments", str(judged), "--qarla"]
    target = tmp_path / "drawn.png"
    result = invoke(*args, "--samples", "50", "--format", "json", "--plot", str(target), CONFIG)
    assert result.exit_code == 0, result.stderr_bytes
    document = json.loads(result.stdout_bytes)
    variants = {row["variant"] for row in document["correlations"]["rows"]}
    assert variants == {"ROUGE-1 F", "ROUGE-2 F", "ROUGE-L F", "METEOR", "NIST", "TER"}
    lower = {row["variant"] for row in document["correlations"]["rows"] if not row["higher_is_better"]}
    assert lower == {"TER"}
    assert {row["metric"] for row in document["metrics"]["rows"]} == {"METEOR", "NIST"}
    king = document["qarla"]["king"]
    assert [row["metrics"] for row in king][-1] == ["ROUGE-1 F", "ROUGE-2 F", "ROUGE-L F", "METEOR", "NIST"]
    assert all(0 <= row["value"] <= 1 for row in king)
    for suffix in ("", "-scatter", "-king"):
        assert (tmp_path / f"drawn{suffix}.png").read_bytes()[:4] == b"\x89PNG"


def test_metrics_and_qarla_read_each_summary_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """--metrics and --qarla read the run's texts for their own scorers: the configuration once
    for both, and each summary once, whatever the number of metrics, peers and pairs."""
    from collections import Counter

    from rouge155py.inputs import xml
    from rouge155py.other_metrics import evals

    configurations: Counter[str] = Counter()
    summaries: Counter[object] = Counter()
    read_config, read_summary = xml.XmlFile.read, evals.sentences_of

    def counted_config(self: xml.XmlFile) -> EvalConfig:
        configurations[self.path] += 1
        return read_config(self)

    def counted_summary(document: object) -> tuple[str, ...]:
        summaries[document] += 1
        return read_summary(document)  # type: ignore[arg-type]

    monkeypatch.setattr(xml.XmlFile, "read", counted_config)
    monkeypatch.setattr(evals, "sentences_of", counted_summary)
    result = invoke("--metrics", "wer,nist", "--qarla", CONFIG)
    assert result.exit_code == 0, result.stderr_bytes
    assert configurations == {CONFIG: 2}  # the run's, and the analyses' texts
    config = read_xml_config(CONFIG)
    assert len(summaries) == sum(len(ev.peers) + len(ev.models) for ev in config.evals)
    assert set(summaries.values()) == {1}
