"""The metric kernels: light to import, the same values as the public metrics."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
from scipy.stats import hypergeom
from sklearn.exceptions import UndefinedMetricWarning

from skpapk.metrics import (
    _kernels,
    expected_papk_score,
    expected_partial_auc_score,
    expected_precision_at_k_score,
    papk_score,
    partial_auc_score,
    precision_at_k_score,
)
from skpapk.utils._groups import descending_order


def test_the_kernels_import_neither_scikit_learn_nor_scipy_stats():
    code = ("import sys, skpapk.metrics._kernels\n"
            "print([m for m in ('sklearn', 'scipy.stats') if m in sys.modules])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def _expected_papk_by_scipy(n_pos, n_neg, k):
    """The double sum of P[H >= i] over (i, j), by scipy.stats.hypergeom."""
    beta, k_neg = min(n_pos, k), min(n_neg, k)
    i, j = np.meshgrid(np.arange(1, beta + 1), np.arange(1, k_neg + 1))
    prob = hypergeom.sf(i - 1, n_pos + n_neg, n_pos, i + j - 1)
    return prob.sum() / (beta * k_neg)


@pytest.mark.parametrize("k", [1, 2, 7, 30, 100])
@pytest.mark.parametrize("n_pos", [1, 2, 6, 40, 250])
@pytest.mark.parametrize("n_neg", [1, 5, 64, 1700, 100_000])
def test_expected_papk_gain_matches_scipy_hypergeom(n_pos, n_neg, k):
    got = _kernels.expected_papk_gain(np.array([n_pos]), np.array([n_neg]), k)
    np.testing.assert_allclose(got, [_expected_papk_by_scipy(n_pos, n_neg, k)],
                               rtol=1e-9, atol=1e-12)


def test_expected_papk_gain_of_many_groups_at_once():
    rng = np.random.default_rng(0)
    n_pos = rng.integers(0, 40, 300)
    n_neg = rng.integers(0, 200, 300)
    got = _kernels.expected_papk_gain(n_pos, n_neg, 12)
    for p, q, value in zip(n_pos, n_neg, got):
        if p == 0 or q == 0:
            assert np.isnan(value)
        else:
            assert value == pytest.approx(_expected_papk_by_scipy(p, q, 12),
                                          rel=1e-10)


def _ranking_data(seed, n_groups=40, tied=True):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 30, n_groups)
    codes = np.repeat(np.arange(n_groups), sizes)
    rng.shuffle(codes)
    y_pos = rng.random(codes.shape[0]) < rng.uniform(0.05, 0.6)
    scores = rng.normal(size=codes.shape[0])
    if tied:  # few distinct values: many ties, inside and across groups
        scores = np.round(scores * 2) / 2
    return y_pos, scores, codes.astype(np.intp), n_groups


@pytest.mark.parametrize("ties", ["random", "half", "error"])
@pytest.mark.parametrize("k", [1, 3, 10])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_kernels_give_the_public_metrics(seed, k, ties):
    y_pos, scores, codes, n_groups = _ranking_data(seed)
    counts = _kernels.label_counts(y_pos, codes, n_groups)
    n_pos, n_neg, _ = counts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for gains, metric in [(_kernels.papk_gains, papk_score),
                              (_kernels.partial_auc_gains, partial_auc_score)]:
            correct, n_pairs = gains(y_pos, scores, codes, n_groups, k, ties=ties,
                                     counts=counts)
            defined = n_pairs > 0
            per_group = metric(y_pos, scores, k=k, groups=codes, ties=ties,
                               average=None)
            np.testing.assert_allclose(correct[defined] / n_pairs[defined],
                                       per_group[defined], rtol=1e-12)
            assert np.isnan(per_group[~defined]).all()
        hits = _kernels.top_k_hits(y_pos, scores, codes, n_groups, k, ties=ties)
        np.testing.assert_allclose(hits / k, precision_at_k_score(
            y_pos, scores, k=k, groups=codes, ties=ties, average=None),
            rtol=1e-12)
        defined = (n_pos > 0) & (n_neg > 0)
        for kernel, metric, mask in [
                (_kernels.expected_papk_gain, expected_papk_score, defined),
                (_kernels.expected_partial_auc_gain, expected_partial_auc_score,
                 defined)]:
            np.testing.assert_allclose(
                _kernels.micro_average(kernel(n_pos, n_neg, k), mask),
                metric(y_pos, k=k, groups=codes), rtol=1e-12)
        np.testing.assert_allclose(
            _kernels.micro_average(_kernels.expected_top_k_hits(n_pos, n_neg, k) / k,
                                   n_pos + n_neg > 0),
            expected_precision_at_k_score(y_pos, k=k, groups=codes), rtol=1e-12)


@pytest.mark.parametrize("ties", ["random", "half", "error"])
@pytest.mark.parametrize("seed", [0, 1])
def test_a_shared_score_order_changes_nothing(seed, ties):
    # the command line sorts the scores once for the three metrics
    y_pos, scores, codes, n_groups = _ranking_data(seed)
    by_score = descending_order(scores, stable=False)
    for kernel in (_kernels.papk_gains, _kernels.partial_auc_gains):
        np.testing.assert_array_equal(
            kernel(y_pos, scores, codes, n_groups, 4, ties=ties,
                   by_score=by_score),
            kernel(y_pos, scores, codes, n_groups, 4, ties=ties))
    np.testing.assert_array_equal(
        _kernels.top_k_hits(y_pos, scores, codes, n_groups, 4, ties=ties,
                            by_score=by_score),
        _kernels.top_k_hits(y_pos, scores, codes, n_groups, 4, ties=ties))


def test_micro_average_of_no_defined_group_is_nan():
    assert np.isnan(_kernels.micro_average(np.array([np.nan]), np.array([False])))
