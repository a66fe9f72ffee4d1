"""Score random segments with NIST's mteval-v13a.pl and archive what it prints, for tests/test_other_nist.py.

    python scripts/make_mteval_fixtures.py                        # tests/fixtures/mteval/cases.json
    python scripts/make_mteval_fixtures.py --seed 7 --cases 5 --out fresh.json

Each case is one run of the script on SGML files written here from random data: 1 to 4
documents of 1 to 6 segments, 1 to 4 references, 2 to 4 systems, each segment's text being its
sentences joined by one space (as rouge155py.other_metrics.nist makes a segment of an item).
The words mix case, punctuation, hyphens, digits, SGML entities, ``<skipped>``, non-ASCII
letters, symbols and numbers, and are joined by spaces, tabs, line breaks and Unicode spaces.
The four settings of ``-c`` and ``--international-tokenization`` take turns; one case in four
has short segments of a larger vocabulary. The run is

    perl mteval-v13a.pl -r ref.sgm -s src.sgm -t tst.sgm -n -d 3 --metricsMATR \
        [-c] [--international-tokenization]

with PERL_HASH_SEED=0 and PERL_PERTURB_KEYS=0 (mteval sums a segment's n-gram weights in its
hashes' order: fixed, the printed digits are the same at every run). Archived: the inputs, and
as printed, each tokenized segment (``-d 3``), each segment's and document's NIST (``-d 2``,
``-d 1``: 4 decimals; ``NIST-seg.scr``, ``NIST-doc.scr``: Perl's 15 significant digits), each
system's (``NIST score = ``, ``NIST-sys.scr``) and its cumulative 1- to 9-gram scores.

The script is ``scripts/generic/mteval-v13a.pl`` of github.com/moses-smt/mosesdecoder at commit
34452895f350bf097b21ee514a529a1dc542243c, found at ``--mteval``, else ``$ROUGE155PY_MTEVAL``,
else ``~/.cache/rouge155py-mteval/mteval-v13a.pl``. It needs perl and XML::Twig (Debian's
libxml-twig-perl). Only the standard library is used here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "mteval" / "cases.json"
DEFAULT_MTEVAL = Path("~/.cache/rouge155py-mteval/mteval-v13a.pl").expanduser()
SOURCE = {
    "repository": "https://github.com/moses-smt/mosesdecoder",
    "commit": "34452895f350bf097b21ee514a529a1dc542243c",
    "path": "scripts/generic/mteval-v13a.pl",
}
SCR = ("seg", "doc", "sys")  # --metricsMATR's NIST-seg.scr, NIST-doc.scr, NIST-sys.scr
SETTINGS = ((False, False), (True, False), (False, True), (True, True))  # (-c, international)

# What segments are made of. No word holds "<seg" or "<doc" (mteval's SGML reader would take
# it for a tag); most of what its tokenizations treat apart is here.
WORDS = (
    "the The THE cat Cat sat on On mat a A an dog Dog DOG run runs ran said Said house "
    "don't it's O'Neil U.S. e.g. etc. well-known self-driving x-ray re- -ish co-op "
    "0 0 0 1 2 42 3.14 1,000 5-6 1990s -7 7- 0.5 2,5 10:30 1.2.3 2-0 0-2 $5 5% #1 "
    ", . ! ? ; : ( ) \" ' - -- ... / & % $ # @ [ ] { } | ~ ^ _ ` * + = < > \\ "
    'cat, mat. (the end) "quote" a.b a,b 3. .5 ,3 x/y a&b 1+1 a=b [x] {y} '
    "&amp; &quot; &lt; &gt; &apos; &AMP; &amp;quot; AT&amp;T &lt;b&gt; <skipped> <SKIPPED> x<skipped>y "
    "é École ÉCOLE naïve Straße STRASSE ẞ ΣΑΣ σας Ἀθῆναι İstanbul ǅ ﬁ Ω µ ß Ǆ "
    "中文 日本語。 「引用」 — – … « » “quoted” ‘x’ € £5 ± ½ ² ٣ Ⅻ x²y 3½ • ¿Qué? ¡Hola! "
    "😀 👍🏽 a\u0301 zero\u200bwidth ﬀ 1\u00a02 a\x1cb ¶ § © ™ ° ‰ ′ 〃 ・ ‐ ‑ ‒ ―"
).split(" ")
SPACES = (" ",) * 30 + (
    "  ",
    "\t",
    "\n",
    "\r\n",
    " -\n",
    "\xa0",
    "\u2009",
    "\u3000",
    "\u2028",
    "\x85",
    "\v",
    "\f",
)


def mteval_path(given: str | None = None) -> Path:
    return Path(given or os.environ.get("ROUGE155PY_MTEVAL") or DEFAULT_MTEVAL).expanduser()


def _text(rng: random.Random, words: list[str]) -> list[str]:
    """``words`` as 1 to 3 sentences, each word joined to the next by a random space."""
    cuts = sorted(rng.sample(range(len(words) + 1), rng.randint(0, min(2, len(words) + 1))))
    bounds = [0, *cuts, len(words)]
    sentences = []
    for start, stop in zip(bounds, bounds[1:]):
        sentence = ""
        for word in words[start:stop]:
            sentence += (rng.choice(SPACES) if sentence else "") + word
        sentences.append(sentence)
    return [s for s in sentences if s] or [""]


def _edited(rng: random.Random, words: list[str], vocabulary: list[str]) -> list[str]:
    """A hypothesis from a reference: words dropped, replaced, added, swapped, recased, cut."""
    out = list(words)
    for _ in range(rng.randint(0, max(1, len(out) // 2))):
        action = rng.random()
        where = rng.randrange(len(out) + 1)
        if action < 0.25 and out:
            del out[min(where, len(out) - 1)]
        elif action < 0.5 and out:
            out[min(where, len(out) - 1)] = rng.choice(vocabulary)
        elif action < 0.7:
            out.insert(where, rng.choice(vocabulary))
        elif action < 0.8 and len(out) > 1:
            i = min(where, len(out) - 2)
            out[i], out[i + 1] = out[i + 1], out[i]
        elif action < 0.9 and out:
            i = min(where, len(out) - 1)
            out[i] = out[i].upper() if rng.random() < 0.5 else out[i].lower()
        elif out:
            out.extend(out[rng.randrange(len(out)) :][: rng.randint(1, 4)])
    if rng.random() < 0.15:
        out = out[: rng.randint(0, len(out))]
    return out


def make_case(rng: random.Random, case: bool, international: bool, sparse: bool) -> dict[str, Any]:
    """One random run's inputs: documents of segments, each with its references' sentences
    and each system's. ``sparse``: short segments of many words, which share few n-grams (a
    segment whose n-grams of each order match at most 2 ways scores the same whatever the order
    mteval adds their weights in)."""
    vocabulary = [*rng.sample(WORDS, rng.randint(60, 120) if sparse else rng.randint(12, 40)), "cat", "the"]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    systems = [f"sys{chr(97 + i)}" for i in range(rng.randint(2, 4))]
    n_refs = rng.randint(1, 4)
    documents = []
    for d in rng.sample(range(1, 100), rng.randint(1, 4)):
        segments = []
        for s in range(1, rng.randint(1, 6) + 1):
            base = rng.choices(vocabulary, weights, k=rng.randint(1, 5 if sparse else 25))
            refs = [_edited(rng, base, vocabulary) for _ in range(n_refs)]
            # mteval divides by the number of reference words: one at least
            refs[rng.randrange(n_refs)].append("cat")
            hyps = {}
            for system in systems:
                roll = rng.random()
                if roll < 0.04:
                    words: list[str] = []
                elif roll < 0.1:
                    words = rng.choices(vocabulary, weights, k=rng.randint(1, 20))
                else:
                    words = _edited(rng, rng.choice(refs), vocabulary)
                hyps[system] = _text(rng, words)
            segments.append({"id": s, "references": [_text(rng, r) for r in refs], "systems": hyps})
        documents.append({"docid": f"doc{d}", "segments": segments})
    return {"case": case, "international": international, "systems": systems, "documents": documents}


def _sgml(kind: str, case: dict[str, Any], names: list[str], texts: Any) -> str:
    """An mteval SGML file: ``kind`` srcset, refset or tstset; ``texts(name, segment)``."""
    attributes = {"srcset": "", "refset": ' trglang="en"', "tstset": ' trglang="en"'}[kind]
    lines = [f'<{kind} setid="rnd" srclang="any"{attributes}>']
    for name in names:
        for document in case["documents"]:
            owner = f' sysid="{name}"' if kind != "srcset" else ""
            lines.append(f'<doc{owner} docid="{document["docid"]}">')
            segments = list(document["segments"])
            random.Random(document["docid"] + name).shuffle(segments)  # mteval sorts them by number
            lines.extend(f'<seg id="{s["id"]}">{texts(name, s)}</seg>' for s in segments)
            lines.append("</doc>")
    lines.append(f"</{kind}>")
    return "\n".join(lines) + "\n"


_SEGMENT = re.compile(
    r'  NIST score using 5-grams = (\S+) for system "(.+)" on segment (\d+) of document "(.+)" \((\d+) '
)
_DOCUMENT = re.compile(r'NIST score using   5-grams = (\S+) for system "(.+)" on document "(.+)" \(')
_SYSTEM = re.compile(r'NIST score = (\S+)  for system "(.+)"$')
_TABLE = re.compile(r' NIST:((?:  \S+ ){9}) "(.+)"$')
_INFO = re.compile(r"-?\d+\.\d\d info for each of \d+ (\d+)-grams = '.*'$")
_REFERENCE = re.compile(r"ref '(.+)', seg (\d+): (.*)$")
_HYPOTHESIS = re.compile(r"sys '(.+)', seg (\d+): (.*)$")


def run_case(case: dict[str, Any], perl: str, mteval: Path) -> dict[str, Any]:
    """mteval's printed numbers for ``case``, added to it (a new dict)."""
    refs = [f"ref{i + 1}" for i in range(len(case["documents"][0]["segments"][0]["references"]))]
    options = ["-c"] * case["case"] + ["--international-tokenization"] * case["international"]
    args = ["-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm", "-n", "-d", "3", "--metricsMATR", *options]
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        files = {
            "src.sgm": _sgml("srcset", case, [""], lambda _, s: "source"),
            "ref.sgm": _sgml("refset", case, refs, lambda r, s: " ".join(s["references"][refs.index(r)])),
            "tst.sgm": _sgml("tstset", case, case["systems"], lambda t, s: " ".join(s["systems"][t])),
        }
        for name, text in files.items():
            (where / name).write_bytes(text.encode("utf-8"))  # as written: \r and all
        env = {**os.environ, "PERL_HASH_SEED": "0", "PERL_PERTURB_KEYS": "0"}
        command = [perl, str(mteval), *args]
        done = subprocess.run(command, cwd=where, env=env, capture_output=True, timeout=300)
        if done.returncode or done.stderr:
            raise RuntimeError(f"mteval failed ({done.returncode}): {done.stderr.decode('utf-8', 'replace')}")
        scr = {
            kind: (where / f"NIST-{kind}.scr").read_text(encoding="utf-8").split("\n")[:-1] for kind in SCR
        }
    printed: dict[str, Any] = {"systems": {}, "documents": {}, "segments": {}, "references": {}}
    pending: dict[str, Any] = {"refs": [], "hyp": None, "terms": [0] * 9}
    cumulative = False
    for line in done.stdout.decode("utf-8").split("\n"):  # not splitlines: \x1c, \x85 and \u2028 are text
        if m := _REFERENCE.match(line):
            pending["refs"].append(m.group(3))
        elif m := _HYPOTHESIS.match(line):
            pending["hyp"] = m.group(3)
        elif m := _INFO.match(line):
            pending["terms"][int(m.group(1)) - 1] += 1
        elif m := _SEGMENT.match(line):
            score, system, segment, document, words = m.groups()
            printed["segments"][f"{system} {document} {segment}"] = {
                "nist": score,
                "words": int(words),
                "tokens": pending["hyp"],
                "terms": pending["terms"],
            }
            printed["references"][f"{document} {segment}"] = pending["refs"]
            pending = {"refs": [], "hyp": None, "terms": [0] * 9}
        elif m := _DOCUMENT.match(line):
            printed["documents"][f"{m.group(2)} {m.group(3)}"] = {"nist": m.group(1)}
        elif m := _SYSTEM.match(line):
            printed["systems"][m.group(2)] = {"nist": m.group(1)}
        elif line.startswith("Cumulative N-gram"):
            cumulative = True
        elif cumulative and (m := _TABLE.match(line)):
            printed["systems"][m.group(2)]["cumulative"] = m.group(1).split()
    for line in scr["seg"]:
        _, system, document, segment, score = line.split("\t")
        printed["segments"][f"{system} {document} {segment}"]["scr"] = score
    for line in scr["doc"]:
        _, system, document, score = line.split("\t")
        printed["documents"][f"{system} {document}"]["scr"] = score
    for line in scr["sys"]:
        _, system, score = line.split("\t")
        printed["systems"][system]["scr"] = score
    return {**case, "args": args, "printed": printed}


