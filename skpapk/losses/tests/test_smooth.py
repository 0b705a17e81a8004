"""The smooth pairwise surrogates against per-group oracles and finite differences."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq
from scipy.special import expit

from skpapk.losses import (
    GROUP_WEIGHTS,
    SURROGATES,
    LightGBMObjective,
    PairwiseLogisticSurrogate,
    SoftPApKSurrogate,
    group_weights,
    make_pair_layout,
    surrogate_loss,
)

SMOOTH = ["pairwise_logistic", "soft_papk"]


def _logistic(z):
    return np.logaddexp(0.0, -z)


def _soft_membership(s, a, m, T):
    """Per-group oracle: sigmoid((s - t) / T) with sum a * p = m (brentq)."""
    if a.sum() <= m:
        return np.ones_like(s)
    f = lambda t: np.sum(a * expit((s - t) / T)) - m  # noqa: E731
    t = brentq(f, s.min() - 60 * T, s.max() + 60 * T, xtol=1e-14, rtol=1e-15)
    return expit((s - t) / T)


def oracle_value(y, s, groups, k, surrogate, T=1.0, weight=None, frozen=None,
                 group_weight="uniform"):
    """Mean over groups of sum_ij u_i v_j l(s_i - s_j), written out per group.

    ``group_weight="inverse_variance"`` weighs group ``g`` by the inverse of
    the variance of its AUC under a random ranking (Mann-Whitney),
    ``12 n+ n- / (n+ + n- + 1)``.

    ``frozen``: scores at which the soft weights are computed (default
    ``s``), to check the Hessian of the loss with the weights held fixed.
    """
    weight = np.ones_like(s) if weight is None else weight
    frozen = s if frozen is None else frozen
    values, weights = [], []
    for g in np.unique(groups):
        m = groups == g
        pos, neg = m & y, m & ~y
        a, b = weight[pos], weight[neg]
        if a.sum() == 0 or b.sum() == 0:
            continue
        if surrogate == "pairwise_logistic":
            u, v = a / a.sum(), b / b.sum()
        else:
            # standardise the group's scores, then soft top-k of each label
            w_g, s_g = weight[m], frozen[m]
            mean = np.average(s_g, weights=w_g)
            std = np.sqrt(np.average((s_g - mean) ** 2, weights=w_g))
            z = np.zeros_like(frozen) if std == 0 else (frozen - mean) / std
            beta, kk = min(k, a.sum()), min(k, b.sum())
            u = a * _soft_membership(z[pos], a, beta, T) / beta
            v = b * _soft_membership(z[neg], b, kk, T) / kk
        z = s[pos][:, None] - s[neg][None, :]
        values.append(u @ _logistic(z) @ v)
        n_pos, n_neg = a.sum(), b.sum()
        var = (n_pos + n_neg + 1) / (12 * n_pos * n_neg)
        weights.append(1.0 if group_weight == "uniform" else 1.0 / var)
    return float(np.average(values, weights=weights)) if values else 0.0


def _data(seed, n=60, n_groups=5, pos_rate=0.3, ties=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < pos_rate
    s = rng.normal(size=n) * 2
    if ties:
        s = np.round(s)
    groups = rng.integers(0, n_groups, n)
    return y, s, groups


def _fd_gradient(f, s, eps=1e-6):
    grad = np.empty_like(s)
    for i in range(s.shape[0]):
        e = np.zeros_like(s)
        e[i] = eps
        grad[i] = (f(s + e) - f(s - e)) / (2 * eps)
    return grad


@pytest.mark.parametrize("surrogate", SMOOTH)
@pytest.mark.parametrize("k", [1, 3, 10])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("temperature", [0.3, 1.0, 5.0])
@pytest.mark.parametrize("group_weight", GROUP_WEIGHTS)
def test_value_matches_per_group_oracle(surrogate, k, seed, temperature,
                                        group_weight):
    y, s, groups = _data(seed)
    value, _ = surrogate_loss(y, s, groups, k=k, surrogate=surrogate,
                              temperature=temperature, group_weight=group_weight)
    expected = oracle_value(y, s, groups, k, surrogate, temperature,
                            group_weight=group_weight)
    assert value == pytest.approx(expected, rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("surrogate", SMOOTH)
@pytest.mark.parametrize("k", [1, 4])
@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("group_weight", GROUP_WEIGHTS)
def test_gradient_matches_finite_differences(surrogate, k, seed, ties, group_weight):
    y, s, groups = _data(seed, n=40, ties=ties)
    params = dict(k=k, surrogate=surrogate, temperature=0.7,
                  group_weight=group_weight)
    loss = lambda t: surrogate_loss(y, t, groups, **params)[0]  # noqa: E731
    _, grad = surrogate_loss(y, s, groups, **params)
    np.testing.assert_allclose(grad, _fd_gradient(loss, s), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("surrogate", SMOOTH)
@pytest.mark.parametrize("seed", [5, 6])
@pytest.mark.parametrize("group_weight", GROUP_WEIGHTS)
def test_hessian_is_diagonal_of_the_fixed_weight_loss(surrogate, seed, group_weight):
    """Second finite differences of the loss with the soft weights frozen at s."""
    y, s, groups = _data(seed, n=40)
    k, T, eps = 3, 0.8, 1e-4
    _, _, hess = surrogate_loss(y, s, groups, k=k, surrogate=surrogate,
                                temperature=T, group_weight=group_weight,
                                return_hessian=True)
    f = lambda t: oracle_value(y, t, groups, k, surrogate, T, frozen=s,  # noqa
                               group_weight=group_weight)
    expected = np.empty_like(s)
    for i in range(s.shape[0]):
        e = np.zeros_like(s)
        e[i] = eps
        expected[i] = (f(s + e) - 2 * f(s) + f(s - e)) / eps**2
    np.testing.assert_allclose(hess, expected, rtol=1e-4, atol=1e-7)
    assert np.all(hess >= 0)


def test_pairwise_logistic_hessian_is_exact():
    """Without soft weights the diagonal is the true second derivative."""
    y, s, groups = _data(7, n=30)
    f = lambda t: surrogate_loss(y, t, groups, k=2,  # noqa: E731
                                 surrogate="pairwise_logistic")[0]
    _, _, hess = surrogate_loss(y, s, groups, k=2, surrogate="pairwise_logistic",
                                return_hessian=True)
    eps = 1e-4
    for i in range(s.shape[0]):
        e = np.zeros_like(s)
        e[i] = eps
        assert hess[i] == pytest.approx((f(s + e) - 2 * f(s) + f(s - e)) / eps**2,
                                        rel=1e-4, abs=1e-7)


@pytest.mark.parametrize("surrogate", SMOOTH)
@pytest.mark.parametrize("truncation_level", [None, 2])
def test_threads_do_not_change_a_bit(surrogate, truncation_level):
    y, s, groups = _data(8, n=300, n_groups=7)
    codes = np.unique(groups, return_inverse=True)[1]
    loss = SURROGATES[surrogate](truncation_level=truncation_level)
    ref = loss.loss_gradient_hessian(y, s, codes, 7, 4, n_threads=1)
    for n_threads in (2, 5):
        got = loss.loss_gradient_hessian(y, s, codes, 7, 4, n_threads=n_threads)
        assert got[0] == ref[0]
        np.testing.assert_array_equal(got[1], ref[1])
        np.testing.assert_array_equal(got[2], ref[2])


def _truncated_oracle(y, s, groups, T, group_weight):
    """Mean over groups of the mean logistic loss of the kept pairs' terms
    ``u_i v_j l(s_i - s_j)``, ``u = 1/n+``, ``v = 1/n-``, pairs with the
    relevant row among the top ``T`` relevant rows or the irrelevant one
    among the top ``T`` irrelevant rows."""
    values, weights = [], []
    for g in np.unique(groups):
        m = groups == g
        sp, sn = s[m & y], s[m & ~y]
        if sp.size == 0 or sn.size == 0:
            continue
        keep = np.ones((sp.size, sn.size), dtype=bool)
        if sp.size > T and sn.size > T:
            rp = np.argsort(np.argsort(-sp, kind="stable"), kind="stable")
            rn = np.argsort(np.argsort(-sn, kind="stable"), kind="stable")
            keep = (rp[:, None] < T) | (rn[None, :] < T)
        terms = _logistic(sp[:, None] - sn[None, :]) * keep
        values.append(terms.sum() / (sp.size * sn.size))
        weights.append(1.0 if group_weight == "uniform" else
                       12.0 * sp.size * sn.size / (sp.size + sn.size + 1))
    return float(np.average(values, weights=weights))


@pytest.mark.parametrize("T", [1, 3, 8])
@pytest.mark.parametrize("group_weight", GROUP_WEIGHTS)
@pytest.mark.parametrize("seed", [0, 1])
def test_truncated_loss_and_its_gradient(T, group_weight, seed):
    """The truncated pairwise loss against its definition, and its gradient
    against finite differences (no ties: the ranks do not move within eps)."""
    y, s, groups = _data(seed, n=80, n_groups=3)
    loss = PairwiseLogisticSurrogate(group_weight, truncation_level=T)
    codes = np.unique(groups, return_inverse=True)[1]
    value, grad, _ = loss.loss_gradient(y, s, codes, 3, 2)
    assert value == pytest.approx(_truncated_oracle(y, s, groups, T, group_weight),
                                  rel=1e-12)
    f = lambda t: loss.loss_gradient(y, t, codes, 3, 2)[0]  # noqa: E731
    np.testing.assert_allclose(grad, _fd_gradient(f, s), rtol=1e-6, atol=1e-9)


def test_truncation_keeps_every_pair_of_short_lists():
    y, s, groups = _data(3, n=60, n_groups=6)
    codes = np.unique(groups, return_inverse=True)[1]
    full = PairwiseLogisticSurrogate().loss_gradient_hessian(y, s, codes, 6, 3)
    cut = PairwiseLogisticSurrogate(truncation_level=60).loss_gradient_hessian(
        y, s, codes, 6, 3)
    assert cut[0] == full[0]
    np.testing.assert_array_equal(cut[1], full[1])


@pytest.mark.parametrize("surrogate", SMOOTH)
def test_value_is_optional(surrogate):
    y, s, groups = _data(4, n=50)
    codes = np.unique(groups, return_inverse=True)[1]
    loss = SURROGATES[surrogate]()
    value, grad, hess, _ = loss.loss_gradient_hessian(y, s, codes, 5, 3,
                                                      value=False)
    ref = loss.loss_gradient_hessian(y, s, codes, 5, 3)
    assert value is None
    np.testing.assert_array_equal(grad, ref[1])
    np.testing.assert_array_equal(hess, ref[2])


@pytest.mark.parametrize("surrogate", SMOOTH)
def test_integer_weights_equal_repeated_rows(surrogate):
    y, s, groups = _data(9, n=40)
    w = np.random.default_rng(9).integers(0, 4, 40)
    rep = np.repeat(np.arange(40), w)
    v_w, g_w, h_w = surrogate_loss(y, s, groups, k=3, surrogate=surrogate,
                                   sample_weight=w, return_hessian=True)
    v_r, g_r, h_r = surrogate_loss(y[rep], s[rep], groups[rep], k=3,
                                   surrogate=surrogate, return_hessian=True)
    assert v_w == pytest.approx(v_r, rel=1e-10)
    # a row's gradient is the sum of its copies' gradients (zero weight: 0)
    np.testing.assert_allclose(g_w, np.bincount(rep, g_r, minlength=40),
                               atol=1e-12)
    np.testing.assert_allclose(h_w, np.bincount(rep, h_r, minlength=40),
                               atol=1e-12)


@pytest.mark.parametrize("scale", [1e-3, 10.0])
def test_soft_memberships_do_not_depend_on_the_scale(scale):
    """The temperature is in units of each group's score spread."""
    y, s, groups = _data(14, n=50)
    shift = np.random.default_rng(1).normal(size=5)[groups]  # per-group offset
    loss = SoftPApKSurrogate(temperature=0.4)
    codes = np.unique(groups, return_inverse=True)[1]
    layout = make_pair_layout(y, codes, 5)
    u, v, _ = loss._weights(s[layout.order], layout, 3)
    u2, v2, _ = loss._weights((scale * s + shift)[layout.order], layout, 3)
    np.testing.assert_allclose(u2, u, rtol=1e-8, atol=1e-14)
    np.testing.assert_allclose(v2, v, rtol=1e-8, atol=1e-14)


