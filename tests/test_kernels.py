"""The C kernel gives the counts of the plain definitions."""

from __future__ import annotations

import math
import os
import random
import resource
import subprocess
import sys
from array import array
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge155py import _kernel
from rouge155py.metrics import clipped_hits, pairs
from rouge155py.metrics.lcs import LcsText, score_lcs, score_wlcs
from rouge155py.metrics.ngram import ngrams
from rouge155py.metrics.skipbigram import skip_bigram_hits, skip_bigram_total, skip_bigrams
from rouge155py.run import bootstrap
from rouge155py.text.corpus import Vocabulary

REPO = Path(__file__).resolve().parent.parent

needs_kernel = pytest.mark.skipif(
    not _kernel.kernel_available() and not os.environ.get("ROUGE155PY_REQUIRE_KERNEL"),
    reason="C kernel not built",
)

WORDS = ["a", "b", "c", "d", "e"]
sentences = st.lists(st.lists(st.sampled_from(WORDS), max_size=12), max_size=5)


def _texts(model: list[list[str]], peer: list[list[str]], extra: list[str]) -> tuple:
    def text(sents: list[list[str]], vocab: object) -> LcsText:
        unigrams = [t for s in sents for t in s] + extra  # the n-gram reader may differ
        return LcsText(sents, Counter(unigrams), len(unigrams), vocab)  # type: ignore[arg-type]

    vocab = Vocabulary()
    return text(model, vocab), text(peer, vocab), text(model, None), text(peer, None)


@needs_kernel
@settings(max_examples=400, deadline=None)
@given(sentences, sentences, st.lists(st.sampled_from(WORDS), max_size=3))
def test_rouge_l_kernel_matches_python(model, peer, extra) -> None:
    fast_m, fast_p, slow_m, slow_p = _texts(model, peer, extra)
    assert score_lcs(fast_m, fast_p) == score_lcs(slow_m, slow_p)


@settings(max_examples=400, deadline=None)
@given(
    sentences,
    sentences,
    st.lists(st.sampled_from(WORDS), max_size=3),
    st.sampled_from([1.2, 1.5, 2.0, 0.7]),
)
def test_rouge_w_kernel_matches_python(model, peer, extra, weight) -> None:
    if any(model):  # an empty model divides by zero in both paths (tested elsewhere)
        _assert_same_wlcs(*_texts(model, peer, extra), weight)


def _assert_same_wlcs(
    fast_m: LcsText, fast_p: LcsText, slow_m: LcsText, slow_p: LcsText, weight: float
) -> None:
    fast, slow = score_wlcs(fast_m, fast_p, weight, "m"), score_wlcs(slow_m, slow_p, weight, "m")
    assert (fast.hit, fast.model_count, fast.peer_count, fast.score) == (
        slow.hit,
        slow.model_count,
        slow.peer_count,
        slow.score,
    )


# Up to 150 tokens of 100 words: sentences longer than a machine word, peer sentences of
# few distinct tokens (ROUGE-L by bit vectors) and of more than the model's longest sentence
# has tokens (ROUGE-L by cells).
long_sentences = st.lists(
    st.lists(st.sampled_from([f"w{k}" for k in range(100)]), max_size=150), min_size=1, max_size=3
)


@needs_kernel
@settings(max_examples=150, deadline=None)
@given(long_sentences, long_sentences, st.lists(st.sampled_from(WORDS), max_size=40))
def test_long_sentences_kernel_matches_python(model, peer, extra) -> None:
    """Long sentences, many distinct tokens and budgets of many tokens (the sort's partitions)."""
    texts = _texts(model, peer, extra)
    assert score_lcs(texts[0], texts[1]) == score_lcs(texts[2], texts[3])
    if any(model):
        _assert_same_wlcs(*texts, 1.2)


