"""The registry of surrogates by name, and :func:`surrogate_loss`.

One registry, :data:`SURROGATES` (keyed by each class's ``name``), drives
the dispatch here and, through its part :data:`RANKER_SURROGATES`, the
``surrogate`` parameter constraint of :class:`skpapk.PApKRanker` (as
``SGDClassifier.loss_functions`` does): a new surrogate is one small
:class:`BaseSurrogate` subclass and one entry below.
"""

import difflib
from numbers import Real

from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from .. import _defaults
from ..utils._arrays import check_sample_weight
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
from ._smooth import GROUP_WEIGHTS, PairwiseLogisticSurrogate, SoftPApKSurrogate

#: Every surrogate class by name: the four of the pAp@k paper ("avg":
#: :class:`AvgSurrogate`, "max": :class:`MaxSurrogate`, "ts":
#: :class:`TightStructSurrogate`, "ramp": :class:`RampSurrogate`), the two
#: baselines' ("pauc": :class:`PAUCSurrogate`, SVM-pAUC; "preck":
#: :class:`PrecAtKSurrogate`, SGD@k-avg) and the two smooth pairwise ones
#: ("pairwise_logistic": :class:`PairwiseLogisticSurrogate`, "soft_papk":
#: :class:`SoftPApKSurrogate`).
SURROGATES = {cls.name: cls for cls in (
    AvgSurrogate,
    MaxSurrogate,
    TightStructSurrogate,
    RampSurrogate,
    PAUCSurrogate,
    PrecAtKSurrogate,
    PairwiseLogisticSurrogate,
    SoftPApKSurrogate,
)}

#: Those :class:`skpapk.PApKRanker` trains on: all but the baselines' own
#: ("pauc" of ``PAUCRanker``, "preck" of ``PrecAtKRanker``).
RANKER_SURROGATES = {name: cls for name, cls in SURROGATES.items()
                     if cls not in (PAUCSurrogate, PrecAtKSurrogate)}

#: The names of the differentiable surrogates (those with a Hessian), a
#: tuple: ``("pairwise_logistic", "soft_papk")``.
SMOOTH_SURROGATES = tuple(name for name, cls in SURROGATES.items() if cls.smooth)


def get_surrogate(surrogate, **params):
    """A :class:`BaseSurrogate` instance from its name (or the instance itself).

    ``params`` (e.g. ``temperature``) go to the constructor of the surrogates
    that take them (:attr:`BaseSurrogate.hyperparameters`); the others ignore
    them. A name that no surrogate takes (a misspelling) is a ``TypeError``.

    Parameters
    ----------
    surrogate : str or BaseSurrogate
        A name of :data:`SURROGATES` (``"avg"``, ``"max"``, ``"ts"``,
        ``"ramp"``, ``"pauc"``, ``"preck"``, ``"pairwise_logistic"``,
        ``"soft_papk"``), or an instance, returned as it is. Anything else
        raises a ``ValueError``.
    **params : dict
        Hyper-parameters of the surrogate (``temperature``,
        ``group_weight``, ``truncation_level``); those it does not take, but
        another surrogate does, are ignored.

    Returns
    -------
    surrogate : BaseSurrogate
        The surrogate instance.

    See Also
    --------
    surrogate_loss : The value and gradient of a surrogate by name.

    Examples
    --------
    >>> from skpapk.losses import get_surrogate
    >>> get_surrogate("soft_papk", temperature=3.0)
    SoftPApKSurrogate(temperature=3.0, group_weight='uniform', truncation_level=None)
    >>> get_surrogate("max", temperature=3.0)      # takes no temperature
    MaxSurrogate()
    >>> get_surrogate("soft_papk", temperatur=3.0)
    Traceback (most recent call last):
    ...
    TypeError: get_surrogate got temperatur=3.0, a parameter of no surrogate; ...
    """
    known = sorted({name for cls in SURROGATES.values()
                    for name in cls.hyperparameters})
    for name, value in params.items():
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            raise TypeError(
                f"get_surrogate got {name}={value!r}, a parameter of no "
                f"surrogate; they take {', '.join(known)}"
                + (f" (did you mean {close[0]}?)." if close else "."))
    if isinstance(surrogate, BaseSurrogate):
        return surrogate
    if isinstance(surrogate, str) and surrogate in SURROGATES:
        cls = SURROGATES[surrogate]
        return cls(**{name: params[name] for name in cls.hyperparameters
                      if name in params})
    raise ValueError(
        f"surrogate must be one of {sorted(SURROGATES)} (or a BaseSurrogate "
        f"instance), got {surrogate!r}."
    )


