"""Fuzz the command line: generated and mutated configurations, file lists, summaries and options.

``test_fuzz.py`` runs a few hundred cases; a long run is the same test with more::

    ROUGE155PY_FUZZ_CASES=10000 python -m pytest -s tests/hostile/test_fuzz.py
    ROUGE155PY_FUZZ_CASES=500 ROUGE155PY_FUZZ_SEED=7 ROUGE155PY_FUZZ_KEEP=fuzz-failures \\
        ROUGE155PY_FUZZ_PERL=1 python -m pytest -s tests/hostile/test_fuzz.py

Every case is a fresh directory holding summary files (SEE, SPL, ISI or SIMPLE
BE), an XML configuration, a ``-z`` file list or line-aligned files, any of
them possibly mutated byte by byte or element by element, and a command line
drawn from valid and hostile option values. Each runs in a forked copy of this
process (no interpreter start-up), in its own process group, with stdin from
/dev/null, HOME and TMPDIR inside the case directory.

An outcome is good when the run exits 0, or with a documented exit code and
exactly one ``rouge155py: error:`` line as its last stderr line; any other
stderr line must be one of the known warnings. Bad outcomes: a traceback, an
undocumented exit code or stderr line, a hang, a death by signal, or a file
created in the case directory. ``ROUGE155PY_FUZZ_KEEP=DIR`` keeps the bad cases
(their files and the command) for replay; ``ROUGE155PY_FUZZ_PERL=1`` also runs
the reference Perl on the good cases and fails where its bytes differ. ``-s``
shows the outcome counts.
"""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

REPO = Path(__file__).resolve().parents[2]
DATA = str(REPO / "data")

#: Exit codes of rouge155py/errors.py (1 to 8) and of the documented stops.
DOCUMENTED_EXITS = {1, 2, 3, 4, 5, 6, 7, 8, 130, 141, 143}
_ERROR = re.compile(r"rouge155py: error: \S")
# Lines that name what the input holds (empty summaries, other scripts) or that the kernel is missing.
_NOTES = (
    re.compile(
        r"rouge155py: warning: .*: \d+ of \d+ (lines empty|objects with an empty prediction or "
        r"reference, on lines) \([\d, .]+\): (scored 0|left out) \(--skip-empty.*\)$",
        re.S,
    ),
    re.compile(r"rouge155py: hint: \d+ of the first \d+ summaries .* --lang .*$"),
    re.compile(r"rouge155py: warning: .*: no eval to score$", re.S),
    re.compile(r"rouge155py: note: the C kernel is not built .*$"),
)
_WARNINGS = (
    re.compile(r"Unknown option: .$", re.S),
    re.compile(r"usage: rouge155py .*$"),  # the short usage, where no configuration is named
    re.compile(r"n:.*\|version:\S+$"),  # --signature
    re.compile(r"rouge155py \S+: .*, (C kernel|pure Python)$|  .*"),  # -v
    re.compile(r"Argument \".*\" isn't numeric \(option -.\): read as \S+$", re.S),
    re.compile(r"\*ROUGE Warning: test instance for peer .* does not exist for evaluation .*$", re.S),
    *_NOTES,
)

__all__ = [
    "DOCUMENTED_EXITS",
    "Outcome",
    "describe",
    "generate_case",
    "judge",
    "run_cases",
    "run_isolated",
    "summary",
]


# --------------------------------------------------------------------------
# Running one command line in a forked copy of this process
# --------------------------------------------------------------------------


@dataclass
class Outcome:
    """How one run ended."""

    argv: list[str]
    exit_code: Optional[int]  # None: killed by a signal or by the time-out
    stdout: bytes
    stderr: bytes
    seconds: float
    signal: Optional[int] = None
    timed_out: bool = False
    created: list[str] = field(default_factory=list)  # files that appeared in the case directory


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    found = {}
    for path in root.rglob("*"):
        try:
            info = path.lstat()
        except OSError:
            continue
        found[str(path.relative_to(root))] = (info.st_mode, info.st_size)
    return found


