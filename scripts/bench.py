#!/usr/bin/env python3
"""Benchmark rouge155py against ROUGE-1.5.5.pl on generated DUC-like and CNN-like workloads.

    python scripts/bench.py                              # everything below, Perl and rouge155py
    python scripts/bench.py --only cnn-1000,resamples
    python scripts/bench.py --skip-perl --only cnn-scaling
    python scripts/bench.py --only duc-full,cnn-test --jobs 2
    python scripts/bench.py --scale 0.1                  # a tenth of every corpus, a quick look
    python scripts/bench.py --only api-vs-rouge-score --repeat 3

Both programs run on the same machine in the same call, one process each (rouge155py
without ``-j``); their outputs must be byte-identical. The Perl is the one
``python tests/reference/oracle.py --install`` installs (the bench runs that first). Full options are
``-a -c 95 -r 1000 -n 4 -w 1.2 -2 4 -U -m``; DUC's official options are
``-a -n 2 -x -m -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0``. A pair is a peer summary
in an eval (evals x systems): the time per pair is the run's wall time divided by
that number. Each command runs under a small Python wrapper that times it from its
start to its end (the wrapper's own start is not counted: about 25 ms, a tenth of a
small run) and reports the peak resident memory of the largest process it waited for
(``ru_maxrss`` of its children), so a ``-j`` run reports its largest process, not the sum. Before each
timed run, every file of its corpus is read once: this machine's kernel drops pages
nobody read for a while, and the program that ran first would otherwise also pay for
reading the disk.

Selections (``--only``, comma-separated; without it, all of them run, in this order):

  duc-full        DUC-like: 50 evals x 30 systems x 4 models of about 100 words, SEE
                  files; full options (1,500 pairs).
  duc-official    the same corpus with DUC's official options.
  cnn-1000        CNN-like: 1,000 single-reference pairs of about 60 words, SPL files;
                  full options.
  cnn-full        5,000 such pairs.
  cnn-test        11,490 such pairs (the size of the CNN/DailyMail test set).
  scaling         the DUC-like corpus at 10 / 25 / 50 evals (30 systems), full
                  options: time per pair (the Perl on every step).
  cnn-scaling     the CNN-like corpus at 1,000 / 11,490 / 100,000 pairs, full options
                  (the Perl on the first two only): per step the time, the time per
                  pair and its ratio to the 11,490-pair run's, the peak memory; then
                  the 100,000-pair run's per-pair time against the 11,490-pair run's
                  (acceptance: within 1.2x) and its peak memory against the Perl's
                  peak on the 11,490-pair run (acceptance: below it).
  resamples       rouge155py on examples/duc-mini/rouge-config.xml with
                  ``-a -n 2 -r 1000000`` and ``-a -n 2 -r 1000``: time and peak memory
                  of both, and the ratio of the peaks (acceptance: at most 1.5x).
  judgments       the correlations with human judgments: a generated DUC-like judged run
                  (50 inputs x 30 systems x 4 models of 100 words, two judgments;
                  scripts/make_judgments_example.py) with ``-a -n 2 -m -2 4 -U -w 1.2``,
                  alone and with ``--judgments`` (every variant, level and coefficient,
                  1,000 resamples): the times and their ratio (acceptance: at most 10x).
  api-vs-rouge-score  the Python API against rouge-score (see below).
  api-vs-rust     the Python API against the Rust ports (see below), at 11,490, 100,000
                  and 1,000,000 pairs (``--rust-pairs``): the Perl dialect's time per pair
                  at the largest size against the smallest (acceptance: at most 1.15x),
                  the rouge-score dialect against rouge-score-rs (at least 4x at every
                  size), the Perl dialect without stemming against fast_rouge (2x).
  loop            scripts/bench_rouge_score.py: the rouge-score dialect's ``score()`` called
                  once per pair against rouge-score-rs's, with and without stemming
                  (acceptance: at least 1.5x), and one call on a 6-word pair (3 us).
  floor           scripts/bench_floor.py: ``score_batch`` against a plain C program doing the
                  same work, compiled with the kernel's flags (acceptance: at most 1.3x).
  paraeval        scripts/bench_paraeval.py on 11,490 pairs with a 100,000-pair table:
                  ParaEval-3 against ROUGE-1 of the same run (acceptance: at most 3x).
  cli-jsonl       the command line ``-a -c 95 -r 1000 -n 2 -m --jsonl FILE`` on 1,000,000
                  CNN-like pairs (``--cli-pairs``; the file is written once under
                  bench-work/): time and peak memory (acceptance: at most 150 MB).

Each workload prints one row: evals, pairs, the Perl's and rouge155py's wall time
and the speed ratio (Perl / rouge155py), both times per pair (ms), both peak
memories and their ratio, and whether the outputs are identical. A command already
measured in the call (same program, configuration and options) is not run again:
cnn-scaling reuses the cnn-1000 and cnn-test rows, scaling the duc-full row. The run
ends with the acceptance figures it measured: the speed ratios, the cnn-scaling and
resamples verdicts, and the ``-j`` speed-ups as a share of the machine's ceiling.
The exit status is 1 when an output differs from the Perl's or a run fails.

``--jobs N`` times ``-j N`` against ``-j 1`` in alternating pairs (``--pairs``) on
each selected workload and quotes the median of the per-pair ratios, beside the
machine's own ceiling (N CPU-bound processes at once against one after the other)
and as a percentage of that ceiling (speed-up / ceiling).

``--scale`` multiplies the number of evals of every corpus (the CNN-like steps
included; not the resamples example).

Workloads are generated with a seeded generator into ``bench-work/`` (git-ignored),
one directory per corpus and size, with a ``complete`` marker written last: a
complete directory is reused, an incomplete one is generated again. Words are
Zipf-distributed and English-like (made-up stems with real suffixes, so that
stemming matters, and the SMART stopwords as function words, about 40% of the
words), sentences have 8 to 30 words, and peers copy and perturb part of their
models' sentences. The sizes of one corpus are prefixes of one seeded stream: the
first 1,000 CNN-like pairs are the same at every size. 100,000 CNN-like pairs
(200,000 SPL files and a 30 MB configuration) take about 15 seconds to generate.

``api-vs-rouge-score`` times the Python API against rouge-score (0.1.2) on the
11,490 pairs of the cnn-test corpus, held in memory as lists of strings (one per
summary, its sentences joined by newlines; written once to
``bench-work/cnn-spl-11490-texts.json``). rouge-score: ``RougeScorer`` with rouge1,
rouge2, rougeL and rougeLsum, stemming, every pair fed to a ``BootstrapAggregator``
(1000 samples, 95%) and aggregated. rouge155py: ``rouge155py.score`` with ROUGE-1,
ROUGE-2, ROUGE-L, stemming, 1000 resamples, 95%, and ``to_legacy()``. Each side
runs in its own process (``--repeat`` times, alternating) and times itself from the
lists to the finished results; the bench reports that time, the import time, the
process's wall time and peak memory (medians; the largest peak), and the ratios
rouge-score / rouge155py.

``api-vs-rust`` times, each in its own process, from the lists of strings (CNN-like
pairs in memory, 11,490 and 100,000 of them) to the per-item scores, on one thread and
on two; every side first imports its module and makes its scorer (its "setup", printed
apart, as the Rust ports' imports and ``RougeScorer`` are made before their call):
``Rouge(...).score`` (the Perl dialect: ROUGE-1, ROUGE-2, ROUGE-L, 1,000
resamples; with stemming, and without; ``jobs=2`` on threads, and on worker processes
for comparison), rouge-score-rs ``score_batch`` (rouge1, rouge2, rougeLsum, stemming;
``RAYON_NUM_THREADS`` threads), rouge-rust's ``fast_rouge.score_batch_flat`` (no stemming),
and ``rouge155py.rouge_score``'s ``score_batch`` where that module exists. The Rust
ports are the ``bench`` extra (``pip install rouge155py[bench]``). Runs alternate,
``--repeat`` times; medians, the largest peak memory of each, the ratios the acceptance
asks for, and the machine's ceiling (two CPU-bound processes at once against one after
the other) measured in the same call.
"""

