"""Tests of the input validation helpers: accepted inputs and error messages."""

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import DataConversionWarning

from skpapk.utils._arrays import float_array
from skpapk.utils._labels import check_binary_target, check_fitted_labels
from skpapk.utils._validation import (
    check_groups,
    check_k,
    check_ranking_inputs,
    check_scores,
)


@pytest.mark.parametrize("k", [1, 7, np.int64(3), np.uint8(2)])
def test_check_k_accepts_positive_integers(k):
    assert check_k(k) == int(k)
    assert type(check_k(k)) is int


@pytest.mark.parametrize("k, error", [(0, ValueError), (-3, ValueError),
                                      (2.5, TypeError), (2.0, TypeError),
                                      (True, TypeError), (np.bool_(True), TypeError),
                                      (None, TypeError), ("5", TypeError)])
def test_check_k_rejects(k, error):
    with pytest.raises(error, match="k must be a positive integer"):
        check_k(k)


@pytest.mark.parametrize("k", [0, 2.5, 2**63])
def test_a_metric_s_k_raises_what_the_estimators_k_raises(k):
    # a plain TypeError / ValueError: `except ValueError` caught the
    # estimator's InvalidParameterError but not the metric's TypeError
    from sklearn.utils._param_validation import InvalidParameterError

    from skpapk import PApKRanker
    from skpapk.metrics import papk_score

    with pytest.raises(InvalidParameterError, match=r"\bk\b"):
        papk_score([1, 0], [0.5, 0.1], k=k)
    with pytest.raises(InvalidParameterError, match=r"\bk\b"):
        PApKRanker(k=k).fit(np.eye(2), [1, 0])


def test_check_k_names_the_argument():
    with pytest.raises(ValueError, match="n_top must be"):
        check_k(0, name="n_top")


@pytest.mark.parametrize(
    "groups, codes, labels",
    [(None, [0, 0, 0], [0]),
     ([5, 3, 5], [1, 0, 1], [3, 5]),
     (["b", "a", "b"], [1, 0, 1], ["a", "b"]),
     (np.array([2.0, -1.0, 2.0]), [1, 0, 1], [-1.0, 2.0]),
     (np.array(["u1", "u2", "u1"], dtype=object), [0, 1, 0], ["u1", "u2"]),
     # ints beyond 2**53 and floats: float64 would merge 2**53 + 1 into 2**53
     ([2**53 + 1, 2.0**53, 2**53 + 1], [1, 0, 1], [2**53, 2**53 + 1]),
     ((v for v in [2**53 + 1, 2.0**53, 2**53]), [1, 0, 0], [2**53, 2**53 + 1]),
     ([-(2**60), 0.5, -(2**60) + 1], [0, 2, 1],
      np.array([-(2**60), -(2**60) + 1, 0.5], dtype=object))],
)
def test_check_groups_encodes_sorted_labels(groups, codes, labels):
    got_codes, got_labels = check_groups(groups, 3)
    np.testing.assert_array_equal(got_codes, codes)
    np.testing.assert_array_equal(got_labels, labels)
    assert got_codes.dtype == np.intp


@pytest.mark.parametrize(
    "groups, error, match",
    [([0, 1], ValueError, "groups has 2 labels but there are 3 rows"),
     ([0.0, np.nan, 1.0], ValueError, "NaN or infinite"),
     (np.array([1, None, 2], dtype=object), ValueError, "missing id"),
     # a text user column with a missing id (pandas reads NaN or NA): not
     # "mixes labels", whose advice (astype(str)) made one user "nan" of them
     (np.array(["a", np.nan, "b"], dtype=object), ValueError, "missing id"),
     (["a", float("nan"), "b"], ValueError, "missing id"),
     ([2**53 + 1, float("inf"), 1.0], ValueError, "NaN or infinite"),
     (pd.Series(["a", None, "b"]), ValueError, "missing id"),
     (pd.array(["a", pd.NA, "b"], dtype="string"), ValueError, "missing id"),
     (np.array([1.0, np.nan, 2.0], dtype=object), ValueError, "missing id"),
     (np.array(["2020-01-01", "NaT", "2020-01-02"], dtype="datetime64[D]"),
      ValueError, "missing id"),
     (np.array([1, "a", 2], dtype=object), TypeError, "mixes labels"),
     ("abc", TypeError, "groups must be array-like.* the str 'abc'"),
     (b"abc", TypeError, "the bytes"),
     (3, TypeError, "the int 3"),
     (np.int64(3), TypeError, "the int64 3"),
     ({0, 1, 2}, TypeError, "the set"),
     ({0: 0, 1: 1, 2: 2}, TypeError, "the dict")],
)
def test_check_groups_rejects(groups, error, match):
    with pytest.raises(error, match=match):
        check_groups(groups, 3)


