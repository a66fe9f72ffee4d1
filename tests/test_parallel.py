"""``-j``: evals handed to the workers while the XML configuration is read, and the cases where
that cannot stand (an eval opened again later, errors met late) giving a single process's report."""

from __future__ import annotations

import random
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Optional

import pytest
from tier import first_fast

from rouge155py.errors import RougeError
from rouge155py.inputs.config import read_xml_config
from rouge155py.report import write
from rouge155py.run import executors as parallel
from rouge155py.run.evaluate import evaluate
from rouge155py.settings.argv import parse_command_line
from rouge155py.settings.options import Options

WORDS = "the cat sat on a mat while dogs ran far away from home into fields of green grass".split()


def _summary(path: Path, seed: int) -> str:
    rng = random.Random(seed)
    path.write_text(" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))) + " .\n")
    return path.name


def _eval(root: Path, eval_id: str, peers: list[str], models: list[str], seed: int) -> str:
    peer_lines = "".join(
        f'<P ID="{p}">{_summary(root / f"{eval_id}.P.{p}", seed + k)}</P>' for k, p in enumerate(peers)
    )
    model_lines = "".join(
        f'<M ID="{m}">{_summary(root / f"{eval_id}.M.{m}", seed + 100 + k)}</M>' for k, m in enumerate(models)
    )
    return (
        f'<EVAL ID="{eval_id}"><PEER-ROOT>{root}</PEER-ROOT><MODEL-ROOT>{root}</MODEL-ROOT>'
        f'<INPUT-FORMAT TYPE="SPL"/><PEERS>{peer_lines}</PEERS><MODELS>{model_lines}</MODELS></EVAL>\n'
    )


def _config(tmp_path: Path, count: int, tail: str = "", missing_peer_every: int = 0) -> str:
    """``count`` evals of one or two peers and two models, then ``tail`` (more XML) before the end."""
    root = tmp_path / "files"
    root.mkdir()
    evals = []
    for k in range(count):
        peers = ["1"] if missing_peer_every and k % missing_peer_every == 0 else ["1", "2"]
        evals.append(_eval(root, f"E{k:04d}", peers, ["A", "B"], 1000 * k))
    path = tmp_path / "config.xml"
    path.write_text("<ROUGE-EVAL>\n" + "".join(evals) + tail + "</ROUGE-EVAL>\n")
    return str(path)


def _options(config: str, jobs: int, *extra: str) -> Options:
    request = parse_command_line(
        ["-a", "-n", "2", "-2", "4", "-U", "-r", "50", *extra, "-j", str(jobs), config]
    )
    assert request.options is not None
    return request.options


def _outcome(config: str, jobs: int, *extra: str) -> tuple[Optional[str], list[str], str]:
    """The legacy text and warnings of a run, or its error."""
    try:
        if jobs == 1:
            report = evaluate(_options(config, 1, *extra))
        else:
            report = evaluate(_options(config, jobs, *extra))
    except RougeError as error:
        return None, [], f"{type(error).__name__}: {error}"
    return write("text", report), report.warnings, ""


def _same_as_one_process(config: str, *extra: str) -> tuple[Optional[str], list[str], str]:
    one = _outcome(config, 1, *extra)
    assert _outcome(config, 2, *extra) == one
    assert _outcome(config, 3, *extra) == one
    return one


def test_evals_are_handed_out_in_order_as_they_are_read(tmp_path: Path) -> None:
    config = _config(tmp_path, 300, missing_peer_every=7)
    evals = parallel._Evals(_options(config, 2), None)
    handed: list[str] = []
    reads = 0
    while not evals.done:
        evals.read(4)
        reads += 1
        chunk, pairs = evals.chunk(4)
        assert len(chunk) <= parallel._MAX_PAIRS
        assert pairs == sum(len(ev.peers) * len(ev.models) for _, ev in chunk)
        assert [position for position, _ in chunk] == list(range(len(handed), len(handed) + len(chunk)))
        handed.extend(ev.eval_id for _, ev in chunk)
    assert reads > 10  # handed out while the file was read, not once it was read
    whole = read_xml_config(config)
    assert handed == [ev.eval_id for ev in whole.evals]
    mine = evals.whole()
    assert [(ev.eval_id, ev.peers, ev.models) for ev in mine.evals] == [
        (ev.eval_id, ev.peers, ev.models) for ev in whole.evals
    ]
    assert mine.peer_ids == whole.peer_ids


def test_chunks_shrink_once_the_file_is_read(tmp_path: Path) -> None:
    config = _config(tmp_path, 300)
    evals = parallel._Evals(_options(config, 2), None)
    evals.read(10_000)
    sizes = []
    while not evals.done:
        sizes.append(len(evals.chunk(4)[0]))
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] == 1
    assert sum(sizes) == 300


