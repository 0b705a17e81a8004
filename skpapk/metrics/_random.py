"""Exact scores of a uniformly random ranking (baselines) and worst cases.

Worst-case and expected average precision follow A. Ziai, "Ranking metrics
from first principles: Average Precision" (2023); :func:`expected_papk` is
its pAp@k analogue. Nothing here simulates: the expectations are exact
sums (the per-group ones are in :mod:`skpapk.metrics._kernels`).
"""

import numpy as np
from scipy.special import digamma

from ..utils._arrays import check_one_per_row
from ..utils._labels import check_binary_target
from ..utils._validation import check_groups, check_k
from ._common import _aggregate, _check_options
from ._kernels import (
    expected_papk_gain,
    expected_partial_auc_gain,
    expected_top_k_hits,
    label_counts,
)

#: The largest count of items that pAp@k's expectation takes: its binomials
#: go through log Gamma, whose rounding reaches about 5e-6 of a score at
#: 10**9 items (1e-9 at 10**6). The average precision's closed form takes
#: any count that int64 sums hold.
MAX_COUNT = 10**9
MAX_COUNT_AP = 2**62
#: The most relevant items, in all, of :func:`worst_average_precision`'s
#: exact sum (one term each: about a minute at 10**9), summed in chunks of
#: ``WORST_AP_CHUNK`` terms (about 300 MB at 10**7).
MAX_WORST_AP_TERMS = 10**9
WORST_AP_CHUNK = 10**7


def _check_counts(name, values, *, minimum, most=MAX_COUNT):
    """Integer array of counts >= ``minimum`` (a clear error otherwise)."""
    arr = np.asarray(values)
    if arr.dtype == bool or arr.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} must be an integer or an array of integers, got "
            f"{values!r}."
        )
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ValueError(
                f"{name} must hold whole numbers (counts of items), got "
                f"{values!r}."
            )
    if arr.size and np.max(np.abs(arr)) > most:  # before int64 wraps around
        if arr.dtype.kind != "u" and np.min(arr) < 0:
            raise ValueError(f"{name} must be >= {minimum}, got {values!r}.")
        limit = "10**9" if most == MAX_COUNT else "2**62"
        raise ValueError(f"{name} must be at most {limit} (a count of items; "
                         f"beyond, the sums lose their digits), got "
                         f"{values!r}.")
    arr = arr.astype(np.int64)
    if np.any(arr < minimum):
        raise ValueError(f"{name} must be >= {minimum}, got {values!r}.")
    return arr


def _harmonic(n):
    """Harmonic numbers H_n = 1 + 1/2 + ... + 1/n (H_0 = 0), vectorised."""
    return digamma(np.asarray(n, dtype=np.float64) + 1.0) + np.euler_gamma


def _scalar_or_array(values, shape):
    values = np.asarray(values)
    return float(values.reshape(-1)[0]) if shape == () else values.reshape(shape)


