"""rouge-score's dialect through rouge155py's own doors: ``Rouge(dialect="rouge-score")`` and
``--dialect rouge-score``: the drop-in's numbers, instance by instance, and the Perl's report format."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from test_rs_dialect import random_text, related_text

from rouge155py import Options, Rouge, Sentences
from rouge155py.errors import UsageError
from rouge155py.rouge_score import rouge_scorer
from rouge155py.settings.argv import parse_command_line

REPO = Path(__file__).resolve().parent.parent


def _items(count: int, seed: int) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(seed)
    predictions, references = [], []
    for _ in range(count):
        target = random_text(rng)
        references.append([target] + [related_text(rng, target) for _ in range(rng.choice([0, 0, 1, 2]))])
        predictions.append(related_text(rng, target) if rng.random() < 0.8 else random_text(rng))
    return predictions, references


@pytest.mark.parametrize("stem", [False, True])
def test_instances_are_the_drop_in_scores(stem: bool) -> None:
    """Each instance's R, P, F: rouge-score's ``score_multi`` (the reference with the highest F);
    ROUGE-L is ``rougeLsum`` (a summary's lines are its sentences)."""
    predictions, references = _items(300, 11 + stem)
    report = Rouge(dialect="rouge-score", max_ngram=3, stem=stem, resamples=20).score(predictions, references)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rouge3", "rougeLsum"], use_stemmer=stem)
    expected = [scorer.score_multi(r, p) for p, r in zip(predictions, references)]
    for metric, key in [
        ("ROUGE-1", "rouge1"),
        ("ROUGE-2", "rouge2"),
        ("ROUGE-3", "rouge3"),
        ("ROUGE-L", "rougeLsum"),
    ]:
        found = report.result(metric).instances
        for i, scores in enumerate(expected):
            s = scores[key]
            assert found[f"{i + 1}.1"] == (s.recall, s.precision, s.fmeasure), (metric, i)


def test_command_line_is_the_api(tmp_path: Path) -> None:
    predictions, references = _items(40, 5)
    # A line-aligned file drops a line's final "\r": no "\r" here, the same texts at both doors.
    predictions = [p.replace("\r", " ") for p in predictions]
    references = [[r[0].replace("\r", " ")] for r in references]
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    # One line a summary: sentences joined by the separator.
    hyp.write_text("\n".join(p.replace("\n", "<q>") for p in predictions) + "\n", encoding="utf-8")
    ref.write_text("\n".join(r[0].replace("\n", "<q>") for r in references) + "\n", encoding="utf-8")
    args = ["--dialect", "rouge-score", "-n", "2", "-m", "--sep", "<q>", "--hyp", str(hyp), "--ref", str(ref)]
    run = subprocess.run(
        [sys.executable, "-m", "rouge155py", *args, "--signature"], cwd=REPO, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    api = Rouge(dialect="rouge-score", max_ngram=2, stem=True).score(
        [Sentences(p.split("\n")) for p in predictions],
        [Sentences(r[0].split("\n")) for r in references],  # one reference each
    )
    assert run.stdout == api.to_legacy()
    assert run.stderr.strip().endswith("|f:F|p:0.5|t:0|c:95|r:1000|dialect:rouge-score|version:0.1.0")


def test_signature_names_the_dialect_only() -> None:
    perl = parse_command_line(["-n", "2", "-m", "-a", "config.xml"]).options
    assert "dialect" not in perl.signature("v") and "|f:A|" in perl.signature("v")
    dialect = Options(dialect="rouge-score", max_ngram=2)
    assert dialect.signature("v").endswith("|f:F|p:0.5|t:0|c:95|r:1000|dialect:rouge-score|version:v")


@pytest.mark.parametrize(
    "options",
    [
        {"wlcs_weight": 1.2},
        {"skip_distance": 4},
        {"stopwords": True},
        {"stem_models_only": True},
        {"best_model": True},
        {"alpha": 0.3},
        {"counting": 1},
        {"length_limit": 10},
        {"lang": "de"},
    ],
)
def test_options_rouge_score_has_not_are_refused(options: dict) -> None:
    with pytest.raises(UsageError, match="--dialect rouge-score"):
        Options(dialect="rouge-score", **options)


def test_unknown_dialect_is_refused() -> None:
    with pytest.raises(UsageError, match="--dialect must be rouge-score"):
        Rouge(dialect="rouge-scorer")
    run = subprocess.run(
        [sys.executable, "-m", "rouge155py", "--dialect", "perl", "--hyp", "x", "--ref", "y"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "--dialect must be rouge-score" in run.stderr
