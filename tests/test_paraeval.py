"""ParaEval: the paper's own examples worked by hand, tier 1 against brute force, the tables."""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from rouge155py import Rouge, score
from rouge155py.errors import InputError, UsageError
from rouge155py.metrics.paraeval import (
    Candidate,
    ParaEval,
    greedy,
    solve_phrases,
    variant_labels,
)
from rouge155py.metrics.paraphrases import TableSpec, build_table, pivot, read_pairs
from rouge155py.settings.argv import parse_command_line

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "duc-mini" / "rouge-config.xml"
OPTIMALITY_CASES = int(os.environ.get("ROUGE155PY_PARAEVAL_OPTIMALITY_CASES", "3000"))


def _match(pairs: list[tuple[str, str]], peer: str, model: object):
    model_tokens = [s.split() for s in model] if isinstance(model, list) else str(model).split()
    return ParaEval("3", pairs=pairs).match_tokens(peer.split(), model_tokens)


# -- the paper's examples, worked by hand --------------------------------------------------


def test_bombing_and_blowing_up_is_a_tier_two_match() -> None:
    # "blowing up" (2 reference words) and "bombing" (1 peer word): a 2-to-1 paraphrase.
    pairs = [("bombing", "blowing up")]
    m = _match(pairs, "the bombing of the embassy", "they were blowing up the embassy")
    assert m.tier1 == (0, 0)
    assert m.tier2 == (2, 1)
    assert m.words == (Candidate(2, 2, 1, 1),)
    assert m.tier3 == 2  # "the" (once: the model has one) and "embassy"
    counts = ParaEval("3", pairs=pairs).score_pair(
        "the bombing of the embassy".split(), "they were blowing up the embassy".split()
    )
    assert (counts.hit, counts.model_count, counts.peer_hit, counts.peer_count) == (4, 6, 3, 5)
    # Without the table: ROUGE-1's 2 of 6.
    plain = ParaEval("3", pairs=[]).score_pair(
        "the bombing of the embassy".split(), "they were blowing up the embassy".split()
    )
    assert (plain.hit, plain.peer_hit) == (2, 2)


def test_libya_sanctions_is_a_tier_one_match() -> None:
    # A multi-word paraphrase of different lengths: 3 reference words against 2 peer words.
    pairs = [("sanctions against libya", "libya sanctions")]
    m = _match(pairs, "the un lifted libya sanctions", "the un suspended sanctions against libya")
    assert m.phrases == (Candidate(3, 3, 3, 2),)
    assert m.tier1 == (3, 2)
    assert m.tier3 == 2  # "the", "un"
    for variant, (hit, peer_hit) in {
        "3": (5, 4),
        "2": (5, 4),
        "P": (3, 2),
        "T1": (3, 2),
        "T2": (0, 0),
        "T3": (2, 2),
    }.items():
        c = ParaEval(variant, pairs=pairs).score_pair(
            "the un lifted libya sanctions".split(), "the un suspended sanctions against libya".split()
        )
        assert (c.hit, c.model_count, c.peer_hit, c.peer_count) == (hit, 6, peer_hit, 5), variant


def test_tier_two_then_words_and_the_variants_that_skip_it() -> None:
    # Tier 2 takes "sanctions" for "embargo"; ParaEval-2 lets tier 3 match the peer's
    # "sanctions" with the model's own "sanctions" instead.
    pairs = [("embargo", "sanctions")]
    peer, model = "sanctions hit libya", "an embargo and sanctions hit libya"
    m = _match(pairs, peer, model)
    assert m.tier2 == (1, 1) and m.tier3 == 2 and m.tier3_after_tier1 == 3
    three = ParaEval("3", pairs=pairs).score_pair(peer.split(), model.split())
    two = ParaEval("2", pairs=pairs).score_pair(peer.split(), model.split())
    assert (three.hit, three.peer_hit) == (3, 3)
    assert (two.hit, two.peer_hit) == (3, 3)


FIGURE4_PAIRS = [
    ("slapped sanctions on", "imposed sanctions"),
    ("on libya", "against libya"),
    ("put sanctions in place", "imposed sanctions"),
]
FIGURE4_PEER = "the un imposed sanctions against libya"
FIGURE4_MODEL = ["slapped sanctions on libya", "the un put sanctions in place"]


