"""ParaEval's C kernel against its Python path: the same matches, bit for bit, on random texts
and tables, and the same report from a run on either."""

from __future__ import annotations

import ast
import os
import random
from array import array
from pathlib import Path
from typing import Any

import pytest

import rouge155py
from rouge155py import _kernel, score
from rouge155py.metrics import paraeval
from rouge155py.metrics.paraeval import PairMatch, Text, kernel_matches, match_pair, word_ids
from rouge155py.metrics.paraphrases import PhraseTable, TableSpec, build_table

needs_kernel = pytest.mark.skipif(
    _kernel.paraeval_kernel() is None, reason="ParaEval's C kernel is not in use"
)

#: Random pairs compared per seed (each compared on a few settings of tier 1's bounds).
CASES = int(os.environ.get("ROUGE155PY_PARAEVAL_KERNEL_CASES", "1500"))


def _python(
    table: PhraseTable, model: tuple[array, array], peer: tuple[array, array], limit: Any
) -> PairMatch:
    import numpy as np

    def text(encoded: tuple[array, array]) -> Text:
        return Text(np.frombuffer(encoded[0], np.int32).astype(np.int64), list(encoded[1]), table)

    return match_pair(text(model), text(peer), table, limit)


def _case(rng: random.Random) -> tuple[PhraseTable, list[tuple[array, array]]]:
    """A table and four texts over a small vocabulary (words repeat: candidates overlap)."""
    words = [f"w{i}" for i in range(rng.randint(2, 9))]
    encode = word_ids({})
    longest = rng.choice((2, 3, 4, 6))
    pairs = [
        (
            " ".join(rng.choices(words, k=rng.randint(1, longest))),
            " ".join(rng.choices(words, k=rng.randint(1, longest))),
        )
        for _ in range(rng.randint(0, 20))
    ]
    table = build_table(TableSpec("<pairs>"), encode, [([a for a, _ in pairs], [b for _, b in pairs])])
    width = rng.choice((6, 12, 40))
    texts = [
        encode([rng.choices(words, k=rng.randint(0, width)) for _ in range(rng.randint(1, 5))])
        for _ in range(4)
    ]
    return table, texts


