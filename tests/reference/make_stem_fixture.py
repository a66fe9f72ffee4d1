# Regenerate tests/fixtures/stem_vocab.tsv.gz with:
#
#     cd tests && python -m reference.make_stem_fixture
#
# (it installs the reference Perl through oracle.py and, when the
# english_words module is not importable, pip-installs english-words==2.0.2
# into a temporary directory).
"""Build the stemmer fixture: words with their stems computed by the Perl.

Each line of the gzip'd fixture is ``word<TAB>stem<TAB>morphstem`` (latin-1
bytes), where ``stem`` is what ROUGE-1.5.5.pl's ``stem`` sub returns and
``morphstem`` what its ``MorphStem`` sub returns (WordNet exception lookup
first, then ``stem``).  The Perl subs are read out of the installed
ROUGE-1.5.5.pl at run time into a temporary driver program.

:func:`perl_stems` is also used by the live test in tests/test_stem.py.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from .oracle import DB_NAME, EXC_DIR_NAME, EXC_FILES, Oracle, OracleError, ensure_oracle

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "stem_vocab.tsv.gz"
ENGLISH_WORDS = "english-words==2.0.2"
# Keep about one word in four of the english-words vocabulary.
SAMPLE_BYTE_BELOW = 64

_DRIVER_HEAD = r"""
use DB_File;
use Fcntl;
binmode(STDIN);
binmode(STDOUT);
my $db = shift(@ARGV);
tie(%exceptiondb, 'DB_File', $db, O_RDONLY, 0440, $DB_HASH)
  or die "cannot open $db\n";
"""

_DRIVER_TAIL = r"""
&initialise();
while (defined(my $line = <STDIN>)) {
  chomp($line);
  my $stemmed = stem($line);
  my $morph = MorphStem($line);
  $morph = '' unless defined($morph);
  print "$stemmed\t$morph\n";
}
untie(%exceptiondb);
"""


def _stemmer_subs(script: Path) -> str:
    """Return the text of the Perl's ``stem``, ``initialise`` and ``MorphStem`` subs."""
    text = script.read_bytes().decode("latin-1")
    stem_at = re.search(r"^sub stem\b", text, re.MULTILINE)
    morph = re.search(r"^sub MorphStem\b.*?^\}", text, re.MULTILINE | re.DOTALL)
    if stem_at is None or morph is None or "sub initialise" not in text[stem_at.start() :]:
        raise OracleError(f"cannot find the stemmer subs in {script}")
    # In ROUGE-1.5.5.pl "sub stem" and "sub initialise" are the last subs.
    return morph.group(0) + "\n\n" + text[stem_at.start() :]


def perl_stems(words: Sequence[str], oracle: Oracle | None = None) -> list[tuple[str, str]]:
    """Return ``(stem, morphstem)`` from the Perl for each word (no tabs/newlines)."""
    oracle = oracle or ensure_oracle()
    for word in words:
        if "\t" in word or "\n" in word:
            raise ValueError(f"word holds a tab or newline: {word!r}")
    source = _DRIVER_HEAD + _stemmer_subs(oracle.script) + _DRIVER_TAIL
    with tempfile.TemporaryDirectory(prefix="stem-driver-") as tmp:
        driver = Path(tmp) / "stem_driver.pl"
        driver.write_bytes(source.encode("latin-1"))
        proc = subprocess.run(
            [oracle.perl, str(driver), str(oracle.data_dir / DB_NAME)],
            input="".join(w + "\n" for w in words).encode("latin-1"),
            capture_output=True,
            timeout=600,
            check=False,
        )
    if proc.returncode != 0:
        raise OracleError(proc.stderr.decode("utf-8", "replace"))
    lines = proc.stdout.decode("latin-1").split("\n")
    if lines[-1] != "" or len(lines) - 1 != len(words):
        raise OracleError("stem driver returned an unexpected number of lines")
    return [tuple(line.split("\t")) for line in lines[:-1]]  # type: ignore[misc]


def _english_words() -> set[str]:
    """The lower-cased web2 and gcide lists of english-words, installing it if needed."""
    sources = ["web2", "gcide"]
    try:
        from english_words import get_english_words_set
    except ImportError:
        with tempfile.TemporaryDirectory(prefix="english-words-") as target:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--no-deps",
                    "--disable-pip-version-check",
                    "--target",
                    target,
                    ENGLISH_WORDS,
                ],
                check=True,
            )
            sys.path.insert(0, target)
            try:
                from english_words import get_english_words_set

                return set(get_english_words_set(sources, lower=True))
            finally:
                sys.path.remove(target)
    return set(get_english_words_set(sources, lower=True))


