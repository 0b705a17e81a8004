"""Recommendation: each group's ``k`` highest scored rows.

:func:`top_k_rows` selects them from scores (no Python loop over groups:
one sort by group and score, or a partition for a single list);
:meth:`skpapk.BaseRanker.recommend` and :func:`recommend`, for any fitted
model that ranks rows (a pipeline or a search around a ranker, a
classifier), return its :class:`Recommendations`.
"""

from collections import namedtuple

import numpy as np

from .metrics._scorer import _is_classifier, _ranker_classes, ranking_scores
from .utils._groups import rank_within_segments, top_k_of_one_segment
from .utils._labels import python_value
from .utils._messages import cut
from .utils._validation import check_groups, check_k, check_model_scores, check_scores


class Recommendations(namedtuple("Recommendations", ["indices", "indptr", "groups"])):
    """Each group's top-k rows, laid out as a CSR matrix.

    The rows recommended to group ``groups[g]`` are
    ``indices[indptr[g]:indptr[g + 1]]``, by decreasing score.

    A named tuple, returned by the rankers' ``recommend`` and by
    :func:`recommend`; its fields are also its constructor's parameters.

    Parameters
    ----------
    indices : ndarray of intp
        Row indices (positions in the ``X`` given to ``recommend``).
    indptr : ndarray of intp of shape (n_groups + 1,)
        Offsets of each group's rows in ``indices``.
    groups : ndarray of shape (n_groups,)
        The sorted distinct group labels.

    See Also
    --------
    BaseRanker.recommend : The rankers' method that returns it.
    recommend : The same for any fitted model (a pipeline, a search).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import PApKRanker
    >>> X = np.array([[0.0], [2.0], [1.0], [3.0], [5.0]])
    >>> y, groups = [0, 1, 0, 1, 0], ["ann", "ann", "ann", "bob", "bob"]
    >>> ranker = PApKRanker(k=1).fit(X, y, groups=groups)
    >>> rec = ranker.recommend(X, groups, k=2)
    >>> rec.groups
    array(['ann', 'bob'], dtype='<U3')
    >>> rec.indices[rec.indptr[0]:rec.indptr[1]]     # ann's 2 best rows
    array([1, 2])
    >>> rec.to_frame(items=["tea", "jam", "ham", "egg", "oat"])
      group  rank  row item
    0   ann     1    1  jam
    1   ann     2    2  ham
    2   bob     1    4  oat
    3   bob     2    3  egg
    """

    #: The number of rows of the ``X`` given to ``recommend`` (None: not
    #: known, for Recommendations made by hand), which ``to_frame`` checks
    #: its ``items`` against.
    n_rows = None

    def __repr__(self):
        """The fields, each array cut to its first and last 3 values."""
        with np.printoptions(threshold=12, edgeitems=3):
            return super().__repr__()

    def to_frame(self, items=None):
        """The recommendations as a table, one row per recommended row.

        Parameters
        ----------
        items : array-like of shape (n_rows,), default=None
            The item of every row of the ``X`` given to ``recommend`` (e.g.
            that DataFrame's ``"item_id"`` column), taken by position: a
            pandas Series' index is not read. Adds an ``item`` column.

        Returns
        -------
        frame : pandas.DataFrame
            Columns ``group`` (the group's label), ``rank`` (1 for its best
            row), ``row`` (the position in ``X``) and, with ``items``,
            ``item``, group after group, best first.
        """
        import pandas as pd

        indices, indptr = np.asarray(self.indices), np.asarray(self.indptr)
        groups = np.asarray(self.groups)
        sizes = np.diff(indptr)
        if (indices.ndim != 1 or groups.ndim != 1
                or indptr.shape != (groups.shape[0] + 1,)
                or indptr[0] != 0 or (sizes < 0).any()
                or indptr[-1] != indices.shape[0]):
            raise ValueError(
                f"Recommendations do not fit together: indptr must rise from "
                f"0 to len(indices) ({indices.size}) with one step per group "
                f"({groups.size}), got indptr="
                f"{cut(repr(indptr.tolist()), quote=False)}; use the "
                f"Recommendations that recommend returns.")
        frame = pd.DataFrame({
            "group": np.repeat(groups, sizes),
            "rank": np.arange(indices.shape[0]) - np.repeat(indptr[:-1], sizes) + 1,
            "row": indices})
        if items is not None:
            values = items.to_numpy() if hasattr(items, "to_numpy") else (
                np.asarray(items))
            if values.ndim != 1:
                raise ValueError(f"items must be 1-D, one item per row of X, got "
                                 f"shape {values.shape}.")
            if self.n_rows is not None and values.shape[0] != self.n_rows:
                raise ValueError(
                    f"items has {values.shape[0]} values, but recommend was "
                    f"given {self.n_rows} rows: give one item per row of that "
                    f"X, in its order (for X[rows], items[rows]).")
            if indices.size and values.shape[0] <= indices.max():
                raise ValueError(
                    f"items has {values.shape[0]} values, but the "
                    f"recommendations name row {int(indices.max())}: give one "
                    f"item per row of the X given to recommend, in its order.")
            frame["item"] = values[indices]
        return frame


