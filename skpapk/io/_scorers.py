"""The scoring functions a model file holds: a linear scorer and a LightGBM booster."""

import math

import numpy as np
import scipy.sparse as sp

from .._linear_loss import fitted_scores
from ._booster_text import check_booster_text

#: The end of a LightGBM booster's trees in its text.
_END = "\nend of trees\n"


def _trees_only(text):
    """A LightGBM booster's text up to the end of its trees."""
    return text[:text.index(_END) + len(_END)]


def _is_number(value):
    """A finite number as float64 holds it (an int of 400 digits is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _is_count(value, high):
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= high


class _LinearScorer:
    """``scores = (X - shift) @ coef + intercept``: a pipeline's
    StandardScaler is folded into ``coef`` (its scale) and ``shift`` (its
    mean), so that features far from zero with a small spread (timestamps)
    keep their precision; a MinMaxScaler into ``coef`` and ``intercept``
    (as it computes ``X * scale_ + min_``); no scaler: no shift."""

    kind = "linear"
    #: The keys of its dict in a model file (``shift``: version 2 only).
    keys = ("kind", "coef", "intercept", "shift")
    #: Rows scored at a time when there is a shift (no copy of all of X);
    #: of sparse rows, made dense to subtract it, at most ``_BLOCK_VALUES``.
    _BLOCK = 1 << 16
    _BLOCK_VALUES = 1 << 22

    def __init__(self, coef, intercept=0.0, shift=None):
        self.coef = np.asarray(coef, dtype=np.float64)
        self.intercept = float(intercept)
        self.shift = None if shift is None else np.asarray(shift, dtype=np.float64)
        self.n_features = self.coef.shape[0]

    def __repr__(self):  # in SavedRanker's: no private class, no address
        return f"<linear scorer of {self.n_features} features>"

    @classmethod
    def from_estimator(cls, estimator, scaler):
        coef = getattr(estimator, "coef_", None)
        if coef is None or hasattr(estimator, "booster_"):
            return None
        coef = coef.toarray() if sp.issparse(coef) else coef  # sparsify()
        if np.ndim(coef) == 2 and np.shape(coef)[0] != 1:
            raise TypeError(f"a {type(estimator).__name__} with {np.shape(coef)[0]} "
                            f"rows of coef_ (a multiclass model) cannot be saved: "
                            f"a ranker has one score per row (one row of coef_).")
        w = np.asarray(coef, dtype=np.float64).reshape(-1)
        b = float(np.ravel(getattr(estimator, "intercept_", 0.0))[0])
        if type(scaler).__name__ == "MinMaxScaler":  # x * scale_ + min_
            if scaler.clip:
                raise TypeError("a MinMaxScaler(clip=True) is not linear (it clips "
                                "rows outside the training range): it cannot be "
                                "folded into the coefficients; use clip=False.")
            # folded as it computes (a shift would be more exact than the
            # pipeline itself, and so differ from it)
            return cls(scaler.scale_ * w, b + scaler.min_ @ w)
        if type(scaler).__name__ == "StandardScaler":  # (x - mean_) / scale_
            w = w / (1.0 if not scaler.with_std else scaler.scale_)
            return cls(w, b, scaler.mean_ if scaler.with_mean else None)
        return cls(w, b)

    def to_dict(self):
        data = {"coef": [float(v) for v in self.coef], "intercept": self.intercept}
        if self.shift is not None:
            data["shift"] = [float(v) for v in self.shift]
        return data

    @classmethod
    def from_dict(cls, data):
        coef, intercept = data.get("coef"), data.get("intercept", 0.0)
        shift = data.get("shift")
        if (not isinstance(coef, list) or not coef
                or not all(map(_is_number, coef)) or not _is_number(intercept)
                or shift is not None and not (
                    isinstance(shift, list) and len(shift) == len(coef)
                    and all(map(_is_number, shift)))):
            raise ValueError("its linear scorer needs finite coefficients (one "
                             "per feature), a finite intercept and, if any, a "
                             "finite shift per feature")
        return cls(coef, intercept, shift)

    def decision_function(self, X):
        if self.shift is None:  # as the ranker scores (float32 rows too)
            return fitted_scores(X, self.coef) + self.intercept
        # X @ coef - shift @ coef would lose the digits that the shift keeps
        # (features far from zero): sparse rows are made dense a block at a time
        sparse = sp.issparse(X)
        if sparse:
            X = X.tocsr()
        block = (max(1, self._BLOCK_VALUES // max(X.shape[1], 1)) if sparse
                 else self._BLOCK)
        scores = np.empty(X.shape[0])
        for start in range(0, X.shape[0], block):
            rows = X[start:start + block]
            if sparse:
                rows = rows.toarray()
            scores[start:start + rows.shape[0]] = (rows - self.shift) @ self.coef
        return scores + self.intercept


class _LightGBMScorer:
    """A LightGBM booster, kept in LightGBM's text format."""

    kind = "lightgbm"
    #: The keys of its dict in a model file.
    keys = ("kind", "booster", "num_iteration")

    def __init__(self, booster, num_iteration=None):
        self.booster, self.num_iteration = booster, num_iteration
        self.n_features = booster.num_feature()

    def __repr__(self):
        n_trees = self.booster.num_trees()
        return (f"<LightGBM booster of {self.n_features} features, {n_trees} "
                f"tree{'s' * (n_trees != 1)}>")

    @classmethod
    def from_estimator(cls, estimator, scaler):
        booster = getattr(estimator, "booster_", None)
        if booster is None:
            return None
        if scaler is not None:
            raise TypeError("a LightGBM model is saved without feature scaling "
                            "(trees do not need it); fit it without a scaler.")
        if booster.pandas_categorical:
            raise TypeError("a LightGBM model fitted on pandas 'category' columns "
                            "cannot be saved as plain data (its trees split on "
                            "codes that only the DataFrame's categories give); "
                            "fit it on the codes instead (X[col].cat.codes) "
                            "with categorical_feature=[...] naming those "
                            "columns, and score rows coded the same way.")
        best = getattr(estimator, "best_iteration_", None)
        scorer = cls(booster, int(best) if best else None)
        try:  # what load_ranker accepts, checked before anything is written
            check_booster_text(scorer.to_dict()["booster"], booster.num_feature())
        except ValueError as exc:
            raise TypeError(f"a {type(estimator).__name__} cannot be saved as "
                            f"plain data: {exc} (save_ranker saves trees of one "
                            f"score per row).") from None
        return scorer

    def to_dict(self):
        text = self.booster.model_to_string(num_iteration=self.num_iteration or -1)
        return {"booster": _trees_only(text), "num_iteration": self.num_iteration}

    @classmethod
    def from_dict(cls, data):
        try:
            import lightgbm
        except ImportError:
            raise ImportError("this model is a LightGBM booster: install "
                              "LightGBM (pip install 'skpapk[lightgbm]') to use "
                              "it.") from None
        text, n_iter = data.get("booster"), data.get("num_iteration")
        if not isinstance(text, str) or not (n_iter is None
                                             or _is_count(n_iter, 2**31 - 1)):
            raise ValueError("its LightGBM scorer needs the booster as text and "
                             "a positive num_iteration or null")
        n_trees = check_booster_text(text)  # before LightGBM reads it
        if n_iter is not None and n_iter > n_trees:
            raise ValueError(f"its num_iteration, {n_iter}, is more than its "
                             f"booster's {n_trees} trees")
        # LightGBM reads only the checked trees (files written before hold
        # its feature importances and parameters after them, which it parses
        # without checks)
        try:
            booster = lightgbm.Booster(model_str=_trees_only(text))
        except Exception as exc:  # LightGBM raises LightGBMError on bad text
            raise ValueError(f"LightGBM cannot read its booster ({exc})") from None
        return cls(booster, n_iter)

    def decision_function(self, X):
        # raw scores, as the rankers' decision_function (not a probability),
        # of float64 rows as the boosted ranker reads them
        X = X.astype(np.float64, copy=False)
        return self.booster.predict(X, num_iteration=self.num_iteration,
                                    raw_score=True)


#: The kinds of scorer a model file may hold, by the name stored in it.
SCORER_KINDS = {cls.kind: cls for cls in (_LinearScorer, _LightGBMScorer)}
