"""METEOR as Banerjee and Lavie published it in 2005 ("METEOR: An Automatic Metric for MT
Evaluation with Improved Correlation with Human Judgments", ACL 2005 workshop on intrinsic and
extrinsic evaluation measures for MT and/or summarization).

- **Words.** An item's hypothesis is its summary's sentences joined by one space, each reference
  its reference's sentences likewise; the words are the text's ``str.split()`` (runs of Unicode
  whitespace), each ``str.lower()``'d: what nltk's ``meteor_score`` scores when given
  ``text.split()``. Punctuation stays on its word (``cat.`` is not ``cat``).
- **Alignment, by stages.** The modules run in the order ``modules`` lists them, each among the
  words that earlier stages left unlinked: ``exact`` links equal words, ``stem`` words of equal
  Porter stems, ``synonym`` words sharing a WordNet synset. A stage's alignment (a one-to-one map
  between unigrams, each link between words the module relates) is chosen, as the paper says,
  among those of the most links, with the fewest crossings; two links (i, j) and (i', j') cross
  when (i - i')(j - j') < 0, counted over the whole alignment (the earlier stages' links with the
  stage's). The paper leaves ties open; here, of those, the alignment of the **fewest chunks**
  (of the whole alignment so far) wins, and of equals the **first in hypothesis order**: the
  hypothesis words left to right, each linked to its earliest possible reference word, a link
  before no link (the smallest sequence of reference positions, word by word, an unlinked word
  counting after every position). Ties matter: ``the cat`` against ``the dog the cat`` has two
  alignments of one crossing-free link for ``the``, of 2 chunks and of 1. Stages decide in turn,
  as the paper's do: an earlier stage's tie is broken without regard to later stages, and the
  fewest crossings need not be the fewest chunks, so nltk's greedy alignment (each hypothesis
  word from the last to the latest free reference word) now and then scores higher (the tests
  show one case of each).
- **The search** is exact: a depth-first branch and bound over the hypothesis words the stage
  can link, in hypothesis order, each word's choices in the tie order above. A branch is cut when
  a lower bound of its crossings (those made, plus each word still to link at its cheapest
  reference against the links made and the earlier stages') and of its chunks cannot reach the
  best alignment found; a state met twice (the same word next, the same references linked, the
  same last link) is pursued once. Before it, a group of words of one key (exact: the word;
  stem: the stem) with as many free words on both sides is linked in order (every optimal
  alignment does), a group of unequal sides keeps its links in order, and no synonym link is
  made that crosses one it could swap with (a swap of such crossing links removes crossings).
  The first bound is a greedy descent's alignment, improved group by group (each group's links
  made anew by dynamic programming, the best for the others').
- **The bound.** The greedy descent and the search each visit at most :data:`SEARCH_STEPS`
  nodes per stage. At the bound the best alignment found is kept: it has the most links (every
  alignment met has), but its crossings and chunks are not proven the fewest nor its tie the
  first; the row's ``cut`` column counts such stages and the signature names the bound. On the
  bundled duc-mini texts (120 summary/model pairs, 60 to 103 words) no stage meets it (at most
  0.07 s a pair); of 60 pairs of 120 to 176 words, each two unrelated duc-mini summaries, 13 met
  it (at most 0.4 s a pair); against a search of 2,000,000 nodes, 11 of these had as many links
  and chunks and 2 one chunk fewer (a higher score: the stages' own choices differed).
  (meteor.pl 0.6 bounds its matcher likewise, by ``maxComputations`` = 10000.)
- **Stemmer.** Porter's 1980 algorithm as published (:func:`porter_stem`), the mode
  ``ORIGINAL_ALGORITHM`` of nltk's ``PorterStemmer`` (the tests compare every word of a
  vocabulary of 80,000). It is neither ROUGE-1.5.5's variant (``rouge155py.text.porter``) nor
  nltk's default mode.
- **Synonyms** need a WordNet database directory (``wordnet``): two words are synonyms when the
  synsets of their base forms intersect (:mod:`rouge155py.other_metrics.wordnet`): both words go
  through WordNet's morphology, so ``were`` and ``is`` share ``be``'s synsets (meteor.pl 0.6
  keeps each word's WordNet forms and synset offsets likewise). nltk's ``meteor_score`` links
  fewer: a reference word only as written, among the lemma names of the hypothesis word's
  synsets. Without a directory the synonym module is dropped, and :meth:`Meteor.signature`
  names the modules run.
- **Score.** With m links, P = m / hypothesis words, R = m / reference words, Fmean =
  10PR / (R + 9P), Penalty = 0.5 (chunks / m)^3 where chunks is the fewest runs of links
  adjacent and in the same order in both texts, and METEOR = Fmean (1 - Penalty); 0 without a
  link. The paper's formula exactly: no special case for identical texts (meteor.pl 0.6 sets
  their penalty to 0). With several references, the best score; of equal best scores (compared
  exactly, as fractions) the last reference's counts, as meteor.pl 0.6's ``>=`` keeps.
- **Counts.** A row per item holds the best reference's :data:`COLUMNS`: links, chunks,
  hypothesis words, reference words, then the links of each module and the stages cut at the
  bound. :meth:`Meteor.score` of a row is the item's METEOR; of the sum of rows, the system
  score as the paper computes it and meteor.pl 0.6 prints it: P and R from the summed links and
  lengths, the penalty from the summed chunks and links.
"""

