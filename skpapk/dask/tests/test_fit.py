"""A distributed fit is the in-memory fit: coef_ to 1e-10, same epochs.

The main test runs on a LocalCluster of 2 worker processes (the data and
every epoch's sums cross process boundaries); the variants (inputs,
options) run on dask's local threaded scheduler, which executes the same
code path without the start-up cost of a cluster.
"""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning

import skpapk
import skpapk.dask
from skpapk._lbfgs import minimize_lbfgs
from skpapk._linear_loss import InMemoryLinearLoss
from skpapk._solver import SolverState, ValidationSet, projected_subgradient
from skpapk.dask.tests._data import (
    as_dask,
    grouped_data,
    per_partition_split,
    user_chunks,
)

distributed = pytest.importorskip("distributed")

ATOL = 1e-10

# (class name, parameters): every surrogate, both solvers, the options of
# Algorithm 1
CASES = [
    ("PApKRanker", dict(k=5)),  # pairwise logistic, inverse variance, L-BFGS
    ("PApKRanker", dict(k=5, surrogate="soft_papk", group_weight="uniform")),
    ("PApKRanker", dict(k=5, solver="subgradient", eta0=0.5, max_iter=15,
                        tol=None)),
    ("PApKAvgRanker", dict(k=5, max_iter=25, tol=None)),
    ("PApKMaxRanker", dict(k=5, max_iter=25, tol=1e-3, n_iter_no_change=3)),
    ("PApKTSRanker", dict(k=5, max_iter=25, tol=None, average=True)),
    ("PApKRampRanker", dict(k=5, max_iter=25, tol=None, radius=0.5)),
    ("PAUCRanker", dict(k=5, max_iter=25, tol=None)),
    ("PrecAtKRanker", dict(k=5, eta0=0.3, max_iter=25, tol=None)),
]
# on the cluster: both solvers, a smooth and a hinge surrogate of each kind
CLUSTER_CASES = [CASES[i] for i in (0, 1, 3, 5)]


def _fit_both(name, params, X, y, groups, dX, dy, dgroups, **fit_params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        local = getattr(skpapk, name)(**params).fit(X, y, groups=groups,
                                                    **fit_params)
        remote = getattr(skpapk.dask, name)(**params).fit(dX, dy, groups=dgroups,
                                                          **fit_params)
    return local, remote


def assert_same_fit(local, remote):
    np.testing.assert_allclose(remote.coef_, local.coef_, rtol=0, atol=ATOL)
    assert remote.n_iter_ == local.n_iter_
    assert remote.t_ == local.t_
    np.testing.assert_allclose(remote.objective_curve_, local.objective_curve_,
                               rtol=1e-12, atol=ATOL)
    assert remote.n_groups_skipped_ == local.n_groups_skipped_
    np.testing.assert_array_equal(remote.classes_, local.classes_)
    assert remote.n_features_in_ == local.n_features_in_


def test_fit_on_a_local_cluster_equals_the_in_memory_fit(cluster_client):
    X, y, groups = grouped_data(0)
    groups = groups.copy()
    y = y.copy()
    y[groups == 3] = 0  # a user without relevant rows: skipped by both
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=4)
    with distributed.get_task_stream(cluster_client) as tasks:
        for name, params in CLUSTER_CASES:
            local, remote = _fit_both(name, params, X, y, groups, dX, dy, dgroups)
            assert_same_fit(local, remote)
            assert remote.n_groups_skipped_ == 1
    assert len(cluster_client.scheduler_info()["workers"]) == 2
    workers = {task["worker"] for task in tasks.data}
    assert len(workers) == 2  # both worker processes computed partitions
    # the fitted model is a plain in-memory ranker
    scores = remote.decision_function(X)
    np.testing.assert_allclose(scores, local.decision_function(X), atol=1e-9)
    restored = pickle.loads(pickle.dumps(remote))
    np.testing.assert_array_equal(restored.coef_, remote.coef_)
    dscores = remote.decision_function(dX)
    np.testing.assert_allclose(dscores.compute(), scores, rtol=0, atol=1e-12)
    with pytest.warns(UndefinedMetricWarning, match="1 of 30 groups"):
        remote_score = remote.score(dX, dy, dgroups)
    with pytest.warns(UndefinedMetricWarning, match="1 of 30 groups"):
        local_score = local.score(X, y, groups)
    assert remote_score == pytest.approx(local_score, abs=1e-12)


