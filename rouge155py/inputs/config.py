"""Evaluation configurations: ROUGE-EVAL XML files and ``-z`` file lists.

All give the same thing: evals in first-seen order, each with its peers
(peer ID -> document) and its models (documents in model-ID order). Paths are
relative to the current directory, as in the Perl. Documents in memory become
evals the same way (:func:`config_from_documents`). An XML file of the plain shape that
configurations are written in (ASCII, no entity, comment or DTD) is read without the XML
parser, to the same evals (:func:`_plain_walk`); any other goes through lxml.
"""

from __future__ import annotations

import io
import itertools
import operator
import os
import re
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Mapping, NoReturn, Optional, Sequence

from ..errors import ConfigError, LimitError
from .files import MAX_CONFIG_BYTES, read_file
from .readers.document import Document, SummaryFile, SummaryText

if TYPE_CHECKING:  # lxml is imported only when an XML configuration is read
    from lxml import etree

__all__ = [
    "INPUT_FORMATS",
    "Eval",
    "EvalConfig",
    "TextConfig",
    "XmlEval",
    "XmlEvalStream",
    "config_from_documents",
    "items_differ",
    "read_file_list",
    "read_xml_config",
    "read_xml_evals",
]

INPUT_FORMATS = ("SEE", "ISI", "SPL", "SIMPLE")
# Perl's "$" also matches before a final newline.
_FORMAT = re.compile(r"(?:SEE|ISI|SPL|SIMPLE)\n?\Z", re.IGNORECASE | re.ASCII)
# Perl's \s on the parser's Unicode strings (Python's \s would add \x1c-\x1f).
_SPACE_SET = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(map(chr, range(0x2000, 0x200B)))
)
_SPACE = "".join(sorted(_SPACE_SET))


# Slots where Python has them for dataclasses (3.10+): a configuration may hold 100,000s of evals.
_SLOTS = {"slots": True} if sys.version_info >= (3, 10) else {}


@dataclass(**_SLOTS)
class Eval:
    """One evaluation: peers (peer ID -> document) scored against models (in model-ID order)."""

    eval_id: str
    peers: dict[str, Document] = field(default_factory=dict)
    models: list[Document] = field(default_factory=list)
    #: The models' IDs, where the configuration names them (an XML's); else M1, M2, ... in order.
    model_ids: Optional[list[str]] = None


@dataclass
class EvalConfig:
    """All evals of a configuration, and every peer ID it names; ``notes``: lines for stderr about
    its input (empty summaries) that change no number."""

    evals: list[Eval]
    peer_ids: set[str]
    notes: list[str] = field(default_factory=list)

    def first(self, count: int) -> list[Eval]:
        """The first ``count`` evals (or all)."""
        return self.evals[:count]

    def model_counts(self) -> Iterator[int]:
        """The number of models of each eval, in order."""
        return (len(ev.models) for ev in self.evals)


