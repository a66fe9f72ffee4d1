"""Seeded random cases for the doors that take no configuration file.

Two kinds of case, each drawn from its seed alone:

- :func:`make_door_case`: predictions and references as Python objects for
  ``Rouge(**options).score(predictions, references)``: 1-12 items, 1-3 systems
  (a plain list or a mapping system ID -> list), 1-4 references per item (a
  plain string at times), each summary a string whose lines are its sentences,
  a list of sentence strings, or now and then bytes. :func:`write_door_case`
  writes the SPL files (or SIMPLE BE files) those objects stand for, with a
  ROUGE-EVAL configuration and the ROUGE-1.5.5.pl arguments that score them.
- :func:`make_aligned_case`: line-aligned hypothesis and reference files for
  ``rouge155py --hyp FILE --ref FILE ...``, one summary per line, sentences cut
  by a separator such as ``<q>``; :func:`write_aligned_case` writes them and the
  equivalent SPL evaluation (line i is eval ``i``). :func:`make_systems_case`:
  the same with 2-4 hypothesis files, one per system (``--hyp NAME=FILE`` or a
  file named as its system).

Words come from the differential generator's vocabulary (stop words, stemming
quirks, punctuation, Latin-1 and UTF-8 bytes, NUL and control bytes), with
non-ASCII words, upper case, empty sentences and carriage returns added. With
ROUGE-W every reference starts with a word no option can remove (the Perl dies
on an empty model), except in the few cases built to fail (``expect_failure``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union
from xml.sax.saxutils import quoteattr

from rouge155py import Options, Sentences

from .generate import _BE_MODES, _Builder

__all__ = [
    "AlignedCase",
    "DoorCase",
    "Written",
    "make_aligned_case",
    "make_door_case",
    "make_systems_case",
    "option_words",
    "summary_bytes",
    "write_aligned_case",
    "write_door_case",
    "write_evals",
]

Summary = Union[str, bytes, Sentences]

# Words a str summary may hold beyond the generator's bytes: upper-case and
# accented letters, scripts outside Latin-1, and characters that some line
# splitters (not Perl's) treat as line ends.
_UNICODE_WORDS = (
    "École",
    "ÜBER",
    "Straße",
    "naïve",
    "İzmir",
    "Ωmega",
    "東京",
    "🙂",
    "façade",
    "ﬁne",
    "Ärger",
    "a\u2028b",
    "x\x1cy",
    "p\x85q",
    "nb\u00a0sp",
    "ZEBRAS",
)
_PEER_IDS = ("1", "2", "10", "sysA", "B", "run-2", "a.1", "Z")
_SEPARATORS = ("<q>", "<q>", "<q>", "<n>", " ||| ", "¶", "\t")
# Resamples are few, to keep the Perl quick.
_RESAMPLES = (10, 200)
# A sentence the Perl finds no token in: a model holding only it is empty.
_NO_TOKEN_MODEL = "-- !!"


class _DoorBuilder(_Builder):
    """The differential generator's text drawn from a stream of its own."""

    def __init__(self, kind: str, seed: int) -> None:
        super().__init__(seed, Path(), "ALL")
        self.rng = random.Random(f"rouge155py-doors:{kind}:{seed}")

    def sentences(self, doc: list[list[bytes]], safe_lead: bool) -> list[tuple[str, bool]]:
        """Rendered sentences as str (bytes that are not UTF-8 kept by surrogateescape)."""
        out = []
        for text, keep in self.text_sentences(doc, safe_lead):
            sentence = text.decode("utf-8", "surrogateescape")
            if self.chance(0.15):
                words = sentence.split(" ")
                words.insert(self.rng.randint(1 if keep else 0, len(words)), self.pick(_UNICODE_WORDS))
                sentence = " ".join(words)
                self.features.append("unicode")
            out.append((sentence, keep))
        return out

    def summary(self, sents: list[tuple[str, bool]]) -> Summary:
        """A summary in one of the API's forms: sentence list, str with line ends, or bytes."""
        if self.chance(0.4):
            self.features.append("sentence-list")
            items: list[str] = []
            for sentence, keep in sents:
                if not keep and items and self.chance(0.1):
                    items.append(self.pick(("", "", " ", "\r")))
                    self.features.append("empty-sentence")
                items.append(sentence + "\r" if self.chance(0.05) else sentence)
            return Sentences(items)
        lines: list[str] = []
        for sentence, keep in sents:
            if not keep and lines and self.chance(0.1):
                lines.append(self.pick(("", "", " ", "\t")))
                self.features.append("empty-sentence")
            lines.append(sentence)
        r = self.rng.random()
        eol = "\r\n" if r < 0.15 else "\r" if r < 0.18 else "\n"
        if eol != "\n":
            self.features.append("cr")
        text = eol.join(lines) + (eol if lines and self.chance(0.7) else "")
        if self.chance(0.05):
            self.features.append("bytes")
            return text.encode("utf-8", "surrogateescape")
        return text

    def be_summary(self, triples: list[tuple[bytes, bytes, bytes]]) -> Summary:
        """BE lines as a str or as a list of lines (no empty line: the Perl dies on one)."""
        if self.chance(0.15) and triples:
            i = self.rng.randrange(len(triples))
            _, mod, rel = triples[i]
            triples = [*triples[:i], (self.pick(_UNICODE_WORDS[:6]).encode(), mod, rel), *triples[i + 1 :]]
            self.features.append("unicode")
        text = self.be_bytes(triples).decode("utf-8", "surrogateescape") if triples else ""
        if text and self.chance(0.35):
            self.features.append("sentence-list")
            lines = text.split("\n")
            return Sentences(lines[:-1] if lines[-1] == "" else lines)
        return text

    def options(self, be: bool) -> dict[str, Any]:
        """Keyword options for :class:`rouge155py.Rouge` (Options field names)."""
        rng = self.rng
        opts: dict[str, Any] = {}
        if be:
            opts["be_mode"] = self.pick(_BE_MODES)
        else:
            if self.chance(0.7):
                opts["max_ngram"] = rng.randint(1, 4)
            if self.chance(0.2):
                opts["lcs"] = False
            if self.chance(0.35):
                opts["wlcs_weight"] = self.pick((1.2, 1.5, 2.0, 1, 3, 1.25))
            if self.chance(0.4):
                opts["skip_distance"] = self.pick((-1, 0, 1, 4, 2, 9))
                if self.chance(0.4):
                    opts["skip_unigrams"] = True
                if self.chance(0.3):
                    opts["skip_both"] = True
            elif self.chance(0.04):
                opts[self.pick(("skip_unigrams", "skip_both"))] = True
            if not any(opts.get(k) for k in ("max_ngram", "wlcs_weight")) and "skip_distance" not in opts:
                opts.pop("lcs", None)
        if self.chance(0.35):
            opts["stem"] = True
        if self.chance(0.08):
            opts["stem_models_only"] = True
        if self.chance(0.25):
            opts["stopwords"] = True
        r = rng.random()
        if r < 0.15:
            opts["length_limit"] = rng.randint(1, 30)
        elif r < 0.3:
            opts["byte_limit"] = rng.randint(2, 150)
        if self.chance(0.35):
            opts["best_model"] = self.chance(0.7)
        if self.chance(0.3):
            opts["alpha"] = self.pick((0, 0.3, 0.5, 1, 0.25, 0.8))
        if self.chance(0.3):
            opts["counting"] = rng.randint(0, 2)
        opts["resamples"] = rng.randint(*_RESAMPLES)
        if self.chance(0.3):
            opts["confidence"] = self.pick((0, 50, 90, 95, 95.5, 100, 99))
        if self.chance(0.4):
            opts["per_eval"] = True
        if self.chance(0.5):
            opts["data_dir"] = str(Path(__file__).resolve().parents[2] / "data")
        if self.chance(0.08):
            opts["jobs"] = 2
        if "best_model" not in opts:
            opts["multi_ref"] = "average"  # the Perl's default, chosen (the API asks for a rule)
        if not be and "max_ngram" not in opts:
            opts["max_ngram"] = 0  # the Perl's default, given (the API's is rouge1, rouge2, rougeLsum)
        return opts


