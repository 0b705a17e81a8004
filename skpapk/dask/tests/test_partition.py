"""partition_by_group, and the error of a fit whose users span partitions."""

import subprocess
import sys
import warnings

import dask
import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning

import skpapk
from skpapk.dask import PApKAvgRanker, PApKRanker, partition_by_group
from skpapk.dask._partition import group_buckets
from skpapk.dask.tests._data import grouped_data


def _blocks(arr):
    return [np.asarray(b) if not sp.issparse(b) else b
            for b in dask.compute(*arr.to_delayed().ravel())]


@pytest.mark.parametrize("labels", ["int", "str", "float"])
@pytest.mark.parametrize("npartitions", [None, 1, 4])
def test_every_group_lands_in_one_partition_and_no_row_is_lost(labels, npartitions):
    X, y, groups = grouped_data(0)
    perm = np.random.default_rng(0).permutation(y.shape[0])  # users mixed up
    X, y, groups = X[perm], y[perm], groups[perm]
    if labels == "str":
        groups = np.array([f"user-{g}" for g in groups])
    elif labels == "float":
        groups = groups * 0.5
    chunks = 97
    dX = da.from_array(X, chunks=(chunks, X.shape[1]))
    dy = da.from_array(y, chunks=chunks)
    dg = da.from_array(groups, chunks=chunks)
    sX, sy, sg = partition_by_group(dX, dy, groups=dg, npartitions=npartitions)
    assert sg.numblocks[0] == (npartitions or dg.numblocks[0])
    g_blocks = _blocks(sg)
    seen = [set(b.tolist()) for b in g_blocks]
    for i in range(len(seen)):
        for j in range(i + 1, len(seen)):
            assert not seen[i] & seen[j]
    # the same rows, each with its label and group
    rows = np.concatenate(_blocks(sX))
    key = np.lexsort(rows.T)
    np.testing.assert_array_equal(rows[key], X[np.lexsort(X.T)])
    ref = {tuple(r): (a, b) for r, a, b in zip(X, y, groups)}
    for r, a, b in zip(rows, np.concatenate(_blocks(sy)), np.concatenate(g_blocks)):
        assert ref[tuple(r)] == (a, b)


def test_buckets_do_not_depend_on_the_process():
    labels = np.array(["a", "b", "user-17", "ü"], dtype=object)
    here = group_buckets(labels, 7).tolist()
    code = ("import numpy as np; from skpapk.dask._partition import group_buckets;"
            "print(group_buckets(np.array(['a', 'b', 'user-17', 'ü'], "
            "dtype=object), 7).tolist())")
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                             text=True, check=True,
                             env={"PYTHONHASHSEED": seed, "PATH": ""})
        assert out.stdout.strip() == str(here)
    # numbers hash by value: the same label gives the same bucket
    ints = group_buckets(np.array([5, 5, 6], dtype=np.int32), 1000)
    assert ints[0] == ints[1]
    assert group_buckets(np.array([-0.0]), 13) == group_buckets(np.array([0.0]), 13)


def test_shuffled_sparse_arrays_fit_as_in_memory():
    X, y, groups = grouped_data(1)
    X[np.abs(X) < 0.8] = 0.0
    perm = np.random.default_rng(1).permutation(y.shape[0])
    dX = da.from_array(X[perm], chunks=(120, X.shape[1])).map_blocks(sp.csr_matrix)
    dy = da.from_array(y[perm], chunks=120)
    dg = da.from_array(groups[perm], chunks=120)
    with pytest.raises(ValueError, match="partition_by_group"):
        PApKRanker(k=5).fit(dX, dy, groups=dg)
    sX, sy, sg = partition_by_group(dX, dy, groups=dg, npartitions=3)
    assert sp.issparse(sX.blocks[0].compute())
    remote = PApKRanker(k=5).fit(sX, sy, groups=sg)
    local = skpapk.PApKRanker(k=5).fit(X, y, groups=groups)
    np.testing.assert_allclose(remote.coef_, local.coef_, rtol=0, atol=1e-10)
    assert remote.n_iter_ == local.n_iter_


