"""Loading a paraphrase table (read_pairs, build_table) against a plain reference of the same
rules: random PPDB and TSV tables (nonterminals, thresholds, blank lines, CRLF, duplicates,
phrases that come out empty, both directions, malformed lines, ``.gz``), small chunk and line
bounds, with the kernel and without. The chunks, the arrays and the errors are the same."""

from __future__ import annotations

import gzip
import os
import random
import subprocess
import sys
from array import array
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np
import pytest

from rouge155py import _kernel
from rouge155py.errors import InputError, LimitError, UsageError
from rouge155py.metrics import paraphrases
from rouge155py.metrics.paraphrases import TableSpec, build_table, read_pairs

CASES = int(os.environ.get("ROUGE155PY_TABLE_CASES", "300"))
MASK = (1 << 64) - 1
BASES = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F)

# Two phrases of five token ids with the same first hash and not the same second (a short
# vector of the lattice of the first hash's collisions).
COLLIDING = ([5000] * 5, [5000 + d for d in (163, 788, 2850, -2934, 2789)])


# -- the reference: the rules, written plainly -------------------------------------------


def _file_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def _reference_blocks(path: Path, limit: int) -> list[tuple[int, list[bytes]]]:
    """The lines a block at a time, as the file is read `limit` bytes at a time (a line over
    `limit` raises where it is met)."""
    data, blocks, number, carry = _file_bytes(path), [], 1, b""
    for at in range(0, len(data), limit):
        lines = (carry + data[at : at + limit]).split(b"\n")
        carry = lines.pop()
        if len(carry) > limit or (lines and len(lines[0]) > limit):
            long = number + len(lines) if len(carry) > limit else number
            blocks.append((long, [LimitError]))  # type: ignore[list-item]
            return blocks
        if lines:
            blocks.append((number, lines))
            number += len(lines)
    if carry:
        blocks.append((number, [carry]))
    return blocks


def _reference_pairs(spec: TableSpec, limit: int, chunk_lines: int, chunk_bytes: int) -> list[Any]:
    """The chunks of (phrases, paraphrases), then the error raised (as (type, message)) if any."""
    out: list[Any] = []
    path, threshold = spec.path, spec.threshold
    feature = (spec.feature or paraphrases.DEFAULT_PPDB_FEATURE).encode("utf-8", "surrogateescape")
    ppdb = None
    lefts: list[bytes] = []
    rights: list[bytes] = []
    held = 0

    def lowered(phrases: list[bytes]) -> list[str]:
        return [p.lower().decode("latin-1") for p in phrases]

    try:
        for first, lines in _reference_blocks(Path(path), limit):
            if lines == [LimitError]:
                raise LimitError(
                    f"paraphrase table {path}, line {first}: longer than {limit >> 20} MiB: refused"
                )
            for number, raw in enumerate(lines, first):
                line = raw.rstrip(b"\r\n")
                if not line.strip():
                    continue
                if ppdb is None:
                    ppdb = b" ||| " in line
                    if not ppdb and spec.feature is not None:
                        raise UsageError(
                            f"--paraphrase-feature {spec.feature}: {path} is a TSV table, not PPDB"
                        )
                if ppdb:
                    fields = line.split(b" ||| ")
                    if len(fields) < 4:
                        raise InputError(
                            f"paraphrase table {path}, line {number}: expected "
                            "LHS ||| phrase ||| paraphrase ||| features (PPDB)"
                        )
                    if b"[" in fields[1] or b"[" in fields[2]:
                        continue
                    if threshold is not None:
                        features = fields[3]
                        found = None
                        for at in range(len(features)):
                            if features.startswith(feature + b"=", at) and (
                                at == 0 or features[at - 1 : at] == b" "
                            ):
                                found = at
                                break
                        shown = feature.decode("latin-1")
                        if found is None:
                            raise InputError(f"paraphrase table {path}, line {number}: no feature {shown}")
                        end = features.find(b" ", found)
                        text = features[found + len(feature) + 1 : end if end >= 0 else len(features)]
                        try:
                            value = float(text)
                        except ValueError:
                            raise InputError(
                                f"paraphrase table {path}, line {number}: feature {shown} is not a number "
                                f"({text!r})"
                            ) from None
                        if not value >= threshold:
                            continue
                    lefts.append(fields[1])
                    rights.append(fields[2])
                else:
                    fields = line.split(b"\t")
                    if len(fields) not in (2, 3):
                        raise InputError(
                            f"paraphrase table {path}, line {number}: expected phrase<TAB>paraphrase"
                            "[<TAB>score] (TSV)"
                        )
                    if threshold is not None:
                        if len(fields) < 3:
                            raise InputError(f"paraphrase table {path}, line {number}: no score column")
                        try:
                            value = float(fields[2])
                        except ValueError:
                            raise InputError(
                                f"paraphrase table {path}, line {number}: the score is not a number"
                            ) from None
                        if not value >= threshold:
                            continue
                    lefts.append(fields[0])
                    rights.append(fields[1])
                held += len(line)
                if len(lefts) >= chunk_lines or held >= chunk_bytes:
                    out.append((lowered(lefts), lowered(rights)))
                    lefts, rights, held = [], [], 0
    except (InputError, LimitError, UsageError) as exc:
        out.append((type(exc), str(exc)))
        return out
    if lefts:
        out.append((lowered(lefts), lowered(rights)))
    return out


