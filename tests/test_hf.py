"""The HF ``evaluate`` metric shipped in the package: loaded offline by the real ``evaluate``, HF rouge's
arguments and keys, and the numbers of :class:`rouge155py.Rouge` (or rouge-score's) for the same texts."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest
from tier import first_fast

import rouge155py
from rouge155py import Rouge, UsageError
from rouge155py.hf import compute
from rouge155py.metrics.scoring import rounded

if importlib.util.find_spec("evaluate") is None:
    pytest.skip("evaluate is not installed (pip install evaluate, or '.[hf]')", allow_module_level=True)

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "duc-mini" / "spl"
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
WORDS = (
    "the a cat cats dog sat sits on mat barked running ran at night big red 1999 u.s. officials said".split()
)


def example(system: str = "1") -> tuple[list[str], list[list[str]]]:
    """The bundled example's summaries of one system and the four references of each topic."""
    topics = [f"D{k:02d}" for k in range(1, 11)]
    read = lambda name: (EXAMPLE / name).read_text(encoding="utf-8")  # noqa: E731
    predictions = [read(f"{t}.P.100.{system}.spl") for t in topics]
    references = [[read(f"{t}.M.100.{m}.spl") for m in "ABCD"] for t in topics]
    return predictions, references


def random_texts(seed: int, items: int) -> tuple[list[str], list[Any]]:
    rng = random.Random(seed)

    def text() -> str:
        lines = rng.randint(1, 3)
        return "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 10))) for _ in range(lines))

    # HF's inputs: every reference entry a string, or every one a list (one Arrow column type).
    several = rng.random() < 0.5
    references = [[text() for _ in range(rng.randint(1, 3))] if several else text() for _ in range(items)]
    return [text() for _ in range(items)], references


