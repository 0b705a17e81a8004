"""Do the boosted ranker's defaults hold on data of other sizes and shapes?

Simulated users and queries of four shapes (below), each drawn with
``--seeds`` seeds and split inside every user into 60% train, 20%
validation and 20% test rows (:func:`skpapk.model_selection.
within_group_split`). A row's relevance is a noisy, non-linear function
of its features (a sum of a few products and thresholds of features, plus
a per-group offset and Gaussian noise, then the top rows of every group by
that score are relevant), so that the trees can overfit. For every shape it
prints the mean test micro-pAp@k at k = 5 and 10 of
``HistGradientBoostingClassifier()`` (scikit-learn's defaults) and of
``PApKBoostRanker`` under candidate default rules, with the paired
per-group standard error of the difference to HGB and the validation
score the rules are chosen on.

Run ``python -m benchmarks run-all --only boost_defaults`` (2 minutes
on 2 quiet cores, as committed).
"""

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

from skpapk import PApKBoostRanker  # noqa: E402
from skpapk.metrics import papk_score  # noqa: E402
from skpapk.model_selection import within_group_split  # noqa: E402

from .._common import (  # noqa: E402
    command_line,
    machine_info,
    markdown_table,
    per_user_papk,
    positive_int,
    today,
)

#: name: (groups, items per group (low, high), features, relevant share)
SHAPES = {
    "many users, short lists": (2000, (10, 40), 20, 0.2),
    "few users, long lists": (40, (300, 1500), 20, 0.1),
    "LETOR-like: 300 queries, 136 features": (300, (20, 120), 136, 0.15),
    "small: 100 users": (100, (10, 50), 20, 0.2),
}

#: candidate default rules of PApKBoostRanker
RULES = {
    "today (100 trees, 31 leaves)": {},
    "early stopping (20% held out), 300 trees": dict(
        early_stopping=True, n_estimators=300, validation_fraction=0.2),
    "15 leaves, min 40 rows a leaf": dict(num_leaves=15, min_child_samples=40),
    "reg_lambda=1, min 40 rows a leaf": dict(reg_lambda=1.0, min_child_samples=40),
}


def make_shape(n_groups, items, n_features, share, seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(items[0], items[1] + 1, n_groups)
    groups = np.repeat(np.arange(n_groups), sizes)
    n = groups.shape[0]
    X = rng.normal(size=(n, n_features))
    w = rng.normal(size=5)
    score = (w[0] * X[:, 0] * X[:, 1] + w[1] * (X[:, 2] > 0.5)
             + w[2] * np.abs(X[:, 3]) + w[3] * X[:, 4] + w[4] * X[:, 5] ** 2)
    score = score / score.std() + rng.normal(scale=0.5, size=n_groups)[groups]
    score += rng.normal(scale=1.0, size=n)
    # the top `share` of every group by score is relevant
    order = np.lexsort((-score, groups))
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - np.repeat(starts, sizes)
    y = (rank < np.maximum(1, np.round(share * sizes))[groups]).astype(int)
    return X, y, groups


def micro(y, s, g, k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return papk_score(y, s, k=k, groups=g)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=positive_int, default=3)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=None,
                        help="write the results (Markdown) to this file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = [f"# Defaults of PApKBoostRanker on simulated shapes\n\nCommand: "
           f"`{command_line()}`  ", f"Date: {today()}  ",
           f"Machine: {machine_info()}\n"]
    for shape, (n_groups, items, n_features, share) in SHAPES.items():
        if args.quick:
            n_groups = max(20, n_groups // 10)
        results = {}  # model -> k -> list of (val, test, per-group test)
        for seed in range(args.seeds):
            X, y, g = make_shape(n_groups, items, n_features, share, seed)
            train, val, test = within_group_split(y, g, random_state=seed)
            hgb = HistGradientBoostingClassifier(random_state=seed).fit(
                X[train], y[train])
            models = {"HGB defaults": (hgb.decision_function, None)}
            for rule, params in RULES.items():
                for k in (5, 10):
                    ranker = PApKBoostRanker(k=k, random_state=seed, n_jobs=1,
                                             **params)
                    try:
                        ranker.fit(X[train], y[train], groups=g[train])
                    except ValueError:  # too few rows to hold some out
                        ranker.set_params(early_stopping=False)
                        ranker.fit(X[train], y[train], groups=g[train])
                    models.setdefault(rule, {})
                    models[rule] = {**(models[rule] or {}),
                                    k: ranker.decision_function}
            for name, model in models.items():
                for k in (5, 10):
                    f = model[0] if name == "HGB defaults" else model[k]
                    s_val, s_test = f(X[val]), f(X[test])
                    results.setdefault(name, {}).setdefault(k, []).append((
                        micro(y[val], s_val, g[val], k),
                        micro(y[test], s_test, g[test], k),
                        per_user_papk(y[test], s_test, g[test], k)))
        n_rows = X.shape[0]
        out.append(f"## {shape} ({n_groups} groups, {n_rows:,} rows in the "
                   f"last seed, {n_features} features)\n")
        rows = []
        for name in results:
            cells = [name]
            for k in (5, 10):
                runs = results[name][k]
                base = results["HGB defaults"][k]
                diff = np.concatenate([r[2] - b[2] for r, b in zip(runs, base)])
                diff = diff[np.isfinite(diff)]
                cells += [f"{100 * np.mean([r[0] for r in runs]):.2f}",
                          f"{100 * np.mean([r[1] for r in runs]):.2f}",
                          f"{100 * diff.mean():+.2f} ± "
                          f"{100 * diff.std(ddof=1) / np.sqrt(diff.size):.2f}"]
            rows.append(cells)
        out.append(markdown_table(
            ["model", "val k=5", "test k=5", "test - HGB k=5",
             "val k=10", "test k=10", "test - HGB k=10"], rows))
        out.append("")
        print("\n".join(out[-3:]), flush=True)
    out.append(f"{args.seeds} seeds; {(time.perf_counter() - started) / 60:.0f} "
               f"min. test - HGB: mean over the test groups of every seed of "
               f"the per-group pAp@k difference ± its standard error.")
    print(out[-1])
    if args.out:
        Path(args.out).write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