@pytest.mark.parametrize("scale", [1e154, 1e200, 1e300])
@pytest.mark.parametrize("weight", [None, 1e20])
def test_soft_memberships_of_scores_whose_squares_overflow(scale, weight):
    # the group variance overflowed: every z became 0, the memberships
    # uniform, and soft_papk the all-pairs loss, with a RuntimeWarning; and
    # (review) a group of small scores beside them keeps its own
    y = np.tile(np.array([1, 1, 1, 0, 0, 0], bool), 2)
    s = np.tile(np.array([3.0, -2.0, 1.0, 2.5, -1.0, 2.0]), 2)
    codes = np.repeat([0, 1], 6)
    w = None if weight is None else np.where(np.arange(12) == 0, weight, 1.0)
    loss = SoftPApKSurrogate(temperature=0.4)
    layout = make_pair_layout(y, codes, 2, sample_weight=w)
    u, v, _ = loss._weights(s[layout.order], layout, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        u2, v2, _ = loss._weights((np.where(codes == 0, scale, 1.0) * s)[
            layout.order], layout, 1)
    np.testing.assert_allclose(u2, u, rtol=1e-12)
    np.testing.assert_allclose(v2, v, rtol=1e-12)


def test_equal_scores_give_uniform_memberships():
    y = np.array([True, True, False, False, False])
    value, grad = surrogate_loss(y, np.zeros(5), k=2, surrogate="soft_papk")
    assert value == pytest.approx(np.log(2))
    np.testing.assert_allclose(grad, [-0.25, -0.25, 1 / 6, 1 / 6, 1 / 6])


@pytest.mark.parametrize("spread", [1e-16, 1e-18, 1e-20])
def test_a_spread_below_the_pair_losses_precision_counts_as_none(spread):
    # the pair losses are exact to about 1e-16, an error that the
    # standardisation divides by the spread: below 1e-12 the gradient was
    # noise (entries of 60 at 1e-20); it is now that of equal scores
    y = np.array([1, 0] * 6)
    groups = np.repeat([0, 1], 6)
    s = np.random.default_rng(3).normal(size=12)
    _, tiny = surrogate_loss(y, spread * s, groups, k=2, surrogate="soft_papk")
    _, equal = surrogate_loss(y, np.zeros(12), groups, k=2, surrogate="soft_papk")
    np.testing.assert_allclose(tiny, equal, atol=1e-12)
    # a spread of 1e-9 keeps its soft memberships (not those of equal scores)
    _, small = surrogate_loss(y, 1e-9 * s, groups, k=2, surrogate="soft_papk")
    assert np.abs(small - equal).max() > 1e-3


def test_temperature_limits():
    """High T: every pair alike (AUC); low T: pAp@k's top pairs only."""
    y, s, groups = _data(10, n=60, n_groups=2)
    k = 3
    auc = surrogate_loss(y, s, groups, k=k, surrogate="pairwise_logistic")[0]
    hot = surrogate_loss(y, s, groups, k=k, surrogate="soft_papk",
                         temperature=1e6)[0]
    assert hot == pytest.approx(auc, rel=1e-5)
    cold = surrogate_loss(y, s, groups, k=k, surrogate="soft_papk",
                          temperature=1e-4)[0]
    hard = []
    for g in np.unique(groups):
        pos = np.sort(s[(groups == g) & y])[::-1][:k]
        neg = np.sort(s[(groups == g) & ~y])[::-1][:k]
        hard.append(_logistic(pos[:, None] - neg[None, :]).mean())
    assert cold == pytest.approx(np.mean(hard), rel=1e-6)


@pytest.mark.parametrize("surrogate", SMOOTH)
def test_row_order_and_undefined_groups(surrogate):
    y, s, groups = _data(11, n=50)
    # a group with relevant rows only and one with irrelevant rows only
    y = np.r_[y, True, True, False]
    s = np.r_[s, 0.1, 0.2, 0.3]
    groups = np.r_[groups, 100, 100, 101]
    value, grad = surrogate_loss(y, s, groups, k=2, surrogate=surrogate)
    assert np.all(grad[-3:] == 0)
    perm = np.random.default_rng(0).permutation(y.shape[0])
    value_p, grad_p = surrogate_loss(y[perm], s[perm], groups[perm], k=2,
                                     surrogate=surrogate)
    assert value_p == pytest.approx(value, rel=1e-12)
    np.testing.assert_allclose(grad_p, grad[perm], rtol=1e-10, atol=1e-15)


def test_layout_is_reusable():
    y, s, groups = _data(12)
    codes = np.unique(groups, return_inverse=True)[1]
    layout = make_pair_layout(y, codes, 5)
    loss = SoftPApKSurrogate(temperature=0.5)
    for shift in (0.0, 1.0):
        a = loss.loss_gradient_hessian(y, s + shift * y, codes, 5, 3, layout=layout)
        b = loss.loss_gradient_hessian(y, s + shift * y, codes, 5, 3)
        assert a[0] == b[0]
        np.testing.assert_array_equal(a[1], b[1])


def test_pair_count_and_no_pairs():
    y = np.array([True, False, False, True, True])
    codes = np.array([0, 0, 0, 1, 1])
    layout = make_pair_layout(y, codes, 2)
    assert layout.n_pairs == 2 and layout.n_defined == 1
    value, grad, hess, n_used = PairwiseLogisticSurrogate().loss_gradient_hessian(
        np.array([True]), np.array([0.0]), np.array([0]), 1, 1)
    assert (value, n_used) == (0.0, 0) and grad.tolist() == [0.0]


def test_parts_of_the_groups_add_up():
    """Sums over disjoint sets of whole groups add to the sums of all groups."""
    y, s, groups = _data(13, n=80, n_groups=6)
    loss = SoftPApKSurrogate(temperature=0.5, group_weight="inverse_variance")
    codes = np.unique(groups, return_inverse=True)[1]
    whole = loss.loss_gradient_hessian_sums(y, s, codes, 6, 3)
    parts = [np.flatnonzero(codes < 2), np.flatnonzero(codes >= 2)]
    sums = [loss.loss_gradient_hessian_sums(y[r], s[r], codes[r], 6, 3)
            for r in parts]
    assert sums[0][0] + sums[1][0] == pytest.approx(whole[0], rel=1e-12)
    assert sums[0][3] + sums[1][3] == pytest.approx(whole[3], rel=1e-12)
    assert sums[0][4] + sums[1][4] == whole[4]
    for r, part in zip(parts, sums):
        np.testing.assert_allclose(part[1], whole[1][r], rtol=1e-12)
        np.testing.assert_allclose(part[2], whole[2][r], rtol=1e-12)


@pytest.mark.parametrize("temperature", [0.0, -1.0, np.nan, np.inf, True, "1"])
def test_soft_papk_instance_checks_its_temperature(temperature):
    # the public class, used without surrogate_loss's validation: a zero
    # temperature divided by zero, a negative one gave a meaningless loss
    loss = SoftPApKSurrogate(temperature=temperature)
    y_pos = np.array([True, False, True, False])
    codes = np.zeros(4, dtype=np.intp)
    with pytest.raises(ValueError, match="temperature must be a positive"):
        loss.loss_gradient(y_pos, np.array([0.5, 0.2, -1.0, 0.3]), codes, 1, 1)


def test_unknown_group_weight():
    with pytest.raises(ValueError, match="'group_weight' parameter"):
        surrogate_loss([1, 0], [0.0, 1.0], k=1, surrogate="soft_papk",
                       group_weight="rows")


def test_hinge_surrogates_refuse_hessian_and_weights():
    with pytest.raises(ValueError, match="no Hessian"):
        surrogate_loss([1, 0], [0.0, 1.0], k=1, surrogate="max",
                       return_hessian=True)
    with pytest.raises(ValueError, match="sample_weight"):
        surrogate_loss([1, 0], [0.0, 1.0], k=1, surrogate="avg",
                       sample_weight=[1, 1])


@pytest.mark.parametrize("weight", [["1", "1"], np.array([b"1", b"1"]),
                                    np.array([1.0, "1"], dtype=object)])
def test_text_weights_are_refused(weight):
    # scikit-learn's _check_sample_weight would parse them as numbers
    with pytest.raises(TypeError, match=r"^sample_weight holds text"):
        surrogate_loss([1, 0], [0.0, 1.0], k=1, surrogate="pairwise_logistic",
                       sample_weight=weight)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6),
       st.floats(0.05, 20.0), st.booleans())
