"""Input validation shared by the metrics, the losses and the estimators."""

import numbers

import numpy as np
from sklearn.utils import assert_all_finite, check_consistent_length, check_random_state
from sklearn.utils._param_validation import InvalidParameterError

from ._arrays import (
    _as_array,
    _check_object_values,
    _exact_integers,
    check_one_per_row,
    column_1d,
    refuse_sparse,
)
from ._groups import encode_compact_ints
from ._labels import check_binary_target
from ._messages import cut
from ._routing import _in_model_selection

#: The greatest ``k``: the per-group counts ``min(k, n)`` are int64.
MAX_K = int(np.iinfo(np.int64).max)


def check_k(k, name="k"):
    """Check that ``k`` is a positive integer and return it as ``int``.

    ``k`` may exceed every list (a list shorter than ``k`` is shown whole),
    up to :data:`MAX_K` (2**63 - 1); a greater ``k`` raises a
    ``ValueError``, not NumPy's ``OverflowError``. Errors are scikit-learn's
    ``InvalidParameterError`` (a ``ValueError`` and a ``TypeError``), as the
    estimators' ``k`` and scikit-learn's metrics' (``top_k_accuracy_score``)
    raise.

    Examples
    --------
    >>> from skpapk.utils._validation import check_k
    >>> check_k(3)
    3
    >>> check_k(10**30)
    Traceback (most recent call last):
    ...
    sklearn.utils._param_validation.InvalidParameterError: k=1e+30 is too large: ...
    """
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise InvalidParameterError(
            f"{name} must be a positive integer (the number of items shown to "
            f"each user), got {k!r} of type {type(k).__name__}; pass e.g. "
            f"{name}=10."
        )
    if k < 1:
        raise InvalidParameterError(
            f"{name} must be a positive integer (the number of items shown to "
            f"each user), got {name}={k}; pass {name} >= 1."
        )
    if k > MAX_K:
        raise InvalidParameterError(
            f"{name}={k:.3g} is too large: {name} is at most 2**63 - 1. A list "
            f"shorter than {name} is shown whole, so {name}=n_samples shows "
            f"every list whole (precision@k, which divides by k, still "
            f"depends on it)."
        )
    return int(k)


def validate_random_state(random_state, name="random_state"):
    """:func:`sklearn.utils.check_random_state`, refusing bools, in a message
    that names the argument ``name``.

    Parameters
    ----------
    random_state : None, int or numpy.random.RandomState
        The seed: ``True`` and ``False`` are no seeds (not 1 and 0).
    name : str, default="random_state"
        The argument's name in the message.

    Returns
    -------
    rng : numpy.random.RandomState

    Examples
    --------
    >>> from skpapk.utils._validation import validate_random_state
    >>> validate_random_state(0).randint(10)
    5
    >>> validate_random_state(True)
    Traceback (most recent call last):
    ...
    ValueError: random_state must be None, an int in [0, 2**32 - 1] or a ...
    """
    if not isinstance(random_state, (bool, np.bool_)):
        try:
            return check_random_state(random_state)
        except ValueError:
            pass
    raise ValueError(
        f"{name} must be None, an int in [0, 2**32 - 1] or a "
        f"numpy.random.RandomState instance, got {random_state!r}."
    )


