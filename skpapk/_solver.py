"""Projected subgradient descent for the pAp@k surrogates (paper Algorithm 1).

One solver serves every surrogate (and the baselines built on
:class:`~skpapk.losses.BaseSurrogate`) and every variant of the rankers
(``fit``, ``partial_fit``, ``warm_start``, ``early_stopping``, ``average``):
they differ only in the :class:`SolverState` they resume from and in the
options of :func:`projected_subgradient`. An epoch is one full-batch step::

    s_t   = X @ w_t
    f_t   = surrogate(s_t) + alpha * ||w_t||^2          (recorded)
    g_t   = X.T @ coef(s_t) + 2 * alpha * w_t
    w_t+1 = Proj_W(w_t - eta0 / sqrt(t + 1) * g_t)
    a_t+1 = mean(w_1, ..., w_t+1)                      (average=True)
    v_t+1 = micro-pAp@k of X_val @ (a_t+1 or w_t+1)    (validation given)

``X`` is only used through ``X @ w`` and ``X.T @ c`` (dense or CSR, float32 or
float64): it is never copied. The iterate is kept in float64 and cast to
``X.dtype`` for the products.

The data enter only through the objective object
(:class:`skpapk._linear_loss.LinearLoss`: ``F(w_t)`` and its subgradient);
:func:`subgradient_descent` runs the steps, the stopping rule and the
averaging on any such objective, e.g. one that sums the parts of partitions
of whole groups on the workers of a cluster (:mod:`skpapk.dask`).
"""

import warnings
from collections import namedtuple
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ._defaults import N_ITER_NO_CHANGE
from ._linear_loss import (
    InMemoryLinearLoss,
    _train_papk,
    fitted_scores,
)
from .utils._routing import _stacklevel


def start_not_finite(dtype):
    """The error of a start ``w_0`` whose scores (or objective) are not
    finite: a nonzero ``w_0`` too large for ``X``, or NaN or infinity in
    ``X``, which scikit-learn's ``assume_finite=True`` lets by."""
    return (f"the scores X @ w_0 of the starting weights (coef_init, or the "
            f"previous fit's coef_ under warm_start) are not finite in {dtype}; "
            f"pass a smaller coef_init (or coef_init=None) or scale X. If X "
            f"holds NaN or infinity (sklearn.set_config(assume_finite=True) "
            f"skips that check), remove them.")


class NoDescentWarning(ConvergenceWarning):
    """A run never took the objective below its value at its start ``w_0``.

    Warned by :func:`subgradient_descent` (and :func:`projected_subgradient`);
    the rankers ask it not to (``warn_no_descent=False``) and warn a
    :class:`~sklearn.exceptions.ConvergenceWarning` with what to change in
    their parameters instead.
    """


def no_improvement_count(score, best_score, count, *, tol, n_iter_no_change):
    """Early stopping's count of iterations without improvement, and its verdict.

    :class:`sklearn.linear_model.SGDClassifier`'s rule, shared by every
    solver of the package: an iteration improves when its validation score
    reaches ``best_score + tol``; the run stops after ``n_iter_no_change``
    iterations in a row without improvement (never with ``tol=None``).

    Returns
    -------
    count : int
    stop : bool
    """
    if tol is None:
        return count, False
    count = count + 1 if not score >= best_score + tol else 0
    return count, count >= n_iter_no_change


class BestRound:
    """Early stopping's bookkeeping over the validation scores of a run.

    ``record`` appends an iteration's score, keeps the best iteration
    (0-based; ``is_best`` says whether it is the one just recorded) and
    applies :func:`no_improvement_count`; it returns whether the run stops
    after this iteration. The linear rankers' solvers
    (:meth:`SolverState.record_validation`), the boosted ranker's monitor
    and its Dask replay use it.
    """

    def __init__(self, tol, n_iter_no_change):
        self.tol, self.n_iter_no_change = tol, n_iter_no_change
        self.scores = []
        self.best_score, self.best_iteration = -np.inf, 0
        self.is_best = False
        self.n_no_improvement = 0

    def record(self, score):
        iteration = len(self.scores)
        self.scores.append(score)
        self.n_no_improvement, stop = no_improvement_count(
            score, self.best_score, self.n_no_improvement, tol=self.tol,
            n_iter_no_change=self.n_iter_no_change)
        self.is_best = score > self.best_score
        if self.is_best:
            self.best_score, self.best_iteration = score, iteration
        return stop


