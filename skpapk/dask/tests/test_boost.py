"""The distributed boosted ranker on a LocalCluster of 2 worker processes.

LightGBM's data-parallel training adds up the workers' gradient histograms
but finds every feature's bin boundaries on one worker, from that worker's
rows. With features of a few distinct values, present in every partition,
every worker finds the same bins as the in-memory ranker, and with small
trees (no near-ties between splits) the distributed trees are the
in-memory ones: that checks the objective's shares (each worker's users
divided by the weight of ALL users) end to end. With continuous features
the bins differ, and the test micro-pAp@k is compared with a tolerance.
"""

import pickle
import re

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp

import skpapk
import skpapk.dask
from skpapk.dask.tests._data import as_dask, per_partition_split, user_chunks
from skpapk.datasets import make_papk_simulation
from skpapk.metrics import papk_score

lgb = pytest.importorskip("lightgbm")
distributed = pytest.importorskip("distributed")

#: Small trees on features of 9 values: the in-memory trees (see above).
EXACT = dict(k=5, n_estimators=8, num_leaves=4, min_child_samples=0,
             min_child_weight=1.0, random_state=0)


def simulation(seed, n_users=80, shuffle=False):
    return make_papk_simulation(n_users=n_users, n_pos=(2, 10), n_neg=(20, 60),
                                shuffle=shuffle, random_state=seed)


def few_values(seed):
    """Features rounded to 9 values, each in every partition."""
    X, y, groups = simulation(seed)
    return np.round(2 * X).clip(-4, 4), y, groups


def _parameters(booster):
    """The ``[name: value]`` lines of a model's parameters section."""
    text = booster.model_to_string().split("parameters:")[1]
    return dict(re.findall(r"\[(\w+): ([^\]]*)\]", text))


@pytest.mark.parametrize("params", [
    dict(reg_lambda=1.0),  # pairwise logistic, inverse-variance users
    dict(objective="soft_papk", temperature=1.0, group_weight="uniform",
         reg_alpha=0.1, colsample_bytree=0.8),
    dict(objective="binary"),
    dict(objective="lambdarank", max_depth=2),
    dict(max_bin=15, min_split_gain=0.01),  # LightGBM's own, passed through
])
def test_the_trees_are_the_in_memory_trees_when_the_bins_are(cluster_client, params):
    X, y, groups = few_values(0)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=4)
    with distributed.get_task_stream(cluster_client) as tasks:
        remote = skpapk.dask.PApKBoostRanker(**EXACT, **params).fit(
            dX, dy, groups=dgroups)
    local = skpapk.PApKBoostRanker(**EXACT, **params).fit(X, y, groups=groups)
    trained_on = {t["worker"] for t in tasks.data
                  if "_train_part" in str(t["key"])}
    assert len(trained_on) == 2  # data-parallel training on both workers
    np.testing.assert_allclose(remote.decision_function(X),
                               local.decision_function(X), rtol=0, atol=1e-9)
    assert remote.booster_.num_trees() == remote.n_iter_ == 8
    # LightGBM got the in-memory ranker's parameters
    names = ["num_iterations", "learning_rate", "num_leaves", "max_depth",
             "min_data_in_leaf",
             "min_sum_hessian_in_leaf", "bagging_fraction", "bagging_freq",
             "feature_fraction", "lambda_l1", "lambda_l2", "seed",
             "lambdarank_truncation_level", "objective", "max_bin",
             "min_gain_to_split"]
    ours, theirs = _parameters(remote.booster_), _parameters(local.booster_)
    assert {n: ours[n] for n in names} == {n: theirs[n] for n in names}
    if "max_bin" in params:
        assert ours["max_bin"] == "15" and ours["min_gain_to_split"] == "0.01"


