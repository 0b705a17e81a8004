"""Base classes of the rankers: validation, scoring, recommendation, fitting."""

import contextlib
import copy
import functools
import inspect
import re
import warnings

import numpy as np
import scipy.sparse as sp
import sklearn
from sklearn.base import BaseEstimator
from sklearn.utils import ClassifierTags
from sklearn.utils._available_if import _AvailableIfDescriptor
from sklearn.utils._param_validation import InvalidParameterError, make_constraint
from sklearn.utils.validation import (
    _get_feature_names,
    _num_features,
    _num_samples,
    check_array,
    check_is_fitted,
    validate_data,
)

from ._linear_loss import fitted_scores
from ._recommend import top_k_rows
from .metrics import papk_score
from .metrics._common import ZERO_DIVISION_ADVICE
from .utils._arrays import column_1d, exact_values
from .utils._groups import (
    defined_groups,
    n_undefined_groups,
)
from .utils._labels import check_binary_target, check_fitted_labels, check_label_values
from .utils._routing import _stacklevel, check_groups_routing
from .utils._validation import check_groups, check_k

#: The constraints of ``_parameter_constraints`` that take ``True`` and
#: ``False`` as booleans (every other one that takes them, as 1 and 0, is
#: a number's).
_BOOLEAN_CONSTRAINTS = ("boolean", "verbose", "no_validation", bool)
#: What ``score`` says instead of the metric's advice on undefined groups.
_SCORE_ADVICE = (" skpapk.metrics.papk_score(y, ranker.decision_function(X), "
                 "groups=groups, k=ranker.k, zero_division=0.0) counts them as "
                 "0 (as ranx and pytrec_eval do).")



def check_defined_groups(n_defined, n_groups, classes, n_rows=None):
    """Raise unless some group has both a relevant and an irrelevant row.

    Parameters
    ----------
    n_defined : int
        Number of groups with both labels.
    n_groups : int
        Number of groups.
    classes : ndarray
        The labels seen in ``y`` (named in the message).
    n_rows : int, default=None
        Number of rows: a group of each row is named as a likely mix-up.
    """
    if n_defined == 0:
        mixup = (" Every group holds one row: is groups a sample_weight? "
                 "fit(X, y, groups) takes the groups third, where "
                 "LightGBM's and scikit-learn's fit take the weights; pass "
                 "groups= (and sample_weight=) by name. Or did a search train "
                 "on a few rows across all users? A halving search's first "
                 "candidates train on min_resources rows: raise it."
                 ) if n_groups == n_rows and n_groups > 2 else ""
        raise ValueError(
            f"No group has both a relevant and an irrelevant row: y has one "
            f"class in each of the {n_groups} group(s), so there is no pair "
            f"to rank. Each group (user) needs at least one relevant and one "
            f"irrelevant row (classes seen: {np.asarray(classes).tolist()})."
            f"{mixup}"
        )


