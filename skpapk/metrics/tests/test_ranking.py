"""Tests of the per-group metrics against the paper's Table 1 and brute force.

The oracles below loop over groups and over explicit pairs / subsets on
purpose: they follow the set definitions, not the library's algorithm.
"""

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

from skpapk.metrics import (
    auc_at_k_score,
    mean_average_precision_score,
    ndcg_at_k_score,
    papk_score,
    partial_auc_score,
    precision_at_k_score,
    recall_at_k_score,
    roc_auc_score,
)

# --------------------------------------------------------------------------
# Brute-force oracles (one group at a time, from the definitions)
# --------------------------------------------------------------------------


def _pair_value(p, n, ties):
    if p > n:
        return 1.0
    if p == n and ties == "half":
        return 0.5
    return 0.0


def _pairs_gain(pos, neg, ties):
    """Fraction of correctly ordered (pos, neg) pairs; None when no pair."""
    if len(pos) == 0 or len(neg) == 0:
        return None
    return float(np.mean([_pair_value(p, n, ties) for p in pos for n in neg]))


def _split(y, s):
    y, s = np.asarray(y, bool), np.asarray(s, float)
    return sorted(s[y], reverse=True), sorted(s[~y], reverse=True)


def oracle_papk(y, s, k, ties):
    """Top min(k, n+) positives against top min(k, n-) negatives."""
    pos, neg = _split(y, s)
    return _pairs_gain(pos[:k], neg[:k], ties)


def oracle_papk_theorem1(y, s, k):
    """Theorem 1: risk = max over k'-subsets of negatives of min over
    beta-subsets of positives of the AUC risk between them (tie = error)."""
    y, s = np.asarray(y, bool), np.asarray(s, float)
    pos, neg = s[y], s[~y]
    if len(pos) == 0 or len(neg) == 0:
        return None
    beta, kp = min(k, len(pos)), min(k, len(neg))
    risk = -np.inf
    for z_neg in itertools.combinations(neg, kp):
        inner = np.inf
        for z_pos in itertools.combinations(pos, beta):
            errors = sum(1.0 for p in z_pos for n in z_neg if p <= n)
            inner = min(inner, errors / (beta * kp))
        risk = max(risk, inner)
    return 1.0 - risk


def oracle_partial_auc(y, s, k, ties):
    pos, neg = _split(y, s)
    return _pairs_gain(pos, neg[:k], ties)


def oracle_auc(y, s, ties):
    pos, neg = _split(y, s)
    return _pairs_gain(pos, neg, ties)


def oracle_auc_at_k(y, s, k, ties):
    y, s = np.asarray(y, bool), np.asarray(s, float)
    top = np.argsort(-s, kind="stable")[:k]
    return oracle_auc(y[top], s[top], ties)


def oracle_precision_at_k(y, s, k, ties):
    """'half': mean over every tie-breaking order; 'error': negatives first."""
    y, s = np.asarray(y, bool), np.asarray(s, float)
    if ties == "error":
        order = sorted(range(len(y)), key=lambda i: (-s[i], y[i]))
        return sum(y[i] for i in order[:k]) / k
    values = []
    for perm in itertools.permutations(range(len(y))):
        tiebreak = np.empty(len(y))
        tiebreak[list(perm)] = np.arange(len(y))
        order = sorted(range(len(y)), key=lambda i: (-s[i], tiebreak[i]))
        values.append(sum(y[i] for i in order[:k]) / k)
    return float(np.mean(values))


def ap_simple(ranked):
    """The average-precision tutorial's ``ap_simple`` (no ties)."""
    pos_cnt, precision_sum = 0, 0.0
    for idx, r in enumerate(ranked):
        if r:
            pos_cnt += 1
            precision_sum += pos_cnt / (idx + 1)
    return float("nan") if pos_cnt == 0 else precision_sum / pos_cnt


