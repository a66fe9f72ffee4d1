"""Paraphrase tables for ParaEval: reading PPDB and TSV files, holding them compactly, pivoting.

A table is a set of phrase pairs. Each phrase goes through the run's text
stage (the summaries' tokenizer, ``-s`` stopwords and ``-m`` stemming), so a
phrase matches exactly the summary words it would be made of. A pair matches
both ways (a paraphrase relation is symmetric, and PPDB lists both directions
anyway); a pair whose two sides come out as the same words is dropped (exact
words are ParaEval's third tier).

Held as numpy arrays, not a Python object per pair: the phrases' token ids end
to end (``tokens``, ``starts``), their 64-bit polynomial hashes sorted (``hashes``, and
``order``: the phrase of each), and every pair, each way, as one sorted 64-bit key
``a * phrases + b`` (``keys``). A lookup hashes a span of a summary, finds
the hash and checks the tokens; two phrases of one table with the same
64-bit hash are told apart by a second hash, and a table where both collide
is refused.

:func:`pivot` builds a table from a Moses phrase table (Bannard & Callison-Burch
2005); ``python -m rouge155py.paraphrases`` is its command.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import numbers
import os
import stat
import zlib
from array import array
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional, Sequence

from ..errors import InputError, LimitError, UsageError, described

if TYPE_CHECKING:
    import numpy as np
    from typing_extensions import CapsuleType

    from .._kernel import ParaEvalKernel
    from ..text.corpus import Corpus

__all__ = [
    "DEFAULT_PPDB_FEATURE",
    "MAX_LINE_BYTES",
    "PhraseTable",
    "TableFile",
    "TableSpec",
    "build_table",
    "phrase_hashes",
    "pivot",
    "read_pairs",
    "table_digest",
]

#: The PPDB feature compared with the threshold unless another is named: PPDB 2.0's
#: supervised score (higher is better).
DEFAULT_PPDB_FEATURE = "PPDB2.0Score"
#: Lines read, tokenized and hashed at once while a table loads: a bound on the memory it takes.
_CHUNK_LINES = 1 << 18
_SEPARATOR = " ||| "
_SEPARATOR_BYTES = _SEPARATOR.encode()
# Two independent polynomial hashes of a phrase's token ids (each id + 1), modulo 2^64.
_BASES = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F)


@dataclass(frozen=True)
class TableSpec:
    """Which pairs of a table file a run keeps: ``feature`` (PPDB; the TSV's third column is
    its score) at least ``threshold`` (None: every pair)."""

    path: str
    feature: Optional[str] = None
    threshold: Optional[float] = None


#: The longest line of a table read (its newline not counted): a longer one is refused before
#: it is all held (or, in a ``.gz`` file, inflated).
MAX_LINE_BYTES = 2**20
#: The bytes of lines read at most before they are tokenized, with :data:`_CHUNK_LINES`.
_CHUNK_BYTES = 64 * 2**20


class _Hashed(io.RawIOBase):
    """A file descriptor read once, front to back, and the SHA-256 of every byte read from it."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self.sha256 = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def readinto(self, buffer: Any) -> int:
        data = os.read(self._fd, len(buffer))
        buffer[: len(data)] = data
        self.sha256.update(data)
        return len(data)

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


