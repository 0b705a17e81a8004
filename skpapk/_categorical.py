"""pandas categorical features for LightGBM, as LightGBM's own data layer.

``lightgbm.LGBMRanker`` fitted on a DataFrame splits its ``category``
columns as categories: each column becomes its category codes (a missing or
unknown category: NaN), the categories are kept with the model
(``Booster.pandas_categorical``) so that a DataFrame to score is coded the
same way, and the unordered ones are the ``categorical_feature``.
:class:`~skpapk.PApKBoostRanker` validates ``X`` into a float array first,
so it codes those columns here, before, the same way.
"""

import warnings

import numpy as np

from .utils._routing import _stacklevel


def _category_columns(X):
    """Positions of the ``category`` columns of a DataFrame (else [])."""
    dtypes = getattr(X, "dtypes", None)
    if dtypes is None or not hasattr(X, "iloc") or getattr(X, "ndim", 2) != 2:
        return []
    import pandas as pd

    return [j for j, dtype in enumerate(dtypes)
            if isinstance(dtype, pd.CategoricalDtype)]


def categorical_codes(X, categories=None, input_name="X", positions=None,
                      feature_names=None):
    """Code the ``category`` columns of a DataFrame ``X`` as LightGBM does.

    Parameters
    ----------
    X : DataFrame, array-like or sparse matrix
        Anything else than a DataFrame is returned as it is.
    categories : list of list or None, default=None
        The categories of every ``category`` column, in column order, kept
        from the fit (LightGBM's ``pandas_categorical``); None when fitting.
    input_name : str, default="X"
        The name of ``X`` in the error message (``"X_val"``).
    positions : list of int or None, default=None
        The positions of the ``category`` columns in the fit, checked
        against ``X``'s (None: not checked, only their number).
    feature_names : array-like of str or None, default=None
        The feature names of the fit: when ``X``'s differ, the positions are
        not checked here (the check of the names reports it better).

    Returns
    -------
    X : DataFrame, array-like or sparse matrix
        A copy of ``X`` whose ``category`` columns hold their codes in
        ``categories`` (float; NaN for a missing value or a category not
        seen in the fit), or ``X`` itself.
    categories : list of list or None
        The categories of every ``category`` column (None: there are none).
    categorical_feature : list of int
        Positions of the unordered ``category`` columns, LightGBM's
        ``categorical_feature`` (ordered ones are split as their codes).

    Examples
    --------
    >>> import pandas as pd
    >>> from skpapk._categorical import categorical_codes
    >>> X = pd.DataFrame({"genre": pd.Categorical(["jazz", "pop", None]),
    ...                   "year": [1990.0, 2001.0, 1985.0]})
    >>> coded, categories, positions = categorical_codes(X)
    >>> coded["genre"].tolist(), categories, positions
    ([0.0, 1.0, nan], [['jazz', 'pop']], [0])
    >>> categorical_codes(pd.DataFrame({"genre": pd.Categorical(["pop", "rap"]),
    ...                                 "year": [2000.0, 2020.0]}),
    ...                   categories)[0]["genre"].tolist()
    [1.0, nan]
    """
    columns = _category_columns(X)
    fitted = categories is not None  # (else these are the rows of the fit)
    if categories is None:
        if not columns:
            return X, None, []
        categories = [list(X.iloc[:, j].cat.categories) for j in columns]
    elif categories and not columns and not hasattr(X, "iloc"):
        raise ValueError(
            f"{input_name} is not a pandas DataFrame, but the ranker was "
            f"fitted on one with {len(categories)} categorical (pandas "
            f"'category') column(s), whose categories it codes itself; pass "
            f"a DataFrame with the columns and dtypes of fit (numeric codes "
            f"in an array would be read unchecked against the fitted "
            f"categories).")
    elif len(columns) != len(categories):
        raise ValueError(
            f"{input_name} has {len(columns)} categorical (pandas 'category') "
            f"column(s) where the ranker was fitted on {len(categories)}; give "
            f"every feature the dtype it had in fit "
            f"({input_name}.astype(dtypes_of_fit)).")
    if positions is not None and columns != list(positions) and not (
            feature_names is not None     # other names: reported by their check
            and list(map(str, X.columns)) != list(feature_names)):
        names = [str(X.columns[j]) for j in columns]
        raise ValueError(
            f"{input_name}'s categorical (pandas 'category') columns are "
            f"{names} (positions {columns}), where the ranker was fitted with "
            f"them at positions {list(positions)}; give every feature the "
            f"dtype it had in fit ({input_name}.astype(dtypes_of_fit)).")
    if not columns:
        return X, categories, []
    coded = X.copy(deep=False)
    for j, known in zip(columns, categories):
        column = X.iloc[:, j]
        codes = column.cat.set_categories(known).cat.codes
        if (fitted and column.notna().any() and (codes < 0).all()
                and {str(c) for c in column.cat.categories}
                & {str(c) for c in known}):
            _warn_retyped(column, known, input_name)
        coded.isetitem(j, np.where(codes.to_numpy() < 0, np.nan,
                                   codes.to_numpy(dtype=np.float64)))
    unordered = [j for j in columns if not X.dtypes.iloc[j].ordered]
    return coded, categories, unordered


def _warn_retyped(column, known, input_name):
    """Warn that no value of a category ``column`` is one of the categories
    of fit (``known``) though some are written alike: every row becomes
    missing because the categories changed type (ints at fit, strings read
    from a CSV). (New categories alone are LightGBM's missing values,
    quietly.)"""
    now = list(column.cat.categories[:3])
    more = "..." * (len(column.cat.categories) > 3)
    warnings.warn(
        f"{input_name} column {column.name!r} holds none of the categories "
        f"it had in fit, but some written alike (now {now!r}{more}, in fit "
        f"{list(known[:3])!r}{'...' * (len(known) > 3)}): every row is read "
        f"as missing. Give it the categories of fit with their type, e.g. "
        f"{input_name}[{column.name!r}].astype(pd.CategoricalDtype("
        f"categories_of_fit)) after converting its values.",
        UserWarning, stacklevel=_stacklevel())
