"""Keywords of other ROUGE libraries, and typos, met by ``Rouge()``: the keyword meant."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from ..errors import UnknownKeyword

# rouge-score, HF evaluate, torchmetrics and py-rouge's keywords whose name differs from ours:
# each gives our keyword and its value for theirs.
_SAME: Callable[[Any], Any] = lambda value: value  # noqa: E731
HABITS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "use_stemmer": ("stem", _SAME),  # rouge-score, HF evaluate, torchmetrics
    "stemming": ("stem", _SAME),  # py-rouge
    "rouge_keys": ("rouge_types", _SAME),  # torchmetrics
    "metrics": ("rouge_types", _SAME),  # py-rouge, pltrdy's rouge
    "max_n": ("max_ngram", _SAME),  # py-rouge
    "weight_factor": ("wlcs_weight", _SAME),  # py-rouge
    "accumulate": ("multi_ref", lambda value: {"avg": "average"}.get(value, value)),  # torchmetrics
}


def unknown_keyword(name: str, value: Any, known: Iterable[str]) -> UnknownKeyword:
    """The error for keyword ``name``, given ``value``: Python's line for an unexpected keyword,
    and the keyword meant (another library's name for it, or a close one)."""
    line = f"Rouge.__init__() got an unexpected keyword argument {name!r}"
    if name in HABITS:
        ours, convert = HABITS[name]
        return UnknownKeyword(f"{line}: use `{ours}={convert(value)!r}`")
    import difflib  # only for a keyword that is wrong

    close = difflib.get_close_matches(name, sorted(known), n=1)
    return UnknownKeyword(f"{line} (did you mean `{close[0]}`?)" if close else line)