def _sampled(words: Iterable[str]) -> set[str]:
    """A deterministic quarter of the lower-case ASCII words."""
    return {word for word in words if re.fullmatch("[a-z]+", word) and _sample_byte(word) < SAMPLE_BYTE_BELOW}


def _sample_byte(word: str) -> int:
    """First byte of the word's BLAKE2b digest: a stable pseudo-random 0-255."""
    return hashlib.blake2b(word.encode("ascii"), digest_size=8).digest()[0]


def _exception_words(data_dir: Path) -> set[str]:
    """Keys and values of the four WordNet exception lists."""
    found = set()
    for name in EXC_FILES:
        for line in (data_dir / EXC_DIR_NAME / name).read_bytes().splitlines():
            fields = line.decode("latin-1").split()
            found.update(fields[:2])
    return found


# fmt: off
_STEP_SUFFIXES = (
    "s", "es", "ss", "sses", "ies", "eed", "ed", "ing", "y", "ly", "at", "bl", "iz",
    "ational", "tional", "enci", "anci", "izer", "bli", "abli", "alli", "entli",
    "eli", "ousli", "ization", "ation", "ator", "alism", "iveness", "fulness",
    "ousness", "aliti", "iviti", "biliti", "logi", "icate", "ative", "alize",
    "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able",
    "ible", "ant", "ement", "ment", "ent", "ou", "ism", "ate", "iti", "ous", "ive",
    "ize", "ion", "sion", "tion", "e", "ll", "le", "ementent", "alment", "ementing",
    "ments", "ations", "logies", "ically", "ousnesses",
)
_STEM_PREFIXES = (
    "", "b", "y", "yy", "ab", "tr", "abc", "ya", "ye", "ey", "oy", "bab", "trab",
    "conv", "hop", "fil", "agr", "yell", "sing", "str", "bit", "sky", "eye",
    "rhythm", "pay", "cement", "el", "gener", "tot", "wax", "fix", "bow", "9", "x1",
    "2b", "abcdef", "Y", "Ab", "YELL", "qu", "squ", "ooze",
)
# fmt: on


def _made_up_words() -> set[str]:
    """Short strings, digits, initial y, and prefix+suffix combinations."""
    made = set()
    for length in range(1, 5):
        for letters in itertools.product("aeiostyl", repeat=length):
            made.add("".join(letters))
    for prefix, suffix in itertools.product(_STEM_PREFIXES, _STEP_SUFFIXES):
        made.add(prefix + suffix)
    # fmt: off
    made.update([
        "0", "00", "123", "1990s", "2nd", "3rd", "10ing", "12ed", "99ies", "4sses",
        "1y", "y2k", "mp3s", "a1b2c3", "x86", "ies", "ied", "eed", "ing", "sing",
        "yes", "yying", "ying", "yies", "yational", "yyyyy", "yement", "ylogi",
        "yelling", "yearly", "yttrium", "you", "your", "yours", "yourselves",
        "cement", "ement", "xement", "element", "agreement", "replacement",
        "movement", "abatement", "placement", "management", "government",
        "logi", "xlogi", "analogi", "biologi", "theologi", "apologi", "ecologi",
        "YES", "CATS", "Running", "Abilities", "Yearly", "HOPPING", "McDonald's",
        "don't", "can't", "o'clock", "e-mail", "u.s.", "u.s.a.", "--", "...",
        "caf\xe9s", "na\xefve", "\xe9l\xe8ves", "r\xe9sum\xe9s", "\xff\xfeing",
        "a b", "a  s", " ies", "ies ", "ss\x0bing",
    ])
    # fmt: on
    return made


def build_vocabulary(data_dir: Path) -> list[str]:
    """All fixture words, sorted by their latin-1 bytes."""
    words = _sampled(_english_words()) | _exception_words(data_dir) | _made_up_words()
    words = {w for w in words if w and "\t" not in w and "\n" not in w}
    return sorted(words, key=lambda w: w.encode("latin-1"))


def main(argv: Sequence[str] | None = None) -> int:
    """Write the fixture (default tests/fixtures/stem_vocab.tsv.gz)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=FIXTURE)
    opts = parser.parse_args(argv)
    oracle = ensure_oracle()
    words = build_vocabulary(oracle.data_dir)
    results = perl_stems(words, oracle)
    lines = [f"{w}\t{s}\t{m}\n" for w, (s, m) in zip(words, results)]
    payload = "".join(lines).encode("latin-1")
    opts.output.parent.mkdir(parents=True, exist_ok=True)
    tmp = opts.output.with_name(opts.output.name + ".tmp")
    with (
        open(tmp, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz,
    ):
        gz.write(payload)
    os.replace(tmp, opts.output)
    print(f"wrote {len(words)} words to {opts.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
