"""L-BFGS for the smooth surrogates of a linear scorer ``s = X @ w``.

The objective is ``F(w) = loss(X @ w) + alpha * ||w||^2`` with a smooth
surrogate of :mod:`skpapk.losses` (its mean over groups), given as an
objective object (:class:`skpapk._linear_loss.LinearLoss`, in memory or
distributed): its ``loss_gradient(w)`` is ``F`` and its gradient
``X.T @ g + 2 alpha w``, its ``column_scale`` the preconditioner.
:func:`minimize_lbfgs` minimises it with scipy's L-BFGS-B, recording what
the rankers report (objective per iteration, validation scores for early
stopping) in a :class:`~skpapk._solver.SolverState`.
"""

import warnings

import numpy as np
from scipy.optimize import minimize
from sklearn.exceptions import ConvergenceWarning

from ._defaults import N_ITER_NO_CHANGE
from ._solver import start_not_finite
from .utils._routing import _stacklevel

#: The relative tolerance of ``tol=None``: L-BFGS stops when the largest
#: gradient entry falls under this fraction of its value at ``w_0`` (or when
#: the objective stops decreasing at machine precision).
TOL_NONE = 1e-10

#: The relative fall of the objective from ``w_0 = 0`` (with a non-zero
#: gradient there) under which a run that did not reduce its gradient to
#: ``tol`` is reported as stalled (about 4.5e5 machine epsilons).
STALL_FALL = 1e-10


class _EarlyStop(Exception):
    """Raised by the iteration callback to end L-BFGS."""


def minimize_lbfgs(objective, state, *, max_iter, tol, validation=None,
                   n_iter_no_change=N_ITER_NO_CHANGE, verbose=0):
    """Minimise ``objective`` by L-BFGS from ``state.w``, updating ``state``.

    L-BFGS runs on ``v = objective.column_scale * w`` (a diagonal
    preconditioner); the iterates recorded are ``w``.

    Parameters
    ----------
    objective : LinearLoss
        ``F(w)`` and its gradient (:class:`skpapk._linear_loss.LinearLoss`);
        its ``k`` is the one of the validation score.
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
        Stop when the largest entry of the gradient in ``v`` (``grad /
        column_scale``) falls under ``tol`` times its value at ``w_0`` (a
        relative criterion, so that it does not depend on the scale of the
        features; ``None``: ``1e-10``), or when the objective stops
        decreasing at machine precision.
    validation : ValidationSet or None, default=None
        Held-out rows scored by micro-pAp@k at ``objective.k`` after every
        iteration;
        the run stops when the score has not reached its best plus ``tol``
        for ``n_iter_no_change`` iterations (early stopping; never with
        ``tol=None``), as Algorithm 1's early stopping does.
    n_iter_no_change : int, default=10
        See ``validation`` (:data:`skpapk._defaults.N_ITER_NO_CHANGE`).
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
    scale = np.asarray(objective.column_scale, dtype=float)
    k = objective.k
    with np.errstate(over="ignore", invalid="ignore"):
        value0, grad0 = objective.loss_gradient(w0)
    if not np.isfinite(value0) or not np.all(np.isfinite(grad0)):
        raise ValueError(start_not_finite(objective.dtype))
    start = len(state.objective_curve)  # this call's values (warm starts)
    state.objective_curve.append(float(value0))
    v0 = w0 * scale
    cache = {v0.tobytes(): float(value0)}
    gtol = (TOL_NONE if tol is None else tol) * max(
        float(np.abs(grad0 / scale).max()), np.finfo(float).tiny)

    def scaled_fun(v):
        value, grad = objective.loss_gradient(v / scale)
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
            value = float(objective.loss(w))
        state.objective_curve.append(value)
        state.w = w.copy()
        state.t += 1
        if verbose:
            print(f"-- Iteration {n_iter}: objective {value:.8g}")
        if validation is None:
            return
        score = validation.score(w, k)
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
    level = getattr(objective.surrogate, "truncation_level", None)
    jumps = ("" if level is None else
             f"; or truncation_level={level} keeps the pairs of each group's "
             f"top {level} rows, which change as the scores move (the "
             f"objective jumps, above all from tied scores such as w_0 = "
             f"0's): raise truncation_level or set it to None")
    # from w_0 = 0 with a gradient, a smooth objective falls: a fall of
    # next to nothing, with the gradient not reduced to tol, is a stall (a
    # truncation's jumps, or extreme features), not a convergence
    fall = (value0 - min(state.objective_curve[start:])) / max(abs(value0), 1.0)
    moved = not np.array_equal(state.w, w0)
    stuck = float(np.abs(np.asarray(result.jac)).max(initial=0.0)) > gtol
    if np.any(grad0 != 0) and (not moved or (
            not np.any(w0) and fall <= STALL_FALL and stuck)):
        what = ("did not move from w_0" if not moved else
                f"lowered the objective by only {fall:.1g} of its value at "
                f"w_0 = 0")
        warnings.warn(
            f"L-BFGS {what} although the gradient there is not "
            f"zero: the objective could not be decreased in floating point, "
            f"most likely because the features hold extreme values, or do "
            f"not vary within users (a column constant within each user "
            f"cannot order its rows); scale them (e.g. MinMaxScaler), check "
            f"that they vary, or lower alpha{jumps}.",
            ConvergenceWarning, stacklevel=_stacklevel(),
        )
    elif result.status == 0:
        state.converged = True
    elif n_iter >= max_iter:
        what = ("the validation micro-pAp@k stopped improving"
                if validation is not None else "the gradient fell under tol")
        warnings.warn(
            f"L-BFGS reached max_iter={max_iter} iterations before {what}; "
            f"increase max_iter or tol.",
            ConvergenceWarning, stacklevel=_stacklevel(),
        )
    else:
        warnings.warn(
            f"L-BFGS stopped after {n_iter} iterations, unable to decrease the "
            f"objective further ({result.message or 'line search failed'}); "
            f"the features may hold extreme values: scale them (e.g. "
            f"MinMaxScaler) or raise alpha{jumps}.",
            ConvergenceWarning, stacklevel=_stacklevel(),
        )
    return state
