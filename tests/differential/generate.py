"""Seeded random evaluation cases for differential runs against ROUGE-1.5.5.pl.

``make_case(seed, root, metrics)`` writes a small evaluation (peer and model
summaries plus a ROUGE-EVAL XML configuration or a ``-z`` file list) under
``root`` and returns the command-line arguments that evaluate it.  The same
seed always writes the same bytes and returns the same arguments.

The inputs exercise the Perl's byte-level reading rules: SEE, SPL and ISI
files with lines that do not match the format, CRLF endings, Latin-1 and UTF-8
bytes, HTML entities, hyphens, punctuation and upper case; SIMPLE BE files for
``-3``.  Options are bundled Perl-style at times, and a few cases give values
the Perl reads its own way (``-r 5.7``, ``-n ''``, ``-c 95.``), unknown options,
or words after the configuration file; some run with ``-v``.  ``Case.features`` names what a case
exercises.  About 5% of the cases are built to make the Perl die (see
``FAILURE_KINDS``); every other case is built so that it runs to completion.
"""

from __future__ import annotations

import bisect
import random
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

__all__ = [
    "FAILURE_KINDS",
    "FAILURE_RATE",
    "METRICS",
    "SAFE_LEAD_WORDS",
    "VERBOSE_RATE",
    "Case",
    "make_case",
]

T = TypeVar("T")

METRICS = ("N", "ALL")
FAILURE_RATE = 0.05
#: The share of cases run with ``-v``: the Perl's debug lines, compared too (see ``runner.canonical``).
VERBOSE_RATE = 0.2

# Deliberate failures; the second group needs metrics "ALL".
FAILURE_KINDS_N = (
    "missing_model",
    "missing_peer",
    "unknown_format",
    "bad_c",
    "bad_p",
    "l_and_b",
    "bad_xml",
)
FAILURE_KINDS_ALL = (*FAILURE_KINDS_N, "bad_w", "be_bad_line", "w_empty_model")
FAILURE_KINDS = FAILURE_KINDS_ALL

# Words that are not stop words, nor is any prefix of two bytes or more: a
# model whose first sentence starts with one keeps a token under every -l/-b/-s
# combination, so ROUGE-W (which divides by the model length) cannot die.
SAFE_LEAD_WORDS = (b"zebras", b"gravity", b"quantum", b"vortex", b"kernels", b"harbors")

# A Zipf-like vocabulary: stop words first, then words whose stems, WordNet
# exceptions and Porter quirks matter (-ement, -logies, best/better, is...).
_WORD_TEXT = """
the of and to a in is that for it was on said with he as at by from his be are
has have an not but this which were its their they been would who will more
after two new also year years percent market company president government
people police city cities officials reported report reports reporting running
ran runs run agreement agreements statement statements movement movements best
better good well studies studied study studying biology biologies technologies
technology geology ideologies happiness relational conditional national
generalization hopeful goodness electricity adjustment dependent adoption
communism activate effective controlling rolling hoping caresses ponies ties cats
feed agreed plastered motoring conflated troubled sized hopping tanned falling
hissing fizzed failing filing happy sky children mice geese women went gone saw
seen data analyses crises stock prices rose fell united states kingdom nations
minister election elections voters campaign economy economic economics trading
traders bank banks interest rates connection connected connecting connections
generously generous fully sensibilities formalize triplicate hopefulness
allowance inference adjustable irritant replacement dependence homologous
bowdlerize angularity callousness worse worst dying lying leaves does media
criteria oscillators feudalism decisiveness formality sensitivity abbreviation
operational rationalization callously proceed exceed succeed bled need agreeing
yelling skies flies cried crying axes bases ugly duly sly sprayed enjoy
"""
_WORDS = tuple(w.encode("ascii") for w in _WORD_TEXT.split())
_SPECIALS = (
    b"$5", b"$1,000", b"1990", b"3.5", b"42", b"7", b"50%", b"U.S.", b"&amp;",
    b"&quot;", b"AT&amp;T", b"--", b"-", b"e-mail", b"well-known", b"co-operation",
    b"state-of-the-art", b"caf\xe9", b"caf\xc3\xa9", b"na\xc3\xafve", b"\xe2\x80\x94",
    b"r\xe9sum\xe9", b"x\xa0y", b"_under", b"#tag", b"@home", b"12th", b"1980s",
    b"don't", b"o'clock", b"U.N.", b"'90s", b"a\x85b", b"Z\xfcrich", b"1-2", b"--up",
    b"nul\x00byte", b"-LRB-", b"x\x1fy",
)  # fmt: skip


def _zipf_cum(n: int, s: float) -> list[float]:
    total = 0.0
    cum = []
    for rank in range(n):
        total += 1.0 / (rank + 1) ** s
        cum.append(total)
    return cum


