"""What every metric provides to the engine, and the instance it is given to score.

A metric names its report label, decides how the peer and models of an
instance are stemmed (the Perl's ``-m``/``-M`` rules differ per metric), and
turns instances into :class:`~rouge155py.metrics.ModelCounts`, one per model.
Scores come later, from those counts alone (:mod:`rouge155py.metrics.scoring`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, NamedTuple, Optional, Protocol, Sequence

if TYPE_CHECKING:
    from ..inputs.readers import Document
    from ..text.corpus import Corpus
    from . import Grams, ModelCounts

__all__ = ["KernelSpec", "Metric", "Task"]

#: What the C kernel's ``score_pairs`` computes for a metric: (kind: 0 ROUGE-N, 1 skip-bigrams,
#: 2 ROUGE-L, 3 ROUGE-W; n; skip-bigram reach; ``-u`` unigrams; ROUGE-W's weight).
KernelSpec = tuple[int, int, int, bool, float]


#: A text the Perl read as undefined, as its ``-v`` lines print it.
EMPTY = "---empty text---"


class Trace(Protocol):
    """What a metric's ``-v`` lines read of an instance's texts, as the Perl prints them
    (:class:`rouge155py.run.verbose.Trace` gives it)."""

    @property
    def corpus(self) -> Corpus: ...

    def name(self, document: Document) -> str:
        """The path the Perl prints."""
        ...

    def units(self, grams: Grams, count_first: bool, separator: str) -> str:
        """A unit map as the Perl's ``join(separator, %map)`` prints it."""
        ...

    def gram_text(self, document: Document, stem: bool) -> tuple[Optional[str], list[str]]:
        """ROUGE-N and ROUGE-S: the normalised text (None: undefined) and its tokens."""
        ...

    def lcs_text(self, document: Document, stem: bool, unigram_stem: bool) -> tuple[list[str], Any]:
        """ROUGE-L and ROUGE-W: the sentences as printed, and their LCS view (a
        :class:`~rouge155py.metrics.lcs.LcsText`, which this module does not import: lcs.py
        imports it)."""
        ...

    def sentences(self, sentences: list[str], view: Any) -> Iterator[str]:
        """The lines of a text's sentences and of their tokens."""
        ...


class Task(NamedTuple):
    """One instance to score: a peer against the models of one eval, for one metric.

    ``peer_stem`` and ``model_stems`` (per model: token stemming, unigram
    stemming) are fixed when the task is planned, in the Perl's order.
    """

    peer_id: str
    metric_index: int
    eval_id: str
    peer: Document
    models: tuple[Document, ...]
    peer_stem: bool
    model_stems: tuple[tuple[bool, bool], ...]
    instance_id: str  # eval ID.peer ID: one string for all the metrics of an instance


class Metric:
    """One line group of the report."""

    label: str = ""
    #: Under ``-M`` the Perl switches ``-m`` off for good once a model has been
    #: read by a metric with this flag (every metric but ROUGE-N).
    switches_stemming: bool = True
    #: ROUGE-W's ``1/w``, applied to R and P before they are rounded.
    power: Optional[float] = None
    #: ParaEval: its counts hold the peer words matched apart (``peer_hit``), for precision.
    split_hits: bool = False

    def prepare(self, corpus: Corpus, stem: bool) -> None:
        """Load what the metric needs before any worker starts (forked workers inherit it)."""

    def take_inexact(self) -> list[str]:
        """The instance IDs scored by a fallback since the last call, which the report names
        (ParaEval's tier 1 past its bound); none for an exact metric."""
        return []

    def model_stems(self, models: int, stem_now: bool, only_models: bool) -> tuple[tuple[bool, bool], ...]:
        """(token stemming, unigram stemming) of each model of an instance."""
        forced = only_models or stem_now
        return ((forced, forced),) * models

    def counts(self, corpus: Corpus, tasks: list[Task]) -> list[list[ModelCounts]]:
        """Per task, the counts of each of its models against its peer."""
        raise NotImplementedError

    def score_pair(self, peer: Sequence[Any], model: Sequence[Any]) -> ModelCounts:
        """The counts of one peer against one model given as tokens, those a run gives for
        texts of those tokens: no corpus, no tokenizing, stemming or stopwords.

        ROUGE-N and ROUGE-S take a list of tokens each; ROUGE-L and ROUGE-W a list of
        sentences (lists of tokens), or a flat list of tokens as one sentence; ROUGE-BE its
        ``head|modifier|relation`` lines::

            >>> from rouge155py.metrics.ngram import NGram
            >>> NGram(2).score_pair("the cat sat".split(), "the cat sat down".split())
            ModelCounts(hit=2, model_count=3, peer_count=2, score=None)
        """
        raise NotImplementedError

    def kernel_spec(self) -> Optional[KernelSpec]:
        """What the C kernel computes for this metric (:mod:`~rouge155py.metrics.batch`), or None
        where it cannot: then the general path scores the runs of this metric."""
        return None

    def rs_kernel_spec(self) -> Optional[tuple[int, int]]:
        """What the kernel's rouge-score dialect (``rs_score_pairs``) computes for this metric
        (kind: 0 ROUGE-N, 2 ROUGE-L; n), or None where it cannot."""
        return None

    def trace_eval(self, eval_id: str) -> list[str]:
        """``-v``: the lines the Perl prints for each eval it walks for this metric, before its instance."""
        return []

    def trace(self, trace: Trace, task: Task) -> Iterator[str]:
        """``-v``: the lines of one instance's texts and units, before its totals."""
        raise NotImplementedError

    def trace_totals(self) -> tuple[str, tuple[str, str, str], bool]:
        """``-v``: the name in the instance's totals lines (``total ROUGE-L hit: ...``), those
        of its R, P and F lines, and whether the Perl prints the recall in all three."""
        raise NotImplementedError
