"""Compiled per-group sums of the pairwise logistic loss (numba).

The smooth surrogates of :mod:`skpapk.losses._smooth` reduce to, for every
group (user) and every kept (relevant ``i``, irrelevant ``j``) pair,
``l(s_i - s_j) = log(1 + exp(-(s_i - s_j)))`` weighted by ``u_i v_j``. This
module computes, for every row, the weighted sums over its pairs of the
loss, of ``sigma(s_j - s_i)`` (minus the derivative of ``l``) and of
``sigma (1 - sigma)`` (its second derivative), in one pass over each group's
pairs, with no pair matrix and no Python loop over groups.

A pair costs one division and a few additions: with ``e = exp(s - m)``
(``m`` the group's highest score, so that ``0 < e <= 1``),
``sigma(s_j - s_i) = e_j / (e_i + e_j)``, ``sigma (1 - sigma) = e_i e_j /
(e_i + e_j)^2`` and ``l = log1p(e_j / e_i)`` (computed only when the loss
value is needed; a relevant row's sum of losses against equally weighted
irrelevant rows takes one logarithm of a product of many ``1 + e_j /
e_i``, see :func:`_log1p_sum`). Groups whose scores span more than 700
(where ``e`` would underflow) are computed pair by pair from the score
differences instead.

The kernels release the GIL (``nogil=True``): :func:`pair_sums` runs blocks
of whole groups, balanced by their number of pairs, in a pool of threads.
Every group is summed by one thread in a fixed order, so the sums do not
depend on the number of threads. The pair loop runs in SIMD lanes (its
sums reassociated, see :func:`_sums_from_exp`): they equal the sequential
sums to a few units in the last place, and depend on the CPU's vector
width, not on the threads. Compiled code is cached on disk (numba's
``cache=True``: in ``NUMBA_CACHE_DIR`` when set, else beside this file,
else in ``~/.cache/numba``): the compilation is paid once per machine; where no
such folder can be written (a read-only install and home), every process
compiles the kernels again (see :func:`_compiled`).

Truncation (``truncation_level = T``): in a group with more than ``T``
relevant and more than ``T`` irrelevant rows, only the pairs with the
relevant row among the group's ``T`` highest scored relevant rows, or the
irrelevant row among its ``T`` highest scored irrelevant rows, are kept
(ties broken by row order): ``T (n+ + n- - T)`` pairs instead of
``n+ n-``. Groups with at most ``T`` rows of one label keep every pair.
"""

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from ..utils._parallel import effective_n_threads


def _compiled(**options):
    """``numba.njit(cache=True, **options)``, or without the disk cache
    where numba finds no folder to write it to (it raises then, at
    decoration: a read-only install whose home is read-only too); set
    ``NUMBA_CACHE_DIR`` to a writable folder to keep the cache there."""
    def decorate(function):
        try:
            return njit(cache=True, **options)(function)
        except RuntimeError as exc:
            if "cannot cache" not in str(exc):  # pragma: no cover
                raise
            return njit(**options)(function)
    return decorate


#: Score spread beyond which ``exp(s - max)`` could underflow: such groups
#: are summed from the score differences (slower, exact).
_SPREAD_LIMIT = 700.0


@_compiled(nogil=True, error_model="numpy", fastmath={"reassoc"})
def _sums_from_exp(ep, up, en, vn, n_pos, n_neg, top, need_loss, need_hess,
                   Lp, S1p, S2p, Ln, S1n, S2n):
    """Pair sums of one group from ``e = exp(s - max)`` (local arrays).

    Compiled with ``error_model="numpy"`` (no division-by-zero check:
    ``e_i + e_j > 0``) and reassociation allowed, so that the sums over a
    relevant row's pairs run in SIMD lanes (about 1.7x faster): they are
    then added in an order that depends on the vector width of the CPU,
    equal to the sequential sums to a few units in the last place.

    Relevant row ``a`` is paired with the irrelevant rows ``b <
    n_neg`` when ``a < top``, else with ``b < top`` (the caller sorts the
    rows by decreasing score when it truncates; ``top >= n_pos`` keeps
    every pair).
    """
    equal_v = True
    for b in range(1, n_neg):
        if vn[b] != vn[0]:
            equal_v = False
            break
    for a in range(n_pos):
        ei = ep[a]
        ua = up[a]
        n_b = n_neg if a < top else top
        acc1 = 0.0
        acc2 = 0.0
        if need_hess:
            for b in range(n_b):
                ej = en[b]
                d = 1.0 / (ei + ej)
                p = ej * d
                q = p * ei * d
                acc1 += vn[b] * p
                S1n[b] += ua * p
                acc2 += vn[b] * q
                S2n[b] += ua * q
        else:
            for b in range(n_b):
                ej = en[b]
                p = ej * (1.0 / (ei + ej))  # rounded as with the Hessian
                acc1 += vn[b] * p
                S1n[b] += ua * p
        S1p[a] = acc1
        S2p[a] = acc2
        if need_loss == 0:
            continue
        inv = 1.0 / ei
        if need_loss == 1 and equal_v:
            Lp[a] = vn[0] * _log1p_sum(en, inv, n_b)
            continue
        accl = 0.0
        for b in range(n_b):
            loss = math.log1p(en[b] * inv)
            accl += vn[b] * loss
            if need_loss == 2:
                Ln[b] += ua * loss
        Lp[a] = accl


