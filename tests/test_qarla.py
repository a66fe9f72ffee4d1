"""QARLA (rouge155py.stats.qarla) against the definitions evaluated by plain loops, a worked
example by hand, the sampled estimates' intervals, and the refusals."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from rouge155py.errors import ComputeError, UsageError
from rouge155py.inputs.config import Eval
from rouge155py.stats.qarla import (
    QarlaInput,
    jack,
    king,
    king_table,
    qarla,
    queen,
    similarities,
)

NAN = math.nan

# ---------------------------------------------------------------- the definitions, by loops
# sims[x][i][j] = x(summary i, summary j), the second the reference; written apart from the
# module: nested lists and loops over every triple and pair.


def bf_queen(to_model: Any, mm: list, models: list[int], rule: str) -> float:
    """P over triples (m, m', m'') of `models` that x(c, m) >= x(m', m'') for every x;
    to_model(x, m) = x(c, m)."""
    hits = total = 0
    for m in models:
        for m1 in models:
            for m2 in models:
                if m1 == m2 or (rule == "distinct" and (m == m1 or m == m2)):
                    continue
                total += 1
                if all(to_model(x, m) >= mm[x][m1][m2] for x in range(len(mm))):
                    hits += 1
    return hits / total


def bf_peer_queens(pm: list, mm: list, rule: str) -> list[float]:
    models = list(range(len(mm[0])))
    return [bf_queen(lambda x, m, a=a: pm[x][a][m], mm, models, rule) for a in range(len(pm[0]))]


def bf_left_out(pm: list, mm: list, rule: str) -> list[tuple[float, list[float]]]:
    """For each model m: its QUEEN against the others, and each peer's against the others."""
    found = []
    n = len(mm[0])
    for m in range(n):
        rest = [i for i in range(n) if i != m]
        own = bf_queen(lambda x, r, m=m: mm[x][m][r], mm, rest, rule)
        peers = [bf_queen(lambda x, r, a=a: pm[x][a][r], mm, rest, rule) for a in range(len(pm[0]))]
        found.append((own, peers))
    return found


def bf_king(pm: list, mm: list, rule: str) -> float:
    found = bf_left_out(pm, mm, rule)
    return sum(1 for own, peers in found if all(own > q for q in peers)) / len(found)


def bf_jack(pm: list, mm: list, pp: list, rule: str, mutual: bool) -> float:
    positive = [q > 0 for q in bf_peer_queens(pm, mm, rule)]
    peers, metrics = range(len(pm[0])), range(len(pm))
    count = 0
    for m in range(len(mm[0])):
        for a in peers:
            if any(
                a != b
                and positive[a]
                and positive[b]
                and all(pp[x][a][b] <= pm[x][a][m] for x in metrics)
                and (not mutual or all(pp[x][b][a] <= pm[x][b][m] for x in metrics))
                for b in peers
            ):
                count += 1
                break
    return count / len(mm[0])


# ---------------------------------------------------------------- random small test sets

LEVELS = (0.0, 0.1, 0.2, 0.25, 0.5)
SYSTEMS = [f"S{k}" for k in range(8)]


def random_case(
    rng: random.Random, inputs: int, models: tuple[int, int], peers: tuple[int, int], metrics: int
):
    cases, lists = [], []
    for k in range(inputs):
        n_m, n_a = rng.randint(*models), rng.randint(*peers)
        names = rng.sample(SYSTEMS, n_a)

        def square(n: int) -> list:
            return [
                [[NAN if i == j else rng.choice(LEVELS) for j in range(n)] for i in range(n)]
                for _ in range(metrics)
            ]

        pm = [[[rng.choice(LEVELS) for _ in range(n_m)] for _ in range(n_a)] for _ in range(metrics)]
        mm, pp = square(n_m), square(n_a)
        lists.append((names, pm, mm, pp))
        cases.append(QarlaInput(f"D{k}", names, np.array(pm), np.array(mm), np.array(pp)))
    return cases, lists


def close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-12


