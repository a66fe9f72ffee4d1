"""The ``rouge155py`` command line: usage, errors and exit codes, JSON, option bundling.

Every failure must give exactly one ``rouge155py: error: ...`` line on stderr
and the exit code of its class (see ``rouge155py.errors``), never a traceback.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path
from typing import Optional

import pytest
from click.testing import CliRunner, Result

from rouge155py._kernel import kernel_available
from rouge155py.cli import main
from rouge155py.report import CSV_COLUMNS

REPO = Path(__file__).resolve().parent.parent
DATA = str(REPO / "data")

PEER_1 = [
    "The council approved the new ferry timetable on Tuesday.",
    "Boats will leave the harbour every twenty minutes in the morning.",
    "Fares stay the same until the spring review.",
]
PEER_2 = [
    "A ferry plan was discussed by the council.",
    "Residents said the harbour was busy.",
]
MODEL_A = [
    "On Tuesday the town council approved a new ferry timetable.",
    "Boats leave the harbour every twenty minutes during the morning rush.",
    "Fares will not change before the spring review.",
]
MODEL_B = [
    "The council voted for more frequent ferries.",
    "Morning boats run every twenty minutes and fares are frozen until spring.",
]

USAGE_EXIT = 2
CONFIG_EXIT = 3
INPUT_EXIT = 4
COMPUTE_EXIT = 6
LIMIT_EXIT = 7


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()  # click >= 8.2 keeps stderr apart by itself


def invoke(*args: str, data: bool = True) -> Result:
    """Run the command with ``-e <repo>/data`` first (unless ``data`` is false)."""
    argv = ["-e", DATA, *args] if data else list(args)
    result = _runner().invoke(main, argv)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"unexpected exception for {argv}: {result.exception!r}") from result.exception
    return result


def stderr_lines(result: Result) -> list[str]:
    return result.stderr_bytes.decode("utf-8", "replace").splitlines()


def assert_error(result: Result, exit_code: int, pattern: Optional[str] = None) -> str:
    """Exactly one stderr line, ``rouge155py: error: ...``, and the given exit code."""
    lines = stderr_lines(result)
    assert "Traceback" not in result.stderr_bytes.decode("utf-8", "replace")
    assert len(lines) == 1, f"expected one stderr line, got {lines!r}"
    assert lines[0].startswith("rouge155py: error: "), lines[0]
    assert result.exit_code == exit_code, f"exit {result.exit_code}, expected {exit_code}: {lines[0]}"
    assert result.stdout_bytes == b""
    if pattern is not None:
        assert re.search(pattern, lines[0]), f"{pattern!r} not in {lines[0]!r}"
    return lines[0]


def _spl(path: Path, sentences: list[str]) -> str:
    path.write_text("".join(s + "\n" for s in sentences), encoding="ascii")
    return str(path)


def _eval(eval_id: str, fmt: str, peers: dict[str, str], models: dict[str, str]) -> str:
    """An ``<EVAL>`` over absolute paths: the roots are the first peer's directory."""
    root = os.path.dirname(next(iter(peers.values())))

    def name(path: str) -> str:
        return os.path.relpath(path, root)

    peer_lines = "".join(f'<P ID="{pid}">{name(path)}</P>\n' for pid, path in peers.items())
    model_lines = "".join(f'<M ID="{mid}">{name(path)}</M>\n' for mid, path in models.items())
    return (
        f'<EVAL ID="{eval_id}">\n<PEER-ROOT>{root}</PEER-ROOT>\n<MODEL-ROOT>{root}</MODEL-ROOT>\n'
        f'<INPUT-FORMAT TYPE="{fmt}"></INPUT-FORMAT>\n'
        f"<PEERS>\n{peer_lines}</PEERS>\n<MODELS>\n{model_lines}</MODELS>\n</EVAL>\n"
    )


def _config(path: Path, *evals: str) -> str:
    path.write_text('<ROUGE-EVAL version="1.0">\n' + "".join(evals) + "</ROUGE-EVAL>\n", encoding="ascii")
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """Two peers and two models as SPL files."""
    return {
        "peer1": _spl(tmp_path / "peer1.spl", PEER_1),
        "peer2": _spl(tmp_path / "peer2.spl", PEER_2),
        "modelA": _spl(tmp_path / "modelA.spl", MODEL_A),
        "modelB": _spl(tmp_path / "modelB.spl", MODEL_B),
    }


