"""An accumulator's update()/compute()/merge(): the report of one Rouge(...).score() call, byte for byte."""

from __future__ import annotations

import json
import multiprocessing
import pickle
import random
from typing import Any, Mapping, Optional, Union

import pytest
from differential.doors import make_door_case
from tier import first_fast

from rouge155py import Report, Rouge, RougeAccumulator, RougeError, UsageError

DOOR_CASES = 150
WORDS = (
    "the a cat cats dog dogs sat sits on mat mats barked barking at night big red car cars drove "
    "fast 1999 u.s. police said officials were killed in attack"
).split()

Predictions = Union[list[Any], dict[str, list[Any]]]


def _text(rng: random.Random) -> str:
    lines = rng.randint(1, 3)
    return "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 12))) for _ in range(lines))


def _data(seed: int, items: int, systems: Optional[list[str]] = None) -> tuple[Predictions, list[Any]]:
    """Random items: predictions of one system (or of several, as a mapping), one to three references."""
    rng = random.Random(seed)
    references: list[Any] = [
        _text(rng) if rng.random() < 0.4 else [_text(rng) for _ in range(rng.randint(1, 3))]
        for _ in range(items)
    ]
    if systems is None:
        return [_text(rng) for _ in range(items)], references
    return {name: [_text(rng) for _ in range(items)] for name in systems}, references


def _take(predictions: Predictions, order: list[int]) -> Predictions:
    if isinstance(predictions, Mapping):
        return {name: [texts[i] for i in order] for name, texts in predictions.items()}
    return [predictions[i] for i in order]


def _bytes(report: Report) -> tuple[str, Any, Any, Any]:
    try:
        named: Any = json.dumps(report.to_dict())  # its order too
    except UsageError as error:  # -t 1 and -t 2 rows are counts, not Scores
        named = str(error)
    return report.to_legacy(), report.to_json(), report.to_rows(), named


