"""``rouge155py.torchmetrics.Rouge``: a ``torchmetrics.Metric`` with ``ROUGEScore``'s keys.

In the rouge-score dialect its numbers are torchmetrics' own ``ROUGEScore``'s on the keys both
compute offline (``rougeLsum`` there needs nltk's punkt model); in ROUGE-1.5.5's, they are
:class:`rouge155py.Rouge`'s report of the same items. Two processes under ``torch.distributed``
(gloo, on the CPU) give the numbers of one process given both shards in rank order.

torch and torchmetrics are optional (``'.[torch]'``): where they are missing the module is
skipped, unless ``ROUGE155PY_REQUIRE_TORCH=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("ROUGE155PY_REQUIRE_TORCH") != "1":
    pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")

import torch
from torchmetrics.text.rouge import ROUGEScore

from rouge155py import Rouge as Rouge155
from rouge155py.errors import InvalidValue, UsageError
from rouge155py.torchmetrics import KEYS, Rouge

REPO = Path(__file__).resolve().parent.parent
SHARED = ("rouge1", "rouge2", "rougeL")  # rougeLsum: torchmetrics splits with nltk's punkt model
WORDS = "the a cat cats dog dogs sat sitting ran running on mat mats night bark barked loud 2024 fox".split()


def _text(rng: random.Random, lines: int) -> str:
    return "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))) for _ in range(lines))


def _items(seed: int, count: int) -> tuple[list[str], list[Any]]:
    rng = random.Random(seed)
    predictions = [_text(rng, rng.randint(1, 3)) for _ in range(count)]
    references: list[Any] = []
    for _ in range(count):
        several = [_text(rng, rng.randint(1, 3)) for _ in range(rng.randint(1, 3))]
        references.append(several if len(several) > 1 or rng.random() < 0.5 else several[0])
    return predictions, references


def _values(found: dict[str, torch.Tensor]) -> dict[str, float]:
    return {key: float(value) for key, value in found.items()}


@pytest.mark.parametrize("stem", [False, True])
def test_the_rouge_score_dialect_gives_torchmetrics_numbers(stem: bool) -> None:
    predictions, references = _items(7, 300)
    ours = Rouge(rouge_keys=SHARED, use_stemmer=stem, dialect="rouge-score")
    for start in range(0, 300, 64):  # in batches, as a loop gives them
        ours.update(predictions[start : start + 64], references[start : start + 64])
    theirs = ROUGEScore(rouge_keys=SHARED, use_stemmer=stem)
    theirs.update(predictions, [r if isinstance(r, list) else [r] for r in references])
    mine, reference = _values(ours.compute()), _values(theirs.compute())
    assert list(mine) == list(reference)  # the same keys, in the same order
    largest = max(abs(mine[key] - reference[key]) for key in mine)
    assert largest < 1e-6, largest  # torchmetrics keeps float32 scores


@pytest.mark.parametrize("dialect", [None, "rouge-score"])
def test_the_numbers_are_the_reports_of_the_same_items(dialect: Any) -> None:
    predictions, references = _items(11, 40)
    metric = Rouge(use_stemmer=True, dialect=dialect)
    metric.update(predictions[:25], references[:25])
    metric.update(predictions[25:], references[25:])
    found = _values(metric.compute())
    rouge = Rouge155(
        rouge_types=["rouge1", "rouge2", "rougeLsum"], stem=True, dialect=dialect, multi_ref="best-f"
    )
    report = rouge.score(predictions, references)
    one_line = Rouge155(rouge_types=["rougeLsum"], stem=True, dialect=dialect, multi_ref="best-f").score(
        [" ".join(p.splitlines()) for p in predictions],
        [
            [" ".join(t.splitlines()) for t in r] if isinstance(r, list) else " ".join(r.splitlines())
            for r in references
        ],
    )
    for key, result in (
        ("rouge1", report["rouge1"]),
        ("rouge2", report["rouge2"]),
        ("rougeLsum", report["rougeLsum"]),
        ("rougeL", one_line["rougeLsum"]),
    ):
        value = result.mean if dialect else result.bootstrap_mean  # the Perl's printed average
        for measure in ("fmeasure", "precision", "recall"):
            assert found[f"{key}_{measure}"] == getattr(value, measure), (key, measure)
    assert list(found) == [f"{key}_{m}" for key in KEYS for m in ("fmeasure", "precision", "recall")]


def test_forward_gives_the_batch_and_keeps_it() -> None:
    predictions, references = _items(3, 20)
    metric = Rouge(rouge_keys=("rouge1", "rougeL"))
    batch = _values(metric(predictions[:10], references[:10]))
    alone = Rouge(rouge_keys=("rouge1", "rougeL"))
    alone.update(predictions[:10], references[:10])
    assert batch == _values(alone.compute())
    metric(predictions[10:], references[10:])
    whole = Rouge(rouge_keys=("rouge1", "rougeL"))
    whole.update(predictions, references)
    assert _values(metric.compute()) == _values(whole.compute())
    metric.reset()
    with pytest.warns(UserWarning, match="before the ``update``"), pytest.raises(UsageError, match="no item"):
        metric.compute()


def test_torchmetrics_shapes_and_refusals() -> None:
    metric = Rouge(rouge_keys="rouge1", dialect="rouge-score")
    metric.update("the cat sat", "a cat sat")  # one item, one reference
    metric.update(["dogs bark"], ["dogs bark loud"])  # a list of references: one each
    assert float(metric.compute()["rouge1_fmeasure"]) == pytest.approx((2 / 3 + 0.8) / 2)
    with pytest.raises(InvalidValue, match="rouge_keys"):
        Rouge(rouge_keys=("rouge10",))
    with pytest.raises(ValueError):  # as torchmetrics raises for a key it does not know
        Rouge(rouge_keys=("rougeX",))
    with pytest.raises(UsageError, match="accumulate='avg'"):
        Rouge(accumulate="avg")
    with pytest.raises(UsageError, match="set by rouge_keys"):
        Rouge(stem=True)
    with pytest.raises(TypeError, match="did you mean `alpha`"):  # not torchmetrics' ValueError
        Rouge(alpah=0.2)
    moved = Rouge(rouge_keys="rouge1", alpha=0.2, sync_on_compute=False).to(torch.device("cpu"))
    moved.update("the cat sat", "a cat sat")
    assert float(moved.compute()["rouge1_fmeasure"]) == 0.66667  # Rouge's options pass through


_RANK = """
import json, sys
import torch.distributed as dist
from rouge155py.torchmetrics import Rouge

