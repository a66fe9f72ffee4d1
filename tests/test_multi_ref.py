"""Several references per item: the rule is chosen (``multi_ref``), never a silent average."""

from __future__ import annotations

import random

import pytest

from rouge155py import Rouge, UsageError, score
from rouge155py.inputs.texts import config_from_texts
from rouge155py.metrics.batch import kernel_applies
from rouge155py.metrics.plan import metric_plan
from rouge155py.run.score import Scorer
from rouge155py.settings.options import Options

FAST = {"resamples": 5}
# peer "a b": reference 1 "a b c d e" has R 0.4, P 1, F 0.57143; reference 2 "a q" R 0.5, P 0.5, F 0.5.
PEER, REFS = ["a b"], [["a b c d e", "a q"]]


def row(report_rule: str, **options: object) -> tuple:
    report = score(PEER, REFS, max_ngram=1, multi_ref=report_rule, **FAST, **options)  # type: ignore[arg-type]
    return report.result("ROUGE-1").instances["1.1"]


def test_the_three_rules() -> None:
    assert row("average") == (0.42857, 0.75, 0.54545)  # 3 hits of 7 model words, of 4 peer words
    assert row("best") == (0.5, 0.5, 0.5)  # -f B: the highest recall
    assert row("best-f") == (0.4, 1.0, 0.57143)  # the highest F


def test_several_references_without_a_rule_are_refused() -> None:
    with pytest.raises(UsageError, match="item 1 has 3 references") as caught:
        score(["x", "a b"], ["x", ["a", "b", "c"]], max_ngram=1, **FAST)
    for choice in ("'average'", "'best'", "'best-f'"):
        assert choice in str(caught.value)
    score(["x", "a b"], ["x", ["a b"]], max_ngram=1, **FAST)  # one reference each: nothing to choose


def test_best_model_is_a_choice() -> None:
    a = score(PEER, REFS, max_ngram=1, best_model=False, **FAST)
    b = score(PEER, REFS, max_ngram=1, best_model=True, **FAST)
    assert a.to_legacy() == score(PEER, REFS, max_ngram=1, multi_ref="average", **FAST).to_legacy()
    assert b.to_legacy() == score(PEER, REFS, max_ngram=1, multi_ref="best", **FAST).to_legacy()
    assert a.options.signature("0") != b.options.signature("0")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"multi_ref": "mean"}, "multi_ref must be one of"),
        ({"multi_ref": "average", "best_model": True}, "two rules"),
        ({"multi_ref": "best-f", "best_model": True}, "two rules"),
        ({"multi_ref": "best-f", "counting": 1}, "not with -t 1/-t 2"),
        ({"multi_ref": "best-f", "counting": 2}, "not with -t 1/-t 2"),
        ({"multi_ref": "best", "dialect": "rouge-score"}, "highest F"),
        ({"multi_ref": "average", "dialect": "rouge-score"}, "highest F"),
    ],
)
def test_combinations_that_make_no_sense(options: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        Rouge(max_ngram=1, **options)


def test_the_rouge_score_dialect_takes_best_f_by_default() -> None:
    default = score(PEER, REFS, max_ngram=1, dialect="rouge-score", **FAST)
    chosen = score(PEER, REFS, max_ngram=1, dialect="rouge-score", multi_ref="best-f", **FAST)
    assert default.to_legacy() == chosen.to_legacy()
    assert default.options.multi_ref == "best-f"


def _texts(rng: random.Random, n: int) -> list[str]:
    words = "the cat sat on a mat dog ran to park and big small red".split()
    return [
        "\n".join(" ".join(rng.choices(words, k=rng.randint(1, 9))) for _ in range(rng.randint(1, 3)))
        for _ in range(n)
    ]


OPTIONS = [
    {"max_ngram": 2},
    {"max_ngram": 1, "wlcs_weight": 1.2, "skip_distance": 4, "skip_both": True, "stem": True},
    {"max_ngram": 3, "alpha": 0.3, "stopwords": True, "lcs": True},
]


@pytest.mark.parametrize("options", OPTIONS)
def test_best_f_is_the_row_of_the_reference_of_highest_f(options: dict) -> None:
    """Each item's row is the row of one of its references scored alone, the first of highest F."""
    rng = random.Random(24)
    items = 40
    predictions = _texts(rng, items)
    references = [_texts(rng, rng.randint(1, 4)) for _ in range(items)]
    best = score(predictions, references, multi_ref="best-f", **options, **FAST)
    for result in best.results:
        for i, (instance, found) in enumerate(result.instances.items()):
            alone = [
                score([predictions[i]], [ref], **options, **FAST).result(result.label).instances["1.1"]
                for ref in references[i]
            ]
            fs = [r[2] for r in alone]
            assert found == alone[fs.index(max(fs))], (result.label, instance)


def test_best_f_is_on_the_kernel_for_texts_by_columns_only() -> None:
    """The C kernel sums (-f A) or keeps the best recall (-f B) of documents; best-f is scored by
    the engine there, and by the kernel for texts held by columns (each reference alone)."""
    o = Options(max_ngram=2, multi_ref="best-f")
    assert o.scoring.best_f
    assert not kernel_applies(o.text, o.scoring, metric_plan(o.metrics))
    assert kernel_applies(o.text, o.scoring, metric_plan(o.metrics), columns=True)
    kernel = Scorer(o.text, o.scoring).kernel(metric_plan(o.metrics))
    assert kernel is not None
    assert kernel.rows(config_from_texts(["a b"], [["a", "b"]]).evals, ["1"]) is None