@pytest.mark.slow
def test_equals_the_definitions_on_200_random_sets():
    rng = random.Random(2005)
    for trial in range(200):
        rule = rng.choice(["distinct", "pair"])
        mutual = rng.random() < 0.3
        x_count = rng.randint(1, 3)
        cases, lists = random_case(rng, rng.randint(2, 5), (3, 6), (1, 6), x_count)
        metrics = [f"x{k}" for k in range(x_count)]
        found = qarla(metrics, cases, triples=rule, mutual=mutual)
        assert found.computed == "exact", trial
        short = any(len(mm[0]) < (4 if rule == "distinct" else 3) for _, _, mm, _ in lists)
        per_system: dict[str, list[float]] = {}
        per_model: dict[str, list[float]] = {}
        kings, jacks = [], []
        for k, (names, pm, mm, pp) in enumerate(lists):
            mine = found.inputs[k]
            queens = bf_peer_queens(pm, mm, rule)
            # each input's values are hits / triples, as the loops make them: equal exactly
            assert [mine.systems[n].value for n in names] == queens, trial
            assert [e.value for e in queen(pm, mm, triples=rule)] == queens, trial
            for name, q in zip(names, queens):
                per_system.setdefault(name, []).append(q)
            expected_jack = bf_jack(pm, mm, pp, rule, mutual)
            assert mine.jack.value == expected_jack == jack(pm, mm, pp, triples=rule, mutual=mutual).value, (
                trial
            )
            jacks.append(expected_jack)
            if short:
                assert mine.king is None and not mine.models
                continue
            left_out = bf_left_out(pm, mm, rule)
            expected_king = bf_king(pm, mm, rule)
            assert mine.king is not None and mine.king.value == expected_king, trial
            assert king(pm, mm, triples=rule).value == expected_king, trial
            kings.append(expected_king)
            for i, (own, _) in enumerate(left_out):
                assert mine.models[str(i + 1)].value == own, trial
                per_model.setdefault(str(i + 1), []).append(own)
        assert set(found.systems) == set(per_system)
        for name, values in per_system.items():
            e = found.systems[name]
            assert close(e.value, sum(values) / len(values)) and e.inputs == len(values), (trial, name)
            assert e.low == e.value == e.high and e.exact
        assert close(found.jack.value, sum(jacks) / len(jacks)), trial
        if short:
            assert found.king is None and not found.models and found.notes
        else:
            assert found.king is not None and close(found.king.value, sum(kings) / len(kings)), trial
            for name, values in per_model.items():
                assert close(found.models[name].value, sum(values) / len(values)), (trial, name)


def test_equals_the_definitions_on_a_few_random_sets():
    """The fast tier's share of the test above."""
    rng = random.Random(43)
    for _ in range(15):
        _, lists = random_case(rng, 2, (4, 5), (1, 5), rng.randint(1, 3))
        for _, pm, mm, pp in lists:
            assert [e.value for e in queen(pm, mm)] == bf_peer_queens(pm, mm, "distinct")
            assert king(pm, mm).value == bf_king(pm, mm, "distinct")
            assert jack(pm, mm, pp).value == bf_jack(pm, mm, pp, "distinct", False)


