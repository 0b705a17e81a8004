"""The boosted ranker's objectives at its default trees, on MovieLens 100K.

What ``PApKBoostRanker``'s Notes quote: test micro-pAp@k at k = 8 / 16 / 24
(mean ± std over the splits) of ``PApKBoostRanker(k=k, **params)`` with its
default trees (100 trees, 31 leaves, learning rate 0.05, no early stopping)
for the objectives, the ``soft_papk`` temperatures (in units of each
user's score standard deviation) and the user weights below, untuned. Same
protocol and splits as ``compare_peers.py``. Run ``python -m
benchmarks.experiments.boost_objectives`` (about 10 minutes on 2 cores).
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.exceptions import UndefinedMetricWarning  # noqa: E402

from skpapk import PApKBoostRanker  # noqa: E402
from skpapk.losses import LightGBMObjective  # noqa: E402
from skpapk.metrics import papk_score  # noqa: E402

from .._common import (  # noqa: E402
    command_line,
    data_path,
    machine_info,
    markdown_table,
    positive_int,
    today,
)
from .compare_peers import load_split  # noqa: E402

KS = (8, 16, 24)


class _TopPairsMixture(PApKBoostRanker):
    """The pairwise logistic loss of every pair plus ``weight`` times that of
    the pairs of the top ``T = k`` (two calls of the same compiled kernel)."""

    def __init__(self, k=10, *, weight=1.0, **params):
        super().__init__(k=k, **params)
        self.weight = weight

    def _lightgbm_objective(self):
        every = super()._lightgbm_objective()
        top = LightGBMObjective("pairwise_logistic", k=self.k,
                                group_weight=self.group_weight,
                                truncation_level=self.k, n_jobs=1)

        # LightGBM's scikit-learn interface reads the argument count
        def mixture(y_true, y_pred, weight, group):
            args = (y_true, y_pred, weight, group)
            grad, hess = every(*args)
            grad_top, hess_top = top(*args)
            return grad + self.weight * grad_top, hess + self.weight * hess_top
        return mixture


#: name: (class, parameters as a function of k, whether the fit reads k)
ROWS = {
    "pairwise_logistic, inverse-variance users (default)":
        (PApKBoostRanker, lambda k: {}, False),
    "pairwise_logistic, uniform users":
        (PApKBoostRanker, lambda k: {"group_weight": "uniform"}, False),
    "pairwise_logistic, pairs of the top T = k":
        (PApKBoostRanker, lambda k: {"truncation_level": k}, True),
    "pairwise_logistic, pairs of the top T = 2k":
        (PApKBoostRanker, lambda k: {"truncation_level": 2 * k}, True),
    "pairwise_logistic, pairs of the top T = 4k":
        (PApKBoostRanker, lambda k: {"truncation_level": 4 * k}, True),
    "every pair + pairs of the top T = k (weight 1)":
        (_TopPairsMixture, lambda k: {"weight": 1.0}, True),
    "every pair + pairs of the top T = k (weight 3)":
        (_TopPairsMixture, lambda k: {"weight": 3.0}, True),
    "soft_papk T=10": (PApKBoostRanker, lambda k: {
        "objective": "soft_papk", "temperature": 10.0}, True),
    "soft_papk T=3": (PApKBoostRanker, lambda k: {
        "objective": "soft_papk", "temperature": 3.0}, True),
    "soft_papk T=1": (PApKBoostRanker, lambda k: {
        "objective": "soft_papk", "temperature": 1.0}, True),
    "binary": (PApKBoostRanker, lambda k: {"objective": "binary"}, False),
}


def _micro(y, s, g, k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return papk_score(y, s, k=k, groups=g)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=positive_int, default=3)
    parser.add_argument("--path", default=data_path())
    parser.add_argument("--quick", action="store_true",
                        help="5 trees (a smoke test of every row, not a result)")
    args = parser.parse_args(argv)
    rows = ROWS
    trees = {"n_estimators": 5} if args.quick else {}
    val = {name: {k: [] for k in KS} for name in rows}
    test = {name: {k: [] for k in KS} for name in rows}
    seconds = {name: [] for name in rows}
    started = time.perf_counter()
    for split in range(args.splits):
        (X, y, g), (Xv, yv, gv), (Xs, ys, gs) = load_split(split, args.path)
        for name, (cls, params, reads_k) in rows.items():
            for k in KS:
                start = time.perf_counter()
                ranker = cls(k=k, random_state=0, **params(k), **trees).fit(
                    X, y, groups=g)
                seconds[name].append(time.perf_counter() - start)
                # a fit that does not read k serves every k
                for k_other in (KS if not reads_k else (k,)):
                    val[name][k_other].append(_micro(
                        yv, ranker.decision_function(Xv), gv, k_other))
                    test[name][k_other].append(_micro(
                        ys, ranker.decision_function(Xs), gs, k_other))
                if not reads_k:
                    break
        print(f"split {split} done ({time.perf_counter() - started:.0f} s)",
              file=sys.stderr, flush=True)
    table = []
    for name in rows:
        cells = [name]
        for k in KS:
            v = np.array(val[name][k]) * 100
            t = np.array(test[name][k]) * 100
            cells.append(f"{v.mean():.2f} / {t.mean():.2f} ± {t.std():.2f}")
        cells.append(f"{np.mean(seconds[name]):.1f}")
        table.append(cells)
    print(f"\nCommand: `{command_line()}`  ")
    print(f"Date: {today()}; {args.splits} splits; "
          f"{(time.perf_counter() - started) / 60:.0f} min  ")
    print(f"Machine: {machine_info()}\n")
    print(markdown_table(["objective (default trees)"]
                         + [f"k={k}: val / test" for k in KS] + ["fit s"], table))


if __name__ == "__main__":
    main()
