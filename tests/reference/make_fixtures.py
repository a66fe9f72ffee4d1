"""Regenerate the archived outputs of the reference ROUGE-1.5.5.pl.

Every case below is a ROUGE-1.5.5.pl command line (without ``-e``) run from the
repository root.  For each case this script runs the Perl with ``-e <its data
directory>`` prepended and writes ``tests/fixtures/perl/<name>/``:

``args.json``
    the argument list (without ``-e``), read by ``tests/test_fixtures.py``;
``command.txt``
    the Perl command line (``-e DATA`` standing for the data directory), the
    ROUGE-1.5.5.pl release and the ``perl -v`` version line;
``stdout.txt``
    the Perl's stdout, raw bytes;
``stderr.txt``
    the Perl's stderr, with the script's own path shortened (for reference only);
``exit_code.txt``
    the Perl's exit status.

Cases that need unusual input files (CRLF lines, entities, odd XML) write them
first under ``tests/fixtures/perl/inputs/<name>/``.

From ``tests/`` (the import root of the test tree)::

    python -m reference.make_fixtures              # regenerate every case
    python -m reference.make_fixtures NAME ...     # regenerate some cases
    python -m reference.make_fixtures --list       # print the case names
    python -m reference.make_fixtures --check      # exit 1 when an archive is stale
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .oracle import SCRIPT_NAME, WHEEL_REQUIREMENT, Oracle, OracleError, ensure_oracle

REPO = Path(__file__).resolve().parents[2]

FIXTURES = REPO / "tests" / "fixtures" / "perl"
INPUTS = "tests/fixtures/perl/inputs"
EXAMPLE = "examples/duc-mini"
SEE_CONFIG = f"{EXAMPLE}/rouge-config.xml"
SPL_CONFIG = f"{EXAMPLE}/rouge-config-spl.xml"
BE_CONFIG = f"{EXAMPLE}/rouge-config-be.xml"
SPL_LIST = f"{EXAMPLE}/filelist-spl.txt"


@dataclass(frozen=True)
class Case:
    """One archived run: a name, the arguments, and input files to write first."""

    name: str
    args: tuple[str, ...]
    inputs: dict[str, bytes] = field(default_factory=dict)  # file name -> bytes
    about: str = ""
    input_dir: str = ""  # the directory under inputs/ (default: the case name)

    @property
    def input_path(self) -> Path:
        return FIXTURES / "inputs" / (self.input_dir or self.name)


# --------------------------------------------------------------------------
# Input files of the edge cases
# --------------------------------------------------------------------------


def _eval_xml(
    eval_id: str,
    input_format: str,
    peer_root: str,
    model_root: str,
    peers: list[tuple[str, str]],
    models: list[tuple[str, str]],
    tags: dict[str, str] | None = None,
) -> str:
    """One ``<EVAL>`` element; ``tags`` renames elements (e.g. to lowercase)."""
    t = {
        name: name
        for name in ("EVAL", "PEER-ROOT", "MODEL-ROOT", "INPUT-FORMAT", "PEERS", "P", "MODELS", "M")
    }
    t.update(tags or {})
    lines = [
        f'<{t["EVAL"]} ID="{eval_id}">',
        f"<{t['PEER-ROOT']}>{peer_root}</{t['PEER-ROOT']}>",
        f"<{t['MODEL-ROOT']}>{model_root}</{t['MODEL-ROOT']}>",
        f'<{t["INPUT-FORMAT"]} TYPE="{input_format}"></{t["INPUT-FORMAT"]}>',
        f"<{t['PEERS']}>",
        *(f'<{t["P"]} ID="{pid}">{name}</{t["P"]}>' for pid, name in peers),
        f"</{t['PEERS']}>",
        f"<{t['MODELS']}>",
        *(f'<{t["M"]} ID="{mid}">{name}</{t["M"]}>' for mid, name in models),
        f"</{t['MODELS']}>",
        f"</{t['EVAL']}>",
    ]
    return "\n".join(lines) + "\n"


def _config(*evals: str) -> bytes:
    return ('<ROUGE-EVAL version="1.0">\n' + "".join(evals) + "</ROUGE-EVAL>\n").encode("utf-8")


def _example_eval(
    topic: str, peers: str = "123", models: str = "ABCD", eval_id: str | None = None, **kw
) -> str:
    """An ``<EVAL>`` over the example's SEE files of one topic."""
    return _eval_xml(
        eval_id or topic,
        "SEE",
        f"{EXAMPLE}/peers",
        f"{EXAMPLE}/models",
        [(p, f"{topic}.P.100.{p}.html") for p in peers],
        [(m, f"{topic}.M.100.{m}.html") for m in models],
        **kw,
    )