dist.init_process_group("gloo")
rank = dist.get_rank()
shards = json.loads(open(sys.argv[1], encoding="utf-8").read())
predictions, references = shards[rank]
found = {}
for dialect in (None, "rouge-score"):
    metric = Rouge(use_stemmer=True, dialect=dialect)
    half = len(predictions) // 2
    metric.update(predictions[:half], references[:half])
    metric.update(predictions[half:], references[half:])
    found[str(dialect)] = {key: float(value) for key, value in metric.compute().items()}
open(f"{sys.argv[2]}/rank{rank}.json", "w", encoding="utf-8").write(json.dumps(found))
dist.destroy_process_group()
"""


@pytest.mark.slow
def test_two_processes_give_the_numbers_of_one(tmp_path: Path) -> None:
    predictions, references = _items(19, 60)
    shards = [[predictions[:37], references[:37]], [predictions[37:], references[37:]]]  # uneven
    (tmp_path / "shards.json").write_text(json.dumps(shards), encoding="utf-8")
    (tmp_path / "rank.py").write_text(textwrap.dedent(_RANK), encoding="utf-8")
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOO_SOCKET_IFNAME="lo")
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]
    done = subprocess.run(
        [*command, str(tmp_path / "rank.py"), str(tmp_path / "shards.json"), str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text(encoding="utf-8")) for r in (0, 1)]
    for dialect in (None, "rouge-score"):
        one = Rouge(use_stemmer=True, dialect=dialect)
        one.update(predictions, references)
        expected = _values(one.compute())
        assert ranks[0][str(dialect)] == ranks[1][str(dialect)] == expected
