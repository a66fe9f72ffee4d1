"""The recipe of a metric beside ROUGE: one module, one class, one registry line.

A metric here is one of the analyses' metrics (METEOR, NIST, BLEU, WER, PER, HWCM, STM):
its scores enter ``--judgments``, ``--compare``, the tables, the plots and QARLA as ROUGE's
variants and ``--scores``' columns do, and never the legacy report, whose bytes stay the Perl's.

Like ROUGE's metrics, each returns **counts**: :meth:`OtherMetric.counts` gives one row of
numbers per item (its sufficient statistics: matches, lengths, edits ...), and one function,
:meth:`OtherMetric.score`, turns counts into a score, for one item's row and for the sum of
rows over items alike (the corpus score, where the metric defines one, and every resample of
it). A metric's options are the fields of its class (a frozen dataclass), checked once when it
is made; :meth:`OtherMetric.signature` says how its scores were made.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Sequence

import numpy as np

from ..errors import UsageError

__all__ = ["PLACE", "Item", "OtherMetric", "checked"]

#: The metadata of an option that names a place (a directory), left out of the signature.
PLACE = {"place": True}


@dataclass(frozen=True)
class Item:
    """One summary to score: its sentences and each reference's, as the run's files give them
    (the raw text of each sentence: each metric tokenizes by its own rules). ``parses``: the
    names of the files (or the file IDs) a syntactic metric finds its parses by: the summary's
    first, then each reference's."""

    eval_id: str
    peer: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    parses: tuple[str, ...] = ()


@dataclass(frozen=True)
class OtherMetric(abc.ABC):
    """A metric beside ROUGE. Subclasses are frozen dataclasses whose fields are the options."""

    #: The name tables, plots and ``--metrics`` use ("NIST", "METEOR").
    name: ClassVar[str]
    #: Whether a higher score is better (False for an error rate: WER, PER).
    higher_is_better: ClassVar[bool] = True
    #: Whether a sum of items' counts gives a corpus score (NIST, BLEU, WER ...).
    corpus: ClassVar[bool] = True

    @abc.abstractmethod
    def counts(self, items: Sequence[Item]) -> np.ndarray:
        """Each item's counts, one row per item (float64, shape ``(len(items), k)``). The metric
        sees every item at once: NIST weighs n-grams by their counts in all the references."""

    @abc.abstractmethod
    def score(self, counts: np.ndarray) -> float:
        """The score of one item's counts, or of the sum of several items' (the corpus's)."""

    def item_score(self, counts: np.ndarray) -> float:
        """One item's score (sentence BLEU smooths where the corpus score does not)."""
        return self.score(counts)

    def item_scores(self, counts: np.ndarray) -> np.ndarray:
        """Each row's :meth:`item_score`."""
        return np.array([self.item_score(row) for row in counts], dtype=np.float64)

    def signature(self) -> str:
        """How the scores were made: the name and each option, but the options that say where
        files are (a field with ``metadata={"place": True}``: a place, not a setting)."""
        options = "|".join(
            f"{f.name}:{_shown(getattr(self, f.name))}" for f in fields(self) if not f.metadata.get("place")
        )
        return f"{self.name}|{options}" if options else self.name


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def checked(value: Any, kind: type, option: str, metric: str) -> Any:
    """An option's value of the right type, else a UsageError naming the metric and option."""
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise UsageError(f"{metric}: option {option} must be {kind.__name__}, got {value!r}")
    return value
