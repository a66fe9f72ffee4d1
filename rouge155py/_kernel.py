"""The optional compiled kernels: ``accel`` is the ``_accel`` module, or None where it was not built;
``paraeval`` is ParaEval's (``_paraeval``), read through :func:`paraeval_kernel`.

The one place that asks whether the kernel is there: it ships built with the package (the
kernel of the same source, so every function of ``_accel.pyi`` is there), and is missing
only where no C compiler was found at install time. Every caller has a pure-Python path
(numpy's for the bootstrap) that gives the same bytes, taken where ``accel`` is None.
Setting ``ROUGE155PY_NO_KERNEL`` (to anything but an empty string) takes those paths
although the kernel is built: how they are compared and measured against it. Callers read
``_kernel.accel`` when they run, not a name bound at import, so that ``accel`` set to None
takes them all off the kernel at once (the ``-m`` stemmer aside, bound once: the same stems),
ParaEval's too.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, Literal, Protocol, TypeVar, Union, overload

    from _typeshed import ReadableBuffer, WriteableBuffer
    from typing_extensions import CapsuleType

    _Score = TypeVar("_Score", bound=tuple[float, float, float])
    _Match = TypeVar("_Match", bound=tuple[Any, ...])

    class Kernel(Protocol):
        """The ``_accel`` module as its callers see it (its functions: ``_accel.pyi``)."""

        def union_lcs(
            self,
            model: ReadableBuffer,
            model_offsets: ReadableBuffer,
            model_budget: ReadableBuffer,
            peer: ReadableBuffer,
            peer_offsets: ReadableBuffer,
            peer_budget: ReadableBuffer,
            weights: Optional[ReadableBuffer],
            /,
        ) -> tuple[float, float]: ...

        def budget(self, unigrams: ReadableBuffer, /) -> bytes: ...

        def bootstrap_sums(
            self,
            rows: Union[ReadableBuffer, tuple[ReadableBuffer, ...]],
            resamples: int,
            out: WriteableBuffer,
            divisor: float = 0.0,
            first: int = 0,
            step: int = 1,
            order: Optional[ReadableBuffer] = None,
            keyed: int = -1,
            ahead: int = -1,
            /,
        ) -> None: ...

        def sort_and_sum(self, values: WriteableBuffer, /) -> float: ...

        def kendall_tau_b_counted(
            self,
            at: ReadableBuffer,
            cells: ReadableBuffer,
            weights: ReadableBuffer,
            two_roots: bool,
            out: WriteableBuffer,
            /,
        ) -> None: ...

        def counted_ranks(
            self,
            runs: ReadableBuffer,
            held: ReadableBuffer,
            laid_out: ReadableBuffer,
            width: int,
            out: WriteableBuffer,
            /,
        ) -> None: ...

        def average_ranks(self, values: ReadableBuffer, n: int, out: WriteableBuffer, /) -> None: ...

        def kendall_tau_b(
            self, x: ReadableBuffer, y: ReadableBuffer, n: int, two_roots: bool, out: WriteableBuffer, /
        ) -> None: ...

        def unit_hits(
            self,
            peer: ReadableBuffer,
            models: Sequence[ReadableBuffer],
            mode: int,
            n: int,
            reach: int,
            unigrams: bool,
            /,
        ) -> tuple[tuple[int, int, int], ...]: ...

        def token_memo(self, table: dict[str, int], /) -> CapsuleType: ...

        def encode(
            self, texts: list[str], table: dict[str, int], drop: bool, memo: CapsuleType, /
        ) -> tuple[bytes, bytes]: ...

        def encode_lines(
            self, text: str, table: dict[str, int], drop: bool, memo: CapsuleType, /
        ) -> Optional[tuple[bytes, bytes]]: ...

        def text_state(self, stopwords: Iterable[str], exceptions: dict[str, str], /) -> CapsuleType: ...

        def score_pairs(
            self,
            state: CapsuleType,
            texts: list[str],
            stem: bool,
            drop: bool,
            peers: ReadableBuffer,
            model_starts: ReadableBuffer,
            models: ReadableBuffer,
            metrics: Sequence[tuple[int, int, int, bool, float]],
            alpha: float,
            best_model: bool,
            max_cells: int,
            /,
        ) -> tuple[bytes, int]: ...

        def rs_score_pairs(
            self,
            targets: Sequence[str],
            predictions: Sequence[str],
            stem: bool,
            metrics: Sequence[tuple[int, int]],
            names: Sequence[str],
            score_type: type[_Score],
            max_cells: int,
            /,
        ) -> Optional[list[dict[str, _Score]]]: ...

        def plain_texts(self, texts: list[str], longest: int, /) -> bool: ...

        def porter_stem(self, word: str, /) -> Optional[str]: ...

        def rs_stem(self, word: str, /) -> Optional[str]: ...

        @overload
        def rs_encode(
            self, texts: list[str], stem: bool, lines: bool, words: Literal[True], /
        ) -> tuple[bytes, bytes, bytes, list[str]]: ...
        @overload
        def rs_encode(
            self, texts: list[str], stem: bool, lines: bool, words: Literal[False], /
        ) -> tuple[bytes, bytes, bytes, None]: ...
        @overload
        def rs_encode(
            self, texts: list[str], stem: bool, lines: bool, words: bool, /
        ) -> tuple[bytes, bytes, bytes, Optional[list[str]]]: ...

    class ParaEvalKernel(Protocol):
        """The ``_paraeval`` module as its callers see it (its functions: ``_paraeval.pyi``)."""

        def table(
            self,
            tokens: ReadableBuffer,
            starts: ReadableBuffer,
            hashes: ReadableBuffer,
            order: ReadableBuffer,
            keys: ReadableBuffer,
            /,
        ) -> CapsuleType: ...

        def match(
            self,
            table: CapsuleType,
            texts: list[tuple[ReadableBuffer, ReadableBuffer]],
            pairs: ReadableBuffer,
            limit: int,
            search_bytes: int,
            state_bytes: int,
            candidate_bytes: int,
            match_type: type[_Match],
            candidate_type: Optional[type[tuple[int, int, int, int]]],
            /,
        ) -> list[_Match]: ...

        def reader(self) -> CapsuleType: ...

        def pairs(
            self,
            reader: CapsuleType,
            block: bytes,
            at: int,
            number: int,
            ppdb: bool,
            key: bytes,
            threshold: object,
            max_lines: int,
            max_bytes: int,
            /,
        ) -> tuple[int, int, bool]: ...

        def reader_add(
            self,
            reader: CapsuleType,
            phrase: bytes,
            paraphrase: bytes,
            length: int,
            max_lines: int,
            max_bytes: int,
            /,
        ) -> bool: ...

        def reader_chunk(self, reader: CapsuleType, /) -> tuple[list[str], bytes, int]: ...

        def builder(self) -> CapsuleType: ...

        def builder_add(
            self,
            builder: CapsuleType,
            tokens: ReadableBuffer,
            starts: ReadableBuffer,
            phrases: Optional[ReadableBuffer],
            count: int,
            /,
        ) -> bool: ...

        def builder_arrays(
            self, builder: CapsuleType, /
        ) -> tuple[bool, bytearray, bytearray, bytearray, bytearray, bytearray, int]: ...


__all__ = [
    "KERNEL_MISSING",
    "accel",
    "kernel_available",
    "notice_missing_kernel",
    "paraeval",
    "paraeval_kernel",
]

#: The line that says the kernel was not built, and how to get it.
KERNEL_MISSING = (
    "rouge155py: note: the C kernel is not built (no C compiler when rouge155py was installed): "
    "the same numbers, several times slower; install a wheel built with it, or a C compiler "
    "(gcc) and reinstall (README: Install)"
)

accel: Optional[Kernel]
try:
    import rouge155py._accel as _built  # the module itself, not a name of the package
except ImportError:  # no C compiler at install time
    accel = None
else:
    accel = _built
paraeval: Optional[ParaEvalKernel]
try:
    import rouge155py._paraeval as _built_paraeval
except ImportError:  # no C compiler at install time
    paraeval = None
else:
    paraeval = _built_paraeval
_missing = accel is None  # not built; switched off below on purpose is not missing
_noticed = False
if os.environ.get("ROUGE155PY_NO_KERNEL"):
    accel = None
    paraeval = None


def kernel_available() -> bool:
    """Whether the compiled kernel is in use."""
    return accel is not None


def paraeval_kernel() -> Optional[ParaEvalKernel]:
    """ParaEval's kernel where the kernels are in use (``accel`` set to None switches it off too)."""
    return paraeval if accel is not None else None


def notice_missing_kernel() -> None:
    """Say :data:`KERNEL_MISSING` on stderr, once per process, where the kernel was not built."""
    global _noticed
    if not _missing or _noticed:
        return
    _noticed = True
    with contextlib.suppress(AttributeError, OSError, ValueError):
        sys.stderr.write(KERNEL_MISSING + "\n")
        sys.stderr.flush()
