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


def _files2rouge_inputs(folder: Path) -> tuple[Path, Path, Path]:
    """The bundled example's system 1 and model A as files2rouge reads them (one summary a line,
    sentences joined by `` . ``), and a -z SPL list of the files it writes for the Perl from
    them (each line cut at `` . ``, each sentence ending in `` .``)."""
    spl = REPO / "examples" / "duc-mini" / "spl"
    lines: dict[str, list[str]] = {"hyp": [], "ref": []}
    listed = []
    for k in range(1, 11):
        for side, name in (("hyp", f"D{k:02d}.P.100.1.spl"), ("ref", f"D{k:02d}.M.100.A.spl")):
            sentences = [
                s.strip() for s in (spl / name).read_text(encoding="utf-8").splitlines() if s.strip()
            ]
            line = " . ".join(s[:-2] if s.endswith(" .") else s for s in sentences) + " ."
            lines[side].append(line)
            (folder / f"{side}.{k}.spl").write_text(" .\n".join(line.split(" . ")) + "\n", encoding="utf-8")
        listed.append(f"{folder / f'hyp.{k}.spl'} {folder / f'ref.{k}.spl'}")
    for side in lines:
        (folder / f"{side}.txt").write_text("\n".join(lines[side]) + "\n", encoding="utf-8")
    (folder / "list.txt").write_text("\n".join(listed) + "\n", encoding="utf-8")
    return folder / "hyp.txt", folder / "ref.txt", folder / "list.txt"


def _f_scores(*args: str) -> list[str]:
    result = make_cli_runner().invoke(
        main, ["-e", str(REPO / "data"), "-c", "95", "-r", "1000", "-n", "2", "-a", *args]
    )
    assert result.exit_code == 0, result.stderr_bytes
    return [line.split()[3] for line in result.stdout_bytes.decode().splitlines() if "Average_F" in line]


def test_files2rouge_numbers_from_the_flags_the_docs_give(tmp_path: Path) -> None:
    hyp, ref, listed = _files2rouge_inputs(tmp_path)
    theirs = _f_scores("-m", "-z", "SPL", str(listed))  # what files2rouge hands the Perl
    ours = _f_scores("-m", "--sep", " . ", "--hyp", str(hyp), "--ref", str(ref))
    plain = _f_scores("--hyp", str(hyp), "--ref", str(ref))
    assert ours == theirs != plain
    page = (REPO / "docs" / "migrating.md").read_text(encoding="utf-8")
    section = page[page.index("**Coming from files2rouge.**") :]
    assert "-c 95 -r 1000 -n 2 -a -m --sep ' . '" in section.split("\n\n")[1]
    said = section.split("```")[2]
    assert f"ROUGE-1 F is {plain[0]} instead\nof files2rouge's {theirs[0]}" in said
    assert f"(ROUGE-L F {plain[2]} instead of {theirs[2]})" in said


def test_to_frame_keeps_the_index_of_the_series_given() -> None:
    pd = pytest.importorskip("pandas")
    from rouge155py import score

    frame = pd.DataFrame(
        {
            "prediction": ["the cat sat", "x", "a dog ran"],
            "reference": ["the cat sat on it", "y", "a dog ran far"],
        },
        index=pd.Index([10, 11, 12], name="doc"),
    )
    kept = frame[frame.prediction != "x"]  # a filtered frame: its index is not 0..N-1
    rows = score(kept.prediction, kept.reference, resamples=5).to_frame()
    assert rows.loc[12, "name"].tolist() == ["rouge1", "rouge2", "rougeLsum"]
    assert sorted(set(rows.index)) == [10, 12]
    listed = score(list(kept.prediction), list(kept.reference), resamples=5).to_frame()
    assert sorted(set(listed.index)) == [0, 1]  # lists: the items are 0..N-1, as before
    assert listed["fmeasure"].tolist() == rows["fmeasure"].tolist()
    unaligned = score(kept.prediction, kept.reference.reset_index(drop=True), resamples=5)
    with pytest.raises(UsageError, match="different indexes"):
        unaligned.to_frame()
