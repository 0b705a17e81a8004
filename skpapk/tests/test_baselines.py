"""Tests of the Table 3 baselines: SVM-pAUC, SGD@k-avg, Greedy- and Select-pAp@k."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, GroupKFold

from skpapk import (
    GreedyPApKRanker,
    PApKAvgRanker,
    PApKRanker,
    PAUCRanker,
    PrecAtKRanker,
    SelectPApKRanker,
)
from skpapk._baselines import _fit_logistic, _line_search_scores
from skpapk._solver import projected_subgradient
from skpapk.losses import PAUCSurrogate, PrecAtKSurrogate, surrogate_loss
from skpapk.metrics import (
    expected_papk_score,
    micro_papk_scorer,
    papk_score,
    partial_auc_score,
)
from skpapk.tests._helpers import make_grouped_data

BASELINES = {
    "pauc": lambda: PAUCRanker(k=5),
    "preck": lambda: PrecAtKRanker(k=5),
    "greedy": lambda: GreedyPApKRanker(k=5, random_state=0),
    "select": lambda: SelectPApKRanker(k=5),
}


def make_data(seed=0, n_groups=40, d=5, sep=1.0):
    """Positives ~ N(-sep 1_d, I), negatives ~ N(0, I), varied positives per user."""
    return make_grouped_data(seed, n_groups, d, sep=sep)


@pytest.fixture(autouse=True)
def _quiet_convergence():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


@pytest.mark.parametrize("name", sorted(BASELINES))
@pytest.mark.parametrize("sparse", [False, True])
def test_beats_random_ranking(name, sparse):
    X, y, g = make_data(0)
    Xt, yt, gt = make_data(1)
    if sparse:
        X, Xt = sp.csr_matrix(X), sp.csr_matrix(Xt)
    ranker = BASELINES[name]().fit(X, y, groups=g)
    random = expected_papk_score(yt, k=5, groups=gt)
    score = ranker.score(Xt, yt, groups=gt)
    assert score == pytest.approx(papk_score(yt, ranker.decision_function(Xt),
                                             k=5, groups=gt))
    assert score > random + 0.4  # random is about 0.22, the rankers about 0.85
    assert ranker.coef_.shape == (5,)
    assert np.all(ranker.coef_ < 0)  # the signal points along -1_d


@pytest.mark.parametrize("name", sorted(BASELINES))
def test_sparse_and_float32_agree_with_dense(name):
    X, y, g = make_data(2)
    dense = BASELINES[name]().fit(X, y, groups=g)
    csr = BASELINES[name]().fit(sp.csr_matrix(X), y, groups=g)
    f32 = BASELINES[name]().fit(X.astype(np.float32), y, groups=g)
    np.testing.assert_allclose(csr.coef_, dense.coef_, rtol=1e-6, atol=1e-8)
    # float32 changes the rounding of lbfgs / the subgradient steps: the
    # rankings must still agree closely
    assert (abs(f32.score(X, y, groups=g) - dense.score(X, y, groups=g)) < 0.02)


# --- SVM-pAUC and SGD@k-avg: thin configurations of the shared solver -------


@pytest.mark.parametrize("cls, loss", [(PAUCRanker, PAUCSurrogate),
                                       (PrecAtKRanker, PrecAtKSurrogate)])
def test_surrogate_rankers_run_the_shared_solver(cls, loss):
    X, y, g = make_data(3, n_groups=10)
    ranker = cls(k=4, eta0=0.5, alpha=0.01, max_iter=12, tol=None).fit(X, y, groups=g)
    _, codes = np.unique(g, return_inverse=True)
    state = projected_subgradient(X, y.astype(bool), codes, 10, loss=loss(), k=4,
                                  eta0=0.5, alpha=0.01, max_iter=12, tol=None)
    np.testing.assert_allclose(ranker.coef_, state.w)
    np.testing.assert_allclose(ranker.objective_curve_, state.objective_curve)
    assert ranker.n_iter_ == 12
    # the objective curve is the loss of surrogate_loss plus the penalty
    value, _ = surrogate_loss(y, X @ ranker.coef_, g, k=4, surrogate=loss.name)
    assert np.isfinite(value)


def _pauc_risk(y, s, g, k):
    return 1.0 - partial_auc_score(y, s, k=k, groups=g, ties="error")


@pytest.mark.parametrize("k", [1, 3, 10])
@pytest.mark.parametrize("seed", range(20))
def test_pauc_surrogate_upper_bounds_pauc_risk(k, seed):
    rng = np.random.default_rng(seed)
    n_groups = 6
    n_pos = rng.integers(1, 6, n_groups)
    n_neg = rng.integers(1, 12, n_groups)
    g = np.repeat(np.arange(n_groups), n_pos + n_neg)
    y = np.concatenate([np.r_[np.ones(a, bool), np.zeros(b, bool)]
                        for a, b in zip(n_pos, n_neg)])
    X = rng.normal(size=(y.shape[0], 3)) - y[:, None] * rng.uniform(0, 2)
    w = rng.normal(scale=rng.choice([0.1, 1.0, 10.0]), size=3)
    s = X @ w
    value, _ = surrogate_loss(y, s, g, k=k, surrogate="pauc")
    assert value >= _pauc_risk(y, s, g, k) - 1e-12


@settings(max_examples=60, deadline=None)
@given(data=st.data(), k=st.integers(1, 4))
def test_pauc_surrogate_upper_bounds_pauc_risk_hypothesis(data, k):
    # integer scores: ties (a tie is an error of the risk) and hinges at 0
    n_pos = data.draw(st.integers(1, 4))
    n_neg = data.draw(st.integers(1, 5))
    s = np.array(data.draw(st.lists(st.integers(-3, 3), min_size=n_pos + n_neg,
                                    max_size=n_pos + n_neg)), dtype=float)
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    value, _ = surrogate_loss(y, s, k=k, surrogate="pauc", pos_label=True)
    assert value >= _pauc_risk(y, s, None, k) - 1e-12


# --- Greedy-pAp@k ------------------------------------------------------------


def test_line_search_matches_per_group_loop():
    rng = np.random.default_rng(0)
    X, y, g = make_data(4, n_groups=8)
    _, codes = np.unique(g, return_inverse=True)
    y = y.astype(bool)
    current, new = X @ rng.normal(size=5), X @ rng.normal(size=5)
    grid = np.linspace(0, 1, 7)
    got = _line_search_scores(y, codes, current, new, grid, 3)
    # group codes with gaps (groups absent from the held-out rows)
    np.testing.assert_allclose(
        _line_search_scores(y, 3 * codes + 1, current, new, grid, 3), got)
    expected = []
    for a in grid:  # oracle: one call per grid point, mean of per-group calls
        s = (1 - a) * current + a * new
        expected.append(np.mean([papk_score(y[codes == c], s[codes == c], k=3)
                                 for c in range(8)]))
    np.testing.assert_allclose(got, expected)


@pytest.mark.parametrize("values", [1, 50, 200])
def test_line_search_in_parts_is_the_stacked_one(monkeypatch, values):
    # (memory review) every grid point stacked at once took 1.5 GB at 2M rows;
    # a part of the grid per call gives the same values and the same fit
    from skpapk import _baselines

    X, y, g = make_data(4, n_groups=8)
    ranker = GreedyPApKRanker(k=3, random_state=0)
    whole = ranker.fit(X, y, groups=g)
    coef, weights = whole.coef_.copy(), whole.merge_weights_.copy()
    calls = []
    papk = _baselines._train_papk
    monkeypatch.setattr(_baselines, "LINE_SEARCH_VALUES", values)
    monkeypatch.setattr(_baselines, "_train_papk",
                        lambda *a, **kw: calls.append(a[1].size) or papk(*a, **kw))
    parts = GreedyPApKRanker(k=3, random_state=0).fit(X, y, groups=g)
    np.testing.assert_array_equal(parts.coef_, coef)
    np.testing.assert_array_equal(parts.merge_weights_, weights)
    n_val = calls[0]  # the first calls score the base scorers
    assert len(calls) > parts.n_estimators_  # and the line searches follow
    assert max(calls) <= max(values, n_val) < 21 * n_val  # not 21 at once


def test_greedy_is_no_worse_than_its_best_base_scorer():
    X, y, g = make_data(5)
    ranker = GreedyPApKRanker(k=5, n_estimators=4, n_line_search=11,
                              random_state=0).fit(X, y, groups=g)
    assert ranker.n_estimators_ == 4 and len(ranker.estimators_) == 4
    assert ranker.estimator_scores_.shape == (4,)
    assert sorted(ranker.merge_order_.tolist()) == [0, 1, 2, 3]
    assert ranker.merge_order_[0] == np.argmax(ranker.estimator_scores_)
    assert ranker.merge_weights_.shape == (3,)
    assert np.all(np.isin(ranker.merge_weights_, np.linspace(0, 1, 11)))
    # a = 0 (keep the current scorer) is on the grid: merging never loses
    assert ranker.validation_score_ >= ranker.estimator_scores_.max() - 1e-12
    assert ranker.n_validation_groups_ > 0
    # the merged scorer is a combination of the base scorers' weights
    base = np.stack([m.coef_.ravel() for m in ranker.estimators_], axis=1)
    mix, *_ = np.linalg.lstsq(base, ranker.coef_, rcond=None)
    np.testing.assert_allclose(base @ mix, ranker.coef_, atol=1e-10)


def test_greedy_on_constant_features_keeps_a_small_coef():
    # the scores are equal up to rounding: no division by that noise
    y = (np.arange(40) % 3 == 0).astype(int)
    g = np.repeat(np.arange(4), 10)
    ranker = GreedyPApKRanker(k=2, random_state=0).fit(np.ones((40, 2)), y, groups=g)
    assert np.all(np.abs(ranker.coef_) < 1)
    assert np.ptp(ranker.decision_function(np.ones((3, 2)))) == 0


def test_greedy_random_state():
    X, y, g = make_data(6)
    a = GreedyPApKRanker(k=5, random_state=1).fit(X, y, groups=g)
    b = GreedyPApKRanker(k=5, random_state=1).fit(X, y, groups=g)
    c = GreedyPApKRanker(k=5, random_state=2).fit(X, y, groups=g)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.allclose(a.coef_, c.coef_)


def test_greedy_lowers_n_estimators_with_a_warning():
    X, y, g = make_data(7, n_groups=3)
    y = y.copy()
    pos = np.flatnonzero(y)
    y[pos[6:]] = 0  # one group, 6 relevant rows: 5 in the fitting part
    with pytest.warns(UserWarning, match="n_estimators=10 base scorers"):
        ranker = GreedyPApKRanker(k=3, n_estimators=10, random_state=0).fit(X, y)
    assert ranker.n_estimators_ == 5
    assert len(ranker.estimators_) == ranker.n_estimators_


def test_greedy_without_validation_group_raises():
    # every group has one relevant row: it stays in the fitting part
    X, y, g = make_data(8, n_groups=5)
    y = np.zeros_like(y)
    y[np.unique(g, return_index=True)[1]] = 1
    with pytest.raises(ValueError, match="validation_fraction"):
        GreedyPApKRanker(k=3).fit(X, y, groups=g)


@pytest.mark.parametrize("fraction, n_pos, label", [
    (0.95, None, "relevant"),  # the fit used to end on an IndexError
    (0.8, 2, "relevant"),
])
def test_greedy_with_no_fitting_row_of_a_label_raises(fraction, n_pos, label):
    rng = np.random.default_rng(0)
    if n_pos is None:
        y = rng.random(100) < 0.3
        g = np.repeat(np.arange(5), 20)
    else:  # one group of 2 relevant rows: 1 held out at 0.5, both at 0.8
        y, g = np.r_[np.ones(n_pos, bool), np.zeros(10, bool)], None
        ranker = GreedyPApKRanker(n_estimators=1, validation_fraction=0.5,
                                  random_state=0).fit(
            rng.normal(size=(y.shape[0], 2)), y, groups=g)
        assert ranker.n_estimators_ >= 1
    X = rng.normal(size=(y.shape[0], 3)) + y[:, None]
    with pytest.raises(ValueError, match=rf"validation_fraction={fraction} holds "
                                         rf"out every {label} row.*lower "
                                         r"validation_fraction"):
        GreedyPApKRanker(validation_fraction=fraction, random_state=0).fit(
            X, y, groups=g)


@pytest.mark.parametrize("fraction", [0.1, 0.25, 0.5, 0.6, 0.9])
def test_greedy_on_one_relevant_row_per_user_says_no_fraction_helps(fraction):
    # the two messages sent the user back and forth: "Raise
    # validation_fraction" up to 0.5, "lower validation_fraction" above
    rng = np.random.default_rng(0)
    g = np.repeat(np.arange(20), 10)
    y = np.zeros(200, bool)
    y[::10] = True  # leave-one-out data: one relevant row per user
    X = rng.normal(size=(200, 3)) + y[:, None]
    with pytest.raises(ValueError, match="exactly one relevant row.*no "
                                         "validation_fraction can help"):
        GreedyPApKRanker(validation_fraction=fraction).fit(X, y, groups=g)


@pytest.mark.parametrize("fraction", [0.55, 0.6, 0.75])
def test_greedy_fits_single_rows_beside_groups_that_supply_the_label(fraction):
    # above 0.5 a group's one relevant row is held out for the line search
    # while other groups' rows are fitted on: such data fits (a first
    # version of the check above refused it)
    rng = np.random.default_rng(0)
    shape = [(1, 10)] * 10 + [(20, 1)] * 2  # (n+, n-) of every group
    y = np.concatenate([np.r_[np.ones(p, bool), np.zeros(n, bool)] for p, n in shape])
    g = np.repeat(np.arange(len(shape)), [p + n for p, n in shape])
    X = rng.normal(size=(y.shape[0], 3)) + y[:, None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # fewer base scorers
        ranker = GreedyPApKRanker(validation_fraction=fraction,
                                  random_state=0).fit(X, y, groups=g)
    assert ranker.n_validation_groups_ > 0 and ranker.n_estimators_ >= 1


# --- Select-pAp@k --------------------------------------------------------------


def test_select_pool_matches_brute_force():
    X, y, g = make_data(9, n_groups=6)
    y = y.astype(bool)
    _, codes = np.unique(g, return_inverse=True)
    coef = np.random.default_rng(0).normal(size=5)
    ranker = SelectPApKRanker(k=4)
    pool, _ = ranker._pool(X, y, codes, 6, coef)
    s = X @ coef
    expected = []
    for c in range(6):  # oracle: each group's top-beta positives, top-k' negatives
        for label in (True, False):
            rows = np.flatnonzero((codes == c) & (y == label))
            expected.extend(rows[np.argsort(-s[rows], kind="stable")][:4])
    np.testing.assert_array_equal(pool, np.sort(expected))


def test_select_stops_at_a_fixed_point():
    X, y, g = make_data(10, sep=2.0)
    ranker = SelectPApKRanker(k=5, max_iter=30).fit(X, y, groups=g)
    assert ranker.converged_
    assert ranker.n_iter_ < 30
    assert ranker.pool_sizes_.shape == (ranker.n_iter_ + 1,)
    assert ranker.pool_sizes_[0] == X.shape[0]
    assert ranker.train_scores_.shape == (ranker.n_iter_ + 1,)
    assert ranker.train_scores_[-1] == pytest.approx(ranker.score(X, y, groups=g))
    _, codes = np.unique(g, return_inverse=True)
    n_pos = np.bincount(codes, weights=y).astype(int)
    n_neg = np.bincount(codes) - n_pos
    # every pool holds each group's min(k, n+) + min(k, n-) top rows
    expected = np.minimum(n_pos, 5).sum() + np.minimum(n_neg, 5).sum()
    assert np.all(ranker.pool_sizes_[1:] == expected)
    # fixed point: refitting on the pool under coef_ gives coef_ back
    pool, _ = ranker._pool(X, y.astype(bool), codes, codes.max() + 1, ranker.coef_)
    coef, _ = _fit_logistic(X[pool], y[pool].astype(bool), ranker.alpha,
                            tol=ranker.tol, max_iter=1000)
    np.testing.assert_allclose(coef, ranker.coef_)


def test_select_warns_when_the_pool_still_moves():
    X, y, g = make_data(11)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        with pytest.raises(ConvergenceWarning, match="max_iter=1"):
            SelectPApKRanker(k=5, max_iter=1).fit(X, y, groups=g)
    ranker = SelectPApKRanker(k=5, max_iter=1).fit(X, y, groups=g)
    assert ranker.n_iter_ == 1 and not ranker.converged_
    assert ranker.pool_sizes_.shape == ranker.train_scores_.shape == (2,)


def _cycling_select_data():
    """Data on which Select-pAp@k's pools alternate between two (rounds 3, 4)."""
    rng = np.random.default_rng(0)
    y = (rng.random(200) < 0.3).astype(int)
    X = rng.normal(size=(200, 3)) + 0.3 * y[:, None]
    return X, y, np.repeat(np.arange(10), 20)