def _child(argv: list[str], cwd: Path, scratch: Path, stdin: Optional[Path], out: int, err: int) -> None:
    """In the forked child: become a fresh command-line run, then exit without returning."""
    code = 70
    try:
        os.setpgid(0, 0)
        os.chdir(cwd)
        fd = os.open(stdin if stdin is not None else os.devnull, os.O_RDONLY)
        os.dup2(fd, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
        sys.stderr = io.TextIOWrapper(
            io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=True
        )
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        for name in ("ROUGE_EVAL_HOME", "RED_EVAL_HOME"):
            os.environ.pop(name, None)
        os.environ["HOME"] = str(scratch / "home")
        os.environ["TMPDIR"] = str(scratch / "tmp")
        tempfile.tempdir = None
        from rouge155py.cli import main

        try:
            main.main(argv, prog_name="rouge155py", standalone_mode=True)
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        try:
            sys.stdout.flush()
        except Exception as error:  # the interpreter's own flush at exit would fail the same way
            print(f"Exception ignored at exit: {error!r}", file=sys.stderr)
            code = 120
    except BaseException:
        traceback.print_exc()
        code = 71
    finally:
        try:
            sys.stderr.flush()
        finally:
            os._exit(code)


def run_isolated(
    argv: Sequence[str],
    cwd: Path,
    timeout: float = 10.0,
    stdin: Optional[Path] = None,
    scratch: Optional[Path] = None,
) -> Outcome:
    """Run ``rouge155py ARGV`` in a forked copy of this process, inside ``cwd``; its HOME and
    TMPDIR are ``home`` and ``tmp`` in ``scratch`` (``cwd`` unless given: a run inside the
    checkout gives a scratch folder of its own)."""
    scratch = cwd if scratch is None else scratch
    (scratch / "home").mkdir(exist_ok=True)
    (scratch / "tmp").mkdir(exist_ok=True)
    before = _snapshot(cwd)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(list(argv), cwd, scratch, stdin, out.fileno(), err.fileno())
        status, timed_out = _wait(pid, timeout)
        seconds = time.monotonic() - started
        _reap_group(pid)
        out.seek(0)
        err.seek(0)
        outcome = Outcome(list(argv), None, out.read(), err.read(), seconds, timed_out=timed_out)
    if status is not None and os.WIFEXITED(status):
        outcome.exit_code = os.WEXITSTATUS(status)
    elif status is not None and os.WIFSIGNALED(status):
        outcome.signal = os.WTERMSIG(status)
    after = _snapshot(cwd)
    outcome.created = sorted(set(after) - set(before))
    return outcome


def _wait(pid: int, timeout: float) -> tuple[Optional[int], bool]:
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status, False
        if time.monotonic() > deadline:
            _kill_group(pid)
            os.waitpid(pid, 0)
            return None, True
        time.sleep(delay)
        delay = min(delay * 2, 0.02)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass


def _reap_group(pgid: int) -> None:
    """Workers left behind by a run (there should be none) are killed: the next case starts clean."""
    _kill_group(pgid)


# --------------------------------------------------------------------------
# Judging an outcome
# --------------------------------------------------------------------------


def judge(outcome: Outcome) -> str:
    """``ok``, ``error`` (a clean error line), or the kind of bad outcome."""
    if outcome.timed_out:
        return "hang"
    if outcome.signal is not None:
        return "signal"
    text = outcome.stderr.decode("utf-8", "backslashreplace")
    if "Traceback (most recent call last)" in text or outcome.exit_code in (70, 71):
        return "traceback"
    if outcome.created:
        return "file created"
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    errors = [
        line for line in lines if line.startswith("rouge155py: ") and not any(p.match(line) for p in _NOTES)
    ]
    others = [line for line in lines if line not in errors]
    if any(not any(p.match(line) for p in _WARNINGS) for line in others):
        return "unknown stderr"
    if outcome.exit_code == 0:
        return "ok" if not errors else "unknown stderr"
    if outcome.exit_code not in DOCUMENTED_EXITS:
        return "undocumented exit"
    if len(errors) != 1 or lines[-1] != errors[0] or not _ERROR.match(errors[0]):
        return "not one error line"
    return "error"


GOOD = ("ok", "error")
#: Every verdict of :func:`judge`, in the order a summary counts them.
VERDICTS = (
    *GOOD,
    "traceback",
    "hang",
    "signal",
    "undocumented exit",
    "not one error line",
    "unknown stderr",
    "file created",
)


# --------------------------------------------------------------------------
# Generating cases
# --------------------------------------------------------------------------

_WORDS = (
    "the cat sat on a mat dog ran fast home council approved new ferry timetable boats leave harbour "
    "every twenty minutes fares stay same until spring review running runs ran agreement movement "
    "is was be better best 1999 $42 million u.s. e-mail well-known it's"
).split()
_ODD_TOKENS = [
    "-",
    "--",
    "$",
    "&amp;",
    "<b>",
    "</a>",
    "\u00e9t\u00e9",
    "\u4e2d\u6587",
    "x" * 300,
    "a\x00b",
    "\r",
    "\t",
    "\x0b",
    "caf\xe9",
    "<",
    ">",
    "|",
    "||",
    "a|b|c",
    '"quote"',
]
_BYTE_NOISE = [
    b"\x00",
    b"\xff",
    b"\xfe\xff",
    b"\xef\xbb\xbf",
    b"\r\n",
    b"\r",
    b"\n\n",
    b"<",
    b"&",
    b"]]>",
    b"\x85",
]
_OPTION_VALUES = {
    "-n": ["0", "1", "2", "4", "9", "-1", "abc", "1e3", "nan", "inf", "", "2.7", "100", "101", "1e9"],
    "-2": ["-1", "0", "1", "4", "-5", "1e9", "x", "nan", "", "0.5"],
    "-w": ["1.2", "1", "2", "0.5", "0", "-1", "abc", "inf", "500", "1e-300", "", "1e300"],
    "-l": ["0", "1", "5", "10", "-1", "1e9", "abc", "3.5", ""],
    "-b": ["0", "1", "7", "50", "-3", "1e12", "abc", "2.5", ""],
    "-c": ["95", "0", "100", "50", "101", "-1", "abc", "nan", "99.9", ""],
    "-p": ["0.5", "0", "1", "0.3", "1.5", "-0.1", "abc", ""],
    "-r": ["1", "2", "5", "10", "0", "-1", "0.5", "abc", "1e12", "20000000", ""],
    "-t": ["0", "1", "2", "3", "-1", "abc", ""],
    "-f": ["A", "B", "C", "", "a"],
    "-3": ["H", "HM", "HMR", "HM1", "HMR1", "HMR2", "X", ""],
    "-z": ["SPL", "SEE", "ISI", "SIMPLE", "XML", ""],
    "-e": [DATA, "/nonexistent", ".", "", "data-here"],
    "-j": ["1", "2", "3", "0", "-1", "abc", "1000", ""],
}
_FLAGS = ["-a", "-m", "-M", "-s", "-u", "-U", "-x", "-d", "-v", "-h", "-H", "-q", "-k", "-Z", "--json"]
_LONG = [
    ["--format", "csv"],
    ["--format", "json"],
    ["--format", "xml"],
    ["--signature"],
    ["--jobs", "2"],
    ["--bogus"],
    ["--version"],
    ["--format"],
]


@dataclass
class Case:
    """One generated run: files to write (relative path -> bytes), the command line, stdin."""

    number: int
    files: dict[str, bytes]
    argv: list[str]
    stdin: Optional[bytes] = None
    fifos: list[str] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)


