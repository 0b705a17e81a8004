import itertools
import math
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
import sklearn
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    cross_val_score,
    cross_validate,
)

from skpapk.model_selection import WithinGroupKFold, within_group_split
from skpapk.model_selection._split import _within_group_parts


def _random_data(seed, n_groups=7, max_size=25, n_classes=2):
    rng = np.random.RandomState(seed)
    sizes = rng.randint(0, max_size, size=n_groups)
    groups = rng.permutation(np.repeat(np.arange(n_groups) * 10 + 3, sizes))
    y = rng.randint(n_classes, size=groups.shape[0])
    X = rng.standard_normal((groups.shape[0], 2))
    return X, y, groups


def _check_kfold_properties(X, y, groups, n_splits, splits):
    """Brute-force checks of the guarantees, one group at a time."""
    n = groups.shape[0]
    assert len(splits) == n_splits
    times_in_test = np.zeros(n, dtype=int)
    for train, test in splits:
        assert np.intersect1d(train, test).size == 0
        assert np.union1d(train, test).tolist() == list(range(n))
        assert np.all(np.diff(train) > 0) and np.all(np.diff(test) > 0)
        times_in_test[test] += 1
    labels, sizes = np.unique(groups, return_counts=True)
    small = np.isin(groups, labels[sizes < n_splits])
    # every row of a large enough group is in exactly one test fold,
    # rows of small groups in none
    np.testing.assert_array_equal(times_in_test, np.where(small, 0, 1))
    large_rows = ~small
    test_sizes = [np.count_nonzero(large_rows[test]) for _, test in splits]
    assert max(test_sizes) - min(test_sizes) <= 1
    for g, size in zip(labels, sizes):
        if size < n_splits:
            continue
        in_group = groups == g
        for train, test in splits:
            assert in_group[train].any() and in_group[test].any()
        per_fold = [np.count_nonzero(in_group[test]) for _, test in splits]
        assert max(per_fold) - min(per_fold) <= 1
        for label in np.unique(y):
            per_fold = [np.count_nonzero(in_group[test] & (y[test] == label))
                        for _, test in splits]
            assert max(per_fold) - min(per_fold) <= 1


@pytest.mark.parametrize("n_splits", [2, 3, 5])
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_within_group_kfold_guarantees(n_splits, shuffle, seed):
    X, y, groups = _random_data(seed)
    cv = WithinGroupKFold(n_splits, shuffle=shuffle,
                          random_state=seed if shuffle else None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        splits = list(cv.split(X, y, groups))
    _check_kfold_properties(X, y, groups, n_splits, splits)
    assert cv.get_n_splits() == n_splits


@pytest.mark.parametrize("container", [
    tuple, list, np.array, pd.Series,
    lambda v: np.array(v, dtype=np.float32),
    lambda v: pd.Series(v, dtype="float32"),
    lambda v: [np.float32(f) for f in v],
    lambda v: [Fraction(str(f)) for f in v],
    lambda v: [Decimal(str(f)) for f in v],
    lambda v: [np.array(f, dtype=np.float32) for f in v],  # 0-d arrays
    lambda v: np.array(v, dtype=np.float16),
])
def test_within_group_split_sizes_taken_as_written(container):
    # a float32 0.7 is 0.699999988 in float64: cut at its decimal, 0.7, as
    # written (the float64 sum 0.2f + 0.7f = 0.89999999 cut 15 rows 3/10/2)
    parts = within_group_split(np.zeros(15, int), np.zeros(15, int),
                               sizes=container([0.2, 0.7, 0.1]), random_state=0)
    assert [len(p) for p in parts] == [3, 11, 1]


@pytest.mark.parametrize("sizes", [
    np.full(10, 0.1, dtype=np.float32),  # float64 sum 1.0000000149
    np.full(20, 0.05, dtype=np.float32),
    np.array([0.2, 0.7, 0.1], dtype=np.float16),  # float64 sum 1.00012
    np.full(3, 1 / 3, dtype=np.float32),  # as written, 1.00000002
])
def test_within_group_split_lower_precision_sizes_sum_to_1_as_written(sizes):
    parts = within_group_split(np.zeros(200, int), np.zeros(200, int),
                               sizes=sizes, random_state=0)
    cuts = np.floor(200 * np.cumsum([float(str(f)) for f in sizes]) + 0.5)
    assert [len(p) for p in parts] == np.diff(cuts, prepend=0).tolist()


@pytest.mark.parametrize("sizes", [
    np.array([0.5, 0.4], dtype=np.float32), (0.5, 0.5 + 1e-7),
    np.array([0.5, 0.51], dtype=np.float16),
])
def test_within_group_split_sizes_not_summing_to_1_raise(sizes):
    with pytest.raises(ValueError, match="sizes must sum to 1"):
        within_group_split([0, 1], [0, 0], sizes=sizes)


@pytest.mark.parametrize("sizes", [{"train": 0.5, "test": 0.5}, {0.5, 0.25}])
def test_within_group_split_sizes_without_an_order_are_refused(sizes):
    # a dict was read by its keys ("got text"), a set in no defined order
    with pytest.raises(TypeError, match=r"sizes must be a sequence of fractions "
                       r"in the parts' order, .* got a (dict|set); pass a tuple"):
        within_group_split([0, 1] * 4, [0] * 8, sizes=sizes)


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 9), min_size=1, max_size=5),
    n_splits=st.integers(2, 4),
    n_classes=st.integers(1, 3),
    seed=st.integers(0, 2**16),
    shuffle=st.booleans(),
)
def test_within_group_kfold_property(sizes, n_splits, n_classes, seed, shuffle):
    rng = np.random.RandomState(seed)
    groups = rng.permutation(np.repeat(np.arange(len(sizes)), sizes))
    if groups.shape[0] == 0:
        return
    y = rng.randint(n_classes, size=groups.shape[0])
    X = np.zeros((groups.shape[0], 1))
    cv = WithinGroupKFold(n_splits, shuffle=shuffle,
                          random_state=seed if shuffle else None)
    if max(sizes) < n_splits:
        with pytest.raises(ValueError, match="No group has at least"):
            next(cv.split(X, y, groups))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        splits = list(cv.split(X, y, groups))
    _check_kfold_properties(X, y, groups, n_splits, splits)


