"""Tests of the random-ranking baselines: exact enumeration and simulation."""

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning

from skpapk.metrics import (
    expected_average_precision,
    expected_papk,
    expected_papk_score,
    expected_partial_auc_score,
    expected_precision_at_k_score,
    papk_score,
    partial_auc_score,
    precision_at_k_score,
    worst_average_precision,
)


def ap_simple(ranked):
    """The average-precision tutorial's ``ap_simple``."""
    pos_cnt, precision_sum = 0, 0.0
    for idx, r in enumerate(ranked):
        if r:
            pos_cnt += 1
            precision_sum += pos_cnt / (idx + 1)
    return float("nan") if pos_cnt == 0 else precision_sum / pos_cnt


def expected_ap_naive2(n_items, n_pos):
    """The tutorial's exact enumeration over the C(N, P) position sets."""
    total = sum(
        ap_simple([x in set(rs) for x in range(n_items)])
        for rs in itertools.combinations(range(n_items), n_pos)
    )
    return total / math.comb(n_items, n_pos)


def papk_of_ranking(ranked, k):
    """pAp@k gain of a ranked list of booleans (position 0 first), no ties."""
    pos = [i for i, r in enumerate(ranked) if r][:k]
    neg = [i for i, r in enumerate(ranked) if not r][:k]
    return np.mean([p < n for p in pos for n in neg])


def expected_papk_enumerated(n_pos, n_neg, k):
    n = n_pos + n_neg
    values = [papk_of_ranking([x in set(rs) for x in range(n)], k)
              for rs in itertools.combinations(range(n), n_pos)]
    return float(np.mean(values))


# ---- the tutorial's numbers --------------------------------------------------


@pytest.mark.parametrize("n_items, n_pos, expected",
                         [(5, 3, (1 / 3 + 2 / 4 + 3 / 5) / 3), (5, 2, 0.325),
                          (2, 1, 0.5), (4, 4, 1.0), (1, 1, 1.0)])
def test_worst_average_precision_tutorial(n_items, n_pos, expected):
    assert worst_average_precision(n_items, n_pos) == pytest.approx(expected)


def test_worst_average_precision_tutorial_rounded():
    assert round(worst_average_precision(5, 3), 2) == 0.48
    assert worst_average_precision(1000, 950) == pytest.approx(0.84, abs=0.005)
    assert worst_average_precision(1000, 500) == pytest.approx(0.31, abs=0.005)


def test_worst_average_precision_is_ap_of_negatives_first():
    for n_items in range(1, 9):
        for n_pos in range(1, n_items + 1):
            ranked = [False] * (n_items - n_pos) + [True] * n_pos
            assert worst_average_precision(n_items, n_pos) == pytest.approx(
                ap_simple(ranked))


def test_worst_average_precision_precise_for_large_lists():
    # P = 1: the single relevant item last, AP = 1/N exactly
    assert worst_average_precision(10**6, 1) == pytest.approx(1e-6, rel=1e-12)


def test_expected_average_precision_tutorial():
    assert expected_average_precision(2, 1) == pytest.approx(0.75)
    assert expected_average_precision(1, 1) == 1.0
    assert expected_average_precision(7, 7) == pytest.approx(1.0)
    # P = 1: mean of 1/i (the tutorial's expected_ap_p1)
    assert expected_average_precision(10, 1) == pytest.approx(
        sum(1 / i for i in range(1, 11)) / 10)
    # the three-item example: APs 1, 1, 0.83, 0.83, 0.58, 0.58
    assert expected_average_precision(3, 2) == pytest.approx(
        (2 * 1 + 2 * (1 + 2 / 3) / 2 + 2 * (1 / 2 + 2 / 3) / 2) / 6)


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9])
def test_expected_average_precision_tends_to_rate(p):
    n_items = 10**6
    assert expected_average_precision(n_items, int(p * n_items)) == pytest.approx(
        p, abs=1e-4)
    # and differs from it for small lists
    assert abs(expected_average_precision(10, int(p * 10)) - p) > 1e-3