@pytest.fixture
def config(tmp_path: Path, files: dict[str, str]) -> str:
    """A two-eval SPL configuration; both peers are in both evals."""
    peers = {"1": files["peer1"], "2": files["peer2"]}
    models = {"A": files["modelA"], "B": files["modelB"]}
    return _config(
        tmp_path / "config.xml",
        _eval("T1", "SPL", peers, models),
        _eval("T2", "SPL", {"1": files["peer2"], "2": files["peer1"]}, models),
    )


# --------------------------------------------------------------------------
# usage
# --------------------------------------------------------------------------


def test_short_usage() -> None:
    result = invoke("-h", data=False)
    assert result.exit_code == 0
    out = result.stdout_bytes.decode()
    assert "[-a (evaluate all systems)]" in out
    assert "<ROUGE-eval-config-file> [<systemID>]" in out
    assert "Exit codes" not in out


def test_full_usage() -> None:
    short = invoke("-h", data=False).stdout_bytes.decode()
    result = invoke("-H", data=False)
    assert result.exit_code == 0
    out = result.stdout_bytes.decode()
    assert out.startswith(short)
    assert len(out) > len(short)
    assert "Exit codes" in out


def _error_after_usage(result: Result, exit_code: int) -> list[str]:
    """The stderr lines before the one error line, which comes last; nothing on stdout."""
    lines = stderr_lines(result)
    assert "Traceback" not in result.stderr_bytes.decode("utf-8", "replace")
    assert result.exit_code == exit_code and result.stdout_bytes == b""
    assert [line for line in lines if line.startswith("rouge155py: error: ")] == lines[-1:]
    return lines[:-1]


def test_no_config_file_shows_the_short_usage() -> None:
    result = invoke(data=False)
    before = _error_after_usage(result, USAGE_EXIT)
    assert "configuration file" in stderr_lines(result)[-1]
    assert before[0].startswith("usage: rouge155py ") and any("--hyp FILE --ref FILE" in b for b in before)


def test_an_unknown_short_option_alone_is_named_before_the_usage() -> None:
    result = invoke("-V", data=False)
    before = _error_after_usage(result, USAGE_EXIT)
    assert before[0] == "Unknown option: V"
    assert before[1].startswith("usage: rouge155py ")


def test_short_usage_lists_every_option() -> None:
    from rouge155py.settings.argv import _ALIASES, _FLAGS, _REPEATED, _VALUED, PERL_OPTION_SPEC

    out = invoke("-h", data=False).stdout_bytes.decode()
    letters = PERL_OPTION_SPEC.replace(":", "")
    missing = [f"-{c}" for c in letters if not re.search(rf"[\[|]-{re.escape(c)}[ \]]", out)]
    missing += [name for name in {*_FLAGS, *_VALUED, *_REPEATED, *_ALIASES} if name not in out]
    missing += [name for name in ("legacy", "json", "csv") if name not in out]
    assert not missing, f"-h does not list {missing}"
    examples = out[out.index("Examples:") :].splitlines()[1:]
    assert len(examples) >= 2 and all(e.strip().startswith("rouge155py -") for e in examples)


def test_no_system_id(config: str) -> None:
    assert_error(invoke("-n", "1", config), USAGE_EXIT, "system ID")


# --------------------------------------------------------------------------
# errors: one line, the class's exit code
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        ["-c", "101"],
        ["-c", "-1"],
        ["-p", "2"],
        ["-p", "-0.5"],
        ["-w", "0"],
        ["-w", "-1.2"],
        ["-l", "5", "-b", "5"],
        ["-w", "abc"],
        ["-r", "nan"],
        ["-j", "abc"],
        ["--jobs", "0"],
        ["--format", "xml"],
    ],
    ids=lambda o: " ".join(o),
)
def test_bad_option_value(config: str, options: list[str]) -> None:
    assert_error(invoke("-a", *options, config), USAGE_EXIT)


def test_malformed_xml(tmp_path: Path) -> None:
    path = tmp_path / "bad.xml"
    path.write_text('<ROUGE-EVAL version="1.0">\n<EVAL ID="T1">\n</ROUGE-EVAL>\n', encoding="ascii")
    assert_error(invoke("-a", "-n", "1", str(path)), CONFIG_EXIT)


