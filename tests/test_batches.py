"""Scoring in batches, merged in any order: the report one process makes, errors and warnings included."""

from __future__ import annotations

import os
import pickle
import random
from array import array
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest
from differential.doors import make_door_case
from differential.generate import make_case
from differential.runner import DATA_DIR

from rouge155py import (
    EvalItem,
    Options,
    Report,
    Rouge,
    RougeError,
    ScoredBatch,
    Sentences,
    TextItem,
    UsageError,
    eval_items,
    evaluate,
    evaluate_args,
    parse_command_line,
    score_batch,
    summarize_batches,
    text_items,
)
from rouge155py.inputs.config import EvalConfig, config_from_documents
from rouge155py.inputs.readers import Document, SummaryFile, SummaryText
from rouge155py.run import batches as batches_module
from rouge155py.run.columns import IntColumn
from rouge155py.run.executors import load_config
from rouge155py.run.ids import IdColumn
from rouge155py.run.score import RowTable

DOOR_CASES = 200
CONFIG_CASES = 200
FIRST_CONFIG_SEED = 500_000

Outcome = tuple[str, str, tuple[str, ...]]  # "ok" or the error's class, the legacy text or message, warnings


def _outcome(run: Callable[..., Report], *args: Any) -> Outcome:
    """How ``run(*args)`` ends: its report's bytes and warnings, or its error."""
    try:
        report = run(*args)
    except RougeError as error:
        return type(error).__name__, str(error), ()
    return "ok", report.to_legacy(), tuple(report.warnings)


def _in_batches(items: list[Any], options: Options, seed: int, peer_ids: Any = ()) -> Report:
    """Items dealt at random into 1..N batches (some may be empty), pickled, summarized in random order."""
    rng = random.Random(seed)
    items = list(items)
    rng.shuffle(items)
    parts: list[list[Any]] = [[] for _ in range(rng.randint(1, max(1, len(items))))]
    for item in items:
        rng.choice(parts).append(item)
    batches = [pickle.loads(pickle.dumps(score_batch(part, options))) for part in parts]
    rng.shuffle(batches)
    return summarize_batches(iter(batches), options, peer_ids)


def test_door_cases_in_random_batches_print_what_one_process_prints() -> None:
    problems, failed, stem_switch, systems = [], 0, 0, 0
    for seed in range(DOOR_CASES):
        case = make_door_case(seed)
        rouge = Rouge(**{**case.options, "jobs": 1})
        one = _outcome(rouge.score, case.predictions, case.references)
        items = text_items(case.predictions, case.references)
        many = _outcome(_in_batches, items, rouge.options, seed)
        if many != one:
            problems.append(f"{case.describe()}\none process: {one[:2]}\nbatches: {many[:2]}")
        failed += one[0] != "ok"
        stem_switch += rouge.options.stem and rouge.options.stem_models_only
        systems += len(case.systems()) > 1
    assert not problems, "\n\n".join(problems)
    # The cases reach what only the summary can decide: the first error, the -m -M switch.
    assert failed >= 3 and stem_switch >= 3 and systems >= 50, (failed, stem_switch, systems)


def _configuration_in_batches(args: list[str], seed: int) -> Report:
    options = parse_command_line(args).options
    if options is None:  # usage asked for, no evaluation
        return evaluate_args(args)
    config = load_config(options)
    return _in_batches(eval_items(config), options, seed, config.peer_ids)


@pytest.mark.slow
def test_configuration_cases_in_random_batches_print_what_one_process_prints(
    tmp_path: Path, monkeypatch
) -> None:
    problems, failed, warned = [], 0, 0
    for seed in range(FIRST_CONFIG_SEED, FIRST_CONFIG_SEED + CONFIG_CASES):
        case = make_case(seed, tmp_path / str(seed), "ALL")
        monkeypatch.chdir(case.cwd)
        # -v prints each instance's texts, which a batch does not keep: its lines are not compared.
        args = ["-e", str(DATA_DIR), *(a for a in case.args if a != "-v")]
        one = _outcome(evaluate_args, args)
        many = _outcome(_configuration_in_batches, args, seed)
        if many != one:
            problems.append(f"{case.describe()}\none process: {one[:2]}\nbatches: {many[:2]}")
        failed += one[0] != "ok"
        warned += bool(one[2])
    assert not problems, "\n\n".join(problems)
    assert failed >= 3 and warned >= 10, (failed, warned)


