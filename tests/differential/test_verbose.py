"""``-v`` as programs that parse it read it: py-rouge's Perl comparison runs ROUGE-1.5.5.pl
through pyrouge with ``-v`` and reads each instance's counts from the lines
``total 1-gram model count: ...`` (``total ROUGE-L ...`` without ROUGE-N).

:func:`instance_counts` reads them as py-rouge's ``tests/utils.py`` does: the
matching lines, six per instance. A ROUGE home made by ``--make-home`` must
give the same counts as the Perl, live where the Perl is installed and against
the archived Perl outputs everywhere; :func:`canonical` must tell a changed
line from a reordered hash.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .runner import REPO_ROOT, canonical, same_report

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "perl"
EXAMPLE = "examples/duc-mini/rouge-config.xml"

_NGRAM_COUNT = re.compile(r"total\s+\d-gram")
_NGRAM_SCORE = re.compile(r"total\sROUGE-\d-[RPF]:")
_LCS_COUNT = re.compile(r"total\s+ROUGE-L\s+")
_LCS_SCORE = re.compile(r"total\s+ROUGE-L-[RPF]")
_PER_INSTANCE = 6


def instance_counts(output: str) -> list[dict[str, object]]:
    """Per instance, ``{"1-gram": {"model": "329", "peer": ..., "hit": ...}, "ROUGE-1-R": ...}``.

    The ROUGE-N lines when there are any, else the ROUGE-L ones, grouped six by
    six in the order printed; a value is the line's last word.
    """
    lines = output.strip().split("\n")
    found = [line for line in lines if _NGRAM_COUNT.match(line) or _NGRAM_SCORE.match(line)]
    if not found:
        found = [line for line in lines if _LCS_COUNT.match(line) or _LCS_SCORE.match(line)]
    counts: list[dict[str, object]] = []
    for k, line in enumerate(found):
        if k % _PER_INSTANCE == 0:
            counts.append({})
        words = line.replace(":", "").split()
        if words[1].endswith("-gram") or words[1] == "ROUGE-L":  # total 1-gram model count 329
            kind = "hit" if words[2] == "hit" else words[2]
            counts[-1].setdefault(words[1], {})[kind] = words[-1]  # type: ignore[index]
        else:  # total ROUGE-1-R 0.49848, total ROUGE-L-R score 0.4
            counts[-1][words[1]] = words[-1]
    return counts


def _home_run(home: Path, args: list[str]) -> subprocess.CompletedProcess[bytes]:
    """The home's ROUGE-1.5.5.pl, run by path as pyrouge runs it, from the repository root."""
    return subprocess.run(
        [str(home / "ROUGE-1.5.5.pl"), "-e", str(home / "data"), *args],
        cwd=REPO_ROOT,
        capture_output=True,
        check=False,
        timeout=300,
    )


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("home")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    subprocess.run([sys.executable, "-m", "rouge155py", "--make-home", str(directory)], env=env, check=True)
    return directory


def test_instance_counts_reads_the_lines_py_rouge_reads() -> None:
    output = (
        "@Eval (D01)\n***P p\nthe cat\n***M m\ntotal 1-gram model count: 3\ntotal 1-gram peer count: 2\n"
        "total 1-gram hit: 1\ntotal ROUGE-1-R: 0.33333\ntotal ROUGE-1-P: 0.50000\n"
        "total ROUGE-1-F: 0.40000\nD01.1\n---------------------------------------------\n"
    )
    assert instance_counts(output) == [
        {
            "1-gram": {"model": "3", "peer": "2", "hit": "1"},
            "ROUGE-1-R": "0.33333",
            "ROUGE-1-P": "0.50000",
            "ROUGE-1-F": "0.40000",
        }
    ]


@pytest.mark.parametrize("name", ["verbose-ngrams", "verbose-lcs-wlcs-best", "verbose-stem-models-only"])
def test_a_made_home_gives_the_archived_perl_counts(home: Path, name: str) -> None:
    args = json.loads((FIXTURES / name / "args.json").read_text(encoding="utf-8"))
    perl = (FIXTURES / name / "stdout.txt").read_bytes()
    done = _home_run(home, args)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    expected = instance_counts(perl.decode("latin-1"))
    assert len(expected) >= 10
    assert instance_counts(done.stdout.decode("latin-1")) == expected
    assert same_report(perl, done.stdout)


