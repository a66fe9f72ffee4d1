"""ParaEval (Zhou, Lin, Munteanu & Hovy, HLT-NAACL 2006): ROUGE-1 that sees paraphrases.

A peer is compared with each model in three tiers, each on the words the tiers
above left unmatched. Words are the n-gram reader's tokens (those ROUGE-1
counts); a phrase is a run of words inside one sentence.

1. **Multi-word paraphrases, exactly.** A candidate is a model phrase and a
   peer phrase of two words or more each that the table pairs. Chosen: a set
   of candidates in which no model word and no peer word is in two candidates,
   with the most model (reference) words, and among those the most peer
   words; among those, the first in the order of :func:`solve_phrases`. See
   :func:`solve_phrases` for the search and its bound, :data:`MAX_STATES`.
2. **One-word paraphrases, greedily.** Candidates whose model or peer side is
   one word (1-to-n, n-to-1, synonyms), on free words only, taken in order of
   more model words, then more peer words, then earlier model word, then
   earlier peer word; a candidate is taken when all its words are still free.
3. **Words.** The clipped unigram matches of the words left: ROUGE-1's hits.

Counts per model: model words (ROUGE-1's model count), peer words (its peer
count), model words matched (recall's hits, as the paper) and peer words
matched (precision's hits, the symmetric way). With an empty table tiers 1
and 2 find nothing and the counts are ROUGE-1's.

Rows (``--paraeval-variants``): ``ParaEval-3`` all three tiers, ``ParaEval-2``
tiers 1 and 3 (tier 3 then sees the words tier 2 would have taken),
``ParaEval-P`` tiers 1 and 2 (paraphrases only), and ``T`` the three rows
``ParaEval-T1``/``-T2``/``-T3``: what each tier of ``ParaEval-3`` matched.

Where ParaEval's C kernel is built (``_paraeval.c``), a run matches each chunk of pairs in
one call, the table handed over once (:func:`kernel_matches`): the same matches as
:func:`match_pair`, which stays the reference (and the path without the kernel).
"""

from __future__ import annotations

import functools
from array import array
from bisect import bisect_left
from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Hashable, NamedTuple, Optional, Sequence, Union

from .. import _kernel
from ..errors import UsageError
from . import GIVEN_MODEL, GIVEN_PEER, given_list
from .base import Metric, Task

if TYPE_CHECKING:
    import numpy as np

    from ..inputs.readers import Document
    from ..text.corpus import Corpus, Encoded
    from .paraphrases import PhraseTable, TableSpec

__all__ = [
    "MAX_CANDIDATES",
    "MAX_SEARCH_BYTES",
    "MAX_STATES",
    "VARIANTS",
    "Candidate",
    "PairCounts",
    "PairMatch",
    "ParaEval",
    "Text",
    "candidates",
    "greedy",
    "inexact_warning",
    "kernel_matches",
    "match_pair",
    "solve_phrases",
    "variant_labels",
    "word_ids",
]

#: The most states tier 1's exact search keeps for one pair of summaries, all its groups of
#: overlapping candidates together (a state takes a few hundred bytes and a few microseconds).
#: A group past what is left of it is matched greedily (tier 2's order), and the instance is
#: reported as not exact; so is every group of a pair with more multi-word candidates than this.
MAX_STATES = 100_000
#: The most bytes one group's search holds: a state's peer words are an int as wide as the
#: peer words the group's candidates cover, so a wide group has fewer states than
#: :data:`MAX_STATES` before it is matched greedily.
MAX_SEARCH_BYTES = 64 * 2**20
# What the search holds per state (a dict entry, its key and value) and per candidate, beside
# the ints of peer words (width / 8 bytes each).
_STATE_BYTES, _CANDIDATE_BYTES = 240, 200
# Candidates are listed through a mask of model spans x peer spans up to this many cells.
_MASK_CELLS = 1 << 22
#: The most candidates with a one-word side (tier 2's) of a pair listed at once: past it tier 2
#: takes them in the same order without holding them (a word repeated in both texts makes a
#: candidate of every pair of its places).
MAX_CANDIDATES = 1_000_000

