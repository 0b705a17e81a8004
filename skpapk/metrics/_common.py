"""What the per-group metrics share: options, validation and averaging.

The tie rules live in one registry, :data:`TIE_RULES`: each metric names the
rules it accepts, and the same names drive the check of the ``ties``
argument, its error message and the dispatch.
"""

import contextvars
import functools
import numbers
import warnings
from typing import NamedTuple

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from ..utils._groups import descending_order, order_by_segment
from ..utils._routing import _stacklevel
from ..utils._validation import check_ranking_inputs
from ._kernels import group_ratios, label_counts, micro_average

_AVERAGES = ("micro", "pooled", None)
_NO_POS_OR_NEG = "no relevant or no irrelevant item"
#: The end of the warning on undefined groups: what the caller can do. A
#: context variable (each thread has its own), so that a ranker's ``score``,
#: which has no ``zero_division``, gives its own advice.
ZERO_DIVISION_ADVICE = contextvars.ContextVar("zero_division_advice", default=(
    " Pass zero_division=0.0 to count them as 0 (as ranx and pytrec_eval "
    "do), or zero_division=np.nan to leave them out without this warning."))

#: Every tie rule of the metrics, with the one-line meaning used in errors.
TIE_RULES = {
    "random": "the exact expectation over a uniformly random order of the "
              "tied items (the default)",
    "half": "a tied (relevant, irrelevant) pair counts 1/2",
    "error": "a tie counts as a mistake, irrelevant tied items first (the "
             "paper's risk convention)",
    "threshold": "tied items form one threshold, as "
                 "sklearn.metrics.average_precision_score",
}
#: The rules of the pair-counting metrics (pAp@k, pAUC, AUC, AUC@k, prec@k).
PAIR_TIES = ("random", "half", "error")
#: The rules of the metrics new in this version, and of mAP.
LIST_TIES = ("random", "error")


def _check_zero_division(zero_division):
    """``"warn"``, NaN, or a value in [0, 1] (scikit-learn's ``zero_division``)."""
    if isinstance(zero_division, str) and zero_division == "warn":
        return
    if (isinstance(zero_division, numbers.Real)
            and not isinstance(zero_division, (bool, np.bool_))
            and (np.isnan(zero_division) or 0 <= zero_division <= 1)):
        return
    raise ValueError(
        f"zero_division must be 'warn' (leave the undefined groups out of the "
        f"average, with an UndefinedMetricWarning: the default), np.nan (leave "
        f"them out silently) or a value in [0, 1] that they count as (0.0: "
        f"ranx's and pytrec_eval's convention), got {zero_division!r}."
    )


#: ``_check_options``' ``ties`` of a metric without that option.
_NO_TIES = object()


def _check_options(average, ties=_NO_TIES, *, allowed_ties=PAIR_TIES,
                   zero_division="warn"):
    if average not in _AVERAGES:
        raise ValueError(
            f"average must be 'micro' (mean over groups, the paper's eq. 17), "
            f"'pooled' (all pairs of all groups together) or None (one value "
            f"per group), got {average!r}."
        )
    if ties is not _NO_TIES and (not isinstance(ties, str)
                                 or ties not in allowed_ties):
        rules = "; ".join(f"{rule!r}: {TIE_RULES[rule]}" for rule in allowed_ties)
        raise ValueError(f"ties must be one of {rules}. Got {ties!r}.")
    _check_zero_division(zero_division)


def _aggregate(numerator, denominator, defined, average, metric_name,
               reason=_NO_POS_OR_NEG, per_group=None, zero_division="warn"):
    """Average per-group ratios ``numerator / denominator`` over defined groups.

    ``average="micro"`` is the unweighted mean of the group ratios,
    ``"pooled"`` the ratio of the sums, ``None`` returns every group's ratio
    (NaN where undefined). ``per_group`` replaces the group ratios of
    ``"micro"`` and ``None`` when they are not ``numerator / denominator``
    (an expectation of a ratio). Undefined groups are left out, with an
    :class:`~sklearn.exceptions.UndefinedMetricWarning` that says how many
    under ``zero_division="warn"``, silently under NaN; a number
    ``zero_division`` is their value instead (in ``"micro"`` and ``None``;
    they have no pairs in ``"pooled"``, which is ``zero_division`` when no
    group is defined).
    """
    n_undefined = int(np.count_nonzero(~defined))
    fill = None
    if not isinstance(zero_division, str) and not np.isnan(zero_division):
        fill = float(zero_division)
    if n_undefined and isinstance(zero_division, str):
        warnings.warn(
            f"{metric_name} is undefined for {n_undefined} of {defined.shape[0]} "
            f"groups ({reason}); they are left out"
            + (" of the average." if average is not None else " (NaN).")
            + ZERO_DIVISION_ADVICE.get(),
            UndefinedMetricWarning,
            stacklevel=_stacklevel(),
        )
    if per_group is None:
        per_group = group_ratios(numerator, denominator, defined)
    else:
        per_group = np.where(defined, per_group, np.nan)
    if fill is not None:
        per_group = np.where(defined, per_group, fill)
        defined_or_filled = np.ones_like(defined)
    else:
        defined_or_filled = defined
    if average is None:
        return per_group
    if average == "micro":
        return micro_average(per_group, defined_or_filled)
    if not defined.any():
        return float("nan") if fill is None else fill
    return float(numerator[defined].sum() / denominator[defined].sum())


class Validated(NamedTuple):
    """:func:`_validate`'s result: the inputs every metric reads."""

    y_pos: np.ndarray
    y_score: np.ndarray
    codes: np.ndarray
    n_groups: int
    n_pos: np.ndarray
    n_neg: np.ndarray
    segments: np.ndarray


class Parts(NamedTuple):
    """A metric before averaging: every group's ratio is ``numerator /
    denominator`` where ``defined``; ``name`` and ``reason`` are said in the
    warning on the undefined groups (see :func:`_aggregate`)."""

    numerator: np.ndarray
    denominator: np.ndarray
    defined: np.ndarray
    name: str
    reason: str = _NO_POS_OR_NEG


class Orders:
    """Orders of the rows of :class:`Validated` inputs, shared by several
    metrics of the same scores (:func:`~skpapk.metrics.ranking_report`):
    by decreasing score, and that order by (group, label) segment, sorted
    on first use."""

    def __init__(self, inputs):
        self.inputs = inputs
        self.by_score = descending_order(inputs.y_score, stable=False)

    @functools.cached_property
    def by_segment(self):
        return order_by_segment(self.inputs.y_score, self.inputs.segments,
                                2 * self.inputs.n_groups, stable=False,
                                by_score=self.by_score)[1]


def _average(parts, average, zero_division="warn"):
    """:func:`_aggregate` of a metric's :class:`Parts`."""
    return _aggregate(parts.numerator, parts.denominator, parts.defined, average,
                      parts.name, parts.reason, zero_division=zero_division)


def _validate(y_true, y_score, groups, pos_label):
    """Validated inputs plus the number of relevant / irrelevant rows per group.

    :func:`skpapk.utils._validation.check_ranking_inputs` (equal lengths,
    binary non-empty ``y_true``, finite numeric scores, one group id per
    row), plus the label counts and segment codes the metrics share, as a
    :class:`Validated`.
    """
    y_pos, y_score, codes, labels = check_ranking_inputs(
        y_true, y_score, groups, pos_label=pos_label, order_only=True)
    n_groups = labels.shape[0]
    return Validated(y_pos, y_score, codes, n_groups,
                     *label_counts(y_pos, codes, n_groups))
