"""The usage texts of ``-h`` and ``-H`` (the Perl's options, and this port's additions)."""

from __future__ import annotations

__all__ = ["synopsis", "usage"]

_SHORT = """\
{prog}
         [-a (evaluate all systems)]
         [-c cf]
         [-d (print per evaluation scores)]
         [-e ROUGE_EVAL_HOME]
         [-h (usage)]
         [-H | --help (detailed usage)]
         [-b n-bytes|-l n-words]
         [-m (use Porter stemmer)]
         [-M (stem the models only)]
         [-n max-ngram]
         [-s (remove stopwords)]
         [-r number-of-samples (for resampling)]
         [-2 max-gap-length (if < 0 then no gap length limit)]
         [-3 <H|HM|HMR|HM1|HMR1|HMR2> (for scoring based on BE)]
         [-u (include unigram in skip-bigram) default no)]
         [-U (same as -u but also compute regular skip-bigram)]
         [-w weight (weighting factor for WLCS)]
         [-v (verbose)]
         [-x (do not calculate ROUGE-L)]
         [-f A|B (scoring formula)]
         [-p alpha (0 <= alpha <=1)]
         [-t 0|1|2 (count by token instead of sentence)]
         [-z <SEE|SPL|ISI|SIMPLE>]
         [-j N | --jobs N (processes)]
         [--json | --format legacy|json|csv] [--signature] [--quiet] [--version]
         [--lang LANG (any language)] [--stopwords FILE (for -s)] [--dialect rouge-score]
         [--compare paired-bootstrap|permutation [--baseline SYSTEM]]
         [--judgments FILE] [--measure R|P|F] [--samples N] [--seed N]
         [--format markdown|latex] [--plot FILE.png|FILE.svg]
         [--paraphrases FILE (ParaEval)] [--paraeval-variants 3,2,P,T]
         [--paraphrase-feature NAME] [--paraphrase-threshold X]
         <ROUGE-eval-config-file> [<systemID>]
{prog} [options] --hyp [NAME=]FILE [--hyp ...] --ref FILE [--ref FILE ...] [--sep SEP (--sentence-separator)]
{prog} [options] --jsonl FILE [--sep SEP]
         [--skip-empty (with --hyp or --jsonl: leave out items with an empty summary)]
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
  -2 d: skip-bigrams (ROUGE-S) with at most d words between the two (d < 0: no limit).
  -u: add unigrams to the skip-bigrams (ROUGE-SU); -U: compute both S and SU.
  -3 mode: Basic Element scoring on SIMPLE BE files (H, HM, HMR, HM1, HMR1, HMR2).
  -a: evaluate every system of the configuration.
  -c cf: cf% confidence interval (0 <= cf <= 100), default 95.
  -d: print each evaluation's scores.
  -e dir: data directory (smart_common_words.txt and WordNet exception lists).
  -f A|B: average over models (A) or take the best model (B).
  -b n / -l n: only use the first n bytes / words of every summary.
  -m: stem with the Porter stemmer and WordNet exceptions; -M: stem models only.
  -n n: ROUGE-N for n = 1 .. n.
  -p alpha: F-measure weight (alpha -> 1 favours precision).
  -s: remove stopwords.
  -t 0|1|2: average over sentences (0), over tokens (1), or print raw counts (2).
  -r n: number of bootstrap resamples, default 1000.
  -w weight: ROUGE-W with weight (typically 1.2).
  -v: the Perl's debug lines on stdout (texts, tokens, counts), a summary on stderr.
  -x: do not compute ROUGE-L.
  -z format: the configuration is a file list in this format (SEE, SPL, ISI, SIMPLE).
Additions of rouge155py:
  -j N, --jobs N: N processes, this one and N - 1 workers (same output as one;
      one for a run of fewer than 2,000 (peer, model) pairs, which workers slow).
  --format legacy|json|csv (--json): the output; JSON and CSV carry every
  instance's scores too. --signature: print the settings signature on stderr;
  --version: print the version.
  --hyp FILE --ref FILE [--ref FILE ...]: line-aligned files instead of a
  configuration, one summary per line (--hyp - reads standard input);
  --sep SEP (--sentence-separator) splits a line into sentences. Several
  --hyp are several systems, each named NAME in --hyp NAME=FILE, else by its
  file name without extension (one --hyp FILE alone is system 1).
  --jsonl FILE: one JSON object a line, each an evaluation: {"prediction": ...,
  "references": [...]} ("predictions": {system: ...} for several systems,
  "reference" for one, "id" for its ID); a summary is a string or a list of
  sentences; --sep splits strings into sentences; --jsonl - reads standard input.
  --skip-empty: with --hyp/--ref or --jsonl, leave out each item where a summary
  is empty (else scored 0); either way they are named on stderr.
  --make-home DIR: make a ROUGE home (ROUGE-1.5.5.pl running rouge155py, data/).
  --quiet: no progress line (drawn on stderr only when it is a terminal and
  the run lasts over 2 s).
  --lang LANG: text in any language (an ISO 639 code: de, ru, ar, zh ..., or a
  tag such as de-DE, pt_BR, zh-Hans):
  words of every script after NFKC and case folding, each character a word in
  Chinese, Japanese, Thai and other scripts without spaces; -m stems with the
  language's Snowball stemmer (needs nltk: pip install nltk).
  Not with -3. --lang en is the Perl's own text rules.
  --stopwords FILE: the words -s removes (one a line), instead of the SMART
  list; -s with --lang other than en needs it.
  --paraphrases FILE: add ParaEval-3 rows (ROUGE-1 that also matches the
  table's paraphrases: multi-word ones exactly, one-word ones greedily, then
  words). FILE: PPDB lines (LHS ||| phrase ||| paraphrase ||| features ...) or
  TSV (phrase, paraphrase[, score]), .gz too; tokenized as the summaries are
  (-m, -s apply). --paraeval-variants: 3 (default), 2 (tiers 1 and 3), P
  (paraphrases only), T (one row per tier), comma-separated.
  --paraphrase-threshold X keeps pairs scoring at least X: the PPDB feature
  --paraphrase-feature NAME (default PPDB2.0Score), or the TSV's third column.
  Not with -t 1, -t 2, -v or -3.
  --dialect rouge-score: rouge-score 0.1.2's numbers (its tokens, nltk's Porter
  stemmer under -m, F = 2PR/(P+R) unrounded, the reference with the highest F);
  ROUGE-L is its rougeLsum (a summary's lines are its sentences). Only -n, -x,
  -m and the bootstrap and output options go with it.
Analyses of a run (printed instead of the report; see the README):
  --compare paired-bootstrap|permutation: paired tests between the systems on
  each metric (all pairs, or each against --baseline SYSTEM), difference with
  its bootstrap interval, p-value and Holm's correction; --samples N (10000),
  --seed N (12345), --measure R|P|F (F).
  --judgments FILE: correlate every metric with the human judgments of a CSV
  or JSONL file (eval_id, system, judgment columns) at the system, summary and
  global levels: Pearson, Spearman, Kendall's tau-b with bootstrap intervals
  (--samples N, 1000); needs scipy: pip install 'rouge155py[stats]'.
  --format markdown|latex: the systems x metrics table (and the tables above);
  --plot FILE.png|FILE.svg: the systems with their intervals (and with
  --judgments FILE-scatter.png), drawn after the output (alone: the report);
  needs matplotlib: pip install 'rouge155py[plot]'.
Exit codes: 0 success; 1 other error (e.g. the report cannot be written);
  2 bad command line or option value; 3 bad configuration; 4 missing or invalid
  summary file or paraphrase table; 5 bad data directory or stopword list;
  6 computation undefined (e.g. ROUGE-W on an empty model, -r 0); 7 beyond a
  size limit (e.g. -r over 10000000, a summary over 64 MiB); 130 Ctrl-C;
  141 output pipe closed; 143 SIGTERM.
"""


def usage(prog: str, full: bool) -> str:
    """The short usage, or with ``full`` the detailed one."""
    text = _SHORT.format(prog=prog)
    return text + "\n" + _DETAILS if full else text


def synopsis(prog: str) -> str:
    """The three lines shown when the command line names no configuration."""
    return _SYNOPSIS.format(prog=prog)
