"""The Porter stemmer variant used by ROUGE-1.5.5 (its ``-m`` option).

ROUGE-1.5.5 bundles an early Perl port of Porter's 1980 suffix stripper and
modifies it.  :func:`stem` reproduces that variant exactly, including
the points where it departs from the published algorithm:

* words shorter than three characters are returned unchanged;
* step 2 also rewrites ``-logi`` to ``-log`` and uses ``-bli -> -ble`` in
  place of the paper's ``-abli -> -able``;
* step 4 runs as three successive tests, each on the result of the previous
  one: first the group ``al ance ence er ic able ible ant ement ou ism ate
  iti ous ive ize`` (no ``ment`` or ``ent``), then ``ment``, then ``ent``
  or, only when the word does not end in ``ent``, ``(s|t)ion``.  A word can
  thus lose several suffixes in step 4 (``departmental`` -> ``depart``), and
  an ``-ement`` word whose stem is too short for the first two tests still
  loses ``ent`` (``agreement`` -> ``agreem``, ``movement`` -> ``movem``);
* the letter classes are plain byte classes: upper-case letters, digits
  and any other characters count as consonants (ROUGE lower-cases words
  before stemming), and an initial ``y`` is always a consonant.

Words are ``str`` objects holding byte values (text decoded as latin-1), and
every pattern is matched with Perl's semantics, which Python's ``re`` shares
for these expressions: leftmost match first, then the first alternative, and
``$`` also matching just before a final newline.

This module is the reference, in Python. Where the C kernel is built it stems
only the words the kernel does not (any but ``a``-``z`` and ``0``-``9``), and
:mod:`rouge155py.text.stem` imports it the first time it meets one: its patterns
are compiled then, not at every start.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["stem"]

_STEP2_SUFFIXES = {
    "ational": "ate",
    "tional": "tion",
    "enci": "ence",
    "anci": "ance",
    "izer": "ize",
    "bli": "ble",
    "alli": "al",
    "entli": "ent",
    "eli": "e",
    "ousli": "ous",
    "ization": "ize",
    "ation": "ate",
    "ator": "ate",
    "alism": "al",
    "iveness": "ive",
    "fulness": "ful",
    "ousness": "ous",
    "aliti": "al",
    "iviti": "ive",
    "biliti": "ble",
    "logi": "log",
}

_STEP3_SUFFIXES = {
    "icate": "ic",
    "ative": "",
    "alize": "al",
    "iciti": "ic",
    "ical": "ic",
    "ful": "",
    "ness": "",
}

# Step 4's first group, in the Perl's order (leftmost match, then first listed).
# fmt: off
_STEP4_SUFFIXES = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ou", "ism",
    "ate", "iti", "ous", "ive", "ize",
)
# fmt: on


def _ends_with(suffixes: Sequence[str]) -> re.Pattern[str]:
    """Compile ``(s1|s2|...)$`` keeping the alternatives in the given order."""
    return re.compile("(" + "|".join(suffixes) + ")$")


# Letter classes.  A consonant run opens with any character but a, e, i, o, u
# (so possibly "y") and goes on with non-[aeiouy]; a vowel run opens with
# [aeiouy] and goes on with [aeiou].
_CONSONANT = "[^aeiou]"
_VOWEL = "[aeiouy]"
_CONSONANTS = f"{_CONSONANT}[^aeiouy]*"
_VOWELS = f"{_VOWEL}[aeiou]*"

# Measure tests on a stem: m > 0, m == 1, m > 1, and "contains a vowel".
_M_GT_0 = re.compile(f"^(?:{_CONSONANTS})?{_VOWELS}{_CONSONANTS}")
_M_EQ_1 = re.compile(f"^(?:{_CONSONANTS})?{_VOWELS}{_CONSONANTS}(?:{_VOWELS})?$")
_M_GT_1 = re.compile(f"^(?:{_CONSONANTS})?{_VOWELS}{_CONSONANTS}{_VOWELS}{_CONSONANTS}")
_HAS_VOWEL = re.compile(f"^(?:{_CONSONANTS})?{_VOWEL}")
# A whole stem shaped consonants, one vowel, one consonant (not w, x or y).
_SHORT_CVC = re.compile(f"^{_CONSONANTS}{_VOWEL}[^aeiouwxy]$")

_FIRST_CHAR = re.compile(".")
_STEP1A_ES = re.compile("(ss|i)es$")
_STEP1A_S = re.compile("([^s])s$")
_STEP1B_EED = re.compile("eed$")
_STEP1B_ED_ING = re.compile("(ed|ing)$")
_STEP1B_RESTORE_E = re.compile("(at|bl|iz)$")
_STEP1B_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_STEP1C_Y = re.compile("y$")
_STEP2 = _ends_with(list(_STEP2_SUFFIXES))
_STEP3 = _ends_with(list(_STEP3_SUFFIXES))
_STEP4_GROUP = _ends_with(_STEP4_SUFFIXES)
_STEP4_MENT = re.compile("ment$")
_STEP4_ENT = re.compile("ent$")
_STEP4_ION = re.compile("(s|t)(ion)$")
_STEP5_E = re.compile("e$")
_STEP5_LL = re.compile("ll$")


def _step1(w: str) -> str:
    """Plurals, -ed/-ing, and final -y."""
    m = _STEP1A_ES.search(w)
    if m:
        w = w[: m.start()] + m.group(1)
    else:
        m = _STEP1A_S.search(w)
        if m:
            w = w[: m.start()] + m.group(1)

    m = _STEP1B_EED.search(w)
    if m:
        if _M_GT_0.search(w[: m.start()]):
            w = w[:-1]
    else:
        m = _STEP1B_ED_ING.search(w)
        if m and _HAS_VOWEL.search(w[: m.start()]):
            w = w[: m.start()]
            if _STEP1B_RESTORE_E.search(w):
                w += "e"
            elif _STEP1B_DOUBLE.search(w):
                w = w[:-1]
            elif _SHORT_CVC.search(w):
                w += "e"

    m = _STEP1C_Y.search(w)
    if m and _HAS_VOWEL.search(w[: m.start()]):
        w = w[: m.start()] + "i"
    return w


def _replace_suffix(w: str, pattern: re.Pattern[str], table: dict[str, str]) -> str:
    """Steps 2 and 3: map the matched suffix when the stem has m > 0."""
    m = pattern.search(w)
    if m and _M_GT_0.search(w[: m.start()]):
        w = w[: m.start()] + table[m.group(1)]
    return w


def _drop_if_m_gt_1(w: str, pattern: re.Pattern[str]) -> tuple[str, bool]:
    """Drop the matched suffix when the stem has m > 1; report whether it matched."""
    m = pattern.search(w)
    if not m:
        return w, False
    if _M_GT_1.search(w[: m.start()]):
        w = w[: m.start()]
    return w, True


def _step4(w: str) -> str:
    """Remove long suffixes, in the variant's three successive passes."""
    w, _ = _drop_if_m_gt_1(w, _STEP4_GROUP)
    w, _ = _drop_if_m_gt_1(w, _STEP4_MENT)
    w, matched_ent = _drop_if_m_gt_1(w, _STEP4_ENT)
    if not matched_ent:
        m = _STEP4_ION.search(w)
        if m:
            stem = w[: m.start()] + m.group(1)
            if _M_GT_1.search(stem):
                w = stem
    return w


def _step5(w: str) -> str:
    """Final -e and double -ll."""
    m = _STEP5_E.search(w)
    if m:
        stem = w[: m.start()]
        if _M_GT_1.search(stem) or (_M_EQ_1.search(stem) and not _SHORT_CVC.search(stem)):
            w = stem
    if _STEP5_LL.search(w) and _M_GT_1.search(w):
        w = w[:-1]
    return w


def stem(word: str) -> str:
    """Stem ``word`` exactly as ROUGE-1.5.5.pl's ``stem`` does."""
    if len(word) < 3:
        return word
    # An initial "y" becomes "Y" so that no pattern takes it for a vowel.
    # (The Perl takes the first character with /^./, which fails on a
    # leading newline; ROUGE's tokens never hold one, and it is not "y".)
    first = _FIRST_CHAR.match(word)
    initial_y = first is not None and first.group() == "y"
    w = "Y" + word[1:] if initial_y else word

    w = _step1(w)
    w = _replace_suffix(w, _STEP2, _STEP2_SUFFIXES)
    w = _replace_suffix(w, _STEP3, _STEP3_SUFFIXES)
    w = _step4(w)
    w = _step5(w)

    if initial_y:
        w = "y" + w[1:]
    return w