def per_group(oracle, y, s, g, *args):
    """Oracle value of every group, in sorted label order (None: undefined)."""
    y, s, g = np.asarray(y), np.asarray(s), np.asarray(g)
    return [oracle(y[g == lab], s[g == lab], *args) for lab in np.unique(g)]


def micro(values):
    defined = [v for v in values if v is not None]
    return float(np.mean(defined)) if defined else float("nan")


def quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return func(*args, **kwargs)


def as_nan(values):
    return np.array([np.nan if v is None else v for v in values], dtype=float)


# --------------------------------------------------------------------------
# The paper's Table 1 (11 items ranked (1)..(11); 5 relevant, 6 irrelevant)
# --------------------------------------------------------------------------

TABLE1 = {
    "f1": [0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0],
    "f2": [1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1],
    "f3": [1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1],
    "f4": [1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0],
    "f5": [1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0],
}
RANK_SCORES = np.arange(11, 0, -1, dtype=float)  # position (1) scores highest


@pytest.mark.parametrize(
    "name, k, expected",
    [("f1", 2, 2 / 4), ("f2", 2, 3 / 4), ("f3", 2, 1.0),
     ("f4", 6, 27 / 30), ("f5", 6, 28 / 30)],
)
@pytest.mark.parametrize("ties", ["half", "error"])
def test_table1_papk(name, k, expected, ties):
    assert papk_score(TABLE1[name], RANK_SCORES, k=k, ties=ties) == pytest.approx(
        expected)


@pytest.mark.parametrize(
    "name, auc, pauc", [("f1", 22 / 30, 2 / 10), ("f2", 21 / 30, 5 / 10),
                        ("f3", 12 / 30, 4 / 10)])
def test_table1_auc_and_partial_auc(name, auc, pauc):
    y = TABLE1[name]
    assert roc_auc_score(y, RANK_SCORES) == pytest.approx(auc)
    assert skm.roc_auc_score(y, RANK_SCORES) == pytest.approx(auc)
    assert partial_auc_score(y, RANK_SCORES, k=2) == pytest.approx(pauc)


@pytest.mark.parametrize("name", ["f4", "f5"])
def test_table1_precision_at_6(name):
    assert precision_at_k_score(TABLE1[name], RANK_SCORES, k=6) == pytest.approx(
        5 / 6)


def test_table1_as_groups():
    """The five columns as five groups: per-group values and the micro mean."""
    y = np.concatenate([TABLE1[f] for f in ("f1", "f2", "f3")])
    s = np.tile(RANK_SCORES, 3)
    g = np.repeat(["f1", "f2", "f3"], 11)
    assert_allclose = np.testing.assert_allclose
    assert_allclose(papk_score(y, s, k=2, groups=g, average=None),
                    [2 / 4, 3 / 4, 1.0])
    assert papk_score(y, s, k=2, groups=g) == pytest.approx((0.5 + 0.75 + 1) / 3)
    # pooled: (2 + 3 + 4) correct pairs of 3 * 4 pairs
    assert papk_score(y, s, k=2, groups=g, average="pooled") == pytest.approx(9 / 12)


# --------------------------------------------------------------------------
# The average-precision tutorial's examples
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ranked, expected",
    [([True], 1.0), ([True] * 10, 1.0), ([True, False], 1.0),
     ([False, True], 0.5), ([False, False, True], 1 / 3),
     ([True, False, True, False, False], (1 + 2 / 3) / 2)],
)
def test_tutorial_average_precision(ranked, expected):
    scores = np.arange(len(ranked), 0, -1)
    assert mean_average_precision_score(ranked, scores, pos_label=True) == (
        pytest.approx(expected))
    assert ap_simple(ranked) == pytest.approx(expected)


def test_average_precision_without_positive_is_undefined():
    with pytest.warns(UndefinedMetricWarning, match="1 of 1 groups"):
        assert np.isnan(mean_average_precision_score([0, 0], [1, 2],
                                                     pos_label=1))