def test_check_groups_column_vector_warns():
    with pytest.warns(Warning):
        codes, labels = check_groups(np.array([[1], [0], [1]]), 3)
    np.testing.assert_array_equal(codes, [1, 0, 1])


@pytest.mark.parametrize(
    "y, pos_label, expected",
    [([0, 1, 1], None, [False, True, True]),
     ([-1, 1, -1], None, [False, True, False]),
     ([2, 7, 7], None, [False, True, True]),
     ([2, 7, 7], 2, [True, False, False]),
     (["no", "yes"], "yes", [False, True]),
     (["no", "yes"], "no", [True, False]),
     ([False, True], None, [False, True]),
     ([1, 1, 1], None, [True, True, True]),
     ([0, 0], None, [False, False]),
     (["a", "a"], "a", [True, True])],
)
def test_check_binary_target(y, pos_label, expected):
    y_pos, _ = check_binary_target(y, pos_label=pos_label)
    np.testing.assert_array_equal(y_pos, expected)


@pytest.mark.parametrize(
    "y, pos_label, match",
    [([0, 1, 2], None, "Only binary classification is supported"),
     ([0.5, 1.5, 0.25], None, "binary relevance labels"),
     ([0.0, np.nan], None, "y_true"),
     (["a", "a"], None, "single label 'a', which is not a number; say "
                        "whether it is the relevant one with pos_label"),
     (["no", "yes"], None, "labels 'no' and 'yes', which are not numbers"),
     ([7, 7], None, "single label 7; say whether it is the relevant one with "
                    "pos_label"),
     ([0, 1], 3, "pos_label=3 is not one of the labels")],
)
def test_check_binary_target_rejects(y, pos_label, match):
    with pytest.raises(ValueError, match=match):
        check_binary_target(y, pos_label=pos_label)


def test_check_scores():
    out = check_scores([1, 2, 3], 3)
    assert out.dtype == np.float64
    with pytest.raises(TypeError, match="y_score must be numeric"):
        check_scores(["a", "b"], 2)
    with pytest.raises(ValueError, match="y_score"):
        check_scores([1.0, np.inf], 2)
    with pytest.raises(ValueError, match="y_score has 2 scores but y_true has 3"):
        check_scores([1.0, 2.0], 3)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_check_scores_keeps_the_order_of_integers_float64_would_merge(dtype):
    # nanosecond timestamps and other integers beyond 2**53: float64 merged
    # neighbours into ties; they are ranked instead, ties kept
    big = np.iinfo(dtype).max - 10
    scores = np.array([big, big - 1, 3, big, big - 2], dtype=dtype)
    out = check_scores(scores, 5, order_only=True)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(np.argsort(out, kind="stable"),
                                  np.argsort(scores, kind="stable"))
    assert out[0] == out[3]
    # a loss reads the values: float64 of them, not ranks
    np.testing.assert_array_equal(check_scores(scores, 5),
                                  scores.astype(np.float64))


def test_check_ranking_inputs_names_both_arrays_on_length_mismatch():
    with pytest.raises(ValueError, match="y_true and y_score must have the same"):
        check_ranking_inputs([0, 1, 1], [0.1, 0.2], None)
    y_pos, scores, codes, labels = check_ranking_inputs(
        ["n", "y"], [1, 2], ["u", "v"], pos_label="y")
    np.testing.assert_array_equal(y_pos, [False, True])
    np.testing.assert_array_equal(codes, [0, 1])
    assert scores.dtype == np.float64 and list(labels) == ["u", "v"]


# --------------------------------------------------------------------------
# Fast paths for integer labels and group ids agree with the general path
# --------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(ids=st.lists(st.integers(-5, 40), min_size=1, max_size=30),
       dtype=st.sampled_from([np.int64, np.int32, np.int8]),
       spread=st.sampled_from([1, 10**6]))
def test_check_groups_int_fast_path_matches_unique(ids, dtype, spread):
    g = (np.array(ids) * (spread if dtype is np.int64 else 1)).astype(dtype)
    codes, labels = check_groups(g, g.shape[0])
    ref_labels, ref_codes = np.unique(g, return_inverse=True)
    np.testing.assert_array_equal(codes, ref_codes)
    np.testing.assert_array_equal(labels, ref_labels)
    assert labels.dtype == ref_labels.dtype and codes.dtype == np.intp


@settings(max_examples=200, deadline=None)
@given(y=st.lists(st.integers(-2, 3), min_size=1, max_size=12),
       dtype=st.sampled_from([np.int64, np.uint8, bool]),
       pos_label=st.sampled_from([None, 0, 1, 3, -2]))
