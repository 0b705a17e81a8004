"""Surrogates of the pAp@k risk, their values and subgradients.

Every surrogate is evaluated for all groups at once: one ranking of every
group's positives and negatives (as
:func:`~skpapk.utils._groups.rank_by_group_and_label`), then counts of active
(positive, negative) pairs from one more sort of the few rows that take part
(:func:`~skpapk.utils._groups.count_at_least`) and each group's own prefix
sums of its top negatives' differences to its highest one (compiled,
:func:`~skpapk.losses._pair_kernels.segment_cumsum`): a hinge's value rounds
with the score differences, not with the scores' size or with the other
groups. There is no Python loop over groups and no (positives x negatives)
pair matrix: an evaluation costs O(n log n).

Notation (one group = one user): ``n+`` positives, ``n-`` negatives,
``beta = min(k, n+)``, ``k' = min(k, n-)``, ``h(a) = max(0, a)``, ``P_i`` the
positives' scores and ``N_j`` the scores of the ``k'`` highest scored
negatives. Which rows are "top" when scores tie is decided by a stable sort:
among equal scores the row that comes first in the data ranks higher. The
value of every surrogate does not depend on that choice; the subgradient
returned does (any choice is a valid subgradient of the convex surrogates).

A pair ``(i, j)`` is *active* when its hinge argument ``m_i - (P_i - N_j)`` is
``>= 0``, as in Algorithm 2 of the paper.
"""

from dataclasses import dataclass

import numpy as np

from ..utils._groups import count_at_least, rank_by_group_and_label
from ..utils._validation import check_k
from ._checks import check_layout_inputs, check_scores


@dataclass
class _Context:
    """Everything a surrogate needs about the groups at the current scores."""

    y_pos: np.ndarray
    scores: np.ndarray
    codes: np.ndarray
    n_groups: int
    rank: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray
    beta: np.ndarray
    k_neg: np.ndarray
    defined: np.ndarray
    n_defined: int
    top_neg: np.ndarray  # row indices of the top-k' negatives of defined groups
    top_neg_codes: np.ndarray
    top_neg_scores: np.ndarray
    top_neg_slot: np.ndarray  # position in the group-sorted layout
    neg_start: np.ndarray  # offset of each group's top negatives in that layout
    neg_ref: np.ndarray  # each group's highest negative score (0: none)
    neg_prefix: np.ndarray  # each group's own prefix sums of N_j - neg_ref
    k: int = None  # number of items shown to each user


def _make_context(y_pos, scores, codes, n_groups, k):
    from ._pair_kernels import segment_cumsum  # numba: imported on first use

    ranking = rank_by_group_and_label(y_pos, scores, codes, n_groups)
    rank, n_pos, n_neg = ranking.rank, ranking.n_pos, ranking.n_neg
    beta = np.minimum(n_pos, k)
    k_neg = np.minimum(n_neg, k)
    defined = (n_pos > 0) & (n_neg > 0)
    k_used = np.where(defined, k_neg, 0)
    top_neg = np.flatnonzero(~y_pos & (rank < k_used[codes]))
    top_neg_codes = codes[top_neg]
    top_neg_scores = scores[top_neg]
    neg_start = np.zeros(n_groups + 1, dtype=np.intp)
    np.cumsum(k_used, out=neg_start[1:])
    slot = neg_start[top_neg_codes] + rank[top_neg]
    sorted_scores = np.empty(top_neg.shape[0], dtype=np.float64)
    sorted_scores[slot] = top_neg_scores
    # sums of differences to the group's highest negative, each group apart:
    # a hinge's value then does not round with the scores' size, nor with
    # the other groups' scores
    neg_ref = np.zeros(n_groups, dtype=np.float64)
    neg_ref[top_neg_codes[rank[top_neg] == 0]] = top_neg_scores[rank[top_neg] == 0]
    with np.errstate(over="ignore"):  # -inf: see _hinge_sums
        neg_prefix = segment_cumsum(sorted_scores - neg_ref[np.repeat(
            np.arange(n_groups), k_used)], neg_start)
    return _Context(
        y_pos=y_pos, scores=scores, codes=codes, n_groups=n_groups,
        rank=rank, n_pos=n_pos, n_neg=n_neg, beta=beta, k_neg=k_neg,
        defined=defined, n_defined=int(np.count_nonzero(defined)),
        top_neg=top_neg, top_neg_codes=top_neg_codes,
        top_neg_scores=top_neg_scores, top_neg_slot=slot, neg_start=neg_start,
        neg_ref=neg_ref, neg_prefix=neg_prefix, k=k,
    )