@pytest.fixture(scope="module")
def metric(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The module as ``evaluate.load`` gives it, loaded offline into a fresh HF cache."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in {**OFFLINE, "HF_HOME": str(tmp_path_factory.mktemp("hf"))}.items():
            patch.setenv(name, value)
        import evaluate

        yield evaluate.load(rouge155py.evaluate_module_path())


LOAD_OFFLINE = """
import json, socket, sys
tried = []
def refuse(self, *args):
    tried.append(repr(args))
    raise OSError("the network is off")
socket.socket.connect = refuse
socket.create_connection = lambda *a, **k: refuse(None, *a)
import evaluate, rouge155py
metric = evaluate.load(rouge155py.evaluate_module_path())
args = json.loads(sys.stdin.read())
found = [metric.compute(**kwargs) for kwargs in args]
print(json.dumps({"name": metric.name, "found": found, "tried": tried}))
"""


@pytest.mark.slow
def test_evaluate_loads_the_module_offline_without_opening_a_socket(tmp_path: Path) -> None:
    predictions, references = example()
    calls = [
        {"predictions": predictions, "references": references},
        {"predictions": predictions, "references": [r[0] for r in references], "use_aggregator": False},
        {"predictions": predictions, "references": references, "use_stemmer": True, "dialect": "rouge-score"},
    ]
    env = {**os.environ, **OFFLINE, "HF_HOME": str(tmp_path), "HF_ENDPOINT": "http://127.0.0.1:9"}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", LOAD_OFFLINE], input=json.dumps(calls), env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["tried"] == [] and out["name"] == "rouge155py"
    for kwargs, found in zip(calls, out["found"]):
        assert list(found) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        if kwargs.get("use_aggregator", True):
            assert all(isinstance(v, float) for v in found.values())
        else:
            assert all(isinstance(v, list) and len(v) == 10 for v in found.values())
        if "dialect" not in kwargs:  # the rouge-score dialect's aggregate draws from numpy's global state
            assert found == compute(**kwargs)


def _perl(
    predictions: list[str], references: list[Any], **options: Any
) -> tuple[dict[str, float], dict[str, list[float]]]:
    """What Rouge prints for these texts: the average F and each item's F, by rouge-score name."""
    names = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-L": "rougeLsum", "ROUGE-W-1.2": "rougeW-1.2"}
    names["ROUGE-SU4"] = "rougeSU4"
    report = Rouge(**options).score(predictions, references)
    average = {names[r.label]: rounded(r.summary.average[2]) for r in report.results}  # type: ignore[union-attr]
    items = {
        names[r.label]: [r.instances[f"{k + 1}.1"][2] for k in range(len(predictions))]
        for r in report.results
    }
    return average, items


def _one_line(summary: Any) -> Any:
    return [_one_line(s) for s in summary] if isinstance(summary, list) else summary.replace("\n", " ")


@pytest.mark.parametrize("texts", first_fast(["example-1", "example-3", "random-1", "random-2"]))
@pytest.mark.parametrize("stem", [False, True])
def test_perl_numbers_are_rouges(metric: Any, texts: str, stem: bool) -> None:
    kind, seed = texts.split("-")
    predictions, references = example(seed) if kind == "example" else random_texts(int(seed), 60)
    for rule in ("best-f", "average", "best"):
        given = {} if rule == "best-f" else {"multi_ref": rule}
        average, items = _perl(predictions, references, max_ngram=2, stem=stem, multi_ref=rule)
        whole_average, whole_items = _perl(
            _one_line(predictions), _one_line(references), stem=stem, multi_ref=rule
        )
        found = metric.compute(predictions=predictions, references=references, use_stemmer=stem, **given)
        assert found == {**average, "rougeL": whole_average["rougeLsum"], "rougeLsum": average["rougeLsum"]}
        assert list(found) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        found = metric.compute(
            predictions=predictions, references=references, use_stemmer=stem, use_aggregator=False, **given
        )
        assert found == {**items, "rougeL": whole_items["rougeLsum"], "rougeLsum": items["rougeLsum"]}


def test_the_perls_other_metrics_and_options(metric: Any) -> None:
    predictions, references = example("2")
    average, _ = _perl(
        predictions, references, wlcs_weight=1.2, skip_distance=4, skip_unigrams=True, lcs=False,
        multi_ref="average", resamples=200, stopwords=True,
    )  # fmt: skip
    found = metric.compute(
        predictions=predictions, references=references, rouge_types=["rougeSU4", "rougeW-1.2"],
        multi_ref="average", resamples=200, stopwords=True,
    )  # fmt: skip
    assert found == {"rougeSU4": average["rougeSU4"], "rougeW-1.2": average["rougeW-1.2"]}


def _upstream(
    predictions: list[str], references: list[Any], types: list[str], stem: bool, tokenizer: Any
) -> Any:
    """rouge-score 0.1.2 itself, as HF's rouge module calls it."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem, tokenizer=tokenizer)
    return [
        scorer.score_multi(r, p) if isinstance(r, list) else scorer.score(r, p)
        for r, p in zip(references, predictions)
    ]


class _Words:
    def tokenize(self, text: str) -> list[str]:
        return text.lower().split()


@pytest.mark.parametrize("texts", first_fast(["example", "random-2", "random-4"]))
@pytest.mark.parametrize("stem", [False, True])
def test_the_rouge_score_dialect_is_rouge_scores(metric: Any, texts: str, stem: bool) -> None:
    pytest.importorskip("rouge_score")
    from rouge_score import scoring

    predictions, references = example() if texts == "example" else random_texts(int(texts[-1]), 60)
    types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
    for tokenizer in (None, _Words()):
        upstream = _upstream(predictions, references, types, stem, tokenizer)
        split = None if tokenizer is None else (lambda text: text.lower().split())  # HF takes a callable
        found = metric.compute(
            predictions=predictions, references=references, rouge_types=types, use_stemmer=stem,
            use_aggregator=False, dialect="rouge-score", tokenizer=split,
        )  # fmt: skip
        assert found == {t: [s[t].fmeasure for s in upstream] for t in types}
        np.random.seed(7)
        aggregator = scoring.BootstrapAggregator()
        for s in upstream:
            aggregator.add_scores(s)
        expected = {t: v.mid.fmeasure for t, v in aggregator.aggregate().items()}
        # The aggregate draws from numpy's global state, which evaluate's compute() draws from first
        # too: the same state given to compute() itself gives rouge-score's value.
        np.random.seed(7)
        found = compute(
            predictions,
            references,
            rouge_types=types,
            use_stemmer=stem,
            dialect="rouge-score",
            tokenizer=split,
        )
        assert found == {t: expected[t] for t in types}
        found = metric.compute(
            predictions=predictions, references=references, rouge_types=types, use_stemmer=stem,
            dialect="rouge-score", tokenizer=split,
        )  # fmt: skip
        assert list(found) == types and all(isinstance(v, float) for v in found.values())
    # Each item's F is the engine's rouge-score door's too (its ROUGE-L is rougeLsum).
    report = Rouge(dialect="rouge-score", max_ngram=2, stem=stem).score(predictions, references)
    found = metric.compute(
        predictions=predictions, references=references, use_stemmer=stem, use_aggregator=False,
        dialect="rouge-score",
    )  # fmt: skip
    for label, name in (("ROUGE-1", "rouge1"), ("ROUGE-2", "rouge2"), ("ROUGE-L", "rougeLsum")):
        rows = report.result(label).instances
        assert found[name] == [rows[f"{k + 1}.1"][2] for k in range(len(predictions))]


@pytest.mark.slow
def test_mistakes_are_one_clear_error(metric: Any) -> None:
    predictions, references = example()
    cases = [
        ({"tokenizer": str.split}, "tokenizer= needs dialect='rouge-score'"),
        ({"rouge_types": ["rougeX"]}, "unknown metric name 'rougeX'"),
        ({"rouge_types": ["rougeX"], "dialect": "rouge-score"}, "Invalid rouge type: rougeX"),
        ({"dialect": "perl"}, "dialect must be None"),
        ({"dialect": "rouge-score", "multi_ref": "average"}, "rouge-score takes the reference of highest F"),
        ({"dialect": "rouge-score", "resamples": 10}, "takes no other option: resamples"),
        ({"max_ngram": 3}, "max_ngram: set by rouge_types"),
        ({"use_stemmer": "yes"}, "use_stemmer must be True or False"),
        ({"tokenizer": 5, "dialect": "rouge-score"}, "tokenizer must be a callable"),
        ({"multi_ref": "mean"}, "multi_ref must be one of"),
    ]
    for kwargs, message in cases:
        with pytest.raises(UsageError, match=message.replace("(", r"\(")):
            metric.compute(predictions=predictions, references=references, **kwargs)
    with pytest.raises(UsageError, match="2 predictions but 1 references"):
        compute(["a", "b"], ["a"])
    with pytest.raises(UsageError, match="reference 1 is a list; expected a str or a non-empty list of str"):
        compute(["a"], [[]])
