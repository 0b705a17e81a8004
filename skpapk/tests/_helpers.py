"""Shared data and reference implementations of the estimator tests."""

import numpy as np
import pytest
import scipy.sparse as sp

from skpapk.losses import surrogate_loss


def make_grouped_data(seed=0, n_groups=40, d=5, *, n_pos=(1, 15), n_neg=(10, 40),
                      sep=1.0, random_direction=False, shuffle=True):
    """Users with varied numbers of relevant and irrelevant rows.

    Relevant rows ~ N(-sep 1_d, I) (or, with ``random_direction``, shifted by
    ``-sep`` times a uniform random vector), irrelevant rows ~ N(0, I); the
    counts of every user are drawn from ``range(*n_pos)`` and
    ``range(*n_neg)``.

    Returns
    -------
    X : ndarray of shape (n_samples, d)
    y : ndarray of int of shape (n_samples,)
    groups : ndarray of int of shape (n_samples,)
    """
    rng = np.random.default_rng(seed)
    pos_counts = rng.integers(*n_pos, n_groups)
    neg_counts = rng.integers(*n_neg, n_groups)
    groups = np.repeat(np.arange(n_groups), pos_counts + neg_counts)
    y = np.concatenate([np.r_[np.ones(a, int), np.zeros(b, int)]
                        for a, b in zip(pos_counts, neg_counts)])
    X = rng.normal(size=(y.shape[0], d))
    shift = sep * y[:, None]
    if random_direction:
        shift = shift * rng.random(d)
    X = X - shift
    if shuffle:
        perm = rng.permutation(y.shape[0])
        return X[perm], y[perm], groups[perm]
    return X, y, groups


def algorithm_1(X, y, groups, surrogate, k, eta0, alpha, n_epochs, *, w0=None,
                radius=None):
    """The paper's Algorithm 1 written out with the public surrogate_loss.

    Returns
    -------
    w : ndarray
        The last iterate ``w_T``.
    objectives : list of float
        The objectives of ``w_0 .. w_(T-1)``.
    iterates : list of ndarray
        ``w_0 .. w_T``.
    """
    Xd = X.toarray() if sp.issparse(X) else X
    Xd = Xd.astype(np.float64)
    y_pos = np.asarray(y) == 1
    w = np.zeros(X.shape[1]) if w0 is None else np.asarray(w0, dtype=np.float64).copy()
    objectives, iterates = [], [w]
    for t in range(n_epochs):
        value, coef = surrogate_loss(y_pos, Xd @ w, groups, k=k, surrogate=surrogate)
        objectives.append(value + alpha * w @ w)
        w = w - eta0 / np.sqrt(t + 1) * (Xd.T @ coef + 2 * alpha * w)
        if radius is not None and np.linalg.norm(w) > radius:
            w = w * radius / np.linalg.norm(w)
        iterates.append(w)
    return w, objectives, iterates


#: The warnings scikit-learn's estimator checks provoke, expected: the checks
#: fit every ranker on a few rows of random data without a signal (and
#: without groups), each warning from one family of rankers: the linear
#: rankers' solver (a surrogate lowest at w_0 = 0, or 0 everywhere: the
#: checks' lists of 10 rows fit in prec@k's top 10; max_iter reached),
#: SelectPApKRanker's pool of top rows (still changing after max_iter
#: rounds, or cycling), GreedyPApKRanker's base scorers (fewer rows of a label than
#: n_estimators), PApKBoostRanker's trees (fewer rows than
#: min_child_samples: no split).
_ESTIMATOR_CHECK_WARNINGS = (
    "ignore:The objective never went below:sklearn.exceptions.ConvergenceWarning",
    "ignore:The objective is 0 at w_0:sklearn.exceptions.ConvergenceWarning",
    "ignore:Maximum number of iterations:sklearn.exceptions.ConvergenceWarning",
    "ignore:The pool of top rows still changed:"
    "sklearn.exceptions.ConvergenceWarning",
    "ignore:The pools of top rows cycle:sklearn.exceptions.ConvergenceWarning",
    "ignore:n_estimators=5 base scorers need:UserWarning",
    "ignore:No feature of X can be split on:UserWarning",
)


def expect_estimator_check_warnings(test):
    """Mark ``test`` (a ``parametrize_with_checks`` test) with the warnings
    the checks are expected to raise (:data:`_ESTIMATOR_CHECK_WARNINGS`)."""
    for spec in _ESTIMATOR_CHECK_WARNINGS:
        test = pytest.mark.filterwarnings(spec)(test)
    return test
