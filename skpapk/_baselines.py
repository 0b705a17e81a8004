"""The baseline rankers of the paper's Table 3 (Section 7.3.2).

- :class:`PAUCRanker`: SVM-pAUC, the structural surrogate of pAUC(0, k/n-]
  (Narasimhan & Agarwal 2017), trained by the same subgradient solver as the
  pAp@k rankers (loss ``"pauc"``).
- :class:`PrecAtKRanker`: SGD@k-avg, the prec@k avg surrogate of Kar et al.
  (2015) (loss ``"preck"``), same solver.
- :class:`GreedyPApKRanker`: Greedy-pAp@k (Ricamato & Tortorella 2011,
  extended to pAp@k): logistic regressions on disjoint folds, merged pairwise
  by line searches on held-out micro-pAp@k.
- :class:`SelectPApKRanker`: Select-pAp@k (Budhiraja et al. 2020, Alg. 1):
  logistic regressions refitted on each group's top positives and top
  negatives under the current model.
"""

import hashlib
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval

from . import _defaults
from ._base import BaseRanker
from ._linear import warn_zero_coef
from ._linear_loss import _train_papk, fitted_scores, linear_scores
from ._ranker import _FixedSurrogateRanker
from .model_selection._split import _held_out_split
from .utils._groups import (
    defined_groups,
    n_defined_groups,
    rank_by_group_and_label,
    rank_within_segments,
    tied_within_groups,
)
from .utils._routing import _stacklevel


class PAUCRanker(_FixedSurrogateRanker):
    """Linear ranker trained on the structural pAUC(0, k/n-] surrogate (SVM-pAUC).

    The SVM-pAUC baseline of the paper (Section 7.3.2, Table 3;
    Narasimhan & Agarwal, "Support Vector Algorithms for Optimizing the
    Partial Area under the ROC Curve", Neural Computation 2017). Group
    surrogate: ``(1/(n+ k')) * sum_{all i} sum_{j <= k'} h(1 - (P_i - N_j))``,
    every relevant row against the top ``k' = min(k, n-)`` irrelevant ones:
    convex and an upper bound of the pAUC(0, k/n-] risk. Unlike pAp@k it
    counts every relevant row, not only the top ``min(k, n+)``. Trained by
    the same solver as :class:`PApKRanker` (loss ``"pauc"`` of
    :func:`skpapk.losses.surrogate_loss`). While every hinge is active
    (every relevant score less than 1 above the top irrelevant ones), its
    subgradient is that of the avg surrogate, ``mean(top-k' irrelevant x)
    - mean(relevant x)`` per group: from ``w_0 = 0`` it then takes the
    same steps as :class:`PApKAvgRanker` (the same ``coef_`` on MovieLens
    100K, where the surrogates are lowest at ``w = 0``; see Notes).

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
    PApKRanker : The pAp@k surrogates.
    skpapk.metrics.partial_auc_score : The pAUC(0, k/n-] metric.
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
    >>> from skpapk import PAUCRanker
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> X = rng.normal(size=(400, 3)) - y[:, None]   # relevant rows lie lower
    >>> groups = np.repeat(np.arange(20), 20)        # 20 users, 20 items each
    >>> ranker = PAUCRanker(k=5).fit(X, y, groups=groups)
    >>> ranker.coef_.shape
    (3,)
    >>> bool(ranker.score(X, y, groups=groups) > 0.7)
    True
    >>> rec = ranker.recommend(X, groups, k=2)
    >>> rec.indices[rec.indptr[0]:rec.indptr[1]].shape   # user 0's top 2 rows
    (2,)
    """

    _surrogate = "pauc"


