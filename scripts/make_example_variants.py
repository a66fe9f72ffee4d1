#!/usr/bin/env python3
"""Regenerate the derived files of the ``examples/duc-mini`` bundle.

The canonical texts are the SEE/DUC HTML summaries in
``examples/duc-mini/models`` and ``examples/duc-mini/peers``.  From them this
script writes:

* ``rouge-config.xml``      -- ROUGE-EVAL config, INPUT-FORMAT SEE;
* ``spl/*.spl``             -- one-sentence-per-line plain text versions;
* ``rouge-config-spl.xml``  -- the same evaluations, INPUT-FORMAT SPL;
* ``filelist-spl.txt``      -- a ``-z SPL`` file list (system 1 vs. the models);
* ``be/*.be``               -- Basic Elements in SIMPLE ``head|modifier|relation``
  format, derived with a crude, deterministic word-pair heuristic;
* ``rouge-config-be.xml``   -- the same evaluations, INPUT-FORMAT SIMPLE.

All paths written into the configs and the file list are relative to the
repository root, which is where the ``rouge155py`` commands are meant to be
run from.

Usage::

    python scripts/make_example_variants.py           # (re)write the files
    python scripts/make_example_variants.py --check   # exit 1 if out of date

Only the standard library is used.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_REL = "examples/duc-mini"

# Exactly the sentence pattern accepted by ROUGE-1.5.5's SEE reader.
SEE_LINE = re.compile(r'^<a name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)')
SUMMARY_NAME = re.compile(r"^(?P<eval>[^.]+)\.(?P<kind>[MP])\.(?P<size>[0-9]+)\.(?P<id>[^.]+)\.html$")

# Peer system whose summaries go into the ``-z SPL`` file list.
FILELIST_SYSTEM = "1"

# --------------------------------------------------------------------------
# Basic Element heuristic
# --------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


DETERMINERS = _words("the a an this these those its their his her our my your")
PREPOSITIONS = _words(
    """of in on at by for with from to into onto over under after before
    during since until about across along among around against between
    through without within near via per off toward towards upon"""
)
OTHER_STOPWORDS = _words(
    """and or but nor so yet while although though because as if when
    whether that is are was were be been being has have had do does did will
    would can could may might must shall should it he she they we i you who
    whom whose which what there here them him us me one not also still only
    very more most such just then now than too even own other another both
    either neither once again ago some any each every all no up down out"""
)
AUXILIARIES = _words(
    """is are was were be been being has have had will would can could
    may might must shall should"""
)
STOPWORDS = DETERMINERS | PREPOSITIONS | OTHER_STOPWORDS

# A word (optionally a dollar amount) or a piece of punctuation that breaks
# a phrase.  Hyphens, apostrophes and dots inside a word are kept.
TOKEN = re.compile(r"\$?[A-Za-z0-9]+(?:[-'.][A-Za-z0-9]+)*|--|[,;:\"()]")


def _normalise(token: str) -> str:
    word = token.lower().lstrip("$")
    return word.removesuffix("'s")


def _chunks(sentence: str) -> list[list[str]]:
    """Split a sentence into runs of lowercased words between punctuation."""
    chunks: list[list[str]] = [[]]
    for token in TOKEN.findall(sentence):
        if token[0].isalnum() or token[0] == "$":
            word = _normalise(token)
            if word:
                chunks[-1].append(word)
        elif chunks[-1]:
            chunks.append([])
    return [chunk for chunk in chunks if chunk]


def sentence_bes(sentence: str) -> list[str]:
    """Return crude ``head|modifier|relation`` triples for one sentence.

    * two content words that touch: ``second|first|mod`` ("steel beams"
      gives ``beams|steel|mod``);
    * two content words separated by stopwords including a preposition:
      ``first|second|<last preposition>`` ("reopened on Monday"
      gives ``reopened|monday|on``);
    * a word of a determiner phrase followed, after auxiliaries only, by a
      content word (first time in the sentence): ``word|next|subj`` ("the
      bridge was closed" gives ``bridge|closed|subj``);
    * separated by a determiner: ``first|second|obj``;
    * the head (last content word) of every determiner phrase:
      ``head|nil|nil``; a word ending in "-ed" after the first word of a
      determiner phrase closes the phrase and, the first time in the
      sentence, gives ``head|verb|subj`` ("the project finished" gives
      ``project|finished|subj``).
    """
    triples: list[str] = []
    subject_done = False
    for chunk in _chunks(sentence):
        previous: str | None = None
        previous_in_phrase = False
        gap: list[str] = []
        in_phrase = False
        phrase_head: str | None = None
        for word in chunk:
            if word in STOPWORDS:
                if in_phrase and phrase_head is not None:
                    triples.append(f"{phrase_head}|nil|nil")
                in_phrase = word in DETERMINERS
                phrase_head = None
                gap.append(word)
                continue
            verb_like = in_phrase and phrase_head is not None and word.endswith("ed")
            if verb_like:
                # "the project finished": the phrase ends before the verb.
                triples.append(f"{phrase_head}|nil|nil")
                in_phrase = False
                phrase_head = None
            if previous is not None:
                if verb_like and not gap and not subject_done:
                    triples.append(f"{previous}|{word}|subj")
                    subject_done = True
                elif not gap:
                    triples.append(f"{word}|{previous}|mod")
                elif any(g in PREPOSITIONS for g in gap):
                    preposition = [g for g in gap if g in PREPOSITIONS][-1]
                    triples.append(f"{previous}|{word}|{preposition}")
                elif previous_in_phrase and not subject_done and all(g in AUXILIARIES for g in gap):
                    triples.append(f"{previous}|{word}|subj")
                    subject_done = True
                elif gap[-1] in DETERMINERS:
                    triples.append(f"{previous}|{word}|obj")
            if in_phrase:
                phrase_head = word
            previous = word
            previous_in_phrase = in_phrase
            gap = []
        if in_phrase and phrase_head is not None:
            triples.append(f"{phrase_head}|nil|nil")
    unique: list[str] = []
    for triple in triples:
        if triple not in unique:
            unique.append(triple)
    return unique


def summary_bes(sentences: list[str]) -> list[str]:
    lines: list[str] = []
    for sentence in sentences:
        lines.extend(sentence_bes(sentence))
    return lines


# --------------------------------------------------------------------------
# Reading the canonical summaries
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    eval_id: str
    kind: str  # "M" (model) or "P" (peer)
    system: str  # model ID (A, B, ...) or peer ID (1, 2, ...)
    stem: str  # file name without ".html"
    sentences: tuple[str, ...]


def read_see(path: Path) -> list[str]:
    sentences = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            match = SEE_LINE.match(line)
            if match:
                sentences.append(match.group(2))
    if not sentences:
        raise SystemExit(f"{path}: no SEE sentence lines found")
    return sentences


def load_summaries(example_dir: Path) -> list[Summary]:
    summaries = []
    for sub, kind in (("models", "M"), ("peers", "P")):
        for path in sorted((example_dir / sub).glob("*.html")):
            match = SUMMARY_NAME.match(path.name)
            if not match or match.group("kind") != kind:
                raise SystemExit(f"{path}: unexpected file name")
            summaries.append(
                Summary(
                    eval_id=match.group("eval"),
                    kind=kind,
                    system=match.group("id"),
                    stem=path.name[: -len(".html")],
                    sentences=tuple(read_see(path)),
                )
            )
    return summaries


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def _sort_key(summary: Summary) -> tuple[str, str, int, str]:
    number = int(summary.system) if summary.system.isdigit() else -1
    return (summary.eval_id, summary.kind, number, summary.system)


def make_config(summaries: list[Summary], fmt: str, peer_root: str, model_root: str, ext: str) -> str:
    eval_ids = sorted({s.eval_id for s in summaries})
    lines = ['<ROUGE-EVAL version="1.0">']
    for eval_id in eval_ids:
        members = sorted((s for s in summaries if s.eval_id == eval_id), key=_sort_key)
        lines.append(f'<EVAL ID="{eval_id}">')
        lines.append(f"<PEER-ROOT>{peer_root}</PEER-ROOT>")
        lines.append(f"<MODEL-ROOT>{model_root}</MODEL-ROOT>")
        lines.append(f'<INPUT-FORMAT TYPE="{fmt}"></INPUT-FORMAT>')
        lines.append("<PEERS>")
        for s in members:
            if s.kind == "P":
                lines.append(f'<P ID="{s.system}">{s.stem}{ext}</P>')
        lines.append("</PEERS>")
        lines.append("<MODELS>")
        for s in members:
            if s.kind == "M":
                lines.append(f'<M ID="{s.system}">{s.stem}{ext}</M>')
        lines.append("</MODELS>")
        lines.append("</EVAL>")
    lines.append("</ROUGE-EVAL>")
    return "\n".join(lines) + "\n"


def make_filelist(summaries: list[Summary]) -> str:
    spl = f"{EXAMPLE_REL}/spl"
    header = (
        f"# -z SPL file list: peer system {FILELIST_SYSTEM} followed by the "
        "model summaries of the same topic (paths relative to the repository root)"
    )
    lines = [header]
    for eval_id in sorted({s.eval_id for s in summaries}):
        members = sorted((s for s in summaries if s.eval_id == eval_id), key=_sort_key)
        peers = [s for s in members if s.kind == "P" and s.system == FILELIST_SYSTEM]
        models = [s for s in members if s.kind == "M"]
        if not peers or not models:
            continue
        paths = [f"{spl}/{peers[0].stem}.spl"] + [f"{spl}/{m.stem}.spl" for m in models]
        lines.append(" ".join(paths))
    return "\n".join(lines) + "\n"


def build_outputs(summaries: list[Summary]) -> dict[str, str]:
    """Map each output path (relative to the example directory) to its text."""
    outputs: dict[str, str] = {}
    see_models = f"{EXAMPLE_REL}/models"
    see_peers = f"{EXAMPLE_REL}/peers"
    outputs["rouge-config.xml"] = make_config(summaries, "SEE", see_peers, see_models, ".html")
    for s in summaries:
        outputs[f"spl/{s.stem}.spl"] = "\n".join(s.sentences) + "\n"
        bes = summary_bes(list(s.sentences))
        if not bes:
            raise SystemExit(f"{s.stem}: no Basic Elements could be derived")
        outputs[f"be/{s.stem}.be"] = "\n".join(bes) + "\n"
    spl = f"{EXAMPLE_REL}/spl"
    be = f"{EXAMPLE_REL}/be"
    outputs["rouge-config-spl.xml"] = make_config(summaries, "SPL", spl, spl, ".spl")
    outputs["rouge-config-be.xml"] = make_config(summaries, "SIMPLE", be, be, ".be")
    outputs["filelist-spl.txt"] = make_filelist(summaries)
    return outputs


def stale_files(example_dir: Path, outputs: dict[str, str]) -> list[Path]:
    stale = []
    for sub, ext in (("spl", ".spl"), ("be", ".be")):
        for path in sorted((example_dir / sub).glob(f"*{ext}")):
            if f"{sub}/{path.name}" not in outputs:
                stale.append(path)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--root",
        type=Path,
        default=REPO_ROOT,
        help="repository root (default: the checkout containing this script)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="do not write anything; exit 1 if a generated file is out of date",
    )
    args = parser.parse_args(argv)

    example_dir = args.root / EXAMPLE_REL
    outputs = build_outputs(load_summaries(example_dir))
    stale = stale_files(example_dir, outputs)

    if args.check:
        problems = [str(p) for p in stale]
        for rel, text in sorted(outputs.items()):
            path = example_dir / rel
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                problems.append(str(path))
        for problem in problems:
            print(f"out of date: {problem}", file=sys.stderr)
        return 1 if problems else 0

    for path in stale:
        path.unlink()
    written = 0
    for rel, text in sorted(outputs.items()):
        path = example_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            with path.open("w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            written += 1
    print(f"{written} file(s) written, {len(stale)} stale file(s) removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
