"""What every distributed ranker shares: loading and checking the partitions,
and the fitted ranker's methods on dask input.

A distributed ``fit`` loads and checks every partition on its worker
(:func:`load_partitions`), then checks on the client that the labels are
binary and that no group (user) has rows in two partitions
(:func:`check_partitions`). :class:`DaskRankerMixin` gives the fitted
ranker ``decision_function`` and ``score`` on dask input (block by block,
on the workers), ``recommend`` (in-memory input) and ``to_local``; each
ranker says how a block is scored (``_block_scorer``).
"""

import inspect
import numbers
import re
import textwrap
import warnings

import dask
import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from .._base import _refuse_datetimes, check_score_sample_weight
from .._categorical import categorical_codes
from ..model_selection._split import _check_early_stopping_split
from ..utils._labels import check_at_most_two, relevant_last
from ..utils._routing import _stacklevel, check_groups_routing
from . import _worker
from ._oracle import PersistedPartitions
from ._partition import is_dask_collection, is_frame, split_partitions

_REPARTITION_FIX = (
    "shuffle the rows by user with skpapk.dask.partition_by_group(X, y, "
    "groups=groups) for dask arrays, or partition_by_group(df, "
    "groups='<user column>') for a dask DataFrame"
)


_SECTION_HEADER = re.compile(r"\n([A-Z][A-Za-z ]+)\n-+\n")


def local_sections(local_class):
    """The Parameters and Attributes sections of an in-memory class's docstring.

    A distributed class takes the parameters of its in-memory namesake and
    has its fitted attributes: its docstring carries the same sections (so
    that ``help()``, the API pages and numpydoc's validation see them),
    taken from the namesake's docstring rather than written out twice.

    Parameters
    ----------
    local_class : type
        The in-memory ranker class, with a numpydoc docstring.

    Returns
    -------
    parameters, attributes : str
        The bodies of the two sections, indented as in the class docstring
        (4 spaces), without their headers; empty under ``python -OO``.
    """
    if local_class.__doc__ is None:  # python -OO strips the docstrings
        return "", ""
    # without the indentation, which Python >= 3.13 strips when compiling
    doc = inspect.cleandoc(local_class.__doc__)
    headers = list(_SECTION_HEADER.finditer(doc))
    bodies = {}
    for header, following in zip(headers, headers[1:] + [None]):
        end = following.start() if following is not None else len(doc)
        bodies[header.group(1)] = textwrap.indent(
            doc[header.end():end].strip(), "    ").lstrip()
    return bodies["Parameters"], bodies["Attributes"]


def any_dask(*args):
    """Whether any argument is a dask collection."""
    return any(is_dask_collection(a) for a in args)


def reject_validation_rows(estimator, X_val, y_val, groups_val):
    """Validation rows given to ``fit`` with dask input: a ``ValueError``."""
    if X_val is not None or y_val is not None or groups_val is not None:
        raise ValueError(
            f"{type(estimator).__name__}.fit takes no X_val, y_val or "
            f"groups_val with dask input; leave them out to hold out "
            f"validation_fraction of every user's rows on the workers.")


