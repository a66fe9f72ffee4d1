"""Evaluation configurations: readEvals (XML) and readFileList (-z) of ROUGE-1.5.5.pl."""

from __future__ import annotations

import gc
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rouge155py.errors import ConfigError, LimitError
from rouge155py.inputs.config import (
    Eval,
    EvalConfig,
    XmlEval,
    read_file_list,
    read_xml_config,
    read_xml_evals,
)
from rouge155py.inputs.readers import SummaryFile


@dataclass
class Raw:
    """An XML configuration as written: its entries (roots and file names) and peer IDs."""

    evals: list[XmlEval]
    peer_ids: set[str]


def xml(tmp_path: Path, body: str, doctype: str = "") -> Raw:
    path = tmp_path / "config.xml"
    path.write_text(f'<?xml version="1.0"?>\n{doctype}<ROUGE-EVAL version="1.0">\n{body}\n</ROUGE-EVAL>\n')
    return Raw(*read_xml_evals(str(path)))


def one_eval(config: Raw | EvalConfig) -> Any:
    assert len(config.evals) == 1
    return config.evals[0]


def peer_path(e: XmlEval | Eval, peer_id: str) -> str:
    """The path of a peer's document."""
    document = (e.documents() if isinstance(e, XmlEval) else e).peers[peer_id]
    assert isinstance(document, SummaryFile)
    return document.path


def model_paths(e: XmlEval | Eval) -> list[str]:
    """The paths of the model documents, in order."""
    return [m.path for m in (e.documents() if isinstance(e, XmlEval) else e).models]  # type: ignore[union-attr]


BASIC = """
<EVAL ID="D1">
  <PEER-ROOT>
     peers/dir
  </PEER-ROOT>
  <MODEL-ROOT>models</MODEL-ROOT>
  <INPUT-FORMAT TYPE="SEE"></INPUT-FORMAT>
  <PEERS>
    <P ID="1">d1.p1.html</P>
    <P ID="2"> d1.p2.html </P>
  </PEERS>
  <MODELS>
    <M ID="A">d1.A.html</M>
    <M ID="B">d1.B.html</M>
  </MODELS>
</EVAL>
"""


def test_basic_configuration(tmp_path: Path) -> None:
    config = xml(tmp_path, BASIC)
    e = one_eval(config)
    assert e.eval_id == "D1"
    assert e.input_format == "SEE"
    # The text of PEER-ROOT, P, M ... is trimmed: s/^[\n\s]+//, s/[\n\s]+$//.
    assert e.peer_root == "peers/dir"
    assert e.model_root == "models"
    assert e.peers == {"1": "d1.p1.html", "2": "d1.p2.html"}
    assert e.model_ids == ["A", "B"]
    assert config.peer_ids == {"1", "2"}


def test_paths_join_root_and_file(tmp_path: Path) -> None:
    e = one_eval(xml(tmp_path, BASIC))
    assert peer_path(e, "2") == "peers/dir/d1.p2.html"
    assert model_paths(e) == ["models/d1.A.html", "models/d1.B.html"]


def test_missing_roots_give_a_leading_slash(tmp_path: Path) -> None:
    # "$ROUGEEval->{PR}/$file" with PR undefined, and $modelRoot = "" when MR is absent.
    e = one_eval(
        xml(tmp_path, '<EVAL ID="1"><PEERS><P ID="x">p</P></PEERS><MODELS><M ID="m">f</M></MODELS></EVAL>')
    )
    assert peer_path(e, "x") == "/p"
    assert model_paths(e) == ["/f"]


def test_element_names_are_case_insensitive(tmp_path: Path) -> None:
    body = """
    <eval ID="e"><Peer-Root>p</Peer-Root><model-root>m</model-root>
    <Input-Format TYPE="spl"/>
    <peers><p ID="s">x</p></peers><Models><m ID="a">y</m></Models></eval>
    """
    e = one_eval(xml(tmp_path, body))
    assert (e.peer_root, e.model_root, e.input_format) == ("p", "m", "spl")
    assert e.peers == {"s": "x"}
    assert e.model_ids == ["a"]