def _first_sums(prefix, starts, n_first):
    """Sums of the first ``n_first`` values of groups whose own inclusive
    prefix sums (:func:`segment_cumsum`) start at ``starts``."""
    last = np.maximum(starts + n_first - 1, 0)
    return np.where(n_first > 0, prefix[np.minimum(last, prefix.shape[0] - 1)],
                    0.0) if prefix.shape[0] else np.zeros(np.shape(n_first))


def _hinge_sums(ctx, group_codes, n_first, below):
    """``sum_{j < n_first} (N_j - below)`` over each group's highest
    negatives, as ``sum_j (N_j - N_0) + n_first (N_0 - below)`` with its
    highest one ``N_0``; ``below`` is ``P_i - m_i`` given as ``(P_i - N_0,
    m_i)`` differences: ``n_first (m_i - (P_i - N_0))``, 0 without an
    active pair (where ``P_i - N_0`` may have overflowed: an active pair
    has ``P_i - N_0 <= m_i``)."""
    gap, margin = below
    with np.errstate(over="ignore", invalid="ignore"):  # no pair: P - N_0 may
        shift = np.where(n_first > 0, n_first * (margin - gap), 0.0)  # overflow
        sums = _first_sums(ctx.neg_prefix, ctx.neg_start[group_codes], n_first)
        sums = sums + shift
    # -inf + inf: an N_j - N_0 below -1.8e308 of an active pair puts the
    # pair (P_i, N_0) past it, so the sum of these hinges (none negative)
    # overflows: inf
    sums[np.isnan(sums)] = np.inf
    return sums