def _text(words: str) -> SummaryText:
    return SummaryText.of(words, "SPL", words or "<empty>")


def test_the_first_error_is_the_one_of_the_first_metric_then_peer(tmp_path: Path) -> None:
    # One chunk of evals, scored metric by metric and, within one, peer by peer: eval 4's
    # missing peer A comes before eval 2's missing peer B and eval 1's empty model (ROUGE-W).
    def peer(eval_id: int, peer_id: str) -> Document:
        if (eval_id, peer_id) in ((2, "B"), (4, "A")):
            return SummaryFile(str(tmp_path / f"missing-{peer_id}{eval_id}"), "SPL")
        return _text(f"the cat {peer_id} sat {eval_id}")

    peers = {p: [peer(i, p) for i in range(1, 7)] for p in "AB"}
    models = [[_text("" if i == 1 else f"a cat sat {i}")] for i in range(1, 7)]
    config = config_from_documents(peers, models)
    options = Options(all_systems=True, max_ngram=1, wlcs_weight=1.2, resamples=10)
    one = _outcome(evaluate, options, config)
    assert one[0] == "InputError" and "missing-A4" in one[1], one
    for seed in range(20):
        assert _outcome(_in_batches, eval_items(config), options, seed) == one


def test_the_first_error_is_the_perls_across_chunks_of_evals(tmp_path: Path) -> None:
    # 300 evals of two documents: one process scores them in two chunks, but the Perl scores
    # ROUGE-1 of every eval before ROUGE-W: eval 200's unreadable peer (chunk 2, ROUGE-1)
    # comes before eval 10's ROUGE-W error (chunk 1).
    def peer(i: int) -> Document:
        return SummaryFile(str(tmp_path / "missing-200"), "SPL") if i == 200 else _text(f"dogs bark {i}")

    models = [[_text("" if i == 10 else f"the dogs bark {i}")] for i in range(1, 301)]
    config = config_from_documents({"1": [peer(i) for i in range(1, 301)]}, models)
    options = Options(all_systems=True, max_ngram=1, wlcs_weight=1.2, resamples=10)
    one = _outcome(evaluate, options, config)
    assert one[0] == "InputError" and "missing-200" in one[1], one
    for seed in range(5):
        assert _outcome(_in_batches, eval_items(config), options, seed) == one


def test_a_missing_model_comes_before_any_scoring_error(tmp_path: Path) -> None:
    missing = SummaryFile(str(tmp_path / "no-model"), "SPL")
    config = config_from_documents(
        {"1": [_text("a b"), _text("c d"), SummaryFile(str(tmp_path / "no-peer"), "SPL")]},
        [[_text("a b")], [_text("c"), missing], [_text("e")]],
    )
    options = Options(all_systems=True, max_ngram=2, resamples=10)
    one = _outcome(evaluate, options, config)
    assert one[:2] == ("InputError", f"Cannot find model summary: {missing.path}")
    for seed in range(5):
        assert _outcome(_in_batches, eval_items(config), options, seed) == one


def test_models_read_are_not_looked_up_again(tmp_path: Path, monkeypatch: Any) -> None:
    """A model that was read exists: the Perl's -e test is made only once something failed, and a
    missing model then still comes before the error met (a score the Perl dies on, here)."""
    asked: list[str] = []
    exists = SummaryFile.exists

    def counted(document: SummaryFile) -> bool:
        asked.append(document.path)
        return exists(document)

    monkeypatch.setattr(SummaryFile, "exists", counted)
    files = []
    for name in ("p1", "m1", "p2", "m2"):
        (tmp_path / name).write_text(f"the dog {name}\n")
        files.append(SummaryFile(str(tmp_path / name), "SPL"))
    config = config_from_documents({"1": [files[0], files[2]]}, [[files[1]], [files[3]]])
    options = Options(all_systems=True, max_ngram=2, wlcs_weight=1.2, resamples=10)
    assert _outcome(evaluate, options, config)[0] == "ok"
    assert asked == []
    (tmp_path / "m1").write_text("")  # an empty model: ROUGE-W dies
    assert _outcome(evaluate, options, config)[0] == "ComputeError"
    assert sorted(asked) == [files[1].path, files[3].path]
    (tmp_path / "m2").unlink()
    one = _outcome(evaluate, options, config)
    assert one[:2] == ("InputError", f"Cannot find model summary: {files[3].path}")
    for seed in range(3):
        assert _outcome(_in_batches, eval_items(config), options, seed) == one


