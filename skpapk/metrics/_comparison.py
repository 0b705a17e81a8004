"""Paired comparison of two rankers on the same groups (users / queries).

The per-group differences of a metric (for example
``papk_score(..., average=None)`` of two rankers on the same test rows) are
compared with a sign-flip randomization test (exact by enumeration when the
number of groups is small) and a bootstrap or t confidence interval. Every
resampling runs in chunks of vectorised draws: no Python loop over single
resamples.
"""

from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from scipy import stats
from sklearn.utils._param_validation import (
    Interval,
    InvalidParameterError,
    StrOptions,
    validate_params,
)

from ..utils._parallel import physical_memory
from ..utils._validation import validate_random_state

#: Largest number of float64 values of one chunk of resamples (8 MiB).
_CHUNK_VALUES = 2**20


@dataclass(frozen=True)
class PairedComparisonResult:
    """Result of :func:`paired_comparison`.

    Attributes
    ----------
    mean_difference : float
        Mean over the compared groups of ``scores_a - scores_b``: the
        difference of the two micro averages over these groups.
    standard_error : float
        Standard error of ``mean_difference``: the sample standard deviation
        of the differences (``ddof=1``) over the square root of ``n_groups``.
    pvalue : float
        Two-sided p-value of the paired sign-flip randomization test of "no
        difference" (each group's difference is as likely to have either
        sign).
    confidence_interval : tuple of float
        ``(low, high)`` confidence interval of the mean difference.
    confidence_level : float
        Level of ``confidence_interval``.
    ci_method : str
        ``"bootstrap"`` or ``"t"``.
    n_groups : int
        Number of groups compared.
    n_dropped : int
        Number of groups left out because both scores are NaN (undefined for
        the metric whichever the ranker).
    n_resamples : int
        Number of sign flips behind ``pvalue``: ``2 ** n_groups`` when the
        test is exact.
    exact : bool
        Whether ``pvalue`` enumerates every sign flip.
    """

    mean_difference: float
    standard_error: float
    pvalue: float
    confidence_interval: tuple
    confidence_level: float
    ci_method: str
    n_groups: int
    n_dropped: int
    n_resamples: int
    exact: bool