@pytest.mark.parametrize("max_iter", [4, 10, 11])
def test_select_stops_when_the_pools_cycle(max_iter):
    # the pools alternate A, B, A, ...: without the check the model returned
    # depended on max_iter's parity, one of them ranking below random
    X, y, g = _cycling_select_data()
    with pytest.warns(ConvergenceWarning, match=r"round 4's pool is round 2's, "
                      r"so rounds 3-4 would repeat forever"):
        ranker = SelectPApKRanker(k=3, max_iter=max_iter).fit(X, y, groups=g)
    assert not ranker.converged_ and ranker.n_iter_ == 4
    # refitting on the pool under coef_ gives another model, whose pool
    # gives coef_ back: a cycle of two
    _, codes = np.unique(g, return_inverse=True)
    y_pos, n_groups = y.astype(bool), codes.max() + 1
    pool, _ = ranker._pool(X, y_pos, codes, n_groups, ranker.coef_)
    other, _ = _fit_logistic(X[pool], y_pos[pool], ranker.alpha, tol=ranker.tol,
                             max_iter=1000)
    pool_other, _ = ranker._pool(X, y_pos, codes, n_groups, other)
    back, _ = _fit_logistic(X[pool_other], y_pos[pool_other], ranker.alpha,
                            tol=ranker.tol, max_iter=1000)
    np.testing.assert_allclose(back, ranker.coef_)
    # the kept model is the cycle's best on the training data
    score = ranker.score(X, y, groups=g)
    assert score == pytest.approx(ranker.train_scores_[-1])
    assert score > papk_score(y, X @ other, k=3, groups=g)


