import re
import warnings
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skpapk.datasets import (
    make_engagement_simulation,
    make_margin_data,
    make_papk_simulation,
)


@pytest.mark.parametrize("make", [
    lambda: make_papk_simulation(n_features=10**19),
    lambda: make_margin_data("beta", n_features=10**19),
    lambda: make_engagement_simulation(5, n_features=10**19)])
def test_features_beyond_any_array_are_named(make):
    # it blamed n_users ("n_users is 1, ... lower n_users") or numpy spoke
    with pytest.raises(ValueError, match=r"^n_features=10000000000000000000 is "
                                         r"beyond the largest array size"):
        make()


def test_engagement_users_beyond_any_array_are_named():
    with pytest.raises(ValueError, match=r"^n_users=10\*\*17|^n_users="
                                         r"100000000000000000 users of up to "
                                         r"199 items, beyond the largest"):
        make_engagement_simulation(10**17)

# ------------------------------------------------------------ make_papk_simulation


@pytest.mark.parametrize("n_pos, n_neg", [(10, 160), (20, 160)])
@pytest.mark.parametrize("shuffle", [True, False])
def test_papk_simulation_table2_cases(n_pos, n_neg, shuffle):
    X, y, groups = make_papk_simulation(n_pos=n_pos, n_neg=n_neg, shuffle=shuffle,
                                        random_state=0)
    assert X.shape == (n_pos + n_neg, 5) and X.dtype == np.float64
    assert y.dtype.kind == "i" and groups.dtype.kind == "i"
    assert np.count_nonzero(y == 1) == n_pos and np.count_nonzero(y == 0) == n_neg
    assert set(np.unique(y).tolist()) == {0, 1}
    assert np.all(groups == 0)
    if not shuffle:
        assert np.all(y[:n_pos] == 1)


def test_papk_simulation_means_and_covariance():
    X, y, _ = make_papk_simulation(n_pos=20000, n_neg=20000, n_features=3,
                                   pos_mean=-1.0, neg_mean=0.5, random_state=1)
    # standard error of a mean over 20000 unit-variance draws is 0.007
    np.testing.assert_allclose(X[y == 1].mean(axis=0), -1.0, atol=0.03)
    np.testing.assert_allclose(X[y == 0].mean(axis=0), 0.5, atol=0.03)
    np.testing.assert_allclose(np.cov(X[y == 1].T), np.eye(3), atol=0.05)
    np.testing.assert_allclose(np.cov(X[y == 0].T), np.eye(3), atol=0.05)


def test_papk_simulation_counts_per_user():
    X, y, groups = make_papk_simulation(4, n_pos=[1, 2, 3, 4], n_neg=(5, 8),
                                        random_state=0)
    np.testing.assert_array_equal(np.bincount(groups, weights=y), [1, 2, 3, 4])
    n_neg = np.bincount(groups, weights=1 - y)
    assert np.all((n_neg >= 5) & (n_neg <= 8))
    # a (low, high) tuple draws per user: with a wide range they differ
    _, y, groups = make_papk_simulation(30, n_pos=(0, 50), random_state=0)
    per_user = np.bincount(groups, weights=y, minlength=30)
    assert per_user.min() >= 0 and per_user.max() <= 50
    assert np.unique(per_user).shape[0] > 5


def test_papk_simulation_reproducible():
    a = make_papk_simulation(3, n_pos=(2, 9), random_state=7)
    b = make_papk_simulation(3, n_pos=(2, 9), random_state=7)
    c = make_papk_simulation(3, n_pos=(2, 9), random_state=8)
    for p, q in zip(a, b):
        np.testing.assert_array_equal(p, q)
    assert not np.array_equal(a[0][:5], c[0][:5])