def _hashes(ids: list[int]) -> tuple[int, int]:
    found = []
    for base in BASES:
        h = 0
        for i in ids:
            h = (h * base + (i + 1)) & MASK
        found.append(h)
    return found[0], found[1]


def _reference_table(chunks: list[Any], encode: Callable[[list[Any]], Any], path: str) -> Any:
    """The arrays (tokens, starts, hashes, order, keys) of the chunks' table, or the error."""
    collision = (
        InputError,
        f"paraphrase table {path}: two phrases have the same 64-bit hash; use a smaller table",
    )
    phrases: list[list[int]] = []
    index: dict[int, int] = {}  # first hash -> phrase
    seconds: dict[int, int] = {}  # first hash -> the second of its first phrase
    collided = False
    pairs = []
    for chunk in chunks:
        if isinstance(chunk[0], type):
            return chunk
        lefts, rights = chunk
        count = len(lefts)
        ids, offsets = encode(lefts + rights)
        texts = [list(ids[offsets[k] : offsets[k + 1]]) for k in range(2 * count)]
        kept = [
            j
            for j in range(count)
            if texts[j] and texts[count + j] and _hashes(texts[j]) != _hashes(texts[count + j])
        ]
        local: dict[int, int] = {}  # first hash -> the second of its first phrase in this chunk
        for tokens in [texts[j] for j in kept] + [texts[count + j] for j in kept]:
            h1, h2 = _hashes(tokens)
            if local.setdefault(h1, h2) != h2:
                return collision
            if h1 not in index:
                index[h1] = len(phrases)
                phrases.append(tokens)
        for h1, h2 in local.items():
            collided |= seconds.setdefault(h1, h2) != h2
        pairs += [(_hashes(texts[j])[0], _hashes(texts[count + j])[0]) for j in kept]
    if collided:
        return collision
    n = len(phrases)
    if not n:
        return (
            np.zeros(0, np.int32),
            np.zeros(1, np.int64),
            np.zeros(0, np.uint64),
            np.zeros(0, np.int32),
            np.zeros(0, np.int64),
        )
    first = [_hashes(t)[0] for t in phrases]
    order = sorted(range(n), key=lambda k: first[k])
    keys = sorted({index[a] * n + index[b] for a, b in pairs} | {index[b] * n + index[a] for a, b in pairs})
    starts = [0]
    for tokens in phrases:
        starts.append(starts[-1] + len(tokens))
    return (
        np.array([t for tokens in phrases for t in tokens], np.int32),
        np.array(starts, np.int64),
        np.array([first[k] for k in order], np.uint64),
        np.array(order, np.int32),
        np.array(keys, np.int64),
    )


