"""Command-line habits of files2rouge and dataset-script users: none changes a number silently.

Several ``--hyp`` are several systems; text files given as a configuration get a hint of
``--hyp/--ref``; empty lines are named on stderr (``--skip-empty`` leaves their items out);
text that scores 0 because the Perl's rules read no letter of it gets a hint of ``--lang``;
``-v`` tells how many processes ran; a missing C kernel is one notice on stderr. What these
print on stderr is never in the report: its bytes are the Perl's (the differential tests).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

from rouge155py import Options, UsageError, evaluate_args, format_legacy
from rouge155py.inputs.aligned import hypothesis_systems

REPO = Path(__file__).resolve().parent.parent
DATA = str(REPO / "data")


def _cli(
    args: list[str], cwd: Path, stdin: bytes = b"", code: Optional[str] = None
) -> subprocess.CompletedProcess[bytes]:
    """``python -m rouge155py -e DATA ARGS`` from this repository (or ``python -c CODE ARGS``)."""
    head = ["-c", code] if code is not None else ["-m", "rouge155py"]
    return subprocess.run(
        [sys.executable, *head, "-e", DATA, *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        input=stdin,
        capture_output=True,
        check=False,
        timeout=120,
    )


def _write(folder: Path, name: str, *lines: str) -> str:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return name


def _systems(report: bytes) -> list[str]:
    """The peer IDs a legacy report prints, in its order."""
    found: list[str] = []
    for line in report.decode("latin-1").splitlines():
        if "Average_R" in line and line.split()[0] not in found:
            found.append(line.split()[0])
    return found


# -- several --hyp -------------------------------------------------------------


@pytest.fixture
def three_files(tmp_path: Path) -> Path:
    _write(tmp_path, "out/sysA.txt", "the cat sat on the mat", "dogs bark at night")
    _write(tmp_path, "out/sysB.txt", "a cat on a mat", "the dogs were barking")
    _write(tmp_path, "refs.txt", "the cat sat on a mat", "dogs bark loudly at night")
    return tmp_path


def test_repeated_hyp_are_several_systems(three_files: Path) -> None:
    both = _cli(
        ["-n", "2", "--hyp", "out/sysA.txt", "--hyp", "B=out/sysB.txt", "--ref", "refs.txt"], three_files
    )
    assert both.returncode == 0, both.stderr
    assert _systems(both.stdout) == ["B", "sysA"]  # the Perl's (sorted) order
    for spec, shown in (("out/sysA.txt", "sysA"), ("B=out/sysB.txt", "B")):
        alone = _cli(["-n", "2", "--hyp", spec, "--ref", "refs.txt"], three_files)
        assert alone.returncode == 0, alone.stderr
        # each system prints what it prints alone (one unnamed --hyp is system 1): nothing replaced
        mine = [
            line.split(b" ", 1)[1]
            for line in both.stdout.splitlines()
            if line.startswith(b"%s " % shown.encode())
        ]
        theirs = [line.split(b" ", 1)[1] for line in alone.stdout.splitlines() if b"Average" in line]
        assert mine == theirs != []


def test_system_ids_from_names_and_file_names() -> None:
    assert hypothesis_systems(["h.txt"]) == (("1", "h.txt"),)
    assert hypothesis_systems(["A=h.txt"]) == (("A", "h.txt"),)
    assert hypothesis_systems(["x/sysA.txt", "run-2=y.txt", "z/a.1.out", "./b=c.txt"]) == (
        ("sysA", "x/sysA.txt"),
        ("run-2", "y.txt"),
        ("a.1", "z/a.1.out"),
        ("b=c", "./b=c.txt"),
    )
    assert hypothesis_systems(["A=-", "h.txt"]) == (("A", "-"), ("h", "h.txt"))


@pytest.mark.parametrize(
    ("specs", "named"),
    [
        (["a/out.txt", "b/out.txt"], ["a/out.txt", "b/out.txt"]),
        (["out=x.txt", "y/out.txt"], ["out=x.txt", "y/out.txt"]),
        (["A=x.txt", "A=y.txt"], ["A=x.txt", "A=y.txt"]),
    ],
)
def test_two_hypotheses_of_one_name_are_an_error_naming_both(
    three_files: Path, specs: list[str], named: list[str]
) -> None:
    with pytest.raises(UsageError) as error:
        Options(hypothesis_paths=tuple(specs), reference_paths=("refs.txt",))
    assert all(spec in str(error.value) for spec in named)
    args = [word for spec in specs for word in ("--hyp", spec)]
    out = _cli([*args, "--ref", "refs.txt"], three_files)
    assert out.returncode == 2 and out.stdout == b""
    lines = out.stderr.decode().splitlines()
    assert len(lines) == 1 and all(spec in lines[0] for spec in named), lines


def test_standard_input_among_several_hypotheses_needs_a_name(three_files: Path) -> None:
    for specs in (["-", "out/sysA.txt"], ["A=-", "B=-"]):
        with pytest.raises(UsageError, match="standard input"):
            Options(hypothesis_paths=tuple(specs), reference_paths=("refs.txt",))


# -- text files given as the configuration -------------------------------------


def test_text_files_given_as_a_configuration_hint_hyp_and_ref(three_files: Path) -> None:
    out = _cli(["out/sysA.txt", "refs.txt"], three_files)
    assert out.returncode == 3 and out.stdout == b""  # a bad configuration, as README's table says
    lines = out.stderr.decode().splitlines()
    assert len(lines) == 1 and "invalid XML" in lines[0] and "--hyp FILE --ref FILE" in lines[0], lines


@pytest.mark.parametrize("content", [b"<ROUGE-EVAL><EVAL ID='1'>", b"\x00\x01binary\x02", b""])
def test_no_hint_where_the_configuration_is_not_plain_text(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "config.xml").write_bytes(content)
    out = _cli(["-a", "config.xml"], tmp_path)
    assert out.returncode == 3
    assert b"--hyp" not in out.stderr and len(out.stderr.splitlines()) == 1


# -- empty lines ----------------------------------------------------------------


def test_empty_lines_are_named_on_stderr(tmp_path: Path) -> None:
    hyp = _write(tmp_path, "hyp.txt", "the cat sat", "", "dogs bark", " \t", *["a b c"] * 6, "", "x", "", "")
    ref = _write(tmp_path, "ref.txt", *["the cat sat on the mat"] * 3, "", *["a b"] * 10)
    out = _cli(["-n", "2", "--hyp", hyp, "--ref", ref], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stderr.decode().splitlines() == [
        "rouge155py: warning: hyp.txt: 5 of 14 lines empty (2, 4, 11, 13, 14): "
        "scored 0 (--skip-empty leaves such items out)",
        "rouge155py: warning: ref.txt: 1 of 14 lines empty (4): "
        "scored 0 (--skip-empty leaves such items out)",
    ]
    # the report is the one the Perl prints for these lines (empty ones scored 0)
    assert out.stdout == _cli(["-n", "2", "--hyp", hyp, "--ref", ref, "--quiet"], tmp_path).stdout


def test_many_empty_lines_name_the_first_few(tmp_path: Path) -> None:
    hyp = _write(tmp_path, "hyp.txt", *(["", "a"] * 40))
    ref = _write(tmp_path, "ref.txt", *(["a b"] * 80))
    out = _cli(["--hyp", hyp, "--ref", ref], tmp_path)
    lines = out.stderr.decode().splitlines()
    assert len(lines) == 1
    assert "hyp.txt: 40 of 80 lines empty (1, 3, 5, 7, 9, ...)" in lines[0]


def test_skip_empty_leaves_those_items_out(tmp_path: Path) -> None:
    hyp = _write(tmp_path, "hyp.txt", "the cat sat", "", "dogs bark", "birds sing", "fish swim")
    other = _write(tmp_path, "other.txt", "a cat sat", "dogs", "cats bark", "", "fish swam")
    ref = _write(tmp_path, "ref.txt", "the cat sat down", "the dog", "dogs bark loud", "birds", "  ")
    args = ["-n", "2", "-d", "--hyp", hyp, "--hyp", other, "--ref", ref]
    out = _cli([*args, "--skip-empty"], tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stderr.decode().splitlines()
    assert lines == [
        "rouge155py: warning: hyp.txt: 1 of 5 lines empty (2): left out (--skip-empty)",
        "rouge155py: warning: other.txt: 1 of 5 lines empty (4): left out (--skip-empty)",
        "rouge155py: warning: ref.txt: 1 of 5 lines empty (5): left out (--skip-empty)",
    ]
    # items 1 and 3 are kept, under their line numbers: what a configuration of those two prints
    evals = "".join(
        f'<EVAL ID="{i}"><PEER-ROOT>.</PEER-ROOT><MODEL-ROOT>.</MODEL-ROOT><INPUT-FORMAT TYPE="SPL"/>'
        f'<PEERS><P ID="hyp">h{i}</P><P ID="other">o{i}</P></PEERS><MODELS><M ID="1">r{i}</M></MODELS></EVAL>'
        for i in (1, 3)
    )
    (tmp_path / "c.xml").write_text(f"<ROUGE-EVAL>{evals}</ROUGE-EVAL>")
    for i, k in ((1, 0), (3, 2)):
        for prefix, name in (("h", hyp), ("o", other), ("r", ref)):
            (tmp_path / f"{prefix}{i}").write_bytes((tmp_path / name).read_bytes().split(b"\n")[k] + b"\n")
    config = _cli(["-n", "2", "-d", "-a", "c.xml"], tmp_path)
    assert config.returncode == 0, config.stderr
    assert out.stdout == config.stdout
    assert b"Eval 1.hyp" in out.stdout and b"Eval 2." not in out.stdout


def _jsonl(folder: Path, *objects: dict) -> str:
    (folder / "items.jsonl").write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    return "items.jsonl"


def test_empty_predictions_in_jsonl_are_named_and_may_be_left_out(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path,
        {"prediction": "the cat sat", "reference": "the cat sat down"},
        {"prediction": "", "reference": "a dog barked"},
        {"prediction": ["", " "], "references": ["birds sing", "a bird sang"]},
        {"prediction": "fish swim", "references": ["fish swim fast", "\n"]},
        {"prediction": "dogs bark", "reference": "dogs bark loud"},
    )
    scored = _cli(["-n", "1", "-d", "--jsonl", path], tmp_path)
    assert scored.returncode == 0, scored.stderr
    assert scored.stderr.decode().splitlines() == [
        "rouge155py: warning: items.jsonl: 3 of 5 objects with an empty prediction or reference, "
        "on lines (2, 3, 4): scored 0 (--skip-empty leaves such items out)"
    ]
    skipped = _cli(["-n", "1", "-d", "--jsonl", path, "--skip-empty"], tmp_path)
    assert skipped.returncode == 0, skipped.stderr
    assert b"left out (--skip-empty)" in skipped.stderr
    kept = [line for line in skipped.stdout.decode().splitlines() if " ROUGE-1 Eval " in line]
    assert [line.split()[3] for line in kept] == ["1.1", "5.1"]  # eval IDs stay the objects' numbers


def test_jsonl_fields_read_a_datasets_own_keys(tmp_path: Path) -> None:
    rows = [
        ("d1", "the cat sat on the mat", ["a cat sat on a mat", "the cat is on the mat"]),
        ("d2", "dogs bark at night", ["dogs bark all night"]),
        ("d3", "owls hoot", ["an owl hoots softly"]),
    ]
    own = _jsonl(tmp_path, *({"doc_id": i, "summary": p, "highlights": r} for i, p, r in rows))
    renamed = _cli(
        [
            "-n",
            "2",
            "-d",
            "--jsonl",
            own,
            "--jsonl-fields",
            "prediction=summary,references=highlights,id=doc_id",
        ],
        tmp_path,
    )
    (tmp_path / "items.jsonl").rename(tmp_path / "own.jsonl")
    usual = _jsonl(tmp_path, *({"id": i, "prediction": p, "references": r} for i, p, r in rows))
    expected = _cli(["-n", "2", "-d", "--jsonl", usual], tmp_path)
    assert renamed.returncode == expected.returncode == 0, renamed.stderr
    assert renamed.stdout == expected.stdout and b"Eval d2.1" in renamed.stdout
    # without the flag, the error names the object's keys and the flag that reads them
    bare = _cli(["-n", "2", "--jsonl", str(tmp_path / "own.jsonl")], tmp_path)
    assert bare.returncode == 3 and bare.stderr.count(b"\n") == 1, bare.stderr
    assert (
        b"'doc_id', 'summary', 'highlights'" in bare.stderr
        and b"--jsonl-fields prediction=KEY" in bare.stderr
    )


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("prediction", "is not ROLE=KEY"),
        ("summary=prediction", "'summary' is not a role"),
        ("prediction=a,prediction=b", "the role prediction is given twice"),
        ("prediction=id", "two roles would be read from one key"),
    ],
)
def test_jsonl_fields_that_cannot_be_read_are_usage_errors(tmp_path: Path, given: str, said: str) -> None:
    path = _jsonl(tmp_path, {"prediction": "a b", "reference": "a b"})
    out = _cli(["--jsonl", path, "--jsonl-fields", given], tmp_path)
    assert out.returncode == 2 and out.stdout == b"", out.stderr
    (line,) = out.stderr.decode().splitlines()
    assert line.startswith("rouge155py: error: jsonl_fields: ")
    assert said in out.stderr.decode()
    with pytest.raises(UsageError, match=said):
        Options(jsonl_path=path, jsonl_fields=given)


def test_skip_empty_is_for_line_aligned_files_and_jsonl(three_files: Path) -> None:
    out = _cli(["--skip-empty", "-a", str(REPO / "examples/duc-mini/rouge-config.xml")], three_files)
    assert out.returncode == 2 and b"--skip-empty applies to" in out.stderr


# -- text the Perl's rules do not read -----------------------------------------

_HINT = b"rouge155py: hint: "


def test_text_in_other_scripts_gets_a_hint_of_lang(tmp_path: Path) -> None:
    hyp = _write(tmp_path, "hyp.txt", "Кошка сидела на ковре.", "猫坐在垫子上。")
    ref = _write(tmp_path, "ref.txt", "Кошки сидели на ковре.", "猫坐在地上。")
    out = _cli(["-n", "2", "--hyp", hyp, "--ref", ref], tmp_path)
    assert out.returncode == 0
    hints = [line for line in out.stderr.splitlines() if line.startswith(_HINT)]
    assert len(hints) == 1 and b"--lang" in hints[0] and b"4 of the first 4 summaries" in hints[0]
    assert b"Average_R: 0.00000" in out.stdout  # the Perl's numbers, as before
    with_lang = _cli(["-n", "2", "--lang", "ru", "--hyp", hyp, "--ref", ref], tmp_path)
    assert with_lang.returncode == 0 and _HINT not in with_lang.stderr


@pytest.mark.parametrize(
    "lines",
    [
        ("the cat sat on the mat", "dogs bark"),  # English
        ("Die Katze saß auf der Matte.", "Über den Wolken"),  # most letters ASCII: the Perl reads words
        ("!!! ??? ...", "-- ** --"),  # no letter at all: nothing --lang would read either
        ("", "   "),  # empty: named as such, not this
    ],
)
def test_no_hint_where_it_does_not_apply(tmp_path: Path, lines: tuple[str, str]) -> None:
    hyp = _write(tmp_path, "hyp.txt", *lines)
    ref = _write(tmp_path, "ref.txt", "the cat sat", "über alles")
    out = _cli(["-n", "2", "--hyp", hyp, "--ref", ref], tmp_path)
    assert out.returncode == 0 and _HINT not in out.stderr


def test_the_hint_in_a_configuration_door_and_the_report_unchanged(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "p.spl").write_text("Москва — столица России.\n", encoding="utf-8")
    (tmp_path / "m.spl").write_text("Москва является столицей.\n", encoding="utf-8")
    (tmp_path / "list.txt").write_text("p.spl m.spl\n")
    out = _cli(["-n", "1", "-z", "SPL", "list.txt"], tmp_path)
    assert out.returncode == 0 and out.stderr.startswith(_HINT)
    monkeypatch.chdir(tmp_path)  # the list's paths are relative to the current directory
    api = evaluate_args(["-e", DATA, "-n", "1", "-z", "SPL", "list.txt"])
    assert format_legacy(api).encode() == out.stdout
    assert api.notes and api.notes[0].encode() == out.stderr.splitlines()[0]


def test_the_hint_parses_no_summary_whose_bytes_are_ascii(monkeypatch) -> None:
    """Letters of other scripts are never ASCII: such a summary is not parsed again for the hint."""
    from rouge155py.inputs.config import Eval, read_xml_config
    from rouge155py.inputs.readers import SummaryText
    from rouge155py.text import hints

    parsed = []
    read = hints.read_sentences
    monkeypatch.setattr(
        hints, "read_sentences", lambda document: (parsed.append(document), read(document))[1]
    )
    monkeypatch.chdir(REPO)  # the example's paths are relative to the repository
    config = read_xml_config("examples/duc-mini/rouge-config.xml")  # SEE files, all ASCII
    assert hints.unread_script_hint(config.evals) is None and parsed == []
    russian = SummaryText.of("Москва — столица России.", "SPL")
    assert hints.unread_script_hint([Eval("1", {"1": russian}, [russian])]) is not None
    assert parsed == [russian, russian]


# -- -v tells the truth ---------------------------------------------------------


@pytest.mark.slow
def test_verbose_names_the_processes_that_ran(tmp_path: Path) -> None:
    config = str(REPO / "examples/duc-mini/rouge-config.xml")
    out = _cli(["-v", "-j", "64", "-a", "-n", "1", config], REPO)
    assert out.returncode == 0, out.stderr
    summary = out.stderr.decode().splitlines()[-1]
    assert " 1 process " in summary and "64" in summary, summary  # -v runs in one process
    assert "64 process" not in summary
    alone = _cli(["-v", "-a", "-n", "1", config], REPO).stderr.decode().splitlines()[-1]
    assert alone.endswith(" 1 process"), alone


def test_a_report_counts_its_processes() -> None:
    config = str(REPO / "examples/duc-mini/rouge-config.xml")
    assert evaluate_args(["-e", DATA, "-a", "-n", "1", config]).processes == 1
    assert evaluate_args(["-e", DATA, "-a", "-n", "1", "-j", "2", config]).processes == 2
    assert evaluate_args(["-e", DATA, "-a", "-n", "1", "-j", "1000", config]).processes <= max(
        8, 2 * len(os.sched_getaffinity(0))
    )


# -- the C kernel missing --------------------------------------------------------

_NO_BUILT_KERNEL = """
import sys
sys.modules["rouge155py._accel"] = None  # as where no C compiler built it
from rouge155py.cli import run
from rouge155py import score
score(["the cat"], ["the cat sat"])  # a first run in this process, through the API
sys.exit(run(sys.argv[1:]))
"""


@pytest.mark.parametrize("output", ["legacy", pytest.param("json", marks=pytest.mark.slow)])
def test_a_missing_kernel_is_one_notice_on_stderr(output: str) -> None:
    args = ["-a", "-n", "2", "--format", output, "examples/duc-mini/rouge-config.xml"]
    built = _cli(args, REPO)
    missing = _cli(args, REPO, code=_NO_BUILT_KERNEL)
    assert built.returncode == missing.returncode == 0, missing.stderr
    assert missing.stdout == built.stdout  # in no report, the same numbers
    notices = missing.stderr.decode().splitlines()
    assert len(notices) == 1 and notices[0].startswith("rouge155py: note: the C kernel is not built"), notices
    assert "README" in notices[0] and "wheel" in notices[0]
    assert b"C kernel" not in built.stderr
    switched_off = subprocess.run(
        [sys.executable, "-m", "rouge155py", "-e", DATA, *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "ROUGE155PY_NO_KERNEL": "1"},
        capture_output=True,
        check=False,
    )
    assert switched_off.stderr == b"" and switched_off.stdout == built.stdout  # off on purpose: no notice
