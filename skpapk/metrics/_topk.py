"""Per-group list metrics: prec@k, recall@k, NDCG@k and average precision.

Each is computed from the tie blocks of every group (see
:class:`~skpapk.metrics._kernels.TieBlocks`): one score sort, one radix sort
of the group codes, then O(n) work; no Python loop over groups. With the
default ``ties="random"`` every metric is its exact expectation over a
uniformly random order of the tied items.
"""

import numpy as np

from ..utils._validation import check_k
from ._common import LIST_TIES, Parts, _aggregate, _average, _check_options, _validate
from ._kernels import tie_blocks, top_k_hits

_AP_TIES = ("random", "error", "threshold")


def precision_at_k_score(y_true, y_score, *, k, groups=None, average="micro",
                         ties="random", pos_label=None):
    """The prec@k: the fraction of the ``k`` highest scored items that are relevant.

    Per group: (number of relevant items among the ``k`` highest scored) / k
    (Kar et al. 2015; the paper's Section 1). The denominator is ``k`` even
    when the group has fewer than ``k`` items, so such a group cannot reach
    1. Defined for every group (0 when it has no relevant item).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels: ``pos_label``, else the greater of two
        numbers, is relevant (labels that are not numbers need ``pos_label``).
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
    ties : {"random", "half", "error"}, default="random"
        When items tie at the ``k``-th score, ``"random"`` gives the exact
        expectation under a uniformly random order of the tied items (each
        enters the top ``k`` with probability slots / tied items).
        ``"half"`` is the same rule (its name before ``"random"`` became the
        default of every metric). ``"error"`` puts the irrelevant tied items
        first (pessimistic, the paper's convention that a tie is a mistake).
    pos_label : int, float, bool or str, default=None
        The relevant label; needed when the labels are not numbers
        (e.g. ``"clicked"``/``"not_clicked"``).

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        The prec@k of every group with ``average=None``, else one number, as
        ``average`` says.

    See Also
    --------
    recall_at_k_score : Relevant items in the top k over all relevant items.
    papk_score : Also rewards the order inside the top k.
    expected_precision_at_k_score : The prec@k of a random ranking.

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
    return _average(_precision_parts(
        _validate(y_true, y_score, groups, pos_label), k, ties), average)


def _precision_parts(inputs, k, ties, orders=None):
    """prec@k's :class:`~skpapk.metrics._common.Parts` of ``_validate``'s
    ``inputs``; ``orders``: the rows' :class:`~skpapk.metrics._common.Orders`,
    if shared."""
    hits = top_k_hits(inputs.y_pos, inputs.y_score, inputs.codes,
                      inputs.n_groups, k, ties,
                      by_score=None if orders is None else orders.by_score)
    return Parts(hits, np.full(inputs.n_groups, float(k)),
                 np.ones(inputs.n_groups, dtype=bool), "prec@k")


def recall_at_k_score(y_true, y_score, *, k, groups=None, average="micro",
                      ties="random", pos_label=None, zero_division="warn"):
    """The recall@k: the fraction of a group's relevant items among its ``k`` first.

    Per group: (number of relevant items among the ``k`` highest scored) /
    (number of relevant items). A group with at least ``k`` relevant items
    reaches at most ``k / n+``; one with fewer than ``k`` items and a
    relevant one always gets 1.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels: ``pos_label``, else the greater of two
        numbers, is relevant (labels that are not numbers need ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first.
    k : int
        Number of items shown to each user.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        ``"micro"``: unweighted mean of the group recalls; ``"pooled"``:
        relevant items retrieved in all groups over all relevant items (a
        mean weighted by ``n+``); ``None``: one value per group.
    ties : {"random", "error"}, default="random"
        As in :func:`precision_at_k_score`: ``"random"`` is the exact
        expectation under a uniformly random order of the items tied at
        the ``k``-th score, ``"error"`` puts the irrelevant tied items first.
    pos_label : int, float, bool or str, default=None
        The relevant label; needed when the labels are not numbers
        (e.g. ``"clicked"``/``"not_clicked"``).
    zero_division : "warn", float or np.nan, default="warn"
        What a group where the metric is undefined (no relevant item) counts
        as, as scikit-learn's ``zero_division``: ``"warn"`` leaves it out of
        the average (NaN with ``average=None``) with an
        ``UndefinedMetricWarning``; ``np.nan`` the same, silently; a number in
        [0, 1] is its value (``0.0``: ranx's and pytrec_eval's convention, a
        user without a relevant item scores 0). Under ``average="pooled"``
        such a group has no pairs and weighs nothing (the result is
        ``zero_division`` when no group is defined).

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        Groups with no relevant item are left out with an
        ``UndefinedMetricWarning`` (``zero_division="warn"``, the default);
        NaN when none is defined.

    See Also
    --------
    precision_at_k_score : The same count over ``k``.
    ndcg_at_k_score : Also rewards the order inside the top k.

    Examples
    --------
    >>> from skpapk.metrics import recall_at_k_score
    >>> recall_at_k_score([1, 0, 1, 0, 1], [5, 4, 3, 2, 1], k=3)
    0.666...
    >>> recall_at_k_score([1, 0, 0, 1], [2, 2, 1, 1], k=1,
    ...                   groups=[0, 0, 1, 1], average=None)
    array([0.5, 0.5])
    >>> recall_at_k_score([1, 0, 0, 1], [2, 2, 1, 1], k=1,
    ...                   groups=[0, 0, 1, 1], average=None, ties="error")
    array([0., 0.])
    """
    _check_options(average, ties, allowed_ties=LIST_TIES, zero_division=zero_division)
    k = check_k(k)
    return _average(_recall_parts(
        _validate(y_true, y_score, groups, pos_label), k, ties), average,
        zero_division)


def _recall_parts(inputs, k, ties, orders=None):
    """recall@k's parts, as :func:`_precision_parts`."""
    hits = top_k_hits(inputs.y_pos, inputs.y_score, inputs.codes,
                      inputs.n_groups, k, ties,
                      by_score=None if orders is None else orders.by_score)
    return Parts(hits, inputs.n_pos.astype(np.float64), inputs.n_pos > 0,
                 "recall@k", "no relevant item")


def ndcg_at_k_score(y_true, y_score, *, k, groups=None, average="micro",
                    ties="random", pos_label=None, zero_division="warn"):
    """NDCG@k with binary gains: discounted relevant items in the ``k`` first.

    Per group: ``DCG@k / IDCG@k`` (Jarvelin & Kekalainen 2002) with
    ``DCG@k = sum_{i <= k} rel_i / log2(i + 1)`` over the ranked places
    ``i`` and ``IDCG@k`` the DCG of the ideal ranking,
    ``sum_{i <= min(k, n+)} 1 / log2(i + 1)``. The discount is the common
    ``1 / log2(i + 1)`` at every rank, the first one included (as
    :func:`sklearn.metrics.ndcg_score`); Jarvelin & Kekalainen's own DCG
    leaves the ranks below its log base ``b`` undiscounted and divides by
    ``log_b(i)`` after them (with ``b = 2``, ranks 1 and 2 weigh alike),
    which gives other values. Relevance is binary, so the gains ``rel``
    and ``2**rel - 1`` coincide.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels: ``pos_label``, else the greater of two
        numbers, is relevant (labels that are not numbers need ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first.
    k : int
        Number of ranked places that count.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        ``"micro"``: unweighted mean of the group NDCGs; ``"pooled"``: the
        sum of the groups' DCGs over the sum of their ideal DCGs (a mean
        weighted by the ideal DCG); ``None``: one value per group.
    ties : {"random", "error"}, default="random"
        ``"random"``: the exact expectation under a uniformly random order of
        the tied items: every item of a tie block gets the mean discount of
        the block's places. This is what
        :func:`sklearn.metrics.ndcg_score` computes by default
        (``ignore_ties=False``). ``"error"``: the irrelevant tied items come
        first.
    pos_label : int, float, bool or str, default=None
        The relevant label; needed when the labels are not numbers
        (e.g. ``"clicked"``/``"not_clicked"``).
    zero_division : "warn", float or np.nan, default="warn"
        What a group where the metric is undefined (no relevant item) counts
        as, as scikit-learn's ``zero_division``: ``"warn"`` leaves it out of
        the average (NaN with ``average=None``) with an
        ``UndefinedMetricWarning``; ``np.nan`` the same, silently; a number in
        [0, 1] is its value (``0.0``: ranx's and pytrec_eval's convention, a
        user without a relevant item scores 0). Under ``average="pooled"``
        such a group has no pairs and weighs nothing (the result is
        ``zero_division`` when no group is defined).

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        Groups with no relevant item are left out with an
        ``UndefinedMetricWarning`` by default (:func:`sklearn.metrics.ndcg_score`
        gives them 0: ``zero_division=0.0``); NaN when none is defined.

    See Also
    --------
    sklearn.metrics.ndcg_score : One list per row of a 2-d array, graded
        relevance.
    mean_average_precision_score : Another order-aware metric.

    References
    ----------
    K. Jarvelin, J. Kekalainen. "Cumulated gain-based evaluation of IR
    techniques", ACM TOIS 20(4), 2002.

    Examples
    --------
    >>> from skpapk.metrics import ndcg_at_k_score
    >>> ndcg_at_k_score([0, 1, 0], [3, 2, 1], k=2)
    0.630...
    >>> ndcg_at_k_score([0, 1, 1, 0], [3, 2, 1, 0], k=3, groups=[0, 0, 1, 1],
    ...                 average=None)
    array([0.63092975, 1.        ])

    Tied items share the discounts of their places:

    >>> ndcg_at_k_score([0, 1], [5, 5], k=2)
    0.815...
    """
    _check_options(average, ties, allowed_ties=LIST_TIES, zero_division=zero_division)
    k = check_k(k)
    y_pos, y_score, codes, n_groups, n_pos, _, _ = _validate(
        y_true, y_score, groups, pos_label)
    blocks = tie_blocks(y_pos, y_score, codes, n_groups)
    # cum_discount[m] = sum_{i <= min(m, k)} 1 / log2(i + 1)
    n_places = min(k, int(np.bincount(codes).max()))
    cum_discount = np.zeros(n_places + 1)
    np.cumsum(1.0 / np.log2(np.arange(2, n_places + 2)), out=cum_discount[1:])

    def discount_to(m):
        return cum_discount[np.minimum(m, n_places)]

    ends = blocks.gt_items + blocks.size
    if ties == "error":
        gain = discount_to(ends) - discount_to(ends - blocks.n_pos)
    else:
        gain = (blocks.n_pos / blocks.size
                * (discount_to(ends) - discount_to(blocks.gt_items)))
    dcg = np.bincount(blocks.group, weights=gain, minlength=n_groups)
    return _aggregate(dcg, discount_to(n_pos), n_pos > 0, average, "NDCG@k",
                      reason="no relevant item",
                      zero_division=zero_division)


def mean_average_precision_score(y_true, y_score, *, groups=None,
                                 average="micro", ties="random",
                                 pos_label=None, zero_division="warn"):
    """Average precision (AP) of each group, averaged over groups (mAP).

    AP of a group = mean over its relevant items of the precision at that
    item's place (relevant items at or above it over its place). Without
    ties this is the average-precision tutorial's ``ap_simple``: AP of
    ``[T] = 1``, ``[F, T] = 1/2``, ``[F, F, T] = 1/3``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels: ``pos_label``, else the greater of two
        numbers, is relevant (labels that are not numbers need ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        ``"micro"``: mAP, the unweighted mean of the group APs (the
        paper's naming); ``"pooled"``: the sum of the precisions at all
        relevant items over the number of relevant items (a mean of the APs
        weighted by ``n+``); ``None``: one AP per group.
    ties : {"random", "error", "threshold"}, default="random"
        ``"random"``: the exact expectation under a uniformly random order of
        the tied items (McSherry & Najork 2008): in a block of ``t`` tied
        items, ``p`` of them relevant, below ``G`` items of which ``G+`` are
        relevant, the item at the block's ``i``-th place is relevant with
        probability ``p / t`` and then has ``(i - 1)(p - 1)/(t - 1)``
        relevant block items above it on average, so the block adds
        ``(p / t) sum_i (G+ + 1 + (i - 1)(p - 1)/(t - 1)) / (G + i)``. A
        constant scorer gets :func:`expected_average_precision`.
        ``"error"``: the irrelevant tied items come first.
        ``"threshold"``: the tied items form one threshold and each tied
        relevant item gets the precision at the block's end, as
        :func:`sklearn.metrics.average_precision_score` (the only rule
        before ``ties`` was added; neither an expectation nor a bound).
    pos_label : int, float, bool or str, default=None
        The relevant label; needed when the labels are not numbers
        (e.g. ``"clicked"``/``"not_clicked"``).
    zero_division : "warn", float or np.nan, default="warn"
        What a group where the metric is undefined (no relevant item) counts
        as, as scikit-learn's ``zero_division``: ``"warn"`` leaves it out of
        the average (NaN with ``average=None``) with an
        ``UndefinedMetricWarning``; ``np.nan`` the same, silently; a number in
        [0, 1] is its value (``0.0``: ranx's and pytrec_eval's convention, a
        user without a relevant item scores 0). Under ``average="pooled"``
        such a group has no pairs and weighs nothing (the result is
        ``zero_division`` when no group is defined).

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        Groups with no relevant item are left out with an
        ``UndefinedMetricWarning`` by default, see ``zero_division`` (a group
        with only relevant items has AP 1); NaN when none is defined.

    See Also
    --------
    expected_average_precision : AP of a uniformly random ranking.
    worst_average_precision : The smallest AP of a group.

    References
    ----------
    F. McSherry, M. Najork. "Computing information retrieval performance
    measures efficiently in the presence of tied scores", ECIR 2008.

    Examples
    --------
    >>> from skpapk.metrics import mean_average_precision_score
    >>> mean_average_precision_score([0, 1], [0.9, 0.1])
    0.5
    >>> mean_average_precision_score([1, 0, 0, 0, 1], [5, 4, 3, 2, 1],
    ...                              groups=[0, 0, 1, 1, 1], average=None)
    array([1.        , 0.33333333])
    >>> mean_average_precision_score([0, 1], [1, 1])
    0.75
    >>> mean_average_precision_score([0, 1], [1, 1], ties="threshold")
    0.5
    """
    _check_options(average, ties, allowed_ties=_AP_TIES, zero_division=zero_division)
    y_pos, y_score, codes, n_groups, n_pos, _, _ = _validate(
        y_true, y_score, groups, pos_label)
    blocks = tie_blocks(y_pos, y_score, codes, n_groups)
    row = blocks.block
    above, above_pos = blocks.gt_items[row], blocks.gt_pos[row]
    size, block_pos = blocks.size[row], blocks.n_pos[row]
    if ties == "random":
        # every row of a block, at its place i = 1 .. t inside the block
        i = blocks.position - above + 1
        with np.errstate(invalid="ignore", divide="ignore"):
            slope = np.where(size > 1, (block_pos - 1) / (size - 1), 0.0)
        precision = (block_pos / size) * (above_pos + 1 + (i - 1) * slope) \
            / (above + i)
        total = np.bincount(blocks.codes, weights=precision, minlength=n_groups)
    else:
        pos = blocks.pos
        if ties == "threshold":
            precision = (above_pos + block_pos)[pos] / (above + size)[pos]
        else:  # "error": the r-th relevant item of a block after its q others
            cum_pos = np.cumsum(pos)
            r = cum_pos - (cum_pos[blocks.start] - pos[blocks.start])[row]
            precision = (above_pos + r)[pos] / (above + size - block_pos + r)[pos]
        total = np.bincount(blocks.codes[pos], weights=precision,
                            minlength=n_groups)
    return _aggregate(total, n_pos.astype(np.float64), n_pos > 0, average,
                      "Average precision", reason="no relevant item",
                      zero_division=zero_division)
