"""Hostile inputs to the subgradient rankers: each gets a clear error or a
documented, tested behaviour. Also: determinism (bit-identical ``coef_``)
and a hypothesis fuzz of ``fit`` / ``score``.
"""

import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
import sklearn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.exceptions import (
    ConvergenceWarning,
    DataConversionWarning,
    NotFittedError,
    UndefinedMetricWarning,
)
from sklearn.utils._available_if import available_if
from sklearn.utils._param_validation import InvalidParameterError, make_constraint

from skpapk import (
    GreedyPApKRanker,
    PApKAvgRanker,
    PApKMaxRanker,
    PApKRampRanker,
    PApKRanker,
    PApKTSRanker,
    PAUCRanker,
    PrecAtKRanker,
    SelectPApKRanker,
)
from skpapk.losses import surrogate_loss
from skpapk.metrics import expected_papk_score, ndcg_at_k_score, papk_score, papk_scorer
from skpapk.model_selection import WithinGroupKFold

RANKERS = [PApKAvgRanker, PApKMaxRanker, PApKTSRanker, PApKRampRanker,
           PAUCRanker, PrecAtKRanker]


def make_data(seed=0, n_groups=8, n_per_group=12, d=3):
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_groups), n_per_group)
    y = np.tile(np.r_[np.ones(3, int), np.zeros(n_per_group - 3, int)], n_groups)
    X = rng.normal(size=(y.shape[0], d)) - y[:, None]
    return X, y, groups


def _boost_ranker(**params):
    pytest.importorskip("lightgbm")
    from skpapk import PApKBoostRanker

    return PApKBoostRanker(n_estimators=3, min_child_samples=2, **params)


@pytest.fixture(autouse=True)
def _quiet_convergence():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


# --- X -------------------------------------------------------------------

@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("method", ["fit", "partial_fit", "score"])
def test_nan_or_inf_in_X_raises_naming_X(bad, method):
    X, y, g = make_data()
    X_bad = X.copy()
    X_bad[5, 1] = bad
    ranker = PApKRanker(max_iter=2)
    if method == "score":
        ranker.fit(X, y, groups=g)
        call = lambda: ranker.score(X_bad, y, groups=g)  # noqa: E731
    else:
        call = lambda: getattr(ranker, method)(X_bad, y, groups=g)  # noqa: E731
    with pytest.raises(ValueError, match="Input X contains (NaN|infinity)"):
        call()


@pytest.mark.parametrize("make_ranker", [PApKRanker, PApKAvgRanker,
                                         GreedyPApKRanker, SelectPApKRanker])
@pytest.mark.parametrize("method", ["fit", "predict"])
def test_nan_in_X_advises_what_a_ranker_can_do(make_ranker, method):
    # scikit-learn's message advised HistGradientBoostingClassifier, a
    # classifier; the advice given is followed below
    X, y, g = make_data()
    X_nan = X.copy()
    X_nan[5, 1] = np.nan
    ranker = make_ranker(k=3)
    name = type(ranker).__name__
    if method == "predict":
        ranker.fit(X, y, groups=g)
    with pytest.raises(ValueError, match=(
            rf"^Input X contains NaN\.\n{name} does not accept missing values: "
            rf"impute them in a Pipeline, e\.g\. make_pipeline\(SimpleImputer"
            rf"\(\), {name}\(\)\), whose fit takes groups under sklearn\."
            rf"set_config\(enable_metadata_routing=True\); drop the rows that "
            rf"hold them; or use PApKBoostRanker \(the lightgbm extra\), which "
            rf"handles missing values natively\.$")) as error:
        ranker.fit(X_nan, y, groups=g) if method == "fit" else ranker.predict(X_nan)
    assert "HistGradientBoostingClassifier" not in str(error.value)
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline

    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(SimpleImputer(), make_ranker(k=3))
        assert pipe.fit(X_nan, y, groups=g).predict(X_nan).shape == y.shape
    pytest.importorskip("lightgbm")
    assert _boost_ranker(k=3).fit(X_nan, y, groups=g).predict(X_nan).shape == y.shape


@pytest.mark.parametrize("make_ranker", [PApKRanker, PApKAvgRanker])
def test_nan_in_X_under_assume_finite_is_named_in_the_start_error(make_ranker):
    # scikit-learn's assume_finite=True skips the NaN check: the error of the
    # non-finite start blamed coef_init alone, which the user did not pass
    X, y, g = make_data()
    X[5, 1] = np.nan
    with sklearn.config_context(assume_finite=True), pytest.raises(
            ValueError, match=r"not finite in float64; pass a smaller coef_init "
                              r"\(or coef_init=None\) or scale X\. If X holds NaN "
                              r"or infinity \(sklearn\.set_config\(assume_finite="
                              r"True\) skips that check\), remove them\.$"):
        make_ranker(k=3).fit(X, y, groups=g)


def test_a_solver_name_is_never_run_as_another():
    # under skip_parameter_validation=True, a typo ran Algorithm 1 (anything
    # but "lbfgs" did): the solvers are dispatched by name
    X, y, g = make_data()
    with sklearn.config_context(skip_parameter_validation=True), pytest.raises(
            ValueError, match=r"^solver='lbgfs' is none of \['lbfgs', "
                              r"'subgradient'\]\.$"):
        PApKRanker(k=3, solver="lbgfs").fit(X, y, groups=g)
    assert PApKRanker.solvers == ("auto", "lbfgs", "subgradient")
    coefs = [PApKRanker(k=3, solver=solver, max_iter=3).fit(X, y, groups=g).coef_
             for solver in ("auto", "lbfgs", "subgradient")]
    np.testing.assert_array_equal(coefs[0], coefs[1])  # auto: L-BFGS here
    assert not np.array_equal(coefs[1], coefs[2])


