"""Line-aligned files (``--hyp``, ``--ref``) that are regular files are read a chunk of lines at a
time, every file in step, as they are scored (under ``-j``, by threads, where the kernel scores
them): the same reports, notes and errors as the files read whole (standard input, ``-v``, and
``-j`` on worker processes read them so), and no limit on a file's size, only on a line's."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Optional

import pytest
from click.testing import CliRunner

import rouge155py.inputs.aligned as aligned_module
import rouge155py.inputs.sources as sources_module
import rouge155py.run.executors as executors
from rouge155py._kernel import kernel_available
from rouge155py.cli import main

REPO = Path(__file__).resolve().parent.parent
WORDS = "the cat sat on a mat dog ran far away quickly under old trees".split()
ODD = ["café", "über", "naïve", "日本"]
INPUT_EXIT = 4
LIMIT_EXIT = 7


def _line(rng: random.Random) -> bytes:
    """A summary on one line: now and then empty or blank, non-ASCII, or holding ``<q>``."""
    if rng.random() < 0.1:
        return rng.choice([b"", b" ", b"\t ", b" <q> "])
    words = rng.choices(WORDS, k=rng.randint(1, 10))
    if rng.random() < 0.2:
        words.insert(rng.randrange(len(words) + 1), rng.choice(ODD))
    if rng.random() < 0.4:
        words.insert(rng.randrange(len(words) + 1), "<q>")
    line = " ".join(words).encode("utf-8")
    return line + b"\xff" if rng.random() < 0.05 else line  # a byte that is not UTF-8


def _write(path: Path, lines: list[bytes], rng: random.Random) -> bytes:
    """The lines with LF or CRLF ends, the last one now and then without; the bytes written."""
    end = b"\r\n" if rng.random() < 0.3 else b"\n"
    data = end.join(lines) + (end if lines and rng.random() < 0.8 else b"")
    path.write_bytes(data)
    return data


def _outcome(args: list[str], stdin: Optional[bytes] = None) -> tuple[int, bytes, bytes]:
    """The exit code, stdout and stderr of the command (``-e <repo>/data`` first)."""
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        runner = CliRunner()  # click >= 8.2 keeps stderr apart by itself
    result = runner.invoke(main, ["-e", str(REPO / "data"), *args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout_bytes, result.stderr_bytes


def _read_whole(path: str) -> list[bytes]:
    """``file_lines`` where the door must not read a file whole."""
    raise AssertionError(f"{path} was read whole")


def _streamed(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> tuple[int, bytes, bytes]:
    """The outcome of the files read a chunk of 3 lines at a time, never whole."""
    with monkeypatch.context() as patched:
        patched.setattr(executors, "TEXT_CHUNK", 3)
        patched.setattr(aligned_module, "file_lines", _read_whole)
        return _outcome(args)


def _random_files(tmp_path: Path, rng: random.Random) -> tuple[list[str], dict[str, bytes]]:
    """1-3 systems (named or not) and 1-3 reference files (one of each, often: held by columns) of
    a random number of lines (now and then one more or one less); the door's arguments and each
    file's bytes."""
    count = rng.choice([0, 1, 2, 3, 4, 5, 7, 9, 12, 20])
    systems, references = rng.choice([1, 1, 2, 3]), rng.choice([1, 1, 2, 3])
    args: list[str] = []
    data: dict[str, bytes] = {}
    for k in range(systems + references):
        hypothesis = k < systems
        path = tmp_path / (f"sys{k}.txt" if hypothesis else f"ref{k}.txt")
        lines = count + (rng.random() < 0.05) * (1 if hypothesis else -1 if count else 0)
        data[str(path)] = _write(path, [_line(rng) for _ in range(lines)], rng)
        if not hypothesis:
            args += ["--ref", str(path)]
        elif systems == 1 and rng.random() < 0.5:
            args += ["--hyp", str(path)]
        else:
            args += ["--hyp", f"S{k}={path}"]
    return args, data