def _see(title: str, sentences: list[bytes]) -> bytes:
    """A SEE/DUC HTML summary, one sentence per line."""
    head = f'<html>\n<head><title>{title}</title></head>\n<body bgcolor="white">\n'.encode("ascii")
    body = b"".join(
        b'<a name="%d">[%d]</a> <a href="#%d" id=%d>%s</a>\n' % (i, i, i, i, s)
        for i, s in enumerate(sentences, start=1)
    )
    return head + body + b"</body>\n</html>\n"


def _isi(sentences: list[bytes]) -> bytes:
    """An ISI summary: ``<S SNTNO="n">text</S>`` lines inside a document."""
    body = b"".join(b'<S SNTNO="%d">%s</S>\n' % (i, s) for i, s in enumerate(sentences, start=1))
    return b"<DOC>\n<TEXT>\n" + body + b"</TEXT>\n</DOC>\n"


def _spl(sentences: list[bytes], newline: bytes = b"\n") -> bytes:
    return b"".join(s + newline for s in sentences)


_PEER_A = [
    b"The council approved the new ferry timetable on Tuesday after a long debate.",
    b"Boats will leave the harbour every twenty minutes during the morning rush.",
    b"Fares stay the same until the spring review.",
]
_PEER_B = [
    b"A ferry plan was discussed by the council.",
    b"Some residents said the harbour was too busy in the morning.",
]
_MODEL_A = [
    b"On Tuesday the town council approved a new ferry timetable.",
    b"From next month boats leave the harbour every twenty minutes in the morning rush hour.",
    b"Fares will not change before the spring review.",
]
_MODEL_B = [
    b"The council voted for more frequent ferries after a long debate.",
    b"Morning boats will run every twenty minutes, and fares are frozen until spring.",
]


def _rel(case: str, name: str) -> str:
    return f"{INPUTS}/{case}/{name}"


def _small_config(case: str, fmt: str, ext: str, peers: str = "12", models: str = "AB") -> bytes:
    root = f"{INPUTS}/{case}"
    return _config(
        _eval_xml(
            "T1",
            fmt,
            root,
            root,
            [(p, f"peer{p}.{ext}") for p in peers],
            [(m, f"model{m}.{ext}") for m in models],
        )
    )


def _empty_model_inputs() -> dict[str, bytes]:
    return {
        "config.xml": _small_config("empty-model-wlcs", "SPL", "spl"),
        "peer1.spl": _spl(_PEER_A),
        "peer2.spl": _spl(_PEER_B),
        "modelA.spl": _spl(_MODEL_A),
        "modelB.spl": b"",
    }


def _crlf_inputs() -> dict[str, bytes]:
    return {
        "config.xml": _small_config("spl-crlf", "SPL", "spl"),
        "peer1.spl": _spl(_PEER_A, b"\r\n"),
        "peer2.spl": b"  " + _spl(_PEER_B, b" \r\n") + b"\r\n\r\n",
        "modelA.spl": _spl(_MODEL_A, b"\r\n"),
        "modelB.spl": _spl(_MODEL_B, b"\n"),
    }


def _entity_inputs() -> dict[str, bytes]:
    peer1 = [
        b"Smith &amp; Sons opened a caf\xe9 near the harbour &lt;north&gt; pier.",
        b"The owner, Ren\xc3\xa9e M\xc3\xbcller, said prices start at \xe2\x82\xac3 &#38; up.",
        b"Na\xefve visitors queued for the cr\xe8me br\xfbl\xe9e all morning.",
    ]
    peer2 = [
        b"A caf\xc3\xa9 opened &amp; drew a queue.",
        b"Prices are low &quot;for now&quot; said the owner.",
    ]
    model_a = [
        b"Smith &amp; Sons opened a new caf\xe9 by the north pier of the harbour.",
        b"Owner Ren\xc3\xa9e M\xc3\xbcller said coffee costs \xe2\x82\xac3 and up.",
        b"Crowds queued all morning for the cr\xe8me br\xfbl\xe9e.",
    ]
    model_b = [
        b"A family firm, Smith and Sons, opened a harbour caf\xc3\xa9 &amp; bakery.",
        b"Visitors queued all morning &mdash; prices start at three euros.",
    ]
    return {
        "config.xml": _small_config("see-entities", "SEE", "html"),
        "peer1.html": _see("peer1", peer1),
        "peer2.html": _see("peer2", peer2),
        "modelA.html": _see("modelA", model_a),
        "modelB.html": _see("modelB", model_b),
    }


