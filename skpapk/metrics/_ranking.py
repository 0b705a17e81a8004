"""Per-group pair-counting metrics: pAp@k, partial AUC, AUC and AUC@k.

Every metric is computed for all groups at once (see
:mod:`skpapk.utils._groups`): no Python loop over groups and no
(relevant x irrelevant) pair matrix. Tied scores follow the ``ties`` rule;
the default, ``"random"``, is the exact expectation over a uniformly random
order of the tied items (:mod:`skpapk.metrics._ties`).
"""

import numpy as np

from ..utils._groups import ragged_range, rank_within_segments
from ..utils._validation import check_k
from ._common import Parts, _aggregate, _average, _check_options, _validate
from ._kernels import (
    label_counts,
    pair_gains,
    papk_gains,
    partial_auc_gains,
    tie_blocks,
)
from ._ties import hypergeometric_pmf


def papk_score(y_true, y_score, *, k, groups=None, average="micro",
               ties="random", pos_label=None, zero_division="warn"):
    """The pAp@k: partial AUC over the top-``k`` irrelevant and top relevant items.

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
        Binary relevance labels: ``pos_label``, else the greater of two
        numbers, is relevant (labels that are not numbers need ``pos_label``).
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
    ties : {"random", "half", "error"}, default="random"
        How tied scores count.

        - ``"random"``: the exact expectation of pAp@k over a uniformly
          random order of every tie block (tied items relevant or not): what
          breaking the ties at random gives on average. A scorer that gives
          all items of a group the same score gets exactly
          :func:`expected_papk`, the value of a random ranking. A tie block
          that straddles the top ``k`` costs up to about ``k**2 / 4``
          terms: about 12 s at ``k = 10**4`` on one core, growing with
          ``k**2`` (``"half"`` and ``"error"`` cost no more than untied
          scores).
        - ``"half"``: a tied (relevant, irrelevant) pair counts 1/2, as in
          :func:`sklearn.metrics.roc_auc_score`, with the top ``beta``
          relevant and top ``k'`` irrelevant items taken as if the ties were
          broken arbitrarily. It equals ``"random"`` unless a tie block
          straddles the ``beta``-th relevant or the ``k'``-th irrelevant
          place; there it is off in either direction (a constant scorer
          gets 1/2, above a random ranking).
        - ``"error"``: the paper's risk convention ``1[f(x+) <= f(x-)]``, a
          lower bound of the other two.

        All three agree when no relevant item ties an irrelevant one, and
        with ``k >= n-`` and ``k >= n+`` ``"random"`` and ``"half"`` give the
        AUC of :func:`sklearn.metrics.roc_auc_score`.
    pos_label : int, float, bool or str, default=None
        The relevant label; needed when the labels are not numbers
        (e.g. ``"clicked"``/``"not_clicked"``).
    zero_division : "warn", float or np.nan, default="warn"
        What a group where the metric is undefined (no relevant or no
        irrelevant item) counts as, as scikit-learn's ``zero_division``:
        ``"warn"`` leaves it out of the average (NaN with ``average=None``)
        with an ``UndefinedMetricWarning``; ``np.nan`` the same, silently; a
        number in [0, 1] is its value (``0.0``: ranx's and pytrec_eval's
        convention, a user without a relevant item scores 0). Under
        ``average="pooled"`` such a group has no pairs and weighs nothing (the
        result is ``zero_division`` when no group is defined).

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        NaN when no group is defined. Groups with no relevant or no
        irrelevant item are left out with an ``UndefinedMetricWarning``.

    See Also
    --------
    partial_auc_score : All relevant items against the top-k irrelevant ones.
    roc_auc_score : AUC per group.
    expected_papk : The pAp@k of a uniformly random ranking.
    expected_papk_score : Micro-pAp@k of a random ranking of the same groups.
    ranking_report : The pAp@k and other metrics of the same scores, sorted once.

    Notes
    -----
    RecTools' ``rectools.metrics.PAP`` computes the same value per user when
    the ranking has no ties and the user has at least ``k`` irrelevant items.
    It differs elsewhere: its denominator is ``min(n+, k) * k`` even when
    ``n- < k`` (missing irrelevant items count as ranked below every
    relevant one). A user without relevant items is left out by both:
    RecTools computes the metric over the users of its test interactions
    (the relevant items), so such a user is not among them, and this
    function leaves such groups out of the mean (with an
    ``UndefinedMetricWarning`` by default).

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

    A constant scorer scores what a random ranking scores on average:

    >>> from skpapk.metrics import expected_papk
    >>> papk_score([1, 1, 0, 0, 0], [0, 0, 0, 0, 0], k=2)
    0.375
    >>> expected_papk(2, 3, k=2)
    0.375
    >>> papk_score([1, 1, 0, 0, 0], [0, 0, 0, 0, 0], k=2, ties="half")
    0.5
    """
    _check_options(average, ties, zero_division=zero_division)
    k = check_k(k)
    return _average(_papk_parts(_validate(y_true, y_score, groups, pos_label),
                                k, ties), average, zero_division)


