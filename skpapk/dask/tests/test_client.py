"""The distributed boosted ranker and the client it trains on."""

import warnings

import numpy as np
import pytest

import skpapk.dask
from skpapk.dask.tests._data import as_dask
from skpapk.datasets import make_papk_simulation

lgb = pytest.importorskip("lightgbm")
distributed = pytest.importorskip("distributed")


def _data():
    X, y, groups = make_papk_simulation(n_users=20, n_pos=(2, 6),
                                        n_neg=(10, 20), shuffle=False,
                                        random_state=0)
    return as_dask(X, y, groups, n_parts=2)


def test_a_fit_under_client_as_current_trains_on_that_client():
    # the training thread did not see the current client of
    # client.as_current(): "No clients found", where DaskLGBMRanker trains
    X, y, groups = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dashboard port notes
        cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1,
                                           processes=False, dashboard_address=":0")
    with cluster, distributed.Client(cluster, set_as_default=False) as client, \
            client.as_current():
        ranker = skpapk.dask.PApKBoostRanker(k=5, n_estimators=2,
                                             min_child_samples=1)
        ranker.fit(X, y, groups=groups)
    assert ranker.booster_.num_trees() == 2


@pytest.mark.parametrize("params, match", [
    # warned "not a LightGBM parameter", then DaskLGBMRanker got client twice
    ({"client": "the client"}, "client=..., which a fit on dask input"),
    # dropped: evals_result_ held the micro-pAp@k only
    ({"metric": "ndcg"}, "metric=..., .*micro-pAp@k only"),
    ({"eval_at": [3]}, "eval_at=..., .*micro-pAp@k only"),
    # turned into n_jobs, which the workers' training does not read
    ({"num_threads": 2}, "num_threads=..., .*each worker's threads"),
])
def test_parameters_a_distributed_fit_would_drop_are_refused(params, match):
    X, y, groups = _data()
    with pytest.raises(TypeError, match=match):
        skpapk.dask.PApKBoostRanker(k=5, **params).fit(X, y, groups=groups)
    # in memory they are the in-memory ranker's (an alias with its warning)
    if "client" not in params:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            skpapk.dask.PApKBoostRanker(k=5, n_estimators=2, **params).fit(
                np.asarray(X), np.asarray(y), groups=np.asarray(groups))


@pytest.mark.parametrize("metric", [None, "None", "", []])
def test_a_metric_that_asks_for_none_is_not_refused(metric):
    # (review) "None" is the ranker's own metric: nothing is dropped
    ranker = skpapk.dask.PApKBoostRanker(k=5, metric=metric, eval_at=None)
    ranker._refuse_in_memory_params()
