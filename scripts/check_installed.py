"""Check an installed rouge155py (a wheel's): README's first command prints the Perl's archived
bytes, with the C kernel loaded.

    python -I scripts/check_installed.py REPO     # REPO: a checkout (its examples/, data/, fixtures)

Run with ``-I`` (isolated): the checkout's own package is then never the one imported. Used by
``scripts/build_wheels.sh`` and by cibuildwheel's test command (pyproject.toml).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

README_FIRST = [
    "-e",
    "data",
    "-a",
    "-n",
    "4",
    "-w",
    "1.2",
    "-2",
    "4",
    "-U",
    "examples/duc-mini/rouge-config.xml",
]


def main(repo: Path) -> int:
    import rouge155py
    from rouge155py._kernel import accel

    where = Path(rouge155py.__file__).resolve()
    if repo.resolve() in where.parents:
        return _fail(f"the checkout's package was imported ({where}), not the installed one")
    if accel is None:
        return _fail("the C kernel is not loaded")
    command = [sys.executable, "-I", "-m", "rouge155py", *README_FIRST]
    run = subprocess.run(command, cwd=repo, capture_output=True, check=False)
    expected = (repo / "tests/fixtures/perl/design-card/stdout.txt").read_bytes()
    if run.returncode != 0 or run.stdout != expected or run.stderr:
        return _fail(
            f"README's first command: exit {run.returncode}, stderr {run.stderr[-300:]!r}, "
            f"stdout {'as archived' if run.stdout == expected else 'not the archived bytes'}"
        )
    verbose = subprocess.run([*command[:4], "-v", *README_FIRST], cwd=repo, capture_output=True, check=False)
    first = verbose.stderr.decode(errors="replace").splitlines()[:1]
    if verbose.returncode != 0 or not first or "C kernel" not in first[0]:
        return _fail(f"-v does not say the kernel runs: {first}")
    page = subprocess.run([*command, "--format", "html"], cwd=repo, capture_output=True, check=False)
    if page.returncode != 0 or b"<script>" not in page.stdout or b"<style>" not in page.stdout:
        return _fail(
            f"--format html: exit {page.returncode}, stderr {page.stderr[-300:]!r} (its style and script?)"
        )
    print(
        f"check_installed: {first[0]}; kernel {accel.__file__}; the report is the Perl's bytes; "
        "the HTML page has its style and script"
    )
    return 0


def _fail(message: str) -> int:
    print(f"check_installed: {message}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else ".")))
