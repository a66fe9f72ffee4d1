"""Score items in batches anywhere, then summarize every batch's rows into the one exact report.

Two steps, for any engine that runs a function on partitions of data (Dask,
Spark, Ray, a job queue, a loop)::

    from rouge155py import Rouge, score_batch, summarize_batches, text_items

    options = Rouge(max_ngram=2, stem=True).options
    items = text_items(predictions, references)  # or eval_items(config)
    batches = [score_batch(items[i : i + 1000], options) for i in range(0, len(items), 1000)]
    report = summarize_batches(batches, options)  # any order: same bytes as one process

1. :func:`score_batch` reads and scores the evals of some items (texts in
   memory, or eval entries of a configuration) into a :class:`ScoredBatch`:
   the row of every instance (eval ID, peer ID, metric, and R, P, F as the
   Perl rounds them, or its counts under ``-t``) and, per eval, what the report
   needs besides: its peers, its number of models, a missing model file, the
   error its scoring met. No text: a batch is small, and pickles.
2. :func:`summarize_batches` merges batches in whatever order they come and
   does what one process does next: the missing-peer warnings and the first
   error in the Perl's order, its bootstrap over every instance, the report
   (without ``-v``'s lines, which print the texts that no batch keeps).

Each item knows its place in the whole run (a text item's index, an eval
entry's position in its configuration): the Perl's eval order, which decides
the order of the warnings, which error comes first, and which instances ``-m``
with ``-M`` stems. That quirk stems peers until the first model is read by a
metric other than ROUGE-N, which no batch can know: under ``-m -M`` a batch
also keeps the rows of that metric and of ROUGE-N with the peer stemmed, and
the summary takes them where the Perl's walk still stems.
"""

from .run.batches import *  # noqa: F403  (the face: the names of the run's two steps)
from .run.batches import __all__ as __all__
