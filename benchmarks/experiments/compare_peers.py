"""Leaderboard on MovieLens 100K: skpapk's rankers against the rankers people use.

Protocol (the paper's App. F.1 data, the same splits for every method, in one
run):

- :func:`skpapk.datasets.load_movielens_100k` with ``random_state=split``
  (the NMF features are fixed per split), every user's rows split 60/20/20
  into train / validation / test
  (:func:`skpapk.model_selection.within_group_split`, seed = split), every
  feature scaled with the train min/max (``MinMaxScaler``);
- every method is fitted on the train rows only, for each candidate of its
  grid (the budgets are comparable: 6-8 candidates for every tuned method;
  "defaults" rows are not tuned at all), and the candidate with the best
  **validation** micro-pAp@k is kept, separately for each k in {8, 16, 24};
- the kept candidate's **test** micro-pAp@k (paper eq. 17, the mean over
  users of the per-user pAp@k), prec@k and NDCG@k (per user, averaged) are
  reported as mean ± std over the splits, with the seconds of one fit of
  the kept candidate (one thread where the library allows it);
- the random ranking row is the exact expectation
  (:func:`skpapk.metrics.expected_papk_score` and friends);
- per k, the best skpapk row and the best peer row, each chosen by its
  mean **validation** micro-pAp@k over the splits (never by test), are
  compared user by user on the test parts of every split with
  :func:`skpapk.metrics.paired_comparison` (difference, its standard
  error, sign-flip p-value, bootstrap interval).

Methods absent from the environment (lightgbm, xgboost) are left out with a
note. ``--quick`` runs one split and small grids (a smoke test, not a
result).

Run ``python -m benchmarks run-all --only compare_peers`` (about half an
hour on 2 idle cores). The data are read from ``--path`` (default: the loader's own
search, ``SKPAPK_DATA`` first); never copy them into the repository.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread per fit, for all

import argparse  # noqa: E402
import itertools  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: E402
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.preprocessing import MinMaxScaler  # noqa: E402

import skpapk  # noqa: E402
from skpapk import PApKAvgRanker, PApKMaxRanker, PApKRanker, PApKTSRanker  # noqa: E402
from skpapk.datasets import load_movielens_100k  # noqa: E402
from skpapk.metrics import (  # noqa: E402
    expected_papk_score,
    expected_precision_at_k_score,
    ndcg_at_k_score,
    paired_comparison,
    papk_score,
    precision_at_k_score,
)
from skpapk.model_selection import within_group_split  # noqa: E402

from .._common import (  # noqa: E402
    command_line,
    data_path,
    machine_info,
    markdown_table,
    positive_int,
    today,
)

KS = (8, 16, 24)


def grid(**axes):
    """Every combination of the given parameter values, as a list of dicts."""
    names = list(axes)
    return [dict(zip(names, values)) for values in itertools.product(*axes.values())]


@dataclass
class Method:
    """A row of the leaderboard.

    ``make(params, k)`` builds an unfitted estimator; ``kind`` says how it is
    fitted and how it scores: ``"skpapk"`` (``fit(X, y, groups=g)``,
    ``decision_function``), ``"pointwise"`` (``fit(X, y)``,
    ``decision_function``), ``"lgbm"`` (rows sorted by user, ``group=`` sizes,
    ``predict``), ``"xgb"`` (sorted, ``qid=``, ``predict``). A method whose
    fit does not depend on ``k`` is fitted once per candidate and scored at
    every ``k``.
    """

    name: str
    family: str
    make: object
    candidates: list = field(default_factory=lambda: [{}])
    kind: str = "skpapk"
    depends_on_k: bool = False
    requires: str = None


def _lgbm(objective):
    def make(params, k):
        import lightgbm

        extra = ({"lambdarank_truncation_level": k + 1}
                 if objective == "lambdarank" else {})
        return lightgbm.LGBMRanker(objective=objective, n_jobs=1, verbose=-1,
                                   random_state=0, **extra, **params)
    return make


def _xgb(objective):
    def make(params, k):
        import xgboost

        return xgboost.XGBRanker(objective=objective, n_jobs=1, random_state=0,
                                 tree_method="hist", **params)
    return make


def _boost(objective):
    def make(params, k):
        return skpapk.PApKBoostRanker(k=k, objective=objective, n_jobs=1,
                                      random_state=0, **params)
    return make


def methods(quick=False):
    """The leaderboard's rows with their grids."""
    tree_grid = grid(learning_rate=[0.05, 0.1], num_leaves=[15, 31],
                     n_estimators=[100, 300])
    if quick:
        tree_grid = tree_grid[:2]
    paper_grid = grid(eta0=[0.01, 0.1, 1.0], alpha=[1e-3, 1e-2])
    rows = [
        Method("PApKRanker() (defaults)", "skpapk linear",
               lambda p, k: PApKRanker(k=k, **p)),
        Method("PApKRanker (alpha, group_weight tuned)", "skpapk linear",
               lambda p, k: PApKRanker(k=k, **p),
               grid(alpha=[1e-5, 1e-4, 1e-3],
                    group_weight=["uniform", "inverse_variance"])),
        Method("PApKRanker soft_papk (temperature tuned)", "skpapk linear",
               lambda p, k: PApKRanker("soft_papk", k=k, **p),
               grid(temperature=[1.0, 2.0, 4.0, 8.0]), depends_on_k=True),
    ]
    for cls in (PApKAvgRanker, PApKMaxRanker, PApKTSRanker):
        rows.append(Method(
            f"{cls.__name__} (Algorithm 1, eta0 and alpha tuned)",
            "skpapk linear (paper)",
            lambda p, k, cls=cls: cls(k=k, **p), paper_grid, depends_on_k=True))
    rows.append(Method(
        "LogisticRegression (C tuned)", "pointwise",
        lambda p, k: LogisticRegression(max_iter=5000, **p),
        grid(C=[1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0]), kind="pointwise"))
    rows.append(Method(
        "HistGradientBoostingClassifier() (defaults)", "pointwise",
        lambda p, k: HistGradientBoostingClassifier(random_state=0),
        kind="pointwise"))
    hgb_grid = [{"learning_rate": p["learning_rate"], "max_leaf_nodes": p["num_leaves"],
                 "max_iter": p["n_estimators"]} for p in tree_grid]
    rows.append(Method(
        "HistGradientBoostingClassifier (tuned)", "pointwise",
        lambda p, k: HistGradientBoostingClassifier(random_state=0, **p),
        hgb_grid, kind="pointwise"))
    rows.append(Method(
        "PApKBoostRanker() (defaults)", "skpapk boosted", _boost_defaults(),
        depends_on_k=True, requires="lightgbm"))
    for objective in ("pairwise_logistic", "soft_papk", "binary", "lambdarank",
                      "rank_xendcg"):
        rows.append(Method(
            f"PApKBoostRanker(objective={objective!r}) (tuned)", "skpapk boosted",
            _boost(objective), tree_grid, depends_on_k=True, requires="lightgbm"))
    for objective in ("lambdarank", "rank_xendcg"):
        rows.append(Method(
            f"LGBMRanker(objective={objective!r}) (tuned)", "LightGBM",
            _lgbm(objective), tree_grid, kind="lgbm",
            depends_on_k=objective == "lambdarank", requires="lightgbm"))
    xgb_grid = [{"learning_rate": p["learning_rate"], "max_leaves": p["num_leaves"],
                 "n_estimators": p["n_estimators"]} for p in tree_grid]
    for objective in ("rank:ndcg", "rank:pairwise"):
        rows.append(Method(
            f"XGBRanker(objective={objective!r}) (tuned)", "XGBoost",
            _xgb(objective), xgb_grid, kind="xgb", requires="xgboost"))
    return rows


