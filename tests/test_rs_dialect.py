"""rouge-score's dialect (``rouge155py.rouge_score``) against rouge-score 0.1.2 itself, item by item.

Random pairs of mixed shapes (empty, punctuation only, digits, Unicode, very long,
many lines, several targets) with random ROUGE types and the stemmer on or off:
every Score field must be equal, as a Python value of the same type.
``ROUGE155PY_RS_PAIRS`` sets the number of pairs (``ROUGE155PY_RS_SEED`` the
seed); run with ``-s`` to see the count.
"""

from __future__ import annotations

import gzip
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rouge155py import _kernel
from rouge155py.errors import UsageError
from rouge155py.rouge_score import rouge_scorer, scoring, tokenize, tokenizers

reference_scorer = pytest.importorskip("rouge_score.rouge_scorer")
reference_scoring = pytest.importorskip("rouge_score.scoring")
reference_tokenize = pytest.importorskip("rouge_score.tokenize")

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "stem_vocab.tsv.gz"
PAIRS = int(os.environ.get("ROUGE155PY_RS_PAIRS", "1500"))
SEED = int(os.environ.get("ROUGE155PY_RS_SEED", "0"))
ALL_TYPES = [f"rouge{n}" for n in range(1, 10)] + ["rougeL", "rougeLsum"]
COMMON = "the a of to and in is was for on that with as by at he it from his said".split()
ODD = ["\u0130stanbul", "\u212aelvin", "caf\u00e9", "stra\u00dfe", "\u03a9mega", "\u4e2d\u6587", "na\u00efve"]
ODD += ["\U0001f600", "e\u0301t\u00e9", "\u0130", "\u212a", "\ufb01ne", "\u2160", "\uff21\uff22"]
PUNCT = [*list(".,;:!?-'\"()[]{}/\\@#$%^&*_+=<>|~`"), "...", " - ", "\t", "\r", "\xa0", "—"]


def _words() -> list[str]:
    rows = gzip.decompress(FIXTURE.read_bytes()).split(b"\n")
    return [r.split(b"\t")[0].decode("latin-1") for r in rows[::7] if r]


WORDS = _words()


