"""The rows LightGBM is given by the boosted ranker: their weights under
``class_weight`` and ``sample_weight``, and the checks that LightGBM can
rank them (a pair of positive weight, groups within its limit)."""

import math
from collections.abc import Mapping
from numbers import Real

import numpy as np
import scipy.sparse as sp

from ._lightgbm_params import _same
from ._linear_loss import fitted_scores
from .losses._checks import check_weight_values
from .utils._groups import n_defined_groups
from .utils._messages import cut


def _class_row_weights(class_weight, classes, y_pos):
    """The weight of every row of ``y_pos`` (True: relevant) under
    ``class_weight``, a LightGBM parameter passed through, keyed by the
    labels of ``y`` (``classes``, the relevant one last), as
    ``LGBMClassifier`` reads it: ``"balanced"`` (``n_rows / (2 * n_label)``
    over these rows, :func:`sklearn.utils.class_weight.compute_sample_weight`)
    or a dict (a label left out weighs 1); ``None`` without it. LightGBM
    would apply it to the ranker's 0/1 relevance codes instead."""
    if class_weight is None:
        return None
    shown = cut(" ".join(repr(class_weight).split()), 60, quote=False)
    if isinstance(class_weight, str) and class_weight == "balanced":
        from sklearn.utils.class_weight import compute_sample_weight

        # the relevance codes: the counts, so the weights, of the labels
        return compute_sample_weight("balanced", y_pos.astype(np.float64))
    if not isinstance(class_weight, Mapping):
        raise ValueError(
            f"class_weight={shown} must be None, 'balanced' or a dict of a "
            f"weight for each label of y (as LightGBM's LGBMClassifier), "
            f"e.g. class_weight={{{classes[0]!r}: 1.0, {classes[1]!r}: 3.0}}.")
    for key in class_weight:
        if not any(_same(key, label) for label in classes):
            raise ValueError(
                f"class_weight={shown} has a key that is not a label of y: "
                f"{key!r}; key it by the labels of y, {classes[0]!r} and "
                f"{classes[1]!r} (classes_).")
    weights = []
    for label in classes:
        weight = class_weight.get(label, 1.0)
        if (not isinstance(weight, Real) or isinstance(weight, (bool, np.bool_))
                or not math.isfinite(weight) or weight < 0):
            raise ValueError(
                f"class_weight={shown}: the weight of label {label!r} is "
                f"{weight!r}; give a finite number >= 0.")
        weights.append(float(weight))
    return np.where(y_pos, weights[1], weights[0])


def _check_weighted_pairs(weight, y_pos, codes, n_groups, *, name, ours=True):
    """Raise when the row weights ``weight`` (named ``name`` in messages)
    leave no group both a relevant and an irrelevant row of positive weight
    (every pair weighs 0); ``ours``: the objective is skpapk's, whose
    weights must lie in the losses' range."""
    if weight is None:
        return  # the labels alone are checked in ``_validate_fit_data``
    if ours:  # LightGBM keeps them as float32; the objective squares sums
        check_weight_values(np.asarray(weight, dtype=np.float64), name)
    kept = np.asarray(weight) > 0
    if n_defined_groups(y_pos[kept], codes[kept], n_groups) == 0:
        raise ValueError(
            f"No group has both a relevant and an irrelevant row of positive "
            f"weight: {name} is 0 on every relevant or every irrelevant row of "
            f"each group (user), so there is no pair to rank; give some of "
            f"them a positive weight.")


def _check_group_sizes(objective, sizes, one_group):
    """Refuse groups of more rows than LightGBM's lambdarank takes (its own
    error names no argument); ``one_group``: ``groups=None``."""
    if objective == "lambdarank" and sizes.max() > 10000:
        raise ValueError(
            f"objective={objective!r}: LightGBM's lambdarank takes at "
            f"most 10,000 rows a group, and a group has {sizes.max():,} "
            f"training rows{' (groups=None: every row is one group)' * one_group}"
            f"; pass smaller groups, or use objective='pairwise_logistic', "
            f"which has no such limit.")


def truncates(y_pos, codes, n_groups, truncation_level):
    """Whether the kernel truncates a group of these rows: more than
    ``truncation_level`` rows of each label (None: no truncation)."""
    if truncation_level is None:
        return False
    n_pos = np.bincount(codes, weights=y_pos, minlength=n_groups)
    n_neg = np.bincount(codes, minlength=n_groups) - n_pos
    return bool(np.any((n_pos > truncation_level) & (n_neg > truncation_level)))


def row_tie_breaker(X):
    """A number for every row of ``X`` that only depends on the row's
    values, to order rows of equal score (``LightGBMObjective``'s
    ``tie_breaker``): ``sum_j x_j c_j`` added in column order
    (:func:`~skpapk._linear_loss.fitted_scores`, the same bits whatever the
    layout of ``X``), ``c`` a fixed draw from ``[1, 2)``; a missing value
    counts as 0.25, an infinity as +-0.75. Equal rows get equal numbers;
    two different rows, almost never."""
    c = np.random.default_rng(20201).uniform(1.0, 2.0, size=X.shape[1])
    key = fitted_scores(X, c)
    bad = ~np.isfinite(key)
    if bad.any():
        if sp.issparse(X):
            rows = sp.csr_matrix(X[np.flatnonzero(bad)], copy=True)
            rows.data = np.nan_to_num(rows.data, nan=0.25, posinf=0.75,
                                      neginf=-0.75)
        else:
            rows = np.nan_to_num(np.asarray(X[bad], dtype=np.float64),
                                 nan=0.25, posinf=0.75, neginf=-0.75)
        key[bad] = fitted_scores(rows, c)
    return key
