"""QARLA (Amigó, Gonzalo, Peñas and Verdejo, ACL 2005): the quality of peers, of a set of
similarity metrics and of the test set, from the models alone, with no human judgments.

For one input: M its models, A its peers, X a set of similarity metrics, x(s, r) the similarity
of summary s to summary r taken as the reference (higher is more similar). The arrays of an
input (:class:`QarlaInput`): ``peer_model[x, a, m]`` = x(a, m), ``model_model[x, i, j]`` =
x(m_i, m_j), ``peer_peer[x, a, b]`` = x(a, b), the first axis the metrics; the diagonals (a
summary against itself) are never read and may be NaN.

**QUEEN** of a summary a (a peer; or a model, against the other models)::

    QUEEN_{X,M}(a) = P( for all x in X: x(a, m) >= x(m', m'') )

over the ordered triples of models (m, m', m''), each triple as likely. By default
(``triples="distinct"``) m, m' and m'' are three different models: m' != m'' since x(m', m') is
a summary against itself, and m apart from both so that a's similarity to m is measured against
the similarity of two *other* models, a scale of agreement between humans that owes nothing to
m. QUEEN then needs 3 models, the number QARLA is said to need (as recalled from the paper and
its later uses; the text was not at hand), over |M|(|M|-1)(|M|-2) triples. ``triples="pair"``
asks only m' != m'' (m may be m' or m''): |M|^2(|M|-1) triples, 2 models enough. Ties count for
a (``>=``, as published): a summary as close to m as m' is to m'' is as good as a model there.

**KING** of the metric set X::

    KING_{M,A}(X) = P_m( for all a in A: QUEEN_{X,M-{m}}(m) > QUEEN_{X,M-{m}}(a) )

over the models m: m, taken out of the models and scored against the rest, beats every peer
scored against the same rest; each model as likely. Strictly (``>``, as published): a peer tied
with the model counts against X, so a metric set that cannot tell a model from a peer gains
nothing. With no peer the condition holds. It needs one model more than QUEEN (4 by default).

**JACK** of the test set::

    JACK_{X,M,A} = P_m( exists a != a' in A: QUEEN_{X,M}(a) > 0 and QUEEN_{X,M}(a') > 0
                        and for all x in X: x(a, a') <= x(a, m) )

over the models m, each as likely: some pair of peers with QUEEN above zero, the first at least
as close to m as to the second, so that the peers lie around the models rather than to one side
of them. This is the formula as recalled from the paper (an ordered pair, one direction), not
checked against its text; ``mutual=True`` also asks x(a', a) <= x(a', m) for every x (each of
the two at least as close to m as to the other), the other reading of "peers closer to the model
than to each other". a != a' (a peer against itself is not compared): with fewer than 2 peers
JACK is 0.

**A test set of several inputs**: each measure is the mean over inputs, each input weighing the
same; a system's QUEEN over the inputs where it has a peer; a model's QUEEN (the inputs' models
named by their IDs, else 1, 2, ... by position) over the inputs where it is. KING and the
models' QUEEN need every input to have enough models; where one has not, they are left out
(``None``, no rows) with a note saying why.

**Exact or sampled.** A QUEEN's triples are enumerated when their number is at most
``max_exact`` (KING: the |M| leave-one-out sets' triples together); otherwise ``samples`` triples
are drawn uniformly with replacement (numpy's PCG64 seeded with ``seed``, one stream per input
and per left-out model; every summary of one QUEEN is scored on the same draws). An estimate
(:class:`Estimate`) carries its interval, at ``confidence`` (95%):

- QUEEN: Wilson's score interval on the hits over the draws. Over inputs, the sampled inputs'
  hits are pooled (the same number of draws each, so their pooled share is the mean of their
  shares) and the exact inputs' values added unchanged: stratified draws vary less than a
  binomial of the pooled share, so the interval is, if anything, wide.
- KING: whether the model beats every peer is read from the sampled QUEENs; the interval is
  the share of models that beat every peer for certain (the model's lower bound above every
  peer's upper bound) to the share not certainly beaten (the model's upper bound above the
  best lower bound of a peer), from Wilson intervals at a Bonferroni level over every sampled
  QUEEN of the computation, so that all of them hold together with the stated confidence.
- JACK: enumerated over models and pairs of peers always (sampling models would not shorten
  the search over pairs); only whether a QUEEN is above zero may be sampled: a hit proves it,
  no hit does not disprove it. The interval runs from JACK with the peers proven above zero
  (the estimate) to JACK with every peer: bounds that always hold.

Exact values are fractions computed as hits / triples in float.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from ..errors import ComputeError, LimitError, UnknownKeyword, UsageError, described
from .significance import checked_draws, signature_of

__all__ = [
    "Estimate",
    "InputQarla",
    "KingRow",
    "Qarla",
    "QarlaInput",
    "QarlaSettings",
    "jack",
    "king",
    "king_table",
    "qarla",
    "queen",
    "similarities",
]

TRIPLES = ("distinct", "pair")
#: The fewest models of QUEEN under each rule for the triples (KING: one more).
_FEWEST = {"distinct": 3, "pair": 2}
#: Booleans compared at a time (metrics x summaries x triples): bounds memory.
_BLOCK = 1 << 22
#: The most metric sets :func:`king_table` evaluates with ``subsets="all"``.
MAX_SUBSETS = 4095

Similarity = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class QarlaSettings:
    """Everything that changes QARLA's numbers (see the module and :meth:`signature`)."""

    triples: str = "distinct"
    max_exact: int = 1_000_000
    samples: int = 10_000
    seed: int = 12345
    confidence: float = 95.0
    mutual: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.triples, str) or self.triples not in TRIPLES:
            raise UsageError(f"triples must be one of {', '.join(TRIPLES)}, got {described(self.triples)}")
        if not isinstance(self.max_exact, numbers.Integral) or isinstance(self.max_exact, bool):
            raise UsageError(f"max_exact must be a whole number, got {described(self.max_exact)}")
        if self.max_exact < 0:
            raise UsageError(f"max_exact must be 0 or more, got {described(int(self.max_exact))}")
        if not isinstance(self.mutual, bool):
            raise UsageError(f"mutual must be True or False, got {described(self.mutual)}")
        samples, seed, confidence = checked_draws(self.samples, self.seed, self.confidence)
        object.__setattr__(self, "max_exact", int(self.max_exact))
        object.__setattr__(self, "samples", samples)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "confidence", confidence)

    @property
    def fewest(self) -> int:
        """The fewest models an input needs for QUEEN."""
        return _FEWEST[self.triples]

    def z(self, intervals: int = 1) -> float:
        """The normal quantile of two-sided intervals holding together over ``intervals``."""
        return NormalDist().inv_cdf(1 - (1 - self.confidence / 100) / (2 * max(1, intervals)))

    def signature(self, metrics: Sequence[str], computed: str) -> str:
        """``metrics:A+B|triples:distinct|jack:one-way|max_exact:1000000|...|computed:exact|...``."""
        parts = {
            "metrics": "+".join(metrics),
            "triples": self.triples,
            "jack": "mutual" if self.mutual else "one-way",
            "max_exact": self.max_exact,
            "samples": self.samples,
            "seed": self.seed,
            "ci": f"{self.confidence:g}",
            "computed": computed,
        }
        return signature_of(parts)


