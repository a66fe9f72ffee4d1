"""Where evals come from: the Source objects, JSONL files, summaries given as Python values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rouge155py import Options, Rouge, Sentences, evaluate_args
from rouge155py.errors import ConfigError, UsageError
from rouge155py.inputs.aligned import AlignedFiles
from rouge155py.inputs.jsonl import JsonlFile, read_jsonl
from rouge155py.inputs.xml import FileList, XmlFile
from rouge155py.settings.argv import parse_command_line
from rouge155py.settings.options import DOOR_FIELDS


def _jsonl(tmp_path: Path, *objects: object) -> str:
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    return str(path)


def test_each_door_is_one_source() -> None:
    assert Options(config_path="c.xml").source == XmlFile("c.xml")
    assert Options(config_path="l", file_list_format="SPL", file_list_peer_id="é").source == FileList(
        "l", "SPL", "Ã©"
    )
    assert Options(hypothesis_path="h", reference_paths=("r",)).source == AlignedFiles((("1", "h"),), ("r",))
    systems = Options(hypothesis_paths=("A=h", "x/sysB.txt"), reference_paths=("r",), skip_empty=True)
    assert systems.source == AlignedFiles((("A", "h"), ("sysB", "x/sysB.txt")), ("r",), None, True)
    assert Options(jsonl_path="x.jsonl", sentence_separator="<q>").source == JsonlFile("x.jsonl", "<q>")
    assert Options(jsonl_path="x.jsonl", be_mode="H").source == JsonlFile("x.jsonl", None, "SIMPLE")
    assert Options().source is None
    assert "jsonl_path" in DOOR_FIELDS and "max_ngram" not in DOOR_FIELDS


def test_jsonl_shapes_are_the_apis(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path,
        {"prediction": "the cat sat", "references": ["a cat sat", ["the cat", "sat down"]], "extra": 1},
        {"prediction": ["the dog", "ran"], "reference": "a dog ran", "id": "doc-7"},
    )
    config = read_jsonl(path)
    assert [ev.eval_id for ev in config.evals] == ["1", "doc-7"]
    assert config.peer_ids == {"1"}
    api = Rouge(max_ngram=2, per_eval=True, multi_ref="average").score(
        ["the cat sat", Sentences(["the dog", "ran"])],
        [["a cat sat", Sentences(["the cat", "sat down"])], "a dog ran"],
    )
    door = evaluate_args(["-n", "2", "-d", "--jsonl", path])
    assert door.to_legacy() == api.to_legacy().replace("Eval 2.1", "Eval doc-7.1")


def test_jsonl_several_systems_and_a_missing_one(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path,
        {"predictions": {"A": "the cat sat", "B": "a cat"}, "reference": "the cat sat"},
        {"predictions": {"A": "the dog"}, "reference": "a dog"},
    )
    report = evaluate_args(["-n", "1", "--jsonl", path])
    assert {r.peer_id for r in report.results} == {"A", "B"}
    assert report.warnings == ["*ROUGE Warning: test instance for peer B does not exist for evaluation 2"]


def test_jsonl_separator_splits_strings(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, {"prediction": "the cat<q>sat down", "reference": "the cat sat<q>down"})
    split = evaluate_args(["-n", "1", "--sep", "<q>", "--jsonl", path]).to_legacy()
    assert (
        split
        == Rouge(max_ngram=1)
        .score([Sentences(["the cat", "sat down"])], [Sentences(["the cat sat", "down"])])
        .to_legacy()
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not a JSON object"),
        ("[1, 2]", "a line holds a JSON object, got list"),
        ('{"reference": "a"}', "one of 'prediction' or 'predictions'"),
        ('{"prediction": "a", "predictions": {"1": "a"}, "reference": "a"}', "one of"),
        ('{"prediction": "a"}', "one of 'reference' or 'references'"),
        ('{"prediction": "a", "references": "a"}', '"references" is a list'),
        ('{"predictions": ["a"], "reference": "a"}', '"predictions" maps system IDs'),
        ('{"prediction": 3, "reference": "a"}', "prediction 2 of system 1 is 3"),
        ('{"prediction": "a", "reference": "a", "id": 1.5}', '"id" is a string or an integer'),
        ('{"prediction": "a", "reference": "a", "id": true}', '"id" is a string or an integer'),
    ],
)
def test_a_bad_jsonl_line_is_one_configuration_error(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"prediction": "x", "reference": "x"}\n\n' + line + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        read_jsonl(str(path))
    assert str(caught.value).startswith(f"{path}:3: ")
    assert message in str(caught.value)


def test_a_jsonl_eval_id_twice_is_an_error(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path, {"prediction": "a", "reference": "a"}, {"prediction": "b", "reference": "b", "id": 1}
    )
    with pytest.raises(ConfigError, match="eval ID '1' is given twice"):
        read_jsonl(path)


def test_jsonl_command_line_rules() -> None:
    request = parse_command_line(["-n", "2", "--jsonl", "x.jsonl"])
    assert request.options is not None and request.options.all_systems
    for argv, message in (
        (["--jsonl", "x.jsonl", "config.xml"], "--jsonl replaces the configuration file"),
        (["--jsonl", "x.jsonl", "--hyp", "h", "--ref", "r"], "two inputs"),
        (["--jsonl"], "needs a value"),
    ):
        with pytest.raises(UsageError, match=message):
            parse_command_line(argv)


def test_a_lone_surrogate_is_a_usage_error_not_a_crash() -> None:
    with pytest.raises(UsageError, match=r"prediction 1 of system 1 holds a lone surrogate \(U\+D800\)"):
        Rouge(max_ngram=1).score(["\ud800 a"], ["a"])


def test_options_choose_the_first_door_of_the_registry_that_applies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Options.source walks the registry in order: a door placed first is chosen over the
    doors after it, and a registry without the door the options name gives no source."""
    from rouge155py.inputs import doors

    options = Options(config_path=str(tmp_path / "c.xml"), all_systems=True)
    assert isinstance(options.source, XmlFile)

    class Everything:
        flags = setting_flags = ()
        described = "every run"

        def __init__(self, path: str) -> None:
            self.name = path

        @classmethod
        def applies(cls, options: Options) -> bool:
            return True

        @classmethod
        def from_options(cls, options: Options) -> Everything:
            return cls(str(options.config_path))

    monkeypatch.setattr(doors, "SOURCES", (Everything, *doors.SOURCES))
    chosen = Options(config_path=str(tmp_path / "c.xml"), all_systems=True).source
    assert isinstance(chosen, Everything) and chosen.name == str(tmp_path / "c.xml")
    monkeypatch.setattr(doors, "SOURCES", (AlignedFiles, JsonlFile))
    assert Options(config_path=str(tmp_path / "c.xml"), all_systems=True).source is None


def test_the_command_line_rules_come_from_the_doors_in_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a door's setting flag applies to, and which doors replace the configuration file, is
    read from the registry: without the line-aligned door, --skip-empty names --jsonl alone and
    --hyp no longer replaces the configuration file."""
    from rouge155py.inputs import doors

    with pytest.raises(
        UsageError, match=r"^--skip-empty applies to line-aligned files \(--hyp, --ref\) and --jsonl$"
    ):
        parse_command_line(["--skip-empty", "c.xml", "-a"])
    monkeypatch.setattr(doors, "SOURCES", (JsonlFile, FileList, XmlFile))
    with pytest.raises(UsageError, match=r"^--skip-empty applies to --jsonl$"):
        parse_command_line(["--skip-empty", "c.xml", "-a"])
    request = parse_command_line(["--hyp", "h", "c.xml", "-a"])
    assert request.options is not None and request.options.config_path == "c.xml"