class TextConfig(EvalConfig):
    """Evals ``1``..``N`` of summaries in memory, held by columns: the texts of each peer (one
    per item) and every item's models end to end (item i's are ``models[starts[i]:starts[i + 1]]``).

    A text is the bytes its SPL (or SIMPLE) file would hold, as latin-1 characters. The
    evals (documents named as ``peer_name`` and ``model_name`` say) are made only where a
    step asks for them; the C kernel takes the columns as they are.
    """

    def __init__(
        self,
        peers: Mapping[str, list[str]],
        models: list[str],
        starts: Sequence[int],
        input_format: str,
        peer_name: str,
        model_name: str,
        places: Optional[Sequence[int]] = None,
    ) -> None:
        self.peer_texts, self.model_texts, self.starts = dict(peers), models, starts
        self.input_format, self.peer_name, self.model_name = input_format, peer_name, model_name
        self.items = len(starts) - 1
        #: Each item's place in the whole run (its eval ID is one more): 0..N-1 unless given.
        self.places: Sequence[int] = range(self.items) if places is None else places
        for peer_id, texts in self.peer_texts.items():
            if len(texts) != self.items:
                raise ConfigError(f"peer {peer_id!r} has {len(texts)} summaries for {self.items} items")
        # As in a configuration file, the peers are those its evals name: none without items.
        self.peer_ids = set(self.peer_texts) if self.items else set()
        self.notes = []

    @property
    def evals(self) -> list[Eval]:  # type: ignore[override]  # made on first use; never assigned
        """Every eval, made now (and kept)."""
        made = self.__dict__.get("_evals")
        if made is None:
            made = self.__dict__["_evals"] = self.evals_between(0, self.items)
        return made

    def evals_between(self, start: int, stop: int) -> list[Eval]:
        """The evals of items ``start`` to ``stop - 1``, made anew."""
        fmt, starts, models, places = self.input_format, self.starts, self.model_texts, self.places
        peer_name, model_name = self.peer_name, self.model_name
        return [
            Eval(
                str(places[i] + 1),
                {
                    peer_id: SummaryText(texts[i], fmt, peer_name.format(item=places[i] + 1, peer=peer_id))
                    for peer_id, texts in self.peer_texts.items()
                },
                [
                    SummaryText(
                        models[at], fmt, model_name.format(model=at - starts[i] + 1, item=places[i] + 1)
                    )
                    for at in range(starts[i], starts[i + 1])
                ],
            )
            for i in range(start, min(stop, self.items))
        ]

    def first(self, count: int) -> list[Eval]:
        return self.evals_between(0, count)

    def model_counts(self) -> Iterator[int]:
        if self.starts == range(self.items + 1):  # one model an item
            return itertools.repeat(1, self.items)
        return map(operator.sub, self.starts[1:], self.starts[:-1])


@dataclass(**_SLOTS)
class XmlEval:
    """An ``<EVAL>`` as the XML gives it: roots and file names, set in any order."""

    eval_id: str
    input_format: Optional[str] = None
    peer_root: Optional[str] = None
    model_root: Optional[str] = None
    peers: dict[str, str] = field(default_factory=dict)
    model_ids: list[str] = field(default_factory=list)
    models: dict[str, str] = field(default_factory=dict)

    def documents(self) -> Eval:
        """The files the Perl opens: ``ROOT/name``; a repeated model ID gives its last file."""
        peer_root, model_root = self.peer_root or "", self.model_root or ""
        return Eval(
            self.eval_id,
            {p: SummaryFile(f"{peer_root}/{name}", self.input_format) for p, name in self.peers.items()},
            [
                SummaryFile(f"{model_root}/{self.models.get(m, '')}", self.input_format)
                for m in self.model_ids
            ],
            list(self.model_ids),
        )


def _trim(text: str) -> str:
    if text and not (text[0] in _SPACE_SET or text[-1] in _SPACE_SET):
        return text  # nothing to trim: the common case, without a regular expression
    return re.sub(f"\\A[{_SPACE}]+|[{_SPACE}]+\\Z", "", text)  # compiled once, when first needed


def _text_nodes(element: etree._Element) -> list[str]:
    """The element's direct text children, as the DOM sees them."""
    text = element.text  # lxml makes a new string at each access: once
    nodes = [text] if text is not None else []
    if len(element):
        nodes.extend(tail for tail in (child.tail for child in element) if tail is not None)
    return nodes


def _name_is(element: etree._Element, name: str) -> bool:
    tag = element.tag
    return isinstance(tag, str) and tag.upper() == name


def _attribute(element: etree._Element, name: str, path: str) -> str:
    value = element.get(name)
    if value is None:
        raise ConfigError(f"{path}: <{element.tag}> on line {element.sourceline} has no {name} attribute")
    return value


# libxml2's own limits, kept (no huge_tree): 256 levels of nesting, 10 MB in one text or
# attribute value, entity expansion bounded by an amplification factor.
_XML_NO_MEMORY = 2  # libxml2's XML_ERR_NO_MEMORY, lxml's ErrorTypes.ERR_NO_MEMORY
_XML_LIMITS = ("depth", "XML_PARSE_HUGE", "amplification", "entity reference loop", "limit exceeded")


