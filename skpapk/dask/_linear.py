"""The linear rankers of skpapk, fitted on dask collections.

Each class subclasses its in-memory namesake and overrides ``fit`` (and
``decision_function`` and ``score``) for dask inputs; in-memory inputs go
to the in-memory code unchanged. A distributed ``fit``:

1. loads and checks every partition on its worker, and checks on the client
   that no group (user) has rows in two partitions;
2. prepares every partition (relevance mask, group codes, early-stopping
   split, pair layout) and persists it on the workers;
3. runs the in-memory solver (Algorithm 1 or L-BFGS, with their state,
   stopping rule and warnings) on an oracle that sends ``w`` to the
   workers and adds up their partitions' sums (:mod:`._oracle`).

The objective and gradient are sums over users, and each user's terms are
computed where its rows are, so the fit is the in-memory fit (up to the
rounding of the sums over partitions).
"""

from functools import partial

import dask
import numpy as np
from sklearn.base import _fit_context
from sklearn.utils import check_random_state

from .._lbfgs import minimize_lbfgs
from .._solver import subgradient_descent
from ..utils._validation import check_k
from . import _worker
from ._common import (
    DaskRankerMixin,
    any_dask,
    check_partitions,
    check_validation_counts,
    load_partitions,
)
from ._oracle import (
    DistributedValidation,
    PersistedPartitions,
    lbfgs_objective,
    subgradient_oracle,
)


class DaskLinearMixin(DaskRankerMixin):
    """``fit``, ``decision_function``, ``score`` of a linear ranker on dask input.

    Put before the in-memory class in the bases; ``_local_class`` is that
    class (the one :meth:`to_local` returns).
    """

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, groups=None, coef_init=None):
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
            Binary relevance (any two labels; the greater is relevant),
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

        Returns
        -------
        self : object
            Fitted ranker (an in-memory one: its attributes are NumPy).
        """
        if not any_dask(X, y, groups):
            return self._local_class.fit(self, X, y, groups=groups,
                                         coef_init=coef_init)
        return self._fit_dask(X, y, groups, coef_init)

    def _fit_dask(self, X, y, groups, coef_init):
        check_k(self.k)
        X, loaded, summaries = load_partitions(X, y, groups)
        classes, n_groups = check_partitions(self, X, summaries, groups)
        n_rows = [s["n_rows"] for s in summaries]
        n_features = summaries[0]["n_features"]
        self.classes_ = classes
        loss = self._get_surrogate()
        solver = self._get_solver(loss)
        if solver == "lbfgs":
            self._check_lbfgs_options()
        state = self._initial_state(n_features, coef_init)

        fraction = self.validation_fraction if self.early_stopping else None
        seeds = [None] * len(loaded)
        if self.early_stopping:
            rng = check_random_state(self.random_state)
            seeds = rng.randint(np.iinfo(np.int32).max, size=len(loaded)).tolist()
        prepared = [dask.delayed(_worker.prepare_partition)(
                        part, classes[-1], loss, validation_fraction=fraction,
                        seed=seed)
                    for part, seed in zip(loaded.parts, seeds)]
        parts = PersistedPartitions(prepared)
        loaded.release()
        counts = parts.map(_worker.summarize_prepared)
        n_defined = sum(c[0] for c in counts)
        self.n_groups_skipped_ = int(n_groups - n_defined)
        validation = None
        if self.early_stopping:
            check_validation_counts(self.validation_fraction, n_defined,
                                    sum(c[1] for c in counts))
            validation = DistributedValidation(parts)
        elif classes.shape[0] < 2 or n_defined == 0:
            raise ValueError(
                f"No group has both a relevant and an irrelevant row: y has one "
                f"class in each of the {n_groups} group(s), so there is no pair "
                f"to rank. Each group (user) needs at least one relevant and one "
                f"irrelevant row (classes seen: {classes.tolist()})."
            )
        if self.verbose:
            print(f"Fitting {type(self).__name__} ({loss.name} surrogate, "
                  f"{solver} solver, k={self.k}) on {sum(n_rows)} rows in "
                  f"{len(parts)} partitions, {n_groups} groups; "
                  f"{self.n_groups_skipped_} groups skipped (no relevant or no "
                  f"irrelevant row).")
        dtype = np.result_type(*[s["dtype"] for s in summaries])
        x_max = max(s["x_max"] for s in summaries)
        t_before, n_before = state.t, len(state.objective_curve)
        try:
            if solver == "lbfgs":
                # the in-memory column_scale of the training rows: max |X_j|
                # (1 for an all-zero column), the preconditioner of L-BFGS
                scale = np.max([c[2] for c in counts], axis=0)
                scale = np.where((scale > 0) & np.isfinite(scale), scale, 1.0)
                fun = lbfgs_objective(parts, loss=loss, k=self.k, alpha=self.alpha,
                                      n_groups_used=n_defined, column_scale=scale)
                state = minimize_lbfgs(
                    fun, state, max_iter=self.max_iter, tol=self.tol,
                    validation=validation, k=self.k,
                    n_iter_no_change=self.n_iter_no_change,
                    scale=fun.column_scale, verbose=self.verbose,
                )
                state.n_groups_used = fun.n_groups_used
                n_iter = state.t - t_before
            else:
                oracle = subgradient_oracle(parts, loss=loss, k=self.k, dtype=dtype,
                                            x_max=x_max, verbose=self.verbose)
                state = subgradient_descent(
                    oracle, state, k=self.k, eta0=self.eta0, alpha=self.alpha,
                    max_iter=self.max_iter, tol=self.tol,
                    n_iter_no_change=self.n_iter_no_change, radius=self.radius,
                    average=self.average, validation=validation,
                    verbose=self.verbose,
                )
                n_iter = len(state.objective_curve) - n_before
        finally:
            parts.release()
        self._set_fitted(state, n_iter, validation)
        return self

    def _block_scorer(self):
        return partial(_worker.linear_scores, w=self.coef_)

    def _score_dtype(self, dtype):
        return dtype if dtype in (np.float32, np.float64) else np.dtype(np.float64)

    def partial_fit(self, X, y, groups=None, classes=None):
        """One subgradient step on an in-memory chunk of whole groups.

        See :meth:`skpapk.PApKRanker.partial_fit`; dask input raises a
        ``TypeError`` (``fit`` is the full-batch fit on the workers).
        """
        if any_dask(X, y, groups):
            raise TypeError(
                "partial_fit takes one in-memory chunk of whole groups; for "
                "dask input call fit (the exact full-batch fit on the "
                "workers), or feed the partitions one by one, e.g. "
                "for x, yy, g in zip(X.to_delayed().ravel(), ...): "
                "ranker.partial_fit(x.compute(), yy.compute(), g.compute())."
            )
        return self._local_class.partial_fit(self, X, y, groups=groups,
                                             classes=classes)
