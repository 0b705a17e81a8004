"""Checks of binary labels: the two classes, the relevant one and its order."""

import datetime
import numbers

import numpy as np
from sklearn.utils import assert_all_finite
from sklearn.utils.multiclass import type_of_target

from ._arrays import _as_array, _check_object_values, column_1d


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
    >>> from skpapk.utils._labels import check_label_values
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
    >>> from skpapk.utils._labels import binary_classes
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
    >>> from skpapk.utils._labels import check_pos_label
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
    >>> from skpapk.utils._labels import relevant_last
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
    >>> from skpapk.utils._labels import check_binary_target
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
    >>> from skpapk.utils._labels import check_fitted_labels
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