# ---------------------------------------------------------------- a worked example
# Three models, two peers (a, b), one metric x; x(s, r) with r the reference:
#
#   x(m1, m2) = .5   x(m1, m3) = .4   x(m2, m1) = .5   x(m2, m3) = .3   x(m3, m1) = .4   x(m3, m2) = .35
#   x(a, m1) = .6    x(a, m2) = .4    x(a, m3) = .2
#   x(b, m1) = .3    x(b, m2) = .3    x(b, m3) = .3
#   x(a, b) = .35    x(b, a) = .35
#
# QUEEN (m, m', m'' all different: 6 triples; for each m the pairs (m', m'') are the other two
# models in both orders):
#   m = m1: x(m2, m3) = .3, x(m3, m2) = .35;  m = m2: x(m1, m3) = x(m3, m1) = .4;
#   m = m3: x(m1, m2) = x(m2, m1) = .5.
#   a: m1: .6 >= .3 and .35 (2); m2: .4 >= .4 twice, ties count (2); m3: .2 < .5 (0)  -> 4/6 = 2/3
#   b: m1: .3 >= .3 (1), .3 < .35 (0); m2: .3 < .4 (0); m3: .3 < .5 (0)              -> 1/6
# JACK: both peers have QUEEN > 0. Pair (a, b): x(a, b) = .35 <= x(a, m) for m1 (.6) and m2
#   (.4), not m3 (.2); pair (b, a): x(b, a) = .35 > x(b, m) = .3 for every m. So m1 and m2
#   have a pair, m3 none                                                               -> 2/3
#   mutual (both x(a, b) <= x(a, m) and x(b, a) <= x(b, m)): never                        -> 0
# KING needs 4 models with all-different triples. With triples="pair" (only m' != m''), each
# model left out leaves two models {p, q}: triples r in {p, q}, (r', r'') = (p, q) or (q, p): 4.
#   m1 out, pairs x(m2, m3) = .3, x(m3, m2) = .35:
#     m1: x(m1, m2) = .5 >= both, x(m1, m3) = .4 >= both                            -> 4/4
#     a:  x(a, m2) = .4 >= both, x(a, m3) = .2 neither                              -> 2/4
#     b:  x(b, m2) = .3 >= .3 only, x(b, m3) = .3 >= .3 only                        -> 2/4
#     1 > 2/4 and 2/4: m1 wins
#   m2 out, pairs x(m1, m3) = x(m3, m1) = .4:
#     m2: x(m2, m1) = .5 both, x(m2, m3) = .3 neither -> 2/4; a: .6 both, .2 neither -> 2/4;
#     b: .3 never -> 0.  2/4 is not above a's 2/4: m2 loses (ties count against)
#   m3 out, pairs x(m1, m2) = x(m2, m1) = .5:
#     m3: .4, .35 never -> 0; a: .6 both, .4 neither -> 2/4: m3 loses
#   KING = 1/3; the models' QUEENs (left out): m1 1, m2 1/2, m3 0.
#   (QUEEN under "pair" on the three models: 18 triples; a: m1 6, m2 4 (.4 >= .4, .4, .3, .35),
#   m3 0 -> 10/18 = 5/9; b: .3 >= .3 once per m -> 3/18 = 1/6.)

WORKED_MM = [[NAN, 0.5, 0.4], [0.5, NAN, 0.3], [0.4, 0.35, NAN]]
WORKED_PM = [[0.6, 0.4, 0.2], [0.3, 0.3, 0.3]]
WORKED_PP = [[NAN, 0.35], [0.35, NAN]]


def worked_input() -> QarlaInput:
    return QarlaInput("D1", ["a", "b"], np.array([WORKED_PM]), np.array([WORKED_MM]), np.array([WORKED_PP]))


def test_worked_example():
    assert [e.value for e in queen(WORKED_PM, WORKED_MM)] == [4 / 6, 1 / 6]
    assert jack(WORKED_PM, WORKED_MM, WORKED_PP).value == 2 / 3
    assert jack(WORKED_PM, WORKED_MM, WORKED_PP, mutual=True).value == 0
    assert king(WORKED_PM, WORKED_MM, triples="pair").value == 1 / 3
    assert [e.value for e in queen(WORKED_PM, WORKED_MM, triples="pair")] == [10 / 18, 3 / 18]

    found = qarla(["x"], [worked_input()])
    assert {n: e.value for n, e in found.systems.items()} == {"a": 4 / 6, "b": 1 / 6}
    assert found.jack.value == 2 / 3
    assert found.king is None and found.models == {}
    assert found.notes and "4 models" not in found.notes[0] and "3 models in all: D1" in found.notes[0]

    paired = qarla(["x"], [worked_input()], triples="pair")
    assert paired.king is not None and paired.king.value == 1 / 3
    assert {n: e.value for n, e in paired.models.items()} == {"1": 1.0, "2": 0.5, "3": 0.0}
    assert paired.computed == "exact" and "triples:pair" in paired.signature
    rows = {(r["measure"], r["kind"], r["name"]): r for r in paired.to_dicts()}
    assert rows["KING", "metrics", "x"]["value"] == 1 / 3
    assert rows["QUEEN", "system", "a"]["value"] == 10 / 18
    assert rows["JACK", "test set", ""]["computed"] == "exact"


