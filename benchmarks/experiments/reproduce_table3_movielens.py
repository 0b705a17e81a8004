"""Reproduce the MovieLens columns of Table 3 (Hiranandani et al., ICML 2020).

Protocol (paper Section 7.3 and App. F.1):

1. :func:`skpapk.datasets.load_movielens_100k` (first 20 ratings per user ->
   masked NMF with 30 factors -> rows ``[user, item, user * item]``, d = 90,
   label = rating 5; 638 users);
2. for each run (a seed): every user's rows split 60/20/20 into train /
   validation / test (:func:`skpapk.model_selection.within_group_split`), each
   feature scaled with the train minimum and maximum (``MinMaxScaler`` fitted
   on train);
3. for each method and each k in {8, 12, 16, 20, 24}: one fit per cell of the
   grid (eta0, alpha) on train (joblib, in parallel), the cell with the best
   validation micro-pAp@k (eq. 17) is kept, its test micro-pAp@k reported;
4. mean and standard deviation over the runs, in %, beside the paper's numbers.

By default the users scored (and trained on) in each part are those the
authors' code keeps: at least one positive and at least ``k`` negatives in
that part (``--users paper``); ``--users all`` keeps every user with a
positive and a negative (pAp@k then compares with ``min(k, n-)`` negatives).
Both test scores are recorded either way.

Run (the data file is never copied into the repository)::

    python -m benchmarks.experiments.reproduce_table3_movielens --n-jobs 2 \
        --markdown table3.md

(``python -m benchmarks run-all --only table3_movielens`` runs this and the
protocol variants, about 4 h, and writes the committed
``benchmarks/results/table3_movielens.md`` with its notes.)

Quick run: ``--runs 1 --k 8 --methods avg --grid coarse``. ``--tol none
--max-iter 61`` runs a fixed number of epochs (the authors' cross-validation
script runs at most 61) instead of the rankers' stopping rule.

The authors' training protocol (github.com/stair-lab/pap-k,
``auc-rel-k-cross-validation.py``) differs from Algorithm 1 as the paper
states it in three ways, each an option here:

* ``--init random``: start at ``w_0 ~ N(0, I_d)`` (``fit(...,
  coef_init=w0)``), one draw per run (seeded by the run, shared by every grid
  cell of the run, as their fixed ``random_seed=786``) instead of ``w_0 = 0``;
* ``--iterate best-train``: return the iterate among ``w_0, ..., w_(T-1)``
  with the lowest mean training surrogate (the regulariser left out, as
  their ``loss_opt_list_train``) instead of the last one; the fit then runs
  ``--max-iter`` epochs one at a time (``warm_start=True, max_iter=1``), the
  surrogate of ``w_t`` being the recorded objective minus
  ``alpha * ||w_t||^2``;
* ``--reg authors``: ``alpha = lambda / 2`` for each lambda of the grid
  (their step adds ``lambda * w``, ours ``2 * alpha * w``).

Two sources of run-to-run noise can be drawn again per run: ``--split
authors`` replaces the exact per-(user, label) 60/20/20 cut by the authors'
per-row coins (train with probability 0.6, the rest halved at random), and
``--nmf-seed per-run`` draws the NMF features again for every run
(``random_state`` = the run's seed) instead of once. The output ends with a
noise calibration: each run, held out, against the mean of the others, as
the paper's single split stands against the mean of ours.

The authors' protocol in one command::

    python -m benchmarks.experiments.reproduce_table3_movielens --methods avg max ts \
        --init random --iterate best-train --reg authors --max-iter 61 \
        --tol none --n-jobs 2
"""

import argparse
import os
import time
import warnings
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from sklearn.preprocessing import MinMaxScaler

from skpapk._defaults import PAPER_ALPHA_GRID, PAPER_ETA0_GRID
from skpapk.datasets import load_movielens_100k  # noqa: E402
from skpapk.metrics import papk_score  # noqa: E402
from skpapk.model_selection import within_group_split  # noqa: E402

