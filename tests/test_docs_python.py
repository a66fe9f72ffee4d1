"""The numbers docs/python.md quotes in its prose about several references (its session is run
by test_docs)."""

from __future__ import annotations

from pathlib import Path

from rouge155py import Rouge, Sentences

PAGE = Path(__file__).resolve().parent.parent / "docs" / "python.md"


def test_the_multi_reference_numbers_it_quotes() -> None:
    predictions = ["The cat sat on the mat.\nIt purred.", Sentences(["Dogs bark at night.", "Owls hoot."])]
    references = [["A cat sat on a mat.", "The cat is on the mat and purrs."], "Dogs bark all night."]
    found = {
        rule: Rouge(rouge_types=["rouge1"], stem=True, multi_ref=rule).score(predictions, references)[
            "rouge1"
        ]
        for rule in ("average", "best", "best-f")
    }
    assert [found[rule].items[0].fmeasure for rule in found] == [0.6, 0.57143, 0.625]
    assert found["best"].items[0].recall == 0.66667
    said = " ".join(PAGE.read_text(encoding="utf-8").split())
    assert "0.6 (average), 0.57143 (best: recall 0.66667) and 0.625 (best-f)" in said