def _settings(given: Mapping[str, Any]) -> QarlaSettings:
    unknown = sorted(set(given) - set(QarlaSettings.__dataclass_fields__))
    if unknown:
        known = ", ".join(QarlaSettings.__dataclass_fields__)
        raise UnknownKeyword(f"QARLA has no setting {', '.join(unknown)} (its settings: {known})")
    return QarlaSettings(**given)


@dataclass(frozen=True)
class Estimate:
    """A QUEEN, KING or JACK: its value and interval; ``computed``: ``exact`` (every part
    enumerated: then ``low == value == high``), ``sampled`` or ``mixed`` (some inputs each way);
    ``draws``: the triples drawn; ``inputs``: the number of inputs it averages."""

    value: float
    low: float
    high: float
    computed: str = "exact"
    draws: int = 0
    inputs: int = 1

    @property
    def exact(self) -> bool:
        """Whether every part was enumerated."""
        return self.computed == "exact"


@dataclass(frozen=True)
class QarlaInput:
    """One input's similarities (see the module): ``peer_model`` (metrics x peers x models),
    ``model_model`` (metrics x models x models), ``peer_peer`` (metrics x peers x peers); the
    models' names, where given, else 1, 2, ... by position."""

    eval_id: str
    peers: list[str]
    peer_model: np.ndarray
    model_model: np.ndarray
    peer_peer: np.ndarray
    model_ids: Optional[list[str]] = None


@dataclass(frozen=True)
class InputQarla:
    """One input's measures: each peer's QUEEN, each model's (left out of the models), KING
    (None, and no model's QUEEN, where KING is left out) and JACK."""

    eval_id: str
    systems: dict[str, Estimate]
    models: dict[str, Estimate]
    king: Optional[Estimate]
    jack: Estimate