def _xml_events(path: str, data: bytes) -> Iterator[tuple[str, etree._Element]]:
    """The end events of the document's elements, parsed as they are read (lxml imported now).

    Entities are expanded only when declared in the file itself. No external
    entity, external DTD, XInclude or network resource is read: a configuration
    names summary files, never other resources to load.
    """
    from lxml import etree

    events = etree.iterparse(
        io.BytesIO(data),
        events=("end",),
        resolve_entities="internal",
        no_network=True,
        load_dtd=False,
        huge_tree=False,
    )
    return _checked_events(path, data, events)


def _checked_events(
    path: str, data: bytes, events: Iterator[tuple[str, etree._Element]]
) -> Iterator[tuple[str, etree._Element]]:
    from lxml import etree

    try:
        yield from events
    except etree.XMLSyntaxError as exc:
        _check_document(path, data)  # the whole document's parser names the error as it always has
        _raise_xml_error(path, data, exc)


def _check_document(path: str, data: bytes) -> None:
    """Parse the whole document at once: the error it meets, if any."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities="internal", no_network=True, load_dtd=False, huge_tree=False)
    try:
        etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        _raise_xml_error(path, data, exc)


def _raise_xml_error(path: str, data: bytes, exc: Exception) -> NoReturn:
    if getattr(exc, "code", None) == _XML_NO_MEMORY:  # libxml2 ran out of memory: not the file's fault
        raise MemoryError(f"{path}: the XML parser ran out of memory") from None
    message = " ".join(str(getattr(exc, "msg", exc)).split())
    if any(limit in message for limit in _XML_LIMITS):
        raise LimitError(f"{path}: refused: {message}") from None
    why = _entity_refusal(data, message) or f"invalid XML: {message}{_plain_text_hint(data)}"
    raise ConfigError(f"{path}: {why}") from None


def _plain_text_hint(data: bytes) -> str:
    """For a configuration that is plain text, not XML (a file of summaries given in its place):
    the options that read such files."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head or head.startswith(b"<") or b"\x00" in head:
        return ""
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 3:  # not just a character cut at the end of the sample
            return ""
    return "; is it a text file of summaries? line-aligned files are read with --hyp FILE --ref FILE"


def _entity_refusal(data: bytes, message: str) -> Optional[str]:
    """Why an entity the file declares was left undefined: it is external, or a parameter entity."""
    found = re.match(r"Entity '([^']*)' not defined", message)
    if found is None:
        return None
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        dtd = etree.fromstring(data, parser).getroottree().docinfo.internalDTD
    except etree.XMLSyntaxError:
        return None
    for entity in dtd.iterentities() if dtd is not None else ():
        if entity.name == found.group(1):
            where = f"external entity {entity.name!r} ({entity.system_url})" if entity.system_url else None
            what = where or f"parameter entity {entity.name!r}"
            return f"{what} refused: only entities with their text in the file are expanded"
    return None


def read_xml_config(path: str) -> EvalConfig:
    """Read a ROUGE-EVAL XML file (no external entities, no network)."""
    entries, peer_ids = read_xml_evals(path)
    entries.reverse()
    evals = []
    while entries:  # each entry is dropped once its documents are made
        evals.append(entries.pop().documents())
    return EvalConfig(evals, peer_ids)


#: Elements whose content the walk reads as a whole (at their end); it does not look inside them.
_LEAVES = frozenset({"INPUT-FORMAT", "PEER-ROOT", "MODEL-ROOT", "PEERS", "MODELS"})