def check_groups(groups, n_samples, *, input_name="groups"):
    """Validate group (user / query) labels and encode them as integers.

    Parameters
    ----------
    groups : array-like of shape (n_samples,) or None
        One hashable, sortable label per row (a list of tuples of two or
        more items: one composite key per row). ``None`` puts every row in
        one group.
    n_samples : int
        Expected length.
    input_name : str, default="groups"
        Name used in error messages.

    Returns
    -------
    codes : ndarray of intp of shape (n_samples,)
        Code of each row's group, in ``[0, n_groups)``, following the sorted
        order of the labels (as :func:`numpy.unique`).
    labels : ndarray of shape (n_groups,)
        The sorted distinct labels (``array([0])`` when ``groups`` is None;
        of objects, exact, when a list mixes floats and ints beyond 2**53,
        which float64 would merge).

    Examples
    --------
    >>> from skpapk.utils._validation import check_groups
    >>> check_groups(["b", "a", "b"], 3)
    (array([1, 0, 1]), array(['a', 'b'], dtype='<U1'))
    """
    if groups is None:
        return np.zeros(n_samples, dtype=np.intp), np.zeros(1, dtype=np.intp)
    check_one_per_row(groups, input_name=input_name,
                      example=f"{input_name}=[0, 0, 1] (None: one group)")
    refuse_sparse(groups, input_name=input_name)  # not its rows, as list() would
    values = groups if isinstance(groups, list) or hasattr(
        groups, "__array__") else list(groups)
    groups = group_array(values, input_name=input_name)
    if (groups.dtype.kind == "f" and isinstance(values, list)
            and groups.size and 2**53 <= np.abs(groups).max() < np.inf
            and any(isinstance(v, numbers.Integral) and abs(v) > 2**53
                    for v in values)):
        # a list of ints beyond 2**53 and floats: float64 would merge ids
        groups = np.asarray(values, dtype=object)
    if (groups.ndim == 1 and groups.shape[0] == n_samples and n_samples
            and groups.dtype.kind in "iu"):
        encoded = encode_compact_ints(groups, n_samples)
        if encoded is not None:
            return encoded
    if groups.ndim != 1:
        groups = column_1d(groups, input_name=input_name, fix=(
            f"pass the one column that holds {input_name}, or a composite key "
            f"as one tuple per row: list(zip(user, session))."))
    if groups.shape[0] != n_samples:
        fold = ""
        if _in_model_selection():
            fold = (
                f" These rows may be those of a cross-validation fold: "
                f"{input_name} must have one label per row of the full X given "
                f"to the search or cross_validate (scikit-learn cuts metadata "
                f"into folds only when it has that length, and passes it "
                f"unsliced otherwise)."
            )
        raise ValueError(
            f"{input_name} has {groups.shape[0]} labels but there are {n_samples} "
            f"rows; pass one group (user / query) id per row.{fold}"
        )
    if groups.dtype.kind == "f" and not np.all(np.isfinite(groups)):
        raise ValueError(
            f"{input_name} contains NaN or infinite labels; give every row a "
            f"finite group id (e.g. drop rows whose user id is missing)."
        )
    if groups.dtype.kind in "mM" and np.any(np.isnat(groups)):
        raise ValueError(
            f"{input_name} contains a missing id (NaT); give every row a group "
            f"id (e.g. drop rows whose user id is missing)."
        )
    if groups.dtype.kind == "O":
        _check_object_values(groups, input_name=input_name, missing=(
            f"{input_name} contains a missing id (None, NaN or pandas' NA); "
            f"give every row a group id (e.g. drop rows whose user id is "
            f"missing)."))
    try:
        labels, codes = _unique_inverse(groups)
    except TypeError as exc:  # unorderable objects
        raise TypeError(
            f"{input_name} labels cannot be sorted ({exc}); use labels of one "
            f"type such as int or str."
        ) from exc
    return codes.astype(np.intp, copy=False), labels


def _unique_inverse(groups):
    """``np.unique(groups, return_inverse=True)``, the codes flat; ids of
    text or objects hashed first (pandas' factorize), then only the distinct
    ones sorted: sorting 2 million object ids took 5 s, hashing them 0.3.
    The hashing is checked (every row's label equals its id): pandas 2.0
    hashed a string to its first NUL, merging ``"u"`` and ``"u\\x00"``."""
    if groups.dtype.kind in "OUS":
        import pandas as pd

        try:
            codes, distinct = pd.factorize(groups, sort=False,
                                           use_na_sentinel=False)
        except TypeError:  # unhashable ids (lists), which np.unique sorts
            pass
        else:
            distinct = np.asarray(distinct, dtype=groups.dtype
                                  if groups.dtype.kind in "US" else object)
            labels, order = np.unique(distinct, return_inverse=True)
            codes = order.reshape(-1)[codes]
            if (labels[codes] == groups).all():
                return labels, codes
    labels, codes = np.unique(groups, return_inverse=True)
    return labels, codes.reshape(-1)


def group_array(values, *, input_name="groups"):
    """Group ids as an array: a list of tuples (not all of one item) holds
    composite keys, ``list(zip(user, session))``, one per row (NumPy would
    make a 2-D array of them), as a pandas Series of tuples does; a key with
    a missing part (None, NaN, pandas' NA) is a ``ValueError``."""
    if (isinstance(values, list) and values
            and all(isinstance(v, tuple) for v in values)
            and any(len(v) != 1 for v in values)):
        keys = np.empty(len(values), dtype=object)
        keys[:] = values
    else:  # a Series of tuples, a MultiIndex: an object array of tuples
        keys = _as_array(values, input_name)
        first = keys[0] if keys.dtype == object and keys.ndim == 1 and keys.size \
            else None
        if isinstance(first, dict):
            raise TypeError(
                f"{input_name} holds mappings ({cut(repr(first), 40, quote=False)}"
                f": an Arrow or polars struct column?); pass a composite key "
                f"as one tuple per row: list(zip(user, session)).")
        if isinstance(first, np.ndarray) and all(
                isinstance(key, np.ndarray) and key.ndim == 1 for key in keys):
            # a polars or Arrow list column: keys as a Series of lists are
            tuples = np.empty(keys.size, dtype=object)
            tuples[:] = [tuple(key.tolist()) for key in keys]
            keys = tuples
    if not (keys.dtype == object and keys.ndim == 1 and keys.size
            and isinstance(keys[0], tuple)
            and all(isinstance(key, tuple) for key in keys)):
        return keys
    import pandas as pd

    parts = np.array([part for key in keys for part in key] or [0],
                     dtype=object)
    if pd.isna(parts).any():  # NaN != NaN: each such key a group of its own
        raise ValueError(
            f"{input_name} contains a key with a missing part (None, NaN or "
            f"pandas' NA); give every row a complete group id (e.g. drop rows "
            f"whose user or session is missing).")
    return keys