def _word(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.45:
        word = rng.choice(COMMON)
    elif pick < 0.85:
        word = rng.choice(WORDS)
    elif pick < 0.93:
        word = str(rng.randint(0, 10 ** rng.randint(1, 6))) + rng.choice(["", "s", "th", "%", ".5", "km"])
    else:
        word = rng.choice(ODD)
    shape = rng.random()
    if shape < 0.1:
        word = word.capitalize()
    elif shape < 0.13:
        word = word.upper()
    if rng.random() < 0.15:
        word += rng.choice(PUNCT)
    return word


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(_word(rng) for _ in range(words)) + rng.choice([".", "", "!", " ?", ";"])


def random_text(rng: random.Random) -> str:
    """A text of one of several shapes."""
    shape = rng.random()
    if shape < 0.05:
        return ""
    if shape < 0.09:
        return "".join(rng.choice([*PUNCT, " ", "\n"]) for _ in range(rng.randint(1, 12)))
    if shape < 0.12:
        return " ".join(str(rng.randint(0, 999)) for _ in range(rng.randint(1, 10)))
    if shape < 0.15:
        return " ".join(rng.choice(ODD) for _ in range(rng.randint(1, 8)))
    if shape < 0.17:
        return _sentence(rng, rng.randint(300, 1500))
    if shape < 0.35:
        lines = [_sentence(rng, rng.randint(0, 15)) for _ in range(rng.randint(2, 25))]
        lines += [""] * rng.randint(0, 3) + [" "] * rng.randint(0, 2)
        rng.shuffle(lines)
        return rng.choice(["\n", "\r\n", "\n\n"]).join(lines)
    sentences = [_sentence(rng, rng.randint(1, 30)) for _ in range(rng.randint(1, 4))]
    return rng.choice(["\n", " "]).join(sentences)


def related_text(rng: random.Random, text: str) -> str:
    """A text that shares some of ``text``'s words: words dropped, changed, swapped, lines moved."""
    lines = text.split("\n")
    out = []
    for line in lines:
        words = line.split(" ")
        kept = []
        for w in words:
            r = rng.random()
            if r < 0.15:
                continue
            if r < 0.3:
                kept.append(_word(rng))
            elif r < 0.35:
                kept.append(w + rng.choice(["s", "ed", "ing", "ly", "ness"]))
            else:
                kept.append(w)
        if len(kept) > 2 and rng.random() < 0.3:
            i = rng.randrange(len(kept) - 1)
            kept[i], kept[i + 1] = kept[i + 1], kept[i]
        out.append(" ".join(kept))
    if len(out) > 1 and rng.random() < 0.3:
        rng.shuffle(out)
    return "\n".join(out)


class WhitespaceTokenizer:
    """A custom tokenizer (rouge-score calls any object with ``tokenize``)."""

    def tokenize(self, text: str) -> list[str]:
        return text.lower().split()


def random_case(rng: random.Random) -> tuple[list[str], bool, Any, list[str], str]:
    """(types, stemmer, tokenizer or None, targets, prediction)."""
    r = rng.random()
    if r < 0.7:
        types = ALL_TYPES
    elif r < 0.8:
        types = ["rougeLsum"]
    else:
        types = rng.sample(ALL_TYPES, rng.randint(1, 4))
    tokenizer = WhitespaceTokenizer() if rng.random() < 0.03 else None
    target = random_text(rng)
    targets = [target] + [related_text(rng, target) for _ in range(rng.choice([0, 0, 0, 1, 2]))]
    prediction = related_text(rng, target) if rng.random() < 0.8 else random_text(rng)
    return types, rng.random() < 0.5, tokenizer, targets, prediction


def _same(ours: dict[str, Any], theirs: dict[str, Any]) -> bool:
    """Equal keys in the same order, equal values of the same types."""
    if list(ours) != list(theirs):
        return False
    for key, score in theirs.items():
        mine = ours[key]
        if tuple(mine) != tuple(score) or [type(v) for v in mine] != [type(v) for v in score]:
            return False
    return True


def compare(pairs: int, seed: int) -> tuple[int, list[str]]:
    """Items compared and the differing ones (described)."""
    rng = random.Random(seed)
    compared, differing = 0, []
    scorers: dict[tuple, tuple[Any, Any]] = {}
    for _ in range(pairs):
        types, stem, tokenizer, targets, prediction = random_case(rng)
        key = (tuple(types), stem, tokenizer is not None)
        if key not in scorers:
            scorers[key] = (
                rouge_scorer.RougeScorer(types, use_stemmer=stem, tokenizer=tokenizer),
                reference_scorer.RougeScorer(types, use_stemmer=stem, tokenizer=tokenizer),
            )
        ours, theirs = scorers[key]
        if len(targets) == 1:
            cases = [(ours.score(targets[0], prediction), theirs.score(targets[0], prediction))]
            cases.append((ours.score_batch(targets, [prediction])[0], cases[0][1]))
        else:
            expected = theirs.score_multi(targets, prediction)
            cases = [(ours.score_multi(targets, prediction), expected)]
            cases.append((ours.score_batch([targets], [prediction])[0], expected))
        compared += 1
        if not all(_same(mine, found) for mine, found in cases):
            differing.append(f"{key} {targets!r} {prediction!r}: {cases[0][0]} != {cases[0][1]}")
    return compared, differing


@pytest.mark.parametrize("pairs", [50, pytest.param(PAIRS, marks=pytest.mark.slow)])
def test_random_pairs_equal_rouge_score(pairs: int) -> None:
    """The first pairs in the fast tier, all of them in the whole suite."""
    compared, differing = compare(pairs, SEED)
    print(f"\nrouge-score dialect: {compared} items compared, {len(differing)} differ")
    assert compared == pairs
    assert differing == [], differing[:5]


@pytest.mark.slow
def test_batch_equals_pair_by_pair() -> None:
    rng = random.Random(SEED + 1)
    targets = [random_text(rng) for _ in range(300)]
    predictions = [related_text(rng, t) for t in targets]
    for stem in (False, True):
        ours = rouge_scorer.RougeScorer(ALL_TYPES, use_stemmer=stem)
        theirs = reference_scorer.RougeScorer(ALL_TYPES, use_stemmer=stem)
        found = ours.score_batch(targets, predictions)
        assert all(_same(f, theirs.score(t, p)) for f, t, p in zip(found, targets, predictions))


@pytest.mark.slow
def test_batch_on_threads_equals_rouge_score(monkeypatch: pytest.MonkeyPatch) -> None:
    """score_batch split among threads and into chunks: every item rouge-score's, in order, with
    several targets too."""
    rng = random.Random(SEED + 2)
    targets: list[Any] = [random_text(rng) for _ in range(400)]
    predictions = [related_text(rng, t) if rng.random() < 0.8 else random_text(rng) for t in targets]
    for stem in (False, True):
        ours = rouge_scorer.RougeScorer(ALL_TYPES, use_stemmer=stem)
        theirs = reference_scorer.RougeScorer(ALL_TYPES, use_stemmer=stem)
        expected = [theirs.score(t, p) for t, p in zip(targets, predictions)]
        for threads, chunk in ((2, 1 << 14), (3, 1 << 14), (1000, 1 << 14), (1, 7), (2, 7)):
            monkeypatch.setattr(rouge_scorer, "_CHUNK_PAIRS", chunk)
            found = ours.score_batch(targets, predictions, threads=threads)
            assert len(found) == len(expected)
            assert all(_same(f, e) for f, e in zip(found, expected))
    several = [[t, related_text(rng, t)] for t in targets[:50]]
    ours = rouge_scorer.RougeScorer(["rouge2", "rougeLsum"], use_stemmer=True)
    theirs = reference_scorer.RougeScorer(["rouge2", "rougeLsum"], use_stemmer=True)
    found = ours.score_batch(several, predictions[:50], threads=2)
    assert all(_same(f, theirs.score_multi(t, p)) for f, t, p in zip(found, several, predictions))
    for wrong in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="threads"):
            ours.score_batch(targets[:2], predictions[:2], threads=wrong)


