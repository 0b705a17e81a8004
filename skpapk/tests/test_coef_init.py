"""Tests of ``fit(..., coef_init=w0)``: Algorithm 1 started at a given ``w_0``."""

import re

import numpy as np
import pytest
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, GroupKFold

from skpapk import (
    PApKAvgRanker,
    PApKMaxRanker,
    PApKRampRanker,
    PApKRanker,
    PApKTSRanker,
    PAUCRanker,
    PrecAtKRanker,
)
from skpapk.datasets import make_papk_simulation
from skpapk.losses import surrogate_loss
from skpapk.tests._helpers import algorithm_1, make_grouped_data

RANKERS = {
    "avg": PApKAvgRanker,
    "max": PApKMaxRanker,
    "ts": PApKTSRanker,
    "ramp": PApKRampRanker,
    "pauc": PAUCRanker,
}


def _data(seed=0, n_groups=10, d=4):
    return make_grouped_data(seed, n_groups, d, n_pos=(1, 6), n_neg=(1, 12),
                             shuffle=False)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name", list(RANKERS))
@pytest.mark.parametrize("tol", [None, 1e-4])
def test_zero_coef_init_equals_the_default_bit_for_bit(name, tol):
    X, y, groups = _data(1)
    params = dict(k=3, eta0=0.5, alpha=0.01, max_iter=15, tol=tol,
                  n_iter_no_change=3)
    default = RANKERS[name](**params).fit(X, y, groups=groups)
    zero = RANKERS[name](**params).fit(X, y, groups=groups,
                                       coef_init=np.zeros(X.shape[1]))
    np.testing.assert_array_equal(zero.coef_, default.coef_)
    np.testing.assert_array_equal(zero.objective_curve_, default.objective_curve_)
    assert zero.n_iter_ == default.n_iter_
    assert (zero._solver_state.best_objective
            == default._solver_state.best_objective)


@pytest.mark.parametrize("surrogate", ["avg", "max", "ts", "ramp", "pauc"])
@pytest.mark.parametrize("seed", [0, 1])
def test_coef_init_equals_algorithm_1_started_there(surrogate, seed):
    X, y, groups = _data(seed)
    w0 = np.random.default_rng(100 + seed).normal(size=X.shape[1])
    w_ref, obj_ref, _ = algorithm_1(X, y, groups, surrogate, 3, 0.2, 0.05, 7, w0=w0)
    ranker = RANKERS[surrogate](k=3, eta0=0.2, alpha=0.05, max_iter=7, tol=None)
    ranker.fit(X, y, groups=groups, coef_init=w0)
    np.testing.assert_allclose(ranker.coef_, w_ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ranker.objective_curve_, obj_ref, rtol=1e-10)
    # the objective at w_0 is that of the given start, not of 0 (which is 1
    # for every surrogate): the start was used
    assert ranker.objective_curve_[0] != pytest.approx(1.0)
    assert ranker.t_ == 7


def test_best_iterate_may_be_the_given_start():
    # from a start that is already good, the lowest objective can be w_0's:
    # a given w_0 takes part in best_objective (w_0 = 0 does not)
    X, y, groups = _data(2)
    w_good = PApKMaxRanker(k=3, eta0=0.5, alpha=0.0, max_iter=200,
                           tol=None).fit(X, y, groups=groups).coef_
    ranker = PApKMaxRanker(k=3, eta0=50.0, alpha=0.0, max_iter=5, tol=None)
    with pytest.warns(ConvergenceWarning, match="never went below its value at "
                      r"the starting point the given w_0 \(coef_init\)"):
        ranker.fit(X, y, groups=groups, coef_init=w_good)
    curve = ranker.objective_curve_
    assert ranker._solver_state.best_objective == curve.min()
    assert int(np.argmin(curve)) == 0  # every later iterate is worse here


