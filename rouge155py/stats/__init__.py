"""Beyond the scores: paired significance between systems, correlation with human judgments,
tables and plots.

- :func:`~rouge155py.stats.significance.compare`: paired bootstrap resampling
  (Koehn 2004) or a paired permutation test (approximate randomization, Riezler and
  Maxwell 2005) between systems, from any report's per-item scores.
- :func:`~rouge155py.stats.judgments.read_judgments` and
  :func:`~rouge155py.stats.correlation.correlate`: ROUGE variants against human
  judgments at the system, summary and global levels (needs scipy: the ``[stats]``
  extra); :func:`~rouge155py.stats.judgments.read_scores`: other metrics' scores, with
  their directions, correlated beside ROUGE's.
- :func:`~rouge155py.stats.qarla.qarla`: QARLA's QUEEN, KING and JACK (Amigó et al. 2005),
  with no human judgments; :func:`~rouge155py.stats.similarities.run_similarities` makes its
  similarities from a run's options and texts.
- :mod:`~rouge155py.stats.tables`: Markdown and LaTeX tables;
  :mod:`~rouge155py.stats.plots`: pictures (needs matplotlib: the ``[plot]`` extra).

Nothing here changes a report: the Perl's bytes are those of the run.
"""

from __future__ import annotations

from .correlation import Correlation, Correlations, correlate, williams_test
from .judgments import Judgments, MetricTable, read_judgments, read_scores
from .scores import item_scores
from .significance import Comparison, Comparisons, compare, compare_items, holm

__all__ = [
    "Comparison",
    "Comparisons",
    "Correlation",
    "Correlations",
    "Judgments",
    "MetricTable",
    "compare",
    "compare_items",
    "correlate",
    "holm",
    "item_scores",
    "read_judgments",
    "read_scores",
    "williams_test",
]
