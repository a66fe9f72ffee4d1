"""``--lang``: Unicode words, Snowball stems and ROUGE values in eight languages, worked by hand.

Expected scores follow the Perl's rules: R = hits / reference tokens and
P = hits / prediction tokens, each rounded to 5 decimals; F = 2PR / (P + R)
from those rounded values, rounded again (alpha 0.5). :func:`perl` does that
rounding; the hits and counts are worked out in the comments.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest
from click.testing import CliRunner, Result
from tier import first_fast

from rouge155py import Options, UsageError, score
from rouge155py.cli import main
from rouge155py.errors import DataError
from rouge155py.report import Report
from rouge155py.text.unicode import UnicodeTokenizer, canonical_language, unicode_tokens

pytest.importorskip("nltk")

REPO = Path(__file__).resolve().parent.parent
DATA = str(REPO / "data")


def perl(recall: float, precision: float) -> tuple[float, float, float]:
    """R, P rounded to 5 decimals, and F = 2PR / (P + R) from the rounded values, rounded."""
    r, p = round(recall, 5), round(precision, 5)
    return r, p, round(2 * p * r / (p + r), 5) if p + r else 0.0


def scores(report: Report, label: str) -> tuple[float, float, float]:
    """The one instance's R, P, F."""
    (row,) = report.result(label).instances.values()
    return tuple(row)  # type: ignore[return-value]


def assert_scores(report: Report, label: str, expected: tuple[float, float, float]) -> None:
    assert scores(report, label) == pytest.approx(expected, abs=1e-12), label


# --------------------------------------------------------------------------
# tokenization
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # German: case folding turns ß into ss and capitals into small letters.
        ("Die Straße, die GRÖSSTE!", ["die", "strasse", "die", "grösste"]),
        # Russian: Cyrillic letters are words; ё stays ё; the dash separates.
        ("Ёлка — «Зелёная».", ["ёлка", "зелёная"]),
        # Arabic (right to left, stored in reading order): the Arabic comma and
        # question mark separate, a vowel mark (damma) stays in its word, and a
        # right-to-left mark is no letter.
        ("\u200fذهب الطالبُ، أين؟", ["ذهب", "الطالبُ", "أين"]),
        # Hebrew (right to left): the maqaf (a hyphen) separates.
        ("הילד הלך לבית־הספר.", ["הילד", "הלך", "לבית", "הספר"]),
        # Chinese: no spaces, each character a word; digits and Latin letters
        # inside stay runs; the ideographic full stop separates.
        ("我爱北京2023年。iPhone手机", ["我", "爱", "北", "京", "2023", "年", "iphone", "手", "机"]),
        # Japanese: kanji, hiragana and katakana characters each a word; the
        # halfwidth katakana ｶﾅ are made fullwidth by NFKC.
        ("東京で猫を見た ｶﾅ", ["東", "京", "で", "猫", "を", "見", "た", "カ", "ナ"]),
        # Thai: each consonant with the vowel and tone marks above it is a word.
        ("แมวนั่ง", ["แ", "ม", "ว", "นั่", "ง"]),
        # Hindi: vowel signs and the virama are marks, kept inside the word.
        ("हिन्दी भाषा।", ["हिन्दी", "भाषा"]),
        # Persian: the zero-width non-joiner inside a word keeps it one word.
        ("می\u200cخواهم \u200c", ["می\u200cخواهم"]),
        # NFKC: the ligature fi, fullwidth letters, a circled digit and a fraction.
        ("ﬁne ＦＵＬＬ ① ½", ["fine", "full", "1", "1", "2"]),
        # A combining accent after e is the precomposed é; an emoji's variation
        # selector is a mark after no letter, so no word.
        ("cafe\u0301 I ❤️ it", ["café", "i", "it"]),
        # Korean is written with spaces: its syllable runs are words.
        ("한국어 텍스트", ["한국어", "텍스트"]),
    ],
)
def test_unicode_tokens(text: str, expected: list[str]) -> None:
    assert unicode_tokens(text) == expected


