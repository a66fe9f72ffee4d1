"""Each item of a run as ROUGE read it, and what matched: the HTML report's item view.

A summary is shown as its words, one sentence a line: the text stage's tokens before stopwords
and stemming (the Perl's rules lowercase and keep runs of letters and digits). Each word
carries marks against one reference, as bits: :data:`UNIGRAM` a matched unigram,
:data:`BIGRAM` part of a matched bigram (bigrams run across sentences, as the n-gram reader
reads a text end to end), :data:`LCS` one of ROUGE-L's hits (the union LCS of a reference
sentence with the summary's sentences, clipped: marked on the reference, where ROUGE-L counts
them), :data:`UNCOUNTED` a word ROUGE does not count (a stopword under ``-s``). Unigram and
bigram matches are clipped as ROUGE-N clips them: a word twice in the summary and once in the
reference matches once (its first time), so the marks count the hits. Words are compared as
the run compares them (stemmed under ``-m``); length limits (``-l``, ``-b``) are not applied
to the view.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Hashable, Iterator, Optional, Sequence

from ..inputs.config import EvalConfig
from ..inputs.readers import read_sentences
from ..metrics.lcs import LcsText, hit_marks
from ..text.stage import TextStage, text_stage

if TYPE_CHECKING:
    from ..settings.options import Options

__all__ = ["BIGRAM", "LCS", "UNCOUNTED", "UNIGRAM", "ItemTexts", "Text", "item_texts", "matches"]

UNIGRAM, BIGRAM, LCS, UNCOUNTED = 1, 2, 4, 8


@dataclass(frozen=True)
class Text:
    """A summary's words, a list per sentence, and the form each is compared by (None: not counted)."""

    words: list[list[str]]
    counted: list[list[Optional[str]]]


@dataclass(frozen=True)
class ItemTexts:
    """One eval: each system's summary and the references, in the configuration's order."""

    eval_id: str
    peers: dict[str, Text]
    references: list[Text]
    reference_ids: list[str]


def _read(document: object, stage: TextStage, stem: bool) -> Text:
    words = [stage.split(sentence) for sentence in read_sentences(document)]  # type: ignore[arg-type]
    return Text(words, [[stage.counted(word, stem) for word in sentence] for sentence in words])


def item_texts(options: Options, config: EvalConfig) -> Iterator[ItemTexts]:
    """The evals of ``config`` as the run's text stage reads them (BE files have no item view)."""
    stage = text_stage(options.text)
    stem = options.text.stem
    for ev in config.evals:
        peers = {peer_id: _read(doc, stage, stem) for peer_id, doc in sorted(ev.peers.items())}
        ids = ev.model_ids or [f"M{k}" for k in range(1, len(ev.models) + 1)]
        yield ItemTexts(ev.eval_id, peers, [_read(doc, stage, stem) for doc in ev.models], list(ids))


def _positions(text: Text) -> list[tuple[int, int]]:
    return [
        (i, j)
        for i, sentence in enumerate(text.counted)
        for j, form in enumerate(sentence)
        if form is not None
    ]


def _clip(
    peer: Sequence[tuple[Hashable, Sequence[tuple[int, int]]]],
    reference: Sequence[tuple[Hashable, Sequence[tuple[int, int]]]],
    bit: int,
    peer_marks: list[list[int]],
    reference_marks: list[list[int]],
) -> None:
    """Mark the matched units of each side (``bit``), each unit as often as the other side has it."""
    budget = Counter(unit for unit, _ in reference)
    used: Counter[Hashable] = Counter()
    for unit, places in peer:
        if used[unit] < budget[unit]:
            used[unit] += 1
            for i, j in places:
                peer_marks[i][j] |= bit
    for unit, places in reference:
        if used[unit] > 0:
            used[unit] -= 1
            for i, j in places:
                reference_marks[i][j] |= bit


def matches(peer: Text, reference: Text) -> tuple[list[list[int]], list[list[int]]]:
    """The marks of each word of the summary and of the reference against it (see the module)."""
    marks = [[[UNCOUNTED if form is None else 0 for form in s] for s in t.counted] for t in (peer, reference)]
    peer_marks, reference_marks = marks
    sides = []
    for text in (peer, reference):
        places = _positions(text)
        forms = [text.counted[i][j] for i, j in places]
        unigrams = [(form, (place,)) for form, place in zip(forms, places)]
        bigrams = [((forms[k], forms[k + 1]), (places[k], places[k + 1])) for k in range(len(forms) - 1)]
        sides.append((unigrams, bigrams, forms))
    _clip(sides[0][0], sides[1][0], UNIGRAM, peer_marks, reference_marks)
    _clip(sides[0][1], sides[1][1], BIGRAM, peer_marks, reference_marks)

    def lcs_text(text: Text, forms: list[Optional[str]]) -> LcsText:
        sentences = [[form for form in s if form is not None] for s in text.counted]
        return LcsText(sentences, Counter(forms), len(forms))

    hits = hit_marks(lcs_text(reference, sides[1][2]), lcs_text(peer, sides[0][2]))
    for i, (sentence, hit) in enumerate(zip(reference.counted, hits)):
        counted = [j for j, form in enumerate(sentence) if form is not None]
        for j, is_hit in zip(counted, hit):
            if is_hit:
                reference_marks[i][j] |= LCS
    return peer_marks, reference_marks
