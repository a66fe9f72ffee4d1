"""ROUGE-1.5.5's numbers as an HF ``evaluate`` metric: ``evaluate.load(rouge155py.evaluate_module_path())``.

It takes HF rouge's arguments and returns its keys; ``rouge155py.hf`` computes
them (its docstring says what each key holds in each dialect).
"""

import datasets
import evaluate

import rouge155py.hf

_DESCRIPTION = """ROUGE scores computed as ROUGE-1.5.5.pl computes them (rouge155py), or as rouge-score
does with dialect="rouge-score": rouge1 ... rouge9, rougeL, rougeLsum (and the Perl's rougeW-1.2,
rougeS4, rougeSU4 ...)."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of texts, one per item (lines are sentences for rougeLsum).
    references: per item a text, or a list of texts (several references: the one of highest F
        by default, multi_ref="average" or "best" for the Perl's -f A and -f B).
    rouge_types: names; default rouge1, rouge2, rougeL, rougeLsum.
    use_aggregator: one number per type (default) or a list of each item's F.
    use_stemmer: the Perl's Porter stemmer (-m), or rouge-score's with dialect="rouge-score".
    tokenizer: a callable or an object with .tokenize(text); with dialect="rouge-score" only.
    dialect: None (ROUGE-1.5.5's numbers) or "rouge-score".
    multi_ref: "best-f" (default), "average" or "best".
    other keyword arguments: rouge155py.Rouge's options (resamples, alpha, stopwords, ...).
Returns:
    a dict: rouge type -> the aggregate F (a float) or each item's F (a list).
Examples:
    >>> rouge = evaluate.load(rouge155py.evaluate_module_path())
    >>> rouge.compute(predictions=["the cat sat"], references=["a cat sat"], rouge_types=["rouge1"])
    {'rouge1': 0.66667}
"""

_CITATION = """@inproceedings{lin-2004-rouge,
    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",
    author = "Lin, Chin-Yew",
    booktitle = "Text Summarization Branches Out",
    year = "2004",
    publisher = "Association for Computational Linguistics",
    pages = "74--81",
}"""

_TEXT = datasets.Value("string", id="sequence")


class Rouge155py(evaluate.Metric):
    """ROUGE-1.5.5's numbers under HF rouge's arguments and keys."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({"predictions": _TEXT, "references": datasets.Sequence(_TEXT)}),
                datasets.Features({"predictions": _TEXT, "references": _TEXT}),
            ],
            reference_urls=["https://aclanthology.org/W04-1013/"],
        )

    def _compute(self, predictions, references, **kwargs):
        return rouge155py.hf.compute(predictions, references, **kwargs)