class PrecAtKRanker(_FixedSurrogateRanker):
    """Linear ranker trained on the prec@k avg surrogate of Kar et al. (SGD@k-avg).

    The SGD@k-avg baseline of the paper (Section 7.3.2, Tables 2 and 3;
    Kar, Narasimhan, Jain, "Surrogate Functions for Maximizing Precision at
    the Top", ICML 2015, App. B.4). Group surrogate, divided by ``k``:
    ``max_{|yhat| = k} {Delta(y, yhat) + sum_i (yhat_i - y_i) s_i +
    (1/C(yhat)) sum_i (1 - yhat_i) y_i s_i}`` with ``Delta = k - K``
    (``K`` true positives in ``yhat``) and ``1/C = (n+ - k)/(n+ - K)``,
    computed in closed form (the best ``K`` per group, see
    :class:`skpapk.losses.PrecAtKSurrogate` for the edge cases). Convex; an
    upper bound of the prec@k risk ``1 - prec@k`` of every group with
    ``n+ >= k`` (Claim 17 of Kar et al. 2015). The paper trains it by SGD
    over users; here the full-batch subgradient solver of :class:`PApKRanker`
    minimises the mean over groups (loss ``"preck"``).

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
    PApKRanker : The pAp@k surrogates.
    skpapk.metrics.precision_at_k_score : The prec@k metric.
    skpapk.metrics.papk_score : The pAp@k metric.
    skpapk.losses.surrogate_loss : The surrogates and their subgradients.

    Notes
    -----
    Kar et al. assume ``k <= n+``. A group with at most ``k`` rows shows
    all of them, so its prec@k does not depend on the scores: it adds 0 to
    the objective (it still counts in the mean). The definition has no
    labelling with ``k`` ones when ``n < k``, and for ``n = k`` its only
    one gives ``n- + sum of the irrelevant scores``, a term that rewards
    lowering every score: with it (the k -> n extension used before), on
    MovieLens 100K at ``k = 24``, where 23% of the users have at most 24
    training rows, the ranker learned ``w`` close to ``-mean(x)`` and
    ranked relevant items last (test micro-pAp@24 40.7% against 46.2% for
    a random ranking; 51.0% now). When ``n+ < k < n`` the surrogate is no
    upper bound of the prec@k risk and its term with every relevant row in
    the list, ``(k - n+) + sum of the top k - n+ irrelevant scores``, also
    moves with a shift of the group's scores; it won for no MovieLens user
    with more than ``k`` rows at the fitted ``w``. Like the pAp@k hinge
    surrogates, this one is lowest at ``w = 0`` on MovieLens (its slope
    along every direction tried is positive), so ``coef_`` is an early
    iterate (see :class:`PApKRanker`'s Notes and
    :doc:`/user_guide/benchmarks`).

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization
    and Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import PrecAtKRanker
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> X = rng.normal(size=(400, 3)) - y[:, None]   # relevant rows lie lower
    >>> groups = np.repeat(np.arange(20), 20)        # 20 users, 20 items each
    >>> ranker = PrecAtKRanker(k=5).fit(X, y, groups=groups)
    >>> ranker.coef_.shape
    (3,)
    >>> bool(ranker.score(X, y, groups=groups) > 0.7)
    True
    >>> rec = ranker.recommend(X, groups, k=2)
    >>> rec.indices[rec.indptr[0]:rec.indptr[1]].shape   # user 0's top 2 rows
    (2,)
    """

    _surrogate = "preck"


#: Why logistic regressions fit ``w = 0``, and the fixes.
_ZERO_LOGISTIC = ("Its logistic regressions most likely learned w = 0: lower alpha "
                  "(alpha={alpha!r}) or tol (tol={tol!r}: its first step may "
                  "already meet it), or check that the features of X vary "
                  "within users (every column may be 0).")


