"""Tuning by per-user cross-validation: scikit-learn's ``GridSearchCV``.

The search runs under metadata routing, so the groups reach the splitter
(:class:`~skpapk.model_selection.WithinGroupKFold` or ``GroupKFold``), the
rankers' ``fit`` and the scorer (micro-pAp@k, paper eq. 17). A model that
gives every row the same score scores NaN in its fold; :func:`check_tuned`
turns a useless result into an error and a grid edge into a note.
Divergence is read from the ranker's ``diverged_``.
"""

import contextlib
import re
import time
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from sklearn.model_selection import GridSearchCV, GroupKFold, ParameterGrid

from ..metrics import expected_papk_score, micro_papk_scorer, papk_score
from ..model_selection import WithinGroupKFold
from ..utils._groups import tied_within_groups
from ..utils._routing import warn_again
from ._methods import DEFAULT_GRID, available_methods, has_epochs, make_model
from ._output import CLIError, format_param, format_params


def make_cv(kind, n_splits, random_state, groups):
    """``--cv within-group`` (rows of every user) or ``group`` (whole users)."""
    if kind == "group":
        n_groups = np.unique(groups).shape[0]
        if n_groups < n_splits:
            raise CLIError(f"--cv group holds out whole users, but there are "
                           f"{n_groups} users for --cv-folds {n_splits}; use "
                           f"--cv-folds {n_groups} or fewer, or --cv within-group."
                           if n_groups > 1 else "--cv group holds out whole "
                           "users and needs 2 or more; there is 1 training user. "
                           "Use --cv within-group.")
        return GroupKFold(n_splits=n_splits)
    most = int(np.unique(groups, return_counts=True)[1].max(initial=0))
    if most < n_splits:
        raise CLIError(f"--cv within-group holds out rows of every user, but no "
                       f"user has {n_splits} training rows (the most is {most}) "
                       f"for --cv-folds {n_splits}; " + (
                           f"use --cv-folds {most} or fewer (fewer still when "
                           f"users have few rows of one label)." if most >= 2 else
                           "give each user more rows."))
    return WithinGroupKFold(n_splits=n_splits, shuffle=True,
                            random_state=random_state)


def is_flat(scores, groups=None):
    """Whether no group's rows get two different finite scores."""
    return tied_within_groups(scores, np.zeros(np.shape(scores)[0], dtype=np.intp)
                              if groups is None else groups)


#: What the scorer calls after each fold (a progress bar's advance).
_ON_FOLD = [lambda: None]


def _hints(method, command, scaled=False, grid_name=DEFAULT_GRID):
    """What may fix a useless model of ``method``, naming only the options
    that it takes and ``command`` has: ``(flat, steps, others, elsewhere)``
    (``steps`` empty for a method without a step size, ``others`` empty when
    no option is left; no scaling advice when its features are ``scaled``
    already, no --grid paper when it is ``grid_name``)."""
    spec, fit = available_methods()[method], command == "fit"
    tuned = spec.grids["paper"]
    grid = ["--grid paper"] * (grid_name != "paper")
    steps = (f"smaller steps ({', or '.join(grid + ['--eta0'] * fit)})"
             if "eta0" in tuned and (grid or fit) else "")
    others = ", ".join(grid + [f"--{name}" for name in ("eta0", "alpha")
                               if fit and name in tuned])
    flat = [*["scale the features (--scale minmax or standard)"] * (
                spec.scale and not scaled),
            *[f"use {steps}"] * bool(steps),
            "check that the features vary within users"]
    flat = ", ".join(flat[:-1]) + ", or " * (len(flat) > 1) + flat[-1]
    return (flat[0].upper() + flat[1:] + ".", steps, others,
            "another --method" if fit else "other --methods")


class _FoldScorer:
    """micro-pAp@k of a fold; NaN when the model gives every row one score
    (diverged or constant; a model flat within each user scores as a random
    ranking, and :func:`check_tuned` refuses it if chosen)."""

    def __init__(self, k, cv):
        self._scorer = micro_papk_scorer(k)
        fewer = "fewer --cv-folds, or " if cv.get_n_splits() > 2 else ""
        self.fix = fewer + ("--cv within-group" if isinstance(cv, GroupKFold)
                             else "users with more rows of each label")

    def __call__(self, estimator, X, y, groups=None):
        _ON_FOLD[0]()  # the progress bar, in this process only
        if is_flat(estimator.decision_function(X)):  # one score for all rows
            return np.nan
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            score = self._scorer(estimator, X, y, groups=groups)
        if np.isnan(score):
            raise CLIError("a cross-validation fold has no user with both a "
                           "relevant and an irrelevant row, so it cannot be "
                           f"scored; use {self.fix}.")
        return score

    def get_metadata_routing(self):
        return self._scorer.get_metadata_routing()


