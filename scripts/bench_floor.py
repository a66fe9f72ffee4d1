"""Time ``rouge155py.rouge_score``'s ``score_batch`` against a floor: a small C program that does
the same work plainly (scripts/floor_rouge.c), on bench.py's CNN-like pairs.

    python scripts/bench_floor.py [--pairs 11490] [--repeat 7] [--stem] [--instructions]

The floor is compiled with the kernel's flags (``-O2 -ffp-contract=off``, by ``$CC``, else
``cc`` or ``gcc``) and reads the pairs from a file this script writes next to bench.py's texts
(``bench-work/cnn-spl-N-pairs.bin``). It tokenizes as rouge-score does without stemming and
scores rouge1, rouge2 and rougeL; it times its text stage and scoring (CPU time, reading the
file excluded). In this process, ``RougeScorer(["rouge1", "rouge2", "rougeL"],
use_stemmer=False).score_batch(references, predictions)`` is timed the same way (CPU time,
one thread, the result freed outside the timing). Rounds alternate the two sides; each round
runs the floor's process with ``INNER`` repeats (its first, which warms the caches, is not
counted) and the kernel as often. Medians are reported with their ratio, kernel / floor.
Both sides' scores are digested (FNV-1a over the doubles, pair after pair, P R F of rouge1,
rouge2, rougeL): the digests must be equal.

``--stem`` also times ``score_batch`` with stemming (the floor does not stem: for reference).
``--instructions`` counts instructions under callgrind (valgrind): the floor's ``floor_run``
and the kernel's ``rs_score_pairs`` (its Score objects included), which a shared machine's
load does not change.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import time
from array import array
from pathlib import Path
from typing import Optional

from bench import CNN, REPO, api_texts

FLOOR_SOURCE = REPO / "scripts" / "floor_rouge.c"
FLAGS = ["-O2", "-ffp-contract=off"]  # the kernel's (setup.py)
TYPES = ["rouge1", "rouge2", "rougeL"]
INNER = 3  # timed repeats per round and side, after the floor process's warm-up run

# A call of score_batch in a process of its own, for callgrind: argv[1] the texts.
_KERNEL_ONCE = """\
import json, sys
from rouge155py.rouge_score import rouge_scorer
with open(sys.argv[1], encoding="ascii") as texts:
    predictions, references = json.load(texts)
scorer = rouge_scorer.RougeScorer({types!r}, use_stemmer=False)
scorer.score_batch(references, predictions)
"""


def write_pairs(texts: Path, path: Path) -> tuple[list[str], list[str]]:
    """The texts' (references, predictions), also written as the floor reads them: "RSPAIRS1",
    the pair count (uint64), then every reference and every prediction as a uint32 byte
    count and its UTF-8 bytes (little-endian)."""
    with open(texts, encoding="ascii") as f:
        predictions, references = json.load(f)
    if not path.is_file():
        parts = [b"RSPAIRS1", struct.pack("<Q", len(references))]
        for text in [*references, *predictions]:
            data = text.encode()
            parts += [struct.pack("<I", len(data)), data]
        partial = path.with_suffix(".partial")
        partial.write_bytes(b"".join(parts))
        partial.replace(path)
    return references, predictions


def compile_floor(out: Path) -> Path:
    """The floor program, compiled when its source is newer than the program."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or "cc"
    if not out.is_file() or out.stat().st_mtime < FLOOR_SOURCE.stat().st_mtime:
        subprocess.run([compiler, *FLAGS, "-o", str(out), str(FLOOR_SOURCE)], check=True)
    return out


def fnv1a(data: bytes) -> str:
    """FNV-1a (64 bits) of the bytes, as the floor prints it."""
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def digest(scores: list) -> str:
    """The digest of score_batch's scores: their doubles in the floor's order."""
    values = array("d", (float(v) for s in scores for t in TYPES for v in s[t]))
    if sys.byteorder != "little":
        values.byteswap()
    return fnv1a(values.tobytes())