def test_missing_config_file(tmp_path: Path) -> None:
    assert_error(invoke("-a", "-n", "1", str(tmp_path / "nowhere.xml")), CONFIG_EXIT, "nowhere.xml")


def test_unknown_input_format(tmp_path: Path, files: dict[str, str]) -> None:
    path = _config(tmp_path / "foo.xml", _eval("T1", "FOO", {"1": files["peer1"]}, {"A": files["modelA"]}))
    assert_error(invoke("-a", "-n", "1", path), CONFIG_EXIT, "FOO")


def test_missing_model_file(tmp_path: Path, files: dict[str, str]) -> None:
    absent = str(tmp_path / "absent-model.spl")
    path = _config(
        tmp_path / "c.xml",
        _eval("T1", "SPL", {"1": files["peer1"]}, {"A": files["modelA"], "B": absent}),
    )
    assert_error(invoke("-a", "-n", "1", path), INPUT_EXIT, re.escape(absent))


def test_missing_peer_file(tmp_path: Path, files: dict[str, str]) -> None:
    absent = str(tmp_path / "absent-peer.spl")
    path = _config(tmp_path / "c.xml", _eval("T1", "SPL", {"1": absent}, {"A": files["modelA"]}))
    assert_error(invoke("-a", "-n", "1", path), INPUT_EXIT, "absent-peer.spl")


def test_unknown_file_list_format(tmp_path: Path, files: dict[str, str]) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text(f"{files['peer1']} {files['modelA']} {files['modelB']}\n", encoding="ascii")
    assert_error(invoke("-n", "1", "-z", "FOO", str(listing), "SYS"), INPUT_EXIT, "FOO")


def test_invalid_be_line(tmp_path: Path) -> None:
    peer = tmp_path / "peer.be"
    peer.write_text("council|ferry|mod\ntimetable|nil|nil\n", encoding="ascii")
    model = tmp_path / "model.be"
    model.write_text("council|town|mod\nferries|frequent\n", encoding="ascii")
    path = _config(tmp_path / "be.xml", _eval("T1", "SIMPLE", {"1": str(peer)}, {"A": str(model)}))
    assert_error(invoke("-3", "HM", "-a", path), INPUT_EXIT, "ferries")


def test_wlcs_with_empty_model(tmp_path: Path, files: dict[str, str]) -> None:
    empty = tmp_path / "empty.spl"
    empty.write_bytes(b"")
    path = _config(
        tmp_path / "c.xml",
        _eval("T1", "SPL", {"1": files["peer1"]}, {"A": files["modelA"], "B": str(empty)}),
    )
    failed = invoke("-a", "-n", "1", "-w", "1.2", path)
    lines = stderr_lines(failed)
    assert failed.exit_code == COMPUTE_EXIT and len(lines) == 1 and lines[0].startswith("rouge155py: error: ")
    # The same inputs are fine without -w; with it, the Perl prints those blocks, then dies at ROUGE-W.
    fine = invoke("-a", "-n", "1", path)
    assert fine.exit_code == 0
    assert failed.stdout_bytes == fine.stdout_bytes


def test_zero_resamples(config: str) -> None:
    assert_error(invoke("-a", "-n", "1", "-r", "0", config), COMPUTE_EXIT)


# --------------------------------------------------------------------------
# output forms
# --------------------------------------------------------------------------

_AVERAGE = re.compile(
    r"(?P<peer>\S+) (?P<metric>\S+) Average_(?P<kind>[RPF]): (?P<value>[0-9.]+) "
    r"\([0-9.]+%-conf\.int\. (?P<low>[0-9.]+) - (?P<high>[0-9.]+)\)"
)
_KINDS = {"R": "recall", "P": "precision", "F": "f"}


def test_json_matches_text(config: str) -> None:
    args = ["-a", "-n", "2", "-w", "1.2", "-2", "4", "-u", "-d", config]
    text = invoke(*args)
    assert text.exit_code == 0
    result = invoke("--json", *args)
    assert result.exit_code == 0
    document = json.loads(result.stdout_bytes.decode("utf-8"))
    systems = document["systems"]
    seen = 0
    for line in text.stdout_bytes.decode().splitlines():
        match = _AVERAGE.fullmatch(line)
        if match is None:
            continue
        entry = systems[match["peer"]][match["metric"]][_KINDS[match["kind"]]]
        assert entry["average"] == pytest.approx(float(match["value"]), abs=5e-6)
        assert entry["conf_int"] == pytest.approx([float(match["low"]), float(match["high"])], abs=5e-6)
        seen += 1
    # 2 peers x (ROUGE-1, ROUGE-2, ROUGE-L, ROUGE-W-1.2, ROUGE-SU4) x R/P/F
    assert seen == 2 * 5 * 3
    assert set(systems) == {"1", "2"}
    assert set(systems["1"]) == {"ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4"}