_WORD_CUM = _zipf_cum(len(_WORDS), 0.8)
_SUFFIXES = (b",", b".", b";", b":", b"!", b"?", b"'s", b'"', b")", b"...", b"'", b"--")
_PREFIXES = (b"(", b'"', b"'", b"-", b"--", b"$")
_SEPARATORS = (b"  ", b"\t", b" -- ", b"--", b"\x0c", b"\x0b", b" \t ", b" - ")
# Sentences that hold no token the Perl counts.
_NO_TOKEN = (
    b"-- !!! ...",
    b"&",
    b"- - -",
    b"***",
    b"\xe2\x80\x94",
    b" ( ) ",
    b"--",
    b"?!",
)
_BE_RELATIONS = (
    b"nn",
    b"subj",
    b"obj",
    b"mod",
    b"nil",
    b"appo",
    b"pcomp-n",
    b"gen",
    b"NIL",
)
_BE_MODES = ("H", "HM", "HMR", "HM1", "HMR1", "HMR2")
# Options that take no value (Getopt::Std flags) and that may be bundled.
_FLAG_LETTERS = "amMsdxuU"


@dataclass
class Case:
    """One evaluation: the files under ``cwd`` and the ROUGE arguments (without -e).

    ``config`` is the configuration path relative to ``cwd``: a ROUGE-EVAL XML file,
    or a ``-z`` file list when ``file_list`` is true.
    """

    seed: int
    metrics: str
    args: list[str]
    cwd: Path
    config: str = ""
    file_list: bool = False
    expect_failure: str | None = None
    features: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """One line naming the seed, what the case is built to test and its command."""
        parts = [f"seed={self.seed}", f"metrics={self.metrics}"]
        if self.expect_failure:
            parts.append(f"expect-failure={self.expect_failure}")
        if self.features:
            parts.append("features=" + ",".join(dict.fromkeys(self.features)))
        parts.append(f"cwd={self.cwd}")
        parts.append("args: -e DATA " + shlex.join(self.args))
        return " ".join(parts)


@dataclass
class _Eval:
    eval_id: str
    fmt: str
    fmt_spelling: str
    models: list[tuple[str, str]] = field(default_factory=list)
    peers: list[tuple[str, str]] = field(default_factory=list)