def test_invalid_utf8_separates_words() -> None:
    # The reader's text holds bytes (as latin-1 characters): 0xFF is no UTF-8, so U+FFFD, no letter.
    tokenizer = UnicodeTokenizer("de")
    assert tokenizer.tokens(["gro\xc3\x9f\xffes haus"], stem=False) == ["gross", "es", "haus"]


# --------------------------------------------------------------------------
# stemming (Snowball, after case folding)
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words", "stems"),
    [
        # German: -en, -e and -er endings go; ä/ö/ü stay letters of the stem (R1 after "hä").
        ("de", "Katzen Katze Häuser Matten", ["katz", "katz", "haus", "matt"]),
        # Russian: the noun endings -ами, -а, -и and the verb ending -а go.
        ("ru", "кошками кошка кошки сидела", ["кошк", "кошк", "кошк", "сидел"]),
        # Arabic: the article ال and the feminine ending ة go; إلى is normalized to الى.
        ("ar", "المدرسة مدرسة الطالب إلى", ["مدرس", "مدرس", "طالب", "الى"]),
        # French: -ement after a vowel-less R2... continuellement -> continuel; plural -s goes.
        ("fr", "continuellement chats maisons", ["continuel", "chat", "maison"]),
        # Spanish: -iendo, -er and the plural -os go.
        ("es", "corriendo correr gatos", ["corr", "corr", "gat"]),
        # Finnish: the plural -t and the case ending -ssa go.
        ("fi", "kissat talossa", ["kis", "talo"]),
    ],
)
def test_snowball_stems(language: str, words: str, stems: list[str]) -> None:
    tokenizer = UnicodeTokenizer(language, stem=True)
    assert tokenizer.tokens([words.encode("utf-8").decode("latin-1")], stem=True) == stems


def test_stopwords_are_removed_before_stemming() -> None:
    tokenizer = UnicodeTokenizer("de", frozenset({"die", "katzen"}), stem=True)
    # "katzen" is a stopword; "katze" is not, and is then stemmed.
    assert tokenizer.tokens(["Die Katzen die Katze"], stem=True) == ["katz"]


# --------------------------------------------------------------------------
# ROUGE-1, -2, -L by hand
# --------------------------------------------------------------------------


def test_german_with_and_without_stemming() -> None:
    peer, ref = "Die Katzen saßen auf der Matte.", "Die Katze saß auf den Matten."
    # Words: peer die katzen sassen auf der matte; ref die katze sass auf den matten (6 each).
    plain = score([peer], [ref], lang="de", max_ngram=2)
    # Unigram hits: die, auf = 2 -> R = P = 2/6.
    assert_scores(plain, "ROUGE-1", perl(2 / 6, 2 / 6))
    # Bigrams: peer's (die katzen) ... none in ref -> 0.
    assert_scores(plain, "ROUGE-2", (0.0, 0.0, 0.0))
    # LCS: die auf = 2.
    assert_scores(plain, "ROUGE-L", perl(2 / 6, 2 / 6))
    stemmed = score([peer], [ref], lang="de", max_ngram=2, stem=True)
    # Stems: peer die katz sass auf der matt; ref die katz sass auf den matt: 5 hits of 6.
    assert_scores(stemmed, "ROUGE-1", perl(5 / 6, 5 / 6))
    # Bigrams (5 each): (die katz) (katz sass) (sass auf) shared; (auf der)/(auf den) not -> 3/5.
    assert_scores(stemmed, "ROUGE-2", perl(3 / 5, 3 / 5))
    # LCS: die katz sass auf matt = 5.
    assert_scores(stemmed, "ROUGE-L", perl(5 / 6, 5 / 6))


