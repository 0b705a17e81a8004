"""PApKBoostRanker's trees do not depend on the order of the rows.

Under ``truncation_level``, a truncated group's top rows were picked among
tied scores (every score in the first round, few distinct values in the
next ones) by row order: the same rows in another order gave other trees
(predictions up to 1.15 apart after 20 rounds)."""

import numpy as np
import pytest
import scipy.sparse as sp

from skpapk import PApKBoostRanker
from skpapk._lightgbm_rows import _row_tie_breaker
from skpapk.tests._helpers import make_grouped_data

pytest.importorskip("lightgbm")

PARAMS = dict(k=3, n_estimators=8, num_leaves=7, min_child_samples=5,
              truncation_level=6, random_state=0, n_jobs=1)


def _data(kind):
    # 12 users with 7 to 19 rows of each label: truncated at 6
    X, y, groups = make_grouped_data(1, n_groups=12, d=4, n_pos=(7, 20),
                                     n_neg=(7, 20), sep=0.5)
    X = np.round(X, 1)  # ties in the trees' scores
    if kind == "nan":
        X[::7, 1] = np.nan
    return (sp.csr_matrix(X) if kind == "sparse" else X), y, groups


@pytest.mark.parametrize("kind", ["dense", "nan", "sparse"])
@pytest.mark.parametrize("objective", ["pairwise_logistic", "soft_papk"])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_same_rows_in_another_order_give_the_same_model(kind, objective,
                                                            weighted):
    X, y, groups = _data(kind)
    rng = np.random.default_rng(5)
    weight = rng.choice([0.5, 1.0, 2.0], size=y.shape[0]) if weighted else None
    ranker = PApKBoostRanker(objective=objective, **PARAMS).fit(
        X, y, groups=groups, sample_weight=weight)
    for seed in range(2):
        perm = np.random.default_rng(seed).permutation(y.shape[0])
        other = PApKBoostRanker(objective=objective, **PARAMS).fit(
            X[perm], y[perm], groups=groups[perm],
            sample_weight=None if weight is None else weight[perm])
        np.testing.assert_allclose(other.decision_function(X),
                                   ranker.decision_function(X), atol=1e-12)


def test_the_rows_order_decided_before(monkeypatch):
    # the check can fail: by row order (no tie breaker), the trees differ
    import skpapk._boost as boost

    X, y, groups = _data("dense")
    perm = np.random.default_rng(0).permutation(y.shape[0])
    monkeypatch.setattr(boost, "_truncates", lambda *args: False)
    a = PApKBoostRanker(**PARAMS).fit(X, y, groups=groups)
    b = PApKBoostRanker(**PARAMS).fit(X[perm], y[perm], groups=groups[perm])
    assert np.max(np.abs(a.decision_function(X) - b.decision_function(X))) > 1e-3


@pytest.mark.parametrize("layout", ["C", "F", "float32", "sparse", "csc"])
def test_the_tie_breaker_depends_on_the_row_values_only(layout):
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(50, 7)), 1)
    X[:, 6] = 1.6e18  # a column that a sum of floats would round the rest into
    X[10] = X[3]
    X[20, 2] = np.nan
    X[21] = X[20]
    X[22, 2] = 0.25  # not the NaN of row 20
    X[22, [0, 1, 3, 4, 5]] = X[20, [0, 1, 3, 4, 5]]
    X[30] = -X[31] * 0.0  # -0.0 and 0.0: equal values
    X[31] = X[31] * 0.0
    X[40, 1] = 0.0  # a stored zero (sparse) counts as an absent one
    perm = rng.permutation(50)
    given = {"C": np.ascontiguousarray, "F": np.asfortranarray,
             "float32": lambda a: a.astype(np.float32),
             "sparse": sp.csr_matrix, "csc": sp.csc_matrix}[layout]
    key = _row_tie_breaker(given(X))
    assert key.dtype == np.uint64
    np.testing.assert_array_equal(_row_tie_breaker(given(X[perm])), key[perm])
    assert key[10] == key[3] and key[21] == key[20] and key[30] == key[31]
    assert np.unique(key).shape[0] == 47  # three pairs of equal rows


def test_a_large_column_does_not_hide_the_others():
    # a key summing floats gave every row of the test data one key beside a
    # timestamp in nanoseconds: row order decided again (predictions 0.52
    # apart after a shuffle)
    X, y, groups = _data("dense")
    X = np.c_[X, np.full(X.shape[0], 1.6e18)]
    assert np.unique(_row_tie_breaker(X)).shape[0] == np.unique(
        X, axis=0).shape[0]
    ranker = PApKBoostRanker(**PARAMS).fit(X, y, groups=groups)
    perm = np.random.default_rng(0).permutation(y.shape[0])
    other = PApKBoostRanker(**PARAMS).fit(X[perm], y[perm], groups=groups[perm])
    np.testing.assert_allclose(other.decision_function(X),
                               ranker.decision_function(X), atol=1e-12)