class _Builder:
    """Draws one case from its own random stream."""

    def __init__(self, seed: int, root: Path, metrics: str) -> None:
        if metrics not in METRICS:
            raise ValueError(f"metrics must be one of {METRICS}, got {metrics!r}")
        self.seed = seed
        self.root = root
        self.metrics = metrics
        self.rng = random.Random(f"rouge155py-differential:{metrics}:{seed}")
        self.features: list[str] = []

    # -- small draws ---------------------------------------------------------

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, items: Sequence[T], weights: Sequence[float] | None = None) -> T:
        if weights is None:
            return self.rng.choice(items)
        return self.rng.choices(items, weights=weights)[0]

    def word(self) -> bytes:
        if self.chance(0.07):
            return self.rng.choice(_SPECIALS)
        x = self.rng.random() * _WORD_CUM[-1]
        return _WORDS[min(bisect.bisect_left(_WORD_CUM, x), len(_WORDS) - 1)]

    def content_word(self) -> bytes:
        """A vocabulary word from past the stop-word head of the list."""
        return self.rng.choice(_WORDS[40:])

    # -- content -------------------------------------------------------------

    def base_sentences(self) -> list[list[bytes]]:
        return [[self.word() for _ in range(self.rng.randint(3, 11))] for _ in range(self.rng.randint(1, 4))]

    def mutate_sentence(self, sent: list[bytes], rate: float) -> list[bytes]:
        out: list[bytes] = []
        for tok in sent:
            r = self.rng.random()
            if r < rate * 0.25:
                continue
            out.append(self.word() if r < rate * 0.7 else tok)
            if self.chance(rate * 0.15):
                out.append(self.word())
        if len(out) > 1 and self.chance(rate * 0.3):
            i = self.rng.randrange(len(out) - 1)
            out[i], out[i + 1] = out[i + 1], out[i]
        return out

    def derive(self, base: list[list[bytes]], rate: float) -> list[list[bytes]]:
        doc = [self.mutate_sentence(s, rate) for s in base if not self.chance(0.1 + rate * 0.2)]
        if not doc and base and not self.chance(0.2):
            doc = [self.mutate_sentence(base[0], rate)]
        if self.chance(0.2 + rate * 0.4):
            doc.insert(self.rng.randint(0, len(doc)), self.base_sentences()[0])
        if len(doc) > 1 and self.chance(0.15):
            self.rng.shuffle(doc)
        return doc

    def render_token(self, tok: bytes) -> bytes:
        r = self.rng.random()
        if r < 0.06:
            tok = tok.capitalize()
        elif r < 0.09:
            tok = tok.upper()
        elif r < 0.10:
            tok = tok.swapcase()
        if self.chance(0.12):
            tok = tok + self.rng.choice(_SUFFIXES)
        if self.chance(0.03):
            tok = self.rng.choice(_PREFIXES) + tok
        return tok

    def render_sentence(self, toks: list[bytes], lead: bytes | None = None) -> bytes:
        """Bytes of one sentence; ``lead`` is a safe first word kept unprefixed."""
        parts = [self.render_token(t) for t in toks]
        out = b""
        for i, part in enumerate(parts):
            if i:
                out += self.rng.choice(_SEPARATORS) if self.chance(0.05) else b" "
            out += part
        if lead is not None:
            lead_text = lead.capitalize() if self.chance(0.3) else lead
            return lead_text + (b" " + out if out else b"")
        if self.chance(0.07):
            out = self.pick((b" ", b"  ", b"\t", b"\x0c")) + out
        if self.chance(0.07):
            out = out + self.pick((b" ", b"  ", b"\t"))
        return out

    def text_sentences(self, doc: list[list[bytes]], safe_lead: bool) -> list[tuple[bytes, bool]]:
        """Rendered sentences, each with whether it must stay intact (the safe lead)."""
        out: list[tuple[bytes, bool]] = []
        for toks in doc:
            if self.chance(0.04):
                out.append((self.rng.choice(_NO_TOKEN), False))
            out.append((self.render_sentence(toks), False))
        if safe_lead:
            lead = self.rng.choice(SAFE_LEAD_WORDS)
            extra = [self.word() for _ in range(self.rng.randint(0, 5))]
            out.insert(0, (self.render_sentence(extra, lead=lead), True))
        return out

    # -- file formats --------------------------------------------------------

    def eol(self, allow_cr: bool = True) -> bytes:
        r = self.rng.random()
        if allow_cr and r < 0.03:
            self.features.append("cr-only")
            return b"\r"
        return b"\r\n" if r < 0.18 else b"\n"

    def finish(self, lines: list[bytes], eol: bytes) -> bytes:
        body = eol.join(lines)
        return body + eol if lines and not self.chance(0.1) else body

    def spl_bytes(self, sents: list[tuple[bytes, bool]]) -> bytes:
        lines: list[bytes] = []
        for text, keep in sents:
            if not keep and lines and self.chance(0.08):
                lines.append(self.pick((b"", b"", b" ", b"\t")))
            lines.append(text)
        if self.chance(0.1):
            lines.append(b"")
        return self.finish(lines, self.eol())

    def see_bytes(self, sents: list[tuple[bytes, bool]], title: str) -> bytes:
        # With a lone CR the whole file is one line that does not match the format.
        eol = self.eol(allow_cr=not any(keep for _, keep in sents))
        lines = [
            b"<html>",
            b"<head>",
            b"<title>" + title.encode("ascii") + b"</title>",
            b"</head>",
            b'<body bgcolor="white">',
        ]
        sized = self.chance(0.2)
        for i, (text, keep) in enumerate(sents, start=1):
            if self.chance(0.06):
                lines.append(self.see_junk(i))
            num = str(i).encode("ascii")
            if sized or self.chance(0.05):
                head = b'<a size="' + str(self.rng.randint(5, 40)).encode("ascii") + b'" name="'
            else:
                head = b'<a name="'
            sep = b" " if not self.chance(0.1) else self.pick((b"\t", b"  ", b" \t"))
            tail = b"</a>"
            if not keep and self.chance(0.05):
                text = text + b" <b>" + self.render_sentence([self.word()]) + b"</b> more"
            elif self.chance(0.05):
                tail = b""
            lines.append(
                head
                + num
                + b'">['
                + num
                + b"]</a>"
                + sep
                + b'<a href="#'
                + num
                + b'" id='
                + num
                + b">"
                + text
                + tail
            )
        lines += [b"</body>", b"</html>"]
        return self.finish(lines, eol)

    def see_junk(self, i: int) -> bytes:
        num = str(i).encode("ascii")
        return self.pick(
            (
                b'<a name="x'
                + num
                + b'">['
                + num
                + b']</a> <a href="#'
                + num
                + b'" id='
                + num
                + b">junk words</a>",
                b' <a name="'
                + num
                + b'">['
                + num
                + b']</a> <a href="#'
                + num
                + b'" id='
                + num
                + b">leading space</a>",
                b'<A NAME="'
                + num
                + b'">['
                + num
                + b']</A> <A HREF="#'
                + num
                + b'" ID='
                + num
                + b">upper tags</A>",
                b'<a name="'
                + num
                + b'">['
                + num
                + b']</a><a href="#'
                + num
                + b'" id='
                + num
                + b">no gap</a>",
                b'<a name="' + num + b'">[' + num + b']</a> <a href="#' + num + b'" id=' + num + b"></a>",
                b"<p>plain paragraph text</p>",
                b"stray text line",
            )
        )

    def isi_bytes(self, sents: list[tuple[bytes, bool]]) -> bytes:
        # With a lone CR the whole file is one line that does not match the format.
        eol = self.eol(allow_cr=not any(keep for _, keep in sents))
        lines = [b"<DOC>", b"<TEXT>"]
        for i, (text, keep) in enumerate(sents, start=1):
            if self.chance(0.06):
                lines.append(self.isi_junk(i))
            sntno = str(i).encode("ascii")
            if self.chance(0.1):
                sntno = self.pick((sntno + b",a", b"s" + sntno, sntno + b"b,c"))
            tail = b"</S>"
            if self.chance(0.05):
                tail += self.pick((b" trailing", b"<P>", b"\t"))
            if not keep and self.chance(0.04):
                text = text + b" a<b"
            lines.append(b'<S SNTNO="' + sntno + b'">' + text + tail)
        lines += [b"</TEXT>", b"</DOC>"]
        return self.finish(lines, eol)

    def isi_junk(self, i: int) -> bytes:
        num = str(i).encode("ascii")
        return self.pick(
            (
                b'<S SNTNO="X' + num + b'">upper number ignored</S>',
                b'<s SNTNO="' + num + b'">lower tag ignored</s>',
                b'<S SNTNO="' + num + b'">no closing tag',
                b' <S SNTNO="' + num + b'">leading space</S>',
                b'<S SNTNO="">empty number</S>',
                b"plain line",
            )
        )

    # -- BE ------------------------------------------------------------------

    def be_field(self) -> bytes:
        if self.chance(0.04):
            return self.pick((b"-LRB-", b"U.S.", b"new-york", b"$5", b"1990", b"nil ", b"a"))
        if self.chance(0.12):
            return self.content_word() + b" " + self.content_word()
        return self.content_word()

    def base_triples(self) -> list[tuple[bytes, bytes, bytes]]:
        return [
            (
                self.be_field(),
                b"nil" if self.chance(0.45) else self.be_field(),
                self.pick(_BE_RELATIONS),
            )
            for _ in range(self.rng.randint(2, 8))
        ]

    def derive_triples(
        self, base: list[tuple[bytes, bytes, bytes]], rate: float
    ) -> list[tuple[bytes, bytes, bytes]]:
        out = []
        for head, mod, rel in base:
            if self.chance(rate * 0.4):
                continue
            if self.chance(rate * 0.3):
                head = self.be_field()
            if self.chance(rate * 0.3):
                mod = b"nil" if self.chance(0.4) else self.be_field()
            if self.chance(rate * 0.2):
                rel = self.pick(_BE_RELATIONS)
            out.append((head, mod, rel))
            if self.chance(0.1):
                out.append((head, mod, rel))
        if self.chance(rate):
            out.extend(self.base_triples()[:2])
        return out

    def be_bytes(self, triples: list[tuple[bytes, bytes, bytes]]) -> bytes:
        lines = []
        for head, mod, rel in triples:
            fields = []
            for value in (head, mod, rel):
                r = self.rng.random()
                if r < 0.08:
                    value = value.upper()
                elif r < 0.12:
                    value = value.capitalize()
                elif r < 0.14:
                    value = b" " + value
                elif r < 0.16:
                    value = value + b" "
                fields.append(value)
            if self.chance(0.02):
                fields[0] = b""
            lines.append(b"|".join(fields))
        # A lone CR does not end a BE line: the Perl would die on the joined fields.
        return self.finish(lines, self.eol(allow_cr=False))