class BaseSurrogate:
    """Base class of the pAp@k surrogates.

    Subclasses implement ``_group_terms``, which returns, for the groups
    at the current scores, the sum of each defined group's surrogate and the
    per-row subgradient coefficients of those sums. The public methods divide
    by the number of defined groups (groups with at least one positive and
    one negative); the other groups are left out.

    See Also
    --------
    surrogate_loss : The surrogates by name, on validated labels and groups.
    SmoothPairwiseSurrogate : The base class of the differentiable ones.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import MaxSurrogate
    >>> y_pos = np.array([True, True, False, False])   # one user, k = 1
    >>> scores = np.array([2.0, 0.0, 1.0, -1.0])
    >>> codes = np.zeros(4, dtype=np.intp)
    >>> loss = MaxSurrogate()
    >>> value, coef, n_used = loss.loss_gradient(y_pos, scores, codes, 1, k=1)
    >>> value, coef
    (2.0, array([ 0., -1.,  1.,  0.]))
    """

    #: name of the surrogate in :data:`SURROGATES`
    name = None
    #: whether the surrogate is convex in ``w``
    convex = True
    #: whether the surrogate is differentiable (a Hessian exists)
    smooth = False
    #: names of the constructor's hyper-parameters
    hyperparameters = ()

    def loss_gradient(self, y_pos, scores, codes, n_groups, k, *,
                      check_input=True):
        """Mean surrogate over defined groups and its subgradient coefficients.

        Parameters
        ----------
        y_pos : ndarray of bool of shape (n_samples,)
            True for relevant rows.
        scores : ndarray of float of shape (n_samples,)
            Finite scores ``X @ w``.
        codes : ndarray of int of shape (n_samples,)
            Group code of every row, in ``[0, n_groups)``.
        n_groups : int
            Number of groups.
        k : int
            Number of items shown to each user.
        check_input : bool, default=True
            Whether to check the arguments (``O(n)``); the estimators, whose
            data are checked once per fit, pass False. Do not pass False
            unless the arguments are as described above.

        Returns
        -------
        value : float
            Mean over defined groups of the group surrogate (0 when no group
            is defined).
        coef : ndarray of float64 of shape (n_samples,)
            ``X.T @ coef`` is a subgradient of ``value`` at ``w``.
        n_groups_used : int
            Number of defined groups.
        """
        total, coef, weight, n_used = self.loss_gradient_sums(
            y_pos, scores, codes, n_groups, k, check_input=check_input)
        if n_used == 0:
            return 0.0, coef, 0
        coef /= weight
        return float(total) / weight, coef, n_used

    def loss_gradient_sums(self, y_pos, scores, codes, n_groups, k, *,
                           check_input=True):
        """The sums behind :meth:`loss_gradient`, before the mean over groups.

        ``value = total / weight`` and ``coef = coef_sum / weight``. A sum over
        several parts of the groups (each part holding whole groups) adds
        up, which lets workers evaluate their own groups (distributed fits).

        Parameters
        ----------
        y_pos : ndarray of bool of shape (n_samples,)
            True for relevant rows.
        scores : ndarray of float of shape (n_samples,)
            Finite scores ``X @ w``.
        codes : ndarray of int of shape (n_samples,)
            Group code of every row, in ``[0, n_groups)``.
        n_groups : int
            Number of groups.
        k : int
            Number of items shown to each user.
        check_input : bool, default=True
            Whether to check the arguments (``O(n)``); the estimators, whose
            data are checked once per fit, pass False. Do not pass False
            unless the arguments are as described above.

        Returns
        -------
        total : float
            Sum of the defined groups' surrogates (weighted by their group
            weights, 1 here).
        coef_sum : ndarray of float64 of shape (n_samples,)
            Its (sub)gradient coefficients.
        weight : float
            Sum of the defined groups' weights (their number here).
        n_groups_used : int
            Number of defined groups.
        """
        if check_input:
            y_pos, codes, n_groups, _ = check_layout_inputs(
                y_pos, codes, n_groups, None)
            scores = check_scores(scores, y_pos.shape[0])
            k = check_k(k)
        scores = np.asarray(scores, dtype=np.float64)
        ctx = _make_context(y_pos, scores, codes, n_groups, k)
        coef = np.zeros(scores.shape[0], dtype=np.float64)
        if ctx.n_defined == 0:
            return 0.0, coef, 0.0, 0
        total = self._group_terms(ctx, coef)
        return float(total), coef, float(ctx.n_defined), ctx.n_defined

    def loss(self, y_pos, scores, codes, n_groups, k, **kwargs):
        """Mean surrogate over defined groups (the value of :meth:`loss_gradient`).

        Parameters
        ----------
        y_pos : ndarray of bool of shape (n_samples,)
            True for relevant rows.
        scores : ndarray of float of shape (n_samples,)
            Finite scores ``X @ w``.
        codes : ndarray of int of shape (n_samples,)
            Group code of every row, in ``[0, n_groups)``.
        n_groups : int
            Number of groups.
        k : int
            Number of items shown to each user.
        **kwargs : dict
            The keyword arguments of :meth:`loss_gradient`: ``check_input``
            for the piecewise linear surrogates; ``sample_weight``,
            ``layout`` and ``n_threads`` for the smooth ones.

        Returns
        -------
        value : float
            Mean over defined groups of the group surrogate (0 when no group
            is defined).
        """
        return self.loss_gradient(y_pos, scores, codes, n_groups, k, **kwargs)[0]

    def _group_terms(self, ctx, coef):  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self):
        params = ", ".join(f"{name}={getattr(self, name)!r}"
                           for name in self.hyperparameters)
        return f"{type(self).__name__}({params})"


