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
from typing import Callable, Iterator, Optional

from ..errors import RougeError
from ..inputs.config import EvalConfig
from ..inputs.files import perl_string
from ..inputs.readers import Document, limit_for_lcs, limit_for_ngrams, read_sentences
from ..metrics import Grams
from ..metrics.base import EMPTY, Metric, Task
from ..metrics.lcs import LcsText
from ..metrics.scoring import combine_models, fmt5, instance_scores
from ..report import perl_number
from ..settings.options import Options
from ..text.corpus import Corpus
from ..text.stage import TextStage
from .plan import first_missing_model, missing_model, walk_tasks

__all__ = ["EMPTY", "Trace", "verbose_traces"]

_PERL_WORDS = re.compile(r"[A-Za-z0-9]+|-")
_COUNT_KEY = "_cn_"


def verbose_traces(
    options: Options,
    config: EvalConfig,
    plan: list[Metric],
    peers: list[str],
    corpus: Corpus,
) -> tuple[list[list[str]], Optional[RougeError]]:
    """The ``-v`` lines printed before each (peer, metric) block, in the report's order, and the
    error the walk meets, if any: then the last block's lines are those the Perl prints before it
    dies (the first model of an eval that does not exist, which the Perl looks for before it
    reads the eval). ``corpus``: the run's, which reads the texts (and is cleared after each)."""
    trace = Trace(options, corpus.tokenizer, corpus)
    evals = config.evals
    tasks = walk_tasks(options.text, evals, plan, peers)
    traces: list[list[str]] = []
    checked: set[int] = set()
    try:
        for peer_id in peers:
            for metric in plan:
                lines: list[str] = []
                traces.append(lines)
                for k, ev in enumerate(evals):
                    lines.extend(metric.trace_eval(ev.eval_id))
                    if peer_id in ev.peers:
                        if k not in checked:
                            name = first_missing_model(evals[k], corpus.exists)
                            if name is not None:
                                raise missing_model(name)
                            checked.add(k)
                        lines.extend(trace.task(metric, next(tasks)))  # what it yields before an error stays
                        corpus.clear()
    except RougeError as error:
        corpus.clear()
        return traces, error
    return traces, None


class Trace:
    """What the metrics' ``-v`` lines read: the texts of an instance as the Perl prints them.

    Each metric writes its own lines (:meth:`~rouge155py.metrics.base.Metric.trace`) with these.
    """

    def __init__(self, options: Options, stage: TextStage, corpus: Corpus) -> None:
        self.options = options
        self.stage = stage
        self.corpus = corpus
        self.limited = bool(options.length_limit or options.byte_limit)
        # A -z list's paths are bytes to the Perl, an XML's characters (as their IDs).
        self._from_bytes = options.file_list_format is not None
        perl_rules = getattr(stage, "splits_as_the_perl", False)
        self._words: Callable[[str], list[str]] = _PERL_WORDS.findall if perl_rules else stage.split

    def name(self, document: Document) -> str:
        """The path the Perl prints, as the characters it holds."""
        return perl_string(document.name) if self._from_bytes else document.name

    @staticmethod
    def units(grams: Grams, count_first: bool, separator: str) -> str:
        """A unit map as the Perl's ``join(separator, %map)`` prints it, its count under ``_cn_``
        (in this module's order)."""
        items = [
            (" ".join(map(str, k)) if isinstance(k, tuple) else str(k), v) for k, v in grams.counts.items()
        ]
        counted = (_COUNT_KEY, grams.total)
        ordered = [counted, *items] if count_first else [*items, counted]
        return separator.join(f"{k}{separator}{v}" for k, v in ordered)

    def task(self, metric: Metric, task: Task) -> Iterator[str]:
        """Every line of one instance: the texts and units, the totals, the instance ID."""
        yield from metric.trace(self, task)
        o = self.options
        counts = combine_models(metric.counts(self.corpus, [task])[0], o.best_model)
        model, peer, hit = (perl_number(c) for c in counts)
        recall, precision, f = (fmt5(v) for v in instance_scores(counts, o.alpha, metric.power))
        head, names, recall_only = metric.trace_totals()
        if recall_only:
            precision = f = recall
        yield f"total {head} model count: {model}"
        yield f"total {head} peer count: {peer}"
        yield f"total {head} hit: {hit}"
        for name, value in zip(names, (recall, precision, f)):
            yield f"total {name}: {value}"
        yield task.instance_id

    def gram_text(self, document: Document, stem: bool) -> tuple[Optional[str], list[str]]:
        """ROUGE-N and ROUGE-S: the n-gram reader's normalised text (None: the Perl's undefined
        text) and its tokens."""
        o = self.options
        pieces = limit_for_ngrams(read_sentences(document), o.length_limit, o.byte_limit)
        joined = " ".join(pieces)
        if self.limited and not joined:
            return None, []
        return " ".join(self._words(joined)), self.stage.tokens(pieces, stem)

    def lcs_text(self, document: Document, stem: bool, unigram_stem: bool) -> tuple[list[str], LcsText]:
        """ROUGE-L and ROUGE-W: the LCS reader's sentences as printed, and the LCS view of them."""
        o = self.options
        read = read_sentences(document)
        sentences = limit_for_lcs(read, o.length_limit, o.byte_limit)
        pieces = limit_for_ngrams(read, o.length_limit, o.byte_limit)
        unigrams = self.stage.tokens(pieces, unigram_stem)
        view = LcsText(self.stage.sentence_tokens(sentences, stem), Counter(unigrams), len(unigrams))
        return [" ".join(self._words(s)) for s in sentences], view

    @staticmethod
    def sentences(sentences: list[str], view: LcsText) -> Iterator[str]:
        """The lines of a text's sentences and of their tokens."""
        yield "\n".join(sentences)
        for i, tokens in enumerate(view.sentences):
            yield f"{i}: " + "|".join(map(str, tokens))
