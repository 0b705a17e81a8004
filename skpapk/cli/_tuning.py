"""Tuning by per-user cross-validation, with progress and honest diagnostics.

A small grid search: every (candidate, fold) fit runs in
:func:`_fit_and_score` (in joblib workers with ``--n-jobs``), which scores
the fold by micro-pAp@k and reports, besides the score, whether the model
gave every row the same score and the warnings its fit raised (so that a
diverged fit is known whatever process ran it). The best candidate is
refitted on all the rows. :func:`check_tuned` then turns a useless result
into an error and a grid edge into a note.
"""

import dataclasses
import itertools
import time
import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.model_selection import GroupKFold

from ..metrics import expected_papk_score, papk_score
from ..model_selection import WithinGroupKFold
from ._methods import available_methods, make_estimator, make_scaler
from ._output import CLIError, format_param, record_warnings


def make_cv(kind, n_splits, random_state):
    """``--cv within-group`` (rows of every user) or ``group`` (whole users)."""
    if kind == "group":
        return GroupKFold(n_splits=n_splits)
    return WithinGroupKFold(n_splits=n_splits, shuffle=True,
                            random_state=random_state)


@dataclasses.dataclass
class Settings:
    """What every fit of a method shares."""

    method: str
    k: int
    scale: str
    random_state: int
    max_iter: int = None


def fit_model(settings, params, X, y, groups, rows=None):
    """Fit the scaler and the estimator of a method on ``rows`` of ``X``."""
    spec = available_methods()[settings.method]
    estimator = make_estimator(settings.method, k=settings.k,
                               random_state=settings.random_state,
                               max_iter=settings.max_iter, params=params)
    scaler = make_scaler(settings.method, settings.scale)
    if rows is not None:
        X, y, groups = X[rows], y[rows], groups[rows]
    if scaler is not None:
        X = scaler.fit_transform(X if rows is not None else X.copy())
    if spec.fit_groups:
        estimator.fit(X, y, groups=groups)
    else:
        estimator.fit(X, y)
    return scaler, estimator


def predict(scaler, estimator, X):
    """Scores of ``X`` (not modified) under a fitted scaler and estimator."""
    if scaler is not None:
        X = scaler.transform(X.copy())
    return np.asarray(estimator.decision_function(X), dtype=np.float64).reshape(-1)


