"""The command ``compare``: every method on the same split, and a verdict."""

import os
import sys
import time
import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.model_selection import GroupShuffleSplit
from threadpoolctl import threadpool_limits

from ..metrics import papk_score
from ..model_selection import within_group_split
from ._commands import _REPORTED, read_training_csv, report_warnings
from ._data import load_compare_data
from ._files import check_output
from ._methods import available_methods, effective_n_jobs, grid_for, parse_methods
from ._metrics import describe_groups, random_metrics, ranking_metrics
from ._output import (
    CapturedWarnings,
    CLIError,
    Progress,
    format_param,
    format_value,
    render,
)
from ._tuning import Settings, check_tuned, make_cv, predict, tune


def _split_train_test(args, y, groups):
    if not 0 < args.test_size < 1:
        raise CLIError(f"--test-size must be a fraction strictly between 0 and 1, "
                       f"got {args.test_size:g}.")
    if args.cv == "group":
        splitter = GroupShuffleSplit(n_splits=1, test_size=args.test_size,
                                     random_state=args.random_state)
        train, test = next(splitter.split(np.zeros(y.shape[0]), y, groups))
        train, test = np.sort(train), np.sort(test)
    else:
        train, test = within_group_split(
            y, groups, sizes=(1 - args.test_size, args.test_size),
            random_state=args.random_state)
    if train.size == 0 or test.size == 0:
        raise CLIError("the train / test split left a part empty; use more rows "
                       "per group or another --test-size.")
    return train, test


def _check_plot_path(args):
    """Fail before the (long) tuning when ``--plot`` cannot be written."""
    if args.plot is None:
        return
    from ..inspection import check_matplotlib_support

    try:
        check_matplotlib_support("skpapk compare --plot")
    except ImportError as exc:
        raise CLIError(str(exc)) from exc
    inputs = [args.data] if os.path.exists(args.data) else []
    check_output(args.plot, option="--plot", inputs=inputs, force=args.force)