def test_json_format_option(config: str) -> None:
    a = invoke("--json", "-a", "-n", "1", config)
    b = invoke("--format", "json", "-a", "-n", "1", config)
    assert a.exit_code == b.exit_code == 0
    assert json.loads(a.stdout_bytes) == json.loads(b.stdout_bytes)


def test_signature_on_stderr(config: str) -> None:
    plain = invoke("-a", "-n", "2", config)
    result = invoke("--signature", "-a", "-n", "2", config)
    assert result.exit_code == 0
    assert result.stdout_bytes == plain.stdout_bytes
    lines = stderr_lines(result)
    assert len(lines) == 1
    assert "n:2" in lines[0]
    assert "version:" in lines[0]


# --------------------------------------------------------------------------
# option bundling (Getopt::Std rules)
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bundled", "separate"),
    [
        (["-an2"], ["-a", "-n", "2"]),
        (["-a", "-n2"], ["-a", "-n", "2"]),
        (["-amn2"], ["-a", "-m", "-n", "2"]),
        (["-a", "-2", "-1", "-u"], ["-a", "-2-1", "-u"]),
        (["-axU", "-24"], ["-a", "-x", "-U", "-2", "4"]),
        (["-adw1.2"], ["-a", "-d", "-w", "1.2"]),
    ],
    ids=lambda o: " ".join(o),
)
def test_bundled_options(config: str, bundled: list[str], separate: list[str]) -> None:
    a = invoke(*bundled, config)
    b = invoke(*separate, config)
    assert a.exit_code == b.exit_code == 0
    assert a.stdout_bytes
    assert a.stdout_bytes == b.stdout_bytes


def test_skip_unlimited_label(config: str) -> None:
    result = invoke("-a", "-x", "-2", "-1", "-u", config)
    assert result.exit_code == 0
    assert b" ROUGE-SU* Average_R: " in result.stdout_bytes


# --------------------------------------------------------------------------
# warnings
# --------------------------------------------------------------------------


def test_missing_peer_warned_once(tmp_path: Path, files: dict[str, str]) -> None:
    models = {"A": files["modelA"], "B": files["modelB"]}
    path = _config(
        tmp_path / "c.xml",
        _eval("T1", "SPL", {"1": files["peer1"], "2": files["peer2"]}, models),
        _eval("T2", "SPL", {"1": files["peer2"]}, models),
        _eval("T3", "SPL", {"1": files["peer1"]}, models),
    )
    # Several metrics, so the Perl's loop passes each eval several times.
    result = invoke("-a", "-n", "2", "-w", "1.2", "-2", "4", "-U", "-d", path)
    assert result.exit_code == 0
    lines = stderr_lines(result)
    assert lines == [
        "*ROUGE Warning: test instance for peer 2 does not exist for evaluation T2",
        "*ROUGE Warning: test instance for peer 2 does not exist for evaluation T3",
    ]
    out = result.stdout_bytes.decode()
    assert "2 ROUGE-1 Eval T1.2 " in out
    assert "2 ROUGE-1 Eval T2.2 " not in out


def test_value_that_is_not_a_number_warns_and_reads_as_perl(config: str) -> None:
    # The Perl reads "abc" as 0 with a warning: ROUGE-N is then off, the report the same.
    warned = invoke("-a", "-n", "abc", config)
    plain = invoke("-a", "-n", "0", config)
    assert warned.exit_code == 0
    assert "isn't numeric" in warned.stderr
    assert warned.stdout_bytes == plain.stdout_bytes


