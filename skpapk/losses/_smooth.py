"""Smooth pairwise surrogates of pAp@k: pairwise logistic and soft top-k.

Both are means over groups (users) of a weighted pairwise logistic loss
``l(z) = log(1 + exp(-z))`` of the score differences ``z = s_i - s_j`` of the
group's (relevant ``i``, irrelevant ``j``) pairs::

    L_g = sum_i sum_j u_i v_j l(s_i - s_j),   sum_i u_i = sum_j v_j = 1

so that a user's weight does not grow with its number of pairs: with the
uniform group weights (these classes' default) every user counts equally,
as in the mean over users of micro-pAp@k (eq. 17 of Hiranandani et al.,
2020), whatever its number of rows; ``"inverse_variance"`` (the
estimators' default) weighs a user by a weight that grows as
``min(n+, n-)`` (:func:`group_weights`).

- ``"pairwise_logistic"``: uniform weights ``u_i = 1 / n+``,
  ``v_j = 1 / n-`` (a smooth surrogate of the AUC of every user; RankNet's
  loss averaged per user).
- ``"soft_papk"``: soft top-k weights. ``u_i = p_i / beta`` with
  ``p_i = sigmoid((s_i - t+) / T)`` and the threshold ``t+`` chosen so that
  ``sum_i p_i = beta = min(k, n+)``; likewise ``v_j = q_j / k'`` with
  ``sum_j q_j = k' = min(k, n-)``. As the temperature ``T`` grows the
  weights become uniform and the loss tends to ``"pairwise_logistic"``
  (AUC); as ``T`` goes to 0 they tend to the indicators of the top
  ``beta`` relevant and top ``k'`` irrelevant rows, the pairs of pAp@k
  (Definition 1, eq. 1). A group with ``n+ <= k`` keeps all its relevant
  rows (``p_i = 1``), as pAp@k does.

Row weights ``sample_weight`` act as frequency weights: a row of weight 2
counts as two copies of the row (in ``n+``, ``n-``, the top-k masses and
the pairs). With a ``truncation_level`` ``T``, the top ``T`` rows of a
label are counted in rows, not in weight, so a weighted row is then not
exactly two copies.

The gradient is exact, including the terms that flow through the soft
thresholds (implicit differentiation of ``sum_i p_i = beta``). The Hessian
returned is the diagonal of the Hessian with the weights ``u``, ``v`` held
fixed: exact for ``"pairwise_logistic"``, and for ``"soft_papk"`` a
positive curvature (Gauss-Newton-like, as LambdaMART's) that boosting needs.

The pairs are never stored: a compiled kernel
(:mod:`skpapk.losses._pair_kernels`) sums each group's pairs in place,
groups in parallel threads, with no Python loop over groups and memory
linear in the number of rows. The cost is ``O(sum_g n+_g * n-_g)`` per
evaluation, or ``O(sum_g T * n_g)`` with a truncation level ``T``
(``truncation_level``: only the pairs with a row among its group's ``T``
highest scored rows of its label), which bounds the cost of users with
long candidate lists.
"""

import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit

from .. import _defaults
from ..utils._groups import label_segments, segment_starts, stable_sort_by_codes
from ..utils._validation import check_k
from ._checks import check_layout_inputs as _check_layout_inputs
from ._checks import check_scores as _check_scores
from ._losses import BaseSurrogate

#: Maximum number of safeguarded Newton steps for the soft thresholds.
_MAX_THRESHOLD_STEPS = 200


def check_truncation_level(level):
    """The kernel's truncation level of ``truncation_level`` (0: None, every
    pair); anything but None or a positive int (a bool too) is a
    ``ValueError``. A level beyond int64 keeps every pair as None does (no
    group has that many rows): it is passed on as the int64 maximum."""
    if level is None:
        return 0
    if isinstance(level, (bool, np.bool_)) or not isinstance(
            level, numbers.Integral) or level < 1:
        raise ValueError(f"truncation_level must be None (every pair) or a "
                         f"positive int, got {level!r}.")
    return min(int(level), np.iinfo(np.int64).max)


