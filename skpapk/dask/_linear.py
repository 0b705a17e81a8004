"""The linear rankers of skpapk, fitted on dask collections.

Each class subclasses its in-memory namesake and overrides ``fit`` (and
``decision_function`` and ``score``) for dask inputs; in-memory inputs go
to the in-memory code unchanged. A distributed ``fit``:

1. loads and checks every partition on its worker, and checks on the client
   that no group (user) has rows in two partitions;
2. prepares every partition (relevance mask, group codes, early-stopping
   split, pair layout) and persists it on the workers;
3. runs the in-memory fit path (``BaseLinearRanker._fit_linear``: solver
   choice, initial state, Algorithm 1 or L-BFGS with their stopping rule
   and warnings) on an objective that sends ``w`` to the workers and adds
   up their partitions' sums (:class:`._oracle.DaskLinearLoss`).

The objective and gradient are sums over users, and each user's terms are
computed where its rows are, so the fit is the in-memory fit (up to the
rounding of the sums over partitions).
"""

from functools import partial

import dask
import numpy as np
from sklearn.base import _fit_context

from .._base import check_defined_groups
from .._linear_loss import fitted_scores
from ..utils._validation import check_k
from . import _worker
from ._common import (
    DaskRankerMixin,
    any_dask,
    check_partitions,
    check_validation_counts,
    load_partitions,
    partition_seeds,
    reject_validation_rows,
)
from ._oracle import DaskLinearLoss, DistributedValidation, PersistedPartitions


class DaskLinearMixin(DaskRankerMixin):
    """``fit``, ``decision_function``, ``score`` of a linear ranker on dask input.

    Put before the in-memory class in the bases; ``_local_class`` is that
    class (the one :meth:`to_local` returns).
    """

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, groups=None, coef_init=None, *, X_val=None, y_val=None,
            groups_val=None):
        """Fit on the workers holding ``X``'s partitions, or in memory.

        Parameters
        ----------
        X : dask array or dask DataFrame of shape (n_samples, n_features)
            Features: a dask array with dense or SciPy CSR chunks (float32
            or float64; others are converted per partition), or a dask
            DataFrame of numeric columns. In-memory ``X`` (with in-memory
            ``y`` and ``groups``) is fitted in memory, as the in-memory
            class does.
        y : dask array, dask Series or array-like of shape (n_samples,)
            Binary relevance (``pos_label``, else the greater of two
            numbers, is relevant; other labels need ``pos_label``),
            partitioned like ``X``: a column of the same DataFrame, a dask
            array (rechunked along ``X.chunks[0]`` when both have known
            lengths), or an in-memory array cut along ``X.chunks[0]``.
        groups : dask array, dask Series or array-like of shape (n_samples,)
            User of every row, partitioned like ``X``, with every user's
            rows in one partition (else a ``ValueError``: see
            :func:`~skpapk.dask.partition_by_group`). ``None``: all rows
            form one group, which must then lie in one partition.
        coef_init : array-like of shape (n_features,), default=None
            The starting iterate, as for the in-memory ``fit``.
        X_val, y_val, groups_val : default=None
            Validation rows of early stopping, for in-memory input only (a
            ``ValueError`` with dask input), as for the in-memory ``fit``.

        Returns
        -------
        self : object
            Fitted ranker (an in-memory one: its attributes are NumPy).
        """
        if not any_dask(X, y, groups, X_val, y_val, groups_val):
            return self._local_class.fit(
                self, X, y, groups=groups, coef_init=coef_init, X_val=X_val,
                y_val=y_val, groups_val=groups_val)
        reject_validation_rows(self, X_val, y_val, groups_val)
        return self._fit_dask(X, y, groups, coef_init)

    def _fit_dask(self, X, y, groups, coef_init):
        check_k(self.k)
        return self._fit_linear(_DaskRows(self, X, y, groups), coef_init)

    def _block_scorer(self):
        return partial(fitted_scores, coef=self.coef_)

    def partial_fit(self, X, y, groups=None, classes=None):
        """One subgradient step on an in-memory chunk of whole groups.

        As :meth:`skpapk.PApKRanker.partial_fit`; dask input raises a
        ``TypeError`` (``fit`` is the full-batch fit on the workers).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Features of the chunk's rows, in memory.
        y : array-like of shape (n_samples,)
            Binary relevance labels of the chunk.
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row; ``None``: one group.
        classes : array-like of shape (2,), default=None
            The two labels; needed on the first call when its chunk does not
            hold both.

        Returns
        -------
        self : object
            The ranker, one step further.
        """
        if any_dask(X, y, groups):
            raise TypeError(
                "partial_fit takes one in-memory chunk of whole groups; for "
                "dask input call fit (the exact full-batch fit on the "
                "workers), or feed whole groups chunk by chunk: first "
                "X, y, groups = skpapk.dask.partition_by_group(X, y, "
                "groups=groups) (every group in one partition), then for x, "
                "yy, g in zip(*(a.to_delayed().ravel() for a in (X, y, "
                "groups))): ranker.partial_fit(x.compute(), yy.compute(), "
                "groups=g.compute()), skipping empty partitions."
            )
        return self._local_class.partial_fit(self, X, y, groups=groups,
                                             classes=classes)