#: Row names in report order: ``--paraeval-variants`` names them by the part after the dash
#: (``T`` for the three tier rows).
VARIANTS = ("3", "2", "P", "T1", "T2", "T3")


def variant_labels(given: str) -> tuple[str, ...]:
    """The rows a ``--paraeval-variants`` value asks for (comma-separated ``3``, ``2``, ``P``, ``T``),
    in report order."""
    wanted: set[str] = set()
    for part in given.split(","):
        name = part.strip().upper()
        if name == "T":
            wanted.update(("T1", "T2", "T3"))
        elif name in VARIANTS:
            wanted.add(name)
        else:
            raise UsageError(
                f"--paraeval-variants: unknown variant {part.strip()!r} (use 3, 2, P, T, comma-separated)"
            )
    return tuple(v for v in VARIANTS if v in wanted)


class Candidate(NamedTuple):
    """A model phrase and a peer phrase the table pairs (positions in the whole text)."""

    model_start: int
    model_length: int
    peer_start: int
    peer_length: int


class PairMatch(NamedTuple):
    """What the three tiers matched of one model against the peer (counts of words)."""

    model_words: int
    peer_words: int
    tier1: tuple[int, int]  # (model words, peer words)
    tier2: tuple[int, int]
    tier3: int  # after tiers 1 and 2
    tier3_after_tier1: int  # after tier 1 alone (ParaEval-2)
    exact: bool  # tier 1 found its optimum (False: a group was past MAX_STATES)
    phrases: tuple[Candidate, ...] = ()  # tier 1's choice
    words: tuple[Candidate, ...] = ()  # tier 2's choice


class PairCounts(NamedTuple):
    """One model's counts for a row: recall's hits and count, precision's hits and count."""

    hit: int
    model_count: int
    peer_count: int
    peer_hit: int
    score: Optional[float] = None  # -f B compares the rounded recall


def _groups(found: list[Candidate]) -> list[list[Candidate]]:
    """The candidates in groups joined by shared words (model or peer): each group is solved apart."""
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for start, length in ((0, 1), (2, 3)):
        order = sorted(range(len(found)), key=lambda i: found[i][start])
        end, last = -1, -1
        for i in order:
            c = found[i]
            if c[start] < end:
                parent[root(i)] = root(last)
            if c[start] + c[length] > end:
                end, last = c[start] + c[length], i
    groups: dict[int, list[Candidate]] = {}
    for i, c in enumerate(found):
        groups.setdefault(root(i), []).append(c)
    return list(groups.values())


def _weight(c: Candidate, scale: int) -> int:
    return c.model_length * scale + c.peer_length


def solve_phrases(
    found: Sequence[Candidate], peer_words: int, limit: Optional[int] = None
) -> tuple[list[Candidate], bool]:
    """Tier 1: the best set of candidates, and whether it is proven best (every group searched
    within the states ``limit`` allows all the groups together, :data:`MAX_STATES` by default).

    Best: no model word and no peer word twice, the most model words, then the
    most peer words (one integer weight: model words × (peer words + 1) + peer
    words). Groups of candidates sharing no word are solved apart. In a group,
    candidates sorted by (model start, model length, peer start, peer length)
    are taken or skipped in turn; a set of model phrases taken in order of
    their starts is disjoint when each starts after the previous one ends, so
    after taking candidate j the search goes on at the first candidate that
    starts after it. The state (j, peer words taken) decides the rest, and
    only the taken peer words that some candidate from j on covers matter: the
    memo keys on those, so the search is exact. Where values tie, taking the
    earlier candidate wins. A group whose search would go past the states left
    to it, or past :data:`MAX_SEARCH_BYTES`, is matched greedily
    (:func:`greedy`), and the result says it is not exact: the whole search
    takes bounded time and memory, whatever the texts.
    """
    left = MAX_STATES if limit is None else limit
    scale = peer_words + 1
    chosen: list[Candidate] = []
    exact = True
    for group in _groups(sorted(found)):
        best, states = _solve_group(group, scale, max(left, 0))
        left -= states
        if best is None:
            exact = False
            best = greedy(group, set(), set())
        chosen.extend(best)
    return sorted(chosen), exact


