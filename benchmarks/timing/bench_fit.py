"""Benchmark of the pAp@k rankers' training epochs.

For dense synthetic data at MovieLens scale (41,662 x 90, 591 groups) and
Behance scale (670,000 x 150, 2,500 groups, 17% positives) it prints, for
each surrogate:

- seconds per epoch of ``PApKRanker.fit`` (best of ``--repeats`` runs of
  ``--epochs`` epochs, ``tol=None``);
- the ratio to the time of ``X @ w`` plus ``X.T @ c`` measured in the same
  run on the same arrays (target <= 3);
- the speed-up over two straightforward per-group Python loops written here:
  ``mask`` filters the rows of each user with a boolean mask, as the paper's
  code does with pandas; ``split`` loops over pre-split row indices (target
  >= 100x over the straightforward loop at Behance scale);
- the peak memory a fit allocates (tracemalloc) against ``X.nbytes``, and
  the process's maximum resident set size.

Run ``python -m benchmarks.timing.bench_fit --scale both``.
"""

import argparse
import resource
import time
import tracemalloc
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from skpapk import PApKRanker
from skpapk.losses import SURROGATES

from .._common import header, positive_int

SCALES = {
    "movielens": dict(n_samples=41_662, n_features=90, n_groups=591, pos_rate=0.2),
    "behance": dict(n_samples=670_000, n_features=150, n_groups=2_500, pos_rate=0.17),
}
NAMES = ["avg", "max", "ts", "ramp"]


def make_data(n_samples, n_features, n_groups, pos_rate, seed=0):
    rng = np.random.default_rng(seed)
    groups = np.sort(rng.integers(0, n_groups, n_samples))
    rng.shuffle(groups)  # rows of a group are scattered, as in real logs
    y = rng.random(n_samples) < pos_rate
    X = rng.standard_normal((n_samples, n_features))
    X[y] -= 0.3
    return X, y, groups