# --------------------------------------------------------------------------
# Property tests against the oracles (hypothesis, tiny inputs with ties)
# --------------------------------------------------------------------------


@st.composite
def ranking_data(draw, max_rows=9, n_groups=3, n_values=4):
    n = draw(st.integers(1, max_rows))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    s = draw(st.lists(st.integers(0, n_values - 1), min_size=n, max_size=n))
    g = draw(st.lists(st.integers(0, n_groups - 1), min_size=n, max_size=n))
    # two labels in y_true so that the positive label is unambiguous
    y = np.array(y)
    if y.min() == y.max():
        y[0] = 1 - y[0]
    return y, np.array(s, dtype=float) / 2.0, np.array(g)


@settings(max_examples=150, deadline=None)
@given(data=ranking_data(), k=st.integers(1, 5),
       ties=st.sampled_from(["half", "error"]))
def test_papk_matches_direct_definition(data, k, ties):
    y, s, g = data
    expected = per_group(oracle_papk, y, s, g, k, ties)
    got = quiet(papk_score, y, s, k=k, groups=g, ties=ties, average=None)
    np.testing.assert_allclose(got, as_nan(expected))
    assert quiet(papk_score, y, s, k=k, groups=g, ties=ties) == pytest.approx(
        micro(expected), nan_ok=True)


@settings(max_examples=150, deadline=None)
@given(data=ranking_data(max_rows=8), k=st.integers(1, 4))
def test_papk_error_ties_matches_theorem1(data, k):
    y, s, g = data
    expected = per_group(oracle_papk_theorem1, y, s, g, k)
    got = quiet(papk_score, y, s, k=k, groups=g, ties="error", average=None)
    np.testing.assert_allclose(got, as_nan(expected))


@settings(max_examples=100, deadline=None)
@given(data=ranking_data(), k=st.integers(1, 5),
       ties=st.sampled_from(["half", "error"]))
def test_partial_auc_and_auc_match_definitions(data, k, ties):
    y, s, g = data
    np.testing.assert_allclose(
        quiet(partial_auc_score, y, s, k=k, groups=g, ties=ties, average=None),
        as_nan(per_group(oracle_partial_auc, y, s, g, k, ties)))
    np.testing.assert_allclose(
        quiet(roc_auc_score, y, s, groups=g, ties=ties, average=None),
        as_nan(per_group(oracle_auc, y, s, g, ties)))


@settings(max_examples=100, deadline=None)
@given(data=ranking_data(), k=st.integers(1, 5),
       ties=st.sampled_from(["half", "error"]))
def test_auc_at_k_matches_definition(data, k, ties):
    y, s, g = data
    np.testing.assert_allclose(
        quiet(auc_at_k_score, y, s, k=k, groups=g, ties=ties, average=None),
        as_nan(per_group(oracle_auc_at_k, y, s, g, k, ties)))


@settings(max_examples=80, deadline=None)
@given(data=ranking_data(max_rows=7, n_groups=2, n_values=3),
       k=st.integers(1, 5), ties=st.sampled_from(["half", "error"]))
def test_precision_at_k_matches_definition(data, k, ties):
    y, s, g = data
    expected = per_group(oracle_precision_at_k, y, s, g, k, ties)
    got = precision_at_k_score(y, s, k=k, groups=g, ties=ties, average=None)
    np.testing.assert_allclose(got, expected)
    assert precision_at_k_score(y, s, k=k, groups=g, ties=ties) == (
        pytest.approx(np.mean(expected)))


@settings(max_examples=150, deadline=None)
@given(data=ranking_data(max_rows=12))
def test_average_precision_matches_sklearn_per_group(data):
    y, s, g = data
    expected = []
    for lab in np.unique(g):
        yy, ss = y[g == lab], s[g == lab]
        if yy.sum() == 0:
            expected.append(np.nan)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected.append(skm.average_precision_score(yy, ss))
    got = quiet(mean_average_precision_score, y, s, groups=g, average=None,
                ties="threshold")
    np.testing.assert_allclose(got, expected)


