"""``rouge155py --make-home DIR``: a ROUGE home whose ROUGE-1.5.5.pl runs rouge155py.

The script must run however wrappers start it: directly (pyrouge), as
``perl SCRIPT`` (rouge-metric), with nothing but ``ROUGE_EVAL_HOME`` in the
environment (files2rouge), from any working directory. The real pyrouge on
such a home is tested in test_rouge155.py.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from rouge155py import Rouge155, evaluate_args, format_legacy
from rouge155py.text.home import SCRIPT_NAME
from rouge155py.text.resources import EXCEPTION_FILES, STOPWORDS_FILE, bundled_data_dir, exception_dir

PEER = "the cat sat on the mat\nrunning dogs were better\n"
MODELS = ["a cat sat on a mat\nthe dogs ran\n", "the cat was sitting\n\nbetter dogs run fast\n"]


TIMEOUT = 20.0  # against a hang on a FIFO: making a home takes well under a second


def make_home(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rouge155py", "--make-home", str(folder)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
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


# --------------------------------------------------------------------------
# A home whose names were planted beforehand: links, FIFOs, devices, races
# --------------------------------------------------------------------------


def assert_home(folder: Path) -> None:
    """A complete home of regular files (no link left at any name)."""
    script = folder / SCRIPT_NAME
    assert stat.S_ISREG(script.lstat().st_mode) and script.lstat().st_mode & 0o777 == 0o755
    assert script.read_text().startswith("#!/bin/sh\n")
    bundled = bundled_data_dir()
    source = exception_dir(bundled)
    assert source is not None
    expected = {folder / "data" / STOPWORDS_FILE: bundled / STOPWORDS_FILE}
    expected.update({folder / "data" / "WordNet-2.0-Exceptions" / n: source / n for n in EXCEPTION_FILES})
    for copy, original in expected.items():
        assert stat.S_ISREG(copy.lstat().st_mode), copy
        assert copy.read_bytes() == original.read_bytes()


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the home that nothing may touch."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "victim.txt").write_text("not rouge's\n")
    (folder / "victim.txt").chmod(0o600)
    return folder


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_a_link_planted_at_a_data_file_is_replaced_not_written_through(
    tmp_path: Path, outside: Path, link: str
) -> None:
    home = tmp_path / "home"
    (home / "data" / "WordNet-2.0-Exceptions").mkdir(parents=True)
    for planted in (
        home / "data" / STOPWORDS_FILE,
        home / "data" / "WordNet-2.0-Exceptions" / EXCEPTION_FILES[0],
    ):
        if link == "symbolic":
            planted.symlink_to(outside / "victim.txt")
        else:
            os.link(outside / "victim.txt", planted)
    done = make_home(home)
    assert done.returncode == 0, done.stderr
    assert (outside / "victim.txt").read_text() == "not rouge's\n"
    assert (outside / "victim.txt").stat().st_mode & 0o777 == 0o600
    assert_home(home)


def test_a_dangling_link_at_the_script_creates_nothing_outside(tmp_path: Path, outside: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / SCRIPT_NAME).symlink_to(outside / "made")
    done = make_home(home)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in outside.iterdir()) == ["victim.txt"]
    assert_home(home)


def test_a_link_to_a_special_file_keeps_its_mode(tmp_path: Path, outside: Path) -> None:
    """A link at the script's name to a FIFO outside: neither opened (a hang) nor chmod-ed."""
    fifo = outside / "fifo"
    os.mkfifo(fifo, 0o600)
    home = tmp_path / "home"
    home.mkdir()
    (home / SCRIPT_NAME).symlink_to(fifo)
    done = make_home(home)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and fifo.lstat().st_mode & 0o777 == 0o600
    assert_home(home)


@pytest.mark.slow
def test_a_link_to_a_device_keeps_its_mode(tmp_path: Path, outside: Path) -> None:
    """A device node of our own (the null device's numbers) behind a link: its mode is left alone."""
    device = outside / "null"
    try:
        os.mknod(device, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs privileges")
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    (home / SCRIPT_NAME).symlink_to(device)
    (home / "data" / STOPWORDS_FILE).symlink_to(device)
    done = make_home(home)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(device.lstat().st_mode) and device.lstat().st_mode & 0o777 == 0o600
    assert_home(home)


@pytest.mark.parametrize(
    "name", [SCRIPT_NAME, f"data/{STOPWORDS_FILE}", "data/WordNet-2.0-Exceptions/adj.exc"]
)
def test_a_fifo_in_the_home_is_replaced_without_a_hang(tmp_path: Path, name: str) -> None:
    home = tmp_path / "home"
    (home / "data" / "WordNet-2.0-Exceptions").mkdir(parents=True)
    os.mkfifo(home / name)
    done = make_home(home)
    assert done.returncode == 0, done.stderr
    assert_home(home)


@pytest.mark.parametrize("which", ["data", "data/WordNet-2.0-Exceptions"])
def test_a_linked_folder_in_the_home_is_refused(tmp_path: Path, outside: Path, which: str) -> None:
    """A folder of the home that is a link to one outside: refused, nothing written through it."""
    home = tmp_path / "home"
    (home / which).parent.mkdir(parents=True, exist_ok=True)
    (home / which).symlink_to(outside)
    done = make_home(home)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"rouge155py: error: {home / which} is not a folder (a symbolic link or another file): not followed"
    ]
    assert sorted(p.name for p in outside.iterdir()) == ["victim.txt"]


def test_a_file_at_a_folder_name_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    os.mkfifo(home / "data")
    done = make_home(home)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"rouge155py: error: {home / 'data'} is not a folder (a symbolic link or another file): not followed"
    ]


@pytest.mark.slow
def test_homes_made_at_once_in_threads_all_succeed(tmp_path: Path) -> None:
    """Many makers of one home at a time: none sees another's half-written script."""
    import threading

    from rouge155py.text.home import make_home as make

    home = tmp_path / "home"
    failures: list[BaseException] = []

    def maker() -> None:
        for _ in range(20):
            try:
                make(str(home))
            except Exception as error:
                failures.append(error)

    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads change hands as often as they can
    try:
        threads = [threading.Thread(target=maker) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert failures == []
    assert_home(home)


@pytest.mark.slow
def test_homes_made_at_once_by_processes_all_succeed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    command = [sys.executable, "-m", "rouge155py", "--make-home", str(home)]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(8)]
    outcomes = [(run.wait(timeout=TIMEOUT), run.communicate()[1]) for run in runs]
    assert outcomes == [(0, b"")] * 8
    assert_home(home)
    assert sorted(p.name for p in home.iterdir()) == [SCRIPT_NAME, "data"]  # no temporary file left
