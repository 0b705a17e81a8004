"""The commands ``fit``, ``score`` and ``recommend``."""

import sys
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from threadpoolctl import threadpool_limits

from .. import __version__
from ..metrics import (
    expected_papk_score,
    expected_partial_auc_score,
    expected_precision_at_k_score,
    papk_score,
    partial_auc_score,
    precision_at_k_score,
)
from ..utils._groups import defined_groups, rank_within_segments
from ._csv import check_input_file, read_csv, read_rows, split_names
from ._files import atomic_write, check_output
from ._labels import choose_relevant, relevance
from ._methods import available_methods, effective_n_jobs, grid_for, parse_methods
from ._model_io import load_model, save_model, scorer_from_estimator
from ._output import (
    CapturedWarnings,
    CLIError,
    Progress,
    format_param,
    format_value,
    render,
)
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


def describe_groups(y_pos, groups):
    """``'N rows, G groups (U without ...)'`` for progress lines."""
    _, codes = np.unique(groups, return_inverse=True)
    n_groups = int(codes.max()) + 1 if codes.size else 0
    undefined = n_groups - int(np.count_nonzero(
        defined_groups(y_pos, codes, n_groups)))
    text = f"{y_pos.shape[0]} rows, {n_groups} groups"
    if undefined:
        text += (f" ({undefined} without a relevant or an irrelevant row: left "
                 f"out of pAp@k and pAUC)")
    return text


def ranking_metrics(y_pos, scores, groups, k):
    """micro-pAp@k, prec@k and pAUC(0, k/n-] (undefined groups left out)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return (papk_score(y_pos, scores, k=k, groups=groups),
                precision_at_k_score(y_pos, scores, k=k, groups=groups),
                partial_auc_score(y_pos, scores, k=k, groups=groups))


def random_metrics(y_pos, groups, k):
    """The same three metrics for a uniformly random ranking (exact)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return (expected_papk_score(y_pos, k=k, groups=groups),
                expected_precision_at_k_score(y_pos, k=k, groups=groups),
                expected_partial_auc_score(y_pos, k=k, groups=groups))


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


def _read_for_model(args, model, *, require_label, progress):
    return read_csv(args.file, group_col=model["group_col"],
                    label_col=model["label_col"], features=model["feature_cols"],
                    require_label=require_label, delimiter=args.delimiter,
                    for_model=True, progress=progress)


def cmd_score(args):
    progress = Progress(args.quiet)
    model = load_model(args.model)
    k = model["k"] if args.k is None else args.k
    data = _read_for_model(args, model, require_label=True, progress=progress)
    relevant = np.array(relevance(data.label_values, model["labels"],
                                  model["pos_label"], path=data.path,
                                  label_col=model["label_col"]), dtype=bool)
    y_pos = relevant[data.label_codes]
    groups = data.group_codes
    progress(f"read {data.path}: {describe_groups(y_pos, groups)}")
    if _announced(model["labels"]):
        progress(f"relevant label: {model['pos_label']!r} (recorded in the model)")
    scores = model.decision_function(data.X)
    data.X = None  # not needed any more: the metrics' memory can reuse it
    values = ranking_metrics(y_pos, scores, groups, k)
    randoms = random_metrics(y_pos, groups, k)
    names = [f"micro-pAp@{k}", f"prec@{k}", f"pAUC(0, {k}/n-]"]
    rows = [[name, format_value(v), format_value(r)]
            for name, v, r in zip(names, values, randoms)]
    sys.stdout.write(render(["metric", "model", "random"], rows, args.format))
    return 0


def _announced(labels):
    """Whether labels are other than 0/1 and False/True (then say which is
    relevant)."""
    return sorted(v.lower() for v in labels) not in (["0", "1"], ["false", "true"])


def _unique_name(name, taken):
    while name in taken:
        name = f"skpapk_{name}"
    return name


def top_k_rows(scores, codes, k):
    """Each group's ``k`` highest scored rows: ``(rows, ranks)``.

    Groups in code order, rows by decreasing score (ties: file order).
    """
    n_groups = int(codes.max()) + 1 if codes.size else 0
    ranking = rank_within_segments(scores, codes, n_groups)
    rank = ranking.rank[ranking.order]
    keep = rank < k
    return ranking.order[keep], rank[keep] + 1


def cmd_recommend(args):
    progress = Progress(args.quiet)
    model = load_model(args.model)
    k = model["k"] if args.k is None else args.k
    to_stdout = args.out in (None, "-")
    check_input_file(args.file)
    if not to_stdout:
        check_output(args.out, option="--out", inputs=[args.file, args.model],
                     force=args.force)
    data = _read_for_model(args, model, require_label=False, progress=progress)
    with progress.task("scoring"):
        scores = model.decision_function(data.X)
        data.X = None
        rows, ranks = top_k_rows(scores, data.group_codes, k)
    table = read_rows(data.path, data.header, rows, delimiter=args.delimiter,
                      progress=progress)
    group_col = model["group_col"]
    others = [name for name in data.header if name != group_col]
    taken = set(data.header)
    table.insert(0, _unique_name("score", taken), [repr(float(s))
                                                   for s in scores[rows]])
    table.insert(0, _unique_name("rank", taken), ranks)
    table = table[[group_col, *table.columns[:2], *others]]
    n_groups = int(np.unique(data.group_codes[rows]).shape[0])
    with progress.task("writing", total=len(table), unit="rows") as bar:
        if to_stdout:
            _write_table(table, sys.stdout, bar)
        else:
            with atomic_write(args.out, newline="") as handle:
                _write_table(table, handle, bar)
    where = "stdout" if to_stdout else args.out
    progress(f"wrote the top {k} rows of {n_groups} groups ({len(table)} rows) "
             f"to {where}")
    return 0


def _write_table(table, handle, bar, chunk=100_000):
    for start in range(0, len(table), chunk):
        part = table.iloc[start:start + chunk]
        part.to_csv(handle, index=False, header=start == 0, lineterminator="\n")
        bar.advance(len(part))
    if not len(table):
        table.to_csv(handle, index=False, lineterminator="\n")
    handle.flush()
