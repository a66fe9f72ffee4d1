"""The Python door: texts in memory, options checked when built, results as numbers."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from rouge155py import (
    MetricResult,
    Options,
    Report,
    Rouge,
    Sentences,
    Summary,
    TextItem,
    UsageError,
    evaluate,
    evaluate_args,
    score,
    score_batch,
    summarize_batches,
)
from rouge155py.inputs.config import config_from_documents
from rouge155py.inputs.readers import SummaryText
from rouge155py.metrics.scoring import fmt5

# Few resamples keep the tests fast; -c 100 makes the bounds the extreme resample means.
FAST = {"resamples": 20}


def instance(report: Report, label: str, eval_id: str, peer_id: str = "1") -> tuple:
    return report.result(label, peer_id).instances[f"{eval_id}.{peer_id}"]


def test_hand_worked_rouge_1_2_and_l() -> None:
    # peer "the cat sat on the mat" (6 tokens), model "the cat lay on the mat" (6 tokens).
    # ROUGE-1: the x2, cat, on, mat -> 5 hits: R = P = 5/6. ROUGE-2: "the cat", "on the",
    # "the mat" of 5 bigrams: 3/5. ROUGE-L: LCS "the cat on the mat" = 5: 5/6.
    report = score(["the cat sat on the mat"], ["the cat lay on the mat"], max_ngram=2, **FAST)
    r1 = instance(report, "ROUGE-1", "1")
    assert r1 == (0.83333, 0.83333, 0.83333)
    assert instance(report, "ROUGE-2", "1") == (0.6, 0.6, 0.6)
    assert instance(report, "ROUGE-L", "1") == (0.83333, 0.83333, 0.83333)
    # One instance: every resample draws it, so average and bounds are its scores.
    summary = report.result("ROUGE-1").summary
    assert summary is not None
    assert [fmt5(v) for v in summary.average] == ["0.83333"] * 3
    assert [fmt5(v) for v in summary.lower + summary.upper] == ["0.83333"] * 6


def test_result_types_hold_numbers() -> None:
    report = score(["a b c"], ["a b d"], max_ngram=1, **FAST)
    result = report.result("ROUGE-1")
    assert isinstance(result, MetricResult)
    assert isinstance(result.summary, Summary)
    assert all(isinstance(v, float) for v in result.summary.average)
    assert result.instances == {"1.1": (0.66667, 0.66667, 0.66667)}


def test_string_lines_and_sentence_lists_are_the_same_summary() -> None:
    as_text = score(["one two\nthree four"], ["one three\ntwo four"], max_ngram=2, **FAST)
    sentences = Sentences(["one three", "two four"])
    as_list = score([Sentences(["one two", "three four"])], [[sentences]], max_ngram=2, **FAST)
    assert as_text.to_legacy() == as_list.to_legacy()
    lone = score([Sentences(["one two", "three four"])], [sentences], max_ngram=2, **FAST)
    assert lone.to_legacy() == as_text.to_legacy()


def test_sentence_boundaries_matter_to_rouge_l() -> None:
    # Model "a b c d" in one sentence against peer "c d a b": LCS 2 (a b or c d).
    # Split into "c d" and "a b", each peer sentence gives its own LCS: the union covers all 4.
    one = score(["c d a b"], ["a b c d"], **FAST)
    two = score([Sentences(["c d", "a b"])], ["a b c d"], **FAST)
    assert instance(one, "ROUGE-L", "1")[0] == 0.5
    assert instance(two, "ROUGE-L", "1")[0] == 1.0


def test_a_list_of_strings_is_several_references() -> None:
    # -f A sums over models: hits 1 + 2 of model counts 2 + 2: R = 3/4.
    report = score(["x y"], [["x z", "x y"]], max_ngram=1, multi_ref="average", **FAST)
    assert instance(report, "ROUGE-1", "1")[0] == 0.75
    # -f B keeps the best model: R = 1.
    best = score(["x y"], [["x z", "x y"]], max_ngram=1, best_model=True, **FAST)
    assert instance(best, "ROUGE-1", "1")[0] == 1.0


def test_several_systems_are_reported_in_sorted_order() -> None:
    report = score({"sysB": ["a b"], "sysA": ["a c"]}, ["a b"], max_ngram=1, **FAST)
    assert [r.peer_id for r in report.results] == ["sysA", "sysA", "sysB", "sysB"]
    assert instance(report, "ROUGE-1", "1", "sysB")[0] == 1.0
    assert instance(report, "ROUGE-1", "1", "sysA")[0] == 0.5


def test_the_same_as_documents_given_to_the_engine() -> None:
    # The door only builds documents: the engine given the same documents prints the same.
    peers = {"1": [SummaryText.of("alpha beta\ngamma", "SPL"), SummaryText.of("delta", "SPL")]}
    models = [[SummaryText.of("alpha gamma", "SPL")], [SummaryText.of("delta epsilon", "SPL")]]
    options = Options(all_systems=True, max_ngram=2, stem=True, resamples=50)
    direct = evaluate(options, config_from_documents(peers, models))
    door = Rouge(max_ngram=2, stem=True, resamples=50).score(
        ["alpha beta\ngamma", "delta"], ["alpha gamma", "delta epsilon"]
    )
    assert door.to_legacy() == direct.to_legacy()


def test_non_ascii_text_is_read_as_its_utf8_bytes() -> None:
    # The Perl keeps [a-z0-9] bytes only: "café" is "caf" plus a dropped byte pair.
    report = score(["café noir"], ["caf noir"], max_ngram=1, **FAST)
    assert instance(report, "ROUGE-1", "1")[0] == 1.0


def test_basic_elements_are_given_as_lines() -> None:
    peer = "cat|sit|nsubj\nmat|the|det"
    models = ["cat|sit|nsubj\nmat|a|det"]
    report = score([peer], [models], be_mode="HM", **FAST)
    assert [r.label for r in report.results] == ["ROUGE-BE-HM"]  # no ROUGE-L, as with -3
    assert instance(report, "ROUGE-BE-HM", "1")[:2] == (0.5, 0.5)


def test_counting_modes() -> None:
    report = score(["a b c", "a"], ["a b", "b"], max_ngram=1, counting=2)
    result = report.result("ROUGE-1")
    assert result.summary is None
    assert result.counts == (3, 4, 2)  # model, peer and hit counts summed
    totals = score(["a b c", "a"], ["a b", "b"], max_ngram=1, counting=1, resamples=10)
    assert totals.result("ROUGE-1").instances == {"1.1": (2, 3, 2), "2.1": (1, 1, 0)}


def test_jobs_give_the_same_report() -> None:
    predictions = [f"w{i} w{i + 1} w{i + 2}" for i in range(30)]
    references = [[f"w{i} w{i + 2}", f"w{i + 1} x"] for i in range(30)]
    one = score(
        predictions, references, max_ngram=2, skip_distance=4, skip_unigrams=True, jobs=1, multi_ref="average"
    )
    two = score(
        predictions, references, max_ngram=2, skip_distance=4, skip_unigrams=True, jobs=2, multi_ref="average"
    )
    assert one.to_legacy() == two.to_legacy()


@pytest.mark.parametrize("jobs", [2, 3])
def test_jobs_on_threads_and_on_processes_give_the_same_report(jobs, monkeypatch) -> None:
    """Texts the kernel scores take threads; without the kernel's path, worker processes."""
    from rouge155py import _kernel
    from rouge155py.run import executors
    from rouge155py.run import plan as planning
    from rouge155py.run.plan import run_plan

    predictions = {"a": [f"w{i} w{i + 1} w{i + 2}\nx{i}" for i in range(700)], "b": ["w1 w2"] * 700}
    references = [[f"w{i} w{i + 2}", f"w{i + 1} x{i}"] for i in range(700)]
    options = dict(
        max_ngram=3,
        wlcs_weight=1.2,
        skip_distance=4,
        skip_both=True,
        stem=True,
        resamples=200,
        multi_ref="average",
    )
    one = score(predictions, references, **options, jobs=1)
    threaded = Rouge(**options, jobs=jobs).options
    executor = executors.executor_for(threaded, run_plan(threaded), True)
    assert isinstance(executor, executors.Threads) == _kernel.kernel_available()
    threads = score(predictions, references, **options, jobs=jobs)
    monkeypatch.setattr(planning, "kernel_applies", lambda *args: False)
    processes = score(predictions, references, **options, jobs=jobs)
    assert one.to_legacy() == threads.to_legacy() == processes.to_legacy()
    assert one.result("ROUGE-1", "a").instances == threads.result("ROUGE-1", "a").instances


