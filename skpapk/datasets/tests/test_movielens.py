"""Tests of the MovieLens loader on small files in the u.data format.

The real MovieLens file is never read here (its licence forbids
redistribution, and tests must not need it or the network).
"""

import hashlib
import io
import os
import urllib.error
import zipfile

import numpy as np
import pytest

from skpapk.datasets import _movielens, load_movielens_100k
from skpapk.datasets._movielens import ML100K_SHA256, _masked_nmf

SMALL = dict(check_sha256=False, n_components=3, max_iter=300, n_first=5,
             min_rows=4, download=False, random_state=0)


def _make_ratings(seed=0, n_users=8, n_items=25):
    rng = np.random.RandomState(seed)
    rows = []
    for u in range(1, n_users + 1):
        n = rng.randint(6, 16)  # some users end with < min_rows later ratings
        items = rng.choice(np.arange(1, n_items + 1), size=n, replace=False)
        times = rng.randint(0, 8, size=n) + 100 * u  # ties in time happen
        for i, t in zip(items, times):
            rows.append((u, int(i), int(rng.randint(1, 6)), int(t)))
    order = rng.permutation(len(rows))  # the file is not sorted
    return [rows[j] for j in order]


def _write(path, rows):
    path.write_text("".join("%d\t%d\t%d\t%d\n" % r for r in rows))
    return path


@pytest.fixture
def udata(tmp_path):
    rows = _make_ratings()
    return _write(tmp_path / "u.data", rows), rows


def _expected_rows(rows, n_first, min_rows):
    """Oracle from the App. F.1 description, one user at a time."""
    by_user = {}
    for r in rows:  # file order kept for equal timestamps (stable sort)
        by_user.setdefault(r[0], []).append(r)
    head_items, later = set(), {}
    for u in sorted(by_user):
        ratings = sorted(by_user[u], key=lambda r: r[3])
        head_items |= {r[1] for r in ratings[:n_first]}
        later[u] = ratings[n_first:]
    out = []
    for u in sorted(later):
        kept = [r for r in later[u] if r[1] in head_items]
        if len(kept) >= min_rows:
            out.extend(kept)
    return out


def test_rows_targets_and_features(udata):
    path, rows = udata
    bunch = load_movielens_100k(path, **SMALL)
    expected = _expected_rows(rows, 5, 4)
    assert len(expected) > 0
    # some users are dropped (too few rows), some rows too (unseen items)
    assert len({r[0] for r in expected}) < len({r[0] for r in rows})
    np.testing.assert_array_equal(bunch.groups, [r[0] for r in expected])
    np.testing.assert_array_equal(bunch.item_ids, [r[1] for r in expected])
    np.testing.assert_array_equal(bunch.ratings, [r[2] for r in expected])
    np.testing.assert_array_equal(bunch.target, [int(r[2] == 5) for r in expected])
    assert bunch.data.shape == (len(expected), 9)
    assert bunch.feature_names == ["user_0", "user_1", "user_2", "item_0",
                                   "item_1", "item_2", "prod_0", "prod_1", "prod_2"]
    d = bunch.data
    assert np.all(d >= 0) and np.all(np.isfinite(d))
    np.testing.assert_allclose(d[:, 6:], d[:, :3] * d[:, 3:6])
    # user features are constant inside a user, item features inside an item
    for g in np.unique(bunch.groups):
        block = d[bunch.groups == g, :3]
        np.testing.assert_array_equal(block, np.broadcast_to(block[0], block.shape))
    for i in np.unique(bunch.item_ids):
        block = d[bunch.item_ids == i, 3:6]
        np.testing.assert_array_equal(block, np.broadcast_to(block[0], block.shape))
    assert "App. F.1" in bunch.DESCR
    assert 1 <= bunch.n_nmf_iter <= 300


def test_tol_zero_runs_max_iter(udata):
    path, _ = udata
    bunch = load_movielens_100k(path, **{**SMALL, "n_components": 6,
                                         "max_iter": 7, "tol": 0.0})
    assert bunch.n_nmf_iter == 7
    assert bunch.data.shape[1] == 18


