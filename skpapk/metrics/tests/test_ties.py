"""The tie rules, against brute force over every tie-breaking order.

``ties="random"`` must be the exact mean of the metric over all orders of
the tied rows (each tie block permuted independently, every order equally
likely). The oracle enumerates those orders on tiny inputs and scores each
strict order from the set definitions, one group at a time.
"""

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

from skpapk.metrics import (
    auc_at_k_score,
    expected_average_precision,
    expected_papk,
    expected_papk_score,
    expected_partial_auc_score,
    expected_precision_at_k_score,
    mean_average_precision_score,
    ndcg_at_k_score,
    papk_score,
    partial_auc_score,
    precision_at_k_score,
    recall_at_k_score,
    roc_auc_score,
)
from skpapk.metrics._ties import expected_correct_pairs
from skpapk.utils._groups import ragged_range

# --------------------------------------------------------------------------
# Oracles on one strict ranking: ``ranked`` is the labels, first place first
# --------------------------------------------------------------------------


def _pairs(pos_places, neg_places):
    if not pos_places or not neg_places:
        return None
    return float(np.mean([p < n for p in pos_places for n in neg_places]))


def _places(ranked):
    pos = [i for i, r in enumerate(ranked) if r]
    neg = [i for i, r in enumerate(ranked) if not r]
    return pos, neg


def strict_papk(ranked, k):
    pos, neg = _places(ranked)
    return _pairs(pos[:k], neg[:k])


def strict_partial_auc(ranked, k):
    pos, neg = _places(ranked)
    return _pairs(pos, neg[:k])


def strict_auc(ranked):
    return _pairs(*_places(ranked))


def strict_auc_at_k(ranked, k):
    return _pairs(*_places(ranked[:k]))


def strict_precision(ranked, k):
    return sum(ranked[:k]) / k


def strict_recall(ranked, k):
    return sum(ranked[:k]) / sum(ranked) if sum(ranked) else None


def strict_ndcg(ranked, k):
    n_pos = sum(ranked)
    if n_pos == 0:
        return None
    dcg = sum(1 / math.log2(i + 2) for i, r in enumerate(ranked[:k]) if r)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(k, n_pos)))
    return dcg / ideal


def strict_ap(ranked):
    """The average-precision tutorial's ``ap_simple``."""
    hits, total = 0, 0.0
    for place, r in enumerate(ranked):
        if r:
            hits += 1
            total += hits / (place + 1)
    return total / hits if hits else None


def tie_orders(s):
    """Every order of the rows consistent with decreasing ``s``."""
    s = np.asarray(s, dtype=float)
    blocks = [np.flatnonzero(s == v) for v in sorted(set(s), reverse=True)]
    for parts in itertools.product(*(itertools.permutations(b) for b in blocks)):
        yield np.concatenate(parts).astype(int)


def random_rule(strict, y, s, *args):
    """Mean of ``strict`` over the tie-breaking orders where it is defined."""
    y = np.asarray(y, dtype=bool)
    values = [strict(list(y[order]), *args) for order in tie_orders(s)]
    values = [v for v in values if v is not None]
    return float(np.mean(values)) if values else None


def error_rule(strict, y, s, *args):
    """``strict`` on the order that puts tied irrelevant rows first."""
    y = np.asarray(y, dtype=bool)
    order = sorted(range(len(y)), key=lambda i: (-s[i], y[i]))
    return strict(list(y[order]), *args)


def per_group(rule, strict, y, s, g, *args):
    y, s, g = np.asarray(y), np.asarray(s, dtype=float), np.asarray(g)
    values = [rule(strict, y[g == lab], s[g == lab], *args)
              for lab in np.unique(g)]
    return np.array([np.nan if v is None else v for v in values])


def quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return func(*args, **kwargs)


@st.composite
def tied_data(draw, max_rows=7, n_groups=2, n_values=3):
    n = draw(st.integers(1, max_rows))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    s = draw(st.lists(st.integers(0, n_values - 1), min_size=n, max_size=n))
    g = draw(st.lists(st.integers(0, n_groups - 1), min_size=n, max_size=n))
    if y.min() == y.max():  # two labels, so that the relevant one is known
        y[0] = 1 - y[0]
    return y, np.array(s, dtype=float), np.array(g)