def _isi_inputs() -> dict[str, bytes]:
    return {
        "config.xml": _small_config("isi-format", "ISI", "isi"),
        "peer1.isi": _isi(_PEER_A),
        "peer2.isi": _isi(_PEER_B) + b'<S SNTNO="x1">An odd number still counts.</S>\n',
        "modelA.isi": _isi(_MODEL_A),
        "modelB.isi": _isi(_MODEL_B) + b"<S>Lines without a number are skipped.</S>\n",
    }


def _missing_model_inputs() -> dict[str, bytes]:
    root = f"{INPUTS}/missing-model"
    return {
        "config.xml": _config(
            _eval_xml(
                "T1", "SPL", root, root, [("1", "peer1.spl")], [("A", "modelA.spl"), ("B", "no-such.spl")]
            )
        ),
        "peer1.spl": _spl(_PEER_A),
        "modelA.spl": _spl(_MODEL_A),
    }


def _missing_peer_file_inputs() -> dict[str, bytes]:
    root = f"{INPUTS}/missing-peer-file"
    return {
        "config.xml": _config(
            _eval_xml("T1", "SPL", root, root, [("1", "no-such-peer.spl")], [("A", "modelA.spl")])
        ),
        "modelA.spl": _spl(_MODEL_A),
    }


def _be_invalid_inputs() -> dict[str, bytes]:
    return {
        "config.xml": _small_config("be-two-fields", "SIMPLE", "be", peers="1", models="AB"),
        "peer1.be": b"council|ferry|mod\ntimetable|new|mod\ntimetable|nil|nil\n",
        "modelA.be": b"council|town|mod\ntimetable|ferry|mod\n",
        "modelB.be": b"council|nil|nil\nferries|frequent\n",
    }


def _unknown_type_inputs() -> dict[str, bytes]:
    root = f"{INPUTS}/unknown-input-type"
    return {
        "config.xml": _config(
            _eval_xml("T1", "FOO", root, root, [("1", "peer1.spl")], [("A", "modelA.spl")])
        ),
        "peer1.spl": _spl(_PEER_A),
        "modelA.spl": _spl(_MODEL_A),
    }


def _nested_eval_config() -> bytes:
    # D02 sits inside D01 (after D01's own settings); D03 follows normally.
    outer = _example_eval("D01").rsplit("</EVAL>", 1)[0]
    return _config(outer + _example_eval("D02") + "</EVAL>\n", _example_eval("D03"))


def _lowercase_config() -> bytes:
    lower = {
        name: name.lower() for name in ("EVAL", "PEER-ROOT", "MODEL-ROOT", "INPUT-FORMAT", "PEERS", "MODELS")
    }
    mixed = {"EVAL": "Eval", "PEER-ROOT": "Peer-Root", "MODEL-ROOT": "model-ROOT", "P": "p", "M": "m"}
    text = _example_eval("D04", tags=lower) + _example_eval("D05", tags=mixed)
    # A lowercase type name is accepted too.
    text += _example_eval("D06").replace('TYPE="SEE"', 'TYPE="see"')
    return _config(text)


def _duplicate_eval_config() -> bytes:
    # Two <EVAL ID="D07"> blocks: the second adds peer 3 and model D; D08 in between.
    first = _example_eval("D07", peers="12", models="ABC")
    second = _eval_xml(
        "D07",
        "SEE",
        f"{EXAMPLE}/peers",
        f"{EXAMPLE}/models",
        [("3", "D07.P.100.3.html")],
        [("D", "D07.M.100.D.html")],
    )
    return _config(first, _example_eval("D08"), second)


def _missing_peer_config() -> bytes:
    # Peer 2 is missing from D09, peer 3 from D10 (and peer 1 from nothing).
    return _config(
        _example_eval("D01"),
        _example_eval("D09", peers="13"),
        _example_eval("D10", peers="12"),
    )


# --------------------------------------------------------------------------
# The cases
# --------------------------------------------------------------------------


def _case(name: str, command: str, inputs: dict[str, bytes] | None = None, **kw: str) -> Case:
    """A case from a command line written as one string (split like a shell does)."""
    return Case(name, tuple(shlex.split(command)), inputs or {}, **kw)


