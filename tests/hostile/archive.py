"""Record what ROUGE-1.5.5.pl does with each case of the catalogue, in ``perl_archive.json``.

    cd tests && python -m hostile.archive            # needs the Perl
    cd tests && python -m hostile.archive --check    # exit 1 when the archive is stale

For each case: the arguments, what the Perl does (``same``: exits 0, and its
stdout is kept; ``dies``; ``hangs``: no end within ``--timeout`` seconds;
``succeeds`` where rouge155py refuses on purpose), and the first line of its
stderr; its stdout where it exits 0, or where it dies after printing part of its report
(``Partial``). A case whose declared behaviour differs from the Perl's is an error.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from reference.oracle import INSTALL, find_oracle

from .catalogue import CASES, PERL, Partial
from .support import ARCHIVE, build, perl_args

LARGE_OUTPUT = 16384  # bytes of stdout above which only their SHA-256 is kept


def perl_outcome(case: Any, oracle: Any, timeout: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        build(case, Path(tmp))
        try:
            done = oracle.run(perl_args(case, oracle), cwd=Path(tmp), timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"args": list(case.args), "perl": "hangs", "exit": None, "stderr": ""}
    ok = done.returncode == 0
    behaviour = ("same" if case.expect == PERL else "succeeds") if ok else "dies"
    entry = {
        "args": list(case.args),
        "perl": behaviour,
        "exit": done.returncode,
        "stderr": (done.stderr.decode("utf-8", "replace").splitlines() or [""])[0][:200],
    }
    if (ok and case.expect == PERL) or (not ok and isinstance(case.expect, Partial)):
        if len(done.stdout) > LARGE_OUTPUT:
            entry["stdout_sha256"] = hashlib.sha256(done.stdout).hexdigest()
        else:
            entry["stdout"] = done.stdout.decode("latin-1")
    return entry


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--timeout", type=float, default=20.0)
    opts = parser.parse_args()
    oracle = find_oracle()
    if oracle is None:
        print(f"the reference Perl is not installed ({INSTALL})", file=sys.stderr)
        return 2
    archive = {case.name: perl_outcome(case, oracle, opts.timeout) for case in CASES}
    wrong = [
        f"{c.name}: declared {c.perl}, the Perl {archive[c.name]['perl']}"
        for c in CASES
        if archive[c.name]["perl"] != c.perl
    ]
    for line in wrong:
        print(line, file=sys.stderr)
    text = json.dumps(archive, indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    if opts.check:
        stale = not ARCHIVE.is_file() or ARCHIVE.read_text(encoding="utf-8") != text
        return 1 if stale or wrong else 0
    ARCHIVE.write_text(text, encoding="utf-8")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