def test_the_objective_divides_by_the_weight_of_all_users(cluster_client, monkeypatch):
    """The same fit with each worker's own mean (LightGBMObjective's
    default): other trees, so the test above can tell them apart."""
    X, y, groups = few_values(0)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=4)
    local = skpapk.PApKBoostRanker(**EXACT).fit(X, y, groups=groups)

    class OwnMean(skpapk.losses.LightGBMObjective):
        def __init__(self, *args, scale=None, weight_total=None, **kwargs):
            super().__init__(*args, **kwargs)

    monkeypatch.setattr("skpapk._boost.LightGBMObjective", OwnMean)
    own = skpapk.dask.PApKBoostRanker(**EXACT).fit(dX, dy, groups=dgroups)
    gap = np.abs(own.decision_function(X) - local.decision_function(X)).max()
    assert gap > 1e-5  # 1e-4 here: far above the 1e-9 of the test above


def test_test_papk_is_close_to_the_in_memory_models(cluster_client):
    """Continuous features: the workers' bins differ from the in-memory
    ones, so do the trees. On six simulated sets like this one the test
    micro-pAp@5 of the distributed model was 0.2 to 1.6 points from the
    in-memory model's; sampling the bins from 1000 or 2000 of the 4000
    rows in memory moved it by up to 1 point. Tolerance: 3 points."""
    X, y, groups = simulation(1)
    X_test, y_test, g_test = simulation(101)
    params = dict(k=5, n_estimators=50, random_state=0)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=4)
    remote = skpapk.dask.PApKBoostRanker(**params).fit(dX, dy, groups=dgroups)
    local = skpapk.PApKBoostRanker(**params).fit(X, y, groups=groups)
    remote_score = remote.score(X_test, y_test, g_test)
    local_score = local.score(X_test, y_test, g_test)
    assert remote_score == pytest.approx(local_score, abs=0.03)
    assert remote_score > 0.7  # it learned (random: about 0.2)


def test_early_stopping_scores_every_round_on_the_held_out_rows(cluster_client):
    X, y, groups = few_values(2)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=3)
    params = dict(EXACT, n_estimators=60, learning_rate=0.3, num_leaves=4,
                  early_stopping=True, validation_fraction=0.3,
                  n_iter_no_change=4, tol=0.0, random_state=7)
    remote = skpapk.dask.PApKBoostRanker(**params).fit(dX, dy, groups=dgroups)
    # the rows held out inside every partition, written out
    train, val = per_partition_split(y == 1, groups, user_chunks(groups, 3),
                                     0.3, 7)
    n = remote.n_iter_
    # the trees of every round run: the in-memory ones on the same training
    # rows (the ranker keeps those up to the best round only)
    plain = skpapk.PApKBoostRanker(**dict(params, early_stopping=False,
                                          n_estimators=n))
    plain.fit(X[train], y[train], groups=groups[train])
    expected = [papk_score(y[val], plain.booster_.predict(
                    X[val], num_iteration=i, raw_score=True), k=5,
                    groups=groups[val])
                for i in range(1, n + 1)]
    np.testing.assert_allclose(remote.validation_scores_, expected, rtol=1e-12)
    assert remote.evals_result_ == {"valid_0": {"micro_papk@5": list(
        remote.validation_scores_)}}
    assert remote.best_iteration_ == int(np.argmax(expected)) + 1
    assert remote.booster_.best_iteration == remote.best_iteration_
    # LightGBM's record of the best round, as the in-memory ranker keeps it
    assert remote.booster_.best_score == remote.best_score_ == {"valid_0": {
        "micro_papk@5": remote.validation_scores_[remote.best_iteration_ - 1]}}
    assert n < 60  # stopped; the trees after the best round dropped
    assert remote.booster_.num_trees() == remote.best_iteration_ < n
    best, count, stop = -np.inf, 0, None  # the stopping rule, replayed
    for i, s in enumerate(expected):
        count = count + 1 if not s >= best + 0.0 else 0
        best = max(best, s)
        if count >= 4:
            stop = i + 1
            break
    assert n == stop
    np.testing.assert_allclose(
        plain.booster_.predict(X, num_iteration=remote.best_iteration_,
                               raw_score=True),
        remote.booster_.predict(X, raw_score=True), rtol=0, atol=1e-9)
    np.testing.assert_array_equal(
        remote.decision_function(X),
        remote.booster_.predict(X, num_iteration=remote.best_iteration_,
                                raw_score=True))


