"""LambdaLoss-style pAp@k pair weights for the boosted ranker, on MovieLens 100K.

``PApKBoostRanker``'s default objective is the pairwise logistic loss of
every (relevant ``i``, irrelevant ``j``) pair of a user, averaged over the
user's pairs, then over users weighted by ``w_u = 12 n+ n- / (n+ + n- +
1)``; it does not read ``k``. This study weighs every pair, as LambdaRank
does for NDCG (Wang et al., "The LambdaLoss Framework", CIKM 2018), by

    D_ij = |pAp@k(ranking with i and j exchanged) - pAp@k(ranking)|

under the scores of the round (held fixed within the round):

    loss = scale * sum_u w_u * sum_ij v_ij log(1 + exp(-(s_i - s_j)))
           / sum_u w_u,    v_ij = c_ij / sum_ij c_ij  (per user),

with ``c_ij = D_ij`` (``"lambda"``) or ``c_ij = D_ij + eps_u``, ``eps_u =
0.1 * mean_ij D_ij`` of the user (``"lambda + 0.1 mean"``), and the default
loss plus ``lam`` times this one, ``lam`` in {1, 3}. The variants "at k' =
3k" compute D with pAp@3k: a user's training part holds 3 times the rows
of its validation or test part, so the top 3k of a training list covers
about the share of the irrelevant rows that the top k of an evaluation
list does (the table of list shapes shows how different the two are).
The variants "held-out top-k weights" replace D by the pair's chance of
counting in the pAp@k of a held-out list of the user that keeps each row
with probability ``q = 1/3``: ``c_ij = a_i b_j``, ``a_i = q P(Bin(r_i, q)
<= k - 1)`` with ``r_i`` the rows of ``i``'s label ranked above it (so
the weights are smooth in the ranks, where D is a difference of two
rankings' metrics), ``b_j`` the same for ``j``.
The weights of a user sum to 1, as the default's ``1 / (n+ n-)``, so the
users keep their weights ``w_u`` and ``learning_rate`` its meaning;
``scale`` is the number of rows (:class:`skpapk.losses.LightGBMObjective`'s).

Ties: the ranking is the scores' order with ties broken pessimistically
(an irrelevant row before a relevant row of the same score, then row
order within a label), the convention of ``LightGBM``'s lambdarank (a
fixed order) and of the paper's risk: its pAp@k is
``papk_score(..., ties="error")``. ``D_ij`` exchanges the places of ``i``
and ``j`` in that ranking. Without ties it is exactly the change of
``papk_score`` when ``s_i`` and ``s_j`` are swapped. (Swapping tied scores
changes nothing: under that literal definition every pair gets ``D = 0``
in the first round, where every score is 0, and the pure lambda loss would
never leave it.)

Protocol: ``compare_peers.py``'s splits (``load_split``), the default trees
(100 trees, 31 leaves, learning rate 0.05, ``random_state=0``), ``k`` in
{8, 16, 24}; for every ``k`` the variant with the best mean validation
micro-pAp@k is compared with the default on the test users of every split
(:func:`skpapk.metrics.paired_comparison`). Every run first checks ``D``
against a brute force (``papk_score`` on the exchanged rankings) and the
gradient and Hessian by finite differences; ``--check`` stops there. Run
``python -m benchmarks run-all --only boost_lambda_papk`` (about 6 minutes
on 2 cores).
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import itertools  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from numba import njit, prange  # noqa: E402
from scipy.stats import binom  # noqa: E402

from skpapk import PApKBoostRanker  # noqa: E402
from skpapk.losses import LightGBMObjective  # noqa: E402
from skpapk.metrics import papk_score  # noqa: E402

from .._common import (  # noqa: E402
    chosen_on_validation,
    data_path,
    markdown_table,
    per_user_papk,
    positive_int,
    study_heading,
    val_test_cells,
)
from .compare_peers import load_split  # noqa: E402

KS = (8, 16, 24)
#: Rows of a user's training part per row of its validation or test part
#: (``within_group_split``'s 60 / 20 / 20): the top k of an evaluation list
#: covers about the share of its irrelevant rows that the top 3k of the
#: training list does.
TRAIN_TO_EVAL = 3


# ---------------------------------------------------------------- the deltas

@njit(cache=False)
def _top_after(P, n, a, x, t, out):
    """The ``t`` smallest of the sorted ``P[:n]`` without ``P[a]``, with
    ``x`` added, into ``out`` (ascending)."""
    idx = 0
    inserted = False
    for c in range(t):
        if idx == a:
            idx += 1
        v = P[idx] if idx < n else 4611686018427387904
        if not inserted and x < v:
            out[c] = x
            inserted = True
        else:
            out[c] = v
            idx += 1


@njit(cache=False)
def _count_ordered(R, m, N, kk):
    """#{(a, b) : R[a] < N[b]} for ascending ``R[:m]``, ``N[:kk]``."""
    count = 0
    b = 0
    for a in range(m):
        while b < kk and N[b] <= R[a]:
            b += 1
        count += kk - b
    return count


