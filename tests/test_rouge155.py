"""pyrouge's ``Rouge155`` door: its surface, and its output proved against the Perl and pyrouge itself.

The proof: plain-text summaries with awkward lines (``<``, entities, empty
lines, CRLF, UTF-8, a BOM) are scored by ``Rouge155().convert_and_evaluate()``;
the reference ROUGE-1.5.5.pl scores the HTML files and configuration pyrouge
writes for them; the real pyrouge 0.1.3, unchanged, runs on a home made by
``rouge155py --make-home`` and on the Perl. All outputs must be the same text.
"""

from __future__ import annotations

import logging
import os
import random
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import pytest

from rouge155py import (
    ConfigError,
    DataError,
    InputError,
    Rouge155,
    RougeError,
    UsageError,
    evaluate_args,
    format_legacy,
)

SYSTEM_PATTERN = r"sys.(\d+).txt"
MODEL_PATTERN = r"ref.[A-Z].#ID#.txt"
DEFAULT_ARGS = ["-c", "95", "-2", "-1", "-U", "-r", "1000", "-n", "4", "-w", "1.2", "-a"]
OTHER_ARGS = "-a -n 2 -x -s -2 4 -u -r 200 -f B -p 0.3 -l 12"

WORDS = (
    "the a cat cats dog dogs sat sits running ran runs flies fly better good was were on mat "
    "day sunny harbour ferries AT&T café naïve résumé 中文 Über"
).split()
AWKWARD = [
    "x < y and the cat sat",
    "&amp; the dog &lt; sat",
    "",
    "   ",
    "\tthe\tcat\t",
    "<b>bold</b> the mat",
    "the | cat | sat",
    "Mr. Smith ran.  The day was sunny!",
]


def write_summaries(root: Path, seed: int) -> tuple[Path, Path]:
    """Plain-text system and model folders in pyrouge's naming, with awkward lines."""
    rng = random.Random(seed)
    systems, models = root / "systems", root / "models"
    systems.mkdir(parents=True)
    models.mkdir()

    def text() -> bytes:
        lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 10)))]
        for _ in range(rng.randint(0, 4)):
            if rng.random() < 0.4:
                lines.append(rng.choice(AWKWARD))
            else:
                lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))))
        end = rng.choice(["\n", "\r\n"])
        body = end.join(lines) + rng.choice(["", end, end + end])
        return (("\ufeff" if rng.random() < 0.15 else "") + body).encode("utf-8")

    for doc in (1, 2, 3, 10, 11):  # pyrouge numbers evals in name order: 1, 10, 11, 2, 3
        (systems / f"sys.{doc}.txt").write_bytes(text())
        for letter in "ABC"[: rng.randint(1, 3)]:
            (models / f"ref.{letter}.{doc}.txt").write_bytes(text())
    (systems / "notes.md").write_bytes(b"not a summary\n")
    (models / "ref.A.99.txt").write_bytes(text())
    return systems, models


def ours(systems: Path, models: Path, **kwargs: object) -> Rouge155:
    rouge = Rouge155(**kwargs)  # type: ignore[arg-type]
    rouge.system_dir, rouge.model_dir = str(systems), str(models)
    rouge.system_filename_pattern, rouge.model_filename_pattern = SYSTEM_PATTERN, MODEL_PATTERN
    return rouge


@pytest.fixture(scope="module")
def pyrouge_module() -> types.ModuleType:
    """The real pyrouge 0.1.3, its console logging silenced."""
    pyrouge = pytest.importorskip("pyrouge")
    from pyrouge.utils import log

    log.get_global_console_logger().setLevel(logging.ERROR)
    return pyrouge


# -- conversion and configuration ---------------------------------------------


