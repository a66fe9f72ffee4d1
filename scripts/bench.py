#!/usr/bin/env python3
"""Benchmark rouge155py against ROUGE-1.5.5.pl on generated DUC-like and CNN-like workloads.

    python scripts/bench.py                      # every workload, Perl and rouge155py
    python scripts/bench.py --only duc-full --jobs 2
    python scripts/bench.py --scale 0.1          # a tenth of the evals, for a quick look
    python scripts/bench.py --only api-vs-rouge-score --repeat 3

Workloads are generated with a seeded generator into ``bench-work/`` (git-ignored):
Zipf-distributed English-like words (made-up stems with real suffixes, so that
stemming matters, plus the SMART stopwords as function words), sentences of 8 to
30 words, peers that copy or perturb part of their models' sentences. Both
programs run on the same machine in the same call; their outputs must be
byte-identical. Each command runs under a small Python wrapper that reports the
peak resident memory of the largest process it waited for (``ru_maxrss`` of its
children), so a ``-j`` run reports its largest process, not the sum.

``--jobs N`` times ``-j N`` against ``-j 1`` in alternating pairs (``--pairs``) and
quotes the median of the per-pair ratios, beside the machine's own ceiling: N
CPU-bound processes at once against one after the other.

``api-vs-rouge-score`` times the Python API against rouge-score (0.1.2) on the
11,490 pairs of the CNN/DM-test-sized corpus, held in memory as lists of strings
(one per summary, its sentences joined by newlines; written once to
``bench-work/cnn-test-11490-texts.json``). rouge-score: ``RougeScorer`` with rouge1,
rouge2, rougeL and rougeLsum, stemming, every pair fed to a ``BootstrapAggregator``
(1000 samples, 95%) and aggregated. rouge155py: ``rouge155py.score`` with ROUGE-1,
ROUGE-2, ROUGE-L, stemming, 1000 resamples, 95%, and ``to_legacy()``. Each side
runs in its own process (``--repeat`` times, alternating) and times itself from the
lists to the finished results; the bench reports that time, the import time, the
process's wall time and peak memory (medians; the largest peak), and the ratios
rouge-score / rouge155py.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

import perl_oracle  # noqa: E402

FULL = "-a -c 95 -r 1000 -n 4 -w 1.2 -2 4 -U -m"
OFFICIAL = "-a -n 2 -x -m -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0"


@dataclass(frozen=True)
class Corpus:
    """A generated evaluation: evals x systems x models, summaries of about `words` words."""

    name: str
    evals: int
    systems: int
    models: int
    words: int
    seed: int


@dataclass(frozen=True)
class Workload:
    name: str
    corpus: Corpus
    options: str


CORPORA = {
    "duc": Corpus("duc", 50, 30, 4, 100, 1),
    "cnn": Corpus("cnn", 5000, 1, 1, 60, 2),
    "cnn-test": Corpus("cnn-test", 11490, 1, 1, 60, 3),
}
WORKLOADS = [
    Workload("duc-full", CORPORA["duc"], FULL),
    Workload("duc-official", CORPORA["duc"], OFFICIAL),
    Workload("cnn-full", CORPORA["cnn"], FULL),
    Workload("cnn-test", CORPORA["cnn-test"], FULL),
]
SCALING = [10, 25, 50]  # evals of the DUC-like corpus, 30 systems each, duc-full options

_SYLLABLES = "ka lo mi ter san dor pe vin ra tu bel con dis pro gal nor sti ver mon cal".split()
_SUFFIXES = ["", "", "", "s", "ing", "ed", "ment", "ation", "ly", "er", "ness", "ize", "al"]


class _Text:
    """A seeded source of English-like words and sentences."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        stopwords = (REPO / "data" / "smart_common_words.txt").read_text("latin-1").split()
        self.function = [w for w in stopwords if w.isalpha()][:300]
        words = set()
        while len(words) < 6000:
            stem = "".join(self.rng.choice(_SYLLABLES) for _ in range(self.rng.randint(1, 3)))
            words.add(stem + self.rng.choice(_SUFFIXES))
        self.content = sorted(words)
        self.rng.shuffle(self.content)
        self.weights = [1.0 / (rank + 1) ** 1.05 for rank in range(len(self.content))]

    def sentence(self) -> str:
        size = self.rng.randint(8, 30)
        words = []
        for _ in range(size):
            if self.rng.random() < 0.4:
                words.append(self.rng.choice(self.function))
            else:
                words.append(self.rng.choices(self.content, self.weights)[0])
        if self.rng.random() < 0.2:
            words.insert(self.rng.randrange(len(words)), str(self.rng.randint(2, 2024)))
        words[0] = words[0].capitalize()
        return " ".join(words) + self.rng.choice([".", ".", ",", ";"]) * 1

    def perturb(self, sentence: str) -> str:
        words = sentence.split()
        for _ in range(self.rng.randint(0, max(len(words) // 4, 1))):
            at = self.rng.randrange(len(words))
            words[at] = self.rng.choices(self.content, self.weights)[0]
        return " ".join(words)

    def summary(self, words: int, sources: Optional[list[str]] = None) -> list[str]:
        out: list[str] = []
        share = self.rng.uniform(0.3, 0.6)
        while sum(len(s.split()) for s in out) < words:
            if sources and self.rng.random() < share:
                out.append(self.perturb(self.rng.choice(sources)))
            else:
                out.append(self.sentence())
        return out


def _see(sentences: list[str]) -> str:
    body = "".join(
        f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{s}</a>\n' for i, s in enumerate(sentences, 1)
    )
    return f'<html>\n<head><title>summary</title></head>\n<body bgcolor="white">\n{body}</body>\n</html>\n'


def _evals(corpus: Corpus, evals: int) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
    """The corpus's first `evals` evals: per eval its models' and its peers' sentences."""
    text = _Text(corpus.seed)
    for _ in range(evals):
        models = [text.summary(corpus.words) for _ in range(corpus.models)]
        pool = [s for m in models for s in m]
        yield models, [text.summary(corpus.words, pool) for _ in range(corpus.systems)]


def generate(corpus: Corpus, workdir: Path, evals: int) -> Path:
    """Write the corpus (its first `evals` evals) and its config; return the config path."""
    root = workdir / f"{corpus.name}-{evals}"
    config = root / "config.xml"
    if config.is_file():
        return config
    (root / "peers").mkdir(parents=True, exist_ok=True)
    (root / "models").mkdir(exist_ok=True)
    model_ids = "ABCDEFGH"[: corpus.models]
    parts = ['<ROUGE-EVAL version="1.0">']
    for e, (models, peers) in enumerate(_evals(corpus, evals)):
        eval_id = f"D{e:05d}"
        parts += [
            f'<EVAL ID="{eval_id}">',
            f"<PEER-ROOT>{root / 'peers'}</PEER-ROOT>",
            f"<MODEL-ROOT>{root / 'models'}</MODEL-ROOT>",
            '<INPUT-FORMAT TYPE="SEE"></INPUT-FORMAT>',
            "<PEERS>",
        ]
        for system, sentences in enumerate(peers, 1):
            name = f"{eval_id}.P.{system}.html"
            (root / "peers" / name).write_text(_see(sentences), "ascii")
            parts.append(f'<P ID="{system}">{name}</P>')
        parts += ["</PEERS>", "<MODELS>"]
        for model_id, sentences in zip(model_ids, models):
            name = f"{eval_id}.M.{model_id}.html"
            (root / "models" / name).write_text(_see(sentences), "ascii")
            parts.append(f'<M ID="{model_id}">{name}</M>')
        parts += ["</MODELS>", "</EVAL>"]
    parts.append("</ROUGE-EVAL>")
    config.write_text("\n".join(parts) + "\n", "ascii")
    return config


_WRAPPER = (
    "import resource, subprocess, sys\n"
    "with open(sys.argv[1], 'wb') as out:\n"
    "    code = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL).returncode\n"
    "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


@dataclass(frozen=True)
class Measure:
    seconds: float
    peak_mb: float
    output: bytes
    code: int


def measure(command: list[str], out: Path, repeat: int) -> Measure:
    """Median wall time over `repeat` runs, the largest peak memory, and the output."""
    times, peaks, code = [], [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _WRAPPER, str(out), *command],
            capture_output=True,
            text=True,
            check=True,
        )
        times.append(time.perf_counter() - start)
        code_text, peak_kb = done.stdout.split()
        code = int(code_text)
        peaks.append(int(peak_kb) / 1024)
    return Measure(statistics.median(times), max(peaks), out.read_bytes(), code)


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


def perl(oracle: perl_oracle.Oracle, options: str, config: Path) -> list[str]:
    return [oracle.perl, str(oracle.script), "-e", str(oracle.data_dir), *options.split(), str(config)]


def _first_difference(a: bytes, b: bytes) -> str:
    for number, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return f"line {number}: perl {x!r} / rouge155py {y!r}"
    return f"lengths differ: {len(a)} / {len(b)} bytes"


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


API = "api-vs-rouge-score"
API_CORPUS = CORPORA["cnn-test"]

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
        path.write_text(json.dumps([predictions, references]), "ascii")
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


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workdir", type=Path, default=REPO / "bench-work")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of evals")
    parser.add_argument(
        "--only", default="", help=f"comma-separated workload names (and/or 'scaling', '{API}')"
    )
    parser.add_argument("--skip-perl", action="store_true", help="time rouge155py alone (no ratio, no check)")
    parser.add_argument("--jobs", type=int, default=1, help="also time rouge155py -j N against -j 1")
    parser.add_argument("--repeat", type=int, default=1, help="runs per command; the median is reported")
    parser.add_argument("--pairs", type=int, default=7, help="alternating -j 1 / -j N pairs (with --jobs)")
    args = parser.parse_args(argv)
    args.workdir = args.workdir.resolve()  # the configs name absolute paths: any directory may run them
    selected = {name for name in args.only.split(",") if name}
    env_path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")]))
    os.environ["PYTHONPATH"] = env_path
    # Start-up as an installed package has it: pip compiles the bytecode at install time.
    compileall.compile_dir(str(REPO / "rouge155py"), quiet=1)
    with_perl = not selected or bool(selected & ({w.name for w in WORKLOADS} | {"scaling"}))
    oracle = None if args.skip_perl or not with_perl else perl_oracle.ensure_oracle()
    failed = False
    out_dir = args.workdir / "outputs"
    out_dir.mkdir(parents=True, exist_ok=True)

    if args.jobs > 1:
        ratios = parallel_ceiling(args.jobs, args.pairs)
        print(
            f"machine ceiling: {args.jobs} CPU-bound processes at once finish "
            f"{statistics.median(ratios):.2f}x sooner than one after the other "
            f"(median of {args.pairs} pairs, "
            f"min {min(ratios):.2f}, max {max(ratios):.2f})\n"
        )
    header = (
        f"{'workload':<14}{'evals':>7}{'perl s':>10}{'ours s':>9}{'speed':>8}"
        f"{'perl MB':>9}{'ours MB':>9}{'memory':>8}  identical"
    )
    if selected != {API}:
        print(header)
        print("-" * len(header))
    for workload in WORKLOADS:
        if selected and workload.name not in selected:
            continue
        evals = max(1, round(workload.corpus.evals * args.scale))
        config = generate(workload.corpus, args.workdir, evals)
        mine = measure(ours(workload.options, config, 1), out_dir / f"{workload.name}.ours", args.repeat)
        if oracle is None:
            print(
                f"{workload.name:<14}{evals:>7}{'-':>10}{mine.seconds:>9.2f}{'-':>8}{'-':>9}"
                f"{mine.peak_mb:>9.0f}{'-':>8}  not checked (--skip-perl)"
            )
        else:
            theirs = measure(perl(oracle, workload.options, config), out_dir / f"{workload.name}.perl", 1)
            same = theirs.output == mine.output and theirs.code == mine.code == 0
            failed |= not same
            verdict = "yes" if same else "NO: " + _first_difference(theirs.output, mine.output)
            print(
                f"{workload.name:<14}{evals:>7}{theirs.seconds:>10.2f}{mine.seconds:>9.2f}"
                f"{theirs.seconds / mine.seconds:>7.1f}x{theirs.peak_mb:>9.0f}{mine.peak_mb:>9.0f}"
                f"{mine.peak_mb / theirs.peak_mb:>7.2f}x  {verdict}"
            )
        if args.jobs > 1:
            one_out, many_out = out_dir / f"{workload.name}.j1", out_dir / f"{workload.name}.j"
            pairs = [
                (
                    measure(ours(workload.options, config, 1), one_out, 1),
                    measure(ours(workload.options, config, args.jobs), many_out, 1),
                )
                for _ in range(args.pairs)
            ]
            ratios = [one.seconds / many.seconds for one, many in pairs]
            same = all(many.output == mine.output and many.code == 0 for _, many in pairs)
            failed |= not same
            print(
                f"  -j {args.jobs} against -j 1, {args.pairs} alternating pairs: median "
                f"{statistics.median(many.seconds for _, many in pairs):.2f} s against "
                f"{statistics.median(one.seconds for one, _ in pairs):.2f} s; speed-up median "
                f"{statistics.median(ratios):.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f}), "
                f"largest process {max(many.peak_mb for _, many in pairs):.0f} MB, "
                f"identical to -j 1: {'yes' if same else 'NO'}"
            )
        sys.stdout.flush()

    if not selected or "scaling" in selected:
        print("\nscaling (DUC-like, 30 systems, duc-full options): rouge155py seconds per eval x system")
        for evals in SCALING:
            count = max(1, round(evals * args.scale))
            config = generate(CORPORA["duc"], args.workdir, count)
            mine = measure(ours(FULL, config, 1), out_dir / f"scaling-{count}.ours", args.repeat)
            units = count * CORPORA["duc"].systems
            each = 1000 * mine.seconds / units
            line = f"  {count:>4} evals x 30 systems: {mine.seconds:6.2f} s, {each:.2f} ms each"
            if oracle is not None and count < CORPORA["duc"].evals * args.scale:
                theirs = measure(perl(oracle, FULL, config), out_dir / f"scaling-{count}.perl", 1)
                same = theirs.output == mine.output
                failed |= not same
                line += f"; perl {theirs.seconds:.2f} s ({theirs.seconds / mine.seconds:.1f}x), identical: "
                line += "yes" if same else "NO"
            print(line)
            sys.stdout.flush()

    if not selected or API in selected:
        evals = max(1, round(API_CORPUS.evals * args.scale))
        print(
            f"\n{API}: the Python API on {evals} CNN-like pairs in memory (single reference, "
            f"about {API_CORPUS.words} words)\n  ROUGE-1, ROUGE-2, ROUGE-L (rouge-score: and rougeLsum), "
            f"stemming, 1000 resamples, 95%; each side its own process, median of {args.repeat}"
        )
        if importlib.util.find_spec("rouge_score") is None:
            print("  skipped: rouge-score is not installed (pip install rouge-score==0.1.2)")
        else:
            texts = api_texts(API_CORPUS, args.workdir, evals)
            failed |= not api_vs_rouge_score(texts, out_dir, args.repeat)
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
