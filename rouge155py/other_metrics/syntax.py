"""HWCM and STM, the syntactic metrics of Liu and Gildea (2005), "Syntactic features for
evaluation of machine translation" (ACL 2005 workshop on MT and summarization evaluation), over
parses the user gives: none is computed here.

Both are precisions over parts of trees, averaged over the parts' sizes ``k = 1 .. D``: for
each ``k``, the hypothesis's parts of size ``k`` found in the references, each counted at most
as many times as it occurs in any one reference (clipped, as BLEU clips n-grams), over the
number of the hypothesis's parts of size ``k``.

- **HWCM** (headword chain metric), over dependency parses in CoNLL-U: a headword chain of
  length ``k`` is the sequence of words of a path of ``k`` nodes going down head → dependent
  links (a chain of length 1 is a word, so that HWCM with ``length=1`` is unigram precision).
- **STM** (subtree metric), over constituency trees in Penn's bracketed form: the subtree of
  depth ``k`` at a node is the node with all its descendants down to ``k`` levels (the node
  alone for ``k = 1``; for ``k = 2`` the node and its children, a grammar rule; for ``k = 3``
  also its children's children ...), where a path of ``k`` nodes goes down from the node; each
  node has at most one subtree of each depth. Subtrees are made of labels: the
  words are not nodes. This is the paper's worked example (its Figure 1): of the hypothesis's
  depth-1 subtrees it counts ``S, NP, VP, PRON, V, NP`` (and a second ``PRON``), of its depth-2
  subtrees ``S → NP VP``, ``NP → PRON`` (twice) and ``VP → V NP``, and two of depth 3, for an
  STM of ``(6/7 + 3/4 + 1/2) / 3 = 0.702`` (the tests reproduce it).
- ``case=False`` lowercases the words (HWCM) or the labels (STM) first.

A size ``k`` of which the hypothesis has no part (a tree with no path of ``k`` nodes, as a
short or flat one) has no precision: it is left out of the average, the paper's average being
over the precisions that exist; the score of a hypothesis whose parses are its reference's is
then 1 whatever the shape of its trees (counting 0 instead would score a flat tree identical
to its reference below 1). A hypothesis with no word or node scores 0.

An item's ``parses`` are the summary's parse file, then each reference's, read whole: every
sentence's parts count for the summary (the parts of a summary are the bag of its sentences').
With the option ``parses`` (``--parses DIR``) an entry ``NAME`` is the file ``DIR/NAME.conllu``
(HWCM) or ``DIR/NAME.tree`` (STM); an entry that already ends with that suffix is the file's
path as it is. A row holds the clipped matches of each size, then the hypothesis's parts of
each size: the item's score is its row's, the corpus's that of the summed rows (the average
over ``k`` of summed matches over summed parts).

Files:

- **CoNLL-U**: a sentence is a block of lines ended by a blank line; ``#`` lines are comments;
  a word's line has at least 7 tab-separated fields (ID, FORM, ..., HEAD as the 7th: CoNLL-X's
  layout too), its ID the next number of the sentence from 1, its HEAD 0 (a root) or the ID of
  a word of the sentence. Lines of multiword tokens (``3-4``) and empty nodes (``5.1``) are
  left out (they are not nodes of the basic tree). Several roots are taken (parsers may give
  them); a word that is its own head, or a cycle of heads, is refused.
- **Bracketed trees**: ``(LABEL child ...)``, one tree after another, on one line or several
  (a tree a line, or a tree a block of lines: line breaks and blank lines do not matter). An
  atom after ``(`` is the node's label, any other atom is a word. The treebank's unlabelled
  outer bracket around a single tree, ``( (S ...) )``, is notation, not a node; any other
  bracket without a label is refused. Labels are taken as written (function tags too).

Malformed input is an :class:`~rouge155py.errors.InputError` naming the file and the line; a
file is refused above a summary file's size limit (:data:`~rouge155py.inputs.files.MAX_FILE_BYTES`).
Nothing here recurses: a tree nested 100,000 levels deep (the tests') is read as any other.
"""

from __future__ import annotations

import abc
import math
import os
import re
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, ClassVar, Sequence