@njit(cache=False)
def _user_places(s, y_pos, start, end):
    """The places (0 = first) of a user's relevant and irrelevant rows in
    the tie-broken ranking, each label in row order, and the places sorted."""
    rel = np.empty(end - start, np.int64)
    irr = np.empty(end - start, np.int64)
    n_pos = 0
    n_neg = 0
    for r in range(start, end):
        if y_pos[r]:
            rel[n_pos] = r
            n_pos += 1
        else:
            irr[n_neg] = r
            n_neg += 1
    rel = rel[:n_pos]
    irr = irr[:n_neg]
    o_pos = np.argsort(-s[rel], kind="mergesort")  # ties: row order
    o_neg = np.argsort(-s[irr], kind="mergesort")
    place_pos = np.empty(n_pos, np.int64)  # by row order
    place_neg = np.empty(n_neg, np.int64)
    a = 0
    b = 0
    for p in range(n_pos + n_neg):
        # the irrelevant row first on a tie (pessimistic)
        if b < n_neg and (a >= n_pos or s[irr[o_neg[b]]] >= s[rel[o_pos[a]]]):
            place_neg[o_neg[b]] = p
            b += 1
        else:
            place_pos[o_pos[a]] = p
            a += 1
    P = np.sort(place_pos)
    N = np.sort(place_neg)
    # rank of each row among its label (row order -> index in P / N)
    rank_pos = np.empty(n_pos, np.int64)
    rank_neg = np.empty(n_neg, np.int64)
    for a in range(n_pos):
        rank_pos[o_pos[a]] = a
    for b in range(n_neg):
        rank_neg[o_neg[b]] = b
    return place_pos, place_neg, rank_pos, rank_neg, P, N


@njit(parallel=True, cache=False)
def papk_deltas(s, y_pos, starts, pair_starts, k):
    """``|D pAp@k|`` of every (relevant, irrelevant) pair of every user.

    Users are the consecutive row ranges ``starts[u]:starts[u + 1]``; user
    ``u``'s pairs are ``pair_starts[u]:pair_starts[u + 1]`` of the result,
    relevant rows in row order, for each the irrelevant rows in row order
    (:func:`pair_rows`). ``O(n+ n- (m + k))`` per user.
    """
    n_users = starts.shape[0] - 1
    out = np.zeros(pair_starts[-1])
    for u in prange(n_users):
        start, end = starts[u], starts[u + 1]
        place_pos, place_neg, rank_pos, rank_neg, P, N = _user_places(
            s, y_pos, start, end)
        n_pos = P.shape[0]
        n_neg = N.shape[0]
        if n_pos == 0 or n_neg == 0:
            continue
        m = min(k, n_pos)
        kk = min(k, n_neg)
        base = _count_ordered(P, m, N, kk)
        norm = m * kk
        R2 = np.empty(m, np.int64)
        N2 = np.empty(kk, np.int64)
        t = pair_starts[u]
        for a in range(n_pos):
            p = place_pos[a]
            ra = rank_pos[a]
            for b in range(n_neg):
                q = place_neg[b]
                # i goes to q, j to p
                _top_after(P, min(m + 1, n_pos), ra if ra <= m else -1, q,
                           m, R2)
                rb = rank_neg[b]
                _top_after(N, min(kk + 1, n_neg), rb if rb <= kk else -1, p,
                           kk, N2)
                new = _count_ordered(R2, m, N2, kk)
                out[t] = abs(new - base) / norm
                t += 1
    return out


