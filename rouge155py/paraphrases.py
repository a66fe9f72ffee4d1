"""``python -m rouge155py.paraphrases --moses PHRASE-TABLE --out TABLE.tsv``: a paraphrase table
for ParaEval (``--paraphrases``), built by pivoting a Moses phrase table (Bannard &
Callison-Burch 2005): p(e2|e1) = sum over f of p(f|e1) p(e2|f). The tables themselves, and the
pivot, are :mod:`rouge155py.metrics.paraphrases`'s.
"""

from __future__ import annotations

import os
import sys
from typing import Iterable, Optional, Sequence

from .errors import OutputError, RougeError
from .inputs.files import write_all
from .metrics.paraphrases import P_E_GIVEN_F, P_F_GIVEN_E, TableFile, pivot

__all__ = ["main"]


def _write_table(pairs: Iterable[tuple[str, str, float]], out: str) -> None:
    """The pairs as TSV to ``out`` ('-': standard output), every byte of it, or an
    :class:`OutputError` (a pipe whose reader went away, a full disk): never a table cut short
    that exits 0."""
    where = "standard output" if out == "-" else out
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = 1 if out == "-" else os.open(out, flags, 0o666)
        try:
            block: list[str] = []
            size = 0
            for e1, e2, p in pairs:
                row = f"{e1}\t{e2}\t{p:.6g}\n"
                block.append(row)
                size += len(row)
                if size >= 1 << 20:
                    write_all(fd, "".join(block).encode("utf-8", "surrogateescape"))
                    block, size = [], 0
            write_all(fd, "".join(block).encode("utf-8", "surrogateescape"))
        finally:
            if fd != 1:
                os.close(fd)
    except OSError as exc:
        raise OutputError(f"cannot write the table to {where}: {exc.strerror}") from None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m rouge155py.paraphrases --moses FILE --out FILE [--threshold P]``: exit 0, or one
    ``rouge155py: error:`` line and the exit code of its class (docs/errors.md)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m rouge155py.paraphrases",
        description="Build a paraphrase table (TSV: phrase, paraphrase, p) by pivoting a Moses "
        "phrase table 'english ||| foreign ||| scores': p(e2|e1) = sum over f of p(f|e1) p(e2|f).",
    )
    parser.add_argument("--moses", required=True, help="the Moses phrase table (.gz too)")
    parser.add_argument("--out", required=True, help="the TSV table to write ('-': standard output)")
    parser.add_argument("--threshold", type=float, default=0.0, help="the least p(e2|e1) kept (0)")
    parser.add_argument("--p-f-given-e", type=int, default=P_F_GIVEN_E, help="score column of p(f|e) (2)")
    parser.add_argument("--p-e-given-f", type=int, default=P_E_GIVEN_F, help="score column of p(e|f) (0)")
    args = parser.parse_args(argv)
    try:
        with TableFile(args.moses) as table:
            lines = (line for _, block in table.lines() for line in block)
            pairs = pivot(lines, args.threshold, args.p_f_given_e, args.p_e_given_f, args.moses)
            _write_table(pairs, args.out)
    except RougeError as error:
        print(f"rouge155py: error: {error}", file=sys.stderr)
        return error.exit_code
    except MemoryError:
        print("rouge155py: error: out of memory", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