# -- random tables -------------------------------------------------------------------------


def _encoder() -> Callable[[list[Any]], tuple[array, array]]:
    """Token ids by first sight (so the order texts are tokenized in shows); ``#n`` is id n;
    ``,`` no token (a phrase of it comes out empty)."""
    vocabulary: dict[str, int] = {}

    def encode(texts: list[Any]) -> tuple[array, array]:
        ids, offsets = array("i"), array("i", [0])
        for text in texts:
            for word in text.split():
                if word == ",":
                    continue
                ids.append(
                    int(word[1:])
                    if word[0] == "#"
                    else vocabulary.setdefault(word, 100_000 + len(vocabulary))
                )
            offsets.append(len(ids))
        return ids, offsets

    return encode


def _phrase(rng: random.Random, words: list[str]) -> str:
    kind = rng.random()
    if kind < 0.03:
        return rng.choice(["", ",", " , ", "  "])
    if kind < 0.06:
        return " ".join(f"#{i}" for i in rng.choice(COLLIDING))
    if kind < 0.09:
        return rng.choice(["[NP,1] " + rng.choice(words), "a [X,2]", "["])
    phrase = " ".join(rng.choices(words, k=rng.randint(1, 3)))
    if rng.random() < 0.2:
        phrase = phrase.upper() if rng.random() < 0.5 else phrase.title()
    if rng.random() < 0.05:
        phrase = "  " + phrase + " "
    return phrase


def _table(rng: random.Random, ppdb: bool, errors: bool) -> bytes:
    words = [
        rng.choice(
            ["bomb", "up", "Libya", "jazz", "AZ@`", "caf\xe9", "x|y", "a||b", "|||", "p=1", "\xc9T\xe9"]
        )
        for _ in range(rng.randint(2, 8))
    ]
    pairs: list[tuple[str, str]] = []
    lines: list[str] = []
    scored = rng.random() < 0.7
    for _ in range(rng.randint(0, 40)):
        roll = rng.random()
        if roll < 0.08:
            lines.append(rng.choice(["", " ", "\t", "\r", " \x0b\x0c "]))
            continue
        if errors and roll < 0.11:
            lines.append(rng.choice(["oops", "a\tb\tc\td", "[X] ||| a ||| b", "a ||| b ||| c"]))
            continue
        if pairs and roll < 0.25:
            a, b = rng.choice(pairs)
            if rng.random() < 0.5:
                a, b = b, a  # the other direction
        else:
            a, b = _phrase(rng, words), _phrase(rng, words)
            if rng.random() < 0.05:
                b = a
            pairs.append((a, b))
        if ppdb:
            score = rng.choice(["3.5", "1", "-2", "4e0", "1_0", "nan", "inf", "0.3"])
            if errors and rng.random() < 0.05:
                score = " 2"
            features = rng.choice(
                [
                    f"PPDB2.0Score={score} p(e|f)={rng.uniform(0, 5):.2f}",
                    f"p(e|f)={rng.uniform(0, 5):.2f} PPDB2.0Score={score}",
                    f"XPPDB2.0Score=9 PPDB2.0Score={score}",
                    f"PPDB2.0Score={score}",
                ]
            )
            if errors and rng.random() < 0.03:
                features = rng.choice(["p(e|f)=1", "PPDB2.0Score=abc", "PPDB2.0Score=", "PPDB2.0Score=1\x00"])
            tail = rng.choice(["", " ||| 0-0", " ||| 0-0 1-1 ||| Equivalence"])
            line = f"[{rng.choice(['X', 'NN', 'VP'])}] ||| {a} ||| {b} ||| {features}{tail}"
        else:
            column = rng.choice(["\t0.5", "\t0.1", "\t1", "\t-1", "\t1e3", "\t0.3"]) if scored else ""
            if errors and rng.random() < 0.05:
                column = ""
            if errors and rng.random() < 0.03:
                column = rng.choice(["\tabc", "\t"])
            line = f"{a}\t{b}{column}"
        lines.append(line)
    ends = rng.choice(["\n", "\r\n", "mixed"])
    text = "".join(
        line + (rng.choice(["\n", "\r\n", "\r\r\n"]) if ends == "mixed" else ends) for line in lines
    )
    if text and rng.random() < 0.3:
        text = text.rstrip("\n")  # no newline at the end
    return text.encode("latin-1")


