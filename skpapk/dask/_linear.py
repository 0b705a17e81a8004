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

import warnings

import dask
import numpy as np
from sklearn.base import _fit_context
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from .._lbfgs import minimize_lbfgs
from .._solver import subgradient_descent
from ..utils._routing import check_groups_routing
from ..utils._validation import check_k
from . import _worker
from ._oracle import (
    DistributedValidation,
    PersistedPartitions,
    lbfgs_objective,
    subgradient_oracle,
)
from ._partition import is_dask_collection, is_frame, split_partitions

_REPARTITION_FIX = (
    "shuffle the rows by user with skpapk.dask.partition_by_group(X, y, "
    "groups=groups) for dask arrays, or partition_by_group(df, "
    "groups='<user column>') for a dask DataFrame"
)


def _any_dask(*args):
    return any(is_dask_collection(a) for a in args)


def check_whole_groups(group_labels, has_groups, n_rows):
    """Raise when a group has rows in several partitions; return the groups.

    Parameters
    ----------
    group_labels : list of ndarray
        The distinct group labels of every partition.
    has_groups : bool
        False when ``groups=None`` (all rows form one group).
    n_rows : list of int
        Rows of every partition.

    Returns
    -------
    n_groups : int
        Number of distinct groups.
    """
    if not has_groups:
        used = [i for i, n in enumerate(n_rows) if n]
        if len(used) > 1:
            raise ValueError(
                f"groups=None makes all the rows one group, but they lie in "
                f"{len(used)} partitions (e.g. {used[0]} and {used[1]}); pass "
                f"groups (the user of every row) partitioned like X, with "
                f"every user's rows in one partition."
            )
        return 1
    labels = [g for g in group_labels if g.shape[0]]
    if not labels:
        return 0
    try:
        every = np.concatenate(labels)
        distinct, counts = np.unique(every, return_counts=True)
    except TypeError as exc:
        raise TypeError(
            f"groups labels of different partitions cannot be compared "
            f"({exc}); use labels of one type such as int or str."
        ) from exc
    if distinct.shape[0] < every.shape[0]:
        spanning = distinct[counts > 1]
        example = spanning[0]
        where = [i for i, g in enumerate(group_labels)
                 if g.shape[0] and np.isin(example, g)]
        raise ValueError(
            f"{spanning.shape[0]} user(s) of groups have rows in more than one "
            f"partition of X (e.g. user {example.tolist()!r} in partitions "
            f"{where[:5]}). A user's surrogate is not a sum over its rows, so "
            f"a distributed fit needs each user's rows in one partition: "
            f"{_REPARTITION_FIX}."
        )
    return distinct.shape[0]