@pytest.mark.parametrize("name, params, n_parts",
                         [(*case, 5) for case in CASES] + [(*CASES[0], 1)])
def test_every_ranker_equals_its_in_memory_fit(name, params, n_parts):
    X, y, groups = grouped_data(1)
    local, remote = _fit_both(name, params, X, y, groups,
                              *as_dask(X, y, groups, n_parts=n_parts))
    assert_same_fit(local, remote)


@pytest.mark.parametrize("container", ["in-memory y and groups", "csr chunks",
                                       "float32", "dataframe"])
def test_inputs(container):
    X, y, groups = grouped_data(2)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=3)
    params = dict(k=4)
    rtol = 0
    if container == "in-memory y and groups":
        dy, dgroups = y, groups
    elif container == "csr chunks":
        X[np.abs(X) < 0.5] = 0.0
        dX = as_dask(X, y, groups, n_parts=3)[0].map_blocks(sp.csr_matrix)
        X = sp.csr_matrix(X)
    elif container == "float32":
        X = X.astype(np.float32)
        dX = dX.astype(np.float32)
        rtol = 1e-4  # sums of float32 products over other row blocks
    elif container == "dataframe":
        dd = pytest.importorskip("dask.dataframe")
        pd = pytest.importorskip("pandas")
        frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
        frame["label"], frame["user"] = y, groups
        chunks = np.cumsum(user_chunks(groups, 3))
        ddf = dd.from_pandas(frame, npartitions=1).repartition(
            divisions=[0, *chunks[:-1].tolist(), chunks[-1] - 1])
        dX, dy, dgroups = ddf[list(frame.columns[:-2])], ddf["label"], ddf["user"]
        X = frame[list(frame.columns[:-2])]
    for name, extra in [("PApKRanker", {}),
                        ("PApKAvgRanker", dict(max_iter=20, tol=None))]:
        local, remote = _fit_both(name, {**params, **extra}, X, y, groups,
                                  dX, dy, dgroups)
        if rtol:
            np.testing.assert_allclose(remote.coef_, local.coef_, rtol=rtol)
            assert remote.n_iter_ == local.n_iter_
        else:
            assert_same_fit(local, remote)
    if container == "dataframe":
        np.testing.assert_array_equal(remote.feature_names_in_, X.columns)
        scores = remote.decision_function(dX)
        np.testing.assert_allclose(scores.compute(), local.decision_function(X),
                                   atol=1e-12)


@pytest.mark.parametrize("name", ["PApKRanker", "PApKAvgRanker"])
def test_warm_start_and_coef_init(name):
    X, y, groups = grouped_data(3)
    dask_data = as_dask(X, y, groups)
    params = dict(k=5, max_iter=6, tol=None, warm_start=True)
    w0 = np.random.default_rng(0).normal(size=X.shape[1])
    local, remote = _fit_both(name, params, X, y, groups, *dask_data, coef_init=w0)
    assert_same_fit(local, remote)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        local.fit(X, y, groups=groups)
        remote.fit(*dask_data[:2], groups=dask_data[2])
    assert_same_fit(local, remote)
    assert remote.t_ >= 7  # continued from the first fit