@settings(max_examples=100, deadline=None)
@given(data=ranking_data(max_rows=10), k=st.integers(1, 5))
def test_papk_is_auc_when_k_covers_the_group(data, k):
    """k >= n+ and k >= n-: pAp@k (ties half) = sklearn's roc_auc_score."""
    y, s, g = data
    for lab in np.unique(g):
        yy, ss = y[g == lab], s[g == lab]
        if 0 < yy.sum() < len(yy) and k >= yy.sum() and k >= len(yy) - yy.sum():
            assert papk_score(yy, ss, k=k) == pytest.approx(
                skm.roc_auc_score(yy, ss))


def test_papk_is_auc_per_group_on_random_data_with_ties():
    rng = np.random.RandomState(0)
    n = 3000
    g = rng.randint(0, 100, size=n)
    y = rng.randint(0, 2, size=n)
    s = rng.randint(0, 5, size=n).astype(float)  # many ties
    expected = [skm.roc_auc_score(y[g == lab], s[g == lab]) for lab in range(100)]
    k = int(np.bincount(g).max())
    np.testing.assert_allclose(papk_score(y, s, k=k, groups=g, average=None),
                               expected)
    np.testing.assert_allclose(roc_auc_score(y, s, groups=g, average=None),
                               expected)


@settings(max_examples=100, deadline=None)
@given(data=ranking_data(max_rows=10), k=st.integers(1, 5), seed=st.integers(0, 99))
def test_invariant_under_monotone_transform_within_groups(data, k, seed):
    """Only the order inside each group matters (ties stay ties)."""
    y, s, g = data
    rng = np.random.RandomState(seed)
    scale = rng.uniform(0.1, 10, size=3)[g]
    shift = rng.uniform(-100, 100, size=3)[g]
    t = np.exp(s) * scale + shift  # strictly increasing within each group
    for metric, kwargs in [(papk_score, {"k": k}), (partial_auc_score, {"k": k}),
                           (roc_auc_score, {}), (precision_at_k_score, {"k": k}),
                           (auc_at_k_score, {"k": k}),
                           (recall_at_k_score, {"k": k}),
                           (ndcg_at_k_score, {"k": k}),
                           (mean_average_precision_score, {})]:
        np.testing.assert_allclose(
            quiet(metric, y, t, groups=g, average=None, **kwargs),
            quiet(metric, y, s, groups=g, average=None, **kwargs),
            err_msg=metric.__name__)


# --------------------------------------------------------------------------
# Conventions: groups, averages, undefined groups
# --------------------------------------------------------------------------

ALL_METRICS = [
    (papk_score, {"k": 2}),
    (partial_auc_score, {"k": 2}),
    (roc_auc_score, {}),
    (auc_at_k_score, {"k": 3}),
    (precision_at_k_score, {"k": 2}),
    (mean_average_precision_score, {}),
    (recall_at_k_score, {"k": 2}),
    (ndcg_at_k_score, {"k": 2}),
]
#: defined unless a group has no relevant item
NEEDS_POSITIVE_ONLY = (mean_average_precision_score, recall_at_k_score,
                       ndcg_at_k_score)


@pytest.mark.parametrize("metric, kwargs", ALL_METRICS)
@pytest.mark.parametrize("average", ["micro", "pooled", None])
def test_groups_none_is_one_group(metric, kwargs, average):
    rng = np.random.RandomState(1)
    y, s = rng.randint(0, 2, 30), rng.normal(size=30)
    one = metric(y, s, average=average, **kwargs)
    same = metric(y, s, groups=np.full(30, "u"), average=average, **kwargs)
    np.testing.assert_allclose(one, same)


