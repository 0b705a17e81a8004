"""The rows LightGBM is given by the boosted ranker: their weights under
``class_weight`` and ``sample_weight``, and the checks that LightGBM can
rank them (a pair of positive weight, groups within its limit)."""

import math
from collections.abc import Mapping
from numbers import Real

import numpy as np
import scipy.sparse as sp

from ._lightgbm_params import _same
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


def _truncates(y_pos, codes, n_groups, truncation_level):
    """Whether the kernel truncates a group of these rows: more than
    ``truncation_level`` rows of each label (None: no truncation)."""
    if truncation_level is None:
        return False
    n_pos = np.bincount(codes, weights=y_pos, minlength=n_groups)
    n_neg = np.bincount(codes, minlength=n_groups) - n_pos
    return bool(np.any((n_pos > truncation_level) & (n_neg > truncation_level)))


#: The bits that every NaN counts as in a row's key (NaNs differ in theirs).
_NAN_BITS = np.float64(np.nan).view(np.uint64)


def _value_bits(values):
    """The 64 bits of float values, as keys read them: -0.0 as 0.0 (equal
    values, one bin of the trees), every NaN as one NaN."""
    values = np.asarray(values, dtype=np.float64) + 0.0
    bits = values.view(np.uint64)
    nan = np.isnan(values)
    if nan.any():
        bits = np.where(nan, _NAN_BITS, bits)
    return bits


def _row_tie_breaker(X):
    """A 64-bit key of every row of ``X`` (a dense array or a CSR matrix)
    that only depends on the row's values, to order rows of equal score
    (``LightGBMObjective``'s ``tie_breaker``): ``sum_j bits(x_j) c_j``
    modulo 2**64, ``c`` a fixed draw of odd numbers, then mixed. Equal rows
    get equal keys (-0.0 as 0.0, every NaN alike); different rows, equal
    keys with a chance of about 2**-64 (a sum of floats would let one large
    column hide the others). A stored zero counts as an absent one."""
    n_rows, n_features = X.shape
    c = np.random.default_rng(20201).integers(
        0, 2**63, size=n_features, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        if not X.has_canonical_format:  # duplicates summed, as the values
            X = X.copy()
            X.sum_duplicates()
        terms = _value_bits(X.data) * c[X.indices]
        sums = np.concatenate((np.zeros(1, np.uint64), np.cumsum(terms)))
        key = sums[X.indptr[1:]] - sums[X.indptr[:-1]]
    else:
        key = np.zeros(n_rows, dtype=np.uint64)
        for j in range(n_features):
            key += _value_bits(X[:, j]) * c[j]
    key ^= key >> np.uint64(31)
    key *= np.uint64(0x9E3779B97F4A7C15)
    key ^= key >> np.uint64(29)
    return key


def _check_category_codes(X, positions, names=None):
    """Refuse, in the columns of ``X`` at ``positions`` (LightGBM's
    ``categorical_feature``), a value that is not a category code: LightGBM
    reads them as non-negative integers below 2**31 (NaN missing), and
    would truncate a fraction, take a negative value as missing and merge
    codes from 2**31 on, without a word at ``verbose=0``."""
    for j in positions:
        column = (X[:, [j]].toarray().ravel() if sp.issparse(X) else X[:, j])
        values = column[~np.isnan(column)]
        bad = values[(values < 0) | (values >= 2**31)
                     | (values != np.floor(values))]
        if bad.size:
            name = repr(str(names[j])) if names is not None else str(j)
            raise ValueError(
                f"categorical_feature column {name} holds {float(bad[0])!r}, "
                f"which is not a category code: LightGBM reads categories as "
                f"integers from 0 to 2**31 - 1 (NaN: missing), and would "
                f"truncate a fraction, read a negative value as missing and "
                f"merge larger codes. Encode the column first (e.g. "
                f"sklearn.preprocessing.OrdinalEncoder, or make it a pandas "
                f"'category' column, which the ranker encodes itself).")