def test_score_reads_the_rouge_types_and_the_stemmer_at_each_call() -> None:
    """score() keeps its plan of the ROUGE types between calls (a loop of single pairs): a list
    of types changed in place, or replaced, or a stemmer swapped in, is read at the next call as
    rouge-score reads it."""
    target, prediction = "The cats sat on mats", "a cat sat on the mat"
    ours = rouge_scorer.RougeScorer(["rouge1"])
    theirs = reference_scorer.RougeScorer(["rouge1"])
    assert _same(ours.score(target, prediction), theirs.score(target, prediction))
    for change in (
        lambda s: s.rouge_types.append("rougeL"),
        lambda s: setattr(s, "rouge_types", ("rouge2", "rougeLsum")),
        lambda s: setattr(s, "_tokenizer", type(s._tokenizer)(use_stemmer=True)),
        lambda s: s.rouge_types.__setitem__(0, "rouge3") if isinstance(s.rouge_types, list) else None,
    ):
        change(ours)
        change(theirs)
        assert _same(ours.score(target, prediction), theirs.score(target, prediction))
    ours.rouge_types = ["rougeX"]
    with pytest.raises(ValueError, match="Invalid rouge type: rougeX"):
        ours.score(target, prediction)


def test_stems_kept_between_calls_give_the_same_scores_on_threads_at_once() -> None:
    """The stems one call finds serve the next (one call holds them at a time): score() in a
    loop, on four threads at once, equals rouge-score's on every pair, and so do the pairs
    scored again after all the others."""
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(SEED + 3)
    targets = [random_text(rng) for _ in range(240)]
    predictions = [related_text(rng, t) for t in targets]
    ours = rouge_scorer.RougeScorer(ALL_TYPES, use_stemmer=True)
    theirs = reference_scorer.RougeScorer(ALL_TYPES, use_stemmer=True)
    expected = [theirs.score(t, p) for t, p in zip(targets, predictions)]

    def loop(part: int) -> list[Any]:
        return [ours.score(targets[k], predictions[k]) for k in range(part, len(targets), 4)]

    with ThreadPoolExecutor(4) as pool:
        parts = list(pool.map(loop, range(4)))
    for part, found in enumerate(parts):
        assert all(_same(f, expected[k]) for f, k in zip(found, range(part, len(targets), 4)))
    again = [ours.score(t, p) for t, p in zip(targets[:20], predictions[:20])]
    assert all(_same(f, e) for f, e in zip(again, expected))