def check_whole_groups(group_labels, has_groups, n_rows):
    """Raise when a group has rows in several partitions; return the groups.

    Parameters
    ----------
    group_labels : list of ndarray
        The distinct group labels of every partition.
    has_groups : bool
        False when ``groups=None`` (all rows form one group).
    n_rows : list of int
        Rows of every partition.

    Returns
    -------
    n_groups : int
        Number of distinct groups.
    """
    if not has_groups:
        used = [i for i, n in enumerate(n_rows) if n]
        if len(used) > 1:
            raise ValueError(
                f"groups=None makes all the rows one group, but they lie in "
                f"{len(used)} partitions (e.g. {used[0]} and {used[1]}); pass "
                f"groups (the user of every row) partitioned like X, with "
                f"every user's rows in one partition."
            )
        return 1
    labels = [g for g in group_labels if g.shape[0]]
    if not labels:
        return 0
    try:
        every = np.concatenate(labels)
        distinct, counts = np.unique(every, return_counts=True)
    except TypeError as exc:
        raise TypeError(
            f"groups labels of different partitions cannot be compared "
            f"({exc}); use labels of one type such as int or str."
        ) from exc
    if distinct.shape[0] < every.shape[0]:
        spanning = distinct[counts > 1]
        example = spanning[0]
        # element by element (the error's path only): np.isin reads a
        # composite key, a tuple, as an array
        where = [i for i, g in enumerate(group_labels)
                 if any(value == example for value in g.tolist())]
        if isinstance(example, np.generic):  # a Python object as it is
            example = example.item()
        elif isinstance(example, tuple):  # a composite key
            example = tuple(v.item() if isinstance(v, np.generic) else v
                            for v in example)
        raise ValueError(
            f"{spanning.shape[0]} user(s) of groups have rows in more than one "
            f"partition of X (e.g. user {example!r} in partitions "
            f"{where[:5]}). A user's surrogate and score are not sums over "
            f"its rows, so the distributed fit and score need each user's rows "
            f"in one partition: {_REPARTITION_FIX}."
        )
    return distinct.shape[0]


def _check_number_columns(estimator, X):
    """Fail, before any work, on dates or durations in ``X``, or a category
    column of a dask DataFrame ``X`` whose (known) categories are not
    numbers; a column of text is named by the workers
    (:func:`~._worker.load_partition`), which see its values."""
    _refuse_datetimes(estimator, X, "X")  # the dtypes of the graph
    meta = getattr(X, "_meta", None)
    for name, dtype in (meta.dtypes.items() if hasattr(meta, "columns") else ()):
        if (getattr(dtype, "categories", None) is not None and X[name].cat.known
                and dtype.categories.dtype.kind not in "biuf"):
            raise ValueError(
                f"X column {name!r} holds categories that are not numbers, but "
                f"{type(estimator).__name__} takes numbers only: {_worker.TEXT_FIX}")


def load_partitions(estimator, X, y, groups):
    """Load and check every partition on the workers (NaN features pass
    when ``estimator`` handles them).

    Returns
    -------
    X : dask array or dask DataFrame
        ``X`` with its features in one block.
    loaded : PersistedPartitions
        The checked partitions (:class:`~._worker.LoadedPartition`).
    summaries : list of dict
        :func:`~._worker.summarize_partition` of every partition.
    """
    _check_number_columns(estimator, X)
    X, triples = split_partitions(X, y, groups)
    ensure_all_finite = estimator._ensure_all_finite()
    n_features = (X._meta if is_frame(X) else X).shape[1]
    n_features = None if np.isnan(n_features) else int(n_features)  # unknown
    loaded = [dask.delayed(_worker.load_partition)(
                  x, yy, g, i, ensure_all_finite=ensure_all_finite,
                  n_features=n_features, estimator=type(estimator).__name__)
              for i, (x, yy, g) in enumerate(triples)]
    loaded = PersistedPartitions(loaded)
    summaries = loaded.map(_worker.summarize_partition)
    return X, loaded, summaries


def check_partitions(estimator, X, summaries, groups):
    """The checks of the in-memory ``fit`` over all the partitions.

    Sets ``n_features_in_`` (and ``feature_names_in_``) of ``estimator``
    from ``X``; raises when there are no rows, more than two labels, or a
    group in several partitions.

    Returns
    -------
    classes : ndarray
        The labels of all the partitions, the relevant one last.
    n_groups : int
        Number of distinct groups.
    """
    meta = X._meta if is_frame(X) else X
    validate_data(estimator, meta, reset=True, skip_check_array=True)
    n_rows = [s["n_rows"] for s in summaries]
    if sum(n_rows) == 0:
        raise ValueError("X has no rows: every partition is empty.")
    # classes_: the labels of all partitions, the relevant one last
    seen = [s["classes"] for s in summaries if s["classes"] is not None]
    kinds = {"number" if isinstance(label, (numbers.Real, np.bool_))
             else type(label).__name__ for c in seen for label in c.tolist()}
    if len(kinds) > 1:  # np.concatenate would turn numbers into text
        raise TypeError(f"y mixes labels of types {sorted(kinds)} across its "
                        f"partitions, which cannot be ordered; convert them to "
                        f"one type (all numbers, or all strings).")
    classes = np.unique(np.concatenate(seen))
    check_at_most_two(classes, input_name="y", where=" across its partitions")
    classes = relevant_last(classes, getattr(estimator, "pos_label", None),
                            input_name="y", estimator_name=type(estimator).__name__)
    n_groups = check_whole_groups([s["group_labels"] for s in summaries],
                                  groups is not None, n_rows)
    check_groups_routing(estimator, groups, method="fit", n_groups=n_groups)
    return classes, n_groups


