"""The smooth pAp@k surrogates as a LightGBM custom objective.

:class:`LightGBMObjective` hands LightGBM the per-row gradient and Hessian
of a smooth surrogate of :mod:`skpapk.losses` (``"pairwise_logistic"`` or
``"soft_papk"``), computed by the loss layer itself
(:meth:`~skpapk.losses.SmoothPairwiseSurrogate.loss_gradient_hessian`). It
is what :class:`skpapk.PApKBoostRanker` trains with, and LightGBM users can
pass it to their own ``lightgbm.LGBMRanker(objective=...)`` or
``lightgbm.train``. This module never imports LightGBM.
"""

import inspect
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import (
    Interval,
    StrOptions,
    validate_parameter_constraints,
)

from .. import _defaults
from ..utils._arrays import _holds_text
from ..utils._routing import _stacklevel
from ..utils._validation import check_k
from ._checks import check_weight_values, few_values
from ._losses import BaseSurrogate
from ._registry import SMOOTH_SURROGATES, get_surrogate
from ._smooth import GROUP_WEIGHTS, _make_pair_layout, check_truncation_level


def _is_dataset(obj):
    """Whether ``obj`` looks like a ``lightgbm.Dataset`` (duck typing)."""
    return all(hasattr(obj, name) for name in ("get_label", "get_group",
                                                "get_weight"))


class _NumberInterval(Interval):
    """An :class:`~sklearn.utils._param_validation.Interval` of numbers that
    are not bools (``Interval`` takes ``True`` and ``False`` as 1 and 0)."""

    def is_satisfied_by(self, val):
        return not isinstance(val, bool) and super().is_satisfied_by(val)


def codes_from_sizes(sizes):
    """Group code of every row from the sizes of consecutive groups
    (LightGBM's ``group``)."""
    return np.repeat(np.arange(len(sizes), dtype=np.intp), sizes)


def check_group_sizes(group, n):
    """LightGBM's ``group`` (the sizes of consecutive groups) of ``n`` rows
    as an intp array, or a ``ValueError`` that says what it must hold."""
    sizes = np.asarray(group)
    if (sizes.ndim != 1 or sizes.dtype.kind not in "iuf"
            or not np.all(np.isfinite(sizes)) or np.any(sizes < 0)
            or np.any(sizes > n)  # before the sum, which may wrap around
            or np.any(sizes != np.round(sizes))
            or int(sizes.sum()) != n):
        raise ValueError(
            f"group must hold the sizes of the consecutive groups "
            f"(non-negative integers summing to the {n} rows, as "
            f"LGBMRanker's group= or eval_group=, or a Dataset's group=), got "
            f"{sizes!r}."
        )
    return sizes.astype(np.intp)


def relevant_rows(labels):
    """Whether each row is relevant (its label ``> 0``: 0/1 or graded
    relevance, as LightGBM's ranking objectives read them), the labels
    checked: numbers, no NaN."""
    if labels.dtype.kind not in "biuf":
        raise TypeError(
            f"y_true (the labels) must hold numbers, relevant when > 0, "
            f"got an array of dtype {labels.dtype}; pass 0/1 (or graded) "
            f"relevance labels."
        )
    if labels.dtype.kind == "f" and np.isnan(labels).any():
        raise ValueError(
            "y_true (the labels) holds NaN: every row needs a label, "
            "relevant when > 0; drop the rows without one, or label them "
            "0 (irrelevant)."
        )
    return labels > 0