def test_labels_are_derived_from_the_numbers() -> None:
    report = score(["a b"], ["a b"], max_ngram=0, wlcs_weight=1.2, skip_distance=4, confidence=90, **FAST)
    assert [r.label for r in report.results] == ["ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4"]
    assert "(90%-conf.int." in report.to_legacy()


def test_unlimited_skip_distance_is_s_star() -> None:
    report = score(["a b"], ["a b"], max_ngram=0, lcs=False, skip_distance=-1, skip_both=True, **FAST)
    assert [r.label for r in report.results] == ["ROUGE-S*", "ROUGE-SU*"]


@pytest.mark.parametrize(
    "options",
    [
        {"confidence": 150.0},
        {"confidence": -1},
        {"alpha": 2.0},
        {"wlcs_weight": 0},
        {"length_limit": 10, "byte_limit": 10},
        {"counting": 3},
        {"max_ngram": -1},
        {"jobs": 0},
        {"resamples": float("nan")},
    ],
)
def test_options_are_checked_when_built(options: dict) -> None:
    with pytest.raises(UsageError):
        Options("config.xml", **options)
    with pytest.raises(UsageError):
        Rouge(**options)


def test_unknown_keyword_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="max_n"):
        Rouge(max_n=2)
    with pytest.raises(TypeError, match="config_path"):
        Rouge(config_path="x.xml")


