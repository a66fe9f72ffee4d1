"""README's Python API example runs, and prints and holds what its comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

from rouge155py import Rouge, Score, Sentences

README = Path(__file__).resolve().parent.parent / "README.md"


def _python_section_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## From Python: lists of strings, the Perl's numbers") :]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None
    return found.group(1)


def test_the_python_example_runs_as_its_comments_say() -> None:
    code = _python_section_example()
    namespace: dict[str, Any] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(README), "exec"), namespace)
    report = namespace["report"]
    said = re.search(r"print\(report\)  # (<Report: .*>)", code)
    assert said is not None and printed.getvalue().startswith(said.group(1) + "\n")
    assert namespace["first"] == Score(precision=0.625, recall=0.625, fmeasure=0.625)
    assert namespace["mean"].fmeasure == 0.33929 and namespace["perl"].fmeasure == 0.33928
    assert (report["rouge2"].low.fmeasure, report["rouge2"].high.fmeasure) == (0.25, 0.42857)
    assert printed.getvalue().endswith(report.to_legacy())
    assert namespace["document"] == report.to_dict()


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
