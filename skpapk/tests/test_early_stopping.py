"""Tests of ``early_stopping`` and ``average`` of Algorithm 1 (the avg surrogate).

Oracles: the iterates ``w_1, w_2, ...`` of a plain fit on the training rows
(``max_iter=j, tol=None`` gives ``w_j``), the held-out rows of
:func:`skpapk.model_selection.within_group_split`, and
:func:`skpapk.metrics.papk_score` on them; the stopping rule replayed from
its definition (SGDClassifier's: no gain above ``best + tol`` for
``n_iter_no_change`` epochs).
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import InvalidParameterError

from skpapk import PApKRanker, PAUCRanker
from skpapk.metrics import papk_score
from skpapk.model_selection import within_group_split
from skpapk.tests._helpers import make_grouped_data


def make_data(seed=0, n_groups=30, d=4, sep=0.7):
    """Groups of 6-15 positives and 10-40 negatives (validation gets both)."""
    return make_grouped_data(seed, n_groups, d, n_pos=(6, 16), n_neg=(10, 40),
                             sep=sep, random_direction=True, shuffle=False)


def split(y, g, fraction, seed):
    return within_group_split(y == 1, g, sizes=(1 - fraction, fraction),
                              random_state=seed)


def plain_iterates(X, y, g, n, **params):
    """w_1 .. w_n of Algorithm 1 (plain fits, no stopping)."""
    params.setdefault("surrogate", "avg")
    return [PApKRanker(max_iter=j, tol=None, **params).fit(X, y, groups=g).coef_
            for j in range(1, n + 1)]


def replay_stopping(scores, tol, n_iter_no_change):
    """Number of validated iterates after which the rule stops (or all)."""
    best, count = -np.inf, 0
    for i, s in enumerate(scores):
        count = count + 1 if not s >= best + tol else 0
        best = max(best, s)
        if count >= n_iter_no_change:
            return i + 1
    return len(scores)


@pytest.fixture(autouse=True)
def _quiet_convergence():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("surrogate", ["avg", "max"])
def test_validation_scores_and_best_coef_match_the_definitions(average, surrogate):
    X, y, g = make_data(0)
    params = dict(k=5, eta0=2.0, alpha=1e-3)
    ranker = PApKRanker(surrogate, max_iter=30, tol=1e-3, n_iter_no_change=3,
                        early_stopping=True, validation_fraction=0.25,
                        average=average, random_state=0, **params)
    ranker.fit(X, y, groups=g)
    train, val = split(y, g, 0.25, 0)
    n = ranker.validation_scores_.shape[0]
    iterates = plain_iterates(X[train], y[train], g[train], n, surrogate=surrogate,
                              **params)
    if average:  # Polyak: the running mean of w_1 .. w_j
        iterates = np.cumsum(iterates, axis=0) / np.arange(1, n + 1)[:, None]
    expected = [papk_score(y[val], X[val] @ w, k=5, groups=g[val])
                for w in iterates]
    np.testing.assert_allclose(ranker.validation_scores_, expected, rtol=1e-9)
    best = int(np.argmax(expected))
    np.testing.assert_allclose(ranker.coef_, iterates[best], rtol=1e-9, atol=1e-12)
    assert ranker.best_validation_score_ == ranker.validation_scores_.max()
    # the rule stopped where replaying it on the scores stops
    assert n == replay_stopping(expected, 1e-3, 3)
    assert ranker.t_ == n
    assert ranker.n_iter_ == n


@pytest.mark.parametrize("surrogate, solver", [("avg", "subgradient"),
                                               ("pairwise_logistic", "lbfgs")])
def test_given_validation_rows_are_the_held_out_rows(surrogate, solver):
    # fit(X[train], ..., X_val=X[val], ...) is the fit on every row that
    # holds those same rows out (X_val as HistGradientBoostingClassifier's)
    X, y, g = make_data(4)
    params = dict(k=5, eta0=2.0, alpha=1e-3, max_iter=30, tol=1e-3,
                  n_iter_no_change=3, early_stopping=True, random_state=0,
                  solver=solver)
    held = PApKRanker(surrogate, validation_fraction=0.25, **params).fit(
        X, y, groups=g)
    train, val = split(y, g, 0.25, 0)
    given = PApKRanker(surrogate, **params).fit(
        X[train], y[train], groups=g[train], X_val=X[val], y_val=y[val],
        groups_val=g[val])
    assert held.validation_scores_.shape[0] >= 1
    np.testing.assert_array_equal(given.validation_scores_,
                                  held.validation_scores_)
    np.testing.assert_array_equal(given.coef_, held.coef_)
    with pytest.raises(ValueError, match="early_stopping=False"):
        PApKRanker(surrogate, **{**params, "early_stopping": False}).fit(
            X[train], y[train], groups=g[train], X_val=X[val], y_val=y[val],
            groups_val=g[val])


@pytest.mark.parametrize("X_val", ["3 columns", "list of 3 columns", "csr"])
def test_validation_rows_with_other_features_name_x_val(X_val):
    X, y, g = make_data(4)
    train, val = split(y, g, 0.25, 0)
    given = {"3 columns": X[val][:, :3], "list of 3 columns":
             X[val][:, :3].tolist(), "csr": sp.csr_matrix(X[val][:, :3])}[X_val]
    with pytest.raises(ValueError, match="X_val has 3 features, but PApKRanker "
                                         "is expecting 4 features"):
        PApKRanker(k=5, early_stopping=True, max_iter=3).fit(
            X[train], y[train], groups=g[train], X_val=given, y_val=y[val],
            groups_val=g[val])


@pytest.mark.parametrize("bad, what", [(np.nan, "NaN"), (np.inf, "infinity")])
def test_non_finite_validation_rows_name_x_val(bad, what):
    X, y, g = make_data(4)
    train, val = split(y, g, 0.25, 0)
    X_val = X[val].copy()
    X_val[0, 0] = bad
    with pytest.raises(ValueError, match=f"Input X_val contains {what}"):
        PApKRanker(k=5, early_stopping=True, max_iter=3).fit(
            X[train], y[train], groups=g[train], X_val=X_val, y_val=y[val],
            groups_val=g[val])


def test_stops_before_max_iter_and_tol_none_runs_all():
    X, y, g = make_data(1)
    params = dict(k=5, eta0=5.0, early_stopping=True, validation_fraction=0.2,
                  random_state=1, max_iter=300)
    with warnings.catch_warnings():
        # no "max_iter reached" warning (the objective, lowest at w_0 on these
        # data, gives the "never below w_0" one)
        warnings.filterwarnings("error", message="Maximum number of iterations",
                                category=ConvergenceWarning)
        stopped = PApKRanker("avg", tol=1e-4, n_iter_no_change=5, **params).fit(
            X, y, groups=g)
    assert stopped.n_iter_ < 300
    full = PApKRanker("avg", tol=None, **params).fit(X, y, groups=g)
    assert full.n_iter_ == 300
    assert full.validation_scores_.shape == (300,)
    # the kept iterate is the best validated one of all 300
    assert full.best_validation_score_ == full.validation_scores_.max()
    assert full.best_validation_score_ >= stopped.best_validation_score_


def test_max_iter_warning_names_the_validation_score():
    X, y, g = make_data(2)
    with pytest.warns(ConvergenceWarning, match="validation micro-pAp@k"):
        warnings.simplefilter("always", ConvergenceWarning)
        PApKRanker("avg", max_iter=2, tol=1e-12, early_stopping=True,
                   validation_fraction=0.2, random_state=0).fit(X, y, groups=g)


def test_average_without_early_stopping_is_the_mean_of_the_iterates():
    X, y, g = make_data(3)
    params = dict(k=4, eta0=1.0, alpha=1e-2)
    avg = PApKRanker("ts", max_iter=12, tol=None, average=True, **params).fit(
        X, y, groups=g)
    iterates = plain_iterates(X, y, g, 12, surrogate="ts", **params)
    np.testing.assert_allclose(avg.coef_, np.mean(iterates, axis=0), rtol=1e-10,
                               atol=1e-12)
    assert avg.validation_scores_ is None and avg.best_validation_score_ is None


def test_averaging_stays_in_the_ball():
    X, y, g = make_data(4)
    ranker = PAUCRanker(k=4, eta0=10.0, radius=0.5, average=True, max_iter=20,
                        tol=None).fit(X, y, groups=g)
    assert np.linalg.norm(ranker.coef_) <= 0.5 * (1 + 1e-12)


def test_early_stopping_is_seeded_and_works_on_csr():
    X, y, g = make_data(5)
    params = dict(max_iter=15, early_stopping=True, validation_fraction=0.2)
    a = PApKRanker("avg", random_state=3, **params).fit(X, y, groups=g)
    b = PApKRanker("avg", random_state=3, **params).fit(sp.csr_matrix(X), y, groups=g)
    np.testing.assert_allclose(a.validation_scores_, b.validation_scores_,
                               rtol=1e-10)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10, atol=1e-12)
    c = PApKRanker("avg", random_state=4, **params).fit(X, y, groups=g)
    assert not np.array_equal(a.validation_scores_, c.validation_scores_)


def test_too_small_validation_fraction_raises():
    # 2 positives per group: none reaches a 10% validation part
    rng = np.random.default_rng(6)
    g = np.repeat(np.arange(10), 12)
    y = np.tile(np.r_[1, 1, np.zeros(10, int)], 10)
    X = rng.normal(size=(120, 3))
    with pytest.raises(ValueError, match="validation_fraction=0.1"):
        PApKRanker(early_stopping=True).fit(X, y, groups=g)
    PApKRanker(early_stopping=False, max_iter=3).fit(X, y, groups=g)


@pytest.mark.parametrize("fraction", [0.0, 1.0, 1.5, -0.1])
def test_validation_fraction_out_of_range_raises(fraction):
    X, y, g = make_data(7)
    with pytest.raises(InvalidParameterError, match="validation_fraction"):
        PApKRanker(early_stopping=True, validation_fraction=fraction).fit(
            X, y, groups=g)


def test_skipped_groups_count_the_training_part():
    X, y, g = make_data(8)
    keep = ~((g == 0) & (y == 1))  # group 0 has negatives only
    ranker = PApKRanker(max_iter=3, early_stopping=True, validation_fraction=0.2,
                        random_state=0).fit(X[keep], y[keep], groups=g[keep])
    assert ranker.n_groups_skipped_ == 1


def test_verbose_prints_validation_scores(capsys):
    X, y, g = make_data(9)
    PApKRanker("avg", max_iter=2, tol=None, early_stopping=True,
               validation_fraction=0.2, average=True, random_state=0,
               verbose=1).fit(X, y, groups=g)
    out = capsys.readouterr().out
    assert out.count("validation micro-pAp@k of w_") == 2
    assert "(averaged)" in out


def test_a_column_vector_of_validation_labels_is_raveled_as_y():
    # y_val of shape (n, 1) was refused ("y_val has shape (75, 1) but X_val
    # has 75 rows") where y of that shape is raveled with a warning
    from sklearn.exceptions import DataConversionWarning

    X, y, g = make_data(4)
    train, val = split(y, g, 0.25, 0)
    params = dict(k=5, max_iter=10, early_stopping=True, random_state=0)
    fits = []
    for y_val in (y[val], y[val][:, None]):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fits.append(PApKRanker(**params).fit(
                X[train], y[train], groups=g[train], X_val=X[val], y_val=y_val,
                groups_val=g[val]))
    assert [w.category for w in caught] == [DataConversionWarning]
    assert "y_val" in str(caught[0].message)
    np.testing.assert_array_equal(fits[0].coef_, fits[1].coef_)


@pytest.mark.parametrize("given", [True, False])
def test_float32_validation_scores_are_the_fitted_ranker_s_scores(given):
    # (review) decision_function scores float32 rows in float64, and the
    # monitor scored them in float32: best_validation_score_ was not the
    # score of coef_ on the validation rows (0.29111 against 0.29333)
    rng = np.random.default_rng(0)
    n_groups, size = 25, 40
    X = (1e4 + rng.integers(0, 256, (n_groups * size, 4)) / 1024.0).astype(np.float32)
    g = np.repeat(np.arange(n_groups), size)
    y = (X[:, 0] - X[:, 1] + rng.normal(scale=0.05, size=g.size) > 0).astype(int)
    params = dict(k=5, max_iter=8, early_stopping=True, n_iter_no_change=100,
                  tol=None, random_state=0)
    if given:
        train, val = split(y, g, 0.25, 0)
        ranker = PApKRanker(**params).fit(X[train], y[train], groups=g[train],
                                          X_val=X[val], y_val=y[val],
                                          groups_val=g[val])
    else:
        ranker = PApKRanker(validation_fraction=0.25, **params).fit(X, y, groups=g)
        train, val = split(y, g, 0.25, 0)
    assert ranker.best_validation_score_ == papk_score(
        y[val], ranker.decision_function(X[val]), k=5, groups=g[val])


@pytest.mark.parametrize("missing", [None, np.nan, "pd.NA"])
def test_a_missing_validation_label_is_named_as_ys(missing):
    # y got "y has missing labels ...", y_val scikit-learn's "Input y_val
    # contains NaN." (or a TypeError from the sort of its labels)
    import pandas as pd

    from skpapk import PApKRanker

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.tile([1, 0, 0, 0], 10)
    groups = np.repeat(np.arange(4), 10)
    y_val = y.astype(object)
    y_val[3] = pd.NA if missing == "pd.NA" else missing
    with pytest.raises(ValueError, match=r"^y_val has missing labels"):
        PApKRanker(k=2, early_stopping=True).fit(
            X, y, groups=groups, X_val=X, y_val=y_val, groups_val=groups)
