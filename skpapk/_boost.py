"""Gradient-boosted trees trained for pAp@k, with LightGBM as the engine."""

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions

from . import _defaults
from ._base import BaseRanker
from ._categorical import _category_columns, categorical_codes
from ._lightgbm_engine import (
    _CheckUsableFeatures,
    _constant_booster,
    _EarlyStopping,
    _eval_rows,
    _no_usable_feature,
    _NoUsableFeature,
    _trees_up_to,
)
from ._lightgbm_model import LGBMRankerInterface, _lightgbm_input
from ._lightgbm_params import (
    _BOOSTING_ALIASES,
    _EARLY_STOPPING_ROUND_ALIASES,
    _aliases,
    fit_arguments,
    refuse_fit_keywords,
    with_passed_through,
)
from ._lightgbm_rows import (
    _check_category_codes,
    _check_group_sizes,
    _check_weighted_pairs,
    _class_row_weights,
    _row_tie_breaker,
    _truncates,
)
from .losses import GROUP_WEIGHTS, SMOOTH_SURROGATES, LightGBMObjective
from .metrics._lightgbm import micro_papk_lightgbm
from .model_selection._split import EarlyStoppingSplitError, _early_stopping_rows
from .utils._arrays import check_sample_weight
from .utils._groups import (
    n_undefined_groups,
    stable_sort_by_codes,
)
from .utils._lightgbm import _import_lightgbm
from .utils._parallel import effective_n_threads
from .utils._routing import _stacklevel

#: LightGBM's own objectives, passed through by name (for comparison).
LIGHTGBM_OBJECTIVES = ("binary", "lambdarank", "rank_xendcg")

#: Every ``objective`` of :class:`PApKBoostRanker`: the smooth surrogates of
#: :mod:`skpapk.losses` (handed to LightGBM as a :class:`LightGBMObjective`)
#: and LightGBM's own objectives. It drives the parameter constraint and the
#: dispatch in ``fit``.
OBJECTIVES = tuple(SMOOTH_SURROGATES) + LIGHTGBM_OBJECTIVES

#: The arguments of ``PApKBoostRanker.fit``, for the message about others.
_FIT_ARGUMENTS = ("X", "y", "groups", "sample_weight", "X_val", "y_val",
                  "groups_val")


def _bagging_freq(subsample):
    """LightGBM's ``subsample_freq`` of ``subsample``: every round below 1,
    else never."""
    return 1 if isinstance(subsample, Real) and subsample < 1 else 0