@njit(cache=False)
def _pair_rows(y_pos, starts, pair_starts, pi, pj):
    for u in range(starts.shape[0] - 1):
        t = pair_starts[u]
        for i in range(starts[u], starts[u + 1]):
            if not y_pos[i]:
                continue
            for j in range(starts[u], starts[u + 1]):
                if y_pos[j]:
                    continue
                pi[t] = i
                pj[t] = j
                t += 1


def held_out_weights(scores, y_pos, sizes, pi, pj, k, q):
    """``c_ij = a_i b_j``: the chance that relevant row ``i`` is among the
    top ``k`` relevant rows, and irrelevant row ``j`` among the top ``k``
    irrelevant rows, of a held-out list that keeps each row of the user
    with probability ``q`` (both kept): ``P(Bin(r, q) <= k - 1)``, ``r`` the
    row's rank among the user's rows of its label (0: the highest score;
    ties by row order, as the ranking above), times ``q`` for the row kept."""
    n = scores.shape[0]
    user = np.repeat(np.arange(len(sizes)), sizes)
    order = np.lexsort((np.arange(n), -scores, y_pos, user))
    segment = user[order] * 2 + y_pos[order]
    first = np.r_[True, segment[1:] != segment[:-1]]
    start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n) - start
    kept = q * binom.cdf(k - 1, rank, q)
    return kept[pi] * kept[pj]


def pair_rows(y_pos, sizes):
    """Rows of every pair (the enumeration of :func:`papk_deltas`), the
    users' row and pair offsets and their positive and negative counts."""
    starts = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    codes = np.repeat(np.arange(len(sizes)), sizes)
    n_pos = np.bincount(codes, weights=y_pos, minlength=len(sizes))
    n_neg = np.asarray(sizes, dtype=np.float64) - n_pos
    pair_starts = np.concatenate(
        ([0], np.cumsum(n_pos * n_neg))).astype(np.int64)
    pi = np.empty(pair_starts[-1], np.int64)
    pj = np.empty(pair_starts[-1], np.int64)
    _pair_rows(y_pos, starts, pair_starts, pi, pj)
    return starts, pair_starts, pi, pj, n_pos, n_neg


# ------------------------------------------------------------ the objective