def _pair_orders(orders):
    """The keywords of the pair kernels for :class:`~skpapk.metrics._common.
    Orders` (or None: they sort)."""
    if orders is None:
        return {}
    return {"by_score": orders.by_score, "by_segment": orders.by_segment}


def _papk_parts(inputs, k, ties, orders=None):
    """pAp@k's :class:`~skpapk.metrics._common.Parts` of ``_validate``'s
    ``inputs``; ``orders``: the rows' :class:`~skpapk.metrics._common.Orders`,
    if shared."""
    correct, n_pairs = papk_gains(
        inputs.y_pos, inputs.y_score, inputs.codes, inputs.n_groups, k,
        ties=ties, counts=(inputs.n_pos, inputs.n_neg, inputs.segments),
        **_pair_orders(orders))
    return Parts(correct, n_pairs, n_pairs > 0, "pAp@k")


def partial_auc_score(y_true, y_score, *, k, groups=None, average="micro",
                      ties="random", pos_label=None, zero_division="warn"):
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
        Binary relevance labels: ``pos_label``, else the greater of two
        numbers, is relevant (labels that are not numbers need ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first.
    k : int
        Number of top irrelevant items per group.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        As in :func:`papk_score`.
    ties : {"random", "half", "error"}, default="random"
        As in :func:`papk_score`: ``"random"`` is the exact expectation over
        random orders of the tied items (a constant scorer gets
        :func:`expected_partial_auc_score`); ``"half"`` counts a tied pair
        1/2 and equals ``"random"`` unless a tie block straddles the
        ``k'``-th irrelevant place; ``"error"`` counts it 0.
    pos_label : int, float, bool or str, default=None
        The relevant label; needed when the labels are not numbers
        (e.g. ``"clicked"``/``"not_clicked"``).
    zero_division : "warn", float or np.nan, default="warn"
        What a group where the metric is undefined (no relevant or no
        irrelevant item) counts as, as scikit-learn's ``zero_division``:
        ``"warn"`` leaves it out of the average (NaN with ``average=None``)
        with an ``UndefinedMetricWarning``; ``np.nan`` the same, silently; a
        number in [0, 1] is its value (``0.0``: ranx's and pytrec_eval's
        convention, a user without a relevant item scores 0). Under
        ``average="pooled"`` such a group has no pairs and weighs nothing (the
        result is ``zero_division`` when no group is defined).

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        Groups with no relevant or no irrelevant item are left out with an
        ``UndefinedMetricWarning`` (``zero_division="warn"``, the default);
        NaN when none is defined.

    See Also
    --------
    papk_score : Only the top ``min(k, n+)`` relevant items.
    roc_auc_score : All pairs.

    Examples
    --------
    The paper's Table 1, scorer f2, pAUC(0, 2/6]:

    >>> from skpapk.metrics import partial_auc_score
    >>> y = [1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1]
    >>> s = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> partial_auc_score(y, s, k=2)
    0.5
    """
    _check_options(average, ties, zero_division=zero_division)
    k = check_k(k)
    return _average(_partial_auc_parts(
        _validate(y_true, y_score, groups, pos_label), k, ties), average,
        zero_division)


def _partial_auc_parts(inputs, k, ties, orders=None):
    """pAUC(0, k/n-]'s parts, as :func:`_papk_parts`."""
    correct, n_pairs = partial_auc_gains(
        inputs.y_pos, inputs.y_score, inputs.codes, inputs.n_groups, k,
        ties=ties, counts=(inputs.n_pos, inputs.n_neg, inputs.segments),
        **_pair_orders(orders))
    return Parts(correct, n_pairs, n_pairs > 0, "Partial AUC")


def roc_auc_score(y_true, y_score, *, groups=None, average="micro",
                  ties="random", pos_label=None, zero_division="warn"):
    """Area under the ROC curve of each group.

    For each group, the fraction of its ``n+ * n-`` (relevant, irrelevant)
    pairs that are ranked correctly (1 - the AUC risk of the paper's eq. 2,
    which counts a tie as an error: ``ties="error"``). With
    ``ties="random"`` (or ``"half"``) and one group this is
    :func:`sklearn.metrics.roc_auc_score`.

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
        ``"micro"``: unweighted mean of the group AUCs; ``"pooled"``: correct
        pairs over pairs, all groups together (pairs never cross groups);
        ``None``: one value per group.
    ties : {"random", "half", "error"}, default="random"
        A tied pair counts 1/2 (``"half"``) or 0 (``"error"``). As every
        pair counts, a random order of the tied items puts a tied pair
        either way with probability 1/2: ``"random"`` (the expectation over
        random tie-breaking, as for the other metrics) equals ``"half"``.
    pos_label : int, float, bool or str, default=None
        The relevant label; needed when the labels are not numbers
        (e.g. ``"clicked"``/``"not_clicked"``).
    zero_division : "warn", float or np.nan, default="warn"
        What a group where the metric is undefined (no relevant or no
        irrelevant item) counts as, as scikit-learn's ``zero_division``:
        ``"warn"`` leaves it out of the average (NaN with ``average=None``)
        with an ``UndefinedMetricWarning``; ``np.nan`` the same, silently; a
        number in [0, 1] is its value (``0.0``: ranx's and pytrec_eval's
        convention, a user without a relevant item scores 0). Under
        ``average="pooled"`` such a group has no pairs and weighs nothing (the
        result is ``zero_division`` when no group is defined).

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        Groups with no relevant or no irrelevant item are left out with an
        ``UndefinedMetricWarning`` (``zero_division="warn"``, the default);
        NaN when none is defined.

    See Also
    --------
    papk_score : The top of the list only.
    sklearn.metrics.roc_auc_score : One list, many more options.

    Examples
    --------
    >>> from skpapk.metrics import roc_auc_score
    >>> roc_auc_score([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], groups=[0, 0, 1, 1],
    ...               average=None)
    array([1., 1.])
    >>> roc_auc_score([1, 0, 0, 1], [0.9, 0.5, 0.5, 0.5])
    0.75
    """
    _check_options(average, ties, zero_division=zero_division)
    return _average(_roc_auc_parts(
        _validate(y_true, y_score, groups, pos_label), None, ties), average,
        zero_division)


def _roc_auc_parts(inputs, k, ties, orders=None):
    """The AUC's parts, as :func:`_papk_parts` (``k`` unused)."""
    correct, n_pairs = pair_gains(
        inputs.y_pos, inputs.y_score, inputs.codes, inputs.n_groups,
        n_top_pos=inputs.n_pos, n_top_neg=inputs.n_neg, ties=ties,
        n_pos=inputs.n_pos, n_neg=inputs.n_neg, segments=inputs.segments,
        **_pair_orders(orders))
    return Parts(correct, n_pairs, n_pairs > 0, "ROC AUC")


def auc_at_k_score(y_true, y_score, *, k, groups=None, average="micro",
                   ties="random", pos_label=None, zero_division="warn"):
    """AUC@k: the AUC among the ``k`` top-ranked items of each group.

    The ``k`` highest scored items of a group (all of them when it has fewer)
    are kept and their AUC is computed (the paper's Table 2 reports it).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels: ``pos_label``, else the greater of two
        numbers, is relevant (labels that are not numbers need ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores, higher means ranked first.
    k : int
        Number of top-ranked items per group.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        As in :func:`roc_auc_score`. With ``ties="random"``, ``"pooled"`` is
        the expected number of correct pairs of all groups over their
        expected number of pairs (the top ``k`` of a group, and so its pair
        count, can depend on the tie-breaking).
    ties : {"random", "half", "error"}, default="random"
        ``"random"``: the exact expectation over a uniformly random order of
        the tied items. When a tie block straddles the ``k``-th place, the
        block's items that enter the top ``k`` are a uniformly random subset
        (hypergeometric numbers of relevant and irrelevant items); the AUC
        is averaged over the tie-breaking orders where it is defined (a top
        ``k`` with both labels), and a group is undefined only when no order
        defines it. ``"half"`` and ``"error"``: the stable sort keeps the
        earliest rows at the ``k``-th place (row order breaks that tie);
        inside the top ``k`` a tied pair counts 1/2 or 0. Without a tie at
        the ``k``-th place, ``"random"`` equals ``"half"``.
    pos_label : int, float, bool or str, default=None
        The relevant label; needed when the labels are not numbers
        (e.g. ``"clicked"``/``"not_clicked"``).
    zero_division : "warn", float or np.nan, default="warn"
        What a group where the metric is undefined (no relevant or no
        irrelevant item in the top ``k``) counts as, as scikit-learn's
        ``zero_division``: ``"warn"`` leaves it out of the average (NaN with
        ``average=None``) with an ``UndefinedMetricWarning``; ``np.nan`` the
        same, silently; a number in [0, 1] is its value (``0.0``: ranx's and
        pytrec_eval's convention, a user without a relevant item scores 0).
        Under ``average="pooled"`` such a group has no pairs and weighs
        nothing (the result is ``zero_division`` when no group is defined).

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        Undefined (left out with an ``UndefinedMetricWarning`` by default; NaN per
        group) when a group's top ``k`` lacks a relevant or an irrelevant item.

    See Also
    --------
    roc_auc_score : AUC of the whole list.
    precision_at_k_score : Relevant items among the top k.

    Examples
    --------
    >>> from skpapk.metrics import auc_at_k_score
    >>> auc_at_k_score([1, 0, 1, 0, 1], [5, 4, 3, 2, 1], k=3)
    0.5

    Two of the three tied items enter the top 2: the relevant one with the
    irrelevant one (AUC 1/2) in 2 of the 3 equally likely cases, the two
    irrelevant ones (undefined) in the third:

    >>> auc_at_k_score([1, 0, 0], [1, 1, 1], k=2)
    0.5
    """
    _check_options(average, ties, zero_division=zero_division)
    k = check_k(k)
    y_pos, y_score, codes, n_groups, _, _, _ = _validate(
        y_true, y_score, groups, pos_label)
    reason = "the top k items lack a relevant or an irrelevant item"
    if ties == "random":
        numerator, denominator, defined, per_group = _random_auc_at_k(
            y_pos, y_score, codes, n_groups, k)
        return _aggregate(numerator, denominator, defined, average, "AUC@k",
                          reason=reason, per_group=per_group,
                      zero_division=zero_division)
    top = rank_within_segments(y_score, codes, n_groups).rank < k
    y_pos, y_score, codes = y_pos[top], y_score[top], codes[top]
    n_pos, n_neg, segments = label_counts(y_pos, codes, n_groups)
    correct, n_pairs = pair_gains(
        y_pos, y_score, codes, n_groups, n_top_pos=n_pos, n_top_neg=n_neg,
        ties=ties, n_pos=n_pos, n_neg=n_neg, segments=segments,
    )
    return _aggregate(correct, n_pairs, n_pairs > 0, average, "AUC@k",
                      reason=reason,
                      zero_division=zero_division)


def _random_auc_at_k(y_pos, y_score, codes, n_groups, k):
    """AUC@k expectations over random orders of the tied items.

    The tie blocks that end at or above the ``k``-th place are in the top
    ``k`` whatever the order (their tied pairs count 1/2 in expectation).
    A block straddling the ``k``-th place gives ``s`` of its ``p + q`` items
    to the top ``k``, ``j`` of them relevant with hypergeometric probability;
    given ``j`` the top ``k`` holds ``A+ + j`` relevant and ``A- + s - j``
    irrelevant items (``A`` counted above the block), and its expected
    correct pairs are ``C_A + A+ (s - j) + j (s - j) / 2``. At most
    ``k + 1`` values of ``j`` per group.

    Returns
    -------
    numerator, denominator : ndarray of shape (n_groups,)
        Expected correct pairs and expected pairs (0 where undefined).
    defined : ndarray of bool of shape (n_groups,)
    per_group : ndarray of shape (n_groups,)
        Expected AUC@k given that it is defined.
    """
    blocks = tie_blocks(y_pos, y_score, codes, n_groups)
    ends = blocks.gt_items + blocks.size
    rows = blocks.order[(ends <= k)[blocks.block]]
    a_pos, a_neg, segments = label_counts(y_pos[rows], codes[rows], n_groups)
    numerator, _ = pair_gains(
        y_pos[rows], y_score[rows], codes[rows], n_groups, n_top_pos=a_pos,
        n_top_neg=a_neg, ties="half", n_pos=a_pos, n_neg=a_neg,
        segments=segments)
    denominator = (a_pos * a_neg).astype(np.float64)
    p_defined = (denominator > 0).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_group = numerator / denominator
    straddle = np.flatnonzero((blocks.gt_items < k) & (ends > k))
    if straddle.shape[0]:
        g = blocks.group[straddle]
        s = k - blocks.gt_items[straddle]
        p, q = blocks.n_pos[straddle], blocks.n_neg[straddle]
        j_min = np.maximum(s - q, 0)
        owner, i = ragged_range(np.minimum(p, s) - j_min + 1)
        j, s_j = j_min[owner] + i, s[owner]
        prob = hypergeometric_pmf(p[owner] + q[owner], p[owner], s_j, j)
        pos_top, neg_top = a_pos[g][owner] + j, a_neg[g][owner] + s_j - j
        correct = numerator[g][owner] + a_pos[g][owner] * (s_j - j) \
            + 0.5 * j * (s_j - j)
        pairs = (pos_top * neg_top).astype(np.float64)
        ok = pairs > 0
        prob_ok = np.where(ok, prob, 0.0)
        ratio = np.where(ok, correct / np.where(ok, pairs, 1.0), 0.0)
        n_out = straddle.shape[0]
        numerator[g] = np.bincount(owner, weights=prob_ok * correct,
                                   minlength=n_out)
        denominator[g] = np.bincount(owner, weights=prob_ok * pairs,
                                     minlength=n_out)
        p_defined[g] = np.bincount(owner, weights=prob_ok, minlength=n_out)
        with np.errstate(invalid="ignore", divide="ignore"):
            per_group[g] = np.bincount(owner, weights=prob_ok * ratio,
                                       minlength=n_out) / p_defined[g]
    defined = p_defined > 0
    return numerator, denominator, defined, per_group
