"""Default values shared by the estimators, the objectives and the CLI.

Stated once here; the signatures of the public classes and functions use
these names (their docstrings repeat the values, as numpydoc needs). Where
two models use different values, both constants are here with the reason.
"""

#: Number of items shown to each user: the ``k`` of pAp@k.
K = 10

#: Temperature of the ``"soft_papk"`` surrogate, in units of each user's
#: score standard deviation: the linear ranker, ``surrogate_loss`` and
#: ``SoftPApKSurrogate``.
TEMPERATURE = 1.0
#: The boosted ranker's (``PApKBoostRanker``, ``LightGBMObjective``): chosen
#: by its own measurement on MovieLens 100K (10 scored as high as
#: ``"pairwise_logistic"``, 3 and below lower). The linear ranker's 1.0 was
#: not chosen that way: on MovieLens 100K (``linear_rankers_why.md``,
#: section 8) every temperature from 0.5 to 8 scored below its default
#: surrogate ``"pairwise_logistic"``, the higher ones closer (8 above 1);
#: it was not re-chosen on other data, so each model keeps its value.
BOOST_TEMPERATURE = 10.0

#: Weight of each user in the smooth surrogates' mean, for the estimators
#: (``PApKRanker``, ``PApKBoostRanker``, ``LightGBMObjective``): the inverse
#: variance of the user's AUC, a better estimate of ``w``.
GROUP_WEIGHT = "inverse_variance"
#: The same for the loss functions themselves (``surrogate_loss`` and the
#: surrogate classes): every user alike, the mean over users of the paper's
#: micro-pAp@k (eq. 17), which the four paper surrogates always use.
SURROGATE_GROUP_WEIGHT = "uniform"

#: Bound on the pairs of a user with long lists, of the boosted ranker's
#: smooth objectives (``PApKBoostRanker``): a pair counts when one of its rows
#: is among its label's 100 highest scored rows of the user, so that a user
#: costs ``O(100 n)`` a round instead of ``O(n+ n-)``; exact on every user
#: with at most 100 relevant or at most 100 irrelevant rows (every user of
#: the benchmarks' 60% training parts of MovieLens 100K, not 13 users of the
#: whole data set). Boosting recomputes its gradient every round, so the
#: pairs may follow the scores.
BOOST_TRUNCATION_LEVEL = 100
#: ``PApKRanker``'s: every pair. L-BFGS needs a smooth objective; with the
#: bound, the pairs follow ``w`` and L-BFGS took 7-33x the iterations on long
#: lists (``benchmarks/results/long_lists.md``). The loss functions and
#: ``LightGBMObjective`` keep every pair too.
TRUNCATION_LEVEL = None

#: ``alpha * ||w||^2`` of ``PApKRanker`` (whose default surrogate is the
#: smooth pairwise logistic loss, fitted by L-BFGS).
ALPHA = 1e-4
#: ``alpha`` of the fixed hinge-surrogate rankers (``PApKAvgRanker`` ...,
#: ``PAUCRanker``, ``PrecAtKRanker``; Algorithm 1). Kept apart from
#: :data:`ALPHA` so that their fitted models do not change; one value for
#: both awaits a measurement (``PApKRanker(surrogate="avg")`` and
#: ``PApKAvgRanker()`` differ only by it).
HINGE_ALPHA = 1e-3

#: Algorithm 1's initial step size ``eta0`` (steps ``eta0 / sqrt(t + 1)``).
ETA0 = 1.0
#: Iterations (L-BFGS) or epochs (Algorithm 1) of the linear rankers.
MAX_ITER = 200
#: Stopping tolerance of the linear rankers, and of the lbfgs logistic
#: regressions of the baselines ``GreedyPApKRanker`` and
#: ``SelectPApKRanker`` (scikit-learn's ``LogisticRegression`` default).
TOL = 1e-4
#: Iterations without improvement before the linear rankers stop.
N_ITER_NO_CHANGE = 10
#: Fraction of every group's rows held out by ``early_stopping``.
VALIDATION_FRACTION = 0.1

#: The boosted ranker's objective (``PApKBoostRanker``'s ``objective``,
#: ``LightGBMObjective``'s ``surrogate``): the pairwise logistic loss of
#: every pair: no loss that reads ``k`` scored clearly above it on
#: MovieLens 100K (see ``PApKBoostRanker``'s Notes).
BOOST_OBJECTIVE = "pairwise_logistic"
#: The boosted ranker's trees: boosting rounds, shrinkage of every tree and
#: leaves of a tree (LightGBM's default ``num_leaves``), those of its
#: measurements on MovieLens 100K.
BOOST_N_ESTIMATORS = 100
BOOST_LEARNING_RATE = 0.05
BOOST_NUM_LEAVES = 31
#: The boosted ranker's early stopping: rounds without improvement, and the
#: improvement of the validation micro-pAp@k that counts as one. Its own
#: values since its first version, kept apart from the linear rankers'
#: :data:`N_ITER_NO_CHANGE` and :data:`TOL` (no measurement compares them).
BOOST_N_ITER_NO_CHANGE = 20
BOOST_TOL = 1e-7

#: The paper's hyper-parameter grids (App. F) for Algorithm 1's rankers:
#: ``eta0`` in 1e-4 ... 0.5 (1-2-5 steps), ``alpha`` (its lambda) in
#: 10^{-3, ..., 0}; the command line's ``--grid paper`` and the benchmarks'.
PAPER_ETA0_GRID = (1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5)
PAPER_ALPHA_GRID = (1e-3, 1e-2, 1e-1, 1.0)

#: ``PApKRanker``'s surrogate (fitted by L-BFGS): the pairwise logistic loss
#: of every pair. On MovieLens 100K the paper's hinge surrogates are lowest
#: at or near ``w = 0`` and this one ranked above a logistic regression (see
#: ``PApKRanker``'s Notes).
SURROGATE = "pairwise_logistic"
#: ``surrogate_loss``'s surrogate: the paper's avg surrogate (eq. 10), that
#: of ``PApKAvgRanker``. Its default since the function computed the paper's
#: surrogates only; kept apart from :data:`SURROGATE` so that a call without
#: ``surrogate`` keeps its value.
LOSS_SURROGATE = "avg"

#: ``GreedyPApKRanker`` (the paper's Greedy-pAp@k baseline): number of base
#: logistic regressions (folds of the fitting rows), number of weights ``a``
#: in ``[0, 1]`` tried by every line search, and fraction of every group's
#: relevant and irrelevant rows held out for the line searches. Its values
#: since its first version; no measurement chose them. The held-out
#: fraction is not :data:`VALIDATION_FRACTION` (the linear rankers' early
#: stopping): the merges are chosen on it, and changing it changes the
#: fitted models.
GREEDY_N_ESTIMATORS = 5
GREEDY_N_LINE_SEARCH = 21
GREEDY_VALIDATION_FRACTION = 0.25
#: lbfgs iterations of every logistic regression of the two baselines:
#: ``GreedyPApKRanker``'s ``max_iter`` and the fixed limit of each fit of
#: ``SelectPApKRanker`` (whose ``max_iter`` counts pooling rounds). Their
#: value since their first version (scikit-learn's is 100).
LOGISTIC_MAX_ITER = 1000
#: ``SelectPApKRanker``'s ``max_iter``: pooling rounds (logistic regressions
#: on the pool of every group's top rows, after the first fit on all rows),
#: not iterations of a solver, hence not :data:`MAX_ITER`. Its value since
#: its first version.
SELECT_MAX_ITER = 10