def _cases() -> list[Case]:
    see, spl, be, lst = SEE_CONFIG, SPL_CONFIG, BE_CONFIG, SPL_LIST
    ws = "-w 1.2 -2 4 -u"  # ROUGE-W, ROUGE-SU4
    cases = [
        _case("design-card", f"-a -n 4 -w 1.2 -2 4 -U {see}", about="the usual full run"),
        _case(
            "duc-official",
            f"-a -n 2 -x -m -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0 {see}",
            about="the DUC 2005-2007 official options",
        ),
        _case("per-eval", f"-a -n 2 {ws} -d {see}"),
        _case("count-tokens-t1", f"-a -n 2 -2 4 -u -t 1 {see}"),
        _case("count-totals-t2", f"-a -n 2 -w 1.2 -t 2 {see}"),
        _case("count-totals-t2-d", f"-a -n 1 -t 2 -d {see}"),
        _case("formula-best", f"-a -n 2 -w 1.2 -2 4 -U -f B {see}"),
        _case("alpha-0", f"-a -n 2 -p 0 {see}"),
        _case("alpha-1", f"-a -n 2 -p 1 {see}"),
        _case("confidence-90", f"-a -n 2 -c 90 {see}"),
        _case("confidence-0", f"-a -n 1 -c 0 {see}"),
        _case("confidence-100", f"-a -n 1 -c 100 {see}"),
        _case("resamples-10", f"-a -n 2 -r 10 {see}"),
        _case("resamples-1", f"-a -n 2 -r 1 {see}"),
        _case("length-50-words", f"-a -n 2 {ws} -l 50 {see}"),
        _case("length-300-bytes", f"-a -n 2 {ws} -b 300 {see}"),
        _case("length-7-words", f"-a -n 2 {ws} -l 7 -d {see}", about="the limit cuts the first sentence"),
        _case("length-40-bytes", f"-a -n 2 {ws} -b 40 -d {see}", about="the limit cuts the first sentence"),
        _case("stopwords", f"-a -n 2 {ws} -s {see}"),
        _case("stem", f"-a -n 2 {ws} -m {see}"),
        _case("stem-stopwords", f"-a -n 2 -m -s {see}"),
        _case("stem-models-only", f"-a -n 2 {ws} -M {see}"),
        _case("stem-and-stem-models", f"-a -n 2 -w 1.2 -2 4 -U -m -M {see}"),
        _case("skip-unlimited-su", f"-a -2 -1 -u {see}"),
        _case("skip-0-both", f"-a -2 0 -U {see}"),
        _case("wlcs-2", f"-a -w 2 {see}"),
        _case("wlcs-1.5-d-t1", f"-a -w 1.5 -d -t 1 {see}"),
        _case("no-metric", f"-a -x {see}", about="nothing to compute, nothing printed"),
        _case("spl-config", f"-a -n 4 -w 1.2 -2 4 -U {spl}"),
        _case("file-list-system-id", f"-n 2 -z SPL {lst} SYS1"),
        _case("file-list-default-id", f"-n 2 -w 1.2 -d -z SPL {lst}"),
        _case("file-list-unknown-format", f"-n 2 -z FOO {lst} SYS1", about="the Perl dies"),
        _case("be-H", f"-3 H -a {be}"),
        _case("be-HM-stem", f"-3 HM -m -a {be}"),
        _case("be-HMR-d", f"-3 HMR -d -a {be}"),
        _case("be-HM1", f"-3 HM1 -a {be}"),
        _case("be-HMR1-stem-d", f"-3 HMR1 -m -d -a {be}"),
        _case("be-HMR2", f"-3 HMR2 -a {be}"),
        _case(
            "be-config-with-ngrams",
            f"-3 HMR2 -n 2 -a {be}",
            about="the Perl dies: n-grams cannot read SIMPLE files",
        ),
        _case("single-system", f"-n 2 -w 1.2 -d {see} 2"),
        _case("unknown-system", f"-n 2 {see} 9", about="every eval lacks the peer"),
        _case("resamples-0", f"-a -n 1 -r 0 {see}", about="the Perl divides by zero"),
        _case("confidence-101", f"-a -n 1 -c 101 {see}", about="the Perl dies"),
        _case("words-and-bytes", f"-a -n 1 -l 5 -b 5 {see}", about="the Perl dies"),
        _case("missing-config", f"-a -n 1 {INPUTS}/no-such-config.xml", about="the Perl dies"),
    ]

    def cfg(name: str) -> str:
        return _rel(name, "config.xml")

    edge = [
        _case(
            "empty-model-wlcs",
            f"-a -n 1 -w 1.2 {cfg('empty-model-wlcs')}",
            _empty_model_inputs(),
            about="an empty model with -w: the Perl divides by zero",
        ),
        _case(
            "empty-model-no-wlcs",
            f"-a -n 2 -2 4 -u -d {cfg('empty-model-wlcs')}",
            _empty_model_inputs(),
            about="the same inputs without -w",
            input_dir="empty-model-wlcs",
        ),
        _case("spl-crlf", f"-a -n 2 {ws} -d {cfg('spl-crlf')}", _crlf_inputs()),
        _case(
            "see-entities",
            f"-a -n 2 {ws} -d {cfg('see-entities')}",
            _entity_inputs(),
            about="entities, Latin-1 and UTF-8 bytes",
        ),
        _case(
            "see-entities-stem-stop",
            f"-a -n 2 -m -s -b 60 -d {cfg('see-entities')}",
            _entity_inputs(),
            input_dir="see-entities",
        ),
        _case("isi-format", f"-a -n 2 {ws} -d {cfg('isi-format')}", _isi_inputs()),
        _case(
            "missing-model",
            f"-a -n 1 {cfg('missing-model')}",
            _missing_model_inputs(),
            about="the Perl dies: Cannot find model summary",
        ),
        _case(
            "missing-peer-file",
            f"-a -n 1 {cfg('missing-peer-file')}",
            _missing_peer_file_inputs(),
            about="the Perl dies: Cannot open",
        ),
        _case(
            "be-two-fields",
            f"-3 HM -a {cfg('be-two-fields')}",
            _be_invalid_inputs(),
            about="the Perl dies: invalid BE line",
        ),
        _case(
            "unknown-input-type",
            f"-a -n 1 {cfg('unknown-input-type')}",
            _unknown_type_inputs(),
            about="the Perl dies: Unknown input type",
        ),
        _case(
            "xml-nested-eval", f"-a -n 2 -d {cfg('xml-nested-eval')}", {"config.xml": _nested_eval_config()}
        ),
        _case("xml-lowercase", f"-a -n 2 -d {cfg('xml-lowercase')}", {"config.xml": _lowercase_config()}),
        _case(
            "xml-duplicate-eval",
            f"-a -n 2 -w 1.2 -d {cfg('xml-duplicate-eval')}",
            {"config.xml": _duplicate_eval_config()},
            about="two EVALs with one ID merge",
        ),
        _case(
            "xml-missing-peer",
            f"-a -n 2 -d {cfg('xml-missing-peer')}",
            {"config.xml": _missing_peer_config()},
            about="peers absent from some evals",
        ),
        _case(
            "xml-malformed",
            f"-a -n 1 {cfg('xml-malformed')}",
            {"config.xml": b'<ROUGE-EVAL version="1.0">\n<EVAL ID="D01">\n</ROUGE-EVAL>\n'},
            about="the Perl dies: XML parse error",
        ),
    ]
    # -v: the Perl's debug lines before each metric's lines (one system, short texts: small files)
    verbose = [
        _case("verbose-ngrams", f"-v -n 2 -l 12 -d {see} 1"),
        _case("verbose-skip-stem-stop", f"-v -x -2 4 -U -m -s -l 10 {see} 2"),
        _case("verbose-skip-unlimited", f"-v -x -2 -1 -u -b 50 {spl} 3"),
        _case("verbose-lcs-wlcs-best", f"-v -w 1.2 -b 60 -f B {see} 3"),
        _case("verbose-stem-models-only", f"-v -n 1 -w 1.2 -m -M -l 15 {see} 1"),
        _case("verbose-file-list-t1", f"-v -n 1 -t 1 -l 15 -z SPL {lst} SYS1"),
        _case("verbose-be", f"-v -3 HM -m {be} 1"),
        _case("verbose-be-hmr2-d", f"-v -3 HMR2 -d {be} 2"),
        _case(
            "verbose-ids",
            f"-v -a -n 1 -d {cfg('verbose-ids')}",
            {
                "config.xml": _config(
                    _example_eval("D01", "12", "AB", "D01\u00e9"), _example_eval("D02", "12", "AB", "\u03a9")
                )
            },
            about="eval IDs written in the XML as characters: é is one byte, Ω makes its lines UTF-8",
        ),
        # the inputs of the edge cases above, written by them
        _case("verbose-missing-peer", f"-v -a -n 1 -l 8 -d {cfg('xml-missing-peer')}"),
        _case("verbose-empty-model", f"-v -a -n 2 -2 4 -u {cfg('empty-model-wlcs')}"),
        _case("verbose-entities", f"-v -a -n 1 -m -s -b 60 {cfg('see-entities')}"),
    ]
    return cases + edge + verbose