from __future__ import annotations

import bisect
from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import add
from typing import Any, Optional, Protocol, Sequence

import numpy as np

from ..errors import UsageError
from .base import Item, OtherMetric, checked

__all__ = [
    "COLUMNS",
    "MODULES",
    "SEARCH_STEPS",
    "Alignment",
    "Meteor",
    "Synsets",
    "align",
    "chunks_of",
    "crossings_of",
    "meteor_words",
    "porter_stem",
]

#: The modules, in their default order.
MODULES = ("exact", "stem", "synonym")

#: The nodes one stage's search may visit (see the module's text).
SEARCH_STEPS = 20_000

#: A row of :meth:`Meteor.counts`.
COLUMNS = ("matches", "chunks", "hypothesis_words", "reference_words", "exact", "stem", "synonym", "cut")

Link = tuple[int, int]


# --- Porter (1980) -------------------------------------------------------------------------------

_VOWELS = frozenset("aeiou")


def _consonants(word: str) -> list[bool]:
    """Whether each letter is a consonant: not a e i o u, and y only after a vowel or first."""
    flags: list[bool] = []
    for letter in word:
        if letter in _VOWELS:
            flags.append(False)
        elif letter == "y":
            flags.append(not flags or not flags[-1])
        else:
            flags.append(True)
    return flags


def _measure(stem: str) -> int:
    """m of [C](VC){m}[V]: the consonants that follow a vowel."""
    flags = _consonants(stem)
    return sum(1 for k in range(1, len(flags)) if flags[k] and not flags[k - 1])


def _has_vowel(stem: str) -> bool:
    return not all(_consonants(stem))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonants(word)[-1]


def _cvc(word: str) -> bool:
    """*o: the word ends consonant, vowel, consonant, the last not w, x or y."""
    if len(word) < 3:
        return False
    flags = _consonants(word)
    return flags[-3] and not flags[-2] and flags[-1] and word[-1] not in "wxy"


