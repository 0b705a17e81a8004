"""Checks of the loss layer's public arguments, shared by every surrogate.

The surrogates' public methods take arrays (``y_pos``, ``scores``,
``codes``, ``n_groups``, ``sample_weight``) that the estimators have
checked once per fit; a direct call checks them here, in ``O(n)``, so that
a wrong argument is a ``ValueError``/``TypeError`` naming it, never a wrong
value or an error deep in numpy.
"""

import numbers

import numpy as np

#: The positive row weights that the losses take: with 1e180, soft_papk's
#: weighted sums overflowed to wrong values, inverse_variance's squared
#: masses to NaN, and with 1e-200 they underflowed to a division by zero.
WEIGHT_RANGE = (1e-30, 1e30)


def check_layout_inputs(y_pos, codes, n_groups, sample_weight):
    """``(y_pos, codes, n_groups, sample_weight)`` checked, as bool, intp, int
    and float64 (or None) arrays: what :func:`make_pair_layout` builds on.

    ``O(n)``: for the public entry points, which see unchecked arguments; the
    estimators build their layouts from checked data, once per fit.
    """
    if isinstance(n_groups, (bool, np.bool_)) or not isinstance(
            n_groups, numbers.Integral):
        raise TypeError(f"n_groups must be an int (the number of groups), got "
                        f"{n_groups!r}.")
    if n_groups < 0:
        raise ValueError(f"n_groups must be a non-negative int, got {n_groups}.")
    n_groups = int(n_groups)
    y_pos = np.asarray(y_pos)
    if y_pos.ndim != 1:
        raise ValueError(f"y_pos must be one-dimensional (one relevance per "
                         f"row), got shape {y_pos.shape}.")
    n = y_pos.shape[0]
    if y_pos.dtype.kind != "b":
        if (y_pos.dtype.kind not in "iuf"
                or not np.all((y_pos == 0) | (y_pos == 1))):  # NaN fails too
            raise (ValueError if y_pos.dtype.kind in "iuf" else TypeError)(
                f"y_pos must hold booleans or 0/1 (True or 1: relevant), got "
                f"an array of dtype {y_pos.dtype} with values "
                f"{few_values(y_pos)}."
            )
        y_pos = y_pos.astype(bool)
    codes = np.asarray(codes)
    if codes.shape != (n,):
        raise ValueError(f"codes has shape {codes.shape} but y_pos has {n} "
                         f"rows; pass one group code per row.")
    if codes.dtype.kind not in "iuf":
        raise TypeError(f"codes must hold integers (group codes in [0, "
                        f"n_groups)), got an array of dtype {codes.dtype}.")
    if codes.dtype.kind == "f" and not np.all(np.floor(codes) == codes):
        # (``astype`` truncated 0.2 and 0.9 to one group 0); a NaN fails
        # here, an infinity at the range below
        raise ValueError(f"codes must hold integers (group codes in [0, "
                         f"n_groups)), got values {few_values(codes)}.")
    if n and (codes.min() < 0 or codes.max() >= n_groups):
        raise ValueError(f"codes must be in [0, n_groups) = [0, {n_groups}), "
                         f"got codes from {codes.min():g} to {codes.max():g}; "
                         f"pass n_groups greater than every code.")
    codes = codes.astype(np.intp, copy=False)
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight)
        if sample_weight.shape != (n,):
            raise ValueError(f"sample_weight has shape {sample_weight.shape} "
                             f"but y_pos has {n} rows; pass one weight per row.")
        if sample_weight.dtype.kind not in "biuf":
            raise TypeError(f"sample_weight must hold numbers, got an array "
                            f"of dtype {sample_weight.dtype}.")
        sample_weight = sample_weight.astype(np.float64, copy=False)
        check_weight_values(sample_weight, "sample_weight")
    return y_pos, codes, n_groups, sample_weight


def check_weight_values(weight, name):
    """Fail unless the row weights ``weight`` (float, named ``name``) are
    finite, non-negative and, where positive, within :data:`WEIGHT_RANGE`."""
    if not np.all(np.isfinite(weight)) or np.any(weight < 0):
        raise ValueError(f"{name} must hold finite non-negative values "
                         f"(frequency weights of the rows).")
    # compared as float32, LightGBM's: a weight it rounds to an end passes,
    # here and when LightGBM hands it back to the objective
    with np.errstate(over="ignore"):  # beyond float32: inf, refused below
        positive = weight[weight > 0].astype(np.float32)
    low, high = np.float32(WEIGHT_RANGE[0]), np.float32(WEIGHT_RANGE[1])
    if positive.size and not (low <= positive.min() and positive.max() <= high):
        wrong = weight[weight > 0]
        wrong = wrong.min() if positive.min() < low else wrong.max()
        raise ValueError(
            f"{name} holds {wrong:.9g}, but the losses take weights from "
            f"{WEIGHT_RANGE[0]:g} to {WEIGHT_RANGE[1]:g} (or 0): their "
            f"products and squares must stay finite. Rescale them, e.g. "
            f"divide them by their mean.")


def few_values(a, n=10):
    """The first ``n`` distinct values of ``a``, as a list (for messages)."""
    values = np.unique(a)
    return values[:n].tolist() + (["..."] if values.shape[0] > n else [])


def check_scores(scores, n):
    """``scores`` as float64, checked: ``n`` finite values."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.shape != (n,):
        raise ValueError(f"scores has shape {scores.shape} but there are {n} "
                         f"rows; pass one score per row.")
    if not np.all(np.isfinite(scores)):
        raise ValueError("scores must be finite (no NaN or infinity).")
    return scores
