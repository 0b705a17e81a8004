"""Reproduce Table 2 of Hiranandani et al. (ICML 2020): the dual behaviour of pAp@k.

Setup (paper Section 7.1): one user, d = 5, positives ~ N(-1_d, I),
negatives ~ N(0_d, I) (:func:`skpapk.datasets.make_papk_simulation`), 300
random runs.

- Case 1 (n+ < k): n+ = 10, n- = 160, k = 20; GD-pAp@k-avg
  (:class:`skpapk.PApKAvgRanker`) against SGD@k-avg
  (:class:`skpapk.PrecAtKRanker`): prec@k, and AUC@k over the runs where
  both put the same number of positives in the top k.
- Case 2 (n+ > k): n+ = 20, n- = 160, k = 10; GD-pAp@k-avg against
  SVM-pAUC (:class:`skpapk.PAUCRanker`): the same numbers.

What the paper does not say, and what we chose: the paper only says the
methods are applied "until they converge" and reports the metrics of the
sample they were applied to (no train/test split, learning rate or
regularisation is given for this experiment; its regularisation is
mentioned for the real-world experiments only). Each run draws one sample,
both methods are fitted on it from ``w_0 = 0`` with the same step rule
``eta0 / sqrt(t + 1)`` (``--eta0``, default 1.0, the rankers' default),
``alpha = 0`` and up to ``--max-iter`` epochs with the rankers' stopping rule,
and are scored on that same sample ("in-sample", the paper's reading). A
second sample of the same sizes from the same distribution is scored too
("fresh sample"), which the paper does not report.

AUC@k (:func:`skpapk.metrics.auc_at_k_score`) is undefined when the top k
holds a single class; as in the authors' code such a top k counts 1 when
all its items are positive and 0 when all are negative.

Run::

    python -m benchmarks run-all --only table2
"""

import argparse
import time
import warnings

import numpy as np
from joblib import Parallel, delayed
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning

from skpapk import PApKAvgRanker, PAUCRanker, PrecAtKRanker  # noqa: E402
from skpapk.datasets import make_papk_simulation  # noqa: E402
from skpapk.metrics import auc_at_k_score, precision_at_k_score  # noqa: E402

from .._common import (  # noqa: E402
    command_line,
    machine_info,
    markdown_table,
    n_jobs_int,
    non_negative_float,
    non_negative_int,
    positive_float,
    positive_int,
    today,
)

#: case -> (n_pos, n_neg, k, baseline class, baseline label)
CASES = {
    1: (10, 160, 20, PrecAtKRanker, "SGD@k-avg"),
    2: (20, 160, 10, PAUCRanker, "SVM-pAUC"),
}
#: The paper's Table 2: per case, per method (baseline, GD-pAp@k-avg):
#: prec@k mean, std, #runs prec@k higher, AUC@k (equal prec@k) mean, std,
#: #runs equal, #runs AUC@k higher.
PAPER = {
    1: {"baseline": (0.20, 0.14, 5, 0.59, 0.34, 88, 30),
        "avg": (0.27, 0.13, 207, 0.68, 0.34, 88, 58)},
    2: {"baseline": (0.62, 0.29, 15, 0.66, 0.31, 156, 82),
        "avg": (0.68, 0.28, 129, 0.71, 0.30, 156, 74)},
}


