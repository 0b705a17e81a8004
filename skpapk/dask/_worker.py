"""What the workers run, one partition of whole groups at a time.

A partition is loaded and checked once (:func:`load_partition`), prepared
once for a fit (:func:`prepare_partition`: relevance mask, group codes,
the early-stopping split, the pair layout of the smooth surrogates) and
kept in the workers' memory. Every epoch then sends ``w`` and gets back
sums over the partition's groups, which add up over partitions:

- :func:`loss_sums`: the surrogate's sum over the partition's defined
  groups, the sum of their weights (their number for the paper's
  surrogates), that number, and ``X_p.T @ c_p`` with ``c_p`` the
  per-row coefficients of the sum;
- :func:`papk_sums`: the sum of the pAp@k gains of the defined groups and
  their number (micro-pAp@k of the training or validation rows).
"""

from dataclasses import dataclass

import numpy as np
from sklearn.utils import check_array
from sklearn.utils.validation import column_or_1d

from .._base import _missing_values_message, _text_column
from .._categorical import categorical_codes
from .._linear_loss import (
    abs_max,
    column_abs_max,
    fitted_scores,
    linear_scores,
    surrogate_kwargs,
)
from .._linear_loss import (
    gain_sums as _gain_sums,  # also dask._boost
)
from ..losses import SmoothPairwiseSurrogate, make_pair_layout
from ..model_selection._split import _held_out_split
from ..utils._groups import n_defined_groups
from ..utils._labels import binary_classes, check_fitted_labels
from ..utils._validation import check_groups


@dataclass
class LoadedPartition:
    """A partition's rows, checked: features, raw labels, group codes."""

    X: object
    y: np.ndarray
    codes: np.ndarray
    group_labels: np.ndarray


@dataclass
class PreparedPartition:
    """A partition ready for the epochs of a fit.

    ``X``, ``y_pos``, ``codes`` are the training rows; ``layout`` the pair
    layout of the smooth surrogates (``None`` for the others); ``val`` the
    held-out ``(X, y_pos, codes)`` of early stopping, or ``None``.
    """

    X: object
    y_pos: np.ndarray
    codes: np.ndarray
    n_groups: int
    layout: object = None
    val: tuple = None


#: The fix of a column of X that is not numbers, on dask input.
TEXT_FIX = ("encode it as numbers first (one-hot columns, e.g. with "
            "dask.dataframe.get_dummies), or leave it out.")


def check_width(X, n_features, index=None):
    """Raise unless a block of rows has the ``n_features`` columns that its
    dask collection declares (a chunk made by ``da.from_delayed`` with a
    wrong ``shape`` has others)."""
    if n_features is not None and X.shape[0] and X.shape[1] != n_features:
        where = "A block" if index is None else f"Partition {index}"
        raise ValueError(
            f"{where} of X has {X.shape[1]} columns, but X declares "
            f"{n_features} (its shape or columns); make every chunk's real "
            f"shape the declared one (e.g. the shape given to "
            f"dask.array.from_delayed).")


def load_partition(X, y, groups, index, *, ensure_all_finite=True,
                   n_features=None, estimator=None):
    """Check one partition's rows as the in-memory ``fit`` checks ``X, y, groups``.

    Raises the in-memory errors (NaN or infinite features, NaN passing with
    ``ensure_all_finite="allow-nan"``; labels that are not binary, groups of
    the wrong length...), naming the partition when its pieces have
    different lengths, or when ``X`` has other than ``n_features`` columns;
    ``estimator``, the ranker's name, is named in scikit-learn's messages
    (NaN features), as in memory.
    """
    try:
        X = check_array(X, accept_sparse="csr", dtype=[np.float64, np.float32],
                        ensure_min_samples=0, input_name="X",
                        ensure_all_finite=ensure_all_finite, estimator=estimator)
    except ValueError as exc:
        found = "could not convert" in str(exc) and _text_column(X)
        if not found:
            message = _missing_values_message(str(estimator), exc)  # its name
            raise ValueError(f"Partition {index}: {message or exc}") from None
        raise ValueError(f"X column {found[0]!r} holds text ({found[2]}), but "
                         f"the rankers take numbers only: {TEXT_FIX}") from exc
    check_width(X, n_features, index)
    n = X.shape[0]
    if y is None:
        raise ValueError("y is required.")
    y = column_or_1d(np.asarray(y), warn=True)
    if y.shape[0] != n:
        raise ValueError(
            f"Partition {index}: y has {y.shape[0]} rows but X has {n}; y and "
            f"groups must be partitioned like X (columns of the same dask "
            f"DataFrame, or dask arrays chunked along X.chunks[0])."
        )
    if groups is not None:
        groups = np.asarray(groups)
        if groups.ndim == 1 and groups.shape[0] != n:
            raise ValueError(
                f"Partition {index}: groups has {groups.shape[0]} rows but X has "
                f"{n}; y and groups must be partitioned like X."
            )
    if n == 0:
        codes = np.zeros(0, dtype=np.intp)
        labels = np.zeros(0, dtype=groups.dtype if groups is not None else np.intp)
    else:
        codes, labels = check_groups(groups, n)
    return LoadedPartition(X=X, y=y, codes=codes, group_labels=labels)