def test_check_binary_target_int_fast_path_matches_float_path(y, dtype, pos_label):
    y = np.abs(np.array(y)).astype(dtype) if dtype is not np.int64 else np.array(y)
    try:
        expected = check_binary_target(y.astype(np.float64), pos_label=pos_label)
    except (ValueError, TypeError) as exc:
        with pytest.raises(type(exc)):
            check_binary_target(y, pos_label=pos_label)
        return
    y_pos, classes = check_binary_target(y, pos_label=pos_label)
    np.testing.assert_array_equal(y_pos, expected[0])
    np.testing.assert_array_equal(classes, expected[1])


@pytest.mark.parametrize("groups", [[1, "a", 1], (1, "a", 1)])
def test_check_groups_mixed_list_is_not_silently_stringified(groups):
    with pytest.raises(TypeError, match="groups mixes labels of types"):
        check_groups(groups, 3)


# --------------------------------------------------------------------------
# Group ids of every integer width and sign; any two numeric labels
# --------------------------------------------------------------------------

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64,
              np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("where", ["bottom", "top", "span"])
def test_check_groups_ids_of_every_integer_width(dtype, where):
    # ids at the ends of the dtype's range: int8 -128..127 overflowed an int8
    # subtraction, uint64 ids >= 2**63 did not fit the intp bincount
    info = np.iinfo(dtype)
    low, high = int(info.min), int(info.max)
    ids = {"bottom": [low + 3, low, low + 3, low + 1],
           "top": [high, high - 2, high, high - 1],
           "span": [high, low, high, low + 1]}[where]
    g = np.array(ids, dtype=dtype)
    codes, labels = check_groups(g, g.shape[0])
    ref_labels, ref_codes = np.unique(g, return_inverse=True)
    np.testing.assert_array_equal(codes, ref_codes)
    np.testing.assert_array_equal(labels, ref_labels)
    assert labels.dtype == g.dtype and codes.dtype == np.intp


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint16])
def test_check_groups_many_rows_of_ids_spanning_the_whole_dtype(dtype):
    # enough rows for the bincount path to cover the dtype's whole range
    # (int16: -32768 and 32767 among 40000 rows crashed "no negative elements")
    info = np.iinfo(dtype)
    ids = np.array([info.min, info.max, 0, 5, info.max - 1], dtype=dtype)
    g = np.random.default_rng(0).permutation(np.tile(ids, 8000))
    codes, labels = check_groups(g, g.shape[0])
    ref_labels, ref_codes = np.unique(g, return_inverse=True)
    np.testing.assert_array_equal(codes, ref_codes)
    np.testing.assert_array_equal(labels, ref_labels)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(INT_DTYPES))
def test_check_groups_any_integer_ids_match_unique(data, dtype):
    info = np.iinfo(dtype)
    base = data.draw(st.integers(int(info.min), int(info.max)))
    offsets = data.draw(st.lists(st.integers(-300, 300), min_size=1, max_size=40))
    g = np.array([min(max(base + o, int(info.min)), int(info.max))
                  for o in offsets], dtype=dtype)
    codes, labels = check_groups(g, g.shape[0])
    ref_labels, ref_codes = np.unique(g, return_inverse=True)
    np.testing.assert_array_equal(codes, ref_codes)
    np.testing.assert_array_equal(labels, ref_labels)


@pytest.mark.parametrize(
    "y, pos_label, expected, classes",
    [([0.0, 0.5, 0.5], None, [False, True, True], [0.0, 0.5]),
     ([0.5, 0.25], None, [True, False], [0.25, 0.5]),
     ([-0.1, 0.3, -0.1], -0.1, [True, False, True], [0.3, -0.1]),
     (np.array([0, 0.5], dtype=np.float32), None, [False, True], [0.0, 0.5])],
)
def test_check_binary_target_any_two_numbers(y, pos_label, expected, classes):
    # type_of_target calls {0, 0.5} "continuous"; two values are two labels
    y_pos, got = check_binary_target(y, pos_label=pos_label)
    np.testing.assert_array_equal(y_pos, expected)
    np.testing.assert_allclose(got, classes)


@pytest.mark.parametrize(
    "y, classes",
    [([0, 1, 1], [0, 1]), ([0.0, 1.0], [0, 1]), ([1, 1], [0, 1]),
     ([True, False], [0, 1]), (["no", "yes"], ["no", "yes"]),
     ([0.5, 0.0], [0.0, 0.5])],
)
def test_check_fitted_labels_accepts_the_fitted_labels(y, classes):
    assert check_fitted_labels(y, np.asarray(classes)) == classes[-1]


