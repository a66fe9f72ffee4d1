"""Texts held by columns (the Python API's evals): the evals they stand for, and the same report
whether the kernel scores the columns in chunks of any size, on threads, or the evals do."""

from __future__ import annotations

import os
from typing import Any

import pytest
from differential.doors import make_door_case

from rouge155py import Rouge, RougeError, evaluate
from rouge155py.inputs.config import EvalConfig, TextConfig, config_from_documents
from rouge155py.inputs.texts import config_from_texts, prediction_document, reference_documents, text_inputs
from rouge155py.metrics.batch import KernelRows
from rouge155py.run import batches as batches_module
from rouge155py.run import executors as evaluation_module

CASES = int(os.environ.get("ROUGE155PY_DOOR_CASES", "200"))
FIRST_SEED = 910_000


def _documents_config(case: Any) -> EvalConfig:
    """The evals as documents made one by one (the construction the columns replace)."""
    systems, entries = text_inputs(case.predictions, case.references)
    fmt = case.input_format
    peers = {
        peer_id: [prediction_document(s, fmt, i, peer_id) for i, s in enumerate(items)]
        for peer_id, items in systems.items()
    }
    return config_from_documents(peers, [reference_documents(r, fmt, i) for i, r in enumerate(entries)])


def _evals(config: EvalConfig) -> list[tuple[Any, ...]]:
    """Each eval's ID, peers and models with every document's text, format and name."""

    def shown(document: Any) -> tuple[str, str, str]:
        return document.text, document.input_format, document.name

    return [
        (ev.eval_id, [(p, shown(d)) for p, d in ev.peers.items()], [shown(d) for d in ev.models])
        for ev in config.evals
    ]


def test_the_columns_stand_for_the_documents_made_one_by_one() -> None:
    differ = []
    for seed in range(FIRST_SEED, FIRST_SEED + CASES):
        case = make_door_case(seed)
        columns = config_from_texts(case.predictions, case.references, case.input_format)
        assert isinstance(columns, TextConfig)
        made = _documents_config(case)
        if _evals(columns) != _evals(made) or columns.peer_ids != made.peer_ids:
            differ.append(case.describe())
        assert list(columns.model_counts()) == [len(ev.models) for ev in made.evals]
        assert _evals(EvalConfig(columns.first(3), set())) == _evals(EvalConfig(made.evals[:3], set()))
    assert not differ, differ


def _outcome(run: Any, *args: Any) -> tuple[str, str]:
    try:
        report = run(*args)
    except RougeError as error:
        return type(error).__name__, str(error)
    return "ok", report.to_legacy()


@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_chunks_of_columns_score_as_the_evals(monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    """Chunks of 1 to 5 items, on this thread or two: the bytes (or the error) of the evals'
    own path, which scores documents."""
    differ, kernel_runs = [], []
    text_rows = KernelRows.text_rows

    def counted(self: KernelRows, *args: Any) -> Any:
        found = text_rows(self, *args)
        kernel_runs.append(found is not None)
        return found

    monkeypatch.setattr(KernelRows, "text_rows", counted)
    for seed in range(FIRST_SEED, FIRST_SEED + CASES // 2):
        case = make_door_case(seed)
        rouge = Rouge(**{**case.options, "jobs": jobs})
        monkeypatch.setattr(evaluation_module, "TEXT_CHUNK", 1 + seed % 5)
        columns = _outcome(rouge.score, case.predictions, case.references)
        made = _documents_config(case)
        evals = _outcome(evaluate, rouge.options, EvalConfig(made.evals, made.peer_ids))
        if columns != evals:
            differ.append(f"{case.describe()}\ncolumns: {columns}\nevals: {evals}")
    assert not differ, "\n\n".join(differ)
    # The kernel scored chunks from the columns (other options took the evals' path).
    assert sum(kernel_runs) >= CASES // 2, (sum(kernel_runs), len(kernel_runs))


@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_rouge_scores_dialect_on_the_kernel_is_its_general_path(
    monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    """``dialect="rouge-score"``: the kernel's rows from the columns (rs_score_pairs, each item's
    reference of highest F) are the general path's, float for float, on the door cases' texts
    (bytes, non-ASCII words, control bytes, several systems and references), in chunks of 1 to 5."""
    from rouge155py.metrics import batch as batch_module

    ran = []
    rs_text_rows = batch_module.rs_text_rows

    def counted(*args: Any) -> Any:
        found = rs_text_rows(*args)
        ran.append(found is not None)
        return found

    monkeypatch.setattr(batches_module, "rs_text_rows", counted)
    differ = []
    for seed in range(FIRST_SEED, FIRST_SEED + CASES // 2):
        case = make_door_case(seed)
        if case.options.get("be_mode"):
            continue
        monkeypatch.setattr(evaluation_module, "TEXT_CHUNK", 1 + seed % 5)
        rouge = Rouge(
            dialect="rouge-score", max_ngram=1 + seed % 4, stem=seed % 3 == 0, resamples=20, jobs=jobs
        )
        try:
            columns = rouge.score(case.predictions, case.references)
        except RougeError as error:
            differ.append(f"{case.describe()}: {error}")
            continue
        made = _documents_config(case)
        evals = evaluate(rouge.options, EvalConfig(made.evals, made.peer_ids))
        labels = [result.label for result in evals.results]
        if columns.to_legacy() != evals.to_legacy() or any(
            columns.result(label, peer).instances != evals.result(label, peer).instances
            for label, peer in {(r.label, r.peer_id) for r in evals.results}
        ):
            differ.append(f"{case.describe()} {labels}")
    assert not differ, "\n".join(differ)
    assert sum(ran) >= CASES // 4, (sum(ran), len(ran))


@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_best_f_on_the_kernel_is_the_general_path(monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    """``multi_ref="best-f"``: the kernel's rows from the columns (each reference alone, the first
    of highest F) are the general path's, float for float, on the door cases (several references
    and systems, every kernel metric), in chunks of 1 to 5 items."""
    differ, checked = [], 0
    for seed in range(FIRST_SEED, FIRST_SEED + CASES // 2):
        case = make_door_case(seed)
        options = {k: v for k, v in case.options.items() if k not in ("best_model", "counting", "multi_ref")}
        if options.get("be_mode"):
            continue
        monkeypatch.setattr(evaluation_module, "TEXT_CHUNK", 1 + seed % 5)
        rouge = Rouge(**{**options, "multi_ref": "best-f", "jobs": jobs})
        columns = _outcome(rouge.score, case.predictions, case.references)
        made = _documents_config(case)
        evals = _outcome(evaluate, rouge.options, EvalConfig(made.evals, made.peer_ids))
        checked += columns[0] == "ok" and any(len(r) > 1 for r in case.reference_lists())
        if columns != evals:
            differ.append(f"{case.describe()}\ncolumns: {columns}\nevals: {evals}")
    assert not differ, "\n\n".join(differ)
    assert checked >= CASES // 8, checked
