"""Fits and scores leave the process's shared state alone: other threads
(a ``GridSearchCV`` on joblib's threading backend, a server) run beside them.

``warnings.catch_warnings`` swaps the process's warning filters and
``showwarning`` (Python < 3.14: for every thread), and
``contextlib.redirect_stdout`` swaps ``sys.stdout``; either, entered in two
threads at once, can leave the other thread's state in place for good.
"""

import sys
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from skpapk import (
    GreedyPApKRanker,
    PApKAvgRanker,
    PApKRanker,
    PAUCRanker,
    SelectPApKRanker,
)
from skpapk.datasets import make_papk_simulation


def _rankers():
    rankers = [PApKRanker(), PApKRanker(early_stopping=True),
               PApKAvgRanker(max_iter=3),
               PApKAvgRanker(max_iter=5, early_stopping=True),
               PAUCRanker(max_iter=3), GreedyPApKRanker(),
               SelectPApKRanker(max_iter=3)]
    try:
        import lightgbm  # noqa: F401

        from skpapk import PApKBoostRanker
    except ImportError:
        return rankers
    return rankers + [PApKBoostRanker(n_estimators=5),
                      PApKBoostRanker(n_estimators=5, early_stopping=True)]


@pytest.fixture
def entered(monkeypatch):
    """The modules that enter ``warnings.catch_warnings`` from now on."""
    callers = []
    original = warnings.catch_warnings

    class Spy(original):
        def __init__(self, *args, **kwargs):
            callers.append(sys._getframe(1).f_globals.get("__name__", ""))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(warnings, "catch_warnings", Spy)
    return callers


@pytest.fixture(scope="module")
def data():
    X, y, g = make_papk_simulation(20, n_pos=(3, 10), n_neg=(10, 30),
                                   random_state=0)
    y[g == 0] = 0  # an undefined user: the metrics' warning path runs too
    return X, y, g


@pytest.mark.parametrize("ranker", _rankers(), ids=repr)
def test_fit_and_score_enter_no_catch_warnings(ranker, data, entered):
    # the subgradient rankers caught their solver's warnings, and every
    # validation score filtered UndefinedMetricWarning: with fits in two
    # threads, later warnings of the process were lost
    X, y, g = data
    # (score warns about the undefined user; some fits about max_iter)
    with pytest.warns(Warning):
        ranker.fit(X, y, groups=g)
        ranker.score(X, y, groups=g)
    assert [name for name in entered if name.startswith("skpapk")] == []


def test_boosted_fits_in_threads_keep_sys_stdout(data):
    # PApKBoostRanker swapped sys.stdout for a StringIO during each fit: from
    # two threads, the swap outlived the fits and every later print was lost
    pytest.importorskip("lightgbm")
    from skpapk import PApKBoostRanker

    X, y, g = data
    stdout = sys.stdout
    seen = []

    def fit(seed):
        seen.append(sys.stdout)
        model = PApKBoostRanker(n_estimators=20, random_state=seed, n_jobs=1)
        model.fit(X, y, groups=g)
        seen.append(sys.stdout)
        return model.decision_function(X)

    with ThreadPoolExecutor(2) as pool:
        scores = list(pool.map(fit, [0] * 8))
    assert sys.stdout is stdout and all(out is stdout for out in seen)
    for other in scores[1:]:  # the same model from every thread
        np.testing.assert_array_equal(other, scores[0])


def test_save_ranker_enters_no_catch_warnings(data, tmp_path, request):
    # its check of the saved scorer ignored every warning of the process
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MinMaxScaler

    from skpapk.io import save_ranker

    X, y, g = data
    model = make_pipeline(MinMaxScaler(), PApKRanker()).fit(
        X, y, papkranker__groups=g)
    entered = request.getfixturevalue("entered")  # after the fit
    save_ranker(model, tmp_path / "model.json")
    assert [name for name in entered if name.startswith("skpapk")] == []


def test_surrogate_display_enters_no_catch_warnings(data, entered):
    # (concurrency review) it filtered UndefinedMetricWarning and the
    # solver's ConvergenceWarning for every thread while it traced a fit
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from skpapk.inspection import SurrogateDisplay

    X, y, g = data
    ranker = PApKAvgRanker(k=3, max_iter=4)
    with pytest.warns(Warning):  # the undefined user, said once
        display = SurrogateDisplay.from_estimator(ranker, X, y, groups=g)
        SurrogateDisplay.from_iterates(np.zeros((2, X.shape[1])), X, y, groups=g,
                                       k=3)
    plt.close("all")
    assert display.values.shape[0] >= 2 and np.isfinite(display.values).all()
    assert [name for name in entered if name.startswith("skpapk")] == []


def test_read_ranking_csv_enters_no_catch_warnings(tmp_path, entered):
    # (concurrency review) it hid pandas' DtypeWarning with catch_warnings:
    # reads in several threads left the filter in place for good
    from skpapk.io import read_ranking_csv

    path = tmp_path / "f.csv"
    path.write_text("user,label,item,f\nu,1,a,0.5\nu,0,3,0.25\n")
    filters = list(warnings.filters)
    data = read_ranking_csv(path, group_col="user", label_col="label",
                            features=["f"])
    assert data.X.tolist() == [[0.5], [0.25]]
    assert warnings.filters == filters
    assert [name for name in entered if name.startswith("skpapk")] == []
