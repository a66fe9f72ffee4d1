"""The Python API's one input rule: a string is one summary, a list several; ambiguity is an error."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from rouge155py import Rouge, Sentences, UsageError, score, text_items

FAST = {"resamples": 5, "max_ngram": 2}
PREDICTION = "The cat sat on the mat.\nIt was happy."
REFERENCE = "A cat was sitting on the mat.\nThe cat looked happy."


def test_sentence_split_predictions_are_refused_with_both_spellings() -> None:
    """HF scripts split both sides into sentences: a prediction's list is refused, not read as
    several summaries, and the error shows how to write one summary."""
    with pytest.raises(UsageError) as caught:
        score([PREDICTION.split("\n")], [REFERENCE.split("\n")], **FAST)
    message = str(caught.value)
    assert message.startswith("predictions[0] is a list of 2, which would be several summaries")
    assert "'\\n'.join(sentences)" in message and "rouge155py.Sentences(sentences)" in message


def test_sentence_split_references_are_several_references_and_the_rule_is_asked_for() -> None:
    with pytest.raises(UsageError, match="item 0 has 2 references: choose") as caught:
        score([PREDICTION], [REFERENCE.split("\n")], **FAST)
    assert "rouge155py.Sentences(sentences)" in str(caught.value)


def test_sentences_are_one_summary_on_either_side() -> None:
    as_text = score([PREDICTION], [REFERENCE], **FAST).to_legacy()
    wrapped = score([Sentences(PREDICTION.split("\n"))], [Sentences(REFERENCE.split("\n"))], **FAST)
    assert wrapped.to_legacy() == as_text
    in_list = score([Sentences(PREDICTION.split("\n"))], [[Sentences(REFERENCE.split("\n"))]], **FAST)
    assert in_list.to_legacy() == as_text


def test_a_list_of_strings_is_several_references() -> None:
    several = score(["a b"], [["a b c d e", "a q"]], multi_ref="average", **FAST)
    # -f A sums the two references' counts: 3 hits of 7 model unigrams.
    assert several.result("ROUGE-1").instances["1.1"][0] == 0.42857
    as_tuple = score(["a b"], [("a b c d e", "a q")], multi_ref="average", **FAST)
    assert as_tuple.to_legacy() == several.to_legacy()


def test_a_nested_list_in_references_is_refused_with_the_spellings() -> None:
    with pytest.raises(UsageError) as caught:
        score([PREDICTION], [[REFERENCE.split("\n"), "another reference"]], multi_ref="average", **FAST)
    message = str(caught.value)
    assert message.startswith("references[0][0] is a list: a reference given as its sentences is")
    assert "rouge155py.Sentences(sentences)" in message and "'\\n'.join(sentences)" in message


def test_any_ordered_iterable_of_equal_length() -> None:
    pd = pytest.importorskip("pandas")  # pandas is not a dependency; the test extra does not need it
    predictions = ["the cat sat", "a dog ran far", "birds sing"]
    references = ["a cat sat", "the dog ran", "birds sang"]
    expected = score(predictions, references, **FAST).to_legacy()
    shapes = [
        (tuple(predictions), tuple(references)),
        ((p for p in predictions), iter(references)),
        (pd.Series(predictions), pd.Series(references, index=[7, 8, 9])),
        (np.array(predictions), np.array(references)),
        ({"1": (p for p in predictions)}, references),
    ]
    for given, refs in shapes:
        assert score(given, refs, **FAST).to_legacy() == expected
    frame = pd.DataFrame({"prediction": predictions, "reference": references})
    assert score(frame["prediction"], frame["reference"], **FAST).to_legacy() == expected


def test_different_lengths_name_both() -> None:
    with pytest.raises(UsageError, match=r"^predictions has 2 items and references 3"):
        score(["a", "b"], ["a", "b", "c"], **FAST)
    with pytest.raises(UsageError, match=r"^predictions\['B'\] has 1 item and references 2"):
        score({"A": ["a", "b"], "B": iter(["a"])}, ["a", "b"], **FAST)


def test_sentences_checks_and_pickles() -> None:
    s = Sentences(["one.", "two."])
    assert s.text() == "one.\ntwo." and list(s) == ["one.", "two."] and len(s) == 2
    assert pickle.loads(pickle.dumps(s)) == s and repr(s) == "Sentences(['one.', 'two.'])"
    with pytest.raises(UsageError, match=r"^Sentences takes a list of sentence strings, got 'one\. two\.'$"):
        Sentences("one. two.")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="sentence 2 is 3"):
        Sentences(["a", 3])  # type: ignore[list-item]


def test_batch_items_follow_the_same_rule() -> None:
    rouge = Rouge(per_eval=True, **FAST)
    items = text_items([Sentences(["a b", "c"])], [Sentences(["a", "b c"])])
    assert items[0].predictions == "a b\nc" and items[0].references == "a\nb c"
    with pytest.raises(UsageError, match="several summaries"):
        text_items([["a b", "c"]], ["a"])
    assert rouge.score([Sentences(["a b", "c"])], [Sentences(["a", "b c"])]).to_legacy()
