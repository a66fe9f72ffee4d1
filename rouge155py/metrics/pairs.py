"""ROUGE-N and skip-bigram counts of instances: the C kernel per peer and its models, else numpy.

The kernel enumerates the units exactly as the plain definitions in
:mod:`.ngram` and :mod:`.skipbigram` do and clips each against the model's
counts; without the kernel, :mod:`.units` computes the same for many pairs at
once, in groups of instances whose documents hold about ``_CHUNK_UNITS`` units.
A document of more skip-bigrams than that (they number up to n^2 / 2 for n
tokens) is scored pair by pair instead, without holding its units: both ways
hold only the units of the text with fewer of them.
"""

from __future__ import annotations

from array import array
from itertools import starmap
from typing import TYPE_CHECKING, Hashable, Iterator, Optional, Sequence

from .._kernel import accel
from . import GIVEN_MODEL, GIVEN_PEER, ModelCounts, given_list, skip_reach
from .base import Metric, Task

if TYPE_CHECKING:
    from ..corpus import Corpus

__all__ = ["UnitMetric", "available", "peer_counts", "skip_reach"]

_LONGEST_NGRAM = 64  # the kernel's limit; longer n-grams take the numpy path
# About this many units (n-grams, skip-bigrams) are counted at once without the kernel: a bound on memory.
_CHUNK_UNITS = 100_000


def available(n: int) -> bool:
    """Whether the kernel can count units of this size (n = 0: skip-bigrams)."""
    return accel is not None and n <= _LONGEST_NGRAM