def _solve_group(group: list[Candidate], scale: int, limit: int) -> tuple[Optional[list[Candidate]], int]:
    """The best set of one group (None past ``limit`` states, or past :data:`MAX_SEARCH_BYTES`),
    and the states searched."""
    group.sort()
    n = len(group)
    if n == 1:
        return group, 0
    # The peer words some candidate covers, numbered in order: a set of them is an int that
    # wide, however far into the peer they are.
    covered = sorted({p for c in group for p in range(c.peer_start, c.peer_start + c.peer_length)})
    rank = {p: i for i, p in enumerate(covered)}
    width = len(covered) // 8
    limit = min(limit, (MAX_SEARCH_BYTES - n * (_CANDIDATE_BYTES + 2 * width)) // (_STATE_BYTES + width))
    if n + 1 > limit:  # the states (j, nothing taken) alone are n + 1
        return None, 0
    masks = [((1 << c.peer_length) - 1) << rank[c.peer_start] for c in group]
    weights = [_weight(c, scale) for c in group]
    relevant = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        relevant[j] = relevant[j + 1] | masks[j]
    starts = [c.model_start for c in group]
    after = [bisect_left(starts, c.model_start + c.model_length) for c in group]
    memo: dict[tuple[int, int], tuple[int, bool]] = {}

    def key(j: int, taken: int) -> tuple[int, int]:
        return j, taken & relevant[j]

    stack = [key(0, 0)]
    while stack:
        state = stack[-1]
        if state in memo:
            stack.pop()
            continue
        j, taken = state
        if j == n:
            memo[state] = (0, False)
            stack.pop()
            continue
        skip = key(j + 1, taken)
        take = key(after[j], taken | masks[j]) if not masks[j] & taken else None
        waiting = [s for s in (skip, take) if s is not None and s not in memo]
        if waiting:
            stack.extend(waiting)
            continue
        value = memo[skip][0]
        took = False
        if take is not None and memo[take][0] + weights[j] >= value:
            value, took = memo[take][0] + weights[j], True
        memo[state] = (value, took)
        stack.pop()
        if len(memo) > limit:
            return None, len(memo)
    out = []
    j, taken = 0, 0
    while j < n:
        if memo[key(j, taken)][1]:
            out.append(group[j])
            taken |= masks[j]
            j = after[j]
        else:
            j += 1
    return out, len(memo)


def greedy(
    found: Union[Sequence[Sequence[int]], np.ndarray], model_used: set[int], peer_used: set[int]
) -> list[Candidate]:
    """Candidates (or rows of four ints) taken in order of more model words, more peer words,
    earlier model start, earlier peer start, each when none of its words is used yet (the
    sets are updated)."""
    import numpy as np

    rows = np.asarray(found, np.int64).reshape(-1, 4)
    rows = rows[np.lexsort((rows[:, 2], rows[:, 0], -rows[:, 3], -rows[:, 1]))]
    single = (rows[:, 1] == 1) & (rows[:, 3] == 1)  # one word each: the last rows in this order
    taken = []
    for ms, ml, ps, pl in rows[~single].tolist():
        model, peer = range(ms, ms + ml), range(ps, ps + pl)
        if model_used.isdisjoint(model) and peer_used.isdisjoint(peer):
            model_used.update(model)
            peer_used.update(peer)
            taken.append(Candidate(ms, ml, ps, pl))
    # One word to one word, by model word then peer word: each model word takes its first
    # free peer word (the same choices, without a loop over every row).
    ones = rows[single]
    if len(ones):
        starts = np.flatnonzero(np.r_[True, ones[1:, 0] != ones[:-1, 0]])
        peers = ones[:, 2].tolist()
        ends = [*starts[1:].tolist(), len(ones)]
        for ms, first, end in zip(ones[starts, 0].tolist(), starts.tolist(), ends):
            if ms in model_used:
                continue
            for ps in peers[first:end]:
                if ps not in peer_used:
                    model_used.add(ms)
                    peer_used.add(ps)
                    taken.append(Candidate(ms, 1, ps, 1))
                    break
    return taken


def _same(value: PairMatch) -> PairMatch:
    return value


def inexact_warning(instances: Sequence[str]) -> str:
    """The report's line naming the instances whose tier 1 went past :data:`MAX_STATES`."""
    shown = ", ".join(instances[:5]) + (", ..." if len(instances) > 5 else "")
    return (
        f"ParaEval: tier 1 matched greedily, not proven optimal, in {len(instances)} instance"
        f"{'s' if len(instances) != 1 else ''} (a group of overlapping paraphrases past {MAX_STATES} "
        f"search states): {shown}"
    )


class Text:
    """A summary as ParaEval sees it: the n-gram reader's token ids, where each sentence starts,
    and every phrase of the table found in it (start, length, phrase id)."""

    def __init__(self, ids: np.ndarray, offsets: Sequence[int], table: PhraseTable) -> None:
        import numpy as np

        from .paraphrases import _BASES, span_hashes

        self.ids = ids
        self.size = len(ids)
        bounds = np.asarray(offsets, np.int64)
        sentence = np.repeat(np.arange(len(bounds) - 1), np.diff(bounds))
        starts_found, lengths_found, phrases_found = [], [], []
        hashes = None
        for length in range(1, min(table.longest, self.size) + 1):
            hashes = span_hashes(ids, length, _BASES[0], hashes)
            at = np.flatnonzero(sentence[: len(hashes)] == sentence[length - 1 :])
            phrase = table.find(ids, at, length, hashes[at])
            hit = phrase >= 0
            starts_found.append(at[hit])
            lengths_found.append(np.full(int(hit.sum()), length, np.int64))
            phrases_found.append(phrase[hit])
        empty = np.zeros(0, np.int64)
        self.span_starts = np.concatenate(starts_found) if starts_found else empty
        self.span_lengths = np.concatenate(lengths_found) if lengths_found else empty
        self.span_phrases = np.concatenate(phrases_found) if phrases_found else empty


class _Links:
    """The table's pairs between the phrases of a model and those of a peer, by distinct phrase:
    each stands for a candidate at every pair of their places, which :meth:`rows` lists and
    :meth:`greedy` takes without listing them."""

    def __init__(self, model: Text, peer: Text, table: PhraseTable) -> None:
        import numpy as np

        self.model, self.peer = model, peer
        left, left_at = np.unique(model.span_phrases, return_inverse=True)
        right, right_at = np.unique(peer.span_phrases, return_inverse=True)
        # The distinct phrase of each span.
        self.model_at, self.peer_at = left_at.reshape(-1), right_at.reshape(-1)
        self.phrases = (len(left), len(right))
        self.left, self.right = table.links(left, right)
        self.left_length = (table.starts[left + 1] - table.starts[left])[self.left]
        self.right_length = (table.starts[right + 1] - table.starts[right])[self.right]
        #: Links whose phrases are of two words or more each (tier 1's).
        self.multi = (self.left_length > 1) & (self.right_length > 1)
        places = (
            np.bincount(self.model_at, minlength=len(left)),
            np.bincount(self.peer_at, minlength=len(right)),
        )
        self.sizes = places[0][self.left] * places[1][self.right]

    def count(self, chosen: Optional[np.ndarray]) -> int:
        """The candidates of the ``chosen`` links (None: all)."""
        return int((self.sizes if chosen is None else self.sizes[chosen]).sum())

    @functools.cached_property
    def spans(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The spans of each distinct phrase, by start, model's and peer's:
        ``spans[first[k]:first[k + 1]]``, as (model spans, model first, peer spans, peer first)."""
        return (*_by_phrase(self.model_at, self.phrases[0]), *_by_phrase(self.peer_at, self.phrases[1]))

    def rows(self, chosen: Optional[np.ndarray] = None) -> np.ndarray:
        """The candidates of the ``chosen`` links (None: all), as rows (model start, model
        length, peer start, peer length), sorted."""
        import numpy as np

        if len(self.model_at) * len(self.peer_at) <= _MASK_CELLS:  # small texts: one mask of spans
            linked = np.zeros(self.phrases, bool)
            if chosen is None:
                linked[self.left, self.right] = True
            else:
                linked[self.left[chosen], self.right[chosen]] = True
            m, p = np.nonzero(linked[self.model_at][:, self.peer_at])
        else:
            model_spans, model_first, peer_spans, peer_first = self.spans
            if chosen is None:
                chosen = np.ones(len(self.sizes), bool)
            sizes = self.sizes[chosen]
            link = np.repeat(np.flatnonzero(chosen), sizes)
            step = np.arange(len(link)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
            across = np.diff(peer_first)[self.right[link]]
            m = model_spans[model_first[self.left[link]] + step // across]
            p = peer_spans[peer_first[self.right[link]] + step % across]
        model, peer = self.model, self.peer
        rows = np.stack(
            (model.span_starts[m], model.span_lengths[m], peer.span_starts[p], peer.span_lengths[p]), 1
        )
        return rows[np.lexsort(rows.T[::-1])]

    def greedy(self, chosen: np.ndarray, model_used: set[int], peer_used: set[int]) -> list[Candidate]:
        """:func:`greedy` of the candidates of the ``chosen`` links, never all held: for each
        size of candidate in greedy's order, each model span by start takes the first free peer
        span of its partners (a peer span found not free stays so, and is passed for good)."""
        import numpy as np

        _, _, peer_spans, peer_first = self.spans
        taken = []
        sizes = set(zip(self.left_length[chosen].tolist(), self.right_length[chosen].tolist()))
        for ml, pl in sorted(sizes, key=lambda s: (-s[0], -s[1])):
            these = np.flatnonzero(chosen & (self.left_length == ml) & (self.right_length == pl))
            partners: dict[int, list[int]] = {}
            for a, b in zip(self.left[these].tolist(), self.right[these].tolist()):
                partners.setdefault(a, []).append(b)
            places: dict[int, list[int]] = {}
            passed: dict[int, int] = {}
            for b in set(self.right[these].tolist()):
                spans = peer_spans[peer_first[b] : peer_first[b + 1]]
                places[b], passed[b] = self.peer.span_starts[spans].tolist(), 0
            spans = np.flatnonzero(self.model.span_lengths == ml)
            spans = spans[np.isin(self.model_at[spans], self.left[these])]
            for ms, a in zip(self.model.span_starts[spans].tolist(), self.model_at[spans].tolist()):
                if not model_used.isdisjoint(range(ms, ms + ml)):
                    continue
                best = -1
                for b in partners[a]:
                    spots, i = places[b], passed[b]
                    while i < len(spots) and not peer_used.isdisjoint(range(spots[i], spots[i] + pl)):
                        i += 1
                    passed[b] = i
                    if i < len(spots) and (best < 0 or spots[i] < best):
                        best = spots[i]
                if best >= 0:
                    model_used.update(range(ms, ms + ml))
                    peer_used.update(range(best, best + pl))
                    taken.append(Candidate(ms, ml, best, pl))
        return taken


def _by_phrase(phrase_at: np.ndarray, phrases: int) -> tuple[np.ndarray, np.ndarray]:
    """Span indices ordered by phrase (by start within one), and where each phrase's begin."""
    import numpy as np

    first = np.zeros(phrases + 1, np.int64)
    np.cumsum(np.bincount(phrase_at, minlength=phrases), out=first[1:])
    return np.argsort(phrase_at, kind="stable"), first


def candidate_rows(model: Text, peer: Text, table: PhraseTable) -> np.ndarray:
    """Every (model phrase, peer phrase) pair of the table found in the two texts, as rows
    (model start, model length, peer start, peer length), sorted."""
    return _Links(model, peer, table).rows()


def candidates(model: Text, peer: Text, table: PhraseTable) -> list[Candidate]:
    """:func:`candidate_rows` as :class:`Candidate` tuples."""
    return list(map(Candidate._make, candidate_rows(model, peer, table).tolist()))


def _left(ids: Sequence[int], used: set[int]) -> Counter[int]:
    return Counter(t for i, t in enumerate(ids) if i not in used)


def _clipped(model: Counter[int], peer: Counter[int]) -> int:
    return sum(min(n, peer[t]) for t, n in model.items() if t in peer)


def match_pair(model: Text, peer: Text, table: PhraseTable, limit: Optional[int] = None) -> PairMatch:
    """The three tiers of one model against the peer (``limit``: tier 1's, :data:`MAX_STATES`)."""
    if limit is None:
        limit = MAX_STATES
    links = _Links(model, peer, table)
    multi = links.multi
    # Each tier's candidates are listed where they are few enough, else taken by links.greedy.
    if links.count(None) <= min(limit, MAX_CANDIDATES):  # the usual case: both are
        phrases_held = words_held = True
        rows = links.rows()
    else:
        phrases_held = links.count(multi) <= limit
        words_held = links.count(~multi) <= MAX_CANDIDATES
        rows = links.rows((multi & phrases_held) | (~multi & words_held))
    row_multi = (rows[:, 1] > 1) & (rows[:, 3] > 1)
    model_used: set[int] = set()
    peer_used: set[int] = set()
    if phrases_held:
        phrases = list(map(Candidate._make, rows[row_multi].tolist()))
        chosen, exact = solve_phrases(phrases, peer.size, limit) if phrases else ([], True)
        for c in chosen:
            model_used.update(range(c.model_start, c.model_start + c.model_length))
            peer_used.update(range(c.peer_start, c.peer_start + c.peer_length))
    else:
        chosen, exact = sorted(links.greedy(multi, model_used, peer_used)), False
    model_ids, peer_ids = model.ids.tolist(), peer.ids.tolist()
    tier1 = (len(model_used), len(peer_used))
    after_tier1 = _clipped(_left(model_ids, model_used), _left(peer_ids, peer_used))
    if words_held:
        single = rows[~row_multi]
        words = greedy(single, model_used, peer_used) if len(single) else []
    else:
        words = links.greedy(~multi, model_used, peer_used)
    tier2 = (len(model_used) - tier1[0], len(peer_used) - tier1[1])
    tier3 = _clipped(_left(model_ids, model_used), _left(peer_ids, peer_used)) if words else after_tier1
    return PairMatch(
        model.size, peer.size, tier1, tier2, tier3, after_tier1, exact, tuple(chosen), tuple(words)
    )


def word_ids(vocabulary: dict[Any, int]) -> Callable[[Sequence[Any]], tuple[array, array]]:
    """An encoder of texts (each a string of words split at whitespace, or a list of words) into
    their words' ids end to end and where each text starts, new words numbered as they come in
    ``vocabulary``: the ids of :meth:`ParaEval.match_tokens`."""

    def encode(texts: Sequence[Any]) -> tuple[array, array]:
        ids, offsets = array("i"), array("i", [0])
        for text in texts:
            words = text.split() if isinstance(text, str) else list(text)
            ids.extend(vocabulary.setdefault(w, len(vocabulary)) for w in words)
            offsets.append(len(ids))
        return ids, offsets

    return encode


def kernel_matches(
    table: PhraseTable,
    texts: list[Encoded],
    pairs: Sequence[tuple[int, int]],
    limit: Optional[int] = None,
    candidates: bool = True,
) -> Optional[list[PairMatch]]:
    """:func:`match_pair` of each (model, peer) pair of ``texts`` (each a text's token ids and
    where each of its sentences starts, int32 arrays) on the C kernel, all at once: the same
    matches (without ``candidates``, their ``phrases`` and ``words`` empty: the counts only),
    or None where the kernel is not in use or refuses the table."""
    kernel = _kernel.paraeval_kernel()
    if kernel is None or _STATE_BYTES < 1 or _CANDIDATE_BYTES < 0:
        return None
    state = table.kernel_state(kernel)
    if state is None:
        return None
    wanted = array("i")
    for model, peer in pairs:
        wanted.append(model)
        wanted.append(peer)
    return kernel.match(
        state,
        texts,  # type: ignore[arg-type]
        wanted,
        MAX_STATES if limit is None else limit,  # read now: a caller may lower them
        MAX_SEARCH_BYTES,
        _STATE_BYTES,
        _CANDIDATE_BYTES,
        PairMatch,
        Candidate if candidates else None,
    )


# The corpus's keys of a pair's matches: whole (:meth:`ParaEval.matches`), or for the counts.
_MATCHED, _COUNTED = "paraeval-match", "paraeval-counts"


def variant_counts(variant: str, match: PairMatch) -> PairCounts:
    """A row's counts of one model from its :class:`PairMatch`."""
    (m1, p1), (m2, p2), w3 = match.tier1, match.tier2, match.tier3
    hits = {
        "3": (m1 + m2 + w3, p1 + p2 + w3),
        "2": (m1 + match.tier3_after_tier1, p1 + match.tier3_after_tier1),
        "P": (m1 + m2, p1 + p2),
        "T1": (m1, p1),
        "T2": (m2, p2),
        "T3": (w3, w3),
    }[variant]
    return PairCounts(hits[0], match.model_words, match.peer_words, hits[1])


class ParaEval(Metric):
    """One ParaEval row (``variant``: one of :data:`VARIANTS`) with a paraphrase table.

    ``spec`` names a table file, loaded once per run in the run's token ids;
    ``pairs`` (for :meth:`score_pair`) gives one as (phrase, paraphrase) pairs of
    token lists or space-separated strings.
    """

    switches_stemming = False  # its words are ROUGE-1's, stemmed as ROUGE-1 stems them
    split_hits = True

    def __init__(
        self,
        variant: str = "3",
        spec: Optional[TableSpec] = None,
        pairs: Optional[Sequence[tuple[Any, Any]]] = None,
    ) -> None:
        if variant not in VARIANTS:
            raise UsageError(f"ParaEval variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
        self.variant = variant
        self.label = f"ParaEval-{variant}"
        self.spec = spec
        self.pairs = pairs
        #: Instance IDs whose tier 1 went past :data:`MAX_STATES` in some group (matched greedily there).
        self.inexact: list[str] = []

    def model_stems(self, models: int, stem_now: bool, only_models: bool) -> tuple[tuple[bool, bool], ...]:
        return ((stem_now, stem_now),) * models

    def table(self, corpus: Corpus, stem: bool) -> PhraseTable:
        """The table in the corpus's token ids (loaded once per run)."""
        from .paraphrases import corpus_table

        if self.spec is None:
            raise UsageError("ParaEval needs a paraphrase table (--paraphrases FILE)")
        return corpus_table(corpus, self.spec, stem)

    def prepare(self, corpus: Corpus, stem: bool) -> None:
        self.table(corpus, stem)

    def take_inexact(self) -> list[str]:
        found, self.inexact = self.inexact, []
        return found

    def _text(self, corpus: Corpus, table: PhraseTable, document: Any, stem: bool) -> Text:
        def make() -> Text:
            import numpy as np

            ids, offsets = corpus.ngram_sentence_ids(document, stem)
            return Text(np.frombuffer(ids, np.int32).astype(np.int64), offsets, table)

        return corpus.view(("paraeval", document, stem), make)

    def _match(self, corpus: Corpus, model: Document, peer: Document, stem: bool) -> PairMatch:
        table = self.table(corpus, stem)
        peer_text = self._text(corpus, table, peer, stem)
        return match_pair(self._text(corpus, table, model, stem), peer_text, table)

    def matches(self, corpus: Corpus, task: Task) -> list[PairMatch]:
        """The tiers of each model of a task against its peer (made once for all the rows).

        Models are stemmed as the peer is (:meth:`model_stems`), so one table serves both.
        """
        return self._tiers(corpus, task, _MATCHED)

    def _tiers(self, corpus: Corpus, task: Task, kind: str) -> list[PairMatch]:
        """The matches of a task's models kept under ``kind``: :data:`_MATCHED`, or
        :data:`_COUNTED` (those :meth:`counts` reads: where the kernel made them, without their
        candidates)."""
        stem = task.peer_stem
        out = []
        for document in task.models:
            key = (kind, document, task.peer, stem)
            found = corpus.view(key, functools.partial(self._match, corpus, document, task.peer, stem))
            if not found.exact:
                self.inexact.append(task.instance_id)
            out.append(found)
        return out

    def _match_on_kernel(self, corpus: Corpus, tasks: list[Task]) -> None:
        """The counts of every pair of the tasks not counted yet, on the C kernel at once (kept
        for :meth:`counts`, without their candidates; nothing where the kernel is not in use).
        The table and the documents are read in the order :meth:`matches` reads them."""
        if _kernel.paraeval_kernel() is None:
            return
        by_stem: dict[bool, tuple[dict[Hashable, int], list[Encoded], dict[Hashable, tuple[int, int]]]] = {}
        for task in tasks:
            stem = task.peer_stem
            if stem not in by_stem:
                self.table(corpus, stem)
            places, texts, pairs = by_stem.setdefault(stem, ({}, [], {}))
            peer = -1
            for document in task.models:
                key = (_COUNTED, document, task.peer, stem)
                if key in pairs or corpus.viewed(key):
                    continue
                if peer < 0:
                    peer = self._place(corpus, task.peer, stem, places, texts)
                pairs[key] = (self._place(corpus, document, stem, places, texts), peer)
        for stem, (_, texts, pairs) in by_stem.items():
            found = (
                kernel_matches(self.table(corpus, stem), texts, list(pairs.values()), candidates=False)
                if pairs
                else None
            )
            for made, match in zip(pairs, found or ()):
                corpus.view(made, functools.partial(_same, match))

    @staticmethod
    def _place(
        corpus: Corpus, document: Document, stem: bool, places: dict[Hashable, int], texts: list[Encoded]
    ) -> int:
        """The index of a document's ids among ``texts`` (added once)."""
        at = places.get(document)
        if at is None:
            at = places[document] = len(texts)
            texts.append(corpus.ngram_sentence_ids(document, stem))
        return at

    def counts(self, corpus: Corpus, tasks: list[Task]) -> list[list[PairCounts]]:  # type: ignore[override]
        self._match_on_kernel(corpus, tasks)
        return [[variant_counts(self.variant, m) for m in self._tiers(corpus, t, _COUNTED)] for t in tasks]

    def score_pair(self, peer: Sequence[Any], model: Sequence[Any]) -> PairCounts:  # type: ignore[override]
        """The row's counts of one peer against one model given as tokens (a list of tokens, or
        of sentences: lists of tokens), with the table of ``pairs``::

            >>> ParaEval("3", pairs=[("blowing up", "bombing")]).score_pair(
            ...     "the bombing of the embassy".split(), "they were blowing up the embassy".split())
            PairCounts(hit=4, model_count=6, peer_count=5, peer_hit=3, score=None)
        """
        return variant_counts(self.variant, self.match_tokens(peer, model))

    def match_tokens(self, peer: Sequence[Any], model: Sequence[Any]) -> PairMatch:
        """The three tiers of one peer against one model given as tokens (see :meth:`score_pair`)."""
        import numpy as np

        from .paraphrases import TableSpec, build_table

        encode = word_ids({})
        pairs = list(self.pairs or ())
        table = build_table(TableSpec("<pairs>"), encode, [([a for a, _ in pairs], [b for _, b in pairs])])

        def text(tokens: Sequence[Any], name: str) -> Text:
            items = given_list(tokens, name)
            sentences = [list(s) for s in items] if items and isinstance(items[0], (list, tuple)) else [items]
            ids, offsets = encode(sentences)
            return Text(np.asarray(ids, np.int64), list(offsets), table)

        model_text = text(model, GIVEN_MODEL)
        return match_pair(model_text, text(peer, GIVEN_PEER), table)
