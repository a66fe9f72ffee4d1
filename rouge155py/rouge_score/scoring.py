"""rouge-score's ``scoring`` module: ``Score``, ``AggregateScore``, ``BootstrapAggregator``, ``fmeasure``.

``BootstrapAggregator`` draws from numpy's global random state exactly as
rouge-score 0.1.2 does, so that with the same state it gives the same numbers.
"""

from __future__ import annotations

import abc
import collections
from typing import TYPE_CHECKING, Any, Dict, Mapping, NamedTuple

from ..metrics.scoring import harmonic_f
from . import _surface

if TYPE_CHECKING:
    import numpy as np

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "fmeasure"]

__getattr__, __dir__ = _surface.add_names(globals(), {"np": "numpy", "six": "six"}, ("range",))


class Score(NamedTuple):
    """Precision, recall and F of one pair."""

    precision: Any
    recall: Any
    fmeasure: Any


class AggregateScore(NamedTuple):
    """The low and high ends of a confidence interval, and the mid value (the bootstrap mean)."""

    low: Any
    mid: Any
    high: Any


class BaseScorer(abc.ABC):
    """What a scorer provides: ``score(target, prediction)``, a dict of scores."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Scores of one prediction against one target."""


fmeasure = harmonic_f

# Rows drawn per numpy call in a resample: a bound on the memory of one block of resamples.
_BLOCK_VALUES = 1 << 22


class BootstrapAggregator:
    """Confidence intervals of the mean scores by bootstrap resampling (numpy's global random state)."""

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None:
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        # Dict: one of the names rouge-score's module holds, used here.
        self._scores: Dict[str, list[Any]] = collections.defaultdict(list)

    def add_scores(self, scores: Mapping[str, Any]) -> None:
        """Adds the scores of one pair (score type -> a score tuple)."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> dict[str, AggregateScore]:
        """Per score type, the low, mid and high values of each field (of the class of its first score)."""
        import numpy as np

        result = {}
        for score_type, scores in self._scores.items():
            bounds = self._bootstrap_resample(np.vstack(tuple(scores)))
            kind = scores[0].__class__
            low, mid, high = (kind(*bounds[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return result

    def _bootstrap_resample(self, matrix: np.ndarray) -> np.ndarray:
        """Rows low, mid, high (percentiles of the resample means) of each column.

        Resample i draws ``matrix.shape[0]`` rows with ``randint``, the draws of
        rouge-score's ``np.random.choice``; blocks of resamples are drawn in one call,
        the same stream.
        """
        import numpy as np

        count = matrix.shape[0]
        means = np.zeros((self._n_samples, matrix.shape[1]))
        block = max(1, _BLOCK_VALUES // max(count * matrix.shape[1], 1))
        for first in range(0, self._n_samples, block):
            size = min(block, self._n_samples - first)
            drawn = np.random.randint(0, count, size=(size, count))
            means[first : first + size] = np.mean(matrix[drawn], axis=1)
        delta = (1 - self._confidence_interval) / 2
        return np.percentile(means, 100 * np.array([delta, 0.5, 1 - delta]), axis=0)