@needs_kernel
@pytest.mark.parametrize("seed", [1, 2])
def test_the_kernel_matches_as_python_on_random_texts_and_tables(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every field of every match (the counts, exact, tier 1's and tier 2's candidates in order)
    is the Python path's, whatever tier 1's bounds: its states per pair, its bytes per group."""
    rng = random.Random(seed)
    pairs = [(0, 1), (1, 0), (2, 3), (3, 3)]
    compared = inexact = 0
    for _ in range(CASES // len(pairs)):
        table, texts = _case(rng)
        limit = rng.choice((None, None, -1, 0, 1, 2, 3, 5, 8, 20, 100, 1000))
        monkeypatch.setattr(
            paraeval, "MAX_SEARCH_BYTES", rng.choice((64 * 2**20, 64 * 2**20, 2000, 8000, 30000))
        )
        found = kernel_matches(table, texts, pairs, limit)
        assert found is not None
        counted = kernel_matches(table, texts, pairs, limit, candidates=False)
        assert counted == [m._replace(phrases=(), words=()) for m in found]
        for (model, peer), match in zip(pairs, found):
            expected = _python(table, texts[model], texts[peer], limit)
            assert match == expected, (texts[model], texts[peer], limit)
            assert all(type(c) is paraeval.Candidate for c in match.phrases + match.words)
            compared += 1
            inexact += not match.exact
    assert compared >= CASES - len(pairs) and 0 < inexact < compared


@needs_kernel
def test_long_texts_and_wide_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    """Texts of hundreds of words of a few kinds (groups of many candidates, searches past their
    states, tier 2 over thousands of candidates): the same matches."""
    rng = random.Random(5)
    for _ in range(12):
        table, _ = _case(rng)
        words = [f"w{i}" for i in range(3)]
        encode = word_ids({f"w{i}": i for i in range(9)})
        texts = [encode([rng.choices(words, k=rng.randint(50, 400)) for _ in range(2)]) for _ in range(2)]
        for limit in (None, 50, 3000):
            found = kernel_matches(table, texts, [(0, 1)], limit)
            assert found == [_python(table, texts[0], texts[1], limit)]


@needs_kernel
def test_words_the_kernel_knows_by_id_and_words_it_hashes() -> None:
    """The kernel looks one-word spans up by id below a bound on the table's ids, and hashes the
    others: a table of some words of small ids and some far past the bound (and texts of words
    in no phrase) matches as the Python path does."""
    rng = random.Random(7)
    words = [f"w{i}" for i in range(9)]
    ids = {w: i if i < 3 else 1_000_000 + 7 * i for i, w in enumerate(words)}

    def encode(texts: Any) -> tuple[array, array]:
        out, offsets = array("i"), array("i", [0])
        for text in texts:
            out.extend(ids[w] for w in (text.split() if isinstance(text, str) else text))
            offsets.append(len(out))
        return out, offsets

    pairs = [(0, 1), (1, 0), (2, 3), (3, 2)]
    for _ in range(60):
        phrases = [
            (
                " ".join(rng.choices(words, k=rng.randint(1, 3))),
                " ".join(rng.choices(words, k=rng.randint(1, 3))),
            )
            for _ in range(rng.randint(1, 20))
        ]
        table = build_table(
            TableSpec("<pairs>"), encode, [([a for a, _ in phrases], [b for _, b in phrases])]
        )
        texts = [
            encode([rng.choices(words, k=rng.randint(0, 12)) for _ in range(rng.randint(1, 4))])
            for _ in range(4)
        ]
        found = kernel_matches(table, texts, pairs)
        assert found == [_python(table, texts[m], texts[p], None) for m, p in pairs]


@needs_kernel
def test_a_phrase_of_many_partners() -> None:
    """A phrase paired with hundreds of others (the kernel looks the peer's phrases up among its
    partners rather than going through them all): the same matches, the links in the same order."""
    rng = random.Random(8)
    words = [f"a{i}" for i in range(25)]
    hub = [("hub", f"{a} {b}") for a in words for b in words]
    for _ in range(12):
        others = [(rng.choice(words), " ".join(rng.choices(words, k=rng.randint(1, 3)))) for _ in range(30)]
        pairs = hub + others if rng.random() < 0.5 else others + hub
        encode = word_ids({})
        table = build_table(TableSpec("<pairs>"), encode, [([a for a, _ in pairs], [b for _, b in pairs])])
        vocabulary = words + ["hub"] * 3
        texts = [
            encode([rng.choices(vocabulary, k=rng.randint(5, 25)) for _ in range(rng.randint(1, 3))])
            for _ in range(4)
        ]
        for limit in (None, 3):
            found = kernel_matches(table, texts, [(0, 1), (1, 0), (2, 3)], limit)
            assert found == [_python(table, texts[m], texts[p], limit) for m, p in [(0, 1), (1, 0), (2, 3)]]


@needs_kernel
def test_several_phrases_of_many_partners_and_short_peers() -> None:
    """Phrases of 40 to 625 partners beside each other, against texts of one phrase up: each is
    matched by a bitmap of its own partners, by a gallop through them (more partners than 32
    per peer phrase, too few for a bitmap) or by going through them, as the Python path does."""
    rng = random.Random(9)
    words = [f"a{i}" for i in range(25)]
    two = [f"{a} {b}" for a in words for b in words]
    for _ in range(6):
        hubs = [[(f"hub{h}", b) for b in rng.sample(two, size)] for h, size in enumerate((40, 100, 300, 625))]
        pairs = [pair for hub in hubs for pair in hub] + [
            (rng.choice(two), rng.choice(two)) for _ in range(30)
        ]
        rng.shuffle(pairs)
        encode = word_ids({})
        table = build_table(TableSpec("<pairs>"), encode, [([a for a, _ in pairs], [b for _, b in pairs])])
        vocabulary = words + [f"hub{h}" for h in range(4)] * 4
        texts = [encode([rng.choices(vocabulary, k=rng.choice((1, 3, 8, 25)))]) for _ in range(6)]
        texts += [encode([rng.choice(hub)[1].split()]) for hub in hubs for _ in range(2)]  # one phrase each
        wanted = [(m, p) for m in range(len(texts)) for p in range(len(texts))]
        assert kernel_matches(table, texts, wanted) == [
            _python(table, texts[m], texts[p], None) for m, p in wanted
        ]


@needs_kernel
@pytest.mark.parametrize("multi_ref", ["average", "best"])
def test_a_run_on_the_kernel_prints_the_python_paths_report(
    multi_ref: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole run (every row, several references, a tier 1 cut short) prints the same bytes on
    the kernel as without it, and the kernel is what matched."""
    rng = random.Random(12)
    words = "the un libya sanctions imposed against on put".split()
    phrases = [" ".join(rng.choices(words, k=rng.randint(1, 3))) for _ in range(120)]
    lines = [f"{a}\t{b}" for a, b in zip(phrases[::2], phrases[1::2])]
    table = tmp_path / "t.tsv"
    table.write_text("\n".join(lines) + "\n")
    peers = [" ".join(rng.choices(words, k=rng.randint(3, 30))) for _ in range(40)]
    refs = [[" ".join(rng.choices(words, k=rng.randint(3, 30))) for _ in range(3)] for _ in range(40)]
    monkeypatch.setattr(paraeval, "MAX_STATES", 6)  # some instances past tier 1's states

    def run() -> tuple[str, list[str]]:
        report = score(
            peers,
            refs,
            paraphrases=str(table),
            paraeval_variants="3,2,P,T",
            per_eval=True,
            max_ngram=1,
            multi_ref=multi_ref,
        )
        return report.to_legacy(), report.inexact

    kernel = _kernel.paraeval
    assert kernel is not None
    calls = []

    class Counted:
        table = kernel.table

        @staticmethod
        def match(*args: Any) -> Any:
            calls.append(len(args[2]))
            return kernel.match(*args)

    for name in ("reader", "pairs", "reader_add", "reader_chunk", "builder", "builder_add", "builder_arrays"):
        setattr(Counted, name, getattr(kernel, name))  # the table loads as it does on the kernel
    monkeypatch.setattr(_kernel, "paraeval", Counted)
    on_kernel = run()
    assert sum(calls) // 2 == 40 * 3  # every pair, once for all the rows
    monkeypatch.setattr(_kernel, "paraeval", None)
    assert run() == on_kernel
    assert on_kernel[1]  # the cut was met (and said alike)


@needs_kernel
def test_accel_set_to_none_takes_paraeval_off_the_kernel_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_kernel, "accel", None)
    assert _kernel.paraeval_kernel() is None
    table, texts = _case(random.Random(3))
    assert kernel_matches(table, texts, [(0, 1)]) is None


