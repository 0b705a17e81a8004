"""L-BFGS for the smooth surrogates of a linear scorer ``s = X @ w``.

The objective is ``F(w) = loss(X @ w) + alpha * ||w||^2`` with a smooth
surrogate of :mod:`skpapk.losses` (its mean over groups); its gradient is
``X.T @ g + 2 alpha w`` with ``g`` the loss gradient with respect to the
scores. :func:`linear_objective` builds ``F`` for in-memory data;
:func:`minimize_lbfgs` minimises any such ``F`` (a distributed one too) with
scipy's L-BFGS-B, recording what the rankers report (objective per
iteration, validation scores for early stopping) in a
:class:`~skpapk._solver.SolverState`.
"""

import warnings

import numpy as np
from scipy.optimize import minimize
from sklearn.exceptions import ConvergenceWarning

from ._solver import _validation_score
from .losses import make_pair_layout


def linear_objective(X, y_pos, codes, n_groups, *, loss, k, alpha,
                     sample_weight=None, n_threads=None):
    """``F(w) = loss(X @ w) + alpha ||w||^2`` and its gradient, as one callable.

    Parameters
    ----------
    X : {ndarray, CSR matrix} of shape (n_samples, n_features)
        float32 or float64; only ``X @ w`` and ``X.T @ g`` are used.
    y_pos : ndarray of bool of shape (n_samples,)
    codes : ndarray of int of shape (n_samples,)
        Group codes in ``[0, n_groups)``.
    n_groups : int
    loss : SmoothPairwiseSurrogate
    k : int
    alpha : float
    sample_weight : ndarray of shape (n_samples,) or None, default=None
    n_threads : int or None, default=None
        Threads of the pair kernel (``None`` or -1: every core).

    Returns
    -------
    fun : callable
        ``fun(w) -> (value, grad)`` with ``w`` and ``grad`` float64 vectors.
        The rows' pair layout is built once and reused by every call.
    """
    layout = make_pair_layout(y_pos, codes, n_groups, sample_weight)
    dtype = X.dtype

    def fun(w):
        scores = np.asarray(X @ w.astype(dtype, copy=False)).reshape(-1)
        value, coef, _ = loss.loss_gradient(y_pos, scores, codes, n_groups, k,
                                            layout=layout, n_threads=n_threads)
        grad = np.asarray(X.T @ coef.astype(dtype, copy=False),
                          dtype=np.float64).reshape(-1)
        return value + alpha * float(w @ w), grad + 2.0 * alpha * w

    fun.n_groups_used = layout.n_defined
    fun.column_scale = column_scale(X)
    return fun


def column_scale(X):
    """``max |X_j|`` of every column (1 for an all-zero one), without a copy.

    L-BFGS runs on ``v = scale * w`` (:func:`minimize_lbfgs`), whose features
    ``X_j / scale_j`` lie in ``[-1, 1]``: the same minimiser, but a problem
    whose conditioning does not depend on the units of the features.
    """
    high = np.asarray(X.max(axis=0).toarray() if hasattr(X, "toarray")
                      else X.max(axis=0), dtype=np.float64).reshape(-1)
    low = np.asarray(X.min(axis=0).toarray() if hasattr(X, "toarray")
                     else X.min(axis=0), dtype=np.float64).reshape(-1)
    scale = np.maximum(np.abs(high), np.abs(low))
    return np.where((scale > 0) & np.isfinite(scale), scale, 1.0)


class _EarlyStop(Exception):
    """Raised by the iteration callback to end L-BFGS."""