import numpy as np

from ..errors import InputError, UsageError
from ..inputs.files import read_file
from .base import PLACE, Item, OtherMetric, checked

__all__ = ["MAX_SIZE", "Hwcm", "Stm", "read_conllu", "read_trees"]

#: The largest chain length or subtree depth ``D``: a row holds 2 D numbers, and a node of a
#: tree takes part in up to D parts.
MAX_SIZE = 100

_ID = re.compile(r"[1-9][0-9]{0,8}")
_HEAD = re.compile(r"0|[1-9][0-9]{0,8}")
_NOT_A_WORD = re.compile(r"[0-9]+-[0-9]+|[0-9]+\.[0-9]+")
_BRACKET_TOKEN = re.compile(r"\(|\)|[^\s()]+")

# A file's parts: for each size k = 1 .. D, how often each part (its number in the metric's
# table of parts, which one call of counts shares among all its files) occurs.
_Parts = list[Counter[int]]


def _lines(data: bytes) -> list[str]:
    """A file's lines, decoded from UTF-8 (a byte that is not is replaced, as the run's texts are;
    a byte order mark at the start is dropped)."""
    text = data.decode("utf-8-sig", "replace")
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def _dependency_sentence(name: str, words: list[str], heads: list[int], lines: list[int]) -> list[int]:
    """A sentence's parents (-1 for a root) from its HEAD column, its cycles refused."""
    parents = []
    for word, (head, line) in enumerate(zip(heads, lines)):
        if head > len(heads):
            raise InputError(f"{name}, line {line}: HEAD {head}: the sentence's words are 1 to {len(heads)}")
        if head == word + 1:
            raise InputError(f"{name}, line {line}: the word is its own head")
        parents.append(head - 1)
    done = [False] * len(parents)
    for start in range(len(parents)):
        path: list[int] = []
        on_path: set[int] = set()
        node = start
        while node >= 0 and not done[node]:
            if node in on_path:
                raise InputError(f"{name}, line {lines[node]}: a cycle of heads goes through this word")
            on_path.add(node)
            path.append(node)
            node = parents[node]
        for node in path:
            done[node] = True
    return parents


def read_conllu(data: bytes, name: str) -> list[tuple[list[str], list[int]]]:
    """The sentences of a CoNLL-U file: each sentence's words (FORM) and parents (-1: a root)."""
    sentences: list[tuple[list[str], list[int]]] = []
    words: list[str] = []
    heads: list[int] = []
    lines: list[int] = []
    for number, line in enumerate(_lines(data), 1):
        if not line.strip():
            if words:
                sentences.append((words, _dependency_sentence(name, words, heads, lines)))
                words, heads, lines = [], [], []
            continue
        if line.startswith("#"):
            continue
        columns = line.split("\t")
        if len(columns) < 7:
            raise InputError(
                f"{name}, line {number}: {len(columns)} tab-separated fields: a CoNLL-U word has 10, "
                "HEAD the 7th"
            )
        ident, head = columns[0], columns[6]
        if _NOT_A_WORD.fullmatch(ident):
            continue
        if not _ID.fullmatch(ident) or int(ident) != len(words) + 1:
            raise InputError(
                f"{name}, line {number}: ID {ident!r} where the sentence's word {len(words) + 1} is due"
            )
        if not _HEAD.fullmatch(head):
            raise InputError(
                f"{name}, line {number}: HEAD {head!r} is not a word's ID or 0 (is the word parsed?)"
            )
        words.append(columns[1])
        heads.append(int(head))
        lines.append(number)
    if words:
        sentences.append((words, _dependency_sentence(name, words, heads, lines)))
    return sentences


