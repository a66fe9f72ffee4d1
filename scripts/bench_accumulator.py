"""Time an accumulator's ``update()`` batch by batch and ``compute()`` against one ``Rouge.score()``
call, on bench.py's CNN-like pairs.

    python scripts/bench_accumulator.py [--pairs 11490] [--repeat 5] [--dialect rouge-score]

Each side runs in its own process, from the lists of strings to the report (``Rouge(max_ngram=2,
stem=True)``, the ``-n 2 -m`` of a training loop's evaluation; rouge-score's dialect with
``--dialect``); sides alternate, medians are reported with the ratio to one call. Every
process prints a digest of its report's legacy text: the sides must print the same bytes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Optional

from bench import CNN, REPO, api_texts

_SIDE = """\
import hashlib, json, random, sys, time
with open(sys.argv[1], encoding="ascii") as texts:
    predictions, references = json.load(texts)
size, by_id, options = int(sys.argv[2]), sys.argv[3] == "ids", json.loads(sys.argv[4])
start = time.perf_counter()
from rouge155py import Rouge
rouge = Rouge(**options)
if size == 0:
    report = rouge.score(predictions, references)
else:
    acc = rouge.accumulator()
    order = list(range(len(predictions)))
    if by_id:
        random.Random(1).shuffle(order)
    for k in range(0, len(order), size):
        part = order[k : k + size]
        acc.update([predictions[i] for i in part], [references[i] for i in part], ids=part if by_id else None)
    updated = time.perf_counter()
    report = acc.compute()
done = time.perf_counter()
digest = hashlib.sha256(report.to_legacy().encode()).hexdigest()
compute = done - updated if size else 0.0
print(json.dumps({"seconds": done - start, "compute": compute, "digest": digest[:16]}))
"""

# name -> (batch size, 0 for one call; numbering)
SIDES = {
    "one Rouge.score() call": (0, "order"),
    "update() x batches of 32, compute()": (32, "order"),
    "update() x batches of 256, compute()": (256, "order"),
    "update(ids=) x shuffled batches of 32": (32, "ids"),
}
ONE = "one Rouge.score() call"


def run_side(name: str, texts: Path, options: dict[str, object]) -> dict[str, float]:
    size, numbering = SIDES[name]
    code = [sys.executable, "-c", _SIDE, str(texts), str(size), numbering, json.dumps(options)]
    run = subprocess.run(code, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"{name} failed: {run.stderr.strip()}")
    return json.loads(run.stdout)  # type: ignore[no-any-return]


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=11490, help="CNN-like pairs (default 11490)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side (default 5)")
    parser.add_argument("--dialect", default=None, help="rouge-score: its dialect")
    parser.add_argument("--workdir", type=Path, default=REPO / "bench-work")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    texts = api_texts(CNN, args.workdir, args.pairs)
    options: dict[str, object] = {"max_ngram": 2, "stem": True}
    if args.dialect:
        options["dialect"] = args.dialect
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in SIDES}
    for _ in range(args.repeat):
        for name in SIDES:
            runs[name].append(run_side(name, texts, options))
    print(f"{args.pairs} CNN-like pairs, {options}; medians of {args.repeat} runs, each in its own process")
    print(f"  {'side':<40}{'total s':>9}{'compute s':>11}{'/ one call':>12}  digest of the legacy report")
    one = statistics.median(d["seconds"] for d in runs[ONE])
    for name, done in runs.items():
        seconds = statistics.median(d["seconds"] for d in done)
        compute = statistics.median(d["compute"] for d in done)
        digests = ", ".join(sorted({str(d["digest"]) for d in done}))
        print(f"  {name:<40}{seconds:>9.2f}{compute:>11.2f}{seconds / one:>11.2f}x  {digests}")
    same = len({d["digest"] for done in runs.values() for d in done}) == 1
    print(f"  the same bytes on every side: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