def _json(value: Any, depth: int = 0) -> str:
    """``value`` as JSON, indented down to a segment's entries, each on one line."""
    if depth == 5 or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, ensure_ascii=False)
    pad = "\n" + " " * (depth + 1)
    if isinstance(value, list):
        return "[" + ",".join(pad + _json(v, depth + 1) for v in value) + "\n" + " " * depth + "]"
    items = (f"{pad}{json.dumps(k, ensure_ascii=False)}: {_json(v, depth + 1)}" for k, v in value.items())
    return "{" + ",".join(items) + "\n" + " " * depth + "}"


def check_tools(perl: str, mteval: Path) -> str:
    """Why mteval cannot run here, or "" when it can."""
    if not mteval.is_file():
        return f"no mteval-v13a.pl at {mteval} (set ROUGE155PY_MTEVAL)"
    try:
        subprocess.run([perl, "-MXML::Twig", "-e", "1"], check=True, capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return f"{perl} with XML::Twig is not found (Debian: apt-get install libxml-twig-perl)"
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"the JSON file to write (default: {OUT})")
    parser.add_argument("--seed", type=int, default=20051, help="the random cases' seed")
    parser.add_argument("--cases", type=int, default=40, help="how many runs of mteval")
    parser.add_argument("--mteval", help="mteval-v13a.pl's path")
    parser.add_argument("--perl", default="perl")
    args = parser.parse_args()
    mteval = mteval_path(args.mteval)
    problem = check_tools(args.perl, mteval)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    cases = [
        run_case(make_case(rng, *SETTINGS[i % 4], sparse=i % 16 >= 12), args.perl, mteval)
        for i in range(args.cases)
    ]
    perl = subprocess.run([args.perl, "-e", "print $^V"], capture_output=True, text=True, check=True)
    archive = {
        "mteval": {**SOURCE, "sha256": hashlib.sha256(mteval.read_bytes()).hexdigest()},
        "perl": perl.stdout,
        "environment": {"PERL_HASH_SEED": "0", "PERL_PERTURB_KEYS": "0"},
        "seed": args.seed,
        "cases": cases,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes((_json(archive) + "\n").encode("utf-8"))
    segments = sum(len(c["printed"]["segments"]) for c in cases)
    print(f"{len(cases)} runs of mteval, {segments} segment scores, into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
