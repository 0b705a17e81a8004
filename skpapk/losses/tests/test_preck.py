"""Tests of the prec@k avg surrogate (Kar et al. 2015, App. B.4).

The oracle enumerates every labelling ``yhat`` with ``|yhat| = k`` and applies
the seed's definition term by term; the closed form (best number ``K`` of true
positives per group) must agree with it.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skpapk.losses import SURROGATES, PrecAtKSurrogate, surrogate_loss
from skpapk.metrics import precision_at_k_score


def _brute_group(pos, neg, k):
    """max over |yhat| = k of the seed's surrogate, divided by k.

    ``Delta = k - K``, ``1/C = (n+ - k)/(n+ - K)``; the ``1/C`` term is 0
    when it multiplies an empty sum (``K = n+``). A group with at most ``k``
    rows is 0: its prec@k does not depend on the scores (every row is
    shown; the definition has no ``yhat`` when ``n < k``).
    """
    s = np.r_[pos, neg].astype(float)
    y = np.r_[np.ones(len(pos)), np.zeros(len(neg))]
    n, n_pos = s.shape[0], len(pos)
    if n <= k:
        return 0.0
    best = -np.inf
    for chosen in itertools.combinations(range(n), k):
        yhat = np.zeros(n)
        yhat[list(chosen)] = 1.0
        n_true = int(np.sum(yhat * y))
        value = (k - n_true) + np.sum((yhat - y) * s)
        left_out = (1 - yhat) * y
        if left_out.any():
            value += (n_pos - k) / (n_pos - n_true) * np.sum(left_out * s)
        best = max(best, value)
    return best / k


def _brute_maximisers(pos, neg, k):
    """Value (divided by k) and score coefficients of every maximising yhat.

    The term of a labelling ``yhat`` is linear in the scores: ``Delta + a . s``
    with ``a_i = (yhat_i - y_i) + (1/C) (1 - yhat_i) y_i``, so ``a / k`` is
    the gradient of the surrogate wherever ``yhat`` is the only maximiser,
    and the subdifferential is the convex hull of the ``a / k`` of the
    maximisers.
    """
    s = np.r_[pos, neg].astype(float)
    y = np.r_[np.ones(len(pos)), np.zeros(len(neg))]
    n, n_pos = s.shape[0], len(pos)
    terms = []
    for chosen in itertools.combinations(range(n), k):
        yhat = np.zeros(n)
        yhat[list(chosen)] = 1.0
        n_true = int(np.sum(yhat * y))
        left_out = (1 - yhat) * y
        inv_c = (n_pos - k) / (n_pos - n_true) if left_out.any() else 0.0
        a = (yhat - y) + inv_c * left_out
        terms.append(((k - n_true) + a @ s, a))
    best = max(value for value, _ in terms)
    return best / k, [a / k for value, a in terms if value >= best - 1e-12]


def _brute(y, s, g, k):
    values = []
    for label in np.unique(g):
        mask = g == label
        pos, neg = s[mask & y], s[mask & ~y]
        if pos.size and neg.size:
            values.append(_brute_group(pos, neg, k))
    return float(np.mean(values)) if values else 0.0


def _random_groups(rng, n_groups, max_size=6):
    sizes = rng.integers(1, max_size + 1, size=n_groups)
    g = np.repeat(np.arange(n_groups), sizes)
    rng.shuffle(g)
    y = rng.random(g.shape[0]) < 0.5
    return y, g


@pytest.mark.parametrize("k", [1, 2, 3, 5])
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("integer_scores", [False, True])
def test_value_matches_brute_force(k, seed, integer_scores):
    rng = np.random.default_rng(seed)
    y, g = _random_groups(rng, 6)
    if integer_scores:  # ties everywhere
        s = rng.integers(-2, 3, size=y.shape[0]).astype(float)
    else:
        s = rng.normal(size=y.shape[0])
    value, coef = surrogate_loss(y, s, g, k=k, surrogate="preck")
    assert value == pytest.approx(_brute(y, s, g, k), abs=1e-12)
    assert coef.shape == y.shape


@settings(max_examples=80, deadline=None)
@given(data=st.data(), k=st.integers(1, 4))
def test_value_matches_brute_force_hypothesis(data, k):
    n = data.draw(st.integers(1, 9))
    g = np.array(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
    y = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    s = np.array(data.draw(st.lists(
        st.floats(-3, 3, allow_nan=False, width=32), min_size=n, max_size=n)))
    value, _ = surrogate_loss(y, s, g, k=k, surrogate="preck", pos_label=True)
    assert value == pytest.approx(_brute(y, s, g, k), abs=1e-9)


@pytest.mark.parametrize(
    "pos, neg, k, expected",
    [
        # n+ < k: K = n+ is feasible; its 1/C term multiplies an empty sum and
        # it wins: (k - n+) + top negative = 1 + 0, over k = 2. The formula
        # with min(k, n+) restricted to K < n+ would give (2 - 1 - 5) / 2.
        ([5.0], [0.0, -1.0], 2, 0.5),
        # n+ < k, K = 0 wins: 1/C = (1 - 2)/(1 - 0) < 0, weight (k - K)/(n+ - K)
        # = 2 on the positive: (2 + 2 + 1 - 2 * 0) / 2.
        ([0.0], [1.0, 2.0], 2, 2.5),
        # n+ = k: K = k gives 0 (0/0 times an empty sum), K = 1 gives
        # 1 + 0.5 - 0.1 and K = 0 wins: 2 + 0.5 + 0.2 - (0.1 + 0.3) = 2.3.
        ([0.1, 0.3], [0.5, 0.2], 2, 2.3 / 2),
        # separated with margin 1 and n+ >= k: zero (Claim 6 of the seed)
        ([3.0, 2.5, 2.0], [1.0, 0.0, -4.0], 2, 0.0),
        # at most k rows: every row is shown, prec@k is constant: 0
        # (the only yhat of n = k would give n- + sum of negatives = 1.5 / 2)
        ([2.0], [0.0, -1.0], 4, 0.0),
        ([2.0], [0.0, 0.5], 3, 0.0),
    ],
)
def test_edge_cases(pos, neg, k, expected):
    y = np.r_[np.ones(len(pos), bool), np.zeros(len(neg), bool)]
    s = np.r_[pos, neg]
    value, _ = surrogate_loss(y, s, k=k, surrogate="preck")
    assert value == pytest.approx(expected)
    assert value == pytest.approx(_brute_group(pos, neg, k))


def _objective(X, y, g, k, w):
    return surrogate_loss(y, X @ w, g, k=k, surrogate="preck")


@pytest.mark.parametrize("k", [1, 3, 6])
@pytest.mark.parametrize("seed", range(5))
def test_subgradient_matches_finite_differences(k, seed):
    rng = np.random.default_rng(seed)
    y, g = _random_groups(rng, 7, max_size=8)
    X = rng.normal(size=(y.shape[0], 4))
    w = rng.normal(size=4)
    _, coef = _objective(X, y, g, k, w)
    grad = X.T @ coef
    eps = 1e-6
    numeric = np.empty(4)
    for d in range(4):
        e = np.zeros(4)
        e[d] = eps
        numeric[d] = (_objective(X, y, g, k, w + e)[0]
                      - _objective(X, y, g, k, w - e)[0]) / (2 * eps)
    # continuous random data: w is away from kinks almost surely
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("n_pos, n_neg, k", [(2, 6, 4), (1, 5, 3), (3, 5, 6),
                                           (4, 3, 3), (1, 2, 2), (5, 2, 4)])
@pytest.mark.parametrize("point", ["zero", "random", "large", "integer"])
def test_subgradient_is_the_gradient_of_a_brute_force_maximiser(n_pos, n_neg, k,
                                                                point):
    # One group of more than k rows, several w (w = 0: every score ties;
    # integer features: ties between labellings), n+ < k included (groups of
    # at most k rows are 0, see test_groups_of_at_most_k_rows_are_constant).
    # The returned coefficients must be
    # those of a maximising yhat of the seed's definition, so X.T @ coef is
    # the gradient of an active linear piece: a subgradient, and the gradient
    # itself where the maximiser is unique.
    rng = np.random.default_rng(n_pos * 100 + n_neg * 10 + k)
    n = n_pos + n_neg
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    if point == "integer":
        X = rng.integers(-2, 3, size=(n, 3)).astype(float)
    else:
        X = rng.normal(size=(n, 3))
    w = {"zero": np.zeros(3), "random": rng.normal(size=3),
         "large": 10 * rng.normal(size=3), "integer": np.array([1.0, -1.0, 0.0])}
    s = X @ w[point]
    value, coef = surrogate_loss(y, s, k=k, surrogate="preck")
    best, maximisers = _brute_maximisers(s[y], s[~y], k)
    assert value == pytest.approx(best, abs=1e-12)
    a_pos_neg = np.r_[coef[y], coef[~y]]  # the oracle orders positives first
    assert any(np.allclose(a_pos_neg, a, atol=1e-12) for a in maximisers)
    if len(maximisers) == 1:
        np.testing.assert_allclose(X.T @ coef, np.r_[X[y], X[~y]].T @ maximisers[0],
                                   atol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_convex_subgradient_inequality_at_kinks(seed):
    # integer data puts w on kinks (ties between K, tied scores): the returned
    # direction must still satisfy f(v) >= f(w) + <g, v - w>.
    rng = np.random.default_rng(seed)
    y, g = _random_groups(rng, 5, max_size=7)
    X = rng.integers(-2, 3, size=(y.shape[0], 3)).astype(float)
    w = np.array([1.0, 0.0, 0.0])
    value, coef = _objective(X, y, g, 2, w)
    grad = X.T @ coef
    for _ in range(50):
        v = w + rng.normal(scale=rng.choice([1e-3, 1e-1, 1.0]), size=3)
        assert _objective(X, y, g, 2, v)[0] >= value + grad @ (v - w) - 1e-12


def _claim17_data(rng, k, n_groups=5):
    """Groups with n+ >= k and n- >= 1 (Claim 17's assumption)."""
    n_pos = rng.integers(k, k + 4, size=n_groups)
    n_neg = rng.integers(1, 6, size=n_groups)
    g = np.repeat(np.arange(n_groups), n_pos + n_neg)
    y = np.concatenate([np.r_[np.ones(a, bool), np.zeros(b, bool)]
                        for a, b in zip(n_pos, n_neg)])
    return y, g


@pytest.mark.parametrize("k", [1, 2, 4])
@pytest.mark.parametrize("seed", range(20))
def test_upper_bounds_prec_at_k_risk(k, seed):
    # Claim 17: l_avg(s) >= Delta(y, top-k of s) = k - TP@k, for k <= n+. In
    # our normalisation (divided by k) the mean over groups bounds the mean
    # prec@k risk, 1 - precision_at_k_score.
    rng = np.random.default_rng(seed)
    y, g = _claim17_data(rng, k)
    s = rng.normal(scale=rng.choice([0.1, 1.0, 10.0]), size=y.shape[0])
    value, _ = surrogate_loss(y, s, g, k=k, surrogate="preck")
    risk = 1.0 - precision_at_k_score(y, s, k=k, groups=g)
    assert value >= risk - 1e-12


@settings(max_examples=60, deadline=None)
@given(data=st.data(), k=st.integers(1, 3))
def test_upper_bounds_prec_at_k_risk_hypothesis(data, k):
    n_pos = data.draw(st.integers(k, k + 3))
    n_neg = data.draw(st.integers(1, 4))
    s = np.array(data.draw(st.lists(st.floats(-5, 5, allow_nan=False, width=32),
                                    min_size=n_pos + n_neg, max_size=n_pos + n_neg)))
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    value, _ = surrogate_loss(y, s, k=k, surrogate="preck", pos_label=True)
    # ties="error": a tie at the k-th place counts the pessimistic way; the
    # claim holds for every top-k labelling.
    risk = 1.0 - precision_at_k_score(y, s, k=k, ties="error", pos_label=True)
    assert value >= risk - 1e-9


def test_not_an_upper_bound_when_fewer_positives_than_k():
    # Outside Claim 17 (n+ < k) the bound fails: one positive on top, k = 2,
    # prec@2 = 1/2 (risk 1/2), but the surrogate is (1 + (-3)) / 2 = -1.
    y = np.array([1, 0, 0])
    s = np.array([5.0, -3.0, -4.0])
    value, _ = surrogate_loss(y, s, k=2, surrogate="preck")
    assert value == pytest.approx(-1.0)
    assert 1.0 - precision_at_k_score(y, s, k=2) == 0.5


def test_undefined_groups_are_left_out():
    y = np.array([1, 0, 0, 1, 1, 0, 0])
    s = np.array([0.2, 0.5, 0.6, 0.1, 0.3, 0.9, 0.4])
    g = np.array([0, 0, 0, 1, 1, 2, 2])  # group 1 only positives, 2 negatives
    value, coef = surrogate_loss(y, s, g, k=2, surrogate="preck")
    alone, coef_alone = surrogate_loss(y[:3], s[:3], k=2, surrogate="preck")
    assert value == pytest.approx(alone)
    assert np.all(coef[3:] == 0)
    np.testing.assert_allclose(coef[:3], coef_alone)


def test_gradient_coefficients_of_the_maximiser():
    # one group, k = 2, positives (3, 1, 0), negatives (2, -1): the best K is
    # 1 (top positive 3, top negative 2): value 1 + 2 - (1/2) * (1 + 0) = 2.5
    # versus K = 0: 2 + 2 - 1 - (2/3)*4 < 2.5 and K = 2: 0.
    y = np.array([1, 1, 1, 0, 0])
    s = np.array([3.0, 1.0, 0.0, 2.0, -1.0])
    value, coef = surrogate_loss(y, s, k=2, surrogate="preck")
    assert value == pytest.approx(2.5 / 2)
    np.testing.assert_allclose(coef, [0.0, -0.25, -0.25, 0.5, 0.0])


def test_registry_and_class():
    loss = PrecAtKSurrogate()
    assert loss.name == "preck" and loss.convex
    assert SURROGATES["preck"] is PrecAtKSurrogate
    y, s = np.array([1, 0, 1, 0]), np.array([0.3, 0.4, 0.1, 0.2])
    assert (surrogate_loss(y, s, k=1, surrogate=loss)[0]
            == surrogate_loss(y, s, k=1, surrogate="preck")[0])
    with pytest.raises(ValueError, match="preck"):
        surrogate_loss(y, s, k=1, surrogate="prec")


@pytest.mark.parametrize("seed", range(5))
def test_shift_of_the_scores_changes_the_value_only_when_fewer_positives_than_k(seed):
    # Adding c to every score of a group leaves each term with K < n+ alone
    # ((k - K) c from the negatives, -(k - K) c from the n+ - K positives),
    # but adds (k - n+) c to the term K = n+, feasible when n+ <= k. So with
    # n+ >= k the surrogate ranks, and with n+ < k it also rewards lowering
    # every score: for c large that term wins and the value is affine in c.
    rng = np.random.default_rng(seed)
    s_pos, s_neg = rng.normal(size=6), rng.normal(size=8)
    y = np.r_[np.ones(6, bool), np.zeros(8, bool)]
    s = np.r_[s_pos, s_neg]
    for c in (-3.0, 0.5, 10.0):
        assert (surrogate_loss(y, s + c, k=4, surrogate="preck")[0]
                == pytest.approx(surrogate_loss(y, s, k=4, surrogate="preck")[0]))
    y_few = np.r_[np.ones(2, bool), np.zeros(8, bool)]  # n+ = 2 < k = 4
    s_few = np.r_[s_pos[:2], s_neg]
    top_neg = np.sort(s_neg)[::-1][:2].sum()
    value, coef = surrogate_loss(y_few, s_few + 10.0, k=4, surrogate="preck")
    assert value == pytest.approx(((4 - 2) * (1 + 10.0) + top_neg) / 4)
    assert np.all(coef[y_few] == 0)  # no positive in the gradient of that term
    assert value == pytest.approx(_brute_group(s_few[:2] + 10, s_few[2:] + 10, 4))


@pytest.mark.parametrize("n_rows", [3, 4])
def test_groups_of_at_most_k_rows_are_constant(n_rows):
    # k = 4: every row of the first group is shown whatever the scores, so its
    # prec@k is constant: it adds 0 and no gradient, but counts in the mean.
    rng = np.random.default_rng(n_rows)
    y = np.r_[np.ones(1, bool), np.zeros(n_rows - 1, bool),
              np.ones(3, bool), np.zeros(5, bool)]
    g = np.r_[np.zeros(n_rows, int), np.ones(8, int)]
    s = rng.normal(size=y.shape[0])
    for shift in (0.0, -5.0, 5.0):
        t = s + shift * (g == 0)
        value, coef = surrogate_loss(y, t, g, k=4, surrogate="preck")
        assert np.all(coef[g == 0] == 0)
        alone = surrogate_loss(y[g == 1], t[g == 1], k=4, surrogate="preck")[0]
        assert value == pytest.approx(alone / 2)