def read_trees(data: bytes, name: str) -> list[tuple[list[str], list[int]]]:
    """The trees of a file of bracketed trees: each tree's labels in pre-order (a node before
    its descendants) and their parents (-1: the root)."""
    trees: list[tuple[list[str], list[int]]] = []
    labels: list[str] = []
    parents: list[int] = []
    opened: list[int] = []  # each node's line
    worded: set[int] = set()  # the nodes with a word
    open_nodes: list[int] = []
    labelling = False  # the last token was "("
    for number, line in enumerate(_lines(data), 1):
        for token in _BRACKET_TOKEN.findall(line):
            if token == "(":
                open_nodes.append(len(labels))
                parents.append(open_nodes[-2] if len(open_nodes) > 1 else -1)
                labels.append("")
                opened.append(number)
                labelling = True
            elif token == ")":
                if not open_nodes:
                    raise InputError(f"{name}, line {number}: a ')' that closes no '('")
                open_nodes.pop()
                labelling = False
                if not open_nodes:
                    trees.append(_tree(name, labels, parents, opened, 0 in worded))
                    labels, parents, opened, worded = [], [], [], set()
            elif labelling:
                labels[open_nodes[-1]] = token
                labelling = False
            elif open_nodes:
                worded.add(open_nodes[-1])
            else:
                raise InputError(f"{name}, line {number}: {token!r} is outside any tree's brackets")
    if open_nodes:
        raise InputError(
            f"{name}, line {opened[0]}: the tree begun here is never closed ({len(open_nodes)} '(' open)"
        )
    return trees


def _tree(
    name: str, labels: list[str], parents: list[int], opened: list[int], root_worded: bool
) -> tuple[list[str], list[int]]:
    """A tree as read, its unlabelled outer bracket around a single tree dropped."""
    if not labels[0] and not root_worded and parents.count(0) == 1 and len(labels) > 1:
        labels, parents, opened = labels[1:], [parent - 1 for parent in parents[1:]], opened[1:]
    if "" in labels:
        raise InputError(f"{name}, line {opened[labels.index('')]}: a bracket without a label")
    return labels, parents


def _chains(sentences: list[tuple[list[str], list[int]]], length: int, table: dict[Any, int]) -> _Parts:
    """The headword chains of lengths 1 to ``length``: the chain of length k ending at a word is
    the chain of length k - 1 ending at its head, and the word (each numbered by ``table``)."""
    parts: _Parts = [Counter() for _ in range(length)]
    for words, parents in sentences:
        dependents: list[list[int]] = [[] for _ in words]
        for node, parent in enumerate(parents):
            if parent >= 0:
                dependents[parent].append(node)
        ending: list[list[int]] = [[] for _ in words]  # the chains ending at each word
        ready = deque(node for node, parent in enumerate(parents) if parent < 0)
        while ready:
            node = ready.popleft()
            word = words[node]
            own = [table.setdefault((-1, word), len(table))]
            parent = parents[node]
            if parent >= 0:
                own.extend(
                    table.setdefault((prefix, word), len(table)) for prefix in ending[parent][: length - 1]
                )
            ending[node] = own
            for size, part in enumerate(own):
                parts[size][part] += 1
            ready.extend(dependents[node])
    return parts


def _subtrees(trees: list[tuple[list[str], list[int]]], depth: int, table: dict[Any, int]) -> _Parts:
    """The subtrees of depths 1 to ``depth``: the subtree of depth k at a node is its label and
    the subtrees of depth k - 1 of its children (a child of a smaller height: its whole
    subtree), each numbered by ``table``."""
    parts: _Parts = [Counter() for _ in range(depth)]
    for labels, parents in trees:
        children: list[list[int]] = [[] for _ in labels]
        for node, parent in enumerate(parents):
            if parent >= 0:
                children[parent].append(node)
        heights = [0] * len(labels)
        rooted: list[list[int]] = [[] for _ in labels]  # the subtrees at each node
        for node in reversed(range(len(labels))):  # pre-order reversed: children first
            label, below = labels[node], children[node]
            heights[node] = height = 1 + max((heights[child] for child in below), default=0)
            own = [table.setdefault((label, ()), len(table))]
            for size in range(2, min(depth, height) + 1):
                key = (label, tuple(rooted[child][min(size - 1, heights[child]) - 1] for child in below))
                own.append(table.setdefault(key, len(table)))
            rooted[node] = own
            for size, part in enumerate(own):
                parts[size][part] += 1
    return parts


