"""``-v``: the Perl's debug dump, printed on stdout before each metric's lines of the report.

ROUGE-1.5.5.pl under ``-v`` prints, for every peer, metric and eval in its
walk order, the texts it read, the units it counted, the LCS hits, the totals
of the instance (``total 1-gram model count: 329``, ``total ROUGE-1-R: ...``)
and the instance ID, then that metric's usual lines. Every one of those lines
is reproduced byte for byte, except the order inside the lines the Perl takes
from its hashes (Perl's order changes from run to run): the unit dumps
``key|count|key|count...`` (BE: ``key#count#...``) list their units in the
order of their first occurrence in the text, ``_cn_`` (the unit count) where
the Perl adds it (last; first for BEs), and the ``* Match:`` lines of a BE
model follow the model's units in that same order.

These lines are computed apart from the scores, from the plain definitions
of the metrics, in one pass over the evals; the totals come from the metrics
the engine runs.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable, Hashable, Iterator, Optional

from .config import EvalConfig
from .corpus import Corpus
from .errors import RougeError
from .files import perl_string
from .metrics.base import Metric, Task
from .metrics.be import BasicElements
from .metrics.lcs import Lcs, LcsText, WeightedLcs, counted_hits
from .metrics.ngram import NGram, ngrams
from .metrics.skipbigram import SkipBigram, skip_bigrams
from .planning import missing_model, walk_tasks
from .readers import Document, limit_for_lcs, limit_for_ngrams, read_sentences
from .report import perl_number
from .scoring import combine_models, fmt5, instance_scores
from .settings.options import Options
from .text.stage import TextStage, text_stage

__all__ = ["verbose_traces"]

_PERL_WORDS = re.compile(r"[A-Za-z0-9]+|-")
_EMPTY = "---empty text---"
_COUNT_KEY = "_cn_"


def verbose_traces(
    options: Options,
    config: EvalConfig,
    plan: list[Metric],
    peers: list[str],
    missing: Callable[[int], Optional[str]],
) -> tuple[list[list[str]], Optional[RougeError]]:
    """The ``-v`` lines printed before each (peer, metric) block, in the report's order, and the
    error the walk meets, if any: then the last block's lines are those the Perl prints before it
    dies (``missing(k)`` names eval k's first model that does not exist, which the Perl looks
    for before it reads the eval)."""
    stage = text_stage(options.text)
    corpus = Corpus(stage, options.length_limit, options.byte_limit)
    dump = _Dump(options, stage, corpus)
    tasks = walk_tasks(options.text, config.evals, plan, peers)
    traces: list[list[str]] = []
    checked: set[int] = set()
    try:
        for peer_id in peers:
            for metric in plan:
                lines: list[str] = []
                traces.append(lines)
                for k, ev in enumerate(config.evals):
                    if isinstance(metric, NGram):
                        lines.append(f"@Eval ({ev.eval_id})")
                    if peer_id in ev.peers:
                        if k not in checked:
                            name = missing(k)
                            if name is not None:
                                raise missing_model(name)
                            checked.add(k)
                        lines.extend(dump.task(metric, next(tasks)))  # what it yields before an error stays
                        corpus.clear()
    except RougeError as error:
        corpus.clear()
        return traces, error
    return traces, None


def _pairs(units: Counter[Hashable], total: int, count_first: bool, separator: str) -> str:
    """A unit map as the Perl's ``join(separator, %map)`` prints it (in this module's order)."""
    items = [(" ".join(k) if isinstance(k, tuple) else str(k), v) for k, v in units.items()]
    counted = (_COUNT_KEY, total)
    ordered = [counted, *items] if count_first else [*items, counted]
    return separator.join(f"{k}{separator}{v}" for k, v in ordered)


class _Dump:
    """The lines of one instance, per kind of metric."""

    def __init__(self, options: Options, stage: TextStage, corpus: Corpus) -> None:
        self.options = options
        self.stage = stage
        self.corpus = corpus
        self.limited = bool(options.length_limit or options.byte_limit)
        # A -z list's paths are bytes to the Perl, an XML's characters (as their IDs).
        self._from_bytes = options.file_list_format is not None
        perl_rules = getattr(stage, "splits_as_the_perl", False)
        self._words: Callable[[str], list[str]] = _PERL_WORDS.findall if perl_rules else stage.split

    def _name(self, document: Document) -> str:
        """The path the Perl prints, as the characters it holds."""
        return perl_string(document.name) if self._from_bytes else document.name

    def task(self, metric: Metric, task: Task) -> Iterator[str]:
        """Every line of one instance: the texts and units, the totals, the instance ID."""
        if isinstance(metric, (Lcs, WeightedLcs)):
            yield from self._lcs(task, metric.weight if isinstance(metric, WeightedLcs) else None)
        elif isinstance(metric, BasicElements):
            yield from self._basic_elements(metric, task)
        else:
            yield from self._grams(metric, task)
        o = self.options
        counts = combine_models(metric.counts(self.corpus, [task])[0], o.best_model)
        model, peer, hit = (perl_number(c) for c in counts)
        recall, precision, f = (fmt5(v) for v in instance_scores(counts, o.alpha, metric.power))
        if isinstance(metric, NGram):
            head, names = (
                f"{metric.n}-gram",
                (f"ROUGE-{metric.n}-R", f"ROUGE-{metric.n}-P", f"ROUGE-{metric.n}-F"),
            )
        elif isinstance(metric, SkipBigram):
            assert metric.distance is not None  # a SkipBigram is made with its distance
            head = f"ROUGE-S{perl_number(metric.distance) if o.skip_label is None else o.skip_label}"
            names = (f"{head}-R", f"{head}-P", f"{head}-F")
            precision = f = recall  # the Perl prints the recall three times
        elif isinstance(metric, WeightedLcs):
            head = f"ROUGE-W-{perl_number(metric.weight) if o.wlcs_label is None else o.wlcs_label}"
            names = (f"{head}-R score", f"{head}-P score", f"{head}-F score")
        elif isinstance(metric, Lcs):
            head, names = "ROUGE-L", ("ROUGE-L-R score", "ROUGE-L-P", "ROUGE-L-F")
        else:
            mode = metric.mode  # type: ignore[attr-defined]
            head, names = f"BE-{mode}", (f"ROUGE-BE-{mode}-R", f"ROUGE-BE-{mode}-P", f"ROUGE-BE-{mode}-F")
        yield f"total {head} model count: {model}"
        yield f"total {head} peer count: {peer}"
        yield f"total {head} hit: {hit}"
        for name, value in zip(names, (recall, precision, f)):
            yield f"total {name}: {value}"
        yield task.instance_id

    # ROUGE-N and ROUGE-S: the n-gram reader's text and the units counted

    def _gram_text(self, document: Document, stem: bool) -> tuple[Optional[str], list[str]]:
        """The n-gram reader's normalised text (None: the Perl's undefined text) and its tokens."""
        o = self.options
        pieces = limit_for_ngrams(read_sentences(document), o.length_limit, o.byte_limit)
        joined = " ".join(pieces)
        if self.limited and not joined:
            return None, []
        return " ".join(self._words(joined)), self.stage.tokens(pieces, stem)

    def _grams(self, metric: Metric, task: Task) -> Iterator[str]:
        def units(tokens: list[str]) -> str:
            if isinstance(metric, NGram):
                grams = ngrams(tokens, metric.n)
            else:
                assert isinstance(metric, SkipBigram) and metric.distance is not None
                grams = skip_bigrams(tokens, metric.distance, metric.unigrams)
            return _pairs(grams.counts, grams.total, False, "|")

        def text(document: Document, stem: bool) -> Iterator[str]:
            words, tokens = self._gram_text(document, stem)
            if words is None:
                yield _EMPTY
            else:
                yield words
                yield units(tokens)

        peer = list(text(task.peer, task.peer_stem))  # read first: the Perl dies there, before its line
        yield f"***P {self._name(task.peer)}"
        yield from peer
        for model, (stem, _) in zip(task.models, task.model_stems):
            yield from text(model, stem)
            yield f"***M {self._name(model)}"

    # ROUGE-L and ROUGE-W: the LCS reader's sentences, their tokens, the hits of each model sentence

    def _lcs_text(self, document: Document, stem: bool, unigram_stem: bool) -> tuple[list[str], LcsText]:
        o = self.options
        read = read_sentences(document)
        sentences = limit_for_lcs(read, o.length_limit, o.byte_limit)
        pieces = limit_for_ngrams(read, o.length_limit, o.byte_limit)
        unigrams = self.stage.tokens(pieces, unigram_stem)
        view = LcsText(self.stage.sentence_tokens(sentences, stem), Counter(unigrams), len(unigrams))
        return [" ".join(self._words(s)) for s in sentences], view

    @staticmethod
    def _sentences(sentences: list[str], view: LcsText) -> Iterator[str]:
        yield "\n".join(sentences)
        for i, tokens in enumerate(view.sentences):
            yield f"{i}: " + "|".join(map(str, tokens))

    def _lcs(self, task: Task, weight: Optional[float]) -> Iterator[str]:
        label = "LCS: " if weight is None else "ROUGE-W: "
        sentences, peer = self._lcs_text(task.peer, task.peer_stem, task.peer_stem)
        yield f"***P {self._name(task.peer)}"
        yield from self._sentences(sentences, peer)
        for document, (stem, unigram_stem) in zip(task.models, task.model_stems):
            sentences, model = self._lcs_text(document, stem, unigram_stem)
            for hits in counted_hits(model, peer, weight):
                yield label + (" ".join(map(str, hits)) if hits else "-")
            if weight is not None and not any(model.sentences):
                return  # the Perl divides by the model's length here and dies: the totals raise
            yield f"***M {self._name(document)}"
            yield from self._sentences(sentences, model)

    # ROUGE-BE: the units of each file, the model's units the peer has

    def _basic_elements(self, metric: BasicElements, task: Task) -> Iterator[str]:
        def units(document: Document, stem: bool) -> tuple[str, Counter[Hashable]]:
            grams = metric.units(self.corpus, document, stem)
            if not self.corpus.be_lines(document):
                return _EMPTY, grams.counts
            return _pairs(grams.counts, grams.total, True, "#"), grams.counts

        text, peer = units(task.peer, task.peer_stem)  # read first: the Perl dies there, before its line
        yield f"***P {self._name(task.peer)}"
        yield text
        for document, (stem, _) in zip(task.models, task.model_stems):
            text, model = units(document, stem)
            yield text
            for key in model:
                if key in peer:
                    yield f"* Match: {key}"
            yield f"***M {self._name(document)}"