@validate_params(
    {
        "y_true": ["array-like"],
        "y_score": ["array-like"],
        "groups": ["array-like", None],
        "surrogate": [StrOptions(set(SURROGATES)), BaseSurrogate],
        "temperature": [Interval(Real, 0, None, closed="neither")],
        "group_weight": [StrOptions(set(GROUP_WEIGHTS))],
        "sample_weight": ["array-like", None],
        "return_hessian": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def surrogate_loss(y_true, y_score, groups=None, *, k,
                   surrogate=_defaults.LOSS_SURROGATE,
                   temperature=_defaults.TEMPERATURE,
                   group_weight=_defaults.SURROGATE_GROUP_WEIGHT, sample_weight=None,
                   return_hessian=False, pos_label=None):
    """Compute a pAp@k surrogate, averaged over groups, and its per-row gradient.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels: ``pos_label``, else the greater of two
        numbers, is relevant (labels that are not numbers need ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores ``X @ w``.
    groups : array-like of shape (n_samples,), default=None
        Group (user / query) label of every row; ``None``: one group.
    k : int
        Number of items shown to each user, read by every surrogate but
        ``"pairwise_logistic"`` (which compares every relevant/irrelevant
        pair whatever ``k``); ``"soft_papk"`` reads it for its soft top-k
        pairs.
    surrogate : str, default="avg"
        A name of :data:`SURROGATES`: ``"avg"`` (eq. 10), ``"max"``
        (eq. 24), ``"ts"`` (eq. 14, as Algorithm 2 computes it), ``"ramp"``
        (eq. 6) of Hiranandani et
        al. (2020), ``"pauc"``, the structural SVM surrogate of
        pAUC(0, k/n-], ``"preck"``, the prec@k avg surrogate of Kar et al.
        (2015) (:class:`PrecAtKSurrogate`), or the smooth
        ``"pairwise_logistic"`` and ``"soft_papk"``
        (:class:`PairwiseLogisticSurrogate`, :class:`SoftPApKSurrogate`);
        or a surrogate instance, used as it is: its own hyper-parameters
        (``temperature``, ``group_weight``, ``truncation_level``) hold, and
        ``temperature`` and ``group_weight`` below are ignored (but a
        piecewise-linear surrogate, which weighs every group alike, refuses
        a ``group_weight`` other than ``"uniform"``, as by name).
    temperature : float, default=1.0
        Temperature of ``"soft_papk"`` (ignored by the others).
    group_weight : {"uniform", "inverse_variance"}, default="uniform"
        Weight of each group in the mean over groups, smooth surrogates only
        (:func:`~skpapk.losses.group_weights`); the others weigh every group
        alike.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights of the rows, 0 or from 1e-30 to 1e30
        (their products stay finite); smooth surrogates only
        (a surrogate instance with a ``truncation_level`` keeps the top rows
        by count, not by weight: weights are then not exact copies).
    return_hessian : bool, default=False
        Also return the Hessian diagonal; smooth surrogates only.
    pos_label : int, float, bool or str, default=None
        The relevant label; needed when the labels are not numbers
        (e.g. ``"clicked"``/``"not_clicked"``).

    Returns
    -------
    value : float
        Mean over groups of the group surrogate; groups without a positive or
        without a negative are left out (0.0 when none is left).
    coef : ndarray of float64 of shape (n_samples,)
        One coefficient per row: ``X.T @ coef`` is a subgradient of ``value``
        at ``w`` when ``y_score = X @ w`` (Algorithm 2 of the paper); the
        gradient with respect to ``y_score`` for the smooth surrogates.
    hess : ndarray of float64 of shape (n_samples,)
        Only with ``return_hessian=True``: the Hessian diagonal with respect
        to ``y_score`` (with the soft top-k weights held fixed for
        ``"soft_papk"``).

    See Also
    --------
    skpapk.metrics.papk_score : The metric the surrogates bound.

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
    >>> value, grad, hess = surrogate_loss([1, 0], [0., 0.], k=1,
    ...     surrogate="pairwise_logistic", return_hessian=True)
    >>> round(value, 4), grad, hess     # log(2); -/+ 1/2; 1/4
    (0.6931, array([-0.5,  0.5]), array([0.25, 0.25]))
    """
    k = check_k(k)
    loss = get_surrogate(surrogate, temperature=temperature,
                         group_weight=group_weight)
    y_pos, y_score, codes, labels = check_ranking_inputs(
        y_true, y_score, groups, pos_label=pos_label)
    if not loss.smooth and (return_hessian or sample_weight is not None
                            or group_weight != "uniform"):
        raise ValueError(
            f"surrogate={surrogate!r} is piecewise linear: it has no Hessian "
            f"and takes no sample_weight or group_weight; use a smooth "
            f"surrogate ({', '.join(map(repr, SMOOTH_SURROGATES))}) or drop "
            f"return_hessian / sample_weight / group_weight."
        )
    n_groups = labels.shape[0]
    if not loss.smooth:
        value, coef, _ = loss.loss_gradient(y_pos, y_score, codes, n_groups, k,
                                            check_input=False)
        return value, coef
    if sample_weight is not None:
        sample_weight = check_sample_weight(sample_weight, y_score)
    value, grad, hess, _ = loss.loss_gradient_hessian(
        y_pos, y_score, codes, n_groups, k, sample_weight=sample_weight,
        hessian=return_hessian)
    return (value, grad, hess) if return_hessian else (value, grad)
