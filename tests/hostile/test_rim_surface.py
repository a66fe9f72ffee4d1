"""The surface code reaches past ``score()``: the drop-in's modules against rouge-score 0.1.2's
(every public name, re-pointed tokenizer patterns, what a generator raises), the exception
classes users catch around rouge-score, HF rouge and pyrouge, and pltrdy's pyrouge fork's
arguments (``log_level=``, ``stemming=``, as files2rouge and SummEval pass them)."""

from __future__ import annotations

import importlib
import inspect
import logging
import random
import re
import types
from pathlib import Path
from typing import Any, Callable, Iterator

import nltk
import numpy as np
import pytest
import rouge_score.io as their_io
import rouge_score.rouge_scorer as their_scorer
import rouge_score.scoring as their_scoring
import rouge_score.tokenize as their_tokenize

import rouge155py.rouge_score as drop_in
from rouge155py import Rouge155, UsageError
from rouge155py.errors import InvalidValue, MissingResource
from rouge155py.hf import compute
from rouge155py.rouge_score import io as our_io
from rouge155py.rouge_score import rouge_scorer as our_scorer
from rouge155py.rouge_score import scoring as our_scoring
from rouge155py.rouge_score import tokenize as our_tokenize

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# rouge-score 0.1.2's modules that a program imports (rouge and create_pyrouge_files are absl
# command-line scripts; the *_test and test_util modules are its tests).
MODULES = ("rouge_scorer", "scoring", "tokenize", "tokenizers", "io")
BENGALI = ("আমি বাংলায় গান গাই। আমি বাংলার গান গাই।", "আমি বাংলায় গান গাই।")