@settings(max_examples=60, deadline=None)
@given(n_items=st.integers(1, 10), data=st.data())
def test_expected_average_precision_matches_enumeration(n_items, data):
    n_pos = data.draw(st.integers(1, n_items))
    assert expected_average_precision(n_items, n_pos) == pytest.approx(
        expected_ap_naive2(n_items, n_pos))
    assert worst_average_precision(n_items, n_pos) <= (
        expected_average_precision(n_items, n_pos) + 1e-12)


def test_average_precision_baselines_broadcast_and_undefined():
    n_items = np.array([[2], [5]])
    n_pos = np.array([0, 1, 2])
    got = expected_average_precision(n_items, np.minimum(n_pos, n_items))
    assert got.shape == (2, 3)
    assert np.isnan(got[:, 0]).all()
    assert got[0, 1] == pytest.approx(0.75)
    worst = worst_average_precision(n_items, np.minimum(n_pos, n_items))
    assert worst.shape == (2, 3) and np.isnan(worst[:, 0]).all()
    assert worst[1, 2] == pytest.approx(0.325)


@pytest.mark.parametrize("func", [expected_average_precision,
                                  worst_average_precision])
@pytest.mark.parametrize("n_items, n_pos, error, match",
                         [(3, 4, ValueError, "n_pos must be <= n_items"),
                          (0, 0, ValueError, "n_items must be >= 1"),
                          (3, -1, ValueError, "n_pos must be >= 0"),
                          (3.5, 1, ValueError, "whole numbers"),
                          ("3", 1, TypeError, "n_items"),
                          ([2, 3], [1, 1, 1], ValueError, "broadcast")])
def test_average_precision_baselines_bad_input(func, n_items, n_pos, error, match):
    with pytest.raises(error, match=match):
        func(n_items, n_pos)


# ---- expected pAp@k ----------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(n_pos=st.integers(1, 6), n_neg=st.integers(1, 6), k=st.integers(1, 7))
def test_expected_papk_matches_enumeration(n_pos, n_neg, k):
    assert expected_papk(n_pos, n_neg, k) == pytest.approx(
        expected_papk_enumerated(n_pos, n_neg, k))


@pytest.mark.parametrize("n_pos, n_neg, k", [(3, 40, 5), (12, 30, 8), (50, 9, 4)])
def test_expected_papk_matches_simulated_rankings(n_pos, n_neg, k):
    """Mean of papk_score over uniformly random scores (a simulation)."""
    rng = np.random.RandomState(0)
    n_sim = 4000
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    scores = rng.uniform(size=(n_sim, n_pos + n_neg))
    groups = np.repeat(np.arange(n_sim), n_pos + n_neg)
    gains = papk_score(np.tile(y, n_sim), scores.ravel(), k=k, groups=groups,
                       average=None)
    stderr = gains.std() / np.sqrt(n_sim)
    assert abs(gains.mean() - expected_papk(n_pos, n_neg, k)) < 4 * stderr + 1e-9


def test_expected_papk_simple_cases():
    assert expected_papk(1, 1, 1) == pytest.approx(0.5)
    # one relevant item among n- = 10, k = 5: it beats the j-th negative
    # with probability j / 11
    assert expected_papk(1, 10, 5) == pytest.approx(sum(j / 11 for j in range(1, 6))
                                                    / 5)
    # k >= n+ and k >= n-: the expected AUC of a random ranking is 1/2
    assert expected_papk(4, 7, 10) == pytest.approx(0.5)


def test_expected_papk_arrays_and_undefined():
    got = expected_papk([1, 0, 3, 1], [10, 3, 0, 10], 5)
    assert got.shape == (4,)
    assert np.isnan(got[1]) and np.isnan(got[2])
    assert got[0] == got[3] == pytest.approx(expected_papk(1, 10, 5))
    grid = expected_papk(np.arange(1, 4)[:, None], np.arange(1, 5)[None, :], 2)
    assert grid.shape == (3, 4)
    assert grid[1, 2] == pytest.approx(expected_papk(2, 3, 2))


@pytest.mark.parametrize("args, error, match",
                         [((1, 1, 0), ValueError, "k must be"),
                          ((1, 1, 1.5), TypeError, "k must be"),
                          ((-1, 1, 2), ValueError, "n_pos must be >= 0"),
                          ((1, [1, 2], 2), None, None),
                          (([1, 2, 3], [1, 2], 2), ValueError, "broadcast")])
