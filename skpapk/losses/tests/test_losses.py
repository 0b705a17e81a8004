"""Tests of the pAp@k surrogates against brute force from the set definitions."""

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skpapk.losses import SURROGATES, BaseSurrogate, surrogate_loss
from skpapk.metrics import papk_score

#: the surrogates defined over the paper's (positive, top negative) pair sets
ALL = ["avg", "max", "ts", "ramp", "pauc"]


def _h(a):
    return max(0.0, a)


def _best_pi(rows, margins, negs):
    """max over pi in {0,1}^{len(rows) x len(negs)} of sum pi_ij (m_i - P_i + N_j).

    Enumerated (not solved termwise) to follow the definition.
    """
    n_cells = len(rows) * len(negs)
    cells = [(m - p + n) for p, m in zip(rows, margins) for n in negs]
    best = -np.inf
    for pi in itertools.product((0, 1), repeat=n_cells):
        best = max(best, float(np.dot(pi, cells)) if n_cells else 0.0)
    return best


def _brute_group(surrogate, pos, neg, k):
    """One group's surrogate from the paper's set definitions."""
    n_pos, n_neg = len(pos), len(neg)
    beta, kp = min(k, n_pos), min(k, n_neg)
    order = sorted(range(n_pos), key=lambda i: -pos[i])  # positives by w
    best = -np.inf
    for z_neg in itertools.combinations(neg, kp):  # max over k'-subsets
        if surrogate == "avg":  # eq. 10: beta rows against mean(all P)
            mean_p = float(np.mean(pos))
            val = _best_pi([mean_p] * beta, [1.0] * beta, z_neg) / (beta * kp)
        elif surrogate == "max":  # eq. 24: max over beta-subsets of positives
            val = max(_best_pi(z_pos, [1.0] * beta, z_neg)
                      for z_pos in itertools.combinations(pos, beta)) / (beta * kp)
        elif surrogate == "ramp":  # eq. 6: min over beta-subsets of positives
            val = min(_best_pi(z_pos, [1.0] * beta, z_neg)
                      for z_pos in itertools.combinations(pos, beta)) / (beta * kp)
        elif surrogate == "ts":  # eq. 14 / 22: margin 1 for the top beta by w
            margins = [0.0] * n_pos
            for i in order[:beta]:
                margins[i] = 1.0
            val = _best_pi(pos, margins, z_neg) / (beta * kp)
        elif surrogate == "pauc":  # structural pAUC(0, k/n-]: all positives
            val = _best_pi(pos, [1.0] * n_pos, z_neg) / (n_pos * kp)
        best = max(best, val)
    return best


def _brute_risk(pos, neg, k):
    """Theorem 1: max over k'-subsets of negatives, min over beta-subsets of
    positives, of the AUC risk (a tie is an error)."""
    beta, kp = min(k, len(pos)), min(k, len(neg))
    return max(
        min(sum(p <= n for p in z_pos for n in z_neg) / (beta * kp)
            for z_pos in itertools.combinations(pos, beta))
        for z_neg in itertools.combinations(neg, kp))


def _brute(surrogate, y, s, g, k):
    values = []
    for label in np.unique(g):
        mask = g == label
        pos, neg = list(s[mask & y]), list(s[mask & ~y])
        if pos and neg:
            values.append(_brute_group(surrogate, pos, neg, k))
    return float(np.mean(values)) if values else 0.0


def _random_groups(rng, n_groups, max_size=5):
    sizes = rng.integers(1, max_size + 1, size=n_groups)
    g = np.repeat(np.arange(n_groups), sizes)
    rng.shuffle(g)
    y = rng.random(g.shape[0]) < 0.5
    return y, g


@pytest.mark.parametrize("surrogate", ALL)
@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_value_matches_brute_force(surrogate, k, seed):
    rng = np.random.default_rng(seed)
    y, g = _random_groups(rng, 6)
    s = rng.normal(size=y.shape[0])
    value, coef = surrogate_loss(y, s, g, k=k, surrogate=surrogate)
    assert value == pytest.approx(_brute(surrogate, y, s, g, k), abs=1e-12)
    assert coef.shape == y.shape