def _sentence(rng: random.Random) -> str:
    if rng.random() < 0.02:
        return " ".join(rng.choice(_WORDS) for _ in range(rng.choice([300, 1500])))
    words = [rng.choice(_WORDS) for _ in range(rng.randint(0 if rng.random() < 0.05 else 1, 12))]
    if rng.random() < 0.2:
        words.insert(rng.randint(0, len(words)), rng.choice(_ODD_TOKENS))
    return " ".join(words)


def _summary(rng: random.Random, fmt: str) -> bytes:
    sentences = [_sentence(rng) for _ in range(rng.randint(0 if rng.random() < 0.05 else 1, 4))]
    if fmt == "SEE":
        lines = ["<html>", "<body>"]
        lines += [
            f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{s}</a>' for i, s in enumerate(sentences, 1)
        ]
        lines.append("</body></html>")
    elif fmt == "ISI":
        lines = [f'<S SNTNO="{i}">{s}</S>' for i, s in enumerate(sentences, 1)]
    elif fmt == "SIMPLE":
        lines = []
        for _ in range(rng.randint(0, 5)):
            fields = [rng.choice([*_WORDS, "nil"]) for _ in range(3)]
            if rng.random() < 0.1:
                fields = fields[: rng.randint(0, 4)]
            lines.append("|".join(fields))
    else:
        lines = sentences
    text = "\n".join(lines) + ("\n" if rng.random() < 0.8 else "")
    data = text.encode("utf-8", "surrogateescape")
    if rng.random() < 0.05:
        data = text.encode("utf-16")
    elif rng.random() < 0.05:
        data = text.encode("latin-1", "replace")
    return _mutate_bytes(rng, data) if rng.random() < 0.15 else data