@pytest.mark.parametrize("metric, kwargs", ALL_METRICS)
def test_average_none_follows_sorted_group_labels(metric, kwargs):
    rng = np.random.RandomState(2)
    y, s = rng.randint(0, 2, 40), rng.normal(size=40)
    g = np.array(["c", "a", "b", "d"])[rng.randint(0, 4, 40)]
    y[:8] = [0, 1, 0, 1, 0, 1, 0, 1]
    g[:8] = ["a", "a", "b", "b", "c", "c", "d", "d"]
    got = quiet(metric, y, s, groups=g, average=None, **kwargs)
    for i, lab in enumerate(["a", "b", "c", "d"]):
        np.testing.assert_allclose(
            got[i], quiet(metric, y[g == lab], s[g == lab], **kwargs))


def test_pooled_differs_from_micro_as_expected():
    # group 0: 1 pos, 1 neg, wrong order -> 0/1; group 1: 2 pos, 2 neg, right
    y = [1, 0, 1, 1, 0, 0]
    s = [0, 1, 4, 3, 2, 1]
    g = [0, 0, 1, 1, 1, 1]
    assert papk_score(y, s, k=2, groups=g) == pytest.approx((0 + 1) / 2)
    assert papk_score(y, s, k=2, groups=g, average="pooled") == pytest.approx(
        4 / 5)
    assert roc_auc_score(y, s, groups=g, average="pooled") == pytest.approx(4 / 5)
    assert mean_average_precision_score(y, s, groups=g) == pytest.approx(
        (0.5 + 1) / 2)
    # pooled AP: (1/2 + 1 + 1) / 3 relevant items
    assert mean_average_precision_score(y, s, groups=g, average="pooled") == (
        pytest.approx(2.5 / 3))


@pytest.mark.parametrize(
    "metric, kwargs", [m for m in ALL_METRICS if m[0] is not precision_at_k_score])
def test_undefined_groups_left_out_with_count(metric, kwargs):
    # groups 1 and 2 have no relevant item, group 3 only relevant items
    y = [1, 0, 0, 0, 0, 1, 1]
    s = [2, 1, 3, 4, 5, 6, 7]
    g = [0, 0, 1, 1, 2, 3, 3]
    n_undefined = 2 if metric in NEEDS_POSITIVE_ONLY else 3
    with pytest.warns(UndefinedMetricWarning,
                      match=f"undefined for {n_undefined} of 4 groups.*left out"):
        value = metric(y, s, groups=g, **kwargs)
    assert value == pytest.approx(1.0)
    with pytest.warns(UndefinedMetricWarning, match=f"{n_undefined} of 4"):
        per = metric(y, s, groups=g, average=None, **kwargs)
    assert np.isnan(per).sum() == n_undefined


@pytest.mark.parametrize("metric, kwargs", ALL_METRICS)
def test_all_groups_undefined_gives_nan(metric, kwargs):
    if metric is precision_at_k_score:  # always defined: 0 without relevant
        assert metric([0, 0], [1, 2], pos_label=1, **kwargs) == 0.0
        return
    with pytest.warns(UndefinedMetricWarning, match="left out"):
        assert np.isnan(metric([0, 0, 0], [1, 2, 3], groups=[0, 1, 1],
                               pos_label=1, **kwargs))


def test_auc_at_k_undefined_when_top_k_is_one_class():
    y = [1, 1, 0, 0]
    s = [4, 3, 2, 1]
    with pytest.warns(UndefinedMetricWarning, match="top k"):
        assert np.isnan(auc_at_k_score(y, s, k=2))
    assert auc_at_k_score(y, s, k=3) == 1.0


