"""Synthetic ranking data of the paper's Section 7 (simulations)."""

import numbers

import numpy as np
from scipy.stats import truncnorm
from sklearn.utils._param_validation import InvalidParameterError

from ..utils._arrays import float_array
from ..utils._parallel import physical_memory
from ..utils._validation import check_k, validate_random_state

_CONDITIONS = ("beta", "moderate_beta", "strong_beta")


def _check_count(value, name, *, minimum=1):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name} must be an integer >= {minimum}, got {value!r} of type "
            f"{type(value).__name__}."
        )
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {name}={value}.")
    return int(value)


def _max_rows(n_features):
    """The most rows of ``n_features`` float64 columns in one numpy array (its
    size in bytes is an ``intp``)."""
    return np.iinfo(np.intp).max // (8 * n_features)


def _check_rows(n_rows, what, n_features, fix, *, total=False):
    """``n_rows`` if one array holds that many rows of ``n_features``
    columns (and, for the ``total`` rows of a data set, the machine's memory
    too); else a ValueError saying ``what`` asks for them and the ``fix``."""
    if _max_rows(n_features) == 0:  # not even one row: the features' fault
        raise ValueError(
            f"n_features={n_features} is beyond the largest array size (one "
            f"row of float64 features needs {8 * n_features} bytes); lower "
            f"n_features.")
    if "n_features" not in fix:  # rows times features: either may be huge
        head, sep, last = fix.rpartition(" or ")
        fix = f"{head}, {last} or n_features" if sep else f"{fix} or n_features"
    if n_rows > _max_rows(n_features):
        raise ValueError(
            f"{what}, beyond the largest array size: {_max_rows(n_features)} "
            f"rows of {n_features} float64 features (memory runs out well "
            f"before); {fix}."
        )
    memory = physical_memory() if total else None
    if memory and 8 * n_rows * n_features > memory:
        # numpy's allocation succeeds (the system overcommits), then the
        # system kills the process as the features are written, silently
        raise ValueError(
            f"{what}: {n_rows} rows of {n_features} float64 features take "
            f"{8 * n_rows * n_features / 2**30:.3g} GiB, more than this "
            f"machine's {memory / 2**30:.3g} GiB of memory; {fix}.")
    return n_rows


def _per_user_counts(value, n_users, name, rng, n_features):
    """Counts per user from an int, a (low, high) tuple or one value per user."""
    fix = f"lower {name}"
    if isinstance(value, tuple):
        if len(value) != 2:
            raise ValueError(
                f"{name} as a tuple must be (low, high), the inclusive range the "
                f"per-user counts are drawn from, got {value!r}; pass a list or "
                f"array for one count per user."
            )
        low = _check_count(value[0], f"{name}[0]", minimum=0)
        high = _check_count(value[1], f"{name}[1]", minimum=0)
        if low > high:
            raise ValueError(f"{name}=(low, high) needs low <= high, got {value!r}.")
        _check_rows(high, f"{name}[1] is {high}", n_features, fix)
        return rng.randint(low, high + 1, size=n_users)
    if isinstance(value, (numbers.Integral, np.integer)) and not isinstance(
        value, (bool, np.bool_)
    ):
        count = _check_count(value, name, minimum=0)
        _check_rows(count, f"{name} is {count}", n_features, fix)
        return np.full(n_users, count, dtype=np.intp)
    counts = np.asarray(value)
    if counts.ndim != 1 or counts.dtype.kind not in "iu":
        raise TypeError(
            f"{name} must be an int, a (low, high) tuple or an array of "
            f"{n_users} integers (one per user), got {value!r}."
        )
    if counts.shape[0] != n_users:
        raise ValueError(
            f"{name} has {counts.shape[0]} counts but n_users={n_users}; pass "
            f"one count per user."
        )
    if np.any(counts < 0):
        raise ValueError(
            f"{name} must hold non-negative counts, got {counts.tolist()}."
        )
    if counts.size:
        _check_rows(int(counts.max()), f"{name} holds the count "
                    f"{int(counts.max())}", n_features, fix)
    return counts.astype(np.intp)