@pytest.mark.parametrize(
    "y, classes, unknown",
    [([1, 2, 2], [0, 1], "[2]"), ([2, 3], [0, 1], "[2, 3]"),
     (["n", "y"], [0, 1], "['n', 'y']"), ([0, 1], ["no", "yes"], "[0, 1]")],
)
def test_check_fitted_labels_rejects_labels_not_fitted(y, classes, unknown):
    with pytest.raises(ValueError, match=re.escape(f"y has the label(s) {unknown}")
                       + ".*Recode y to the fitted labels"):
        check_fitted_labels(y, np.asarray(classes))


@pytest.mark.parametrize("values", [
    [True, False], np.array([True, False]), [1.0, True], [[0.5], [np.True_]],
    np.array([1.0, False], dtype=object), pd.Series([True, False]), True,
    [np.array(True), 1.0], [[np.array(False)]],
])
def test_float_array_refuses_booleans(values):
    # numpy takes True/False as 1.0/0.0: not numbers here, as for the scalars
    with pytest.raises(TypeError, match=r"w must be a vector of numbers, got "
                       r"True/False \(booleans\)"):
        float_array(values, input_name="w", expected="a vector of numbers")


@pytest.mark.parametrize("values, expected", [
    ([1, 2.5], [1.0, 2.5]), (np.array([3], dtype=np.uint8), [3.0]),
    (np.array([0.5, 1], dtype=object), [0.5, 1.0]), (pd.Series([1, 0]), [1.0, 0.0]),
    ([], []),
])
def test_float_array_takes_numbers(values, expected):
    got = float_array(values, input_name="w", expected="a vector of numbers")
    assert got.dtype == np.float64 and got.tolist() == expected


@pytest.mark.parametrize("routing", [True, False])
def test_groups_of_the_wrong_length_in_a_fold_say_so(routing):
    # "groups has 175 labels but there are 120 rows": 120 is a training fold,
    # X has 180 (scikit-learn passes metadata of another length unsliced)
    import sklearn
    from sklearn.model_selection import KFold, cross_validate

    from skpapk import PApKAvgRanker
    from skpapk.datasets import make_papk_simulation
    from skpapk.metrics import micro_papk_scorer

    X, y, g = make_papk_simulation(6, n_pos=5, n_neg=25, n_features=4,
                                   random_state=0)
    with sklearn.config_context(enable_metadata_routing=routing):
        with pytest.raises(ValueError, match=re.escape(
                "groups has 175 labels but there are 120 rows; pass one group "
                "(user / query) id per row. These rows may be those of a "
                "cross-validation fold: groups must have one label per row of "
                "the full X")):
            cross_validate(PApKAvgRanker(k=3), X, y, cv=KFold(3),
                           scoring=micro_papk_scorer(3) if routing else None,
                           params={"groups": g[:-5]}, error_score="raise")
    # outside a cross-validation, no folds to speak of
    with pytest.raises(ValueError, match="per row.$"):
        PApKAvgRanker(k=3).fit(X, y, groups=g[:-5])


class _Sequence:
    """Indexable, not Iterable by the ABC (``__getitem__`` and ``__len__``)."""

    def __init__(self, values):
        self.values = values

    def __getitem__(self, i):
        return self.values[i]

    def __len__(self):
        return len(self.values)


@pytest.mark.parametrize("container", [list, tuple, iter, _Sequence])
def test_mixed_labels_keep_their_types_in_any_sequence(container):
    # np.asarray([1, "a"]) would make 1 the label "1"
    from skpapk.utils._arrays import _as_array

    array = _as_array(container([1, "a", 2]))
    assert array.dtype == object and array.tolist() == [1, "a", 2]


@pytest.mark.parametrize("container", [list, tuple])
@pytest.mark.parametrize("ids", [
    ["u", "u", "u\x00", "u\x00"],  # NumPy's "U" strings drop trailing NULs
    [b"u", b"u", b"u\x00", b"u\x00"],
])
def test_ids_that_fixed_width_strings_would_merge_stay_apart(container, ids):
    # (group identity tester) np.asarray of the list merged two users: every
    # function that takes groups saw one
    from skpapk.metrics import papk_score
    from skpapk.utils._arrays import _as_array
    from skpapk.utils._validation import check_groups

    assert _as_array(container(ids)).tolist() == ids
    column = _as_array(container([[v] for v in ids]))  # a column vector too
    assert column.dtype == object and column.ravel().tolist() == ids
    assert _as_array([[v] for v in ("a", "b")]).dtype.kind == "U"
    codes, labels = check_groups(container(ids), 4)
    assert codes.tolist() == [0, 0, 1, 1] and labels.tolist() == ids[::2]
    y = np.array([1, 0, 1, 0])
    gains = papk_score(y, [2.0, 1.0, 1.0, 2.0], k=1, groups=container(ids),
                       average=None)
    np.testing.assert_array_equal(gains, [1.0, 0.0])


