"""The compiled pair sums against a brute-force oracle written per group."""

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit

from skpapk.losses import _pair_kernels
from skpapk.losses._pair_kernels import (
    _blocks,
    kept_pairs,
    pair_sums,
)
from skpapk.losses._smooth import make_pair_layout
from skpapk.utils._parallel import effective_n_threads


@pytest.fixture(autouse=True)
def every_thread_works(monkeypatch):
    """The tests' small inputs run on the threads asked for: without this,
    too little work for a second thread keeps them on one."""
    monkeypatch.setattr(_pair_kernels, "MIN_WORK_PER_THREAD", 1)


def oracle_pair_sums(layout, s, u, v, truncation):
    """``L``, ``S1``, ``S2`` from the pair matrix of every group (a loop).

    Pair ``(i, j)`` is kept when ``truncation`` is 0, when the group has at
    most ``truncation`` rows of one label, or when ``i`` is among the group's
    ``truncation`` highest scored relevant rows or ``j`` among its
    ``truncation`` highest scored irrelevant rows (ties: the earlier row).
    """
    n = s.shape[0]
    L, S1, S2 = np.zeros(n), np.zeros(n), np.zeros(n)
    for g in np.flatnonzero(layout.defined):
        P = np.arange(layout.pos_start[g], layout.pos_start[g] + layout.n_pos[g])
        N = np.arange(layout.neg_start[g], layout.neg_start[g] + layout.n_neg[g])
        keep = np.ones((P.size, N.size), dtype=bool)
        if truncation and P.size > truncation and N.size > truncation:
            rank_p = np.empty(P.size, dtype=int)
            rank_p[np.argsort(-s[P], kind="stable")] = np.arange(P.size)
            rank_n = np.empty(N.size, dtype=int)
            rank_n[np.argsort(-s[N], kind="stable")] = np.arange(N.size)
            keep = (rank_p[:, None] < truncation) | (rank_n[None, :] < truncation)
        z = s[P][:, None] - s[N][None, :]
        loss = np.logaddexp(0.0, -z) * keep
        sig = expit(-z) * keep                        # sigma(s_j - s_i)
        curv = np.exp(-np.logaddexp(0.0, z) - np.logaddexp(0.0, -z)) * keep
        L[P], L[N] = loss @ v[N], u[P] @ loss
        S1[P], S1[N] = sig @ v[N], u[P] @ sig
        S2[P], S2[N] = curv @ v[N], u[P] @ curv
    return L, S1, S2


def _case(seed, n, n_groups, ties, spread, dtype):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) * spread
    if ties:
        s = np.round(s)
    s = s.astype(dtype).astype(np.float64)
    codes = rng.integers(0, n_groups, n)
    layout = make_pair_layout(y, codes, n_groups)
    s = s[layout.order]
    u = np.where(layout.y_pos, rng.random(n), 0.0)
    v = np.where(layout.y_pos, 0.0, rng.random(n))
    return layout, s, u, v