def test_stem_models_only_takes_the_stemmed_rows_the_perls_walk_plans(monkeypatch) -> None:
    # -m -M: peers are stemmed until the first model is read by ROUGE-L. Item 1 has no
    # reference, so the switch comes at item 2 of system "A"; "B" is never stemmed.
    predictions = {
        "B": ["cats running", "dogs barking loudly", "birds singing", "cats running"],
        "A": ["cats running", "dogs barking", "birds singing", "the cats running"],
    }
    references = [[], "cat runs and dogs barked", ["birds sing", "bird singing"], "cats ran running"]
    rouge = Rouge(
        max_ngram=2, stem=True, stem_models_only=True, per_eval=True, resamples=30, multi_ref="average"
    )
    one = rouge.score(predictions, references).to_legacy()
    assert (
        one
        != Rouge(max_ngram=2, stem=True, per_eval=True, resamples=30, multi_ref="average")
        .score(predictions, references)
        .to_legacy()
    )
    items = text_items(predictions, references)
    for seed in range(20):
        assert _in_batches(items, rouge.options, seed).to_legacy() == one
    monkeypatch.setattr(batches_module, "_restem", lambda *args: None)
    assert _in_batches(items, rouge.options, 0).to_legacy() != one


def test_a_batch_holds_rows_not_texts() -> None:
    references = [f"zyzzyva{i} quokka{i} the reference text" for i in range(50)]
    predictions = [f"zyzzyva{i} the prediction text" for i in range(50)]
    rouge = Rouge(max_ngram=2, resamples=10)
    batch = score_batch(text_items(predictions, references), rouge)
    data = pickle.dumps(batch)
    assert b"zyzzyva" not in data and b"quokka" not in data
    report = rouge.score(predictions, references)
    rows = {(r.eval_id, r.peer_id, r.metric): r.row for r in batch.instances()}
    expected = {
        (instance[: -len(result.peer_id) - 1], result.peer_id, result.label): row
        for result in report.results
        for instance, row in result.instances.items()
    }
    assert rows == expected and len(rows) == 150


def test_eval_entries_numbered_as_lines_are_held_as_numbers(monkeypatch: Any) -> None:
    """Eval IDs that are numbers (as line-aligned files and the API number them): the batch
    holds them, and its instances' IDs, as numbers, and pickles them so; the report's bytes and
    rows are those of the IDs held as strings. Other IDs stay strings."""
    predictions = [f"the cat sat on mat {k}" for k in range(40)]
    references = [f"a cat sat on the mat {k % 7}" for k in range(40)]
    rouge = Rouge(max_ngram=2, resamples=10)
    numbered = list(
        eval_items(
            config_from_documents({"1": [_text(p) for p in predictions]}, [[_text(r)] for r in references])
        )
    )
    assert [item[1].eval_id for item in numbered[:3]] == ["1", "2", "3"]
    renamed = [EvalItem(k, replace(ev, eval_id=f"e{ev.eval_id}")) for k, ev in numbered]
    batch = score_batch(numbered, rouge)
    assert isinstance(batch.table.eval_ids, IdColumn) and batch.table.eval_ids.numbered()
    assert all(isinstance(rows.ids, IdColumn) and rows.ids.numbered() for rows in batch.rows.values())
    assert b"40.1" not in pickle.dumps(batch)
    kept = score_batch(renamed, rouge)
    assert not isinstance(kept.table.eval_ids, IdColumn)
    with monkeypatch.context() as patched:
        patched.setattr(batches_module, "numbered_ids", lambda ids, suffix="": ids)
        as_strings = score_batch(numbered, rouge)
    assert not isinstance(as_strings.table.eval_ids, IdColumn)
    one, other = summarize_batches([batch], rouge), summarize_batches([as_strings], rouge)
    assert one.to_legacy() == other.to_legacy()
    for mine, theirs in zip(one.results, other.results):
        assert dict(mine.instances.items()) == dict(theirs.instances.items())
    assert sorted(one.result("ROUGE-1").instances)[:2] == ["1.1", "10.1"]