@pytest.mark.parametrize("surrogate", ALL)
@pytest.mark.parametrize("k", [1, 2, 3])
def test_value_with_ties_matches_brute_force(surrogate, k):
    # integer scores: many ties, and pairs exactly at the hinge kink
    rng = np.random.default_rng(k)
    y, g = _random_groups(rng, 8)
    s = rng.integers(-2, 3, size=y.shape[0]).astype(float)
    value, _ = surrogate_loss(y, s, g, k=k, surrogate=surrogate)
    assert value == pytest.approx(_brute(surrogate, y, s, g, k), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), surrogate=st.sampled_from(ALL), k=st.integers(1, 3))
def test_value_matches_brute_force_hypothesis(data, surrogate, k):
    n = data.draw(st.integers(1, 9))
    g = np.array(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
    y = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    s = np.array(data.draw(st.lists(
        st.floats(-3, 3, allow_nan=False, width=32), min_size=n, max_size=n)))
    value, _ = surrogate_loss(y, s, g, k=k, surrogate=surrogate, pos_label=True)
    assert value == pytest.approx(_brute(surrogate, y, s, g, k), abs=1e-9)


def _objective(surrogate, X, y, g, k, w):
    return surrogate_loss(y, X @ w, g, k=k, surrogate=surrogate)


@pytest.mark.parametrize("surrogate", ALL)
@pytest.mark.parametrize("seed", range(5))
def test_subgradient_matches_finite_differences(surrogate, seed):
    rng = np.random.default_rng(seed)
    y, g = _random_groups(rng, 7, max_size=7)
    X = rng.normal(size=(y.shape[0], 4))
    w = rng.normal(size=4)
    value, coef = _objective(surrogate, X, y, g, 3, w)
    grad = X.T @ coef
    eps = 1e-6
    numeric = np.empty(4)
    for d in range(4):
        e = np.zeros(4)
        e[d] = eps
        numeric[d] = (_objective(surrogate, X, y, g, 3, w + e)[0]
                      - _objective(surrogate, X, y, g, 3, w - e)[0]) / (2 * eps)
    # random continuous data: w is away from kinks almost surely
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("surrogate", ["avg", "max", "pauc"])
@pytest.mark.parametrize("seed", range(5))
def test_convex_subgradient_inequality_at_kinks(surrogate, seed):
    # integer data puts w on kinks (ties, hinges at 0): the returned direction
    # must still satisfy f(v) >= f(w) + <g, v - w> for the convex surrogates.
    rng = np.random.default_rng(seed)
    y, g = _random_groups(rng, 5, max_size=6)
    X = rng.integers(-2, 3, size=(y.shape[0], 3)).astype(float)
    w = np.array([1.0, 0.0, 0.0])
    value, coef = _objective(surrogate, X, y, g, 2, w)
    grad = X.T @ coef
    for _ in range(50):
        v = w + rng.normal(scale=rng.choice([1e-3, 1e-1, 1.0]), size=3)
        lower = value + grad @ (v - w)
        assert _objective(surrogate, X, y, g, 2, v)[0] >= lower - 1e-12


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("k", [1, 2, 4])
def test_design_facts_ordering(seed, k):
    # risk <= ramp <= max, ramp <= TS, avg <= max (DESIGN.md)
    rng = np.random.default_rng(seed)
    y, g = _random_groups(rng, 10, max_size=8)
    s = rng.normal(size=y.shape[0])
    if not np.any(y) or np.all(y):
        return
    val = {name: surrogate_loss(y, s, g, k=k, surrogate=name)[0] for name in ALL}
    # skip groups that are undefined consistently: the risk averages the same groups
    defined = [lab for lab in np.unique(g)
               if y[g == lab].any() and (~y[g == lab]).any()]
    mask = np.isin(g, defined)
    risk = 1.0 - papk_score(y[mask], s[mask], k=k, groups=g[mask], ties="error")
    tol = 1e-12
    assert risk <= val["ramp"] + tol
    assert val["ramp"] <= val["max"] + tol
    assert val["ramp"] <= val["ts"] + tol
    assert val["avg"] <= val["max"] + tol


def test_risk_brute_force_agrees_with_papk():
    rng = np.random.default_rng(0)
    for _ in range(30):
        pos = list(rng.integers(-2, 3, size=rng.integers(1, 5)).astype(float))
        neg = list(rng.integers(-2, 3, size=rng.integers(1, 5)).astype(float))
        y = np.array([1] * len(pos) + [0] * len(neg))
        risk = 1.0 - papk_score(y, pos + neg, k=2, ties="error")
        assert risk == pytest.approx(_brute_risk(pos, neg, 2))


def test_avg_is_not_an_upper_bound_of_the_risk():
    # DESIGN.md counterexample to Proposition 3: documented, kept as a check
    # that the avg closed form is the one of eq. 10.
    y, s = np.array([1, 1, 0, 0]), np.array([10.0, -1.0, 0.0, -5.0])
    assert surrogate_loss(y, s, k=2, surrogate="avg")[0] == 0.0
    assert _brute_risk([10.0, -1.0], [0.0, -5.0], 2) == 0.25


# --- zero under the margin conditions (Defs. 2-5, Props. 1, 3, 4, 6) --------

K = 3


def _margin_data(condition, rng):
    """One group's scores (y, s) realising a margin condition with delta = 1,
    but not the stronger ones (so that the test discriminates)."""
    neg = rng.uniform(-3, 0, size=8)  # max negative score <= 0
    top_neg = neg.max()
    if condition == "strong":  # Def. 5: every positive >= max neg + 1
        pos = top_neg + 1 + rng.uniform(0, 2, size=5)
    elif condition == "weak":  # Def. 2: some beta positives >= max neg + 1
        pos = np.concatenate([top_neg + 1 + rng.uniform(0, 2, size=K),
                              top_neg - rng.uniform(0, 2, size=3)])
    elif condition == "moderate":  # Def. 4: all >= max neg, top beta by +1
        pos = np.concatenate([top_neg + 1 + rng.uniform(0, 2, size=K),
                              top_neg + rng.uniform(0, 0.5, size=3)])
    elif condition == "beta":  # Def. 3: mean of every beta-subset >= max neg + 1
        low = top_neg + rng.uniform(0, 0.3, size=2)  # not a strong margin
        high = top_neg + 1.5 + rng.uniform(0, 1, size=4)
        pos = np.concatenate([low, high])
        bottom = np.sort(pos)[:K]
        if bottom.mean() < top_neg + 1:  # lift the high ones until it holds
            pos[2:] += top_neg + 1 - bottom.mean() + 0.1
    y = np.r_[np.ones(pos.shape[0], bool), np.zeros(neg.shape[0], bool)]
    return y, np.r_[pos, neg]


CONSISTENT = {"strong": "max", "weak": "ramp", "moderate": "ts", "beta": "avg"}


@pytest.mark.parametrize("condition", sorted(CONSISTENT))
@pytest.mark.parametrize("seed", range(5))
def test_consistent_surrogate_is_zero_under_its_margin(condition, seed):
    rng = np.random.default_rng(seed)
    y, s = _margin_data(condition, rng)
    name = CONSISTENT[condition]
    assert surrogate_loss(y, s, k=K, surrogate=name)[0] == 0.0
    assert papk_score(y, s, k=K, ties="error") == 1.0  # risk 0
    # the data is not trivially separated with margin 1: the max surrogate
    # (strong margin) is positive for the weaker conditions
    if condition != "strong":
        assert surrogate_loss(y, s, k=K, surrogate="max")[0] > 0.0


@pytest.mark.parametrize("surrogate", ALL)
def test_undefined_groups_are_left_out(surrogate):
    y = np.array([1, 0, 1, 1, 0, 0])
    s = np.array([0.2, 0.5, 0.1, 0.3, 0.9, 0.4])
    g = np.array([0, 0, 1, 1, 2, 2])  # group 1 only positives, 2 only negatives
    value, coef = surrogate_loss(y, s, g, k=2, surrogate=surrogate)
    alone, _ = surrogate_loss(y[:2], s[:2], k=2, surrogate=surrogate)
    assert value == pytest.approx(alone)
    assert np.all(coef[2:] == 0)


@pytest.mark.parametrize("surrogate", [*ALL, "preck"])
@pytest.mark.parametrize("huge_first", [True, False])
def test_a_group_of_huge_scores_leaves_the_others_exact(surrogate, huge_first):
    # the hinge sums came from one prefix sum over every group: a group of
    # scores near 1e17 before a group of small ones erased the latter's
    # digits (max: 0.5 for 0.75), and renaming the groups changed the value
    rng = np.random.default_rng(0)
    y_small, s_small = rng.random(8) < 0.5, rng.normal(size=8)
    y_small[:2] = [True, False]
    y_huge, s_huge = np.array([1, 0, 1, 0], bool), np.array([2e17, 1e17, 3e17, 0])
    y = np.concatenate([y_huge, y_small] if huge_first else [y_small, y_huge])
    s = np.concatenate([s_huge, s_small] if huge_first else [s_small, s_huge])
    g = np.repeat([0, 1] if huge_first else [1, 0], [4, 8] if huge_first else [8, 4])
    value = surrogate_loss(y, s, g, k=2, surrogate=surrogate)[0]
    parts = [surrogate_loss(y_, s_, k=2, surrogate=surrogate)[0]
             for y_, s_ in [(y_huge, s_huge), (y_small, s_small)]]
    assert value == pytest.approx(np.mean(parts), rel=1e-14)
    if surrogate != "preck":  # its oracle is in test_preck.py
        assert parts[1] == pytest.approx(
            _brute(surrogate, y_small, s_small, np.zeros(8), 2), rel=1e-12)


@pytest.mark.parametrize("surrogate", [*ALL, "preck"])
@pytest.mark.parametrize("shift", [1e17, 1e20, 1.7e308, -1.7e308])
def test_hinges_of_huge_scores_are_those_of_their_differences(surrogate, shift):
    # h(m - (P - N)) was summed as sum(N) - a (P - m): 0 at P = N = 1e20
    # (its subgradient said active), inf at 1.7e308; preck's 0 for 1
    y = np.array([1, 0, 1, 0, 0, 1, 0])
    value, coef = surrogate_loss(y, np.full(7, shift), k=2, surrogate=surrogate)
    expected, expected_coef = surrogate_loss(y, np.zeros(7), k=2,
                                             surrogate=surrogate)
    assert value == expected
    np.testing.assert_array_equal(coef, expected_coef)


@pytest.mark.parametrize("surrogate", [*ALL, "preck"])
def test_a_group_whose_score_difference_overflows_adds_no_nan(surrogate):
    # P - N_0 = inf with no active pair gave 0 * (-inf) = NaN, which made
    # the mean over groups NaN (a fit then stopped as diverged)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = surrogate_loss([1, 0, 1, 0, 0, 1, 0],
                               [1.7e308, -1.7e308, 0.0, 0.5, 0.25, 1.0, 2.0],
                               [0, 0, 1, 1, 1, 1, 1], k=2, surrogate=surrogate)[0]
    alone = surrogate_loss([1, 0, 0, 1, 0], [0.0, 0.5, 0.25, 1.0, 2.0], k=2,
                           surrogate=surrogate)[0]
    first = surrogate_loss([1, 0], [1.7e308, -1.7e308], k=2, surrogate=surrogate)[0]
    assert first == 0.0 and value == pytest.approx(alone / 2, rel=1e-15)


