"""WER and PER with the choices of Leusch, Ueffing, Vilar and Ney (2005), "Preprocessing and
normalization for automatic evaluation of machine translation" (ACL 2005 workshop on MT and
summarization evaluation).

- **Words.** An item's text is its sentences joined, one sequence of words (a summary's
  sentences do not pair with a reference's). ``case=False`` lowercases it first (``str.lower``:
  the paper finds that ignoring case helps at the sentence level); ``tokenize="punctuation"``
  splits each punctuation or symbol character (Unicode categories P and S) off the words, but
  for a ``.`` or ``,`` between two digits (``3.5``, ``1,000``), as mteval does: the paper finds
  that tokenizing helps; ``"whitespace"`` splits on whitespace alone (jiwer's words).
- **WER** counts the word-level Levenshtein distance: substitutions, insertions and deletions,
  each costing 1.
- **PER**, the position-independent error rate (Tillmann et al., 1997, as Leusch et al. use it),
  compares bags of words: with ``matched`` the size of the multiset intersection of the
  hypothesis's words and the reference's, its errors are ``max(|hyp|, |ref|) - matched``. This
  is the paper's ``1/2 (|N_ref - N_hyp| + sum over words e of |n_ref(e) - n_hyp(e)|)``, as
  ``sum |n_ref(e) - n_hyp(e)| = |ref| + |hyp| - 2 matched``: ``min(|hyp|, |ref|) - matched``
  substitutions and ``| |hyp| - |ref| |`` insertions or deletions, and the Levenshtein distance
  of the hypothesis's best word order (the tests check both readings by brute force).
- **Several references.** The errors are those of the closest reference (the fewest errors),
  divided by a reference length, the option ``length``: ``"average"`` (the default: the mean
  length of the references, the paper's choice; it does not depend on the hypothesis, so that a
  hypothesis cannot lower its rate by lying closest to the longest reference), ``"best"`` (the
  length of the closest reference; of several as close, the longest, so that the rate does not
  depend on the order of the references), ``"shortest"`` or ``"longest"``. With one reference
  they are one and the same.

A row is ``(errors, reference length)``: an item's rate is its row's quotient, and the corpus
rate the quotient of the summed rows (total errors / total reference length), as WER is
aggregated over a corpus (jiwer's on lists). A reference length of 0 (empty references) gives a
rate of 1 where there are errors, else 0, as sacrebleu's TER does.
"""

from __future__ import annotations

import abc
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Hashable, Sequence

import numpy as np

from ..errors import UsageError
from .base import Item, OtherMetric, checked

__all__ = ["LENGTHS", "TOKENIZERS", "Per", "Wer", "levenshtein", "position_independent_errors", "words"]

#: The ``length`` option's values: which reference length divides the errors.
LENGTHS = ("average", "best", "shortest", "longest")
#: The ``tokenize`` option's values.
TOKENIZERS = ("punctuation", "whitespace")


def _split_punctuation(chunk: str) -> list[str]:
    """A whitespace-free chunk's words: each punctuation or symbol character alone, the runs of
    other characters between them; a ``.`` or ``,`` between two digits stays in its run."""
    found: list[str] = []
    start = 0
    for at, character in enumerate(chunk):
        if unicodedata.category(character)[0] not in "PS":
            continue
        if (
            character in ".,"
            and 0 < at < len(chunk) - 1
            and chunk[at - 1].isdigit()
            and chunk[at + 1].isdigit()
        ):
            continue
        if start < at:
            found.append(chunk[start:at])
        found.append(character)
        start = at + 1
    if start < len(chunk):
        found.append(chunk[start:])
    return found


def words(text: str, case: bool = False, tokenize: str = "punctuation") -> list[str]:
    """The words WER and PER compare in ``text`` (see the module's docstring)."""
    if not case:
        text = text.lower()
    if tokenize == "whitespace":
        return text.split()
    return [word for chunk in text.split() for word in _split_punctuation(chunk)]