# metric, its strict oracle, whether it takes k
METRICS = [
    (papk_score, strict_papk, True),
    (partial_auc_score, strict_partial_auc, True),
    (roc_auc_score, strict_auc, False),
    (auc_at_k_score, strict_auc_at_k, True),
    (precision_at_k_score, strict_precision, True),
    (recall_at_k_score, strict_recall, True),
    (ndcg_at_k_score, strict_ndcg, True),
    (mean_average_precision_score, strict_ap, False),
]
IDS = [m[0].__name__ for m in METRICS]


@pytest.mark.parametrize("metric, strict, uses_k", METRICS, ids=IDS)
@settings(max_examples=60, deadline=None)
@given(data=tied_data(), k=st.integers(1, 5))
def test_random_ties_is_the_mean_over_all_tie_breaking_orders(
        metric, strict, uses_k, data, k):
    y, s, g = data
    args, kwargs = ((k,), {"k": k}) if uses_k else ((), {})
    expected = per_group(random_rule, strict, y, s, g, *args)
    got = quiet(metric, y, s, groups=g, average=None, **kwargs)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)
    # the default is "random"
    np.testing.assert_allclose(
        quiet(metric, y, s, groups=g, average=None, ties="random", **kwargs),
        got)
    micro = np.nanmean(expected) if np.isfinite(expected).any() else np.nan
    assert quiet(metric, y, s, groups=g, **kwargs) == pytest.approx(
        micro, nan_ok=True)


@pytest.mark.parametrize("metric, strict, uses_k",
                         [m for m in METRICS if m[0] is not auc_at_k_score],
                         ids=[i for i in IDS if i != "auc_at_k_score"])
@settings(max_examples=60, deadline=None)
@given(data=tied_data(max_rows=9, n_groups=3, n_values=4), k=st.integers(1, 5))
def test_error_ties_puts_irrelevant_tied_items_first(metric, strict, uses_k,
                                                     data, k):
    y, s, g = data
    args, kwargs = ((k,), {"k": k}) if uses_k else ((), {})
    expected = per_group(error_rule, strict, y, s, g, *args)
    got = quiet(metric, y, s, groups=g, average=None, ties="error", **kwargs)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(data=tied_data(max_rows=6, n_groups=1), k=st.integers(1, 5))
def test_random_pooled_is_expected_pairs_over_expected_pairs(data, k):
    """One group: pAp@k's pair count is fixed, so pooled = micro; AUC@k's
    pooled is E[correct pairs] / E[pairs], both over all orders."""
    y, s, _ = data
    assert quiet(papk_score, y, s, k=k, average="pooled") == pytest.approx(
        quiet(papk_score, y, s, k=k), nan_ok=True)
    num = den = 0.0
    n_orders = 0
    for order in tie_orders(s):
        pos, neg = _places(list(y[order].astype(bool))[:k])
        num += sum(p < n for p in pos for n in neg)
        den += len(pos) * len(neg)
        n_orders += 1
    expected = num / den if den else np.nan
    assert quiet(auc_at_k_score, y, s, k=k, average="pooled") == pytest.approx(
        expected, nan_ok=True)


# --------------------------------------------------------------------------
# How "random" relates to the older rules
# --------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(data=tied_data(max_rows=9, n_groups=3, n_values=4), k=st.integers(1, 5))
def test_random_equals_half_for_auc_and_prec_at_k(data, k):
    y, s, g = data
    np.testing.assert_allclose(
        quiet(roc_auc_score, y, s, groups=g, average=None),
        quiet(roc_auc_score, y, s, groups=g, average=None, ties="half"))
    np.testing.assert_allclose(
        precision_at_k_score(y, s, k=k, groups=g, average=None),
        precision_at_k_score(y, s, k=k, groups=g, average=None, ties="half"))