from __future__ import annotations

import argparse
import compileall
import importlib
import importlib.util
import itertools
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

REPO = Path(__file__).resolve().parent.parent
#: Installs the reference Perl and prints where it is; the tests' own, run as a program.
ORACLE = REPO / "tests" / "reference" / "oracle.py"

FULL = "-a -c 95 -r 1000 -n 4 -w 1.2 -2 4 -U -m"
OFFICIAL = "-a -n 2 -x -m -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0"


@dataclass(frozen=True)
class Corpus:
    """A generated evaluation stream: per eval `systems` peers and `models` models of about
    `words` words, written as SEE or SPL files; up to `evals` evals are used. The sizes are
    prefixes of one seeded stream."""

    name: str
    evals: int
    systems: int
    models: int
    words: int
    seed: int
    format: str


@dataclass(frozen=True)
class Workload:
    name: str
    corpus: Corpus
    evals: int
    options: str


DUC = Corpus("duc-see", 50, 30, 4, 100, 1, "SEE")
CNN = Corpus("cnn-spl", 100000, 1, 1, 60, 2, "SPL")
CORPORA = {"duc": DUC, "cnn": CNN}
WORKLOADS = [
    Workload("duc-full", DUC, 50, FULL),
    Workload("duc-official", DUC, 50, OFFICIAL),
    Workload("cnn-1000", CNN, 1000, FULL),
    Workload("cnn-full", CNN, 5000, FULL),
    Workload("cnn-test", CNN, 11490, FULL),
]
SCALING = [10, 25, 50]  # evals of the DUC-like corpus, 30 systems each, full options
CNN_SCALING = [1000, 11490, 100000]  # CNN-like pairs, full options
CNN_BASE = 11490  # the step the others' per-pair times are compared with
CNN_NO_PERL = 100000  # the step the Perl does not run
CNN_PER_PAIR_LIMIT = 1.2
RESAMPLES_CONFIG = "examples/duc-mini/rouge-config.xml"
RESAMPLES = ("-a -n 2 -r 1000", "-a -n 2 -r 1000000")
RESAMPLES_LIMIT = 1.5
API = "api-vs-rouge-score"
API_EVALS = 11490
RUST = "api-vs-rust"
RUST_EVALS = [11490, 100000, 1000000]
RUST_GROWTH_LIMIT = 1.15  # per-pair time at the largest size over that at the smallest
JUDGED = "judgments"
LOOP = "loop"  # scripts/bench_rouge_score.py: score() once per pair, and score_batch
FLOOR = "floor"  # scripts/bench_floor.py: the kernel against a plain C program
PARAEVAL = "paraeval"  # scripts/bench_paraeval.py: ParaEval-3 against ROUGE-1 of the same run
CLI = "cli-jsonl"
CLI_PAIRS = [1000000]
CLI_OPTIONS = "-a -c 95 -r 1000 -n 2 -m"
CLI_MEMORY_LIMIT = 150  # MB, at 1,000,000 pairs
SECTIONS = ["scaling", "cnn-scaling", "resamples", JUDGED, API, RUST, LOOP, FLOOR, PARAEVAL, CLI]

_SYLLABLES = "ka lo mi ter san dor pe vin ra tu bel con dis pro gal nor sti ver mon cal".split()
_SUFFIXES = ["", "", "", "s", "ing", "ed", "ment", "ation", "ly", "er", "ness", "ize", "al"]
_ENDS = [".", ".", ",", ";"]
_FUNCTION_SHARE = 0.4  # of the words: SMART stopwords, drawn uniformly


