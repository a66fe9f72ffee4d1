"""Extract the test fixture tests/fixtures/realsumm/ from REALSumm (Bhandari et al., EMNLP 2020).

    python scripts/make_realsumm_fixture.py REALSUMM_CHECKOUT

REALSumm (github.com/neulab/REALSumm, CC BY 4.0) publishes, for 100 CNN/DailyMail test
documents, the summaries of 14 abstractive systems with LitePyramid recall judged by people
and the scores of automatic metrics (``scores_dicts/abs.pkl``). This writes two tables:
``judgments.csv`` (eval_id, system, litepyramid_recall) and ``scores.csv`` (eval_id, system,
and the metrics rouge_1_f_score, rouge_2_recall, rouge_l_f_score, bert_f_score, mover_score
and js-2 as the pickle holds them (``repr``; REALSumm stores the Jensen-Shannon divergence
negated as js-2, so that higher is better), and ``js_divergence``, the divergence itself
(-js-2), lower is better, as its ``higher_is_better`` row says. The pickle is the project's own
publication, read here once on the maintainer's machine; the tests read the CSV files only.
"""

from __future__ import annotations

import argparse
import csv
import pickle  # REALSumm's own published file, read once to make the fixture
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "realsumm"
METRICS = ("rouge_1_f_score", "rouge_2_recall", "rouge_l_f_score", "bert_f_score", "mover_score", "js-2")
LOWER_IS_BETTER = {"js_divergence"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a REALSumm checkout (its scores_dicts/abs.pkl)")
    args = parser.parse_args()
    with open(args.checkout / "scores_dicts" / "abs.pkl", "rb") as file:
        documents = pickle.load(file)
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for eval_id in sorted(documents, key=int):
        for system, entry in sorted(documents[eval_id]["system_summaries"].items()):
            rows.append((str(eval_id), system.removesuffix(".txt"), entry["scores"]))
    with open(OUT / "judgments.csv", "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(["eval_id", "system", "litepyramid_recall"])
        writer.writerows(
            [eval_id, system, repr(float(scores["litepyramid_recall"]))] for eval_id, system, scores in rows
        )
    with open(OUT / "scores.csv", "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file, lineterminator="\n")
        columns = [*METRICS, "js_divergence"]
        writer.writerow(["eval_id", "system", *columns])
        writer.writerow(
            ["higher_is_better", "", *("false" if m in LOWER_IS_BETTER else "true" for m in columns)]
        )
        writer.writerows(
            [eval_id, system, *(repr(float(scores[m])) for m in METRICS), repr(-float(scores["js-2"]))]
            for eval_id, system, scores in rows
        )
    print(f"{len(rows)} rows ({len(documents)} documents) into {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