class DaskLinearMixin:
    """``fit``, ``decision_function``, ``score`` of a linear ranker on dask input.

    Put before the in-memory class in the bases; ``_local_class`` is that
    class (the one :meth:`to_local` returns).
    """

    _local_class = None

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
        if not _any_dask(X, y, groups):
            return self._local_class.fit(self, X, y, groups=groups,
                                         coef_init=coef_init)
        return self._fit_dask(X, y, groups, coef_init)

    def _load(self, X, y, groups):
        """Load and check every partition; the summaries, persisted parts."""
        X, triples = split_partitions(X, y, groups)
        loaded = [dask.delayed(_worker.load_partition)(x, yy, g, i)
                  for i, (x, yy, g) in enumerate(triples)]
        loaded = PersistedPartitions(loaded)
        summaries = loaded.map(_worker.summarize_partition)
        return X, loaded, summaries

    def _fit_dask(self, X, y, groups, coef_init):
        check_k(self.k)
        X, loaded, summaries = self._load(X, y, groups)
        meta = X._meta if is_frame(X) else X
        validate_data(self, meta, reset=True, skip_check_array=True)
        n_rows = [s["n_rows"] for s in summaries]
        n_features = summaries[0]["n_features"] if summaries else 0
        if sum(n_rows) == 0:
            raise ValueError("X has no rows: every partition is empty.")
        # classes_: the sorted labels of all partitions
        seen = [s["classes"] for s in summaries if s["classes"] is not None]
        classes = np.unique(np.concatenate(seen))
        if classes.shape[0] > 2:
            raise ValueError(
                f"Only binary classification is supported. y has "
                f"{classes.shape[0]} distinct values {classes[:5].tolist()} "
                f"across its partitions; threshold it to relevant / not "
                f"relevant first."
            )
        n_groups = check_whole_groups([s["group_labels"] for s in summaries],
                                      groups is not None, n_rows)
        check_groups_routing(self, groups, method="fit", n_groups=n_groups)
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
            self._check_validation_counts(n_defined, sum(c[1] for c in counts))
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

    def _check_validation_counts(self, n_train, n_val):
        """The errors of the in-memory early-stopping split, over all partitions
        (as ``skpapk.model_selection._split._early_stopping_rows``)."""
        for part, n_defined, fix in (("validation", n_val, "raise"),
                                     ("training", n_train, "lower")):
            if not n_defined:
                raise ValueError(
                    f"early_stopping=True with validation_fraction="
                    f"{self.validation_fraction} leaves no group with both a "
                    f"relevant and an irrelevant {part} row in any partition "
                    f"(a group needs about 1 / validation_fraction rows of "
                    f"each label to give one of each to validation); {fix} "
                    f"validation_fraction or set early_stopping=False."
                )

    def _check_dask_features(self, X):
        """Check a dask ``X`` against the fitted features; return X's row blocks."""
        check_is_fitted(self)
        X, _ = split_partitions(X, None, None)
        meta = X._meta if is_frame(X) else X
        validate_data(self, meta, reset=False, skip_check_array=True)
        return X

    def decision_function(self, X):
        """Score every row; higher means recommended first.

        Parameters
        ----------
        X : {array-like, sparse matrix, dask array, dask DataFrame} of shape \
                (n_samples, n_features)

        Returns
        -------
        scores : ndarray or dask array of shape (n_samples,)
            ``X @ coef_`` (in ``X``'s float dtype): a dask array, computed
            block by block on the workers, when ``X`` is a dask collection.
        """
        if not is_dask_collection(X):
            return self._local_class.decision_function(self, X)
        X = self._check_dask_features(X)
        if is_frame(X):
            X = X.to_dask_array()
        dtype = X.dtype if X.dtype in (np.float32, np.float64) else np.float64
        return X.map_blocks(_worker.decision_block, self.coef_, drop_axis=1,
                            dtype=dtype, meta=np.empty((0,), dtype=dtype))

    def score(self, X, y, groups=None, sample_weight=None):
        """Micro-pAp@k at ``self.k`` (paper eq. 17) of the scores on ``X``.

        As :meth:`skpapk.PApKRanker.score`; with dask input, every
        partition adds up its users' pAp@k gains on its worker (each user's
        rows must lie in one partition, as for ``fit``).
        """
        if not _any_dask(X, y, groups):
            return self._local_class.score(self, X, y, groups=groups,
                                           sample_weight=sample_weight)
        if sample_weight is not None:
            raise ValueError(
                f"{type(self).__name__}.score does not support sample_weight: "
                f"micro-pAp@k is the unweighted mean over groups (users)."
            )
        check_groups_routing(self, groups, method="score")
        X = self._check_dask_features(X)
        X, triples = split_partitions(X, y, groups)
        tasks = [dask.delayed(_worker.score_sums)(
                     x, yy, g, i, self.coef_, self.k, self.classes_,
                     type(self).__name__)
                 for i, (x, yy, g) in enumerate(triples)]
        results = dask.compute(*tasks)
        labels = [r[2] for r in results]
        check_whole_groups(labels, groups is not None,
                           [g.shape[0] for g in labels])
        gains = float(np.sum([r[0] for r in results]))
        count = sum(r[1] for r in results)
        n_groups = sum(g.shape[0] for g in labels)
        if count < n_groups:
            warnings.warn(
                f"pAp@k is undefined for {n_groups - count} of {n_groups} groups "
                f"(no relevant or no irrelevant item); they are left out of "
                f"the average.", UndefinedMetricWarning, stacklevel=2)
        return gains / count if count else float("nan")

    def recommend(self, X, groups=None, *, k=None):
        """Each group's ``k`` highest scored rows (in-memory ``X`` only).

        See :meth:`skpapk.PApKRanker.recommend`; dask input raises a
        ``TypeError``.
        """
        if is_dask_collection(X) or is_dask_collection(groups):
            raise TypeError(
                "recommend takes in-memory X and groups; for dask input, score "
                "the rows with decision_function (a dask array) and take each "
                "user's top k per partition, or call recommend on each "
                "partition's computed rows."
            )
        return self._local_class.recommend(self, X, groups, k=k)

    def partial_fit(self, X, y, groups=None, classes=None):
        """One subgradient step on an in-memory chunk of whole groups.

        See :meth:`skpapk.PApKRanker.partial_fit`; dask input raises a
        ``TypeError`` (``fit`` is the full-batch fit on the workers).
        """
        if _any_dask(X, y, groups):
            raise TypeError(
                "partial_fit takes one in-memory chunk of whole groups; for "
                "dask input call fit (the exact full-batch fit on the "
                "workers), or feed the partitions one by one, e.g. "
                "for x, yy, g in zip(X.to_delayed().ravel(), ...): "
                "ranker.partial_fit(x.compute(), yy.compute(), g.compute())."
            )
        return self._local_class.partial_fit(self, X, y, groups=groups,
                                             classes=classes)

    def to_local(self):
        """The same fitted ranker as an instance of the in-memory class.

        Returns
        -------
        ranker : BaseLinearRanker
            An instance of the in-memory class (e.g.
            :class:`skpapk.PApKRanker`) with the same parameters and fitted
            attributes; it pickles without dask installed.
        """
        local = self._local_class(**self.get_params())
        local.__dict__.update({key: value for key, value in self.__dict__.items()
                               if key not in local.__dict__})
        return local

