"""The orchestration: the metric registry, the Perl's walk, documents keyed by what they are."""

from __future__ import annotations

import functools
import pickle
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from rouge155py import Options, UsageError, evaluate
from rouge155py.inputs.config import config_from_documents
from rouge155py.inputs.readers import SummaryFile, SummaryText
from rouge155py.metrics.plan import REGISTRY, metric_plan
from rouge155py.report.results import Summary
from rouge155py.run.plan import plan_tasks, walk_tasks
from rouge155py.run.score import RowTable, _by_eval_id, eval_order, metric_result
from rouge155py.text.corpus import Corpus
from rouge155py.text.resources import load_data
from rouge155py.text.tokenize import Tokenizer


def test_registry_gives_the_perl_output_order() -> None:
    options = Options(
        "c.xml",
        max_ngram=2,
        wlcs_weight=1.2,
        wlcs_label="1.20",
        skip_distance=4,
        skip_both=True,
        be_mode="HM",
    )
    labels = [m.label for m in metric_plan(options)]
    assert labels == ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.20", "ROUGE-S4", "ROUGE-SU4", "ROUGE-BE-HM"]
    assert list(REGISTRY) == ["N", "L", "W", "S", "BE", "ParaEval"]


def test_no_metric_no_result() -> None:
    report = evaluate(Options(lcs=False), config_from_documents({"1": [SummaryText.of("a", "SPL")]}, [[]]))
    assert report.results == []


def test_options_without_a_source_cannot_load_one() -> None:
    with pytest.raises(UsageError):
        evaluate(Options(all_systems=True))


def _walk(options: Options) -> list[tuple[str, bool, tuple]]:
    doc = SummaryText.of("x", "SPL")
    config = config_from_documents({"1": [doc, doc]}, [[doc, doc], [doc]])
    tasks = plan_tasks(options, config.evals, metric_plan(options), ["1"])
    return [(metric_plan(options)[t.metric_index].label, t.peer_stem, t.model_stems) for t in tasks]


def test_stem_models_only_switches_stemming_off_after_the_first_non_ngram_model() -> None:
    # -m -M: ROUGE-N stems peers and models; ROUGE-L stems its first eval's models (forced by
    # -M), then -m is off for good: later peers are not stemmed, models still are.
    walk = _walk(Options(all_systems=True, max_ngram=1, stem=True, stem_models_only=True))
    assert walk == [
        ("ROUGE-1", True, ((True, True), (True, True))),
        ("ROUGE-1", True, ((True, True),)),
        ("ROUGE-L", True, ((True, True), (True, True))),
        ("ROUGE-L", False, ((True, True),)),
    ]


def test_a_fixed_stemming_state_never_switches() -> None:
    # What a batch plans when it cannot know where the Perl's walk switches -m off.
    options = Options(all_systems=True, max_ngram=1, stem=True, stem_models_only=True)
    doc = SummaryText.of("x", "SPL")
    evals = config_from_documents({"1": [doc, doc]}, [[doc, doc], [doc]]).evals
    plan = metric_plan(options)
    walked = plan_tasks(options, evals, plan, ["1"])
    assert [t.peer_stem for t in walked] == [True, True, True, False]
    assert list(walk_tasks(options, evals, plan, ["1"])) == walked
    for state in (True, False):
        fixed = plan_tasks(options, evals, plan, ["1"], stem_now=state)
        assert [t.peer_stem for t in fixed] == [state] * 4
        assert [t.model_stems for t in fixed[2:]] == [
            plan[1].model_stems(len(ev.models), state, True) for ev in evals
        ]


def test_weighted_lcs_stems_the_first_model_tokens_before_the_switch() -> None:
    walk = _walk(Options(all_systems=True, lcs=False, wlcs_weight=1.2, stem=True, stem_models_only=True))
    assert walk[0] == ("ROUGE-W-1.2", True, ((True, True), (False, True)))


def test_equal_texts_are_one_document(tmp_path: Path) -> None:
    a = SummaryText.of("Same text", "SPL", name="first")
    b = SummaryText.of("Same text", "SPL", name="second")
    assert a == b and hash(a) == hash(b)
    assert SummaryText.of("Same text", "SEE") != a  # the format is part of what a document is
    corpus = Corpus(Tokenizer(load_data(None), False), 0, 0)
    assert corpus.token_ids(a, False) is corpus.token_ids(b, False)
    path = tmp_path / "s.spl"
    path.write_bytes(b"Same text\n")
    assert SummaryFile(str(path), "SPL") == SummaryFile(str(path), "SPL")
    assert list(corpus.token_ids(SummaryFile(str(path), "SPL"), False)) == list(corpus.token_ids(a, False))


def test_a_text_is_the_file_with_its_bytes(tmp_path: Path) -> None:
    text = "Caf\u00e9 <b>bold</b>\r\n\nsecond line"
    path = tmp_path / "s.see"
    path.write_bytes(text.encode("utf-8"))
    assert SummaryText.of(text, "SPL").lines() == SummaryFile(str(path), "SPL").lines()
    assert SummaryText.of(text.encode("utf-8"), "SPL").lines() == SummaryFile(str(path), "SPL").lines()


def test_eval_order_is_the_perls_comparison_sort() -> None:
    # -d lists instances by eval ID: leading numbers as numbers, else as strings. A key sort
    # stands in for the comparison where every ID has a leading number, or none has.
    rng = random.Random(5)
    heads = ["", "0", "00", "7", "10", "D", "d", "x1", "Z9", "é", "٣"]
    tails = ["", "a", ".2", "0", "b1", "-x"]
    for trial in range(3000):
        kinds = (heads[1:5], heads[5:], heads)[trial % 3]  # every ID numbered, none, both
        ids = {
            f"{rng.choice(kinds)}{rng.randint(0, 30) if rng.random() < 0.8 else ''}{rng.choice(tails)}.1"
            for _ in range(rng.randint(0, 30))
        }
        ordered = sorted(ids)
        assert eval_order(ordered) == sorted(ordered, key=functools.cmp_to_key(_by_eval_id)), ordered


@pytest.mark.parametrize("floats", [True, False], ids=["floats", "counts"])
def test_a_results_rows_are_in_the_d_order_however_they_are_read(floats: bool) -> None:
    """A result holds its rows as scored and puts them in the Perl's -d order when first read:
    iteration, items, values, a lookup, equality and pickling all see that order."""
    scored = ["10.A", "9.A", "2.A", "10b.A", "1.A"]
    table = RowTable()
    for k, instance_id in enumerate(scored):
        table.add(instance_id, (k + 0.5, k + 0.25, k + 0.125) if floats else (k, k + 1, k + 2))
    row = dict(table.items())
    expected = ["1.A", "2.A", "9.A", "10.A", "10b.A"]
    assert eval_order(sorted(scored)) == expected
    reads = {
        "iter": list,
        "items": lambda r: [i for i, _ in r.items()],
        "values": lambda r: [i for v in r.values() for i in scored if row[i] == v],
        "lookup then iter": lambda r: list(r) if r["9.A"] == row["9.A"] else [],
        "pickle": lambda r: list(pickle.loads(pickle.dumps(r))),
        "equality": lambda r: expected if r == {i: row[i] for i in expected} else [],
    }
    summary = Summary((0.0,) * 3, (0.0,) * 3, (0.0,) * 3)
    for name, read in reads.items():
        result = metric_result(SimpleNamespace(label="ROUGE-1"), "A", table, summary)  # type: ignore[arg-type]
        assert len(result.instances) == len(scored)
        assert read(result.instances) == expected, name
        assert list(result.instances.items()) == [(i, row[i]) for i in expected], name
