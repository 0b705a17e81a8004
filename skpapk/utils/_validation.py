"""Input validation shared by the metrics, the losses and the estimators."""

import datetime
import numbers
import warnings
from collections.abc import Iterable

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import DataConversionWarning
from sklearn.utils import (
    assert_all_finite,
    check_consistent_length,
    check_random_state,
    column_or_1d,
)
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _check_sample_weight

from ._groups import encode_compact_ints
from ._messages import cut
from ._routing import _in_model_selection, _stacklevel

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


def _holds_bool(values):
    """Whether ``values`` (a scalar, array or nested sequence) holds a bool."""
    if isinstance(values, (bool, np.bool_)):
        return True
    dtype = getattr(values, "dtype", None)
    if isinstance(dtype, np.dtype) and dtype.kind != "O":
        return dtype.kind == "b"
    if isinstance(values, (str, bytes)):
        return False
    try:  # a list (of numbers and bools, which numpy takes as 1.0 and 0.0)
        items = np.asarray(values, dtype=object).ravel()
    except (TypeError, ValueError):
        return False
    types = set(map(type, items))  # one pass in C: a list of floats is cheap
    if types.isdisjoint((bool, np.bool_, np.ndarray)):  # neither subclassable
        return False
    return (not types.isdisjoint((bool, np.bool_))
            or any(_holds_bool(item) for item in items
                   if isinstance(item, np.ndarray)))  # np.array(True) in a list


def float_array(values, *, input_name, expected):
    """``values`` as a float64 array; a ``TypeError`` that names
    ``input_name`` and says what is ``expected`` when they do not convert,
    or hold ``True``/``False`` (numpy's 1.0 and 0.0: refused, as booleans
    are for the numeric parameters).

    Examples
    --------
    >>> from skpapk.utils._validation import float_array
    >>> float_array([1, 2], input_name="w", expected="a vector of numbers")
    array([1., 2.])
    >>> float_array("0.5", input_name="w", expected="a vector of numbers")
    Traceback (most recent call last):
    ...
    TypeError: w must be a vector of numbers, got text ('0.5'); pass numbers.
    >>> float_array({1: 2}, input_name="w", expected="a vector of numbers")
    Traceback (most recent call last):
    ...
    TypeError: w must be a vector of numbers, got dict that does not convert ...
    >>> float_array([1.0, True], input_name="w", expected="a vector of numbers")
    Traceback (most recent call last):
    ...
    TypeError: w must be a vector of numbers, got True/False (booleans) ...
    """
    if _holds_bool(values):
        raise TypeError(
            f"{input_name} must be {expected}, got True/False (booleans) in "
            f"it; pass numbers (1.0 and 0.0 if you mean them)."
        )
    try:
        text = _holds_text(_as_array(values))  # numpy would parse "0.5"
    except (TypeError, ValueError):  # ragged: named by the conversion below
        text = False
    if text:
        raise _text_error(values, input_name, expected)
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"{input_name} must be {expected}, got {type(values).__name__} "
            f"that does not convert to float: {exc}."
        ) from None


def refuse_sparse(values, *, input_name):
    """A ``TypeError`` naming ``input_name`` when ``values`` is a SciPy sparse
    matrix or array (one value per row is a dense vector)."""
    if sp.issparse(values):
        raise TypeError(
            f"{input_name} must be dense, one value per row, got a sparse "
            f"{type(values).__name__}; pass {input_name}.toarray().ravel().")