@dataclass
class PairLayout:
    """Rows of every group gathered by label, and the enumeration of pairs.

    Depends only on the labels, the groups and the row weights, so an
    optimiser that evaluates a loss many times on the same rows builds it
    once (:func:`make_pair_layout`, which is how to make one).

    Parameters
    ----------
    order : ndarray of intp of shape (n,)
        Rows sorted by group, relevant rows first (stable).
    codes : ndarray of intp of shape (n,)
        Group code of every row, in ``order``.
    y_pos : ndarray of bool of shape (n,)
        Relevance of every row, in ``order``.
    weight : ndarray of float64 of shape (n,)
        Row weights, in ``order``.
    pos_start, neg_start : ndarray of intp of shape (n_groups,)
        Position in ``order`` of each group's first relevant / irrelevant row.
    n_pos, n_neg : ndarray of intp of shape (n_groups,)
        Numbers of relevant / irrelevant rows of each group.
    mass_pos, mass_neg : ndarray of float64 of shape (n_groups,)
        Their total weights (``n+`` and ``n-`` with frequency weights).
    defined : ndarray of bool of shape (n_groups,)
        Groups with a relevant and an irrelevant row of positive weight.
    pair_start : ndarray of int64 of shape (n_groups + 1,)
        Offset of each defined group's pairs in the enumeration of all pairs
        (a group's pair ``m`` is its relevant row ``m // n-`` against its
        irrelevant row ``m % n-``).
    cache : dict
        Per-row arrays that depend only on the layout (score-free pair
        weights, per-row factors), computed at the first evaluation and
        reused by the next ones (every boosting round, every solver step).

    Attributes
    ----------
    n_groups : int
        Number of groups (defined or not).
    n_defined : int
        Number of defined groups.
    n_pairs : int
        Number of (relevant, irrelevant) pairs of the defined groups.

    See Also
    --------
    make_pair_layout : Build the layout of labels and groups.
    group_weights : The weights of its groups in a mean over groups.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import make_pair_layout
    >>> y_pos = np.array([True, False, False, True, False])
    >>> codes = np.array([0, 0, 0, 1, 1])               # two users
    >>> layout = make_pair_layout(y_pos, codes, n_groups=2)
    >>> layout.n_pos, layout.n_neg
    (array([1, 1]), array([2, 1]))
    >>> layout.n_pairs                                  # 1 * 2 + 1 * 1
    3
    """

    order: np.ndarray
    codes: np.ndarray
    y_pos: np.ndarray
    weight: np.ndarray
    pos_start: np.ndarray
    neg_start: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray
    mass_pos: np.ndarray
    mass_neg: np.ndarray
    defined: np.ndarray
    pair_start: np.ndarray
    cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_groups(self):
        """Number of groups (defined or not)."""
        return self.defined.shape[0]

    @property
    def n_defined(self):
        """Number of groups with a relevant and an irrelevant row."""
        return int(np.count_nonzero(self.defined))

    @property
    def n_pairs(self):
        """Number of (relevant, irrelevant) pairs of the defined groups."""
        return int(self.pair_start[-1])


def make_pair_layout(y_pos, codes, n_groups, sample_weight=None):
    """Gather every group's relevant and irrelevant rows (see :class:`PairLayout`).

    The layout depends only on the labels, the groups and the row weights:
    build it once for many evaluations of a smooth surrogate on the same
    rows (the ``layout`` argument of their methods). The arguments are
    checked here (once), not at the evaluations that reuse the layout.

    Parameters
    ----------
    y_pos : array-like of bool of shape (n,)
        True for relevant rows (booleans, or the numbers 0 and 1).
    codes : array-like of int of shape (n,)
        Group codes, integers in ``[0, n_groups)``.
    n_groups : int
        Number of groups (at least one more than the largest code; a group
        without rows is allowed).
    sample_weight : array-like of shape (n,) or None
        Non-negative row (frequency) weights, 0 or from 1e-30 to 1e30
        (``WEIGHT_RANGE``); ``None``: ones.

    Returns
    -------
    layout : PairLayout
        The rows sorted by group and label, with the counts, masses and
        pair offsets of every group.

    See Also
    --------
    PairLayout : What the layout holds.
    SmoothPairwiseSurrogate : The surrogates that take it.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import make_pair_layout
    >>> layout = make_pair_layout(np.array([False, True, True, False]),
    ...                           np.array([0, 0, 1, 1]), n_groups=2)
    >>> layout.order                     # by group, relevant rows first
    array([1, 0, 2, 3])
    >>> layout.n_defined, layout.n_pairs
    (2, 2)
    """
    return _make_pair_layout(
        *_check_layout_inputs(y_pos, codes, n_groups, sample_weight))


def _make_pair_layout(y_pos, codes, n_groups, sample_weight=None, *,
                      tie_breaker=None, truncation_level=0):
    """:func:`make_pair_layout` of checked arguments (no checks).

    With a ``tie_breaker`` (a number per row) and a ``truncation_level``
    (the kernel's, 0: none), the rows of each group that the kernel
    truncates (more than that many rows of each label) are laid out by
    increasing ``tie_breaker``, then weight, then row order, instead of
    row order: the kernel ranks tied scores in layout order, so which of
    them make a group's top rows then does not depend on the order of the
    rows. The other groups keep their rows' order (and their sums' bits).
    """
    y_pos = np.asarray(y_pos, dtype=bool)
    codes = np.asarray(codes, dtype=np.intp)
    segments = label_segments(y_pos, codes, n_groups)
    counts = np.bincount(segments, minlength=2 * n_groups)
    first = None
    if tie_breaker is not None and truncation_level > 0:
        cut = ((counts[0::2] > truncation_level)
               & (counts[1::2] > truncation_level))[codes]
        if cut.any():
            rows = np.arange(y_pos.shape[0])
            key = np.where(cut, tie_breaker, tie_breaker.dtype.type(0))
            first = (np.lexsort((rows, key)) if sample_weight is None else
                     np.lexsort((rows, np.where(cut, sample_weight, 0.0), key)))
    order = stable_sort_by_codes(segments, 2 * n_groups, order=first)
    starts = segment_starts(counts)
    weight = (np.ones(y_pos.shape[0]) if sample_weight is None
              else np.asarray(sample_weight, dtype=np.float64))
    mass = np.bincount(segments, weights=weight, minlength=2 * n_groups)
    n_pos, n_neg = counts[0::2], counts[1::2]
    mass_pos, mass_neg = mass[0::2], mass[1::2]
    defined = (mass_pos > 0) & (mass_neg > 0)
    pairs = np.where(defined, n_pos.astype(np.int64) * n_neg, 0)
    pair_start = np.zeros(n_groups + 1, dtype=np.int64)
    np.cumsum(pairs, out=pair_start[1:])
    return PairLayout(
        order=order, codes=codes[order], y_pos=y_pos[order],
        weight=weight[order], pos_start=starts[0::2], neg_start=starts[1::2],
        n_pos=n_pos, n_neg=n_neg, mass_pos=mass_pos, mass_neg=mass_neg,
        defined=defined, pair_start=pair_start,
    )


