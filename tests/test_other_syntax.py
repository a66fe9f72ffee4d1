"""HWCM and STM (``rouge155py.other_metrics.syntax``), Liu and Gildea's (2005) syntactic metrics,
over parses given in files (``tests/fixtures/syntax/``).

Hand-worked examples with exact fractions (the trees drawn beside them), the paper's worked
example of STM, and a brute force: the chains and subtrees of random trees enumerated by their
naive recursive definitions, clipped and averaged by the paper's formula with fractions, against
the metrics' rows and scores on 200 items of random hypothesis and reference files.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from rouge155py.errors import InputError, LimitError, UsageError
from rouge155py.inputs.files import MAX_FILE_BYTES
from rouge155py.other_metrics.base import Item
from rouge155py.other_metrics.evals import metric_of
from rouge155py.other_metrics.syntax import MAX_SIZE, Hwcm, Stm

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "syntax"

# A sentence or tree: its words or labels, and each one's parent (-1: a root).
Parse = tuple[list[str], list[int]]


def _item(*parses: str) -> Item:
    return Item("e", (), (), tuple(parses))


def _conllu(sentences: Sequence[Parse]) -> str:
    """CoNLL-U of sentences given as (words, parents)."""
    blocks = []
    for words, parents in sentences:
        lines = [
            f"{n}\t{word}\t_\t_\t_\t_\t{parent + 1}\t_\t_\t_"
            for n, (word, parent) in enumerate(zip(words, parents), 1)
        ]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def _write(directory: Path, name: str, text: str) -> str:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _score(metric: Hwcm | Stm, *parses: str) -> float:
    return metric.score(metric.counts([_item(*parses)])[0])


# HWCM ------------------------------------------------------------------------------------------


def test_hwcm_by_hand_with_two_references() -> None:
    """summary.conllu          model1.conllu            model2.conllu
    "the cat sat on a mat"    "the cat sat on the mat"  "a cat sat"
         sat                       sat                      sat
        /   \\                     /   \\                     |
      cat    on                 cat    on                  cat
       |      |                  |      |                   |
      the    mat                the    mat                  a
              |                         |
              a                        the

    length 1: the cat sat on a mat, all found (a in model2): 6/6
    length 2: sat-cat cat-the sat-on on-mat found, mat-a not: 4/5
    length 3: sat-cat-the sat-on-mat found, on-mat-a not: 2/3
    length 4: sat-on-mat-a not found: 0/1
    HWCM = (1 + 4/5 + 2/3 + 0) / 4 = 37/60."""
    metric = Hwcm(parses=str(FIXTURES))
    rows = metric.counts([_item("summary", "model1", "model2")])
    assert rows.tolist() == [[6, 4, 2, 0, 6, 5, 3, 1]]
    assert metric.score(rows[0]) == pytest.approx(float(Fraction(37, 60)), rel=1e-15)
    assert _score(Hwcm(length=1, parses=str(FIXTURES)), "summary", "model1", "model2") == 1.0
    assert _score(Hwcm(length=2, parses=str(FIXTURES)), "summary", "model1", "model2") == float(
        Fraction(9, 10)
    )
    # model2 alone: the, on and mat are not in it, nor any chain of length 3 or 4.
    assert _score(Hwcm(parses=str(FIXTURES)), "summary", "model2") == pytest.approx(
        float((Fraction(3, 6) + Fraction(1, 5) + 0 + 0) / 4), rel=1e-15
    )


def test_hwcm_clips_and_skips_a_length_without_chains(tmp_path: Path) -> None:
    """hypothesis "the cat saw the dog"     reference "the dog saw a cat"
             saw                                saw
            /   \\                              /   \\
          cat    dog                         dog    cat
           |      |                           |      |
          the    the                         the     a

    length 1: the twice, in the reference once (clipped to 1); cat saw dog: 4/5
    length 2: saw-cat saw-dog dog-the found, cat-the not: 3/4
    length 3: saw-dog-the found, saw-cat-the not: 1/2
    length 4: the hypothesis has no chain: no precision, left out of the average:
    HWCM = (4/5 + 3/4 + 1/2) / 3 = 41/60 (counting it 0 would give 41/80, and an identical
    hypothesis and reference 3/4)."""
    hypothesis = _write(tmp_path, "h.conllu", _conllu([("the cat saw the dog".split(), [1, 2, -1, 4, 2])]))
    reference = _write(tmp_path, "r.conllu", _conllu([("the dog saw a cat".split(), [1, 2, -1, 4, 2])]))
    metric = Hwcm()
    rows = metric.counts([_item(hypothesis, reference), _item(hypothesis, hypothesis)])
    assert rows.tolist() == [[4, 3, 1, 0, 5, 4, 2, 0], [5, 4, 2, 0, 5, 4, 2, 0]]
    assert metric.score(rows[0]) == pytest.approx(float(Fraction(41, 60)), rel=1e-15)
    assert metric.score(rows[1]) == 1.0
    # The corpus of this item and the first test's: summed matches over summed chains per length.
    first = Hwcm(parses=str(FIXTURES)).counts([_item("summary", "model1", "model2")])[0]
    corpus = metric.score(first + rows[0])
    expected = (Fraction(10, 11) + Fraction(7, 9) + Fraction(3, 5) + Fraction(0, 1)) / 4
    assert corpus == pytest.approx(float(expected), rel=1e-15) and expected == Fraction(283, 495)


def test_hwcm_folds_case_unless_asked(tmp_path: Path) -> None:
    hypothesis = _write(tmp_path, "h.conllu", _conllu([(["The", "Cat"], [1, -1])]))
    reference = _write(tmp_path, "r.conllu", _conllu([(["the", "cat"], [1, -1])]))
    assert _score(Hwcm(), hypothesis, reference) == 1.0
    assert _score(Hwcm(case=True), hypothesis, reference) == 0.0


def test_conllu_comments_multiword_tokens_and_empty_nodes_are_not_words(tmp_path: Path) -> None:
    """ "don't go": the multiword token 1-2 (do + n't) and the empty node 3.1 are no nodes (and a
    byte order mark and CRLF line ends are no part of a line: "go"'s HEAD ends its line)."""
    text = (
        "# sent_id = 1\n# text = don't go\n1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "1\tdo\t_\t_\t_\t_\t3\t_\t_\t_\n2\tn't\t_\t_\t_\t_\t3\t_\t_\t_\n3\tgo\t_\t_\t_\t_\t0\n"
        "3.1\tgo\t_\t_\t_\t_\t_\t_\t3:conj\t_\n\n"
    )
    parsed = _write(tmp_path, "h.conllu", "\ufeff" + text.replace("\n", "\r\n"))  # Windows' way
    rows = Hwcm(length=3).counts([_item(parsed, parsed)])
    assert rows.tolist() == [[3, 2, 0, 3, 2, 0]]  # do n't go; go-do go-n't


# STM -------------------------------------------------------------------------------------------


def test_stm_reproduces_the_papers_worked_example() -> None:
    """Liu and Gildea's Figure 1 counts, with these trees (words are not nodes):

    summary.tree (hypothesis)          model1.tree (reference)
            S                                  S
          /   \\                              /   \\
        NP     VP                          NP     VP
        |     /  \\                         |     /  \\
      PRON   V    NP                      PRON  V    NP
       I    had    |                       I   had  /  \\
                 PRON                              ART   N
                  it                                a   dog

    depth 1: S NP VP PRON V NP PRON; PRON is once in the reference: 6/7
    depth 2: S → NP VP, NP → PRON (twice, once in the reference), VP → V NP: 3/4
    depth 3: S → (NP → PRON) (VP → V NP) found; VP → V (NP → PRON) not: 1/2
    STM = (6/7 + 3/4 + 1/2) / 3 = 59/84 = 0.702, as the paper gives.
    depth 4: S → (NP → PRON) (VP → V (NP → PRON)) not found: 0/1, STM(4) = 59/112."""
    metric = Stm(parses=str(FIXTURES))
    rows = metric.counts([_item("summary", "model1")])
    assert rows.tolist() == [[6, 3, 1, 7, 4, 2]]
    assert metric.score(rows[0]) == pytest.approx(float(Fraction(59, 84)), rel=1e-15)
    assert round(metric.score(rows[0]), 3) == 0.702
    deeper = Stm(depth=4, parses=str(FIXTURES))
    assert deeper.counts([_item("summary", "model1")]).tolist() == [[6, 3, 1, 0, 7, 4, 2, 1]]
    assert _score(deeper, "summary", "model1") == pytest.approx(float(Fraction(59, 112)), rel=1e-15)
    assert _score(Stm(depth=1, parses=str(FIXTURES)), "summary", "model1") == float(Fraction(6, 7))


def test_stm_clips_to_the_most_in_any_one_reference() -> None:
    """With model2.tree too:
            S
          /   \\
        NP     VP
        |     /  \\
      PRON   V    PP
            had  /  \\
                P    NP
                of   |
                    PRON
                     it
    depth 1: PRON twice in model2: 7/7; depth 2: NP → PRON twice in model2, VP → V NP in model1:
    4/4; depth 3: VP → V (NP → PRON) in neither: 1/2. STM = (1 + 1 + 1/2) / 3 = 5/6."""
    metric = Stm(parses=str(FIXTURES))
    rows = metric.counts([_item("summary", "model1", "model2")])
    assert rows.tolist() == [[7, 4, 1, 7, 4, 2]]
    assert metric.score(rows[0]) == pytest.approx(float(Fraction(5, 6)), rel=1e-15)


def test_stm_folds_the_case_of_labels_unless_asked(tmp_path: Path) -> None:
    hypothesis = _write(tmp_path, "h.tree", "(s (np I) (vp ran))")
    reference = _write(tmp_path, "r.tree", "(S (NP I) (VP ran))")
    assert _score(Stm(), hypothesis, reference) == 1.0
    assert _score(Stm(case=True), hypothesis, reference) == 0.0


def test_trees_may_share_a_line_or_span_several(tmp_path: Path) -> None:
    """One tree a line, a tree over several lines with blank lines between, two trees on one
    line: the same subtrees, S NP VP S VP V, S → NP VP, S → VP, VP → V, S → (VP → V)."""
    one_a_line = _write(tmp_path, "a.tree", "(S (NP a) (VP b))\n(S (VP (V c)))\n")
    spread = _write(tmp_path, "b.tree", "\n( (S\n  (NP a)\n\n  (VP b)) )\n\n(S (VP\n (V c)))\n")
    shared = _write(tmp_path, "c.tree", "(S (NP a) (VP b)) (S (VP (V c)))")
    metric = Stm()
    rows = metric.counts([_item(one_a_line, spread), _item(spread, shared), _item(shared, one_a_line)])
    assert rows.tolist() == [[6, 3, 1, 6, 3, 1]] * 3


# The parse files --------------------------------------------------------------------------------


def test_entries_are_names_in_the_parses_directory_or_paths(tmp_path: Path) -> None:
    """An entry is DIR/NAME.conllu or DIR/NAME.tree; one ending with the suffix is its path."""
    conllu = str(FIXTURES / "model1.conllu")
    assert Hwcm(parses=str(FIXTURES)).path("model1") == conllu
    assert Hwcm().path(conllu) == conllu
    assert Stm(parses="/d").path("D001.M.100.A.1") == "/d/D001.M.100.A.1.tree"
    assert _score(Hwcm(), str(FIXTURES / "summary"), conllu) == _score(
        Hwcm(parses=str(FIXTURES)), "summary", "model1"
    )
    made = metric_of("hwcm:length=2", parses=str(FIXTURES))
    assert made == Hwcm(length=2, parses=str(FIXTURES))
    assert made.signature() == "HWCM|length:2|case:no"  # where the parses are is no setting
    assert Stm(depth=2, case=True).signature() == "STM|depth:2|case:yes"


def test_items_need_their_parses(tmp_path: Path) -> None:
    with pytest.raises(
        UsageError,
        match=r"HWCM: eval e needs the parses of its summary and of at least one reference \(--parses "
        r"DIR\): it has 1$",
    ):
        Hwcm().counts([_item("h")])
    with pytest.raises(UsageError, match="STM: eval x has 2 references and 2 parse files"):
        Stm().counts([Item("x", ("a",), (("b",), ("c",)), ("h", "r"))])
    missing = str(tmp_path / "none")
    opening = f"HWCM: cannot open the parses {missing}.conllu (eval e): No such file"
    with pytest.raises(InputError, match=re.escape(opening)):
        Hwcm().counts([_item(missing, missing)])
    big = tmp_path / "big.tree"
    with big.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(LimitError, match=r"big\.tree is larger than 64 MiB: refused"):
        Stm().counts([_item(str(big), str(big))])


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("1\tthe\t_\t_\t_\t_\t0\n", None),
        ("1\tthe\t_\t_\t_\t0\n", "line 1: 6 tab-separated fields: a CoNLL-U word has 10, HEAD the 7th"),
        (
            "# c\n1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n3\tb\t_\t_\t_\t_\t1\t_\t_\t_\n",
            "line 3: ID '3' where the sentence's word 2",
        ),
        (
            "1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n",
            r"line 1: HEAD '_' is not a word's ID or 0 \(is the word parsed\?\)",
        ),
        (
            "1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n\n1\tb\t_\t_\t_\t_\t2\t_\t_\t_\n",
            "line 3: HEAD 2: the sentence's words are 1 to 1",
        ),
        ("1\ta\t_\t_\t_\t_\t1\t_\t_\t_\n", "line 1: the word is its own head"),
        (
            "1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n2\tb\t_\t_\t_\t_\t3\t_\t_\t_\n3\tc\t_\t_\t_\t_\t2\t_\t_\t_\n",
            "line 2: a cycle",
        ),
        ("x\ta\t_\t_\t_\t_\t0\t_\t_\t_\n", "line 1: ID 'x' where the sentence's word 1 is due"),
    ],
)
def test_malformed_conllu_is_refused_naming_the_file_and_line(
    tmp_path: Path, text: str, found: str | None
) -> None:
    path = _write(tmp_path, "bad.conllu", text)
    if found is None:  # 7 fields are enough: HEAD is there
        assert Hwcm().counts([_item(path, path)]).tolist() == [[1, 0, 0, 0, 1, 0, 0, 0]]
        return
    with pytest.raises(InputError, match=f"^{re.escape(path)}, {found}"):
        Hwcm().counts([_item(path, path)])


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("(S (NP a))\n(S a))\n", "line 2: a '\\)' that closes no '\\('"),
        ("(S a)\n\n(S (NP b)\n", r"line 3: the tree begun here is never closed \(1 '\(' open\)"),
        ("(S a)\nword (S b)\n", "line 2: 'word' is outside any tree's brackets"),
        ("(S\n (NP a)\n ( (VP b)))\n", "line 3: a bracket without a label"),
        ("( (S a) (S b) )\n", "line 1: a bracket without a label"),
        ("()\n", "line 1: a bracket without a label"),
    ],
)
def test_malformed_trees_are_refused_naming_the_file_and_line(tmp_path: Path, text: str, found: str) -> None:
    path = _write(tmp_path, "bad.tree", text)
    with pytest.raises(InputError, match=f"^{re.escape(path)}, {found}"):
        Stm().counts([_item(path, path)])


