"""WER and PER (``rouge155py.other_metrics.wer``) with Leusch et al.'s (2005) choices.

WER is jiwer's ``wer`` on 1,200 random single-reference pairs, item by item and on lists (the
corpus rate); its several-reference options follow from jiwer's per-reference edits. PER is
checked on hand-worked examples (exact fractions) and against two brute forces that follow its
definition over every word order of the hypothesis. jiwer is optional: its tests are skipped
where it is missing, unless ``ROUGE155PY_REQUIRE_JIWER=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import importlib
import itertools
import os
import random
from fractions import Fraction
from types import ModuleType
from typing import Sequence

import numpy as np
import pytest

from rouge155py.errors import UsageError
from rouge155py.other_metrics.base import Item
from rouge155py.other_metrics.evals import metric_of
from rouge155py.other_metrics.wer import LENGTHS, Per, Wer, levenshtein, position_independent_errors, words

VOCABULARY = "the a cat Cat sat on mat The dog saw it".split()


@pytest.fixture(scope="module")
def jiwer() -> ModuleType:
    if os.environ.get("ROUGE155PY_REQUIRE_JIWER") == "1":
        return importlib.import_module("jiwer")
    return pytest.importorskip("jiwer")


def _item(hypothesis: str, *references: str) -> Item:
    return Item("e", (hypothesis,), tuple((reference,) for reference in references))


def _rate(metric: Wer | Per, hypothesis: str, *references: str) -> float:
    return metric.score(metric.counts([_item(hypothesis, *references)])[0])


def _text(rng: random.Random, shortest: int, longest: int) -> str:
    """Words of VOCABULARY joined by one to three spaces, with spaces around at times."""
    chosen = [rng.choice(VOCABULARY) for _ in range(rng.randint(shortest, longest))]
    text = "".join(word + " " * rng.randint(1, 3) for word in chosen)
    return " " * rng.randint(0, 1) + text.rstrip(" ") + " " * rng.randint(0, 1)


def _pairs(seed: int, count: int) -> list[tuple[str, str]]:
    """(hypothesis, reference) pairs: mostly short, some past 64 words (several machine words
    of the bit-vector algorithm); a reference is never empty (jiwer refuses one)."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        longest = rng.choice((6, 20, 150))
        pairs.append((_text(rng, 0, longest), _text(rng, 1, longest)))
    return pairs