def test_select_before_the_cycle_keeps_the_last_model():
    X, y, g = _cycling_select_data()
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        ranker = SelectPApKRanker(k=3, max_iter=3).fit(X, y, groups=g)
    assert ranker.score(X, y, groups=g) == pytest.approx(ranker.train_scores_[-1])


@pytest.mark.parametrize("alpha", [1e-3, 0.1])
def test_logistic_objective_is_alpha_norm_plus_mean_cross_entropy(alpha):
    # C = 1 / (2 alpha n): the gradient of alpha ||w||^2 + mean CE vanishes
    X, y, _ = make_data(12, n_groups=5)
    y = y.astype(bool)
    coef, model = _fit_logistic(X, y, alpha, tol=1e-10, max_iter=5000)
    p = 1.0 / (1.0 + np.exp(-(X @ coef + model.intercept_[0])))
    grad = 2 * alpha * coef + X.T @ (p - y) / X.shape[0]
    np.testing.assert_allclose(grad, 0.0, atol=1e-6)
    assert abs(np.mean(p - y)) < 1e-6  # the intercept is not penalised


# --- shared behaviour ---------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BASELINES))
def test_skipped_groups_are_counted_and_change_nothing(name):
    X, y, g = make_data(13, n_groups=12)
    rng = np.random.default_rng(0)
    X_extra = rng.normal(size=(7, 5))
    X2 = np.vstack([X, X_extra])
    y2 = np.r_[y, np.zeros(4, int), np.ones(3, int)]
    g2 = np.r_[g, [100] * 4, [101] * 3]  # only irrelevant / only relevant
    a = BASELINES[name]().fit(X, y, groups=g)
    b = BASELINES[name]().fit(X2, y2, groups=g2)
    assert a.n_groups_skipped_ == 0 and b.n_groups_skipped_ == 2
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(BASELINES))
def test_string_groups_and_labels(name):
    X, y, g = make_data(14, n_groups=10)
    a = BASELINES[name]().fit(X, y, groups=g)
    b = BASELINES[name]().set_params(pos_label="yes").fit(
        X, np.where(y == 1, "yes", "no"), groups=np.char.add("user", g.astype(str)))
    # the group labels sort differently, the groups are the same
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10, atol=1e-12)
    assert b.classes_.tolist() == ["no", "yes"]


