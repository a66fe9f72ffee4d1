"""METEOR (rouge155py.other_metrics.meteor) and its WordNet reader (rouge155py.other_metrics.wordnet).

- **Porter**: :func:`porter_stem` is nltk's ``PorterStemmer(ORIGINAL_ALGORITHM)`` on every word of
  ``tests/fixtures/stem_vocab.tsv.gz`` (80,071), 20,000 made-up strings and WordNet's lemmas.
- **WordNet**: the synsets of 11,000 words are those nltk's ``WordNetCorpusReader`` finds in the
  same files. nltk reads no file that resolves out of its root (a symlink) nor one of several
  links, and wants a ``lexnames`` file Debian lacks: the index, data and exception files are
  copied into a temporary directory, with a ``lexnames`` of the lexicographer file numbers the
  data files use, and that directory is put on ``nltk.data.path`` while the tests run.
- **Optimality**: on random pairs of up to 7 words, a brute force over every alignment of each
  stage (the most links, then the fewest crossings, then the fewest chunks, then the first in
  hypothesis order) gives the very links :func:`align` gives: with stems and made-up synonym
  sets (no WordNet), and with WordNet's synonyms.
- **nltk**: ``meteor_score`` (with the same stemmer, and the WordNet reader above) equals the
  score to 1e-12 on at least 2,000 random pairs where its greedy alignment and this one have the
  same links and chunks: with exact and stem (nltk given no synonyms), and with WordNet.
- **Hand-worked cases** where nltk's greedy alignment differs and the optimal one scores higher
  (exact, stem, synonym), and the two kinds where nltk's scores higher, as the definition makes
  them (a stage's tie broken before the next stage runs; the fewest crossings, not chunks).
- **The metric**: the paper's formula, counts and corpus score, the best reference, options,
  signature, the bound, and the run's texts through ``score_evals``.

Tests that need WordNet skip where ``/usr/share/wordnet/data.noun`` is absent, unless
``ROUGE155PY_REQUIRE_WORDNET=1`` makes that a failure; the others need nothing but nltk.
"""

from __future__ import annotations

import gzip
import itertools
import os
import random
import shutil
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

import numpy as np
import pytest

from rouge155py.errors import DataError, UsageError
from rouge155py.inputs.config import read_xml_config
from rouge155py.other_metrics import METRICS, metric_class
from rouge155py.other_metrics import meteor as meteor_module
from rouge155py.other_metrics.base import Item
from rouge155py.other_metrics.evals import items_of, metric_of, score_evals
from rouge155py.other_metrics.meteor import (
    COLUMNS,
    MODULES,
    SEARCH_STEPS,
    Meteor,
    align,
    chunks_of,
    crossings_of,
    meteor_words,
    porter_stem,
)
from rouge155py.other_metrics.wordnet import WordNet, read_wordnet

REPO = Path(__file__).resolve().parent.parent
VOCABULARY = REPO / "tests" / "fixtures" / "stem_vocab.tsv.gz"
CONFIG = REPO / "examples" / "duc-mini" / "rouge-config.xml"
WORDNET = "/usr/share/wordnet"
INF = float("inf")


def wordnet_directory() -> str:
    """Debian's WordNet database; a skip without it (a failure with ROUGE155PY_REQUIRE_WORDNET=1)."""
    if os.path.exists(os.path.join(WORDNET, "data.noun")):
        return WORDNET
    if os.environ.get("ROUGE155PY_REQUIRE_WORDNET") == "1":
        pytest.fail(
            "ROUGE155PY_REQUIRE_WORDNET=1: Debian's wordnet-base must be installed (/usr/share/wordnet)"
        )
    pytest.skip("no WordNet database in /usr/share/wordnet (Debian's wordnet-base)")


@pytest.fixture(scope="session")
def wordnet() -> WordNet:
    return read_wordnet(wordnet_directory())


