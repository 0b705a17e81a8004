"""The prec@k avg surrogate of Kar et al. (2015), the SGD@k-avg baseline.

Kar, Narasimhan and Jain (2015) bound the prec@k loss of one list (here one
group) by the convex surrogate (Kar et al. 2015, App. B.4)::

    l(s) = max_{|yhat| = k} { Delta(y, yhat) + sum_i (yhat_i - y_i) s_i
                              + (1 / C(yhat)) sum_i (1 - yhat_i) y_i s_i }

with ``Delta(y, yhat) = k - K`` (``K`` = number of true positives in
``yhat``) and ``1 / C(yhat) = (n+ - k) / (n+ - K)``. For a fixed ``K`` the
positive rows out of ``yhat`` get the coefficient ``-(k - K) / (n+ - K) <= 0``
and the negative rows in ``yhat`` the coefficient ``+1``, so the maximiser
takes the top ``K`` positives and the top ``k - K`` negatives::

    value(K) = (k - K) + sum_{top k-K negatives} s
               - (k - K) / (n+ - K) * sum_{positives below the top K} s

and ``l(s) = max_K value(K)`` over the feasible ``K``:
``max(0, k - n-) <= K <= min(n+, k)``. A group with at most ``k`` rows
shows all of them, so its prec@k does not depend on the scores: it
contributes 0 (the definition has no ``yhat`` when ``n < k``, and for
``n = k`` its only ``yhat`` gives ``n- + sum of the negative scores``, which
would only push the negatives' scores down). All groups are done at once: a flat
``(group, K)`` table (``np.repeat``), each group's own prefix sums of its
sorted positive and negative scores' differences to its highest negative
score (compiled), and a segment maximum (``np.maximum.reduceat``). There is
no Python loop over groups or over ``K``.
"""

import numpy as np

from ..utils._groups import ragged_range, segment_starts
from ._losses import BaseSurrogate, _first_sums