Recommendations.indices.__doc__ = "Row indices, group after group (``indptr``)."
Recommendations.indptr.__doc__ = "Offsets of each group's rows in ``indices``."
Recommendations.groups.__doc__ = "The sorted distinct group labels."


def top_k_rows(scores, groups, k):
    """:class:`Recommendations` of ``scores`` (one per row) by ``groups``
    (``None``: one group), ``k`` checked; NaN scores are refused (they have
    no rank: they emptied lists or came first), infinite ones ranked."""
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":  # bools as 0/1, integers beyond 2**53 by rank;
        # text and complex numbers refused
        scores = check_scores(scores, scores.shape[0] if scores.ndim else 1,
                              input_name="scores", order_only=True)
    scores = check_model_scores(scores, allow_infinite=True)
    codes, labels = check_groups(groups, scores.shape[0])
    n_groups = labels.shape[0]
    if n_groups == 1:  # one list (no groups): no full sort
        indices = top_k_of_one_segment(scores, k)
        rec = Recommendations(indices=indices, indptr=np.array(
            [0, indices.shape[0]], dtype=np.intp), groups=labels)
    else:
        seg = rank_within_segments(scores, codes, n_groups)
        indices = seg.order[seg.rank[seg.order] < k]
        indptr = np.zeros(n_groups + 1, dtype=np.intp)
        np.cumsum(np.minimum(seg.counts, k), out=indptr[1:])
        rec = Recommendations(indices=indices, indptr=indptr, groups=labels)
    rec.n_rows = scores.shape[0]
    return rec


def _k_of(estimator):
    """``k`` of a ranker, of a pipeline's last step, of a search's
    ``best_estimator_`` or of the fitted ``estimator_`` of a wrapper
    (``RFE``, ``RFECV``), nested; None when none has one."""
    while estimator is not None:
        k = getattr(estimator, "k", None)
        if k is not None:
            return k
        steps = getattr(estimator, "steps", None)
        inner = getattr(estimator, "best_estimator_", None)
        estimator = (steps[-1][1] if steps else inner if inner is not None
                     else getattr(estimator, "estimator_", None))
    return None