def test_conversion_is_pyrouges_html() -> None:
    html = Rouge155.convert_text_to_rouge_format("a b.\nc <d>\r\n")
    assert html == (
        "<html>\n<head>\n<title>dummy title</title>\n</head>\n"
        '<body bgcolor="white">\n'
        '<a name="1">[1]</a> <a href="#1" id=1>a b.</a>\n'
        '<a name="2">[2]</a> <a href="#2" id=2>c <d>\r</a>\n'
        '<a name="3">[3]</a> <a href="#3" id=3></a>\n'
        "</body>\n</html>"
    )
    assert Rouge155.convert_text_to_rouge_format("", "T").count("id=1></a>") == 1


def test_conversion_and_configuration_equal_the_real_pyrouges(tmp_path: Path, pyrouge_module) -> None:
    theirs = pyrouge_module.Rouge155
    systems, models = write_summaries(tmp_path / "plain", seed=7)
    for path in sorted(systems.iterdir()) + sorted(models.iterdir()):
        text = path.read_bytes().decode("utf-8")
        assert Rouge155.convert_text_to_rouge_format(text) == theirs.convert_text_to_rouge_format(text)
    for kind, folder in (("systems", systems), ("models", models)):
        Rouge155.convert_summaries_to_rouge_format(str(folder), str(tmp_path / "ours" / kind))
        theirs.convert_summaries_to_rouge_format(str(folder), str(tmp_path / "theirs" / kind))
        for path in folder.iterdir():
            assert (tmp_path / "ours" / kind / path.name).read_bytes() == (
                tmp_path / "theirs" / kind / path.name
            ).read_bytes()
    for system_id in (1, "sysA", None):
        args = (str(systems), SYSTEM_PATTERN, str(models), MODEL_PATTERN)
        Rouge155.write_config_static(*args, str(tmp_path / "ours.xml"), system_id)
        theirs.write_config_static(*args, str(tmp_path / "theirs.xml"), system_id)
        assert (tmp_path / "ours.xml").read_bytes() == (tmp_path / "theirs.xml").read_bytes()


def test_evals_follow_pyrouges_matching(tmp_path: Path) -> None:
    systems, models = write_summaries(tmp_path, seed=1)
    config = tmp_path / "conf.xml"
    Rouge155.write_config_static(str(systems), SYSTEM_PATTERN, str(models), MODEL_PATTERN, str(config), 5)
    xml = config.read_text()
    peers = [line.strip() for line in xml.splitlines() if "<P " in line]
    assert peers == [f'<P ID="5">sys.{n}.txt</P>' for n in (1, 10, 11, 2, 3)]  # name order
    assert "notes.md" not in xml and "ref.A.99.txt" not in xml
    assert '<M ID="A">ref.A.1.txt</M>' in xml
    assert xml.startswith('<ROUGE-EVAL version="1.55">\n    <EVAL ID="1">') and xml.endswith("</ROUGE-EVAL>")


def test_write_config_writes_where_asked_or_in_a_new_temporary_folder(tmp_path: Path, monkeypatch) -> None:
    systems, models = write_summaries(tmp_path / "plain", seed=1)
    rouge = ours(systems, models)
    assert rouge.config_file is None
    assert rouge.write_config(str(tmp_path / "mine.xml"), system_id=0) == rouge.config_file
    assert '<P ID="1">sys.1.txt</P>' in (tmp_path / "mine.xml").read_text()  # a false ID is 1
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = Path(rouge.write_config())
    assert path.name == "rouge_conf.xml" and path.parent.parent == tmp_path
    assert path.read_bytes() == (tmp_path / "mine.xml").read_bytes()


