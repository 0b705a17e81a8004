"""Tests of :func:`skpapk.metrics.micro_papk_lightgbm` in LightGBM's two
calling conventions, against :func:`skpapk.metrics.papk_score`."""

import numpy as np
import pytest

from skpapk.losses import LightGBMObjective
from skpapk.metrics import micro_papk_lightgbm, papk_score

lgb = pytest.importorskip("lightgbm")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    sizes = rng.integers(5, 40, 30)
    y = (rng.random(sizes.sum()) < 0.3).astype(int)
    X = rng.normal(size=(sizes.sum(), 4)) + y[:, None] * rng.uniform(0, 1, 4)
    return X, y, sizes


def _split(X, y, sizes, n_train=20):
    cut = sizes[:n_train].sum()
    return ((X[:cut], y[:cut], sizes[:n_train]), (X[cut:], y[cut:], sizes[n_train:]))


@pytest.mark.parametrize("k", [1, 5])
def test_train_records_the_papk_of_every_round(data, k):
    (Xt, yt, st), (Xv, yv, sv) = _split(*data)
    train = lgb.Dataset(Xt, yt, group=st)
    valid = lgb.Dataset(Xv, yv, group=sv, reference=train)
    record = {}
    booster = lgb.train({"objective": LightGBMObjective(k=k), "verbose": -1,
                         "num_threads": 1}, train, num_boost_round=6,
                        valid_sets=[valid], feval=micro_papk_lightgbm(k),
                        callbacks=[lgb.record_evaluation(record)])
    codes = np.repeat(np.arange(len(sv)), sv)
    expected = [papk_score(yv, booster.predict(Xv, num_iteration=i), k=k,
                           groups=codes, zero_division=np.nan)
                for i in range(1, 7)]
    np.testing.assert_allclose(record["valid_0"][f"micro_papk@{k}"], expected,
                               rtol=0, atol=1e-15)


def test_the_sklearn_interface_and_early_stopping(data):
    (Xt, yt, st), (Xv, yv, sv) = _split(*data)
    metric = micro_papk_lightgbm(3)
    # LightGBM 4.7 takes eval_X / eval_y, earlier versions eval_set
    from skpapk._lightgbm_engine import _eval_rows

    ranker = lgb.LGBMRanker(n_estimators=40, verbose=-1, n_jobs=1).fit(
        Xt, yt, group=st, eval_group=[sv], eval_metric=metric,
        callbacks=[lgb.early_stopping(3, verbose=False)],
        **_eval_rows(lgb, Xv, yv))
    scores = ranker.evals_result_["valid_0"]["micro_papk@3"]
    codes = np.repeat(np.arange(len(sv)), sv)
    # the model keeps the trees of its best round
    assert scores[ranker.best_iteration_ - 1] == pytest.approx(papk_score(
        yv, ranker.predict(Xv), k=3, groups=codes, zero_division=np.nan),
        abs=1e-15)
    assert repr(metric) == "micro_papk_lightgbm(k=3)"


def test_groups_are_required_and_k_checked():
    with pytest.raises(ValueError, match=r"micro_papk_lightgbm\(k=3\) needs the "
                                         r"groups .*eval_group="):
        micro_papk_lightgbm(3)(np.array([1, 0]), np.array([0.5, 0.1]), None, None)
    with pytest.raises(ValueError, match="k must be a positive integer"):
        micro_papk_lightgbm(0)
    name, value, higher = micro_papk_lightgbm(1)(
        np.array([1, 0, 0, 1]), np.array([0.9, 0.1, 0.5, 0.2]), None, [2, 2])
    assert (name, value, higher) == ("micro_papk@1", 0.5, True)


@pytest.mark.parametrize("labels, group, error, match", [
    # group sizes that do not add up to the rows (it said "one id per row")
    ([1, 0, 0, 1], [2, 1], ValueError, r"group must hold the sizes of the "
                                       r"consecutive groups \(non-negative "
                                       r"integers summing to the 4 rows"),
    ([1, 0, 0, 1], [0, 0, 1, 1], ValueError, "group must hold the sizes"),
    ([1, 0, 0, 1], [-2, 6], ValueError, "group must hold the sizes"),
    ([1, 0, np.nan, 1], [2, 2], ValueError, r"holds NaN"),
    (["1", "0", "0", "1"], [2, 2], TypeError, "must hold numbers"),
    ([1, 0, 1], [2, 2], ValueError, "one label per row"),
])
def test_labels_and_group_sizes_are_checked(labels, group, error, match):
    with pytest.raises(error, match=match):
        micro_papk_lightgbm(1)(np.array(labels), np.array([0.9, 0.1, 0.5, 0.2]),
                               None, group)


def test_graded_labels_are_relevant_above_0_as_in_the_objective():
    scores = np.array([0.9, 0.1, 0.5, 0.2, 0.3, 0.4])
    graded = micro_papk_lightgbm(2)(np.array([2, 0, 1, 0, 0, 3]), scores, None,
                                    [3, 3])
    binary = micro_papk_lightgbm(2)(np.array([1, 0, 1, 0, 0, 1]), scores, None,
                                    [3, 3])
    assert graded == binary
