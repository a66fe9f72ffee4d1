"""The options of a run: :class:`Options`, whose fields are the table of settings.

Each field is declared once, with its row (:func:`~.table.setting`): its flags, check, stages,
help and faces. :data:`ROWS` is the table; the lists the faces use are derived from it here.
Options check their values where ROUGE-1.5.5.pl dies.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Optional, Protocol, TypeVar

from ..errors import LimitError, UsageError, described
from ..inputs.aligned import hypothesis_systems
from ..inputs.doors import source_of
from ..inputs.jsonl import jsonl_fields
from ..inputs.sources import Source
from ..metrics.plan import MetricSettings
from ..metrics.scoring import ScoringSettings
from ..text.stage import TextSettings
from .presets import PRESETS, known_preset
from .stages import PeerSelection, ResampleSettings
from .table import Setting, flag, ids, path, paths, real, rows_of, setting, text, whole

__all__ = [
    "DOOR_FIELDS",
    "MAX_NGRAM",
    "MAX_RESAMPLES",
    "MULTI_REF",
    "ROWS",
    "HoldsOptions",
    "Options",
    "as_options",
]

#: The largest -n: every n is a metric computed for every instance and printed.
MAX_NGRAM = 100
#: The most resamples (-r): their means take 24 bytes each while they are drawn and sorted.
MAX_RESAMPLES = 10_000_000

#: The rules for an item with several references (``multi_ref``): ``-f A``, ``-f B``, and the
#: reference of highest F (rouge-score's rule; in the Perl's dialect, its F of each reference alone).
MULTI_REF = ("average", "best", "best-f")

T = TypeVar("T")
#: The value objects :class:`Options` builds (each made once, when first asked for).
_SETTINGS = ("source", "selection", "text", "metrics", "scoring", "resampling")
#: The rows of the metrics that rouge_types names (and HF's call sets).
_METRIC: dict[str, Any] = {"stages": ("metrics",), "metric": True, "hf": True}


@dataclass(frozen=True)
class Options:
    """Everything that changes what is computed or printed, with the Perl's defaults.

    Checked when built, where the Perl dies: ``confidence`` within 0..100,
    ``alpha`` within 0..1, ``wlcs_weight`` above 0, not both length limits,
    ``counting`` 0, 1 or 2; ``lang`` (an ISO 639 code, stored as its two-letter
    form) and what goes with it (see ``_check_text_stage``); and the size limits
    of docs/errors.md (:data:`MAX_NGRAM`, :data:`MAX_RESAMPLES`), a
    :class:`LimitError`. Labels (``wlcs_label``, ``skip_label``,
    ``confidence_label``) are the values as the command line gave them; left
    None, they are the numbers as Perl prints them.
    """

    # fmt: off
    # Where the evals come from and which peers are reported: each door sets these (DOOR_FIELDS).
    config_path: Optional[str] = setting(None, path, ("source",), door=True)
    system_id: Optional[str] = setting(None, text, ("selection",), door=True)
    all_systems: bool = setting(False, flag, ("selection",), door=True, perl="a",
        synopsis="[-a (evaluate all systems)]",
        help="-a: evaluate every system of the configuration.")
    file_list_format: Optional[str] = setting(None, text, ("source",), door=True, perl="z", route="text",
        synopsis="[-z <SEE|SPL|ISI|SIMPLE>]",
        help="-z format: the configuration is a file list in this format (SEE, SPL, ISI, SIMPLE).")
    file_list_peer_id: str = setting("X", text, ("source",), door=True)
    data_dir: Optional[str] = setting(None, path, ("text",), perl="e",
        synopsis="[-e ROUGE_EVAL_HOME]",
        help="-e dir: data directory (smart_common_words.txt and WordNet exception lists).")
    max_ngram: int = setting(0, whole, **_METRIC, unset=True, perl="n", route="number", signature=("n",),
        synopsis="[-n max-ngram]",
        help="-n n: ROUGE-N for n = 1 .. n.")
    lcs: bool = setting(True, flag, **_METRIC, unset=True, perl="x", signature=("L",),
        synopsis="[-x (do not calculate ROUGE-L)]",
        help="-x: do not compute ROUGE-L.")
    wlcs_weight: Optional[float] = setting(None, real, **_METRIC, perl="w", route="number", signature=("w",),
        synopsis="[-w weight (weighting factor for WLCS)]",
        help="-w weight: ROUGE-W with weight (typically 1.2).")
    wlcs_label: Optional[str] = setting(None, text, **_METRIC, perl="w", route="text")
    skip_distance: Optional[float] = setting(None, real, **_METRIC, perl="2", route="number",
        signature=("2",),
        synopsis="[-2 max-gap-length (if < 0 then no gap length limit)]",
        help="-2 d: skip-bigrams (ROUGE-S) with at most d words between the two (d < 0: no limit).")
    skip_label: Optional[str] = setting(None, text, **_METRIC, perl="2", route="text")
    skip_unigrams: bool = setting(False, flag, **_METRIC, perl="u", route="switch", signature=("u",),
        synopsis="[-u (include unigram in skip-bigram) default no)]",
        help="-u: add unigrams to the skip-bigrams (ROUGE-SU); -U: compute both S and SU.")
    skip_both: bool = setting(False, flag, **_METRIC, perl="U", route="switch", signature=("U",),
        synopsis="[-U (same as -u but also compute regular skip-bigram)]")
    be_mode: Optional[str] = setting(None, text, ("metrics",), hf=True, perl="3", route="text",
        signature=("3",),
        synopsis="[-3 <H|HM|HMR|HM1|HMR1|HMR2> (for scoring based on BE)]",
        help="-3 mode: Basic Element scoring on SIMPLE BE files (H, HM, HMR, HM1, HMR1, HMR2).")
    stem: bool = setting(False, flag, ("text",), hf=True, perl="m", route="switch", signature=("m",),
        synopsis="[-m (use Porter stemmer)]",
        help="-m: stem with the Porter stemmer and WordNet exceptions; -M: stem models only.")
    stem_models_only: bool = setting(False, flag, ("text",), perl="M", route="switch", signature=("M",),
        synopsis="[-M (stem the models only)]")
    stopwords: bool = setting(False, flag, ("text",), perl="s", route="switch", signature=("s",),
        synopsis="[-s (remove stopwords)]",
        help="-s: remove stopwords.")
    # --stopwords FILE: the list -s removes, not the SMART list
    stopwords_file: Optional[str] = setting(None, path, ("text",), long="--stopwords", route="text",
        signature=("sw",),
        synopsis="[--stopwords FILE (for -s)]",
        help=(
            "--stopwords FILE: the words -s removes (one a line), instead of the SMART\n"
            "list; -s with --lang other than en needs it."
        ))
    # --lang: the Unicode text stage and Snowball stemmer; "en" is the legacy one
    lang: Optional[str] = setting(None, text, ("text",), long="--lang", route="text",
        signature=("lang", "tok", "stem", "nltk"),
        synopsis="[--lang LANG (any language)]",
        help=(
            "--lang LANG: text in any language (an ISO 639 code: de, ru, ar, zh ..., or a\n"
            "tag such as de-DE, pt_BR, zh-Hans):\n"
            "words of every script after NFKC and case folding, each character a word in\n"
            "Chinese, Japanese, Thai and other scripts without spaces; -m stems with the\n"
            "language's Snowball stemmer (needs nltk: pip install nltk).\n"
            "Not with -3. --lang en is the Perl's own text rules."
        ))
    # --dialect: None, the Perl's; "rouge-score", its text stage and scores
    dialect: Optional[str] = setting(None, text, ("text", "scoring"), hf=True, long="--dialect",
        route="text", signature=("dialect",),
        synopsis="[--dialect rouge-score]",
        help=(
            "--dialect rouge-score: rouge-score 0.1.2's numbers (its tokens, nltk's Porter\n"
            "stemmer under -m, F = 2PR/(P+R) unrounded, the reference with the highest F);\n"
            "ROUGE-L is its rougeLsum (a summary's lines are its sentences). Only -n, -x,\n"
            "-m and the bootstrap and output options go with it."
        ))
    length_limit: float = setting(0, real, ("text",), perl="l", route="number", signature=("l",),
        synopsis="[-b n-bytes|-l n-words]",
        help="-b n / -l n: only use the first n bytes / words of every summary.")
    byte_limit: float = setting(0, real, ("text",), perl="b", route="number", signature=("b",))
    best_model: bool = setting(False, flag, ("scoring",), hf=True, unset=True, perl="f", signature=("f",),
        synopsis="[-f A|B (scoring formula)]",
        help="-f A|B: average over models (A) or take the best model (B).")
    # None: not chosen (-f A, the Perl's default); see MULTI_REF
    multi_ref: Optional[str] = setting(None, text, ("run",), hf=True)
    # the models each eval is scored against: the first K, all but some, every set of all but one
    models: Optional[int] = setting(None, whole, ("selection",), long="--models", signature=("models",),
        synopsis="[--models K (the first K models of each eval)]",
        help=(
            "--models K: score each eval against its first K models (in the configuration's\n"
            "order); --drop-model ID (again, or ID,ID): leave model ID out of every eval."
        ))
    drop_models: tuple[str, ...] = setting((), ids, ("selection",), long="--drop-model", route="repeated",
        signature=("drop",),
        synopsis="[--drop-model ID (leave model ID out of every eval)]")
    model_subset: Optional[str] = setting(None, path, ("selection",), long="--model-subset", route="text",
        signature=("subset",),
        synopsis="[--model-subset FILE (the models of each eval it names)]",
        help=(
            "--model-subset FILE: lines 'EVAL_ID MODEL_ID ...': each eval named is scored\n"
            "against those of its models only (# starts a comment); the others keep theirs."
        ))
    jackknife: bool = setting(False, flag, ("selection", "scoring"), long="--jackknife", route="switch",
        signature=("jk",),
        synopsis="[--jackknife (each score the mean over every set of all models but one)]",
        help=(
            "--jackknife: for an eval of N >= 2 models, a peer's score is the mean of its N\n"
            "scores against each set of N - 1 of them, and each model is scored against the\n"
            "others as a system named by its ID, so that people and systems compare (DUC\n"
            "2005-2007's official tables); an eval of one model is scored as without it."
        ))
    alpha: float = setting(0.5, real, ("scoring",), perl="p", route="number", signature=("p",),
        synopsis="[-p alpha (0 <= alpha <=1)]",
        help="-p alpha: F-measure weight (alpha -> 1 favours precision).")
    counting: int = setting(0, whole, ("scoring",), hf=True, perl="t", route="number", signature=("t",),
        synopsis="[-t 0|1|2 (count by token instead of sentence)]",
        help="-t 0|1|2: average over sentences (0), over tokens (1), or print raw counts (2).")
    confidence: float = setting(95.0, real, ("resampling",), perl="c", route="number",
        synopsis="[-c cf]",
        help="-c cf: cf% confidence interval (0 <= cf <= 100), default 95.")
    confidence_label: Optional[str] = setting(None, text, ("resampling",), perl="c", route="text",
        signature=("c",))
    # -r as given: the Perl uses the value itself in the CI formula
    resamples: float = setting(1000, real, ("resampling",), perl="r", route="number", signature=("r",),
        synopsis="[-r number-of-samples (for resampling)]",
        help="-r n: number of bootstrap resamples, default 1000.")
    per_eval: bool = setting(False, flag, ("run",), perl="d", route="switch",
        synopsis="[-d (print per evaluation scores)]",
        help="-d: print each evaluation's scores.")
    verbose: bool = setting(False, flag, ("run",), hf=True, perl="v", route="switch",
        synopsis="[-v (verbose)]",
        help="-v: the Perl's debug lines on stdout (texts, tokens, counts), a summary on stderr.")
    jobs: int = setting(1, whole, ("run",), free=True, perl="j", long="--jobs",
        synopsis="[-j N | --jobs N (processes)]",
        help=(
            "-j N, --jobs N: N processes, this one and N - 1 workers (same output as one;\n"
            "    one for a run of fewer than 2,000 (peer, model) pairs, which workers slow)."
        ))
    # line-aligned files
    hypothesis_path: Optional[str] = setting(None, path, ("source",), door=True)
    reference_paths: tuple[str, ...] = setting((), paths, ("source",), door=True, long="--ref",
        route="repeated")
    sentence_separator: Optional[str] = setting(None, text, ("source",), door=True,
        long="--sentence-separator", route="text")
    # one JSON object per item
    jsonl_path: Optional[str] = setting(None, path, ("source",), door=True, long="--jsonl", route="text",
        help=(
            '--jsonl FILE: one JSON object a line, each an evaluation: {"prediction": ...,\n'
            '"references": [...]} ("predictions": {system: ...} for several systems,\n'
            '"reference" for one, "id" for its ID); a summary is a string or a list of\n'
            "sentences; --sep splits strings into sentences; --jsonl - reads standard input."
        ))
    # --jsonl-fields ROLE=KEY,...: the keys a JSONL object's roles are read from
    jsonl_fields: Optional[str] = setting(None, jsonl_fields, ("source",), door=True, long="--jsonl-fields",
        route="text",
        synopsis="[--jsonl-fields ROLE=KEY,...]",
        help=(
            "--jsonl-fields ROLE=KEY,...: read a role from another key of each object, e.g.\n"
            "prediction=summary,references=highlights,id=doc_id (roles: prediction,\n"
            "predictions, reference, references, id)."
        ))
    # --paraphrases FILE: ParaEval rows with this table
    paraphrases: Optional[str] = setting(None, path, ("metrics",), long="--paraphrases", route="text",
        signature=("paraeval", "pp"),
        synopsis="[--paraphrases FILE (ParaEval)]",
        help=(
            "--paraphrases FILE: add ParaEval-3 rows (ROUGE-1 that also matches the\n"
            "table's paraphrases: multi-word ones exactly, one-word ones greedily, then\n"
            "words). FILE: PPDB lines (LHS ||| phrase ||| paraphrase ||| features ...) or\n"
            "TSV (phrase, paraphrase[, score]), .gz too; tokenized as the summaries are\n"
            "(-m, -s apply). --paraeval-variants: 3 (default), 2 (tiers 1 and 3), P\n"
            "(paraphrases only), T (one row per tier), comma-separated.\n"
            "--paraphrase-threshold X keeps pairs scoring at least X: the PPDB feature\n"
            "--paraphrase-feature NAME (default PPDB2.0Score), or the TSV's third column.\n"
            "Not with -t 1, -t 2, -v or -3."
        ))
    # the PPDB feature compared with the threshold
    paraphrase_feature: Optional[str] = setting(None, text, ("metrics",), long="--paraphrase-feature",
        route="text", signature=("pp-feature",),
        synopsis="[--paraphrase-feature NAME]")
    # the least score of a pair kept
    paraphrase_threshold: Optional[float] = setting(None, real, ("metrics",), long="--paraphrase-threshold",
        signature=("pp-min",),
        synopsis="[--paraphrase-threshold X]")
    # the ParaEval rows: 3, 2, P, T (comma-separated)
    paraeval_variants: str = setting("3", text, ("metrics",), long="--paraeval-variants",
        synopsis="[--paraeval-variants 3,2,P,T]")
    # Each --hyp: NAME=FILE or FILE (several: several systems; see sources.hypothesis_systems).
    hypothesis_paths: tuple[str, ...] = setting((), paths, ("source",), door=True, long="--hyp",
        route="repeated",
        help=(
            "--hyp FILE --ref FILE [--ref FILE ...]: line-aligned files instead of a\n"
            "configuration, one summary per line (--hyp - reads standard input);\n"
            "--sep SEP (--sentence-separator) splits a line into sentences. Several\n"
            "--hyp are several systems, each named NAME in --hyp NAME=FILE, else by its\n"
            "file name without extension (one --hyp FILE alone is system 1)."
        ))
    # --skip-empty: items with an empty summary
    skip_empty: bool = setting(False, flag, ("source",), door=True, long="--skip-empty", route="switch",
        synopsis="[--skip-empty (with --hyp or --jsonl: leave out items with an empty summary)]",
        help=(
            "--skip-empty: with --hyp/--ref or --jsonl, leave out each item where a summary\n"
            "is empty (else scored 0); either way they are named on stderr."
        ))
    # --preset NAME: a DUC or TAC year's official options, expanded by the faces (settings/presets.py)
    preset: Optional[str] = setting(None, known_preset, ("run",), free=True, long="--preset", route="text",
        synopsis="[--preset NAME|list (a DUC/TAC year's official options)]",
        help=(
            f"--preset NAME: the options of a DUC/TAC year's official ROUGE command ({', '.join(PRESETS)}),\n"
            "put before the others (a flag given by both is an error); --preset list prints\n"
            "each with its options and its source."
        ))
    # fmt: on

    def __post_init__(self) -> None:
        for row in ROWS:
            value = getattr(self, row.name)
            if value is not None or row.default is not None:
                object.__setattr__(self, row.name, row.check(row.name, value))
        for name in ("length_limit", "byte_limit", "alpha", "resamples", "confidence"):
            if not math.isfinite(getattr(self, name)):
                raise UsageError(f"{name} must be a finite number, got {getattr(self, name)!r}")
        if self.confidence < 0 or self.confidence > 100:
            raise UsageError("Confidence interval should be within 0 and 100 (option -c).")
        if self.alpha < 0 or self.alpha > 1:
            raise UsageError(
                "Relative importance of ROUGE recall and precision (option -p) "
                "has to be between 0 and 1 inclusively."
            )
        if self.wlcs_weight is not None and not (self.wlcs_weight > 0 and math.isfinite(self.wlcs_weight)):
            raise UsageError("ROUGE-W weight factor must be greater than 0 (option -w).")
        if self.skip_distance is not None and not math.isfinite(self.skip_distance):
            raise UsageError(f"the skip distance (-2) must be a finite number, got {self.skip_distance!r}")
        if self.length_limit and self.byte_limit:
            raise UsageError("Please specify length limit in words or bytes but not both.")
        if self.counting not in (0, 1, 2):
            raise UsageError(f"counting (-t) must be 0, 1 or 2, got {described(self.counting)}")
        if self.models is not None and self.models < 1:
            raise UsageError(f"models (--models) must be 1 or more, got {self.models}")
        if self.jackknife and self.counting:
            raise UsageError("--jackknife averages each instance's scores: not with -t 1 or -t 2 (counts)")
        if self.jackknife and self.dialect is not None:
            raise UsageError("--jackknife is ROUGE-1.5.5's procedure: not with --dialect")
        if self.jackknife and self.verbose:
            raise UsageError(
                "-v prints the Perl's lines of one model set, and --jackknife averages sets: not both"
            )
        if self.jackknife and self.stem and self.stem_models_only:
            raise UsageError(
                "--jackknife with -m -M: the Perl stops stemming peers part-way through each run, "
                "so each leave-one-out run would stem otherwise; give -m or -M"
            )
        if self.max_ngram < 0:
            raise UsageError(f"max_ngram (-n) must be a whole number, got {described(self.max_ngram)}")
        if self.max_ngram > MAX_NGRAM:
            given = described(self.max_ngram)
            raise LimitError(f"-n {given}: more than {MAX_NGRAM} n-gram sizes are refused")
        if self.counting != 2 and self.resample_count > MAX_RESAMPLES:
            raise LimitError(f"{self.resample_count} resamples (-r): more than {MAX_RESAMPLES} are refused")
        if self.jobs < 1:
            raise UsageError("the number of jobs must be at least 1")
        if self.sentence_separator == "":
            raise UsageError("the sentence separator must not be empty")
        if self.hypothesis_paths:
            if self.hypothesis_path is not None:
                raise UsageError("hypothesis_path and hypothesis_paths name the hypotheses twice: give one")
            hypothesis_systems(self.hypothesis_paths)  # two files naming one system are an error now
        self._check_text_stage()
        self._check_multi_ref()
        self._check_dialect()
        self._check_paraeval()
        labels = (
            ("wlcs_label", self.wlcs_weight),
            ("skip_label", self.skip_distance),
            ("confidence_label", self.confidence),
        )
        for name, value in labels:
            if getattr(self, name) is None and value is not None:
                object.__setattr__(self, name, f"{value:.15g}")
        for name in _SETTINGS:  # a value object made while the checks ran saw values not yet final
            self.__dict__.pop(name, None)

    def _check_text_stage(self) -> None:
        """``lang`` in its two-letter form, and the options that go with it.

        Outside English: ``-s`` has a user's list (``--stopwords``), ``-m``/``-M``
        a Snowball stemmer and nltk installed (nothing else needs it), and BE
        (``-3``, English parses) is not asked for. ``--stopwords`` needs ``-s``.
        """
        if self.stopwords_file is not None and not self.stopwords:
            raise UsageError("--stopwords FILE is the list that -s removes: add -s")
        if self.stopwords_file == "":
            raise UsageError("--stopwords needs a file name")
        if self.lang is None:
            return
        from ..text.unicode import NLTK_INSTALL, SNOWBALL_LANGUAGES, canonical_language, nltk_available

        object.__setattr__(self, "lang", canonical_language(self.lang))
        if not self.unicode_text:
            return
        lang = self.lang
        if self.be_mode is not None:
            raise UsageError(f"Basic Elements (-3) are English parses: not with --lang {lang}")
        if self.stopwords and self.stopwords_file is None:
            raise UsageError(
                f"-s with --lang {lang} needs a stopword list: --stopwords FILE (the SMART list is English)"
            )
        if (self.stem or self.stem_models_only) and lang not in SNOWBALL_LANGUAGES:
            known = " ".join(sorted(SNOWBALL_LANGUAGES))
            raise UsageError(f"-m/-M: no Snowball stemmer for --lang {lang} (there are: {known})")
        if (self.stem or self.stem_models_only) and not nltk_available():
            raise UsageError(f"-m/-M with --lang {lang} needs nltk: {NLTK_INSTALL}")

    def _check_multi_ref(self) -> None:
        """``multi_ref``: one of :data:`MULTI_REF`, in agreement with ``best_model`` (``"best"``
        sets it); ``"best-f"`` picks a reference by its F, which ``-t 1``/``-t 2`` counts and ``-v``'s
        Perl lines do not have; rouge-score's dialect always takes the reference of highest F."""
        rule = self.multi_ref
        if rule is None:
            return
        if rule not in MULTI_REF:
            known = ", ".join(map(repr, MULTI_REF))
            raise UsageError(f"multi_ref must be one of {known} (or None), got {described(rule)}")
        if self.dialect is not None:
            if rule != "best-f":
                raise UsageError(
                    f"multi_ref={rule!r}: the rouge-score dialect takes the reference of highest F "
                    "(multi_ref='best-f', its default)"
                )
            return
        if rule == "best":
            object.__setattr__(self, "best_model", True)
        elif self.best_model:
            raise UsageError(f"multi_ref={rule!r} and best_model=True (-f B) name two rules: give one")
        if rule == "best-f" and (self.counting or self.verbose):
            given = "-t 1/-t 2 (counting), whose rows are counts" if self.counting else "-v (verbose)"
            raise UsageError(
                f"multi_ref='best-f' picks each item's reference by its F: not with {given}; "
                "use multi_ref='average' (-f A) or 'best' (-f B)"
            )

    def _check_dialect(self) -> None:
        """rouge-score's dialect has ROUGE-N and ROUGE-L, its tokens and stemmer, its F: no other option."""
        if self.dialect is None:
            return
        from ..text.rouge_score import DIALECT

        if self.dialect != DIALECT:
            raise UsageError(
                f"--dialect must be {DIALECT} (none: ROUGE-1.5.5's), got {described(self.dialect)}"
            )
        others = {
            "-w": self.wlcs_weight is not None,
            "-2": self.skip_distance is not None,
            "-3": self.be_mode is not None,
            "-M": self.stem_models_only,
            "-s": self.stopwords,
            "--lang": self.lang is not None,
            "-l": bool(self.length_limit),
            "-b": bool(self.byte_limit),
            "-f B": self.best_model,
            "-p": self.alpha != 0.5,
            "-t": bool(self.counting),
            "-v": self.verbose,
        }
        given = [name for name, on in others.items() if on]
        if given:
            raise UsageError(
                f"--dialect {DIALECT} computes rouge-score's ROUGE-N and ROUGE-L (-n, -x, -m): "
                f"not with {', '.join(given)}"
            )

    def _check_paraeval(self) -> None:
        """ParaEval's options: a table, known variants, and what its rows cannot go with."""
        if self.paraphrases is None:
            if self.paraphrase_feature is not None or self.paraphrase_threshold is not None:
                raise UsageError("--paraphrase-feature and --paraphrase-threshold need --paraphrases FILE")
            return
        from ..metrics.paraeval import variant_labels

        variant_labels(self.paraeval_variants)
        if self.paraphrases == "":
            raise UsageError("--paraphrases needs a file name")
        if self.paraphrase_threshold is not None and not math.isfinite(self.paraphrase_threshold):
            raise UsageError(
                f"the paraphrase threshold must be a finite number, got {self.paraphrase_threshold!r}"
            )
        if self.counting:
            raise UsageError(
                "--paraphrases needs -t 0: ParaEval matches model and peer words in different numbers, "
                "which the three counts of -t 1 and -t 2 cannot hold"
            )
        if self.be_mode is not None:
            raise UsageError("--paraphrases compares words: not with Basic Elements (-3)")
        if self.dialect is not None:
            raise UsageError("--paraphrases adds rows to ROUGE-1.5.5's report: not with --dialect")
        if self.verbose:
            raise UsageError(
                "-v prints the Perl's debug lines, and ParaEval has none: not with --paraphrases"
            )

    @property
    def unicode_text(self) -> bool:
        """Whether the text stage is ``--lang``'s Unicode one (any language but English)."""
        return self.text.unicode_text

    # The value objects each stage is given; Options is the façade that checks and builds them.

    @cached_property
    def source(self) -> Optional[Source]:
        """Where the evals come from: line-aligned files, a JSONL file, a ``-z`` list or an XML
        configuration (the first door of :data:`~rouge155py.inputs.doors.SOURCES` they choose);
        None where the caller gives the evals."""
        return source_of(self)

    def _settings(self, kind: type[T], stage: str, **more: Any) -> T:
        """The value object of a stage: ``kind`` built from the rows the stage reads."""
        return kind(**{row.name: getattr(self, row.name) for row in ROWS if stage in row.stages}, **more)

    @cached_property
    def selection(self) -> PeerSelection:
        """Which peers are reported (``-a``, or the system ID)."""
        return self._settings(PeerSelection, "selection")

    @cached_property
    def text(self) -> TextSettings:
        """The text stage: tokens, stopwords, stemming, length limits."""
        return self._settings(TextSettings, "text")

    @cached_property
    def metrics(self) -> MetricSettings:
        """The metrics computed."""
        return self._settings(MetricSettings, "metrics")

    @cached_property
    def scoring(self) -> ScoringSettings:
        """How model counts become an instance's row (``-f`` or ``multi_ref``, ``-p``, ``-t``)."""
        best_f = self.multi_ref == "best-f" and self.dialect is None
        return self._settings(ScoringSettings, "scoring", best_f=best_f)

    @cached_property
    def resampling(self) -> ResampleSettings:
        """The bootstrap (``-r``, ``-c``)."""
        return self._settings(ResampleSettings, "resampling")

    @property
    def rows_settings(self) -> tuple[PeerSelection, TextSettings, MetricSettings, ScoringSettings]:
        """What the instance rows depend on: rows scored apart (batches) must agree on all of it."""
        return self.selection, self.text, self.metrics, self.scoring

    @property
    def resample_count(self) -> int:
        """How many resamples the Perl draws: ``for (i = 0; i < r; i++)``."""
        return self.resampling.resample_count

    @property
    def system_peer_id(self) -> str:
        """The peer the system ID names, as the Perl holds it
        (:func:`~rouge155py.inputs.files.perl_string`)."""
        return self.selection.peer_id

    def shown_peer_id(self, peer_id: str) -> str:
        """A peer ID as a person reads it: the system ID as given, any other (the XML's) as it is."""
        return self.selection.shown(peer_id)

    def signature(self, version: str) -> str:
        """A short string naming every setting that changes the numbers: the parts of the
        metrics, text stage, scoring and bootstrap settings, in a fixed order.

        A user's stopword list (``--stopwords``) adds ``sw:`` and the start of
        its SHA-256; the Unicode text stage adds its language, tokenizer, stemmer
        and nltk version. Without either, it is the legacy settings alone. A row of
        another stage with a signature key adds ``key:value`` (:func:`_signed_value`).
        """
        parts: dict[str, str] = {}
        for settings in (self.metrics, self.text, self.scoring, self.resampling, self.selection):
            parts.update(settings.signature_parts())
        for row in ROWS:  # a setting that no stage signs shows its value itself
            if row.signature and not set(row.stages) & _SIGNED_STAGES:
                parts[row.signature[0]] = _signed_value(getattr(self, row.name))
        ordered = [key for key in _SIGNATURE_ORDER if key in parts]
        return "|".join([*(f"{key}:{parts[key]}" for key in ordered), f"version:{version}"])