def check_validation_counts(validation_fraction, n_train, n_val):
    """The errors of the in-memory early-stopping split, over all partitions
    (``n_train`` and ``n_val`` defined groups)."""
    _check_early_stopping_split(validation_fraction, n_train, n_val,
                                where=" in any partition")


def partition_seeds(random_state, n_partitions, early_stopping):
    """Seeds of the partitions' early-stopping splits, one per partition
    drawn from ``random_state`` (``None`` each without early stopping)."""
    if not early_stopping:
        return [None] * n_partitions
    rng = check_random_state(random_state)
    return rng.randint(np.iinfo(np.int32).max, size=n_partitions).tolist()


class DaskRankerMixin:
    """``decision_function``, ``score``, ``recommend``, ``to_local`` of a
    fitted ranker, on dask input.

    Put before the in-memory class in the bases; ``_local_class`` is that
    class (the one :meth:`to_local` returns). Subclasses define
    ``_block_scorer`` (a picklable callable scoring a checked block of rows,
    float64 scores).
    """

    _local_class = None

    def _block_scorer(self):  # pragma: no cover - abstract
        """A picklable ``scorer(X_block) -> scores`` of the fitted ranker."""
        raise NotImplementedError

    def _fitted_categories(self):
        """The categories of the ``category`` columns of the fit, to code a
        DataFrame's as the in-memory ranker does; None: not coded."""
        return None

    def _check_dask_features(self, X):
        """Check a dask ``X`` against the fitted features; return X's row
        blocks (a DataFrame's ``category`` columns coded as in the fit)."""
        check_is_fitted(self)
        X, _ = split_partitions(X, None, None)
        meta = X._meta if is_frame(X) else X
        validate_data(self, meta, reset=False, skip_check_array=True)
        _refuse_datetimes(self, X, "X")  # the dtypes of the graph
        categories = self._fitted_categories()
        if categories is not None and is_frame(X):
            coded = categorical_codes(  # raises on a mismatch
                meta, categories,
                positions=getattr(self, "_category_positions", None),
                feature_names=getattr(self, "feature_names_in_", None))[0]
            if coded is not meta:
                X = X.map_partitions(_worker.code_categories, categories,
                                     meta=coded)
                meta = coded
        if is_frame(X) and any(dtype.kind in "OSU" for dtype in meta.dtypes):
            # text: named by the workers, which see the values
            X = X.map_partitions(_worker.refuse_text, type(self).__name__,
                                 meta=meta)
        return X

    def decision_function(self, X):
        """Score every row; higher means recommended first.

        Parameters
        ----------
        X : {array-like, sparse matrix, dask array, dask DataFrame} of shape \
                (n_samples, n_features)

        Returns
        -------
        scores : ndarray or dask array of shape (n_samples,)
            The in-memory ranker's scores: a dask array, computed block by
            block on the workers, when ``X`` is a dask collection.
        """
        if not is_dask_collection(X):
            return self._local_class.decision_function(self, X)
        X = self._check_dask_features(X)
        if is_frame(X):
            X = X.to_dask_array()
        return X.map_blocks(_worker.decision_block, self._block_scorer(),
                            self._ensure_all_finite(), self.n_features_in_,
                            drop_axis=1, dtype=np.float64,
                            meta=np.empty((0,), dtype=np.float64))

    def score(self, X, y, groups=None, sample_weight=None):
        """Micro-pAp@k at ``self.k`` (paper eq. 17) of the scores on ``X``.

        As the in-memory ``score``; with dask input, every partition adds
        up its users' pAp@k gains on its worker (each user's rows must lie
        in one partition, as for ``fit``).

        Parameters
        ----------
        X : dask array, dask DataFrame or {array-like, sparse matrix} of \
                shape (n_samples, n_features)
            Features of the rows to score.
        y : dask array, dask Series or array-like of shape (n_samples,)
            Binary relevance labels, among the fitted ``classes_``,
            partitioned like ``X`` when ``X`` is a dask collection.
        groups : dask array, dask Series or array-like of shape \
                (n_samples,), default=None
            Group (user) label of every row, partitioned like ``X``;
            ``None``: one group.
        sample_weight : None
            Not supported: micro-pAp@k weighs every user alike (any other
            value raises a ``ValueError``).

        Returns
        -------
        score : float
            Mean over groups of the pAp@k gains (groups without a relevant
            or an irrelevant row left out with an ``UndefinedMetricWarning``).
        """
        if not any_dask(X, y, groups):
            return self._local_class.score(self, X, y, groups=groups,
                                           sample_weight=sample_weight)
        check_score_sample_weight(self, sample_weight)
        X = self._check_dask_features(X)
        X, triples = split_partitions(X, y, groups)
        scorer = dask.delayed(self._block_scorer(), pure=True)
        tasks = [dask.delayed(_worker.score_sums)(
                     x, yy, g, i, scorer, self.k, self.classes_,
                     type(self).__name__, self._ensure_all_finite(),
                     self.n_features_in_)
                 for i, (x, yy, g) in enumerate(triples)]
        results = dask.compute(*tasks)
        labels = [r[2] for r in results]
        check_whole_groups(labels, groups is not None,
                           [g.shape[0] for g in labels])
        # after the check of the partitions: groups=None with rows in several
        # is an error, which a MissingGroupsWarning must not precede
        check_groups_routing(self, groups, method="score")
        gains = float(np.sum([r[0] for r in results]))
        count = sum(r[1] for r in results)
        n_groups = sum(g.shape[0] for g in labels)
        if count < n_groups:
            warnings.warn(
                f"pAp@k is undefined for {n_groups - count} of {n_groups} groups "
                f"(no relevant or no irrelevant item); they are left out of "
                f"the average.", UndefinedMetricWarning, stacklevel=_stacklevel())
        return gains / count if count else float("nan")

    def recommend(self, X, groups=None, *, k=None):
        """Each group's ``k`` highest scored rows (in-memory ``X`` only).

        As the in-memory ``recommend``; dask input raises a ``TypeError``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Candidate items of every group (user), in memory.
        groups : array-like of shape (n_samples,), default=None
            Group label of every row; ``None``: one group.
        k : int, default=None
            Length of each list; ``None`` uses ``self.k``. A group with fewer
            rows gets all of them.

        Returns
        -------
        recommendations : Recommendations
            Named tuple ``(indices, indptr, groups)``: the rows of group
            ``groups[g]`` are ``indices[indptr[g]:indptr[g + 1]]``, by
            decreasing score (ties: the earlier row first).
        """
        if is_dask_collection(X) or is_dask_collection(groups):
            raise TypeError(
                "recommend takes in-memory X and groups; for dask input, score "
                "the rows with decision_function (a dask array) and take each "
                "user's top k per partition, or call recommend on each "
                "partition's computed rows."
            )
        return self._local_class.recommend(self, X, groups, k=k)

    def to_local(self):
        """The same fitted ranker as an instance of the in-memory class.

        Returns
        -------
        ranker : BaseRanker
            An instance of the in-memory class (e.g.
            :class:`skpapk.PApKRanker`) with the same parameters and fitted
            attributes; it pickles without dask installed.
        """
        local = self._local_class(**self.get_params())
        local.__dict__.update({key: value for key, value in self.__dict__.items()
                               if key not in local.__dict__})
        return local