def test_deep_trees_are_read_without_recursion(tmp_path: Path) -> None:
    """A tree 100,000 levels deep and a chain of 100,000 heads: no recursion limit is met."""
    deep = 100_000
    tree = _write(tmp_path, "deep.tree", "(A " * deep + "word" + ")" * deep)
    assert Stm().counts([_item(tree, tree)]).tolist() == [[deep, deep - 1, deep - 2] * 2]
    chain = _write(tmp_path, "deep.conllu", _conllu([(["w"] * deep, list(range(-1, deep - 1)))]))
    assert Hwcm(length=2).counts([_item(chain, chain)]).tolist() == [[deep, deep - 1] * 2]


def test_options_are_checked() -> None:
    with pytest.raises(UsageError, match=f"HWCM: option length must be from 1 to {MAX_SIZE}, got 0"):
        Hwcm(length=0)
    with pytest.raises(UsageError, match=f"STM: option depth must be from 1 to {MAX_SIZE}, got 101"):
        Stm(depth=MAX_SIZE + 1)
    with pytest.raises(UsageError, match="STM: option depth must be int, got True"):
        Stm(depth=True)
    with pytest.raises(UsageError, match="HWCM: option parses must be str"):
        Hwcm(parses=None)  # type: ignore[arg-type]
    assert (Hwcm.name, Stm.name, Hwcm.higher_is_better, Stm.higher_is_better) == ("HWCM", "STM", True, True)
    assert Hwcm().score(np.zeros(8)) == 0.0  # no word: nothing matched


