"""torchmetrics' face: :class:`Rouge`, a ``torchmetrics.Metric`` (``pip install torch torchmetrics``,
or ``'.[torch]'`` in the checkout).

    from rouge155py.torchmetrics import Rouge

    metric = Rouge()  # torchmetrics' ROUGEScore keys; dialect="rouge-score" for its numbers
    for predictions, references in loader:
        metric.update(predictions, references)
    metric.compute()  # {"rouge1_fmeasure": tensor(...), "rouge1_precision": ..., ...}

It takes ``ROUGEScore``'s arguments (``rouge_keys``, ``use_stemmer``, ``accumulate``) and
returns its keys, ``{key}_fmeasure``, ``{key}_precision`` and ``{key}_recall`` for each of
``rouge1`` ... ``rouge9``, ``rougeL`` (the LCS of each whole text) and ``rougeLsum`` (the union
LCS over a summary's lines), as float64 tensors:

- by default ROUGE-1.5.5's numbers: each is the average the Perl prints (its bootstrap mean of
  the items' scores), ``rougeL`` the Perl's ROUGE-L of the texts written as one line each;
- with ``dialect="rouge-score"``, rouge-score's (torchmetrics' ``ROUGEScore`` computes them
  too): each is the mean of the items' scores.

Several references per item: ``accumulate="best"`` (torchmetrics' default) keeps, per key, the
reference of highest F; ``accumulate="avg"`` is refused (torchmetrics averages the references'
scores, which neither dialect does: ``multi_ref="average"`` is the Perl's ``-f A``, counts
summed over the references, and may be given in ROUGE-1.5.5's dialect). Other keyword
arguments are :class:`rouge155py.Rouge`'s options (``alpha``, ``stopwords``, ``resamples``
...) or ``torchmetrics.Metric``'s (``sync_on_compute``, ``process_group`` ...).

Each :meth:`~Rouge.update` scores its items at once with a
:class:`~rouge155py.RougeAccumulator` and keeps its rows, not the texts, as bytes in a
tensor state that torchmetrics gathers across processes (``dist_reduce_fx="cat"``);
:meth:`~Rouge.compute` takes the items of every process in rank order, then update order, and
gives the numbers one process would give for those items in that order. The bytes are a
pickle: the processes of one job trust each other, as ``torch.distributed`` does.
"""

from __future__ import annotations

import pickle
import re
import struct
from typing import Any, Optional, Sequence, Union

import torch
from torchmetrics import Metric

from .api import Rouge as _Rouge
from .errors import InvalidValue, UsageError, described
from .inputs.texts import one_line
from .settings.habits import unknown_keyword
from .settings.options import ROWS

__all__ = ["KEYS", "Rouge"]

#: torchmetrics' default keys.
KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
_KEY = re.compile(r"rouge[1-9]|rougeL|rougeLsum")
_OPTIONS = frozenset(row.name for row in ROWS)
#: ``torchmetrics.Metric``'s own keywords (its version 1).
_METRIC = frozenset(
    ("compute_on_cpu", "dist_sync_on_step", "process_group", "dist_sync_fn", "distributed_available_fn",
     "sync_on_compute", "compute_with_cache")
)  # fmt: skip
_FRAME = struct.Struct("<Q")  # each update's bytes are preceded by their length


