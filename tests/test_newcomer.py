"""The habits a newcomer brings (other tools' names, typos) get one clear line back."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from conftest import make_cli_runner

from rouge155py import UsageError
from rouge155py.cli import main
from rouge155py.settings.argv import parse_command_line

REPO = Path(__file__).resolve().parent.parent
CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")
BASE = ["-e", str(REPO / "data"), "-a", "-n", "2", "-r", "50"]


def command(*args: str) -> str:
    """The command's standard output, run to success."""
    result = make_cli_runner().invoke(main, [*BASE, *args, CONFIG])
    assert result.exit_code == 0, result.stderr_bytes
    return result.stdout_bytes.decode()


def test_mistyped_long_option_gets_the_close_one() -> None:
    with pytest.raises(UsageError, match=r"^unknown option --hpy \(did you mean --hyp\?\)$"):
        parse_command_line(["--hpy", "x.txt", "--ref", "y.txt"])


def test_unknown_long_option_with_nothing_close_says_only_that() -> None:
    with pytest.raises(UsageError, match=r"^unknown option --zzzzzz=1$"):
        parse_command_line(["--zzzzzz=1", "x.txt"])


@pytest.mark.parametrize("call", ["Rouge", "score"])
def test_rouge_score_keyword_names_ours(call: str) -> None:
    import rouge155py

    with pytest.raises(TypeError) as caught:
        if call == "Rouge":
            rouge155py.Rouge(use_stemmer=True)
        else:
            rouge155py.score(["a cat"], ["a cat"], use_stemmer=True)
    assert isinstance(caught.value, UsageError)
    assert str(caught.value).endswith("'use_stemmer': use `stem=True`")


def test_torchmetrics_keywords_name_ours_with_our_values() -> None:
    from rouge155py import Rouge

    with pytest.raises(UsageError, match=r"use `multi_ref='average'`$"):
        Rouge(accumulate="avg")
    with pytest.raises(UsageError, match=r"use `rouge_types=\['rouge1'\]`$"):
        Rouge(rouge_keys=["rouge1"])


def test_mistyped_keyword_gets_the_close_one() -> None:
    from rouge155py import Rouge

    with pytest.raises(UsageError, match=r"'stme' \(did you mean `stem`\?\)$"):
        Rouge(stme=True)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'xyzzy'$"):
        Rouge(xyzzy=1)


def test_comparison_csv_numbers_as_the_tables_round_them() -> None:
    text = command("--compare", "paired-bootstrap", "--samples", "200", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and {row["measure"] for row in rows} == {"F"}
    for row in rows:
        for name in ("mean", "other_mean", "difference", "low", "high"):
            digits = row[name].lstrip("-").partition(".")[2]
            assert len(digits) <= 5, (name, row[name])
        for name in ("p_value", "p_holm"):
            assert len(row[name].replace("0.", "").split("e")[0].replace(".", "").lstrip("0")) <= 4, row[name]
    table = command("--compare", "paired-bootstrap", "--samples", "200")
    first = rows[0]
    assert f"{float(first['difference']):+.5f}" in table  # the same digits as the text table


def test_text_tables_say_how_they_mark_the_best() -> None:
    from rouge155py import score
    from rouge155py.stats.tables import systems_table

    report = score(["the cat sat", "a dog ran"], ["the cat sat on the mat", "a dog ran far"])
    text = systems_table(report, "text")
    assert "*" in text and "bold" not in text and "marked *" in text
    assert "in bold" in systems_table(report, "markdown")


def test_latex_tables_name_the_package_their_rules_need() -> None:
    text = command("--format", "latex")
    assert text.startswith("% needs \\usepackage{booktabs}\n\\begin{table}")
    assert "\\toprule" in text