def _write_group_plot(path, y_true, scores, groups, k, progress):
    """Box plots of every method's per-user test pAp@k, beside random ranking."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..inspection import GroupScoreDisplay
    from ._files import atomic_write

    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * (len(scores) + 1)), 4.5))
    GroupScoreDisplay.from_predictions(y_true, scores, groups=groups, k=k, ax=ax)
    ax.set_title(f"test pAp@{k} of each user")
    fig.tight_layout()
    with atomic_write(path, mode="wb") as handle:
        fig.savefig(handle, format="png", dpi=100)
    plt.close(fig)
    progress(f"wrote {path}")


def per_user_gains(y_pos, scores, groups, k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return papk_score(y_pos, scores, k=k, groups=groups, average=None)


def verdict(results, y_pos, groups, k):
    """The winner, its margin over the runner-up and how sure that margin is.

    ``results`` maps a method to ``(label, family, test scores)``. The
    margin's standard error is that of the mean of the per-user differences
    of pAp@k (a paired comparison on the same test users).
    """
    gains = {m: per_user_gains(y_pos, s, groups, k) for m, (_, _, s) in
             results.items()}
    means = {m: float(np.nanmean(g)) for m, g in gains.items()}
    ranked = sorted(means, key=lambda m: -means[m])
    best = ranked[0]
    label, family, _ = results[best]
    lines = [f"winner: {best} ({label}), test micro-pAp@{k} = {means[best]:.4f}"]
    if len(ranked) > 1:
        second = ranked[1]
        diff = gains[best] - gains[second]
        diff = diff[~np.isnan(diff)]
        se = float(np.std(diff, ddof=1) / np.sqrt(diff.size)) if diff.size > 1 \
            else float("nan")
        margin = means[best] - means[second]
        lines.append(
            f"margin over the runner-up, {second} ({results[second][0]}): "
            f"{margin:+.4f} (standard error over the {diff.size} test users: "
            f"{se:.4f})")
        if np.isfinite(se) and margin <= 2 * se:
            lines.append("the margin is less than two standard errors: on this "
                         "data the two are not clearly apart")
    if family == "pointwise":
        lines.append(f"note: the winner is a pointwise baseline ({label}), not a "
                     f"ranker trained for pAp@k")
    return lines


def cmd_compare(args):
    progress = Progress(args.quiet)
    methods = parse_methods(args.methods)
    _check_plot_path(args)
    n_jobs = effective_n_jobs(args.n_jobs, progress)
    start = time.perf_counter()

    def read_file(path):
        data, y_pos, _ = read_training_csv(path, args, progress)
        return data, y_pos

    # --n-jobs CPUs in all: BLAS and OpenMP (HistGradientBoosting) threads
    # too; oversubscribed OpenMP threads are many times slower.
    with CapturedWarnings(progress, ignore=_REPORTED) as captured, \
            threadpool_limits(limits=n_jobs):
        X, y, groups, description = load_compare_data(args, progress, read_file)
        groups = np.asarray(groups)
        train, test = _split_train_test(args, y, groups)
        protocol = ("held-out users (GroupShuffleSplit test part, GroupKFold CV)"
                    if args.cv == "group" else
                    "held-out rows of every user (within_group_split, "
                    "WithinGroupKFold CV)")
        progress(f"data: {description}")
        progress(f"protocol: {protocol}; test part {args.test_size:g}, "
                 f"{args.cv_folds}-fold CV on the rest; k = {args.k}")
        progress(f"train: {describe_groups(y[train] == 1, groups[train])}")
        progress(f"test: {describe_groups(y[test] == 1, groups[test])}")
        cv = make_cv(args.cv, args.cv_folds, args.random_state)
        y_test, g_test = y[test] == 1, groups[test]
        X_train, y_train, g_train = X[train], y[train], groups[train]
        rows, results = [], {}
        for i, method in enumerate(methods, 1):
            spec = available_methods()[method]
            title = f"[{i}/{len(methods)}] {method}"
            settings = Settings(method, args.k, args.scale, args.random_state,
                                args.max_iter)
            grid = grid_for(method, args.grid)
            try:
                tuned = tune(settings, grid, X_train, y_train, g_train, cv=cv,
                             n_jobs=n_jobs, progress=progress, title=title)
                report_warnings(captured, tuned)
                check_tuned(tuned, settings, X_train, y_train, g_train, progress,
                            title,
                            grid_hint="; try --grid paper"
                            if args.grid == "small" else "")
            except CLIError as exc:
                if exc.status != 1:
                    raise
                progress(f"{title}: failed: {exc}")
                rows.append([method, spec.label, "-", "failed", "-", "-", "-",
                             "-"])
                continue
            scores = predict(tuned.scaler, tuned.estimator, X[test])
            results[method] = (spec.label, spec.family, scores)
            papk, prec, pauc = ranking_metrics(y_test, scores, g_test, args.k)
            progress(f"{title} ({spec.label}): test micro-pAp@{args.k} = "
                     f"{papk:.4f} ({tuned.seconds:.1f} s)")
            rows.append([method, spec.label, _params(tuned.params),
                         format_value(tuned.cv_score), format_value(papk),
                         format_value(prec), format_value(pauc),
                         f"{tuned.seconds:.1f}"])
        papk, prec, pauc = random_metrics(y_test, g_test, args.k)
        rows.append(["random", "expected, random ranking", "-", "-",
                     format_value(papk), format_value(prec), format_value(pauc),
                     "-"])
        if args.plot is not None and results:
            _write_group_plot(args.plot, y_test,
                              {m: r[2] for m, r in results.items()}, g_test,
                              args.k, progress)
    k = args.k
    header = ["method", "estimator", "parameters", f"cv pAp@{k}", f"test pAp@{k}",
              f"test prec@{k}", f"test pAUC@{k}", "seconds"]
    sys.stdout.write(render(header, rows, args.format))
    lines = verdict(results, y_test, g_test, k) if results else [
        "no method could be trained"]
    lines.append(f"total time: {time.perf_counter() - start:.0f} s")
    if args.format == "csv":  # keep stdout a CSV file
        for line in lines:
            progress(line)
    else:
        sys.stdout.write("\n" + "\n".join(lines) + "\n")
    return 0 if results else 1


def _params(params):
    return " ".join(f"{name}={format_param(v)}" for name, v in params.items()) or "-"
