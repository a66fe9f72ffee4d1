#!/usr/bin/env python3
"""Cross-check ``--lang`` scores against rouge-score, given the same tokens.

    python scripts/crosscheck_lang.py                    # 1,200 pairs in 6 languages
    python scripts/crosscheck_lang.py --pairs 500 --seed 3 --languages de ru zh

Pairs are generated from a small hand-written vocabulary per language (German,
Russian, Arabic, Chinese, Japanese, Hindi): inflected forms, capitals,
punctuation, digits, Latin words inside other scripts; Chinese and Japanese are
written without spaces. A prediction copies, drops, replaces and moves words of
its reference, or is drawn afresh.

rouge-score 0.1.2 scores every pair with ``RougeScorer(["rouge1", "rouge2",
"rougeL", "rougeLsum"], use_stemmer=False, tokenizer=...)`` whose tokenizer is
:func:`rouge155py.text.unicode.unicode_tokens`; rouge155py scores them with
``score(..., lang=LANG, max_ngram=2)``, and its per-item rows (``to_rows()``)
are compared, not the bootstrap averages:

- ``-t 0`` rows (the Perl's rounded scores): R and P equal rouge-score's to 5
  decimals. The Perl computes F from the ROUNDED R and P, so F is compared with
  rouge-score's F of its own rounded R and P; the difference to rouge-score's
  unrounded F is reported too (it can reach about 1e-5).
- ``-t 1`` rows (the counts): R, P and F from the counts equal rouge-score's
  unrounded values (up to float rounding).

ROUGE-L is the Perl's summary-level union LCS over sentences: on one-sentence
summaries (the first half of the pairs) it is rouge-score's ``rougeL``; on
summaries of several sentences (lines) it is compared with ``rougeLsum`` and the
pairs where they differ are counted, not failed. ROUGE-1 and ROUGE-2 are compared
on every pair. The script exits 1 when a comparison that must hold does not.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from rouge155py import score
from rouge155py.text.unicode import unicode_tokens

# fmt: off
VOCABULARY: dict[str, list[str]] = {
    "de": [
        "Die", "der", "den", "dem", "das", "Katze", "Katzen", "Hund", "Hunde", "Haus", "Häuser",
        "saß", "sitzt", "laufen", "läuft", "gelaufen", "schnell", "großen", "größte", "Straße",
        "Straßen", "über", "und", "nicht", "Regierung", "Regierungen", "München", "Bürger", "heute",
        "Zeitung", "berichtete", "Wahl", "Wahlen", "Ökonomie", "Schüler",
    ],
    "ru": [
        "Кошка", "кошки", "кошку", "собака", "собаки", "дом", "дома", "домов", "сидела", "сидит",
        "бежать", "бежит", "быстро", "большой", "большого", "улица", "улице", "и", "не", "на",
        "правительство", "правительства", "Москва", "Москве", "граждане", "сегодня", "газета",
        "сообщила", "выборы", "выборах", "ёлка", "экономика",
    ],
    "ar": [
        "القطة", "قطة", "قطط", "الكلب", "كلاب", "البيت", "بيوت", "جلست", "يجلس", "يركض", "بسرعة",
        "الكبير", "كبيرة", "الشارع", "شوارع", "و", "لا", "على", "الحكومة", "حكومات", "القاهرة",
        "المواطنون", "اليوم", "الصحيفة", "ذكرت", "الانتخابات", "الاقتصاد", "مُدرِّس",
    ],
    "zh": [
        "猫", "小猫", "狗", "房子", "坐", "坐在", "跑", "跑得", "很快", "大", "街道", "和", "不",
        "在", "上", "政府", "北京", "市民", "今天", "报纸", "报道", "选举", "经济", "学生", "的",
        "了", "是", "我们", "他们",
    ],
    "ja": [
        "猫", "ねこ", "ネコ", "犬", "家", "座った", "座る", "走る", "走った", "速く", "大きな",
        "通り", "と", "は", "が", "を", "に", "政府", "東京", "市民", "今日", "新聞", "報じた",
        "選挙", "経済", "学生", "コンピューター", "ニュース",
    ],
    "hi": [
        "बिल्ली", "बिल्लियाँ", "कुत्ता", "कुत्ते", "घर", "घरों", "बैठी", "बैठा", "दौड़ता", "तेज़ी",
        "बड़ा", "बड़ी", "सड़क", "और", "नहीं", "पर", "सरकार", "दिल्ली", "नागरिक", "आज", "अख़बार",
        "बताया", "चुनाव", "अर्थव्यवस्था", "छात्र", "है", "में",
    ],
}
# fmt: on
PUNCTUATION: dict[str, list[str]] = {
    "de": [",", ".", "!", "?", "„", "“", "-", ":"],
    "ru": [",", ".", "!", "?", "«", "»", "—", ";"],
    "ar": ["،", ".", "؟", "!", "؛", "«", "»"],
    "zh": ["，", "。", "！", "？", "、", "《", "》", "“", "”"],
    "ja": ["、", "。", "！", "？", "「", "」", "・"],
    "hi": [",", "।", "!", "?", "-", "॥"],
}
WRITTEN_WITHOUT_SPACES = {"zh", "ja"}
LATIN = ["iPhone", "COVID-19", "NATO", "Wi-Fi", "EU", "ok"]
LANGUAGES = tuple(VOCABULARY)
METRICS = ("ROUGE-1", "ROUGE-2", "ROUGE-L")
PEER = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2"}
ALL_EQUAL = 1e-9  # "equal" for values computed by two programs from the same counts


def _word(language: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.03:
        return str(rng.randint(0, 2030))
    if roll < 0.06:
        return rng.choice(LATIN)
    word = rng.choice(VOCABULARY[language])
    if rng.random() < 0.1 and word[:1].lower() != word[:1].upper():
        word = word.upper() if rng.random() < 0.3 else word.capitalize()
    return word


def _sentence_text(words: list[str], language: str, rng: random.Random) -> str:
    joiner = "" if language in WRITTEN_WITHOUT_SPACES else " "
    parts = []
    for word in words:
        parts.append(word)
        if rng.random() < 0.12:
            parts.append(rng.choice(PUNCTUATION[language]))
    return joiner.join(parts) + rng.choice(PUNCTUATION[language])


def _perturbed(words: list[str], language: str, rng: random.Random) -> list[str]:
    if rng.random() < 0.1:
        return [_word(language, rng) for _ in range(rng.randint(1, 15))]
    out = []
    for word in words:
        roll = rng.random()
        if roll < 0.15:
            continue
        if roll < 0.3:
            out.append(_word(language, rng))
        else:
            out.append(word)
        if rng.random() < 0.1:
            out.append(_word(language, rng))
    if len(out) > 2 and rng.random() < 0.3:
        i, j = rng.randrange(len(out)), rng.randrange(len(out))
        out[i], out[j] = out[j], out[i]
    return out or [_word(language, rng)]


def generate_pairs(
    language: str, count: int, rng: random.Random, sentences: int = 1
) -> list[tuple[str, str]]:
    """``count`` (prediction, reference) pairs, each summary of up to ``sentences`` lines."""
    pairs = []
    while len(pairs) < count:
        reference, prediction = [], []
        for _ in range(rng.randint(1, sentences)):
            words = [_word(language, rng) for _ in range(rng.randint(1, 25))]
            reference.append(_sentence_text(words, language, rng))
            prediction.append(_sentence_text(_perturbed(words, language, rng), language, rng))
        if rng.random() < 0.3:
            rng.shuffle(prediction)
        pair = ("\n".join(prediction), "\n".join(reference))
        if all(unicode_tokens(text) for text in pair):  # no empty summary: both programs say 0 there
            pairs.append(pair)
    return pairs


class SharedTokenizer:
    """rouge-score's tokenizer interface around rouge155py's ``--lang`` tokens."""

    def tokenize(self, text: str) -> list[str]:
        return unicode_tokens(text)


def _fmt5(value: float) -> str:
    return f"{value:7.5f}"


def _f(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


@dataclass
class Outcome:
    """What a cross-check found: pair counts, largest differences, failures and known differences."""

    pairs: int = 0
    by_language: dict[str, int] = field(default_factory=dict)
    max_diff: dict[str, float] = field(default_factory=dict)  # "ROUGE-1 R t0" -> largest |ours - theirs|
    failures: list[str] = field(default_factory=list)
    lsum_compared: int = 0
    lsum_differ: int = 0
    plain_l_differ: int = 0  # of those, pairs where rouge-score's rougeL (no sentences) differs
    f_rounding_differ: int = 0  # -t 0 F that differs from rouge-score's rounded unrounded F

    def note(self, key: str, diff: float) -> None:
        self.max_diff[key] = max(self.max_diff.get(key, 0.0), diff)


def _instance_rows(report: Any) -> dict[tuple[str, str], tuple[float, float, float]]:
    rows = {}
    for row in report.to_rows():
        if row["row"] == "instance":
            if row["recall"] is not None:
                rows[(row["metric"], row["eval_id"])] = (row["recall"], row["precision"], row["f"])
            else:
                rows[(row["metric"], row["eval_id"])] = (
                    row["model_count"],
                    row["peer_count"],
                    row["hit_count"],
                )
    return rows


def crosscheck(
    pairs: Sequence[tuple[str, str]], language: str, outcome: Outcome, multi: Sequence[bool]
) -> None:
    """Compare rouge155py's per-item rows on ``pairs`` with rouge-score's scores.

    ``multi[i]``: pair i has summaries of several lines (ROUGE-L against rougeLsum).
    """
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(
        ["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=False, tokenizer=SharedTokenizer()
    )
    predictions = [p for p, _ in pairs]
    references = [r for _, r in pairs]
    rounded = _instance_rows(score(predictions, references, lang=language, max_ngram=2, resamples=1))
    counts = _instance_rows(
        score(predictions, references, lang=language, max_ngram=2, counting=1, resamples=1)
    )
    outcome.pairs += len(pairs)
    outcome.by_language[language] = outcome.by_language.get(language, 0) + len(pairs)
    for i, (prediction, reference) in enumerate(pairs):
        theirs = scorer.score(reference, prediction)
        eval_id = str(i + 1)
        for metric in METRICS:
            if metric == "ROUGE-L":
                peer = theirs["rougeLsum"] if multi[i] else theirs["rougeL"]
            else:
                peer = theirs[PEER[metric]]
            expected = (peer.recall, peer.precision, peer.fmeasure)
            model_count, peer_count, hit = counts[(metric, eval_id)]
            recall = hit / model_count if model_count else 0.0
            precision = hit / peer_count if peer_count else 0.0
            exact = (recall, precision, _f(precision, recall))
            r, p, f = rounded[(metric, eval_id)]
            diffs = [abs(a - b) for a, b in zip(exact, expected)]
            if metric == "ROUGE-L" and multi[i]:
                outcome.lsum_compared += 1
                plain = theirs["rougeL"]
                if abs(plain.fmeasure - exact[2]) > ALL_EQUAL or abs(plain.recall - exact[0]) > ALL_EQUAL:
                    outcome.plain_l_differ += 1
                if max(diffs) > ALL_EQUAL:
                    outcome.lsum_differ += 1
                    continue
            where = f"{language} pair {eval_id} {metric}"
            for name, diff in zip("RPF", diffs):
                outcome.note(f"{metric} {name} (counts, -t 1)", diff)
                if diff > ALL_EQUAL:
                    outcome.failures.append(f"{where} {name} from counts: ours {exact} theirs {expected}")
            for name, ours, value in (("R", r, expected[0]), ("P", p, expected[1])):
                outcome.note(f"{metric} {name} (rounded, -t 0)", abs(ours - value))
                if _fmt5(ours) != _fmt5(value):
                    outcome.failures.append(f"{where} {name}: ours {ours} theirs {value}")
            outcome.note(f"{metric} F (rounded, -t 0)", abs(f - expected[2]))
            their_f = _f(float(_fmt5(expected[1])), float(_fmt5(expected[0])))
            if _fmt5(f) != _fmt5(their_f):
                outcome.failures.append(f"{where} F: ours {f} theirs from rounded R, P {their_f}")
            if _fmt5(f) != _fmt5(expected[2]):
                outcome.f_rounding_differ += 1


def run(pairs_per_language: int, languages: Sequence[str], seed: int) -> Outcome:
    """Half the pairs of each language have one sentence, half up to four."""
    outcome = Outcome()
    for language in languages:
        rng = random.Random(f"{seed}-{language}")
        single = pairs_per_language - pairs_per_language // 2
        pairs = generate_pairs(language, single, rng) + generate_pairs(
            language, pairs_per_language - single, rng, sentences=4
        )
        multi = [len(p.splitlines()) > 1 or len(r.splitlines()) > 1 for p, r in pairs]
        crosscheck(pairs, language, outcome, multi)
    return outcome


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200, help="pairs per language (default 200)")
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES), choices=LANGUAGES)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(list(argv) or None)
    started = time.perf_counter()
    outcome = run(args.pairs, args.languages, args.seed)
    print(f"pairs: {outcome.pairs} ({', '.join(f'{k} {v}' for k, v in outcome.by_language.items())})")
    for key in sorted(outcome.max_diff):
        print(f"max |rouge155py - rouge-score| {key}: {outcome.max_diff[key]:.3g}")
    print(
        f"ROUGE-L on several sentences: {outcome.lsum_compared} pairs, "
        f"{outcome.lsum_differ} differ from rougeLsum (not a failure), "
        f"{outcome.plain_l_differ} from rougeL (no sentences)"
    )
    print(
        f"-t 0 F (from rounded R and P) unequal to rouge-score's F at 5 decimals: "
        f"{outcome.f_rounding_differ} (the Perl's rule; not a failure)"
    )
    print(f"failures: {len(outcome.failures)}  ({time.perf_counter() - started:.1f} s)")
    for failure in outcome.failures[:20]:
        print("  " + failure)
    return 1 if outcome.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
