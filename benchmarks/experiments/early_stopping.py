"""Early stopping and Polyak averaging on MovieLens 100K (avg surrogate, k=10).

Protocol (as the paper's App. F.1): :func:`skpapk.datasets.load_movielens_100k`
(638 users, d = 90), every user's rows split 60/20/20 into train /
validation / test (:func:`skpapk.model_selection.within_group_split`, seed
= run), every feature scaled with the train min/max (``MinMaxScaler``).

For each run, ``eta0`` and ``alpha`` of the plain ranker
(``PApKAvgRanker(k=10)``, default stopping rule) are picked on the paper's
grid (App. F) by validation micro-pAp@10. With those values fixed, and
again with the largest step of the grid (``eta0=0.5, alpha=1e-3``), four
variants are trained on the train part:

- ``plain``: the default rule (objective, ``tol=1e-4``, 10 epochs);
- ``early_stopping``: 10% of every user's training rows held out
  (``validation_fraction=0.1``), stop after 10 epochs without a gain in
  their micro-pAp@10, keep the best iterate;
- ``average``: Polyak averaging of the iterates, default rule;
- ``both``: averaging, with early stopping on the averaged iterate.

It prints the test micro-pAp@10 (mean over the users with a relevant and an
irrelevant test row), the epochs run (``n_iter_``) and, with early
stopping, the epoch of the kept iterate, mean ± std over
``--runs`` runs, and writes them as Markdown with ``--markdown``.

The data are read from ``--path`` (default: the loader's own search,
``$SKPAPK_DATA`` first); never copy them into the repository (their licence
forbids redistribution).

Run ``python -m benchmarks run-all --only early_stopping_movielens``, which
writes ``benchmarks/results/early_stopping_movielens.md`` with its notes.
"""

import argparse
import os
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from sklearn.preprocessing import MinMaxScaler

from skpapk import PApKAvgRanker  # noqa: E402
from skpapk._defaults import PAPER_ALPHA_GRID, PAPER_ETA0_GRID
from skpapk.datasets import load_movielens_100k  # noqa: E402
from skpapk.metrics import papk_score  # noqa: E402
from skpapk.model_selection import within_group_split  # noqa: E402

from .._common import (
    command_line,
    data_path,
    machine_info,
    positive_int,
    today,
)  # noqa: E402

K = 10
VARIANTS = {
    "plain": {},
    "early_stopping": {"early_stopping": True},
    "average": {"average": True},
    "both": {"early_stopping": True, "average": True},
}


def micro(ranker, part):
    X, y, g = part
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return papk_score(y, ranker.decision_function(X), k=K, groups=g)


def pick_eta_alpha(train, val, max_iter):
    best = (-np.inf, None)
    for eta0 in PAPER_ETA0_GRID:  # grid order: ties keep the first
        for alpha in PAPER_ALPHA_GRID:
            ranker = PApKAvgRanker(k=K, eta0=eta0, alpha=alpha, max_iter=max_iter)
            score = micro(ranker.fit(*train[:2], groups=train[2]), val)
            if score > best[0]:
                best = (score, (eta0, alpha))
    return best[1]


def run(data, seed, max_iter):
    X, y, g = data.data, data.target, data.groups
    parts = within_group_split(y, g, sizes=(0.6, 0.2, 0.2), random_state=seed)
    scaler = MinMaxScaler().fit(X[parts[0]])
    train, val, test = (tuple([scaler.transform(X[i]), y[i], g[i]]) for i in parts)
    picked = pick_eta_alpha(train, val, max_iter)
    rows = []
    for setting, (eta0, alpha) in [("picked on validation", picked),
                                   ("eta0=0.5, alpha=1e-3", (0.5, 1e-3))]:
        for name, options in VARIANTS.items():
            ranker = PApKAvgRanker(k=K, eta0=eta0, alpha=alpha, max_iter=max_iter,
                                   random_state=seed, **options)
            start = time.perf_counter()
            ranker.fit(train[0], train[1], groups=train[2])
            rows.append({"setting": setting, "variant": name, "eta0": eta0,
                         "alpha": alpha, "test": micro(ranker, test),
                         "epochs": ranker.n_iter_,
                         "best_epoch": (
                             np.nan if ranker.validation_scores_ is None
                             else 1 + int(np.argmax(ranker.validation_scores_))),
                         "seconds": time.perf_counter() - start})
    return rows


def summarise(rows):
    lines = ["| setting | variant | test micro-pAp@10 (%) | epochs | kept epoch "
             "| seconds per fit |",
             "| --- | --- | --- | --- | --- | --- |"]
    for setting in dict.fromkeys(r["setting"] for r in rows):
        for name in VARIANTS:
            sel = [r for r in rows if r["setting"] == setting and r["variant"] == name]
            test = 100 * np.array([r["test"] for r in sel])
            epochs = np.array([r["epochs"] for r in sel])
            secs = np.array([r["seconds"] for r in sel])
            kept = np.array([r["best_epoch"] for r in sel], dtype=float)
            kept = "-" if np.isnan(kept).all() else ", ".join(f"{v:.0f}" for v in kept)
            lines.append(f"| {setting} | {name} | {test.mean():.1f} ± {test.std():.1f} "
                         f"| {epochs.mean():.0f} ± {epochs.std():.0f} | {kept} "
                         f"| {secs.mean():.2f} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=data_path())
    parser.add_argument("--runs", type=positive_int, default=3)
    parser.add_argument("--max-iter", type=positive_int, default=200)
    parser.add_argument("--markdown", default=None)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", ConvergenceWarning)
    start = time.perf_counter()
    load = os.getloadavg()[0]
    data = load_movielens_100k(args.path, random_state=0)
    print(f"MovieLens 100K: {data.data.shape[0]} rows, "
          f"{np.unique(data.groups).shape[0]} users")
    rows, picked = [], []
    for seed in range(args.runs):
        found = run(data, seed, args.max_iter)
        rows += found
        picked.append(f"{found[0]['eta0']:g}/{found[0]['alpha']:g}")
        print(f"run {seed}: eta0/alpha picked on validation {picked[-1]}")
    table = summarise(rows)
    minutes = (time.perf_counter() - start) / 60
    print(table)
    print(f"{minutes:.1f} min; load average {load:.2f} -> {os.getloadavg()[0]:.2f}")
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(f"""# Early stopping and averaging on MovieLens 100K \
(avg surrogate, k = 10)

Command: `{command_line()}`

Date: {today()}, {minutes:.1f} min wall time.

Machine: {machine_info()}; load average {load:.2f} at the start (shared
with other jobs).

Protocol: per-user 60/20/20 train/validation/test splits (seeds 0-{args.runs - 1}),
train min-max scaling, `PApKAvgRanker(k=10, max_iter={args.max_iter})`.
"picked on validation": `eta0`/`alpha` of the plain ranker chosen on the
paper's grid by validation micro-pAp@10, per run ({", ".join(picked)}).
Early stopping holds out 10% of every user's *training* rows
(`validation_fraction=0.1`, `n_iter_no_change=10`, `tol=1e-4`); the
validation part of the split only picks `eta0`/`alpha`. Test micro-pAp@10:
mean over the users with a relevant and an irrelevant test row. Mean ± std
over runs; "kept epoch": the epoch of the iterate early stopping returned,
per run.

{table}
""")
        print(f"wrote {args.markdown}")


if __name__ == "__main__":
    main()