def test_pattern_errors(tmp_path: Path) -> None:
    systems, models = write_summaries(tmp_path, seed=2)
    rouge = ours(systems, models)
    rouge.model_filename_pattern = "nothing.#ID#"
    with pytest.raises(
        ConfigError, match="Could not find any model summaries for the system summary with ID 1"
    ):
        rouge.evaluate()
    rouge.system_filename_pattern = r"none(\d+)"
    with pytest.raises(ConfigError, match="Did not find any files matching the pattern"):
        rouge.evaluate()
    rouge.system_filename_pattern = r"sys.\d+.txt"
    with pytest.raises(UsageError, match="needs a group"):
        rouge.evaluate()
    unset = Rouge155()
    with pytest.raises(UsageError, match="set system_dir and model_dir"):
        unset.evaluate()
    unset.system_dir, unset.model_dir = str(systems), str(models)
    with pytest.raises(UsageError, match="set system_filename_pattern"):
        unset.write_config(str(tmp_path / "c.xml"))


def test_missing_directories_raise_pyrouges_messages(tmp_path: Path) -> None:
    rouge = Rouge155()
    with pytest.raises(InputError) as caught:
        rouge.system_dir = "nope"
    assert str(caught.value) == "Cannot set system directory because the path nope does not exist."
    with pytest.raises(InputError, match="Cannot set model directory"):
        rouge.model_dir = str(tmp_path / "nope")
    with pytest.raises(DataError, match="Cannot set data directory"):
        Rouge155(str(tmp_path))  # a home without data/
    with pytest.raises(UsageError, match="Cannot set configuration file directory"):
        rouge.config_file = str(tmp_path / "nope" / "c.xml")
    # pyrouge raised Exception: what its users catch still catches these.
    assert issubclass(InputError, RougeError) and issubclass(RougeError, Exception)
    (tmp_path / "data").mkdir()
    assert Rouge155(str(tmp_path)).data_dir == os.path.join(str(tmp_path), "data")


def test_rouge_args_unquoted_and_their_precedence(tmp_path: Path) -> None:
    assert Rouge155(rouge_args='"-a -n 2"').args == "-a -n 2"
    assert Rouge155(rouge_args='""').args == '""'
    assert Rouge155(rouge_args="").args is None
    systems, models = write_summaries(tmp_path, seed=3)
    first = ours(systems, models, rouge_args="-a -n 1 -x -r 10").evaluate(rouge_args="-a -n 3 -r 10")
    assert "ROUGE-1 " in first and "ROUGE-2" not in first and "ROUGE-L" not in first
    with pytest.raises(UsageError, match="specify a system ID"):  # pyrouge passes none: -a is needed
        ours(systems, models).convert_and_evaluate(rouge_args="-n 2")


def test_default_args_use_the_bundled_data_whatever_the_environment(tmp_path: Path, monkeypatch) -> None:
    systems, models = write_summaries(tmp_path, seed=4)
    expected = ours(systems, models).convert_and_evaluate()
    monkeypatch.setenv("ROUGE_EVAL_HOME", str(tmp_path / "nowhere"))
    assert ours(systems, models).convert_and_evaluate() == expected
    with pytest.raises(DataError):  # given arguments without -e: ROUGE_EVAL_HOME, as in the Perl
        ours(systems, models).convert_and_evaluate(rouge_args="-a -n 2")


def test_evaluate_reads_html_and_remembers_a_conversion(tmp_path: Path) -> None:
    systems, models = write_summaries(tmp_path / "plain", seed=5)
    for folder in (systems, models):
        Rouge155.convert_summaries_to_rouge_format(str(folder), str(tmp_path / "html" / folder.name))
    converted = ours(systems, models)
    expected = converted.convert_and_evaluate(system_id=3)
    assert expected.startswith("---------------------------------------------\n3 ROUGE-1 Average_R: ")
    assert converted.evaluate(3) == expected  # as pyrouge: the folders now hold the converted summaries
    assert ours(tmp_path / "html" / "systems", tmp_path / "html" / "models").evaluate(3) == expected
    converted.system_dir = str(systems)  # set again: plain text read as SEE has no sentence
    assert "3 ROUGE-1 Average_R: 0.00000 " in converted.evaluate(3)