def test_russian() -> None:
    peer, ref = "Кошка сидела на ковре.", "Кошки сидели на ковре и спали."
    # Words: peer 4, ref 6; shared as written: на, ковре = 2.
    plain = score([peer], [ref], lang="ru", max_ngram=2)
    assert_scores(plain, "ROUGE-1", perl(2 / 6, 2 / 4))  # R .33333 P .5 F .4
    # Bigrams: peer 3, ref 5; (на ковре) shared.
    assert_scores(plain, "ROUGE-2", perl(1 / 5, 1 / 3))
    stemmed = score([peer], [ref], lang="ru", max_ngram=2, stem=True)
    # Stems: peer кошк сидел на ковр; ref кошк сидел на ковр и спал: 4 hits.
    assert_scores(stemmed, "ROUGE-1", perl(4 / 6, 4 / 4))  # F = 2 * 1 * .66667 / 1.66667 = .8
    # Bigrams: the peer's 3 are all in ref's 5.
    assert_scores(stemmed, "ROUGE-2", perl(3 / 5, 3 / 3))
    assert_scores(stemmed, "ROUGE-L", perl(4 / 6, 4 / 4))


def test_arabic_right_to_left() -> None:
    peer, ref = "ذهب الطلاب إلى المدرسة", "الطالب ذهب إلى مدرسة جديدة"
    plain = score([peer], [ref], lang="ar", max_ngram=2)
    # As written: ذهب, إلى shared; peer 4 words, ref 5.
    assert_scores(plain, "ROUGE-1", perl(2 / 5, 2 / 4))
    # Bigrams: peer (ذهب الطلاب) (الطلاب إلى) (إلى المدرسة); ref has (ذهب إلى): none shared.
    assert_scores(plain, "ROUGE-2", (0.0, 0.0, 0.0))
    stemmed = score([peer], [ref], lang="ar", max_ngram=2, stem=True)
    # Stems: peer ذهب طلاب الى مدرس; ref طالب ذهب الى مدرس جديد: ذهب, الى, مدرس shared.
    assert_scores(stemmed, "ROUGE-1", perl(3 / 5, 3 / 4))  # F = 2 * .75 * .6 / 1.35 = .66667
    # Bigrams: (الى مدرس) of the peer's 3 and ref's 4.
    assert_scores(stemmed, "ROUGE-2", perl(1 / 4, 1 / 3))  # F = 2 * .33333 * .25 / .58333 = .28571
    # LCS (reading order, not display order): ذهب الى مدرس = 3.
    assert_scores(stemmed, "ROUGE-L", perl(3 / 5, 3 / 4))


def test_hebrew_right_to_left() -> None:
    peer, ref = "הילד הלך הביתה", "הילד הלך לבית הספר"
    report = score([peer], [ref], lang="he", max_ngram=2)
    # Unigrams: הילד, הלך shared; peer 3, ref 4.
    assert_scores(report, "ROUGE-1", perl(2 / 4, 2 / 3))  # F = 2 * .66667 * .5 / 1.16667 = .57143
    # Bigrams: (הילד הלך) of the peer's 2 and ref's 3.
    assert_scores(report, "ROUGE-2", perl(1 / 3, 1 / 2))  # F = 2 * .5 * .33333 / .83333 = .4
    assert_scores(report, "ROUGE-L", perl(2 / 4, 2 / 3))


def test_chinese_without_spaces() -> None:
    peer, ref = "猫坐在垫子上。", "猫坐在地上。"
    report = score([peer], [ref], lang="zh", max_ngram=2)
    # Characters: peer 猫坐在垫子上 (6), ref 猫坐在地上 (5); shared 猫 坐 在 上 = 4.
    assert_scores(report, "ROUGE-1", perl(4 / 5, 4 / 6))  # F = 2 * .66667 * .8 / 1.46667 = .72727
    # Bigrams: peer 猫坐 坐在 在垫 垫子 子上 (5), ref 猫坐 坐在 在地 地上 (4); shared 2.
    assert_scores(report, "ROUGE-2", perl(2 / 4, 2 / 5))  # F = 2 * .4 * .5 / .9 = .44444
    # LCS: 猫坐在上 = 4.
    assert_scores(report, "ROUGE-L", perl(4 / 5, 4 / 6))


