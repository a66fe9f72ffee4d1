"""The catalogue of hostile inputs: XML configurations, files, option values.

Each case is a command line (without ``-e``) run in a fresh directory holding
its files. It expects either the Perl's bytes (``PERL``: exit 0, the same
stdout as ROUGE-1.5.5.pl, compared live where the Perl is installed, else with
``perl_archive.json``), a refusal (one ``rouge155py: error:`` line matching a
pattern, with a documented exit code), or both (``Partial``: the part of its
report the Perl prints before it dies, then the error line). ``perl`` says what ROUGE-1.5.5.pl does
with the case (checked by ``archive.py`` when it rewrites the archive):
``same`` (the same bytes), ``dies``, ``hangs`` (no end within 20 s) or
``succeeds`` (a deliberate refusal, docs/errors.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

__all__ = ["CASES", "PERL", "Case", "Fifo", "Partial", "Refused", "Symlink"]


@dataclass(frozen=True)
class Refused:
    """One error line matching ``pattern`` (a regular expression), and this exit code."""

    exit_code: int
    pattern: str


PERL = "perl"  # the Perl's stdout bytes, exit 0


@dataclass(frozen=True)
class Partial:
    """Where the Perl prints part of its report, then dies: the same bytes on stdout (flushed
    first), then one error line matching ``pattern`` and this exit code."""

    exit_code: int
    pattern: str


@dataclass(frozen=True)
class Fifo:
    """A named pipe that no process writes to."""


@dataclass(frozen=True)
class Symlink:
    """A symbolic link to ``target``."""

    target: str


@dataclass(frozen=True)
class Directory:
    """An empty directory."""


Content = Union[bytes, Fifo, Symlink, Directory]


@dataclass(frozen=True)
class Case:
    name: str
    category: str
    args: tuple[str, ...]
    files: dict[str, Content] = field(default_factory=dict)
    expect: Union[str, Refused, Partial] = PERL
    perl: str = "same"
    data: bool = True  # run with -e DATA first
    why: str = ""
    not_perl: tuple[str, ...] = ()  # arguments of rouge155py alone, left out of the Perl's command


# --------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------

PEER = b"The cat sat on the mat.\nIt was a happy cat, sitting there all day.\n"
MODEL_A = b"A cat sat on a mat.\nThe cat was happy all day long.\n"
MODEL_B = b"The cat is on the mat.\nHappy cats sit on mats.\n"
SUMS = {"sums/peer.spl": PEER, "sums/a.spl": MODEL_A, "sums/b.spl": MODEL_B}
OPTIONS = ("-a", "-n", "2", "-w", "1.2", "-2", "4", "-U", "-r", "100")
NO_W = ("-a", "-n", "2", "-2", "4", "-U", "-r", "100")  # ROUGE-W divides by zero on an empty model


def eval_xml(
    peer: str = "peer.spl",
    models: tuple[str, ...] = ("a.spl", "b.spl"),
    eval_id: str = 'ID="1"',
    fmt: str = '<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>',
    roots: str = "<PEER-ROOT>sums</PEER-ROOT><MODEL-ROOT>sums</MODEL-ROOT>",
    peers: Optional[str] = None,
    model_list: Optional[str] = None,
) -> str:
    peers = peers if peers is not None else f'<PEERS><P ID="1">{peer}</P></PEERS>'
    if model_list is None:
        model_list = (
            "<MODELS>" + "".join(f'<M ID="{"AB"[i]}">{m}</M>' for i, m in enumerate(models)) + "</MODELS>"
        )
    return f"<EVAL {eval_id}>\n{roots}\n{fmt}\n{peers}\n{model_list}\n</EVAL>\n"


def config(body: Optional[str] = None, head: str = "", root: str = "ROUGE-EVAL", **kwargs: str) -> bytes:
    body = body if body is not None else eval_xml(**kwargs)  # type: ignore[arg-type]
    return f'{head}<{root} version="1.0">\n{body}</{root}>\n'.encode()


def with_config(data: bytes, **files: Content) -> dict[str, Content]:
    return {**SUMS, "config.xml": data, **files}


def xml_case(name: str, data: bytes, expect: Union[str, Refused] = PERL, perl: str = "same", **kw) -> Case:
    extra = kw.pop("files", {})
    return Case(name, "xml", (*OPTIONS, "config.xml"), with_config(data, **extra), expect, perl, **kw)


def _bomb() -> str:
    entities = ['<!ENTITY a "aaaaaaaaaa">']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        entities.append(f'<!ENTITY {name} "{("&" + prev + ";") * 10}">')
    return f"<!DOCTYPE r [{''.join(entities)}]>"


def _utf16(data: bytes, declare: bool) -> bytes:
    text = data.decode()
    if declare:
        text = '<?xml version="1.0" encoding="UTF-16"?>\n' + text
    return text.encode("utf-16")


# --------------------------------------------------------------------------
# XML
# --------------------------------------------------------------------------

EXTERNAL = r"external entity 'x' \(.*\) refused"
XML_CASES = [
    xml_case(
        "external-entity-file",
        config(head='<!DOCTYPE r [<!ENTITY x SYSTEM "secret.txt">]>', peer="&x;"),
        Refused(3, EXTERNAL),
        "succeeds",
        files={"secret.txt": b"peer.spl"},
        why="a configuration may not make rouge155py read other files",
    ),
    xml_case(
        "external-entity-file-url",
        config(head='<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/hostname">]>', peer="&x;"),
        Refused(3, EXTERNAL),
        "dies",
    ),
    xml_case(
        "external-entity-network",
        config(head='<!DOCTYPE r [<!ENTITY x SYSTEM "http://127.0.0.1:9/x">]>', peer="&x;"),
        Refused(3, EXTERNAL),
        "dies",
    ),
    xml_case(
        "parameter-entity-external",
        config(head='<!DOCTYPE r [<!ENTITY % p SYSTEM "secret.dtd"> %p;]>'),
        Refused(3, r"external entity 'p' \(secret.dtd\) refused"),
        "succeeds",
        files={"secret.dtd": b'<!ENTITY x "peer.spl">'},
        why="a configuration may not make rouge155py read other files",
    ),
    xml_case(
        "parameter-entity-internal",
        config(head="<!DOCTYPE r [<!ENTITY % p \"<!ENTITY x 'peer.spl'>\"> %p;]>", peer="&x;"),
        Refused(3, r"parameter entity 'p' refused"),
        "succeeds",
        why="parameter entities are not expanded",
    ),
    xml_case("external-dtd", config(head='<!DOCTYPE r SYSTEM "missing.dtd">')),
    xml_case("external-dtd-network", config(head='<!DOCTYPE r SYSTEM "http://127.0.0.1:9/r.dtd">')),
    xml_case("internal-entity", config(head='<!DOCTYPE r [<!ENTITY x "peer.spl">]>', peer="&x;")),
    xml_case(
        "xinclude",
        config(
            peers='<PEERS><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="secret.txt" '
            'parse="text"/><P ID="1">peer.spl</P></PEERS>'
        ),
        files={"secret.txt": b"a.spl"},
    ),
    xml_case(
        "entity-bomb", config(head=_bomb(), peer="&i;"), Refused(7, "refused: .*amplification"), "hangs"
    ),
    xml_case(
        "entity-expansion-long-name",
        config(head=_bomb().split("<!ENTITY d")[0] + "]>", peer="&c;"),
        Refused(4, "File name too long"),
        "dies",
    ),
    xml_case("nesting-100", config(body="<X>" * 100 + eval_xml() + "</X>" * 100)),
    xml_case(
        "nesting-5000",
        config(body="<X>" * 5000 + eval_xml() + "</X>" * 5000),
        Refused(7, "refused: Excessive depth"),
        "succeeds",
        why="libxml2 nests 256 elements at most",
    ),
    xml_case(
        "huge-attribute",
        config(body=eval_xml(eval_id='ID="1" junk="' + "x" * 11_000_000 + '"')),
        Refused(7, "refused: .*limit"),
        "succeeds",
        why="libxml2 reads 10 MB of text or attribute at most",
    ),
    xml_case("long-peer-id", config(peers=f'<PEERS><P ID="{"p" * 100_000}">peer.spl</P></PEERS>')),
    xml_case("byte-order-mark", b"\xef\xbb\xbf" + config()),
    xml_case("utf16-declared", _utf16(config(), declare=True)),
    xml_case("utf16-bom-only", _utf16(config(), declare=False)),
    xml_case(
        "latin1-name",
        b'<?xml version="1.0" encoding="ISO-8859-1"?>\n'
        + config(peer="p\xe9er.spl").decode().encode("latin-1"),
        Refused(4, "Cannot open sums/p\u00e9er.spl"),
        "dies",
    ),
    xml_case("truncated", config()[:60], Refused(3, "invalid XML"), "dies"),
    xml_case("empty", b"", Refused(3, "invalid XML: Document is empty"), "dies"),
    xml_case("binary-config", bytes(range(256)) * 8, Refused(3, "invalid XML"), "dies"),
    xml_case("nul-byte", config().replace(b"peer.spl", b"pe\x00er.spl"), Refused(3, "invalid XML"), "dies"),
    xml_case("wrong-root", config(root="HTML")),
    xml_case("duplicate-eval-ids", config(body=eval_xml() + eval_xml(peer="b.spl"))),
    xml_case(
        "duplicate-model-ids", config(model_list='<MODELS><M ID="A">a.spl</M><M ID="A">b.spl</M></MODELS>')
    ),
    xml_case("duplicate-peer-ids", config(peers='<PEERS><P ID="1">peer.spl</P><P ID="1">b.spl</P></PEERS>')),
    xml_case("no-models", config(model_list="")),
    xml_case("no-peers", config(peers="")),
    xml_case("no-evals", config(body="")),
    xml_case(
        "eval-without-id", config(eval_id=""), Refused(3, "<EVAL> on line 2 has no ID attribute"), "dies"
    ),
    xml_case("no-input-format", config(fmt=""), Refused(4, "Unknown input format"), "dies"),
    xml_case("no-roots", config(roots=""), Refused(4, "Cannot find model summary: /a.spl"), "dies"),
    xml_case("peer-outside-eval", config(body='<P ID="1">peer.spl</P>\n' + eval_xml())),
    xml_case("model-outside-eval", config(body=eval_xml() + '<M ID="Z">a.spl</M>\n')),
    xml_case("model-before-any-eval", config(body='<M ID="Z">b.spl</M>\n' + eval_xml())),
    xml_case("empty-models", config(model_list="<MODELS></MODELS>")),
    Case(
        "be-empty-models-spl",
        "xml",
        ("-a", "-3", "H", "config.xml"),
        with_config(config(model_list="<MODELS></MODELS>")),
        Refused(4, "Unknown input format 'SPL' for BE file sums/peer.spl"),
        "dies",
        why="the Perl reads the peer's Basic Elements before any model",
    ),
    *(
        Case(
            f"simple-input{'-be' if be else ''}-with-rouge-1",
            "xml",
            ("-a", *(("-3", "H") if be else ()), "-n", "1", "config.xml"),
            with_config(
                config(peer="p.be", models=("a.be",), fmt='<INPUT-FORMAT TYPE="SIMPLE"></INPUT-FORMAT>'),
                **{"sums/p.be": b"cat|sat|subj\ncat|nil|nil\n", "sums/a.be": b"cat|nil|nil\n"},
            ),
            Refused(4, "Unknown input format 'SIMPLE' for sums/p.be"),
            "dies",
            why="ROUGE-N reads text, and SIMPLE is a Basic Element format",
        )
        for be in (False, True)
    ),
    xml_case("cdata-name", config(peer="<![CDATA[peer.spl]]>")),
    xml_case(
        "comment-in-name", config(peer="peer<!-- x -->.spl"), Refused(4, "Cannot open sums/.spl"), "dies"
    ),
    xml_case("processing-instruction", config(head='<?xml-stylesheet href="http://127.0.0.1:9/x"?>\n')),
    xml_case("undefined-entity", config(peer="&nope;"), Refused(3, "Entity 'nope' not defined"), "dies"),
    xml_case("character-reference", config(peer="peer&#46;spl")),
    Case(
        "config-is-directory",
        "xml",
        (*OPTIONS, "config.xml"),
        {**SUMS, "config.xml": Directory()},
        Refused(3, "cannot open configuration file config.xml: Is a directory"),
        "dies",
    ),
    Case(
        "config-fifo-without-writer",
        "xml",
        (*OPTIONS, "config.xml"),
        {**SUMS, "config.xml": Fifo()},
        Refused(3, "config.xml: a FIFO that no process is writing to"),
        "hangs",
    ),
    Case(
        "config-dev-zero",
        "xml",
        (*OPTIONS, "config.xml"),
        {**SUMS, "config.xml": Symlink("/dev/zero")},
        Refused(7, "config.xml is larger than 256 MiB: refused"),
        "dies",
    ),
]


# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------


def file_case(
    name: str, expect: Union[str, Refused] = PERL, perl: str = "same", peer: str = "peer.spl", **kw
) -> Case:
    files = kw.pop("files", {})
    models = kw.pop("models", ("a.spl", "b.spl"))
    args = kw.pop("args", OPTIONS)
    fmt = kw.pop("fmt", "SPL")
    xml = config(peer=peer, models=models, fmt=f'<INPUT-FORMAT TYPE="{fmt}"></INPUT-FORMAT>')
    return Case(name, "files", (*args, "config.xml"), with_config(xml, **files), expect, perl, **kw)


SEE = (
    b'<html>\r\n<a name="1">[1]</a> <a href="#1" id=1>The cat sat on the mat.</a>\r\n'
    b'<a name="2">[2]</a> <a href="#2" id=2>It was happy.</a>\r\n</html>\r\n'
)
FILE_CASES = [
    file_case("peer-missing", Refused(4, "Cannot open sums/nope.spl: No such file"), "dies", peer="nope.spl"),
    file_case(
        "model-missing", Refused(4, "Cannot find model summary: sums/nope.spl"), "dies", models=("nope.spl",)
    ),
    file_case("peer-is-directory", peer="dir", files={"sums/dir": Directory()}),
    file_case("model-is-directory", models=("dir", "a.spl"), files={"sums/dir": Directory()}, args=NO_W),
    file_case(
        "peer-fifo-without-writer",
        Refused(4, "Cannot open sums/fifo: a FIFO that no process is writing to"),
        "hangs",
        peer="fifo",
        files={"sums/fifo": Fifo()},
    ),
    file_case(
        "peer-symlink-loop",
        Refused(4, "Cannot open sums/loop: Too many levels of symbolic links"),
        "dies",
        peer="loop",
        files={"sums/loop": Symlink("loop")},
    ),
    file_case(
        "model-symlink-loop",
        Refused(4, "Cannot find model summary: sums/loop"),
        "dies",
        models=("loop",),
        files={"sums/loop": Symlink("loop")},
    ),
    file_case(
        "peer-dev-zero",
        Refused(7, "sums/zero is larger than 64 MiB: refused"),
        "hangs",
        peer="zero",
        files={"sums/zero": Symlink("/dev/zero")},
    ),
    file_case(
        "peer-read-error",
        Refused(4, "Cannot read sums/mem: Input/output error"),
        "succeeds",
        peer="mem",
        files={"sums/mem": Symlink("/proc/self/mem")},
        why="a read error is not an empty file",
    ),
    file_case("peer-dev-null", peer="null", files={"sums/null": Symlink("/dev/null")}),
    file_case("peer-empty", peer="empty.spl", files={"sums/empty.spl": b""}),
    file_case("model-empty", models=("empty.spl", "a.spl"), files={"sums/empty.spl": b""}, args=NO_W),
    file_case(
        "model-empty-rouge-w",
        Partial(6, "ROUGE-W: model summary sums/empty.spl has no tokens"),
        "dies",
        models=("empty.spl",),
        files={"sums/empty.spl": b""},
    ),
    file_case(
        "nul-bytes", peer="nul.spl", files={"sums/nul.spl": b"the c\x00at sat\x00\non the mat\n\x00\x00\n"}
    ),
    file_case(
        "invalid-utf8", peer="bad.spl", files={"sums/bad.spl": b"the \xff\xfe cat s\xc3t on\x80 the mat\n"}
    ),
    file_case(
        "latin1",
        peer="l1.spl",
        files={"sums/l1.spl": "the caf\xe9 cat sat on the m\xe2t\n".encode("latin-1")},
    ),
    file_case("utf16", peer="u16.spl", files={"sums/u16.spl": PEER.decode().encode("utf-16")}),
    file_case("crlf-spl", peer="crlf.spl", files={"sums/crlf.spl": PEER.replace(b"\n", b"\r\n")}),
    file_case("crlf-see", peer="crlf.html", models=("crlf.html",), fmt="SEE", files={"sums/crlf.html": SEE}),
    file_case("binary-summary", peer="bin.spl", files={"sums/bin.spl": bytes(range(256)) * 40}),
    file_case("name-with-spaces", peer="my peer.spl", files={"sums/my peer.spl": PEER}),
    file_case("name-with-newline", peer="my\npeer.spl", files={"sums/my\npeer.spl": PEER}),
    file_case(
        "name-with-newline-missing",
        Refused(4, r"Cannot open sums/my\\x0apeer.spl: No such file"),
        "dies",
        peer="my\npeer.spl",
    ),
    file_case("name-non-ascii", peer="p\u00e9er\u4e2d.spl", files={"sums/p\u00e9er\u4e2d.spl": PEER}),
    file_case(
        "name-non-ascii-missing",
        Refused(4, "Cannot open sums/p\u00e9\u4e2d.spl"),
        "dies",
        peer="p\u00e9\u4e2d.spl",
    ),
    file_case("long-sentence", peer="long.spl", files={"sums/long.spl": b"the cat sat " * 3000 + b"\n"}),
]


def list_case(
    name: str, listing: bytes, expect: Union[str, Refused] = PERL, perl: str = "same", **kw
) -> Case:
    files = {**SUMS, "list.txt": listing, **kw.pop("files", {})}
    return Case(name, "files", ("-r", "100", "-n", "2", "-z", "SPL", "list.txt"), files, expect, perl, **kw)


LIST_CASES = [
    Case(
        "list-missing",
        "files",
        ("-z", "SPL", "list.txt"),
        dict(SUMS),
        Refused(3, "cannot open file list"),
        "dies",
    ),
    list_case("list-empty", b""),
    list_case("list-comments-only", b"# a comment\n\n   \n"),
    list_case(
        "list-one-file-line", b"sums/peer.spl\n", Refused(3, "needs a peer and at least one model"), "dies"
    ),
    list_case("list-crlf", b"sums/peer.spl sums/a.spl\r\nsums/b.spl sums/a.spl\r\n"),
    list_case("list-tabs-and-spaces", b"  sums/peer.spl\t sums/a.spl \t\n"),
    list_case("list-latin1-name", b"sums/p\xe9er.spl sums/a.spl\n", files={"sums/p\xe9er.spl": PEER}),
    list_case("list-nul-in-name", b"sums/peer.spl\x00x sums/a.spl\n", Refused(4, "holds a NUL byte"), "dies"),
]
for case in LIST_CASES:
    if case.name == "list-latin1-name":  # a file name that is not UTF-8: write it as bytes
        case.files.pop("sums/p\xe9er.spl")
        case.files[b"sums/p\xe9er.spl".decode("utf-8", "surrogateescape")] = PEER


# --------------------------------------------------------------------------
# IDs that are not ASCII: characters in the XML, bytes on the command line
# --------------------------------------------------------------------------


def id_case(name: str, eval_id: str, peer_id: str, *system: str, **kw) -> Case:
    """An eval and a peer with these IDs (as written in the XML), ``-d`` lines printing both."""
    xml = config(eval_id=f'ID="{eval_id}"', peers=f'<PEERS><P ID="{peer_id}">peer.spl</P></PEERS>')
    args = ("-n", "2", "-w", "1.2", "-d", "-r", "100", *(() if system else ("-a",)), "config.xml", *system)
    return Case(name, "ids", args, with_config(xml), PERL, "same", **kw)


ID_CASES = [
    id_case("id-latin1-eval", "é", "1", why="a character below U+0100 is printed as one byte"),
    id_case("id-latin1-peer", "1", "é"),
    id_case("id-latin1-reference", "&#233;", "1"),
    id_case("id-wide-eval", "Ω", "1", why="the Perl prints a wider character in UTF-8"),
    id_case("id-wide-peer", "1", "Ω"),
    id_case("id-wide-peer-latin1-eval", "é", "Ω", why="a line with a wide character is UTF-8 whole"),
    id_case("id-system-bytes-not-xml-characters", "1", "é", "é", why="UTF-8 bytes are not the character é"),
    id_case("id-system-bytes-equal-xml-latin1", "1", "Ã©", "é"),
    id_case("id-system-wide", "1", "Ω", "Ω"),
    id_case(
        "id-markup-peer",
        "=1|&lt;b&gt;",
        "a|b &lt;i&gt;**x**&#10;=HYPERLINK(1) 50% $x^2$ {a_b}",
        why="the legacy report prints IDs raw, as the Perl: markup and formulas are escaped elsewhere",
    ),
    Case(
        "id-file-list-system-bytes",
        "ids",
        ("-n", "1", "-d", "-r", "100", "-z", "SPL", "list.txt", "é"),
        {**SUMS, "list.txt": b"sums/peer.spl sums/a.spl\n"},
    ),
]


# --------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------

VALUED = "bcefjlnprtwz23"


def option_case(
    name: str, args: tuple[str, ...], expect: Union[str, Refused] = PERL, perl: str = "same", **kw
) -> Case:
    return Case(name, "options", (*args, "config.xml"), with_config(config()), expect, perl, **kw)


NOT_FINITE = "needs a finite number"
OWN = "long options and -j are rouge155py's: the Perl warns of an unknown option"
OPTION_CASES = [
    # every valued option given as the last argument, without its value: the Perl prints its usage
    *(
        Case(
            f"-{o}-without-value",
            "options",
            ("-a", "config.xml", f"-{o}") if o == "z" else ("-a", f"-{o}"),
            with_config(config()),
            Refused(2, "Please specify the ROUGE configuration file") if o != "z" else PERL,
            "dies" if o != "z" else "same",
        )
        for o in VALUED
    ),
    option_case("-n-zero", ("-a", "-n", "0", "-r", "50")),
    option_case("-r-zero", ("-a", "-r", "0"), Refused(6, "resamples .* must be positive"), "dies"),
    option_case("-w-zero", ("-a", "-w", "0"), Refused(2, "weight factor must be greater than 0"), "dies"),
    option_case("-c-zero", ("-a", "-c", "0", "-r", "50")),
    option_case("-l-zero", ("-a", "-l", "0", "-r", "50")),
    option_case("-p-zero", ("-a", "-p", "0", "-r", "50")),
    option_case("-2-zero", ("-a", "-2", "0", "-r", "50")),
    option_case("-j-zero", ("-a", "-j", "0"), Refused(2, "number of jobs"), "dies"),
    option_case("-n-negative", ("-a", "-n", "-1", "-r", "50")),
    option_case("-r-negative", ("-a", "-r", "-5"), Refused(6, "resamples .* must be positive"), "dies"),
    option_case(
        "-w-negative", ("-a", "-w", "-1"), Refused(2, "weight factor must be greater than 0"), "dies"
    ),
    option_case("-c-negative", ("-a", "-c", "-1"), Refused(2, "Confidence interval"), "dies"),
    option_case("-p-negative", ("-a", "-p", "-0.1"), Refused(2, "option -p"), "dies"),
    option_case("-l-negative", ("-a", "-l", "-1", "-n", "2", "-r", "50")),
    option_case("-b-negative", ("-a", "-b", "-3", "-n", "2", "-r", "50")),
    option_case("-2-negative", ("-a", "-2", "-5", "-U", "-r", "50")),
    option_case("-j-negative", ("-a", "-j", "-1"), Refused(2, "number of jobs"), "succeeds", why=OWN),
    option_case("-n-huge", ("-a", "-n", "1e9"), Refused(7, "-n 1000000000: more than 100"), "hangs"),
    option_case(
        "-r-huge", ("-a", "-r", "1e12"), Refused(7, "resamples .* more than 10000000 are refused"), "hangs"
    ),
    option_case("-l-huge", ("-a", "-l", "1e9", "-n", "2", "-r", "50")),
    option_case("-b-huge", ("-a", "-b", "1e12", "-n", "2", "-r", "50")),
    option_case("-2-huge", ("-a", "-2", "1e9", "-U", "-r", "50")),
    option_case("-2-beyond-int64", ("-a", "-2", "1e19", "-U", "-r", "50")),  # no limit, as -2 -1
    option_case("-c-over-100", ("-a", "-c", "101"), Refused(2, "Confidence interval"), "dies"),
    option_case("-p-over-1", ("-a", "-p", "1.5"), Refused(2, "option -p"), "dies"),
    option_case("-w-overflowing", ("-a", "-w", "500"), why="powers past a double: Inf and NaN, as the Perl"),
    option_case("-j-huge", ("-a", "-j", "100000", "-r", "50"), not_perl=("-j", "100000")),
    option_case("-n-not-a-number", ("-a", "-n", "abc", "-r", "50")),
    option_case("-c-not-a-number", ("-a", "-c", "abc", "-r", "50")),
    option_case("-l-not-a-number", ("-a", "-l", "abc", "-r", "50")),
    option_case("-t-not-a-number", ("-a", "-t", "abc", "-r", "50")),
    option_case("-r-not-a-number", ("-a", "-r", "abc"), Refused(6, "resamples .* must be positive"), "dies"),
    option_case("-w-not-a-number", ("-a", "-w", "abc"), Refused(2, "weight factor"), "dies"),
    option_case("-j-not-a-number", ("-a", "-j", "abc"), Refused(2, "number of jobs"), "dies"),
    option_case("-n-nan", ("-a", "-n", "nan"), Refused(2, NOT_FINITE), "succeeds", why="NaN is not a size"),
    option_case("-c-nan", ("-a", "-c", "nan"), Refused(2, NOT_FINITE), "succeeds", why="NaN is not a level"),
    option_case("-r-inf", ("-a", "-r", "inf"), Refused(2, NOT_FINITE), "hangs"),
    option_case("-w-inf", ("-a", "-w", "inf"), Refused(2, NOT_FINITE), "succeeds", why="the Perl prints NaN"),
    option_case("-l-inf", ("-a", "-l", "inf"), Refused(2, NOT_FINITE), "succeeds", why="no limit is -l 0"),
    option_case("-p-nan", ("-a", "-p", "nan"), Refused(2, NOT_FINITE), "succeeds", why="NaN is not a weight"),
    option_case("unknown-option", ("-a", "-q", "-r", "50")),
    option_case(
        "unknown-long-option", ("-a", "--bogus"), Refused(2, "unknown option --bogus"), "succeeds", why=OWN
    ),
    option_case("-f-unknown-letter", ("-a", "-f", "X", "-r", "50")),
    option_case(
        "-3-unknown-mode", ("-a", "-3", "X"), Refused(4, "Unknown input format 'SPL' for BE file"), "dies"
    ),
    option_case("-z-unknown-format", ("-z", "X"), Refused(3, "needs a peer and at least one model"), "dies"),
    option_case("-l-and-b", ("-a", "-l", "5", "-b", "5"), Refused(2, "not both"), "dies"),
    option_case("-m-and-M", ("-a", "-m", "-M", "-r", "50")),
    option_case("-u-and-U", ("-a", "-u", "-U", "-2", "4", "-r", "50")),
    option_case("-t-twice", ("-a", "-t", "1", "-t", "2")),
    option_case(
        "-x-and-3",
        ("-a", "-x", "-3", "HM", "-r", "50"),
        Refused(4, "Unknown input format 'SPL' for BE file"),
        "dies",
    ),
    Case("-a-and-system-id", "options", ("-a", "-r", "50", "config.xml", "1"), with_config(config())),
    Case("unknown-system-id", "options", ("-r", "50", "config.xml", "zz"), with_config(config())),
    option_case(
        "hyp-with-config",
        ("--hyp", "sums/peer.spl", "--ref", "sums/a.spl"),
        Refused(2, "replace the configuration"),
        "dies",
    ),
    Case(
        "-e-missing-directory",
        "options",
        ("-a", "-e", "missing", "config.xml"),
        with_config(config()),
        Refused(5, "cannot open stopword list missing/smart_common_words.txt"),
        "dies",
        data=False,
    ),
]


# --------------------------------------------------------------------------
# ROUGE-W where a power overflows a double (-w below about 0.006, or large): the Perl goes on
# with Inf and NaN and prints them (sprintf's "Inf", "NaN"), rouge155py the same bytes
# --------------------------------------------------------------------------

BAND_TEXTS = {
    "sums/m1_1.spl": b"all was happy from dog from .\n",
    "sums/m1_2.spl": b"dog day a happy a ran .\n",
    "sums/m1_3.spl": b"on it a happy mat the all away cat happy a happy .\n",
    "sums/m2_1.spl": b"long from a ran the happy it ran long .\nwas happy dog on sat .\n"
    b"all sat far sat from mat the dog from from on .\ncat away ran long .\n",
    "sums/m2_2.spl": b"on on ran ran a home it sat ran was .\n"
    b"happy a on cat day was ran it happy ran sat .\n",
    "sums/m2_3.spl": b"all ran the cat .\ncat on cat sat all cat .\nday day all ran it .\n"
    b"sat far away away dog far happy was ran .\n",
    "sums/p1_1.spl": b"mat far all sat the all happy long a was all long .\n"
    b"all away mat a mat day away the sat it cat dog .\n",
    "sums/p1_2.spl": b"a cat dog the sat on long cat was from dog happy .\ncat ran ran far mat away .\n"
    b"home day away long on day happy from a dog .\n",
    "sums/p1_3.spl": b"from dog day happy home far .\ndog from from cat from mat was the all day .\n"
    b"long a cat home day dog long ran a sat .\n",
    "sums/p2_1.spl": b"all away from away home mat far on .\n",
    "sums/p2_2.spl": b"day dog long ran the from ran the .\nmat cat ran home far far happy all the cat .\n"
    b"far happy home dog .\nit far it ran far happy dog away on .\n",
    "sums/p2_3.spl": b"a cat cat day was .\ncat the all on it day dog a the day .\n"
    b"from cat on ran mat happy long all cat far a was .\n",
}
BAND_CONFIG = config(
    body="".join(
        eval_xml(
            eval_id=f'ID="{e}"',
            peers=f'<PEERS><P ID="1">p1_{e}.spl</P><P ID="2">p2_{e}.spl</P></PEERS>',
            model_list=f'<MODELS><M ID="A">m1_{e}.spl</M><M ID="B">m2_{e}.spl</M></MODELS>',
        )
        for e in (1, 2, 3)
    )
)


def band_case(name: str, *args: str, three: bool = True) -> Case:
    """ROUGE-L and -W (``-n 0``) at a -w whose powers overflow: on the three evals of two
    systems above, or on the one eval of :data:`SUMS`."""
    files: dict[str, Content] = {**BAND_TEXTS, "config.xml": BAND_CONFIG} if three else with_config(config())
    args = ("-a", "-n", "0", *args, "config.xml")
    return Case(name, "options", args, files, why="the Perl prints Inf and NaN")


BAND_CASES = [
    band_case("w-band-0.001-one-eval", "-w", "0.001", "-d", three=False),
    band_case("w-band-0.002-one-eval", "-w", "0.002", "-d", three=False),
    band_case("w-band-0.001-verbose-one-eval", "-w", "0.001", "-v", three=False),
    band_case("w-band-0.001", "-w", "0.001"),
    band_case("w-band-0.003", "-w", "0.003"),
    band_case("w-band-0.005", "-w", "0.005", "-d"),
    band_case("w-band-0.0045-stem-skip", "-w", "0.0045", "-m", "-x", "-2", "4", "-U", "-d"),
    band_case("w-band-0.002-alpha", "-w", "0.002", "-p", "0.3", "-c", "90", "-r", "50", "-d"),
    band_case("w-band-0.0015-verbose", "-w", "0.0015", "-v"),
    band_case("w-band-0.001-counts", "-w", "0.001", "-t", "1", "-d"),
    band_case("w-band-0.001-summed-counts", "-w", "0.001", "-t", "2"),
    band_case("w-band-0.0045-best-model", "-w", "0.0045", "-f", "B", "-d"),
    band_case("w-50", "-w", "50", "-d"),
    band_case("w-100-counts", "-w", "100", "-t", "1", "-d"),
    band_case("w-500-summed-counts", "-w", "500", "-t", "2"),
]

CASES: list[Case] = XML_CASES + FILE_CASES + LIST_CASES + ID_CASES + OPTION_CASES + BAND_CASES

# --------------------------------------------------------------------------
# Where the Perl prints part of its report and dies, and the encodings its XML parser reads
# --------------------------------------------------------------------------

PYROUGE = ("-c", "95", "-2", "-1", "-U", "-r", "1000", "-n", "4", "-w", "1.2", "-a")  # pyrouge's defaults
RUSSIAN = "кошка сидела на ковре .\n".encode()
CHINESE = "猫坐在垫子上。\n".encode()
NO_TOKENS = "ROUGE-W: model summary sums/{} has no tokens"


def systems_xml(*evals: tuple[dict[str, str], tuple[str, ...]]) -> bytes:
    """Evals of several systems: (system ID -> peer file, model files) each."""
    body = "".join(
        eval_xml(
            eval_id=f'ID="{k}"',
            peers="<PEERS>" + "".join(f'<P ID="{p}">{f}</P>' for p, f in peers.items()) + "</PEERS>",
            models=models,
        )
        for k, (peers, models) in enumerate(evals, 1)
    )
    return config(body=body)


def partial_case(name: str, args: tuple[str, ...], xml: bytes, expect: Partial, **files: bytes) -> Case:
    return Case(name, "files", (*args, "config.xml"), with_config(xml, **files), expect, "dies")


TWO_SYSTEMS = systems_xml(
    ({"A": "peer.spl", "B": "b.spl"}, ("a.spl",)),
    ({"A": "b.spl", "B": "peer.spl"}, ("ru.spl", "a.spl")),
    ({"B": "a.spl"}, ("b.spl",)),
)
PARTIAL_CASES = [
    partial_case(
        "pyrouge-russian-model",
        PYROUGE,
        config(models=("ru.spl",)),
        Partial(6, NO_TOKENS.format("ru.spl")),
        **{"sums/ru.spl": RUSSIAN},
    ),
    partial_case(
        "pyrouge-chinese-model",
        PYROUGE,
        config(models=("zh.spl",)),
        Partial(6, NO_TOKENS.format("zh.spl")),
        **{"sums/zh.spl": CHINESE},
    ),
    partial_case(
        "pyrouge-punctuation-model-per-eval",
        (*PYROUGE, "-d"),
        TWO_SYSTEMS,
        Partial(6, NO_TOKENS.format("ru.spl")),
        **{"sums/ru.spl": b"-- !! ,, .\n"},
    ),
    partial_case(
        "empty-model-two-systems-without-skip-bigrams",
        ("-a", "-n", "2", "-w", "1.2", "-d", "-r", "100"),
        TWO_SYSTEMS,
        Partial(6, NO_TOKENS.format("ru.spl")),
        **{"sums/ru.spl": RUSSIAN},
    ),
    partial_case(
        "empty-model-one-system-counts",
        ("-a", "-n", "2", "-w", "1.2", "-t", "2", "-d", "-m", "-s"),
        systems_xml(({"A": "peer.spl"}, ("a.spl",)), ({"A": "b.spl"}, ("ru.spl",))),
        Partial(6, NO_TOKENS.format("ru.spl")),
        **{"sums/ru.spl": RUSSIAN},
    ),
    partial_case(
        "peer-missing-for-the-second-system",
        ("-a", "-n", "2", "-w", "1.2", "-2", "4", "-U", "-d", "-r", "100"),
        systems_xml(
            ({"A": "peer.spl", "B": "b.spl"}, ("a.spl",)), ({"A": "b.spl", "B": "nope.spl"}, ("a.spl",))
        ),
        Partial(4, "Cannot open sums/nope.spl: No such file"),
    ),
    partial_case(
        "model-missing-met-by-the-second-system",
        ("-a", "-n", "2", "-r", "100"),
        systems_xml(({"A": "peer.spl", "B": "b.spl"}, ("a.spl",)), ({"B": "peer.spl"}, ("nope.spl",))),
        Partial(4, "Cannot find model summary: sums/nope.spl"),
    ),
    partial_case(
        "basic-elements-of-spl-after-rouge-1",
        ("-a", "-n", "1", "-3", "HM", "-r", "100"),
        config(),
        Partial(4, "Unknown input format 'SPL' for BE file sums/peer.spl"),
    ),
    *(
        xml_case(
            f"encoding-{name}",
            f'<?xml version="1.0" encoding="{name}"?>\n'.encode() + config(),
            Refused(3, f"invalid XML: unknown encoding '{name}'"),
            "dies",
        )
        for name in ("ascii", "ASCII", "latin1", "utf8", "cp1252")
    ),
    *(
        xml_case(f"encoding-{name}", f'<?xml version="1.0" encoding="{name}"?>\n'.encode() + config())
        for name in ("US-ASCII", "us-ascii", "ISO-8859-1", "windows-1252", "UTF-8")
    ),
]
CASES += PARTIAL_CASES