class _EvalWalk:
    """What the walk of one document has found: its evals by ID, and every peer ID it names.

    A class rather than nested functions: a recursive closure is a reference
    cycle, which would keep every eval alive until the garbage collector's
    next full pass.
    """

    __slots__ = ("evals", "opened", "path", "peer_ids", "touched")

    def __init__(self, path: str) -> None:
        self.path = path
        self.evals: dict[str, XmlEval] = {}
        self.peer_ids: set[str] = set()
        self.opened: list[XmlEval] = []  # evals opened since the caller last took them
        self.touched: set[str] = set()  # IDs of the evals set since then

    def open(self, eval_id: str) -> None:
        """Open the eval ``eval_id``: a new one, or again one opened earlier."""
        if eval_id not in self.evals:
            self.evals[eval_id] = found = XmlEval(eval_id)
            self.opened.append(found)
        self.touched.add(eval_id)

    def current(self, eval_id: Optional[str], what: str, element: etree._Element) -> XmlEval:
        """The eval ``eval_id`` (the innermost open one) that an element sets; an error outside any."""
        key = "" if eval_id is None else eval_id
        found = self.evals.get(key)
        if found is None:
            raise ConfigError(f"{self.path}: <{what}> on line {element.sourceline} is outside any <EVAL>")
        self.touched.add(key)
        return found

    def leaf(self, name: str, element: etree._Element, eval_id: Optional[str]) -> None:
        """What an element of :data:`_LEAVES` sets."""
        path = self.path
        if name == "INPUT-FORMAT":
            input_format = _attribute(element, "TYPE", path)
            if not _FORMAT.match(input_format):
                raise ConfigError(f"{path}: unknown input type {input_format!r} on line {element.sourceline}")
            self.current(eval_id, "INPUT-FORMAT", element).input_format = sys.intern(input_format)
        elif name == "PEER-ROOT" or name == "MODEL-ROOT":
            for text in _text_nodes(element):
                target = self.current(eval_id, element.tag, element)
                # Roots, formats and IDs repeat from eval to eval: one string each.
                if name == "PEER-ROOT":
                    target.peer_root = sys.intern(_trim(text))
                else:
                    target.model_root = sys.intern(_trim(text))
        elif name == "PEERS":
            for child in element:
                if _name_is(child, "P"):
                    peer_id = sys.intern(_attribute(child, "ID", path))
                    self.peer_ids.add(peer_id)
                    target = self.current(eval_id, "PEERS", child)
                    for text in _text_nodes(child):
                        target.peers[peer_id] = _trim(text)
        else:  # MODELS
            for child in element:
                if _name_is(child, "M"):
                    model_id = sys.intern(_attribute(child, "ID", path))
                    target = self.current(eval_id, "MODELS", child)
                    target.model_ids.append(model_id)
                    for text in _text_nodes(child):
                        target.models[model_id] = _trim(text)

    def walk(self, element: etree._Element, eval_id: Optional[str]) -> None:
        """Walk an element and what it holds, inside the eval ``eval_id`` (None: outside any)."""
        tag = element.tag
        if not isinstance(tag, str):
            return
        name = tag.upper()
        if name in _LEAVES:
            self.leaf(name, element, eval_id)
            return
        if name == "EVAL":
            eval_id = _attribute(element, "ID", self.path)
            self.open(eval_id)
        for child in element:
            self.walk(child, eval_id)


def read_xml_evals(path: str) -> tuple[list[XmlEval], set[str]]:
    """The ``<EVAL>`` entries of a ROUGE-EVAL XML file as written, and every peer ID it names.

    The document is walked as the DOM would be, from the root down: an
    ``<EVAL>`` opens an eval, the elements of :data:`_LEAVES` set what they
    name in the innermost open eval. Each child of the root is walked as soon
    as it has been parsed, then dropped, so a large file is never held as a
    tree. An invalid document is reported as such even where the walk met an
    error first.
    """
    walk = _EvalWalk(path)
    for _ in _read_steps(path, walk)[0]:
        pass
    return list(walk.evals.values()), walk.peer_ids