def test_fuzz_value_and_gradient(seed, k, temperature, ties):
    y, s, groups = _data(seed, n=25, n_groups=3, ties=ties)
    value, grad = surrogate_loss(y, s, groups, k=k, surrogate="soft_papk",
                                 temperature=temperature)
    assert value == pytest.approx(
        oracle_value(y, s, groups, k, "soft_papk", temperature),
        rel=1e-9, abs=1e-12)
    f = lambda t: surrogate_loss(y, t, groups, k=k, surrogate="soft_papk",  # noqa
                                 temperature=temperature)[0]
    # eps = 1e-6 T left rounding errors of 1.3e-6 (seed=2, k=2, T=0.0508,
    # ties); 1e-5 T: 2e-10 there
    np.testing.assert_allclose(grad, _fd_gradient(f, s, eps=1e-5 * temperature),
                               rtol=1e-4, atol=1e-7)


# --------------------------------------------------------------------------
# make_pair_layout and the surrogates' public methods check what they get


_Y4 = np.array([True, False, True, False])
_C4 = np.array([0, 0, 1, 1])


@pytest.mark.parametrize("args, kwargs, error, match", [
    # float codes were truncated: the distinct groups 0.2 / 0.9 merged
    ((_Y4, [0.2, 0.9, 1.7, 1.1], 2), {}, ValueError, "codes must hold integers"),
    ((_Y4, [0.0, np.nan, 1.0, 1.0], 2), {}, ValueError, "codes must hold integers"),
    ((_Y4, np.array(["a", "a", "b", "b"]), 2), {}, TypeError, "codes must hold"),
    # numpy's "provided out is the wrong size for the accumulation"
    ((_Y4, _C4, 1), {}, ValueError, r"codes must be in \[0, n_groups\) = \[0, 1\)"),
    ((_Y4, [0, -1, 1, 1], 2), {}, ValueError, r"codes must be in \[0, n_groups\)"),
    ((_Y4, _C4, 1.5), {}, TypeError, "n_groups must be an int"),
    ((_Y4, _C4, True), {}, TypeError, "n_groups must be an int"),
    ((_Y4, _C4, -1), {}, ValueError, "n_groups must be"),
    ((_Y4, _C4, 2), {"sample_weight": [-1.0, 1.0, 1.0, 1.0]}, ValueError,
     "sample_weight must hold finite non-negative"),
    ((_Y4, _C4, 2), {"sample_weight": [np.nan, 1.0, 1.0, 1.0]}, ValueError,
     "sample_weight must hold finite non-negative"),
    ((_Y4, _C4, 2), {"sample_weight": [np.inf, 1.0, 1.0, 1.0]}, ValueError,
     "sample_weight must hold finite non-negative"),
    ((_Y4, _C4, 2), {"sample_weight": ["a", "b", "c", "d"]}, TypeError,
     "sample_weight must hold numbers"),
    ((_Y4, _C4, 2), {"sample_weight": [1.0, 1.0]}, ValueError,
     "sample_weight has shape"),
    ((_Y4, [0, 0, 1], 2), {}, ValueError, "codes has shape"),
    ((_Y4[:, None], _C4, 2), {}, ValueError, "y_pos must be one-dimensional"),
    (([1, 0, 2, 0], _C4, 2), {}, ValueError, "y_pos must hold booleans or 0/1"),
    (([1.0, np.nan, 1.0, 0.0], _C4, 2), {}, ValueError,
     "y_pos must hold booleans or 0/1"),
    ((np.array(["1", "0", "1", "0"]), _C4, 2), {}, TypeError,
     "y_pos must hold booleans or 0/1"),
])
def test_make_pair_layout_checks_its_inputs(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        make_pair_layout(*args, **kwargs)


def test_make_pair_layout_takes_0_1_relevance_and_integral_float_codes():
    reference = make_pair_layout(_Y4, _C4, 3, sample_weight=[1, 2, 1, 0])
    for y_pos, codes in [([1, 0, 1, 0], _C4), (_Y4, [0.0, 0.0, 1.0, 1.0]),
                         (_Y4.astype(float), _C4.astype(np.uint8))]:
        layout = make_pair_layout(y_pos, codes, np.int64(3),
                                  sample_weight=[1, 2, 1, 0])
        for name in ("order", "codes", "y_pos", "weight", "n_pos", "n_neg",
                     "mass_pos", "mass_neg", "defined", "pair_start"):
            np.testing.assert_array_equal(getattr(layout, name),
                                          getattr(reference, name))
    empty = make_pair_layout(np.zeros(0, bool), np.zeros(0, int), 0)
    assert (empty.n_groups, empty.n_pairs) == (0, 0)


_METHODS = ["loss_gradient", "loss_gradient_sums", "loss_gradient_hessian",
            "loss_gradient_hessian_sums"]


@pytest.mark.parametrize("surrogate", [PairwiseLogisticSurrogate(),
                                       SoftPApKSurrogate(temperature=0.5)])
@pytest.mark.parametrize("method", _METHODS)
@pytest.mark.parametrize("scores, kwargs, match", [
    # group 0 was dropped silently (n_used=1)
    ([0.5, 0.2, -1.0, 0.3], {"sample_weight": [-1.0, 1.0, 1.0, 1.0]},
     "sample_weight must hold finite non-negative"),
    # (0.0, zeros, 0) was returned
    ([0.5, 0.2, -1.0, 0.3], {"sample_weight": [-1.0, -1.0, -1.0, -1.0]},
     "sample_weight must hold finite non-negative"),
    ([0.5, 0.2, -1.0, 0.3], {"sample_weight": [np.nan, 1.0, 1.0, 1.0]},
     "sample_weight must hold finite non-negative"),
    # a NaN loss and gradient were returned
    ([0.5, np.nan, -1.0, 0.3], {}, "scores must be finite"),
    ([0.5, np.inf, -1.0, 0.3], {}, "scores must be finite"),
    ([0.5, 0.2, -1.0], {}, "scores has shape"),
])
def test_public_methods_check_their_inputs_without_a_layout(
        surrogate, method, scores, kwargs, match):
    with pytest.raises(ValueError, match=match):
        getattr(surrogate, method)(_Y4, np.array(scores), _C4, 2, 1, **kwargs)


@pytest.mark.parametrize("surrogate", [PairwiseLogisticSurrogate(),
                                       SoftPApKSurrogate(temperature=0.5)])
@pytest.mark.parametrize("method", _METHODS)
@pytest.mark.parametrize("k, error", [(0, ValueError), (-1, ValueError),
                                      (2.5, TypeError), (True, TypeError)])
def test_public_methods_check_k_without_a_layout(surrogate, method, k, error):
    # k=0 and -1 gave NaN with RuntimeWarnings, k=2.5 was used as it was
    with pytest.raises(error, match="k must be a positive integer"):
        getattr(surrogate, method)(_Y4, np.array([0.5, 0.2, -1.0, 0.3]), _C4,
                                   2, k)


@pytest.mark.parametrize("method", _METHODS)
def test_public_methods_do_not_check_again_with_a_layout(method, monkeypatch):
    # the estimators build the layout once from checked data and evaluate
    # the loss every solver step / boosting round: no O(n) check there
    loss = SoftPApKSurrogate(temperature=0.5)
    y, s, groups = _data(3)
    codes = np.unique(groups, return_inverse=True)[1]
    layout = make_pair_layout(y, codes, 5)
    expected = getattr(loss, method)(y, s, codes, 5, 3)

    def fail(*args, **kwargs):
        raise AssertionError("checked again")

    monkeypatch.setattr("skpapk.losses._smooth._check_layout_inputs", fail)
    monkeypatch.setattr("skpapk.losses._smooth._check_scores", fail)
    got = getattr(loss, method)(y, s, codes, 5, 3, layout=layout)
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)