def test_nested_eval(tmp_path: Path) -> None:
    # readEvals recurses with the inner EVAL's ID for the inner children only; the outer
    # EVAL's later children still belong to it.
    body = """
    <EVAL ID="outer">
      <PEER-ROOT>p-outer</PEER-ROOT>
      <EVAL ID="inner"><PEER-ROOT>p-inner</PEER-ROOT></EVAL>
      <MODEL-ROOT>m-outer</MODEL-ROOT>
    </EVAL>
    """
    config = xml(tmp_path, body)
    assert [e.eval_id for e in config.evals] == ["outer", "inner"]
    outer, inner = config.evals
    assert (outer.peer_root, outer.model_root) == ("p-outer", "m-outer")
    assert (inner.peer_root, inner.model_root) == ("p-inner", None)


def test_eval_found_inside_other_elements(tmp_path: Path) -> None:
    e = one_eval(xml(tmp_path, '<GROUP><X><EVAL ID="deep"><MODEL-ROOT>m</MODEL-ROOT></EVAL></X></GROUP>'))
    assert (e.eval_id, e.model_root) == ("deep", "m")


def test_duplicate_eval_ids_merge(tmp_path: Path) -> None:
    # The second EVAL with the same ID adds to the first: models are appended, the roots
    # and the input format are overwritten, peers are added.
    body = """
    <EVAL ID="1"><MODEL-ROOT>a</MODEL-ROOT><INPUT-FORMAT TYPE="SEE"/>
      <PEERS><P ID="x">px</P></PEERS><MODELS><M ID="A">ma</M></MODELS></EVAL>
    <EVAL ID="2"><MODEL-ROOT>z</MODEL-ROOT></EVAL>
    <EVAL ID="1"><MODEL-ROOT>b</MODEL-ROOT><INPUT-FORMAT TYPE="SPL"/>
      <PEERS><P ID="y">py</P></PEERS><MODELS><M ID="B">mb</M></MODELS></EVAL>
    """
    config = xml(tmp_path, body)
    assert [e.eval_id for e in config.evals] == ["1", "2"]
    first = config.evals[0]
    assert first.model_root == "b"
    assert first.input_format == "SPL"
    assert first.model_ids == ["A", "B"]
    assert first.peers == {"x": "px", "y": "py"}
    assert model_paths(first) == ["b/ma", "b/mb"]


def test_repeated_model_id(tmp_path: Path) -> None:
    # MIDList gets the ID twice; Ms{A} keeps the last file: the model is used twice.
    body = '<EVAL ID="1"><MODEL-ROOT>r</MODEL-ROOT><MODELS><M ID="A">one</M><M ID="A">two</M></MODELS></EVAL>'
    e = one_eval(xml(tmp_path, body))
    assert e.model_ids == ["A", "A"]
    assert model_paths(e) == ["r/two", "r/two"]


def test_last_text_node_wins(tmp_path: Path) -> None:
    # Each text child of PEER-ROOT overwrites PR in turn: "a", then "b" after the comment.
    e = one_eval(xml(tmp_path, '<EVAL ID="1"><PEER-ROOT>a<!-- c -->b</PEER-ROOT></EVAL>'))
    assert e.peer_root == "b"


def test_missing_input_format(tmp_path: Path) -> None:
    e = one_eval(xml(tmp_path, '<EVAL ID="1"><PEER-ROOT>p</PEER-ROOT></EVAL>'))
    assert e.input_format is None


@pytest.mark.parametrize("fmt", ["SEE", "isi", "Spl", "SIMPLE"])
def test_known_input_formats(tmp_path: Path, fmt: str) -> None:
    e = one_eval(xml(tmp_path, f'<EVAL ID="1"><INPUT-FORMAT TYPE="{fmt}"/></EVAL>'))
    assert e.input_format == fmt


@pytest.mark.parametrize("fmt", ["HTML", "SPL2", " SPL", ""])
def test_unknown_input_format(tmp_path: Path, fmt: str) -> None:
    with pytest.raises(ConfigError):
        xml(tmp_path, f'<EVAL ID="1"><INPUT-FORMAT TYPE="{fmt}"/></EVAL>')


