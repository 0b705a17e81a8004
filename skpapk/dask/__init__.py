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

Worker memory allocator. ``dask.distributed`` starts its worker processes
with ``MALLOC_TRIM_THRESHOLD_=65536`` (configuration
``distributed.nanny.pre-spawn-environ``); glibc then maps every allocation
over 128 KiB anew, and the surrogates' per-partition sums take 10-35% more
time (measured in a plain process on a partition of 250,000 rows under
each environment: 0.010-0.012 against 0.009 s for the pairwise logistic
loss, 0.048-0.050 against 0.042-0.044 s for Algorithm 1; the cluster's
timings are in :doc:`/user_guide/benchmarks`). To avoid it, set
``MALLOC_MMAP_THRESHOLD_`` too before the workers start, e.g.
``dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_MMAP_THRESHOLD_":
33554432})`` (after ``import distributed``), or in the environment of
``dask worker``.

Gradient-boosted trees. :class:`skpapk.dask.PApKBoostRanker` trains with
LightGBM's Dask interface, which accepts a custom objective:
``lightgbm.dask.DaskLGBMRanker(objective=...)`` takes a callable, and every
worker concatenates its own partitions (data, label, ``group`` sizes) and
calls ``LGBMRanker.fit`` on them with the network parameters of
data-parallel training. With whole users per partition and rows sorted by
user inside each partition, each user's gradient and Hessian are computed
where its rows are. One pass over the partitions before boosting adds up
the weights of all the users, and every worker's
:class:`skpapk.losses.LightGBMObjective` divides by that total
(``weight_total``), so the workers' gradients are their rows' values of
the in-memory objective. The trees are not bit for bit the in-memory ones
(each feature's bins are found on one worker's rows); early stopping
scores every round on held-out rows afterwards, since ``DaskLGBMRanker``
cannot stop on a score summed over the workers (see the class).
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

from ._boost import PApKBoostRanker
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
    "PApKBoostRanker",
    "PApKMaxRanker",
    "PApKRampRanker",
    "PApKRanker",
    "PApKTSRanker",
    "PAUCRanker",
    "PrecAtKRanker",
    "partition_by_group",
]