def column_1d(values, *, input_name, fix=None):
    """``values`` as a 1-d array; an error or warning that names ``input_name``.

    :func:`sklearn.utils.column_or_1d`, whose messages say "y" whatever the
    argument: a column vector is raveled with a ``DataConversionWarning``,
    any other shape but ``(n_samples,)`` raises a ``ValueError``, which ends
    with ``fix`` (default: pass the one column that holds the values).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._validation import column_1d
    >>> column_1d(np.zeros((3, 2)), input_name="groups")
    Traceback (most recent call last):
    ...
    ValueError: groups must be 1-d (one value per row), got an array of shape (3, 2)...
    """
    refuse_sparse(values, input_name=input_name)  # scikit-learn's names "y"
    # a list of strings keeps what NumPy's fixed-width strings would merge;
    # pandas' nullable numbers keep their type (scikit-learn's float64
    # merges integers beyond 2**53 and makes booleans 0.0 / 1.0)
    values = exact_values(values, input_name)
    shape = np.shape(values)
    if len(shape) == 2 and shape[1] == 1:
        warnings.warn(
            f"A column vector was passed as {input_name} where a 1-d array "
            f"(one value per row) was expected; it is raveled. Pass "
            f"{input_name}.ravel() to silence this warning.",
            DataConversionWarning, stacklevel=_stacklevel())
    elif len(shape) != 1:
        raise ValueError(
            f"{input_name} must be 1-d (one value per row), got an array of "
            f"shape {shape}; " + (fix or f"pass the one column that holds "
                                  f"{input_name}.")
        )
    try:
        return column_or_1d(values)
    except ValueError as exc:
        if "Complex data not supported" not in str(exc):
            raise
        raise TypeError(f"{input_name} must hold real numbers, got complex "
                        f"ones; pass their real part ({input_name}.real) if "
                        f"that is what they mean.") from None