@validate_params(
    {
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "ci_method": [StrOptions({"bootstrap", "t"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def paired_comparison(scores_a, scores_b, *, n_resamples=9999,
                      confidence_level=0.95, ci_method="bootstrap",
                      random_state=None):
    """Compare two rankers' per-group scores on the same groups.

    The differences ``d = scores_a - scores_b`` of the groups defined for
    both rankers give the mean difference, its standard error, the p-value
    of a paired sign-flip randomization test and a confidence interval.

    Parameters
    ----------
    scores_a : array-like of shape (n_groups,)
        Per-group metric values of the first ranker, e.g.
        ``papk_score(y_true, score_a, k=k, groups=groups, average=None)``
        (NaN for undefined groups).
    scores_b : array-like of shape (n_groups,)
        Per-group values of the second ranker, in the same group order. Two
        pandas Series are paired by position too: their indexes must be
        equal (align them first, e.g. ``scores_b.reindex(scores_a.index)``).
    n_resamples : int, default=9999
        Number (not a bool) of random sign flips of the randomization test, and of
        bootstrap resamples when ``ci_method="bootstrap"``. When
        ``2 ** n_groups <= n_resamples`` every sign flip is enumerated and the
        p-value is exact.
    confidence_level : float, default=0.95
        Level of the confidence interval, in (0, 1).
    ci_method : {"bootstrap", "t"}, default="bootstrap"
        ``"bootstrap"``: the percentile interval of the mean difference over
        ``n_resamples`` resamples of the groups with replacement.
        ``"t"``: ``mean_difference +- t * standard_error`` with Student's t
        quantile on ``n_groups - 1`` degrees of freedom (deterministic; the
        percentile bootstrap is too narrow for a few dozen groups or fewer).
        The sign flips and the bootstrap each cost ``n_resamples *
        n_groups`` draws, linear in both: at the default ``n_resamples`` on
        one core, about 7 s for the sign flips and 12 s for the bootstrap
        per 100,000 groups (3 minutes in all for a million); there, fewer
        resamples (the p-value's resolution is ``1 / (n_resamples + 1)``)
        or ``ci_method="t"`` save the time.
    random_state : int, RandomState instance or None, default=None
        Seeds the sign flips and the bootstrap resamples; an int gives the
        same result at every call (not a bool: ``True`` is no seed).

    Returns
    -------
    result : PairedComparisonResult
        Frozen dataclass with ``mean_difference``, ``standard_error``,
        ``pvalue``, ``confidence_interval``, ``confidence_level``,
        ``ci_method``, ``n_groups``, ``n_dropped``, ``n_resamples`` and
        ``exact``.

    Raises
    ------
    TypeError
        If the scores are not numbers (strings, say; None is NaN).
    ValueError
        If the arrays are not 1-D of the same length, hold infinite values,
        are pandas objects with different indexes, or a group is NaN for one
        ranker only, or fewer than two groups are defined for both.

    See Also
    --------
    papk_score : Per-group pAp@k with ``average=None``.
    scipy.stats.permutation_test : The same sign-flip test, one resample at a
        time or in batches.
    scipy.stats.ttest_rel : The paired t-test.

    Notes
    -----
    **NaN groups.** A group that is NaN for both rankers (no relevant or no
    irrelevant item: undefined whatever the scores) is left out, and counted
    in ``n_dropped``, as ``average="micro"`` leaves it out of both means. A
    group that is NaN for one ranker only raises a ``ValueError``: the
    per-group metrics of :mod:`skpapk.metrics` are undefined by the labels
    alone, so such a group means that the two arrays were not computed on the
    same rows, labels, groups or ``k``, and dropping it would compare the two
    rankers on different groups without a word.

    **Randomization test.** Under the null hypothesis each group's
    difference is as likely to be ``d_i`` as ``-d_i``. The p-value is the
    share of sign flips ``s`` with ``|sum(s * d)| >= |sum(d)|``: over all
    ``2 ** n_groups`` flips when that is at most ``n_resamples`` (exact),
    else ``(1 + hits) / (1 + n_resamples)`` over random flips, which never
    gives 0 and is a valid p-value (Phipson & Smyth, 2010).

    References
    ----------
    B. Efron, R. Tibshirani. "An Introduction to the Bootstrap", Chapman &
    Hall, 1993 (Chapter 15, permutation tests; Chapter 13, percentile
    intervals).

    B. Phipson, G. K. Smyth. "Permutation P-values Should Never Be Zero",
    Statistical Applications in Genetics and Molecular Biology 9(1), 2010.

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.metrics import paired_comparison, papk_score
    >>> y = [1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
    >>> groups = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    >>> score_a = [0.9, 0.1, 0.2, 0.8, 0.7, 0.1, 0.3, 0.9, 0.1, 0.6, 0.2, 0.1]
    >>> score_b = [0.1, 0.9, 0.2, 0.8, 0.1, 0.7, 0.3, 0.9, 0.1, 0.1, 0.2, 0.6]
    >>> gains_a = papk_score(y, score_a, k=1, groups=groups, average=None)
    >>> gains_b = papk_score(y, score_b, k=1, groups=groups, average=None)
    >>> gains_a - gains_b
    array([1., 0., 0., 1.])
    >>> result = paired_comparison(gains_a, gains_b, ci_method="t")
    >>> result.mean_difference, result.exact, result.n_resamples
    (0.5, True, 16)
    >>> round(result.standard_error, 4), result.pvalue
    (0.2887, 0.5)
    """
    if isinstance(n_resamples, bool):  # an Integral to validate_params
        raise InvalidParameterError(
            f"The 'n_resamples' parameter of paired_comparison must be an int "
            f"in the range [1, inf), not a bool. Got {n_resamples!r} instead.")
    diff, n_dropped = _differences(scores_a, scores_b)
    n = diff.shape[0]
    mean = float(diff.mean())
    se = float(diff.std(ddof=1) / np.sqrt(n))
    rng = validate_random_state(random_state)  # True is no seed
    means = None
    if ci_method == "bootstrap":  # before the flips: they may take minutes
        try:
            # the means and np.quantile's copy of them
            if 16 * n_resamples > (physical_memory() or np.inf):
                raise MemoryError
            means = np.empty(n_resamples)
        except MemoryError:
            raise ValueError(
                f"n_resamples={n_resamples} bootstrap means take "
                f"{16 * n_resamples / 2**30:.3g} GiB, more than there is; "
                f"lower n_resamples (the p-value's resolution is "
                f"1 / (n_resamples + 1)).") from None
    pvalue, n_flips, exact = _sign_flip_pvalue(diff, n_resamples, rng)
    if ci_method == "t":
        half = stats.t.ppf(0.5 + confidence_level / 2, n - 1) * se
        interval = (mean - half, mean + half)
    else:
        means = _bootstrap_means(diff, rng, means)
        tail = (1 - confidence_level) / 2
        low, high = np.quantile(means, [tail, 1 - tail])
        interval = (float(low), float(high))
    return PairedComparisonResult(
        mean_difference=mean, standard_error=se, pvalue=pvalue,
        confidence_interval=tuple(float(v) for v in interval),
        confidence_level=float(confidence_level), ci_method=ci_method,
        n_groups=n, n_dropped=n_dropped, n_resamples=n_flips, exact=exact)


def _differences(scores_a, scores_b):
    """``scores_a - scores_b`` over the groups defined for both, and the drops."""
    if (hasattr(scores_a, "iloc") and hasattr(scores_b, "iloc")
            and not scores_a.index.equals(scores_b.index)):
        raise ValueError(
            "scores_a and scores_b have different indexes (other groups, or "
            "the same groups in another order), and are paired by position: "
            "align them first, e.g. scores_b.reindex(scores_a.index).")
    arrays = []
    for name, scores in (("scores_a", scores_a), ("scores_b", scores_b)):
        try:
            values = scores if hasattr(scores, "dtype") else np.asarray(scores)
            if values.dtype.kind in "SUVc" or values.dtype.kind == "O" and any(
                    isinstance(v, (str, bytes, complex)) for v in np.ravel(values)):
                raise TypeError("strings or complex numbers")
            if values.dtype.kind == "O" and not hasattr(values, "to_numpy"):
                import pandas as pd  # pandas' NA (and None) in an array: NaN

                values = np.where(pd.isna(values), np.nan, values)
            values = (values.to_numpy(dtype=np.float64, na_value=np.nan)
                      if hasattr(values, "to_numpy")  # pandas NA: NaN
                      else np.asarray(values, dtype=np.float64))
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must hold numbers (one metric value per "
                            f"group); got {scores!r:.80}.") from exc
        if values.ndim != 1:
            raise ValueError(f"{name} must be 1-D (one value per group), got "
                             f"shape {values.shape}.")
        if np.isinf(values).any():
            raise ValueError(f"{name} holds infinite values; per-group metric "
                             f"values are finite or NaN (undefined).")
        arrays.append(values)
    a, b = arrays
    if a.shape != b.shape:
        raise ValueError(
            f"scores_a and scores_b must hold the same groups in the same order; "
            f"got {a.shape[0]} and {b.shape[0]} values.")
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    one_sided = nan_a != nan_b
    if one_sided.any():
        where = np.flatnonzero(one_sided)
        raise ValueError(
            f"{where.size} groups are NaN (undefined) for one ranker only, "
            f"first at position {where[0]}: compute both arrays on the same "
            f"rows, labels, groups and k (a group's metric is undefined by its "
            f"labels alone), or drop those groups from both before comparing.")
    defined = ~nan_a
    with np.errstate(over="ignore"):
        diff = a[defined] - b[defined]
        if not np.isfinite(np.sum(diff * diff)):  # the variance's sums too
            raise ValueError(
                "scores_a and scores_b hold values whose differences overflow "
                "(their squares beyond float64's range); per-group metric "
                "values are small numbers (pAp@k lies in [0, 1]): pass the "
                "metrics' values, not raw scores.")
    if diff.shape[0] < 2:
        raise ValueError(
            f"paired_comparison needs at least 2 groups defined for both "
            f"rankers (a standard error needs two), got {diff.shape[0]}.")
    return diff, int(np.count_nonzero(nan_a))


def _chunk_rows(n):
    """Resamples per chunk: ``rows * n`` float64 values stay within 8 MiB."""
    return max(1, _CHUNK_VALUES // n)


def _sign_flip_pvalue(diff, n_resamples, rng):
    """Two-sided sign-flip p-value: ``(pvalue, n_flips, exact)``."""
    n = diff.shape[0]
    observed = abs(diff.sum())
    # Sums of the same values in another order differ by rounding only.
    tol = 64 * np.finfo(np.float64).eps * np.abs(diff).sum()
    exact = n < 63 and 2**n <= n_resamples
    n_flips = 2**n if exact else n_resamples
    rows = _chunk_rows(n)
    hits = 0
    bits = np.arange(n, dtype=np.int64)
    for start in range(0, n_flips, rows):
        size = min(rows, n_flips - start)
        if exact:  # flip number m: bit j of m flips group j
            flips = np.arange(start, start + size, dtype=np.int64)[:, None]
            signs = 1.0 - 2.0 * ((flips >> bits) & 1)
        else:
            signs = 1.0 - 2.0 * rng.randint(0, 2, size=(size, n))
        hits += int(np.count_nonzero(np.abs(signs @ diff) >= observed - tol))
    if exact:
        return hits / n_flips, n_flips, True
    return (hits + 1) / (n_resamples + 1), n_flips, False


def _bootstrap_means(diff, rng, means):
    """``means`` filled with the means of as many resamples of ``diff`` with
    replacement."""
    n, n_resamples = diff.shape[0], means.shape[0]
    rows = _chunk_rows(n)
    for start in range(0, n_resamples, rows):
        size = min(rows, n_resamples - start)
        means[start:start + size] = diff[rng.randint(0, n, size=(size, n))].mean(1)
    return means