def _open_descriptor(path: str) -> int:
    """A table file opened once for reading; a regular file only, so that a FIFO without a writer
    is never waited on (the check is of the descriptor opened: no other file can take its name
    in between)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputError(f"cannot open paraphrase table {path}: {exc.strerror}") from None
    except ValueError:
        raise InputError(f"cannot open paraphrase table {path!r}: the name holds a NUL byte") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError(f"paraphrase table {path} is not a regular file")
    os.set_blocking(fd, True)
    return fd


class TableFile:
    """A table file (``.gz``: decompressed), opened once: its lines, each bounded, and the digest
    of the bytes read (:func:`table_digest`); a context manager."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._raw = _Hashed(_open_descriptor(path))
        self._stored = io.BufferedReader(self._raw, 1 << 20)
        self._text: IO[bytes] = self._stored
        if path.endswith(".gz"):
            self._text = gzip.GzipFile(fileobj=self._stored, mode="rb")  # type: ignore[assignment]

    def __enter__(self) -> TableFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._text.close()
        self._stored.close()

    def lines(self) -> Iterator[tuple[int, list[bytes]]]:
        """The file's lines, without their newline, a block at a time with the number of the
        block's first line (:meth:`blocks`, split)."""
        for number, block in self.blocks():
            yield number, block.split(b"\n")

    def blocks(self) -> Iterator[tuple[int, bytes]]:
        """The file's lines, a block of whole lines joined by newlines at a time, with the number
        of the block's first line; a line over :data:`MAX_LINE_BYTES` is a :class:`LimitError`
        (met within a block or two of reading: never all held), a file that cannot be read (a
        corrupt ``.gz`` too) an :class:`InputError`. At the end the file's digest is what
        :func:`table_digest` gives for its path."""
        number, carry = 1, b""
        try:
            for data in iter(functools.partial(self._text.read, MAX_LINE_BYTES), b""):
                data = carry + data
                end = data.rfind(b"\n")
                carry = data[end + 1 :]
                # A block holds no whole line longer than itself: only one joined to the carry can be.
                first = data.find(b"\n")
                if len(carry) > MAX_LINE_BYTES or first > MAX_LINE_BYTES:
                    long = number + data.count(b"\n") if len(carry) > MAX_LINE_BYTES else number
                    raise LimitError(
                        f"paraphrase table {self.path}, line {long}: longer than "
                        f"{MAX_LINE_BYTES >> 20} MiB: refused"
                    )
                if end >= 0:
                    block = data[:end]
                    yield number, block
                    number += block.count(b"\n") + 1
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"cannot read paraphrase table {self.path}: {exc}") from None
        if carry:
            yield number, carry
        self.digest()

    def digest(self) -> str:
        """The first 16 hex digits of the SHA-256 of the file's bytes as stored (read to its end)."""
        try:
            while self._stored.read(1 << 20):
                pass
        except OSError as exc:
            raise InputError(f"cannot read paraphrase table {self.path}: {exc.strerror}") from None
        found = _DIGESTS[os.path.abspath(self.path)] = self._raw.sha256.hexdigest()[:16]
        return found


# The digest of each table path as this process last read it: a run's signature names the bytes
# its table was loaded from.
_DIGESTS: dict[str, str] = {}


def table_digest(path: str) -> str:
    """The first 16 hex digits of the SHA-256 of a table file's bytes (as stored: ``.gz`` too), as
    this process last read them (loading the table reads them): else read now."""
    found = _DIGESTS.get(os.path.abspath(path))
    if found is None:
        with TableFile(path) as table:
            found = table.digest()
    return found


def _feature_value(features: bytes, name: bytes, path: str, number: int) -> float:
    """The value of ``name=value`` among a PPDB line's space-separated features."""
    key = name + b"="
    at = features.find(key)
    while at > 0 and features[at - 1 : at] != b" ":
        at = features.find(key, at + 1)
    shown = name.decode("latin-1")
    if at < 0:
        raise InputError(f"paraphrase table {path}, line {number}: no feature {shown}")
    end = features.find(b" ", at)
    text = features[at + len(key) : end if end >= 0 else len(features)]
    try:
        return float(text)
    except ValueError:
        raise InputError(
            f"paraphrase table {path}, line {number}: feature {shown} is not a number ({text!r})"
        ) from None


def _score(fields: list[bytes], path: str, number: int) -> float:
    """The third column of a TSV line."""
    if len(fields) < 3:
        raise InputError(f"paraphrase table {path}, line {number}: no score column")
    try:
        return float(fields[2])
    except ValueError:
        raise InputError(f"paraphrase table {path}, line {number}: the score is not a number") from None


def _lowered(phrases: list[bytes]) -> list[str]:
    """Phrases as the summaries' text is held: a character a byte, ASCII letters lowercased."""
    return b"\n".join(phrases).lower().decode("latin-1").split("\n") if phrases else []


def read_pairs(spec: TableSpec) -> Iterator[tuple[list[str], list[str]]]:
    """The kept pairs of a table, in chunks of (phrases, paraphrases), lowercased as summaries are.

    The format is the first non-blank line's: PPDB (``LHS ||| phrase ||| paraphrase |||
    features [||| alignment ...]``; rules whose phrases hold nonterminals such as ``[NN,1]``
    are left out) when it holds `` ||| ``, else TSV (``phrase<TAB>paraphrase
    [<TAB>score]``). Bytes are read as the summaries' are (one character a byte).
    """
    from .._kernel import paraeval_kernel

    kernel = paraeval_kernel()
    if kernel is None:
        yield from _read_pairs(spec)
        return
    for texts, phrases, count in _read_indexed(spec, kernel):
        at = array("i")
        at.frombytes(phrases)
        yield [texts[i] for i in at[:count]], [texts[i] for i in at[count:]]


