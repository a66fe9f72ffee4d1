"""The Porter stemmer variant must agree with ROUGE-1.5.5.pl's ``stem`` sub."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import perl_oracle
import pytest

from rouge155py.resources import load_data
from rouge155py.text.stem import porter_stem
from rouge155py.text.tokenize import Tokenizer

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "stem_vocab.tsv.gz"


def _load_fixture() -> list[tuple[str, str, str]]:
    rows = []
    for raw in gzip.decompress(FIXTURE.read_bytes()).split(b"\n"):
        if raw:
            word, stem, morph = raw.decode("latin-1").split("\t")
            rows.append((word, stem, morph))
    return rows


def _mismatch_report(pairs: list[tuple[str, str, str]]) -> str:
    shown = "\n".join(f"  {word!r}: python {mine!r}, perl {theirs!r}" for word, mine, theirs in pairs[:20])
    return f"{len(pairs)} mismatches; first {min(len(pairs), 20)}:\n{shown}"


def test_fixture_is_large() -> None:
    rows = _load_fixture()
    assert len(rows) >= 50_000
    assert len({word for word, _, _ in rows}) == len(rows)


def test_fixture_words_match_perl() -> None:
    mismatches = []
    for word, perl_stem, _ in _load_fixture():
        mine = porter_stem(word)
        if mine != perl_stem:
            mismatches.append((word, mine, perl_stem))
    assert not mismatches, _mismatch_report(mismatches)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("is", "is"),
        ("yes", "ye"),
        ("yelling", "yell"),
        ("analogi", "analog"),
        ("agreement", "agreem"),
        ("movement", "movem"),
        ("replacement", "replac"),
        ("departmental", "depart"),
        ("environmentally", "environ"),
        ("caresses", "caress"),
        ("hopping", "hop"),
        ("generalizations", "gener"),
        ("1990s", "1990"),
    ],
)
def test_known_stems(word: str, expected: str) -> None:
    assert porter_stem(word) == expected


def _random_words(count: int, seed: int) -> list[str]:
    """Strings of letters and digits, length 1-15, often ending in a suffix."""
    rng = random.Random(seed)
    letters = "aeiouyaeioubcdfghjklmnpqrstvwxyzsstlnrbcdfghjklmnpqrstvwxz"
    # fmt: off
    suffixes = [
        "s", "es", "ies", "sses", "ed", "eed", "ing", "y", "ational", "tional",
        "enci", "izer", "bli", "alli", "entli", "eli", "ousli", "ization",
        "ation", "ator", "alism", "iveness", "fulness", "aliti", "biliti",
        "logi", "icate", "ative", "alize", "ical", "ful", "ness", "al", "ance",
        "ence", "er", "ic", "able", "ant", "ement", "ment", "ent", "ion",
        "sion", "tion", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll",
    ]
    # fmt: on
    words = []
    for _ in range(count):
        length = rng.randint(1, 15)
        pool = letters
        if rng.random() < 0.1:
            pool = letters + "0123456789"
        elif rng.random() < 0.05:
            pool = letters + "AEIOUYBCST"
        word = "".join(rng.choice(pool) for _ in range(length))
        if rng.random() < 0.6:
            suffix = rng.choice(suffixes)
            word = (word[: max(0, length - len(suffix))] + suffix)[:15]
        words.append(word)
    return words


def test_random_strings_match_live_perl() -> None:
    oracle = perl_oracle.find_oracle()
    if oracle is None:
        pytest.skip("reference Perl not installed (python scripts/perl_oracle.py --install)")
    from make_stem_fixture import perl_stems

    words = _random_words(2000, seed=1555)
    perl = perl_stems(words, oracle)
    mismatches = []
    for word, (perl_stem, _) in zip(words, perl):
        mine = porter_stem(word)
        if mine != perl_stem:
            mismatches.append((word, mine, perl_stem))
    assert not mismatches, _mismatch_report(mismatches)


def test_fixture_words_match_perl_morph_stem() -> None:
    """Exception map first, then the stemmer: the Perl's MorphStem on every fixture word."""
    tokenizer = Tokenizer(load_data(None), remove_stopwords=False)
    rows = [r for r in _load_fixture() if "\n" not in r[0] and r[0]]
    mismatches = [
        (word, tokenizer.morph_stem(word), morph)
        for word, _, morph in rows
        if tokenizer.morph_stem(word) != morph
    ]
    assert not mismatches, _mismatch_report(mismatches)