def test_input_format_with_a_final_newline(tmp_path: Path) -> None:
    # /^(SEE|ISI|SPL|SIMPLE)$/oi: Perl's $ matches before a final newline, so
    # TYPE="SPL&#10;" (the value "SPL\n") is accepted, and the readers' /^SPL$/oi accept
    # it too: ROUGE-1.5.5.pl scores such a configuration normally.
    e = one_eval(xml(tmp_path, '<EVAL ID="1"><INPUT-FORMAT TYPE="SPL&#10;"/></EVAL>'))
    assert e.input_format == "SPL\n"


def test_trimming_covers_unicode_white_space(tmp_path: Path) -> None:
    # XML::Parser hands over character strings, on which Perl's \s is Unicode-aware:
    # s/[\n\s]+$// also removes a no-break space (U+00A0) or an em space (U+2003).
    # (ROUGE-1.5.5.pl finds "peer.spl" through <P ID="A">peer.spl&#160;</P>.)
    body = (
        '<EVAL ID="1"><PEER-ROOT>&#x2003;peers&#160;</PEER-ROOT>'
        '<PEERS><P ID="A">p.spl&#160;</P></PEERS></EVAL>'
    )
    e = one_eval(xml(tmp_path, body))
    assert e.peer_root == "peers"
    assert e.peers == {"A": "p.spl"}


def test_p_without_text_is_a_missing_peer(tmp_path: Path) -> None:
    # The ID is known (it is evaluated under -a), but Ps{ID} is never set, so the peer is
    # missing from this eval.
    body = '<EVAL ID="1"><PEERS><P ID="A"></P><P ID="B"/><P ID="C">c</P></PEERS></EVAL>'
    config = xml(tmp_path, body)
    assert config.peer_ids == {"A", "B", "C"}
    assert one_eval(config).peers == {"C": "c"}


def test_p_with_blank_text_is_present_and_empty(tmp_path: Path) -> None:
    # A text node of spaces exists: it is trimmed to "" and the peer is present.
    e = one_eval(xml(tmp_path, '<EVAL ID="1"><PEERS><P ID="A">   </P></PEERS></EVAL>'))
    assert e.peers == {"A": ""}


def test_peer_ids_across_evals(tmp_path: Path) -> None:
    body = """
    <EVAL ID="1"><PEERS><P ID="S1">a</P></PEERS></EVAL>
    <EVAL ID="2"><PEERS><P ID="S2">b</P><P ID="S1">c</P></PEERS></EVAL>
    """
    config = xml(tmp_path, body)
    assert config.peer_ids == {"S1", "S2"}
    assert peer_path(config.evals[1], "S1") == "/c"


def test_element_outside_an_eval_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        xml(tmp_path, "<PEER-ROOT>p</PEER-ROOT>")
    with pytest.raises(ConfigError):
        xml(tmp_path, '<INPUT-FORMAT TYPE="SPL"/>')


def test_eval_without_id_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        xml(tmp_path, "<EVAL><PEER-ROOT>p</PEER-ROOT></EVAL>")


def test_invalid_xml_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        xml(tmp_path, "<EVAL ID='1'>")


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        read_xml_config(str(tmp_path / "absent.xml"))


def test_internal_entities_are_expanded(tmp_path: Path) -> None:
    doctype = '<!DOCTYPE ROUGE-EVAL [<!ENTITY peerfile "peer.spl">]>\n'
    e = one_eval(xml(tmp_path, '<EVAL ID="1"><PEERS><P ID="A">&peerfile;</P></PEERS></EVAL>', doctype))
    assert e.peers == {"A": "peer.spl"}


def test_documents_join_roots_and_keep_the_input_format(tmp_path: Path) -> None:
    path = tmp_path / "config.xml"
    path.write_text(f'<?xml version="1.0"?>\n<ROUGE-EVAL version="1.0">{BASIC}</ROUGE-EVAL>\n')
    e = one_eval(read_xml_config(str(path)))
    assert e.peers == {
        "1": SummaryFile("peers/dir/d1.p1.html", "SEE"),
        "2": SummaryFile("peers/dir/d1.p2.html", "SEE"),
    }
    assert e.models == [SummaryFile("models/d1.A.html", "SEE"), SummaryFile("models/d1.B.html", "SEE")]