def _describe(parts: list[str], expect_failure: Optional[str], features: list[str], options: dict) -> str:
    """One line naming a case: its head, the failure it is built for, its features and options."""
    if expect_failure:
        parts.append(f"expect-failure={expect_failure}")
    if features:
        parts.append("features=" + ",".join(sorted(set(features))))
    parts.append(f"options={options}")
    return " ".join(parts)


@dataclass
class DoorCase:
    """Inputs of ``Rouge(**options).score(predictions, references)``."""

    seed: int
    predictions: Union[list[Summary], dict[Any, list[Summary]]]
    references: list[Union[Summary, list[Summary]]]
    options: dict[str, Any]
    expect_failure: Optional[str] = None
    features: list[str] = field(default_factory=list)

    @property
    def input_format(self) -> str:
        return "SIMPLE" if self.options.get("be_mode") else "SPL"

    def systems(self) -> dict[str, list[Summary]]:
        """Peer ID -> predictions, as the API names them."""
        if isinstance(self.predictions, Mapping):
            return {str(k): list(v) for k, v in self.predictions.items()}
        return {"1": list(self.predictions)}

    def reference_lists(self) -> list[list[Summary]]:
        """The references of each item, a lone one in a list."""
        return [[r] if isinstance(r, (str, bytes)) else list(r) for r in self.references]

    def describe(self) -> str:
        parts = [f"door seed={self.seed}", f"items={len(self.references)}"]
        return _describe(parts, self.expect_failure, self.features, self.options)