# The brute force ------------------------------------------------------------------------------

WORDS = ("a", "b", "c", "A")
LABELS = ("S", "NP", "VP", "np")


def _random_parse(rng: random.Random, pool: Sequence[str], largest: int, forest: bool) -> Parse:
    """A random tree over 1 to ``largest`` nodes: a node's parent is any node made before it
    (or none, at times, in a forest of several roots)."""
    size = rng.randint(1, largest)
    parents = [-1] + [
        rng.randrange(node) if not forest or rng.random() > 0.15 else -1 for node in range(1, size)
    ]
    return [rng.choice(pool) for _ in range(size)], parents


def _shuffled(rng: random.Random, words: list[str], parents: list[int]) -> Parse:
    """The same dependency tree with its words in another order (heads are not to the left)."""
    order = list(range(len(words)))
    rng.shuffle(order)
    place = {node: at for at, node in enumerate(order)}
    return [words[node] for node in order], [
        place[parents[node]] if parents[node] >= 0 else -1 for node in order
    ]


def _bracketed(rng: random.Random, labels: list[str], parents: list[int]) -> str:
    """A tree in brackets, children in the order of their numbers, with words at the leaves and
    at times inside; in the unlabelled outer bracket and over several lines at times."""
    children: dict[int, list[int]] = {node: [] for node in range(len(labels))}
    for node, parent in enumerate(parents):
        if parent >= 0:
            children[parent].append(node)

    def written(node: int) -> str:
        parts = [labels[node]]
        if not children[node] or rng.random() < 0.2:
            parts.append(rng.choice(WORDS))
        parts += [written(child) for child in children[node]]
        return "(" + " ".join(parts) + ")"

    text = written(0)
    if rng.random() < 0.3:
        text = f"( {text} )"
    return text.replace(" (", "\n  (") if rng.random() < 0.3 else text


