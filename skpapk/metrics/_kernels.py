"""The metric kernels: per-group computations on inputs already checked.

Every function here takes ``y_pos`` (ndarray of bool), ``y_score`` (finite
float64), ``codes`` (intp group codes in ``[0, n_groups)``) and an integer
``k >= 1``, as :func:`skpapk.metrics._common._validate` returns them, and
gives one value per group: no validation, no warning, no averaging policy.
Those that sort take ``by_score``, the rows by decreasing score
(:func:`~skpapk.utils._groups.descending_order` with ``stable=False``),
so that several metrics of the same scores sort them once.
The public metrics (:mod:`~skpapk.metrics._ranking`,
:mod:`~skpapk.metrics._topk`, :mod:`~skpapk.metrics._random`) validate,
call these and average; :func:`~skpapk.metrics.ranking_report` shares one
order of the rows among several of them.
This module imports only numpy and :mod:`scipy.special` (no scikit-learn,
no :mod:`scipy.stats`), so that scoring a file does not pay for them.

Everything is vectorised over the groups: one score sort and one radix sort
of the group codes, then O(n) work; no Python loop over groups and no
(relevant x irrelevant) pair matrix. The one exception: under
``ties="random"``, a tie block that straddles a group's top ``k`` adds up
to about ``k**2 / 4`` terms, summed in chunks of bounded memory
(:func:`~skpapk.metrics._ties.expected_correct_pairs`).
"""

from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from ..utils._groups import (
    label_segments,
    order_by_segment,
    ragged_range,
    segment_starts,
)
from ._ties import chunks, expected_correct_pairs


