"""PApKRanker on the smooth surrogates (L-BFGS) against direct optimisation."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import InvalidParameterError

from skpapk import PApKRanker
from skpapk.losses import surrogate_loss
from skpapk.metrics import expected_papk_score, papk_score
from skpapk.tests._helpers import make_grouped_data

SMOOTH = ["pairwise_logistic", "soft_papk"]


def objective(w, X, y, g, k, surrogate, alpha, **params):
    """The objective written with the public surrogate_loss only."""
    value, grad = surrogate_loss(y, X @ w, g, k=k, surrogate=surrogate, **params)
    return value + alpha * w @ w, X.T @ grad + 2 * alpha * w


@pytest.mark.parametrize("surrogate", SMOOTH)
@pytest.mark.parametrize("group_weight", ["uniform", "inverse_variance"])
def test_lbfgs_reaches_the_minimum_of_the_objective(surrogate, group_weight):
    X, y, g = make_grouped_data(0, n_groups=30)
    params = dict(temperature=0.5, group_weight=group_weight)
    ranker = PApKRanker(surrogate, k=4, alpha=1e-3, tol=1e-8, max_iter=500,
                        **params).fit(X, y, groups=g)
    assert ranker.solver == "auto" and ranker.n_iter_ > 1
    value, grad = objective(ranker.coef_, X, y, g, 4, surrogate, 1e-3, **params)
    _, grad0 = objective(np.zeros(5), X, y, g, 4, surrogate, 1e-3, **params)
    assert np.abs(grad).max() <= 1e-6 * np.abs(grad0).max()
    assert ranker.objective_curve_[-1] == pytest.approx(value, rel=1e-12)
    assert np.all(np.diff(ranker.objective_curve_) <= 1e-12)  # monotone
    if surrogate == "pairwise_logistic":  # convex: the one minimiser
        direct = minimize(
            lambda w: objective(w, X, y, g, 4, surrogate, 1e-3, **params),
            np.zeros(5), jac=True, method="L-BFGS-B",
            options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 1000})
        np.testing.assert_allclose(ranker.coef_, direct.x, rtol=1e-5, atol=1e-7)


def test_group_weight_matters_only_when_users_differ():
    X, y, g = make_grouped_data(1, n_groups=20)
    uniform = PApKRanker(group_weight="uniform").fit(X, y, groups=g)
    weighted = PApKRanker(group_weight="inverse_variance").fit(X, y, groups=g)
    assert not np.allclose(uniform.coef_, weighted.coef_, rtol=1e-3)
    # every user with 3 relevant and 9 irrelevant rows: equal weights
    rng = np.random.default_rng(0)
    y_eq = np.tile(np.r_[np.ones(3), np.zeros(9)], 15)
    X_eq = rng.normal(size=(180, 4)) - y_eq[:, None]
    g_eq = np.repeat(np.arange(15), 12)
    a = PApKRanker(group_weight="uniform").fit(X_eq, y_eq, groups=g_eq)
    b = PApKRanker(group_weight="inverse_variance").fit(X_eq, y_eq, groups=g_eq)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10)


@pytest.mark.parametrize("surrogate", SMOOTH)
def test_smooth_rankers_learn(surrogate):
    X, y, g = make_grouped_data(2)
    Xt, yt, gt = make_grouped_data(3)
    ranker = PApKRanker(surrogate, k=5).fit(X, y, groups=g)
    assert ranker.score(Xt, yt, groups=gt) > expected_papk_score(yt, k=5,
                                                                groups=gt) + 0.4
    assert np.all(ranker.coef_ < 0)  # relevant rows lie along -1_d


@pytest.mark.parametrize("surrogate", SMOOTH)
def test_sparse_float32_and_row_order(surrogate):
    X, y, g = make_grouped_data(4, n_groups=15)
    dense = PApKRanker(surrogate, k=3, tol=1e-8).fit(X, y, groups=g)
    csr = PApKRanker(surrogate, k=3, tol=1e-8).fit(sp.csr_matrix(X), y, groups=g)
    np.testing.assert_allclose(csr.coef_, dense.coef_, rtol=1e-9, atol=1e-12)
    perm = np.random.default_rng(0).permutation(y.shape[0])
    shuffled = PApKRanker(surrogate, k=3, tol=1e-8).fit(X[perm], y[perm],
                                                        groups=g[perm])
    np.testing.assert_allclose(shuffled.coef_, dense.coef_, rtol=1e-6, atol=1e-9)
    f32 = PApKRanker(surrogate, k=3, tol=1e-8).fit(X.astype(np.float32), y,
                                                   groups=g)
    np.testing.assert_allclose(f32.coef_, dense.coef_, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(surrogate="max", solver="lbfgs"), "needs a smooth surrogate"),
        (dict(average=True), "average=True is an option of solver='subgradient'"),
        (dict(radius=1.0), "radius=1.0 is an option of solver='subgradient'"),
        # tol is relative: L-BFGS would stop at w_0, before any iteration
        (dict(tol=1), r"tol=1 is relative with solver='lbfgs'.* stops at w_0"),
        (dict(tol=2.5, early_stopping=True), "tol=2.5 is relative"),
        (dict(tol=1.0, coef_init=np.ones(5)), "tol=1.0 is relative"),
    ],
)
def test_options_that_lbfgs_does_not_take(params, match):
    X, y, g = make_grouped_data(5, n_groups=5)
    coef_init = params.pop("coef_init", None)
    with pytest.raises(ValueError, match=match):
        PApKRanker(**params).fit(X, y, groups=g, coef_init=coef_init)


@pytest.mark.parametrize("tol", [0.9, 1.0])
def test_a_tol_below_1_moves_lbfgs_and_tol_is_absolute_for_algorithm_1(tol):
    X, y, g = make_grouped_data(5, n_groups=5)
    solver = "lbfgs" if tol < 1 else "subgradient"
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        ranker = PApKRanker(tol=tol, solver=solver).fit(X, y, groups=g)
    assert np.any(ranker.coef_ != 0)


@pytest.mark.parametrize(
    "params",
    [dict(solver="newton"), dict(temperature=0.0), dict(temperature="hot"),
     dict(group_weight="rows"), dict(surrogate="logistic"),
     dict(truncation_level=0), dict(truncation_level=2.5)],
)
def test_parameter_validation(params):
    X, y, g = make_grouped_data(5, n_groups=5)
    with pytest.raises(InvalidParameterError):
        PApKRanker(**params).fit(X, y, groups=g)


@pytest.mark.parametrize("surrogate, solver", [("pairwise_logistic", "lbfgs"),
                                               ("avg", "subgradient"),
                                               ("pairwise_logistic", "subgradient")])
def test_auto_and_explicit_solvers(surrogate, solver):
    X, y, g = make_grouped_data(6, n_groups=10)
    ranker = PApKRanker(surrogate, solver=solver, max_iter=30, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ranker.fit(X, y, groups=g)
    auto = PApKRanker(surrogate, max_iter=30, tol=None)
    assert auto._get_solver(auto._get_surrogate()) == (
        "lbfgs" if surrogate == "pairwise_logistic" else "subgradient")
    if surrogate != "avg" and solver == "subgradient":  # Algorithm 1, by hand
        w = np.zeros(X.shape[1])
        for t in range(30):
            _, grad = objective(w, X, y, g, 10, surrogate, ranker.alpha,
                                group_weight="inverse_variance")
            w = w - ranker.eta0 / np.sqrt(t + 1) * grad
        np.testing.assert_allclose(ranker.coef_, w, rtol=1e-9, atol=1e-12)


def test_early_stopping_keeps_the_best_validated_iterate():
    X, y, g = make_grouped_data(7, n_groups=40, sep=0.3)
    ranker = PApKRanker(early_stopping=True, validation_fraction=0.3,
                        n_iter_no_change=3, random_state=0, tol=1e-12,
                        max_iter=300, alpha=0.0).fit(X, y, groups=g)
    scores = ranker.validation_scores_
    assert scores.shape == (ranker.n_iter_,)
    assert ranker.best_validation_score_ == scores.max()
    # stopped n_iter_no_change iterations after the best one
    assert ranker.n_iter_ - 1 - int(np.argmax(scores)) == 3
    refit = PApKRanker(early_stopping=True, validation_fraction=0.3,
                       n_iter_no_change=3, random_state=0, tol=1e-12,
                       max_iter=300, alpha=0.0).fit(X, y, groups=g)
    np.testing.assert_array_equal(refit.coef_, ranker.coef_)


def test_coef_init_and_warm_start_start_from_the_given_point():
    X, y, g = make_grouped_data(8, n_groups=10)
    w0 = np.random.default_rng(0).normal(size=5)
    ranker = PApKRanker(max_iter=1, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ranker.fit(X, y, groups=g, coef_init=w0)
    expected, _ = objective(w0, X, y, g, 10, "pairwise_logistic", ranker.alpha,
                            group_weight="inverse_variance")
    assert ranker.objective_curve_[0] == pytest.approx(expected, rel=1e-12)
    full = PApKRanker(tol=1e-10).fit(X, y, groups=g)
    warm = PApKRanker(tol=1e-10, warm_start=True).fit(X, y, groups=g)
    first, n_before = warm.coef_.copy(), warm.objective_curve_.shape[0]
    warm.fit(X, y, groups=g)
    # the curve goes on from the previous fit's last iterate
    assert warm.objective_curve_[n_before] == pytest.approx(
        full.objective_curve_[-1], rel=1e-9)
    np.testing.assert_allclose(warm.coef_, first, rtol=1e-5, atol=1e-8)


def test_partial_fit_takes_one_gradient_step():
    X, y, g = make_grouped_data(9, n_groups=10)
    ranker = PApKRanker(eta0=0.5).partial_fit(X, y, groups=g)
    _, grad = objective(np.zeros(5), X, y, g, 10, "pairwise_logistic", 1e-4,
                        group_weight="inverse_variance")
    np.testing.assert_allclose(ranker.coef_, -0.5 * grad, rtol=1e-10)


def test_max_iter_warns():
    X, y, g = make_grouped_data(10, n_groups=10)
    with pytest.warns(ConvergenceWarning, match="L-BFGS reached max_iter=2"):
        PApKRanker(max_iter=2, tol=1e-12).fit(X, y, groups=g)


def test_default_beats_scores_of_a_constant():
    """The fitted scores are not all alike and rank per user."""
    X, y, g = make_grouped_data(11)
    scores = PApKRanker(k=5).fit(X, y, groups=g).decision_function(X)
    assert np.unique(scores).shape[0] == scores.shape[0]
    assert papk_score(y, scores, k=5, groups=g) > 0.8


@pytest.mark.parametrize("alpha", [1e-4, 1.0])
@pytest.mark.parametrize("tiny", [1e-6, 1e-10, 1e-14])
def test_a_column_of_tiny_values_does_not_stop_lbfgs_at_zero(alpha, tiny):
    # L-BFGS ran on v = max|X_j| * w, where the ridge term's curvature
    # 2 alpha / max|X_j|^2 reached 1e16: it stopped at w_0 = 0 (silently
    # for 1e-10) instead of the fit of the other columns
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(6), 20)
    y = (rng.random(120) < 0.3).astype(int)
    X = rng.normal(size=(120, 4)) + y[:, None] * np.array([1.0, 0.5, 0.0, 0.0])
    X[:, 3] *= tiny
    without = PApKRanker(k=3, alpha=alpha).fit(X[:, :3], y, groups=groups)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        ranker = PApKRanker(k=3, alpha=alpha).fit(X, y, groups=groups)
    # the tiny column can only lower the objective a little (its ridge cost)
    assert ranker.objective_curve_[-1] <= without.objective_curve_[-1] + 1e-6
    np.testing.assert_allclose(ranker.coef_[:3], without.coef_, rtol=1e-3,
                               atol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_column_abs_max_of_csr_is_the_dense_one_without_a_copy(dtype):
    # L-BFGS's column scaling read a CSR X through scipy's X.max(axis=0),
    # which converts it to CSC: a copy of X at every fit
    import tracemalloc

    import scipy.sparse as sp

    from skpapk._linear_loss import column_abs_max

    rng = np.random.default_rng(0)
    dense = rng.standard_normal((20_000, 30)).astype(dtype)
    dense[rng.random(dense.shape) < 0.8] = 0
    dense[:, 3] = 0  # no stored value
    dense[:, 4] = -np.abs(dense[:, 4])  # negative values only
    X = sp.csr_matrix(dense)
    expected = np.abs(dense).max(axis=0).astype(np.float64)
    np.testing.assert_array_equal(column_abs_max(dense), expected)
    tracemalloc.start()
    try:
        found = column_abs_max(X)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(found, expected)
    assert peak < 0.1 * (X.data.nbytes + X.indices.nbytes)
    # duplicate entries of a CSR mean their sum, as scipy reads them
    twice = sp.csr_matrix((np.array([3, 4, -5, 5], dtype=dtype),
                           np.array([0, 0, 1, 1]), np.array([0, 4])), shape=(1, 2))
    assert not twice.has_canonical_format
    np.testing.assert_array_equal(column_abs_max(twice), [7.0, 0.0])
    assert twice.nnz == 4  # the caller's matrix is left as it was
    np.testing.assert_array_equal(column_abs_max(np.array([[-128, 1], [2, 0]],
                                                          dtype=np.int8)),
                                  [128.0, 1.0])


@pytest.mark.parametrize("T", [3, 8])
def test_truncation_level_reaches_the_objective(T):
    # the objective of the fitted model is the truncated loss (the loss layer
    # is checked against its definition in skpapk/losses/tests), exact on
    # users with at most T relevant or at most T irrelevant rows
    from skpapk.losses import PairwiseLogisticSurrogate

    X, y, groups = make_grouped_data(0, 6, 4, n_pos=(10, 14), n_neg=(20, 30))
    codes = np.unique(groups, return_inverse=True)[1]
    ranker = PApKRanker(truncation_level=T, alpha=1e-3).fit(X, y, groups=groups)
    scores = X @ ranker.coef_
    value = PairwiseLogisticSurrogate("inverse_variance", truncation_level=T
                                      ).loss_gradient(y == 1, scores, codes, 6, 10)[0]
    assert ranker.objective_curve_[-1] == pytest.approx(
        value + 1e-3 * ranker.coef_ @ ranker.coef_, rel=1e-10)
    every = PApKRanker(truncation_level=None, alpha=1e-3).fit(X, y, groups=groups)
    assert np.abs(ranker.coef_ - every.coef_).max() > 1e-6
    # every user has at most 14 relevant rows: every pair kept
    short = PApKRanker(truncation_level=14, alpha=1e-3).fit(X, y, groups=groups)
    np.testing.assert_array_equal(short.coef_, every.coef_)


@pytest.mark.parametrize("level", [2**63, 2**70])
def test_a_truncation_level_beyond_int64_keeps_every_pair(level):
    # OverflowError: Python int too large to convert to C long, in the kernel
    X, y, g = make_grouped_data(5, n_groups=5)
    huge = PApKRanker(truncation_level=level, n_jobs=1).fit(X, y, groups=g)
    every = PApKRanker(truncation_level=None, n_jobs=1).fit(X, y, groups=g)
    np.testing.assert_array_equal(huge.coef_, every.coef_)


def test_a_boolean_truncation_level_is_refused():
    X, y, g = make_grouped_data(5, n_groups=5)
    with pytest.raises(ValueError, match="'truncation_level' parameter of "
                                         "PApKRanker must be .*, not a bool"):
        PApKRanker(truncation_level=True).fit(X, y, groups=g)


def test_a_truncation_that_stops_lbfgs_at_the_start_is_named():
    # from w_0 = 0 every score ties, and the pairs of each group's top 5
    # rows change as soon as w moves: L-BFGS stayed at 0 (or, with older
    # SciPy, stopped after one step) and the warning blamed the features
    # (standard normal here) only
    rng = np.random.default_rng(0)
    y = rng.random(2000) < 0.2
    X = rng.normal(size=(2000, 3)) + 0.5 * y[:, None]
    g = np.repeat(np.arange(20), 100)
    # (or, with older SciPy, moved within rounding of it: a stall too)
    with pytest.warns(ConvergenceWarning, match=r"L-BFGS (did not move from w_0"
                                                r"|stopped after 1 iterations"
                                                r"|lowered the objective by only "
                                                r".* at w_0 = 0).*"
                                                r"truncation_level=5 keeps the pairs"):
        PApKRanker(surrogate="soft_papk", truncation_level=5, k=10).fit(
            X, y, groups=g)


def _stall_data():
    rng = np.random.default_rng(0)
    y = (rng.random(120) < 0.3).astype(int)
    X = rng.normal(size=(120, 3)) + 0.8 * y[:, None]
    return X, y, np.repeat(np.arange(8), 15)


def test_a_fall_within_rounding_from_zero_is_a_stall():
    # L-BFGS moved from w_0 = 0 by 1e-13 (the objective fell by 2e-13 of
    # its value, its gradient not reduced) and was reported converged,
    # without a word
    X, y, g = _stall_data()
    with pytest.warns(ConvergenceWarning, match="L-BFGS lowered the objective "
                                                "by only .* at w_0 = 0"):
        ranker = PApKRanker("soft_papk", k=3, n_jobs=1, truncation_level=1).fit(
            X, y, groups=g)
    assert np.abs(ranker.coef_).max() < 1e-9
    assert not ranker._solver_state.converged


@pytest.mark.parametrize("params", [{"alpha": 1e10}, {"warm_start": True}])
def test_a_small_fall_with_the_gradient_reduced_is_no_stall(params):
    # a huge alpha: the optimum lies next to w_0 = 0 and L-BFGS reaches it
    # (its gradient falls under tol); a warm start at the optimum has
    # nothing left to lose
    X, y, g = _stall_data()
    ranker = PApKRanker(k=3, n_jobs=1, **params)
    if params.get("warm_start"):
        ranker.fit(X, y, groups=g)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        ranker.fit(X, y, groups=g)


@pytest.mark.parametrize("surrogate", ["pairwise_logistic", "soft_papk"])
def test_a_user_of_too_many_pairs_is_told_of_truncation_level(monkeypatch,
                                                              surrogate):
    # one user of 1e5 rows took 5 s an evaluation (n+ * n- pairs), minutes a
    # fit, without a word; truncation_level=100 made it linear
    import skpapk._linear

    monkeypatch.setattr(skpapk._linear, "LONG_LIST_PAIRS", 100)
    X, y, g = _stall_data()  # users of 15 rows, 4 x 11 pairs at most
    g = np.where(g < 2, 0, g)  # one user of 30 rows: over 100 pairs
    n_pos = int(y[g == 0].sum())
    with pytest.warns(UserWarning, match=f"a user has {n_pos} relevant x "
                                         f"{30 - n_pos} irrelevant rows.*"
                                         "Set truncation_level"):
        PApKRanker(surrogate, k=3, n_jobs=1).fit(X, y, groups=g)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        PApKRanker(surrogate, k=3, n_jobs=1, truncation_level=5).fit(X, y, groups=g)
        PApKRanker(surrogate, k=3, n_jobs=1).fit(X, y, groups=np.arange(120) // 15)