def test_features_near_1e300_stop_with_a_warning_and_a_usable_coef():
    # documented behaviour: the first step would give scores that overflow,
    # so the fit stops at once with a ConvergenceWarning naming eta0 and keeps
    # w_0 = 0 (finite scores)
    X, y, g = make_data(1)
    X_huge = X * 1e300
    with pytest.warns(ConvergenceWarning, match="eta0"):
        ranker = PApKRanker("avg", max_iter=10).fit(X_huge, y, groups=g)
    assert np.all(np.isfinite(ranker.coef_))
    assert np.all(np.isfinite(ranker.decision_function(X_huge)))
    assert ranker.t_ == 0
    # a step size on the features' scale trains without overflow (not the
    # same iterates as on X: the hinge margin 1 is not scale-free)
    with warnings.catch_warnings():
        # no divergence (this eta0 still overshoots the margin 1, so the
        # objective stays above f(w_0): that warning is expected)
        warnings.filterwarnings("error", message="The iterates diverged",
                                category=ConvergenceWarning)
        scaled = PApKRanker("avg", max_iter=10, tol=None, eta0=1e-300).fit(
            X_huge, y, groups=g)
    plain = PApKRanker("avg", max_iter=10, tol=None).fit(X, y, groups=g)
    assert scaled.t_ == 10
    assert np.all(np.isfinite(scaled.decision_function(X_huge)))
    assert scaled.score(X_huge, y, groups=g) > 0.8
    assert plain.score(X, y, groups=g) > 0.8


@pytest.mark.parametrize("factor", [1e300, 1e-150, 1e150])
def test_lbfgs_does_not_depend_on_the_units_of_the_features(factor):
    """L-BFGS runs on max|X_j|-scaled coordinates: the same ranking."""
    X, y, g = make_data(1)
    plain = PApKRanker(tol=1e-8, alpha=0.0).fit(X, y, groups=g)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        scaled = PApKRanker(tol=1e-8, alpha=0.0).fit(X * factor, y, groups=g)
    np.testing.assert_allclose(scaled.coef_ * factor, plain.coef_, rtol=1e-4)


def test_lbfgs_warns_when_it_cannot_leave_w0():
    X, y, g = make_data(1)
    with pytest.warns(ConvergenceWarning, match="did not move from w_0"):
        ranker = PApKRanker().fit(X * 1e-300, y, groups=g)
    assert np.all(ranker.coef_ == 0)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_huge_eta0_warns_and_keeps_the_last_finite_coef(sparse, dtype):
    X, y, g = make_data(2)
    X = X.astype(dtype)
    if sparse:
        X = sp.csr_matrix(X)
    ref = PApKRanker("avg", max_iter=3, tol=None, eta0=1.0).fit(X, y, groups=g)
    with pytest.warns(ConvergenceWarning, match=r"eta0=1e\+300"):
        ranker = PApKRanker("avg", max_iter=50, tol=None, eta0=1e300).fit(
            X, y, groups=g)
    assert np.all(np.isfinite(ranker.coef_))
    assert np.all(np.isfinite(ranker.decision_function(X)))
    assert ranker.t_ < 50
    assert np.isfinite(ranker.score(X, y, groups=g))
    assert ref.t_ == 3


# --- y -------------------------------------------------------------------

def test_string_y_with_two_labels_works_and_three_raise():
    X, y, g = make_data(3)
    labels = np.where(y == 1, "relevant", "boring")
    ranker = PApKRanker(max_iter=20, pos_label="relevant").fit(X, labels, groups=g)
    assert ranker.classes_.tolist() == ["boring", "relevant"]
    numeric = PApKRanker(max_iter=20).fit(X, y, groups=g)
    np.testing.assert_array_equal(ranker.coef_, numeric.coef_)
    assert ranker.score(X, labels, groups=g) == numeric.score(X, y, groups=g)
    three = labels.copy()
    three[0] = "maybe"
    with pytest.raises(ValueError, match="Only binary classification"):
        PApKRanker().fit(X, three, groups=g)


@pytest.mark.parametrize("y_bad, match", [
    (lambda y: y + 0.5 * np.arange(y.shape[0]), "continuous"),
    (lambda y: y * 1 + np.r_[2, np.zeros(y.shape[0] - 1, int)], "Only binary"),
    (lambda y: np.r_[np.nan, y[1:]], "NaN"),
    (lambda y: np.c_[y, y], "y"),
])
def test_non_binary_y_raises_naming_y(y_bad, match):
    X, y, g = make_data(4)
    with pytest.raises(ValueError, match=match):
        PApKRanker().fit(X, y_bad(y.astype(float)), groups=g)


# --- groups ----------------------------------------------------------------

@pytest.mark.parametrize("method", ["fit", "partial_fit", "score", "recommend"])
def test_groups_of_the_wrong_length_raise(method):
    X, y, g = make_data(5)
    ranker = PApKRanker(max_iter=2).fit(X, y, groups=g)
    args = (X, g[:-1]) if method == "recommend" else (X, y, g[:-1])
    with pytest.raises(ValueError, match="groups has 95 labels but there are 96 rows"):
        getattr(ranker, method)(*args)


@pytest.mark.parametrize("container", [list, lambda v: np.asarray(v, dtype=object)])
@pytest.mark.parametrize("method", ["fit", "score", "recommend"])
def test_mixed_type_group_labels_raise_type_error(container, method):
    X, y, g = make_data(6)
    mixed = container([int(v) if v % 2 else f"user{v}" for v in g])
    ranker = PApKRanker(max_iter=2).fit(X, y, groups=g)
    args = (X, mixed) if method == "recommend" else (X, y, mixed)
    with pytest.raises(TypeError, match="groups mixes labels of types"):
        getattr(ranker, method)(*args)


def test_single_group_works():
    X, y, g = make_data(7, n_groups=1, n_per_group=40)
    one = PApKRanker(max_iter=15).fit(X, y, groups=g)
    none = PApKRanker(max_iter=15).fit(X, y)  # groups=None: one group
    np.testing.assert_array_equal(one.coef_, none.coef_)
    assert one.n_groups_skipped_ == 0
    assert one.score(X, y) == one.score(X, y, groups=g) > 0.5