def _fit_logistic(X, y_pos, alpha, *, tol, max_iter):
    """Coefficients (no intercept) of ``alpha ||w||^2 + mean cross-entropy``.

    scikit-learn's :class:`~sklearn.linear_model.LogisticRegression` (lbfgs)
    minimises ``||w||^2 / 2 + C * sum cross-entropy``; dividing our objective
    by ``2 alpha`` gives ``C = 1 / (2 alpha n)`` (``C = inf``, no penalty,
    when ``alpha = 0``). An intercept is fitted (not penalised) and dropped:
    it shifts every score of a group alike, so no ranking changes.
    """
    n = X.shape[0]
    C = np.inf if alpha == 0 else 1.0 / (2.0 * alpha * n)
    model = LogisticRegression(C=C, solver="lbfgs", tol=tol, max_iter=max_iter)
    model.fit(X, y_pos)
    return np.asarray(model.coef_, dtype=np.float64).reshape(-1), model


def _score_std(X, coef):
    """Standard deviation of ``X @ coef``; 1 where the scores are equal up to
    rounding (constant features: dividing by the rounding noise gave coef_
    of 1e15)."""
    scores = np.asarray(linear_scores(X, coef), dtype=np.float64)
    std = float(np.std(scores))
    noise = 1e3 * np.finfo(np.float64).eps * float(np.max(np.abs(scores), initial=0))
    return std if std > noise else 1.0


#: Candidate scores of one call of the metric in a line search (2 MB of
#: float64, about 40 MB with the metric's sorts and codes: a stack of every
#: grid point took 1.5 GB at 2M rows).
LINE_SEARCH_VALUES = 1 << 18


