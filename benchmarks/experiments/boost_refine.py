"""A k-aware refinement of the boosted ranker, on MovieLens 100K.

Objectives that read ``k`` from the first tree (``boost_objectives.py``,
``boost_user_weights.py``, ``boost_lambda_papk.py``) fit the training rows
better and the held-out ones no better. This study starts them from the
default model instead: ``PApKBoostRanker()``'s 100 trees (the k-blind
pairwise logistic loss), then ``R`` more trees (LightGBM's continued
training, ``init_model``) on an objective that reads ``k``:

- ``soft_papk`` at temperature 3 or 1 (soft top-k pairs);
- the pairwise logistic loss of the pairs of each user's top ``T = k`` or
  ``2k`` rows (``truncation_level``);

against two controls, the default model itself and the default model
continued by ``R`` trees of its own objective (the same number of trees).
For every ``k`` the candidate with the best mean validation micro-pAp@k
over the splits is chosen and compared with the default on the test users
of every split (:func:`skpapk.metrics.paired_comparison` of the per-user
pAp@k). Same protocol and splits as ``compare_peers.py``.

Run ``python -m benchmarks run-all --only boost_refine`` (a few minutes on
2 cores).
"""

import argparse
import itertools
import time

import numpy as np

from skpapk import PApKBoostRanker

from .._common import (
    chosen_on_validation,
    data_path,
    markdown_table,
    per_user_papk,
    positive_int,
    study_heading,
    val_test_cells,
)
from .compare_peers import load_split

KS = (8, 16, 24)
DEFAULT = ("default", 0)  # the default model, no refinement
#: objective name -> PApKBoostRanker parameters (``k`` set per run; a
#: callable of k for the truncation level)
REFINERS = {
    "default objective": {},
    "soft_papk, temperature 3": {"objective": "soft_papk", "temperature": 3.0},
    "soft_papk, temperature 1": {"objective": "soft_papk", "temperature": 1.0},
    "pairs of the top T = k": {"truncation_level": lambda k: k},
    "pairs of the top T = 2k": {"truncation_level": lambda k: 2 * k},
}


def refine(base, X, y, g, k, params, n_trees, learning_rate):
    """``base``'s trees, then ``n_trees`` more on ``params``' objective."""
    import lightgbm as lgb

    params = {name: value(k) if callable(value) else value
              for name, value in params.items()}
    ranker = PApKBoostRanker(k=k, random_state=0, n_estimators=n_trees,
                             learning_rate=learning_rate, **params)
    order = np.argsort(g, kind="stable")
    sizes = np.unique(g[order], return_counts=True)[1]
    model = lgb.LGBMRanker(**ranker._lightgbm_params(0)).fit(
        X[order], y[order].astype(np.float64), group=sizes,
        init_model=base.booster_)
    return model.booster_


def name(candidate):
    refiner, n_trees, *rate = candidate
    if n_trees == 0:
        return "the default model"
    return f"+ {n_trees} trees of {refiner}, learning rate {rate[0]:g}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=positive_int, default=3)
    parser.add_argument("--path", default=data_path())
    parser.add_argument("--quick", action="store_true",
                        help="5 + 2 trees, two refiners (a smoke test)")
    args = parser.parse_args(argv)
    refiners = REFINERS
    sizes, rates, base_trees = (10, 30), (0.05, 0.02), {}
    if args.quick:
        refiners = dict(itertools.islice(REFINERS.items(), 2))
        sizes, rates, base_trees = (2,), (0.05,), {"n_estimators": 5}
    candidates = [DEFAULT] + [(r, n, rate) for r in refiners for n in sizes
                              for rate in rates]
    splits = [load_split(s, args.path) for s in range(args.splits)]
    started = time.perf_counter()
    val, test = {}, {}  # (candidate, k) -> per split: micro / per-user array
    for (X, y, g), (Xv, yv, gv), (Xs, ys, gs) in splits:
        base = PApKBoostRanker(random_state=0, **base_trees).fit(X, y, groups=g)
        for candidate, k in itertools.product(candidates, KS):
            refiner, n_trees, *rate = candidate
            booster = base.booster_ if n_trees == 0 else refine(
                base, X, y, g, k, refiners[refiner], n_trees, rate[0])
            v = per_user_papk(yv, booster.predict(Xv, raw_score=True), gv, k)
            val.setdefault((candidate, k), []).append(np.nanmean(v))
            test.setdefault((candidate, k), []).append(per_user_papk(
                ys, booster.predict(Xs, raw_score=True), gs, k))
    rows = [[name(c), *val_test_cells(val, test, c, KS)] for c in candidates]
    print(study_heading("A k-aware refinement of PApKBoostRanker (MovieLens "
                        "100K)", args.splits, started))
    print("Mean validation / test micro-pAp@k (%) over the splits:\n")
    print(markdown_table(["model"] + [f"k={k}: val / test" for k in KS], rows))
    print("\nThe candidate with the best validation score at each k against "
          "the default model (the per-user test pAp@k of every split, "
          "paired):\n")
    print(chosen_on_validation(candidates, DEFAULT, val, test, KS, label=name))


if __name__ == "__main__":
    main()
