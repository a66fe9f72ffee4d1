"""``Rouge(...)`` and ``score(...)`` name every option as a typed keyword, in step with ``Options``."""

from __future__ import annotations

import inspect
from dataclasses import fields

from rouge155py import Options, Rouge, score
from rouge155py.api import _UNSET, OPTION_NAMES
from rouge155py.settings.options import DOOR_FIELDS

API_ONLY = {"rouge_types"}


def _keywords(function: object) -> dict[str, inspect.Parameter]:
    return {
        name: p
        for name, p in inspect.signature(function).parameters.items()  # type: ignore[arg-type]
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }


def test_every_option_is_a_keyword_of_rouge_and_score() -> None:
    options = {f.name for f in fields(Options) if f.name not in DOOR_FIELDS}
    assert options == set(OPTION_NAMES)
    for function in (Rouge.__init__, score):
        assert set(_keywords(function)) - API_ONLY == options, function


def test_rouge_and_score_take_the_same_keywords() -> None:
    a, b = _keywords(Rouge.__init__), _keywords(score)
    assert [(p.name, p.default, p.annotation) for p in a.values()] == [
        (p.name, p.default, p.annotation) for p in b.values()
    ]
    assert [p.kind for p in inspect.signature(score).parameters.values()][:2] == [
        inspect.Parameter.POSITIONAL_OR_KEYWORD
    ] * 2


def test_defaults_are_the_options_defaults_and_every_keyword_is_typed() -> None:
    defaults = {f.name: f.default for f in fields(Options)}
    for name, p in _keywords(Rouge.__init__).items():
        assert p.annotation is not inspect.Parameter.empty, name
        if name in API_ONLY or name in _UNSET:
            assert p.default is None and "Optional" in str(p.annotation), name
        else:
            assert p.default == defaults[name] and type(p.default) is type(defaults[name]), name
