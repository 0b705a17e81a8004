"""What the per-group metrics share: options, validation, averaging, tie blocks.

The tie rules live in one registry, :data:`TIE_RULES`: each metric names the
rules it accepts, and the same names drive the check of the ``ties``
argument, its error message and the dispatch.
"""

import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from ..utils._groups import _smallest_uint, order_by_segment, segment_starts
from ..utils._validation import check_ranking_inputs

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
        with np.errstate(invalid="ignore", divide="ignore"):
            per_group = numerator / np.where(defined, denominator, 1)
    per_group = np.where(defined, per_group, np.nan)
    if average is None:
        return per_group
    if not defined.any():
        return float("nan")
    if average == "micro":
        return float(per_group[defined].mean())
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
    n_pos, n_neg, segments = _label_counts(y_pos, codes, n_groups)
    return y_pos, y_score, codes, n_groups, n_pos, n_neg, segments


def _label_counts(y_pos, codes, n_groups):
    """Relevant and irrelevant rows of each group, and every row's segment.

    Segment ``2g`` holds the relevant rows of group ``g``, ``2g + 1`` its
    irrelevant rows (small unsigned codes, ready for a radix sort).

    Returns
    -------
    n_pos, n_neg : ndarray of intp of shape (n_groups,)
    segments : ndarray of unsigned int of shape (n,)
    """
    dtype = _smallest_uint(2 * n_groups)
    segments = codes.astype(dtype)
    segments <<= 1
    segments |= ~y_pos
    counts = np.bincount(segments, minlength=2 * n_groups)
    return counts[0::2], counts[1::2], segments


@dataclass
class TieBlocks:
    """Every group's rows in decreasing score order, cut into tie blocks.

    A tie block is a maximal run of rows of one group with equal scores.
    Row arrays are in sorted order (group, then decreasing score; the order
    inside a block is arbitrary); block arrays have one entry per block.

    Attributes
    ----------
    order : ndarray of intp of shape (n,)
        Original row index of every sorted row.
    codes, pos : ndarray of shape (n,)
        Group code and relevance of every sorted row.
    block : ndarray of intp of shape (n,)
        Block of every sorted row.
    start : ndarray of intp of shape (n_blocks,)
        Sorted-row index of every block's first row.
    position : ndarray of intp of shape (n,)
        0-based place of every sorted row in its group.
    group : ndarray of intp of shape (n_blocks,)
        Group code of every block.
    gt_items, gt_pos : ndarray of intp of shape (n_blocks,)
        Rows / relevant rows of the block's group scoring strictly higher.
    size, n_pos : ndarray of intp of shape (n_blocks,)
        Rows / relevant rows in the block.
    """

    order: np.ndarray
    codes: np.ndarray
    pos: np.ndarray
    block: np.ndarray
    start: np.ndarray
    position: np.ndarray
    group: np.ndarray
    gt_items: np.ndarray
    gt_pos: np.ndarray
    size: np.ndarray
    n_pos: np.ndarray

    @property
    def gt_neg(self):
        return self.gt_items - self.gt_pos

    @property
    def n_neg(self):
        return self.size - self.n_pos


def _tie_blocks(y_pos, y_score, codes, n_groups):
    """Cut every group's score-sorted rows into tie blocks.

    One score sort and one radix sort of the group codes; everything else is
    O(n).

    Returns
    -------
    blocks : TieBlocks
    """
    by_score, by_segment = order_by_segment(y_score, codes, n_groups,
                                            stable=False)
    order = by_score[by_segment]
    codes_s = codes[order]
    pos_s = y_pos[order]
    score_s = y_score[order]
    n = order.shape[0]
    new_block = np.empty(n, dtype=bool)
    new_block[:1] = True
    np.not_equal(score_s[1:], score_s[:-1], out=new_block[1:])
    new_block[1:] |= codes_s[1:] != codes_s[:-1]
    block_start = np.flatnonzero(new_block)
    size = np.diff(np.append(block_start, n))
    cum_pos = np.zeros(n + 1, dtype=np.intp)
    np.cumsum(pos_s, out=cum_pos[1:])
    group = codes_s[block_start].astype(np.intp)
    group_start = segment_starts(np.bincount(codes, minlength=n_groups))
    first = group_start[group]
    return TieBlocks(
        order=order, codes=codes_s, pos=pos_s,
        block=np.cumsum(new_block) - 1,
        start=block_start,
        position=np.arange(n, dtype=np.intp) - group_start[codes_s],
        group=group,
        gt_items=block_start - first,
        gt_pos=cum_pos[block_start] - cum_pos[first],
        size=size,
        n_pos=cum_pos[block_start + size] - cum_pos[block_start],
    )
