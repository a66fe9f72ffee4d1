"""Integer columns held as progressions (rouge155py.run.columns): the int64 arrays they stand for,
and a run's columns that stay progressions."""

from __future__ import annotations

import gc
import pickle
import random
import weakref
from array import array
from typing import Any

import pytest

import rouge155py.run.batches as batches_module
from rouge155py import Rouge
from rouge155py.inputs.texts import config_from_texts
from rouge155py.run.batches import ScoredBatch, score_text_chunks, summaries_here, summarize_batches
from rouge155py.run.columns import IntColumn
from rouge155py.settings.options import as_options


def _same(column: IntColumn, values: array) -> None:
    assert len(column) == len(values) and list(column) == list(values) and column == values
    for k in (0, len(values) // 2, -1):
        if values:
            assert column[k] == values[k]
    assert list(column[2:9]) == list(values[2:9]) and list(column[::3]) == list(values[::3])
    assert pickle.loads(pickle.dumps(column)) == values


@pytest.mark.parametrize("seed", range(60))
def test_a_column_is_the_array_it_stands_for_through_any_edits(seed: int) -> None:
    """Random appends, extensions (with columns and with lists), tail deletions, slices, copies
    and settings: the column equals an int64 array given the same edits, and stays a progression
    while the values are one."""
    rng = random.Random(seed)
    values = array("q")
    column = IntColumn()
    step = rng.choice([0, 1, 1, 3, -2])
    nxt = rng.randrange(-5, 50)
    for _ in range(rng.randrange(1, 40)):
        roll = rng.random()
        if roll < 0.08:  # a value off the progression
            value = rng.randrange(-100, 100)
            column.append(value)
            values.append(value)
            nxt = value + step
        elif roll < 0.5:
            count = rng.randrange(0, 6)
            more = [nxt + step * k for k in range(count)]
            nxt += step * count
            column.extend(IntColumn(more) if rng.random() < 0.5 else more)
            values.extend(more)
        elif roll < 0.7:
            column.append(nxt)
            values.append(nxt)
            nxt += step
        elif roll < 0.8 and values:
            cut = rng.randrange(len(values) + 1)
            del column[cut:]
            del values[cut:]
            nxt = values[-1] + step if values else nxt
        elif roll < 0.85 and values:
            k = rng.randrange(len(values))
            column[k] = values[k] = rng.randrange(-9, 9)
        else:
            copy = column.copy()
            copy.append(12345)
            assert len(copy) == len(column) + 1
        _same(column, values)
        steps = {b - a for a, b in zip(values, values[1:])}
        if column.is_progression():
            assert len(steps) <= 1
        assert column.increasing() == all(a < b for a, b in zip(values, values[1:]))


def test_progressions_are_held_as_three_numbers() -> None:
    column = IntColumn(range(1, 1_000_001))
    column.extend(IntColumn(range(1_000_001, 2_000_001)))
    assert column.is_progression() and column.step == 1 and len(column) == 2_000_000
    assert len(pickle.dumps(column)) < 200 and column[-1] == 2_000_000
    same = IntColumn([7] * 1000)
    assert same.is_progression() and same.step == 0 and same == [7] * 1000
    assert not IntColumn([1, 2, 4]).is_progression()
    assert IntColumn(array("q", [5, 3, 1])) == IntColumn.progression(5, -2, 3)


def test_a_runs_columns_stay_progressions() -> None:
    """Texts scored a chunk at a time: the merged batch's positions, numbers of models, eval IDs
    and instance IDs are progressions, however many chunks (none held as an array)."""
    options = as_options(Rouge(max_ngram=2).options)
    predictions = [f"the cat sat on mat {k}" for k in range(50)]
    references = [f"a cat sat on the mat {k % 7}" for k in range(50)]
    config = config_from_texts(predictions, references)
    (batch,) = score_text_chunks(config, options, None, 8)
    table = batch.table
    assert table.positions.is_progression() and table.positions.step == 1 and len(table.positions) == 50
    assert table.models.is_progression() and table.models.step == 0
    assert table.eval_ids.numbers.is_progression()  # type: ignore[union-attr]
    for rows in batch.rows.values():
        assert rows.ids.numbers.is_progression()  # type: ignore[union-attr]


def test_the_evals_columns_are_let_go_before_the_bootstrap() -> None:
    """The summary's bootstrap runs with the merged evals' columns freed (they would hold memory
    while the bootstrap needs its own): none of the batch's eval table is alive by then."""
    options = as_options(Rouge(max_ngram=1).options)
    config = config_from_texts([f"a b c {k}" for k in range(20)], [f"a b d {k}" for k in range(20)])
    batches = score_text_chunks(config, options, None, 8)
    alive: list[Any] = []
    held = weakref.ref(batches[0].table)

    def summaries(tables: Any, options: Any, progress: Any) -> Any:
        gc.collect()
        alive.append(held() is not None)
        return summaries_here(tables, options, progress)

    def handed() -> Any:
        while batches:
            yield batches.pop()

    report = summarize_batches(handed(), options, summaries=summaries)
    assert alive == [False] and report.results


def test_scored_batches_pickle_their_progressions_small() -> None:
    options = as_options(Rouge(max_ngram=1).options)
    config = config_from_texts(["a b c"] * 3000, ["a b d"] * 3000)
    (batch,) = score_text_chunks(config, options, None, batches_module.TEXT_CHUNK)
    assert isinstance(batch, ScoredBatch)
    # the rows' floats are the bulk (3 of 8 bytes an instance and metric); the IntColumns next to
    # nothing (the eval's tuple of peer IDs is shared: a memo reference of 2 bytes each)
    floats = sum(8 * len(rows.values) for rows in batch.rows.values())
    assert floats >= 3000 * 24 and len(pickle.dumps(batch)) < floats + 3000 * 2 + 4000


def test_values_whose_steps_would_leave_int64_are_an_array() -> None:
    """A column whose first two values step so far that its length of such steps leaves int64
    is not a progression (its values kept as they are)."""
    values = [10**18 - 1, 5, *range(7, 20)]  # 14 steps of 10**18 down would pass -2**63
    column = IntColumn(values)
    assert list(column) == values and not column.is_progression()
    assert IntColumn([2**62, 0, -(2**62)]).is_progression()