@pytest.mark.parametrize("extra", [[], ["-m", "-M"], ["-t", "2", "-d"]], ids=["plain", "m-M", "t2"])
def test_jobs_give_the_single_process_bytes(extra: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    args = ["-a", "-n", "2", "-w", "1.2", "-2", "4", "-U", "-r", "100", *extra]
    config = "examples/duc-mini/rouge-config.xml"
    one = invoke(*args, config)
    two = invoke(*args, "-j", "2", config)
    three = invoke(*args, "--jobs", "3", config)
    assert one.exit_code == two.exit_code == three.exit_code == 0
    assert one.stdout_bytes == two.stdout_bytes == three.stdout_bytes
    assert one.stdout_bytes


# --------------------------------------------------------------------------
# CSV output, line-aligned files
# --------------------------------------------------------------------------


def test_csv_rows_match_the_legacy_text(config: str) -> None:
    args = ["-a", "-n", "2", "-d", config]
    text = invoke(*args).stdout_bytes.decode()
    result = invoke("--format", "csv", *args)
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.stdout_bytes.decode())))
    assert tuple(rows[0]) == CSV_COLUMNS
    printed = set()
    for row in rows:
        if row["row"] == "average":
            for kind, name in _KINDS.items():
                printed.add(
                    f"{row['peer_id']} {row['metric']} Average_{kind}: {row[name]} "
                    f"(95%-conf.int. {row[name + '_low']} - {row[name + '_high']})"
                )
        else:
            instance = f"{row['eval_id']}.{row['peer_id']}"
            printed.add(
                f"{row['peer_id']} {row['metric']} Eval {instance} "
                f"R:{row['recall']} P:{row['precision']} F:{row['f']}"
            )
    expected = {line for line in text.splitlines() if "Average_" in line or " Eval " in line}
    assert printed == expected
    assert len(rows) == 2 * 3 * (1 + 2)  # peers x metrics x (average + 2 evals)


def test_json_carries_instances_without_d(config: str) -> None:
    document = json.loads(invoke("--json", "-a", "-n", "1", config).stdout_bytes)
    instances = document["systems"]["1"]["ROUGE-1"]["instances"]
    assert set(instances) == {"T1", "T2"}
    assert set(instances["T1"]) == {"recall", "precision", "f"}
    assert document["signature"].startswith("n:1|")


def _lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_aligned_files_equal_the_same_texts_in_a_configuration(tmp_path: Path) -> None:
    hyp = _lines(tmp_path / "hyp.txt", [" <q> ".join(PEER_1), " <q> ".join(PEER_2)])
    ref = _lines(tmp_path / "ref.txt", [" <q> ".join(MODEL_A), " <q> ".join(MODEL_B)])
    aligned = invoke("--hyp", hyp, "--ref", ref, "--sep", "<q>", "-n", "2", "-d")
    assert aligned.exit_code == 0, aligned.stderr_bytes
    # The same summaries as SPL files, sentence per line; the separator's spaces stay.
    peers = [[s + " " for s in PEER_1[:-1]] + [PEER_1[-1]], [s + " " for s in PEER_2[:-1]] + [PEER_2[-1]]]
    models = [
        [s + " " for s in MODEL_A[:-1]] + [MODEL_A[-1]],
        [s + " " for s in MODEL_B[:-1]] + [MODEL_B[-1]],
    ]
    evals = [
        _eval(str(i + 1), "SPL", {"1": _spl(tmp_path / f"p{i}", p)}, {"A": _spl(tmp_path / f"m{i}", m)})
        for i, (p, m) in enumerate(zip(peers, models))
    ]
    configured = invoke("-a", "-n", "2", "-d", _config(tmp_path / "c.xml", *evals))
    assert aligned.stdout_bytes == configured.stdout_bytes


