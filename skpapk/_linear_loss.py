"""The objective of the linear rankers, as one object over coefficients.

Modelled on scikit-learn's ``LinearModelLoss``
(``sklearn/linear_model/_linear_loss.py``): an object that holds a
surrogate of :mod:`skpapk.losses`, ``k``, the regularisation ``alpha``
and the training rows (their group layout), and gives the value and the
gradient of

    F(w) = L(X @ w) + alpha * ||w||^2

at coefficients ``w``, with ``L`` the surrogate's (weighted) mean over the
defined groups (groups with a relevant and an irrelevant row). Both solvers
take this one interface: Algorithm 1
(:func:`skpapk._solver.subgradient_descent`, through :meth:`LinearLoss.evaluate`)
and L-BFGS (:func:`skpapk._lbfgs.minimize_lbfgs`, through
:meth:`LinearLoss.loss_gradient` and :attr:`LinearLoss.column_scale`).

:class:`LinearLoss` writes the objective once; its subclasses say only where
the data live and how ``L``, its gradient ``X.T @ dL/ds`` and the training
micro-pAp@k are computed there: :class:`InMemoryLinearLoss` on arrays of
this process, :class:`skpapk.dask._oracle.DaskLinearLoss` as sums of
per-partition pieces computed on the workers of a cluster.
"""

from collections import namedtuple
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from .losses import SmoothPairwiseSurrogate, make_pair_layout
from .metrics import papk_score
from .utils._groups import n_defined_groups

Evaluation = namedtuple(
    "Evaluation", ["objective", "value", "gradient", "train_papk"])
Evaluation.__doc__ = """The objective and its parts at one ``w``.

Attributes
----------
objective : float
    ``F(w) = value + alpha * ||w||^2``.
value : float
    The mean surrogate over the defined groups (0 when there is none).
gradient : ndarray of float64 of shape (n_features,) or None
    A (sub)gradient of ``F`` at ``w`` (``None`` when not asked for).
train_papk : float or None
    Micro-pAp@k of the training scores ``X @ w`` (only when asked for).
"""


def abs_max(X):
    """``max |X|`` without a copy of ``X`` (0 for an empty matrix)."""
    data = X.data if sp.issparse(X) else X
    if data.size == 0:
        return 0.0
    return float(max(data.max(), -data.min()))


def column_abs_max(X):
    """``max |X_j|`` of every column, without a copy of ``X`` (0 for no rows).

    A CSR matrix is read through its stored values and their column
    indices (scipy's ``X.max(axis=0)`` converts it to CSC, a copy of ``X``).
    """
    if X.shape[0] == 0:
        return np.zeros(X.shape[1])
    if sp.issparse(X):
        X = X.tocsr()  # the rankers' CSR: no copy
        if not X.has_canonical_format:  # duplicate entries mean their sum
            X = X.copy()
            X.sum_duplicates()
        # in X's dtype: ufunc.at would cast every value to float64 (4x slower)
        high = np.zeros(X.shape[1], dtype=X.data.dtype)
        low = np.zeros(X.shape[1], dtype=X.data.dtype)
        np.maximum.at(high, X.indices, X.data)
        np.minimum.at(low, X.indices, X.data)
        return np.maximum(np.abs(high.astype(np.float64)),
                          np.abs(low.astype(np.float64)))
    high, low = X.max(axis=0), X.min(axis=0)
    return np.maximum(np.abs(np.asarray(high, dtype=np.float64)),
                      np.abs(np.asarray(low, dtype=np.float64))).reshape(-1)


