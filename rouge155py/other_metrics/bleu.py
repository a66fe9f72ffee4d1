"""BLEU by sacrebleu (Post, 2018): its tokenizers, its sufficient statistics, its scores.

Nothing of BLEU is written here: the counts are sacrebleu's own per-segment statistics and the
scores its own functions of them, so that a system's score is ``sacrebleu.corpus_bleu`` of its
items and an item's ``sacrebleu.sentence_bleu``, on sacrebleu's 0-100 scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Optional, Sequence

import numpy as np

from ..errors import UsageError, install_hint
from .base import Item, OtherMetric, checked

__all__ = ["Bleu"]

_SMOOTHING = ("none", "floor", "add-k", "exp")


@dataclass(frozen=True)
class Bleu(OtherMetric):
    """BLEU as sacrebleu computes it, with its options: ``tokenize`` (``13a``, mteval-v13a's
    tokenizer; ``intl``, ``zh``, ``char``, ``none`` ...), ``lowercase``, ``smooth_method``
    (``exp``, ``floor``, ``add-k``, ``none``) and ``smooth_value`` (None: sacrebleu's default for
    the method), ``max_ngram_order``, ``force`` (no warning about tokenized input), and
    ``effective_order`` for the items' scores (sentence_bleu's ``use_effective_order``; the
    corpus score never uses it, as corpus_bleu by default).

    An item is one segment: the summary's sentences joined by one space are the hypothesis,
    each reference's sentences joined likewise a reference. Items may have different numbers of
    references: the missing ones are None in sacrebleu's reference streams, which it skips.
    A row holds sacrebleu's statistics: hypothesis length, closest reference length, then the
    matching and the total n-grams of each order. Scores are on sacrebleu's 0-100 scale.
    """

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: Optional[float] = None
    max_ngram_order: int = 4
    effective_order: bool = True
    force: bool = False

    name = "BLEU"

    def __post_init__(self) -> None:
        checked(self.tokenize, str, "tokenize", self.name)
        for option in ("lowercase", "effective_order", "force"):
            checked(getattr(self, option), bool, option, self.name)
        if self.smooth_method not in _SMOOTHING:
            known = ", ".join(_SMOOTHING)
            raise UsageError(
                f"{self.name}: option smooth_method must be one of {known}, got {self.smooth_method!r}"
            )
        if isinstance(self.smooth_value, str):  # --metrics bleu:smooth_value=0.2
            try:
                value = float(self.smooth_value)
            except ValueError:
                value = math.nan
            if not math.isfinite(value):
                raise UsageError(
                    f"{self.name}: option smooth_value must be a number, got {self.smooth_value!r}"
                )
            object.__setattr__(self, "smooth_value", value)
        if self.smooth_value is not None:
            checked(self.smooth_value, float, "smooth_value", self.name)
        if checked(self.max_ngram_order, int, "max_ngram_order", self.name) < 1:
            raise UsageError(
                f"{self.name}: option max_ngram_order must be at least 1, got {self.max_ngram_order}"
            )
        self._sacrebleu  # noqa: B018  sacrebleu, its tokenizer and the options are checked now

    @cached_property
    def _sacrebleu(self) -> tuple[Any, Any]:
        """sacrebleu's BLEU for the corpus score and for an item's (``effective_order``)."""
        try:
            from sacrebleu.metrics.bleu import BLEU
        except ImportError:
            raise UsageError(f"{self.name} needs sacrebleu: {install_hint('sacrebleu', 'metrics')}") from None
        if self.tokenize not in BLEU.TOKENIZERS:
            known = ", ".join(BLEU.TOKENIZERS)
            raise UsageError(
                f"{self.name}: sacrebleu has no tokenizer {self.tokenize!r} (its tokenizers: {known})"
            )
        options: dict[str, Any] = {
            "tokenize": self.tokenize,
            "lowercase": self.lowercase,
            "smooth_method": self.smooth_method,
            "smooth_value": self.smooth_value,
            "max_ngram_order": self.max_ngram_order,
            "force": self.force,
        }
        try:
            return BLEU(**options), BLEU(**options, effective_order=self.effective_order)
        except (ImportError, RuntimeError) as error:  # a tokenizer's own package (MeCab, sentencepiece)
            raise UsageError(
                f"{self.name}: sacrebleu's tokenizer {self.tokenize!r}: {str(error).strip()}"
            ) from None

    def counts(self, items: Sequence[Item]) -> np.ndarray:
        width = 2 + 2 * self.max_ngram_order
        if not items:
            return np.zeros((0, width), dtype=np.float64)
        empty = [item.eval_id for item in items if not item.references]
        if empty:
            raise UsageError(f"{self.name}: no reference for {', '.join(empty)}: BLEU needs one")
        most = max(len(item.references) for item in items)
        hypotheses = [" ".join(item.peer) for item in items]
        streams = [
            [" ".join(item.references[k]) if k < len(item.references) else None for item in items]
            for k in range(most)
        ]
        statistics = self._sacrebleu[0]._extract_corpus_statistics(hypotheses, streams)
        return np.array(statistics, dtype=np.float64).reshape(len(items), width)

    def score(self, counts: np.ndarray) -> float:
        """corpus_bleu's score of the summed statistics (one item's alone too)."""
        return float(self._sacrebleu[0]._compute_score_from_stats([int(c) for c in counts]).score)

    def item_score(self, counts: np.ndarray) -> float:
        """sentence_bleu's score of one item's statistics."""
        return float(self._sacrebleu[1]._compute_score_from_stats([int(c) for c in counts]).score)

    def signature(self) -> str:
        """sacrebleu's own signature of the corpus score (``nrefs:4|case:mixed|eff:no|tok:13a|
        smooth:exp|version:2.6.0``); ``nrefs`` is the last :meth:`counts`' (``var`` where the
        items' numbers differ), left out before any."""
        corpus = self._sacrebleu[0]
        if not hasattr(corpus, "num_refs"):
            return str(corpus._SIGNATURE_TYPE({**vars(corpus), "num_refs": None}))
        return str(corpus.get_signature())
