"""NIST (Doddington, 2002) as NIST's own ``mteval-v13a.pl`` computes it.

The specification is ``scripts/generic/mteval-v13a.pl`` of github.com/moses-smt/mosesdecoder
(commit 34452895f350bf097b21ee514a529a1dc542243c), read from SGML files; its behaviour is ported
here, not its code. Each :class:`~rouge155py.other_metrics.base.Item` is one mteval segment.

- **Text.** A segment's whitespace runs become one space (Perl's Unicode ``\\s``, as mteval
  joins a document's records), then its tokenization: ``<skipped>`` dropped, the entities
  ``&quot; &amp; &lt; &gt;`` decoded, ASCII letters lowercased unless ``case`` (``-c``),
  ASCII punctuation split off (not ``' , - .``), ``.`` and ``,`` split unless a digit precedes
  or follows, ``-`` after a digit split. With ``international``
  (``--international-tokenization``): also ``&apos;``, Perl's ``lc`` (every letter, no final
  sigma), Unicode punctuation split unless between digits, symbols split.
- **Information weights**, from the n-gram counts of every reference of every item (mteval's
  reference set): ``info(w1..wn) = -log2(count(w1..wn) / count(w1..wn-1))``, and over the
  number of reference words for a unigram, or for a bigram whose first word is ``0``
  (mteval's prefix ``"0"`` is false in Perl).
- **A segment** gains, for each n-gram of the hypothesis found in a reference, its weight times
  its count clipped to its largest count in one reference. These are added exactly
  (``math.fsum``): mteval adds them in its hash's order, so that the 15th significant digit it
  prints (``--metricsMATR``) can change from one of its runs to the next.
- **The score** is ``sum over n of (gained info of order n) / max(n-grams of order n, 1)``,
  times ``exp(-beta * log(ratio)^2)`` where ``ratio`` < 1, ``ratio`` = hypothesis words /
  average reference words and ``beta`` puts 0.5 at ratio 2/3. Segment, document and system
  scores are this one function of summed counts, as mteval makes them.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache, reduce
from typing import Sequence

import numpy as np

from ..errors import UsageError
from .base import Item, OtherMetric, checked

__all__ = ["Nist", "mteval_words"]

# Perl's \s on a character string (mteval reads its files as UTF-8): Unicode White_Space, which
# is Python's str.isspace() without \x1c-\x1f.
_PERL_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_SPACES = re.compile(f"[{_PERL_SPACE}]+")
# mteval's [\{-\~\[-\` -\&\(-\+\:-\@\/]: ASCII punctuation but ' , - . (and the space).
_PUNCTUATION = re.compile("([" + re.escape('{|}~[\\]^_` !"#$%&()*+:;<=>?@/') + "])")
_BEFORE_STOP = re.compile("([^0-9])([.,])")
_AFTER_STOP = re.compile("([.,])([^0-9])")
_DIGIT_DASH = re.compile("([0-9])(-)")
_UPPER_ASCII = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))

# nist_length_penalty: a score of 0.5 at a length ratio of 1.5 (of 2/3, squared logs).
_BETA = -math.log(0.5) / math.log(1.5) / math.log(1.5)


@cache
def _international() -> tuple[re.Pattern[str], ...]:
    """tokenization_international's patterns, from Unicode's general categories (Perl's
    \\p{P}, \\p{N}, \\p{S}, \\p{Z}), built once: punctuation not after a number, punctuation
    not before one, a symbol, a run of separators."""
    ranges: dict[str, list[list[int]]] = {"P": [], "N": [], "S": [], "Z": []}
    for point in range(0x110000):
        found = ranges.get(unicodedata.category(chr(point))[0])
        if found is None:
            continue
        if found and found[-1][1] == point - 1:
            found[-1][1] = point
        else:
            found.append([point, point])
    kind = {k: "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in v) for k, v in ranges.items()}
    return (
        re.compile(f"([^{kind['N']}])([{kind['P']}])"),
        re.compile(f"([{kind['P']}])([^{kind['N']}])"),
        re.compile(f"([{kind['S']}])"),
        re.compile(f"[{kind['Z']}]+"),
    )


def _tokenized(text: str, case: bool) -> str:
    """mteval's ``tokenization`` (the default)."""
    text = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    for entity, character in _ENTITIES:
        text = text.replace(entity, character)
    if not case:
        text = text.translate(_UPPER_ASCII)
    text = _PUNCTUATION.sub(r" \1 ", f" {text} ")
    text = _BEFORE_STOP.sub(r"\1 \2 ", text)
    text = _AFTER_STOP.sub(r" \1 \2", text)
    text = _DIGIT_DASH.sub(r"\1 \2 ", text)
    return _SPACES.sub(" ", text).strip(" ")


def _tokenized_international(text: str, case: bool) -> str:
    """mteval's ``tokenization_international`` (without ``-e``)."""
    text = text.replace("<skipped>", "").replace("-\u2028", "").replace("\u2028", " ")
    for entity, character in (*_ENTITIES, ("&apos;", "'")):
        text = text.replace(entity, character)
    if not case:
        # Perl's lc maps each character alone: no final sigma, unlike str.lower().
        text = "".join(character.lower() for character in text)
    before, after, symbol, separators = _international()
    text = after.sub(r" \1 \2", before.sub(r"\1 \2 ", text))
    text = symbol.sub(r" \1 ", text)
    return separators.sub(" ", text).strip(" ")


