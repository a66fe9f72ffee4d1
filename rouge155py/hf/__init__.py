"""rouge155py as a Hugging Face ``evaluate`` metric: HF rouge's arguments and keys, the Perl's numbers.

    import evaluate, rouge155py

    rouge = evaluate.load(rouge155py.evaluate_module_path())  # offline: the script ships here
    rouge.compute(predictions=predictions, references=references)  # HF rouge's call
    # {'rouge1': 0.41811, 'rouge2': ..., 'rougeL': ..., 'rougeLsum': ...}

The metric script (``rouge155py.py`` beside this file) only declares the inputs;
:func:`compute` does the work, and can be called without ``evaluate``.

What the keys hold, by ``dialect``:

- ``None`` (the default): ROUGE-1.5.5's numbers. ``rouge1`` .. ``rouge9``,
  ``rougeW-1.2``, ``rougeS4``, ``rougeSU4`` ... are the Perl's ROUGE-N, W, S, SU
  (:mod:`rouge155py.metrics.names`); ``rougeLsum`` is its ROUGE-L, the union LCS over a
  summary's lines; ``rougeL`` (rouge-score's LCS of each whole text) is the
  Perl's ROUGE-L of the summaries written as one line each (a second run).
  ``use_stemmer`` is ``-m`` (the Perl's Porter stemmer and WordNet exceptions).
  With ``use_aggregator`` (the default) a key holds the F average the Perl's
  report prints (its bootstrap mean of ``-r`` resamples, 5 decimals), else a
  list of each item's F (as the Perl rounds it), in the order of the inputs.
  ``tokenizer`` is refused: the Perl's words are ASCII runs of ``[a-z0-9]``.
- ``"rouge-score"``: rouge-score 0.1.2's numbers, those of HF's own ``rouge``
  module (:mod:`rouge155py.rouge_score`, ``tokenizer`` honoured): with
  ``use_aggregator`` rouge-score's ``BootstrapAggregator``'s mid F (numpy's
  global random state, as HF draws it), else each item's F.

Several references per item (a list of strings each) follow ``multi_ref``:
HF's and rouge-score's rule by default, the reference of highest F
(``"best-f"``); ``"average"`` (the Perl's ``-f A``) and ``"best"`` (``-f B``)
in the Perl dialect. Where every item has one reference, every rule gives the
same numbers. Other keyword arguments are :class:`~rouge155py.Rouge`'s
options (``resamples``, ``alpha``, ``stopwords`` ...).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

from ..errors import InvalidValue, UsageError, described
from ..inputs.texts import one_line

__all__ = ["DEFAULT_TYPES", "compute", "evaluate_module_path"]

#: HF rouge's default ``rouge_types``.
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def evaluate_module_path() -> str:
    """The path of the metric script that ``evaluate.load()`` takes (it loads offline)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "rouge155py.py")


class _Tokenizer:
    """A tokenizing callable as rouge-score's scorer takes a tokenizer (``tokenize(text)``)."""

    def __init__(self, split: Any) -> None:
        self.split = split

    def tokenize(self, text: str) -> list[str]:
        return list(self.split(text))


def _types(rouge_types: Optional[Sequence[str]]) -> list[str]:
    if rouge_types is None:
        return list(DEFAULT_TYPES)
    if isinstance(rouge_types, (str, bytes)) or not isinstance(rouge_types, Sequence) or not rouge_types:
        raise InvalidValue(
            f"rouge_types is a non-empty list of names such as 'rouge1', got {described(rouge_types)}"
        )
    return list(rouge_types)


def _check_texts(predictions: Any, references: Any) -> None:
    """HF's inputs: a list of strings, and per item a string or a non-empty list of strings."""
    for name, values in (("predictions", predictions), ("references", references)):
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise UsageError(f"{name} must be a list, got {described(values)}")
    if len(predictions) != len(references):
        raise UsageError(f"{len(predictions)} predictions but {len(references)} references")
    for k, (prediction, reference) in enumerate(zip(predictions, references)):
        if not isinstance(prediction, str):
            raise UsageError(f"prediction {k + 1} is {described(prediction)}; expected a str")
        group = reference if isinstance(reference, (list, tuple)) else [reference]
        if not group or not all(isinstance(r, str) for r in group):
            raise UsageError(
                f"reference {k + 1} is {described(reference)}; expected a str or a non-empty list of str"
            )


def _multi(references: Sequence[Any]) -> bool:
    return any(isinstance(r, (list, tuple)) for r in references)