def check_model_scores(scores, *, allow_infinite=False):
    """A model's ``scores``, refused when one is NaN (or, unless
    ``allow_infinite``, infinite): a ``ValueError`` naming how many rows and
    the first, whose ``rows`` attribute holds them all (the command line
    names their lines)."""
    bad = np.flatnonzero(np.isnan(scores) if allow_infinite
                         else ~np.isfinite(scores))
    if bad.size:
        what = "not numbers (NaN)" if allow_infinite else (
            "not finite numbers (NaN or infinite)")
        error = ValueError(
            f"the model gives scores that are {what} on {bad.size} of "
            f"{scores.size} rows (the first: row {bad[0]}); check their "
            f"features (their scale, or values far from those it was "
            f"trained on).")
        error.rows = bad
        raise error
    return scores


def _object_numbers(values, input_name, order_only):
    """An object array of Python numbers as numbers: integers as int64
    when they fit (the integer checks follow), else ranked (``order_only``)
    or float64; other objects: ``values`` unchanged (refused after)."""
    items = values.tolist()
    kinds = set(map(type, items))  # the few types, each checked once
    if not all(issubclass(t, (numbers.Real, np.bool_)) for t in kinds):
        return values
    if all(issubclass(t, numbers.Integral) for t in kinds):
        try:
            return np.asarray(items, dtype=np.int64)
        except OverflowError:  # beyond int64: their order, exactly
            if order_only:
                return np.unique(values, return_inverse=True)[1].reshape(-1)
    try:
        return np.asarray(items, dtype=np.float64)
    except OverflowError:
        raise ValueError(f"{input_name} holds a number beyond float64's range "
                         f"(1.8e308); rescale the scores.") from None


def check_scores(y_score, n_samples, *, input_name="y_score", order_only=False):
    """Validate a 1-d finite score vector of the expected length.

    ``order_only``: the caller reads only the order of the scores (the
    metrics), so integers beyond 2**53 may be replaced by their ranks; else
    they are cast to float64 (a loss reads the values).
    """
    y_score = column_1d(_exact_integers(y_score), input_name=input_name, fix=(
        "pass one score per row, higher for more relevant rows: a "
        "classifier's decision_function(X), or the relevant class's column "
        "of predict_proba(X) (its last, [:, -1], for 0/1 labels), not the "
        "first."))
    if y_score.dtype.kind == "O":  # Python numbers, as lists hold them
        y_score = _object_numbers(y_score, input_name, order_only)
    if y_score.dtype.kind not in "biuf":
        raise TypeError(
            f"{input_name} must be numeric, got dtype {y_score.dtype}; pass the "
            f"output of decision_function."
        )
    if order_only and y_score.dtype.kind in "iu" and y_score.size and (
            y_score.max() > 2**53 or y_score.min() < -(2**53)):
        # float64 would merge integers 2**53 apart or less (nanosecond
        # timestamps, ...) into ties: rank them instead, the order and the
        # ties kept exactly
        y_score = np.unique(y_score, return_inverse=True)[1].reshape(-1)
    if y_score.dtype.kind != "f":
        y_score = y_score.astype(np.float64)
    # scikit-learn first checks the sum, which overflows (a RuntimeWarning)
    # for finite scores near the float limits before the exact check
    with np.errstate(over="ignore", invalid="ignore"):
        try:
            assert_all_finite(y_score, input_name=input_name)
        except ValueError as exc:
            raise ValueError(
                f"{exc} Every row needs a finite score: check what produced "
                f"them (a diverged model, a division by zero), or leave the "
                f"rows without one out of y_true, {input_name} and groups."
            ) from None
    if y_score.shape[0] != n_samples:
        raise ValueError(
            f"{input_name} has {y_score.shape[0]} scores but y_true has "
            f"{n_samples} labels; pass one score per row."
        )
    return y_score


def check_ranking_inputs(y_true, y_score, groups, *, pos_label=None,
                         order_only=False):
    """Validate ``(y_true, y_score, groups)`` of a per-group ranking metric
    (``order_only=True``) or loss (see :func:`check_scores`).

    Returns
    -------
    y_pos : ndarray of bool
    y_score : ndarray of float
    codes : ndarray of intp
    labels : ndarray
        Sorted distinct group labels.
    """
    check_one_per_row(y_true, input_name="y_true", example="y_true=[1, 0, 0]")
    check_one_per_row(y_score, input_name="y_score",
                      example="y_score=ranker.decision_function(X)")
    for values, name in ((y_true, "y_true"), (y_score, "y_score")):
        refuse_sparse(values, input_name=name)  # before their lengths
    try:
        check_consistent_length(y_true, y_score)
    except ValueError as exc:
        raise ValueError(
            f"y_true and y_score must have the same length ({exc}); pass one "
            f"score per labelled row."
        ) from exc
    y_pos, _ = check_binary_target(y_true, pos_label=pos_label)
    y_score = check_scores(y_score, y_pos.shape[0], order_only=order_only)
    codes, labels = check_groups(groups, y_pos.shape[0])
    return y_pos, y_score, codes, labels