def _mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(data))
        choice = rng.random()
        if choice < 0.3:
            data = data[:at] + rng.choice(_BYTE_NOISE) + data[at:]
        elif choice < 0.5 and data:
            data = data[:at] + data[at + rng.randint(1, 8) :]
        elif choice < 0.65:
            data = data[:at]
        elif choice < 0.8 and data:
            data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
        else:
            piece = data[at : at + rng.randint(1, 40)]
            data = data[:at] + piece * rng.randint(2, 5) + data[at:]
    return data


def _xml(rng: random.Random, evals: list[tuple[str, list[str], list[str]]], fmt: str) -> bytes:
    parts = ['<ROUGE-EVAL version="1.0">']
    for eval_id, peers, models in evals:
        parts.append(f'<EVAL ID="{eval_id}">')
        parts.append("<PEER-ROOT>sums</PEER-ROOT>")
        parts.append("<MODEL-ROOT>sums</MODEL-ROOT>")
        parts.append(f'<INPUT-FORMAT TYPE="{fmt}"></INPUT-FORMAT>')
        parts.append("<PEERS>")
        parts += [f'<P ID="{p}">{name}</P>' for p, name in zip("123", peers)]
        parts.append("</PEERS>")
        parts.append("<MODELS>")
        parts += [f'<M ID="{m}">{name}</M>' for m, name in zip("ABC", models)]
        parts.append("</MODELS>")
        parts.append("</EVAL>")
    parts.append("</ROUGE-EVAL>")
    if rng.random() < 0.2:
        parts = _mutate_elements(rng, parts)
    text = "\n".join(parts) + "\n"
    data = text.encode("utf-8")
    if rng.random() < 0.1:
        data = _mutate_bytes(rng, data)
    return data


_XML_INSERTS = [
    '<!DOCTYPE r [<!ENTITY x "sums">]>',
    '<!DOCTYPE r [<!ENTITY x SYSTEM "home/secret">]>',
    '<!DOCTYPE r SYSTEM "http://127.0.0.1:9/r.dtd">',
    '<!DOCTYPE r [<!ENTITY % p SYSTEM "x.dtd"> %p;]>',
    '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="home/secret" parse="text"/>',
    "<!-- comment -->",
    "<?pi data?>",
    "<![CDATA[x.spl]]>",
    "&x;",
    "&#0;",
    "&#65;",
    "<EVAL>",
    '<EVAL ID="">',
    '<P ID="1"></P>',
    '<M ID="A">../../etc/passwd</M>',
    '<INPUT-FORMAT TYPE="HTML"/>',
    "<X>" * 300,
]