def test_the_report_is_a_single_process_report(tmp_path: Path) -> None:
    text, warnings, error = _same_as_one_process(_config(tmp_path, 250, missing_peer_every=5))
    assert text and not error
    assert warnings[0] == "*ROUGE Warning: test instance for peer 2 does not exist for evaluation E0000"


def test_one_system_id(tmp_path: Path) -> None:
    config = _config(tmp_path, 120, missing_peer_every=3)
    args = ["-n", "2", "-r", "50"]
    single = evaluate(parse_command_line([*args, config, "2"]).options)
    many = evaluate(parse_command_line([*args, "-j", "2", config, "2"]).options)
    assert write("text", many) == write("text", single)
    assert many.warnings == single.warnings and len(single.warnings) == 40
    assert "\n2 ROUGE-1 " in write("text", single)


@pytest.mark.parametrize("where", first_fast(["reopened", "root-level", "reopened-plain"]))
def test_an_eval_set_again_after_it_was_handed_out(
    tmp_path: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The XML adds a peer to the first eval at its end: the run starts again on the whole file
    (a plain file, read at once before any eval is handed out, needs no new start)."""
    if where.startswith("reopened"):
        tail = '<EVAL ID="E0000"><PEERS><P ID="3">late.P.3</P></PEERS></EVAL>\n'
    else:  # outside any EVAL, what is set goes to the eval whose ID is empty
        tail = ""
    config = _config(tmp_path, 260, tail=tail)
    root = tmp_path / "files"
    _summary(root / "late.P.3", 7)
    if where == "root-level":
        text = Path(config).read_text()
        first = _eval(root, "", ["1"], ["A"], 5)
        text = text.replace("<ROUGE-EVAL>\n", "<ROUGE-EVAL>\n" + first, 1)
        text = text.replace("</ROUGE-EVAL>", '<PEERS><P ID="3">late.P.3</P></PEERS></ROUGE-EVAL>')
        Path(config).write_text(text)
    if where == "reopened":  # a comment: the parser reads the file, as the evals are handed out
        Path(config).write_text(Path(config).read_text().replace("<ROUGE-EVAL>\n", "<ROUGE-EVAL><!-- -->\n"))
    restarts = []
    restart = parallel._Evals.restart
    monkeypatch.setattr(parallel._Evals, "restart", lambda self: (restarts.append(1), restart(self))[1])
    report, _, error = _same_as_one_process(config)
    assert report and not error
    assert bool(restarts) == (where != "reopened-plain")  # the case came after the eval was handed out
    assert "\n3 ROUGE-1 " in report


@pytest.mark.parametrize(
    "late",
    first_fast(
        [
            '<EVAL ID="Z"><MODEL-ROOT>/nowhere</MODEL-ROOT><PEERS><P ID="1">x</P></PEERS>'
            '<MODELS><M ID="A">m</M></MODELS></EVAL>',
            '<EVAL ID="Z"><PEER-ROOT>/nowhere</PEER-ROOT><PEERS><P ID="1">x</P></PEERS></EVAL>',
            "<EVAL><PEERS/></EVAL>",
            "<EVAL ID='Z'><broken></EVAL>",
            '<EVAL ID="Z"><INPUT-FORMAT TYPE="PDF"/></EVAL>',
        ]
    ),
    ids=["missing-model", "missing-peer-file", "no-id", "invalid-xml", "unknown-format"],
)
def test_an_error_late_in_the_file_is_the_single_process_error(tmp_path: Path, late: str) -> None:
    text, _, error = _same_as_one_process(_config(tmp_path, 200, tail=late + "\n"))
    assert error and text is None


def test_a_file_list_and_an_in_memory_configuration(tmp_path: Path) -> None:
    root = tmp_path / "files"
    root.mkdir()
    lines = [f"{_summary(root / f'p{k}', k)} {_summary(root / f'm{k}', 50 + k)}" for k in range(40)]
    listing = tmp_path / "list.txt"
    listing.write_text("".join(f"{root}/{line.split()[0]} {root}/{line.split()[1]}\n" for line in lines))
    args = ["-n", "2", "-r", "50", "-z", "SPL", str(listing)]
    single = write("text", evaluate(parse_command_line(args).options))
    many = evaluate(parse_command_line([*args[:-3], "-j", "2", *args[-3:]]).options)
    assert write("text", many) == single


def test_workers_made_by_multiprocessing_where_there_is_no_fork(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without fork() the workers are spawned by multiprocessing: fresh interpreters, same report."""
    import multiprocessing

    config = _config(tmp_path, 40, missing_peer_every=4)
    one = _outcome(config, 1)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    started = _started(monkeypatch)
    assert _outcome(config, 2) == one
    assert [process._start_method for process in started] == ["spawn"]


def _started(monkeypatch: pytest.MonkeyPatch) -> list[BaseProcess]:
    """The worker processes started from now on."""
    started: list[BaseProcess] = []
    start = BaseProcess.start

    def counted(process: BaseProcess) -> None:
        started.append(process)
        start(process)

    monkeypatch.setattr(BaseProcess, "start", counted)
    return started


def test_evaluate_args_runs_j_in_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``evaluate_args`` honours ``-j``: worker processes start, and the report is one process's."""
    import rouge155py

    config = _config(tmp_path, 60, missing_peer_every=4)
    args = ["-n", "2", "-r", "50", "-a"]
    single = rouge155py.evaluate_args([*args, config])
    started = _started(monkeypatch)
    many = rouge155py.evaluate_args([*args, "-j", "3", config])
    assert len(started) == 2 and many.processes == 3
    assert write("text", many) == write("text", single) and many.warnings == single.warnings


def test_a_run_too_small_to_share_is_made_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """-j starts no worker for a run known at the start to hold fewer (peer, model) pairs than
    the rule's number (here 30 evals of 2 peers and 2 models: 120); the report is the same."""
    config = _config(tmp_path, 30)
    started: list[int] = []
    pool = parallel._Workers
    monkeypatch.setattr(parallel, "_Workers", lambda count: (started.append(count), pool(count))[1])
    one = _outcome(config, 1)
    monkeypatch.setenv("ROUGE155PY_MIN_SHARED_PAIRS", "121")
    report = evaluate(_options(config, 2))
    assert (report.processes, started) == (1, [])
    assert (write("text", report), report.warnings) == one[:2]
    monkeypatch.setenv("ROUGE155PY_MIN_SHARED_PAIRS", "120")
    report = evaluate(_options(config, 2))
    assert (report.processes, started) == (2, [1])
    assert (write("text", report), report.warnings) == one[:2]
    # A file that the parser reads is not known at the start: the workers start.
    Path(config).write_text(Path(config).read_text().replace("<ROUGE-EVAL>\n", "<ROUGE-EVAL><!-- -->\n"))
    monkeypatch.setenv("ROUGE155PY_MIN_SHARED_PAIRS", "121")
    report = evaluate(_options(config, 2))
    assert (report.processes, started) == (2, [1, 1])
    monkeypatch.delenv("ROUGE155PY_MIN_SHARED_PAIRS")
    assert parallel.min_shared_pairs() == parallel.MIN_SHARED_PAIRS == 2000


def test_the_lang_hint_of_a_plain_configuration_under_j(tmp_path: Path) -> None:
    """A plain XML configuration is read at once: -j looks at its first summaries for the --lang
    hint as one process does (one that the parser reads as it is scored is not looked at)."""
    (tmp_path / "p.spl").write_text("Москва — столица России.\n", encoding="utf-8")
    (tmp_path / "m.spl").write_text("Москва является столицей.\n", encoding="utf-8")
    config = tmp_path / "config.xml"
    config.write_text(
        f'<ROUGE-EVAL>\n<EVAL ID="1"><PEER-ROOT>{tmp_path}</PEER-ROOT><MODEL-ROOT>{tmp_path}</MODEL-ROOT>'
        '<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="1">p.spl</P></PEERS><MODELS><M ID="A">m.spl</M></MODELS>'
        "</EVAL>\n</ROUGE-EVAL>\n"
    )
    one = evaluate(_options(str(config), 1))
    many = evaluate(_options(str(config), 2))
    assert many.processes == 2
    assert one.notes and many.notes == one.notes and "--lang" in one.notes[0]