def soft_top_weights(scores, layout, k, temperature):
    """Soft top-k memberships of the sorted rows, per (group, label) segment.

    In each segment with total weight ``W > k``, ``p = sigmoid((s - t) / T)``
    with ``t`` solving ``sum weight * p = k`` (safeguarded Newton steps on
    all segments at once); in the others ``p = 1``.

    Parameters
    ----------
    scores : ndarray of float64 of shape (n,)
        Scores in ``layout.order``.
    layout : PairLayout
    k : int
    temperature : float
        ``T > 0``.

    Returns
    -------
    p : ndarray of float64 of shape (n,)
        Membership of every row in its segment's soft top ``k``.
    soft : ndarray of bool of shape (n,)
        Rows of segments with a threshold (those whose ``p`` depends on the
        scores).
    """
    n_seg = 2 * layout.n_groups
    seg = label_segments(layout.y_pos, layout.codes, layout.n_groups).astype(np.intp)
    mass = np.empty(n_seg)
    mass[0::2], mass[1::2] = layout.mass_pos, layout.mass_neg
    defined = np.repeat(layout.defined, 2)
    thresholded = defined & (mass > k)
    p = np.ones(scores.shape[0])
    soft = thresholded[seg]
    if not soft.any():
        return p, soft
    rows = np.flatnonzero(soft)
    s, a = scores[rows], layout.weight[rows]
    # compact ids of the thresholded segments (rows are contiguous per segment)
    seg_ids = np.flatnonzero(thresholded)
    local = np.searchsorted(seg_ids, seg[rows])
    n_local = seg_ids.shape[0]
    first = np.flatnonzero(np.r_[True, local[1:] != local[:-1]])
    s_min = np.minimum.reduceat(s, first)
    s_max = np.maximum.reduceat(s, first)
    target = np.full(n_local, float(k))
    ratio = target / mass[seg_ids]
    logit_r = np.log(ratio) - np.log1p(-ratio)
    # sum a * sigmoid((s - lo) / T) >= k and sum a * sigmoid((s - hi) / T) <= k
    lo = s_min - temperature * (np.maximum(logit_r, 0.0) + 1.0)
    hi = s_max + temperature * (np.maximum(-logit_r, 0.0) + 1.0)
    t = 0.5 * (lo + hi)
    tol = 1e-12 * np.maximum(target, 1.0)
    for _ in range(_MAX_THRESHOLD_STEPS):
        sig = expit((s - t[local]) / temperature)
        f = np.bincount(local, weights=a * sig, minlength=n_local) - target
        slope = np.bincount(local, weights=a * sig * (1.0 - sig),
                            minlength=n_local) / temperature
        lo = np.where(f > 0, t, lo)
        hi = np.where(f < 0, t, hi)
        done = (np.abs(f) <= tol) | (hi - lo <= 4 * np.finfo(float).eps
                                     * np.maximum(np.abs(t), 1.0))
        if done.all():
            break
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = t + f / slope
        inside = (slope > 0) & (newton > lo) & (newton < hi)
        t = np.where(done, t, np.where(inside, newton, 0.5 * (lo + hi)))
    p[rows] = expit((s - t[local]) / temperature)
    return p, soft


def _uniform_group_weights(layout):
    """1 for every group."""
    return np.ones(layout.n_groups)


def _inverse_variance_group_weights(layout):
    """``12 n+ n- / (n+ + n- + 1)`` of every group (its masses)."""
    n_pos, n_neg = layout.mass_pos, layout.mass_neg
    return 12.0 * n_pos * n_neg / (n_pos + n_neg + 1.0)


#: Weights of the groups in the mean over groups (``group_weight``): the
#: function giving them from a :class:`PairLayout`, by name, "uniform" or
#: "inverse_variance" (see :func:`group_weights`).
GROUP_WEIGHTS = {
    "uniform": _uniform_group_weights,
    "inverse_variance": _inverse_variance_group_weights,
}


