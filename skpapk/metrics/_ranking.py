"""Per-group ranking metrics: pAp@k, partial AUC, AUC, ...

Every metric is computed for all groups at once (see
:mod:`skpapk.utils._groups`): no Python loop over groups.
"""

import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from ..utils._groups import count_at_least, rank_by_group_and_label
from ..utils._validation import check_k, check_ranking_inputs

_AVERAGES = ("micro", "pooled", None)
_TIES = ("half", "error")


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


def _aggregate(numerator, denominator, defined, average, metric_name):
    """Average per-group ratios ``numerator / denominator`` over defined groups.

    ``average="micro"`` is the unweighted mean of the group ratios,
    ``"pooled"`` the ratio of the sums, ``None`` returns every group's ratio
    (NaN where undefined). Undefined groups are left out with an
    :class:`~sklearn.exceptions.UndefinedMetricWarning`.
    """
    n_undefined = int(np.count_nonzero(~defined))
    if n_undefined:
        warnings.warn(
            f"{metric_name} is undefined for {n_undefined} of {defined.shape[0]} "
            f"groups (no relevant or no irrelevant item); they are left out"
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


def _pair_gains(y_pos, y_score, codes, n_groups, *, n_top_pos, n_top_neg, ties):
    """Correctly ranked (positive, negative) pairs of each group.

    The pairs are the ``n_top_pos[g]`` highest scored positives of group ``g``
    against its ``n_top_neg[g]`` highest scored negatives. A tied pair counts
    1/2 with ``ties="half"`` and 0 with ``ties="error"``.

    Returns
    -------
    correct : ndarray of float of shape (n_groups,)
        Number of correctly ordered pairs (ties included as said).
    n_pairs : ndarray of float of shape (n_groups,)
    """
    ranking = rank_by_group_and_label(y_pos, y_score, codes, n_groups)
    top_pos = y_pos & (ranking.rank < n_top_pos[codes])
    top_neg = ~y_pos & (ranking.rank < n_top_neg[codes])
    ref_codes, ref_values = codes[top_neg], y_score[top_neg]
    query_codes, query_values = codes[top_pos], y_score[top_pos]
    # For every top positive: how many top negatives score >= it (errors).
    wrong = count_at_least(ref_codes, ref_values, query_codes, query_values,
                           n_groups).astype(np.float64)
    if ties == "half":
        above = count_at_least(ref_codes, ref_values, query_codes, query_values,
                               n_groups, strict=True)
        wrong = 0.5 * (wrong + above)
    n_pairs = (n_top_pos * n_top_neg).astype(np.float64)
    correct = n_pairs - np.bincount(query_codes, weights=wrong, minlength=n_groups)
    return correct, n_pairs, ranking


def papk_score(y_true, y_score, *, k, groups=None, average="micro", ties="half",
               pos_label=None):
    """pAp@k: partial AUC over the top-``k`` irrelevant and the top relevant items.

    For each group (user), with ``beta = min(k, n+)`` and ``k' = min(k, n-)``,
    the gain is the fraction of the ``beta * k'`` pairs made of one of the
    ``beta`` highest scored relevant items and one of the ``k'`` highest
    scored irrelevant items in which the relevant item scores higher
    (paper eq. 3 and Theorem 1, as a gain: 1 - risk).

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

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization and
    Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    The paper's Table 1, scorer f1 with k = 2 (relevant items marked 1):

    >>> from skpapk.metrics import papk_score
    >>> y = [1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0]
    >>> s = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> papk_score(y, s, k=2)
    1.0
    >>> papk_score([1, 0, 1, 0], [0.9, 0.8, 0.1, 0.2], k=1, groups=[0, 0, 1, 1],
    ...            average=None)
    array([1., 0.])
    """
    _check_options(average, ties)
    k = check_k(k)
    y_pos, y_score, codes, labels = check_ranking_inputs(
        y_true, y_score, groups, pos_label=pos_label
    )
    n_groups = labels.shape[0]
    n_pos = np.bincount(codes, weights=y_pos, minlength=n_groups).astype(np.intp)
    n_neg = np.bincount(codes, minlength=n_groups) - n_pos
    correct, n_pairs, _ = _pair_gains(
        y_pos, y_score, codes, n_groups,
        n_top_pos=np.minimum(n_pos, k), n_top_neg=np.minimum(n_neg, k), ties=ties,
    )
    return _aggregate(correct, n_pairs, n_pairs > 0, average, "pAp@k")