def make_door_case(seed: int) -> DoorCase:
    """Draw in-memory case ``seed``."""
    b = _DoorBuilder("api", seed)
    rng = b.rng
    be = b.chance(0.15)
    opts = b.options(be)
    failure = "w_empty_model" if opts.get("wlcs_weight") and b.chance(0.08) else None
    safe = bool(opts.get("wlcs_weight"))
    n_items = int(b.pick((1, 2, 3, 5, rng.randint(6, 12)), (15, 20, 20, 20, 25)))
    n_systems = int(b.pick((1, 2, 3), (50, 30, 20)))
    peer_ids: list[Any] = rng.sample(_PEER_IDS, n_systems)
    if b.chance(0.1):
        # An integer ID stands for its string; two IDs equal as strings are an error.
        peer_ids[0] = rng.choice([i for i in range(3, 41) if str(i) not in peer_ids])
        b.features.append("int-system-id")
    systems: dict[Any, list[Summary]] = {pid: [] for pid in peer_ids}
    references: list[Union[Summary, list[Summary]]] = []
    for _ in range(n_items):
        n_refs = int(b.pick((1, 2, 3, 4), (35, 30, 20, 15)))
        if be:
            base_be = b.base_triples()
            ref_triples = [b.derive_triples(base_be, rng.uniform(0.1, 0.5)) for _ in range(n_refs)]
            refs = [b.be_summary([] if b.chance(0.04) else t) for t in ref_triples]
            for pid in peer_ids:
                r = rng.random()
                triples = (
                    b.base_triples()
                    if r < 0.1
                    else list(ref_triples[0])
                    if r < 0.2
                    else b.derive_triples(base_be, rng.uniform(0.0, 0.8))
                )
                systems[pid].append(b.be_summary([] if b.chance(0.04) else triples))
        else:
            base = b.base_sentences()
            ref_docs = [b.derive(base, rng.uniform(0.1, 0.5)) for _ in range(n_refs)]
            refs = []
            for doc in ref_docs:
                empty = not safe and b.chance(0.04)
                refs.append(b.summary([] if empty else b.sentences(doc, safe)))
            for pid in peer_ids:
                r = rng.random()
                doc = (
                    b.base_sentences()
                    if r < 0.1
                    else [list(s) for s in ref_docs[0]]
                    if r < 0.2
                    else b.derive(base, rng.uniform(0.0, 0.8))
                )
                systems[pid].append(b.summary([] if b.chance(0.04) else b.sentences(doc, False)))
        if len(refs) == 1 and isinstance(refs[0], (str, bytes)) and b.chance(0.6):
            references.append(refs[0])
            b.features.append("lone-reference")
        else:
            references.append(refs)
    if failure is not None:
        item = rng.randrange(n_items)
        refs_i = references[item]
        rest = [] if isinstance(refs_i, (str, bytes)) else list(refs_i[1:])
        empty = ("", Sentences([]), _NO_TOKEN_MODEL, Sentences([_NO_TOKEN_MODEL, ""]))
        references[item] = [b.pick(empty), *rest]
    predictions: Union[list[Summary], dict[Any, list[Summary]]]
    if n_systems == 1 and b.chance(0.5):
        predictions = systems[peer_ids[0]]
        b.features.append("plain-list")
    else:
        predictions = systems
    return DoorCase(seed, predictions, references, opts, failure, b.features)