def test_a_table_too_large_is_refused_on_every_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel leaves a pair whose LCS table is too large to the general path, which refuses it."""
    from rouge155py.errors import LimitError
    from rouge155py.metrics import lcs

    monkeypatch.setattr(lcs, "MAX_LCS_CELLS", 6 * 5 - 1)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    assert scorer.score("a b c d e f", "a b c d")["rougeL"].recall == 4 / 6
    with pytest.raises(LimitError, match="rougeL"):
        scorer.score_batch(["x", "a b c d e f"], ["x", "a b c d e"], threads=2)
    monkeypatch.setattr(lcs, "MAX_LCS_CELLS", 6 * 5)
    assert scorer.score_batch(["a b c d e f"], ["a b c d e"])[0]["rougeL"].fmeasure == 10 / 11


def test_tokens_equal_rouge_score_and_unicode_lowercase_table() -> None:
    """The kernel knows the two non-ASCII characters that lower() makes a-z; Python must agree."""
    made_ascii = [
        c
        for c in range(0x80, sys.maxunicode + 1)
        if any(ch.isascii() and ch.isalnum() for ch in chr(c).lower())
    ]
    assert made_ascii == [0x130, 0x212A]
    rng = random.Random(SEED + 2)
    texts = [random_text(rng) for _ in range(500)] + [
        "".join(map(chr, range(0x20, 0x250))),
        "a\u0130b\u212ac",
    ]
    for stem in (False, True):
        stemmer = tokenizers.PorterStemmer() if stem else None
        reference = reference_scorer.tokenizers.DefaultTokenizer(stem)._stemmer
        for text in texts:
            assert tokenize.tokenize(text, stemmer) == reference_tokenize.tokenize(text, reference)
            assert tokenize.tokenize(text.encode(), stemmer) == reference_tokenize.tokenize(
                text.encode(), reference
            )


def test_rouge_types_and_errors_as_rouge_score() -> None:
    for bad in ["rougen", "rouge0", "rouge10", "rougeX", "ROUGE1"]:
        for scorer in (rouge_scorer.RougeScorer([bad]), reference_scorer.RougeScorer([bad])):
            with pytest.raises(ValueError):
                scorer.score("a b", "a")
    assert rouge_scorer.RougeScorer(["rouge1\n"]).score("a b", "a") == reference_scorer.RougeScorer(
        ["rouge1\n"]
    ).score("a b", "a")
    with pytest.raises(ValueError):
        rouge_scorer.RougeScorer(["rouge1"]).score_multi([], "a")
    with pytest.raises(ValueError):
        rouge_scorer.RougeScorer(["rouge1"]).score_batch(["a"], ["a", "b"])


def test_split_summaries() -> None:
    """nltk's sentences where its punkt model is installed, else one clear error."""
    ours = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=True, split_summaries=True)
    target, prediction = "First sentence. Second Sentence.", "Second sentence. First Sentence."
    try:
        expected = reference_scorer.RougeScorer(["rougeLsum"], use_stemmer=True, split_summaries=True).score(
            target, prediction
        )
    except LookupError:
        with pytest.raises(UsageError, match="punkt"):
            ours.score(target, prediction)
        return
    assert _same(ours.score(target, prediction), expected)


