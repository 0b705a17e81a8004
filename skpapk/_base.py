"""Base classes of the rankers: validation, scoring, recommendation, fitting."""

from collections import namedtuple
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, _fit_context
from sklearn.utils import ClassifierTags
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from ._solver import projected_subgradient
from .metrics import papk_score
from .utils._groups import rank_within_segments
from .utils._validation import check_binary_target, check_groups, check_k

Recommendations = namedtuple("Recommendations", ["indices", "indptr", "groups"])
Recommendations.__doc__ = """Each group's top-k rows, laid out as a CSR matrix.

The rows recommended to group ``groups[g]`` are
``indices[indptr[g]:indptr[g + 1]]``, by decreasing score.

Attributes
----------
indices : ndarray of intp
    Row indices (into the ``X`` given to ``recommend``).
indptr : ndarray of intp of shape (n_groups + 1,)
    Offsets of each group's rows in ``indices``.
groups : ndarray of shape (n_groups,)
    The sorted distinct group labels.
"""


class BaseRanker(BaseEstimator):
    """Base class of the linear rankers of top-k lists per group.

    Subclasses set ``coef_`` in ``fit``. This class gives the validation of
    the training data (``X`` dense or CSR, float32 or float64; binary ``y``
    with any two labels, the greater one relevant; ``groups`` of any sortable
    hashable labels), :meth:`decision_function`, :meth:`score` (micro-pAp@k),
    :meth:`recommend` and the scikit-learn tags and metadata requests: under
    ``sklearn.set_config(enable_metadata_routing=True)``, ``groups`` is routed
    to ``fit`` and ``score`` without ``set_fit_request`` calls.
    """

    __metadata_request__fit = {"groups": True}
    __metadata_request__score = {"groups": True}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags = ClassifierTags(multi_class=False)
        tags.target_tags.required = True
        tags.input_tags.sparse = True
        return tags

    def _validate_fit_data(self, X, y, groups):
        """Validate ``(X, y, groups)``; set ``classes_``, ``n_groups_skipped_``.

        Returns
        -------
        X : ndarray or CSR matrix of float32 or float64
        y_pos : ndarray of bool
        codes : ndarray of intp
        n_groups : int
        """
        X, y = validate_data(self, X, y, accept_sparse="csr",
                             dtype=[np.float64, np.float32])
        if type_of_target(y, input_name="y") == "unknown":
            raise ValueError(
                f"Unknown label type: y must hold binary relevance labels (two "
                f"distinct values such as 0/1 or 'no'/'yes'), got an array of "
                f"dtype {y.dtype} that is not a label vector; convert it, e.g. "
                f"y = np.asarray(y, dtype=int)."
            )
        y_pos, self.classes_ = check_binary_target(y, input_name="y")
        codes, labels = check_groups(groups, X.shape[0])
        n_groups = labels.shape[0]
        n_pos = np.bincount(codes, weights=y_pos, minlength=n_groups)
        n_rows = np.bincount(codes, minlength=n_groups)
        defined = (n_pos > 0) & (n_pos < n_rows)
        self.n_groups_skipped_ = int(n_groups - np.count_nonzero(defined))
        if not defined.any():
            raise ValueError(
                f"No group has both a relevant and an irrelevant row: y has one "
                f"class in each of the {n_groups} group(s), so there is no pair "
                f"to rank. Each group (user) needs at least one relevant and one "
                f"irrelevant row (classes seen: {self.classes_.tolist()})."
            )
        return X, y_pos, codes, n_groups

    def decision_function(self, X):
        """Score every row; higher means recommended first.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            ``X @ coef_`` (in ``X``'s float dtype).
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr",
                          dtype=[np.float64, np.float32], reset=False)
        return np.asarray(X @ self.coef_.astype(X.dtype, copy=False)).reshape(-1)

    def score(self, X, y, groups=None):
        """Micro-pAp@k at ``self.k`` (paper eq. 17) of the scores on ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Binary relevance labels.
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row; ``None``: one group.

        Returns
        -------
        score : float
            Mean over groups of the pAp@k gains (groups without a relevant
            or an irrelevant row left out with an ``UndefinedMetricWarning``).
        """
        pos_label = self.classes_[-1] if len(self.classes_) == 2 else None
        return papk_score(y, self.decision_function(X), k=self.k, groups=groups,
                          pos_label=pos_label)

    def recommend(self, X, groups=None, *, k=None):
        """Each group's ``k`` highest scored rows: the recommendation itself.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Candidate items of every group (user).
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
            decreasing score (ties: the earlier row first). Groups are in
            sorted label order.
        """
        k = check_k(self.k if k is None else k)
        scores = self.decision_function(X)
        codes, labels = check_groups(groups, scores.shape[0])
        n_groups = labels.shape[0]
        seg = rank_within_segments(scores, codes, n_groups)
        indices = seg.order[seg.rank[seg.order] < k]
        indptr = np.zeros(n_groups + 1, dtype=np.intp)
        np.cumsum(np.minimum(seg.counts, k), out=indptr[1:])
        return Recommendations(indices=indices, indptr=indptr, groups=labels)


class BaseSubgradientRanker(BaseRanker):
    """Base class of the rankers trained by projected subgradient descent.

    Subclasses give the surrogate through :meth:`_get_surrogate` (a
    :class:`~skpapk.losses.BaseSurrogate`) and define ``__init__`` with the
    parameters below (plus their own).
    """

    _parameter_constraints: dict = {
        "k": [Interval(Integral, 1, None, closed="left")],
        "eta0": [Interval(Real, 0, None, closed="neither")],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left"), None],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
        "radius": [Interval(Real, 0, None, closed="neither"), None],
        "verbose": ["verbose"],
    }

    def _get_surrogate(self):  # pragma: no cover - abstract
        raise NotImplementedError

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, groups=None):
        """Fit the linear scorer by projected subgradient descent (Algorithm 1).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Features of every (user, item) row. Dense or CSR, float32 or
            float64 (other types are converted); ``X`` is not copied by the
            epochs.
        y : array-like of shape (n_samples,)
            Binary relevance (any two labels; the greater is relevant).
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row, any sortable hashable values;
            ``None``: all rows form one group. Groups without a relevant or
            without an irrelevant row are skipped (``n_groups_skipped_``).

        Returns
        -------
        self : object
            Fitted ranker.
        """
        X, y_pos, codes, n_groups = self._validate_fit_data(X, y, groups)
        loss = self._get_surrogate()
        if self.verbose:
            print(f"Fitting {type(self).__name__} ({loss.name} surrogate, k={self.k})"
                  f" on {X.shape[0]} rows, {n_groups} groups; "
                  f"{self.n_groups_skipped_} groups skipped (no relevant or no "
                  f"irrelevant row).")
        state = projected_subgradient(
            X, y_pos, codes, n_groups, loss=loss, k=self.k, eta0=self.eta0,
            alpha=self.alpha, max_iter=self.max_iter, tol=self.tol,
            n_iter_no_change=self.n_iter_no_change, radius=self.radius,
            verbose=self.verbose,
        )
        self.coef_ = state.w
        self.objective_curve_ = np.asarray(state.objective_curve, dtype=np.float64)
        self.n_iter_ = len(state.objective_curve)
        return self