def test_king_needs_a_model_more_than_queen():
    with pytest.raises(ComputeError, match=r"KING needs 4 models or more") as caught:
        king(WORKED_PM, WORKED_MM)
    assert "\n" not in str(caught.value)


# ---------------------------------------------------------------- sampled estimates


def sampled_case(seed: int) -> list[QarlaInput]:
    cases, _ = random_case(random.Random(seed), 3, (12, 12), (5, 5), 2)
    return cases


def test_sampled_intervals_cover_the_exact_values():
    """12 models: 1,320 triples a QUEEN, 11,880 a KING; with max_exact=1,000 both are drawn."""
    cases = sampled_case(7)
    exact = qarla(["x0", "x1"], cases)
    assert exact.computed == "exact" and exact.king is not None
    covered: dict[str, int] = {}

    def count(key: str, e: Any, truth: float) -> None:
        covered[key] = covered.get(key, 0) + int(e.low <= truth <= e.high)

    for seed in range(100):
        drawn = qarla(["x0", "x1"], cases, max_exact=1000, samples=300, seed=seed)
        assert drawn.computed == "sampled"
        for name, e in drawn.systems.items():
            assert e.draws == 300 * e.inputs and e.low <= e.value <= e.high
            count(f"QUEEN {name}", e, exact.systems[name].value)
        first = drawn.inputs[0]
        for name, e in first.systems.items():
            count(f"input QUEEN {name}", e, exact.inputs[0].systems[name].value)
        assert drawn.king is not None and drawn.king.low <= drawn.king.value <= drawn.king.high
        count("KING", drawn.king, exact.king.value)
        count("JACK", drawn.jack, exact.jack.value)
    assert all(n >= 90 for n in covered.values()), covered
    assert covered["JACK"] == 100  # bounds, not a confidence interval


def test_jack_bounds_hold_where_a_positive_queen_is_missed():
    """b's QUEEN is 2/24 (x(b, m) = .1 reaches only x(m2, m3) = .1, for m = m1 or m4): five
    draws often miss it, and JACK then finds no pair of peers above zero, while the exact JACK
    is 1 (x(a, b) = 0 is below every x(a, m))."""
    mm = [[NAN if i == j else (0.1 if (i, j) == (1, 2) else 0.5) for j in range(4)] for i in range(4)]
    pm, pp = [[0.6] * 4, [0.1] * 4], [[NAN, 0.0], [0.0, NAN]]
    assert [e.value for e in queen(pm, mm)] == [1.0, 2 / 24]
    truth = bf_jack([pm], [mm], [pp], "distinct", False)
    assert truth == jack(pm, mm, pp).value == 1.0
    missed = 0
    for seed in range(30):
        e = jack(pm, mm, pp, max_exact=0, samples=5, seed=seed)
        assert e.low <= truth <= e.high and e.computed == "sampled" and e.draws == 5
        missed += e.value < truth
    assert missed > 0


def test_sampling_is_seeded_and_counted():
    cases = sampled_case(3)
    one = qarla(["x0", "x1"], cases, max_exact=1000, samples=200, seed=5)
    assert one == qarla(["x0", "x1"], cases, max_exact=1000, samples=200, seed=5)
    other = qarla(["x0", "x1"], cases, max_exact=1000, samples=200, seed=6)
    assert one.systems != other.systems
    assert "computed:sampled" in one.signature and "seed:5" in one.signature
    assert one.inputs[0].king is not None and one.inputs[0].king.draws == 12 * 200
    assert [r["computed"] for r in one.to_dicts()] == ["sampled"] * len(one.to_dicts())