@pytest.fixture(scope="session")
def nltk_porter() -> Any:
    stem = pytest.importorskip("nltk.stem.porter")
    return stem.PorterStemmer(stem.PorterStemmer.ORIGINAL_ALGORITHM)


@pytest.fixture(scope="session")
def nltk_wordnet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """nltk's WordNetCorpusReader over Debian's files (copied, with a derived lexnames)."""
    directory = wordnet_directory()
    nltk_data = pytest.importorskip("nltk.data")
    corpus_reader: Any = pytest.importorskip("nltk.corpus.reader.wordnet").WordNetCorpusReader
    root = tmp_path_factory.mktemp("wordnet")
    numbers = {0}
    for name in sorted(os.listdir(directory)):
        if name.startswith(("index.", "data.")) or name.endswith(".exc"):
            shutil.copyfile(os.path.join(directory, name), root / name)
        if name.startswith("data."):
            with open(root / name, encoding="utf-8") as stream:
                numbers.update(int(line.split()[1]) for line in stream if not line.startswith(" "))
    (root / "lexnames").write_text("".join(f"{n:02d}\tlex{n:02d}\t0\n" for n in range(max(numbers) + 1)))

    class Reader(corpus_reader):
        def map_wn(self, version: str = "wordnet") -> None:
            """No mapping to nltk's own WordNet (which is not installed and never downloaded)."""
            return None

    nltk_data.path.insert(0, str(root))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "The multilingual functions are not available"
            reader = Reader(str(root), None)
        yield reader
    finally:
        nltk_data.path.remove(str(root))


class NoSynonyms:
    """A WordNet for nltk's meteor_score that knows no word: its synonym stage links nothing
    (it would link equal words, which the exact stage leaves none of)."""

    def synsets(self, word: str) -> list[Any]:
        return []


class MadeUpSynsets:
    """Synonym sets of one's own, for the synonym stage without WordNet."""

    def __init__(self, sets: dict[str, frozenset[int]]) -> None:
        self.sets = sets

    def synsets(self, word: str) -> frozenset[int]:
        return self.sets.get(word, frozenset())


# --- Porter -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_porter_is_nltks_original_algorithm_on_a_large_vocabulary(nltk_porter: Any) -> None:
    with gzip.open(VOCABULARY) as stream:
        words = [line.split(b"\t")[0].decode("latin-1") for line in stream]
    rnd = random.Random(1980)
    letters = "aeiouybcdlmnrstwxz.-'1é"
    words += ["".join(rnd.choice(letters) for _ in range(rnd.randint(0, 10))) for _ in range(20000)]
    if os.path.exists(os.path.join(WORDNET, "index.noun")):
        for suffix in ("noun", "verb", "adj", "adv"):
            with open(os.path.join(WORDNET, f"index.{suffix}"), encoding="utf-8") as stream:
                words += [line.split()[0] for line in stream if not line.startswith(" ")]
    assert len(words) >= 100000
    differ = [
        (w, porter_stem(w), nltk_porter.stem(w)) for w in words if porter_stem(w) != nltk_porter.stem(w)
    ]
    assert differ == []
    # The paper's own examples, and what the variants differ on.
    examples = {
        "caresses": "caress",
        "ponies": "poni",
        "agreed": "agre",
        "plastered": "plaster",
        "motoring": "motor",
        "conflated": "conflat",
        "hopping": "hop",
        "filing": "file",
        "happy": "happi",
        "relational": "relat",
        "conformabli": "conform",
        "generalizations": "gener",
        "archaeology": "archaeologi",
        "controll": "control",
        "sky": "sky",
        "dying": "dy",
    }
    assert {w: porter_stem(w) for w in examples} == examples


