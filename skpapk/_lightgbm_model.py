"""The fitted boosted ranker as LightGBM's scikit-learn interface shows it.

``LGBMRanker``'s fitted attributes (``feature_importances_``,
``n_estimators_``, ``best_score_``, ...) and ``predict`` with its options,
read off ``booster_``: a mixin of :class:`~skpapk.PApKBoostRanker` (and of
the Dask ranker, through it), apart from how the trees are fitted.
"""

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import (
    _get_feature_names,
    check_is_fitted,
    validate_data,
)

from ._categorical import categorical_codes
from ._lightgbm_params import refuse_predict_keywords
from .utils._messages import cut
from .utils._parallel import effective_n_threads


def _lightgbm_input(X):
    """``X`` for LightGBM: it takes scipy's sparse matrices as they are, but
    converts a sparse array (``csr_array``) with a UserWarning ("Converting
    data to scipy sparse matrix"); the CSR matrix view of the same arrays
    avoids that warning."""
    return sp.csr_matrix(X) if sp.issparse(X) and not sp.isspmatrix(X) else X


class LGBMRankerInterface:
    """``LGBMRanker``'s fitted attributes and ``predict``, read off
    ``booster_``, ``best_iteration_`` and ``evals_result_`` of a fitted
    boosted ranker (which gives ``_n_threads``, ``_numbers_of`` and
    ``_ensure_all_finite``)."""

    @property
    def feature_importances_(self):
        """Importance of every feature in the trees used.

        As ``LGBMRanker.feature_importances_``: the number of splits on
        the feature (``importance_type="split"``, the default, or None),
        or their total gain (``importance_type="gain"``, a LightGBM keyword
        passed to the constructor), over the first ``best_iteration_``
        trees; an ndarray of shape (`n_features_in_`,).
        """
        check_is_fitted(self)
        # None: not given, as LightGBM's other parameters (LightGBM's own
        # feature_importance fails on it)
        importance_type = self._other_params.get("importance_type")
        if importance_type is None:
            importance_type = "split"
        if importance_type not in ("split", "gain"):
            raise ValueError(
                f"importance_type must be 'split' or 'gain' (as in LightGBM), "
                f"got {importance_type!r}; set it with "
                f"set_params(importance_type='gain').")
        return self.booster_.feature_importance(
            importance_type=importance_type, iteration=self.best_iteration_)

    @property
    def n_features_(self):
        """Number of features of the fit (``n_features_in_``).

        As ``LGBMRanker.n_features_``.
        """
        check_is_fitted(self)
        return self.n_features_in_

    @property
    def objective_(self):
        """The objective fitted (``objective``).

        As ``LGBMRanker.objective_``.
        """
        check_is_fitted(self)
        return self.objective

    @property
    def n_estimators_(self):
        """Number of trees kept (``booster_.current_iteration()``).

        As ``LGBMRanker.n_estimators_``: ``best_iteration_`` under early
        stopping, else ``n_iter_``.
        """
        check_is_fitted(self)
        return self.booster_.current_iteration()

    @property
    def best_score_(self):
        """Every validation metric at ``best_iteration_``.

        As ``LGBMRanker.best_score_``: ``{"valid_0": {"micro_papk@<k>":
        ...}}`` under early stopping (with LightGBM's ``metric`` ones), else
        ``{}``.
        """
        check_is_fitted(self)
        return {data: {name: values[self.best_iteration_ - 1]
                       for name, values in metrics.items()}
                for data, metrics in (self.evals_result_ or {}).items()}

    @property
    def feature_name_(self):
        """The feature names of ``booster_``.

        As ``LGBMRanker.feature_name_`` (see ``feature_names_in_``).
        """
        check_is_fitted(self)
        return self.booster_.feature_name()

    def decision_function(self, X):
        """Raw score of every row (the sum of the trees); higher is better.

        Parameters
        ----------
        X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)
            NaN: a missing value, and ``category`` columns coded by the
            categories of the fit, as in :meth:`fit`.

        Returns
        -------
        scores : ndarray of float64 of shape (n_samples,)
            ``booster_.predict(X, num_iteration=best_iteration_,
            raw_score=True)``.
        """
        return self._predict_booster(X)

    def predict(self, X, *, raw_score=True, start_iteration=0, num_iteration=None,
                pred_leaf=False, pred_contrib=False, validate_features=False,
                num_threads=None, **kwargs):
        """The scores of the rows, or what ``LGBMRanker.predict`` gives.

        Parameters
        ----------
        X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)
            NaN: a missing value, and ``category`` columns coded by the
            categories of the fit, as in :meth:`fit`.
        raw_score : bool, default=True
            The scores are raw scores (no link function), with every
            objective: ``False`` raises a ``ValueError``. Unlike
            ``LGBMRanker.predict``, whose default ``raw_score=False`` turns
            the scores of ``objective="binary"`` into probabilities (the
            order is the same); ``scipy.special.expit`` of these scores
            gives them.
        start_iteration : int, default=0
            First tree used, from 0 to the number of trees minus one (a
            later one would leave no tree: every score 0).
        num_iteration : int or None, default=None
            Number of trees used from ``start_iteration``; None:
            ``best_iteration_`` trees from the first, all the trees from a
            later ``start_iteration`` (as LightGBM).
        pred_leaf : bool, default=False
            Return the leaf of every row in every tree, of shape
            (n_samples, n_trees), instead of the scores.
        pred_contrib : bool, default=False
            Return every feature's contribution to every row's score
            (SHAP values, LightGBM's TreeSHAP), of shape (n_samples,
            n_features + 1), the last column the trees' expected value:
            each row adds up to its score.
        validate_features : bool, default=False
            True: a DataFrame ``X`` with string column names is refused (a
            ``ValueError``) when the ranker was fitted on an array, where
            scikit-learn's check only warns. Whatever this flag, a ranker
            fitted on a DataFrame refuses other or reordered columns
            (``feature_names_in_``). Unlike LightGBM's flag, names are
            those of scikit-learn (not the booster's ``Column_i``), and
            non-string column names and arrays are not checked.
        num_threads : int or None, default=None
            Threads of LightGBM's prediction, as ``n_jobs`` (-1: every
            core); None: those of ``n_jobs``.
        **kwargs : dict
            None taken: LightGBM's other prediction parameters, which
            ``LGBMRanker.predict`` passes to the booster
            (``pred_early_stop``, an alias of ``num_threads``...), raise a
            ``TypeError``.

        Returns
        -------
        scores : ndarray of float64 of shape (n_samples,)
            The raw scores (higher first), as :meth:`decision_function`;
            the leaves or contributions with ``pred_leaf`` or
            ``pred_contrib`` (contributions of CSR rows come as a sparse
            matrix, as LightGBM gives them).

        Examples
        --------
        >>> import numpy as np
        >>> from skpapk import PApKBoostRanker
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> X = rng.normal(size=(200, 3)) + y[:, None]
        >>> groups = np.repeat(np.arange(10), 20)
        >>> ranker = PApKBoostRanker(k=3, n_estimators=10).fit(X, y, groups=groups)
        >>> shap = ranker.predict(X, pred_contrib=True)
        >>> shap.shape
        (200, 4)
        >>> bool(np.allclose(shap.sum(axis=1), ranker.predict(X)))
        True
        """
        if not raw_score:
            raise ValueError(
                f"raw_score={raw_score!r}: {type(self).__name__}.predict gives "
                f"raw scores, the only scores of a ranker (with "
                f"objective='binary' too); for probabilities of the binary "
                f"objective, take scipy.special.expit of them.")
        refuse_predict_keywords(self, kwargs)
        if not isinstance(validate_features, (bool, np.bool_)):
            raise TypeError(f"validate_features={validate_features!r} must be "
                            f"True or False.")
        if num_threads is not None and (
                not isinstance(num_threads, Integral)
                or isinstance(num_threads, (bool, np.bool_)) or num_threads == 0):
            raise ValueError(
                f"num_threads={num_threads!r}: give a number of threads >= 1, "
                f"-1 for every core (-2: all but one...), or None for those "
                f"of n_jobs.")
        if (not isinstance(start_iteration, Integral)
                or isinstance(start_iteration, (bool, np.bool_))):
            raise TypeError(f"start_iteration={start_iteration!r} must be an "
                            f"integer (the first tree used).")
        n_trees = self.booster_.num_trees() if hasattr(self, "booster_") else None
        if start_iteration < 0:
            raise ValueError(f"start_iteration={start_iteration!r} must be >= 0.")
        if n_trees and start_iteration >= n_trees:
            raise ValueError(
                f"start_iteration={start_iteration!r}: the model has {n_trees} "
                f"tree{'s' * (n_trees != 1)} (iterations 0 to {n_trees - 1}), "
                f"and it would use none (every score 0); give a "
                f"start_iteration from 0 to {n_trees - 1}.")
        if (start_iteration, num_iteration, pred_leaf, pred_contrib,
                validate_features, num_threads) == (0, None, False, False,
                                                    False, None):
            return self.decision_function(X)  # (on Dask: of dask X too)
        return self._predict_booster(
            X, start_iteration=start_iteration, num_iteration=num_iteration,
            pred_leaf=pred_leaf, pred_contrib=pred_contrib,
            validate_features=validate_features, num_threads=num_threads)

    def _predict_booster(self, X, validate_features=False, num_threads=None,
                         **options):
        """``booster_.predict`` of checked ``X`` with LightGBM's ``options``
        (``num_threads``: as ``n_jobs``, None: this ranker's threads)."""
        check_is_fitted(self)
        if validate_features:
            self._validate_feature_names(X)
        X = categorical_codes(
            X, self.booster_.pandas_categorical or [],
            positions=getattr(self, "_category_positions", None),
            feature_names=getattr(self, "feature_names_in_", None))[0]
        with self._numbers_of(X):
            X = validate_data(self, X, accept_sparse="csr",
                              dtype=[np.float64, np.float32], reset=False,
                              ensure_all_finite=self._ensure_all_finite())
        if options.get("num_iteration") is None and not options.get(
                "start_iteration"):
            options["num_iteration"] = self.best_iteration_
        threads = (self._n_threads() if num_threads is None
                   else effective_n_threads(num_threads))
        return self.booster_.predict(_lightgbm_input(X), raw_score=True,
                                     num_threads=threads, **options)

    def _validate_feature_names(self, X):
        """``validate_features=True`` of ``predict``: the column names of a
        DataFrame ``X`` are the feature names of the fit (scikit-learn's
        check raises when they differ, and only warns when the ranker was
        fitted without names)."""
        given = _get_feature_names(X)
        if given is not None and getattr(self, "feature_names_in_", None) is None:
            shown = cut(", ".join(map(str, given)), 60, quote=False)
            raise ValueError(
                f"validate_features=True: X has feature names ({shown}), but "
                f"{type(self).__name__} was fitted without feature names; "
                f"give X as an array, or set validate_features=False.")