def _below(parents: Sequence[int], node: int) -> list[int]:
    return [child for child, parent in enumerate(parents) if parent == node]


def _chains_from(words: Sequence[str], parents: Sequence[int], node: int, k: int) -> list[tuple[str, ...]]:
    """The chains of length k from ``node``: its word alone, or its word followed by a chain of
    length k - 1 from one of its dependents."""
    if k == 1:
        return [(words[node],)]
    return [
        (words[node], *chain)
        for child in _below(parents, node)
        for chain in _chains_from(words, parents, child, k - 1)
    ]


def _naive_chains(sentences: Sequence[Parse], length: int, case: bool) -> list[Counter[tuple[str, ...]]]:
    """Every chain of lengths 1 to ``length`` from every word."""
    found: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(length)]
    for words, parents in sentences:
        words = words if case else [word.lower() for word in words]
        for node in range(len(words)):
            for k in range(1, length + 1):
                found[k - 1].update(_chains_from(words, parents, node, k))
    return found


def _height(parents: Sequence[int], node: int) -> int:
    return 1 + max((_height(parents, child) for child in _below(parents, node)), default=0)


def _shape(labels: Sequence[str], parents: Sequence[int], node: int, levels: int) -> str:
    """The node and its descendants down to ``levels`` levels, in brackets."""
    below = _below(parents, node)
    if levels == 1 or not below:
        return labels[node]
    return (
        "(" + " ".join([labels[node], *(_shape(labels, parents, child, levels - 1) for child in below)]) + ")"
    )