def _sentence_greedy(found: list[Candidate], sentence_of: list[int]) -> int:
    """The paper's foil: each reference sentence in turn takes its own best matches (by brute
    force) among the peer words still free; the reference words matched."""
    taken_peer: set[int] = set()
    total = 0
    for sentence in sorted(set(sentence_of[c.model_start] for c in found)):
        mine = [c for c in found if sentence_of[c.model_start] == sentence]
        best: tuple[int, tuple[Candidate, ...]] = (0, ())
        for size in range(1, len(mine) + 1):
            for chosen in combinations(mine, size):
                if _feasible(chosen) and not any(_peer(c) & taken_peer for c in chosen):
                    best = max(best, (sum(c.model_length for c in chosen), chosen))
        total += best[0]
        for c in best[1]:
            taken_peer |= _peer(c)
    return total


def test_figure_4_global_optimum_beats_sentence_by_sentence_greedy() -> None:
    m = _match(FIGURE4_PAIRS, FIGURE4_PEER, FIGURE4_MODEL)
    # Global: sentence 1 gives up "slapped sanctions on" (3) for "on libya" (2), so that
    # sentence 2 can take "put sanctions in place" (4): 6 reference words, not 3.
    assert m.tier1 == (6, 4)
    assert m.phrases == (Candidate(2, 2, 4, 2), Candidate(6, 4, 2, 2))
    assert m.tier3 == 2  # "the", "un"
    found = [Candidate(0, 3, 2, 2), Candidate(2, 2, 4, 2), Candidate(6, 4, 2, 2)]
    assert _sentence_greedy(found, [0] * 4 + [1] * 6) == 3
    counts = ParaEval("3", pairs=FIGURE4_PAIRS).score_pair(
        FIGURE4_PEER.split(), [s.split() for s in FIGURE4_MODEL]
    )
    assert (counts.hit, counts.model_count, counts.peer_hit, counts.peer_count) == (8, 10, 6, 6)


def test_phrases_stay_inside_sentences() -> None:
    pairs = [("sanctions against libya", "libya sanctions")]
    m = _match(pairs, "libya sanctions", ["sanctions against", "libya"])
    assert m.tier1 == (0, 0)


# -- tier 1 against brute force ------------------------------------------------------------


def _peer(c: Candidate) -> set[int]:
    return set(range(c.peer_start, c.peer_start + c.peer_length))


def _model(c: Candidate) -> set[int]:
    return set(range(c.model_start, c.model_start + c.model_length))


def _feasible(chosen: tuple[Candidate, ...]) -> bool:
    model: set[int] = set()
    peer: set[int] = set()
    for c in chosen:
        if model & _model(c) or peer & _peer(c):
            return False
        model |= _model(c)
        peer |= _peer(c)
    return True


def _brute_force(found: list[Candidate]) -> tuple[int, int]:
    """The best (model words, peer words) over every subset of the candidates."""
    best = (0, 0)
    n = len(found)
    for bits in range(1 << n):
        chosen = tuple(found[i] for i in range(n) if bits >> i & 1)
        if _feasible(chosen):
            best = max(best, (sum(c.model_length for c in chosen), sum(c.peer_length for c in chosen)))
    return best


def _random_candidates(rng: random.Random) -> tuple[list[Candidate], int]:
    model_words, peer_words = rng.randint(2, 14), rng.randint(2, 14)
    found = set()
    for _ in range(rng.randint(1, 13)):
        ml, pl = rng.randint(2, min(4, model_words)), rng.randint(2, min(4, peer_words))
        found.add(Candidate(rng.randint(0, model_words - ml), ml, rng.randint(0, peer_words - pl), pl))
    return sorted(found), peer_words


@pytest.mark.slow
def test_tier_one_is_optimal_against_brute_force() -> None:
    rng = random.Random(26)
    largest = 0
    for _ in range(OPTIMALITY_CASES):
        found, peer_words = _random_candidates(rng)
        chosen, exact = solve_phrases(found, peer_words)
        assert exact
        assert _feasible(tuple(chosen)) and set(chosen) <= set(found)
        value = (sum(c.model_length for c in chosen), sum(c.peer_length for c in chosen))
        assert value == _brute_force(found), found
        largest = max(largest, len(found))
    assert largest >= 12


def _naive_candidates(
    table: list[tuple[list[str], list[str]]], model: list[list[str]], peer: list[list[str]]
):
    """Every (model span, peer span) pair the table pairs, either way, by plain comparison."""

    def spans(sentences: list[list[str]]):
        at = 0
        for s in sentences:
            for i in range(len(s)):
                for j in range(i + 1, len(s) + 1):
                    yield at + i, j - i, tuple(s[i:j])
            at += len(s)

    linked = {(tuple(a), tuple(b)) for a, b in table if a != b} | {
        (tuple(b), tuple(a)) for a, b in table if a != b
    }
    return sorted(
        Candidate(ms, ml, ps, pl)
        for ms, ml, mw in spans(model)
        for ps, pl, pw in spans(peer)
        if (mw, pw) in linked
    )