def run_floor(program: Path, pairs: Path) -> tuple[list[float], str]:
    """One process of the floor: its timed repeats (ms, warm-up dropped) and its digest."""
    done = subprocess.run(
        [str(program), str(pairs), str(INNER + 1)], capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout)
    return found["ms"][1:], found["digest"]


def time_kernel(references: list[str], predictions: list[str], stem: bool) -> tuple[list[float], str]:
    """INNER calls of score_batch: CPU milliseconds of each, and the digest of the scores."""
    from rouge155py.rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    times, found = [], ""
    for k in range(INNER):
        gc.collect()
        start = time.process_time()
        scores = scorer.score_batch(references, predictions)
        times.append((time.process_time() - start) * 1e3)
        if k == 0:
            found = digest(scores)
        del scores
    return times, found


def instructions(command: list[str], function: str) -> Optional[int]:
    """Instructions callgrind counts in `function` (and what it calls) during the command."""
    if not shutil.which("valgrind"):
        return None
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            f"--toggle-collect={function}",
            *command,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    return int(found.group(1).replace(",", "")) if found and done.returncode == 0 else None


def main(argv: Optional[list[str]] = None, acceptance: Optional[list[str]] = None) -> int:
    """Print the timings; ``acceptance`` (bench.py's) gets the ratio and its target."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=11490, help="CNN-like pairs (default 11490)")
    parser.add_argument(
        "--repeat", type=int, default=7, help=f"rounds, {INNER} timed runs of each side a round"
    )
    parser.add_argument("--workdir", type=Path, default=REPO / "bench-work")
    parser.add_argument("--stem", action="store_true", help="also time score_batch with stemming")
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    texts = api_texts(CNN, args.workdir, args.pairs)
    pairs = args.workdir / f"{CNN.name}-{args.pairs}-pairs.bin"
    references, predictions = write_pairs(texts, pairs)
    program = compile_floor(args.workdir / "floor_rouge")

    sides = ["floor", "score_batch"] + (["score_batch, stemming"] if args.stem else [])
    times: dict[str, list[float]] = {side: [] for side in sides}
    digests: dict[str, set[str]] = {side: set() for side in sides}
    time_kernel(references[:100], predictions[:100], False)  # imports, first allocations
    for _ in range(args.repeat):
        for side in sides:
            if side == "floor":
                found, one = run_floor(program, pairs)
            else:
                found, one = time_kernel(references, predictions, side != "score_batch")
            times[side] += found
            digests[side].add(one)

    print(f"{args.pairs} CNN-like pairs, {', '.join(TYPES)}; CPU ms, medians of {args.repeat} x {INNER} runs")
    medians = {}
    for side in sides:
        medians[side] = statistics.median(times[side])
        print(
            f"  {side:<24}{medians[side]:>9.2f} ms  (min {min(times[side]):.2f})  "
            f"digest {', '.join(sorted(digests[side]))}"
        )
    same = len(digests["floor"] | digests["score_batch"]) == 1
    ratio = medians["score_batch"] / medians["floor"]
    print(f"  score_batch / floor: {ratio:.3f}x")
    if acceptance is not None:
        acceptance.append(
            f"kernel against the floor program ({args.pairs:,} pairs, rouge1/2/L): "
            f"{medians['score_batch']:.1f} ms / {medians['floor']:.1f} ms = {ratio:.2f}x "
            f"(target 1.3x: {'yes' if ratio <= 1.3 else 'NO'}); the same scores: {'yes' if same else 'NO'}"
        )
    print(f"  the same scores (digests, no stemming): {'yes' if same else 'NO'}")
    if args.instructions:
        floor_count = instructions([str(program), str(pairs), "1"], "floor_run")
        code = _KERNEL_ONCE.format(types=TYPES)
        kernel_count = instructions([sys.executable, "-c", code, str(texts)], "rs_score_pairs")
        if floor_count and kernel_count:
            print(
                f"  instructions: floor_run {floor_count:,}, rs_score_pairs {kernel_count:,}: "
                f"{kernel_count / floor_count:.3f}x"
            )
        else:
            print("  instructions: callgrind unavailable or failed")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