def minimize_lbfgs(fun, state, *, max_iter, tol, validation=None, k=None,
                   n_iter_no_change=10, scale=None, verbose=0):
    """Minimise ``fun`` by L-BFGS from ``state.w``, updating ``state``.

    Parameters
    ----------
    fun : callable
        ``fun(w) -> (value, grad)``.
    state : SolverState
        The start ``w_0 = state.w``; updated in place: ``w`` (the last
        iterate), ``t`` (iterations added), ``objective_curve`` (the
        objective at ``w_0`` and every iterate), and with ``validation``
        ``validation_scores``, ``best_validation_score`` and
        ``best_validation_w``; ``converged`` says whether ``tol`` (or early
        stopping) ended the run.
    max_iter : int
        Maximum number of L-BFGS iterations.
    tol : float or None
        Stop when the largest gradient entry falls under ``tol`` times its
        value at ``w_0`` (a relative criterion, so that it does not depend
        on the scale of the features; ``None``: ``1e-10``), or when the
        objective stops decreasing at machine precision.
    validation : ValidationSet or None, default=None
        Held-out rows scored by micro-pAp@k at ``k`` after every iteration;
        the run stops when the score has not reached its best plus ``tol``
        for ``n_iter_no_change`` iterations (early stopping; never with
        ``tol=None``), as Algorithm 1's early stopping does.
    k : int
        Number of items shown to each user (for ``validation``).
    n_iter_no_change : int, default=10
    scale : ndarray of shape (n_features,) or None, default=None
        Run L-BFGS on ``v = scale * w`` (a diagonal preconditioner, e.g.
        :func:`column_scale`); the iterates recorded are ``w``.
    verbose : int, default=0
        Print the objective (and validation score) every iteration.

    Returns
    -------
    state : SolverState

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` iterations ran without meeting the stopping rule,
        or when the line search failed.
    """
    w0 = np.asarray(state.w, dtype=np.float64)
    scale = np.ones_like(w0) if scale is None else np.asarray(scale, dtype=float)
    value0, grad0 = fun(w0)
    state.objective_curve.append(float(value0))
    v0 = w0 * scale
    cache = {v0.tobytes(): float(value0)}
    gtol = (1e-10 if tol is None else tol) * max(
        float(np.abs(grad0 / scale).max()), np.finfo(float).tiny)

    def scaled_fun(v):
        value, grad = fun(v / scale)
        cache.clear()
        cache[v.tobytes()] = float(value)
        return value, grad / scale

    n_iter = 0
    state.converged = False

    def callback(xk):
        nonlocal n_iter
        v = np.asarray(xk, dtype=np.float64)
        w = v / scale
        n_iter += 1
        value = cache.get(v.tobytes())
        if value is None:
            value = float(fun(w)[0])
        state.objective_curve.append(value)
        state.w = w.copy()
        state.t += 1
        if verbose:
            print(f"-- Iteration {n_iter}: objective {value:.8g}")
        if validation is None:
            return
        score = _validation_score(validation, w, k)
        if verbose:
            print(f"   validation micro-pAp@k: {score:.4f}")
        if state.record_validation(score, w, tol=tol,
                                   n_iter_no_change=n_iter_no_change):
            raise _EarlyStop

    try:
        with np.errstate(over="ignore", invalid="ignore"):  # reported below
            result = minimize(
                scaled_fun, v0, jac=True, method="L-BFGS-B", callback=callback,
                options={"maxiter": max_iter, "gtol": gtol, "maxls": 50,
                         "ftol": 64 * np.finfo(float).eps},
            )
    except _EarlyStop:
        state.converged = True
        return state
    state.w = np.asarray(result.x, dtype=np.float64) / scale
    if np.array_equal(state.w, w0) and np.any(grad0 != 0):
        warnings.warn(
            "L-BFGS did not move from w_0 although the gradient there is not "
            "zero: the objective could not be decreased in floating point, "
            "most likely because the features hold extreme values; scale "
            "them (e.g. MinMaxScaler) or lower alpha.",
            ConvergenceWarning, stacklevel=2,
        )
    elif result.status == 0:
        state.converged = True
    elif n_iter >= max_iter:
        what = ("the validation micro-pAp@k stopped improving"
                if validation is not None else "the gradient fell under tol")
        warnings.warn(
            f"L-BFGS reached max_iter={max_iter} iterations before {what}; "
            f"increase max_iter or tol.",
            ConvergenceWarning, stacklevel=2,
        )
    else:
        warnings.warn(
            f"L-BFGS stopped after {n_iter} iterations, unable to decrease the "
            f"objective further ({result.message or 'line search failed'}); "
            f"the features may hold extreme values: scale them (e.g. "
            f"MinMaxScaler) or raise alpha.",
            ConvergenceWarning, stacklevel=2,
        )
    return state
