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
#: MovieLens 100K). Boosting recomputes its gradient every round, so the
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
#: Stopping tolerance of the linear rankers.
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