class LightGBMObjective:
    """A smooth pAp@k surrogate as a LightGBM custom objective.

    The loss is the mean over groups (users, LightGBM's queries) of a
    per-user weighted pairwise logistic loss of the (relevant, irrelevant)
    pairs (:class:`~skpapk.losses.PairwiseLogisticSurrogate`,
    :class:`~skpapk.losses.SoftPApKSurrogate`), so that a user's weight
    does not grow with its number of pairs: with ``group_weight="uniform"``
    every user counts equally, as in the mean over users of micro-pAp@k
    (eq. 17 of Hiranandani et al., 2020), whatever its number of rows; the
    default ``"inverse_variance"`` weighs a user by a weight that grows as
    ``min(n+, n-)``. A call returns
    its gradient and Hessian diagonal with respect to the raw scores,
    multiplied by ``scale``.

    Two calling conventions, both of LightGBM 4:

    - the scikit-learn API's ``objective(y_true, y_pred, weight, group)``,
      for ``lightgbm.LGBMRanker(objective=LightGBMObjective(...))``, where
      ``group`` holds the sizes of consecutive groups (rows sorted by group,
      as ``LGBMRanker.fit(X, y, group=...)`` requires);
    - ``lightgbm.train``'s ``objective(preds, train_data)``, for
      ``lightgbm.train({"objective": LightGBMObjective(...)}, train_data)``
      with ``train_data = lightgbm.Dataset(X, y, group=...)``.

    A row is relevant when its label is greater than 0 (binary 0/1 labels,
    or graded relevance with 0 for irrelevant). LightGBM's row weights
    (``sample_weight``, ``Dataset(weight=...)``) act as frequency weights: a
    row of weight 2 counts as two copies of the row. Rows of which no group
    has both a relevant and an irrelevant row (of positive weight) have no
    pair to rank: their gradients are 0, with a ``UserWarning`` (a fold of
    ``lightgbm.cv`` or a batch of users may hold no pair; no warning for a
    call that sees only some of the groups, with ``weight_total``).

    The pairs are summed by a compiled kernel, groups in parallel threads,
    with no Python loop over groups and no pair array (see
    :mod:`skpapk.losses`); the layout of the rows, which only
    depends on the labels, groups and weights, is built at the first call
    and reused while they stay the same (every boosting round of one fit).

    Parameters
    ----------
    surrogate : {"pairwise_logistic", "soft_papk"}, default="pairwise_logistic"
        A smooth surrogate of :data:`~skpapk.losses.SMOOTH_SURROGATES` (or
        a :class:`~skpapk.losses.SmoothPairwiseSurrogate` instance, used as
        it is: ``temperature``, ``group_weight`` and ``truncation_level``
        are then ignored; the instance's own hold).
        ``"pairwise_logistic"``: every pair of a user weighs alike (a
        surrogate of each user's AUC). ``"soft_papk"``: soft top-k weights
        of the pairs, which move from every pair (AUC, high
        ``temperature``) to pAp@k's top ``min(k, n+)`` relevant x top ``k``
        irrelevant pairs (low ``temperature``).
    k : int, default=10
        Number of items shown to each user (the ``k`` of pAp@k), read by
        ``"soft_papk"`` only: ``"pairwise_logistic"`` does not use it.
    temperature : float, default=10.0
        Temperature of ``"soft_papk"``, in units of each group's score
        standard deviation.
    group_weight : {"uniform", "inverse_variance"}, default="inverse_variance"
        Weight of each group in the mean over groups
        (:func:`~skpapk.losses.group_weights`): ``"uniform"``, every user
        alike; ``"inverse_variance"``, users with few rows weigh less (with
        weights, by their weighted counts: multiplying every weight by one
        constant changes how users weigh against each other). The
        defaults of ``temperature`` and ``group_weight`` are
        :class:`skpapk.PApKBoostRanker`'s, chosen on MovieLens 100K (its
        ``truncation_level`` is 100, not None).
    truncation_level : int or None, default=None
        Bound on the pairs of long lists: only the pairs whose relevant row
        is among its group's ``truncation_level`` highest scored relevant
        rows, or whose irrelevant row is among its ``truncation_level``
        highest scored irrelevant rows (by the scores of the call), count;
        a group costs ``O(truncation_level * n_rows)`` instead of
        ``O(n+ * n-)``. A group with at most ``truncation_level`` relevant
        or irrelevant rows keeps every pair. ``None``: every pair, as the
        loss functions (:class:`skpapk.PApKBoostRanker` passes 100).
    scale : float or None, default=None
        Constant the mean loss is multiplied by. ``None``: the total weight
        of the rows (their number without weights). The mean over groups
        has per-row Hessians of the order of ``1 / n_samples``; scaled by
        the number of rows they are of the order of LightGBM's ``"binary"``
        objective's (at most 1/4 per row), so that LightGBM's
        ``min_child_weight`` (``min_sum_hessian_in_leaf``) and
        ``reg_lambda`` keep their usual meaning and ``learning_rate`` its
        usual range.
    weight_total : float or None, default=None
        Total group weight (:func:`~skpapk.losses.group_weights`) of all
        the groups, when a call sees only some of them (a worker of
        distributed training: :class:`skpapk.dask.PApKBoostRanker`). The
        call then returns its share of the mean over all the groups; it
        needs an explicit ``scale``. ``None``: the call's groups are all
        the groups.
    tie_breaker : array-like of numbers of shape (n_samples,) or None, \
default=None
        Under ``truncation_level``, the order of a group's rows of equal
        score (common in the first rounds: every score is 0 in the first,
        and trees give few distinct values): rows of lower ``tie_breaker``
        (then lower weight) rank first, given in the order LightGBM gets
        the rows. ``None``: row order, so that the fitted trees depend on
        the order of the rows, as LightGBM's ``lambdarank``'s do.
        :class:`skpapk.PApKBoostRanker` passes a 64-bit key computed from
        each row's feature values, so that its fit does not depend on the
        order of the rows.
    n_jobs : int or None, default=None
        Threads of the pair kernel (groups are split among them; the
        result does not depend on their number). ``None``: the OpenMP
        threads this process may use, as scikit-learn's estimators (every
        core, but one in each worker of a parallel search, or what
        ``threadpoolctl`` allows); ``-1``: every core. At most the cores
        this process may use.

    Attributes
    ----------
    surrogate_ : SmoothPairwiseSurrogate
        The loss-layer surrogate, built at the first call.
    n_groups_used_ : int
        Number of groups with a relevant and an irrelevant row (of positive
        weight) at the last call; the others carry no pair and get zero
        gradients.

    See Also
    --------
    skpapk.PApKBoostRanker : Gradient-boosted trees trained with this
        objective.
    skpapk.losses.surrogate_loss : The surrogates' values and gradients.
    skpapk.metrics.micro_papk_lightgbm : The micro-pAp@k as LightGBM's metric.

    References
    ----------
    G. Hiranandani, W. Vijitbenjaronk, S. Koyejo, P. Jain. "Optimization and
    Analysis of the pAp@k Metric for Recommender Systems", ICML 2020.

    Examples
    --------
    >>> import numpy as np
    >>> import lightgbm as lgb
    >>> from skpapk.losses import LightGBMObjective
    >>> rng = np.random.default_rng(0)
    >>> group = np.full(20, 30)                  # 20 users of 30 rows each
    >>> y = (rng.random(600) < 0.3).astype(int)
    >>> X = rng.normal(size=(600, 4)) + y[:, None]
    >>> objective = LightGBMObjective("soft_papk", k=5, temperature=1.0)
    >>> ranker = lgb.LGBMRanker(objective=objective, n_estimators=20,
    ...                         verbose=-1).fit(X, y, group=group)
    >>> booster = lgb.train({"objective": objective, "verbose": -1},
    ...                     lgb.Dataset(X, y, group=group), num_boost_round=20)
    >>> bool(np.allclose(ranker.predict(X), booster.predict(X)))
    True

    One call by hand: two rows of one user with equal scores, the gradient
    of ``log(1 + exp(-(s_1 - s_0)))`` times ``scale = 2``:

    >>> LightGBMObjective("pairwise_logistic")(np.array([1.0, 0.0]),
    ...                                          np.zeros(2), None, [2])
    (array([-1.,  1.]), array([0.5, 0.5]))
    """

    _parameter_constraints: dict = {
        "surrogate": [StrOptions(set(SMOOTH_SURROGATES)), BaseSurrogate],
        "k": [_NumberInterval(Integral, 1, None, closed="left")],
        "temperature": [_NumberInterval(Real, 0, None, closed="neither")],
        "group_weight": [StrOptions(set(GROUP_WEIGHTS))],
        "truncation_level": [_NumberInterval(Integral, 1, None, closed="left"),
                             None],
        "scale": [_NumberInterval(Real, 0, None, closed="neither"), None],
        "weight_total": [_NumberInterval(Real, 0, None, closed="neither"), None],
        "tie_breaker": ["array-like", None],
        "n_jobs": [_NumberInterval(Integral, None, -1, closed="right"),
                   _NumberInterval(Integral, 1, None, closed="left"), None],
    }

    def __init__(self, surrogate=_defaults.BOOST_OBJECTIVE, *, k=_defaults.K,
                 temperature=_defaults.BOOST_TEMPERATURE,
                 group_weight=_defaults.GROUP_WEIGHT,
                 truncation_level=_defaults.TRUNCATION_LEVEL, scale=None,
                 weight_total=None, tie_breaker=None, n_jobs=None):
        self.surrogate = surrogate
        self.k = k
        self.temperature = temperature
        self.group_weight = group_weight
        self.truncation_level = truncation_level
        self.scale = scale
        self.weight_total = weight_total
        self.tie_breaker = tie_breaker
        self.n_jobs = n_jobs

    def _check_params(self):
        """The loss-layer surrogate of the parameters, validated once for
        each set of their values (LightGBM calls the objective every
        round)."""
        values = tuple(getattr(self, name) for name in _PARAMETERS)
        checked = getattr(self, "_checked", None)
        if checked is not None and all(
                old is new for old, new in zip(checked[0], values)):
            return checked[1]
        validate_parameter_constraints(
            self._parameter_constraints,
            {name: getattr(self, name) for name in self._parameter_constraints},
            caller_name=type(self).__name__)
        check_k(self.k)  # its bound, 2**63 - 1
        if isinstance(self.surrogate, BaseSurrogate) and not self.surrogate.smooth:
            raise ValueError(
                f"surrogate must be smooth (it needs a Hessian), got the "
                f"piecewise linear {self.surrogate.name!r}; use one of "
                f"{list(SMOOTH_SURROGATES)}."
            )
        if self.weight_total is not None and self.scale is None:
            raise ValueError(
                "weight_total needs an explicit scale: the total weight of all "
                "the rows (the default, the total weight of the call's rows, "
                "differs from worker to worker)."
            )
        check_truncation_level(self.truncation_level)
        surrogate = get_surrogate(self.surrogate,
                                  temperature=float(self.temperature),
                                  group_weight=self.group_weight,
                                  truncation_level=self.truncation_level)
        self._checked = (values, surrogate)
        return surrogate

    def __call__(self, y_true, y_pred, weight=None, group=None):
        """Gradient and Hessian of the scaled loss with respect to the scores.

        Parameters
        ----------
        y_true : ndarray of shape (n_samples,)
            Labels (relevant when > 0). In ``lightgbm.train``'s convention,
            the predictions instead.
        y_pred : ndarray of shape (n_samples,)
            Raw scores. In ``lightgbm.train``'s convention, the training
            ``lightgbm.Dataset`` (its labels, weights and groups are used).
        weight : ndarray of shape (n_samples,) or None, default=None
            Non-negative row (frequency) weights, 0 or from 1e-30 to 1e30.
        group : array-like of int of shape (n_groups,)
            Sizes of the consecutive groups, summing to ``n_samples``.

        Returns
        -------
        grad, hess : ndarray of float64 of shape (n_samples,)
            ``scale`` times the gradient and the (non-negative) Hessian
            diagonal of the mean loss over groups (the call's share of the
            mean over all groups when ``weight_total`` is given).
        """
        if _is_dataset(y_pred):
            dataset = y_pred
            y_pred = y_true
            y_true = dataset.get_label()
            weight = dataset.get_weight()
            group = dataset.get_group()
        self.surrogate_ = self._check_params()
        labels, scores, sizes, weight = self._check_inputs(
            y_true, y_pred, weight, group)
        y_pos, codes, n_groups, layout = self._layout(labels, sizes, weight)
        n_threads = self.n_jobs
        scale = self.scale
        if scale is None:
            scale = float(scores.shape[0] if weight is None else weight.sum())
        if self.weight_total is None:
            _, grad, hess, n_used = self.surrogate_.loss_gradient_hessian(
                y_pos, scores, codes, n_groups, self.k, sample_weight=weight,
                layout=layout, value=False, n_threads=n_threads, scale=scale)
        else:  # this call's share of the mean over all the groups
            _, grad, hess, _, n_used = self.surrogate_.loss_gradient_hessian_sums(
                y_pos, scores, codes, n_groups, self.k, sample_weight=weight,
                layout=layout, value=False, n_threads=n_threads,
                scale=scale / self.weight_total)
        self.n_groups_used_ = n_used
        return grad, hess

    def _check_inputs(self, y_true, y_pred, weight, group):
        """The labels, scores, group sizes and weights as arrays; the labels'
        values and the weights' are checked by :meth:`_layout`."""
        scores = np.asarray(y_pred, dtype=np.float64)
        if scores.ndim != 1:
            raise ValueError(
                f"LightGBMObjective scores one column of raw scores per row, "
                f"got predictions of shape {scores.shape} (a multi-class "
                f"model?); use it with LGBMRanker or a one-output booster."
            )
        n = scores.shape[0]
        y_true = np.asarray(y_true)
        if y_true.shape != (n,):
            raise ValueError(
                f"y_true has shape {y_true.shape} but there are {n} scores; "
                f"pass one label per row."
            )
        if y_true.dtype.kind == "O":  # numbers as Python objects
            try:
                y_true = y_true.astype(np.float64)
            except (TypeError, ValueError):
                pass
        if not np.all(np.isfinite(scores)):
            raise ValueError(
                "The raw scores are not all finite (the boosting diverged?); "
                "lower learning_rate or raise reg_lambda / min_child_weight."
            )
        if group is None:
            raise ValueError(
                "LightGBMObjective needs each row's group (user / query): got "
                "group=None. Pass the group sizes, e.g. LGBMRanker(objective="
                "...).fit(X, y, group=sizes) or lightgbm.Dataset(X, y, "
                "group=sizes), with the rows sorted by group."
            )
        sizes = check_group_sizes(group, n)
        if weight is not None:
            weight = np.asarray(weight)
            if _holds_text(weight):  # NumPy would parse "1" as 1.0
                raise TypeError(
                    f"weight holds text (dtype {weight.dtype}), not numbers; "
                    f"pass one number per row.")
            weight = weight.astype(np.float64, copy=False)
            if weight.shape != (n,):
                raise ValueError(
                    f"weight has shape {weight.shape} but there are {n} rows; "
                    f"pass one weight per row."
                )
        return y_true, scores, sizes, weight

    def _layout(self, labels, sizes, weight):
        """The relevance of the rows, their group codes and the pair layout
        (``(y_pos, codes, n_groups, layout)``), rebuilt, and the labels and
        weights checked, only when the labels, the groups or the weights
        change (a NaN never equals the checked labels or weights)."""
        cache = getattr(self, "_cache", None)
        if (cache is not None and cache[-1] is self.tie_breaker
                and np.array_equal(cache[1], sizes)
                and labels.dtype == cache[0].dtype
                and np.array_equal(cache[0], labels)
                and (cache[2] is None) == (weight is None)
                and (weight is None or np.array_equal(cache[2], weight))):
            return cache[3:-1]
        y_pos = relevant_rows(labels)
        if weight is not None:
            check_weight_values(weight, "weight")
        n_groups = sizes.shape[0]
        codes = codes_from_sizes(sizes)
        # the labels and weights are checked above, the codes come from the
        # checked sizes
        tie_breaker = None
        if self.tie_breaker is not None:
            tie_breaker = np.asarray(self.tie_breaker)
            if tie_breaker.dtype.kind not in "iuf":
                raise TypeError(
                    f"tie_breaker holds {tie_breaker.dtype} values; pass "
                    f"numbers (integers or floats), one per row.")
            if tie_breaker.shape != labels.shape:
                raise ValueError(
                    f"tie_breaker has shape {tie_breaker.shape} but there are "
                    f"{labels.shape[0]} rows; pass one number per row, in "
                    f"the order LightGBM gets the rows.")
        layout = _make_pair_layout(
            y_pos, codes, n_groups, weight, tie_breaker=tie_breaker,
            truncation_level=self.surrogate_._truncation())
        if layout.n_defined == 0 and self.weight_total is None:
            # (a worker of distributed training, with ``weight_total``, may
            # hold none: the other workers' groups carry the pairs)
            rows = ("every row is relevant or every row is irrelevant"
                    if weight is None else "the rows of positive weight are "
                    "all relevant or all irrelevant")
            # a warning, not an error: a fold of lightgbm.cv, or a batch of
            # users of a training loop, may legitimately hold no pair
            warnings.warn(
                f"No group has both a relevant and an irrelevant row"
                f"{'' if weight is None else ' of positive weight'}: in each "
                f"of the {n_groups} group(s) {rows}, so there is no pair to "
                f"rank and every gradient is 0. A row is relevant when "
                f"its label is "
                f"> 0 (labels seen: {few_values(labels)}); each group (user, "
                f"query) needs at least one row with a label > 0 and one with "
                f"a label <= 0, e.g. 0/1 relevance labels with 0 for "
                f"irrelevant.", UserWarning, stacklevel=_stacklevel())
        self._cache = (labels.copy(), sizes.copy(),
                       None if weight is None else weight.copy(),
                       y_pos, codes, n_groups, layout, self.tie_breaker)
        return y_pos, codes, n_groups, layout

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("_cache", None)  # rebuilt at the next call
        state.pop("_checked", None)
        return state

    def __repr__(self):
        return (f"{type(self).__name__}({self.surrogate!r}, k={self.k!r}, "
                f"temperature={self.temperature!r}, "
                f"group_weight={self.group_weight!r}, "
                f"truncation_level={self.truncation_level!r}, "
                f"scale={self.scale!r}, weight_total={self.weight_total!r}, "
                + ("" if self.tie_breaker is None else
                   f"tie_breaker=<{np.size(self.tie_breaker)} values>, ")
                + f"n_jobs={self.n_jobs!r})")


#: LightGBMObjective's parameters, as its signature names them (the values
#: its parameter check is cached on).
_PARAMETERS = tuple(inspect.signature(LightGBMObjective).parameters)