def test_small_groups_go_to_training_with_one_warning():
    groups = np.array([0] * 6 + [1] * 2 + [2] * 1 + [3] * 5)
    y = np.array([1, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0])
    X = np.zeros((groups.shape[0], 1))
    with pytest.warns(UserWarning, match=r"2 of 4 groups .*Lower n_splits") as rec:
        splits = list(WithinGroupKFold(3).split(X, y, groups))
    assert len([w for w in rec if issubclass(w.category, UserWarning)]) == 1
    small_rows = np.flatnonzero(np.isin(groups, [1, 2]))
    for train, test in splits:
        assert np.isin(small_rows, train).all()
        assert not np.isin(small_rows, test).any()


def test_all_groups_too_small_is_an_error():
    with pytest.raises(ValueError, match="No group has at least n_splits=3"):
        next(WithinGroupKFold(3).split(np.zeros((4, 1)), [0, 1, 0, 1],
                                       [0, 0, 1, 1]))


def test_no_warning_when_all_groups_are_large():
    X, y, groups = np.zeros((8, 1)), np.array([0, 1] * 4), np.array([0] * 4 + [1] * 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        list(WithinGroupKFold(2).split(X, y, groups))


def test_shuffle_reproducible_and_different_from_row_order():
    groups = np.repeat(np.arange(4), 30)
    y = np.random.RandomState(0).randint(2, size=120)
    X = np.zeros((120, 1))

    def tests(cv):
        return [test.tolist() for _, test in cv.split(X, y, groups)]

    a = tests(WithinGroupKFold(3, shuffle=True, random_state=42))
    b = tests(WithinGroupKFold(3, shuffle=True, random_state=42))
    c = tests(WithinGroupKFold(3, shuffle=True, random_state=7))
    plain = tests(WithinGroupKFold(3))
    assert a == b
    assert a != c
    assert a != plain
    assert plain == tests(WithinGroupKFold(3))


def test_row_order_without_shuffle():
    # one group, one label: rows are dealt round-robin in row order
    folds = [test.tolist() for _, test in
             WithinGroupKFold(3).split(np.zeros((7, 1)), np.zeros(7), np.zeros(7))]
    assert folds == [[0, 3, 6], [1, 4], [2, 5]]


@pytest.mark.parametrize("missing", ["y", "groups"])
def test_kfold_requires_y_and_groups(missing):
    kwargs = {"y": np.array([0, 1, 0, 1]), "groups": np.array([0, 0, 1, 1])}
    kwargs[missing] = None
    with pytest.raises(ValueError, match=f"^{missing} is required"):
        next(WithinGroupKFold(2).split(np.zeros((4, 1)), **kwargs))


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"n_splits": 1}, ValueError, "at least 2"),
        ({"n_splits": 2.0}, TypeError, "n_splits must be an integer"),
        ({"n_splits": True}, TypeError, "n_splits must be an integer"),
        ({"n_splits": 3, "shuffle": "yes"}, TypeError, "shuffle must be"),
        ({"n_splits": 3, "random_state": 0}, ValueError, "shuffle is False"),
    ],
)
def test_kfold_bad_parameters(params, error, match):
    with pytest.raises(error, match=match):
        WithinGroupKFold(**params)