@st.composite
def many_kinds(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str]]]:
    """(model, peer): a peer sentence of more than 64 distinct tokens, so more than the longest
    model sentence has tokens, before or after one of a few; model sentences of its tokens."""
    long = draw(
        st.lists(st.sampled_from([f"w{k}" for k in range(300)]), min_size=90, max_size=200).filter(
            lambda s: len(set(s)) > 64
        )
    )
    short = draw(st.lists(st.sampled_from([*WORDS, long[0]]), max_size=8))
    peer = draw(st.sampled_from([[long, short], [short, long]]))
    model = draw(st.lists(st.lists(st.sampled_from([*long, "z"]), max_size=20), min_size=2, max_size=6))
    return model, peer


@pytest.mark.slow
@needs_kernel
@settings(max_examples=150, deadline=None)
@given(many_kinds())
def test_masks_of_each_model_sentence_kernel_matches_python(texts) -> None:
    """ROUGE-L against a peer sentence of many distinct tokens: the kernel makes the masks of
    each model sentence's tokens in turn (those of the one before must not be left)."""
    model, peer = texts
    fast_m, fast_p, slow_m, slow_p = _texts(model, peer, [])
    assert score_lcs(fast_m, fast_p) == score_lcs(slow_m, slow_p)


token_lists = st.lists(st.lists(st.sampled_from(WORDS), max_size=15), min_size=1, max_size=6)


def _ids(files: list[list[str]]) -> list[array]:
    vocab: dict[str, int] = {}
    return [array("i", [vocab.setdefault(t, len(vocab)) for t in f]) for f in files]


@needs_kernel
@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(*(st.floats(0, 1, allow_nan=False),) * 3), max_size=40),
    st.integers(1, 300),
)
def test_bootstrap_kernel_matches_numpy(rows, resamples) -> None:
    table = np.array(rows, dtype=float).reshape(-1, 3)
    out = np.zeros((resamples, 3))
    if len(rows):
        _kernel.accel.bootstrap_sums(table, resamples, out)
    assert np.array_equal(out.T, bootstrap._numpy_sums(table, resamples))


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.floats(allow_nan=True, allow_infinity=True, width=64)
        | st.sampled_from([0.0, 0.5, 1.0, math.nan, math.inf]),
        max_size=200,
    )
)
def test_sort_and_sum_ascending_nan_last(values) -> None:
    """The bootstrap's ranks: ascending, NaN last; the sum added in that order."""
    found = array("d", values)
    total = _kernel.accel.sort_and_sum(found)
    numbers = sorted(v for v in values if not math.isnan(v))
    assert found[: len(numbers)].tolist() == numbers
    assert all(math.isnan(v) for v in found[len(numbers) :])
    expected = 0.0
    for v in [*numbers, *(v for v in values if math.isnan(v))]:
        expected += v
    assert total == expected or (math.isnan(total) and math.isnan(expected))


@needs_kernel
@settings(max_examples=500, deadline=None)
@given(
    token_lists,
    st.sampled_from([0, 1, 2, 3, 4, 9]),
    st.sampled_from([-1, 0, 1, 1.5, 4]),
    st.booleans(),
    st.sampled_from([0, 1 << 8, 1 << 16, 1 << 21, (1 << 31) - 8]),
)
def test_pair_kernel_matches_reference(files, n, distance, unigrams, offset) -> None:
    """The per-pair C counts (n > 0: n-grams; n = 0: skip-bigrams) equal the definitions.

    Large ids (``offset``) take the kernel's general path where n ids do not fit in 64 bits.
    """
    ids = [array("i", [t + offset for t in f]) for f in _ids(files)]
    peer, model = ids[0], ids[-1]
    if n:
        grams_p, grams_m = ngrams(files[0], n), ngrams(files[-1], n)
    else:
        grams_p = skip_bigrams(files[0], distance, unigrams)
        grams_m = skip_bigrams(files[-1], distance, unigrams)
    found = pairs.peer_counts(peer, [model, peer, array("i")], n, distance, unigrams)
    expected = [
        (clipped_hits(grams_m.counts, grams_p.counts), grams_m.total, grams_p.total),
        (grams_p.total, grams_p.total, grams_p.total),
        (0, 0, grams_p.total),
    ]
    assert [(c.hit, c.model_count, c.peer_count) for c in found] == expected