from .._common import (  # noqa: E402
    command_line,
    data_path,
    machine_info,
    markdown_table,
    n_jobs_int,
    non_negative_int,
    paper_user_mask,
    positive_int,
    today,
)

KS = (8, 12, 16, 20, 24)

#: Table 3 of the paper, MovieLens columns (k = 8, 12, 16, 20, 24), in %.
PAPER = {
    "avg": (35.5, 34.4, 36.1, 42.5, 46.5),
    "max": (32.6, 35.1, 37.6, 40.5, 43.7),
    "ts": (33.5, 33.3, 35.6, 42.2, 46.0),
    "pauc": (34.9, 33.7, 35.7, 41.1, 46.3),
    "greedy": (29.3, 31.5, 34.1, 37.4, 40.0),
    "sgd": (30.7, 32.3, 32.8, 35.0, 36.3),
    "select": (31.0, 34.9, 36.9, 39.8, 41.5),
}

#: method name -> (class name in skpapk, row label of the paper's Table 3)
METHODS = {
    "avg": ("PApKAvgRanker", "GD-pAp@k-avg"),
    "max": ("PApKMaxRanker", "GD-pAp@k-max"),
    "ts": ("PApKTSRanker", "GD-pAp@k-TS"),
    "pauc": ("PAUCRanker", "SVM-pAUC"),
    "greedy": ("GreedyPApKRanker", "Greedy-pAp@k"),
    "sgd": ("PrecAtKRanker", "SGD@k-avg"),
    "select": ("SelectPApKRanker", "Select-pAp@k"),
}

#: Epochs of the authors' final runs (``auc-rel-k-run.py``), which retrain
#: the cell chosen by their 61-epoch cross-validation and report its test
#: score at the iterate of lowest training surrogate.
AUTHORS_FINAL_EPOCHS = {"avg": 201, "max": 121, "ts": 121, "pauc": 201, "sgd": 121}

GRIDS = {
    "paper": (PAPER_ETA0_GRID, PAPER_ALPHA_GRID),
    # every other learning rate of the paper's grid, all its lambdas
    "coarse": (PAPER_ETA0_GRID[::2], PAPER_ALPHA_GRID),
    "tiny": ((1e-2, 0.5), (1e-3, 1e-1)),
}


def _estimator_class(method):
    import skpapk

    cls_name = METHODS[method][0]
    cls = getattr(skpapk, cls_name, None)
    if cls is None:
        raise SystemExit(f"skpapk.{cls_name} (method {method!r}) does not import "
                         f"in this version of skpapk; leave it out of --methods.")
    return cls


def has_step_size(method):
    """Whether the method is trained by subgradient steps (eta0, max_iter)."""
    return "eta0" in _estimator_class(method)().get_params()


def make_estimator(method, k, eta0, alpha, max_iter, random_state, tol="default"):
    """The method's ranker for one grid cell.

    The subgradient rankers take ``eta0`` and ``max_iter`` (epochs); Greedy
    and Select (logistic regressions) have no step size: only ``alpha`` is
    tuned for them, their own ``max_iter`` (lbfgs iterations / Select
    rounds) keeps its default, and ``random_state`` seeds Greedy's folds.
    """
    est = _estimator_class(method)()
    params = {"k": k, "alpha": alpha}
    if eta0 is not None:
        params.update(eta0=eta0, max_iter=max_iter)
        if tol != "default":
            params["tol"] = tol
    if "random_state" in est.get_params():
        params["random_state"] = random_state
    return est.set_params(**params)


def _micro(y, scores, groups, k, mask):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return papk_score(y[mask], scores[mask], k=k, groups=groups[mask])


def initial_coef(init, n_features, run, seed):
    """``w_0`` of the subgradient rankers: ``None`` (zero) or ``N(0, I)``."""
    if init == "zero":
        return None
    return np.random.default_rng([seed, run]).normal(size=n_features)