def worst_average_precision(n_items, n_pos):
    """Smallest average precision of a list: every irrelevant item ranked first.

    ``(1/P) * sum_{i=1..P} i / (N - P + i)`` for ``N = n_items`` items of
    which ``P = n_pos`` are relevant (the average-precision tutorial's
    worst case). Computed as that exact sum (no cancellation), vectorised
    over broadcast arrays: one term per relevant item, in chunks of 10**7
    terms, so the ``n_pos`` add up to at most 10**9.

    Parameters
    ----------
    n_items : int or array-like of int
        Number of items ``N >= 1``.
    n_pos : int or array-like of int
        Number of relevant items, ``0 <= P <= N``; their total at most
        10**9.

    Returns
    -------
    ap : float or ndarray
        NaN where ``P = 0`` (AP is undefined without a relevant item).

    See Also
    --------
    expected_average_precision : AP of a uniformly random ranking.
    mean_average_precision_score : AP of a ranking.

    Examples
    --------
    >>> from skpapk.metrics import worst_average_precision
    >>> round(worst_average_precision(5, 3), 4)
    0.4778
    >>> worst_average_precision(5, 2)
    0.325
    >>> worst_average_precision([2, 1000], [1, 500])
    array([0.5       , 0.30735257])
    """
    n_items, n_pos = _check_pair(n_items, n_pos)
    shape = n_items.shape
    n_items, n_pos = n_items.ravel(), n_pos.ravel()
    total_pos = int(n_pos.sum(dtype=object))  # no int64 overflow
    if total_pos > MAX_WORST_AP_TERMS:
        raise ValueError(
            f"n_pos adds up to {total_pos}: worst_average_precision sums one "
            f"term per relevant item, at most 10**9 in all (a minute); pass "
            f"fewer or smaller counts.")
    # the terms in chunks of WORST_AP_CHUNK, in order: chunk c holds terms
    # c * WORST_AP_CHUNK.. of the list of every owner's 1..P
    ends = np.cumsum(n_pos)
    total = np.zeros(n_pos.shape[0])
    for lo in range(0, total_pos, WORST_AP_CHUNK):
        term = np.arange(lo, min(lo + WORST_AP_CHUNK, total_pos), dtype=np.int64)
        owner = np.searchsorted(ends, term, side="right")
        i = (term - (ends[owner] - n_pos[owner]) + 1).astype(np.float64)
        total += np.bincount(owner, weights=i / (n_items[owner] - n_pos[owner] + i),
                             minlength=n_pos.shape[0])
    with np.errstate(invalid="ignore", divide="ignore"):
        ap = np.where(n_pos > 0, total / np.maximum(n_pos, 1), np.nan)
    return _scalar_or_array(ap, shape)


def _check_pair(n_items, n_pos):
    n_items = _check_counts("n_items", n_items, minimum=1, most=MAX_COUNT_AP)
    n_pos = _check_counts("n_pos", n_pos, minimum=0, most=MAX_COUNT_AP)
    try:
        n_items, n_pos = np.broadcast_arrays(n_items, n_pos)
    except ValueError as exc:
        raise ValueError(
            f"n_items and n_pos must broadcast together, got shapes "
            f"{n_items.shape} and {n_pos.shape}."
        ) from exc
    if np.any(n_pos > n_items):
        raise ValueError(
            "n_pos must be <= n_items (there cannot be more relevant items "
            "than items)."
        )
    return n_items, n_pos


def expected_average_precision(n_items, n_pos):
    """Exact expected average precision of a uniformly random ranking.

    ``E[AP] = (1/N) * sum_{n=1..N} [1/n + (P - 1)/(N - 1) * (n - 1)/n]``
    ``= (1/N) * [H_N + (P - 1)/(N - 1) * (N - H_N)]`` with ``H_N`` the
    ``N``-th harmonic number: the item at position ``n`` is relevant with
    probability ``P/N`` and, given that, the ``n - 1`` items above it hold
    ``(n - 1)(P - 1)/(N - 1)`` relevant ones on average. O(1) per entry; it
    tends to ``P / N`` as ``N`` grows (the average-precision tutorial's
    baseline). ``N = 1`` gives 1.

    Parameters
    ----------
    n_items : int or array-like of int
        Number of items ``N >= 1``.
    n_pos : int or array-like of int
        Number of relevant items, ``0 <= P <= N``.

    Returns
    -------
    ap : float or ndarray
        NaN where ``P = 0``.

    See Also
    --------
    worst_average_precision : The smallest AP.
    expected_papk : The same baseline for pAp@k.

    Examples
    --------
    >>> from skpapk.metrics import expected_average_precision
    >>> expected_average_precision(2, 1)
    0.75
    >>> expected_average_precision([3, 10], [2, 10])
    array([0.80555556, 1.        ])
    """
    n_items, n_pos = _check_pair(n_items, n_pos)
    shape = n_items.shape
    big_n = n_items.astype(np.float64)
    harmonic = _harmonic(big_n)
    with np.errstate(invalid="ignore", divide="ignore"):
        slope = np.where(n_items > 1, (n_pos - 1) / np.maximum(big_n - 1, 1), 0.0)
        ap = (harmonic + slope * (big_n - harmonic)) / big_n
    ap = np.where(n_pos > 0, ap, np.nan)
    return _scalar_or_array(ap, shape)