class PairwiseHingeSurrogate(BaseSurrogate):
    """Sum of pairwise hinges between some positives and the top-k' negatives.

    The group surrogate is
    ``(1 / norm) * sum_{i in I} sum_{j <= k'} h(m_i - (P_i - N_j))``
    where the positives ``I``, their margins ``m_i`` and the normaliser
    ``norm`` are given by the subclass. For positive ``i`` the active
    negatives are the ``a_i`` highest ones with ``N_j >= P_i - m_i``; for
    negative ``j``, ``b_j`` positives are active. The subgradient
    coefficients are ``-a_i / norm`` and ``+b_j / norm``.

    See Also
    --------
    MaxSurrogate, RampSurrogate, TightStructSurrogate, PAUCSurrogate : The
        subclasses.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import MaxSurrogate
    >>> y_pos = np.array([True, True, False, False])   # one user, k = 1
    >>> scores = np.array([2.0, 0.0, 1.0, -1.0])
    >>> codes = np.zeros(4, dtype=np.intp)
    >>> loss = MaxSurrogate()
    >>> value, coef, n_used = loss.loss_gradient(y_pos, scores, codes, 1, k=1)
    >>> value, coef
    (2.0, array([ 0., -1.,  1.,  0.]))
    """

    def _positives(self, ctx):
        """Boolean mask of the positives taking part (defined groups only)."""
        raise NotImplementedError

    def _margins(self, ctx, rows):
        """Margin ``m_i`` of each taking-part positive ``rows``."""
        return np.ones(rows.shape[0], dtype=np.float64)

    def _normaliser(self, ctx):
        """Per-group normaliser, ``beta * k'`` by default."""
        return (ctx.beta * ctx.k_neg).astype(np.float64)

    def _group_terms(self, ctx, coef):
        rows = np.flatnonzero(self._positives(ctx) & ctx.defined[ctx.codes])
        pos_codes = ctx.codes[rows]
        margins = self._margins(ctx, rows)
        threshold = ctx.scores[rows] - margins
        # a_i: top negatives of the group with N_j >= P_i - m_i (a prefix of
        # the group's top negatives in decreasing score order).
        n_active = count_at_least(ctx.top_neg_codes, ctx.top_neg_scores,
                                  pos_codes, threshold, ctx.n_groups)
        with np.errstate(over="ignore"):  # inf: no active pair (see below)
            gap = ctx.scores[rows] - ctx.neg_ref[pos_codes]
        hinge_sums = _hinge_sums(ctx, pos_codes, n_active, (gap, margins))
        norm = self._normaliser(ctx)
        inv_norm = np.zeros(ctx.n_groups, dtype=np.float64)
        np.divide(1.0, norm, out=inv_norm, where=ctx.defined)
        with np.errstate(over="ignore"):  # scores near 1e308: inf
            total = np.dot(hinge_sums, inv_norm[pos_codes])
        coef[rows] = -n_active * inv_norm[pos_codes]
        # b_j: positives whose active prefix reaches past negative j, i.e.
        # #{i : a_i > rank_j}: a histogram of a_i in the slot layout, summed
        # from the end of each group's slots.
        hist = np.bincount(ctx.neg_start[pos_codes] + np.maximum(n_active - 1, 0),
                           weights=n_active > 0,
                           minlength=ctx.neg_prefix.shape[0] + 1)
        from_end = np.cumsum(hist[::-1])[::-1]
        group_end = ctx.neg_start[1:][ctx.top_neg_codes]
        n_active_pos = from_end[ctx.top_neg_slot] - from_end[group_end]
        coef[ctx.top_neg] = n_active_pos * inv_norm[ctx.top_neg_codes]
        return total


class MaxSurrogate(PairwiseHingeSurrogate):
    """Max surrogate (equation 24 of the paper): the bottom-beta positives.

    ``(1 / (beta k')) * sum_{i in bottom beta} sum_{j <= k'} h(1 - (P_i - N_j))``.
    Convex; an upper bound of avg, ramp and the pAp@k risk; zero under the
    strong beta-margin condition (Def. 5, Prop. 6).

    See Also
    --------
    skpapk.PApKMaxRanker : The linear ranker trained on it.
    RampSurrogate : The top-beta positives instead.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import MaxSurrogate
    >>> y_pos = np.array([True, True, False, False])   # one user, k = 1
    >>> scores = np.array([2.0, 0.0, 1.0, -1.0])
    >>> codes = np.zeros(4, dtype=np.intp)
    >>> loss = MaxSurrogate()
    >>> value, coef, n_used = loss.loss_gradient(y_pos, scores, codes, 1, k=1)
    >>> value, coef
    (2.0, array([ 0., -1.,  1.,  0.]))
    """

    name = "max"

    def _positives(self, ctx):
        bottom = ctx.rank >= (ctx.n_pos - ctx.beta)[ctx.codes]
        return ctx.y_pos & bottom