def test_the_fitted_ranker_is_an_in_memory_ranker(cluster_client):
    X, y, groups = simulation(3)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=3)
    remote = skpapk.dask.PApKBoostRanker(k=5, n_estimators=10).fit(
        dX, dy, groups=dgroups)
    local = remote.to_local()
    assert type(local) is skpapk.PApKBoostRanker
    assert local.get_params() == remote.get_params()
    assert local.booster_ is remote.booster_
    scores = local.decision_function(X)
    np.testing.assert_array_equal(remote.decision_function(X), scores)
    dscores = remote.decision_function(dX)
    assert isinstance(dscores, da.Array)
    np.testing.assert_array_equal(dscores.compute(), scores)
    assert remote.score(dX, dy, dgroups) == pytest.approx(
        local.score(X, y, groups), abs=1e-12)
    restored = pickle.loads(pickle.dumps(local))
    np.testing.assert_array_equal(restored.decision_function(X), scores)
    assert remote.n_groups_skipped_ == 0
    np.testing.assert_array_equal(remote.classes_, [0, 1])
    with pytest.raises(TypeError, match="recommend takes in-memory X"):
        remote.recommend(dX, dgroups)
    np.testing.assert_array_equal(remote.predict(dX).compute(), scores)
    np.testing.assert_array_equal(remote.predict(X, pred_contrib=True),
                                  local.predict(X, pred_contrib=True))
    np.testing.assert_array_equal(
        remote.predict(X, validate_features=True, num_threads=1), scores)
    for option in [{"pred_contrib": True}, {"validate_features": True},
                   {"num_threads": 1}]:
        with pytest.raises(TypeError, match="pred_contrib, validate_features or "
                                            "num_threads takes in-memory X"):
            remote.predict(dX, **option)


@pytest.mark.parametrize("container", ["csr chunks", "dataframe"])
def test_sparse_chunks_and_dataframes(cluster_client, container):
    X, y, groups = few_values(4)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=3)
    local = skpapk.PApKBoostRanker(**EXACT).fit(X, y, groups=groups)
    if container == "csr chunks":
        dX = dX.map_blocks(sp.csr_matrix)
    else:
        dd = pytest.importorskip("dask.dataframe")
        frame = dd.from_dask_array(dX, columns=[f"f{j}" for j in range(5)])
        dX = frame
        dy = dd.from_dask_array(dy, index=frame.index)
        dgroups = dd.from_dask_array(dgroups, index=frame.index)
    remote = skpapk.dask.PApKBoostRanker(**EXACT).fit(dX, dy, groups=dgroups)
    np.testing.assert_allclose(remote.booster_.predict(X, raw_score=True),
                               local.decision_function(X), rtol=0, atol=1e-9)
    if container == "dataframe":
        assert list(remote.feature_names_in_) == [f"f{j}" for j in range(5)]
        np.testing.assert_allclose(remote.decision_function(dX).compute(),
                                   local.decision_function(X), atol=1e-9)


def test_missing_values_as_in_memory(cluster_client):
    # NaN features (LightGBM's missing values) in every partition: the
    # in-memory trees, scores and score; the linear rankers still refuse NaN
    X, y, groups = few_values(6)
    X[(np.arange(X.shape[0]) % 3 == 0) & (y == 1), 1] = np.nan
    X[np.arange(X.shape[0]) % 5 == 0, 3] = np.nan
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=3)
    remote = skpapk.dask.PApKBoostRanker(**EXACT).fit(dX, dy, groups=dgroups)
    local = skpapk.PApKBoostRanker(**EXACT).fit(X, y, groups=groups)
    scores = local.decision_function(X)
    assert np.isfinite(scores).all()
    np.testing.assert_allclose(remote.decision_function(dX).compute(), scores,
                               rtol=0, atol=1e-9)
    assert remote.score(dX, dy, dgroups) == pytest.approx(
        local.score(X, y, groups), abs=1e-9)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        skpapk.dask.PApKRanker(k=5).fit(dX, dy, groups=dgroups)