# the most rows of float64 columns in one numpy array (8 bytes each)
_MAX_ROWS_1 = np.iinfo(np.intp).max // 8
_MAX_ROWS_5 = np.iinfo(np.intp).max // 40


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"n_users": 0}, ValueError, "n_users"),
        ({"n_users": 2.5}, TypeError, "n_users"),
        ({"n_pos": -1}, ValueError, "n_pos"),
        ({"n_pos": (1, 2, 3)}, ValueError, r"\(low, high\)"),
        ({"n_pos": (5, 2)}, ValueError, "low <= high"),
        ({"n_users": 3, "n_pos": [1, 2]}, ValueError, "one count per user"),
        ({"n_pos": [1.5]}, TypeError, "n_pos"),
        ({"n_pos": 0, "n_neg": 0}, ValueError, "no rows"),
        # a user without rows would be missing from groups
        ({"n_users": 3, "n_pos": [0, 2, 0], "n_neg": [0, 3, 0]}, ValueError,
         r"2 user\(s\) would have no row .*user \[0, 2\]"),
        ({"n_users": 50, "n_pos": (0, 3), "n_neg": (0, 2), "random_state": 1},
         ValueError, "would have no row"),
        ({"n_pos": np.array([2**63], dtype=np.uint64)}, ValueError,
         "beyond the largest array size"),
        # counts beyond one array: named, the int64 sum no longer overflows
        ({"n_users": 4, "n_pos": [2**62] * 4, "n_neg": [0] * 4}, ValueError,
         rf"n_pos holds the count {2**62}, beyond the largest array size: "
         rf"{_MAX_ROWS_5} rows of 5 float64 features"),
        ({"n_users": 4, "n_pos": (0, 2**63 - 1)}, ValueError,
         rf"n_pos\[1\] is {2**63 - 1}, beyond the largest array size"),
        ({"n_users": 4, "n_pos": (0, 2**64)}, ValueError,
         rf"n_pos\[1\] is {2**64}, beyond the largest array size"),
        ({"n_neg": 2**64}, ValueError, rf"n_neg is {2**64}, beyond the largest"),
        ({"n_users": 2**62}, ValueError, rf"n_users is {2**62}, beyond the "
         rf"largest array size.*a row per user"),
        # each count fits, their int64 sum wraps to -2**63
        ({"n_users": 16, "n_pos": [2**59] * 16, "n_neg": 0, "n_features": 1},
         ValueError, rf"n_pos and n_neg ask for {2**63} rows in all, beyond the "
         rf"largest array size: {_MAX_ROWS_1} rows of 1 float64 features"),
        ({"n_users": 2, "n_pos": _MAX_ROWS_1 // 2 + 1, "n_neg": (0, 0),
          "n_features": 1}, ValueError, rf"ask for {_MAX_ROWS_1 + 1} rows in all"),
        ({"n_features": 0}, ValueError, "n_features"),
        # rows of 1e18 features: it said "lower n_pos" only
        ({"n_users": 1, "n_features": 10**18}, ValueError,
         # (the first without the machine's memory: no sysconf)
         r"(1 rows of 1000000000000000000 float64 features take .* lower "
         r"n_users \(a row per user at least\) or n_features\.|n_pos is 10, "
         r"beyond the largest array size.*lower n_pos or n_features\.)"),
        ({"pos_mean": np.nan}, TypeError, "pos_mean"),
        ({"pos_mean": True}, TypeError, "pos_mean"),
        ({"shuffle": "no"}, TypeError, "shuffle must be True or False"),
        ({"random_state": "seed"}, ValueError, "random_state must be None"),
        ({"random_state": np.random.default_rng(0)}, ValueError,
         "random_state must be None"),
    ],
)
def test_papk_simulation_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        make_papk_simulation(**kwargs)


# ------------------------------------------------------------ make_margin_data
# brute-force checks straight from the paper's definitions (Defs. 3-5),
# enumerating the beta-subsets of positives on small data


def _beta_margin_brute(s_pos, s_neg, beta, delta):
    # Def. 3: for ALL subsets of beta positives, mean - max negative >= delta
    return all(np.mean(s_pos[list(c)]) - s_neg.max() >= delta
               for c in combinations(range(s_pos.shape[0]), beta))


def _moderate_margin_brute(s_pos, s_neg, beta, delta):
    # Def. 4: min_{S+} - max_{S-} >= 0 and, for SOME beta-subset, its
    # min - max_{S-} >= delta
    if s_pos.min() - s_neg.max() < 0:
        return False
    return any(s_pos[list(c)].min() - s_neg.max() >= delta
               for c in combinations(range(s_pos.shape[0]), beta))


def _strong_margin_brute(s_pos, s_neg, beta, delta):
    # Def. 5
    return s_pos.min() - s_neg.max() >= delta


_BRUTE = {"beta": _beta_margin_brute, "moderate_beta": _moderate_margin_brute,
          "strong_beta": _strong_margin_brute}


@pytest.mark.parametrize("condition", ["beta", "moderate_beta", "strong_beta"])
@pytest.mark.parametrize("k", [1, 3, 20])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_margin_data_satisfies_condition_brute_force(condition, k, seed):
    w = np.array([1.0, -2.0, 0.5])
    X, y, groups = make_margin_data(condition, w, n_pos=7, n_neg=40, k=k,
                                    random_state=seed)
    s = X @ w
    beta = min(k, 7)
    assert _BRUTE[condition](s[y == 1], s[y == 0], beta, 1.0)
    assert np.all(groups == 0) and X.shape == (47, 3)


