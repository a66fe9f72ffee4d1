"""A fuzz target for the Python API's arguments: every public entry point, arguments of every kind.

Each generated call to ``score``, ``Rouge``, ``Rouge.score``, ``evaluate_args``, an
accumulator's ``update``/``merge``/``compute``, ``Rouge155`` (its attributes and methods),
the batch functions and the Dask door (without a cluster) ends in a result or in a
documented exception with a message: a :class:`~rouge155py.errors.RougeError`, or the
``TypeError`` of an unknown keyword option. Any other exception (``KeyError``,
``AttributeError``, ``IndexError``, ``RecursionError``, a ``TypeError`` from deep
inside...) is an undocumented outcome, and so is a result, or an error other than a
``UsageError``, for arguments the API documents as refused (a set of summaries, a
DataFrame, a None summary, one string as a command line,
an option of the wrong kind). Every call is made,
then all undocumented outcomes are reported together, one line per entry point,
exception type and message.

``ROUGE155PY_API_FUZZ_EXAMPLES`` sets the number of generated calls (300 here);
``ROUGE155PY_API_FUZZ_SEED`` the seed. The tally of outcomes is printed.
"""

from __future__ import annotations

import gzip
import os
from collections import Counter
from pathlib import Path, PurePosixPath
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from rouge155py import (
    Options,
    Rouge,
    Rouge155,
    RougeAccumulator,
    RougeError,
    ScoredBatch,
    TextItem,
    UsageError,
    evaluate_args,
    score,
    score_batch,
    summarize_batches,
    text_items,
)
from rouge155py.api import OPTION_NAMES
from rouge155py.metrics.be import BE_MODES

from .support import DATA, REPO

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("ROUGE155PY_API_FUZZ_EXAMPLES", "300"))
SEED = int(os.environ.get("ROUGE155PY_API_FUZZ_SEED", "2024"))

CONFIG = "examples/duc-mini/rouge-config.xml"
FILE_LIST = "examples/duc-mini/filelist-spl.txt"
STOPWORDS = str(Path(DATA) / "smart_common_words.txt")


class Unprintable:
    """An object whose text cannot be had: ``str()``, ``repr()`` and ``format()`` raise."""

    def __str__(self) -> str:
        raise RuntimeError("no text")

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        raise RuntimeError("no text")


class FrameLike:
    """A stand-in for a pandas DataFrame: iterating it gives its column names."""

    def __iter__(self):
        return iter(["prediction", "reference"])

    def __len__(self) -> int:
        return 2

    def __getitem__(self, column: Any) -> list[str]:
        return ["the cat sat", "a dog ran"]


# --------------------------------------------------------------------------
# Values of every kind
# --------------------------------------------------------------------------

WORDS = "the cat sat on a mat dog ran fast cats running better".split()
SENTENCE = st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join)
SUMMARY = st.one_of(
    SENTENCE,
    st.lists(SENTENCE, min_size=1, max_size=3),
    st.lists(SENTENCE, min_size=1, max_size=3).map("\n".join),
    SENTENCE.map(lambda s: s.encode("utf-8")),
)
ODD = st.sampled_from(
    [
        None,
        float("nan"),
        float("inf"),
        -float("inf"),
        -1,
        -(10**30),
        10**30,
        10**400,
        2**63,
        0,
        1,
        2.0,
        True,
        "",
        "no",
        "2",
        b"\xff\xfe",
        np.int64(2),
        np.int32(-1),
        np.float64("nan"),
        np.float32(0.5),
        np.bool_(True),
        np.str_("the cat"),
        np.array(["the cat", "a dog"]),
        np.array([[1, 2], [3, 4]]),
        PurePosixPath("no/such/dir"),
        object(),
        range(3),
        {"a": 1},
        frozenset({"a", "b"}),
    ]
)
SCALARS = st.one_of(
    ODD,
    st.builds(Unprintable),
    st.builds(FrameLike),
    st.builds(pow, st.just(10), st.just(5000)),  # str() of it raises: more than 4300 digits
    st.none(),
    st.booleans(),
    st.integers(-5, 10),
    st.floats(-1e3, 1e3),
    st.text(max_size=12),
    st.binary(max_size=12),
    SENTENCE,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.sets(st.one_of(st.text(max_size=6), st.integers(0, 3)), max_size=3),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers(0, 3)), inner, max_size=3),
        st.lists(st.text(max_size=6), max_size=3).map(np.array),
    ),
    max_leaves=8,
)