class XmlEvalStream:
    """A ROUGE-EVAL XML file read as it is parsed, for a caller that starts on its evals early.

    Each step walks one child of the root: :attr:`opened` then holds the evals
    opened since the caller last emptied it, and :attr:`touched` the IDs of
    every eval set since then (an eval may be opened, or set outside any
    ``<EVAL>`` under an empty ID, again later: an eval is final only at the
    end). At the end, :attr:`evals` and :attr:`peer_ids` are what
    :func:`read_xml_evals` returns; errors are raised as it raises them.
    """

    def __init__(self, path: str) -> None:
        """Read the file now (and import the XML parser, where the file is not plain); walk
        nothing yet."""
        self._walk = _EvalWalk(path)
        self._steps, walked = _read_steps(path, self._walk)
        #: Whether the file was walked whole at once (a plain file): its steps then cost nothing.
        self.walked = walked
        self.finished = False

    @property
    def opened(self) -> list[XmlEval]:
        return self._walk.opened

    @property
    def touched(self) -> set[str]:
        return self._walk.touched

    @property
    def evals(self) -> list[XmlEval]:
        return list(self._walk.evals.values())

    @property
    def peer_ids(self) -> set[str]:
        return self._walk.peer_ids

    def step(self) -> bool:
        """Walk the next child of the root; False once the document has ended."""
        if not self.finished and next(self._steps, None) is None:
            self.finished = True
        return not self.finished


# The encodings ROUGE-1.5.5.pl's XML parser reads (XML::Parser on expat), by name in any case:
# expat's own, and the encoding maps XML::Parser ships. It dies on any other name a
# declaration gives ("Couldn't open encmap ascii.enc"), where libxml2 knows many more.
_PERL_ENCODINGS = frozenset(
    {
        "utf-8",
        "utf-16",
        "utf-16le",
        "utf-16be",
        "iso-8859-1",
        "us-ascii",
        "big5",
        "euc-kr",
        "ibm866",
        "koi8-r",
        *(f"iso-8859-{n}" for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16)),
        *(f"windows-{n}" for n in range(1250, 1259)),
        "x-euc-jp-jisx0221",
        "x-euc-jp-unicode",
        "x-sjis-cp932",
        "x-sjis-jdk117",
        "x-sjis-jisx0221",
        "x-sjis-unicode",
    }
)
_DECLARED = re.compile(
    "<[?]xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(?:\"[^\"]*\"|'[^']*')"
    "[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(?:\"([^\"]*)\"|'([^']*)')"
)


def _check_encoding(path: str, data: bytes) -> None:
    """Refuse an encoding declared that the Perl's XML parser does not read (``ascii``,
    ``latin1``, ``utf8``, ``cp1252``...: ``us-ascii``, ``iso-8859-1``, ``utf-8`` are its names)."""
    head = data[:400]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = head.decode("utf-16", "replace")
    else:
        text = head[3:].decode("latin-1") if head.startswith(b"\xef\xbb\xbf") else head.decode("latin-1")
    found = _DECLARED.match(text)
    if found is None:
        return  # no encoding declared, or a declaration the parser refuses anyway
    name = found.group(1) if found.group(1) is not None else found.group(2)
    if name.lower() not in _PERL_ENCODINGS:
        raise ConfigError(
            f"{path}: invalid XML: unknown encoding {name!r} (ROUGE-1.5.5.pl's XML parser has no map for it)"
        )


def _read_steps(path: str, walk: _EvalWalk) -> tuple[Iterator[bool], bool]:
    """The steps of the walk of a configuration file into ``walk`` (the file is read whole now),
    and whether they are walked already: a plain file is, at once, without the XML parser
    (:func:`_plain_walk`); any other is walked as the parser's events come."""
    opening, reading = f"cannot open configuration file {path}", f"cannot read configuration file {path}"
    data = read_file(path, ConfigError, opening, reading, limit=MAX_CONFIG_BYTES)
    _check_encoding(path, data)
    plain = _plain_walk(path, data)
    if plain is not None:
        return _replayed(*plain, walk), True
    return _walked(path, _xml_events(path, data), walk), False