def _bad_be_line(builder: _Builder) -> bytes:
    return builder.pick((b"foo|bar", b"foo|bar|", b"", b"a|b|c|d", b"single"))


def make_case(seed: int, root: Path, metrics: str) -> Case:
    """Write case ``seed`` of kind ``metrics`` ("N" or "ALL") under ``root``."""
    b = _Builder(seed, root, metrics)
    rng = b.rng
    root.mkdir(parents=True, exist_ok=True)

    failure: str | None = None
    if b.chance(FAILURE_RATE):
        failure = str(b.pick(FAILURE_KINDS_N if metrics == "N" else FAILURE_KINDS_ALL))

    # Which metrics and inputs: text (SEE/SPL/ISI), SIMPLE BE, or BE over ISI.
    if metrics == "N":
        kind = "text"
    elif failure == "be_bad_line":
        kind = "be"
    elif failure in ("bad_w", "w_empty_model"):
        kind = "text"
    else:
        kind = str(b.pick(("text", "be", "be_isi"), (75, 22, 3)))
    b.features.append(kind)

    opts: dict[str, str | None] = {}
    if metrics == "N":
        opts["x"] = None
        opts["n"] = str(rng.randint(1, 4))
    else:
        if kind in ("text", "be_isi"):
            if b.chance(0.7):
                opts["n"] = str(rng.randint(1, 4))
            if b.chance(0.2):
                opts["x"] = None
            if b.chance(0.4) or failure == "w_empty_model":
                opts["w"] = str(b.pick(("1.2", "1.5", "2", "1.2", "1.5", "1", "3", "1.20")))
            if b.chance(0.45):
                opts["2"] = str(b.pick(("-1", "0", "1", "4", "-1", "4", "2", "04")))
                if b.chance(0.4):
                    opts["u"] = None
                if b.chance(0.3):
                    opts["U"] = None
            elif b.chance(0.03):
                opts[str(b.pick(("u", "U")))] = None
        if kind in ("be", "be_isi"):
            opts["3"] = str(b.pick(_BE_MODES))
            if kind == "be" and b.chance(0.1):
                opts["x"] = None
    if b.chance(0.35):
        opts["m"] = None
    if b.chance(0.06 if metrics == "N" else 0.1):
        opts["M"] = None
    if b.chance(0.25):
        opts["s"] = None
    r = rng.random()
    if r < 0.15 or failure == "l_and_b":
        opts["l"] = str(b.pick((rng.randint(1, 8), rng.randint(1, 30), 0), (60, 38, 2)))
    elif r < 0.3:
        opts["b"] = str(b.pick((rng.randint(2, 30), rng.randint(2, 150)), (40, 60)))
    if failure == "l_and_b":
        opts["b"] = str(rng.randint(5, 80))
    if b.chance(0.3):
        opts["f"] = str(b.pick(("A", "B"), (3, 7)))
    if b.chance(0.3):
        opts["p"] = str(b.pick(("0", "0.3", "0.5", "1", "0.25", "0.8", "0.50")))
    if b.chance(0.25):
        opts["t"] = str(b.pick(("0", "1", "2")))
    if b.chance(0.97):
        opts["r"] = str(b.pick((rng.randint(1, 20), rng.randint(1, 200), 1000), (40, 57, 3)))
    if b.chance(0.3):
        opts["c"] = str(b.pick(("0", "50", "90", "95", "95.5", "100", "95.0", "99")))
    if b.chance(0.3):
        opts["d"] = None
    if failure == "bad_c":
        opts["c"] = str(b.pick(("101", "100.5", "-1")))
    elif failure == "bad_p":
        opts["p"] = str(b.pick(("2", "1.5", "-0.5")))
    elif failure == "bad_w":
        opts["w"] = str(b.pick(("0", "-1", "0.0")))
    if failure is None and b.chance(0.05):
        _odd_values(b, opts)
    needs_safe_models = "w" in opts and failure != "bad_w"

    # Configuration style and evaluation layout.
    if failure == "bad_xml":
        list_mode = False
    else:
        list_mode = b.chance(0.2)
    if list_mode:
        b.features.append("filelist")
    if kind == "be":
        fmt_pool: tuple[str, ...] = ("SIMPLE",)
    elif kind == "be_isi":
        fmt_pool = ("ISI",)
    else:
        fmt_pool = ("SEE", "SPL", "ISI")
    list_fmt = str(b.pick(fmt_pool))

    n_evals = int(b.pick((1, 2, 3, 4), (30, 40, 22, 8)))
    if b.chance(0.05):
        # Enough instances for string and numeric orders of the IDs to differ.
        n_evals = rng.randint(5, 12)
        b.features.append("many-evals")
    numeric_evals = b.chance(0.5)
    if list_mode:
        eval_ids = [str(i + 1) for i in range(n_evals)]
    elif numeric_evals:
        width = 3 if b.chance(0.1) else 0
        eval_ids = [f"{v:0{width}d}" for v in rng.sample(range(300), n_evals)]
    else:
        stem = str(b.pick(("D06", "d30", "topic", "T", "D")))
        eval_ids = [
            stem + str(b.pick((f"{v:02d}", f"{v}", f"{v:03d}A", f"{v}.x")))
            for v in rng.sample(range(1, 99), n_evals)
        ]
        if len(set(eval_ids)) < len(eval_ids):
            eval_ids = [f"D{i:04d}" for i in rng.sample(range(1, 9999), n_evals)]
    b.features.append("numeric-evals" if numeric_evals or list_mode else "alpha-evals")
    merged = not list_mode and failure is None and n_evals > 1 and b.chance(0.04)
    if merged:
        eval_ids[1] = eval_ids[0]
        b.features.append("duplicate-eval-id")

    numeric_peers = b.chance(0.5)
    n_peers = 1 if list_mode else int(b.pick((1, 2, 3, 4, 6), (30, 35, 20, 12, 3)))
    if numeric_peers:
        peer_ids = [str(v) for v in rng.sample(range(40), n_peers)]
    else:
        peer_ids = rng.sample(["A", "B", "C", "sysX", "run2", "Z", "peer", "b", "a.1"], n_peers)
    system_id: str | None = None
    use_all = False
    if list_mode:
        if b.chance(0.6):
            system_id = str(b.pick(("sys1", "27", "X", "run-a")))
        peer_ids = [system_id or "X"]
        use_all = b.chance(0.15)
    elif b.chance(0.75) or failure is not None:
        use_all = True
        if b.chance(0.05):
            system_id = peer_ids[0]
    else:
        system_id = peer_ids[0] if b.chance(0.92) else "NOSUCH"
    if use_all:
        opts["a"] = None
    evaluated = set(peer_ids) if use_all or list_mode else {system_id}

    evals: list[_Eval] = []
    for e_index, eval_id in enumerate(eval_ids):
        fmt = list_fmt if list_mode else str(b.pick(fmt_pool))
        if merged and e_index == 1:
            # A merged evaluation reads every file with its last INPUT-FORMAT.
            fmt = evals[0].fmt
        spelling = fmt if list_mode or b.chance(0.9) else str(b.pick((fmt.lower(), fmt.title())))
        ev = _Eval(eval_id, fmt, spelling)
        n_models = int(b.pick((1, 2, 3, 4, 5), (30, 30, 20, 12, 8)))
        model_style = b.pick(("letters", "numbers", "prefixed"))
        for j in range(n_models):
            if model_style == "letters":
                mid = "ABCDE"[j]
            elif model_style == "numbers":
                mid = str(j + 1)
            else:
                mid = f"M{j}"
            ev.models.append((mid, f"e{e_index}.{eval_id}.M.{mid}"))
        if n_models > 1 and failure is None and b.chance(0.03):
            ev.models.append((ev.models[0][0], f"e{e_index}.{eval_id}.M.dup"))
            b.features.append("duplicate-model-id")
        for pid in peer_ids:
            if list_mode or (e_index == 0 and failure is not None) or not b.chance(0.2):
                ev.peers.append((pid, f"e{e_index}.{eval_id}.P.{pid}"))
        if not ev.peers and b.chance(0.9):
            pid = str(b.pick(peer_ids))
            ev.peers.append((pid, f"e{e_index}.{eval_id}.P.{pid}"))
        if ev.peers and failure is None and b.chance(0.02):
            # A repeated P ID: the Perl keeps the last file for it.
            pid = ev.peers[0][0]
            ev.peers.append((pid, f"e{e_index}.{eval_id}.P.{pid}.again"))
            b.features.append("duplicate-peer-id")
        if not list_mode and b.chance(0.03):
            ev.peers = [(pid, name.replace(".P.", " P ")) for pid, name in ev.peers]
            ev.models = [(mid, name.replace(".M.", " M ")) for mid, name in ev.models]
            b.features.append("spaces-in-names")
        rng.shuffle(ev.peers)
        evals.append(ev)

    # Write the summaries.
    ext = {"SEE": ".html", "SPL": ".spl", "ISI": ".isi", "SIMPLE": ".be"}
    (root / "models").mkdir(exist_ok=True)
    (root / "peers").mkdir(exist_ok=True)
    for ev in evals:
        suffix = ext[ev.fmt]
        ev.models = [(mid, name + suffix) for mid, name in ev.models]
        ev.peers = [(pid, name + suffix) for pid, name in ev.peers]
        if ev.fmt == "SIMPLE":
            base_be = b.base_triples()
            model_docs = [b.derive_triples(base_be, rng.uniform(0.1, 0.5)) for _ in ev.models]
            for (_, name), triples in zip(ev.models, model_docs):
                data = b"" if b.chance(0.05) else b.be_bytes(triples)
                (root / "models" / name).write_bytes(data)
            for _, name in ev.peers:
                if b.chance(0.1):
                    triples = b.base_triples()
                elif b.chance(0.1):
                    triples = list(model_docs[0])
                else:
                    triples = b.derive_triples(base_be, rng.uniform(0.0, 0.8))
                data = b"" if b.chance(0.05) else b.be_bytes(triples)
                (root / "peers" / name).write_bytes(data)
            continue
        base = b.base_sentences()
        model_docs_t = [b.derive(base, rng.uniform(0.1, 0.5)) for _ in ev.models]
        for (_, name), doc in zip(ev.models, model_docs_t):
            empty = not needs_safe_models and b.chance(0.03)
            sents = [] if empty else b.text_sentences(doc, needs_safe_models)
            (root / "models" / name).write_bytes(_format_bytes(b, ev.fmt, sents, name))
        for _, name in ev.peers:
            if b.chance(0.1):
                doc = b.base_sentences()
            elif b.chance(0.1):
                doc = [list(s) for s in model_docs_t[0]]
            else:
                doc = b.derive(base, rng.uniform(0.0, 0.8))
            sents = [] if b.chance(0.03) else b.text_sentences(doc, False)
            (root / "peers" / name).write_bytes(_format_bytes(b, ev.fmt, sents, name))

    # Deliberate failures that change the files.
    first = evals[0]
    if failure == "missing_model":
        mid, _ = first.models[-1]
        first.models[-1] = (mid, "no-such-model.txt")
    elif failure == "missing_peer":
        targets = [i for i, (pid, _) in enumerate(first.peers) if pid in evaluated]
        i = targets[0] if targets else 0
        first.peers[i] = (first.peers[i][0], "no-such-peer.txt")
    elif failure == "be_bad_line":
        if b.chance(0.5):
            path = root / "models" / first.models[0][1]
        else:
            targets = [name for pid, name in first.peers if pid in evaluated]
            path = root / "peers" / (targets[0] if targets else first.peers[0][1])
        lines = path.read_bytes().split(b"\n")
        lines.insert(rng.randint(0, max(0, len(lines) - 1)), _bad_be_line(b))
        path.write_bytes(b"\n".join(lines))
    elif failure == "w_empty_model":
        path = root / "models" / first.models[0][1]
        path.write_bytes(b"" if b.chance(0.6) else _format_bytes(b, first.fmt, [(b"-- !!", True)], "x"))
    elif failure == "unknown_format":
        first.fmt_spelling = str(b.pick(("TXT", "HTML", "SEEX", "BE")))

    # Configuration.
    if list_mode:
        config_name = str(b.pick(("filelist.txt", "lists/eval.lst", "./filelist.txt")))
        config_bytes = _list_bytes(b, evals)
        opts["z"] = (
            evals[0].fmt_spelling
            if failure == "unknown_format"
            else str(b.pick((list_fmt, list_fmt, list_fmt, list_fmt.lower())))
        )
    else:
        config_name = str(b.pick(("rouge.xml", "config/eval.xml", "./rouge.xml")))
        config_bytes = _xml_bytes(b, evals)
        if failure == "bad_xml":
            config_bytes = _break_xml(b, config_bytes)
    config_path = root / config_name
    config_path.parent.mkdir(parents=True, exist_ok=True)
    config_path.write_bytes(config_bytes)

    positional = [config_name]
    if system_id is not None:
        positional.append(system_id)
    if failure is None and b.chance(0.02):
        # Getopt::Std stops at the configuration file: later words are positional.
        if system_id is None and not list_mode:
            positional.append(str(b.pick(("-a", "-x"))))
        else:
            positional.append(str(b.pick(("extra", "-n", "-a"))))
        b.features.append("trailing-args")
    words = _render_options(b, opts)
    if b.chance(0.015):
        # Getopt::Std warns about an unknown option and carries on.
        words.insert(0, str(b.pick(("-k", "-q", "-y"))))
        b.features.append("unknown-option")
    if b.chance(0.02):
        words.append("--")
        b.features.append("double-dash")
    if b.chance(VERBOSE_RATE):  # drawn last: the cases' other draws stay as they were
        words.insert(0, "-v")
        b.features.append("verbose")
    args = words + positional
    return Case(
        seed=seed,
        metrics=metrics,
        args=args,
        cwd=root,
        config=config_name,
        file_list=list_mode,
        expect_failure=failure,
        features=b.features,
    )


