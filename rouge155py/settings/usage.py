"""The usage texts of ``-h`` and ``-H`` (the Perl's options, and this port's additions).

A setting's texts are its row's (:data:`~rouge155py.settings.options.ROWS`: ``synopsis`` for
``-h``, ``help`` for ``-H``); the layouts below place them (``@name``) in the Perl's order among
the lines of the command itself, and any row they do not place at ``@others``.
"""

from __future__ import annotations

import re
from typing import Callable

from .options import ROWS
from .table import Setting

__all__ = ["synopsis", "usage"]

_PLACE = re.compile(r"^( *)(@\w+(?: @\w+)*)\n", re.M)

_SHORT = """\
{prog}
         @all_systems
         @confidence
         @per_eval
         @data_dir
         [-h (usage)]
         [-H | --help (detailed usage)]
         @length_limit
         @stem
         @stem_models_only
         @max_ngram
         @stopwords
         @resamples
         @skip_distance
         @be_mode
         @skip_unigrams
         @skip_both
         @wlcs_weight
         @verbose
         @lcs
         @best_model
         @alpha
         @counting
         @file_list_format
         @jobs
         [--json | --format legacy|json|csv|html] [--signature] [--quiet] [--version]
         [--check ARCHIVED [--tolerance X]]
         @lang @stopwords_file @dialect
         [--compare paired-bootstrap|permutation [--baseline SYSTEM]]
         [--judgments FILE [--scores FILE]] [--power A,B] [--measure R|P|F] [--samples N] [--seed N]
         [--metrics NAME[:OPTION=VALUE...],... [--wordnet DIR] [--parses DIR]] [--qarla]
         [--format markdown|latex] [--plot FILE.png|FILE.svg]
         @paraphrases @paraeval_variants
         @paraphrase_feature @paraphrase_threshold
         @others
         <ROUGE-eval-config-file> [<systemID>]
{prog} [options] --hyp [NAME=]FILE [--hyp ...] --ref FILE [--ref FILE ...] [--sep SEP (--sentence-separator)]
{prog} [options] --jsonl FILE [--sep SEP]
         @jsonl_fields @skip_empty
{prog} --make-home DIR
Examples:
  {prog} -e data -a -n 2 -x -m -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0 config.xml
  {prog} -n 2 -z SPL filelist.txt SYS1
  {prog} -n 2 -m --format csv --hyp system.txt --ref reference1.txt --ref reference2.txt
  {prog} -n 2 -m --jsonl test-set.jsonl
  {prog} -a -n 2 -m --compare permutation --baseline 1 --format markdown config.xml
  {prog} -a -n 2 -m --judgments judgments.csv --plot systems.png config.xml
"""

#: What a command line without a configuration gets on stderr, before its error line.
_SYNOPSIS = """\
usage: {prog} [options] <ROUGE-eval-config-file> [<systemID>]
       {prog} [options] --hyp FILE --ref FILE [--ref FILE ...]
       {prog} [options] --jsonl FILE
       {prog} -h (the options), -H (what each does)
"""

