"""Rankers fitted on dask collections: one fit across the workers of a cluster.

The epoch of Algorithm 1 and the gradient of the smooth surrogates are sums
over users. With every user's rows in one partition, each worker computes
its partition's share and the client adds them up: the full-batch fit is
distributed exactly. The classes here take the parameters of their
in-memory namesakes (switch by changing the import), fit on dask arrays or
DataFrames, and are in-memory rankers once fitted.

Install the extra: ``pip install "skpapk[dask]"``. Without a
:class:`distributed.Client`, dask's local scheduler runs the partitions in
threads of this process.

The boosted ranker (:class:`skpapk.PApKBoostRanker`) has no distributed
version here; see ``PApKBoostRanker`` below for why.
"""

try:
    import dask  # noqa: F401
    import dask.array  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is optional
    raise ImportError(
        "skpapk.dask needs dask, which is not installed: install the extra "
        "`dask` with pip install 'skpapk[dask]' (or pip install "
        "'dask[distributed]')."
    ) from exc

from ._partition import partition_by_group
from ._ranker import (
    PApKAvgRanker,
    PApKMaxRanker,
    PApKRampRanker,
    PApKRanker,
    PApKTSRanker,
    PAUCRanker,
    PrecAtKRanker,
)

__all__ = [
    "PApKAvgRanker",
    "PApKMaxRanker",
    "PApKRampRanker",
    "PApKRanker",
    "PApKTSRanker",
    "PAUCRanker",
    "PrecAtKRanker",
    "partition_by_group",
]