def group_weights(layout, group_weight):
    """Weight of every group in the mean over groups (0 for undefined ones).

    ``"uniform"``: 1, every user alike (the mean over users of micro-pAp@k,
    eq. 17 of Hiranandani et al., 2020). ``"inverse_variance"``:
    ``12 n+ n- / (n+ + n- + 1)``, the inverse of the variance of a user's
    AUC (Mann-Whitney statistic) under a random ranking, so that users with
    few rows, whose pairs are noisy evidence about the scorer, weigh less.

    Parameters
    ----------
    layout : PairLayout
        The groups' rows (:func:`make_pair_layout`); with row weights,
        ``n+`` and ``n-`` are the groups' relevant and irrelevant masses, so
        that multiplying every row weight by one constant changes the
        ``"inverse_variance"`` weights' ratios (not the uniform ones).
    group_weight : {"uniform", "inverse_variance"}
        The weighting, a name of :data:`GROUP_WEIGHTS`.

    Returns
    -------
    weight : ndarray of float64 of shape (n_groups,)
        Weight of every group; 0 for the groups without a relevant or an
        irrelevant row.

    See Also
    --------
    SmoothPairwiseSurrogate : The surrogates that weigh their groups so.
    skpapk.PApKRanker : Its ``group_weight`` parameter.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import group_weights, make_pair_layout
    >>> y_pos = np.array([True, False, False, True, False, True])
    >>> codes = np.array([0, 0, 0, 1, 1, 2])   # user 2: no irrelevant row
    >>> layout = make_pair_layout(y_pos, codes, n_groups=3)
    >>> group_weights(layout, "uniform")
    array([1., 1., 0.])
    >>> group_weights(layout, "inverse_variance")   # 12 n+ n- / (n+ + n- + 1)
    array([6., 4., 0.])
    """
    try:
        weigh = GROUP_WEIGHTS[group_weight]
    except (KeyError, TypeError):  # TypeError: not hashable
        raise ValueError(
            f"group_weight must be one of {list(GROUP_WEIGHTS)}, got "
            f"{group_weight!r}."
        ) from None
    if not isinstance(layout, PairLayout):
        raise TypeError(f"layout must be a PairLayout, got "
                        f"{type(layout).__name__}; build it with "
                        f"make_pair_layout(y_pos, codes, n_groups).")
    return np.where(layout.defined, weigh(layout), 0.0)