@pytest.mark.parametrize("name", sorted(BASELINES))
def test_recommend_is_each_groups_top_k(name):
    X, y, g = make_data(15, n_groups=6)
    ranker = BASELINES[name]().fit(X, y, groups=g)
    rec = ranker.recommend(X, g, k=3)
    s = ranker.decision_function(X)
    for i, label in enumerate(rec.groups):  # oracle per group
        rows = np.flatnonzero(g == label)
        top = rows[np.argsort(-s[rows], kind="stable")][:3]
        np.testing.assert_array_equal(rec.indices[rec.indptr[i]:rec.indptr[i + 1]],
                                      top)


@pytest.mark.parametrize(
    "cls, params, match",
    [
        (GreedyPApKRanker, {"validation_fraction": 1.0}, "validation_fraction"),
        (GreedyPApKRanker, {"n_line_search": 1}, "n_line_search"),
        (GreedyPApKRanker, {"n_estimators": 0}, "n_estimators"),
        (SelectPApKRanker, {"max_iter": 0}, "max_iter"),
        (SelectPApKRanker, {"alpha": -1.0}, "alpha"),
        (PrecAtKRanker, {"k": 0}, "'k'"),
        (PAUCRanker, {"eta0": 0.0}, "eta0"),
    ],
)
def test_bad_params_raise(cls, params, match):
    X, y, g = make_data(16, n_groups=4)
    with pytest.raises(ValueError, match=match):
        cls(**params).fit(X, y, groups=g)