def fit_best_train(est, X, y, groups, coef_init, n_epochs):
    """Run ``n_epochs`` epochs; keep the iterate of lowest training surrogate.

    The authors' choice: among ``w_0, ..., w_(T-1)`` (the iterates whose
    surrogate was evaluated), the one with the lowest mean surrogate over
    the training users, the regulariser left out (``w_0 = 0`` is left out
    too: it scores every row alike). The first epoch is a public
    ``est.fit(..., coef_init=coef_init)`` with ``max_iter=1`` (validation,
    ``classes_``); the next ones continue its solver state
    (``est._solver_state``, a private hook) one epoch at a time with
    :func:`skpapk._solver.projected_subgradient`, which is what
    ``warm_start=True, max_iter=1`` would do without re-validating the data
    every epoch. The surrogate at ``w_t`` is the recorded objective minus
    ``alpha * ||w_t||^2``. Sets ``est.coef_`` to the chosen iterate and
    returns its epoch ``t``.
    """
    from skpapk._solver import projected_subgradient

    est.set_params(max_iter=1, tol=None)
    est.fit(X, y, groups=groups, coef_init=coef_init)
    state = est._solver_state
    y_pos = np.asarray(y) == est.classes_[-1]
    labels, codes = np.unique(groups, return_inverse=True)
    loss = est._get_surrogate()
    w_prev = (np.zeros(X.shape[1]) if coef_init is None
              else np.asarray(coef_init, dtype=np.float64))
    best_value, best_w, best_t = np.inf, w_prev, 0
    for t in range(n_epochs):
        if t > 0:
            w_prev = state.w
            projected_subgradient(
                X, y_pos, codes.reshape(-1), labels.shape[0], loss=loss, k=est.k,
                eta0=est.eta0, alpha=est.alpha, max_iter=1, tol=None,
                radius=est.radius, state=state)
            if state.diverged:
                break
        value = state.objective_curve[t] - est.alpha * float(w_prev @ w_prev)
        if value < best_value and (t > 0 or coef_init is not None):
            best_value, best_w, best_t = value, w_prev, t
    est.coef_ = np.array(best_w, dtype=np.float64)
    est.n_iter_, est.t_ = len(state.objective_curve), state.t
    return best_t


def fit_cell(method, k, run, eta0, alpha, max_iter, users, parts, tol="default",
             init="zero", iterate="last", seed=0):
    """Fit one grid cell; return its validation and test micro-pAp@k."""
    (X_tr, y_tr, g_tr), (X_va, y_va, g_va), (X_te, y_te, g_te) = parts
    train_rows = (paper_user_mask(y_tr, g_tr, k) if users == "paper"
                  else slice(None))
    est = make_estimator(method, k, eta0, alpha, max_iter, random_state=run, tol=tol)
    fit_data = (X_tr[train_rows], y_tr[train_rows], g_tr[train_rows])
    step = eta0 is not None
    coef_init = initial_coef(init, X_tr.shape[1], run, seed) if step else None
    best_t = -1
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        if step and iterate == "best-train":
            best_t = fit_best_train(est, *fit_data, coef_init, max_iter)
        elif step:
            est.fit(*fit_data[:2], groups=fit_data[2], coef_init=coef_init)
        else:
            est.fit(*fit_data[:2], groups=fit_data[2])
    seconds = time.perf_counter() - start
    s_va, s_te = est.decision_function(X_va), est.decision_function(X_te)
    all_va = np.ones(y_va.shape[0], dtype=bool)
    all_te = np.ones(y_te.shape[0], dtype=bool)
    paper_va = paper_user_mask(y_va, g_va, k)
    paper_te = paper_user_mask(y_te, g_te, k)
    return {
        "method": method, "k": k, "run": run, "eta0": eta0, "alpha": alpha,
        "val_paper": _micro(y_va, s_va, g_va, k, paper_va),
        "test_paper": _micro(y_te, s_te, g_te, k, paper_te),
        "val_all": _micro(y_va, s_va, g_va, k, all_va),
        "test_all": _micro(y_te, s_te, g_te, k, all_te),
        "n_iter": getattr(est, "n_iter_", -1),
        "best_t": best_t, "coef_norm": float(np.linalg.norm(est.coef_)),
        "seconds": seconds,
    }


