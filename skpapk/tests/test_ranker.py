"""Tests of the pAp@k rankers."""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.model_selection import GridSearchCV, GroupKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skpapk import (
    PApKAvgRanker,
    PApKMaxRanker,
    PApKRampRanker,
    PApKRanker,
    PApKTSRanker,
)
from skpapk.metrics import expected_papk_score, micro_papk_scorer, papk_score
from skpapk.tests._helpers import make_grouped_data

SURROGATES = ["avg", "max", "ts", "ramp"]
FIXED = {"avg": PApKAvgRanker, "max": PApKMaxRanker, "ts": PApKTSRanker,
         "ramp": PApKRampRanker}


def make_data(seed=0, n_groups=40, d=5, sep=1.0):
    """Positives ~ N(-sep 1_d, I), negatives ~ N(0, I), varied positives per user."""
    return make_grouped_data(seed, n_groups, d, sep=sep)


@pytest.fixture(autouse=True)
def _quiet_convergence():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


@pytest.mark.parametrize("surrogate", SURROGATES)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fit_beats_random_ranking(surrogate, sparse, dtype):
    X, y, g = make_data(0)
    Xt, yt, gt = make_data(1)
    X, Xt = X.astype(dtype), Xt.astype(dtype)
    if sparse:
        X, Xt = sp.csr_matrix(X), sp.csr_matrix(Xt)
    ranker = PApKRanker(surrogate, k=5).fit(X, y, groups=g)
    random = expected_papk_score(yt, k=5, groups=gt)
    score = ranker.score(Xt, yt, groups=gt)
    assert score == pytest.approx(papk_score(yt, ranker.decision_function(Xt),
                                             k=5, groups=gt))
    assert score > random + 0.4
    assert ranker.coef_.shape == (5,)
    assert ranker.n_features_in_ == 5
    assert ranker.objective_curve_.shape == (ranker.n_iter_,)
    assert ranker.objective_curve_[0] == pytest.approx(1.0)
    # the signal points along -1_d
    assert np.all(ranker.coef_ < 0)


@pytest.mark.parametrize("surrogate", SURROGATES)
def test_sparse_and_float32_agree_with_dense(surrogate):
    X, y, g = make_data(2)
    params = dict(k=4, max_iter=15, tol=None)
    dense = PApKRanker(surrogate, **params).fit(X, y, groups=g)
    csr = PApKRanker(surrogate, **params).fit(sp.csr_matrix(X), y, groups=g)
    np.testing.assert_allclose(csr.coef_, dense.coef_, rtol=1e-10, atol=1e-12)
    f32 = PApKRanker(surrogate, **params).fit(X.astype(np.float32), y, groups=g)
    assert f32.decision_function(X.astype(np.float32)).dtype == np.float64
    np.testing.assert_allclose(f32.coef_, dense.coef_, rtol=0.02, atol=0.02)


@pytest.mark.parametrize("surrogate", SURROGATES)
def test_fixed_rankers_equal_papk_ranker(surrogate):
    X, y, g = make_data(3)
    fixed = FIXED[surrogate](k=3, max_iter=10).fit(X, y, groups=g)
    general = PApKRanker(surrogate, k=3, max_iter=10, alpha=fixed.alpha).fit(
        X, y, groups=g)
    np.testing.assert_array_equal(fixed.coef_, general.coef_)
    assert "surrogate" not in fixed.get_params()
    assert set(general.get_params()) == set(fixed.get_params()) | {
        "surrogate", "solver", "temperature", "group_weight", "truncation_level",
        "n_jobs"}
    assert sklearn.clone(fixed).get_params() == fixed.get_params()


def test_groups_default_to_one_group():
    X, y, _ = make_data(4)
    a = PApKRanker(max_iter=5).fit(X, y)
    b = PApKRanker(max_iter=5).fit(X, y, groups=np.zeros(len(y)))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.n_groups_skipped_ == 0


def test_string_groups_and_labels():
    X, y, g = make_data(5)
    names = np.array([f"user{i:03d}" for i in range(g.max() + 1)])
    labels = np.where(y == 1, "yes", "no")
    a = PApKRanker("ts", max_iter=8, pos_label="yes").fit(X, labels,
                                                          groups=names[g])
    b = PApKRanker("ts", max_iter=8).fit(X, y, groups=g)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.classes_, ["no", "yes"])
    assert a.score(X, labels, groups=names[g]) == b.score(X, y, groups=g)