def test_coef_init_is_not_modified_and_overrides_warm_start():
    X, y, groups = _data(3)
    w0 = np.random.default_rng(0).normal(size=X.shape[1])
    w0_copy = w0.copy()
    params = dict(k=2, eta0=0.3, alpha=0.01, max_iter=6, tol=None)
    fresh = PApKTSRanker(**params).fit(X, y, groups=groups, coef_init=w0)
    np.testing.assert_array_equal(w0, w0_copy)
    warm = PApKTSRanker(warm_start=True, **params).fit(X, y, groups=groups)
    warm.fit(X, y, groups=groups, coef_init=w0)  # restarts at w0, t = 0
    np.testing.assert_array_equal(warm.coef_, fresh.coef_)
    assert warm.t_ == fresh.t_ == 6


def test_coef_init_accepts_a_list_and_float32_X():
    X, y, groups = _data(4)
    w0 = [0.1, -0.2, 0.3, 0.0]
    a = PApKRanker("max", k=2, max_iter=4, tol=None).fit(X, y, groups=groups,
                                                         coef_init=w0)
    b = PApKRanker("max", k=2, max_iter=4, tol=None).fit(X, y, groups=groups,
                                                         coef_init=np.array(w0))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    c = PApKRanker("max", k=2, max_iter=4, tol=None).fit(
        X.astype(np.float32), y, groups=groups, coef_init=w0)
    assert c.coef_.dtype == np.float64
    np.testing.assert_allclose(c.coef_, a.coef_, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("bad, shape", [
    (np.zeros(3), "(3,)"),
    (np.zeros(5), "(5,)"),
    (np.zeros((1, 4)), "(1, 4)"),
    (np.zeros((4, 1)), "(4, 1)"),
    (1.0, "()"),
])
def test_bad_shape_raises(bad, shape):
    X, y, groups = _data(5)
    pattern = r"coef_init must have shape \(4,\).*" + re.escape(shape)
    with pytest.raises(ValueError, match=pattern):
        PApKAvgRanker(k=2).fit(X, y, groups=groups, coef_init=bad)


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_non_finite_raises(value):
    X, y, groups = _data(6)
    w0 = np.zeros(X.shape[1])
    w0[1] = value
    with pytest.raises(ValueError, match="coef_init must be finite"):
        PApKMaxRanker(k=2).fit(X, y, groups=groups, coef_init=w0)


@pytest.mark.parametrize("coef_init", [["a", "b", "c", "d"],
                                       [True, False, 0.5, 1.0],
                                       np.ones(4, dtype=bool)])
def test_non_numeric_raises_type_error(coef_init):
    X, y, groups = _data(7)
    with pytest.raises(TypeError, match="coef_init must be an array"):
        PApKMaxRanker(k=2).fit(X, y, groups=groups, coef_init=coef_init)


def test_baseline_on_the_same_solver_takes_coef_init():
    X, y, groups = _data(8)
    w0 = np.random.default_rng(1).normal(size=X.shape[1])
    ranker = PrecAtKRanker(k=3, eta0=0.1, max_iter=3, tol=None)
    zero = PrecAtKRanker(k=3, eta0=0.1, max_iter=3, tol=None).fit(X, y, groups=groups)
    ranker.fit(X, y, groups=groups, coef_init=w0)
    assert ranker.objective_curve_[0] != zero.objective_curve_[0]


def test_metadata_routing_does_not_request_coef_init():
    routing = PApKAvgRanker().get_metadata_routing()
    assert routing.fit.requests == {"groups": True, "coef_init": None,
                                    "X_val": None, "y_val": None,
                                    "groups_val": None}
    X, y, groups = _data(9, n_groups=30)
    search = GridSearchCV(PApKAvgRanker(k=3, max_iter=10, tol=None),
                          {"eta0": [0.01, 0.5]}, cv=GroupKFold(3))
    with sklearn.config_context(enable_metadata_routing=True):
        search.fit(X, y, groups=groups)
        # coef_init is not routed unless requested: passing it is an error
        with pytest.raises(ValueError, match="coef_init"):
            search.fit(X, y, groups=groups, coef_init=np.zeros(X.shape[1]))
        # once requested, every fit of the search starts there
        est = PApKAvgRanker(k=3, max_iter=10, tol=None).set_fit_request(coef_init=True)
        w0 = np.full(X.shape[1], -0.5)
        routed = GridSearchCV(est, {"eta0": [0.01]}, cv=GroupKFold(3)).fit(
            X, y, groups=groups, coef_init=w0)
    by_hand = PApKAvgRanker(k=3, max_iter=10, tol=None, eta0=0.01).fit(
        X, y, groups=groups, coef_init=w0)
    np.testing.assert_array_equal(routed.best_estimator_.coef_, by_hand.coef_)
    assert search.best_estimator_.n_iter_ == 10


# two steps from an arbitrary w_0 on random data may all go uphill: the
# ConvergenceWarning that says so is expected for some of the examples
@pytest.mark.filterwarnings(
    "ignore:The objective never went below:sklearn.exceptions.ConvergenceWarning")
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), scale=st.floats(0.0, 3.0),
       surrogate=st.sampled_from(["avg", "max", "ts"]))
