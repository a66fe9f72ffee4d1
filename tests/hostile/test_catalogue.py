"""The catalogue of hostile inputs (``catalogue.py``), each run in a directory of its own.

Every case asserts its exit code, a single ``rouge155py: error:`` line or the
Perl's bytes, no traceback, an end within the time-out and no file created.
The Perl's bytes come from the installed Perl when there is one, else from
``perl_archive.json``.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest
from reference.oracle import find_oracle

from .catalogue import CASES, PERL, Case, Partial
from .support import archived, build, check, perl_args, run_port

ORACLE = find_oracle()
ARCHIVED = archived()
MIN_CASES = 60


def test_catalogue_size_by_category() -> None:
    counts = Counter(case.category for case in CASES)
    assert sum(counts.values()) >= MIN_CASES, counts
    assert set(counts) == {"xml", "files", "ids", "options"}
    assert len({case.name for case in CASES}) == len(CASES)


def test_archive_holds_every_case_as_declared() -> None:
    for case in CASES:
        entry = ARCHIVED.get(case.name)
        assert entry is not None, f"{case.name}: not archived (cd tests && python -m hostile.archive)"
        assert entry["perl"] == case.perl, case.name
        assert entry["args"] == list(case.args), case.name


def _first_of_each_category(cases: list[Case]) -> list[object]:
    """The first case of each category in the fast tier, the others marked slow."""
    firsts = {case.category: case for case in reversed(cases)}
    return [
        case if firsts[case.category] is case else pytest.param(case, marks=pytest.mark.slow)
        for case in cases
    ]


@pytest.mark.parametrize(
    "case", _first_of_each_category(CASES), ids=lambda case: f"{case.category}:{case.name}"
)
def test_case(case: Case, tmp_path: Path) -> None:
    build(case, tmp_path)
    outcome = run_port(case, tmp_path)
    expected = None
    if case.expect == PERL or isinstance(case.expect, Partial):
        if ORACLE is not None:
            perl = ORACLE.run(perl_args(case, ORACLE), cwd=tmp_path, timeout=120)
            assert (perl.returncode == 0) == (case.expect == PERL), perl.stderr.decode("utf-8", "replace")
            expected = perl.stdout
        elif "stdout_sha256" in ARCHIVED.get(case.name, {}):
            # A large output is archived as its digest: compare the digests.
            digest = ARCHIVED[case.name]["stdout_sha256"]
            assert hashlib.sha256(outcome.stdout).hexdigest() == digest, case.name
            expected = outcome.stdout
        elif case.name in ARCHIVED:
            expected = ARCHIVED[case.name]["stdout"].encode("latin-1")
    check(case, outcome, expected)