class LambdaPApKObjective:
    """LightGBM objective (scikit-learn convention ``(y_true, y_pred,
    weight, group)``, rows by group): the D-weighted pairwise logistic
    loss above, D held fixed within the call. ``eps``: ``c_ij = D_ij +
    eps * mean_ij D_ij`` (per user). No row weights."""

    def __init__(self, k, eps=0.0, held_out=None):
        self.k = k
        self.eps = eps
        self.held_out = held_out
        self._cache = None

    def _layout(self, y_pos, sizes):
        if (self._cache is None or not np.array_equal(self._cache[0], y_pos)
                or not np.array_equal(self._cache[1], sizes)):
            starts, pair_starts, pi, pj, n_pos, n_neg = pair_rows(y_pos, sizes)
            w = np.where((n_pos > 0) & (n_neg > 0),
                         12.0 * n_pos * n_neg / (n_pos + n_neg + 1.0), 0.0)
            user = np.repeat(np.arange(len(sizes)),
                             np.diff(pair_starts))
            self._cache = (y_pos.copy(), np.asarray(sizes).copy(), starts,
                           pair_starts, pi, pj, w / w.sum(), user)
        return self._cache[2:]

    def pair_weights(self, y_pos, scores, sizes):
        """The pairs' rows and weights ``scale * w_u / W * v_ij``."""
        starts, pair_starts, pi, pj, w, user = self._layout(y_pos, sizes)
        if self.held_out is None:
            delta = papk_deltas(scores, y_pos, starts, pair_starts, self.k)
        else:
            delta = held_out_weights(scores, y_pos, sizes, pi, pj, self.k,
                                     self.held_out)
        n_pairs = np.diff(pair_starts)
        total = np.bincount(user, weights=delta, minlength=len(sizes))
        c = delta
        if self.eps:
            mean = total / np.maximum(n_pairs, 1)
            c = delta + self.eps * mean[user]
            total = total * (1.0 + self.eps)
        coef = np.divide(w, total, out=np.zeros_like(w), where=total > 0)
        return pi, pj, c * coef[user] * scores.shape[0]

    @staticmethod
    def loss_grad_hess(scores, pi, pj, c):
        """Value, gradient and Hessian diagonal of sum c log(1+exp(-d))."""
        d = scores[pi] - scores[pj]
        value = float(np.sum(c * np.logaddexp(0.0, -d)))
        sig = 0.5 * (1.0 - np.tanh(0.5 * d))  # 1 / (1 + exp(d))
        g = c * sig
        h = c * sig * (1.0 - sig)
        n = scores.shape[0]
        grad = np.bincount(pj, weights=g, minlength=n) - np.bincount(
            pi, weights=g, minlength=n)
        hess = np.bincount(pi, weights=h, minlength=n) + np.bincount(
            pj, weights=h, minlength=n)
        return value, grad, hess

    def __call__(self, y_true, y_pred, weight, group):
        if weight is not None:
            raise ValueError("no row weights in this study")
        y_pos = np.asarray(y_true) > 0
        scores = np.asarray(y_pred, dtype=np.float64)
        pi, pj, c = self.pair_weights(y_pos, scores, np.asarray(group))
        _, grad, hess = self.loss_grad_hess(scores, pi, pj, c)
        return grad, hess


class LambdaPApKRanker(PApKBoostRanker):
    """``PApKBoostRanker`` trained on ``default_weight`` times its default
    loss plus ``lam`` times the lambda loss (``eps`` as above), whose D is
    the change of pAp@k' with ``k' = k_scale * k``."""

    def __init__(self, k=10, *, lam=1.0, eps=0.0, default_weight=0.0,
                 k_scale=1, held_out=None, **params):
        self.lam = lam  # before PApKBoostRanker's set_params reads them
        self.eps = eps
        self.default_weight = default_weight
        self.k_scale = k_scale
        self.held_out = held_out
        super().__init__(k=k, **params)

    def _lightgbm_objective(self):
        lam = LambdaPApKObjective(self.k_scale * self.k, self.eps,
                                  self.held_out)
        every = super()._lightgbm_objective() if self.default_weight else None

        def objective(y_true, y_pred, weight, group):  # LGBMRanker's four
            grad, hess = lam(y_true, y_pred, weight, group)
            grad, hess = self.lam * grad, self.lam * hess
            if every is not None:
                g0, h0 = every(y_true, y_pred, weight, group)
                grad = grad + self.default_weight * g0
                hess = hess + self.default_weight * h0
            return grad, hess
        return objective