def test_japanese_kana_and_kanji() -> None:
    peer, ref = "猫が座った", "ねこが座った"
    report = score([peer], [ref], lang="ja", max_ngram=2)
    # Characters: peer 猫 が 座 っ た (5), ref ね こ が 座 っ た (6); shared が 座 っ た = 4.
    assert_scores(report, "ROUGE-1", perl(4 / 6, 4 / 5))
    # Bigrams: peer 猫が が座 座っ った (4), ref ねこ こが が座 座っ った (5); shared 3.
    assert_scores(report, "ROUGE-2", perl(3 / 5, 3 / 4))  # F = 2 * .75 * .6 / 1.35 = .66667
    assert_scores(report, "ROUGE-L", perl(4 / 6, 4 / 5))


def test_french_stemming_makes_the_match() -> None:
    peer, ref = "Les chats mangeaient.", "Le chat mange."
    # As written no word is shared; stemmed, les -> le, chats -> chat, mangeaient and mange -> mang.
    assert_scores(score([peer], [ref], lang="fr"), "ROUGE-L", (0.0, 0.0, 0.0))
    stemmed = score([peer], [ref], lang="fr", max_ngram=2, stem=True)
    for label in ("ROUGE-1", "ROUGE-2", "ROUGE-L"):
        assert_scores(stemmed, label, (1.0, 1.0, 1.0))


def test_rouge_l_is_the_union_lcs_over_sentences() -> None:
    # Reference sentences 猫坐 / 狗跑; the prediction's lines 狗跑 / 猫坐 (order swapped).
    report = score(["狗跑\n猫坐"], [["猫坐\n狗跑"]], lang="zh")
    # Each reference sentence finds its whole LCS in one prediction sentence: 2 + 2 = 4 of 4.
    assert_scores(report, "ROUGE-L", (1.0, 1.0, 1.0))
    # On one line each, the LCS of 狗跑猫坐 and 猫坐狗跑 is 2 of 4.
    assert_scores(score(["狗跑猫坐"], [["猫坐狗跑"]], lang="zh"), "ROUGE-L", perl(2 / 4, 2 / 4))


def test_skip_bigrams_and_weighted_lcs_on_characters() -> None:
    # Peer 猫坐上, reference 猫在上 (3 characters each).
    report = score(["猫坐上"], [["猫在上"]], lang="zh", lcs=False, skip_distance=-1, skip_both=True)
    # Skip-bigrams (no distance limit): peer 猫坐 猫上 坐上, ref 猫在 猫上 在上: 1 of 3.
    assert_scores(report, "ROUGE-S*", perl(1 / 3, 1 / 3))
    # With unigrams too, of every character but the last (the Perl's rule): peer adds 猫 坐,
    # ref 猫 在: 5 units each; 猫上 and 猫 shared: 2 of 5.
    assert_scores(report, "ROUGE-SU*", perl(2 / 5, 2 / 5))
    weighted = score(["猫坐在垫子上"], [["猫坐在地上"]], lang="zh", lcs=False, wlcs_weight=1.2)
    # Runs of hits in the reference: 猫坐在 (3), 上 (1): hit = 3^1.2 + 1^1.2 = 4.73719.
    # The Perl weighs the reference's length twice: R = (hit / (5^1.2)^1.2)^(1/1.2) = .52987;
    # P = (hit / 6^1.2)^(1/1.2) = .60923.
    hit = 3**1.2 + 1
    recall = (hit / (5**1.2) ** 1.2) ** (1 / 1.2)
    assert_scores(weighted, "ROUGE-W-1.2", perl(recall, (hit / 6**1.2) ** (1 / 1.2)))


def test_byte_limit_cuts_inside_a_character() -> None:
    # -b 5 keeps the bytes "Stra" and the first byte of ß (2 bytes in UTF-8): a broken
    # character, read as U+FFFD, ends the word "stra".
    report = score(["Straße"], [["Stra"]], lang="de", byte_limit=5)
    assert_scores(report, "ROUGE-L", (1.0, 1.0, 1.0))


