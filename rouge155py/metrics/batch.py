"""Every metric of a chunk of evals in one call of the C kernel: texts in, rows out.

The kernel's ``score_pairs`` takes the documents' texts once, turns them into
token ids by the Perl's rules (lowercase, tokens, ``-s``, ``-m`` with its
stems computed once per run) and scores every (peer, models) pair on every
metric, the GIL let go: ROUGE-N, skip-bigrams, the union LCS of ROUGE-L and
ROUGE-W, ``-f`` and ``-p``, and R, P, F rounded as the Perl keeps them. It
gives the same rows as the engine's general path (metric by metric through the
corpus, :meth:`~rouge155py.run.score.Scorer.rows`), which takes every run this
path does not: length limits, ``-M``, ``-t``, BE, ``--lang``, and any chunk
whose scoring meets an error (where the Perl dies, the general path raises).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any, Hashable, Optional

from .. import _kernel
from ..errors import RougeError
from ..inputs.readers import SummaryText, sentence_text
from . import lcs
from .base import KernelSpec, Metric

if TYPE_CHECKING:
    from typing_extensions import CapsuleType

    from ..inputs.config import Eval
    from ..inputs.readers import Document

__all__ = ["KernelRows", "kernel_applies", "kernel_metrics", "kernel_state", "rs_text_rows"]


def kernel_metrics(plan: list[Metric]) -> Optional[list[KernelSpec]]:
    """The kernel's description of each metric of the plan, or None when one has none."""
    found = []
    for metric in plan:
        spec = metric.kernel_spec()
        if spec is None:
            return None
        found.append(spec)
    return found