def summary_bytes(summary: Summary) -> bytes:
    """The bytes of the file a summary stands for: str as UTF-8, a sentence list joined by newlines."""
    if isinstance(summary, bytes):
        return summary
    if isinstance(summary, str):
        return summary.encode("utf-8", "surrogateescape")
    return "\n".join(summary).encode("utf-8", "surrogateescape")


def option_words(options: Mapping[str, Any]) -> list[str]:
    """ROUGE-1.5.5.pl options for the keyword options (without ``-e``, ``-a`` or ``-j``).

    Labels printed in the report (``-w``, ``-2``, ``-c``) are spelled as
    :class:`Options` derives them from the numbers.
    """
    be_mode = options.get("be_mode")
    fields = {k: v for k, v in options.items() if k not in ("jobs", "data_dir")}
    fields.setdefault("lcs", be_mode is None)
    o = Options(**fields)
    words: list[str] = []
    if o.max_ngram:
        words += ["-n", str(o.max_ngram)]
    if not o.lcs and be_mode is None:
        words.append("-x")
    if o.wlcs_weight is not None:
        words += ["-w", str(o.wlcs_label)]
    if o.skip_distance is not None:
        words += ["-2", str(o.skip_label)]
    if o.skip_unigrams:
        words.append("-u")
    if o.skip_both:
        words.append("-U")
    if be_mode is not None:
        words += ["-3", be_mode]
    if o.stem:
        words.append("-m")
    if o.stem_models_only:
        words.append("-M")
    if o.stopwords:
        words.append("-s")
    if o.length_limit:
        words += ["-l", str(options["length_limit"])]
    if o.byte_limit:
        words += ["-b", str(options["byte_limit"])]
    if "best_model" in options:
        words += ["-f", "B" if o.best_model else "A"]
    if "alpha" in options:
        words += ["-p", repr(float(o.alpha))]
    if "counting" in options:
        words += ["-t", str(o.counting)]
    if "resamples" in options:
        words += ["-r", str(options["resamples"])]
    if "confidence" in options:
        words += ["-c", str(o.confidence_label)]
    if o.per_eval:
        words.append("-d")
    return words


@dataclass
class Written:
    """Files written for a case: run ``-e DATA *args`` from ``cwd``."""

    cwd: Path
    args: list[str]

    def command(self, data_dir: Union[str, Path]) -> list[str]:
        return ["-e", str(data_dir), *self.args]


