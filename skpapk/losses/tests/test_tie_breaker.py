"""LightGBMObjective's ``tie_breaker``: under truncation, which rows of
equal score make a group's top rows, whatever the order of the rows."""

import numpy as np
import pytest

from skpapk.losses import LightGBMObjective


def _groups(rng, sizes, distinct):
    """Labels, group sizes and scores (``distinct`` values, so many ties)
    of groups of ``sizes`` rows, sorted by group."""
    y = np.concatenate([rng.permutation(np.arange(n) % 2) for n in sizes])
    scores = rng.integers(0, distinct, size=y.shape[0]).astype(np.float64)
    return y.astype(np.float64), np.asarray(sizes), scores


def _shuffle_within_groups(rng, sizes):
    starts = np.concatenate(([0], np.cumsum(sizes)))
    return np.concatenate([a + rng.permutation(b - a)
                           for a, b in zip(starts[:-1], starts[1:])])


@pytest.mark.parametrize("surrogate", ["pairwise_logistic", "soft_papk"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_gradients_follow_the_rows_when_their_order_changes(surrogate, weighted,
                                                            seed):
    rng = np.random.default_rng(seed)
    sizes = [30, 9, 40]  # truncation 4: groups 0 and 2 are truncated
    y, sizes, scores = _groups(rng, sizes, distinct=3)
    n = y.shape[0]
    key = rng.normal(size=n)
    key[:5] = key[5]  # equal keys: by weight, then row order
    weight = rng.choice([0.5, 1.0, 2.0], size=n) if weighted else None
    if weighted:  # rows of equal key and weight: interchangeable
        weight[:6] = 1.0
        scores[:6] = scores[0]
    perm = _shuffle_within_groups(rng, sizes)

    def gradients(rows):
        objective = LightGBMObjective(surrogate, k=3, truncation_level=4,
                                      tie_breaker=key[rows])
        return objective(y[rows], scores[rows],
                         None if weight is None else weight[rows], sizes)

    grad, hess = gradients(np.arange(n))
    grad_p, hess_p = gradients(perm)
    # the same pairs, summed in another order: equal to rounding; rows of
    # one group, label, score, key and weight are interchangeable (the
    # trees cannot tell them apart): they may trade their gradients
    twins = np.unique(np.c_[np.repeat(np.arange(len(sizes)), sizes), y,
                            scores, key,
                            np.ones(n) if weight is None else weight],
                      axis=0, return_inverse=True)[1].ravel()
    for got, want in ((grad_p, grad[perm]), (hess_p, hess[perm])):
        for twin in np.unique(twins[perm]):
            rows = twins[perm] == twin
            np.testing.assert_allclose(np.sort(got[rows]), np.sort(want[rows]),
                                       rtol=1e-12, atol=1e-15)
    # by row order instead, the permuted rows get other pairs
    plain = LightGBMObjective(surrogate, k=3, truncation_level=4)
    grad_o = plain(y[perm], scores[perm],
                   None if weight is None else weight[perm], sizes)[0]
    assert np.max(np.abs(grad_o - grad[perm])) > 1e-3


def test_without_truncation_the_tie_breaker_changes_no_bit():
    rng = np.random.default_rng(0)
    y, sizes, scores = _groups(rng, [30, 9, 40], distinct=3)
    key = rng.normal(size=y.shape[0])
    for level in (None, 100):  # no group has 100 rows of a label
        with_key = LightGBMObjective(truncation_level=level, tie_breaker=key)
        without = LightGBMObjective(truncation_level=level)
        for a, b in zip(with_key(y, scores, None, sizes),
                        without(y, scores, None, sizes)):
            np.testing.assert_array_equal(a, b)
    # in a truncated call, the groups it does not truncate keep their bits
    with_key = LightGBMObjective(truncation_level=8, tie_breaker=key)(
        y, scores, None, sizes)
    without = LightGBMObjective(truncation_level=8)(y, scores, None, sizes)
    small = slice(30, 39)  # group 1: 9 rows
    np.testing.assert_array_equal(with_key[0][small], without[0][small])


def test_a_tie_breaker_of_the_wrong_length_is_refused():
    objective = LightGBMObjective(truncation_level=2, tie_breaker=np.zeros(3))
    with pytest.raises(ValueError, match=r"tie_breaker has shape \(3,\) but "
                       r"there are 4 rows"):
        objective(np.array([1.0, 0.0, 1.0, 0.0]), np.zeros(4), None, [4])
    assert "tie_breaker=<3 values>" in repr(objective)
    assert "tie_breaker=<1 values>" in repr(LightGBMObjective(tie_breaker=1.0))
    with pytest.raises(TypeError, match="tie_breaker holds <U1 values"):
        LightGBMObjective(truncation_level=2, tie_breaker=list("abcd"))(
            np.array([1.0, 0.0, 1.0, 0.0]), np.zeros(4), None, [4])
