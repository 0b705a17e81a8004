"""Exact expectations of the metrics over a uniformly random order of ties.

Breaking the ties of a score at random (every order of a tie block's rows
equally likely, independently across blocks) turns each metric into the
mean of its values over those orders. The functions here give that mean in
closed form or as short sums, for many tie blocks at once: flat "ragged"
arrays, no Python loop over groups or blocks.

Notation for one tie block: ``p`` relevant and ``q`` irrelevant rows; in a
random order of the block, ``X_r`` is the number of its irrelevant rows
placed before its ``r``-th relevant row, a negative hypergeometric variable:

``P(X_r = x) = C(x + r - 1, x) C(p - r + q - x, q - x) / C(p + q, q)``.
"""

import numpy as np
from scipy.special import gammaln

from ..utils._groups import ragged_range


def _log_binom(n, k):
    """``log C(n, k)`` for ``0 <= k <= n`` (floats; relative error ~1e-12 at
    ``n = 1000``, ~1e-10 at ``n = 10**5``)."""
    n = np.asarray(n, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    return gammaln(n + 1.0) - gammaln(k + 1.0) - gammaln(n - k + 1.0)


#: The most terms of a sum held at once (about 100 bytes each at the peak of
#: their arithmetic): a few tens of MiB, however many terms a sum has (a
#: tie block of constant scores straddling the top ``k`` has up to about
#: ``k**2 / 4``).
MOST_TERMS = 1 << 18


def chunks(costs):
    """Consecutive slices of ``range(len(costs))`` whose ``costs`` sum to at
    most ``MOST_TERMS`` (or hold one item); a few slices, not one per item."""
    most = MOST_TERMS
    ends = np.cumsum(costs)
    start = 0
    while start < ends.shape[0]:
        base = ends[start - 1] if start else 0
        stop = max(start + 1, int(np.searchsorted(ends, base + most, "right")))
        yield slice(start, stop)
        start = stop


def _sum_over_ranks(c, p, q, r_first, n_r):
    """``sum_{r = r_first}^{r_first + n_r - 1} E[(c - X_r)^+]`` per block.

    ``E[(c - X)^+] = sum_{x < c} (c - x) P(X = x)`` needs ``min(c, q + 1)``
    terms per rank (``X_r <= q``), computed ``MOST_TERMS`` at a time.
    """
    owner_r, i = ragged_range(n_r)
    r = r_first[owner_r] + i
    c_r, p_r, q_r = c[owner_r], p[owner_r], q[owner_r]
    n_terms = np.minimum(c_r, q_r + 1)
    out = np.zeros(c.shape[0])
    for part in chunks(n_terms):
        owner_x, x = ragged_range(n_terms[part])
        r_x, c_x = r[part][owner_x], c_r[part][owner_x]
        p_x, q_x = p_r[part][owner_x], q_r[part][owner_x]
        log_pmf = (_log_binom(x + r_x - 1, x)
                   + _log_binom(p_x - r_x + q_x - x, q_x - x)
                   - _log_binom(p_x + q_x, q_x))
        out += np.bincount(owner_r[part][owner_x],
                           weights=(c_x - x) * np.exp(log_pmf),
                           minlength=c.shape[0])
    return out


def expected_correct_pairs(c, p, q, rho):
    """Expected correctly ordered pairs of a block's top relevant rows.

    For every block: ``E[sum_{r <= rho} (c - X_r)^+]``, the expected number of
    pairs (one of the block's ``rho`` first relevant rows, one of the first
    ``c`` irrelevant rows counted from the block's start) in which the
    relevant row comes first. Rows above the block are not counted here: a
    relevant row of the block is always below them.

    With every relevant row (``rho = p``) the sum is in closed form: a
    relevant row falls in each of the ``q + 1`` gaps between the block's
    irrelevant rows with probability ``1 / (q + 1)``, so it lies above the
    ``j``-th one with probability ``(q + 1 - j) / (q + 1)``, and

    ``sum_{r <= p} E[min(X_r, c)] = p L (2q + 1 - L) / (2 (q + 1))``,
    ``L = min(c, q)``.

    Otherwise the ranks ``r <= rho`` (or, when fewer, the ranks above
    ``rho``, subtracted from the closed form) are summed term by term:
    ``min(rho, p - rho) * min(c, q + 1)`` terms per block (up to about
    ``k**2 / 4`` for a block that straddles the top ``k``), in arrays of
    at most ``MOST_TERMS``.

    Parameters
    ----------
    c, p, q, rho : ndarray of int of shape (n_blocks,)
        ``c >= 1``, ``p >= 1``, ``q >= 0``, ``1 <= rho <= p``.

    Returns
    -------
    correct : ndarray of float of shape (n_blocks,)
    """
    c, p, q, rho = (np.asarray(a, dtype=np.int64) for a in (c, p, q, rho))
    big_l = np.minimum(c, q)
    # p L (2q + 1 - L) in float64: it passes int64's 9.2e18 for a tied block
    # of a few million rows (below 2**53, the float products are exact: the
    # values of the int64 products)
    full = (p * c - (p * big_l).astype(np.float64) * (2 * q + 1 - big_l)
            / (2.0 * (q + 1)))
    out = np.where(q == 0, rho * c, full).astype(np.float64)
    partial = np.flatnonzero((rho < p) & (q > 0))
    if partial.shape[0]:
        c, p, q, rho = c[partial], p[partial], q[partial], rho[partial]
        direct = rho <= p - rho
        sums = _sum_over_ranks(c, p, q, np.where(direct, 1, rho + 1),
                               np.where(direct, rho, p - rho))
        out[partial] = np.where(direct, sums, full[partial] - sums)
    return out


def hypergeometric_pmf(n_total, n_good, n_draws, j):
    """``P(j good among n_draws drawn from n_total, n_good of them good)``."""
    return np.exp(_log_binom(n_good, j)
                  + _log_binom(n_total - n_good, n_draws - j)
                  - _log_binom(n_total, n_draws))