@dataclass(frozen=True)
class Qarla:
    """QARLA on a test set: the means over inputs of each system's and each model's QUEEN, of
    KING of the metrics and of JACK; ``inputs``: each input's own; ``notes``: what was left out."""

    metrics: tuple[str, ...]
    settings: QarlaSettings
    systems: dict[str, Estimate]
    models: dict[str, Estimate]
    king: Optional[Estimate]
    jack: Estimate
    inputs: list[InputQarla]
    notes: list[str] = field(default_factory=list)

    @property
    def computed(self) -> str:
        """``exact`` when every measure was enumerated, ``sampled`` when every one was drawn,
        else ``mixed``."""
        kinds = {
            e.computed for e in (*self.systems.values(), *self.models.values(), self.king, self.jack) if e
        }
        return kinds.pop() if len(kinds) == 1 else "mixed"

    @property
    def signature(self) -> str:
        """The settings, the metrics and how the numbers were computed."""
        return self.settings.signature(self.metrics, self.computed)

    def to_dicts(self) -> list[dict[str, Any]]:
        """One row per measure (JSON- and CSV-ready): the systems' QUEEN, the models', KING, JACK."""
        rows: list[tuple[str, str, str, Optional[Estimate]]] = [
            *(("QUEEN", "system", name, e) for name, e in self.systems.items()),
            *(("QUEEN", "model", name, e) for name, e in self.models.items()),
            ("KING", "metrics", "+".join(self.metrics), self.king),
            ("JACK", "test set", "", self.jack),
        ]
        return [
            {"measure": measure, "kind": kind, "name": name, **e.__dict__}
            for measure, kind, name, e in rows
            if e is not None
        ]


@dataclass(frozen=True)
class KingRow:
    """KING of one set of metrics (a row of :func:`king_table`)."""

    metrics: tuple[str, ...]
    king: Estimate


# ---------------------------------------------------------------- one model set: QUEEN's hits


@dataclass(frozen=True)
class _Queens:
    """Some summaries' QUEEN against one model set: their hits out of ``draws`` triples, every
    triple (``exact``) or drawn."""

    hits: np.ndarray
    draws: int
    exact: bool


#: An input's KING or JACK: value, low, high, exact, triples drawn.
_Part = tuple[float, float, float, bool, int]


def _triple_count(models: int, triples: str) -> int:
    if triples == "distinct":
        return models * (models - 1) * (models - 2)
    return models * models * (models - 1)


def _blocks(total: int, per_item: int) -> list[tuple[int, int]]:
    step = max(1, _BLOCK // max(1, per_item))
    return [(start, min(total, start + step)) for start in range(0, total, step)]


def _hits_on(
    candidates: np.ndarray, models: np.ndarray, m: np.ndarray, m1: np.ndarray, m2: np.ndarray
) -> np.ndarray:
    """Per candidate, the triples (m, m1, m2) where x(candidate, m) >= x(m1, m2) for every x."""
    found = np.zeros(candidates.shape[1], dtype=np.int64)
    for start, stop in _blocks(len(m), candidates.shape[0] * candidates.shape[1]):
        mine = candidates[:, :, m[start:stop]]
        theirs = models[:, m1[start:stop], m2[start:stop]][:, None, :]
        found += np.all(mine >= theirs, axis=0).sum(axis=1)
    return found


def _queens(
    candidates: np.ndarray,
    models: np.ndarray,
    settings: QarlaSettings,
    stream: Sequence[int],
    exact: Optional[bool] = None,
) -> _Queens:
    """QUEEN's hits of each candidate (``candidates[x, c, m]`` = x(c, m)) against the models
    (``models[x, i, j]`` = x(m_i, m_j)): every triple where ``exact`` (by default where they
    are at most ``max_exact``), else ``samples`` triples drawn from the stream's generator."""
    n = models.shape[1]
    total = _triple_count(n, settings.triples)
    hits = np.zeros(candidates.shape[1], dtype=np.int64)
    if exact is None:
        exact = total <= settings.max_exact
    if exact:
        first, second = (a.ravel() for a in np.meshgrid(np.arange(n), np.arange(n), indexing="ij"))
        first, second = first[first != second], second[first != second]
        for m in range(n):
            if settings.triples == "distinct":
                keep = (first != m) & (second != m)
                m1, m2 = first[keep], second[keep]
            else:
                m1, m2 = first, second
            hits += _hits_on(candidates, models, np.full(len(m1), m), m1, m2)
        return _Queens(hits, total, True)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([settings.seed, *stream])))
    for start, stop in _blocks(settings.samples, candidates.shape[0] * candidates.shape[1]):
        hits += _hits_on(candidates, models, *_draw(rng, n, stop - start, settings.triples))
    return _Queens(hits, settings.samples, False)