@pytest.mark.parametrize(
    "options",
    [
        pytest.param(
            ["-c", "95", "-r", "100", "-n", "2", "-m", "-f", "A", "-p", "0.5", "-t", "0", "-v", "-a"],
            marks=pytest.mark.slow,
        ),
        ["-c", "95", "-r", "100", "-f", "B", "-p", "0.5", "-t", "0", "-l", "40", "-v", "-a"],  # ROUGE-L only
    ],
    ids=["rouge-n", "rouge-l"],
)
def test_a_made_home_gives_the_perl_counts_live(oracle, home: Path, options: list[str]) -> None:
    perl = oracle.run(["-e", str(oracle.data_dir), *options, EXAMPLE], cwd=REPO_ROOT, timeout=300)
    assert perl.returncode == 0
    done = _home_run(home, [*options, EXAMPLE])
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    expected = instance_counts(perl.stdout.decode("latin-1"))
    assert len(expected) == (60 if "-n" in options else 30)  # 10 evals, 3 systems (-n 2: 2 sizes)
    assert instance_counts(done.stdout.decode("latin-1")) == expected
    assert same_report(perl.stdout, done.stdout)


def _py_rouge_run(pyrouge, home: Path, systems: Path, models: Path) -> str:
    """What py-rouge's Perl comparison does: pyrouge on plain texts, its own ``-v -a`` arguments."""
    rouge = pyrouge.Rouge155(str(home))
    rouge.system_dir, rouge.model_dir = str(systems), str(models)
    rouge.system_filename_pattern, rouge.model_filename_pattern = r"(\d+).txt", "#ID#.[A-Z].txt"
    args = f"-e {home}/data -n 2 -m -c 95 -r 1000 -f A -p 0.5 -t 0 -v -a"
    return rouge.convert_and_evaluate(rouge_args=args)


@pytest.mark.slow
def test_py_rouge_reads_the_perls_counts_through_pyrouge_and_a_made_home(
    oracle, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyrouge = pytest.importorskip("pyrouge")
    monkeypatch.setenv("HOME", str(tmp_path))  # pyrouge writes its settings file there
    systems, models = tmp_path / "system", tmp_path / "model"
    systems.mkdir()
    models.mkdir()
    texts = ["the cat sat on the mat", "a dog barked at the moon all night", "rain fell on the old town"]
    for i, text in enumerate(texts):
        (systems / f"{1000000 + i}.txt").write_text(text + "\n")
        (models / f"{1000000 + i}.A.txt").write_text(" ".join(reversed(text.split())) + " again\n")
        (models / f"{1000000 + i}.B.txt").write_text(text.replace("the", "a") + "\n")
    perl = tmp_path / "perl-home"
    perl.mkdir()
    (perl / "ROUGE-1.5.5.pl").write_text(f'#!/bin/sh\nexec "{oracle.perl}" "{oracle.script}" "$@"\n')
    (perl / "ROUGE-1.5.5.pl").chmod(0o755)
    (perl / "data").symlink_to(oracle.data_dir)
    expected = instance_counts(_py_rouge_run(pyrouge, perl, systems, models))
    assert len(expected) == 6  # 3 summaries, ROUGE-1 then ROUGE-2
    assert instance_counts(_py_rouge_run(pyrouge, home, systems, models)) == expected


def test_canonical_forgives_the_hash_order_alone() -> None:
    perl = b"***P p\nthe cat sat\nthe|1|_cn_|3|cat|1|sat|1\n* Match: a|b\n* Match: c|d\nD1.1\n"
    reordered = b"***P p\nthe cat sat\ncat|1|sat|1|the|1|_cn_|3\n* Match: c|d\n* Match: a|b\nD1.1\n"
    assert same_report(perl, reordered)
    for changed in (
        reordered.replace(b"cat|1", b"cat|2"),
        reordered.replace(b"the cat sat", b"the sat cat"),
        reordered.replace(b"* Match: c|d\n", b""),
        reordered.replace(b"D1.1", b"D1.2"),
    ):
        assert not same_report(perl, changed), changed
    assert canonical(b"a\nb") == [b"a", b"b"]


@pytest.mark.parametrize(
    "distance",
    ["", pytest.param("4.0", marks=pytest.mark.slow), pytest.param("-1", marks=pytest.mark.slow)],
    ids=["empty", "4.0", "unlimited"],
)
def test_skip_bigram_lines_name_the_distance_as_written(oracle, distance: str) -> None:
    """``total ROUGE-S$d ...`` prints ``-2`` as the Perl got it: ``-2 ''`` is ``ROUGE-S``, not
    ``ROUGE-S0`` (found by the differential run, seed 912071)."""
    options = ["-v", "-a", "-r", "10", "-n", "1", "-2", distance, "-U", EXAMPLE]
    perl = oracle.run(["-e", str(oracle.data_dir), *options], cwd=REPO_ROOT, timeout=300)
    assert perl.returncode == 0
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    ours = subprocess.run(
        [sys.executable, "-m", "rouge155py", "-e", str(REPO_ROOT / "data"), *options],
        cwd=REPO_ROOT,
        capture_output=True,
        env=env,
        timeout=300,
    )
    assert ours.returncode == 0, ours.stderr.decode("utf-8", "replace")
    assert same_report(perl.stdout, ours.stdout)