class Tuned:
    """The outcome of :func:`tune`: the fitted pipeline and its record."""

    def __init__(self, model, params, cv_score, grid, seconds):
        self.model, self.params, self.cv_score = model, params, cv_score
        self.grid, self.seconds = grid, seconds

    @property
    def diverged(self):
        return bool(getattr(self.model[-1], "diverged_", False))


@contextlib.contextmanager
def _refused(method, command, model, X, scale, fold_fix=None):
    """An estimator's ``ValueError`` about the data: one line that names no
    Python parameter (the command line cannot set them); ``fold_fix``: what
    helps a CV fold without both labels (None: not in a CV fold)."""
    try:
        yield
    except ValueError as exc:
        label, scaler = available_methods()[method].label, model.named_steps["scale"]
        if fold_fix and re.search("only one class|No group has both", str(exc)):
            raise CLIError(f"the training rows of a cross-validation fold have no "
                           f"user with both a relevant and an irrelevant row, so "
                           f"{label} cannot be trained on them; use {fold_fix}."
                           ) from exc
        with np.errstate(all="ignore"):  # huge values, --scale standard: NaN
            overflow = not isinstance(scaler, str) and not np.isfinite(
                sklearn.clone(scaler).fit_transform(X)).all()
        if overflow:
            other = " or ".join(s for s in ("minmax", "none") if s != scale)
            raise CLIError(f"{label} cannot be trained on these rows: --scale "
                           f"{scale} overflowed (the scaled features are not "
                           f"finite); use --scale {other}, or rescale the "
                           f"column(s) of huge values.", status=1) from exc
        reason = re.split(r"\.\s", str(exc))[0].split("; ")[0].rstrip(".")
        reason = re.sub(r"\s*\([^()]*=[^()]*\)", "", reason)  # (param=value)
        raise CLIError(f"{label} cannot be trained on these rows: {reason}; give "
                       f"each user more rows, or choose "
                       f"{_hints(method, command)[3]}.", status=1) from exc


def tune(method, grid, X, y, groups, *, settings, cv, n_jobs, progress, title,
         fixed=None, command="fit", grid_name=DEFAULT_GRID):
    """Cross-validate every candidate of ``grid``; refit the best on all rows.

    ``settings`` are :func:`make_model`'s keywords; ``fixed`` parameters are
    set in every candidate; ``command`` names the options of hints. With an
    empty grid, only the fit runs.
    """
    start = time.perf_counter()
    # --n-jobs: parallel folds of one thread each, or the threads of one fit
    model = make_model(method, params=fixed, n_threads=1 if grid else n_jobs,
                       **settings)
    params, cv_score = dict(fixed or {}), None
    if grid:
        scorer = _FoldScorer(settings["k"], cv)
        search = GridSearchCV(model, {f"model__{n}": v for n, v in grid.items()},
                              scoring=scorer, cv=cv,
                              n_jobs=n_jobs, error_score="raise", refit=False)
        n_fits = cv.get_n_splits(X, y, groups) * len(ParameterGrid(grid))
        with progress.task(f"{title}: cross-validation ({n_fits} fits)",
                           total=n_fits) as advance, \
                _refused(method, command, model, X, settings["scale"],
                         scorer.fix), \
                sklearn.config_context(enable_metadata_routing=True), \
                warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="One or more of the test "
                                    "scores are non-finite")  # NaN: reported below
            _ON_FOLD[0] = advance
            try:
                search.fit(X, y, groups=groups)
            finally:
                _ON_FOLD[0] = lambda: None
        best = {n: search.best_params_[f"model__{n}"] for n in sorted(grid)}
        model = sklearn.clone(model).set_params(
            **{f"model__{n}": v for n, v in best.items()})
        params, cv_score = {**params, **best}, float(search.best_score_)
    with progress.task(f"{title}: fit on all training rows"), \
            _refused(method, command, model, X, settings["scale"]), \
            sklearn.config_context(enable_metadata_routing=True), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        fit_params = {"groups": groups} if available_methods()[
            method].fit_groups else {}
        model.fit(X, y, **fit_params)
    tuned = Tuned(model, params, cv_score, grid, time.perf_counter() - start)
    if grid and np.isnan(search.cv_results_["mean_test_score"]).all():
        tried = "; ".join(f"{name} in {{{', '.join(map(format_param, values))}}}"
                          for name, values in sorted(grid.items()))
        n = len(search.cv_results_["params"])
        cause = ("diverged (the steps are too large for these features)"
                 if tuned.diverged else "learned nothing")
        raise CLIError(
            f"every candidate of {method} ({n}: {tried}) {cause}: each gave every "
            f"row of each user the same score in a cross-validation fold, so "
            f"there is no model to choose. "
            f"{_hints(method, command, settings['scale'] != 'none', grid_name)[0]}",
            status=1)
    for record in caught:  # the final model's; a divergence: check_tuned's note
        if not issubclass(record.category, ConvergenceWarning):
            warn_again(record)
        elif not tuned.diverged:
            progress(f"{title}: warning: ConvergenceWarning: "
                     f"{_not_converged(record.message, method, command, grid_name)}")
    return tuned


