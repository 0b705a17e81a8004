"""Long lists: ``PApKRanker``'s fit with and without ``truncation_level``.

The smooth pairwise surrogate costs ``O(n+ n-)`` pair terms a user and an
evaluation; ``truncation_level=T`` keeps only the pairs with a row among
its label's ``T`` highest scored rows of the user (``O(T n)``), but the
kept pairs follow ``w``, so the objective is only piecewise smooth and
L-BFGS may need more iterations. For lists of several lengths (users x
rows per user, about 15% relevant) and ``T`` in ``--levels`` (``none``:
every pair) it prints the fit's seconds, its L-BFGS iterations, its
objective evaluations and their mean seconds, and the test micro-pAp@10
and @50 of a held-out 30% of every user's rows.

Data: 20 standard normal features; a row is relevant when
``x . w* / sqrt(20) + u + 2 e`` is in the top 15% over all rows (``w*``,
a user offset ``u`` and the noise ``e`` standard normal; 0.5 ``u``), so
that no ranking is perfect. One fit per cell, one thread
(``n_jobs=1``); other jobs may share the machine (the load average is
printed).

Run ``python -m benchmarks.timing.bench_long_lists`` (``--quick``: small
lists, for a smoke test).
"""

import argparse
import os
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from skpapk import PApKRanker
from skpapk._linear_loss import LinearLoss
from skpapk.metrics import papk_score
from skpapk.model_selection import within_group_split

from .._common import header, markdown_table

SHAPES = ((40, 2_000), (8, 12_000), (1, 60_000), (1, 200_000))
QUICK_SHAPES = ((20, 200), (2, 2_000))


def make_lists(n_users, n_rows, n_features=20, seed=0):
    """``(X, y, groups)``: ``n_users`` users of ``n_rows`` rows each."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_users), n_rows)
    X = rng.standard_normal((groups.size, n_features))
    w = rng.standard_normal(n_features)
    offset = 0.5 * rng.standard_normal(n_users)[groups]
    z = X @ w / np.sqrt(n_features) + offset + 2.0 * rng.standard_normal(groups.size)
    return X, (z > np.quantile(z, 0.85)).astype(np.int64), groups


class _Counted:
    """Count and time the objective evaluations of the fits (``evaluate``)."""

    def __init__(self):
        self.calls, self.seconds = 0, 0.0
        self._evaluate = LinearLoss.evaluate

    def __enter__(self):
        counter = self

        def evaluate(loss, *args, **kwargs):
            start = time.perf_counter()
            try:
                return counter._evaluate(loss, *args, **kwargs)
            finally:
                counter.calls += 1
                counter.seconds += time.perf_counter() - start

        LinearLoss.evaluate = evaluate
        return self

    def __exit__(self, *exc):
        LinearLoss.evaluate = self._evaluate


def run(shapes, levels):
    X, y, groups = make_lists(2, 500)  # the kernel's compilation, not timed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for level in levels:
            PApKRanker(truncation_level=level, max_iter=2).fit(X, y, groups=groups)
    rows = []
    for n_users, n_rows in shapes:
        X, y, groups = make_lists(n_users, n_rows)
        train, test = within_group_split(y, groups, sizes=(0.7, 0.3),
                                         random_state=0)
        for level in levels:
            ranker = PApKRanker(k=10, truncation_level=level, n_jobs=1)
            with _Counted() as counted, warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                start = time.perf_counter()
                ranker.fit(X[train], y[train], groups=groups[train])
                seconds = time.perf_counter() - start
            scores = ranker.decision_function(X[test])
            papk = [papk_score(y[test], scores, k=k, groups=groups[test])
                    for k in (10, 50)]
            rows.append([f"{n_users} x {n_rows:,}", "none" if level is None
                         else str(level), f"{seconds:.2f}", str(ranker.n_iter_),
                         str(counted.calls),
                         f"{counted.seconds / max(counted.calls, 1):.3f}",
                         f"{100 * papk[0]:.2f}", f"{100 * papk[1]:.2f}",
                         "; ".join(sorted({type(r.message).__name__ for r in w}))
                         or "-"])
            print(" | ".join(rows[-1]), flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", nargs="+", default=["none", "100", "1000"])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    levels = [None if v == "none" else int(v) for v in args.levels]
    load = os.getloadavg()
    rows = run(QUICK_SHAPES if args.quick else SHAPES, levels)
    text = "\n".join([
        header("PApKRanker on long lists: truncation_level",
               "Training rows: 70% of every user's rows; test: the other 30%. "
               "One fit per cell, n_jobs=1, after a fit that compiles the "
               "kernel.", ""),
        markdown_table(["users x rows", "truncation_level", "fit (s)",
                        "L-BFGS iterations", "evaluations", "s / evaluation",
                        "test pAp@10 (%)", "test pAp@50 (%)", "warnings"], rows),
        "", f"Load average (1, 5, 15 min) before: {tuple(round(v, 2) for v in load)}, "
        f"after: {tuple(round(v, 2) for v in os.getloadavg())} (other jobs share "
        f"the machine).", ""])
    if args.out:
        with open(args.out, "w") as handle:
            handle.write(text)
    print(text)


if __name__ == "__main__":
    main()