def check_one_per_row(values, *, input_name, example):
    """A ``TypeError`` naming ``input_name`` unless ``values`` may hold one
    value per row: not None, a scalar, a str or bytes (which NumPy would
    split into characters, or read as one value), a set or dict (no order).

    Examples
    --------
    >>> from skpapk.utils._validation import check_one_per_row
    >>> check_one_per_row("abc", input_name="groups", example="groups=[0, 0, 1]")
    Traceback (most recent call last):
    ...
    TypeError: groups must be array-like, one value per row (a list, ...
    """
    if not (values is None or isinstance(values, (str, bytes, set, frozenset, dict))
            or getattr(values, "ndim", 1) == 0
            or not hasattr(values, "__iter__") and not hasattr(values, "__array__")):
        return
    shown = repr(values) if isinstance(values, (str, bytes)) else str(values)
    got = "None" if values is None else f"the {type(values).__name__} {shown:.40}"
    raise TypeError(
        f"{input_name} must be array-like, one value per row (a list, numpy "
        f"array or pandas Series), got {got}; pass e.g. {example}."
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


def _as_array(values, input_name="values"):
    """``values`` as an array; a list mixing strings and other labels stays
    one of objects (``np.asarray([1, "a"])`` would turn 1 into "1", merging
    the labels 1 and "1"), and so does one mixing ``str`` with ``bytes`` or
    holding a string that ends with a NUL character. A ragged nested list
    is a ``ValueError`` naming ``input_name``."""
    if hasattr(values, "__array__") or isinstance(values, (str, bytes)) or not (
            isinstance(values, Iterable) or hasattr(values, "__getitem__")):
        # numpy, pandas: the user's dtype
        return np.asarray(values)  # a scalar: 0-d, refused by the shape checks
    values = list(values)
    try:
        array = np.asarray(values)
    except ValueError:  # NumPy's "inhomogeneous shape": sequences in rows
        nested = [v for v in values if isinstance(v, (list, tuple, np.ndarray))]
        if not nested:  # pragma: no cover - other errors as NumPy's
            raise
        # a row unlike the first (a length, or a sequence beside a value)
        odd = next((v for v in values if not isinstance(
            v, (list, tuple, np.ndarray)) or len(v) != len(nested[0])), None)
        shown = (f"rows hold {cut(repr(nested[0]), 30, quote=False)} and "
                 f"{cut(repr(odd), 30, quote=False)}" if odd is not None else
                 f"a row holds {cut(repr(nested[0]), 30, quote=False)}")
        raise ValueError(
            f"{input_name} holds sequences of different lengths (a ragged "
            f"nested list: {shown}); pass one value per row, a flat list or a "
            f"1-d array.") from None
    if array.dtype.kind in "US":
        # NumPy's fixed-width strings decode bytes with str and drop
        # trailing NULs: b"a" and "a", "u" and "u\x00" would be one label
        kind, nul = (str, "\x00") if array.dtype.kind == "U" else (bytes, b"\x00")
        items = (values if array.ndim == 1  # a column vector: its cells
                 else np.asarray(values, dtype=object).ravel().tolist())
        if not all(isinstance(v, kind) and not v.endswith(nul) for v in items):
            array = np.asarray(values, dtype=object)
    return array


def _check_object_values(values, *, input_name, missing):
    """The checks of an object array of labels or ids before NumPy sorts it:
    a ``ValueError`` with the message ``missing`` when a value is missing
    (None, NaN, pandas' NA or NaT), a ``TypeError`` when the values mix
    types that cannot be ordered (strings and numbers)."""
    import pandas as pd

    if pd.isna(values).any():
        raise ValueError(missing)
    one_of_each = list({type(v): v for v in values.ravel().tolist()}.values())
    try:
        sorted(one_of_each)
    except TypeError:
        names = sorted({type(v).__name__ for v in one_of_each})
        raise TypeError(
            f"{input_name} mixes labels of types {names}, which cannot be "
            f"ordered; convert them to one type, e.g. "
            f"np.asarray({input_name}).astype(str)."
        ) from None


def _text_error(values, input_name, expected):
    shown = (repr(values) if isinstance(values, str) and len(values) <= 40
             else f"dtype {_as_array(values).dtype}")
    return TypeError(f"{input_name} must be {expected}, got text ({shown}); "
                     f"pass numbers.")


def _holds_text(array):
    """Whether ``array`` holds strings (its dtype's or as objects)."""
    return array.dtype.kind in "SU" or array.dtype.kind == "O" and any(
        isinstance(v, (str, bytes)) for v in array.ravel().tolist())


def check_sample_weight(sample_weight, X, *, dtype=None):
    """scikit-learn's ``_check_sample_weight`` (non-negative weights), but
    weights written as text are refused, not parsed as numbers.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._validation import check_sample_weight
    >>> check_sample_weight([1, 2], np.zeros((2, 1)))
    array([1., 2.])
    >>> check_sample_weight(["1", "2"], np.zeros((2, 1)))
    Traceback (most recent call last):
    ...
    TypeError: sample_weight holds text (dtype <U1), not numbers; ...
    """
    try:
        array = _as_array(sample_weight, "sample_weight")
    except (TypeError, ValueError):  # ragged: scikit-learn's check names it
        array = np.zeros(0)
    if _holds_text(array):
        raise TypeError(
            f"sample_weight holds text (dtype {array.dtype}), not numbers; "
            f"pass one number per row, e.g. read the column as numbers "
            f"(pd.to_numeric) where the weights come from.")
    return _check_sample_weight(sample_weight, X, dtype=dtype,
                                ensure_non_negative=True)


def check_label_values(y, *, input_name="y"):
    """Refuse missing labels, or labels of types that cannot be ordered.

    NumPy's sort would report them as a bare ``TypeError``, or not at all
    (a list of numbers and words becomes words).

    Parameters
    ----------
    y : array-like or None
        Labels: a list, or an array or Series of objects, strings or
        categories (others are not checked; None is left to the check that
        requires ``y``).
    input_name : str, default="y"
        The name of ``y`` in the messages.

    Raises
    ------
    ValueError
        When a label is missing (None, NaN or pandas' NA).
    TypeError
        When the labels mix types that cannot be ordered (words and numbers).

    Examples
    --------
    >>> from skpapk.utils._validation import check_label_values
    >>> check_label_values(["yes", "no", "yes"])
    >>> check_label_values(["yes", None])
    Traceback (most recent call last):
    ...
    ValueError: y has missing labels (None, NaN or pandas' NA); every row ...
    """
    missing = (f"{input_name} has missing labels (None, NaN or pandas' NA); "
               f"every row needs its label: drop the rows without one, or fill "
               f"them.")
    dtype = getattr(y, "dtype", None)
    if (dtype is not None and not isinstance(dtype, np.dtype)
            and hasattr(y, "isna") and getattr(y, "ndim", 1) == 1
            and getattr(y, "__dask_graph__", None) is None  # lazy: not here
            and y.isna().any()):  # pandas' extension types: NA in strings
        raise ValueError(missing)
    if y is None or getattr(dtype, "kind", "O") != "O":
        return
    y = _as_array(y, input_name)
    if y.dtype.kind == "O" and y.ndim:
        _check_object_values(y, input_name=input_name, missing=missing)


def _binary_int_classes(y):
    """The sorted distinct values of a numeric array with at most two, else None.

    Two passes (min/max and a count) instead of the sorts of ``np.unique``.
    """
    low, high = y.min(), y.max()
    n_high = np.count_nonzero(y == high)
    if low == high or n_high + np.count_nonzero(y == low) == y.shape[0]:
        return np.unique(np.array([low, high], dtype=y.dtype))
    return None


def binary_classes(y, *, input_name="y_true"):
    """Validate a binary relevance target; return it and its sorted labels.

    The checks shared by every binary target of the package: 1-d, not
    empty, finite, at most two distinct labels (a ``ValueError``
    containing "Only binary classification is supported." otherwise). Any
    two numbers are labels, ``0`` / ``0.5`` as well as ``0`` / ``1``; more
    than two must be discrete (a graded or continuous target is refused).

    Returns
    -------
    y : ndarray of shape (n_samples,)
    classes : ndarray of shape (n_classes,)
        The one or two distinct labels, sorted.

    Examples
    --------
    >>> from skpapk.utils._validation import binary_classes
    >>> binary_classes([3, 1, 3])[1]
    array([1, 3])
    """
    check_label_values(y, input_name=input_name)  # a list keeps its types
    y = column_1d(y, input_name=input_name)
    if y.dtype.kind in "mM":  # their int64 view would pass for 0/1 labels
        raise _dates_error(input_name, f"dtype {y.dtype}")
    if y.shape[0] == 0:
        raise ValueError(
            f"{input_name} is empty: a ranking metric needs at least one "
            f"labelled row."
        )
    classes = None
    if y.dtype.kind == "f":
        assert_all_finite(y, input_name=input_name)
    if y.dtype.kind in "biuf":
        # any two numbers are two labels, 0 / 0.5 as well as 0 / 1
        # (type_of_target calls 0 / 0.5 "continuous")
        classes = _binary_int_classes(y)
    if classes is None:
        target_type = type_of_target(y, input_name=input_name)
        if target_type == "unknown" and y.dtype == object:
            if any(isinstance(v, _DATES) for v in y[:1].tolist()):
                raise _dates_error(input_name, f"{type(y[0]).__name__} objects")
            raise object_labels_error(input_name)
        if target_type not in ("binary", "multiclass"):
            raise ValueError(
                f"{input_name} must hold binary relevance labels (two distinct "
                f"values, e.g. 0/1), got a {target_type!r} target; threshold "
                f"graded relevance first, e.g. {input_name} = (rating >= 4)."
            )
        classes = np.unique(y)
    check_at_most_two(classes, input_name=input_name)
    return y, classes


#: Dates and durations as Python objects (pandas' Timestamp and Timedelta
#: are subclasses of the first two; a timezone-aware column gives them).
_DATES = (datetime.date, datetime.timedelta, np.datetime64, np.timedelta64)


def _dates_error(input_name, what):
    return TypeError(
        f"{input_name} holds dates or durations ({what}), not relevance "
        f"labels; pass two label values per row, e.g. 0/1 or True/False.")


def object_labels_error(input_name):
    """The error of labels that scikit-learn's ``type_of_target`` calls
    ``"unknown"``: an array of dtype object (numbers as Python objects)."""
    return ValueError(
        f"Unknown label type: {input_name} is an array of dtype object, which "
        f"is not read as labels (numbers stored as Python objects, as "
        f"DataFrame.to_numpy() gives for columns of mixed types?); convert "
        f"it, e.g. {input_name} = np.asarray({input_name}, dtype=int).")


def check_at_most_two(classes, *, input_name="y_true", where=""):
    """Refuse more than two distinct labels ``classes`` of ``input_name``
    (``where`` ends the count, e.g. " across its partitions")."""
    if classes.shape[0] > 2:
        raise ValueError(
            f"Only binary classification is supported. {input_name} has "
            f"{classes.shape[0]} distinct values {classes[:5].tolist()}"
            f"{where}; threshold it to relevant / not relevant first."
        )


def unknown_labels(seen, classes):
    """The labels of ``seen`` that are not in ``classes``, as a list."""
    known = set(classes.tolist())
    return [label for label in seen.tolist() if label not in known]


def _numeric_labels(classes):
    """Whether the labels are numbers (booleans included), which are ordered."""
    if classes.dtype.kind in "biuf":
        return True
    return classes.dtype.kind == "O" and all(
        isinstance(label, (numbers.Real, np.bool_)) for label in classes.tolist())


def check_pos_label(classes, pos_label=None, *, input_name="y_true",
                    estimator_name=None):
    """The relevant label of the binary labels ``classes``.

    ``pos_label`` when given (it must be one of two ``classes``). Without
    it, the label is obvious only for numbers, as for scikit-learn's
    ``_check_pos_label_consistency`` ({0, 1}, {-1, 1}, booleans, a single
    class of -1, 0 or 1, where 1 is relevant), which skpapk extends to any
    two numbers (the greater is relevant, as graded relevance orders them).
    Labels that are not numbers (``"clicked"`` / ``"not_clicked"``) are
    never compared: their alphabetical order would silently invert the
    ranking whenever the relevant one sorts first, so they need
    ``pos_label`` (a ``ValueError`` that names it and lists the labels).

    Parameters
    ----------
    classes : ndarray of shape (n_classes,)
        The one or two distinct labels, sorted (:func:`binary_classes`).
    pos_label : int, float, bool, str or None, default=None
        The relevant label given by the user.
    input_name : str, default="y_true"
        Name of the labels in messages.
    estimator_name : str, default=None
        The estimator whose constructor takes ``pos_label``, for messages;
        ``None``: a function's argument.

    Returns
    -------
    pos_label : scalar
        The relevant label (``1`` for a single label -1 or 0).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._validation import check_pos_label
    >>> int(check_pos_label(np.array([0, 1])))
    1
    >>> check_pos_label(np.array(["clicked", "not_clicked"]), "clicked")
    'clicked'
    >>> check_pos_label(np.array(["clicked", "not_clicked"]))
    Traceback (most recent call last):
    ...
    ValueError: y_true holds the labels 'clicked' and 'not_clicked', which are \
not numbers: say which one is relevant with pos_label='clicked' or \
pos_label='not_clicked'. ...
    """
    values = [repr(label) for label in classes.tolist()]
    where = (f"{estimator_name}(..., pos_label=...)" if estimator_name
             else "pos_label")
    pos_label = python_value(pos_label)  # compared exactly, not in float64
    if pos_label is not None:
        if classes.shape[0] == 2 and pos_label not in classes.tolist():
            raise ValueError(
                f"pos_label={pos_label!r} is not one of the labels of "
                f"{input_name}, {' and '.join(values)}; pass one of them as "
                f"{where}."
            )
        # a single label (a fold without the relevant one) may differ from
        # pos_label, but not in kind: pos_label="1" for the label 1 is a typo
        kind, label_kind = _label_kind(pos_label), _label_kind(classes.tolist()[0])
        if kind != label_kind:
            raise ValueError(
                f"pos_label={pos_label!r} is {kind}, but the label of "
                f"{input_name}, {values[0]}, is {label_kind}; pass {where} as "
                f"the labels are written."
            )
        return pos_label
    if _numeric_labels(classes):
        if classes.shape[0] == 2:
            return classes[1]
        if set(classes.tolist()) <= {-1, 0, 1}:
            return 1
        raise ValueError(
            f"{input_name} holds the single label {values[0]}; say whether it "
            f"is the relevant one with {where} (e.g. pos_label={values[0]})."
        )
    if classes.shape[0] == 1:
        raise ValueError(
            f"{input_name} holds the single label {values[0]}, which is not a "
            f"number; say whether it is the relevant one with {where} (e.g. "
            f"pos_label={values[0]})."
        )
    fix = " or ".join(f"pos_label={value}" for value in values)
    raise ValueError(
        f"{input_name} holds the labels {' and '.join(values)}, which are not "
        f"numbers: say which one is relevant with {fix}"
        + (f" in {estimator_name}(...)" if estimator_name else "")
        + ". Labels other than numbers and booleans are never compared: "
        "their alphabetical order would silently invert the ranking whenever "
        "the relevant label sorts first."
    )


def python_value(value):
    """A NumPy scalar as the Python value it holds (``np.float64(2**53)``
    compared with the int ``2**53 + 1`` would be compared in float64);
    anything else unchanged."""
    return value.item() if isinstance(value, np.generic) else value


def _label_kind(label):
    """Whether ``label`` is a number (booleans too), text or bytes."""
    if isinstance(label, (numbers.Number, np.bool_)):
        return "a number"
    if isinstance(label, (str, bytes)):
        return "text" if isinstance(label, str) else "bytes"
    return f"a {type(label).__name__}"


def relevant_last(classes, pos_label=None, **kwargs):
    """``classes`` ordered ``[irrelevant, relevant]`` (see :func:`check_pos_label`).

    The fitted ``classes_`` of the rankers: their last label is the
    relevant one, whichever sorts first.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._validation import relevant_last
    >>> relevant_last(np.array(["clicked", "not_clicked"]), "clicked").tolist()
    ['not_clicked', 'clicked']
    """
    return _order(classes, check_pos_label(classes, pos_label, **kwargs))


def _order(classes, relevant):
    """Two ``classes`` with ``relevant`` last."""
    # Python values: NumPy 1 compares a uint64 scalar with an int in float64
    if classes.shape[0] == 2 and classes.tolist()[0] == python_value(relevant):
        return classes[::-1].copy()
    return classes


def check_binary_target(y, *, pos_label=None, input_name="y_true",
                        estimator_name=None):
    """Validate a binary relevance target and return a boolean mask.

    The relevant label is ``pos_label``, else the obvious one of numeric
    labels (see :func:`check_pos_label`: the greater of two numbers, 1 for
    a single label -1, 0 or 1); labels that are not numbers need
    ``pos_label``.

    Returns
    -------
    y_pos : ndarray of bool of shape (n_samples,)
    classes : ndarray of shape (n_classes,)
        The labels, the relevant one last (:func:`relevant_last`).

    Examples
    --------
    >>> from skpapk.utils._validation import check_binary_target
    >>> check_binary_target(["no", "yes", "yes"], pos_label="yes")
    (array([False,  True,  True]), array(['no', 'yes'], dtype='<U3'))
    >>> check_binary_target([1, 0, 0])
    (array([ True, False, False]), array([0, 1]))
    """
    y, classes = binary_classes(y, input_name=input_name)
    pos_label = check_pos_label(classes, pos_label, input_name=input_name,
                                estimator_name=estimator_name)
    # the label equal to pos_label as Python compares (exactly: 2.0**53 is not
    # 2**53 + 1, which y == pos_label would match in float64)
    target = python_value(pos_label)  # NumPy 1's uint64 == int: in float64
    relevant = [i for i, label in enumerate(classes.tolist()) if label == target]
    y_pos = (np.asarray(y == classes[relevant[0]]) if relevant
             else np.zeros(y.shape[0], dtype=bool))
    return y_pos, _order(classes, pos_label)


def check_fitted_labels(y, classes, *, estimator_name="the ranker", input_name="y"):
    """The relevant label of ``y`` for a model fitted on ``classes``.

    ``y`` must use the labels seen in ``fit``: a ``y`` recoded after fitting
    (0/1 to 1/2, say) would make the fitted irrelevant label ``1`` the
    relevant one and silently turn the score upside down, so labels outside
    ``classes`` raise a ``ValueError``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Binary relevance labels given to ``score``.
    classes : ndarray of shape (n_classes,)
        The fitted ``classes_``; the last one is relevant.
    estimator_name : str, default="the ranker"
        Name used in the message.
    input_name : str, default="y"
        Name used in the message.

    Returns
    -------
    pos_label : scalar
        ``classes[-1]``.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.utils._validation import check_fitted_labels
    >>> str(check_fitted_labels(["no", "yes"], np.array(["no", "yes"])))
    'yes'
    >>> check_fitted_labels([1, 2], np.array([0, 1]))
    Traceback (most recent call last):
    ...
    ValueError: y has the label(s) [2], which the ranker was not fitted on: ...
    """
    _, seen = binary_classes(y, input_name=input_name)
    unknown = unknown_labels(seen, classes)
    if unknown:
        labels = classes.tolist()  # Python scalars: no np.int64(1) in the text
        raise ValueError(
            f"{input_name} has the label(s) {unknown}, which {estimator_name} "
            f"was not fitted on: its labels (classes_) are "
            f"{labels}, of which {labels[-1]!r} is relevant, so the "
            f"relevant rows of {input_name} would not be known. Recode "
            f"{input_name} to the fitted labels (e.g. {input_name} = "
            f"np.where({input_name} == relevant_label, {labels[-1]!r}, "
            f"{labels[0]!r})), or score decision_function(X) with "
            f"skpapk.metrics.papk_score(..., pos_label=relevant_label)."
        )
    return classes[-1]


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


def exact_values(values, input_name="values"):
    """``values`` (labels, ids or scores) as NumPy keeps them apart: a list
    or tuple by :func:`_as_array` (no fixed-width strings that merge
    ``b"a"`` with ``"a"``), a pandas column of nullable integers or
    booleans by :func:`_exact_integers`; anything else unchanged (before
    scikit-learn's conversions, ``column_or_1d`` or ``validate_data``)."""
    if isinstance(values, (list, tuple)):
        return _as_array(values, input_name)
    return _exact_integers(values)


def _exact_integers(values):
    """A pandas column of nullable integers or booleans (``Int64``,
    ``int64[pyarrow]``, ``boolean``) without a missing value as int64
    (uint64, bool) numbers: scikit-learn's conversion goes through float64,
    which merges integers beyond 2**53 and makes booleans 0.0 / 1.0."""
    dtype = getattr(values, "dtype", None)
    kind = getattr(dtype, "kind", "")
    if (dtype is None or isinstance(dtype, np.dtype) or not kind or kind not in "iub"
            or not hasattr(values, "to_numpy") or getattr(values, "ndim", 1) != 1):
        return values
    import pandas as pd

    if pd.isna(values).any():  # NaN, refused by the finite check
        return values
    return values.to_numpy(dtype={"i": np.int64, "u": np.uint64, "b": bool}[kind])


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