# --- WordNet ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_synsets_of_words_are_nltks_over_the_same_files(wordnet: WordNet, nltk_wordnet: Any) -> None:
    rnd = random.Random(2005)
    lemmas = sorted({lemma for pos in "nvar" for lemma in wordnet._index[pos]})
    forms = sorted({form for pos in "nvar" for form in wordnet._exceptions[pos]})
    words = rnd.sample(lemmas, 3000) + rnd.sample(forms, 1000)
    words += [
        w + end for w in rnd.sample(lemmas, 1000) for end in ("s", "es", "ed", "ing", "er", "est", "ies")
    ]
    words += ["Dog", "U.S.", "ice_cream", "running", "men", "geese", "", "a", "cat."]
    differ = []
    for word in words:
        theirs = {("a" if s.pos() == "s" else s.pos(), s.offset()) for s in nltk_wordnet.synsets(word)}
        if set(wordnet.synsets(word)) != theirs:
            differ.append(word)
    assert len(words) > 11000 and differ == []
    # Both words' base forms: "were" and "is" share "be"'s synsets, "cars" is "car".
    assert wordnet.synsets("were") & wordnet.synsets("is")
    assert wordnet.synsets("cars") == wordnet.synsets("car") | wordnet.synsets("cars")


def _write(directory: Path, files: dict[str, str]) -> str:
    directory.mkdir(exist_ok=True)
    for name, text in files.items():
        (directory / name).write_text(text)
    return str(directory)


TINY = {
    "index.noun": "  1 license text\ngoose n 1 1 @ 1 0 00000001  \ncar n 2 0 2 0 00000002 00000003  \n",
    "index.verb": "be v 1 0 1 0 00000009  \n",
    "index.adj": "big a 1 0 1 0 00000002  \n",
    "index.adv": "",
    "noun.exc": "geese goose\n",
    "verb.exc": "were be\nis be\n",
}


def test_a_small_database_is_read_by_its_index_and_exceptions(tmp_path: Path) -> None:
    """A WNDB directory written by hand: offsets by part of speech, exceptions, detachment rules."""
    wn = WordNet(_write(tmp_path / "wn", TINY))
    assert wn.synsets("geese") == {("n", 1)}
    assert wn.synsets("cars") == {("n", 2), ("n", 3)}
    assert wn.synsets("Big") == {("a", 2)}  # ("n", 2) is another synset
    assert wn.synsets("were") == wn.synsets("is") == {("v", 9)}
    assert wn.synsets("bike") == frozenset()
    assert wn.morphy("cars", "n") == ["car"]


def test_a_malformed_or_missing_database_is_refused(tmp_path: Path) -> None:
    bad = _write(tmp_path / "bad", {**TINY, "index.noun": "car n two 0 2 0 00000002\n"})
    with pytest.raises(DataError, match=r"index.noun:1: not an index line"):
        WordNet(bad)
    short = _write(tmp_path / "short", {**TINY, "index.verb": "be v 2 0 2 0 00000009\n"})
    with pytest.raises(DataError, match=r"index.verb:1: .*1 of 2 offsets"):
        WordNet(short)
    with pytest.raises(UsageError, match=r"has no index.noun, index.verb, index.adj, index.adv"):
        Meteor(wordnet=str(tmp_path / "nowhere"))
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "index.noun").write_text("")
    with pytest.raises(UsageError, match=r"has no index.verb, index.adj, index.adv \(a WordNet database"):
        Meteor(wordnet=str(partial))


# --- optimality, by brute force -----------------------------------------------------------------


def _matchings(
    hyps: list[int], edges: dict[int, list[int]], used: set[int], k: int, made: list[tuple[int, int]]
) -> Iterator[list[tuple[int, int]]]:
    """Every one-to-one map of the hypothesis positions hyps[k:] to related free references."""
    if k == len(hyps):
        yield list(made)
        return
    i = hyps[k]
    for j in edges[i]:
        if j not in used:
            used.add(j)
            made.append((i, j))
            yield from _matchings(hyps, edges, used, k + 1, made)
            made.pop()
            used.discard(j)
    yield from _matchings(hyps, edges, used, k + 1, made)


def _crossings(links: Sequence[tuple[int, int]]) -> int:
    return sum(1 for (a, b), (c, d) in itertools.combinations(links, 2) if (a - c) * (b - d) < 0)


