"""The checks on a tuned model: flat scores, worse than random, grid edges."""

import inspect
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GroupKFold
from sklearn.pipeline import Pipeline

from skpapk.cli import _tuning
from skpapk.cli._methods import make_model
from skpapk.cli._output import CLIError, Progress
from skpapk.cli._tuning import (
    Tuned,
    _FoldScorer,
    _not_converged,
    _refused,
    check_tuned,
    is_flat,
    make_cv,
    tune,
)
from skpapk.model_selection import WithinGroupKFold


class _Scores:
    """A fitted 'model' whose scores are given (and whose last step says
    whether it diverged)."""

    def __init__(self, sign, diverged=False, scaled=False):
        self.sign = sign
        self.diverged_ = diverged
        self.named_steps = {"scale": "a scaler" if scaled else "passthrough"}

    def decision_function(self, X):
        return self.sign * X[:, 0]

    def __getitem__(self, index):
        return self


def _check(sign, capsys, params=None, grid=None, X=None, diverged=False,
           command="fit", method="avg", grid_name="small", scaled=False):
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(20), 15)
    y = (rng.random(groups.shape[0]) < 0.3).astype(int)
    if X is None:
        X = (y + rng.normal(scale=0.3, size=y.shape[0]))[:, None]
    tuned = Tuned(_Scores(sign, diverged, scaled), params or {}, None, grid or {},
                  0.0)
    check_tuned(tuned, X, y, groups, 5, Progress(), "avg", method=method,
                command=command, grid_name=grid_name)
    return capsys.readouterr().err


def test_a_model_worse_than_random_on_its_training_rows_is_reported(capsys):
    assert "no better than a random ranking" not in _check(+1, capsys)
    err = _check(-1, capsys)
    assert "avg: warning: the model ranks its own training rows no better than " \
           "a random ranking (micro-pAp@5 " in err


def test_flat_scores_are_an_error_that_says_the_fit_diverged(capsys):
    X = np.ones((300, 1))
    with pytest.raises(CLIError, match="gives every row of each user the same "
                                       "score") as exc:
        _check(1, capsys, X=X)
    assert exc.value.status == 1 and "diverged" not in str(exc.value)
    # divergence is read from the ranker's diverged_, not from a message
    with pytest.raises(CLIError, match="diverged and gives every row"):
        _check(1, capsys, X=X, diverged=True)
    assert "note: the fit diverged" in _check(1, capsys, diverged=True)


def test_grid_edges_are_noted(capsys):
    err = _check(1, capsys, params={"eta0": 0.01, "alpha": 0.1},
                 grid={"eta0": [0.01, 0.1, 1.0], "alpha": [0.001, 0.1, 10.0]})
    assert "note: eta0=0.01 is the smallest value of the grid" in err
    assert "alpha=" not in err
    assert "value of the grid" not in _check(1, capsys, params={"C": 1.0},
                                             grid={"C": [1.0]})
    # a choice is not ordered: either value of group_weight is no edge
    for weight in ("uniform", "inverse_variance"):
        assert "value of the grid" not in _check(
            1, capsys, params={"group_weight": weight}, method="papk",
            grid={"group_weight": ["uniform", "inverse_variance"]},
            grid_name="paper")


