"""The kernel's port of nltk's Porter stemmer (default mode) must give nltk's stems.

Words: the distinct lowercase a-z/0-9 words of the Perl stemming fixture, each of
a sample of them with every suffix the rules look at, and random strings of
letters (vowels and "y" weighted up) and digits: over 200,000 distinct words.
"""

from __future__ import annotations

import gzip
import random
import re
from pathlib import Path

import pytest

from rouge155py import _kernel
from rouge155py.text import rouge_score as stage

nltk_porter = pytest.importorskip("nltk.stem.porter")

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "stem_vocab.tsv.gz"
SUFFIXES = (
    "s es ies ied ed eed ing ying ings ly ally ational tional enci anci izer bli abli alli entli eli ousli "
    "ization ation ator alism iveness fulness ousness aliti iviti biliti fulli logi icate ative alize iciti "
    "ical ful ness al ance ence er ic able ible ant ement ment ent sion tion ion ou ism ate iti ous ive ize "
    "e ll y yy ss sses"
).split()
LETTERS = "abcdefghijklmnopqrstuvwxyz" + "aeiouyy" + "0123456789"


def vocabulary(sampled: int = 6000, random_words: int = 150_000, seed: int = 23) -> list[str]:
    """The words of the check, sorted (deterministic)."""
    plain = re.compile(r"[a-z0-9]+\Z")
    rows = gzip.decompress(FIXTURE.read_bytes()).split(b"\n")
    words = {w for w in (r.split(b"\t")[0].decode("latin-1") for r in rows if r) if plain.match(w)}
    rng = random.Random(seed)
    for word in rng.sample(sorted(words), min(sampled, len(words))):
        words.update(word + suffix for suffix in SUFFIXES)
    target = len(words) + random_words
    while len(words) < target:
        words.add("".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 14))))
    return sorted(words)


def _differences(words: list[str]) -> list[tuple[str, str, str]]:
    stem = nltk_porter.PorterStemmer().stem
    return [(w, mine, theirs) for w in words if (mine := stage.stem.__wrapped__(w)) != (theirs := stem(w))]


def test_sample_matches_nltk() -> None:
    words = vocabulary(sampled=300, random_words=3000)
    assert len(words) > 20_000
    assert _differences(words[::4]) == []


@pytest.mark.slow
@pytest.mark.skipif(not _kernel.kernel_available(), reason="the C kernel is not built")
def test_all_words_match_nltk() -> None:
    """The full check (about 5 s): every word, no difference."""
    words = vocabulary()
    assert len(words) >= 200_000
    differences = _differences(words)
    assert differences == [], f"{len(differences)} of {len(words)} words differ, e.g. {differences[:10]}"


def test_kernel_stems_only_plain_words() -> None:
    if not _kernel.kernel_available():
        pytest.skip("the C kernel is not built")
    accel = _kernel.accel
    assert accel.rs_stem("meetings") == "meet"
    assert accel.rs_stem("Meetings") is None  # the tokens are lowercase: other words go to nltk
    assert accel.rs_stem("caf\u00e9") is None
    assert accel.rs_stem("") == ""
    assert stage.stem("caf\u00e9s") == nltk_porter.PorterStemmer().stem("caf\u00e9s")