def _chunks(links: Sequence[tuple[int, int]]) -> int:
    ordered = sorted(links)
    return sum(1 for k, (i, j) in enumerate(ordered) if k == 0 or ordered[k - 1] != (i - 1, j - 1))


def brute_force(
    hyp: Sequence[str], ref: Sequence[str], relations: Sequence[Callable[[str, str], bool]]
) -> tuple[tuple[int, int], ...]:
    """METEOR's staged alignment by trying every alignment of each stage: the most links, the
    fewest crossings and chunks of the whole alignment, then the first in hypothesis order."""
    links: list[tuple[int, int]] = []
    for related in relations:
        free_h = [i for i in range(len(hyp)) if i not in dict(links)]
        used = {j for _, j in links}
        free_r = [j for j in range(len(ref)) if j not in used]
        edges = {i: [j for j in free_r if related(hyp[i], ref[j])] for i in free_h}
        best: Optional[tuple[Any, list[tuple[int, int]]]] = None
        for made in _matchings(free_h, edges, set(), 0, []):
            whole = links + made
            first = tuple(dict(made).get(i, INF) for i in free_h)
            key = (-len(made), _crossings(whole), _chunks(whole), first)
            if best is None or key < best[0]:
                best = (key, made)
        assert best is not None
        links += best[1]
    return tuple(sorted(links))


ORDERS = [
    ("exact", "stem", "synonym"),
    ("synonym",),
    ("stem", "synonym"),
    ("synonym", "exact", "stem"),
    ("exact",),
]


@pytest.mark.parametrize("vocabulary", ["sparse", pytest.param("dense", marks=pytest.mark.slow)])
def test_the_alignment_is_the_brute_forces_with_made_up_synonyms(vocabulary: str) -> None:
    rnd = random.Random(7 if vocabulary == "dense" else 8)
    words = (
        ["a", "b", "run", "runs", "x"] if vocabulary == "dense" else "a b c d run runs running x y z".split()
    )
    shortest = 4 if vocabulary == "dense" else 0
    for _ in range(1500):
        hyp = [rnd.choice(words) for _ in range(rnd.randint(shortest, 7))]
        ref = [rnd.choice(words) for _ in range(rnd.randint(shortest, 7))]
        sets = {w: frozenset(rnd.sample(range(4), rnd.randint(0, 2))) for w in words}
        relations = {
            "exact": lambda a, b: a == b,
            "stem": lambda a, b: porter_stem(a) == porter_stem(b),
            "synonym": lambda a, b, s=sets: bool(s[a] & s[b]),  # type: ignore[misc]
        }
        order = rnd.choice(ORDERS)
        found = align(hyp, ref, order, MadeUpSynsets(sets))
        assert found.links == brute_force(hyp, ref, [relations[m] for m in order]), (hyp, ref, sets, order)
        assert (found.crossings, found.chunks) == (_crossings(found.links), _chunks(found.links))


SYNONYMY = (
    "big large great huge vast good well fine begin start commence get obtain acquire car auto "
    "automobile cars house home houses be is are was were been glad happy the a of run runs running"
).split()


def test_the_alignment_is_the_brute_forces_with_wordnets_synonyms(wordnet: WordNet) -> None:
    rnd = random.Random(2004)
    relations = [
        lambda a, b: a == b,
        lambda a, b: porter_stem(a) == porter_stem(b),
        lambda a, b: bool(wordnet.synsets(a) & wordnet.synsets(b)),
    ]
    linked = 0
    for _ in range(800):
        hyp = [rnd.choice(SYNONYMY) for _ in range(rnd.randint(1, 7))]
        ref = [rnd.choice(SYNONYMY) for _ in range(rnd.randint(1, 7))]
        found = align(hyp, ref, MODULES, wordnet)
        assert found.links == brute_force(hyp, ref, relations), (hyp, ref)
        linked += found.by_module("synonym")
    assert linked > 300


# --- nltk ---------------------------------------------------------------------------------------