def expected_papk(n_pos, n_neg, k):
    """Exact expected pAp@k gain of a group under a uniformly random ranking.

    With ``beta = min(k, n+)`` and ``k' = min(k, n-)``, the ``i``-th relevant
    item is above the ``j``-th irrelevant one exactly when at least ``i`` of
    the first ``i + j - 1`` items are relevant, a hypergeometric event, so

    ``E = (1/(beta k')) * sum_{i<=beta} sum_{j<=k'} P[H(n+ + n-, n+, i + j - 1) >= i]``.

    A random ranking has no ties, so this holds for every ``ties`` rule of
    :func:`papk_score`; with the default rule, ``ties="random"``, a scorer
    that gives all items of the group the same score gets exactly this.
    Computed once per distinct ``(n_pos, n_neg)`` pair, the ``(i, j)`` grids
    of all pairs in one vectorised call (``beta * k'`` terms each: about
    20 s for one pair at ``k = 10**4``, growing with ``k**2``). Exact up
    to rounding: the binomials go through ``log Gamma``, so the error grows
    with the counts, up to a few 1e-9 at a million items, a few 1e-7 at
    10**8 and 5e-6 at 10**9, the largest count taken (the gain is clipped to
    ``[0, 1]``).

    Parameters
    ----------
    n_pos : int or array-like of int
        Number of relevant items of the group(s), ``>= 0``.
    n_neg : int or array-like of int
        Number of irrelevant items, ``>= 0``; broadcast with ``n_pos``.
    k : int
        Number of items shown.

    Returns
    -------
    gain : float or ndarray
        NaN where ``n_pos`` or ``n_neg`` is 0 (pAp@k is undefined).

    See Also
    --------
    papk_score : The pAp@k of a ranking.
    expected_papk_score : The micro average over the groups of a data set.

    Examples
    --------
    >>> from skpapk.metrics import expected_papk
    >>> expected_papk(1, 1, k=1)
    0.5
    >>> expected_papk(5, 6, k=2)
    0.4469...
    >>> expected_papk([1, 0], [10, 3], k=5)
    array([0.27272727,        nan])
    """
    k = check_k(k)
    n_pos = _check_counts("n_pos", n_pos, minimum=0)
    n_neg = _check_counts("n_neg", n_neg, minimum=0)
    try:
        n_pos, n_neg = np.broadcast_arrays(n_pos, n_neg)
    except ValueError as exc:
        raise ValueError(
            f"n_pos and n_neg must broadcast together, got shapes "
            f"{n_pos.shape} and {n_neg.shape}."
        ) from exc
    return _scalar_or_array(expected_papk_gain(n_pos, n_neg, k), n_pos.shape)


def _group_label_counts(y_true, groups, pos_label):
    """Relevant and irrelevant rows of each group (validated inputs)."""
    check_one_per_row(y_true, input_name="y_true", example="y_true=[1, 0, 0]")
    y_pos = check_binary_target(y_true, pos_label=pos_label)[0]
    codes, labels = check_groups(groups, y_pos.shape[0])
    return label_counts(y_pos, codes, labels.shape[0])[:2]


def expected_papk_score(y_true, *, k, groups=None, average="micro",
                        pos_label=None, zero_division="warn"):
    """The pAp@k of a uniformly random ranking of the same groups (the baseline).

    Computes :func:`expected_papk` for each group's ``(n+, n-)`` and averages
    as :func:`papk_score` does, so a model's ``papk_score(y, s, k=k,
    groups=g)`` can be read next to ``expected_papk_score(y, k=k,
    groups=g)``. Exact: the expectation of the pooled average is the pooled
    average of the expectations (each group's pair count is fixed).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels: ``pos_label``, else the greater of two
        numbers, is relevant (labels that are not numbers need ``pos_label``).
    k : int
        Number of items shown to each user.
    groups : array-like of shape (n_samples,), default=None
        Group id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        As in :func:`papk_score`.
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
    papk_score : The pAp@k of a ranking.
    expected_papk : The expectation for given counts.

    Examples
    --------
    >>> from skpapk.metrics import expected_papk_score, papk_score
    >>> y = [1, 0, 0, 1, 1, 0]
    >>> g = [0, 0, 0, 1, 1, 1]
    >>> expected_papk_score(y, k=2, groups=g)
    0.5
    >>> papk_score(y, [3, 2, 1, 3, 2, 1], k=2, groups=g)
    1.0
    """
    _check_options(average, zero_division=zero_division)
    k = check_k(k)
    n_pos, n_neg = _group_label_counts(y_true, groups, pos_label)
    n_pairs = (np.minimum(n_pos, k) * np.minimum(n_neg, k)).astype(np.float64)
    defined = n_pairs > 0
    gain = np.where(defined, expected_papk_gain(n_pos, n_neg, k), 0.0)
    return _aggregate(gain * n_pairs, n_pairs, defined, average,
                      "Expected pAp@k",
                      zero_division=zero_division)