@pytest.mark.parametrize(
    ("predictions", "references"),
    [
        (["a", "b"], ["a"]),
        ({"A": ["a"], "B": ["a", "b"]}, ["a", "b"]),
        ("a single string", ["a"]),
        (["a"], "a single string"),
        ([["a", 3]], ["a"]),
        ({1: ["a"], "1": ["b"]}, ["a"]),
    ],
)
def test_malformed_inputs_are_usage_errors(predictions, references) -> None:
    with pytest.raises(UsageError):
        score(predictions, references)


def test_rouge_w_on_an_empty_reference_is_undefined() -> None:
    from rouge155py import ComputeError

    with pytest.raises(ComputeError, match="reference 1 of item 1"):
        score(["a b"], [""], wlcs_weight=1.2, **FAST)


def test_rows_give_one_dict_per_instance() -> None:
    report = score({"A": ["a b", "c"], "B": ["a", "c d"]}, ["a b", "c d"], max_ngram=1, **FAST)
    rows = [r for r in report.to_rows() if r["row"] == "instance"]
    assert len(rows) == 2 * 2 * 2  # peers x metrics x items
    first = rows[0]
    assert (first["peer_id"], first["metric"], first["eval_id"]) == ("A", "ROUGE-1", "1")
    assert Fraction(first["recall"]).limit_denominator(10) == 1
    assert report.to_json()["systems"]["B"]["ROUGE-1"]["instances"]["2"]["recall"] == 1.0


# --------------------------------------------------------------------------
# Bad arguments are refused at the door, naming the argument and the item
# --------------------------------------------------------------------------


class FrameLike:
    """What matters of a pandas DataFrame here: iterating it gives its column names."""

    columns = ("prediction", "reference")
    iloc = None

    def __iter__(self):
        return iter(self.columns)

    def __len__(self) -> int:
        return 1

    def __getitem__(self, column: str) -> list[str]:
        return ["the cat sat"]


class Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no text")

    __repr__ = __str__


