"""The settings of the run's own steps: which peers are reported (``-a`` or a system ID) and
the bootstrap (``-r``, ``-c``). The text, metric and scoring stages keep theirs beside their
code; :class:`~rouge155py.Options` builds each from its rows of the table."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Iterable, Optional

from ..inputs.files import perl_string
from ..inputs.selection import read_subset_file

__all__ = ["PeerSelection", "ResampleSettings"]


@dataclass(frozen=True)
class PeerSelection:
    """Which peers a run reports: every one under ``-a``, else the one the system ID names."""

    all_systems: bool = True
    system_id: Optional[str] = None
    #: The models of each eval: the first ``models`` (None: all), less those named in
    #: ``drop_models``; under ``jackknife`` each model is a peer too (:mod:`rouge155py.inputs.selection`).
    models: Optional[int] = None
    drop_models: tuple[str, ...] = ()
    model_subset: Optional[str] = None
    jackknife: bool = False

    def signature_parts(self) -> dict[str, str]:
        """The signature's parts that name a choice of models (none without one)."""
        parts = {} if self.models is None else {"models": str(self.models)}
        if self.drop_models:
            parts["drop"] = ",".join(self.drop_models)
        if self.model_subset is not None:
            parts["subset"] = f"sha256-{hashlib.sha256(read_subset_file(self.model_subset)).hexdigest()[:12]}"
        return parts

    @property
    def reshapes(self) -> bool:
        """Whether the evals' models are chosen (or the models made peers) before scoring."""
        return (
            self.models is not None
            or bool(self.drop_models)
            or self.model_subset is not None
            or self.jackknife
        )

    @property
    def peer_id(self) -> str:
        """The peer the system ID names, as the Perl holds it
        (:func:`~rouge155py.inputs.files.perl_string`)."""
        return perl_string(self.system_id or "")

    def evaluated(self, peer_ids: Iterable[str]) -> list[str]:
        """The peers to report, of those a configuration names: all (sorted) under ``-a``."""
        return sorted(peer_ids) if self.all_systems else [self.peer_id]

    def shown(self, peer_id: str) -> str:
        """A peer ID as a person reads it: the system ID as given, any other (the XML's) as it is."""
        if not self.all_systems and self.system_id is not None and peer_id == self.peer_id:
            return self.system_id
        return peer_id


@dataclass(frozen=True)
class ResampleSettings:
    """The bootstrap of the averages: ``-r`` (``resamples``, as given: the Perl draws
    ``ceil(r)`` and puts r itself into the interval formula) and ``-c`` (``confidence``;
    ``confidence_label``: the value as the report prints it)."""

    resamples: float = 1000
    confidence: float = 95.0
    confidence_label: str = "95"

    @property
    def resample_count(self) -> int:
        """How many resamples the Perl draws: ``for (i = 0; i < r; i++)``."""
        return math.ceil(self.resamples) if self.resamples > 0 else 0

    def signature_parts(self) -> dict[str, str]:
        """The signature's parts that name the bootstrap (see :meth:`Options.signature`)."""
        return {"c": self.confidence_label, "r": f"{self.resamples:g}"}
