"""The command ``compare``: every method on the same split, and a verdict."""

import contextlib
import io
import os
import sys
import time
import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.model_selection import GroupShuffleSplit
from threadpoolctl import threadpool_limits

from ..datasets import make_engagement_simulation
from ..datasets._engagement import ENGAGEMENT_FEATURES
from ..metrics import paired_comparison, papk_score
from ..model_selection._split import _within_group_parts
from ._commands import (
    REPORTED,
    check_options,
    describe_groups,
    ranking_metrics,
    read_training_csv,
    tune_and_check,
)
from ._files import check_output, write_output
from ._methods import (
    available_methods,
    effective_n_jobs,
    grid_for,
    no_lightgbm,
    parse_methods,
)
from ._output import (
    PROG,
    CLIError,
    captured_warnings,
    format_params,
    one_line,
    render,
    say,
    to_stdout,
)
from ._tuning import make_cv


def load_data(args, progress):
    """``(X, y, groups, description)`` for ``compare --data``; numpy arrays."""
    if args.data == "synthetic":
        if args.n_features < len(ENGAGEMENT_FEATURES):
            raise CLIError(f"--n-features must be at least "
                           f"{len(ENGAGEMENT_FEATURES)} "
                           f"({', '.join(ENGAGEMENT_FEATURES)}), got "
                           f"{args.n_features}.")
        try:
            X, y, groups, _ = make_engagement_simulation(
                args.n_users, args.n_features, random_state=args.random_state)
        except ValueError as exc:  # sizes beyond the memory: the options
            raise CLIError(str(exc).replace("n_users", "--n-users").replace(
                "n_features", "--n-features")) from None
        return X, y, groups, (
            f"synthetic: {args.n_users} users with heterogeneous engagement "
            f"(1-54% of their 40-199 items relevant for 95% of them), decoy "
            f"irrelevant items, {args.n_features} features")
    if args.data == "movielens":
        from ..datasets import load_movielens_100k

        with progress.task("MovieLens 100K: reading u.data and building the "
                           "features (masked NMF, paper App. F.1)"):
            try:
                bunch = load_movielens_100k(args.path,
                                            random_state=args.random_state,
                                            download=not args.no_download)
            except (OSError, ValueError) as exc:  # missing, not official, ...
                message = str(exc)
                for name, option in [("path=None", "--path not given"),
                                     ("path=", "--path "),
                                     ("the path argument", "--path"),
                                     ("download=False", "--no-download"),
                                     ("pass check_sha256=False", "load it in "
                                      "Python with check_sha256=False")]:
                    message = message.replace(name, option)
                raise CLIError(message) from exc
        return (bunch.data, bunch.target.astype(np.int64), bunch.groups,
                "MovieLens 100K (paper App. F.1: 90 NMF features, rating 5 = "
                "relevant)")
    data, y, _, groups = read_training_csv(args.data, args, progress)
    return data.X, y, groups, args.data


def _split_train_test(args, y, groups):
    if args.cv == "group":
        n = np.unique(groups).shape[0]
        if n - np.ceil(args.test_size * n) < 1:  # as GroupShuffleSplit rounds
            raise CLIError(f"--cv group holds out whole users for the test, but "
                           f"--test-size {args.test_size:g} of {n} user"
                           f"{'s' * (n > 1)} leaves none to train on; use "
                           f"{'a smaller --test-size, ' * (n > 1)}more users, or "
                           f"--cv within-group.")
        splitter = GroupShuffleSplit(n_splits=1, test_size=args.test_size,
                                     random_state=args.random_state)
        train, test = map(np.sort, next(splitter.split(y, y, groups)))
    else:
        train, test = _within_group_parts(  # an empty part: named below
            y, groups, (1 - args.test_size, args.test_size), args.random_state)[0]
    if train.size == 0 or test.size == 0:
        raise CLIError("the train / test split left a part empty; use more rows "
                       "per group or another --test-size.")
    describe_groups(y[test] > 0, groups[test], error=(
        "no test user has both a relevant and an irrelevant row, so no method "
        "could be scored; use a larger --test-size, or users with more rows of "
        "each label."))
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
    if args.data == "movielens":  # --path, else $SKPAPK_DATA, else the cache
        from ..datasets._movielens import _resolve_path

        with contextlib.suppress(OSError, ValueError):  # not there: not read
            inputs.append(_resolve_path(args.path, None, False, None))
    check_output(args.plot, option="--plot", inputs=inputs, force=args.force)
    from matplotlib.figure import Figure

    try:  # a format matplotlib lists may need a program (pgf: xelatex)
        trial = Figure()
        trial.text(0.5, 0.5, "pAp@k")  # text: what needs the program
        trial.savefig(io.BytesIO(), format=_plot_format(args.plot))
    except (ValueError, RuntimeError, OSError) as exc:  # .txt: PNG bytes, before
        raise CLIError(f"--plot {args.plot}: matplotlib cannot write a "
                       f".{_plot_format(args.plot)} file here ({exc}); end the "
                       f"name with .png, .svg or .pdf.") from None


