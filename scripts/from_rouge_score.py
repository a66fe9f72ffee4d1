"""How rouge-score's (HF evaluate's) numbers become ROUGE-1.5.5's, one setting at a time, on the
bundled example (examples/duc-mini: 10 topics, 3 systems, 4 references each).

    python scripts/from_rouge_score.py            # a Markdown table, docs/migrating.md's "From rouge-score"

Each row changes one thing from the row above it; every value is the mean F over the 30
(topic, system) items, from ``rouge155py.hf.compute`` (the HF module's code), except the last
row, the F average the Perl's report prints (its bootstrap mean, 1000 resamples).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rouge155py.hf import compute

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "duc-mini" / "spl"


def example(folder: Path) -> tuple[list[str], list[list[str]]]:
    """Every system's summary of every topic, each with the topic's four references."""
    predictions, references = [], []
    for system in "123":
        for topic in range(1, 11):
            read = lambda name: (folder / name).read_text(encoding="utf-8")  # noqa: E731
            predictions.append(read(f"D{topic:02d}.P.100.{system}.spl"))
            references.append([read(f"D{topic:02d}.M.100.{m}.spl") for m in "ABCD"])
    return predictions, references


STEM = {"use_stemmer": True}
ROWS: list[tuple[str, dict[str, Any]]] = [
    (
        "rouge-score / HF `rouge`, `use_stemmer=True` (best reference by F)",
        {"dialect": "rouge-score", **STEM},
    ),
    ("... without its stemmer", {"dialect": "rouge-score"}),
    ('the Perl\'s words, no stemmer, best by F (`multi_ref="best-f"`)', {}),
    ("... the Perl's stemmer (`-m`: Porter + WordNet exceptions)", STEM),
    ('... the reference of best recall (`-f B`, `multi_ref="best"`)', {**STEM, "multi_ref": "best"}),
    (
        '... counts summed over the references (`-f A`, `multi_ref="average"`)',
        {**STEM, "multi_ref": "average"},
    ),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--example", type=Path, default=EXAMPLE, help="the folder of the example's SPL files")
    args = parser.parse_args()
    predictions, references = example(args.example)
    print("| setting | " + " | ".join(TYPES) + " |")
    print("| --- |" + " --- |" * len(TYPES))
    for name, options in ROWS:
        found = compute(predictions, references, rouge_types=TYPES, use_aggregator=False, **options)
        print(f"| {name} | " + " | ".join(f"{sum(found[t]) / len(found[t]):.5f}" for t in TYPES) + " |")
    printed = compute(predictions, references, rouge_types=TYPES, **ROWS[-1][1])
    print("| ... the Perl's printed average (bootstrap mean of 1000 resamples) | "
          + " | ".join(f"{printed[t]:.5f}" for t in TYPES) + " |")  # fmt: skip


if __name__ == "__main__":
    main()