# A long text against a short one, either way round: the kernel's table holds the short
# text's units and reads the long one by a window of token counts (or unit by unit where
# that is cheaper); the plain pair path counts the same per first token.
long_and_short = st.tuples(
    st.lists(st.sampled_from([*WORDS, "f"]), min_size=150, max_size=400)
    | st.lists(st.sampled_from([*WORDS[:3], "f", "g"]), min_size=370, max_size=400),
    st.lists(st.sampled_from([*WORDS, "z"]), max_size=30),
    st.booleans(),
)


@pytest.mark.slow
@needs_kernel
@settings(max_examples=150, deadline=None)
@given(long_and_short, st.sampled_from([-1, 0, 4, 30, 1e19]), st.booleans())
def test_skip_bigrams_of_a_long_text_match_reference(texts, distance, unigrams) -> None:
    """Skip-bigram hits of a 150-400-token text against a short one: kernel, pair path, definition."""
    _check_long_skip_bigrams(*texts, distance, unigrams)


@needs_kernel
@pytest.mark.parametrize("long_is_peer", [True, False])
@pytest.mark.parametrize(("distance", "unigrams"), [(-1, True), (4, False), (30, True)])
def test_skip_bigrams_of_long_texts_on_every_path(long_is_peer, distance, unigrams) -> None:
    """400 tokens of six words against 30: a peer of 80,000 units takes the model's table
    (no limit), the window is cheaper than the units (-2 30) or is not (-2 4: every token
    begins six units of the short text, more than it pairs with)."""
    rng = random.Random(distance)
    six = [*WORDS, "f"]
    long, short = [rng.choice(six) for _ in range(400)], [rng.choice(six) for _ in range(30)]
    _check_long_skip_bigrams(long, short, long_is_peer, distance, unigrams)


@needs_kernel
def test_skip_bigram_table_grows_past_its_first_room() -> None:
    """Two 400-token texts of 2,000 words: 79,800 skip-bigrams each, nearly all distinct, so
    the peer's table grows past the 65,536 units it makes room for at once."""
    rng = random.Random(3)
    words = [f"w{i}" for i in range(2000)]
    peer, model = ([rng.choice(words) for _ in range(400)] for _ in range(2))
    _check_long_skip_bigrams(peer, model, True, -1, True)


def _check_long_skip_bigrams(
    long: list[str], short: list[str], long_is_peer: bool, distance: float, unigrams: bool
) -> None:
    """The kernel, the plain pair path and the closed totals, against the definition."""
    peer, model = (long, short) if long_is_peer else (short, long)
    grams_p, grams_m = skip_bigrams(peer, distance, unigrams), skip_bigrams(model, distance, unigrams)
    expected = (clipped_hits(grams_m.counts, grams_p.counts), grams_m.total, grams_p.total)
    ids_p, ids_m = _ids([peer, model])
    found = pairs.peer_counts(ids_p, [ids_m], 0, distance, unigrams)
    assert [(c.hit, c.model_count, c.peer_count) for c in found] == [expected]
    reach = pairs.skip_reach(distance)
    assert skip_bigram_hits(ids_p, ids_m, reach, unigrams) == expected[0]
    assert (
        skip_bigram_total(len(model), reach, unigrams),
        skip_bigram_total(len(peer), reach, unigrams),
    ) == expected[1:]