def _mutate_elements(rng: random.Random, parts: list[str]) -> list[str]:
    parts = list(parts)
    for _ in range(rng.randint(1, 3)):
        choice = rng.random()
        if not parts:
            parts.append(rng.choice(_XML_INSERTS))
            continue
        at = rng.randrange(len(parts))
        if choice < 0.25:
            del parts[at]
        elif choice < 0.45:
            parts.insert(at, parts[rng.randrange(len(parts))])
        elif choice < 0.75:
            insert = rng.choice(_XML_INSERTS)
            parts.insert(0 if insert.startswith("<!DOCTYPE") else at, insert)
        else:
            parts[at] = parts[at].lower() if rng.random() < 0.5 else parts[at].replace('"', "", 1)
    return parts


def _options(rng: random.Random, fmt: str) -> list[str]:
    args: list[str] = []
    if rng.random() < 0.5:
        args += ["-n", rng.choice(["1", "2", "4"])]
    if rng.random() < 0.3:
        args += ["-2", rng.choice(["-1", "0", "4"]), rng.choice(["-u", "-U", "-a"])]
    if rng.random() < 0.3:
        args += ["-w", rng.choice(["1.2", "1.5"])]
    if fmt == "SIMPLE" or rng.random() < 0.05:
        args += ["-3", rng.choice(["H", "HM", "HMR", "HM1", "HMR1", "HMR2"])]
    for flag in ("-m", "-M", "-s", "-x", "-d"):
        if rng.random() < 0.12:
            args.append(flag)
    if rng.random() < 0.15:
        args += [rng.choice(["-l", "-b"]), rng.choice(["5", "10", "30"])]
    if rng.random() < 0.2:
        args += ["-f", rng.choice("AB")]
    if rng.random() < 0.15:
        args += ["-t", rng.choice("012")]
    if rng.random() < 0.15:
        args += ["-p", rng.choice(["0", "0.3", "1"])]
    if rng.random() < 0.15:
        args += ["-c", rng.choice(["90", "99", "0", "100"])]
    args += ["-r", rng.choice(["1", "5", "20", "50"])]
    if rng.random() < 0.08:
        args += ["-j", "2"]
    if rng.random() < 0.1:
        args += rng.choice(_LONG[:2])
    return args


def _mutate_argv(rng: random.Random, argv: list[str]) -> list[str]:
    argv = list(argv)
    for _ in range(rng.randint(1, 3)):
        choice = rng.random()
        if choice < 0.45:
            option = rng.choice(sorted(_OPTION_VALUES))
            value = rng.choice(_OPTION_VALUES[option])
            at = rng.randint(0, len(argv))
            argv[at:at] = [option, value] if rng.random() < 0.8 else [option + value]
        elif choice < 0.6:
            argv.insert(rng.randint(0, len(argv)), rng.choice(_FLAGS))
        elif choice < 0.7:
            argv.insert(rng.randint(0, len(argv)), rng.choice(_LONG)[0])
        elif choice < 0.8 and argv:
            del argv[rng.randrange(len(argv))]
        elif choice < 0.9 and argv:
            at = rng.randrange(len(argv))
            argv.insert(at, argv[at])
        else:
            argv.append(rng.choice(["extra", "1", "", "-", "--", "nosuch.xml"]))
    return argv