@settings(max_examples=40, deadline=None)
@given(
    condition=st.sampled_from(["beta", "moderate_beta", "strong_beta"]),
    n_pos=st.integers(1, 7),
    k=st.integers(1, 9),
    margin=st.floats(0.0, 3.0),
    seed=st.integers(0, 2**16),
)
def test_margin_data_property(condition, n_pos, k, margin, seed):
    rng = np.random.RandomState(seed)
    w = rng.standard_normal(3)
    X, y, _ = make_margin_data(condition, w, n_pos=n_pos, n_neg=15, k=k,
                               margin=margin, random_state=seed)
    s = X @ w
    assert _BRUTE[condition](s[y == 1], s[y == 0], min(k, n_pos), margin)


@pytest.mark.parametrize("condition", ["beta", "moderate_beta", "strong_beta"])
@pytest.mark.parametrize("neg_mean", [1e8, -1e10, 1e12])
@pytest.mark.parametrize("seed", range(5))
def test_margin_data_holds_with_features_far_from_zero(condition, neg_mean, seed):
    # the projection's rounding (1e-7 at neg_mean=1e8) outgrew the gap kept
    # below the bound: 16 of 20 seeds broke the strong margin
    w = np.array([1.0, 1.0, 1.0, 1.0, 1.0])
    X, y, _ = make_margin_data(condition, w, n_pos=30, n_neg=200, k=5,
                               neg_mean=neg_mean, random_state=seed)
    for s in (X @ w, X[:, ::-1] @ w[::-1], (X * w).sum(axis=1)):  # any order
        if condition == "strong_beta":  # Def. 5 for every beta: no subsets
            assert s[y == 1].min() - s[y == 0].max() >= 1.0
        else:
            top = np.sort(s[y == 1])[::-1]
            bound = (top[-5:].mean() - 1.0 if condition == "beta"
                     else min(top[-1], top[4] - 1.0))
            assert s[y == 0].max() <= bound


def test_margin_data_figure1_defaults():
    for condition in ["beta", "moderate_beta", "strong_beta"]:
        X, y, groups = make_margin_data(condition, random_state=0)
        assert X.shape == (2250, 5)
        assert np.count_nonzero(y) == 250
        s = X @ np.ones(5)
        pos, neg = np.sort(s[y == 1])[::-1], s[y == 0]
        if condition == "strong_beta":
            assert pos.min() - neg.max() >= 1.0
        elif condition == "beta":
            assert pos[-30:].mean() - neg.max() >= 1.0  # worst 30-subset
        else:
            assert pos.min() >= neg.max() and pos[29] - neg.max() >= 1.0


def test_margin_conditions_differ():
    # the beta condition lets some negatives above the lowest positive,
    # which the moderate and strong conditions forbid
    X, y, _ = make_margin_data("beta", n_pos=250, n_neg=2000, random_state=0)
    s = X @ np.ones(5)
    assert s[y == 0].max() > s[y == 1].min()


def test_margin_data_negatives_follow_conditional_law():
    # with a loose condition the truncation is almost never active, so the
    # negatives look like N(neg_mean * 1, I) (orthogonal part untruncated)
    X, y, _ = make_margin_data("strong_beta", np.array([1.0, 0.0]), n_pos=5,
                               n_neg=20000, margin=0.0, pos_mean=20.0,
                               neg_mean=0.5, random_state=3)
    neg = X[y == 0]
    np.testing.assert_allclose(neg.mean(axis=0), [0.5, 0.5], atol=0.03)
    np.testing.assert_allclose(np.cov(neg.T), np.eye(2), atol=0.05)


