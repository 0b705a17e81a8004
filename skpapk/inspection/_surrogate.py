"""Every surrogate and the pAp@k risk along a fit (paper Figure 1): SurrogateDisplay."""

import warnings

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from sklearn.utils import check_array
from sklearn.utils._plotting import _validate_style_kwargs

from .._linear import BaseLinearRanker
from .._linear_loss import InMemoryLinearLoss, fitted_scores, linear_scores
from .._solver import SolverState, subgradient_descent
from ..losses import SURROGATES
from ..losses._registry import get_surrogate
from ..metrics import papk_score
from ..utils._groups import n_undefined_groups
from ..utils._labels import check_binary_target
from ..utils._routing import _stacklevel
from ..utils._validation import check_groups, check_k
from ._base import (
    _get_ax,
    check_matplotlib_support,
    check_title,
    closes_new_figure_on_error,
)

RISK = "papk_risk"
_NAMES = {"avg": "avg", "max": "max", "ts": "TS", "ramp": "ramp", "pauc": "pAUC",
          "preck": "prec@k avg", RISK: "pAp@k risk"}


def _check_surrogates(surrogates):
    valid = sorted(SURROGATES)
    if isinstance(surrogates, str):
        surrogates = (surrogates,)
    surrogates = tuple(surrogates)
    if not surrogates:
        raise ValueError(f"surrogates is empty: name at least one of {valid}.")
    for name in surrogates:
        if name not in valid:
            raise ValueError(
                f"surrogates must name surrogates among {valid}, got {name!r}."
            )
    if len(set(surrogates)) != len(surrogates):
        raise ValueError(f"surrogates has repeated names: {list(surrogates)}.")
    return surrogates


def _trace(coefs, X, y_pos, codes, n_groups, k, surrogates):
    """(n_iter, len(surrogates) + 1) table: surrogates and pAp@k risk per iterate.

    The risk is ``1 - micro-pAp@k`` with ties counted as errors (the paper's
    risk); groups without a relevant or an irrelevant row are left out of
    both, as the surrogates leave them out. An iterate whose scores overflow
    gets a row of NaN (with a warning).
    """
    losses = [get_surrogate(name) for name in surrogates]
    checked = [{} if loss.smooth else {"check_input": False} for loss in losses]
    table = np.empty((coefs.shape[0], len(losses) + 1))
    n_not_finite = 0
    # undefined groups left out silently (zero_division=NaN), said once below
    # (no catch_warnings: it changes the filters of every thread)
    with np.errstate(over="ignore", invalid="ignore"):
        for t, w in enumerate(coefs):  # one row per iterate (epochs, not groups)
            scores = linear_scores(X, w)
            if not np.all(np.isfinite(scores)):
                table[t] = np.nan
                n_not_finite += 1
                continue
            for j, loss in enumerate(losses):
                # checked once above: no O(n) check per iterate
                table[t, j] = loss.loss_gradient(y_pos, scores, codes, n_groups, k,
                                                 **checked[j])[0]
            # the risk of the model's scores (float64: as it scores float32 X)
            fitted = scores if X.dtype == np.float64 else fitted_scores(X, w)
            table[t, -1] = 1.0 - papk_score(y_pos, fitted, k=k, groups=codes,
                                            pos_label=True, ties="error",
                                            zero_division=np.nan)
    if n_not_finite:
        warnings.warn(
            f"The scores X @ w_t overflow (are not finite) at {n_not_finite} of "
            f"{coefs.shape[0]} iterates: their row of values is NaN.",
            RuntimeWarning,
            stacklevel=_stacklevel(),
        )
    n_undefined = n_undefined_groups(y_pos, codes, n_groups)
    if n_undefined:
        warnings.warn(
            f"{n_undefined} of {n_groups} groups have no relevant or no "
            f"irrelevant row; they are left out of the surrogates and of the "
            f"pAp@k risk.",
            UndefinedMetricWarning,
            stacklevel=_stacklevel(),
        )
    return table


