"""MovieLens 100K with the preprocessing of the paper's App. F.1.

The MovieLens licence forbids redistribution: the data is never shipped with
skpapk. The loader reads a ``u.data`` file given by the user (``path=`` or the
``SKPAPK_DATA`` environment variable), or downloads the official archive from
GroupLens into scikit-learn's data folder when the network allows.
"""

import hashlib
import io
import numbers
import os
import shutil
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from scipy import linalg
from sklearn.utils import Bunch
from sklearn.utils._param_validation import InvalidParameterError

from ..utils._validation import validate_random_state

ML100K_URL = "https://files.grouplens.org/datasets/movielens/ml-100k.zip"
ML100K_PAGE = "https://grouplens.org/datasets/movielens/100k/"
ML100K_SHA256 = "06416e597f82b7342361e41163890c81036900f418ad91315590814211dca490"
_ENV_VAR = "SKPAPK_DATA"
#: Lower bound of the factors of the ``"lstsq"`` start (the authors' ``eps``).
_LSTSQ_FLOOR = 1e-5
_NMF_INITS = ("random", "lstsq")
#: The most factor values (users and items times n_components) of the NMF:
#: 10**8 float64, 800 MB, and as much again for each of its arrays.
_MAX_FACTOR_VALUES = 10**8
_HOW_TO = (
    f"Download ml-100k.zip from {ML100K_PAGE}, unzip it, and pass "
    f"path='.../ml-100k/u.data' (or the folder holding it), or set the "
    f"environment variable {_ENV_VAR} to that file or folder."
)

DESCR = """\
MovieLens 100K, preprocessed as in Hiranandani et al. (ICML 2020), App. F.1
---------------------------------------------------------------------------

Ratings (user, item, rating 1-5, timestamp) are sorted by timestamp (ties keep
the file order). Each user's first ``n_first`` ratings form a users x items
rating matrix, factorised by non-negative matrix factorisation fitted on the
observed entries only (``n_components`` factors). Every later rating of an item
that appears in that matrix becomes one row [user factors, item factors, their
element-wise product] (3 * n_components features), labelled 1 when the rating
is 5. Users with fewer than ``min_rows`` such rows are dropped. With the
defaults on the official file: 638 users, 90 features, about 70,000 rows and
15,500 positives (the paper: "70K instances, 15.5K positives, 638 users").

The per-user 60/20/20 train / validation / test split and the min-max scaling
fitted on the training part are left to the caller.

Source: F. M. Harper, J. A. Konstan (2015), The MovieLens Datasets: History and
Context. ACM TiiS 5(4). https://grouplens.org/datasets/movielens/100k/
The licence forbids redistribution.
"""


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _as_udata(candidate, origin):
    """``candidate`` itself if a file, ``candidate/u.data`` if a folder."""
    p = Path(candidate).expanduser()
    if p.is_dir():
        p = p / "u.data"
    if p.exists() and not p.is_file():
        raise ValueError(f"{str(p)!r} (from {origin}) is not a regular file "
                         f"(a folder, pipe or device); give MovieLens 100K's "
                         f"u.data or the folder holding it.")
    if not p.is_file():
        raise FileNotFoundError(
            f"MovieLens 100K u.data not found at {str(p)!r} (from {origin}). "
            + _HOW_TO
        )
    return p