def test_input_errors(cluster_client):
    X, y, groups = simulation(5)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=3)
    ranker = skpapk.dask.PApKBoostRanker(k=5, n_estimators=5)
    mixed = da.from_array(groups, chunks=X.shape[0] // 3 + 1)
    with pytest.raises(ValueError, match="more than one partition.*"
                                         "partition_by_group"):
        ranker.fit(dX.rechunk({0: mixed.chunks[0]}), dy, groups=mixed)
    with pytest.raises(ValueError, match="no sample_weight with dask input"):
        ranker.fit(dX, dy, groups=dgroups, sample_weight=np.ones(y.shape[0]))
    with pytest.raises(ValueError, match="No group has both"):
        ranker.fit(dX, da.zeros_like(dy), groups=dgroups)
    with pytest.raises(ValueError, match="validation row"):
        skpapk.dask.PApKBoostRanker(early_stopping=True,
                                    validation_fraction=0.001).fit(
            dX, dy, groups=dgroups)
    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_dask_array(dX, columns=[f"f{j}" for j in range(5)])
    frame = frame.assign(f0=(frame["f0"] > 0).astype("category"))
    with pytest.raises(TypeError, match="'category' columns as categories in "
                                        "memory only"):
        ranker.fit(frame, dd.from_dask_array(dy, index=frame.index),
                   groups=dd.from_dask_array(dgroups, index=frame.index))
    with pytest.warns(UserWarning, match="No feature of X can be split"):
        constant = ranker.fit(da.ones_like(dX), dy, groups=dgroups)
    scores = constant.decision_function(X)
    assert np.all(scores == scores[0])


def test_dart_and_lightgbms_early_stopping_are_refused(cluster_client):
    # the in-memory ranker's rules: dart rescales earlier trees in later
    # rounds (no early stopping), LightGBM's own early stopping is refused,
    # subsample < 1 with GOSS too
    X, y, groups = simulation(9, n_users=20)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=2)
    params = dict(k=5, n_estimators=3, random_state=0)
    with pytest.raises(ValueError, match="early_stopping=True cannot be used "
                                         "with boosting_type='dart'"):
        skpapk.dask.PApKBoostRanker(early_stopping=True, boosting_type="dart",
                                    **params).fit(dX, dy, groups=dgroups)
    with pytest.raises(ValueError, match="early_stopping_round=2 is LightGBM's "
                                         "own early stopping"):
        skpapk.dask.PApKBoostRanker(early_stopping_round=2, **params).fit(
            dX, dy, groups=dgroups)
    # GOSS draws its own rows (LightGBM failed on the workers)
    with pytest.raises(ValueError, match="subsample=0.5 cannot be used with "
                                         "boosting_type='goss'"):
        skpapk.dask.PApKBoostRanker(boosting_type="goss", subsample=0.5,
                                    **params).fit(dX, dy, groups=dgroups)
    dart = skpapk.dask.PApKBoostRanker(early_stopping="auto", boosting="dart",
                                       **params).fit(dX, dy, groups=dgroups)
    assert dart.validation_scores_ is None and dart.evals_result_ is None
    assert dart.n_iter_ == dart.booster_.num_trees() == 3


def test_in_memory_input_fits_in_memory():
    """No cluster needed: the in-memory fit, bit for bit."""
    X, y, groups = simulation(6, n_users=30, shuffle=True)
    w = np.random.default_rng(0).random(y.shape[0])
    params = dict(k=5, n_estimators=10, objective="soft_papk", random_state=0)
    remote = skpapk.dask.PApKBoostRanker(**params).fit(X, y, groups=groups,
                                                       sample_weight=w)
    local = skpapk.PApKBoostRanker(**params).fit(X, y, groups=groups,
                                                 sample_weight=w)
    assert remote.booster_.model_to_string() == local.booster_.model_to_string()
    np.testing.assert_array_equal(remote.decision_function(X),
                                  local.decision_function(X))
    # validation rows given to fit: in memory, the in-memory ranker's
    Xv, yv, gv = simulation(7, n_users=10, shuffle=True)
    params.update(early_stopping=True, n_iter_no_change=2)
    remote = skpapk.dask.PApKBoostRanker(**params).fit(
        X, y, groups=groups, X_val=Xv, y_val=yv, groups_val=gv)
    local = skpapk.PApKBoostRanker(**params).fit(
        X, y, groups=groups, X_val=Xv, y_val=yv, groups_val=gv)
    np.testing.assert_array_equal(remote.validation_scores_,
                                  local.validation_scores_)
    assert remote.booster_.model_to_string() == local.booster_.model_to_string()