@pytest.mark.parametrize("system", ["1", "2", "3"])
def test_bundled_example_as_aligned_files_gives_the_configuration_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, system: str
) -> None:
    """The bundled SPL example: one system's summaries and the four models' as line-aligned files.

    Line i of the files is eval ``i`` of system ``1``: the configuration of the same
    files under those names prints the same bytes, instance lines included.
    """
    from lxml import etree

    monkeypatch.chdir(REPO)
    hyp: list[str] = []
    refs: dict[str, list[str]] = {}
    evals = []
    for number, element in enumerate(etree.parse("examples/duc-mini/rouge-config-spl.xml").getroot(), 1):
        root = Path(element.findtext("PEER-ROOT"))
        peer = root / element.find(f"PEERS/P[@ID='{system}']").text
        models = {model.get("ID"): root / model.text for model in element.find("MODELS")}
        hyp.append("<q>".join(peer.read_text("latin-1").splitlines()))
        for model_id, path in models.items():
            refs.setdefault(model_id, []).append("<q>".join(path.read_text("latin-1").splitlines()))
        evals.append(_eval(str(number), "SPL", {"1": str(peer)}, {m: str(p) for m, p in models.items()}))
    assert len(hyp) == 10 and sorted(refs) == ["A", "B", "C", "D"]
    ref_args = [arg for m in sorted(refs) for arg in ("--ref", _lines(tmp_path / f"{m}.txt", refs[m]))]
    options = ["-n", "2", "-w", "1.2", "-2", "4", "-U", "-m", "-d"]
    aligned = invoke(*options, "--hyp", _lines(tmp_path / "hyp.txt", hyp), *ref_args, "--sep", "<q>")
    configured = invoke(*options, "-a", _config(tmp_path / "c.xml", *evals))
    assert aligned.exit_code == configured.exit_code == 0, aligned.stderr_bytes + configured.stderr_bytes
    assert aligned.stdout_bytes == configured.stdout_bytes
    assert aligned.stdout.count("Eval 10.1") == 6  # ROUGE-1, 2, L, W-1.2, S4, SU4


@pytest.mark.parametrize(
    "extra",
    [
        ["--hyp", "h.txt"],
        ["--ref", "r.txt"],
        ["--hyp", "h.txt", "--ref", "r.txt", "config.xml"],
        ["--hyp", "h.txt", "--ref", "r.txt", "-z", "SPL", "list.txt"],
        ["--sep", "<q>", "-a", "config.xml"],
        ["--hyp", "h.txt", "--ref", "r.txt", "--sep="],
    ],
    ids=lambda o: " ".join(o),
)
def test_aligned_files_usage_errors(extra: list[str]) -> None:
    assert_error(invoke(*extra), USAGE_EXIT)


def test_aligned_files_of_different_lengths(tmp_path: Path) -> None:
    hyp = _lines(tmp_path / "hyp.txt", ["a b", "c d", "e f"])
    ref = _lines(tmp_path / "ref.txt", ["a b", "c d"])
    line = assert_error(invoke("--hyp", hyp, "--ref", ref), INPUT_EXIT)
    assert f"{hyp}: 3" in line and f"{ref}: 2" in line


def test_aligned_missing_file(tmp_path: Path) -> None:
    ref = _lines(tmp_path / "ref.txt", ["a b"])
    assert_error(invoke("--hyp", str(tmp_path / "absent.txt"), "--ref", ref), INPUT_EXIT, "absent.txt")


def test_aligned_file_is_read_as_a_summary_file_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A directory is an input error; standard input beyond the configuration's size limit, and a
    file on -j's worker processes (both read whole), are refused (exit 7) rather than read whole;
    a regular file is read a chunk of lines at a time, whatever its size (under -j too, by
    threads, where the kernel scores it)."""
    ref = _lines(tmp_path / "ref.txt", ["a b", "c d"])
    assert_error(invoke("--hyp", str(tmp_path), "--ref", ref), INPUT_EXIT, "Is a directory")
    import rouge155py.inputs.sources

    monkeypatch.setattr(rouge155py.inputs.sources, "MAX_CONFIG_BYTES", 6)
    assert invoke("--hyp", ref, "--ref", ref).exit_code == 0
    if kernel_available():
        assert invoke("-j", "2", "--hyp", ref, "--ref", ref).exit_code == 0
    else:
        assert_error(invoke("-j", "2", "--hyp", ref, "--ref", ref), LIMIT_EXIT, "larger than")
    assert_error(invoke("-j", "2", "-l", "100", "--hyp", ref, "--ref", ref), LIMIT_EXIT, "larger than")
    result = _runner().invoke(main, ["-e", DATA, "--hyp", "-", "--ref", ref], input=b"a b\nc d\n")
    assert_error(result, LIMIT_EXIT, "standard input is larger than 0 MiB")


# A signal raised while dataclasses make their methods (exec() of a string, during a lazy
# import) reaches the run in two odd shapes under CPython; both end as one line and 130/143.
# Run as ``python -m``, as the command is: only that way does the interpreter look at its
# "unhandled KeyboardInterrupt" flag when it exits.
_SIGNAL_IN_EXEC = """\
import rouge155py.cli as cli

