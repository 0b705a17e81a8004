"""What the per-group metrics share: options, validation and averaging.

The tie rules live in one registry, :data:`TIE_RULES`: each metric names the
rules it accepts, and the same names drive the check of the ``ties``
argument, its error message and the dispatch.
"""

import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from ..utils._validation import check_ranking_inputs
from ._kernels import group_ratios, label_counts, micro_average

_AVERAGES = ("micro", "pooled", None)
_NO_POS_OR_NEG = "no relevant or no irrelevant item"

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


def _check_options(average, ties=None, *, allowed_ties=PAIR_TIES):
    if average not in _AVERAGES:
        raise ValueError(
            f"average must be 'micro' (mean over groups, the paper's eq. 17), "
            f"'pooled' (all pairs of all groups together) or None (one value "
            f"per group), got {average!r}."
        )
    if ties is not None and ties not in allowed_ties:
        rules = "; ".join(f"{rule!r}: {TIE_RULES[rule]}" for rule in allowed_ties)
        raise ValueError(f"ties must be one of {rules}. Got {ties!r}.")


def _aggregate(numerator, denominator, defined, average, metric_name,
               reason=_NO_POS_OR_NEG, per_group=None):
    """Average per-group ratios ``numerator / denominator`` over defined groups.

    ``average="micro"`` is the unweighted mean of the group ratios,
    ``"pooled"`` the ratio of the sums, ``None`` returns every group's ratio
    (NaN where undefined). ``per_group`` replaces the group ratios of
    ``"micro"`` and ``None`` when they are not ``numerator / denominator``
    (an expectation of a ratio). Undefined groups are left out with an
    :class:`~sklearn.exceptions.UndefinedMetricWarning` that says how many.
    """
    n_undefined = int(np.count_nonzero(~defined))
    if n_undefined:
        warnings.warn(
            f"{metric_name} is undefined for {n_undefined} of {defined.shape[0]} "
            f"groups ({reason}); they are left out"
            + (" of the average." if average is not None else " (NaN)."),
            UndefinedMetricWarning,
            stacklevel=3,
        )
    if per_group is None:
        per_group = group_ratios(numerator, denominator, defined)
    else:
        per_group = np.where(defined, per_group, np.nan)
    if average is None:
        return per_group
    if not defined.any():
        return float("nan")
    if average == "micro":
        return micro_average(per_group, defined)
    return float(numerator[defined].sum() / denominator[defined].sum())


def _validate(y_true, y_score, groups, pos_label):
    """Validated inputs plus the number of relevant / irrelevant rows per group.

    :func:`skpapk.utils._validation.check_ranking_inputs` (equal lengths,
    binary non-empty ``y_true``, finite numeric scores, one group id per
    row), plus the label counts and segment codes the metrics share.
    """
    y_pos, y_score, codes, labels = check_ranking_inputs(
        y_true, y_score, groups, pos_label=pos_label)
    n_groups = labels.shape[0]
    n_pos, n_neg, segments = label_counts(y_pos, codes, n_groups)
    return y_pos, y_score, codes, n_groups, n_pos, n_neg, segments
