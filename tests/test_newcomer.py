"""The habits a newcomer brings (other tools' names, typos) get one clear line back."""

from __future__ import annotations

import pytest

from rouge155py import UsageError
from rouge155py.settings.argv import parse_command_line


def test_mistyped_long_option_gets_the_close_one() -> None:
    with pytest.raises(UsageError, match=r"^unknown option --hpy \(did you mean --hyp\?\)$"):
        parse_command_line(["--hpy", "x.txt", "--ref", "y.txt"])


def test_unknown_long_option_with_nothing_close_says_only_that() -> None:
    with pytest.raises(UsageError, match=r"^unknown option --zzzzzz=1$"):
        parse_command_line(["--zzzzzz=1", "x.txt"])