def column_scale(col_abs_max, alpha=0.0):
    """L-BFGS's column scaling from ``max |X_j|``: 1 for an all-zero column.

    L-BFGS runs on ``v = scale * w`` (:func:`skpapk._lbfgs.minimize_lbfgs`),
    whose features ``X_j / scale_j`` lie in ``[-1, 1]``: the same minimiser,
    but a problem whose conditioning does not depend on the units of the
    features. The ridge term's curvature in ``v`` is ``2 alpha / scale_j^2``,
    so the scale is at least ``1e-3 sqrt(2 alpha)`` (that curvature at most
    1e6): a column of tiny values (``max |X_j|`` of 1e-10) made it 1e16, and
    L-BFGS stopped at ``w_0`` with every other coefficient 0.
    """
    scale = np.asarray(col_abs_max, dtype=np.float64)
    return np.where((scale > 0) & np.isfinite(scale),
                    np.maximum(scale, 1e-3 * np.sqrt(2.0 * alpha)), 1.0)


def linear_scores(X, w):
    """``X @ w`` of a linear ranker in training (in ``X``'s float dtype)."""
    return np.asarray(X @ w.astype(X.dtype, copy=False)).reshape(-1)


#: Values of ``X`` that :func:`fitted_scores` holds as one block of rows at
#: a time (8 MB of float64).
SCORE_BLOCK_VALUES = 1 << 20
#: Above this many features, the rows of a C-order ``X`` are summed by
#: ``np.cumsum`` (one pass) rather than a column at a time (a Python call
#: per column and block): the same sums, faster for wide rows.
LOOP_FEATURES = 128


