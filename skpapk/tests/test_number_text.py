"""Numbers written as text in X are refused, not parsed.

NumPy converts text to float as Python's ``float`` does, which also reads
'1_000', ' 1.5 ' and other scripts' digits: a column read as text (from a
CSV, a polars or Arrow table) was fitted and scored as numbers without a
word, while a column of words got a clear message. A saved model skipped
the rankers' checks of X altogether (dates became numbers)."""

import numpy as np
import pandas as pd
import pytest

from skpapk import PApKRanker
from skpapk.io import load_ranker, save_ranker


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.tile([1, 0, 0, 0], 10)
    groups = np.repeat(np.arange(4), 10)
    return pd.DataFrame(X, columns=["a", "b", "c"]), y, groups


def _as_text(df, kind):
    text = df.assign(a=df["a"].map("{:.6f}".format))
    if kind == "str":
        return text
    if kind == "string[pyarrow]":
        pytest.importorskip("pyarrow")
        return text.astype({"a": "string[pyarrow]"})
    if kind == "object":
        return text.astype({"a": object})
    if kind == "polars":
        pl = pytest.importorskip("polars")
        return pl.from_pandas(text)
    if kind == "pyarrow":
        pa = pytest.importorskip("pyarrow")
        return pa.Table.from_pandas(text, preserve_index=False)
    if kind == "numpy str":
        return df.to_numpy().astype(str)
    if kind == "numpy object":
        return df.to_numpy().astype(str).astype(object)
    raise AssertionError(kind)


KINDS = ["str", "string[pyarrow]", "object", "polars", "pyarrow", "numpy str",
         "numpy object"]


@pytest.mark.parametrize("kind", KINDS)
def test_fit_refuses_numbers_written_as_text(kind):
    df, y, groups = _data()
    with pytest.raises(TypeError, match=r"X( column 'a')? holds numbers "
                       r"written as text .* pandas\.to_numeric"):
        PApKRanker(k=2).fit(_as_text(df, kind), y, groups=groups)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("saved", [False, True])
def test_scoring_refuses_numbers_written_as_text(tmp_path, kind, saved):
    df, y, groups = _data()
    numbers = df if kind.startswith(("str", "object", "polars", "pyarrow")) \
        else df.to_numpy()
    ranker = PApKRanker(k=2).fit(numbers, y, groups=groups)
    if saved:
        save_ranker(ranker, tmp_path / "m.json")
        ranker = load_ranker(tmp_path / "m.json")
    with pytest.raises(TypeError, match="holds numbers written as text"):
        ranker.decision_function(_as_text(df, kind))


def test_numbers_held_as_objects_still_fit():
    df, y, groups = _data()
    a = PApKRanker(k=2).fit(df.astype(object), y, groups=groups)
    b = PApKRanker(k=2).fit(df, y, groups=groups)
    np.testing.assert_array_equal(a.coef_, b.coef_)


def test_a_saved_model_refuses_dates(tmp_path):
    df, y, groups = _data()
    save_ranker(PApKRanker(k=2).fit(df, y, groups=groups), tmp_path / "m.json")
    model = load_ranker(tmp_path / "m.json")
    with pytest.raises(TypeError, match="column 'a' holds dates"):
        model.decision_function(df.assign(a=pd.Timestamp("2024-01-01")))