class _Lines:
    """A table's lines read one at a time: its format is its first non-blank line's."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec
        self.feature = (spec.feature or DEFAULT_PPDB_FEATURE).encode("utf-8", "surrogateescape")
        self.ppdb: Optional[bool] = None

    def pair(self, raw: bytes, number: int) -> Optional[tuple[bytes, bytes, int]]:
        """The pair a line keeps (phrase, paraphrase, the length of the line), or None."""
        path, threshold = self.spec.path, self.spec.threshold
        line = raw.rstrip(b"\r\n")
        if not line.strip():
            return None
        if self.ppdb is None:
            self.ppdb = _SEPARATOR_BYTES in line
            if not self.ppdb and self.spec.feature is not None:
                raise UsageError(f"--paraphrase-feature {self.spec.feature}: {path} is a TSV table, not PPDB")
        if self.ppdb:
            fields = line.split(_SEPARATOR_BYTES)
            if len(fields) < 4:
                raise InputError(
                    f"paraphrase table {path}, line {number}: expected "
                    "LHS ||| phrase ||| paraphrase ||| features (PPDB)"
                )
            if b"[" in fields[1] or b"[" in fields[2]:
                return None  # a syntactic rule: its nonterminals ([NN,1]) are no words
            if (
                threshold is not None
                and not _feature_value(fields[3], self.feature, path, number) >= threshold
            ):
                return None
            return fields[1], fields[2], len(line)
        fields = line.split(b"\t")
        if len(fields) not in (2, 3):
            raise InputError(
                f"paraphrase table {path}, line {number}: expected phrase<TAB>paraphrase[<TAB>score] (TSV)"
            )
        if threshold is not None and not _score(fields, path, number) >= threshold:
            return None
        return fields[0], fields[1], len(line)


def _read_pairs(spec: TableSpec) -> Iterator[tuple[list[str], list[str]]]:
    """:func:`read_pairs` without the kernel."""
    lines = _Lines(spec)
    lefts: list[bytes] = []
    rights: list[bytes] = []
    held = 0
    with TableFile(spec.path) as table:
        for first, block in table.blocks():
            for number, raw in enumerate(block.split(b"\n"), first):
                kept = lines.pair(raw, number)
                if kept is None:
                    continue
                lefts.append(kept[0])
                rights.append(kept[1])
                held += kept[2]
                if len(lefts) >= _CHUNK_LINES or held >= _CHUNK_BYTES:
                    yield _lowered(lefts), _lowered(rights)
                    lefts, rights, held = [], [], 0
    if lefts:
        yield _lowered(lefts), _lowered(rights)


def _read_indexed(spec: TableSpec, kernel: ParaEvalKernel) -> Iterator[tuple[list[str], bytes, int]]:
    """The chunks of :func:`read_pairs`, read by the kernel: each its distinct phrases
    (lowercased), the int32 indices of its pairs' phrases then of their paraphrases, and its
    number of pairs."""
    lines = _Lines(spec)
    key = lines.feature + b"="
    reader = kernel.reader()
    with TableFile(spec.path) as table:
        for number, block in table.blocks():
            at, end = 0, len(block)
            while at <= end:
                full = False
                if lines.ppdb is not None:
                    # The kernel reads the lines up to a full chunk, or to one it leaves to pair().
                    at, number, full = kernel.pairs(
                        reader, block, at, number, lines.ppdb, key, spec.threshold, _CHUNK_LINES, _CHUNK_BYTES
                    )
                if not full and at <= end:
                    stop = block.find(b"\n", at)
                    stop = end if stop < 0 else stop
                    kept = lines.pair(block[at:stop], number)
                    at, number = stop + 1, number + 1
                    if kept is not None:
                        full = kernel.reader_add(reader, *kept, _CHUNK_LINES, _CHUNK_BYTES)
                if full:
                    yield kernel.reader_chunk(reader)
    chunk = kernel.reader_chunk(reader)
    if chunk[2]:
        yield chunk


def phrase_hashes(tokens: np.ndarray, starts: np.ndarray, base: int) -> np.ndarray:
    """The hash of each phrase (tokens[starts[i]:starts[i+1]], none empty): sum of
    (id + 1) * base^(its distance from the phrase's end), modulo 2^64."""
    import numpy as np

    lengths = np.diff(starts)
    if not len(lengths):
        return np.zeros(0, np.uint64)
    longest = int(lengths.max())
    powers = np.array([pow(base, k, 1 << 64) for k in range(longest)], np.uint64)
    ends = np.repeat(starts[1:], lengths)
    distance = ends - 1 - np.arange(len(tokens))
    values = (tokens.astype(np.uint64) + np.uint64(1)) * powers[distance]
    return np.add.reduceat(values, starts[:-1].astype(np.int64))


def span_hashes(ids: np.ndarray, length: int, base: int, previous: Optional[np.ndarray]) -> np.ndarray:
    """The hashes of the spans of ``length`` tokens of a text (at each start), from those one
    token shorter (``previous``; None for length 1)."""
    import numpy as np

    last = ids[length - 1 :].astype(np.uint64) + np.uint64(1)
    if previous is None:
        return last
    return previous[: len(last)] * np.uint64(base) + last


#: The item formats of a table's arrays (tokens, starts, hashes, order, keys), as the kernel holds them.
_FORMATS = ("i", "q", "Q", "i", "q")


class _Held:
    """A table's array k as numpy (made from the kernel's buffer when it is first read)."""

    def __init__(self, k: int) -> None:
        self.k = k

    def __get__(self, table: PhraseTable, owner: object = None) -> np.ndarray:
        return table._array(self.k)


class PhraseTable:
    """The pairs of a table, as token ids of one run's vocabulary (see the module docstring).

    Its arrays are numpy arrays, or buffers of the kernel's item formats (:data:`_FORMATS`) that
    the kernel's loader made: those become numpy arrays only where the Python path reads them,
    so a run on the kernel need not import numpy.
    """

    def __init__(
        self,
        tokens: np.ndarray,
        starts: np.ndarray,
        hashes: np.ndarray,
        order: np.ndarray,
        keys: np.ndarray,
        longest: Optional[int] = None,
    ) -> None:
        """Phrase i is tokens[starts[i]:starts[i + 1]]; ``hashes`` ascending, ``order`` their phrases;
        ``longest``: the most tokens of a phrase (worked out where not given)."""
        self._held: list[Any] = [tokens, starts, hashes, order, keys]
        self.phrases = len(starts) - 1
        #: Distinct unordered pairs.
        self.pairs = len(keys) // 2
        if longest is None:
            lengths = starts[1:] - starts[:-1]
            longest = int(lengths.max()) if len(lengths) else 0
        self.longest = longest
        self._kernel_state: Optional[tuple[ParaEvalKernel, Optional[CapsuleType]]] = None

    @classmethod
    def from_buffers(cls, arrays: Sequence[Any], longest: int) -> PhraseTable:
        """A table of the kernel loader's buffers (tokens, starts, hashes, order, keys), held as
        they are."""
        tokens, starts, hashes, order, keys = (
            memoryview(a).cast("B").cast(f)  # type: ignore[call-overload]
            for a, f in zip(arrays, _FORMATS)
        )
        return cls(tokens, starts, hashes, order, keys, longest)

    def _array(self, k: int) -> np.ndarray:
        held = self._held[k]
        if isinstance(held, memoryview):
            import numpy as np

            held = self._held[k] = np.asarray(held)
        return held

    tokens = _Held(0)
    starts = _Held(1)
    hashes = _Held(2)
    order = _Held(3)
    keys = _Held(4)

    def kernel_state(self, kernel: ParaEvalKernel) -> Optional[CapsuleType]:
        """The table as ParaEval's C kernel holds it (made once), or None where the kernel refuses
        its arrays (the Python path then matches)."""
        made = self._kernel_state
        if made is not None and made[0] is kernel:
            return made[1]
        arrays: list[Any] = []
        for k, wanted in enumerate(_FORMATS):
            held = self._held[k]
            if not (isinstance(held, memoryview) and held.format == wanted):
                import numpy as np

                values = self._array(k)
                held = np.ascontiguousarray(values, wanted)
                if held is not values and not np.array_equal(held, values):
                    return None  # values the kernel's types do not hold
                held = held.data
            arrays.append(held)
        try:
            state: Optional[CapsuleType] = kernel.table(*arrays)
        except ValueError:
            state = None
        self._kernel_state = (kernel, state)
        return state

    @property
    def nbytes(self) -> int:
        """The bytes its arrays hold."""
        return sum(a.nbytes for a in self._held)

    def find(self, ids: np.ndarray, starts: np.ndarray, length: int, hashes: np.ndarray) -> np.ndarray:
        """The phrase of each span (``length`` tokens of ``ids`` from each of ``starts``, whose
        hashes are ``hashes``), -1 where it is none."""
        import numpy as np

        found = np.full(len(starts), -1, np.int64)
        if not self.phrases or not len(starts):
            return found
        at = np.minimum(np.searchsorted(self.hashes, hashes), len(self.hashes) - 1)
        hit = np.flatnonzero(self.hashes[at] == hashes)
        if not len(hit):
            return found
        phrase = self.order[at[hit]].astype(np.int64)
        begin = self.starts[phrase]
        same = (self.starts[phrase + 1] - begin) == length
        for k in range(length):
            same &= self.tokens[np.where(same, begin + k, 0)] == ids[starts[hit] + k]
        found[hit[same]] = phrase[same]
        return found

    def links(self, left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For phrases ``left`` and ``right`` (ascending): the pairs the table holds, as indices
        (i, j) of ``left[i]`` and ``right[j]``.

        Each left phrase's partners are one run of the sorted keys: they are looked up in
        ``right`` when they are fewer than ``right``, else each pair (left phrase, right phrase)
        in the keys. Left phrases are taken a block at a time, so that what is held at once
        stays under :data:`_LINK_BLOCK` lookups whatever the phrases.
        """
        import numpy as np

        none = np.zeros(0, np.int64)
        if not len(self.keys) or not len(left) or not len(right):
            return none, none
        first = left * self.phrases
        lo = np.searchsorted(self.keys, first)
        sizes = np.searchsorted(self.keys, first + self.phrases) - lo
        by_partners = sizes <= len(right)
        found_i, found_j = [], []
        partners = np.flatnonzero(by_partners)
        for rows in _blocks(partners, np.cumsum(sizes[partners])):
            counts = sizes[rows]
            owner = np.repeat(rows, counts)
            at = np.arange(len(owner)) + np.repeat(lo[rows] - (np.cumsum(counts) - counts), counts)
            partner = self.keys[at] - first[owner]
            found = np.minimum(np.searchsorted(right, partner), len(right) - 1)
            hit = right[found] == partner
            found_i.append(owner[hit])
            found_j.append(found[hit])
        dense = np.flatnonzero(~by_partners)
        for rows in _blocks(dense, len(right) * np.arange(1, len(dense) + 1)):
            # common phrases have many partners: look up each pair in the keys
            wanted = (first[rows][:, None] + right[None, :]).ravel()
            at = np.minimum(np.searchsorted(self.keys, wanted), len(self.keys) - 1)
            hit = np.flatnonzero(self.keys[at] == wanted)
            found_i.append(rows[hit // len(right)])
            found_j.append(hit % len(right))
        if len(found_i) == 1:
            return found_i[0], found_j[0]
        return np.concatenate(found_i), np.concatenate(found_j)


#: The most lookups :meth:`PhraseTable.links` makes at once (a few arrays of 8 bytes each).
_LINK_BLOCK = 1 << 20


def _blocks(rows: np.ndarray, total: np.ndarray) -> Iterator[np.ndarray]:
    """``rows`` in consecutive blocks whose costs (``total``: their running sum) add up to at
    most :data:`_LINK_BLOCK` (one row a block where its own cost is more)."""
    import numpy as np

    if len(rows) and total[-1] <= _LINK_BLOCK:  # the usual case: one block
        yield rows
        return
    begin = 0
    while begin < len(rows):
        base = total[begin - 1] if begin else 0
        end = max(int(np.searchsorted(total, base + _LINK_BLOCK, "right")), begin + 1)
        yield rows[begin:end]
        begin = end


Encoder = Callable[[list[Any]], tuple[array, array]]


def _encoded(texts: list[str], encode: Encoder) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    ids, offsets = encode(texts)
    return np.frombuffer(ids, np.int32).copy(), np.frombuffer(offsets, np.int32).astype(np.int64)


def _collision(path: str) -> InputError:
    return InputError(f"paraphrase table {path}: two phrases have the same 64-bit hash; use a smaller table")


def _unique_phrases(
    h1: np.ndarray, h2: np.ndarray, tokens: np.ndarray, starts: np.ndarray, path: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct phrases (by hash), each where it first occurs, in that order: (h1, h2,
    tokens, starts)."""
    import numpy as np

    _, first, inverse = np.unique(h1, return_index=True, return_inverse=True)
    if not np.array_equal(h2[first][inverse.reshape(-1)], h2):
        raise _collision(path)
    del inverse
    keep = np.zeros(len(h1), bool)
    keep[first] = True
    lengths = np.diff(starts)
    kept_starts = np.zeros(len(first) + 1, np.int64)
    np.cumsum(lengths[keep], out=kept_starts[1:])
    return h1[keep], h2[keep], tokens[np.repeat(keep, lengths)], kept_starts


def build_table(
    spec: TableSpec, encode: Encoder, chunks: Optional[Iterable[tuple[list[Any], list[Any]]]] = None
) -> PhraseTable:
    """Load a table, each phrase tokenized by ``encode`` (texts -> token ids end to end, and
    where each text's start, as :meth:`rouge155py.text.corpus.Corpus.encode`); ``chunks`` of
    (phrases, paraphrases) instead of the file's."""
    from .._kernel import paraeval_kernel

    kernel = paraeval_kernel()
    if kernel is not None:
        return _built_table(kernel, spec, encode, chunks)
    import numpy as np

    phrase_parts: list[tuple[np.ndarray, ...]] = []
    pair_parts: list[tuple[np.ndarray, np.ndarray]] = []
    for lefts, rights in read_pairs(spec) if chunks is None else chunks:
        count = len(lefts)
        tokens, starts = _encoded(lefts + rights, encode)
        del lefts, rights
        lengths = np.diff(starts)
        nonempty = lengths > 0
        keep_pair = nonempty[:count] & nonempty[count:]
        h1 = np.zeros(2 * count, np.uint64)
        h2 = np.zeros(2 * count, np.uint64)
        if nonempty.any():
            kept_starts = np.concatenate(([0], np.cumsum(lengths[nonempty])))
            h1[nonempty] = phrase_hashes(tokens, kept_starts, _BASES[0])
            h2[nonempty] = phrase_hashes(tokens, kept_starts, _BASES[1])
        keep_pair &= (h1[:count] != h1[count:]) | (h2[:count] != h2[count:])
        if not keep_pair.any():
            continue
        pair_parts.append((h1[:count][keep_pair], h1[count:][keep_pair]))
        wanted = np.concatenate((keep_pair, keep_pair))
        starts_kept = np.concatenate(([0], np.cumsum(lengths[wanted])))
        token_mask = np.repeat(wanted, lengths)
        phrase_parts.append(
            _unique_phrases(h1[wanted], h2[wanted], tokens[token_mask], starts_kept, spec.path)
        )
    if not phrase_parts:  # the arrays' types as a table with phrases has them
        return PhraseTable(
            np.zeros(0, np.int32),
            np.zeros(1, np.int64),
            np.zeros(0, np.uint64),
            np.zeros(0, np.int32),
            np.zeros(0, np.int64),
        )
    h1 = np.concatenate([p[0] for p in phrase_parts])
    h2 = np.concatenate([p[1] for p in phrase_parts])
    offsets = np.cumsum([0] + [len(p[2]) for p in phrase_parts[:-1]])
    tokens = np.concatenate([p[2] for p in phrase_parts])
    starts = np.concatenate(
        [p[3][:-1] + offset for p, offset in zip(phrase_parts, offsets)] + [np.array([len(tokens)], np.int64)]
    )
    del phrase_parts
    h1, h2, tokens, starts = _unique_phrases(h1, h2, tokens, starts, spec.path)
    del h2
    order = np.argsort(h1).astype(np.int32)
    hashes = h1[order]
    del h1
    phrases = len(hashes)
    left = order[np.searchsorted(hashes, np.concatenate([p[0] for p in pair_parts]))].astype(np.int64)
    right = order[np.searchsorted(hashes, np.concatenate([p[1] for p in pair_parts]))].astype(np.int64)
    del pair_parts
    keys = np.unique(np.concatenate((left * phrases + right, right * phrases + left)))
    return PhraseTable(tokens, starts, hashes, order, keys)


def _built_table(
    kernel: ParaEvalKernel,
    spec: TableSpec,
    encode: Encoder,
    chunks: Optional[Iterable[tuple[list[Any], list[Any]]]],
) -> PhraseTable:
    """:func:`build_table` by the kernel: the same arrays, the same errors where they are raised
    (each chunk's distinct phrases tokenized once, where the kernel reads the file), held as the
    kernel made them."""
    builder = kernel.builder()
    indexed: Iterable[tuple[list[Any], Optional[bytes], int]] = (
        _read_indexed(spec, kernel)
        if chunks is None
        else ((left + right, None, len(left)) for left, right in chunks)
    )
    for texts, phrases, count in indexed:
        ids, offsets = encode(texts)
        del texts
        if not kernel.builder_add(builder, ids, offsets, phrases, count):
            raise _collision(spec.path)
    collided, *arrays, longest = kernel.builder_arrays(builder)
    del builder
    if collided:
        raise _collision(spec.path)
    return PhraseTable.from_buffers(arrays, longest)


def corpus_table(corpus: Corpus, spec: TableSpec, stem: bool) -> PhraseTable:
    """The table in a corpus's token ids under one stemming choice, loaded once per vocabulary."""
    return corpus.lasting(
        ("paraphrases", spec, stem), lambda: build_table(spec, lambda t: corpus.encode(t, stem))
    )


# Pivoting a Moses phrase table.

#: The Moses score columns read (0-based) when the English phrase is the table's first column
#: (``english ||| foreign ||| scores``): Moses writes φ(source|target) lex(source|target)
#: φ(target|source) lex(target|source), so p(f|e) is column 2 and p(e|f) column 0.
P_F_GIVEN_E, P_E_GIVEN_F = 2, 0


def pivot(
    lines: Iterable[bytes],
    threshold: float,
    f_given_e: int = P_F_GIVEN_E,
    e_given_f: int = P_E_GIVEN_F,
    name: str = "phrase table",
) -> Iterator[tuple[str, str, float]]:
    """Paraphrase pairs (e1, e2, p(e2|e1)) with p(e2|e1) = Σ_f p(f|e1)·p(e2|f) >= threshold,
    e1 != e2, from Moses lines ``english ||| foreign ||| scores``, in order of e1 then e2.

    The sum runs over the foreign phrases in the order of their first line. The lines are
    held (each English phrase's foreign phrases, each foreign phrase's English ones), and the
    pairs made one e1 at a time: what is held beside the lines is one e1's partners, however
    many pairs the table makes (n lines sharing one foreign phrase make n² of them).
    """
    if not isinstance(threshold, numbers.Real) or isinstance(threshold, bool):
        raise UsageError(f"the threshold must be a number, got {described(threshold)}")
    for column in (f_given_e, e_given_f):
        if not isinstance(column, int) or isinstance(column, bool) or column < 0:
            raise UsageError(f"a score column is a whole number from 0, got {described(column)}")
    by_foreign: dict[str, list[tuple[str, float]]] = {}  # f: (e, p(e|f)) by line
    by_english: dict[str, list[tuple[int, float]]] = {}  # e: (f's first line, p(f|e)) by line
    first: dict[str, int] = {}
    for number, raw in enumerate(lines, 1):
        line = raw.decode("utf-8", "surrogateescape").rstrip("\r\n")
        if not line.strip():
            continue
        fields = line.split(_SEPARATOR)
        if len(fields) < 3:
            raise InputError(f"{name}, line {number}: expected english ||| foreign ||| scores")
        scores = fields[2].split()
        try:
            p_f_e, p_e_f = float(scores[f_given_e]), float(scores[e_given_f])
        except (IndexError, ValueError):
            raise InputError(
                f"{name}, line {number}: no scores in columns {f_given_e} and {e_given_f}"
            ) from None
        english, foreign = fields[0].strip(), fields[1].strip()
        by_foreign.setdefault(foreign, []).append((english, p_e_f))
        by_english.setdefault(english, []).append((first.setdefault(foreign, len(first)), p_f_e))
    foreigns = list(by_foreign.values())
    del by_foreign, first
    for e1 in sorted(by_english):
        total: dict[str, float] = {}
        # sorted() is stable: one f's lines keep their order, as the sum over lines of f did.
        for f, p_f_e1 in sorted(by_english[e1], key=lambda entry: entry[0]):
            for e2, p_e2_f in foreigns[f]:
                if e1 != e2:
                    total[e2] = total.get(e2, 0.0) + p_f_e1 * p_e2_f
        for e2 in sorted(total):
            if total[e2] >= threshold:
                yield e1, e2, total[e2]