def fitted_scores(X, coef):
    """``X @ coef`` of a fitted linear ranker (its ``decision_function``,
    its early stopping's validation scores and a saved model's scores).

    Each row's score is one fixed sum, ``((0 + x_0 c_0) + x_1 c_1) + ...``
    in float64, whatever the layout of ``X`` (C or Fortran order, a
    DataFrame's, CSR or CSC: a stored zero adds nothing), its float dtype
    (float32 values are exact in float64) and the other rows scored with
    it. So equal rows get equal scores, which the tie rules of the metrics
    and of ``recommend`` read; BLAS's ``X @ coef`` rounds a row's sum in an
    order that depends on the layout and on the row's place in the array.
    A Fortran-order ``X`` is summed a column at a time; a C-order one a
    block of about ``SCORE_BLOCK_VALUES`` values at a time, copied to
    Fortran order and summed a column at a time, or, with more than
    ``LOOP_FEATURES`` features, summed along its rows by ``np.cumsum``.
    It costs 2 to 4 times BLAS's time with 10 to 100 features, about 10
    times with thousands."""
    coef = np.asarray(coef, dtype=np.float64)
    if sp.issparse(X):
        return _sparse_scores(X, coef)
    n_rows, n_features = X.shape
    scores = np.zeros(n_rows)
    by_column = X.flags.f_contiguous or n_features <= LOOP_FEATURES
    rows = max(1, n_rows if X.flags.f_contiguous
               else SCORE_BLOCK_VALUES // max(n_features, 1))
    term = np.empty(min(rows, n_rows)) if by_column else None
    for start in range(0, n_rows, rows):
        stop = min(start + rows, n_rows)
        total = scores[start:stop]
        if by_column:
            block = np.asfortranarray(X[start:stop])  # its columns contiguous
            product = term[:stop - start]
            for j in range(n_features):  # in float64, even for float32 rows
                np.multiply(block[:, j], coef[j], out=product, dtype=np.float64)
                np.add(total, product, out=total)
        else:
            block = np.multiply(X[start:stop], coef, dtype=np.float64)
            block[:, 0] += 0.0  # the sum starts at +0, as the column loop's
            np.cumsum(block, axis=1, out=block)  # left to right, row by row
            total[:] = block[:, -1]
        del block  # one block alive at a time, not the next beside it
    return scores


def _sparse_scores(X, coef):
    """:func:`fitted_scores` of a sparse ``X``, a block of rows of about
    ``SCORE_BLOCK_VALUES`` stored values at a time: every row's stored
    values in column order, added in rounds (round ``t`` adds the ``t``-th
    stored value of every row that has one), as many as the longest row."""
    X = X.tocsr()
    if not X.has_canonical_format:  # duplicates summed, columns sorted
        X = X.copy()
        X.sum_duplicates()
    n_rows = X.shape[0]
    cuts = np.searchsorted(X.indptr, np.arange(
        SCORE_BLOCK_VALUES, X.nnz, SCORE_BLOCK_VALUES))
    starts = np.unique(np.concatenate([[0], cuts, [n_rows]]))
    scores = np.zeros(n_rows)
    for start, stop in zip(starts[:-1], starts[1:]):
        low, high = X.indptr[start], X.indptr[stop]
        products = np.multiply(X.data[low:high], coef[X.indices[low:high]],
                               dtype=np.float64)
        lengths = np.diff(X.indptr[start:stop + 1])
        rows = np.argsort(-lengths, kind="stable")  # the longest first
        lengths, first = lengths[rows], X.indptr[start:stop][rows] - low
        # round t: the rows with more than t stored values, a prefix of rows
        active = np.searchsorted(-lengths, -np.arange(1, lengths[:1].sum() + 1),
                                 "right")
        totals = np.zeros(stop - start)
        for t, n_active in enumerate(active):
            totals[:n_active] += products[first[:n_active] + t]
        scores[start + rows] = totals
    return scores


def _train_papk(y_pos, scores, codes, k, *, average="micro"):
    """Micro-pAp@k of scores of rows ``y_pos`` (``average=None``: the gain of
    every group), the undefined groups left out without a warning."""
    # zero_division=NaN: left out silently (filtering the warning would
    # change the process's filters while other threads run)
    return papk_score(y_pos, scores, k=k, groups=codes, pos_label=True,
                      average=average, zero_division=np.nan)


def gain_sums(y_pos, scores, codes, n_groups, k):
    """Sum of the pAp@k gains of the defined groups, and their number."""
    n_defined = n_defined_groups(y_pos, codes, n_groups)
    if n_defined == 0:
        return 0.0, 0
    gains = _train_papk(y_pos, scores, codes, k, average=None)
    return float(np.sum(gains[~np.isnan(gains)])), n_defined


def surrogate_kwargs(surrogate, layout, n_threads):
    """Keyword arguments of ``surrogate.loss_gradient[_sums]`` on checked
    data: the pair layout and the threads of the compiled kernel for the
    smooth surrogates, no second check for the others."""
    if not isinstance(surrogate, SmoothPairwiseSurrogate):
        return {"check_input": False}
    return {"layout": layout, "n_threads": n_threads}


class LinearLoss:
    """``F(w) = L(X @ w) + alpha * ||w||^2`` over rows kept somewhere.

    Subclasses implement :meth:`_surrogate_at` (the mean surrogate, its
    gradient with respect to ``w`` and the training micro-pAp@k at ``w``)
    and set the attributes below.

    Parameters
    ----------
    surrogate : BaseSurrogate
        The surrogate ``L`` (:mod:`skpapk.losses`).
    k : int
        Number of items shown to each user.
    alpha : float
        Weight of ``||w||^2``.
    n_threads : int or None, default=None
        Threads of the compiled kernel of the smooth surrogates (the
        result does not depend on it); ``None``: the OpenMP threads this
        process may use (respecting ``threadpoolctl``).

    Attributes
    ----------
    n_features : int
    n_samples : int
        Number of training rows.
    dtype : numpy dtype
        The dtype of the products ``X @ w`` (``X``'s).
    x_max : float
        ``max |X|``: ``|X @ w| <= x_max * ||w||_1`` bounds the scores.
    column_scale : ndarray of float64 of shape (n_features,)
        ``max |X_j|`` of every column (1 for an all-zero one): the diagonal
        preconditioner of L-BFGS (:func:`column_scale`).
    """

    def __init__(self, surrogate, *, k, alpha, n_threads=None):
        self.surrogate = surrogate
        self.k = k
        self.alpha = alpha
        self.n_threads = n_threads

    @property
    def l1_limit(self):
        """``||w||_1`` past which ``X @ w`` could overflow in :attr:`dtype`."""
        largest = np.finfo(self.dtype).max
        return largest / self.x_max if self.x_max > 1.0 else largest

    def _surrogate_at(self, w, *, gradient, check_finite, train_papk):
        """``(value, grad, papk)`` of ``L`` at ``w``, or ``None`` when
        ``check_finite`` and the scores ``X @ w`` are not all finite.

        ``grad`` (float64, shape ``(n_features,)``) is ``None`` without
        ``gradient``, ``papk`` is ``None`` without ``train_papk``.
        """
        raise NotImplementedError  # pragma: no cover - abstract

    def evaluate(self, w, *, gradient=True, check_finite=True, train_papk=False):
        """The objective at ``w``, its value, gradient and training pAp@k.

        Parameters
        ----------
        w : ndarray of float64 of shape (n_features,)
        gradient : bool, default=True
            Also compute the (sub)gradient of ``F`` at ``w``.
        check_finite : bool, default=True
            Return ``None`` when the scores ``X @ w`` are not all finite.
        train_papk : bool, default=False
            Also compute the micro-pAp@k of the training scores.

        Returns
        -------
        evaluation : Evaluation or None
        """
        at = self._surrogate_at(w, gradient=gradient, check_finite=check_finite,
                                train_papk=train_papk)
        if at is None:
            return None
        value, grad, papk = at
        objective = value + self.alpha * float(w @ w)
        if grad is not None:
            grad = grad + 2.0 * self.alpha * w
        return Evaluation(objective=objective, value=value, gradient=grad,
                          train_papk=papk)

    def loss(self, w):
        """``F(w)``."""
        return self.evaluate(w, gradient=False, check_finite=False).objective

    def loss_gradient(self, w):
        """``F(w)`` and its (sub)gradient (the ``fun`` of L-BFGS)."""
        evaluation = self.evaluate(w, check_finite=False)
        return evaluation.objective, evaluation.gradient


class InMemoryLinearLoss(LinearLoss):
    """:class:`LinearLoss` of rows held in this process.

    Parameters
    ----------
    X : {ndarray, CSR matrix} of shape (n_samples, n_features)
        float32 or float64; only ``X @ w`` and ``X.T @ c`` are used (no copy).
    y_pos : ndarray of bool of shape (n_samples,)
    codes : ndarray of int of shape (n_samples,)
        Group codes in ``[0, n_groups)``.
    n_groups : int
    surrogate, k, alpha, n_threads
        As in :class:`LinearLoss`.

    The pair layout of the smooth surrogates is built once and reused by
    every evaluation.
    """

    def __init__(self, X, y_pos, codes, n_groups, surrogate, *, k, alpha,
                 n_threads=None):
        super().__init__(surrogate, k=k, alpha=alpha, n_threads=n_threads)
        self.X, self.y_pos, self.codes, self.n_groups = X, y_pos, codes, n_groups
        self.n_samples, self.n_features = X.shape
        self.dtype = X.dtype
        self._kwargs = surrogate_kwargs(
            surrogate, (make_pair_layout(y_pos, codes, n_groups)
                        if isinstance(surrogate, SmoothPairwiseSurrogate)
                        else None), n_threads)

    @cached_property
    def x_max(self):
        return abs_max(self.X)

    @property
    def column_scale(self):
        return column_scale(column_abs_max(self.X), self.alpha)

    def _surrogate_at(self, w, *, gradient, check_finite, train_papk):
        X = self.X
        scores = linear_scores(X, w)
        if check_finite and not np.all(np.isfinite(scores)):
            return None
        value, coef, _ = self.surrogate.loss_gradient(
            self.y_pos, scores, self.codes, self.n_groups, self.k, **self._kwargs)
        grad = (np.asarray(X.T @ coef.astype(X.dtype, copy=False),
                           dtype=np.float64).reshape(-1) if gradient else None)
        papk = None
        if train_papk:
            gains, count = gain_sums(self.y_pos, scores, self.codes,
                                     self.n_groups, self.k)
            papk = gains / count if count else float("nan")
        return value, grad, papk