def recommend(estimator, X, groups=None, *, k=None, pos_label=None):
    """Each group's ``k`` highest scored rows under any fitted model.

    :meth:`skpapk.BaseRanker.recommend` for the models that have no such
    method: a pipeline or a search (``GridSearchCV``) around a ranker, a
    classifier. The rows are ranked as the scorers of :mod:`skpapk.metrics`
    rank them, ``pos_label`` first: by ``decision_function`` (negated when
    it scores the other label), else by the probability of ``pos_label``
    from ``predict_proba``, else by ``predict`` (``lightgbm.LGBMRanker``).

    Parameters
    ----------
    estimator : estimator
        A fitted model.
    X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)
        Candidate items of every group (user), as the model takes them.
    groups : array-like of shape (n_samples,), default=None
        Group label of every row; ``None``: one group.
    k : int, default=None
        Length of each list; ``None``: the ``k`` of the ranker in
        ``estimator`` (itself, a pipeline's last step, a search's
        ``best_estimator_``, a wrapper's ``estimator_`` such as
        ``RFECV``'s), which a model without one needs. A group
        with fewer rows gets all of them.
    pos_label : int, float, bool or str, default=None
        The relevant label, ranked first; one of a ranker's classes.
        ``None``: the one a ranker was fitted as relevant, else the greater
        class of a classifier of numbers (a classifier of words needs it).

    Returns
    -------
    recommendations : Recommendations
        Named tuple ``(indices, indptr, groups)``: the rows of group
        ``groups[g]`` are ``indices[indptr[g]:indptr[g + 1]]`` (positions in
        ``X``, not its index labels), by decreasing score (ties: the earlier
        row first). Groups are in sorted label order.

    Raises
    ------
    ValueError
        When ``k`` is None and no ranker in ``estimator`` has one, when
        ``pos_label`` is None for a classifier of words or not one of a
        ranker's classes, or when a score is NaN.
    TypeError
        When the scores are not real numbers (text, complex).

    See Also
    --------
    skpapk.BaseRanker.recommend : The rankers' method.
    Recommendations : The result.

    Examples
    --------
    >>> import numpy as np
    >>> import sklearn
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from skpapk import PApKRanker, recommend
    >>> X = np.array([[0.0], [2.0], [1.0], [3.0], [5.0]])
    >>> y, groups = [0, 1, 0, 1, 0], ["ann", "ann", "ann", "bob", "bob"]
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     pipe = make_pipeline(StandardScaler(), PApKRanker(k=1))
    ...     pipe = pipe.fit(X, y, groups=groups)
    >>> rec = recommend(pipe, X, groups, k=2)
    >>> rec.indices[rec.indptr[0]:rec.indptr[1]]     # ann's 2 best rows
    array([1, 2])
    """
    pos_label = python_value(pos_label)  # compared with classes exactly
    if k is None:
        k = _k_of(estimator)
        if k is None:
            raise ValueError(
                f"k=None takes the k of a ranker, and "
                f"{type(estimator).__name__} has none (nor a pipeline's last "
                f"step or a search's best_estimator_); pass k, the length of "
                f"each list, e.g. k=10.")
    k = check_k(k)
    name, classes = type(estimator).__name__, getattr(estimator, "classes_", None)
    if (pos_label is None and classes is not None and _is_classifier(estimator)
            and np.asarray(classes).dtype.kind not in "biuf"):
        raise ValueError(
            f"{name}'s classes {np.asarray(classes).tolist()} are not numbers: "
            f"say which one is relevant with pos_label (e.g. pos_label="
            f"{np.asarray(classes).tolist()[0]!r}); their alphabetical order "
            f"would rank the other one first whenever the relevant one sorts "
            f"first.")
    ranker_classes = _ranker_classes(estimator)  # no y here to check it against
    if pos_label is not None and ranker_classes is not None and (
            pos_label not in ranker_classes):  # Python values: exactly
        raise ValueError(
            f"pos_label={pos_label!r} is not a class of {name} (classes_="
            f"{np.asarray(ranker_classes).tolist()}); pass the relevant class "
            f"as pos_label, or leave it None (the one it was fitted as "
            f"relevant).")
    scores = np.asarray(ranking_scores(estimator, X, pos_label))
    if scores.ndim != 1:
        raise ValueError(
            f"{type(estimator).__name__} gave scores of shape {scores.shape}; "
            f"recommend needs one score per row (a binary problem).")
    return top_k_rows(scores, groups, k)