def test_stopwords_from_a_user_list(tmp_path: Path) -> None:
    words = tmp_path / "de.txt"
    # One word a line; "Der" is case-folded, the line "zwei wörter" is left out.
    words.write_text("Der\ndie\n\nzwei wörter\n", encoding="utf-8")
    report = score(
        ["Die Katze und der Hund"],
        [["die Katze"]],
        lang="de",
        max_ngram=1,
        stopwords=True,
        stopwords_file=str(words),
    )
    # Peer without stopwords: katze und hund (3); ref: katze (1): 1 hit.
    assert_scores(report, "ROUGE-1", perl(1 / 1, 1 / 3))


# --------------------------------------------------------------------------
# options, errors and the signature
# --------------------------------------------------------------------------


def test_language_codes() -> None:
    assert canonical_language("DE") == "de"
    assert canonical_language("deu") == "de"
    assert canonical_language("eng") == "en"
    assert Options(lang="RUS").lang == "ru"
    for bad in ("german", "d", "", "1a", "xx", "qaa", "de--DE", "zz-ZZ"):
        with pytest.raises(UsageError, match="ISO 639"):
            Options(lang=bad)


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("de-DE", "de"),
        ("pt_BR", "pt"),
        ("zh-Hans", "zh"),
        ("zh-Hant-TW", "zh"),
        ("sr-Latn-RS", "sr"),
        ("de_DE.UTF-8", "de"),
        ("ca_ES@valencia", "ca"),
        ("en-GB", "en"),
        ("iw_IL", "he"),
        ("cmn-Hans-CN", "zh"),
        ("arb", "ar"),
        ("yue-Hant-HK", "yue"),
        ("fil", "fil"),
    ],
)
def test_language_tags_are_read_as_their_language(tag: str, code: str) -> None:
    assert Options(lang=tag).lang == code


