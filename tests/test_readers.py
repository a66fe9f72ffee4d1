"""Summary readers, length limits and tokenisation, against readText/readText_LCS/createNGram."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rouge155py.errors import InputError
from rouge155py.inputs.readers import (
    SummaryFile,
    limit_for_lcs,
    limit_for_ngrams,
    read_be_lines,
    read_sentences,
)
from rouge155py.inputs.readers.limits import perl_split
from rouge155py.text.normalize import counted_tokens
from rouge155py.text.resources import LinguisticData
from rouge155py.text.tokenize import Tokenizer


def _file(tmp_path: Path, data: bytes, name: str = "summary") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


# ---------------------------------------------------------------------------
# SEE
# ---------------------------------------------------------------------------


def test_see_both_line_shapes(tmp_path: Path) -> None:
    data = (
        b"<html>\n"
        b'<a size="12" name="1">[1]</a> <a href="#1" id=1>The First Sentence.</a>\n'
        b'<a name="2">[2]</a>\t<a href="#2" id=2>Second one</a>\n'
        b"</html>\n"
    )
    assert read_sentences(SummaryFile(_file(tmp_path, data), "SEE")) == ["the first sentence.", "second one"]


def test_see_ignores_lines_that_do_not_match_from_the_start(tmp_path: Path) -> None:
    data = (
        b' <a name="1">[1]</a> <a href="#1" id=1>leading space</a>\n'  # not at line start
        b'<a name="x">[1]</a> <a href="#1" id=1>bad name</a>\n'  # name must be digits
        b'<a name="1">[1]</a><a href="#1" id=1>no space</a>\n'  # \s+ needs one space
        b'<A NAME="1">[1]</A> <A HREF="#1" ID=1>upper case tags</A>\n'  # case-sensitive
        b'<a name="1">[1]</a> <a href="#1" id=1><b>starts with a tag</b>\n'  # [^<]+ is empty
        b'<a name="3">[3]</a> <a href="#3" id=3>kept</a>\n'
    )
    assert read_sentences(SummaryFile(_file(tmp_path, data), "SEE")) == ["kept"]


def test_see_text_runs_to_the_next_tag_or_the_line_end(tmp_path: Path) -> None:
    # [^<]+ stops at the first "<" and otherwise takes the newline too (and a \r before it).
    data = (
        b'<a name="1">[1]</a> <a href="#1" id=1>cut <b>here</b>\n'
        b'<a name="2">[2]</a> <a href="#2" id=2>no closing tag\n'
        b'<a name="3">[3]</a> <a href="#3" id=3>crlf line\r\n'
    )
    assert read_sentences(SummaryFile(_file(tmp_path, data), "SEE")) == [
        "cut ",
        "no closing tag\n",
        "crlf line\r\n",
    ]


def test_see_entities_are_kept(tmp_path: Path) -> None:
    data = b'<a name="1">[1]</a> <a href="#1" id=1>AT&amp;T &quot;x&quot;</a>\n'
    sentences = read_sentences(SummaryFile(_file(tmp_path, data), "SEE"))
    assert sentences == ["at&amp;t &quot;x&quot;"]
    # ... so "amp" and "quot" become tokens.
    assert counted_tokens(sentences[0]) == ["at", "amp", "t", "quot", "x", "quot"]


def test_see_format_name_is_case_insensitive(tmp_path: Path) -> None:
    data = b'<a name="1">[1]</a> <a href="#1" id=1>x</a>\n'
    assert read_sentences(SummaryFile(_file(tmp_path, data), "see")) == ["x"]


# ---------------------------------------------------------------------------
# ISI
# ---------------------------------------------------------------------------


def test_isi_lines(tmp_path: Path) -> None:
    data = (
        b'<S SNTNO="1">First ONE</S>\n'
        b'<S SNTNO="1,2a">second</S> trailing text\n'  # [0-9a-z,]+ and anything after </S>
        b'<S SNTNO="A">upper-case number</S>\n'  # A is not in [0-9a-z,]
        b'<s sntno="3">lower-case tag</s>\n'
        b'<S SNTNO="4">no closing tag\n'
        b'<S SNTNO="5">a <b>tag</b> inside</S>\n'  # [^<]+ must reach </S>
        b'  <S SNTNO="6">indented</S>\n'
    )
    assert read_sentences(SummaryFile(_file(tmp_path, data), "ISI")) == ["first one", "second"]


# ---------------------------------------------------------------------------
# SPL
# ---------------------------------------------------------------------------


def test_spl_lines_are_untrimmed_and_empty_lines_skipped(tmp_path: Path) -> None:
    data = b"  Leading and trailing  \n\nSecond\n\n\n"
    assert read_sentences(SummaryFile(_file(tmp_path, data), "SPL")) == ["  leading and trailing  ", "second"]


def test_spl_carriage_return_line_is_a_sentence(tmp_path: Path) -> None:
    # chomp removes only \n: "\r" is a non-empty line, a sentence without tokens.
    data = b"one\r\n\r\ntwo"
    assert read_sentences(SummaryFile(_file(tmp_path, data), "SPL")) == ["one\r", "\r", "two"]


def test_spl_whitespace_only_line_counts(tmp_path: Path) -> None:
    assert read_sentences(SummaryFile(_file(tmp_path, b"a\n \t \nb\n"), "spl")) == ["a", " \t ", "b"]


def test_lowercasing_is_ascii_only(tmp_path: Path) -> None:
    # tr/A-Z/a-z/ on bytes: the Latin-1 byte 0xC9 (an upper-case E acute) is not changed.
    sentences = read_sentences(SummaryFile(_file(tmp_path, b"CAF\xc9 ABC\n"), "SPL"))
    assert sentences == ["caf\xc9 abc"]


# ---------------------------------------------------------------------------
# Formats and files
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["TXT", "SIMPLE", "", None, "SPL2", " SPL"])
def test_unknown_format_is_an_error(tmp_path: Path, fmt: object) -> None:
    with pytest.raises(InputError):
        read_sentences(SummaryFile(_file(tmp_path, b"text\n"), fmt))  # type: ignore[arg-type]


def test_format_with_a_final_newline_is_accepted(tmp_path: Path) -> None:
    # readText tests $type =~ /^SPL$/oi, and Perl's $ also matches before a final
    # newline: a TYPE attribute "SPL&#10;" (which XML::DOM reads as "SPL\n") reads SPL.
    assert read_sentences(SummaryFile(_file(tmp_path, b"text\n"), "SPL\n")) == ["text"]


def test_a_directory_reads_as_empty(tmp_path: Path) -> None:
    # open() of a directory succeeds in Perl and <TEXT> returns nothing.
    assert read_sentences(SummaryFile(str(tmp_path), "SPL")) == []


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        read_sentences(SummaryFile(str(tmp_path / "absent"), "SPL"))


def test_be_lines_keep_empty_lines(tmp_path: Path) -> None:
    # readBE chomps every line and keeps all of them (createBE rejects the empty one later).
    path = _file(tmp_path, b"a|b|c\n\nd|e|f\r\n")
    assert read_be_lines(SummaryFile(path, "SIMPLE")) == ["a|b|c", "", "d|e|f\r"]
    assert read_be_lines(SummaryFile(path, "ISI")) == []  # a placeholder in the Perl: reads nothing
    with pytest.raises(InputError):
        read_be_lines(SummaryFile(path, "SPL"))


# ---------------------------------------------------------------------------
# Length limits
# ---------------------------------------------------------------------------


def test_perl_split_keeps_a_leading_empty_field() -> None:
    assert perl_split(" a b") == ["", "a", "b"]
    assert perl_split("a b  ") == ["a", "b"]
    assert perl_split("") == []
    assert perl_split("a\tb\r\nc") == ["a", "b", "c"]


def test_word_limit_takes_whole_sentences_then_cuts() -> None:
    # -l 5: "a b" (2 < 5) kept, size 2; "c d" (2 + 2 < 5) kept, size 4;
    # "e f g": 4 + 3 >= 5, so fields 0 .. 5 - 4 - 1 = 0: "e". Then stop.
    sentences = ["a b", "c d", "e f g", "h"]
    assert limit_for_ngrams(sentences, 5, 0) == ["a b", "c d", "e"]
    assert limit_for_lcs(sentences, 5, 0) == ["a b", "c d", "e"]


def test_word_limit_reached_exactly_cuts_the_sentence_that_reaches_it() -> None:
    # -l 4: "a b" kept (2 < 4); "c d": 2 + 2 < 4 is false, so "c d" is cut to
    # fields 0 .. 4 - 2 - 1 = 1, i.e. all of it, and reading stops before "e".
    assert limit_for_ngrams(["a b", "c d", "e"], 4, 0) == ["a b", "c d"]


def test_word_limit_counts_a_leading_empty_field() -> None:
    # " a b c" splits into "", a, b, c: 4 fields. -l 3 keeps fields 0 .. 2, i.e. " a b"
    # (the join of "", "a", "b"): only 2 real words.
    assert limit_for_ngrams([" a b c"], 3, 0) == [" a b"]
    # -l 4: 0 + 4 < 4 is false, so the sentence is cut to its 4 fields: " a b c".
    assert limit_for_ngrams([" a b c", "d"], 4, 0) == [" a b c"]


def test_word_limit_joins_fields_with_single_spaces() -> None:
    # The cut sentence is rebuilt from its fields: runs of whitespace become one space.
    assert limit_for_ngrams(["a\t\tb   c d"], 3, 0) == ["a b c"]


def test_byte_limit_ngram_reader_accumulates() -> None:
    # -b 5: "abc" 0 + 3 < 5 kept (size 3); "defg": 3 + 4 >= 5, cut to 5 - 3 = 2 bytes "de".
    assert limit_for_ngrams(["abc", "defg", "hij"], 0, 5) == ["abc", "de"]


def test_byte_limit_lcs_reader_compares_each_sentence_alone() -> None:
    # readText_LCS never adds to its running length: each sentence is compared with 5
    # alone: "abc" (3) and "defg" (4) are kept; "hijklm" (6) is cut to 5 bytes and ends it.
    sentences = ["abc", "defg", "hijklm", "n"]
    assert limit_for_lcs(sentences, 0, 5) == ["abc", "defg", "hijkl"]
    assert limit_for_ngrams(sentences, 0, 5) == ["abc", "de"]


def test_byte_limit_counts_bytes_not_words() -> None:
    # Spaces count: "a b c" is 5 bytes, not < 5, so it is cut to "a b c"[:5] and ends the text.
    assert limit_for_ngrams(["a b c", "d"], 0, 5) == ["a b c"]
    # Latin-1 text holds one character per byte: a 0xE9 byte counts 1.
    assert limit_for_ngrams(["\xe9\xe9\xe9", "x"], 0, 2) == ["\xe9\xe9"]


def test_negative_limits_follow_perl_slices() -> None:
    # -b -5: no length is < -5, so the first sentence is cut with substr($s, 0, -5),
    # which leaves 5 characters off its end: "abcdefgh" -> "abc". Both readers agree.
    assert limit_for_ngrams(["abcdefgh", "x"], 0, -5) == ["abc"]
    assert limit_for_lcs(["abcdefgh", "x"], 0, -5) == ["abc"]
    # -l -2: @tokens[0 .. -2 - 0 - 1] is an empty slice: nothing is kept.
    assert limit_for_ngrams(["a b c", "d"], -2, 0) == [""]


def test_fractional_limits_truncate() -> None:
    # -l 2.5: 0 + 3 < 2.5 is false; @tokens[0 .. 1.5] is @tokens[0 .. 1]: "a b".
    assert limit_for_ngrams(["a b c"], 2.5, 0) == ["a b"]
    # -b 2.5: "ab" (2 < 2.5) kept; "cd": 2 + 2 >= 2.5, substr("cd", 0, 0.5) is "".
    assert limit_for_ngrams(["ab", "cd"], 0, 2.5) == ["ab", ""]


def test_no_limit_keeps_everything() -> None:
    sentences = ["a", "b c"]
    assert limit_for_ngrams(sentences, 0, 0) == sentences
    assert limit_for_lcs(sentences, 0, 0) == sentences


# ---------------------------------------------------------------------------
# Normalisation and tokens
# ---------------------------------------------------------------------------


def raw_tokens(text: str) -> list[str]:
    r"""The Perl's substitutions, literally: s/-/ - /g; s/[^A-Za-z0-9\-]/ /g; then split."""
    text = re.sub(r"[^A-Za-z0-9\-]", " ", text.replace("-", " - "))
    return text.split()


