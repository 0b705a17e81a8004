"""Group-aware sorting primitives shared by the metrics and the losses.

Everything here is vectorised over groups: one score sort, then a stable
sort of small integer segment codes (numpy uses a radix sort for 8 and 16 bit
integers), gives every (group, label) segment its rows in decreasing score
order. Counting how many rows of a reference set beat each row of a query set
inside the same group is one more sort of the few rows involved. There is no
Python loop over groups and no (positives x negatives) pair matrix.
"""

from dataclasses import dataclass

import numpy as np


def _smallest_uint(n_values):
    """Smallest unsigned dtype holding ``0 .. n_values - 1``."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if n_values <= np.iinfo(dtype).max + 1:
            return dtype
    return np.uint64


def encode_compact_ints(groups, n_samples):
    """``np.unique(groups, return_inverse=True)`` without a sort.

    For integer ids spanning fewer than ``2 * n_samples + 1024`` values a
    ``bincount`` gives the same codes and labels; ``None`` otherwise. Ids of
    every integer width and sign: the offsets from the smallest id are taken
    in 64 bits (in the ids' own dtype an int8 range such as -128..127
    overflows, and uint64 ids at or above 2**63 do not fit an intp).
    """
    low, high = int(groups.min()), int(groups.max())
    if high - low >= 2 * n_samples + 1024:
        return None
    wide = np.uint64 if groups.dtype.kind == "u" else np.int64
    shifted = groups.astype(wide, copy=False)
    if low:
        shifted = shifted - wide(low)
    shifted = shifted.astype(np.intp, copy=False)  # < 2 n + 1024: fits an intp
    present = np.bincount(shifted, minlength=high - low + 1) > 0
    labels = (np.flatnonzero(present).astype(wide) + wide(low)).astype(groups.dtype)
    if present.all():  # ids low, low + 1, ..., high: no remap
        return shifted, labels
    code_of = np.cumsum(present) - 1
    return code_of[shifted].astype(np.intp, copy=False), labels


def stable_sort_by_codes(codes, n_codes, order=None):
    """Stable permutation sorting ``codes`` (optionally pre-permuted by ``order``).

    Parameters
    ----------
    codes : ndarray of int of shape (n,)
        Integer codes in ``[0, n_codes)``.
    n_codes : int
        Number of distinct possible codes.
    order : ndarray of int of shape (n,), default=None
        A permutation applied first; ties between equal codes keep its order.

    Returns
    -------
    order : ndarray of intp of shape (n,)
        ``order`` refined so that ``codes[order]`` is non-decreasing.
    """
    small = codes.astype(_smallest_uint(n_codes), copy=False)
    if order is None:
        return np.argsort(small, kind="stable")
    return order[np.argsort(small[order], kind="stable")]


def descending_order(scores, *, stable=True):
    """Row order by decreasing score; with ``stable``, ties in row order.

    numpy's stable sort of floats is several times slower than its default
    vectorised sort. When no two scores tie, every sort gives the stable
    order, so the fast sort is used and checked; with ties (e.g. at
    ``w = 0``) the stable sort is used. Either way the result is the stable
    order, so everything built on it is deterministic. ``stable=False``
    skips the check, for callers that treat tied rows alike (the metrics).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._groups import descending_order
    >>> descending_order(np.array([0.5, 2.0, 0.5, 1.0]))
    array([1, 3, 0, 2])
    """
    order = np.argsort(scores)[::-1]
    if not stable:
        return order
    sorted_scores = scores[order]
    if np.any(sorted_scores[1:] == sorted_scores[:-1]):
        return np.argsort(-scores, kind="stable")
    return order


def order_by_segment(scores, segments, n_segments, *, stable=True,
                     by_score=None):
    """Sort rows by segment code, then by decreasing score, in two factors.

    Parameters
    ----------
    scores : ndarray of shape (n,)
    segments : ndarray of int of shape (n,)
        Segment code of every row, in ``[0, n_segments)``.
    n_segments : int
    stable : bool, default=True
        Break score ties by row order (see :func:`descending_order`);
        ``False`` leaves tied rows in no particular order, faster.
    by_score : ndarray of intp of shape (n,), default=None
        The rows by decreasing score, when already known (e.g. shared by
        several metrics of the same scores): not sorted again.

    Returns
    -------
    by_score, by_segment : ndarray of intp of shape (n,)
        ``by_score[by_segment]`` is the sorted order. Callers that need only
        a few positions can index ``by_segment`` first and save a full
        gather.
    """
    if by_score is None:
        by_score = descending_order(scores, stable=stable)
    small = segments.astype(_smallest_uint(n_segments), copy=False)
    return by_score, np.argsort(small[by_score], kind="stable")


def defined_groups(y_pos, codes, n_groups):
    """Mask of the groups with at least one relevant and one irrelevant row.

    Only those carry pAp@k (and AUC) signal: the others are left out of the
    surrogates and of the per-group metrics.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._groups import defined_groups
    >>> defined_groups(np.array([True, False, True]), np.array([0, 0, 1]), 2)
    array([ True, False])
    """
    n_pos = np.bincount(codes, weights=y_pos, minlength=n_groups)
    n_rows = np.bincount(codes, minlength=n_groups)
    return (n_pos > 0) & (n_pos < n_rows)


def label_segments(y_pos, codes, n_groups):
    """Segment ``2g`` for the relevant rows of group ``g``, ``2g + 1`` for its
    irrelevant rows, as small unsigned codes (ready for a radix sort)."""
    segments = codes.astype(_smallest_uint(2 * n_groups))
    segments <<= 1
    segments |= ~y_pos
    return segments


def segment_starts(counts):
    """Offset of every segment in a layout of consecutive segments."""
    starts = np.zeros(counts.shape[0], dtype=np.intp)
    np.cumsum(counts[:-1], out=starts[1:])
    return starts


def ragged_range(lengths, start=0):
    """``owner, i`` with ``i`` running over ``start[owner] .. start[owner] +
    lengths[owner] - 1`` for each owner (``start``: one int or one per owner).

    Flat, without a Python loop over the owners.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._groups import ragged_range
    >>> ragged_range([2, 1, 3])
    (array([0, 0, 1, 2, 2, 2]), array([0, 1, 0, 0, 1, 2]))
    >>> ragged_range(np.array([2, 3]), np.array([0, 10]))[1]
    array([ 0,  1, 10, 11, 12])
    """
    lengths = np.asarray(lengths, dtype=np.intp)
    owner = np.repeat(np.arange(lengths.shape[0]), lengths)
    shift = start - segment_starts(lengths)
    return owner, np.arange(owner.shape[0], dtype=np.intp) + shift[owner]


@dataclass
class SegmentRanking:
    """Rows sorted by segment, then by decreasing score.

    Attributes
    ----------
    order : ndarray of intp of shape (n,)
        Row indices sorted by segment code, then decreasing score (ties keep
        row order).
    counts : ndarray of intp of shape (n_segments,)
        Number of rows in each segment.
    starts : ndarray of intp of shape (n_segments,)
        Offset of each segment's first row in ``order``.
    rank : ndarray of intp of shape (n,)
        Rank of every row (original row order) inside its segment, 0 for the
        highest score.
    """

    order: np.ndarray
    counts: np.ndarray
    starts: np.ndarray
    rank: np.ndarray


def top_k_of_one_segment(scores, k):
    """The ``k`` rows of highest score, by decreasing score (ties: the
    earlier row first), as ``descending_order(scores)[:k]``, in ``O(n)``
    plus a sort of ``k`` rows (not of all ``n``).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._groups import top_k_of_one_segment
    >>> top_k_of_one_segment(np.array([0.5, 2.0, 0.5, 1.0, 0.5]), 3)
    array([1, 3, 0])
    """
    n = scores.shape[0]
    if k >= n:
        return descending_order(scores)
    kth = np.partition(scores, n - k)[n - k]  # the k-th highest score
    above = np.flatnonzero(scores > kth)
    tied = np.flatnonzero(scores == kth)[:k - above.shape[0]]  # earlier first
    rows = np.concatenate([above, tied])  # each part in row order
    return rows[np.argsort(-scores[rows], kind="stable")]


def rank_within_segments(scores, segments, n_segments):
    """Rank every row inside its segment by decreasing score.

    Parameters
    ----------
    scores : ndarray of shape (n,)
        Finite scores.
    segments : ndarray of int of shape (n,)
        Segment code of every row, in ``[0, n_segments)``.
    n_segments : int
        Number of segments.

    Returns
    -------
    ranking : SegmentRanking

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._groups import rank_within_segments
    >>> r = rank_within_segments(np.array([0.1, 0.9, 0.5, 0.7]),
    ...                          np.array([0, 0, 1, 1]), 2)
    >>> r.rank
    array([1, 0, 1, 0])
    """
    n = scores.shape[0]
    by_score, by_segment = order_by_segment(scores, segments, n_segments)
    order = by_score[by_segment]
    counts = np.bincount(segments, minlength=n_segments)
    starts = segment_starts(counts)
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.arange(n, dtype=np.intp) - np.repeat(starts, counts)
    return SegmentRanking(order=order, counts=counts, starts=starts, rank=rank)


@dataclass
class GroupRanking:
    """Positives and negatives of every group, each ranked by decreasing score.

    Attributes
    ----------
    rank : ndarray of intp of shape (n,)
        Rank of each row among the rows of the same group and label (0 for the
        highest score): a positive's rank among its group's positives, a
        negative's among its group's negatives.
    n_pos, n_neg : ndarray of intp of shape (n_groups,)
        Number of positives and negatives of each group.
    """

    rank: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray


def rank_by_group_and_label(y_pos, scores, codes, n_groups):
    """Rank positives and negatives inside each group by decreasing score.

    Parameters
    ----------
    y_pos : ndarray of bool of shape (n,)
        True for relevant rows.
    scores : ndarray of shape (n,)
        Finite scores.
    codes : ndarray of int of shape (n,)
        Group code of every row, in ``[0, n_groups)``.
    n_groups : int
        Number of groups.

    Returns
    -------
    ranking : GroupRanking

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._groups import rank_by_group_and_label
    >>> r = rank_by_group_and_label(np.array([True, False, True, False]),
    ...                             np.array([0.2, 0.3, 0.8, 0.1]),
    ...                             np.array([0, 0, 0, 0]), 1)
    >>> r.rank, r.n_pos, r.n_neg
    (array([1, 0, 0, 1]), array([2]), array([2]))
    """
    seg = rank_within_segments(scores, label_segments(y_pos, codes, n_groups),
                               2 * n_groups)
    counts = seg.counts.reshape(n_groups, 2)
    return GroupRanking(rank=seg.rank, n_pos=counts[:, 0], n_neg=counts[:, 1])


def count_at_least(ref_codes, ref_values, query_codes, query_values, n_groups,
                   *, strict=False):
    """For each query, count the references of its group with a value >= it.

    ``strict=True`` counts the references with a value strictly greater.
    The cost is one sort of ``len(ref) + len(query)`` values.

    Parameters
    ----------
    ref_codes, query_codes : ndarray of int
        Group codes of the references and of the queries.
    ref_values, query_values : ndarray of float
        Their values.
    n_groups : int
        Number of groups (codes lie in ``[0, n_groups)``).
    strict : bool, default=False
        Count ``ref > query`` instead of ``ref >= query``.

    Returns
    -------
    counts : ndarray of intp of shape (n_queries,)

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._groups import count_at_least
    >>> count_at_least(np.array([0, 0, 0, 1]), np.array([3., 2., 1., 5.]),
    ...                np.array([0, 0, 1]), np.array([2., 0., 6.]), 2)
    array([2, 3, 0])
    >>> count_at_least(np.array([0, 0, 0, 1]), np.array([3., 2., 1., 5.]),
    ...                np.array([0, 0, 1]), np.array([2., 0., 6.]), 2,
    ...                strict=True)
    array([1, 3, 0])
    """
    n_ref = ref_values.shape[0]
    n_query = query_values.shape[0]
    if n_query == 0:
        return np.zeros(0, dtype=np.intp)
    # At equal values the stable sort keeps concatenation order: references
    # first counts them as ">=", queries first as ">".
    if strict:
        values = np.concatenate([query_values, ref_values])
        codes = np.concatenate([query_codes, ref_codes])
        is_ref = np.zeros(n_ref + n_query, dtype=bool)
        is_ref[n_query:] = True
        query_slice = slice(0, n_query)
    else:
        values = np.concatenate([ref_values, query_values])
        codes = np.concatenate([ref_codes, query_codes])
        is_ref = np.zeros(n_ref + n_query, dtype=bool)
        is_ref[:n_ref] = True
        query_slice = slice(n_ref, n_ref + n_query)
    # The stable order is needed here: ties are broken by concatenation order.
    order = stable_sort_by_codes(codes, n_groups,
                                 np.argsort(-values, kind="stable"))
    refs_so_far = np.cumsum(is_ref[order])
    refs_before_group = segment_starts(np.bincount(ref_codes, minlength=n_groups))
    position = np.empty_like(order)
    position[order] = np.arange(order.shape[0])
    query_pos = position[query_slice]
    return refs_so_far[query_pos] - refs_before_group[query_codes]


def n_defined_groups(y_pos, codes, n_groups):
    """Number of the groups with a relevant and an irrelevant row."""
    return int(np.count_nonzero(defined_groups(y_pos, codes, n_groups)))


def n_undefined_groups(y_pos, codes, n_groups):
    """Number of the groups without a relevant or without an irrelevant row."""
    return int(n_groups - n_defined_groups(y_pos, codes, n_groups))


def tied_within_groups(scores, codes):
    """Whether no group gives two of its rows different finite scores (a
    model that cannot rank: each group's rows tie, or a score is not
    finite); ``codes``: non-negative group codes.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._groups import tied_within_groups
    >>> tied_within_groups(np.array([1.0, 1.0, 2.0]), np.array([0, 0, 1]))
    True
    >>> tied_within_groups(np.array([1.0, 2.0, 2.0]), np.array([0, 0, 1]))
    False
    """
    scores, codes = np.asarray(scores), np.asarray(codes, dtype=np.intp)
    if not np.all(np.isfinite(scores)):
        return True
    if codes.size == 0:
        return True
    # O(n), no sort: each row against one row of its group (any one: the
    # group ties exactly when every row equals it)
    one = np.empty(int(codes.max()) + 1, dtype=scores.dtype)
    one[codes] = scores
    return bool(np.all(scores == one[codes]))