def outcome(call: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """("ok", the result of ``call(*args)``) or (the exception's class name, its message)."""
    try:
        return "ok", call(*args)
    except Exception as error:
        return type(error).__name__, str(error)


# -- every public name of rouge-score's modules ------------------------------------------------


@pytest.mark.parametrize("name", MODULES)
def test_every_public_name_of_rouge_score_is_in_the_drop_in(name: str) -> None:
    """``dir()`` of each rouge-score module is within the drop-in's, and each name is the same
    object (a module, a pattern, a builtin, a ``__future__`` feature) or the drop-in's own
    (a class, a function, a sibling module)."""
    theirs = importlib.import_module(f"rouge_score.{name}")
    ours = importlib.import_module(f"rouge155py.rouge_score.{name}")
    names = [n for n in dir(theirs) if not n.startswith("__")]
    assert sorted(set(names) - set(dir(ours))) == []
    for n in names:
        mine, their = getattr(ours, n), getattr(theirs, n)
        if isinstance(their, types.ModuleType) and their.__name__.startswith("rouge_score."):
            assert mine is getattr(drop_in, their.__name__.split(".")[1]), n
        elif isinstance(their, (types.ModuleType, re.Pattern, str, type(print))) or n in (
            "absolute_import",
            "division",
            "print_function",
            "Dict",
        ):
            assert mine is their or mine == their, n
        else:
            assert callable(mine) and type(mine) is type(their), n


def test_tokenizers_porter_is_nltks_module() -> None:
    """``tokenizers.porter.PorterStemmer()`` stems as rouge-score's default stemmer."""
    from rouge155py.rouge_score import tokenizers

    stemmer = tokenizers.porter.PorterStemmer()
    words = ["running", "cats", "generalization", "flies"]
    assert [stemmer.stem(w) for w in words] == [tokenizers.PorterStemmer().stem(w) for w in words]
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = tokenizers.nothing_here


# -- re-pointed tokenizer patterns -------------------------------------------------------------


@pytest.fixture
def repoint(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Sets the same attributes on rouge-score's ``tokenize`` and the drop-in's (undone after)."""

    def set_both(**patterns: Any) -> None:
        for module in (their_tokenize, our_tokenize):
            for name, value in patterns.items():
                monkeypatch.setattr(module, name, value)

    return set_both


def both(types_: list[str], stem: bool, target: Any, prediction: Any) -> tuple[Any, Any, Any]:
    """rouge-score's scores of a pair; the drop-in's by score() and by score_batch()."""
    theirs = their_scorer.RougeScorer(types_, use_stemmer=stem).score(target, prediction)
    ours = our_scorer.RougeScorer(types_, use_stemmer=stem)
    return theirs, ours.score(target, prediction), ours.score_batch([target], [prediction])[0]


@pytest.mark.parametrize("stem", [False, True])
def test_bengali_patterns_score_as_rouge_score(repoint: Callable[..., None], stem: bool) -> None:
    """The public training code's Bengali patterns: rouge1 P 1.0, R 0.5, as rouge-score gives."""
    repoint(
        NON_ALPHANUM_RE=re.compile(r"[^\u0980-\u09FFa-z0-9]+"),
        VALID_TOKEN_RE=re.compile(r"^[\u0980-\u09FFa-z0-9]+$"),
    )
    theirs, ours, batch = both(TYPES, stem, *BENGALI)
    assert (theirs["rouge1"].precision, theirs["rouge1"].recall) == (1.0, 0.5)
    assert ours == theirs and batch == theirs
    targets = [BENGALI[0], "আমি গান গাই\nবাংলার গান", ""]
    multi = our_scorer.RougeScorer(TYPES, use_stemmer=stem).score_multi(targets, BENGALI[1])
    assert multi == their_scorer.RougeScorer(TYPES, use_stemmer=stem).score_multi(targets, BENGALI[1])


WORDS = "The cat-sat on the mat. КОШКА сидит на ковре, 1999 u.s. café naïve über-cool running flies e-mail"


def random_pairs(seed: int, count: int) -> Iterator[tuple[str, str]]:
    rng = random.Random(seed)
    words = [*WORDS.split(), "-", "--", "\t", "日本語", "ﬁne"]

    def text() -> str:
        lines = [
            " ".join(rng.choice(words) for _ in range(rng.randint(0, 12))) for _ in range(rng.randint(1, 3))
        ]
        return "\n".join(lines)

    for _ in range(count):
        yield text(), text()


REPOINTED = {
    "cyrillic": {
        "NON_ALPHANUM_RE": re.compile(r"[^а-яёa-z0-9]+"),
        "VALID_TOKEN_RE": re.compile(r"^[а-яёa-z0-9]+$"),
    },
    "any letter": {"NON_ALPHANUM_RE": re.compile(r"[\W_]+"), "VALID_TOKEN_RE": re.compile(r"^\w+$")},
    "hyphens kept": {
        "NON_ALPHANUM_RE": re.compile(r"[^a-z0-9-]+"),
        "VALID_TOKEN_RE": re.compile(r"^[a-z0-9-]+$"),
    },
    "letters only": {"VALID_TOKEN_RE": re.compile(r"^[a-z]+$")},
    "split at e": {"SPACES_RE": re.compile(r"[\se]+")},
    "an equal copy": {"NON_ALPHANUM_RE": re.compile(r"[^a-z0-9]+", re.ASCII)},
}


@pytest.mark.parametrize("name", sorted(REPOINTED))
def test_repointed_patterns_score_as_rouge_score(repoint: Callable[..., None], name: str) -> None:
    repoint(**REPOINTED[name])
    for stem in (False, True):
        for target, prediction in random_pairs(hash(name) % 1000 + stem, 40):
            assert our_tokenize.tokenize(target, None) == their_tokenize.tokenize(target, None)
            theirs, ours, batch = both(TYPES, stem, target, prediction)
            assert ours == theirs and batch == theirs, (target, prediction)


def test_a_repointed_tokenize_function_is_called(repoint: Callable[..., None]) -> None:
    """rouge-score's DefaultTokenizer calls ``tokenize.tokenize`` by the module's attribute."""
    original = (their_tokenize.tokenize, our_tokenize.tokenize)
    repoint(tokenize=lambda text, stemmer: [w for w in text.lower().split() if w != "the"])
    assert their_tokenize.tokenize is not original[0] and our_tokenize.tokenize is not original[1]
    for target, prediction in random_pairs(5, 30):
        theirs, ours, batch = both(TYPES, False, target, prediction)
        assert ours == theirs and batch == theirs


def test_the_kernel_path_is_taken_with_the_default_patterns_only(
    repoint: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The patterns are looked at on each call: the kernel path while they are the module's own."""
    calls: list[int] = []
    kernel = our_scorer.RougeScorer._kernel_scores

    def counted(self: Any, *args: Any) -> Any:
        calls.append(1)
        return kernel(self, *args)

    monkeypatch.setattr(our_scorer.RougeScorer, "_kernel_scores", counted)
    scorer = our_scorer.RougeScorer(TYPES)
    pairs = list(random_pairs(9, 20))
    before = scorer.score_batch([t for t, _ in pairs], [p for _, p in pairs])
    assert len(calls) == 1
    repoint(NON_ALPHANUM_RE=re.compile(r"[^a-zа-я0-9]+"))
    scorer.score_batch([t for t, _ in pairs], [p for _, p in pairs])
    assert len(calls) == 1
    repoint(NON_ALPHANUM_RE=our_tokenize._OWN[0])
    assert scorer.score_batch([t for t, _ in pairs], [p for _, p in pairs]) == before
    assert len(calls) == 2


# -- what rouge-score raises for generators -------------------------------------------------


class GeneratorTokenizer:
    def tokenize(self, text: str) -> Any:
        return (w for w in text.split())


class MapTokenizer:
    def tokenize(self, text: str) -> Any:
        return map(str.lower, text.split())


class SetTokenizer:
    def tokenize(self, text: str) -> Any:
        return set(text.split())


TEXTS = [("a b", "a c"), ("", "a b"), ("a", "a"), ("", ""), ("a b\nc", "\n"), ("a\nb", "b\na")]
TYPE_LISTS = [["rouge1"], ["rouge2"], ["rouge3"], ["rougeL"], ["rougeLsum"], ["rouge1", "rougeLsum"]]


@pytest.mark.parametrize("tokenizer", [GeneratorTokenizer(), MapTokenizer(), SetTokenizer()], ids=type)
def test_tokens_rouge_score_cannot_measure_raise_its_type_error(tokenizer: Any) -> None:
    """A tokenizer returning a generator (or a set): rouge-score's TypeError at score(), where
    it raises one (rougeN and rougeL always, rougeLsum when both texts have sentences), else its
    scores, on every path of the drop-in."""
    for types_ in TYPE_LISTS:
        for target, prediction in TEXTS:
            theirs = their_scorer.RougeScorer(types_, tokenizer=tokenizer)
            ours = our_scorer.RougeScorer(types_, tokenizer=tokenizer)
            expected = outcome(theirs.score, target, prediction)
            batch = outcome(ours.score_batch, [target], [prediction])
            found = [
                outcome(ours.score, target, prediction),
                (batch[0], batch[1][0]) if batch[0] == "ok" else batch,
                outcome(ours.score_multi, [target], prediction),
            ]
            for got in found:
                assert got[0] == expected[0], (types_, target, prediction, got, expected)
                if expected[0] != "ok" or not isinstance(tokenizer, SetTokenizer):  # a set's order
                    assert got == expected, (types_, target, prediction)


def test_score_multi_reads_targets_from_any_iterable() -> None:
    """rouge-score scores each of ``targets`` in a list comprehension: a generator serves."""
    targets = ["the cat sat", "a dog", "the mat"]
    theirs = their_scorer.RougeScorer(TYPES).score_multi((t for t in targets), "the cat on the mat")
    assert our_scorer.RougeScorer(TYPES).score_multi((t for t in targets), "the cat on the mat") == theirs
    for types_ in (TYPES, []):
        expected = outcome(their_scorer.RougeScorer(types_).score_multi, iter([]), "a")
        assert outcome(our_scorer.RougeScorer(types_).score_multi, iter([]), "a") == expected


@pytest.mark.parametrize(
    "make",
    [
        lambda: (t for t in ["rouge1"]),
        lambda: iter(["rougeL", "rouge2"]),
        lambda: {"rouge1"},
        lambda: "rouge1",
    ],
    ids=["generator", "iterator", "set of one", "str"],
)
def test_rouge_types_as_rouge_score_reads_them(make: Callable[[], Any]) -> None:
    """Built without complaint, then at score() (and score_multi, score_batch) what rouge-score
    raises: a TypeError for a generator (no len()) or a set of one (no [0])."""
    for method, args in (
        ("score", ("a b", "a")),
        ("score_multi", (["a b", "a"], "a")),
        ("score_multi", ([], "a")),
    ):
        theirs = outcome(getattr(their_scorer.RougeScorer(make()), method), *args)
        assert outcome(getattr(our_scorer.RougeScorer(make()), method), *args) == theirs
        if theirs[0] == "TypeError":
            assert outcome(our_scorer.RougeScorer(make()).score_batch, ["a b"], ["a"]) == theirs


# -- exception classes users catch ----------------------------------------------------------------


def test_split_summaries_without_punkt_raises_a_lookup_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rouge-score lets nltk's LookupError through: the drop-in's error is one (and a UsageError)."""
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])  # no punkt model anywhere
    monkeypatch.delenv("NLTK_DATA", raising=False)
    target, prediction = "First one. Second one.", "Second one. First one."
    with pytest.raises(LookupError):
        their_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score(target, prediction)
    with pytest.raises(LookupError, match="punkt") as raised:
        our_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score(target, prediction)
    assert isinstance(raised.value, UsageError) and raised.value.exit_code == 2


def test_pyrouge_split_sentences_without_punkt_raises_a_lookup_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    monkeypatch.delenv("NLTK_DATA", raising=False)
    with pytest.raises(LookupError, match="Punkt") as raised:
        Rouge155().split_sentences()
    assert isinstance(raised.value, MissingResource) and raised.value.exit_code == 2


@pytest.mark.parametrize("dialect", [None, "rouge-score"])
def test_hf_unknown_rouge_types_raise_a_value_error(dialect: Any) -> None:
    """HF rouge builds rouge-score's scorer and lets its ValueError through; the module's errors
    are ValueErrors (and UsageErrors: exit 2) in both dialects."""
    with pytest.raises(ValueError, match="rouge_1"):
        their_scorer.RougeScorer(["rouge_1"]).score("a b", "a b")  # what HF's compute() calls
    for bad in (["rouge_1"], ["rouge0"], "rouge1", []):
        with pytest.raises(ValueError) as raised:
            compute(["a b"], ["a b"], rouge_types=bad, dialect=dialect)
        assert isinstance(raised.value, UsageError) and raised.value.exit_code == 2


def test_error_classes_keep_their_exit_codes() -> None:
    """Both new classes are UsageErrors: the command line's exit code for them stays 2."""
    assert issubclass(InvalidValue, ValueError) and issubclass(MissingResource, LookupError)
    assert InvalidValue("x").exit_code == MissingResource("x").exit_code == UsageError("x").exit_code == 2
    from rouge155py.metrics.names import UnknownName

    assert issubclass(UnknownName, KeyError) and issubclass(UnknownName, ValueError)


# -- rouge-score's io --------------------------------------------------------------------------


def run_io(
    module: Any, scorer_module: Any, scoring_module: Any, tmp: Path, aggregate: bool, **kw: Any
) -> str:
    np.random.seed(12)
    out = tmp / f"{module.__name__}.{aggregate}.csv"
    scorer = scorer_module.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    aggregator = scoring_module.BootstrapAggregator(n_samples=50) if aggregate else None
    module.compute_scores_and_write_to_csv(
        str(tmp / "t*.txt"), str(tmp / "p*.txt"), str(out), scorer, aggregator, **kw
    )
    return out.read_text(encoding="utf-8") if out.exists() else "(no file)"


@pytest.mark.filterwarnings("ignore:The 'warn' function is deprecated:DeprecationWarning")  # rouge-score's
def test_io_writes_rouge_scores_csv(tmp_path: Path) -> None:
    pairs = list(random_pairs(21, 12))
    for k in (0, 1):
        (tmp_path / f"t{k}.txt").write_text("".join(t.replace("\n", " ") + "\n" for t, _ in pairs[k::2]))
        (tmp_path / f"p{k}.txt").write_bytes(
            b"".join(p.replace("\n", " ").encode() + b"\r\n" for _, p in pairs[k::2])
        )
    for aggregate in (False, True):
        expected = run_io(their_io, their_scorer, their_scoring, tmp_path, aggregate)
        assert run_io(our_io, our_scorer, our_scoring, tmp_path, aggregate) == expected
    (tmp_path / "p1.txt").write_text("one record without its delimiter")
    for module, scorer_module in ((their_io, their_scorer), (our_io, our_scorer)):
        with pytest.raises(ValueError, match="equal number of lines"):
            run_io(module, scorer_module, our_scoring, tmp_path, False)
        with pytest.raises(ValueError, match="equal and positive number"):
            module.compute_scores_and_write_to_csv(
                str(tmp_path / "none*"), str(tmp_path / "p*"), "x", None, None
            )
    (tmp_path / "t1.txt").write_text("a:b:c:")
    (tmp_path / "p1.txt").write_text("a:c:b:")
    (tmp_path / "t0.txt").write_text("")
    (tmp_path / "p0.txt").write_text("")
    expected = run_io(their_io, their_scorer, their_scoring, tmp_path, False, delimiter=":")
    assert run_io(our_io, our_scorer, our_scoring, tmp_path, False, delimiter=":") == expected


# -- pltrdy's pyrouge fork: log_level=, stemming= -------------------------------------------------

# pyrouge/Rouge155.py of github.com/pltrdy/pyrouge (2020): its constructor's parameters.
FORK_PARAMETERS = [("rouge_dir", None), ("rouge_args", None), ("log_level", None), ("stemming", False)]


def test_rouge155_takes_the_forks_arguments() -> None:
    parameters = list(inspect.signature(Rouge155).parameters.values())
    assert [p.name for p in parameters] == [name for name, _ in FORK_PARAMETERS]
    assert Rouge155().stemming is True  # pyrouge 0.1.3's -m unless the fork's stemming= says
    assert Rouge155(stemming=False).stemming is False
    logger = Rouge155().log
    level = logger.level
    try:
        assert Rouge155(log_level=logging.ERROR).log.level == logging.ERROR
        assert Rouge155(log_level="WARNING").log.level == logging.WARNING
        for bad in ("LOUD", [1]):
            with pytest.raises(UsageError, match="log_level"):
                Rouge155(log_level=bad)
        with pytest.raises(UsageError, match="stemming"):
            Rouge155(stemming="yes")  # type: ignore[arg-type]
    finally:
        logger.setLevel(level)


def write_plain(root: Path) -> tuple[Path, Path]:
    """files2rouge's folders: s.N.txt and m.A.N.txt, words that only stemming matches."""
    systems, models = root / "system", root / "model"
    systems.mkdir(parents=True)
    models.mkdir()
    for n, (s, m) in enumerate([("the cats were running", "a cat runs"), ("flies flew", "the fly flies")]):
        (systems / f"s.{n}.txt").write_text(s + "\n", encoding="utf-8")
        (models / f"m.A.{n}.txt").write_text(m + "\n", encoding="utf-8")
    return systems, models


def perl_output(oracle: Any, tmp: Path, systems: Path, models: Path, args: list[str]) -> str:
    """The Perl on the HTML files and configuration pyrouge writes."""
    html = tmp / "html"
    Rouge155.convert_summaries_to_rouge_format(str(systems), str(html / "system"))
    Rouge155.convert_summaries_to_rouge_format(str(models), str(html / "model"))
    config = html / "conf.xml"
    Rouge155.write_config_static(
        str(html / "system"), r"s.(\d+).txt", str(html / "model"), "m.[A-Z].#ID#.txt", str(config), 1
    )
    done = oracle.run([*args, str(config)], cwd=tmp)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode("utf-8")  # type: ignore[no-any-return]


def test_files2rouge_and_summeval_calls_equal_the_perl(oracle: Any, tmp_path: Path) -> None:
    """files2rouge: ``Rouge155(rouge_dir=..., log_level=ERROR, stemming=...)``, its arguments
    with ``-e``; SummEval: ``Rouge155(rouge_dir=..., rouge_args=..., log_level=ERROR)``."""
    systems, models = write_plain(tmp_path / "plain")
    home = str(oracle.data_dir.parent)
    args = f"-e {oracle.data_dir} -c 95 -r 1000 -n 2 -a"
    outputs = {}
    for stemming in (True, False):
        r = Rouge155(rouge_dir=home, log_level=logging.ERROR, stemming=stemming)
        r.system_dir, r.model_dir = str(systems), str(models)
        r.system_filename_pattern, r.model_filename_pattern = r"s.(\d+).txt", "m.[A-Z].#ID#.txt"
        outputs[stemming] = r.convert_and_evaluate(rouge_args=args)
        expected = perl_output(
            oracle, tmp_path / str(stemming), systems, models, args.split() + ["-m"] * stemming
        )
        assert outputs[stemming] == expected
    assert outputs[True] != outputs[False]
    summeval = Rouge155(rouge_dir=home, rouge_args="-c 95 -r 1000 -n 2 -a", log_level=logging.ERROR)
    summeval.system_dir, summeval.model_dir = str(systems), str(models)
    summeval.system_filename_pattern, summeval.model_filename_pattern = r"s.(\d+).txt", "m.[A-Z].#ID#.txt"
    output = summeval.convert_and_evaluate(rouge_args=f"-e {summeval.data_dir} " + summeval.args)
    assert output == outputs[True]
