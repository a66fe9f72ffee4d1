"""The items' labels a caller gives as the index of pandas Series (read without importing pandas)."""

from __future__ import annotations

from typing import Any, NamedTuple, Optional


class ItemIndex(NamedTuple):
    """The items' labels where ``Rouge.score`` was given pandas Series: their index."""

    labels: list[Any]
    #: Why no one index applies (both sides are Series with different indexes), or "".
    clash: str = ""


def _series(value: Any) -> bool:
    kind = type(value)
    return kind.__name__ == "Series" and kind.__module__.split(".")[0] == "pandas"


def item_index(predictions: Any, references: Any) -> Optional[ItemIndex]:
    """The index of the pandas Series among ``predictions`` and ``references`` (the labels
    :meth:`Report.to_frame` gives the items), None where neither is one."""
    indexes = [value.index for value in (predictions, references) if _series(value)]
    if not indexes:
        return None
    if len(indexes) == 2 and not indexes[0].equals(indexes[1]):
        return ItemIndex(
            [],
            "predictions and references are pandas Series with different indexes, so the items "
            "have no one label: align them (references.loc[predictions.index]) or give lists",
        )
    return ItemIndex(list(indexes[0]))
