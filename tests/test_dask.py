"""The Dask adapter on a local cluster of two worker processes: the bytes one process prints."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from rouge155py import ComputeError, Rouge, RougeError, Sentences, TextItem, UsageError, text_items
from rouge155py.dask import score_on_cluster

distributed = pytest.importorskip("distributed")
dask_bag = pytest.importorskip("dask.bag")
from dask import delayed  # noqa: E402
from differential.doors import make_door_case  # noqa: E402

PAIRS = 20_000
PARTITIONS = 10
_STEMS = "cat dog bird run jump sing walk talk house river stone light night game plan".split()
_ENDS = ("", "s", "ing", "ed", "er", "ly")
_FUNCTION = "the a of and to in is was for on with as by at".split()


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A client of two single-threaded worker processes on this machine (not the default client)."""
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster, set_as_default=False) as found,
    ):
        yield found


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_FUNCTION) if rng.random() < 0.4 else rng.choice(_STEMS) + rng.choice(_ENDS)]
    words += [
        rng.choice(_FUNCTION) if rng.random() < 0.4 else rng.choice(_STEMS) + rng.choice(_ENDS)
        for _ in range(rng.randint(3, 14))
    ]
    return " ".join(words).capitalize() + "."


def pair(index: int) -> TextItem:
    """Generated item ``index``: a reference of 1-3 sentences and a prediction that reworks it."""
    rng = random.Random(f"rouge155py-dask:{index}")
    reference = [_sentence(rng) for _ in range(rng.randint(1, 3))]
    prediction = [s if rng.random() < 0.5 else _sentence(rng) for s in reference]
    if rng.random() < 0.3:
        prediction.append(_sentence(rng))
    return TextItem(index, prediction, "\n".join(reference))


def partition(indices: list[int]) -> list[TextItem]:
    """The items of a partition, made on the worker that scores them."""
    return [pair(index) for index in indices]


@pytest.mark.slow
def test_20000_pairs_in_shuffled_partitions_print_what_one_process_prints(client: Any) -> None:
    rouge = Rouge(max_ngram=2, stem=True, per_eval=True, resamples=500)
    items = partition(list(range(PAIRS)))
    start = time.perf_counter()
    # A TextItem's list is a prediction's sentences; the API spells that Sentences.
    predictions = [Sentences(p) if isinstance(p, list) else p for p in (item.predictions for item in items)]
    one = rouge.score(predictions, [item.references for item in items]).to_legacy()
    one_seconds = time.perf_counter() - start
    del items
    rng = random.Random(11)
    indices = list(range(PAIRS))
    rng.shuffle(indices)
    cuts = sorted(rng.sample(range(1, PAIRS), PARTITIONS - 1))
    parts = [indices[a:b] for a, b in zip([0, *cuts], [*cuts, PAIRS])]
    rng.shuffle(parts)
    bag = dask_bag.from_delayed([delayed(partition)(part) for part in parts])
    assert bag.npartitions == PARTITIONS >= 8
    start = time.perf_counter()
    report = score_on_cluster(bag, rouge, client=client)
    cluster_seconds = time.perf_counter() - start
    text = report.to_legacy()
    assert text.count(" Eval ") == 3 * PAIRS
    assert text == one
    print(f"\n{PAIRS} pairs: one process {one_seconds:.2f} s, 2 workers {cluster_seconds:.2f} s")


def _door_cases() -> list[Any]:
    """Door cases with several systems, with -m -M, and built to fail, each with several items."""
    wanted: dict[str, Any] = {}
    for seed in range(400):
        case = make_door_case(seed)
        if len(case.references) < 4:
            continue
        options = case.options
        kind = (
            "fails"
            if case.expect_failure
            else "stem switch"
            if options.get("stem") and options.get("stem_models_only")
            else "counts"
            if options.get("counting")
            else "systems"
            if len(case.systems()) > 1
            else None
        )
        if kind is not None:
            wanted.setdefault(kind, case)
    assert len(wanted) == 4, sorted(wanted)
    return list(wanted.values())


def test_partitions_as_lists_futures_and_delayed_objects(client: Any) -> None:
    for case in _door_cases():
        rouge = Rouge(**{**case.options, "jobs": 1})
        try:
            one: Any = rouge.score(case.predictions, case.references).to_legacy()
        except RougeError as error:
            one = (type(error), str(error))
        items = text_items(case.predictions, case.references)
        random.Random(case.seed).shuffle(items)
        k = len(items) // 3
        parts = [items[:k], client.scatter(items[k : 2 * k]), delayed(list)(items[2 * k :])]
        try:
            many: Any = score_on_cluster(parts, rouge.options, client=client).to_legacy()
        except RougeError as error:
            many = (type(error), str(error))
        assert many == one, case.describe()


def test_an_error_on_a_worker_is_raised_here(client: Any) -> None:
    parts = [[TextItem(0, "a b", "a c")], [(-1, "a", "b")]]
    with pytest.raises(UsageError, match="index"):
        score_on_cluster(parts, Rouge(max_ngram=1), client=client)
    with pytest.raises(ComputeError, match="ROUGE-W: model summary reference 1 of item 2"):
        score_on_cluster(
            [[TextItem(0, "a b", "a c")], [TextItem(1, "a", "")]], Rouge(wlcs_weight=1.2), client=client
        )


def test_without_a_client_the_error_says_so(client: Any) -> None:
    with pytest.raises(UsageError, match="no Dask client"):
        score_on_cluster([[TextItem(0, "a b", "a c")]], Rouge(max_ngram=1))


def test_without_dask_the_error_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(
        ImportError,
        match=r"pip install 'dask\[distributed\]' \(or, in rouge155py's checkout, pip install '\.\[dask\]'\)",
    ):
        score_on_cluster([], Rouge(max_ngram=1))