@pytest.mark.parametrize("truncation", [0, 1, 3, 50])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("spread", [0.1, 3.0, 40.0, 500.0])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n, n_groups", [(1, 1), (7, 3), (120, 6), (400, 2)])
@pytest.mark.parametrize("equal_v", [False, True])
def test_pair_sums_match_the_pair_matrix(truncation, ties, spread, dtype, n,
                                         n_groups, equal_v):
    layout, s, u, v = _case(n + n_groups, n, n_groups, ties, spread, dtype)
    if equal_v:  # the irrelevant rows' weights equal: one log per product
        v = np.where(layout.y_pos, 0.0, 0.37)
    L0, S10, S20 = oracle_pair_sums(layout, s, u, v, truncation)
    for loss in ("both", "relevant"):
        L, S1, S2 = pair_sums(layout, s, u, v, truncation=truncation,
                              n_threads=2, loss=loss)
        if loss == "relevant":
            L, L0 = L[layout.y_pos], L0[layout.y_pos]
        for got, want in ((L, L0), (S1, S10), (S2, S20)):
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("loss", [None, "relevant", "both"])
@pytest.mark.parametrize("need_hess", [False, True])
def test_what_is_not_asked_is_not_computed(loss, need_hess):
    layout, s, u, v = _case(0, 90, 4, False, 1.0, np.float64)
    L, S1, S2 = pair_sums(layout, s, u, v, loss=loss, need_hess=need_hess)
    L0, S10, S20 = pair_sums(layout, s, u, v)
    # the loops with and without the Hessian add their SIMD lanes in
    # their own orders: equal to rounding
    np.testing.assert_allclose(S1, S10, rtol=1e-14)
    assert (S2 is None) != need_hess
    if need_hess:
        np.testing.assert_array_equal(S2, S20)
    if loss is None:
        assert L is None
    else:
        pos = layout.y_pos
        # "relevant" sums a row's logarithms as one log of a product
        np.testing.assert_allclose(L[pos], L0[pos], rtol=1e-13)
        np.testing.assert_array_equal(L[~pos], L0[~pos] if loss == "both" else 0.0)


@pytest.mark.parametrize("truncation", [0, 2])
def test_the_number_of_threads_does_not_change_a_bit(truncation):
    layout, s, u, v = _case(1, 3000, 37, True, 2.0, np.float64)
    ref = pair_sums(layout, s, u, v, truncation=truncation, n_threads=1)
    for n_threads in (2, 3, 8):
        got = pair_sums(layout, s, u, v, truncation=truncation,
                        n_threads=n_threads)
        for a, b in zip(got, ref):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("share, n_used", [(None, 1), (2, 2), (50, 3)])
def test_threads_are_capped_by_the_work(monkeypatch, share, n_used):
    # 3,000 rows: far less work than a second thread pays for by default;
    # with MIN_WORK_PER_THREAD = work / share, share threads (at most 3)
    layout, s, u, v = _case(1, 3000, 37, True, 2.0, np.float64)
    work = int(kept_pairs(layout.n_pos, layout.n_neg, layout.defined, 0).sum()
               + 3000)
    monkeypatch.undo()
    assert work < _pair_kernels.MIN_WORK_PER_THREAD
    if share is not None:
        monkeypatch.setattr(_pair_kernels, "MIN_WORK_PER_THREAD", work // share)
    ref = pair_sums(layout, s, u, v, n_threads=1)
    got = pair_sums(layout, s, u, v, n_threads=3)
    threads = effective_n_threads(3)  # at most the cores
    blocks, used = layout.cache[("blocks", 0, threads,
                                 _pair_kernels.MIN_WORK_PER_THREAD)]
    n_used = min(n_used, threads)
    assert used == n_used
    assert len(blocks) == (1 if n_used == 1 else 4 * n_used)
    for a, b in zip(got, ref):
        np.testing.assert_array_equal(a, b)


def test_scores_spanning_more_than_exp_can_hold():
    """Scores 1e4 apart: exp(s - max) underflows, the differences do not."""
    layout = make_pair_layout(np.array([1, 0, 1, 0], dtype=bool),
                              np.zeros(4, dtype=int), 1)
    s = np.array([1e4, -1e4, -1e4 + 1.0, 0.0])[layout.order]
    u = np.where(layout.y_pos, 0.5, 0.0)
    v = np.where(layout.y_pos, 0.0, 0.5)
    L, S1, S2 = pair_sums(layout, s, u, v)
    L0, S10, S20 = oracle_pair_sums(layout, s, u, v, 0)
    np.testing.assert_allclose(L, L0, rtol=1e-14)
    np.testing.assert_allclose(S1, S10, rtol=1e-14)
    assert np.all(np.isfinite(S2))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 5), st.integers(0, 6),
       st.integers(0, 2**32 - 1), st.booleans())
