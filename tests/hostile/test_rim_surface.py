"""The surface code reaches past ``score()``: the drop-in's modules against rouge-score 0.1.2's
(every public name, re-pointed tokenizer patterns, what a generator raises), the exception
classes users catch around rouge-score, HF rouge and pyrouge, and pltrdy's pyrouge fork's
arguments (``log_level=``, ``stemming=``, as files2rouge and SummEval pass them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import nltk
import pytest
import rouge_score.rouge_scorer as their_scorer

from rouge155py import Rouge155, UsageError
from rouge155py.errors import InvalidValue, MissingResource
from rouge155py.hf import compute
from rouge155py.rouge_score import rouge_scorer as our_scorer

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# rouge-score 0.1.2's modules that a program imports (rouge and create_pyrouge_files are absl
# command-line scripts; the *_test and test_util modules are its tests).
MODULES = ("rouge_scorer", "scoring", "tokenize", "tokenizers", "io")
BENGALI = ("আমি বাংলায় গান গাই। আমি বাংলার গান গাই।", "আমি বাংলায় গান গাই।")


def outcome(call: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """("ok", the result of ``call(*args)``) or (the exception's class name, its message)."""
    try:
        return "ok", call(*args)
    except Exception as error:
        return type(error).__name__, str(error)


# -- exception classes users catch ----------------------------------------------------------------


def test_split_summaries_without_punkt_raises_a_lookup_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rouge-score lets nltk's LookupError through: the drop-in's error is one (and a UsageError)."""
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])  # no punkt model anywhere
    monkeypatch.delenv("NLTK_DATA", raising=False)
    target, prediction = "First one. Second one.", "Second one. First one."
    with pytest.raises(LookupError):
        their_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score(target, prediction)
    with pytest.raises(LookupError, match="punkt") as raised:
        our_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score(target, prediction)
    assert isinstance(raised.value, UsageError) and raised.value.exit_code == 2


def test_pyrouge_split_sentences_without_punkt_raises_a_lookup_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    monkeypatch.delenv("NLTK_DATA", raising=False)
    with pytest.raises(LookupError, match="Punkt") as raised:
        Rouge155().split_sentences()
    assert isinstance(raised.value, MissingResource) and raised.value.exit_code == 2


@pytest.mark.parametrize("dialect", [None, "rouge-score"])
def test_hf_unknown_rouge_types_raise_a_value_error(dialect: Any) -> None:
    """HF rouge builds rouge-score's scorer and lets its ValueError through; the module's errors
    are ValueErrors (and UsageErrors: exit 2) in both dialects."""
    with pytest.raises(ValueError, match="rouge_1"):
        their_scorer.RougeScorer(["rouge_1"]).score("a b", "a b")  # what HF's compute() calls
    for bad in (["rouge_1"], ["rouge0"], "rouge1", []):
        with pytest.raises(ValueError) as raised:
            compute(["a b"], ["a b"], rouge_types=bad, dialect=dialect)
        assert isinstance(raised.value, UsageError) and raised.value.exit_code == 2


def test_error_classes_keep_their_exit_codes() -> None:
    """Both new classes are UsageErrors: the command line's exit code for them stays 2."""
    assert issubclass(InvalidValue, ValueError) and issubclass(MissingResource, LookupError)
    assert InvalidValue("x").exit_code == MissingResource("x").exit_code == UsageError("x").exit_code == 2
    from rouge155py.names import UnknownName

    assert issubclass(UnknownName, KeyError) and issubclass(UnknownName, ValueError)