@pytest.mark.slow
def test_full_matching_against_plain_search() -> None:
    """Random texts and tables: the hashed lookup finds exactly the plain search's candidates,
    tier 1 reaches the brute-force optimum, and the counts add up."""
    rng = random.Random(2606)
    words = "a b c d e f".split()
    for _ in range(max(OPTIMALITY_CASES // 6, 50)):
        model = [[rng.choice(words) for _ in range(rng.randint(1, 6))] for _ in range(rng.randint(1, 3))]
        peer = [[rng.choice(words) for _ in range(rng.randint(1, 6))] for _ in range(rng.randint(1, 3))]
        table = [
            (
                [rng.choice(words) for _ in range(rng.randint(1, 3))],
                [rng.choice(words) for _ in range(rng.randint(1, 3))],
            )
            for _ in range(rng.randint(0, 12))
        ]
        metric = ParaEval("3", pairs=[(" ".join(a), " ".join(b)) for a, b in table])
        m = metric.match_tokens(peer, model)
        expected = _naive_candidates(table, model, peer)
        phrases = [c for c in expected if c.model_length > 1 and c.peer_length > 1]
        if len(phrases) <= 14:
            assert (
                sum(c.model_length for c in m.phrases),
                sum(c.peer_length for c in m.phrases),
            ) == _brute_force(phrases)
        assert set(m.phrases) <= set(phrases)
        assert set(m.words) <= {c for c in expected if c.model_length == 1 or c.peer_length == 1}
        assert _feasible(m.phrases + m.words)
        assert m.tier1 == (sum(c.model_length for c in m.phrases), sum(c.peer_length for c in m.phrases))
        assert m.tier2 == (sum(c.model_length for c in m.words), sum(c.peer_length for c in m.words))
        assert m.tier1[0] + m.tier2[0] + m.tier3 <= m.model_words


def test_past_the_limit_a_group_is_matched_greedily_and_said() -> None:
    rng = random.Random(7)
    found, peer_words = _random_candidates(rng)
    while len(found) < 8:
        found, peer_words = _random_candidates(rng)
    chosen, exact = solve_phrases(found, peer_words, limit=2)
    assert not exact
    assert _feasible(tuple(chosen))
    assert chosen == sorted(greedy(found, set(), set()))


def test_greedy_order_prefers_more_reference_words_then_peer_words_then_position() -> None:
    found = [Candidate(0, 1, 0, 1), Candidate(0, 1, 1, 2), Candidate(1, 2, 0, 1), Candidate(3, 1, 3, 1)]
    assert greedy(found, set(), set()) == [
        Candidate(1, 2, 0, 1),
        Candidate(0, 1, 1, 2),
        Candidate(3, 1, 3, 1),
    ]


# -- tables --------------------------------------------------------------------------------


def _words(texts: list[str]):
    from array import array

    vocabulary: dict[str, int] = {}
    ids, offsets = array("i"), array("i", [0])
    for text in texts:
        ids.extend(vocabulary.setdefault(w, len(vocabulary)) for w in text.split())
        offsets.append(len(ids))
    return ids, offsets


def test_ppdb_lines_threshold_and_feature(tmp_path: Path) -> None:
    table = tmp_path / "ppdb-s.txt"
    table.write_text(
        "[NN] ||| Bombing ||| blowing up ||| PPDB2.0Score=3.5 p(e|f)=1.2 ||| 0-0\n"
        "[NN] ||| embargo ||| sanctions ||| PPDB2.0Score=2.9 p(e|f)=4.0 ||| 0-0\n"
        "\n"
        "[VP] ||| sanctions against libya ||| libya sanctions ||| PPDB2.0Score=4.1 p(e|f)=0.5 ||| 0-1 2-0 "
        "||| Equivalence\n"
        "[S] ||| [NP,1] imposed sanctions ||| [NP,1] slapped sanctions ||| PPDB2.0Score=5.0 ||| 0-0 1-1\n"
    )
    pairs = [p for chunk in read_pairs(TableSpec(str(table))) for p in zip(*chunk)]
    assert pairs == [
        ("bombing", "blowing up"),
        ("embargo", "sanctions"),
        ("sanctions against libya", "libya sanctions"),
    ]
    kept = [p for chunk in read_pairs(TableSpec(str(table), None, 3.0)) for p in zip(*chunk)]
    assert [a for a, _ in kept] == ["bombing", "sanctions against libya"]
    kept = [p for chunk in read_pairs(TableSpec(str(table), "p(e|f)", 1.0)) for p in zip(*chunk)]
    assert [a for a, _ in kept] == ["bombing", "embargo"]
    with pytest.raises(InputError, match="line 1: no feature nope"):
        list(read_pairs(TableSpec(str(table), "nope", 1.0)))


def test_tsv_and_gzip_tables_and_malformed_lines(tmp_path: Path) -> None:
    tsv = tmp_path / "pairs.tsv.gz"
    with gzip.open(tsv, "wt") as out:
        out.write("blowing up\tbombing\t0.4\nthe cat\tthe cat\t0.9\nembargo\tsanctions\t0.2\n")
    built = build_table(TableSpec(str(tsv)), _words)
    assert (built.pairs, built.phrases) == (2, 4)  # "the cat" = "the cat" is dropped
    built = build_table(TableSpec(str(tsv), None, 0.3), _words)
    assert built.pairs == 1
    bad = tmp_path / "bad.tsv"
    bad.write_text("one\ttwo\nonly one field\n")
    with pytest.raises(InputError, match="line 2"):
        build_table(TableSpec(str(bad)), _words)
    with pytest.raises(InputError, match="not a regular file"):
        list(read_pairs(TableSpec(str(tmp_path))))
    with pytest.raises(InputError, match="cannot open"):
        list(read_pairs(TableSpec(str(tmp_path / "missing.tsv"))))


def test_a_table_is_tokenized_by_the_summaries_text_stage(tmp_path: Path) -> None:
    # -m stems both sides alike ("bombings" and "bombing" meet); -s drops stopwords on both.
    table = tmp_path / "t.tsv"
    table.write_text("blowing up\tBombings\nthe sanctions against Libya\tlibya's sanctions\n")
    peer, model = ["The bombing of the embassy."], ["They were blowing up the embassy."]
    plain = score(peer, model, paraphrases=str(table), lcs=False)
    stemmed = score(peer, model, paraphrases=str(table), lcs=False, stem=True)
    assert plain.result("ParaEval-3").instances["1.1"][0] == 0.33333  # "the", "embassy"
    assert stemmed.result("ParaEval-3").instances["1.1"][0] == 0.66667  # + "blowing up"
    peer, model = ["The UN lifted Libya's sanctions."], ["The UN lifted the sanctions against Libya."]
    stop = score(peer, model, paraphrases=str(table), lcs=False, stopwords=True, paraeval_variants="T")
    # -s removes "the", "un", "against", "s" from the table as from the summaries: the table's
    # "sanctions libya" / "libya sanctions" pairs the model's last two words with the peer's.
    assert stop.result("ParaEval-T1").instances["1.1"][:2] == (0.66667, 0.66667)
    assert stop.result("ParaEval-T3").instances["1.1"][:2] == (0.33333, 0.33333)  # "lifted"
    kept = score(peer, model, paraphrases=str(table), lcs=False, paraeval_variants="T")
    # Without -s the model holds all of "the sanctions against libya", the peer "libya s sanctions".
    assert kept.result("ParaEval-T1").instances["1.1"][:2] == (0.57143, 0.5)


def test_pivoting_a_moses_table() -> None:
    # english ||| foreign ||| p(e|f) lex p(f|e) lex: p(e2|e1) = sum_f p(f|e1) p(e2|f).
    lines = [
        b"blowing up ||| baozha ||| 0.4 0.1 0.5 0.1\n",
        b"bombing ||| baozha ||| 0.6 0.1 0.7 0.1\n",
        b"bombing ||| hongzha ||| 0.9 0.1 0.3 0.1\n",
        b"air raid ||| hongzha ||| 0.1 0.1 0.8 0.1\n",
    ]
    pairs = {(a, b): p for a, b, p in pivot(iter(lines), 0.0)}
    assert pairs[("blowing up", "bombing")] == pytest.approx(0.5 * 0.6)
    assert pairs[("bombing", "blowing up")] == pytest.approx(0.7 * 0.4)
    assert pairs[("bombing", "air raid")] == pytest.approx(0.3 * 0.1)
    assert pairs[("air raid", "bombing")] == pytest.approx(0.8 * 0.9)
    assert ("bombing", "bombing") not in pairs
    assert {(a, b) for a, b, _ in pivot(iter(lines), 0.25)} == {
        ("blowing up", "bombing"),
        ("bombing", "blowing up"),
        ("air raid", "bombing"),
    }


def test_pivot_command_writes_a_table_the_run_reads(tmp_path: Path) -> None:
    moses = tmp_path / "phrase-table"
    moses.write_bytes(b"blowing up ||| baozha ||| 0.4 0.1 0.5 0.1\nbombing ||| baozha ||| 0.6 0.1 0.7 0.1\n")
    out = tmp_path / "pivoted.tsv"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "rouge155py.paraphrases",
            "--moses",
            str(moses),
            "--out",
            str(out),
            "--threshold",
            "0.1",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text() == "blowing up\tbombing\t0.3\nbombing\tblowing up\t0.28\n"
    report = score(
        ["the bombing"], ["the blowing up"], paraphrases=str(out), lcs=False, paraphrase_threshold=0.29
    )
    assert report.result("ParaEval-3").instances["1.1"][0] == 1.0


# -- the run: options, report, signature, -j ---------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rouge155py", *args], cwd=REPO, capture_output=True, text=True
    )


def test_variants_option() -> None:
    assert variant_labels("3") == ("3",)
    assert variant_labels("T, p,2,3") == ("3", "2", "P", "T1", "T2", "T3")
    with pytest.raises(UsageError, match="unknown variant 'x'"):
        variant_labels("3,x")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["-t", "1"], "needs -t 0"),
        (["-v"], "not with --paraphrases"),
        (["--paraeval-variants", "9"], "unknown variant"),
        (["--paraphrase-threshold", "x"], "needs a number"),
    ],
)
def test_refused_combinations(tmp_path: Path, extra: list[str], words: str) -> None:
    table = tmp_path / "t.tsv"
    table.write_text("a b\tc d\n")
    done = _run("-e", "data", "-a", "-n", "1", "--paraphrases", str(table), *extra, str(EXAMPLE))
    assert done.returncode == 2 and words in done.stderr and done.stderr.count("\n") == 1


