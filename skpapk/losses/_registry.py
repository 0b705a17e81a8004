"""The registry of surrogates by name, and :func:`surrogate_loss`.

One string registry, :data:`SURROGATES`, drives the dispatch here and the
``surrogate`` parameter constraint of :class:`skpapk.PApKRanker` (as
``SGDClassifier.loss_functions`` does): a new surrogate is one small
:class:`BaseSurrogate` subclass and one entry below.
"""

from ..utils._validation import check_k, check_ranking_inputs
from ._losses import (
    AvgSurrogate,
    BaseSurrogate,
    MaxSurrogate,
    PAUCSurrogate,
    RampSurrogate,
    TightStructSurrogate,
)
from ._preck import PrecAtKSurrogate

#: Every surrogate by name: the four of the pAp@k paper and the two
#: baselines' ("pauc": SVM-pAUC, "preck": SGD@k-avg).
SURROGATES = {
    "avg": AvgSurrogate,
    "max": MaxSurrogate,
    "ts": TightStructSurrogate,
    "ramp": RampSurrogate,
    "pauc": PAUCSurrogate,
    "preck": PrecAtKSurrogate,
}


def get_surrogate(surrogate):
    """A :class:`BaseSurrogate` instance from its name (or the instance itself)."""
    if isinstance(surrogate, BaseSurrogate):
        return surrogate
    if isinstance(surrogate, str) and surrogate in SURROGATES:
        return SURROGATES[surrogate]()
    raise ValueError(
        f"surrogate must be one of {sorted(SURROGATES)} (or a BaseSurrogate "
        f"instance), got {surrogate!r}."
    )


def surrogate_loss(y_true, y_score, groups=None, *, k, surrogate="avg",
                   pos_label=None):
    """Mean-over-groups pAp@k surrogate and its per-row subgradient coefficients.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels (any two values, the greater is relevant
        unless ``pos_label`` is given).
    y_score : array-like of shape (n_samples,)
        Scores ``X @ w``.
    groups : array-like of shape (n_samples,), default=None
        Group (user / query) label of every row; ``None``: one group.
    k : int
        Number of items shown to each user.
    surrogate : {"avg", "max", "ts", "ramp", "pauc", "preck"}, default="avg"
        ``"avg"`` (eq. 10), ``"max"`` (eq. 24), ``"ts"`` (eq. 14), ``"ramp"``
        (eq. 6) of Hiranandani et al. (2020), ``"pauc"``, the structural
        SVM surrogate of pAUC(0, k/n-], or ``"preck"``, the prec@k avg
        surrogate of Kar et al. (2015) (:class:`PrecAtKSurrogate`).
    pos_label : int, float, bool or str, default=None
        The relevant label.

    Returns
    -------
    value : float
        Mean over groups of the group surrogate; groups without a positive or
        without a negative are left out (0.0 when none is left).
    coef : ndarray of float64 of shape (n_samples,)
        One coefficient per row: ``X.T @ coef`` is a subgradient of ``value``
        at ``w`` when ``y_score = X @ w`` (Algorithm 2 of the paper).

    See Also
    --------
    skpapk.metrics.papk_score : the metric the surrogates bound.

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization and
    Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    >>> from skpapk.losses import surrogate_loss
    >>> value, coef = surrogate_loss([1, 1, 0, 0], [10., -1., 0., -5.], k=2,
    ...                              surrogate="max")
    >>> value
    0.5
    >>> coef
    array([ 0.  , -0.25,  0.25,  0.  ])
    >>> surrogate_loss([1, 1, 0, 0], [10., -1., 0., -5.], k=2)[0]
    0.0
    """
    k = check_k(k)
    loss = get_surrogate(surrogate)
    y_pos, y_score, codes, labels = check_ranking_inputs(
        y_true, y_score, groups, pos_label=pos_label)
    value, coef, _ = loss.loss_gradient(y_pos, y_score, codes, labels.shape[0], k)
    return value, coef