@pytest.mark.parametrize("container", [list, tuple, pd.Series])
def test_str_and_bytes_ids_are_not_merged(container):
    # np.asarray([b"a", "a"]) decodes b"a" into "a": one user; refused as a
    # Series of them is (bytes and str cannot be ordered)
    from skpapk.metrics import papk_score

    with pytest.raises(TypeError, match=r"mixes labels of types \['bytes', "
                                        r"'str'\]"):
        papk_score([1, 0, 1, 0], [2.0, 1.0, 1.0, 2.0], k=1,
                   groups=container([b"a", b"a", "a", "a"]))


@pytest.mark.parametrize("scalar", [1, 2.5, "yes", b"no", None])
def test_a_scalar_stays_a_scalar(scalar):
    from skpapk.utils._arrays import _as_array

    assert _as_array(scalar).ndim == 0


def test_ragged_numbers_are_named_not_left_to_numpy():
    with pytest.raises(TypeError, match=r"^w must be numbers, got list that does "
                                        r"not convert to float"):
        float_array([[1, 2], [3]], input_name="w", expected="numbers")
    with pytest.raises(TypeError, match=r"^w must be numbers, got text \(dtype "
                                        r"object\); pass numbers\.$"):
        float_array(pd.Series(["1", "2"], dtype="string"), input_name="w",
                    expected="numbers")


def test_groups_as_a_list_of_tuples_are_composite_keys():
    # list(zip(user, session)) was "groups must be 1-d ... shape (6, 2)", and
    # tuples of unequal lengths NumPy's "inhomogeneous shape"
    from skpapk import PApKRanker

    keys = [(1, "a"), (1, "b"), (1, "a"), (2, "a"), (2, "a"), (1, "b")]
    codes, labels = check_groups(keys, 6)
    assert codes.tolist() == [0, 1, 0, 2, 2, 1]
    assert labels.tolist() == [(1, "a"), (1, "b"), (2, "a")]
    assert check_groups([(1,), (1, 2), (1,)], 3)[0].tolist() == [0, 1, 0]
    # a key with a missing part is refused, as a missing id (NaN never
    # equals NaN: each such row was a group of its own)
    for missing in (np.nan, None, pd.NA):
        with pytest.raises(ValueError, match="a key with a missing part"):
            check_groups([(1, missing), (1, missing), (1, 1.0), (2, 1.0)], 4)
    # one-item tuples stay a column of ids (raveled, with the warning)
    with pytest.warns(DataConversionWarning):
        codes, labels = check_groups([(1,), (2,), (1,)], 3)
    assert labels.tolist() == [1, 2] and codes.tolist() == [0, 1, 0]
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(6, 2)), np.array([1, 0, 1, 0, 1, 0])
    as_text = [f"{u}-{s}" for u, s in keys]
    np.testing.assert_array_equal(
        PApKRanker(k=1).fit(X, y, groups=keys).coef_,
        PApKRanker(k=1).fit(X, y, groups=as_text).coef_)


@pytest.mark.parametrize("library", ["polars", "pyarrow"])
def test_composite_keys_of_list_and_struct_columns(library):
    # a polars or Arrow list column failed in np.unique ("The truth value of
    # an array ... is ambiguous", naming nothing): its keys are those of a
    # pandas Series of lists; a struct column (mappings) and a 2-d array
    # are refused with the composite keys' recipe
    users, sessions = [1, 1, 1, 2, 2, 1], ["a", "b", "a", "a", "a", "b"]
    keys = [[u, s] for u, s in zip(users, sessions)]
    if library == "polars":
        pl = pytest.importorskip("polars")
        lists = pl.Series([[str(u), s] for u, s in keys])
        struct = pl.DataFrame({"user": users, "session": sessions}).to_struct("g")
        expected = check_groups(pd.Series([[str(u), s] for u, s in keys]), 6)
    else:
        pa = pytest.importorskip("pyarrow")
        lists = pa.chunked_array([pa.array([[u, ord(s)] for u, s in keys])])
        struct = pa.StructArray.from_arrays(
            [pa.array(users), pa.array(sessions)], ["user", "session"])
        expected = check_groups(pd.Series([[u, ord(s)] for u, s in keys]), 6)
    codes, labels = check_groups(lists, 6)
    assert codes.tolist() == expected[0].tolist() == [0, 1, 0, 2, 2, 1]
    assert labels.tolist() == [tuple(key) for key in expected[1].tolist()]
    recipe = r"a composite key as one tuple per row: list\(zip\(user, session\)\)\.$"
    with pytest.raises(ValueError, match=r"shape \(6, 2\); pass the one column "
                       r"that holds groups, or " + recipe):
        check_groups(np.array(keys, dtype=object), 6)
    if library == "polars":  # NumPy makes a polars struct a 2-d array
        with pytest.raises(ValueError, match=r"shape \(6, 2\).*" + recipe):
            check_groups(struct, 6)
        return
    with pytest.raises(TypeError, match=r"^groups holds mappings \(\{'user': 1, "
                       r"'session': 'a'\}: an Arrow or polars struct column\?\); "
                       r"pass " + recipe):
        check_groups(struct, 6)