def make_papk_simulation(n_users=1, n_pos=10, n_neg=160, n_features=5, *,
                         pos_mean=-1.0, neg_mean=0.0, shuffle=True,
                         random_state=None):
    """Generate the simulated users of the paper's Section 7.1.

    Every user's positives are drawn from ``N(pos_mean * 1_d, I_d)`` and its
    negatives from ``N(neg_mean * 1_d, I_d)``, ``d = n_features``. Table 2 of
    the paper uses one user, ``d = 5`` and the two cases
    ``(n_pos, n_neg, k) = (10, 160, 20)`` and ``(20, 160, 10)``, over 300
    runs.

    Parameters
    ----------
    n_users : int, default=1
        Number of users (groups).
    n_pos, n_neg : int, tuple (low, high) or array-like of int, default=10 and 160
        Number of positives / negatives of every user: the same ``int`` for
        all; a ``(low, high)`` *tuple* draws each user's count uniformly from
        the integers ``low .. high`` (inclusive); a list or array gives one
        count per user. Every user needs a row: a user with no positive and
        no negative is a ``ValueError``, and so are more rows in all than
        one numpy array of ``n_features`` float64 columns holds
        (``np.iinfo(np.intp).max // (8 * n_features)``; memory runs out
        well before).
    n_features : int, default=5
        Dimension ``d``.
    pos_mean, neg_mean : float, default=-1.0 and 0.0
        Every coordinate of the positives' / negatives' mean.
    shuffle : bool, default=True
        Shuffle the rows. Otherwise rows come user by user, positives first.
    random_state : int, RandomState instance or None, default=None
        Seeds the counts, the features and the shuffling.

    Returns
    -------
    X : ndarray of float64 of shape (n_samples, n_features)
        The features of every (user, item) row.
    y : ndarray of int of shape (n_samples,)
        1 for positives (relevant), 0 for negatives.
    groups : ndarray of int of shape (n_samples,)
        User id of each row, ``0 .. n_users - 1``.

    See Also
    --------
    make_margin_data : The data of Section 7.2 (Figure 1).

    Examples
    --------
    Case 1 of Table 2:

    >>> import numpy as np
    >>> from skpapk.datasets import make_papk_simulation
    >>> X, y, groups = make_papk_simulation(n_pos=10, n_neg=160, random_state=0)
    >>> X.shape, int(y.sum()), np.unique(groups).tolist()
    ((170, 5), 10, [0])

    Three users with 5 to 20 positives each:

    >>> X, y, groups = make_papk_simulation(3, n_pos=(5, 20), random_state=0)
    >>> [int(v) for v in np.bincount(groups, weights=y)]
    [17, 20, 10]
    """
    rng = validate_random_state(random_state)
    n_users = _check_count(n_users, "n_users")
    n_features = _check_count(n_features, "n_features")
    for name, value in (("pos_mean", pos_mean), ("neg_mean", neg_mean)):
        if (isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real)
                or not np.isfinite(value)):
            raise TypeError(f"{name} must be a finite real number, got {value!r}.")
    if not isinstance(shuffle, (bool, np.bool_)):  # "no" would be true
        raise TypeError(f"shuffle must be True or False, got {shuffle!r}.")
    _check_rows(n_users, f"n_users is {n_users}", n_features,
                "lower n_users (a row per user at least)", total=True)
    pos_counts = _per_user_counts(n_pos, n_users, "n_pos", rng, n_features)
    neg_counts = _per_user_counts(n_neg, n_users, "n_neg", rng, n_features)
    # summed as Python ints: an int64 sum may wrap (to 0 or below)
    n_rows = int(pos_counts.sum(dtype=object)) + int(neg_counts.sum(dtype=object))
    if n_rows == 0:
        raise ValueError("n_pos and n_neg are all 0: there would be no rows.")
    _check_rows(n_rows, f"n_pos and n_neg ask for {n_rows} rows in all",
                n_features, "lower n_pos, n_neg or n_users", total=True)
    empty = np.flatnonzero(pos_counts + neg_counts == 0)
    if empty.size:  # its id would be missing from groups
        raise ValueError(
            f"{empty.size} user(s) would have no row (n_pos = n_neg = 0), e.g. "
            f"user {empty[:5].tolist()}: groups holds the users 0 .. "
            f"n_users - 1, each with a row. Give every user a row (e.g. a "
            f"(low, high) range of n_neg from 1) or lower n_users."
        )
    # user by user, positives then negatives
    block_counts = np.stack([pos_counts, neg_counts], axis=1).ravel()
    block_label = np.tile([1, 0], n_users)
    y = np.repeat(block_label, block_counts)
    groups = np.repeat(np.repeat(np.arange(n_users), 2), block_counts)
    means = np.where(y == 1, float(pos_mean), float(neg_mean))
    X = rng.standard_normal((y.shape[0], n_features)) + means[:, None]
    if shuffle:
        perm = rng.permutation(y.shape[0])
        X, y, groups = X[perm], y[perm], groups[perm]
    return X, y.astype(np.int64), groups.astype(np.int64)