class _DaskRows:
    """Training rows in the partitions of dask collections, loaded and
    checked on the workers (the rows of ``BaseLinearRanker._fit_linear``).

    Sets ``n_features_in_`` and ``classes_`` of the ranker.
    """

    def __init__(self, ranker, X, y, groups):
        X, self.loaded, self.summaries = load_partitions(ranker, X, y, groups)
        self.classes, self.n_groups = check_partitions(ranker, X, self.summaries,
                                                       groups)
        ranker.classes_ = self.classes
        self.n_features = self.summaries[0]["n_features"]
        self.parts = None

    def prepare(self, ranker, loss):
        """Prepare every partition on its worker (relevance mask, early
        stopping split, pair layout) and keep it there."""
        loaded, summaries, n_groups = self.loaded, self.summaries, self.n_groups
        fraction = ranker.validation_fraction if ranker.early_stopping else None
        seeds = partition_seeds(ranker.random_state, len(loaded),
                                ranker.early_stopping)
        prepared = [dask.delayed(_worker.prepare_partition)(
                        part, self.classes[-1], loss, validation_fraction=fraction,
                        seed=seed)
                    for part, seed in zip(loaded.parts, seeds)]
        self.parts = PersistedPartitions(prepared)
        loaded.release()
        counts = self.parts.map(_worker.summarize_prepared)
        n_defined = sum(c[0] for c in counts)
        ranker.n_groups_skipped_ = int(n_groups - n_defined)
        validation = None
        if ranker.early_stopping:
            check_validation_counts(ranker.validation_fraction, n_defined,
                                    sum(c[1] for c in counts))
            validation = DistributedValidation(self.parts)
        else:
            check_defined_groups(n_defined if self.classes.shape[0] == 2 else 0,
                                 n_groups, self.classes)
        objective = DaskLinearLoss(
            self.parts, counts,
            dtype=np.result_type(*[s["dtype"] for s in summaries]),
            x_max=max(s["x_max"] for s in summaries), surrogate=loss, k=ranker.k,
            alpha=ranker.alpha, n_threads=ranker._n_threads())
        n_rows = sum(s["n_rows"] for s in summaries)
        return (objective, validation,
                f"{n_rows} rows in {len(self.parts)} partitions, {n_groups} groups")

    def tied(self, coef):
        """Whether ``coef`` ties every user's rows: only ``coef = 0`` is
        known to here, without another pass over the partitions."""
        return not np.any(coef)

    def release(self):
        """Let the workers free the partitions."""
        self.loaded.release()
        if self.parts is not None:
            self.parts.release()
