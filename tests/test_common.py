"""scikit-learn's estimator checks on every public estimator of skpapk."""

import importlib.util

from sklearn.utils.estimator_checks import parametrize_with_checks

from skpapk import (
    GreedyPApKRanker,
    PApKAvgRanker,
    PApKMaxRanker,
    PApKRampRanker,
    PApKRanker,
    PApKTSRanker,
    PAUCRanker,
    PrecAtKRanker,
    SelectPApKRanker,
)

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

# The distributed rankers (optional extra `dask`) on the checks' in-memory
# data: it goes to the in-memory fit they inherit.
if importlib.util.find_spec("dask") is not None:
    import skpapk.dask

    ESTIMATORS += [
        skpapk.dask.PApKRanker(max_iter=20),
        skpapk.dask.PApKAvgRanker(max_iter=20),
        skpapk.dask.PrecAtKRanker(max_iter=20),
    ]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
