"""Every ranker predicts its scores: Pipeline.predict and cross_val_predict."""

import numpy as np
import pytest
import sklearn
from sklearn.model_selection import GroupKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skpapk import GreedyPApKRanker, PApKBoostRanker, PApKRanker
from skpapk.tests._helpers import make_grouped_data


def _rankers():
    yield PApKRanker(k=3)
    yield GreedyPApKRanker(k=3)
    pytest.importorskip("lightgbm")
    yield PApKBoostRanker(k=3, n_estimators=5, num_leaves=4, min_child_samples=3)


@pytest.mark.parametrize("make", [0, 1, 2])
def test_predict_is_the_decision_function_in_a_pipeline(make):
    rankers = list(_rankers())
    if make >= len(rankers):
        pytest.skip("lightgbm is not installed")
    X, y, g = make_grouped_data(0, 20, 4, n_pos=(2, 6), n_neg=(6, 15))
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(StandardScaler(), rankers[make]).fit(X, y, groups=g)
        scores = pipe.predict(X)
        np.testing.assert_array_equal(scores, pipe.decision_function(X))
        assert scores.shape == (X.shape[0],) and scores.dtype.kind == "f"
        # out-of-fold scores of every row, the users split by GroupKFold
        oof = cross_val_predict(rankers[make], X, y,
                                cv=GroupKFold(3), params={"groups": g})
    assert oof.shape == (X.shape[0],) and np.all(np.isfinite(oof))
