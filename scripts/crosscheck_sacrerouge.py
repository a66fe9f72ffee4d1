"""sacrerouge's ``Rouge`` metric run unchanged on rouge155py's ROUGE home (``--make-home``) and on
the original ROUGE-1.5.5.pl: the same averages and per-summary scores.

    python scripts/crosscheck_sacrerouge.py PERL_RELEASE_DIR [--cases 10] [--items 40]

sacrerouge (0.2.5) writes each summary a sentence per line, writes a configuration and runs
``ROUGE_ROOT/ROUGE-1.5.5.pl -e ROUGE_ROOT/data -n 4 -a -c 95 -r 1000 -p 0.5 -t 0 -d -m -x -f A``
(its defaults; its arguments add ``-s``, ``-l``, ``-b``, ``-2 N -u``, ``-w``, ``-f B`` or drop
``-x``). It needs its own environment: ``pip install sacrerouge googledrivedownloader==0.4``
beside rouge155py (sacrerouge pins sacrebleu 2.0.0). PERL_RELEASE_DIR is a ROUGE-1.5.5 release
whose script can run (``python tests/reference/oracle.py --install`` prints where; the script
must be executable: a copy with ``chmod +x`` will do).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

WORDS = "the a of cat cats dog dogs sat sitting ran running on mat mats night bark barked loud fox 42".split()
CHOICES = [
    {},
    {"compute_rouge_l": True},
    {"remove_stopwords": True, "skip_bigram_gap_length": 4},
    {"scoring_function": "max", "wlcs_weight": 1.2, "compute_rouge_l": True},
    {"max_words": 8},
    {"max_bytes": 40, "use_porter_stemmer": False},
]


def _summary(rng: random.Random) -> object:
    sentences = [
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 10))) + rng.choice([".", "!", ""])
        for _ in range(rng.randint(1, 3))
    ]
    return sentences if rng.random() < 0.5 else " ".join(sentences)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("perl_release", type=Path)
    parser.add_argument("--cases", type=int, default=12)
    parser.add_argument("--items", type=int, default=40)
    args = parser.parse_args()
    from sacrerouge.metrics import Rouge

    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        subprocess.run(
            [sys.executable, "-m", "rouge155py", "--make-home", str(home)], check=True, capture_output=True
        )
        same = 0
        for case in range(args.cases):
            rng = random.Random(case)
            options = CHOICES[case % len(CHOICES)]
            summaries = [_summary(rng) for _ in range(args.items)]
            references = [[_summary(rng) for _ in range(rng.randint(1, 4))] for _ in range(args.items)]
            ours = Rouge(rouge_root=str(home), **options).evaluate(summaries, references)
            perl = Rouge(rouge_root=str(args.perl_release), **options).evaluate(summaries, references)
            agree = ours == perl
            same += agree
            metrics = ", ".join(sorted(ours[0]))
            print(f"case {case}: {options or 'defaults'}: {metrics}: {'same' if agree else 'DIFFERENT'}")
        print(f"{same} of {args.cases} cases ({args.items} summaries each): sacrerouge's results the same")
        return 0 if same == args.cases else 1


if __name__ == "__main__":
    sys.exit(main())