class RampSurrogate(PairwiseHingeSurrogate):
    """Ramp surrogate (the paper's equation 6): the top-beta positives.

    ``(1 / (beta k')) * sum_{i in top beta} sum_{j <= k'} h(1 - (P_i - N_j))``.
    Non-convex when ``n+ > k`` (Prop. 2); an upper bound of the pAp@k risk;
    zero under the weak beta-margin condition (Def. 2, Prop. 1).

    See Also
    --------
    skpapk.PApKRampRanker : The linear ranker trained on it.
    MaxSurrogate : The bottom-beta positives instead (convex).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import RampSurrogate
    >>> y_pos = np.array([True, True, False, False])   # one user, k = 1
    >>> scores = np.array([2.0, 0.0, 1.0, -1.0])
    >>> codes = np.zeros(4, dtype=np.intp)
    >>> loss = RampSurrogate()
    >>> value, coef, n_used = loss.loss_gradient(y_pos, scores, codes, 1, k=1)
    >>> value, coef
    (0.0, array([-1.,  0.,  1.,  0.]))
    """

    name = "ramp"
    convex = False

    def _positives(self, ctx):
        return ctx.y_pos & (ctx.rank < ctx.beta[ctx.codes])


class TightStructSurrogate(PairwiseHingeSurrogate):
    """Tight-struct (TS) surrogate, as Algorithm 2 computes it (App. eq. 27).

    ``(1 / (beta k')) * sum_{all i} sum_{j <= k'} h(m_i - (P_i - N_j))`` with
    ``m_i = 1`` for the top-beta positives and 0 for the others: the form
    that Algorithm 2, lines 10-12, optimises (and the authors' code). An
    upper bound of ramp and the pAp@k risk; zero under the moderate
    beta-margin condition (Def. 4, Prop. 4).

    It is not the paper's eq. 14 (or eq. 22), but an upper bound of it. The
    paper's App. D.3 maximises eq. 22 pair by pair, which gives this form,
    and states that the maximiser is a valid ordering matrix; it need not
    be. With one group, ``k = 1``, positive scores 2.5 and 2.0 and a
    negative at 1.6, it puts the negative above the first positive only
    (which eq. 21 forbids) and scores 0.1, where eq. 14 and 22 are 0.

    Eq. 14 is convex in ``w`` (a max of affine functions); this closed form
    is *not*, contrary to Section 4.3: the top-beta set moves with ``w``.
    Counterexample: one group, ``k = 1``, positives with features ``(2, 0)``
    and ``(1, -2)``, one negative ``(1, -1)``; the surrogate is 0 at
    ``w = (1, 0)`` and at ``w = (1, -1)`` but 1/2 at their midpoint.

    See Also
    --------
    skpapk.PApKTSRanker : The linear ranker trained on it.
    RampSurrogate : The top-beta positives only.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import TightStructSurrogate
    >>> y_pos = np.array([True, True, False, False])   # one user, k = 1
    >>> scores = np.array([2.0, 0.0, 1.0, -1.0])
    >>> codes = np.zeros(4, dtype=np.intp)
    >>> loss = TightStructSurrogate()
    >>> value, coef, n_used = loss.loss_gradient(y_pos, scores, codes, 1, k=1)
    >>> value, coef
    (1.0, array([-1., -1.,  2.,  0.]))
    """

    name = "ts"
    convex = False

    def _positives(self, ctx):
        return ctx.y_pos

    def _margins(self, ctx, rows):
        return (ctx.rank[rows] < ctx.beta[ctx.codes[rows]]).astype(np.float64)