def sometimes(valid: st.SearchStrategy[Any], wrong: st.SearchStrategy[Any] = VALUES) -> st.SearchStrategy:
    """Mostly a valid value (7 times in 8), else a value of any kind."""
    return st.sampled_from([True] * 7 + [False]).flatmap(lambda keep: valid if keep else wrong)


# Wrong option values as a user writes them: words and numbers in strings, half of the time.
WRONG_OPTION = st.one_of(st.sampled_from(["no", "yes", "2", "0.5", ""]), VALUES)


# Valid values of each option, kept small (a few resamples, one process).
VALID_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "max_ngram": st.integers(0, 4),
    "lcs": st.booleans(),
    "wlcs_weight": st.one_of(st.none(), st.floats(1.0, 2.0)),
    "skip_distance": st.one_of(st.none(), st.integers(-1, 4)),
    "skip_unigrams": st.booleans(),
    "skip_both": st.booleans(),
    "be_mode": st.one_of(st.none(), st.sampled_from(BE_MODES)),
    "stem": st.booleans(),
    "stem_models_only": st.booleans(),
    "stopwords": st.booleans(),
    "stopwords_file": st.one_of(st.none(), st.just(STOPWORDS)),
    "lang": st.one_of(st.none(), st.just("en")),
    "length_limit": st.integers(0, 20),
    "byte_limit": st.integers(0, 60),
    "alpha": st.floats(0.0, 1.0),
    "best_model": st.booleans(),
    "counting": st.sampled_from([0, 1, 2]),
    "confidence": st.floats(0.0, 100.0),
    "resamples": st.integers(1, 30),
    "per_eval": st.booleans(),
    "data_dir": st.one_of(st.none(), st.just(DATA)),
    "jobs": st.just(1),
    "verbose": st.booleans(),
    **dict.fromkeys(("wlcs_label", "skip_label", "confidence_label"), st.one_of(st.none(), st.just("1"))),
}
# Values that are right but slow here: more processes, millions of resamples.
SLOW = {"jobs": lambda v: isinstance(v, (int, np.integer)) and v > 1, "resamples": lambda v: _big(v, 1000)}


def _big(value: Any, limit: float) -> bool:
    """A number above ``limit`` (a value that is no number is kept: it is refused at once)."""
    try:
        return float(value) > limit
    except (TypeError, ValueError, OverflowError):
        return isinstance(value, int)


@st.composite
def options(draw: st.DrawFn) -> dict[str, Any]:
    """Keyword options: some of the known names, valid or not; now and then an unknown name."""
    names = draw(st.lists(st.sampled_from(OPTION_NAMES), max_size=5, unique=True))
    chosen = {}
    for name in names:
        value = draw(sometimes(VALID_OPTIONS.get(name, VALUES), WRONG_OPTION))
        chosen[name] = 1 if name in SLOW and SLOW[name](value) else value
    if draw(st.sampled_from([False] * 19 + [True])):
        chosen[draw(st.text(min_size=1, max_size=8))] = draw(VALUES)
    return chosen


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _as_set(items: list[Any]) -> set[str]:
    return {item for item in items if isinstance(item, str)}


def _as_array(items: list[Any]) -> Any:
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


class _Iterated:
    """An iterator over items (a generator's kind of argument) that keeps them for the checks."""

    def __init__(self, items: list[Any]) -> None:
        self.items = items
        self._next = iter(items)

    def __iter__(self) -> _Iterated:
        return self

    def __next__(self) -> Any:
        return next(self._next)


@st.composite
def texts(draw: st.DrawFn) -> tuple[Any, Any]:
    """Predictions and references: lists of the same length now and then spoiled, or anything."""
    count = draw(st.integers(0, 3))
    predictions = draw(st.lists(sometimes(SUMMARY), min_size=count, max_size=count))
    references = draw(
        st.lists(sometimes(st.one_of(SUMMARY, st.lists(SUMMARY, max_size=3))), min_size=count, max_size=count)
    )
    shape = draw(st.sampled_from([None] * 6 + [0, 1, 2, 3]))
    if shape == 0:
        predictions = draw(VALUES)
    elif shape == 1:
        references = draw(VALUES)
    elif shape == 2:
        keys = st.one_of(st.text(max_size=3), st.integers(0, 3), ODD.filter(_hashable))
        predictions = draw(st.dictionaries(keys, st.just(predictions), max_size=3))
    elif shape == 3:
        predictions = draw(st.sampled_from([tuple, _as_set, _as_array, _Iterated]))(predictions)
    return predictions, references