def test_expected_papk_bad_input(args, error, match):
    if error is None:
        assert expected_papk(*args).shape == (2,)
        return
    with pytest.raises(error, match=match):
        expected_papk(*args)


# ---- expected_papk_score ------------------------------------------------------


def test_expected_papk_score_is_mean_over_groups():
    rng = np.random.RandomState(3)
    g = rng.randint(0, 20, size=400)
    y = rng.randint(0, 2, size=400)
    y[g == 5] = 0  # an undefined group
    k = 4
    n_pos = np.array([y[g == lab].sum() for lab in range(20)])
    n_neg = np.array([(g == lab).sum() for lab in range(20)]) - n_pos
    per = np.array([expected_papk(p, n, k) if p and n else np.nan
                    for p, n in zip(n_pos, n_neg)])
    with pytest.warns(UndefinedMetricWarning, match="1 of 20 groups"):
        got = expected_papk_score(y, k=k, groups=g, average=None)
    np.testing.assert_allclose(got, per)
    with pytest.warns(UndefinedMetricWarning, match="left out"):
        assert expected_papk_score(y, k=k, groups=g) == pytest.approx(
            np.nanmean(per))
    pairs = np.minimum(n_pos, k) * np.minimum(n_neg, k)
    with pytest.warns(UndefinedMetricWarning):
        assert expected_papk_score(y, k=k, groups=g, average="pooled") == (
            pytest.approx(np.nansum(per * pairs) / pairs.sum()))


def test_expected_papk_score_next_to_a_model():
    """A model that knows the labels beats the random baseline; noise does not."""
    rng = np.random.RandomState(4)
    g = np.repeat(np.arange(200), 30)
    y = rng.randint(0, 2, size=g.shape[0])
    baseline = expected_papk_score(y, k=5, groups=g)
    assert papk_score(y, y + rng.normal(size=y.shape[0]), k=5, groups=g) > (
        baseline + 0.2)
    assert papk_score(y, rng.normal(size=y.shape[0]), k=5, groups=g) == (
        pytest.approx(baseline, abs=0.03))


def test_expected_papk_score_all_undefined_and_labels():
    with pytest.warns(UndefinedMetricWarning, match="2 of 2"):
        assert np.isnan(expected_papk_score([1, 1, 1], k=2, groups=[0, 0, 1],
                                            pos_label=1))
    assert expected_papk_score(["b", "a"], k=1, pos_label="a") == pytest.approx(0.5)
    with pytest.raises(ValueError, match="pos_label='a' or pos_label='b'"):
        expected_papk_score(["b", "a"], k=1)
    with pytest.raises(ValueError, match="groups"):
        expected_papk_score([0, 1, 1], k=1, groups=[0, 1])
    with pytest.raises(ValueError, match="Only binary"):
        expected_papk_score([0, 1, 2], k=1)


@pytest.mark.parametrize("metric", [expected_papk_score, expected_precision_at_k_score,
                                    expected_partial_auc_score])
@pytest.mark.parametrize("y, g, match", [
    (1, None, "y_true must be array-like.* the int 1"),
    (None, None, "y_true .* got None"),
    ("01", None, "y_true .* the str '01'"),
    ([0, 1, 1], "abc", "groups must be array-like.* the str 'abc'"),
    ([0, 1, 1], 0, "groups .* the int 0"),
])
def test_expected_scores_need_one_value_per_row(metric, y, g, match):
    with pytest.raises(TypeError, match=match):
        metric(y, k=1, groups=g)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert expected_papk_score([0, 1], k=3) == pytest.approx(0.5)


def test_expected_papk_score_empty_input_is_an_error():
    with pytest.raises(ValueError, match="y_true is empty"):
        expected_papk_score([], k=2)


def _brute_force_random(n_pos, n_neg, k):
    """Mean prec@k and pAUC(0, k/n-] over every distinct ranking of a group."""
    n = n_pos + n_neg
    precs, paucs = [], []
    for pos_places in itertools.combinations(range(n), n_pos):
        y = np.zeros(n, dtype=int)
        y[list(pos_places)] = 1
        scores = np.arange(n, 0, -1, dtype=float)  # place 0 ranked first
        precs.append(precision_at_k_score(y, scores, k=k))
        if n_pos and n_neg:
            paucs.append(partial_auc_score(y, scores, k=k))
    return np.mean(precs), (np.mean(paucs) if paucs else np.nan)