@pytest.mark.slow
def test_split_summaries_path_with_a_stand_in_for_punkt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both sides call ``nltk.sent_tokenize``: with a stand-in splitter, the sentences of
    ``split_summaries`` (and rougeL, rougeN beside them) give the same scores."""
    nltk = pytest.importorskip("nltk")
    monkeypatch.setattr(nltk, "sent_tokenize", lambda text: re.split(r"(?<=[.!?;])\s+", text))
    rng = random.Random(SEED + 3)
    for stem in (False, True):
        for types in (ALL_TYPES, ["rougeLsum"]):
            ours = rouge_scorer.RougeScorer(types, use_stemmer=stem, split_summaries=True)
            theirs = reference_scorer.RougeScorer(types, use_stemmer=stem, split_summaries=True)
            targets = [random_text(rng) for _ in range(60)]
            predictions = [related_text(rng, t) for t in targets]
            found = ours.score_batch(targets, predictions)
            assert all(_same(f, theirs.score(t, p)) for f, t, p in zip(found, targets, predictions))


def test_bootstrap_equals_rouge_score_with_the_same_random_state() -> None:
    rng = np.random.RandomState(7)
    for rows, samples, confidence in [(1, 10, 0.95), (3, 1000, 0.9), (500, 300, 0.95), (2000, 50, 0.0)]:
        values = rng.rand(rows, 3)
        results = []
        for module in (scoring, reference_scoring):
            aggregator = module.BootstrapAggregator(confidence_interval=confidence, n_samples=samples)
            for p, r, f in values:
                aggregator.add_scores({"rouge1": module.Score(p, r, f), "rougeL": module.Score(r, p, f)})
            np.random.seed(rows)
            results.append(aggregator.aggregate())
        ours, theirs = results
        assert list(ours) == list(theirs)
        for key in theirs:
            assert [tuple(x) for x in ours[key]] == [tuple(x) for x in theirs[key]]
    for bad in [{"confidence_interval": 1.5}, {"n_samples": 0}]:
        with pytest.raises(ValueError):
            scoring.BootstrapAggregator(**bad)


def test_helpers_its_tests_call() -> None:
    assert rouge_scorer._create_ngrams(["a", "b", "a", "b"], 2) == reference_scorer._create_ngrams(
        ["a", "b", "a", "b"], 2
    )
    ref, cans = [1, 2, 3, 4, 5], [[1, 2, 6, 7, 8], [1, 3, 8, 9, 5], [5, 4, 3]]
    for can in cans:
        table = rouge_scorer._lcs_table(ref, can)
        assert table == reference_scorer._lcs_table(ref, can)
        assert rouge_scorer._backtrack_norec(table, ref, can) == reference_scorer._backtrack_norec(
            table, ref, can
        )
        assert rouge_scorer.lcs_ind(ref, can) == reference_scorer.lcs_ind(ref, can)
    assert rouge_scorer._union_lcs(ref, cans) == reference_scorer._union_lcs(ref, cans)
    assert rouge_scorer._summary_level_lcs([ref], cans) == reference_scorer._summary_level_lcs([ref], cans)
    assert rouge_scorer._score_lcs(ref, cans[1]) == reference_scorer._score_lcs(ref, cans[1])


@pytest.mark.slow
@pytest.mark.skipif(not _kernel.kernel_available(), reason="compares the kernel's path with the pure one")
def test_without_the_kernel_the_same_numbers() -> None:
    """The pure-Python path (nltk's stemmer, the metrics' Python LCS) gives the same scores."""
    code = (
        "import sys; sys.path.insert(0, 'tests'); import test_rs_dialect as t\n"
        "from rouge155py import _kernel\nassert _kernel.accel is None\n"
        "n, bad = t.compare(200, 99)\nassert not bad, bad[:3]\nprint(n)"
    )
    env = {**os.environ, "ROUGE155PY_NO_KERNEL": "1"}
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["200"]
    assert _kernel.accel is not None
