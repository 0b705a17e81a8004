"""Columns passed as LightGBM's categorical_feature must hold category codes.

LightGBM truncates a fraction, reads a negative value as missing and merges
codes from 2**31 on, with a warning that the ranker's verbose=0 silences:
such columns were fitted as other values than the user's."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from skpapk import PApKBoostRanker

pytest.importorskip("lightgbm")


def _data():
    rng = np.random.default_rng(0)
    X = np.c_[rng.integers(0, 4, 80).astype(float), rng.normal(size=80)]
    y = np.tile([1, 0, 0, 0], 20)
    groups = np.repeat(np.arange(8), 10)
    return X, y, groups


@pytest.mark.parametrize("value", [0.5, -1.0, 2.0**31, 2.0**40])
@pytest.mark.parametrize("container", ["numpy", "pandas", "csr"])
def test_a_value_that_is_no_category_code_is_refused(value, container):
    X, y, groups = _data()
    X[7, 0] = value
    name = "0"
    if container == "pandas":
        X, name = pd.DataFrame(X, columns=["shop", "price"]), "'shop'"
    elif container == "csr":
        X = sp.csr_matrix(X)
    feature = "shop" if container == "pandas" else 0
    with pytest.raises(ValueError, match=rf"categorical_feature column {name} "
                       rf"holds {value!r}, which is not a category code"):
        PApKBoostRanker(k=2, n_estimators=2, categorical_feature=[feature]).fit(
            X, y, groups=groups)


def test_codes_and_missing_values_fit():
    X, y, groups = _data()
    X[3, 0] = np.nan
    X[5, 0] = 2**31 - 1
    PApKBoostRanker(k=2, n_estimators=2, categorical_feature=[0]).fit(
        X, y, groups=groups)


def test_a_category_column_of_retyped_categories_warns():
    # ints at fit, strings after a CSV: every row silently missing
    X, y, groups = _data()
    frame = pd.DataFrame({"shop": pd.Categorical(X[:, 0].astype(int)),
                          "price": X[:, 1]})
    ranker = PApKBoostRanker(k=2, n_estimators=2).fit(frame, y, groups=groups)
    as_text = frame.assign(shop=pd.Categorical(X[:, 0].astype(int).astype(str)))
    with pytest.warns(UserWarning, match=r"X column 'shop' holds none of the "
                      r"categories it had in fit, but some written alike "
                      r"\(now \['0', '1', '2'"):
        ranker.decision_function(as_text)
    # new categories (alone or among known ones): LightGBM's convention, quiet
    mixed = frame.assign(shop=pd.Categorical(
        np.where(np.arange(80) % 2, X[:, 0].astype(int), 9)))
    ranker.decision_function(mixed)
    ranker.decision_function(frame.assign(shop=pd.Categorical([9] * 80)))
    ranker.decision_function(frame.assign(shop=pd.Categorical([np.nan] * 80)))