BAD_RANDOM_STATES = [-1, 1.5, "seed", np.random.default_rng(0), True, np.False_]


@pytest.mark.parametrize("random_state", BAD_RANDOM_STATES)
def test_kfold_bad_random_state_is_named(random_state):
    cv = WithinGroupKFold(2, shuffle=True, random_state=random_state)
    with pytest.raises(ValueError, match="random_state of WithinGroupKFold must "
                                         "be None, an int"):
        next(cv.split(np.zeros((4, 1)), [0, 1, 0, 1], [0, 0, 1, 1]))


@pytest.mark.parametrize("random_state", BAD_RANDOM_STATES)
def test_within_group_split_bad_random_state_is_named(random_state):
    with pytest.raises(ValueError, match="^random_state must be None, an int"):
        within_group_split([0, 1], [0, 0], random_state=random_state)


@pytest.mark.parametrize(
    "y, groups, match",
    [
        (np.array([0, 1, 0, 1]), np.array([0, 0, 1]), "groups has 3 labels"),
        (np.array([0, 1, 0]), np.array([0, 0, 1, 1]), "y has 3 labels"),
        (np.array([0.1, 0.5, 0.7, 0.2]), np.array([0, 0, 1, 1]), "continuous"),
    ],
)
def test_kfold_bad_lengths_and_targets(y, groups, match):
    with pytest.raises(ValueError, match=match):
        next(WithinGroupKFold(2).split(np.zeros((4, 1)), y, groups))


def test_kfold_repr_and_metadata_request():
    cv = WithinGroupKFold(4, shuffle=True, random_state=1)
    assert repr(cv) == "WithinGroupKFold(n_splits=4, random_state=1, shuffle=True)"
    routing = cv.get_metadata_routing()
    assert routing.split.requests == {"groups": True}


def _ranking_data(seed=0, n_groups=6, n_per_group=30):
    rng = np.random.RandomState(seed)
    groups = np.repeat(np.arange(n_groups), n_per_group)
    X = rng.standard_normal((groups.shape[0], 3))
    y = (X[:, 0] + 0.5 * rng.standard_normal(groups.shape[0]) > 0.3).astype(int)
    return X, y, groups


def test_cross_val_score_with_metadata_routing():
    X, y, groups = _ranking_data()
    cv = WithinGroupKFold(3)
    with sklearn.config_context(enable_metadata_routing=True):
        scores = cross_val_score(LogisticRegression(), X, y, cv=cv,
                                 params={"groups": groups})
        result = cross_validate(LogisticRegression(), X, y, cv=cv,
                                params={"groups": groups},
                                return_indices=True)
    assert scores.shape == (3,)
    assert np.all((scores > 0.5) & (scores <= 1))
    # the splits used are exactly ours: every user in every test fold
    expected = [test.tolist() for _, test in cv.split(X, y, groups)]
    assert [t.tolist() for t in result["indices"]["test"]] == expected
    for test in result["indices"]["test"]:
        assert np.unique(groups[test]).tolist() == list(range(6))


def test_cross_val_score_without_routing_gives_groups_to_the_splitter():
    X, y, groups = _ranking_data()
    cv = WithinGroupKFold(3)
    result = cross_validate(LogisticRegression(), X, y, groups=groups, cv=cv,
                            return_indices=True)
    expected = [test.tolist() for _, test in cv.split(X, y, groups)]
    assert [t.tolist() for t in result["indices"]["test"]] == expected


def test_cross_val_score_without_groups_raises():
    X, y, _ = _ranking_data()
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match="groups is required") as info:
            cross_val_score(LogisticRegression(), X, y, cv=WithinGroupKFold(3))
    assert "routing is off" not in str(info.value)
    with pytest.raises(ValueError, match="groups is required") as info:
        WithinGroupKFold(3).split(X, y).__next__()  # not inside a search
    assert "routing is off" not in str(info.value) and "e.g. split(X" in str(
        info.value)