def _line_search_scores(y_pos, codes, current, new, grid, k):
    """Held-out micro-pAp@k of ``(1 - a) * current + a * new`` for every ``a``.

    Few calls of :func:`~skpapk.metrics.papk_score`: the candidate scores of
    several ``a`` are stacked, the ``j``-th copy of the groups recoded
    ``codes + j * n_groups``, about ``LINE_SEARCH_VALUES`` scores a call.
    """
    n_grid = grid.shape[0]
    labels, codes = np.unique(codes, return_inverse=True)  # groups present only
    n_groups = labels.shape[0]
    gains = np.empty((n_grid, n_groups))
    per_call = max(1, LINE_SEARCH_VALUES // max(current.shape[0], 1))
    for start in range(0, n_grid, per_call):  # memory bounded, not per user
        part = grid[start:start + per_call]
        m = part.shape[0]
        scores = ((1.0 - part)[:, None] * current[None, :]
                  + part[:, None] * new[None, :]).reshape(-1)
        stacked_codes = (codes[None, :]
                         + n_groups * np.arange(m)[:, None]).reshape(-1)
        gains[start:start + m] = _train_papk(
            np.tile(y_pos, m), scores, stacked_codes, k,
            average=None).reshape(m, n_groups)
    defined = ~np.isnan(gains[0])
    return gains[:, defined].mean(axis=1)


class GreedyPApKRanker(BaseRanker):
    """Greedy-pAp@k: logistic regressions merged by line searches on pAp@k.

    The Greedy-pAp@k baseline of the paper (Section 7.3.2, Table 3), which
    extends the greedy combination of linear dichotomizers of Ricamato &
    Tortorella (2011) from pAUC to pAp@k:

    1. Every group's rows are split, by label, into a fitting part and a
       held-out part of about ``validation_fraction`` of its relevant and of
       its irrelevant rows (:func:`skpapk.model_selection.within_group_split`;
       rounded, so that a group with few relevant rows keeps them in the
       fitting part: 1 or 2 at the default 0.25, 1 at 0.5, none above 0.5;
       the line search only sees groups with at least one held-out relevant
       and irrelevant row, so data where every group has one relevant row,
       or every group one irrelevant row, cannot be fitted). Held-out *items*
       rather than held-out groups, so that a single group works.
    2. The fitting rows are dealt, by label and at random, into
       ``n_estimators`` disjoint folds; a logistic regression
       (``alpha * ||w||^2 + mean cross-entropy``, lbfgs) is fitted on each
       fold. Each base scorer is rescaled so that its scores on the fitting
       rows have unit standard deviation.
    3. The scorers are sorted by their held-out micro-pAp@k. Starting from
       the best, each next one is merged: ``w <- (1 - a) w + a w_new`` with
       ``a`` on a grid of ``n_line_search`` points of ``[0, 1]`` maximising
       the held-out micro-pAp@k (ties: the smallest ``a``, so ``a = 0``
       keeps the current scorer); the merged scorer is rescaled to unit
       score standard deviation.

    Every scorer is linear, so the result is one weight vector, ``coef_``.
    Groups without a relevant or an irrelevant row are left out
    (``n_groups_skipped_``).

    Parameters
    ----------
    k : int, default=10
        Number of items shown to each user: the ``k`` of the pAp@k that the
        line searches maximise, of :meth:`score` and of :meth:`recommend`.

    n_estimators : int, default=5
        Number of base logistic regressions (folds). Lowered, with a
        warning, to the number of relevant or irrelevant fitting rows when
        either is smaller (a fold needs both labels).

    alpha : float, default=1e-3
        Weight of ``||w||^2`` in each logistic regression's objective
        ``alpha * ||w||^2 + mean cross-entropy`` (``C = 1 / (2 alpha n)``
        in scikit-learn's terms).

    n_line_search : int, default=21
        Number of evenly spaced weights ``a`` in ``[0, 1]`` tried per merge.

    validation_fraction : float, default=0.25
        Fraction of every group's relevant and irrelevant rows held out for
        the line searches.

    max_iter : int, default=1000
        Maximum number of lbfgs iterations of each logistic regression.

    tol : float, default=1e-4
        Tolerance of the lbfgs fits.

    random_state : int, RandomState instance or None, default=None
        Seeds the held-out split and the folds.

    verbose : int, default=0
        Print the held-out score of every base scorer and merge.

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
        The merged linear scorer.

    classes_ : ndarray of shape (n_classes,)
        The labels of ``y``; the last one is the relevant label.

    estimators_ : list of LogisticRegression
        The base logistic regressions, in fold order.

    estimator_scores_ : ndarray of shape (`n_estimators_`,)
        Held-out micro-pAp@k of every base scorer.

    merge_order_ : ndarray of int of shape (`n_estimators_`,)
        Indices into ``estimators_`` in the order they were merged.

    merge_weights_ : ndarray of shape (`n_estimators_` - 1,)
        The weight ``a`` chosen at every merge.

    validation_score_ : float
        Held-out micro-pAp@k of ``coef_``.

    n_estimators_ : int
        Number of base scorers actually fitted.

    n_validation_groups_ : int
        Number of groups with a held-out relevant and irrelevant row (the
        groups the line searches average over).

    n_groups_skipped_ : int
        Training groups without a relevant or without an irrelevant row.

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when ``X`` has string column
        names.

    See Also
    --------
    SelectPApKRanker : The other logistic-regression baseline.
    PApKRanker : The pAp@k surrogates.

    References
    ----------
    M. T. Ricamato, F. Tortorella. "Partial AUC maximization in a linear
    combination of dichotomizers", Pattern Recognition 44(10-11), 2011.

    Section 7.3.2 and Table 3 of G. Hiranandani, W. Vijitbenjaronk,
    S. Koyejo, P. Jain. "Optimization and Analysis of the pAp@k Metric for
    Recommender Systems", ICML 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import GreedyPApKRanker
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> X = rng.normal(size=(400, 3)) - y[:, None]   # relevant rows lie lower
    >>> groups = np.repeat(np.arange(20), 20)        # 20 users, 20 items each
    >>> ranker = GreedyPApKRanker(k=5, n_estimators=3, random_state=0)
    >>> ranker = ranker.fit(X, y, groups=groups)
    >>> ranker.coef_.shape, ranker.merge_weights_.shape
    ((3,), (2,))
    >>> bool(ranker.score(X, y, groups=groups) > 0.7)
    True
    """

    _parameter_constraints: dict = {
        "k": [Interval(Integral, 1, None, closed="left")],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "n_line_search": [Interval(Integral, 2, None, closed="left")],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
        "pos_label": [Real, str, "boolean", None],
    }

    def __init__(self, *, k=_defaults.K, n_estimators=_defaults.GREEDY_N_ESTIMATORS,
                 alpha=_defaults.HINGE_ALPHA,
                 n_line_search=_defaults.GREEDY_N_LINE_SEARCH,
                 validation_fraction=_defaults.GREEDY_VALIDATION_FRACTION,
                 max_iter=_defaults.LOGISTIC_MAX_ITER, tol=_defaults.TOL,
                 random_state=None, verbose=0, pos_label=None):
        self.k = k
        self.n_estimators = n_estimators
        self.alpha = alpha
        self.n_line_search = n_line_search
        self.validation_fraction = validation_fraction
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.verbose = verbose
        self.pos_label = pos_label

    def _folds(self, y_pos, rng):
        """Fold of every fitting row: by label, at random, sizes within 1."""
        n_pos = int(np.count_nonzero(y_pos))
        n_folds = min(self.n_estimators, n_pos, y_pos.shape[0] - n_pos)
        if n_folds < self.n_estimators:
            warnings.warn(
                f"n_estimators={self.n_estimators} base scorers need that many "
                f"relevant and irrelevant fitting rows, but there are {n_pos} "
                f"relevant and {y_pos.shape[0] - n_pos} irrelevant ones: "
                f"{n_folds} scorer(s) are fitted. Lower n_estimators or "
                f"validation_fraction.",
                UserWarning,
                stacklevel=_stacklevel(),
            )
        rank = rank_within_segments(rng.permutation(y_pos.shape[0]).astype(float),
                                    y_pos.astype(np.intp), 2).rank
        return rank % n_folds, n_folds

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, groups=None):
        """Fit the base logistic regressions and merge them greedily.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Features of every (user, item) row; dense or CSR.
        y : array-like of shape (n_samples,)
            Binary relevance labels: ``pos_label``, else the greater of two
            numbers, is relevant.
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row; ``None``: one group.

        Returns
        -------
        self : object
            Fitted ranker.
        """
        X, y_pos, codes, n_groups = self._validate_fit_data(X, y, groups)
        rng = check_random_state(self.random_state)
        n_pos = np.bincount(codes, weights=y_pos, minlength=n_groups)
        n_neg = np.bincount(codes, minlength=n_groups) - n_pos
        defined = (n_pos > 0) & (n_neg > 0)
        single = [label for label, n in (("relevant", n_pos), ("irrelevant", n_neg))
                  if defined.any() and np.all(n[defined] == 1)]
        if single:  # its one row is fitted on (fraction <= 0.5) or held out
            raise ValueError(
                f"Every group (user) with both labels has exactly one "
                f"{single[0]} row, so GreedyPApKRanker, which fits on some "
                f"rows of each group and chooses its merge on the others, "
                f"cannot have both (e.g. leave-one-out data); no "
                f"validation_fraction can help. Use PApKRanker or "
                f"SelectPApKRanker, which fit on every row.")
        rows = np.flatnonzero(defined_groups(y_pos, codes, n_groups)[codes])
        fit_part, val_part = _held_out_split(
            y_pos[rows], codes[rows], self.validation_fraction, rng)
        fit_rows, val_rows = rows[fit_part], rows[val_part]
        X_fit, y_fit = X[fit_rows], y_pos[fit_rows]
        X_val, y_val, codes_val = X[val_rows], y_pos[val_rows], codes[val_rows]
        self.n_validation_groups_ = n_defined_groups(y_val, codes_val, n_groups)
        if self.n_validation_groups_ == 0:
            raise ValueError(
                f"No group has a held-out relevant and irrelevant row for the "
                f"line searches (validation_fraction={self.validation_fraction}"
                f"); a group needs about 1 / validation_fraction relevant and "
                f"irrelevant rows. Raise validation_fraction or give more rows "
                f"per group."
            )
        n_fit_pos = int(np.count_nonzero(y_fit))
        if n_fit_pos in (0, y_fit.shape[0]):
            raise ValueError(
                f"validation_fraction={self.validation_fraction} holds out every "
                f"{'relevant' if n_fit_pos == 0 else 'irrelevant'} row, so no "
                f"base scorer can be fitted; lower validation_fraction (e.g. to "
                f"the default {_defaults.GREEDY_VALIDATION_FRACTION}) or give "
                f"more rows per group.")
        fold, n_folds = self._folds(y_fit, rng)
        self.n_estimators_ = n_folds
        self.estimators_, coefs = [], []
        for i in range(n_folds):  # a loop over the few base scorers
            in_fold = fold == i
            coef, model = _fit_logistic(X_fit[in_fold], y_fit[in_fold], self.alpha,
                                        tol=self.tol, max_iter=self.max_iter)
            self.estimators_.append(model)
            coefs.append(coef / _score_std(X_fit, coef))
        val_scores = [fitted_scores(X_val, c) for c in coefs]
        self.estimator_scores_ = np.array([
            _train_papk(y_val, s, codes_val, self.k) for s in val_scores])
        # stable: equal held-out scores keep the fold order
        self.merge_order_ = np.argsort(-self.estimator_scores_, kind="stable")
        grid = np.linspace(0.0, 1.0, self.n_line_search)
        first = self.merge_order_[0]
        coef, current = coefs[first], val_scores[first]
        best = self.estimator_scores_[first]
        if self.verbose:
            print(f"Greedy-pAp@k: {n_folds} base scorers, held-out micro-pAp@"
                  f"{self.k}: {np.round(self.estimator_scores_, 4).tolist()}")
        weights = []
        for i in self.merge_order_[1:]:  # a loop over the few base scorers
            values = _line_search_scores(y_val, codes_val, current,
                                         val_scores[i], grid, self.k)
            j = int(np.argmax(values))
            a = grid[j]
            weights.append(a)
            coef = (1.0 - a) * coef + a * coefs[i]
            scale = _score_std(X_fit, coef)
            coef = coef / scale
            current = ((1.0 - a) * current + a * val_scores[i]) / scale
            best = values[j]
            if self.verbose:
                print(f"-- merged scorer {i} with weight {a:.3g}: held-out "
                      f"micro-pAp@{self.k} {best:.4f}")
        self.merge_weights_ = np.asarray(weights, dtype=np.float64)
        self.validation_score_ = float(best)
        self.coef_ = np.asarray(coef, dtype=np.float64)
        warn_zero_coef(self, _ZERO_LOGISTIC.format(alpha=self.alpha, tol=self.tol),
                       lambda: tied_within_groups(linear_scores(X, self.coef_), codes))
        return self


