"""The metrics the commands print: micro-pAp@k, prec@k and pAUC(0, k/n-].

They go straight to the metric kernels (:mod:`skpapk.metrics._kernels`),
on inputs the commands have already checked: no scikit-learn validation,
so ``score`` and ``recommend`` run without importing scikit-learn. The
values are those of :func:`skpapk.metrics.papk_score`,
:func:`~skpapk.metrics.precision_at_k_score` and
:func:`~skpapk.metrics.partial_auc_score` with their defaults (micro
average, ``ties="random"``), groups without a relevant or an irrelevant row
left out; the random column is their exact expectation under a uniformly
random ranking (:func:`~skpapk.metrics.expected_papk_score`, ...).
"""

import numpy as np

from ..metrics import _kernels
from ..utils._groups import defined_groups, descending_order, encode_compact_ints
from ._output import CLIError


def _codes(groups):
    """Codes ``0..n_groups-1`` of the group ids, and ``n_groups``."""
    groups = np.asarray(groups)
    if groups.dtype.kind in "iu" and groups.size:  # codes or ids: no sort
        encoded = encode_compact_ints(groups, groups.shape[0])
        if encoded is not None:
            return encoded[0], encoded[1].shape[0]
    labels, codes = np.unique(groups, return_inverse=True)
    return codes.reshape(-1).astype(np.intp, copy=False), labels.shape[0]


def describe_groups(y_pos, groups):
    """``'N rows, G groups (U without ...)'`` for progress lines.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.cli._metrics import describe_groups
    >>> describe_groups(np.array([True, False, True]), np.array([5, 5, 7]))[:40]
    '3 rows, 2 groups (1 without a relevant o'
    """
    codes, n_groups = _codes(groups)
    undefined = n_groups - int(np.count_nonzero(
        defined_groups(y_pos, codes, n_groups)))
    text = f"{y_pos.shape[0]} rows, {n_groups} groups"
    if undefined:
        text += (f" ({undefined} without a relevant or an irrelevant row: left "
                 f"out of pAp@k and pAUC)")
    return text


def _ratio(numerator, denominator):
    defined = denominator > 0
    return _kernels.micro_average(
        _kernels.group_ratios(numerator, denominator, defined), defined)


def ranking_metrics(y_pos, scores, groups, k):
    """micro-pAp@k, prec@k and pAUC(0, k/n-] of ``scores``.

    Parameters
    ----------
    y_pos : ndarray of bool of shape (n,)
        Relevance of every row.
    scores : ndarray of float of shape (n,)
        The model's scores.
    groups : ndarray of shape (n,)
        Group id (or code) of every row.
    k : int

    Returns
    -------
    papk, prec, pauc : float
        NaN where no group is defined.

    Examples
    --------
    The paper's Table 1, scorer f1 (one user, k = 2):

    >>> import numpy as np
    >>> from skpapk.cli._metrics import ranking_metrics
    >>> y = np.array([0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0], dtype=bool)
    >>> s = np.arange(11.0, 0.0, -1.0)
    >>> [round(v, 4) for v in ranking_metrics(y, s, np.zeros(11, int), 2)]
    [0.5, 0.5, 0.2]
    """
    scores = np.asarray(scores, dtype=np.float64)
    if not np.isfinite(scores).all():
        raise CLIError("the model gives scores that are not finite numbers (NaN "
                       "or infinite) on this file; check its features (their "
                       "scale, or values far from those it was trained on).")
    y_pos = np.asarray(y_pos, dtype=bool)
    codes, n_groups = _codes(groups)
    counts = _kernels.label_counts(y_pos, codes, n_groups)
    by_score = descending_order(scores, stable=False)  # one sort for the three
    papk = _kernels.papk_gains(y_pos, scores, codes, n_groups, k, counts=counts,
                               by_score=by_score)
    pauc = _kernels.partial_auc_gains(y_pos, scores, codes, n_groups, k,
                                      counts=counts, by_score=by_score)
    hits = _kernels.top_k_hits(y_pos, scores, codes, n_groups, k,
                               by_score=by_score)
    prec = _kernels.micro_average(hits / k, np.ones(n_groups, dtype=bool))
    return _ratio(*papk), prec, _ratio(*pauc)


def random_metrics(y_pos, groups, k):
    """The same three metrics, exactly expected under a uniformly random
    ranking.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.cli._metrics import random_metrics
    >>> y = np.array([1, 0, 0, 1, 1, 0], dtype=bool)
    >>> [round(v, 4) for v in random_metrics(y, np.array([0, 0, 0, 1, 1, 1]), 2)]
    [0.5, 0.5, 0.5]
    """
    y_pos = np.asarray(y_pos, dtype=bool)
    codes, n_groups = _codes(groups)
    n_pos, n_neg, _ = _kernels.label_counts(y_pos, codes, n_groups)
    defined = (n_pos > 0) & (n_neg > 0)
    papk = _kernels.micro_average(
        _kernels.expected_papk_gain(n_pos, n_neg, k), defined)
    prec = _kernels.micro_average(
        _kernels.expected_top_k_hits(n_pos, n_neg, k) / k, n_pos + n_neg > 0)
    pauc = _kernels.micro_average(
        _kernels.expected_partial_auc_gain(n_pos, n_neg, k), defined)
    return papk, prec, pauc
