"""Tests of the projected subgradient solver (paper Algorithm 1)."""

import tracemalloc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from skpapk._solver import SolverState, projected_subgradient
from skpapk.datasets import make_papk_simulation
from skpapk.losses import SURROGATES
from skpapk.tests._helpers import algorithm_1, make_grouped_data

ALL = ["avg", "max", "ts", "ramp", "pauc"]


def _data(seed=0, n_groups=12, d=4, dtype=np.float64):
    X, y, codes = make_grouped_data(seed, n_groups, d, n_pos=(1, 6), n_neg=(1, 12),
                                    shuffle=False)
    return X.astype(dtype), y == 1, codes, n_groups


@pytest.mark.parametrize("surrogate", ALL)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matches_algorithm_1(surrogate, sparse, dtype):
    X, y, codes, n_groups = _data(dtype=dtype)
    if sparse:
        X = sp.csr_matrix(X)
    state = projected_subgradient(
        X, y, codes, n_groups, loss=SURROGATES[surrogate](), k=3, eta0=0.3,
        alpha=0.01, max_iter=6, tol=None)
    w_ref, obj_ref, _ = algorithm_1(X, y, codes, surrogate, 3, 0.3, 0.01, 6)
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    assert state.t == 6
    assert state.w.dtype == np.float64
    np.testing.assert_allclose(state.w, w_ref, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(state.objective_curve, obj_ref, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("surrogate", ALL)
def test_objective_is_one_at_zero(surrogate):
    # at w_0 = 0 every surrogate equals 1 (every hinge of a top-beta pair is 1)
    X, y, codes, n_groups = _data(1)
    state = projected_subgradient(X, y, codes, n_groups, loss=SURROGATES[surrogate](),
                                  k=2, eta0=0.1, alpha=0.5, max_iter=1, tol=None)
    assert state.objective_curve[0] == pytest.approx(1.0)


@pytest.mark.parametrize("radius", [0.05, 0.5])
def test_projection_on_ball(radius):
    X, y, codes, n_groups = _data(2)
    state = SolverState.zeros(X.shape[1])
    for _ in range(10):
        projected_subgradient(X, y, codes, n_groups, loss=SURROGATES["max"](), k=3,
                              eta0=5.0, alpha=0.0, max_iter=1, tol=None,
                              radius=radius, state=state)
        assert np.linalg.norm(state.w) <= radius * (1 + 1e-12)
    w_ref, _, _ = algorithm_1(X, y, codes, "max", 3, 5.0, 0.0, 10, radius=radius)
    np.testing.assert_allclose(state.w, w_ref, rtol=1e-10, atol=1e-12)
    assert np.linalg.norm(state.w) == pytest.approx(radius)  # the ball binds


def test_resuming_from_state_equals_one_run():
    X, y, codes, n_groups = _data(3)
    kwargs = dict(loss=SURROGATES["ts"](), k=2, eta0=0.2, alpha=0.01, tol=None)
    once = projected_subgradient(X, y, codes, n_groups, max_iter=8, **kwargs)
    state = projected_subgradient(X, y, codes, n_groups, max_iter=5, **kwargs)
    state = projected_subgradient(X, y, codes, n_groups, max_iter=3, state=state,
                                  **kwargs)
    np.testing.assert_array_equal(state.w, once.w)
    assert state.objective_curve == once.objective_curve
    assert state.t == 8


def test_best_objective_is_recorded():
    X, y, codes, n_groups = _data(4)
    state = projected_subgradient(X, y, codes, n_groups, loss=SURROGATES["avg"](),
                                  k=3, eta0=2.0, alpha=0.0, max_iter=30, tol=None)
    assert state.best_objective == min(state.objective_curve[1:])


def test_tol_stops_early_without_warning():
    X, y, codes, n_groups = _data(5)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        state = projected_subgradient(
            X, y, codes, n_groups, loss=SURROGATES["max"](), k=3, eta0=0.1,
            alpha=0.01, max_iter=1000, tol=10.0, n_iter_no_change=3)
    assert state.converged
    # w_0 is not compared; w_1 sets the best, then 3 epochs without a gain of 10
    assert len(state.objective_curve) == 5


def test_max_iter_without_tol_met_warns():
    X, y, codes, n_groups = _data(6)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        state = projected_subgradient(
            X, y, codes, n_groups, loss=SURROGATES["max"](), k=3, eta0=0.1,
            alpha=0.01, max_iter=3, tol=1e-12, n_iter_no_change=5)
    assert not state.converged
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        projected_subgradient(X, y, codes, n_groups, loss=SURROGATES["max"](),
                              k=3, eta0=0.1, alpha=0.01, max_iter=3, tol=None)


def test_divergence_warns_and_keeps_finite_iterate():
    X, y, codes, n_groups = _data(7)
    with pytest.warns(ConvergenceWarning, match="eta0"):
        state = projected_subgradient(
            X, y, codes, n_groups, loss=SURROGATES["avg"](), k=3, eta0=1e300,
            alpha=1.0, max_iter=50, tol=None)
    assert state.diverged
    assert np.all(np.isfinite(state.w))
    assert state.t < 50


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("sparse", [False, True])
def test_an_epoch_does_not_copy_X(sparse):
    rng = np.random.default_rng(0)
    n, d = 20000, 60
    X = rng.normal(size=(n, d))
    if sparse:
        X = sp.random(n, d, density=0.5, format="csr", random_state=0)
    codes = np.repeat(np.arange(200), n // 200)
    y = rng.random(n) < 0.2
    nbytes = X.nbytes if not sparse else X.data.nbytes + X.indices.nbytes
    tracemalloc.start()
    try:
        projected_subgradient(X, y, codes, 200, loss=SURROGATES["ts"](), k=5,
                              eta0=0.1, alpha=0.01, max_iter=2, tol=None)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 0.5 * nbytes


@pytest.mark.parametrize("surrogate", ["avg", "ts"])
@pytest.mark.parametrize("early_stopping", [False, True])
def test_an_oracle_summing_parts_of_whole_groups_is_the_same_descent(
        surrogate, early_stopping):
    # the hook of distributed fits (skpapk.dask): subgradient_descent on an
    # objective (LinearLoss) that adds up the loss_gradient_sums of two parts
    # of the groups, and a validation object with score(w, k), gives
    # projected_subgradient
    from skpapk._linear_loss import InMemoryLinearLoss, LinearLoss
    from skpapk._solver import ValidationSet, subgradient_descent

    X, y, codes, n_groups = _data(seed=3)
    loss = SURROGATES[surrogate]()
    cut = int(np.searchsorted(codes, n_groups // 2))  # rows sorted by group
    parts = [slice(0, cut), slice(cut, None)]
    X_val, y_val, codes_val = X[::-1] + 0.1, y[::-1], codes[::-1]
    validation = (ValidationSet(X=X_val, y_pos=y_val, codes=codes_val)
                  if early_stopping else None)

    class TwoParts(LinearLoss):
        dtype, x_max = X.dtype, float(np.abs(X).max())

        def _surrogate_at(self, w, *, gradient, check_finite, train_papk):
            sums = [loss.loss_gradient_sums(y[p], X[p] @ w, codes[p], n_groups, 3)
                    for p in parts]
            weight = sum(s[2] for s in sums)
            grad = sum(X[p].T @ s[1] for p, s in zip(parts, sums)) / weight
            return sum(s[0] for s in sums) / weight, grad, None

    class Held:  # validation kept elsewhere, scored through score(w, k)
        def score(self, w, k):
            return validation.score(w, k)

    objective = TwoParts(loss, k=3, alpha=0.01)
    assert objective.x_max == InMemoryLinearLoss(
        X, y, codes, n_groups, loss, k=3, alpha=0.01).x_max
    options = dict(eta0=0.3, max_iter=8, tol=1e-3, n_iter_no_change=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref = projected_subgradient(X, y, codes, n_groups, loss=loss, k=3,
                                    alpha=0.01, validation=validation, **options)
        got = subgradient_descent(objective, SolverState.zeros(X.shape[1]),
                                  validation=Held() if early_stopping else None,
                                  **options)
    np.testing.assert_allclose(got.w, ref.w, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.objective_curve, ref.objective_curve,
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.validation_scores, ref.validation_scores,
                               rtol=0, atol=1e-12)
    assert got.t == ref.t and got.converged == ref.converged


def _simulation(pos_mean, seed=0):
    X, y, groups = make_papk_simulation(20, n_pos=5, n_neg=60, pos_mean=pos_mean,
                                        random_state=seed)
    return X, y == 1, groups, 20


@pytest.mark.parametrize("surrogate", ["avg", "max", "ts"])
def test_warns_when_the_objective_never_goes_below_its_start(surrogate):
    # No signal (relevant and irrelevant rows drawn alike), 60 irrelevant rows
    # per group and k = 5: the top 5 irrelevant scores outscore the relevant
    # ones under every w, the hinge surrogates are lowest at w_0 = 0.
    X, y, codes, n_groups = _simulation(pos_mean=0.0)
    with pytest.warns(ConvergenceWarning,
                      match="never went below its value at the starting point "
                            "w_0 = 0") as record:
        state = projected_subgradient(
            X, y, codes, n_groups, loss=SURROGATES[surrogate](), k=5, eta0=0.5,
            alpha=1e-3, max_iter=30, tol=None)
    curve = np.asarray(state.objective_curve)
    assert curve[1:].min() >= curve[0]
    message = str(record[0].message)
    assert "eta0=0.5" in message and "hinge" in message
    # the solver states facts: the rankers add what to change in their
    # parameters
    assert "coef_init" not in message and "PApKRanker" not in message


@pytest.mark.parametrize("early_stopping", [False, True])
@pytest.mark.parametrize("coef_init", [False, True])
def test_rankers_add_their_advice_to_the_no_descent_warning(early_stopping,
                                                            coef_init):
    from skpapk import PApKAvgRanker, PApKRanker

    X, y, codes, _ = _simulation(pos_mean=0.0)
    fit_params = {"coef_init": np.full(X.shape[1], 1e-3)} if coef_init else {}
    for ranker, remedy in [
            (PApKAvgRanker(k=5, eta0=0.5, max_iter=30, tol=None,
                           early_stopping=early_stopping,
                           validation_fraction=0.4, random_state=0),
             "PApKRanker() with its default surrogate='pairwise_logistic'"),
            (PApKRanker(surrogate="pairwise_logistic", solver="subgradient",
                        k=5, eta0=50.0, max_iter=30, tol=None,
                        early_stopping=early_stopping,
                        validation_fraction=0.4, random_state=0),
             "solver='lbfgs'")]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ranker.fit(X, y, groups=codes, **fit_params)
        messages = [str(w.message) for w in caught
                    if issubclass(w.category, ConvergenceWarning)
                    and "never went below" in str(w.message)]
        [message] = messages
        assert [w.category for w in caught
                if "never went below" in str(w.message)] == [ConvergenceWarning]
        assert remedy in message
        assert ("coef_init" in message.split("To learn")[1]) is not coef_init
        assert ("early_stopping=True" in message) is not early_stopping


def test_no_start_warning_when_the_objective_goes_below_its_start():
    # The paper's simulation (relevant rows at -1_d): the surrogate learns.
    X, y, codes, n_groups = _simulation(pos_mean=-1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        state = projected_subgradient(
            X, y, codes, n_groups, loss=SURROGATES["avg"](), k=5, eta0=0.5,
            alpha=1e-3, max_iter=30, tol=None)
    curve = np.asarray(state.objective_curve)
    assert curve[1:].min() < curve[0]


def test_start_warning_only_for_runs_from_their_start():
    # partial_fit-like calls (one epoch each) never compare two iterates of one
    # call, a resumed run has no w_0 of its own; a given w_0 is named as such.
    X, y, codes, n_groups = _simulation(pos_mean=0.0)
    loss = SURROGATES["avg"]()
    state = SolverState.zeros(X.shape[1])
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        for _ in range(5):
            projected_subgradient(X, y, codes, n_groups, loss=loss, k=5, eta0=0.5,
                                  alpha=1e-3, max_iter=1, tol=None, state=state)
        projected_subgradient(X, y, codes, n_groups, loss=loss, k=5, eta0=0.5,
                              alpha=1e-3, max_iter=10, tol=None, state=state)
    w0 = np.full(X.shape[1], 1e-3)
    with pytest.warns(ConvergenceWarning, match=r"the given w_0 \(coef_init\)"):
        projected_subgradient(X, y, codes, n_groups, loss=loss, k=5, eta0=0.5,
                              alpha=1e-3, max_iter=10, tol=None,
                              state=SolverState.from_coef(w0))


@pytest.mark.parametrize("alpha, match", [
    (1e300, "The iterates diverged"),
    (1e3, "The objective never went below"),
])
def test_a_ridge_step_that_overshoots_names_alpha(alpha, match):
    # the warnings said "lower eta0 or scale X" only, and the iterate kept
    # ranked in reverse: the ridge step multiplies w by 1 - 2 alpha eta0
    from skpapk import PApKAvgRanker

    rng = np.random.default_rng(0)
    y = (rng.random(120) < 0.3).astype(int)
    X = rng.normal(size=(120, 3)) + 0.8 * y[:, None]
    g = np.repeat(np.arange(8), 15)
    with pytest.warns(ConvergenceWarning, match=match) as records:
        PApKAvgRanker(k=3, alpha=alpha).fit(X, y, groups=g)
    assert any("lower alpha or eta0 so that alpha * eta0 < 1/2" in str(r.message)
               for r in records)
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        PApKAvgRanker(k=3, alpha=alpha, eta0=0.5 / alpha).fit(X, y, groups=g)
    assert not any("alpha * eta0" in str(r.message) for r in records)


@pytest.mark.parametrize("ranker", ["PApKAvgRanker", "PApKRanker"])
def test_features_constant_within_users_are_named_as_the_cause(ranker):
    # the warnings blamed too large steps or a surrogate lowest at w_0
    # (Algorithm 1), or extreme feature values (L-BFGS), and advised a
    # smooth surrogate or coef_init
    import skpapk

    X, y, g = make_papk_simulation(n_users=20, random_state=0)
    X = np.zeros_like(X) if ranker == "PApKAvgRanker" else np.ones_like(X)
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        getattr(skpapk, ranker)(max_iter=20).fit(X, y, groups=g)
    messages = [str(r.message) for r in records
                if issubclass(r.category, ConvergenceWarning)]
    assert any("do not vary within users (a column constant within each user "
               "cannot order its rows)" in m for m in messages), messages
    assert not any("To learn a ranker" in m or "overshot" in m for m in messages)