def group_ratios(numerator, denominator, defined):
    """Every group's ``numerator / denominator``, NaN where not ``defined``.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.metrics._kernels import group_ratios
    >>> group_ratios(np.array([1.0, 0.0]), np.array([4.0, 0.0]),
    ...              np.array([True, False]))
    array([0.25,  nan])
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        per_group = numerator / np.where(defined, denominator, 1)
    return np.where(defined, per_group, np.nan)


def micro_average(per_group, defined):
    """Mean of ``per_group`` over the ``defined`` groups (paper's eq. 17).

    Returns NaN when no group is defined.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.metrics._kernels import micro_average
    >>> micro_average(np.array([0.5, np.nan, 1.0]), np.array([True, False, True]))
    0.75
    """
    if not defined.any():
        return float("nan")
    return float(per_group[defined].mean())


def label_counts(y_pos, codes, n_groups):
    """Relevant and irrelevant rows of each group, and every row's segment
    (:func:`~skpapk.utils._groups.label_segments`).

    Returns
    -------
    n_pos, n_neg : ndarray of intp of shape (n_groups,)
    segments : ndarray of unsigned int of shape (n,)
    """
    segments = label_segments(y_pos, codes, n_groups)
    counts = np.bincount(segments, minlength=2 * n_groups)
    return counts[0::2], counts[1::2], segments


@dataclass
class TieBlocks:
    """Every group's rows in decreasing score order, cut into tie blocks.

    A tie block is a maximal run of rows of one group with equal scores.
    Row arrays are in sorted order (group, then decreasing score; the order
    inside a block is arbitrary); block arrays have one entry per block.

    Attributes
    ----------
    order : ndarray of intp of shape (n,)
        Original row index of every sorted row.
    codes, pos : ndarray of shape (n,)
        Group code and relevance of every sorted row.
    block : ndarray of intp of shape (n,)
        Block of every sorted row.
    start : ndarray of intp of shape (n_blocks,)
        Sorted-row index of every block's first row.
    position : ndarray of intp of shape (n,)
        0-based place of every sorted row in its group.
    group : ndarray of intp of shape (n_blocks,)
        Group code of every block.
    gt_items, gt_pos : ndarray of intp of shape (n_blocks,)
        Rows / relevant rows of the block's group scoring strictly higher.
    size, n_pos : ndarray of intp of shape (n_blocks,)
        Rows / relevant rows in the block.
    """

    order: np.ndarray
    codes: np.ndarray
    pos: np.ndarray
    block: np.ndarray
    start: np.ndarray
    position: np.ndarray
    group: np.ndarray
    gt_items: np.ndarray
    gt_pos: np.ndarray
    size: np.ndarray
    n_pos: np.ndarray

    @property
    def gt_neg(self):
        return self.gt_items - self.gt_pos

    @property
    def n_neg(self):
        return self.size - self.n_pos


def tie_blocks(y_pos, y_score, codes, n_groups, by_score=None):
    """Cut every group's score-sorted rows into tie blocks.

    One score sort and one radix sort of the group codes; everything else is
    O(n).

    Returns
    -------
    blocks : TieBlocks
    """
    by_score, by_segment = order_by_segment(y_score, codes, n_groups,
                                            stable=False, by_score=by_score)
    order = by_score[by_segment]
    codes_s = codes[order]
    pos_s = y_pos[order]
    score_s = y_score[order]
    n = order.shape[0]
    new_block = np.empty(n, dtype=bool)
    new_block[:1] = True
    np.not_equal(score_s[1:], score_s[:-1], out=new_block[1:])
    new_block[1:] |= codes_s[1:] != codes_s[:-1]
    block_start = np.flatnonzero(new_block)
    size = np.diff(np.append(block_start, n))
    cum_pos = np.zeros(n + 1, dtype=np.intp)
    np.cumsum(pos_s, out=cum_pos[1:])
    group = codes_s[block_start].astype(np.intp)
    group_start = segment_starts(np.bincount(codes, minlength=n_groups))
    first = group_start[group]
    return TieBlocks(
        order=order, codes=codes_s, pos=pos_s,
        block=np.cumsum(new_block) - 1,
        start=block_start,
        position=np.arange(n, dtype=np.intp) - group_start[codes_s],
        group=group,
        gt_items=block_start - first,
        gt_pos=cum_pos[block_start] - cum_pos[first],
        size=size,
        n_pos=cum_pos[block_start + size] - cum_pos[block_start],
    )


def pair_gains(y_pos, y_score, codes, n_groups, *, n_top_pos, n_top_neg, ties,
                n_pos=None, n_neg=None, segments=None, by_score=None,
                by_segment=None):
    """Correctly ranked (positive, negative) pairs of each group.

    The pairs are the ``n_top_pos[g]`` highest scored positives of group ``g``
    against its ``n_top_neg[g]`` highest scored negatives. A tied pair counts
    1/2 with ``ties="half"`` and 0 with ``ties="error"``; ``ties="random"``
    gives the expected count over random orders of the tied items
    (:func:`random_pair_gains`, only for the groups where a tie touches the
    top sets and they are not the whole group).

    One score sort and one radix sort of the (group, label) codes order every
    group's positives and negatives; the top ones are read off by position.
    Their values are replaced by dense ranks so that ``(group, rank)`` is one
    integer key: the top negatives' keys come out sorted, and
    ``searchsorted`` gives, for every top positive, the number of its group's
    top negatives that score ``>=`` (and ``>``) it. No pair is formed.
    ``by_score`` and ``by_segment``: :func:`order_by_segment` of the
    (group, label) segments, when already computed.

    Returns
    -------
    correct : ndarray of float of shape (n_groups,)
        Number of correctly ordered pairs (ties included as said).
    n_pairs : ndarray of float of shape (n_groups,)
    """
    n_top_pos = np.asarray(n_top_pos, dtype=np.intp)
    n_top_neg = np.asarray(n_top_neg, dtype=np.intp)
    n_pairs = (n_top_pos * n_top_neg).astype(np.float64)
    if n_pos is None or n_neg is None or segments is None:
        n_pos, n_neg, segments = label_counts(y_pos, codes, n_groups)
    if by_score is None or by_segment is None:
        by_score, by_segment = order_by_segment(
            y_score, segments, 2 * n_groups, stable=False, by_score=by_score)
    counts = np.empty(2 * n_groups, dtype=np.intp)
    counts[0::2], counts[1::2] = n_pos, n_neg
    starts = segment_starts(counts)
    top_pos = by_score[by_segment[ragged_range(n_top_pos, starts[0::2])[1]]]
    top_neg = by_score[by_segment[ragged_range(n_top_neg, starts[1::2])[1]]]
    if top_pos.shape[0] == 0 or top_neg.shape[0] == 0:
        return np.zeros(n_groups), n_pairs
    # Dense rank (0 = highest) of the selected values; equal values, equal rank.
    values = np.concatenate([y_score[top_pos], y_score[top_neg]])
    by_value = np.argsort(-values)
    sorted_values = values[by_value]
    dense = np.empty(values.shape[0], dtype=np.int64)
    steps = np.zeros(values.shape[0], dtype=np.int64)
    np.cumsum(sorted_values[1:] != sorted_values[:-1], out=steps[1:])
    dense[by_value] = steps
    width = np.int64(steps[-1] + 1)
    pos_codes = np.repeat(np.arange(n_groups, dtype=np.int64), n_top_pos)
    neg_codes = np.repeat(np.arange(n_groups, dtype=np.int64), n_top_neg)
    pos_keys = pos_codes * width + dense[:top_pos.shape[0]]
    neg_keys = neg_codes * width + dense[top_pos.shape[0]:]  # non-decreasing
    neg_before = (np.cumsum(n_top_neg) - n_top_neg)[pos_codes]
    # Top negatives of the positive's group scoring >= it: errors.
    wrong = np.searchsorted(neg_keys, pos_keys, side="right") - neg_before
    tied = None
    if ties != "error" and width < values.shape[0]:  # some values are equal
        above = np.searchsorted(neg_keys, pos_keys, side="left") - neg_before
        tied = wrong != above
        wrong = 0.5 * (wrong + above)
    correct = n_pairs - np.bincount(pos_codes, weights=wrong, minlength=n_groups)
    if ties == "random" and tied is not None:
        # "half" is exact when the top sets are the whole group (every tied
        # pair is then counted, each order with probability 1/2).
        redo = np.bincount(pos_codes[tied], minlength=n_groups) > 0
        redo &= (n_top_pos < n_pos) | (n_top_neg < n_neg)
        if redo.any():
            # Rows below a group's k'-th top negative change nothing (their
            # blocks hold no top negative): keep the rest of the redo groups.
            threshold = np.full(n_groups, np.inf, dtype=y_score.dtype)
            threshold[redo] = y_score[top_neg[(np.cumsum(n_top_neg) - 1)[redo]]]
            rows = y_score >= threshold[codes]
            correct[redo] = random_pair_gains(
                y_pos[rows], y_score[rows], codes[rows], n_groups,
                n_top_pos=n_top_pos, n_top_neg=n_top_neg)[redo]
    return correct, n_pairs


def random_pair_gains(y_pos, y_score, codes, n_groups, *, n_top_pos,
                       n_top_neg):
    """Expected correct pairs of each group over random orders of the ties.

    In a strict ranking, the ``a``-th relevant item is above
    ``k' - min(m_a, k')`` of the top ``k'`` irrelevant items, ``m_a`` being
    the number of irrelevant items above it. The ``a``-th relevant item lies
    in a known tie block (the blocks are ordered), ``m_a`` is the block's
    irrelevant items above plus a negative hypergeometric count inside the
    block, and :func:`~skpapk.metrics._ties.expected_correct_pairs` sums the
    expectation over the block's first ``rho`` relevant items.
    """
    blocks = tie_blocks(y_pos, y_score, codes, n_groups)
    c = n_top_neg[blocks.group] - blocks.gt_neg
    rho = np.clip(n_top_pos[blocks.group] - blocks.gt_pos, 0, blocks.n_pos)
    active = (c > 0) & (rho > 0)
    correct = expected_correct_pairs(c[active], blocks.n_pos[active],
                                     blocks.n_neg[active], rho[active])
    return np.bincount(blocks.group[active], weights=correct,
                       minlength=n_groups)


def top_k_hits(y_pos, y_score, codes, n_groups, k, ties="random",
               by_score=None):
    """Relevant items among the ``k`` first of each group (expected with ties).

    A group of ``k`` rows or fewer has all of them in its top ``k``. In a
    longer one, the rows above its ``k``-th score ``t`` are in and the rows
    below are out; the ``slots`` left go to its rows scoring exactly ``t``.
    ``"random"`` (and ``"half"``, the same rule): each of them enters with
    probability ``slots / tied rows``; ``"error"``: the irrelevant ones take
    the slots first. One sort; no tie blocks are built.
    """
    y_pos = y_pos.astype(bool, copy=False)
    size = np.bincount(codes, minlength=n_groups)
    hits = np.bincount(codes, weights=y_pos, minlength=n_groups)
    cut = np.flatnonzero(size > k)  # the other groups: all rows are in
    if cut.size == 0:
        return hits
    by_score, by_segment = order_by_segment(y_score, codes, n_groups,
                                            stable=False, by_score=by_score)
    threshold = np.full(n_groups, -np.inf, dtype=y_score.dtype)  # exact cuts
    threshold[cut] = y_score[by_score[by_segment[
        segment_starts(size)[cut] + (k - 1)]]]
    row_threshold = threshold[codes]
    above = y_score > row_threshold
    tied = y_score == row_threshold  # only in the cut groups: scores are finite
    n_above = np.bincount(codes[above], minlength=n_groups)
    pos_above = np.bincount(codes[above & y_pos], minlength=n_groups)
    n_tied = np.bincount(codes[tied], minlength=n_groups)
    pos_tied = np.bincount(codes[tied & y_pos], minlength=n_groups)
    slots, n_tied, pos_tied = k - n_above[cut], n_tied[cut], pos_tied[cut]
    if ties == "error":
        from_tied = np.clip(slots - (n_tied - pos_tied), 0, None)
    else:
        from_tied = pos_tied * (slots / n_tied)
    hits[cut] = pos_above[cut] + from_tied
    return hits


def papk_gains(y_pos, y_score, codes, n_groups, k, ties="random", counts=None,
               by_score=None, by_segment=None):
    """Correct pairs and pairs of pAp@k in every group (paper's eq. 1).

    The ``min(n+, k)`` highest scored relevant rows against the ``min(n-,
    k)`` highest scored irrelevant rows; :func:`~skpapk.metrics.papk_score`
    is ``correct / n_pairs`` averaged over the groups with ``n_pairs > 0``.

    Parameters
    ----------
    y_pos, y_score, codes, n_groups, k, ties
        See the module docstring; ``ties`` is one of ``"random"``,
        ``"half"``, ``"error"``.
    counts : tuple or None
        ``label_counts(y_pos, codes, n_groups)``, when already computed.
    by_score, by_segment : ndarray of intp or None
        The rows by decreasing score, and that order by (group, label)
        segment (:func:`~skpapk.utils._groups.order_by_segment`), when
        already computed.

    Returns
    -------
    correct, n_pairs : ndarray of float of shape (n_groups,)

    Examples
    --------
    The paper's Table 1, scorer f1 (pAp@2 = 2/4):

    >>> import numpy as np
    >>> from skpapk.metrics._kernels import papk_gains
    >>> y = np.array([0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0], dtype=bool)
    >>> papk_gains(y, np.arange(11.0, 0.0, -1.0), np.zeros(11, np.intp), 1, 2)
    (array([2.]), array([4.]))
    """
    n_pos, n_neg, segments = (label_counts(y_pos, codes, n_groups)
                              if counts is None else counts)
    return pair_gains(y_pos, y_score, codes, n_groups,
                      n_top_pos=np.minimum(n_pos, k),
                      n_top_neg=np.minimum(n_neg, k), ties=ties,
                      n_pos=n_pos, n_neg=n_neg, segments=segments,
                      by_score=by_score, by_segment=by_segment)


def partial_auc_gains(y_pos, y_score, codes, n_groups, k, ties="random",
                      counts=None, by_score=None, by_segment=None):
    """Correct pairs and pairs of pAUC(0, k/n-] in every group.

    Every relevant row against the ``min(n-, k)`` highest scored irrelevant
    rows (:func:`~skpapk.metrics.partial_auc_score`); arguments and returns
    as :func:`papk_gains`.
    """
    n_pos, n_neg, segments = (label_counts(y_pos, codes, n_groups)
                              if counts is None else counts)
    return pair_gains(y_pos, y_score, codes, n_groups, n_top_pos=n_pos,
                      n_top_neg=np.minimum(n_neg, k), ties=ties,
                      n_pos=n_pos, n_neg=n_neg, segments=segments,
                      by_score=by_score, by_segment=by_segment)


def expected_papk_gain(n_pos, n_neg, k):
    """Exact expected pAp@k of groups under a uniformly random ranking.

    With ``beta = min(k, n+)`` and ``k' = min(k, n-)``, the ``i``-th
    relevant item is above the ``j``-th irrelevant one exactly when at least
    ``i`` of the first ``i + j - 1`` items are relevant, a hypergeometric
    event ``H``, so

    ``E = (1/(beta k')) sum_{i<=beta} sum_{j<=k'} P[H(n+ + n-, n+, i + j - 1) >= i]``.

    When ``n+ <= k`` every relevant item counts and pAp@k is pAUC(0, k/n-],
    whose expectation is :func:`expected_partial_auc_gain`. Otherwise the
    double sum is computed once per distinct ``(n+, n-)`` pair: for every
    number of draws
    ``d = i + j - 1`` the hypergeometric probabilities of every possible
    number of relevant items, summed from the top (``P[H >= i]`` without
    cancellation, exact for tiny tails), in one array per distinct ``beta``
    (at most ``k`` of them), ``O(k^2)`` terms per pair.

    Parameters
    ----------
    n_pos, n_neg : ndarray of int of shape (n_groups,)
        Relevant and irrelevant items of every group.
    k : int

    Returns
    -------
    gain : ndarray of float of shape (n_groups,)
        NaN where ``n+`` or ``n-`` is 0 (pAp@k is undefined).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.metrics._kernels import expected_papk_gain
    >>> expected_papk_gain(np.array([1, 2, 0]), np.array([1, 3, 4]), 2)
    array([0.5  , 0.375,   nan])
    """
    n_pos = np.asarray(n_pos, dtype=np.int64).reshape(-1)
    n_neg = np.asarray(n_neg, dtype=np.int64).reshape(-1)
    gain = np.full(n_pos.shape[0], np.nan)
    defined = (n_pos > 0) & (n_neg > 0)
    if not defined.any():
        return gain
    pairs, inverse = np.unique(np.stack([n_pos[defined], n_neg[defined]], axis=1),
                               axis=0, return_inverse=True)
    u_pos, u_neg = pairs[:, 0], pairs[:, 1]
    beta, k_neg = np.minimum(u_pos, k), np.minimum(u_neg, k)
    # n+ <= k: every relevant item counts, pAp@k is pAUC(0, k/n-] (closed form)
    pair_gain = expected_partial_auc_gain(u_pos, u_neg, k)
    tail = np.flatnonzero(u_pos > k)
    u_pos, u_neg, beta, k_neg = u_pos[tail], u_neg[tail], beta[tail], k_neg[tail]
    # columns: m = 0 .. the most relevant items d draws can hold
    n_cols = np.minimum(u_pos, beta + k_neg - 1) + 1
    total = np.zeros(tail.shape[0])
    for width in np.unique(beta):
        same = np.flatnonzero(beta == width)
        # one row per (pair, draws d = 1 .. beta + k' - 1), a few rows at a
        # time: rows x columns of at most MOST_TERMS
        owner, d = ragged_range(width + k_neg[same] - 1)
        for part in chunks(np.full(owner.shape[0], n_cols[same].max())):
            _add_row_sums(total, same, owner[part], d[part], width, u_pos,
                          u_neg, k_neg, n_cols)
    # rounding (log Gamma) may pass 1 by 1e-6 at 10**9 items
    pair_gain[tail] = np.clip(total / (beta * k_neg), 0.0, 1.0)
    gain[defined] = pair_gain[inverse.reshape(-1)]
    return gain


def _add_row_sums(total, same, rows_owner, rows_d, width, u_pos, u_neg, k_neg,
                  n_cols):
    """Add to ``total`` the terms of :func:`expected_papk_gain`'s double
    sums of the rows ``(rows_owner, rows_d)``: pair ``same[rows_owner]``
    (whose ``beta`` is ``width``), ``rows_d + 1`` draws."""
    urns, owner = np.unique(rows_owner, return_inverse=True)
    sel = same[urns]
    d = rows_d[:, None] + 1
    m = np.arange(n_cols[sel].max())[None, :]
    pmf = _hypergeometric_rows(u_pos[sel], u_neg[sel], owner, d, m)
    # upper tails summed from the small end (exact for tiny tails):
    # column i holds P[H_d >= i]
    at_least = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]
    # the (i, j) of the row: 1 <= i <= beta, i <= d, j = d - i + 1 <= k'
    i = m[:, 1:width + 1]
    counted = (i <= d) & (d - i + 1 <= k_neg[sel][owner][:, None])
    row_sums = np.where(counted, at_least[:, 1:width + 1], 0.0).sum(axis=1)
    total[sel] += np.bincount(owner, weights=row_sums, minlength=sel.shape[0])


def _hypergeometric_rows(n_good, n_bad, owner, d, m):
    """``P[m good among d drawn]`` from urns of ``n_good`` good, ``n_bad`` bad.

    Row ``r`` draws ``d[r]`` from urn ``owner[r]``; columns are the counts
    ``m``; 0 outside the support. ``log C(n, x)`` is summed from tables of
    ``log Gamma`` per urn and per small count (``d``, ``m <= 2k``), so
    :func:`scipy.special.gammaln` runs ``O(n_urns k)`` times, not once per
    entry.
    """
    n_max = int(max(d.max(), m.max())) + 1
    small = np.arange(n_max + 1)
    log_fact = gammaln(small + 1.0)

    def log_binom_table(n):  # log C(n[u], x) for x = 0 .. n_max, any n >= 0
        rest = np.maximum(n[:, None] - small[None, :], 0)
        return gammaln(n[:, None] + 1.0) - log_fact[None, :] - gammaln(rest + 1.0)

    good = log_binom_table(n_good)
    bad = log_binom_table(n_bad)
    total = log_binom_table(n_good + n_bad)
    taken_bad = d - m
    support = ((m <= np.minimum(d, n_good[owner][:, None]))
               & (taken_bad <= n_bad[owner][:, None]))
    rows = owner[:, None]
    log_pmf = (good[rows, np.minimum(m, n_max)]
               + bad[rows, np.clip(taken_bad, 0, n_max)]
               - total[rows, d])
    return np.where(support, np.exp(np.where(support, log_pmf, 0.0)), 0.0)


def expected_top_k_hits(n_pos, n_neg, k):
    """Expected relevant items among the ``k`` first under a random ranking.

    A group of ``n`` items, ``n+`` relevant, shows ``min(k, n)`` items, of
    which ``min(k, n) n+ / n`` are relevant on average (0 for an empty
    group); prec@k divides by ``k``.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.metrics._kernels import expected_top_k_hits
    >>> expected_top_k_hits(np.array([1, 3]), np.array([3, 0]), 2)
    array([0.5, 2. ])
    """
    n = n_pos + n_neg
    return np.minimum(k, n) * n_pos / np.maximum(n, 1)


def expected_partial_auc_gain(n_pos, n_neg, k):
    """Exact expected pAUC(0, k/n-] of groups under a random ranking.

    A relevant item lies above the ``j``-th highest irrelevant one with
    probability ``j / (n- + 1)`` (its place among the irrelevant items is
    uniform over ``n- + 1`` slots), so the expected gain is
    ``(k' + 1) / (2 (n- + 1))`` with ``k' = min(k, n-)``; NaN where ``n+``
    or ``n-`` is 0.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.metrics._kernels import expected_partial_auc_gain
    >>> expected_partial_auc_gain(np.array([1, 1, 0]), np.array([2, 9, 3]), 3)
    array([0.5, 0.2, nan])
    """
    gain = (np.minimum(k, n_neg) + 1) / (2.0 * (n_neg + 1))
    return np.where((n_pos > 0) & (n_neg > 0), gain, np.nan)