def test_in_memory_composite_keys_fit_as_in_memory():
    # a list of tuples was "groups must be 1-D ... got shape (n, 2); use
    # groups.ravel()", which would double the rows
    X, y, groups = grouped_data(2)
    keys = [(int(g) % 3, int(g)) for g in groups]
    remote = PApKRanker(k=5).fit(da.from_array(X, chunks=(len(y), X.shape[1])),
                                 y, groups=keys)
    local = skpapk.PApKRanker(k=5).fit(X, y, groups=groups)
    np.testing.assert_allclose(remote.coef_, local.coef_, rtol=0, atol=1e-10)


def test_shuffled_dataframe_fits_as_in_memory():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y, groups = grouped_data(2)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    frame["label"], frame["user"] = y, groups
    ddf = dd.from_pandas(frame.sample(frac=1.0, random_state=0), npartitions=4)
    with pytest.raises(ValueError, match="user column"):
        PApKRanker(k=5).fit(ddf[["a", "b", "c", "d"]], ddf["label"],
                            groups=ddf["user"])
    shuffled = partition_by_group(ddf, groups="user")
    assert shuffled.npartitions == 4
    users = [set(p["user"]) for p in dask.compute(*shuffled.to_delayed())]
    assert sum(len(u) for u in users) == len(set().union(*users)) == 30
    remote = PApKRanker(k=5).fit(shuffled[["a", "b", "c", "d"]],
                                 shuffled["label"], groups=shuffled["user"])
    local = skpapk.PApKRanker(k=5).fit(frame[["a", "b", "c", "d"]], y,
                                       groups=groups)
    np.testing.assert_allclose(remote.coef_, local.coef_, rtol=0, atol=1e-10)
    with pytest.raises(ValueError, match="not a column"):
        partition_by_group(ddf, groups="client")
    with pytest.raises(TypeError, match="groups='user'"):
        partition_by_group(ddf, ddf, groups="user")


