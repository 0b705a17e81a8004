"""The command ``fit``, and the reading of a training file (also ``compare``'s)."""

import numpy as np
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from threadpoolctl import threadpool_limits

from .. import __version__
from ._csv import check_input_file, read_csv, split_names
from ._files import check_output
from ._labels import choose_relevant
from ._methods import available_methods, effective_n_jobs, grid_for, parse_methods
from ._metrics import describe_groups
from ._model_io import save_model, scorer_from_estimator
from ._output import CapturedWarnings, CLIError, Progress, format_param
from ._tuning import Settings, check_tuned, make_cv, tune

#: Warning categories the commands report themselves.
_REPORTED = (UndefinedMetricWarning, ConvergenceWarning)


def read_training_csv(path, args, progress):
    """Read a labelled CSV for training; return ``(data, y_pos, labels)``.

    ``labels`` is ``[irrelevant, relevant]``; the choice is announced when
    it is not obvious (see :mod:`skpapk.cli._labels`).
    """
    data = read_csv(path, group_col=args.group_col, label_col=args.label_col,
                    features=split_names(args.features),
                    ignore=split_names(args.ignore_cols) or (),
                    delimiter=args.delimiter, progress=progress)
    labels, announce = choose_relevant(data.label_values, args.pos_label,
                                       path=path, label_col=args.label_col)
    relevant = np.array([v == labels[1] for v in data.label_values])
    y_pos = relevant[data.label_codes]
    progress(f"read {path}: {data.n_rows} rows; features: "
             f"{', '.join(data.feature_cols)}")
    if data.skipped_cols:
        progress(f"not used as features (no number in their first rows): "
                 f"{', '.join(data.skipped_cols)}")
    if announce:
        progress(f"relevant label: {labels[1]!r} (irrelevant: {labels[0]!r}; "
                 f"choose with --pos-label)")
    return data, y_pos, labels


def report_warnings(captured, tuned):
    """Hand the warnings caught in the fits to ``captured``, less the reported."""
    names = {category.__name__ for category in _REPORTED}
    captured.add([(c, m) for c, m in tuned.warnings if c not in names])


def cmd_fit(args):
    progress = Progress(args.quiet)
    names = parse_methods(args.method, option="--method")
    if len(names) != 1:
        raise CLIError(f"--method takes one method, got {args.method!r}.")
    method = names[0]
    spec = available_methods()[method]
    if spec.kind is None:
        raise CLIError(f"{method} ({spec.label}) is a baseline of 'skpapk compare' "
                       f"only: its model cannot be saved as plain data.")
    check_input_file(args.file)
    check_output(args.out, option="--out", inputs=[args.file], force=args.force)
    n_jobs = effective_n_jobs(args.n_jobs, progress)
    own = spec.make().get_params()
    fixed = {}
    for name in ("eta0", "alpha"):
        value = getattr(args, name)
        if value is None:
            continue
        if name not in own:
            raise CLIError(f"--{name}: {method} ({spec.label}) has no parameter "
                           f"{name}.")
        fixed[name] = value
    data, y_pos, labels = read_training_csv(args.file, args, progress)
    groups = data.group_codes
    progress(f"data: {describe_groups(y_pos, groups)}")
    settings = Settings(method, args.k, args.scale, args.random_state,
                        args.max_iter)
    grid = grid_for(method, args.grid, fixed)
    y = y_pos.astype(np.int64)
    with CapturedWarnings(progress, ignore=_REPORTED) as captured, \
            threadpool_limits(limits=n_jobs):
        tuned = tune(settings, grid, data.X, y, groups,
                     cv=make_cv(args.cv, args.cv_folds, args.random_state),
                     n_jobs=n_jobs, progress=progress, title=method,
                     fixed=fixed)
        report_warnings(captured, tuned)
    check_tuned(tuned, settings, data.X, y, groups, progress, method,
                grid_hint="; try --grid paper" if args.grid == "small" else "")
    if tuned.cv_score is not None:
        progress(f"{method}: best {_params_text(tuned.params)}, cv micro-pAp@"
                 f"{args.k} = {tuned.cv_score:.4f} ({tuned.seconds:.1f} s)")
    else:
        progress(f"{method}: fitted ({tuned.seconds:.1f} s)")
    scorer = scorer_from_estimator(tuned.estimator, tuned.scaler)
    meta = {
        "skpapk_version": __version__,
        "method": method,
        "estimator": type(tuned.estimator).__name__,
        "params": {name: _plain(value) for name, value in tuned.params.items()},
        "k": args.k,
        "group_col": args.group_col,
        "label_col": args.label_col,
        "feature_cols": data.feature_cols,
        "labels": labels,
        "pos_label": labels[1],
        "scale": args.scale if spec.scale else "none",
        "random_state": args.random_state,
        "cv": {"splitter": args.cv, "folds": args.cv_folds, "grid": args.grid,
               "score": tuned.cv_score},
    }
    save_model(args.out, meta, scorer)
    progress(f"saved the model ({scorer.kind}) to {args.out}")
    cv_text = ("" if tuned.cv_score is None
               else f", cv micro-pAp@{args.k}={tuned.cv_score:.4f}")
    params = _params_text(tuned.params)
    print(f"{method}: k={args.k}{', ' + params if params else ''}{cv_text} "
          f"-> {args.out}")
    return 0


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    return value


def _params_text(params):
    return ", ".join(f"{name}={format_param(v)}" for name, v in params.items())