def test_each_table_of_a_peer_keeps_its_own_ids() -> None:
    """The tables of a peer's metrics are numbered once where they hold the same IDs, and each
    on its own where they do not."""
    batch = ScoredBatch(())
    ids = {0: ["1.A", "2.A"], 1: ["1.A", "2.A"], 2: ["1.A", "3.A"], 3: ["1.A", "x.A"]}
    for index, names in ids.items():
        batch.rows[("A", index)] = RowTable.of_floats(list(names), array("d", [0.5] * 3 * len(names)))
    batch.rows[("B", 0)] = RowTable.of_floats(["1.A", "2.A"], array("d", [0.5] * 6))
    batches_module._number_ids(batch)
    for index, names in ids.items():
        assert batch.rows[("A", index)].ids == names
    assert [isinstance(batch.rows[("A", k)].ids, IdColumn) for k in range(4)] == [True, True, True, False]
    assert batch.rows[("A", 0)].ids is not batch.rows[("A", 1)].ids
    assert batch.rows[("B", 0)].ids == ["1.A", "2.A"] and not isinstance(batch.rows[("B", 0)].ids, IdColumn)


def test_numbered_evals_from_batches_in_any_order_are_put_in_order_as_strings_are() -> None:
    """Evals of numbered IDs merged from batches in any order: the order of their positions, or
    the error naming the first eval found twice (the same position, or the same ID), as the
    same IDs held as strings give them."""
    rng = random.Random(3)
    for case in range(400):
        count = rng.randint(1, 60)
        positions = rng.sample(range(3 * count), count)
        numbers = [p + 1 for p in positions]
        for _ in range(rng.choice([0, 0, 1, 2])):  # an eval again: at its own position, or another
            k, j = rng.randrange(count), rng.randrange(count)
            if rng.random() < 0.5:
                positions[j] = positions[k]
            else:
                numbers[j] = numbers[k]
        outcomes = []
        for ids in (IdColumn(array("q", numbers)), [str(n) for n in numbers]):
            table = batches_module.EvalTable(positions=IntColumn(positions), eval_ids=ids)
            try:
                outcomes.append(list(batches_module._eval_order(table)))
            except UsageError as error:
                outcomes.append(str(error))
        assert outcomes[0] == outcomes[1], (case, positions, numbers)


def test_texts_and_eval_entries_are_items_alike() -> None:
    predictions = {"sys2": ["a b c", "d e"], 7: [Sentences(["a b.", "c d."]), b"e f"]}
    references = [["a b c d", "b c"], "d e f"]
    rouge = Rouge(max_ngram=2, resamples=10, per_eval=True, multi_ref="average")
    one = rouge.score(predictions, references).to_legacy()
    config = config_from_documents(
        {"7": [_text("a b.\nc d."), _text("e f")], "sys2": [_text("a b c"), _text("d e")]},
        [[_text("a b c d"), _text("b c")], [_text("d e f")]],
    )
    as_tuples = [tuple(item) for item in text_items(predictions, references)]
    for items in (
        as_tuples,
        eval_items(config),
        [EvalItem(1, config.evals[1]), TextItem(0, *as_tuples[0][1:])],
    ):
        assert summarize_batches([score_batch(items, rouge)], rouge).to_legacy() == one


def test_summaries_may_resample_differently_but_not_score_differently() -> None:
    predictions, references = ["a b c", "b c d", "c d e"], ["a b", "b c", "d e"]
    batch = score_batch(text_items(predictions, references), Rouge(max_ngram=2, resamples=10))
    other = Rouge(max_ngram=2, resamples=40, confidence=90)
    assert summarize_batches([batch], other).to_legacy() == other.score(predictions, references).to_legacy()
    with pytest.raises(UsageError, match="max_ngram"):
        summarize_batches([batch], Rouge(max_ngram=1))
    with pytest.raises(UsageError, match="in two batches"):
        summarize_batches(
            [batch, score_batch(text_items(predictions[:1], references[:1]), Rouge(max_ngram=2))],
            Rouge(max_ngram=2),
        )