def test_missing_table_is_an_input_error() -> None:
    done = _run("-e", "data", "-a", "-n", "1", "--paraphrases", "no-such-table.tsv", str(EXAMPLE))
    assert done.returncode == 4 and "cannot open paraphrase table" in done.stderr


def test_report_rows_json_signature_and_jobs(tmp_path: Path) -> None:
    table = tmp_path / "t.tsv"
    table.write_text("the president\tthe leader\nsaid\tstated\nforces\ttroops\n")
    args = [
        "-e",
        "data",
        "-a",
        "-n",
        "1",
        "-x",
        "-d",
        "--paraphrases",
        str(table),
        "--paraeval-variants",
        "3,T",
    ]
    one = _run(*args, str(EXAMPLE))
    two = _run(*args, "-j", "2", str(EXAMPLE))
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    labels = [line.split()[1] for line in one.stdout.splitlines() if "Average_R" in line]
    assert labels[:5] == ["ROUGE-1", "ParaEval-3", "ParaEval-T1", "ParaEval-T2", "ParaEval-T3"]
    assert "1 ParaEval-T2 Eval " in one.stdout
    signed = _run(*args, "--signature", "--json", str(EXAMPLE))
    document = json.loads(signed.stdout)
    signature = signed.stderr.strip().splitlines()[-1]
    assert document["signature"] == signature
    assert "|paraeval:3+T1+T2+T3|pp:sha256-" in signature
    systems = document["systems"]
    assert set(systems["1"]) == {"ROUGE-1", "ParaEval-3", "ParaEval-T1", "ParaEval-T2", "ParaEval-T3"}
    for peer in systems.values():
        for eval_id, r3 in peer["ParaEval-3"]["instances"].items():
            tiers = sum(peer[f"ParaEval-T{k}"]["instances"][eval_id]["recall"] for k in (1, 2, 3))
            assert abs(tiers - r3["recall"]) < 2e-5
            assert r3["recall"] >= peer["ROUGE-1"]["instances"][eval_id]["recall"]