def test_arguments_naming_a_configuration_read_it(tmp_path: Path) -> None:
    systems, models = write_summaries(tmp_path, seed=6)
    config = tmp_path / "conf.xml"
    html = tmp_path / "html"
    Rouge155.convert_summaries_to_rouge_format(str(systems), str(html / "s"))
    Rouge155.convert_summaries_to_rouge_format(str(models), str(html / "m"))
    Rouge155.write_config_static(
        str(html / "s"), SYSTEM_PATTERN, str(html / "m"), MODEL_PATTERN, str(config), 9
    )
    # ROUGE stops reading options at its first argument: the "-m" pyrouge adds is no option then.
    output = ours(systems, models).convert_and_evaluate(rouge_args=f"-a -n 1 -r 10 {config}")
    assert output.startswith("---------------------------------------------\n9 ROUGE-1")
    assert output == format_legacy(evaluate_args(["-a", "-n", "1", "-r", "10", str(config)]))


def test_output_to_dict_keys_and_values(tmp_path: Path) -> None:
    systems, models = write_summaries(tmp_path, seed=8)
    output = ours(systems, models).convert_and_evaluate()
    scores = Rouge155.output_to_dict(output)
    types_ = ["rouge_1", "rouge_2", "rouge_3", "rouge_4", "rouge_l", "rouge_w_1.2", "rouge_s*", "rouge_su*"]
    measures = ["recall", "precision", "f_score"]
    expected = {f"{t}_{m}{end}" for t in types_ for m in measures for end in ("", "_cb", "_ce")}
    assert set(scores) == expected and len(scores) == 72
    line = next(x for x in output.splitlines() if x.startswith("1 ROUGE-SU* Average_F"))
    value, low, high = line.split()[3], line.split()[5], line.split()[7].rstrip(")")
    assert (scores["rouge_su*_f_score"], scores["rouge_su*_f_score_cb"], scores["rouge_su*_f_score_ce"]) == (
        float(value),
        float(low),
        float(high),
    )
    known = "1 ROUGE-2 Average_R: 0.25000 (95%-conf.int. 0.10000 - 0.40000)\n"
    assert Rouge155.output_to_dict(known) == {
        "rouge_2_recall": 0.25,
        "rouge_2_recall_cb": 0.1,
        "rouge_2_recall_ce": 0.4,
    }
    assert Rouge155().output_to_dict(known.replace("1 ROUGE", "abc ROUGE")) == {}  # numeric IDs only
    assert Rouge155.output_to_dict(known.replace("95%", "90%")) == {}
    assert "rouge_su4_recall" in Rouge155.output_to_dict(
        ours(systems, models).convert_and_evaluate(rouge_args="-a -2 4 -u -r 10")
    )


def test_split_sentences_needs_nltk(tmp_path: Path, monkeypatch) -> None:
    systems, models = write_summaries(tmp_path, seed=9)
    monkeypatch.setitem(sys.modules, "nltk", None)
    monkeypatch.setitem(sys.modules, "nltk.tokenize", None)
    with pytest.raises(UsageError, match="pip install nltk"):
        ours(systems, models).convert_and_evaluate(split_sentences=True)


def test_split_sentences_cleans_as_pyrouge_then_splits(tmp_path: Path, monkeypatch) -> None:
    seen: list[str] = []

    def sent_tokenize(text: str, language: str = "english") -> list[str]:
        seen.append(text)
        return [s.strip() + "." for s in text.split(".") if s.strip()]

    fake = types.ModuleType("nltk.tokenize")
    fake.sent_tokenize = sent_tokenize  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "nltk", types.ModuleType("nltk"))
    monkeypatch.setitem(sys.modules, "nltk.tokenize", fake)
    (tmp_path / "s").mkdir()
    (tmp_path / "m").mkdir()
    (tmp_path / "s" / "sys.1.txt").write_text("the cat|sat.\r\nthe   dog ran. ")
    (tmp_path / "m" / "ref.A.1.txt").write_text("the cat sat. the dog ran.")
    rouge = ours(tmp_path / "s", tmp_path / "m")
    split = rouge.convert_and_evaluate(split_sentences=True, rouge_args="-a -n 1 -r 10")
    assert "the cat sat. the dog ran." in seen  # "|", "\r", "\n" become spaces, runs of spaces one
    assert "1 ROUGE-1 Average_R: 1.00000" in split