#: The table of settings: one row per field of :class:`Options`, in their order.
ROWS: tuple[Setting, ...] = rows_of(Options)
#: The fields of :class:`Options` that say where the evals come from and which peers are reported.
DOOR_FIELDS = tuple(row.name for row in ROWS if row.door)
#: The stages whose settings write their own parts of the signature (``signature_parts``).
_SIGNED_STAGES = frozenset({"metrics", "text", "scoring", "resampling", "selection"})


def _signed_value(value: object) -> str:
    """A setting's value as the signature shows it: ``yes``/``no`` for a switch (and ``no`` for
    None or nothing), a number as ``%g``, several values joined by commas, else as it is."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, tuple):
        return ",".join(map(str, value)) or "no"
    return "no" if value is None else str(value)


#: The order of the signature's parts: the Perl's settings, then this port's, in the table's order.
_SIGNATURE_ORDER = tuple(
    key for perl in (True, False) for row in ROWS if (row.perl is not None) is perl for key in row.signature
)


class HoldsOptions(Protocol):
    """What holds its options as ``.options``: a :class:`~rouge155py.Rouge`."""

    options: Options


def as_options(value: object) -> Options:
    """The options a batch or cluster function is given: an :class:`Options`, or a
    :class:`~rouge155py.Rouge`'s (its module is loaded where one exists)."""
    if isinstance(value, Options):
        return value
    api = sys.modules.get(f"{__name__.rpartition('.settings')[0]}.api")
    if api is not None and isinstance(value, api.Rouge):
        return value.options
    raise UsageError(f"options must be an Options or a Rouge, got {described(value)}")