def test_best_model_keeps_the_model_of_best_recall(tmp_path: Path) -> None:
    table = tmp_path / "t.tsv"
    table.write_text("blowing up\tbombing\n")
    peer = ["the bombing"]
    refs = [["the attack", "they were blowing up the"]]
    a = score(peer, refs, paraphrases=str(table), lcs=False, multi_ref="average")
    b = score(peer, refs, paraphrases=str(table), lcs=False, best_model=True)
    # Model 1: 1 of 2 words, 1 of 2 peer words; model 2: 3 of 5 ("blowing up", "the"), 2 of 2.
    # -f A sums each: R 4/7, P 3/4; -f B keeps model 2 (recall 0.6 > 0.5).
    assert a.result("ParaEval-3").instances["1.1"][:2] == (0.57143, 0.75)
    assert b.result("ParaEval-3").instances["1.1"][:2] == (0.6, 1.0)


def test_command_line_options_reach_the_settings(tmp_path: Path) -> None:
    request = parse_command_line(
        [
            "-a",
            "--paraphrases",
            "t.txt",
            "--paraphrase-feature",
            "p(e|f)",
            "--paraphrase-threshold",
            "0.5",
            "c.xml",
        ]
    )
    metrics = request.options.metrics
    assert (metrics.paraphrases, metrics.paraphrase_feature, metrics.paraphrase_threshold) == (
        "t.txt",
        "p(e|f)",
        0.5,
    )
    assert Rouge(paraphrases="t.txt", paraeval_variants="2,P").options.metrics.paraeval_variants == "2,P"


