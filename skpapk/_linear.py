"""Linear rankers ``s = X @ w``: fitting by Algorithm 1 or by L-BFGS.

:class:`BaseLinearRanker` gives ``fit``, ``partial_fit``, warm starts,
``coef_init``, early stopping and averaging to every linear ranker of the
package. Two solvers share one ``skpapk._solver.SolverState``:

- ``"subgradient"``: the paper's Algorithm 1, projected subgradient descent
  (``skpapk._solver.projected_subgradient``), for every surrogate;
- ``"lbfgs"``: scipy's L-BFGS (:func:`skpapk._lbfgs.minimize_lbfgs`) on the
  smooth surrogates (``"pairwise_logistic"``, ``"soft_papk"``).
"""

import copy
import dataclasses
import warnings
from functools import partial
from numbers import Integral, Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import _get_feature_names, validate_data

from . import _defaults
from ._base import BaseRanker
from ._lbfgs import TOL_NONE, minimize_lbfgs
from ._linear_loss import InMemoryLinearLoss, linear_scores
from ._solver import (
    SolverState,
    ValidationSet,
    projected_subgradient,
    subgradient_descent,
)
from .model_selection._split import _early_stopping_rows
from .utils._arrays import exact_values, float_array
from .utils._groups import n_undefined_groups, tied_within_groups
from .utils._labels import (
    binary_classes,
    check_label_values,
    check_pos_label,
    relevant_last,
    unknown_labels,
)
from .utils._messages import cut
from .utils._routing import _stacklevel, check_groups_routing
from .utils._validation import check_groups, check_k


def warn_zero_coef(ranker, cause, tied=None):
    """Warn that ``ranker`` fitted ``coef_ = 0``, or a ``coef_`` that gives
    every row of each training user the same score (``tied()``, called
    only then): it ranks as a random ranking does. ``cause``: the likely
    cause of a ``coef_ = 0`` and its fix; a fit that warned otherwise
    already need not call it."""
    if not np.any(ranker.coef_):
        what = "fitted coef_ = 0: it scores every row alike"
    elif tied is not None and tied():  # a coef_ of 1e-14 on constant columns
        what = (f"fitted coef_ = {np.array2string(ranker.coef_, threshold=6)}, "
                f"which gives every row of each training user the same score")
        cause = ("The features of X do not vary within users (a column "
                 "constant within each user cannot order its rows), or X @ "
                 "coef_ rounds their differences away (values near 1e-300 or "
                 "columns of very different scales: scale them, e.g. "
                 "StandardScaler).")
    else:
        return
    warnings.warn(
        f"{type(ranker).__name__} {what}, which ranks as a random ranking "
        f"does. {cause}", ConvergenceWarning, stacklevel=_stacklevel())


#: A user's pairs (``n+ * n-``) past which a smooth surrogate that sums
#: every pair (``truncation_level=None``) is told of their cost: about 1.6 s
#: for each evaluation of the pairwise logistic loss on one core.
LONG_LIST_PAIRS = 10**9


def warn_long_lists(ranker, loss, y_pos, codes, n_groups):
    """Warn when a smooth ``loss`` without a truncation would sum more than
    :data:`LONG_LIST_PAIRS` pairs of one user at every evaluation (its time
    grows with the square of the user's rows)."""
    if not loss.smooth or getattr(loss, "truncation_level", None) is not None:
        return
    n_pos = np.bincount(codes, weights=y_pos, minlength=n_groups)
    n_neg = np.bincount(codes, minlength=n_groups) - n_pos
    user = int(np.argmax(n_pos * n_neg)) if n_groups else 0
    if not n_groups or not n_pos[user] * n_neg[user] > LONG_LIST_PAIRS:
        return
    warnings.warn(
        f"{type(ranker).__name__}: a user has {n_pos[user]:.0f} relevant x "
        f"{n_neg[user]:.0f} irrelevant rows, {n_pos[user] * n_neg[user]:.2g} "
        f"pairs, every one of which the {loss.name!r} surrogate sums at every "
        f"evaluation (about 1.6 s a billion pairs on one core): the fit grows "
        f"with the square of the user's rows. Set truncation_level (e.g. 100: "
        f"the pairs of each user's 100 highest scored rows of each label, "
        f"O(100 n)) to bound them, or check groups (one user per row).",
        UserWarning, stacklevel=_stacklevel())


