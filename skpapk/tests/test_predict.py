"""``predict`` of every ranker: the scores, so that scikit-learn's tools
that call ``predict`` (``Pipeline.predict``, ``cross_val_predict``) work."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GroupKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import skpapk
from skpapk._base import BaseRanker

RANKERS = sorted(
    name for name in skpapk.__all__
    if isinstance(getattr(skpapk, name), type)
    and issubclass(getattr(skpapk, name), BaseRanker)
    and not name.startswith("Base")
)
PARAMS = {"PApKBoostRanker": {"n_estimators": 5},
          "GreedyPApKRanker": {"random_state": 0}}


def _data(seed=0, n_groups=12, per_group=15):
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_groups), per_group)
    y = (rng.random(groups.shape[0]) < 0.3).astype(int)
    y[::per_group] = 1
    y[1::per_group] = 0
    X = rng.normal(size=(groups.shape[0], 4)) + y[:, None] * [1.0, 0.5, 0, 0]
    X[:, 2] *= 100.0  # a feature on another scale, for the scaler
    return X, y, groups


def _ranker(name):
    if name == "PApKBoostRanker":
        pytest.importorskip("lightgbm")
    return getattr(skpapk, name)(k=3, **PARAMS.get(name, {}))


@pytest.mark.parametrize("name", RANKERS)
def test_predict_is_the_scores(name):
    X, y, groups = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ranker = _ranker(name).fit(X, y, groups=groups)
    scores = ranker.predict(X)
    assert scores.shape == (X.shape[0],)
    np.testing.assert_array_equal(scores, ranker.decision_function(X))


@pytest.mark.parametrize("name", RANKERS)
def test_pipeline_predict_scores_the_transformed_rows(name):
    X, y, groups = _data(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        pipe = make_pipeline(StandardScaler(), _ranker(name))
        with sklearn.config_context(enable_metadata_routing=True):
            pipe.fit(X, y, groups=groups)
    ranker = pipe[-1]
    np.testing.assert_array_equal(
        pipe.predict(X), ranker.decision_function(pipe[0].transform(X)))


@pytest.mark.parametrize("name", ["PApKRanker", "PApKMaxRanker", "GreedyPApKRanker"])
def test_cross_val_predict_gives_each_row_the_score_of_its_held_out_fold(name):
    X, y, groups = _data(2)
    cv = GroupKFold(n_splits=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with sklearn.config_context(enable_metadata_routing=True):
            got = cross_val_predict(_ranker(name), X, y, cv=cv,
                                    params={"groups": groups})
        expected = np.empty(X.shape[0])
        for train, test in cv.split(X, y, groups):
            fold = _ranker(name).fit(X[train], y[train], groups=groups[train])
            expected[test] = fold.decision_function(X[test])
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    # the users held out are ranked by a model that never saw them: the
    # scores still order each user's rows (a ranking, not labels)
    assert not np.isin(got, [0, 1]).all()