@pytest.mark.parametrize("seed", range(30))
def test_files_read_in_chunks_give_what_they_give_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Random files (several systems and references, empty and blank lines, non-ASCII bytes,
    ``<q>`` in lines, CRLF ends, a last line without its end, files of different lengths), read
    3 lines at a time and whole (one of them from standard input): the same stdout, stderr and
    exit code, with and without --skip-empty and --sentence-separator, and -l now and then; and
    read so under -j 2 (threads score the chunks), where the kernel takes the run."""
    rng = random.Random(seed)
    args, data = _random_files(tmp_path, rng)
    piped = rng.choice(list(data))  # the file given as standard input to the run that reads whole
    whole_args = [arg.replace(piped, "-") for arg in args]
    limited = ["-l", "5"] if rng.random() < 0.2 else []  # a run the kernel does not take
    for extra in ([], ["--skip-empty"], ["--sentence-separator", "<q>"], ["--skip-empty", "--sep", "<q>"]):
        options = ["-a", "-n", "2", "-m", *limited, *extra]
        code, out, err = _streamed(monkeypatch, [*options, *args])
        assert (code, out, err.replace(piped.encode(), b"-")) == _outcome(
            [*options, *whole_args], data[piped]
        ), (extra, data)
        if not limited and kernel_available():
            assert _streamed(monkeypatch, ["-j", "2", *options, *args]) == (code, out, err), (extra, data)


@pytest.mark.parametrize(
    "counts",
    [(10, 10, 8), (7, 9, 9), (6, 6, 7), (3, 4, 3), (9, 0, 9)],
    ids=lambda counts: "-".join(map(str, counts)),
)
def test_files_of_different_lengths_found_in_a_later_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counts: tuple[int, int, int]
) -> None:
    """A file that ends before another, however many chunks were scored before: the error that
    names every file's number of lines, and nothing on stdout."""
    paths = [tmp_path / name for name in ("h.txt", "r1.txt", "r2.txt")]
    for path, count in zip(paths, counts):
        path.write_bytes(b"".join(b"the cat sat on line %d\n" % k for k in range(count)))
    listed = ", ".join(f"{path}: {count}" for path, count in zip(paths, counts))
    expected = f"rouge155py: error: line-aligned files must have the same number of lines ({listed})\n"
    args = ["-a", "-n", "2", "--hyp", str(paths[0]), "--ref", str(paths[1]), "--ref", str(paths[2])]
    assert _streamed(monkeypatch, args) == (INPUT_EXIT, b"", expected.encode())
    assert _streamed(monkeypatch, ["--skip-empty", *args]) == (INPUT_EXIT, b"", expected.encode())


def test_nothing_to_score_once_every_chunk_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files whose every line --skip-empty leaves out, over several chunks: the error of a run
    with nothing to score, as for files read whole."""
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_bytes(b"a b\n\n c\n\n" * 2)
    ref.write_bytes(b"\n d\n\n \n" * 2)
    message = f"rouge155py: error: {hyp}, {ref}: nothing to score (--skip-empty left out all 8 lines)\n"
    args = ["-a", "-n", "1", "--skip-empty", "--hyp", str(hyp), "--ref", str(ref)]
    assert _streamed(monkeypatch, args) == (INPUT_EXIT, b"", message.encode())
    ref.write_bytes(b"")
    hyp.write_bytes(b"")
    message = f"rouge155py: error: {hyp}, {ref}: nothing to score (no lines)\n"
    assert _streamed(monkeypatch, args) == (INPUT_EXIT, b"", message.encode())


def test_files_larger_than_a_configuration_may_be_are_read_a_line_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regular files have no size limit (a line has), under -j too where the kernel scores them
    (threads); standard input, and any file under -v or on -j's worker processes (all read
    whole), keep the configuration's."""
    limit = 4000
    monkeypatch.setattr(sources_module, "MAX_CONFIG_BYTES", limit)  # the whole read's and a line's
    monkeypatch.setattr(executors, "TEXT_CHUNK", 3)
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_bytes(b"the cat sat on the mat\n" * 400)
    ref.write_bytes(b"a cat sat on a mat\n" * 400)
    assert hyp.stat().st_size > 2 * limit
    args = ["-a", "-n", "1", "--hyp", str(hyp), "--ref", str(ref)]
    code, out, err = _outcome(args)
    assert (code, err) == (0, b"") and b"1 ROUGE-1 Average_R: 0.66667" in out
    refused = f"rouge155py: error: {hyp} is larger than 0 MiB: refused\n".encode()
    on_threads = (code, out, err) if kernel_available() else (LIMIT_EXIT, b"", refused)
    assert _outcome(["-j", "2", *args]) == on_threads
    assert _outcome(["-j", "2", "-l", "100", *args]) == (LIMIT_EXIT, b"", refused)  # workers: read whole
    assert _outcome(["-v", *args])[::2] == (LIMIT_EXIT, refused)
    whole = _outcome([*args[:3], "--hyp", "-", "--ref", str(ref)], hyp.read_bytes())
    assert whole == (LIMIT_EXIT, b"", b"rouge155py: error: standard input is larger than 0 MiB: refused\n")
    with hyp.open("ab") as appended:
        appended.write(b"the cat " * limit + b"\n")
    ref.write_bytes(ref.read_bytes() + b"a cat\n")
    refused = f"rouge155py: error: {hyp}: a line is larger than 0 MiB: refused\n".encode()
    assert _outcome(args) == (LIMIT_EXIT, b"", refused)