# A plain configuration: ASCII without control characters (tabs and newlines aside), entity
# references, carriage returns or "]]>"; an optional XML declaration, then <ROUGE-EVAL>
# holding only <EVAL ID="..."> elements, each holding only the leaves of _LEAVES in the usual
# shape (tag names in capitals, double-quoted attributes, white space between elements). Such a
# file is well-formed XML whose walk needs no parser; any other goes to the parser.
_S = "[ \t\n]*"
_TEXT = "[\t\n\x20-\x25\x27-\x3b\x3d-\x7e]*"  # no "<", "&" or control character
_VALUE = '"([\x20\x21\x23-\x25\x27-\x3b\x3d-\x7e]*)"'  # and no '"', tab or newline
_ID = f"[ \t\n]+ID{_S}={_S}{_VALUE}{_S}>"
_FORMAT_LEAF = f"<INPUT-FORMAT[ \t\n]+TYPE{_S}={_S}{_VALUE}{_S}(?:/>|>{_TEXT}</INPUT-FORMAT>)"
_PEERS_LEAF = f"<PEERS>((?:{_S}<P{_ID}{_TEXT}</P>)*){_S}</PEERS>"
_MODELS_LEAF = f"<MODELS>((?:{_S}<M{_ID}{_TEXT}</M>)*){_S}</MODELS>"
_XML_MAX_TEXT = 10_000_000  # libxml2's longest text or attribute value (no huge_tree)
_PLAIN_ENCODINGS = ("utf-8", "us-ascii", "iso-8859-1")  # each reads ASCII as ASCII
_PLAIN_HEAD = (
    f'(?:<\\?xml[ \t\n]+version{_S}={_S}"1\\.0"'
    f'(?:[ \t\n]+encoding{_S}={_S}"([A-Za-z0-9._-]*)")?'
    f'(?:[ \t\n]+standalone{_S}={_S}"(?:yes|no)")?{_S}\\?>)?'
    f"{_S}<ROUGE-EVAL(?:[ \t\n]+version{_S}={_S}{_VALUE})?{_S}>"
)
# An <EVAL> with its leaves in the usual order, each once: one match.
_PLAIN_USUAL = (
    f"{_S}<EVAL{_ID}{_S}<PEER-ROOT>({_TEXT})</PEER-ROOT>{_S}<MODEL-ROOT>({_TEXT})</MODEL-ROOT>"
    f"{_S}{_FORMAT_LEAF}{_S}{_PEERS_LEAF}{_S}{_MODELS_LEAF}{_S}</EVAL>"
)
# Else the <EVAL>'s start, then its leaves in any order, one match each, up to its end. Each
# pattern is compiled where first needed (re keeps it): runs of texts in memory need none.
_PLAIN_EVAL = f"{_S}<EVAL{_ID}"
_PLAIN_LEAF = (
    f"{_S}(?:<(PEER-ROOT|MODEL-ROOT)>({_TEXT})</\\1>|{_FORMAT_LEAF}|{_PEERS_LEAF}|{_MODELS_LEAF}|(</EVAL>))"
)
_PLAIN_PEER = f"<P{_ID}({_TEXT})</P>"
_PLAIN_MODEL = f"<M{_ID}({_TEXT})</M>"
_PLAIN_TAIL = f"{_S}</ROUGE-EVAL>{_S}\\Z"


class _PlainEval:
    """What the leaves of one plain ``<EVAL>`` set, as the parser's walk sets them."""

    __slots__ = ("peer_ids", "target")

    def __init__(self, target: XmlEval, peer_ids: set[str]) -> None:
        self.target, self.peer_ids = target, peer_ids

    def root(self, name: str, text: str) -> None:
        if text:  # an empty element has no text node: it sets nothing
            if name == "PEER-ROOT":
                self.target.peer_root = sys.intern(_trim(text))
            else:
                self.target.model_root = sys.intern(_trim(text))

    def input_format(self, input_format: str) -> bool:
        """False for an unknown format (the parser's walk reports it, with its line)."""
        if not _FORMAT.match(input_format):
            return False
        self.target.input_format = sys.intern(input_format)
        return True

    def peers(self, block: str) -> None:
        peers = self.target.peers
        for peer_id, name in re.compile(_PLAIN_PEER).findall(block):
            peer_id = sys.intern(peer_id)
            self.peer_ids.add(peer_id)
            if name:
                peers[peer_id] = _trim(name)

    def models(self, block: str) -> None:
        target = self.target
        for model_id, name in re.compile(_PLAIN_MODEL).findall(block):
            model_id = sys.intern(model_id)
            target.model_ids.append(model_id)
            if name:
                target.models[model_id] = _trim(name)


