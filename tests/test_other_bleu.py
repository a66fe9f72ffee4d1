"""BLEU (rouge155py.other_metrics.bleu) is sacrebleu's: on random corpora its corpus score is
``sacrebleu.corpus_bleu``'s, each item's ``sacrebleu.sentence_bleu``'s, and the score of the
summed counts of any resample the corpus_bleu of that resample, all equal as floats.

Tested with sacrebleu 2.6.0 (the test extra pins it). Skipped without sacrebleu, unless
``ROUGE155PY_REQUIRE_SACREBLEU=1`` makes that a failure.
"""

from __future__ import annotations

import os
import random
import sys
from typing import Any, Optional

import numpy as np
import pytest

from rouge155py.errors import UsageError, install_hint
from rouge155py.other_metrics.base import Item
from rouge155py.other_metrics.bleu import Bleu
from rouge155py.other_metrics.evals import metric_of

if os.environ.get("ROUGE155PY_REQUIRE_SACREBLEU") == "1":
    import sacrebleu
else:
    sacrebleu = pytest.importorskip("sacrebleu")
BLEU = sacrebleu.BLEU

WORDS = (
    "the The THE cat sat on mat a dog ran , . ! ? ; : ( ) \" ' - don't U.S. 3.14 1,000 5-6 0 42 "
    "é École naïve Straße ΣΑΣ 中文 日本語。 「引用」 — … « » € ± ½ 😀 &amp; <b> a.b x/y"
).split()


def _sentence(rng: random.Random, vocabulary: list[str], most: int) -> str:
    return " ".join(rng.choices(vocabulary, k=rng.randint(0, most)))