def test_mixed_inputs_pool_the_drawn_ones():
    rng = random.Random(11)
    small, _ = random_case(rng, 1, (4, 4), (3, 3), 1)
    large, _ = random_case(rng, 1, (12, 12), (3, 3), 1)
    large = [QarlaInput("D9", small[0].peers, large[0].peer_model, large[0].model_model, large[0].peer_peer)]
    found = qarla(["x"], [*small, *large], max_exact=100, samples=500)
    e = found.systems[small[0].peers[0]]
    assert e.computed == "mixed" and e.inputs == 2 and e.draws == 500
    parts = [i.systems[small[0].peers[0]] for i in found.inputs]
    assert parts[0].exact and not parts[1].exact
    assert e.value == pytest.approx((parts[0].value + parts[1].value) / 2, abs=1e-12)
    assert e.low == pytest.approx((parts[0].value + parts[1].low) / 2, abs=1e-12)


# ---------------------------------------------------------------- KING of several metric sets


def test_king_table_is_king_of_each_set():
    rng = random.Random(21)
    cases, _ = random_case(rng, 3, (4, 5), (2, 5), 3)
    names = ["r1", "r2", "su4"]
    rows = king_table(names, cases)
    assert [r.metrics for r in rows] == [("r1",), ("r2",), ("su4",), ("r1", "r2", "su4")]
    for row in rows:
        columns = [names.index(n) for n in row.metrics]
        subset = [
            QarlaInput(
                c.eval_id, c.peers, c.peer_model[columns], c.model_model[columns], c.peer_peer[columns]
            )
            for c in cases
        ]
        assert row.king == qarla(list(row.metrics), subset).king
    assert len(king_table(names, cases, "all")) == 7
    assert [r.metrics for r in king_table(names, cases, [["su4", "r1"]])] == [("su4", "r1")]
    with pytest.raises(UsageError, match="known metrics"):
        king_table(names, cases, [["r3"]])


# ---------------------------------------------------------------- from texts


def overlap(text: str, reference: str) -> float:
    """Unigram recall of the reference: a stand-in for ROUGE-1."""
    ref = reference.split()
    return sum(1 for w in ref if w in text.split()) / len(ref)


def length_ratio(text: str, reference: str) -> float:
    return min(len(text), len(reference)) / max(len(text), len(reference))


def test_similarities_calls_the_metrics_on_every_pair():
    peers = {"s1": "the cat sat", "s2": "a dog ran far"}
    models = ["the cat sat down", "a cat sat", "the dog sat", "cat and dog"]
    metrics = {"overlap": overlap, "length": length_ratio}
    names, found = similarities(
        [Eval("D7", peers, models), (peers, {"A": models[0], "B": models[1], "C": models[2]})], metrics
    )
    assert names == ["overlap", "length"]
    first, second = found
    assert first.eval_id == "D7" and first.peers == ["s1", "s2"] and first.model_ids == ["1", "2", "3", "4"]
    assert second.eval_id == "2" and second.model_ids == ["A", "B", "C"]
    texts = list(peers.values())
    for x, sim in enumerate(metrics.values()):
        for a, text in enumerate(texts):
            for m, model in enumerate(models):
                assert first.peer_model[x, a, m] == sim(text, model)
            assert first.peer_peer[x, a, 1 - a] == sim(text, texts[1 - a])
            assert math.isnan(first.peer_peer[x, a, a])
        for i, model in enumerate(models):
            for j, other in enumerate(models):
                value = first.model_model[x, i, j]
                assert math.isnan(value) if i == j else value == sim(model, other)
    result = qarla(names, found)
    assert set(result.systems) == {"s1", "s2"} and result.inputs[1].king is None and result.king is None


