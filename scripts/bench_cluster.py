#!/usr/bin/env python3
"""Score CNN-like pairs on a local Dask cluster against one process and ``-j 2``: time and driver memory.

    python scripts/bench_cluster.py                        # 100,000 pairs, bench.py's full options
    python scripts/bench_cluster.py --pairs 20000 --words 240 --only dask

The pairs are bench.py's CNN-like text (its generator, seed 2: per pair one model
and one peer of about ``--words`` words), written once under
``bench-work/cluster-<pairs>-<words>/`` (git-ignored) as line-aligned files, one
summary per line, sentences cut by ``<q>``: ``hyp.txt`` and ``ref.txt``, and the
same lines again in shards of ``--shard`` pairs. Each run is its own process and
must print the same bytes:

- ``one process``: ``rouge155py --hyp hyp.txt --ref ref.txt --sep '<q>' OPTIONS``;
- ``-j 2``: the same with ``-j 2``;
- ``dask``: a driver starts ``LocalCluster(n_workers=2, threads_per_worker=1,
  processes=True)`` and gives ``rouge155py.dask.score_on_cluster`` a bag of one
  partition per shard: a worker reads its shard's two files
  (``read_aligned_files``) and scores them; the driver gets rows only and
  summarizes them. It never reads a text.

Reported: wall time (the median of ``--repeat`` alternating runs); the driver's
peak resident memory (``ru_maxrss`` of the main process: for ``-j 2`` its parent,
for Dask the client, which also runs the scheduler); the largest other process
(``-j``'s workers, Dask's workers); and whether all the bytes are identical. Run
with two ``--words`` to see which memory follows the texts.
"""

from __future__ import annotations

import argparse
import compileall
import itertools
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional
from unittest import mock

import bench

REPO = Path(__file__).resolve().parent.parent

SEPARATOR = "<q>"
RUNS = ("one process", "-j 2", "dask")

# The process being measured runs the command line in itself and, at exit, writes its own
# peak memory and that of its largest waited-for descendant (in KiB) to argv[1].
_MEASURED = """\
import atexit, json, resource, sys
def _peaks():
    with open(sys.argv[1], "w") as out:
        json.dump({"driver": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                   "others": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}, out)
atexit.register(_peaks)
from rouge155py.cli import main
main(sys.argv[2:])
"""


class _SummedRandom(random.Random):
    """``random.Random`` whose ``choices`` reuses the running sums of the last weights list.

    The draws are the same as with the weights (``choices`` sums them first); bench.py's
    generator then makes 100,000 pairs in seconds instead of minutes.
    """

    _sums: Optional[tuple[list[float], list[float]]] = None

    def choices(self, population: Any, weights: Any = None, *, cum_weights: Any = None, k: int = 1) -> list:
        if weights is not None and cum_weights is None:
            if self._sums is None or self._sums[0] is not weights:
                self._sums = (weights, list(itertools.accumulate(weights)))
            weights, cum_weights = None, self._sums[1]
        return super().choices(population, weights, cum_weights=cum_weights, k=k)


class _Text(bench._Text):
    """bench.py's text generator, drawing from a :class:`_SummedRandom` in the same state."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        summed = _SummedRandom()
        summed.setstate(self.rng.getstate())
        self.rng = summed


def generate(workdir: Path, pairs: int, words: int, shard: int) -> Path:
    """Write the pairs (once): line-aligned files and their shards; the directory."""
    root = workdir / f"cluster-{pairs}-{words}"
    done = root / "done"
    if done.is_file():
        return root
    (root / "shards").mkdir(parents=True, exist_ok=True)
    corpus = replace(bench.CORPORA["cnn"], name="cluster", evals=pairs, words=words)
    with mock.patch.object(bench, "_Text", _Text):
        evals = bench._evals(corpus, pairs)
        for first in range(0, pairs, shard):
            lines = [(peers[0], models[0]) for models, peers in itertools.islice(evals, shard)]
            for name, column in (("hyp", 0), ("ref", 1)):
                text = "".join(SEPARATOR.join(pair[column]) + "\n" for pair in lines)
                (root / "shards" / f"{name}-{first:09d}.txt").write_text(text, "ascii")
    for name in ("hyp", "ref"):
        with open(root / f"{name}.txt", "wb") as whole:
            for part in sorted((root / "shards").glob(f"{name}-*.txt")):
                whole.write(part.read_bytes())
    done.write_text("")
    return root


def shard_items(hyp: str, ref: str, first: int) -> list[Any]:
    """A shard's pairs as eval entries, numbered as in the whole files (run on a worker)."""
    from rouge155py import EvalItem
    from rouge155py.inputs.aligned import read_aligned_files

    config = read_aligned_files(hyp, [ref], SEPARATOR)
    return [EvalItem(first + i, replace(ev, eval_id=str(first + i + 1))) for i, ev in enumerate(config.evals)]


