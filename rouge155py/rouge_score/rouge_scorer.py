"""rouge-score's ``rouge_scorer`` module: ``RougeScorer`` (``score``, ``score_multi``, ``score_batch``).

The counts are the Perl dialect's: clipped n-gram hits (the kernel's
``unit_hits``) and the union LCS of :mod:`rouge155py.metrics.lcs`, whose
backtrack and clipping are rouge-score's too. ``rougeL`` is the LCS of the whole
token lists (one sentence each); ``rougeLsum`` the union LCS of each target
line with the prediction's lines, clipped by both texts' token counts. Scores
are rouge-score's: unrounded hit / max(count, 1) and F = 2PR / (P + R)
(:func:`rouge155py.metrics.scoring.rouge_score_prf`).

With the default tokenizer (and no ``split_summaries``) the C kernel's
``rs_score_pairs`` does all of it for a batch: rouge-score's text stage in C
feeding its counts (n-gram hits from hash tables, the LCS length by bit vectors;
the Perl dialect's union LCS for a ``rougeLsum`` of several lines), the GIL let
go, the Score objects made in C; ``score_batch``
splits the pairs among ``threads``. Everything else takes the path below, which
gives the same numbers.
"""

from __future__ import annotations

import collections
import re
from array import array
from typing import Any, Hashable, Iterable, Optional, Sequence

from .. import _kernel
from ..errors import MissingResource, UsageError, install_hint
from ..metrics import ModelCounts, clipped_hits, lcs, score_grams
from ..metrics.lcs import LcsText, check_table_size, lcs_marks, score_lcs
from ..metrics.ngram import ngrams
from ..metrics.pairs import available, peer_counts
from ..metrics.scoring import best_index, rouge_score_prf
from ..run.collector import paused_gc
from ..text import rouge_score as stage
from . import _surface, scoring, tokenizers

__all__ = ["RougeScorer", "lcs_ind"]

__getattr__, __dir__ = _surface.add_names(
    globals(), {"logging": "absl.logging", "nltk": "nltk", "np": "numpy", "six": "six"}, ("map", "range")
)

_NGRAM_TYPE = re.compile(r"rouge[0-9]$")
# Pairs the kernel scores in one call (see RougeScorer._kernel_scores).
_CHUNK_PAIRS = 1 << 14

# A text as the metrics see it: its token ids, and where each of its sentences starts (and the end).
View = tuple[Sequence[int], Sequence[int]]


