"""``zero_division``: what a group where the metric is undefined counts as.

The default, ``"warn"``, leaves such groups out with an
``UndefinedMetricWarning``; ``np.nan`` leaves them out silently; a number is
their value. ranx and pytrec_eval score a user without a relevant item 0:
``zero_division=0.0`` reproduces them, checked on a two-user example worked
out by hand.
"""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning

from skpapk.metrics import (
    auc_at_k_score,
    expected_papk_score,
    expected_partial_auc_score,
    mean_average_precision_score,
    micro_papk_scorer,
    ndcg_at_k_score,
    papk_score,
    papk_scorer,
    partial_auc_score,
    precision_at_k_score,
    recall_at_k_score,
    roc_auc_score,
)

# user "a": relevant items ranked 1st and 3rd of 4; user "b": no relevant item
Y = np.array([1, 0, 1, 0, 0, 0, 0])
S = np.array([4.0, 3.0, 2.0, 1.0, 3.0, 2.0, 1.0])
G = np.array(["a", "a", "a", "a", "b", "b", "b"])

#: By hand, user "a" at k = 2 (ranx / pytrec_eval's definitions):
#: NDCG@2 = 1 / (1 + 1/log2(3)); recall@2 = 1/2; AP = (1/1 + 2/3) / 2;
#: P@2 = 1/2; user "b" scores 0 in all of them.
NDCG_A = 1.0 / (1.0 + 1.0 / np.log2(3.0))
HAND = [
    (ndcg_at_k_score, {"k": 2}, NDCG_A),
    (recall_at_k_score, {"k": 2}, 0.5),
    (mean_average_precision_score, {}, (1.0 + 2.0 / 3.0) / 2.0),
]

#: Every per-group metric whose groups can be undefined (prec@k never is).
PER_GROUP = [
    (papk_score, {"k": 2}), (partial_auc_score, {"k": 2}), (roc_auc_score, {}),
    (auc_at_k_score, {"k": 2}), (recall_at_k_score, {"k": 2}),
    (ndcg_at_k_score, {"k": 2}), (mean_average_precision_score, {}),
]
EXPECTED = [(expected_papk_score, {"k": 2}), (expected_partial_auc_score, {"k": 2})]


@pytest.mark.parametrize("metric, kwargs, value_a", HAND)
def test_zero_division_0_is_ranx_and_pytrec_evals_convention(metric, kwargs, value_a):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning once the user chose
        assert metric(Y, S, groups=G, zero_division=0.0, **kwargs) == \
            pytest.approx((value_a + 0.0) / 2, abs=1e-15)
        assert metric(Y, S, groups=G, zero_division=1.0, **kwargs) == \
            pytest.approx((value_a + 1.0) / 2, abs=1e-15)
        assert metric(Y, S, groups=G, zero_division=np.nan, **kwargs) == \
            pytest.approx(value_a, abs=1e-15)
        np.testing.assert_allclose(
            metric(Y, S, groups=G, zero_division=0.0, average=None, **kwargs),
            [value_a, 0.0], atol=1e-15)
    # the default is unchanged: left out, with a warning that names the option
    with pytest.warns(UndefinedMetricWarning, match=r"1 of 2 groups .*left out "
                      r"of the average\. Pass zero_division=0\.0"):
        assert metric(Y, S, groups=G, **kwargs) == pytest.approx(value_a)


def test_precision_at_k_needs_no_zero_division():
    # P@2: user "a" 1/2, user "b" 0/2 -- defined for every group, as in ranx
    assert precision_at_k_score(Y, S, k=2, groups=G) == 0.25


def test_papk_by_hand():
    # user "a": top 2 relevant (4, 2) against top 2 irrelevant (3, 1): 3 of 4
    assert papk_score(Y, S, k=2, groups=G, zero_division=0.0) == 0.375
    np.testing.assert_array_equal(
        papk_score(Y, S, k=2, groups=G, average=None, zero_division=0.5),
        [0.75, 0.5])
    # pooled: the undefined user has no pairs and weighs nothing
    assert papk_score(Y, S, k=2, groups=G, average="pooled",
                      zero_division=0.0) == 0.75
    # no defined group at all: NaN, or zero_division when it is a number
    assert papk_score([0, 0], [1, 2], k=1, average="pooled",
                      zero_division=0.0) == 0.0
    assert papk_score([0, 0], [1, 2], k=1, zero_division=1.0) == 1.0
    assert np.isnan(papk_score([0, 0], [1, 2], k=1, zero_division=np.nan))


@pytest.mark.parametrize("zero_division", [0.0, 0.25, 1.0])
@pytest.mark.parametrize("metric, kwargs", PER_GROUP + EXPECTED)
def test_undefined_groups_count_as_zero_division(metric, kwargs, zero_division):
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(6), 5)
    y = (rng.random(30) < 0.4).astype(int)
    y[groups == 0] = 0  # no relevant item
    y[groups == 1] = 1  # no irrelevant item
    scores = rng.normal(size=30).round(1)  # some ties
    args = (y,) if metric in (expected_papk_score, expected_partial_auc_score) \
        else (y, scores)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        per_group = metric(*args, groups=groups, average=None, **kwargs)
    assert np.isnan(per_group).any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        filled = metric(*args, groups=groups, average=None,
                        zero_division=zero_division, **kwargs)
        mean = metric(*args, groups=groups, zero_division=zero_division, **kwargs)
        left_out = metric(*args, groups=groups, zero_division=np.nan, **kwargs)
    np.testing.assert_array_equal(
        filled, np.where(np.isnan(per_group), zero_division, per_group))
    assert mean == pytest.approx(filled.mean(), rel=1e-12)
    assert left_out == pytest.approx(np.nanmean(per_group), rel=1e-12)


@pytest.mark.parametrize("bad", ["zero", 2.0, -0.5, True, None, "nan"])
@pytest.mark.parametrize("metric, kwargs", PER_GROUP + EXPECTED)
def test_bad_zero_division_is_named(metric, kwargs, bad):
    args = ([0, 1],) if metric in (expected_papk_score, expected_partial_auc_score) \
        else ([0, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"zero_division must be 'warn'.*got "):
        metric(*args, zero_division=bad, **kwargs)


def test_scorers_take_zero_division():
    from sklearn.dummy import DummyRegressor

    X = np.zeros((7, 1))
    model = DummyRegressor().fit(X, S)  # predicts one value: all ties
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(papk_scorer(2)(model, X[4:], Y[4:]))
    assert papk_scorer(2, zero_division=0.0)(model, X[4:], Y[4:]) == 0.0
    scorer = micro_papk_scorer(2, zero_division=0.0)
    assert repr(scorer) == ("micro_papk_scorer(k=2, ties='random', "
                            "average='micro', zero_division=0.0)")
    expected = papk_score(Y, model.predict(X), k=2, groups=G, zero_division=0.0)
    assert scorer(model, X, Y, groups=G) == expected
    with pytest.raises(ValueError, match="zero_division must be"):
        micro_papk_scorer(2, zero_division="0")