def summarize_partition(part):
    """What the client needs to know of a loaded partition (small)."""
    classes = (binary_classes(part.y, input_name="y")[1] if part.y.shape[0]
               else None)
    return {
        "n_rows": part.X.shape[0],
        "n_features": part.X.shape[1],
        "dtype": part.X.dtype,
        "x_max": abs_max(part.X),
        "classes": classes,
        "group_labels": part.group_labels,
    }


def prepare_partition(part, pos_label, loss, *, validation_fraction=None,
                      seed=None):
    """Relevance mask, early-stopping split and pair layout of one partition."""
    y_pos = np.asarray(part.y == pos_label)
    X, codes = part.X, part.codes
    n_groups = part.group_labels.shape[0]
    val = None
    if validation_fraction is not None:
        if X.shape[0]:
            train, held = _held_out_split(y_pos, codes, validation_fraction,
                                          seed)
        else:
            train = held = np.zeros(0, dtype=np.intp)
        val = (X[held], y_pos[held], codes[held])
        X, y_pos, codes = X[train], y_pos[train], codes[train]
    layout = None
    if isinstance(loss, SmoothPairwiseSurrogate):
        layout = make_pair_layout(y_pos, codes, n_groups)
    return PreparedPartition(X=X, y_pos=y_pos, codes=codes, n_groups=n_groups,
                             layout=layout, val=val)


def n_val_defined(val, n_groups):
    """Groups with both labels among the held-out rows ``val`` (``None``
    without early stopping)."""
    if val is None:
        return None
    _, y_val, codes_val = val
    return n_defined_groups(y_val, codes_val, n_groups)


def summarize_prepared(part):
    """Defined groups of the training and of the validation rows, the
    ``max |X_j|`` of the training rows (for L-BFGS's column scaling) and
    their number."""
    n_train = n_defined_groups(part.y_pos, part.codes, part.n_groups)
    return (n_train, n_val_defined(part.val, part.n_groups),
            column_abs_max(part.X), part.X.shape[0])


def loss_sums(part, w, loss, k, *, check_finite=True, train_papk=False,
              n_threads=None):
    """One partition's share of the objective and of its gradient at ``w``.

    Returns
    -------
    sums : tuple or None
        ``(total, grad_sum, weight, n_used, papk)``: the surrogate summed
        over the partition's defined groups (weighted by their group
        weights), ``X_p.T @ c_p`` (float64), the sum of the group weights,
        the number of defined groups, and with ``train_papk`` the pair
        ``(sum of pAp@k gains, number of defined groups)`` (else ``None``).
        ``None`` when ``check_finite`` and the scores ``X_p @ w`` are not
        all finite.
    """
    X = part.X
    scores = linear_scores(X, w)
    if check_finite and not np.all(np.isfinite(scores)):
        return None
    kwargs = surrogate_kwargs(loss, part.layout, n_threads)
    total, coef, weight, n_used = loss.loss_gradient_sums(
        part.y_pos, scores, part.codes, part.n_groups, k, **kwargs)
    grad = np.asarray(X.T @ coef.astype(X.dtype, copy=False),
                      dtype=np.float64).reshape(-1)
    papk = (_gain_sums(part.y_pos, scores, part.codes, part.n_groups, k)
            if train_papk else None)
    return float(total), grad, float(weight), int(n_used), papk


def validation_sums(part, w, k):
    """Sum of the validation pAp@k gains and number of groups (None: not finite)."""
    X_val, y_val, codes_val = part.val
    scores = fitted_scores(X_val, w)  # as the fitted ranker scores
    if not np.all(np.isfinite(scores)):
        return None
    return _gain_sums(y_val, scores, codes_val, part.n_groups, k)


def score_sums(X, y, groups, index, scorer, k, classes, estimator_name,
               ensure_all_finite=True, n_features=None):
    """pAp@k gain sums of one partition of a scoring set, and its groups.

    ``scorer(X)`` scores the partition's checked rows.
    """
    part = load_partition(X, y, groups, index,
                          ensure_all_finite=ensure_all_finite,
                          n_features=n_features)
    if part.X.shape[0] == 0:
        return 0.0, 0, part.group_labels
    pos_label = check_fitted_labels(part.y, classes, estimator_name=estimator_name)
    y_pos = np.asarray(part.y == pos_label)
    sums = _gain_sums(y_pos, scorer(part.X), part.codes,
                      part.group_labels.shape[0], k)
    return (*sums, part.group_labels)


def code_categories(X, categories):
    """A partition's ``category`` columns as their codes in ``categories``
    (:func:`skpapk._categorical.categorical_codes`)."""
    return categorical_codes(X, categories)[0]


def refuse_text(X, ranker):
    """One partition of a DataFrame to score, as it is; a column of text is
    named as the in-memory ``decision_function`` names it."""
    found = _text_column(X)
    if found is not None:
        raise ValueError(f"X column {found[0]!r} holds text ({found[2]}), but "
                         f"{ranker} takes numbers only: encode it as X was "
                         f"encoded for fit.")
    return X


def decision_block(X, scorer, ensure_all_finite=True, n_features=None):
    """``scorer(X_b)`` of one checked block (e.g. :func:`fitted_scores`)."""
    X = check_array(X, accept_sparse="csr", dtype=[np.float64, np.float32],
                    ensure_min_samples=0, input_name="X",
                    ensure_all_finite=ensure_all_finite)
    check_width(X, n_features)
    return scorer(X)
