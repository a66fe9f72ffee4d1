"""ROUGE-N and skip-bigram counts of instances: the C kernel per peer and its models, else
the plain definitions.

The kernel enumerates the units exactly as the plain definitions in
:mod:`.ngram` and :mod:`.skipbigram` do and clips each against the model's
counts. Without it, each metric counts its units by its definition
(:meth:`UnitMetric.grams`), once per document and stemming choice of a chunk;
a skip-bigram metric scores a text of more units than ``_HELD_UNITS`` pair by
pair, holding only the units of the text with fewer of them.
"""

from __future__ import annotations

from array import array
from itertools import starmap
from typing import TYPE_CHECKING, Hashable, Iterator, Optional, Sequence

from .. import _kernel
from . import GIVEN_MODEL, GIVEN_PEER, Grams, ModelCounts, given_list, score_grams, skip_reach
from .base import EMPTY, Metric, Task, Trace

if TYPE_CHECKING:
    from ..inputs.readers import Document
    from ..text.corpus import Corpus

__all__ = ["LONGEST_NGRAM", "UnitMetric", "available", "peer_counts", "skip_reach"]

#: The longest n-gram the kernel counts.
LONGEST_NGRAM = 64  # the kernel's limit; longer n-grams take the plain definition


def available(n: int) -> bool:
    """Whether the kernel can count units of this size (n = 0: skip-bigrams)."""
    return _kernel.accel is not None and n <= LONGEST_NGRAM


def peer_counts(
    peer: array, models: Sequence[array], n: int, distance: Optional[float], unigrams: bool
) -> list[ModelCounts]:
    """Counts of n-grams (n > 0) or of skip-bigrams within ``distance`` (n = 0), per model."""
    assert _kernel.accel is not None  # asked for where the kernel is available (see available())
    if n:
        found = _kernel.accel.unit_hits(peer, models, 0, n, 0, False)
    else:
        reach = skip_reach(-1 if distance is None else distance)
        found = _kernel.accel.unit_hits(peer, models, 1, 0, reach, unigrams)
    return list(starmap(ModelCounts, found))


class UnitMetric(Metric):
    """A metric that counts clipped units of the n-gram reader's tokens: n-grams (n > 0) or skip-bigrams."""

    n: int = 0
    distance: Optional[float] = None
    unigrams: bool = False

    @property
    def reach(self) -> int:
        """The largest j - i of the skip-bigrams counted (-1: no limit)."""
        return skip_reach(-1 if self.distance is None else self.distance)

    def grams(self, tokens: Sequence[Hashable]) -> Grams:
        """The units of a token sequence, by the metric's plain definition."""
        raise NotImplementedError

    def counts(self, corpus: Corpus, tasks: list[Task]) -> list[list[ModelCounts]]:
        ids = corpus.token_ids
        if available(self.n):
            return [
                self._kernel_counts(
                    ids(t.peer, t.peer_stem), [ids(m, s) for m, (s, _) in zip(t.models, t.model_stems)]
                )
                for t in tasks
            ]

        def units(document: object, stem: bool) -> Optional[Grams]:
            tokens = ids(document, stem)  # type: ignore[arg-type]
            if not self.holds(len(tokens)):
                return None
            return corpus.view((self, document, stem), lambda: self.grams(tokens))

        out = []
        for t in tasks:
            peer = units(t.peer, t.peer_stem)
            found = []
            for m, (stem, _) in zip(t.models, t.model_stems):
                model = units(m, stem)
                if peer is None or model is None:
                    found.append(self.long_counts(ids(t.peer, t.peer_stem), ids(m, stem)))
                else:
                    found.append(score_grams(model, peer))
            out.append(found)
        return out

    def holds(self, tokens: int) -> bool:
        """Whether the units of a text of this many tokens are held whole (else :meth:`long_counts`)."""
        return True

    def long_counts(self, peer: Sequence[Hashable], model: Sequence[Hashable]) -> ModelCounts:
        """The counts of one pair of which a text is too long for its units to be held."""
        raise NotImplementedError

    def score_pair(self, peer: Sequence[Hashable], model: Sequence[Hashable]) -> ModelCounts:
        ids: dict[Hashable, int] = {}
        peer_ids, model_ids = (
            array("i", [ids.setdefault(t, len(ids)) for t in given_list(text, name)])
            for text, name in ((peer, GIVEN_PEER), (model, GIVEN_MODEL))
        )
        if available(self.n):
            return self._kernel_counts(peer_ids, [model_ids])[0]
        if self.holds(len(peer_ids)) and self.holds(len(model_ids)):
            return score_grams(self.grams(model_ids), self.grams(peer_ids))
        return self.long_counts(peer_ids, model_ids)

    def trace(self, trace: Trace, task: Task) -> Iterator[str]:
        """The n-gram reader's text of the peer and each model, and the units counted."""

        def text(document: Document, stem: bool) -> Iterator[str]:
            words, tokens = trace.gram_text(document, stem)
            if words is None:
                yield EMPTY
            else:
                yield words
                yield trace.units(self.grams(tokens), False, "|")

        peer = list(text(task.peer, task.peer_stem))  # read first: the Perl dies there, before its line
        yield f"***P {trace.name(task.peer)}"
        yield from peer
        for model, (stem, _) in zip(task.models, task.model_stems):
            yield from text(model, stem)
            yield f"***M {trace.name(model)}"

    def _kernel_counts(self, peer: array, models: Sequence[array]) -> list[ModelCounts]:
        """The kernel's counts of a peer against each model, from their token ids."""
        return peer_counts(peer, models, self.n, self.distance, self.unigrams)
