"""Scoring on a Dask cluster: the workers score partitions of items, the client summarizes their rows.

    from dask.distributed import Client
    import dask.bag as db
    from rouge155py import Rouge, text_items
    from rouge155py.dask import score_on_cluster

    client = Client("tcp://scheduler:8786")  # or LocalCluster(), or any cluster's client
    bag = db.from_sequence(text_items(predictions, references), npartitions=64)
    report = score_on_cluster(bag, Rouge(max_ngram=2, stem=True), client=client)

Each partition becomes one :class:`~rouge155py.run.batches.ScoredBatch` on a
worker (:func:`~rouge155py.run.batches.score_batch`); the client merges them as
they come back, in any order, keeping rows only, and summarizes them
(:func:`~rouge155py.run.batches.summarize_batches`): the report one process makes.
Dask is imported when a function here is called (``pip install 'dask[distributed]'``, or
``'.[dask]'`` in a checkout).
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional, Union

from .errors import UsageError, described, install_hint
from .report import Report
from .run.batches import ScoredBatch, peer_id_list, score_batch, summarize_batches
from .settings.options import HoldsOptions, Options, as_options

__all__ = ["score_on_cluster"]


def _dask() -> tuple[Any, Any]:
    """The ``dask`` and ``distributed`` modules, or a one-line error naming the extra to install."""
    try:
        import dask
        import dask.bag
        import distributed
    except ImportError:
        hint = install_hint("'dask[distributed]'", "dask")
        raise ImportError(f"rouge155py.dask needs Dask: {hint}") from None
    return dask, distributed


def _submit(client: Any, dask: Any, items: Any, options: Options) -> list[Any]:
    """One future per partition, each computing the partition's scored batch on a worker."""
    parts = items.to_delayed() if isinstance(items, dask.bag.Bag) else list(items)
    lazy = [part for part in parts if dask.is_dask_collection(part)]
    futures = client.compute([dask.delayed(score_batch)(part, options) for part in lazy]) if lazy else []
    for part in parts:
        if not dask.is_dask_collection(part):  # a Future, or a partition's items held here
            futures.append(client.submit(score_batch, part, options, pure=False))
    return futures


def _arrivals(distributed: Any, client: Any, futures: list[Any]) -> Iterator[ScoredBatch]:
    """The batches as the workers finish them; each is released on the cluster once fetched."""
    for future, batch in distributed.as_completed(futures, loop=client.loop, with_results=True):
        future.release()
        yield batch


def score_on_cluster(
    items: Any,
    options: Union[Options, HoldsOptions],
    client: Optional[Any] = None,
    peer_ids: Iterable[str] = (),
) -> Report:
    """The report of the items in a ``dask.bag.Bag``, or in a list of partitions, scored by a Dask cluster.

    A partition is a list of items (:class:`~rouge155py.run.batches.TextItem`,
    :class:`~rouge155py.run.batches.EvalItem`), a Dask ``Delayed`` or a
    ``Future`` holding one. ``options``: an :class:`Options` or a
    :class:`~rouge155py.Rouge`. ``client``: a ``dask.distributed.Client``
    (default: the current one). ``peer_ids``: as for
    :func:`~rouge155py.run.batches.summarize_batches`. Errors are those one
    process raises.
    """
    dask, distributed = _dask()
    options = as_options(options)
    peer_ids = peer_id_list(peer_ids)
    if client is not None and not isinstance(client, distributed.Client):
        raise UsageError(f"client must be a dask.distributed.Client or None, got {described(client)}")
    if not isinstance(items, (dask.bag.Bag, list, tuple)):
        raise UsageError(f"items must be a dask.bag.Bag or a list of partitions, got {described(items)}")
    if client is None:
        try:
            client = distributed.default_client()
        except ValueError:
            raise UsageError("no Dask client: start one (dask.distributed.Client) or pass client=") from None
    futures = _submit(client, dask, items, options)
    try:
        return summarize_batches(_arrivals(distributed, client, futures), options, peer_ids)
    except BaseException:
        client.cancel(futures)
        raise