def test_random_state(udata):
    path, _ = udata
    a = load_movielens_100k(path, **SMALL)
    b = load_movielens_100k(path, **SMALL)
    c = load_movielens_100k(path, **{**SMALL, "random_state": 1})
    np.testing.assert_array_equal(a.data, b.data)
    assert not np.allclose(a.data, c.data)


def test_folder_env_var_and_cache(udata, tmp_path, monkeypatch):
    path, _ = udata
    ref = load_movielens_100k(path, **SMALL)
    from_folder = load_movielens_100k(path.parent, **SMALL)
    np.testing.assert_array_equal(ref.data, from_folder.data)
    monkeypatch.setenv("SKPAPK_DATA", str(path.parent))
    from_env = load_movielens_100k(**SMALL)
    np.testing.assert_array_equal(ref.data, from_env.data)
    monkeypatch.setenv("SKPAPK_DATA", str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="environment variable SKPAPK_DATA"):
        load_movielens_100k(**SMALL)
    monkeypatch.delenv("SKPAPK_DATA")
    home = tmp_path / "home"
    cache = home / "skpapk" / "ml-100k"
    cache.mkdir(parents=True)
    (cache / "u.data").write_bytes(path.read_bytes())
    from_cache = load_movielens_100k(data_home=home, **SMALL)
    np.testing.assert_array_equal(ref.data, from_cache.data)


def test_missing_file_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.delenv("SKPAPK_DATA", raising=False)
    with pytest.raises(FileNotFoundError, match="grouplens.org.*SKPAPK_DATA"):
        load_movielens_100k(tmp_path / "missing.data", **SMALL)
    with pytest.raises(FileNotFoundError, match="download=False"):
        load_movielens_100k(data_home=tmp_path, **SMALL)
    # the failed lookup leaves no folder behind, nor does the default one
    home = tmp_path / "home"
    with pytest.raises(FileNotFoundError, match="download=False"):
        load_movielens_100k(data_home=home, **SMALL)
    assert not home.exists()
    monkeypatch.setenv("SCIKIT_LEARN_DATA", str(home))
    with pytest.raises(FileNotFoundError, match=str(home)):
        load_movielens_100k(**SMALL)
    assert not home.exists()


def _no_network(*args, **kwargs):
    raise urllib.error.URLError("no network here")


def test_download_failure_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.delenv("SKPAPK_DATA", raising=False)
    monkeypatch.setattr(_movielens.urllib.request, "urlopen", _no_network)
    with pytest.raises(OSError, match="could not be downloaded.*path=.*SKPAPK_DATA"):
        load_movielens_100k(data_home=tmp_path, **{**SMALL, "download": True})
    assert not (tmp_path / "skpapk" / "ml-100k" / "u.data").exists()


def test_download_extracts_into_cache(udata, tmp_path, monkeypatch):
    path, _ = udata
    monkeypatch.delenv("SKPAPK_DATA", raising=False)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("ml-100k/README", "readme")
        archive.writestr("ml-100k/u.data", path.read_bytes())
    calls = []

    class Response(io.BytesIO):
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    def fake_urlopen(url, timeout=None):
        calls.append((url, timeout))
        return Response(buffer.getvalue())

    monkeypatch.setattr(_movielens.urllib.request, "urlopen", fake_urlopen)
    home = tmp_path / "home"
    bunch = load_movielens_100k(data_home=home, **{**SMALL, "download": True})
    assert calls == [(_movielens.ML100K_URL, 60)]
    cached = home / "skpapk" / "ml-100k" / "u.data"
    assert cached.read_bytes() == path.read_bytes()
    ref = load_movielens_100k(path, **SMALL)
    np.testing.assert_array_equal(ref.data, bunch.data)
    # second call reads the cache, no new download
    load_movielens_100k(data_home=home, **{**SMALL, "download": True})
    assert len(calls) == 1


def test_sha256_mismatch_is_an_error(udata):
    path, _ = udata
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest != ML100K_SHA256
    with pytest.raises(ValueError, match="not the official MovieLens 100K u.data"
                                         ".*check_sha256=False") as error:
        load_movielens_100k(path, **{**SMALL, "check_sha256": True})
    # the download address once (it was twice), the variable when it gave
    # the file
    assert str(error.value).count("grouplens.org") == 1
    assert f"{str(path)!r} is not" in str(error.value)