class PrecAtKSurrogate(BaseSurrogate):
    """The prec@k avg surrogate (Kar et al. 2015, Appendix B.4): SGD@k-avg.

    The group value is ``l(s) / k`` with ``l`` the surrogate of the module
    docstring: Kar et al.'s surrogate divided by ``k`` (as in their App.
    D.3), so that it upper-bounds the prec@k *risk* ``1 - prec@k`` of the
    group when ``k <= n+`` (Kar et al. 2015, Claim 17) and is on the scale
    of the pAp@k surrogates. Convex in ``w`` (a maximum of linear functions).

    Edge cases, decided by Kar et al.'s definition (the tests compare with a
    brute force over every ``|yhat| = k``):

    - ``K = n+`` (only possible when ``n+ <= k``): the ``1 / C`` term
      multiplies an empty sum and counts 0. When ``n+ >= k``, ``K = k`` is
      feasible and its value is 0, so the group value is ``>= 0``.
    - ``n+ < k``: ``1 / C = (n+ - k) / (n+ - K)`` is negative and the
      positives below the top ``K`` get the coefficient ``(k - K) / (n+ - K)
      > 1`` (not ``(min(k, n+) - K) / (n+ - K)``); ``K = n+`` is feasible and
      gives ``(k - n+) + sum_{top k-n+ negatives} s``, which may win. The
      value may then be negative and Claim 17 (stated for ``k <= n+``) no
      longer holds.
    - A group with at most ``k`` rows contributes 0 (it still counts in the
      mean over groups): every row is shown, so its prec@k is the same for
      all scores and it carries no signal. The definition has no ``yhat``
      with ``k`` ones when ``n < k``; with ``n = k`` its only ``yhat`` (every
      row) gives ``n- + sum of the negative scores``, a term without any
      positive that rewards lowering the scores of the negatives, and so
      lowering every score (e.g. ``w`` against the mean of non-negative
      features). On MovieLens at ``k = 24`` (23% of the users have at most
      24 training rows) that term made the ranker learn ``w`` close to
      ``-mean(x)``, which ranks the relevant items last (test micro-pAp@24
      40.7% against 46.2% for a random ranking; 51.0% with those groups
      adding 0; see :doc:`/user_guide/benchmarks`).
    - Groups without a positive or without a negative are left out of the
      mean, as for the other surrogates.

    The subgradient coefficients of the maximiser ``K*`` (the smallest ``K``
    among ties) are ``+1 / k`` on the top ``k - K*`` negatives and
    ``-(k - K*) / ((n+ - K*) k)`` on the positives below the top ``K*``
    (before the division by the number of groups used).

    See Also
    --------
    skpapk.PrecAtKRanker : The linear ranker trained on it.
    skpapk.metrics.precision_at_k_score : The prec@k metric.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import PrecAtKSurrogate
    >>> y_pos = np.array([True, True, False, False])   # one user, k = 1
    >>> scores = np.array([2.0, 0.0, 1.0, -1.0])
    >>> codes = np.zeros(4, dtype=np.intp)
    >>> loss = PrecAtKSurrogate()
    >>> value, coef, n_used = loss.loss_gradient(y_pos, scores, codes, 1, k=1)
    >>> value, coef
    (1.0, array([-0.5, -0.5,  1. ,  0. ]))
    """

    name = "preck"

    def _group_terms(self, ctx, coef):
        from ._pair_kernels import segment_cumsum  # numba: imported on first use

        k = ctx.k
        # groups with at most k rows: prec@k does not depend on the scores
        scored = ctx.defined & (ctx.n_pos + ctx.n_neg > k)
        groups = np.flatnonzero(scored)
        if groups.shape[0] == 0:
            return 0.0
        n_pos = ctx.n_pos[groups]
        n_neg = ctx.n_neg[groups]
        k_lo = np.maximum(0, k - n_neg)
        k_hi = np.minimum(n_pos, k)
        n_values = k_hi - k_lo + 1
        owner, n_true = ragged_range(n_values, k_lo)  # K of each (group, K)
        starts = segment_starts(n_values)
        # Each scored group's sums of its positives below the top K, from
        # its own suffix sums (of its scores in decreasing order), and of
        # its k - K highest negatives, from its own prefix sums: both of
        # the scores' differences to the group's highest negative, r, which
        # value(K) does not change where n+ > K (weight * n_left = k - K);
        # where n+ = K, (k - K) r is added back
        pos_used = np.where(scored, ctx.n_pos, 0)
        pos_start = np.zeros(ctx.n_groups + 1, dtype=np.intp)
        np.cumsum(pos_used, out=pos_start[1:])
        pos = np.flatnonzero(ctx.y_pos & scored[ctx.codes])
        # reversed: the lowest score of the last group first
        slot = pos_start[-1] - 1 - (pos_start[ctx.codes[pos]] + ctx.rank[pos])
        reversed_pos = np.empty(pos.shape[0], dtype=np.float64)
        with np.errstate(over="ignore"):
            reversed_pos[slot] = ctx.scores[pos] - ctx.neg_ref[ctx.codes[pos]]
        suffix = segment_cumsum(reversed_pos, pos_start[-1] - pos_start[::-1])[::-1]
        g = groups[owner]
        n_wrong = k - n_true  # k - K negatives in yhat
        n_left = n_pos[owner] - n_true
        below = np.where(n_left > 0, suffix[np.minimum(pos_start[g] + n_true,
                                                       suffix.shape[0] - 1)], 0.0)
        weight = np.zeros(n_true.shape[0], dtype=np.float64)
        np.divide(n_wrong, n_left, out=weight, where=n_left > 0)
        with np.errstate(over="ignore", invalid="ignore"):
            value = (n_wrong + _first_sums(ctx.neg_prefix, ctx.neg_start[g], n_wrong)
                     + np.where(n_left > 0, np.where(n_wrong > 0, -weight * below,
                                                     0.0),
                                n_wrong * ctx.neg_ref[g]))
        # sums that overflowed both ways (scores near 1e308): an overflow, as
        # the other surrogates' (the solvers stop on a value that is not finite)
        value[np.isnan(value)] = np.inf
        best = np.maximum.reduceat(value, starts)
        candidate = np.where(value == best[owner],
                             np.arange(value.shape[0]), value.shape[0])
        arg = np.minimum.reduceat(candidate, starts)
        # Subgradient of the maximiser of every group.
        n_true_best = np.zeros(ctx.n_groups, dtype=np.intp)
        n_true_best[groups] = n_true[arg]
        n_wrong_best = np.zeros(ctx.n_groups, dtype=np.intp)
        n_wrong_best[groups] = n_wrong[arg]
        weight_best = np.zeros(ctx.n_groups, dtype=np.float64)
        weight_best[groups] = weight[arg]
        used = scored[ctx.codes]
        neg_rows = np.flatnonzero(used & ~ctx.y_pos
                                  & (ctx.rank < n_wrong_best[ctx.codes]))
        coef[neg_rows] = 1.0 / k
        pos_rows = np.flatnonzero(used & ctx.y_pos
                                  & (ctx.rank >= n_true_best[ctx.codes]))
        coef[pos_rows] = -weight_best[ctx.codes[pos_rows]] / k
        return float(np.sum(best)) / k