@pytest.mark.parametrize("column", ["label", "user"])
def test_a_series_partitioned_unlike_x_is_named(column):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y, groups = grouped_data(2)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    frame["label"], frame["user"] = y, groups
    by_user = np.flatnonzero(np.diff(groups)) + 1  # whole users per partition
    ddf = dd.from_pandas(frame, npartitions=1).repartition(
        divisions=[0, int(by_user[len(by_user) // 2]), len(frame) - 1])
    other = dd.from_pandas(frame, npartitions=4)[column]
    parts = {"label": ddf["label"], "user": ddf["user"], column: other}
    name = "y" if column == "label" else "groups"
    with pytest.raises(ValueError, match=rf"{name}'s partitions .*differ from "
                       rf"X's.*{name}\.repartition\(divisions=X\.divisions\)"):
        PApKRanker(k=5).fit(ddf[["a", "b", "c", "d"]], parts["label"],
                            groups=parts["user"])
    # unknown divisions on one side, or as many unknown ones as X's partitions
    for bad in (ddf[column].clear_divisions(), other.clear_divisions()):
        with pytest.raises(ValueError, match=rf"{name}'s partitions \(divisions "
                           rf"unknown, \d partitions\) differ from X's"):
            PApKRanker(k=5).fit(ddf[["a", "b", "c", "d"]],
                                *[{**parts, column: bad}[c] for c in ("label",)],
                                groups={**parts, column: bad}["user"])
    # X's divisions unknown: no advice to repartition like X
    unknown = ddf.clear_divisions()
    with pytest.raises(ValueError, match=r"X's divisions are unknown, so it "
                                         r"cannot be repartitioned like X\)\.$"):
        PApKRanker(k=5).fit(unknown[["a", "b", "c", "d"]],
                            *[{**parts, column: other}[c] for c in ("label",)],
                            groups={**parts, column: other}["user"])
    local = skpapk.PApKRanker(k=5).fit(frame[["a", "b", "c", "d"]], y,
                                       groups=groups)
    # X's divisions, or coarser ones among them (the join keeps X's)
    coarse = dd.from_pandas(frame, npartitions=1)[column]
    for good in (other.repartition(divisions=ddf.divisions), coarse):
        aligned = {**parts, column: good}
        remote = PApKRanker(k=5).fit(ddf[["a", "b", "c", "d"]], aligned["label"],
                                     groups=aligned["user"])
        np.testing.assert_allclose(remote.coef_, local.coef_, rtol=0, atol=1e-10)


def test_a_user_spanning_two_partitions_is_an_error():
    X, y, groups = grouped_data(3)
    dX = da.from_array(X, chunks=(100, X.shape[1]))  # cuts users in two
    cut = groups[99]
    assert groups[100] == cut
    with pytest.raises(ValueError, match=rf"e\.g\. user {cut} in partitions \[0, 1\]"):
        PApKAvgRanker(k=5).fit(dX, y, groups=groups)
    with pytest.raises(ValueError, match="groups=None makes all the rows one group"):
        PApKAvgRanker(k=5).fit(dX, y)
    # one partition, no groups: one user, as in memory
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        one = PApKAvgRanker(k=5, max_iter=5).fit(
            da.from_array(X, chunks=X.shape), y)
        ref = skpapk.PApKAvgRanker(k=5, max_iter=5).fit(X, y)
    np.testing.assert_allclose(one.coef_, ref.coef_, atol=1e-12)
    # score of a ranker fitted on users, without groups: the error, without
    # a MissingGroupsWarning first (its advice, groups=None's own remedy,
    # came before the error, and under -W error replaced it)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        grouped = PApKAvgRanker(k=5, max_iter=5).fit(
            da.from_array(X, chunks=X.shape), y, groups=groups)
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="groups=None makes all the rows one "
                                             "group, but they lie in 7 partitions"):
            grouped.score(dX, y)
    assert not records


@pytest.mark.parametrize("kind", ["object", "str DataFrame column", "category"])
def test_a_user_of_text_or_object_ids_spanning_partitions_is_named(kind):
    # object ids: the error used to fail on the example user (AttributeError:
    # 'str' object has no attribute 'tolist')
    X, y, groups = grouped_data(3)
    cut = groups[99]
    assert groups[100] == cut
    if kind == "object":
        dX = da.from_array(X, chunks=(100, X.shape[1]))
        fit = PApKAvgRanker(k=5).fit
        with pytest.raises(ValueError, match=rf"e\.g\. user {cut} in partitions "
                                             r"\[0, 1\].*partition_by_group"):
            fit(dX, y, groups=groups.astype(object))
        return
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    frame["label"] = y
    frame["user"] = [f"u{g}" for g in groups]
    if kind == "category":
        frame["user"] = frame["user"].astype("category")
    ddf = dd.from_pandas(frame, npartitions=3)  # cuts some users in two
    with pytest.raises(ValueError, match=r"e\.g\. user 'u\d+' in partitions "
                                         r"\[\d, \d\].*partition_by_group"):
        PApKAvgRanker(k=5).fit(ddf[["a", "b", "c", "d"]], ddf["label"],
                               groups=ddf["user"])


@pytest.mark.parametrize("forms", [
    [2**63, 2.0**63, np.uint64(2**63)],  # hashed as uint64 bits / float bits
    [-(2**63), -(2.0**63), np.int64(-(2**63))],
    [2**64, 2.0**64],  # Python ints beyond uint64 / their floats
    [2**70, 2.0**70],
    [-(2**70), -(2.0**70)],
])
def test_large_integral_ids_share_a_partition_whatever_their_type(forms):
    # (group identity tester) one user for check_groups and the fit, but sent
    # to two partitions, and the fit then refused the partitioning
    alone = {int(group_buckets(np.array([v], dtype=object), 101)[0])
             for v in forms}
    mixed = group_buckets(np.array([*forms, 1.5, "x"], dtype=object), 101)
    floats = group_buckets(np.array([float(forms[0]), 0.5]), 101)
    assert len(alone | set(mixed[:len(forms)].tolist()) | {floats[0]}) == 1


def test_labels_that_the_fit_takes_for_one_user_share_a_partition():
    # 1, 1.0, True and np.int8(1) are one user for the fit (numpy.unique);
    # partition_by_group sent 1 and 1.0 of an object array to two partitions
    ones = [1, 1.0, True, np.int8(1), np.float32(1.0), np.uint64(1)]
    buckets = {int(group_buckets(np.array([v], dtype=object), 101)[0])
               for v in ones}
    buckets |= {int(group_buckets(np.array([1], dtype=dtype), 101)[0])
                for dtype in (np.int64, np.uint8, np.float64, np.float32, bool)}
    assert len(buckets) == 1
    mixed = np.array([2.5, -0.0, 0, "a", 2**64 - 1], dtype=object)
    apart = [group_buckets(np.array([v]), 101)[0] for v in (2.5, 0.0, 0)] + [
        group_buckets(np.array(["a"]), 101)[0],
        group_buckets(np.array([2**64 - 1], dtype=np.uint64), 101)[0]]
    np.testing.assert_array_equal(group_buckets(mixed, 101), apart)
    # and the fit takes what partition_by_group made of them
    X, y, groups = grouped_data(4)
    mixed = groups.astype(object)
    half = np.flatnonzero(np.arange(groups.shape[0]) % 2 == 0)
    mixed[half] = groups[half].astype(float)  # every user written two ways
    perm = np.random.default_rng(4).permutation(y.shape[0])
    parts = partition_by_group(
        da.from_array(X[perm], chunks=(97, X.shape[1])),
        da.from_array(y[perm], chunks=97),
        groups=da.from_array(mixed[perm], chunks=97))
    rows, labels, users = (np.concatenate(_blocks(a)) for a in parts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        remote = PApKAvgRanker(k=5, max_iter=5).fit(*parts[:2], groups=parts[2])
        local = skpapk.PApKAvgRanker(k=5, max_iter=5).fit(  # one id a user
            rows, labels, groups=users.astype(float))
    np.testing.assert_allclose(remote.coef_, local.coef_, rtol=0, atol=1e-10)


@pytest.mark.parametrize("missing", [None, np.nan])
def test_missing_group_ids_are_shuffled_then_named_by_the_fit(missing):
    # factorize's -1 gave them the hash of another label (or an IndexError
    # in a part of missing ids only)
    g = np.array([missing] * 4 + ["u1", "u2", "u1", "u2"], dtype=object)
    X = np.arange(16.0).reshape(8, 2)
    y = np.array([1, 0] * 4)
    parts = partition_by_group(da.from_array(X, chunks=(4, 2)),
                               da.from_array(y, chunks=4),
                               groups=da.from_array(g, chunks=4), npartitions=2)
    blocks = _blocks(parts[2])
    assert sum(b.shape[0] for b in blocks) == 8
    with_missing = [i for i, b in enumerate(blocks)
                    if any(v is None or v != v for v in b)]
    assert len(with_missing) == 1  # every missing id in one partition
    with pytest.raises(ValueError, match="groups contains a missing id"):
        PApKRanker(k=2).fit(*parts[:2], groups=parts[2])


@pytest.mark.parametrize("bad", [0, -2, 1.5, True])
def test_npartitions_must_be_a_positive_int(bad):
    dg = da.from_array(np.arange(4), chunks=2)
    with pytest.raises(ValueError, match="npartitions"):
        partition_by_group(dg, groups=dg, npartitions=bad)


def test_partition_by_group_rejects_other_inputs():
    dg = da.from_array(np.arange(4), chunks=2)
    with pytest.raises(TypeError, match="dask DataFrame or dask arrays"):
        partition_by_group(groups=dg)
    with pytest.raises(TypeError, match="one dask DataFrame or dask arrays"):
        partition_by_group(np.arange(4), groups=dg)
    with pytest.raises(TypeError, match="1-D dask array of group labels"):
        partition_by_group(dg, groups=np.arange(4))
    with pytest.raises(ValueError, match="same rows"):
        partition_by_group(da.zeros(5, chunks=5), groups=dg)


def _shuffled_columns(method):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y, groups = grouped_data(2)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    frame["label"], frame["user"] = y, groups
    ddf = dd.from_pandas(frame.sample(frac=1.0, random_state=0), npartitions=4)
    shuffled = (partition_by_group(ddf, groups="user") if method is None
                else ddf.shuffle(on="user", shuffle_method=method))
    local = skpapk.PApKRanker(k=5).fit(X, y, groups=groups)
    return shuffled, local


def test_columns_taken_apart_from_partition_by_group_line_up():
    # without a distributed Client, dask's default shuffle ("disk") orders a
    # partition's rows anew at every computation: partition_by_group uses
    # "tasks", so columns computed apart hold the same rows
    shuffled, local = _shuffled_columns(None)

    def column(names):
        return shuffled[names].to_dask_array(lengths=True)

    for _ in range(3):
        remote = PApKRanker(k=5).fit(column(["a", "b", "c", "d"]),
                                     column("label"), groups=column("user"))
        np.testing.assert_allclose(remote.coef_, local.coef_, rtol=0, atol=1e-10)


def test_columns_taken_apart_from_a_disk_shuffle_are_warned_about():
    shuffled, local = _shuffled_columns("disk")
    features = ["a", "b", "c", "d"]
    X, y = shuffled[features].to_dask_array(), shuffled["label"].to_dask_array()
    for X_fit, groups_fit in ((X, shuffled["user"].to_dask_array()),
                              (shuffled[features], shuffled["user"])):
        # the rows may not line up: a short fit, its other warnings ignored
        with pytest.warns(UserWarning, match="'disk' method .* would not line "
                                             "up"), warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            PApKRanker(k=5, max_iter=2).fit(X_fit, y, groups=groups_fit)
    # the DataFrame with its own Series: joined by index, the same rows
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # no warning
        remote = PApKRanker(k=5).fit(shuffled[features], shuffled["label"],
                                     groups=shuffled["user"])
    np.testing.assert_allclose(remote.coef_, local.coef_, rtol=0, atol=1e-10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # users of one label
        got = remote.score(shuffled[features], shuffled["label"], shuffled["user"])
        rows = shuffled.compute()  # one computation: the columns agree
        expected = local.score(rows[features].to_numpy(), rows["label"],
                               rows["user"])
    assert got == pytest.approx(expected)
    with pytest.warns(UserWarning, match="'disk' method"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        remote.score(shuffled[features], y, shuffled["user"].to_dask_array())
    remote.decision_function(shuffled[features]).compute()  # alone: no alignment


def test_a_dask_array_of_unknown_width_fits():
    X, y, groups = grouped_data(3)
    order = np.argsort(groups, kind="stable")
    X, y, groups = X[order], y[order], groups[order]
    cut = int(np.searchsorted(groups, groups[X.shape[0] // 2]))
    chunks = ((cut, X.shape[0] - cut),)
    dX = da.from_array(X, chunks=(chunks[0], X.shape[1])).map_blocks(
        lambda block: block, chunks=(chunks[0], (np.nan,)))
    assert np.isnan(dX.shape[1])
    remote = PApKRanker(k=5).fit(dX, da.from_array(y, chunks=chunks),
                                 groups=da.from_array(groups, chunks=chunks))
    local = skpapk.PApKRanker(k=5).fit(X, y, groups=groups)
    np.testing.assert_allclose(remote.coef_, local.coef_, rtol=0, atol=1e-10)


def test_chunks_narrower_or_wider_than_declared_are_named():
    X, y, groups = grouped_data(3)
    order = np.argsort(groups, kind="stable")
    X, y, groups = X[order], y[order], groups[order]
    cut = int(np.searchsorted(groups, groups[X.shape[0] // 2]))
    chunks = ((cut, X.shape[0] - cut),)
    dy, dg = da.from_array(y, chunks=chunks), da.from_array(groups, chunks=chunks)
    n = X.shape[1]
    wide = np.c_[X, X]

    def declared(width):  # the second chunk's real width differs from n
        return da.concatenate([
            da.from_delayed(dask.delayed(X[:cut]), (cut, n), float),
            da.from_delayed(dask.delayed(wide[cut:, :width]),
                            (X.shape[0] - cut, n), float)])

    for width in (n - 1, n + 1):
        with pytest.raises(ValueError, match=f"Partition 1 of X has {width} "
                                             f"columns, but X declares {n}"):
            PApKRanker(k=5).fit(declared(width), dy, groups=dg)
    ranker = PApKRanker(k=5).fit(da.from_array(X, chunks=(chunks[0], n)), dy,
                                 groups=dg)
    with pytest.raises(ValueError, match=f"Partition 1 of X has {n + 1} columns"):
        ranker.score(declared(n + 1), dy, dg)
    with pytest.raises(ValueError, match=f"A block of X has {n + 1} columns"):
        ranker.decision_function(declared(n + 1)).compute()


def test_known_and_unknown_chunk_sizes_are_named():
    X, y, groups = grouped_data(0)
    dX, dg = da.from_array(X, chunks=(100, X.shape[1])), da.from_array(groups,
                                                                       chunks=100)
    masked = dg[dg >= 0]  # the same rows, sizes unknown
    with pytest.raises(ValueError, match=r"groups has unknown chunk sizes.*"
                                         r"compute_chunk_sizes\(\) on groups"):
        partition_by_group(dX, groups=masked)
    with pytest.raises(ValueError, match=r"arrays\[0\] has unknown chunk sizes"):
        partition_by_group(dX[dg >= 0], groups=dg)
    X2, g2 = partition_by_group(dX[dg >= 0], groups=masked)  # all unknown: fine
    assert g2.compute().shape == groups.shape


def test_labels_of_other_types_in_other_partitions_are_refused():
    X, y, groups = grouped_data(3)
    order = np.argsort(groups, kind="stable")
    X, y, groups = X[order], y[order], groups[order]
    cut = int(np.searchsorted(groups, groups[X.shape[0] // 2]))
    words = np.where(y[:cut] == 1, "yes", "no").astype(object)
    dy = da.concatenate([da.from_delayed(dask.delayed(part), part.shape, object)
                         for part in (words, y[cut:])])
    chunks = ((cut, X.shape[0] - cut),)
    with pytest.raises(TypeError, match=r"y mixes labels of types \['number', "
                                        r"'str'\] across its partitions"):
        PApKRanker(k=5, pos_label="yes").fit(
            da.from_array(X, chunks=(chunks[0], X.shape[1])), dy,
            groups=da.from_array(groups, chunks=chunks))


def test_a_column_y_in_memory_is_named():
    X, y, groups = grouped_data(0)
    dX = da.from_array(X, chunks=(X.shape[0], X.shape[1]))
    with pytest.raises(ValueError, match=r"y must be 1-D .* got shape "
                                         rf"\({y.shape[0]}, 1\); use y\.ravel"):
        PApKRanker(k=5).fit(dX, y[:, None], groups=groups)
