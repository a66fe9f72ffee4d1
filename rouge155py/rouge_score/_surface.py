"""The other public names of rouge-score 0.1.2's modules: what their imports left in them.

Code written for rouge-score reaches them through its modules
(``tokenizers.porter.PorterStemmer``, ``rouge_scorer.np``, ``tokenize.re``),
so each drop-in module holds the same names. The packages rouge-score needs and
rouge155py does not (numpy, nltk, six, absl) are imported on first use, not
with the module: a name whose package is missing is an ``AttributeError`` that
says which package it is.
"""

from __future__ import annotations
import __future__

import builtins
import importlib
import sys
from typing import Any, Callable, Mapping, MutableMapping, Sequence

__all__ = ["add_names"]

# rouge-score's modules begin with these three (no-ops in Python 3).
_FUTURE = ("absolute_import", "division", "print_function")
# The distribution that installs a module, where its name is not the module's.
_DISTRIBUTIONS = {"absl": "absl-py"}


def add_names(
    namespace: MutableMapping[str, Any], lazy: Mapping[str, str], builtin: Sequence[str] = ()
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Puts rouge-score's ``__future__`` features and ``builtin`` names (its ``six.moves``
    ones) into a module's namespace; returns the module's ``__getattr__`` and ``__dir__``,
    which import each name of ``lazy`` (name -> module) when it is first read."""
    for name in _FUTURE:
        namespace[name] = getattr(__future__, name)
    for name in builtin:
        namespace[name] = getattr(builtins, name)
    module_name = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        target = lazy.get(name)
        if target is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        try:
            value = importlib.import_module(target)
        except ImportError:
            top = target.split(".")[0]
            raise AttributeError(
                f"module {module_name!r} has no attribute {name!r}: rouge-score's {name} is "
                f"{target}, which is not installed (pip install {_DISTRIBUTIONS.get(top, top)})"
            ) from None
        setattr(sys.modules[module_name], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *lazy})

    return __getattr__, __dir__