def _boost_defaults():
    def make(params, k):
        return skpapk.PApKBoostRanker(k=k, **params)
    return make


def available(method):
    """Whether the method's library (and skpapk's boosted ranker) is here."""
    if method.requires is None:
        return True
    try:
        __import__(method.requires)
    except ImportError:
        return False
    return method.family != "skpapk boosted" or hasattr(skpapk, "PApKBoostRanker")


def load_split(split, path):
    data = load_movielens_100k(path, random_state=split)
    X, y, g = data.data, data.target, data.groups
    train, val, test = within_group_split(y, g, random_state=split)
    scaler = MinMaxScaler().fit(X[train])
    return [(scaler.transform(X[rows]), y[rows], g[rows])
            for rows in (train, val, test)]


def fit_and_score(method, params, k, parts):
    """Fit on the train part; return the scores of the other parts and the time."""
    (X, y, g), *others = parts
    estimator = method.make(params, k)
    start = time.perf_counter()
    if method.kind == "skpapk":
        estimator.fit(X, y, groups=g)
    elif method.kind == "pointwise":
        estimator.fit(X, y)
    else:
        order = np.argsort(g, kind="stable")
        codes, sizes = np.unique(g[order], return_inverse=True, return_counts=True)[1:]
        if method.kind == "lgbm":
            estimator.fit(X[order], y[order], group=sizes)
        else:
            estimator.fit(X[order], y[order], qid=codes)
    seconds = time.perf_counter() - start
    response = (estimator.decision_function if hasattr(estimator, "decision_function")
                else estimator.predict)
    return [np.asarray(response(Xp), dtype=np.float64) for Xp, _, _ in others], seconds


