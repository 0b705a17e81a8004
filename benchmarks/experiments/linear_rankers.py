"""Which means give a linear ranker that beats logistic regression on pAp@k?

The candidates, each measured on MovieLens 100K with the protocol of
``compare_peers.py`` (``load_movielens_100k(random_state=split)``, per-user
60/20/20 ``within_group_split(random_state=split)``, ``MinMaxScaler`` on
train; test micro-pAp@k at k = 8 / 16 / 24, mean over the splits):

- the smooth pairwise logistic surrogate by L-BFGS, every user weighted
  alike (``group_weight="uniform"``) and weighted by the inverse variance of
  its AUC (``"inverse_variance"``, ``PApKRanker()``'s default);
- the soft top-k surrogate ``"soft_papk"`` at several temperatures (in
  units of each user's score spread), from ``w_0 = 0`` and from a pointwise
  fit (``coef_init`` = logistic regression's coefficients);
- Algorithm 1 (projected subgradient, ``solver="subgradient"``) on the
  smooth surrogate instead of L-BFGS;
- early stopping on validation micro-pAp@k held out inside every user;
- the references: logistic regression (C tuned on validation micro-pAp@k at
  each k), the paper's avg surrogate by Algorithm 1 (eta0, alpha tuned the
  same way) and a random ranking.

Untuned rows use their parameters as given (no choice on validation). It
prints a Markdown table (and the spread of the training scores, which shows
when a surrogate keeps ``w`` near 0). Run ``python -m
benchmarks.experiments.linear_rankers`` (about 10 minutes on 2 cores).
"""

import argparse
import sys
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression

from skpapk import PApKAvgRanker, PApKRanker  # noqa: E402
from skpapk.metrics import expected_papk_score, papk_score  # noqa: E402

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


def candidates():
    """``name -> (make(k, lr_coef), depends_on_k)``: the untuned rows."""
    rows = {
        "pairwise_logistic, uniform users (L-BFGS)": (
            lambda k, w: PApKRanker(k=k, group_weight="uniform"), False),
        "pairwise_logistic, inverse-variance users (PApKRanker() default)": (
            lambda k, w: PApKRanker(k=k), False),
        "default + early_stopping": (
            lambda k, w: PApKRanker(k=k, early_stopping=True, random_state=0), True),
        "pairwise_logistic by Algorithm 1 (eta0=1, 200 epochs)": (
            lambda k, w: PApKRanker(k=k, solver="subgradient", tol=None), False),
    }
    for T in (0.5, 1.0, 2.0, 4.0, 8.0):
        rows[f"soft_papk T={T:g}"] = (
            lambda k, w, T=T: PApKRanker("soft_papk", k=k, temperature=T), True)
    for T in (1.0, 4.0):
        rows[f"soft_papk T={T:g}, w_0 = logistic regression"] = (
            lambda k, w, T=T: (PApKRanker("soft_papk", k=k, temperature=T), w), True)
    return rows


def tuned(parts, k, make, grid, *, with_groups=True):
    """Test score of the candidate with the best validation micro-pAp@k."""
    (X, y, g), (Xv, yv, gv), (Xs, ys, gs) = parts
    best = (-np.inf, None)
    for params in grid:
        model = make(**params)
        fit = model.fit(X, y, groups=g) if with_groups else model.fit(X, y)
        score = papk_score(yv, fit.decision_function(Xv), k=k, groups=gv)
        if score > best[0]:
            best = (score, fit)
    return papk_score(ys, best[1].decision_function(Xs), k=k, groups=gs)


def run_split(parts, rows):
    (X, y, g), _, (Xs, ys, gs) = parts
    out = {}
    lr_coef = LogisticRegression(C=1.0, max_iter=5000).fit(X, y).coef_[0]
    for name, (make, per_k) in rows.items():
        for k in (KS if per_k else KS[:1]):
            made = make(k, lr_coef)
            model, w0 = made if isinstance(made, tuple) else (made, None)
            start = time.perf_counter()
            model.fit(X, y, groups=g, coef_init=w0)
            seconds = time.perf_counter() - start
            spread = float(np.std(X @ model.coef_))
            for k_eval in ((k,) if per_k else KS):
                out[(name, k_eval)] = (papk_score(ys, model.decision_function(Xs),
                                                  k=k_eval, groups=gs),
                                       spread, seconds)
    for k in KS:
        out[("LogisticRegression (C tuned)", k)] = (tuned(
            parts, k, lambda C: LogisticRegression(C=C, max_iter=5000),
            [{"C": C} for C in (1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0)],
            with_groups=False), np.nan, np.nan)
        out[("PApKAvgRanker, Algorithm 1 (eta0, alpha tuned)", k)] = (tuned(
            parts, k, lambda eta0, alpha: PApKAvgRanker(k=k, eta0=eta0, alpha=alpha),
            [{"eta0": e, "alpha": a} for e in (0.01, 0.1, 1.0) for a in (1e-3, 1e-2)]),
            np.nan, np.nan)
        out[("random ranking (exact expectation)", k)] = (
            expected_papk_score(ys, k=k, groups=gs), np.nan, np.nan)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=positive_int, default=3)
    parser.add_argument("--path", default=data_path())
    parser.add_argument("--quick", action="store_true",
                        help="two rows only (a smoke test, not a result)")
    args = parser.parse_args(argv)
    rows = candidates()
    if args.quick:
        rows = dict(list(rows.items())[:2])
    results = []
    started = time.perf_counter()
    for split in range(args.splits):
        parts = load_split(split, args.path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            results.append(run_split(parts, rows))
        print(f"split {split} done ({time.perf_counter() - started:.0f} s)",
              file=sys.stderr, flush=True)
    names = list(dict.fromkeys(name for name, _ in results[0]))
    table = []
    for name in names:
        cells = [name]
        for k in KS:
            values = np.array([r[(name, k)][0] for r in results]) * 100
            cells.append(f"{values.mean():.2f} ± {values.std():.2f}")
        spread = np.nanmean([r[(name, KS[0])][1] for r in results])
        seconds = np.nanmean([r[(name, KS[0])][2] for r in results])
        cells += ["-" if np.isnan(spread) else f"{spread:.3f}",
                  "-" if np.isnan(seconds) else f"{seconds:.1f}"]
        table.append(cells)
    print(f"\nCommand: `{command_line(argv)}`  ")
    print(f"Date: {today()}; {args.splits} splits; "
          f"{(time.perf_counter() - started) / 60:.0f} min  ")
    print(f"Machine: {machine_info()}\n")
    print(markdown_table(["linear model", *(f"k={k}" for k in KS),
                          "std of train scores (k=8)", "fit s (k=8)"], table))


if __name__ == "__main__":
    main()