@pytest.mark.parametrize("y_true, y_score, match", [
    # scikit-learn's "Complex data not supported" / "Sparse data was passed
    # for y": neither named y_score
    ([1, 0], np.array([0.1, 0.2]) + 0j, "y_score must hold real numbers"),
    ([1, 0], "sparse", "y_score must be dense"),
    # a sparse row of labels: "must have the same length ([1, 2])"
    ("sparse row", [0.1, 0.2], r"y_true must be dense.*y_true.toarray\(\)"),
])
def test_metric_inputs_of_the_wrong_kind_are_named(y_true, y_score, match):
    import scipy.sparse as sp

    from skpapk.metrics import papk_score

    if isinstance(y_score, str):
        y_score = sp.csr_matrix([[0.1], [0.2]])
    if isinstance(y_true, str):
        y_true = sp.csr_matrix([[1, 0]])
    with pytest.raises(TypeError, match=match):
        papk_score(y_true, y_score, k=1)


@pytest.mark.parametrize("kind", ["csr_matrix", "csr_array", "coo_matrix"])
@pytest.mark.parametrize("call", ["metric", "fit", "recommend"])
def test_sparse_groups_are_refused_by_name(kind, call):
    # list() of a sparse column made groups of 1x1 matrices, or numpy errors
    import scipy.sparse as sp

    from skpapk import PApKRanker
    from skpapk.metrics import papk_score

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 2)), np.tile([1, 0, 0, 0], 10)
    ids = np.repeat(np.arange(4), 10)
    groups = getattr(sp, kind)(ids[:, None])
    run = {"metric": lambda: papk_score(y, X[:, 0], k=2, groups=groups),
           "fit": lambda: PApKRanker(k=2).fit(X, y, groups=groups),
           "recommend": lambda: PApKRanker(k=2).fit(X, y, groups=ids).recommend(
               X, groups)}[call]
    with pytest.raises(TypeError, match=r"groups must be dense.*toarray\(\)"):
        run()


@pytest.mark.parametrize("dtype", ["datetime64[ns]", "timedelta64[s]", "UTC",
                                   "date"])
def test_dates_are_not_labels(dtype):
    # their int64 view passed for labels 0 and 1 that "are not numbers";
    # timezone-aware ones (objects) were "numbers stored as Python objects"
    import datetime

    import pandas as pd

    from skpapk import PApKRanker
    from skpapk.metrics import papk_score

    y = (pd.Series(pd.to_datetime([0, 1, 0, 1], unit="s", utc=True))
         if dtype == "UTC" else [datetime.date(2020, 1, 1 + i % 2) for i in range(4)]
         if dtype == "date" else np.array([0, 1, 0, 1]).astype(dtype))
    with pytest.raises(TypeError, match="y_true holds dates or durations"):
        papk_score(y, [0.1, 0.2, 0.3, 0.4], k=1)
    with pytest.raises(TypeError, match="y holds dates or durations"):
        PApKRanker(k=1).fit(np.eye(4), y)


def test_scores_as_python_numbers_in_an_object_array():
    # as scikit-learn's roc_auc_score takes them; text is still refused
    from skpapk.metrics import papk_score, partial_auc_score

    rng = np.random.default_rng(0)
    y, groups = (rng.random(60) < 0.3).astype(int), np.repeat(np.arange(3), 20)
    scores, order = rng.normal(size=60), rng.permutation(60)
    for metric in (papk_score, partial_auc_score):
        assert metric(y, scores.astype(object), k=3, groups=groups) == metric(
            y, scores, k=3, groups=groups)
        # integers beyond 2**64 keep their order (ranked, not rounded)
        huge = np.array([2**70 + int(i) for i in order], dtype=object)
        assert metric(y, huge, k=3, groups=groups) == metric(
            y, order, k=3, groups=groups)
    with pytest.raises(TypeError, match="y_score must be numeric"):
        papk_score(y, np.array(["1"] * 60, dtype=object), k=3, groups=groups)
    # beyond float64 (an OverflowError of numpy's before), named
    with pytest.raises(ValueError, match="y_score holds a number beyond float64"):
        papk_score(y, np.array([10**400] + [1.5] * 59, dtype=object), k=3,
                   groups=groups)