@pytest.mark.parametrize("ties", ["half", "error"])
def test_auc_at_k_boundary_ties_follow_row_order(ties):
    # the 2nd and 3rd rows tie at the k-th score: row order keeps row 1
    assert auc_at_k_score([1, 0, 1], [2, 1, 1], k=2, ties=ties) == 1.0
    with pytest.warns(UndefinedMetricWarning, match="1 of 1"):
        assert np.isnan(auc_at_k_score([1, 1, 0], [2, 1, 1], k=2, ties=ties))
    # with all three rows the tied pair counts 1/2 (or 0)
    assert auc_at_k_score([1, 1, 0], [2, 1, 1], k=3, ties=ties) == (
        pytest.approx(3 / 4 if ties == "half" else 1 / 2))


def test_auc_at_k_boundary_ties_random():
    # one of the two tied rows enters the top 2: with the irrelevant one the
    # AUC is 1, with the relevant one it is undefined; the mean over the
    # orders where it is defined is 1
    assert auc_at_k_score([1, 0, 1], [2, 1, 1], k=2) == 1.0
    assert auc_at_k_score([1, 1, 0], [2, 1, 1], k=2) == 1.0
    assert auc_at_k_score([1, 1, 0], [2, 1, 1], k=3) == pytest.approx(3 / 4)


def test_precision_at_k_denominator_is_k_for_short_groups():
    assert precision_at_k_score([1, 1], [1, 2], k=5) == pytest.approx(2 / 5)


def test_papk_with_small_groups_uses_k_prime():
    # n- = 1 < k = 3: beta = 2 positives against the single negative
    assert papk_score([1, 1, 0], [3, 1, 2], k=3) == pytest.approx(1 / 2)


# --------------------------------------------------------------------------
# Input validation
# --------------------------------------------------------------------------


@pytest.mark.parametrize("metric, kwargs", ALL_METRICS)
@pytest.mark.parametrize(
    "y, s, g, error, match",
    [
        ([0, 1, 1], [0.1, 0.2], None, ValueError, "y_score"),
        ([0, 1, 2], [0.1, 0.2, 0.3], None, ValueError, "Only binary"),
        ([0, 1, 1], [0.1, np.nan, 0.3], None, ValueError,
         "y_score contains NaN. Every row needs a finite score"),
        ([0, 1, 1], [0.1, np.inf, 0.3], None, ValueError,
         "y_score contains infinity.* Every row needs a finite score"),
        # numbers stored as objects (DataFrame.to_numpy() of mixed columns)
        (np.array([0, 1, 1], dtype=object), [0.1, 0.2, 0.3], None, ValueError,
         r"y_true is an array of dtype object.*np.asarray\(y_true, dtype=int\)"),
        (np.array([0, 1, None], dtype=object), [0.1, 0.2, 0.3], None, ValueError,
         r"y_true has missing labels \(None, NaN or pandas' NA\)"),
        (np.array([0, 1, np.nan], dtype=object), [0.1, 0.2, 0.3], None,
         ValueError, r"y_true has missing labels \(None, NaN or pandas' NA\)"),
        ([0, 1, 1], [0.1, 0.2, 0.3], [0, 1], ValueError, "groups"),
        ([0, 1, 1], ["a", "b", "c"], None, TypeError, "y_score"),
        ([0.5, 1.5, 2.5, 3.0], [1, 2, 3, 4], None, ValueError, "y_true"),
        # not one value per row: a str is not split into characters
        ([0, 1, 1], [0.1, 0.2, 0.3], "abc", TypeError,
         "groups must be array-like.* got the str 'abc'; pass e.g. groups="),
        ([0, 1, 1], [0.1, 0.2, 0.3], b"abc", TypeError, "groups .* bytes"),
        ([0, 1, 1], [0.1, 0.2, 0.3], 0, TypeError, "groups .* the int 0"),
        ([0, 1, 1], [0.1, 0.2, 0.3], {0, 1, 2}, TypeError, "groups .* set"),
        ([0, 1, 1], [0.1, 0.2, 0.3], np.array(0), TypeError, "groups .* ndarray"),
        (1, 1, None, TypeError, "y_true must be array-like.* the int 1"),
        (None, [0.1, 0.2], None, TypeError, "y_true .* got None; pass e.g. y_true="),
        ("01", [0.1, 0.2], None, TypeError, "y_true .* the str '01'"),
        ([0, 1], None, None, TypeError, "y_score .* got None; pass e.g. y_score="),
        ([0, 1], 0.5, None, TypeError, "y_score .* the float 0.5"),
    ],
)
def test_bad_inputs_name_the_argument(metric, kwargs, y, s, g, error, match):
    with pytest.raises(error, match=match):
        metric(y, s, groups=g, **kwargs)