NLTK_WORDS = (
    "the the the a a of to and in is was were be are big large great huge car cars auto automobile "
    "run runs running ran runner quick fast rapid speedy begin start started starts commence house home "
    "houses cat Cat CAT. dog dogs hound happy glad said says say talk talks spoke"
).split()


def _nltk_agreement(
    metric: Meteor, stemmer: Any, nltk_wordnet: Any, seed: int, pairs: int
) -> tuple[int, int]:
    """(pairs whose alignments have the same links and chunks, where the scores agree; pairs)."""
    from nltk.translate.meteor_score import align_words, meteor_score

    rnd = random.Random(seed)
    agree = 0
    for _ in range(pairs):
        hyp = " ".join(rnd.choice(NLTK_WORDS) for _ in range(rnd.randint(0, 12)))
        several = rnd.random() < 0.2
        refs = [
            " ".join(rnd.choice(NLTK_WORDS) for _ in range(rnd.randint(1, 12))) for _ in range(several + 1)
        ]
        ours = [metric.row(hyp, [ref]) for ref in refs]
        theirs = [
            align_words(hyp.split(), ref.split(), stemmer=stemmer, wordnet=nltk_wordnet)[0] for ref in refs
        ]
        if all((len(t), _chunks(t)) == (row[0], row[1]) for t, row in zip(theirs, ours)):
            agree += 1
            expected = meteor_score(
                [ref.split() for ref in refs], hyp.split(), stemmer=stemmer, wordnet=nltk_wordnet
            )
            assert metric.score(np.array(metric.row(hyp, refs))) == pytest.approx(expected, abs=1e-12, rel=0)
    return agree, pairs


def test_nltks_meteor_score_where_its_alignment_is_the_same_exact_and_stem(nltk_porter: Any) -> None:
    agree, pairs = _nltk_agreement(Meteor(modules="exact,stem"), nltk_porter, NoSynonyms(), 1, 2300)
    assert agree >= 2000, (agree, pairs)


@pytest.mark.slow
def test_nltks_meteor_score_where_its_alignment_is_the_same_with_wordnet(
    nltk_porter: Any, nltk_wordnet: Any
) -> None:
    metric = Meteor(wordnet=wordnet_directory())
    agree, pairs = _nltk_agreement(metric, nltk_porter, nltk_wordnet, 2, 3400)
    assert agree >= 2000, (agree, pairs)


def _both(
    hyp: str, ref: str, metric: Meteor, stemmer: Any, nltk_wordnet: Any
) -> tuple[tuple[tuple[int, int], ...], float, tuple[tuple[int, int], ...], float]:
    """This alignment and score, then nltk's."""
    from nltk.translate.meteor_score import align_words, meteor_score

    ours = align(meteor_words(hyp), meteor_words(ref), metric.stages(), metric._wordnet())
    theirs = tuple(sorted(align_words(hyp.split(), ref.split(), stemmer=stemmer, wordnet=nltk_wordnet)[0]))
    return (
        ours.links,
        metric.score(np.array(metric.row(hyp, [ref]))),
        theirs,
        meteor_score([ref.split()], hyp.split(), stemmer=stemmer, wordnet=nltk_wordnet),
    )


def test_exact_nltk_links_the_latest_the_and_crosses(nltk_porter: Any) -> None:
    """hyp "the cat sat", ref "the cat sat on the mat". nltk links each hypothesis word, from
    the last, to the latest free reference word: the -> the second "the" (4), crossing "cat sat":
    (0,4) (1,1) (2,2), 2 crossings, 2 chunks. The fewest crossings: (0,0) (1,1) (2,2), 1 chunk.
    m = 3, P = 1, R = 1/2, Fmean = 10/19; 10/19 (1 - 0.5/27) against 10/19 (1 - 0.5 (2/3)^3)."""
    ours, score, theirs, nltk = _both(
        "the cat sat", "the cat sat on the mat", Meteor("exact,stem"), nltk_porter, NoSynonyms()
    )
    assert ours == ((0, 0), (1, 1), (2, 2)) and theirs == ((0, 4), (1, 1), (2, 2))
    assert score == pytest.approx(10 / 19 * (1 - 0.5 / 27)) and nltk == pytest.approx(
        10 / 19 * (1 - 0.5 * 8 / 27)
    )
    assert score > nltk