def _format_bytes(b: _Builder, fmt: str, sents: list[tuple[bytes, bool]], name: str) -> bytes:
    if not sents:
        return b""
    if fmt == "SEE":
        return b.see_bytes(sents, name)
    if fmt == "ISI":
        return b.isi_bytes(sents)
    return b.spl_bytes(sents)


def _tag(b: _Builder, name: str) -> str:
    r = b.rng.random()
    if r < 0.85:
        return name
    if r < 0.95:
        return name.lower()
    return name.title()


def _root_text(b: _Builder, root: str) -> str:
    root = str(b.pick((root, root, root, f"./{root}", f"{root}/")))
    if b.chance(0.3):
        return f"\n{root}\n"
    if b.chance(0.1):
        return f" \t{root}  "
    return root


def _xml_bytes(b: _Builder, evals: list[_Eval]) -> bytes:
    odd_nodes = b.chance(0.03)
    if odd_nodes:
        b.features.append("xml-text-nodes")

    def odd(text: str) -> str:
        # The Perl keeps the last text node of an element; CDATA reads as text.
        if not odd_nodes or not b.chance(0.4):
            return text
        if b.chance(0.5):
            return f"<![CDATA[{text}]]>"
        return f"decoy<!-- note -->{text}"

    lines: list[str] = []
    if b.chance(0.3):
        lines.append('<?xml version="1.0" encoding="UTF-8"?>')
    root_tag = _tag(b, "ROUGE-EVAL")
    lines.append(f'<{root_tag} version="1.0">')
    group = b.chance(0.08)
    if group:
        lines.append("<GROUP>")
        b.features.append("nested-eval")
    for ev in evals:
        eval_tag = _tag(b, "EVAL")
        sections = []
        pr_tag = _tag(b, "PEER-ROOT")
        mr_tag = _tag(b, "MODEL-ROOT")
        sections.append([f"<{pr_tag}>{odd(_root_text(b, 'peers'))}</{pr_tag}>"])
        sections.append([f"<{mr_tag}>{odd(_root_text(b, 'models'))}</{mr_tag}>"])
        if_tag = _tag(b, "INPUT-FORMAT")
        if b.chance(0.3):
            sections.append([f'<{if_tag} TYPE="{ev.fmt_spelling}"/>'])
        else:
            sections.append([f'<{if_tag} TYPE="{ev.fmt_spelling}">', f"</{if_tag}>"])
        peers_tag, p_tag = _tag(b, "PEERS"), _tag(b, "P")
        peer_lines = [f"<{peers_tag}>"]
        for pid, name in ev.peers:
            text = f"\n  {name}\n" if b.chance(0.1) else name
            peer_lines.append(f'<{p_tag} ID="{pid}">{odd(text)}</{p_tag}>')
        peer_lines.append(f"</{peers_tag}>")
        sections.append(peer_lines)
        models_tag, m_tag = _tag(b, "MODELS"), _tag(b, "M")
        model_lines = [f"<{models_tag}>"]
        for mid, name in ev.models:
            text = f" {name} " if b.chance(0.1) else name
            model_lines.append(f'<{m_tag} ID="{mid}">{odd(text)}</{m_tag}>')
        model_lines.append(f"</{models_tag}>")
        sections.append(model_lines)
        if b.chance(0.3):
            b.rng.shuffle(sections)
        lines.append(f'<{eval_tag} ID="{ev.eval_id}">')
        if b.chance(0.05):
            lines.append("<!-- generated evaluation -->")
        for section in sections:
            lines.extend(section)
        lines.append(f"</{eval_tag}>")
    if group:
        lines.append("</GROUP>")
    lines.append(f"</{root_tag}>")
    return ("\n".join(lines) + "\n").encode("ascii")