# --grid paper only where the paper grid goes beyond the edge (alpha's
# smallest value is 1e-3 in both grids of avg, eta0's largest 1 in the small
# grid and 0.5 in the paper grid); fit can set alpha and eta0
@pytest.mark.parametrize("method, name, value, side, grid_name, hint", [
    ("avg", "eta0", 0.01, "smallest", "small", "; try --grid paper"),
    ("avg", "alpha", 0.1, "largest", "small", "; try --grid paper"),
    ("avg", "eta0", 1.0, "largest", "small", "; try one with --eta0"),
    ("avg", "alpha", 0.001, "smallest", "small", "; try one with --alpha"),
    ("greedy", "alpha", 0.001, "smallest", "small", "; try one with --alpha"),
    ("avg", "alpha", 0.001, "smallest", "paper", "; try one with --alpha"),
    ("papk", "alpha", 1e-5, "smallest", "small", "; try --grid paper"),
    ("papk", "alpha", 1e-6, "smallest", "paper", "; try one with --alpha"),
    ("logreg", "C", 100.0, "largest", "small", "; try --grid paper"),
    ("logreg", "C", 1000.0, "largest", "paper", ""),
])
@pytest.mark.parametrize("command", ["fit", "compare"])
def test_grid_edge_hint_names_what_goes_beyond(method, name, value, side,
                                                grid_name, hint, command, capsys):
    values = [value, value * 10] if side == "smallest" else [value / 10, value]
    if command == "compare" and "--grid" not in hint:
        hint = ""
    err = _check(1, capsys, params={name: value}, grid={name: values},
                 command=command, method=method, grid_name=grid_name)
    assert err.endswith(f"note: {name}={value:g} is the {side} value of the "
                        f"grid: a better one may lie beyond it{hint}\n")


def test_is_flat_per_group():
    groups = np.array([0, 0, 1, 1])
    assert is_flat(np.array([1.0, 1.0, 2.0, 2.0]), groups)
    assert not is_flat(np.array([1.0, 1.0, 2.0, 3.0]), groups)
    assert not is_flat(np.array([1.0, 1.0, 2.0, 2.0]))  # not flat over all rows
    assert is_flat(np.array([1.0, np.nan, 2.0, 3.0]), groups)


def test_group_cv_with_fewer_users_than_folds_names_the_option():
    groups = np.repeat(np.arange(4), 3)
    with pytest.raises(CLIError, match="there are 4 users for --cv-folds 5; use "
                                       "--cv-folds 4 or fewer"):
        make_cv("group", 5, 0, groups)
    assert isinstance(make_cv("group", 4, 0, groups), GroupKFold)
    # one user: it said "there are 1 users ...; use --cv-folds 2 or fewer"
    with pytest.raises(CLIError, match="--cv group holds out whole users and "
                       "needs 2 or more; there is 1 training user. Use --cv "
                       "within-group"):
        make_cv("group", 2, 0, groups[:3])


def test_hints_name_the_options_of_the_command(capsys):
    # compare has no --eta0, --alpha or --method: its hints named them
    err = _check(-1, capsys, diverged=True)
    assert "(--grid paper, --eta0, --alpha) or another --method" in err
    assert "smaller steps (--grid paper, or --eta0) would be safer" in err
    err = _check(-1, capsys, diverged=True, command="compare")
    assert "(--grid paper) or other --methods" in err
    assert "smaller steps (--grid paper) would be safer" in err
    assert "--eta0" not in err and "--alpha" not in err and "--method " not in err
    with pytest.raises(CLIError) as exc:
        _check(1, capsys, X=np.ones((300, 1)), command="compare")
    assert "(--grid paper)," in str(exc.value) and "--eta0" not in str(exc.value)


@pytest.mark.parametrize("command", ["fit", "compare"])
@pytest.mark.parametrize("method, flat, others", [
    ("avg", "Scale the features (--scale minmax or standard), use smaller "
            "steps (--grid paper{eta0}), or check", ", --eta0, --alpha"),
    # papk (L-BFGS) and logreg have no step size, boost no scaling either
    ("papk", "Scale the features (--scale minmax or standard), or check",
     ", --alpha"),
    ("logreg", "Scale the features (--scale minmax or standard), or check", ""),
    ("boost", "Check that the features vary within users.", ""),
])
def test_hints_name_only_what_the_method_takes(capsys, command, method, flat,
                                               others):
    if method == "boost":
        pytest.importorskip("lightgbm")
    fit = command == "fit"
    with pytest.raises(CLIError) as exc:
        _check(1, capsys, X=np.ones((300, 1)), command=command, method=method)
    message = str(exc.value)
    assert message.startswith(f"the chosen {method} model gives every row")
    assert flat.format(eta0=", or --eta0" if fit else "") in message
    err = _check(-1, capsys, command=command, method=method)
    assert (f"(--grid paper{others if fit else ''}) or "
            f"{'another --method' if fit else 'other --methods'}") in err