def _longest_run_over(text: str, mark: str, limit: int) -> bool:
    """Whether ``text`` holds more than ``limit`` characters in a row without ``mark``, found
    without copying it: such a run holds a whole block of ``limit // 2 + 1`` characters
    aligned on a multiple of that size, and only a block without the mark is looked at further."""
    if len(text) <= limit:
        return False
    block = limit // 2 + 1
    for start in range(0, len(text) - block + 1, block):
        if text.find(mark, start, start + block) != -1:
            continue
        end = text.find(mark, start + block)
        if (len(text) if end == -1 else end) - (text.rfind(mark, 0, start) + 1) > limit:
            return True
    return False


def _plain_walk(path: str, data: bytes) -> Optional[tuple[_EvalWalk, list[str]]]:
    """The walk of a plain configuration (see above), as the parser's walk would find it, and
    the ID of each ``<EVAL>`` in the order written; None for any other file (or an unknown
    input format: the parser's walk reports it, with its line)."""
    if not data.isascii() or b"]]>" in data:
        return None
    text = data.decode("ascii")
    if _longest_run_over(text, "<", _XML_MAX_TEXT):
        return None  # a text or attribute that the parser refuses (or holds: it says which)
    head = re.compile(_PLAIN_HEAD).match(text)
    if head is None or (head.group(1) or "utf-8").lower() not in _PLAIN_ENCODINGS:
        return None
    walk = _EvalWalk(path)
    order: list[str] = []
    evals, peer_ids, intern = walk.evals, walk.peer_ids, sys.intern
    usual_eval = re.compile(_PLAIN_USUAL)
    usual = usual_eval.match
    find_peers, find_models = re.compile(_PLAIN_PEER).findall, re.compile(_PLAIN_MODEL).findall
    shared: dict[str, str] = {}  # a root's text -> the root (the same from eval to eval)
    position = head.end()
    while True:
        found = usual(text, position) or re.compile(_PLAIN_EVAL).match(text, position)
        if found is None:
            break
        eval_id = found.group(1)
        order.append(eval_id)
        target = evals.get(eval_id)
        if target is None:
            target = evals[eval_id] = XmlEval(eval_id)
        leaves = _PlainEval(target, peer_ids)
        position = found.end()
        if found.re is usual_eval:  # the common case, inline (a hot loop)
            _, peer_root, model_root, input_format, peers, _, models, _ = found.groups()
            if peer_root:  # an empty element has no text node: it sets nothing
                target.peer_root = shared.get(peer_root) or shared.setdefault(
                    peer_root, intern(_trim(peer_root))
                )
            if model_root:
                target.model_root = shared.get(model_root) or shared.setdefault(
                    model_root, intern(_trim(model_root))
                )
            if not leaves.input_format(input_format):
                return None
            for peer_id, name in find_peers(peers):
                peer_id = intern(peer_id)
                peer_ids.add(peer_id)
                if name:
                    target.peers[peer_id] = _trim(name)
            for model_id, name in find_models(models):
                model_id = intern(model_id)
                target.model_ids.append(model_id)
                if name:
                    target.models[model_id] = _trim(name)
            continue
        next_leaf = re.compile(_PLAIN_LEAF).match
        while True:
            leaf = next_leaf(text, position)
            if leaf is None:
                return None
            position = leaf.end()
            root, root_text, input_format, peers, _, models, _, _ = leaf.groups()
            if root is not None:
                leaves.root(root, root_text)
            elif input_format is not None:
                if not leaves.input_format(input_format):
                    return None
            elif peers is not None:
                leaves.peers(peers)
            elif models is not None:
                leaves.models(models)
            else:
                break
    if re.compile(_PLAIN_TAIL).match(text, position) is None:
        return None
    return walk, order