def _break_xml(b: _Builder, data: bytes) -> bytes:
    text = data.decode("ascii")
    choice = b.rng.randrange(4)
    if choice == 0:
        cut = text.rfind("</")
        return text[:cut].encode("ascii")
    if choice == 1:
        return text.replace('ID="', 'ID="open', 1).replace('">', ">", 1).encode("ascii")
    if choice == 2:
        return text.replace("</", "</X", 1).encode("ascii")
    return text.replace(">", "> & <", 1).encode("ascii")


def _list_bytes(b: _Builder, evals: list[_Eval]) -> bytes:
    lines: list[str] = []
    if b.chance(0.5):
        lines.append("# peer model1 model2 ...")
    for ev in evals:
        if b.chance(0.15):
            lines.append(str(b.pick(("", "   ", "\t", "# another comment", "#"))))
        peer_root = str(b.pick(("peers/", "./peers/")))
        model_root = str(b.pick(("models/", "./models/")))
        paths = [_rooted(peer_root, ev.peers[0][1])]
        paths += [_rooted(model_root, name) for _, name in ev.models]
        sep = str(b.pick((" ", " ", "\t", "  ")))
        line = sep.join(paths)
        if b.chance(0.1):
            line = " " + line
        if b.chance(0.1):
            line = line + " \t"
        lines.append(line)
    eol = "\r\n" if b.chance(0.1) else "\n"
    return (eol.join(lines) + eol).encode("ascii")


