"""rouge-score 0.1.2's API on rouge155py's core: ``from rouge155py.rouge_score import rouge_scorer, scoring``.

The same names and the same numbers as ``from rouge_score import rouge_scorer,
scoring`` (every Score field equal as a Python float), computed by the n-gram and
LCS counts of the Perl dialect, rouge-score's text stage
(:mod:`rouge155py.text.rouge_score`) and its rule for P, R and F
(:func:`rouge155py.metrics.scoring.best_by_f`). ``RougeScorer.score_batch`` scores many
pairs in one call.
"""

from . import io, rouge_scorer, scoring, tokenize, tokenizers

__all__ = ["io", "rouge_scorer", "scoring", "tokenize", "tokenizers"]
