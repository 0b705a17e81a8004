"""Partitions kept on the workers, and the objective summed over them.

:class:`PersistedPartitions` holds the prepared partitions of a fit in the
workers' memory (``dask.persist``) and maps a function over them, sending
only its small arguments (``w``) each time. :class:`DaskLinearLoss` is the
objective of the linear rankers (:class:`skpapk._linear_loss.LinearLoss`,
which both solvers take) over those partitions, and
:class:`DistributedValidation` scores early stopping's held-out rows of
every partition.

Each adds the partitions' sums in partition order and divides by the total
weight of the defined groups, so the result equals the in-memory value up
to the rounding of the sums (about 1e-16 relative).
"""

import dask
import numpy as np

from .._linear_loss import LinearLoss, column_scale
from . import _worker


class PersistedPartitions:
    """Delayed partitions persisted on the cluster (or in this process).

    Works with any dask scheduler: a :class:`distributed.Client` (the data
    stay on its workers), or the local threaded scheduler.
    """

    def __init__(self, delayed_parts):
        self.parts = list(dask.persist(*delayed_parts)) if delayed_parts else []

    def __len__(self):
        return len(self.parts)

    def map(self, func, *args, **kwargs):
        """``[func(part, *args, **kwargs) for part in parts]``, on the workers.

        Array arguments are sent once per call (one key shared by every
        task), not once per partition.
        """
        args = [dask.delayed(a, pure=True) if isinstance(a, np.ndarray) else a
                for a in args]
        tasks = [dask.delayed(func, pure=False)(part, *args, **kwargs)
                 for part in self.parts]
        return list(dask.compute(*tasks, optimize_graph=False))

    def release(self):
        """Drop the references to the persisted data (the workers free it)."""
        self.parts = []


def _add(vectors):
    total = np.array(vectors[0], dtype=np.float64)
    for v in vectors[1:]:
        total += v
    return total


class DaskLinearLoss(LinearLoss):
    """:class:`~skpapk._linear_loss.LinearLoss` of partitions on the workers.

    Every evaluation sends ``w`` to the workers, each returns its
    partition's surrogate sum, group weight and ``X_p.T @ c_p``
    (:func:`~skpapk.dask._worker.loss_sums`), and the client adds them up:
    one round trip per evaluation.

    Parameters
    ----------
    parts : PersistedPartitions
        The prepared partitions (:func:`~skpapk.dask._worker.prepare_partition`).
    summaries : list of tuple
        :func:`~skpapk.dask._worker.summarize_prepared` of every partition.
    dtype : numpy dtype
        The dtype of the partitions' products ``X_p @ w``.
    x_max : float
        ``max |X|`` over all the partitions.
    surrogate, k, alpha, n_threads
        As in :class:`~skpapk._linear_loss.LinearLoss`.
    """

    def __init__(self, parts, summaries, *, dtype, x_max, surrogate, k, alpha,
                 n_threads=None):
        super().__init__(surrogate, k=k, alpha=alpha, n_threads=n_threads)
        self.parts = parts
        self.n_samples = sum(s[3] for s in summaries)
        self.column_scale = column_scale(np.max([s[2] for s in summaries], axis=0),
                                         alpha)
        self.n_features = self.column_scale.shape[0]
        self.dtype, self.x_max = dtype, x_max

    def _surrogate_at(self, w, *, gradient, check_finite, train_papk):
        results = self.parts.map(_worker.loss_sums, w, self.surrogate, self.k,
                                 check_finite=check_finite,
                                 train_papk=train_papk,
                                 n_threads=self.n_threads)
        if any(r is None for r in results):  # scores X @ w not all finite
            return None
        total = float(np.sum([r[0] for r in results]))
        weight = float(np.sum([r[2] for r in results]))
        n_used = int(sum(r[3] for r in results))
        value = total / weight if n_used else 0.0
        grad = None
        if gradient:
            grad = _add([r[1] for r in results])
            if n_used:
                grad /= weight
        papk = None
        if train_papk:
            gains = float(np.sum([r[4][0] for r in results]))
            count = sum(r[4][1] for r in results)
            papk = gains / count if count else float("nan")
        return value, grad, papk


class DistributedValidation:
    """Held-out rows of every partition, scored by micro-pAp@k.

    The validation set of ``skpapk._solver.subgradient_descent`` and
    :func:`skpapk._lbfgs.minimize_lbfgs`: ``score(w, k)`` is the mean over
    the defined validation groups of all partitions of their pAp@k gains
    (NaN when a score is not finite or no group is defined).
    """

    def __init__(self, parts):
        self.parts = parts

    def score(self, w, k):
        results = self.parts.map(_worker.validation_sums, w, k)
        if any(r is None for r in results):
            return float("nan")
        gains = float(np.sum([r[0] for r in results]))
        count = sum(r[1] for r in results)
        return gains / count if count else float("nan")