def test_an_unknown_language_is_one_error_line(tmp_path: Path) -> None:
    (tmp_path / "h.txt").write_text("кошка\n", encoding="utf-8")
    for lang in ("xx", "xx-XX", "klingon"):
        proc = subprocess.run(
            [sys.executable, "-m", "rouge155py", "--lang", lang, "--hyp", "h.txt", "--ref", "h.txt"],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            capture_output=True,
            check=False,
        )
        assert proc.returncode == 2
        assert proc.stdout == b""
        lines = proc.stderr.decode().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"rouge155py: error: --lang '{lang}'"), lines


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"lang": "de", "stopwords": True}, "-s with --lang de needs a stopword list: --stopwords FILE"),
        ({"lang": "zh", "stem": True}, "no Snowball stemmer for --lang zh"),
        ({"lang": "he", "stem_models_only": True}, "no Snowball stemmer for --lang he"),
        ({"lang": "ru", "be_mode": "H", "lcs": False}, "not with --lang ru"),
        ({"stopwords_file": "x.txt"}, "add -s"),
        ({"lang": "de", "stopwords_file": "x.txt"}, "add -s"),
    ],
)
def test_option_errors(options: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        Options(**options)


def test_without_nltk_stemming_is_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nltk", None)  # import nltk now fails; find_spec finds nothing
    with pytest.raises(UsageError, match=r"-m/-M with --lang de needs nltk: pip install nltk"):
        Options(lang="de", stem=True)
    assert Options(lang="en", stem=True).lang == "en"  # English is the legacy stage: no nltk
    assert Options(lang="de").lang == "de"  # nothing stemmed: nothing needs nltk


_WITHOUT_NLTK = """
import sys
sys.modules["nltk"] = None  # as if nltk were not installed: any import of it fails
from rouge155py.cli import run
code = run(sys.argv[1:])
assert "nltk" not in sys.modules or sys.modules["nltk"] is None
sys.exit(code)
"""


@pytest.mark.parametrize("lang", first_fast(["zh", "ja", "de", "ru-RU"]))
def test_lang_without_nltk_where_nothing_is_stemmed(tmp_path: Path, lang: str) -> None:
    (tmp_path / "h.txt").write_text("猫坐在垫子上。\nКошка сидела на ковре.\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("猫坐在地上。\nКошки сидели на ковре.\n", encoding="utf-8")
    args = ["-n", "2", "--lang", lang, "--signature", "--hyp", "h.txt", "--ref", "r.txt"]

    def run(*blocked: str) -> subprocess.CompletedProcess[bytes]:
        code = _WITHOUT_NLTK if blocked else "from rouge155py.cli import entry; entry()"
        return subprocess.run(
            [sys.executable, "-c", code, *args],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            capture_output=True,
            check=False,
        )

    hidden, installed = run("nltk"), run()
    assert hidden.returncode == 0, hidden.stderr
    assert hidden.stdout == installed.stdout
    assert b"ROUGE-2 Average_R: 0.0" not in hidden.stdout  # words of every script were counted
    assert hidden.stderr == installed.stderr  # the signature names no nltk: it changes nothing here
    assert b"nltk" not in hidden.stderr


def test_signature_names_the_mode(tmp_path: Path) -> None:
    from importlib.metadata import version
    from unicodedata import unidata_version

    legacy = Options(stem=True).signature("X")
    assert Options(lang="en", stem=True).signature("X") == legacy
    unicode = Options(lang="de", stem=True).signature("X")
    assert unicode.startswith(legacy[: -len("|version:X")])
    assert unicode.endswith(
        f"|lang:de|tok:unicode1-nfkc-casefold-ucd{unidata_version}|stem:snowball-german"
        f"|nltk:{version('nltk')}|version:X"
    )
    assert "|stem:none|" in Options(lang="zh").signature("X")
    words = tmp_path / "sw.txt"
    words.write_bytes(b"der\n")
    digest = hashlib.sha256(b"der\n").hexdigest()[:12]
    signed = Options(lang="de", max_ngram=1, stopwords=True, stopwords_file=str(words)).signature("X")
    assert f"|sw:sha256-{digest}|lang:de|" in signed


def test_unreadable_stopword_list_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot open stopword list"):
        score(["a"], [["a"]], lang="de", stopwords=True, stopwords_file=str(tmp_path / "missing.txt"))


# --------------------------------------------------------------------------
# the legacy stage: --lang en, --stopwords without --lang, nltk never imported
# --------------------------------------------------------------------------

PEERS = ["The cats were sitting on the mat.\nThey purred loudly.", "Geese flew over the houses."]
MODELS = [["A cat sat on the mats.\nIt purred."], ["The goose flies over a house."]]


def test_english_is_the_legacy_stage() -> None:
    options = {"max_ngram": 2, "stem": True, "stopwords": True, "per_eval": True}
    assert (
        score(PEERS, MODELS, lang="en", **options).to_legacy() == score(PEERS, MODELS, **options).to_legacy()
    )


def test_legacy_stopwords_from_a_user_list(tmp_path: Path) -> None:
    words = tmp_path / "sw.txt"
    words.write_bytes(b"The\r\ncat\n")  # lowercased as the readers lowercase; the CR is no part of a word
    report = score(["the cat sat"], [["a cat sat"]], max_ngram=1, stopwords=True, stopwords_file=str(words))
    # Left: peer "sat", ref "a sat" (the SMART list would have removed "a" too): 1 hit.
    assert_scores(report, "ROUGE-1", perl(1 / 2, 1 / 1))


@pytest.fixture
def run_cli(cli_runner: CliRunner) -> Callable[..., Result]:
    """Run the command line; its stdout and stderr apart."""

    def run(*args: str) -> Result:
        return cli_runner.invoke(main, list(args))

    return run


def test_command_line(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("猫坐在垫子上。\nDie Katzen saßen.\n", encoding="utf-8")
    ref.write_text("猫坐在地上。\nDie Katze saß.\n", encoding="utf-8")
    result = run_cli("--lang", "zh", "-d", "--signature", "--hyp", str(hyp), "--ref", str(ref))
    assert result.exit_code == 0, result.stderr
    # Line 1 as in test_chinese_without_spaces; line 2: die katzen sassen / die katze sass: 1 of 3.
    assert "1 ROUGE-L Eval 1.1 R:0.80000 P:0.66667 F:0.72727" in result.stdout
    assert "1 ROUGE-L Eval 2.1 R:0.33333 P:0.33333 F:0.33333" in result.stdout
    assert "|lang:zh|" in result.stderr
    stemmed = run_cli("--lang=de", "-m", "-d", "--hyp", str(hyp), "--ref", str(ref))
    # Stems: die katz sass both: 3 of 3.
    assert "1 ROUGE-L Eval 2.1 R:1.00000 P:1.00000 F:1.00000" in stemmed.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "zh", "-m"], "no Snowball stemmer for --lang zh"),
        (["--lang", "de", "-s"], "needs a stopword list"),
        (["--lang", "Deutsch"], "ISO 639"),
        (["--stopwords", "sw.txt"], "add -s"),
    ],
)
def test_command_line_errors(
    tmp_path: Path, run_cli: Callable[..., Result], args: list[str], message: str
) -> None:
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a\n", encoding="utf-8")
    result = run_cli(*args, "--hyp", str(hyp), "--ref", str(hyp))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rouge155py: error: ") and message in lines[0]