#: name: parameters of LambdaPApKRanker (None: the default PApKBoostRanker)
VARIANTS = {
    "default (every pair, does not read k)": None,
    "lambda: D_ij": {"lam": 1.0},
    "lambda: D_ij + 0.1 mean D": {"lam": 1.0, "eps": 0.1},
    "every pair + 1 x lambda": {"lam": 1.0, "default_weight": 1.0},
    "every pair + 3 x lambda": {"lam": 3.0, "default_weight": 1.0},
    "lambda at k' = 3k: D_ij": {"lam": 1.0, "k_scale": TRAIN_TO_EVAL},
    "every pair + 1 x lambda at k' = 3k": {"lam": 1.0, "default_weight": 1.0,
                                           "k_scale": TRAIN_TO_EVAL},
    "held-out top-k weights a_i b_j": {"lam": 1.0,
                                       "held_out": 1 / TRAIN_TO_EVAL},
    "every pair + 1 x held-out top-k weights": {
        "lam": 1.0, "default_weight": 1.0, "held_out": 1 / TRAIN_TO_EVAL},
}
DEFAULT = next(iter(VARIANTS))


# ---------------------------------------------------------------- the checks

def _swap_deltas(y, s, k):
    """|change of ``papk_score``| when the scores of each (relevant,
    irrelevant) pair are exchanged (pair order of :func:`pair_rows`), and
    the pAp@k of ``s``."""
    base = papk_score(y, s, k=k)
    out = []
    for i in np.flatnonzero(y):
        for j in np.flatnonzero(~y):
            s2 = s.copy()
            s2[i], s2[j] = s[j], s[i]
            out.append(abs(papk_score(y, s2, k=k) - base))
    return np.array(out), base


def _brute_deltas(y, s, k):
    """D of every pair of one user by ``papk_score`` on the exchanged
    tie-broken rankings (pair order of :func:`pair_rows`)."""
    idx = np.arange(len(y))
    # tie-broken ranking: score down, irrelevant first, row order
    order = np.lexsort((idx, y, -s))
    r = np.empty(len(y))
    r[order] = -np.arange(len(y), dtype=np.float64)
    return (*_swap_deltas(y, r, k), r)