def test_similarities_refuse_nan_and_non_numbers():
    peers, models = {"s1": "a b", "s2": "c"}, ["a", "b", "c"]
    with pytest.raises(
        ComputeError, match=r"input '1': metric 'nan' of peer 's1' against peer 's2' is NaN"
    ) as caught:
        similarities([(peers, models)], {"nan": lambda a, b: math.nan})
    assert "\n" not in str(caught.value)
    with pytest.raises(UsageError, match="not a number"):
        similarities([(peers, models)], {"text": lambda a, b: "0.5"})
    with pytest.raises(UsageError, match="callables"):
        similarities([(peers, models)], ["overlap"])


# ---------------------------------------------------------------- refusals


def test_fewer_than_three_models_is_one_clear_error():
    pm, mm = [[0.1, 0.2]], [[NAN, 0.3], [0.3, NAN]]
    for call in (lambda: queen(pm, mm), lambda: jack(pm, mm, [[NAN]])):
        with pytest.raises(
            ComputeError,
            match=r"QUEEN needs 3 models or more \(m, m' and m'' are different models\), it has 2",
        ) as caught:
            call()
        assert "\n" not in str(caught.value)
    case = QarlaInput("D3", ["s"], np.array([pm]), np.array([mm]), np.array([[[NAN]]]))
    with pytest.raises(ComputeError, match="input 'D3': QUEEN needs 3 models"):
        qarla(["x"], [case])
    # with m' != m'' only, two models are enough for QUEEN and three for KING
    assert [e.value for e in queen(pm, mm, triples="pair")] == [0.0]
    with pytest.raises(ComputeError, match="QUEEN needs 2 models"):
        queen([[0.1]], [[NAN]], triples="pair")


def test_nan_similarities_are_refused_off_the_diagonal_only():
    mm = np.array(WORKED_MM)
    assert queen(WORKED_PM, mm)  # NaN on the diagonals: never read
    holed = mm.copy()
    holed[2, 0] = NAN
    with pytest.raises(
        ComputeError, match=r"model-model similarity of summary 3 to summary 1 is NaN"
    ) as caught:
        queen(WORKED_PM, holed)
    assert "\n" not in str(caught.value)
    pm = np.array(WORKED_PM)
    pm[1, 1] = NAN
    with pytest.raises(ComputeError, match="peer-model similarity of summary 2 to summary 2 is NaN"):
        queen(pm, mm)
    pp = np.array(WORKED_PP)
    pp[0, 1] = NAN
    with pytest.raises(ComputeError, match="input 'D1': metric 1's peer-peer"):
        qarla(["x"], [QarlaInput("D1", ["a", "b"], np.array([WORKED_PM]), mm[None], pp[None])])


def test_settings_and_shapes_are_checked():
    with pytest.raises(UsageError, match="triples must be one of distinct, pair"):
        queen(WORKED_PM, WORKED_MM, triples="all")
    with pytest.raises(UsageError, match="max_exact"):
        queen(WORKED_PM, WORKED_MM, max_exact=-1)
    with pytest.raises(UsageError, match="do not agree"):
        queen(WORKED_PM, [[NAN, 0.1], [0.1, NAN]])
    with pytest.raises(UsageError, match="do not agree"):
        qarla(["x", "y"], [worked_input()])
    with pytest.raises(UsageError, match="each named once"):
        qarla(["x", "x"], [worked_input()])


def test_one_peer_has_no_jack_and_no_peer_loses_king():
    pm = [[0.6, 0.4, 0.2, 0.3]]
    mm = [[NAN, 0.5, 0.4, 0.1], [0.5, NAN, 0.3, 0.2], [0.4, 0.35, NAN, 0.3], [0.1, 0.2, 0.3, NAN]]
    assert jack(pm, mm, [[NAN]]).value == 0.0
    empty = np.zeros((1, 0, 4))
    assert king(empty, [mm]).value == 1.0
    assert queen(empty, [mm]) == []


def test_unknown_settings_are_named():
    with pytest.raises(UsageError, match=r"QARLA has no setting sample \(its settings: triples, max_exact"):
        queen(WORKED_PM, WORKED_MM, sample=10)
