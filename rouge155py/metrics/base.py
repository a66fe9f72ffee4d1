"""What every metric provides to the engine, and the instance it is given to score.

A metric names its report label, decides how the peer and models of an
instance are stemmed (the Perl's ``-m``/``-M`` rules differ per metric), and
turns instances into :class:`~rouge155py.metrics.ModelCounts`, one per model.
Scores come later, from those counts alone (:mod:`rouge155py.scoring`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Optional

if TYPE_CHECKING:
    from ..corpus import Corpus
    from ..readers import Document
    from . import ModelCounts

__all__ = ["Metric", "Task"]


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

    def model_stems(self, models: int, stem_now: bool, only_models: bool) -> tuple[tuple[bool, bool], ...]:
        """(token stemming, unigram stemming) of each model of an instance."""
        forced = only_models or stem_now
        return ((forced, forced),) * models

    def counts(self, corpus: Corpus, tasks: list[Task]) -> list[list[ModelCounts]]:
        """Per task, the counts of each of its models against its peer."""
        raise NotImplementedError
