"""The Porter stemmer variant must agree with ROUGE-1.5.5.pl's ``stem`` sub."""

from __future__ import annotations

import gzip
import itertools
import os
import random
import re
from pathlib import Path
from typing import Callable

import pytest
from reference.make_stem_fixture import perl_stems
from reference.oracle import Oracle

from rouge155py import _kernel
from rouge155py.text.resources import load_data
from rouge155py.text.stem import _python_stem, porter_stem
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


# porter_stem takes the C kernel's path when it is built; _python_stem is the pure-Python one.
STEMMERS = pytest.mark.parametrize("stem", [porter_stem, _python_stem], ids=["porter_stem", "python"])


@STEMMERS
def test_fixture_words_match_perl(stem: Callable[[str], str]) -> None:
    mismatches = []
    for word, perl_stem, _ in _load_fixture():
        mine = stem(word)
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
@STEMMERS
def test_known_stems(stem: Callable[[str], str], word: str, expected: str) -> None:
    assert stem(word) == expected


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


@STEMMERS
def test_random_strings_match_live_perl(stem: Callable[[str], str], oracle: Oracle) -> None:
    words = _random_words(2000, seed=1555)
    perl = perl_stems(words, oracle)
    mismatches = []
    for word, (perl_stem, _) in zip(words, perl):
        mine = stem(word)
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


# ---- The C kernel's stemmer: the Python one's stems on words of a-z and 0-9, None on others ----

needs_kernel = pytest.mark.skipif(
    not _kernel.kernel_available() and not os.environ.get("ROUGE155PY_REQUIRE_KERNEL"),
    reason="C kernel not built",
)

KERNEL_WORD = re.compile("[a-z0-9]+")

# Every suffix a rule names, for words made of a random stem and one of them.
# fmt: off
RULE_SUFFIXES = (
    "sses", "ies", "ss", "s", "eed", "ed", "ing", "at", "bl", "iz", "e", "ll", "y",
    "ational", "tional", "enci", "anci", "izer", "bli", "alli", "entli", "eli", "ousli",
    "ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti",
    "biliti", "logi", "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance",
    "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ou", "ism", "ate",
    "iti", "ous", "ive", "ize", "ion", "sion", "tion",
)
# fmt: on


def _kernel_mismatches(words: list[str]) -> list[tuple[str, str, str]]:
    """(word, C stem, Python stem) wherever the two differ."""
    assert _kernel.accel is not None, "C kernel not built"
    c_stem = _kernel.accel.porter_stem
    return [(word, c_stem(word), _python_stem(word)) for word in words if c_stem(word) != _python_stem(word)]


def _kernel_report(pairs: list[tuple[str, str, str]]) -> str:
    shown = "\n".join(f"  {word!r}: C {mine!r}, python {theirs!r}" for word, mine, theirs in pairs[:20])
    return f"{len(pairs)} mismatches; first {min(len(pairs), 20)}:\n{shown}"


@needs_kernel
def test_kernel_stems_fixture_words_as_python_and_perl() -> None:
    """Every fixture word of a-z and 0-9 gets the Python and the Perl stem; any other word None."""
    assert _kernel.accel is not None, "C kernel not built"
    rows = _load_fixture()
    words = [word for word, _, _ in rows if KERNEL_WORD.fullmatch(word)]
    assert len(words) >= 50_000
    assert not (mismatches := _kernel_mismatches(words)), _kernel_report(mismatches)
    c_stem = _kernel.accel.porter_stem
    assert [(w, c_stem(w)) for w, p, _ in rows if KERNEL_WORD.fullmatch(w) and c_stem(w) != p] == []
    assert [w for w, _, _ in rows if not KERNEL_WORD.fullmatch(w) and c_stem(w) is not None] == []


@pytest.mark.slow
@needs_kernel
def test_kernel_matches_python_on_all_short_strings() -> None:
    """Every string of 1-4 characters over vowels, y, w, x, doubling and plain consonants, a digit."""
    alphabet = "aeiouy" + "bcdlmnrstwxz" + "0"
    words = ["".join(t) for n in range(1, 5) for t in itertools.product(alphabet, repeat=n)]
    assert not (mismatches := _kernel_mismatches(words)), _kernel_report(mismatches)


@pytest.mark.slow
@needs_kernel
def test_kernel_matches_python_on_random_strings() -> None:
    rng = random.Random(20240615)
    chars = "abcdefghijklmnopqrstuvwxyz0123456789"
    words = ["".join(rng.choices(chars, k=rng.randint(1, 20))) for _ in range(300_000)]
    # Longer than the kernel's buffer on the stack.
    words += [
        "".join(rng.choices(chars, k=rng.randint(60, 300))) + rng.choice(RULE_SUFFIXES) for _ in range(500)
    ]
    assert not (mismatches := _kernel_mismatches(words)), _kernel_report(mismatches)


@pytest.mark.slow
@needs_kernel
def test_kernel_matches_python_on_every_suffix() -> None:
    """Random stems, of measure 0 to 3 and more, with an initial y or not, before each rule's suffix."""
    rng = random.Random(1555)
    vowels, consonants = "aeiouy", "bcdfghjklmnpqrstvwxz0y"
    words = []
    for suffix in RULE_SUFFIXES:
        for _ in range(2500):
            pool = rng.choice([vowels + consonants, vowels + "y" * 4 + "lstw", "aey" + consonants])
            stem = "".join(rng.choices(pool, k=rng.randint(0, 9)))
            if rng.random() < 0.1:
                stem = "y" + stem
            words.append(stem + suffix)
            words.append(stem + rng.choice(RULE_SUFFIXES) + suffix)
    assert not (mismatches := _kernel_mismatches(words)), _kernel_report(mismatches)


@needs_kernel
@pytest.mark.parametrize(
    "word", ["Running", "caf\xe9", "a-b", "", "ABC", "1990S", "\u0101ssing", "abc\n", "y "]
)
def test_kernel_leaves_other_words_to_python(word: str) -> None:
    assert _kernel.accel is not None, "C kernel not built"
    assert _kernel.accel.porter_stem(word) is None


@needs_kernel
def test_kernel_takes_only_str() -> None:
    assert _kernel.accel is not None, "C kernel not built"
    with pytest.raises(TypeError):
        _kernel.accel.porter_stem(b"running")


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Running", "Run"),
        ("Yelling", "Yell"),
        ("caf\xe9", "caf\xe9"),
        ("a-b", "a-b"),
        ("", ""),
        ("1990S", "1990S"),
        ("relational-ly", "relational-li"),
    ],
)
def test_other_words_take_the_python_path(word: str, expected: str) -> None:
    assert porter_stem(word) == _python_stem(word) == expected