def test_property_first_objective_is_the_start(seed, scale, surrogate):
    # the first recorded objective is the surrogate (+ alpha ||w_0||^2) at w_0
    X, y, groups = _data(seed, n_groups=3, d=3)
    w0 = scale * np.random.default_rng(seed).normal(size=3)
    ranker = RANKERS[surrogate](k=2, eta0=0.1, alpha=0.1, max_iter=2, tol=None)
    ranker.fit(X, y, groups=groups, coef_init=w0)
    value, _ = surrogate_loss(y == 1, X @ w0, groups, k=2, surrogate=surrogate)
    assert ranker.objective_curve_[0] == pytest.approx(value + 0.1 * w0 @ w0,
                                                       rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("make", [
    lambda: PApKMaxRanker(k=3), lambda: PApKRanker(k=3),
    lambda: PApKRanker(k=3, solver="subgradient")])
def test_a_coef_init_whose_scores_overflow_is_an_error(make):
    # finite weights whose scores X @ w_0 overflow: the fit kept w_0 with a
    # warning blaming the step size (or the features), and coef_ scored inf
    X, y, groups = make_papk_simulation(10, n_features=2, random_state=0)
    with pytest.raises(ValueError, match="scores X @ w_0 of the starting "
                                         "weights \\(coef_init"):
        make().fit(X, y, groups=groups, coef_init=[1e308, -1e308])


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name", ["PApKRanker", "PApKAvgRanker"])
def test_series_coef_init_is_read_by_position_only_when_its_index_agrees(name):
    # (tester) a Series indexed by X's columns in another order was used by
    # position, silently (warm_start refuses reordered columns)
    import pandas as pd

    X, y, groups = _data()
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    make = {"PApKRanker": lambda: PApKRanker(k=3, max_iter=2),
            "PApKAvgRanker": lambda: PApKAvgRanker(k=3, max_iter=2, tol=None)}[name]
    w0 = np.array([0.3, -0.2, 0.1, 0.5])
    expected = make().fit(frame, y, groups=groups, coef_init=w0).coef_
    for agrees in (pd.Series(w0, index=frame.columns), pd.Series(w0)):
        np.testing.assert_array_equal(
            make().fit(frame, y, groups=groups, coef_init=agrees).coef_, expected)
    # a plain array beside an ndarray X: no names to check
    np.testing.assert_array_equal(make().fit(X, y, groups=groups, coef_init=pd.Series(
        w0, index=list("dcba"))).coef_, make().fit(X, y, groups=groups,
                                                     coef_init=w0).coef_)
    reordered = pd.Series(w0, index=frame.columns)[::-1]
    with pytest.raises(ValueError, match=r"^coef_init is a Series whose index "
                       r"holds the columns of X in another order.*"
                       r"coef_init\.reindex\(X\.columns\)"):
        make().fit(frame, y, groups=groups, coef_init=reordered)
    np.testing.assert_array_equal(make().fit(
        frame, y, groups=groups, coef_init=reordered.reindex(frame.columns)).coef_,
        expected)
    with pytest.raises(ValueError, match=r"^coef_init is a Series whose index "
                       r"is not the columns of X \(\['w', 'x', 'y', 'z'\]"):
        make().fit(frame, y, groups=groups,
                   coef_init=pd.Series(w0, index=list("wxyz")))