class PAUCSurrogate(PairwiseHingeSurrogate):
    """Structural SVM surrogate of pAUC(0, k/n-] (Narasimhan & Agarwal, 2017).

    ``(1 / (n+ k')) * sum_{all i} sum_{j <= k'} h(1 - (P_i - N_j))``: the
    SVM-pAUC baseline of the paper (Section 7.3.2).

    See Also
    --------
    skpapk.PAUCRanker : The linear ranker trained on it.
    skpapk.metrics.partial_auc_score : The pAUC(0, k/n-] metric.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import PAUCSurrogate
    >>> y_pos = np.array([True, True, False, False])   # one user, k = 1
    >>> scores = np.array([2.0, 0.0, 1.0, -1.0])
    >>> codes = np.zeros(4, dtype=np.intp)
    >>> loss = PAUCSurrogate()
    >>> value, coef, n_used = loss.loss_gradient(y_pos, scores, codes, 1, k=1)
    >>> value, coef
    (1.0, array([-0.5, -0.5,  1. ,  0. ]))
    """

    name = "pauc"

    def _positives(self, ctx):
        return ctx.y_pos

    def _normaliser(self, ctx):
        return (ctx.n_pos * ctx.k_neg).astype(np.float64)


class AvgSurrogate(BaseSurrogate):
    """Average surrogate (the paper's equation 10).

    ``(1 / k') * sum_{j <= k'} h(1 + N_j - mean(P))``: every top negative
    against the mean score of all the positives. Its subgradient gives
    ``1 / k'`` to each active negative and ``-A / (k' n+)`` to every positive,
    ``A`` being the number of active negatives (Algorithm 2, lines 3-4).

    Convex and zero under the beta-margin condition (Def. 3). Contrary to
    Proposition 3 of the paper it is *not* an upper bound of the pAp@k risk:
    with one group, ``k = 2``, positive scores ``(10, -1)`` and negative
    scores ``(0, -5)`` the risk is 1/4 and the surrogate is 0.

    See Also
    --------
    skpapk.PApKAvgRanker : The linear ranker trained on it.
    MaxSurrogate : An upper bound of the pAp@k risk.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import AvgSurrogate
    >>> y_pos = np.array([True, True, False, False])   # one user, k = 1
    >>> scores = np.array([2.0, 0.0, 1.0, -1.0])
    >>> codes = np.zeros(4, dtype=np.intp)
    >>> loss = AvgSurrogate()
    >>> value, coef, n_used = loss.loss_gradient(y_pos, scores, codes, 1, k=1)
    >>> value, coef
    (1.0, array([-0.5, -0.5,  1. ,  0. ]))
    """

    name = "avg"

    def _group_terms(self, ctx, coef):
        n_groups = ctx.n_groups
        # the positives' mean as a difference to the group's highest negative
        with np.errstate(over="ignore"):  # inf: no active pair
            pos_sum = np.bincount(ctx.codes, weights=np.where(
                ctx.y_pos, ctx.scores - ctx.neg_ref[ctx.codes], 0.0),
                minlength=n_groups)
        groups = np.flatnonzero(ctx.defined)
        gap = pos_sum[groups] / ctx.n_pos[groups]
        threshold = ctx.neg_ref[groups] + gap - 1.0
        n_active = count_at_least(ctx.top_neg_codes, ctx.top_neg_scores,
                                  groups, threshold, n_groups)
        k_neg = ctx.k_neg[groups].astype(np.float64)
        total = np.sum(_hinge_sums(ctx, groups, n_active, (gap, 1.0)) / k_neg)
        active_per_group = np.zeros(n_groups, dtype=np.float64)
        active_per_group[groups] = n_active
        inv_k = np.zeros(n_groups, dtype=np.float64)
        inv_k[groups] = 1.0 / k_neg
        neg_rank = ctx.rank[ctx.top_neg]
        coef[ctx.top_neg] = np.where(
            neg_rank < active_per_group[ctx.top_neg_codes],
            inv_k[ctx.top_neg_codes], 0.0)
        pos_rows = np.flatnonzero(ctx.y_pos & ctx.defined[ctx.codes])
        pos_codes = ctx.codes[pos_rows]
        coef[pos_rows] = (0.0 - active_per_group[pos_codes] * inv_k[pos_codes]
                          / ctx.n_pos[pos_codes])
        return total
