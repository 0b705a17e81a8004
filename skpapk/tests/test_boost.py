"""Tests of ``skpapk.PApKBoostRanker`` and ``skpapk.losses.LightGBMObjective``.

Oracles: the loss layer (:mod:`skpapk.losses`) for the objective's gradient
and Hessian; LightGBM's own ``LGBMRanker`` and ``lightgbm.train`` for the
fitted trees; :func:`skpapk.metrics.papk_score` and
:func:`skpapk.model_selection.within_group_split` for early stopping, with
the stopping rule replayed from its definition.
"""

import pickle
import re
import warnings
from functools import partial

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
import sklearn
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils._param_validation import (
    InvalidParameterError,
    validate_parameter_constraints,
)

from skpapk import PApKBoostRanker, PApKRanker
from skpapk._lightgbm_params import _aliases
from skpapk.exceptions import MissingGroupsWarning
from skpapk.losses import LightGBMObjective, _smooth, get_surrogate
from skpapk.metrics import micro_papk_scorer, papk_score
from skpapk.model_selection import WithinGroupKFold, within_group_split
from skpapk.tests._helpers import make_grouped_data
from skpapk.utils._parallel import effective_n_threads

lgb = pytest.importorskip("lightgbm")

SMALL = dict(n_estimators=15, num_leaves=7, min_child_samples=5,
             learning_rate=0.1, early_stopping=False)


def make_data(seed=0, n_groups=25, shuffle=True):
    return make_grouped_data(seed, n_groups, 4, n_pos=(2, 10), n_neg=(8, 30),
                             sep=0.8, random_direction=True, shuffle=shuffle)


def sorted_by_group(X, y, g):
    order = np.argsort(g, kind="stable")
    return X[order], y[order], g[order], np.bincount(g[order])


# --------------------------------------------------------------------------
# LightGBMObjective


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("group_weight", ["uniform", "inverse_variance"])
@pytest.mark.parametrize("surrogate, temperature", [
    ("pairwise_logistic", 1.0), ("soft_papk", 0.3), ("soft_papk", 3.0)])