def _download(target, timeout):
    """Fetch the official archive and extract ``u.data`` to ``target``."""
    try:
        with urllib.request.urlopen(ML100K_URL, timeout=timeout) as response:
            payload = response.read()
    except (urllib.error.URLError, OSError) as exc:
        raise OSError(
            f"MovieLens 100K is not on this machine and could not be downloaded "
            f"from {ML100K_URL} ({exc}). " + _HOW_TO
        ) from exc
    try:
        with zipfile.ZipFile(io.BytesIO(payload)) as archive:
            member = next(
                (n for n in archive.namelist() if n.rsplit("/", 1)[-1] == "u.data"),
                None,
            )
            if member is None:
                raise OSError(
                    f"the archive downloaded from {ML100K_URL} holds no u.data. "
                    + _HOW_TO
                )
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(target.name + ".part")
            with archive.open(member) as src, open(partial, "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.replace(partial, target)
    except zipfile.BadZipFile as exc:
        raise OSError(
            f"the file downloaded from {ML100K_URL} is not a zip archive. "
            + _HOW_TO
        ) from exc
    return target


def _data_home(data_home):
    """scikit-learn's data folder, as ``get_data_home`` finds it, without
    creating it (a lookup that fails must leave nothing behind; a download
    creates the folders it writes to)."""
    if data_home is None:
        data_home = os.environ.get("SCIKIT_LEARN_DATA",
                                   os.path.join("~", "scikit_learn_data"))
    return Path(data_home).expanduser()


def _resolve_path(path, data_home, download, timeout):
    if path is not None:
        return _as_udata(path, "the path argument")
    env = os.environ.get(_ENV_VAR)
    if env:
        return _as_udata(env, f"the environment variable {_ENV_VAR}")
    cached = _data_home(data_home) / "skpapk" / "ml-100k" / "u.data"
    if cached.is_file():
        return cached
    if not download:
        raise FileNotFoundError(
            f"MovieLens 100K u.data was not given (path=None, {_ENV_VAR} unset "
            f"or empty) "
            f"and is not in the cache {str(cached)!r}; download=False forbids "
            f"fetching it. " + _HOW_TO
        )
    return _download(cached, timeout)


def _first_bad_line(path, lines):
    """The error naming the first line that is not 4 integers (the slow path,
    run only when the fast parse fails)."""
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if len(fields) != 4:
            what = "is blank" if not fields else f"has {len(fields)} fields"
            return ValueError(
                f"{str(path)!r} line {number} {what} ({line[:60]!r}); a "
                f"MovieLens u.data line has 4 integer fields: user id, item id, "
                f"rating, timestamp, separated by tabs. Fix or remove the line."
            )
        for column, field in enumerate(fields, start=1):
            if not field.lstrip("+-").isdigit() or not field.isascii():
                return ValueError(
                    f"{str(path)!r} line {number}, field {column}: {field[:30]!r} "
                    f"is not an integer; a MovieLens u.data line has 4 integer "
                    f"fields: user id, item id, rating, timestamp. Fix or remove "
                    f"the line."
                )
    return None


def _read_udata(path):
    """Parse a ``u.data`` file: 4 integer columns user, item, rating, time.

    Strict: every line holds 4 integers (no comment, no blank line: numpy's
    ``loadtxt`` would skip them silently); an error names the file's line.
    Lines end at ``"\n"`` (a ``"\r"`` before it is dropped), not at the
    other breaks of ``str.splitlines`` (``"\x0c"``, ``"\x85"``...): those
    would split one line of the file in two.
    """
    with open(path, "rb") as file:
        text = file.read().decode("latin-1")
    lines = text.split("\n")
    if lines[-1] == "":  # the file's last line ends with "\n"
        lines.pop()
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if not lines:
        raise ValueError(f"{str(path)!r} holds no ratings.")
    try:
        ratings = np.loadtxt(lines, dtype=np.int64, ndmin=2, comments=None)
    except ValueError as exc:
        error = _first_bad_line(path, lines)
        if error is None:  # e.g. an integer beyond int64
            error = ValueError(
                f"{str(path)!r} is not in the MovieLens u.data format (4 "
                f"integer columns: user id, item id, rating, timestamp, "
                f"separated by tabs): {exc}"
            )
        raise error from exc
    if ratings.shape != (len(lines), 4):  # blank lines, skipped by loadtxt
        raise _first_bad_line(path, lines)
    bad = (ratings[:, 2] < 1) | (ratings[:, 2] > 5)
    if bad.any():
        line = int(np.flatnonzero(bad)[0]) + 1
        raise ValueError(
            f"{str(path)!r} has ratings outside 1..5 (first at line {line}: "
            f"{ratings[line - 1].tolist()}); the third column must be the "
            f"rating."
        )
    return ratings


def _check_pairs(path, ratings):
    """Refuse a (user, item) pair rated twice, naming its two lines."""
    order = np.lexsort((ratings[:, 1], ratings[:, 0]))
    pairs = ratings[order, :2]
    twice = np.flatnonzero(np.all(pairs[1:] == pairs[:-1], axis=1))
    if twice.size:
        first, second = sorted(order[twice[0]:twice[0] + 2] + 1)
        raise ValueError(
            f"{str(path)!r} rates the (user, item) pair "
            f"{pairs[twice[0]].tolist()} twice (lines {first} and {second}); a "
            f"u.data file has one rating per pair. Remove the duplicates."
        )


def _masked_nmf(rows, cols, values, shape, n_components, *, max_iter, tol,
                random_state, init="random"):
    """Non-negative factorisation ``R ~ U @ V.T`` fitted on observed entries.

    ``R`` is known only at the entries ``(rows, cols)``, where it equals
    ``values``. Minimises ``0.5 * sum over observed (i, j) of
    (R[i, j] - U[i] @ V[j]) ** 2`` with the multiplicative updates of Lee &
    Seung (2001) weighted by the observation mask, which never increase the
    loss. Only observed entries are ever computed (sparse products). Stops
    after ``max_iter`` iterations or when the relative decrease of the loss
    falls under ``tol``.

    ``init="random"``: ``U`` and ``V`` uniform on ``[0, s)``, ``s =
    sqrt(mean(R) / n_components)`` (so that ``U @ V.T`` has the ratings'
    scale). ``init="lstsq"`` (the authors' preprocessing script): ``U``
    uniform on ``[0, 1)``, ``V`` the least-squares solution of ``U @ V.T =
    R0``, ``R0`` being ``R`` with its unobserved entries set to 0, both
    floored at ``_LSTSQ_FLOOR``.

    Returns
    -------
    U : ndarray of shape (shape[0], n_components)
    V : ndarray of shape (shape[1], n_components)
    losses : list of float
        The loss after every iteration.
    """
    rng = validate_random_state(random_state)
    eps = np.finfo(np.float64).tiny
    # canonical CSR structure; ``rows``/``cols`` re-read in its data order
    R = sp.csr_matrix((np.asarray(values, dtype=np.float64), (rows, cols)),
                      shape=shape)
    R.sum_duplicates()
    rows = np.repeat(np.arange(shape[0]), np.diff(R.indptr))
    cols = R.indices
    P = R.copy()  # same structure, data = predictions at observed entries
    RT = R.T.tocsr()
    if init == "lstsq":
        U = np.maximum(rng.uniform(size=(shape[0], n_components)), _LSTSQ_FLOOR)
        # V.T = argmin ||U @ V.T - R0||_F = (U.T U)^+ U.T R0, with R0 sparse
        V = linalg.lstsq(U.T @ U, (RT @ U).T)[0].T
        V = np.maximum(V, _LSTSQ_FLOOR)
    else:
        scale = np.sqrt(R.data.mean() / n_components) if R.nnz else 1.0
        U = scale * rng.uniform(size=(shape[0], n_components))
        V = scale * rng.uniform(size=(shape[1], n_components))

    cells = rows * shape[1] + cols
    small = shape[0] * shape[1] <= 20_000_000  # dense U @ V.T is cheaper

    def predict():
        if small:
            P.data = np.take((U @ V.T).ravel(), cells)
        else:
            P.data = np.einsum("ij,ij->i", np.take(U, rows, axis=0),
                               np.take(V, cols, axis=0))
        return P

    losses = []
    previous = 0.5 * float(np.sum((R.data - predict().data) ** 2))
    for _ in range(max_iter):
        U *= (R @ V) / np.maximum(P @ V, eps)
        predict()
        V *= (RT @ U) / np.maximum(P.T @ U, eps)
        loss = 0.5 * float(np.sum((R.data - predict().data) ** 2))
        losses.append(loss)
        if previous == 0 or (previous - loss) / previous < tol:
            break
        previous = loss
    return U, V, losses


#: The longest download timeout taken, in seconds (a year).
_MAX_TIMEOUT = 365 * 24 * 3600.0


def _check_int(value, name, minimum):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}, got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}.")
    return int(value)