def test_groups_given_with_routing_off_is_told_so():
    # (a tester) params={'groups': ...} with routing off goes to the
    # estimator's fit: the error told them to pass it as params=...
    X, y, groups = _ranking_data()
    with pytest.raises(ValueError, match=r"groups is required.*Metadata routing "
                       r"is off, so a search .* sklearn.set_config\("
                       r"enable_metadata_routing=True\), or pass groups="):
        cross_val_score(LogisticRegression(), X, y, cv=WithinGroupKFold(3),
                        params={"groups": groups})
    scores = cross_val_score(LogisticRegression(), X, y, cv=WithinGroupKFold(3),
                             groups=groups)  # the other way it names
    assert scores.shape == (3,)


def test_routing_turned_on_in_another_thread_is_explained():
    # (a tester) set_config in the main thread does not reach a worker
    # thread: "routing is off, call set_config", which they had done
    from concurrent.futures import ThreadPoolExecutor

    X, y, groups = _ranking_data()

    def message():
        try:
            cross_val_score(LogisticRegression(), X, y, cv=WithinGroupKFold(3),
                            params={"groups": groups})
        except ValueError as exc:
            return str(exc)

    with sklearn.config_context(enable_metadata_routing=True):
        with ThreadPoolExecutor(1) as pool:
            in_thread = pool.submit(message).result()
    assert "Metadata routing is off (scikit-learn's configuration is per " \
        "thread" in in_thread
    assert "per thread" not in message()  # the main thread, routing off


def test_grid_search_with_metadata_routing():
    X, y, groups = _ranking_data(1)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]},
                              cv=WithinGroupKFold(3, shuffle=True, random_state=0))
        search.fit(X, y, groups=groups)
    assert search.n_splits_ == 3
    assert search.best_params_["C"] in (0.01, 1.0)
    assert np.isfinite(search.cv_results_["mean_test_score"]).all()


def test_group_kfold_holds_out_users():
    # the Citation protocol: scikit-learn's GroupKFold, no user on both sides
    X, y, groups = _ranking_data()
    for train, test in GroupKFold(3).split(X, y, groups):
        assert np.intersect1d(groups[train], groups[test]).size == 0


# ---------------------------------------------------------------- within_group_split


@pytest.mark.parametrize("sizes", [(0.6, 0.2, 0.2), (0.5, 0.5), (1.0,),
                                   (0.1, 0.3, 0.25, 0.35)])
@pytest.mark.parametrize("seed", [0, 1])
def test_within_group_split_counts(sizes, seed):
    X, y, groups = _random_data(seed, n_groups=8, max_size=40, n_classes=3)
    parts = within_group_split(y, groups, sizes=sizes, random_state=seed)
    assert len(parts) == len(sizes)
    assert np.sort(np.concatenate(parts)).tolist() == list(range(y.shape[0]))
    for part in parts:
        assert np.all(np.diff(part) > 0)
    for g in np.unique(groups):
        for label in np.unique(y):
            seg = (groups == g) & (y == label)
            n = np.count_nonzero(seg)
            for size, part in zip(sizes, parts):
                assert abs(np.count_nonzero(seg[part]) - size * n) <= 1


@pytest.mark.parametrize("sizes, n, expected", [
    ((0.2, 0.7, 0.1), 15, [3, 11, 1]),  # the float sum 0.8999999999999999: 10, 2
    ((0.1, 0.35, 0.55), 30, [3, 11, 16]),
    ((0.6, 0.2, 0.2), 5, [3, 1, 1]),
])
def test_within_group_split_cuts_as_documented(sizes, n, expected):
    # floor(c_j * n + 1/2) with c_j the exact sums of the fractions as written
    import math

    cuts = [math.floor(n * sum(Fraction(str(f)) for f in sizes[:j + 1])
                       + Fraction(1, 2)) for j in range(len(sizes))]
    assert np.diff([0, *cuts]).tolist() == expected
    parts = within_group_split(np.zeros(n, int), np.zeros(n, int), sizes=sizes,
                               random_state=0)
    assert [len(p) for p in parts] == expected


