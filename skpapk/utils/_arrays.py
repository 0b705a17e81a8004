"""Checks of plain arrays: numbers, one dimension, exact values, weights."""

import warnings
from collections.abc import Iterable

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import DataConversionWarning
from sklearn.utils import column_or_1d
from sklearn.utils.validation import _check_sample_weight

from ._messages import cut
from ._routing import _stacklevel


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
    >>> from skpapk.utils._arrays import float_array
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
    >>> from skpapk.utils._arrays import column_1d
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
    >>> from skpapk.utils._arrays import check_one_per_row
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
    >>> from skpapk.utils._arrays import check_sample_weight
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