class SelectPApKRanker(BaseRanker):
    """Select-pAp@k: logistic regression refitted on the top of every list.

    The Select-pAp@k baseline of the paper (Section 7.3.2, Table 3;
    Budhiraja et al. 2020, Alg. 1). Start from a logistic regression on the
    rows of every group that has a relevant and an irrelevant row; then
    repeat: under the current scores, pool every group's top
    ``beta = min(k, n+)`` relevant rows and top ``min(k, n-)`` irrelevant
    rows (the rows that pAp@k looks at) and fit a logistic regression
    (``alpha * ||w||^2 + mean cross-entropy``, lbfgs, to convergence) on the
    pool. Stop when the pool no longer changes (the next fit would give the
    same model) or after ``max_iter`` rounds (with a
    :class:`~sklearn.exceptions.ConvergenceWarning`). When a pool of two or
    more rounds before comes back, the rounds would cycle forever: the fit
    stops there (with a ``ConvergenceWarning``) and keeps the cycle's model
    of highest training micro-pAp@k, whatever ``max_iter``. The pools are found for
    all groups at once (one ranking of every group's relevant and irrelevant
    rows); ties in the scores are broken by row order.

    The logistic regressions fit an intercept, which is dropped: it shifts
    every score of a group alike. The model is deterministic (lbfgs), hence
    there is no ``random_state``.

    Parameters
    ----------
    k : int, default=10
        Number of items shown to each user: sets the pools, :meth:`score`
        and :meth:`recommend`.

    alpha : float, default=1e-3
        Weight of ``||w||^2`` in each logistic regression's objective
        ``alpha * ||w||^2 + mean cross-entropy`` over the pool
        (``C = 1 / (2 alpha n_pool)`` in scikit-learn's terms).

    max_iter : int, default=10
        Maximum number of pooling rounds (logistic regressions after the
        first one).

    tol : float, default=1e-4
        Tolerance of the lbfgs fits (each runs at most 1000 iterations).

    verbose : int, default=0
        Print the pool size and training micro-pAp@k of every round.

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
        Weights of the last logistic regression (without its intercept); of
        the cycle's best one when the pools cycle.

    classes_ : ndarray of shape (n_classes,)
        The labels of ``y``; the last one is the relevant label.

    n_iter_ : int
        Number of pooling rounds run (logistic regressions fitted on a pool).

    pool_sizes_ : ndarray of int of shape (`n_iter_` + 1,)
        Number of rows of every fit: first the initial fit on all rows of
        the defined groups, then every pool.

    converged_ : bool
        Whether the pool stopped changing within ``max_iter`` rounds (False
        when the pools cycle).

    train_scores_ : ndarray of shape (`n_iter_` + 1,)
        Training micro-pAp@k of the initial model and of every round's
        model. It need not increase: the last model is returned, as the
        procedure prescribes, even when an earlier round scored higher (on
        weakly separable data the rounds can drift; watch this curve and
        tune ``max_iter``), unless the pools cycle (see above).

    n_groups_skipped_ : int
        Training groups without a relevant or without an irrelevant row;
        their rows are used in no fit.

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when ``X`` has string column
        names.

    See Also
    --------
    GreedyPApKRanker : The other logistic-regression baseline.
    PApKRanker : The pAp@k surrogates.

    References
    ----------
    A. Budhiraja et al. "Rich-Item Recommendations for Rich-Users:
    Exploiting Dynamic and Static Side Information", arXiv:2001.10495, 2020
    (Algorithm 1).

    Section 7.3.2 and Table 3 of G. Hiranandani, W. Vijitbenjaronk,
    S. Koyejo, P. Jain. "Optimization and Analysis of the pAp@k Metric for
    Recommender Systems", ICML 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import SelectPApKRanker
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> X = rng.normal(size=(400, 3)) - y[:, None]   # relevant rows lie lower
    >>> groups = np.repeat(np.arange(20), 20)        # 20 users, 20 items each
    >>> ranker = SelectPApKRanker(k=5).fit(X, y, groups=groups)
    >>> ranker.coef_.shape
    (3,)
    >>> bool(ranker.score(X, y, groups=groups) > 0.7)
    True
    >>> bool(ranker.pool_sizes_[-1] < 400)      # later fits see the top rows only
    True
    """

    _parameter_constraints: dict = {
        "k": [Interval(Integral, 1, None, closed="left")],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "verbose": ["verbose"],
        "pos_label": [Real, str, "boolean", None],
    }

    def __init__(self, *, k=_defaults.K, alpha=_defaults.HINGE_ALPHA,
                 max_iter=_defaults.SELECT_MAX_ITER, tol=_defaults.TOL, verbose=0,
                 pos_label=None):
        self.k = k
        self.alpha = alpha
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose
        self.pos_label = pos_label

    def _pool(self, X, y_pos, codes, n_groups, coef):
        """Rows of every group's top-beta relevant and top-k' irrelevant rows."""
        scores = np.asarray(linear_scores(X, coef), dtype=np.float64)
        ranking = rank_by_group_and_label(y_pos, scores, codes, n_groups)
        limit = np.where(y_pos, np.minimum(ranking.n_pos, self.k)[codes],
                         np.minimum(ranking.n_neg, self.k)[codes])
        return np.flatnonzero(ranking.rank < limit), scores

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, groups=None):
        """Fit the logistic regressions on the successive pools.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Features of every (user, item) row; dense or CSR.
        y : array-like of shape (n_samples,)
            Binary relevance labels: ``pos_label``, else the greater of two
            numbers, is relevant.
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row; ``None``: one group.

        Returns
        -------
        self : object
            Fitted ranker.
        """
        X, y_pos, codes, n_groups = self._validate_fit_data(X, y, groups)
        rows = np.flatnonzero(defined_groups(y_pos, codes, n_groups)[codes])
        X, y_pos, codes = X[rows], y_pos[rows], codes[rows]
        coef, _ = _fit_logistic(X, y_pos, self.alpha, tol=self.tol,
                                max_iter=_defaults.LOGISTIC_MAX_ITER)
        sizes = [rows.shape[0]]
        train_scores = []
        coefs, seen = [coef], {}  # every round's model; digest of a pool -> round
        self.converged_ = False
        self.n_iter_ = 0
        for _ in range(self.max_iter + 1):  # a loop over the few rounds
            pool, scores = self._pool(X, y_pos, codes, n_groups, coef)
            train_scores.append(_train_papk(y_pos, scores, codes, self.k))
            digest = hashlib.blake2b(pool.tobytes(), digest_size=16).digest()
            if seen.get(digest) == self.n_iter_ - 1:  # the last round's pool:
                self.converged_ = True                # the next fit repeats it
                break
            if digest in seen:  # an earlier pool: the models would cycle
                cycle = range(seen[digest] + 1, len(coefs))
                best = max(cycle, key=lambda i: (train_scores[i], -i))
                coef = coefs[best]
                warnings.warn(
                    f"The pools of top rows cycle: round {self.n_iter_}'s pool "
                    f"is round {seen[digest]}'s, so rounds {cycle.start}-"
                    f"{cycle.stop - 1} would repeat forever. Stopped there; "
                    f"coef_ is round {best}'s model, the cycle's best on "
                    f"training micro-pAp@{self.k} ({train_scores[best]:.4f}).",
                    ConvergenceWarning,
                    stacklevel=_stacklevel(),
                )
                break
            if self.n_iter_ == self.max_iter:
                warnings.warn(
                    f"The pool of top rows still changed after max_iter="
                    f"{self.max_iter} rounds; increase max_iter.",
                    ConvergenceWarning,
                    stacklevel=_stacklevel(),
                )
                break
            if self.verbose:
                print(f"-- Round {self.n_iter_ + 1}: pool of {pool.shape[0]} "
                      f"rows, train micro-pAp@{self.k} of the current model "
                      f"{train_scores[-1]:.4f}")
            seen[digest] = self.n_iter_
            coef, _ = _fit_logistic(X[pool], y_pos[pool], self.alpha,
                                    tol=self.tol, max_iter=_defaults.LOGISTIC_MAX_ITER)
            coefs.append(coef)
            sizes.append(pool.shape[0])
            self.n_iter_ += 1
        self.train_scores_ = np.asarray(train_scores, dtype=np.float64)
        self.pool_sizes_ = np.asarray(sizes, dtype=np.intp)
        self.coef_ = coef
        warn_zero_coef(self, _ZERO_LOGISTIC.format(alpha=self.alpha, tol=self.tol),
                       lambda: tied_within_groups(linear_scores(X, coef), codes))
        return self