@dataclass
class SolverState:
    """State of the projected subgradient descent, kept between calls.

    A later ``partial_fit``, warm start or iterate averaging can resume from
    it: :func:`projected_subgradient` continues at epoch ``t`` from ``w``.

    Attributes
    ----------
    w : ndarray of float64 of shape (n_features,)
        Current iterate ``w_t``.
    t : int
        Number of epochs done (the next step size is ``eta0 / sqrt(t + 1)``).
    best_objective : float
        The lowest recorded objective (``w_0 = 0`` is not recorded).
    n_no_improvement : int
        Consecutive epochs whose objective did not beat ``best_objective -
        tol``.
    objective_curve : list of float
        Objective at ``w_0, w_1, ...``.
    converged : bool
        Whether the ``tol`` criterion stopped the last call.
    diverged : bool
        Whether an iterate or objective became non-finite.
    avg_w : ndarray of float64 of shape (n_features,) or None
        Running mean of the iterates ``w_(t0+1), ..., w_t`` since averaging
        started at step ``t0`` (Polyak averaging); ``None`` before.
    n_averaged : int
        Number of iterates in ``avg_w``.
    validation_record : BestRound or None
        Early stopping's record of the validation micro-pAp@k of every
        validated iterate (the average when averaging); ``None`` before the
        first.
    best_validation_w : ndarray of float64 of shape (n_features,) or None
        The validated iterate with the highest score.
    no_descent : str or None
        Set by :func:`subgradient_descent` when a run from its start never
        went below ``f(w_0)``: what happened, the text of its
        :class:`NoDescentWarning`.
    """

    w: np.ndarray
    t: int = 0
    best_objective: float = np.inf
    n_no_improvement: int = 0
    objective_curve: list = field(default_factory=list)
    converged: bool = False
    diverged: bool = False
    avg_w: np.ndarray = None
    n_averaged: int = 0
    validation_record: BestRound = None
    best_validation_w: np.ndarray = None
    no_descent: str = None

    @property
    def validation_scores(self):
        """Validation micro-pAp@k of every validated iterate."""
        record = self.validation_record
        return [] if record is None else record.scores

    @property
    def best_validation_score(self):
        """The highest of them (``-inf`` before the first)."""
        record = self.validation_record
        return -np.inf if record is None else record.best_score

    @classmethod
    def zeros(cls, n_features):
        """Algorithm 1's start, ``w_0 = 0``."""
        return cls(w=np.zeros(n_features, dtype=np.float64))

    @classmethod
    def from_coef(cls, coef):
        """A fresh start at a given ``w_0`` (copied, as float64).

        Algorithm 1 starts at ``w_0 = 0``; the authors' code starts at a
        random ``w_0 ~ N(0, I)``. A non-zero ``w_0``'s objective is recorded
        in ``best_objective`` (that of ``w_0 = 0`` is not: it scores every
        row alike).
        """
        return cls(w=np.array(coef, dtype=np.float64))

    def reset_stopping(self):
        """Forget the stopping records, keep the iterate, step count and average.

        A warm-started ``fit`` calls this: it continues the optimisation from
        ``w_t`` with the step ``eta0 / sqrt(t + 1)``, but its stopping rule
        (best objective, best validation score, epochs without improvement)
        starts afresh, as the data may have changed.
        """
        self.best_objective = np.inf
        self.n_no_improvement = 0
        self.validation_record = None
        self.best_validation_w = None

    def record_validation(self, score, w, *, tol, n_iter_no_change):
        """Record a validation score; return whether early stopping ends the run.

        The rule of :class:`BestRound` (:func:`no_improvement_count`),
        shared by every solver; the best scored ``w`` is kept.
        """
        if self.validation_record is None:
            self.validation_record = BestRound(tol, n_iter_no_change)
        stop = self.validation_record.record(score)
        if self.validation_record.is_best:
            self.best_validation_w = np.array(w, dtype=np.float64)
        return stop

    def solution(self, *, average=False, early_stopping=False):
        """The iterate a ranker returns as ``coef_``.

        The best validated iterate under early stopping, else the running
        average when averaging, else the last iterate ``w``.
        """
        if early_stopping and self.best_validation_w is not None:
            return self.best_validation_w
        if average and self.avg_w is not None:
            return self.avg_w
        return self.w


