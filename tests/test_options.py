"""The command line: Getopt::Std's rules and the checks of ROUGE-1.5.5.pl's main program."""

from __future__ import annotations

import pytest

from rouge155py.errors import UsageError
from rouge155py.settings.argv import parse_command_line
from rouge155py.settings.options import Options


def parse(*argv: str, environ: dict[str, str] | None = None) -> Options:
    request = parse_command_line(list(argv), environ={} if environ is None else environ)
    assert request.options is not None
    return request.options


def warnings_of(*argv: str) -> list[str]:
    return parse_command_line(list(argv), environ={}).warnings


# ---------------------------------------------------------------------------
# Getopt::Std
# ---------------------------------------------------------------------------


def test_defaults() -> None:
    o = parse("-a", "cfg.xml")
    assert o.config_path == "cfg.xml"
    assert o.all_systems is True
    assert o.system_id is None
    assert o.max_ngram == 0  # no ROUGE-N without -n
    assert o.lcs is True
    assert o.wlcs_weight is None
    assert o.skip_distance is None
    assert o.be_mode is None
    assert (o.stem, o.stem_models_only, o.stopwords) == (False, False, False)
    assert (o.length_limit, o.byte_limit) == (0, 0)
    assert o.best_model is False
    assert o.alpha == 0.5
    assert o.counting == 0
    assert o.resamples == 1000
    assert (o.confidence, o.confidence_label) == (95.0, "95")
    assert (o.per_eval, o.verbose) == (False, False)
    assert o.file_list_format is None


def test_bundled_flags_with_a_glued_value() -> None:
    # -amn2: a and m are flags, n takes the rest of the word as its value.
    o = parse("-amn2", "cfg.xml")
    assert (o.all_systems, o.stem, o.max_ngram) == (True, True, 2)


def test_glued_value() -> None:
    o = parse("-c95", "-r10", "-a", "cfg.xml")
    assert (o.confidence, o.confidence_label, o.resamples) == (95.0, "95", 10)


def test_separate_value_may_start_with_a_dash() -> None:
    # -2 takes a value: the next word, "-1", whatever it looks like.
    o = parse("-2", "-1", "-u", "-a", "cfg.xml")
    assert o.skip_distance == -1
    assert o.skip_label == "-1"
    assert o.skip_unigrams is True


def test_value_option_inside_a_bundle_takes_the_next_word() -> None:
    # -an: a flag, then n with nothing left in the word: its value is the next word.
    o = parse("-an", "3", "cfg.xml")
    assert (o.all_systems, o.max_ngram) == (True, 3)


def test_double_dash_ends_options() -> None:
    o = parse("-a", "--", "-x", "sys")
    assert o.config_path == "-x"
    assert o.system_id == "sys"
    assert o.lcs is True  # -x after -- is not an option


def test_first_non_option_ends_options() -> None:
    # cfg.xml -a: "-a" is the second argument, i.e. the system ID.
    o = parse("cfg.xml", "-a")
    assert o.config_path == "cfg.xml"
    assert o.system_id == "-a"
    assert o.all_systems is False


def test_lone_dash_is_an_argument() -> None:
    # "-" does not match /^-(.)(.*)/: it ends the options.
    o = parse("-", "sys")
    assert (o.config_path, o.system_id) == ("-", "sys")


def test_unknown_option_warns_and_continues() -> None:
    request = parse_command_line(["-q", "-a", "cfg.xml"], environ={})
    assert request.warnings == ["Unknown option: q"]
    assert request.options is not None and request.options.all_systems


def test_unknown_option_inside_a_bundle() -> None:
    # -qa: q is unknown (warning), the word becomes -a.
    request = parse_command_line(["-qa", "cfg.xml"], environ={})
    assert request.warnings == ["Unknown option: q"]
    assert request.options is not None and request.options.all_systems


def test_colon_is_a_flag_for_getopt_std() -> None:
    # Getopt::Std looks the letter up with index($spec, $first): ":" is found in the spec
    # string "ahHb:c:...", and the character after that ":" is not ":", so "-:" is taken
    # as a flag, silently (ROUGE-1.5.5.pl -: -a cfg.xml prints no warning).
    assert warnings_of("-:", "-a", "cfg.xml") == []


def test_flags_given_once_are_enough() -> None:
    o = parse("-x", "-m", "-s", "-d", "-v", "-U", "-a", "cfg.xml")
    assert o.lcs is False
    assert (o.stem, o.stopwords, o.per_eval, o.verbose, o.skip_both) == (True, True, True, True, True)


def test_help_requests() -> None:
    assert parse_command_line(["-h"], environ={}).usage == "short"
    assert parse_command_line(["-H", "-h"], environ={}).usage == "full"
    assert parse_command_line(["-a", "cfg", "-h"], environ={}).options is not None  # -h after the file


# ---------------------------------------------------------------------------
# Arguments and system IDs
# ---------------------------------------------------------------------------


def test_system_id_from_the_second_argument() -> None:
    o = parse("cfg.xml", "S1")
    assert (o.system_id, o.all_systems) == ("S1", False)


def test_file_list_gives_system_x() -> None:
    o = parse("-z", "SPL", "list.txt")
    assert o.file_list_format == "SPL"
    assert o.system_id == "X"
    assert o.file_list_peer_id == "X"


def test_file_list_with_a_system_id() -> None:
    o = parse("-z", "SEE", "list.txt", "mine")
    assert (o.system_id, o.file_list_peer_id) == ("mine", "mine")


def test_file_list_ignores_a() -> None:
    # $opt_a = undef when -z is given.
    o = parse("-a", "-z", "SPL", "list.txt")
    assert o.all_systems is False
    assert o.system_id == "X"