def test_the_fit_leaves_the_warning_filters_alone(cluster_client, monkeypatch,
                                                   recwarn):
    """``warnings.catch_warnings`` swaps the filters of every thread; the
    warning about DaskLGBMRanker's own n_jobs is dropped in the training
    thread by LightGBM's logger instead."""
    import warnings

    import lightgbm.dask

    seen, fit = [], lightgbm.dask.DaskLGBMRanker.fit

    def spy(self, *args, **kwargs):
        seen.append((warnings.filters, list(warnings.filters)))
        return fit(self, *args, **kwargs)

    monkeypatch.setattr(lightgbm.dask.DaskLGBMRanker, "fit", spy)
    X, y, groups = simulation(9, n_users=20)
    filters, before = warnings.filters, list(warnings.filters)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=2)
    skpapk.dask.PApKBoostRanker(k=5, n_estimators=2).fit(dX, dy, groups=dgroups)
    assert seen == [(filters, before)]
    assert not [w for w in recwarn if "n_jobs" in str(w.message)]


def test_dask_scores_use_the_threads_of_n_jobs(monkeypatch):
    """No cluster needed: the blocks are scored with the in-memory ranker's
    threads, ``n_jobs=None`` the OpenMP threads of the process scoring."""
    import dask
    from threadpoolctl import threadpool_limits

    X, y, groups = simulation(6, n_users=30)
    ranker = skpapk.dask.PApKBoostRanker(k=5, n_estimators=3).fit(
        X, y, groups=groups)
    threads, predict = [], ranker.booster_.predict

    def spy(*args, **kwargs):
        threads.append(kwargs["num_threads"])
        return predict(*args, **kwargs)

    monkeypatch.setattr(ranker.booster_, "predict", spy)
    dX = da.from_array(X, chunks=(X.shape[0], X.shape[1]))
    with dask.config.set(scheduler="sync"), threadpool_limits(
            limits=1, user_api="openmp"):
        ranker.decision_function(dX).compute()
    assert threads == [1]


def test_validation_rows_with_dask_input_are_refused():
    X, y, groups = simulation(8, n_users=10)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=2)
    with pytest.raises(ValueError, match="no X_val, y_val or groups_val with "
                                         "dask input"):
        skpapk.dask.PApKBoostRanker(early_stopping=True).fit(
            dX, dy, groups=dgroups, X_val=X, y_val=y, groups_val=groups)


@pytest.mark.parametrize("class_weight", ["balanced", {0: 2.0, 1: 1.0}])
def test_class_weight_with_dask_input_is_refused(class_weight):
    # LightGBM's Dask interface weighed the 0/1 relevance codes, and
    # "balanced" counted the rows of each worker
    X, y, groups = simulation(8, n_users=10)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=2)
    ranker = skpapk.dask.PApKBoostRanker(k=5, n_estimators=3,
                                         class_weight=class_weight)
    with pytest.raises(ValueError, match="no class_weight with dask input.*"
                                         r"set_params\(class_weight=None\)"):
        ranker.fit(dX, dy, groups=dgroups)
    # in-memory input: the in-memory ranker's weights, by the labels of y
    local = skpapk.PApKBoostRanker(k=5, n_estimators=3,
                                   class_weight=class_weight).fit(
        X, y, groups=groups)
    assert (ranker.fit(X, y, groups=groups).booster_.model_to_string()
            == local.booster_.model_to_string())


