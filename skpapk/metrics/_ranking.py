"""Per-group ranking metrics: pAp@k, partial AUC, AUC, AUC@k, prec@k and mAP.

Every metric is computed for all groups at once (see
:mod:`skpapk.utils._groups`): no Python loop over groups and no
(relevant x irrelevant) pair matrix.
"""

import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from ..utils._groups import (
    _smallest_uint,
    order_by_segment,
    ragged_positions,
    rank_within_segments,
    segment_starts,
)
from ..utils._validation import check_k, check_ranking_inputs

_AVERAGES = ("micro", "pooled", None)
_TIES = ("half", "error")
_NO_POS_OR_NEG = "no relevant or no irrelevant item"


def _check_options(average, ties=None):
    if average not in _AVERAGES:
        raise ValueError(
            f"average must be 'micro' (mean over groups, the paper's eq. 17), "
            f"'pooled' (all pairs of all groups together) or None (one value "
            f"per group), got {average!r}."
        )
    if ties is not None and ties not in _TIES:
        raise ValueError(
            f"ties must be 'half' (a tied pair counts 1/2, as roc_auc_score) or "
            f"'error' (the paper's convention: a tie is a mistake), got {ties!r}."
        )


def _aggregate(numerator, denominator, defined, average, metric_name,
               reason=_NO_POS_OR_NEG):
    """Average per-group ratios ``numerator / denominator`` over defined groups.

    ``average="micro"`` is the unweighted mean of the group ratios,
    ``"pooled"`` the ratio of the sums, ``None`` returns every group's ratio
    (NaN where undefined). Undefined groups are left out with an
    :class:`~sklearn.exceptions.UndefinedMetricWarning` that says how many.
    """
    n_undefined = int(np.count_nonzero(~defined))
    if n_undefined:
        warnings.warn(
            f"{metric_name} is undefined for {n_undefined} of {defined.shape[0]} "
            f"groups ({reason}); they are left out"
            + (" of the average." if average is not None else " (NaN)."),
            UndefinedMetricWarning,
            stacklevel=3,
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        per_group = np.where(defined, numerator / np.where(defined, denominator, 1),
                             np.nan)
    if average is None:
        return per_group
    if not defined.any():
        return float("nan")
    if average == "micro":
        return float(per_group[defined].mean())
    return float(numerator[defined].sum() / denominator[defined].sum())


def _validate(y_true, y_score, groups, pos_label):
    """Validated inputs plus the number of relevant / irrelevant rows per group.

    :func:`skpapk.utils._validation.check_ranking_inputs` (equal lengths,
    binary non-empty ``y_true``, finite numeric scores, one group id per
    row), plus the label counts and segment codes the metrics share.
    """
    y_pos, y_score, codes, labels = check_ranking_inputs(
        y_true, y_score, groups, pos_label=pos_label)
    n_groups = labels.shape[0]
    n_pos, n_neg, segments = _label_counts(y_pos, codes, n_groups)
    return y_pos, y_score, codes, n_groups, n_pos, n_neg, segments


def _label_counts(y_pos, codes, n_groups):
    """Relevant and irrelevant rows of each group, and every row's segment.

    Segment ``2g`` holds the relevant rows of group ``g``, ``2g + 1`` its
    irrelevant rows (small unsigned codes, ready for a radix sort).

    Returns
    -------
    n_pos, n_neg : ndarray of intp of shape (n_groups,)
    segments : ndarray of unsigned int of shape (n,)
    """
    dtype = _smallest_uint(2 * n_groups)
    segments = codes.astype(dtype)
    segments <<= 1
    segments |= ~y_pos
    counts = np.bincount(segments, minlength=2 * n_groups)
    return counts[0::2], counts[1::2], segments


def _pair_gains(y_pos, y_score, codes, n_groups, *, n_top_pos, n_top_neg, ties,
                n_pos=None, n_neg=None, segments=None):
    """Correctly ranked (positive, negative) pairs of each group.

    The pairs are the ``n_top_pos[g]`` highest scored positives of group ``g``
    against its ``n_top_neg[g]`` highest scored negatives. A tied pair counts
    1/2 with ``ties="half"`` and 0 with ``ties="error"``.

    One score sort and one radix sort of the (group, label) codes order every
    group's positives and negatives; the top ones are read off by position.
    Their values are replaced by dense ranks so that ``(group, rank)`` is one
    integer key: the top negatives' keys come out sorted, and
    ``searchsorted`` gives, for every top positive, the number of its group's
    top negatives that score ``>=`` (and ``>``) it. No pair is formed.

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
        n_pos, n_neg, segments = _label_counts(y_pos, codes, n_groups)
    by_score, by_segment = order_by_segment(y_score, segments, 2 * n_groups,
                                            stable=False)
    counts = np.empty(2 * n_groups, dtype=np.intp)
    counts[0::2], counts[1::2] = n_pos, n_neg
    starts = segment_starts(counts)
    top_pos = by_score[by_segment[ragged_positions(starts[0::2], n_top_pos)]]
    top_neg = by_score[by_segment[ragged_positions(starts[1::2], n_top_neg)]]
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
    if ties == "half" and width < values.shape[0]:  # some values are equal
        above = np.searchsorted(neg_keys, pos_keys, side="left") - neg_before
        wrong = 0.5 * (wrong + above)
    correct = n_pairs - np.bincount(pos_codes, weights=wrong, minlength=n_groups)
    return correct, n_pairs


def _tie_blocks(y_pos, y_score, codes, n_groups):
    """Rows sorted by group then decreasing score, with their tie-block counts.

    For every row (in sorted order) returns how many rows / relevant rows of
    its group score strictly higher (``gt_*``) and at least as high
    (``ge_*``, the row's whole tie block included). One score sort and one
    radix sort of the group codes; everything else is O(n).

    Returns
    -------
    codes, y_pos : ndarray of shape (n,)
        In sorted order.
    gt_items, ge_items, gt_pos, ge_pos : ndarray of intp of shape (n,)
    """
    by_score, by_segment = order_by_segment(y_score, codes, n_groups,
                                            stable=False)
    order = by_score[by_segment]
    group_starts = segment_starts(np.bincount(codes, minlength=n_groups))
    codes_s = codes[order]
    pos_s = y_pos[order]
    score_s = y_score[order]
    n = order.shape[0]
    new_block = np.empty(n, dtype=bool)
    new_block[:1] = True
    np.not_equal(score_s[1:], score_s[:-1], out=new_block[1:])
    new_block[1:] |= codes_s[1:] != codes_s[:-1]
    block_start = np.flatnonzero(new_block)
    block_end = np.empty_like(block_start)
    block_end[:-1] = block_start[1:]
    block_end[-1:] = n
    block_id = np.cumsum(new_block) - 1
    cum_pos = np.zeros(n + 1, dtype=np.intp)
    np.cumsum(pos_s, out=cum_pos[1:])
    group_start = group_starts[codes_s]
    start = block_start[block_id]
    end = block_end[block_id]
    gt_items = start - group_start
    ge_items = end - group_start
    gt_pos = cum_pos[start] - cum_pos[group_start]
    ge_pos = cum_pos[end] - cum_pos[group_start]
    return codes_s, pos_s, gt_items, ge_items, gt_pos, ge_pos


def papk_score(y_true, y_score, *, k, groups=None, average="micro", ties="half",
               pos_label=None):
    """pAp@k: partial AUC over the top-``k`` irrelevant and the top relevant items.

    For each group (user), with ``beta = min(k, n+)`` and ``k' = min(k, n-)``,
    the gain is the fraction of the ``beta * k'`` pairs made of one of the
    ``beta`` highest scored relevant items and one of the ``k'`` highest
    scored irrelevant items in which the relevant item scores higher
    (paper Definition 1, eq. 1, as a gain: 1 - risk; Theorem 1, eq. 5,
    writes the same risk as a max-min of AUC risks). The paper assumes
    ``k <= n-``; using ``k'`` keeps groups with fewer than ``k`` irrelevant
    items defined.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels (any two values; the greater is relevant
        unless ``pos_label`` is given).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first (e.g. ``decision_function``).
    k : int
        Number of items shown to each user.
    groups : array-like of shape (n_samples,), default=None
        Group (user / query) id of each row. ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        ``"micro"`` is the paper's micro-pAp@k (eq. 17): the unweighted mean
        of the group gains. The paper calls it "micro"; it is what many
        libraries call a macro average (one vote per user). ``"pooled"`` is the
        number of correct pairs of all groups over the number of their pairs.
        ``None`` returns one value per group, in the sorted order of the group
        labels (NaN for undefined groups).
    ties : {"half", "error"}, default="half"
        A tied (relevant, irrelevant) pair counts 1/2, as in
        :func:`sklearn.metrics.roc_auc_score`, so that pAp@k equals AUC when
        ``k >= n-`` and ``k >= n+``; ``"error"`` is the paper's risk
        convention ``1[f(x+) <= f(x-)]``.
    pos_label : int, float, bool or str, default=None
        The relevant label.

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        NaN when no group is defined. Groups with no relevant or no
        irrelevant item are left out with an ``UndefinedMetricWarning``.

    See Also
    --------
    partial_auc_score : all relevant items against the top-k irrelevant ones.
    roc_auc_score : AUC per group.
    expected_papk : pAp@k of a uniformly random ranking.
    expected_papk_score : micro-pAp@k of a random ranking of the same groups.

    Notes
    -----
    RecTools' ``rectools.metrics.PAP`` computes the same value per user when
    the ranking has no ties and the user has at least ``k`` irrelevant items.
    It differs elsewhere: its denominator is ``min(n+, k) * k`` even when
    ``n- < k`` (missing irrelevant items count as ranked below every
    relevant one), and a user without relevant items scores 0 and stays in
    the mean, where this function leaves such groups out with a warning.

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization and
    Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    The paper's Table 1, scorer f1 with k = 2 (relevant items marked 1):

    >>> from skpapk.metrics import papk_score
    >>> y = [0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0]
    >>> s = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> papk_score(y, s, k=2)
    0.5
    >>> papk_score([1, 0, 1, 0], [0.9, 0.8, 0.1, 0.2], k=1, groups=[0, 0, 1, 1],
    ...            average=None)
    array([1., 0.])
    """
    _check_options(average, ties)
    k = check_k(k)
    y_pos, y_score, codes, n_groups, n_pos, n_neg, segments = _validate(
        y_true, y_score, groups, pos_label)
    correct, n_pairs = _pair_gains(
        y_pos, y_score, codes, n_groups,
        n_top_pos=np.minimum(n_pos, k), n_top_neg=np.minimum(n_neg, k), ties=ties,
        n_pos=n_pos, n_neg=n_neg, segments=segments,
    )
    return _aggregate(correct, n_pairs, n_pairs > 0, average, "pAp@k")


def partial_auc_score(y_true, y_score, *, k, groups=None, average="micro",
                      ties="half", pos_label=None):
    """Partial AUC pAUC(0, k/n-]: all relevant items against the top-k irrelevant.

    For each group, the gain is the fraction of the ``n+ * k'`` pairs
    (``k' = min(k, n-)``) made of any relevant item and one of the ``k'``
    highest scored irrelevant items in which the relevant item scores higher
    (pAUC(0, k/n-] as compared with pAp@k in the paper's Section 3, after
    Narasimhan & Agarwal 2017; the SVM-pAUC baseline's target). Unlike
    :func:`papk_score`, every relevant item counts, not only the top
    ``min(k, n+)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels (the greater label is relevant unless
        ``pos_label`` is given).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first.
    k : int
        Number of top irrelevant items per group.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        As in :func:`papk_score`.
    ties : {"half", "error"}, default="half"
        As in :func:`papk_score`.
    pos_label : int, float, bool or str, default=None
        The relevant label.

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        Groups with no relevant or no irrelevant item are left out with an
        ``UndefinedMetricWarning``; NaN when none is defined.

    See Also
    --------
    papk_score : only the top ``min(k, n+)`` relevant items.
    roc_auc_score : all pairs.

    Examples
    --------
    The paper's Table 1, scorer f2, pAUC(0, 2/6]:

    >>> from skpapk.metrics import partial_auc_score
    >>> y = [1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1]
    >>> s = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> partial_auc_score(y, s, k=2)
    0.5
    """
    _check_options(average, ties)
    k = check_k(k)
    y_pos, y_score, codes, n_groups, n_pos, n_neg, segments = _validate(
        y_true, y_score, groups, pos_label)
    correct, n_pairs = _pair_gains(
        y_pos, y_score, codes, n_groups,
        n_top_pos=n_pos, n_top_neg=np.minimum(n_neg, k), ties=ties,
        n_pos=n_pos, n_neg=n_neg, segments=segments,
    )
    return _aggregate(correct, n_pairs, n_pairs > 0, average, "Partial AUC")


def roc_auc_score(y_true, y_score, *, groups=None, average="micro", ties="half",
                  pos_label=None):
    """Area under the ROC curve of each group.

    For each group, the fraction of its ``n+ * n-`` (relevant, irrelevant)
    pairs that are ranked correctly (1 - the AUC risk of the paper's eq. 2,
    which counts a tie as an error: ``ties="error"``). With
    ``ties="half"`` and one group this is :func:`sklearn.metrics.roc_auc_score`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels (the greater label is relevant unless
        ``pos_label`` is given).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        ``"micro"``: unweighted mean of the group AUCs; ``"pooled"``: correct
        pairs over pairs, all groups together (pairs never cross groups);
        ``None``: one value per group.
    ties : {"half", "error"}, default="half"
        A tied pair counts 1/2 (``"half"``) or 0 (``"error"``).
    pos_label : int, float, bool or str, default=None
        The relevant label.

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        Groups with no relevant or no irrelevant item are left out with an
        ``UndefinedMetricWarning``; NaN when none is defined.

    See Also
    --------
    papk_score : the top of the list only.
    sklearn.metrics.roc_auc_score : one list, many more options.

    Examples
    --------
    >>> from skpapk.metrics import roc_auc_score
    >>> roc_auc_score([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], groups=[0, 0, 1, 1],
    ...               average=None)
    array([1., 1.])
    >>> roc_auc_score([1, 0, 0, 1], [0.9, 0.5, 0.5, 0.5])
    0.75
    """
    _check_options(average, ties)
    y_pos, y_score, codes, n_groups, n_pos, n_neg, segments = _validate(
        y_true, y_score, groups, pos_label)
    correct, n_pairs = _pair_gains(
        y_pos, y_score, codes, n_groups, n_top_pos=n_pos, n_top_neg=n_neg,
        ties=ties, n_pos=n_pos, n_neg=n_neg, segments=segments,
    )
    return _aggregate(correct, n_pairs, n_pairs > 0, average, "ROC AUC")


def auc_at_k_score(y_true, y_score, *, k, groups=None, average="micro",
                   ties="half", pos_label=None):
    """AUC@k: the AUC among the ``k`` top-ranked items of each group.

    The ``k`` highest scored items of a group (all of them when it has fewer)
    are kept and their AUC is computed (the paper's Table 2 reports it).
    When several items tie at the ``k``-th score, the stable sort keeps the
    earliest rows (row order breaks the tie at the boundary); inside the
    top ``k`` a tied pair counts as ``ties`` says.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels (the greater label is relevant unless
        ``pos_label`` is given).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first.
    k : int
        Number of top-ranked items per group.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        As in :func:`roc_auc_score`.
    ties : {"half", "error"}, default="half"
        As in :func:`roc_auc_score`.
    pos_label : int, float, bool or str, default=None
        The relevant label.

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        Undefined (left out with an ``UndefinedMetricWarning``; NaN per
        group) when a group's top ``k`` lacks a relevant or an irrelevant item.

    See Also
    --------
    roc_auc_score : AUC of the whole list.
    precision_at_k_score : relevant items among the top k.

    Examples
    --------
    >>> from skpapk.metrics import auc_at_k_score
    >>> auc_at_k_score([1, 0, 1, 0, 1], [5, 4, 3, 2, 1], k=3)
    0.5
    """
    _check_options(average, ties)
    k = check_k(k)
    y_pos, y_score, codes, n_groups, _, _, _ = _validate(
        y_true, y_score, groups, pos_label)
    top = rank_within_segments(y_score, codes, n_groups).rank < k
    y_pos, y_score, codes = y_pos[top], y_score[top], codes[top]
    n_pos, n_neg, segments = _label_counts(y_pos, codes, n_groups)
    correct, n_pairs = _pair_gains(
        y_pos, y_score, codes, n_groups, n_top_pos=n_pos, n_top_neg=n_neg,
        ties=ties, n_pos=n_pos, n_neg=n_neg, segments=segments,
    )
    return _aggregate(correct, n_pairs, n_pairs > 0, average, "AUC@k",
                      reason="the top k items lack a relevant or an irrelevant "
                             "item")


def precision_at_k_score(y_true, y_score, *, k, groups=None, average="micro",
                         ties="half", pos_label=None):
    """prec@k: the fraction of the ``k`` highest scored items that are relevant.

    Per group: (number of relevant items among the ``k`` highest scored) / k
    (Kar et al. 2015; the paper's Section 1). The denominator is ``k`` even
    when the group has fewer than ``k`` items, so such a group cannot reach
    1. Defined for every group (0 when it has no relevant item).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels (the greater label is relevant unless
        ``pos_label`` is given).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first.
    k : int
        Number of items shown to each user.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        ``"micro"``: mean over groups. As every group has the same
        denominator ``k``, ``"pooled"`` gives the same value. ``None``: one
        value per group.
    ties : {"half", "error"}, default="half"
        When items tie at the ``k``-th score, ``"half"`` gives the expected
        value under a uniformly random order of the tied items; ``"error"``
        puts the irrelevant tied items first (pessimistic, the paper's
        convention that a tie is a mistake).
    pos_label : int, float, bool or str, default=None
        The relevant label.

    Returns
    -------
    score : float or ndarray of shape (n_groups,)

    See Also
    --------
    papk_score : also rewards the order inside the top k.

    Examples
    --------
    The paper's Table 1, scorer f4 with k = 6:

    >>> from skpapk.metrics import precision_at_k_score
    >>> y = [1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0]
    >>> s = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> precision_at_k_score(y, s, k=6)
    0.833...
    >>> precision_at_k_score([1, 0, 0], [1.0, 1.0, 0.0], k=1)
    0.5
    >>> precision_at_k_score([1, 0, 0], [1.0, 1.0, 0.0], k=1, ties="error")
    0.0
    """
    _check_options(average, ties)
    k = check_k(k)
    y_pos, y_score, codes, n_groups, _, _, _ = _validate(
        y_true, y_score, groups, pos_label)
    codes_s, pos_s, gt_items, ge_items, gt_pos, ge_pos = _tie_blocks(
        y_pos, y_score, codes, n_groups)
    # A relevant row is in the top k when its whole tie block fits; when the
    # block straddles position k, only ``slots`` of its items get in.
    slots = k - gt_items
    block_size = ge_items - gt_items
    with np.errstate(invalid="ignore", divide="ignore"):
        if ties == "half":
            share = slots / block_size
        else:
            block_pos = ge_pos - gt_pos
            share = np.maximum(slots - (block_size - block_pos), 0) / block_pos
    share = np.where(ge_items <= k, 1.0, np.where(gt_items < k, share, 0.0))
    hits = np.bincount(codes_s, weights=np.where(pos_s, share, 0.0),
                       minlength=n_groups)
    return _aggregate(hits, np.full(n_groups, float(k)),
                      np.ones(n_groups, dtype=bool), average, "prec@k")


def mean_average_precision_score(y_true, y_score, *, groups=None,
                                 average="micro", pos_label=None):
    """Average precision (AP) of each group, averaged over groups (mAP).

    AP of a group = mean over its relevant items of the precision at that
    item's score, where the precision counts every item scoring at least as
    high (tied items form one threshold block, as
    :func:`sklearn.metrics.average_precision_score`). Without ties this is
    the average-precision tutorial's ``ap_simple``: AP of ``[T] = 1``,
    ``[F, T] = 1/2``, ``[F, F, T] = 1/3``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels (the greater label is relevant unless
        ``pos_label`` is given).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        ``"micro"``: mAP, the unweighted mean of the group APs (the
        paper's naming); ``"pooled"``: the sum of the precisions at all
        relevant items over the number of relevant items (a mean of the APs
        weighted by ``n+``); ``None``: one AP per group.
    pos_label : int, float, bool or str, default=None
        The relevant label.

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        Groups with no relevant item are left out with an
        ``UndefinedMetricWarning`` (a group with only relevant items has
        AP 1); NaN when none is defined.

    See Also
    --------
    expected_average_precision : AP of a uniformly random ranking.
    worst_average_precision : the smallest AP of a group.

    Examples
    --------
    >>> from skpapk.metrics import mean_average_precision_score
    >>> mean_average_precision_score([0, 1], [0.9, 0.1])
    0.5
    >>> mean_average_precision_score([1, 0, 0, 0, 1], [5, 4, 3, 2, 1],
    ...                              groups=[0, 0, 1, 1, 1], average=None)
    array([1.        , 0.33333333])
    """
    _check_options(average)
    y_pos, y_score, codes, n_groups, n_pos, _, _ = _validate(
        y_true, y_score, groups, pos_label)
    codes_s, pos_s, _, ge_items, _, ge_pos = _tie_blocks(
        y_pos, y_score, codes, n_groups)
    precision = ge_pos[pos_s] / ge_items[pos_s]
    total = np.bincount(codes_s[pos_s], weights=precision, minlength=n_groups)
    return _aggregate(total, n_pos.astype(np.float64), n_pos > 0, average,
                      "Average precision", reason="no relevant item")