def test_preck_of_differences_that_overflow():
    # (review) 0 * inf = NaN in value(K = k), NaN maxima and an IndexError;
    # more rows than k, so that preck scores the group
    y = [1, 1, 1, 0, 0, 0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value, coef = surrogate_loss(y, [1.7e308] * 3 + [-1.7e308] * 3, k=2,
                                     surrogate="preck")
    assert value == 0.0 and not coef.any()  # the exact value: w = 0 wins
    # sums that overflow both ways: an overflow (inf), not a crash
    value = surrogate_loss([1, 0, 1, 0, 0], [1.7e308, 1e308, 1, 1, -1.7e308],
                           k=4, surrogate="preck")[0]
    assert value == np.inf


def test_no_defined_group_gives_zero():
    value, coef = surrogate_loss([1, 1, 0], [1.0, 2.0, 3.0], [0, 0, 1], k=1)
    assert value == 0.0
    assert np.all(coef == 0)


@pytest.mark.parametrize("surrogate", ALL)
def test_string_groups_and_labels(surrogate):
    y = np.array(["no", "yes", "yes", "no", "yes", "no"])
    s = np.array([0.2, 0.5, 0.1, 0.3, 0.9, 0.4])
    g = np.array(["u", "u", "u", "v", "v", "v"])
    v1, c1 = surrogate_loss(y, s, g, k=2, surrogate=surrogate, pos_label="yes")
    v2, c2 = surrogate_loss(y == "yes", s, (g == "v").astype(int), k=2,
                            surrogate=surrogate)
    assert v1 == v2
    np.testing.assert_array_equal(c1, c2)


@pytest.mark.parametrize("surrogate", sorted(SURROGATES))
def test_registry_classes(surrogate):
    loss = SURROGATES[surrogate]()
    assert isinstance(loss, BaseSurrogate)
    assert loss.name == surrogate
    assert loss.convex == (surrogate in ("avg", "max", "pauc", "preck",
                                         "pairwise_logistic"))


@pytest.mark.parametrize("surrogate, convex", [("ts", False), ("avg", True)])
def test_ts_closed_form_is_not_convex(surrogate, convex):
    # documented counterexample: TS is 0 at w=(1,0) and w=(1,-1), 1/2 at the
    # midpoint (the top-beta positive changes with w)
    X = np.array([[2.0, 0.0], [1.0, -2.0], [1.0, -1.0]])
    y = np.array([1, 1, 0])

    def f(w):
        return surrogate_loss(y, X @ np.asarray(w), k=1, surrogate=surrogate)[0]

    midpoint_gap = f([1.0, -0.5]) - 0.5 * (f([1.0, 0.0]) + f([1.0, -1.0]))
    if convex:
        assert midpoint_gap <= 1e-12
    else:
        assert f([1.0, 0.0]) == f([1.0, -1.0]) == 0.0
        assert midpoint_gap == 0.5


def _ts_eq22(s_pos, s_neg, k):
    """The paper's eq. 22 by brute force: the max over the ordering matrices
    of eq. 21 (pi[i, j] = 1: the top-k negative j above positive i; two
    positives with a negative between them keep their score order)."""
    pos = np.sort(s_pos)[::-1]
    neg = np.sort(s_neg)[::-1][:k]
    n_pos, n_neg = pos.shape[0], neg.shape[0]
    beta = min(k, n_pos)
    best = -np.inf
    for bits in itertools.product([0, 1], repeat=n_pos * n_neg):
        pi = np.array(bits).reshape(n_pos, n_neg)
        # a negative above a positive must be above every lower-scored one
        # that it separates from a higher-scored positive below it
        if any(pi[a, j] and not pi[b, j] for j in range(n_neg)
               for a in range(n_pos) for b in range(a + 1, n_pos)):
            continue
        margin = (np.arange(n_pos) < beta).astype(float)[:, None]
        best = max(best, float(np.sum(pi * (margin - pos[:, None] + neg[None, :])))
                   / (beta * n_neg))
    return best


def test_ts_closed_form_bounds_eq_22_and_can_exceed_it():
    # App. D.3 maximises eq. 22 pair by pair (eq. 27); the result need not be
    # an ordering matrix of eq. 21: documented example, then random ones
    y = np.array([1, 1, 0])
    s = np.array([2.5, 2.0, 1.6])
    assert _ts_eq22(s[:2], s[2:], 1) == 0.0
    assert surrogate_loss(y, s, k=1, surrogate="ts")[0] == pytest.approx(0.1)
    rng = np.random.default_rng(0)
    for _ in range(200):
        n_pos, n_neg, k = rng.integers(1, 4), rng.integers(1, 4), rng.integers(1, 4)
        scores = rng.normal(size=n_pos + n_neg)
        labels = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
        exact = _ts_eq22(scores[:n_pos], scores[n_pos:], k)
        closed = surrogate_loss(labels, scores, k=k, surrogate="ts")[0]
        assert closed >= exact - 1e-12


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"surrogate": "hinge"}, ValueError, "'surrogate' parameter"),
        ({"k": 0}, ValueError, "k must be a positive integer"),
        ({"k": 1.5}, TypeError, "k must be a positive integer"),
        # soft_papk's temperature must be positive and finite (a zero one
        # divided by zero, a negative one gave a finite, meaningless loss)
        *[({"surrogate": "soft_papk", "temperature": t}, ValueError,
           "'temperature' parameter") for t in (0.0, -1.0, np.nan, np.inf)],
        # frequency weights: a negative one gave a logistic loss below 0
        ({"surrogate": "pairwise_logistic", "sample_weight": [1.0, -1.0]},
         ValueError, "Negative values in data passed to `sample_weight`"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    params = {"k": 2, "surrogate": "avg", **kwargs}
    with pytest.raises(error, match=match):
        surrogate_loss([1, 0], [0.5, 0.2], **params)


def test_bad_inputs():
    with pytest.raises(ValueError, match="Only binary"):
        surrogate_loss([0, 1, 2], [0.1, 0.2, 0.3], k=1)
    with pytest.raises(ValueError, match="groups has 2 labels"):
        surrogate_loss([0, 1, 1], [0.1, 0.2, 0.3], [0, 1], k=1)
    with pytest.raises(ValueError):
        surrogate_loss([0, 1], [0.1, np.nan], k=1)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_ranking_equals_stable_lexsort_ranking(ties, seed):
    # The losses rank with rank_by_group_and_label, whose score sort takes a
    # fast unstable path when no scores tie: the ranks must be those of a
    # stable sort (ties by row order) either way.
    from skpapk.utils._groups import rank_by_group_and_label

    rng = np.random.default_rng(seed)
    y, g = _random_groups(rng, 30, max_size=20)
    if ties:
        s = rng.integers(-3, 3, y.shape[0]).astype(float)
    else:
        s = rng.normal(size=y.shape[0])
    n = y.shape[0]
    order = np.lexsort((np.arange(n), -s, ~y, g))
    seg = 2 * g[order] + (~y[order])
    first = np.r_[True, seg[1:] != seg[:-1]]
    start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    expected_rank = np.empty(n, dtype=np.intp)
    expected_rank[order] = np.arange(n) - start
    ranking = rank_by_group_and_label(y, s, g, 30)
    np.testing.assert_array_equal(ranking.rank, expected_rank)
    np.testing.assert_array_equal(ranking.n_pos, np.bincount(g[y], minlength=30))
    np.testing.assert_array_equal(ranking.n_neg, np.bincount(g[~y], minlength=30))


def test_integer_scores_beyond_float64_precision_are_values_not_ranks():
    # the metrics rank such integers (they read only the order); a loss
    # reads the values, so it gets their float64 cast
    scores = np.array([2**60, -(2**60), 5, 0])
    got = surrogate_loss([1, 0, 1, 0], scores, k=1, surrogate="pairwise_logistic")
    expected = surrogate_loss([1, 0, 1, 0], scores.astype(np.float64), k=1,
                              surrogate="pairwise_logistic")
    assert got[0] == expected[0]
    np.testing.assert_array_equal(got[1], expected[1])


@pytest.mark.parametrize("surrogate", [*ALL, "preck"])
def test_scores_near_the_largest_float_give_a_value_not_nan(surrogate):
    # (review) sums of differences that overflow both ways gave NaN, an
    # IndexError (preck) and RuntimeWarnings; a value past the largest
    # float is inf, as the solvers expect of an overflow
    rng = np.random.default_rng(0)
    values = [1.7e308, -1.7e308, 1e308, -1e308, 1.0, 0.0, -1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(300):
            n = int(rng.integers(2, 8))
            y = rng.integers(0, 2, n)
            s = rng.choice(values, n)
            value = surrogate_loss(y, s, k=int(rng.integers(1, 5)),
                                   surrogate=surrogate)[0]
            assert not np.isnan(value)


_Y4 = np.array([True, False, True, False])
_S4 = np.array([0.5, 0.2, -1.0, 0.3])
_C4 = np.array([0, 0, 1, 1])
_HINGE_METHODS = ["loss", "loss_gradient", "loss_gradient_sums"]


@pytest.mark.parametrize("surrogate", [*ALL, "preck"])
@pytest.mark.parametrize("method", _HINGE_METHODS)
@pytest.mark.parametrize("y_pos, scores, codes, n_groups, k, error, match", [
    # k=0 gave NaN with RuntimeWarnings (0 for max and ramp, a
    # ZeroDivisionError for preck), k=2.5 a numpy casting error
    (_Y4, _S4, _C4, 2, 0, ValueError, "k must be a positive integer"),
    (_Y4, _S4, _C4, 2, -1, ValueError, "k must be a positive integer"),
    (_Y4, _S4, _C4, 2, 2.5, TypeError, "k must be a positive integer"),
    # codes outside [0, n_groups): an IndexError or a value of fewer groups
    (_Y4, _S4, _C4, 1, 1, ValueError, r"codes must be in \[0, n_groups\)"),
    (_Y4, _S4, np.array([0.0, 0.5, 1.0, 1.0]), 2, 1, ValueError,
     "codes must hold integers"),
    (_Y4, _S4[:3], _C4, 2, 1, ValueError, "scores has shape"),
    (_Y4, np.array([0.5, np.nan, -1.0, 0.3]), _C4, 2, 1, ValueError,
     "scores must be finite"),
    (np.array([2, 0, 1, 0]), _S4, _C4, 2, 1, ValueError,
     "y_pos must hold booleans or 0/1"),
    (_Y4, _S4, _C4, 2.0, 1, TypeError, "n_groups must be an int"),
])
def test_hinge_surrogates_check_their_public_inputs(
        surrogate, method, y_pos, scores, codes, n_groups, k, error, match):
    loss = SURROGATES[surrogate]()
    with pytest.raises(error, match=match):
        getattr(loss, method)(y_pos, scores, codes, n_groups, k)


@pytest.mark.parametrize("surrogate", [*ALL, "preck"])
@pytest.mark.parametrize("method", _HINGE_METHODS)
def test_hinge_surrogates_check_input_false_skips_the_checks(
        surrogate, method, monkeypatch):
    # the estimators evaluate the loss every epoch on data checked once
    loss = SURROGATES[surrogate]()
    expected = getattr(loss, method)(_Y4, _S4, _C4, 2, 1)

    def fail(*args, **kwargs):
        raise AssertionError("checked again")

    monkeypatch.setattr("skpapk.losses._losses.check_layout_inputs", fail)
    monkeypatch.setattr("skpapk.losses._losses.check_scores", fail)
    got = getattr(loss, method)(_Y4, _S4, _C4, 2, 1, check_input=False)
    if method == "loss":
        got, expected = [got], [expected]
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("surrogate", ["avg", "preck"])
def test_linear_rankers_do_not_check_the_hinge_inputs_every_epoch(
        surrogate, monkeypatch):
    from skpapk import PApKRanker, PrecAtKRanker

    rng = np.random.default_rng(0)
    y = np.tile([1, 0, 0], 20)
    X = rng.normal(size=(60, 3)) + y[:, None]
    groups = np.repeat(np.arange(6), 10)

    def fail(*args, **kwargs):
        raise AssertionError("checked again")

    monkeypatch.setattr("skpapk.losses._losses.check_layout_inputs", fail)
    ranker = (PrecAtKRanker(k=2, max_iter=5, random_state=0) if surrogate == "preck"
              else PApKRanker(surrogate, k=2, max_iter=5, random_state=0))
    ranker.fit(X, y, groups=groups)
    assert ranker.n_iter_ >= 1


@pytest.mark.parametrize("surrogate", sorted(SURROGATES))
def test_loss_is_the_value_of_loss_gradient_with_its_keywords(surrogate):
    # (review) loss passed check_input to every surrogate, and the smooth
    # ones' loss_gradient does not take it: their loss raised a TypeError
    loss = SURROGATES[surrogate]()
    kwargs = ({"sample_weight": np.array([1.0, 2.0, 0.5, 3.0])} if loss.smooth
              else {"check_input": False})
    assert loss.loss(_Y4, _S4, _C4, 2, 1, **kwargs) == loss.loss_gradient(
        _Y4, _S4, _C4, 2, 1, **kwargs)[0]
    assert loss.loss(_Y4, _S4, _C4, 2, 1) == loss.loss_gradient(
        _Y4, _S4, _C4, 2, 1)[0]
