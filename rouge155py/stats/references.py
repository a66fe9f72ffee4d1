"""How the number of references changes a metric's agreement with people (the ROUGE paper's §6
compares single and multiple references).

:func:`reference_curve` scores the evaluation again with k of each eval's N references, for
k = 1 .. N: every subset of k reference places (the first, second ... model of each eval), or
a seeded sample of them where there are more than ``max_subsets``; each subset's report gives
the variants' coefficient with the judgment, and each k its mean over the subsets, with the
lowest and the highest.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Optional, Sequence

from ..errors import ComputeError, UsageError
from ..inputs.config import EvalConfig
from .correlation import CorrelateSettings, correlate, report_variants
from .judgments import Judgments
from .significance import _generator

if TYPE_CHECKING:
    from ..settings.options import Options

__all__ = ["ReferencePoint", "reference_curve"]


@dataclass(frozen=True)
class ReferencePoint:
    """A variant's coefficient with ``references`` references an eval: the mean over ``subsets``
    subsets of reference places, and the lowest and highest of them."""

    variant: str
    references: int
    subsets: int
    value: float
    low: float
    high: float

    @property
    def across(self) -> int:
        """Where the point lies on its curve: the references an eval."""
        return self.references


def _subsets(n: int, k: int, most: int, seed: int) -> list[tuple[int, ...]]:
    """Every k of n places, or ``most`` of them drawn without repeats (seeded), in order."""
    if math.comb(n, k) <= most:
        return list(itertools.combinations(range(n), k))
    rng = _generator(seed, 6 + k)
    chosen: set[tuple[int, ...]] = set()
    while len(chosen) < most:
        chosen.add(tuple(sorted(int(p) for p in rng.choice(n, size=k, replace=False))))
    return sorted(chosen)


def _with_models(config: EvalConfig, places: Sequence[int]) -> EvalConfig:
    """The evals with only the models at ``places`` (their IDs kept)."""
    evals = []
    for ev in config.evals:
        ids = ev.model_ids or [f"M{k}" for k in range(1, len(ev.models) + 1)]
        evals.append(replace(ev, models=[ev.models[p] for p in places], model_ids=[ids[p] for p in places]))
    return EvalConfig(evals, config.peer_ids, config.notes)


def reference_curve(
    options: Options,
    judgments: Judgments,
    config: Optional[EvalConfig] = None,
    measure: str = "f",
    judgment: Optional[str] = None,
    level: str = "system",
    coefficient: str = "pearson",
    max_subsets: int = 20,
    seed: int = 12345,
) -> list[ReferencePoint]:
    """Each variant's coefficient with 1 .. N references an eval (see the module). ``config``:
    the evals (the options' source read when not given); every eval must have N models."""
    from ..run.evaluate import evaluate

    if options.selection.reshapes:
        raise UsageError(
            "a reference curve chooses the references itself: not with models, drop_models or jackknife"
        )
    if max_subsets < 1:
        raise UsageError(f"max_subsets must be at least 1, got {max_subsets}")
    if config is None:
        if options.source is None:
            raise UsageError("a reference curve needs the evals: a configuration or a source in the options")
        config = options.source.read()
    counts = {len(ev.models) for ev in config.evals}
    if len(counts) != 1 or min(counts) < 1:
        raise ComputeError(
            f"a reference curve needs the same number of references in every eval, got {sorted(counts)}"
        )
    (n,) = counts
    settings = CorrelateSettings(resample="none")
    found = []
    for k in range(1, n + 1):
        values: dict[str, list[float]] = {}
        subsets = _subsets(n, k, max_subsets, seed)
        for places in subsets:
            report = evaluate(options, _with_models(config, places))
            variants = report_variants(report, [measure])
            names = [judgment] if judgment else judgments.columns[:1]
            rows = correlate(variants, judgments, [level], [coefficient], names, settings)
            for row in rows.rows:
                values.setdefault(row.variant, []).append(row.value)
        for variant, taken in values.items():
            found.append(
                ReferencePoint(
                    variant, k, len(subsets), math.fsum(taken) / len(taken), min(taken), max(taken)
                )
            )
    return found
