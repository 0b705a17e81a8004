"""Distributed hyper-parameter search on a dask cluster.

``GridSearchCV(..., n_jobs=-1)`` inside ``joblib.parallel_backend("dask")``
sends every (candidate, fold) fit to the workers of a
:class:`dask.distributed.Client`. scikit-learn's own ``Parallel`` carries
its configuration (``enable_metadata_routing`` included) to the worker
threads or processes with every task, so each fold's ``groups`` reach the
ranker's ``fit`` and :func:`~skpapk.metrics.micro_papk_scorer` there. The
test checks the search gives exactly the results of the default backend.

Installed by the ``dask`` extra (``pip install "skpapk[dask]"``; the
``test`` extra includes it); skipped when ``dask.distributed`` is absent.
On a real cluster, replace the ``LocalCluster`` by
``Client("tcp://scheduler-address:8786")`` with skpapk installed on the
workers: see ``examples/dask/distributed_search.py``.
"""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, GroupKFold

from skpapk import PApKRanker
from skpapk.metrics import micro_papk_scorer, papk_score
from skpapk.tests._helpers import make_grouped_data

distributed = pytest.importorskip("dask.distributed")
joblib = pytest.importorskip("joblib")


def make_data(seed=0, n_groups=30, d=4):
    return make_grouped_data(seed, n_groups, d, n_pos=(2, 8), n_neg=(10, 25),
                             sep=0.7, random_direction=True, shuffle=False)


def search(X, y, groups):
    grid = {"eta0": [0.1, 1.0], "alpha": [1e-3, 1e-1], "surrogate": ["avg", "max"]}
    gs = GridSearchCV(PApKRanker(k=5, max_iter=20, tol=None), grid,
                      scoring=micro_papk_scorer(k=5), cv=GroupKFold(3),
                      n_jobs=-1, error_score="raise")
    with sklearn.config_context(enable_metadata_routing=True):
        gs.fit(X, y, groups=groups)
    return gs


@pytest.fixture(scope="module")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dashboard port notes
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                           processes=False,
                                           dashboard_address=":0")
        client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def test_grid_search_on_dask_equals_the_default_backend(client):
    X, y, groups = make_data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        local = search(X, y, groups)
        with distributed.get_task_stream(client) as tasks:
            with joblib.parallel_backend("dask"):
                remote = search(X, y, groups)
    assert len(client.scheduler_info()["workers"]) == 2
    assert len(tasks.data) > 0  # the fits ran as tasks of the cluster
    for key in ["mean_test_score", "std_test_score", "split0_test_score",
                "split1_test_score", "split2_test_score"]:
        np.testing.assert_array_equal(remote.cv_results_[key],
                                      local.cv_results_[key])
    assert remote.best_params_ == local.best_params_
    np.testing.assert_array_equal(remote.best_estimator_.coef_,
                                  local.best_estimator_.coef_)
    # the fold scores are micro-pAp@k over the fold's groups, with the
    # ranker trained on the train fold's groups: routing reached the workers
    train, test = next(GroupKFold(3).split(X, y, groups))
    params = remote.cv_results_["params"][0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ranker = PApKRanker(k=5, max_iter=20, tol=None, **params).fit(
            X[train], y[train], groups=groups[train])
    expected = papk_score(y[test], ranker.decision_function(X[test]), k=5,
                          groups=groups[test])
    assert remote.cv_results_["split0_test_score"][0] == pytest.approx(expected)
    one_list = papk_score(y[test], ranker.decision_function(X[test]), k=5)
    assert one_list != pytest.approx(expected)


def test_workers_see_the_routing_config(client):
    # scikit-learn's Parallel ships the caller's config with each task
    from sklearn.utils.parallel import Parallel, delayed

    def routing_on():
        return sklearn.get_config()["enable_metadata_routing"]

    with sklearn.config_context(enable_metadata_routing=True):
        with joblib.parallel_backend("dask"):
            seen = Parallel(n_jobs=-1)(delayed(routing_on)() for _ in range(4))
    assert seen == [True] * 4