@pytest.mark.parametrize("name", sorted(BASELINES))
def test_grid_search_with_group_kfold_and_routing(name):
    X, y, g = make_data(17, n_groups=12)
    grid = {"alpha": [1e-3, 1e-1]}
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(BASELINES[name](), grid, cv=GroupKFold(3),
                              scoring=micro_papk_scorer(k=5))
        search.fit(X, y, groups=g)
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))
    assert search.best_score_ > 0.5


def _zero_coef_data():
    rng = np.random.default_rng(0)
    y = (rng.random(120) < 0.3).astype(int)
    X = rng.normal(size=(120, 3)) + 0.8 * y[:, None]
    return X, y, np.repeat(np.arange(8), 15)


@pytest.mark.parametrize("make", [
    lambda: SelectPApKRanker(k=3, tol=1e300),
    lambda: GreedyPApKRanker(k=3, tol=1e300, random_state=0),
    lambda: SelectPApKRanker(k=3, alpha=1e300),
    lambda: GreedyPApKRanker(k=3, alpha=1e300, random_state=0),
])
def test_a_baseline_that_learns_zero_coef_says_so(make):
    # coef_ = 0 ranked as a random ranking, with converged_=True and no word
    X, y, g = _zero_coef_data()
    with pytest.warns(ConvergenceWarning, match="fitted coef_ = 0: it scores "
                                                "every row alike.*lower alpha"):
        ranker = make().fit(X, y, groups=g)
    assert not np.any(ranker.coef_)


