"""Linear rankers trained on the pAp@k surrogates (Hiranandani et al., 2020)."""

from numbers import Integral, Real

from sklearn.utils._param_validation import Interval, StrOptions

from . import _defaults
from ._linear import BaseLinearRanker
from .losses import GROUP_WEIGHTS, SMOOTH_SURROGATES, SURROGATES, get_surrogate
from .losses._registry import RANKER_SURROGATES


class PApKRanker(BaseLinearRanker):
    """Linear ranker trained for pAp@k on a surrogate of the user's choice.

    By default it minimises, by L-BFGS, the smooth pairwise logistic loss of
    every (relevant, irrelevant) pair of each user, with users weighted by
    the inverse of the variance of their AUC (``group_weight``), plus
    ``alpha * ||w||^2``. On real recommendation data this is the linear
    surrogate that ranks best on held-out micro-pAp@k (see Notes): the
    paper's four hinge surrogates are available through ``surrogate`` (with
    the paper's Algorithm 1 as solver, exactly as in
    :class:`PApKAvgRanker` and the other fixed-surrogate rankers), and
    ``"soft_papk"`` restricts the pairs softly to pAp@k's top ones.

    ``X`` (dense or CSR, float32 or float64) is not copied (except by
    ``early_stopping``); an objective evaluation costs one ``X @ w``, one
    ``X.T @ g`` and, for the smooth surrogates, ``O(sum_u n+_u n-_u)``
    pair terms (``O(truncation_level * n_u)`` with ``truncation_level``),
    summed by a compiled kernel in ``n_jobs`` threads, with no pair
    array (the paper's surrogates: ``O(n log n)``).
    The same data and parameters give the same ``coef_`` (with the paper's
    surrogates, rows in another order may not: at the zero start every
    score ties, and ties follow the row order). The same data in another
    form (a DataFrame or a sparse matrix for an array, rows in another
    order, other group labels) give a ``coef_`` equal up to rounding: its
    sums are added in another order, a difference in the last bits
    (about ``1e-16``). Scores do not depend on the form:
    ``decision_function`` gives equal rows equal scores.

    Parameters
    ----------
    surrogate : str, default="pairwise_logistic"
        The surrogate minimised, a ranker's name in
        :data:`skpapk.losses.SURROGATES` (not ``"pauc"`` nor ``"preck"``,
        the baselines'): the smooth ``"pairwise_logistic"``
        (every relevant/irrelevant pair of each user,
        :class:`~skpapk.losses.PairwiseLogisticSurrogate`) or
        ``"soft_papk"`` (the pairs of pAp@k's soft top ``min(k, n+)``
        relevant and top ``k`` irrelevant rows,
        :class:`~skpapk.losses.SoftPApKSurrogate`), or one of the paper's
        four: ``"avg"`` (eq. 10), ``"max"`` (eq. 24), ``"ts"``
        (tight-struct, eq. 14 as Algorithm 2 computes it, App. eq. 27),
        ``"ramp"`` (eq. 6).

    k : int, default=10
        Number of items shown to each user: the ``k`` of pAp@k, used by
        :meth:`score`, :meth:`recommend`, early stopping and the surrogates
        that read it (``"soft_papk"`` and the paper's hinge surrogates). The
        default ``"pairwise_logistic"`` does not read ``k``: without early
        stopping, two values of ``k`` give the same ``coef_``.

    solver : {"auto", "lbfgs", "subgradient"}, default="auto"
        ``"lbfgs"``: scipy's L-BFGS on the objective (smooth surrogates
        only); ``"subgradient"``: the paper's Algorithm 1, projected
        subgradient descent with steps ``eta0 / sqrt(t + 1)``; ``"auto"``:
        L-BFGS for the smooth surrogates, Algorithm 1 for the others.

    temperature : float, default=1.0
        Temperature of ``"soft_papk"``, in units of each user's score
        standard deviation: large values weigh every pair alike (AUC),
        small ones keep pAp@k's top pairs. Ignored by the other surrogates.

    group_weight : {"uniform", "inverse_variance"}, default="inverse_variance"
        Weight of each user in the smooth surrogates' mean over users:
        ``"uniform"`` weighs every user alike; ``"inverse_variance"`` weighs
        a user by the inverse of the variance of its AUC under a random
        ranking, ``12 n+ n- / (n+ + n- + 1)`` (Mann-Whitney), so that users
        with few rows, whose pairs say little about the scorer, weigh less
        (:func:`skpapk.losses.group_weights`). The metric still weighs every
        user alike; this is about estimating ``w``. The paper's four
        surrogates always weigh users alike.

    truncation_level : int or None, default=None
        Bound on the pairs of users with long lists, for the smooth
        surrogates: a pair counts when its relevant row is among the user's
        ``truncation_level`` highest scored relevant rows, or its irrelevant
        row among the ``truncation_level`` highest scored irrelevant rows,
        under the current ``w`` (pAp@k itself only looks at the top
        ``min(k, n+)`` relevant and top ``k`` irrelevant rows). A user with
        at most ``truncation_level`` relevant or at most ``truncation_level``
        irrelevant rows keeps every pair; a user of ``n`` rows costs
        ``O(truncation_level * n)`` an evaluation instead of ``O(n+ n-)``.
        ``None`` (default): every pair. The set of pairs follows ``w``, so
        where the bound is active the objective is only piecewise smooth
        and L-BFGS needs more iterations: on simulated lists of 2,000 to
        200,000 rows, ``100`` took 7 to 33 times the iterations, and a fit
        was 3 to 17 times slower on lists of up to 60,000 rows and twice as
        fast on one of 200,000 (see :doc:`/user_guide/benchmarks`). With
        ``None``, a user of more than 10**9 pairs draws a ``UserWarning``
        that names this bound. Ignored by the paper's surrogates.

    eta0 : float, default=1.0
        ``solver="subgradient"`` (and :meth:`partial_fit`) only: initial
        step size; epoch ``t`` (from 0) steps ``eta0 / sqrt(t + 1)`` (paper
        App. F, grid 1e-4 ... 0.5).

    alpha : float, default=1e-4
        Weight of the regularisation ``alpha * ||w||^2`` added to the mean
        surrogate over groups (the paper's lambda).

    max_iter : int, default=200
        Maximum number of L-BFGS iterations, or of epochs (full subgradient
        steps) of Algorithm 1.

    tol : float or None, default=1e-4
        L-BFGS: stop when the largest entry of the gradient, each divided
        by its feature's largest absolute value (at least ``1e-3 sqrt(2
        alpha)``; 1 for a column of zeros: L-BFGS runs on the scaled
        coefficients), falls under ``tol`` times its value at the start
        (``None``: ``1e-10``); below 1 (a ``ValueError`` otherwise: L-BFGS
        would stop at the start).
        Algorithm 1: stop when the objective has not reached the best
        objective minus ``tol`` for ``n_iter_no_change`` consecutive epochs
        (``None``: run ``max_iter`` epochs).

    n_iter_no_change : int, default=10
        Number of iterations without improvement of the validation score
        (``early_stopping``), or of Algorithm 1's objective, before stopping.

    radius : float or None, default=None
        ``solver="subgradient"`` only: project every iterate on the L2 ball
        of this radius (the feasible set W of Algorithm 1).

    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of every group's relevant and of
        its irrelevant rows (:func:`skpapk.model_selection.within_group_split`,
        seeded by ``random_state``), score every iterate by micro-pAp@k on
        them, stop when that score has not reached its best plus ``tol``
        for ``n_iter_no_change`` iterations (never with ``tol=None``), and
        return the best scored iterate. ``X`` is copied once
        into its training and validation rows.

    validation_fraction : float, default=0.1
        Fraction of every group's rows of each label held out by
        ``early_stopping``.

    average : bool, default=False
        ``solver="subgradient"`` only: Polyak averaging, ``coef_`` is the mean
        of the iterates (see :class:`PApKAvgRanker`).

    warm_start : bool, default=False
        When True, :meth:`fit` continues from the previous solution (and,
        for Algorithm 1, its step count and running average).
        X must hold the previous fit's columns, and y its relevant
        label: other data raise a ValueError.

    random_state : int, RandomState instance or None, default=None
        Seeds the validation split of ``early_stopping`` (the only random
        step: without it, fits are deterministic).

    verbose : int, default=0
        Print the objective at every iteration.

    pos_label : int, float, bool, str or None, default=None
        The relevant label of ``y``; ``classes_`` ends with it. ``None``: the
        greater of two numbers (1 of 0/1, True of booleans); labels that are
        not numbers (``"clicked"``/``"not_clicked"``) need it, since their
        alphabetical order says nothing of relevance (a ``ValueError``).
        A ``pos_label`` that sorts first keeps ``classes_`` unsorted, which
        scikit-learn's classifier wrappers (``CalibratedClassifierCV``,
        ``BaggingClassifier``) and threshold scorers (``"roc_auc"``:
        1 - AUC) misread: see the user guide's model selection page.

    n_jobs : int or None, default=None
        Threads of the compiled pair kernel of the smooth surrogates (users
        are split among them, fewer threads when the work is small, about a
        million pairs a thread; ``coef_`` does not depend on their number).
        ``None``: the OpenMP threads this process may use, as
        :class:`~sklearn.ensemble.HistGradientBoostingClassifier` (every
        core, but one in each worker of a parallel search, or what
        ``threadpoolctl`` allows); ``-1``: every core. At most the cores
        this process may use. Ignored by the hinge surrogates.

    Attributes
    ----------
    coef_ : ndarray of float64 of shape (n_features,)
        The last iterate (the one the stopping rule stopped at, or the last
        finite one if the iterates diverged); the mean of the iterates with
        ``average=True``; the iterate (or mean) with the best validation
        micro-pAp@k with ``early_stopping=True``. Not the iterate with the
        lowest objective: on weakly separable data the surrogates are
        lowest near ``w = 0`` and that iterate ranks much worse on held-out
        data than the last one.

    classes_ : ndarray of shape (n_classes,)
        The labels of ``y``; the last one is the relevant label.

    n_iter_ : int
        Number of L-BFGS iterations, or of epochs of Algorithm 1, run by
        the last ``fit`` (1 after ``partial_fit``). An epoch of Algorithm 1
        evaluates the objective at its iterate, then steps; the epoch whose
        evaluation meets the ``tol`` rule stops without a step. So
        ``n_iter_`` is one more than the steps of the fit when ``tol``
        stopped Algorithm 1, and equal to them when ``max_iter`` or early
        stopping ended it.

    t_ : int
        Total number of steps since ``w_0`` (subgradient steps, or L-BFGS
        iterations), across ``partial_fit`` calls and warm starts: the next
        step size of Algorithm 1 is ``eta0 / sqrt(t_ + 1)``.

    diverged_ : bool
        Whether the iterates of the last fit diverged (non-finite scores;
        the last finite iterate is kept and a ``ConvergenceWarning`` said so).

    objective_curve_ : ndarray of shape (n_evaluations,)
        Objective (mean surrogate + ``alpha * ||w||^2``), on the data of
        the call that evaluated it. Algorithm 1 (``solver="subgradient"``,
        and :meth:`partial_fit`): at the iterate every epoch starts from,
        ``w_0, ..., w_(n_iter_ - 1)``, so of shape ``(n_iter_,)`` after a
        single ``fit``; when ``tol`` stopped it, its last value is that of
        the last iterate (``coef_``, unless ``average`` or
        ``early_stopping``); when ``max_iter`` or early stopping ended it,
        the last iterate, ``w_(n_iter_)``, is not evaluated. L-BFGS
        (``solver="lbfgs"``, the default for the smooth surrogates): at the
        start ``w_0`` and after every iteration, ``w_0, ..., w_n_iter_``
        (the last iterate included), so of shape ``(n_iter_ + 1,)`` after
        a single ``fit``. Warm starts and :meth:`partial_fit` calls append
        to it (the values of each call, as above).

    validation_scores_ : ndarray of shape (n_validated,) or None
        Validation micro-pAp@k of every iterate ``w_1, w_2, ...`` (of the
        running mean with ``average``) of the last ``fit``;
        ``None`` unless ``early_stopping``.

    best_validation_score_ : float or None
        The best of ``validation_scores_`` (the score of ``coef_``);
        ``None`` unless ``early_stopping``.

    n_groups_skipped_ : int
        Training groups (of the last ``partial_fit`` chunk) without a
        relevant or without an irrelevant row: they carry no pAp@k signal
        and are left out of the objective.

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when ``X`` has string column
        names.

    See Also
    --------
    PApKAvgRanker, PApKMaxRanker, PApKTSRanker, PApKRampRanker : The paper's
        surrogates and Algorithm 1, with the surrogate fixed.
    PApKBoostRanker : Gradient-boosted trees on the same smooth surrogates.
    skpapk.losses.surrogate_loss : The surrogates, their gradients.
    skpapk.metrics.papk_score : The pAp@k metric.

    Notes
    -----
    Why the default is not one of the paper's surrogates: on MovieLens
    100K the objectives of the avg, max and TS surrogates are lowest at or
    near ``w = 0``: with many noisy irrelevant items
    per user, the top-``k`` irrelevant items under any ``w`` outscore the relevant
    ones the hinge compares them with, so the hinge terms grow with ``||w||`` and
    Algorithm 1 returns an early iterate. The smooth pairwise loss of every pair has
    no such degenerate minimum and, with the inverse-variance weighting of users,
    ranks better on held-out micro-pAp@k than a logistic regression on the same
    features (test micro-pAp@k 48.5 / 57.3 / 61.5% at k = 8 / 16 / 24 with the
    defaults, against 48.0 / 56.7 / 60.9% for a logistic regression with ``C``
    tuned, mean of three splits); restricting the pairs to pAp@k's top ones
    (``"soft_papk"``) did not help there (fewer pairs, noisier estimates). The
    comparison with the rankers people use is in :doc:`/user_guide/benchmarks`.

    The avg surrogate is zero under the beta-margin condition (Def. 3) but,
    contrary to Proposition 3 of the paper, it is **not** an upper bound of
    the pAp@k risk (the proof swaps a min and a max in eq. 9).
    Counterexample: one group, ``k = 2``, positive scores ``(10, -1)`` and
    negative scores ``(0, -5)``: the pAp@k risk is 1/4 and the avg surrogate
    is 0.

    The TS closed form optimised here (Algorithm 2, App. eq. 27: margin 1
    for the top-beta positives under the current ``w``, 0 for the others)
    is an upper bound of the ramp surrogate, of the pAp@k risk and of the
    paper's eq. 14, but contrary to Section 4.3 of the paper it is not
    convex: with one group, ``k = 1``, positives ``(2, 0)``, ``(1, -2)``
    and negative ``(1, -1)`` it is 0 at ``w = (1, 0)`` and ``w = (1, -1)``
    and 1/2 at their midpoint.

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization
    and Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import PApKRanker
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> X = rng.normal(size=(400, 3)) - y[:, None]   # relevant rows lie lower
    >>> groups = np.repeat(np.arange(20), 20)        # 20 users, 20 items each
    >>> ranker = PApKRanker(k=5).fit(X, y, groups=groups)
    >>> ranker.coef_.shape
    (3,)
    >>> bool(ranker.score(X, y, groups=groups) > 0.7)
    True
    >>> rec = ranker.recommend(X, groups, k=2)
    >>> rec.indices[rec.indptr[0]:rec.indptr[1]].shape   # user 0's top 2 rows
    (2,)
    """

    #: The surrogates this ranker can train on (a part of ``SURROGATES``,
    #: which ``fit`` dispatches through); feeds the parameter validation.
    surrogate_functions = RANKER_SURROGATES

    #: The solvers; "auto" picks L-BFGS for the smooth surrogates.
    solvers = ("auto", *BaseLinearRanker._SOLVERS)

    _parameter_constraints: dict = {
        **BaseLinearRanker._parameter_constraints,
        "surrogate": [StrOptions(set(surrogate_functions))],
        "solver": [StrOptions(set(solvers))],
        "temperature": [Interval(Real, 0, None, closed="neither")],
        "group_weight": [StrOptions(set(GROUP_WEIGHTS))],
        "truncation_level": [Interval(Integral, 1, None, closed="left"), None],
        "n_jobs": [Interval(Integral, None, -1, closed="right"),
                   Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(self, surrogate=_defaults.SURROGATE, *, k=_defaults.K,
                 solver="auto", temperature=_defaults.TEMPERATURE,
                 group_weight=_defaults.GROUP_WEIGHT,
                 truncation_level=_defaults.TRUNCATION_LEVEL, eta0=_defaults.ETA0,
                 alpha=_defaults.ALPHA, max_iter=_defaults.MAX_ITER,
                 tol=_defaults.TOL, n_iter_no_change=_defaults.N_ITER_NO_CHANGE,
                 radius=None, early_stopping=False,
                 validation_fraction=_defaults.VALIDATION_FRACTION,
                 average=False, warm_start=False, random_state=None, verbose=0,
                 pos_label=None, n_jobs=None):
        self.surrogate = surrogate
        self.k = k
        self.solver = solver
        self.temperature = temperature
        self.group_weight = group_weight
        self.truncation_level = truncation_level
        self.eta0 = eta0
        self.alpha = alpha
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.radius = radius
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.average = average
        self.warm_start = warm_start
        self.random_state = random_state
        self.verbose = verbose
        self.pos_label = pos_label
        self.n_jobs = n_jobs

    def _n_threads(self):
        # None: the OpenMP threads this process may use, as HGB's
        return self.n_jobs

    def _get_surrogate(self):
        return get_surrogate(self.surrogate, temperature=self.temperature,
                             group_weight=self.group_weight,
                             truncation_level=self.truncation_level)

    def _get_solver(self, loss):
        if self.solver == "auto":
            return "lbfgs" if loss.smooth else "subgradient"
        if self.solver == "lbfgs" and not loss.smooth:
            raise ValueError(
                f"solver='lbfgs' needs a smooth surrogate "
                f"({', '.join(map(repr, SMOOTH_SURROGATES))}); surrogate="
                f"{self.surrogate!r} is piecewise linear: use "
                f"solver='subgradient' (the paper's Algorithm 1) or 'auto'."
            )
        return self.solver


class _FixedSurrogateRanker(BaseLinearRanker):
    """A :class:`PApKRanker` whose surrogate is fixed by the class."""

    _surrogate = None

    def __init__(self, *, k=_defaults.K, eta0=_defaults.ETA0,
                 alpha=_defaults.HINGE_ALPHA, max_iter=_defaults.MAX_ITER,
                 tol=_defaults.TOL, n_iter_no_change=_defaults.N_ITER_NO_CHANGE,
                 radius=None, early_stopping=False,
                 validation_fraction=_defaults.VALIDATION_FRACTION,
                 average=False, warm_start=False,
                 random_state=None, verbose=0, pos_label=None):
        self.k = k
        self.eta0 = eta0
        self.alpha = alpha
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.radius = radius
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.average = average
        self.warm_start = warm_start
        self.random_state = random_state
        self.verbose = verbose
        self.pos_label = pos_label

    def _get_surrogate(self):
        return SURROGATES[self._surrogate]()


class PApKAvgRanker(_FixedSurrogateRanker):
    """Linear ranker trained on the avg surrogate of pAp@k (GD-pAp@k-avg).

    Group surrogate (eq. 10): ``(1/k') * sum_j h(1 + N_j - mean(P))``
    over the top-``k'`` irrelevant scores ``N_j`` (``k' = min(k, n-)``)
    against the mean score of all the relevant rows; convex.

    The avg surrogate is zero under the beta-margin condition (Def. 3) but,
    contrary to Proposition 3 of the paper, it is **not** an upper bound of
    the pAp@k risk (the proof swaps a min and a max in eq. 9).
    Counterexample: one group, ``k = 2``, positive scores ``(10, -1)`` and
    negative scores ``(0, -5)``: the pAp@k risk is 1/4 and the avg surrogate
    is 0.

    Training is the paper's Algorithm 1: ``w_0 = 0``,
    ``w_(t+1) = Proj_W(w_t - eta0 / sqrt(t + 1) * g_t)`` with ``g_t`` a
    subgradient (Algorithm 2) of the mean surrogate over groups plus
    ``alpha * ||w||^2``. ``fit(X, y, groups, coef_init=w0)`` starts at
    ``w0`` instead (the authors' code starts at ``w_0 ~ N(0, I)``). Each
    epoch costs one ``X @ w``, one ``X.T @ c`` and O(n log n) sorting;
    ``X`` (dense or CSR, float32 or float64) is not copied. Ties among scores
    are broken by row order (stable sort), so the same data and parameters
    give a bit-identical ``coef_`` (rows in another order may not: at the
    zero start every score ties, so the first subgradient follows the
    order).
    :meth:`partial_fit` makes one step per chunk of whole groups, for data
    larger than memory.

    Input handling: NaN or infinite features, non-binary ``y`` and
    ``groups`` of the wrong length or of mixed types raise errors naming
    the argument; duplicated rows are separate items (each takes a place in
    the top ``k``); groups with one label only are skipped. A step size too
    large for the scale of the features (e.g. features near 1e300) stops
    the fit at the first non-finite iterate with a ``ConvergenceWarning``
    naming ``eta0`` and keeps the last finite one.

    Parameters
    ----------
    k : int, default=10
        Number of items shown to each user: the ``k`` of pAp@k, used by the
        surrogate in training and by :meth:`score` and :meth:`recommend`.

    eta0 : float, default=1.0
        Initial step size: epoch ``t`` (from 0) steps
        ``eta0 / sqrt(t + 1)`` (paper App. F, grid 1e-4 ... 0.5).

    alpha : float, default=1e-3
        Weight of the regularisation ``alpha * ||w||^2`` added to the mean
        surrogate over groups (the paper's lambda).

    max_iter : int, default=200
        Maximum number of epochs (full subgradient steps).

    tol : float or None, default=1e-4
        Stop when the objective has not reached the best objective minus
        ``tol`` for ``n_iter_no_change`` consecutive epochs. ``None`` runs
        ``max_iter`` epochs.

    n_iter_no_change : int, default=10
        Number of epochs without improvement (of the objective, or of the
        validation score with ``early_stopping``) before stopping.

    radius : float or None, default=None
        Project every iterate on the L2 ball of this radius (the feasible
        set W of Algorithm 1). ``None``: no projection.

    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of every group's relevant and of
        its irrelevant rows (:func:`skpapk.model_selection.within_group_split`,
        seeded by ``random_state``), score every iterate by micro-pAp@k on
        them, stop when that score has not reached its best plus ``tol``
        for ``n_iter_no_change`` epochs, and return the best scored iterate,
        as :class:`sklearn.linear_model.SGDClassifier` does (the training
        objective then plays no part in stopping). The paper instead picks
        the epoch budget by validation (App. F). ``X`` is copied once into
        its training and validation rows. Not used by :meth:`partial_fit`.

    validation_fraction : float, default=0.1
        Fraction of every group's rows of each label held out by
        ``early_stopping``; a group needs both labels among them to be
        scored (an error is raised when no group has).

    average : bool, default=False
        Polyak averaging (``SGDClassifier``'s ``average=True``): ``coef_`` is
        the mean of the iterates ``w_1, ..., w_T`` rather than the last one.
        The running mean is updated at every step, across ``partial_fit``
        calls and warm starts; with ``early_stopping`` the averaged iterate
        is the one scored on validation and kept. The stopping rule without
        ``early_stopping`` still follows the objective of the iterates
        themselves.

    warm_start : bool, default=False
        When True, :meth:`fit` continues the previous optimisation: from the
        last iterate, the running average and the step count ``t_`` of the
        previous ``fit``/``partial_fit`` (the step size keeps decaying as
        ``eta0 / sqrt(t + 1)``; so ``fit`` with ``max_iter=a`` then ``b``
        and ``tol=None`` equals one ``fit`` of ``a + b`` epochs). Unlike
        ``SGDClassifier``, whose warm start restarts its learning-rate
        schedule from ``coef_``, the iterate continued is the solver's last
        one, which is ``coef_`` unless ``average`` or ``early_stopping``.
        The stopping records (best objective, validation scores) restart.
        X must hold the previous fit's columns, and y its relevant
        label: other data raise a ValueError.

    random_state : int, RandomState instance or None, default=None
        Seeds the validation split of ``early_stopping`` (the only random
        step: without it, fits are deterministic).

    verbose : int, default=0
        Print the objective and the training micro-pAp@k at every epoch
        and the number of skipped groups.

    pos_label : int, float, bool, str or None, default=None
        The relevant label of ``y``; ``classes_`` ends with it. ``None``: the
        greater of two numbers (1 of 0/1, True of booleans); labels that are
        not numbers (``"clicked"``/``"not_clicked"``) need it, since their
        alphabetical order says nothing of relevance (a ``ValueError``).
        A ``pos_label`` that sorts first keeps ``classes_`` unsorted, which
        scikit-learn's classifier wrappers (``CalibratedClassifierCV``,
        ``BaggingClassifier``) and threshold scorers (``"roc_auc"``:
        1 - AUC) misread: see the user guide's model selection page.

    Attributes
    ----------
    coef_ : ndarray of float64 of shape (n_features,)
        The last iterate (the one the stopping rule stopped at, or the last
        finite one if the iterates diverged); the mean of the iterates with
        ``average=True``; the iterate (or mean) with the best validation
        micro-pAp@k with ``early_stopping=True``. Not the iterate with the
        lowest objective: on weakly separable data the surrogates are
        lowest near ``w = 0`` and that iterate ranks much worse on held-out
        data than the last one.

    classes_ : ndarray of shape (n_classes,)
        The labels of ``y``; the last one is the relevant label.

    n_iter_ : int
        Number of epochs run by the last ``fit`` (1 after ``partial_fit``).
        An epoch evaluates the objective at its iterate, then steps; the
        epoch whose evaluation meets the ``tol`` rule stops without a
        step. So ``n_iter_`` is one more than the steps of the fit when
        ``tol`` stopped it, and equal to them when ``max_iter`` or early
        stopping ended it.

    t_ : int
        Total number of subgradient steps since ``w_0``, across
        ``partial_fit`` calls and warm starts: the next step size is
        ``eta0 / sqrt(t_ + 1)``.

    diverged_ : bool
        Whether the iterates of the last fit diverged (non-finite scores;
        the last finite iterate is kept and a ``ConvergenceWarning`` said so).

    objective_curve_ : ndarray of shape (n_evaluations,)
        Objective (mean surrogate + ``alpha * ||w||^2``) at the iterate
        every epoch starts from, ``w_0, ..., w_(n_iter_ - 1)``, on the data
        of the call that evaluated it: of shape ``(n_iter_,)`` after a
        single ``fit``. When ``tol`` stopped the fit, its last value is
        that of the last iterate (``coef_``, unless ``average`` or
        ``early_stopping``); when ``max_iter`` or early stopping ended it,
        the last iterate, ``w_(n_iter_)``, is not evaluated. Warm starts and
        :meth:`partial_fit` calls append to it (``n_iter_`` values each).

    validation_scores_ : ndarray of shape (n_validated,) or None
        Validation micro-pAp@k of every iterate ``w_1, w_2, ...`` (of the
        running mean with ``average``) of the last ``fit``;
        ``None`` unless ``early_stopping``.

    best_validation_score_ : float or None
        The best of ``validation_scores_`` (the score of ``coef_``);
        ``None`` unless ``early_stopping``.

    n_groups_skipped_ : int
        Training groups (of the last ``partial_fit`` chunk) without a
        relevant or without an irrelevant row: they carry no pAp@k signal
        and are left out of the objective.

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when ``X`` has string column
        names.

    See Also
    --------
    PApKRanker : The same with the surrogate as a parameter.
    skpapk.metrics.papk_score : The pAp@k metric.
    skpapk.losses.surrogate_loss : The surrogates and their subgradients.

    Notes
    -----
    The surrogates are hinges with margin 1 against each group's top ``k'``
    irrelevant items. At ``w = 0`` every hinge is active (each surrogate is
    1), and the slope along a direction ``d`` is, averaged over groups, the
    mean score of the top ``k'`` irrelevant items minus the mean score of
    relevant ones (all of them for avg and pAUC, the bottom ``min(k, n+)``
    for max, the top ones for ramp and TS). With many irrelevant items per
    group and weakly separating features that slope is positive for every
    ``d``: the surrogates grow with ``||w||`` and ``w = 0`` minimises them
    (on MovieLens 100K at ``k = 8``, a linear program finds no descent
    direction for avg or max). The solver then never gets the objective
    below its value at ``w_0`` (a ``ConvergenceWarning`` says so) and
    ``coef_`` is an early iterate whose direction hardly depends on
    ``eta0`` while ``alpha`` is small (cosine >= 0.995 over the paper's
    ``eta0`` for ``alpha <= 1e-3``; it turns at ``alpha = 1``); while every
    hinge is active, avg and pAUC take the same steps, so
    :class:`PApKAvgRanker` and :class:`PAUCRanker` return the same
    ``coef_``. The avg ranker's default fit still beats a random ranking
    there (test micro-pAp@8 41.6% against 34.1%) but not a logistic
    regression (47.5%); see :doc:`/user_guide/benchmarks`.

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization
    and Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import PApKAvgRanker
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> X = rng.normal(size=(400, 3)) - y[:, None]   # relevant rows lie lower
    >>> groups = np.repeat(np.arange(20), 20)        # 20 users, 20 items each
    >>> ranker = PApKAvgRanker(k=5).fit(X, y, groups=groups)
    >>> ranker.coef_.shape
    (3,)
    >>> bool(ranker.score(X, y, groups=groups) > 0.7)
    True
    >>> rec = ranker.recommend(X, groups, k=2)
    >>> rec.indices[rec.indptr[0]:rec.indptr[1]].shape   # user 0's top 2 rows
    (2,)
    """
    _surrogate = "avg"


class PApKMaxRanker(_FixedSurrogateRanker):
    """Linear ranker trained on the max surrogate of pAp@k (GD-pAp@k-max).

    Group surrogate (eq. 24, App. C):
    ``(1/(beta k')) * sum_{i in bottom beta} sum_j h(1 - (P_i - N_j))``, the
    bottom ``beta = min(k, n+)`` relevant scores against the top ``k'``
    irrelevant ones. Convex, an upper bound of the avg and ramp surrogates
    and of the pAp@k risk; zero under the strong beta-margin condition
    (Def. 5, Prop. 6).

    Training is the paper's Algorithm 1: ``w_0 = 0``,
    ``w_(t+1) = Proj_W(w_t - eta0 / sqrt(t + 1) * g_t)`` with ``g_t`` a
    subgradient (Algorithm 2) of the mean surrogate over groups plus
    ``alpha * ||w||^2``. ``fit(X, y, groups, coef_init=w0)`` starts at
    ``w0`` instead (the authors' code starts at ``w_0 ~ N(0, I)``). Each
    epoch costs one ``X @ w``, one ``X.T @ c`` and O(n log n) sorting;
    ``X`` (dense or CSR, float32 or float64) is not copied. Ties among scores
    are broken by row order (stable sort), so the same data and parameters
    give a bit-identical ``coef_`` (rows in another order may not: at the
    zero start every score ties, so the first subgradient follows the
    order).
    :meth:`partial_fit` makes one step per chunk of whole groups, for data
    larger than memory.

    Input handling: NaN or infinite features, non-binary ``y`` and
    ``groups`` of the wrong length or of mixed types raise errors naming
    the argument; duplicated rows are separate items (each takes a place in
    the top ``k``); groups with one label only are skipped. A step size too
    large for the scale of the features (e.g. features near 1e300) stops
    the fit at the first non-finite iterate with a ``ConvergenceWarning``
    naming ``eta0`` and keeps the last finite one.

    Parameters
    ----------
    k : int, default=10
        Number of items shown to each user: the ``k`` of pAp@k, used by the
        surrogate in training and by :meth:`score` and :meth:`recommend`.

    eta0 : float, default=1.0
        Initial step size: epoch ``t`` (from 0) steps
        ``eta0 / sqrt(t + 1)`` (paper App. F, grid 1e-4 ... 0.5).

    alpha : float, default=1e-3
        Weight of the regularisation ``alpha * ||w||^2`` added to the mean
        surrogate over groups (the paper's lambda).

    max_iter : int, default=200
        Maximum number of epochs (full subgradient steps).

    tol : float or None, default=1e-4
        Stop when the objective has not reached the best objective minus
        ``tol`` for ``n_iter_no_change`` consecutive epochs. ``None`` runs
        ``max_iter`` epochs.

    n_iter_no_change : int, default=10
        Number of epochs without improvement (of the objective, or of the
        validation score with ``early_stopping``) before stopping.

    radius : float or None, default=None
        Project every iterate on the L2 ball of this radius (the feasible
        set W of Algorithm 1). ``None``: no projection.

    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of every group's relevant and of
        its irrelevant rows (:func:`skpapk.model_selection.within_group_split`,
        seeded by ``random_state``), score every iterate by micro-pAp@k on
        them, stop when that score has not reached its best plus ``tol``
        for ``n_iter_no_change`` epochs, and return the best scored iterate,
        as :class:`sklearn.linear_model.SGDClassifier` does (the training
        objective then plays no part in stopping). The paper instead picks
        the epoch budget by validation (App. F). ``X`` is copied once into
        its training and validation rows. Not used by :meth:`partial_fit`.

    validation_fraction : float, default=0.1
        Fraction of every group's rows of each label held out by
        ``early_stopping``; a group needs both labels among them to be
        scored (an error is raised when no group has).

    average : bool, default=False
        Polyak averaging (``SGDClassifier``'s ``average=True``): ``coef_`` is
        the mean of the iterates ``w_1, ..., w_T`` rather than the last one.
        The running mean is updated at every step, across ``partial_fit``
        calls and warm starts; with ``early_stopping`` the averaged iterate
        is the one scored on validation and kept. The stopping rule without
        ``early_stopping`` still follows the objective of the iterates
        themselves.

    warm_start : bool, default=False
        When True, :meth:`fit` continues the previous optimisation: from the
        last iterate, the running average and the step count ``t_`` of the
        previous ``fit``/``partial_fit`` (the step size keeps decaying as
        ``eta0 / sqrt(t + 1)``; so ``fit`` with ``max_iter=a`` then ``b``
        and ``tol=None`` equals one ``fit`` of ``a + b`` epochs). Unlike
        ``SGDClassifier``, whose warm start restarts its learning-rate
        schedule from ``coef_``, the iterate continued is the solver's last
        one, which is ``coef_`` unless ``average`` or ``early_stopping``.
        The stopping records (best objective, validation scores) restart.
        X must hold the previous fit's columns, and y its relevant
        label: other data raise a ValueError.

    random_state : int, RandomState instance or None, default=None
        Seeds the validation split of ``early_stopping`` (the only random
        step: without it, fits are deterministic).

    verbose : int, default=0
        Print the objective and the training micro-pAp@k at every epoch
        and the number of skipped groups.

    pos_label : int, float, bool, str or None, default=None
        The relevant label of ``y``; ``classes_`` ends with it. ``None``: the
        greater of two numbers (1 of 0/1, True of booleans); labels that are
        not numbers (``"clicked"``/``"not_clicked"``) need it, since their
        alphabetical order says nothing of relevance (a ``ValueError``).
        A ``pos_label`` that sorts first keeps ``classes_`` unsorted, which
        scikit-learn's classifier wrappers (``CalibratedClassifierCV``,
        ``BaggingClassifier``) and threshold scorers (``"roc_auc"``:
        1 - AUC) misread: see the user guide's model selection page.

    Attributes
    ----------
    coef_ : ndarray of float64 of shape (n_features,)
        The last iterate (the one the stopping rule stopped at, or the last
        finite one if the iterates diverged); the mean of the iterates with
        ``average=True``; the iterate (or mean) with the best validation
        micro-pAp@k with ``early_stopping=True``. Not the iterate with the
        lowest objective: on weakly separable data the surrogates are
        lowest near ``w = 0`` and that iterate ranks much worse on held-out
        data than the last one.

    classes_ : ndarray of shape (n_classes,)
        The labels of ``y``; the last one is the relevant label.

    n_iter_ : int
        Number of epochs run by the last ``fit`` (1 after ``partial_fit``).
        An epoch evaluates the objective at its iterate, then steps; the
        epoch whose evaluation meets the ``tol`` rule stops without a
        step. So ``n_iter_`` is one more than the steps of the fit when
        ``tol`` stopped it, and equal to them when ``max_iter`` or early
        stopping ended it.

    t_ : int
        Total number of subgradient steps since ``w_0``, across
        ``partial_fit`` calls and warm starts: the next step size is
        ``eta0 / sqrt(t_ + 1)``.

    diverged_ : bool
        Whether the iterates of the last fit diverged (non-finite scores;
        the last finite iterate is kept and a ``ConvergenceWarning`` said so).

    objective_curve_ : ndarray of shape (n_evaluations,)
        Objective (mean surrogate + ``alpha * ||w||^2``) at the iterate
        every epoch starts from, ``w_0, ..., w_(n_iter_ - 1)``, on the data
        of the call that evaluated it: of shape ``(n_iter_,)`` after a
        single ``fit``. When ``tol`` stopped the fit, its last value is
        that of the last iterate (``coef_``, unless ``average`` or
        ``early_stopping``); when ``max_iter`` or early stopping ended it,
        the last iterate, ``w_(n_iter_)``, is not evaluated. Warm starts and
        :meth:`partial_fit` calls append to it (``n_iter_`` values each).

    validation_scores_ : ndarray of shape (n_validated,) or None
        Validation micro-pAp@k of every iterate ``w_1, w_2, ...`` (of the
        running mean with ``average``) of the last ``fit``;
        ``None`` unless ``early_stopping``.

    best_validation_score_ : float or None
        The best of ``validation_scores_`` (the score of ``coef_``);
        ``None`` unless ``early_stopping``.

    n_groups_skipped_ : int
        Training groups (of the last ``partial_fit`` chunk) without a
        relevant or without an irrelevant row: they carry no pAp@k signal
        and are left out of the objective.

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when ``X`` has string column
        names.

    See Also
    --------
    PApKRanker : The same with the surrogate as a parameter.
    skpapk.metrics.papk_score : The pAp@k metric.
    skpapk.losses.surrogate_loss : The surrogates and their subgradients.

    Notes
    -----
    The surrogates are hinges with margin 1 against each group's top ``k'``
    irrelevant items. At ``w = 0`` every hinge is active (each surrogate is
    1), and the slope along a direction ``d`` is, averaged over groups, the
    mean score of the top ``k'`` irrelevant items minus the mean score of
    relevant ones (all of them for avg and pAUC, the bottom ``min(k, n+)``
    for max, the top ones for ramp and TS). With many irrelevant items per
    group and weakly separating features that slope is positive for every
    ``d``: the surrogates grow with ``||w||`` and ``w = 0`` minimises them
    (on MovieLens 100K at ``k = 8``, a linear program finds no descent
    direction for avg or max). The solver then never gets the objective
    below its value at ``w_0`` (a ``ConvergenceWarning`` says so) and
    ``coef_`` is an early iterate whose direction hardly depends on
    ``eta0`` while ``alpha`` is small (cosine >= 0.995 over the paper's
    ``eta0`` for ``alpha <= 1e-3``; it turns at ``alpha = 1``); while every
    hinge is active, avg and pAUC take the same steps, so
    :class:`PApKAvgRanker` and :class:`PAUCRanker` return the same
    ``coef_``. The avg ranker's default fit still beats a random ranking
    there (test micro-pAp@8 41.6% against 34.1%) but not a logistic
    regression (47.5%); see :doc:`/user_guide/benchmarks`.

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization
    and Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import PApKMaxRanker
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> X = rng.normal(size=(400, 3)) - y[:, None]   # relevant rows lie lower
    >>> groups = np.repeat(np.arange(20), 20)        # 20 users, 20 items each
    >>> ranker = PApKMaxRanker(k=5).fit(X, y, groups=groups)
    >>> ranker.coef_.shape
    (3,)
    >>> bool(ranker.score(X, y, groups=groups) > 0.7)
    True
    >>> rec = ranker.recommend(X, groups, k=2)
    >>> rec.indices[rec.indptr[0]:rec.indptr[1]].shape   # user 0's top 2 rows
    (2,)
    """
    _surrogate = "max"


class PApKTSRanker(_FixedSurrogateRanker):
    """Linear ranker trained on the tight-struct surrogate of pAp@k (GD-pAp@k-TS).

    Group surrogate, as Algorithm 2 computes it (App. eq. 27):
    ``(1/(beta k')) * sum_{all i} sum_j h(m_i - (P_i - N_j))`` with
    ``m_i = 1`` for the top ``beta`` relevant rows and 0 for the others.
    Zero under the moderate beta-margin condition (Def. 4, Prop. 4).

    This closed form (the authors' code computes it too) is an upper bound
    of the ramp surrogate, of the pAp@k risk and of the paper's eq. 14, which
    it can exceed (App. D.3 maximises eq. 22 pair by pair, which need not
    give a valid ordering matrix: see
    :class:`~skpapk.losses.TightStructSurrogate`). Eq. 14 is convex; this
    closed form is not, contrary to Section 4.3 of the paper: with one
    group, ``k = 1``, positives ``(2, 0)``, ``(1, -2)`` and negative
    ``(1, -1)`` it is 0 at ``w = (1, 0)`` and ``w = (1, -1)`` and 1/2 at
    their midpoint.

    Training is the paper's Algorithm 1: ``w_0 = 0``,
    ``w_(t+1) = Proj_W(w_t - eta0 / sqrt(t + 1) * g_t)`` with ``g_t`` a
    subgradient (Algorithm 2) of the mean surrogate over groups plus
    ``alpha * ||w||^2``. ``fit(X, y, groups, coef_init=w0)`` starts at
    ``w0`` instead (the authors' code starts at ``w_0 ~ N(0, I)``). Each
    epoch costs one ``X @ w``, one ``X.T @ c`` and O(n log n) sorting;
    ``X`` (dense or CSR, float32 or float64) is not copied. Ties among scores
    are broken by row order (stable sort), so the same data and parameters
    give a bit-identical ``coef_`` (rows in another order may not: at the
    zero start every score ties, so the first subgradient follows the
    order).
    :meth:`partial_fit` makes one step per chunk of whole groups, for data
    larger than memory.

    Input handling: NaN or infinite features, non-binary ``y`` and
    ``groups`` of the wrong length or of mixed types raise errors naming
    the argument; duplicated rows are separate items (each takes a place in
    the top ``k``); groups with one label only are skipped. A step size too
    large for the scale of the features (e.g. features near 1e300) stops
    the fit at the first non-finite iterate with a ``ConvergenceWarning``
    naming ``eta0`` and keeps the last finite one.

    Parameters
    ----------
    k : int, default=10
        Number of items shown to each user: the ``k`` of pAp@k, used by the
        surrogate in training and by :meth:`score` and :meth:`recommend`.

    eta0 : float, default=1.0
        Initial step size: epoch ``t`` (from 0) steps
        ``eta0 / sqrt(t + 1)`` (paper App. F, grid 1e-4 ... 0.5).

    alpha : float, default=1e-3
        Weight of the regularisation ``alpha * ||w||^2`` added to the mean
        surrogate over groups (the paper's lambda).

    max_iter : int, default=200
        Maximum number of epochs (full subgradient steps).

    tol : float or None, default=1e-4
        Stop when the objective has not reached the best objective minus
        ``tol`` for ``n_iter_no_change`` consecutive epochs. ``None`` runs
        ``max_iter`` epochs.

    n_iter_no_change : int, default=10
        Number of epochs without improvement (of the objective, or of the
        validation score with ``early_stopping``) before stopping.

    radius : float or None, default=None
        Project every iterate on the L2 ball of this radius (the feasible
        set W of Algorithm 1). ``None``: no projection.

    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of every group's relevant and of
        its irrelevant rows (:func:`skpapk.model_selection.within_group_split`,
        seeded by ``random_state``), score every iterate by micro-pAp@k on
        them, stop when that score has not reached its best plus ``tol``
        for ``n_iter_no_change`` epochs, and return the best scored iterate,
        as :class:`sklearn.linear_model.SGDClassifier` does (the training
        objective then plays no part in stopping). The paper instead picks
        the epoch budget by validation (App. F). ``X`` is copied once into
        its training and validation rows. Not used by :meth:`partial_fit`.

    validation_fraction : float, default=0.1
        Fraction of every group's rows of each label held out by
        ``early_stopping``; a group needs both labels among them to be
        scored (an error is raised when no group has).

    average : bool, default=False
        Polyak averaging (``SGDClassifier``'s ``average=True``): ``coef_`` is
        the mean of the iterates ``w_1, ..., w_T`` rather than the last one.
        The running mean is updated at every step, across ``partial_fit``
        calls and warm starts; with ``early_stopping`` the averaged iterate
        is the one scored on validation and kept. The stopping rule without
        ``early_stopping`` still follows the objective of the iterates
        themselves.

    warm_start : bool, default=False
        When True, :meth:`fit` continues the previous optimisation: from the
        last iterate, the running average and the step count ``t_`` of the
        previous ``fit``/``partial_fit`` (the step size keeps decaying as
        ``eta0 / sqrt(t + 1)``; so ``fit`` with ``max_iter=a`` then ``b``
        and ``tol=None`` equals one ``fit`` of ``a + b`` epochs). Unlike
        ``SGDClassifier``, whose warm start restarts its learning-rate
        schedule from ``coef_``, the iterate continued is the solver's last
        one, which is ``coef_`` unless ``average`` or ``early_stopping``.
        The stopping records (best objective, validation scores) restart.
        X must hold the previous fit's columns, and y its relevant
        label: other data raise a ValueError.

    random_state : int, RandomState instance or None, default=None
        Seeds the validation split of ``early_stopping`` (the only random
        step: without it, fits are deterministic).

    verbose : int, default=0
        Print the objective and the training micro-pAp@k at every epoch
        and the number of skipped groups.

    pos_label : int, float, bool, str or None, default=None
        The relevant label of ``y``; ``classes_`` ends with it. ``None``: the
        greater of two numbers (1 of 0/1, True of booleans); labels that are
        not numbers (``"clicked"``/``"not_clicked"``) need it, since their
        alphabetical order says nothing of relevance (a ``ValueError``).
        A ``pos_label`` that sorts first keeps ``classes_`` unsorted, which
        scikit-learn's classifier wrappers (``CalibratedClassifierCV``,
        ``BaggingClassifier``) and threshold scorers (``"roc_auc"``:
        1 - AUC) misread: see the user guide's model selection page.

    Attributes
    ----------
    coef_ : ndarray of float64 of shape (n_features,)
        The last iterate (the one the stopping rule stopped at, or the last
        finite one if the iterates diverged); the mean of the iterates with
        ``average=True``; the iterate (or mean) with the best validation
        micro-pAp@k with ``early_stopping=True``. Not the iterate with the
        lowest objective: on weakly separable data the surrogates are
        lowest near ``w = 0`` and that iterate ranks much worse on held-out
        data than the last one.

    classes_ : ndarray of shape (n_classes,)
        The labels of ``y``; the last one is the relevant label.

    n_iter_ : int
        Number of epochs run by the last ``fit`` (1 after ``partial_fit``).
        An epoch evaluates the objective at its iterate, then steps; the
        epoch whose evaluation meets the ``tol`` rule stops without a
        step. So ``n_iter_`` is one more than the steps of the fit when
        ``tol`` stopped it, and equal to them when ``max_iter`` or early
        stopping ended it.

    t_ : int
        Total number of subgradient steps since ``w_0``, across
        ``partial_fit`` calls and warm starts: the next step size is
        ``eta0 / sqrt(t_ + 1)``.

    diverged_ : bool
        Whether the iterates of the last fit diverged (non-finite scores;
        the last finite iterate is kept and a ``ConvergenceWarning`` said so).

    objective_curve_ : ndarray of shape (n_evaluations,)
        Objective (mean surrogate + ``alpha * ||w||^2``) at the iterate
        every epoch starts from, ``w_0, ..., w_(n_iter_ - 1)``, on the data
        of the call that evaluated it: of shape ``(n_iter_,)`` after a
        single ``fit``. When ``tol`` stopped the fit, its last value is
        that of the last iterate (``coef_``, unless ``average`` or
        ``early_stopping``); when ``max_iter`` or early stopping ended it,
        the last iterate, ``w_(n_iter_)``, is not evaluated. Warm starts and
        :meth:`partial_fit` calls append to it (``n_iter_`` values each).

    validation_scores_ : ndarray of shape (n_validated,) or None
        Validation micro-pAp@k of every iterate ``w_1, w_2, ...`` (of the
        running mean with ``average``) of the last ``fit``;
        ``None`` unless ``early_stopping``.

    best_validation_score_ : float or None
        The best of ``validation_scores_`` (the score of ``coef_``);
        ``None`` unless ``early_stopping``.

    n_groups_skipped_ : int
        Training groups (of the last ``partial_fit`` chunk) without a
        relevant or without an irrelevant row: they carry no pAp@k signal
        and are left out of the objective.

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when ``X`` has string column
        names.

    See Also
    --------
    PApKRanker : The same with the surrogate as a parameter.
    skpapk.metrics.papk_score : The pAp@k metric.
    skpapk.losses.surrogate_loss : The surrogates and their subgradients.

    Notes
    -----
    The surrogates are hinges with margin 1 against each group's top ``k'``
    irrelevant items. At ``w = 0`` every hinge is active (each surrogate is
    1), and the slope along a direction ``d`` is, averaged over groups, the
    mean score of the top ``k'`` irrelevant items minus the mean score of
    relevant ones (all of them for avg and pAUC, the bottom ``min(k, n+)``
    for max, the top ones for ramp and TS). With many irrelevant items per
    group and weakly separating features that slope is positive for every
    ``d``: the surrogates grow with ``||w||`` and ``w = 0`` minimises them
    (on MovieLens 100K at ``k = 8``, a linear program finds no descent
    direction for avg or max). The solver then never gets the objective
    below its value at ``w_0`` (a ``ConvergenceWarning`` says so) and
    ``coef_`` is an early iterate whose direction hardly depends on
    ``eta0`` while ``alpha`` is small (cosine >= 0.995 over the paper's
    ``eta0`` for ``alpha <= 1e-3``; it turns at ``alpha = 1``); while every
    hinge is active, avg and pAUC take the same steps, so
    :class:`PApKAvgRanker` and :class:`PAUCRanker` return the same
    ``coef_``. The avg ranker's default fit still beats a random ranking
    there (test micro-pAp@8 41.6% against 34.1%) but not a logistic
    regression (47.5%); see :doc:`/user_guide/benchmarks`.

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization
    and Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import PApKTSRanker
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> X = rng.normal(size=(400, 3)) - y[:, None]   # relevant rows lie lower
    >>> groups = np.repeat(np.arange(20), 20)        # 20 users, 20 items each
    >>> ranker = PApKTSRanker(k=5).fit(X, y, groups=groups)
    >>> ranker.coef_.shape
    (3,)
    >>> bool(ranker.score(X, y, groups=groups) > 0.7)
    True
    >>> rec = ranker.recommend(X, groups, k=2)
    >>> rec.indices[rec.indptr[0]:rec.indptr[1]].shape   # user 0's top 2 rows
    (2,)
    """
    _surrogate = "ts"


class PApKRampRanker(_FixedSurrogateRanker):
    """Linear ranker trained on the ramp surrogate of pAp@k.

    Group surrogate (eq. 6):
    ``(1/(beta k')) * sum_{i in top beta} sum_j h(1 - (P_i - N_j))``: an
    upper bound of the pAp@k risk, below the max and TS surrogates (the
    tightest of the paper's bounds; the avg surrogate can be lower, but is
    not a bound), zero under the weak beta-margin condition (Def. 2,
    Prop. 1), non-convex when ``n+ > k`` (Prop. 2).

    Training is the paper's Algorithm 1: ``w_0 = 0``,
    ``w_(t+1) = Proj_W(w_t - eta0 / sqrt(t + 1) * g_t)`` with ``g_t`` a
    subgradient (Algorithm 2) of the mean surrogate over groups plus
    ``alpha * ||w||^2``. ``fit(X, y, groups, coef_init=w0)`` starts at
    ``w0`` instead (the authors' code starts at ``w_0 ~ N(0, I)``). Each
    epoch costs one ``X @ w``, one ``X.T @ c`` and O(n log n) sorting;
    ``X`` (dense or CSR, float32 or float64) is not copied. Ties among scores
    are broken by row order (stable sort), so the same data and parameters
    give a bit-identical ``coef_`` (rows in another order may not: at the
    zero start every score ties, so the first subgradient follows the
    order).
    :meth:`partial_fit` makes one step per chunk of whole groups, for data
    larger than memory.

    Input handling: NaN or infinite features, non-binary ``y`` and
    ``groups`` of the wrong length or of mixed types raise errors naming
    the argument; duplicated rows are separate items (each takes a place in
    the top ``k``); groups with one label only are skipped. A step size too
    large for the scale of the features (e.g. features near 1e300) stops
    the fit at the first non-finite iterate with a ``ConvergenceWarning``
    naming ``eta0`` and keeps the last finite one.

    Parameters
    ----------
    k : int, default=10
        Number of items shown to each user: the ``k`` of pAp@k, used by the
        surrogate in training and by :meth:`score` and :meth:`recommend`.

    eta0 : float, default=1.0
        Initial step size: epoch ``t`` (from 0) steps
        ``eta0 / sqrt(t + 1)`` (paper App. F, grid 1e-4 ... 0.5).

    alpha : float, default=1e-3
        Weight of the regularisation ``alpha * ||w||^2`` added to the mean
        surrogate over groups (the paper's lambda).

    max_iter : int, default=200
        Maximum number of epochs (full subgradient steps).

    tol : float or None, default=1e-4
        Stop when the objective has not reached the best objective minus
        ``tol`` for ``n_iter_no_change`` consecutive epochs. ``None`` runs
        ``max_iter`` epochs.

    n_iter_no_change : int, default=10
        Number of epochs without improvement (of the objective, or of the
        validation score with ``early_stopping``) before stopping.

    radius : float or None, default=None
        Project every iterate on the L2 ball of this radius (the feasible
        set W of Algorithm 1). ``None``: no projection.

    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of every group's relevant and of
        its irrelevant rows (:func:`skpapk.model_selection.within_group_split`,
        seeded by ``random_state``), score every iterate by micro-pAp@k on
        them, stop when that score has not reached its best plus ``tol``
        for ``n_iter_no_change`` epochs, and return the best scored iterate,
        as :class:`sklearn.linear_model.SGDClassifier` does (the training
        objective then plays no part in stopping). The paper instead picks
        the epoch budget by validation (App. F). ``X`` is copied once into
        its training and validation rows. Not used by :meth:`partial_fit`.

    validation_fraction : float, default=0.1
        Fraction of every group's rows of each label held out by
        ``early_stopping``; a group needs both labels among them to be
        scored (an error is raised when no group has).

    average : bool, default=False
        Polyak averaging (``SGDClassifier``'s ``average=True``): ``coef_`` is
        the mean of the iterates ``w_1, ..., w_T`` rather than the last one.
        The running mean is updated at every step, across ``partial_fit``
        calls and warm starts; with ``early_stopping`` the averaged iterate
        is the one scored on validation and kept. The stopping rule without
        ``early_stopping`` still follows the objective of the iterates
        themselves.

    warm_start : bool, default=False
        When True, :meth:`fit` continues the previous optimisation: from the
        last iterate, the running average and the step count ``t_`` of the
        previous ``fit``/``partial_fit`` (the step size keeps decaying as
        ``eta0 / sqrt(t + 1)``; so ``fit`` with ``max_iter=a`` then ``b``
        and ``tol=None`` equals one ``fit`` of ``a + b`` epochs). Unlike
        ``SGDClassifier``, whose warm start restarts its learning-rate
        schedule from ``coef_``, the iterate continued is the solver's last
        one, which is ``coef_`` unless ``average`` or ``early_stopping``.
        The stopping records (best objective, validation scores) restart.
        X must hold the previous fit's columns, and y its relevant
        label: other data raise a ValueError.

    random_state : int, RandomState instance or None, default=None
        Seeds the validation split of ``early_stopping`` (the only random
        step: without it, fits are deterministic).

    verbose : int, default=0
        Print the objective and the training micro-pAp@k at every epoch
        and the number of skipped groups.

    pos_label : int, float, bool, str or None, default=None
        The relevant label of ``y``; ``classes_`` ends with it. ``None``: the
        greater of two numbers (1 of 0/1, True of booleans); labels that are
        not numbers (``"clicked"``/``"not_clicked"``) need it, since their
        alphabetical order says nothing of relevance (a ``ValueError``).
        A ``pos_label`` that sorts first keeps ``classes_`` unsorted, which
        scikit-learn's classifier wrappers (``CalibratedClassifierCV``,
        ``BaggingClassifier``) and threshold scorers (``"roc_auc"``:
        1 - AUC) misread: see the user guide's model selection page.

    Attributes
    ----------
    coef_ : ndarray of float64 of shape (n_features,)
        The last iterate (the one the stopping rule stopped at, or the last
        finite one if the iterates diverged); the mean of the iterates with
        ``average=True``; the iterate (or mean) with the best validation
        micro-pAp@k with ``early_stopping=True``. Not the iterate with the
        lowest objective: on weakly separable data the surrogates are
        lowest near ``w = 0`` and that iterate ranks much worse on held-out
        data than the last one.

    classes_ : ndarray of shape (n_classes,)
        The labels of ``y``; the last one is the relevant label.

    n_iter_ : int
        Number of epochs run by the last ``fit`` (1 after ``partial_fit``).
        An epoch evaluates the objective at its iterate, then steps; the
        epoch whose evaluation meets the ``tol`` rule stops without a
        step. So ``n_iter_`` is one more than the steps of the fit when
        ``tol`` stopped it, and equal to them when ``max_iter`` or early
        stopping ended it.

    t_ : int
        Total number of subgradient steps since ``w_0``, across
        ``partial_fit`` calls and warm starts: the next step size is
        ``eta0 / sqrt(t_ + 1)``.

    diverged_ : bool
        Whether the iterates of the last fit diverged (non-finite scores;
        the last finite iterate is kept and a ``ConvergenceWarning`` said so).

    objective_curve_ : ndarray of shape (n_evaluations,)
        Objective (mean surrogate + ``alpha * ||w||^2``) at the iterate
        every epoch starts from, ``w_0, ..., w_(n_iter_ - 1)``, on the data
        of the call that evaluated it: of shape ``(n_iter_,)`` after a
        single ``fit``. When ``tol`` stopped the fit, its last value is
        that of the last iterate (``coef_``, unless ``average`` or
        ``early_stopping``); when ``max_iter`` or early stopping ended it,
        the last iterate, ``w_(n_iter_)``, is not evaluated. Warm starts and
        :meth:`partial_fit` calls append to it (``n_iter_`` values each).

    validation_scores_ : ndarray of shape (n_validated,) or None
        Validation micro-pAp@k of every iterate ``w_1, w_2, ...`` (of the
        running mean with ``average``) of the last ``fit``;
        ``None`` unless ``early_stopping``.

    best_validation_score_ : float or None
        The best of ``validation_scores_`` (the score of ``coef_``);
        ``None`` unless ``early_stopping``.

    n_groups_skipped_ : int
        Training groups (of the last ``partial_fit`` chunk) without a
        relevant or without an irrelevant row: they carry no pAp@k signal
        and are left out of the objective.

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when ``X`` has string column
        names.

    See Also
    --------
    PApKRanker : The same with the surrogate as a parameter.
    skpapk.metrics.papk_score : The pAp@k metric.
    skpapk.losses.surrogate_loss : The surrogates and their subgradients.

    Notes
    -----
    The surrogates are hinges with margin 1 against each group's top ``k'``
    irrelevant items. At ``w = 0`` every hinge is active (each surrogate is
    1), and the slope along a direction ``d`` is, averaged over groups, the
    mean score of the top ``k'`` irrelevant items minus the mean score of
    relevant ones (all of them for avg and pAUC, the bottom ``min(k, n+)``
    for max, the top ones for ramp and TS). With many irrelevant items per
    group and weakly separating features that slope is positive for every
    ``d``: the surrogates grow with ``||w||`` and ``w = 0`` minimises them
    (on MovieLens 100K at ``k = 8``, a linear program finds no descent
    direction for avg or max). The solver then never gets the objective
    below its value at ``w_0`` (a ``ConvergenceWarning`` says so) and
    ``coef_`` is an early iterate whose direction hardly depends on
    ``eta0`` while ``alpha`` is small (cosine >= 0.995 over the paper's
    ``eta0`` for ``alpha <= 1e-3``; it turns at ``alpha = 1``); while every
    hinge is active, avg and pAUC take the same steps, so
    :class:`PApKAvgRanker` and :class:`PAUCRanker` return the same
    ``coef_``. The avg ranker's default fit still beats a random ranking
    there (test micro-pAp@8 41.6% against 34.1%) but not a logistic
    regression (47.5%); see :doc:`/user_guide/benchmarks`.

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization
    and Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import PApKRampRanker
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> X = rng.normal(size=(400, 3)) - y[:, None]   # relevant rows lie lower
    >>> groups = np.repeat(np.arange(20), 20)        # 20 users, 20 items each
    >>> ranker = PApKRampRanker(k=5).fit(X, y, groups=groups)
    >>> ranker.coef_.shape
    (3,)
    >>> bool(ranker.score(X, y, groups=groups) > 0.7)
    True
    >>> rec = ranker.recommend(X, groups, k=2)
    >>> rec.indices[rec.indptr[0]:rec.indptr[1]].shape   # user 0's top 2 rows
    (2,)
    """
    _surrogate = "ramp"