@_compiled(nogil=True)
def _log1p_sum(en, inv, n_b):
    """``sum_b log1p(en[b] * inv)`` with one logarithm per many terms.

    The terms above 1e-4 are multiplied together (``log(prod(1 + t))``,
    the product taken to its logarithm before it could overflow); the
    smaller ones are summed as ``t - t^2 / 2 + t^3 / 3`` (relative error
    below 3e-13 each), where ``1 + t`` would lose digits.
    """
    prod = 1.0
    total = 0.0
    for b in range(n_b):
        t = en[b] * inv
        if t < 1e-4:
            total += t * (1.0 - t * (0.5 - t / 3.0))
        elif t > 1e100:
            total += math.log1p(t)
        else:
            prod *= 1.0 + t
            if prod > 1e200:
                total += math.log(prod)
                prod = 1.0
    return total + math.log(prod)


@_compiled(nogil=True)
def _sums_from_differences(sp, up, sn, vn, n_pos, n_neg, top, need_loss,
                           need_hess, Lp, S1p, S2p, Ln, S1n, S2n):
    """Pair sums of one group from the score differences (any spread)."""
    for a in range(n_pos):
        si = sp[a]
        ua = up[a]
        n_b = n_neg if a < top else top
        acc1 = 0.0
        acc2 = 0.0
        accl = 0.0
        for b in range(n_b):
            z = si - sn[b]
            t = math.exp(-abs(z))
            # sigma(-z) from one exp, stable on both sides
            p = t / (1.0 + t) if z >= 0 else 1.0 / (1.0 + t)
            acc1 += vn[b] * p
            S1n[b] += ua * p
            if need_hess:
                q = t / ((1.0 + t) * (1.0 + t))  # sigma(z) sigma(-z)
                acc2 += vn[b] * q
                S2n[b] += ua * q
            if need_loss:
                loss = max(-z, 0.0) + math.log1p(t)
                accl += vn[b] * loss
                if need_loss == 2:
                    Ln[b] += ua * loss
        S1p[a] = acc1
        S2p[a] = acc2
        Lp[a] = accl


@_compiled(nogil=True)
def _block_sums(g_lo, g_hi, pos_start, n_pos, neg_start, n_neg, defined, s,
                order, u, v, coef, truncation, need_loss, need_hess, L, S1, S2):
    """The pair sums of the groups ``[g_lo, g_hi)`` into ``L``, ``S1``, ``S2``.

    ``u``, ``v`` and ``coef`` are in the layout's row order (each group's
    relevant rows, then its irrelevant rows); the score of layout row ``r``
    is ``s[order[r]]``. Without ``coef`` (empty), the outputs are in the
    layout's order; with it, ``S1`` and ``S2`` are in the rows' own order
    and hold ``coef * S1`` and ``|coef| * S2`` (a gradient and a Hessian),
    row ``order[r]`` getting layout row ``r``'s. Rows of undefined groups
    are left untouched (zero).
    """
    scaled = coef.shape[0] > 0
    width = 1
    for g in range(g_lo, g_hi):
        if defined[g]:
            width = max(width, n_pos[g], n_neg[g])
    xp = np.empty(width)
    wp = np.empty(width)
    xn = np.empty(width)
    wn = np.empty(width)
    Lp = np.zeros(width)
    S1p = np.zeros(width)
    S2p = np.zeros(width)
    Ln = np.zeros(width)
    S1n = np.zeros(width)
    S2n = np.zeros(width)
    ip = np.empty(width, dtype=np.intp)
    jn = np.empty(width, dtype=np.intp)
    for g in range(g_lo, g_hi):
        if not defined[g]:
            continue
        ps, npos, ns, nneg = pos_start[g], n_pos[g], neg_start[g], n_neg[g]
        hi = -np.inf
        lo = np.inf
        for a in range(npos):
            xp[a] = s[order[ps + a]]
            hi = max(hi, xp[a])
            lo = min(lo, xp[a])
        for b in range(nneg):
            xn[b] = s[order[ns + b]]
            hi = max(hi, xn[b])
            lo = min(lo, xn[b])
        truncated = 0 < truncation < npos and truncation < nneg
        if truncated:  # rows by decreasing score (stable: ties by row order)
            ip[:npos] = ps + np.argsort(-xp[:npos], kind="mergesort")
            jn[:nneg] = ns + np.argsort(-xn[:nneg], kind="mergesort")
            top = truncation
        else:
            for a in range(npos):
                ip[a] = ps + a
            for b in range(nneg):
                jn[b] = ns + b
            top = npos
        direct = hi - lo > _SPREAD_LIMIT
        for a in range(npos):
            r = ip[a]
            score = s[order[r]]
            xp[a] = score if direct else math.exp(score - hi)
            wp[a] = u[r]
        for b in range(nneg):
            r = jn[b]
            score = s[order[r]]
            xn[b] = score if direct else math.exp(score - hi)
            wn[b] = v[r]
            S1n[b] = 0.0
            S2n[b] = 0.0
            Ln[b] = 0.0
        if direct:
            _sums_from_differences(xp, wp, xn, wn, npos, nneg, top, need_loss,
                                   need_hess, Lp, S1p, S2p, Ln, S1n, S2n)
        else:
            _sums_from_exp(xp, wp, xn, wn, npos, nneg, top, need_loss,
                           need_hess, Lp, S1p, S2p, Ln, S1n, S2n)
        _write_rows(ip, npos, need_loss > 0, Lp, S1p, S2p, order, coef,
                    scaled, need_hess, L, S1, S2)
        _write_rows(jn, nneg, need_loss == 2, Ln, S1n, S2n, order, coef,
                    scaled, need_hess, L, S1, S2)


