"""A hint on stderr where the Perl's text rules find nothing to read: summaries in other scripts.

ROUGE-1.5.5.pl keeps only ``[a-z0-9]`` after lowercasing, so a Russian or Chinese summary has no
token and every score against it is 0, which is the Perl's report and stays so. The hint says
why, and names ``--lang``; it changes no number and is in no report.
"""

from __future__ import annotations

from typing import Iterable, Optional

from ..errors import RougeError
from ..inputs.config import Eval
from ..inputs.readers import Document, read_sentences
from .normalize import counted_tokens

__all__ = ["SAMPLED_EVALS", "unread_script_hint"]

#: The evals looked at (their peers and models, up to :data:`_SAMPLED_SUMMARIES` summaries).
SAMPLED_EVALS = 20
_SAMPLED_SUMMARIES = 100


def _unread_document(document: Document) -> bool:
    """Whether a summary is such a one (see :func:`_unread`). A summary whose bytes are all
    ASCII is not: the test needs letters of other scripts, which only other bytes make, and
    its text is then not parsed (a SEE file's HTML, say)."""
    if document.content().isascii():
        return False
    return _unread(read_sentences(document))


def _unread(sentences: list[str]) -> bool:
    """Whether a summary has no token under the Perl's rules though most of its letters are
    letters of other scripts (not ASCII)."""
    text = " ".join(sentences)
    if counted_tokens(text):
        return False
    decoded = text.encode("latin-1").decode("utf-8", "replace")
    foreign = sum(1 for c in decoded if c.isalpha() and not c.isascii())
    return foreign > 0 and foreign > sum(1 for c in decoded if c.isalpha() and c.isascii())


def unread_script_hint(evals: Iterable[Eval]) -> Optional[str]:
    """The hint, where a peer or model among the given evals (the first of a run) is such a summary.

    A summary that cannot be read is left to the run, which reports it in the Perl's order.
    """
    looked = found = 0
    for ev in evals:
        for document in (*ev.peers.values(), *ev.models):
            if looked == _SAMPLED_SUMMARIES:
                break
            looked += 1
            try:
                found += _unread_document(document)
            except (RougeError, OSError, ValueError):
                continue
    if not found:
        return None
    return (
        f"rouge155py: hint: {found} of the first {looked} summaries have no word that ROUGE-1.5.5's "
        "rules read (they keep a-z and 0-9 only), so they score 0: for other scripts use --lang "
        "(e.g. --lang ru, --lang zh)"
    )