@pytest.mark.parametrize("make", [lambda: PApKRanker(),
                                  lambda: PApKAvgRanker(k=3)])
def test_a_linear_ranker_on_zero_features_warns_once(make):
    # PApKRanker was silent; PApKAvgRanker's no-descent warning stays the one
    X, y, g = _zero_coef_data()
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        make().fit(np.zeros_like(X), y, groups=g)
    messages = [str(r.message) for r in records
                if issubclass(r.category, ConvergenceWarning)]
    assert len(messages) == 1


def test_rankers_that_learn_something_do_not_warn_of_zero_coef():
    X, y, g = _zero_coef_data()
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        for ranker in (PApKRanker(), SelectPApKRanker(k=3),
                       GreedyPApKRanker(k=3, random_state=0)):
            ranker.fit(X, y, groups=g)
    # (review) neither coef_ = 0 nor a coef_ that ties every user's rows
    assert not any("as a random ranking does" in str(r.message) for r in records)


@pytest.mark.parametrize("make", [
    lambda: PApKRanker(),
    lambda: PApKRanker(surrogate="soft_papk"),
    lambda: SelectPApKRanker(),
    lambda: GreedyPApKRanker(random_state=0),
])
def test_a_coef_that_ties_every_users_rows_is_said(make):
    # constant columns left a coef_ of 1e-14 (not 0): a chance-level model,
    # silently
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(20), 50)
    y = (rng.random(1000) < 0.2).astype(int)
    # (older SciPy's L-BFGS ends on coef_ = 0 exactly: that warning)
    with pytest.warns(ConvergenceWarning, match=r"fitted coef_ = (\[.*\], which "
                      r"gives every row of each training user the same score, "
                      r"which ranks as a random ranking does\. The features of "
                      r"X do not vary within users|0: it scores every row alike)"):
        make().fit(np.full((1000, 2), 2.0), y, groups=groups)


def test_prec_at_k_with_k_beyond_every_list_says_there_is_nothing_to_learn():
    # it blamed eta0 or a weak signal: every user's rows fit in its top k,
    # where prec@k's surrogate is 0 whatever w
    from skpapk.datasets import make_papk_simulation

    X, y, g = make_papk_simulation(30, n_pos=(3, 20), n_neg=(30, 80),
                                   n_features=4, random_state=0)
    with pytest.warns(ConvergenceWarning, match=r"^The objective is 0 at w_0 = 0 "
                      r"and at each of the \d+ steps: no group adds to the "
                      r"surrogate.*lower k\), so there is nothing to learn\.$"):
        ranker = PrecAtKRanker(k=100).fit(X, y, groups=g)
    assert not np.any(ranker.coef_)