def test_english_is_the_legacy_report_on_the_command_line(run_cli: Callable[..., Result]) -> None:
    config = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")
    args = ["-e", DATA, "-a", "-n", "2", "-m", "-s", "-d", "-r", "10", config]
    assert run_cli("--lang", "en", *args).stdout_bytes == run_cli(*args).stdout_bytes


@pytest.mark.slow
def test_nltk_is_imported_only_in_the_mode(tmp_path: Path) -> None:
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("Die Katzen\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from rouge155py.cli import run\n"
        "assert run(sys.argv[1:]) == 0\n"
        "print('nltk' in sys.modules)\n"
    )

    def imports_nltk(*args: str) -> bool:
        cmd = [sys.executable, "-c", code, *args, "--hyp", str(hyp), "--ref", str(hyp)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        return done.stdout.splitlines()[-1] == "True"

    assert not imports_nltk("-m")
    assert not imports_nltk("--lang", "en", "-m")
    assert not imports_nltk("--lang", "zh")  # no stemming: no nltk
    assert imports_nltk("--lang", "de", "-m")


# --------------------------------------------------------------------------
# rouge-score, given the same tokens (scripts/crosscheck_lang.py, run as a user runs it)
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_same_scores_as_rouge_score_on_generated_pairs() -> None:
    pytest.importorskip("rouge_score")
    script = REPO / "scripts" / "crosscheck_lang.py"
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, str(script), "--pairs", "40", "--seed", "11"],
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0 and "\nfailures: 0 " in done.stdout, done.stdout + done.stderr
    assert done.stdout.startswith("pairs: 240 (de 40, ru 40, ar 40, zh 40, ja 40, hi 40)\n"), done.stdout
    # Summaries of several lines: the Perl's union LCS equals rougeLsum here, not rougeL.
    several = r"^ROUGE-L on several sentences: (\d+) pairs, (\d+) differ .*, (\d+) from rougeL "
    lsum = re.search(several, done.stdout, re.M)
    assert lsum is not None, done.stdout
    compared, differ, plain_differ = map(int, lsum.groups())
    assert compared > 50 and differ == 0 and plain_differ > 0


def test_worker_processes_give_the_same_report() -> None:
    predictions = ["Die Katzen saßen auf der Matte.", "Кошка сидела на ковре."]
    references = [["Die Katze saß auf den Matten."], ["Кошки сидели на ковре и спали."]]
    options = {"lang": "de", "max_ngram": 2, "stem": True, "per_eval": True}
    one = score(predictions, references, **options).to_legacy()
    assert score(predictions, references, jobs=2, **options).to_legacy() == one