def _corpus(rng: random.Random) -> list[Item]:
    """Random items: 1 to 4 references each, numbers that differ within a corpus or not, 1 to
    3 sentences (some empty) each, hypotheses made of a reference's words, some dropped, some
    added, some shuffled."""
    vocabulary = rng.sample(WORDS, rng.randint(5, len(WORDS)))
    same = rng.random() < 0.5
    n_refs = rng.randint(1, 4)
    items = []
    for i in range(rng.randint(1, 25)):
        references = tuple(
            tuple(_sentence(rng, vocabulary, 12) for _ in range(rng.randint(1, 3)))
            for _ in range(n_refs if same else rng.randint(1, 4))
        )
        words = " ".join(rng.choice(references)).split()
        kept = [w for w in words if rng.random() < 0.8] + rng.choices(vocabulary, k=rng.randint(0, 4))
        if rng.random() < 0.2:
            rng.shuffle(kept)
        peer = (" ".join(kept[: len(kept) // 2]), " ".join(kept[len(kept) // 2 :]))
        items.append(Item(str(i), peer if rng.random() < 0.5 else (" ".join(kept),), references))
    return items


def _streams(items: list[Item]) -> tuple[list[str], list[list[Optional[str]]]]:
    """sacrebleu's input: the hypotheses, and reference streams padded with None."""
    most = max(len(item.references) for item in items)
    hypotheses = [" ".join(item.peer) for item in items]
    streams = [
        [" ".join(item.references[k]) if k < len(item.references) else None for item in items]
        for k in range(most)
    ]
    return hypotheses, streams


def _options(rng: random.Random) -> dict[str, Any]:
    method = rng.choice(["exp", "exp", "floor", "add-k", "none"])
    return {
        "tokenize": rng.choice(["13a", "13a", "intl", "none", "char", "zh"]),
        "lowercase": rng.random() < 0.3,
        "smooth_method": method,
        "smooth_value": rng.choice([None, round(rng.uniform(0.01, 2), 3)])
        if method in ("floor", "add-k")
        else None,
        "max_ngram_order": rng.choice([4, 4, 4, 1, 2, 3, 5, 6]),
        "effective_order": rng.random() < 0.8,
    }


def _sacrebleu_scores(
    options: dict[str, Any], hypotheses: list[str], streams: list[list[Optional[str]]]
) -> tuple[float, list[float]]:
    """corpus_bleu and each sentence_bleu, sacrebleu's functions (its BLEU class where the
    functions have no max_ngram_order); ``effective_order`` is the sentences'."""
    shared = {k: v for k, v in options.items() if k not in ("max_ngram_order", "effective_order")}
    if options["max_ngram_order"] == 4:
        corpus = sacrebleu.corpus_bleu(hypotheses, streams, **shared).score
        effective = options["effective_order"]
        sentences = [
            sacrebleu.sentence_bleu(
                h, [s[i] for s in streams if s[i] is not None], **shared, use_effective_order=effective
            ).score
            for i, h in enumerate(hypotheses)
        ]
        return corpus, sentences
    corpus = (
        BLEU(**shared, max_ngram_order=options["max_ngram_order"]).corpus_score(hypotheses, streams).score
    )
    sentence = BLEU(**options)
    return corpus, [
        sentence.sentence_score(h, [s[i] for s in streams if s[i] is not None]).score
        for i, h in enumerate(hypotheses)
    ]


@pytest.mark.parametrize("seed", range(240))
def test_random_corpora_score_as_sacrebleu(seed: int) -> None:
    rng = random.Random(seed)
    items, options = _corpus(rng), _options(rng)
    metric = Bleu(**options)
    counts = metric.counts(items)
    hypotheses, streams = _streams(items)
    corpus, sentences = _sacrebleu_scores(options, hypotheses, streams)
    assert metric.score(counts.sum(axis=0)) == corpus
    assert metric.item_scores(counts).tolist() == sentences
    for _ in range(5):  # a bootstrap resample: the score of its summed counts is its corpus_bleu
        drawn = [rng.randrange(len(items)) for _ in items]
        resampled, resampled_streams = _streams([items[i] for i in drawn])
        expected, _ = _sacrebleu_scores(options, resampled, resampled_streams)
        assert metric.score(counts[drawn].sum(axis=0)) == expected


def test_the_signature_is_sacrebleus() -> None:
    """sacrebleu's own string: nrefs from the last counts (var where the numbers differ)."""
    one = [Item("1", ("a cat",), (("the cat",),)), Item("2", ("a dog",), (("the dog",),))]
    metric = Bleu(smooth_method="floor", smooth_value=0.2, lowercase=True)
    assert metric.signature() == "case:lc|eff:no|tok:13a|smooth:floor[0.20]|version:2.6.0"
    metric.counts(one)
    theirs = BLEU(smooth_method="floor", smooth_value=0.2, lowercase=True)
    theirs.corpus_score(*_streams(one))
    assert metric.signature() == str(theirs.get_signature())
    assert metric.signature() == "nrefs:1|case:lc|eff:no|tok:13a|smooth:floor[0.20]|version:2.6.0"
    metric.counts([one[0], Item("3", ("a",), (("a",), ("b",)))])
    assert metric.signature() == "nrefs:var|case:lc|eff:no|tok:13a|smooth:floor[0.20]|version:2.6.0"


def test_options_from_the_command_line_and_their_checks() -> None:
    assert metric_of("bleu:smooth_method=floor:smooth_value=0.2:tokenize=intl") == Bleu(
        tokenize="intl", smooth_method="floor", smooth_value=0.2
    )
    with pytest.raises(UsageError, match="no tokenizer 'nope' \\(its tokenizers: none, zh, 13a"):
        Bleu(tokenize="nope")
    with pytest.raises(UsageError, match="smooth_method must be one of none, floor, add-k, exp"):
        Bleu(smooth_method="add-one")
    with pytest.raises(UsageError, match=r"smooth_value must be a number \(float\), got 'much'"):
        metric_of("bleu:smooth_value=much")
    with pytest.raises(UsageError, match="smooth_value must be a number, got 'much'"):
        Bleu(smooth_value="much")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="max_ngram_order must be at least 1"):
        Bleu(max_ngram_order=0)


def test_items_without_references_and_no_items() -> None:
    metric = Bleu()
    with pytest.raises(UsageError, match="no reference for 7: BLEU needs one"):
        metric.counts([Item("7", ("a b",), ())])
    assert metric.counts([]).shape == (0, 10)
    row = metric.counts([Item("1", (), (("a b c",),))])[0]
    assert (metric.score(row), metric.item_score(row)) == (0.0, 0.0)
    assert np.array_equal(row, [0, 3, 0, 0, 0, 0, 0, 0, 0, 0])


def test_without_sacrebleu_the_message_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("sacrebleu", "sacrebleu.metrics", "sacrebleu.metrics.bleu"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(UsageError) as raised:
        Bleu()
    assert str(raised.value) == f"BLEU needs sacrebleu: {install_hint('sacrebleu', 'metrics')}"
