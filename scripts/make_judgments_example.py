#!/usr/bin/env python3
"""Generate a small evaluation with synthetic human judgments, for the worked example of docs/statistics.md.

    python scripts/make_judgments_example.py --out /tmp/judged      # 20 evals x 8 systems x 4 models
    python scripts/make_judgments_example.py --out DIR --evals 50 --systems 30 --seed 3

Writes ``DIR/config.xml`` (an XML configuration of SPL files under ``DIR/peers`` and
``DIR/models``) and ``DIR/judgments.csv`` (``eval_id,system,coverage,responsiveness``).
Everything follows from ``--seed``: the same arguments write the same bytes.

The text is bench.py's English-like Zipf text. Each system has a hidden quality:
the share of its sentences that are copies of model sentences (a quarter of
their words replaced), the rest being new sentences; the share moves from item
to item. The judgments see that hidden content, not the words: ``coverage`` is
the share of the summary's words that come from model sentences plus noise
(0 to 1, two decimals); ``responsiveness`` is 1 to 5, whole numbers (ties).
So ROUGE should agree with them, well but not perfectly. The data is made here
and is under the project's licence (MIT).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Optional

from bench import _spl, _Text


def _summary(
    text: _Text, rng: random.Random, words: int, pool: list[str], share: float
) -> tuple[list[str], float]:
    """Sentences up to `words` words, each a perturbed model sentence with probability
    `share`; and the share of its words that came from the models."""
    sentences: list[str] = []
    total = copied = 0
    while total < words:
        if rng.random() < share:
            sentence, size = text.perturb(rng.choice(pool))
            copied += size
        else:
            sentence, size = text.sentence()
        sentences.append(sentence)
        total += size
    return sentences, copied / total


def generate(out: Path, evals: int, systems: int, models: int, words: int, seed: int) -> None:
    """Write the configuration, the summaries and the judgments under `out`."""
    rng = random.Random(seed)
    text = _Text(seed)
    qualities = [0.2 + 0.4 * k / max(systems - 1, 1) for k in range(systems)]
    rng.shuffle(qualities)
    peers_dir, models_dir = out / "peers", out / "models"
    peers_dir.mkdir(parents=True, exist_ok=True)
    models_dir.mkdir(exist_ok=True)
    config = ['<ROUGE-EVAL version="1.0">']
    judgments = ["eval_id,system,coverage,responsiveness"]
    for e in range(1, evals + 1):
        eval_id = f"D{e:03d}"
        difficulty = rng.uniform(-0.1, 0.1)
        model_texts = [text.summary(words) for _ in range(models)]
        pool = [s for m in model_texts for s in m]
        config += [
            f'<EVAL ID="{eval_id}">',
            f"<PEER-ROOT>{peers_dir}</PEER-ROOT>",
            f"<MODEL-ROOT>{models_dir}</MODEL-ROOT>",
            '<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>',
            "<PEERS>",
        ]
        for k, quality in enumerate(qualities, 1):
            system = f"S{k:02d}"
            share = min(max(quality + difficulty + rng.gauss(0, 0.15), 0.0), 0.95)
            sentences, content = _summary(text, rng, words, pool, share)
            name = f"{eval_id}.{system}.spl"
            (peers_dir / name).write_text(_spl(sentences), encoding="ascii")
            config.append(f'<P ID="{system}">{name}</P>')
            coverage = min(max(content + rng.gauss(0, 0.15), 0.0), 1.0)
            responsiveness = min(max(round(1 + 4 * content + rng.gauss(0, 0.8)), 1), 5)
            judgments.append(f"{eval_id},{system},{coverage:.2f},{responsiveness}")
        config += ["</PEERS>", "<MODELS>"]
        for model_id, sentences in zip("ABCDEFGH", model_texts):
            name = f"{eval_id}.M.{model_id}.spl"
            (models_dir / name).write_text(_spl(sentences), encoding="ascii")
            config.append(f'<M ID="{model_id}">{name}</M>')
        config += ["</MODELS>", "</EVAL>"]
    config.append("</ROUGE-EVAL>")
    (out / "config.xml").write_text("\n".join(config) + "\n", encoding="ascii")
    (out / "judgments.csv").write_text("\n".join(judgments) + "\n", encoding="ascii")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, required=True, help="the directory to write")
    parser.add_argument("--evals", type=int, default=20)
    parser.add_argument("--systems", type=int, default=8)
    parser.add_argument("--models", type=int, default=4, help="1 to 8")
    parser.add_argument("--words", type=int, default=100, help="about this many words a summary")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 1 <= args.models <= 8 or args.evals < 1 or args.systems < 1:
        parser.error("--models is 1 to 8, --evals and --systems at least 1")
    generate(args.out, args.evals, args.systems, args.models, args.words, args.seed)
    print(args.out / "config.xml")
    print(args.out / "judgments.csv")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