def test_objective_is_the_scaled_loss_layer(surrogate, temperature, group_weight,
                                            weighted):
    rng = np.random.default_rng(0)
    _, y, g = make_data(1, shuffle=False)
    s = rng.normal(size=y.shape[0])
    w = rng.integers(0, 4, size=y.shape[0]).astype(float) if weighted else None
    sizes = np.bincount(g)
    objective = LightGBMObjective(surrogate, k=4, temperature=temperature,
                                  group_weight=group_weight)
    grad, hess = objective(y.astype(float), s, w, sizes)
    loss = get_surrogate(surrogate, temperature=temperature,
                         group_weight=group_weight)
    _, g_ref, h_ref, _ = loss.loss_gradient_hessian(
        y == 1, s, g, sizes.shape[0], 4, sample_weight=w)
    scale = y.shape[0] if w is None else w.sum()
    np.testing.assert_allclose(grad, scale * g_ref, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(hess, scale * h_ref, rtol=1e-12, atol=1e-15)
    assert np.all(hess >= 0)
    # an explicit scale replaces the total weight
    grad1, _ = LightGBMObjective(surrogate, k=4, temperature=temperature,
                                 group_weight=group_weight, scale=1.0)(
        y.astype(float), s, w, sizes)
    np.testing.assert_allclose(grad1, g_ref, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("surrogate, temperature, group_weight", [
    ("pairwise_logistic", 1.0, "inverse_variance"),
    ("pairwise_logistic", 1.0, "uniform"),
    ("soft_papk", 0.5, "inverse_variance")])
def test_objective_default_is_the_mean_over_the_calls_groups(
        surrogate, temperature, group_weight, weighted):
    """Without weight_total, bit for bit the loss layer's mean over the
    call's groups scaled by the total row weight (the ranker's objective),
    and to rounding its unscaled mean times that weight."""
    rng = np.random.default_rng(2)
    _, y, g = make_data(8, shuffle=False)
    s = rng.normal(size=y.shape[0])
    w = rng.integers(1, 4, size=y.shape[0]).astype(float) if weighted else None
    sizes = np.bincount(g)
    grad, hess = LightGBMObjective(surrogate, k=3, temperature=temperature,
                                   group_weight=group_weight)(y, s, w, sizes)
    loss = get_surrogate(surrogate, temperature=temperature,
                         group_weight=group_weight)
    scale = float(y.shape[0] if w is None else w.sum())
    _, g_ref, h_ref, _ = loss.loss_gradient_hessian(
        y == 1, s, g, sizes.shape[0], 3, sample_weight=w, scale=scale,
        layout=_smooth.make_pair_layout(y == 1, g, sizes.shape[0], w))
    np.testing.assert_array_equal(grad, g_ref)
    np.testing.assert_array_equal(hess, h_ref)
    _, g_one, h_one, _ = loss.loss_gradient_hessian(
        y == 1, s, g, sizes.shape[0], 3, sample_weight=w)
    # soft_papk's gradient is a sum of terms of both signs: rounding
    # relative to the largest entry
    for got, one in ((grad, g_one), (hess, h_one)):
        np.testing.assert_allclose(got, one * scale, rtol=1e-13,
                                   atol=1e-14 * np.abs(got).max())


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("surrogate, temperature, group_weight", [
    ("pairwise_logistic", 1.0, "inverse_variance"),
    ("pairwise_logistic", 1.0, "uniform"),
    ("soft_papk", 0.5, "inverse_variance"),
    ("soft_papk", 3.0, "uniform")])
def test_objective_shares_of_the_workers_add_up_to_the_objective(
        surrogate, temperature, group_weight, weighted):
    """Each worker's objective (its own users, the total group weight and
    row weight of all users) returns its rows' gradient and Hessian of the
    mean over ALL the users: together they are the single-call objective."""
    rng = np.random.default_rng(3)
    _, y, g = make_data(9, n_groups=30, shuffle=False)
    y[g == 4] = 0  # a user without pairs
    s = rng.normal(size=y.shape[0])
    w = rng.integers(1, 4, size=y.shape[0]).astype(float) if weighted else None
    params = dict(k=3, temperature=temperature, group_weight=group_weight)
    whole = LightGBMObjective(surrogate, **params)(y, s, w, np.bincount(g))
    cuts = [0, *np.searchsorted(g, [7, 19]), y.shape[0]]  # 3 parts of whole users
    parts = [slice(a, b) for a, b in zip(cuts[:-1], cuts[1:])]
    weight_total = 0.0
    for part in parts:
        layout = _smooth.make_pair_layout(
            y[part] == 1, g[part] - g[part][0], np.ptp(g[part]) + 1,
            None if w is None else w[part])
        weight_total += _smooth.group_weights(layout, group_weight).sum()
    scale = float(y.shape[0] if w is None else w.sum())
    shares = [LightGBMObjective(surrogate, scale=scale, weight_total=weight_total,
                                **params)(
                  y[part], s[part], None if w is None else w[part],
                  np.bincount(g[part] - g[part][0]))
              for part in parts]
    for i in range(2):
        np.testing.assert_allclose(np.concatenate([r[i] for r in shares]),
                                   whole[i], rtol=1e-12, atol=1e-15)
    # a share is not the worker's own mean (the objective's default)
    own = LightGBMObjective(surrogate, **params)(
        y[parts[0]], s[parts[0]], None if w is None else w[parts[0]],
        np.bincount(g[parts[0]]))
    assert not np.allclose(own[0], shares[0][0])


def test_objective_hessians_are_of_the_order_of_binary_ones():
    """Scaled by the number of rows, the mean Hessian per row stays near
    LightGBM's binary objective's (1/4 at score 0) whatever the data size."""
    for n_groups in (10, 200):
        _, y, g = make_data(2, n_groups=n_groups, shuffle=False)
        _, hess = LightGBMObjective("pairwise_logistic")(
            y.astype(float), np.zeros(y.shape[0]), None, np.bincount(g))
        assert 0.1 < hess.mean() < 1.0


def test_objective_two_calling_conventions_agree():
    X, y, g = make_data(3, shuffle=False)
    # LightGBM stores weights as float32
    w = np.random.default_rng(0).random(y.shape[0]).astype(np.float32)
    s = np.random.default_rng(1).normal(size=y.shape[0])
    data = lgb.Dataset(X, y.astype(float), weight=w, group=np.bincount(g),
                       params={"verbosity": -1}).construct()
    objective = LightGBMObjective("soft_papk", k=3, temperature=0.5)
    by_dataset = objective(s, data)
    by_arrays = objective(y.astype(float), s, w, np.bincount(g))
    np.testing.assert_array_equal(by_dataset[0], by_arrays[0])
    np.testing.assert_array_equal(by_dataset[1], by_arrays[1])


def test_objective_reuses_its_layout_until_the_data_change(monkeypatch):
    built = []
    real = _smooth._make_pair_layout

    def counting(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr("skpapk.losses._lightgbm._make_pair_layout", counting)
    _, y, g = make_data(4, shuffle=False)
    sizes = np.bincount(g)
    objective = LightGBMObjective("pairwise_logistic")
    for seed in range(3):
        objective(y.astype(float), np.random.default_rng(seed).normal(size=y.size),
                  None, sizes)
    assert len(built) == 1
    y2 = y.copy()
    y2[0] = 1 - y2[0]
    grad, _ = objective(y2.astype(float), np.zeros(y.size), None, sizes)
    assert len(built) == 2
    ref = LightGBMObjective("pairwise_logistic")(y2.astype(float), np.zeros(y.size),
                                                 None, sizes)[0]
    np.testing.assert_array_equal(grad, ref)
    # pickling drops the cached layout; the copy computes the same
    copy = pickle.loads(pickle.dumps(objective))
    assert not hasattr(copy, "_cache")
    np.testing.assert_array_equal(
        copy(y2.astype(float), np.zeros(y.size), None, sizes)[0], ref)


def test_objective_graded_labels_are_relevant_above_zero():
    _, y, g = make_data(5, shuffle=False)
    graded = y * np.random.default_rng(0).integers(1, 5, size=y.shape[0])
    s = np.random.default_rng(1).normal(size=y.shape[0])
    objective = LightGBMObjective("pairwise_logistic")
    np.testing.assert_array_equal(objective(graded, s, None, np.bincount(g))[0],
                                  objective(y, s, None, np.bincount(g))[0])


@pytest.mark.parametrize("params, match", [
    (dict(surrogate=get_surrogate("avg")), "must be smooth"),
    (dict(surrogate="avg"), "'surrogate' parameter .* must be a str among"),
    (dict(surrogate="nope"), "'surrogate' parameter .* must be a str among"),
    (dict(temperature=0.0), "'temperature' parameter"),
    (dict(temperature=np.inf), "'temperature' parameter"),
    (dict(temperature=True), "'temperature' parameter"),
    (dict(group_weight="rows"), "'group_weight' parameter"),
    (dict(scale=-1.0), "'scale' parameter"),
    (dict(weight_total=0.0, scale=2.0), "'weight_total' parameter .* or None"),
    (dict(weight_total=np.nan, scale=2.0), "'weight_total' parameter .* or None"),
    (dict(weight_total=True, scale=2.0), "'weight_total' parameter .* or None"),
    (dict(weight_total=3.0), "weight_total needs an explicit scale"),
    (dict(n_jobs=0), "'n_jobs' parameter"),
    (dict(n_jobs=True), "'n_jobs' parameter"),
])
def test_objective_rejects_bad_parameters(params, match):
    with pytest.raises(ValueError, match=match):
        LightGBMObjective(**params)(np.array([1.0, 0.0]), np.zeros(2), None, [2])


@pytest.mark.parametrize("args, match", [
    ((np.array([1.0, 0.0]), np.zeros(2), None, None), "group=None"),
    ((np.array([1.0, 0.0]), np.zeros(2), None, [3]), "sizes of the consecutive"),
    ((np.array([1.0, 0.0]), np.zeros(2), None, [1.5, 0.5]), "sizes"),
    ((np.array([1.0, 0.0]), np.zeros((2, 2)), None, [2]), "one column"),
    ((np.array([1.0, 0.0]), np.array([0.0, np.nan]), None, [2]), "finite"),
    ((np.array([1.0]), np.zeros(2), None, [2]), "one label per row"),
    ((np.array([1.0, 0.0]), np.zeros(2), np.array([1.0, -1.0]), [2]), "weight"),
    ((np.array([1.0, 0.0]), np.zeros(2), None, [np.inf, 2]), "group must hold"),
    ((np.array([1.0, 0.0]), np.zeros(2), None, [np.nan, 2]), "group must hold"),
    # sizes whose int64 sum wraps around to the 4 rows (np.repeat crashed)
    ((np.array([1.0, 0.0, 1.0, 0.0]), np.zeros(4), None, [2**62] * 4 + [4]),
     "group must hold"),
    ((np.array([np.nan, 0.0, 0.0, 1.0]), np.zeros(4), None, [2, 2]),
     r"y_true \(the labels\) holds NaN"),
])
def test_objective_rejects_bad_inputs(args, match):
    with pytest.raises(ValueError, match=match):
        LightGBMObjective("pairwise_logistic")(*args)


@pytest.mark.parametrize("labels", [np.array(["a", "b"]), np.array([b"1", b"0"]),
                                    np.array(["a", 1], dtype=object)])
def test_objective_rejects_labels_that_are_not_numbers(labels):
    with pytest.raises(TypeError, match="y_true .* must hold numbers"):
        LightGBMObjective("pairwise_logistic")(labels, np.zeros(2), None, [2])


@pytest.mark.parametrize("labels, weight, match", [
    # every row relevant (label > 0): the gradients were all 0, silently
    ([0.2, 0.7, 0.7, 0.2], None, r"labels seen: \[0.2, 0.7\]"),
    ([0.0, 0.0, 0.0, 0.0], None, r"labels seen: \[0.0\]"),
    ([1.0, 1.0, 0.0, 0.0], None, "every row is relevant or every row"),
    # no relevant row of positive weight
    ([1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0],
     "the rows of positive weight are all relevant or all irrelevant"),
])
def test_objective_warns_about_rows_without_a_pair(labels, weight, match):
    # a warning, not an error: a fold of lightgbm.cv or a batch of users may
    # hold no pair (the gradients were all 0, silently)
    objective = LightGBMObjective("pairwise_logistic")
    weight = None if weight is None else np.array(weight)
    for message in (match, "No group has both a relevant and an irrelevant",
                    r"relevant when its label is > 0"):
        objective._cache = None  # warned at the layout's build
        with pytest.warns(UserWarning, match=message):
            grad, hess = objective(np.array(labels), np.zeros(4), weight, [2, 2])
        assert not grad.any() and not hess.any()


def test_objective_trains_lightgbm_cv_with_a_fold_without_a_pair():
    lightgbm = pytest.importorskip("lightgbm")
    X = np.random.default_rng(0).normal(size=(40, 3))
    y = np.zeros(40)
    y[:3] = 1  # only the first group has pairs: 3 of 4 folds train on none
    data = lightgbm.Dataset(X, y, group=[10] * 4,
                            params={"verbose": -1, "min_data_in_leaf": 1})
    with pytest.warns(UserWarning, match="No group has both"):
        result = lightgbm.cv({"objective": LightGBMObjective(k=2), "verbose": -1,
                              "min_data_in_leaf": 1, "metric": "ndcg",
                              "eval_at": [2]}, data, num_boost_round=3, nfold=4,
                             stratified=False, shuffle=False)
    assert len(result["valid ndcg@2-mean"]) == 3


@pytest.mark.parametrize("how", ["train", "LGBMRanker"])
def test_objective_warnings_name_the_users_line(how):
    # they named lightgbm/basic.py or lightgbm/sklearn.py, which call the
    # objective every round
    X = np.random.default_rng(0).normal(size=(20, 3))
    y, group = np.zeros(20), [10, 10]
    objective = LightGBMObjective(k=2)
    with pytest.warns(UserWarning, match="No group has both") as records:
        if how == "train":
            lgb.train({"objective": objective, "verbose": -1,
                       "min_data_in_leaf": 1},
                      lgb.Dataset(X, y, group=group), num_boost_round=1)
        else:
            lgb.LGBMRanker(objective=objective, n_estimators=1, verbose=-1,
                           min_child_samples=1).fit(X, y, group=group)
    assert {r.filename for r in records
            if "No group has both" in str(r.message)} == {__file__}


@pytest.mark.parametrize("weights", ["sample_weight", "class_weight",
                                     "sample_weight times class_weight"])
def test_boost_ranker_refuses_weights_that_leave_no_pair(weights):
    # weight 0 on every relevant row: trees scoring every row 0 were fitted;
    # the message names the weights given (it named class_weight always)
    X = np.random.default_rng(0).normal(size=(8, 2))
    y = np.tile([1, 0, 0, 0], 2)
    kwargs = ({"sample_weight": (y == 0).astype(float)}
              if weights.startswith("sample_weight") else {})
    params = ({"class_weight": {1: 0.0 if weights == "class_weight" else 2.0,
                                0: 1.0}}
              if weights.endswith("class_weight") else {})
    with pytest.raises(ValueError, match=f"of positive weight: {weights} is 0"):
        PApKBoostRanker(**SMALL, **params).fit(X, y, groups=np.repeat([0, 1], 4),
                                               **kwargs)


def test_objective_of_a_worker_without_a_pair_gives_zeros():
    # a worker of distributed training (weight_total) may hold no group with
    # both labels: the other workers' groups carry the pairs
    objective = LightGBMObjective("pairwise_logistic", scale=8.0,
                                  weight_total=3.0)
    grad, hess = objective(np.array([0.2, 0.7, 0.7, 0.2]), np.zeros(4), None,
                           [2, 2])
    assert not grad.any() and not hess.any() and objective.n_groups_used_ == 0


def test_boost_ranker_reports_its_own_error_without_a_pair():
    # the estimator refuses such rows before LightGBM calls the objective
    X = np.random.default_rng(0).normal(size=(8, 2))
    with pytest.raises(ValueError, match=r"No group has both .*classes seen"):
        PApKBoostRanker(**SMALL).fit(X, np.ones(8, dtype=int),
                                     groups=np.repeat([0, 1], 4))


@pytest.mark.parametrize("params, match", [
    (dict(k=0), "'k' parameter of LightGBMObjective must be an int in the "
                r"range \[1, inf\)"),
    (dict(k=1.5), "'k' parameter of LightGBMObjective"),
    (dict(k=True), "'k' parameter of LightGBMObjective"),
    (dict(truncation_level=0), "'truncation_level' parameter of "
                               "LightGBMObjective must be an int .* or None"),
    (dict(truncation_level=True), "'truncation_level' parameter of "
                                  "LightGBMObjective"),
    (dict(truncation_level=2.0), "'truncation_level' parameter of "
                                 "LightGBMObjective"),
])
def test_objective_checks_k_and_truncation_level_as_its_other_parameters(
        params, match):
    # as PApKBoostRanker does: the same words for every parameter
    with pytest.raises(InvalidParameterError, match=match):
        LightGBMObjective(**params)(np.array([1.0, 0.0]), np.zeros(2), None, [2])


def test_objective_constraints_cover_every_parameter():
    assert (set(LightGBMObjective._parameter_constraints)
            == set(vars(LightGBMObjective())))  # the parameters, unfitted
    with pytest.raises(ValueError, match="k=1e\\+30 is too large"):
        LightGBMObjective(k=10**30)(np.array([1.0, 0.0]), np.zeros(2), None, [2])


def test_objective_takes_labels_of_any_numeric_dtype():
    s = np.array([0.3, -0.2, 0.1, 0.5])
    objective = LightGBMObjective("pairwise_logistic")
    expected = objective(np.array([1.0, 0.0, 0.0, 1.0]), s, None, [2, 2])
    for labels in [[True, False, False, True], np.array([1, 0, 0, 1], np.uint8),
                   np.array([1, 0, 0, 1], dtype=object)]:
        np.testing.assert_array_equal(objective(labels, s, None, [2, 2]),
                                      expected)


def test_objective_checks_again_only_what_changed(monkeypatch):
    # LightGBM calls the objective every round: the parameters are validated
    # once for each set of values, the labels and weights once for each
    # layout; a change is checked, also where the relevance it gives would
    # not change the layout (NaN > 0 is False, as 0 > 0)
    checks = []
    monkeypatch.setattr("skpapk.losses._lightgbm.validate_parameter_constraints",
                        lambda *args, **kwargs: (
                            checks.append(args[1]),
                            validate_parameter_constraints(*args, **kwargs)))
    y, w = np.array([1.0, 0.0, 0.0, 1.0]), np.ones(4)
    s = np.array([0.3, -0.2, 0.1, 0.5])
    objective = LightGBMObjective("pairwise_logistic")
    expected = objective(y.copy(), s, w, [2, 2])
    for labels in (y, y.astype(np.float32), y.astype(int)):
        np.testing.assert_array_equal(objective(labels, s, w, [2, 2]), expected)
    assert len(checks) == 1
    y[1] = np.nan  # in place, in the array of the last call but one
    with pytest.raises(ValueError, match=r"y_true \(the labels\) holds NaN"):
        objective(y, s, w, [2, 2])
    with pytest.raises(TypeError, match="y_true .* must hold numbers"):
        objective(np.array([1, 0, 0, 1], dtype=complex), s, w, [2, 2])
    w[0] = np.nan
    with pytest.raises(ValueError, match="weight must hold finite"):
        objective(np.array([1.0, 0.0, 0.0, 1.0]), s, w, [2, 2])
    objective.n_jobs = True
    with pytest.raises(ValueError, match="'n_jobs' parameter"):
        objective(np.array([1.0, 0.0, 0.0, 1.0]), s, None, [2, 2])
    objective.n_jobs = 1
    objective(np.array([1.0, 0.0, 0.0, 1.0]), s, None, [2, 2])
    assert len(checks) == 3
    # labels and weights flipped in place in the arrays of the last call:
    # the gradient follows them (a cache holding the arrays would not)
    y, w = np.array([1.0, 0.0, 0.0, 1.0]), np.array([1.0, 2.0, 1.0, 1.0])
    before = objective(y, s, w, [2, 2])
    y[:] = 1 - y
    np.testing.assert_array_equal(objective(y, s, w, [2, 2]),
                                  objective(1 - np.array([1.0, 0.0, 0.0, 1.0]),
                                            s, w, [2, 2]))
    assert not np.array_equal(objective(y, s, w, [2, 2])[0], before[0])
    w[:] = 1.0
    np.testing.assert_array_equal(objective(y, s, w, [2, 2]),
                                  objective(y.copy(), s, np.ones(4), [2, 2]))


@pytest.mark.parametrize("surrogate", ["pairwise_logistic", "soft_papk"])
def test_objective_of_a_large_user_allocates_no_pair_array(surrogate):
    """A user with 3,300 rows (900,000 pairs): the call allocates O(rows)
    memory, not a pair array (900,000 float64 would be 7.2 MB), and equals
    the sum over the pair matrix."""
    import tracemalloc

    rng = np.random.default_rng(0)
    n_pos, n_neg = 300, 3000
    y = np.r_[np.ones(n_pos), np.zeros(n_neg), np.ones(20), np.zeros(80)]
    sizes = np.array([n_pos + n_neg, 100])
    s = rng.normal(size=y.shape[0])
    objective = LightGBMObjective(surrogate, k=10, temperature=0.5,
                                  group_weight="uniform")
    objective(y, s, None, sizes)  # compile, build the layout
    tracemalloc.start()
    grad, hess = objective(y, s + 0.1, None, sizes)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 40 * 8 * y.shape[0]
    # the pair matrix of the big user, as an oracle
    sig = 1 / (1 + np.exp(-(s[n_pos:n_pos + n_neg][None, :] - s[:n_pos][:, None])))
    if surrogate == "pairwise_logistic":
        want_pos = -sig.sum(axis=1) / (n_pos * n_neg)
        scale = y.shape[0] / 2  # the mean over the two users, times n rows
        np.testing.assert_allclose(
            objective(y, s, None, sizes)[0][:n_pos], scale * want_pos,
            rtol=1e-10)
    assert np.all(hess >= 0) and np.all(np.isfinite(grad))


def test_ranker_fits_a_large_user():
    rng = np.random.default_rng(1)
    n = 3000
    y = (rng.random(n) < 0.1).astype(int)
    X = rng.normal(size=(n, 3)) + 0.8 * y[:, None]
    g = np.r_[np.zeros(n - 200, int), np.ones(200, int)]
    ranker = PApKBoostRanker(k=10, objective="soft_papk", **SMALL).fit(X, y, groups=g)
    assert ranker.score(X, y, groups=g) > 0.6


# --------------------------------------------------------------------------
# The same trees through PApKBoostRanker, LGBMRanker and lightgbm.train


@pytest.mark.parametrize("group_weight", ["uniform", "inverse_variance"])
@pytest.mark.parametrize("objective", ["pairwise_logistic", "soft_papk"])
def test_lgbmranker_and_train_give_the_rankers_trees(objective, group_weight):
    X, y, g = make_data(6)
    params = dict(n_estimators=12, learning_rate=0.1, num_leaves=6,
                  min_child_samples=4, reg_lambda=0.5, colsample_bytree=0.8)
    ranker = PApKBoostRanker(k=4, objective=objective, temperature=0.5,
                             group_weight=group_weight, early_stopping=False,
                             random_state=3, n_jobs=1, **params).fit(X, y, groups=g)
    Xs, ys, _, sizes = sorted_by_group(X, y, g)
    callable_ = LightGBMObjective(objective, k=4, temperature=0.5,
                                  group_weight=group_weight)
    lgbm = lgb.LGBMRanker(objective=callable_, random_state=3, n_jobs=1,
                          verbose=-1, **params).fit(Xs, ys, group=sizes)
    booster = lgb.train(
        {"objective": callable_, "learning_rate": 0.1, "num_leaves": 6,
         "min_data_in_leaf": 4, "lambda_l2": 0.5, "feature_fraction": 0.8,
         "seed": 3, "num_threads": 1, "verbosity": -1},
        lgb.Dataset(Xs, ys, group=sizes), num_boost_round=12)
    scores = ranker.decision_function(X)
    np.testing.assert_allclose(lgbm.predict(X), scores, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(booster.predict(X), scores, rtol=1e-12, atol=1e-12)
    assert ranker.booster_.num_trees() == ranker.n_iter_ == 12


def test_the_callable_has_the_rankers_defaults():
    ranker = PApKBoostRanker().get_params()
    objective = LightGBMObjective()
    assert objective.surrogate == ranker["objective"]
    for name in ("k", "temperature", "group_weight"):
        assert getattr(objective, name) == ranker[name]


@pytest.mark.parametrize("objective", ["binary", "lambdarank", "rank_xendcg"])
def test_lightgbm_objectives_pass_through(objective):
    X, y, g = make_data(7)
    params = dict(n_estimators=10, learning_rate=0.1, num_leaves=6,
                  min_child_samples=4)
    ranker = PApKBoostRanker(k=3, objective=objective, early_stopping=False,
                             random_state=0, n_jobs=1, **params).fit(X, y, groups=g)
    Xs, ys, _, sizes = sorted_by_group(X, y, g)
    if objective == "binary":
        model = lgb.LGBMClassifier(random_state=0, n_jobs=1, verbose=-1, **params)
        expected = model.fit(Xs, ys).predict(X, raw_score=True)
    else:
        extra = {"lambdarank_truncation_level": 6} if objective == "lambdarank" else {}
        model = lgb.LGBMRanker(objective=objective, random_state=0, n_jobs=1,
                               verbose=-1, **params, **extra)
        expected = model.fit(Xs, ys, group=sizes).predict(X)
    np.testing.assert_allclose(ranker.decision_function(X), expected, rtol=1e-12,
                               atol=1e-12)


# --------------------------------------------------------------------------
# Data conventions


@pytest.mark.parametrize("objective", ["soft_papk", "pairwise_logistic", "binary"])
def test_row_order_and_group_labels_do_not_matter(objective):
    X, y, g = make_data(8, shuffle=False)
    ranker = PApKBoostRanker(k=4, objective=objective, **SMALL)
    reference = ranker.fit(X, y, groups=g).decision_function(X)
    perm = np.random.default_rng(0).permutation(y.shape[0])
    names = np.array([f"user-{c:03d}" for c in range(g.max() + 1)])
    shuffled = ranker.fit(X[perm], y[perm], groups=names[g[perm]])
    np.testing.assert_allclose(shuffled.decision_function(X), reference,
                               rtol=1e-6, atol=1e-9)
    # labels in another sorted order (a different order of the groups)
    relabelled = ranker.fit(X[perm], y[perm], groups=-7 * g[perm] + 3)
    np.testing.assert_allclose(relabelled.decision_function(X), reference,
                               rtol=1e-6, atol=1e-9)


def test_group_labels_do_not_matter_to_lambdarank():
    """LightGBM's lambdarank breaks score ties by the rows' positions in
    their group (every score is tied at the first round), so the order of
    the rows within each group is kept here. (``rank_xendcg`` also draws
    its random numbers group after group, so the order of the groups
    matters to it too.)"""
    X, y, g = make_data(8)
    ranker = PApKBoostRanker(k=4, objective="lambdarank", **SMALL)
    reference = ranker.fit(X, y, groups=g).decision_function(X)
    names = np.array([f"user-{c:03d}" for c in range(g.max() + 1)])
    for labels in (names[g], -7 * g + 3):
        np.testing.assert_allclose(
            ranker.fit(X, y, groups=labels).decision_function(X), reference,
            rtol=1e-6, atol=1e-9)


def test_sparse_input_gives_the_dense_model():
    X, y, g = make_data(9)
    X[np.abs(X) < 0.5] = 0.0
    dense = PApKBoostRanker(k=4, **SMALL).fit(X, y, groups=g)
    for fmt in (sp.csr_matrix, sp.csr_array, sp.csc_matrix):
        sparse = PApKBoostRanker(k=4, **SMALL).fit(fmt(X), y, groups=g)
        np.testing.assert_allclose(sparse.decision_function(fmt(X)),
                                   dense.decision_function(X), rtol=1e-12)
    np.testing.assert_allclose(dense.decision_function(X.astype(np.float32)),
                               dense.decision_function(X), rtol=1e-5, atol=1e-6)


def test_missing_values_are_lightgbms():
    # NaN is LightGBM's missing value: here it marks the relevant rows, so
    # the trees must learn to send it to the high side; the fit and the
    # scores are LGBMRanker's on the same rows, NaN included
    X, y, g = make_data(4, shuffle=False)
    X = X.copy()
    X[y == 1, 0] = np.nan
    X[np.arange(X.shape[0]) % 7 == 0, 2] = np.nan  # missing at random
    ranker = PApKBoostRanker(k=4, objective="lambdarank", **SMALL).fit(
        X, y, groups=g)
    assert ranker.__sklearn_tags__().input_tags.allow_nan
    scores = ranker.decision_function(X)
    assert np.isfinite(scores).all()
    assert papk_score(y, scores, k=4, groups=g) == 1.0
    reference = lgb.LGBMRanker(**ranker._lightgbm_params(0)).fit(
        X, y.astype(float), group=np.bincount(g))
    np.testing.assert_allclose(scores, reference.predict(X, raw_score=True),
                               rtol=1e-12)
    ours = PApKBoostRanker(k=4, **SMALL).fit(X, y, groups=g)
    assert papk_score(y, ours.predict(X), k=4, groups=g) == 1.0


def test_predict_options_are_lgbmrankers():
    # LGBMRanker.predict's options, read off the booster: SHAP values add
    # up to the scores, leaves, and tree ranges around best_iteration_
    X, y, g = make_data(5)
    ranker = PApKBoostRanker(k=4, random_state=1, **{
        **SMALL, "early_stopping": True, "n_iter_no_change": 3,
        "n_estimators": 40}).fit(X, y, groups=g)
    booster, best = ranker.booster_, ranker.best_iteration_
    assert best == 3  # the trees around it below
    assert best == booster.current_iteration() < ranker.n_iter_  # as LGBMRanker
    scores = ranker.predict(X)
    np.testing.assert_array_equal(scores, ranker.decision_function(X))
    np.testing.assert_array_equal(
        scores, booster.predict(X, num_iteration=best, raw_score=True))
    shap = ranker.predict(X, pred_contrib=True)
    assert shap.shape == (X.shape[0], X.shape[1] + 1)
    np.testing.assert_allclose(shap.sum(axis=1), scores, rtol=1e-10, atol=1e-12)
    leaves = ranker.predict(X, pred_leaf=True)
    assert leaves.shape == (X.shape[0], best)
    np.testing.assert_array_equal(
        ranker.predict(X, num_iteration=2),
        booster.predict(X, num_iteration=2, raw_score=True))
    np.testing.assert_array_equal(  # all the trees from the second
        ranker.predict(X, start_iteration=1),
        booster.predict(X, start_iteration=1, num_iteration=-1, raw_score=True))


@pytest.mark.parametrize("start, error, match", [
    (5, ValueError, r"start_iteration=5: the model has 5 trees \(iterations 0 to "
                    r"4\), and it would use none \(every score 0\)"),
    (100, ValueError, "the model has 5 trees"),
    (-1, ValueError, "must be >= 0"),
    (1.0, TypeError, "must be an integer"),
    (True, TypeError, "must be an integer"),
])
def test_predict_refuses_a_start_iteration_without_trees(start, error, match):
    # LightGBM scores every row 0 from a start_iteration past the last tree
    X, y, g = make_data(6)
    ranker = PApKBoostRanker(k=4, **{**SMALL, "n_estimators": 5}).fit(
        X, y, groups=g)
    assert ranker.booster_.num_trees() == 5
    assert np.ptp(ranker.predict(X, start_iteration=4)) > 0
    with pytest.raises(error, match=match):
        ranker.predict(X, start_iteration=start)


def test_predict_takes_validate_features_and_num_threads(monkeypatch):
    # LGBMRanker.predict's validate_features and num_threads were a TypeError
    X, y, g = make_data(5)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    named = PApKBoostRanker(k=3, **SMALL).fit(frame, y, groups=g)
    scores = named.predict(frame)
    np.testing.assert_array_equal(named.predict(frame, validate_features=True),
                                  scores)
    leaves = named.predict(frame, pred_leaf=True)
    np.testing.assert_array_equal(
        named.predict(frame, pred_leaf=True, validate_features=True), leaves)
    # as LightGBM's (Booster.predict): the names of a DataFrame's columns
    # must be those of the fit
    with pytest.raises(ValueError, match="feature names"):
        named.predict(frame.rename(columns={"f0": "g0"}), validate_features=True)
    plain = PApKBoostRanker(k=3, **SMALL).fit(X, y, groups=g)
    with pytest.raises(ValueError, match=r"validate_features=True: X has "
                                         r"feature names \(f0, f1, f2, f3\), "
                                         r"but PApKBoostRanker was fitted "
                                         r"without feature names"):
        plain.predict(frame, validate_features=True)
    np.testing.assert_array_equal(plain.predict(X, validate_features=True),
                                  plain.predict(X))
    # the threads of LightGBM's prediction: None, those of n_jobs
    threads, predict = [], named.booster_.predict

    def spy(*args, **kwargs):
        threads.append(kwargs["num_threads"])
        return predict(*args, **kwargs)

    monkeypatch.setattr(named.booster_, "predict", spy)
    np.testing.assert_array_equal(named.predict(frame, num_threads=1), scores)
    np.testing.assert_array_equal(
        named.predict(frame, pred_leaf=True, num_threads=2), leaves)
    named.set_params(n_jobs=3).predict(frame, num_threads=None)
    named.predict(frame, num_threads=-1)
    cores = effective_n_threads(-1)  # counts above it are capped
    assert threads == [1, min(2, cores), min(3, cores), cores]


@pytest.mark.parametrize("keywords, match", [
    ({"n_jobs": 2}, r"predict got n_jobs=2, LightGBM's alias of num_threads: "
                    r"give num_threads=2 instead"),
    ({"nthread": 2}, "LightGBM's alias of num_threads"),
    ({"pred_early_stop": True}, r"predict got pred_early_stop=True, a LightGBM "
                                r"parameter that it does not take; of "
                                r"LGBMRanker.predict's keywords it takes "
                                r"validate_features and num_threads"),
    ({"num_threds": 2}, r"predict\(\) got an unexpected keyword argument "
                        r"'num_threds'"),
    ({"num_threads": 0}, r"num_threads=0: give a number of threads >= 1"),
    ({"num_threads": 1.5}, r"num_threads=1.5: give a number of threads"),
    ({"num_threads": True}, r"num_threads=True: give a number of threads"),
    ({"validate_features": "yes"}, r"validate_features='yes' must be True or "
                                   r"False"),
])
def test_predict_refuses_other_lightgbm_keywords(keywords, match):
    X, y, g = make_data(5)
    ranker = PApKBoostRanker(k=3, **SMALL).fit(X, y, groups=g)
    with pytest.raises((TypeError, ValueError), match=match):
        ranker.predict(X, **keywords)


@pytest.mark.parametrize("method", ["fit", "predict"])
def test_infinite_features_are_refused(method):
    X, y, g = make_data(4)
    bad = X.copy()
    bad[3, 1] = np.inf
    ranker = PApKBoostRanker(k=4, **SMALL)
    if method == "predict":
        ranker.fit(X, y, groups=g)
    with pytest.raises(ValueError, match="Input X contains infinity"):
        ranker.fit(bad, y, groups=g) if method == "fit" else ranker.predict(bad)


@pytest.mark.parametrize("labels, pos_label", [
    (("no", "yes"), "yes"), ((-1, 1), None), ((0.5, 2.0), None),
    ((False, True), None), ((3, 7), None)])
def test_any_two_labels(labels, pos_label):
    X, y, g = make_data(10)
    reference = PApKBoostRanker(k=4, **SMALL).fit(X, y, groups=g)
    y_any = np.asarray(labels)[y]
    ranker = PApKBoostRanker(k=4, pos_label=pos_label, **SMALL).fit(X, y_any,
                                                                    groups=g)
    assert ranker.classes_.tolist() == sorted(labels)
    np.testing.assert_array_equal(ranker.decision_function(X),
                                  reference.decision_function(X))
    assert ranker.score(X, y_any, groups=g) == papk_score(
        y, ranker.decision_function(X), k=4, groups=g)


def test_more_than_two_labels_are_rejected():
    X, y, g = make_data(11)
    with pytest.raises(ValueError, match="Only binary classification"):
        PApKBoostRanker(**SMALL).fit(X, y + (np.arange(y.size) % 3 == 0), groups=g)


def test_recommend_and_score_use_the_decision_function():
    X, y, g = make_data(12)
    ranker = PApKBoostRanker(k=3, **SMALL).fit(X, y, groups=g)
    scores = ranker.decision_function(X)
    assert ranker.score(X, y, groups=g) == papk_score(y, scores, k=3, groups=g)
    rec = ranker.recommend(X, groups=g)
    for c, label in enumerate(rec.groups):
        rows = rec.indices[rec.indptr[c]:rec.indptr[c + 1]]
        members = np.flatnonzero(g == label)
        top = members[np.argsort(-scores[members], kind="stable")[:3]]
        np.testing.assert_array_equal(rows, top)


def test_uniform_sample_weights_leave_the_skpapk_trees_unchanged():
    """Frequency weights, and the objective scaled by the total weight: the
    same weight on every row is the same loss and the same leaf values.
    (Not with ``"inverse_variance"``: tripled rows are more evidence per
    user, ``12 n+ n- / (n+ + n- + 1)`` does not scale uniformly.)"""
    X, y, g = make_data(13)
    params = dict(SMALL, min_child_weight=0.0, group_weight="uniform")
    plain = PApKBoostRanker(k=4, **params).fit(X, y, groups=g)
    tripled = PApKBoostRanker(k=4, **params).fit(X, y, groups=g,
                                                 sample_weight=np.full(y.size, 3.0))
    # LightGBM rounds gradients and Hessians to float32
    np.testing.assert_allclose(tripled.decision_function(X),
                               plain.decision_function(X), rtol=1e-5, atol=1e-7)
    w = np.random.default_rng(0).random(y.size)
    weighted = PApKBoostRanker(k=4, **params).fit(X, y, groups=g, sample_weight=w)
    assert not np.allclose(weighted.decision_function(X), plain.decision_function(X))


@pytest.mark.parametrize("objective", ["pairwise_logistic", "soft_papk",
                                       "binary"])
def test_weight_two_is_two_copies_in_the_loss_not_in_the_trees(objective):
    X, y, g = make_data(12)
    w = np.where(np.random.default_rng(0).random(y.size) < 0.3, 2.0, 1.0)
    copies = np.repeat(np.arange(y.size), w.astype(int))  # rows by group
    fits = {}
    for trees, params in [
            # stumps that no count of rows limits, a bin for every value:
            # the gradient and Hessian of a row of weight 2 are those of its
            # two copies
            ("stumps", dict(num_leaves=2, min_child_samples=0,
                            min_child_weight=0.0, max_bin=1023,
                            min_data_in_bin=1)),
            # LightGBM's defaults count rows whatever their weight
            ("default", {})]:
        params = dict(k=4, objective=objective, n_estimators=10,
                      random_state=0, **params)
        weighted = PApKBoostRanker(**params).fit(X, y, groups=g, sample_weight=w)
        repeated = PApKBoostRanker(**params).fit(X[copies], y[copies],
                                                 groups=g[copies])
        fits[trees] = weighted.decision_function(X), repeated.decision_function(X)
    np.testing.assert_allclose(*fits["stumps"], rtol=1e-6, atol=1e-9)
    assert not np.allclose(*fits["default"], rtol=1e-3, atol=1e-3)
    # the Notes say so, of "binary" as of the skpapk objectives
    doc = " ".join(PApKBoostRanker.__doc__.split())
    notes = doc[doc.index("Notes -----"):]
    assert "The trees are not the trees of duplicated rows, under any " \
        "objective" in notes
    assert "frequency weights for the skpapk objectives" not in notes


def test_bad_sample_weight_is_rejected():
    X, y, g = make_data(14)
    with pytest.raises(ValueError, match="Negative"):
        PApKBoostRanker(**SMALL).fit(X, y, groups=g, sample_weight=-np.ones(y.size))


@pytest.mark.parametrize("early_stopping", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("labels, pos_label, class_weight", [
    ((0, 1), 0, {0: 5.0, 1: 1.0}),  # 0 relevant: LightGBM weighted label 1
    ((-1, 1), None, {-1: 3.0, 1: 1.0}),  # LightGBM: "[0] not in class_weight"
    (("no", "yes"), "yes", {"no": 3.0, "yes": 0.5}),
    ((0, 1), None, {1: 2.0}),  # a label left out weighs 1
    ((0, 1), None, {0: 2, 1: 1}),
])
def test_class_weight_weighs_the_labels_of_y(labels, pos_label, class_weight,
                                             weighted, early_stopping):
    # LightGBM applied class_weight to the ranker's 0/1 relevance codes
    X, y, g = make_data(16)
    y = np.asarray(labels)[y]
    w = np.random.default_rng(0).random(y.size) if weighted else None
    rows = np.array([class_weight.get(label, 1.0) for label in y.tolist()])
    params = dict(SMALL, k=3, pos_label=pos_label, random_state=0,
                  early_stopping=early_stopping)
    ranker = PApKBoostRanker(class_weight=class_weight, **params).fit(
        X, y, groups=g, sample_weight=w)
    expected = PApKBoostRanker(**params).fit(
        X, y, groups=g, sample_weight=rows if w is None else w * rows)
    assert (ranker.booster_.model_to_string()
            == expected.booster_.model_to_string())


@pytest.mark.parametrize("early_stopping", [False, True])
@pytest.mark.parametrize("labels, pos_label", [((0, 1), None),
                                               (("b", "a"), "a")])
def test_class_weight_balanced_weighs_the_labels_of_the_training_rows(
        labels, pos_label, early_stopping):
    from sklearn.utils.class_weight import compute_sample_weight

    X, y, g = make_data(17)
    y = np.asarray(labels)[y]
    params = dict(SMALL, k=3, pos_label=pos_label, random_state=0,
                  early_stopping=early_stopping)
    ranker = PApKBoostRanker(class_weight="balanced", **params).fit(
        X, y, groups=g)
    train = np.arange(y.size)
    if early_stopping:  # the rows held out for validation are not counted
        train, _ = within_group_split(y, g, sizes=(0.9, 0.1), random_state=0)
    w = np.zeros(y.size)
    w[train] = compute_sample_weight("balanced", y[train])
    expected = PApKBoostRanker(**params).fit(X, y, groups=g, sample_weight=w)
    np.testing.assert_array_equal(ranker.predict(X), expected.predict(X))


@pytest.mark.parametrize("class_weight, match", [
    ({"yes": 2.0, "maybe": 1.0}, r"class_weight=\{'yes': 2.0, 'maybe': 1.0\} "
                                 r"has a key that is not a label of y: 'maybe'"),
    ({0: 2.0}, "has a key that is not a label of y: 0"),
    ({"yes": -1.0}, r"weight of label 'yes' is -1.0.*>= 0"),
    ({"yes": np.nan}, "weight of label 'yes' is nan"),
    ({"yes": True}, "weight of label 'yes' is True"),
    ({"yes": "2"}, "weight of label 'yes' is '2'"),
    ("auto", "class_weight='auto' must be None, 'balanced' or a dict"),
    ([{0: 1.0}], r"class_weight=\[\{0: 1.0\}\] must be None"),
])
def test_bad_class_weight_is_refused(class_weight, match):
    X, y, g = make_data(18)
    y = np.asarray(["no", "yes"])[y]
    with pytest.raises(ValueError, match=match):
        PApKBoostRanker(class_weight=class_weight, pos_label="yes",
                        **SMALL).fit(X, y, groups=g)


@pytest.mark.parametrize("params", [
    dict(objective="lambdamart"), dict(temperature=0.0), dict(num_leaves=1),
    dict(max_depth=1.5), dict(early_stopping="yes"), dict(validation_fraction=1.0),
    dict(n_jobs=0), dict(group_weight="rows"), dict(subsample=0.0)])
def test_parameters_are_validated(params):
    X, y, g = make_data(15)
    with pytest.raises(InvalidParameterError):
        PApKBoostRanker(**params).fit(X, y, groups=g)


@pytest.mark.parametrize("name", [
    "temperature", "n_estimators", "learning_rate", "num_leaves", "max_depth",
    "min_child_samples", "min_child_weight", "subsample", "colsample_bytree",
    "reg_alpha", "reg_lambda"])
@pytest.mark.parametrize("value", [True, False])
def test_lightgbms_numbers_refuse_bools(name, value):
    # LightGBM refused them with an error about its data file (the
    # objective refused a bool temperature under its own name)
    X, y, g = make_data(15)
    with pytest.raises(InvalidParameterError, match=f"'{name}' parameter of "
                                                    f"PApKBoostRanker .* "
                                                    f"Got {value} instead"):
        PApKBoostRanker(**{**SMALL, name: value}).fit(X, y, groups=g)


def test_constant_features_give_a_constant_ranker_with_a_warning():
    X, y, g = make_data(16)
    with pytest.warns(UserWarning, match="No feature of X can be split"):
        ranker = PApKBoostRanker(**SMALL).fit(np.ones_like(X), y, groups=g)
    scores = ranker.decision_function(X)
    assert np.all(scores == scores[0])


@pytest.mark.parametrize("objective", ["pairwise_logistic", "binary"])
@pytest.mark.parametrize("scale", [1e-6, 1e-30])
def test_weights_too_small_for_any_split_warn(scale, objective):
    # the Hessians scale with the weights: below min_child_weight, LightGBM
    # grows one-leaf trees and stops without a word
    X, y, g = make_data(16)
    with pytest.warns(UserWarning, match=r"^The trees have no split \(no split "
                      r"passed LightGBM's limits, such as min_child_samples=5 "
                      r"and min_child_weight=0.001, a sum of Hessians, which "
                      r"sample_weight scales.* multiply them by a constant"):
        ranker = PApKBoostRanker(**{**SMALL, "objective": objective}).fit(
            X, y, groups=g, sample_weight=np.full(len(y), scale))
    assert not ranker.feature_importances_.any()
    # (LightGBM user) the limit that was given is named
    with pytest.warns(UserWarning, match=r"^The trees have no split .* and "
                      r"min_split_gain=1000000000.0\)") as caught:
        PApKBoostRanker(**{**SMALL, "objective": objective,
                           "min_split_gain": 1e9}).fit(X, y, groups=g)
    assert "sample_weight" not in str(caught[0].message)  # not given
    with warnings.catch_warnings():  # the same weights times a constant
        warnings.simplefilter("error")
        ranker.fit(X, y, groups=g, sample_weight=np.full(len(y), scale / scale))
    assert ranker.feature_importances_.any()


@pytest.mark.parametrize("weight", [np.array(["1", "2"] * 80),
                                    np.array(["1", 2.0] * 80, dtype=object)])
def test_text_sample_weight_is_refused(weight):
    X, y, g = make_data(16)
    with pytest.raises(TypeError, match=r"^sample_weight holds text \(dtype "
                                        r"(<U1|object)\), not numbers"):
        PApKBoostRanker(**SMALL).fit(X, y, groups=g,
                                     sample_weight=weight[:len(y)])


# one list of 10,003 rows on purpose (groups=None): told of groups= at fit
@pytest.mark.filterwarnings("ignore::skpapk.exceptions.MissingGroupsWarning")
@pytest.mark.parametrize("with_groups", [False, True])
def test_lightgbms_group_size_limit_is_named(with_groups):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(10003, 1)), np.arange(10003) % 3 == 0
    g = np.repeat([0, 1], [10001, 2]) if with_groups else None
    with pytest.raises(ValueError, match=rf"^objective='lambdarank': "
                       rf"LightGBM's lambdarank takes at most 10,000 rows a "
                       rf"group, and a group has "
                       rf"{'10,001' if with_groups else '10,003'} training rows"
                       rf"{'' if with_groups else ' .groups=None.*'}; pass "
                       rf"smaller groups, or use objective='pairwise_logistic'"):
        PApKBoostRanker(objective="lambdarank", n_estimators=1).fit(X, y, groups=g)
    # rank_xendcg has no such limit (LightGBM's NDCG metric has, unused here)
    ranker = PApKBoostRanker(objective="rank_xendcg", n_estimators=2).fit(
        X, y, groups=g)
    assert ranker.feature_importances_.any()


def test_lambdarank_takes_a_k_past_lightgbms_int32():
    X, y, g = make_data(16)
    big = PApKBoostRanker(**{**SMALL, "objective": "lambdarank", "k": 2**30})
    every = PApKBoostRanker(**{**SMALL, "objective": "lambdarank", "k": 1000})
    # a truncation level past every list: the same trees
    np.testing.assert_array_equal(big.fit(X, y, groups=g).decision_function(X),
                                  every.fit(X, y, groups=g).decision_function(X))


def test_lightgbm_fitted_attribute_aliases():
    X, y, g = make_data(16)
    ranker = PApKBoostRanker(**{**SMALL, "objective": "soft_papk"})
    with pytest.raises(sklearn.exceptions.NotFittedError):
        ranker.objective_
    ranker.fit(X, y, groups=g)
    assert ranker.n_features_ == ranker.n_features_in_ == X.shape[1]
    assert ranker.objective_ == "soft_papk"


@pytest.mark.parametrize("verbose", [-1, 0, 1])
@pytest.mark.parametrize("objective", ["pairwise_logistic", "soft_papk"])
@pytest.mark.parametrize("data", ["constant", "too few rows"])
def test_no_usable_feature_writes_nothing_to_stderr(data, objective, verbose,
                                                    capfd):
    # LightGBM's C++ code writes "[LightGBM] [Fatal] Check failed:
    # (train_data->num_features()) > (0)" to the process's stderr (fd 2,
    # hence capfd) whatever its verbosity when it fails on this
    if data == "constant":  # no feature to split on
        X, y, g = np.ones((6, 2)), [0, 1] * 3, [0, 0, 1, 1, 2, 2]
    else:  # 6 rows of distinct values, none enough for min_child_samples=20
        X = np.arange(12.0).reshape(6, 2)
        y, g = [0, 1] * 3, [0, 0, 1, 1, 2, 2]
    ranker = PApKBoostRanker(k=2, objective=objective, verbose=verbose)
    with pytest.warns(UserWarning, match="No feature of X can be split"):
        ranker.fit(X, y, groups=g)
    scores = ranker.decision_function(X)
    assert np.all(scores == scores[0])
    assert ranker.n_iter_ == ranker.best_iteration_ == 1
    out, err = capfd.readouterr()
    assert err == ""
    assert ("Fitting PApKBoostRanker" in out) == (verbose == 1)
    # with early stopping too (validation rows, LightGBM's eval metric)
    X, y, g = make_data(16)
    with pytest.warns(UserWarning, match="No feature of X can be split"):
        stopped = PApKBoostRanker(k=3, objective=objective, verbose=min(verbose, 0),
                                  early_stopping=True, random_state=0).fit(
            np.ones_like(X), y, groups=g)
    assert stopped.validation_scores_ is None and stopped.evals_result_ is None
    assert capfd.readouterr() == ("", "")


# --------------------------------------------------------------------------
# Early stopping


def replay_stopping(scores, tol, n_iter_no_change):
    best, count = -np.inf, 0
    for i, s in enumerate(scores):
        count = count + 1 if not s >= best + tol else 0
        best = max(best, s)
        if count >= n_iter_no_change:
            return i + 1
    return len(scores)


def every_round(ranker, X, y, g):
    """The booster of every round that ``ranker`` ran before it stopped: its
    twin without early stopping on its training rows (LightGBM's trees do
    not depend on the validation rows), whose first ``best_iteration_``
    trees are checked to be ``ranker``'s (it keeps those only, as
    ``LGBMRanker.fit``)."""
    twin = sklearn.clone(ranker).set_params(early_stopping=False,
                                            n_estimators=ranker.n_iter_)
    booster = twin.fit(X, y, groups=g).booster_
    assert booster.current_iteration() == ranker.n_iter_
    assert ranker.booster_.current_iteration() == ranker.best_iteration_
    np.testing.assert_array_equal(
        booster.predict(X, num_iteration=ranker.best_iteration_, raw_score=True),
        ranker.booster_.predict(X, raw_score=True))
    return booster


@pytest.mark.parametrize("objective", ["soft_papk", "binary"])
def test_early_stopping_scores_the_held_out_rows_of_every_user(objective):
    X, y, g = make_data(17, n_groups=30)
    ranker = PApKBoostRanker(k=4, objective=objective, n_estimators=60,
                             learning_rate=0.3, num_leaves=15,
                             min_child_samples=2, early_stopping=True,
                             validation_fraction=0.3, n_iter_no_change=4,
                             tol=0.0, random_state=5).fit(X, y, groups=g)
    train, val = within_group_split(y, g, sizes=(0.7, 0.3), random_state=5)
    n = ranker.n_iter_
    assert ranker.validation_scores_.shape == (n,)
    booster = every_round(ranker, X[train], y[train], g[train])
    expected = [papk_score(y[val], booster.predict(
        X[val], num_iteration=i, raw_score=True), k=4, groups=g[val])
        for i in range(1, n + 1)]
    np.testing.assert_allclose(ranker.validation_scores_, expected, rtol=1e-12)
    assert ranker.best_iteration_ == int(np.argmax(expected)) + 1
    assert ranker.booster_.best_iteration == ranker.best_iteration_
    assert n == replay_stopping(expected, 0.0, 4)
    assert n < 60  # it stopped
    np.testing.assert_array_equal(
        ranker.decision_function(X),
        ranker.booster_.predict(X, num_iteration=ranker.best_iteration_,
                                raw_score=True))
    # (every_round: the trees were fitted on the training rows only)


@pytest.mark.parametrize("metric", ["ndcg", ["map", "ndcg"]])
def test_early_stopping_reads_its_own_metric_among_lightgbms(metric):
    # LightGBM's metric (**kwargs) is evaluated on the validation rows too:
    # early stopping reads its micro-pAp@k by name, evals_result_ keeps all
    X, y, g = make_data(2, n_groups=40)
    params = dict(SMALL, k=3, n_estimators=200, early_stopping=True,
                  n_iter_no_change=5, tol=1e-3, random_state=0)
    plain = PApKBoostRanker(**params).fit(X, y, groups=g)
    ranker = PApKBoostRanker(metric=metric, **params).fit(X, y, groups=g)
    n = ranker.n_iter_
    assert n < 200  # it stopped, on the same rounds as without the metric
    np.testing.assert_array_equal(ranker.validation_scores_,
                                  plain.validation_scores_)
    assert ranker.best_iteration_ == plain.best_iteration_
    np.testing.assert_array_equal(ranker.decision_function(X),
                                  plain.decision_function(X))
    names = [f"{m}@{i}" for m in np.atleast_1d(metric) for i in range(1, 6)]
    record = ranker.evals_result_["valid_0"]
    assert set(record) == {"micro_papk@3", *names}
    assert all(len(values) == n for values in record.values())  # the last too
    np.testing.assert_array_equal(record["micro_papk@3"],
                                  ranker.validation_scores_)
    assert all(0 <= value <= 1 for name in names for value in record[name])
    assert plain.evals_result_ == {"valid_0": {"micro_papk@3": list(
        plain.validation_scores_)}}
    # LightGBM's record of the best round (booster_.best_iteration), every
    # metric, as LightGBM's own early stopping keeps it
    best = ranker.best_iteration_ - 1
    assert ranker.booster_.best_iteration == ranker.best_iteration_
    assert ranker.booster_.best_score == {"valid_0": {
        name: values[best] for name, values in record.items()}}
    assert ranker.booster_.best_score == ranker.best_score_
    no_stop = PApKBoostRanker(metric=metric, **dict(SMALL, k=3)).fit(
        X, y, groups=g)
    assert no_stop.evals_result_ is None and no_stop.validation_scores_ is None


@pytest.mark.parametrize("objective", ["pairwise_logistic", "lambdarank"])
@pytest.mark.parametrize("n_iter_no_change", [3, 100])
def test_rounds_that_add_no_tree_are_not_counted(objective, n_iter_no_change):
    # with a split gain few splits reach, LightGBM adds trees for a few
    # rounds, then none, and lightgbm.train goes on calling the callbacks:
    # every count and record is one of the trees
    X, y, g = make_data(5, n_groups=40)
    ranker = PApKBoostRanker(k=3, objective=objective, n_estimators=60,
                             min_split_gain=2.0 if objective == "lambdarank"
                             else 3.0, min_child_samples=2,
                             early_stopping=True, n_iter_no_change=n_iter_no_change,
                             random_state=0).fit(X, y, groups=g)
    n = ranker.n_iter_
    assert 1 < n < 60
    assert ranker.n_estimators_ == ranker.best_iteration_ <= n
    assert ranker.validation_scores_.shape == (n,)
    assert all(len(values) == n
               for values in ranker.evals_result_["valid_0"].values())
    train, val = within_group_split(y, g, sizes=(0.9, 0.1), random_state=0)
    booster = every_round(ranker, X[train], y[train], g[train])
    expected = [papk_score(y[val], booster.predict(
        X[val], num_iteration=i, raw_score=True), k=3, groups=g[val],
        zero_division=np.nan) for i in range(1, n + 1)]
    np.testing.assert_allclose(ranker.validation_scores_, expected, rtol=1e-12)
    assert ranker.best_score_ == ranker.booster_.best_score == {"valid_0": {
        "micro_papk@3": ranker.validation_scores_[ranker.best_iteration_ - 1]}}


def test_rounds_that_add_no_tree_count_as_rounds_without_improvement():
    # LightGBM stops adding trees: the training ends n_iter_no_change rounds
    # later (lightgbm.train would otherwise run every round left)
    from types import SimpleNamespace

    from skpapk._lightgbm_engine import _EarlyStopping

    stopper = _EarlyStopping("micro_papk@3", tol=0.0, n_iter_no_change=4,
                             verbose=0)
    trees = iter([1, 2, 3, 3, 3, 3, 3, 3, 3])  # trees after each round
    model = SimpleNamespace(current_iteration=lambda: current)
    rounds = 0
    with pytest.raises(lgb.callback.EarlyStopException):
        for rounds, current in enumerate(trees):
            stopper(SimpleNamespace(
                model=model, iteration=rounds, begin_iteration=0,
                evaluation_result_list=[("valid_0", "micro_papk@3",
                                         0.5 + 0.1 * current, True)]))
    assert stopper.scores == pytest.approx([0.6, 0.7, 0.8])
    assert stopper.empty_rounds == [3, 4, 5, 6] and rounds == 6
    assert stopper.best_results == [("valid_0", "micro_papk@3", 0.8, True)]


@pytest.mark.parametrize("objective", ["lambdarank", "binary"])
def test_lightgbms_objectives_warn_when_no_feature_can_be_split(objective):
    # LightGBM fits them a constant tree (the skpapk objectives a constant
    # model): the same warning
    X, y, g = make_data(16)
    with pytest.warns(UserWarning, match="No feature of X can be split"):
        ranker = PApKBoostRanker(k=3, objective=objective, n_estimators=5,
                                 early_stopping=True, random_state=0).fit(
            np.ones_like(X), y, groups=g)
    assert ranker.n_iter_ == ranker.booster_.current_iteration() == 1
    assert ranker.validation_scores_.shape == (1,)
    scores = ranker.decision_function(X)
    assert np.all(scores == scores[0])


@pytest.mark.parametrize("params, fix", [
    ({"early_stopping_min_delta": 0.01}, r"set tol, one number >= 0 .*instead"),
    ({"early_stopping_min_delta": [0.01, 0.0]}, r"set tol, one number >= 0"),
    ({"early_stopping_min_delta": np.array([0.0, 0.01])}, "set tol"),
    ({"first_metric_only": True}, "reads the validation micro-pAp@k only")])
def test_lightgbms_early_stopping_settings_are_refused(params, fix):
    X, y, g = make_data(3)
    ranker = PApKBoostRanker(k=3, **SMALL, **params)
    with pytest.raises(ValueError, match=f"{next(iter(params))}=.*LightGBM's "
                                         f"own early stopping.*{fix}"):
        ranker.fit(X, y, groups=g)
    # LightGBM's defaults: nothing to refuse
    ranker.set_params(early_stopping_min_delta=0.0, first_metric_only=False)
    ranker.fit(X, y, groups=g)


def test_max_depth_takes_lightgbms_values():
    # LightGBM: max_depth <= 0 means no limit
    X, y, g = make_data(3)
    scores = {depth: PApKBoostRanker(k=3, max_depth=depth, **SMALL).fit(
        X, y, groups=g).decision_function(X) for depth in (-1, 0, -5, 1)}
    np.testing.assert_array_equal(scores[0], scores[-1])
    np.testing.assert_array_equal(scores[-5], scores[-1])
    assert not np.array_equal(scores[1], scores[-1])


@pytest.mark.parametrize("alias", ["early_stopping_round",
                                   "early_stopping_rounds"])
def test_lightgbms_own_early_stopping_is_refused(alias):
    # the names of early_stopping_round that LightGBM knows and that are
    # not this ranker's own parameters
    own = set(PApKBoostRanker().get_params())
    assert set(lgb.basic._ConfigAliases.get("early_stopping_round")) - own == {
        "early_stopping_round", "early_stopping_rounds"}
    X, y, g = make_data(3)
    ranker = PApKBoostRanker(k=3, **SMALL).set_params(**{alias: 2})
    with pytest.raises(ValueError, match=f"{alias}=2 is LightGBM's own early "
                                         f"stopping.*early_stopping=True and "
                                         f"n_iter_no_change"):
        ranker.fit(X, y, groups=g)
    # None is LightGBM's default, 0 or less its "off": no early stopping
    for off in (None, 0, -1):
        ranker.set_params(**{alias: off}).fit(X, y, groups=g)
        assert ranker.n_iter_ == SMALL["n_estimators"]


@pytest.mark.parametrize("alias", ["boosting_type", "boosting", "boost"])
def test_dart_refuses_early_stopping(alias):
    # dart rescales earlier trees in later rounds: the first best_iteration_
    # trees are not the model scored at that round
    assert set(lgb.basic._ConfigAliases.get("boosting")) == {
        "boosting_type", "boosting", "boost"}
    X, y, g = make_data(4, n_groups=30)
    dart = {**SMALL, "k": 4, alias: "dart"}
    with pytest.raises(ValueError, match=f"early_stopping=True cannot be used "
                                         f"with {alias}='dart'.*"
                                         f"early_stopping=False"):
        PApKBoostRanker(**{**dart, "early_stopping": True}).fit(X, y, groups=g)
    train, val = within_group_split(y, g, sizes=(0.7, 0.3), random_state=0)
    for early_stopping in (True, "auto"):
        with pytest.raises(ValueError, match=f"X_val, y_val and groups_val .* "
                                             f"cannot be used with {alias}"):
            PApKBoostRanker(**{**dart, "early_stopping": early_stopping}).fit(
                X[train], y[train], groups=g[train], X_val=X[val],
                y_val=y[val], groups_val=g[val])
    # without early stopping, dart trains every round
    ranker = PApKBoostRanker(**dart).fit(X, y, groups=g)
    assert ranker.n_iter_ == ranker.best_iteration_ == SMALL["n_estimators"]


@pytest.mark.parametrize("spelling", ["DART", "Dart"])
def test_dart_refusal_quotes_the_users_spelling(spelling):
    X, y, g = make_data(4, n_groups=30)
    with pytest.raises(ValueError, match=f"early_stopping=True cannot be used "
                                         f"with boosting_type='{spelling}'"):
        PApKBoostRanker(**{**SMALL, "k": 4, "boosting_type": spelling,
                           "early_stopping": True}).fit(X, y, groups=g)


def test_early_stopping_auto_does_not_stop_dart():
    rng = np.random.default_rng(0)
    n = 10_001  # "auto" is on above 10,000 rows, but not for dart
    y = (rng.random(n) < 0.3).astype(int)
    X = rng.normal(size=(n, 2)) + y[:, None]
    g = np.arange(n) % 50
    params = dict(k=5, n_estimators=3, random_state=0, early_stopping="auto")
    gbdt = PApKBoostRanker(**params).fit(X, y, groups=g)
    assert gbdt.validation_scores_ is not None
    dart = PApKBoostRanker(boosting_type="dart", **params).fit(X, y, groups=g)
    assert dart.validation_scores_ is None and dart.evals_result_ is None
    assert dart.n_iter_ == dart.best_iteration_ == 3
    assert dart.booster_.params["boosting_type"] == "dart"


@pytest.mark.parametrize("early_stopping", [True, "auto"])
def test_early_stopping_on_given_validation_rows(early_stopping):
    # X_val, y_val, groups_val (as HistGradientBoostingClassifier's X_val):
    # every row of X trains, the given rows are scored after every tree
    X, y, g = make_data(18, n_groups=30)
    Xv, yv, gv = make_data(19, n_groups=12)
    params = dict(k=4, n_estimators=60, learning_rate=0.3, num_leaves=15,
                  min_child_samples=2, n_iter_no_change=4, tol=0.0,
                  random_state=5)
    ranker = PApKBoostRanker(early_stopping=early_stopping, **params).fit(
        X, y, groups=g, X_val=Xv, y_val=yv, groups_val=gv + 100)
    n = ranker.n_iter_
    booster = every_round(ranker, X, y, g)  # trained on every row of X
    expected = [papk_score(yv, booster.predict(
        Xv, num_iteration=i, raw_score=True), k=4, groups=gv)
        for i in range(1, n + 1)]
    np.testing.assert_allclose(ranker.validation_scores_, expected, rtol=1e-12)
    assert ranker.best_iteration_ == int(np.argmax(expected)) + 1
    assert n == replay_stopping(expected, 0.0, 4) < 60
    # given rows are the rows that a fit on every row would hold out
    train, val = within_group_split(y, g, sizes=(0.7, 0.3), random_state=5)
    held = PApKBoostRanker(early_stopping=True, validation_fraction=0.3,
                           **params).fit(X, y, groups=g)
    given = PApKBoostRanker(early_stopping=True, **params).fit(
        X[train], y[train], groups=g[train], X_val=X[val], y_val=y[val],
        groups_val=g[val])
    np.testing.assert_array_equal(given.validation_scores_,
                                  held.validation_scores_)
    assert given.booster_.model_to_string() == held.booster_.model_to_string()


@pytest.mark.parametrize("given, params, match", [
    (dict(X_val="X"), {}, "X_val and y_val go together"),
    (dict(y_val="y"), {}, "X_val and y_val go together"),
    (dict(X_val="X", y_val="y"), {}, "groups_val holds the group"),
    (dict(X_val="X", y_val="y", groups_val="g"), dict(early_stopping=False),
     "early_stopping=False"),
    (dict(X_val="X", y_val="two", groups_val="g"), {}, "y_val"),
    (dict(X_val="X", y_val="zeros", groups_val="g"), {},
     "No group of the validation rows"),
    (dict(X_val="X3", y_val="y", groups_val="g"), {},
     "X_val has 3 features, but PApKBoostRanker is expecting 4"),
])
def test_bad_validation_rows_are_refused(given, params, match):
    X, y, g = make_data(20, n_groups=10)
    values = {"X": X, "y": y, "g": g, "X3": X[:, :3], "two": y + 1,
              "zeros": np.zeros_like(y)}
    with pytest.raises(ValueError, match=match):
        PApKBoostRanker(k=4, **{**SMALL, "early_stopping": True, **params}).fit(
            X, y, groups=g, **{name: values[v] for name, v in given.items()})


def test_validation_rows_of_other_columns_are_named_x_val():
    # the checks of the fit's columns, made on X_val, name X_val
    X, y, g = make_data(20, n_groups=10)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    frame["a"] = pd.Categorical((X[:, 0] > 0).astype(int))
    ranker = PApKBoostRanker(k=4, **{**SMALL, "early_stopping": True})
    fit = partial(ranker.fit, frame, y, groups=g, y_val=y, groups_val=g)
    codes = frame.assign(a=frame["a"].cat.codes)
    with pytest.raises(ValueError, match=r"^X_val has 0 categorical .*"
                                         r"\(X_val.astype\(dtypes_of_fit\)\)"):
        fit(X_val=codes)
    with pytest.raises(ValueError, match="^The feature names of X_val should "
                                         "match those"):
        fit(X_val=frame[["b", "a", "c", "d"]])
    numbers = frame.assign(a=frame["a"].cat.codes.astype(float))
    with pytest.warns(UserWarning, match="^X_val does not have valid feature "
                                         "names") as record:
        ranker.fit(numbers, y, groups=g, X_val=numbers.to_numpy(), y_val=y,
                   groups_val=g)
    assert record[0].filename == __file__
    with pytest.warns(UserWarning, match="^X_val has feature names, but "
                                         "PApKBoostRanker was fitted without"):
        ranker.fit(numbers.to_numpy(), y, groups=g, X_val=numbers, y_val=y,
                   groups_val=g)
    # checked, not recorded: nothing else is caught or renamed on the way
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        ranker.fit(numbers, y, groups=g, X_val=numbers, y_val=y, groups_val=g)
    assert not [r for r in record if "X_val" in str(r.message)]


def test_early_stopping_auto_turns_on_above_10000_rows():
    rng = np.random.default_rng(0)
    for n, on in ((10_000, False), (10_001, True)):
        y = (rng.random(n) < 0.3).astype(int)
        X = rng.normal(size=(n, 2)) + y[:, None]
        g = np.arange(n) % 50
        ranker = PApKBoostRanker(k=5, n_estimators=3, random_state=0,
                                 early_stopping="auto").fit(X, y, groups=g)
        assert (ranker.validation_scores_ is not None) == on
    no = PApKBoostRanker(k=5, n_estimators=3, early_stopping=False).fit(X, y, groups=g)
    assert no.validation_scores_ is None
    assert no.best_iteration_ == no.n_iter_ == 3


def test_early_stopping_auto_is_off_where_no_split_can_hold_out_both_labels():
    # one relevant row per user: "auto" turned on above 10,000 rows and the
    # fit failed, naming early_stopping=True and validation_fraction
    rng = np.random.default_rng(0)
    g = np.repeat(np.arange(3400), 3)
    y = np.tile([1, 0, 0], 3400)
    X = rng.normal(size=(g.size, 3)) + y[:, None]
    with pytest.warns(UserWarning, match="^Early stopping is off for this fit: "
                                         "early stopping needs a group .* no "
                                         "validation_fraction can .* set "
                                         "early_stopping=False"):
        auto = PApKBoostRanker(k=2, n_estimators=3, random_state=0,
                               early_stopping="auto").fit(X, y, groups=g)
    off = PApKBoostRanker(k=2, n_estimators=3, random_state=0).fit(X, y, groups=g)
    assert auto.validation_scores_ is None and auto.n_iter_ == 3
    np.testing.assert_array_equal(auto.predict(X), off.predict(X))
    for ranker in (PApKBoostRanker(k=2, n_estimators=3, early_stopping=True),
                   PApKRanker(k=2, early_stopping=True)):
        with pytest.raises(ValueError, match="every group has at most one "
                                             "relevant or one irrelevant row, so "
                                             "no validation_fraction can"):
            ranker.fit(X, y, groups=g)
    # two rows of each label: a larger validation_fraction holds out both,
    # and the warning says so
    g = np.repeat(np.arange(2200), 5)
    y = np.tile([1, 1, 0, 0, 0], 2200)
    X = rng.normal(size=(g.size, 3)) + y[:, None]
    with pytest.warns(UserWarning, match="^Early stopping is off for this fit: "
                                         "early_stopping='auto' with validation_"
                                         "fraction=0.1 leaves no group .*; raise "
                                         "validation_fraction or set "
                                         "early_stopping=False"):
        PApKBoostRanker(k=2, n_estimators=3, early_stopping="auto").fit(
            X, y, groups=g)
    ranker = PApKBoostRanker(k=2, n_estimators=3, early_stopping="auto",
                             validation_fraction=0.3).fit(X, y, groups=g)
    assert ranker.validation_scores_ is not None


def test_early_stopping_needs_validation_rows_of_both_labels():
    X = np.arange(12, dtype=float)[:, None]
    y = np.array([1, 0, 0, 0] * 3)
    g = np.repeat([0, 1, 2], 4)
    with pytest.raises(ValueError, match="validation_fraction"):
        PApKBoostRanker(early_stopping=True, validation_fraction=0.2).fit(
            X, y, groups=g)


def test_verbose_prints_the_validation_scores(capsys):
    X, y, g = make_data(18)
    PApKBoostRanker(k=4, n_estimators=3, early_stopping=True,
                    validation_fraction=0.3, random_state=0, verbose=1).fit(
        X, y, groups=g)
    out = capsys.readouterr().out
    assert "Fitting PApKBoostRanker" in out
    assert len(re.findall(r"validation micro-pAp@4: [0-9.]+", out)) == 3


# --------------------------------------------------------------------------
# Search, pickling, optional dependency


@pytest.mark.parametrize("cv", [GroupKFold(n_splits=3),
                                WithinGroupKFold(n_splits=3)])
def test_grid_search_under_routing(cv):
    X, y, g = make_data(19, n_groups=30)
    grid = {"learning_rate": [0.05, 0.3], "num_leaves": [3, 7],
            "temperature": [0.5, 5.0]}
    base = PApKBoostRanker(k=4, objective="soft_papk", n_estimators=8,
                           min_child_samples=3, early_stopping=False)
    # WithinGroupKFold's test folds may hold a group's rows of one label only:
    # zero_division=np.nan leaves such a group out of the average, as the
    # default does, without the UndefinedMetricWarning
    scorer = micro_papk_scorer(k=4, zero_division=np.nan)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(base, grid, scoring=scorer, cv=cv,
                              error_score="raise").fit(X, y, groups=g)
        # the first candidate's first fold, by hand
        train, test = next(cv.split(X, y, g))
    first = search.cv_results_["params"][0]
    model = sklearn.clone(base).set_params(**first).fit(X[train], y[train],
                                                        groups=g[train])
    expected = papk_score(y[test], model.decision_function(X[test]), k=4,
                          groups=g[test], zero_division=np.nan)
    assert search.cv_results_["split0_test_score"][0] == pytest.approx(expected)
    assert search.best_params_ in search.cv_results_["params"]
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))


@pytest.mark.parametrize("dask", [False, True])
@pytest.mark.parametrize("name, fix", [
    ("group", "pass the group of every row to fit as groups="),
    ("eval_set", "give the validation rows to fit as X_val, y_val and "
                 "groups_val"),
    ("eval_group", "give the validation rows to fit as X_val"),
    ("eval_metric", "give the validation rows to fit as X_val"),
    ("eval_at", r"give it to the constructor \(PApKBoostRanker\(eval_at=\.\.\.\)"
                r"\) or to set_params"),
    ("categorical_feature", r"give it to the constructor \(PApKBoostRanker\("
                            r"categorical_feature=\.\.\.\)\)"),
    ("callbacks", r"drop it \(early_stopping=True stops"),
    ("init_score", "every fit starts from zero scores: drop it"),
    ("init_model", "every fit starts from zero scores: drop it"),
    ("feature_name", "the feature names are those of a DataFrame.s columns"),
])
def test_lgbmranker_fit_arguments_given_to_fit_say_what_to_do(name, fix, dask):
    # Python's bare "got an unexpected keyword argument" before
    X, y, g = make_data(22)
    cls = PApKBoostRanker
    if dask:
        pytest.importorskip("dask")
        import skpapk.dask

        cls = skpapk.dask.PApKBoostRanker
    with pytest.raises(TypeError, match=f"{cls.__name__}.fit got {name}=.*, an "
                                        f"argument of LGBMRanker.fit that it "
                                        f"does not take; {fix}"):
        cls(k=3, **SMALL).fit(X, y, groups=g, **{name: [1]})


def test_other_keywords_given_to_fit_are_refused():
    X, y, g = make_data(22)
    ranker = PApKBoostRanker(k=3, **SMALL)
    with pytest.raises(TypeError, match=r"fit got max_bin=63, a LightGBM "
                                        r"parameter: give it to the constructor "
                                        r"\(PApKBoostRanker\(max_bin=63\)\) or "
                                        r"to set_params"):
        ranker.fit(X, y, groups=g, max_bin=63)
    # an alias of the ranker's own parameter: its name (the constructor
    # would warn about the alias)
    for alias, own in [("num_threads", "n_jobs"), ("eta", "learning_rate"),
                       ("min_data_in_leaf", "min_child_samples")]:
        with pytest.raises(TypeError, match=rf"give it to the constructor as "
                                            rf"{own} \(PApKBoostRanker\({own}=1\)"):
            ranker.fit(X, y, groups=g, **{alias: 1})
    with pytest.raises(TypeError, match=r"fit\(\) got an unexpected keyword "
                                        r"argument 'grups'; it takes X, y, "
                                        r"groups, sample_weight, X_val"):
        ranker.fit(X, y, grups=g)
    assert not hasattr(ranker, "booster_")


@pytest.mark.parametrize("key, value, advice", [
    # the ranker's own names (LightGBM's aliases of early_stopping_round)
    # were renamed to each other: early_stopping=10, n_iter_no_change=True
    ("early_stopping", True, r"its parameter: give it to the constructor "
                             r"\(PApKBoostRanker\(early_stopping=True\)\)"),
    ("n_iter_no_change", 3, r"its parameter: give it to the constructor "
                            r"\(PApKBoostRanker\(n_iter_no_change=3\)\)"),
    # LightGBM's own early stopping, which the constructor refuses
    ("early_stopping_rounds", 10, r"a setting of LightGBM's own early "
                                  r"stopping, .* PApKBoostRanker\(early_"
                                  r"stopping=True, n_iter_no_change=ROUNDS"),
    ("early_stopping_round", 10, "a setting of LightGBM's own early stopping"),
    ("first_metric_only", True, "a setting of LightGBM's own early stopping"),
    ("early_stopping_min_delta", 0.1, r".*tol=MIN_DELTA\)\.$"),
])
def test_early_stopping_keywords_given_to_fit_get_advice_that_works(
        key, value, advice):
    X, y, g = make_data(22)
    ranker = PApKBoostRanker(k=3, **SMALL)
    with pytest.raises(TypeError, match=rf"fit got {key}={value}, {advice}"):
        ranker.fit(X, y, groups=g, **{key: value})
    if key in ranker.get_params():  # the advice, followed, fits
        ranker.set_params(**{key: value}).fit(X, y, groups=g)


def test_fits_signature_is_what_metadata_routing_reads():
    # the keywords refused by fit are not metadata to route
    X, y, g = make_data(23, n_groups=30)
    w = np.random.default_rng(0).random(y.size)
    base = PApKBoostRanker(k=4, random_state=0, **SMALL)
    with sklearn.config_context(enable_metadata_routing=True):
        routing = sklearn.utils.metadata_routing.get_routing_for_object(base)
        assert set(routing.fit.requests) == {"groups", "sample_weight",
                                             "X_val", "y_val", "groups_val"}
        ranker = sklearn.clone(base).set_fit_request(groups=True,
                                                     sample_weight=True)
        search = GridSearchCV(ranker, {"num_leaves": [3, 7]}, cv=GroupKFold(2),
                              scoring=micro_papk_scorer(k=4),
                              error_score="raise").fit(X, y, groups=g,
                                                       sample_weight=w)
    expected = sklearn.clone(base).set_params(**search.best_params_).fit(
        X, y, groups=g, sample_weight=w)
    np.testing.assert_array_equal(search.best_estimator_.predict(X),
                                  expected.predict(X))


def test_weights_routed_to_fit_in_a_search_as_the_user_guide_says():
    # set_fit_request(sample_weight=True) alone raised UnsetMetadataPassedError
    # in a search scored by the ranker's own score: the guide now adds
    # set_score_request(sample_weight=False) (a default of False broke
    # Pipeline.score, which passes sample_weight=None on)
    X, y, g = make_data(23, n_groups=30)
    w = np.random.default_rng(0).random(y.size) + 0.5
    with sklearn.config_context(enable_metadata_routing=True):
        ranker = PApKBoostRanker(k=4, random_state=0, **SMALL).set_fit_request(
            sample_weight=True).set_score_request(sample_weight=False)
        search = GridSearchCV(ranker, {"num_leaves": [3, 7]}, cv=GroupKFold(2),
                              error_score="raise").fit(X, y, groups=g,
                                                       sample_weight=w)
        assert np.isfinite(search.best_score_)
        # asked for, they reach score, which refuses them by name
        ranker.set_score_request(sample_weight=True)
        with pytest.raises(ValueError, match="score does not support sample_weight"):
            GridSearchCV(ranker, {"num_leaves": [3]}, cv=GroupKFold(2),
                         error_score="raise").fit(X, y, groups=g, sample_weight=w)


def test_weights_in_a_search_without_routing_get_advice_that_works():
    # without routing, scikit-learn passes fit's weights on to score when
    # scoring=None: the refusal said set_score_request, which needs routing
    X, y, g = make_data(24, n_groups=30)
    w = np.random.default_rng(1).random(y.size) + 0.5
    ranker = PApKBoostRanker(k=4, random_state=0, **SMALL)
    with pytest.warns(MissingGroupsWarning), pytest.raises(
            ValueError, match=r"without metadata routing passes the sample_weight "
                              r"of fit to score when scoring=None: turn routing on"):
        GridSearchCV(ranker, {"num_leaves": [3]}, cv=GroupKFold(2),
                     error_score="raise").fit(X, y, groups=g, sample_weight=w)
    with sklearn.config_context(enable_metadata_routing=True):  # the advice
        advised = sklearn.clone(ranker).set_fit_request(
            groups=True, sample_weight=True).set_score_request(
                groups=True, sample_weight=False)
        search = GridSearchCV(advised, {"num_leaves": [3]}, cv=GroupKFold(2),
                              error_score="raise").fit(X, y, groups=g,
                                                       sample_weight=w)
    assert np.isfinite(search.best_score_)


def test_weights_in_a_pipeline_search_scored_by_the_scorer_as_the_guide_says():
    X, y, g = make_data(25, n_groups=30)
    w = np.random.default_rng(2).random(y.size) + 0.5
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(
            StandardScaler().set_fit_request(sample_weight=False),
            PApKBoostRanker(k=4, random_state=0, **SMALL).set_fit_request(
                groups=True, sample_weight=True))
        search = GridSearchCV(pipe, {"papkboostranker__num_leaves": [3]},
                              scoring=micro_papk_scorer(4), cv=GroupKFold(2),
                              error_score="raise").fit(X, y, groups=g,
                                                       sample_weight=w)
    assert np.isfinite(search.best_score_)


def test_search_without_routing_warns_that_groups_are_lost():
    X, y, g = make_data(20)
    with pytest.warns(MissingGroupsWarning):
        GridSearchCV(PApKBoostRanker(k=4, **SMALL), {"num_leaves": [3]},
                     cv=GroupKFold(n_splits=2)).fit(X, y, groups=g)


def test_pickle_round_trip():
    X, y, g = make_data(21)
    ranker = PApKBoostRanker(k=4, objective="soft_papk", **SMALL).fit(X, y, groups=g)
    copy = pickle.loads(pickle.dumps(ranker))
    np.testing.assert_array_equal(copy.decision_function(X),
                                  ranker.decision_function(X))
    assert copy.score(X, y, groups=g) == ranker.score(X, y, groups=g)
    # the model string keeps the trees decision_function uses
    booster = lgb.Booster(model_str=ranker.booster_.model_to_string())
    np.testing.assert_allclose(booster.predict(X, raw_score=True),
                               ranker.decision_function(X), rtol=1e-12)


def test_fit_warns_nothing_on_ordinary_data():
    X, y, g = make_data(23)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PApKBoostRanker(k=4, **SMALL).fit(X, y, groups=g).score(X, y, groups=g)


@pytest.mark.parametrize("verbose", [-1, 0])
def test_verbose_minus_one_is_silent_as_in_lightgbm(verbose, capsys):
    X, y, g = make_data(0)
    PApKBoostRanker(k=3, verbose=verbose, **SMALL).fit(X, y, groups=g)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_verbose_below_minus_one_is_refused():
    X, y, g = make_data(0)
    with pytest.raises(InvalidParameterError, match="verbose"):
        PApKBoostRanker(verbose=-2).fit(X, y, groups=g)


def test_feature_importances_count_the_splits_of_the_trees_used():
    X, y, g = make_data(0)
    ranker = PApKBoostRanker(k=3, random_state=0, **SMALL).fit(X, y, groups=g)
    importances = ranker.feature_importances_
    assert importances.shape == (X.shape[1],)
    n_splits = sum(tree["num_leaves"] - 1 for tree in
                   ranker.booster_.dump_model()["tree_info"][:ranker.best_iteration_])
    assert importances.sum() == n_splits
    assert not hasattr(PApKBoostRanker(), "feature_importances_")
    # importance_type="gain", LightGBM's keyword: the splits' total gain
    ranker.set_params(importance_type="gain")
    gains = [0.0] * X.shape[1]
    for tree in ranker.booster_.dump_model()["tree_info"][:ranker.best_iteration_]:
        nodes = [tree["tree_structure"]]
        while nodes:
            node = nodes.pop()
            if "split_feature" in node:
                gains[node["split_feature"]] += node["split_gain"]
                nodes += [node["left_child"], node["right_child"]]
    np.testing.assert_allclose(ranker.feature_importances_, gains, rtol=1e-6)
    ranker.set_params(importance_type="cover")
    with pytest.raises(ValueError, match="'split' or 'gain'"):
        ranker.feature_importances_


def test_importance_type_none_is_lightgbms_default():
    # None stands for "not given", as for LightGBM's other parameters
    X, y, g = make_data(0)
    ranker = PApKBoostRanker(k=3, random_state=0, importance_type=None,
                             **SMALL).fit(X, y, groups=g)
    np.testing.assert_array_equal(ranker.feature_importances_,
                                  ranker.set_params(importance_type="split")
                                  .feature_importances_)


def test_other_lightgbm_parameters_pass_through():
    X, y, g = make_data(5)
    params = dict(n_estimators=10, learning_rate=0.1, num_leaves=6,
                  min_child_samples=4)
    ranker = PApKBoostRanker(k=3, random_state=0, n_jobs=1, max_bin=7,
                             min_split_gain=0.01, **params)
    assert ranker.get_params()["max_bin"] == 7
    clone = sklearn.base.clone(ranker)
    assert clone.get_params() == ranker.get_params()
    ranker.fit(X, y, groups=g)
    assert ranker.booster_.params["max_bin"] == 7
    # the same trees as LightGBM's LGBMRanker given the same parameters
    Xs, ys, _, sizes = sorted_by_group(X, y, g)
    lgbm = lgb.LGBMRanker(objective=LightGBMObjective(k=3), random_state=0,
                          n_jobs=1, verbose=-1, max_bin=7, min_split_gain=0.01,
                          **params).fit(Xs, ys, group=sizes)
    np.testing.assert_allclose(ranker.decision_function(X), lgbm.predict(X),
                               rtol=1e-12, atol=1e-12)
    default = PApKBoostRanker(k=3, random_state=0, n_jobs=1, **params)
    assert not np.allclose(default.fit(X, y, groups=g).decision_function(X),
                           ranker.decision_function(X))
    ranker.set_params(max_bin=15, k=4)
    assert ranker.max_bin == 15 and ranker.k == 4
    assert ranker.get_params()["max_bin"] == 15


class _WithOwnParameter(PApKBoostRanker):
    """A subclass with a parameter of its own, set after the parent's."""

    def __init__(self, *, k=10, extra=1.0, **params):
        super().__init__(k=k, **params)
        self.extra = extra


def test_a_subclass_with_its_own_parameter_is_an_estimator():
    # the parent's __init__ must not read the subclass's parameters
    ranker = _WithOwnParameter(k=3, extra=2.0, n_estimators=5, max_bin=7)
    params = ranker.get_params()
    assert params["extra"] == 2.0 and params["max_bin"] == 7
    assert sklearn.base.clone(ranker).get_params() == params
    assert ranker.set_params(extra=3.0).extra == 3.0


def test_early_stopping_is_lightgbms_callback_on_a_micro_papk_metric():
    X, y, g = make_data(2, n_groups=40)
    ranker = PApKBoostRanker(k=3, n_estimators=200, early_stopping=True,
                             n_iter_no_change=5, tol=1e-3, random_state=0,
                             **{key: value for key, value in SMALL.items()
                                if key not in ("n_estimators", "early_stopping")})
    ranker.fit(X, y, groups=g)
    assert ranker.best_iteration_ < ranker.n_iter_ < 200
    # the trees after the best round dropped, as LGBMRanker.fit does
    assert ranker.booster_.current_iteration() == ranker.best_iteration_
    assert ranker.n_estimators_ == ranker.best_iteration_
    assert ranker.booster_.best_iteration == ranker.best_iteration_
    scores = ranker.validation_scores_
    assert scores.shape == (ranker.n_iter_,)
    assert scores[ranker.best_iteration_ - 1] == scores.max()


def test_pandas_category_columns_are_lgbmrankers_categories():
    # a DataFrame's category columns: LGBMRanker's categorical splits (the
    # same trees on lambdarank), the fit's categories used to code the
    # DataFrames scored later, whatever their own category order
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(3)
    n_groups, size = 60, 20
    g = np.repeat(np.arange(n_groups), size)
    genre = rng.choice(["jazz", "pop", "rap", "folk", "punk"], g.shape[0])
    y = (np.isin(genre, ["rap", "folk"]) & (rng.random(g.shape[0]) < 0.8)).astype(int)
    X = pd.DataFrame({"genre": pd.Categorical(genre),
                      "era": pd.Categorical(rng.choice(["old", "new"], g.shape[0]),
                                            categories=["old", "new"], ordered=True),
                      "x": rng.normal(size=g.shape[0])})
    params = dict(k=3, objective="lambdarank", **SMALL)
    ranker = PApKBoostRanker(**params).fit(X, y, groups=g)
    reference = lgb.LGBMRanker(**ranker._lightgbm_params(0)).fit(
        X, y.astype(float), group=np.full(n_groups, size))
    scores = ranker.predict(X)
    np.testing.assert_allclose(scores, reference.predict(X, raw_score=True),
                               rtol=1e-12)
    assert ranker.booster_.pandas_categorical == \
        reference.booster_.pandas_categorical
    assert '"decision_type": "=="' in str(ranker.booster_.dump_model()).replace(
        "'", '"')
    assert list(ranker.feature_names_in_) == ["genre", "era", "x"]
    # the same rows with the categories listed in another order, and a
    # category never seen in the fit (missing)
    shuffled = X.assign(genre=X["genre"].cat.reorder_categories(
        ["rap", "punk", "pop", "jazz", "folk"]))
    np.testing.assert_array_equal(ranker.predict(shuffled), scores)
    unseen = X.iloc[:3].assign(genre=pd.Categorical(["ska"] * 3))
    np.testing.assert_allclose(
        ranker.predict(unseen),
        ranker.predict(X.iloc[:3].assign(genre=pd.Categorical([None] * 3))))
    ours = PApKBoostRanker(k=3, **SMALL).fit(X, y, groups=g)
    assert papk_score(y, ours.predict(X), k=3, groups=g) > 0.9
    with pytest.raises(ValueError, match="fitted on 2"):
        ranker.predict(X.assign(genre=genre))
    plain = PApKBoostRanker(**params).fit(X.assign(genre=0.0), y, groups=g)
    with pytest.raises(ValueError, match="2 categorical .* fitted on 1"):
        plain.predict(X)
    # as many category columns, but another one: not coded by the wrong list
    moved = X.assign(genre=rng.normal(size=g.shape[0]),
                     x=pd.Categorical(genre))
    with pytest.raises(ValueError, match=r"X's categorical .* are \['era', 'x'\] "
                       r"\(positions \[1, 2\]\), where the ranker was fitted "
                       r"with them at positions \[0, 1\]"):
        ranker.predict(moved)
    with pytest.raises(ValueError, match=r"X_val's categorical .* positions "
                                         r"\[0, 1\]"):
        PApKBoostRanker(**{**params, "early_stopping": True}).fit(
            X, y, groups=g, X_val=moved, y_val=y, groups_val=g)
    # validation rows are coded by the training rows' categories too
    stopped = PApKBoostRanker(**{**params, "early_stopping": True}).fit(
        X, y, groups=g, X_val=shuffled, y_val=y, groups_val=g)
    expected = papk_score(y, stopped.booster_.predict(
        X, num_iteration=1, raw_score=True), k=3, groups=g)
    assert stopped.validation_scores_[0] == pytest.approx(expected, abs=1e-12)


def test_lightgbm_parameters_passed_through_are_checked_by_name():
    # LightGBM ignores an unknown name, and reads an alias instead of the
    # ranker's own parameter, both silently at verbose=0
    X, y, groups = make_data()

    def fit(**params):
        return PApKBoostRanker(k=3, n_estimators=4, **params)
    with pytest.warns(UserWarning, match=r"got lerning_rate=0.5, not a "
                                         r"LightGBM parameter: LightGBM ignores "
                                         r"it \(did you mean learning_rate\?\)"):
        fit(lerning_rate=0.5).fit(X, y, groups=groups)
    # a value LightGBM refuses: an error, not a warning that it is ignored
    # followed by LightGBM's "Unknown type of parameter:lgbm_params"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match=r"got lgbm_params=\{'num_leaves': 5\}, "
                                            r"not a LightGBM parameter, and "
                                            r"LightGBM refuses its value.*not as "
                                            r"one dict"):
            fit(lgbm_params={"num_leaves": 5}).fit(X, y, groups=groups)
    # close to an alias: the ranker's own name (num_leaf was suggested, and
    # then warned about as an alias of num_leaves)
    with pytest.warns(UserWarning, match=r"\(did you mean num_leaves \(LightGBM's "
                                         r"num_leaf\)\?\)"):
        fit(num_leafs=5).fit(X, y, groups=groups)
    # the ranker's own name as it is; LightGBM's rounds are n_iter_no_change
    # (early_stopping and n_iter_no_change are both LightGBM's aliases of it)
    for typo, meant in [("n_iter_no_chang", r"n_iter_no_change"),
                        ("early_stoping_rounds", r"n_iter_no_change \(LightGBM's "
                                                 r"early_stopping_rounds\)"),
                        ("early_stoping_min_delta", r"tol \(LightGBM's "
                                                    r"early_stopping_min_delta\)")]:
        with pytest.warns(UserWarning, match=rf"\(did you mean {meant}\?\)"):
            fit(**{typo: 5}).fit(X, y, groups=groups)
    with pytest.warns(UserWarning, match="got callbacks=.*an argument of "
                                         "LGBMRanker.fit that PApKBoostRanker "
                                         "does not pass on: the ranker drops "
                                         r"it; drop it \(early_stopping=True"):
        fit(callbacks=[]).fit(X, y, groups=groups)
    # what to do instead, for each argument of LGBMRanker.fit
    for name, fix in [("init_score", "every fit starts from zero scores"),
                      ("group", "pass the group of every row to fit as groups="),
                      ("eval_set", "give the validation rows to fit as X_val"),
                      ("feature_name", "the feature names are those of a")]:
        with pytest.warns(UserWarning, match=f"got {name}=.*the ranker drops "
                                             f"it; {fix}") as record:
            fit(**{name: [1]}).fit(X, y, groups=groups)
        assert len(record) == 1  # not handed to LightGBM, which would warn too
    with pytest.warns(UserWarning, match=r"got eval_set=\[\(array\(.{20,60}\.\.\. "
                                         r"\(\d+ characters\), an argument"):
        fit(eval_set=[(X, y)]).fit(X, y, groups=groups)  # its value cut
    with pytest.warns(UserWarning, match="got max_iter=7, LightGBM's alias of "
                                         "n_estimators, which LightGBM then "
                                         "reads instead of n_estimators=4; set "
                                         "n_estimators instead") as record:
        ranker = fit(max_iter=7).fit(X, y, groups=groups)
    assert ranker.n_iter_ == 7 and record[0].filename == __file__
    with warnings.catch_warnings():  # LightGBM's own names: no warning
        warnings.simplefilter("error")
        PApKBoostRanker(k=3, n_estimators=4, max_bin=15, min_data_per_group=5,
                        extra_trees=True).fit(X, y, groups=groups)
        # an alias with the value LightGBM gets anyway (verbose=0 is -1)
        PApKBoostRanker(k=3, n_estimators=4, verbosity=-1, seed=3,
                        random_state=3).fit(X, y, groups=groups)
    # an alias of a key the ranker sets itself is read (LightGBM read the
    # ranker's metric="None" instead of metrics="ndcg")
    ranker = PApKBoostRanker(k=3, n_estimators=4, early_stopping=True,
                             metrics="ndcg", ndcg_at=[2]).fit(X, y, groups=groups)
    assert set(ranker.evals_result_["valid_0"]) == {"micro_papk@3", "ndcg@2"}
    with pytest.raises(ValueError, match="eval_at and ndcg_at are aliases of "
                                         "LightGBM's eval_at; give only one"):
        fit(eval_at=[2], ndcg_at=[5]).fit(X, y, groups=groups)


#: LightGBM's name of each parameter the ranker translates (as its model
#: string shows it), and a value other than the ranker's.
_TRANSLATED = {
    "n_estimators": ("num_iterations", 3), "learning_rate": ("learning_rate", 0.3),
    "num_leaves": ("num_leaves", 5), "min_child_samples": ("min_data_in_leaf", 3),
    "min_child_weight": ("min_sum_hessian_in_leaf", 0.5),
    "subsample": ("bagging_fraction", 0.5), "subsample_freq": ("bagging_freq", 2),
    "colsample_bytree": ("feature_fraction", 0.5),
    "reg_alpha": ("lambda_l1", 0.5), "reg_lambda": ("lambda_l2", 0.5),
    "random_state": ("seed", 3), "n_jobs": ("num_threads", 1),
    "verbose": ("verbosity", 0), "metric": ("metric", "map"),
}


@pytest.mark.parametrize("name, alias", [
    (name, alias) for name in _TRANSLATED for alias in sorted(_aliases(name))])
def test_lightgbm_trains_with_an_alias_of_a_translated_parameter(name, alias):
    # LightGBM's scikit-learn estimators gave their own (default) value
    # precedence over an alias: the ranker's warning said the opposite
    X, y, groups = make_data()
    lightgbm_name, value = _TRANSLATED[name]
    # rows drawn every other round, not every round
    bagged = {"subsample": 0.5} if name == "subsample_freq" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ranker, main = [PApKBoostRanker(**{
            "k": 3, "n_estimators": 4, **bagged, **given}).fit(
                X, y, groups=groups) for given in ({alias: value}, {name: value})]
    model = ranker.booster_.model_to_string()
    assert f"\n[{lightgbm_name}: {value}]\n" in model
    # the trees of the name it stands for (those of an alias of subsample
    # were the default's: subsample_freq stayed 0)
    np.testing.assert_array_equal(ranker.predict(X), main.predict(X))
    # None: not given (LightGBM's default is not read instead of the ranker's)
    plain, none = [PApKBoostRanker(k=3, n_estimators=4, **given).fit(
        X, y, groups=groups).booster_.model_to_string()
        for given in ({}, {alias: None})]
    assert re.search(rf"\n\[{lightgbm_name}: .*\]\n", plain)[0] in none


@pytest.mark.parametrize("alias", sorted(_aliases("subsample")))
def test_an_alias_of_subsample_draws_the_rows_of_every_round(alias):
    X, y, groups = make_data()

    def predict(**params):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # set subsample instead
            return PApKBoostRanker(k=3, n_estimators=5, random_state=0,
                                   **params).fit(X, y, groups=groups).predict(X)

    bagged = predict(**{alias: 0.5})
    np.testing.assert_array_equal(bagged, predict(subsample=0.5))
    assert not np.array_equal(bagged, predict())
    # subsample_freq passed through is LightGBM's, as with subsample
    for freq in ("subsample_freq", "bagging_freq"):
        for every in (0, 2):
            np.testing.assert_array_equal(
                predict(**{alias: 0.5, freq: every}),
                predict(subsample=0.5, **{freq: every}))
        np.testing.assert_array_equal(predict(**{alias: 0.5, freq: None}), bagged)
    np.testing.assert_array_equal(predict(**{alias: 0.5, "subsample_freq": 0}),
                                  predict())


def test_two_aliases_of_a_translated_parameter_are_refused():
    X, y, groups = make_data()
    with pytest.raises(ValueError, match="eta and shrinkage_rate are aliases of "
                                         "LightGBM's learning_rate; give only one"):
        PApKBoostRanker(k=3, n_estimators=4, eta=0.3, shrinkage_rate=0.2).fit(
            X, y, groups=groups)


@pytest.mark.parametrize("alias", ["application", "app", "loss", "objective_type"])
def test_an_alias_of_objective_is_refused(alias):
    X, y, groups = make_data()
    with pytest.raises(ValueError, match=f"{alias}='binary' is LightGBM's alias "
                                         f"of objective.*set objective"):
        PApKBoostRanker(k=3, n_estimators=4, **{alias: "binary"}).fit(
            X, y, groups=groups)


def _categories(seed=0):
    """Rows whose relevance follows a column of 8 integer-coded categories."""
    rng = np.random.default_rng(seed)
    code = rng.integers(0, 8, 600)
    y = (np.isin(code, [0, 2, 5]) ^ (rng.random(600) < 0.1)).astype(int)
    frame = pd.DataFrame({"x": rng.normal(size=600), "e": code})
    return frame, y, np.repeat(np.arange(10), 60)


@pytest.mark.parametrize("given", [
    {"categorical_feature": ["e"]}, {"categorical_feature": "e"},
    {"cat_feature": [1]}, {"categorical_column": 1}])
def test_categorical_feature_by_name_or_position(given):
    # LightGBM's categorical_feature, a fit argument of LGBMRanker, passed
    # through: as a DataFrame's column names too, without LightGBM's warning
    # that it ignores it in the parameters (it did not)
    frame, y, groups = _categories()
    params = dict(k=5, n_estimators=5, min_data_per_group=5)
    reference = lgb.LGBMRanker(
        **PApKBoostRanker(**params)._lightgbm_params(0)).fit(
            frame.to_numpy(), y, group=np.bincount(groups),
            categorical_feature=[1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ranker = PApKBoostRanker(**params, **given).fit(frame, y, groups=groups)
    assert "num_cat=1" in ranker.booster_.model_to_string()
    np.testing.assert_array_equal(ranker.predict(frame),
                                  reference.predict(frame.to_numpy()))
    # with the pandas category columns, which are categorical anyway
    both = PApKBoostRanker(**params, **given).fit(
        frame.assign(x=pd.Categorical(np.where(frame["x"] > 0, "hi", "lo"))),
        y, groups=groups)
    infos = re.search("feature_infos=(.*)", both.booster_.model_to_string())
    assert [info.startswith("[") for info in infos[1].split(" ")] == [False] * 2


@pytest.mark.parametrize("given, message", [
    ({"categorical_feature": ["f"]}, r"holds 'f', which is not the position "
                                     r"\(0 to 1\) of a column of X nor the "
                                     r"name of one"),
    ({"categorical_feature": [2]}, "holds 2, which is not the position"),
    ({"categorical_feature": [True]}, "holds True"),
    ({"categorical_feature": [1], "cat_feature": [1]}, "give only one"),
])
def test_categorical_feature_errors(given, message):
    frame, y, groups = _categories()
    with pytest.raises(ValueError, match=message):
        PApKBoostRanker(k=5, n_estimators=2, **given).fit(frame, y, groups=groups)


@pytest.mark.parametrize("columns, booster_names", [
    (["f-1", "a'b", "x(1)"], ["f-1", "a'b", "x(1)"]),
    # what LightGBM refuses or rewrites, or a model file could not hold
    (["a b", "c", "d"], ["Column_0", "Column_1", "Column_2"]),
    (["a:b", "c", "d"], ["Column_0", "Column_1", "Column_2"]),
    (["größe", "c", "d"], ["Column_0", "Column_1", "Column_2"]),
])
def test_the_booster_has_the_dataframe_names(tmp_path, columns, booster_names):
    from skpapk.io import load_ranker, save_ranker

    X, y, groups = make_data()
    frame = pd.DataFrame(X[:, :3], columns=columns)
    ranker = PApKBoostRanker(k=3, n_estimators=4).fit(frame, y, groups=groups)
    assert ranker.booster_.feature_name() == booster_names
    assert list(ranker.feature_names_in_) == columns
    save_ranker(ranker, tmp_path / "m.json")
    np.testing.assert_array_equal(
        load_ranker(tmp_path / "m.json").decision_function(frame),
        ranker.predict(frame))


def test_lgbmranker_attributes_and_raw_score():
    X, y, groups = make_data()
    plain = PApKBoostRanker(k=3, n_estimators=6).fit(X, y, groups=groups)
    assert plain.n_estimators_ == plain.n_iter_ == 6 and plain.best_score_ == {}
    assert plain.feature_name_ == [f"Column_{j}" for j in range(X.shape[1])]
    stopped = PApKBoostRanker(k=3, n_estimators=30, early_stopping=True,
                              n_iter_no_change=3, metric="ndcg", eval_at=[3])
    stopped.fit(X, y, groups=groups)
    best = stopped.best_iteration_
    assert stopped.best_score_ == {"valid_0": {
        "micro_papk@3": stopped.validation_scores_[best - 1],
        "ndcg@3": stopped.evals_result_["valid_0"]["ndcg@3"][best - 1]}}
    assert stopped.n_estimators_ == best < stopped.n_iter_  # as LGBMRanker's
    for truthy in (True, 1, np.True_):
        np.testing.assert_array_equal(plain.predict(X, raw_score=truthy),
                                      plain.predict(X))
    with pytest.raises(ValueError, match="raw_score=False: PApKBoostRanker."
                                         "predict gives raw scores"):
        plain.predict(X, raw_score=False)


@pytest.mark.parametrize("metric", [None, "auc", "ndcg", ["auc", "MAP"],
                                    "xendcg"])
def test_eval_at_without_a_metric_that_reads_it_warns(metric):
    # (LightGBM user) LGBMRanker computes ndcg@eval_at by default; the ranker
    # sets metric="None", so eval_at alone was ignored without a word
    X, y, groups = make_data()
    extra = {} if metric is None else {"metric": metric}
    ranker = PApKBoostRanker(k=3, n_estimators=4, early_stopping=True,
                             eval_at=[3], **extra)
    reads = metric is not None and metric != "auc"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ranker.fit(X, y, groups=groups)
    said = [w for w in caught if "eval_at=[3], the cut-offs" in str(w.message)]
    assert len(said) == (0 if reads else 1)
    if not reads:
        assert "pass metric='ndcg' (or 'map') too" in str(said[0].message)
    else:
        assert any(name.endswith("@3") for name in ranker.evals_result_["valid_0"])


@pytest.mark.parametrize("alias", ["boosting_type", "boosting"])
def test_random_forest_mode_needs_a_lightgbm_objective(alias):
    # LightGBM failed inside the fit, printing a [Fatal] line at verbose=0
    X, y, groups = make_data()
    ranker = PApKBoostRanker(k=3, n_estimators=3, subsample=0.8, **{alias: "rf"})
    with pytest.raises(ValueError, match=f"{alias}='rf' cannot train objective="
                                         "'pairwise_logistic'.*'lambdarank'"):
        ranker.fit(X, y, groups=groups)
    scores = ranker.set_params(objective="lambdarank").fit(
        X, y, groups=groups).predict(X)
    assert np.unique(scores).shape[0] > 1


@pytest.mark.parametrize("sampling", [{"subsample": 0.5},
                                      {"bagging_fraction": 0.5},
                                      {"subsample": 0.5, "subsample_freq": 0}])
@pytest.mark.parametrize("goss, fix", [
    ({"boosting_type": "goss"}, "boosting_type='gbdt'"),
    ({"boosting": "GOSS"}, "boosting='gbdt'"),
    ({"data_sample_strategy": "goss"}, "data_sample_strategy='bagging'")])
def test_goss_refuses_subsample_below_one(goss, fix, sampling):
    # the ranker's bagging frequency made LightGBM fail ("Cannot use bagging
    # in GOSS"); without it, LGBMRanker ignores subsample there
    X, y, groups = make_data()
    (mode, value), = goss.items()
    name = next(iter(sampling))
    params = dict(n_estimators=3, learning_rate=0.1, num_leaves=6,
                  min_child_samples=4, random_state=0, n_jobs=1, **goss)
    ranker = PApKBoostRanker(k=3, **params, **sampling)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # set subsample instead
        with pytest.raises(ValueError, match=(
                rf"{name}=0.5 cannot be used with {mode}={value!r}: GOSS draws "
                rf"the rows of every round itself \(top_rate, other_rate\).*"
                rf"set {name}=1.0, or {fix}")):
            ranker.fit(X, y, groups=groups)
    # GOSS with every row given: LGBMRanker's trees
    ranker.set_params(**{**dict.fromkeys(sampling), "subsample": 1.0})
    Xs, ys, _, sizes = sorted_by_group(X, y, groups)
    lgbm = lgb.LGBMRanker(objective=LightGBMObjective(k=3), verbose=-1,
                          **params).fit(Xs, ys, group=sizes)
    np.testing.assert_allclose(ranker.fit(X, y, groups=groups).predict(X),
                               lgbm.predict(X), rtol=1e-12, atol=1e-12)


def test_default_threads_follow_the_openmp_limits():
    # as HistGradientBoostingClassifier: one thread in each worker of a
    # parallel search (LightGBM's own None took every physical core there)
    from threadpoolctl import threadpool_limits

    ranker = PApKBoostRanker(k=3)
    assert ranker._lightgbm_params(0)["n_jobs"] >= 1
    with threadpool_limits(limits=1, user_api="openmp"):
        params = ranker._lightgbm_params(0)
        assert params["n_jobs"] == 1 and params["objective"].n_jobs == 1
    assert PApKBoostRanker(k=3, n_jobs=2)._lightgbm_params(0)["n_jobs"] == min(
        2, effective_n_threads(-1))


def test_thread_counts_beyond_the_cores_are_capped():
    # LightGBM crashed the process (a segmentation fault) on n_jobs=10**6
    X, y, groups = make_data()
    ranker = PApKBoostRanker(k=3, n_estimators=2, n_jobs=10**6)
    params = ranker._lightgbm_params(0)
    cores = effective_n_threads(-1)
    assert params["n_jobs"] == cores and params["objective"].n_jobs == cores
    ranker.fit(X, y, groups=groups)
    assert ranker.booster_.params["num_threads"] == cores
    assert np.isfinite(ranker.predict(X, num_threads=10**6)).all()


@pytest.mark.parametrize("alias", ["num_threads", "nthread"])
def test_thread_aliases_passed_through_are_capped(alias):
    # an alias of n_jobs through **kwargs reached LightGBM as given: the
    # crash of n_jobs=10**6 again
    X, y, groups = make_data()
    ranker = PApKBoostRanker(k=3, n_estimators=2, **{alias: 10**6})
    cores = effective_n_threads(-1)
    assert ranker._lightgbm_params(0)["n_jobs"] == cores
    with pytest.warns(UserWarning, match=f"{alias}=1000000, LightGBM's alias"):
        ranker.fit(X, y, groups=groups)
    assert ranker.booster_.params["num_threads"] == cores
    # 0 is LightGBM's default, the OpenMP threads: as None
    zero = PApKBoostRanker(k=3, **{alias: 0})._lightgbm_params(0)["n_jobs"]
    assert zero == PApKBoostRanker(k=3)._lightgbm_params(0)["n_jobs"]


def test_prediction_threads_are_those_of_the_fit(monkeypatch):
    # n_jobs=None is the OpenMP threads in predict too (it was LightGBM's
    # own default there, every core whatever threadpoolctl allows)
    from threadpoolctl import threadpool_limits

    X, y, groups = make_data()
    ranker = PApKBoostRanker(k=3, n_estimators=3).fit(X, y, groups=groups)
    threads, predict = [], ranker.booster_.predict

    def spy(*args, **kwargs):
        threads.append(kwargs["num_threads"])
        return predict(*args, **kwargs)

    monkeypatch.setattr(ranker.booster_, "predict", spy)
    with threadpool_limits(limits=1, user_api="openmp"):
        ranker.decision_function(X)
        ranker.predict(X, pred_leaf=True)
    ranker.set_params(n_jobs=2).decision_function(X)
    assert threads == [1, 1, 2]


@pytest.mark.parametrize("scale", [1e-200, 1e200])
def test_sample_weight_out_of_the_losses_range_is_named(scale):
    # 1e-200 became 0 in LightGBM's float32 and fitted a constant model with
    # two warnings; 1e200 failed in a boosting round naming "weight" and the
    # float32 value 1e+38
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    X = rng.normal(size=(300, 3)) + y[:, None]
    g = np.repeat(np.arange(10), 30)
    with pytest.raises(ValueError, match=re.escape(f"sample_weight holds {scale:g}, ")
                                         + r".*1e-30 to 1e\+30"):
        PApKBoostRanker(n_estimators=3).fit(X, y, groups=g,
                                            sample_weight=np.full(300, scale))


def test_features_lightgbm_reads_as_zero_are_named():
    # X * 1e-100 is not constant, but LightGBM reads |x| < 1e-35 as 0: the
    # warning said only "every feature is constant"
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    X = rng.normal(size=(300, 3)) + y[:, None]
    g = np.repeat(np.arange(10), 30)
    with pytest.warns(UserWarning, match=r"No feature of X can be split on .*"
                                         r"within 1e-35 of 0, which LightGBM "
                                         r"reads as 0"):
        PApKBoostRanker(n_estimators=3).fit(X * 1e-100, y, groups=g)


def test_the_weight_range_is_float32s_and_the_losses_only():
    # LightGBM hands 1e30 back as float32 1.0000000150e30: it was refused
    # mid-training; LightGBM's own objectives do not use skpapk's losses
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    X = rng.normal(size=(300, 3)) + y[:, None]
    g = np.repeat(np.arange(10), 30)
    for weight in (1e30, 9.99999999e29, 1e-30):
        with warnings.catch_warnings():  # 1e-30: under min_child_weight
            warnings.filterwarnings("ignore", "The trees have no split")
            PApKBoostRanker(n_estimators=3).fit(X, y, groups=g,
                                                sample_weight=np.full(300, weight))
    with pytest.raises(ValueError, match=r"holds 1\.0000001e\+30, but"):
        PApKBoostRanker(n_estimators=3).fit(X, y, groups=g,
                                            sample_weight=np.full(300, 1.0000001e30))
    for objective in ("binary", "lambdarank", "rank_xendcg"):
        PApKBoostRanker(n_estimators=3, objective=objective).fit(
            X, y, groups=g, sample_weight=np.full(300, 1e31))


@pytest.mark.parametrize("weight", [np.array(["1", "1", "1", "1"]),
                                    np.array(["1", 2, 3, 4], dtype=object)])
def test_objective_refuses_text_weights(weight):
    # parsed as numbers, where surrogate_loss refuses them
    with pytest.raises(TypeError, match="weight holds text"):
        LightGBMObjective()(np.array([1, 0, 1, 0]), np.zeros(4), weight, [2, 2])


def test_fit_takes_groups_and_sample_weight_by_name_only():
    # LGBMRanker.fit's third positional argument is sample_weight: fit(X, y,
    # w) fitted one "user" per distinct weight, silently
    X, y, groups = make_data(n_groups=10)
    w = np.where(np.arange(len(y)) % 2, 1.0, 2.0)
    with pytest.raises(TypeError, match="positional"):
        PApKBoostRanker(n_estimators=2, n_jobs=1).fit(X, y, w)
    with pytest.raises(TypeError, match="positional"):
        PApKBoostRanker(n_estimators=2, n_jobs=1).fit(X, y, groups, w)


@pytest.mark.parametrize("to_input", [np.asarray, sp.csr_matrix,
                                      lambda a: a.tolist()])
def test_scoring_an_array_after_a_fit_on_categories_says_to_pass_a_dataframe(
        to_input):
    # the message said "give every feature the dtype it had in fit
    # (X.astype(dtypes_of_fit))", which an array cannot do
    X, y, g = make_data(20, n_groups=10)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    frame["a"] = pd.Categorical((X[:, 0] > 0).astype(int))
    ranker = PApKBoostRanker(k=4, **SMALL).fit(frame, y, groups=g)
    codes = frame.assign(a=frame["a"].cat.codes.astype(float)).to_numpy()
    with pytest.raises(ValueError, match=r"^X is not a pandas DataFrame, but "
                                         r"the ranker was fitted on one with 1 "
                                         r"categorical"):
        ranker.predict(to_input(codes))


def test_a_user_without_pairs_has_no_gradient_but_shapes_the_trees():
    # as the Notes say (the attribute said only "zero gradients", which read
    # as inert): its rows stay in LightGBM's data and the objective's scale
    X, y, groups = make_data()
    extra = np.arange(10)
    Xa, ya = np.r_[X, X[extra]], np.r_[y, np.zeros(10, dtype=y.dtype)]
    ga = np.r_[groups, np.full(10, groups.max() + 1)]
    params = dict(k=3, n_estimators=10, n_jobs=1, random_state=0)
    with_user = PApKBoostRanker(**params).fit(Xa, ya, groups=ga)
    without = PApKBoostRanker(**params).fit(X, y, groups=groups)
    assert with_user.n_groups_skipped_ == without.n_groups_skipped_ + 1
    assert not np.allclose(with_user.decision_function(X),
                           without.decision_function(X))
    objective = LightGBMObjective(k=3)
    Xs, ys, gs, sizes = sorted_by_group(Xa, ya, ga)
    grad, hess = objective(ys, np.linspace(-1, 1, ys.shape[0]), None, sizes)
    assert not grad[gs == ga.max()].any() and not hess[gs == ga.max()].any()
