"""Bounded memory for pathological inputs, and the documented size limits.

The LCS of ROUGE-L/W keeps one backtrack bit per cell of a sentence pair's
table (two rows of values besides); above 2**17 resamples the bootstrap holds
a bounded window of its resample values at a time. The C kernel and the
pure-Python path give the same counts on long sentences and on ROUGE-W weights
that overflow, and the same bootstrap summaries.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from rouge155py import _kernel
from rouge155py.metrics import lcs
from rouge155py.metrics.lcs import LcsText, score_lcs, score_wlcs
from rouge155py.run import bootstrap
from rouge155py.text.corpus import Vocabulary

from .support import DATA, REPO, fuzz

CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")
MEASURE = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
    "sys.exit(done.returncode)"
)


def peak_kb(args: list[str], cwd: Path) -> tuple[int, bytes, list[str], int]:
    """Exit code, stdout, stderr lines (without the last) and the peak resident memory (KiB) of a run."""
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, sys.executable, "-m", "rouge155py", "-e", DATA, *args],
        cwd=cwd,
        capture_output=True,
        timeout=120,
    )
    err = run.stderr.decode("utf-8", "replace").splitlines()
    return run.returncode, run.stdout, err[:-1], int(err[-1])


def peak_mb(args: list[str], cwd: Path) -> tuple[int, bytes, list[str], int]:
    """:func:`peak_kb`, the peak in MiB."""
    code, out, err, peak = peak_kb(args, cwd)
    return code, out, err, peak // 1024


@pytest.mark.slow
def test_rouge_l_memory_of_a_two_million_token_line(tmp_path: Path) -> None:
    """One summary of 2,000,000 tokens on a line against a 200-token model: the table was 1.6 GB."""
    rng = random.Random(5)
    words = [f"w{i}" for i in range(3000)]
    (tmp_path / "peer.spl").write_text(" ".join(rng.choice(words) for _ in range(2_000_000)) + "\n")
    (tmp_path / "model.spl").write_text(" ".join(rng.choice(words) for _ in range(200)) + "\n")
    (tmp_path / "list.txt").write_text("peer.spl model.spl\n")
    code, out, err, peak = peak_mb(["-r", "10", "-z", "SPL", "list.txt"], tmp_path)
    assert (code, err) == (0, [])
    assert out.splitlines()[1] == b"X ROUGE-L Average_R: 1.00000 (95%-conf.int. 1.00000 - 1.00000)"
    # Tokens and their ids take ~200 MB; the table's backtrack bits 50 MB (1.6 GB before).
    assert peak < 450, f"{peak} MB"


@pytest.mark.slow
def test_bootstrap_memory_of_a_million_resamples() -> None:
    """Resample values are streamed: a million resamples take about the memory of a thousand."""
    peaks = {}
    for resamples in ("1000", "1000000"):
        code, out, err, peaks[resamples] = peak_kb(["-a", "-r", resamples, CONFIG], REPO)
        assert (code, err) == (0, [])
        assert out.count(b"Average_R") == 3
    # All values held: about 2.9 times the peak of -r 1000 (72 MB against 25 MB).
    assert peaks["1000000"] <= 1.5 * peaks["1000"], f"{peaks} KiB"


# --------------------------------------------------------------------------
# The kernel and the pure-Python path agree where tables are long or weights overflow
# --------------------------------------------------------------------------


def _texts(model: list[list[str]], peer: list[list[str]]) -> tuple[LcsText, LcsText, LcsText, LcsText]:
    vocabulary = Vocabulary()

    def text(sentences: list[list[str]], vocab: object) -> LcsText:
        tokens = [t for s in sentences for t in s]
        return LcsText(sentences, Counter(tokens), len(tokens), vocab)  # type: ignore[arg-type]

    return text(model, vocabulary), text(peer, vocabulary), text(model, None), text(peer, None)


def _sentences(rng: random.Random, lengths: list[int], vocabulary: int) -> list[list[str]]:
    return [[f"t{rng.randrange(vocabulary)}" for _ in range(n)] for n in lengths]


needs_kernel = pytest.mark.skipif(_kernel.accel is None, reason="C kernel not built")


@needs_kernel
@pytest.mark.parametrize("vocabulary", [2, 5, 40, 400])
def test_long_sentences_same_counts_in_both_paths(vocabulary: int) -> None:
    """With 400 words the 700-token peer sentence has more distinct tokens than the longest
    model sentence has tokens: the kernel's ROUGE-L goes by cells there, else by bit vectors."""
    rng = random.Random(vocabulary)
    model = _sentences(rng, [300, 7, 0, 61], vocabulary)
    peer = _sentences(rng, [9, 700, 0, 33], vocabulary)
    fast_m, fast_p, slow_m, slow_p = _texts(model, peer)
    assert score_lcs(fast_m, fast_p) == score_lcs(slow_m, slow_p)
    for weight in (1.2, 0.3):
        assert score_wlcs(fast_m, fast_p, weight, "m") == score_wlcs(slow_m, slow_p, weight, "m")