def test_scaled_features_get_no_advice_to_scale_them(capsys):
    with pytest.raises(CLIError) as exc:
        _check(1, capsys, X=np.ones((300, 1)), method="papk", scaled=True)
    assert "--scale" not in str(exc.value)
    assert str(exc.value).endswith("Check that the features vary within users.")


@pytest.mark.parametrize("command", ["fit", "compare"])
@pytest.mark.parametrize("method, message, shown", [
    ("avg", "Maximum number of iterations max_iter=200 reached before the "
            "objective stopped improving by tol=0.0001; increase max_iter or "
            "tol, or tune eta0.",
     "the fit reached --max-iter 200 before it converged; use a larger "
     "--max-iter"),
    ("papk", "L-BFGS stopped after 3 iterations, unable to decrease the "
             "objective further (ABNORMAL); the features may hold extreme "
             "values: scale them (e.g. MinMaxScaler) or raise alpha.",
     "L-BFGS could not lower the objective (extreme feature values?); use "
     "--scale minmax or standard, or other hyper-parameters (--grid paper{alpha})"),
    # SelectPApKRanker's rounds and LogisticRegression's iterations: no
    # --max-iter; the estimators' parameters are left out
    ("select", "The pool of top rows still changed after max_iter=10 rounds; "
               "increase max_iter.",
     "The pool of top rows still changed after 10 rounds; try other "
     "hyper-parameters (--grid paper{alpha}) or {other}"),
    ("logreg", "lbfgs failed to converge after 2 iteration(s) (status=1):\n"
               "STOP: TOTAL NO. OF ITERATIONS REACHED LIMIT\n\nIncrease the "
               "number of iterations (max_iter=2).",
     "lbfgs failed to converge after 2 iteration(s); try other "
     "hyper-parameters (--grid paper) or {other}"),
])
def test_convergence_warnings_name_the_options_of_the_command(command, method,
                                                              message, shown):
    fit = command == "fit"
    assert _not_converged(ConvergenceWarning(message), method, command) == \
        shown.format(alpha=", --alpha" if fit else "",
                     other="another --method" if fit else "other --methods")


@pytest.mark.parametrize("command", ["fit", "compare"])
@pytest.mark.parametrize("message, shown", [
    ("The objective never went below its value at w_0.",
     "no step lowered the objective below its value at w = 0 (too large steps, "
     "or a surrogate lowest there); use {steps}{other}"),
    ("The step size shrank to 1e-12 without progress; try eta0=0.1.",
     "The step size shrank to 1e-12 without progress; try {others}{other}"),
])
def test_convergence_advice_leaves_out_the_grid_in_use(command, message, shown):
    # --grid paper was advised to a run under --grid paper
    fit = command == "fit"
    other = "another --method" if fit else "other --methods"
    got = _not_converged(ConvergenceWarning(message), "avg", command, "paper")
    assert "--grid paper" not in got
    assert got == shown.format(
        steps="smaller steps (--eta0), or " if fit else "",
        others="other hyper-parameters (--eta0, --alpha) or " if fit else "",
        other=other)
    assert "--grid paper" in _not_converged(ConvergenceWarning(message), "avg",
                                            command, "small")


class _Warns(BaseEstimator):
    def fit(self, X, y):
        warnings.warn("a warning of the final fit", UserWarning)
        self.line_ = inspect.currentframe().f_lineno - 1
        return self


