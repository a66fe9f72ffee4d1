"""NIST (rouge155py.other_metrics.nist) against NIST's own mteval-v13a.pl, the specification.

- Archived: ``tests/fixtures/mteval/cases.json``, what mteval printed for 40 runs on random
  SGML files (988 segments of 117 systems; ``scripts/make_mteval_fixtures.py`` made it, its
  README says how). Every number mteval prints with 4 decimals (segments with ``-d 2``,
  documents with ``-d 1``, systems' ``NIST score =`` and their cumulative 1- to 9-gram scores)
  is equal byte for byte, and each tokenized segment (``-d 3``). The 15 significant digits of
  ``--metricsMATR``'s files are equal where the sums cannot depend on the order of addition:
  mteval adds a segment's n-gram weights in its hash's order, which changes from run to run of
  mteval itself; elsewhere they differ by less than one unit of the 15th digit.
- Live: the same checks on fresh random cases, where perl, XML::Twig and the script are found
  (``$ROUGE155PY_MTEVAL``, else ``~/.cache/rouge155py-mteval/mteval-v13a.pl``); skipped otherwise,
  unless ``ROUGE155PY_REQUIRE_MTEVAL=1`` makes that a failure. ``ROUGE155PY_MTEVAL_SEED``
  replays a seed a failure names.
- nltk's ``nist_score`` agrees with one reference, pre-tokenized text; not with several.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rouge155py.errors import UsageError
from rouge155py.other_metrics import nist as nist_module
from rouge155py.other_metrics.base import Item
from rouge155py.other_metrics.evals import metric_of
from rouge155py.other_metrics.nist import Nist, mteval_words

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "mteval" / "cases.json"
SCRIPT = REPO / "scripts" / "make_mteval_fixtures.py"
MTEVAL_SHA256 = "bca77abb865579e7581e5f3701dccc64e949e842da651952a31e513702b3fb7c"


def _archive() -> dict[str, Any]:
    archive: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return archive


def _segments(case: dict[str, Any], system: str) -> tuple[list[tuple[str, int]], list[Item]]:
    """A system's segments as items, in mteval's order: documents by name, segments by number."""
    keys, items = [], []
    for document in sorted(case["documents"], key=lambda d: d["docid"]):
        for segment in sorted(document["segments"], key=lambda s: s["id"]):
            keys.append((document["docid"], segment["id"]))
            references = tuple(tuple(r) for r in segment["references"])
            items.append(
                Item(f"{document['docid']}.{segment['id']}", tuple(segment["systems"][system]), references)
            )
    return keys, items


def _digits15(value: float, printed: str, exact: bool) -> bool:
    """``value`` as Perl prints a number (15 significant digits): equal to ``printed``, or, where
    mteval's order of addition may change the last bits (``exact`` False), within one unit of
    the 15th digit."""
    if f"{value:.15g}" == printed:
        return True
    unit = 10 ** (math.floor(math.log10(max(abs(value), 1e-300))) - 14)
    return not exact and abs(value - float(printed)) <= unit


def check_case(case: dict[str, Any]) -> list[str]:
    """What differs from mteval's printed numbers in one archived run, checked as the module
    docstring says (an empty list when nothing does)."""
    printed, wrong = case["printed"], []
    metric = Nist(case=case["case"], international=case["international"])
    for system in case["systems"]:
        keys, items = _segments(case, system)
        rows = metric.counts(items)
        total, documents_exact = np.zeros(rows.shape[1]), True
        for docid in sorted({docid for docid, _ in keys}):
            summed, exact = np.zeros(rows.shape[1]), True
            for (d, s), item, row in zip(keys, items, rows):
                if d != docid:
                    continue
                want = printed["segments"][f"{system} {d} {s}"]
                where = f"{system} {d} seg {s}"
                tokens = " ".join(metric.words(" ".join(item.peer)))
                references = [" ".join(metric.words(" ".join(r))) for r in item.references]
                if tokens != want["tokens"] or references != printed["references"][f"{d} {s}"]:
                    wrong.append(f"{where}: tokens {tokens!r}, mteval {want['tokens']!r}")
                value = metric.item_score(row)
                free = max(want["terms"][: metric.n]) <= 2  # at most 2 weights of each order: any order
                exact &= free
                if f"{value:.4f}" != want["nist"] or not _digits15(value, want["scr"], free):
                    wrong.append(f"{where}: {value!r}, mteval {want['nist']} {want['scr']}")
                if row[metric.n] != want["words"]:
                    wrong.append(f"{where}: {row[metric.n]} words, mteval {want['words']}")
                summed = summed + row  # score_document: segment after segment
            value, want = metric.score(summed), printed["documents"][f"{system} {docid}"]
            if f"{value:.4f}" != want["nist"] or not _digits15(value, want["scr"], exact):
                wrong.append(f"{system} {docid}: {value!r}, mteval {want['nist']} {want['scr']}")
            total = total + summed  # score_system: document after document
            documents_exact &= exact
        want = printed["systems"][system]
        for value, exact in ((metric.score(total), documents_exact), (metric.score(rows.sum(axis=0)), False)):
            if f"{value:2.4f}" != want["nist"] or not _digits15(value, want["scr"], exact):
                wrong.append(f"{system}: {value!r}, mteval {want['nist']} {want['scr']}")
        nine = Nist(n=9, case=case["case"], international=case["international"])
        summed9 = nine.counts(items).sum(axis=0)
        for n in range(1, 10):  # order n's counts are the first n of each kind of order 9's
            value = Nist(n=n).score(np.concatenate([summed9[:n], summed9[9 : 9 + n], summed9[-3:]]))
            if f"{value:2.4f}" != want["cumulative"][n - 1]:
                wrong.append(f"{system}: cumulative {n}-gram {value!r}, mteval {want['cumulative'][n - 1]}")
    return wrong


ARCHIVE = _archive()


@pytest.mark.parametrize("number", range(len(ARCHIVE["cases"])))
def test_archived_mteval_runs_are_reproduced(number: int) -> None:
    wrong = check_case(ARCHIVE["cases"][number])
    assert not wrong, "\n".join(wrong[:10])


def test_the_archive_covers_what_it_claims() -> None:
    """At least 500 segments over several systems and documents, 1 to 4 references, each
    setting of -c and --international-tokenization; made by the script at its commit."""
    cases = ARCHIVE["cases"]
    assert ARCHIVE["mteval"]["commit"] == "34452895f350bf097b21ee514a529a1dc542243c"
    assert ARCHIVE["mteval"]["sha256"] == MTEVAL_SHA256
    assert sum(len(c["printed"]["segments"]) for c in cases) >= 500
    assert {len(c["documents"][0]["segments"][0]["references"]) for c in cases} == {1, 2, 3, 4}
    assert {(c["case"], c["international"]) for c in cases} == {(a, b) for a in (0, 1) for b in (0, 1)}
    assert {len(c["systems"]) for c in cases} >= {2, 3, 4}
    assert max(len(c["documents"]) for c in cases) >= 3


def _mteval() -> tuple[str, Path] | str:
    """(perl, mteval-v13a.pl) where both run here, else why not."""
    script = Path(
        os.environ.get("ROUGE155PY_MTEVAL") or "~/.cache/rouge155py-mteval/mteval-v13a.pl"
    ).expanduser()
    perl = shutil.which("perl")
    if perl is None:
        return "no perl"
    if not script.is_file():
        return f"no mteval-v13a.pl at {script} (ROUGE155PY_MTEVAL names it)"
    if subprocess.run([perl, "-MXML::Twig", "-e", "1"], capture_output=True, timeout=60).returncode:
        return "perl has no XML::Twig (Debian: libxml-twig-perl)"
    return perl, script


@pytest.fixture(scope="module")
def mteval() -> tuple[str, Path]:
    found = _mteval()
    if isinstance(found, str):
        if os.environ.get("ROUGE155PY_REQUIRE_MTEVAL") == "1":
            pytest.fail(f"ROUGE155PY_REQUIRE_MTEVAL=1: {found}")
        pytest.skip(found)
    return found


def test_fresh_random_cases_match_mteval(mteval: tuple[str, Path], tmp_path: Path) -> None:
    perl, script = mteval
    assert hashlib.sha256(script.read_bytes()).hexdigest() == MTEVAL_SHA256, script
    seed = int(os.environ.get("ROUGE155PY_MTEVAL_SEED") or random.SystemRandom().randrange(2**32))
    out = tmp_path / "fresh.json"
    command = [sys.executable, str(SCRIPT), "--seed", str(seed), "--cases", "12", "--out", str(out)]
    subprocess.run([*command, "--mteval", str(script), "--perl", perl], check=True, timeout=600)
    cases = json.loads(out.read_text(encoding="utf-8"))["cases"]
    wrong = [line for case in cases for line in check_case(case)]
    assert not wrong, f"ROUGE155PY_MTEVAL_SEED={seed}:\n" + "\n".join(wrong[:10])


# Perl's classes of every code point, as mteval's regexes see a character of a UTF-8 file.
_PERL_CLASSES = r"""
binmode STDOUT, ':utf8';
my %classes = (s => qr/\s/, P => qr/\p{P}/, N => qr/\p{N}/, S => qr/\p{S}/, Z => qr/\p{Z}/, Cn => qr/\p{Cn}/);
my @chars = map { my $c = chr($_); utf8::upgrade($c); [$_, $c] }
    grep { $_ < 0xD800 || $_ > 0xDFFF } 0 .. 0x10FFFF;