def test_sha256_mismatch_names_the_variable_that_gave_the_file(udata,
                                                               monkeypatch):
    path, _ = udata
    monkeypatch.setenv("SKPAPK_DATA", str(path))
    with pytest.raises(ValueError, match=r"' \(the environment variable "
                       r"SKPAPK_DATA\) is not the official MovieLens 100K"):
        load_movielens_100k(**{**SMALL, "check_sha256": True})


@pytest.mark.parametrize(
    "content, match",
    [
        ("1\t2\t3\n4\t5\t6\n", "line 1 has 3 fields"),
        ("1\t2\t3\tx\n", "line 1, field 4: 'x' is not an integer"),
        ("1\t2\t3\t4\n1\t2\n", "line 2 has 2 fields"),
        ("1\t2\t7\t4\n", "ratings outside 1..5"),
        ("", "holds no ratings"),
        # numpy's loadtxt skips comments and blank lines: not this reader
        ("1\t2\t3\t4\n#1\t3\t5\t9\n", "line 2, field 1: '#1' is not an integer"),
        ("1\t2\t3\t4\t# note\n", "line 1 has 6 fields"),
        ("1\t2\t3\t4\n\n1\t3\t5\t9\n", "line 2 is blank"),
        ("1\t2\t3\t4\n1\t2\t5\t9\n",
         r"pair \[1, 2\] twice \(lines 1 and 2\)"),
        # lines end at "\n" only: str.splitlines also split at these (two
        # ratings of one line read silently, the lines after misnumbered)
        ("1\t1\t3\t5\x0c2\t1\t3\t6\n3\t1\t3\t7\n4\t1\t9\t8\n",
         r"line 1 has 8 fields \('1\\t1\\t3\\t5\\x0c2"),
        ("1\t1\t3\t5\n2\t1\t3\t6\x853\t1\t3\t7\n", "line 2 has 8 fields"),
        ("1\t1\t3\t5\r\n2\t1\t3\t6\x1c3\t1\t3\t7\r\n", "line 2 has 8 fields"),
        ("1\t1\t3\t5\x0b2\t1\t3\t6\n", "line 1 has 8 fields"),
        ("1\t1\t3\t5\r2\t1\t3\t6\n", "line 1 has 8 fields"),
        ("1\t1\t3\t5\n2\t1\t3\t6\n3\t1\t9\t7\x1e\n",
         r"ratings outside 1..5 \(first at line 3"),
    ],
)
def test_malformed_files(tmp_path, content, match):
    path = tmp_path / "u.data"
    path.write_bytes(content.encode("latin-1"))  # "\x85": the byte 0x85
    with pytest.raises(ValueError, match=match):
        load_movielens_100k(path, **SMALL)


@pytest.mark.parametrize("end", ["\r\n", "\n"])
@pytest.mark.parametrize("last", [True, False])
def test_lines_end_at_a_newline_with_or_without_a_return(udata, tmp_path, end,
                                                        last):
    path, rows = udata
    text = end.join("%d\t%d\t%d\t%d" % r for r in rows) + (end if last else "")
    other = tmp_path / "other.data"
    other.write_bytes(text.encode("latin-1"))
    expected = load_movielens_100k(path, **SMALL)
    got = load_movielens_100k(other, **SMALL)
    np.testing.assert_array_equal(got.data, expected.data)
    np.testing.assert_array_equal(got.groups, expected.groups)


def test_errors_name_the_files_lines(udata, tmp_path):
    _, rows = udata
    lines = ["%d\t%d\t%d\t%d" % r for r in rows]
    for bad, match in [("10\t20\t7\t123", "ratings outside 1..5 \\(first at line 31"),
                       ("10\t20\tx\t123", "line 31, field 3"),
                       ("10\t20\t3", "line 31 has 3 fields")]:
        path = tmp_path / "bad.data"
        path.write_text("\n".join(lines[:30] + [bad] + lines[30:]) + "\n")
        with pytest.raises(ValueError, match=match):
            load_movielens_100k(path, **SMALL)


