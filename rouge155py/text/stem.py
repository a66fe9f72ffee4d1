"""The Porter stemmer variant used by ROUGE-1.5.5 (its ``-m`` option), with one cache.

Where the C kernel is built, words made only of ASCII ``a``-``z`` and ``0``-``9``
(the tokens ROUGE stems) are stemmed by its ``porter_stem``, which gives the same
stems as :func:`rouge155py.text.porter.stem`, the reference in Python; that
module stems any other word, and every word without the kernel.
"""

from __future__ import annotations

from functools import lru_cache

from .._kernel import accel

__all__ = ["porter_stem"]

# The C kernel's stemmer: the same stems for words of a-z and 0-9 (None for any other word).
_kernel_stem = None if accel is None else accel.porter_stem


@lru_cache(maxsize=1 << 17)
def porter_stem(word: str) -> str:
    """Stem ``word`` exactly as ROUGE-1.5.5.pl's ``stem`` does."""
    if _kernel_stem is not None:
        found = _kernel_stem(word)  # None unless the word is made of a-z and 0-9 only
        if found is not None:
            return found
    return _python_stem(word)


def _python_stem(word: str) -> str:
    """The stemmer in Python: the reference, and the path for any word without the C kernel."""
    from .porter import stem  # imported, and its patterns compiled, on first use

    return stem(word)
