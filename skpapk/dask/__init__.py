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
over 128 KiB anew, and the smooth surrogates, which evaluate their pairs in
chunks of temporary arrays, spend about twice the CPU time (measured: 0.22
against 0.10 CPU-s for a partition of 250,000 rows). Set
``MALLOC_MMAP_THRESHOLD_`` too before the workers start, e.g.
``dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_MMAP_THRESHOLD_":
33554432})`` (after ``import distributed``), or in the environment of
``dask worker``.

Gradient-boosted trees. LightGBM's Dask interface accepts a custom
objective: in lightgbm 4.7, ``lightgbm.dask.DaskLGBMRanker(objective=...)``
takes a callable (the parameter is typed ``Optional[Union[str,
_LGBM_ScikitCustomObjectiveFunction]]``), and every worker concatenates its
own partitions (data, label, ``group`` sizes) and calls
``LGBMRanker.fit`` on them with the network parameters of data-parallel
training (``_train_part`` in ``lightgbm/dask.py``). So the callable gets
the worker's rows and the sizes of their groups: with whole users per
partition, rows sorted by user inside each partition and ``group`` given
per partition, each user's gradient and Hessian are computed where its
rows are (checked with lightgbm 4.7: on a ``LocalCluster`` of 2
processes, a ``DaskLGBMRanker`` with a pairwise objective of
:mod:`skpapk.losses` trained, each process's objective receiving its own
partition's rows and group sizes at every boosting round). A distributed
boosted ranker must divide the gradient by the total weight of all the
users, computed before boosting, not by the worker's share, which
:class:`skpapk.losses.LightGBMObjective` does not offer yet. This module
offers the linear rankers only, for now: there is no
``skpapk.dask.PApKBoostRanker``.
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
