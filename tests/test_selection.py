"""``--models K``, ``--drop-model ID`` and ``--jackknife`` without the Perl (tests/differential/
test_jackknife.py holds them against it): the evals' models chosen, the leave-one-out mean by
its definition, every face and its refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rouge155py import ConfigError, Rouge, UsageError, evaluate_args, format_legacy
from rouge155py.inputs.config import Eval, EvalConfig
from rouge155py.inputs.readers import SummaryText
from rouge155py.inputs.selection import select_models
from rouge155py.metrics.scoring import jackknife_row

REPO = Path(__file__).resolve().parent.parent
CONFIG = "examples/duc-mini/rouge-config.xml"


def _doc(text: str) -> SummaryText:
    return SummaryText.of(text, "SPL", text)


def _config() -> EvalConfig:
    one = Eval("1", {"s": _doc("p1")}, [_doc("a1"), _doc("b1"), _doc("c1")], ["A", "B", "C"])
    two = Eval("2", {"s": _doc("p2")}, [_doc("b2")], ["B"])
    return EvalConfig([one, two], {"s"})


def test_models_are_chosen_by_place_and_by_id() -> None:
    chosen = select_models(_config(), 2, ("B",), False)
    assert [[d.name for d in ev.models] for ev in chosen.evals] == [["a1", "c1"], []]
    assert [ev.model_ids for ev in chosen.evals] == [["A", "C"], []]
    assert chosen.peer_ids == {"s"}
    first = select_models(_config(), 1, (), False)
    assert [ev.model_ids for ev in first.evals] == [["A"], ["B"]]


def test_jackknife_makes_each_model_a_peer_and_says_which_evals_have_one() -> None:
    chosen = select_models(_config(), None, (), True)
    assert list(chosen.evals[0].peers) == ["s", "A", "B", "C"]
    assert chosen.evals[0].peers["B"] is chosen.evals[0].models[1]
    assert list(chosen.evals[1].peers) == ["s"]  # one model: scored as without the jackknife
    assert chosen.peer_ids == {"s", "A", "B", "C"}
    assert chosen.notes == [
        "rouge155py: warning: --jackknife: 1 evals with fewer than two models (2): scored as without it"
    ]
    clash = EvalConfig([Eval("1", {"A": _doc("p")}, [_doc("a"), _doc("b")], ["A", "B"])], {"A"})
    with pytest.raises(ConfigError, match=r"^eval 1: model 'A' has a system's ID"):
        select_models(clash, None, (), True)


def test_the_jackknife_row_is_the_mean_of_the_leave_one_out_rows() -> None:
    """By the definition: each set of all models but one scored, R, P, F summed in order and
    divided by their number; the model itself against the others; one model as it is."""

    def score(models: list[int]) -> tuple[float, float, float]:
        return float(sum(models)), float(len(models)), float(max(models))

    counts = [1, 2, 4]
    assert jackknife_row(score, counts, None) == ((6 + 5 + 3) / 3, 2.0, (4 + 4 + 2) / 3)
    assert jackknife_row(score, counts, 1) == (5.0, 2.0, 4.0)
    assert jackknife_row(score, [7], None) == (7.0, 1.0, 7.0)


def _run(monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    monkeypatch.chdir(REPO)
    return format_legacy(evaluate_args(["-e", "data", "-a", "-n", "2", *args, CONFIG]))


def test_jackknife_reports_the_models_as_systems(monkeypatch: pytest.MonkeyPatch) -> None:
    report = _run(monkeypatch, "--jackknife", "-d")
    systems = sorted({line.split()[0] for line in report.splitlines() if " ROUGE-" in line})
    assert systems == ["1", "2", "3", "A", "B", "C", "D"]
    assert re.search(r"^A ROUGE-2 Eval D07\.A R:0\.\d{5} P:0\.\d{5} F:0\.\d{5}$", report, re.M)
    assert report != _run(monkeypatch, "-d")


def test_every_face_gives_the_same_jackknife(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line, ``-j 2`` and ``Rouge(jackknife=True)`` (its models named M1, M2, ...)."""
    one = _run(monkeypatch, "--jackknife")
    assert _run(monkeypatch, "--jackknife", "-j", "2") == one
    predictions = ["the cat sat on the mat", "a dog barked at the moon"]
    references = [["the cat sat", "a cat on a mat", "the mat"], ["a dog barked", "dogs bark at night"]]
    rouge = Rouge(max_ngram=2, jackknife=True, multi_ref="average")
    report = rouge.score(predictions, references)
    assert {r.peer_id for r in report.results} == {"1", "M1", "M2", "M3"}
    with pytest.raises(ConfigError, match="has a system's ID"):
        Rouge(max_ngram=2, jackknife=True, multi_ref="average").score({"M2": predictions}, references)
    dropped = Rouge(max_ngram=2, drop_models=("M1",), multi_ref="average").score(predictions, references)
    by_hand = Rouge(max_ngram=2, multi_ref="average").score(predictions, [refs[1:] for refs in references])
    assert dropped.to_legacy() == by_hand.to_legacy()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--models", "0"], "--models needs a whole number of 1 or more, got '0'"),
        (["--models", "two"], "--models needs a whole number of 1 or more, got 'two'"),
        (["--drop-model", "A,"], "drop_models: an empty ID in 'A,'"),
        (["--jackknife", "-t", "1"], "--jackknife averages each instance's scores: not with -t 1 or -t 2"),
        (["--jackknife", "-m", "-M"], "--jackknife with -m -M: the Perl stops stemming peers part-way"),
        (["--jackknife", "-v"], "-v prints the Perl's lines of one model set"),
    ],
)
def test_refusals(monkeypatch: pytest.MonkeyPatch, args: list[str], message: str) -> None:
    with pytest.raises(UsageError) as raised:
        _run(monkeypatch, *args)
    assert str(raised.value).startswith(message)