def _long_case(root: Path, long_peer: int, long_model: int = 0) -> Path:
    """A configuration of one eval of a long peer against a 120-token model and, when
    ``long_model`` is set, one of a 120-token peer against a model that long.  Zipf-like
    words; the model's have a second vocabulary the peer lacks, so that hits are partial."""
    rng = random.Random(11)

    def words(count: int, foreign: float) -> str:
        tokens = [
            f"{'x' if rng.random() < foreign else 'w'}{min(int(rng.paretovariate(0.9)), 300)}"
            for _ in range(count)
        ]
        return "\n".join(" ".join(tokens[i : i + 20]) for i in range(0, count, 20)) + "\n"

    evals = [("1", words(long_peer, 0), words(120, 0.4))]
    if long_model:
        evals.append(("2", words(120, 0), words(long_model, 0.4)))
    body = ""
    for name, peer, model in evals:
        (root / f"peer{name}.spl").write_text(peer)
        (root / f"model{name}.spl").write_text(model)
        body += (
            f'<EVAL ID="{name}"><PEER-ROOT>.</PEER-ROOT><MODEL-ROOT>.</MODEL-ROOT>'
            f'<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT><PEERS><P ID="1">peer{name}.spl</P></PEERS>'
            f'<MODELS><M ID="A">model{name}.spl</M></MODELS></EVAL>\n'
        )
    config = root / "config.xml"
    config.write_text(f'<ROUGE_EVAL version="1.5.5">\n{body}</ROUGE_EVAL>\n')
    return config


def _port(args: list[str], cwd: Path, kernel: bool, memory_mb: int = 0) -> subprocess.CompletedProcess[bytes]:
    """``python -m rouge155py`` with this repository's data, with the kernel or without, under an
    address-space limit when ``memory_mb`` is given."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    )
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env.pop("ROUGE155PY_NO_KERNEL", None)
    if not kernel:
        env["ROUGE155PY_NO_KERNEL"] = "1"

    def limit() -> None:
        if memory_mb:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

    command = [sys.executable, "-m", "rouge155py", "-e", str(REPO / "data"), *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=120, preexec_fn=limit)


@pytest.mark.slow
@needs_kernel
def test_skip_bigrams_of_a_20000_token_peer_in_512_mb(tmp_path: Path) -> None:
    """-2 -1: the peer's 200,000,000 skip-bigrams were all held (1.6 GB of keys alone, 20.9 GB
    for 46,000 tokens); the kernel and the plain pair path hold the model's, in the same bytes."""
    config = _long_case(tmp_path, 20_000)
    runs = [_port(["-a", "-2", "-1", "-U", str(config)], tmp_path, kernel, 512) for kernel in (True, False)]
    for run in runs:
        assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert runs[0].stdout == runs[1].stdout
    assert b"ROUGE-SU* Average_R" in runs[0].stdout


@pytest.mark.slow
@pytest.mark.parametrize("options", [("-n", "4", "-w", "1.2", "-2", "-1", "-U"), ("-2", "40", "-u")])
def test_skip_bigrams_of_long_texts_as_the_perl(oracle, tmp_path: Path, options) -> None:
    """A 2,500-token peer against a 120-token model, and the other way round: the Perl's bytes."""
    config = _long_case(tmp_path, 2_500, 2_500)
    args = ["-a", *options, str(config)]
    perl = oracle.run(["-e", str(oracle.data_dir), *args], cwd=tmp_path, timeout=120)
    assert perl.returncode == 0, perl.stderr
    for kernel in (True, False) if _kernel.kernel_available() else (False,):
        port = _port(args, tmp_path, kernel)
        assert port.returncode == 0, port.stderr.decode("utf-8", "replace")
        assert port.stdout == perl.stdout


class _Table(dict):  # type: ignore[type-arg]
    """A token -> id map like the corpus's: a new id for a new token, -1 for a stopword."""

    def __missing__(self, token: str) -> int:
        value = self[token] = -1 if token in {"the", "a1"} else len(self)
        return value


texts = st.lists(
    st.binary(max_size=40).map(lambda b: b.decode("latin-1"))
    | st.lists(
        st.sampled_from(["the", "The", "a1", "Cat", "cat", "-", "x9Y", " ", "\xe9", "1st"]), max_size=12
    ).map("".join),
    max_size=5,
)