def authors_split(n_rows, rng):
    """The authors' split: per row, train with probability 0.6, else validation
    or test with probability 1/2 each (``data_processing_for_movielens.py``:
    two Bernoulli masks per user; the coins are independent per row, so one
    pass over all rows draws the same distribution). Parts sizes vary per
    user, unlike :func:`within_group_split`'s exact 60/20/20 per label."""
    train = rng.random(n_rows) <= 0.6
    val = ~train & (rng.random(n_rows) <= 0.5)
    test = ~train & ~val
    return tuple(np.flatnonzero(mask) for mask in (train, val, test))


def prepare_runs(datasets, seed, split="stratified"):
    """Per run: split its dataset per user, scale with the train min/max.

    ``datasets`` holds one data Bunch per run (the same one for every run
    unless the NMF features are drawn again per run).
    """
    prepared = []
    for run, d in enumerate(datasets):
        X, y, g = d.data, d.target, d.groups
        if split == "stratified":
            parts_idx = within_group_split(y, g, sizes=(0.6, 0.2, 0.2),
                                           random_state=seed + run)
        else:
            parts_idx = authors_split(y.shape[0],
                                      np.random.default_rng([seed, run, 1]))
        scaler = MinMaxScaler().fit(X[parts_idx[0]])
        prepared.append(tuple((scaler.transform(X[idx]), y[idx], g[idx])
                              for idx in parts_idx))
    return prepared


def select_best(records, users):
    """Best validation cell per (method, k, run)."""
    val_key = f"val_{users}"
    best = {}
    for rec in records:  # records come in grid order: ties keep the first
        key = (rec["method"], rec["k"], rec["run"])
        if key not in best or rec[val_key] > best[key][val_key]:
            best[key] = rec
    return best


def summary_tables(best, methods, ks, users):
    header = ["method"] + [f"k={k}" for k in ks]
    ours, paper, diff = [], [], []
    for method in methods:
        label = METHODS[method][1]
        row, prow, drow = [label], [label], [label]
        for k in ks:
            vals = [rec[f"test_{users}"] for (m, kk, _), rec in best.items()
                    if m == method and kk == k]
            paper_value = PAPER[method][KS.index(k)] if k in KS else float("nan")
            if vals:
                mean, std = 100 * np.mean(vals), 100 * np.std(vals)
                row.append(f"{mean:.1f} ± {std:.1f}")
                drow.append(f"{mean - paper_value:+.1f}")
            else:
                row.append("-")
                drow.append("-")
            prow.append(f"{paper_value:.1f}")
        ours.append(row)
        paper.append(prow)
        diff.append(drow)
    return header, ours, paper, diff


def chosen_params(best, methods, ks):
    header = ["method"] + [f"k={k}" for k in ks]
    rows = []
    for method in methods:
        row = [METHODS[method][1]]
        for k in ks:
            cells = sorted((run, rec["eta0"], rec["alpha"])
                           for (m, kk, run), rec in best.items()
                           if m == method and kk == k)
            row.append(", ".join(("-" if e is None or e != e else f"{e:g}")
                                 + f"/{a:g}" for _, e, a in cells) or "-")
        rows.append(row)
    return header, rows


def run_values(best, methods, ks, users="paper"):
    """Test micro-pAp@k (%) of the chosen cells: array (runs, methods, ks)."""
    runs = sorted({run for (_, _, run) in best})
    return runs, np.array([[[100 * best[(m, k, run)][f"test_{users}"] for k in ks]
                            for m in methods] for run in runs])


def within(diff, points=2.0):
    """Cells whose difference, rounded to 0.1 as printed, is within ``points``."""
    return np.abs(np.round(diff, 1)) <= points