class KernelRows:
    """The kernel path of one thread's scorer and a plan's metrics (see :func:`kernel_metrics`)."""

    def __init__(
        self,
        state: CapsuleType,
        metrics: list[KernelSpec],
        text: Any,
        scoring: Any,
        drop: bool,
    ) -> None:
        self._state, self._metrics = state, metrics
        self._stem, self._drop = text.stem, drop
        self._alpha, self._best, self._best_f = scoring.alpha, scoring.best_model, scoring.best_f

    def rows(
        self, evals: list[Eval], peers: list[str]
    ) -> Optional[tuple[list[tuple[str, list[str]]], array]]:
        """Per peer (in order) that some eval holds, its instance IDs (its evals in order), and
        the rows of them all: per metric, per instance in that order, R, P, F. None where the
        general path must score these evals (a document it cannot read, a pair the Perl dies on)."""
        if self._best_f:  # multi_ref="best-f": documents take the general path (texts: text_rows)
            return None
        index: dict[Hashable, int] = {}
        texts: list[str] = []

        def place(document: Document) -> int:
            # A text in memory by its identity (a reference shared by the peers of an item is
            # one object): hashing its whole text would cost more than reading it twice.
            key: Hashable = id(document) if type(document) is SummaryText else document
            found = index.get(key)
            if found is None:
                found = index[key] = len(texts)
                spl = type(document) is SummaryText and document.input_format == "SPL"
                texts.append(document.text if spl else sentence_text(document))  # type: ignore[union-attr]
            return found

        groups: list[tuple[str, list[str]]]
        found_texts = _one_peer_texts(evals, peers)
        if found_texts is not None:
            texts, peer_docs, starts, model_docs, groups = found_texts
        else:
            peer_docs, starts, model_docs = array("i"), array("i", [0]), array("i")
            groups = []
            try:
                models = [[place(m) for m in ev.models] for ev in evals]
                for peer_id in peers:
                    ids = []
                    suffix = "." + peer_id
                    for ev, held in zip(evals, models):
                        document = ev.peers.get(peer_id)
                        if document is None:
                            continue
                        peer_docs.append(place(document))
                        model_docs.extend(held)
                        starts.append(len(model_docs))
                        ids.append(ev.eval_id + suffix)
                    if ids:
                        groups.append((peer_id, ids))
            except RougeError:
                return None
        values = self._score(texts, peer_docs, starts, model_docs)
        return None if values is None else (groups, values)

    def text_rows(self, peer_texts: list[list[str]], models: list[str], starts: array) -> Optional[array]:
        """The rows of items given by columns: each peer's SPL texts (one per item, peers in
        order) and the items' models end to end (item k's are ``models[starts[k]:starts[k + 1]]``,
        ``starts[0]`` 0): per metric, per peer, per item, R, P, F. None where the general path
        must score them."""
        count, items = len(models), len(starts) - 1
        if self._best_f and (count != items or any(starts[k + 1] - starts[k] != 1 for k in range(items))):
            return self._best_f_rows(peer_texts, models, starts)  # else one model each: its own row
        texts = list(models)
        peer_docs = array("i")
        for held in peer_texts:
            peer_docs.extend(range(len(texts), len(texts) + items))
            texts.extend(held)
        model_docs = array("i", range(count)) * len(peer_texts)
        pair_starts = array("i", starts)
        for k in range(1, len(peer_texts)):  # each peer's pairs take the models again
            pair_starts.extend(at + k * count for at in starts[1:])
        return self._score(texts, peer_docs, pair_starts, model_docs)

    def _best_f_rows(self, peer_texts: list[list[str]], models: list[str], starts: array) -> Optional[array]:
        """:meth:`text_rows` under ``multi_ref="best-f"``: each model scored alone against the peer
        (one pair each; an item without models, one pair of none), and per item and metric the row
        of the first model of highest F."""
        items = len(starts) - 1
        texts = list(models)
        peer_docs, pair_starts, model_docs = array("i"), array("i", [0]), array("i")
        owners = []  # per item of each peer, its first pair
        for held in peer_texts:
            base = len(texts)
            texts.extend(held)
            for k in range(items):
                owners.append(len(peer_docs))
                held_models = range(starts[k], starts[k + 1])
                for model in held_models or (None,):
                    peer_docs.append(base + k)
                    if model is not None:
                        model_docs.append(model)
                    pair_starts.append(len(model_docs))
        owners.append(len(peer_docs))
        found = self._score(texts, peer_docs, pair_starts, model_docs)
        if found is None:
            return None
        pairs, values = len(peer_docs), array("d")
        for metric in range(len(self._metrics)):
            at = 3 * metric * pairs
            for first, last in zip(owners, owners[1:]):
                best = at + 3 * first
                for pair in range(at + 3 * first + 3, at + 3 * last, 3):
                    if found[pair + 2] > found[best + 2]:
                        best = pair
                values.extend(found[best : best + 3])
        return values

    def _score(self, texts: list[str], peer_docs: array, starts: array, model_docs: array) -> Optional[array]:
        """The kernel's rows of pairs of texts, or None where it met what the general path must score."""
        assert _kernel.accel is not None  # made only where the kernel is in use (kernel_state)
        found, failed = _kernel.accel.score_pairs(
            self._state,
            texts,
            self._stem,
            self._drop,
            peer_docs,
            starts,
            model_docs,
            self._metrics,
            self._alpha,
            self._best,
            lcs.MAX_LCS_CELLS,  # read now: a caller may lower it
        )
        if failed >= 0:
            return None
        values = array("d")
        values.frombytes(found)
        return values