def expected_precision_at_k_score(y_true, *, k, groups=None, average="micro",
                                  pos_label=None):
    """The prec@k of a uniformly random ranking of the same groups (the baseline).

    A group of ``n`` rows, ``n+`` relevant, shows ``min(k, n)`` rows, of
    which ``min(k, n) * n+ / n`` are relevant on average; prec@k divides by
    ``k``, as :func:`precision_at_k_score`, and is defined for every group.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels.
    k : int
        Number of items shown to each user.
    groups : array-like of shape (n_samples,), default=None
        Group (user) id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        As in :func:`precision_at_k_score`.
    pos_label : int, float, bool or str, default=None
        The relevant label; needed when the labels are not numbers
        (e.g. ``"clicked"``/``"not_clicked"``).

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        The expected prec@k of every group with ``average=None``, else one
        number, as ``average`` says.

    See Also
    --------
    precision_at_k_score : The metric of a given ranking.
    expected_papk_score : The same baseline for pAp@k.

    Examples
    --------
    >>> from skpapk.metrics import expected_precision_at_k_score
    >>> expected_precision_at_k_score([1, 0, 0, 0], k=2)
    0.25
    """
    _check_options(average)
    k = check_k(k)
    n_pos, n_neg = _group_label_counts(y_true, groups, pos_label)
    n = n_pos + n_neg
    hits = expected_top_k_hits(n_pos, n_neg, k)
    return _aggregate(hits, np.full(n.shape[0], float(k)), n > 0, average,
                      "Expected prec@k")


def expected_partial_auc_score(y_true, *, k, groups=None, average="micro",
                               pos_label=None, zero_division="warn"):
    """The pAUC(0, k/n-] of a uniformly random ranking of the same groups.

    A relevant item lies above the ``j``-th highest irrelevant one with
    probability ``j / (n- + 1)`` (its place among the irrelevant items is
    uniform over ``n- + 1`` slots), so the expected gain of a group is
    ``(k' + 1) / (2 (n- + 1))`` with ``k' = min(k, n-)``. Groups without a
    relevant or an irrelevant item are left out, as in
    :func:`partial_auc_score`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels.
    k : int
        Number of irrelevant items at the top that count.
    groups : array-like of shape (n_samples,), default=None
        Group (user) id of each row; ``None``: one group.
    average : {"micro", "pooled"} or None, default="micro"
        As in :func:`partial_auc_score`.
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
        The expected pAUC(0, k/n-] of every group with ``average=None``,
        else one number, as ``average`` says.

    See Also
    --------
    partial_auc_score : The metric of a given ranking.
    expected_papk_score : The same baseline for pAp@k.

    Examples
    --------
    >>> from skpapk.metrics import expected_partial_auc_score
    >>> expected_partial_auc_score([1, 0, 0], k=3)
    0.5
    """
    _check_options(average, zero_division=zero_division)
    k = check_k(k)
    n_pos, n_neg = _group_label_counts(y_true, groups, pos_label)
    n_pairs = (n_pos * np.minimum(n_neg, k)).astype(np.float64)
    defined = n_pairs > 0
    gain = np.where(defined, expected_partial_auc_gain(n_pos, n_neg, k), 0.0)
    return _aggregate(gain * n_pairs, n_pairs, defined, average,
                      "Expected pAUC",
                      zero_division=zero_division)