class SmoothPairwiseSurrogate(BaseSurrogate):
    """Base class of the smooth pairwise surrogates (see the module docstring).

    Subclasses give the per-row pair weights through ``_weights``.

    Parameters
    ----------
    group_weight : {"uniform", "inverse_variance"}, default="uniform"
        Weight of each group in the mean over groups (:func:`group_weights`).
    truncation_level : int or None, default=None
        Keep only the pairs whose relevant row is among its group's
        ``truncation_level`` highest scored relevant rows, or whose
        irrelevant row is among its ``truncation_level`` highest scored
        irrelevant rows (by the current scores; ties by row order).
        ``None``: every pair. A group with at most ``truncation_level``
        rows of one label keeps every pair; a longer one costs
        ``T (n+ + n- - T)`` pair terms instead of ``n+ n-``.

    See Also
    --------
    PairwiseLogisticSurrogate : Every pair, uniform weights.
    SoftPApKSurrogate : Soft top-k pairs.
    make_pair_layout : The layout to reuse across evaluations.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import PairwiseLogisticSurrogate
    >>> y_pos = np.array([True, False])      # one pair at equal scores
    >>> scores, codes = np.zeros(2), np.zeros(2, dtype=np.intp)
    >>> loss = PairwiseLogisticSurrogate()
    >>> value, grad, hess, n_used = loss.loss_gradient_hessian(
    ...     y_pos, scores, codes, 1, k=1)
    >>> round(value, 4), grad, hess            # log(2); -/+ 1/2; 1/4
    (0.6931, array([-0.5,  0.5]), array([0.25, 0.25]))
    """

    smooth = True
    hyperparameters = ("group_weight", "truncation_level")

    def __init__(self, group_weight=_defaults.SURROGATE_GROUP_WEIGHT,
                 truncation_level=_defaults.TRUNCATION_LEVEL):
        self.group_weight = group_weight
        self.truncation_level = truncation_level

    def loss_gradient(self, y_pos, scores, codes, n_groups, k, *,
                      sample_weight=None, layout=None, n_threads=None):
        """Mean loss over defined groups and its per-row gradient.

        Same contract as :meth:`BaseSurrogate.loss_gradient`; ``coef`` is the
        exact gradient with respect to the scores.

        Parameters
        ----------
        y_pos : ndarray of bool of shape (n_samples,)
            True for relevant rows.
        scores : ndarray of float of shape (n_samples,)
            Finite scores.
        codes : ndarray of int of shape (n_samples,)
            Group codes in ``[0, n_groups)``.
        n_groups : int
            Number of groups.
        k : int
            Number of items shown to each user (read by
            :class:`SoftPApKSurrogate`; :class:`PairwiseLogisticSurrogate`
            does not use it).
        sample_weight : ndarray of shape (n_samples,) or None, default=None
            Non-negative frequency weights of the rows.
        layout : PairLayout or None, default=None
            The rows' layout from :func:`make_pair_layout` (built, and the
            arguments checked, when ``None``); pass it to save the work
            across evaluations (the scores are then not checked).
        n_threads : int or None, default=None
            Threads summing the groups' pairs; ``None``: the OpenMP
            threads this process may use (respecting ``threadpoolctl``).
            The result does not depend on it.

        Returns
        -------
        value : float
            Weighted mean over defined groups of the group loss (0 when
            none).
        coef : ndarray of float64 of shape (n_samples,)
            Gradient of ``value`` with respect to ``scores``.
        n_groups_used : int
            Number of defined groups.
        """
        value, grad, _, n_used = self.loss_gradient_hessian(
            y_pos, scores, codes, n_groups, k, sample_weight=sample_weight,
            layout=layout, hessian=False, n_threads=n_threads)
        return value, grad, n_used

    def loss_gradient_sums(self, y_pos, scores, codes, n_groups, k, *,
                           sample_weight=None, layout=None, n_threads=None):
        """The sums behind :meth:`loss_gradient` (see the base class).

        Parameters
        ----------
        y_pos : ndarray of bool of shape (n_samples,)
            True for relevant rows.
        scores : ndarray of float of shape (n_samples,)
            Finite scores.
        codes : ndarray of int of shape (n_samples,)
            Group codes in ``[0, n_groups)``.
        n_groups : int
            Number of groups.
        k : int
            Number of items shown to each user (read by
            :class:`SoftPApKSurrogate`; :class:`PairwiseLogisticSurrogate`
            does not use it).
        sample_weight : ndarray of shape (n_samples,) or None, default=None
            Non-negative frequency weights of the rows.
        layout : PairLayout or None, default=None
            The rows' layout from :func:`make_pair_layout` (built, and the
            arguments checked, when ``None``); pass it to save the work
            across evaluations (the scores are then not checked).
        n_threads : int or None, default=None
            Threads summing the groups' pairs; ``None``: the OpenMP
            threads this process may use (respecting ``threadpoolctl``).
            The result does not depend on it.

        Returns
        -------
        total : float
            Group-weighted sum of the defined groups' losses.
        grad_sum : ndarray of float64 of shape (n_samples,)
            Its gradient with respect to ``scores``.
        weight : float
            Sum of the defined groups' weights (:func:`group_weights`).
        n_groups_used : int
            Number of defined groups.
        """
        total, grad, _, weight, n_used = self.loss_gradient_hessian_sums(
            y_pos, scores, codes, n_groups, k, sample_weight=sample_weight,
            layout=layout, hessian=False, n_threads=n_threads)
        return total, grad, weight, n_used

    def loss_gradient_hessian(self, y_pos, scores, codes, n_groups, k, *,
                              sample_weight=None, layout=None, hessian=True,
                              value=True, n_threads=None, scale=1.0):
        """Mean loss over defined groups, its gradient and Hessian diagonal.

        The arguments are checked when no ``layout`` is given; a ``layout``
        (:func:`make_pair_layout`, which checks its arguments) saves the
        checks too, so the scores must then be finite.

        Parameters
        ----------
        y_pos : ndarray of bool of shape (n_samples,)
            True for relevant rows.
        scores : ndarray of float of shape (n_samples,)
            Finite scores.
        codes : ndarray of int of shape (n_samples,)
            Group codes in ``[0, n_groups)``.
        n_groups : int
            Number of groups.
        k : int
            Number of items shown to each user (read by
            :class:`SoftPApKSurrogate`; :class:`PairwiseLogisticSurrogate`
            does not use it).
        sample_weight : ndarray of shape (n_samples,) or None, default=None
            Non-negative frequency weights of the rows.
        layout : PairLayout or None, default=None
            The rows' layout from :func:`make_pair_layout` (built, and the
            arguments checked, when ``None``); pass it to save the work
            across evaluations (the scores are then not checked).
        hessian : bool, default=True
            Also return the Hessian diagonal (else ``None``).
        value : bool, default=True
            Also compute the loss value (else ``None`` is returned): a
            booster only needs the gradient and Hessian, which cost no
            logarithm.
        n_threads : int or None, default=None
            Threads summing the groups' pairs; ``None``: the OpenMP
            threads this process may use (respecting ``threadpoolctl``).
            The result does not depend on it.
        scale : float, default=1.0
            Factor of the returned value, gradient and Hessian (a booster's
            scaling of the loss), applied with the kernel's per-row factors
            rather than in extra passes over the rows.

        Returns
        -------
        value : float or None
            Weighted mean over defined groups of the group loss (0 when
            none).
        grad : ndarray of float64 of shape (n_samples,)
            Gradient of ``value`` with respect to ``scores``.
        hess : ndarray of float64 of shape (n_samples,) or None
            Diagonal of the Hessian with the pair weights held fixed
            (non-negative).
        n_groups_used : int
            Number of defined groups.
        """
        mean, grad, hess, _, n_used = self._sums(
            y_pos, scores, codes, n_groups, k, sample_weight, layout, hessian,
            value, n_threads, scale, mean=True)
        if n_used == 0:
            return (0.0 if value else None), grad, hess, 0
        return mean, grad, hess, n_used

    def loss_gradient_hessian_sums(self, y_pos, scores, codes, n_groups, k, *,
                                   sample_weight=None, layout=None,
                                   hessian=True, value=True, n_threads=None,
                                   scale=1.0):
        """The sums behind :meth:`loss_gradient_hessian`, before the mean.

        The group-weighted sums of the losses, gradients and Hessian
        diagonals of the defined groups, and the sum of their group weights
        (see :meth:`BaseSurrogate.loss_gradient_sums`): a sum over several
        parts of the groups adds up.

        Parameters
        ----------
        y_pos : ndarray of bool of shape (n_samples,)
            True for relevant rows.
        scores : ndarray of float of shape (n_samples,)
            Finite scores.
        codes : ndarray of int of shape (n_samples,)
            Group codes in ``[0, n_groups)``.
        n_groups : int
            Number of groups.
        k : int
            Number of items shown to each user (read by
            :class:`SoftPApKSurrogate`; :class:`PairwiseLogisticSurrogate`
            does not use it).
        sample_weight : ndarray of shape (n_samples,) or None, default=None
            Non-negative frequency weights of the rows.
        layout : PairLayout or None, default=None
            The rows' layout from :func:`make_pair_layout` (built, and the
            arguments checked, when ``None``); pass it to save the work
            across evaluations (the scores are then not checked).
        hessian : bool, default=True
            Also return the Hessian diagonal (else ``None``).
        value : bool, default=True
            Also compute the loss value (else ``None`` is returned): a
            booster only needs the gradient and Hessian, which cost no
            logarithm.
        n_threads : int or None, default=None
            Threads summing the groups' pairs; ``None``: the OpenMP
            threads this process may use (respecting ``threadpoolctl``).
            The result does not depend on it.
        scale : float, default=1.0
            Factor of the returned value, gradient and Hessian (a booster's
            scaling of the loss), applied with the kernel's per-row factors
            rather than in extra passes over the rows.

        Returns
        -------
        total : float or None
            Group-weighted sum of the losses (``None`` without ``value``).
        grad_sum : ndarray of float64 of shape (n_samples,)
            Its gradient with respect to ``scores``.
        hess_sum : ndarray of float64 of shape (n_samples,) or None
            Its Hessian diagonal, pair weights held fixed (``None`` without
            ``hessian``).
        weight : float
            Sum of the defined groups' weights (:func:`group_weights`).
        n_groups_used : int
            Number of defined groups.
        """
        return self._sums(y_pos, scores, codes, n_groups, k, sample_weight,
                          layout, hessian, value, n_threads, scale, mean=False)

    def _sums(self, y_pos, scores, codes, n_groups, k, sample_weight, layout,
              hessian, value, n_threads, scale, *, mean):
        """:meth:`loss_gradient_hessian_sums`, divided by the total group
        weight when ``mean`` (both factors folded into the per-row ones).

        Without a ``layout`` the arguments are checked (a public call); with
        one, built by :func:`make_pair_layout` from checked arguments, only
        the number of scores is (the estimators' every solver step and
        boosting round, whose scores are checked there)."""
        if layout is None:
            y_pos, codes, n_groups, sample_weight = _check_layout_inputs(
                y_pos, codes, n_groups, sample_weight)
            scores = _check_scores(scores, y_pos.shape[0])
            k = check_k(k)
            layout = _make_pair_layout(y_pos, codes, n_groups, sample_weight)
        n = layout.order.shape[0]
        scores = np.asarray(scores, dtype=np.float64)
        if scores.shape != (n,):  # the kernel would read past the scores
            raise ValueError(f"scores has shape {scores.shape} but the layout "
                             f"has {n} rows; pass one score per row.")
        n_used = layout.n_defined
        if n_used == 0:
            zeros = np.zeros(n)
            return ((0.0 if value else None), zeros,
                    (zeros.copy() if hessian else None), 0.0, 0)
        s = scores[layout.order] if self._weights_read_scores else None
        u, v, implicit = self._weights(s, layout, k)
        loss_rows = ("both" if implicit is not None
                     else "relevant" if value else None)
        # numba loads at the first fit, not at ``import skpapk``
        from ._pair_kernels import pair_sums

        weight = group_weights(layout, self.group_weight)
        weight_sum = float(weight.sum())
        factor = float(scale) / weight_sum if mean else float(scale)
        pos = layout.y_pos
        kernel = dict(truncation=self._truncation(), loss=loss_rows,
                      need_hess=hessian, n_threads=n_threads)
        if implicit is None:
            # every row's gradient is ``coef * S1``, its Hessian
            # ``|coef| * S2``: the kernel gathers the scores and scatters
            # them, in parallel
            key = (self.name, self.group_weight, factor)
            cached = layout.cache.get("coef")
            if cached is None or cached[0] != key:
                cached = layout.cache["coef"] = (
                    key, np.where(pos, -u, v) * (weight[layout.codes] * factor))
            coef = cached[1]
            L, grad, hess = pair_sums(layout, None, u, v, scores=scores,
                                      coef=coef, **kernel)
        else:
            L, S1, S2 = pair_sums(layout, s, u, v, **kernel)
            row_weight = weight[layout.codes] * factor
            coef = np.where(pos, u, v) * row_weight
            grad_s = np.where(pos, -coef, coef) * S1
            grad_s += self._implicit_gradient(L, layout, implicit) * row_weight
            grad = np.empty(n)
            grad[layout.order] = grad_s
            hess = None
            if hessian:
                hess = np.empty(n)
                hess[layout.order] = np.abs(coef) * S2
        total = None
        if value:
            total = float(np.dot(np.abs(coef[pos]), L[pos]))
        return total, grad, hess, weight_sum, n_used

    #: Whether ``_weights`` reads the scores (else it gets ``None``).
    _weights_read_scores = True

    def _truncation(self):
        """The kernel's truncation level (0: every pair)."""
        return check_truncation_level(self.truncation_level)

    def _weights(self, s, layout, k):  # pragma: no cover - abstract
        """``(u, v, implicit)``: pair weights and what the gradient needs of them."""
        raise NotImplementedError

    def _implicit_gradient(self, L, layout, implicit):  # pragma: no cover
        raise NotImplementedError


