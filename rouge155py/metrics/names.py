"""Metric names in rouge-score's vocabulary beside the Perl's labels, and the options they ask for.

=================  ==================  ==========================================
rouge-score name   ROUGE-1.5.5 label   what
=================  ==================  ==========================================
``rouge1`` ...     ``ROUGE-1`` ...     clipped n-gram overlap (``-n``)
``rougeLsum``      ``ROUGE-L``         union LCS over sentences (a summary's lines)
``rougeW-1.2``     ``ROUGE-W-1.2``     weighted LCS (``-w 1.2``)
``rougeS4``        ``ROUGE-S4``        skip-bigrams at most 4 words apart (``-2 4``)
``rougeSU4``       ``ROUGE-SU4``       the same with unigrams (``-2 4 -u``)
``rougeS*``        ``ROUGE-S*``        skip-bigrams at any distance (``-2 -1``)
``rougeSU*``       ``ROUGE-SU*``       the same with unigrams (``-2 -1 -u``)
=================  ==================  ==========================================

rouge-score's ``rougeL`` (the LCS of the whole texts, no sentence split) is not the
Perl's ROUGE-L, which is its ``rougeLsum``: the name is refused with an error that
says so, never taken for ``rougeLsum``. Other labels (Basic Elements, ParaEval) have
no rouge-score name and keep their own.
"""

from __future__ import annotations

import math
import re
from typing import Any, Sequence

from ..errors import InvalidValue, UsageError, described

__all__ = ["ROUGE_L_EXPLAINED", "UnknownName", "modern_name", "options_for", "perl_label"]

ROUGE_L_EXPLAINED = (
    "'rougeL' is rouge-score's LCS of each whole text, which ROUGE-1.5.5 does not compute: "
    "its ROUGE-L is 'rougeLsum' (the union LCS over sentences, a summary's lines); "
    "for rougeL's number ask for 'rougeLsum' with each summary given as one line"
)

_NUMBER = r"[0-9]+(?:\.[0-9]+)?"
_MODERN = re.compile(rf"rouge(?:([0-9]+)|(Lsum)|W-({_NUMBER})|(SU?)({_NUMBER}|\*))")
_PERL = re.compile(rf"ROUGE-(?:([0-9]+)|(L)|W-({_NUMBER})|(SU?)({_NUMBER}|\*))")


class UnknownName(InvalidValue, KeyError):
    """A metric name that is neither a rouge-score name nor a ROUGE-1.5.5 label known here: a
    ``KeyError`` where a report is looked up, a ``ValueError`` where it is an argument (HF
    rouge's ``rouge_types``, rouge-score's ``RougeScorer`` raise that)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _parts(name: str) -> tuple[str, str]:
    """(kind, argument) of a name in either vocabulary: ``("N", "2")``, ``("L", "")``,
    ``("W", "1.2")``, ``("S", "4")``, ``("SU", "*")``."""
    if not isinstance(name, str):
        raise UnknownName(f"a metric name is a str, got {described(name)}")
    if name == "rougeL":
        raise UnknownName(ROUGE_L_EXPLAINED)
    found = _MODERN.fullmatch(name) or _PERL.fullmatch(name)
    if found is None or (found.group(1) or "1").startswith("0"):
        raise UnknownName(
            f"unknown metric name {name!r}: use rouge1 ... rouge9, rougeLsum, rougeW-1.2, rougeS4, "
            "rougeSU4, rougeS* or rougeSU* (or the Perl's labels: ROUGE-1, ROUGE-L, ROUGE-W-1.2, ...)"
        )
    n, lcs, weight, skip, distance = found.groups()
    if n is not None:
        return "N", n
    if lcs is not None:
        return "L", ""
    if weight is not None:
        return "W", weight
    return skip, distance


def perl_label(name: str) -> str:
    """The ROUGE-1.5.5 label of a metric name: ``rouge1`` -> ``ROUGE-1``, ``rougeLsum`` ->
    ``ROUGE-L``, ``rougeW-1.2`` -> ``ROUGE-W-1.2``, ``rougeSU4`` -> ``ROUGE-SU4``; a label is
    itself. ``rougeL`` and unknown names raise :class:`UnknownName` (a ``UsageError`` and a
    ``KeyError``)."""
    kind, argument = _parts(name)
    return {"N": f"ROUGE-{argument}", "L": "ROUGE-L", "W": f"ROUGE-W-{argument}"}.get(
        kind, f"ROUGE-{kind}{argument}"
    )


def modern_name(label: str) -> str:
    """The rouge-score name of a ROUGE-1.5.5 label (``ROUGE-L`` -> ``rougeLsum``); a name is
    itself, and a label without one (``ROUGE-BE-HM``, ``ParaEval-3``) is kept as it is."""
    try:
        kind, argument = _parts(label)
    except UnknownName:
        if label == "rougeL" or not isinstance(label, str):
            raise
        return label
    return {"N": f"rouge{argument}", "L": "rougeLsum", "W": f"rougeW-{argument}"}.get(
        kind, f"rouge{kind}{argument}"
    )


def options_for(rouge_types: Sequence[str]) -> dict[str, Any]:
    """The options (:class:`~rouge155py.Options` fields) that compute these metrics.

    ``max_ngram`` is the largest n asked for (the Perl computes ROUGE-1 .. ROUGE-n), ``lcs``
    whether ``rougeLsum`` is; one weight for ``rougeW-*`` and one skip distance for
    ``rougeS*``/``rougeSU*`` (``rougeS4`` with ``rougeSU4`` is ``-2 4 -U``). The keys are
    always ``max_ngram``, ``lcs``, ``wlcs_weight``, ``wlcs_label``, ``skip_distance``,
    ``skip_label``, ``skip_unigrams`` and ``skip_both``.
    """
    if isinstance(rouge_types, (str, bytes)) or not isinstance(rouge_types, Sequence):
        raise UsageError(f"rouge_types is a list of metric names, got {described(rouge_types)}")
    if not rouge_types:
        raise UsageError("rouge_types names no metric")
    ngrams: list[int] = []
    lcs = False
    weights: set[str] = set()
    skips: dict[str, set[str]] = {}
    for name in rouge_types:
        kind, argument = _parts(name)
        if kind == "N":
            ngrams.append(int(argument))
        elif kind == "L":
            lcs = True
        elif kind == "W":
            weights.add(argument)
        else:
            skips.setdefault(argument, set()).add(kind)
    if len({float(w) for w in weights}) > 1:
        raise UsageError(f"one ROUGE-W weight a run (-w), got {', '.join(sorted(weights))}")
    if len({-1.0 if d == "*" else float(d) for d in skips}) > 1:
        raise UsageError(f"one skip distance a run (-2), got {', '.join(sorted(skips))}")
    weight = min(weights) if weights else None
    if weight is not None and not (float(weight) > 0 and math.isfinite(float(weight))):
        raise UsageError(f"the ROUGE-W weight must be greater than 0, got {weight}")
    distance, kinds = next(iter(skips.items())) if skips else (None, set())
    return {
        "max_ngram": max(ngrams, default=0),
        "lcs": lcs,
        "wlcs_weight": float(weight) if weight is not None else None,
        "wlcs_label": weight,
        "skip_distance": None if distance is None else -1 if distance == "*" else float(distance),
        "skip_label": None if distance in (None, "*") else distance,
        "skip_unigrams": kinds == {"SU"},
        "skip_both": kinds == {"S", "SU"},
    }