def _not_converged(message, method, command, grid_name=DEFAULT_GRID):
    """A ``ConvergenceWarning`` of the final fit in one line whose advice names
    options of ``command`` (the estimators' advice names Python parameters)."""
    text = str(message)
    _, steps, others, elsewhere = _hints(method, command, grid_name=grid_name)
    retry = f"other hyper-parameters ({others}) or " * bool(others) + elsewhere
    reached = re.search(r"max_iter=(\d+)", text)
    if reached and has_epochs(method):
        return (f"the fit reached --max-iter {reached[1]} before it converged; "
                f"use a larger --max-iter")
    if text.startswith("The objective never went below"):
        return ("no step lowered the objective below its value at w = 0 (too large "
                "steps, or a surrogate lowest there); use "
                + ", or ".join(filter(None, (steps or others, elsewhere))))
    if text.startswith("L-BFGS"):
        return ("L-BFGS could not lower the objective (extreme feature values?); use "
                "--scale minmax or standard, or "
                + (f"other hyper-parameters ({others})" if others else elsewhere))
    reason = re.sub(r"\s*\([^()]*=[^()]*\)|\b\w+=", "",
                    re.split(r"[.:;]\s", text)[0])
    return f"{reason}; try {retry}"


def check_tuned(tuned, X, y, groups, k, progress, title, *, method,
                grid_name=DEFAULT_GRID, command="fit"):
    """Fail when the chosen model scores every row alike; warn when it ranks
    its training rows no better than a random ranking; note grid edges."""
    scaled = tuned.model.named_steps["scale"] != "passthrough"
    flat, steps, others, elsewhere = _hints(method, command, scaled, grid_name)
    retry = f"other hyper-parameters ({others}) or " * bool(others) + elsewhere
    scores = tuned.model.decision_function(X)
    if is_flat(scores, groups):
        shown = format_params(tuned.params)
        raise CLIError(
            f"the chosen {method} model" + (f" ({shown})" if shown else "")
            + (" diverged and" if tuned.diverged else "")
            + f" gives every row of each user the same score: it cannot rank. "
            f"{flat}", status=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        fitted = float(papk_score(y, scores, k=k, groups=groups))
        chance = float(expected_papk_score(y, k=k, groups=groups))
    if not fitted > chance:
        progress(f"{title}: warning: the model ranks its own training rows no "
                 f"better than a random ranking (micro-pAp@{k} {fitted:.4f}, "
                 f"random {chance:.4f}): it learned nothing useful; try {retry}")
    if tuned.diverged:
        progress(f"{title}: note: the fit diverged (its last finite iterate is "
                 f"kept); {steps or retry} would be safer")
    paper = available_methods()[method].grids["paper"]
    for name, value in tuned.params.items():
        values = tuned.grid.get(name, [])
        if any(isinstance(v, (str, bool)) for v in values):
            continue  # a choice (papk's group_weight) has no edge to go beyond
        values = sorted(values)
        if len(values) >= 2 and value in (values[0], values[-1]):
            side = "largest" if value == values[-1] else "smallest"
            beyond = grid_name == "small" and any(
                v > value if side == "largest" else v < value
                for v in paper.get(name, []))
            hint = ("; try --grid paper" if beyond else f"; try one with --{name}"
                    if command == "fit" and name in ("eta0", "alpha") else "")
            progress(f"{title}: note: {name}={format_param(value)} is the {side} "
                     f"value of the grid: a better one may lie beyond it{hint}")