def test_a_fallback_is_a_warning_and_a_json_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rouge155py.metrics import paraeval

    table = tmp_path / "t.tsv"
    table.write_text("\n".join(f"{a}\t{b}" for a, b in FIGURE4_PAIRS) + "\n")
    peers = [FIGURE4_PEER, "the cat sat"]
    models = [FIGURE4_MODEL, "a cat sat"]
    exact = score(peers, models, paraphrases=str(table), lcs=False, multi_ref="average")
    assert exact.inexact == [] and exact.warnings == []
    assert exact.to_json()["paraeval_inexact"] == []
    monkeypatch.setattr(paraeval, "MAX_STATES", 2)
    cut = score(peers, models, paraphrases=str(table), lcs=False, jobs=2, multi_ref="average")
    assert cut.inexact == ["1.1"]
    assert cut.to_json()["paraeval_inexact"] == ["1.1"]
    assert cut.warnings == [
        "ParaEval: tier 1 matched greedily, not proven optimal, in 1 instance (a group of overlapping "
        "paraphrases past 2 search states): 1.1"
    ]
    # The greedy choice takes "put sanctions in place" (4), then "on libya" (2): the optimum here too.
    assert cut.result("ParaEval-3").instances["1.1"] == exact.result("ParaEval-3").instances["1.1"]


def test_batches_in_any_order_make_the_report_of_one_run(tmp_path: Path) -> None:
    from rouge155py import score_batch, summarize_batches, text_items

    rng = random.Random(11)
    words = "the un libya sanctions imposed lifted against on put in place bombing blowing up a".split()
    table = tmp_path / "t.tsv"
    table.write_text("\n".join(f"{a}\t{b}" for a, b in FIGURE4_PAIRS) + "\nbombing\tblowing up\n")
    peers = [" ".join(rng.choices(words, k=rng.randint(3, 12))) for _ in range(30)]
    refs = [[" ".join(rng.choices(words, k=rng.randint(3, 12))) for _ in range(2)] for _ in range(30)]
    rouge = Rouge(
        paraphrases=str(table), paraeval_variants="3,2,P,T", max_ngram=1, per_eval=True, multi_ref="average"
    )
    whole = rouge.score(peers, refs)
    items = text_items(peers, refs)
    batches = [score_batch(items[k::4], rouge) for k in range(4)]
    merged = summarize_batches(reversed(batches), rouge)
    assert merged.to_legacy() == whole.to_legacy()
    tier_rows = [r for r in whole.results if r.label.startswith("ParaEval-T")]
    assert any(r.summary.average[0] > 0 for r in tier_rows[:2])  # tiers 1 and 2 found something


def test_lang_tokenizes_the_table_by_its_rules(tmp_path: Path) -> None:
    pytest.importorskip("nltk")
    table = tmp_path / "zh.tsv"
    table.write_text("垫子\t地\n", encoding="utf-8")  # two words (characters) against one
    report = score(
        ["猫坐在垫子上。"], ["猫坐在地上。"], lang="zh", max_ngram=1, paraphrases=str(table), lcs=False
    )
    assert report.result("ROUGE-1").instances["1.1"] == (0.8, 0.66667, 0.72727)
    assert report.result("ParaEval-3").instances["1.1"] == (1.0, 1.0, 1.0)