def evaluate(y, scores, g, k):
    return {
        "papk": papk_score(y, scores, k=k, groups=g),
        "papk_per_user": papk_score(y, scores, k=k, groups=g, average=None),
        "preck": precision_at_k_score(y, scores, k=k, groups=g),
        "ndcg": ndcg_at_k_score(y, scores, k=k, groups=g),
    }


def run_method(method, parts, ks):
    """Per k: the chosen candidate's validation micro-pAp@k, test metrics
    and fit seconds."""
    (_, _, _), (_, yv, gv), (_, ys, gs) = parts
    best = {k: (-np.inf, None) for k in ks}
    fitted = {}
    for params in method.candidates:
        for k in (ks if method.depends_on_k else ks[:1]):
            (val_scores, test_scores), seconds = fit_and_score(method, params, k,
                                                               parts)
            for k_eval in ((k,) if method.depends_on_k else ks):
                fitted[(str(params), k_eval)] = (test_scores, seconds)
                score = papk_score(yv, val_scores, k=k_eval, groups=gv)
                if score > best[k_eval][0]:
                    best[k_eval] = (score, params)
    out = {}
    for k in ks:
        params = best[k][1]
        test_scores, seconds = fitted[(str(params), k)]
        out[k] = dict(evaluate(ys, test_scores, gs, k), val_papk=best[k][0],
                      seconds=seconds, params=params)
    return out


def random_row(parts, ks):
    """The exact expectations of a random ranking of the test rows."""
    _, _, (_, ys, gs) = parts
    with warnings.catch_warnings():  # the same users are left out as above
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return {k: {"papk": expected_papk_score(ys, k=k, groups=gs),
                    "preck": expected_precision_at_k_score(ys, k=k, groups=gs),
                    # a constant score under ties="random" is exactly the
                    # expectation over uniformly random rankings
                    "ndcg": ndcg_at_k_score(ys, np.zeros(ys.shape[0]), k=k,
                                            groups=gs),
                    "seconds": 0.0, "params": {}} for k in ks}


def summarise(results, names, ks, n_splits):
    """Markdown tables: one per metric, mean ± std over the splits."""
    lines = []
    for metric, title in (("papk", "test micro-pAp@k (%)"),
                          ("preck", "test prec@k (%)"), ("ndcg", "test NDCG@k (%)")):
        rows = []
        for name in names:
            cells = [name]
            for k in ks:
                values = np.array([results[name][s][k][metric]
                                   for s in range(n_splits)]) * 100
                cells.append("-" if np.all(np.isnan(values))
                             else f"{values.mean():.1f} ± {values.std():.1f}")
            rows.append(cells)
        lines += [f"### {title}", "",
                  markdown_table(["model"] + [f"k={k}" for k in ks], rows), ""]
    rows = []
    for name in names:
        seconds = [results[name][s][k]["seconds"] for s in range(n_splits) for k in ks]
        chosen = sorted({str(results[name][s][k]["params"])
                         for s in range(n_splits) for k in ks})
        rows.append([name, f"{np.mean(seconds):.2f}", "; ".join(chosen)])
    lines += ["### fit seconds of the kept candidate, and the kept candidates", "",
              markdown_table(["model", "seconds", "kept parameters"], rows), ""]
    return "\n".join(lines)


def _mean(results, name, k, n_splits, metric="papk"):
    """Mean over the splits of a row's ``metric`` at ``k``, in %."""
    return np.mean([results[name][s][k][metric] for s in range(n_splits)]) * 100


def _chosen(results, candidates, k, n_splits):
    """The row of ``candidates`` with the best mean validation micro-pAp@k:
    the choice never sees the test parts."""
    return max(candidates, key=lambda n: _mean(results, n, k, n_splits, "val_papk"))


def targets(results, names, ks, n_splits):
    """The project's quality targets, from the measured means (no threshold
    is tuned); the best rows are chosen on validation."""
    boosted = [n for n in names if n.startswith("PApKBoostRanker")]
    peers = [n for n in names if not n.startswith(("PApK", "random"))]
    lines = ["### Targets (test micro-pAp@k, mean over splits, %)", "",
             "The best PApKBoostRanker row and the best peer row are the ones "
             "with the best mean validation micro-pAp@k.", ""]
    rows = []
    for k in ks:
        cells = [f"k={k}"]
        if boosted and peers:
            best_b, best_p = (_chosen(results, rows_, k, n_splits)
                              for rows_ in (boosted, peers))
            test_b, test_p = (_mean(results, n, k, n_splits) for n in (best_b, best_p))
            cells += [f"{best_b}: {test_b:.2f}", f"{best_p}: {test_p:.2f}",
                      f"{test_b - test_p:+.2f}"]
        else:
            cells += ["-", "-", "-"]
        lr = "LogisticRegression (C tuned)"
        default = "PApKRanker() (defaults)"
        if lr in names and default in names:
            gap = (_mean(results, default, k, n_splits)
                   - _mean(results, lr, k, n_splits))
            cells.append(f"{gap:+.2f}")
        else:
            cells.append("-")
        rows.append(cells)
    lines.append(markdown_table(
        ["k", "best PApKBoostRanker", "best peer", "boosted - peer",
         "PApKRanker() - LogisticRegression"], rows))
    return "\n".join(lines) + "\n"