class ValidationSet(namedtuple("ValidationSet", ["X", "y_pos", "codes"])):
    """Held-out rows scored by micro-pAp@k for early stopping.

    The solvers ask only ``validation.score(w, k)`` of a validation set, so
    held-out rows kept elsewhere (on the workers of a cluster:
    :class:`skpapk.dask._oracle.DistributedValidation`) serve as well.

    Attributes
    ----------
    X : ndarray or CSR matrix of shape (n_val, n_features)
    y_pos : ndarray of bool of shape (n_val,)
    codes : ndarray of int of shape (n_val,)
        Group codes (any integers; groups without both labels are left out).
    """

    __slots__ = ()

    def score(self, w, k):
        """Micro-pAp@k of ``X @ w`` (NaN when a score is not finite or no
        group is defined), scored as the fitted ranker scores (float64)."""
        scores = fitted_scores(self.X, w)
        if not np.all(np.isfinite(scores)):
            return np.nan
        return _train_papk(self.y_pos, scores, self.codes, k)


def projected_subgradient(X, y_pos, codes, n_groups, *, loss, k, eta0, alpha,
                          max_iter, tol=None, n_iter_no_change=N_ITER_NO_CHANGE,
                          radius=None,
                          state=None, average=False, validation=None, verbose=0,
                          n_threads=None):
    """Run projected subgradient descent (Algorithm 1) on a surrogate.

    Parameters
    ----------
    X : {ndarray, scipy.sparse CSR matrix} of shape (n_samples, n_features)
        Features, float32 or float64. Only ``X @ w`` and ``X.T @ c`` are used.
    y_pos : ndarray of bool of shape (n_samples,)
        True for relevant rows.
    codes : ndarray of int of shape (n_samples,)
        Group code of every row, in ``[0, n_groups)``.
    n_groups : int
        Number of groups.
    loss : BaseSurrogate
        The surrogate; ``loss.loss_gradient(y_pos, scores, codes, n_groups, k)``
        gives the mean over groups and the per-row coefficients.
    k : int
        Number of items shown to each user.
    eta0 : float
        Initial step size; epoch ``t`` steps ``eta0 / sqrt(t + 1)``.
    alpha : float
        Weight of ``||w||^2`` in the objective.
    max_iter : int
        Maximum number of epochs in this call.
    tol : float or None, default=None
        Stop when the objective has not reached ``best - tol`` for
        ``n_iter_no_change`` consecutive epochs (with ``validation``: when
        the validation score has not reached ``best + tol``). ``None``
        runs ``max_iter`` epochs.
    n_iter_no_change : int, default=10
        See ``tol`` (:data:`skpapk._defaults.N_ITER_NO_CHANGE`, the linear
        rankers' default; they always pass theirs).
    radius : float or None, default=None
        Project every iterate on the L2 ball of this radius.
    state : SolverState or None, default=None
        Resume from this state (it is updated in place); ``None`` starts from
        ``w_0 = 0``. ``SolverState.from_coef(w0)`` starts from ``w0``.
    average : bool, default=False
        Keep the running mean of the iterates in ``state.avg_w`` (Polyak
        averaging; started at the first step of the first call with
        ``average=True``).
    validation : ValidationSet or None, default=None
        Held-out rows: after every step the new iterate (the running mean
        when ``average``) is scored by micro-pAp@k on them, recorded in
        ``state.validation_scores``, and the best one kept in
        ``state.best_validation_w``; ``tol`` then applies to this score
        instead of the objective (early stopping).
    verbose : int, default=0
        Print the objective and the training micro-pAp@k every epoch.
    n_threads : int or None, default=None
        Threads of the smooth surrogates' compiled kernel (``None``: the
        OpenMP threads this process may use, respecting ``threadpoolctl``;
        the result does not depend on it).

    Returns
    -------
    state : SolverState
        ``state.w`` is the last iterate (if the iterates diverged: the last
        one whose scores ``X @ w`` cannot overflow, i.e. with
        ``max|X| * ||w||_1`` below the largest float of ``X``'s dtype); the
        rankers return it. ``state.best_objective`` is the lowest objective
        of ``w_1, w_2, ...`` (``w_0 = 0`` scores every row alike and is left
        out; a non-zero ``w_0`` given through the state at ``t = 0`` takes
        part). A subgradient method does not decrease the objective
        monotonically, yet the last iterate is the better ranker in our
        experiments: on weakly separable data the margin-1 surrogates are
        lowest near ``w = 0``, where the direction of ``w`` is still poor.

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` epochs ran without meeting ``tol``, when the
        iterates diverged (non-finite values: lower ``eta0`` or scale the
        features), or when a run from its start ``w_0`` (``state.t == 0``)
        evaluated at least two iterates and none had an objective below
        ``f(w_0)``: either ``eta0`` is too large for the scale of ``X`` or
        the surrogate is lowest at or near ``w_0``; either way the iterate
        returned is not a minimiser.
    """
    if state is None:
        state = SolverState.zeros(X.shape[1])
    objective = InMemoryLinearLoss(X, y_pos, codes, n_groups, loss, k=k,
                                   alpha=alpha, n_threads=n_threads)
    return subgradient_descent(
        objective, state, eta0=eta0, max_iter=max_iter, tol=tol,
        n_iter_no_change=n_iter_no_change, radius=radius, average=average,
        validation=validation, verbose=verbose,
    )