def _arrays(table: Any) -> tuple[np.ndarray, ...]:
    return (table.tokens, table.starts, table.hashes, table.order, table.keys)


def _outcome(run: Callable[[], Any]) -> Any:
    try:
        return run()
    except (InputError, LimitError, UsageError) as exc:
        return (type(exc), str(exc))


def _same_arrays(got: Any, want: Any) -> bool:
    if isinstance(want, tuple) and isinstance(want[0], type):
        return got == want
    if isinstance(got, tuple) and isinstance(got[0], type):
        return False
    return all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(_arrays(got), want))


def _read_all(spec: TableSpec) -> list[Any]:
    out: list[Any] = []
    try:
        for chunk in read_pairs(spec):
            out.append(chunk)
    except (InputError, LimitError, UsageError) as exc:
        out.append((type(exc), str(exc)))
    return out


@pytest.fixture(params=["kernel", "python"])
def path_taken(request: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "kernel":
        if _kernel.paraeval_kernel() is None:
            if os.environ.get("ROUGE155PY_REQUIRE_KERNEL"):
                pytest.fail("ParaEval's C kernel is not built")
            pytest.skip("ParaEval's C kernel is not in use")
    else:
        monkeypatch.setattr(_kernel, "paraeval", None)
    return str(request.param)


@pytest.mark.parametrize("seed", range(4))
def test_random_tables_load_as_the_reference(
    seed: int, path_taken: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed * 7919 + 17)
    for case in range(CASES // 4):
        ppdb = rng.random() < 0.6
        data = _table(rng, ppdb, errors=rng.random() < 0.3)
        name = f"t{case}" + (".gz" if rng.random() < 0.15 else "")
        path = tmp_path / name
        path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
        feature = (
            rng.choice([None, None, None, "p(e|f)", "p(e|f)", "nope", "PPDB2.0Score"])
            if ppdb or rng.random() < 0.1
            else None
        )
        threshold: Optional[float] = rng.choice([None, None, 0.3, 1.0, 3.5, float("nan")])
        spec = TableSpec(str(path), feature, threshold)
        chunk_lines = rng.choice([1, 2, 3, 7, 1 << 18])
        chunk_bytes = rng.choice([1, 30, 200, 64 * 2**20])
        limit = rng.choice([2**20, 2**20, 2**20, 60, 97, 300, 1000])
        monkeypatch.setattr(paraphrases, "_CHUNK_LINES", chunk_lines)
        monkeypatch.setattr(paraphrases, "_CHUNK_BYTES", chunk_bytes)
        monkeypatch.setattr(paraphrases, "MAX_LINE_BYTES", limit)
        want = _reference_pairs(spec, limit, chunk_lines, chunk_bytes)
        got = _read_all(spec)
        assert got == want, (case, data, spec)
        table = _reference_table(want, _encoder(), str(path))
        built = _outcome(lambda spec=spec: build_table(spec, _encoder()))
        assert _same_arrays(built, table), (case, data, spec)
        given = [c for c in want if not isinstance(c[0], type)]
        table = _reference_table(given, _encoder(), "<pairs>")
        built = _outcome(lambda given=given: build_table(TableSpec("<pairs>"), _encoder(), given))
        assert _same_arrays(built, table), (case, data, spec)


def test_colliding_phrases_are_refused_where_they_were(
    path_taken: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One chunk holding both: refused as that chunk is built; two chunks: once all are read
    (a malformed line after them is met first)."""
    a, b = (" ".join(f"#{i}" for i in ids) for ids in COLLIDING)
    path = tmp_path / "t.tsv"
    path.write_text(f"x\t{a}\ny\t{b}\nbad line\n")
    monkeypatch.setattr(paraphrases, "_CHUNK_LINES", 2)
    assert _outcome(lambda: build_table(TableSpec(str(path)), _encoder())) == _reference_table(
        _reference_pairs(TableSpec(str(path)), 2**20, 2, 2**26), _encoder(), str(path)
    )
    assert "64-bit hash" in str(_outcome(lambda: build_table(TableSpec(str(path)), _encoder())))
    monkeypatch.setattr(paraphrases, "_CHUNK_LINES", 1)
    assert "line 3" in str(_outcome(lambda: build_table(TableSpec(str(path)), _encoder())))
    path.write_text(f"x\t{a}\ny\t{b}\n")
    assert "64-bit hash" in str(_outcome(lambda: build_table(TableSpec(str(path)), _encoder())))


def test_hashes_sharing_their_top_bits_are_ordered(path_taken: str, tmp_path: Path) -> None:
    """A one-word phrase's hash is its id + 1: a table of many one-word phrases puts them all in
    the first bucket of the kernel's sort by top bits (and two-word ones in others), which must
    order them as the reference does; the table's ``longest`` is its longest phrase."""
    words = [f"w{k}" for k in range(300)]
    rng = random.Random(5)
    lines = [f"{rng.choice(words)}\t{rng.choice(words)}" for _ in range(400)]
    lines += [f"{rng.choice(words)} {rng.choice(words)}\t{rng.choice(words)}" for _ in range(200)]
    lines.append("a b c d e f g\th")
    path = tmp_path / "t.tsv"
    path.write_text("\n".join(lines) + "\n")
    spec = TableSpec(str(path))
    want = _reference_table(_reference_pairs(spec, 2**20, 1 << 18, 2**26), _encoder(), str(path))
    built = build_table(spec, _encoder())
    assert _same_arrays(built, want)
    assert list(built.hashes) == sorted(built.hashes) and built.longest == 7


def test_a_table_loaded_and_matched_on_the_kernel_needs_no_numpy(tmp_path: Path) -> None:
    """numpy's import (a tenth of a ParaEval run over a corpus) is left to the Python path."""
    if _kernel.paraeval_kernel() is None:
        if os.environ.get("ROUGE155PY_REQUIRE_KERNEL"):
            pytest.fail("ParaEval's C kernel is not built")
        pytest.skip("ParaEval's C kernel is not in use")
    path = tmp_path / "t.ppdb"
    path.write_text(
        "[X] ||| the cat ||| a feline ||| PPDB2.0Score=3 ||| 0-0\n[X] ||| sat ||| sits ||| PPDB2.0Score=2\n"
    )
    script = f"""
import sys
from rouge155py.metrics.paraeval import kernel_matches
from rouge155py.metrics.paraphrases import TableSpec, corpus_table
from rouge155py.text.corpus import Corpus
from rouge155py.text.stage import TextSettings, text_stage
corpus = Corpus(text_stage(TextSettings()), 0, 0)
table = corpus_table(corpus, TableSpec({str(path)!r}), False)
texts = [corpus.encode(["the cat sat"], False), corpus.encode(["a feline sits"], False)]
found = kernel_matches(table, texts, [(0, 1)])
print(found[0].tier1, found[0].tier2, "numpy" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["(2,", "2)", "(1,", "1)", "False"]