def _edit_table(a: Sequence[str], b: Sequence[str]) -> int:
    """The Levenshtein distance by the textbook table."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y))
        previous = current
    return previous[-1]


def test_the_bit_vector_distance_is_the_textbook_tables() -> None:
    rng = random.Random(3)
    for _ in range(1000):
        size = rng.choice((4, 70, 200))
        a = [rng.choice("abc") for _ in range(rng.randint(0, size))]
        b = [rng.choice("abcd") for _ in range(rng.randint(0, size))]
        assert levenshtein(a, b) == _edit_table(a, b) == levenshtein(b, a)


def test_wer_is_jiwers_on_random_single_reference_pairs(jiwer: ModuleType) -> None:
    """Case-sensitive and split on whitespace, jiwer's words; an item's rate and each corpus of
    50 items' rate (total edits / total reference words) are jiwer's, to the last bit."""
    pairs = _pairs(1, 1200)
    metric = Wer(case=True, tokenize="whitespace")
    rows = metric.counts([_item(hypothesis, reference) for hypothesis, reference in pairs])
    for (hypothesis, reference), row in zip(pairs, rows):
        assert metric.score(row) == jiwer.wer(reference, hypothesis), (hypothesis, reference)
    for start in range(0, len(pairs), 50):
        chunk = pairs[start : start + 50]
        expected = jiwer.wer([r for _, r in chunk], [h for h, _ in chunk])
        assert metric.score(rows[start : start + 50].sum(axis=0)) == expected


def test_wer_lowercases_as_jiwers_lowercasing(jiwer: ModuleType) -> None:
    lowered = jiwer.Compose(
        [jiwer.ToLowerCase(), jiwer.RemoveMultipleSpaces(), jiwer.Strip(), jiwer.ReduceToListOfListOfWords()]
    )
    metric = Wer(tokenize="whitespace")
    for hypothesis, reference in _pairs(2, 300):
        expected = jiwer.wer(reference, hypothesis, reference_transform=lowered, hypothesis_transform=lowered)
        assert _rate(metric, hypothesis, reference) == expected


@pytest.mark.parametrize("length", LENGTHS)
def test_several_references_take_the_closest_and_the_chosen_length(jiwer: ModuleType, length: str) -> None:
    """Built from jiwer's edits against each reference: the fewest; the mean, shortest or longest
    reference length, or the length of the closest (the longest of those as close)."""
    rng = random.Random(4)
    metric = Wer(length=length, case=True, tokenize="whitespace")
    items, expected = [], []
    for _ in range(300):
        hypothesis = _text(rng, 0, 8)
        references = [_text(rng, 1, 8) for _ in range(rng.randint(1, 4))]
        found = []
        for reference in references:
            out = jiwer.process_words(reference, hypothesis)
            found.append((out.substitutions + out.deletions + out.insertions, len(reference.split())))
        fewest = min(edits for edits, _ in found)
        sizes = [size for _, size in found]
        chosen = {
            "average": Fraction(sum(sizes), len(sizes)),
            "best": max(size for edits, size in found if edits == fewest),
            "shortest": min(sizes),
            "longest": max(sizes),
        }[length]
        items.append(_item(hypothesis, *references))
        expected.append((fewest, chosen))
    rows = metric.counts(items)
    for row, (fewest, chosen) in zip(rows, expected):
        assert row[0] == fewest
        assert row[1] == pytest.approx(float(chosen), rel=1e-15)
        assert metric.score(row) == pytest.approx(float(fewest / Fraction(chosen)), rel=1e-15)


def test_wer_by_hand() -> None:
    """hypothesis "the cat sat on mat"
    reference 1 "the cat sat on the mat": 1 edit (delete "the"), 6 words: the closest
    reference 2 "a cat sat": 3 edits (the → a, insert "on" and "mat"), 3 words."""
    hypothesis, first, second = "the cat sat on mat", "the cat sat on the mat", "a cat sat"
    expected = {
        "best": Fraction(1, 6),
        "average": Fraction(2, 9),
        "shortest": Fraction(1, 3),
        "longest": Fraction(1, 6),
    }
    for length, rate in expected.items():
        assert _rate(Wer(length=length), hypothesis, first, second) == float(rate)
        assert _rate(Wer(length=length), hypothesis, second, first) == float(rate)
    # The corpus: (1 + 2) edits over (6 + 4.5) reference words, not the mean of the items' rates.
    metric = Wer()
    rows = metric.counts(
        [_item(hypothesis, first, second), _item("on mat", "the cat sat on the mat", "sat on mat")]
    )
    assert rows.tolist() == [[1, 4.5], [1, 4.5]]
    assert metric.score(rows.sum(axis=0)) == float(Fraction(2, 9))


def test_best_length_is_the_longest_of_the_closest_whatever_their_order() -> None:
    """ "a b" is 1 edit from "a" (1 word) and from "a b c" (3 words): 1/3 both ways round."""
    for references in (("a", "a b c"), ("a b c", "a")):
        assert _rate(Wer(length="best"), "a b", *references) == float(Fraction(1, 3))


def test_per_by_hand() -> None:
    """PER = (max(|hyp|, |ref|) - matched) / reference length."""
    # The same bag in another order: no PER error; 2 WER errors (mat for cat, cat for mat).
    assert _rate(Per(), "the mat sat on the cat", "the cat sat on the mat") == 0.0
    assert _rate(Wer(), "the mat sat on the cat", "the cat sat on the mat") == float(Fraction(2, 6))
    # hyp {a: 2, b: 1, c: 1}, ref {a: 1, b: 2, d: 1, e: 1}: matched a, b = 2; max(4, 5) = 5;
    # 3 errors over 5 words. Leusch et al.'s form: (|5 - 4| + |1-2| + |2-1| + 1 + 1 + 1) / 2 = 3.
    assert position_independent_errors("a a b c".split(), "a b b d e".split()) == 3
    assert _rate(Per(), "a a b c", "a b b d e") == float(Fraction(3, 5))
    # A longer hypothesis: {x, y, y, z} against {y, x}: matched 2, max(4, 2) = 4: 2 errors / 2.
    assert _rate(Per(), "x y y z", "y x") == 1.0
    # Two references: 3 errors from "a b b d e" (5 words), 2 from "c a" (2 words): the closest is
    # "c a"; the mean length 7/2 gives 4/7, the best length 2/2.
    assert _rate(Per(), "a a b c", "a b b d e", "c a") == float(Fraction(4, 7))
    assert _rate(Per(length="best"), "a a b c", "a b b d e", "c a") == 1.0
    assert _rate(Per(length="longest"), "a a b c", "a b b d e", "c a") == float(Fraction(2, 5))


def test_per_is_the_best_word_order_of_the_hypothesis() -> None:
    """Two brute forces over every order of the hypothesis's words. PER's errors are the fewest
    Levenshtein edits from a reordered hypothesis to the reference (word order is free); and
    its matched words are the most positions where the reference and a placement of the
    hypothesis's words in as many positions (any order, blanks where the hypothesis is
    shorter) hold the same word: the other positions are substitutions, insertions or
    deletions, ``max(|hyp|, |ref|) - matched`` of them."""
    rng = random.Random(5)
    for _ in range(400):
        hypothesis = [rng.choice("abc") for _ in range(rng.randint(0, 6))]
        reference = [rng.choice("abcd") for _ in range(rng.randint(0, 6))]
        errors = position_independent_errors(hypothesis, reference)
        orders = set(itertools.permutations(hypothesis))
        assert errors == min(_edit_table(order, reference) for order in orders)
        blanks = [None] * max(len(reference) - len(hypothesis), 0)
        placements = set(itertools.permutations([*hypothesis, *blanks]))
        matched = max(sum(h == r for h, r in zip(placed, reference)) for placed in placements)
        assert errors == max(len(hypothesis), len(reference)) - matched
        assert matched == sum(min(hypothesis.count(w), reference.count(w)) for w in set(reference))


def test_per_of_several_references_is_its_closest() -> None:
    rng = random.Random(6)
    for _ in range(200):
        hypothesis = " ".join(rng.choice("abc") for _ in range(rng.randint(0, 6)))
        refs = [" ".join(rng.choice("abcd") for _ in range(rng.randint(1, 6))) for _ in range(3)]
        found = [(position_independent_errors(hypothesis.split(), r.split()), len(r.split())) for r in refs]
        fewest = min(errors for errors, _ in found)
        best = max(size for errors, size in found if errors == fewest)
        assert Per(length="best").counts([_item(hypothesis, *refs)]).tolist() == [[fewest, best]]


def test_words_split_punctuation_but_not_in_numbers() -> None:
    text = "U.S. GDP rose 3.5%, to $1,000. Don't panic!"
    assert words(text) == [
        *("u", ".", "s", ".", "gdp", "rose", "3.5", "%", ",", "to", "$", "1,000", "."),
        *("don", "'", "t", "panic", "!"),
    ]
    assert words(text, case=True, tokenize="whitespace") == text.split()
    # Marks that are not letters stay in their word (Devanagari's vowel signs and virama).
    assert words("नमस्ते, दुनिया!") == ["नमस्ते", ",", "दुनिया", "!"]
    # Case: "The" and "the" are one word unless case.
    assert _rate(Wer(), "The cat", "the cat") == 0.0
    assert _rate(Wer(case=True), "The cat", "the cat") == 0.5
    # Punctuation: split on whitespace, "mat." is a wrong word for "mat" and "." is deleted; split
    # off, the words are the reference's.
    assert _rate(Wer(tokenize="whitespace"), "the mat.", "the mat .") == float(Fraction(2, 3))
    assert _rate(Wer(), "the mat.", "the mat .") == 0.0


def test_empty_references_and_texts() -> None:
    """A reference without words: a rate of 1 where there are errors, 0 where there are none (as
    sacrebleu's TER); an empty hypothesis: every reference word deleted."""
    assert _rate(Wer(), "a cat", "") == 1.0
    assert _rate(Per(), "", "") == 0.0
    assert _rate(Wer(), "", "the cat sat") == 1.0
    with pytest.raises(UsageError, match="WER: no reference for e: WER needs one"):
        Wer().counts([Item("e", ("a",), ())])


def test_options_are_checked_and_signed() -> None:
    with pytest.raises(
        UsageError, match="WER: option length must be one of average, best, shortest, longest"
    ):
        Wer(length="median")
    with pytest.raises(UsageError, match="PER: option tokenize must be one of punctuation, whitespace"):
        Per(tokenize="nltk")
    with pytest.raises(UsageError, match="WER: option case must be bool"):
        Wer(case=1)  # type: ignore[arg-type]
    assert Wer().signature() == "WER|length:average|case:no|tokenize:punctuation"
    made = metric_of("per:length=best:case=yes")
    assert made == Per(length="best", case=True)
    assert (Wer.name, Per.name, Wer.higher_is_better, Per.higher_is_better) == ("WER", "PER", False, False)
    assert Wer().counts([]).shape == (0, 2)
    assert isinstance(Wer().score(np.array([3.0, 4.0])), float)
