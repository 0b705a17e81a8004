"""scikit-learn's estimator checks over every public ranker (in memory and,
with dask installed, distributed: on in-memory input they are the same)."""

import importlib.util

import pytest
from sklearn.base import BaseEstimator
from sklearn.utils.estimator_checks import parametrize_with_checks

import skpapk


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


# scikit-learn's checks fit every ranker, with its default parameters, on a
# few rows of random data without a signal (and without groups): the warnings
# that say so are expected there, each from one family of rankers:
# the linear rankers' solver (a surrogate lowest at w_0 = 0; max_iter reached),
@pytest.mark.filterwarnings(
    "ignore:The objective never went below:sklearn.exceptions.ConvergenceWarning")
@pytest.mark.filterwarnings(
    "ignore:Maximum number of iterations:sklearn.exceptions.ConvergenceWarning")
# SelectPApKRanker's pool of top rows (still changing after max_iter rounds),
@pytest.mark.filterwarnings(
    "ignore:The pool of top rows still changed:sklearn.exceptions.ConvergenceWarning")
# GreedyPApKRanker's base scorers (fewer rows of a label than n_estimators),
@pytest.mark.filterwarnings("ignore:n_estimators=5 base scorers need:UserWarning")
# PApKBoostRanker's trees (fewer rows than min_child_samples=20: no split).
@pytest.mark.filterwarnings("ignore:No feature of X can be split on:UserWarning")
@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