def test_stem_nltk_links_the_latest_stem_and_crosses(nltk_porter: Any) -> None:
    """hyp "cats play", ref "cat plays with cat": no word is equal; stems cat, plai on both
    sides. nltk: play -> plays (1), cats -> the latest cat (3): (0,3) (1,1), crossing, 2 chunks.
    Here (0,0) (1,1): 1 chunk. m = 2, P = 1, R = 1/2: 10/19 (1 - 0.5/8) against 10/19 (1 - 0.5)."""
    ours, score, theirs, nltk = _both(
        "cats play", "cat plays with cat", Meteor("exact,stem"), nltk_porter, NoSynonyms()
    )
    assert ours == ((0, 0), (1, 1)) and theirs == ((0, 3), (1, 1))
    assert score == pytest.approx(10 / 19 * (1 - 0.5 / 8)) and nltk == pytest.approx(10 / 19 * 0.5)
    assert score > nltk


def test_synonym_nltks_greedy_links_fewer(nltk_porter: Any, nltk_wordnet: Any) -> None:
    """hyp "obtain start", ref "begin get": start shares synsets with begin and get, obtain with
    get only. nltk links start (the last) to the latest synonym, get, and obtain to nothing:
    one link, (1,1): 0.5 (1 - 0.5) = 0.25. The most links: obtain-get, start-begin, (0,1) (1,0),
    crossing, 2 chunks: 1 (1 - 0.5) = 0.5."""
    metric = Meteor(wordnet=wordnet_directory())
    ours, score, theirs, nltk = _both("obtain start", "begin get", metric, nltk_porter, nltk_wordnet)
    assert ours == ((0, 1), (1, 0)) and theirs == ((1, 1),)
    assert (score, nltk) == (pytest.approx(0.5), pytest.approx(0.25))


def test_a_stages_tie_is_broken_before_the_next_stage_runs(nltk_porter: Any) -> None:
    """hyp "cat runs cat", ref "running cat". The exact stage has two alignments of one link,
    0 crossings and 1 chunk: cat (0) or cat (2) to cat (1); the first in hypothesis order wins,
    (0,1). The stem stage then links runs to running, (1,0), which crosses it: 2 chunks, where
    nltk (the latest first: (2,1), then (1,0)) has 1. The stages decide in turn, as the paper's:
    m = 2, h = 3, r = 2, Fmean = 20/21; here 20/21 (1 - 0.5), nltk 20/21 (1 - 0.5/8)."""
    ours, score, theirs, nltk = _both(
        "cat runs cat", "running cat", Meteor("exact,stem"), nltk_porter, NoSynonyms()
    )
    assert ours == ((0, 1), (1, 0)) and theirs == ((1, 0), (2, 1))
    assert score == pytest.approx(20 / 21 * 0.5) and nltk == pytest.approx(20 / 21 * (1 - 0.5 / 8))


def test_the_fewest_crossings_are_not_always_the_fewest_chunks(nltk_porter: Any) -> None:
    """hyp "fast the rapid dog", ref "rapid fast dog fast the": fast has two references. Linked
    to the first (1): (0,1) (1,4) (2,0) (3,2), 3 crossings, 4 chunks; to the second (3), nltk's:
    (0,3) (1,4) (2,0) (3,2), 4 crossings, 3 chunks. The paper's rule takes the fewest crossings."""
    ours, score, theirs, nltk = _both(
        "fast the rapid dog", "rapid fast dog fast the", Meteor("exact"), nltk_porter, NoSynonyms()
    )
    assert ours == ((0, 1), (1, 4), (2, 0), (3, 2)) and theirs == ((0, 3), (1, 4), (2, 0), (3, 2))
    assert (crossings_of(ours), chunks_of(ours), crossings_of(theirs), chunks_of(theirs)) == (3, 4, 4, 3)
    assert score < nltk


