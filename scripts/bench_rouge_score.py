"""Time rouge-score's dialect: ``score_batch`` of ``rouge155py.rouge_score`` against rouge-score-rs's
and rouge-score's own per-pair ``score``, and each one's ``score`` called once per pair (a
training loop, HF ``evaluate``), on bench.py's CNN-like pairs.

    python scripts/bench_rouge_score.py [--pairs 11490] [--repeat 5] [--reference-repeat 1]

The texts are bench.py's ``api-vs-rouge-score`` texts (``bench-work/cnn-spl-N-texts.json``,
made if missing): one string per summary, its sentences joined by newlines. Every side
scores rouge1, rouge2, rougeL and rougeLsum with stemming (the loops also without), in its
own process, from the lists of strings to a list of per-pair scores, and prints that time;
sides alternate,
and the medians are reported with the ratios. rouge-score-rs runs with one thread
(``RAYON_NUM_THREADS=1``) and with its default (all cores). Each process also prints a
digest of every Score field of every pair: the digests say whether the sides give the
same numbers. A side whose package is not installed (``pip install rouge-score-rs``) is
left out.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Optional

from bench import CNN, REPO, api_texts

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

_SIDE = """\
import hashlib, json, sys, time
with open(sys.argv[1], encoding="ascii") as texts:
    predictions, references = json.load(texts)
start = time.perf_counter()
from {module} import rouge_scorer
scorer = rouge_scorer.RougeScorer({types!r}, use_stemmer={stem})
imported = time.perf_counter()
{body}
done = time.perf_counter()
digest = hashlib.sha256(repr([[tuple(s[t]) for t in {types!r}] for s in scores]).encode()).hexdigest()
print(json.dumps({{"import": imported - start, "score": done - imported, "digest": digest[:16]}}))
"""
_BATCH = "scores = scorer.score_batch(references, predictions)"
_LOOP = "scores = [scorer.score(r, p) for r, p in zip(references, predictions)]"

# name -> (module, body, environment changes)
SIDES = {
    "rouge155py score_batch": ("rouge155py.rouge_score", _BATCH, {}),
    "rouge-score-rs score_batch, 1 thread": ("rouge_score_rs", _BATCH, {"RAYON_NUM_THREADS": "1"}),
    "rouge-score-rs score_batch, all cores": ("rouge_score_rs", _BATCH, {}),
    "rouge155py score (a loop)": ("rouge155py.rouge_score", _LOOP, {}),
    "rouge-score-rs score (a loop)": ("rouge_score_rs", _LOOP, {"RAYON_NUM_THREADS": "1"}),
    "rouge155py score (a loop), no stemming": ("rouge155py.rouge_score", _LOOP, {}),
    "rouge-score-rs score (a loop), no stemming": ("rouge_score_rs", _LOOP, {"RAYON_NUM_THREADS": "1"}),
    "rouge-score score (a loop)": ("rouge_score", _LOOP, {}),
}
REFERENCE = "rouge-score score (a loop)"


def run_side(name: str, texts: Path) -> Optional[dict]:
    """One process of a side: its timings and digest, or None when its package is missing."""
    module, body, env = SIDES[name]
    code = _SIDE.format(module=module, types=TYPES, body=body, stem="no stemming" not in name)
    run = subprocess.run(
        [sys.executable, "-c", code, str(texts)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )
    if run.returncode != 0:
        if "ModuleNotFoundError" in run.stderr:
            return None
        raise RuntimeError(f"{name} failed: {run.stderr.strip().splitlines()[-1]}")
    return json.loads(run.stdout)  # type: ignore[no-any-return]


_ONE_PAIR = """\
import timeit
from {module} import rouge_scorer
scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer={stem})
call = lambda: scorer.score("the cat sat on the mat", "a cat sat on a mat")
print(min(timeit.repeat(call, number=20000, repeat=7)) / 20000 * 1e6)
"""


def one_pair_microseconds(module: str, stem: bool) -> Optional[float]:
    """One ``score()`` call on a 6-word pair, in microseconds (best of 7 runs of 20,000), in a
    process of its own; None where the package is not installed."""
    code = _ONE_PAIR.format(module=module, stem=stem)
    env = {**os.environ, "RAYON_NUM_THREADS": "1"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    return float(run.stdout) if run.returncode == 0 else None


def main(argv: Optional[list[str]] = None, acceptance: Optional[list[str]] = None) -> int:
    """Print the timings; ``acceptance`` (bench.py's) gets the per-pair loop's ratios and targets."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=11490, help="CNN-like pairs (default 11490)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each fast side (default 5)")
    parser.add_argument("--reference-repeat", type=int, default=1, help="runs of rouge-score (default 1)")
    parser.add_argument("--workdir", type=Path, default=REPO / "bench-work")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    texts = api_texts(CNN, args.workdir, args.pairs)
    runs: dict[str, list[dict]] = {name: [] for name in SIDES}
    missing: set[str] = set()
    for round_ in range(max(args.repeat, args.reference_repeat)):
        for name in SIDES:
            limit = args.reference_repeat if name == REFERENCE else args.repeat
            if name in missing or round_ >= limit:
                continue
            found = run_side(name, texts)
            if found is None:
                missing.add(name)
            else:
                runs[name].append(found)
    print(f"{args.pairs} CNN-like pairs, {', '.join(TYPES)}, stemming unless said; medians of the runs")
    print(f"  {'side':<44}{'runs':>5}{'import s':>10}{'score s':>9}  digest of every score")
    medians = {}
    for name, done in runs.items():
        if not done:
            print(f"  {name:<44}  not installed")
            continue
        medians[name] = statistics.median(d["score"] for d in done)
        imported = statistics.median(d["import"] for d in done)
        digests = sorted({d["digest"] for d in done})
        print(f"  {name:<44}{len(done):>5}{imported:>10.2f}{medians[name]:>9.3f}  {', '.join(digests)}")
    ours = medians.get("rouge155py score_batch")
    if ours:
        for name, seconds in medians.items():
            if name != "rouge155py score_batch":
                print(f"  {name} / rouge155py score_batch: {seconds / ours:.2f}x")
    for suffix in ("", ", no stemming"):
        loop = medians.get(f"rouge155py score (a loop){suffix}")
        theirs = medians.get(f"rouge-score-rs score (a loop){suffix}")
        if loop and theirs:
            print(f"  a loop of score(){suffix}: rouge-score-rs / rouge155py: {theirs / loop:.2f}x")
            if acceptance is not None:
                acceptance.append(
                    f"a loop of score(){suffix or ', stemming'} ({args.pairs:,} pairs): "
                    f"rouge155py {loop:.3f} s, rouge-score-rs {theirs:.3f} s: {theirs / loop:.2f}x "
                    f"(target 1.5x: {'yes' if theirs / loop >= 1.5 else 'NO'})"
                )
    for module in ("rouge155py.rouge_score", "rouge_score_rs"):
        for stem in (False, True):
            found = one_pair_microseconds(module, stem)
            if found is not None:
                print(f"  one score() of a 6-word pair, {module}, stemming {stem}: {found:.2f} us")
                if acceptance is not None and module == "rouge155py.rouge_score":
                    acceptance.append(
                        f"one score() of a 6-word pair, stemming {stem}: {found:.2f} us (target 3 us: "
                        f"{'yes' if found <= 3 else 'NO'})"
                    )
    same = True
    for stemming in (True, False):
        digests = {
            d["digest"]
            for name, done in runs.items()
            for d in done
            if ("no stemming" not in name) == stemming
        }
        same = same and len(digests) <= 1
    print(f"  the same numbers on every side (with stemming, and without): {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