def _plot_format(path):
    """The image format of ``--plot``: its extension, PNG without one."""
    return os.path.splitext(path)[1][1:].lower() or "png"


def _write_group_plot(path, y_true, scores, groups, k, progress, force):
    """Box plots of every method's per-user test pAp@k, beside random ranking
    (a Figure outside pyplot: no GUI backend, nothing left open)."""
    from matplotlib.figure import Figure

    from ..inspection import GroupScoreDisplay

    fig = Figure(figsize=(max(6.0, 1.3 * (len(scores) + 1)), 4.5))
    ax = fig.subplots()
    GroupScoreDisplay.from_predictions(y_true, scores, groups=groups, k=k, ax=ax)
    ax.set_title(f"test pAp@{k} of each user")
    fig.tight_layout()
    with write_output(path, option="--plot", force=force, mode="wb") as handle:
        try:
            fig.savefig(handle, format=_plot_format(path), dpi=100)
        except (ValueError, RuntimeError) as exc:  # nothing replaced
            raise CLIError(f"--plot {path}: {exc}") from None
    progress(f"wrote {path}")


def verdict(results, y, groups, k):
    """The winner, its margin over the runner-up and how sure that margin is.

    ``results`` maps a method to ``(label, family, test scores)``.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        gains = {m: papk_score(y, s, k=k, groups=groups, average=None)
                 for m, (_, _, s) in results.items()}
    means = {m: float(np.nanmean(g)) for m, g in gains.items()}
    ranked = sorted(means, key=lambda m: -means[m])
    best = ranked[0]
    label, family, _ = results[best]
    tie = [m for m in ranked[1:] if means[m] == means[best]]
    lines = [f"no winner: {best} ({label}) ties with {', '.join(tie)} at test "
             f"micro-pAp@{k} = {means[best]:.4f}" if tie else
             f"winner: {best} ({label}), test micro-pAp@{k} = {means[best]:.4f}"]
    if len(ranked) > 1:
        second = ranked[1]
        margin = f"margin over the runner-up, {second} ({results[second][0]}): "
        n = int(np.sum(np.isfinite(gains[best]) & np.isfinite(gains[second])))
        if n < 2:  # a standard error needs two users
            lines.append(f"{margin}cannot be tested: it needs 2 or more test users "
                         f"with both a relevant and an irrelevant row, got {n}")
        else:
            # seeded: the output does not change between runs
            test = paired_comparison(gains[best], gains[second], random_state=0)
            low, high = test.confidence_interval
            flips = "" if test.exact else f" ({test.n_resamples:,} random flips)"
            lines.append(f"{margin}{test.mean_difference:+.4f} (standard error "
                         f"over the {test.n_groups} test users: "
                         f"{test.standard_error:.4f}; paired sign-flip p-value "
                         f"{test.pvalue:.3g}{flips}; 95% interval [{low:+.4f}, "
                         f"{high:+.4f}])")
            if not test.pvalue < 0.05:
                lines.append("the paired p-value is not below 0.05: on this "
                             "data the two are not clearly apart")
    if family == "pointwise" and not tie:
        lines.append(f"note: the winner is a pointwise baseline ({label}), not a "
                     f"ranker trained for pAp@k")
    return lines


def cmd_compare(args, progress):
    methods = parse_methods(args.methods)
    if args.methods in ("default", "all") and "boost" not in available_methods():
        progress(f"note: boost (PApKBoostRanker) is left out: it {no_lightgbm()}")
    check_options(args, methods, progress)
    _check_plot_path(args)
    args.n_jobs = effective_n_jobs(args.n_jobs, progress)
    start, k = time.perf_counter(), args.k
    # at most --n-jobs BLAS and OpenMP threads, as in fit
    with captured_warnings(progress, REPORTED), threadpool_limits(args.n_jobs):
        X, y, groups, description = load_data(args, progress)
        train, test = _split_train_test(args, y, groups)
        any_grid = any(grid_for(m, args.grid) for m in methods)
        if any_grid:  # --cv-folds, early
            make_cv(args.cv, args.cv_folds, args.random_state, groups[train])
        protocol = ("held-out users (GroupShuffleSplit test part"
                    f"{', GroupKFold CV' * any_grid})" if args.cv == "group" else
                    "held-out rows of every user (within_group_split"
                    f"{', WithinGroupKFold CV' * any_grid})")
        progress(f"data: {description}")
        progress(f"protocol: {protocol}; test part {args.test_size:g}, "
                 f"{f'{args.cv_folds}-fold CV' if any_grid else 'no tuning'} "
                 f"on the rest; k = {k}")
        progress(f"train: {describe_groups(y[train], groups[train])}")
        progress(f"test: {describe_groups(y[test], groups[test])}")
        y_test, g_test = y[test], groups[test]
        rows, results, failures = [], {}, []
        for i, method in enumerate(methods, 1):
            spec = available_methods()[method]
            title = f"[{i}/{len(methods)}] {method}"
            grid = grid_for(method, args.grid)
            try:
                tuned = tune_and_check(method, grid, X[train], y[train],
                                       groups[train], args, progress, title)
            except CLIError as exc:
                if exc.status != 1:
                    raise
                progress(f"{title}: failed: {exc}")
                failures.append(f"{method}: {exc}")
                rows.append([method, spec.label, "-", "failed", *"----"])
                continue
            scores = tuned.model.decision_function(X[test])
            results[method] = (spec.label, spec.family, scores)
            papk, prec, pauc = ranking_metrics(y_test, scores, g_test, k)
            progress(f"{title} ({spec.label}): test micro-pAp@{k} = {papk:.4f} "
                     f"({tuned.seconds:.1f} s)")
            cv = "-" if tuned.cv_score is None else f"{tuned.cv_score:.4f}"
            rows.append([method, spec.label, format_params(tuned.params, " ") or "-",
                         cv, f"{papk:.4f}", f"{prec:.4f}", f"{pauc:.4f}",
                         f"{tuned.seconds:.1f}"])
        rows.append(["random", "expected, random ranking", "-", "-",
                     *(f"{v:.4f}" for v in ranking_metrics(y_test, None, g_test,
                                                           k)), "-"])
        if args.plot is not None and results:
            _write_group_plot(args.plot, y_test,
                              {m: r[2] for m, r in results.items()}, g_test, k,
                              progress, args.force)
    header = ["method", "estimator", "parameters", f"cv pAp@{k}", f"test pAp@{k}",
              f"test prec@{k}", f"test pAUC@{k}", "seconds"]
    with to_stdout():
        sys.stdout.write(render(header, rows, args.format))
    lines = verdict(results, y_test, g_test, k) if results else [
        "no method could be trained"]
    if any(row[3] == "-" for row in rows[:-1]):
        lines.append(f"cv pAp@{k} '-': the method had no grid to tune (--grid "
                     f"{args.grid}); it was fitted once with its defaults")
    lines.append(f"total time: {time.perf_counter() - start:.0f} s")
    if not results:  # the reasons, on stderr even with -q
        say(f"{PROG}: error: no method could be trained ("
            f"{'; '.join(map(one_line, failures))})")
    if args.format == "csv":  # keep stdout a CSV file
        progress.quiet = False  # results: shown even with -q
        for line in lines:
            progress(line)
    else:
        with to_stdout():
            sys.stdout.write("\n" + "\n".join(lines) + "\n")
    return 0 if results else 1