def _draw(
    rng: np.random.Generator, n: int, size: int, triples: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``size`` triples (m, m', m'') drawn uniformly from the rule's triples of ``n`` models:
    each index drawn among those left, then moved past the ones taken (in increasing order)."""
    m = rng.integers(0, n, size)
    if triples == "pair":
        m1 = rng.integers(0, n, size)
        m2 = rng.integers(0, n - 1, size)
        return m, m1, m2 + (m2 >= m1)
    m1 = rng.integers(0, n - 1, size)
    m1 = m1 + (m1 >= m)
    m2 = rng.integers(0, n - 2, size)
    m2 = m2 + (m2 >= np.minimum(m, m1))
    return m, m1, m2 + (m2 >= np.maximum(m, m1))


def _left_out(
    peer_model: np.ndarray, model_model: np.ndarray, settings: QarlaSettings, stream: Sequence[int]
) -> list[_Queens]:
    """For each model m: the QUEEN hits, against the other models, of the peers then of m (last).
    Enumerated when the |M| sets' triples together are at most ``max_exact``."""
    n = model_model.shape[1]
    exact = n * _triple_count(n - 1, settings.triples) <= settings.max_exact
    found = []
    for m in range(n):
        rest = np.array([i for i in range(n) if i != m])
        candidates = np.concatenate([peer_model[:, :, rest], model_model[:, m : m + 1, rest]], axis=1)
        found.append(_queens(candidates, model_model[:, rest][:, :, rest], settings, [*stream, m], exact))
    return found


def _sampled(loo: Sequence[_Queens]) -> int:
    """The QUEENs drawn, not enumerated."""
    return sum(len(q.hits) for q in loo if not q.exact)


def _king_input(loo: Sequence[_Queens], z: float) -> _Part:
    """KING of one input from its leave-one-out QUEENs (hits compared: every summary of a set
    has the same draws); where drawn, the bounds of the module."""
    value = low = high = 0
    for q in loo:
        model, peers = q.hits[-1], q.hits[:-1]
        wins = int(not len(peers) or model > peers.max())
        value += wins
        if q.exact or not len(peers):
            low, high = low + wins, high + wins
            continue
        lower, upper = _wilson(q.hits, q.draws, z)
        low += int(lower[-1] > upper[:-1].max())
        high += int(upper[-1] > lower[:-1].max())
    n = len(loo)
    exact = all(q.exact for q in loo)
    return value / n, low / n, high / n, exact, sum(q.draws for q in loo if not q.exact)


def _jack_models(
    peer_model: np.ndarray, peer_peer: np.ndarray, positive: np.ndarray, mutual: bool
) -> np.ndarray:
    """Per model m: whether two different peers above zero, a and a', have x(a, a') <= x(a, m)
    for every x (and x(a', a) <= x(a', m) with ``mutual``)."""
    peers, models = peer_model.shape[1], peer_model.shape[2]
    allowed = positive[:, None] & positive[None, :] & ~np.eye(peers, dtype=bool)
    found = np.zeros(models, dtype=bool)
    if not allowed.any():
        return found
    for m in range(models):
        close = np.all(peer_peer <= peer_model[:, :, m][:, :, None], axis=0)  # close[a, a']
        if mutual:
            close &= close.T
        found[m] = bool((close & allowed).any())
    return found


def _jack_input(peer_model: np.ndarray, peer_peer: np.ndarray, full: _Queens, mutual: bool) -> _Part:
    """JACK of one input: with the peers whose QUEEN is above zero; where drawn, up to JACK
    with every peer (a peer with no hit may still be above zero)."""
    found = _jack_models(peer_model, peer_peer, full.hits > 0, mutual)
    value = int(found.sum()) / len(found)
    if full.exact:
        return value, value, value, True, 0
    every = _jack_models(peer_model, peer_peer, np.ones(len(full.hits), dtype=bool), mutual)
    return value, value, int(every.sum()) / len(every), False, full.draws


def _wilson(hits: Any, draws: int, z: float) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's score interval of hits out of draws (arrays or numbers)."""
    p = np.asarray(hits, dtype=np.float64) / draws
    z2 = z * z
    centre = (p + z2 / (2 * draws)) / (1 + z2 / draws)
    half = z * np.sqrt(p * (1 - p) / draws + z2 / (4 * draws * draws)) / (1 + z2 / draws)
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def _estimates(q: _Queens, z: float) -> list[Estimate]:
    """Each summary's QUEEN on one model set."""
    values = [int(h) / q.draws for h in q.hits]
    if q.exact:
        return [Estimate(v, v, v) for v in values]
    low, high = _wilson(q.hits, q.draws, z)
    return [Estimate(v, float(lo), float(hi), "sampled", q.draws) for v, lo, hi in zip(values, low, high)]


def _estimate(part: _Part) -> Estimate:
    value, low, high, exact, draws = part
    return Estimate(value, low, high, "exact" if exact else "sampled", draws)


def _how(exact: Sequence[bool]) -> str:
    return "exact" if all(exact) else "sampled" if not any(exact) else "mixed"


def _mean(parts: Sequence[tuple[_Queens, int]], z: float) -> Estimate:
    """The mean over inputs of one summary's QUEEN (its place in each input's hits): the drawn
    inputs' hits pooled into one Wilson interval, the enumerated inputs' values added as they are."""
    exact = [int(q.hits[i]) / q.draws for q, i in parts if q.exact]
    drawn = [(int(q.hits[i]), q.draws) for q, i in parts if not q.exact]
    n = len(parts)
    value = math.fsum([*exact, *(h / d for h, d in drawn)]) / n
    if not drawn:
        return Estimate(value, value, value, inputs=n)
    draws = sum(d for _, d in drawn)
    lower, upper = _wilson(sum(h for h, _ in drawn), draws, z)
    fixed, k = math.fsum(exact), len(drawn)
    how = _how([q.exact for q, _ in parts])
    return Estimate(value, (fixed + k * float(lower)) / n, (fixed + k * float(upper)) / n, how, draws, n)


def _average(parts: Sequence[_Part]) -> Estimate:
    """The mean over inputs of a KING or JACK, and of its bounds."""
    n = len(parts)
    value, low, high = (math.fsum(p[k] for p in parts) / n for k in range(3))
    return Estimate(value, low, high, _how([p[3] for p in parts]), sum(p[4] for p in parts), n)


# ---------------------------------------------------------------- checks


def _shaped(
    pm: np.ndarray, mm: np.ndarray, pp: np.ndarray, metrics: Optional[int], where: str
) -> tuple[np.ndarray, ...]:
    """An input's three arrays, their shapes agreeing and with no NaN off the diagonals."""
    if pm.ndim == 2 and mm.ndim == 2 and pp.ndim == 2:  # one metric, given without its axis
        pm, mm, pp = pm[None], mm[None], pp[None]
    if pm.ndim != 3 or mm.ndim != 3 or pp.ndim != 3:
        raise UsageError(f"{where}: the similarities must be arrays of metrics x summaries x summaries")
    x, a, m = pm.shape
    if mm.shape != (x, m, m) or pp.shape != (x, a, a) or metrics not in (None, x):
        raise UsageError(
            f"{where}: peer-model {pm.shape}, model-model {mm.shape} and peer-peer {pp.shape} similarities "
            "do not agree (metrics x peers x models, metrics x models x models, metrics x peers x peers"
            + (f", {metrics} metrics)" if metrics is not None else ")")
        )
    if x == 0:
        raise UsageError(f"{where}: no metric: QARLA needs one similarity metric or more")
    for name, values in (("peer-model", pm), ("model-model", mm), ("peer-peer", pp)):
        bad = np.isnan(values)
        if name != "peer-model":
            bad &= ~np.eye(values.shape[1], dtype=bool)[None]
        if bad.any():
            k, i, j = (int(v) for v in np.argwhere(bad)[0])
            raise ComputeError(
                f"{where}: metric {k + 1}'s {name} similarity of summary {i + 1} to summary {j + 1} is NaN: "
                "QARLA orders similarities and NaN has no order"
            )
    return pm, mm, pp


def _floats(values: Any, what: str, where: str) -> np.ndarray:
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise UsageError(f"{where}: the {what} similarities are not an array of numbers") from None


def _enough(models: int, settings: QarlaSettings, where: str, king: bool = False) -> None:
    need = settings.fewest + (1 if king else 0)
    if models < need:
        why = "m, m' and m'' are different models" if settings.triples == "distinct" else "m' and m'' differ"
        extra = ", plus the one left out" if king else ""
        what = "KING" if king else "QUEEN"
        raise ComputeError(f"{where}: {what} needs {need} models or more ({why}{extra}), it has {models}")


# ---------------------------------------------------------------- one input, on arrays


def _one(peer_sims: Any, model_sims: Any, peer_peer: Any) -> tuple[np.ndarray, ...]:
    where = "the input"
    pm, mm = _floats(peer_sims, "peer-model", where), _floats(model_sims, "model-model", where)
    if peer_peer is None:
        pp = np.zeros((*pm.shape[:-1], pm.shape[-2])) if pm.ndim >= 2 else pm
    else:
        pp = _floats(peer_peer, "peer-peer", where)
    return _shaped(pm, mm, pp, None, where)


def queen(peer_sims: Any, model_sims: Any, **settings: Any) -> list[Estimate]:
    """Each peer's QUEEN on one input: ``peer_sims[x][a, m]`` = x(a, m), ``model_sims[x][i, j]``
    = x(m_i, m_j) (a list of 2-D arrays, one per metric, or a 3-D array; a 2-D array alone: one
    metric); ``settings``: :class:`QarlaSettings`' fields."""
    chosen = _settings(settings)
    pm, mm, _ = _one(peer_sims, model_sims, None)
    _enough(mm.shape[1], chosen, "the input")
    return _estimates(_queens(pm, mm, chosen, [0, 0]), chosen.z())


def king(peer_sims: Any, model_sims: Any, **settings: Any) -> Estimate:
    """KING of the metrics on one input (the arrays and settings of :func:`queen`)."""
    chosen = _settings(settings)
    pm, mm, _ = _one(peer_sims, model_sims, None)
    _enough(mm.shape[1], chosen, "the input", king=True)
    loo = _left_out(pm, mm, chosen, [1, 0])
    return _estimate(_king_input(loo, chosen.z(_sampled(loo))))


def jack(peer_sims: Any, model_sims: Any, peer_peer: Any, **settings: Any) -> Estimate:
    """JACK of one input: ``peer_peer[x][a, b]`` = x(a, b) (its diagonal never read); the other
    arrays and the settings of :func:`queen`."""
    chosen = _settings(settings)
    pm, mm, pp = _one(peer_sims, model_sims, peer_peer)
    _enough(mm.shape[1], chosen, "the input")
    return _estimate(_jack_input(pm, pp, _queens(pm, mm, chosen, [0, 0]), chosen.mutual))


# ---------------------------------------------------------------- a test set


@dataclass(frozen=True)
class _Input:
    eval_id: str
    peers: list[str]
    models: list[str]
    peer_model: np.ndarray
    model_model: np.ndarray
    peer_peer: np.ndarray

    def columns(self, metrics: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """The peer-model and model-model similarities of some metrics."""
        chosen = list(metrics)
        return self.peer_model[chosen], self.model_model[chosen]


def _inputs(metrics: Sequence[str], inputs: Sequence[Any]) -> list[_Input]:
    found = []
    for k, case in enumerate(inputs):
        eval_id = str(getattr(case, "eval_id", k + 1))
        where = f"input {eval_id!r}"
        try:
            arrays = [getattr(case, name) for name in ("peer_model", "model_model", "peer_peer")]
        except AttributeError:
            raise UsageError(
                f"{where}: a QarlaInput (peer_model, model_model, peer_peer), not {described(case)}"
            ) from None
        kinds = ("peer-model", "model-model", "peer-peer")
        pm, mm, pp = (_floats(v, kind, where) for v, kind in zip(arrays, kinds))
        pm, mm, pp = _shaped(pm, mm, pp, len(metrics), where)
        peers = [str(p) for p in getattr(case, "peers", None) or []]
        if len(peers) != pm.shape[1] or len(set(peers)) != len(peers):
            raise UsageError(
                f"{where}: {pm.shape[1]} peers' similarities need as many different peer names, got {peers}"
            )
        named = getattr(case, "model_ids", None)
        models = [str(m) for m in named] if named else [str(i + 1) for i in range(mm.shape[1])]
        if len(models) != mm.shape[1] or len(set(models)) != len(models):
            raise UsageError(
                f"{where}: {mm.shape[1]} models' similarities need as many different model IDs, got {models}"
            )
        found.append(_Input(eval_id, peers, models, pm, mm, pp))
    if not found:
        raise UsageError("QARLA needs one input or more")
    return found


def _metric_names(metrics: Sequence[str]) -> tuple[str, ...]:
    names = tuple(str(m) for m in metrics)
    if not names or len(set(names)) != len(names):
        raise UsageError(f"QARLA needs one metric or more, each named once, got {list(names)}")
    return names


def qarla(metrics: Sequence[str], inputs: Sequence[Any], **settings: Any) -> Qarla:
    """QUEEN of each system and model, KING of the metrics and JACK of the test set (see the
    module). ``metrics``: the metrics' names in the arrays' order; ``inputs``: one
    :class:`QarlaInput` per input (or any object with its fields), as :func:`similarities`
    makes them: ``qarla(*similarities(evals, metrics))``; ``settings``: :class:`QarlaSettings`'
    fields."""
    chosen = _settings(settings)
    names = _metric_names(metrics)
    cases = _inputs(names, inputs)
    for case in cases:
        _enough(len(case.models), chosen, f"input {case.eval_id!r}")
    notes = []
    short = [c.eval_id for c in cases if len(c.models) <= chosen.fewest]
    if short:
        listed = ", ".join(short[:5]) + (" ..." if len(short) > 5 else "")
        notes.append(
            f"no KING and no model's QUEEN: a model is scored against the others, {chosen.fewest} at least, "
            f"and {len(short)} input(s) have {chosen.fewest} models in all: {listed}"
        )
    full = [_queens(c.peer_model, c.model_model, chosen, [0, k]) for k, c in enumerate(cases)]
    loo = (
        [] if short else [_left_out(c.peer_model, c.model_model, chosen, [1, k]) for k, c in enumerate(cases)]
    )
    z = chosen.z()
    z_king = chosen.z(sum(_sampled(each) for each in loo))
    kings = [_king_input(each, z_king) for each in loo]
    jacks = [_jack_input(c.peer_model, c.peer_peer, q, chosen.mutual) for c, q in zip(cases, full)]

    systems: dict[str, list[tuple[_Queens, int]]] = {}
    models: dict[str, list[tuple[_Queens, int]]] = {}
    per_input = []
    for k, case in enumerate(cases):
        for i, peer in enumerate(case.peers):
            systems.setdefault(peer, []).append((full[k], i))
        own = {}
        if loo:
            for i, model in enumerate(case.models):
                models.setdefault(model, []).append((loo[k][i], len(case.peers)))
                own[model] = _estimates(loo[k][i], z)[-1]
        own_king = _estimate(kings[k]) if loo else None
        per_input.append(
            InputQarla(
                case.eval_id,
                dict(zip(case.peers, _estimates(full[k], z))),
                own,
                own_king,
                _estimate(jacks[k]),
            )
        )
    return Qarla(
        names,
        chosen,
        {name: _mean(parts, z) for name, parts in systems.items()},
        {name: _mean(parts, z) for name, parts in models.items()},
        _average(kings) if kings else None,
        _average(jacks),
        per_input,
        notes,
    )


def king_table(
    metrics: Sequence[str],
    inputs: Sequence[Any],
    subsets: Union[str, Sequence[Sequence[str]], None] = None,
    **settings: Any,
) -> list[KingRow]:
    """KING over the test set of several sets of metrics, to tell which metrics together are
    best: ``subsets`` None for each metric alone and then all of them, ``"all"`` for every
    non-empty combination (at most :data:`MAX_SUBSETS`), or the sets of names; in that order.
    Where drawn, every set is scored on the same triples."""
    chosen = _settings(settings)
    names = _metric_names(metrics)
    cases = _inputs(names, inputs)
    for case in cases:
        _enough(len(case.models), chosen, f"input {case.eval_id!r}", king=True)
    if subsets is None:
        sets = [(name,) for name in names] + ([names] if len(names) > 1 else [])
    elif isinstance(subsets, str):
        if subsets != "all":
            raise UsageError(f"subsets must be None, 'all' or sets of metric names, got {subsets!r}")
        if 2 ** len(names) - 1 > MAX_SUBSETS:
            raise LimitError(
                f"{len(names)} metrics make {2 ** len(names) - 1} sets: more than {MAX_SUBSETS} are refused"
            )
        sets = [c for r in range(1, len(names) + 1) for c in itertools.combinations(names, r)]
    else:
        sets = [tuple(str(n) for n in s) for s in subsets]
    rows = []
    for metric_set in sets:
        if not metric_set or len(set(metric_set)) != len(metric_set) or not set(metric_set) <= set(names):
            raise UsageError(
                f"a metric set names known metrics once each ({', '.join(names)}), got {list(metric_set)}"
            )
        columns = [names.index(n) for n in metric_set]
        loo = [_left_out(*c.columns(columns), chosen, [1, k]) for k, c in enumerate(cases)]
        z = chosen.z(sum(_sampled(each) for each in loo))
        rows.append(KingRow(metric_set, _average([_king_input(each, z) for each in loo])))
    return rows


# ---------------------------------------------------------------- from texts


def _named(metrics: Any) -> list[tuple[str, Similarity]]:
    pairs = list(metrics.items()) if isinstance(metrics, Mapping) else list(metrics)
    found = []
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2 and callable(pair[1])):
            raise UsageError(
                "metrics map names to callables sim(text, reference) -> float, "
                f"or are (name, callable) pairs: got {described(pair)}"
            )
        found.append((str(pair[0]), pair[1]))
    _metric_names([name for name, _ in found])
    return found


def _parts(ev: Any, k: int) -> tuple[str, dict[str, Any], list[str], list[Any]]:
    """An input's ID, peers (system -> text), models' IDs and texts."""
    if hasattr(ev, "peers") and hasattr(ev, "models"):
        eval_id, peers, models = str(getattr(ev, "eval_id", k + 1)), ev.peers, ev.models
        ids = getattr(ev, "model_ids", None)
    elif isinstance(ev, (tuple, list)) and len(ev) == 2:
        (peers, models), eval_id, ids = ev, str(k + 1), None
    else:
        raise UsageError(
            f"input {k + 1} is an eval (peers, models) or a (peers, models) pair, got {described(ev)}"
        )
    if not isinstance(peers, Mapping):
        raise UsageError(
            f"input {eval_id!r}: the peers map each system to its summary, got {described(peers)}"
        )
    if isinstance(models, Mapping):
        ids, texts = [str(m) for m in models], list(models.values())
    else:
        texts = list(models)
        ids = [str(m) for m in ids] if ids else [str(i + 1) for i in range(len(texts))]
    return eval_id, {str(s): t for s, t in peers.items()}, ids, texts


def _similarity(sim: Similarity, first: Any, second: Any, where: str) -> float:
    value = sim(first, second)
    if not isinstance(value, numbers.Real):
        raise UsageError(f"{where} is {described(value)}, not a number")
    if math.isnan(value):
        raise ComputeError(f"{where} is NaN: QARLA orders similarities and NaN has no order")
    return float(value)


def similarities(evals: Sequence[Any], metrics: Any) -> tuple[list[str], list[QarlaInput]]:
    """Each input's similarities by each metric: ``metrics`` maps names to callables
    ``sim(text, reference) -> float`` (or is a sequence of (name, callable) pairs), given the
    texts as they are; ``evals`` gives per input an eval (``peers``: system -> text; ``models``:
    texts, or model ID -> text) or a (peers, models) pair. Returns the metrics' names and one
    :class:`QarlaInput` per input: ``qarla(*similarities(evals, metrics))``. The diagonals (a
    summary against itself) are NaN, never computed."""
    named = _named(metrics)
    found = []
    for k, ev in enumerate(evals):
        eval_id, peers, ids, models = _parts(ev, k)
        systems, texts = list(peers), list(peers.values())
        summaries = [*texts, *models]
        labels = [f"peer {s!r}" for s in systems] + [f"model {m!r}" for m in ids]
        values = np.full((len(named), len(summaries), len(summaries)), np.nan)
        for x, (name, sim) in enumerate(named):
            for i, j in compared_pairs(len(texts), len(models)):
                where = f"input {eval_id!r}: metric {name!r} of {labels[i]} against {labels[j]}"
                values[x, i, j] = _similarity(sim, summaries[i], summaries[j], where)
        found.append(input_of(eval_id, systems, values, ids))
    return [name for name, _ in named], found


def compared_pairs(peers: int, models: int) -> list[tuple[int, int]]:
    """The (summary, reference) places QARLA compares among an input's summaries, its peers
    then its models: every ordered pair of two summaries but a model against a peer (never read)."""
    n = peers + models
    return [(i, j) for i in range(n) for j in range(n) if i != j and not (i >= peers > j)]


def input_of(
    eval_id: str, systems: list[str], values: np.ndarray, model_ids: Optional[list[str]]
) -> QarlaInput:
    """An input's :class:`QarlaInput` from its metrics x summaries x summaries similarities
    (the peers' places first, in ``systems``' order, then the models')."""
    a = len(systems)
    return QarlaInput(eval_id, systems, values[:, :a, a:], values[:, a:, a:], values[:, :a, :a], model_ids)