def test_skipped_groups_are_counted_and_change_nothing():
    X, y, g = make_data(6, n_groups=10)
    rng = np.random.default_rng(0)
    X_extra = rng.normal(size=(7, X.shape[1]))
    y_extra = np.array([1, 1, 1, 0, 0, 0, 0])
    g_extra = np.array([100, 100, 100, 101, 101, 102, 102])  # 3 skipped groups
    X2, y2, g2 = np.vstack([X, X_extra]), np.r_[y, y_extra], np.r_[g, g_extra]
    a = PApKRanker("max", max_iter=10).fit(X2, y2, groups=g2)
    b = PApKRanker("max", max_iter=10).fit(X, y, groups=g)
    assert a.n_groups_skipped_ == 3
    assert b.n_groups_skipped_ == 0
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-12)


def test_no_defined_group_raises():
    X = np.arange(8.0).reshape(4, 2)
    with pytest.raises(ValueError, match="one class in each"):
        PApKRanker().fit(X, [1, 1, 0, 0], groups=[0, 0, 1, 1])


def test_verbose_prints_objective_and_papk(capsys):
    X, y, g = make_data(7, n_groups=5)
    g = np.r_[g[:-1], 99]  # one group of a single row: skipped
    PApKRanker("avg", max_iter=3, tol=None, verbose=1).fit(X, y, groups=g)
    out = capsys.readouterr().out
    assert "1 groups skipped" in out
    assert out.count("objective") == 3
    assert out.count("train micro-pAp@k") == 3
    ranker = PApKRanker(max_iter=3, tol=None, verbose=1).fit(X, y, groups=g)
    out = capsys.readouterr().out
    assert "lbfgs solver" in out and "1 groups skipped" in out
    assert out.count("-- Iteration") == ranker.n_iter_ <= 3


def test_recommend_matches_brute_force():
    X, y, g = make_data(8, n_groups=6)
    ranker = PApKRanker(max_iter=5).fit(X, y, groups=g)
    rec = ranker.recommend(X, groups=g, k=4)
    scores = ranker.decision_function(X)
    np.testing.assert_array_equal(rec.groups, np.unique(g))
    assert rec.indptr[0] == 0 and rec.indptr[-1] == rec.indices.shape[0]
    for i, label in enumerate(rec.groups):
        rows = np.flatnonzero(g == label)
        expected = rows[np.argsort(-scores[rows], kind="stable")][:4]
        np.testing.assert_array_equal(rec.indices[rec.indptr[i]:rec.indptr[i + 1]],
                                      expected)
    # default k is self.k; short groups get all their rows
    rec = ranker.recommend(X[:3], groups=["a", "b", "b"])
    np.testing.assert_array_equal(rec.indptr, [0, 1, 3])
    np.testing.assert_array_equal(rec.groups, ["a", "b"])
    # one list (no groups, or one group): its own path, the same rows; ties
    # (every score 0 at w = 0) in row order
    for model in (ranker, PApKRanker(max_iter=5).fit(0 * X, y, groups=g)):
        scores = model.decision_function(X)
        for k in (1, 4, len(y), len(y) + 3):
            expected = np.argsort(-scores, kind="stable")[:k]
            for groups in (None, np.full(len(y), "u")):
                rec = model.recommend(X, groups=groups, k=k)
                np.testing.assert_array_equal(rec.indices, expected)
                np.testing.assert_array_equal(rec.indptr, [0, len(expected)])


@pytest.mark.parametrize("groups", [None, [0, 0, 0, 1, 1, 1]])
def test_recommend_refuses_nan_scores_and_ranks_infinite_ones(groups):
    # a NaN score (inf - inf) emptied the list at k=1, gave one row at k=2
    # and came first at k=3, silently
    X, y, g = make_data(8, n_groups=6, d=4)
    ranker = PApKRanker(k=2).fit(X, y, groups=g)
    ranker.coef_ = np.array([2.0, -2.0, 0.0, 0.0])  # 2e308: beyond float64
    overflow = np.array([1e308, 1e308, 0, 0])
    Xq = np.vstack([overflow, np.zeros(4), np.eye(4)[0]] * 2)
    with np.errstate(all="ignore"):
        assert np.isnan(ranker.decision_function(Xq)[0])
        for k in (1, 2, 3):
            with pytest.raises(ValueError, match=r"not numbers \(NaN\) on 2 of "
                                                 r"6 rows \(the first: row 0\)"
                               ) as info:
                ranker.recommend(Xq, groups, k=k)
            assert info.value.rows.tolist() == [0, 3]  # for the command line
    # an infinite score ranks first (or last), as any other
    Xq = np.array([[0.0, 0, 0, 0], [1e308, -1e308, 0, 0], [1, 0, 0, 0]] * 2)
    with np.errstate(over="ignore"):
        rec = ranker.recommend(Xq, groups, k=2)
    assert rec.indices.tolist() == ([1, 4] if groups is None else [1, 2, 4, 5])


