"""Columns of IDs held as numbers (rouge155py.run.ids): the lists of strings they stand for."""

from __future__ import annotations

import pickle
import random
from array import array

import pytest

from rouge155py import Rouge
from rouge155py.run.ids import IdColumn, string_order


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