@settings(max_examples=100, deadline=None)
@given(data=tied_data(max_rows=9, n_groups=3, n_values=4), k=st.integers(1, 5))
def test_random_lies_between_error_and_the_best_order(data, k):
    y, s, g = data
    for metric in (papk_score, partial_auc_score, ndcg_at_k_score,
                   recall_at_k_score, mean_average_precision_score):
        kwargs = {} if metric is mean_average_precision_score else {"k": k}
        low = quiet(metric, y, s, groups=g, average=None, ties="error", **kwargs)
        mid = quiet(metric, y, s, groups=g, average=None, **kwargs)
        # relevant tied items first: the best order
        best = quiet(metric, y, s + 0.25 * y, groups=g, average=None, **kwargs)
        ok = np.isfinite(mid)
        assert np.all(low[ok] <= mid[ok] + 1e-12), metric.__name__
        assert np.all(mid[ok] <= best[ok] + 1e-12), metric.__name__


def test_papk_half_can_be_off_either_way():
    # all tied, 1 relevant vs 3 irrelevant, k = 1: half 1/2, random 1/4
    assert papk_score([1, 0, 0, 0], [0, 0, 0, 0], k=1, ties="half") == 0.5
    assert papk_score([1, 0, 0, 0], [0, 0, 0, 0], k=1) == pytest.approx(0.25)
    # all tied, 2 relevant vs 1 irrelevant, k = 1: the first relevant item
    # beats the irrelevant one with probability 2/3 > 1/2
    assert papk_score([1, 1, 0], [0, 0, 0], k=1, ties="half") == 0.5
    assert papk_score([1, 1, 0], [0, 0, 0], k=1) == pytest.approx(2 / 3)


def test_ndcg_random_is_sklearn_ndcg_with_tie_averaging():
    """sklearn's ndcg_score averages the gains over tied places by default
    (ignore_ties=False); it gives 0 where we leave a group out."""
    rng = np.random.RandomState(0)
    n_groups = 40
    g = rng.randint(0, n_groups, size=600)
    y = (rng.rand(600) < 0.3).astype(int)
    s = rng.randint(0, 4, size=600).astype(float)  # many ties
    for k in (1, 3, 10, 50):
        got = quiet(ndcg_at_k_score, y, s, k=k, groups=g, average=None)
        for lab in range(n_groups):
            yy, ss = y[g == lab], s[g == lab]
            if yy.sum() == 0 or len(yy) < 2:
                continue
            expected = skm.ndcg_score(yy[None, :], ss[None, :], k=k)
            assert got[lab] == pytest.approx(expected, rel=1e-12), (k, lab)


# --------------------------------------------------------------------------
# A constant scorer is a random ranking
# --------------------------------------------------------------------------


def _groups_data(seed=0, n_groups=30):
    rng = np.random.RandomState(seed)
    sizes = rng.randint(1, 40, size=n_groups)
    g = np.repeat(np.arange(n_groups), sizes)
    y = (rng.rand(g.shape[0]) < rng.uniform(0.05, 0.6, n_groups)[g]).astype(int)
    y[:2] = [0, 1]
    return y, g


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k", [1, 2, 5, 20])
def test_constant_scorer_gets_the_random_ranking_expectation(seed, k):
    y, g = _groups_data(seed)
    const = np.full(y.shape[0], 3.5)
    for average in ("micro", "pooled", None):
        np.testing.assert_allclose(
            quiet(papk_score, y, const, k=k, groups=g, average=average),
            quiet(expected_papk_score, y, k=k, groups=g, average=average),
            rtol=1e-10)
        np.testing.assert_allclose(
            quiet(partial_auc_score, y, const, k=k, groups=g, average=average),
            quiet(expected_partial_auc_score, y, k=k, groups=g,
                  average=average), rtol=1e-10)
        np.testing.assert_allclose(
            precision_at_k_score(y, const, k=k, groups=g, average=average),
            expected_precision_at_k_score(y, k=k, groups=g, average=average),
            rtol=1e-10)
    n = np.bincount(g)
    n_pos = np.bincount(g, weights=y).astype(int)
    has_pos = n_pos > 0
    np.testing.assert_allclose(
        quiet(mean_average_precision_score, y, const, groups=g,
              average=None)[has_pos],
        expected_average_precision(n[has_pos], n_pos[has_pos]), rtol=1e-10)
    np.testing.assert_allclose(
        quiet(recall_at_k_score, y, const, k=k, groups=g, average=None)[has_pos],
        np.minimum(k, n[has_pos]) / n[has_pos], rtol=1e-10)
    both = has_pos & (n_pos < n)
    np.testing.assert_allclose(
        quiet(roc_auc_score, y, const, groups=g, average=None)[both], 0.5)