@pytest.mark.parametrize("metric, kwargs", ALL_METRICS)
def test_group_ids_beyond_float_precision_stay_apart(metric, kwargs):
    # a list of ints beyond 2**53 and floats: float64 merged the two groups
    y, s = [1, 0, 1, 0], [0.9, 0.1, 0.1, 0.9]
    got = metric(y, s, groups=[2**53 + 1, 2**53 + 1, 2**53, 2.0**53],
                 average=None, **kwargs)
    np.testing.assert_array_equal(
        got, metric(y, s, groups=[1, 1, 0, 0], average=None, **kwargs))


@pytest.mark.parametrize("metric, kwargs", ALL_METRICS)
def test_long_double_scores_keep_their_order(metric, kwargs):
    # scores that float64 would merge: the cuts at the k-th score are exact
    s = 1 + np.arange(6, dtype=np.longdouble)[::-1] * np.longdouble(2) ** -60
    if s[0] == s[1]:  # pragma: no cover - a platform whose longdouble is float64
        pytest.skip("np.longdouble is float64 here")
    y = [0, 1, 0, 1, 1, 0]
    g = [0, 0, 0, 1, 1, 1]
    expected = metric(y, np.arange(6.0)[::-1], groups=g, **kwargs)
    assert metric(y, s, groups=g, **kwargs) == pytest.approx(expected)


@pytest.mark.parametrize(
    "metric", [papk_score, partial_auc_score, auc_at_k_score, precision_at_k_score,
               recall_at_k_score, ndcg_at_k_score])
@pytest.mark.parametrize("k, error", [(0, ValueError), (-1, ValueError),
                                      (2.5, TypeError), (True, TypeError),
                                      ("3", TypeError)])
def test_bad_k(metric, k, error):
    with pytest.raises(error, match="k must be a positive integer"):
        metric([0, 1], [0.1, 0.2], k=k)


@pytest.mark.parametrize("metric, kwargs", ALL_METRICS)
def test_bad_average(metric, kwargs):
    with pytest.raises(ValueError, match="average must be"):
        metric([0, 1], [0.1, 0.2], average="macro", **kwargs)


@pytest.mark.parametrize("metric, kwargs",
                         ALL_METRICS)
@pytest.mark.parametrize("ties", ["bogus", None, "", ["random"]])
def test_bad_ties(metric, kwargs, ties):
    # None was taken, and gave another rule than the default (half, error)
    with pytest.raises(ValueError, match="ties must be one of 'random'"):
        metric([0, 1], [0.1, 0.2], ties=ties, **kwargs)


@pytest.mark.parametrize("metric, kwargs", ALL_METRICS)
def test_string_labels_and_pos_label(metric, kwargs):
    y_num = np.array([1, 0, 1, 0, 0, 1])
    s = np.array([0.9, 0.8, 0.3, 0.4, 0.1, 0.7])
    y_str = np.where(y_num == 1, "yes", "no")
    expected = metric(y_num, s, **kwargs)
    with pytest.raises(ValueError, match=r"labels 'no' and 'yes', which are not "
                       r"numbers: say which one is relevant with pos_label='no' "
                       r"or pos_label='yes'"):
        metric(y_str, s, **kwargs)  # words are never compared
    assert metric(y_str, s, pos_label="yes", **kwargs) == pytest.approx(expected)
    flipped = np.where(y_num == 1, "a", "b")  # the greater label is irrelevant
    assert metric(flipped, s, pos_label="a", **kwargs) == pytest.approx(expected)
    with pytest.raises(ValueError, match="pos_label"):
        metric(y_str, s, pos_label="maybe", **kwargs)