def _rooted(root: str, name: str) -> str:
    # The deliberately missing files stay outside the summary directories.
    return name if name.startswith("no-such") else root + name


# Option values the Perl reads as numbers (or strings) in its own way.
_ODD_VALUES = {
    "r": ("5.7", "1e1", "0.5", "12.0", "10 "),
    "n": ("2.5", "02", "0", "1.9", "", " 2"),
    "l": ("3.5", "07", ""),
    "b": ("10.5", "020", ""),
    "2": ("1.5", "-5", "-0", "+1", "2.0", ""),
    "t": ("1.0", "3", "2.0", "0.5", "", " 1"),
    "c": ("95.", "9.5e1", "095", "97.5", "", " 95"),
    "p": (".5", "5e-1", "0.0", "1.0", ""),
    "f": ("a", "b", "C", ""),
    "w": ("0.5", "1e0", "1.25"),
    "3": ("h", "XYZ", ""),
}


def _odd_values(b: _Builder, opts: dict[str, str | None]) -> None:
    present = [key for key in _ODD_VALUES if key in opts]
    for key in ("f", "t"):
        if key not in opts:
            present.append(key)
    for key in b.rng.sample(present, min(len(present), b.rng.randint(1, 2))):
        opts[key] = str(b.pick(_ODD_VALUES[key]))
    b.features.append("odd-values")