@settings(max_examples=25, deadline=None)
@given(counts=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 5)),
                       min_size=1, max_size=3),
       k=st.integers(1, 6))
def test_random_prec_and_pauc_match_enumeration(counts, k):
    counts = [(p, n) for p, n in counts if p + n > 0] or [(1, 1)]
    y = np.concatenate([np.r_[np.ones(p), np.zeros(n)] for p, n in counts])
    groups = np.repeat(np.arange(len(counts)), [p + n for p, n in counts])
    brute = [_brute_force_random(p, n, k) for p, n in counts]
    prec = np.mean([b[0] for b in brute])
    paucs = [b[1] for b in brute if not np.isnan(b[1])]
    assert expected_precision_at_k_score(y, k=k, groups=groups) == pytest.approx(prec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = expected_partial_auc_score(y, k=k, groups=groups)
    if paucs:
        assert got == pytest.approx(np.mean(paucs))
    else:
        assert np.isnan(got)


@pytest.mark.parametrize("make", [
    lambda: expected_papk(1e19, 3, k=2),
    lambda: expected_papk(np.uint64(2**63), 3, k=2),
    lambda: expected_papk(3, 10**9 + 1, k=2),
    lambda: expected_average_precision(2**63, 2**62)])
def test_counts_beyond_a_billion_are_refused(make):
    # int64 wrapped around ("must be >= 0, got 1e+19", with a cast warning),
    # and log-gamma rounding gave values above 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"must be at most (10\*\*9|2\*\*62) "
                                             r"\(a count of items"):
            make()
    assert abs(expected_papk(10**9, 10**9, k=1) - 0.5) < 1e-5  # the largest


def test_counts_near_the_cap_stay_probabilities():
    # log-gamma rounding gave 1.0000038 at 10**9 items; AP's closed form
    # takes any count (it was refused with pAp@k's cap)
    assert 0 <= expected_papk(10**9, 2, k=2) <= 1
    assert 0 <= expected_papk(10**8, 3, k=5) <= 1
    assert expected_average_precision(10**12, 10**11) == pytest.approx(0.1, abs=1e-9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no cast warning first
        with pytest.raises(ValueError, match=r"^n_pos must be >= 0"):
            expected_papk(-1e19, 3, k=2)


def test_one_pairs_sums_are_held_in_bounded_memory():
    # one (n+, n-) pair at k = 1000: a 2k x 2k grid, 126 MiB at once
    import tracemalloc

    tracemalloc.start()
    try:
        gain = expected_papk(2000, 2000, k=1000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert gain == pytest.approx(expected_papk(2000, 2000, k=1000))
    assert 0 < gain < 1 and peak < 40 * 2**20, peak / 2**20


@pytest.mark.parametrize("n_items, n_pos", [(2**40, 2**39), ([10**9] * 3, 4 * 10**8)])
def test_worst_average_precision_names_counts_beyond_its_sum(n_items, n_pos):
    # counts its check took (up to 2**62) ended on numpy's raw MemoryError
    with pytest.raises(ValueError, match=r"^n_pos adds up to \d+: "
                                         r"worst_average_precision sums one term"):
        worst_average_precision(n_items, n_pos)


def test_worst_average_precision_in_chunks_is_the_sum(monkeypatch):
    # summed in chunks (memory), a count may straddle chunks
    from skpapk.metrics import _random

    n_items = np.array([5, 40, 1, 12, 7])
    n_pos = np.array([3, 17, 0, 12, 1])
    expected = [np.mean([i / (n - p + i) for i in range(1, p + 1)]) if p else np.nan
                for n, p in zip(n_items, n_pos)]
    for chunk in (1, 4, 7, 10**7):
        monkeypatch.setattr(_random, "WORST_AP_CHUNK", chunk)
        np.testing.assert_allclose(worst_average_precision(n_items, n_pos),
                                   expected, rtol=1e-15)
