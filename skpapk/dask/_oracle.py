"""Partitions kept on the workers, and the solvers' oracles summed over them.

:class:`PersistedPartitions` holds the prepared partitions of a fit in the
workers' memory (``dask.persist``) and maps a function over them, sending
only its small arguments (``w``) each time. The oracles below give the
in-memory solvers what they ask of the data, as sums over partitions:

- :func:`subgradient_oracle` for Algorithm 1
  (:func:`skpapk._solver.subgradient_descent`);
- :func:`lbfgs_objective` for L-BFGS (:func:`skpapk._lbfgs.minimize_lbfgs`);
- :class:`DistributedValidation` for early stopping (micro-pAp@k of the
  held-out rows of every partition).

Each adds the partitions' sums in partition order and divides by the total
weight of the defined groups, so the result equals the in-memory value up
to the rounding of the sums (about 1e-16 relative).
"""

import dask
import numpy as np

from .._solver import Epoch
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


def _sum_losses(results):
    """Totals over partitions of :func:`~skpapk.dask._worker.loss_sums`."""
    total = float(np.sum([r[0] for r in results]))
    grad = _add([r[1] for r in results])
    weight = float(np.sum([r[2] for r in results]))
    n_used = int(sum(r[3] for r in results))
    return total, grad, weight, n_used


def subgradient_oracle(parts, *, loss, k, dtype, x_max, verbose=0):
    """Algorithm 1's epoch oracle (:func:`skpapk._solver.linear_epoch`) over
    persisted partitions: one round trip per epoch."""

    def oracle(w):
        results = parts.map(_worker.loss_sums, w, loss, k, check_finite=True,
                            train_papk=bool(verbose))
        if any(r is None for r in results):  # scores X @ w not all finite
            return None
        total, grad, weight, n_used = _sum_losses(results)
        value = total / weight if n_used else 0.0
        if n_used:
            grad /= weight
        papk = None
        if verbose:
            gains = float(np.sum([r[4][0] for r in results]))
            count = sum(r[4][1] for r in results)
            papk = gains / count if count else float("nan")
        return Epoch(value=value, n_groups_used=n_used, train_papk=papk,
                     gradient=lambda: grad)

    oracle.dtype = dtype
    oracle.x_max = x_max
    return oracle


def lbfgs_objective(parts, *, loss, k, alpha, n_groups_used, column_scale):
    """``F(w) = loss(X @ w) + alpha ||w||^2`` and its gradient
    (:func:`skpapk._lbfgs.linear_objective`) over persisted partitions."""

    def fun(w):
        results = parts.map(_worker.loss_sums, w, loss, k, check_finite=False)
        total, grad, weight, n_used = _sum_losses(results)
        value = total / weight if n_used else 0.0
        if n_used:
            grad /= weight
        return value + alpha * float(w @ w), grad + 2.0 * alpha * w

    fun.n_groups_used = n_groups_used
    fun.column_scale = column_scale
    return fun


class DistributedValidation:
    """Held-out rows of every partition, scored by micro-pAp@k.

    The validation object of :func:`skpapk._solver.subgradient_descent` and
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
