"""Where the data files come from: -e, ROUGE_EVAL_HOME, RED_EVAL_HOME, the bundled copy.

A real ROUGE-1.5.5 ``data/`` directory (``WordNet-2.0-Exceptions/`` and a
``WordNet-2.0.exc.db``) must give the bytes of the bundled data.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rouge155py.cli import main
from rouge155py.resources import EXCEPTION_FILES, bundled_data_dir, load_data

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
