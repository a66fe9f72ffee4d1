"""Scoring Python objects: predictions and references in memory, the Perl's exact numbers.

    >>> from rouge155py import Rouge
    >>> rouge = Rouge(max_ngram=2, stem=True, multi_ref="best-f")
    >>> report = rouge.score(["the cat sat"], [["a cat sat", "the cat sits"]])
    >>> report.result("ROUGE-1").summary.average  # (R, P, F)

The texts become the documents SPL files holding them would be, scored by the
same engine as a configuration file: ``report.to_legacy()`` is what
ROUGE-1.5.5.pl prints for those files. Nothing is written anywhere.
"""

from __future__ import annotations

import inspect
import os
import sys
import textwrap
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Sequence, Union

from .errors import UsageError, described
from .inputs.texts import Predictions, References, check_multi_ref, config_from_texts, text_format
from .report import Report
from .report.index import item_index
from .run.collector import paused_gc
from .run.evaluate import evaluate
from .run.progress import ProgressFn, TerminalProgress, terminal_progress
from .settings.habits import unknown_keyword
from .settings.options import ROWS, Options
from .settings.presets import known_preset

if TYPE_CHECKING:
    from .incremental import RougeAccumulator

__all__ = ["OPTION_NAMES", "Rouge", "score"]

#: The keyword arguments :class:`Rouge` and :func:`score` take: the fields of :class:`Options`
#: but those of the doors (this door gives the evals itself).
OPTION_NAMES = tuple(row.name for row in ROWS if row.api)
#: The options that ``rouge_types`` sets (:func:`rouge155py.metrics.names.options_for`).
METRIC_OPTIONS = tuple(row.name for row in ROWS if row.metric)


#: The rules for several references of an item (see :data:`rouge155py.settings.options.MULTI_REF`).
MultiRef = Literal["average", "best", "best-f"]
PathLike = Union[str, "os.PathLike[str]"]
# The options whose default is None where giving it or not decides something (the API's default
# metrics, ROUGE-L off under be_mode, a multi-reference rule chosen), as the keywords say.
_UNSET = tuple(row.name for row in ROWS if row.unset)
_DEFAULTS = {row.name: row.default for row in ROWS}
_KEYWORDS = frozenset(OPTION_NAMES)


def _given(values: dict[str, Any]) -> dict[str, Any]:
    """The keyword options given: those whose value is not their default (a value of another
    kind, even None, is kept, for Options to refuse)."""
    given = {}
    for name, value in values.items():
        default = None if name in _UNSET else _DEFAULTS[name]
        if value is default or (type(value) is type(default) and value == default):
            continue
        given[name] = value
    return given


def _with_preset(given: dict[str, Any]) -> dict[str, Any]:
    """The keywords given, with the settings of ``preset`` (a DUC/TAC year's official options);
    a keyword the preset sets too is an error, as a flag given twice is on the command line."""
    name = given.get("preset")
    if name is None:
        return given
    from .settings.argv import preset_values

    values = preset_values(known_preset("preset", name))
    both = sorted(set(values) & set(given))
    if both:
        raise UsageError(f"preset={name!r} sets {', '.join(both)} already: leave them out, or give no preset")
    return {**values, **given}


