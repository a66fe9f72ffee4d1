"""The corpus (``rouge155py/text/corpus.py``): each document read once per stemming choice,
token ids for a run.

Every test runs on the C kernel's encoder and on the pure-Python one.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

import rouge155py._kernel
import rouge155py.text.corpus
from rouge155py.inputs.readers import SummaryFile, SummaryText
from rouge155py.text.corpus import Corpus
from rouge155py.text.resources import load_data
from rouge155py.text.tokenize import Tokenizer

READS: Counter[str] = Counter()


@dataclass(frozen=True)
class CountedText(SummaryText):
    """A text in memory that counts how often it is read (its lines, or its text whole)."""

    def lines(self) -> list[str]:
        READS[self.text] += 1
        return super().lines()

    def content(self) -> str:
        READS[self.text] += 1
        return super().content()


def doc(text: str) -> CountedText:
    return CountedText(text, "SPL")


@pytest.fixture(params=["kernel", "python"])
def make_corpus(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Corpus]:
    """``make_corpus(words=0, nbytes=0, stopwords=False)``: a corpus of the Perl's text stage."""
    if request.param == "python":
        monkeypatch.setattr(rouge155py._kernel, "accel", None)
    elif rouge155py._kernel.accel is None:
        pytest.skip("the C kernel is not built")
    READS.clear()
    data = load_data(None)

    def make(words: float = 0, nbytes: float = 0, stopwords: bool = False) -> Corpus:
        return Corpus(Tokenizer(data, stopwords), words, nbytes)

    return make


def tokens(corpus: Corpus, ids: object) -> list[str]:
    """The forms the ids stand for."""
    forms = {number: form for form, number in corpus.vocabulary.items()}
    return [forms[i] for i in ids]  # type: ignore[attr-defined]


def sentences(corpus: Corpus, encoded: tuple) -> list[list[str]]:
    ids, starts = encoded
    return [tokens(corpus, ids[starts[k] : starts[k + 1]]) for k in range(len(starts) - 1)]


def test_a_document_is_read_once_per_stemming_choice(make_corpus: Callable[..., Corpus]) -> None:
    corpus = make_corpus()
    first = doc("The cats were running.\nA second line.\n")
    for stem in (False, True, False, True):
        corpus.token_ids(first, stem)
        corpus.sentence_ids(first, stem)
        corpus.lcs_sentence_ids(first, stem)
    assert READS[first.text] == 2
    assert corpus.sentence_ids(first, True) is corpus.sentence_ids(first, True)


def test_with_a_length_limit_a_document_is_read_once(make_corpus: Callable[..., Corpus]) -> None:
    """Under ``-l``/``-b`` the sentences are kept: both readers' views and both stemming choices use them."""
    corpus = make_corpus(words=3)
    first = doc("The cats were running.\nA second line.\n")
    for stem in (False, True):
        corpus.token_ids(first, stem)
        corpus.lcs_sentence_ids(first, stem)
        corpus.sentence_ids(first, stem)
    assert READS[first.text] == 1


def test_clear_forgets_documents_and_keeps_token_ids(make_corpus: Callable[..., Corpus]) -> None:
    corpus = make_corpus()
    first, second = doc("alpha beta gamma\n"), doc("gamma delta alpha\n")
    before = list(corpus.token_ids(first, False))
    corpus.clear()
    after = list(corpus.token_ids(second, False))
    assert after[0] == before[2] and after[2] == before[0]  # the same token, the same id
    assert tokens(corpus, after) == ["gamma", "delta", "alpha"]
    assert list(corpus.token_ids(first, False)) == before
    assert READS[first.text] == 2  # read again after clear()