@settings(max_examples=60, deadline=None)
@given(
    seg_sizes=st.lists(st.integers(0, 12), min_size=1, max_size=6),
    raw=st.lists(st.integers(1, 10), min_size=1, max_size=4),
    seed=st.integers(0, 2**16),
)
# the cases a CI run drew (cuts at a float's half: 9 rows of 1 / 6)
@example(seg_sizes=[9], raw=[1, 5], seed=0)
@example(seg_sizes=[9], raw=[1, 1, 10], seed=0)
@example(seg_sizes=[9], raw=[1, 1, 6, 10], seed=0)
@example(seg_sizes=[9], raw=[2, 6, 9, 1], seed=0)
def test_within_group_split_property(seg_sizes, raw, seed):
    sizes = np.array(raw, dtype=float) / sum(raw)
    n_segments = len(seg_sizes)
    seg = np.repeat(np.arange(n_segments), seg_sizes)
    if seg.shape[0] == 0:
        return
    groups, y = seg // 2, seg % 2
    perm = np.random.RandomState(seed).permutation(seg.shape[0])
    groups, y, seg = groups[perm], y[perm], seg[perm]
    # the cuts of the fractions as written (the floats' shortest decimals,
    # as documented): 1 / 6 is written 0.16666666666666666, so 9 rows are
    # cut at floor(1.4999999999999999 + 1/2) = 1, not at 2 (CI met it)
    written = [Fraction(repr(float(s))) for s in sizes]
    cumulative = [*itertools.accumulate(written[:-1]), Fraction(1)]
    per_part = np.sum([np.diff([0, *(math.floor(c * n + Fraction(1, 2))
                                     for c in cumulative)])
                       for n in seg_sizes], axis=0)
    if not per_part.all():  # an empty part is refused, naming it
        with pytest.raises(ValueError, match=f"leaves part "
                           f"{np.argmin(per_part)} empty"):
            within_group_split(y, groups, sizes=sizes, random_state=seed)
        return
    parts = within_group_split(y, groups, sizes=sizes, random_state=seed)
    assert [len(p) for p in parts] == per_part.tolist()
    assert np.sort(np.concatenate(parts)).tolist() == list(range(seg.shape[0]))
    for s in range(n_segments):
        n = np.count_nonzero(seg == s)
        for size, part in zip(sizes, parts):
            assert abs(np.count_nonzero(seg[part] == s) - size * n) <= 1 + 1e-9


def test_within_group_split_deterministic_rounding_and_seed():
    y = np.zeros(5, dtype=int)
    groups = np.zeros(5, dtype=int)
    train, val, test = within_group_split(y, groups, random_state=3)
    assert (len(train), len(val), len(test)) == (3, 1, 1)
    # one row goes to train with the default sizes, and the empty parts
    # are refused (as train_test_split refuses them; they were returned)
    parts, longest = _within_group_parts([1], [0], (0.6, 0.2, 0.2), None)
    assert [p.tolist() for p in parts] == [[0], [], []] and longest == 1
    with pytest.raises(ValueError, match=r"within_group_split\(sizes=\(0.6, 0.2, "
                       r"0.2\)\) leaves part 1 empty: the longest \(group, label\) "
                       r"segment has 1 row"):
        within_group_split([1], [0])
    with pytest.raises(ValueError, match="leaves part 0 empty.* has 0 rows"):
        within_group_split([], [])  # (NumPy's "zero-size array" error)
    with pytest.raises(ValueError, match="leaves part 2 empty.* has 5 rows"):
        within_group_split(np.tile([0, 1] * 5, 24), np.repeat(np.arange(24), 10),
                           sizes=(0.7, 0.25, 0.05))
    a = within_group_split(np.arange(40) % 2, np.arange(40) % 4, random_state=0)
    b = within_group_split(np.arange(40) % 2, np.arange(40) % 4, random_state=0)
    c = within_group_split(np.arange(40) % 2, np.arange(40) % 4, random_state=1)
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    assert not all(np.array_equal(p, q) for p, q in zip(a, c))


@pytest.mark.parametrize(
    "sizes, error, match",
    [
        ((0.6, 0.2, 0.1), ValueError, "sum to 1"),
        ((0.6, 0.5, -0.1), ValueError, "positive"),
        ((1.0, 0.0), ValueError, "positive"),
        ((), ValueError, "non-empty"),
        (((0.5, 0.5),), ValueError, "1-d"),
        (("a", "b"), TypeError, "sequence of fractions"),
        ((True,), TypeError, r"sizes must be .* got True/False"),  # sums to 1
        ((np.nan, 1.0), ValueError, "positive"),
    ],
)
def test_within_group_split_bad_sizes(sizes, error, match):
    with pytest.raises(error, match=match):
        within_group_split([0, 1], [0, 0], sizes=sizes)