# --- the alignment's rules ----------------------------------------------------------------------


def test_ties_go_to_the_fewest_chunks_then_the_first_in_hypothesis_order() -> None:
    # "the" to either "the": no crossing either way; the second makes one chunk of "the cat".
    assert align(["the", "cat"], ["the", "dog", "the", "cat"]).links == ((0, 2), (1, 3))
    # "c" to either "c": 1 crossing and 2 chunks either way; the earlier reference wins.
    assert align(["z", "b", "c"], ["x", "c", "c", "z"]).links == ((0, 3), (2, 1))
    # Two hypothesis words for one reference word: the first.
    assert align(["a", "a"], ["a"]).links == ((0, 0),)
    # A group of as many words on both sides is linked in order.
    assert align(["a", "b", "a"], ["a", "a", "b"]).links == ((0, 0), (1, 2), (2, 1))


def test_the_search_bound_keeps_the_most_links_and_counts_the_stage() -> None:
    rnd = random.Random(3)
    words = [f"w{k}" for k in range(12)]
    hyp = [rnd.choice(words) for _ in range(60)]
    ref = [rnd.choice(words) for _ in range(80)]
    full = align(hyp, ref, ["exact"])
    for limit in (1, 5, 200):
        cut = align(hyp, ref, ["exact"], limit=limit)
        assert cut.cut == 1 and cut.matches == full.matches
        assert len({i for i, _ in cut.links}) == len({j for _, j in cut.links}) == cut.matches
        assert all(hyp[i] == ref[j] for i, j in cut.links)
    assert full.cut == 0 or full.crossings <= align(hyp, ref, ["exact"], limit=200).crossings
    assert f"search:{SEARCH_STEPS}" in Meteor().signature()


# --- the metric ---------------------------------------------------------------------------------


def test_the_papers_formula_on_its_chunk_example() -> None:
    """ "the president spoke to the audience" against "the president then spoke to the audience":
    6 links in 2 chunks, 6 and 7 words. P = 1, R = 6/7, Fmean = 10PR/(R+9P) = 60/69, Penalty =
    0.5 (2/6)^3 = 1/54, METEOR = 60/69 (1 - 1/54)."""
    metric = Meteor(modules="exact,stem")
    row = metric.row("The president spoke to the audience", ["the president then spoke to the audience"])
    assert row == [6, 2, 6, 7, 6, 0, 0, 0]
    assert metric.score(np.array(row)) == pytest.approx(
        float(Fraction(60, 69) * (1 - Fraction(1, 54))), abs=1e-15
    )
    assert metric.score(np.array([0, 0, 5, 5, 0, 0, 0, 0])) == 0.0
    # Identical texts: the paper's penalty, 0.5 / m^3 for one chunk (no special case).
    assert metric.score(np.array(metric.row("a b", ["a b"]))) == pytest.approx(1 - 0.5 / 8)


def test_items_rows_and_the_corpus_score_of_summed_counts() -> None:
    metric = Meteor(modules="exact+stem")
    items = [
        Item("e1", ("The cat sat.", "It slept"), (("the cat sat. it slept",), ("a dog",))),
        Item("e2", ("dogs run fast",), (("the dog runs", "so fast"),)),
    ]
    counts = metric.counts(items)
    assert counts.shape == (2, len(COLUMNS))
    assert counts.tolist() == [[5, 1, 5, 5, 5, 0, 0, 0], [3, 2, 3, 5, 1, 2, 0, 0]]
    assert metric.item_scores(counts).tolist() == [metric.score(counts[0]), metric.score(counts[1])]
    m, c, h, r = 8, 3, 8, 10  # summed: P = 8/8, R = 8/10, penalty from 3 chunks of 8 links
    precision, recall = m / h, m / r
    expected = 10 * precision * recall / (recall + 9 * precision) * (1 - 0.5 * (c / m) ** 3)
    assert metric.score(counts.sum(axis=0)) == pytest.approx(expected, abs=1e-15)
    with pytest.raises(UsageError, match="no reference for e3"):
        metric.counts([Item("e3", ("a",), ())])