def test_one_label_groups_are_skipped_and_all_one_label_raises():
    X, y, g = make_data(8)
    y2 = y.copy()
    y2[g == 0] = 1  # only positives
    y2[g == 1] = 0  # only negatives
    ranker = PApKRanker("avg", max_iter=10, tol=None).fit(X, y2, groups=g)
    assert ranker.n_groups_skipped_ == 2
    rest = g >= 2
    ref = PApKRanker("avg", max_iter=10, tol=None).fit(X[rest], y2[rest],
                                                      groups=g[rest])
    np.testing.assert_allclose(ranker.coef_, ref.coef_, rtol=1e-12, atol=1e-15)
    # L-BFGS: the same minimiser (its preconditioner sees every row)
    smooth = PApKRanker(tol=1e-10).fit(X, y2, groups=g)
    smooth_ref = PApKRanker(tol=1e-10).fit(X[rest], y2[rest], groups=g[rest])
    assert smooth.n_groups_skipped_ == 2
    np.testing.assert_allclose(smooth.coef_, smooth_ref.coef_, rtol=1e-6)
    with pytest.warns(UndefinedMetricWarning):
        score = ranker.score(X, y2, groups=g)
    assert score == pytest.approx(ref.score(X[rest], y2[rest], groups=g[rest]))
    y_split = np.where(g % 2 == 0, 1, 0)  # every group has one label
    with pytest.raises(ValueError, match="No group has both a relevant and an "
                                         "irrelevant row"):
        PApKRanker().fit(X, y_split, groups=g)


def _with_text_column(X, kind):
    """``X`` (as a DataFrame, or an array for kind="array") with a column of
    text; that column's name in the message."""
    pd = pytest.importorskip("pandas")
    words = np.where(np.arange(X.shape[0]) % 3 == 0, "u", "v")
    if kind == "array":
        return np.column_stack([X[:, :2], words.astype(object)]), "column 2"
    column = {"category": pd.Categorical(words), "object": words.astype(object),
              "string": pd.array(words, dtype="string")}[kind]
    return pd.DataFrame(X, columns=["a", "b", "c"]).assign(c=column), "column 'c'"