def test_x_and_3_turn_off_rouge_l() -> None:
    assert parse("-x", "-a", "c").lcs is False
    o = parse("-3", "HM", "-a", "c")
    assert (o.lcs, o.be_mode) == (False, "HM")


@pytest.mark.parametrize("argv", [[], ["-a"], ["-m", "-n", "2"]])
def test_no_configuration_file(argv: list[str]) -> None:
    with pytest.raises(UsageError):
        parse_command_line(argv, environ={})


def test_one_argument_needs_a_or_z() -> None:
    with pytest.raises(UsageError):
        parse_command_line(["cfg.xml"], environ={})


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["-l", "10", "-b", "20"],  # words or bytes, not both
        ["-c", "101"],
        ["-c", "-0.5"],
        ["-w", "0"],
        ["-w", "-1.2"],
        ["-p", "1.01"],
        ["-p", "-0.1"],
    ],
)
def test_values_the_perl_dies_on(argv: list[str]) -> None:
    with pytest.raises(UsageError):
        parse_command_line([*argv, "-a", "cfg.xml"], environ={})


@pytest.mark.parametrize(
    ("argv", "field", "value"),
    [
        (["-c", "0"], "confidence", 0.0),
        (["-c", "100"], "confidence", 100.0),
        (["-p", "0"], "alpha", 0.0),
        (["-p", "1"], "alpha", 1.0),
        (["-w", "0.5"], "wlcs_weight", 0.5),
        (["-l", "0"], "length_limit", 0),
        (["-b", "665"], "byte_limit", 665),
        (["-r", "0"], "resamples", 0),  # accepted here; dividing by it fails later
    ],
)
def test_boundary_values_are_accepted(argv: list[str], field: str, value: float) -> None:
    assert getattr(parse(*argv, "-a", "cfg.xml"), field) == value


@pytest.mark.parametrize(
    ("value", "expected"), [("abc", 0), ("1x", 1), ("--", 0), ("", 0), (" 3", 3), ("2.5e1z", 25)]
)
def test_non_numbers_read_as_perl_reads_them_with_a_warning(value: str, expected: int) -> None:
    # Perl reads a string's numeric prefix, else 0, and warns: so does the port.
    request = parse_command_line(["-n", value, "-a", "cfg.xml"], environ={})
    assert request.options is not None and request.options.max_ngram == expected
    warned = [w for w in request.warnings if "isn't numeric" in w]
    assert len(warned) == (0 if value == " 3" else 1)


def test_empty_confidence_is_zero_with_its_raw_label() -> None:
    # -c "" is defined in the Perl: it reads it as 0 and prints "(%-conf.int. ...)".
    request = parse_command_line(["-c", "", "-a", "cfg.xml"], environ={})
    assert request.options is not None
    assert (request.options.confidence, request.options.confidence_label) == (0, "")


@pytest.mark.parametrize("value", ["inf", "-Infinity", "nan"])
def test_non_finite_numbers_are_rejected(value: str) -> None:
    with pytest.raises(UsageError):
        parse_command_line(["-r", value, "-a", "cfg.xml"], environ={})


@pytest.mark.parametrize(
    ("value", "counting"), [("0", 0), ("1", 1), ("2", 2), ("3", 0), ("-1", 0), ("1.0", 1)]
)
def test_counting_mode(value: str, counting: int) -> None:
    # $opt_t other than 1 or 2 (numerically) becomes undef: sentence-level averages.
    assert parse("-t", value, "-a", "cfg.xml").counting == counting


@pytest.mark.parametrize(("value", "best"), [("B", True), ("A", False), ("b", False), ("x", False)])
def test_scoring_formula(value: str, best: bool) -> None:
    # Only "B" (exact string comparison) is best-model; anything else averages.
    assert parse("-f", value, "-a", "cfg.xml").best_model is best


def test_labels_keep_the_raw_strings() -> None:
    o = parse("-w", "1.20", "-c", "95.0", "-2", "04", "-a", "cfg.xml")
    assert (o.wlcs_weight, o.wlcs_label) == (1.2, "1.20")
    assert (o.confidence, o.confidence_label) == (95.0, "95.0")
    assert (o.skip_distance, o.skip_label) == (4, "04")


def test_fractional_n_counts_whole_grams() -> None:
    # for ($n = 1; $n <= 2.5; $n++): ROUGE-1 and ROUGE-2.
    assert parse("-n", "2.5", "-a", "c").max_ngram == 2
    assert parse("-n", "0.5", "-a", "c").max_ngram == 0


# ---------------------------------------------------------------------------
# Data directory
# ---------------------------------------------------------------------------


def test_data_dir_option_wins() -> None:
    env = {"ROUGE_EVAL_HOME": "/rouge", "RED_EVAL_HOME": "/red"}
    assert parse("-e", "/opt", "-a", "c", environ=env).data_dir == "/opt"


def test_rouge_eval_home_before_red_eval_home() -> None:
    env = {"ROUGE_EVAL_HOME": "/rouge", "RED_EVAL_HOME": "/red"}
    assert parse("-a", "c", environ=env).data_dir == "/rouge"


def test_red_eval_home_last() -> None:
    assert parse("-a", "c", environ={"RED_EVAL_HOME": "/red"}).data_dir == "/red"


def test_no_data_dir() -> None:
    assert parse("-a", "c", environ={}).data_dir is None


def test_empty_rouge_eval_home_still_exists() -> None:
    # The Perl tests exists($ENV{ROUGE_EVAL_HOME}), not its truth.
    assert parse("-a", "c", environ={"ROUGE_EVAL_HOME": "", "RED_EVAL_HOME": "/red"}).data_dir == ""