@needs_kernel
@pytest.mark.parametrize("weight", [300.0, 1e-300])
def test_overflowing_weights_give_the_same_infinities_in_both_paths(weight: float) -> None:
    """Powers past a double are infinity (and inf / inf NaN), as the Perl goes on with them."""
    rng = random.Random(1)
    fast_m, fast_p, slow_m, slow_p = _texts(_sentences(rng, [40, 9], 3), _sentences(rng, [50], 3))
    fast, slow = score_wlcs(fast_m, fast_p, weight, "m"), score_wlcs(slow_m, slow_p, weight, "m")
    assert repr(fast) == repr(slow)
    assert not all(math.isfinite(value) for value in fast)


@needs_kernel
def test_weights_that_overflow_past_the_longest_run_are_not_used() -> None:
    """k ** 200 overflows from k = 35 on: short sentences never use it, in either path."""
    fast_m, fast_p, slow_m, slow_p = _texts([["a"], ["b"], ["a"]], [["a", "b"], ["b"]])
    fast = score_wlcs(fast_m, fast_p, 200.0, "m")
    assert fast == score_wlcs(slow_m, slow_p, 200.0, "m")
    assert fast.hit == 2.0  # "a" matches twice, but the peer holds one "a"


@pytest.mark.parametrize("streamed", [False, True], ids=["held", "streamed"])
@pytest.mark.parametrize("counting", [0, 1])
def test_bootstrap_same_with_and_without_the_kernel(
    counting: int, streamed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(counting)
    rows = rng.integers(0, 50, size=(37, 3)).astype(float) / (1 if counting else 50)
    streaming = bootstrap.Streaming(above=0, block=700, budget=1500) if streamed else bootstrap.STREAMING
    summaries = []
    for kernel in (_kernel.accel, None):
        monkeypatch.setattr(_kernel, "accel", kernel)
        values = bootstrap.resample(rows.tolist(), 5003, counting, 0.4, streaming)
        assert isinstance(values, bootstrap.Streamed) == streamed
        summaries.append(bootstrap.summarize(values, 95.0, 5003))
    assert summaries[0] == summaries[1]


# --------------------------------------------------------------------------
# Refusals above the documented sizes
# --------------------------------------------------------------------------


@pytest.mark.parametrize("kernel", [True, False], ids=["kernel", "pure"])
def test_lcs_table_over_the_limit_is_one_error_line(
    kernel: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lcs, "MAX_LCS_CELLS", 50 * 40 - 1)
    if not kernel:
        monkeypatch.setattr(_kernel, "accel", None)
    (tmp_path / "peer.spl").write_text("a " * 50 + "\n")
    (tmp_path / "model.spl").write_text("b " * 40 + "\nc\n")
    (tmp_path / "list.txt").write_text("peer.spl model.spl\n")
    outcome = fuzz.run_isolated(["-e", DATA, "-z", "SPL", "list.txt"], tmp_path)
    assert fuzz.judge(outcome) == "error"
    assert outcome.exit_code == 7
    assert outcome.stderr.decode() == (
        "rouge155py: error: ROUGE-L: a sentence of 40 tokens in model.spl against one of 50 tokens in "
        "peer.spl makes an LCS table of 2000 cells, more than 1999: refused\n"
    )


@pytest.mark.slow
def test_summary_over_64_mib_is_refused(tmp_path: Path) -> None:
    with open(tmp_path / "peer.spl", "wb") as handle:
        handle.truncate(64 * 2**20 + 1)  # sparse: nothing is written
    (tmp_path / "model.spl").write_text("a b\n")
    (tmp_path / "list.txt").write_text("peer.spl model.spl\n")
    outcome = fuzz.run_isolated(["-e", DATA, "-z", "SPL", "list.txt"], tmp_path)
    assert outcome.exit_code == 7
    assert outcome.stderr.decode() == "rouge155py: error: peer.spl is larger than 64 MiB: refused\n"


def test_raw_counts_need_no_resamples(tmp_path: Path) -> None:
    """-t 2 prints count sums: a -r above the limit does not matter there, as in the Perl."""
    outcome = fuzz.run_isolated(["-e", DATA, "-a", "-t", "2", "-r", "1e12", CONFIG], REPO, scratch=tmp_path)
    assert (outcome.exit_code, outcome.stderr) == (0, b"")