def check(rng, n_users=300):
    """Assert D against brute force; gradient and Hessian against finite
    differences and (with D = 1) against the library's objective. Returns
    lines to print."""
    lines = []
    sizes, ys, ss, ks = [], [], [], []
    worst = 0.0
    n_pairs = 0
    n_tied_users = 0
    untied_worst = 0.0
    for u in range(n_users):
        k = int(rng.choice([1, 2, 3, 5, 8]))
        n_pos = int(rng.integers(1, 10))
        n_neg = int(rng.integers(1, 12))
        y = rng.permutation(np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)])
        if u % 3 == 2:
            s = rng.normal(size=n_pos + n_neg)   # no ties
        else:
            s = rng.integers(0, 1 + u % 4, size=n_pos + n_neg).astype(float)
        sizes.append(len(y))
        ys.append(y)
        ss.append(s)
        ks.append(k)
        starts, pair_starts, _, _, _, _ = pair_rows(y, [len(y)])
        got = papk_deltas(s, y, starts, pair_starts, k)
        want, base, r = _brute_deltas(y, s, k)
        worst = max(worst, float(np.max(np.abs(got - want))))
        n_pairs += len(want)
        # the tie-broken ranking's pAp@k is ties="error"'s
        assert abs(base - papk_score(y, s, k=k, ties="error")) < 1e-12
        if len(np.unique(s)) == len(s):
            # no ties: D is the change when the two scores are swapped
            lit = _swap_deltas(y, s, k)[0]
            untied_worst = max(untied_worst, float(np.max(np.abs(got - lit))))
        else:
            n_tied_users += 1
    assert worst < 1e-12, worst
    assert untied_worst < 1e-12, untied_worst
    lines.append(
        f"- D against brute force (`papk_score` on the exchanged tie-broken "
        f"ranking, per user): {n_users} random users ({n_tied_users} with "
        f"tied scores; n+ in 1..9, n- in 1..11, k in {{1, 2, 3, 5, 8}}, so "
        f"n+ < k and n- < k both occur), {n_pairs} pairs, largest "
        f"difference {worst:.1e}; on the users without ties against swapping "
        f"the two raw scores (default `ties`): {untied_worst:.1e}; the "
        f"tie-broken ranking's pAp@k equals `papk_score(..., "
        f"ties=\"error\")` on every user.")
    # several users at once, one k (the kernel's offsets)
    y = np.concatenate(ys)
    s = np.concatenate(ss)
    starts, pair_starts, _, _, _, _ = pair_rows(y, sizes)
    got = papk_deltas(s, y, starts, pair_starts, 3)
    want = np.concatenate([_brute_deltas(a, b, 3)[0] for a, b in zip(ys, ss)])
    assert np.max(np.abs(got - want)) < 1e-12
    # finite differences of the D-weighted loss, D held fixed
    fd_worst = 0.0
    for eps in (0.0, 0.1):
        obj = LambdaPApKObjective(k=3, eps=eps)
        sizes_small = [7, 5, 9, 4]
        n = sum(sizes_small)
        y_small = rng.random(n) < 0.4
        y_small[[0, 7, 12, 21]] = True
        y_small[[1, 8, 13, 22]] = False
        s0 = rng.normal(size=n)
        pi, pj, c = obj.pair_weights(y_small, s0, np.array(sizes_small))
        _, grad, hess = obj.loss_grad_hess(s0, pi, pj, c)
        h = 1e-5
        for r in range(n):
            e = np.zeros(n)
            e[r] = h
            fp, gp, _ = obj.loss_grad_hess(s0 + e, pi, pj, c)
            fm, gm, _ = obj.loss_grad_hess(s0 - e, pi, pj, c)
            fd_g = (fp - fm) / (2 * h)
            fd_h = (gp[r] - gm[r]) / (2 * h)
            fd_worst = max(fd_worst, abs(fd_g - grad[r]) / (1 + abs(grad[r])),
                           abs(fd_h - hess[r]) / (1 + abs(hess[r])))
        # the call gives the same gradient
        g2, h2 = obj(y_small.astype(float), s0, None, np.array(sizes_small))
        assert np.allclose(g2, grad) and np.allclose(h2, hess)
    assert fd_worst < 1e-6, fd_worst
    # with D = 1 the weights are the default's: compare with the library
    obj = LambdaPApKObjective(k=3)
    starts, pair_starts, pi, pj, _, _ = pair_rows(y, sizes)
    w, user = obj._layout(y, np.array(sizes))[4:]
    n_pairs_u = np.diff(pair_starts)
    c = (w / n_pairs_u)[user] * len(y)
    _, grad, hess = obj.loss_grad_hess(s, pi, pj, c)
    lib_g, lib_h = LightGBMObjective("pairwise_logistic", truncation_level=None,
                                     n_jobs=1)(y.astype(float), s, None,
                                               np.array(sizes))
    lib_worst = max(np.max(np.abs(grad - lib_g)), np.max(np.abs(hess - lib_h)))
    assert lib_worst < 1e-9, lib_worst
    lines.append(
        f"- Gradient and Hessian diagonal of the D-weighted loss (D held "
        f"fixed; eps = 0 and 0.1) against central finite differences "
        f"(h = 1e-5) on 4 users of 25 rows: largest relative difference "
        f"{fd_worst:.1e}; with every D = 1 the same code gives the library's "
        f"default objective (`LightGBMObjective(\"pairwise_logistic\", "
        f"truncation_level=None)`) to {lib_worst:.1e}.")
    lines.append(_check_held_out(rng))
    return lines