def noise_calibration(best, methods, ks, points=2.0):
    """How far one run lies from the mean of the other runs, in the table's cells.

    The paper's numbers come from one split and one set of NMF features; a
    faithful replication of one such draw differs from the mean over draws
    by the run-to-run noise. Each of our runs, held out, plays the paper's
    role against the mean of the remaining runs: the rows say in how many
    cells it lies within ``points`` and its largest deviation, beside the
    same two numbers for the paper against the mean of all our runs.
    """
    header = ["compared", f"cells within {points:g}", "largest deviation",
              "cells above / below"]
    runs, values = run_values(best, methods, ks)

    def row(label, diff):
        return [label, f"{int(within(diff, points).sum())} of {diff.size}",
                f"{np.abs(diff).max():.1f}",
                f"{int((diff > 0).sum())} / {int((diff < 0).sum())}"]

    rows = []
    if len(runs) >= 2:
        rows += [row(f"run {run} vs mean of the other {len(runs) - 1} runs",
                     values[i] - np.delete(values, i, axis=0).mean(axis=0))
                 for i, run in enumerate(runs)]
    if all(m in PAPER for m in methods) and all(k in KS for k in ks):
        paper = np.array([[PAPER[m][KS.index(k)] for k in ks] for m in methods])
        rows.append(row(f"paper vs mean of our {len(runs)} runs",
                        paper - values.mean(axis=0)))
    return header, rows


def save_best(best, path):
    """The chosen cells' test scores as JSON: ``[method, k, run, test_paper,
    test_all]`` rows (numbers only: nothing a reader would execute)."""
    import json

    rows = [[m, k, run, rec["test_paper"], rec["test_all"]]
            for (m, k, run), rec in best.items()]
    with open(path, "w") as f:
        json.dump(rows, f)


def read_records(path, methods=None, exclude=()):
    """The fits of a CSV written by ``--csv`` (numbers parsed)."""
    import csv

    with open(path) as f:
        rows = [r for r in csv.DictReader(f)
                if (methods is None or r["method"] in methods)
                and r["method"] not in exclude]
    return [{key: (value if key == "method" else
                   float(value) if value not in ("", "None") else None)
             for key, value in r.items()} for r in rows]


