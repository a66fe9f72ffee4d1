"""``--preset NAME``: a DUC/TAC year's official ROUGE options, put before the user's own.

Each preset is its recorded options and nothing else, a run under it prints the bytes of the
run with those options spelled out, ``--preset list`` names each with its source, and a flag
that both the preset and the user give is a usage error (exit 2), on the command line and in
``Rouge``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import Result
from conftest import make_cli_runner

from rouge155py import Rouge
from rouge155py.cli import main
from rouge155py.errors import UsageError
from rouge155py.settings.argv import parse_command_line
from rouge155py.settings.options import Options
from rouge155py.settings.presets import PRESETS

REPO = Path(__file__).resolve().parent.parent
DATA = str(REPO / "data")
CONFIG = str(REPO / "examples" / "duc-mini" / "rouge-config.xml")  # README's first command scores it
USAGE_EXIT = 2


def invoke(*args: str) -> Result:
    result = make_cli_runner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"unexpected exception for {args}: {result.exception!r}") from result.exception
    return result


def _options(*argv: str) -> Options:
    options = parse_command_line(list(argv), environ={}).options
    assert options is not None
    return options


def _usage_error(result: Result) -> str:
    lines = result.stderr_bytes.decode().splitlines()
    assert result.exit_code == USAGE_EXIT, lines
    assert len(lines) == 1 and lines[0].startswith("rouge155py: error: "), lines
    assert result.stdout_bytes == b""
    return lines[0]


def test_there_are_presets_each_with_its_source() -> None:
    assert PRESETS
    for name, preset in PRESETS.items():
        assert preset.name == name and preset.options
        assert preset.url.startswith("http") and "nist.gov" in preset.url and preset.title
        assert " ".join(preset.options) in preset.quote  # the options are the source's command


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_preset_is_its_options(name: str) -> None:
    given = _options("--preset", name, "-a", CONFIG)
    spelled = _options(*PRESETS[name].options, "-a", CONFIG)
    assert given.preset == name and spelled.preset is None
    assert replace(given, preset=None) == spelled
    assert given.signature("x") == spelled.signature("x")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_run_under_a_preset_prints_the_bytes_of_its_options(name: str) -> None:
    given = invoke("-e", DATA, "--preset", name, "--signature", "-a", CONFIG)
    spelled = invoke("-e", DATA, *PRESETS[name].options, "--signature", "-a", CONFIG)
    assert given.exit_code == spelled.exit_code == 0, given.stderr_bytes
    assert given.stdout_bytes and given.stdout_bytes == spelled.stdout_bytes
    assert given.stderr_bytes == spelled.stderr_bytes  # the signature: the options themselves


def test_options_the_preset_does_not_set_are_added() -> None:
    name = sorted(PRESETS)[0]
    extra = ("-s", "--lang", "en")
    given = _options("--preset", name, *extra, "-a", CONFIG)
    assert replace(given, preset=None) == _options(*PRESETS[name].options, *extra, "-a", CONFIG)
    assert given.stopwords and given.lang == "en"


def test_the_list_names_each_preset_its_options_and_its_source() -> None:
    result = invoke("--preset", "list")
    assert result.exit_code == 0 and result.stderr_bytes == b""
    blocks: dict[str, list[str]] = {}  # a header line per preset, then its indented lines
    for line in result.stdout_bytes.decode().splitlines():
        if line.startswith("  "):
            blocks[list(blocks)[-1]].append(line)
        else:
            blocks[line] = []
    assert list(blocks) == [f"{p.name}: {' '.join(p.options)}" for p in PRESETS.values()]
    for p, lines in zip(PRESETS.values(), blocks.values()):
        block = "\n".join(lines)
        assert p.url in block and p.title in block and p.quote in block
        assert ("jackknifed in the official tables" in block) == p.jackknife


def test_an_unknown_preset_is_a_usage_error_naming_the_known_ones() -> None:
    line = _usage_error(invoke("-e", DATA, "--preset", "duc1999", "-a", CONFIG))
    assert "duc1999" in line and all(name in line for name in PRESETS)
    with pytest.raises(UsageError, match="duc1999"):
        Rouge(preset="duc1999")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_flag_the_preset_sets_is_not_given_again(name: str) -> None:
    flag, value = PRESETS[name].options[:2]  # its first option and value
    line = _usage_error(invoke("-e", DATA, "--preset", name, flag, value, "-a", CONFIG))
    assert f"--preset {name} sets {flag}" in line


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rouge_takes_a_preset(name: str) -> None:
    from rouge155py.settings.argv import preset_values  # the settings a preset gives

    values = preset_values(name)
    rouge = Rouge(preset=name)
    assert rouge.options == replace(Rouge(**values).options, preset=name)
    for field, value in values.items():
        assert getattr(rouge.options, field) == value
    field = next(iter(values))
    with pytest.raises(UsageError, match=f"preset={name!r} sets {field}"):
        Rouge(preset=name, **{field: values[field]})


def test_the_usage_names_the_option() -> None:
    assert "--preset" in invoke("-h").stdout_bytes.decode()
    full = invoke("-H").stdout_bytes.decode()
    assert all(name in full for name in PRESETS)


@pytest.mark.parametrize("name", sorted(n for n, p in PRESETS.items() if p.jackknife))
def test_a_jackknifed_years_tables_are_its_preset_with_the_jackknife(name: str) -> None:
    given = invoke("-e", DATA, "--preset", name, "--jackknife", "-a", CONFIG)
    spelled = invoke("-e", DATA, *PRESETS[name].options, "--jackknife", "-a", CONFIG)
    plain = invoke("-e", DATA, "--preset", name, "-a", CONFIG)
    assert given.exit_code == spelled.exit_code == plain.exit_code == 0, given.stderr_bytes
    assert given.stdout_bytes == spelled.stdout_bytes != plain.stdout_bytes
    humans = {line.split()[0] for line in given.stdout_bytes.decode().splitlines() if "Average_R" in line}
    assert humans - {
        line.split()[0] for line in plain.stdout_bytes.decode().splitlines() if "Average_R" in line
    }
