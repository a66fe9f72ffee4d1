"""Compare the port with the reference ROUGE-1.5.5.pl on many random cases.

    python scripts/differential.py --metrics N|ALL --cases 1000 --seed 0 \\
        [--jobs 2] [--keep DIR] [--stop-after K]

Case ``i`` uses seed ``--seed + i`` (see ``tests/differential/generate.py``).  Prints
progress, then ``cases: X, both ok: Y, both failed: Z, mismatches: M`` and every
mismatch with its seed; exits 1 when there is a mismatch.  ``--keep DIR`` keeps the
input files of each mismatching case in ``DIR/<metrics>-<seed>`` with the two
outputs beside them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

_REPO = Path(__file__).resolve().parents[1]
for _path in (_REPO / "scripts", _REPO):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from perl_oracle import Oracle, OracleError, ensure_oracle  # noqa: E402

from tests.differential.generate import make_case  # noqa: E402
from tests.differential.runner import compare, port_command, run_both  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Sequence

_oracle: Oracle | None = None


@dataclass
class CaseReport:
    """What one worker sends back."""

    seed: int
    status: str  # "both-ok", "both-failed" or "mismatch"
    description: str | None
    perl_seconds: float
    port_seconds: float


def _init_worker(oracle: Oracle) -> None:
    global _oracle
    _oracle = oracle


def _run_one(job: tuple[int, str, str, str | None]) -> CaseReport:
    seed, metrics, work_dir, keep_dir = job
    assert _oracle is not None
    case_dir = Path(tempfile.mkdtemp(prefix=f"{metrics}-{seed}-", dir=work_dir))
    try:
        case = make_case(seed, case_dir / "case", metrics)
        result = run_both(case, _oracle)
        problem = compare(result)
        if problem is None:
            status = "both-ok" if result.perl.returncode == 0 else "both-failed"
        else:
            status = "mismatch"
            if keep_dir is not None:
                target = Path(keep_dir) / f"{metrics}-{seed}"
                if target.exists():
                    shutil.rmtree(target)
                shutil.copytree(case.cwd, target / "case")
                (target / "perl.stdout").write_bytes(result.perl.stdout)
                (target / "perl.stderr").write_bytes(result.perl.stderr)
                (target / "port.stdout").write_bytes(result.port.stdout)
                (target / "port.stderr").write_bytes(result.port.stderr)
                (target / "command.txt").write_text(
                    "cd case\n"
                    f"perl {_oracle.script} -e {_oracle.data_dir} {' '.join(case.args)}\n"
                    f"{' '.join(port_command(case))}\n"
                )
        return CaseReport(seed, status, problem, result.perl.seconds, result.port.seconds)
    finally:
        shutil.rmtree(case_dir, ignore_errors=True)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metrics", choices=("N", "ALL"), default="N")
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="seed of the first case")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="keep mismatching cases in this directory")
    parser.add_argument("--stop-after", type=int, default=0, metavar="K", help="stop after K mismatches")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; see the module docstring."""
    opts = _parse(argv)
    try:
        oracle = ensure_oracle()
    except OracleError as exc:
        print(f"differential: reference Perl unavailable: {exc}", file=sys.stderr)
        return 2
    if opts.keep is not None:
        opts.keep.mkdir(parents=True, exist_ok=True)
    keep = None if opts.keep is None else str(opts.keep.resolve())
    counts = {"both-ok": 0, "both-failed": 0, "mismatch": 0}
    mismatches: list[CaseReport] = []
    perl_total = port_total = 0.0
    done = 0
    start = time.monotonic()
    step = max(1, opts.cases // 20)
    with tempfile.TemporaryDirectory(prefix="rouge155py-diff-") as work_dir:
        jobs = [(opts.seed + i, opts.metrics, work_dir, keep) for i in range(opts.cases)]
        with multiprocessing.Pool(max(1, opts.jobs), _init_worker, (oracle,)) as pool:
            for report in pool.imap_unordered(_run_one, jobs):
                done += 1
                counts[report.status] += 1
                perl_total += report.perl_seconds
                port_total += report.port_seconds
                if report.status == "mismatch":
                    mismatches.append(report)
                    print(f"mismatch: seed {report.seed}", flush=True)
                if done % step == 0 or done == opts.cases:
                    print(
                        f"[{done}/{opts.cases}] both ok {counts['both-ok']}, "
                        f"both failed {counts['both-failed']}, "
                        f"mismatches {counts['mismatch']} ({time.monotonic() - start:.0f}s)",
                        flush=True,
                    )
                if opts.stop_after and len(mismatches) >= opts.stop_after:
                    pool.terminate()
                    break
    print(
        f"cases: {done}, both ok: {counts['both-ok']}, both failed: {counts['both-failed']}, "
        f"mismatches: {counts['mismatch']}"
    )
    if done:
        print(f"mean seconds per case: perl {perl_total / done:.2f}, port {port_total / done:.2f}")
    for report in sorted(mismatches, key=lambda r: r.seed):
        print(f"\n=== seed {report.seed}\n{report.description}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