def _pair_shares(layout, numerator, denominator):
    """``(u, v)``: the rows' ``numerator / denominator`` on the relevant
    (``u``) and on the irrelevant (``v``) rows, 0 in the undefined groups."""
    share = np.zeros(layout.order.shape[0])
    np.divide(numerator, denominator, out=share,
              where=layout.defined[layout.codes])
    return np.where(layout.y_pos, share, 0.0), np.where(layout.y_pos, 0.0, share)


def _uniform_weights(layout):
    """``u = w / n+`` on relevant rows, ``v = w / n-`` on irrelevant ones."""
    mass = np.where(layout.y_pos, layout.mass_pos[layout.codes],
                    layout.mass_neg[layout.codes])
    return _pair_shares(layout, layout.weight, mass)


class PairwiseLogisticSurrogate(SmoothPairwiseSurrogate):
    """Pairwise logistic loss of every (relevant, irrelevant) pair, per user.

    Group loss ``(1 / (n+ n-)) * sum_i sum_j log(1 + exp(-(s_i - s_j)))``,
    averaged over groups: a convex, smooth surrogate of ``1 - AUC`` of every
    user (RankNet's loss with each user weighted equally by default). Its
    Hessian diagonal is exact. It does not read ``k``: every pair counts,
    whatever the length of the list shown (the ``k`` argument of its
    methods is ignored).

    Parameters
    ----------
    group_weight : {"uniform", "inverse_variance"}, default="uniform"
        Weight of each group in the mean over groups (:func:`group_weights`).
    truncation_level : int or None, default=None
        Keep only the pairs with a row among its group's
        ``truncation_level`` highest scored rows of its label
        (:class:`SmoothPairwiseSurrogate`); ``None``: every pair.

    See Also
    --------
    SoftPApKSurrogate : The same loss over pAp@k's soft top-k pairs.
    skpapk.PApKRanker : The linear ranker trained on it by default.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import PairwiseLogisticSurrogate
    >>> y_pos = np.array([True, True, False, False])   # one user
    >>> scores = np.array([2.0, 0.0, 1.0, -1.0])
    >>> codes = np.zeros(4, dtype=np.intp)
    >>> loss = PairwiseLogisticSurrogate()
    >>> round(loss.loss(y_pos, scores, codes, 1, k=1), 4)
    0.4971
    >>> loss.loss(y_pos, scores, codes, 1, k=1) == loss.loss(
    ...     y_pos, scores, codes, 1, k=2)            # k is not read
    True
    """

    name = "pairwise_logistic"

    _weights_read_scores = False

    def _weights(self, s, layout, k):
        # score-free: computed once per layout
        weights = layout.cache.get("uniform_weights")
        if weights is None:
            weights = layout.cache["uniform_weights"] = _uniform_weights(layout)
        return (*weights, None)