def test_the_signature_names_the_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    signed = Rouge(max_ngram=2, models=2, drop_models=("A",), jackknife=True).options.signature("x")
    assert "|jk:yes|" in signed and "|models:2|" in signed and "|drop:A|" in signed
    assert "jk:" not in Rouge(max_ngram=2).options.signature("x")


def test_the_batch_steps_and_the_accumulator_refuse_a_choice_of_models() -> None:
    """They score the references each item gives: a choice made before a run is refused, never
    ignored."""
    from rouge155py import score_batch, text_items

    for rouge in (Rouge(models=1), Rouge(drop_models=("M1",)), Rouge(jackknife=True)):
        with pytest.raises(UsageError, match=r"^models, drop_models and jackknife choose"):
            score_batch(text_items(["a b"], [["a b", "b c"]]), rouge)
        with pytest.raises(UsageError, match=r"^models, drop_models and jackknife choose"):
            rouge.accumulator()


def test_a_subset_file_names_each_evals_models(tmp_path: Path) -> None:
    subset = tmp_path / "subset.txt"
    subset.write_text("# eval and its models\n1 C A  # in any order\n\n")
    chosen = select_models(_config(), None, (), False, str(subset))
    assert [ev.model_ids for ev in chosen.evals] == [["A", "C"], ["B"]]
    for text, message in [
        ("1 A\n1 B\n", r"subset\.txt:2: eval '1' is named twice"),
        ("1\n", r"subset\.txt:1: an eval ID and at least one model ID"),
        ("9 A\n", r"subset\.txt: eval '9' is not in the configuration"),
        ("1 Z\n", r"subset\.txt: eval '1' has no model 'Z'"),
    ]:
        subset.write_text(text)
        with pytest.raises(ConfigError, match=message):
            select_models(_config(), None, (), False, str(subset))


def test_a_subset_file_on_the_command_line_is_the_run_edited_by_hand(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Evals D01 and D02 against models A and C only: the same bytes as the configuration with
    the others' lines taken out, and the file's digest in the signature."""
    subset = tmp_path / "subset.txt"
    subset.write_text("D01 A C\nD02 C A\n")
    config = (REPO / CONFIG).read_text()
    edited = []
    current = ""
    for line in config.splitlines():
        if line.startswith("<EVAL ID="):
            current = line.split('"')[1]
        if current in ("D01", "D02") and (line.startswith('<M ID="B">') or line.startswith('<M ID="D">')):
            continue
        edited.append(line)
    by_hand = tmp_path / "edited.xml"
    by_hand.write_text("\n".join(edited) + "\n")
    monkeypatch.chdir(REPO)
    run = evaluate_args(["-e", "data", "-a", "-n", "2", "-d", "--model-subset", str(subset), CONFIG])
    expected = evaluate_args(["-e", "data", "-a", "-n", "2", "-d", str(by_hand)])
    assert format_legacy(run) == format_legacy(expected)
    assert re.search(r"\|subset:sha256-[0-9a-f]{12}\|", run.options.signature("x"))
