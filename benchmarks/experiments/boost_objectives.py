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
from skpapk.metrics import papk_score  # noqa: E402

from .._common import (  # noqa: E402
    command_line,
    data_path,
    machine_info,
    markdown_table,
    today,
)
from .compare_peers import load_split  # noqa: E402

KS = (8, 16, 24)
ROWS = {
    "pairwise_logistic, inverse-variance users (default)": {},
    "pairwise_logistic, uniform users": {"group_weight": "uniform"},
    "soft_papk T=10": {"objective": "soft_papk", "temperature": 10.0},
    "soft_papk T=3": {"objective": "soft_papk", "temperature": 3.0},
    "soft_papk T=1": {"objective": "soft_papk", "temperature": 1.0},
    "soft_papk T=0.3": {"objective": "soft_papk", "temperature": 0.3},
    "binary": {"objective": "binary"},
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=3)
    parser.add_argument("--path", default=data_path())
    parser.add_argument("--quick", action="store_true",
                        help="5 trees, two rows (a smoke test, not a result)")
    args = parser.parse_args(argv)
    rows = ({name: dict(ROWS[name], n_estimators=5) for name in list(ROWS)[:2]}
            if args.quick else ROWS)
    scores = {name: {k: [] for k in KS} for name in rows}
    seconds = {name: [] for name in rows}
    started = time.perf_counter()
    for split in range(args.splits):
        (X, y, g), _, (Xs, ys, gs) = load_split(split, args.path)
        for name, params in rows.items():
            for k in KS:
                start = time.perf_counter()
                ranker = PApKBoostRanker(k=k, random_state=0, **params).fit(
                    X, y, groups=g)
                seconds[name].append(time.perf_counter() - start)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", UndefinedMetricWarning)
                    scores[name][k].append(papk_score(
                        ys, ranker.decision_function(Xs), k=k, groups=gs))
                if "objective" not in params or params["objective"] == "binary":
                    # these objectives do not depend on k: one fit, every k
                    for k_other in KS[1:]:
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore", UndefinedMetricWarning)
                            scores[name][k_other].append(papk_score(
                                ys, ranker.decision_function(Xs), k=k_other,
                                groups=gs))
                    break
        print(f"split {split} done ({time.perf_counter() - started:.0f} s)",
              file=sys.stderr, flush=True)
    table = []
    for name in rows:
        cells = [name]
        for k in KS:
            values = np.array(scores[name][k]) * 100
            cells.append(f"{values.mean():.2f} ± {values.std():.2f}")
        cells.append(f"{np.mean(seconds[name]):.1f}")
        table.append(cells)
    print(f"\nCommand: {command_line()}")
    print(f"Date: {today()}; {args.splits} splits; "
          f"{(time.perf_counter() - started) / 60:.0f} min")
    print(f"Machine: {machine_info()}\n")
    print(markdown_table(["objective (default trees)"] + [f"k={k}" for k in KS]
                         + ["fit s"], table))


if __name__ == "__main__":
    main()