def test_surrogates_truncation_level_default_is_the_shared_constant(monkeypatch):
    # read from skpapk._defaults, not restated: a module loaded while the
    # constant holds another value takes that value
    import importlib.util

    import skpapk.losses._smooth as smooth
    from skpapk import _defaults

    monkeypatch.setattr(_defaults, "TRUNCATION_LEVEL", 7)
    spec = importlib.util.spec_from_file_location("skpapk.losses._smooth_copy",
                                                  smooth.__file__)
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    for cls in (copy.SmoothPairwiseSurrogate, copy.PairwiseLogisticSurrogate,
                copy.SoftPApKSurrogate):
        assert cls().truncation_level == 7


@pytest.mark.parametrize("scale", [1e-200, 1e-160, 1e160, 1e200])
@pytest.mark.parametrize("surrogate, group_weight", [
    ("pairwise_logistic", "inverse_variance"), ("soft_papk", "uniform")])
def test_weights_whose_products_overflow_are_refused(scale, surrogate, group_weight):
    # inverse_variance's squared masses gave inf, NaN or a ZeroDivisionError;
    # soft_papk's weighted sums gave 7.8e26 where a pair loses at most 2.4
    y = np.array([1, 0, 0, 1, 0, 0, 0, 1])
    g = np.array([0] * 3 + [1] * 5)
    s = np.linspace(0.0, 1.0, 8)
    with pytest.raises(ValueError, match=r"sample_weight holds .*, but the losses "
                                         r"take weights from 1e-30 to 1e\+30"):
        surrogate_loss(y, s, g, k=2, surrogate=surrogate, group_weight=group_weight,
                       sample_weight=np.full(8, scale))
    with pytest.raises(ValueError, match=r"^weight holds .*1e-30 to 1e\+30"):
        LightGBMObjective(surrogate, group_weight=group_weight)(
            y.astype(float), s, np.full(8, scale), [3, 5])
    # at the range's ends the values stay finite and within the pair loss
    for edge in (1e-30, 1e30):
        value, grad = surrogate_loss(y, s, g, k=2, surrogate=surrogate,
                                     group_weight=group_weight,
                                     sample_weight=np.full(8, edge))[:2]
        assert 0 < value < np.log1p(np.exp(1.0)) + 1 and np.all(np.isfinite(grad))