def test_reading_leaves_no_reference_cycle(tmp_path: Path) -> None:
    """Evals are freed as soon as nothing uses them, not at the collector's next full pass."""
    path = tmp_path / "config.xml"
    path.write_text(f'<?xml version="1.0"?>\n<ROUGE-EVAL version="1.0">{BASIC}{BASIC}</ROUGE-EVAL>\n')
    gc.collect()
    gc.disable()
    try:
        evals, peer_ids = read_xml_evals(str(path))
        assert len(evals) == 1 and peer_ids == {"1", "2"}
        del evals
        read_xml_config(str(path))
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_external_entities_are_not_loaded(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT\n")
    doctype = f'<!DOCTYPE ROUGE-EVAL [<!ENTITY e SYSTEM "file://{secret}">]>\n'
    body = (
        '<EVAL ID="1"><PEER-ROOT>&e;</PEER-ROOT><MODEL-ROOT>x&e;</MODEL-ROOT>'
        '<PEERS><P ID="A">&e;</P></PEERS><MODELS><M ID="M">&e;</M></MODELS></EVAL>'
    )
    try:
        config = xml(tmp_path, body, doctype)
    except ConfigError as exc:
        assert "TOP-SECRET" not in str(exc)
        return
    seen = repr([vars(e) for e in config.evals])
    assert "TOP-SECRET" not in seen


def test_etc_passwd_is_not_read(tmp_path: Path) -> None:
    doctype = '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n'
    try:
        config = xml(tmp_path, '<EVAL ID="1"><PEERS><P ID="A">&e;</P></PEERS></EVAL>', doctype)
    except ConfigError as exc:
        assert "root:" not in str(exc)
        return
    assert "root:" not in repr([vars(e) for e in config.evals])


# ---------------------------------------------------------------------------
# Plain configurations, read without the XML parser
# ---------------------------------------------------------------------------

_SPACES = ["", " ", "\n", "\t", "\n  ", " \n\t"]


def _plain_config(rng: random.Random) -> str:
    """A random configuration in the plain shape: leaves in any order, some repeated or missing,
    empty or blank texts, eval IDs that repeat, optional declaration and version."""

    def ws() -> str:
        return rng.choice(_SPACES)

    def text() -> str:
        return rng.choice(["", " ", "x", f"{ws()}d{rng.randint(0, 9)}/a b.html{ws()}", "a>b", "1"])

    def value() -> str:
        return rng.choice(["", "1", "A", "x y", "a>b", "'q'", f"D{rng.randint(0, 3)}"])

    def leaf() -> str:
        kind = rng.choice(["PEER-ROOT", "MODEL-ROOT", "INPUT-FORMAT", "PEERS", "MODELS"])
        if kind == "INPUT-FORMAT":
            fmt = rng.choice(["SEE", "spl", "SPL", "Simple", "ISI", "BAD", ""])
            end = rng.choice(["/>", "></INPUT-FORMAT>", f">{text()}</INPUT-FORMAT>"])
            return f'<INPUT-FORMAT{rng.choice([" ", chr(10)])}TYPE{ws()}={ws()}"{fmt}"{ws()}{end}'
        if kind in ("PEERS", "MODELS"):
            tag = kind[0]
            items = "".join(
                f'{ws()}<{tag} ID{ws()}={ws()}"{value()}"{ws()}>{text()}</{tag}>'
                for _ in range(rng.randint(0, 3))
            )
            return f"<{kind}>{items}{ws()}</{kind}>"
        return f"<{kind}>{text()}</{kind}>"

    usual = ["PEER-ROOT", "MODEL-ROOT", "INPUT-FORMAT", "PEERS", "MODELS"]
    evals = []
    for _ in range(rng.randint(0, 4)):
        if rng.random() < 0.5:  # the usual order, each leaf once
            leaves = [
                f"<PEER-ROOT>{text()}</PEER-ROOT>",
                f"<MODEL-ROOT>{text()}</MODEL-ROOT>",
                f'<INPUT-FORMAT TYPE="{rng.choice(["SPL", "SEE", "spl", "BAD"])}">{ws()}</INPUT-FORMAT>',
                f'<PEERS>{ws()}<P ID="{value()}">{text()}</P>{ws()}</PEERS>',
                f'<MODELS>{ws()}<M ID="{value()}">{text()}</M>{ws()}</MODELS>',
            ]
            assert len(leaves) == len(usual)
        else:
            leaves = [leaf() for _ in range(rng.randint(0, 6))]
        body = "".join(ws() + x for x in leaves)
        evals.append(f'{ws()}<EVAL ID{ws()}={ws()}"{value()}"{ws()}>{body}{ws()}</EVAL>')
    declaration = rng.choice(
        [
            "",
            '<?xml version="1.0"?>\n',
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<?xml version="1.0" encoding="iso-8859-1" ?>\n',
            '<?xml version="1.0" encoding="UTF-16"?>',
            '<?xml version="1.0" standalone="yes" ?>',
        ]
    )
    version = rng.choice(["", ' version="1.0"', ' version = "2"'])
    return f"{declaration}{ws()}<ROUGE-EVAL{version}{ws()}>{''.join(evals)}{ws()}</ROUGE-EVAL>{ws()}"


_MUTATIONS = [
    "&",
    "&amp;",
    "&#65;",
    "<",
    ">",
    '"',
    "'",
    "\r",
    "\x01",
    "\x7f",
    "\xe9",
    "]]>",
    "<!-- c -->",
    "/",
    "x",
    " ",
    "\t",
    "<eval>",
    "</P>",
    "<P ID='1'>",
    "=",
    "<?pi?>",
    "\x0b",
]


def _outcome(path: Path) -> Any:
    """What reading the file gives: its evals and peer IDs, or its error's class and line."""
    try:
        evals, peer_ids = read_xml_evals(str(path))
    except ConfigError as error:
        return type(error).__name__, str(error)
    return [vars(e) if hasattr(e, "__dict__") else repr(e) for e in evals], sorted(peer_ids)


def test_plain_configurations_read_as_the_parser_reads_them(tmp_path: Path, monkeypatch: Any) -> None:
    """Random plain files, and each with a random change (which may make it another shape, or
    invalid): the same evals, peer IDs or error as the XML parser's walk gives; the plain files
    are read without the parser."""
    from rouge155py.inputs import config

    plain_walk = config._plain_walk
    taken = []

    def counted(path: str, data: bytes) -> Any:
        found = plain_walk(path, data)
        taken.append(found is not None)
        return found

    rng = random.Random(23)
    path = tmp_path / "config.xml"
    plain = 0
    for case in range(300):
        document = _plain_config(rng)
        variants = [document]
        for _ in range(3):
            at = rng.randrange(len(document) + 1)
            if rng.random() < 0.2:
                variants.append(document[:at] + document[at + 1 :])
            else:
                variants.append(document[:at] + rng.choice(_MUTATIONS) + document[at:])
        for k, variant in enumerate(variants):
            path.write_bytes(variant.encode("latin-1"))
            monkeypatch.setattr(config, "_plain_walk", counted)
            taken.clear()
            fast = _outcome(path)
            monkeypatch.setattr(config, "_plain_walk", lambda path, data: None)
            assert _outcome(path) == fast, (case, k, variant)
            types = re.findall(r'TYPE\s*=\s*"([^"]*)"', variant)
            known = all(t.upper() in ("SEE", "SPL", "ISI", "SIMPLE") for t in types)
            if k == 0 and known and "UTF-16" not in variant:
                assert taken == [True], variant
                plain += 1
    assert plain > 150


def test_a_text_longer_than_the_parser_reads_is_refused_as_it_refuses(tmp_path: Path) -> None:
    path = tmp_path / "config.xml"
    for size, refused in ((9_999_990, False), (10_000_001, True)):
        path.write_text(
            f'<ROUGE-EVAL>\n<EVAL ID="1"><PEER-ROOT>{"x" * size}</PEER-ROOT></EVAL>\n</ROUGE-EVAL>\n'
        )
        if refused:
            with pytest.raises(LimitError, match="Text node too long"):
                read_xml_evals(str(path))
        else:
            assert read_xml_evals(str(path))[0][0].peer_root == "x" * size


def test_the_run_check_is_its_definition_on_random_texts() -> None:
    """The check for a run the parser refuses, without splitting the file: the longest piece
    between two marks, as ``max(map(len, text.split(mark)))`` defines it."""
    from rouge155py.inputs.config import _longest_run_over

    rng = random.Random(11)
    for _ in range(5000):
        chance = rng.random()
        text = "".join("<" if rng.random() < chance else "a" for _ in range(rng.randint(0, 80)))
        limit = rng.randint(1, 30)
        assert _longest_run_over(text, "<", limit) == (max(map(len, text.split("<"))) > limit), (text, limit)


def test_a_large_plain_configuration_is_read_without_the_parser(tmp_path: Path, monkeypatch: Any) -> None:
    from rouge155py.inputs import config

    monkeypatch.setattr(config, "_xml_events", None)  # calling the parser would fail
    path = tmp_path / "config.xml"
    evals = "".join(
        f'<EVAL ID="D{k}">\n<PEER-ROOT>peers</PEER-ROOT>\n<MODEL-ROOT>models</MODEL-ROOT>\n'
        f'<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>\n<PEERS>\n<P ID="1">D{k}.P.1.spl</P>\n</PEERS>\n'
        f'<MODELS>\n<M ID="A">D{k}.M.A.spl</M>\n<M ID="B">D{k}.M.B.spl</M>\n</MODELS>\n</EVAL>\n'
        for k in range(2000)
    )
    path.write_text(f'<ROUGE-EVAL version="1.0">\n{evals}</ROUGE-EVAL>\n')
    found = read_xml_config(str(path))
    assert len(found.evals) == 2000 and found.peer_ids == {"1"}
    assert found.evals[7].models == [
        SummaryFile("models/D7.M.A.spl", "SPL"),
        SummaryFile("models/D7.M.B.spl", "SPL"),
    ]


# ---------------------------------------------------------------------------
# -z file lists
# ---------------------------------------------------------------------------


def file_list(tmp_path: Path, data: bytes, fmt: str = "SPL", peer: str = "X") -> EvalConfig:
    path = tmp_path / "list.txt"
    path.write_bytes(data)
    return read_file_list(str(path), fmt, peer)


def test_file_list(tmp_path: Path) -> None:
    data = b"# a comment\n\npeer1.txt model1a.txt model1b.txt\n  \t \r\n\tpeer2.txt   model2.txt \r\n"
    config = file_list(tmp_path, data, "SEE", "sys")
    assert config.peer_ids == {"sys"}
    assert [e.eval_id for e in config.evals] == ["1", "2"]
    first, second = config.evals
    assert first.peers == {"sys": SummaryFile("peer1.txt", "SEE")}
    assert first.models == [SummaryFile("model1a.txt", "SEE"), SummaryFile("model1b.txt", "SEE")]
    # Paths are used as they are: no root is put in front.
    assert peer_path(first, "sys") == "peer1.txt"
    assert model_paths(first) == ["model1a.txt", "model1b.txt"]
    assert peer_path(second, "sys") == "peer2.txt"
    assert model_paths(second) == ["model2.txt"]


def test_comment_only_at_line_start(tmp_path: Path) -> None:
    # /^\#/: a "#" after a space is part of a file name.
    config = file_list(tmp_path, b" #p m\n#x y\n")
    assert peer_path(one_eval(config), "X") == "#p"


def test_line_with_one_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        file_list(tmp_path, b"peer.txt model.txt\nlonely.txt\n")


def test_empty_file_list(tmp_path: Path) -> None:
    config = file_list(tmp_path, b"# nothing\n\n")
    assert config.evals == []
    assert config.peer_ids == {"X"}


def test_file_list_without_final_newline(tmp_path: Path) -> None:
    assert model_paths(one_eval(file_list(tmp_path, b"p m"))) == ["m"]


def test_missing_file_list(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        read_file_list(str(tmp_path / "absent"), "SPL", "X")
