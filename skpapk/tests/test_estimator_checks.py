"""scikit-learn's estimator checks over every public ranker (in memory and,
with dask installed, distributed: on in-memory input they are the same)."""

import importlib.util

from sklearn.base import BaseEstimator
from sklearn.utils.estimator_checks import parametrize_with_checks

import skpapk
from skpapk.tests._helpers import expect_estimator_check_warnings


def _public_estimators(module):
    return [getattr(module, name)() for name in sorted(module.__all__)
            if isinstance(getattr(module, name), type)
            and issubclass(getattr(module, name), BaseEstimator)
            and not name.startswith("Base")]


ESTIMATORS = _public_estimators(skpapk)
if importlib.util.find_spec("dask") is not None:
    import skpapk.dask

    ESTIMATORS += _public_estimators(skpapk.dask)
if importlib.util.find_spec("lightgbm") is None:
    ESTIMATORS = [e for e in ESTIMATORS if type(e).__name__ != "PApKBoostRanker"]


@expect_estimator_check_warnings
@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