@pytest.mark.parametrize("make_ranker", [
    PApKRanker, PApKAvgRanker, GreedyPApKRanker, SelectPApKRanker, _boost_ranker],
    ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("kind", ["category", "object", "string", "array"])
def test_a_column_of_text_is_named_with_the_fix(make_ranker, kind):
    X, y, g = make_data(2)
    X_text, where = _with_text_column(X, kind)
    ranker = make_ranker(k=3)
    if kind == "category" and type(ranker).__name__ == "PApKBoostRanker":
        ranker.fit(X_text, y, groups=g)  # split as categories
        return
    with pytest.raises(ValueError, match=rf"^X {where}.* holds text \(could "
                       rf"not convert string to float: .*\), but "
                       rf"{type(ranker).__name__} takes numbers only\. Encode "
                       rf"it first, e\.g\. with OneHotEncoder or OrdinalEncoder"
                       rf".* whose fit takes groups under sklearn\.set_config\("
                       rf"enable_metadata_routing=True\)\.") as error:
        ranker.fit(X_text, y, groups=g)
    category_column = "Or make it a pandas 'category' column (X['c']"
    assert (category_column in str(error.value)) == (
        ranker._splits_categories and kind != "array")


@pytest.mark.parametrize("kind", ["category", "object", "array"])
@pytest.mark.parametrize("method", ["predict", "partial_fit", "X_val"])
def test_a_column_of_text_is_named_in_every_method(kind, method):
    X, y, g = make_data(2)
    X_text, where = _with_text_column(X, kind)
    X_fit = X if kind == "array" else X_text.assign(c=X[:, 2])
    ranker = PApKRanker(k=3, early_stopping=method == "X_val")
    call = {"predict": lambda: ranker.fit(X_fit, y, groups=g).predict(X_text),
            "partial_fit": lambda: ranker.partial_fit(X_text, y, groups=g),
            "X_val": lambda: ranker.fit(X_fit, y, groups=g, X_val=X_text,
                                        y_val=y, groups_val=g)}[method]
    name = "X_val" if method == "X_val" else "X"
    fix = ("Encode it first" if method == "partial_fit"  # its first call
           else "encode it as X was encoded for fit\\.$")
    with pytest.raises(ValueError, match=rf"^{name} {where}.* holds text.* {fix}"):
        call()
    if method == "partial_fit":  # a later call: X encoded as in the first
        ranker.partial_fit(X_fit, y, groups=g)
        with pytest.raises(ValueError, match="encode it as X was encoded for "
                                             "fit"):
            ranker.partial_fit(X_text, y, groups=g)


@pytest.mark.parametrize("make_ranker", [PApKRanker, GreedyPApKRanker, _boost_ranker],
                         ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("value", [
    pd.Timestamp("2020-01-01"), pd.Timestamp("2020-01-01", tz="UTC"),
    pd.Timedelta("1D"), np.datetime64("2020-01-01")], ids=str)
@pytest.mark.parametrize("where", ["beside numbers", "alone", "array"])
@pytest.mark.parametrize("method", ["fit", "predict"])
def test_dates_and_durations_are_refused_naming_the_column(make_ranker, value,
                                                           where, method):
    # NumPy fails to promote them beside numbers, and turns them alone into
    # nanoseconds without a word
    X, y, g = make_data(2)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    X_dates = {"beside numbers": frame.assign(c=value),
               "alone": frame[[]].assign(c=[value] * len(y)),
               "array": np.full((len(y), 1), pd.Timestamp(value).to_datetime64()
                                if not isinstance(value, pd.Timedelta)
                                else value.to_timedelta64())}[where]
    ranker = make_ranker(k=3)
    if method == "predict":
        ranker.fit(X if where == "beside numbers" else X[:, :1], y, groups=g)
    column = "" if where == "array" else " column 'c'"
    with pytest.raises(TypeError, match=rf"^X{column} holds dates, times or durations "
                       rf"\((datetime|timedelta)64.*\), but "
                       rf"{type(ranker).__name__} takes numbers only: convert"):
        ranker.fit(X_dates, y, groups=g) if method == "fit" else \
            ranker.predict(X_dates)


def _table(library, columns):
    """``columns`` (name -> a pandas Series or array) as a polars DataFrame
    or a pyarrow Table."""
    if library == "polars":  # (pandas' Series of objects would need pyarrow)
        return pytest.importorskip("polars").DataFrame({
            name: values.tolist() if np.asarray(values).dtype.kind == "O"
            else np.asarray(values) for name, values in columns.items()})
    pa = pytest.importorskip("pyarrow")
    return pa.table({name: pa.array(values) for name, values in columns.items()})


@pytest.mark.parametrize("make_ranker", [PApKRanker, _boost_ranker],
                         ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("library", ["polars", "pyarrow"])
@pytest.mark.parametrize("kind", ["datetime", "date", "duration"])
@pytest.mark.parametrize("method", ["fit", "predict"])
def test_dates_of_polars_and_arrow_tables_are_refused(make_ranker, library, kind,
                                                      method):
    # they were fitted as microseconds or days since 1970, without a word
    # (only pandas' dtypes were read)
    X, y, g = make_data(2)
    stamps = pd.Series(pd.Timestamp("2020-01-01") + pd.to_timedelta(
        np.arange(len(y)), unit="D"))
    dates = {"datetime": stamps, "date": stamps.dt.date,
             "duration": stamps - stamps.min()}[kind]
    X_dates = _table(library, {"a": X[:, 0], "c": dates})
    ranker = make_ranker(k=3)
    if method == "predict":
        ranker.fit(_table(library, {"a": X[:, 0], "c": X[:, 2]}), y, groups=g)
    with pytest.raises(TypeError, match=r"^X column 'c' holds dates, times or "
                       rf"durations \(.*\), but {type(ranker).__name__} takes "
                       r"numbers only"):
        ranker.fit(X_dates, y, groups=g) if method == "fit" else \
            ranker.predict(X_dates)


@pytest.mark.parametrize("make_ranker", [PApKRanker, _boost_ranker],
                         ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("library", ["polars", "pyarrow"])
@pytest.mark.parametrize("categories", [False, True])
def test_text_of_polars_and_arrow_tables_is_named_with_a_fix_for_them(
        make_ranker, library, categories):
    # the column was named by its position, and the boosted ranker's advice
    # X[1].astype('category') is no method of theirs
    X, y, g = make_data(2)
    words = np.where(np.arange(len(y)) % 3 == 0, "u", "v")
    X_text = _table(library, {"a": X[:, 0], "c": words})
    if categories:
        X_text = (X_text.with_columns(X_text["c"].cast(
            pytest.importorskip("polars").Categorical)) if library == "polars"
            else X_text.set_column(1, "c", X_text["c"].dictionary_encode()))
    ranker = make_ranker(k=3)
    with pytest.raises(ValueError, match=r"^X column 'c' holds text") as error:
        ranker.fit(X_text, y, groups=g)
    message = str(error.value)
    assert "astype('category')" not in message
    assert ("X.to_pandas() makes" in message) == (
        ranker._splits_categories or categories)
    if ranker._splits_categories and categories:  # the advice, followed
        ranker.fit(X_text.to_pandas(), y, groups=g)
        assert ranker.n_features_in_ == 2


@pytest.mark.parametrize("beside", ["Int64", "Float64", "float64"])
@pytest.mark.parametrize("make_ranker", [PApKRanker, PApKAvgRanker],
                         ids=lambda f: f.__name__.strip("_"))
def test_text_category_beside_a_nullable_column_is_named(make_ranker, beside):
    # (tester) beside a nullable column, pandas' own words reached the user:
    # "Cannot cast str dtype to float64"
    X, y, g = make_data(2)
    frame = pd.DataFrame({"b": pd.array(np.round(X[:, 0] * 10), dtype=beside),
                          "c": pd.Categorical(np.where(y == 1, "x", "y"))})
    with pytest.raises(ValueError, match=r"^X column 'c' holds text .* Encode "
                       r"it first"):
        make_ranker(k=3).fit(frame, y, groups=g)


# the boosted ranker takes groups by name only: fit(X, y, w) is a TypeError
# (test_boost.py)
@pytest.mark.parametrize("make_ranker", [PApKRanker, PApKAvgRanker],
                         ids=lambda f: f.__name__.strip("_"))
def test_weights_passed_as_groups_are_named_as_a_likely_mixup(make_ranker):
    # LightGBM's fit(X, y, sample_weight): here the third argument is groups
    X, y, _ = make_data(2)
    weights = np.random.default_rng(0).random(len(y))
    with pytest.raises(ValueError, match=r"y has one class in each of the 96 "
                       r"group\(s\).* Every group holds one row: is groups a "
                       r"sample_weight\? fit\(X, y, groups\) takes the groups "
                       r"third, where LightGBM's and scikit-learn's fit take the "
                       r"weights; pass groups= \(and sample_weight=\) by name. "
                       r"Or did a search train on a few rows across all users\? A "
                       r"halving search's first candidates train on "
                       r"min_resources rows: raise it"):
        make_ranker(k=3).fit(X, y, weights)
    with pytest.raises(ValueError, match=r"group\(s\)") as error:  # real groups
        make_ranker(k=3).fit(X, np.zeros_like(y) + (np.arange(len(y)) < 12),
                             np.arange(len(y)) // 12)
    assert "Every group holds one row" not in str(error.value)


@pytest.mark.parametrize("X_dates", [
    [[np.datetime64("2020-01-01")]] * 96,
    np.array([[pd.Timestamp("2020-01-01")]] * 96, dtype=object)],
    ids=["list of datetime64", "object array of Timestamp"])
def test_dates_in_lists_and_object_arrays_are_refused(X_dates):
    _, y, g = make_data(2)
    with pytest.raises(TypeError, match=r"^X holds dates, times or durations"):
        PApKRanker(k=3).fit(X_dates, y, groups=g)


def test_frames_whose_dtypes_are_not_pandas_ones_are_fitted():
    # polars: DataFrame.dtypes is a list of its own dtypes
    X, y, g = make_data(2)

    class ListDtypes:
        shape, columns = X.shape, ["a", "b", "c"]
        dtypes = ["Float64"] * 3

        def __array__(self, dtype=None, copy=None):
            return X

    coef = PApKRanker(k=3).fit(ListDtypes(), y, groups=g).coef_
    np.testing.assert_array_equal(coef, PApKRanker(k=3).fit(X, y, groups=g).coef_)
    with pytest.raises(ValueError, match="Expected a 2-dimensional container"):
        PApKRanker(k=3).fit(pd.Series(np.arange(len(y)), dtype="Int64"), y,
                            groups=g)


@pytest.mark.parametrize("y_bad", [1, 1.5, "yes", True])
def test_a_scalar_y_raises_naming_y(y_bad):
    X, _, g = make_data(2)
    with pytest.raises(ValueError, match="^y should be a 1d array, got an "
                                         "array of shape"):
        PApKRanker(k=3).fit(X, y_bad, groups=g)


@pytest.mark.parametrize("kind", ["object", "array"])
def test_a_column_of_text_is_named_by_the_boosted_rankers_predict(kind):
    X, y, g = make_data(2)
    X_text, where = _with_text_column(X, kind)
    X_fit = X if kind == "array" else X_text.assign(c=X[:, 2])
    ranker = _boost_ranker(k=3).fit(X_fit, y, groups=g)
    with pytest.raises(ValueError, match=rf"^X {where}.* holds text .*, but "
                                         rf"PApKBoostRanker takes numbers only: "
                                         rf"encode it as X was encoded for fit\.$"):
        ranker.predict(X_text)


# --- k -------------------------------------------------------------------

@pytest.mark.parametrize("k, error", [
    (0, ValueError), (-3, ValueError), (2.5, TypeError), ("3", TypeError),
    (True, TypeError), (None, TypeError),
])
@pytest.mark.parametrize("method", ["fit", "partial_fit"])
def test_bad_k_raises_naming_k(k, error, method):
    X, y, g = make_data(9)
    with pytest.raises(error, match="k"):
        getattr(PApKRanker(k=k), method)(X, y, groups=g)


def _bool_cases(cls):
    """The ``(parameter, bool)`` pairs of ``cls`` that only the bool check
    refuses: the parameter takes no boolean, but the number 1 or 0 that the
    bool stands for meets one of its constraints."""
    return [(name, value)
            for name, constraints in cls._parameter_constraints.items()
            if not {"boolean", "verbose"} & {c for c in constraints
                                             if isinstance(c, str)}
            for value in (True, False)
            if any(make_constraint(c).is_satisfied_by(int(value))
                   for c in constraints)]


def _public_rankers():
    import skpapk

    return [getattr(skpapk, name) for name in sorted(skpapk.__all__)
            if isinstance(getattr(skpapk, name), type)
            and issubclass(getattr(skpapk, name), skpapk.BaseRanker)
            and not name.startswith("Base")]


@pytest.mark.parametrize("cls, name, value", [
    (cls, name, value) for cls in _public_rankers()
    for name, value in _bool_cases(cls)])
def test_a_bool_is_no_number_parameter(cls, name, value):
    # Interval(Integral) and Interval(Real) take True as 1 and False as 0
    X, y, g = make_data(9)
    with pytest.raises(InvalidParameterError,
                       match=f"'{name}' parameter of {cls.__name__} must be"):
        cls(**{name: value}).fit(X, y, groups=g)


# --- duplicated rows ---------------------------------------------------------

def test_duplicated_rows_are_separate_items():
    # documented behaviour: a duplicated row is another item; each copy takes
    # a place in the top k (no deduplication)
    y = np.array([1, 0, 0])
    X = np.array([[1.0], [0.5], [0.0]])
    ranker = PApKRanker(k=2, max_iter=1, tol=None).fit(X, y)
    ranker.coef_ = np.array([1.0])  # scores = X
    assert ranker.score(X, y) == 1.0
    # the duplicated positive and a negative tied with it: the pairs are
    # counted per copy (beta = 2 positives x k' = 2 negatives)
    X_dup = np.array([[1.0], [1.0], [1.0], [0.0]])
    y_dup = np.array([1, 1, 0, 0])
    assert ranker.score(X_dup, y_dup) == pytest.approx((0.5 + 1 + 0.5 + 1) / 4)
    assert ranker.score(X_dup, y_dup) == papk_score(y_dup, X_dup[:, 0], k=2)
    # training on every row twice is training on a dataset of twice the items
    X2, y2, g2 = make_data(10)
    doubled = PApKRanker(k=6, max_iter=5, tol=None).fit(
        np.r_[X2, X2], np.r_[y2, y2], groups=np.r_[g2, g2])
    assert np.all(np.isfinite(doubled.coef_))
    rec = doubled.recommend(np.r_[X2, X2], np.r_[g2, g2], k=2)
    first = rec.indices[:2]
    assert abs(first[0] - first[1]) == X2.shape[0]  # both copies of the top row


# --- determinism and fuzzing -------------------------------------------------

@pytest.mark.parametrize("cls", RANKERS)
@pytest.mark.parametrize("options", [{}, {"average": True},
                                     {"early_stopping": True, "random_state": 0,
                                      "validation_fraction": 0.3}])
def test_same_data_and_parameters_give_bit_identical_coef(cls, options):
    X, y, g = make_data(11, n_groups=10, n_per_group=20)
    a = cls(k=4, max_iter=15, **options).fit(X, y, groups=g)
    b = cls(k=4, max_iter=15, **options).fit(X, y, groups=g)
    c = pickle.loads(pickle.dumps(cls(k=4, max_iter=15, **options))).fit(
        X, y, groups=g)
    assert np.array_equal(a.coef_, b.coef_)
    assert np.array_equal(a.coef_, c.coef_)
    restored = pickle.loads(pickle.dumps(a))
    assert np.array_equal(restored.coef_, a.coef_)
    assert np.array_equal(restored.decision_function(X), a.decision_function(X))


@st.composite
def ranking_problems(draw):
    n = draw(st.integers(2, 60))
    d = draw(st.integers(1, 5))
    n_groups = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * draw(st.sampled_from([1e-3, 1.0, 1e3]))
    groups = rng.integers(0, n_groups, n)
    if draw(st.booleans()):
        groups = np.array([f"u{v}" for v in groups])
    y = rng.random(n) < draw(st.floats(0.05, 0.95))
    labels = draw(st.sampled_from(["bool", "int", "str"]))
    if labels == "int":
        y = np.where(y, 5, -1)
    elif labels == "str":
        y = np.where(y, "yes", "no")
    return X, y, groups, "yes" if labels == "str" else None


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(problem=ranking_problems(), surrogate=st.sampled_from(["avg", "max", "ts",
                                                             "ramp"]),
       k=st.integers(1, 5), eta0=st.sampled_from([1e-3, 1.0, 1e3]))
def test_fuzz_fit_and_score(problem, surrogate, k, eta0):
    X, y, groups, pos_label = problem
    classes = np.unique(y)
    if classes.shape[0] == 2:
        y_pos = y == classes[1]
        defined = any(y_pos[groups == v].any() and not y_pos[groups == v].all()
                      for v in np.unique(groups))
    else:
        defined = False
    ranker = PApKRanker(surrogate, k=k, eta0=eta0, max_iter=5, pos_label=pos_label)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        if not defined:
            with pytest.raises(ValueError, match="group|pos_label|label"):
                ranker.fit(X, y, groups=groups)
            return
        ranker.fit(X, y, groups=groups)
        score = ranker.score(X, y, groups=groups)
    assert ranker.coef_.shape == (X.shape[1],)
    assert np.all(np.isfinite(ranker.coef_))
    assert np.isnan(score) or 0.0 <= score <= 1.0
    assert not np.isnan(score)  # at least one group is defined


# --- third round (issue 25): k past int64, 2-d arguments, RuntimeWarnings ------

ALL_RANKERS = RANKERS + [PApKRanker, GreedyPApKRanker, SelectPApKRanker]


@pytest.mark.parametrize("cls", ALL_RANKERS)
def test_k_past_int64_is_a_value_error_naming_k(cls):
    X, y, g = make_data(4)
    with pytest.raises(ValueError, match=r"k=1e\+30 is too large: k is at most "
                       r"2\*\*63 - 1\. .* k=n_samples shows every list whole"):
        cls(k=10**30).fit(X, y, groups=g)


@pytest.mark.parametrize("call", [
    lambda y, s, g, k: papk_score(y, s, k=k, groups=g),
    lambda y, s, g, k: ndcg_at_k_score(y, s, k=k, groups=g),
    lambda y, s, g, k: expected_papk_score(y, k=k, groups=g),
    lambda y, s, g, k: surrogate_loss(y, s, g, k=k, surrogate="avg")[0],
    lambda y, s, g, k: papk_scorer(k),
], ids=["papk_score", "ndcg_at_k_score", "expected_papk_score",
        "surrogate_loss", "papk_scorer"])
def test_k_past_int64_in_functions(call):
    X, y, g = make_data(4)
    with pytest.raises(ValueError, match=r"k=1e\+30 is too large"):
        call(y, X[:, 0], g, 10**30)
    call(y, X[:, 0], g, 2**63 - 1)  # the greatest k works: lists shown whole


def test_the_greatest_k_ranks_whole_lists():
    X, y, g = make_data(4)
    ranker = PApKAvgRanker(k=2**63 - 1, max_iter=3).fit(X, y, groups=g)
    longest = PApKAvgRanker(k=12, max_iter=3).fit(X, y, groups=g)
    np.testing.assert_array_equal(ranker.coef_, longest.coef_)


@pytest.mark.parametrize("method", ["fit", "partial_fit", "score", "recommend"])
def test_two_column_groups_name_groups(method):
    X, y, g = make_data(5)
    ranker = PApKRanker(max_iter=3)
    if method in ("score", "recommend"):
        ranker.fit(X, y, groups=g)
    args = (X,) if method == "recommend" else (X, y)
    with pytest.raises(ValueError, match=r"groups must be 1-d \(one value per "
                       r"row\), got an array of shape \(96, 2\)"):
        getattr(ranker, method)(*args, groups=np.c_[g, g])


@pytest.mark.parametrize("name, args", [
    ("y_score", lambda X, y, g: (y, X[:, :2])),
    ("y_true", lambda X, y, g: (np.c_[y, y], X[:, 0])),
])
def test_two_column_metric_arguments_are_named(name, args):
    X, y, g = make_data(5)
    with pytest.raises(ValueError, match=rf"{name} must be 1-d .*shape \(96, 2\)"):
        papk_score(*args(X, y, g), k=3, groups=g)
    with pytest.raises(ValueError, match="groups must be 1-d"):
        papk_score(y, X[:, 0], k=3, groups=np.c_[g, g])


def test_a_column_vector_is_raveled_with_a_warning_naming_it():
    X, y, g = make_data(5)
    with pytest.warns(DataConversionWarning, match="passed as y_score"):
        value = papk_score(y, X[:, :1], k=3, groups=g)
    assert value == papk_score(y, X[:, 0], k=3, groups=g)


@pytest.mark.parametrize("surrogate", ["pairwise_logistic", "soft_papk"])
@pytest.mark.parametrize("group_weight", ["uniform", "inverse_variance"])
def test_a_user_of_weight_zero_raises_no_runtime_warning(surrogate, group_weight):
    X, y, g = make_data(6)
    weight = np.random.default_rng(0).random(y.shape[0])
    weight[g == 0] = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        value, grad, hess = surrogate_loss(
            y, X[:, 0], g, k=3, surrogate=surrogate, group_weight=group_weight,
            sample_weight=weight, return_hessian=True)
    assert np.isfinite(value)
    assert np.all(grad[g == 0] == 0) and np.all(hess[g == 0] == 0)
    # the user of weight 0 changes nothing: the others alone give the same
    rest = g != 0
    value_rest, grad_rest, _ = surrogate_loss(
        y[rest], X[rest, 0], g[rest], k=3, surrogate=surrogate,
        group_weight=group_weight, sample_weight=weight[rest], return_hessian=True)
    assert value == pytest.approx(value_rest, rel=1e-12)
    np.testing.assert_allclose(grad[rest], grad_rest, rtol=1e-10, atol=1e-15)


@pytest.mark.parametrize("metric", [papk_score, ndcg_at_k_score])
def test_scores_near_the_float_limits_raise_no_runtime_warning(metric):
    # the finiteness check summed them (inf - inf: "invalid value in reduce")
    # (the partial sums of numpy's pairwise sum reach +inf and -inf)
    y = np.arange(64) % 2
    scores = np.where(y == 1, 1e308, -1e308)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert metric(y, scores, k=2, ties="error") == 1.0
    with pytest.raises(ValueError, match="y_score contains infinity"):
        metric(y, np.r_[np.inf, scores[1:]], k=2)


# --- a fit that raises ------------------------------------------------------

def _one_label_per_group(X, y, g):
    return X, (g % 2 == 0).astype(int), g


def _fewer_features(X, y, g):
    return X[:, :2], y, g


@pytest.mark.parametrize("make_ranker, bad_data", [
    (lambda: PApKRanker(k=3, warm_start=True), _fewer_features),
    (lambda: PApKAvgRanker(k=3, warm_start=True), _fewer_features),
    (lambda: PApKRanker(k=3), _one_label_per_group),
    (lambda: PApKAvgRanker(k=3), _one_label_per_group),
    (lambda: GreedyPApKRanker(k=3, n_estimators=2), _one_label_per_group),
    (lambda: SelectPApKRanker(k=3), _one_label_per_group),
    (_boost_ranker, _one_label_per_group),
], ids=["PApKRanker-warm", "PApKAvgRanker-warm", "PApKRanker", "PApKAvgRanker",
        "GreedyPApKRanker", "SelectPApKRanker", "PApKBoostRanker"])
def test_a_refit_that_raises_leaves_the_previous_fit(make_ranker, bad_data):
    pd = pytest.importorskip("pandas")
    X, y, g = make_data(3)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    ranker = make_ranker().fit(frame, y, groups=g)
    before, scores = dict(vars(ranker)), ranker.predict(frame)
    X_bad, y_bad, g_bad = bad_data(X, y, g[::-1])
    with pytest.raises(ValueError):  # after validate_data reset the features
        ranker.fit(X_bad, y_bad, groups=g_bad)
    assert vars(ranker).keys() == before.keys()
    assert all(vars(ranker)[name] is value for name, value in before.items())
    np.testing.assert_array_equal(ranker.predict(frame), scores)


@pytest.mark.parametrize("make_ranker", [
    PApKRanker, PApKAvgRanker, GreedyPApKRanker, SelectPApKRanker, _boost_ranker],
    ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("method", ["fit", "partial_fit"])
def test_a_first_fit_that_raises_leaves_the_ranker_unfitted(make_ranker, method):
    X, y, g = make_data(3)
    ranker = make_ranker(k=3)
    if not hasattr(ranker, method):
        pytest.skip(f"{type(ranker).__name__} has no {method}")
    params = dict(vars(ranker))
    with pytest.raises(ValueError):  # one label: no pair to rank
        getattr(ranker, method)(X, np.zeros_like(y), groups=g)
    assert vars(ranker) == params
    with pytest.raises(NotFittedError):
        ranker.predict(X)


def test_a_partial_fit_step_that_raises_leaves_the_previous_step():
    X, y, g = make_data(3)
    ranker = PApKAvgRanker(k=3).partial_fit(X, y, groups=g)
    state = ranker._solver_state
    t, curve = state.t, list(state.objective_curve)
    ranker.set_params(eta0=1e308)  # the next iterate is not finite
    before = dict(vars(ranker))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        with pytest.raises(ConvergenceWarning, match="diverged"):
            ranker.partial_fit(100 * X, y, groups=g)
    assert all(vars(ranker)[name] is value for name, value in before.items())
    assert (state.t, state.objective_curve) == (t, curve)


class _OnlineRanker(PApKAvgRanker):
    """A user's subclass whose ``partial_fit`` is there when ``online``."""

    def __init__(self, k=3, online=False):
        super().__init__(k=k)
        self.online = online

    @available_if(lambda self: self.online)
    def partial_fit(self, X, y, groups=None, classes=None):
        return super().partial_fit(X, y, groups=groups, classes=classes)


class _FittingRanker(_OnlineRanker):
    def fit(self, X, y, groups=None):
        return super().fit(X, y, groups=groups)


def test_a_subclass_partial_fit_under_available_if_keeps_it():
    assert not hasattr(_OnlineRanker(online=False), "partial_fit")
    X, y, g = make_data(3)
    ranker = _OnlineRanker(online=True)
    assert hasattr(ranker, "partial_fit")
    params = dict(vars(ranker))
    with pytest.raises(ValueError):  # one label: no pair to rank
        ranker.partial_fit(X, np.zeros_like(y), groups=g)
    assert vars(ranker) == params
    ranker.partial_fit(X, y, groups=g)
    assert not hasattr(_FittingRanker(online=False), "partial_fit")


class _FailingMixin:
    """A mixin placed before a ranker (as skpapk.dask's are), whose fit
    sets an attribute and raises."""

    def fit(self, X, y, groups=None):
        self.n_features_in_ = -1
        raise ValueError("the mixin's fit failed")


class _MixedRanker(_FailingMixin, PApKAvgRanker):
    pass


def test_a_mixins_fit_before_the_ranker_is_wrapped():
    X, y, g = make_data(3)
    ranker = _MixedRanker(k=3)
    with pytest.raises(ValueError, match="the mixin's fit failed"):
        ranker.fit(X, y, groups=g)
    assert "n_features_in_" not in vars(ranker)
    assert not hasattr(_FailingMixin.fit, "_restores_state")  # left as it is


class _OnlineMixin:
    """A mixin before the ranker, whose ``partial_fit`` is there when
    ``online``."""

    @available_if(lambda self: self.online)
    def partial_fit(self, X, y, groups=None, classes=None):
        self.n_features_in_ = -1
        raise ValueError("the mixin's partial_fit failed")


class _OnlineMixedRanker(_OnlineMixin, PApKAvgRanker):
    def __init__(self, k=3, online=False):
        super().__init__(k=k)
        self.online = online


def test_a_mixins_available_if_partial_fit_is_wrapped_in_a_copy():
    assert not hasattr(_OnlineMixedRanker(online=False), "partial_fit")
    ranker = _OnlineMixedRanker(online=True)
    X, y, g = make_data(3)
    with pytest.raises(ValueError, match="the mixin's partial_fit failed"):
        ranker.partial_fit(X, y, groups=g)
    assert "n_features_in_" not in vars(ranker)
    mixin = _OnlineMixin.__dict__["partial_fit"]  # left as it is
    assert not hasattr(mixin.fn, "_restores_state")
    assert _OnlineMixedRanker.__dict__["partial_fit"] is not mixin


def test_an_inherited_fit_is_wrapped_once():
    assert "fit" not in _OnlineRanker.__dict__
    assert "partial_fit" not in _FittingRanker.__dict__
    assert _OnlineRanker.fit is PApKAvgRanker.fit
    for method in (_FittingRanker.__dict__["fit"],
                   _OnlineRanker.__dict__["partial_fit"].fn):
        assert method._restores_state
        assert not hasattr(method.__wrapped__, "__wrapped__")


@pytest.mark.parametrize("dtype", ["Int64", "int64[pyarrow]", "UInt64"])
def test_nullable_integer_scores_beyond_2_53_keep_their_order(dtype):
    # pandas' nullable integers went through float64: 2**60 + 1 and 2**60
    # became a tie (0.5 where the ranking scores 0)
    pytest.importorskip("pyarrow")
    s = np.array([2**60 + 1, 2**60, 2**60 + 3, 2**60 + 2], dtype=np.uint64)
    y = [1, 0, 0, 1]
    assert papk_score(y, s, k=1) == 0.0
    assert papk_score(y, pd.Series(s, dtype=dtype), k=1) == 0.0
    assert papk_score(y, pd.array(s, dtype=dtype), k=1) == 0.0
    with pytest.raises(ValueError, match="NaN"):  # a missing score: refused
        papk_score(y, pd.Series([1, None, 3, 2], dtype=dtype), k=1)


@pytest.mark.parametrize("keys", ["series", "multiindex"])
def test_composite_group_keys_with_a_missing_part_are_refused(keys):
    # each NaN part made a group of its own, dropped as undefined
    frame = pd.DataFrame({"user": ["a"] * 4 + ["b"] * 2,
                          "session": [1.0, 1.0, np.nan, np.nan, 2.0, 2.0]})
    groups = (pd.Series(list(zip(frame.user, frame.session))) if keys == "series"
              else frame.set_index(["user", "session"]).index)
    with pytest.raises(ValueError, match="a key with a missing part"):
        papk_score([1, 0, 1, 0, 1, 0], [0.9, 0.1, 0.2, 0.8, 0.9, 0.1], k=1,
                   groups=groups)
    complete = frame.fillna(0.0).set_index(["user", "session"]).index
    assert papk_score([1, 0, 1, 0, 1, 0], [0.9, 0.1, 0.2, 0.8, 0.9, 0.1], k=1,
                      groups=complete) == pytest.approx(2 / 3)


@pytest.mark.parametrize("dtype", ["arrow string", "arrow large_string",
                                   "string[pyarrow]", "boolean", "Int64"])
def test_missing_labels_of_pandas_extension_types_are_named(dtype):
    # pd.ArrowDtype strings were NumPy's "boolean value of NA is ambiguous",
    # a nullable boolean in the splitters "Unknown label type: ... dtype=int"
    words = ["yes", "no", None, "no", "yes", "no"]
    if dtype.startswith("arrow"):
        pa = pytest.importorskip("pyarrow")
        labels = pd.Series(words, dtype=pd.ArrowDtype(getattr(pa, dtype[6:])()))
    elif dtype == "string[pyarrow]":
        pytest.importorskip("pyarrow")
        labels = pd.Series(words, dtype=dtype)
    else:
        labels = pd.Series([1, 0, None, 0, 1, 0], dtype=dtype)
    pos = "yes" if words[0] in set(labels.dropna()) else None
    groups = [0, 0, 0, 1, 1, 1]
    with pytest.raises(ValueError, match="has missing labels"):
        papk_score(labels, np.arange(6.0), k=1, groups=groups, pos_label=pos)
    with pytest.raises(ValueError, match="has missing labels"):
        list(WithinGroupKFold(2).split(np.zeros((6, 1)), labels, groups))
    with pytest.raises(ValueError, match="has missing labels"):
        PApKRanker(k=1, pos_label=pos).fit(np.eye(6), labels, groups=groups)


@pytest.mark.parametrize("ranker", [PApKRanker(k=1), GreedyPApKRanker(k=1)])
def test_pandas_na_or_other_objects_in_a_feature_column_are_named(ranker):
    # float() argument must be a string or a real number, not 'NAType'
    y, groups = [1, 0, 0, 1, 0, 1], [0, 0, 0, 1, 1, 1]
    X = pd.DataFrame({"a": np.arange(6.0),
                      "b": pd.Series([1.0, pd.NA, 2.0, 3.0, 4.0, 5.0], dtype=object)})
    with pytest.raises(TypeError, match=r"^X column 'b' holds pandas' NA among "
                                        r"objects: .*pandas\.to_numeric\(X\['b'\]\)"
                       ) as info:
        ranker.fit(X, y, groups=groups)
    import pandas  # the advice works

    assert pandas.to_numeric(X["b"]).isna().sum() == 1
    with pytest.raises(TypeError, match=r"^X column 1 \(X\[:, 1\]\) holds pandas' "
                                        r"NA .*pandas\.to_numeric\(X\[:, 1\]\)"):
        ranker.fit(X.to_numpy(), y, groups=groups)
    assert "NAType" in str(info.value.__cause__)
    X["b"] = [Ellipsis] * 6
    with pytest.raises(TypeError, match=r"^X column 'b' holds values that are "
                                        r"not numbers .*'ellipsis'"):
        ranker.fit(X, y, groups=groups)
    import datetime

    for values in ([datetime.time(1)] * 6, [datetime.date(2020, 1, 1)] * 6,
                   [datetime.timedelta(1)] * 6,
                   pd.period_range("2020-01", periods=6, freq="M")):
        X["b"] = values
        with pytest.raises(TypeError, match="holds dates, times or durations"):
            ranker.fit(X, y, groups=groups)


def test_labels_as_a_dask_series_are_read_as_before():
    # the check of pandas' missing labels made a lazy dask scalar a bool
    dd = pytest.importorskip("dask.dataframe")
    words = pd.Series(["y", "n", "n", "y", "n", "y"])
    labels = dd.from_pandas(words, npartitions=2)
    groups = [0, 0, 0, 1, 1, 1]
    assert papk_score(labels, np.arange(6.0), k=1, groups=groups,
                      pos_label="y") == papk_score(words, np.arange(6.0), k=1,
                                                   groups=groups, pos_label="y")