# -- the proof: the Perl on what pyrouge writes, the real pyrouge unchanged ------------------


def perl_on_pyrouge_files(oracle, tmp_path: Path, systems: Path, models: Path, args: list[str]) -> str:
    """The Perl's output on the HTML files and configuration pyrouge writes for these summaries."""
    html = tmp_path / "pyrouge-files"
    Rouge155.convert_summaries_to_rouge_format(str(systems), str(html / "system"))
    Rouge155.convert_summaries_to_rouge_format(str(models), str(html / "model"))
    config = html / "rouge_conf.xml"
    Rouge155.write_config_static(
        str(html / "system"), SYSTEM_PATTERN, str(html / "model"), MODEL_PATTERN, str(config), 1
    )
    done = oracle.run([*args, "-m", str(config)], cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    return done.stdout.decode("utf-8")


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_convert_and_evaluate_equals_the_perl(oracle, tmp_path: Path, seed: int) -> None:
    systems, models = write_summaries(tmp_path / "plain", seed)
    expected = perl_on_pyrouge_files(
        oracle, tmp_path, systems, models, ["-e", str(oracle.data_dir), *DEFAULT_ARGS]
    )
    assert ours(systems, models).convert_and_evaluate() == expected
    real_home = str(oracle.data_dir.parent)  # its data/ is -e, as in pyrouge
    assert ours(systems, models, rouge_dir=real_home).convert_and_evaluate() == expected


def test_other_options_equal_the_perl(oracle, tmp_path: Path) -> None:
    systems, models = write_summaries(tmp_path / "plain", seed=14)
    args = f"-e {oracle.data_dir} {OTHER_ARGS}"
    expected = perl_on_pyrouge_files(oracle, tmp_path, systems, models, args.split())
    assert ours(systems, models).convert_and_evaluate(rouge_args=args) == expected
    html = tmp_path / "pyrouge-files"
    assert ours(html / "system", html / "model", rouge_args=f'"{args}"').evaluate() == expected


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    """A ROUGE home made by the command line."""
    folder = tmp_path_factory.mktemp("rouge-home")
    done = subprocess.run(
        [sys.executable, "-m", "rouge155py", "--make-home", str(folder)], capture_output=True, check=True
    )
    assert done.stdout.decode().strip() == str((folder / "ROUGE-1.5.5.pl").resolve())
    return folder


@pytest.fixture
def pyrouge_sandbox(tmp_path: Path, monkeypatch, pyrouge_module) -> types.ModuleType:
    """pyrouge with its settings file and temporary folders under tmp_path."""
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    return pyrouge_module


def run_pyrouge(pyrouge, home: Path, systems: Path, models: Path, **kwargs: object) -> str:
    rouge = pyrouge.Rouge155(str(home))
    rouge.system_dir, rouge.model_dir = str(systems), str(models)
    rouge.system_filename_pattern, rouge.model_filename_pattern = SYSTEM_PATTERN, MODEL_PATTERN
    return rouge.convert_and_evaluate(**kwargs)


def perl_home(oracle, folder: Path) -> Path:
    """A ROUGE home pyrouge can run: an executable script running the reference Perl, its data/."""
    folder.mkdir()
    script = folder / "ROUGE-1.5.5.pl"
    script.write_text(f'#!/bin/sh\nexec "{oracle.perl}" "{oracle.script}" "$@"\n')
    script.chmod(0o755)
    (folder / "data").symlink_to(oracle.data_dir)
    return folder


def test_real_pyrouge_on_the_home_equals_rouge155(home: Path, tmp_path: Path, pyrouge_sandbox) -> None:
    systems, models = write_summaries(tmp_path / "plain", seed=21)
    output = run_pyrouge(pyrouge_sandbox, home, systems, models)
    assert output == ours(systems, models).convert_and_evaluate()
    assert (tmp_path / "user" / ".pyrouge" / "settings.ini").read_text() == (
        f"[pyrouge settings]\nhome_dir = {home}\n\n"
    )
    args = f"-e {home / 'data'} -c 95 -r 1000 -n 2 -a"  # what files2rouge passes
    theirs = run_pyrouge(pyrouge_sandbox, home, systems, models, system_id=2, rouge_args=args)
    assert theirs == ours(systems, models).convert_and_evaluate(system_id=2, rouge_args=args)
    assert pyrouge_sandbox.Rouge155(str(home)).output_to_dict(theirs) == Rouge155.output_to_dict(theirs)


@pytest.mark.slow
def test_real_pyrouge_on_the_perl_and_on_the_home(
    home: Path, tmp_path: Path, oracle, pyrouge_sandbox
) -> None:
    systems, models = write_summaries(tmp_path / "plain", seed=22)
    on_perl = run_pyrouge(pyrouge_sandbox, perl_home(oracle, tmp_path / "perl-home"), systems, models)
    assert run_pyrouge(pyrouge_sandbox, home, systems, models) == on_perl
    assert ours(systems, models).convert_and_evaluate() == on_perl


def test_a_pattern_matching_nothing_gets_pyrouges_message_even_without_a_group(
    tmp_path: Path, monkeypatch
) -> None:
    # pyrouge 0.1.3's own test_wrong_system_pattern: a groupless pattern, a relative directory.
    systems, models = write_summaries(tmp_path, seed=2)
    monkeypatch.chdir(tmp_path)
    rouge = ours(systems.relative_to(tmp_path), models.relative_to(tmp_path))
    rouge.system_filename_pattern = "adfdas454fd"
    with pytest.raises(Exception) as caught:
        rouge.evaluate()
    assert str(caught.value) == (
        f"Did not find any files matching the pattern adfdas454fd in the system summaries "
        f"directory {systems.relative_to(tmp_path)}."
    )
    assert isinstance(caught.value, ConfigError)


class _Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no text")


def test_bad_arguments_are_usage_errors_naming_them(tmp_path: Path) -> None:
    systems, models = write_summaries(tmp_path, 1)
    with pytest.raises(UsageError, match=r"^rouge_args must be a string of ROUGE options or None, got 5$"):
        Rouge155(rouge_args=5)
    with pytest.raises(UsageError, match=r"^rouge_dir must be a path \(a str or os.PathLike\), got a list$"):
        Rouge155(rouge_dir=["home", "other"])
    r = Rouge155()
    with pytest.raises(UsageError, match=r"^system_dir must be a path \(a str or os.PathLike\), got 3$"):
        r.system_dir = 3  # an open file descriptor's number, to os.path.exists
    r.system_dir, r.model_dir = systems, models
    r.system_filename_pattern, r.model_filename_pattern = SYSTEM_PATTERN, 7
    with pytest.raises(UsageError, match=r"^model_filename_pattern must be a regular expression, got 7$"):
        r.convert_and_evaluate()
    r.model_filename_pattern = MODEL_PATTERN
    with pytest.raises(
        UsageError, match=r"^system_id must be a string or a number, got a test_rouge155._Unp"
    ):
        r.convert_and_evaluate(system_id=_Unprintable())
    with pytest.raises(UsageError, match=r"^rouge_args must be a string"):
        r.evaluate(rouge_args=["-a"])
    with pytest.raises(UsageError, match=r"^output must be the text evaluate"):
        r.output_to_dict(None)
    with pytest.raises(UsageError, match=r"^text and title must be strings, got None and 'dummy title'$"):
        r.convert_text_to_rouge_format(None)
