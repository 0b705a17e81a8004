"""User weights that read k, for the boosted ranker, on MovieLens 100K.

``PApKBoostRanker``'s default objective weighs user ``u`` by
``w_u = 12 n+ n- / (n+ + n- + 1)`` (``group_weight="inverse_variance"``).
This study tries the family

    w_u = (12 m n- / (m + n- + 1)) ** p,   m = min(n+, c k)

(``c = None``: no cap, the weights do not read ``k``), with the default
pairs (``truncation_level=100``: every pair of MovieLens' users) or the
pairs of the top ``T = 4k``, at the default
trees (100 trees, 31 leaves, learning rate 0.05). For every ``k`` the
variant with the best mean validation micro-pAp@k over the splits is
chosen, and its test micro-pAp@k is compared with the default's on the
same test users of every split (:func:`skpapk.metrics.paired_comparison`
of the per-user pAp@k). Same protocol and splits as ``compare_peers.py``.

The weights enter through ``skpapk.losses._smooth.group_weights``, patched
for the fit (the library offers only ``"uniform"`` and
``"inverse_variance"``). Run ``python -m benchmarks run-all --only
boost_user_weights`` (about 6 minutes on 2 cores).
"""

import argparse
import itertools
import time
from contextlib import contextmanager

import numpy as np

from skpapk import PApKBoostRanker
from skpapk.losses import _smooth

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
DEFAULT = (1.0, None, None)  # p, c, T / k: the library's default


@contextmanager
def user_weights(p, cap, k):
    """``group_weights`` replaced by ``(12 m n- / (m + n- + 1)) ** p``."""
    original = _smooth.group_weights

    def weights(layout, group_weight):
        n_pos, n_neg = layout.mass_pos, layout.mass_neg
        if cap is not None:
            n_pos = np.minimum(n_pos, cap * k)
        w = (12.0 * n_pos * n_neg / (n_pos + n_neg + 1.0)) ** p
        return np.where(layout.defined, w, 0.0)

    _smooth.group_weights = weights
    try:
        yield
    finally:
        _smooth.group_weights = original


def name(variant):
    p, cap, T = variant
    cap = "no cap" if cap is None else f"m = min(n+, {cap}k)"
    pairs = "default pairs" if T is None else f"top T = {T}k"
    return f"p = {p:g}, {cap}, {pairs}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=positive_int, default=3)
    parser.add_argument("--path", default=data_path())
    parser.add_argument("--quick", action="store_true",
                        help="5 trees, two variants (a smoke test)")
    args = parser.parse_args(argv)
    variants = list(itertools.product((0.5, 1.0, 1.5), (None, 1, 2, 4),
                                      (None, 4)))
    if args.quick:
        variants = [DEFAULT, (1.0, 2, None)]
    trees = {"n_estimators": 5} if args.quick else {}
    splits = [load_split(s, args.path) for s in range(args.splits)]
    started = time.perf_counter()
    val, test = {}, {}  # (variant, k) -> per split: micro / per-user array
    for variant, k in itertools.product(variants, KS):
        p, cap, T = variant
        for (X, y, g), (Xv, yv, gv), (Xs, ys, gs) in splits:
            with user_weights(p, cap, k):
                cut = {} if T is None else {"truncation_level": T * k}
                ranker = PApKBoostRanker(k=k, random_state=0, **trees,
                                         **cut).fit(X, y, groups=g)
            v = per_user_papk(yv, ranker.decision_function(Xv), gv, k)
            val.setdefault((variant, k), []).append(np.nanmean(v))
            test.setdefault((variant, k), []).append(
                per_user_papk(ys, ranker.decision_function(Xs), gs, k))
    rows = [[name(v), *val_test_cells(val, test, v, KS)] for v in variants]
    print(study_heading("User weights that read k (PApKBoostRanker, MovieLens "
                        "100K)", args.splits, started))
    print("Mean validation / test micro-pAp@k (%) over the splits:\n")
    print(markdown_table(["user weights, pairs"]
                         + [f"k={k}: val / test" for k in KS], rows))
    print("\nThe variant with the best validation score at each k against the "
          "default (the per-user test pAp@k of every split, paired):\n")
    print(chosen_on_validation(variants, DEFAULT, val, test, KS, label=name))


if __name__ == "__main__":
    main()