def raising(argv):
    exec("raise KeyboardInterrupt")

cli._run = raising
cli.entry()
"""


def test_interrupt_inside_exec_exits_130(tmp_path: Path) -> None:
    """A KeyboardInterrupt that left exec() of a string: 130, not the interpreter killing itself."""
    import subprocess
    import sys

    (tmp_path / "interrupted_probe.py").write_text(_SIGNAL_IN_EXEC, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "interrupted_probe"], cwd=tmp_path, capture_output=True, text=True
    )
    assert (done.returncode, done.stderr) == (130, "rouge155py: interrupted\n")


@pytest.mark.parametrize("signal_name, code", [("interrupted", 130), ("terminated", 143)])
def test_signal_wrapped_by_class_creation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], signal_name: str, code: int
) -> None:
    """Python 3.11 wraps what __set_name__ raises in a RuntimeError: the signal is its cause."""
    from rouge155py import cli

    signal = KeyboardInterrupt() if signal_name == "interrupted" else cli._Terminated()

    def raising(argv: list[str]) -> int:
        raise RuntimeError("Error calling __set_name__") from signal

    monkeypatch.setattr(cli, "_run", raising)
    monkeypatch.setattr(cli, "_drop_stdout", lambda: None)
    assert cli.run([]) == code
    assert capsys.readouterr().err == f"rouge155py: {signal_name}\n"


def test_other_runtime_errors_are_not_signals(monkeypatch: pytest.MonkeyPatch) -> None:
    from rouge155py import cli

    def raising(argv: list[str]) -> int:
        raise RuntimeError("a bug") from ValueError("its cause")

    monkeypatch.setattr(cli, "_run", raising)
    with pytest.raises(RuntimeError, match="a bug"):
        cli.run([])


def test_a_system_id_is_its_bytes_but_shown_as_given(config: str) -> None:
    """The Perl holds a command-line ID as bytes (a typed é is not the XML's é) and prints them;
    JSON, CSV and the warnings show the ID as it was typed."""
    legacy = invoke("-n", "1", config, "é")
    assert "\né ROUGE-1 Average_R: " in legacy.stdout_bytes.decode("utf-8")
    warning = "*ROUGE Warning: test instance for peer é does not exist for evaluation T1"
    assert stderr_lines(legacy)[0] == warning
    shown = json.loads(invoke("-n", "1", "--format", "json", config, "é").stdout_bytes)
    assert list(shown["systems"]) == ["é"] and "peer é does" in shown["warnings"][0]
    rows = invoke("-n", "1", "--format", "csv", config, "é").stdout_bytes.decode("utf-8").splitlines()
    assert rows[1].split(",")[1] == "é"


def test_a_run_that_scores_nothing_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Doors that are not the Perl's: an error (exit 4) naming the file; the Perl's own doors:
    its stdout and exit code (nothing, a -z list's zeros), and a warning on stderr."""
    monkeypatch.chdir(tmp_path)
    Path("empty.txt").write_bytes(b"")
    Path("blank.txt").write_bytes(b"\n \n")
    Path("empty.jsonl").write_bytes(b"")
    Path("list.txt").write_bytes(b"# nothing\n")
    Path("config.xml").write_bytes(b'<ROUGE-EVAL version="1.0">\n</ROUGE-EVAL>\n')
    for args, message in [
        (["--hyp", "empty.txt", "--ref", "empty.txt"], "empty.txt, empty.txt: nothing to score (no lines)"),
        (
            ["--hyp", "blank.txt", "--ref", "blank.txt", "--skip-empty"],
            "blank.txt, blank.txt: nothing to score (--skip-empty left out all 2 lines)",
        ),
        (["--jsonl", "empty.jsonl"], "empty.jsonl: nothing to score (no objects)"),
    ]:
        result = invoke("-a", "-n", "2", *args)
        assert result.stdout_bytes == b""
        assert_error(result, 4, re.escape(message))
    for args, name in [(["config.xml"], "config.xml"), (["-z", "SPL", "list.txt"], "list.txt")]:
        result = invoke("-a", "-n", "2", *args)
        assert result.exit_code == 0
        assert stderr_lines(result) == [f"rouge155py: warning: {name}: no eval to score"]
        assert (result.stdout_bytes == b"") == (name == "config.xml")