def _one_peer_texts(
    evals: list[Eval], peers: list[str]
) -> Optional[tuple[list[str], array, array, array, list[tuple[str, list[str]]]]]:
    """What :meth:`KernelRows.rows` hands the kernel, made in bulk for the common case of evals of
    texts in memory (the batch API's items, line-aligned files: one peer in every eval, every
    summary an SPL text; the Python API's own texts go by :meth:`KernelRows.text_rows`): per
    eval its models' texts, then its peer's (a text shared by two evals is tokenized twice,
    which changes no count). None in any other case."""
    if len(peers) != 1 or not evals:
        return None
    peer_id = peers[0]
    try:
        peer_texts = [ev.peers[peer_id] for ev in evals]
    except KeyError:
        return None
    model_texts = [m for ev in evals for m in ev.models]
    if not all(type(d) is SummaryText and d.input_format == "SPL" for d in peer_texts) or not all(
        type(d) is SummaryText and d.input_format == "SPL" for d in model_texts
    ):
        return None
    count = len(model_texts)
    texts = [d.text for d in model_texts]  # type: ignore[union-attr]
    texts.extend(d.text for d in peer_texts)  # type: ignore[union-attr]
    starts = array("i", [0])
    at = 0
    for ev in evals:
        at += len(ev.models)
        starts.append(at)
    suffix = "." + peer_id
    ids = [ev.eval_id + suffix for ev in evals]
    return (
        texts,
        array("i", range(count, count + len(evals))),
        starts,
        array("i", range(count)),
        [(peer_id, ids)],
    )


def rs_text_rows(
    plan: list[Metric], stem: bool, peer_texts: list[list[str]], models: list[str], starts: array
) -> Optional[array]:
    """rouge-score's dialect on the kernel (``rs_score_pairs``: its tokens and stemmer, no
    stopword list): the rows of items given by columns, as :meth:`KernelRows.text_rows` takes
    them, unrounded, of each item's reference of highest F (the first of equals, rouge-score's
    ``score_multi``); an item without references scores 0. None where the general path must
    score them (another metric than ROUGE-N and ROUGE-L, no kernel, a table too large)."""
    if _kernel.accel is None:
        return None
    kinds = []
    for metric in plan:
        kind = metric.rs_kernel_spec()
        if kind is None:
            return None
        kinds.append(kind)
    from ..text.rouge_score import file_text_read  # imported by the runs of this dialect

    texts = [file_text_read(t) for t in models]
    targets: list[str] = []
    predictions: list[str] = []
    first: list[int] = []  # per item of each peer, its first pair
    for held in peer_texts:
        for k, prediction in enumerate(held):
            first.append(len(targets))
            references = texts[starts[k] : starts[k + 1]]
            targets.extend(references)
            predictions.extend([file_text_read(prediction)] * len(references))
    first.append(len(targets))
    names = [str(k) for k in range(len(kinds))]
    found = _kernel.accel.rs_score_pairs(targets, predictions, stem, kinds, names, tuple, lcs.MAX_LCS_CELLS)
    if found is None:
        return None
    values = array("d")
    for name in names:
        for k in range(len(first) - 1):
            pairs = found[first[k] : first[k + 1]]
            if not pairs:
                values.extend((0.0, 0.0, 0.0))
                continue
            best = pairs[0][name]
            for scores in pairs[1:]:  # the first of highest F
                if scores[name][2] > best[2]:
                    best = scores[name]
            values.extend((best[1], best[0], best[2]))  # (precision, recall, F) -> R, P, F
    return values


def kernel_applies(text: Any, scoring: Any, plan: list[Metric], columns: bool = False) -> bool:
    """Whether the kernel scores runs of these settings (:class:`~rouge155py.text.stage.TextSettings`,
    :class:`~rouge155py.metrics.scoring.ScoringSettings`) and metrics: not with ``--lang``, length
    limits, ``-M``, ``-t``, ``--jackknife`` or BE, nor without the kernel; ``multi_ref="best-f"``
    only for texts held by ``columns`` (:meth:`KernelRows.text_rows`)."""
    return (
        _kernel.accel is not None
        and not text.unicode_text
        and not (text.length_limit or text.byte_limit or text.stem_models_only or scoring.counting)
        and not scoring.jackknife
        and (columns or not scoring.best_f)
        and kernel_metrics(plan) is not None
    )


def kernel_state(text: Any, scoring: Any, stage: Any) -> Optional[CapsuleType]:
    """The kernel's state of a text stage, or None where the general path must take every chunk
    (see :func:`kernel_applies`; any metrics will do here, the plan is checked per chunk)."""
    make = getattr(stage, "kernel_state", None)
    if make is None or not kernel_applies(text, scoring, [], columns=True):
        return None
    return make(_kernel.accel)