def test_counted_tokens_are_the_perl_tokens_that_start_right() -> None:
    # Every byte value: counted_tokens keeps exactly the Perl's tokens that start with [a-z0-9$].
    text = "".join(chr(b) for b in range(256)) + " ab-cd $5 X9 9x --a "
    assert counted_tokens(text) == [t for t in raw_tokens(text) if re.match(r"[a-z0-9$]", t)]


def test_hyphen_becomes_its_own_token() -> None:
    # s/-/ - /g, then every other byte outside [A-Za-z0-9-] becomes a space.
    assert raw_tokens("state-of-the-art") == ["state", "-", "of", "-", "the", "-", "art"]
    # "-" tokens do not start with [a-z0-9$]: they are never counted.
    assert counted_tokens("state-of-the-art") == ["state", "of", "the", "art"]


def test_dollar_and_punctuation_are_separators() -> None:
    # "$" is outside [A-Za-z0-9-], so it is blanked before the [a-z0-9$] test sees it.
    assert raw_tokens("$100, 3.14 and e-mail!") == ["100", "3", "14", "and", "e", "-", "mail"]
    assert counted_tokens("$100, 3.14 and e-mail!") == ["100", "3", "14", "and", "e", "mail"]


def test_non_ascii_bytes_separate_tokens() -> None:
    # caf\xe9s: 0xE9 becomes a space -> "caf" and "s".
    assert raw_tokens("caf\xe9s na\xefve") == ["caf", "s", "na", "ve"]