def write_evals(
    root: Path,
    peers: Mapping[str, Sequence[bytes]],
    models: Sequence[Sequence[bytes]],
    input_format: str = "SPL",
    config_name: str = "rouge.xml",
    eval_ids: Optional[Sequence[str]] = None,
    model_ids: Optional[Sequence[Sequence[str]]] = None,
    extra_peers: Optional[Sequence[Mapping[str, bytes]]] = None,
) -> str:
    """Summary files and a ROUGE-EVAL configuration: evals ``1``..``N`` (or ``eval_ids``), models
    ``1``..``K`` in order (or each eval's ``model_ids``); ``extra_peers``: each eval's peers
    besides ``peers``' (ID -> summary)."""
    (root / "peers").mkdir(parents=True, exist_ok=True)
    (root / "models").mkdir(parents=True, exist_ok=True)
    ext = ".be" if input_format == "SIMPLE" else ".spl"
    lines = ['<ROUGE-EVAL version="1.0">']
    for i, item_models in enumerate(models, start=1):
        lines += [
            f'<EVAL ID="{eval_ids[i - 1] if eval_ids is not None else i}">',
            "<PEER-ROOT>peers</PEER-ROOT>",
            "<MODEL-ROOT>models</MODEL-ROOT>",
            f'<INPUT-FORMAT TYPE="{input_format}"></INPUT-FORMAT>',
            "<PEERS>",
        ]
        these = {peer_id: documents[i - 1] for peer_id, documents in peers.items()}
        these.update(extra_peers[i - 1] if extra_peers is not None else {})
        for p, (peer_id, data) in enumerate(these.items()):
            name = f"e{i}.P{p}{ext}"
            (root / "peers" / name).write_bytes(data)
            lines.append(f"<P ID={quoteattr(peer_id)}>{name}</P>")
        lines += ["</PEERS>", "<MODELS>"]
        ids = model_ids[i - 1] if model_ids is not None else [str(k) for k in range(1, len(item_models) + 1)]
        for k, (model_id, data) in enumerate(zip(ids, item_models), start=1):
            name = f"e{i}.M{k}{ext}"
            (root / "models" / name).write_bytes(data)
            lines.append(f"<M ID={quoteattr(model_id)}>{name}</M>")
        lines += ["</MODELS>", "</EVAL>"]
    lines.append("</ROUGE-EVAL>")
    (root / config_name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return config_name


def write_door_case(case: DoorCase, root: Path) -> Written:
    """The files ``case`` stands for, and the ROUGE-1.5.5.pl arguments that score them."""
    root.mkdir(parents=True, exist_ok=True)
    peers = {pid: [summary_bytes(s) for s in items] for pid, items in case.systems().items()}
    models = [[summary_bytes(s) for s in refs] for refs in case.reference_lists()]
    config = write_evals(root, peers, models, case.input_format)
    return Written(root, [*option_words(case.options), "-a", config])


# -- line-aligned files ------------------------------------------------------


@dataclass
class AlignedCase:
    """Line-aligned files: the hypothesis lines of each system (``peer_ids``), then each reference file's."""

    seed: int
    lines: list[list[bytes]]
    eols: list[bytes]
    final_eol: list[bool]
    separator: Optional[str]
    options: dict[str, Any]
    stdin: bool = False
    expect_failure: Optional[str] = None
    features: list[str] = field(default_factory=list)
    peer_ids: list[str] = field(default_factory=lambda: ["1"])

    def file_bytes(self, index: int) -> bytes:
        lines, eol = self.lines[index], self.eols[index]
        # A last empty line needs its line end, or the file would hold one line fewer.
        end = eol if lines and (self.final_eol[index] or lines[-1] == b"") else b""
        return eol.join(lines) + end

    def documents(self) -> tuple[dict[str, list[bytes]], list[list[bytes]]]:
        """The SPL documents of the evals, by the door's rules read off the file bytes.

        A file's lines end at each LF (a final LF ends the last line), one
        trailing CR is dropped, and the separator becomes a line end.
        """
        cut = self.separator.encode("utf-8") if self.separator else None

        def file_lines(index: int) -> list[bytes]:
            found = self.file_bytes(index).split(b"\n")
            if found[-1] == b"":
                found.pop()
            found = [line[:-1] if line.endswith(b"\r") else line for line in found]
            return [line.replace(cut, b"\n") if cut else line for line in found]

        files = [file_lines(index) for index in range(len(self.lines))]
        systems = len(self.peer_ids)
        peers = dict(zip(self.peer_ids, files))
        models = [[found[i] for found in files[systems:]] for i in range(len(files[0]))]
        return peers, models

    def describe(self) -> str:
        refs = len(self.lines) - len(self.peer_ids)
        parts = [f"aligned seed={self.seed}", f"lines={len(self.lines[0])}", f"refs={refs}"]
        if len(self.peer_ids) > 1:
            parts.append(f"systems={self.peer_ids}")
        parts.append(f"separator={self.separator!r}")
        if self.stdin:
            parts.append("stdin")
        return _describe(parts, self.expect_failure, self.features, self.options)


def make_aligned_case(seed: int) -> AlignedCase:
    """Draw line-aligned case ``seed``: one hypothesis file."""
    return _aligned_case(_DoorBuilder("aligned", seed), seed, ["1"])


def make_systems_case(seed: int) -> AlignedCase:
    """Draw line-aligned case ``seed`` with 2-4 hypothesis files, one per system."""
    b = _DoorBuilder("systems", seed)
    return _aligned_case(b, seed, b.rng.sample(_PEER_IDS, b.rng.randint(2, 4)))


def _aligned_case(b: _DoorBuilder, seed: int, peer_ids: list[str]) -> AlignedCase:
    """A line-aligned case drawn by ``b``: one hypothesis file per peer ID, then the references."""
    rng = b.rng
    systems = len(peer_ids)
    opts = b.options(be=False)
    opts.pop("data_dir", None)
    safe = bool(opts.get("wlcs_weight"))
    failure = "w_empty_model" if safe and b.chance(0.1) else None
    separator = b.pick(_SEPARATORS) if b.chance(0.75) else None
    sep = separator.encode("utf-8") if separator else None
    n_lines = int(b.pick((1, 2, rng.randint(3, 12)), (15, 15, 70)))
    n_refs = int(b.pick((1, 2, 3), (45, 35, 20)))

    def line(doc: list[list[bytes]], lead: bool, may_be_empty: bool) -> bytes:
        if may_be_empty and b.chance(0.05):
            b.features.append("empty-line")
            return b""
        parts = [s.encode("utf-8", "surrogateescape") for s, _ in b.sentences(doc, lead)]
        if sep is None:
            if b.chance(0.1):
                b.features.append("unsplit-marker")
                return b" <q> ".join(parts)
            return b" ".join(parts)
        joiner = sep if b.chance(0.8) else b" " + sep + b" "
        text = joiner.join(parts)
        if not lead and b.chance(0.08):
            text = sep + text
            b.features.append("leading-separator")
        if b.chance(0.08):
            text = text + sep + (sep if b.chance(0.5) else b"")
            b.features.append("trailing-separator")
        if len(parts) > 1 and b.chance(0.05):
            text = text.replace(sep, sep + sep, 1)
            b.features.append("empty-sentence")
        return text

    lines: list[list[bytes]] = [[] for _ in range(n_refs + systems)]
    for _ in range(n_lines):
        base = b.base_sentences()
        ref_docs = [b.derive(base, rng.uniform(0.1, 0.5)) for _ in range(n_refs)]
        for k, doc in enumerate(ref_docs, start=systems):
            lines[k].append(line(doc, safe, not safe))
        for k in range(systems):
            peer_doc = b.base_sentences() if b.chance(0.1) else b.derive(base, rng.uniform(0.0, 0.8))
            lines[k].append(line(peer_doc, False, True))
    for found in lines:
        if b.chance(0.05):
            i = rng.randrange(n_lines)
            found[i] = found[i] + b"\r"
            b.features.append("trailing-cr")
        if b.chance(0.04):
            i = rng.randrange(n_lines)
            found[i] = found[i].replace(b" ", b" \r ", 1)
            b.features.append("inner-cr")
    if failure is not None:
        k = rng.randint(systems, systems + n_refs - 1)
        lines[k][rng.randrange(n_lines)] = b.pick((b"", _NO_TOKEN_MODEL.encode()))
    eols = [b"\r\n" if b.chance(0.3) else b"\n" for _ in lines]
    if b"\r\n" in eols:
        b.features.append("crlf")
    final_eol = [b.chance(0.85) for _ in lines]
    stdin = b.chance(0.25)
    return AlignedCase(seed, lines, eols, final_eol, separator, opts, stdin, failure, b.features, peer_ids)


def write_aligned_case(case: AlignedCase, root: Path) -> tuple[list[str], Written]:
    """Write the line-aligned files and their SPL equivalent.

    Returns the rouge155py arguments for the files (without ``-e``; ``--hyp -``
    when the case reads the hypothesis from standard input, whose bytes are
    ``case.file_bytes(0)``) and the equivalent evaluation for ROUGE-1.5.5.pl.
    With several systems each hypothesis is ``--hyp NAME=FILE`` or a file named
    as its system (``hyps/NAME.txt``), the first one read from standard input
    (``NAME=-``) when the case says so.
    """
    root.mkdir(parents=True, exist_ok=True)
    systems = len(case.peer_ids)
    if systems == 1:
        hyps = ["hyp.txt"]
    else:
        (root / "hyps").mkdir(exist_ok=True)
        hyps = [
            f"hyps/{pid}.txt" if (case.seed + k) % 3 else f"hyps/h{k}.out"
            for k, pid in enumerate(case.peer_ids)
        ]
    names = hyps + [f"ref{k}.txt" for k in range(1, len(case.lines) - systems + 1)]
    for index, name in enumerate(names):
        (root / name).write_bytes(case.file_bytes(index))
    peers, models = case.documents()
    config = write_evals(root / "spl", peers, models)
    words = option_words(case.options)
    door: list[str] = []
    for k, (pid, name) in enumerate(zip(case.peer_ids, hyps)):
        path = "-" if case.stdin and k == 0 else name
        named = systems > 1 and (path == "-" or not name.endswith(f"/{pid}.txt"))
        door += ["--hyp", f"{pid}={path}" if named else path]
    for name in names[systems:]:
        door += ["--ref", name]
    if case.separator is not None:
        spelling = ("--sep", "--sentence-separator")[case.seed % 2]
        door += [f"{spelling}={case.separator}"] if case.seed % 3 == 0 else [spelling, case.separator]
    if case.options.get("jobs", 1) > 1:
        words += ["-j", str(case.options["jobs"])]
    port_args = door + words if case.seed % 2 else words + door
    return port_args, Written(root / "spl", [*option_words(case.options), "-a", config])