def _text_column(X):
    """The first column of ``X`` that does not convert to float: its name
    (a pandas, polars or pyarrow table's) or position, whether it holds
    categories (a pandas ``category``, a polars ``Categorical`` or
    ``Enum``, an Arrow ``dictionary`` column), and NumPy's message; None
    when every column converts."""
    if hasattr(X, "iloc") and hasattr(X, "columns"):
        columns = [(X.columns[j], X.iloc[:, j], X.dtypes.iloc[j])
                   for j in range(X.shape[1]) if X.dtypes.iloc[j].kind in "OSU"]
    else:
        dtypes = _frame_dtypes(X)  # polars and pyarrow: named columns
        X = np.asarray(X)
        columns = [(j, column, None) for j, column in enumerate(X.T)] \
            if X.ndim == 2 else []
        if dtypes is not None and len(dtypes) == len(columns):
            columns = [(name, column, dtype) for (name, dtype), (_, column, _)
                       in zip(dtypes, columns)]
    for name, column, dtype in columns:
        try:
            np.asarray(column, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            return name, str(dtype).startswith(_CATEGORIES), exc
    return None


#: How pandas, polars and pyarrow write a dtype of categories.
_CATEGORIES = ("category", "Categorical", "Enum", "dictionary<")


#: NumPy's words for a date or duration that float() cannot take.
_DATE_TYPES = re.compile(r"not '(Timestamp|Timedelta|Period|datetime64|"
                         r"timedelta64|(datetime\.)?(datetime|date|timedelta)|"
                         r"datetime\.time)'")


def _datetime_error(estimator, input_name, where="", what=""):
    return TypeError(
        f"{input_name}{where} holds dates, times or durations{what}, but "
        f"{type(estimator).__name__} takes numbers only: convert them to "
        f"numbers in the unit you mean first, e.g. days since a date, "
        f"(X[col] - pd.Timestamp('2020-01-01')).dt.days, or parts such as "
        f"X[col].dt.dayofweek.")


def _frame_dtypes(X):
    """``(name, dtype)`` of each column of a pandas or dask DataFrame, or of
    a polars or pyarrow table (their own dtypes, tested by
    :func:`_is_temporal`); None for other containers."""
    dtypes = getattr(X, "dtypes", None)
    if hasattr(dtypes, "items") and not isinstance(dtypes, np.dtype):
        return list(dtypes.items())  # pandas and dask: a Series of dtypes
    schema = getattr(X, "schema", None)
    if isinstance(schema, dict):  # polars: a Schema (a dict) of its dtypes
        return list(schema.items())
    if hasattr(schema, "names") and hasattr(schema, "types"):  # pyarrow
        return list(zip(schema.names, schema.types))
    return None


def _is_temporal(dtype):
    """Whether a NumPy, pandas, polars or pyarrow ``dtype`` holds dates,
    times or durations."""
    if getattr(dtype, "kind", None) in ("M", "m"):
        return True
    is_temporal = getattr(dtype, "is_temporal", None)  # polars
    if callable(is_temporal):
        return bool(is_temporal())
    if type(dtype).__module__.startswith("pyarrow"):
        import pyarrow.types

        return pyarrow.types.is_temporal(dtype)
    return False


def _refuse_datetimes(estimator, X, input_name):
    """Refuse dates and durations in ``X`` (the dtypes of a pandas, dask,
    polars or pyarrow table, of an array, of a list's first row): NumPy
    would fail to promote them beside numbers, or turn them alone into
    nanoseconds (polars and pyarrow's into microseconds or days), without
    a word."""
    columns = _frame_dtypes(X)
    if columns is None and isinstance(X, (list, tuple)) and len(X):
        columns = [(None, np.asarray(X[0]).dtype)]
    elif columns is None:
        columns = [(None, getattr(X, "dtype", None))]
    for name, dtype in columns:
        if _is_temporal(dtype):
            where = "" if name is None else f" column {name!r}"
            raise _datetime_error(estimator, input_name, where, f" ({dtype})")


def _is_text(dtype):
    """Whether a NumPy, pandas, polars or pyarrow ``dtype`` holds text
    (``object`` columns are looked into by :func:`_holds_text`)."""
    if getattr(dtype, "kind", None) in ("U", "S"):
        return True
    if type(dtype).__name__ == "StringDtype":  # pandas' str and string
        return True
    if type(dtype).__module__.startswith("polars"):
        return str(dtype) in ("String", "Utf8")
    if type(dtype).__module__.startswith("pyarrow"):
        import pyarrow.types

        return (pyarrow.types.is_string(dtype)
                or pyarrow.types.is_large_string(dtype))
    return False


#: What pandas' ``infer_dtype`` calls an ``object`` array without text.
_NO_TEXT = ("integer", "floating", "mixed-integer-float", "decimal", "boolean",
            "empty")


def _holds_text(values):
    """Whether an ``object`` array or column holds a str or bytes value
    (pandas' ``infer_dtype`` decides in C for numbers alone)."""
    from pandas.api.types import infer_dtype

    values = np.asarray(values, dtype=object).ravel()
    if infer_dtype(values, skipna=True) in _NO_TEXT:
        return False
    return any(isinstance(value, (str, bytes)) for value in values)


def _refuse_number_text(estimator, X, input_name):
    """Refuse a column of ``X`` of numbers written as text: NumPy would
    parse it as Python's ``float`` does, which also reads ``'1_000'``,
    ``' 1.5 '`` and other scripts' digits, without a word (a column of
    words fails that conversion, and gets its own message)."""
    columns = _frame_dtypes(X)
    frame = columns is not None
    if not frame:
        if sp.issparse(X) or isinstance(X, (list, tuple)):
            return
        columns = [(None, getattr(X, "dtype", None))]
    for j, (name, dtype) in enumerate(columns):
        if not (_is_text(dtype) or (getattr(dtype, "kind", None) == "O"
                                    and type(dtype).__name__ != "CategoricalDtype")):
            continue  # (only text and object columns are read below)
        if not frame:
            values = X
        elif hasattr(X, "iloc"):  # pandas: by position (names may repeat)
            values = X.iloc[:, j]
        else:  # a polars or pyarrow column
            column = X[name]
            values = (column.to_numpy() if hasattr(column, "to_numpy")
                      else np.asarray(column))
        if not _is_text(dtype) and not _holds_text(values):
            continue
        try:
            np.asarray(values, dtype=np.float64)
        except (TypeError, ValueError):
            continue  # words: the conversion's own message names them
        where = f" column {name!r}" if frame else ""
        column = f"{input_name}[{name!r}]" if frame else input_name
        raise TypeError(
            f"{input_name}{where} holds numbers written as text ({dtype}), "
            f"but {type(estimator).__name__} takes numbers: convert them "
            f"first, e.g. pandas.to_numeric({column}) (read as text, '1_000', "
            f"' 1.5 ' or other scripts' digits would become numbers without "
            f"a word).")


_TEXT_TO_FLOAT = re.compile(r"could not convert|cannot cast (str|object)",
                            re.IGNORECASE)


def _text_column_message(estimator, X, input_name, fitting):
    """The message of a column of ``X`` that holds text, or None; the fix
    advised depends on whether ``X`` is being fitted (``fitting``)."""
    found = _text_column(X)
    if found is None:
        return None
    name, category, detail = found
    ranker = type(estimator).__name__
    has_columns = hasattr(X, "columns")
    where = (f"column {name!r}" if has_columns
             else f"column {name} ({input_name}[:, {name}])")
    message = (f"{input_name} {where} holds text ({detail}), but {ranker} "
               f"takes numbers only")
    if not fitting:
        return message + ": encode it as X was encoded for fit."
    message += (
        f". Encode it first, e.g. with OneHotEncoder or OrdinalEncoder "
        f"(sklearn.preprocessing) in a Pipeline: make_pipeline("
        f"make_column_transformer((OneHotEncoder(handle_unknown='ignore'), "
        f"[{name!r}]), remainder='passthrough'), {ranker}()), whose fit takes "
        f"groups under sklearn.set_config(enable_metadata_routing=True)."
    )
    if estimator._splits_categories and hasattr(X, "iloc"):
        return (message + f" Or make it a pandas 'category' column "
                f"({input_name}[{name!r}].astype('category')), which {ranker} "
                f"splits as categories.")
    if estimator._splits_categories and has_columns:  # polars, pyarrow
        return (message + f" Or pass a pandas DataFrame with it as a 'category' "
                f"column ({input_name}.to_pandas() makes one of a polars "
                f"Categorical or an Arrow dictionary column), which {ranker} "
                f"splits as categories.")
    if category:
        return (message + " (PApKBoostRanker splits pandas 'category' "
                "columns as categories" + (f"; {input_name}.to_pandas() makes "
                "one of this column" if not hasattr(X, "iloc") else "") + ".)")
    return message


def _missing_values_message(estimator_name, exc):
    """scikit-learn's message of NaN in ``X`` with advice for a ranker (it
    advises ``HistGradientBoostingClassifier``, a classifier); None for
    another message."""
    first, _, rest = str(exc).partition("\n")
    if not (first.endswith("contains NaN.")
            and rest.startswith(f"{estimator_name} does not accept missing")):
        return None
    return (f"{first}\n{estimator_name} does not accept missing values: impute "
            f"them in a Pipeline, e.g. make_pipeline(SimpleImputer(), "
            f"{estimator_name}()), whose fit takes groups under "
            f"sklearn.set_config(enable_metadata_routing=True); drop the rows "
            f"that hold them; or use PApKBoostRanker (the lightgbm extra), "
            f"which handles missing values natively.")


def _not_a_number_message(estimator, X, input_name):
    """The message of a column of ``X`` holding objects that are neither
    numbers nor text (pandas' NA, say), or None."""
    found = _text_column(X)
    if found is None:
        return None
    name, _, detail = found
    column = (f"{input_name}[{name!r}]" if hasattr(X, "columns")
              else f"{input_name}[:, {name}]")
    where = (f"column {name!r}" if hasattr(X, "columns")
             else f"column {name} ({column})")
    ranker = type(estimator).__name__
    if "NAType" not in str(detail):
        return (f"{input_name} {where} holds values that are not numbers "
                f"({detail}), but {ranker} takes numbers only: convert them "
                f"to numbers first.")
    missing = (f"a missing value, which {ranker} takes"
               if estimator._ensure_all_finite() == "allow-nan" else
               f"which {ranker} refuses: fill or drop those rows first")
    return (f"{input_name} {where} holds pandas' NA among objects: convert "
            f"the column to numbers, e.g. pandas.to_numeric({column}), where "
            f"NA becomes NaN ({missing}).")


def check_score_sample_weight(estimator, sample_weight):
    """Refuse a ``sample_weight`` given to ``estimator.score``."""
    if sample_weight is None:
        return
    if sklearn.get_config()["enable_metadata_routing"]:
        how = "(under metadata routing: set_score_request(sample_weight=False))"
    else:  # a search with scoring=None passes fit's weights on to score
        how = ("(a search without metadata routing passes the sample_weight "
               "of fit to score when scoring=None: turn routing on with "
               "sklearn.set_config(enable_metadata_routing=True), so that "
               "groups reach the ranker too, and request the weights for fit "
               "only, set_fit_request(groups=True, sample_weight=True) and "
               "set_score_request(groups=True, sample_weight=False))")
    raise ValueError(
        f"{type(estimator).__name__}.score does not support sample_weight: "
        f"micro-pAp@k is the unweighted mean over groups (users); leave "
        f"sample_weight=None {how}, or call skpapk.metrics.papk_score with "
        f"average=None and weigh the per-group values yourself."
    )


def _restoring_state(method):
    """``method`` (a ``fit``), leaving the estimator as it was when it raises."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        state = self.__dict__.copy()
        try:
            return method(self, *args, **kwargs)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(state)
            raise

    wrapper._restores_state = True
    return wrapper


def _needs_restoring(method):
    """Whether ``method``, found in a class's MRO, is a function that
    ``_restoring_state`` has not wrapped yet."""
    return (inspect.isfunction(method)
            and not getattr(method, "_restores_state", False))


class BaseRanker(BaseEstimator):
    """Base class of every skpapk ranker of top-k lists per group.

    The linear rankers (:class:`BaseLinearRanker`, which set ``coef_``),
    the boosted :class:`PApKBoostRanker`, :class:`GreedyPApKRanker` and the
    rankers loaded by :func:`skpapk.io.load_ranker` derive from it; a
    subclass implements ``fit``, and :meth:`decision_function` unless its
    scores are ``X @ coef_``. This class gives the validation of
    the training data (``X`` dense or CSR, float32 or float64; binary ``y``
    with any two labels: ``pos_label``, else the greater number, is relevant,
    and labels that are not numbers need ``pos_label``; ``groups`` of any sortable
    hashable labels), :meth:`decision_function` and :meth:`predict` (the
    scores), :meth:`score` (micro-pAp@k),
    :meth:`recommend` and the scikit-learn tags and metadata requests: under
    ``sklearn.set_config(enable_metadata_routing=True)``, ``groups`` is routed
    to ``fit`` and ``score`` without ``set_fit_request`` calls. A ``fit`` or
    ``partial_fit`` (of any subclass) that raises leaves the ranker as it was
    before the call: still fitted as before, or still unfitted.

    See Also
    --------
    BaseLinearRanker : The base class of the rankers ``s = X @ coef_``.
    PApKBoostRanker : Boosted trees, a ranker that derives from this class
        directly.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk import BaseRanker, SelectPApKRanker
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y, groups = [0, 1, 0, 1], [0, 0, 1, 1]
    >>> ranker = SelectPApKRanker(k=1).fit(X, y, groups=groups)
    >>> isinstance(ranker, BaseRanker)
    True
    >>> ranker.score(X, y, groups=groups)        # micro-pAp@1
    1.0
    """

    __metadata_request__fit = {"groups": True}
    __metadata_request__score = {"groups": True}

    #: Whether ``fit`` splits the pandas ``category`` columns of a DataFrame
    #: as categories (advised for a column of text).
    _splits_categories = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ("fit", "partial_fit"):
            # as found in the MRO (a mixin's fit before this class's too),
            # without calling a descriptor
            method = inspect.getattr_static(cls, name, None)
            if isinstance(method, _AvailableIfDescriptor):
                if _needs_restoring(method.fn):
                    if name not in cls.__dict__:  # a base's: left as it is
                        method = copy.copy(method)
                    method.fn = _restoring_state(method.fn)
                    setattr(cls, name, method)
            elif _needs_restoring(method):
                setattr(cls, name, _restoring_state(method))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # binary targets, not a classifier (estimator_type stays None, so
        # is_classifier is False): scikit-learn's estimator checks read
        # these tags to give the rankers two labels, and nothing else in
        # scikit-learn takes them for a classifier's
        tags.classifier_tags = ClassifierTags(multi_class=False)
        tags.target_tags.required = True
        tags.input_tags.sparse = True
        return tags

    def _validate_params(self):
        """scikit-learn's validation of the parameters, and no bool where a
        number is expected (``Interval`` takes ``True`` as 1)."""
        super()._validate_params()
        params = self.get_params(deep=False)
        for name, constraints in self._parameter_constraints.items():
            value = params.get(name)
            if (not isinstance(value, (bool, np.bool_))
                    or constraints == "no_validation"
                    or any(isinstance(c, (str, type)) and c in _BOOLEAN_CONSTRAINTS
                           for c in constraints)):
                continue
            shown = [str(c) for c in map(make_constraint, constraints)
                     if not c.hidden]
            expected = (shown[0] if len(shown) == 1
                        else f"{', '.join(shown[:-1])} or {shown[-1]}")
            raise InvalidParameterError(
                f"The {name!r} parameter of {type(self).__name__} must be "
                f"{expected}, not a bool. Got {value!r} instead.")

    @contextlib.contextmanager
    def _numbers_of(self, X, input_name="X", fitting=False):
        """Name the column of ``X`` and the fix when ``X``, converted to
        float in this context, holds text (NumPy's message names neither).
        ``fitting``: whether ``X`` is the training data of a fit, to encode
        (else it is to be encoded as that data was)."""
        _refuse_datetimes(self, X, input_name)
        _refuse_number_text(self, X, input_name)
        try:
            yield
        except TypeError as exc:  # an object array of pd.Timestamp, say
            if _DATE_TYPES.search(str(exc)):
                raise _datetime_error(self, input_name) from exc
            message = _not_a_number_message(self, X, input_name)
            if not message:
                raise
            raise TypeError(message) from exc
        except ValueError as exc:
            # NumPy's words; pandas' for a text category beside a nullable
            # column ("Cannot cast str dtype to float64")
            message = (_TEXT_TO_FLOAT.search(str(exc))
                       and _text_column_message(self, X, input_name, fitting)
                       or _missing_values_message(type(self).__name__, exc))
            if not message:
                raise
            raise ValueError(message) from exc

    def _ensure_all_finite(self):
        """``validate_data``'s ``ensure_all_finite``: NaN features pass when
        the ranker handles missing values (its ``allow_nan`` tag)."""
        return "allow-nan" if self.__sklearn_tags__().input_tags.allow_nan else True

    def _validate_fit_data(self, X, y, groups):
        """Validate ``(X, y, groups)``; set ``classes_``, ``n_groups_skipped_``.

        Returns
        -------
        X : ndarray or CSR matrix of float32 or float64
        y_pos : ndarray of bool
        codes : ndarray of intp
        n_groups : int
        """
        check_k(self.k)  # also past 2**63 - 1, which the constraints let by
        check_label_values(y, input_name="y")
        y = exact_values(y, "y")  # scikit-learn's conversion merges some labels
        with self._numbers_of(X, fitting=True):
            X, y = validate_data(self, X, y, accept_sparse="csr",
                                 dtype=[np.float64, np.float32],
                                 ensure_all_finite=self._ensure_all_finite())
        y_pos, self.classes_ = check_binary_target(
            y, pos_label=getattr(self, "pos_label", None), input_name="y",
            estimator_name=type(self).__name__)
        codes, labels = check_groups(groups, X.shape[0])
        n_groups = labels.shape[0]
        check_groups_routing(self, groups, method="fit", n_groups=n_groups,
                             n_rows=X.shape[0])
        self.n_groups_skipped_ = n_undefined_groups(y_pos, codes, n_groups)
        check_defined_groups(n_groups - self.n_groups_skipped_, n_groups,
                             self.classes_, n_rows=X.shape[0])
        return X, y_pos, codes, n_groups

    def _check_val_feature_names(self, X_val):
        """The check of ``validate_data(reset=False)`` of the feature names
        of ``X_val`` against those of the fit, in messages that name
        ``X_val`` (scikit-learn's name ``X``); scikit-learn's own wording
        otherwise, so that filters on it still match."""
        fitted = getattr(self, "feature_names_in_", None)
        given = _get_feature_names(X_val)
        name = type(self).__name__
        if fitted is None and given is not None:
            warnings.warn(f"X_val has feature names, but {name} was fitted "
                          f"without feature names", UserWarning,
                          stacklevel=_stacklevel())
        elif fitted is not None and given is None:
            warnings.warn(f"X_val does not have valid feature names, but "
                          f"{name} was fitted with feature names", UserWarning,
                          stacklevel=_stacklevel())
        elif fitted is not None and (len(fitted) != len(given)
                                     or np.any(fitted != given)):
            unseen = sorted(set(given) - set(fitted))
            missing = sorted(set(fitted) - set(given))
            message = ("The feature names of X_val should match those that "
                       "were passed during fit.\n")
            for title, names in [("Feature names unseen at fit time:", unseen),
                                 ("Feature names seen at fit time, yet now "
                                  "missing:", missing)]:
                if names:
                    message += title + "\n" + "".join(
                        f"- {n}\n" for n in names[:5]) + (
                        "- ...\n" if len(names) > 5 else "")
            if not unseen and not missing:
                message += ("Feature names must be in the same order as they "
                            "were in fit.\n")
            raise ValueError(message)
        return X_val

    def _validate_val_data(self, X_val, y_val, groups_val, groups):
        """Validate the validation rows given to ``fit`` as ``X``, ``y`` and
        ``groups`` were (after :meth:`_validate_fit_data`).

        Returns
        -------
        X_val, y_pos, codes, n_groups : as :meth:`_validate_fit_data`'s, or
            None when none of them is given.
        """
        if X_val is None and y_val is None and groups_val is None:
            return None
        if X_val is None or y_val is None:
            raise ValueError(
                "X_val and y_val go together: pass both (the validation rows "
                "and their labels), or neither.")
        if getattr(self, "early_stopping", False) is False:
            raise ValueError(
                "X_val and y_val are the validation rows of early stopping, "
                "but early_stopping=False; set early_stopping=True, or leave "
                "them out.")
        if (groups_val is None) != (groups is None):
            raise ValueError(
                "groups_val holds the group of every validation row, as groups "
                "does for X: pass both, or neither (all rows in one group).")
        try:  # validate_data's own message would name X
            n_features = _num_features(X_val)
        except TypeError:  # not a 2-d array: validate_data says so
            n_features = self.n_features_in_
        if n_features != self.n_features_in_:
            raise ValueError(
                f"X_val has {n_features} features, but {type(self).__name__} "
                f"is expecting {self.n_features_in_} features as input (those "
                f"of X); pass validation rows with the columns of X.")
        # the feature names checked against X's; the values as X_val (its name
        # in the messages, e.g. "Input X_val contains NaN")
        X_val = self._check_val_feature_names(X_val)
        with self._numbers_of(X_val, input_name="X_val"):
            X_val = check_array(X_val, accept_sparse="csr",
                                dtype=[np.float64, np.float32],
                                ensure_all_finite=self._ensure_all_finite(),
                                input_name="X_val")
        y_val = column_1d(y_val, input_name="y_val")  # (n, 1): raveled, as y
        check_label_values(y_val, input_name="y_val")  # NaN named as y's
        if y_val.shape != (X_val.shape[0],):
            raise ValueError(
                f"y_val has shape {y_val.shape} but X_val has {X_val.shape[0]} "
                f"rows; pass one label per validation row.")
        pos_label = check_fitted_labels(y_val, self.classes_, input_name="y_val",
                                        estimator_name=type(self).__name__)
        y_pos = y_val == pos_label
        codes, labels = check_groups(groups_val, X_val.shape[0],
                                     input_name="groups_val")
        if not defined_groups(y_pos, codes, labels.shape[0]).any():
            raise ValueError(
                "No group of the validation rows (X_val, y_val, groups_val) has "
                "both a relevant and an irrelevant row, so micro-pAp@k is "
                "undefined on them; give some groups validation rows of both "
                "labels.")
        return X_val, y_pos, codes, labels.shape[0]

    def decision_function(self, X):
        """Score every row; higher means recommended first.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            ``X @ coef_``, float64: the float64 ``coef_`` promotes a
            float32 ``X`` (as numpy's ``X @ coef_`` does).
        """
        check_is_fitted(self)
        with self._numbers_of(X):
            X = validate_data(self, X, accept_sparse="csr",
                              dtype=[np.float64, np.float32], reset=False)
        return fitted_scores(X, self.coef_)

    def predict(self, X):
        """The scores of the rows (as ``LGBMRanker.predict``): higher first.

        The same as :meth:`decision_function`: a ranker predicts an order,
        not labels, so that :meth:`sklearn.pipeline.Pipeline.predict` and
        :func:`sklearn.model_selection.cross_val_predict` give the scores.
        :meth:`recommend` turns them into each group's top ``k``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            :meth:`decision_function` of ``X``.

        Examples
        --------
        >>> import numpy as np
        >>> from skpapk import PApKRanker
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(100) < 0.3
        >>> X = rng.normal(size=(100, 3)) + y[:, None]
        >>> ranker = PApKRanker(k=3).fit(X, y, groups=np.repeat(np.arange(5), 20))
        >>> bool(np.array_equal(ranker.predict(X), ranker.decision_function(X)))
        True
        """
        return self.decision_function(X)

    def score(self, X, y, groups=None, sample_weight=None):
        """Micro-pAp@k at ``self.k`` (paper eq. 17) of the scores on ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Binary relevance labels, among the fitted ``classes_`` (other
            labels raise a ``ValueError``: the relevant rows would not be
            known).
        groups : array-like of shape (n_samples,), default=None
            Group (user) label of every row; ``None``: one group (with a
            :class:`~skpapk.exceptions.MissingGroupsWarning` when the ranker
            was fitted on several groups, or inside a search without metadata
            routing).
        sample_weight : None
            Not supported: micro-pAp@k weighs every user alike. The argument
            exists because :meth:`sklearn.pipeline.Pipeline.score` passes
            ``sample_weight=None`` under metadata routing; any other value
            raises a ``ValueError``.

        Returns
        -------
        score : float
            Mean over groups of the pAp@k gains (groups without a relevant
            or an irrelevant row left out with an ``UndefinedMetricWarning``).
        """
        check_score_sample_weight(self, sample_weight)
        check_is_fitted(self)
        check_groups_routing(self, groups, method="score")
        pos_label = check_fitted_labels(y, self.classes_,
                                        estimator_name=type(self).__name__)
        scores = self.decision_function(X)
        n_labels = _num_samples(y)
        if n_labels != scores.shape[0]:  # papk_score's message would not name X
            raise ValueError(
                f"X has {scores.shape[0]} rows but y has {n_labels} labels; "
                f"pass one relevance label per row of X.")
        advice = ZERO_DIVISION_ADVICE.set(_SCORE_ADVICE)  # no zero_division here
        try:
            return papk_score(y, scores, k=self.k, groups=groups,
                              pos_label=pos_label)
        finally:
            ZERO_DIVISION_ADVICE.reset(advice)

    def recommend(self, X, groups=None, *, k=None):
        """Each group's ``k`` highest scored rows: the recommendation itself.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Candidate items of every group (user).
        groups : array-like of shape (n_samples,), default=None
            Group label of every row; ``None``: one group (one user's
            candidate items, say).
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

        Raises
        ------
        ValueError
            When a score is NaN (features far out of the training's range,
            say, whose products overflow).
        """
        k = check_k(self.k if k is None else k)
        return top_k_rows(self.decision_function(X), groups, k)