def load_movielens_100k(path=None, *, random_state=None, data_home=None,
                        download=True, check_sha256=True, n_components=30,
                        max_iter=1000, tol=1e-6, n_first=20, min_rows=20,
                        nmf_init="random", timeout=60):
    """Load MovieLens 100K preprocessed as in the paper (Appendix F.1, Table 3).

    1. Ratings are sorted by timestamp (ties keep the file order).
    2. Each user's first ``n_first`` ratings fill a users x items rating
       matrix, factorised by non-negative matrix factorisation fitted on the
       observed entries only (Lee & Seung multiplicative updates,
       ``n_components`` factors, at most ``max_iter`` iterations, stopping
       when the relative decrease of the squared error falls under ``tol``),
       giving user factors ``U`` and item factors ``V``.
    3. Every later rating ``(user, item)`` becomes the row
       ``[U[user], V[item], U[user] * V[item]]`` (``3 * n_components``
       features, d = 90 by default), with target 1 when the rating is 5, else
       0. Ratings of items absent from the rating matrix have no item factors
       and are dropped.
    4. Users with fewer than ``min_rows`` rows are dropped.

    On the official file this gives 638 users and 70,032 rows with 15,489
    positives (the paper: "70K instances, 15.5K positives, 638 users").
    The paper then splits every user's rows 60/20/20 and scales every feature
    with the training minimum and maximum: that is left to the caller, with
    :func:`skpapk.model_selection.within_group_split` and
    :class:`sklearn.preprocessing.MinMaxScaler` fitted on the training rows.

    The file is found in this order: ``path``; the environment variable
    ``SKPAPK_DATA`` (a file or a folder holding ``u.data``); the cache
    ``get_data_home(data_home)/skpapk/ml-100k/u.data``; else, when
    ``download=True``, the official archive is downloaded from GroupLens into
    that cache. The MovieLens licence forbids redistributing the data.

    Parameters
    ----------
    path : str or path-like, default=None
        The ``u.data`` file, or the folder holding it.
    random_state : int, RandomState instance or None, default=None
        Seeds the factorisation's initialisation.
    data_home : str or path-like, default=None
        The scikit-learn data folder (see :func:`sklearn.datasets.get_data_home`).
    download : bool, default=True
        Download the archive when the file is found nowhere else.
    check_sha256 : bool, default=True
        Check that the file is the official ``u.data`` (sha256
        ``06416e59...dca490``). Set False to load a sample or modified file
        in the same format.
    n_components : int, default=30
        Number of NMF factors (their values for all the users and items at
        most 10**8).
    max_iter : int, default=1000
        Maximum number of NMF iterations. With the defaults the NMF runs all
        of them (its loss still falls by more than ``tol`` per iteration;
        ``n_nmf_iter`` says how many ran): the features are those of 1,000
        multiplicative updates, which the benchmarks use; no warning is
        given.
    tol : float, default=1e-6
        NMF stopping tolerance on the relative decrease of the loss.
    n_first : int, default=20
        Number of each user's first ratings used to build the features.
    min_rows : int, default=20
        Users with fewer rows are dropped.
    nmf_init : {"random", "lstsq"}, default="random"
        Start of the factorisation, which the paper does not specify.
        ``"random"``: both factors uniform, scaled to the ratings.
        ``"lstsq"``: user factors uniform on ``[0, 1)``, item factors the
        least-squares fit of the rating matrix with its unobserved entries
        set to 0, both floored at ``1e-5``, as the authors' preprocessing
        script does (github.com/stair-lab/pap-k). The two give different
        local optima: on the official file, the rankers of Table 3 score
        1.6 to 7.5 points of test micro-pAp@k higher on the ``"lstsq"``
        features for k = 12 to 24 (Table 3 in :doc:`/user_guide/benchmarks`).
    timeout : float, default=60
        Download timeout in seconds, at most a year.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        With attributes ``data`` (ndarray of float64 of shape (n_samples,
        3 * n_components)), ``target`` (ndarray of int, 1 for rating 5),
        ``groups`` (user ids), ``item_ids``, ``ratings`` (the 1-5
        ratings), ``feature_names`` (``user_0 ..``, ``item_0 ..``,
        ``prod_0 ..``), ``n_nmf_iter`` and ``DESCR``. Rows come user by user,
        in time order.

    Raises
    ------
    FileNotFoundError
        The file is found nowhere and may not be downloaded.
    OSError
        The download failed (e.g. no network).
    ValueError
        The file is not the official one (sha256), is not in the ``u.data``
        format (the message names the line), rates a (user, item) pair
        twice, or leaves no user with ``min_rows`` rows.

    See Also
    --------
    skpapk.model_selection.within_group_split : The per-user 60/20/20 split.

    Examples
    --------
    A tiny file in the ``u.data`` format (the real one is not needed here):

    >>> import tempfile, os
    >>> import numpy as np
    >>> from skpapk.datasets import load_movielens_100k
    >>> rng = np.random.RandomState(0)
    >>> rows = [(u, i, rng.randint(1, 6), 1000 * u + t)
    ...         for u in range(1, 5) for t, i in enumerate(rng.permutation(12))]
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "u.data"), "w") as f:
    ...     f.writelines("%d\\t%d\\t%d\\t%d\\n" % row for row in rows)
    >>> bunch = load_movielens_100k(folder, check_sha256=False, n_first=6,
    ...                             n_components=2, min_rows=3, random_state=0)
    >>> bunch.data.shape[1], bunch.feature_names[:3]
    (6, ['user_0', 'user_1', 'item_0'])
    >>> bool(np.all(bunch.data[:, 4:] == bunch.data[:, :2] * bunch.data[:, 2:4]))
    True
    >>> import shutil; shutil.rmtree(folder)
    """
    n_components = _check_int(n_components, "n_components", 1)
    max_iter = _check_int(max_iter, "max_iter", 1)
    n_first = _check_int(n_first, "n_first", 1)
    min_rows = _check_int(min_rows, "min_rows", 1)
    if isinstance(tol, (bool, np.bool_)) or not isinstance(tol, numbers.Real):
        raise InvalidParameterError(f"tol must be a number >= 0, got {tol!r}.")
    if not tol >= 0:
        raise ValueError(f"tol must be a number >= 0, got {tol!r}.")
    if not isinstance(nmf_init, str) or nmf_init not in _NMF_INITS:
        raise ValueError(f"nmf_init must be one of {_NMF_INITS}, got {nmf_init!r}.")
    for name, value in (("download", download), ("check_sha256", check_sha256)):
        if not isinstance(value, (bool, np.bool_)):  # "no" would be true
            raise TypeError(f"{name} must be True or False, got {value!r}.")
    if isinstance(timeout, (bool, np.bool_)) or not isinstance(timeout, numbers.Real):
        raise InvalidParameterError(
            f"timeout must be a number of seconds, got {timeout!r}.")
    if not 0 < timeout <= _MAX_TIMEOUT:  # socket's limit: time_t
        raise ValueError(f"timeout must be a number of seconds > 0 and at most "
                         f"{_MAX_TIMEOUT:g} (a year), got {timeout!r}.")
    if path is not None and (not isinstance(path, (str, os.PathLike))
                             or not os.fspath(path)):
        raise (ValueError if isinstance(path, str) else TypeError)(
            f"path must be the u.data file or its folder (a str or a path), or "
            f"None to look it up, got {path!r}.")
    if data_home is not None and (not isinstance(data_home, (str, os.PathLike))
                                  or not os.fspath(data_home)):
        raise InvalidParameterError(
            f"data_home must be a folder (a str or a path), or None for "
            f"scikit-learn's data folder, got {data_home!r}.")

    file = _resolve_path(path, data_home, download, timeout)
    if check_sha256:
        digest = _sha256(file)
        if digest != ML100K_SHA256:
            origin = (f" (the environment variable {_ENV_VAR})" if path is None
                      and os.environ.get(_ENV_VAR) else "")
            raise ValueError(
                f"{str(file)!r}{origin} is not the official MovieLens 100K "
                f"u.data (sha256 {digest}, expected {ML100K_SHA256}). " + _HOW_TO
                + " To load a sample or modified file in the same format, pass "
                "check_sha256=False."
            )
    ratings = _read_udata(file)
    _check_pairs(file, ratings)

    # 1. sort by user, then time (stable: ties keep the file order)
    order = np.lexsort((ratings[:, 3], ratings[:, 0]))
    ratings = ratings[order]
    user_ids, user_codes = np.unique(ratings[:, 0], return_inverse=True)
    user_codes = user_codes.reshape(-1)
    counts = np.bincount(user_codes)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank = np.arange(ratings.shape[0]) - starts[user_codes]
    head = rank < n_first

    # the items of the first ratings (the columns of step 2's NMF)
    item_ids, head_item_codes = np.unique(ratings[head, 1], return_inverse=True)
    head_user_codes = user_codes[head]
    # 3. later ratings of known items become the rows (checked before the
    # factorisation, which they do not change: a file with no usable user
    # fails at once)
    rest = ~head
    position = np.searchsorted(item_ids, ratings[:, 1])
    position = np.minimum(position, item_ids.shape[0] - 1)
    known = item_ids[position] == ratings[:, 1]
    rows = rest & known
    # 4. users with enough rows
    per_user = np.bincount(user_codes[rows], minlength=user_ids.shape[0])
    rows &= per_user[user_codes] >= min_rows
    if not rows.any():
        raise ValueError(
            f"no user of {str(file)!r} has min_rows={min_rows} later ratings "
            f"(after its first n_first={n_first}) of items rated among the "
            f"users' first ratings (the most any user has: "
            f"{int(per_user.max(initial=0))}): lower n_first or min_rows."
        )
    # 2. rating matrix of the first ratings, masked NMF
    n_factors = user_ids.shape[0] + item_ids.shape[0]
    if n_components * n_factors > _MAX_FACTOR_VALUES:
        raise ValueError(
            f"n_components={n_components} gives the {user_ids.shape[0]} users "
            f"and {item_ids.shape[0]} items of {file} "
            f"{n_components * n_factors:.3g} factor values, more than "
            f"{_MAX_FACTOR_VALUES:.0e} (memory); use n_components <= "
            f"{_MAX_FACTOR_VALUES // n_factors}.")
    U, V, losses = _masked_nmf(
        head_user_codes, head_item_codes.reshape(-1), ratings[head, 2],
        (user_ids.shape[0], item_ids.shape[0]), n_components,
        max_iter=max_iter, tol=tol, random_state=random_state, init=nmf_init,
    )
    u, v = U[user_codes[rows]], V[position[rows]]
    data = np.hstack([u, v, u * v])
    feature_names = [f"{part}_{j}" for part in ("user", "item", "prod")
                     for j in range(n_components)]
    return Bunch(
        data=data,
        target=(ratings[rows, 2] == 5).astype(np.int64),
        groups=ratings[rows, 0],
        item_ids=ratings[rows, 1],
        ratings=ratings[rows, 2],
        feature_names=feature_names,
        n_nmf_iter=len(losses),
        DESCR=DESCR,
    )