class SurrogateDisplay:
    """The surrogates and the pAp@k risk at every iterate of a fit (Figure 1).

    How do the surrogates behave? At each iterate ``w_t`` of the paper's
    Algorithm 1, the value of each surrogate (avg eq. 10, max eq. 24, TS
    eq. 14, ramp eq. 6; also pAUC and prec@k avg, the baselines'), the mean
    over groups without the ``alpha * ||w||^2`` term, and the pAp@k risk
    ``1 - micro-pAp@k`` with ties counted as errors (the paper's eq. 1 risk).
    The paper's Figure 1 draws this under its three margin conditions
    (:func:`~skpapk.datasets.make_margin_data`).

    Build it with :meth:`from_estimator` (re-runs a ranker's deterministic
    solver and records every iterate) or :meth:`from_iterates`; the
    constructor only stores the numbers.

    Parameters
    ----------
    values : ndarray of shape (n_iter, n_columns)
        ``values[t, j]``: column ``j`` at iterate ``t``.
    columns : tuple of str
        Names of the columns: the surrogates, then ``"papk_risk"``.
    coefs : ndarray of shape (n_iter, n_features), default=None
        The iterates ``w_0, w_1, ...``.
    name : str, default=None
        Title of the plot.

    Attributes
    ----------
    ax_ : matplotlib Axes
        Axes with the plot.
    figure_ : matplotlib Figure
        Figure containing the plot.
    lines_ : dict of str to matplotlib Line2D
        One line per column.

    See Also
    --------
    sklearn.metrics.RocCurveDisplay : The Display API this follows.
    skpapk.losses.surrogate_loss : The surrogates.
    skpapk.metrics.papk_score : The metric (its risk with ``ties="error"``).
    TrainingCurveDisplay : The optimised objective per epoch.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skpapk import PApKMaxRanker
    >>> from skpapk.datasets import make_margin_data
    >>> from skpapk.inspection import SurrogateDisplay
    >>> X, y, _ = make_margin_data("strong_beta", n_pos=20, n_neg=100, k=5,
    ...                            random_state=0)
    >>> ranker = PApKMaxRanker(k=5, eta0=0.05, max_iter=40, tol=None)
    >>> disp = SurrogateDisplay.from_estimator(ranker, X, y)
    >>> disp.columns
    ('avg', 'max', 'ts', 'ramp', 'papk_risk')
    >>> disp.values.shape                  # w_0 ... w_40
    (41, 5)
    >>> bool((disp.values[-1] <= disp.values[0]).all())
    True
    """

    def __init__(self, *, values, columns, coefs=None, name=None):
        self.values = np.asarray(values, dtype=np.float64)
        self.columns = tuple(columns)
        if self.values.ndim != 2 or self.values.shape[1] != len(self.columns):
            raise ValueError(
                f"values must have shape (n_iter, {len(self.columns)}), one "
                f"column per name in columns, got shape {self.values.shape}."
            )
        self.coefs = None if coefs is None else np.asarray(coefs)
        self.name = name

    @closes_new_figure_on_error
    def plot(self, ax=None, *, name=None, **kwargs):
        """Plot one curve per surrogate and the pAp@k risk (dashed).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; ``None`` creates a figure and axes.
        name : str, default=None
            Title; ``None`` uses the ``name`` given to the constructor.
        **kwargs : dict
            Passed to every ``Axes.plot`` call; they override the default
            style (the risk is dashed black), their matplotlib aliases
            (``c``, ``ls``, ``lw``...) included.

        Returns
        -------
        display : SurrogateDisplay
            Object that stores the computed values.
        """
        name = check_title(self.name if name is None else name)
        self.ax_, self.figure_ = _get_ax(ax, f"{type(self).__name__}.plot")
        iterations = np.arange(self.values.shape[0])
        self.lines_ = {}
        for j, column in enumerate(self.columns):
            style = {"label": _NAMES.get(column, column)}
            if column == RISK:
                style.update(linestyle="--", color="k")
            (self.lines_[column],) = self.ax_.plot(
                iterations, self.values[:, j], **_validate_style_kwargs(style, kwargs))
        self.ax_.set_xlabel("iteration t (iterate w_t)")
        self.ax_.set_ylabel("value (mean over users)")
        if name is not None:
            self.ax_.set_title(name)
        self.ax_.legend()
        return self

    @classmethod
    def from_iterates(cls, coefs, X, y, groups=None, *, k,
                      surrogates=("avg", "max", "ts", "ramp"), pos_label=None,
                      name=None, ax=None, **kwargs):
        """Plot the surrogates and the risk at given iterates.

        Parameters
        ----------
        coefs : array-like of shape (n_iter, n_features)
            The iterates ``w_t``, one per row (scores ``X @ w_t``).
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Features.
        y : array-like of shape (n_samples,)
            Binary relevance labels.
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row; ``None``: one group.
        k : int
            Number of items shown to each user.
        surrogates : tuple of str, default=("avg", "max", "ts", "ramp")
            Surrogates to evaluate, among ``"avg"``, ``"max"``, ``"ts"``,
            ``"ramp"``, ``"pauc"``, ``"preck"``.
        pos_label : int, float, bool or str, default=None
            The relevant label.
        name : str, default=None
            Title.
        ax : matplotlib Axes, default=None
            Axes to plot on.
        **kwargs : dict
            Passed to every ``Axes.plot`` call.

        Returns
        -------
        display : SurrogateDisplay
        """
        check_matplotlib_support(f"{cls.__name__}.from_iterates")
        k = check_k(k)
        surrogates = _check_surrogates(surrogates)
        X = check_array(X, accept_sparse="csr", dtype=[np.float64, np.float32],
                        input_name="X")
        coefs = check_array(coefs, dtype=np.float64, ensure_2d=False,
                            ensure_min_samples=0, input_name="coefs")
        if coefs.size == 0:
            raise ValueError(
                "coefs is empty: give the iterates w_t to plot, one row of "
                "n_features weights each (e.g. [ranker.coef_])."
            )
        if coefs.ndim != 2:
            raise ValueError(
                f"coefs must be 2D, one iterate w_t of n_features weights per "
                f"row (e.g. [ranker.coef_]); got an array of shape "
                f"{coefs.shape}."
            )
        if coefs.shape[1] != X.shape[1]:
            raise ValueError(
                f"coefs has {coefs.shape[1]} columns but X has {X.shape[1]} "
                f"features: give one iterate w_t of length n_features per row."
            )
        y_pos, _ = check_binary_target(y, pos_label=pos_label, input_name="y")
        if y_pos.shape[0] != X.shape[0]:
            raise ValueError(
                f"y has {y_pos.shape[0]} labels but X has {X.shape[0]} rows: "
                f"give one label per row."
            )
        codes, labels = check_groups(groups, X.shape[0])
        values = _trace(coefs, X, y_pos, codes, labels.shape[0], k, surrogates)
        display = cls(values=values, columns=surrogates + (RISK,), coefs=coefs,
                      name=name)
        return display.plot(ax=ax, **kwargs)

    @classmethod
    def from_estimator(cls, estimator, X, y, groups=None, *,
                       surrogates=("avg", "max", "ts", "ramp"), max_iter=None,
                       name=None, ax=None, **kwargs):
        """Re-run a ranker's solver, record every iterate, plot the surrogates.

        The solver is deterministic: ``w_0 = 0``, then one epoch of
        ``skpapk._solver.subgradient_descent`` at a time on a resumed
        state, with the ranker's surrogate, ``k``, ``eta0``, ``alpha`` and
        ``radius``. With ``max_iter=None`` the ranker's own ``max_iter``,
        ``tol`` and ``n_iter_no_change`` apply, so the last iterate is the
        ``coef_`` that ``estimator.fit(X, y, groups)`` gives. The estimator
        itself is not modified (a clone is validated). Early stopping,
        iterate averaging and warm starts are not replayed (a warning says
        so): the trace is always the plain iterates on all of ``X``.

        Parameters
        ----------
        estimator : ranker trained by subgradient descent
            :class:`~skpapk.PApKRanker` and the fixed-surrogate rankers,
            :class:`~skpapk.PAUCRanker`, :class:`~skpapk.PrecAtKRanker`;
            fitted or not (only its parameters are used).
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training features.
        y : array-like of shape (n_samples,)
            Binary relevance labels (the greater label is relevant).
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row; ``None``: one group.
        surrogates : tuple of str, default=("avg", "max", "ts", "ramp")
            Surrogates to evaluate at every iterate (see
            :meth:`from_iterates`).
        max_iter : int, default=None
            Run exactly this many epochs, ignoring the ranker's ``tol`` (as
            the paper's Figure 1); ``None``: the ranker's ``max_iter`` and
            stopping rule.
        name : str, default=None
            Title; ``None``: the class name and its surrogate.
        ax : matplotlib Axes, default=None
            Axes to plot on.
        **kwargs : dict
            Passed to every ``Axes.plot`` call.

        Returns
        -------
        display : SurrogateDisplay
            ``coefs`` holds ``w_0, w_1, ..., w_T`` and ``values`` one row per
            iterate.
        """
        check_matplotlib_support(f"{cls.__name__}.from_estimator")
        if not isinstance(estimator, BaseLinearRanker):
            raise TypeError(
                f"SurrogateDisplay.from_estimator needs a ranker trained by "
                f"projected subgradient descent (PApKRanker, PApKAvgRanker, "
                f"PApKMaxRanker, PApKTSRanker, PApKRampRanker, PAUCRanker, "
                f"PrecAtKRanker), got {type(estimator).__name__}; for other "
                f"models record the iterates and use from_iterates."
            )
        surrogates = _check_surrogates(surrogates)
        est = clone(estimator)
        est._validate_params()
        if est._get_solver(est._get_surrogate()) != "subgradient":
            raise ValueError(
                f"SurrogateDisplay.from_estimator replays Algorithm 1 (projected "
                f"subgradient descent), but this {type(estimator).__name__} is "
                f"trained by L-BFGS; set solver='subgradient', or record the "
                f"iterates yourself and use from_iterates."
            )
        if max_iter is None:
            n_epochs, tol = est.max_iter, est.tol
        else:
            if (isinstance(max_iter, bool)
                    or not isinstance(max_iter, (int, np.integer)) or max_iter < 0):
                raise ValueError(
                    f"max_iter must be None (the ranker's own) or an integer "
                    f">= 0, got {max_iter!r}."
                )
            n_epochs, tol = int(max_iter), None
        not_replayed = [p for p in ("early_stopping", "average", "warm_start")
                        if getattr(est, p, False)]
        if not_replayed:
            warnings.warn(
                f"SurrogateDisplay.from_estimator traces the plain iterates w_t "
                f"of the solver on all the rows of X, from w_0 = 0: "
                f"{', '.join(f'{p}=True' for p in not_replayed)} is not "
                f"replayed, so the last iterate may differ from the ranker's "
                f"coef_.",
                UserWarning,
                stacklevel=_stacklevel(),
            )
        X, y_pos, codes, n_groups = est._validate_fit_data(X, y, groups)
        loss = est._get_surrogate()
        objective = InMemoryLinearLoss(X, y_pos, codes, n_groups, loss, k=est.k,
                                       alpha=est.alpha)
        state = SolverState.zeros(X.shape[1])
        coefs = [state.w.copy()]
        for _ in range(n_epochs):  # one epoch a call: warn=False, said below
            subgradient_descent(
                objective, state, eta0=est.eta0, max_iter=1, tol=tol,
                n_iter_no_change=est.n_iter_no_change, radius=est.radius,
                warn=False)
            if state.converged or state.diverged:
                break
            coefs.append(state.w.copy())
        if state.diverged:
            warnings.warn(
                f"The iterates became non-finite after {state.t} epochs (lower "
                f"eta0, got eta0={est.eta0}); the trace stops at the last finite "
                f"iterate.",
                ConvergenceWarning,
                stacklevel=_stacklevel(),
            )
        coefs = np.asarray(coefs)
        values = _trace(coefs, X, y_pos, codes, n_groups, est.k, surrogates)
        if name is None:
            name = f"{type(estimator).__name__} ({loss.name} surrogate, k={est.k})"
        display = cls(values=values, columns=surrogates + (RISK,), coefs=coefs,
                      name=name)
        return display.plot(ax=ax, **kwargs)