class _Precisions(OtherMetric):
    """HWCM's and STM's counts and score (not a dataclass: each subclass's fields are its
    options, D's first); a subclass reads its files' parts."""

    #: The option that is D, the largest part size.
    option: ClassVar[str]
    #: The suffix of the parse files of an entry given as a name.
    suffix: ClassVar[str]
    case: bool
    parses: str

    def __post_init__(self) -> None:
        checked(self.size, int, self.option, self.name)
        checked(self.case, bool, "case", self.name)
        checked(self.parses, str, "parses", self.name)
        if not 1 <= self.size <= MAX_SIZE:
            raise UsageError(
                f"{self.name}: option {self.option} must be from 1 to {MAX_SIZE}, got {self.size}"
            )

    @property
    def size(self) -> int:
        """D: the largest part size."""
        found: int = getattr(self, self.option)
        return found

    @abc.abstractmethod
    def parts(self, data: bytes, name: str, table: dict[Any, int]) -> _Parts:
        """A parse file's parts of sizes 1 to D."""

    def path(self, entry: str) -> str:
        """The parse file of an item's ``parses`` entry."""
        found = os.path.join(self.parses, entry)
        return found if found.endswith(self.suffix) else found + self.suffix

    def counts(self, items: Sequence[Item]) -> np.ndarray:
        size = self.size
        table: dict[Any, int] = {}
        read: dict[str, _Parts] = {}  # a reference's file is read once, whatever the peers

        def parts_of(entry: str, item: Item) -> _Parts:
            path = self.path(entry)
            if path not in read:
                data = read_file(
                    path,
                    InputError,
                    f"{self.name}: cannot open the parses {path} (eval {item.eval_id})",
                    f"{self.name}: cannot read the parses {path}",
                )
                read[path] = self.parts(data, path, table)
            return read[path]

        rows = np.zeros((len(items), 2 * size), dtype=np.float64)
        for row, item in zip(rows, items):
            if len(item.parses) < 2:
                raise UsageError(
                    f"{self.name}: eval {item.eval_id} needs the parses of its summary and of at least one "
                    f"reference (--parses DIR): it has {len(item.parses)}"
                )
            if item.references and len(item.parses) != 1 + len(item.references):
                raise UsageError(
                    f"{self.name}: eval {item.eval_id} has {len(item.references)} references and "
                    f"{len(item.parses)} parse files: the summary's first, then one for each reference"
                )
            hypothesis = parts_of(item.parses[0], item)
            references = [parts_of(entry, item) for entry in item.parses[1:]]
            for k in range(size):
                row[k] = sum(
                    min(count, max(reference[k][part] for reference in references))
                    for part, count in hypothesis[k].items()
                )
                row[size + k] = sum(hypothesis[k].values())
        return rows

    def score(self, counts: np.ndarray) -> float:
        size = self.size
        precisions = [float(counts[k]) / float(counts[size + k]) for k in range(size) if counts[size + k] > 0]
        return math.fsum(precisions) / len(precisions) if precisions else 0.0


def _folded(units: list[tuple[list[str], list[int]]], case: bool) -> list[tuple[list[str], list[int]]]:
    """Sentences or trees with their words or labels lowercased, unless ``case``."""
    return units if case else [([text.lower() for text in texts], parents) for texts, parents in units]


@dataclass(frozen=True)
class Hwcm(_Precisions):
    """The headword chain metric: chains of lengths 1 to ``length``, over CoNLL-U parses."""

    length: int = 4
    case: bool = False
    parses: str = field(default="", metadata=PLACE)

    name = "HWCM"
    option = "length"
    suffix = ".conllu"

    def parts(self, data: bytes, name: str, table: dict[Any, int]) -> _Parts:
        return _chains(_folded(read_conllu(data, name), self.case), self.length, table)


@dataclass(frozen=True)
class Stm(_Precisions):
    """The subtree metric: subtrees of depths 1 to ``depth``, over bracketed trees."""

    depth: int = 3
    case: bool = False
    parses: str = field(default="", metadata=PLACE)

    name = "STM"
    option = "depth"
    suffix = ".tree"

    def parts(self, data: bytes, name: str, table: dict[Any, int]) -> _Parts:
        return _subtrees(_folded(read_trees(data, name), self.case), self.depth, table)