def test_very_many_tokens_start_the_ids_again(
    make_corpus: Callable[..., Corpus], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the bound on distinct tokens remembered, clear() forgets them too (bounded memory)."""
    monkeypatch.setattr(rouge155py.text.corpus, "_MAX_REMEMBERED", 5)
    corpus = make_corpus()
    corpus.token_ids(doc("one two three four five six\n"), False)
    corpus.clear()
    assert len(corpus.vocabulary) == 0
    fresh = doc("six seven\n")
    assert list(corpus.token_ids(fresh, False)) == [0, 1]
    assert tokens(corpus, corpus.token_ids(fresh, False)) == ["six", "seven"]


def test_stemming_maps_to_the_ids_of_the_stems(make_corpus: Callable[..., Corpus]) -> None:
    """One vocabulary for both choices: a stemmed token has the id of its stem as written."""
    corpus = make_corpus()
    plain = corpus.token_ids(doc("run cat\n"), False)
    stemmed = corpus.token_ids(doc("running cats\n"), True)
    assert list(stemmed) == list(plain)
    assert tokens(corpus, corpus.token_ids(doc("running cats\n"), False)) == ["running", "cats"]


def test_stopwords_are_dropped_from_the_ids(make_corpus: Callable[..., Corpus]) -> None:
    text = doc("the cat ran on the mat\n")
    corpus = make_corpus(stopwords=True)
    assert tokens(corpus, corpus.token_ids(text, False)) == ["cat", "ran", "mat"]
    corpus = make_corpus()
    assert tokens(corpus, corpus.token_ids(text, False)) == ["the", "cat", "ran", "on", "the", "mat"]


def test_sentences_keep_their_bounds(make_corpus: Callable[..., Corpus]) -> None:
    corpus = make_corpus()
    text = doc("Alpha beta.\n...\nGamma, delta epsilon!\n")
    assert sentences(corpus, corpus.sentence_ids(text, False)) == [
        ["alpha", "beta"],
        [],
        ["gamma", "delta", "epsilon"],
    ]
    assert tokens(corpus, corpus.token_ids(text, False)) == ["alpha", "beta", "gamma", "delta", "epsilon"]


def test_a_word_limit_cuts_both_readers_views_alike(make_corpus: Callable[..., Corpus]) -> None:
    corpus = make_corpus(words=4)
    text = doc("aa bb cc\ndd ee ff\n")
    assert tokens(corpus, corpus.token_ids(text, False)) == ["aa", "bb", "cc", "dd"]
    assert sentences(corpus, corpus.lcs_sentence_ids(text, False)) == [["aa", "bb", "cc"], ["dd"]]
    assert sentences(corpus, corpus.sentence_ids(text, False)) == [["aa", "bb", "cc"], ["dd", "ee", "ff"]]


def test_a_byte_limit_holds_each_lcs_sentence_to_it_alone(make_corpus: Callable[..., Corpus]) -> None:
    """The n-gram reader counts bytes across sentences; the LCS reader compares each sentence to the
    limit alone and stops after the first it cuts."""
    corpus = make_corpus(nbytes=8)
    text = doc("aa bb\ncc dd ee\nff\n")
    assert tokens(corpus, corpus.token_ids(text, False)) == ["aa", "bb", "cc"]
    assert sentences(corpus, corpus.lcs_sentence_ids(text, False)) == [["aa", "bb"], ["cc", "dd", "ee"]]


def test_views_are_made_once_until_cleared(make_corpus: Callable[..., Corpus]) -> None:
    corpus = make_corpus()
    made = []
    for _ in range(3):
        corpus.view("key", lambda: made.append(1) or len(made))
    assert corpus.view("key", lambda: 0) == 1 and made == [1]
    corpus.clear()
    assert corpus.view("key", lambda: 7) == 7


def test_existence_is_asked_once(make_corpus: Callable[..., Corpus], tmp_path: Path) -> None:
    corpus = make_corpus()
    path = tmp_path / "model.spl"
    model = SummaryFile(str(path), "SPL")
    assert not corpus.exists(model)
    path.write_text("now it exists\n")
    assert not corpus.exists(model)  # the Perl tests each model once, before anything is read
    corpus.clear()
    assert corpus.exists(model)


def _random_spl(rng: random.Random) -> str:
    pieces = ["the", "The", "CATS", "cats", "Running", "ran", "a1", "9b", "x", "on", "OF", "of", "mat"]
    pieces += ["was", "an", "it", "\n", "\n\n", " ", ", ", "...", "\r", "\t", "\xe9t\xe9", "caf\xe9", "-"]
    pieces += ["long" * 20, "Longer" * 60 + "9"]  # tokens past the kernel's 64 bytes kept in place
    return "".join(rng.choice(pieces) + rng.choice(("", " ", "")) for _ in range(rng.randrange(0, 40)))


@pytest.mark.parametrize("stopwords", [False, True])
def test_an_spl_text_read_whole_by_the_kernel_gives_the_python_ids(
    stopwords: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel splits an SPL text's lines and lowercases them itself: the same sentences, ids
    and ids' numbering as the Python reader and encoder, stemmed or not, with or without -s."""
    if rouge155py._kernel.accel is None:
        pytest.skip("the C kernel is not built")
    data = load_data(None)
    rng = random.Random(7)
    texts = [_random_spl(rng) for _ in range(300)] + ["", "\n", "A\n\nB", "no newline at the end"]
    kernel = Corpus(Tokenizer(data, stopwords), 0, 0)
    found = [[kernel.sentence_ids(SummaryText(t, "spl"), stem) for stem in (False, True)] for t in texts]
    # Texts encoded as they are (a run that starts with a capital is no counted token).
    found_texts = [kernel.encode(t.split("\n"), False) for t in texts]
    monkeypatch.setattr(rouge155py._kernel, "accel", None)
    python = Corpus(Tokenizer(data, stopwords), 0, 0)
    expected = [[python.sentence_ids(SummaryText(t, "spl"), stem) for stem in (False, True)] for t in texts]
    assert found == expected
    assert found_texts == [python.encode(t.split("\n"), False) for t in texts]
    assert kernel.vocabulary == python.vocabulary


def test_the_kernel_asks_the_table_once_per_distinct_token() -> None:
    accel = rouge155py._kernel.accel
    if accel is None:
        pytest.skip("the C kernel is not built")
    asked: list[str] = []

    class Table(dict):  # type: ignore[type-arg]
        def __missing__(self, token: str) -> int:
            asked.append(token)
            self[token] = {"cat": 0, "of": -1, "dog": 1}[token]
            return self[token]

    table = Table()
    memo = accel.token_memo(table)
    ids, offsets = accel.encode(["cat of dog", "Cat of cat", "dog"], table, True, memo)
    assert (list(memoryview(ids).cast("i")), list(memoryview(offsets).cast("i"))) == (
        [0, 1, 0, 1],
        [0, 2, 3, 4],
    )
    ids, offsets = accel.encode_lines("CAT\n\nof dog cat\n", table, False, memo)
    assert (list(memoryview(ids).cast("i")), list(memoryview(offsets).cast("i"))) == (
        [0, -1, 1, 0],
        [0, 1, 4],
    )
    assert asked == ["cat", "of", "dog"]
    with pytest.raises(ValueError, match="another table"):
        accel.encode(["cat"], Table(), False, memo)
    assert accel.encode_lines("caf\u0100", table, False, memo) is None  # past latin-1: read in Python