def levenshtein(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """The Levenshtein distance of two sequences (substitution, insertion, deletion: 1 each),
    by Myers's bit-vector algorithm in Hyyrö's form for the global distance (Hyyrö, 2001,
    "Explaining and extending the bit-parallel approximate string matching algorithm of
    Myers"): one column of the table's vertical differences is two integers, bit i for ``a``'s
    i-th element, and each element of ``b`` advances it in a few integer operations."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    positions: dict[Hashable, int] = {}
    for at, element in enumerate(a):
        positions[element] = positions.get(element, 0) | 1 << at
    full = (1 << len(a)) - 1
    last = 1 << (len(a) - 1)
    up, down, distance = full, 0, len(a)  # the first column: +1 at every row
    for element in b:
        equal = positions.get(element, 0)
        diagonal = (((equal & up) + up) ^ up) | equal | down
        right = down | ~(diagonal | up)
        left = up & diagonal
        if right & last:
            distance += 1
        elif left & last:
            distance -= 1
        # The first row grows by 1 a column (the distance to b's prefix): a +1 shifts in.
        right = (right << 1) | 1
        left <<= 1
        up = (left | ~(diagonal | right)) & full
        down = right & diagonal & full
    return distance


def position_independent_errors(hypothesis: Sequence[Hashable], reference: Sequence[Hashable]) -> int:
    """PER's errors: ``max(|hyp|, |ref|)`` less the size of the bags' intersection."""
    matched = sum((Counter(hypothesis) & Counter(reference)).values())
    return max(len(hypothesis), len(reference)) - matched


@dataclass(frozen=True)
class _ErrorRate(OtherMetric):
    """WER's and PER's options and counts; a subclass says how two word sequences differ."""

    length: str = "average"
    case: bool = False
    tokenize: str = "punctuation"

    higher_is_better = False

    def __post_init__(self) -> None:
        checked(self.length, str, "length", self.name)
        checked(self.case, bool, "case", self.name)
        checked(self.tokenize, str, "tokenize", self.name)
        if self.length not in LENGTHS:
            raise UsageError(
                f"{self.name}: option length must be one of {', '.join(LENGTHS)}, got {self.length!r}"
            )
        if self.tokenize not in TOKENIZERS:
            raise UsageError(
                f"{self.name}: option tokenize must be one of {', '.join(TOKENIZERS)}, got {self.tokenize!r}"
            )

    @staticmethod
    @abc.abstractmethod
    def errors(hypothesis: Sequence[str], reference: Sequence[str]) -> int:
        """The errors of ``hypothesis`` against one reference."""

    def words(self, sentences: Sequence[str]) -> list[str]:
        """The words of a text given as sentences, by this metric's options."""
        return words(" ".join(sentences), self.case, self.tokenize)

    def counts(self, items: Sequence[Item]) -> np.ndarray:
        empty = [item.eval_id for item in items if not item.references]
        if empty:
            raise UsageError(f"{self.name}: no reference for {', '.join(empty)}: {self.name} needs one")
        rows = np.zeros((len(items), 2), dtype=np.float64)
        for row, item in zip(rows, items):
            hypothesis = self.words(item.peer)
            references = [self.words(reference) for reference in item.references]
            found = [(self.errors(hypothesis, reference), len(reference)) for reference in references]
            # The closest reference; of several as close, the longest.
            fewest, best = min(found, key=lambda pair: (pair[0], -pair[1]))
            lengths = [size for _, size in found]
            row[0] = fewest
            if self.length == "best":
                row[1] = best
            elif self.length == "average":
                row[1] = sum(lengths) / len(lengths)
            else:
                row[1] = min(lengths) if self.length == "shortest" else max(lengths)
        return rows

    def score(self, counts: np.ndarray) -> float:
        errors, length = float(counts[0]), float(counts[1])
        if length > 0:
            return errors / length
        return 1.0 if errors > 0 else 0.0


@dataclass(frozen=True)
class Wer(_ErrorRate):
    """The word error rate: the Levenshtein distance in words over a reference length."""

    name = "WER"

    @staticmethod
    def errors(hypothesis: Sequence[str], reference: Sequence[str]) -> int:
        return levenshtein(reference, hypothesis)


@dataclass(frozen=True)
class Per(_ErrorRate):
    """The position-independent error rate: ``max(|hyp|, |ref|) - matched`` over a reference
    length, ``matched`` the size of the bags of words' intersection."""

    name = "PER"

    @staticmethod
    def errors(hypothesis: Sequence[str], reference: Sequence[str]) -> int:
        return position_independent_errors(hypothesis, reference)