def peer_counts(
    peer: array, models: Sequence[array], n: int, distance: Optional[float], unigrams: bool
) -> list[ModelCounts]:
    """Counts of n-grams (n > 0) or of skip-bigrams within ``distance`` (n = 0), per model."""
    assert accel is not None  # asked for where the kernel is available (see available())
    if n:
        found = accel.unit_hits(peer, models, 0, n, 0, False)
    else:
        reach = skip_reach(-1 if distance is None else distance)
        found = accel.unit_hits(peer, models, 1, 0, reach, unigrams)
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

    def counts(self, corpus: Corpus, tasks: list[Task]) -> list[list[ModelCounts]]:
        if available(self.n):
            ids = corpus.token_ids
            return [
                self._kernel_counts(
                    ids(t.peer, t.peer_stem), [ids(m, s) for m, (s, _) in zip(t.models, t.model_stems)]
                )
                for t in tasks
            ]
        out: list[list[ModelCounts]] = []
        for chunk, alone in self._chunks(corpus, tasks):
            out.extend(self._pair_counts(corpus, chunk[0]) if alone else self._batch_counts(corpus, chunk))
        return out

    def score_pair(self, peer: Sequence[Hashable], model: Sequence[Hashable]) -> ModelCounts:
        ids: dict[Hashable, int] = {}
        peer_ids, model_ids = (
            array("i", [ids.setdefault(t, len(ids)) for t in given_list(text, name)])
            for text, name in ((peer, GIVEN_PEER), (model, GIVEN_MODEL))
        )
        if available(self.n):
            return self._kernel_counts(peer_ids, [model_ids])[0]
        if self.n:
            return self._table_counts([peer_ids, model_ids], [(0, 1)])[0]
        return self._skip_bigram_counts(peer_ids, [model_ids])[0]

    def _kernel_counts(self, peer: array, models: Sequence[array]) -> list[ModelCounts]:
        """The kernel's counts of a peer against each model, from their token ids."""
        return peer_counts(peer, models, self.n, self.distance, self.unigrams)

    def _chunks(self, corpus: Corpus, tasks: list[Task]) -> Iterator[tuple[list[Task], bool]]:
        """Consecutive groups of tasks whose documents hold about _CHUNK_UNITS units, each with
        whether it is one task scored pair by pair (a document of more skip-bigrams than that)."""
        per_token = self.n  # 0 for skip-bigrams without a distance limit: quadratic
        if not self.n:
            reach = self.reach
            per_token = reach + self.unigrams if reach >= 0 else 0
        chunk: list[Task] = []
        seen: set[tuple] = set()
        units = 0
        for t in tasks:
            largest = 0
            for view in [(t.peer, t.peer_stem)] + [(m, s) for m, (s, _) in zip(t.models, t.model_stems)]:
                size = len(corpus.token_ids(*view))
                size = size * per_token if per_token else size * size // 2
                largest = max(largest, size)
                if view not in seen:
                    seen.add(view)
                    units += size
            if not self.n and largest > _CHUNK_UNITS:
                if chunk:
                    yield chunk, False
                yield [t], True
                chunk, seen, units = [], set(), 0
                continue
            chunk.append(t)
            if units >= _CHUNK_UNITS:
                yield chunk, False
                chunk, seen, units = [], set(), 0
        if chunk:
            yield chunk, False

    def _pair_counts(self, corpus: Corpus, task: Task) -> list[list[ModelCounts]]:
        """The skip-bigram counts of one task, pair by pair."""
        ids = corpus.token_ids
        models = [ids(m, stem) for m, (stem, _) in zip(task.models, task.model_stems)]
        return [self._skip_bigram_counts(ids(task.peer, task.peer_stem), models)]

    def _skip_bigram_counts(self, peer: Sequence[int], models: Sequence[Sequence[int]]) -> list[ModelCounts]:
        """Skip-bigram counts of a peer against each model, from their token ids, pair by pair
        (see :func:`.units.skip_bigram_hits`)."""
        import numpy as np

        from .units import skip_bigram_hits, skip_bigram_total

        reach = self.reach
        peer_ids = np.asarray(peer, dtype=np.int64)
        peer_total = skip_bigram_total(len(peer_ids), reach, self.unigrams)
        counts = []
        for model in models:
            model_ids = np.asarray(model, dtype=np.int64)
            hit = skip_bigram_hits(peer_ids, model_ids, reach, self.unigrams)
            counts.append(
                ModelCounts(hit, skip_bigram_total(len(model_ids), reach, self.unigrams), peer_total)
            )
        return counts

    def _batch_counts(self, corpus: Corpus, tasks: list[Task]) -> list[list[ModelCounts]]:
        """The counts of a group of tasks, all pairs at once, with numpy."""
        views: dict[tuple, int] = {}
        pair_list = []
        for t in tasks:
            p = views.setdefault((t.peer, t.peer_stem), len(views))
            for m, (stem, _) in zip(t.models, t.model_stems):
                pair_list.append((p, views.setdefault((m, stem), len(views))))
        flat = self._table_counts([corpus.token_ids(*view) for view in views], pair_list)
        out, at = [], 0
        for t in tasks:
            out.append(flat[at : at + len(t.models)])
            at += len(t.models)
        return out

    def _table_counts(
        self, files: Sequence[Sequence[int]], pair_list: list[tuple[int, int]]
    ) -> list[ModelCounts]:
        """The counts of each (peer, model) pair of files given as token ids, all at once, with numpy."""
        import numpy as np

        from .units import UnitTable, ngram_units, skip_bigram_units

        # units' functions read any sequences of ids (np.concatenate joins them); they say ndarray.
        if self.n:
            codes, owner = ngram_units(files, self.n)  # type: ignore[arg-type]
        else:
            codes, owner = skip_bigram_units(files, self.distance or 0, self.unigrams)  # type: ignore[arg-type]
        table = UnitTable(codes, owner, len(files))
        del codes, owner
        pair_array = np.array(pair_list, dtype=np.int64).reshape(-1, 2)
        hits = table.hits(pair_array[:, 0], pair_array[:, 1]).tolist()
        totals = table.totals.tolist()
        return [ModelCounts(h, totals[m], totals[p]) for h, (p, m) in zip(hits, pair_list)]