def _check_held_out(rng, n_draws=20000, k=2, q=1 / 3):
    """The held-out weights ``a_i b_j`` against the frequency, over random
    held-out lists (each row kept with probability ``q``), with which both
    rows are kept and counted by that list's pAp@k (two users, tied
    scores among them)."""
    sizes = np.array([9, 7])
    y = np.r_[rng.random(9) < 0.5, rng.random(7) < 0.5]
    y[[0, 9]], y[[1, 10]] = True, False
    s = rng.integers(0, 4, size=16).astype(float)
    _, _, pi, pj, _, _ = pair_rows(y, sizes)
    want = held_out_weights(s, y, sizes, pi, pj, k, q)
    counts = np.zeros(len(pi))
    user = np.repeat([0, 1], sizes)
    idx = np.arange(16)
    for _ in range(n_draws):
        kept = rng.random(16) < q
        top = np.zeros(16, bool)
        for u in (0, 1):
            for label in (True, False):
                rows = idx[kept & (user == u) & (y == label)]
                # the ranking's order: score down, then row order
                top[rows[np.lexsort((rows, -s[rows]))][:k]] = True
        counts += top[pi] & top[pj]
    freq = counts / n_draws
    worst = float(np.max(np.abs(freq - want) / np.sqrt(
        np.maximum(want * (1 - want), 1e-12) / n_draws)))
    assert worst < 5, worst
    return (f"- Held-out top-k weights `a_i b_j` against {n_draws} random "
            f"held-out lists (each row kept with probability {q:.2f}, k = "
            f"{k}; 2 users of 9 and 7 rows with tied scores, {len(pi)} "
            f"pairs): largest difference {worst:.1f} standard errors.")


# -------------------------------------------------------------------- study

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=positive_int, default=3)
    parser.add_argument("--path", default=data_path())
    parser.add_argument("--quick", action="store_true",
                        help="5 trees, two variants (a smoke test)")
    parser.add_argument("--check", action="store_true",
                        help="the checks only")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    check_lines = check(np.random.default_rng(0))
    check_seconds = time.perf_counter() - started
    if args.check:
        print("\n".join(check_lines))
        return
    variants = dict(itertools.islice(VARIANTS.items(), 2)) if args.quick \
        else VARIANTS
    trees = {"n_estimators": 5} if args.quick else {}
    val, test, train, seconds = {}, {}, {}, {}
    shapes = {}  # (part, k) -> the list-shape numbers of every split
    spread = []  # the weights under the default's training scores, split 0
    started = time.perf_counter()
    for split in range(args.splits):
        (X, y, g), (Xv, yv, gv), (Xs, ys, gs) = load_split(split, args.path)
        for part, (y_part, g_part) in zip(PARTS, ((y, g), (yv, gv), (ys, gs))):
            for k in KS:
                shapes.setdefault((part, k), []).append(
                    list_shape(y_part, g_part, k))
        for name, params in variants.items():
            for k in KS:
                start = time.perf_counter()
                if params is None:
                    ranker = PApKBoostRanker(k=k, random_state=0, **trees)
                else:
                    ranker = LambdaPApKRanker(k=k, random_state=0, **params,
                                              **trees)
                ranker.fit(X, y, groups=g)
                seconds.setdefault(name, []).append(time.perf_counter() - start)
                # the default does not read k: one fit serves every k
                s_train = ranker.decision_function(X)
                for k_other in (KS if params is None else (k,)):
                    train.setdefault((name, k_other), []).append(np.nanmean(
                        per_user_papk(y, s_train, g, k_other)))
                    val.setdefault((name, k_other), []).append(np.nanmean(
                        per_user_papk(yv, ranker.decision_function(Xv), gv,
                                 k_other)))
                    test.setdefault((name, k_other), []).append(per_user_papk(
                        ys, ranker.decision_function(Xs), gs, k_other))
                if params is None:
                    if split == 0:
                        spread = weight_spread(y, s_train, g)
                    break
        print(f"split {split} done ({time.perf_counter() - started:.0f} s)",
              file=sys.stderr, flush=True)
    rows = [[name, *val_test_cells(val, test, name, KS),
             f"{np.mean(seconds[name]):.1f}"] for name in variants]
    print(study_heading("LambdaLoss-style pAp@k pair weights (PApKBoostRanker, "
                        "MovieLens 100K)", args.splits, started))
    print(f"Checks (run first, {check_seconds:.0f} s):\n")
    print("\n".join(check_lines) + "\n")
    print("Mean validation / test micro-pAp@k (%) over the splits, and the "
          "mean fit time:\n")
    print(markdown_table(["pair weights"] + [f"k={k}: val / test" for k in KS]
                         + ["fit s"], rows))
    print("\nMean training micro-pAp@k (%) over the splits (the rows the "
          "trees were fitted to):\n")
    print(markdown_table(["pair weights"] + [f"k={k}" for k in KS], [
        [name] + [f"{100 * np.mean(train[name, k]):.2f}" for k in KS]
        for name in variants]))
    print("\nThe shape of the users' lists in each part (users with both "
          "labels, mean over the splits): the share of users whose pAp@k is "
          "their AUC (n+ <= k and n- <= k: every pair counts), and the mean "
          "share of a user's irrelevant rows that pAp@k reads (min(k, n-) / "
          "n-):\n")
    print(markdown_table(["k"] + [f"{part}: pAp@k = AUC / irrelevant read"
                                  for part in PARTS], [
        [str(k)] + ["{:.1f}% / {:.1f}%".format(
            *(100 * np.mean(shapes[part, k], axis=0))) for part in PARTS]
        for k in KS]))
    if spread:
        print("\nThe lambda weights D under the default ranker's final scores "
              "on split 0's training rows: the share of pairs with D > 0, and "
              "the effective number of pairs of a user, (sum D)^2 / sum D^2, "
              "as a share of its n+ n- pairs (mean over users):\n")
        print(markdown_table(["k", "pairs with D > 0", "effective pairs"],
                             spread))
    print("\nThe variant with the best validation score at each k against the "
          "default (the per-user test pAp@k of every split, paired):\n")
    print(chosen_on_validation(variants, DEFAULT, val, test, KS))
    lambdas = [v for v in variants if v != DEFAULT]
    if lambdas:
        print("\nThe same for the lambda variants alone (the best of them on "
              "validation at each k, the default left out of the choice):\n")
        print(chosen_on_validation(lambdas, DEFAULT, val, test, KS))