def _ridge_overshoot(objective, eta0):
    """Advice when the ridge term alone overshoots: the step ``t`` multiplies
    ``w`` by ``1 - 2 alpha eta_t`` (``eta_t = eta0 / sqrt(t + 1)``), which
    flips its sign while ``alpha eta_t > 1/2`` and grows it while
    ``alpha eta_t > 1``; given when ``alpha * eta0 > 1/2``, else empty."""
    alpha = float(getattr(objective, "alpha", 0.0) or 0.0)
    if not alpha * eta0 > 0.5:
        return ""
    return (f"; with alpha={alpha:g}, alpha * eta0 = {alpha * eta0:.3g}: the "
            f"ridge term alone multiplies w by 1 - 2 alpha eta0 / sqrt(t + 1) "
            f"at step t, which flips its sign while that is below 0 and grows "
            f"it while below -1; lower alpha or eta0 so that alpha * eta0 < "
            f"1/2 (the iterate kept may rank in reverse)")


def subgradient_descent(objective, state, *, eta0, max_iter, tol=None,
                        n_iter_no_change=N_ITER_NO_CHANGE, radius=None,
                        average=False,
                        validation=None, verbose=0, warn_no_descent=True,
                        warn=True):
    """Algorithm 1 on an objective object (see :func:`projected_subgradient`).

    Parameters
    ----------
    objective : LinearLoss
        ``F(w) = L(X @ w) + alpha ||w||^2`` and its subgradient
        (:class:`skpapk._linear_loss.LinearLoss`, in memory or distributed);
        its ``k`` is the one of the validation score, its ``l1_limit``
        bounds the iterates.
    state : SolverState
        Resume from this state (updated in place);
        ``SolverState.zeros(n_features)`` starts at ``w_0 = 0``.
    eta0, max_iter, tol, n_iter_no_change, radius, average, verbose
        As in :func:`projected_subgradient`.
    validation : ValidationSet or object with ``score(w, k)``, default=None
        Held-out rows for early stopping.
    warn_no_descent : bool, default=True
        Warn a :class:`NoDescentWarning` when the run never went below
        ``f(w_0)``; ``False`` leaves its message in ``state.no_descent``
        only, for a caller that warns with advice of its own (without
        catching warnings, which is not thread-safe).
    warn : bool, default=True
        ``False``: no ``ConvergenceWarning`` at all (diverged, ``max_iter``
        reached, no descent), for a caller that reads ``state.diverged``,
        ``state.converged`` and ``state.no_descent`` (e.g. one epoch a call).

    Returns
    -------
    state : SolverState
    """
    # a run from its start w_0 (not a resumed one): its objective at w_0 is
    # the reference of the "never below f(w_0)" warning
    fresh_start = state.t == 0
    start_is_zero = not np.any(state.w)
    n_before = len(state.objective_curve)
    state.converged = False
    state.diverged = False
    k = objective.k
    # |X @ w| <= max|X| * ||w||_1: an iterate past this bound could overflow
    # X @ w in X's dtype, so the solver stops before taking it
    score_limit = objective.l1_limit
    # overflow is detected below (non-finite iterate) and reported once
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(max_iter):
            w = state.w
            epoch = objective.evaluate(w, train_papk=bool(verbose))
            if epoch is None:  # the scores X @ w are not finite
                state.diverged = True
                break
            value, f_w = epoch.value, epoch.objective
            if not np.isfinite(f_w):
                state.diverged = True
                break
            state.objective_curve.append(f_w)
            if verbose:
                print(f"-- Epoch {state.t + 1}: objective {f_w:.6g}, "
                      f"surrogate {value:.6g}, train micro-pAp@k "
                      f"{epoch.train_papk:.4f}, "
                      f"step {eta0 / np.sqrt(state.t + 1):.3g}")
            # w_0 = 0 scores every row alike: never the answer (a given
            # non-zero w_0, from coef_init, is a candidate like any iterate)
            if state.t > 0 or np.any(w):
                stop = False
                if validation is None:  # the objective's rule, on -f(w)
                    state.n_no_improvement, stop = no_improvement_count(
                        -f_w, -state.best_objective, state.n_no_improvement,
                        tol=tol, n_iter_no_change=n_iter_no_change)
                if f_w < state.best_objective:
                    state.best_objective = f_w
                if stop:
                    state.converged = True
                    break
            w_new = w - (eta0 / np.sqrt(state.t + 1.0)) * epoch.gradient
            if radius is not None:
                norm = np.linalg.norm(w_new)
                if norm > radius:
                    w_new *= radius / norm
            if (not np.all(np.isfinite(w_new))
                    or not np.abs(w_new).sum() < score_limit):
                state.diverged = True
                break
            state.t += 1
            state.w = w_new
            if average:
                if state.avg_w is None:
                    state.avg_w = np.zeros_like(w_new)
                    state.n_averaged = 0
                state.n_averaged += 1
                state.avg_w = state.avg_w + (w_new - state.avg_w) / state.n_averaged
            if validation is not None:
                candidate = state.avg_w if average else state.w
                score = validation.score(candidate, k)
                if verbose:
                    print(f"   validation micro-pAp@k of w_{state.t}"
                          f"{' (averaged)' if average else ''}: {score:.4f}")
                if state.record_validation(score, candidate, tol=tol,
                                           n_iter_no_change=n_iter_no_change):
                    state.converged = True
                    break
    if state.diverged and state.t == 0 and not state.objective_curve:
        raise ValueError(start_not_finite(objective.dtype))
    if state.diverged and warn:
        warnings.warn(
            f"The iterates diverged after {state.t} steps (the next iterate or "
            f"its scores X @ w would not be finite in {objective.dtype}): the "
            f"step size is too large for the scale of the features; lower eta0 (got "
            f"eta0={eta0}) or scale X (e.g. MinMaxScaler)"
            f"{_ridge_overshoot(objective, eta0)}. The last iterate with "
            f"finite scores is kept.",
            ConvergenceWarning,
            stacklevel=_stacklevel(),
        )
    elif warn and not state.diverged and tol is not None and not state.converged:
        what = ("the validation micro-pAp@k" if validation is not None
                else "the objective")
        warnings.warn(
            f"Maximum number of iterations max_iter={max_iter} reached before "
            f"{what} stopped improving by tol={tol}; increase max_iter "
            f"or tol, or tune eta0.",
            ConvergenceWarning,
            stacklevel=_stacklevel(),
        )
    curve = state.objective_curve[n_before:]
    if (fresh_start and not state.diverged and len(curve) > 1
            and min(curve[1:]) >= curve[0]):
        start = "w_0 = 0" if start_is_zero else "the given w_0 (coef_init)"
        kept = ("the iterate with the best validation score" if validation
                is not None else "an early iterate")
        state.no_descent = (
            f"The objective is 0 at {start} and at each of the {len(curve) - 1} "
            f"steps: no group adds to the surrogate, whatever w (a group whose "
            f"rows all fit in its top k adds 0 to prec@k's surrogate: lower "
            f"k), so there is nothing to learn." if max(curve) == 0 else
            f"The objective is {curve[0]:.6g} at {start} and at each of the "
            f"{len(curve) - 1} steps: no step changed it, as when its "
            f"subgradient is 0 because the features do not vary within users "
            f"(a column constant within each user cannot order its rows); "
            f"check X." if min(curve) == max(curve) else
            f"The objective never went below its value at the starting point "
            f"{start} (objective {curve[0]:.6g}; lowest later value "
            f"{min(curve[1:]):.6g} over {len(curve) - 1} steps): the iterate "
            f"returned ({kept}) is not a minimiser of the objective. Either "
            f"every step overshot (eta0={eta0} too large for the scale of X: "
            f"try a smaller eta0{_ridge_overshoot(objective, eta0)}), or the "
            f"surrogate is lowest at or near w_0, "
            f"as the margin-1 hinge surrogates are when, under every w, the "
            f"top irrelevant items of the groups outscore their relevant ones "
            f"(a weak signal and many irrelevant items per group).")
        if warn_no_descent and warn:
            warnings.warn(state.no_descent, NoDescentWarning,
                          stacklevel=_stacklevel())
    return state