@pytest.mark.parametrize("surrogate", ["soft_papk", "max"])
def test_get_surrogate_refuses_a_parameter_of_no_surrogate(surrogate):
    # a misspelt temperature was dropped: the default temperature held
    from skpapk.losses import get_surrogate

    with pytest.raises(TypeError, match="temperatur=3.0, a parameter of no "
                                        "surrogate.*did you mean temperature"):
        get_surrogate(surrogate, temperatur=3.0)
    # a parameter of another surrogate is still ignored
    assert get_surrogate("max", temperature=3.0).name == "max"


def test_inverse_variance_weights_depend_on_the_scale_of_row_weights():
    # documented (PApKBoostRanker's group_weight): n+ and n- are weighted
    # counts, so one constant factor on every row weight changes the ratios
    # of "inverse_variance" (towards the number of pairs as the weights
    # shrink), not those of "uniform"
    y = np.array([True, False, True, True, False, False, False, False])
    codes = np.array([0, 0, 1, 1, 1, 1, 1, 1])
    ratios = {}
    for name in ("uniform", "inverse_variance"):
        for c in (1.0, 1e-3):
            w = group_weights(make_pair_layout(y, codes, 2, np.full(8, c)), name)
            ratios[name, c] = w[1] / w[0]
    assert ratios["uniform", 1.0] == ratios["uniform", 1e-3] == 1.0
    assert ratios["inverse_variance", 1.0] == pytest.approx(
        (12 * 2 * 4 / 7) / (12 * 1 * 1 / 3))
    assert ratios["inverse_variance", 1e-3] == pytest.approx(8.0, rel=1e-2)


