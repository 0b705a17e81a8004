"""Scale benchmark: a fit on 1,000,000 x 100 dense and sparse data, and
``partial_fit`` over chunks of whole groups against ``fit``.

For a dense float64 matrix and a CSR matrix of the same shape at
``--density`` (1%) it prints:

- seconds per epoch of ``PApKRanker.fit`` (``--epochs`` epochs,
  ``tol=None``), timed without tracing;
- the peak memory the fit allocates, by ``tracemalloc`` (numpy reports its
  buffers to it), against the size of ``X``, from a second, traced fit;
- the growth of the process's maximum resident set size over the fit
  (``resource.getrusage``): 0 when the fit stays under the peak reached
  while making the data, so a bound rather than a measure;
- ``partial_fit`` over ``--chunks`` chunks of whole groups for ``--passes``
  passes (one step per chunk: ``chunks * passes`` steps of one chunk each)
  against ``fit`` with the same number of full-batch steps: time and the
  micro-pAp@k of a held-out test set of fresh groups.

The data: groups of ``--group-size`` rows, 20% relevant; relevant rows are
shifted by -0.15 in every feature (dense: 1.5 standard deviations along
the diagonal) or by -1 in every stored value (CSR, about one value a row).
Others may run benchmarks on the same machine: the load average is printed
before and after.

Run ``python -m benchmarks.timing.bench_scale`` (defaults: 1e6 rows, 100 features,
1% density, 5 epochs, 10 chunks, 1 pass).
"""

import argparse
import os
import resource
import time
import tracemalloc
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from skpapk import PApKRanker
from skpapk.metrics import expected_papk_score

from .._common import (
    float_count,
    fraction,
    header,
    non_negative_float,
    positive_float,
    positive_int,
)


def make_data(n_rows, n_features, group_size, *, density=None, seed=0):
    """Contiguous groups of ``group_size`` rows (the last may be shorter)."""
    rng = np.random.default_rng(seed)
    groups = np.arange(n_rows) // group_size
    y = rng.random(n_rows) < 0.2
    if density is None:
        X = rng.standard_normal((n_rows, n_features))
        X[y] -= 0.15
        return X, y, groups
    X = sp.random(n_rows, n_features, density=density, format="csr",
                  random_state=rng, data_rvs=rng.standard_normal)
    row_of_value = np.repeat(np.arange(n_rows), np.diff(X.indptr))
    X.data[y[row_of_value]] -= 1.0
    return X, y, groups


def nbytes(X):
    if sp.issparse(X):
        return X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
    return X.nbytes


def maxrss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def bench_fit(X, y, groups, args):
    params = dict(k=args.k, eta0=args.eta0, alpha=args.alpha, tol=None,
                  max_iter=args.epochs)
    rss_before = maxrss_mib()
    start = time.perf_counter()
    ranker = PApKRanker(args.surrogate, **params).fit(X, y, groups=groups)
    seconds = time.perf_counter() - start
    rss_growth = maxrss_mib() - rss_before
    tracemalloc.start()
    try:
        traced = PApKRanker(args.surrogate, **params).fit(X, y, groups=groups)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert np.array_equal(traced.coef_, ranker.coef_)  # deterministic
    return seconds, peak, rss_growth


def chunk_bounds(groups, n_chunks):
    """Row ranges of ``n_chunks`` chunks of whole (contiguous) groups."""
    n_groups = int(groups[-1]) + 1
    cut_groups = np.linspace(0, n_groups, n_chunks + 1).round().astype(int)
    return np.searchsorted(groups, cut_groups)


def bench_partial_fit(X, y, groups, test, args):
    n_steps = args.chunks * args.passes
    params = dict(k=args.k, eta0=args.eta0, alpha=args.alpha)
    bounds = chunk_bounds(groups, args.chunks)
    start = time.perf_counter()
    streamed = PApKRanker(args.surrogate, **params)
    for _ in range(args.passes):
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            # dense: a view, no copy; CSR: a copy of the chunk's rows
            streamed.partial_fit(X[lo:hi], y[lo:hi], groups=groups[lo:hi])
    t_partial = time.perf_counter() - start
    start = time.perf_counter()
    batch = PApKRanker(args.surrogate, max_iter=n_steps, tol=None, **params).fit(
        X, y, groups=groups)
    t_fit = time.perf_counter() - start
    X_test, y_test, g_test = test
    return (n_steps, t_partial, streamed.score(X_test, y_test, groups=g_test),
            t_fit, batch.score(X_test, y_test, groups=g_test))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-rows", type=float_count, default=1e6)
    parser.add_argument("--n-features", type=positive_int, default=100)
    parser.add_argument("--density", type=fraction, default=0.01)
    parser.add_argument("--epochs", type=positive_int, default=5)
    parser.add_argument("--chunks", type=positive_int, default=10)
    parser.add_argument("--passes", type=positive_int, default=1)
    parser.add_argument("--group-size", type=positive_int, default=200)
    parser.add_argument("--surrogate", default="avg")
    parser.add_argument("--k", type=positive_int, default=10)
    parser.add_argument("--eta0", type=positive_float, default=0.1)
    parser.add_argument("--alpha", type=non_negative_float, default=1e-3)
    args = parser.parse_args(argv)
    n_rows = int(args.n_rows)
    n_test = max(n_rows // 10, 2 * args.group_size)
    print(header("A fit on a million rows, dense and sparse"))
    print("```text")
    print(f"{n_rows} x {args.n_features}, groups of {args.group_size} rows, "
          f"{args.surrogate} surrogate, k={args.k}, eta0={args.eta0}, "
          f"alpha={args.alpha}; {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f}")
    warnings.simplefilter("ignore", ConvergenceWarning)
    for kind, density in [("dense float64", None), (f"CSR {args.density:.0%}",
                                                    args.density)]:
        X, y, groups = make_data(n_rows, args.n_features, args.group_size,
                                 density=density, seed=0)
        test = make_data(n_test, args.n_features, args.group_size,
                         density=density, seed=1)
        size = nbytes(X)
        seconds, peak, rss_growth = bench_fit(X, y, groups, args)
        print(f"\n{kind}: X is {size / 2**20:.0f} MiB")
        print(f"  fit, {args.epochs} epochs: {seconds:.2f} s "
              f"({seconds / args.epochs:.3f} s per epoch, validation included)")
        print(f"  peak memory allocated by fit (tracemalloc): {peak / 2**20:.1f} MiB "
              f"= {peak / size:.3f} x X")
        print(f"  growth of max RSS over fit: {rss_growth:.1f} MiB")
        n_steps, t_partial, s_partial, t_fit, s_fit = bench_partial_fit(
            X, y, groups, test, args)
        random = expected_papk_score(test[1], k=args.k, groups=test[2])
        print(f"  partial_fit, {args.passes} pass(es) over {args.chunks} chunks "
              f"({n_steps} steps): {t_partial:.2f} s, test micro-pAp@{args.k} "
              f"{s_partial:.4f}")
        print(f"  fit, {n_steps} full-batch steps: {t_fit:.2f} s, test "
              f"micro-pAp@{args.k} {s_fit:.4f} (random ranking {random:.4f})")
        del X, test
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")
    print("```")


if __name__ == "__main__":
    main()