def test_missing_systems_warn_as_a_configuration_does() -> None:
    rouge = Rouge(max_ngram=1, resamples=10)
    items = [
        TextItem(0, {"A": "a b", "B": "a c"}, "a b"),
        TextItem(1, {"B": "c d"}, "c d e"),
        TextItem(2, {}, "x"),
    ]
    config = EvalConfig([batches_module._placed(item, "SPL")[1] for item in items], {"A", "B"})
    one = _outcome(evaluate, rouge.options, config)
    assert len(one[2]) == 3
    for seed in range(5):
        assert _outcome(_in_batches, items, rouge.options, seed) == one


def test_nothing_to_score() -> None:
    """Nothing to score is an error at each face (a run that scored nothing never succeeds); a
    batch of no item is still a batch (one partition of many may be empty); a run that asks for
    no metric asks for nothing and prints nothing."""
    rouge = Rouge(max_ngram=2)
    nothing = [
        lambda: summarize_batches([], rouge),
        lambda: summarize_batches([score_batch([], rouge)], rouge),
        lambda: rouge.score([], []),
        lambda: rouge.accumulator().compute(),
    ]
    for run in nothing:
        with pytest.raises(UsageError, match=r"^nothing to (score|summarize): [^\n]+$"):
            run()
    assert len(score_batch([], rouge).table) == 0
    no_metric = Rouge(lcs=False, max_ngram=0)
    empty = ScoredBatch(score_batch([], no_metric).settings)
    assert score_batch(text_items(["a"], ["a"]), no_metric) == empty
    assert summarize_batches([], no_metric).results == []


@pytest.mark.parametrize(
    "item",
    [("a", "b"), (0,), (-1, "a", "a"), (True, "a", "a"), (0, "not an eval"), "item", (0, "a", [["a", 1]])],
)
def test_malformed_items_are_refused(item: Any) -> None:
    with pytest.raises(UsageError):
        score_batch([item], Rouge(max_ngram=1))


def test_the_batch_steps_run_where_no_file_is_written(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    rouge = Rouge(max_ngram=1, resamples=10)
    summarize_batches([score_batch(text_items(["a b"], ["a c"]), rouge)], rouge)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("index", [-1, 2**63 - 1, 10**5000], ids=["negative", "64-bits", "5000-digits"])
def test_an_item_index_out_of_range_is_a_usage_error(index: int) -> None:
    """An index is written out as its eval ID: one past 64 bits (a 5,000-digit one too) is refused
    as an argument, where ``str()`` of it raised a ValueError deep inside."""
    with pytest.raises(
        UsageError, match=r"^an item's index must be a whole number from 0 to 2\*\*63 - 2, got "
    ):
        score_batch([TextItem(index, "a cat sat", "the cat sat")], Options(max_ngram=1))


def test_text_items_with_several_references_need_a_rule_as_in_score() -> None:
    """A text item's several references are not averaged silently (Rouge.score's rule); the
    evals of a configuration keep the Perl's -f A."""
    items = text_items(["the cat sat"], [["a cat sat", "the cat sits"]])
    with pytest.raises(UsageError, match="multi_ref='average'"):
        score_batch(items, Rouge(max_ngram=1, resamples=10))
    with pytest.raises(UsageError, match="multi_ref='average'"):
        score_batch(items, Options(max_ngram=1, resamples=10))
    chosen = Rouge(max_ngram=1, resamples=10, multi_ref="average")
    scored = summarize_batches([score_batch(items, chosen)], chosen)
    assert scored.to_legacy() == chosen.score(["the cat sat"], [["a cat sat", "the cat sits"]]).to_legacy()
    config = config_from_documents(
        {"1": [SummaryText("the cat sat", "SPL")]},
        [[SummaryText("a cat sat", "SPL"), SummaryText("the cat sits", "SPL")]],
    )
    plain = Options(max_ngram=1, resamples=10)
    assert (
        summarize_batches([score_batch(eval_items(config), plain)], plain).to_legacy()
        == evaluate(plain, config).to_legacy()
    )


def test_the_public_module_gives_the_runs_two_steps() -> None:
    """``rouge155py.batches`` keeps its import path: the names of the run's two steps, the
    objects the run calls (a cluster's partitions and one process score alike)."""
    import rouge155py.batches as face

    assert face.__all__ == batches_module.__all__
    for name in face.__all__:
        assert getattr(face, name) is getattr(batches_module, name), name