def test_a_line_larger_than_a_summary_may_be(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A line is one summary, at most as large as a summary file: a larger one (its sentence
    separators made line ends) is refused by its name, ``FILE:LINE``, read in chunks or whole."""
    monkeypatch.setattr(aligned_module, "MAX_FILE_BYTES", 120)
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    long_line = b" <q> ".join([b"the cat sat on the mat"] * 5)  # 130 bytes, 114 once split
    hyp.write_bytes(b"a b\n" * 4 + long_line + b"\n")
    ref.write_bytes(b"a b\n" * 4 + b"the cat\n")
    args = ["-a", "-n", "1", "--hyp", str(hyp), "--ref", str(ref)]
    refused = f"rouge155py: error: {hyp}:5 is larger than 64 MiB: refused\n".encode()
    assert _streamed(monkeypatch, args) == (LIMIT_EXIT, b"", refused)
    whole = _outcome([*args[:3], "--hyp", "-", "--ref", str(ref)], hyp.read_bytes())
    assert whole == (LIMIT_EXIT, b"", refused.replace(str(hyp).encode(), b"-"))
    assert _streamed(monkeypatch, [*args, "--sentence-separator", " <q> "])[0] == 0


def test_the_first_chunks_are_read_ahead_for_the_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint about summaries the Perl's rules cannot read looks at the first evals, read ahead
    over several chunks and scored after: the same hint and report as the files read whole."""
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_bytes("кошка сидит\n".encode() * 7)
    ref.write_bytes("кошка сидела\n".encode() * 7)
    args = ["-a", "-n", "1", "--hyp", str(hyp), "--ref", str(ref)]
    streamed = _streamed(monkeypatch, args)
    assert b"hint: 14 of the first 14 summaries" in streamed[2]
    assert streamed == _outcome([*args[:3], "--hyp", "-", "--ref", str(ref)], hyp.read_bytes())


@pytest.mark.skipif(not kernel_available(), reason="-j 2 reads the files whole on workers without the kernel")
def test_a_chunks_error_comes_before_a_later_chunks_under_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One process scores a chunk before it reads the next, so the error of scoring the eighth
    chunk (3 lines each; the first seven are read ahead for the run's hint) is the run's, not
    that of reading the ninth (the files' lengths differ there); under -j 2 the threads' reader
    is ahead of them, and the run's error is still the eighth chunk's."""
    import rouge155py.run.batches as batches_module
    from rouge155py.errors import RougeError

    scored = batches_module.score_chunk

    def failing(config: Any, places: Any, options: Any) -> Any:
        if places[0] == 21:
            raise RougeError("the eighth chunk failed")
        return scored(config, places, options)

    monkeypatch.setattr(batches_module, "score_chunk", failing)
    monkeypatch.setattr(executors, "score_chunk", failing)
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_bytes(b"the cat sat\n" * 40)
    ref.write_bytes(b"a cat sat\n" * 25)
    args = ["-a", "-n", "1", "--hyp", str(hyp), "--ref", str(ref)]
    alone = _streamed(monkeypatch, args)
    assert alone[::2] == (1, b"rouge155py: error: the eighth chunk failed\n")
    assert _streamed(monkeypatch, ["-j", "2", *args]) == alone