def paired(results, names, ks, n_splits):
    """Best skpapk ranker against the best peer, paired over the test users.

    Per k, the skpapk row and the peer row with the best mean validation
    micro-pAp@k over the splits; their per-user test pAp@k of every split
    are paired (a unit is one user of one split) and compared by
    :func:`skpapk.metrics.paired_comparison`.
    """
    ours = [n for n in names if n.startswith("PApK")]
    peers = [n for n in names if not n.startswith(("PApK", "random"))]
    if not ours or not peers:
        return ""
    rows = []
    for k in ks:
        best_a, best_b = (_chosen(results, rows_, k, n_splits)
                          for rows_ in (ours, peers))
        gains = [np.concatenate([results[n][s][k]["papk_per_user"]
                                 for s in range(n_splits)]) for n in (best_a, best_b)]
        res = paired_comparison(*gains, random_state=0)
        low, high = res.confidence_interval
        rows.append([f"k={k}", best_a, best_b, f"{res.mean_difference * 100:+.2f}",
                     f"{res.standard_error * 100:.2f}", f"{res.pvalue:.4f}",
                     f"[{low * 100:+.2f}, {high * 100:+.2f}]", str(res.n_groups)])
    return "\n".join([
        "### Best skpapk ranker against the best peer, paired per test user", "",
        "The two rows with the best mean validation micro-pAp@k (the choice "
        "never sees the test parts); test pAp@k differences (points) of the "
        "same users (a unit is one user of one split), "
        "`skpapk.metrics.paired_comparison(random_state=0)`: mean, standard "
        "error, two-sided sign-flip randomization p-value (9999 flips) and "
        "95% percentile bootstrap interval.", "",
        markdown_table(["k", "best skpapk ranker", "best peer", "difference",
                        "standard error", "p-value", "95% interval", "units"], rows),
        ""])


def write_markdown(path, header, report):
    """Write the measured tables (the reading of them: benchmarks/notes/)."""
    Path(path).write_text("\n".join(header) + report)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=positive_int, default=3)
    parser.add_argument("--path", default=data_path())
    parser.add_argument("--only", default=None,
                        help="comma-separated substrings of the method names to run")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--markdown", default=None)
    args = parser.parse_args(argv)
    n_splits = 1 if args.quick else args.splits
    rows = [m for m in methods(args.quick) if available(m)]
    missing = [m.name for m in methods(args.quick) if not available(m)]
    if args.only:
        wanted = args.only.split(",")
        rows = [m for m in rows if any(w in m.name for w in wanted)]
    names = [m.name for m in rows] + ["random ranking (exact expectation)"]
    results = {name: [] for name in names}
    started = time.perf_counter()
    for split in range(n_splits):
        parts = load_split(split, args.path)
        print(f"split {split}: {parts[0][0].shape[0]} train rows, "
              f"{len(np.unique(parts[0][2]))} users", flush=True)
        for method in rows:
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", (ConvergenceWarning,
                                                 UndefinedMetricWarning))
                results[method.name].append(run_method(method, parts, KS))
            summary = ", ".join(f"k={k} {results[method.name][-1][k]['papk'] * 100:.1f}"
                                for k in KS)
            print(f"  {method.name}: {summary} ({time.perf_counter() - t0:.0f} s)",
                  flush=True)
        results[names[-1]].append(random_row(parts, KS))
    report = (summarise(results, names, KS, n_splits)
              + targets(results, names, KS, n_splits) + "\n"
              + paired(results, names, KS, n_splits))
    elapsed = (time.perf_counter() - started) / 60
    print(report)
    if missing:
        print("left out (not installed):", ", ".join(missing))
    if args.markdown:
        header = [
            "# Leaderboard on MovieLens 100K",
            "",
            f"Command: `{command_line(argv)}`  ",
            f"Date: {today()}; {n_splits} split(s); {elapsed:.0f} min.  ",
            f"Machine: {machine_info()}.",
            "",
            "Protocol: see the docstring of `benchmarks/experiments/compare_peers.py`.",
            "",
        ]
        write_markdown(args.markdown, header, report)


if __name__ == "__main__":
    main()