def compute(
    predictions: Sequence[str],
    references: Sequence[Union[str, Sequence[str]]],
    rouge_types: Optional[Sequence[str]] = None,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
    tokenizer: Any = None,
    dialect: Optional[str] = None,
    multi_ref: Optional[str] = None,
    **options: Any,
) -> dict[str, Any]:
    """HF rouge's ``compute()``: per rouge type, the F of every item or its aggregate (see the module)."""
    types = _types(rouge_types)
    for name, value in (("use_aggregator", use_aggregator), ("use_stemmer", use_stemmer)):
        if not isinstance(value, bool):
            raise UsageError(f"{name} must be True or False, got {described(value)}")
    from ..settings.options import ROWS

    # Options the call's own arguments set: given again among the options, they would contradict them.
    given = sorted(row.name for row in ROWS if (row.metric or row.hf) and row.name in options)
    if given:
        raise UsageError(
            f"{', '.join(given)}: set by rouge_types, use_stemmer, dialect and multi_ref, not given apart"
        )
    _check_texts(predictions, references)
    if not predictions:  # HF's evaluate raises IndexError here, before its rouge module runs
        raise UsageError("predictions and references are empty: there is no item to score")
    call = _Call(list(predictions), list(references), types, use_aggregator, use_stemmer, tokenizer)
    if dialect is None:
        return _perl(call, multi_ref, options)
    if dialect != "rouge-score":
        raise UsageError(f"dialect must be None (ROUGE-1.5.5's) or 'rouge-score', got {described(dialect)}")
    if multi_ref not in (None, "best-f"):
        raise UsageError(f"multi_ref={multi_ref!r}: rouge-score takes the reference of highest F ('best-f')")
    if options:
        raise UsageError(f"dialect='rouge-score' takes no other option: {', '.join(sorted(options))}")
    return _rouge_score(call)


@dataclass
class _Call:
    """One ``compute()``'s texts and HF arguments, checked."""

    predictions: list[str]
    references: list[Any]
    types: list[str]
    aggregate: bool
    stem: bool
    tokenizer: Any


def _perl(call: _Call, multi_ref: Optional[str], options: dict[str, Any]) -> dict[str, Any]:
    from ..api import Rouge

    if call.tokenizer is not None:
        raise UsageError(
            "tokenizer= needs dialect='rouge-score': ROUGE-1.5.5's words are its own (runs of a-z and 0-9)"
        )
    rule: Any = multi_ref if multi_ref is not None else "best-f"  # Options checks it
    summed = [name for name in call.types if name != "rougeL"]
    # (the keys returned, the names scored, the texts): rouge-score's rougeL, the LCS of each
    # whole text, is the Perl's ROUGE-L (rougeLsum) of the texts written as one line each.
    runs: list[tuple[list[str], list[str], list[Any], list[Any]]] = []
    if summed:
        runs.append((summed, summed, call.predictions, call.references))
    if "rougeL" in call.types:
        lines = [one_line(p) for p in call.predictions], [one_line(r) for r in call.references]
        runs.append((["rougeL"], ["rougeLsum"], *lines))
    found: dict[str, Any] = {}
    for keys, names, peers, models in runs:
        report = Rouge(rouge_types=names, stem=call.stem, multi_ref=rule, **options).score(peers, models)
        for key, name in zip(keys, names):
            scores = report[name]
            found[key] = (
                scores.bootstrap_mean.fmeasure if call.aggregate else [s.fmeasure for s in scores.items]
            )
    return {name: found[name] for name in call.types}


def _rouge_score(call: _Call) -> dict[str, Any]:
    from ..rouge_score import rouge_scorer, scoring

    tokenizer = call.tokenizer
    if tokenizer is not None and not hasattr(tokenizer, "tokenize"):
        if not callable(tokenizer):
            raise UsageError(
                f"tokenizer must be a callable or have .tokenize(text), got {described(tokenizer)}"
            )
        tokenizer = _Tokenizer(tokenizer)
    try:
        scorer = rouge_scorer.RougeScorer(call.types, use_stemmer=call.stem, tokenizer=tokenizer)
        scores = scorer.score_batch(
            [list(r) if _multi([r]) else r for r in call.references], call.predictions
        )
    except ValueError as error:  # rouge-score's, which HF's rouge lets through: still a ValueError
        raise InvalidValue(str(error)) from None
    if not call.aggregate:
        return {name: [s[name].fmeasure for s in scores] for name in call.types}
    aggregator = scoring.BootstrapAggregator()
    for s in scores:
        aggregator.add_scores(s)
    result = aggregator.aggregate()
    return {name: result[name].mid.fmeasure for name in call.types}