# --- label identity (a review of labels and pos_label) -----------------------

_SCORES = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]


@pytest.mark.parametrize("container", [list, tuple])
def test_labels_that_fixed_width_strings_would_merge_stay_apart(container):
    # np.asarray(["yes", "yes\x00"]) drops the NUL: one label, every row
    # relevant (NaN), where the object array has two
    from skpapk.metrics import papk_score, precision_at_k_score

    y = ["yes", "yes\x00", "yes", "yes\x00", "yes", "yes\x00"]
    expected = papk_score(np.array(y, dtype=object), _SCORES, k=2, pos_label="yes")
    assert expected == 0.75  # (0.9, 0.7) over (0.8, 0.6): 3 of 4 pairs
    assert papk_score(container(y), _SCORES, k=2, pos_label="yes") == expected
    assert precision_at_k_score(container(y), _SCORES, k=2,
                                pos_label="yes\x00") == 0.5  # 1 of the top 2
    with pytest.raises(ValueError, match="3 distinct values"):
        papk_score(container(["no", *y[1:]]), _SCORES, k=2, pos_label="yes")


@pytest.mark.parametrize("dtype", ["Int64", "int64[pyarrow]", "UInt64"])
def test_nullable_integer_labels_beyond_2_53_stay_apart(dtype):
    # scikit-learn's conversion of a nullable column goes through float64
    from skpapk import PApKRanker
    from skpapk.metrics import papk_score

    if "pyarrow" in dtype:
        pytest.importorskip("pyarrow")
    y = np.array([2**53 + 1, 2**53] * 3, dtype=np.uint64)
    series = pd.Series(y, dtype=dtype)
    assert papk_score(series, _SCORES, k=2) == papk_score(y, _SCORES, k=2)
    assert papk_score(series, _SCORES, k=2, pos_label=2**53) == papk_score(
        y, _SCORES, k=2, pos_label=2**53)
    X = np.array(_SCORES)[:, None]
    ranker = PApKRanker(k=2).fit(X, series)
    assert ranker.classes_.tolist() == [2**53, 2**53 + 1]


@pytest.mark.parametrize("dtype, expected", [
    ("boolean", [False, True]), ("Int64", [0, 1]),
])
def test_nullable_labels_keep_their_type_in_classes(dtype, expected):
    from skpapk import PApKRanker

    y = pd.Series([1, 0, 1, 0, 1, 0], dtype=dtype)
    ranker = PApKRanker(k=2).fit(np.array(_SCORES)[:, None], y)
    assert ranker.classes_.tolist() == expected
    assert type(ranker.classes_.tolist()[0]) is type(expected[0])


def test_pos_label_is_matched_exactly_not_in_float64():
    # 2.0**53 == 2**53, but not 2**53 + 1, which y == pos_label matched in
    # float64: every row was relevant
    from skpapk.metrics import papk_score, precision_at_k_score

    y = np.array([2**53, 2**53, 2**53 + 1, 2**53 + 1, 2**53, 2**53 + 1])
    assert papk_score(y, _SCORES, k=2, pos_label=2.0**53) == papk_score(
        y, _SCORES, k=2, pos_label=2**53)
    assert precision_at_k_score(y[2:4], _SCORES[:2], k=2, pos_label=2.0**53) == 0


@pytest.mark.parametrize("y, pos_label", [
    ([1, 1, 1], "1"), (["yes"] * 3, b"yes"), ([1.0] * 3, "one"),
])
def test_pos_label_of_another_kind_than_a_single_label_raises(y, pos_label):
    # two labels refuse it (not one of them); one label (a fold without the
    # relevant one) took it silently: every row irrelevant
    from skpapk.metrics import precision_at_k_score

    with pytest.raises(ValueError, match=r"pos_label=.* is (text|bytes), but "
                                         r"the label of y_true"):
        precision_at_k_score(y, [0.9, 0.5, 0.1], k=1, pos_label=pos_label)
    assert precision_at_k_score(y, [0.9, 0.5, 0.1], k=1, pos_label=y[0]) == 1.0