def test_a_dask_frame_is_scored_with_the_categories_of_the_fit(cluster_client):
    # fitted in memory on category columns: a dask DataFrame's are coded as
    # the fit's (they reached the trees as raw values, or failed as text)
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y, groups = simulation(9, n_users=20)
    code = np.random.default_rng(0).integers(0, 6, y.shape[0])
    frame = pd.DataFrame(X[:, :3], columns=list("abc")).assign(
        number=pd.Categorical(code * 10 + 100),
        word=pd.Categorical(np.array(list("uvwxyz"))[(code + 2 * y) % 6]))
    ranker = skpapk.dask.PApKBoostRanker(
        k=5, n_estimators=10, min_data_per_group=5, cat_smooth=1.0,
        random_state=0).fit(frame, y, groups=groups)
    assert ranker.booster_.pandas_categorical[0] == [100, 110, 120, 130, 140, 150]
    # three partitions of whole users
    parts = [np.isin(groups, users) for users in np.array_split(np.unique(groups), 3)]

    def partitioned(values):
        return dd.concat([dd.from_pandas(values[rows], npartitions=1, sort=False)
                          for rows in parts])

    dframe = partitioned(frame)
    expected = ranker.predict(frame)
    np.testing.assert_array_equal(ranker.predict(dframe).compute(), expected)
    np.testing.assert_array_equal(ranker.decision_function(dframe).compute(),
                                  expected)
    dy, dgroups = partitioned(pd.Series(y)), partitioned(pd.Series(groups))
    assert ranker.score(dframe, dy, groups=dgroups) == ranker.score(
        frame, y, groups=groups)
    # a column given another dtype than in fit: refused as in memory
    with pytest.raises(ValueError, match="1 categorical .* fitted on 2"):
        ranker.predict(dframe.assign(word=dframe["word"].astype(str)))
    moved = partitioned(frame.assign(a=frame["word"], word=frame["a"]))
    with pytest.raises(ValueError, match=r"positions \[0, 3\]\), where the "
                                         r"ranker was fitted with them at "
                                         r"positions \[3, 4\]"):
        ranker.predict(moved)


@pytest.mark.parametrize("sparse", [False, True])
def test_constant_features_do_not_start_lightgbm(cluster_client, monkeypatch,
                                                  sparse):
    # LightGBM's distributed training failed on its workers, and the next
    # fit on the cluster could hang: a constant X is found before it starts
    import lightgbm.dask

    X, y, groups = simulation(10, n_users=20)
    X = np.full_like(X, 3.0)
    dX, dy, dgroups = as_dask(sp.csr_matrix(X) if sparse else X, y, groups,
                              n_parts=2)

    def refuse(*args, **kwargs):
        raise AssertionError("LightGBM was started")

    monkeypatch.setattr(lightgbm.dask.DaskLGBMRanker, "fit", refuse)
    with pytest.warns(UserWarning, match="No feature of X can be split"):
        ranker = skpapk.dask.PApKBoostRanker(k=5, n_estimators=3).fit(
            dX, dy, groups=dgroups)
    scores = ranker.decision_function(X)
    assert np.all(scores == scores[0])
    # one feature varying in one partition only: LightGBM is started
    X[0, 0] = 4.0
    dX, dy, dgroups = as_dask(sp.csr_matrix(X) if sparse else X, y, groups,
                              n_parts=2)
    with pytest.raises(AssertionError, match="LightGBM was started"):
        skpapk.dask.PApKBoostRanker(k=5, n_estimators=3).fit(
            dX, dy, groups=dgroups)


def test_a_refit_on_dask_arrays_forgets_the_category_columns(cluster_client):
    # fitted in memory with a category column at position 1, then refitted
    # on dask arrays (which have none): a plain array is scored
    pd = pytest.importorskip("pandas")
    X, y, groups = simulation(4, n_users=20)
    frame = pd.DataFrame(X[:, :3], columns=list("abc")).assign(
        b=lambda f: pd.Categorical((f["b"] > 0).astype(int)))
    ranker = skpapk.dask.PApKBoostRanker(k=5, n_estimators=5, random_state=0)
    ranker.fit(frame, y, groups=groups)
    dX, dy, dgroups = as_dask(X[:, :3], y, groups, n_parts=2)
    ranker.fit(dX, dy, groups=dgroups)
    assert ranker.predict(X[:, :3]).shape == (y.shape[0],)