@pytest.mark.parametrize("name, params", [
    ("PApKRanker", dict(k=5, n_iter_no_change=3)),
    ("PApKAvgRanker", dict(k=5, max_iter=40, tol=1e-4, n_iter_no_change=3,
                           average=True)),
    ("PApKMaxRanker", dict(k=5, max_iter=15, tol=None)),
])
def test_early_stopping_holds_out_rows_inside_every_partition(name, params):
    X, y, groups = grouped_data(4, n_groups=40)
    chunks = user_chunks(groups, 3)
    dask_data = as_dask(X, y, groups, n_parts=3)
    params = {**params, "early_stopping": True, "validation_fraction": 0.25,
              "random_state": 7}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        remote = getattr(skpapk.dask, name)(**params).fit(
            *dask_data[:2], groups=dask_data[2])
    # the reference: the in-memory solver on the same training rows, scored
    # on the same held-out rows (each user's, in its partition)
    y_pos = y == 1
    train, val = per_partition_split(y_pos, groups, chunks, 0.25, 7)
    assert np.intersect1d(train, val).size == 0
    assert np.array_equal(np.unique(groups[val]), np.unique(groups))
    ref = getattr(skpapk, name)(**params)
    loss = ref._get_surrogate()
    validation = ValidationSet(X=X[val], y_pos=y_pos[val], codes=groups[val])
    state = SolverState.zeros(X.shape[1])
    n_groups = np.unique(groups).shape[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if ref._get_solver(loss) == "lbfgs":
            objective = InMemoryLinearLoss(X[train], y_pos[train], groups[train],
                                           n_groups, loss, k=5, alpha=ref.alpha)
            state = minimize_lbfgs(objective, state, max_iter=ref.max_iter,
                                   tol=ref.tol, validation=validation,
                                   n_iter_no_change=ref.n_iter_no_change)
        else:
            state = projected_subgradient(
                X[train], y_pos[train], groups[train], n_groups, loss=loss, k=5,
                eta0=ref.eta0, alpha=ref.alpha, max_iter=ref.max_iter,
                tol=ref.tol, n_iter_no_change=ref.n_iter_no_change, state=state,
                average=ref.average, validation=validation)
    np.testing.assert_allclose(remote.validation_scores_, state.validation_scores,
                               rtol=0, atol=1e-12)
    expected = state.solution(average=ref.average, early_stopping=True)
    np.testing.assert_allclose(remote.coef_, expected, rtol=0, atol=ATOL)
    assert remote.best_validation_score_ == pytest.approx(
        state.best_validation_score, abs=1e-12)
    assert remote.best_validation_score_ == max(remote.validation_scores_)


def test_verbose_prints_the_epochs(capsys):
    X, y, groups = grouped_data(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        skpapk.dask.PApKAvgRanker(k=5, max_iter=3, tol=None, verbose=1).fit(
            *as_dask(X, y, groups)[:2], groups=as_dask(X, y, groups)[2])
        skpapk.PApKAvgRanker(k=5, max_iter=3, tol=None, verbose=1).fit(
            X, y, groups=groups)
    remote, local = capsys.readouterr().out.split("Fitting PApKAvgRanker")[1:]
    assert "in 3 partitions" in remote
    epochs = [line for line in remote.splitlines() if line.startswith("-- Epoch")]
    assert epochs == [line for line in local.splitlines()
                      if line.startswith("-- Epoch")]
    assert len(epochs) == 3


def test_diverging_steps_warn_as_in_memory():
    X, y, groups = grouped_data(6)
    X = X * 1e150
    params = dict(k=5, eta0=1e200, max_iter=10, tol=None)
    with pytest.warns(ConvergenceWarning, match="diverged"):
        remote = skpapk.dask.PApKAvgRanker(**params).fit(
            *as_dask(X, y, groups)[:2], groups=as_dask(X, y, groups)[2])
    with pytest.warns(ConvergenceWarning, match="diverged"):
        local = skpapk.PApKAvgRanker(**params).fit(X, y, groups=groups)
    assert_same_fit(local, remote)
    assert np.all(np.isfinite(remote.coef_))


def test_lbfgs_scales_the_columns_by_their_maximum_over_all_partitions():
    # L-BFGS runs on max|X_j|-scaled coordinates: the maxima must be those of
    # all the training rows, not of one partition
    X, y, groups = grouped_data(7)
    X[:, 0] *= 1000.0 * (groups >= 20)  # large in the last partition only
    X[:, 1] = 0.0  # an all-zero column (scale 1)
    local, remote = _fit_both("PApKRanker", dict(k=5), X, y, groups,
                              *as_dask(X, y, groups, n_parts=3))
    assert_same_fit(local, remote)
    assert remote.coef_[1] == 0.0


def test_one_source_of_x_y_and_groups_is_computed_once_per_block():
    # X, y and groups cut from one array were optimised apart: every block
    # of the source was computed three times by fit, and again by score
    import dask
    import dask.array as da

    X, y, groups = grouped_data(0)
    calls = []

    def counted(block):
        if block.shape[0] > 1:  # not dask's look at its meta (0 or 1 row)
            calls.append(block.shape[0])
        return block

    chunks = user_chunks(groups, 3)
    source = da.from_array(np.column_stack([X, y, groups]),
                           chunks=(chunks, X.shape[1] + 2)).map_blocks(counted)
    d = X.shape[1]
    with dask.config.set(scheduler="synchronous"):
        ranker = skpapk.dask.PApKRanker(k=5).fit(
            source[:, :d], source[:, d], groups=source[:, d + 1])
        assert len(calls) == 3
        ranker.score(source[:, :d], source[:, d], groups=source[:, d + 1])
        assert len(calls) == 6
    expected = skpapk.PApKRanker(k=5).fit(X, y, groups=groups)
    np.testing.assert_allclose(ranker.coef_, expected.coef_, atol=ATOL)


def test_composite_users_across_partitions_are_named():
    # np.isin read the tuple key as an array: "The truth value of an array
    # ... is ambiguous", not the message that names partition_by_group
    import dask
    import dask.array as da

    X, y, groups = grouped_data(0)
    keys = [(int(g) // 4, int(g) % 4) for g in groups]
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"user \(0, 0\) in partitions \[0, 1, .*"
                              r"partition_by_group"):
        skpapk.dask.PApKRanker(k=5).fit(da.from_array(X, chunks=(7, X.shape[1])),
                                        y, groups=keys)


@pytest.mark.parametrize("column, error, match", [
    ("text", ValueError, "X column 'f2' holds text"),
    ("date", TypeError, "X column 'f2' holds dates"),
])
def test_scoring_a_dask_frame_names_a_column_that_is_not_numbers(column, error,
                                                                 match):
    # "could not convert string to float: 'abc'", "float() argument must
    # be ... 'Timestamp'"
    import dask
    import dask.dataframe as dd
    import pandas as pd

    X, y, groups = grouped_data(0)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    ranker = skpapk.dask.PApKRanker(k=5).fit(frame, y, groups=groups)
    bad = frame.copy()
    if column == "text":
        bad["f2"] = bad["f2"].astype(str)
        bad.loc[5, "f2"] = "abc"
    else:
        bad["f2"] = pd.Timestamp("2020-01-01")
    with dask.config.set(scheduler="synchronous"), pytest.raises(error, match=match):
        ranker.decision_function(dd.from_pandas(bad, npartitions=3)).compute()


def test_a_nan_feature_names_the_ranker_and_the_partition():
    # "Input X contains NaN." only: no ranker, fix or partition
    import dask

    X, y, groups = grouped_data(0)
    X = X.copy()
    chunks = user_chunks(groups, 3)
    X[chunks[0] + 1, 1] = np.nan  # in the second partition
    dX, dy, dg = as_dask(X, y, groups)
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match="Partition 1: Input X contains NaN.\\nPApKAvgRanker "
                              "does not accept missing values: impute them in a "
                              "Pipeline"):
        skpapk.dask.PApKAvgRanker(k=5).fit(dX, dy, groups=dg)
