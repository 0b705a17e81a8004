"""scikit-learn's estimator checks on every public estimator of skpapk."""

import importlib.util

from sklearn.utils.estimator_checks import parametrize_with_checks

from skpapk import (
    GreedyPApKRanker,
    PApKAvgRanker,
    PApKBoostRanker,
    PApKMaxRanker,
    PApKRampRanker,
    PApKRanker,
    PApKTSRanker,
    PAUCRanker,
    PrecAtKRanker,
    SelectPApKRanker,
)
from skpapk.tests._helpers import expect_estimator_check_warnings

# One instance of every public estimator: add new estimators here. A small
# max_iter keeps the checks fast (a ConvergenceWarning is expected).
ESTIMATORS = [
    PApKRanker(max_iter=20),
    PApKRanker(surrogate="max", max_iter=20, radius=10.0),
    PApKAvgRanker(max_iter=20),
    PApKMaxRanker(max_iter=20),
    PApKTSRanker(max_iter=20),
    PApKRampRanker(max_iter=20),
    PAUCRanker(max_iter=20),
    PrecAtKRanker(max_iter=20),
    GreedyPApKRanker(n_estimators=3, random_state=0),
    SelectPApKRanker(max_iter=3),
]
if importlib.util.find_spec("lightgbm") is not None:  # an optional dependency
    # min_child_samples=1: the checks' small data sets still get split on
    ESTIMATORS += [
        PApKBoostRanker(n_estimators=5),
        PApKBoostRanker(objective="soft_papk", n_estimators=5, min_child_samples=1),
        PApKBoostRanker(objective="lambdarank", n_estimators=5, min_child_samples=1),
    ]

# The distributed rankers (optional extra `dask`) on the checks' in-memory
# data: it goes to the in-memory fit they inherit.
if importlib.util.find_spec("dask") is not None:
    import skpapk.dask

    ESTIMATORS += [
        getattr(skpapk.dask, name)(max_iter=20)
        for name in skpapk.dask.__all__
        if name.endswith("Ranker") and name != "PApKBoostRanker"
    ]
    if importlib.util.find_spec("lightgbm") is not None:
        ESTIMATORS += [skpapk.dask.PApKBoostRanker(n_estimators=5)]


_LAMBDA_WEIGHTS = (
    "LightGBM's lambdarank multiplies each row's gradient and Hessian by its "
    "weight after computing its query's lambdas (from the ranks of all its "
    "rows, whatever their weights): a row of weight 0 still moves the others' "
    "lambdas and a row of weight 2 is not two copies of the row."
)


def expected_failed_checks(estimator):
    """The checks an estimator is known to fail, with the reason."""
    weight_checks = ("check_sample_weight_equivalence_on_dense_data",
                     "check_sample_weight_equivalence_on_sparse_data")
    if isinstance(estimator, PApKBoostRanker) and estimator.objective == "lambdarank":
        return dict.fromkeys(weight_checks, _LAMBDA_WEIGHTS)
    return {}


@expect_estimator_check_warnings
@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
