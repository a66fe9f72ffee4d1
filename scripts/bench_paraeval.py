"""ParaEval's cost: table load time and memory, and time per pair beside ROUGE-L's.

Generates (seeded, kept under --workdir) bench.py's CNN-like corpus of --pairs pairs and
PPDB-format tables of generated phrase pairs over the same English-like vocabulary
(phrases of 1 to 4 words, Zipf-distributed, so that summaries hold many of them), then

1. loads each table in a fresh process (--table-pairs, and --big-table-pairs unless 0):
   seconds, the arrays it keeps, distinct phrases and pairs, peak memory of the process;
2. scores the corpus with ROUGE-L alone (``-a``), ROUGE-1 alone (``-a -x -n 1``) and
   ParaEval-3 alone (``-a -x --paraphrases TABLE``) with the --table-pairs table: wall
   time, time per pair, peak memory, and ParaEval's time per pair over ROUGE-L's (with
   and without the table's load, measured in step 1).

    python scripts/bench_paraeval.py                      # 11,490 pairs, 1M and 10M-pair tables
    python scripts/bench_paraeval.py --pairs 1000 --table-pairs 100000 --big-table-pairs 0
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

from bench import CNN, REPO, _Text, generate, measure, ours, warm_files

_LENGTHS = (1, 2, 3, 4)
_LENGTH_WEIGHTS = (30, 40, 20, 10)

_LOAD = """\
import resource, sys, time
from rouge155py.text.corpus import Corpus
from rouge155py.metrics.paraphrases import TableSpec, corpus_table
from rouge155py.text.stage import TextSettings, text_stage
corpus = Corpus(text_stage(TextSettings(data_dir=sys.argv[2])), 0, 0)
start = time.perf_counter()
table = corpus_table(corpus, TableSpec(sys.argv[1]), False)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(seconds, table.nbytes / 2**20, table.phrases, table.pairs, peak)
"""


def make_table(path: Path, pairs: int, seed: int) -> float:
    """Write a PPDB-format table of `pairs` generated pairs unless it is there; seconds taken."""
    marker = path.with_suffix(".complete")
    if marker.is_file() and path.is_file():
        return 0.0
    start = time.perf_counter()
    text = _Text(CNN.seed)
    rng = random.Random(seed)
    vocabulary, cum = text.vocabulary, text.vocabulary_cum
    with open(path, "w", encoding="ascii") as out:
        for _ in range(pairs):
            a, b = rng.choices(_LENGTHS, _LENGTH_WEIGHTS, k=2)
            words = rng.choices(vocabulary, cum_weights=cum, k=a + b)
            score = rng.uniform(1, 5)
            out.write(
                f"[X] ||| {' '.join(words[:a])} ||| {' '.join(words[a:])} ||| "
                f"PPDB2.0Score={score:.3f} p(e|f)={rng.uniform(0, 9):.3f} ||| 0-0\n"
            )
    marker.write_text("complete\n")
    return time.perf_counter() - start


def load(path: Path) -> tuple[float, float, int, int, float]:
    """(seconds, MiB of arrays, phrases, pairs, peak MiB of the process) of loading a table."""
    done = subprocess.run(
        [sys.executable, "-c", _LOAD, str(path), str(REPO / "data")],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    seconds, mib, phrases, pairs, peak = done.stdout.split()
    return float(seconds), float(mib), int(phrases), int(pairs), float(peak)


def main(argv: list[str] | None = None, acceptance: list[str] | None = None) -> int:
    """Print the loads and timings; ``acceptance`` (bench.py's) gets ParaEval-3 against ROUGE-1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=11490, help="CNN-like pairs scored (11490)")
    parser.add_argument("--table-pairs", type=int, default=1_000_000, help="pairs of the table scored with")
    parser.add_argument(
        "--big-table-pairs", type=int, default=10_000_000, help="a larger table, loaded only (0: none)"
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs of each timing (median)")
    parser.add_argument(
        "--workdir", type=Path, default=REPO / "bench-work", help="where the workloads are kept"
    )
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    config, _ = generate(CNN, args.workdir, args.pairs)
    tables = {}
    for size in sorted({args.table_pairs, args.big_table_pairs} - {0}):
        path = args.workdir / f"paraphrases-{size}.ppdb"
        made = make_table(path, size, seed=size)
        if made:
            print(f"generated {path.name} ({path.stat().st_size / 2**20:.0f} MiB) in {made:.0f} s")
        tables[size] = path

    print("\ntable load (fresh process, legacy text stage, no threshold)")
    print("| pairs in file | file MiB | load s | distinct pairs | phrases | arrays MiB | peak MiB |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    loads = {}
    for size, path in tables.items():
        seconds, mib, phrases, pairs, peak = load(path)
        loads[size] = seconds
        print(
            f"| {size:,} | {path.stat().st_size / 2**20:.0f} | {seconds:.1f} | {pairs:,} | {phrases:,} "
            f"| {mib:.0f} | {peak:.0f} |"
        )

    table = tables[args.table_pairs]
    runs = {
        "ROUGE-L": "-a",
        "ROUGE-1": "-a -x -n 1",
        "ParaEval-3": f"-a -x --paraphrases {table}",
    }
    print(f"\n{args.pairs:,} CNN-like pairs, -r 1000, one process (median of {args.repeat})")
    print("| rows | wall s | per pair ms | peak MiB |")
    print("| --- | --- | --- | --- |")
    timed = {}
    out = args.workdir / "paraeval-bench.out"
    for name, options in runs.items():
        warm_files(config.parent)
        m = measure(ours(options, config, 1), out, args.repeat, warm=config.parent)
        if m.code != 0:
            print(f"{name}: exit {m.code}")
            return 1
        timed[name] = m.seconds
        print(f"| {name} | {m.seconds:.2f} | {1000 * m.seconds / args.pairs:.3f} | {m.peak_mb:.0f} |")
    para, lcs = timed["ParaEval-3"], timed["ROUGE-L"]
    print(f"\nParaEval-3 / ROUGE-L: {para / lcs:.2f}x the wall time")
    matched = para - loads[args.table_pairs]
    print(
        f"without the table's load ({loads[args.table_pairs]:.1f} s): {matched / lcs:.2f}x, "
        f"{1000 * matched / args.pairs:.3f} ms a pair"
    )
    one = timed["ROUGE-1"]
    print(f"ParaEval-3 / ROUGE-1: {para / one:.2f}x the wall time ({matched / one:.2f}x without the load)")
    if acceptance is not None:
        acceptance.append(
            f"ParaEval-3 against ROUGE-1 ({args.pairs:,} pairs, a {args.table_pairs:,}-pair table): "
            f"{para:.2f} s / {one:.2f} s = {para / one:.1f}x "
            f"(target 3x: {'yes' if para <= 3 * one else 'NO'}); "
            f"{matched / one:.1f}x without the table's load"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