def test_constant_scorer_no_longer_beats_a_random_ranking():
    """The regression of issue 14: with "half", a constant scorer got 1/2
    and won model selection against any ranking worse than that."""
    y, g = _groups_data(0, n_groups=100)
    k = 5
    const = np.zeros(y.shape[0])
    random_level = quiet(expected_papk_score, y, k=k, groups=g)
    assert random_level < 0.45
    assert quiet(papk_score, y, const, k=k, groups=g) == pytest.approx(
        random_level)
    assert quiet(papk_score, y, const, k=k, groups=g, ties="half") == 0.5
    # an informative ranking beats it
    rng = np.random.RandomState(1)
    informative = y + rng.normal(scale=1.0, size=y.shape[0])
    assert quiet(papk_score, y, informative, k=k, groups=g) > random_level


def test_big_tie_block_matches_expected_papk():
    """One group, every row tied, sizes where the sums have many terms."""
    for n_pos, n_neg, k in [(30, 200, 25), (3, 500, 40), (100, 100, 100),
                            (60, 7, 10)]:
        y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
        assert papk_score(y, np.zeros_like(y), k=k) == pytest.approx(
            expected_papk(n_pos, n_neg, k), rel=1e-10)


@pytest.mark.parametrize("c, p, q", [
    (10**6, 3 * 10**6, 3 * 10**6),          # a tied block of 6 million rows
    (2_799_999, 1_400_000, 2_800_000),
    (10**9, 10**9, 10**9),
])
def test_expected_correct_pairs_of_huge_blocks_do_not_overflow(c, p, q):
    # p L (2q + 1 - L) passed int64's 9.2e18 and wrapped around: a partial
    # AUC of 1.19 for a constant scorer on 6 million rows
    from fractions import Fraction

    big_l = min(c, q)
    exact = p * c - Fraction(p * big_l * (2 * q + 1 - big_l), 2 * (q + 1))
    got = expected_correct_pairs([c], [p], [q], [p])[0]
    assert 0 <= got <= p * c
    assert got == pytest.approx(float(exact), rel=1e-12)


# --------------------------------------------------------------------------
# Scores without ties: every rule, and the values before "random" existed
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_without_ties_every_rule_gives_the_same_value(seed):
    """Continuous scores of the benchmarks' shape (many users, tens of rows
    each): "random" must give what "half" (the old default) gave."""
    rng = np.random.RandomState(seed)
    n_groups = 300
    g = np.repeat(np.arange(n_groups), rng.randint(5, 120, size=n_groups))
    y = (rng.rand(g.shape[0]) < 0.15).astype(int)
    s = rng.normal(size=g.shape[0]) + y
    for metric, kwargs, rules in [
            (papk_score, {"k": 8}, ("half", "error")),
            (partial_auc_score, {"k": 8}, ("half", "error")),
            (roc_auc_score, {}, ("half", "error")),
            (auc_at_k_score, {"k": 8}, ("half", "error")),
            (precision_at_k_score, {"k": 8}, ("half", "error")),
            (recall_at_k_score, {"k": 8}, ("error",)),
            (ndcg_at_k_score, {"k": 8}, ("error",)),
            (mean_average_precision_score, {}, ("error", "threshold"))]:
        for average in ("micro", "pooled", None):
            value = quiet(metric, y, s, groups=g, average=average, **kwargs)
            for rule in rules:
                np.testing.assert_allclose(
                    quiet(metric, y, s, groups=g, average=average, ties=rule,
                          **kwargs), value, rtol=1e-12,
                    err_msg=f"{metric.__name__} {rule} {average}")