# --------------------------------------------------------------------------
# What the API documents as refused: a call with such an argument must not return a result
# --------------------------------------------------------------------------


def _flag(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def _whole(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _real(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _text(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _path(value: Any) -> bool:
    return value is None or isinstance(value, (str, os.PathLike))


ACCEPTED_KINDS: dict[str, Callable[[Any], bool]] = {
    **dict.fromkeys(("lcs", "skip_unigrams", "skip_both", "stem", "stem_models_only", "stopwords"), _flag),
    **dict.fromkeys(("best_model", "per_eval", "verbose"), _flag),
    **dict.fromkeys(("max_ngram", "counting", "jobs"), _whole),
    **dict.fromkeys(("length_limit", "byte_limit", "alpha", "resamples", "confidence"), _real),
    **dict.fromkeys(("wlcs_weight", "skip_distance"), lambda v: v is None or _real(v)),
    **dict.fromkeys(("lang", "wlcs_label", "skip_label", "confidence_label"), _text),
    **dict.fromkeys(("data_dir", "stopwords_file"), _path),
    "be_mode": lambda v: v is None or (isinstance(v, str) and v in BE_MODES),
}


def refused_options(chosen: dict[str, Any]) -> bool:
    """An option of a kind it never takes."""
    return any(name in ACCEPTED_KINDS and not ACCEPTED_KINDS[name](v) for name, v in chosen.items())


def _summary(value: Any) -> bool:
    if isinstance(value, (str, bytes, bytearray)):
        return True
    return isinstance(value, (list, tuple)) and all(isinstance(sentence, str) for sentence in value)


def _entries(value: Any) -> list[Any] | None:
    """The entries of an ordered iterable the API takes for a side (a list, a tuple, a 1-D array,
    an iterator), or None for a kind it refuses (a set, a mapping, a string, a number...)."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return list(value)
    return value.items if isinstance(value, _Iterated) else None


def refused_texts(predictions: Any, references: Any) -> bool:
    """Predictions or references of a kind they never are (a set, a None summary...)."""
    if isinstance(predictions, dict):
        lists = [_entries(items) for items in predictions.values()]
    else:
        lists = [_entries(predictions)]
    if not all(items is not None and all(map(_summary, items)) for items in lists):
        return True
    entries = _entries(references)
    if entries is None:
        return True
    return not all(
        _summary(entry) or (isinstance(entry, (list, tuple)) and all(map(_summary, entry)))
        for entry in entries
    )


# --------------------------------------------------------------------------
# The entry points
# --------------------------------------------------------------------------


Call = Callable[[], Any]
Planned = tuple[Call, bool]  # the call, and whether the API must refuse its arguments


def call_score(draw: st.DrawFn, where: Path) -> Planned:
    predictions, references = draw(texts())
    chosen = draw(options())
    refused = refused_texts(predictions, references) or refused_options(chosen)
    return lambda: score(predictions, references, **chosen), refused


def call_rouge(draw: st.DrawFn, where: Path) -> Planned:
    chosen = draw(options())
    return lambda: Rouge(**chosen), refused_options(chosen)


def call_rouge_score(draw: st.DrawFn, where: Path) -> Planned:
    rouge = Rouge(max_ngram=2, resamples=10, **draw(st.sampled_from([{}, {"stem": True}, {"counting": 1}])))
    predictions, references = draw(texts())
    return lambda: rouge.score(predictions, references), refused_texts(predictions, references)


def call_accumulator(draw: st.DrawFn, where: Path) -> Planned:
    rouge = Rouge(max_ngram=2, resamples=10, **draw(st.sampled_from([{}, {"stem": True}, {"counting": 1}])))
    predictions, references = draw(texts())
    ids = draw(st.one_of(st.none(), st.lists(st.integers(-1, 5), max_size=4), VALUES))
    other = draw(st.one_of(st.none(), st.just(rouge.accumulator()), VALUES))
    accumulator = rouge.accumulator()

    def run() -> Any:
        accumulator.update(predictions, references, ids=ids)
        if other is not None:
            accumulator.merge(other)
        return accumulator.compute()

    wrong = other is not None and not isinstance(other, RougeAccumulator)
    return run, refused_texts(predictions, references) or wrong


TOKENS = [
    "-a", "-n", "2", "-m", "-M", "-s", "-x", "-2", "4", "-1", "-u", "-U", "-r", "10", "-c", "95",
    "-e", DATA, "-z", "SPL", CONFIG, FILE_LIST, "--json", "-d", "-t", "1", "-l", "10", "-b", "30",
    "-3", "HM", "-f", "B", "-p", "0.3", "-w", "1.2", "--format", "csv", "--hyp", "--ref", "--sep",
    "<q>", "-v", "--signature", "--", "-h", "--version", "--make-home", "--lang", "de", "--stopwords",
    STOPWORDS, "-", "1", "SYS1", "nan", "1e400", "--bogus",
]  # fmt: skip


# Options that make a valid command line with "-a -r 10 CONFIG".
FLAGS = [
    ["-m"], ["-s"], ["-2", "4"], ["-u"], ["-U"], ["-d"], ["-l", "10"], ["-b", "40"], ["-f", "B"],
    ["-p", "0.3"], ["-w", "1.2"], ["--json"], ["-t", "1"], ["-x"], ["-n", "3"], ["-e", DATA], ["-M"],
    ["--format", "csv"], ["-c", "90"], ["-s", "--stopwords", STOPWORDS],
]  # fmt: skip


def call_evaluate_args(draw: st.DrawFn, where: Path) -> Planned:
    flags = st.lists(st.sampled_from(FLAGS), max_size=4).map(lambda f: [arg for flag in f for arg in flag])
    valid = flags.map(lambda f: [*f, "-a", "-r", "10", CONFIG])
    argv = draw(
        st.one_of(
            valid,
            valid,
            st.lists(st.sampled_from(TOKENS), max_size=10).map(lambda a: [*a, "-r", "10"]),
            st.lists(st.one_of(st.sampled_from(TOKENS), SCALARS), max_size=6),
            st.sampled_from(TOKENS).map(lambda t: f"-a -r 10 {t} {CONFIG}"),
            VALUES,
        )
    )
    listed = isinstance(argv, (list, tuple)) and all(isinstance(arg, (str, os.PathLike)) for arg in argv)
    return lambda: evaluate_args(argv), not listed


def _pyrouge_dirs(where: Path) -> tuple[str, str]:
    systems, models = where / "systems", where / "models"
    if not systems.exists():
        systems.mkdir()
        models.mkdir()
        for doc in ("1", "2"):
            (systems / f"sys.{doc}.txt").write_text("the cat sat on the mat\nit ran\n")
            (models / f"ref.A.{doc}.txt").write_text("a cat sat on a mat\n")
    return str(systems), str(models)


def call_rouge155(draw: st.DrawFn, where: Path) -> Planned:
    systems, models = _pyrouge_dirs(where)
    home = draw(sometimes(st.none()))
    args = draw(sometimes(st.sampled_from([None, f"-e {DATA} -n 2 -r 10 -a", '"-n 1 -r 5 -a -m"'])))
    dirs = (draw(sometimes(st.just(systems))), draw(sometimes(st.just(models))))
    patterns = (draw(sometimes(st.just(r"sys.(\d+).txt"))), draw(sometimes(st.just("ref.[A-Z].#ID#.txt"))))
    method = draw(st.sampled_from(["evaluate", "convert_and_evaluate", "output_to_dict", "convert_text"]))
    system_id, rouge_args = draw(sometimes(st.just(1))), draw(sometimes(st.none()))
    text, title = draw(sometimes(SENTENCE)), draw(sometimes(st.just("t")))

    def run() -> Any:
        r = Rouge155(rouge_dir=home, rouge_args=args)
        r.system_dir, r.model_dir = dirs
        r.system_filename_pattern, r.model_filename_pattern = patterns
        if method == "output_to_dict":
            return r.output_to_dict(text)
        if method == "convert_text":
            return r.convert_text_to_rouge_format(text, title)
        if method == "evaluate":
            return r.evaluate(system_id, rouge_args)
        return r.convert_and_evaluate(system_id, False, rouge_args)

    wrong = [
        not _path(home),
        not _text(args),
        not all(isinstance(d, (str, os.PathLike)) for d in dirs),
        method in ("evaluate", "convert_and_evaluate") and not all(isinstance(p, str) for p in patterns),
        method == "output_to_dict" and not isinstance(text, str),
        method == "convert_text" and not (isinstance(text, str) and isinstance(title, str)),
        method in ("evaluate", "convert_and_evaluate") and not _text(rouge_args),
        # pyrouge writes ``system_id or 1``: None is its default system ID, not a mistake.
        method in ("evaluate", "convert_and_evaluate")
        and not (system_id is None or isinstance(system_id, (str, int, float))),
    ]
    return run, any(wrong)


GOOD_BATCH = st.just(None).map(
    lambda _: score_batch([TextItem(0, "the cat", "a cat")], Rouge(max_ngram=1, resamples=10))
)


def call_batches(draw: st.DrawFn, where: Path) -> Planned:
    chosen = draw(sometimes(st.sampled_from([Rouge(max_ngram=1, resamples=10), Rouge(resamples=5).options])))
    kind = draw(st.sampled_from(["text_items", "score_batch", "summarize_batches"]))
    predictions, references = draw(texts())
    if kind == "text_items":
        return lambda: text_items(predictions, references), False
    items = draw(
        st.one_of(
            st.lists(st.tuples(sometimes(st.integers(0, 5)), SUMMARY, SUMMARY).map(lambda t: TextItem(*t))),
            st.lists(st.tuples(sometimes(st.integers(0, 5)), VALUES, VALUES), max_size=3),
            st.lists(VALUES, max_size=3),
            VALUES,
        )
    )
    if kind == "score_batch":
        return lambda: score_batch(items, chosen), not isinstance(chosen, (Rouge, Options))
    good = draw(GOOD_BATCH)
    batches = draw(st.one_of(st.just([good]), st.lists(VALUES, max_size=2).map(lambda b: [good, *b]), VALUES))
    peer_ids = draw(st.one_of(st.just(()), VALUES))
    wrong = [
        not isinstance(chosen, (Rouge, Options)),
        not _iterable_of(batches, ScoredBatch),
        not _iterable_of(peer_ids, str),
    ]
    return lambda: summarize_batches(batches, chosen, peer_ids), any(wrong)


def _iterable_of(values: Any, kind: type) -> bool:
    """An iterable (not a string) of values of that kind."""
    if isinstance(values, (str, bytes)) or not hasattr(type(values), "__iter__"):
        return False
    return all(isinstance(value, kind) for value in values)


def call_dask(draw: st.DrawFn, where: Path) -> Planned:
    from rouge155py.dask import score_on_cluster

    items = draw(st.one_of(st.just([]), st.just([[TextItem(0, "a b", "a c")]]), VALUES))
    chosen = draw(sometimes(st.just(Rouge(max_ngram=1, resamples=10))))
    client, peer_ids = draw(st.one_of(st.none(), VALUES)), draw(st.one_of(st.just(()), VALUES))
    return lambda: score_on_cluster(items, chosen, client=client, peer_ids=peer_ids), True  # no cluster


# --------------------------------------------------------------------------
# The rim: statistics, tables, plots, ParaEval and its tables
# --------------------------------------------------------------------------

#: System IDs that break formats: math text, table syntax, formulas, newlines, a lone surrogate.
ODD_SYSTEMS = ["A", "$x^$", "B|c", "=HYPERLINK(1)", "d\ne", "<b>h</b>", "\\foo{", "s\ud800", "10"]
_REPORTS: dict[tuple[int, int], Any] = {}


def _report(systems: int, items: int) -> Any:
    """A small report of ``systems`` systems on ``items`` evals (made once)."""
    if (systems, items) not in _REPORTS:
        words = WORDS * 3
        predictions = {
            ODD_SYSTEMS[s]: [" ".join(words[s + i : s + i + 5]) for i in range(items)] for s in range(systems)
        }
        references = [" ".join(words[i + 1 : i + 7]) for i in range(items)]
        _REPORTS[systems, items] = score(predictions, references, max_ngram=2, resamples=20)
    return _REPORTS[systems, items]


REPORTS = st.tuples(st.integers(1, 4), st.sampled_from([1, 2, 3, 7])).map(lambda k: _report(*k))
#: Scores as they come from other metrics: ties within noise, NaN, infinities, huge and tiny values.
SCORE = st.one_of(
    st.floats(0, 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1000.0, 1000.0 * (1 + 1e-12), 1e308, -1e308, 5e-324, float("nan")]),
    st.integers(-(10**20), 10**20),
)
ITEM = st.one_of(st.text(max_size=4), st.integers(0, 50), st.sampled_from(ODD_SYSTEMS))
MEASURE = sometimes(st.sampled_from(["f", "r", "p", "F", "R", "recall", "precision"]), WRONG_OPTION)


def _real_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def _item_scores_wrong(scores: Any) -> bool:
    """Not metric -> system -> item -> real number."""
    if not isinstance(scores, dict):
        return True
    for systems in scores.values():
        if not isinstance(systems, dict):
            return True
        for items in systems.values():
            if not isinstance(items, dict) or not all(map(_real_number, items.values())):
                return True
    return False


@st.composite
def item_scores(draw: st.DrawFn) -> Any:
    items = draw(st.lists(ITEM, min_size=0, max_size=6, unique_by=str))
    systems = draw(st.lists(st.sampled_from(ODD_SYSTEMS), min_size=0, max_size=4, unique=True))
    valid = {"ROUGE-1": {s: {i: draw(SCORE) for i in items} for s in systems}}
    if len(systems) > 1 and draw(st.booleans()):  # the second system: the first's scores and noise
        noise = draw(st.sampled_from([1e-12, -1e-13, 1e-15, 0.0]))
        first = valid["ROUGE-1"][systems[0]]
        valid["ROUGE-1"][systems[1]] = {
            i: v * (1 + noise) if _real_number(v) else v for i, v in first.items()
        }
    return draw(sometimes(st.just(valid)))


def no_conclusion_from_noise(found: Any, level: float) -> Any:
    """The comparisons, after checking none is made of NaN or calls noise significant."""
    for row in found.rows:
        numbers = (row.mean, row.other_mean, row.difference, row.low, row.high, row.p_value, row.p_holm)
        if not all(map(np.isfinite, numbers)):
            raise AssertionError(f"a comparison with a non-finite number: {row}")
        noise = 1e-9 * max(abs(row.mean), abs(row.other_mean))
        if row.significant(level) and abs(row.difference) <= noise:
            raise AssertionError(f"noise called significant: {row}")
        if row.significant(level) and row.items < 2:
            raise AssertionError(f"a significant difference on one item: {row}")
    return found


def call_compare_items(draw: st.DrawFn, where: Path) -> Planned:
    from rouge155py.stats.significance import CompareSettings, compare_items

    scores = draw(item_scores())
    baseline = draw(st.one_of(st.none(), st.sampled_from(ODD_SYSTEMS), VALUES))
    test = draw(sometimes(st.sampled_from(["paired-bootstrap", "permutation"])))
    samples = draw(sometimes(st.integers(1, 300)))
    level = draw(sometimes(st.floats(0, 1)))
    measure = draw(MEASURE)

    def run() -> Any:
        found = compare_items(scores, measure, baseline, CompareSettings(test, samples, 7, 95.0, level))
        return no_conclusion_from_noise(found, level)

    return run, _item_scores_wrong(scores)


def call_compare(draw: st.DrawFn, where: Path) -> Planned:
    from rouge155py.stats import compare

    report = draw(REPORTS)
    chosen = {
        "test": draw(sometimes(st.sampled_from(["paired-bootstrap", "permutation"]))),
        "baseline": draw(st.one_of(st.none(), st.sampled_from(ODD_SYSTEMS))),
        "measure": draw(MEASURE),
        "metrics": draw(st.one_of(st.none(), st.just(["ROUGE-2"]), st.just(["ROUGE-9"]))),
        "samples": draw(sometimes(st.integers(1, 300))),
        "seed": draw(sometimes(st.integers(0, 2**62))),
        "confidence": draw(sometimes(st.floats(50, 99.9))),
    }
    return lambda: no_conclusion_from_noise(compare(report, **chosen), 0.05), False


# Judgment files: CSV or JSONL rows with numbers as files hold them, good and bad.
CELL = st.one_of(
    st.floats(0, 5).map(repr),
    st.sampled_from(["1_0", "nan", "inf", "1e308", "-1e308", "1" * 400, "0x10", " 2 ", "", "\ufeff3", "3,5"]),
    st.text(max_size=5),
)
JUDGMENT_ROW = st.tuples(st.sampled_from(["1", "2", "3", "4"]), st.sampled_from(ODD_SYSTEMS[:4]), CELL, CELL)


def _judgment_file(rows: list[tuple[str, str, str, str]], jsonl: bool, extra: str) -> str:
    if jsonl:
        lines = ['{{"item": "{}", "system": "{}", "resp": {}, "coh": {}}}'.format(*row) for row in rows]
    else:
        lines = ["item,system,resp,coh"] + [",".join(row) for row in rows]
    return "\n".join(lines) + extra


@st.composite
def judgment_text(draw: st.DrawFn) -> tuple[str, str]:
    jsonl = draw(st.booleans())
    full = [
        (i, s, f"{(ord(s[0]) * 7 + int(i)) % 5}.{i}", f"{int(i) % 3}") for i in "123" for s in ODD_SYSTEMS[:4]
    ]
    rows = draw(st.one_of(st.just(full), st.lists(JUDGMENT_ROW, max_size=8)))
    extra = draw(st.sampled_from(["\n", "", "\n" + "[" * 50_000 + "\n", "\n1," + "x" * 140_000 + "\n"]))
    return ("j.jsonl" if jsonl else "j.csv"), _judgment_file(rows, jsonl, extra)


def call_judgments(draw: st.DrawFn, where: Path) -> Planned:
    from rouge155py.stats import correlate, read_judgments
    from rouge155py.stats.correlation import report_variants

    name, text = draw(judgment_text())
    report = draw(REPORTS)
    path = where / name
    path.write_text(text, "utf-8", "surrogatepass")
    levels = draw(st.one_of(st.none(), st.just(["system"]), st.just(["summary", "global"]), st.just(["x"])))

    def run() -> Any:
        judgments = read_judgments(path)
        return correlate(report_variants(report), judgments, levels=levels)

    return run, False


def call_tables(draw: st.DrawFn, where: Path) -> Planned:
    from rouge155py.stats import compare
    from rouge155py.stats.tables import comparisons_table, systems_table

    report = draw(REPORTS)
    fmt = draw(sometimes(st.sampled_from(["markdown", "latex", "text", "csv"])))
    measure = draw(MEASURE)
    with_comparisons = draw(st.booleans())

    def run() -> Any:
        table = (
            comparisons_table(compare(report, samples=50), fmt)
            if with_comparisons
            else systems_table(report, fmt, measure)
        )
        table.encode("utf-8")  # a lone surrogate must have been escaped
        return table

    return run, False


def call_plots(draw: st.DrawFn, where: Path) -> Planned:
    from rouge155py.stats import read_judgments
    from rouge155py.stats.plots import plot_scatter, plot_systems

    report = draw(REPORTS)
    target = where / draw(st.sampled_from(["p.png", "p.svg", "p.pdf", "no/such/p.png"]))
    measure = draw(MEASURE)
    scatter = draw(st.booleans())
    name, text = draw(judgment_text())
    path = where / name
    path.write_text(text, "utf-8", "surrogatepass")

    def run() -> Any:
        if scatter:
            return plot_scatter(report, read_judgments(path), target, measure)
        return plot_systems(report, target, measure)

    return run, False


# Paraphrase tables: good lines, lines that are not pairs, a phrase matching every word.
TABLE_LINE = st.one_of(
    st.tuples(st.sampled_from(WORDS), st.sampled_from(WORDS)).map(lambda p: f"{p[0]}\t{p[1]}"),
    st.tuples(SENTENCE, SENTENCE).map(lambda p: f"{p[0]}\t{p[1]}"),
    st.sampled_from(["", "a", "a\tb\tc", "\t", "a b\t", "x" * 3000 + "\tcat", "cat\tcat"]),
    st.text(max_size=10),
)


def call_paraeval(draw: st.DrawFn, where: Path) -> Planned:
    lines = draw(st.lists(TABLE_LINE, max_size=6))
    table = where / draw(st.sampled_from(["t.tsv", "t.tsv.gz"]))
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if table.suffix == ".gz":
        data = gzip.compress(data, mtime=0) if draw(st.booleans()) else data[: len(data) // 2] + b"\x1f\x8b"
    table.write_bytes(data)
    predictions, references = draw(texts())
    variants = draw(sometimes(st.sampled_from(["1", "2", "3", "123"])))
    refused = refused_texts(predictions, references) or not (isinstance(variants, str) and variants.isdigit())

    def run() -> Any:
        return score(predictions, references, max_ngram=1, resamples=10, paraphrases=table,
                     paraeval_variants=variants)  # fmt: skip

    return run, refused and not isinstance(variants, str)


def call_pivot(draw: st.DrawFn, where: Path) -> Planned:
    from rouge155py.metrics.paraphrases import pivot

    moses = st.tuples(
        st.sampled_from(WORDS), st.sampled_from(["f1", "f2"]), st.lists(SCORE.map(str), max_size=4)
    )
    lines = draw(
        st.lists(
            st.one_of(moses.map(lambda m: f"{m[0]} ||| {m[1]} ||| {' '.join(m[2])}"), st.text(max_size=8))
        )
    )
    threshold = draw(sometimes(st.floats(0, 1)))
    return lambda: pivot(iter(line.encode("utf-8", "surrogatepass") for line in lines), threshold), False


TARGETS: dict[str, Callable[[st.DrawFn, Path], Planned]] = {
    "score": call_score,
    "Rouge": call_rouge,
    "Rouge.score": call_rouge_score,
    "Rouge.accumulator": call_accumulator,
    "evaluate_args": call_evaluate_args,
    "Rouge155": call_rouge155,
    "batches": call_batches,
    "score_on_cluster": call_dask,
    "stats.compare_items": call_compare_items,
    "stats.compare": call_compare,
    "stats.judgments": call_judgments,
    "stats.tables": call_tables,
    "stats.plots": call_plots,
    "paraeval": call_paraeval,
    "paraphrases.pivot": call_pivot,
}


def outcome(error: BaseException, target: str, refused: bool) -> str | None:
    """``None`` for an undocumented exception, else how the call ended.

    Arguments the API refuses are a ``UsageError`` naming them (or the unknown
    option's ``TypeError``); pyrouge's door keeps pyrouge's own errors for a
    directory that does not exist, which may come first.
    """
    message = str(error)
    if isinstance(error, TypeError) and "got an unexpected keyword argument" in message:
        return "TypeError (unknown option)"
    if not isinstance(error, RougeError) or not message:
        return None
    pyrouges = target == "Rouge155" and message.startswith("Cannot set ")
    if refused and not isinstance(error, UsageError) and not pyrouges:
        return None  # e.g. a command line given as one string, read as a file named "-"
    return type(error).__name__


@pytest.mark.filterwarnings("error::RuntimeWarning")  # numpy overflow, figures left open
def test_every_api_call_ends_in_a_result_or_a_documented_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)  # the example configuration names its files from here
    for name in ("ROUGE_EVAL_HOME", "RED_EVAL_HOME"):
        monkeypatch.delenv(name, raising=False)
    tally: Counter[str] = Counter()
    undocumented: dict[tuple[str, str, str], int] = {}

    @seed(SEED)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def call(data: st.DataObject) -> None:
        target = data.draw(st.sampled_from(sorted(TARGETS)), label="entry point")
        made, refused = TARGETS[target](data.draw, tmp_path)
        try:
            made()
        except Exception as error:  # every exception is sorted: that is the point
            ended = outcome(error, target, refused)
            if ended is None:
                first = (str(error).splitlines() or [""])[0][:100]
                key = (target, type(error).__name__, first)
                undocumented[key] = undocumented.get(key, 0) + 1
                ended = "UNDOCUMENTED"
            tally[f"{target}: {ended}"] += 1
        else:
            if refused:  # a set scored in hash order, a DataFrame as its column names...
                key = (target, "no error", "a result for arguments the API refuses")
                undocumented[key] = undocumented.get(key, 0) + 1
            tally[f"{target}: {'ACCEPTED REFUSED ARGUMENTS' if refused else 'result'}"] += 1

    call()
    with capsys.disabled():
        print(f"\n{sum(tally.values())} calls, {sum(undocumented.values())} undocumented outcomes")
        for name, count in sorted(tally.items()):
            print(f"  {count:6d}  {name}")
    report = [f"{n}x {target}: {kind}: {message}" for (target, kind, message), n in undocumented.items()]
    assert not undocumented, "\n".join(report)
    assert sum(tally.values()) >= EXAMPLES * 0.9  # what was asked for, give or take a repeat
