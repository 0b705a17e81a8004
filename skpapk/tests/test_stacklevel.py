"""Every warning of skpapk names the line that called it (a user's script),
not a line inside skpapk or scikit-learn's wrappers (``_fit_context``,
``validate_params``)."""

import os
import warnings

import pytest
import sklearn
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning

from skpapk import PApKRanker, SelectPApKRanker
from skpapk.datasets import make_papk_simulation
from skpapk.io import read_ranking_csv
from skpapk.metrics import papk_score


@pytest.fixture(scope="module")
def data():
    X, y, g = make_papk_simulation(20, n_pos=(3, 10), n_neg=(20, 40),
                                   random_state=0)
    y[g == 0] = 0  # a user without a relevant row: pAp@k undefined for it
    return X, y, g


def _record(category, call):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        call()
    found = [r for r in record if issubclass(r.category, category)]
    assert found, f"no {category.__name__}"
    return found


@pytest.mark.parametrize("case", ["select", "lbfgs", "papk_score",
                                  "ranker.score", "csv"])
def test_warnings_name_the_calling_line(case, data, tmp_path):
    X, y, g = data
    if case == "select":  # through sklearn.base's _fit_context
        found = _record(ConvergenceWarning, lambda: SelectPApKRanker(
            k=5, max_iter=1).fit(X, y, groups=g))
    elif case == "lbfgs":
        found = _record(ConvergenceWarning, lambda: PApKRanker(
            max_iter=2, n_jobs=1).fit(X, y, groups=g))
    elif case == "papk_score":  # a public function's own warning
        found = _record(UndefinedMetricWarning, lambda: papk_score(
            y, X[:, 0], k=5, groups=g))
    elif case == "ranker.score":
        ranker = PApKRanker(n_jobs=1).fit(X, y, groups=g)
        with sklearn.config_context(enable_metadata_routing=True):
            found = _record(UndefinedMetricWarning, lambda: ranker.score(
                X, y, groups=g))
    else:  # through validate_params' wrapper of read_ranking_csv
        path = tmp_path / "data.csv"
        path.write_text("user,label,f1\nu1,1,0.5\nu1,0,0.1\n")
        found = _record(UserWarning, lambda: read_ranking_csv(
            path, group_col="user"))
    assert {os.path.basename(r.filename) for r in found} == {
        os.path.basename(__file__)}


def test_score_advises_what_score_users_can_do(data):
    # score has no zero_division; its warning said "Pass zero_division=0.0"
    import numpy as np

    X, y, g = data
    ranker = PApKRanker(n_jobs=1).fit(X, y, groups=g)
    with sklearn.config_context(enable_metadata_routing=True):
        (found,) = _record(UndefinedMetricWarning,
                           lambda: ranker.score(X, y, groups=g))
    message = str(found.message)
    assert "Pass zero_division" not in message
    assert "papk_score(y, ranker.decision_function(X), groups=groups, k=ranker.k, "\
        "zero_division=0.0) counts them as 0" in message
    # the advice, followed, counts the undefined user as 0
    n_users = np.unique(g).shape[0]
    counted = papk_score(y, ranker.decision_function(X), groups=g, k=ranker.k,
                         zero_division=0.0)
    with sklearn.config_context(enable_metadata_routing=True), \
            pytest.warns(UndefinedMetricWarning):
        left_out = ranker.score(X, y, groups=g)
    np.testing.assert_allclose(counted * n_users, left_out * (n_users - 1))


def test_score_advice_stays_in_its_thread(data):
    # score used to record every warning of the process while it ran and
    # re-emit them at its own line: another thread's warnings were taken
    import threading

    X, y, g = data
    ranker = PApKRanker(n_jobs=1).fit(X, y, groups=g)
    scores = ranker.decision_function(X)
    n_calls = 30

    def by_score():
        for _ in range(n_calls):
            ranker.score(X, y, groups=g)

    def by_metric():
        for _ in range(n_calls):
            papk_score(y, scores, k=5, groups=g)

    with warnings.catch_warnings(record=True) as record, \
            sklearn.config_context(enable_metadata_routing=True):
        warnings.simplefilter("always")
        threads = [threading.Thread(target=f) for f in (by_score, by_metric)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    messages = [str(r.message) for r in record
                if issubclass(r.category, UndefinedMetricWarning)]
    assert len(messages) == 2 * n_calls
    assert sum("Pass zero_division=0.0" in m for m in messages) == n_calls
    assert sum("ranker.decision_function(X)" in m for m in messages) == n_calls
