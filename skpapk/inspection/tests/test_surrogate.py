import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning

from skpapk import (
    GreedyPApKRanker,
    PApKMaxRanker,
    PApKRanker,
    PAUCRanker,
    PrecAtKRanker,
)
from skpapk.datasets import make_margin_data, make_papk_simulation
from skpapk.inspection import SurrogateDisplay
from skpapk.losses import surrogate_loss
from skpapk.metrics import papk_score

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

ALL = ("avg", "max", "ts", "ramp", "pauc", "preck")


def _check_table(disp, X, y, g, k):
    """Every entry against surrogate_loss / papk_score at the recorded iterate."""
    for t, w in enumerate(disp.coefs):
        s = X @ w
        for j, name in enumerate(disp.columns[:-1]):
            assert disp.values[t, j] == pytest.approx(
                surrogate_loss(y, s, g, k=k, surrogate=name)[0], rel=1e-12, abs=1e-12)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            risk = 1.0 - papk_score(y, s, k=k, groups=g, ties="error")
        assert disp.values[t, -1] == pytest.approx(risk, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("surrogates", [("avg", "max", "ts", "ramp"), ALL, ("ts",)])
@pytest.mark.parametrize("ranker", [
    PApKMaxRanker(k=3, eta0=0.2, max_iter=15, tol=None),
    PApKRanker("ts", k=5, eta0=0.5, max_iter=60, tol=1e-2, n_iter_no_change=3),
    PAUCRanker(k=3, eta0=0.1, max_iter=10, tol=None, radius=0.5),
    PrecAtKRanker(k=2, eta0=0.1, max_iter=10, tol=None),
])
def test_from_estimator_replays_fit_and_evaluates_every_surrogate(ranker, surrogates):
    X, y, g = make_papk_simulation(8, n_pos=(1, 6), n_neg=(5, 20), random_state=1)
    disp = SurrogateDisplay.from_estimator(ranker, X, y, g, surrogates=surrogates)
    assert not hasattr(ranker, "coef_")  # the estimator itself is not fitted
    fitted = clone(ranker).fit(X, y, groups=g)
    # the recorded iterates are the solver's: the last one is coef_, and the
    # optimised surrogate + alpha ||w||^2 is the recorded objective
    assert_array_equal(disp.coefs[0], 0.0)
    assert_array_equal(disp.coefs[-1], fitted.coef_)
    n = fitted.n_iter_
    assert disp.coefs.shape[0] in (n, n + 1)  # w_n is the answer when tol did not stop
    objective = [surrogate_loss(y, X @ w, g, k=ranker.k,
                                surrogate=ranker._get_surrogate().name)[0]
                 + ranker.alpha * w @ w for w in disp.coefs[:n]]
    assert_allclose(objective, fitted.objective_curve_, rtol=1e-12)
    assert disp.columns == tuple(surrogates) + ("papk_risk",)
    assert disp.values.shape == (disp.coefs.shape[0], len(surrogates) + 1)
    _check_table(disp, X, y, g, ranker.k)
    for j, column in enumerate(disp.columns):
        assert_array_equal(disp.lines_[column].get_ydata(), disp.values[:, j])
        assert_array_equal(disp.lines_[column].get_xdata(),
                           np.arange(disp.values.shape[0]))
    assert ranker._get_surrogate().name in disp.ax_.get_title()


def test_max_iter_runs_a_fixed_number_of_epochs_ignoring_tol():
    X, y, g = make_papk_simulation(5, n_pos=3, n_neg=10, random_state=0)
    ranker = PApKMaxRanker(k=3, eta0=0.1, max_iter=500, tol=10.0, n_iter_no_change=1)
    disp = SurrogateDisplay.from_estimator(ranker, X, y, g, max_iter=7)
    assert disp.coefs.shape[0] == 8  # w_0 ... w_7
    fitted = clone(ranker).set_params(max_iter=7, tol=None).fit(X, y, groups=g)
    assert_array_equal(disp.coefs[-1], fitted.coef_)
    # with its own (huge) tol, the ranker stops after a few epochs
    short = SurrogateDisplay.from_estimator(ranker, X, y, g)
    assert short.coefs.shape[0] < 8


@pytest.mark.parametrize("condition, zero", [
    ("strong_beta", ("avg", "max", "ts", "ramp")),  # Prop. 6: max = 0, the rest below
    ("beta", ("avg", "ramp")),                      # Prop. 3 (avg), Prop. 1 (ramp)
    ("moderate_beta", ("ts", "ramp")),              # Prop. 4
])
def test_margin_conditions_zero_the_consistent_surrogate(condition, zero):
    X, y, _ = make_margin_data(condition, n_pos=40, n_neg=300, k=10, random_state=0)
    w = np.ones((1, X.shape[1]))
    disp = SurrogateDisplay.from_iterates(np.vstack([0 * w, w]), X, y, k=10)
    row = dict(zip(disp.columns, disp.values[1]))
    assert all(row[name] == 0.0 for name in zero)
    assert row["papk_risk"] == 0.0
    # at w_0 = 0 every score ties: the risk is 1 and every margin-1 hinge is 1
    assert_allclose(disp.values[0], 1.0)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_surrogate_ordering_facts_on_random_iterates(data):
    # DESIGN facts for every w: risk <= ramp <= max, ramp <= TS, avg <= max
    n = data.draw(st.integers(3, 14))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    X = np.round(rng.normal(size=(n, 2)), 1)
    y = rng.integers(0, 2, size=n)
    y[:2] = [0, 1]
    g = rng.integers(0, 2, size=n)
    g[:2] = 0  # at least one group has both labels
    coefs = np.round(rng.normal(size=(3, 2)) * 3, 1)
    k = data.draw(st.integers(1, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        disp = SurrogateDisplay.from_iterates(coefs, X, y, g, k=k)
    matplotlib.pyplot.close(disp.figure_)
    v = dict(zip(disp.columns, disp.values.T))
    eps = 1e-12
    assert np.all(v["papk_risk"] <= v["ramp"] + eps)
    assert np.all(v["ramp"] <= v["max"] + eps)
    assert np.all(v["ramp"] <= v["ts"] + eps)
    assert np.all(v["avg"] <= v["max"] + eps)


def test_from_iterates_values_match_the_loss_functions_sparse_and_labels():
    X, y, g = make_papk_simulation(6, n_pos=(1, 4), n_neg=(3, 9), random_state=3)
    y_str = np.where(y == 1, "yes", "no")
    coefs = np.random.default_rng(0).normal(size=(4, X.shape[1]))
    disp = SurrogateDisplay.from_iterates(coefs, sparse.csr_matrix(X), y_str, g, k=3,
                                          surrogates=ALL, name="random w",
                                          pos_label="yes")
    _check_table(disp, X, y, g, 3)
    assert disp.ax_.get_title() == "random w"


def test_undefined_groups_warn_once():
    X = np.arange(12.0).reshape(6, 2)
    y = [1, 0, 1, 0, 0, 0]
    g = [0, 0, 0, 1, 1, 1]  # group 1 has no relevant row
    with pytest.warns(UndefinedMetricWarning, match="1 of 2 groups") as record:
        SurrogateDisplay.from_iterates(np.ones((5, 2)), X, y, g, k=2)
    assert len([w for w in record if w.category is UndefinedMetricWarning]) == 1


def test_divergence_is_reported_and_the_trace_stops():
    X, y, g = make_papk_simulation(3, n_pos=3, n_neg=10, random_state=0)
    X = X * 1e154  # the first step overflows
    ranker = PApKMaxRanker(k=2, eta0=1e10, max_iter=5, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # overflowing scores
        with pytest.warns(ConvergenceWarning, match="non-finite"):
            disp = SurrogateDisplay.from_estimator(ranker, X, y, g)
    assert np.all(np.isfinite(disp.coefs))
    assert disp.coefs.shape[0] < 6
    # the rows of iterates whose scores overflow are NaN, the others finite
    with np.errstate(over="ignore", invalid="ignore"):
        finite = np.array([np.all(np.isfinite(X @ w)) for w in disp.coefs])
    assert_array_equal(np.isfinite(disp.values).all(axis=1), finite)


def test_overflowing_scores_give_a_nan_row():
    X = np.array([[1e300, 1.0], [-1e300, 0.0], [1.0, 2.0]])
    coefs = np.array([[0.0, 1.0], [1e10, 0.0], [1.0, 0.0]])
    with pytest.warns(RuntimeWarning, match="at 1 of 3 iterates"):
        disp = SurrogateDisplay.from_iterates(coefs, X, [1, 0, 0], k=1)
    assert_array_equal(np.isnan(disp.values).all(axis=1), [False, True, False])
    assert_array_equal(np.isfinite(disp.values).all(axis=1), [True, False, True])


@pytest.mark.parametrize("kwargs, error, match", [
    ({"surrogates": ("avg", "hinge")}, ValueError, "surrogates must name"),
    ({"surrogates": ()}, ValueError, "surrogates is empty"),
    ({"surrogates": ("avg", "avg")}, ValueError, "repeated"),
    ({"max_iter": -1}, ValueError, "max_iter must be None"),
    ({"max_iter": 2.5}, ValueError, "max_iter must be None"),
])
def test_from_estimator_errors(kwargs, error, match):
    X, y, g = make_papk_simulation(2, n_pos=3, n_neg=6, random_state=0)
    with pytest.raises(error, match=match):
        SurrogateDisplay.from_estimator(PApKMaxRanker(k=2), X, y, g, **kwargs)


def test_from_estimator_needs_a_subgradient_ranker():
    X, y, g = make_papk_simulation(2, n_pos=3, n_neg=6, random_state=0)
    with pytest.raises(TypeError, match="from_iterates"):
        SurrogateDisplay.from_estimator(GreedyPApKRanker(k=2), X, y, g)
    with pytest.raises(ValueError, match="eta0"):  # the ranker's own validation
        SurrogateDisplay.from_estimator(PApKMaxRanker(eta0=-1.0), X, y, g)


def test_from_iterates_errors():
    X = np.zeros((4, 3))
    y = [0, 1, 0, 1]
    with pytest.raises(ValueError, match="n_features"):
        SurrogateDisplay.from_iterates(np.zeros((2, 2)), X, y, k=1)
    with pytest.raises(ValueError, match="one label per row"):
        SurrogateDisplay.from_iterates(np.zeros((2, 3)), X, y[:3], k=1)
    with pytest.raises(ValueError, match="k"):
        SurrogateDisplay.from_iterates(np.zeros((2, 3)), X, y, k=0)
    for empty in ([], np.zeros((0, 3))):
        with pytest.raises(ValueError, match="coefs is empty"):
            SurrogateDisplay.from_iterates(empty, X, y, k=1)
    for one_dimensional in (np.array(1.0), np.ones(3)):
        with pytest.raises(ValueError, match=r"coefs must be 2D, .* shape \("):
            SurrogateDisplay.from_iterates(one_dimensional, X, y, k=1)
    with pytest.raises(TypeError, match="Sparse data was passed for coefs"):
        SurrogateDisplay.from_iterates(sparse.csr_matrix(np.ones((2, 3))), X, y,
                                       k=1)
    with pytest.raises(ValueError, match="shape"):
        SurrogateDisplay(values=np.zeros((3, 2)), columns=("avg",))


@pytest.mark.parametrize("option", ["early_stopping", "average", "warm_start"])
def test_options_that_are_not_replayed_are_warned_about(option):
    ranker = PApKMaxRanker(k=2, max_iter=3, tol=None)
    if option not in ranker.get_params():
        pytest.skip(f"this version of the rankers has no {option} parameter")
    X, y, g = make_papk_simulation(3, n_pos=6, n_neg=12, random_state=0)
    with pytest.warns(UserWarning, match=f"{option}=True is not replayed"):
        disp = SurrogateDisplay.from_estimator(ranker.set_params(**{option: True}),
                                               X, y, g)
    assert disp.coefs.shape[0] == 4