class RougeScorer(scoring.BaseScorer):
    """Scores of predictions against targets for the given ROUGE types.

    ``rouge_types``: ``rouge1`` ... ``rouge9``, ``rougeL`` (LCS of the whole
    texts), ``rougeLsum`` (union LCS of their lines, or of nltk's sentences with
    ``split_summaries``). ``use_stemmer``: nltk's Porter stemmer on tokens longer
    than 3 characters. ``tokenizer``: any object with ``tokenize(text)``.
    """

    def __init__(
        self,
        rouge_types: Sequence[str],
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: Optional[Any] = None,
    ) -> None:
        self.rouge_types = rouge_types
        self._tokenizer = tokenizer if tokenizer else tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries

    def score(self, target: Any, prediction: Any) -> dict[str, scoring.Score]:
        """The scores of a prediction against one target, per ROUGE type."""
        if type(target) is str and type(prediction) is str and not self._split_summaries:
            found = self._one_pair(target, prediction)
            if found is not None:
                return found
        return self._score_pairs([target], [prediction])[0]

    def _one_pair(self, target: str, prediction: str) -> Optional[dict[str, scoring.Score]]:
        """One pair by the kernel, nothing around the call (``score()`` once per pair is how a
        training loop or HF ``evaluate`` scores): the ROUGE types' plan is kept while they stay
        the same, what may change between calls (the tokenizer's stemming, the LCS table's
        limit) is read at each; None where :meth:`_score_pairs` must score it."""
        kernel = _kernel.accel
        rouge_types = self.rouge_types
        if kernel is None or type(rouge_types) not in (list, tuple):
            return None
        stemmed = tokenizers.kernel_stemming(self._tokenizer)
        if stemmed is None:
            return None
        key = tuple(rouge_types)
        plan = getattr(self, "_plan", None)
        if plan is None or plan[0] != key:
            plan = self._plan = (key, *_kernel_metrics(_kinds(key)))
        found = kernel.rs_score_pairs(
            [target], [prediction], stemmed, plan[1], plan[2], scoring.Score, lcs.MAX_LCS_CELLS
        )
        return None if found is None else found[0]

    def score_multi(self, targets: Iterable[Any], prediction: Any) -> dict[str, scoring.Score]:
        """Per ROUGE type, the scores against the target with the highest F (the first of equals);
        ``targets`` any iterable, as rouge-score reads them once."""
        group = list(targets)
        # No target: no score() in rouge-score either, whose rouge_types are read only below.
        found = self._score_pairs(group, [prediction] * len(group)) if group else []
        return {k: found[best_index([s[k].fmeasure for s in found])][k] for k in self.rouge_types}

    def score_batch(
        self, targets: Sequence[Any], predictions: Sequence[Any], threads: int = 1
    ) -> list[dict[str, scoring.Score]]:
        """``score(targets[i], predictions[i])`` for every i, in one pass; an item of ``targets``
        that is a list or tuple of texts is scored as ``score_multi``. ``threads``: how many
        threads of this process score the pairs (the C kernel lets the GIL go while it scores)."""
        targets, predictions = list(targets), list(predictions)
        if len(targets) != len(predictions):
            raise ValueError(f"{len(targets)} targets but {len(predictions)} predictions")
        if type(threads) is not int or threads < 1:
            raise ValueError(f"threads must be a positive integer, not {threads!r}")
        if not any(isinstance(target, (list, tuple)) for target in targets):
            return self._score_pairs(targets, predictions, threads)
        flat_targets: list[Any] = []
        flat_predictions: list[Any] = []
        owners: list[int] = []
        for k, (target, prediction) in enumerate(zip(targets, predictions)):
            group = target if isinstance(target, (list, tuple)) else [target]
            flat_targets.extend(group)
            flat_predictions.extend([prediction] * len(group))
            owners.extend([k] * len(group))
        found = self._score_pairs(flat_targets, flat_predictions, threads)
        out: list[dict[str, scoring.Score]] = []
        groups: dict[int, list[dict[str, scoring.Score]]] = {}
        for k, scores in zip(owners, found):
            groups.setdefault(k, []).append(scores)
        for k, target in enumerate(targets):
            members = groups.get(k, [])
            if isinstance(target, (list, tuple)):
                out.append(
                    {t: members[best_index([s[t].fmeasure for s in members])][t] for t in self.rouge_types}
                )
            else:
                out.append(members[0])
        return out

    def _score_pairs(
        self, targets: list[Any], predictions: list[Any], threads: int = 1
    ) -> list[dict[str, scoring.Score]]:
        """The scores of each (target, prediction) pair: by the C kernel where it applies."""
        rouge_types, count = self.rouge_types, len(targets)
        # rouge-score's score() reads rouge_types first so: a TypeError for a generator (no len),
        # or for a set of one (no [0]), at each call.
        whole_needed = not (count and len(rouge_types) == 1 and rouge_types[0] == "rougeLsum")
        kinds = _kinds(rouge_types)
        stemmed = tokenizers.kernel_stemming(self._tokenizer)
        if stemmed is not None and not self._split_summaries:
            found = self._kernel_scores(kinds, targets, predictions, threads, stemmed)
            if found is not None:
                return found
        sums_needed = any(kind == "Lsum" for _, kind, _ in kinds)
        if stemmed is None:
            wholes, sums = self._tokenizer_views(targets + predictions, whole_needed, sums_needed, kinds)
        else:
            wholes, sums = self._views(targets + predictions, whole_needed, sums_needed, stemmed)
        return [
            _pair_scores(kinds, wholes[k], wholes[count + k], sums[k], sums[count + k]) for k in range(count)
        ]

    def _kernel_scores(
        self,
        kinds: list[tuple[str, str, int]],
        targets: list[Any],
        predictions: list[Any],
        threads: int,
        stemmed: bool,
    ) -> Optional[list[dict[str, scoring.Score]]]:
        """The kernel's scores of the pairs (``rs_score_pairs``: the text stage and the counts in
        C, the GIL let go), split among ``threads``, for the default text stage (``stemmed`` or
        not); None where the general path must score them: no kernel, a text that is not text,
        a table too large."""
        kernel = _kernel.accel
        if kernel is None:
            return None
        texts = [t if type(t) is str else stage.as_text(t) for t in (*targets, *predictions)]
        if not all(type(t) is str for t in texts):
            return None
        count = len(targets)
        metrics, names = _kernel_metrics(kinds)
        cells = lcs.MAX_LCS_CELLS  # read now: a caller may lower it

        def chunk(first: int) -> Optional[list[dict[str, scoring.Score]]]:
            last = min(count, first + size)
            found = kernel.rs_score_pairs(
                texts[first:last],
                texts[count + first : count + last],
                stemmed,
                metrics,
                names,
                scoring.Score,
                cells,
            )
            return found

        threads = min(threads, count)
        # Chunks of at most _CHUNK_PAIRS: a chunk's vocabulary and counts stay in the caches,
        # so that the time per pair does not grow with the batch.
        size = min(_CHUNK_PAIRS, -(-count // threads)) if count else 1
        with paused_gc():  # a Score and a dict per pair and type: see paused_gc
            if threads <= 1:
                parts = [chunk(first) for first in range(0, count, size)] if count > size else [chunk(0)]
            else:
                from concurrent.futures import ThreadPoolExecutor

                with ThreadPoolExecutor(threads) as pool:
                    parts = list(pool.map(chunk, range(0, count, size)))
        if any(part is None for part in parts):
            return None
        if len(parts) == 1:
            return parts[0]
        return [scores for part in parts for scores in part]  # type: ignore[union-attr]

    def _views(
        self, texts: list[Any], whole: bool, sums: bool, stemmed: bool
    ) -> tuple[list[View], list[View]]:
        """Each text as one sentence (rougeN, rougeL) and as its sentences (rougeLsum), by the
        default text stage (``stemmed`` or not)."""
        if not self._split_summaries:
            # The lines' tokens, end to end, are the text's tokens: one encoding serves both.
            encoded = stage.encode(texts, stemmed, lines=True)
            lines = [_span(encoded, t, t + 1) for t in range(len(texts))]
            return [(ids, array("i", [0, len(ids)])) for ids, _ in lines], lines
        pieces = [self._sentences(text) for text in texts] if sums else [[] for _ in texts]
        encoded = stage.encode(texts + [s for p in pieces for s in p], stemmed, lines=False)
        wholes = [_span(encoded, t, t + 1) if whole else _EMPTY for t in range(len(texts))]
        at, split = len(texts), []
        for p in pieces:
            split.append(_span(encoded, at, at + len(p)))
            at += len(p)
        return wholes, split

    def _tokenizer_views(
        self, texts: list[Any], whole: bool, sums: bool, kinds: list[tuple[str, str, int]]
    ) -> tuple[list[View], list[View]]:
        """``_views`` by the tokenizer's own ``tokenize()``: texts are the targets, then the
        predictions; tokens rouge-score cannot measure or index raise its TypeError."""
        tokenizer = self._tokenizer
        wholes = [tokenizer.tokenize(t) for t in texts] if whole else []
        split = [[tokenizer.tokenize(s) for s in self._sentences(t)] for t in texts] if sums else []
        count = len(texts) // 2
        for k in range(count):
            _read_as_rouge_score(
                kinds,
                (wholes[k], wholes[count + k]) if whole else ((), ()),
                (split[k], split[count + k]) if sums else ([], []),
            )
        vocabulary: dict[Hashable, int] = {}
        return (
            [_token_view([tokens], vocabulary) for tokens in wholes] if whole else [_EMPTY] * len(texts),
            [_token_view(sentences, vocabulary) for sentences in split] if sums else [_EMPTY] * len(texts),
        )

    def _sentences(self, text: Any) -> list[str]:
        """The sentences of ``rougeLsum``: the lines, or nltk's sentences with ``split_summaries``."""
        found = _nltk_sentences(text) if self._split_summaries else _as_str(text).split("\n")
        return [s for s in found if len(s)]


# Token sequences whose len() and slices never fail (rouge-score's steps read them so).
_MEASURED = (list, tuple, str)


def _read_as_rouge_score(
    kinds: list[tuple[str, str, int]], whole: tuple[Any, Any], lines: tuple[list[Any], list[Any]]
) -> None:
    """What rouge-score's scoring of one pair asks of a tokenizer's output (target first), so
    that the same TypeError comes at the same step: ``len()`` (a generator has none) and the
    first slice or item (a set has none). rougeN slices each side with at least n tokens;
    rougeL indexes both sides when neither is empty; rougeLsum measures every sentence, then
    indexes the pairs of non-empty sentences when both sides have tokens."""
    if all(type(t) in _MEASURED for t in whole) and all(type(t) in _MEASURED for side in lines for t in side):
        return
    for _, kind, n in kinds:
        if kind == "n":
            for tokens in whole:
                if len(tokens) >= n:
                    _ = tokens[0:n]
        elif kind == "L":
            target, prediction = whole
            if target and prediction:
                _ = len(target), len(prediction), target[0], prediction[0]
        else:
            targets, predictions = lines
            if not targets or not predictions:
                continue
            sizes = sum(map(len, targets)), sum(map(len, predictions))
            if not all(sizes):
                continue
            for sentence in targets:
                for other in predictions:
                    if len(sentence) and len(other):
                        _ = sentence[0], other[0]


def _kinds(rouge_types: Iterable[str]) -> list[tuple[str, str, int]]:
    """(name, kind, n) of each ROUGE type: kind "n" (n-grams), "L" or "Lsum"; ValueError for others."""
    kinds = []
    for rouge_type in rouge_types:
        if rouge_type == "rougeL":
            kinds.append((rouge_type, "L", 0))
        elif rouge_type == "rougeLsum":
            kinds.append((rouge_type, "Lsum", 0))
        elif _NGRAM_TYPE.match(_as_str(rouge_type)):
            n = int(rouge_type[5:])
            if n <= 0:
                raise ValueError(f"rougen requires positive n: {rouge_type}")
            kinds.append((rouge_type, "n", n))
        else:
            raise ValueError(f"Invalid rouge type: {rouge_type}")
    return kinds


def _kernel_metrics(kinds: list[tuple[str, str, int]]) -> tuple[list[tuple[int, int]], list[str]]:
    """The ROUGE types as ``rs_score_pairs`` takes them: (kind, n) each, and their names."""
    metrics = [(0, n) if kind == "n" else (1 if kind == "L" else 2, 0) for _, kind, n in kinds]
    return metrics, [name for name, _, _ in kinds]


_EMPTY: View = (array("i"), array("i", [0]))


def _as_str(text: Any) -> Any:
    """bytes read as UTF-8, as rouge-score reads them; anything else as it is."""
    return text.decode("utf-8") if isinstance(text, bytes) else text


def _nltk_sentences(text: Any) -> list[str]:
    """nltk's sentences of a text (its punkt model must be installed)."""
    try:
        import nltk
    except ImportError:
        raise UsageError(f"split_summaries needs nltk: {install_hint('nltk', 'lang')}") from None
    try:
        return nltk.sent_tokenize(text)
    except LookupError:
        raise MissingResource(
            "split_summaries needs nltk's punkt sentence model, which is not installed: "
            "python -m nltk.downloader punkt_tab"
        ) from None


def _span(encoded: stage.Encoded, first: int, last: int) -> View:
    """The view of texts first .. last - 1 of an encoding, as one text."""
    ends, starts = encoded.ends, encoded.starts
    a, b = starts[first], starts[last]
    base = ends[a - 1] if a else 0
    end = ends[b - 1] if b > a else base
    return encoded.ids[base:end], array("i", [0, *(ends[s] - base for s in range(a, b))])


def _token_view(sentences: list[Sequence[Hashable]], vocabulary: dict[Hashable, int]) -> View:
    """Sentences of tokens (a custom tokenizer's) as a view, ids from ``vocabulary``."""
    encoded = stage.encode_tokens([sentences], vocabulary)
    return _span(encoded, 0, 1)


def _ngram_counts(prediction: Sequence[int], target: Sequence[int], n: int) -> ModelCounts:
    """Clipped n-gram hits of the prediction (the peer) against the target (the model)."""
    if available(n):
        # peer_counts reads any buffer of C ints (here a memoryview or an array) though it names array
        return peer_counts(prediction, [target], n, None, False)[0]  # type: ignore[arg-type,list-item]
    return score_grams(ngrams(list(target), n), ngrams(list(prediction), n))


def _lcs_counts(target: View, prediction: View) -> ModelCounts:
    """Union-LCS hits of the target's sentences against the prediction's, clipped by their tokens."""
    model = LcsText.from_ids(target[0], target[1], target[0])  # type: ignore[arg-type]
    peer = LcsText.from_ids(prediction[0], prediction[1], prediction[0])  # type: ignore[arg-type]
    check_table_size("rougeL", model, peer, "the target", "the prediction")
    return score_lcs(model, peer)


def _score(counts: ModelCounts) -> scoring.Score:
    recall, precision, f = rouge_score_prf(counts)
    return scoring.Score(precision=precision, recall=recall, fmeasure=f)


def _pair_scores(
    kinds: list[tuple[str, str, int]],
    target: View,
    prediction: View,
    target_lines: View,
    prediction_lines: View,
) -> dict[str, scoring.Score]:
    """The scores of one pair, per ROUGE type."""
    result = {}
    for name, kind, n in kinds:
        if kind == "n":
            result[name] = _score(_ngram_counts(prediction[0], target[0], n))
            continue
        model, peer = (target, prediction) if kind == "L" else (target_lines, prediction_lines)
        if not len(model[0]) or not len(peer[0]):
            result[name] = scoring.Score(precision=0, recall=0, fmeasure=0)
        else:
            result[name] = _score(_lcs_counts(model, peer))
    return result


# rouge-score's module-level helpers, which its unit tests call.


def _create_ngrams(tokens: Sequence[Hashable], n: int) -> collections.Counter[tuple[Hashable, ...]]:
    """The n-grams of a token list (tuples), with their counts."""
    return collections.Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _score_ngrams(
    target_ngrams: collections.Counter[Any], prediction_ngrams: collections.Counter[Any]
) -> scoring.Score:
    """Scores of clipped n-gram matches."""
    hit = clipped_hits(target_ngrams, prediction_ngrams)
    return _score(ModelCounts(hit, sum(target_ngrams.values()), sum(prediction_ngrams.values())))


def _score_lcs(target_tokens: Sequence[Hashable], prediction_tokens: Sequence[Hashable]) -> scoring.Score:
    """rougeL of two token lists."""
    vocabulary: dict[Hashable, int] = {}
    return _pair_scores(
        [("rougeL", "L", 0)],
        _token_view([target_tokens], vocabulary),
        _token_view([prediction_tokens], vocabulary),
        (array("i"), array("i", [0])),
        (array("i"), array("i", [0])),
    )["rougeL"]


def _summary_level_lcs(
    ref_sent: Sequence[Sequence[Hashable]], can_sent: Sequence[Sequence[Hashable]]
) -> scoring.Score:
    """rougeLsum of two texts given as sentences of tokens."""
    vocabulary: dict[Hashable, int] = {}
    target, prediction = _token_view(list(ref_sent), vocabulary), _token_view(list(can_sent), vocabulary)
    return _pair_scores([("rougeLsum", "Lsum", 0)], target, prediction, target, prediction)["rougeLsum"]


def _lcs_table(ref: Sequence[Hashable], can: Sequence[Hashable]) -> list[list[int]]:
    """The LCS lengths of every pair of prefixes: table[i][j] for ref[:i] and can[:j]."""
    table = [[0] * (len(can) + 1)]
    for token in ref:
        above, row = table[-1], [0]
        for j, other in enumerate(can, 1):
            row.append(above[j - 1] + 1 if token == other else max(above[j], row[j - 1]))
        table.append(row)
    return table


def _backtrack_norec(table: list[list[int]], ref: Sequence[Hashable], can: Sequence[Hashable]) -> list[int]:
    """The positions in ref of the LCS the table gives: diagonal on equal tokens, up when the
    cell above is at least the one to the left, else left."""
    i, j, found = len(ref), len(can), []
    while i and j:
        if ref[i - 1] == can[j - 1]:
            i, j = i - 1, j - 1
            found.append(i)
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return found[::-1]


def lcs_ind(ref: Sequence[Hashable], can: Sequence[Hashable]) -> list[int]:
    """The positions in ref of one LCS with can (the metrics' backtrack)."""
    mask = [False] * len(ref)
    lcs_marks(ref, can, mask)
    return [i for i, marked in enumerate(mask) if marked]


def _find_union(lcs_list: Iterable[Iterable[int]]) -> list[int]:
    """The positions in any of the lists, ascending."""
    return sorted(set().union(*lcs_list))


def _union_lcs(ref: Sequence[Hashable], c_list: Iterable[Sequence[Hashable]]) -> list[Hashable]:
    """The tokens of ref in the LCS with any of the sentences, in order."""
    mask = [False] * len(ref)
    for can in c_list:
        lcs_marks(ref, can, mask)
    return [token for token, marked in zip(ref, mask) if marked]