def mteval_words(text: str, case: bool = False, international: bool = False) -> list[str]:
    """The words mteval-v13a.pl scores for ``text`` written as one segment of an SGML file:
    whitespace runs joined into one space first (as it joins a document's records, so that
    its end-of-line dehyphenation never applies), then its tokenization, then split."""
    text = _SPACES.sub(" ", text)
    text = _tokenized_international(text, case) if international else _tokenized(text, case)
    return text.split(" ") if text else []


def _ngrams(words: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    """Each n-gram of ``words`` of orders 1 to ``n``, with its count."""
    found: Counter[tuple[str, ...]] = Counter()
    for start in range(len(words)):
        for stop in range(start + 1, min(start + n, len(words)) + 1):
            found[tuple(words[start:stop])] += 1
    return found


def _length_penalty(ratio: float) -> float:
    """nist_length_penalty: 1 from a ratio of 1 on, 0 at 0, else exp(-beta * log(ratio)^2)."""
    if ratio >= 1:
        return 1.0
    if ratio <= 0:
        return 0.0
    return math.exp(-_BETA * math.log(ratio) * math.log(ratio))


@dataclass(frozen=True)
class Nist(OtherMetric):
    """NIST as mteval-v13a.pl prints it (``NIST score = ...``, and its segment and document
    scores with ``-d 2`` or ``--metricsMATR``): ``n``, the largest n-gram order (mteval's
    printed score is its cumulative 5-gram score; its tables give orders 1 to 9); ``case``,
    mteval's ``-c`` (case-sensitive); ``international``, its ``--international-tokenization``.

    An item is one mteval segment: the hypothesis is the summary's sentences joined by one
    space, and each reference the reference's sentences joined likewise. :meth:`counts` sees
    one system's items: the information weights come from the references of them all.

    A row holds, for orders 1 to ``n``, the information gained and the number of hypothesis
    n-grams; then the reference words, the number of references and the number of segments.
    To keep mteval's ``hypothesis words / (reference words / number of references)`` exact
    where every item has ``k`` references, the reference words are scaled to the least common
    multiple ``L`` of the items' numbers of references (``L / k`` per reference word) and the
    number of references column holds ``L``: the sum over items of each segment's average
    reference length is then ``reference words / (L-column / segments)``, in mteval's very
    division where ``L = k``. A segment whose references have no word scores 0 (mteval dies
    dividing by zero).
    """

    n: int = 5
    case: bool = False
    international: bool = False

    name = "NIST"

    def __post_init__(self) -> None:
        checked(self.n, int, "n", self.name)
        checked(self.case, bool, "case", self.name)
        checked(self.international, bool, "international", self.name)
        if self.n < 1:
            raise UsageError(f"{self.name}: option n must be at least 1, got {self.n}")

    def words(self, text: str) -> list[str]:
        """The words of a segment's text, by this metric's tokenization."""
        return mteval_words(text, self.case, self.international)

    def counts(self, items: Sequence[Item]) -> np.ndarray:
        n = self.n
        empty = [item.eval_id for item in items if not item.references]
        if empty:
            raise UsageError(f"{self.name}: no reference for {', '.join(empty)}: NIST needs one")
        hypotheses = [self.words(" ".join(item.peer)) for item in items]
        references = [[self.words(" ".join(r)) for r in item.references] for item in items]
        grams = [[_ngrams(ref, n) for ref in refs] for refs in references]
        # compute_ngram_info: the counts of every reference n-gram, and the reference words.
        reference_counts: Counter[tuple[str, ...]] = Counter()
        for found in grams:
            for counted in found:
                reference_counts.update(counted)
        reference_words = sum(len(ref) for refs in references for ref in refs)
        weights: dict[tuple[str, ...], float] = {}
        lcm = reduce(math.lcm, (len(refs) for refs in references), 1)
        rows = np.zeros((len(items), 2 * n + 3), dtype=np.float64)
        for row, hypothesis, refs, found in zip(rows, hypotheses, references, grams):
            clipped: dict[tuple[str, ...], int] = {}
            for counted in found:
                for gram, count in counted.items():
                    clipped[gram] = max(clipped.get(gram, 0), count)
            gained: list[list[float]] = [[] for _ in range(n)]
            for gram, count in _ngrams(hypothesis, n).items():
                most = clipped.get(gram)
                if most is None:
                    continue
                weight = weights.get(gram)
                if weight is None:
                    prefix = gram[:-1]
                    known = reference_counts[prefix] if prefix and prefix != ("0",) else reference_words
                    weight = weights[gram] = -math.log(reference_counts[gram] / known) / math.log(2)
                gained[len(gram) - 1].append(weight * min(count, most))
            row[:n] = [math.fsum(terms) for terms in gained]
            row[n : 2 * n] = [max(len(hypothesis) - order + 1, 0) for order in range(1, n + 1)]
            row[2 * n :] = (sum(map(len, refs)) * (lcm // len(refs)), lcm, 1)
        return rows

    def score(self, counts: np.ndarray) -> float:
        n = self.n
        values = [float(value) for value in counts]
        gained, grams = values[:n], values[n : 2 * n]
        reference_words, references, segments = values[2 * n :]
        total = 0.0
        for order in range(n):
            total += gained[order] / max(grams[order], 1.0)
        ratio = grams[0] / (reference_words / (references / segments)) if reference_words else math.inf
        return total * _length_penalty(ratio)

    def signature(self) -> str:
        return f"{super().signature()}|spec:mteval-v13a"