def _peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def drive(root: Path, options_text: str, stats: Path) -> None:
    """The Dask driver: the legacy report on stdout, its timings and peaks as JSON in ``stats``."""
    start = time.perf_counter()
    import dask
    import dask.bag
    import distributed

    from rouge155py import parse_command_line
    from rouge155py.dask import score_on_cluster

    imported = time.perf_counter()
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(cluster)
    started = time.perf_counter()
    shards = sorted((root / "shards").glob("hyp-*.txt"))
    parts = [
        dask.delayed(shard_items)(str(hyp), str(hyp.with_name("ref" + hyp.name[3:])), int(hyp.stem[4:]))
        for hyp in shards
    ]
    words = [*options_text.split(), "--hyp", str(root / "hyp.txt"), "--ref", str(root / "ref.txt")]
    options = parse_command_line([*words, "--sep", SEPARATOR]).options
    report = score_on_cluster(dask.bag.from_delayed(parts), options, client=client)
    scored = time.perf_counter()
    sys.stdout.write(report.to_legacy())
    sys.stdout.flush()
    workers = client.run(_peak_kib)
    found = {
        "import": imported - start,
        "cluster": started - imported,
        "score": scored - started,
        "partitions": len(parts),
        "driver": _peak_kib(),
        "others": max(workers.values()),
    }
    client.close()
    cluster.close()
    stats.write_text(json.dumps(found))


def run(name: str, root: Path, options_text: str, out_dir: Path) -> dict[str, Any]:
    """One run in its own process: wall time, peaks (MiB), output bytes and the driver's timings."""
    stats = out_dir / f"{name.replace(' ', '-')}.json"
    out = out_dir / f"{name.replace(' ', '-')}.out"
    if name == "dask":
        command = [
            sys.executable,
            __file__,
            "--driver",
            str(root),
            "--options",
            options_text,
            "--stats",
            str(stats),
        ]
    else:
        jobs = ["-j", "2"] if name == "-j 2" else []
        files = ["--hyp", str(root / "hyp.txt"), "--ref", str(root / "ref.txt"), "--sep", SEPARATOR]
        command = [
            sys.executable,
            "-c",
            _MEASURED,
            str(stats),
            "-e",
            str(REPO / "data"),
            *options_text.split(),
        ]
        command += [*jobs, *files]
    start = time.perf_counter()
    with open(out, "wb") as output:
        subprocess.run(command, stdout=output, check=True)
    found = {"seconds": time.perf_counter() - start, **json.loads(stats.read_text())}
    found["driver"] /= 1024
    found["others"] /= 1024
    found["output"] = out.read_bytes()
    return found


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workdir", type=Path, default=REPO / "bench-work")
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--words", type=int, default=60, help="about this many words per summary")
    parser.add_argument("--shard", type=int, default=6_250, help="pairs per shard: one partition each")
    parser.add_argument("--options", default=bench.FULL, help=f"ROUGE options (default: {bench.FULL})")
    parser.add_argument(
        "--only", default=",".join(RUNS), help=f"comma-separated runs among: {', '.join(RUNS)}"
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs of each; medians and the largest peaks")
    parser.add_argument("--driver", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--stats", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.driver is not None:
        drive(args.driver, args.options, args.stats)
        return 0
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")]))
    compileall.compile_dir(str(REPO / "rouge155py"), quiet=1)
    start = time.perf_counter()
    root = generate(args.workdir.resolve(), args.pairs, args.words, args.shard)
    size = sum(p.stat().st_size for p in (root / "hyp.txt", root / "ref.txt")) / 2**20
    print(
        f"{args.pairs:,} pairs of about {args.words} words ({size:.0f} MiB of text, in {root}), "
        f"ready in {time.perf_counter() - start:.1f} s; options {args.options}"
    )
    out_dir = root / "outputs"
    out_dir.mkdir(exist_ok=True)
    runs = [name for name in RUNS if name in args.only.split(",")]
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in runs}
    for _ in range(args.repeat):  # alternating, so that a busier moment touches every run alike
        for name in runs:
            found[name].append(run(name, root, args.options, out_dir))
    outputs = {done["output"] for name in runs for done in found[name]}
    print(f"{'run':<13}{'wall s':>9}{'driver MB':>11}{'others MB':>11}  notes")
    for name in runs:
        seconds = statistics.median(done["seconds"] for done in found[name])
        driver = max(done["driver"] for done in found[name])
        others = max(done["others"] for done in found[name])
        notes = ""
        if name == "dask":
            parts = {
                key: statistics.median(done[key] for done in found[name]) for key in ("cluster", "score")
            }
            notes = (
                f"cluster start {parts['cluster']:.1f} s, scoring and summary {parts['score']:.1f} s, "
                f"{found[name][0]['partitions']} partitions"
            )
        print(f"{name:<13}{seconds:>9.1f}{driver:>11.0f}{others:>11.0f}  {notes}")
    print(f"identical bytes: {'yes' if len(outputs) == 1 else 'NO'} ({sum(map(len, found.values()))} runs)")
    return 0 if len(outputs) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