def _naive_subtrees(trees: Sequence[Parse], depth: int, case: bool) -> list[Counter[str]]:
    """Every subtree of depths 1 to ``depth``: at each node with a path of k levels down from
    it, the node and its descendants down to k levels."""
    found: list[Counter[str]] = [Counter() for _ in range(depth)]
    for labels, parents in trees:
        labels = labels if case else [label.lower() for label in labels]
        for node in range(len(labels)):
            for k in range(1, min(depth, _height(parents, node)) + 1):
                found[k - 1][_shape(labels, parents, node, k)] += 1
    return found


def _naive_row(hypothesis: list[Counter], references: list[list[Counter]]) -> list[int]:
    matched = [
        sum(min(count, max(reference[k][part] for reference in references)) for part, count in parts.items())
        for k, parts in enumerate(hypothesis)
    ]
    return matched + [sum(parts.values()) for parts in hypothesis]


def _naive_score(row: Sequence[int], size: int) -> Fraction:
    """The paper's average over the sizes the hypothesis has parts of."""
    precisions = [Fraction(row[k], row[size + k]) for k in range(size) if row[size + k]]
    return sum(precisions, Fraction(0)) / len(precisions) if precisions else Fraction(0)


def _random_files(tmp_path: Path, kind: str, seed: int) -> tuple[list[Item], dict[str, list[Parse]]]:
    """200 items, each a hypothesis file and 1 to 3 reference files of 1 or 2 random sentences
    or trees (a reference's file shared by several items at times, as a model by peers)."""
    rng = random.Random(seed)
    parses: dict[str, list[Parse]] = {}
    for number in range(260):
        units = []
        if kind == "conllu":
            for _ in range(rng.randint(1, 2)):
                units.append(_shuffled(rng, *_random_parse(rng, WORDS, 8, forest=True)))
            text = _conllu(units)
        else:
            units = [_random_parse(rng, LABELS, 9, forest=False) for _ in range(rng.randint(1, 2))]
            text = ("\n\n" if rng.random() < 0.5 else "\n").join(_bracketed(rng, *unit) for unit in units)
        parses[_write(tmp_path, f"{number}.{kind}", text + "\n")] = units
    names = list(parses)
    items = [Item(f"e{n}", (), (), (names[n], *rng.sample(names, rng.randint(1, 3)))) for n in range(200)]
    return items, parses