def test_the_best_reference_and_of_equal_scores_the_last() -> None:
    """Against "a b c d e f g h i": "a" gives m = 1, 1 chunk, r = 1, METEOR 5/18; "a z e" gives
    m = 2, 2 chunks, r = 3, also 5/18 (5 (2m^3 - c^3) / ((h + 9r) m^2)). The last one's counts."""
    metric = Meteor(modules="exact")
    hyp = "a b c d e f g h i"
    assert metric.row(hyp, ["a", "a z e"])[:4] == [2, 2, 9, 3]
    assert metric.row(hyp, ["a z e", "a"])[:4] == [1, 1, 9, 1]
    assert metric.row(hyp, ["a z e", "a b", "x"])[:4] == [2, 1, 9, 2]


def registered() -> None:
    """A skip while the registry (rouge155py/other_metrics/__init__.py) has no line for METEOR."""
    if "meteor" not in METRICS:
        pytest.skip("METRICS has no line for meteor ('meteor': 'meteor:Meteor')")


def test_meteor_on_the_command_lines_list() -> None:
    """``--metrics`` splits its list at commas: the modules are joined by '+' there."""
    registered()
    assert metric_class("meteor") is Meteor
    assert metric_of("meteor:modules=exact+stem") == Meteor(modules="exact+stem")
    made = metric_of("meteor")
    assert isinstance(made, Meteor) and made.stages() == ("exact", "stem")


def test_options_and_signature() -> None:
    assert Meteor().stages() == ("exact", "stem")  # no WordNet: no synonyms
    assert Meteor("stem,exact").stages() == ("stem", "exact")
    assert Meteor("exact+stem").stages() == ("exact", "stem")
    assert Meteor().signature() == (
        f"METEOR|modules:exact,stem|wordnet:none|stem:porter-1980|tok:split+lower|search:{SEARCH_STEPS}"
        "|spec:banerjee-lavie-2005"
    )
    for bad in ("exact,exact", "exact,wordnet", ""):
        with pytest.raises(UsageError, match="option modules must name each once"):
            Meteor(modules=bad)
    with pytest.raises(UsageError, match="option modules must be str"):
        Meteor(modules=3)  # type: ignore[arg-type]


def test_signature_with_wordnet() -> None:
    directory = wordnet_directory()
    assert (
        Meteor(wordnet=directory)
        .signature()
        .startswith(f"METEOR|modules:exact,stem,synonym|wordnet:{directory}|")
    )
    assert (
        Meteor(modules="exact", wordnet=directory)
        .signature()
        .startswith("METEOR|modules:exact|wordnet:none|")
    )
    registered()
    made = metric_of("meteor", wordnet=directory)
    assert isinstance(made, Meteor) and made.stages() == MODULES


def test_the_runs_texts_through_score_evals() -> None:
    config = read_xml_config(str(CONFIG))
    metric = Meteor()
    scores = score_evals(config, [("METEOR", metric)])
    for system, items in items_of(config).items():
        counts = metric.counts(items)
        assert counts[:, COLUMNS.index("cut")].sum() == 0
        assert scores.corpus["METEOR"][system] == metric.score(counts.sum(axis=0))
        assert list(scores.variants["METEOR"][system].values()) == metric.item_scores(counts).tolist()
    assert scores.signatures == {"METEOR": metric.signature()}


def test_words_are_split_on_whitespace_and_lowercased() -> None:
    assert meteor_words(" The  CAT.\tsat\nÉté ") == ["the", "cat.", "sat", "été"]
    assert meteor_module.porter_stem("Running") == "run"