PARTS = ("training", "validation", "test")


def list_shape(y, g, k):
    """Over the users with both labels: the share whose pAp@k is their AUC
    (``n+ <= k`` and ``n- <= k``), and the mean of ``min(k, n-) / n-``."""
    codes = np.unique(np.asarray(g), return_inverse=True)[1]
    n_pos = np.bincount(codes, weights=np.asarray(y) > 0)
    n_neg = np.bincount(codes) - n_pos
    both = (n_pos > 0) & (n_neg > 0)
    n_pos, n_neg = n_pos[both], n_neg[both]
    return (np.mean((n_pos <= k) & (n_neg <= k)),
            np.mean(np.minimum(k, n_neg) / n_neg))


def weight_spread(y, scores, g):
    """Rows of the D diagnostic: per k, the share of pairs with D > 0 and
    the mean over users of (sum D)^2 / (sum D^2 n+ n-)."""
    order = np.argsort(g, kind="stable")
    y_pos = np.asarray(y)[order] > 0
    s = np.asarray(scores, dtype=np.float64)[order]
    sizes = np.unique(np.asarray(g)[order], return_counts=True)[1]
    starts, pair_starts, _, _, _, _ = pair_rows(y_pos, sizes)
    user = np.repeat(np.arange(len(sizes)), np.diff(pair_starts))
    n_pairs = np.diff(pair_starts)
    rows = []
    for k in KS:
        d = papk_deltas(s, y_pos, starts, pair_starts, k)
        s1 = np.bincount(user, weights=d, minlength=len(sizes))
        s2 = np.bincount(user, weights=d * d, minlength=len(sizes))
        ok = s2 > 0
        eff = s1[ok] ** 2 / s2[ok] / n_pairs[ok]
        rows.append([str(k), f"{100 * np.mean(d > 0):.1f}%",
                     f"{100 * np.mean(eff):.1f}%"])
    return rows


if __name__ == "__main__":
    main()
