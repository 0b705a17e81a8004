"""Benchmark: micro-pAp@k on many rows and groups, against np.argsort.

Run::

    python -m benchmarks.timing.bench_metrics --n-rows 1000000 --n-groups 10000 --k 10

Prints the best-of-``--repeat`` wall time of ``papk_score`` (validation
included), its rows/s, the time of ``np.argsort`` on the same scores (the
yardstick: one sort is the least a per-group ranking metric must do) and the
ratio of the two. The target is a ratio under 3. ``--decimals`` rounds the
scores, so that many of them tie.
"""

import argparse
import time

import numpy as np

from skpapk.metrics import papk_score

from .._common import header, non_negative_int, positive_int


def best_times(funcs, repeat):
    """Best wall time of each function, the calls interleaved (fairer on a
    busy machine than timing one function after the other)."""
    best = [np.inf] * len(funcs)
    for _ in range(repeat):
        for i, func in enumerate(funcs):
            start = time.perf_counter()
            func()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-rows", type=positive_int, default=1_000_000)
    parser.add_argument("--n-groups", type=positive_int, default=10_000)
    parser.add_argument("--k", type=positive_int, default=10)
    parser.add_argument("--repeat", type=positive_int, default=5)
    parser.add_argument("--ties", choices=["random", "half", "error"],
                        default="random")
    parser.add_argument("--decimals", type=int, default=None,
                        help="round the scores to this many decimals (ties)")
    parser.add_argument("--seed", type=non_negative_int, default=0)
    args = parser.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    groups = rng.integers(0, args.n_groups, size=args.n_rows)
    y = (rng.random(args.n_rows) < 0.2).astype(np.int64)
    scores = rng.normal(size=args.n_rows) + y
    if args.decimals is not None:
        scores = np.round(scores, args.decimals)

    value = papk_score(y, scores, k=args.k, groups=groups, ties=args.ties)
    t_papk, t_sort = best_times(
        [lambda: papk_score(y, scores, k=args.k, groups=groups, ties=args.ties),
         lambda: np.argsort(scores)],
        args.repeat)

    print(header("micro-pAp@k against one sort of the scores"))
    print("```text")
    print(f"rows={args.n_rows} groups={args.n_groups} k={args.k} "
          f"ties={args.ties} decimals={args.decimals} repeat={args.repeat}")
    print(f"micro-pAp@k = {value:.6f}")
    print(f"papk_score: {t_papk:.4f} s ({args.n_rows / t_papk:,.0f} rows/s)")
    print(f"np.argsort: {t_sort:.4f} s ({args.n_rows / t_sort:,.0f} rows/s)")
    print(f"ratio papk_score / argsort = {t_papk / t_sort:.2f} (target < 3)")
    print("```")


if __name__ == "__main__":
    main()
