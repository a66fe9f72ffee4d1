"""Per-instance rows (``rouge155py/report/results.py``): a read-only mapping in a fixed order,
held compactly.

Rows of floats are one array (three values a row), rows of counts a list of
tuples; either way the mapping reads the same. An order given as a function of
the IDs (the Perl's ``-d`` order) is applied once, when first needed, and a
pickled mapping carries the ordered rows, not the function.
"""

from __future__ import annotations

import pickle
from array import array

import pytest

import rouge155py
from rouge155py.report.results import InstanceRows, row_at, rows_at

IDS = ["D03.1", "D01.1", "D02.1"]
ROWS = [(0.3, 0.33, 0.333), (0.1, 0.11, 0.111), (0.2, 0.22, 0.222)]
COUNTS = [(3, 33, 333), (1, 11, 111), (2, 22, 222)]


def _floats(rows: list[tuple[float, float, float]]) -> array:
    return array("d", [value for row in rows for value in row])


def _sorted_positions(ids: list[str]) -> list[int]:
    return sorted(range(len(ids)), key=ids.__getitem__)


@pytest.fixture(params=["floats", "counts"])
def held(request: pytest.FixtureRequest) -> tuple[object, list[tuple[float, float, float]]]:
    """The rows as the engine holds them (an array of floats, or count tuples), and as tuples."""
    return (_floats(ROWS), ROWS) if request.param == "floats" else (list(COUNTS), COUNTS)


def test_rows_read_in_the_order_given(held: tuple) -> None:
    values, rows = held
    mapping = InstanceRows(list(IDS), values)
    assert len(mapping) == 3
    assert list(mapping) == IDS
    assert list(mapping.items()) == list(zip(IDS, rows))
    assert list(mapping.values()) == rows
    assert list(mapping.rows()) == rows
    assert mapping == dict(zip(IDS, rows))
    assert repr(mapping) == repr(dict(zip(IDS, rows)))


def test_rows_looked_up_by_id(held: tuple) -> None:
    values, rows = held
    mapping = InstanceRows(list(IDS), values)
    assert mapping["D01.1"] == rows[1]
    assert "D02.1" in mapping and "D04.1" not in mapping
    assert mapping.get("D04.1") is None
    with pytest.raises(KeyError):
        mapping["D04.1"]


def test_an_order_is_applied_once_when_first_needed(held: tuple) -> None:
    values, rows = held
    calls = []

    def order(ids: list[str]) -> list[int]:
        calls.append(list(ids))
        return _sorted_positions(ids)

    mapping = InstanceRows(list(IDS), values, order)
    assert len(mapping) == 3 and not calls  # the length needs no order
    expected = sorted(zip(IDS, rows))
    assert list(mapping.items()) == expected
    assert list(mapping) == [i for i, _ in expected]
    assert list(mapping.values()) == [r for _, r in expected]
    assert mapping["D03.1"] == rows[0]
    assert calls == [IDS]


def test_a_lookup_first_puts_the_rows_in_order(held: tuple) -> None:
    values, rows = held
    mapping = InstanceRows(list(IDS), values, _sorted_positions)
    assert [mapping[i] for i in IDS] == rows
    assert list(mapping.values()) == [rows[1], rows[2], rows[0]]
    assert [mapping[i] for i in IDS] == rows


@pytest.mark.parametrize("ordered", [False, True], ids=["as-given", "ordered-later"])
def test_pickled_rows_are_the_same_mapping(held: tuple, ordered: bool) -> None:
    """An order that does not pickle (a lambda) is applied before the rows are pickled."""
    values, _ = held
    mapping = InstanceRows(list(IDS), values, (lambda ids: _sorted_positions(ids)) if ordered else None)
    copy = pickle.loads(pickle.dumps(mapping, pickle.HIGHEST_PROTOCOL))
    assert isinstance(copy, InstanceRows)
    assert list(copy.items()) == list(mapping.items())
    assert list(copy) == (sorted(IDS) if ordered else IDS)


def test_float_rows_stay_one_array() -> None:
    """Ordered or picked out, rows of floats are still one array of three values a row (24 bytes each)."""
    values = _floats(ROWS)
    picked = rows_at(values, [2, 0])
    assert isinstance(picked, array) and picked.typecode == "d"
    assert [row_at(picked, k) for k in range(2)] == [ROWS[2], ROWS[0]]
    assert rows_at(COUNTS, [2, 0]) == [COUNTS[2], COUNTS[0]]
    copy = pickle.loads(pickle.dumps(InstanceRows(list(IDS), values, _sorted_positions)))
    assert isinstance(copy._values, array)


@pytest.mark.parametrize("limit", [1, 2, 1 << 16])
def test_rows_picked_in_c_or_by_the_loop_are_the_same(limit: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Any positions (repeated, some, none) give the same floats, bit for bit, on either path."""
    import random

    from rouge155py.report import results

    rng = random.Random(7)
    values = array("d", [rng.choice([rng.random(), -0.0, float("nan"), 1e308]) for _ in range(3 * 300)])
    picks = [[], [5], [299, 0], list(range(300)), [rng.randrange(300) for _ in range(500)]]
    expected = [bytes(array("d", [v for k in p for v in values[3 * k : 3 * k + 3]])) for p in picks]
    monkeypatch.setattr(results, "_PICKED_ROWS", limit)
    assert [bytes(rows_at(values, p)) for p in picks] == expected


def test_a_scored_report_pickles_whole() -> None:
    """What a batch or a worker sends: results holding rows, averages and counts."""
    report = rouge155py.score(["a b c", "b c d"], [["a b c"], ["b d"]], max_ngram=2, per_eval=True)
    copy = pickle.loads(pickle.dumps(report.results))
    assert [(r.peer_id, r.label, dict(r.instances), r.summary) for r in copy] == [
        (r.peer_id, r.label, dict(r.instances), r.summary) for r in report.results
    ]
    assert list(copy[0].instances) == list(report.results[0].instances)