@needs_kernel
def test_a_table_the_kernel_refuses_is_matched_in_python() -> None:
    """Arrays that are no table as build_table makes one (hashes out of order) are refused by the
    kernel, and the caller then takes the Python path."""
    import numpy as np

    encode = word_ids({})
    table = build_table(TableSpec("<pairs>"), encode, [(["a b", "d"], ["c", "e f"])])
    texts = [encode(["a b d c", "e f"]), encode(["c e f a b"])]
    assert len(table.hashes) == 4
    flipped = PhraseTable(
        table.tokens, table.starts, table.hashes[::-1].copy(), table.order[::-1].copy(), table.keys
    )
    assert kernel_matches(flipped, texts, [(0, 1)]) is None
    kernel = _kernel.paraeval
    assert kernel is not None
    with pytest.raises(ValueError, match="hashes not strictly ascending"):
        kernel.table(
            flipped.tokens, flipped.starts, flipped.hashes, flipped.order.astype(np.int32), flipped.keys
        )


@needs_kernel
def test_the_kernel_refuses_texts_and_pairs_that_do_not_fit() -> None:
    table, texts = _case(random.Random(6))
    kernel = _kernel.paraeval
    assert kernel is not None
    state = table.kernel_state(kernel)
    args = (10, 1 << 20, 240, 200, PairMatch, paraeval.Candidate)
    with pytest.raises(IndexError):
        kernel.match(state, texts, array("i", [0, 4]), *args)
    with pytest.raises(ValueError, match="offsets"):
        kernel.match(state, [(array("i", [1, 2, 3]), array("i", [0, 2]))], array("i", [0, 0]), *args)
    with pytest.raises(TypeError):
        kernel.match(
            state, [(array("i", [1]), array("i", [0, 1]))], array("i", [0, 0]), 10, 1, 240, 200, int, int
        )
    assert kernel.match(state, [], array("i"), *args) == []


def test_the_kernels_stub_names_its_functions() -> None:
    """``_paraeval.pyi`` names every function of the built module, and ``_kernel.ParaEvalKernel``
    names them too."""
    built = pytest.importorskip("rouge155py._paraeval")
    package = Path(rouge155py.__file__).parent
    stub = ast.parse((package / "_paraeval.pyi").read_text())
    stubbed = {node.name for node in stub.body if isinstance(node, ast.FunctionDef)}
    assert stubbed == {name for name in dir(built) if not name.startswith("_")}
    protocol = next(
        node
        for node in ast.walk(ast.parse((package / "_kernel.py").read_text()))
        if isinstance(node, ast.ClassDef) and node.name == "ParaEvalKernel"
    )
    assert {node.name for node in protocol.body if isinstance(node, ast.FunctionDef)} == stubbed


@needs_kernel
def test_a_tasks_matches_keep_their_candidates_after_its_counts(tmp_path: Path) -> None:
    """counts() matches on the kernel without the candidates; matches() of the same task, asked
    after it, still has them (the Python path's)."""
    from rouge155py.inputs.readers import SummaryText
    from rouge155py.metrics.base import Task
    from rouge155py.metrics.paraeval import ParaEval
    from rouge155py.metrics.paraphrases import TableSpec
    from rouge155py.text.corpus import Corpus
    from rouge155py.text.stage import TextSettings, text_stage

    path = tmp_path / "t.tsv"
    path.write_text("lifted\tsuspended\nlibya sanctions\tsanctions against libya\n")
    peer = SummaryText("the un lifted libya sanctions\n", "SPL")
    model = SummaryText("the un suspended sanctions against libya\n", "SPL")
    task = Task("P", 0, "E", peer, (model,), False, ((False, False),), "E.P")
    metric = ParaEval("3", spec=TableSpec(str(path)))
    corpus = Corpus(text_stage(TextSettings()), 0, 0)
    metric.prepare(corpus, False)
    counted = metric.counts(corpus, [task])
    (match,) = metric.matches(corpus, task)
    assert counted == [[paraeval.variant_counts("3", match)]]
    assert match.phrases == (paraeval.Candidate(3, 3, 3, 2),)
    assert match.words == (paraeval.Candidate(2, 1, 2, 1),)