def test_pickle_round_trip():
    X, y, g = make_data(9)
    ranker = PApKTSRanker(max_iter=5).fit(X, y, groups=g)
    clone = pickle.loads(pickle.dumps(ranker))
    np.testing.assert_array_equal(clone.decision_function(X),
                                  ranker.decision_function(X))
    assert clone.get_params() == ranker.get_params()


class _RecordingRanker(PApKRanker):
    """Records the number of groups its fit received."""

    def fit(self, X, y, groups=None):
        super().fit(X, y, groups=groups)
        self.n_groups_seen_ = 1 if groups is None else len(np.unique(groups))
        return self


def test_grid_search_with_group_kfold_and_routing():
    X, y, g = make_data(10, n_groups=30)
    grid = {"eta0": [0.1, 1.0], "alpha": [1e-3, 1e-1]}
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(_RecordingRanker(k=5, max_iter=20), grid,
                              scoring=micro_papk_scorer(5), cv=GroupKFold(3),
                              error_score="raise")
        search.fit(X, y, groups=g)
        assert search.best_estimator_.n_groups_seen_ == 30
        cv = cross_validate(_RecordingRanker(k=5, max_iter=20), X, y,
                            scoring=micro_papk_scorer(5), cv=GroupKFold(3),
                            params={"groups": g}, return_estimator=True,
                            error_score="raise")
    assert search.best_params_["eta0"] in grid["eta0"]
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))
    assert search.best_score_ > 0.8
    # each fold's fit saw the train-fold groups: 2 of 3 folds of 30 groups
    assert [est.n_groups_seen_ for est in cv["estimator"]] == [20, 20, 20]
    assert np.all(cv["test_score"] > 0.8)


def test_pipeline_with_scaler_routes_groups():
    X, y, g = make_data(11)
    X = X * 100 + 5  # badly scaled features
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(StandardScaler(), _RecordingRanker(k=5))
        pipe.fit(X, y, groups=g)
        score = micro_papk_scorer(5)(pipe, X, y, groups=g)
        # Pipeline.score forwards sample_weight=None under routing: accepted
        pipe_score = pipe.score(X, y, groups=g)
    assert pipe[-1].n_groups_seen_ == 40
    assert score == pytest.approx(papk_score(y, pipe.decision_function(X), k=5,
                                             groups=g))
    assert pipe_score == pytest.approx(score)
    assert score > expected_papk_score(y, k=5, groups=g) + 0.4


@pytest.mark.parametrize("routing, advice", [
    (True, r"under metadata routing: set_score_request\(sample_weight=False\)"),
    (False, r"a search without metadata routing passes the sample_weight of fit "
            r"to score when scoring=None: turn routing on"),
])
def test_score_rejects_sample_weight(routing, advice):
    X, y, g = make_data(3)
    ranker = PApKAvgRanker(k=5, max_iter=3).fit(X, y, groups=g)
    with sklearn.config_context(enable_metadata_routing=routing), pytest.raises(
            ValueError, match="does not support sample_weight.*" + advice):
        ranker.score(X, y, groups=g, sample_weight=np.ones(len(y)))


def test_not_fitted():
    with pytest.raises(NotFittedError):
        PApKRanker().decision_function(np.ones((2, 2)))


@pytest.mark.parametrize(
    "params, match",
    [
        ({"surrogate": "hinge"}, "surrogate"),
        ({"surrogate": "pauc"}, "surrogate"),
        ({"k": 0}, "'k' parameter"),
        ({"eta0": 0.0}, "eta0"),
        ({"alpha": -1.0}, "alpha"),
        ({"max_iter": 0}, "max_iter"),
        ({"tol": -1.0}, "tol"),
        ({"radius": 0.0}, "radius"),
        ({"n_iter_no_change": 0}, "n_iter_no_change"),
    ],
)
def test_bad_params_raise(params, match):
    X, y, g = make_data(12, n_groups=3)
    with pytest.raises(ValueError, match=match):
        PApKRanker(**params).fit(X, y, groups=g)


def test_bad_inputs_raise():
    X, y, g = make_data(13, n_groups=3)
    with pytest.raises(ValueError, match="Only binary classification is supported."):
        PApKRanker().fit(X, y + (np.arange(len(y)) % 3 == 0), groups=g)
    with pytest.raises(ValueError, match="groups has 3 labels"):
        PApKRanker().fit(X, y, groups=g[:3])
    with pytest.raises(ValueError, match="NaN"):
        PApKRanker().fit(np.where(X > 2, np.nan, X), y, groups=g)
    ranker = PApKRanker(max_iter=3).fit(X, y, groups=g)
    with pytest.raises(ValueError, match="features"):
        ranker.decision_function(X[:, :2])


@pytest.mark.parametrize("cls", [PApKRanker, PApKAvgRanker])
def test_avg_docstring_states_it_is_not_an_upper_bound(cls):
    doc = " ".join(cls.__doc__.split())
    assert "**not** an upper bound of the pAp@k risk" in doc
    assert "Proposition 3" in doc