def _rectools_style_pap(ranked, k):
    """pAp@k as RecTools' PAP computes it from a ranked list (no ties):
    each of the top min(n+, k) relevant items gains k minus the number of
    irrelevant items above it (at most k counted), over min(n+, k) * k."""
    gain, n_neg_above, n_pos_seen = 0, 0, 0
    for relevant in ranked:
        if relevant:
            n_pos_seen += 1
            if n_pos_seen <= k and n_neg_above < k:
                gain += k - n_neg_above
        else:
            n_neg_above += 1
    return gain / (min(n_pos_seen, k) * k)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("k", [1, 3, 8])
def test_agrees_with_rectools_formula_when_k_le_n_neg(seed, k):
    rng = np.random.RandomState(seed)
    n = 30
    y = rng.rand(n) < 0.3
    y[:2] = [True, False]
    if (~y).sum() < k:
        pytest.skip("needs at least k irrelevant items")
    s = rng.permutation(n).astype(float)  # no ties
    ranked = y[np.argsort(-s)]
    assert papk_score(y, s, k=k, pos_label=True) == pytest.approx(
        _rectools_style_pap(ranked, k))


@pytest.mark.parametrize("metric, kwargs", ALL_METRICS)
def test_empty_input_is_an_error(metric, kwargs):
    with pytest.raises(ValueError, match="y_true is empty"):
        metric([], [], **kwargs)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_integer_scores_beyond_float64_precision_are_not_tied(dtype):
    # e.g. nanosecond timestamps as a recency score: neighbours 1 ns apart
    # were merged into ties by a float64 conversion (AUC 0.5, not 1)
    rng = np.random.default_rng(0)
    base = dtype(np.iinfo(dtype).max // 2 + np.iinfo(dtype).max // 4)
    scores = base + rng.permutation(40).astype(dtype)
    y = (rng.random(40) < 0.3).astype(int)
    groups = np.repeat([0, 1], 20)
    ranks = np.argsort(np.argsort(scores)).astype(np.float64)  # same order
    for metric in (papk_score, partial_auc_score, auc_at_k_score):
        assert metric(y, scores, k=3, groups=groups) == metric(
            y, ranks, k=3, groups=groups)
    assert roc_auc_score(y, scores) == skm.roc_auc_score(y, scores)
    assert roc_auc_score([1, 0], np.array([2**53 + 1, 2**53])) == 1.0


def test_two_column_inputs_are_not_told_to_take_the_first_column():
    # "pass a single column, e.g. y_score[:, 0]": for predict_proba's output
    # that is the irrelevant class, and the ranking came out reversed
    from sklearn.linear_model import LogisticRegression

    rng = np.random.RandomState(0)
    X = rng.randn(200, 2)
    y = (X[:, 0] > 0).astype(int)
    groups = np.repeat(np.arange(10), 20)
    proba = LogisticRegression().fit(X, y).predict_proba(X)
    with pytest.raises(ValueError, match=r"relevant class's column of "
                                         r"predict_proba\(X\) \(its last, "
                                         r"\[:, -1\], for 0/1 labels\), not "
                                         r"the first") as info:
        papk_score(y, proba, k=3, groups=groups)
    assert "[:, 0]" not in str(info.value)
    assert papk_score(y, proba[:, -1], k=3, groups=groups) == 1.0
    with pytest.raises(ValueError, match=r"y_true must be 1-d .*; pass the one "
                                         r"column that holds y_true\.$"):
        papk_score(np.eye(2)[y], proba[:, -1], k=3, groups=groups)
