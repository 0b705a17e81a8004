"""Splitters that keep every group (user) in every part: held-out items.

The paper's MovieLens and Behance protocols (App. F) split each user's rows
into train / validation / test parts, so that the same users are scored at
training and at test time. :class:`WithinGroupKFold` does it for
cross-validation, :func:`within_group_split` for a single 60/20/20 split.
Held-out *users* (the Citation protocol) are covered by scikit-learn's
:class:`~sklearn.model_selection.GroupKFold` and
:class:`~sklearn.model_selection.GroupShuffleSplit`.

Both are vectorised over groups: every row is ranked inside its
(group, label) segment with one sort
(:func:`~skpapk.utils._groups.rank_within_segments`), and its part follows
from that rank. There is no Python loop over groups.
"""

import decimal
import itertools
import math
import numbers
import warnings
from fractions import Fraction

import numpy as np
import sklearn
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import column_or_1d
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples

from ..utils._arrays import exact_values, float_array
from ..utils._groups import defined_groups, rank_within_segments
from ..utils._labels import check_label_values, object_labels_error
from ..utils._routing import _in_model_selection, _per_thread_note, _stacklevel
from ..utils._validation import check_groups, validate_random_state


def _encode_labels(y, n_samples, *, input_name="y", example="split(X, y, groups)"):
    """Integer codes of a discrete target used for stratification;
    ``example`` is the call a missing ``y`` is told to make."""
    if y is None:
        raise ValueError(
            f"{input_name} is required: the rows of every group are stratified "
            f"by label. Pass the target, e.g. {example}."
        )
    check_label_values(y, input_name=input_name)  # a list keeps its types
    # no fixed-width strings that merge labels
    y = np.asarray(exact_values(y, input_name))
    if y.ndim != 1:
        y = column_or_1d(y, warn=True)
    if y.shape[0] != n_samples:
        raise ValueError(
            f"{input_name} has {y.shape[0]} labels but there are {n_samples} "
            f"rows; pass one label per row."
        )
    if y.dtype.kind == "f" and not np.isfinite(y).all():  # before
        # type_of_target's cast warns on NaN
        raise ValueError(f"Input {input_name} contains NaN or infinity; every "
                         f"row needs a label: drop or fill those rows.")
    target_type = type_of_target(y, input_name=input_name)
    if target_type == "unknown" and y.dtype == object:
        raise object_labels_error(input_name)
    if target_type == "continuous" and np.unique(y).shape[0] <= 2:
        target_type = "binary"  # any two numbers are two labels, e.g. 0 / 0.5
    if target_type not in ("binary", "multiclass"):
        raise ValueError(
            f"{input_name} must hold discrete labels to stratify on (e.g. 0/1 "
            f"relevance), got a {target_type!r} target; threshold graded "
            f"relevance first, e.g. {input_name} = (rating >= 4)."
        )
    classes, codes = np.unique(y, return_inverse=True)
    return codes.reshape(-1).astype(np.intp, copy=False), classes.shape[0]


_SPLIT_GROUPS_EXAMPLE = (
    "split(X, y, groups=user_ids); under metadata routing pass it as "
    "params={'groups': user_ids} or fit(X, y, groups=user_ids)")


def _require_groups(groups, n_samples, *, example=_SPLIT_GROUPS_EXAMPLE):
    """``check_groups`` of required ``groups``; ``example`` is the call a
    missing one is told to make."""
    if groups is None:
        how = f"Pass one group id per row, e.g. {example}."
        if (example is _SPLIT_GROUPS_EXAMPLE and _in_model_selection()
                and not sklearn.get_config()["enable_metadata_routing"]):
            how = (f"Metadata routing is off{_per_thread_note()}, so a "
                   f"search or cross-validation gives params={{'groups': ...}} "
                   f"to the estimator's fit, not to the splitter: turn it on, "
                   f"sklearn.set_config(enable_metadata_routing=True), or pass "
                   f"groups=user_ids to cross_val_score / the search's fit.")
        raise ValueError("groups is required: every group's (user's) rows are "
                         f"split into the parts. {how}")
    return check_groups(groups, n_samples)


def _segment_ranks(label_codes, n_classes, group_codes, n_groups, rng):
    """Rank of every row inside its (group, label) segment, and the segment
    of every row (segments ordered by group, then label).

    With ``rng=None`` the rank follows the row order, otherwise a random order.
    """
    n = label_codes.shape[0]
    segments = group_codes.astype(np.int64) * n_classes + label_codes
    n_segments = n_groups * n_classes
    if n_segments > 2 * n:  # many labels (a count as y): the pairs present
        present, segments = np.unique(segments, return_inverse=True)
        segments, n_segments = segments.reshape(-1), present.shape[0]
    if rng is None:
        scores = -np.arange(n, dtype=np.float64)
    else:
        scores = rng.permutation(n).astype(np.float64)
    return rank_within_segments(scores, segments, n_segments), segments