def test_a_pair_rated_twice_is_refused_after_the_first_ratings(udata, tmp_path):
    # the check covered only the users' first n_first ratings
    _, rows = udata
    user, item, _, time = max(rows, key=lambda r: (r[0] == 1, -r[3]))
    path = _write(tmp_path / "dup.data", rows + [(user, item, 5, time + 10**6)])
    with pytest.raises(ValueError, match=rf"pair \[{user}, {item}\] twice "
                       rf"\(lines \d+ and {len(rows) + 1}\)"):
        load_movielens_100k(path, **SMALL)


def test_parameters_that_leave_no_user_are_an_error(udata, monkeypatch):
    # before the factorisation, which they do not need (a file of 20,000
    # users of 20 ratings ran 1,000 iterations, 130 s, then failed)
    from skpapk.datasets import _movielens

    def factorise(*args, **kwargs):
        raise AssertionError("the factorisation ran")

    monkeypatch.setattr(_movielens, "_masked_nmf", factorise)
    path, _ = udata
    with pytest.raises(ValueError, match="lower n_first or min_rows"):
        load_movielens_100k(path, **{**SMALL, "min_rows": 10**6})


@pytest.mark.parametrize("path, error", [("", ValueError), (5, TypeError)])
def test_a_path_that_is_no_path_is_refused(path, error, tmp_path, monkeypatch):
    # "" read ./u.data; 5 raised os's TypeError naming no argument
    monkeypatch.chdir(tmp_path)
    (tmp_path / "u.data").write_text("1\t1\t5\t0\n")
    with pytest.raises(error, match="^path must be the u.data file or its "
                                    "folder"):
        load_movielens_100k(path, download=False)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"n_components": 0}, ValueError),
        ({"max_iter": 1.5}, TypeError),
        ({"n_first": 0}, ValueError),
        ({"min_rows": True}, TypeError),
        ({"tol": -1.0}, ValueError),
        ({"tol": True}, TypeError),  # as timeout=True
        ({"tol": np.True_}, TypeError),
        ({"tol": "a"}, TypeError),
        ({"tol": float("nan")}, ValueError),
        ({"timeout": True}, TypeError),
        ({"nmf_init": "nndsvd"}, ValueError),
        ({"nmf_init": None}, ValueError),
        ({"data_home": 123}, TypeError),
        ({"data_home": ""}, ValueError),
        ({"download": "no"}, TypeError),
        ({"check_sha256": "no"}, TypeError),
        ({"timeout": "x"}, TypeError),
        ({"timeout": 0}, ValueError),
        ({"timeout": float("inf")}, ValueError),  # socket's OverflowError
        ({"timeout": 1e300}, ValueError),
    ],
)
def test_bad_parameters(udata, kwargs, error):
    path, _ = udata
    (name,) = kwargs
    with pytest.raises(error, match=f"^{name} must be"):
        load_movielens_100k(path, **{**SMALL, **kwargs})


# ---------------------------------------------------------------- masked NMF


@pytest.mark.parametrize("init", ["random", "lstsq"])
def test_masked_nmf_monotone_and_recovers_low_rank(init):
    rng = np.random.RandomState(0)
    A, B = rng.uniform(0.5, 1.5, size=(12, 2)), rng.uniform(0.5, 1.5, size=(15, 2))
    R = A @ B.T
    rows, cols = np.nonzero(np.ones_like(R, dtype=bool))
    U, V, losses = _masked_nmf(rows, cols, R[rows, cols], R.shape, 2,
                               max_iter=3000, tol=0.0, random_state=0, init=init)
    assert np.all(np.diff(losses) <= 1e-9 * losses[0])
    assert losses[-1] < 1e-4 * losses[0]
    np.testing.assert_allclose(U @ V.T, R, rtol=0.05)
    assert np.all(U >= 0) and np.all(V >= 0)


@pytest.mark.parametrize("init", ["random", "lstsq"])
def test_masked_nmf_ignores_unobserved_entries(init):
    rng = np.random.RandomState(1)
    R = rng.uniform(1, 5, size=(10, 12))
    mask = rng.uniform(size=R.shape) < 0.5
    rows, cols = np.nonzero(mask)
    U, V, losses = _masked_nmf(rows, cols, R[rows, cols], R.shape, 3,
                               max_iter=200, tol=0.0, random_state=0, init=init)
    # the loss is the squared error on observed entries only
    P = U @ V.T
    assert losses[-1] == pytest.approx(0.5 * np.sum((R - P)[mask] ** 2))
    assert np.all(np.diff(losses) <= 1e-9 * losses[0])