def test_pos_label_is_a_class_exactly_in_recommend_save_and_scorers(tmp_path):
    # (review) recommend, save_ranker and the scorers compared pos_label with
    # NumPy scalars: 2.0**53 was taken for the class 2**53 + 1
    from skpapk import PApKRanker, recommend
    from skpapk.io import save_ranker
    from skpapk.metrics import micro_papk_scorer, papk_score
    from skpapk.metrics._scorer import ranking_scores

    X = np.array(_SCORES)[:, None]
    y = np.array([2**53 + 2, 2**53 + 1] * 3)
    ranker = PApKRanker(k=2).fit(X, y)
    assert ranker.classes_.tolist() == [2**53 + 1, 2**53 + 2]
    for pos_label in (2.0**53, np.float64(2**53)):  # a NumPy scalar too
        with pytest.raises(ValueError, match="is not a class of PApKRanker"):
            recommend(ranker, X, k=2, pos_label=pos_label)
        with pytest.raises(ValueError, match="is not one of the labels"):
            papk_score(y, _SCORES, k=2, pos_label=pos_label)
    # not a class: the ranker's own scores, not negated as for 2**53 + 1
    np.testing.assert_array_equal(ranking_scores(ranker, X, pos_label=2.0**53),
                                  ranker.decision_function(X))
    np.testing.assert_array_equal(ranking_scores(ranker, X, pos_label=2**53 + 1),
                                  -ranker.decision_function(X))
    for pos_label in (float(2**53 + 2) - 2, np.float64(2**53)):
        with pytest.raises(ValueError, match="was fitted with 9007199254740994 as"):
            save_ranker(ranker, tmp_path / "m.json", pos_label=pos_label)
    groups = np.zeros(6, dtype=int)
    assert micro_papk_scorer(2)(ranker, X, y, groups=groups) == ranker.score(
        X, y, groups=groups)


@pytest.mark.parametrize("pos_label", [2**53, 2**53 + 1, np.uint64(2**53 + 1)])
def test_relevant_label_is_last_for_uint64_labels_beyond_2_53(pos_label):
    # NumPy 1 compared the uint64 class with the int pos_label in float64:
    # classes_ came out with the relevant label first
    from skpapk.utils._labels import check_binary_target

    y = np.array([2**53 + 1, 2**53] * 3, dtype=np.uint64)
    y_pos, classes = check_binary_target(y, pos_label=pos_label)
    assert classes.tolist()[-1] == int(pos_label)
    np.testing.assert_array_equal(y_pos, y == np.uint64(pos_label))


@pytest.mark.parametrize("call, name", [
    ("fit y", "y"), ("fit groups", "groups"), ("metric y_true", "y_true"),
    ("metric y_score", "y_score"), ("metric groups", "groups"), ("split y", "y"),
])
def test_ragged_nested_lists_are_named(call, name):
    # NumPy's "setting an array element with a sequence ... inhomogeneous
    # shape" named no argument
    from skpapk import PApKRanker
    from skpapk.metrics import papk_score
    from skpapk.model_selection import within_group_split

    X, flat, ragged = np.random.default_rng(0).normal(size=(4, 2)), [1, 0, 1, 0], [
        [1], [0, 1], [1], [0]]
    run = {
        "fit y": lambda: PApKRanker().fit(X, ragged, groups=[0] * 4),
        "fit groups": lambda: PApKRanker().fit(X, flat, groups=ragged),
        "metric y_true": lambda: papk_score(ragged, [0.1, 0.2, 0.3, 0.4], k=1),
        "metric y_score": lambda: papk_score(flat, ragged, k=1),
        "metric groups": lambda: papk_score(flat, [0.1, 0.2, 0.3, 0.4], k=1,
                                            groups=ragged),
        "split y": lambda: within_group_split(ragged, [0] * 4),
    }[call]
    with pytest.raises(ValueError, match=f"^{name} holds sequences of different "
                                         r"lengths \(a ragged nested list: rows "
                                         r"hold \[1\] and \[0, 1\]\)"):
        run()


@pytest.mark.parametrize("kind", ["object", "str", "bytes", "tuples", "mixed numbers"])
@pytest.mark.parametrize("seed", range(3))
def test_text_and_object_ids_are_encoded_as_numpy_unique_does(kind, seed):
    # ids of text or objects are hashed, then their distinct values sorted:
    # the codes and labels of np.unique (which sorted every row's id)
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, 40, 500)
    if kind == "tuples":
        groups = [(int(i) % 7, f"s{int(i) // 7}") for i in ids]
        expected = np.empty(len(groups), dtype=object)
        expected[:] = groups
    else:
        groups = {"object": np.array([f"u{i}" for i in ids], dtype=object),
                  "str": np.array([f"u{i}" for i in ids]),
                  "bytes": np.array([f"u{i}".encode() for i in ids]),
                  "mixed numbers": np.array([int(i) if i % 2 else float(i)
                                             for i in ids], dtype=object)}[kind]
        expected = groups
    labels, codes = np.unique(expected, return_inverse=True)
    got_codes, got_labels = check_groups(groups, len(ids))
    np.testing.assert_array_equal(got_codes, codes.reshape(-1))
    assert got_labels.dtype == labels.dtype
    assert got_labels.tolist() == labels.tolist()