class WithinGroupKFold(BaseCrossValidator):
    """K-fold cross-validation inside every group, stratified by label.

    Every group's (user's) rows are dealt round-robin into ``n_splits`` test
    folds, the rows of each label of the group one after the other, so that
    every group with at least ``n_splits`` rows appears in every training and
    every test fold (held-out items, the protocol of the paper's MovieLens and
    Behance experiments, App. F). For held-out users (the Citation protocol)
    use :class:`~sklearn.model_selection.GroupKFold` instead.

    Guarantees, for every group with at least ``n_splits`` rows:

    - its rows of each label are spread over the test folds as evenly as
      possible (counts per fold differ by at most 1), and so are all its rows;
    - it has rows in every test fold and in every training fold.

    Over all groups, the test folds' sizes differ by at most 1 (small groups
    excluded). A group with fewer than ``n_splits`` rows cannot be in every
    test fold: its rows are put in every training fold and never in a test
    fold, with one ``UserWarning`` giving how many groups this concerns (lower
    ``n_splits`` to keep them). The folds are then no partition of the rows,
    which :func:`sklearn.model_selection.cross_val_predict` needs: drop such
    groups (or lower ``n_splits``) before it. A group with fewer than
    ``n_splits`` positives
    is kept, but some of its test folds get no positive, where pAp@k is
    undefined for it (the metrics leave such groups out with a warning).

    The dealing goes through the groups in the sorted order of their labels
    and carries on from one group to the next (which evens out the folds'
    sizes), so labelling the groups otherwise, for instance integer ids read
    as strings (``"10"`` sorts before ``"2"``), changes which rows share a
    fold; the guarantees above hold either way.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2.
    shuffle : bool, default=False
        Whether to deal each (group, label) segment's rows in a random order
        rather than in row order.
    random_state : int, RandomState instance or None, default=None
        Seeds the order when ``shuffle=True``. Must be None otherwise.
        One seed gives one split of the same rows in the same order; the
        rows of other users before a user's change its folds (one draw
        over all rows, as ``StratifiedKFold(shuffle=True)``).

    See Also
    --------
    within_group_split : One train / validation / test split inside groups.
    sklearn.model_selection.GroupKFold : Held-out groups (users).
    sklearn.model_selection.StratifiedGroupKFold : Held-out groups, stratified.

    Notes
    -----
    ``split`` needs ``y`` and ``groups``. The class declares
    ``__metadata_request__split = {"groups": True}``, so with
    ``sklearn.set_config(enable_metadata_routing=True)`` the groups passed to
    ``cross_validate(..., params={"groups": g})`` or
    ``GridSearchCV.fit(X, y, groups=g)`` reach the splitter (and, when they
    request them, the estimator and the scorer).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.model_selection import WithinGroupKFold
    >>> y = np.array([1, 0, 0, 1, 0, 0, 1, 1, 0, 0])
    >>> groups = np.array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    >>> X = np.zeros((10, 1))
    >>> cv = WithinGroupKFold(n_splits=2)
    >>> for train, test in cv.split(X, y, groups):
    ...     print(train, test)
    [2 3 5 7 9] [0 1 4 6 8]
    [0 1 4 6 8] [2 3 5 7 9]

    Both users are in both folds, with one positive each per test fold.
    Held-out users instead (the Citation protocol), with scikit-learn:

    >>> from sklearn.model_selection import GroupKFold, GroupShuffleSplit
    >>> [np.unique(groups[test]).tolist()
    ...  for _, test in GroupKFold(n_splits=2).split(X, y, groups)]
    [[0], [1]]
    >>> gss = GroupShuffleSplit(n_splits=1, test_size=0.5, random_state=0)
    >>> train, test = next(gss.split(X, y, groups))
    >>> len(np.intersect1d(groups[train], groups[test]))
    0
    """

    __metadata_request__split = {"groups": True}

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        if isinstance(n_splits, (bool, np.bool_)) or not isinstance(
            n_splits, numbers.Integral
        ):
            raise TypeError(
                f"n_splits must be an integer of at least 2, got {n_splits!r} "
                f"of type {type(n_splits).__name__}."
            )
        if n_splits < 2:
            raise ValueError(
                f"n_splits must be at least 2 (one training and one test "
                f"fold), got n_splits={n_splits}."
            )
        if not isinstance(shuffle, (bool, np.bool_)):
            raise TypeError(f"shuffle must be True or False, got {shuffle!r}.")
        if not shuffle and random_state is not None:
            raise ValueError(
                "Setting a random_state has no effect since shuffle is False. "
                "Leave random_state=None or set shuffle=True."
            )
        self.n_splits = int(n_splits)
        self.shuffle = bool(shuffle)
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of splitting iterations, ``n_splits``.

        Parameters
        ----------
        X, y, groups : object
            Ignored, for API compatibility.

        Returns
        -------
        n_splits : int
            The number of folds, ``n_splits``.
        """
        return self.n_splits

    def _fold_of_rows(self, X, y, groups):
        """Test fold of every row, -1 for rows of too small groups."""
        n = _num_samples(X)
        group_codes, labels = _require_groups(groups, n)
        label_codes, n_classes = _encode_labels(y, n)
        n_groups = labels.shape[0]
        rng = None
        if self.shuffle:
            rng = validate_random_state(
                self.random_state, f"random_state of {type(self).__name__}")
        seg, _ = _segment_ranks(label_codes, n_classes, group_codes, n_groups,
                                rng)
        group_sizes = np.bincount(group_codes, minlength=n_groups)
        small = group_sizes < self.n_splits
        n_small = int(np.count_nonzero(small & (group_sizes > 0)))
        if n_small == n_groups:
            raise ValueError(
                f"No group has at least n_splits={self.n_splits} rows "
                f"(the largest has {int(group_sizes.max(initial=0))}), so "
                f"every test fold would be empty; lower n_splits."
            )
        if n_small:
            warnings.warn(
                f"{n_small} of {n_groups} groups have fewer than "
                f"n_splits={self.n_splits} rows and cannot appear in every "
                f"test fold: their {int(group_sizes[small].sum())} rows are put "
                f"in every training fold only. Lower n_splits to test them.",
                UserWarning,
                stacklevel=_stacklevel(),
            )
        # ``seg.order`` lists the rows group by group, label by label, in the
        # dealing order; dealing the eligible ones round-robin gives each
        # segment, each group and each fold counts within 1 of each other.
        eligible = ~small[group_codes[seg.order]]
        position = np.cumsum(eligible) - 1
        fold = np.full(n, -1, dtype=np.intp)
        fold[seg.order[eligible]] = position[eligible] % self.n_splits
        return fold

    def split(self, X, y=None, groups=None):
        """Generate indices to split data into training and test set.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (only its length is used).
        y : array-like of shape (n_samples,)
            Labels to stratify on inside each group (required).
        groups : array-like of shape (n_samples,)
            Group (user) id of each row (required).

        Yields
        ------
        train : ndarray of int
            Training indices of the split, sorted.
        test : ndarray of int
            Test indices of the split, sorted.
        """
        fold = self._fold_of_rows(X, y, groups)
        indices = np.arange(fold.shape[0])
        for i in range(self.n_splits):
            test = fold == i
            yield indices[~test], indices[test]

    def _iter_test_masks(self, X=None, y=None, groups=None):
        fold = self._fold_of_rows(X, y, groups)
        for i in range(self.n_splits):
            yield fold == i


def _check_sizes(sizes):
    """``sizes`` as exact fractions, as written (:func:`_as_written`);
    a ValueError unless they are positive and sum to 1."""
    raw = sizes
    if isinstance(sizes, (dict, set, frozenset)):  # NumPy reads their keys
        raise TypeError(f"sizes must be a sequence of fractions in the parts' "
                        f"order, e.g. (0.6, 0.2, 0.2), got a "
                        f"{type(sizes).__name__}; pass a tuple or list.")
    sizes = float_array(sizes, input_name="sizes", expected="a sequence of "
                        "fractions, e.g. (0.6, 0.2, 0.2)")
    if sizes.ndim != 1 or sizes.shape[0] < 1:
        raise ValueError(
            f"sizes must be a non-empty 1-d sequence of fractions, e.g. "
            f"(0.6, 0.2, 0.2), got {sizes.tolist()!r}."
        )
    if not np.all(np.isfinite(sizes)) or np.any(sizes <= 0):
        raise ValueError(
            f"sizes must be positive fractions, got {sizes.tolist()}; drop the "
            f"parts you do not need."
        )
    written, eps = _as_written(raw, sizes)
    total = sum(written)
    # the float rounding of the fractions as written: 1e-8, or that of a
    # lower precision (three float32 thirds, as written, sum to 1.00000002)
    if abs(total - 1) > max(1e-8, len(written) * eps):
        raise ValueError(
            f"sizes must sum to 1 (one fraction of every group per part), got "
            f"{[float(f) for f in written]} summing to {float(total):.10g}; e.g. "
            f"sizes=(0.6, 0.2, 0.2)."
        )
    return written


def _as_written(raw, sizes):
    """The checked ``sizes`` as exact fractions, as ``raw`` writes them, and
    the machine epsilon of the lowest float precision among them (0 for
    Python floats and float64): the shortest decimal of each float in its
    own precision (``np.float32(0.7)`` is 7/10, not its float64 value
    0.699999988...), other numbers exactly."""
    values = raw if isinstance(raw, (list, tuple)) else np.asarray(raw)
    if np.ndim(values) != 1 or len(values) != sizes.shape[0]:
        values = sizes  # an iterator (read by float_array): its floats
    fractions, eps = [], 0.0
    for value, checked in zip(values, sizes):
        if isinstance(value, np.ndarray):  # a 0-d array: its scalar
            value = value[()]
        if isinstance(value, np.floating):  # its own shortest decimal
            fractions.append(Fraction(str(value)))
            if value.dtype.itemsize < 8:
                eps = max(eps, float(np.finfo(value.dtype).eps))
        elif isinstance(value, (numbers.Rational, decimal.Decimal)):
            fractions.append(Fraction(value))
        else:
            fractions.append(Fraction(repr(float(checked))))
    return fractions, eps


def within_group_split(y, groups, *, sizes=(0.6, 0.2, 0.2), random_state=None):
    """Split every group's rows into parts of given fractions, by label.

    The paper splits every user's rows 60/20/20 into train, validation and
    test parts (App. F). Each (group, label) segment of ``n`` rows is shuffled
    and cut at the positions ``floor(c_j * n + 1/2)`` where ``c_j`` are the
    cumulative fractions ``sizes[0] + ... + sizes[j]`` (exact sums of the
    fractions as written: ``0.2 + 0.7`` is 0.9, and a float32 ``0.7`` is
    0.7, not 0.699999988...): so each part gets, from each label of each
    group, a number of rows within 1 of ``sizes[j] * n``. The rounding is
    deterministic (a segment of a single row goes to the train part with
    the default sizes, so a user with one positive has it in train only).
    Every row lands in exactly one part.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Discrete labels to stratify on (e.g. 0/1 relevance).
    groups : array-like of shape (n_samples,)
        Group (user) id of each row.
    sizes : sequence of float, default=(0.6, 0.2, 0.2)
        Positive fractions summing to 1, one per part.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffling inside every segment. One seed gives one split
        of the same rows in the same order; the rows of other users before
        a user's change its parts (one draw over all rows).

    Returns
    -------
    parts : tuple of ndarray of int
        One sorted index array per entry of ``sizes``.

    Raises
    ------
    ValueError
        When a part would be empty: every (group, label) segment is too
        short for the rounding to put a row in it (as
        :func:`~sklearn.model_selection.train_test_split` refuses an empty
        part).

    See Also
    --------
    WithinGroupKFold : Cross-validation inside groups.
    sklearn.model_selection.GroupShuffleSplit : Held-out groups (users).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.model_selection import within_group_split
    >>> y = np.array([1, 0, 0, 0, 0, 1, 1, 0, 0, 0])
    >>> groups = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    >>> train, val, test = within_group_split(y, groups, random_state=0)
    >>> [np.bincount(groups[part]).tolist() for part in (train, val, test)]
    [[3, 3], [1, 1], [1, 1]]
    >>> sorted(np.concatenate([train, val, test]).tolist()) == list(range(10))
    True
    """
    parts, longest = _within_group_parts(y, groups, sizes, random_state)
    empty = [j for j, part in enumerate(parts) if part.size == 0]
    if empty:
        raise ValueError(
            f"within_group_split(sizes={tuple(float(f) for f in sizes)}) leaves "
            f"part {empty[0]} "
            f"empty: the longest (group, label) segment has {longest} row"
            f"{'s' * (longest != 1)}, and each segment of n rows is cut at "
            f"floor(c * n + 1/2) (c the cumulative fractions), which puts none "
            f"in it; give that part a larger fraction, ask for fewer parts, or "
            f"split groups with more rows of each label.")
    return parts


def _within_group_parts(y, groups, sizes, random_state):
    """:func:`within_group_split`'s parts, empty ones included, and the
    number of rows of the longest (group, label) segment."""
    written = _check_sizes(sizes)
    if y is None:  # raises, naming y
        _encode_labels(None, 0, example="within_group_split(y, groups)")
    n = _num_samples(y)
    group_codes, labels = _require_groups(
        groups, n, example="within_group_split(y, groups=user_ids)")
    label_codes, n_classes = _encode_labels(y, n)
    rng = validate_random_state(random_state)
    seg, segment = _segment_ranks(label_codes, n_classes, group_codes,
                                  labels.shape[0], rng)
    # the cuts in exact arithmetic, of the fractions as written: the float
    # sum 0.2 + 0.7 = 0.8999999999999999 cut 15 rows at 13, not at
    # floor(0.9 * 15 + 1/2) = 14
    fractions = written[:-1]
    counts, segment_count = np.unique(seg.counts, return_inverse=True)
    row_count = segment_count.reshape(-1)[segment]
    # part = number of inner cut positions at or below the row's rank
    part = np.zeros(n, dtype=np.intp)
    for c in itertools.accumulate(fractions):  # the few parts, not groups
        cuts = np.array([math.floor(c * int(m) + Fraction(1, 2)) for m in counts],
                        dtype=np.int64)  # one per distinct segment size
        part += seg.rank >= cuts[row_count]
    indices = np.arange(n)
    return (tuple(indices[part == j] for j in range(len(written))),
            int(seg.counts.max(initial=0)))


class EarlyStoppingSplitError(ValueError):
    """Early stopping's held-out rows leave no group with both labels in
    training or in validation (its message says what to change)."""


def _early_stopping_rows(y_pos, codes, n_groups, validation_fraction,
                         random_state, *, setting="early_stopping=True"):
    """Training and validation rows of a ranker's ``early_stopping``.

    ``validation_fraction`` of every group's relevant and of its irrelevant
    rows go to validation (:func:`within_group_split`); both parts must keep
    a group with both labels, else an :class:`EarlyStoppingSplitError`
    names ``setting`` and says how to fix ``validation_fraction``.

    Returns
    -------
    train, val : ndarray of intp
    """
    train, val = _held_out_split(y_pos, codes, validation_fraction, random_state)
    n_train = defined_groups(y_pos[train], codes[train], n_groups).any()
    n_val = defined_groups(y_pos[val], codes[val], n_groups).any()
    possible = True
    if not (n_train and n_val):  # a split that no fraction can make: every
        # group has at most one row of one label, which goes to one part
        n_pos = np.bincount(codes, weights=y_pos, minlength=n_groups)
        n_neg = np.bincount(codes, minlength=n_groups) - n_pos
        possible = bool(np.any((n_pos >= 2) & (n_neg >= 2)))
    _check_early_stopping_split(validation_fraction, n_train, n_val,
                                possible=possible, setting=setting)
    return train, val


def _held_out_split(y_pos, codes, fraction, random_state):
    """``(train, held)`` rows: ``fraction`` of every group's relevant and of
    its irrelevant rows held out (:func:`within_group_split`)."""
    return _within_group_parts(y_pos, codes, (1.0 - fraction, fraction),
                               random_state)[0]


def _check_early_stopping_split(validation_fraction, n_train, n_val, *,
                                where="", possible=True,
                                setting="early_stopping=True"):
    """Raise unless the training and the validation rows of early stopping
    both have a group with both labels (``n_train`` and ``n_val`` such
    groups); ``where`` follows "row" in the message; ``possible``: whether
    some group has two rows of each label, without which no fraction works;
    ``setting``: the parameter that turned early stopping on."""
    if not (n_train and n_val) and not possible:
        raise EarlyStoppingSplitError(
            f"early stopping needs a group with both a relevant and an "
            f"irrelevant row in its training and in its validation rows, but "
            f"every group has at most one relevant or one irrelevant row"
            f"{where}, so no validation_fraction can hold out both labels and "
            f"keep them; set early_stopping=False, or give validation rows "
            f"(X_val, y_val and groups_val).")
    for part, n_defined, fix in (("validation", n_val, "raise"),
                                 ("training", n_train, "lower")):
        if not n_defined:
            raise EarlyStoppingSplitError(
                f"{setting} with validation_fraction="
                f"{validation_fraction} leaves no group with both a relevant "
                f"and an irrelevant {part} row{where} (a group needs about 1 / "
                f"validation_fraction rows of each label to give one of each "
                f"to validation); {fix} validation_fraction or set "
                f"early_stopping=False."
            )