@_compiled(nogil=True)
def _write_rows(rows, n, write_loss, Lg, S1g, S2g, order, coef, scaled,
                need_hess, L, S1, S2):
    """One label's sums of a group into the outputs: layout row
    ``rows[i]`` gets entry ``i``; with ``scaled``, ``coef * S1`` and
    ``|coef| * S2`` go to the row's own place ``order[rows[i]]``."""
    for i in range(n):
        r = rows[i]
        if write_loss:
            L[r] = Lg[i]
        if scaled:
            S1[order[r]] = coef[r] * S1g[i]
            if need_hess:
                S2[order[r]] = abs(coef[r]) * S2g[i]
        else:
            S1[r] = S1g[i]
            if need_hess:
                S2[r] = S2g[i]


def kept_pairs(n_pos, n_neg, defined, truncation):
    """Number of pairs each group keeps (0 for undefined groups).

    Parameters
    ----------
    n_pos, n_neg : ndarray of int of shape (n_groups,)
    defined : ndarray of bool of shape (n_groups,)
    truncation : int
        ``T > 0``, or 0 for every pair.

    Returns
    -------
    pairs : ndarray of int64 of shape (n_groups,)
    """
    n_pos = n_pos.astype(np.int64)
    n_neg = n_neg.astype(np.int64)
    pairs = n_pos * n_neg
    if truncation > 0:
        cut = (n_pos > truncation) & (n_neg > truncation)
        pairs = np.where(cut, truncation * (n_pos + n_neg - truncation), pairs)
    return np.where(defined, pairs, 0)


#: Work (kept pairs plus rows) that one more thread needs to pay for itself:
#: starting the threads of a call costs about 0.5 ms, a pair about 1 ns (a
#: boosted fit of 10,000 rows spent 3x longer with 2 threads than with 1).
MIN_WORK_PER_THREAD = 1 << 20


def _blocks(cost, n_blocks):
    """Split groups into at most ``n_blocks`` contiguous runs of equal cost."""
    n_groups = cost.shape[0]
    if n_blocks <= 1 or n_groups <= 1:
        return [(0, n_groups)]
    cumulative = np.cumsum(cost, dtype=np.float64)
    targets = cumulative[-1] * np.arange(1, n_blocks) / n_blocks
    cuts = np.searchsorted(cumulative, targets, side="left") + 1
    edges = np.unique(np.concatenate(([0], np.minimum(cuts, n_groups),
                                      [n_groups])))
    return list(zip(edges[:-1].tolist(), edges[1:].tolist()))


