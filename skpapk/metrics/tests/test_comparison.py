"""Tests of paired_comparison against pure-numpy / itertools oracles."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.utils._param_validation import InvalidParameterError

from skpapk.metrics import _comparison, paired_comparison, papk_score


def exact_sign_flip_pvalue(diff):
    """Two-sided p-value over all 2**n sign flips, one flip at a time."""
    observed = abs(sum(diff))
    hits = 0
    for signs in itertools.product((1.0, -1.0), repeat=len(diff)):
        total = sum(s * d for s, d in zip(signs, diff))
        hits += abs(total) >= observed - 1e-9
    return hits / 2 ** len(diff)


def differences(seed, n, kind):
    rng = np.random.default_rng(seed)
    if kind == "continuous":
        return rng.normal(0.1, 1.0, n)
    # pAp@k-like: a few levels, many exact zeros and ties between |d_i|
    return rng.choice([-1.0, -0.5, 0.0, 0.0, 0.5, 1.0], n)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("n", [2, 3, 5, 8, 12])
@pytest.mark.parametrize("kind", ["continuous", "levels"])
def test_exact_pvalue_matches_enumeration(kind, n, seed):
    diff = differences(seed, n, kind)
    result = paired_comparison(diff, np.zeros(n), n_resamples=2**n)
    assert result.exact and result.n_resamples == 2**n
    assert result.pvalue == pytest.approx(exact_sign_flip_pvalue(diff), abs=1e-12)


@pytest.mark.parametrize("seed", range(2))
def test_exact_pvalue_chunked(monkeypatch, seed):
    diff = differences(seed, 12, "levels")
    monkeypatch.setattr(_comparison, "_CHUNK_VALUES", 12 * 37)  # 111 chunks
    result = paired_comparison(diff + 0.25, np.full(12, 0.25), n_resamples=10**4)
    assert result.exact
    assert result.pvalue == pytest.approx(exact_sign_flip_pvalue(diff), abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_random_pvalue_near_exact(seed):
    diff = differences(seed, 12, "continuous") * 0.6
    exact = exact_sign_flip_pvalue(diff)
    result = paired_comparison(diff, np.zeros(12), n_resamples=3000,
                               random_state=seed)
    assert not result.exact and result.n_resamples == 3000
    # binomial standard error of the estimate is at most 0.0092
    assert abs(result.pvalue - exact) < 0.04
    assert result.pvalue >= 1 / 3001


def test_pvalue_never_zero_and_small_for_a_clear_lead():
    diff = np.full(200, 0.2) + np.random.default_rng(0).normal(0, 0.05, 200)
    result = paired_comparison(diff, np.zeros(200), n_resamples=999,
                               random_state=0)
    assert result.pvalue == pytest.approx(1 / 1000)


@pytest.mark.parametrize("ci_method", ["bootstrap", "t"])
def test_chunking_does_not_change_the_result(monkeypatch, ci_method):
    rng = np.random.default_rng(1)
    a, b = rng.random(50), rng.random(50)
    whole = paired_comparison(a, b, n_resamples=500, ci_method=ci_method,
                              random_state=3)
    monkeypatch.setattr(_comparison, "_CHUNK_VALUES", 50 * 7)
    chunked = paired_comparison(a, b, n_resamples=500, ci_method=ci_method,
                                random_state=3)
    assert chunked == whole


@pytest.mark.parametrize("n", [2, 7, 100])
def test_mean_and_standard_error_formula(n):
    rng = np.random.default_rng(n)
    a, b = rng.random(n), rng.random(n)
    result = paired_comparison(a, b, n_resamples=99, random_state=0)
    d = a - b
    mean = d.sum() / n
    se = np.sqrt(((d - mean) ** 2).sum() / (n - 1) / n)
    assert result.mean_difference == pytest.approx(mean, rel=1e-12)
    assert result.mean_difference == pytest.approx(a.mean() - b.mean(), rel=1e-12)
    assert result.standard_error == pytest.approx(se, rel=1e-12)
    assert result.n_groups == n and result.n_dropped == 0


@pytest.mark.parametrize("confidence_level", [0.8, 0.95])
def test_t_interval_is_the_paired_t_interval(confidence_level):
    rng = np.random.default_rng(0)
    a, b = rng.random(40), rng.random(40)
    result = paired_comparison(a, b, ci_method="t",
                               confidence_level=confidence_level)
    ci = stats.ttest_rel(a, b).confidence_interval(confidence_level)
    assert result.confidence_interval == pytest.approx((ci.low, ci.high))


def test_bootstrap_interval_near_t_interval_for_many_groups():
    rng = np.random.default_rng(0)
    a, b = rng.random(2000), rng.random(2000)
    boot = paired_comparison(a, b, random_state=0).confidence_interval
    t = paired_comparison(a, b, ci_method="t").confidence_interval
    width = t[1] - t[0]
    assert abs(boot[0] - t[0]) < 0.05 * width
    assert abs(boot[1] - t[1]) < 0.05 * width


@pytest.mark.parametrize("ci_method", ["bootstrap", "t"])
def test_interval_coverage(ci_method):
    # 300 data sets of 60 skewed differences with true mean 0.3 (exponential
    # minus 0.7): the 90% interval must cover about 90% of the time (a
    # binomial standard error of 1.7 points).
    rng = np.random.default_rng(2024)
    covered = 0
    for _ in range(300):
        d = rng.exponential(1.0, 60) - 0.7
        low, high = paired_comparison(
            d, np.zeros(60), n_resamples=400, confidence_level=0.9,
            ci_method=ci_method, random_state=rng.integers(2**31),
        ).confidence_interval
        covered += low <= 0.3 <= high
    assert 0.83 <= covered / 300 <= 0.96


def test_swapping_rankers_mirrors_the_result():
    rng = np.random.default_rng(5)
    a, b = rng.random(30), rng.random(30)
    ab = paired_comparison(a, b, ci_method="t", random_state=0)
    ba = paired_comparison(b, a, ci_method="t", random_state=0)
    assert ba.mean_difference == pytest.approx(-ab.mean_difference)
    assert ba.pvalue == ab.pvalue
    assert ba.confidence_interval == pytest.approx(
        (-ab.confidence_interval[1], -ab.confidence_interval[0]))


def test_groups_undefined_for_both_are_dropped_and_counted():
    a = np.array([0.5, np.nan, 1.0, 0.0, np.nan])
    b = np.array([0.0, np.nan, 0.5, 0.5, np.nan])
    result = paired_comparison(a, b, ci_method="t")
    assert result.n_groups == 3 and result.n_dropped == 2
    assert result.mean_difference == pytest.approx(np.nanmean(a) - np.nanmean(b))


def test_on_papk_per_group_scores():
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(40), 10)
    y = rng.random(400) < 0.3
    y[groups == 0] = False  # an undefined group for both rankers
    s_a, s_b = y + rng.normal(0, 1, 400), rng.normal(0, 1, 400)
    with pytest.warns(Warning, match="undefined"):
        g_a = papk_score(y, s_a, k=3, groups=groups, average=None)
        g_b = papk_score(y, s_b, k=3, groups=groups, average=None)
    result = paired_comparison(g_a, g_b, random_state=0)
    with pytest.warns(Warning, match="undefined"):
        micro_a = papk_score(y, s_a, k=3, groups=groups)
        micro_b = papk_score(y, s_b, k=3, groups=groups)
    assert result.n_dropped >= 1
    assert result.mean_difference == pytest.approx(micro_a - micro_b)
    assert result.confidence_interval[0] > 0 and result.pvalue < 0.01


@pytest.mark.parametrize(
    "a, b, match",
    [
        ([0.1, np.nan, 0.3], [0.2, 0.5, 0.1], "NaN .* one ranker only"),
        ([0.1, 0.2, 0.3], [0.2, 0.5], "same groups"),
        ([[0.1, 0.2]], [[0.2, 0.5]], "1-D"),
        ([0.1, np.inf, 0.3], [0.2, 0.5, 0.1], "infinite"),
        ([0.1, np.nan], [0.2, np.nan], "at least 2 groups"),
    ],
)
def test_bad_scores(a, b, match):
    with pytest.raises(ValueError, match=match):
        paired_comparison(a, b)


@pytest.mark.parametrize("a", [["a", "b"], ["0.5", "0.3"], np.array(["0.5", "0.3"]),
                               [0.5, "0.3"], np.array([b"0.5", b"0.3"]),
                               pd.Series(["0.5", "0.3"]), np.array([0.5j, 0.3]),
                               [0.5, 0.3 + 0j], np.array([0.5, 1j], dtype=object)])
@pytest.mark.parametrize("swap", [False, True])
def test_non_numeric_scores(a, swap):
    args = ([0.1, 0.2], a) if swap else (a, [0.1, 0.2])
    with pytest.raises(TypeError, match=f"scores_{'ab'[swap]} must hold numbers"):
        paired_comparison(*args)


@pytest.mark.parametrize("b_index", [[2, 1, 0], [0, 1, 3], ["0", "1", "2"]])
def test_series_of_other_indexes_are_refused(b_index):
    a = pd.Series([0.5, 0.2, 0.9], index=[0, 1, 2])
    b = pd.Series([0.1, 0.4, 0.3], index=b_index)
    with pytest.raises(ValueError, match="different indexes.*reindex"):
        paired_comparison(a, b)
    with pytest.raises(ValueError, match="different indexes"):
        paired_comparison(a.to_frame("a").a, b.to_frame("b").b)
    # with one Series only, or indexes equal, the values pair by position
    expected = paired_comparison(a.to_numpy(), b.to_numpy(), random_state=0)
    assert paired_comparison(a.to_numpy(), b, random_state=0) == expected
    assert paired_comparison(a, b.set_axis(a.index), random_state=0) == expected


def test_none_and_nullable_floats_are_nan():
    a = pd.Series([0.5, None, 0.9, 0.4], dtype="Float64")
    result = paired_comparison(a, [0.1, None, 0.3, 0.2], ci_method="t")
    assert result.n_groups == 3 and result.n_dropped == 1
    # pandas' NA in a plain object array, as in a nullable Series
    b = np.array([0.1, pd.NA, 0.3, 0.2], dtype=object)
    assert paired_comparison(a, b, ci_method="t") == result


@pytest.mark.parametrize(
    "params",
    [
        {"n_resamples": 0},
        {"n_resamples": True},
        {"confidence_level": 1.0},
        {"confidence_level": 0},
        {"ci_method": "bca"},
        {"random_state": "seed"},
    ],
)
def test_bad_parameters(params):
    with pytest.raises(InvalidParameterError):
        paired_comparison([0.1, 0.2, 0.3], [0.2, 0.1, 0.0], **params)


def test_same_seed_same_result():
    rng = np.random.default_rng(0)
    a, b = rng.random(100), rng.random(100)
    first = paired_comparison(a, b, n_resamples=200, random_state=7)
    assert paired_comparison(a, b, n_resamples=200, random_state=7) == first


@pytest.mark.parametrize("a, b", [([1e308, 1e308, -1e308], [-1e308, -1e308, 1e308]),
                                  ([1e200, 0.0, 1.0], [0.0, 0.0, 0.0])])
def test_differences_that_overflow_are_refused(a, b):
    # the mean was NaN and the p-value 0.0: maximally significant
    with pytest.raises(ValueError, match="differences overflow.*pass the metrics' "
                                         "values, not raw scores"):
        paired_comparison(a, b, ci_method="t")


@pytest.mark.parametrize("seed", [True, False, np.True_])
def test_a_boolean_random_state_is_no_seed(seed):
    # True was read as the seed 1, where n_resamples refuses a bool
    a = np.arange(20.0)
    with pytest.raises(ValueError, match="random_state.* must be"):
        paired_comparison(a, a[::-1].copy(), n_resamples=99, random_state=seed)


def test_bootstrap_means_beyond_the_memory_fail_before_the_flips(monkeypatch):
    # n_resamples=10**12 enumerated 2**30 sign flips for minutes, then the
    # bootstrap's np.empty raised a MemoryError
    from skpapk.metrics import _comparison

    def flips(*args):
        raise AssertionError("the flips ran first")

    monkeypatch.setattr(_comparison, "_sign_flip_pvalue", flips)
    with pytest.raises(ValueError, match=r"^n_resamples=1000000000000 bootstrap "
                       r"means take 1.49e\+04 GiB, more than there is; lower "
                       r"n_resamples"):
        paired_comparison(np.arange(30) / 30, np.zeros(30), n_resamples=10**12,
                          random_state=0)
    # (review) the memory, not only numpy's allocation, bounds them: a
    # system that overcommits allocates 7 TiB
    monkeypatch.setattr(_comparison, "physical_memory", lambda: 10**7)
    with pytest.raises(ValueError, match=r"^n_resamples=1000000 bootstrap"):
        paired_comparison(np.arange(30) / 30, np.zeros(30), n_resamples=10**6,
                          random_state=0)
