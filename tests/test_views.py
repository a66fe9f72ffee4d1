"""Results in rouge-score's vocabulary beside the Perl's: names, aligned Scores, means, dict, frame.

``to_frame`` needs pandas, which rouge155py does not depend on: the tests of it run where pandas
is installed (``pip install pandas``) and are skipped only where it is not.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from rouge155py import Rouge, UsageError, evaluate_args, score
from rouge155py.metrics.names import options_for
from rouge155py.report.views import Score

WORDS = "the cat sat on a mat dog ran to park and big small red blue".split()


def _texts(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choices(WORDS, k=rng.randint(3, 12))) for _ in range(n)]


PREDICTIONS, REFERENCES = _texts(1, 23), _texts(2, 23)


def test_the_api_scores_rouge1_rouge2_and_rougelsum_by_default() -> None:
    report = score(["the cat sat"], ["a cat sat"], resamples=5)
    assert [r.label for r in report.results] == ["ROUGE-1", "ROUGE-2", "ROUGE-L"]
    assert report.names == ["rouge1", "rouge2", "rougeLsum"]
    # The command line keeps the Perl's defaults: ROUGE-L alone.
    assert Rouge(max_ngram=0).options.max_ngram == 0
    config = Path(__file__).resolve().parent.parent / "examples" / "duc-mini" / "rouge-config.xml"
    assert {r.label for r in evaluate_args(["-a", str(config)]).results} == {"ROUGE-L"}


def test_rouge_types_set_the_options() -> None:
    types = ["rouge1", "rouge3", "rougeLsum", "rougeSU4"]
    named = Rouge(rouge_types=types, resamples=5).score(PREDICTIONS, REFERENCES)
    spelled = Rouge(**options_for(types), resamples=5).score(PREDICTIONS, REFERENCES)
    assert named.to_legacy() == spelled.to_legacy()
    assert named.names == types  # the views show what was asked for; ROUGE-2 is in the legacy text
    assert "ROUGE-2" in {r.label for r in named.results}
    with pytest.raises(UsageError, match="not with max_ngram"):
        Rouge(rouge_types=["rouge1"], max_ngram=2)
    with pytest.raises(UsageError, match="rougeLsum"):
        Rouge(rouge_types=["rouge1", "rougeL"])


def test_both_vocabularies_and_a_key_error_that_lists_the_names() -> None:
    report = score(PREDICTIONS, REFERENCES, resamples=5)
    assert report["rouge1"] is report["ROUGE-1"]
    assert report.result("rougeLsum") is report.result("ROUGE-L")
    with pytest.raises(KeyError) as caught:
        report.result("rouge4")
    assert "rouge1 (ROUGE-1), rouge2 (ROUGE-2), rougeLsum (ROUGE-L)" in str(caught.value)
    with pytest.raises(KeyError, match="rougeLsum"):
        report["rougeL"]


def test_items_are_aligned_with_the_inputs_as_scores() -> None:
    report = score(PREDICTIONS, REFERENCES, resamples=5)
    view = report["rouge2"]
    assert len(view.items) == 23
    for i, item in enumerate(view.items):
        assert isinstance(item, Score) and item._fields == ("precision", "recall", "fmeasure")
        alone = score([PREDICTIONS[i]], [REFERENCES[i]], resamples=5).result("ROUGE-2").instances["1.1"]
        assert (item.recall, item.precision, item.fmeasure) == alone


def test_plain_mean_and_bootstrap_mean_are_named_apart() -> None:
    report = score(PREDICTIONS, REFERENCES, resamples=200)
    reverse = score(PREDICTIONS[::-1], REFERENCES[::-1], resamples=200)
    view = report["rouge1"]
    fs = [item.fmeasure for item in view.items]
    assert view.mean.fmeasure == round(sum(fs) / len(fs), 5)
    assert reverse["rouge1"].mean == view.mean  # the plain mean does not move with the order
    assert reverse["rouge1"].bootstrap_mean != view.bootstrap_mean  # the Perl's bootstrap does
    legacy = report.to_legacy()
    b, low, high = view.bootstrap_mean, view.low, view.high
    assert (
        f"1 ROUGE-1 Average_F: {b.fmeasure:.5f} (95%-conf.int. {low.fmeasure:.5f} - {high.fmeasure:.5f})"
        in legacy
    )
    for value in (*view.mean, *b, *low, *high):
        assert repr(value) == repr(float(f"{value:.5f}"))  # no float noise such as 0.6666699999999951


def test_to_dict_is_json_ready_with_modern_names_and_numeric_items() -> None:
    report = score({"A": PREDICTIONS, "B": REFERENCES}, PREDICTIONS, resamples=5)
    before = report.to_legacy()
    document = report.to_dict()
    assert json.loads(json.dumps(document)) == document
    assert document["items"] == 23 and "eval_ids" not in document
    assert set(document["systems"]) == {"A", "B"}
    rouge1 = document["systems"]["A"]["rouge1"]
    assert set(rouge1) == {"mean", "bootstrap_mean", "low", "high", "items"}
    assert rouge1["items"][4] == report["rouge1", "A"].items[4]._asdict()
    assert (
        document["systems"]["B"]["rougeLsum"]["items"][0]["fmeasure"] == report["rougeLsum", "B"].items[0][2]
    )
    assert report.to_legacy() == before


def test_to_frame_has_a_numeric_item_index() -> None:
    pytest.importorskip("pandas")
    report = score(PREDICTIONS, REFERENCES, resamples=5)
    frame = report.to_frame()
    assert list(frame.columns) == ["system", "name", "precision", "recall", "fmeasure"]
    assert frame.index.name == "item" and str(frame.index.dtype).startswith("int")
    table = frame.pivot(columns="name", values="fmeasure")
    assert list(table.index) == list(range(23))
    assert table["rouge2"].tolist() == [item.fmeasure for item in report["rouge2"].items]


def test_to_frame_without_pandas_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        score(["a"], ["a"], resamples=5).to_frame()


def test_repr_is_short() -> None:
    many = score(PREDICTIONS * 40, REFERENCES * 40, resamples=5)
    text = repr(many)
    assert "\n" not in text and len(text) < 200
    assert text.startswith("<Report: 1 system (1), 920 items; mean F: rouge1 ")
    several = score({"A": PREDICTIONS, "B": REFERENCES}, PREDICTIONS, resamples=5)
    assert repr(several).startswith("<Report: 2 systems (A, B), 23 items; mean F (first system): rouge1")
    one = score(["the cat sat"], ["a cat sat"], resamples=10)
    assert repr(one).startswith("<Report: 1 system (1), 1 item; mean F: rouge1 ")


def test_several_systems_need_a_name_and_counts_have_no_scores() -> None:
    several = score({"A": PREDICTIONS, "B": REFERENCES}, PREDICTIONS, resamples=5)
    assert several["rouge1", "A"].items[0] == Score(1.0, 1.0, 1.0)  # A's predictions are the references
    with pytest.raises(KeyError, match="2 systems: name one"):
        several["rouge1"]
    counts = score(PREDICTIONS, REFERENCES, resamples=5, counting=1)
    with pytest.raises(UsageError, match="counting=0"):
        counts["rouge1"]
    assert "-t 1 counts" in repr(counts)


def test_the_rouge_score_dialect_keeps_its_unrounded_scores() -> None:
    report = score(PREDICTIONS, REFERENCES, dialect="rouge-score", stem=True, resamples=5)
    view = report["rouge1"]
    rows = list(report.result("ROUGE-1").instances.values())
    assert view.items == [Score(p, r, f) for r, p, f in rows]
    assert any(f != round(f, 5) for _, _, f in view.items)  # unrounded, as rouge-score gives them
    fs = [f for _, _, f in view.items]
    assert abs(view.mean.fmeasure - sum(fs) / len(fs)) < 1e-15