_DETAILS = """\
ROUGE-eval-config-file: the evaluation setup (a ROUGE-EVAL XML file, or with -z a
          file list: one "peer model1 model2 ..." line per evaluation).
systemID: the system (peer ID) to evaluate; not needed with -a. With -z it names
          the peers of the list (default X).
Defaults: ROUGE-L is computed; 95% confidence interval; no stemming; stopwords kept;
  data files from -e, else ROUGE_EVAL_HOME, else RED_EVAL_HOME, else the copy bundled
  with rouge155py; model average scoring (-f A); alpha = 0.5; sentence-level averages.
Options:
  @skip_distance
  @skip_unigrams
  @be_mode
  @all_systems
  @confidence
  @per_eval
  @data_dir
  @best_model
  @length_limit
  @stem
  @max_ngram
  @alpha
  @stopwords
  @counting
  @resamples
  @wlcs_weight
  @verbose
  @lcs
  @file_list_format
Additions of rouge155py:
  @jobs
  --format legacy|json|csv|html (--json): the output; JSON and CSV carry every
  instance's scores too; html is one page for a browser (tables, each item's
  texts with what matched). --signature: print the settings signature on stderr;
  --version: print the version.
  @hypothesis_paths
  @jsonl_path
  @jsonl_fields
  @skip_empty
  --make-home DIR: make a ROUGE home (ROUGE-1.5.5.pl running rouge155py, data/).
  --quiet: no progress line (drawn on stderr only when it is a terminal and
  the run lasts over 2 s).
  --check ARCHIVED: compare the report with an archived ROUGE-1.5.5 report
  (byte for byte; --tolerance X: each number within X); the verdict on stderr
  (--format json: on stdout, instead of the report); exit 8 when they differ,
  with the numbers that differ and the options the archive implies.
  @lang
  @stopwords_file
  @paraphrases
  @dialect
  @others
Analyses of a run (printed instead of the report; see docs/statistics.md):
  --compare paired-bootstrap|permutation: paired tests between the systems on
  each metric (all pairs, or each against --baseline SYSTEM), difference with
  its bootstrap interval, p-value and Holm's correction; --samples N (10000),
  --seed N (12345), --measure R|P|F (F).
  --judgments FILE: correlate every metric with the human judgments of a CSV
  or JSONL file (eval_id, system, judgment columns) at the system, summary and
  global levels: Pearson, Spearman, Kendall's tau-b with bootstrap intervals
  (--samples N, 1000) and p-values; needs scipy: pip install scipy ('.[stats]' in a
  checkout). --scores FILE: other metrics' scores (eval_id, system, a column per
  metric; a higher_is_better row for error rates) correlated and compared
  beside ROUGE's (with --judgments or --compare).
  --metrics meteor,nist,bleu,wer,per,hwcm,stm: metrics beside ROUGE on the run's
  texts (options as nist:n=4), their scores per system (corpus and mean of items),
  and correlated and compared beside ROUGE's with --judgments and --compare;
  --wordnet DIR: METEOR's synonyms from a WordNet database (/usr/share/wordnet);
  --parses DIR: HWCM's and STM's parses (NAME.conllu, NAME.tree per summary file).
  --qarla: QARLA's QUEEN of each system and model, KING of the metrics, JACK of
  the test set, with no judgments (the run's ROUGE variants and --metrics); with
  --plot FILE also FILE-king.png, KING of each metric and of all together.
  --power A,B: per metric, the test's power to separate systems A and B at a
  quarter to four times their items (resampled), the items needed for 80%, and
  its type-I error on their centered differences.
  --format markdown|latex: the systems x metrics table (and the tables above);
  --plot FILE.png|FILE.svg: the systems with their intervals (and with
  --judgments FILE-scatter.png), drawn after the output (alone: the report);
  needs matplotlib: pip install matplotlib ('.[plot]' in a checkout).
Exit codes: 0 success; 1 other error (e.g. the report cannot be written);
  2 bad command line or option value; 3 bad configuration; 4 missing or invalid
  summary file or paraphrase table, or --hyp/--ref or --jsonl files with nothing
  to score; 5 bad data directory or stopword list;
  6 computation undefined (e.g. ROUGE-W on an empty model, -r 0); 7 beyond a
  size limit (e.g. -r over 10000000, a summary over 64 MiB); 8 --check: the
  report differs from the archived one; 130 Ctrl-C;
  141 output pipe closed; 143 SIGTERM.
"""


def _laid_out(layout: str, text_of: Callable[[Setting], str]) -> str:
    """The layout with each ``@name`` line given its rows' texts, each line of them indented as
    the ``@`` is; ``@others``: every row with a text that the layout does not name."""
    texts = {row.name: text_of(row) for row in ROWS if text_of(row)}
    placed = set(re.findall(r"@(\w+)", layout))
    others = [text for name, text in texts.items() if name not in placed]

    def lines(match: re.Match[str]) -> str:
        indent, names = match.group(1), [name[1:] for name in match.group(2).split()]
        parts = others if names == ["others"] else [" ".join(texts[name] for name in names)]
        return "".join(f"{indent}{line}\n" for part in parts for line in part.split("\n"))

    return _PLACE.sub(lines, layout)


def usage(prog: str, full: bool) -> str:
    """The short usage, or with ``full`` the detailed one."""
    text = _laid_out(_SHORT.format(prog=prog), lambda row: row.synopsis)
    return text + "\n" + _laid_out(_DETAILS, lambda row: row.help) if full else text


def synopsis(prog: str) -> str:
    """The three lines shown when the command line names no configuration."""
    return _SYNOPSIS.format(prog=prog)