# Steps 2 and 3 (condition m > 0) and 4 (m > 1): the longest suffix that ends the word decides
# (these orders put a longer suffix before any shorter one that ends it).
_STEP2 = (
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("abli", "able"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
)
_STEP3 = (
    ("icate", "ic"),
    ("ative", ""),
    ("alize", "al"),
    ("iciti", "ic"),
    ("ical", "ic"),
    ("ful", ""),
    ("ness", ""),
)
_STEP4 = (
    "al",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ement",
    "ment",
    "ent",
    "ion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
)


def _replaced(word: str, rules: Sequence[tuple[str, str]]) -> str:
    for suffix, replacement in rules:
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            return stem + replacement if _measure(stem) > 0 else word
    return word


def _step1(word: str) -> str:
    # 1a
    if word.endswith("sses") or word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    # 1b
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    else:
        for suffix in ("ed", "ing"):
            if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
                word = word[: -len(suffix)]
                if word.endswith(("at", "bl", "iz")):
                    word += "e"
                elif _double_consonant(word):
                    if word[-1] not in "lsz":
                        word = word[:-1]
                elif _measure(word) == 1 and _cvc(word):
                    word += "e"
                break
    # 1c
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    return word


def _step4(word: str) -> str:
    for suffix in _STEP4:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            if _measure(stem) > 1 and (suffix != "ion" or stem.endswith(("s", "t"))):
                return stem
            return word
    return word


def _step5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        measure = _measure(stem)
        if measure > 1 or (measure == 1 and not _cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word[:-1]) > 1:
        word = word[:-1]
    return word


@lru_cache(maxsize=1 << 16)
def porter_stem(word: str) -> str:
    """The stem of ``word`` (lowercased) by Porter's 1980 algorithm as the paper gives it:
    nltk's ``PorterStemmer(PorterStemmer.ORIGINAL_ALGORITHM).stem(word)``. Any character but
    a e i o u and y is a consonant; words of any length are stemmed."""
    word = word.lower()
    return _step5(_step4(_replaced(_replaced(_step1(word), _STEP2), _STEP3)))


# --- words, crossings, chunks -------------------------------------------------------------------


def meteor_words(text: str) -> list[str]:
    """The words METEOR scores in ``text``: ``text.split()``, each ``str.lower()``'d."""
    return [word.lower() for word in text.split()]


def crossings_of(links: Sequence[Link]) -> int:
    """The pairs of links (i, j), (i', j') with (i - i')(j - j') < 0."""
    seen: list[int] = []
    crossings = 0
    for _, j in sorted(links):
        crossings += len(seen) - bisect.bisect_right(seen, j)
        bisect.insort(seen, j)
    return crossings


def chunks_of(links: Sequence[Link]) -> int:
    """The fewest runs of links adjacent and in the same order in both texts: the links by
    hypothesis position, a new run wherever a link is not (i + 1, j + 1) after (i, j)."""
    chunks = 0
    last: Optional[Link] = None
    for link in sorted(links):
        if last is None or link != (last[0] + 1, last[1] + 1):
            chunks += 1
        last = link
    return chunks


# --- one stage's search --------------------------------------------------------------------------

_SKIP = -1


class _Stop(Exception):
    """The search met its bound."""


class _Search:
    """One stage's optimal links (see the module's text). ``base``: the links the search does
    not choose (earlier stages', and this stage's groups of equal sides); ``branch``: the free
    hypothesis positions the search decides, ascending; ``candidates[k]``: the free reference
    positions ``branch[k]`` may link to, ascending. With ``groups`` (exact and stem), ``group[k]``
    is the group of ``branch[k]``, ``group_refs[g]`` its free reference positions and
    ``group_need[g]`` the links it has in every alignment of the most links; without
    (synonym), ``need`` links in all."""

    def __init__(
        self,
        base: list[Link],
        branch: list[int],
        candidates: list[list[int]],
        limit: int,
        need: int,
        group: Optional[list[int]] = None,
        group_refs: Optional[list[list[int]]] = None,
        group_need: Optional[list[int]] = None,
    ) -> None:
        self.base = sorted(base)
        self.base_crossings = crossings_of(self.base)
        self.branch = branch
        self.candidates = candidates
        self.limit = limit
        self.need = need
        self.group = group
        self.group_refs = group_refs or []
        self.group_need = group_need or []
        self.steps = 0
        self.cut = False
        self.best: Optional[tuple[Link, ...]] = None
        self.best_value: Optional[tuple[int, int]] = None
        self.best_ordered = False
        size = len(branch)
        # Crossings of each candidate link with the base links.
        self.cost: list[dict[int, int]] = []
        if self.base:
            bi = np.array([i for i, _ in self.base])
            bj = np.array([j for _, j in self.base])
        for k, i in enumerate(branch):
            js = candidates[k]
            if not self.base or not js:
                self.cost.append(dict.fromkeys(js, 0))
                continue
            cj = np.array(js)[:, None]
            crossing = ((bi < i) & (bj > cj)) | ((bi > i) & (bj < cj))
            self.cost.append(dict(zip(js, (int(c) for c in crossing.sum(axis=1)))))
        # The same, as lists in the order of the candidates.
        self.rows = [[cost[j] for j in js] for cost, js in zip(self.cost, candidates)]
        # The base links between branch positions: segment[k] before branch[k], segment[size]
        # after the last.
        self.segment: list[list[Link]] = [[] for _ in range(size + 1)]
        for link in self.base:
            self.segment[bisect.bisect_left(branch, link[0])].append(link)
        # Base links that start a chunk whatever the search chooses, after each branch position.
        base_ref = dict(self.base)
        position = {i: k for k, i in enumerate(branch)}
        forced_after = [0] * (size + 1)
        for i, j in self.base:
            before = i - 1
            if before in base_ref:
                forced = base_ref[before] != j - 1
            elif before in position:
                forced = j - 1 not in self.cost[position[before]]
            else:
                forced = True
            if forced:
                forced_after[bisect.bisect_left(branch, i)] += 1
        self.forced_suffix = [0] * (size + 1)
        total = 0
        for k in range(size, 0, -1):
            total += forced_after[k]
            self.forced_suffix[k - 1] = total
        if group is not None:
            self.group_nodes: list[list[int]] = [[] for _ in self.group_refs]
            for k, g in enumerate(group):
                self.group_nodes[g].append(k)
            # The state of each group: index in group_refs of its last link, links, nodes left.
            self.last = [-1] * len(self.group_refs)
            self.linked = [0] * len(self.group_refs)
            self.left = [len(nodes) for nodes in self.group_nodes]
        else:
            self.adjacent = [set(js) for js in candidates]
            self.used: set[int] = set()
        self.chosen: list[Link] = []
        self.chosen_nodes: list[int] = []
        self.chosen_refs: list[int] = []
        self.mask = 0  # the chosen references, a bit each
        self.crossings = 0
        self.starts = 0
        self.previous: Optional[Link] = None

    # The state's moves ---------------------------------------------------------------------

    def _append(self, link: Link) -> None:
        last = self.previous
        if last is None or link != (last[0] + 1, last[1] + 1):
            self.starts += 1
        self.previous = link

    def _greater(self, j: int) -> int:
        return len(self.chosen_refs) - bisect.bisect_right(self.chosen_refs, j)

    def _apply(self, k: int, j: int) -> tuple[int, int, Optional[Link], int, int, int]:
        saved = (self.crossings, self.starts, self.previous, 0, 0, 0)
        i = self.branch[k]
        g = self.group[k] if self.group is not None else -1
        if g >= 0:
            saved = (*saved[:3], self.last[g], self.linked[g], self.left[g])
            self.left[g] -= 1
        if j != _SKIP:
            self.crossings += self.cost[k][j] + self._greater(j)
            self.chosen.append((i, j))
            self.chosen_nodes.append(k)
            self.mask |= 1 << j
            bisect.insort(self.chosen_refs, j)
            if g >= 0:
                self.last[g] = bisect.bisect_left(self.group_refs[g], j)
                self.linked[g] += 1
            else:
                self.used.add(j)
            self._append((i, j))
        for link in self.segment[k + 1]:
            self._append(link)
        return saved

    def _undo(self, k: int, j: int, saved: tuple[int, int, Optional[Link], int, int, int]) -> None:
        self.crossings, self.starts, self.previous = saved[0], saved[1], saved[2]
        g = self.group[k] if self.group is not None else -1
        if g >= 0:
            self.last[g], self.linked[g], self.left[g] = saved[3], saved[4], saved[5]
        if j != _SKIP:
            self.chosen.pop()
            self.chosen_nodes.pop()
            self.mask ^= 1 << j
            self.chosen_refs.pop(bisect.bisect_left(self.chosen_refs, j))
            if g < 0:
                self.used.discard(j)

    # Bounds and moves at a node -------------------------------------------------------------

    def _group_bound(self, k: int) -> Optional[int]:
        """The fewest crossings the groups' links still to come add (with the links made and the
        base), each node at its cheapest reference in the window its rank allows."""
        assert self.group is not None
        total = 0
        for g, nodes in enumerate(self.group_nodes):
            need = self.group_need[g] - self.linked[g]
            if need <= 0:
                continue
            refs = self.group_refs[g]
            left = self.left[g]
            slack = left - need
            last = self.last[g]
            # greater[t - last - 1]: the links made whose reference is after refs[t].
            made = len(self.chosen_refs)
            greater = [made - bisect.bisect_right(self.chosen_refs, r) for r in refs[last + 1 :]]
            cheapest: list[int] = []
            for q, node in enumerate(nodes[len(nodes) - left :]):
                low = last + max(1, q + 1 - slack)
                high = min(len(refs) - need + q, len(refs) - 1)
                if low > high:
                    continue
                cheapest.append(
                    min(map(add, self.rows[node][low : high + 1], greater[low - last - 1 : high - last]))
                )
            if len(cheapest) < need:
                return None
            cheapest.sort()
            total += sum(cheapest[:need])
        return total

    def _graph_bound(self, k: int) -> Optional[int]:
        """As :meth:`_group_bound` for a synonym stage, None where the links still possible
        (a maximum matching of what is left) are too few."""
        need = self.need - len(self.chosen)
        if need <= 0:
            return 0
        if len(_maximum_matching(self.candidates[k:], self.used, need)) < need:
            return None
        cheapest: list[int] = []
        for node in range(k, len(self.branch)):
            cost = self.cost[node]
            best = min(
                (cost[j] + self._greater(j) for j in self.candidates[node] if j not in self.used),
                default=None,
            )
            if best is not None:
                cheapest.append(best)
        cheapest.sort()
        return sum(cheapest[:need])

    def _moves(self, k: int, ordered: bool) -> list[int]:
        i = self.branch[k]
        if self.group is not None:
            g = self.group[k]
            refs = self.group_refs[g]
            need = self.group_need[g] - self.linked[g]
            moves = refs[self.last[g] + 1 : len(refs) - need + 1] if need > 0 else []
            if self.left[g] - 1 >= need:
                moves = [*moves, _SKIP]
        else:
            moves = []
            for j in self.candidates[k]:
                if j in self.used:
                    continue
                # A link crossing a made link (i', j') where (i', j) and (i, j') are links too:
                # the swap has fewer crossings.
                if any(
                    jj > j and j in self.adjacent[kk] and jj in self.adjacent[k]
                    for kk, (_, jj) in zip(self.chosen_nodes, self.chosen)
                ):
                    continue
                moves.append(j)
            moves.append(_SKIP)
        if not ordered:
            last = self.previous

            def rank(j: int) -> tuple[int, int, int]:
                if j == _SKIP:
                    return (1, 0, 0)
                follows = last is not None and (i, j) == (last[0] + 1, last[1] + 1)
                return (0, self.cost[k][j] + self._greater(j), 0 if follows else 1)

            moves.sort(key=rank)
        return moves

    # The search ----------------------------------------------------------------------------

    def _worse(self, value: tuple[int, int], ordered: bool) -> bool:
        """Whether a branch of at least ``value`` cannot hold the alignment sought: in the
        ordered pass, the first one in its order of the fewest crossings and chunks; in the
        greedy pass, any one better than the best known."""
        best = self.best_value
        if best is None:
            return False
        return value > best or (value == best and (self.best_ordered or not ordered))

    def improve(self) -> None:
        """Better links than the best known, group by group (exact and stem stages): each
        group's links made anew, by dynamic programming, the best for the others' links (the
        fewest crossings, then chunks), until no group's change helps. A first bound to prune by."""
        if self.best is None or self.group is None:
            return
        links = dict(self.best)
        position = {i: k for k, i in enumerate(self.branch)}
        value = self._value(links)
        for _ in range(8):
            changed = False
            for g, nodes in enumerate(self.group_nodes):
                hyps = [self.branch[k] for k in nodes]
                refs = self.group_refs[g]
                others = [*self.base, *((i, j) for i, j in links.items() if self.group[position[i]] != g)]
                trial = {i: j for i, j in links.items() if self.group[position[i]] != g}
                trial.update(_group_links(hyps, refs, others))
                found = self._value(trial)
                if found < value:
                    links, value, changed = trial, found, True
            if not changed:
                break
        if self.best_value is None or value < self.best_value:
            self.best, self.best_value = tuple(sorted(links.items())), value

    def _value(self, links: dict[int, int]) -> tuple[int, int]:
        """(crossings but the base's among themselves, chunks) of the base and ``links``."""
        every = [*self.base, *links.items()]
        return (crossings_of(every) - self.base_crossings, chunks_of(every))

    def run(self, ordered: bool, first: bool = False) -> bool:
        """One depth-first pass of at most ``limit`` nodes: ``ordered``, in the tie order of the
        module's text, for the first alignment of the fewest crossings and chunks; else in a
        greedy order (the fewest new crossings first), for the fewest crossings and chunks, or
        (``first``) its first alignment. False where it met the bound."""
        size = len(self.branch)
        self.steps = 0
        # The best (crossings, chunks) seen at each state whose future is the same: the node, the
        # references linked, and the last link where the next node may continue its chunk.
        seen: dict[tuple[int, int, Optional[Link]], tuple[int, int]] = {}
        for link in self.segment[0]:
            self._append(link)
        stack: list[list[Any]] = [[0, None, 0, None, None]]  # node, moves, next move, move made, saved
        try:
            while stack:
                frame = stack[-1]
                k = frame[0]
                if frame[1] is None:
                    self.steps += 1
                    if self.steps > self.limit:
                        raise _Stop
                    if k == size:
                        if len(self.chosen) < self.need:
                            stack.pop()
                            continue
                        value = (self.crossings, self.starts)
                        if (
                            self.best_value is None
                            or value < self.best_value
                            or (value == self.best_value and ordered and not self.best_ordered)
                        ):
                            self.best, self.best_value, self.best_ordered = tuple(self.chosen), value, ordered
                        stack.pop()
                        if first:
                            return True
                        continue
                    last = self.previous
                    state = (
                        k,
                        self.mask,
                        last if last is not None and last[0] == self.branch[k] - 1 else None,
                    )
                    value = (self.crossings, self.starts)
                    known = seen.get(state)
                    if known is not None and known <= value:
                        stack.pop()
                        continue
                    seen[state] = value
                    bound = self._group_bound(k) if self.group is not None else self._graph_bound(k)
                    if bound is None or self._worse(
                        (self.crossings + bound, self.starts + self.forced_suffix[k]), ordered
                    ):
                        stack.pop()
                        continue
                    frame[1] = self._moves(k, ordered)
                if frame[3] is not None:
                    self._undo(k, frame[3], frame[4])
                    frame[3] = None
                if frame[2] >= len(frame[1]):
                    stack.pop()
                    continue
                move = frame[1][frame[2]]
                frame[2] += 1
                frame[3], frame[4] = move, self._apply(k, move)
                stack.append([k + 1, None, 0, None, None])
        except _Stop:
            self.cut = True
            return False
        finally:
            for frame in reversed(stack):
                if frame[3] is not None:
                    self._undo(frame[0], frame[3], frame[4])
            self.starts, self.previous = 0, None
        return True


def _group_links(hyps: list[int], refs: list[int], others: list[Link]) -> list[Link]:
    """The links of one group (its free hypothesis and reference positions) in order, of the
    smaller side's size, with the fewest crossings with ``others``, then the fewest chunks
    (as each link alone adds or removes a chunk start)."""
    size = min(len(hyps), len(refs))
    present = set(others)
    if others:
        oi = np.array([i for i, _ in others])[None, None, :]
        oj = np.array([j for _, j in others])[None, None, :]
        hi = np.array(hyps)[:, None, None]
        rj = np.array(refs)[None, :, None]
        crossing = (((oi < hi) & (oj > rj)) | ((oi > hi) & (oj < rj))).sum(axis=2).tolist()
    else:
        crossing = [[0] * len(refs) for _ in hyps]
    scale = 2 * size + 1
    weight = [
        [
            crossing[q][t] * scale + ((i - 1, j - 1) not in present) - ((i + 1, j + 1) in present)
            for t, j in enumerate(refs)
        ]
        for q, i in enumerate(hyps)
    ]
    # best[q][t]: the least weight of links of the first q hypothesis positions to the first t
    # references, with as many links as the side that runs out.
    inf = float("inf")
    rows, cols = len(hyps), len(refs)
    best = [[0.0] * (cols + 1) for _ in range(rows + 1)]
    for q in range(rows + 1):
        for t in range(cols + 1):
            if q == 0 or t == 0:
                best[q][t] = 0.0 if (rows <= cols and q == 0) or (rows > cols and t == 0) else inf
                continue
            link = best[q - 1][t - 1] + weight[q - 1][t - 1]
            skip = best[q][t - 1] if rows <= cols else best[q - 1][t]
            best[q][t] = min(link, skip)
    found: list[Link] = []
    q, t = rows, cols
    while q > 0 and t > 0:
        skip = best[q][t - 1] if rows <= cols else best[q - 1][t]
        if best[q][t] == skip and skip != inf:
            if rows <= cols:
                t -= 1
            else:
                q -= 1
            continue
        found.append((hyps[q - 1], refs[t - 1]))
        q, t = q - 1, t - 1
    assert len(found) == size
    return found


def _maximum_matching(
    candidates: Sequence[Sequence[int]], blocked: frozenset[int] | set[int] = frozenset(), enough: int = -1
) -> dict[int, int]:
    """node -> reference of a maximum matching of nodes to their candidates not in ``blocked``
    (augmenting paths, breadth first), or of ``enough`` links once reached."""
    owner: dict[int, int] = {}
    partner: dict[int, int] = {}
    for start in range(len(candidates)):
        reached_from: dict[int, int] = {}
        queue = deque([start])
        free: Optional[int] = None
        while queue and free is None:
            node = queue.popleft()
            for j in candidates[node]:
                if j in blocked or j in reached_from:
                    continue
                reached_from[j] = node
                if j not in owner:
                    free = j
                    break
                queue.append(owner[j])
        if free is None:
            continue
        j = free
        while True:  # the path's nodes each take the reference before them
            node = reached_from[j]
            before = partner.get(node)
            owner[j], partner[node] = node, j
            if before is None:
                break
            j = before
        if len(partner) == enough:
            break
    return partner


def _stage(
    fixed: list[Link],
    free_h: list[int],
    free_r: list[int],
    hyp_keys: Optional[Sequence[object]],
    ref_keys: Optional[Sequence[object]],
    hyp_sets: Optional[Sequence[frozenset[Any]]],
    ref_sets: Optional[Sequence[frozenset[Any]]],
    limit: int,
) -> tuple[list[Link], bool]:
    """A stage's new links and whether its search met the bound. Keys (exact, stem): words of
    one key are related; sets (synonym): words whose sets intersect."""
    if hyp_keys is not None and ref_keys is not None:
        groups: dict[object, tuple[list[int], list[int]]] = {}
        for i in free_h:
            groups.setdefault(hyp_keys[i], ([], []))[0].append(i)
        for j in free_r:
            if ref_keys[j] in groups:
                groups[ref_keys[j]][1].append(j)
        forced: list[Link] = []
        branch_groups: list[tuple[list[int], list[int]]] = []
        for hs, rs in groups.values():
            if not rs:
                continue
            if len(hs) == len(rs):
                forced.extend(zip(hs, rs))
            else:
                branch_groups.append((hs, rs))
        nodes = sorted((i, g) for g, (hs, _) in enumerate(branch_groups) for i in hs)
        if not nodes:
            return forced, False
        fallback = [link for hs, rs in branch_groups for link in zip(hs, rs)]
        branch = [i for i, _ in nodes]
        group = [g for _, g in nodes]
        group_refs = [rs for _, rs in branch_groups]
        search = _Search(
            fixed + forced,
            branch,
            [group_refs[g] for g in group],
            limit,
            sum(min(len(hs), len(rs)) for hs, rs in branch_groups),
            group,
            group_refs,
            [min(len(hs), len(rs)) for hs, rs in branch_groups],
        )
    else:
        assert hyp_sets is not None and ref_sets is not None
        forced = []
        branch, candidates = [], []
        for i in free_h:
            if hyp_sets[i]:
                js = [j for j in free_r if ref_sets[j] and not hyp_sets[i].isdisjoint(ref_sets[j])]
                if js:
                    branch.append(i)
                    candidates.append(js)
        if not branch:
            return [], False
        matched = _maximum_matching(candidates)
        fallback = [(branch[k], j) for k, j in sorted(matched.items())]
        search = _Search(list(fixed), branch, candidates, limit, len(fallback))
    if search.run(ordered=False, first=True):
        search.improve()
        search.run(ordered=True)
    if search.best is None:  # the bound came before the first alignment: a maximum one
        return forced + fallback, True
    return forced + list(search.best), search.cut


# --- the alignment ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Alignment:
    """METEOR's alignment of a hypothesis and a reference: ``links`` (hypothesis position,
    reference position) by hypothesis position, ``modules`` the module of each, the whole
    alignment's ``crossings`` and ``chunks``, and ``cut`` the stages stopped at the bound."""

    links: tuple[Link, ...]
    modules: tuple[str, ...]
    crossings: int
    chunks: int
    cut: int

    @property
    def matches(self) -> int:
        return len(self.links)

    def by_module(self, module: str) -> int:
        return sum(1 for name in self.modules if name == module)


class Synsets(Protocol):
    """What the synonym module asks of WordNet (:class:`~rouge155py.other_metrics.wordnet.
    WordNet`): a word's synsets, any hashable names."""

    def synsets(self, word: str) -> frozenset[Any]: ...


def align(
    hypothesis: Sequence[str],
    reference: Sequence[str],
    modules: Sequence[str] = ("exact", "stem"),
    wordnet: Optional[Synsets] = None,
    limit: int = SEARCH_STEPS,
) -> Alignment:
    """METEOR's alignment of two word lists (lowercased, as :func:`meteor_words` gives them),
    by the stages ``modules`` in order; ``wordnet`` (a :class:`~rouge155py.other_metrics.wordnet.
    WordNet`) for ``synonym``; ``limit``: the nodes one stage's search may visit."""
    links: dict[int, int] = {}
    module_of: dict[int, str] = {}
    cut = 0
    for module in modules:
        fixed = sorted(links.items())
        used = set(links.values())
        free_h = [i for i in range(len(hypothesis)) if i not in links]
        free_r = [j for j in range(len(reference)) if j not in used]
        if not free_h or not free_r:
            break
        if module == "exact":
            new, stopped = _stage(fixed, free_h, free_r, hypothesis, reference, None, None, limit)
        elif module == "stem":
            hyp_stems = [porter_stem(word) for word in hypothesis]
            ref_stems = [porter_stem(word) for word in reference]
            new, stopped = _stage(fixed, free_h, free_r, hyp_stems, ref_stems, None, None, limit)
        elif module == "synonym":
            if wordnet is None:
                raise UsageError("METEOR: the synonym module needs a WordNet database")
            synsets, free_hyp, free_ref = wordnet.synsets, set(free_h), set(free_r)
            hyp_sets = [synsets(word) if i in free_hyp else frozenset() for i, word in enumerate(hypothesis)]
            ref_sets = [synsets(word) if j in free_ref else frozenset() for j, word in enumerate(reference)]
            new, stopped = _stage(fixed, free_h, free_r, None, None, hyp_sets, ref_sets, limit)
        else:
            raise UsageError(f"METEOR: no module {module!r} (the modules: {', '.join(MODULES)})")
        for i, j in new:
            links[i] = j
            module_of[i] = module
        cut += stopped
    ordered = tuple(sorted(links.items()))
    return Alignment(
        ordered,
        tuple(module_of[i] for i, _ in ordered),
        crossings_of(ordered),
        chunks_of(ordered),
        cut,
    )


# --- the metric ---------------------------------------------------------------------------------


def _exact_score(matches: int, chunks: int, hyp: int, ref: int) -> Fraction:
    """METEOR as a fraction: Fmean = 10m / (h + 9r), times 1 - c^3 / (2 m^3)."""
    if matches == 0:
        return Fraction(0)
    return Fraction(5 * (2 * matches**3 - chunks**3), (hyp + 9 * ref) * matches**2)


def _modules(text: str) -> tuple[str, ...]:
    names = [name for name in text.replace("+", ",").replace(" ", ",").split(",") if name]
    unknown = [name for name in names if name not in MODULES]
    if unknown or not names or len(set(names)) != len(names):
        raise UsageError(
            f"METEOR: option modules must name each once some of {', '.join(MODULES)} "
            f"(separated by ',' or '+'), got {text!r}"
        )
    return tuple(names)


@dataclass(frozen=True)
class Meteor(OtherMetric):
    """METEOR (Banerjee and Lavie, 2005); see the module's text. ``modules``: the stages, in
    order, of ``exact``, ``stem``, ``synonym`` (``,`` or ``+`` between them: ``--metrics``
    splits its list at commas, so ``meteor:modules=exact+stem`` there); ``wordnet``: a WordNet
    database directory (``/usr/share/wordnet``), without which ``synonym`` is dropped."""

    modules: str = "exact,stem,synonym"
    wordnet: Optional[str] = None

    name = "METEOR"

    def __post_init__(self) -> None:
        checked(self.modules, str, "modules", self.name)
        _modules(self.modules)
        if self.wordnet is not None:
            from .wordnet import missing_files

            checked(self.wordnet, str, "wordnet", self.name)
            missing = missing_files(self.wordnet)
            if missing:
                raise UsageError(
                    f"METEOR: the WordNet directory {self.wordnet} has no {', '.join(missing)} "
                    "(a WordNet database: Debian's wordnet-base puts one in /usr/share/wordnet)"
                )

    def stages(self) -> tuple[str, ...]:
        """The modules that run, in order: ``synonym`` only with a WordNet directory."""
        return tuple(m for m in _modules(self.modules) if m != "synonym" or self.wordnet is not None)

    def _wordnet(self) -> Optional[Synsets]:
        if self.wordnet is None or "synonym" not in self.stages():
            return None
        from .wordnet import read_wordnet

        return read_wordnet(self.wordnet)

    def row(self, hypothesis: str, references: Sequence[str]) -> list[float]:
        """The counts (:data:`COLUMNS`) of a hypothesis text against its references' texts."""
        stages, wordnet = self.stages(), self._wordnet()
        hyp = meteor_words(hypothesis)
        best: Optional[tuple[Fraction, list[float]]] = None
        for text in references:
            ref = meteor_words(text)
            found = align(hyp, ref, stages, wordnet)
            row = [
                found.matches,
                found.chunks,
                len(hyp),
                len(ref),
                *(found.by_module(m) for m in MODULES),
                found.cut,
            ]
            value = _exact_score(found.matches, found.chunks, len(hyp), len(ref))
            if best is None or value >= best[0]:
                best = (value, [float(x) for x in row])
        if best is None:
            raise UsageError(f"{self.name}: no reference to score against")
        return best[1]

    def counts(self, items: Sequence[Item]) -> np.ndarray:
        empty = [item.eval_id for item in items if not item.references]
        if empty:
            raise UsageError(f"{self.name}: no reference for {', '.join(empty)}: METEOR needs one")
        rows = [self.row(" ".join(item.peer), [" ".join(r) for r in item.references]) for item in items]
        return np.array(rows, dtype=np.float64).reshape(len(items), len(COLUMNS))

    def score(self, counts: np.ndarray) -> float:
        matches, chunks, hyp, ref = (float(x) for x in counts[:4])
        if matches == 0:
            return 0.0
        precision, recall = matches / hyp, matches / ref
        fmean = 10 * precision * recall / (recall + 9 * precision)
        penalty = 0.5 * (chunks / matches) ** 3
        return fmean * (1 - penalty)

    def signature(self) -> str:
        wordnet = self.wordnet if self.wordnet is not None and "synonym" in self.stages() else "none"
        return (
            f"{self.name}|modules:{','.join(self.stages())}|wordnet:{wordnet}|stem:porter-1980"
            f"|tok:split+lower|search:{SEARCH_STEPS}|spec:banerjee-lavie-2005"
        )