#: The largest score (times the root of its row's weight) that
#: :func:`_standardize` squares as it is.
_LARGEST_STANDARDIZED = 1e150


def _standardize(s, layout):
    """Scores standardised in each group: ``(s - mean) / std`` (weighted rows).

    Returns the standardised scores (0 in a group whose scores are all
    equal) and each row's group standard deviation (0 there).
    """
    n_groups = layout.n_groups
    codes, weight = layout.codes, layout.weight
    shrink = _group_shrink(s, layout)
    if shrink is not None:
        s = s / shrink[codes]
    mass = np.bincount(codes, weights=weight, minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(codes, weights=weight * s, minlength=n_groups) / mass
        centred = s - mean[codes]
        var = np.bincount(codes, weights=weight * centred**2,
                          minlength=n_groups) / mass
    std = np.sqrt(np.where(mass > 0, var, 0.0))
    # a spread below the rounding of the scores counts as no spread; and one
    # below 1e-12 in absolute terms too (the pair losses are exact to about
    # 1e-16, an error that the standardisation divides by the spread)
    scale = np.abs(np.where(mass > 0, mean, 0.0)) + std
    std = np.where(std > 1e-12 * np.maximum(scale, 1.0), std, 0.0)
    row_std = std[codes]
    z = np.zeros_like(s)
    np.divide(centred, row_std, out=z, where=row_std > 0)
    return z, (row_std if shrink is None else row_std * shrink[codes])


def _group_shrink(s, layout):
    """What each group's scores are divided by before :func:`_standardize`
    squares them, which ``z`` does not change: in a group where a score
    times the root of its row's weight passes :data:`_LARGEST_STANDARDIZED`,
    the largest such product over it, else 1; None when no group needs it
    (one check of the largest score and weight: the usual case)."""
    weight = layout.weight
    if not float(np.abs(s).max(initial=0.0)) / _LARGEST_STANDARDIZED * np.sqrt(
            max(float(weight.max(initial=1.0)), 1.0)) > 1.0:
        return None
    size = np.zeros(layout.n_groups)  # the rare case: an unbuffered max
    np.maximum.at(size, layout.codes, np.abs(s) / _LARGEST_STANDARDIZED
                  * np.sqrt(np.maximum(weight, 1.0)))
    return np.maximum(size, 1.0)


class SoftPApKSurrogate(SmoothPairwiseSurrogate):
    """Pairwise logistic loss over soft top-k pairs: a smooth pAp@k surrogate.

    Group loss ``sum_i sum_j (p_i / beta) (q_j / k') l(s_i - s_j)`` with the
    soft top-k memberships ``p_i = sigmoid((z_i - t+) / T)``,
    ``sum_i p_i = beta = min(k, n+)``, and ``q_j`` likewise over the
    irrelevant rows with ``sum_j q_j = k' = min(k, n-)`` (see the module
    docstring), where ``z = (s - mean) / std`` are the scores standardised in
    the group (user): the temperature ``T`` is in units of each user's score
    spread, so the memberships do not change when the scores are scaled, and
    a model cannot flatten its weights by shrinking its scores. High
    ``temperature``: the pairwise logistic loss of every pair (AUC); low: the
    pairs of pAp@k's top ``beta`` relevant and top ``k'`` irrelevant rows
    (Definition 1 of Hiranandani et al., 2020). Not convex for a finite
    temperature (like the ramp surrogate, eq. 6, whose top-beta set moves
    with the scores). In a group whose scores are all equal (spread below
    ``1e-12`` times the larger of 1 and the scores' size) the memberships
    are uniform.

    It reads ``k`` (the soft top ``min(k, n+)`` relevant and top
    ``min(k, n-)`` irrelevant rows of every group), unlike
    :class:`PairwiseLogisticSurrogate`.

    The gradient includes the terms through the thresholds and through the
    standardisation (exact); the Hessian diagonal holds the memberships
    fixed.

    Parameters
    ----------
    temperature : float, default=1.0
        ``T > 0``, in units of each group's score standard deviation.
    group_weight : {"uniform", "inverse_variance"}, default="uniform"
        Weight of each group in the mean over groups (:func:`group_weights`).
    truncation_level : int or None, default=None
        Keep only the pairs with a row among its group's
        ``truncation_level`` highest scored rows of its label
        (:class:`SmoothPairwiseSurrogate`); ``None``: every pair.

    See Also
    --------
    PairwiseLogisticSurrogate : Every pair (the limit of high temperatures).
    skpapk.PApKRanker : The linear ranker, with ``surrogate="soft_papk"``.
    skpapk.PApKBoostRanker : Boosted trees, with ``objective="soft_papk"``.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses import SoftPApKSurrogate
    >>> y_pos = np.array([True, True, False, False])   # one user
    >>> scores = np.array([2.0, 0.0, 1.0, -1.0])
    >>> codes = np.zeros(4, dtype=np.intp)
    >>> loss = SoftPApKSurrogate(temperature=1.0)
    >>> round(loss.loss(y_pos, scores, codes, 1, k=1), 4)   # the top pair weighs most
    0.4647
    >>> round(loss.loss(y_pos, scores, codes, 1, k=2), 4)   # every row is in the top 2
    0.4971
    """

    name = "soft_papk"
    convex = False
    hyperparameters = ("temperature", "group_weight", "truncation_level")

    def __init__(self, temperature=_defaults.TEMPERATURE,
                 group_weight=_defaults.SURROGATE_GROUP_WEIGHT,
                 truncation_level=_defaults.TRUNCATION_LEVEL):
        self.temperature = temperature
        self.group_weight = group_weight
        self.truncation_level = truncation_level

    def _weights(self, s, layout, k):
        T = self.temperature
        if (isinstance(T, (bool, np.bool_)) or not isinstance(T, numbers.Real)
                or not 0 < T < np.inf):  # NaN fails too
            raise ValueError(f"temperature must be a positive finite number, "
                             f"got {T!r}.")
        T = float(T)
        z, row_std = _standardize(s, layout)
        p, soft = soft_top_weights(z, layout, k, T)
        codes = layout.codes
        top_mass = np.where(layout.y_pos, np.minimum(layout.mass_pos, k)[codes],
                            np.minimum(layout.mass_neg, k)[codes])
        u, v = _pair_shares(layout, layout.weight * p, top_mass)
        # d share_r / d p_r and the curvature of the soft threshold
        slope = np.where(soft, layout.weight * p * (1.0 - p), 0.0)
        return u, v, (slope, top_mass, soft, z, row_std)

    def _implicit_gradient(self, L, layout, implicit):
        """Gradient of the loss through the memberships.

        With respect to the standardised scores, from ``sum_r a_r p_r = m``
        and ``p_r = sigmoid((z_r - t) / T)``:
        ``d p_r / d z_l = (d_r / T) (delta_rl - a_l d_l / sum a d)``, where
        ``d = p (1 - p)`` and ``a`` are the row weights, which gives
        ``h_l = a_l d_l / (m T) * (L_l - mean of L over the segment, weights
        a d)``. Then through ``z = (s - mean) / std`` in each group:
        ``d z_l / d s_r = (delta_lr - a_r / W - z_l z_r a_r / W) / std``.
        """
        slope, top_mass, soft, z, row_std = implicit
        n_seg = 2 * layout.n_groups
        seg = label_segments(layout.y_pos, layout.codes,
                             layout.n_groups).astype(np.intp)
        slope_sum = np.bincount(seg, weights=slope, minlength=n_seg)
        weighted_L = np.bincount(seg, weights=slope * L, minlength=n_seg)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_L = np.where(slope_sum > 0, weighted_L / slope_sum, 0.0)
        T = float(self.temperature)
        h = np.zeros_like(L)
        np.divide(slope * (L - mean_L[seg]), top_mass * T, out=h,
                  where=soft & (top_mass > 0))
        codes, weight, n_groups = layout.codes, layout.weight, layout.n_groups
        mass = np.bincount(codes, weights=weight, minlength=n_groups)[codes]
        h_sum = np.bincount(codes, weights=h, minlength=n_groups)[codes]
        hz_sum = np.bincount(codes, weights=h * z, minlength=n_groups)[codes]
        share = np.zeros_like(h)  # a group of weight 0 has no share
        np.divide(weight, mass, out=share, where=mass > 0)
        grad = np.zeros_like(h)
        np.divide(h - share * (h_sum + z * hz_sum), row_std, out=grad,
                  where=row_std > 0)
        return grad