# --------------------------------------------------------------------------
# The negative hypergeometric sums
# --------------------------------------------------------------------------


def _expected_correct_enumerated(c, p, q, rho):
    """E[sum_{r <= rho} (c - X_r)^+] over the C(p + q, p) arrangements."""
    total = 0.0
    arrangements = list(itertools.combinations(range(p + q), p))
    for pos_places in arrangements:
        for r, place in enumerate(pos_places[:rho], start=1):
            x = place - (r - 1)  # irrelevant rows before the r-th relevant
            total += max(c - x, 0)
    return total / len(arrangements)


@pytest.mark.parametrize("p", [1, 2, 3, 5])
@pytest.mark.parametrize("q", [0, 1, 2, 4, 6])
@pytest.mark.parametrize("c", [1, 2, 3, 7])
def test_expected_correct_pairs_by_enumeration(p, q, c):
    rho = np.arange(1, p + 1)
    got = expected_correct_pairs(np.full(p, c), np.full(p, p), np.full(p, q),
                                 rho)
    expected = [_expected_correct_enumerated(c, p, q, r) for r in rho]
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_ragged_range():
    owner, i = ragged_range([2, 0, 1, 3])
    np.testing.assert_array_equal(owner, [0, 0, 2, 3, 3, 3])
    np.testing.assert_array_equal(i, [0, 1, 0, 0, 1, 2])


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_ranker_score_unchanged_on_tie_free_data():
    """PApKAvgRanker.score (micro-pAp@k with the default ties) gives on
    continuous scores what it gave with the old default, ties="half"."""
    from skpapk import PApKAvgRanker
    from skpapk.datasets import make_papk_simulation

    X, y, g = make_papk_simulation(n_users=40, n_pos=(3, 15), n_neg=(20, 80),
                                   random_state=0)
    ranker = PApKAvgRanker(k=8, max_iter=5).fit(X, y, groups=g)
    s = ranker.decision_function(X)
    assert np.unique(s).shape[0] == s.shape[0]  # no ties
    assert ranker.score(X, y, groups=g) == papk_score(y, s, k=8, groups=g,
                                                      ties="half")


@pytest.mark.parametrize("most", [1, 1000, 1 << 12])
def test_tie_sums_in_chunks_are_the_sums_at_once(most, monkeypatch):
    # a constant score straddling the top k: about k**2 / 4 terms per group
    from skpapk.metrics import _kernels, _ties

    rng = np.random.default_rng(0)
    sizes = rng.integers(30, 120, size=12)
    groups = np.repeat(np.arange(12), sizes)
    y = rng.random(groups.shape[0]) < 0.5
    scores = rng.integers(0, 3, groups.shape[0]).astype(float)  # big ties
    expected = papk_score(y, scores, k=40, groups=groups, average=None)
    expected_random = expected_papk_score(y, k=20, groups=groups, average=None)
    monkeypatch.setattr(_ties, "MOST_TERMS", most)
    assert _kernels.chunks is _ties.chunks  # reads the patched bound
    np.testing.assert_allclose(
        papk_score(y, scores, k=40, groups=groups, average=None), expected,
        rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(
        expected_papk_score(y, k=20, groups=groups, average=None),
        expected_random, rtol=1e-13, atol=1e-15)


def test_a_large_tie_block_is_summed_in_bounded_memory():
    # 8 groups of 2,000 tied rows at k = 500: 8 * 500 * 500 = 2e6 terms,
    # 185 MiB at the peak when summed at once (1.1 GiB for 50 groups)
    import tracemalloc

    groups = np.repeat(np.arange(8), 2000)
    y = np.tile(np.r_[np.ones(1000), np.zeros(1000)], 8)
    tracemalloc.start()
    try:
        gain = papk_score(y, np.zeros(y.shape[0]), k=500, groups=groups,
                          average=None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_allclose(gain, expected_papk(1000, 1000, k=500))
    assert peak < 64 * 2**20, peak / 2**20
