"""rouge-score's ``io`` module: ``compute_scores_and_write_to_csv``, the work of its ``rouge`` command.

Files matching the target and prediction patterns are paired in name order and
read as ``open()`` reads them (the locale's encoding, universal newlines), each
through rouge155py's one reader (never waiting on a FIFO, at most 256 MiB); the
records between delimiters are scored pair by pair, and the CSV rouge-score
writes is written: per-pair rows, or the aggregator's low, mid and high values.
"""

from __future__ import annotations

import glob
import locale
import logging as _logging
from itertools import zip_longest
from typing import Any, Iterator, Mapping, Optional

from ..errors import InputError
from ..inputs.files import MAX_CONFIG_BYTES, read_file
from . import _surface

__all__ = ["compute_scores_and_write_to_csv"]

__getattr__, __dir__ = _surface.add_names(globals(), {"logging": "absl.logging", "six": "six"}, ("zip",))

_LOG = _logging.getLogger(__name__)


def compute_scores_and_write_to_csv(
    target_filepattern: str,
    prediction_filepattern: str,
    output_filename: str,
    scorer: Any,
    aggregator: Optional[Any],
    delimiter: str = "\n",
) -> None:
    """Scores the records of the target files against those of the prediction files and writes
    the CSV: the aggregate of ``aggregator`` (e.g. ``scoring.BootstrapAggregator()``), or one
    row per pair where it is None. ValueError where the files or their records do not pair up."""
    targets, predictions = _glob(target_filepattern), _glob(prediction_filepattern)
    if not targets or len(targets) != len(predictions):
        raise ValueError(
            "Must have equal and positive number of target and prediction files. Found: "
            f"{len(targets)} target files ({target_filepattern}), {len(predictions)} prediction "
            f"files ({prediction_filepattern})."
        )
    scores = _compute_scores(targets, predictions, scorer, delimiter)
    if not aggregator:
        _write_scores_to_csv(output_filename, scores)
        return
    for score in scores:
        aggregator.add_scores(score)
    _write_aggregates_to_csv(output_filename, aggregator.aggregate())


def _glob(filepattern: str) -> list[str]:
    return glob.glob(filepattern)


def _open(filepattern: str, mode: str = "r") -> Any:
    return open(filepattern, mode)


def _read_text(filename: str) -> str:
    """A file's text as ``open(filename).read()`` gives it, read by the one reader."""
    data = read_file(
        filename, InputError, f"Cannot open {filename}", f"Cannot read {filename}", limit=MAX_CONFIG_BYTES
    )
    text = data.decode(locale.getpreferredencoding(False))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _record_gen(filename: str, delimiter: str) -> Iterator[str]:
    """The records of a file between delimiters; a last one without its delimiter is kept, with a warning."""
    records = _read_text(filename).split(
        delimiter.decode("utf-8") if isinstance(delimiter, bytes) else delimiter
    )
    if records[-1]:
        _LOG.warning("Expected delimiter at end of file")
    else:
        records.pop()
    yield from records


def _compute_scores(
    target_filenames: list[str], prediction_filenames: list[str], scorer: Any, delimiter: str
) -> list[Any]:
    """``scorer.score(target, prediction)`` of each pair of records, files paired in name order."""
    scores = []
    for target_file, prediction_file in zip(sorted(target_filenames), sorted(prediction_filenames)):
        pairs = zip_longest(_record_gen(target_file, delimiter), _record_gen(prediction_file, delimiter))
        for target, prediction in pairs:
            if target is None or prediction is None:
                raise ValueError(
                    "Must have equal number of lines across target and prediction files. "
                    f"Mismatch between files: {target_file}, {prediction_file}."
                )
            scores.append(scorer.score(target, prediction))
    return scores


def _write_aggregates_to_csv(output_filename: str, aggregates: Mapping[str, Any]) -> None:
    """Rows ``type-R``, ``type-P``, ``type-F`` of each type (sorted): low, mid, high."""
    with _open(output_filename, "w") as out:
        out.write("score_type,low,mid,high\n")
        for score_type, aggregate in sorted(aggregates.items()):
            for letter, field in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
                values = (getattr(getattr(aggregate, end), field) for end in ("low", "mid", "high"))
                out.write(f"{score_type}-{letter},{','.join(f'{v:f}' for v in values)}\n")


def _write_scores_to_csv(output_filename: str, scores: list[Any]) -> None:
    """One row per pair: its index, then P, R, F of each type (sorted); no file without pairs."""
    if not scores:
        _LOG.warning("No scores to write")
        return
    types = sorted(scores[0])
    with _open(output_filename, "w") as out:
        out.write("id" + "".join(f",{t}-P,{t}-R,{t}-F" for t in types) + "\n")
        for index, result in enumerate(scores):
            cells = (f"{result[t].precision:f},{result[t].recall:f},{result[t].fmeasure:f}" for t in types)
            out.write(f"{index},{','.join(cells)}\n")