def test_upper_case_start_is_not_counted() -> None:
    # Readers lowercase, but the token test itself only accepts [a-z0-9$] first:
    # "Abc" is dropped, "aBC" and "9X" are kept.
    assert counted_tokens("Abc aBC 9X") == ["aBC", "9X"]


def test_whitespace_and_empty_text() -> None:
    assert raw_tokens(" \t\r\n ") == []
    assert counted_tokens("") == []
    assert counted_tokens("one\r\ntwo") == ["one", "two"]


DATA = LinguisticData(
    stopwords=frozenset({"the", "on", "was"}),
    exceptions={"geese": "goose", "was": "be", "ran": "run", "mice": "mouse"},
    source="test",
)


def test_tokenizer_plain() -> None:
    tokenizer = Tokenizer(DATA, remove_stopwords=False)
    assert tokenizer.tokens(["the cats", "sat on-the mat"], stem=False) == [
        "the",
        "cats",
        "sat",
        "on",
        "the",
        "mat",
    ]


def test_tokenizer_removes_stopwords_with_s() -> None:
    tokenizer = Tokenizer(DATA, remove_stopwords=True)
    assert tokenizer.tokens(["the cats", "sat on-the mat"], stem=False) == ["cats", "sat", "mat"]


def test_tokenizer_stems_only_tokens_longer_than_three_bytes() -> None:
    tokenizer = Tokenizer(DATA, remove_stopwords=False)
    # cats -> cat (Porter), geese -> goose (exception list first, Porter would give "gees"),
    # mice -> mouse (exception; 4 bytes), running -> run (Porter),
    # was and ran (3 bytes) are left alone although both are in the exception list.
    tokens = tokenizer.tokens(["cats geese mice running was ran"], stem=True)
    assert tokens == ["cat", "goose", "mouse", "run", "was", "ran"]


def test_stopwords_are_removed_before_stemming() -> None:
    # "was" is a stopword: removed under -s even though stemming would not touch it;
    # "cats" is not a stopword although its stem is not either.
    tokenizer = Tokenizer(DATA, remove_stopwords=True)
    assert tokenizer.tokens(["was cats the"], stem=True) == ["cat"]


def test_morph_stem_any_length() -> None:
    # MorphStem itself (used by BE heads) has no length test: exceptions first, else Porter.
    tokenizer = Tokenizer(DATA, remove_stopwords=False)
    assert tokenizer.morph_stem("was") == "be"
    assert tokenizer.morph_stem("Geese") == "goose"  # looked up lowercased
    assert tokenizer.morph_stem("ponies") == "poni"


def test_sentence_tokens_keep_sentences_apart() -> None:
    tokenizer = Tokenizer(DATA, remove_stopwords=True)
    assert tokenizer.sentence_tokens(["the cat", "the", "on mats"], stem=True) == [["cat"], [], ["mat"]]
