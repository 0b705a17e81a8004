"""The distributed rankers' interface: imports, fitted model, input errors."""

import os
import pickle
import subprocess
import sys
import warnings

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from sklearn.exceptions import ConvergenceWarning

import skpapk
import skpapk.dask
from skpapk.dask.tests._data import as_dask, grouped_data
from skpapk.metrics import papk_score

PUBLIC = ["PApKRanker", "PApKAvgRanker", "PApKMaxRanker", "PApKTSRanker",
          "PApKRampRanker", "PAUCRanker", "PrecAtKRanker"]


def _run(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONWARNINGS="ignore"))


@pytest.mark.parametrize("name", ["PApKRanker", "PAUCRanker", "PApKBoostRanker"])
def test_sections_are_read_from_docstrings_without_indentation(name):
    # Python >= 3.13 strips a docstring's indentation when compiling it: the
    # sections' headers were not found, and importing skpapk.dask raised
    # KeyError: 'Parameters'
    import inspect

    from skpapk.dask._common import local_sections

    if name == "PApKBoostRanker":
        pytest.importorskip("lightgbm")
    local = getattr(skpapk, name)
    dedented = type("Dedented", (), {"__doc__": inspect.cleandoc(local.__doc__)})
    parameters, attributes = local_sections(dedented)
    assert (parameters, attributes) == local_sections(local)
    assert parameters.startswith("k : int") or parameters.startswith("surrogate")
    assert "\n    " in parameters and attributes.split()[0].endswith("_")