P, R = ["the cat sat", "a dog ran"], ["a cat sat", "the dog ran"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Rouge(stem="no"), r"^stem must be True or False, got 'no'$"),
        (lambda: Rouge(max_ngram="2"), r"^max_ngram must be a whole number \(an int\), got '2'$"),
        (lambda: Rouge(jobs=2.0), r"^jobs must be a whole number \(an int\), got 2\.0$"),
        (lambda: Rouge(alpha=None), r"^alpha must be a number, got None$"),
        (lambda: Rouge(resamples=10**400), r"^resamples must be a finite number, got an int of 1329 bits$"),
        (lambda: Rouge(data_dir=3), r"^data_dir must be a path \(a str or os.PathLike\), got 3$"),
        (
            lambda: Rouge(be_mode="XX"),
            r"^be_mode must be one of H, HM, HMR, HM1, HMR1, HMR2 or None, got 'XX'",
        ),
        (
            lambda: score([P[0], None], R),
            r"^predictions\[1\] is None; expected a str, bytes or rouge155py\.Sentences$",
        ),
        (lambda: score([float("nan"), P[1]], R), r"^predictions\[0\] is nan; expected a str"),
        (lambda: score(P, [R[0], None]), r"^references\[1\] is None; expected a str, bytes"),
        (lambda: score(P, [R[0], [R[1], 7]]), r"^references\[1\]\[1\] is 7; expected a str"),
        (
            lambda: score([Sentences(["a", None])], ["a"]),  # type: ignore[list-item]
            r"^Sentences: sentence 2 is None; expected a str",
        ),
        (lambda: score([{"a b", "c d"}], ["a"]), r"^predictions\[0\] is a set; expected"),
        (
            lambda: score({"a b", "c d"}, R),
            r"^predictions is a set; expected an iterable of summaries or a",
        ),
        (lambda: score(FrameLike(), ["a"]), r"^predictions is a DataFrame; give one of its columns"),
        (lambda: score(P, "a b"), r"^references must be an iterable with one entry per prediction, not one"),
        (lambda: score(P, 7), r"^references is 7; expected an iterable with one entry per prediction"),
        (
            lambda: score([Unprintable()], ["a"]),
            r"^predictions\[0\] is a test_api\.Unprintable;",
        ),
        (
            lambda: score({Unprintable(): ["a"]}, ["a"]),
            r"^a system ID \(a key of predictions\) is a test_",
        ),
        (
            lambda: score({"A": None}, ["a"]),
            r"^predictions\['A'\] is None; expected an iterable of summaries",
        ),
        (
            lambda: evaluate_args("-a config.xml"),
            r"^the command line must be a list of arguments, not one",
        ),
        (lambda: evaluate_args(["-a", 2]), r"^argument 1 of the command line is 2; expected a str$"),
        (lambda: score_batch(5, Rouge().options), r"^items must be an iterable of items, got 5$"),
        (lambda: score_batch([], "x"), r"^options must be an Options or a Rouge, got 'x'$"),
        (lambda: summarize_batches([1], Rouge()), r"^batches holds 1; expected ScoredBatch objects$"),
        (
            lambda: summarize_batches([], Rouge(), "AB"),
            r"^peer_ids must be an iterable of system IDs, got",
        ),
    ],
)
def test_bad_arguments_are_usage_errors_naming_them(call, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        call()


def test_numpy_scalars_are_taken_as_the_python_numbers() -> None:
    python = score(P, R, max_ngram=2, skip_distance=4, alpha=0.3, stem=True, **FAST).to_legacy()
    options = {"max_ngram": np.int64(2), "skip_distance": np.int32(4), "alpha": np.float32(0.3)}
    numpy = score(P, R, stem=np.True_, resamples=np.int64(20), **options).to_legacy()
    assert numpy.replace("0.30000", "0.3") == python.replace("0.30000", "0.3")
    assert Rouge(**options).options.max_ngram.__class__ is int
    rouge = Rouge(max_ngram=1, **FAST)  # an item's index from a DataFrame's column is a numpy integer
    reports = [
        summarize_batches([score_batch([TextItem(kind(i), P[i], R[i]) for i in range(2)], rouge)], rouge)
        for kind in (int, np.int64)
    ]
    assert reports[0].to_legacy() == reports[1].to_legacy()


def test_the_dask_door_checks_its_arguments_before_it_needs_a_cluster() -> None:
    pytest.importorskip("distributed")
    from rouge155py.dask import score_on_cluster

    with pytest.raises(UsageError, match=r"^options must be an Options or a Rouge, got None$"):
        score_on_cluster([], None)
    with pytest.raises(
        UsageError, match=r"^client must be a dask.distributed.Client or None, got 'tcp://x'$"
    ):
        score_on_cluster([], Rouge(), client="tcp://x")
    with pytest.raises(UsageError, match=r"^items must be a dask.bag.Bag or a list of partitions, got 5$"):
        score_on_cluster(5, Rouge())
    with pytest.raises(UsageError, match=r"^peer_ids holds 1; expected system IDs as strings$"):
        score_on_cluster([], Rouge(), peer_ids=[1])


def test_progress_function_is_told_each_step_and_the_report_is_the_same() -> None:
    predictions = [f"the cat sat on mat {k}" for k in range(12)]
    references = [f"a cat sat on the mat {k % 5}" for k in range(12)]
    seen: list[tuple[str, int, int]] = []
    told = Rouge(**FAST).score(predictions, references, progress=lambda *step: seen.append(step))
    assert told.to_legacy() == Rouge(**FAST).score(predictions, references).to_legacy()
    scoring = [step for step in seen if step[0] == "scoring"]
    bootstrap = [step for step in seen if step[0] == "bootstrap"]
    assert scoring and scoring[-1] == ("scoring", 12, 12)
    assert [done for _, done, _ in scoring] == sorted(done for _, done, _ in scoring)
    tables = len(told.results)  # one table a metric of the system: rouge1, rouge2, rougeLsum
    assert bootstrap and bootstrap[-1] == ("bootstrap", tables, tables)


def test_progress_true_draws_the_terminal_line_and_erases_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io
    import sys

    import rouge155py.api as api
    from rouge155py.run.progress import TerminalProgress

    terminal = io.StringIO()
    asked: list[tuple[object, bool]] = []

    def drawn_at_once(stream: object, quiet: bool) -> TerminalProgress:
        asked.append((stream, quiet))
        return TerminalProgress(terminal, delay=0.0)

    monkeypatch.setattr(api, "terminal_progress", drawn_at_once)
    Rouge(**FAST).score(["the cat sat", "a dog ran"], ["a cat sat", "the dog ran"], progress=True)
    assert asked == [(sys.stderr, False)]
    drawn = terminal.getvalue()
    assert "2/2 evals scored" in drawn
    assert drawn.endswith("\r") and drawn.rstrip("\r").split("\r")[-1].strip() == ""  # erased at the end


@pytest.mark.parametrize("bad", ["yes", 1, object()])
def test_progress_must_be_a_flag_or_a_function(bad: object) -> None:
    with pytest.raises(UsageError, match="progress must be"):
        Rouge(**FAST).score(["the cat sat"], ["a cat sat"], progress=bad)  # type: ignore[arg-type]