def generate_case(number: int, seed: int) -> Case:
    """The case ``number`` of the run seeded ``seed`` (the same pair gives the same case)."""
    rng = random.Random(f"{seed}:{number}")
    fmt = rng.choice(["SPL", "SPL", "SEE", "ISI", "SIMPLE"])
    files: dict[str, bytes] = {"home/secret": b"sums\n"}
    evals = []
    for e in range(rng.randint(0, 4)):
        peers = [f"e{e}.p{p}" for p in range(rng.randint(1, 3))]
        models = [f"e{e}.m{m}" for m in range(rng.randint(0 if rng.random() < 0.05 else 1, 3))]
        for name in peers + models:
            files[f"sums/{name}"] = _summary(rng, fmt)
        evals.append((str(e + 1) if rng.random() < 0.9 else rng.choice(["x", "1", "", "é"]), peers, models))
    fifos: list[str] = []
    links: dict[str, str] = {}
    if evals and rng.random() < 0.05:
        victim = rng.choice(evals)[1 if rng.random() < 0.5 else 2]
        if victim:
            name = f"sums/{rng.choice(victim)}"
            del files[name]
            trick = rng.random()
            if trick < 0.3:
                fifos.append(name)
            elif trick < 0.6:
                links[name] = os.path.basename(name)  # a symlink to itself: a loop
            elif trick < 0.8:
                links[name] = "/dev/zero"
            # else: the file is missing
    kind = rng.random()
    options = _options(rng, fmt)
    stdin = None
    if kind < 0.65:
        files["config.xml"] = _xml(rng, evals, fmt)
        argv = ["-e", DATA, *options, "-a", "config.xml"]
        if rng.random() < 0.2:
            argv = ["-e", DATA, *options, "config.xml", rng.choice(["1", "2", "9"])]
    elif kind < 0.85:
        lines = [" ".join(f"sums/{n}" for n in peers[:1] + models) for _, peers, models in evals]
        if rng.random() < 0.2:
            lines.insert(0, "# a comment")
        listing = ("\n".join(lines) + "\n").encode()
        files["list.txt"] = _mutate_bytes(rng, listing) if rng.random() < 0.15 else listing
        argv = ["-e", DATA, *options, "-z", fmt, "list.txt"]
        if rng.random() < 0.3:
            argv.append(rng.choice(["SYS", "1"]))
    else:
        count = rng.randint(0, 5)
        hyp = "\n".join(_sentence(rng) for _ in range(count)) + "\n"
        refs = ["\n".join(_sentence(rng) for _ in range(count)) + "\n" for _ in range(rng.randint(1, 2))]
        files["hyp.txt"] = hyp.encode("utf-8")
        for i, ref in enumerate(refs):
            data = ref.encode("utf-8")
            files[f"ref{i}.txt"] = _mutate_bytes(rng, data) if rng.random() < 0.2 else data
        argv = ["-e", DATA, *[a for a in options if a not in ("-3",)], "--hyp", "hyp.txt"]
        for i in range(len(refs)):
            argv += ["--ref", f"ref{i}.txt"]
        if rng.random() < 0.2:
            argv += ["--sep", rng.choice(["<q>", " ", "."])]
        if rng.random() < 0.15:
            argv[argv.index("hyp.txt")] = "-"
            stdin = files["hyp.txt"]
    if rng.random() < 0.25:
        argv = _mutate_argv(rng, argv)
    return Case(number, files, argv, stdin, fifos, links)


def materialize(case: Case, root: Path) -> Optional[Path]:
    """Write the case's files under ``root``; returns the stdin file, if any."""
    for name, data in case.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for name in case.fifos:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(root / name)
    for name, target in case.links.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, root / name)
    if case.stdin is None:
        return None
    stdin = root / "home" / "stdin.txt"
    stdin.parent.mkdir(parents=True, exist_ok=True)
    stdin.write_bytes(case.stdin)
    return stdin


# --------------------------------------------------------------------------
# Running many
# --------------------------------------------------------------------------


@dataclass
class Tally:
    """Outcome counts, and the bad cases."""

    counts: Counter = field(default_factory=Counter)  # type: ignore[type-arg]
    exits: Counter = field(default_factory=Counter)  # type: ignore[type-arg]
    bad: list[tuple[Case, Outcome, str]] = field(default_factory=list)
    perl: Counter = field(default_factory=Counter)  # type: ignore[type-arg]
    perl_cases: list[tuple[Case, Outcome, str]] = field(default_factory=list)
    slowest: float = 0.0
    seconds: float = 0.0


_NOT_PERL = re.compile(r"-[^-]*[jvhH]|--.+")  # options the Perl lacks or prints otherwise