def _margin_threshold(condition, pos_scores, beta, margin):
    """Largest negative score allowed by ``condition`` given the positives'."""
    top = np.sort(pos_scores)[::-1]
    if condition == "strong_beta":
        # Def. 5: min_i f(x+_i) - max_j f(x-_j) >= margin
        return top[-1] - margin
    if condition == "beta":
        # Def. 3: for all beta-subsets, mean f(x+) - max_j f(x-_j) >= margin;
        # the smallest mean is that of the bottom beta positives
        return top[-beta:].mean() - margin
    # Def. 4 (moderate): min_i f(x+_i) >= max_j f(x-_j) and, for some
    # beta-subset (best: the top beta), min f(x+) - max_j f(x-_j) >= margin
    return min(top[-1], top[beta - 1] - margin)


def make_margin_data(condition, w=None, *, n_pos=250, n_neg=2000, k=30,
                     margin=1.0, n_features=None, pos_mean=0.0, neg_mean=0.5,
                     shuffle=True, random_state=None):
    """Generate one user's data satisfying a margin condition (Section 7.2).

    Positives are drawn from ``N(pos_mean * 1_d, I_d)``, then negatives from
    ``N(neg_mean * 1_d, I_d)`` *conditioned* on the margin condition holding
    for the scores ``f(x) = w @ x``, with ``beta = min(k, n_pos)`` and
    ``delta = margin`` (paper, Defs. 3-5):

    - ``"beta"`` (Def. 3, the (beta, delta)-margin): for every set of beta
      positives, their mean score minus the highest negative score is at
      least ``margin``; i.e. the mean of the beta lowest positive scores is
      ``>= max f(x-) + margin``. The avg surrogate is 0 there (Prop. 3).
    - ``"moderate_beta"`` (Def. 4): every positive scores at least as high as
      every negative, and some beta positives (then the top beta) score at
      least ``margin`` above every negative. The TS surrogate is 0 (Prop. 4).
    - ``"strong_beta"`` (Def. 5): every positive scores at least ``margin``
      above every negative. The max surrogate is 0 (Prop. 6).

    Each condition is a bound ``f(x-) <= t`` on every negative's score, with
    ``t`` fixed by the positives. Instead of rejection sampling (drawing
    negatives and keeping those with ``f(x-) <= t`` until ``n_neg`` are kept,
    which would need about 10^8 draws under the strong condition with the
    defaults), each negative is drawn from that same conditional law
    directly: its component along ``w`` from the truncated normal, the
    orthogonal part from the untruncated normal (independent for an isotropic
    Gaussian). The bound used is ``t`` minus ``1e-9 * (1 + |t|)``, and a
    negative whose score ``w @ x`` could round above it (features far from
    0, ``neg_mean=1e8``) is moved along ``w`` below it, so the returned data
    satisfies the condition exactly in floating point. The
    paper's Figure 1 uses the defaults: ``d = 5``, ``w = 1_d``, ``k = 30``,
    margin 1, 250 positives from ``N(0, I)`` and 2000 negatives from
    ``N(0.5 * 1_d, I)``.

    Parameters
    ----------
    condition : {"beta", "moderate_beta", "strong_beta"}
        The margin condition that ``w`` must realize.
    w : array-like of shape (n_features,), default=None
        The scoring vector; ``None`` means ``1_d``. Finite, not zero, and
        of a squared norm that float64 holds (e.g. ``|w|`` near 1).
    n_pos, n_neg : int, default=250 and 2000
        Numbers of positives and negatives (both at least 1; in all, at
        most the rows of one numpy array of ``n_features`` float64 columns,
        ``np.iinfo(np.intp).max // (8 * n_features)``).
    k : int, default=30
        The ``k`` of pAp@k; ``beta = min(k, n_pos)``.
    margin : float, default=1.0
        The margin ``delta`` (non-negative).
    n_features : int, default=None
        Dimension ``d``; defaults to ``len(w)``, or 5 when ``w`` is None.
    pos_mean, neg_mean : float, default=0.0 and 0.5
        Every coordinate of the positives' / negatives' mean.
    shuffle : bool, default=True
        Shuffle the rows. Otherwise positives come first.
    random_state : int, RandomState instance or None, default=None
        Seeds the features and the shuffling.

    Returns
    -------
    X : ndarray of float64 of shape (n_pos + n_neg, n_features)
        The features of every row.
    y : ndarray of int of shape (n_pos + n_neg,)
        1 for positives, 0 for negatives.
    groups : ndarray of int of shape (n_pos + n_neg,)
        All zeros (one user), for the same API as the other generators.

    See Also
    --------
    make_papk_simulation : The data of Section 7.1 (Table 2).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.datasets import make_margin_data
    >>> X, y, groups = make_margin_data("strong_beta", random_state=0)
    >>> X.shape, int(y.sum())
    ((2250, 5), 250)
    >>> s = X @ np.ones(5)
    >>> bool(s[y == 1].min() - s[y == 0].max() >= 1.0)
    True
    """
    if condition not in _CONDITIONS:
        raise ValueError(
            f"condition must be one of {list(_CONDITIONS)} (the paper's "
            f"beta-margin, moderate beta-margin and strong beta-margin, Defs. "
            f"3-5), got {condition!r}."
        )
    rng = validate_random_state(random_state)
    if w is None:
        n_features = 5 if n_features is None else _check_count(n_features, "n_features")
        _check_rows(1, "one row", n_features, "lower n_features")
        w = np.ones(n_features)
    else:
        w = float_array(w, input_name="w", expected="a vector of real numbers "
                        "(the scoring vector)")
        if w.ndim != 1 or w.shape[0] == 0:
            raise ValueError(f"w must be a non-empty 1-d vector, got shape {w.shape}.")
        if (n_features is not None
                and _check_count(n_features, "n_features") != w.shape[0]):
            raise ValueError(
                f"w has {w.shape[0]} coordinates but n_features={n_features}; "
                f"leave n_features=None to use len(w)."
            )
        n_features = w.shape[0]
        if not np.all(np.isfinite(w)) or not np.any(w):
            raise ValueError(
                "w must be finite and not zero: a zero scorer ties every item "
                "and realizes no margin."
            )
        with np.errstate(over="ignore", under="ignore"):
            norm2 = float(w @ w)
        if not 0.0 < norm2 < np.inf:
            raise ValueError(
                f"w's squared norm is {'too large' if norm2 else 'too small'} "
                f"for float64 ({norm2!r}); rescale w (the negatives' scores are "
                f"drawn in the units of w @ x, so keep |w| near 1)."
            )
    n_pos = _check_count(n_pos, "n_pos")
    n_neg = _check_count(n_neg, "n_neg")
    for name, count in (("n_pos", n_pos), ("n_neg", n_neg)):
        _check_rows(count, f"{name} is {count}", n_features, f"lower {name}")
    _check_rows(n_pos + n_neg, f"n_pos and n_neg ask for {n_pos + n_neg} rows "
                f"in all", n_features, "lower n_pos or n_neg", total=True)
    beta = min(check_k(k), n_pos)
    if isinstance(margin, (bool, np.bool_)) or not isinstance(margin, numbers.Real):
        raise InvalidParameterError(
            f"margin must be a finite number >= 0, got {margin!r}.")
    if not np.isfinite(margin) or margin < 0:
        raise ValueError(f"margin must be a finite number >= 0, got {margin!r}.")
    for name, value in (("pos_mean", pos_mean), ("neg_mean", neg_mean)):
        if (isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real)
                or not np.isfinite(value)):
            raise TypeError(f"{name} must be a finite real number, got {value!r}.")
    if not isinstance(shuffle, (bool, np.bool_)):  # "no" would be true
        raise TypeError(f"shuffle must be True or False, got {shuffle!r}.")

    def beyond_float64(why):
        return ValueError(
            f"margin={margin!r} with pos_mean={pos_mean!r} and "
            f"neg_mean={neg_mean!r} puts the negatives' features beyond what "
            f"float64 samples ({why}); use a smaller margin, or means closer "
            f"to 0."
        )

    X_pos = rng.standard_normal((n_pos, n_features)) + float(pos_mean)
    norm2 = float(w @ w)
    norm = np.sqrt(norm2)
    mu = float(neg_mean) * np.ones(n_features)
    with np.errstate(over="ignore", invalid="ignore"):  # checked below
        threshold = _margin_threshold(condition, X_pos @ w, beta, float(margin))
        threshold -= 1e-9 * (1.0 + abs(threshold))
        # score t = w @ z ~ N(w @ mu, ||w||^2), truncated to t <= threshold
        t_mean = float(w @ mu)
        upper = (threshold - t_mean) / norm
    if not np.isfinite([threshold, t_mean, upper]).all():
        raise beyond_float64("the scores w @ x, their mean or their bound are "
                             "not finite")
    t = t_mean + norm * truncnorm.rvs(-np.inf, upper, size=n_neg, random_state=rng)
    t = np.minimum(t, threshold)  # guard against rounding in the tail sampler
    # orthogonal part: project a N(mu, I) draw off the w direction
    Z = rng.standard_normal((n_neg, n_features)) + mu
    Z -= np.outer(Z @ w / norm2, w)
    X_neg = Z + np.outer(t / norm2, w)
    if not np.isfinite(X_neg).all():  # the far tail is beyond float64
        raise beyond_float64("some came out infinite")
    # the projection's rounding grows with the features' size (neg_mean=1e8:
    # 1e-7): a row whose score may round above the bound, in any order of
    # the sum (its error is below n_features * eps * |x| @ |w|), moves along w
    for _ in range(8):
        slack = 4 * n_features * np.finfo(np.float64).eps * (np.abs(X_neg) @ np.abs(w))
        excess = X_neg @ w - threshold + slack
        over = excess > 0
        if not over.any():
            break
        X_neg[over] -= np.outer(2 * excess[over] / norm2, w)
    else:  # pragma: no cover - each pass halves the excess at least
        raise beyond_float64("their scores round above the bound")

    X = np.concatenate([X_pos, X_neg])
    y = np.concatenate([np.ones(n_pos, dtype=np.int64),
                        np.zeros(n_neg, dtype=np.int64)])
    if shuffle:
        perm = rng.permutation(y.shape[0])
        X, y = X[perm], y[perm]
    return X, y, np.zeros(y.shape[0], dtype=np.int64)