@pytest.mark.parametrize("surrogate, scale_free", [("pairwise_logistic", True),
                                                   ("soft_papk", False)])
def test_uniform_users_and_the_scale_of_the_weights(surrogate, scale_free):
    # as PApKBoostRanker's group_weight documents: with "uniform", only the
    # all-pairs loss ignores a constant factor on every weight; soft_papk's
    # weights are row counts, which move each user's soft top k
    from skpapk.losses import surrogate_loss

    y = np.array([1, 0, 0, 1, 0, 0, 0, 0, 1, 0])
    s = np.array([0.3, 0.9, -0.2, 1.1, 0.5, 0.1, -1.0, 0.7, 0.0, 0.2])
    groups = np.repeat([0, 1], 5)
    values = [surrogate_loss(y, s, k=2, groups=groups, surrogate=surrogate,
                             group_weight="uniform",
                             sample_weight=np.full(10, c))[0] for c in (1.0, 3.0)]
    assert (values[0] == pytest.approx(values[1], rel=1e-12)) is scale_free


@pytest.mark.parametrize("layout", [None, np.array([1, 0])])
def test_group_weights_names_a_layout_that_is_not_one(layout):
    # None gave "'NoneType' object has no attribute 'defined'"
    with pytest.raises(TypeError, match=r"layout must be a PairLayout, got "
                                        r".*make_pair_layout\(y_pos, codes"):
        group_weights(layout, "uniform")