def test_within_group_split_requires_y_and_groups():
    # the messages named the splitter's split(X, y, groups) and routing
    with pytest.raises(ValueError, match="^groups is required") as info:
        within_group_split([0, 1], None)
    assert "e.g. within_group_split(y, groups=user_ids)." in str(info.value)
    assert "split(X" not in str(info.value) and "params=" not in str(info.value)
    with pytest.raises(ValueError, match="^y is required") as info:
        within_group_split(None, [0, 0])
    assert "e.g. within_group_split(y, groups)." in str(info.value)
    assert "split(X" not in str(info.value)
    with pytest.raises(ValueError, match="groups has 3 labels"):
        within_group_split([0, 1], [0, 0, 1])


@pytest.mark.parametrize("relevant", [0.5, 0.25, -1.5])
def test_any_two_numbers_are_labels_to_stratify_on(relevant):
    # {0, 0.5} is "continuous" to type_of_target, but two values are two labels
    X, y, groups = _random_data(0, n_groups=6, max_size=30)
    recoded = np.where(y == 1, relevant, 0.0)
    y = np.unique(recoded, return_inverse=True)[1]  # the same labels as 0 / 1
    for a, b in zip(within_group_split(recoded, groups, random_state=0),
                    within_group_split(y, groups, random_state=0)):
        np.testing.assert_array_equal(a, b)
    cv = WithinGroupKFold(3, shuffle=True, random_state=0)
    for (tr_a, te_a), (tr_b, te_b) in zip(cv.split(X, recoded, groups),
                                          cv.split(X, y, groups)):
        np.testing.assert_array_equal(tr_a, tr_b)
        np.testing.assert_array_equal(te_a, te_b)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
@pytest.mark.parametrize("call", ["within_group_split", "WithinGroupKFold"])
def test_a_label_that_is_not_finite_is_one_clean_error(bad, call):
    # scikit-learn's type_of_target warned ("invalid value encountered in
    # cast") before its own error
    y = np.array([0.0, 1.0, bad, 1.0, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="^Input y contains NaN or "
                                             "infinity; every row needs a label"):
            if call == "within_group_split":
                within_group_split(y, [0] * 5)
            else:
                list(WithinGroupKFold(2).split(np.zeros((5, 1)), y, [0] * 5))


@pytest.mark.parametrize("sizes", [("0.5", "0.5"), ["0.6", 0.4]])
def test_sizes_written_as_text_are_refused(sizes):
    with pytest.raises(TypeError, match=r"^sizes must be a sequence of fractions"
                                        r".*, got text"):
        within_group_split([1, 0, 1, 0], [0] * 4, sizes=sizes, random_state=0)


def test_many_labels_take_memory_of_the_rows_not_of_groups_times_labels():
    # a count as y (20,000 distinct values, 4,000 users) allocated arrays of
    # n_groups * n_classes entries: 945 MB for 20,000 rows; here 5,000
    # values (scikit-learn 1.7 warns from half as many values as rows)
    import tracemalloc

    rng = np.random.RandomState(0)
    n = 20_000
    g = rng.randint(0, 4000, n)
    y = rng.randint(0, 5000, n)
    tracemalloc.start()
    try:
        with pytest.warns(UserWarning, match="groups have fewer than n_splits"):
            folds = [test for _, test in WithinGroupKFold(3).split(
                np.zeros((n, 1)), y, g)]
        parts = within_group_split(y, g, sizes=(0.5, 0.5), random_state=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * n * 8  # a few arrays of the rows, not 640 MB
    # the oracle: rows dealt round robin by group, then label, then row
    y_codes = np.unique(y, return_inverse=True)[1]
    order = np.lexsort((np.arange(n), y_codes, g))
    eligible = np.bincount(g)[g[order]] >= 3
    fold = np.full(n, -1)
    fold[order[eligible]] = np.arange(eligible.sum()) % 3
    for j, test in enumerate(folds):
        np.testing.assert_array_equal(test, np.flatnonzero(fold == j))
    assert sorted(np.concatenate(parts).tolist()) == list(range(n))


@pytest.mark.parametrize("split", ["kfold", "within_group_split"])
def test_labels_stored_as_python_objects_get_the_conversion_advice(split):
    # the advice was to threshold graded relevance, for 0/1 labels
    y = np.array([1, 0, 0, 1] * 3, dtype=object)
    g = np.repeat([0, 1, 2], 4)
    with pytest.raises(ValueError, match=r"numbers stored as Python objects.*"
                                         r"np.asarray\(y, dtype=int\)"):
        if split == "kfold":
            list(WithinGroupKFold(2).split(np.zeros((12, 1)), y, g))
        else:
            within_group_split(y, g)