def _split(order: list[int], parts: int) -> list[list[int]]:
    size = -(-len(order) // parts)
    return [order[k : k + size] for k in range(0, len(order), size)]


OPTIONS = [
    pytest.param(
        dict(
            max_ngram=2,
            stem=True,
            skip_distance=4,
            skip_unigrams=True,
            wlcs_weight=1.2,
            per_eval=True,
            multi_ref="average",
        ),
        id="perl",
    ),
    pytest.param(dict(max_ngram=4, best_model=True, stopwords=True, resamples=300), id="perl-f-B"),
    pytest.param(dict(max_ngram=2, multi_ref="best-f", resamples=300), id="perl-best-f"),
    pytest.param(dict(dialect="rouge-score", max_ngram=2, stem=True), id="rouge-score"),
    pytest.param(dict(rouge_types=["rougeSU4", "rouge1"], multi_ref="best"), id="rouge-types"),
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("systems", [None, ["bart", "t5", "7"]], ids=["one-system", "three-systems"])
def test_ten_shuffled_batches_give_the_bytes_of_one_call(options: dict[str, Any], systems: Any) -> None:
    predictions, references = _data(1, 137, systems)
    rouge = Rouge(**options)
    order = list(range(137))
    random.Random(2).shuffle(order)
    batches = _split(order, 10)
    assert len(batches) == 10

    # Update order: the shuffled data set, ten batches of it in turn, is one call over it.
    one = _bytes(rouge.score(_take(predictions, order), [references[i] for i in order]))
    acc = rouge.accumulator()
    for part in batches:
        acc.update(_take(predictions, part), [references[i] for i in part])
    assert len(acc) == 137 and acc.numbering == "order"
    assert _bytes(acc.compute()) == one
    assert _bytes(acc.compute()) == one  # compute() keeps the state

    # Explicit IDs: the shuffled batches, given in shuffled order, are one call over the data in order.
    one = _bytes(rouge.score(predictions, references))
    random.Random(3).shuffle(batches)
    acc = rouge.accumulator()
    for part in batches:
        acc.update(_take(predictions, part), [references[i] for i in part], ids=part)
    assert acc.numbering == "ids"
    assert _bytes(acc.compute()) == one


def _state(
    options: dict[str, Any], batches: list[tuple[Predictions, list[Any], Optional[list[int]]]]
) -> bytes:
    """A state built in another process, as a rank of a distributed loop would build it."""
    acc = Rouge(**options).accumulator()
    for predictions, references, ids in batches:
        acc.update(predictions, references, ids=ids)
    return pickle.dumps(acc)


@pytest.mark.parametrize("options", first_fast(OPTIONS))
def test_states_of_two_processes_merged_give_the_bytes_of_one_call(options: dict[str, Any]) -> None:
    predictions, references = _data(4, 120, ["A", "B"])
    rouge = Rouge(**options)
    one = _bytes(rouge.score(predictions, references))
    order = list(range(120))
    random.Random(5).shuffle(order)
    batches = _split(order, 10)
    # Each process takes every other shuffled batch, with the items' IDs (a distributed sampler's shards).
    by_id = [[(_take(predictions, b), [references[i] for i in b], b) for b in batches[r::2]] for r in (0, 1)]
    # Without IDs: each process takes a contiguous half, merged in their order.
    halves = [list(range(60)), list(range(60, 120))]
    in_order = [
        [
            (_take(predictions, h[k : k + 12]), [references[i] for i in h[k : k + 12]], None)
            for k in range(0, 60, 12)
        ]
        for h in halves
    ]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        states = pool.starmap(_state, [(options, work) for work in [*by_id, *in_order]])
    ranks = [pickle.loads(s) for s in states]
    assert all(isinstance(r, RougeAccumulator) for r in ranks)
    assert _bytes(ranks[1].merge(ranks[0]).compute()) == one  # by ID: any merge order
    assert _bytes(ranks[2].merge(ranks[3]).compute()) == one
    # Merged the other way round, the halves are numbered the other way round: rank 3's items first.
    swapped = _bytes(
        rouge.score(
            _take(predictions, [*halves[1], *halves[0]]), [references[i] for i in [*halves[1], *halves[0]]]
        )
    )
    assert _bytes(pickle.loads(states[3]).merge(pickle.loads(states[2])).compute()) == swapped


def test_ids_need_not_start_at_zero_or_follow_each_other() -> None:
    predictions, references = _data(6, 30)
    rouge = Rouge(max_ngram=1, per_eval=True, multi_ref="best")
    ids = random.Random(7).sample(range(1000, 5000), 30)
    acc = rouge.accumulator()
    for part in _split(list(range(30)), 4):
        acc.update([predictions[i] for i in part], [references[i] for i in part], ids=[ids[i] for i in part])
    order = sorted(range(30), key=ids.__getitem__)
    one = rouge.score([predictions[i] for i in order], [references[i] for i in order])
    assert _bytes(acc.compute()) == _bytes(one)


def test_more_updates_after_compute_and_an_earlier_report_unchanged() -> None:
    predictions, references = _data(8, 40)
    rouge = Rouge(max_ngram=2, per_eval=True, multi_ref="average")
    acc = rouge.accumulator()
    acc.update(predictions[:25], references[:25])
    first = acc.compute()
    text = first.to_legacy()
    acc.update(predictions[25:], references[25:])
    assert first.to_legacy() == text == rouge.score(predictions[:25], references[:25]).to_legacy()
    assert _bytes(acc.compute()) == _bytes(rouge.score(predictions, references))
    acc.reset()
    assert len(acc) == 0 and acc.numbering is None
    acc.update(predictions[5:9], references[5:9], ids=[3, 2, 1, 0])
    assert _bytes(acc.compute()) == _bytes(rouge.score(predictions[8:4:-1], references[8:4:-1]))


def test_merge_leaves_the_other_state_as_it_was() -> None:
    predictions, references = _data(9, 20)
    rouge = Rouge(max_ngram=1, multi_ref="average")
    a, b = rouge.accumulator(), rouge.accumulator()
    a.update(predictions[:10], references[:10])
    b.update(predictions[10:], references[10:])
    alone = _bytes(b.compute())
    a.merge(b)
    assert _bytes(b.compute()) == alone
    assert _bytes(a.merge(rouge.accumulator()).compute()) == _bytes(rouge.score(predictions, references))


def test_mistakes_are_one_clear_error() -> None:
    predictions, references = _data(10, 6)
    assert any(isinstance(r, list) and len(r) > 1 for r in references[:3])
    with pytest.raises(UsageError, match="references: choose how they combine with multi_ref="):
        Rouge(max_ngram=2, stem=True).accumulator().update(predictions[:3], references[:3])
    references = [r[0] if isinstance(r, list) else r for r in references]
    a = Rouge(max_ngram=2, stem=True).accumulator()
    a.update(predictions[:3], references[:3])
    with pytest.raises(
        UsageError, match=r"^cannot merge accumulators of different options: max_ngram 2 vs 1$"
    ):
        a.merge(Rouge(max_ngram=1, stem=True).accumulator())
    with pytest.raises(UsageError, match=r"different options: stem True vs False, dialect None vs"):
        a.merge(Rouge(max_ngram=2, dialect="rouge-score").accumulator())
    a.merge(Rouge(max_ngram=2, stem=True, jobs=2).accumulator())  # jobs change no number
    with pytest.raises(UsageError, match="numbers items by order: give ids= to every update or to none"):
        a.update(predictions[3:], references[3:], ids=[3, 4, 5])
    b = Rouge(max_ngram=2, stem=True).accumulator()
    b.update(predictions[3:], references[3:], ids=[0, 1, 2])
    with pytest.raises(UsageError, match="numbers items by order"):
        a.merge(b)
    with pytest.raises(UsageError, match=r"item ID\(s\) 1, 2 already taken"):
        b.update(predictions[:3], references[:3], ids=[1, 2, 9])
    c = Rouge(max_ngram=2, stem=True).accumulator()
    c.update(predictions[:1], references[:1], ids=[2])
    with pytest.raises(UsageError, match=r"item ID\(s\) 2 in both states"):
        b.merge(c)
    with pytest.raises(UsageError, match="ids holds 2 IDs for 3 items"):
        c.update(predictions[:3], references[:3], ids=[5, 6])
    with pytest.raises(UsageError, match=r"given twice in one update"):
        c.update(predictions[:2], references[:2], ids=[5, 5])
    for bad in (-1, 1.0, True, "3", 2**63):
        with pytest.raises(UsageError, match="an item ID must be a whole number"):
            c.update(predictions[:1], references[:1], ids=[bad])
    with pytest.raises(UsageError, match="merge takes a RougeAccumulator"):
        c.merge(Rouge(max_ngram=2, stem=True))  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="verbose"):
        RougeAccumulator(Rouge(verbose=True))
    assert len(b) == 3 and len(c) == 1  # a refused update or merge changes nothing


def _outcome(run: Any) -> tuple[str, Any]:
    try:
        report = run()
    except RougeError as error:
        return type(error).__name__, str(error)
    return "ok", _bytes(report)


def _accumulated(case: Any, seed: int) -> Report:
    """The case's items in random batches: in order into two states merged in turn, or shuffled with IDs
    into up to three states merged in random order."""
    rng = random.Random(seed)
    rouge = Rouge(**{**case.options, "jobs": 1})
    count = len(case.references)
    order = list(range(count))
    by_id = rng.random() < 0.5
    if by_id:
        rng.shuffle(order)
    cuts = sorted(rng.sample(range(1, count), min(count - 1, rng.randint(0, 4)))) if count > 1 else []
    parts = [order[a:b] for a, b in zip([0, *cuts], [*cuts, count])]
    states = [rouge.accumulator() for _ in range(rng.randint(1, 3) if by_id else 2)]
    for k, part in enumerate(parts):
        state = rng.choice(states) if by_id else states[0 if k < len(parts) / 2 else 1]
        state.update(
            _take(case.predictions, part), [case.references[i] for i in part], part if by_id else None
        )
    if by_id:
        rng.shuffle(states)
    merged = states[0]
    for state in states[1:]:
        merged.merge(pickle.loads(pickle.dumps(state)))
    return merged.compute()


def test_random_door_cases_accumulated_print_what_one_call_prints() -> None:
    problems, failed, systems = [], 0, 0
    for seed in range(DOOR_CASES):
        case = make_door_case(seed)
        if case.options.get("verbose"):
            continue
        rouge = Rouge(**{**case.options, "jobs": 1})
        one = _outcome(lambda: rouge.score(case.predictions, case.references))  # noqa: B023
        many = _outcome(lambda: _accumulated(case, seed))  # noqa: B023
        if many != one:
            problems.append(f"{case.describe()}\none call: {str(one)[:300]}\naccumulated: {str(many)[:300]}")
        failed += one[0] != "ok"
        systems += isinstance(case.predictions, Mapping)
    assert not problems, "\n\n".join(problems[:5])
    assert failed >= 3 and systems >= 30, (failed, systems)


def test_inputs_read_by_the_api_rule() -> None:
    from rouge155py import Sentences

    rouge = Rouge(max_ngram=2, per_eval=True, multi_ref="best-f")
    predictions = [Sentences(["the cat sat.", "it slept."]), "dogs bark\nat night", "a red car"]
    references = [("the cat sat on the mat", "a cat slept"), "dogs barked at night", ["a red car drove"]]
    acc = rouge.accumulator()
    acc.update((p for p in predictions[:2]), iter(references[:2]))  # any ordered iterables
    acc.update(predictions[2:], references[2:])
    assert _bytes(acc.compute()) == _bytes(rouge.score(predictions, references))
    with pytest.raises(UsageError, match="Sentences"):  # a list is never one prediction
        acc.update([["the cat sat.", "it slept."]], ["the cat"])
    assert len(acc) == 3


_TYPED = """\
from rouge155py import Report, Rouge, RougeAccumulator, evaluate_module_path

acc: RougeAccumulator = Rouge(max_ngram=1).accumulator()
acc.update(["the cat sat"], ["a cat sat"], ids=[0])
merged: RougeAccumulator = acc.merge(Rouge(max_ngram=1).accumulator())
report: Report = merged.compute()
items: int = len(acc)
path: str = evaluate_module_path()
"""


@pytest.mark.slow
def test_mypy_strict_reads_the_accumulators_annotations(tmp_path: Any) -> None:
    from test_typing import _mypy

    result = _mypy(tmp_path, _TYPED)
    assert result.returncode == 0, result.stdout + result.stderr
    result = _mypy(tmp_path, _TYPED.replace("items: int = len(acc)", "items: str = len(acc)"))
    assert result.returncode == 1 and "Incompatible types in assignment" in result.stdout, result.stdout