@needs_kernel
@settings(max_examples=500, deadline=None)
@given(texts, st.booleans())
def test_encode_kernel_splits_as_the_perl(texts, drop) -> None:
    """The kernel's token ids are those of counted_tokens, looked up in the same map."""
    from rouge155py.text.normalize import counted_tokens

    expected_table, table = _Table(), _Table()
    expected_ids, expected_offsets = [], [0]
    for text in texts:
        found = [expected_table[t] for t in counted_tokens(text)]
        expected_ids += [i for i in found if i >= 0 or not drop]
        expected_offsets.append(len(expected_ids))
    found_ids, found_offsets = _kernel.accel.encode(texts, table, drop, _kernel.accel.token_memo(table))
    assert array("i", found_ids).tolist() == expected_ids
    assert array("i", found_offsets).tolist() == expected_offsets
    assert table == expected_table


@needs_kernel
@settings(max_examples=500, deadline=None)
@given(texts, st.booleans())
def test_encode_lines_reads_an_spl_text_as_the_spl_reader(texts, drop) -> None:
    """An SPL text read whole: its lines that are not empty, lowercased, encoded as encode()
    encodes the reader's sentences (one memo across calls, as a run keeps it)."""
    from rouge155py.inputs.readers import SummaryText, read_sentences

    text = "\n".join(texts)
    expected_table, table = _Table(), _Table()
    memo = _kernel.accel.token_memo(table)
    for _ in range(2):
        sentences = read_sentences(SummaryText(text, "SPL"))
        expected = _kernel.accel.encode(
            sentences, expected_table, drop, _kernel.accel.token_memo(expected_table)
        )
        assert _kernel.accel.encode_lines(text, table, drop, memo) == expected
        assert table == expected_table


SPL_WORDS = [
    "the",
    "The",
    "and",
    "of",
    "running",
    "Agreement",
    "cats",
    "better",
    "is",
    "1st",
    "x9Y",
    "-",
    "caf\xe9",
    "Stemming" * 9,  # tokens longer than the kernel's first buffer
    "stemming" * 9,
    "b" * 129,
    "cat" * 5 + "s",  # the kernel reads a token 8 bytes at a time, 16 at once: around both
    "cat" * 5 + "sS",
    "cat" * 5 + "s2",
    "Caterpil",
    "caterpillar",
    "1234567",
]
spl_text = st.lists(
    st.sampled_from(SPL_WORDS) | st.sampled_from([" ", "\n", "\n\n", ",", "\r"]), max_size=25
).map(" ".join)


@st.composite
def batch_options(draw: st.DrawFn) -> dict:
    """Options the batch kernel takes: any metrics but BE, -s, -m, -f, -p."""
    options = {
        "max_ngram": draw(st.integers(0, 4)),
        "lcs": draw(st.booleans()),
        "wlcs_weight": draw(st.none() | st.sampled_from([1.2, 1.5, 2.0, 0.5])),
        "skip_distance": draw(st.none() | st.sampled_from([-1, 0, 1, 4])),
        "stopwords": draw(st.booleans()),
        "stem": draw(st.booleans()),
        "best_model": draw(st.booleans()),
        "alpha": draw(st.floats(0, 1)),
    }
    if options["skip_distance"] is not None:
        options[draw(st.sampled_from(["skip_unigrams", "skip_both", "none"]))] = True
        options.pop("none", None)
    return options


@pytest.mark.slow
@needs_kernel
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.dictionaries(st.sampled_from(["1", "2", "3"]), spl_text, min_size=1),
            st.lists(spl_text, max_size=3),
        ),
        min_size=1,
        max_size=4,
    ),
    batch_options(),
)
def test_batch_kernel_rows_match_the_general_path(items, options) -> None:
    """score_pairs gives the rows that the general path (metric by metric, through the corpus) gives."""
    from rouge155py import Rouge
    from rouge155py.errors import ComputeError
    from rouge155py.inputs.texts import item_eval
    from rouge155py.metrics.plan import metric_plan
    from rouge155py.run.score import Scorer, score_evals

    settings_ = Rouge(**options).options
    plan = metric_plan(settings_.metrics)
    evals = [item_eval(i, peers, models, "SPL") for i, (peers, models) in enumerate(items)]
    peers = sorted({p for ev in evals for p in ev.peers})
    fast = Scorer(settings_.text, settings_.scoring)
    slow = Scorer(settings_.text, settings_.scoring)
    slow.kernel_state = None
    kernel = fast.kernel(plan)
    assert kernel is not None
    try:
        expected = score_evals(slow, plan, evals, peers)
    except ComputeError:  # ROUGE-W of an empty model: the kernel leaves it to the general path
        assert kernel.rows(evals, peers) is None
        with pytest.raises(ComputeError):
            score_evals(fast, plan, evals, peers)
        return
    assert kernel.rows(evals, peers) is not None
    found = score_evals(fast, plan, evals, peers)
    assert list(found) == list(expected)
    for key, table in expected.items():
        assert found[key].ids == table.ids
        assert list(found[key].items()) == list(table.items())