CASES = _cases()


# --------------------------------------------------------------------------
# Running and writing
# --------------------------------------------------------------------------


def _perl_version(oracle: Oracle) -> str:
    out = subprocess.run([oracle.perl, "-v"], capture_output=True, check=False).stdout.decode(
        "utf-8", "replace"
    )
    lines = [line for line in out.splitlines() if line.strip()]
    return lines[0] if lines else "unknown"


def _write_inputs(case: Case) -> None:
    for name, data in case.inputs.items():
        target = case.input_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)


def _command_text(case: Case, perl_version: str) -> str:
    command = shlex.join(["perl", SCRIPT_NAME, "-e", "DATA", *case.args])
    lines = [
        command,
        "# run from the repository root; DATA is the reference data directory",
        f"# {SCRIPT_NAME} from {WHEEL_REQUIREMENT}",
        f"# {perl_version}",
    ]
    if case.about:
        lines.append(f"# {case.about}")
    return "\n".join(lines) + "\n"


def _clean_stderr(data: bytes, oracle: Oracle) -> bytes:
    for path, short in ((oracle.script, SCRIPT_NAME), (oracle.data_dir, "DATA")):
        data = data.replace(str(path).encode(), short.encode())
    return data


def _outputs(case: Case, oracle: Oracle, perl_version: str) -> dict[str, bytes]:
    _write_inputs(case)
    proc = oracle.run(["-e", str(oracle.data_dir), *case.args], cwd=REPO, timeout=600)
    return {
        "args.json": (json.dumps(list(case.args), indent=1) + "\n").encode("utf-8"),
        "command.txt": _command_text(case, perl_version).encode("utf-8"),
        "stdout.txt": proc.stdout,
        "stderr.txt": _clean_stderr(proc.stderr, oracle),
        "exit_code.txt": f"{proc.returncode}\n".encode("ascii"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the archived ROUGE-1.5.5.pl outputs.")
    parser.add_argument("names", nargs="*", help="cases to regenerate (default: all)")
    parser.add_argument("--list", action="store_true", help="print the case names and arguments")
    parser.add_argument("--check", action="store_true", help="compare with the archive, write nothing")
    opts = parser.parse_args(argv)

    if opts.list:
        for case in CASES:
            print(f"{case.name}: {shlex.join(case.args)}")
        return 0
    known = {case.name: case for case in CASES}
    unknown = [name for name in opts.names if name not in known]
    if unknown:
        parser.error(f"unknown case(s): {', '.join(unknown)}")
    selected = [known[name] for name in opts.names] if opts.names else CASES

    # Perl's hash order, which -v prints, fixed: an archive is stale only when the Perl's output is.
    os.environ["PERL_HASH_SEED"] = "0"
    os.environ["PERL_PERTURB_KEYS"] = "0"
    try:
        oracle = ensure_oracle()
    except OracleError as exc:
        print(f"make_fixtures: {exc}", file=sys.stderr)
        return 2
    perl_version = _perl_version(oracle)

    stale = 0
    for case in selected:
        outputs = _outputs(case, oracle, perl_version)
        directory = FIXTURES / case.name
        status = outputs["exit_code.txt"].decode().strip()
        if opts.check:
            differs = [
                name
                for name, data in outputs.items()
                if not (directory / name).is_file() or (directory / name).read_bytes() != data
            ]
            if differs:
                stale += 1
                print(f"{case.name}: stale ({', '.join(differs)})")
            continue
        directory.mkdir(parents=True, exist_ok=True)
        for name, data in outputs.items():
            (directory / name).write_bytes(data)
        print(f"{case.name}: exit {status}, {len(outputs['stdout.txt'])} bytes")

    if not opts.names and not opts.check:
        for directory in sorted(FIXTURES.iterdir()):
            if (directory / "args.json").is_file() and directory.name not in known:
                shutil.rmtree(directory)
                print(f"{directory.name}: removed (no longer a case)")
    if opts.check:
        print(f"{len(selected)} case(s), {stale} stale")
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