def test_import_under_python_OO():
    # -OO strips the docstrings, from which the distributed rankers take
    # their sections: importing skpapk.dask raised AttributeError
    proc = subprocess.run(
        [sys.executable, "-OO", "-c", "import skpapk.dask; "
         "print(skpapk.dask.PApKRanker(k=3).get_params()['k'])"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONWARNINGS="ignore"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "3"


def test_import_skpapk_does_not_import_dask():
    proc = _run("import sys, skpapk; print(sorted(m for m in sys.modules "
                "if m == 'dask' or m.startswith('dask.')))")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_import_skpapk_dask_without_dask_names_the_extra():
    proc = _run("import sys; sys.modules['dask'] = None; import skpapk.dask")
    assert proc.returncode != 0
    assert "ImportError" in proc.stderr
    assert "pip install 'skpapk[dask]'" in proc.stderr


@pytest.mark.parametrize("name", PUBLIC)
def test_same_parameters_as_the_in_memory_class(name):
    remote, local = getattr(skpapk.dask, name), getattr(skpapk, name)
    assert issubclass(remote, local)
    assert remote().get_params() == local().get_params()
    assert remote.__module__ == "skpapk.dask._ranker"
    assert f"skpapk.{name}" in remote.__doc__


def test_the_fitted_model_is_an_in_memory_ranker(tmp_path):
    X, y, groups = grouped_data(0)
    dX, dy, dgroups = as_dask(X, y, groups)
    remote = skpapk.dask.PApKRanker(k=5).fit(dX, dy, groups=dgroups)
    local = remote.to_local()
    assert type(local) is skpapk.PApKRanker
    assert local.get_params() == remote.get_params()
    for attr in ("coef_", "classes_", "objective_curve_"):
        np.testing.assert_array_equal(getattr(local, attr), getattr(remote, attr))
    # predicts on NumPy, pickles, scores with skpapk.metrics
    scores = remote.decision_function(X)
    assert isinstance(scores, np.ndarray)
    np.testing.assert_array_equal(scores, local.decision_function(X))
    restored = pickle.loads(pickle.dumps(local))
    np.testing.assert_array_equal(restored.decision_function(X), scores)
    assert papk_score(y, scores, k=5, groups=groups) == remote.score(X, y, groups)
    rec = remote.recommend(X, groups, k=2)
    assert rec.indptr[-1] == 2 * 30
    # the pickled local model loads without dask
    path = tmp_path / "model.pkl"
    path.write_bytes(pickle.dumps(local))
    proc = _run(f"import sys, pickle; sys.modules['dask'] = None; "
                f"m = pickle.loads(open({str(path)!r}, 'rb').read()); "
                f"print(type(m).__name__)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "PApKRanker"


def test_decision_function_on_dask_input_is_a_dask_array():
    X, y, groups = grouped_data(1)
    dX, dy, dgroups = as_dask(X, y, groups)
    ranker = skpapk.dask.PApKRanker(k=5).fit(X, y, groups=groups)  # in memory
    scores = ranker.decision_function(dX)
    assert isinstance(scores, da.Array)
    assert scores.chunks == (dX.chunks[0],)
    np.testing.assert_allclose(scores.compute(), ranker.decision_function(X),
                               rtol=0, atol=1e-12)
    scores32 = ranker.decision_function(dX.astype(np.float32))
    assert scores32.dtype == np.float64  # as in memory: float64 coef_
    np.testing.assert_allclose(  # other row blocks: other rounding
        scores32.compute(), ranker.decision_function(X.astype(np.float32)),
        rtol=0, atol=1e-12)
    sparse = ranker.decision_function(dX.map_blocks(sp.csr_matrix))
    np.testing.assert_allclose(sparse.compute(), scores.compute(), atol=1e-12)
    with pytest.raises(ValueError, match="features"):
        ranker.decision_function(dX[:, :3])
    assert ranker.score(dX, dy, dgroups) == pytest.approx(
        ranker.score(X, y, groups), abs=1e-12)


def test_methods_that_take_in_memory_input_say_so():
    X, y, groups = grouped_data(2)
    dX, dy, dgroups = as_dask(X, y, groups)
    ranker = skpapk.dask.PApKAvgRanker(k=5, max_iter=3, tol=None)
    with pytest.raises(TypeError, match="partial_fit takes one in-memory chunk") \
            as error:
        ranker.partial_fit(dX, dy, groups=dgroups)
    # its recipe, run as written (it split users across chunks, and failed
    # on a DataFrame's to_delayed()): whole users, chunk by chunk
    assert "partition_by_group(X, y, groups=groups)" in str(error.value)
    X2, y2, g2 = skpapk.dask.partition_by_group(dX, dy, groups=dgroups)
    streamed = sklearn.clone(ranker)
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for x, yy, g in zip(*(a.to_delayed().ravel() for a in (X2, y2, g2))):
            x, yy, g = x.compute(), yy.compute(), g.compute()
            if len(yy):
                streamed.partial_fit(x, yy, groups=g, classes=[0, 1])
                seen.append(set(g.tolist()))
    assert sum(len(s) for s in seen) == len(set().union(*seen))  # users whole
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ranker.partial_fit(X, y, groups=groups)  # in memory: one step
    assert ranker.t_ == 1
    with pytest.raises(TypeError, match="recommend takes in-memory X"):
        ranker.recommend(dX, dgroups)


def _fit(X, y, groups=None, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return skpapk.dask.PApKAvgRanker(k=5, max_iter=3, **params).fit(
            X, y, groups=groups)


def test_input_errors():
    X, y, groups = grouped_data(3)
    dX, dy, dgroups = as_dask(X, y, groups)
    with pytest.raises(ValueError, match="2-D dask array"):
        _fit(dX[:, 0], dy, dgroups)
    with pytest.raises(ValueError, match="y has 10 rows but X has"):
        _fit(dX, dy[:10], dgroups)
    with pytest.raises(ValueError, match="^y is required"):
        _fit(dX, None, dgroups)
    halves = da.from_array(y, chunks=y.shape[0] // 2 + 1)
    lazy = halves.map_blocks(lambda b: b, chunks=((np.nan, np.nan),))
    with pytest.raises(ValueError, match="y has 2 partitions while X has 3"):
        _fit(dX, lazy, dgroups)
    # known lengths: y is cut like X (no row moves)
    np.testing.assert_array_equal(_fit(dX, halves, dgroups).coef_,
                                  _fit(dX, dy, dgroups).coef_)
    with pytest.raises(ValueError, match="Only binary classification"):
        _fit(dX, dy + (dgroups > 20), dgroups)
    bad = X.copy()
    bad[-1, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        _fit(as_dask(bad, y, groups)[0], dy, dgroups)
    with pytest.raises(ValueError, match="No group has both"):
        _fit(dX, da.zeros_like(dy), dgroups)
    with pytest.raises(ValueError, match="coef_init must have shape"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            skpapk.dask.PApKAvgRanker(k=5, max_iter=3).fit(
                dX, dy, groups=dgroups, coef_init=np.zeros(2))
    with pytest.raises(ValueError, match="validation row"):
        _fit(dX, dy, dgroups, early_stopping=True, validation_fraction=0.01)
    with pytest.raises(TypeError, match="in memory"):
        _fit(dX.map_blocks(lambda b: b, chunks=((np.nan,) * 3, (4,))), y, groups)
    with pytest.raises(ValueError, match="average=True is an option"):
        skpapk.dask.PApKRanker(k=5, average=True).fit(dX, dy, groups=dgroups)


def test_partitions_of_different_lengths_are_named():
    X, y, groups = grouped_data(4)
    dX = da.from_array(X, chunks=((200, X.shape[0] - 200), (4,)))
    dy = da.from_array(y, chunks=((199, y.shape[0] - 199),))
    lazy = dy.map_blocks(lambda b: b, chunks=((np.nan, np.nan),))
    # both partitions are wrong; the first task to fail names its own
    message = (r"Partition 0: y has 199 rows but X has 200|"
               r"Partition 1: y has \d+ rows but X has \d+")
    with pytest.raises(ValueError, match=message):
        _fit(dX, lazy, da.from_array(groups, chunks=dX.chunks[0]))


def test_empty_partitions_are_fine():
    X, y, groups = grouped_data(5)
    n = X.shape[0]
    cut = int(np.searchsorted(groups, 10))  # users 0-9 | 10-29
    chunks = ((0, cut, 0, n - cut),)
    dX = da.from_array(X, chunks=(*chunks, (4,)))
    dy, dg = da.from_array(y, chunks=chunks), da.from_array(groups, chunks=chunks)
    remote = _fit(dX, dy, dg, tol=None)
    local = skpapk.PApKAvgRanker(k=5, max_iter=3, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        local.fit(X, y, groups=groups)
    np.testing.assert_allclose(remote.coef_, local.coef_, rtol=0, atol=1e-12)
    assert remote.n_iter_ == local.n_iter_ == 3


def test_validation_rows_in_memory_only():
    # X_val, y_val, groups_val: the in-memory fit with in-memory input, a
    # ValueError with dask input (no cluster needed for either)
    X, y, groups = grouped_data(3)
    Xv, yv, gv = grouped_data(4)
    params = dict(k=3, early_stopping=True, max_iter=20, random_state=0)
    remote = skpapk.dask.PApKRanker(**params).fit(
        X, y, groups=groups, X_val=Xv, y_val=yv, groups_val=gv)
    local = skpapk.PApKRanker(**params).fit(
        X, y, groups=groups, X_val=Xv, y_val=yv, groups_val=gv)
    np.testing.assert_array_equal(remote.coef_, local.coef_)
    np.testing.assert_array_equal(remote.validation_scores_,
                                  local.validation_scores_)
    dX, dy, dgroups = as_dask(X, y, groups, n_parts=2)
    with pytest.raises(ValueError, match="no X_val, y_val or groups_val with "
                                         "dask input"):
        skpapk.dask.PApKRanker(**params).fit(dX, dy, groups=dgroups, X_val=Xv,
                                             y_val=yv, groups_val=gv)


def test_a_fit_that_raises_leaves_the_ranker_as_it_was(cluster_client):
    X, y, groups = grouped_data(0)
    ranker = skpapk.dask.PApKRanker(k=5).fit(*as_dask(X, y, groups, n_parts=2))
    scores = ranker.decision_function(X)
    before = dict(vars(ranker))
    dX, dy, dgroups = as_dask(X[:, :2], y, groups, n_parts=2)
    with pytest.raises(ValueError):  # no user with both labels
        ranker.fit(dX, da.zeros_like(dy), groups=dgroups)
    assert vars(ranker).keys() == before.keys()
    assert all(vars(ranker)[name] is value for name, value in before.items())
    np.testing.assert_array_equal(ranker.decision_function(X), scores)
    fresh = skpapk.dask.PApKRanker(k=5)
    with pytest.raises(ValueError):
        fresh.fit(dX, da.zeros_like(dy), groups=dgroups)
    assert "n_features_in_" not in vars(fresh)


@pytest.mark.parametrize("ranker", [skpapk.dask.PApKRanker, skpapk.dask.PApKAvgRanker])
@pytest.mark.parametrize("dtype, message", [
    ("object", r"X column 'b' holds text \(could not convert string to float: "
               r"'[xy]'\), but the rankers take numbers only: encode it"),
    ("string", r"X column 'b' holds text"),
    ("category", r"X column 'b' holds categories that are not numbers, but "
                 r"{ranker} takes numbers only: encode it as numbers first "
                 r"\(one-hot columns"),
])
def test_a_column_that_is_not_numbers_is_named(cluster_client, ranker, dtype,
                                               message):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y, groups = grouped_data(0)
    frame = pd.DataFrame(X, columns=list("abcd")).assign(
        b=np.where(X[:, 1] > 0, "x", "y")).astype({"b": dtype})
    rows = dict(npartitions=2, sort=False)
    with pytest.raises(ValueError, match=message.format(ranker=ranker.__name__)):
        ranker(k=5).fit(dd.from_pandas(frame, **rows),
                        dd.from_pandas(pd.Series(y), **rows),
                        groups=dd.from_pandas(pd.Series(groups), **rows))


@pytest.mark.parametrize("ranker", [skpapk.dask.PApKRanker, skpapk.dask.PApKAvgRanker])
@pytest.mark.parametrize("kind", ["datetime", "timedelta", "array"])
def test_dates_and_durations_are_refused_before_any_work(ranker, kind):
    # beside numbers NumPy failed to promote them on the workers; alone they
    # were fitted as nanoseconds
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y, groups = grouped_data(0)
    value = (pd.Timedelta("1D") if kind == "timedelta"
             else pd.Timestamp("2020-01-01"))
    rows = dict(npartitions=2, sort=False)
    frame = pd.DataFrame(X, columns=list("abcd")).assign(b=value)
    dX = (da.from_array(frame[["b"]].to_numpy(), chunks=50) if kind == "array"
          else dd.from_pandas(frame, **rows))
    where = "" if kind == "array" else " column 'b'"
    with pytest.raises(TypeError, match=rf"^X{where} holds dates, times or durations "
                       rf"\((datetime|timedelta)64.*\), but {ranker.__name__} "
                       rf"takes numbers only"):
        ranker(k=5).fit(dX, dd.from_pandas(pd.Series(y), **rows),
                        groups=dd.from_pandas(pd.Series(groups), **rows))


@pytest.mark.parametrize("column", ["numbers as text", "unknown categories"])
def test_columns_that_convert_to_numbers_are_fitted(cluster_client, column):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y, groups = grouped_data(0)
    frame = pd.DataFrame(X, columns=list("abcd"))
    rows = dict(npartitions=1, sort=False)  # whole users
    dX = dd.from_pandas(frame.assign(b=np.round(X[:, 1], 1)), **rows)
    dX = dX.assign(b=dX["b"].astype(str if column == "numbers as text"
                                    else "category"))
    ranker = skpapk.dask.PApKRanker(k=5).fit(
        dX, dd.from_pandas(pd.Series(y), **rows),
        groups=dd.from_pandas(pd.Series(groups), **rows))
    assert ranker.coef_.shape == (4,)
    series = dd.from_pandas(pd.Series(X[:, 0]), **rows)
    with pytest.raises(ValueError, match="to_frame"):  # a Series, not a frame
        skpapk.dask.PApKRanker(k=5).fit(series, dd.from_pandas(pd.Series(y), **rows),
                                        groups=dd.from_pandas(pd.Series(groups),
                                                              **rows))
