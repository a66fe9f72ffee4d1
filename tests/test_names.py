"""rouge-score's metric names beside the Perl's labels, and the options they ask for."""

from __future__ import annotations

import pytest

from rouge155py import UsageError, score
from rouge155py.metrics.names import ROUGE_L_EXPLAINED, UnknownName, modern_name, options_for, perl_label

PAIRS = [
    ("rouge1", "ROUGE-1"),
    ("rouge2", "ROUGE-2"),
    ("rouge9", "ROUGE-9"),
    ("rouge12", "ROUGE-12"),
    ("rougeLsum", "ROUGE-L"),
    ("rougeW-1.2", "ROUGE-W-1.2"),
    ("rougeS4", "ROUGE-S4"),
    ("rougeSU4", "ROUGE-SU4"),
    ("rougeS*", "ROUGE-S*"),
    ("rougeSU*", "ROUGE-SU*"),
]


@pytest.mark.parametrize(("name", "label"), PAIRS)
def test_names_and_labels_map_both_ways(name: str, label: str) -> None:
    assert perl_label(name) == label
    assert perl_label(label) == label
    assert modern_name(label) == name
    assert modern_name(name) == name


def test_labels_without_a_modern_name_keep_theirs() -> None:
    assert modern_name("ROUGE-BE-HM") == "ROUGE-BE-HM"
    assert modern_name("ParaEval-3") == "ParaEval-3"


def test_rouge_l_is_refused_with_the_reason() -> None:
    with pytest.raises(UnknownName, match="rougeLsum") as caught:
        perl_label("rougeL")
    assert str(caught.value) == ROUGE_L_EXPLAINED
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, UsageError)
    with pytest.raises(UnknownName):
        options_for(["rouge1", "rougeL"])
    with pytest.raises(UnknownName):
        modern_name("rougeL")


@pytest.mark.parametrize("name", ["rouge0", "rouge01", "rougeX", "ROUGE-X", "rougelsum", "", "rougeW-"])
def test_unknown_names_are_refused(name: str) -> None:
    with pytest.raises(UnknownName, match="unknown metric name"):
        perl_label(name)


def test_options_for() -> None:
    assert options_for(["rouge1", "rouge2", "rougeLsum"]) == {
        "max_ngram": 2,
        "lcs": True,
        "wlcs_weight": None,
        "wlcs_label": None,
        "skip_distance": None,
        "skip_label": None,
        "skip_unigrams": False,
        "skip_both": False,
    }
    found = options_for(["rougeS4", "rougeSU4", "rougeW-1.20"])
    assert found["max_ngram"] == 0 and not found["lcs"]
    assert (found["wlcs_weight"], found["wlcs_label"]) == (1.2, "1.20")
    assert (found["skip_distance"], found["skip_label"]) == (4.0, "4")
    assert found["skip_both"] and not found["skip_unigrams"]
    assert options_for(["rougeSU*"])["skip_distance"] == -1 and options_for(["rougeSU*"])["skip_unigrams"]
    for bad in (["rougeS4", "rougeS2"], ["rougeW-1.2", "rougeW-1.5"], [], "rouge1"):
        with pytest.raises(UsageError):
            options_for(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "types",
    [
        ["rouge1", "rouge2", "rougeLsum"],
        ["rouge3", "rougeW-1.2", "rougeSU4"],
        ["rougeS4", "rougeSU4"],
        ["rougeS*", "rougeLsum"],
        ["rougeW-1.50"],
    ],
)
def test_the_options_compute_the_labels_named(types: list[str]) -> None:
    report = score(
        ["the cat sat on the mat today"], ["a cat sat on a mat"], resamples=1, **options_for(types)
    )
    labels = [r.label for r in report.results]
    assert {perl_label(t) for t in types} <= set(labels)
    assert {modern_name(label) for label in labels} - set(types) <= {f"rouge{n}" for n in range(1, 10)}