def best_time(func, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


# --- a straightforward per-group implementation (the baseline) -------------

def _naive_group(name, Xg, yg, w, k):
    """Value and gradient of one group's surrogate with a pair matrix."""
    s = Xg @ w
    pos, neg = np.flatnonzero(yg), np.flatnonzero(~yg)
    if len(pos) == 0 or len(neg) == 0:
        return None
    beta, kp = min(k, len(pos)), min(k, len(neg))
    top_neg = neg[np.argsort(-s[neg], kind="stable")[:kp]]
    pos_sorted = pos[np.argsort(-s[pos], kind="stable")]
    if name == "avg":
        mean_x = Xg[pos].mean(axis=0)
        hinge = 1 + s[top_neg] - s[pos].mean()
        active = hinge >= 0
        value = np.maximum(hinge, 0).sum() / kp
        grad = (Xg[top_neg[active]] - mean_x).sum(axis=0) / kp
        return value, grad
    if name == "max":
        rows, margin = pos_sorted[-beta:], np.ones(beta)
    elif name == "ramp":
        rows, margin = pos_sorted[:beta], np.ones(beta)
    else:  # ts
        rows = pos_sorted
        margin = (np.arange(len(rows)) < beta).astype(float)
    hinge = margin[:, None] - s[rows][:, None] + s[top_neg][None, :]
    active = hinge >= 0
    value = np.maximum(hinge, 0).sum() / (beta * kp)
    grad = (active.sum(axis=0) @ Xg[top_neg] - active.sum(axis=1) @ Xg[rows])
    return value, grad / (beta * kp)


def naive_epoch(name, X, y, groups, w, k, *, split=None):
    """One epoch's value and gradient, looping over the groups in Python."""
    value, grad, n_used = 0.0, np.zeros(X.shape[1]), 0
    labels = np.unique(groups)
    for i, label in enumerate(labels):
        rows = split[i] if split is not None else groups == label
        out = _naive_group(name, X[rows], y[rows], w, k)
        if out is not None:
            value += out[0]
            grad += out[1]
            n_used += 1
    return value / n_used, grad / n_used


def check_naive_agrees(name, X, y, groups, k):
    rng = np.random.default_rng(1)
    w = rng.standard_normal(X.shape[1]) * 0.1
    value, grad = naive_epoch(name, X, y, groups, w, k)
    codes = np.unique(groups, return_inverse=True)[1]
    ours, coef, _ = SURROGATES[name]().loss_gradient(y, X @ w, codes,
                                                     codes.max() + 1, k)
    assert np.isclose(value, ours, rtol=1e-9), (name, value, ours)
    assert np.allclose(grad, X.T @ coef, rtol=1e-7, atol=1e-9), name


def run(scale, epochs, repeats, k, naive_epochs):
    cfg = SCALES[scale]
    X, y, groups = make_data(**cfg)
    print(f"\n== {scale}: X {X.shape} float64 ({X.nbytes / 2**20:.0f} MiB), "
          f"{cfg['n_groups']} groups, {y.mean():.0%} positives, k={k}")
    rng = np.random.default_rng(0)
    w, c = rng.standard_normal(X.shape[1]), rng.standard_normal(X.shape[0])
    t_matvec = best_time(lambda: (X @ w, X.T @ c), repeats * 3)
    print(f"X @ w + X.T @ c: {t_matvec:.4f} s")

    labels, codes = np.unique(groups, return_inverse=True)
    order = np.argsort(codes, kind="stable")
    split = np.split(order, np.cumsum(np.bincount(codes))[:-1])
    print(f"{'surrogate':>9} {'s/epoch':>8} {'ratio':>6} {'mask loop s':>11} "
          f"{'speed-up':>8} {'split loop s':>12} {'speed-up':>8}")
    results = {}
    for name in NAMES:
        check_naive_agrees(name, X[:20000], y[:20000], groups[:20000], k)
        ranker = PApKRanker(name, k=k, max_iter=epochs, tol=None)
        t_fit = best_time(lambda: ranker.fit(X, y, groups=groups), repeats) / epochs
        w0 = ranker.coef_ * 0.5
        t_mask = best_time(lambda: naive_epoch(name, X, y, groups, w0, k),
                           naive_epochs)
        t_split = best_time(lambda: naive_epoch(name, X, y, groups, w0, k,
                                                split=split), naive_epochs)
        results[name] = (t_fit, t_fit / t_matvec, t_mask, t_split)
        print(f"{name:>9} {t_fit:8.4f} {t_fit / t_matvec:6.2f} {t_mask:11.3f} "
              f"{t_mask / t_fit:7.0f}x {t_split:12.3f} {t_split / t_fit:7.0f}x")

    tracemalloc.start()
    PApKRanker("ts", k=k, max_iter=2, tol=None).fit(X, y, groups=groups)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak memory allocated by a fit (ts, tracemalloc): {peak / 2**20:.1f} "
          f"MiB = {peak / X.nbytes:.3f} x X.nbytes")
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
    print(f"process max RSS so far: {maxrss:.0f} MiB (X is "
          f"{X.nbytes / 2**20:.0f} MiB)")
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=["movielens", "behance", "both"],
                        default="both")
    parser.add_argument("--epochs", type=positive_int, default=20)
    parser.add_argument("--repeats", type=positive_int, default=3)
    parser.add_argument("--naive-repeats", type=positive_int, default=1)
    parser.add_argument("-k", type=positive_int, default=10)
    args = parser.parse_args()
    warnings.simplefilter("ignore", ConvergenceWarning)
    scales = ["movielens", "behance"] if args.scale == "both" else [args.scale]
    print(header("Training epochs of the linear rankers"))
    print("```text")
    for scale in scales:
        run(scale, args.epochs, args.repeats, args.k, args.naive_repeats)
    print("```")


if __name__ == "__main__":
    main()