def _replayed(found: _EvalWalk, order: list[str], walk: _EvalWalk) -> Iterator[bool]:
    """The steps of a plain configuration's walk (already made: ``found``) into ``walk``: one
    ``<EVAL>`` a step, opened or set again, as the parser's walk takes them."""
    walk.peer_ids = found.peer_ids
    evals = walk.evals
    for eval_id in order:
        if eval_id not in evals:
            evals[eval_id] = entry = found.evals[eval_id]
            walk.opened.append(entry)
        walk.touched.add(eval_id)
        yield True


def _walked(path: str, events: Iterator[tuple[str, etree._Element]], walk: _EvalWalk) -> Iterator[bool]:
    """Walk the document into ``walk``, yielding after each child of the root."""
    # The root's children are walked (and dropped) as each ends; the root itself opens first.
    root: Optional[etree._Element] = None
    root_name, root_eval = "", None
    error: Optional[ConfigError] = None
    for _, element in events:
        if error is not None:
            continue  # read to the end: an invalid document is the error to report
        try:
            if root is None:
                root = element
                while root.getparent() is not None:
                    root = root.getparent()
                root_name = root.tag.upper()
                if root_name == "EVAL":
                    root_eval = _attribute(root, "ID", path)
                    walk.open(root_eval)
            if element is root:
                if root_name in _LEAVES:
                    walk.leaf(root_name, root, None)
            elif root_name not in _LEAVES and element.getparent() is root:
                walk.walk(element, root_eval)
                _drop_walked(element)
                yield True
        except ConfigError as exc:
            error = exc
    if error is not None:
        raise error


def _drop_walked(element: etree._Element) -> None:
    """Free an element whose walk has ended, and its earlier siblings (walked before it)."""
    element.clear()
    parent = element.getparent()
    if parent is not None:
        while element.getprevious() is not None:
            del parent[0]


def read_file_list(path: str, input_format: str, peer_id: str) -> EvalConfig:
    """Read a ``-z`` list: one eval per line, ``peer model1 model2 ...``."""
    opening, reading = f"cannot open file list {path}", f"cannot read file list {path}"
    data = read_file(path, ConfigError, opening, reading, limit=MAX_CONFIG_BYTES)
    evals: list[Eval] = []
    for line in data.split(b"\n"):
        if line.startswith(b"#") or not line.strip(b" \t\n\r\f\v"):
            continue
        files = [os.fsdecode(f) for f in re.split(rb"[ \t\n\r\f\v]+", line.strip(b" \t\n\r\f\v"))]
        if len(files) < 2:
            raise ConfigError(
                f"{path}: a file list line needs a peer and at least one model: {os.fsdecode(line)!r}"
            )
        documents: list[Document] = [SummaryFile(name, input_format) for name in files]
        evals.append(Eval(str(len(evals) + 1), {peer_id: documents[0]}, documents[1:]))
    return EvalConfig(evals, {peer_id})


def items_differ(peer_id: str, summaries: int, items: int) -> ConfigError:
    """The error of a peer given another number of summaries than there are items."""
    return ConfigError(f"peer {peer_id!r} has {summaries} summaries for {items} sets of references")


def config_from_documents(
    peers: Mapping[str, Sequence[Document]], models: Sequence[Sequence[Document]]
) -> EvalConfig:
    """Evals ``1``..``N`` from documents in memory: item i of every peer against ``models[i]``.

    Every peer must have one document per item.
    """
    for peer_id, documents in peers.items():
        if len(documents) != len(models):
            raise items_differ(peer_id, len(documents), len(models))
    evals = [
        Eval(str(i + 1), {peer_id: documents[i] for peer_id, documents in peers.items()}, list(item_models))
        for i, item_models in enumerate(models)
    ]
    # As in a configuration file, the peers are those its evals name: none without items.
    return EvalConfig(evals, {peer_id for ev in evals for peer_id in ev.peers})