class PApKBoostRanker(LGBMRankerInterface, BaseRanker):
    """Gradient-boosted trees trained for pAp@k, with LightGBM as the engine.

    Each boosting round fits a regression tree (LightGBM) to the gradient
    and Hessian of a smooth surrogate of pAp@k, the mean over users of a
    per-user weighted pairwise logistic loss of their (relevant, irrelevant)
    pairs, computed by :mod:`skpapk.losses`
    (:class:`~skpapk.losses.LightGBMObjective`). A user's weight in that
    mean does not grow with its number of pairs: with
    ``group_weight="uniform"`` every user counts equally, as in the mean over
    users of micro-pAp@k (eq. 17 of Hiranandani et al., 2020); the default
    ``"inverse_variance"`` weighs a user by the precision of its pairs as
    evidence, a weight that grows as ``min(n+, n-)`` (see ``group_weight``).
    A compiled
    kernel sums every user's pairs, users in parallel threads, with no
    Python loop over users and no array of the pairs, so users with
    thousands of rows cost time, not memory. LightGBM's own
    ``"binary"``, ``"lambdarank"`` and ``"rank_xendcg"`` objectives are
    there for comparison.

    The trees are fitted by LightGBM's own ``lightgbm.LGBMRanker`` (its
    ``DaskLGBMRanker`` in :mod:`skpapk.dask`), given the objective, and
    early stopping is LightGBM's callback mechanism fed by a micro-pAp@k
    evaluation function on held-out rows of every user.

    Rows may come in any order and ``groups`` hold any labels: the ranker
    sorts the rows by group for LightGBM and gives it the group sizes. The
    trees do not depend on the order of the rows (up to rounding): where
    ``truncation_level`` cuts a user's list, its rows of equal score (every
    score is 0 in the first round) are ranked by a key computed from
    their feature values, not by their place (see
    :class:`~skpapk.losses.LightGBMObjective`'s ``tie_breaker``; LightGBM's
    ``lambdarank`` ranks them by their place). Three things are drawn by
    the rows' places, as in scikit-learn and LightGBM: the rows held out by
    early stopping, those drawn by ``subsample``, and, above 200,000 rows,
    the sample LightGBM bins the features on (``bin_construct_sample_cnt``,
    passed through: set it to the number of rows to bin on all of them).
    Needs LightGBM (``pip install 'skpapk[lightgbm]'``); ``import skpapk``
    does not import it.

    Parameters
    ----------
    k : int, default=10
        Number of items shown to each user: the ``k`` of pAp@k, used by
        :meth:`score`, :meth:`recommend`, early stopping, and by the
        objectives ``"soft_papk"`` (its soft top-k weights) and
        ``"lambdarank"`` (its truncation level). The default objective,
        ``"pairwise_logistic"``, does not read ``k``: without early
        stopping, the trees fitted for two values of ``k`` are the same
        (see Notes).

    objective : {"soft_papk", "pairwise_logistic", "binary", "lambdarank", \
"rank_xendcg"}, default="pairwise_logistic"
        The loss the trees are fitted to.

        - ``"pairwise_logistic"``: ``log(1 + exp(-(s_i - s_j)))`` averaged
          over every (relevant ``i``, irrelevant ``j``) pair of a user, then
          over users (a smooth surrogate of every user's AUC; it does not
          use ``k``).
        - ``"soft_papk"``: the same over soft top-k pairs, the relevant rows
          weighted by their soft membership of the top ``min(k, n+)``, the
          irrelevant ones of the top ``k``, with ``temperature``: high, every
          pair (AUC); low, pAp@k's pairs (Definition 1 of the paper).
          On MovieLens 100K ``temperature=10`` scored as high as
          ``"pairwise_logistic"`` (within the noise), 3 and below lower
          (see Notes).
        - ``"binary"``: LightGBM's logistic loss of every row (no groups;
          every row counts equally, so users with many rows weigh more).
        - ``"lambdarank"``: LightGBM's LambdaMART for NDCG, with
          ``lambdarank_truncation_level = 2 * k`` (every pair of pAp@k has a
          row among a user's first ``2 k``: a misranked pair's irrelevant
          row has at most ``k - 1`` irrelevant and ``min(k, n+) - 1``
          relevant rows above it).
        - ``"rank_xendcg"``: LightGBM's cross-entropy NDCG loss.

    temperature : float, default=10.0
        Temperature of ``"soft_papk"`` (ignored by the other objectives),
        in units of each user's score standard deviation: the soft top-k
        memberships do not change when the trees scale the scores, so a
        temperature means the same in the first and the last rounds.

    group_weight : {"uniform", "inverse_variance"}, default="inverse_variance"
        Weight of each user in the mean of the skpapk objectives
        (:func:`~skpapk.losses.group_weights`). ``"uniform"``: every user
        alike, as micro-pAp@k. ``"inverse_variance"``:
        ``12 n+ n- / (n+ + n- + 1)``, the inverse of the variance of the
        user's AUC under a random ranking: users with few rows, whose pairs
        are noisy evidence, weigh less (but a user's weight grows only as
        ``min(n+, n-)``, not with its number of pairs). On MovieLens 100K
        it scored 1.1 to 1.2 points of test micro-pAp@k above ``"uniform"``.
        With ``sample_weight``, ``n+`` and ``n-`` are the user's weighted
        counts, so multiplying every weight by one constant changes how
        users weigh against each other (weights that sum to 1 tend to
        weigh users by their number of pairs); with ``"uniform"``, the
        ``"pairwise_logistic"`` loss does not depend on the weights' scale
        (its gradients and Hessians do, through the objective's ``scale``,
        their total, which ``min_child_weight`` and ``reg_lambda`` see), but
        ``"soft_papk"``'s loss does: its weights are row counts (a weight
        of 3, three copies of the row), which move each user's soft top
        ``k``. Ignored by LightGBM's objectives.

    truncation_level : int or None, default=100
        Bound on the pairs of users with long candidate lists (the skpapk
        objectives only): a pair counts when its relevant row is among the
        user's ``truncation_level`` highest scored relevant rows, or its
        irrelevant row among the ``truncation_level`` highest scored
        irrelevant rows, under the current trees (pAp@k itself only looks
        at a user's top ``min(k, n+)`` relevant and top ``k`` irrelevant
        rows). A user with at most ``truncation_level`` relevant or at most
        ``truncation_level`` irrelevant rows keeps every pair, so the
        default is the exact objective on lists of up to 200 items, and a
        user costs ``O(truncation_level * n_rows)`` a round instead of
        ``O(n+ * n-)``. ``None``: every pair. The bound has a cost where
        it is active: on a simulation of 100 users of 2,000 items (about
        300 relevant each), test micro-pAp@10 was 69.1% against 70.4% for
        the exact objective (one split; see :doc:`/user_guide/benchmarks`);
        on the 60% training parts of the MovieLens 100K benchmarks no user
        reaches it (at most 97), on the whole data set 13 users do.

    n_estimators : int, default=100
        Maximum number of boosting rounds (trees).

    learning_rate : float, default=0.05
        Shrinkage of every tree.

    num_leaves : int, default=31
        Maximum number of leaves of a tree.

    max_depth : int, default=-1
        Maximum depth of a tree; -1 (or any value <= 0, as in LightGBM): no
        limit.

    min_child_samples : int, default=20
        Minimum number of rows in a leaf (LightGBM's ``min_data_in_leaf``).

    min_child_weight : float, default=1e-3
        Minimum sum of Hessians in a leaf (``min_sum_hessian_in_leaf``). The
        skpapk objectives are scaled by the number of rows (see
        :class:`~skpapk.losses.LightGBMObjective`) so that it keeps its
        usual meaning.

    subsample : float, default=1.0
        Fraction of the rows drawn (without replacement) for every tree.
        Unlike ``LGBMRanker``, no ``subsample_freq`` is needed: rows are
        redrawn every round when ``subsample < 1`` (or LightGBM's alias
        ``bagging_fraction``, passed through, is), unless ``subsample_freq``
        (``bagging_freq``) is passed through. Not with GOSS
        (``boosting_type="goss"`` or ``data_sample_strategy="goss"`` in
        ``**kwargs``), which draws the rows of every round itself
        (``top_rate``, ``other_rate``): ``subsample < 1`` is refused there
        with a ``ValueError`` (``LGBMRanker`` ignores it).

    colsample_bytree : float, default=1.0
        Fraction of the features drawn for every tree.

    reg_alpha : float, default=0.0
        L1 regularisation of the leaf values.

    reg_lambda : float, default=0.0
        L2 regularisation of the leaf values.

    early_stopping : "auto" or bool, default=False
        Hold out ``validation_fraction`` of every user's relevant and of its
        irrelevant rows (:func:`skpapk.model_selection.within_group_split`,
        seeded by ``random_state``), score micro-pAp@k at ``k`` on them
        after every round, stop when it has not reached its best plus
        ``tol`` for ``n_iter_no_change`` rounds and predict with the best
        round's trees. ``"auto"``: on when there are more than 10,000 rows,
        as :class:`~sklearn.ensemble.HistGradientBoostingClassifier` does,
        but off (with a warning) where the held-out rows would leave no
        user with both labels in training or in validation.
        Off by default: with few held-out rows per user the validation
        micro-pAp@k is noisy, and an early lucky round can stop the
        training (on MovieLens 100K, one seed in eight stopped at round 4
        and lost 4 points at k = 8; ``n_estimators=100`` without early
        stopping scored as well on average and never that badly; see
        :doc:`/user_guide/benchmarks`). Turn it on with many
        rows per user, or a larger ``n_estimators``. Not with LightGBM's
        dart boosting (``boosting_type="dart"`` in ``**kwargs``), which
        rescales the earlier trees at every round, so that the first
        ``best_iteration_`` trees are not the model scored at that round
        (LightGBM turns its own early stopping off in dart mode): there
        ``"auto"`` never stops early, and ``True`` (or validation rows
        given to :meth:`fit`) raises a ``ValueError``.

    validation_fraction : float, default=0.1
        Fraction of every user's rows of each label held out by early
        stopping.

    n_iter_no_change : int, default=20
        Rounds without improvement of the validation micro-pAp@k before
        stopping.

    tol : float, default=1e-7
        Improvement of the validation score that counts as one: a round
        less than ``tol`` above the best so far adds one to the count of
        ``n_iter_no_change``. The best round is the highest score, however
        small its lead; LightGBM's ``early_stopping_min_delta`` also keeps
        an earlier best round over a later one less than ``min_delta``
        above it, so the two can choose different rounds.

    random_state : int, RandomState instance or None, default=None
        Seeds the validation split and LightGBM (``seed``: row and feature
        subsampling, ``rank_xendcg``'s draws). ``None``: a random split and
        LightGBM's fixed default seeds.

    n_jobs : int or None, default=None
        Threads of LightGBM and of the objective's pair kernel; ``None``: the
        OpenMP threads this process may use, as
        ``HistGradientBoostingClassifier`` (every core, but one in each
        worker of a parallel ``GridSearchCV``, or what ``threadpoolctl``
        allows); -1: every core. At most the cores this process may use
        (LightGBM crashes on counts it cannot start), also when given as
        an alias such as ``num_threads`` through ``**kwargs``, which then
        sets LightGBM's threads only. The pair kernel takes
        fewer when the work is small (about a million pairs a thread), with
        the same result. LightGBM's OpenMP threads do not survive ``fork``:
        a process forked after a fit with several threads (by
        ``multiprocessing``'s default on Linux before Python 3.14) hangs
        in its own fit; use joblib's processes (loky), the ``"spawn"`` or
        ``"forkserver"`` start method, or ``n_jobs=1``.

    verbose : int, default=0
        ``-1`` or ``0``: silent (``-1`` is LightGBM's way of saying it). ``1``:
        print the validation score of every round; ``verbose >= 2`` also
        LightGBM's own messages.

    pos_label : int, float, bool, str or None, default=None
        The relevant label of ``y``; ``classes_`` ends with it. ``None``: the
        greater of two numbers (1 of 0/1, True of booleans); labels that are
        not numbers (``"clicked"``/``"not_clicked"``) need it, since their
        alphabetical order says nothing of relevance (a ``ValueError``).
        A ``pos_label`` that sorts first keeps ``classes_`` unsorted, which
        scikit-learn's classifier wrappers (``CalibratedClassifierCV``,
        ``BaggingClassifier``) and threshold scorers (``"roc_auc"``:
        1 - AUC) misread: see the user guide's model selection page.
    **kwargs : dict
        Other parameters of LightGBM's scikit-learn estimators (for example
        ``max_bin=63``, ``min_split_gain=0.01``, ``boosting_type="dart"``),
        handed to ``lightgbm.LGBMRanker`` as they are, as
        ``lightgbm.LGBMModel`` does; ``get_params`` and ``set_params`` know
        them. The parameters above are translated to LightGBM's once, in one
        place, for both the in-memory and the Dask ranker. The metrics of
        LightGBM's ``metric`` (``metric="ndcg"``) are computed on the
        validation rows of early stopping, which reads only its own
        micro-pAp@k, and kept in ``evals_result_``. LightGBM's own early
        stopping (``early_stopping_round``, ``early_stopping_rounds``,
        ``early_stopping_min_delta``, ``first_metric_only``) is refused
        with a ``ValueError``: use ``early_stopping``, ``n_iter_no_change``
        and ``tol``. Two fit arguments of ``LGBMRanker`` go here:
        ``eval_at`` (the cut-offs of ``metric="ndcg"`` or ``"map"``, which
        must be given too: the ranker's own ``metric`` is ``"None"``), and
        ``categorical_feature``, the positions or, for a DataFrame, the
        names of integer-coded columns to split as categories (besides a
        DataFrame's ``category`` columns; one position or name alone is
        taken as a list of one, where ``LGBMRanker`` ignores it).
        ``class_weight`` weighs the rows by their label, as in
        ``LGBMClassifier``: a dict keyed by the labels
        of ``y`` (``classes_``; a label left out weighs 1, a key that is not
        a label is refused) or ``"balanced"`` (``n_rows / (2 * n_label)``,
        counted over the training rows); :meth:`fit` multiplies
        ``sample_weight`` by these weights (LightGBM itself would weigh the
        ranker's 0/1 relevance codes). Under ``"pairwise_logistic"`` a
        weight shared by every row of a label scales all the pairs of a
        user alike: it moves the users' weights (``"inverse_variance"``
        counts weighted rows), not a user's own pairs, so with
        ``group_weight="uniform"`` it changes nothing but rounding. A name
        that LightGBM does not know (a typo, which LightGBM ignores) or an
        alias of a parameter above with another value (``max_iter``,
        ``min_data_in_leaf``..., which LightGBM would read instead of it)
        gives a ``UserWarning``.

    Attributes
    ----------
    booster_ : lightgbm.Booster
        The trees used by :meth:`decision_function`: under early stopping,
        those up to the best round (the later rounds' trees dropped, as
        ``LGBMRanker.fit`` does; its ``best_score`` holds the metrics of
        that round, ``best_score_``), else every round's. Its
        ``best_iteration`` is ``best_iteration_``. LightGBM's functions that
        take an ``LGBMModel`` (``lightgbm.plot_importance``,
        ``create_tree_digraph``) take it, and ``plot_metric`` takes
        ``evals_result_``: the ranker is not an ``LGBMModel``. Its objective
        is a Python function for the skpapk objectives, so
        ``booster_.refit`` (which needs LightGBM's own objective) works with
        ``objective="binary"``, ``"lambdarank"`` or ``"rank_xendcg"`` only.

    best_iteration_ : int
        Number of trees used by :meth:`decision_function`: the round with
        the best validation micro-pAp@k under early stopping, else
        ``n_iter_``.

    n_iter_ : int
        Number of boosting rounds run that added a tree, the rounds after
        the best one under early stopping too (``lightgbm.train`` goes on
        with the rounds after one adds no tree, when no leaf meets the
        split requirements; those rounds do not count). Without early
        stopping, the number of trees of ``booster_``.

    validation_scores_ : ndarray of shape (`n_iter_`,) or None
        Validation micro-pAp@k after every tree; ``None`` without early
        stopping, and for the constant model of the skpapk objectives on
        data where no feature can be split (no round was run).

    evals_result_ : dict or None
        Every metric of the validation rows after every tree, as
        ``lightgbm.LGBMRanker.evals_result_``: ``evals_result_["valid_0"]``
        maps ``"micro_papk@<k>"`` (the values of ``validation_scores_``)
        and the names of the metrics of LightGBM's ``metric`` parameter
        (e.g. ``"ndcg@1"`` to ``"ndcg@5"`` with ``metric="ndcg"``) to lists
        of ``n_iter_`` values; ``None`` without early stopping, and for the
        constant model of the skpapk objectives on data where no feature
        can be split.
        :class:`skpapk.dask.PApKBoostRanker` fitted on dask collections
        has ``"micro_papk@<k>"`` only (LightGBM's Dask interface evaluates
        no validation rows).

    classes_ : ndarray of shape (2,)
        The labels of ``y``; the last one is the relevant label.

    n_groups_skipped_ : int
        Training groups without a relevant or without an irrelevant row (no
        pairs: zero gradients under the skpapk objectives; their rows still
        shape the trees, see the Notes).

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when ``X`` has string column
        names. They are ``booster_``'s feature names too when LightGBM
        takes them as they are (printable ASCII without spaces or JSON's
        special characters ``,:[]{}"\\``); else those are LightGBM's
        ``Column_0``, ``Column_1``...

    See Also
    --------
    skpapk.losses.LightGBMObjective : The objective, for your own
        ``lightgbm.LGBMRanker`` or ``lightgbm.train``.
    skpapk.PApKRanker : Linear rankers trained on the paper's surrogates.
    sklearn.ensemble.HistGradientBoostingClassifier : Boosted trees for the
        row-wise logistic loss.

    Notes
    -----
    ``sample_weight`` weighs the rows of the loss. Under the skpapk
    objectives they are exact frequency weights of the loss: a row of
    weight 2 has the gradient and Hessian of two copies of it in its
    user's pairs and in ``n+``, ``n-``; except in a user with more relevant
    or irrelevant rows than ``truncation_level``, whose top rows are
    counted in rows, not in weight. LightGBM's own objectives weigh
    rows as LightGBM does: ``"binary"`` multiplies each row's logistic
    gradient and Hessian by its weight, and ``"lambdarank"`` and
    ``"rank_xendcg"`` do so after computing the user's lambdas (not
    frequency weights). The trees are not the trees of duplicated rows,
    under any objective: LightGBM grows them with counts of rows that
    ignore the weights (``min_child_samples``, the features' bins, the
    numbers of rows it estimates from the Hessians), so a row of weight 2
    and two copies of it give different models, as with
    ``lightgbm.LGBMRegressor(objective="binary")``, and a zero weight is
    not the same as leaving the row out. So are the rows of a user without
    a relevant or without an irrelevant row (``n_groups_skipped_``): they
    have no pair and a zero gradient, but they stay in LightGBM's data (its
    bins and counts of rows, and the objective's ``scale``, the number of
    rows or, with ``sample_weight``, their total weight), so adding or
    removing such a user changes the trees; leave those
    rows out before ``fit`` for a model that does not depend on them.

    The defaults were chosen on validation micro-pAp@k of MovieLens 100K
    (``load_movielens_100k``, 60/20/20 split inside every user, features
    scaled on train, k in {8, 16, 24}). Untuned, with the default trees,
    test micro-pAp@k (%) at k = 8 / 16 / 24, mean of three splits:
    ``"pairwise_logistic"`` 56.6 /
    63.9 / 67.3; the same with ``group_weight="uniform"`` 55.4 / 62.7 /
    66.1; ``"soft_papk"`` at temperature 10, 3 and 1: 56.8 / 64.2 /
    67.4, 56.0 / 63.4 / 67.3 and 53.4 / 62.3 / 66.3;
    ``"binary"`` 56.4 / 63.5 / 66.9. Tuned on validation, LightGBM's
    ``"rank_xendcg"`` and ``"lambdarank"`` score 55.4 / 62.6 / 66.0 and
    54.4 / 62.0 / 65.8, and
    :class:`~sklearn.ensemble.HistGradientBoostingClassifier` with its
    defaults 55.6 / 62.8 / 66.3 (the table of
    :doc:`/user_guide/benchmarks`). The soft
    top-k weighting does not end measurably above the pairwise logistic
    loss of every pair (the differences are within the spread of the
    splits), and colder temperatures lose. A likely reason: pAp@k's top
    pairs are few, and a user's top-scored irrelevant items are often good
    items rated below 5 (only ratings of 5 are relevant), so weighting
    them up fits noise.

    Objectives that read ``k`` by their pairs were tried on the same
    protocol, chosen on the validation part: the pairwise logistic loss of
    the pairs of every user's top ``T = k``, ``2 k`` or ``4 k`` rows only
    (``truncation_level``), and every pair plus the pairs of the top
    ``T = k`` weighted up. None scored 0.5 points above
    ``"pairwise_logistic"`` on validation at k = 8 (``T = k`` lost about
    1.5 points, ``T = 4 k`` and the weight-1 mixture were within 0.2
    points, the weight-3 mixture 0.8 points below), so the default stays
    the k-blind loss. Two later studies agree: user
    weights that read ``k`` (the relevant count capped at a multiple of
    ``k``), chosen on validation, were ahead by +0.25 / +0.46 / +0.30
    points on the test users, 1.1 / 2.2 / 1.7 standard errors; pairs
    weighted by the change of the user's pAp@k when the two are exchanged
    (LambdaLoss, Wang et al., CIKM 2018) fitted the training rows better
    and lost on validation; the default model refined by 10 or 30 trees
    of a loss that reads ``k`` moved by -0.11 / +0.07 / -0.02 points,
    chosen on validation. :doc:`/user_guide/benchmarks` lists these
    studies.

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization and
    Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    >>> from skpapk import PApKBoostRanker
    >>> from skpapk.datasets import make_papk_simulation
    >>> X, y, groups = make_papk_simulation(n_users=30, n_pos=(2, 10),
    ...                                     n_neg=(20, 60), random_state=0)
    >>> ranker = PApKBoostRanker(k=5, n_estimators=50, early_stopping=True,
    ...                          random_state=0).fit(X, y, groups=groups)
    >>> ranker.best_iteration_ <= ranker.n_iter_ <= 50
    True
    >>> 0.5 < ranker.score(X, y, groups=groups) <= 1.0
    True
    """

    _splits_categories = True

    _parameter_constraints: dict = {
        "k": [Interval(Integral, 1, None, closed="left")],
        "objective": [StrOptions(set(OBJECTIVES))],
        "temperature": [Interval(Real, 0, None, closed="neither")],
        "group_weight": [StrOptions(set(GROUP_WEIGHTS))],
        "truncation_level": [Interval(Integral, 1, None, closed="left"), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "num_leaves": [Interval(Integral, 2, 131072, closed="both")],
        "max_depth": [Interval(Integral, None, None, closed="neither")],
        "min_child_samples": [Interval(Integral, 0, None, closed="left")],
        "min_child_weight": [Interval(Real, 0, None, closed="left")],
        "subsample": [Interval(Real, 0, 1, closed="right")],
        "colsample_bytree": [Interval(Real, 0, 1, closed="right")],
        "reg_alpha": [Interval(Real, 0, None, closed="left")],
        "reg_lambda": [Interval(Real, 0, None, closed="left")],
        "early_stopping": [StrOptions({"auto"}), "boolean"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": [Interval(Integral, None, -1, closed="right"),
                   Interval(Integral, 1, None, closed="left"), None],
        "verbose": [Interval(Integral, -1, None, closed="left"), "boolean"],
        "pos_label": [Real, str, "boolean", None],
    }

    def __init__(self, *, k=_defaults.K, objective=_defaults.BOOST_OBJECTIVE,
                 temperature=_defaults.BOOST_TEMPERATURE,
                 group_weight=_defaults.GROUP_WEIGHT,
                 truncation_level=_defaults.BOOST_TRUNCATION_LEVEL,
                 n_estimators=_defaults.BOOST_N_ESTIMATORS,
                 learning_rate=_defaults.BOOST_LEARNING_RATE,
                 num_leaves=_defaults.BOOST_NUM_LEAVES, max_depth=-1,
                 min_child_samples=20, min_child_weight=1e-3, subsample=1.0,
                 colsample_bytree=1.0, reg_alpha=0.0, reg_lambda=0.0,
                 early_stopping=False,
                 validation_fraction=_defaults.VALIDATION_FRACTION,
                 n_iter_no_change=_defaults.BOOST_N_ITER_NO_CHANGE,
                 tol=_defaults.BOOST_TOL, random_state=None, n_jobs=None,
                 verbose=0, pos_label=None, **kwargs):
        self.k = k
        self.objective = objective
        self.temperature = temperature
        self.group_weight = group_weight
        self.truncation_level = truncation_level
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.max_depth = max_depth
        self.min_child_samples = min_child_samples
        self.min_child_weight = min_child_weight
        self.subsample = subsample
        self.colsample_bytree = colsample_bytree
        self.reg_alpha = reg_alpha
        self.reg_lambda = reg_lambda
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.pos_label = pos_label
        # other parameters of LightGBM's scikit-learn estimators, passed
        # through unchecked (as ``lightgbm.LGBMModel`` keeps them)
        self._other_params = {}
        self.set_params(**kwargs)

    def get_params(self, deep=True):
        """Get the parameters of this ranker, LightGBM's own included.

        The LightGBM parameters passed through ``**kwargs`` come with this
        ranker's own.

        Parameters
        ----------
        deep : bool, default=True
            Also the parameters of contained estimators (there are none).

        Returns
        -------
        params : dict
            Parameter names mapped to their values.
        """
        params = super().get_params(deep=deep)
        params.update(self._other_params)
        return params

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # LightGBM's missing values
        return tags

    def set_params(self, **params):
        """Set the parameters of this ranker, LightGBM's own included.

        Parameters
        ----------
        **params : dict
            Parameters of this ranker; names it does not have are
            LightGBM parameters, handed to ``lightgbm.LGBMRanker`` as they
            are.

        Returns
        -------
        self : PApKBoostRanker
            This ranker.
        """
        # the names only: __init__ calls this before a subclass has set
        # its own parameters
        own = self._get_param_names()
        for key, value in params.items():
            setattr(self, key, value)
            if key not in own:
                self._other_params[key] = value
        return self

    def _uses_early_stopping(self, n_samples, validation=False):
        """``early_stopping`` resolved: ``"auto"`` is on above 10,000 rows or
        with validation rows given (``validation``), and off in dart mode,
        where ``True`` (or validation rows) is refused; LightGBM's own
        ``early_stopping_round`` is refused."""
        name = type(self).__name__
        for alias in _EARLY_STOPPING_ROUND_ALIASES:
            rounds = self._other_params.get(alias)
            if rounds is not None and rounds > 0:  # LightGBM: <= 0 is off
                raise ValueError(
                    f"{alias}={rounds!r} is LightGBM's own early stopping, "
                    f"which needs a validation set and metric of its own; "
                    f"{name} stops on the validation micro-pAp@k itself: set "
                    f"early_stopping=True and n_iter_no_change (the rounds "
                    f"without improvement before stopping, here {rounds!r}) "
                    f"instead, and drop {alias} (set_params({alias}=None)).")
        # the settings of LightGBM's own early stopping, which would be
        # ignored: its minimum improvement is this ranker's tol, and its
        # stopping reads one metric, micro-pAp@k
        delta = self._other_params.get("early_stopping_min_delta")
        if delta is not None and np.any(np.asarray(delta, dtype=object) != 0):
            raise ValueError(
                f"early_stopping_min_delta={delta!r} sets LightGBM's own early "
                f"stopping, which {name} does not use: set tol, one number >= 0 "
                f"(the improvement of the validation micro-pAp@k that resets "
                f"the count of n_iter_no_change; unlike min_delta, it does not "
                f"keep an earlier best round over a slightly better later "
                f"one), instead, and drop "
                f"early_stopping_min_delta (set_params("
                f"early_stopping_min_delta=None)).")
        if self._other_params.get("first_metric_only"):
            raise ValueError(
                f"first_metric_only=True sets LightGBM's own early stopping, "
                f"which {name} does not use: its early stopping reads the "
                f"validation micro-pAp@k only, whatever metric says; drop "
                f"first_metric_only (set_params(first_metric_only=None)).")
        auto = isinstance(self.early_stopping, str)  # "auto"
        dart = self._boosting("dart")
        rf = self._boosting("rf", "random_forest")
        if rf is not None and self.objective in SMOOTH_SURROGATES:
            raise ValueError(
                f"{rf}={self._other_params[rf]!r} cannot train "
                f"objective={self.objective!r}: LightGBM's random forest mode "
                f"takes its own objectives only; use objective='lambdarank', "
                f"'rank_xendcg' or 'binary' (with subsample < 1), or "
                f"{rf}='gbdt'.")
        self._check_goss_sampling()
        if dart is not None and (validation or not auto and self.early_stopping):
            given, fix = (
                ("X_val, y_val and groups_val (the validation rows of early "
                 "stopping)", "leave the validation rows out")
                if validation else
                ("early_stopping=True", "set early_stopping=False (or "
                 "'auto', which does not stop dart)"))
            raise ValueError(
                f"{given} cannot be used with "
                f"{dart}={self._other_params[dart]!r}: dart rescales "
                f"the earlier trees at every round, so the trees of the best "
                f"round are not the model that was scored at that round "
                f"(LightGBM turns its own early stopping off in dart mode); "
                f"{fix}, or use {dart}='gbdt'.")
        if auto:
            return validation or (dart is None and n_samples > 10_000)
        return bool(self.early_stopping)

    def _check_goss_sampling(self):
        """Refuse ``subsample < 1`` (or an alias) with GOSS: LightGBM fails
        on bagging there ("Cannot use bagging in GOSS"), and
        ``LGBMRanker``, which bags only with ``subsample_freq``, ignores
        ``subsample`` silently."""
        modes = [(alias, "gbdt") for alias in _BOOSTING_ALIASES] + [
            (alias, "bagging") for alias in
            ("data_sample_strategy", *sorted(_aliases("data_sample_strategy")))]
        goss, other = next(((alias, other) for alias, other in modes
                            if isinstance(self._other_params.get(alias), str)
                            and self._other_params[alias].lower() == "goss"),
                           (None, None))
        if goss is None:
            return
        name = next((alias for alias in sorted(_aliases("subsample"))
                     if self._other_params.get(alias) is not None), "subsample")
        value = getattr(self, name)
        if isinstance(value, Real) and value < 1:
            raise ValueError(
                f"{name}={value!r} cannot be used with "
                f"{goss}={self._other_params[goss]!r}: GOSS draws the rows of "
                f"every round itself (top_rate, other_rate), and LightGBM "
                f"bags no rows with it (LGBMRanker ignores subsample there); "
                f"set {name}=1.0, or {goss}={other!r} to draw a fraction of "
                f"the rows every round.")

    def _boosting(self, *modes):
        """The ``boosting_type`` alias passed through set to one of
        ``modes``, else None."""
        return next((alias for alias in _BOOSTING_ALIASES
                     if isinstance(self._other_params.get(alias), str)
                     and self._other_params[alias].lower() in modes), None)

    def _lightgbm_seed(self, rng):
        """LightGBM's seed from ``random_state`` (drawn from ``rng`` when it
        is a ``RandomState``)."""
        if self.random_state is None or isinstance(self.random_state, Integral):
            return self.random_state
        return int(rng.randint(np.iinfo(np.int32).max))

    def _warn_no_split(self, rows="the training rows", grown=False,
                       weighted=False):
        """Every tree would be (``grown``: is) one leaf: the constant model's
        warning (``weighted``: under a ``sample_weight``)."""
        gain = self._other_params.get("min_split_gain",
                                      self._other_params.get("min_gain_to_split"))
        why = (f"no split passed LightGBM's limits, such as min_child_samples="
               f"{self.min_child_samples} and min_child_weight="
               f"{self.min_child_weight}"
               + (f", and min_split_gain={gain!r}" if gain else "") + (
                   ", a sum of Hessians, which sample_weight scales: weights "
                   "far below 1 leave none, multiply them by a constant, e.g. "
                   "to a mean of 1" if weighted else "")
               ) if grown else (
               f"every feature is constant over {rows}, or has too few rows "
               f"for min_child_samples={self.min_child_samples}, or lies within "
               f"1e-35 of 0, which LightGBM reads as 0: rescale such features")
        what = "The trees have no split" if grown else (
            "No feature of X can be split on")
        warnings.warn(f"{what} ({why}): the ranker scores every row alike.",
                      UserWarning, stacklevel=_stacklevel())

    def _lightgbm_objective(self, **options):
        """The ``objective`` LightGBM gets: a callable, with
        :class:`~skpapk.losses.LightGBMObjective`'s ``options`` (``n_jobs``
        by default this ranker's threads), or its own name."""
        if self.objective not in SMOOTH_SURROGATES:
            return self.objective
        options.setdefault("n_jobs", self._n_threads())
        return LightGBMObjective(self.objective, k=self.k,
                                 temperature=self.temperature,
                                 group_weight=self.group_weight,
                                 truncation_level=self.truncation_level,
                                 **options)

    def _n_threads(self):
        """Threads of LightGBM (fit and predict) and of the objective's
        kernel: ``None``, the OpenMP threads this process may use, as
        HistGradientBoostingClassifier (one in each worker of a parallel
        search; LightGBM's own ``None`` takes every physical core there too,
        and slowed a search of two workers on two cores about 4x)."""
        return effective_n_threads(self.n_jobs)

    def _lightgbm_params(self, seed):
        """Keyword arguments of ``lightgbm.LGBMRanker`` (and of
        ``lightgbm.DaskLGBMRanker``): the one translation of this ranker's
        parameters, then the LightGBM parameters passed through; an alias
        of ``subsample`` passed through without ``subsample_freq`` redraws
        the rows every round as ``subsample`` does."""
        params = with_passed_through(self._translated(seed), self._other_params)
        if isinstance(params["n_jobs"], Integral) and not isinstance(
                params["n_jobs"], (bool, np.bool_)):  # an alias passed through
            # capped as n_jobs is; 0, LightGBM's default: as None
            params["n_jobs"] = effective_n_threads(params["n_jobs"] or None)
        # applied by fit to the rows, by the labels of y (LightGBM would
        # weigh the 0/1 relevance codes)
        params.pop("class_weight", None)
        if all(self._other_params.get(name) is None
               for name in ("subsample_freq", *_aliases("subsample_freq"))):
            params["subsample_freq"] = _bagging_freq(params["subsample"])
        return params

    def _translated(self, seed):
        """This ranker's parameters as LightGBM's."""
        params = {
            "objective": self._lightgbm_objective(),
            "n_estimators": self.n_estimators,
            "learning_rate": self.learning_rate,
            "num_leaves": self.num_leaves,
            "max_depth": self.max_depth,
            "min_child_samples": self.min_child_samples,
            "min_child_weight": self.min_child_weight,
            "subsample": self.subsample,
            "subsample_freq": _bagging_freq(self.subsample),
            "colsample_bytree": self.colsample_bytree,
            "reg_alpha": self.reg_alpha,
            "reg_lambda": self.reg_lambda,
            "random_state": seed,
            "n_jobs": self._n_threads(),
            "verbose": 1 if self.verbose >= 2 else -1,
            "metric": "None",
        }
        if self.objective == "lambdarank":
            # an int32 of LightGBM's
            params["lambdarank_truncation_level"] = min(2 * self.k, 2**31 - 1)
        return params

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, *, groups=None, sample_weight=None, X_val=None,
            y_val=None, groups_val=None, **kwargs):
        """Fit the boosted trees.

        Parameters
        ----------
        X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)
            Features of every (user, item) row; dense or CSR. NaN marks a
            missing value, handled by LightGBM (``use_missing``: each split
            learns the side that missing values go to); infinite values are
            refused. The ``category`` columns of a pandas DataFrame are
            split as categories, as ``LGBMRanker`` does: coded by their
            categories, kept in ``booster_.pandas_categorical`` to code the
            DataFrames scored later (an unseen category is missing), and
            the unordered ones passed as LightGBM's ``categorical_feature``.
        y : array-like of shape (n_samples,)
            Binary relevance labels: ``pos_label``, else the greater of two
            numbers, is relevant.
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row, any sortable hashable values,
            rows in any order; ``None``: all rows form one group.
            Keyword-only, as ``sample_weight``: ``LGBMRanker.fit``'s third
            positional argument is ``sample_weight``, so ``fit(X, y, w)`` is
            a ``TypeError`` here, not weights read as users.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative row weights (see the class Notes), multiplied by
            those of ``class_weight`` when it is given; each product 0 or
            from 1e-30 to 1e30. Not requested by
            metadata routing: call ``set_fit_request(sample_weight=True)``.
        X_val : {array-like, sparse matrix, DataFrame} of shape \
                (n_val, n_features), default=None
            Validation rows of early stopping, instead of the
            ``validation_fraction`` of every user's rows held out of ``X``
            (as ``HistGradientBoostingClassifier.fit``'s ``X_val``): every
            row of ``X`` then trains. Needs ``early_stopping`` True or
            ``"auto"`` (which it turns on).
        y_val : array-like of shape (n_val,), default=None
            Labels of the validation rows, among those of ``y``.
        groups_val : array-like of shape (n_val,), default=None
            Group (user) of every validation row; given with ``groups``.
        **kwargs : dict
            None taken: the arguments of ``LGBMRanker.fit`` (``group``,
            ``eval_set``, ``eval_at``, ``categorical_feature``,
            ``callbacks``...) and LightGBM's parameters raise a
            ``TypeError`` that says what to do instead (``groups=``,
            ``X_val``, the constructor...).

        Returns
        -------
        self : object
            Fitted ranker.
        """
        lgb = _import_lightgbm()
        refuse_fit_keywords(self, lgb, kwargs, _FIT_ARGUMENTS)
        positions = _category_columns(X)  # checked in predict and for X_val
        X, categories, categorical = categorical_codes(X)
        X, y_pos, codes, n_groups = self._validate_fit_data(X, y, groups)
        # (a ranker pickled before it has none: its columns are not checked)
        self._category_positions = positions
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X,
                                                dtype=np.float64)
        if X_val is not None:
            X_val = categorical_codes(
                X_val, categories or [], input_name="X_val",
                positions=self._category_positions,
                feature_names=getattr(self, "feature_names_in_", None))[0]
        given = self._validate_val_data(X_val, y_val, groups_val, groups)
        early_stopping = self._uses_early_stopping(
            X.shape[0], validation=given is not None)
        rng = check_random_state(self.random_state)
        if early_stopping and given is None:
            try:
                train, val = _early_stopping_rows(
                    y_pos, codes, n_groups, self.validation_fraction, rng,
                    setting=f"early_stopping={self.early_stopping!r}")
            except EarlyStoppingSplitError as exc:
                if self.early_stopping != "auto":
                    raise
                # "auto": off where the split leaves nothing to train or score
                early_stopping = False
                warnings.warn(f"Early stopping is off for this fit: {exc}",
                              UserWarning, stacklevel=_stacklevel())
            else:
                self.n_groups_skipped_ = n_undefined_groups(
                    y_pos[train], codes[train], n_groups)
        seed = self._lightgbm_seed(rng)
        # LightGBM wants each group's rows together: one index selects the
        # training rows and sorts them by group (no copy when every row
        # trains and the rows already come by group, the usual layout of a
        # recommender table)
        if early_stopping and given is None:
            order = stable_sort_by_codes(codes, n_groups, order=train)
        elif np.all(codes[1:] >= codes[:-1]):
            order = slice(None)
        else:
            order = stable_sort_by_codes(codes, n_groups)
        sizes = np.bincount(codes[order], minlength=n_groups)
        _check_group_sizes(self.objective, sizes, groups is None)
        fit_params = {
            "group": sizes[sizes > 0],
            "sample_weight": (None if sample_weight is None
                              else sample_weight[order]),
        }
        # class_weight by the labels of y, times sample_weight (as LightGBM
        # does, which would weigh the 0/1 relevance codes)
        weights = _class_row_weights(self._other_params.get("class_weight"),
                                     self.classes_.tolist(), y_pos[order])
        if weights is not None:
            fit_params["sample_weight"] = (
                weights if sample_weight is None
                else np.multiply(fit_params["sample_weight"], weights))
        _check_weighted_pairs(
            fit_params["sample_weight"], y_pos[order], codes[order], n_groups,
            name=" times ".join(name for name, used in [
                ("sample_weight", sample_weight is not None),
                ("class_weight", weights is not None)] if used),
            ours=self.objective in SMOOTH_SURROGATES)

        if early_stopping:
            if given is None:  # held out of X
                X_v, y_v, codes_v, n_v = X, y_pos, codes, n_groups
                val_order = stable_sort_by_codes(codes, n_groups, order=val)
            else:
                X_v, y_v, codes_v, n_v = given
                val_order = stable_sort_by_codes(codes_v, n_v)
            val_sizes = np.bincount(codes_v[val_order], minlength=n_v)
            metric = micro_papk_lightgbm(self.k)
            stopper = _EarlyStopping(metric.__name__, self.tol,
                                     self.n_iter_no_change, self.verbose)
            fit_params.update(
                _eval_rows(lgb, _lightgbm_input(X_v[val_order]),
                           y_v[val_order].astype(np.float64)),
                eval_group=[val_sizes[val_sizes > 0]],
                eval_metric=metric,
                callbacks=[stopper])
        params = self._lightgbm_params(seed)
        if callable(params["objective"]) and _truncates(
                y_pos[order], codes[order], n_groups, self.truncation_level):
            # the truncated groups' tied scores ranked by the rows' values,
            # not by their order: the trees do not depend on the row order
            params["objective"] = self._lightgbm_objective(
                tie_breaker=_row_tie_breaker(X)[order])
        fit_params.update(fit_arguments(self, lgb, params, categorical,
                                        X.shape[1], seed))
        _check_category_codes(X, fit_params.get("categorical_feature", ()),
                              getattr(self, "feature_names_in_", None))
        # LightGBM cannot train a custom objective without a feature to
        # split on, and writes so to stderr: stop before, silently
        usable = _CheckUsableFeatures(stop=callable(params["objective"]))
        fit_params["callbacks"] = [usable, *fit_params.get("callbacks", [])]
        if self.verbose > 0:
            print(f"Fitting {type(self).__name__} (objective={self.objective!r}, "
                  f"k={self.k}) on {int(sizes.sum())} rows, {n_groups} groups; "
                  f"{self.n_groups_skipped_} groups skipped (no relevant or no "
                  f"irrelevant row).")
        model = lgb.LGBMRanker(**params)
        try:
            # (LightGBM prints nothing at verbosity -1; sys.stdout is not
            # swapped: that is the process's, other threads' too)
            model.fit(_lightgbm_input(X[order]), y_pos[order].astype(np.float64),
                      **fit_params)
        except (_NoUsableFeature, lgb.basic.LightGBMError) as exc:
            if not (isinstance(exc, _NoUsableFeature)
                    or _no_usable_feature(exc)):
                raise
            self._warn_no_split()
            self.booster_ = _constant_booster(lgb, params, X.shape[1])
            self.booster_.pandas_categorical = categories
            self.n_iter_ = self.best_iteration_ = 1
            self.validation_scores_ = self.evals_result_ = None
            return self
        if usable.none_usable:  # LightGBM's own objective: a constant tree
            self._warn_no_split()
        elif not model.booster_.feature_importance().any():
            self._warn_no_split(grown=True,
                                weighted=fit_params["sample_weight"] is not None)
        self.booster_ = model.booster_
        if early_stopping:
            self.validation_scores_ = np.asarray(stopper.scores,
                                                 dtype=np.float64)
            self.n_iter_ = self.validation_scores_.shape[0]
            self.best_iteration_ = stopper.best_iteration + 1
            self.evals_result_ = stopper.recorded(model.evals_result_)
            # the trees after the best round dropped, as LGBMRanker's fit
            self.booster_ = _trees_up_to(lgb, self.booster_,
                                         self.best_iteration_)
            self.booster_.best_score = stopper.booster_best_score()
        else:
            self.n_iter_ = self.booster_.current_iteration()
            self.best_iteration_ = self.n_iter_
            self.validation_scores_ = self.evals_result_ = None
        self.booster_.pandas_categorical = categories  # as fitted on a DataFrame
        self.booster_.best_iteration = self.best_iteration_
        return self