def _render_options(b: _Builder, opts: dict[str, str | None]) -> list[str]:
    """Command-line words for ``opts``, in random order, bundled Perl-style at times."""
    items = list(opts.items())
    b.rng.shuffle(items)
    if "z" in opts and b.chance(0.3):
        # Some users always put the format first.
        items.sort(key=lambda kv: kv[0] != "z")
    if items and b.chance(0.03):
        letter, value = next(((k, v) for k, v in items if v is not None), (None, None))
        if letter is not None and letter not in "lbcpw":
            decoy = {
                "n": "1",
                "r": "7",
                "f": "A",
                "t": "0",
                "2": "3",
                "3": "H",
                "z": "SPL",
            }
            if letter in decoy and decoy[letter] != value:
                items.insert(0, (letter, decoy[letter]))
                b.features.append("repeated-option")
    words: list[str] = []
    bundle = b.chance(0.25)
    if bundle:
        b.features.append("bundled")
    i = 0
    while i < len(items):
        letter, value = items[i]
        if bundle and value is None:
            group = letter
            while i + 1 < len(items) and items[i + 1][1] is None:
                i += 1
                group += items[i][0]
            if i + 1 < len(items) and items[i + 1][1] and b.chance(0.5):
                i += 1
                letter2, value2 = items[i]
                assert value2 is not None
                if value2.strip() == value2 and b.chance(0.5):
                    words.append(f"-{group}{letter2}{value2}")
                else:
                    words += [f"-{group}{letter2}", value2]
            else:
                words.append(f"-{group}")
        elif value is None:
            words.append(f"-{letter}")
        elif bundle and value.strip() == value != "" and b.chance(0.5):
            words.append(f"-{letter}{value}")
        else:
            words += [f"-{letter}", value]
        i += 1
    return words