def _signature() -> inspect.Signature:
    """:class:`Rouge`'s keywords as :func:`inspect.signature` shows them: ``rouge_types``, then
    a row's field with its default and type (None, "not chosen", for the ``unset`` rows)."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("rouge_types", keyword, default=None, annotation="Optional[Sequence[str]]"),
    ]
    for row in ROWS:
        if row.api:
            unset = row.unset and not row.annotation.startswith("Optional[")
            annotation = f"Optional[{row.annotation}]" if unset else row.annotation
            default = None if row.unset else row.default
            parameters.append(inspect.Parameter(row.name, keyword, default=default, annotation=annotation))
    return inspect.Signature(parameters, return_annotation="None")


def _keywords_doc() -> str:
    """The docstring's list of :class:`Rouge`'s keywords, each with its flags."""
    shown = []
    for row in ROWS:
        if not row.api or row.name == "multi_ref":  # multi_ref: above
            continue
        flags = [f"-{row.perl}" if row.perl else "", row.long or ""]
        named = "/".join(f"``{flag}``" for flag in flags if flag)
        shown.append(f"``{row.name}`` ({named})" if named else f"``{row.name}``")
    return textwrap.fill(
        ", ".join(shown) + ".", 96, initial_indent="    ", subsequent_indent="    ", break_on_hyphens=False
    )


class Rouge:
    """ROUGE-1.5.5 with a fixed set of options, scoring texts in memory.

    Every option is a keyword, one per field of :class:`~rouge155py.Options` but the doors' (read
    from its table), with the Perl's defaults but two:

    - ``rouge_types`` (rouge-score's names: ``["rouge1", "rouge2", "rougeLsum"]``, also
      ``rougeW-1.2``, ``rougeS4``, ``rougeSU4``; see :mod:`rouge155py.metrics.names`) sets the metric
      options below; without it or ``max_ngram``, the API scores rouge1, rouge2 and rougeLsum
      (``max_ngram=2`` with ROUGE-L), not the command line's ROUGE-L alone (not under
      ``be_mode``).
    - ``multi_ref``: how an item's several references combine, ``"average"`` (``-f A``),
      ``"best"`` (``-f B``, the highest recall) or ``"best-f"`` (rouge-score's rule: per item
      and metric, the reference of highest F). Items with several references and no rule
      (nor ``best_model``) are an error; rouge-score's dialect takes ``"best-f"``.

    The others, with their flags on the command line (see ``rouge155py -H``):
    """

    if TYPE_CHECKING:  # the keywords as type checkers see them (a test keeps them equal to the table)

        def __init__(
            self,
            *,
            rouge_types: Optional[Sequence[str]] = None,
            data_dir: Optional[PathLike] = None,
            max_ngram: Optional[int] = None,
            lcs: Optional[bool] = None,
            wlcs_weight: Optional[float] = None,
            wlcs_label: Optional[str] = None,
            skip_distance: Optional[float] = None,
            skip_label: Optional[str] = None,
            skip_unigrams: bool = False,
            skip_both: bool = False,
            be_mode: Optional[str] = None,
            stem: bool = False,
            stem_models_only: bool = False,
            stopwords: bool = False,
            stopwords_file: Optional[PathLike] = None,
            lang: Optional[str] = None,
            dialect: Optional[str] = None,
            length_limit: float = 0,
            byte_limit: float = 0,
            best_model: Optional[bool] = None,
            multi_ref: Optional[MultiRef] = None,
            models: Optional[int] = None,
            drop_models: tuple[str, ...] = (),
            model_subset: Optional[str] = None,
            jackknife: bool = False,
            alpha: float = 0.5,
            counting: int = 0,
            confidence: float = 95.0,
            confidence_label: Optional[str] = None,
            resamples: float = 1000,
            per_eval: bool = False,
            verbose: bool = False,
            jobs: int = 1,
            paraphrases: Optional[PathLike] = None,
            paraphrase_feature: Optional[str] = None,
            paraphrase_threshold: Optional[float] = None,
            paraeval_variants: str = "3",
            preset: Optional[str] = None,
        ) -> None: ...

    else:

        def __init__(self, *, rouge_types=None, **options):
            for name, value in options.items():
                if name not in _KEYWORDS:
                    raise unknown_keyword(name, value, {*_KEYWORDS, "rouge_types"})
            self._start(rouge_types, _with_preset(_given(options)))

        __init__.__signature__ = _signature()

    def _start(self, rouge_types: Optional[Sequence[str]], options: dict[str, Any]) -> None:
        """Check the options given (``_given``) and build :class:`Options` from them."""
        be_mode = options.get("be_mode")
        if be_mode is not None:
            from .metrics.be import BE_MODES  # imported by the runs that use it

            if not (isinstance(be_mode, str) and be_mode in BE_MODES):
                # The command line takes any -3 mode, as the Perl does, and then counts no BE at all.
                raise UsageError(
                    f"be_mode must be one of {', '.join(BE_MODES)} or None, got {described(be_mode)}"
                )
        #: The metric names asked for (``rouge_types``, or the default's), as the report's views show them.
        self.rouge_types: Optional[tuple[str, ...]] = None
        if rouge_types is not None:
            from .metrics.names import modern_name, options_for, perl_label

            given = sorted(set(METRIC_OPTIONS) & set(options))  # set to other than their defaults
            if given:
                raise UsageError(f"rouge_types names the metrics: not with {', '.join(given)}")
            options.update(options_for(rouge_types))
            self.rouge_types = tuple(dict.fromkeys(modern_name(perl_label(n)) for n in rouge_types))
        elif "max_ngram" not in options and be_mode is None:
            options["max_ngram"] = 2  # rouge1, rouge2 and rougeLsum (with lcs, on by default)
        options.setdefault("lcs", be_mode is None)
        if options.get("multi_ref") is None:
            if "best_model" in options:  # -f A or -f B, chosen
                options["multi_ref"] = "best" if options["best_model"] is True else "average"
            elif options.get("dialect") is not None:  # rouge-score's rule
                options["multi_ref"] = "best-f"
        self.options = Options(all_systems=True, **options)

    def score(
        self,
        predictions: Predictions,
        references: References,
        *,
        progress: Union[bool, ProgressFn, None] = None,
    ) -> Report:
        """Score predictions against references, item by item.

        One rule on both sides: a ``str`` (or bytes) is one summary whose lines are its
        sentences; :class:`~rouge155py.Sentences` is one summary given as its sentences; a list
        or tuple of them is several summaries. ``predictions``: one summary per item (a list
        there is an error showing both spellings), or a mapping system ID -> such an iterable
        (several systems, as ``-a``). ``references``: per item one summary or a list of them
        (several references: choose ``multi_ref``); a list inside that list is an error. Both
        are any ordered iterables (lists, tuples, generators, pandas Series) of one length.
        Item i is eval ``str(i + 1)``; sentence boundaries matter to ROUGE-L and ROUGE-W.

        ``progress``: ``True`` draws the command's progress line on stderr where it is a
        terminal (after 2 s, erased at the end); a function ``progress(step, done, total)`` is
        told each chunk of evals scored (step ``"scoring"``) and each table resampled
        (``"bootstrap"``), e.g. to move a tqdm bar.
        """
        reporter = _progress_function(progress)
        try:
            with paused_gc():  # documents by the hundred thousand: see paused_gc
                config = config_from_texts(predictions, references, text_format(self.options.be_mode))
                check_multi_ref(self.options.multi_ref, config.model_counts())
                report = evaluate(self.options, config, reporter)
        finally:
            if isinstance(reporter, TerminalProgress):
                reporter.close()
        report.rouge_types = self.rouge_types
        report.item_index = item_index(predictions, references)
        report.texts = config  # for the HTML page's item view (the caller holds the texts anyway)
        return report

    def accumulator(self) -> RougeAccumulator:
        """An empty :class:`~rouge155py.incremental.RougeAccumulator` of these options: ``update()``
        batch by batch, then ``compute()`` the report one :meth:`score` over every item gives."""
        from .incremental import RougeAccumulator

        return RougeAccumulator(self)


Rouge.__doc__ = f"{(Rouge.__doc__ or '').rstrip()}\n{_keywords_doc()}\n    "


def _progress_function(progress: Union[bool, ProgressFn, None]) -> Optional[ProgressFn]:
    """What ``Rouge.score``'s ``progress`` asks for: a terminal line, the caller's function, or
    nothing."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return terminal_progress(sys.stderr, quiet=False)
    if callable(progress):
        return progress
    raise UsageError(
        f"progress must be True, False, None or a function (step, done, total), got {described(progress)}"
    )


if TYPE_CHECKING:  # score's keywords are Rouge's, for type checkers (typing_extensions: Python 3.9)
    from typing_extensions import Concatenate, ParamSpec

    _P = ParamSpec("_P")

    def _keywords_of(
        init: Callable[Concatenate[Any, _P], None],
    ) -> Callable[[Callable[..., Report]], Callable[Concatenate[Predictions, References, _P], Report]]: ...

else:

    def _keywords_of(init: Callable[..., None]) -> Callable[[Callable[..., Report]], Callable[..., Report]]:
        """A function given the keywords of ``init`` (after its own two arguments), as
        :func:`inspect.signature` and the type checkers see it."""

        def given(function: Callable[..., Report]) -> Callable[..., Report]:
            own = list(inspect.signature(function).parameters.values())[:2]
            keywords = list(inspect.signature(init).parameters.values())[1:]
            function.__signature__ = inspect.Signature([*own, *keywords], return_annotation="Report")
            return function

        return given


@_keywords_of(Rouge.__init__)
def score(predictions: Predictions, references: References, **options: Any) -> Report:
    """``Rouge(**options).score(predictions, references)``: the same keywords as :class:`Rouge`."""
    return Rouge(**options).score(predictions, references)