def micro_papk(y, scores, groups, k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return float(papk_score(y, scores, k=k, groups=groups))


def is_flat(scores, groups=None):
    """Whether no group's rows get two different finite scores."""
    scores = np.asarray(scores)
    if not np.all(np.isfinite(scores)):
        return True
    if groups is None:
        return bool(np.ptp(scores) == 0) if scores.size else True
    order = np.lexsort((scores, groups))
    s, g = scores[order], groups[order]
    return not bool(np.any((s[1:] != s[:-1]) & (g[1:] == g[:-1])))


def _fit_and_score(settings, params, X, y, groups, train, test):
    start = time.perf_counter()
    (scaler, estimator), caught = record_warnings(
        fit_model, settings, params, X, y, groups, train)
    scores = predict(scaler, estimator, X[test])
    flat = is_flat(scores)
    score = np.nan if flat else micro_papk(y[test], scores, groups[test],
                                           settings.k)
    return {"score": score, "flat": flat, "undefined": not flat and np.isnan(score),
            "warnings": caught,
            "diverged": any("diverged" in message for _, message in caught),
            "seconds": time.perf_counter() - start}


@dataclasses.dataclass
class Tuned:
    """The outcome of :func:`tune`."""

    params: dict
    cv_score: float
    candidates: list
    scaler: object
    estimator: object
    warnings: list
    seconds: float
    grid: dict


def _run(tasks, n_jobs, on_done):
    if n_jobs == 1:
        for task in tasks:
            on_done([task[0](*task[1:])])
        return
    from joblib import Parallel, delayed

    with Parallel(n_jobs=n_jobs) as parallel:
        for start in range(0, len(tasks), n_jobs):
            batch = tasks[start:start + n_jobs]
            on_done(parallel(delayed(t[0])(*t[1:]) for t in batch))


def tune(settings, grid, X, y, groups, *, cv, n_jobs, progress, title, fixed=None):
    """Cross-validate every candidate of ``grid``, refit the best on all rows.

    ``fixed`` parameters are set in every candidate. With an empty grid, only
    the refit runs (no cross-validation).
    """
    start = time.perf_counter()
    fixed = dict(fixed or {})
    names = sorted(grid)
    candidates = [{**fixed, **dict(zip(names, values))}
                  for values in itertools.product(*(grid[n] for n in names))]
    caught = []
    records = []
    if grid:
        splits = list(cv.split(X, y, groups))
        tasks = [(_fit_and_score, settings, params, X, y, groups, train, test)
                 for params in candidates for train, test in splits]
        results = []
        with progress.task(f"{title}: cross-validation", total=len(tasks),
                           unit="fits") as bar:
            def done(batch):
                results.extend(batch)
                bar.advance(len(batch))
            _run(tasks, n_jobs, done)
        n_folds = len(splits)
        if any(r["undefined"] for r in results):
            raise CLIError(
                "a cross-validation fold has no user with both a relevant and "
                "an irrelevant row, so it cannot be scored; use fewer "
                "--cv-folds (or --cv within-group).")
        for i, params in enumerate(candidates):
            folds = results[i * n_folds:(i + 1) * n_folds]
            scores = [r["score"] for r in folds]
            records.append({
                "params": params,
                "score": float(np.mean(scores)) if not np.isnan(scores).any()
                else np.nan,
                "n_flat": sum(r["flat"] for r in folds),
                "n_diverged": sum(r["diverged"] for r in folds),
                "n_folds": n_folds})
            for r in folds:
                caught.extend(r["warnings"])
        scored = [r for r in records if not np.isnan(r["score"])]
        if not scored:
            raise _useless(settings.method, records, grid)
        best = max(scored, key=lambda r: r["score"])  # the first of equals
        params, cv_score = best["params"], best["score"]
    else:
        params, cv_score = fixed, None
    with progress.task(f"{title}: final fit on all training rows"):
        (scaler, estimator), refit_caught = record_warnings(
            fit_model, settings, params, X, y, groups)
    return Tuned(params, cv_score, records, scaler, estimator,
                 caught + refit_caught, time.perf_counter() - start, grid)


def _useless(method, records, grid):
    n = len(records)
    tried = "; ".join(f"{name} in {{{', '.join(format_param(v) for v in values)}}}"
                      for name, values in sorted(grid.items()))
    if all(r["n_diverged"] for r in records):
        cause = "diverged (the steps are too large for these features)"
    else:
        cause = "learned nothing"
    return CLIError(
        f"every candidate of {method} ({n}: {tried}) {cause}: each gave every "
        f"row the same score in a cross-validation fold, so there is no model "
        f"to choose. Scale the features (--scale minmax or standard), use "
        f"smaller steps (--grid paper, or --eta0), or check that the features "
        f"vary within users.", status=1)


def check_tuned(tuned, settings, X, y, groups, progress, title, grid_hint=""):
    """Fail when the chosen model scores every row alike; warn when it ranks
    its training rows no better than a random ranking; note grid edges.

    Returns the training scores of the chosen model.
    """
    scores = predict(tuned.scaler, tuned.estimator, X)
    if is_flat(scores, groups):
        diverged = any("diverged" in m for _, m in tuned.warnings)
        shown = ", ".join(f"{k}={format_param(v)}" for k, v in tuned.params.items())
        raise CLIError(
            f"the chosen {settings.method} model"
            + (f" ({shown})" if shown else "")
            + (" diverged and" if diverged else "")
            + " gives every row of each user the same score: it cannot rank. "
            "Scale the features (--scale minmax or standard), use smaller "
            "steps (--grid paper or --eta0), or check that the features vary "
            "within users.", status=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        fitted = micro_papk(y, scores, groups, settings.k)
        chance = float(expected_papk_score(y, k=settings.k, groups=groups))
    if not fitted > chance:
        progress(f"{title}: warning: the model ranks its own training rows no "
                 f"better than a random ranking (micro-pAp@{settings.k} "
                 f"{fitted:.4f}, random {chance:.4f}): it learned nothing "
                 f"useful; try other hyper-parameters (--grid paper, --eta0, "
                 f"--alpha) or another --method")
    if any("diverged" in m for _, m in tuned.warnings):
        progress(f"{title}: note: some fits diverged (their last finite iterate "
                 f"is kept); smaller --eta0 values would be safer")
    for note in edge_notes(tuned.params, tuned.grid, hint=grid_hint):
        progress(f"{title}: note: {note}")
    return scores


def edge_notes(params, grid, hint=""):
    """Notes on the chosen values that are the smallest or largest tried.

    Examples
    --------
    >>> from skpapk.cli._tuning import edge_notes
    >>> edge_notes({"eta0": 1.0, "alpha": 0.01},
    ...            {"eta0": [0.01, 0.1, 1.0], "alpha": [0.001, 0.01, 0.1]})
    ['eta0=1 is the largest value of the grid: a better one may lie beyond it']
    """
    notes = []
    for name, value in params.items():
        values = sorted(grid.get(name, []))
        if len(values) < 2 or value not in (values[0], values[-1]):
            continue
        side = "largest" if value == values[-1] else "smallest"
        notes.append(f"{name}={format_param(value)} is the {side} value of the "
                     f"grid: a better one may lie beyond it{hint}")
    return notes
