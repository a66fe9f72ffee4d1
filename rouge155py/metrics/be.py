"""ROUGE-BE: Basic Elements (``head|modifier|relation``) in six matching modes."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Callable, Hashable, Iterator, Optional, Sequence

from ..errors import InputError
from ..inputs.files import ASCII_LOWER
from . import GIVEN_MODEL, GIVEN_PEER, Grams, ModelCounts, given_list, score_grams
from .base import EMPTY, Metric, Task, Trace

if TYPE_CHECKING:
    from ..inputs.readers import Document
    from ..text.corpus import Corpus

__all__ = ["BE_MODES", "BasicElements", "basic_elements"]

BE_MODES = ("H", "HM", "HMR", "HM1", "HMR1", "HMR2")
_ALNUM = re.compile(r"[A-Za-z0-9]")
_BRACKET = re.compile(r"-LRB-|-RRB-|-LSB-|-RSB-|-LCB-|-RCB-")
_WS = re.compile(r"\s+", re.ASCII)
# The Perl keeps its unit count under this key in the same hash as the BEs.
_COUNT_KEY = "_cn_"


def _fields(line: str) -> list[str]:
    fields = line.split("|")
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def _stem_phrase(phrase: str, stem: Callable[[str], str]) -> str:
    words = _WS.split(phrase)
    while words and words[-1] == "":
        words.pop()
    return " ".join(stem(w) if _ALNUM.search(w) and not _BRACKET.search(w) else w for w in words)


def _key(mode: str, head: str, modifier: str, raw: list[str]) -> Optional[str]:
    """The matching key of a BE in ``mode``, or None when the mode skips it."""
    if mode == "H":
        return head if modifier == "nil" else None
    if mode == "HM":
        return f"{head}|{modifier}" if modifier != "nil" else None
    if mode == "HMR":
        return f"{head}|{modifier}|{raw[2]}" if raw[2] != "nil" else None
    if mode == "HM1":
        return f"{head}|{modifier}"
    if mode == "HMR1":
        return f"{head}|{modifier}|{raw[2]}" if raw[1] != "nil" else None
    if mode == "HMR2":
        return f"{head}|{modifier}|{raw[2]}"
    return None


def basic_elements(lines: list[str], mode: str, stem: Optional[Callable[[str], str]], path: str) -> Grams:
    """Count the BEs of a file; ``stem`` is the token stemmer under ``-m``."""
    counts: Counter[Hashable] = Counter()
    total = 0
    for line in lines:
        raw = _fields(line.translate(ASCII_LOWER))
        if len(raw) != 3:
            raise InputError(f"{path}: invalid Basic Element line {line!r}: expected HEAD|MODIFIER|RELATION")
        head, modifier = raw[0], raw[1]
        if stem is not None:
            if len(head) > 3:
                head = _stem_phrase(head, stem)
            if len(modifier) > 3:
                modifier = _stem_phrase(modifier, stem)
        key = _key(mode, head, modifier, raw)
        if key is None:
            continue
        total += 1
        if key == _COUNT_KEY:
            total += 1
        else:
            counts[key] += 1
    return Grams(counts, total)


class BasicElements(Metric):
    """ROUGE-BE in one of :data:`BE_MODES`."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.label = f"ROUGE-BE-{mode}"

    def units(self, corpus: Corpus, document: Document, stem: bool) -> Grams:
        """The BEs of a document, counted once per stemming choice."""

        def make() -> Grams:
            stemmer = corpus.tokenizer.morph_stem if stem else None
            return basic_elements(corpus.be_lines(document), self.mode, stemmer, document.name)

        return corpus.view(("be", document, stem, self.mode), make)

    def score_pair(self, peer: Sequence[str], model: Sequence[str]) -> ModelCounts:
        # The peer is read first, as in a run: its error comes first.
        peer_units = basic_elements(given_list(peer, GIVEN_PEER), self.mode, None, GIVEN_PEER)
        model_units = basic_elements(given_list(model, GIVEN_MODEL), self.mode, None, GIVEN_MODEL)
        return score_grams(model_units, peer_units)

    def counts(self, corpus: Corpus, tasks: list[Task]) -> list[list[ModelCounts]]:
        out = []
        for t in tasks:
            # The peer is read first, models or not: a format that is not a BE format dies there.
            peer = self.units(corpus, t.peer, t.peer_stem)
            out.append(
                [
                    score_grams(self.units(corpus, m, stem), peer)
                    for m, (stem, _) in zip(t.models, t.model_stems)
                ]
            )
        return out

    def trace(self, trace: Trace, task: Task) -> Iterator[str]:
        """The units of the peer and of each model, and the model's units the peer has."""

        def units(document: Document, stem: bool) -> tuple[str, Counter[Hashable]]:
            grams = self.units(trace.corpus, document, stem)
            if not trace.corpus.be_lines(document):
                return EMPTY, grams.counts
            return trace.units(grams, True, "#"), grams.counts

        text, peer = units(task.peer, task.peer_stem)  # read first: the Perl dies there, before its line
        yield f"***P {trace.name(task.peer)}"
        yield text
        for document, (stem, _) in zip(task.models, task.model_stems):
            text, model = units(document, stem)
            yield text
            for key in model:
                if key in peer:
                    yield f"* Match: {key}"
            yield f"***M {trace.name(document)}"

    def trace_totals(self) -> tuple[str, tuple[str, str, str], bool]:
        name = f"ROUGE-BE-{self.mode}"
        return f"BE-{self.mode}", (f"{name}-R", f"{name}-P", f"{name}-F"), False