@pytest.mark.parametrize("length", [1, 4, 6])
@pytest.mark.parametrize("case", [False, True])
def test_hwcm_is_the_naive_chains_on_random_trees(tmp_path: Path, length: int, case: bool) -> None:
    items, parses = _random_files(tmp_path, "conllu", 7)
    metric = Hwcm(length=length, case=case)
    rows = metric.counts(items)
    naive = {name: _naive_chains(units, length, case) for name, units in parses.items()}
    expected = [_naive_row(naive[item.parses[0]], [naive[p] for p in item.parses[1:]]) for item in items]
    assert rows.tolist() == expected
    for row, want in zip(rows, expected):
        assert metric.score(row) == pytest.approx(float(_naive_score(want, length)), rel=1e-14)
    corpus = [sum(column) for column in zip(*expected)]
    assert metric.score(rows.sum(axis=0)) == pytest.approx(float(_naive_score(corpus, length)), rel=1e-14)
    # A hypothesis against its own parses scores 1, whatever the shape of its trees.
    assert all(metric.score(row) == 1.0 for row in metric.counts([_item(p, p) for p in parses]))


@pytest.mark.parametrize("depth", [1, 3, 5])
@pytest.mark.parametrize("case", [False, True])
def test_stm_is_the_naive_subtrees_on_random_trees(tmp_path: Path, depth: int, case: bool) -> None:
    items, parses = _random_files(tmp_path, "tree", 8)
    metric = Stm(depth=depth, case=case)
    rows = metric.counts(items)
    naive = {name: _naive_subtrees(units, depth, case) for name, units in parses.items()}
    expected = [_naive_row(naive[item.parses[0]], [naive[p] for p in item.parses[1:]]) for item in items]
    assert rows.tolist() == expected
    for row, want in zip(rows, expected):
        assert metric.score(row) == pytest.approx(float(_naive_score(want, depth)), rel=1e-14)
    corpus = [sum(column) for column in zip(*expected)]
    assert metric.score(rows.sum(axis=0)) == pytest.approx(float(_naive_score(corpus, depth)), rel=1e-14)
    assert all(metric.score(row) == 1.0 for row in metric.counts([_item(p, p) for p in parses]))
