"""Where the data files come from: -e, ROUGE_EVAL_HOME, RED_EVAL_HOME, the bundled copy.

A real ROUGE-1.5.5 ``data/`` directory (``WordNet-2.0-Exceptions/`` and a
``WordNet-2.0.exc.db``) must give the bytes of the bundled data.
"""

from __future__ import annotations

import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rouge155py.cli import main
from rouge155py.errors import DataError
from rouge155py.text.resources import EXCEPTION_FILES, STOPWORDS_FILE, bundled_data_dir, load_data

REPO = Path(__file__).resolve().parent.parent
CONFIG = "examples/duc-mini/rouge-config.xml"
# Stemming and stopwords are where the data files change the numbers.
OPTIONS = ["-a", "-n", "2", "-m", "-s", "-2", "4", "-u", "-r", "50", CONFIG]


def _run(
    runner: CliRunner, args: list[str], env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, bytes, str]:
    monkeypatch.chdir(REPO)
    for name in ("ROUGE_EVAL_HOME", "RED_EVAL_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = runner.invoke(main, args)
    return result.exit_code, result.stdout_bytes, result.stderr


def _release_layout(root: Path) -> Path:
    """A data directory laid out as ROUGE-1.5.5's own, made from the bundled files."""
    bundled = bundled_data_dir()
    shutil.copy(bundled / "smart_common_words.txt", root / "smart_common_words.txt")
    shutil.copytree(bundled / "WordNet-exceptions", root / "WordNet-2.0-Exceptions")
    (root / "WordNet-2.0.exc.db").write_bytes(b"")  # never read: the lists are
    return root


def _stopword_free(root: Path) -> Path:
    """A data directory with an empty stopword list: -s then removes nothing."""
    (root / "smart_common_words.txt").write_bytes(b"")
    return root


def test_release_layout_gives_the_bundled_bytes(
    cli_runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundled = _run(cli_runner, OPTIONS, {}, monkeypatch)
    release = _run(cli_runner, ["-e", str(_release_layout(tmp_path)), *OPTIONS], {}, monkeypatch)
    assert bundled[0] == release[0] == 0
    assert bundled[1] == release[1]
    assert bundled[1]


def test_the_perl_release_data_directory_gives_the_bundled_bytes(
    cli_runner: CliRunner, oracle, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The oracle's data directory is a real release one, with its Berkeley-DB file."""
    assert (oracle.data_dir / "WordNet-2.0.exc.db").is_file()
    bundled = _run(cli_runner, OPTIONS, {}, monkeypatch)
    release = _run(cli_runner, ["-e", str(oracle.data_dir), *OPTIONS], {}, monkeypatch)
    assert bundled[:2] == release[:2]


def test_lookup_order(cli_runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "full").mkdir()
    empty = _stopword_free(_release_layout(tmp_path / "empty"))
    full = _release_layout(tmp_path / "full")
    with_stopwords = _run(cli_runner, OPTIONS, {}, monkeypatch)[1]
    without = _run(cli_runner, ["-e", str(empty), *OPTIONS], {}, monkeypatch)[1]
    assert with_stopwords != without  # the directory matters
    assert _run(cli_runner, OPTIONS, {"ROUGE_EVAL_HOME": str(empty)}, monkeypatch)[1] == without
    assert _run(cli_runner, OPTIONS, {"RED_EVAL_HOME": str(empty)}, monkeypatch)[1] == without
    both = {"ROUGE_EVAL_HOME": str(full), "RED_EVAL_HOME": str(empty)}
    assert _run(cli_runner, OPTIONS, both, monkeypatch)[1] == with_stopwords  # ROUGE_EVAL_HOME first
    e_first = _run(cli_runner, ["-e", str(full), *OPTIONS], {"ROUGE_EVAL_HOME": str(empty)}, monkeypatch)
    assert e_first[1] == with_stopwords  # -e before the environment


def test_missing_stopword_list_is_a_data_error(
    cli_runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _run(cli_runner, ["-e", str(tmp_path), *OPTIONS], {}, monkeypatch)
    assert code == 5 and out == b""
    assert err.startswith("rouge155py: error:") and "smart_common_words.txt" in err


def test_exception_lines_split_at_the_perls_spaces(tmp_path: Path) -> None:
    """Every line of an exception list is split at runs of ASCII spaces, tabs, CR, VT and FF (the
    Perl's \\s on bytes): first field -> second field (or ""), a later line replacing an earlier one."""
    rng = random.Random(3)
    pieces = [
        b"a",
        b"b",
        b"ab",
        b"\xe9",
        b"'s",
        b"-",
        b"1",
        b" ",
        b"\t",
        b"\r",
        b"\x0b",
        b"\x0c",
        b"\x1c",
        b"\xa0",
    ]
    lists = {
        name: b"\n".join(b"".join(rng.choices(pieces, k=rng.randint(0, 6))) for _ in range(400))
        for name in EXCEPTION_FILES
    }
    expected: dict[str, str] = {}
    for name in EXCEPTION_FILES:
        for line in lists[name].split(b"\n"):
            fields = re.split(rb"[ \t\n\r\f\v]+", line)
            expected[fields[0].decode("latin-1")] = fields[1].decode("latin-1") if len(fields) > 1 else ""
    directory = tmp_path / "WordNet-exceptions"
    directory.mkdir()
    for name, data in lists.items():
        (directory / name).write_bytes(data)
    (tmp_path / "smart_common_words.txt").write_bytes(b"the\n")
    assert load_data(str(tmp_path)).exceptions == expected
    assert load_data(None).exceptions["geese"] == "goose"


def test_the_bundled_exception_lists_are_read_by_a_run_that_stems(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without -m and -M no exception list is read (the Perl's database ships with the package);
    a stem that needs them reads them, and a directory given is read whole (above)."""
    import rouge155py
    from rouge155py.text import resources
    from rouge155py.text.stage import TextSettings, text_stage

    texts = (["The geese ran."], ["A goose runs."])
    stemmed, plain = rouge155py.score(*texts, stem=True).to_legacy(), rouge155py.score(*texts).to_legacy()

    def unread(directory: str, lists: str) -> dict[str, str]:
        raise AssertionError(f"read {lists}")

    monkeypatch.setattr(resources, "_read_exceptions", unread)
    load_data.cache_clear()
    resources.bundled_exceptions.cache_clear()
    try:
        assert load_data(None, stems=False).exceptions is None
        assert rouge155py.score(*texts).to_legacy() == plain
        with pytest.raises(AssertionError, match=r"read .*WordNet-exceptions"):
            rouge155py.score(*texts, stem=True)
        with pytest.raises(AssertionError, match=r"read .*WordNet-exceptions"):
            text_stage(TextSettings()).morph_stem("geese")
        monkeypatch.undo()
        assert text_stage(TextSettings()).morph_stem("geese") == "goose"
        assert rouge155py.score(*texts, stem=True).to_legacy() == stemmed
    finally:
        load_data.cache_clear()
        resources.bundled_exceptions.cache_clear()


# A data directory whose files cannot be read is an error naming the file, however they fail:
# never a wait on a FIFO, a read of /dev/zero until memory runs out, or the bundled lists instead.
BROKEN = {
    "FIFO": "a FIFO that no process is writing to",
    "too large": "is larger than 64 MiB: refused",
    "missing": "No such file or directory",
    "directory": "Is a directory",
    "dangling link": "No such file or directory",
    "link loop": "Too many levels of symbolic links",
}


def _break(path: Path, how: str) -> None:
    path.unlink()
    if how == "FIFO":
        os.mkfifo(path)
    elif how == "too large":
        with open(path, "wb") as handle:
            handle.truncate(64 * 2**20 + 1)  # sparse: nothing is written
    elif how == "directory":
        path.mkdir()
    elif how == "dangling link":
        path.symlink_to(path.parent / "absent")
    elif how == "link loop":
        path.symlink_to(path)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="FIFOs")
@pytest.mark.parametrize("how", list(BROKEN))
@pytest.mark.parametrize("name", [STOPWORDS_FILE, "WordNet-2.0-Exceptions/noun.exc"])
def test_a_broken_data_file_is_a_data_error_naming_it(tmp_path: Path, name: str, how: str) -> None:
    _break(_release_layout(tmp_path) / name, how)

    def waited(signum: int, frame: object) -> None:
        raise AssertionError("waited 10 s for the FIFO")

    previous = signal.signal(signal.SIGALRM, waited)
    signal.alarm(10)
    try:
        with pytest.raises(DataError) as refused:
            load_data(str(tmp_path))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    message = str(refused.value)
    assert message.startswith(f"bad data directory {tmp_path}: ")
    assert str(tmp_path / name) in message and BROKEN[how] in message


def test_a_broken_data_directory_exits_5(
    cli_runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _break(_release_layout(tmp_path) / "WordNet-2.0-Exceptions" / "verb.exc", "missing")
    code, out, err = _run(cli_runner, ["-e", str(tmp_path), *OPTIONS], {}, monkeypatch)
    assert (code, out) == (5, b"")
    assert err == (
        f"rouge155py: error: bad data directory {tmp_path}: cannot open WordNet exception list "
        f"{tmp_path}/WordNet-2.0-Exceptions/verb.exc: No such file or directory\n"
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/zero, rlimits")
@pytest.mark.parametrize("name", [STOPWORDS_FILE, "WordNet-2.0-Exceptions/adj.exc"])
def test_dev_zero_as_a_data_file_is_refused_in_bounded_memory(tmp_path: Path, name: str) -> None:
    """Linked to /dev/zero, in a process with 1 GiB of address space."""
    path = _release_layout(tmp_path) / name
    path.unlink()
    path.symlink_to("/dev/zero")

    def one_gib() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    args = [sys.executable, "-m", "rouge155py", "-e", str(tmp_path), *OPTIONS]
    done = subprocess.run(args, cwd=REPO, capture_output=True, timeout=120, preexec_fn=one_gib, check=False)
    assert (done.returncode, done.stdout) == (5, b"")
    assert done.stderr.decode() == (
        f"rouge155py: error: bad data directory {tmp_path}: {path} is larger than 64 MiB: refused\n"
    )