def test_margin_data_reproducible_and_shuffle():
    a = make_margin_data("beta", n_pos=10, n_neg=30, random_state=4)
    b = make_margin_data("beta", n_pos=10, n_neg=30, random_state=4)
    np.testing.assert_array_equal(a[0], b[0])
    X, y, _ = make_margin_data("beta", n_pos=10, n_neg=30, shuffle=False,
                               random_state=4)
    assert np.all(y[:10] == 1) and np.all(y[10:] == 0)


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        (("weak_beta",), {}, ValueError, "condition must be one of"),
        (("beta", [0.0, 0.0]), {}, ValueError, "not zero"),
        # finite, but w @ w overflows (NaN features) or underflows to 0
        (("strong_beta", [1e200, 1e200]), {}, ValueError, "too large"),
        (("strong_beta", [1e-200, 0.0]), {}, ValueError, "too small"),
        (("beta", [[1.0]]), {}, ValueError, "1-d"),
        (("beta", [1.0, 2.0]), {"n_features": 3}, ValueError, "n_features"),
        (("beta",), {"margin": -1.0}, ValueError, "margin"),
        (("beta",), {"margin": True}, TypeError, "margin"),
        (("beta",), {"margin": "1"}, TypeError, "margin"),
        (("beta", "abc"), {}, TypeError, "w must be a vector of real numbers"),
        (("beta", [True, False]), {}, TypeError,
         r"w must be a vector of real numbers .* got True/False"),
        (("beta", np.array([1.0, 0.5, True], dtype=object)), {}, TypeError,
         "got True/False"),
        (("beta",), {"random_state": -1}, ValueError, "random_state must be"),
        (("beta",), {"random_state": True}, ValueError, "random_state must be"),
        (("beta",), {"k": 0}, ValueError, "k must be"),
        (("beta",), {"n_neg": 0}, ValueError, "n_neg"),
        (("beta",), {"n_pos": 2**64}, ValueError,
         rf"n_pos is {2**64}, beyond the largest array size"),
        (("beta",), {"n_pos": _MAX_ROWS_5, "n_neg": 1}, ValueError,
         rf"n_pos and n_neg ask for {_MAX_ROWS_5 + 1} rows in all, beyond"),
        # finite, but the negatives' scores fall beyond float64 (-inf)
        (("strong_beta",), {"margin": 1e160}, ValueError, "smaller margin"),
        (("beta",), {"margin": 1e300, "n_pos": 5, "n_neg": 20}, ValueError,
         "smaller margin"),
        (("beta",), {"neg_mean": 1e300}, ValueError,
         "margin=1.0 with pos_mean=0.0 and neg_mean=1e.300 .* means closer"),
    ],
)
def test_margin_data_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        make_margin_data(*args, **kwargs)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"n_users": 2.0}, TypeError, "n_users must be an integer >= 1"),
    ({"n_users": 0}, ValueError, "n_users must be an integer >= 1"),
    ({"n_features": 4}, ValueError, "n_features must be an integer >= 5"),
    ({"n_features": True}, TypeError, "n_features"),
    ({"random_state": 2.5}, ValueError, "random_state must be None"),
])
def test_engagement_simulation_bad_input(kwargs, error, match):
    # the same errors as make_papk_simulation's
    from skpapk.datasets import make_engagement_simulation

    with pytest.raises(error, match=match):
        make_engagement_simulation(**kwargs)


@pytest.mark.parametrize("condition", ["beta", "moderate_beta", "strong_beta"])
@pytest.mark.parametrize("means", [{"pos_mean": 1e308}, {"pos_mean": -1e308},
                                   {"neg_mean": 1e308}, {"neg_mean": -1e308},
                                   {"pos_mean": 1e308, "neg_mean": -1e308}])
def test_margin_data_means_beyond_float64_scores_are_named(condition, means):
    # finite means whose scores w @ x overflow: NumPy's warnings, then
    # scipy's "Domain error in arguments" of truncnorm
    kwargs = {"pos_mean": 0.0, "neg_mean": 0.5, **means}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=re.escape(
                f"margin=1.0 with pos_mean={kwargs['pos_mean']!r} and "
                f"neg_mean={kwargs['neg_mean']!r} puts the negatives' features "
                f"beyond what float64 samples")):
            make_margin_data(condition, n_pos=5, n_neg=20, **kwargs)


def test_data_beyond_the_memory_are_refused_before_they_are_made(monkeypatch):
    # numpy's allocation succeeded (the system overcommits), then the system
    # killed the process as the features were written, silently
    from skpapk.datasets import _samples_generator

    monkeypatch.setattr(_samples_generator, "physical_memory", lambda: 8 * 1000 * 5)
    with pytest.raises(ValueError, match=r"^n_pos and n_neg ask for 1010 rows in "
                       r"all: 1010 rows of 5 float64 features take 3.76e-05 GiB, "
                       r"more than this machine's 3.73e-05 GiB of memory; lower "
                       r"n_pos, n_neg, n_users or n_features\.$"):
        make_papk_simulation(101, n_pos=4, n_neg=6)
    make_papk_simulation(100, n_pos=4, n_neg=6)  # 8,000 values: they fit
    with pytest.raises(ValueError, match=r"^n_users=6 users of up to 199 items: "
                       r"1194 rows .*lower n_users or n_features\.$"):
        make_engagement_simulation(6, n_features=5)
