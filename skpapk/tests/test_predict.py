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


def _sequential_scores(X, coef):
    """Oracle: every row's ``((x_0 c_0 + x_1 c_1) + x_2 c_2) + ...`` in Python
    floats (float64), one row at a time."""
    X = X.toarray() if hasattr(X, "toarray") else np.asarray(X)
    scores = []
    for row in X:
        total = 0.0
        for value, weight in zip(row.tolist(), coef.tolist()):
            total += value * weight
        scores.append(total)
    return np.array(scores)


LAYOUTS = {
    "C": lambda X: np.ascontiguousarray(X),
    "F": np.asfortranarray,
    "frame": lambda X: __import__("pandas").DataFrame(X),
    "csr": lambda X: __import__("scipy.sparse").sparse.csr_matrix(X),
    "csc": lambda X: __import__("scipy.sparse").sparse.csc_matrix(X),
    "float32": lambda X: X.astype(np.float32),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["PApKRanker", "PApKAvgRanker", "SavedRanker"])
def test_equal_rows_get_equal_scores_in_every_layout(name, layout, tmp_path):
    # (tester) BLAS's X @ coef_ on a DataFrame's (Fortran order) rows gave 5
    # equal rows 2 scores: recommend put the last first, and papk_score
    # counted a tie as a correct pair
    from skpapk.io import load_ranker, save_ranker
    from skpapk.metrics import papk_score

    rng = np.random.default_rng(0)
    n, d = 2000, 37
    y = rng.random(n) < 0.25
    X = rng.normal(size=(n, d)) + 0.3 * y[:, None]
    X[rng.random((n, d)) < 0.3] = 0.0  # stored zeros of the sparse layouts
    groups = np.repeat(np.arange(100), 20)
    if name == "SavedRanker":
        save_ranker(skpapk.PApKRanker(k=5).fit(X, y, groups=groups),
                    tmp_path / "m.json")
        ranker = load_ranker(tmp_path / "m.json")
        coef = ranker.scorer.coef
    else:
        ranker = getattr(skpapk, name)(k=5, max_iter=5, tol=None).fit(
            X, y, groups=groups) if name != "PApKRanker" else skpapk.PApKRanker(
            k=5).fit(X, y, groups=groups)
        coef = ranker.coef_
    rows = np.concatenate([np.repeat(X[3:4], 5, axis=0), X[:300]])
    as_given = LAYOUTS[layout](rows)
    scores = ranker.decision_function(as_given)
    values = rows.astype(np.float32) if layout == "float32" else rows
    np.testing.assert_array_equal(scores, _sequential_scores(values, coef))
    assert np.unique(scores[:5]).size == 1
    # the same rows scored one at a time, or in two batches
    assert np.array_equal(scores, np.concatenate(
        [ranker.decision_function(LAYOUTS[layout](rows[i:i + 1]))
         for i in range(7)] + [ranker.decision_function(LAYOUTS[layout](rows[7:]))]))
    assert ranker.recommend(LAYOUTS[layout](rows[:5]), k=2).indices.tolist() == [0, 1]
    assert papk_score([0, 0, 0, 0, 1], scores[:5], k=1) == pytest.approx(0.2)


@pytest.mark.parametrize("n_features", [5, 200])  # a column at a time; cumsum
@pytest.mark.parametrize("layout", LAYOUTS)
def test_fitted_scores_are_one_sum_on_every_path(layout, n_features):
    # the column loop (Fortran order, or narrow rows) and np.cumsum (wide
    # C-order rows) add in the same order, from +0: the same bits
    from skpapk._linear_loss import fitted_scores

    rng = np.random.default_rng(n_features)
    X = rng.normal(size=(60, n_features)) * (rng.random((60, n_features)) < 0.5)
    X[1] = -0.0  # every product -0: the sum is +0 on every path
    X[2] = X[0]
    coef = rng.normal(size=n_features)
    values = X.astype(np.float32) if layout == "float32" else X
    given = LAYOUTS[layout](X)  # a DataFrame: its array, as validated
    scores = fitted_scores(np.asarray(given) if layout == "frame" else given, coef)
    expected = _sequential_scores(values, coef)
    np.testing.assert_array_equal(scores, expected)
    np.testing.assert_array_equal(np.signbit(scores), np.signbit(expected))
    assert scores[0] == scores[2]