def test_fuzz_against_the_oracle(n, n_groups, truncation, seed, ties):
    layout, s, u, v = _case(seed, n, n_groups, ties, 2.0, np.float64)
    got = pair_sums(layout, s, u, v, truncation=truncation, n_threads=2)
    want = oracle_pair_sums(layout, s, u, v, truncation)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("truncation", [0, 1, 4, 100])
def test_kept_pairs_counts_the_oracle_pairs(truncation):
    n_pos = np.array([0, 1, 3, 10, 10, 200])
    n_neg = np.array([5, 0, 7, 10, 3, 50])
    defined = (n_pos > 0) & (n_neg > 0)
    expected = []
    for a, b, d in zip(n_pos, n_neg, defined):
        keep = np.ones((a, b), dtype=bool)
        if truncation and a > truncation and b > truncation:
            keep = ((np.arange(a) < truncation)[:, None]
                    | (np.arange(b) < truncation)[None, :])
        expected.append(int(keep.sum()) if d else 0)
    np.testing.assert_array_equal(
        kept_pairs(n_pos, n_neg, defined, truncation), expected)


@pytest.mark.parametrize("n_blocks", [1, 2, 5, 40])
def test_blocks_cover_every_group_once(n_blocks):
    cost = np.random.default_rng(0).integers(0, 100, 23)
    blocks = _blocks(cost, n_blocks)
    assert blocks[0][0] == 0 and blocks[-1][1] == 23
    assert all(a < b for a, b in blocks)
    assert all(b == c for (_, b), (c, _) in zip(blocks, blocks[1:]))
    assert len(blocks) <= n_blocks


@pytest.mark.parametrize("truncation", [0, 2])
@pytest.mark.parametrize("spread", [1.0, 500.0])
@pytest.mark.parametrize("n_threads", [1, 3])
def test_gather_and_scaled_scatter_in_the_kernel(truncation, spread, n_threads):
    """``scores`` (rows' own order) and ``coef``: the kernel gathers the
    scores and returns ``coef * S1``, ``|coef| * S2`` in the rows' order."""
    layout, s, u, v = _case(4, 500, 9, True, spread, np.float64)
    scores = np.empty_like(s)
    scores[layout.order] = s
    coef = np.random.default_rng(5).normal(size=s.shape[0])
    L0, S10, S20 = pair_sums(layout, s, u, v, truncation=truncation)
    L, G, H = pair_sums(layout, None, u, v, truncation=truncation,
                        n_threads=n_threads, scores=scores, coef=coef)
    G0, H0 = np.zeros_like(s), np.zeros_like(s)
    G0[layout.order], H0[layout.order] = coef * S10, np.abs(coef) * S20
    np.testing.assert_array_equal(L, L0)
    np.testing.assert_array_equal(G, G0)
    np.testing.assert_array_equal(H, H0)


def test_kernels_compile_without_a_folder_for_numbas_cache():
    # a read-only install whose home is read-only too: numba's cache=True
    # raised "cannot cache function ...: no locator available" at import,
    # and every smooth surrogate and linear ranker fit failed
    from numba import njit

    namespace = {}
    exec(compile("def f(x):\n    return x + 1\n", "<no file>", "exec"), namespace)
    with pytest.raises(RuntimeError, match="cannot cache"):
        njit(cache=True)(namespace["f"])
    assert _pair_kernels._compiled(nogil=True)(namespace["f"])(1) == 2
    # the module's kernels, where numba finds no folder at all
    code = (
        "import numpy as np, numba.core.caching as c\n"
        "impl = getattr(c, 'CacheImpl', None) or c._CacheImpl\n"
        "impl._locator_classes = []\n"
        "from skpapk.losses._pair_kernels import segment_cumsum\n"
        "values, starts = np.array([1.0, 2.0, 3.0]), np.array([0, 2, 3])\n"
        "print(segment_cumsum(values, starts).tolist())\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[1.0, 3.0, 3.0]"