def _check_coef_init(coef_init, n_features, feature_names=None):
    """``coef_init`` as a finite float64 vector of length ``n_features``; a
    pandas Series whose index is not ``feature_names`` (X's columns) in
    order is refused: its values would be read by position."""
    index = coef_init.index if hasattr(coef_init, "iloc") else None
    if (feature_names is not None and index is not None
            and getattr(coef_init, "ndim", 1) == 1
            and index.tolist() != feature_names.tolist()
            and index.tolist() != list(range(len(index)))):  # by position
        same = sorted(map(str, index)) == sorted(map(str, feature_names))
        raise ValueError(
            "coef_init is a Series whose index "
            + ("holds the columns of X in another order" if same else
               f"is not the columns of X ({cut(str(index.tolist()), 60, quote=False)}"
               f" against {cut(str(feature_names.tolist()), 60, quote=False)})")
            + "; its values are read by position, one per column of X. "
            + ("Reorder it: coef_init.reindex(X.columns)." if same else
               "Give one weight per column of X, in their order (e.g. "
               "pd.Series(w, index=X.columns)), or an array."))
    coef = float_array(
        coef_init, input_name="coef_init", expected=f"an array of {n_features} "
        f"real numbers (the starting weights w_0, one per feature)")
    if coef.ndim != 1 or coef.shape[0] != n_features:
        raise ValueError(
            f"coef_init must have shape ({n_features},), one weight per feature "
            f"of X, got shape {coef.shape}; pass e.g. np.zeros({n_features}) or "
            f"rng.normal(size={n_features})."
        )
    if not np.all(np.isfinite(coef)):
        raise ValueError(
            f"coef_init must be finite, got {np.count_nonzero(~np.isfinite(coef))}"
            f" NaN or infinite value(s); replace them (e.g. np.nan_to_num) or "
            f"pass coef_init=None to start at w_0 = 0."
        )
    return coef