@needs_kernel
def test_batch_kernel_rows_of_one_system_match_the_general_path() -> None:
    """One system's evals (the API's common case, texts handed over in bulk): the rows of the
    general path, each prediction against its own references, a reference shared by two items."""
    from rouge155py import Rouge
    from rouge155py.inputs.texts import item_eval
    from rouge155py.metrics.plan import metric_plan
    from rouge155py.run.score import Scorer, score_evals

    words = "the cat sat on a mat while dogs ran after cats in the park running fast".split()
    shared = "the cat sat\non the mat"
    items = []
    for k in range(12):
        peer = " ".join(words[(k * 5 + j) % len(words)] for j in range(3 + k % 7)).replace(" a ", "\n")
        models = [" ".join(words[(k * 3 + j) % len(words)] for j in range(4 + k % 5))]
        items.append(({"1": peer}, [shared, *models] if k % 3 == 0 else models))
    settings_ = Rouge(max_ngram=2, skip_distance=4, wlcs_weight=1.2, stem=True).options
    plan = metric_plan(settings_.metrics)
    evals = [item_eval(i, peers, models, "SPL") for i, (peers, models) in enumerate(items)]
    evals[4].models[0] = evals[0].models[0]  # one reference object in two items
    fast = Scorer(settings_.text, settings_.scoring)
    slow = Scorer(settings_.text, settings_.scoring)
    slow.kernel_state = None
    expected = score_evals(slow, plan, evals, ["1"])
    found = score_evals(fast, plan, evals, ["1"])
    assert list(found) == list(expected)
    for key, table in expected.items():
        assert found[key].ids == table.ids
        assert list(found[key].items()) == list(table.items())
    assert len({tuple(row) for table in expected.values() for _, row in table.items()}) > 12


@pytest.mark.slow
@needs_kernel
@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(0, 40), st.integers(1, 60), st.randoms(use_true_random=False))
def test_tables_resampled_together_match_each_alone(tables, n, resamples, rng) -> None:
    """One pass of draws for several tables of the same instances gives each table's own resamples."""
    rows = [
        array("d", [rng.choice([0.0, -0.0, 1.0, rng.random()]) for _ in range(3 * n)]) for _ in range(tables)
    ]
    together = bootstrap.means_together(rows, resamples)
    assert together is not None
    for flat, columns in zip(rows, together):
        alone = bootstrap.resample(bootstrap.FlatRows(flat), resamples, 0, 0.5)
        assert [c.tobytes() for c in columns] == [array("d", c).tobytes() for c in alone]


class _Text(str):
    """A str subclass: not taken as it is."""


@needs_kernel
def test_plain_texts_is_its_definition() -> None:
    """plain_texts: every item a str (not a subclass) of ASCII, at most so long; on random lists."""
    rng = random.Random(5)
    kinds = ["abc", "", "x" * 40, "naïve", _Text("abc"), b"abc", None, 7, "a\x00b", "\x7f", "\x80"]
    for _ in range(2000):
        texts = [rng.choice(kinds) for _ in range(rng.randint(0, 6))]
        longest = rng.choice([0, 3, 39, 40, 100])
        expected = all(type(t) is str and t.isascii() and len(t) <= longest for t in texts)
        assert _kernel.accel.plain_texts(texts, longest) is expected, (texts, longest)
    with pytest.raises(TypeError):
        _kernel.accel.plain_texts(("abc",), 5)