def test_the_final_fit_warnings_are_warned_again_as_warned(monkeypatch):
    model = Pipeline([("scale", "passthrough"), ("model", _Warns())])
    monkeypatch.setattr(_tuning, "make_model", lambda *args, **kwargs: model)
    X, y = np.ones((4, 1)), np.array([0, 1, 0, 1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tune("logreg", {}, X, y, np.zeros(4), cv=None, n_jobs=1,
             settings={"k": 1, "scale": "none"}, progress=Progress(), title="t")
    [record] = caught
    assert (record.category, str(record.message), record.filename,
            record.lineno) == (UserWarning, "a warning of the final fit",
                               __file__, model[-1].line_)


def test_an_estimator_message_of_two_lines_is_cut_to_its_first_sentence():
    model = make_model("papk", k=5, scale="none", random_state=0)
    with pytest.raises(CLIError) as exc, _refused("papk", "compare", model,
                                                  np.ones((4, 2)), "none"):
        raise ValueError("Input X contains NaN.\nPApKRanker does not accept "
                         "missing values encoded as NaN natively. For ...")
    assert str(exc.value) == ("PApKRanker cannot be trained on these rows: Input "
                              "X contains NaN; give each user more rows, or "
                              "choose other --methods.")
    assert exc.value.status == 1


def test_within_group_cv_with_more_folds_than_rows_names_the_option():
    groups = np.repeat(np.arange(3), [2, 4, 3])
    with pytest.raises(CLIError, match="no user has 5 training rows \\(the most "
                                       "is 4\\) for --cv-folds 5; use --cv-folds "
                                       "4 or fewer"):
        make_cv("within-group", 5, 0, groups)
    assert isinstance(make_cv("within-group", 4, 0, groups), WithinGroupKFold)
    with pytest.raises(CLIError, match="give each user more rows"):
        make_cv("within-group", 2, 0, np.arange(5))  # one row each


@pytest.mark.parametrize("cv, fix", [
    (WithinGroupKFold(2), "use users with more rows of each label."),
    (WithinGroupKFold(3), "use fewer --cv-folds, or users with more rows of "
                           "each label."),
    (GroupKFold(2), "use --cv within-group."),
    (GroupKFold(3), "use fewer --cv-folds, or --cv within-group."),
])
def test_an_unscorable_fold_names_a_fix_of_the_cv_in_use(cv, fix):
    # --cv within-group was told to use --cv within-group
    scorer = _FoldScorer(3, cv)
    X = np.arange(6.0)[:, None]
    with pytest.raises(CLIError, match="a cross-validation fold has no user") \
            as exc:
        scorer(_Scores(1), X, np.array([1, 1, 1, 0, 0, 0]), groups=np.repeat(
            [0, 1], 3))
    assert str(exc.value).endswith(fix)


@pytest.mark.parametrize("method", ["papk", "boost"])
@pytest.mark.parametrize("grid, n_jobs, threads", [({}, 1, 1), ({}, 2, 2),
                                                   ({"alpha": [1e-4]}, 2, 1)])
def test_rankers_fit_in_the_threads_of_n_jobs(method, grid, n_jobs, threads):
    # their default (every core) made compare 10-20x slower on a busy
    # machine; a parallel search gives each fold one thread
    if method == "boost":
        pytest.importorskip("lightgbm")
        grid = {"num_leaves": [4]} if grid else {}
    from skpapk.cli._methods import make_model
    from skpapk.datasets import make_papk_simulation

    assert make_model("logreg", k=5, scale="none", random_state=0,
                      n_threads=3)[-1].n_jobs is None  # processes, not threads
    X, y, groups = make_papk_simulation(12, random_state=0)
    settings = dict(k=5, scale="none", random_state=0)
    tuned = tune(method, grid, X, y, groups, settings=settings,
                 cv=GroupKFold(2) if grid else None, n_jobs=n_jobs,
                 progress=Progress(quiet=True), title=method)
    assert tuned.model[-1].n_jobs == threads