class Rouge(Metric):
    """ROUGE as a ``torchmetrics.Metric``, with ``ROUGEScore``'s arguments and keys (see the module)."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(
        self,
        rouge_keys: Union[str, Sequence[str]] = KEYS,
        use_stemmer: bool = False,
        accumulate: str = "best",
        dialect: Optional[str] = None,
        **kwargs: Any,
    ) -> None:
        for name, value in kwargs.items():
            if name not in _OPTIONS and name not in _METRIC:
                raise unknown_keyword(
                    name, value, (*_OPTIONS, *_METRIC, "rouge_keys", "use_stemmer", "dialect")
                )
        options = {name: value for name, value in kwargs.items() if name in _OPTIONS}
        super().__init__(**{name: value for name, value in kwargs.items() if name not in _OPTIONS})
        keys = (rouge_keys,) if isinstance(rouge_keys, str) else tuple(rouge_keys)
        wrong = [key for key in keys if not isinstance(key, str) or not _KEY.fullmatch(key)]
        if not keys or wrong:
            raise InvalidValue(
                f"rouge_keys are rouge1 ... rouge9, rougeL and rougeLsum, got {described(wrong or keys)}"
            )
        if accumulate != "best":
            raise UsageError(
                f"accumulate={accumulate!r}: the reference of highest F ('best') is the rule of both "
                "dialects; multi_ref='average' (ROUGE-1.5.5's -f A) sums counts over the references"
            )
        if not isinstance(use_stemmer, bool):
            raise UsageError(f"use_stemmer must be True or False, got {described(use_stemmer)}")
        for name in ("rouge_types", "stem"):
            if name in options:
                raise UsageError(f"{name} is set by rouge_keys and use_stemmer, not given apart")
        options.setdefault("multi_ref", "best-f")
        if dialect is not None and options["multi_ref"] != "best-f":
            raise UsageError("dialect='rouge-score' keeps the reference of highest F: multi_ref='best-f'")
        self.keys = tuple(dict.fromkeys(keys))
        self.dialect = dialect
        summed = [key for key in self.keys if key != "rougeL"]
        # (the keys, the names scored, whether the texts are written as one line): rougeL, the
        # LCS of each whole text, is ROUGE-L (rougeLsum) of the texts written as one line each.
        self._runs: list[tuple[list[str], list[str], bool, _Rouge]] = []
        for run_keys, names, lines in ((summed, summed, False), (["rougeL"], ["rougeLsum"], True)):
            if run_keys and (not lines or "rougeL" in self.keys):
                rouge = _Rouge(rouge_types=names, stem=use_stemmer, dialect=dialect, **options)
                self._runs.append((run_keys, names, lines, rouge))
        self.add_state("updates", default=[], dist_reduce_fx="cat")

    def update(self, preds: Union[str, Sequence[str]], target: Union[str, Sequence[Any]]) -> None:
        """Score a batch: ``preds`` one summary per item (a string alone: one item), ``target`` per
        item a reference or a list of them (torchmetrics' shapes); keep its rows."""
        predictions, references = _items(preds, target)
        accumulators = []
        for _, _, lines, rouge in self._runs:
            accumulator = rouge.accumulator()
            if lines:
                accumulator.update([one_line(p) for p in predictions], [one_line(r) for r in references])
            else:
                accumulator.update(predictions, references)
            accumulators.append(accumulator)
        payload = pickle.dumps(accumulators, protocol=pickle.HIGHEST_PROTOCOL)
        frame = torch.frombuffer(bytearray(_FRAME.pack(len(payload)) + payload), dtype=torch.uint8)
        updates: Any = self.updates
        updates.append(frame.to(self.device))

    def compute(self) -> dict[str, torch.Tensor]:
        """Each key's precision, recall and F over every item so far, of every process."""
        updates: Any = self.updates  # a list of tensors, or one once gathered from the processes
        if isinstance(updates, list):
            updates = torch.cat(updates) if updates else None
        data = b"" if updates is None else bytes(updates.cpu().numpy())
        totals = [rouge.accumulator() for *_, rouge in self._runs]
        at = 0
        while at < len(data):
            (size,) = _FRAME.unpack_from(data, at)
            at += _FRAME.size
            for total, part in zip(totals, pickle.loads(data[at : at + size])):
                total.merge(part)
            at += size
        if not totals or not len(totals[0]):
            raise UsageError("nothing to compute: no item was given to update()")
        found: dict[str, torch.Tensor] = {}
        for (keys, names, _, _), total in zip(self._runs, totals):
            report = total.compute()
            for key, name in zip(keys, names):
                scores = report[name]
                value = scores.mean if self.dialect is not None else scores.bootstrap_mean
                for measure in ("fmeasure", "precision", "recall"):
                    found[f"{key}_{measure}"] = torch.tensor(getattr(value, measure), dtype=torch.float64)
        return {f"{key}_{measure}": found[f"{key}_{measure}"] for key in self.keys for measure in _MEASURES}


_MEASURES = ("fmeasure", "precision", "recall")


def _items(preds: Any, target: Any) -> tuple[list[Any], list[Any]]:
    """torchmetrics' shapes as :meth:`rouge155py.Rouge.score` reads them: a string alone is one
    item; references a list of strings, per item (a single one is a list of one)."""
    if isinstance(target, (list, tuple)) and all(isinstance(t, str) for t in target):
        target = [list(target)] if isinstance(preds, str) else [[t] for t in target]
    if isinstance(preds, str):
        preds = [preds]
    if isinstance(target, str):
        target = [[target]]
    if not isinstance(preds, (list, tuple)) or not isinstance(target, (list, tuple)):
        raise UsageError(
            f"preds and target are lists of strings (target: per item a string or a list of them), "
            f"got {described(preds)} and {described(target)}"
        )
    references = [list(t) if isinstance(t, (list, tuple)) else [t] for t in target]
    return list(preds), [r[0] if len(r) == 1 else r for r in references]