def refit_final(best, prepared, args, tol):
    """Retrain every chosen cell for the authors' final number of epochs.

    The validation scores (which chose the cell) are kept; the test scores
    become those of the retrained model.
    """
    keys = [key for key in best if key[0] in AUTHORS_FINAL_EPOCHS]
    refits = Parallel(n_jobs=args.n_jobs, verbose=2)(
        delayed(fit_cell)(m, k, run, best[(m, k, run)]["eta0"],
                          best[(m, k, run)]["alpha"], AUTHORS_FINAL_EPOCHS[m],
                          args.users, prepared[run], tol, args.init,
                          args.iterate, args.seed)
        for (m, k, run) in keys)
    for key, rec in zip(keys, refits):
        best[key] = {**best[key], "test_paper": rec["test_paper"],
                     "test_all": rec["test_all"], "final_best_t": rec["best_t"]}
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=data_path(),
                        help="u.data of MovieLens 100K (default: SKPAPK_DATA / "
                             "the scikit-learn data home / download)")
    parser.add_argument("--runs", type=positive_int, default=5,
                        help="number of random splits")
    parser.add_argument("--seed", type=non_negative_int, default=0,
                        help="split seed of run 0")
    parser.add_argument("--k", type=positive_int, nargs="+", default=list(KS))
    parser.add_argument("--methods", nargs="+", default=list(METHODS),
                        choices=list(METHODS))
    parser.add_argument("--grid", choices=list(GRIDS), default="paper")
    parser.add_argument("--max-iter", type=positive_int, default=200,
                        help="maximum epochs per fit (the rankers stop earlier "
                             "on tol; the authors' scripts run 61 to 201)")
    parser.add_argument("--tol", default="default",
                        help="tol of the subgradient rankers: 'default' keeps "
                             "theirs (1e-4, 10 epochs without improvement), "
                             "'none' runs --max-iter epochs, or a number")
    parser.add_argument("--init", choices=["zero", "random"], default="zero",
                        help="w_0 of the subgradient rankers: 0 (Algorithm 1) "
                             "or N(0, I) seeded by the run (the authors' code)")
    parser.add_argument("--iterate", choices=["last", "best-train"], default="last",
                        help="iterate returned: the rankers' coef_ (last) or the "
                             "one of lowest training surrogate among w_0..w_(T-1), "
                             "T = --max-iter epochs, no stopping rule (the "
                             "authors' code)")
    parser.add_argument("--reg", choices=["paper", "authors"], default="paper",
                        help="alpha for each lambda of the grid: alpha = lambda "
                             "(objective + lambda ||w||^2, App. F) or lambda / 2 "
                             "(the authors' step adds lambda * w)")
    parser.add_argument("--users", choices=["paper", "all"], default="paper")
    parser.add_argument("--split", choices=["stratified", "authors"],
                        default="stratified",
                        help="per-user split: exact 60/20/20 per (user, label) "
                             "(within_group_split) or the authors' per-row "
                             "coins (train with p = 0.6, then val/test 50/50)")
    parser.add_argument("--nmf-init", choices=["random", "lstsq"], default="random",
                        help="start of the NMF (load_movielens_100k(nmf_init=...)): "
                             "ours, or the authors' least-squares item factors")
    parser.add_argument("--nmf-seed", choices=["fixed", "per-run"], default="fixed",
                        help="NMF random_state of the features: --seed for every run, "
                             "or the run's seed (features drawn again per run)")
    parser.add_argument("--n-jobs", type=n_jobs_int, default=2)
    parser.add_argument("--csv", default=None,
                        help="write every fit (one row per grid cell) here; with "
                             "--append, keep the rows of the other methods")
    parser.add_argument("--append", action="store_true")
    parser.add_argument("--from-csv", default=None,
                        help="skip the grid: take its fits from this CSV (written "
                             "by --csv with the same options)")
    parser.add_argument("--final-epochs", choices=["same", "authors"], default="same",
                        help="'authors': retrain each chosen cell for the epochs "
                             "of the authors' final runs (avg and SVM-pAUC 201, "
                             "max, TS and SGD@k 121) and report its test score")
    parser.add_argument("--markdown", default=None,
                        help="write the tables (command, date, machine) here")
    parser.add_argument("--save-best", default=None, metavar="JSON",
                        help="write the test scores of the chosen cells here "
                             "(read by benchmarks.experiments.table3_protocols)")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    data = load_movielens_100k(args.path, random_state=args.seed,
                               nmf_init=args.nmf_init)
    print(f"MovieLens 100K: {data.data.shape[0]} rows, {data.data.shape[1]} "
          f"features, {int(data.target.sum())} positives, "
          f"{np.unique(data.groups).shape[0]} users "
          f"(loaded in {time.perf_counter() - start:.1f} s)")
    datasets = [data] * args.runs
    if args.nmf_seed == "per-run":
        datasets[1:] = [load_movielens_100k(args.path, random_state=args.seed + run,
                                            nmf_init=args.nmf_init)
                        for run in range(1, args.runs)]
    prepared = prepare_runs(datasets, args.seed, args.split)
    etas, alphas = GRIDS[args.grid]
    if args.reg == "authors":
        alphas = tuple(a / 2 for a in alphas)
    cells = [(m, k, run, e, a) for run in range(args.runs) for k in args.k
             for m in args.methods
             for e in (etas if has_step_size(m) else [None]) for a in alphas]
    print((f"fits read from {args.from_csv}; grid of " if args.from_csv else "")
          + f"{len(cells)} fits: {args.runs} runs x {len(args.k)} k x "
          f"{len(args.methods)} methods x {len(etas)} eta0 (subgradient methods "
          f"only) x {len(alphas)} alpha, "
          f"max_iter={args.max_iter}, n_jobs={args.n_jobs}", flush=True)

    tol = {"default": "default", "none": None}.get(args.tol.lower(), None)
    if args.tol.lower() not in ("default", "none"):
        tol = float(args.tol)
    start = time.perf_counter()
    if args.from_csv:
        records = read_records(args.from_csv, args.methods)
        for r in records:
            r["k"], r["run"] = int(r["k"]), int(r["run"])
        records = [r for r in records if r["k"] in args.k and r["run"] < args.runs]
    else:
        records = Parallel(n_jobs=args.n_jobs, verbose=5)(
            delayed(fit_cell)(m, k, run, e, a, args.max_iter, args.users,
                              prepared[run], tol, args.init, args.iterate, args.seed)
            for (m, k, run, e, a) in cells)
    elapsed = time.perf_counter() - start
    fit_seconds = {m: np.mean([r["seconds"] for r in records if r["method"] == m])
                   for m in args.methods}
    print(f"grid done in {elapsed / 60:.1f} min; mean seconds per fit: "
          + ", ".join(f"{m} {s:.2f}" for m, s in fit_seconds.items()))

    if args.csv and not args.from_csv:
        import csv

        old = []
        if args.append and os.path.exists(args.csv):
            old = read_records(args.csv, exclude=args.methods)
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(records[0]))
            writer.writeheader()
            writer.writerows(old + records)
        records = old + records
        for r in records:
            r["k"], r["run"] = int(r["k"]), int(r["run"])

    methods = [m for m in METHODS if any(r["method"] == m for r in records)]
    ks = sorted({r["k"] for r in records})
    out = [f"Command: `{command_line()}`", "", f"Date: {today()}", "",
           f"Machine: {machine_info()}", "",
           (f"Grid fits read from {Path(args.from_csv).name} " if args.from_csv else
            f"Grid time: {elapsed / 60:.1f} min for {len(cells)} fits ") +
           f"({args.grid} grid: eta0 in {list(etas)}, alpha in {list(alphas)}; "
           f"max_iter={args.max_iter}; tol={args.tol}; {args.runs} runs; "
           f"users={args.users}; init={args.init}; iterate={args.iterate}; "
           f"reg={args.reg}; split={args.split}; nmf-init={args.nmf_init}; "
           f"nmf-seed={args.nmf_seed})", ""]
    best = select_best(records, args.users)
    if args.final_epochs == "authors":
        start = time.perf_counter()
        best = refit_final(best, prepared, args, tol)
        out += [f"Test scores of the chosen cells retrained for "
                f"{AUTHORS_FINAL_EPOCHS} epochs (the authors' final runs) in "
                f"{(time.perf_counter() - start) / 60:.1f} min; chosen by the "
                f"validation scores of the {args.max_iter}-epoch grid.", ""]
    if args.save_best:
        save_best(best, args.save_best)
    for users in (args.users, "all" if args.users == "paper" else "paper"):
        header, ours, paper, diff = summary_tables(best, methods, ks, users)
        title = ("users with >= 1 positive and >= k negatives in the part "
                 "(the authors' code)" if users == "paper"
                 else "every user with a positive and a negative")
        out += [f"### Test micro-pAp@k (%), mean ± std over runs; scored on {title}",
                "", markdown_table(header, ours), "",
                "Ours minus the paper:", "", markdown_table(header, diff), ""]
    subgradient = [m for m in methods if m in ("avg", "max", "ts")]
    if subgradient:
        out += [f"### Noise of one run (the paper's numbers are one split, one "
                f"set of features): {', '.join(METHODS[m][1] for m in subgradient)}",
                "", markdown_table(*noise_calibration(best, subgradient, ks)), ""]
    out += ["### The paper's Table 3 (MovieLens)", "",
            markdown_table(header, paper), "",
            "### Chosen eta0/alpha per run (on validation)", "",
            markdown_table(*chosen_params(best, methods, ks)), ""]
    text = "\n".join(out)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("# Table 3 (MovieLens 100K) reproduced\n\n" + text)
        print(f"wrote {args.markdown}")


if __name__ == "__main__":
    main()
