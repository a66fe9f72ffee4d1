"""Columns of IDs held as numbers (rouge155py.run.ids): the lists of strings they stand for."""

from __future__ import annotations

import pickle
import random
from array import array

import pytest

from rouge155py import Rouge
from rouge155py.run.ids import IdColumn, numbered_ids, string_order


@pytest.mark.parametrize("suffix", ["", ".1", ".A", ".12"])
def test_a_column_is_the_list_it_stands_for(suffix: str) -> None:
    rng = random.Random(len(suffix))
    numbers = sorted(rng.sample(range(1, 5000), 300))
    column = IdColumn(array("q", numbers), suffix)
    listed = [f"{n}{suffix}" for n in numbers]
    assert len(column) == len(listed) and list(column) == listed and column == listed
    assert column[7] == listed[7] and column[-1] == listed[-1] and column[3:9] == listed[3:9]
    assert pickle.loads(pickle.dumps(column)) == listed
    more = IdColumn(array("q", [9001, 9002]), suffix)
    column.extend(more)  # the same form: still numbers
    listed.extend(more)
    assert column.numbered() and column == listed
    copy = column.copy()
    del column[250:]
    del listed[250:]
    assert column == listed and copy != column and len(copy) == 302
    column.append("another")  # another form: strings from now on
    listed.append("another")
    assert not column.numbered() and column == listed
    column.extend(IdColumn(array("q", [1]), suffix))
    assert column[-1] == f"1{suffix}" and pickle.loads(pickle.dumps(column)) == [*listed, f"1{suffix}"]


@pytest.mark.parametrize("count", [*range(0, 130), 999, 1000, 1001, 12345, 100000])
def test_the_string_order_of_numbered_ids_is_their_sorted_order(count: int) -> None:
    """1..N in order (made without a string) and other numbers: the positions of the IDs sorted
    as strings, whatever the suffix ('.' sorts before the digits)."""
    for suffix in ("", ".1"):
        column = IdColumn(array("q", range(1, count + 1)), suffix)
        assert list(string_order(column)) == sorted(range(count), key=list(column).__getitem__)
    rng = random.Random(count)
    numbers = rng.sample(range(1, 3 * count + 2), count)
    column = IdColumn(array("q", numbers), ".7")
    assert list(string_order(column)) == sorted(range(count), key=list(column).__getitem__)


def test_the_api_holds_its_ids_as_numbers_with_the_same_report() -> None:
    predictions = [f"the cat sat on mat {k}" for k in range(30)]
    references = [f"a cat sat on the mat {k % 7}" for k in range(30)]
    report = Rouge(max_ngram=2).score(predictions, references)
    instances = report.result("ROUGE-1").instances
    assert isinstance(instances._ids, IdColumn) and instances._ids.numbered()  # type: ignore[attr-defined]
    assert sorted(instances) == sorted(f"{k}.1" for k in range(1, 31))
    assert instances["30.1"] == instances["30.1"] and len(instances) == 30


@pytest.mark.parametrize("suffix", ["", ".1", ".sys A"])
def test_ids_that_are_numbers_are_held_as_numbers(suffix: str) -> None:
    """Each ID f"{n}{suffix}", n as str writes it: the same IDs as numbers; any other ID anywhere
    in the list, the list as it is."""
    listed = [f"{n}{suffix}" for n in (3, 0, 17, 10**18 - 1, 5, 4)]
    column = numbered_ids(listed, suffix)
    assert isinstance(column, IdColumn) and column.numbered() and column == listed
    assert list(column.numbers) == [3, 0, 17, 10**18 - 1, 5, 4]
    for other in ("07", "+7", "-7", " 7", "7 ", "7.0", "\u0667", "", "x", f"{10**18}", "1e3"):
        for at in (0, 3, 6):
            ids = [*listed[:at], f"{other}{suffix}", *listed[at:]]
            assert numbered_ids(ids, suffix) is ids
    wrong = [*listed[:2], "3.other", *listed[2:]]
    assert numbered_ids(wrong, suffix) is wrong
    assert numbered_ids([], suffix) == [] and numbered_ids(column, suffix) is column


def test_the_string_order_of_any_numbers_is_their_sorted_order() -> None:
    """Numbers of every width from 0 to 10**18 - 1, some twice, in any order (a cluster's
    batches merged as they come): the positions of the IDs sorted as strings (stable)."""
    rng = random.Random(8)
    for _ in range(200):
        count = rng.randint(1, 200)
        numbers = [
            rng.choice([0, 1, 10, 12, 120])
            if rng.random() < 0.2
            else rng.randint(0, 10 ** rng.randint(1, 18) - 1)
            for _ in range(count)
        ]
        for suffix in ("", ".1", ".B"):
            column = IdColumn(array("q", numbers), suffix)
            assert list(string_order(column)) == sorted(range(count), key=list(column).__getitem__)