@pytest.mark.parametrize("surrogate", ["pairwise_logistic", "soft_papk"])
def test_n_jobs_does_not_change_coef(surrogate):
    """The pair kernel splits the users among threads; every user is summed
    by one thread in a fixed order, so the fit is bit-identical."""
    X, y, g = make_grouped_data(3, 30, 4)
    coefs = [PApKRanker(surrogate, k=4, n_jobs=n_jobs).fit(X, y, groups=g).coef_
             for n_jobs in (1, 2, -1, None)]
    for coef in coefs[1:]:
        np.testing.assert_array_equal(coef, coefs[0])


@pytest.mark.parametrize("surrogate, solver, n_start", [
    ("pairwise_logistic", "lbfgs", 1),        # w_0, then every iteration
    ("pairwise_logistic", "subgradient", 0),  # w_0 .. w_(n_iter_ - 1)
    ("avg", "subgradient", 0),
])
def test_objective_curve_has_the_documented_length(surrogate, solver, n_start):
    X, y, g = make_data(14)
    params = dict(k=5, solver=solver, max_iter=6, tol=None, warm_start=True)
    ranker = PApKRanker(surrogate, **params).fit(X, y, groups=g)
    first = ranker.n_iter_
    assert first == 6
    assert ranker.objective_curve_.shape == (first + n_start,)
    # a warm start appends the values of its own call
    ranker.fit(X, y, groups=g)
    assert ranker.objective_curve_.shape == (first + ranker.n_iter_ + 2 * n_start,)
    # which iterates: L-BFGS ends with the objective of coef_ (the last
    # iterate), Algorithm 1 with that of the iterate before it
    last = PApKRanker(surrogate, **{**params, "warm_start": False}).fit(
        X, y, groups=g)
    at_coef = PApKRanker(surrogate, **{**params, "max_iter": 1}).fit(
        X, y, groups=g, coef_init=last.coef_).objective_curve_[0]
    if solver == "lbfgs":
        assert last.objective_curve_[-1] == pytest.approx(at_coef, rel=1e-12)
    else:
        longer = PApKRanker(surrogate, **{**params, "warm_start": False,
                                          "max_iter": 7}).fit(X, y, groups=g)
        np.testing.assert_array_equal(longer.objective_curve_[:6],
                                      last.objective_curve_)
        assert longer.objective_curve_[6] == pytest.approx(at_coef, rel=1e-12)
    # and the docstring says so, for each solver
    doc = " ".join(PApKRanker.__doc__.split())
    curve = doc[doc.index("objective_curve_ :"):doc.index("validation_scores_ :")]
    assert "``(n_iter_,)`` after a single ``fit``" in curve
    assert "``(n_iter_ + 1,)`` after a single ``fit``" in curve


@pytest.mark.parametrize("cls", [PApKRanker, PApKAvgRanker])
def test_score_names_x_and_y_when_their_lengths_differ(cls):
    X, y, g = make_data(15)
    ranker = cls(k=5, max_iter=3).fit(X, y, groups=g)
    n = X.shape[0]
    with pytest.raises(ValueError, match=f"X has {n - 1} rows but y has {n} "
                                         f"labels"):
        ranker.score(X[:-1], y, groups=g)
    with pytest.raises(ValueError, match=f"X has {n} rows but y has {n - 1} "
                                         f"labels"):
        ranker.score(X, y[:-1], groups=g[:-1])


@pytest.mark.parametrize("params, stop", [
    (dict(surrogate="avg"), "tol"),
    (dict(surrogate="avg", max_iter=5, tol=None), "max_iter"),
    (dict(surrogate="avg", early_stopping=True, random_state=0), "early_stopping"),
    (dict(), "lbfgs"),
])
def test_n_iter_and_objective_curve_hold_what_the_docstrings_say(params, stop):
    from skpapk.losses import surrogate_loss

    X, y, g = make_grouped_data(0, n_groups=30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ranker = PApKRanker(k=3, **params).fit(X, y, groups=g)
    curve = ranker.objective_curve_
    steps = ranker.t_
    assert ranker.n_iter_ == (steps + 1 if stop == "tol" else steps)
    assert curve.shape == ((ranker.n_iter_ + 1,) if stop == "lbfgs"
                           else (ranker.n_iter_,))
    if stop in ("tol", "lbfgs"):  # the last value: that of the returned iterate
        smooth = {} if stop == "tol" else dict(group_weight=ranker.group_weight)
        w = ranker.coef_
        value, _ = surrogate_loss(y, X @ w, g, k=3, surrogate=ranker.surrogate,
                                  **smooth)
        assert curve[-1] == pytest.approx(value + ranker.alpha * w @ w, rel=1e-10)