class _Text:
    """A seeded source of English-like words and sentences."""

    def __init__(self, seed: int) -> None:
        self.rng = rng = random.Random(seed)
        stopwords = (REPO / "data" / "smart_common_words.txt").read_text("latin-1").split()
        function = [w for w in stopwords if w.isalpha()][:300]
        words: set[str] = set()
        while len(words) < 6000:
            stem = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 3)))
            words.add(stem + rng.choice(_SUFFIXES))
        self.content = sorted(words)
        rng.shuffle(self.content)
        zipf = [1.0 / (rank + 1) ** 1.05 for rank in range(len(self.content))]
        self.content_cum = list(itertools.accumulate(zipf))
        # One draw per word: the function words share _FUNCTION_SHARE of the weight equally,
        # the content words the rest by rank.
        each = self.content_cum[-1] * _FUNCTION_SHARE / (1 - _FUNCTION_SHARE) / len(function)
        self.vocabulary = function + self.content
        self.vocabulary_cum = list(itertools.accumulate([each] * len(function) + zipf))

    def sentence(self) -> tuple[str, int]:
        """A sentence and its number of words."""
        rng = self.rng
        words = rng.choices(self.vocabulary, cum_weights=self.vocabulary_cum, k=rng.randint(8, 30))
        if rng.random() < 0.2:
            words.insert(rng.randrange(len(words)), str(rng.randint(2, 2024)))
        words[0] = words[0].capitalize()
        return " ".join(words) + rng.choice(_ENDS), len(words)

    def perturb(self, sentence: str) -> tuple[str, int]:
        """The sentence with up to a quarter of its words replaced by content words."""
        rng = self.rng
        words = sentence.split()
        size = len(words)
        replacements = rng.randint(0, max(size // 4, 1))
        for word in rng.choices(self.content, cum_weights=self.content_cum, k=replacements):
            words[rng.randrange(size)] = word
        return " ".join(words), size

    def summary(self, words: int, sources: Optional[list[str]] = None) -> list[str]:
        """Sentences up to at least `words` words; with `sources`, a share of them perturbed copies."""
        rng = self.rng
        out: list[str] = []
        total = 0
        share = rng.uniform(0.3, 0.6)
        while total < words:
            if sources and rng.random() < share:
                sentence, size = self.perturb(rng.choice(sources))
            else:
                sentence, size = self.sentence()
            out.append(sentence)
            total += size
        return out


def _see(sentences: list[str]) -> str:
    body = "".join(
        f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{s}</a>\n' for i, s in enumerate(sentences, 1)
    )
    return f'<html>\n<head><title>summary</title></head>\n<body bgcolor="white">\n{body}</body>\n</html>\n'


def _spl(sentences: list[str]) -> str:
    return "\n".join(sentences) + "\n"


def _evals(corpus: Corpus, evals: int) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
    """The corpus's first `evals` evals: per eval its models' and its peers' sentences."""
    text = _Text(corpus.seed)
    for _ in range(evals):
        models = [text.summary(corpus.words) for _ in range(corpus.models)]
        pool = [s for m in models for s in m]
        yield models, [text.summary(corpus.words, pool) for _ in range(corpus.systems)]


MARKER = "complete"
GENERATOR = 2  # the marker names it and the corpus: another generator or corpus means generating again


def corpus_dir(corpus: Corpus, workdir: Path, evals: int) -> Path:
    return workdir / f"{corpus.name}-{evals}"


def generate(corpus: Corpus, workdir: Path, evals: int) -> tuple[Path, Optional[float]]:
    """Write the corpus's first `evals` evals and their config, unless already complete.

    Returns the config's path and the seconds generation took (None: it was complete)."""
    root = corpus_dir(corpus, workdir, evals)
    config = root / "config.xml"
    marker = f"generator {GENERATOR}, {evals} evals of {corpus}\n"
    if (root / MARKER).is_file() and (root / MARKER).read_text("ascii") == marker:
        return config, None
    start = time.perf_counter()
    if root.exists():
        shutil.rmtree(root)
    peers, models_dir = root / "peers", root / "models"
    peers.mkdir(parents=True)
    models_dir.mkdir()
    render, suffix = (_see, "html") if corpus.format == "SEE" else (_spl, "spl")
    model_ids = "ABCDEFGH"[: corpus.models]
    head = (
        f"<PEER-ROOT>{peers}</PEER-ROOT>\n<MODEL-ROOT>{models_dir}</MODEL-ROOT>\n"
        f'<INPUT-FORMAT TYPE="{corpus.format}"></INPUT-FORMAT>\n<PEERS>\n'
    )
    with open(config, "w", encoding="ascii") as out:
        out.write('<ROUGE-EVAL version="1.0">\n')
        for e, (models, systems) in enumerate(_evals(corpus, evals)):
            eval_id = f"D{e:06d}"
            out.write(f'<EVAL ID="{eval_id}">\n{head}')
            for system, sentences in enumerate(systems, 1):
                name = f"{eval_id}.P.{system}.{suffix}"
                with open(peers / name, "w", encoding="ascii") as file:
                    file.write(render(sentences))
                out.write(f'<P ID="{system}">{name}</P>\n')
            out.write("</PEERS>\n<MODELS>\n")
            for model_id, sentences in zip(model_ids, models):
                name = f"{eval_id}.M.{model_id}.{suffix}"
                with open(models_dir / name, "w", encoding="ascii") as file:
                    file.write(render(sentences))
                out.write(f'<M ID="{model_id}">{name}</M>\n')
            out.write("</MODELS>\n</EVAL>\n")
        out.write("</ROUGE-EVAL>\n")
    (root / MARKER).write_text(marker, "ascii")
    return config, time.perf_counter() - start


_WRAPPER = (
    "import resource, subprocess, sys, time\n"
    "with open(sys.argv[1], 'wb') as out:\n"
    "    start = time.perf_counter()\n"
    "    code = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL).returncode\n"
    "    seconds = time.perf_counter() - start\n"
    "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, seconds)\n"
)


@dataclass(frozen=True)
class Measure:
    seconds: float
    peak_mb: float
    output: bytes
    code: int


def warm_files(directory: Path) -> None:
    """Read every file under `directory`, so that a timed run finds them in the page cache.

    The kernel may drop pages nobody read for a while (this machine reclaims cold
    memory on its own): without this, whichever program ran first would also pay
    for reading the disk.
    """
    for root, _, names in os.walk(directory):
        for name in names:
            with open(os.path.join(root, name), "rb") as handle:
                handle.read()


def measure(command: list[str], out: Path, repeat: int, warm: Optional[Path] = None) -> Measure:
    """Median wall time over `repeat` runs, the largest peak memory, and the output.

    Commands run in the repository (the bundled example's config names relative paths).
    With `warm`, the files under that directory are read before each run (:func:`warm_files`)."""
    times, peaks, code = [], [], 0
    for _ in range(repeat):
        if warm is not None:
            warm_files(warm)
        done = subprocess.run(
            [sys.executable, "-c", _WRAPPER, str(out), *command],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        )
        code_text, peak_kb, seconds = done.stdout.split()
        code = int(code_text)
        times.append(float(seconds))
        peaks.append(int(peak_kb) / 1024)
    return Measure(statistics.median(times), max(peaks), out.read_bytes(), code)


def _corpus_dir(config: Path) -> Path:
    """The directory of a config and its summaries (relative paths are the repository's)."""
    return (config if config.is_absolute() else REPO / config).parent


def ours(options: str, config: Path, jobs: int) -> list[str]:
    extra = ["-j", str(jobs)] if jobs > 1 else []
    return [
        sys.executable,
        "-m",
        "rouge155py",
        "-e",
        str(REPO / "data"),
        *options.split(),
        *extra,
        str(config),
    ]


def reference_perl() -> list[str]:
    """``perl ROUGE-1.5.5.pl -e DATA``, as the oracle reports it after installing it if needed."""
    done = subprocess.run(
        [sys.executable, str(ORACLE), "--install"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"bench: no reference Perl: {done.stderr.strip()}")
    paths = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    return [paths["perl"], paths["script"], "-e", paths["data_dir"]]


def perl(reference: list[str], options: str, config: Path) -> list[str]:
    return [*reference, *options.split(), str(config)]


def _first_difference(a: bytes, b: bytes) -> str:
    for number, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return f"line {number}: perl {x!r} / rouge155py {y!r}"
    return f"lengths differ: {len(a)} / {len(b)} bytes"


@dataclass(frozen=True)
class Compared:
    """rouge155py's measure, the Perl's (None without the Perl), and the verdict."""

    mine: Measure
    theirs: Optional[Measure]
    verdict: str
    ok: bool

    @property
    def speed(self) -> Optional[float]:
        return None if self.theirs is None else self.theirs.seconds / self.mine.seconds


class Runner:
    """Runs and measures both programs; a command measured once in the call is reused."""

    def __init__(self, reference: Optional[list[str]], out_dir: Path, repeat: int) -> None:
        self.reference = reference
        self.out_dir = out_dir
        self.repeat = repeat
        self.cache: dict[tuple[str, str, str], Measure] = {}

    def ours(self, label: str, config: Path, options: str) -> Measure:
        key = ("rouge155py", str(config), options)
        if key not in self.cache:
            self.cache[key] = measure(
                ours(options, config, 1), self.out_dir / f"{label}.ours", self.repeat, _corpus_dir(config)
            )
        return self.cache[key]

    def perl(self, label: str, config: Path, options: str) -> Optional[Measure]:
        key = ("perl", str(config), options)
        if key not in self.cache:
            if self.reference is None:
                return None
            self.cache[key] = measure(
                perl(self.reference, options, config), self.out_dir / f"{label}.perl", 1, _corpus_dir(config)
            )
        return self.cache[key]

    def compare(self, label: str, config: Path, options: str, with_perl: bool = True) -> Compared:
        mine = self.ours(label, config, options)
        theirs = self.perl(label, config, options) if with_perl else None
        if mine.code != 0:
            return Compared(mine, theirs, f"FAILED: rouge155py exit {mine.code}", False)
        if theirs is None:
            reason = "--skip-perl" if self.reference is None else "no Perl on this step"
            return Compared(mine, None, f"not checked ({reason})", True)
        if theirs.code != 0:
            return Compared(mine, theirs, f"FAILED: the Perl exit {theirs.code}", False)
        if theirs.output != mine.output:
            return Compared(mine, theirs, "NO: " + _first_difference(theirs.output, mine.output), False)
        return Compared(mine, theirs, "yes", True)


def _ms(seconds: float, pairs: int) -> float:
    return 1000 * seconds / pairs


_SPIN = [sys.executable, "-c", "x = 0\nfor i in range(6_000_000): x += i"]


def parallel_ceiling(jobs: int, pairs: int) -> list[float]:
    """Per pair: `jobs` CPU-bound processes one after the other, divided by all at once.

    What `jobs` processes can gain on this machine at best: the ceiling of any -j speed-up.
    """
    ratios = []
    for _ in range(pairs):
        start = time.perf_counter()
        for _ in range(jobs):
            subprocess.run(_SPIN, check=True)
        apart = time.perf_counter() - start
        start = time.perf_counter()
        running = [subprocess.Popen(_SPIN) for _ in range(jobs)]
        if any(process.wait() for process in running):
            raise RuntimeError("the CPU-bound reference process failed")
        ratios.append(apart / (time.perf_counter() - start))
    return ratios


# Each side runs in its own process: argv[1] the texts, argv[2] where rouge155py's legacy text goes.
# It prints its import time, its time from the lists of strings to the finished results,
# and the mean F of ROUGE-1, ROUGE-2 and ROUGE-L, rouge-score's rougeLsum (its summary-level
# ROUGE-L): a sanity check, the tokenizers differ.
_API_LOAD = """\
import json, sys, time
with open(sys.argv[1], encoding="ascii") as texts:
    predictions, references = json.load(texts)
start = time.perf_counter()
"""
_API_SIDES = {
    "rouge-score": _API_LOAD
    + """\
from rouge_score import rouge_scorer, scoring
imported = time.perf_counter()
scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
aggregator = scoring.BootstrapAggregator(confidence_interval=0.95, n_samples=1000)
for prediction, reference in zip(predictions, references):
    aggregator.add_scores(scorer.score(reference, prediction))
result = aggregator.aggregate()
done = time.perf_counter()
f = [result[name].mid.fmeasure for name in ("rouge1", "rouge2", "rougeLsum")]
print(json.dumps({"import": imported - start, "score": done - imported, "f": f}))
""",
    "rouge155py": _API_LOAD
    + """\
import rouge155py
imported = time.perf_counter()
report = rouge155py.score(
    predictions, references, max_ngram=2, stem=True, resamples=1000, confidence=95
)
legacy = report.to_legacy()
done = time.perf_counter()
with open(sys.argv[2], "w", encoding="ascii") as out:
    out.write(legacy)
f = [report.result(name).summary.average[2] for name in ("ROUGE-1", "ROUGE-2", "ROUGE-L")]
print(json.dumps({"import": imported - start, "score": done - imported, "f": f}))
""",
}


def api_texts(corpus: Corpus, workdir: Path, evals: int) -> Path:
    """The corpus's first `evals` evals as JSON [predictions, references]: one string per
    summary, its sentences joined by newlines (single-system, single-reference corpora)."""
    path = workdir / f"{corpus.name}-{evals}-texts.json"
    if not path.is_file():
        predictions, references = [], []
        for models, peers in _evals(corpus, evals):
            predictions.append("\n".join(peers[0]))
            references.append("\n".join(models[0]))
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps([predictions, references]), "ascii")
        partial.replace(path)
    return path


def api_vs_rouge_score(texts: Path, out_dir: Path, repeat: int) -> bool:
    """Time each side's process `repeat` times, alternating; print medians and the ratios."""
    runs: dict[str, list[tuple[Measure, dict]]] = {side: [] for side in _API_SIDES}
    for _ in range(repeat):
        for side, code in _API_SIDES.items():
            legacy = out_dir / f"{API}.{side}.legacy"
            command = [sys.executable, "-c", code, str(texts), str(legacy)]
            done = measure(command, out_dir / f"{API}.{side}", 1)
            if done.code != 0:  # the timing wrapper drops stderr: run it again for the error
                error = subprocess.run(command, capture_output=True, text=True).stderr.strip()
                print(f"  {side} failed (exit {done.code}): {error.splitlines()[-1] if error else ''}")
                return False
            runs[side].append((done, json.loads(done.output)))
    print(
        f"  {'side':<13}{'import s':>9}{'score s':>9}{'process s':>11}{'peak MB':>9}"
        "  mean F R-1 / R-2 / R-L(sum)"
    )
    medians = {}
    for side, done in runs.items():
        medians[side] = (
            statistics.median(inside["import"] for _, inside in done),
            statistics.median(inside["score"] for _, inside in done),
            statistics.median(process.seconds for process, _ in done),
            max(process.peak_mb for process, _ in done),
        )
        f = " / ".join(f"{value:.4f}" for value in done[-1][1]["f"])
        print(
            f"  {side:<13}{medians[side][0]:>9.2f}{medians[side][1]:>9.2f}{medians[side][2]:>11.2f}"
            f"{medians[side][3]:>9.0f}  {f}"
        )
    theirs, mine = medians["rouge-score"], medians["rouge155py"]
    print(
        f"  rouge-score / rouge155py: {theirs[1] / mine[1]:.1f}x the time from lists to results, "
        f"{theirs[2] / mine[2]:.1f}x the process wall time, {theirs[3] / mine[3]:.2f}x the peak memory"
    )
    return True


# Each contender of api-vs-rust runs in its own process: argv[1] the texts, argv[2] the threads.
# Every side imports its module and makes its scorer first ("setup"), then times the call from
# the lists of strings to the per-item scores ("score"; rouge155py: its instance rows, and the
# bootstrap of 1,000 resamples that makes its averages and intervals).
_RUST_LOAD = """\
import json, os, sys, time
with open(sys.argv[1], encoding="ascii") as texts:
    predictions, references = json.load(texts)
threads = int(sys.argv[2])
setup = time.perf_counter()
"""
_OURS = """\
from rouge155py import Rouge
{patch}rouge = Rouge(max_ngram=2, stem={stem}, resamples=1000, confidence=95, jobs=threads)
start = time.perf_counter()
report = rouge.score(predictions, references)
rows = [report.result(name).instances for name in ("ROUGE-1", "ROUGE-2", "ROUGE-L")]
print(json.dumps({{"score": time.perf_counter() - start, "setup": start - setup}}))
"""
# jobs=2 on worker processes (the executor the API takes where the kernel does not apply).
_PROCESSES = "import rouge155py.run.executors as e\ne.kernel_applies = lambda *a: False\n"
_SCORER = """\
from {module} import rouge_scorer
scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeLsum"], use_stemmer=True)"""
_BATCH = """\
{scorer}
start = time.perf_counter()
scores = scorer.score_batch(references, predictions)
print(json.dumps({{"score": time.perf_counter() - start, "setup": start - setup}}))
"""
_RUST_SIDES = {
    "rouge155py Perl dialect": _RUST_LOAD + _OURS.format(patch="", stem=True),
    "rouge155py jobs on processes": _RUST_LOAD + _OURS.format(patch=_PROCESSES, stem=True),
    "rouge-score-rs score_batch": _RUST_LOAD + _BATCH.format(scorer=_SCORER.format(module="rouge_score_rs")),
    "rouge155py rouge-score dialect": _RUST_LOAD
    + _BATCH.format(scorer=_SCORER.format(module="rouge155py.rouge_score")).replace(
        "score_batch(references, predictions)", "score_batch(references, predictions, threads=threads)"
    ),
    "rouge155py Perl dialect, no stemming": _RUST_LOAD + _OURS.format(patch="", stem=False),
    "fast_rouge score_batch_flat": _RUST_LOAD
    + _BATCH.format(scorer="import fast_rouge\nscorer = fast_rouge").replace(
        "score_batch(", "score_batch_flat("
    ),
}
# (ours, theirs, the speed the acceptance asks of ours): with stemming, then without.
_RUST_TARGETS = [
    ("rouge155py Perl dialect", "rouge-score-rs score_batch", 1.5),
    ("rouge155py rouge-score dialect", "rouge-score-rs score_batch", 4.0),
    ("rouge155py Perl dialect, no stemming", "fast_rouge score_batch_flat", 2.0),
]


def _rust_sides() -> dict[str, str]:
    """The contenders that can run here (the rouge-score dialect and the Rust ports are optional)."""
    wanted = {
        "rouge-score-rs score_batch": "rouge_score_rs",
        "fast_rouge score_batch_flat": "fast_rouge",
        "rouge155py rouge-score dialect": "rouge155py.rouge_score",
    }
    found = {}
    for side, code in _RUST_SIDES.items():
        module = wanted.get(side)
        try:
            present = module is None or importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            present = False
        if present:
            found[side] = code
        else:
            print(f"  {side}: not installed, not timed (pip install rouge155py[bench])")
    return found


def api_vs_rust(workdir: Path, out_dir: Path, repeat: int, sizes: list[int], acceptance: list[str]) -> bool:
    """Each contender on 1 and 2 threads and each size, `repeat` times in alternation; medians."""
    sides = _rust_sides()
    ratios = parallel_ceiling(2, max(repeat, 3))
    ceiling = statistics.median(ratios)
    print(
        f"  machine ceiling: 2 CPU-bound processes at once finish {ceiling:.2f}x sooner than one after "
        f"the other (median of {len(ratios)}, min {min(ratios):.2f}, max {max(ratios):.2f})"
    )
    runs: dict[tuple[str, int, int], list[Measure]] = {}
    inside: dict[tuple[str, int, int], list[float]] = {}
    setups: dict[tuple[str, int, int], list[float]] = {}
    for size in sizes:
        texts = api_texts(CNN, workdir, size)
        for _ in range(repeat):
            for threads in (1, 2):
                for side, code in sides.items():
                    if side == "rouge155py jobs on processes" and threads == 1:
                        continue
                    os.environ["RAYON_NUM_THREADS"] = str(threads)
                    command = [sys.executable, "-c", code, str(texts), str(threads)]
                    done = measure(command, out_dir / f"{RUST}.out", 1)
                    if done.code != 0:
                        error = subprocess.run(command, capture_output=True, text=True).stderr.strip()
                        print(
                            f"  {side} failed (exit {done.code}): {error.splitlines()[-1] if error else ''}"
                        )
                        return False
                    runs.setdefault((side, threads, size), []).append(done)
                    timed = json.loads(done.output)
                    inside.setdefault((side, threads, size), []).append(timed["score"])
                    setups.setdefault((side, threads, size), []).append(timed["setup"])
        os.environ.pop("RAYON_NUM_THREADS", None)
    print(
        f"  {'contender':<38}{'threads':>8}{'setup s':>9}"
        + "".join(f"{f'{n:,} pairs s':>19}{'peak MB':>9}" for n in sizes)
    )
    median = {key: statistics.median(values) for key, values in inside.items()}
    for side in sides:
        for threads in (1, 2):
            if (side, threads, sizes[0]) not in median:
                continue
            setup = statistics.median(setups[side, threads, sizes[0]])
            cells = "".join(
                f"{median[side, threads, n]:>19.3f}{max(m.peak_mb for m in runs[side, threads, n]):>9.0f}"
                for n in sizes
            )
            print(f"  {side:<38}{threads:>8}{setup:>9.3f}{cells}")
    print(
        "  (setup: importing the module and making the scorer, before the timed call; the timed call"
        " goes from the lists of strings to the per-item scores)"
    )
    for ours, theirs, target in _RUST_TARGETS:
        for size in sizes:
            for threads in (1, 2):
                if (ours, threads, size) not in median or (theirs, threads, size) not in median:
                    continue
                speed = median[theirs, threads, size] / median[ours, threads, size]
                acceptance.append(
                    f"{size:,} pairs, {threads} thread(s): {ours} {median[ours, threads, size]:.3f} s, "
                    f"{theirs} {median[theirs, threads, size]:.3f} s: {speed:.2f}x (target {target}x: "
                    f"{_yes(speed >= target)})"
                )
    ours = "rouge155py Perl dialect"
    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        theirs = "rouge-score-rs score_batch"
        for side in (ours, "rouge155py rouge-score dialect"):
            for threads in (1, 2):
                if (side, threads, large) not in median:
                    continue
                growth = (median[side, threads, large] / large) / (median[side, threads, small] / small)
                acceptance.append(
                    f"{side}, {threads} thread(s): per pair at {large:,} pairs {growth:.2f}x that at "
                    f"{small:,} (target {RUST_GROWTH_LIMIT}x: {_yes(growth <= RUST_GROWTH_LIMIT)})"
                )
            if (theirs, 1, large) in runs:
                peak = max(m.peak_mb for m in runs[side, 1, large])
                rs_peak = max(m.peak_mb for m in runs[theirs, 1, large])
                acceptance.append(
                    f"peak memory at {large:,} pairs (process, texts included): {side} {peak:.0f} MB, "
                    f"{theirs} {rs_peak:.0f} MB (target at most theirs: {_yes(peak <= rs_peak)})"
                )
    threads_vs = [
        median[ours, 2, n] / median["rouge155py jobs on processes", 2, n]
        for n in sizes
        if ("rouge155py jobs on processes", 2, n) in median
    ]
    if threads_vs:
        acceptance.append(
            "jobs=2: threads take " + ", ".join(f"{r:.2f}x" for r in threads_vs) + " the time of processes "
            f"({', '.join(f'{n:,}' for n in sizes)} pairs); machine ceiling {ceiling:.2f}x"
        )
    return True


def _yes(condition: bool) -> str:
    return "yes" if condition else "NO"


def _workload_row(workload: Workload, evals: int, done: Compared) -> str:
    pairs = evals * workload.corpus.systems
    mine, theirs = done.mine, done.theirs
    if theirs is None:
        times = f"{'-':>9}{mine.seconds:>8.2f}{'-':>8}{'-':>11}"
        memory = f"{'-':>9}{mine.peak_mb:>9.0f}{'-':>8}"
    else:
        times = (
            f"{theirs.seconds:>9.2f}{mine.seconds:>8.2f}{done.speed:>7.1f}x"
            f"{_ms(theirs.seconds, pairs):>11.3f}"
        )
        memory = f"{theirs.peak_mb:>9.0f}{mine.peak_mb:>9.0f}{mine.peak_mb / theirs.peak_mb:>7.2f}x"
    ours_per_pair = _ms(mine.seconds, pairs)
    return f"{workload.name:<14}{evals:>6}{pairs:>7}{times}{ours_per_pair:>11.3f}{memory}  {done.verdict}"


#: The docs' speed page's table of the workloads, between these two lines (``--docs FILE``).
DOCS_START, DOCS_END = "<!-- bench.py: workloads -->", "<!-- /bench.py: workloads -->"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _markdown_row(workload: Workload, evals: int, done: Compared) -> str:
    """The workload as a row of the docs' table (see :func:`write_docs`)."""
    corpus = workload.corpus
    pairs = evals * corpus.systems
    what = (
        f"{workload.name}: {evals:,} evals x {_count(corpus.systems, 'system')} x "
        f"{_count(corpus.models, 'model')}, {corpus.words} words"
    )
    options = "full" if workload.options == FULL else f"`{workload.options}`"
    mine, theirs = done.mine, done.theirs
    if theirs is None or done.speed is None:
        per_pair = _ms(mine.seconds, pairs)
        return (
            f"| {what} | {options} | not run | {mine.seconds:.2f} s | | - / {per_pair:.3f} ms | "
            f"- / {mine.peak_mb:.0f} MB | |"
        )
    return (
        f"| {what} | {options} | {theirs.seconds:.1f} s | {mine.seconds:.2f} s | {done.speed:.0f}x | "
        f"{_ms(theirs.seconds, pairs):.2f} / {_ms(mine.seconds, pairs):.3f} ms | "
        f"{theirs.peak_mb:.0f} / {mine.peak_mb:.0f} MB | {_yes(done.ok)} |"
    )


def write_docs(path: Path, rows: list[str], command: str) -> None:
    """Put the workloads' table in ``path`` between :data:`DOCS_START` and :data:`DOCS_END`."""
    text = path.read_text(encoding="utf-8")
    start, end = text.index(DOCS_START) + len(DOCS_START), text.index(DOCS_END)
    table = [
        "",
        f"Made by `{command}` on {time.strftime('%Y-%m-%d')}, {platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}; full options are `{FULL}`.",
        "",
        "| workload | options | Perl | rouge155py | speed | per pair (Perl / ours) "
        "| peak memory (Perl / ours) | identical |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
        *rows,
        "",
    ]
    path.write_text(text[:start] + "\n".join(table) + text[end:], encoding="utf-8")


WORKLOAD_HEADER = (
    f"{'workload':<14}{'evals':>6}{'pairs':>7}{'perl s':>9}{'ours s':>8}{'speed':>8}"
    f"{'perl ms/p':>11}{'ours ms/p':>11}{'perl MB':>9}{'ours MB':>9}{'memory':>8}  identical"
)


def jobs_against_one(
    workload: Workload, config: Path, mine: Measure, jobs: int, pairs: int, ceiling: float, out_dir: Path
) -> tuple[float, bool]:
    """Time -j `jobs` against -j 1 in `pairs` alternating pairs and print it; the median
    speed-up, and whether every -j output is identical to the one-process output `mine`."""
    one_out, many_out = out_dir / f"{workload.name}.j1", out_dir / f"{workload.name}.j"
    runs = [
        (
            measure(ours(workload.options, config, 1), one_out, 1, config.parent),
            measure(ours(workload.options, config, jobs), many_out, 1, config.parent),
        )
        for _ in range(pairs)
    ]
    ratios = [one.seconds / many.seconds for one, many in runs]
    speed_up = statistics.median(ratios)
    same = all(many.output == mine.output and many.code == 0 for _, many in runs)
    print(
        f"  -j {jobs} against -j 1, {pairs} alternating pairs: median "
        f"{statistics.median(many.seconds for _, many in runs):.2f} s against "
        f"{statistics.median(one.seconds for one, _ in runs):.2f} s; speed-up median "
        f"{speed_up:.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f}), "
        f"{100 * speed_up / ceiling:.0f}% of the {ceiling:.2f}x ceiling; "
        f"largest process {max(many.peak_mb for _, many in runs):.0f} MB, "
        f"identical to -j 1: {_yes(same)}"
    )
    return speed_up, same


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="\n".join(__doc__.split("\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    names = [w.name for w in WORKLOADS] + SECTIONS
    parser.add_argument(
        "--workdir",
        type=Path,
        default=REPO / "bench-work",
        help="generated corpora and outputs (bench-work/)",
    )
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply the number of evals of every corpus"
    )
    parser.add_argument("--only", default="", help="comma-separated selections: " + ", ".join(names))
    parser.add_argument("--skip-perl", action="store_true", help="time rouge155py alone (no ratio, no check)")
    parser.add_argument("--jobs", type=int, default=1, help="also time rouge155py -j N against -j 1")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per rouge155py command; the median is reported"
    )
    parser.add_argument("--pairs", type=int, default=7, help="alternating -j 1 / -j N pairs (with --jobs)")
    parser.add_argument(
        "--rust-pairs",
        default=",".join(map(str, RUST_EVALS)),
        help=f"comma-separated sizes of {RUST} (default {','.join(map(str, RUST_EVALS))})",
    )
    parser.add_argument(
        "--cli-pairs",
        default=",".join(map(str, CLI_PAIRS)),
        help=f"comma-separated sizes of {CLI} (default {','.join(map(str, CLI_PAIRS))}; "
        "10000000 writes a 12.5 GB file)",
    )
    parser.add_argument(
        "--docs",
        type=Path,
        help="write the workloads' table into this page (docs/speed.md) between its markers",
    )
    args = parser.parse_args(argv)
    args.workdir = args.workdir.resolve()  # the configs name absolute paths: any directory may run them
    selected = {name for name in args.only.split(",") if name}
    unknown = selected - set(names)
    if unknown:
        parser.error(f"unknown selection {', '.join(sorted(unknown))}; choose from {', '.join(names)}")

    def chosen(name: str) -> bool:
        return not selected or name in selected

    def count(evals: int) -> int:
        return max(1, round(evals * args.scale))

    env_path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")]))
    os.environ["PYTHONPATH"] = env_path
    # Start-up as an installed package has it: pip compiles the bytecode at install time.
    compileall.compile_dir(str(REPO / "rouge155py"), quiet=1)
    workloads = [w for w in WORKLOADS if chosen(w.name)]
    with_perl = bool(workloads) or chosen("scaling") or chosen("cnn-scaling")
    reference = None if args.skip_perl or not with_perl else reference_perl()
    out_dir = args.workdir / "outputs"
    out_dir.mkdir(parents=True, exist_ok=True)
    runner = Runner(reference, out_dir, args.repeat)
    failed = False
    acceptance: list[str] = []

    # Every corpus first, so that generation never interleaves with the timings.
    needed = [(w.corpus, count(w.evals)) for w in workloads]
    needed += [(DUC, count(evals)) for evals in SCALING if chosen("scaling")]
    needed += [(CNN, count(pairs)) for pairs in CNN_SCALING if chosen("cnn-scaling")]
    configs: dict[tuple[Corpus, int], Path] = {}
    for corpus, evals in needed:
        if (corpus, evals) in configs:
            continue
        config, seconds = generate(corpus, args.workdir, evals)
        configs[corpus, evals] = config
        files = evals * (corpus.systems + corpus.models)
        state = "complete" if seconds is None else f"generated in {seconds:.1f} s"
        print(f"corpus {config.parent.name}: {evals:,} evals, {files:,} {corpus.format} files, {state}")

    ceiling = 0.0
    if args.jobs > 1 and workloads:
        ratios = parallel_ceiling(args.jobs, args.pairs)
        ceiling = statistics.median(ratios)
        print(
            f"\nmachine ceiling: {args.jobs} CPU-bound processes at once finish "
            f"{ceiling:.2f}x sooner than one after the other "
            f"(median of {args.pairs} pairs, "
            f"min {min(ratios):.2f}, max {max(ratios):.2f})"
        )

    speeds: list[str] = []
    shares: list[str] = []
    if workloads:
        print(f"\none process each (rouge155py without -j); pairs = evals x systems; full options: {FULL}")
        print(WORKLOAD_HEADER)
        print("-" * len(WORKLOAD_HEADER))
    markdown: list[str] = []
    for workload in workloads:
        evals = count(workload.evals)
        config = configs[workload.corpus, evals]
        done = runner.compare(workload.name, config, workload.options)
        failed |= not done.ok
        print(_workload_row(workload, evals, done))
        markdown.append(_markdown_row(workload, evals, done))
    if args.docs is not None and markdown:
        shown = " ".join(
            f"--{name} {value}" for name, value in (("only", args.only), ("repeat", args.repeat)) if value
        )
        write_docs(args.docs, markdown, f"python scripts/bench.py {shown} --docs {args.docs}")
        print(f"the workloads' table is written into {args.docs}")
        if done.theirs is not None:
            pairs = evals * workload.corpus.systems
            speeds.append(
                f"{workload.name}: {done.speed:.1f}x the Perl's speed, per pair "
                f"{_ms(done.theirs.seconds, pairs):.3f} ms (Perl) against "
                f"{_ms(done.mine.seconds, pairs):.3f} ms ({pairs:,} pairs), identical: {_yes(done.ok)}"
            )
        if args.jobs > 1:
            speed_up, same = jobs_against_one(
                workload, config, done.mine, args.jobs, args.pairs, ceiling, out_dir
            )
            failed |= not same
            shares.append(f"{workload.name} {speed_up:.2f}x = {100 * speed_up / ceiling:.0f}%")
        sys.stdout.flush()
    if any(w.options == OFFICIAL for w in workloads):
        print(f"(DUC's official options: {OFFICIAL})")
    acceptance += speeds
    if shares:
        acceptance.append(
            f"-j {args.jobs} speed-up against -j 1, as a share of the machine's {ceiling:.2f}x ceiling: "
            + "; ".join(shares)
        )

    if chosen("scaling"):
        print("\nscaling (DUC-like, 30 systems, full options): time per pair (eval x system)")
        for evals in SCALING:
            number = count(evals)
            done = runner.compare(f"scaling-{number}", configs[DUC, number], FULL)
            failed |= not done.ok
            units = number * DUC.systems
            line = (
                f"  {number:>4} evals x 30 systems: rouge155py {done.mine.seconds:6.2f} s, "
                f"{_ms(done.mine.seconds, units):.3f} ms per pair"
            )
            if done.theirs is not None:
                line += (
                    f"; perl {done.theirs.seconds:.2f} s, {_ms(done.theirs.seconds, units):.3f} ms per pair "
                    f"({done.speed:.1f}x)"
                )
            print(f"{line}; identical: {done.verdict}")
            sys.stdout.flush()

    if chosen("cnn-scaling"):
        failed |= cnn_scaling(runner, configs, count, acceptance)

    if chosen("resamples"):
        failed |= resamples(runner, acceptance)

    if chosen(JUDGED):
        judged(args.workdir, out_dir, args.repeat, acceptance)
        sys.stdout.flush()

    if chosen(API):
        evals = count(API_EVALS)
        print(
            f"\n{API}: the Python API on {evals} CNN-like pairs in memory (single reference, "
            f"about {CNN.words} words)\n  ROUGE-1, ROUGE-2, ROUGE-L (rouge-score: and rougeLsum), "
            f"stemming, 1000 resamples, 95%; each side its own process, median of {args.repeat}"
        )
        if importlib.util.find_spec("rouge_score") is None:
            print("  skipped: rouge-score is not installed (pip install rouge-score==0.1.2)")
        else:
            texts = api_texts(CNN, args.workdir, evals)
            failed |= not api_vs_rouge_score(texts, out_dir, args.repeat)
        sys.stdout.flush()

    if chosen(RUST):
        sizes = [count(int(n)) for n in args.rust_pairs.split(",")]
        print(
            f"\n{RUST}: from Python lists to per-item scores on CNN-like pairs in memory, ROUGE-1, -2 and "
            f"L (rouge-score-rs: rougeLsum), each contender its own process, median of {args.repeat} in "
            "alternation; rouge155py's Perl dialect with 1,000 resamples"
        )
        failed |= not api_vs_rust(args.workdir, out_dir, args.repeat, sizes, acceptance)
        sys.stdout.flush()

    settled = ["--workdir", str(args.workdir), "--repeat", str(max(3, args.repeat))]
    scripts = [
        (LOOP, "the rouge-score dialect's score() once per pair", "bench_rouge_score", settled),
        (FLOOR, "the kernel against a plain C program doing the same work", "bench_floor", settled),
        (
            PARAEVAL,
            "ParaEval-3 against ROUGE-1 of the same run",
            "bench_paraeval",
            [
                *("--workdir", str(args.workdir), "--repeat", str(args.repeat), "--pairs", str(count(11490))),
                *("--table-pairs", "100000", "--big-table-pairs", "0"),
            ],
        ),
    ]
    for name, title, script, script_args in scripts:
        if chosen(name):
            print(f"\n{name}: {title} (scripts/{script}.py)")
            sys.stdout.flush()
            failed |= _script(script).main(script_args, acceptance) != 0

    if chosen(CLI):
        sizes = [count(int(n)) for n in args.cli_pairs.split(",")]
        failed |= not cli_jsonl(args.workdir, out_dir, args.repeat, sizes, acceptance)
        sys.stdout.flush()

    if acceptance:
        print("\nacceptance (this call, this machine)")
        for line in acceptance:
            print(f"  {line}")
    return 1 if failed else 0


def _script(name: str) -> Any:
    """A sibling script as a module (it imports this one: imported here, when its section runs)."""
    return importlib.import_module(name)


def jsonl_texts(corpus: Corpus, workdir: Path, pairs: int) -> Path:
    """The corpus's first ``pairs`` evals as a ``--jsonl`` file (one object a line: the first
    peer's text as the prediction, the first model's as the reference), written as generated."""
    path = workdir / f"{corpus.name}-{pairs}.jsonl"
    if not path.is_file():
        partial = path.with_suffix(".partial")
        with open(partial, "w", encoding="ascii") as out:
            for models, peers in _evals(corpus, pairs):
                item = {"prediction": "\n".join(peers[0]), "reference": "\n".join(models[0])}
                out.write(json.dumps(item) + "\n")
        partial.replace(path)
    return path


def cli_jsonl(workdir: Path, out_dir: Path, repeat: int, sizes: list[int], acceptance: list[str]) -> bool:
    """The command line on ``--jsonl`` files of each size: time, time per pair, peak memory."""
    print(
        f"\n{CLI}: rouge155py {CLI_OPTIONS} --jsonl FILE on CNN-like pairs, one process, median of {repeat}"
    )
    print(f"  {'pairs':>10}{'file MB':>9}{'seconds':>9}{'us/pair':>9}{'peak MB':>9}")
    for pairs in sizes:
        path = jsonl_texts(CNN, workdir, pairs)
        command = [sys.executable, "-m", "rouge155py", "-e", str(REPO / "data"), *CLI_OPTIONS.split()]
        done = measure([*command, "--jsonl", str(path)], out_dir / f"{CLI}-{pairs}.txt", repeat)
        if done.code != 0:
            print(f"  {pairs:>10,}: FAILED (exit {done.code})")
            return False
        per_pair = 1e6 * done.seconds / pairs
        size = path.stat().st_size / 1e6
        print(f"  {pairs:>10,}{size:>9.0f}{done.seconds:>9.2f}{per_pair:>9.2f}{done.peak_mb:>9.0f}")
        line = f"--jsonl at {pairs:,} pairs: {done.seconds:.1f} s, {per_pair:.1f} us a pair"
        line += f", peak {done.peak_mb:.0f} MB"
        if pairs == 1_000_000:
            line += f" (target {CLI_MEMORY_LIMIT} MB: {_yes(done.peak_mb <= CLI_MEMORY_LIMIT)})"
        acceptance.append(line)
    return True


def cnn_scaling(
    runner: Runner,
    configs: dict[tuple[Corpus, int], Path],
    count: Callable[[int], int],
    acceptance: list[str],
) -> bool:
    """The CNN-like scaling series; True when a run failed or an output differs."""
    steps = [count(pairs) for pairs in CNN_SCALING]
    base = count(CNN_BASE)
    no_perl = count(CNN_NO_PERL)
    print(
        f"\ncnn-scaling (CNN-like single-reference pairs of about {CNN.words} words, SPL files, "
        f"full options; the Perl on all but {no_perl:,} pairs)"
    )
    header = (
        f"  {'pairs':>7}{'perl s':>9}{'perl ms/p':>11}{'perl MB':>9}{'ours s':>9}{'ours ms/p':>11}"
        f"{f'vs {base}':>10}{'ours MB':>9}{'speed':>8}  identical"
    )
    print(header)
    results = {
        pairs: runner.compare(f"cnn-scaling-{pairs}", configs[CNN, pairs], FULL, with_perl=pairs != no_perl)
        for pairs in steps
    }
    base_per_pair = _ms(results[base].mine.seconds, base)
    for pairs, done in results.items():
        mine, theirs = done.mine, done.theirs
        if theirs is None:
            perl_part = f"{'-':>9}{'-':>11}{'-':>9}"
        else:
            perl_part = f"{theirs.seconds:>9.2f}{_ms(theirs.seconds, pairs):>11.3f}{theirs.peak_mb:>9.0f}"
        per_pair = _ms(mine.seconds, pairs)
        speed = "-" if done.speed is None else f"{done.speed:.1f}x"
        print(
            f"  {pairs:>7}{perl_part}{mine.seconds:>9.2f}{per_pair:>11.3f}"
            f"{per_pair / base_per_pair:>9.2f}x{mine.peak_mb:>9.0f}{speed:>8}  {done.verdict}"
        )
    failed = not all(done.ok for done in results.values())
    big, small = results[no_perl], results[base]
    ratio = _ms(big.mine.seconds, no_perl) / _ms(small.mine.seconds, base)
    time_line = (
        f"per-pair time at {no_perl:,} pairs: {_ms(big.mine.seconds, no_perl):.3f} ms, "
        f"{ratio:.2f}x the {base:,}-pair run's {_ms(small.mine.seconds, base):.3f} ms "
        f"(acceptance: at most {CNN_PER_PAIR_LIMIT}x): {_yes(ratio <= CNN_PER_PAIR_LIMIT)}"
    )
    if small.theirs is None:
        memory_line = (
            f"peak memory at {no_perl:,} pairs: {big.mine.peak_mb:.0f} MB; "
            f"the Perl's peak at {base:,} pairs: not measured (--skip-perl)"
        )
    else:
        memory_line = (
            f"peak memory at {no_perl:,} pairs: {big.mine.peak_mb:.0f} MB (rouge155py) against "
            f"{small.theirs.peak_mb:.0f} MB (the Perl at {base:,} pairs), "
            f"{big.mine.peak_mb / small.theirs.peak_mb:.2f}x (acceptance: below): "
            f"{_yes(big.mine.peak_mb < small.theirs.peak_mb)}"
        )
    print(f"  {time_line}\n  {memory_line}")
    acceptance.append("cnn-scaling: " + time_line)
    acceptance.append("cnn-scaling: " + memory_line)
    return failed


def judged(workdir: Path, out_dir: Path, repeat: int, acceptance: list[str]) -> None:
    """The run alone and with ``--judgments``, each its own process: times and their ratio."""
    root = workdir / "judged-50x30"
    if not (root / "judgments.csv").exists():  # its own process: that script imports this one
        maker = [sys.executable, str(REPO / "scripts" / "make_judgments_example.py"), "--out", str(root)]
        sizes = ["--evals", "50", "--systems", "30", "--models", "4", "--words", "100", "--seed", "1"]
        subprocess.run([*maker, *sizes], check=True, capture_output=True)
    run = ours("-a -n 2 -m -2 4 -U -w 1.2", root / "config.xml", 1)
    alone = measure(run, out_dir / "judged-run.txt", repeat)
    with_judgments = [*run[:3], "--judgments", str(root / "judgments.csv"), *run[3:]]
    correlated = measure(with_judgments, out_dir / "judged-correlations.txt", repeat)
    ratio = correlated.seconds / alone.seconds
    print(
        f"\n{JUDGED}: 50 inputs x 30 systems, two judgments, median of {repeat}\n"
        f"  the run alone {alone.seconds:.2f} s; with --judgments {correlated.seconds:.2f} s ({ratio:.1f}x)"
    )
    acceptance.append(
        f"--judgments (50 x 30, two judgments): {ratio:.1f}x the run alone (target 10x: {_yes(ratio <= 10)})"
    )


def resamples(runner: Runner, acceptance: list[str]) -> bool:
    """Peak memory of -r 1000000 against -r 1000 on the bundled example; True when a run failed."""
    config = REPO / RESAMPLES_CONFIG
    print(f"\nresamples (rouge155py on {RESAMPLES_CONFIG}, one process)")
    runs = []
    for options in RESAMPLES:
        label = "resamples" + options.replace(" ", "")
        mine = runner.ours(label, config, options)
        runs.append(mine)
        state = "" if mine.code == 0 else f"  FAILED (exit {mine.code})"
        print(f"  {options:<22}{mine.seconds:>8.2f} s{mine.peak_mb:>7.0f} MB{state}")
    few, many = runs
    ratio = many.peak_mb / few.peak_mb
    line = (
        f"peak memory {RESAMPLES[1]} / {RESAMPLES[0]}: {many.peak_mb:.0f} / {few.peak_mb:.0f} MB = "
        f"{ratio:.2f}x (acceptance: at most {RESAMPLES_LIMIT}x): {_yes(ratio <= RESAMPLES_LIMIT)}"
    )
    print(f"  {line}")
    acceptance.append("resamples: " + line)
    return few.code != 0 or many.code != 0


if __name__ == "__main__":
    sys.exit(main())