class BaseLinearRanker(BaseRanker):
    """Base class of the linear rankers ``s = X @ coef_``.

    Subclasses give the surrogate through ``_get_surrogate`` (a
    :class:`~skpapk.losses.BaseSurrogate`), may choose the solver through
    ``_get_solver`` (Algorithm 1 by default) and the threads of the
    smooth surrogates' kernel through ``_n_threads``, and define
    ``__init__`` with the parameters of its ``_parameter_constraints``
    (``k``, ``alpha``, ``eta0``, ``max_iter``, ``tol``, ...: those of
    :class:`~skpapk.PApKAvgRanker`), plus their own. ``fit``,
    ``partial_fit``, warm starts, early stopping and averaging share one
    ``skpapk._solver.SolverState``, kept in ``_solver_state``:
    ``skpapk._solver.subgradient_descent`` (Algorithm 1) or
    ``skpapk._lbfgs.minimize_lbfgs`` continue from it, on the objective
    object (``skpapk._linear_loss.LinearLoss``) of the rows, wherever
    they live (``_fit_linear``: one fit path for the in-memory and the
    distributed rankers).

    See Also
    --------
    PApKRanker : The linear ranker with the surrogate as a parameter.
    BaseRanker : The base class of every ranker.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import BaseLinearRanker, PApKAvgRanker
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y, groups = [0, 1, 0, 1], [0, 0, 1, 1]
    >>> ranker = PApKAvgRanker(k=1, max_iter=5, tol=None)
    >>> isinstance(ranker, BaseLinearRanker)
    True
    >>> ranker.fit(X, y, groups=groups).coef_.shape
    (1,)
    """

    __metadata_request__partial_fit = {"groups": True}

    #: The solvers ``fit`` runs, by name -> the method that runs it (the
    #: names a ``solver`` parameter takes, with "auto").
    _SOLVERS = {"lbfgs": "_run_lbfgs", "subgradient": "_run_subgradient"}

    _parameter_constraints: dict = {
        "k": [Interval(Integral, 1, None, closed="left")],
        "eta0": [Interval(Real, 0, None, closed="neither")],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left"), None],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
        "radius": [Interval(Real, 0, None, closed="neither"), None],
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "average": ["boolean"],
        "warm_start": ["boolean"],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
        "pos_label": [Real, str, "boolean", None],
    }

    def _get_surrogate(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _get_solver(self, loss):
        """The solver of ``fit``: ``"subgradient"`` (Algorithm 1) or ``"lbfgs"``."""
        return "subgradient"

    def _n_threads(self):
        """Threads of the smooth surrogates' compiled kernel (``n_jobs``)."""
        return 1

    def _check_lbfgs_options(self):
        """Options of Algorithm 1 that L-BFGS has no use for must be off, and
        ``tol`` (relative to the gradient at ``w_0``) below 1."""
        for name, default in (("average", False), ("radius", None)):
            if getattr(self, name) != default:
                raise ValueError(
                    f"{name}={getattr(self, name)!r} is an option of "
                    f"solver='subgradient' (Algorithm 1); L-BFGS minimises the "
                    f"smooth surrogate itself. Set {name}={default!r} or "
                    f"solver='subgradient'."
                )
        if self.tol is not None and self.tol >= 1:
            raise ValueError(
                f"tol={self.tol!r} is relative with solver='lbfgs': L-BFGS "
                f"stops when the largest entry of the gradient falls under "
                f"tol times its value at the start w_0, which tol >= 1 meets "
                f"at w_0 itself, so it stops at w_0, before any iteration. "
                f"Pass a tol below 1 (the default is {_defaults.TOL!r}; None: "
                f"{TOL_NONE!r})."
            )

    def _initial_state(self, n_features, coef_init=None):
        """``w_0 = coef_init``, else the previous state under ``warm_start``,
        else ``w_0 = 0``."""
        if coef_init is not None:
            return SolverState.from_coef(_check_coef_init(
                coef_init, n_features, getattr(self, "feature_names_in_", None)))
        previous = getattr(self, "_solver_state", None)
        if not self.warm_start or previous is None:
            return SolverState.zeros(n_features)
        if previous.w.shape[0] != n_features:
            raise ValueError(
                f"warm_start=True but X has {n_features} features while the "
                f"previous fit had {previous.w.shape[0]}; pass data with the "
                f"same features or set warm_start=False."
            )
        self._check_warm_columns(getattr(self, "feature_names_in_", None),
                                 "warm_start=True but")
        relevant = self.classes_.tolist()[-1]
        if hasattr(self, "_warm_relevant") and relevant != self._warm_relevant:
            raise ValueError(  # coef_ ranks the previous relevant label first
                f"warm_start=True but the relevant label of y is {relevant!r} "
                f"(classes_={self.classes_.tolist()}), where the previous fit's "
                f"was {self._warm_relevant!r}: its coef_ ranks other rows "
                f"first. Set pos_label={self._warm_relevant!r} (labels as "
                f"before), or set warm_start=False to fit from scratch."
            )
        state = copy.deepcopy(previous)
        state.reset_stopping()
        return state

    def _check_warm_columns(self, names, what):
        """Refuse columns ``names`` other than those of the ``coef_``
        continued (by position), when both are known."""
        before = getattr(self, "_warm_feature_names", None)
        if names is not None and before is not None and (
                list(names) != list(before)):
            raise ValueError(
                f"{what} X's columns "
                f"({cut(', '.join(map(str, names)), 60, quote=False)}) are not "
                f"those of the previous fit "
                f"({cut(', '.join(map(str, before)), 60, quote=False)}), whose "
                f"coef_ would start on other columns; pass X with the previous "
                f"fit's columns in their order"
                + (", or set warm_start=False." if what.startswith("warm")
                   else ", or fit from scratch (fit, or a new ranker).")
            )

    def _early_stopping_split(self, X, y_pos, codes, n_groups):
        """Hold out ``validation_fraction`` of every group's rows, by label."""
        train, val = _early_stopping_rows(y_pos, codes, n_groups,
                                          self.validation_fraction,
                                          self.random_state)
        validation = ValidationSet(X=X[val], y_pos=y_pos[val], codes=codes[val])
        return X[train], y_pos[train], codes[train], validation

    def _set_fitted(self, state, n_iter, validation, curve_start=0, *,
                    continued=False):
        """``continued``: ``state`` went on from the previous fit's."""
        self._solver_state = state
        # where this call's values start in objective_curve_ (after a warm
        # start): TrainingCurveDisplay draws its validation scores there
        self._curve_start = int(curve_start)
        # the columns and relevant label of this coef_, for a warm start; an
        # array (no names) that continues a fit keeps its columns' names
        names = getattr(self, "feature_names_in_", None)
        if names is None and continued:
            names = getattr(self, "_warm_feature_names", None)
        self._warm_feature_names = names
        self._warm_relevant = self.classes_.tolist()[-1]
        self.coef_ = state.solution(average=self.average,
                                    early_stopping=validation is not None).copy()
        self.objective_curve_ = np.asarray(state.objective_curve, dtype=np.float64)
        self.n_iter_ = int(n_iter)
        self.t_ = int(state.t)
        self.diverged_ = bool(getattr(state, "diverged", False))
        if validation is not None:
            self.validation_scores_ = np.asarray(state.validation_scores,
                                                 dtype=np.float64)
            self.best_validation_score_ = float(state.best_validation_score)
        else:
            self.validation_scores_ = None
            self.best_validation_score_ = None

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, groups=None, coef_init=None, *, X_val=None, y_val=None,
            groups_val=None):
        """Fit the linear scorer by Algorithm 1, or by L-BFGS (smooth surrogates).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Features of every (user, item) row. Dense or CSR, float32 or
            float64 (other types are converted); ``X`` is not copied by the
            epochs (``early_stopping=True`` copies it once into its training
            and validation rows).
        y : array-like of shape (n_samples,)
            Binary relevance labels: ``pos_label``, else the greater of two
            numbers, is relevant.
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row, any sortable hashable values;
            ``None``: all rows form one group. Groups without a relevant or
            without an irrelevant row are skipped (``n_groups_skipped_``).
        coef_init : array-like of shape (n_features,), default=None
            The starting iterate ``w_0`` (as ``coef_init`` of
            :meth:`sklearn.linear_model.SGDClassifier.fit`). ``None`` starts
            at ``w_0 = 0`` as the paper's Algorithm 1 does (or, with
            ``warm_start=True``, continues the previous fit); the authors'
            code starts at a random draw ``w_0 ~ N(0, I)``, e.g.
            ``coef_init=np.random.default_rng(0).normal(size=X.shape[1])``.
            A given ``coef_init`` starts a fresh run (step count ``t = 0``,
            no running average) even under ``warm_start``; it takes part in
            the solver's choice of the lowest-objective iterate. A pandas
            Series is read by position: where ``X`` has column names, its
            index must be them, in order (or ``0, 1, ...``), else a
            ``ValueError`` says how to reorder it. Not
            requested by metadata routing: pass it to ``fit`` directly.
        X_val : {array-like, sparse matrix} of shape (n_val, n_features), \
                default=None
            Validation rows of ``early_stopping=True``, instead of the
            ``validation_fraction`` of every user's rows held out of ``X``
            (as ``HistGradientBoostingClassifier.fit``'s ``X_val``): every
            row of ``X`` then trains.
        y_val : array-like of shape (n_val,), default=None
            Labels of the validation rows, among those of ``y``.
        groups_val : array-like of shape (n_val,), default=None
            Group (user) of every validation row; given with ``groups``.

        Returns
        -------
        self : object
            Fitted ranker.

        Examples
        --------
        >>> import numpy as np
        >>> from skpapk import PApKMaxRanker, PApKRanker
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> X = rng.normal(size=(200, 4)) + y[:, None]
        >>> groups = np.repeat(np.arange(10), 20)
        >>> ranker = PApKRanker(k=3).fit(X, y, groups=groups)
        >>> bool(ranker.score(X, y, groups=groups) > 0.8)
        True

        ``coef_init`` starts the solver elsewhere than at ``w = 0``, e.g.
        from the random start of the authors' code for the paper's
        surrogates:

        >>> w0 = rng.normal(size=4)
        >>> paper = PApKMaxRanker(k=3, max_iter=5, tol=None)
        >>> paper.fit(X, y, groups=groups, coef_init=w0).t_
        5
        """
        X, y_pos, codes, n_groups = self._validate_fit_data(X, y, groups)
        given = self._validate_val_data(X_val, y_val, groups_val, groups)
        return self._fit_linear(
            _InMemoryRows(X, y_pos, codes, n_groups, given), coef_init)

    def _fit_linear(self, rows, coef_init):
        """Fit on training rows held anywhere: the one fit path.

        ``rows`` (``_InMemoryRows``, or the distributed rankers' rows on
        the workers of a cluster) gives ``n_features``, ``prepare(ranker,
        loss)`` (the early-stopping split, the checks of the defined groups,
        ``n_groups_skipped_``; returns the objective, the validation rows
        and the description of the rows for ``verbose``) and ``release()``.
        """
        continued = (coef_init is None and self.warm_start
                     and getattr(self, "_solver_state", None) is not None)
        try:  # rows released whatever fails (the checks of options too)
            loss = self._get_surrogate()
            solver = self._get_solver(loss)
            if solver == "lbfgs":
                self._check_lbfgs_options()
            state = self._initial_state(rows.n_features, coef_init)
            curve_start = len(state.objective_curve)
            objective, validation, where = rows.prepare(self, loss)
            if self.verbose:
                print(f"Fitting {type(self).__name__} ({loss.name} surrogate, "
                      f"{solver} solver, k={self.k}) on {where}; "
                      f"{self.n_groups_skipped_} groups skipped (no relevant "
                      f"or no irrelevant row).")
            state, n_iter = self._run_solver(solver, objective, state, validation)
            self._set_fitted(state, n_iter, validation, curve_start,
                             continued=continued)
            if state.converged and not state.no_descent:  # else it has warned
                warn_zero_coef(self, f"Check that the features of X vary "
                                     f"within users (every column may be 0), "
                                     f"or lower alpha (alpha={self.alpha!r}).",
                               partial(rows.tied, self.coef_))
        finally:
            rows.release()
        return self

    def _run_solver(self, solver, objective, state, validation):
        """Run the solver named ``solver`` (a key of ``_SOLVERS``) from
        ``state``; return it and ``n_iter``."""
        if solver not in self._SOLVERS:  # skip_parameter_validation let it by
            raise ValueError(f"solver={solver!r} is none of "
                             f"{sorted(self._SOLVERS)}.")
        return getattr(self, self._SOLVERS[solver])(objective, state, validation)

    def _run_lbfgs(self, objective, state, validation):
        """L-BFGS from ``state``; return it and ``n_iter``."""
        t_before = state.t
        state = minimize_lbfgs(
            objective, state, max_iter=self.max_iter, tol=self.tol,
            validation=validation, n_iter_no_change=self.n_iter_no_change,
            verbose=self.verbose,
        )
        return state, state.t - t_before

    def _run_subgradient(self, objective, state, validation):
        """Algorithm 1 from ``state``; return it and ``n_iter`` (epochs)."""
        n_before = len(state.objective_curve)
        advice = self._no_descent_advice(objective.surrogate, state, validation)
        state.no_descent = None
        state = subgradient_descent(
            objective, state, eta0=self.eta0, max_iter=self.max_iter,
            tol=self.tol, n_iter_no_change=self.n_iter_no_change,
            radius=self.radius, average=self.average, validation=validation,
            verbose=self.verbose, warn_no_descent=False,
        )
        if state.no_descent is not None:  # with what to change here
            curve = state.objective_curve[n_before:]
            if min(curve) == max(curve):  # nothing to learn (0), or nothing
                advice = ""  # to learn from (flat): no start or solver helps
            warnings.warn(f"{state.no_descent} {advice}".rstrip(),
                          ConvergenceWarning, stacklevel=_stacklevel())
        return state, len(state.objective_curve) - n_before  # epochs evaluated

    def _no_descent_advice(self, loss, state, validation):
        """What to change when Algorithm 1 never goes below ``f(w_0)``."""
        if loss.smooth:
            remedies = ["fit the smooth surrogate by L-BFGS (solver='lbfgs')"]
        else:
            remedies = ["train a smooth surrogate instead: PApKRanker() with "
                        "its default surrogate='pairwise_logistic', fitted by "
                        "L-BFGS"]
        if not np.any(state.w):
            remedies.append("start from a better w_0 with coef_init (e.g. "
                            "LogisticRegression().fit(X, y).coef_[0])")
        if validation is None:
            remedies.append("keep the iterate with the best held-out score "
                            "(early_stopping=True)")
        return "To learn a ranker, " + "; or ".join(remedies) + "."

    def _check_unchanged_pos_label(self):
        """Refuse a ``pos_label`` set since the fit to another relevant label."""
        fitted = self.classes_.tolist()[-1]
        try:
            relevant = check_pos_label(np.sort(self.classes_), self.pos_label)
        except ValueError:  # not a label of classes_, or None for words
            relevant = None
        if relevant is None or relevant != fitted:
            raise ValueError(
                f"pos_label={self.pos_label!r} does not make {fitted!r} the "
                f"relevant label, as it was for the fit that partial_fit "
                f"continues (classes_={self.classes_.tolist()}); partial_fit "
                f"cannot change the relevant label. Set pos_label={fitted!r}, "
                f"or fit from scratch (fit, or a new ranker) with the new "
                f"pos_label."
            )

    def _check_partial_fit_target(self, y, classes, first_call):
        """Binary labels of a chunk against ``classes_``; set it on the first call."""
        if not first_call:
            self._check_unchanged_pos_label()
        y, seen = binary_classes(y, input_name="y")
        order = partial(relevant_last, pos_label=self.pos_label, input_name="y",
                        estimator_name=type(self).__name__)
        if classes is not None:
            check_label_values(classes, input_name="classes")
            classes = np.unique(exact_values(classes))
            if classes.shape[0] != 2:
                raise ValueError(
                    f"Only binary classification is supported. classes must "
                    f"hold the two labels (in any order; the relevant one is "
                    f"pos_label, else the greater number), got "
                    f"{classes.tolist()}."
                )
            classes = partial(order, input_name="classes")(classes)
            if not first_call and not np.array_equal(classes, self.classes_):
                raise ValueError(
                    f"classes={classes.tolist()} differs from classes_ "
                    f"{self.classes_.tolist()} (set by fit or by the first "
                    f"partial_fit call); the labels must be the same across "
                    f"chunks."
                )
        elif first_call:
            if seen.shape[0] != 2:
                raise ValueError(
                    f"The first partial_fit call got y with the label(s) "
                    f"{seen.tolist()}: pass both labels, classes=[label_a, "
                    f"label_b] in any order, on the first call when a chunk "
                    f"may not hold both (the relevant one is pos_label, else "
                    f"the greater number)."
                )
            classes = order(seen)
        else:
            classes = self.classes_
        unknown = unknown_labels(seen, classes)
        if unknown:
            raise ValueError(
                f"y has the label(s) {unknown} not in classes "
                f"{classes.tolist()} (set by the first partial_fit call or by "
                f"fit); the binary labels must be the same across chunks."
            )
        if first_call:
            self.classes_ = classes
        return np.asarray(y == self.classes_[-1])

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y, groups=None, classes=None):
        """One projected subgradient step on a chunk of whole groups.

        The stochastic variant of Algorithm 1 (the mini-batch subgradient
        method Kar et al. (2015) analyse for streams of users): the step is
        ``w_(t+1) = Proj_W(w_t - eta0 / sqrt(t + 1) * g_t)`` with ``g_t`` the
        subgradient of the mean surrogate over the *chunk's* groups plus
        ``alpha * ||w||^2``, and ``t`` counts the steps of every earlier
        ``partial_fit`` and ``fit`` call (``t_``). A chunk should hold every
        row of its groups (a group split across chunks is scored as several
        smaller groups). ``early_stopping`` and ``max_iter``/``tol`` are not
        used; ``average=True`` updates the running mean of the iterates.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Features of the chunk's rows (same features at every call).
        y : array-like of shape (n_samples,)
            Binary relevance labels of the chunk; their labels must be among
            ``classes_``.
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row; ``None``: one group. Groups of
            the chunk without both a relevant and an irrelevant row are
            skipped and counted in ``n_groups_skipped_`` (a chunk with no
            such group makes a step of the regularisation term only).
        classes : array-like of shape (2,), default=None
            The two labels, in any order (``pos_label`` is relevant, else
            the greater number). Needed on the first call when its chunk does not hold
            both labels; later calls check it against ``classes_``.

        Returns
        -------
        self : object
            The ranker, one step further.
        """
        check_k(self.k)
        first_call = not hasattr(self, "_solver_state")
        if not first_call and not hasattr(self, "feature_names_in_"):
            # fitted last on an array that continued a fit on named columns
            self._check_warm_columns(_get_feature_names(X), "partial_fit "
                                     "continues coef_ but")
        y = exact_values(y, "y")  # scikit-learn's conversion merges some labels
        with self._numbers_of(X, fitting=first_call):
            X, y = validate_data(self, X, y, accept_sparse="csr",
                                 dtype=[np.float64, np.float32], reset=first_call)
        y_pos = self._check_partial_fit_target(y, classes, first_call)
        codes, labels = check_groups(groups, X.shape[0])
        n_groups = labels.shape[0]
        check_groups_routing(self, groups, method="partial_fit", n_groups=n_groups,
                             reset=first_call, n_rows=X.shape[0])
        self.n_groups_skipped_ = n_undefined_groups(y_pos, codes, n_groups)
        # the solver updates its state in place: a step that raises (a
        # warning turned into an error) must not advance the fitted one
        state = (SolverState.zeros(X.shape[1]) if first_call
                 else dataclasses.replace(self._solver_state, objective_curve=list(
                     self._solver_state.objective_curve)))
        n_before = len(state.objective_curve)
        state = projected_subgradient(
            X, y_pos, codes, n_groups, loss=self._get_surrogate(), k=self.k,
            eta0=self.eta0, alpha=self.alpha, max_iter=1, tol=None,
            radius=self.radius, state=state, average=self.average,
            verbose=self.verbose, n_threads=self._n_threads(),
        )
        self._set_fitted(state, len(state.objective_curve) - n_before, None,
                         continued=not first_call)
        return self