def pair_sums(layout, s, u, v, *, truncation=0, loss="both", need_hess=True,
              n_threads=None, scores=None, coef=None):
    """Per-row sums over the kept pairs of every defined group.

    Parameters
    ----------
    layout : PairLayout
        Rows gathered by group and label (:func:`make_pair_layout`).
    s, u, v : ndarray of float64 of shape (n_samples,)
        Scores and pair weights, in ``layout.order``: ``u`` on relevant rows,
        ``v`` on irrelevant rows.
    truncation : int, default=0
        ``T > 0`` keeps the pairs with a row among its group's top ``T`` of
        its label (see the module docstring); 0 keeps every pair.
    loss : {"both", "relevant", None}, default="both"
        Rows whose loss sums ``L`` are computed: every row, the relevant
        rows only (enough for the loss value), or none (the gradient and
        Hessian need no logarithm).
    need_hess : bool, default=True
        Whether to compute ``S2``.
    n_threads : int or None, default=None
        Most threads; ``None``: the OpenMP threads this process may use.
        Fewer when the work is small (:data:`MIN_WORK_PER_THREAD` kept
        pairs and rows a thread): the result is the same bit for bit.
    scores : ndarray of float64 of shape (n_samples,), default=None
        The scores in the rows' own order, in place of ``s`` (``None``):
        the kernel gathers them (``scores[layout.order]``), in parallel.
    coef : ndarray of float64 of shape (n_samples,), default=None
        Per-row factors in ``layout.order``: ``S1`` and ``S2`` are then
        returned as ``coef * S1`` and ``|coef| * S2`` in the rows' own order
        (the scatter done by the kernel, in parallel).

    Returns
    -------
    L : ndarray of float64 of shape (n_samples,) or None
        Relevant row ``i``: ``sum_j v_j l(s_i - s_j)``; irrelevant row
        ``j``: ``sum_i u_i l(s_i - s_j)`` (0 with ``loss="relevant"``).
    S1 : ndarray of float64 of shape (n_samples,)
        The same sums of ``sigma(s_j - s_i) = -l'(s_i - s_j)``.
    S2 : ndarray of float64 of shape (n_samples,) or None
        The same sums of ``l''(s_i - s_j)``.
    """
    if scores is None:
        order = layout.cache.get("identity")
        if order is None:
            order = layout.cache["identity"] = np.arange(s.shape[0])
    else:
        s, order = scores, layout.order
    n = s.shape[0]
    coef = np.empty(0) if coef is None else coef
    loss_mode = {None: 0, "relevant": 1, "both": 2}[loss]
    L = np.zeros(n if loss_mode else 0)
    # the kernel writes every row of a defined group
    fill = np.empty if layout.n_defined == layout.n_groups else np.zeros
    S1 = fill(n)
    S2 = fill(n if need_hess else 0)
    args = (layout.pos_start, layout.n_pos, layout.neg_start, layout.n_neg,
            layout.defined, s, order, u, v, coef, int(truncation), loss_mode,
            bool(need_hess), L, S1, S2)
    n_threads = effective_n_threads(n_threads)
    key = ("blocks", int(truncation), n_threads, MIN_WORK_PER_THREAD)
    cached = layout.cache.get(key)
    if cached is None:
        cost = kept_pairs(layout.n_pos, layout.n_neg, layout.defined,
                          truncation) + layout.n_pos + layout.n_neg
        # no more threads than the work pays for; a few blocks per thread
        # even out groups of unequal cost
        n_used = int(min(n_threads, max(1, cost.sum() // MIN_WORK_PER_THREAD)))
        cached = layout.cache[key] = (
            _blocks(cost, 1 if n_used == 1 else 4 * n_used), n_used)
    blocks, n_used = cached
    if len(blocks) == 1:
        _block_sums(*blocks[0], *args)
    else:
        with ThreadPoolExecutor(max_workers=n_used) as pool:
            for future in [pool.submit(_block_sums, lo, hi, *args)
                           for lo, hi in blocks]:
                future.result()
    return (L if loss_mode else None), S1, (S2 if need_hess else None)


@_compiled(nogil=True)
def segment_cumsum(values, starts):
    """Inclusive prefix sums of ``values`` that restart at every group:
    ``out[i] = values[starts[g]] + ... + values[i]`` for ``starts[g] <= i <
    starts[g + 1]``. Each group is summed alone, so that its sums do not
    carry the rounding of the groups before it (a global ``cumsum`` minus
    its value at the group's start does, and loses every digit of a group
    of small values after one of huge ones).

    Examples
    --------
    >>> import numpy as np
    >>> from skpapk.losses._pair_kernels import segment_cumsum
    >>> segment_cumsum(np.array([1e17, 1.0, 0.5, 0.25]), np.array([0, 2, 4]))
    array([1.00e+17, 1.00e+17, 5.00e-01, 7.50e-01])
    """
    out = np.empty_like(values)
    for g in range(starts.shape[0] - 1):
        total = 0.0
        for i in range(starts[g], starts[g + 1]):
            total += values[i]
            out[i] = total
    return out