def auc_at_k(y, scores, k):
    """AUC@k of one user; a single-class top k counts 1 (all positive) or 0."""
    order = np.argsort(-scores, kind="stable")[:k]
    top = y[order]
    if top.min() == top.max():
        return float(top[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return float(auc_at_k_score(y, scores, k=k))


def one_run(case, run, eta0, alpha, max_iter, seed, init="zero"):
    n_pos, n_neg, k, baseline_cls, _ = CASES[case]
    rng = np.random.RandomState(seed + 1000 * case + run)
    X, y, _ = make_papk_simulation(1, n_pos=n_pos, n_neg=n_neg, n_features=5,
                                   random_state=rng)
    X_new, y_new, _ = make_papk_simulation(1, n_pos=n_pos, n_neg=n_neg,
                                           n_features=5, random_state=rng)
    # w_0: 0, or one N(0, I) draw shared by both methods of the run
    coef_init = rng.normal(size=X.shape[1]) if init == "random" else None
    out = {}
    for name, cls in (("baseline", baseline_cls), ("avg", PApKAvgRanker)):
        est = cls(k=k, eta0=eta0, alpha=alpha, max_iter=max_iter)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est.fit(X, y, coef_init=coef_init)
        for where, (Xe, ye) in (("in", (X, y)), ("fresh", (X_new, y_new))):
            s = est.decision_function(Xe)
            out[name, where] = (float(precision_at_k_score(ye, s, k=k)),
                                auc_at_k(ye, s, k), est.n_iter_)
    return out


def summarise(results, where):
    """Table 2's columns for one case from the per-run results."""
    prec = {m: np.array([r[m, where][0] for r in results]) for m in ("baseline", "avg")}
    auc = {m: np.array([r[m, where][1] for r in results]) for m in ("baseline", "avg")}
    equal = np.isclose(prec["baseline"], prec["avg"])
    summary = {}
    for m, other in (("baseline", "avg"), ("avg", "baseline")):
        summary[m] = (prec[m].mean(), prec[m].std(),
                      int(np.sum(prec[m] > prec[other] + 1e-12)),
                      auc[m][equal].mean() if equal.any() else np.nan,
                      auc[m][equal].std() if equal.any() else np.nan,
                      int(equal.sum()),
                      int(np.sum(equal & (auc[m] > auc[other] + 1e-12))))
    return summary


def fmt(row):
    pm, ps, ph, am, as_, n_eq, ah = row
    return [f"{pm:.2f} ± {ps:.2f}", str(ph), f"{am:.2f} ± {as_:.2f} ({n_eq})", str(ah)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=positive_int, default=300)
    parser.add_argument("--eta0", type=positive_float, default=1.0)
    parser.add_argument("--alpha", type=non_negative_float, default=0.0)
    parser.add_argument("--max-iter", type=positive_int, default=1000)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--init", choices=["zero", "random"], default="zero",
                        help="w_0: 0, or N(0, I) drawn per run and shared by "
                             "both methods (as the authors' other scripts)")
    parser.add_argument("--n-jobs", type=n_jobs_int, default=2)
    parser.add_argument("--markdown", default=None,
                        help="write the tables (command, date, machine) here")
    args = parser.parse_args(argv)

    header = ["case", "method", "prec@k", "#runs prec@k higher",
              "AUC@k when prec@k same (#runs)", "#runs AUC@k higher, prec@k same"]
    tables = {"in": [], "fresh": []}
    paper_rows = []
    iters = []
    start = time.perf_counter()
    for case, (n_pos, n_neg, k, _, label) in CASES.items():
        results = Parallel(n_jobs=args.n_jobs)(
            delayed(one_run)(case, run, args.eta0, args.alpha, args.max_iter, args.seed,
                             args.init)
            for run in range(args.runs))
        iters += [r[m, "in"][2] for r in results for m in ("baseline", "avg")]
        title = f"{case}: n+={n_pos}, n-={n_neg}, k={k}"
        for where in tables:
            summary = summarise(results, where)
            tables[where] += [[title, label] + fmt(summary["baseline"]),
                              [title, "GD-pAp@k-avg"] + fmt(summary["avg"])]
        paper_rows += [[title, label] + fmt(PAPER[case]["baseline"]),
                       [title, "GD-pAp@k-avg"] + fmt(PAPER[case]["avg"])]
    elapsed = time.perf_counter() - start

    text = "\n".join([
        f"Command: `{command_line()}`", "", f"Date: {today()}", "",
        f"Machine: {machine_info()}", "",
        f"Settings: {args.runs} runs per case, eta0 = {args.eta0}, alpha = "
        f"{args.alpha}, w_0 = {'N(0, I)' if args.init == 'random' else '0'}, "
        f"max_iter = {args.max_iter} (epochs run: median "
        f"{int(np.median(iters))}, max {max(iters)}), seed {args.seed}; "
        f"{elapsed:.0f} s in all.", "",
        "### Ours, scored on the training sample (the paper's setting)", "",
        markdown_table(header, tables["in"]), "",
        "### Ours, scored on a fresh sample of the same sizes", "",
        markdown_table(header, tables["fresh"]), "",
        "### The paper's Table 2", "",
        markdown_table(header, paper_rows), ""])
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("# Table 2 (simulation: the dual behaviour of pAp@k) reproduced\n\n"
                    + text)
        print(f"wrote {args.markdown}")


if __name__ == "__main__":
    main()