class _InMemoryRows:
    """Validated training rows in this process (see ``_fit_linear``)."""

    def __init__(self, X, y_pos, codes, n_groups, given=None):
        self.X, self.y_pos, self.codes, self.n_groups = X, y_pos, codes, n_groups
        self.n_features = X.shape[1]
        self.given = given  # validation rows given to fit, or None

    def prepare(self, ranker, loss):
        X, y_pos, codes, n_groups = self.X, self.y_pos, self.codes, self.n_groups
        validation = None
        if self.given is not None:
            validation = ValidationSet(*self.given[:3])
        elif ranker.early_stopping:
            X, y_pos, codes, validation = ranker._early_stopping_split(
                X, y_pos, codes, n_groups)
            ranker.n_groups_skipped_ = n_undefined_groups(y_pos, codes, n_groups)
        warn_long_lists(ranker, loss, y_pos, codes, n_groups)
        objective = InMemoryLinearLoss(X, y_pos, codes, n_groups, loss,
                                       k=ranker.k, alpha=ranker.alpha,
                                       n_threads=ranker._n_threads())
        return objective, validation, f"{X.shape[0]} rows, {n_groups} groups"

    def tied(self, coef):
        """Whether ``coef`` ties every user's training rows."""
        return tied_within_groups(linear_scores(self.X, coef), self.codes)

    def release(self):
        self.X = self.y_pos = self.codes = self.given = None