def test_masked_nmf_stops_on_tol():
    rng = np.random.RandomState(2)
    R = rng.uniform(1, 5, size=(8, 9))
    rows, cols = np.nonzero(np.ones_like(R, dtype=bool))
    _, _, losses = _masked_nmf(rows, cols, R[rows, cols], R.shape, 2,
                               max_iter=5000, tol=1e-3, random_state=0)
    assert len(losses) < 5000
    assert (losses[-2] - losses[-1]) / losses[-2] < 1e-3


def test_masked_nmf_lstsq_start_is_the_least_squares_fit_of_the_zero_filled_matrix():
    # the authors' start: U uniform on [0, 1), V.T = argmin ||U V.T - R0||_F
    # with R0 = R where observed and 0 elsewhere, both floored at 1e-5;
    # the oracle solves the dense problem with scipy's lstsq
    from scipy import linalg

    rng = np.random.RandomState(3)
    R = rng.randint(1, 6, size=(40, 25)).astype(float)
    mask = rng.uniform(size=R.shape) < 0.3
    rows, cols = np.nonzero(mask)
    U, V, losses = _masked_nmf(rows, cols, R[rows, cols], R.shape, 4,
                               max_iter=0, tol=0.0, random_state=7, init="lstsq")
    assert losses == []
    U_expected = np.maximum(np.random.RandomState(7).uniform(size=(40, 4)), 1e-5)
    R0 = np.where(mask, R, 0.0)
    V_expected = np.maximum(linalg.lstsq(U_expected, R0)[0].T, 1e-5)
    np.testing.assert_array_equal(U, U_expected)
    np.testing.assert_allclose(V, V_expected, rtol=1e-8, atol=1e-10)
    assert V.min() == 1e-5  # some least-squares entries were negative


def test_nmf_init_changes_the_features_not_the_rows(udata):
    path, _ = udata
    a = load_movielens_100k(path, **SMALL)
    b = load_movielens_100k(path, **{**SMALL, "nmf_init": "lstsq"})
    np.testing.assert_array_equal(a.target, b.target)
    np.testing.assert_array_equal(a.groups, b.groups)
    np.testing.assert_array_equal(a.item_ids, b.item_ids)
    assert not np.allclose(a.data, b.data)
    assert np.all(b.data >= 0)
    assert b.n_nmf_iter >= 1


def test_n_components_beyond_memory_is_named(udata):
    # 10**12 ended on numpy's raw MemoryError
    path, rows = udata
    with pytest.raises(ValueError, match=r"^n_components=1000000000000 gives the "
                                         r"\d+ users .* use n_components <= \d+"):
        load_movielens_100k(path, **{**SMALL, "n_components": 10**12})
    # more factors than users or items: the masked NMF takes them
    n_users = len({r[0] for r in rows})
    bunch = load_movielens_100k(path, **{**SMALL, "n_components": n_users + 1})
    assert bunch.data.shape[1] == 3 * (n_users + 1)


@pytest.mark.parametrize("kind", ["folder named u.data", "device"])
def test_a_path_that_is_not_a_regular_file_is_named(kind, tmp_path):
    # "/dev/null" was "u.data not found at '/dev/null'"
    if kind == "device":
        if not os.path.exists(os.devnull) or os.name != "posix":
            pytest.skip("no POSIX null device")
        path = os.devnull
    else:
        (tmp_path / "u.data" / "u.data").mkdir(parents=True)
        path = tmp_path / "u.data"
    with pytest.raises(ValueError, match="is not a regular file"):
        load_movielens_100k(path, **SMALL)


@pytest.mark.parametrize("kwargs", [{"tol": "a"}, {"tol": True}, {"timeout": "x"},
                                    {"data_home": 123}])
def test_wrong_types_stay_value_errors_too(udata, kwargs):
    # they were ValueErrors before they became TypeErrors: both, as
    # scikit-learn's InvalidParameterError
    path, _ = udata
    with pytest.raises(ValueError) as info:
        load_movielens_100k(path, **{**SMALL, **kwargs})
    assert isinstance(info.value, TypeError)
