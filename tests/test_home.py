"""``rouge155py --make-home DIR``: a ROUGE home whose ROUGE-1.5.5.pl runs rouge155py.

The script must run however wrappers start it: directly (pyrouge), as
``perl SCRIPT`` (rouge-metric), with nothing but ``ROUGE_EVAL_HOME`` in the
environment (files2rouge), from any working directory. The real pyrouge on
such a home is tested in test_rouge155.py.
"""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from rouge155py import Rouge155, evaluate_args, format_legacy
from rouge155py.home import SCRIPT_NAME
from rouge155py.resources import EXCEPTION_FILES, STOPWORDS_FILE, bundled_data_dir, exception_dir

PEER = "the cat sat on the mat\nrunning dogs were better\n"
MODELS = ["a cat sat on a mat\nthe dogs ran\n", "the cat was sitting\n\nbetter dogs run fast\n"]


def make_home(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rouge155py", "--make-home", str(folder)], capture_output=True, text=True
    )


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("home") / "ROUGE-1.5.5"
    done = make_home(folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{(folder / SCRIPT_NAME).resolve()}\n"
    return folder


@pytest.fixture
def evaluation(tmp_path: Path) -> Path:
    """A small SEE evaluation in tmp_path (paths relative to it); returns the configuration."""
    for name, text in [("peer.html", PEER)] + [(f"model{i}.html", t) for i, t in enumerate(MODELS)]:
        (tmp_path / name).write_text(Rouge155.convert_text_to_rouge_format(text))
    models = "".join(f'<M ID="{i}">model{i}.html</M>' for i in range(len(MODELS)))
    config = tmp_path / "conf.xml"
    config.write_text(
        '<ROUGE-EVAL version="1.5.5"><EVAL ID="1"><PEER-ROOT>.</PEER-ROOT><MODEL-ROOT>.</MODEL-ROOT>'
        '<INPUT-FORMAT TYPE="SEE"></INPUT-FORMAT><PEERS><P ID="7">peer.html</P></PEERS>'
        f"<MODELS>{models}</MODELS></EVAL></ROUGE-EVAL>"
    )
    return config


def test_layout(home: Path) -> None:
    script = home / SCRIPT_NAME
    assert script.read_text().startswith("#!/bin/sh\n")
    assert script.stat().st_mode & stat.S_IXUSR
    bundled = bundled_data_dir()
    assert (home / "data" / STOPWORDS_FILE).read_bytes() == (bundled / STOPWORDS_FILE).read_bytes()
    source = exception_dir(bundled)
    assert source is not None
    for name in EXCEPTION_FILES:
        copied = home / "data" / "WordNet-2.0-Exceptions" / name
        assert copied.read_bytes() == (source / name).read_bytes()


def test_making_it_again_is_harmless(home: Path) -> None:
    before = (home / SCRIPT_NAME).read_bytes()
    assert make_home(home).returncode == 0
    assert (home / SCRIPT_NAME).read_bytes() == before


def test_a_real_rouge_script_is_never_replaced(tmp_path: Path) -> None:
    script = tmp_path / SCRIPT_NAME
    script.write_text("#!/usr/bin/perl -w\n# the real one\n")
    done = make_home(tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("rouge155py: error: ") and "not replaced" in done.stderr
    assert script.read_text() == "#!/usr/bin/perl -w\n# the real one\n"


LAUNCHES = ["direct", "perl", "bare environment", "shadowing working directory"]


@pytest.mark.parametrize("launch", LAUNCHES)
def test_script_runs_rouge155py(home: Path, evaluation: Path, launch: str, monkeypatch) -> None:
    args = ["-e", str(home / "data"), "-a", "-n", "2", "-m", "-r", "100", "conf.xml"]
    command = [str(home / SCRIPT_NAME), *args]
    env = None
    if launch == "perl":
        perl = shutil.which("perl")
        if perl is None:
            pytest.skip("perl is not installed")
        command = [perl, *command]
    elif launch == "bare environment":
        env = {"ROUGE_EVAL_HOME": str(home)}  # all files2rouge passes: no PATH, no HOME
    elif launch == "shadowing working directory":
        (evaluation.parent / "dataclasses.py").write_text("raise SystemExit('shadowed')\n")
    done = subprocess.run(command, cwd=evaluation.parent, env=env, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    monkeypatch.chdir(evaluation.parent)
    expected = format_legacy(evaluate_args(args))
    assert done.stdout.decode() == expected
    assert expected.startswith("---------------------------------------------\n7 ROUGE-1 Average_R: ")


def test_script_fails_as_rouge155py_does(home: Path, tmp_path: Path) -> None:
    done = subprocess.run([str(home / SCRIPT_NAME), "-a", "missing.xml"], cwd=tmp_path, capture_output=True)
    assert done.returncode == 3
    assert done.stderr.decode().startswith("rouge155py: error: cannot open configuration file missing.xml")