def compare_with_perl(oracle: Any, case: Case, outcome: Outcome, root: Path) -> Optional[str]:
    """How the Perl's run of the same case differs (None: the same bytes, or not comparable)."""
    if any(_NOT_PERL.match(arg) for arg in case.argv) or case.stdin is not None:
        return None
    args = [str(oracle.data_dir) if arg == DATA else arg for arg in case.argv]
    try:
        perl = oracle.run(args, cwd=root, timeout=20)
    except subprocess.TimeoutExpired:
        return "perl hangs" if outcome.exit_code == 0 else None
    if perl.returncode == 0 and outcome.exit_code == 0:
        return None if perl.stdout == outcome.stdout else "differs from the Perl"
    if perl.returncode == 0:
        return "the Perl succeeds, rouge155py refuses"
    if outcome.exit_code == 0:
        return "the Perl dies, rouge155py succeeds"
    return None


def run_cases(
    cases: int,
    seed: int = 0,
    timeout: float = 10.0,
    keep: Optional[Path] = None,
    progress: Optional[Callable[[int, Tally], None]] = None,
    oracle: Any = None,
) -> Tally:
    """Generate and run ``cases`` cases; count their outcomes (and, with ``oracle``, the Perl's)."""
    from rouge155py import cli  # imported once, before any fork

    assert cli.run
    tally = Tally()
    started = time.monotonic()
    base = Path(tempfile.mkdtemp(prefix="rouge155py-fuzz-"))
    try:
        for number in range(cases):
            case = generate_case(number, seed)
            root = base / f"case-{number}"
            root.mkdir()
            stdin = materialize(case, root)
            outcome = run_isolated(case.argv, root, timeout, stdin)
            verdict = judge(outcome)
            tally.counts[verdict] += 1
            tally.exits[outcome.exit_code if outcome.exit_code is not None else "none"] += 1
            tally.slowest = max(tally.slowest, outcome.seconds)
            if verdict not in GOOD:
                tally.bad.append((case, outcome, verdict))
                if keep is not None:
                    _keep(case, outcome, verdict, root, keep)
            elif oracle is not None:
                difference = compare_with_perl(oracle, case, outcome, root)
                if difference is not None:
                    tally.perl[difference] += 1
                    tally.perl_cases.append((case, outcome, difference))
                    if keep is not None and difference == "differs from the Perl":
                        _keep(case, outcome, difference, root, keep)
            shutil.rmtree(root, ignore_errors=True)
            if progress is not None:
                progress(number + 1, tally)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    tally.seconds = time.monotonic() - started
    return tally


def _keep(case: Case, outcome: Outcome, verdict: str, root: Path, keep: Path) -> None:
    target = keep / f"case-{case.number}"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(root, target, symlinks=True, ignore=lambda d, names: [n for n in names if n == "tmp"])
    (target / "README").write_text(
        f"verdict: {verdict}\nexit: {outcome.exit_code} signal: {outcome.signal}\n"
        f"command (run here): rouge155py {' '.join(map(repr, case.argv))}\n\nstderr:\n"
        + outcome.stderr.decode("utf-8", "backslashreplace")
    )


def describe(case: Case, outcome: Outcome, verdict: str) -> str:
    """A few lines naming a bad case."""
    err = outcome.stderr.decode("utf-8", "backslashreplace").strip().splitlines()
    return (
        f"case {case.number}: {verdict} (exit {outcome.exit_code}, signal {outcome.signal}, "
        f"{outcome.seconds:.1f} s): rouge155py {' '.join(map(repr, case.argv))}\n    "
        + "\n    ".join(err[-6:])
    )


def summary(tally: Tally, seed: int, with_perl: bool) -> str:
    """The outcome counts of a run, its exit codes and, with the Perl, the differences from it."""
    cases = sum(tally.counts.values())
    lines = [f"cases: {cases}, seed {seed}, {tally.seconds:.1f} s (slowest case {tally.slowest:.2f} s)"]
    lines += [f"  {verdict}: {tally.counts.get(verdict, 0)}" for verdict in VERDICTS]
    lines.append("  exit codes: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.exits.items(), key=str)))
    if with_perl:
        against = ", ".join(f"{k}: {v}" for k, v in tally.perl.items()) or "no difference"
        lines.append(f"  against the Perl: {against}")
    return "\n".join(lines)