for my $name (sort keys %classes) {
    my $re = $classes{$name};
    print "$name ", join(",", map { $_->[0] } grep { $_->[1] =~ $re } @chars), "\n";
}
print "lc ", join(",", map { $_->[0] . ":" . join(" ", map { ord } split //, lc $_->[1]) }
    grep { lc($_->[1]) ne $_->[1] } @chars), "\n";
"""


def test_unicode_classes_are_perls(mteval: tuple[str, Path]) -> None:
    """The Unicode tables the port reads (Python's unicodedata, its own \\s) are Perl's for
    every code point both know: \\s, \\p{P}, \\p{N}, \\p{S}, \\p{Z}, and lc."""
    perl, _ = mteval
    out = subprocess.run([perl, "-e", _PERL_CLASSES], capture_output=True, check=True, timeout=300).stdout
    perls: dict[str, Any] = {}
    for line in out.decode("utf-8").split("\n")[:-1]:
        name, _, values = line.partition(" ")
        if name == "lc":
            pairs = (entry.split(":") for entry in values.split(","))
            perls[name] = {int(p): "".join(chr(int(c)) for c in lower.split(" ")) for p, lower in pairs}
        else:
            perls[name] = {int(v) for v in values.split(",") if v}
    points = [p for p in range(0x110000) if not 0xD800 <= p <= 0xDFFF]
    known = {p for p in points if unicodedata.category(chr(p)) != "Cn"} - perls["Cn"]
    ours: dict[str, Any] = {"s": {p for p in points if nist_module._SPACES.fullmatch(chr(p))}}
    for kind in "PNSZ":
        ours[kind] = {p for p in known if unicodedata.category(chr(p))[0] == kind}
    ours["lc"] = {p: chr(p).lower() for p in known if chr(p).lower() != chr(p)}
    assert ours["s"] == perls["s"]
    for kind in "PNSZ":
        assert ours[kind] == perls[kind] & known, kind
    assert ours["lc"] == {p: v for p, v in perls["lc"].items() if p in known}


@pytest.mark.parametrize(
    ("text", "options", "words"),
    [
        (
            "The U.S. cost $3.50, didnt it? 5-6 well-known 1,000.",
            {},
            "the u . s . cost $ 3.50 , didnt it ? 5 - 6 well-known 1,000 .",
        ),
        ("&AMP; &amp;lt; AT&amp;T <skipped> <SKIPPED> x&quot;y", {}, '& amp ; < at & t < skipped > x " y'),
        ("ΣΑΣ «Hola», 3.5 €5 x² a\x1cb a\xa0b 2-0-1", {}, "ΣΑΣ «hola» , 3.5 €5 x² a\x1cb a b 2 - 0 - 1"),
        (
            "The U.S. cost $3.50, didnt it? 5-6 well-known 1,000.",
            {"international": True},
            "the u . s . cost $ 3.50 , didnt it ? 5-6 well - known 1,000.",
        ),
        (
            "ΣΑΣ «Hola», 3.5 €5 x² a\x1cb a\xa0b 2-0-1",
            {"international": True},
            "σασ « hola » , 3.5 € 5 x² a\x1cb a b 2-0-1",
        ),
        ("ΣΑΣ «Hola», 3.5", {"international": True, "case": True}, "ΣΑΣ « Hola » , 3.5"),
        ("re-\nenter a\tb", {}, "re- enter a b"),
    ],
)
def test_tokenization_as_mteval_prints_it(text: str, options: dict[str, bool], words: str) -> None:
    """mteval's own output (``-d 3``) for these texts: ASCII-only lowercasing and its
    punctuation rules by default; Perl's lc (no final sigma), Unicode punctuation and symbols
    with --international-tokenization; entities decoded before lowercasing; \\x1c is no space to
    Perl, a no-break space is; a line's end is a space (the SGML reader joins the lines first)."""
    assert mteval_words(text, **options) == words.split(" ")


def test_a_hand_worked_segment() -> None:
    """Reference "the cat sat", hypothesis "the cat": each reference word weighs log2(3), the
    bigram "the cat" log2(1/1) = 0; the score is 2 log2(3) / 2 + 0 / 1, times the penalty of a
    length ratio of 2/3, which is 1/2 by construction."""
    metric = Nist()
    row = metric.counts([Item("1", ("The cat",), (("the cat sat",),))])[0]
    weight = -math.log(1 / 3) / math.log(2)
    assert row[:2].tolist() == [2 * weight, 0.0]
    assert row[5:7].tolist() == [2, 1]
    assert metric.item_score(row) == pytest.approx(math.log2(3) / 2, rel=1e-15)


def test_a_bigram_after_the_word_0_is_weighed_as_a_unigram() -> None:
    """mteval tests the prefix of an n-gram for truth: the prefix "0" is false in Perl, so a
    bigram "0 w" weighs -log2(count / reference words) as a unigram would."""
    metric = Nist(n=2)
    quirk = metric.counts([Item("1", ("0 1",), (("0 1 0 2",),))])[0]
    plain = metric.counts([Item("1", ("a 1",), (("a 1 a 2",),))])[0]
    assert (quirk[1], plain[1]) == (2.0, 1.0)  # -log2(1/4), -log2(1/2)


def test_items_with_different_numbers_of_references() -> None:
    """The length penalty compares the hypothesis words with the sum of each segment's average
    reference length: 10 (one reference) + 20 (three of 20 words) here; the reference words are
    counted in units of 1/lcm(1, 3) so that the sum stays exact."""
    metric = Nist()
    ten, twenty = " ".join(["x"] * 10), " ".join(["y"] * 20)
    items = [Item("1", ("x " * 5,), ((ten,),)), Item("2", ("y " * 10,), ((twenty,),) * 3)]
    rows = metric.counts(items)
    assert rows[:, -3:].tolist() == [[30, 3, 1], [60, 3, 1]]
    total = rows.sum(axis=0)
    information = total[:5] / np.maximum(total[5:10], 1)
    ratio = 15 / (10 + 20)
    expected = information.sum() * math.exp(-math.log(2) * (math.log(ratio) / math.log(1.5)) ** 2)
    assert metric.score(total) == pytest.approx(expected, rel=1e-14)


def test_the_length_ratio_is_mtevals_division_where_every_item_has_k_references() -> None:
    """mteval divides the system's reference words by the number of references once:
    20 / 3 = 6.666666666666667, where adding each segment's 4/3, 5/3 and 11/3 gives
    6.666666666666666; the score of the summed counts is mteval's to the last bit."""
    metric = Nist()
    items = [Item(str(r), ("a b",), ((" ".join(["a"] + ["c"] * (r - 1)),), ("",), ("",))) for r in (4, 5, 11)]
    total = metric.counts(items).sum(axis=0)
    information = 0.0
    for order in range(5):
        information += total[order] / max(total[5 + order], 1)
    ratio = 6 / (20 / 3)
    beta = -math.log(0.5) / math.log(1.5) / math.log(1.5)
    expected = information * math.exp(-beta * math.log(ratio) * math.log(ratio))
    added = 6 / (4 / 3 + 5 / 3 + 11 / 3)
    assert expected != information * math.exp(-beta * math.log(added) * math.log(added))
    assert metric.score(total) == expected


def test_a_shorter_order_counts_the_first_columns_of_a_longer() -> None:
    """Orders 1 to n are the same with any largest order (the archive's cumulative scores are
    checked from order 9's counts)."""
    _, items = _segments(ARCHIVE["cases"][2], ARCHIVE["cases"][2]["systems"][0])
    nine, three = Nist(n=9).counts(items), Nist(n=3).counts(items)
    assert np.array_equal(three, np.concatenate([nine[:, :3], nine[:, 9:12], nine[:, -3:]], axis=1))


def test_empty_texts_and_missing_references() -> None:
    """An empty hypothesis scores 0, as does one against references of no word (mteval divides
    by zero there); an item without any reference is refused."""
    metric = Nist()
    rows = metric.counts([Item("1", (), (("a b",),)), Item("2", ("a b",), (("<skipped>",), ("",)))])
    assert [metric.item_score(row) for row in rows] == [0.0, 0.0]
    assert metric.score(rows.sum(axis=0)) == 0.0
    with pytest.raises(UsageError, match="no reference for 3: NIST needs one"):
        metric.counts([Item("3", ("a",), ())])
    assert metric.counts([]).shape == (0, 13)


def test_options_are_checked_and_signed() -> None:
    with pytest.raises(UsageError, match="n must be at least 1"):
        Nist(n=0)
    with pytest.raises(UsageError, match="option case must be bool"):
        Nist(case="yes")  # type: ignore[arg-type]
    assert metric_of("nist:n=4:international=yes") == Nist(n=4, international=True)
    assert Nist().signature() == "NIST|n:5|case:no|international:no|spec:mteval-v13a"


# nltk's doctest of sentence_nist (nltk/translate/nist_score.py).
HYPOTHESIS = "It is a guide to action which ensures that the military always obeys the commands of the party"
REFERENCES = (
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the command of the "
    "Party",
    "It is the practical guide for the army always to heed the directions of the party",
)


def test_nltk_agrees_with_one_reference_of_tokens() -> None:
    """With one reference, tokens as mteval makes them and no bigram after "0", nltk's
    corpus_nist is mteval's NIST up to the last bits (it computes the weights as
    log2(prefix count / count) where mteval negates log2 of the inverse)."""
    nltk_nist = pytest.importorskip("nltk.translate.nist_score")
    rng = random.Random(5)
    vocabulary = "the cat sat on a mat dog ran . , it".split()
    for _ in range(20):
        metric = Nist(case=bool(rng.getrandbits(1)))
        pairs = []
        for _ in range(rng.randint(1, 6)):
            reference = rng.choices(vocabulary, k=rng.randint(5, 20))
            pairs.append(
                (reference[: rng.randint(5, len(reference))] + rng.choices(vocabulary, k=3), reference)
            )
        items = [Item("x", (" ".join(h),), ((" ".join(r),),)) for h, r in pairs]
        ours = metric.score(metric.counts(items).sum(axis=0))
        theirs = nltk_nist.corpus_nist([[r] for _, r in pairs], [h for h, _ in pairs], 5)
        assert ours == pytest.approx(theirs, rel=1e-13)


def test_nltk_differs_with_several_references() -> None:
    """With several references nltk scores each order against the one reference of best
    precision and takes that reference's length, where mteval clips each n-gram to its largest
    count in any reference and takes the average reference length: nltk's doctest example gives
    3.3710 with nltk, 5.0379 with mteval-v13a.pl -c (printed by it) and here."""
    nltk_nist = pytest.importorskip("nltk.translate.nist_score")
    theirs = nltk_nist.sentence_nist([r.split() for r in REFERENCES], HYPOTHESIS.split())
    metric = Nist(case=True)
    ours = metric.item_score(metric.counts([Item("1", (HYPOTHESIS,), tuple((r,) for r in REFERENCES))])[0])
    assert (f"{theirs:.4f}", f"{ours:.4f}") == ("3.3710", "5.0379")
