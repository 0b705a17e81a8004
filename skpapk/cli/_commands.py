"""The commands ``fit``, ``score`` and ``recommend``.

``score`` prints the library's metrics (:mod:`skpapk.metrics`) of a saved
model beside their expectation under a random ranking; ``recommend`` writes
the rows of :meth:`~skpapk.BaseRanker.recommend` of the saved model.
"""

import contextlib
import itertools
import os
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from threadpoolctl import threadpool_limits  # a dependency of scikit-learn

from .. import __version__
from ..io._csv import _is_plain, _plain_lines, _row, _rows
from ..utils._groups import n_undefined_groups
from ..utils._messages import cut
from ._csv import choose_relevant, listed, read_csv, relevant_rows, split_names
from ._files import check_input_file, check_output, load_model, save_model, write_output
from ._methods import (
    available_methods,
    effective_n_jobs,
    grid_for,
    has_epochs,
    parse_methods,
)
from ._output import (
    PROG,
    CLIError,
    captured_warnings,
    format_params,
    render,
    say,
    to_stdout,
    utf8_stdout,
)

#: The widest range of a feature column that ``--scale`` takes: float64
#: ends at 1.8e308, and scaling or folding the scaler into the saved
#: coefficients multiplies by the range.
HUGE_RANGE = 1e300
#: The warning categories the commands report themselves.
REPORTED = (UndefinedMetricWarning, ConvergenceWarning)


def describe_groups(y, groups, error=None):
    """``'N rows, G groups (U without ...)'`` for progress lines; with
    ``error``, raise ``CLIError(error)`` when no group has both labels."""
    codes, uniques = pd.factorize(groups)
    n_groups = len(uniques)
    undefined = n_undefined_groups(np.asarray(y, dtype=bool), codes, n_groups)
    if error is not None and undefined == n_groups:
        raise CLIError(error)
    text = (f"{len(codes)} row{'s' * (len(codes) != 1)}, {n_groups} group"
            f"{'s' * (n_groups != 1)}")
    if undefined:
        text += (f" ({undefined} without a relevant or an irrelevant row: left "
                 f"out of pAp@k and pAUC)")
    return text


def _check_scalable(data, delimiter):
    """Refuse a feature column whose range passes ``HUGE_RANGE`` (scaled, its
    other values lose every digit, and the coefficients folded into the
    saved model overflow), naming the line of its largest value; for fit,
    before its tuning (compare reports such a method as failed)."""
    with np.errstate(all="ignore"):
        huge = np.flatnonzero(~(np.ptp(data.X, axis=0) < HUGE_RANGE))
    if huge.size:
        column = int(huge[0])
        row = int(np.argmax(np.abs(data.X[:, column])))
        raise CLIError(
            f"{data.path}, line {_row(data.path, delimiter, row)[0]}: column "
            f"{cut(data.feature_names[column])} holds "
            f"{data.X[row, column]:g}, and its range is over {HUGE_RANGE:g}, "
            f"too large to scale; clip or rescale the column (e.g. its "
            f"logarithm), or fix the row.")


def read_training_csv(path, args, progress, scaled=False):
    """``(data, y, labels, groups)`` of a training file; ``labels``:
    ``[irrelevant, relevant]``, ``groups``: codes in id order; ``scaled``:
    whether a method scales the features (``--scale``)."""
    features = split_names(args.features, "--features")
    if features is not None and args.ignore_cols:
        raise CLIError("--ignore-cols leaves columns out of the default "
                       "features, and --features names them; give only one.")
    data = read_csv(path, group_col=args.group_col, label_col=args.label_col,
                    features=features,
                    ignore_cols=split_names(args.ignore_cols, "--ignore-cols") or (),
                    delimiter=args.delimiter)
    values = [str(v) for v in pd.unique(data.labels)]
    labels, announce = choose_relevant(values, args.pos_label, path=path,
                                       label_col=args.label_col)
    y = relevant_rows(data.labels, labels, labels[1], path=path,  # 1, 1.0 alike
                      label_col=args.label_col, delimiter=args.delimiter)
    groups = pd.factorize(data.groups, sort=True)[0]
    if scaled:
        _check_scalable(data, args.delimiter)
    progress(f"read {path}: " + describe_groups(y, groups, error=(
        f"{path}: no group (column {args.group_col!r}) has both a relevant "
        f"and an irrelevant row, so there is no pair to rank; train on a file "
        f"with both labels in some groups, or check --group-col.")) +
        f"; features: {listed(data.feature_names)}")
    if data.skipped_columns:
        progress(f"not used as features (no number in their first rows): "
                 f"{listed(data.skipped_columns)}")
    if data.id_like_columns and features is None:
        progress(f"warning: the integer column(s) {listed(data.id_like_columns)} "
                 f"look like identifiers (e.g. item ids) and are used as "
                 f"features; leave them out with --ignore-cols, or name the "
                 f"features with --features")
    if announce:
        progress(f"relevant label: {labels[1]!r} (irrelevant: {labels[0]!r}; "
                 f"choose with --pos-label)")
    return data, y, labels, groups


def tune_and_check(method, grid, X, y, groups, args, progress, title, fixed=None):
    """Tune (or fit) ``method`` and check the result; the :class:`Tuned`."""
    from ._tuning import check_tuned, make_cv, tune

    settings = dict(k=args.k, scale=args.scale, random_state=args.random_state,
                    max_iter=args.max_iter)
    cv = make_cv(args.cv, args.cv_folds, args.random_state, groups) if grid \
        else None
    tuned = tune(method, grid, X, y, groups, settings=settings, cv=cv,
                 n_jobs=args.n_jobs, progress=progress, title=title, fixed=fixed,
                 command=args.command, grid_name=args.grid)
    check_tuned(tuned, X, y, groups, args.k, progress, title, method=method,
                grid_name=args.grid, command=args.command)
    return tuned


def _unused(name, method):
    """Why ``method`` does not read the option ``name``; None: it does."""
    spec = available_methods()[method]
    if name in spec.grids["paper"]:  # papk's L-BFGS tunes no eta0
        return None
    if name == "eta0":
        own = spec.make().get_params()
        return "it has no step size" if "eta0" in own else "no parameter eta0"
    return {"alpha": "no parameter alpha",
            "scale": None if spec.scale else "trees need no scaling",
            "max_iter": None if has_epochs(method) else (
                "--max-iter sets the iterations of skpapk's linear rankers only")}[name]


def check_options(args, methods, progress, fixed=()):
    """Raise when an option written on the command line (even with its
    default value) is read by none of ``methods``; with nothing to tune, a
    note says that the tuning options written are not used."""
    for name in ("eta0", "alpha", "scale", "max_iter"):
        why = [_unused(name, m) for m in methods] if name in args.given else [None]
        if all(why):
            option = f"--{name.replace('_', '-')}"
            names = ", ".join(f"{m} ({available_methods()[m].label})"
                              for m in methods)
            raise CLIError(f"{option}: {names} {'do' if len(methods) > 1 else 'does'}"
                           f" not use it ({'; '.join(dict.fromkeys(why))}); leave "
                           f"{option} out.")
    tuning = [f"--{name.replace('_', '-')}" for name in ("cv", "cv_folds", "grid")
              if name in args.given and (name != "cv" or args.command == "fit")]
    if tuning and not any(grid_for(m, args.grid, fixed) for m in methods):
        why = ("every parameter of the grid is given" if fixed else
               f"no grid for {' or '.join(methods)} with --grid {args.grid}")
        progress(f"note: nothing is tuned ({why}), so {' and '.join(tuning)} "
                 f"{'is' if len(tuning) == 1 else 'are'} not used")


def cmd_fit(args, progress):
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
    args.n_jobs = effective_n_jobs(args.n_jobs, progress)
    fixed = {name: getattr(args, name) for name in ("eta0", "alpha")
             if getattr(args, name) is not None}
    check_options(args, [method], progress, fixed)
    grid = grid_for(method, args.grid, fixed)
    data, y, labels, groups = read_training_csv(
        args.file, args, progress, scaled=bool(spec.scale) and args.scale != "none")
    # at most --n-jobs BLAS and OpenMP threads: oversubscribed OpenMP threads
    # are many times slower
    with captured_warnings(progress, REPORTED), threadpool_limits(args.n_jobs):
        X = np.ascontiguousarray(data.X)  # read column-major, fitted row-major
        tuned = tune_and_check(method, grid, X, y, groups, args, progress,
                               method, fixed)
    params = format_params(tuned.params)
    cv_text = ("" if tuned.cv_score is None
               else f", cv micro-pAp@{args.k} = {tuned.cv_score:.4f}")
    progress(f"{method}: {params or 'fitted'}{cv_text} ({tuned.seconds:.1f} s)")
    meta = {
        "skpapk_version": __version__, "method": method,
        "estimator": type(tuned.model[-1]).__name__,
        "params": {**tuned.params,  # numpy scalars: save_ranker writes them as numbers
                   **({} if args.max_iter is None else {"max_iter": args.max_iter})},
        "k": args.k, "group_col": args.group_col, "label_col": args.label_col,
        "feature_cols": data.feature_names, "labels": labels,
        "pos_label": labels[1], "scale": args.scale if spec.scale else "none",
        "random_state": args.random_state,
        "cv": {"tuned": True, "splitter": args.cv, "folds": args.cv_folds,
               "grid": args.grid, "score": tuned.cv_score} if grid else {
                   "tuned": False, "score": None},
    }
    save_model(args.out, meta, tuned.model, force=args.force)
    progress(f"saved the model to {args.out}")
    try:
        with to_stdout():
            print(f"{method}: k={args.k}{', ' + params if params else ''}"
                  f"{cv_text.replace(' = ', '=')} -> {args.out}")
    except CLIError as exc:  # the model is saved: its summary is not the result
        say(f"{PROG}: warning: {exc} The model is saved to {args.out}.")
    return 0


def _read_for_model(args, model, *, require_label):
    meta = model.metadata
    label_col = meta["label_col"] if require_label else None  # recommend: unread
    return read_csv(args.file, group_col=meta["group_col"], label_col=label_col,
                    features=meta["feature_cols"], require_label=require_label,
                    delimiter=args.delimiter, for_model=True)


@contextlib.contextmanager
def finite_scores(data, delimiter):
    """The line of the first row whose score is not finite, as a CLIError."""
    try:
        yield
    except ValueError as exc:
        rows = getattr(exc, "rows", None)
        if rows is None:
            raise
        line = _row(data.path, delimiter, int(rows[0]))[0]
        others = f", nor of {rows.size - 1} other rows" * (rows.size > 1)
        raise CLIError(f"{data.path}, line {line}: the model's score of the row "
                       f"is not a finite number (NaN or infinite){others}; check "
                       f"its features (their scale, or values far from those "
                       f"the model was trained on).") from None


def ranking_metrics(y, scores, groups, k):
    """micro-pAp@k, prec@k and pAUC(0, k/n-] of ``scores`` (None: their
    expectation under a random ranking)."""
    from .. import metrics as m

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined groups: described apart
        if scores is None:
            return [float(f(y, k=k, groups=groups)) for f in (
                m.expected_papk_score, m.expected_precision_at_k_score,
                m.expected_partial_auc_score)]
        return [float(v) for v in m.ranking_report(
            y, scores, k=k, groups=groups,
            metrics=("papk", "precision_at_k", "partial_auc")).values()]


def cmd_score(args, progress):
    model = load_model(args.model, args.command)
    k = model.k if args.k is None else args.k
    data = _read_for_model(args, model, require_label=True)
    meta = model.metadata
    y = relevant_rows(data.labels, meta["labels"], meta["pos_label"],
                      path=data.path, label_col=meta["label_col"],
                      delimiter=args.delimiter)
    groups = pd.factorize(data.groups)[0]
    progress(f"read {data.path}: " + describe_groups(y, groups, error=(
        f"{data.path}: no group (column {meta['group_col']!r}) has both a "
        f"relevant and an irrelevant row, so pAp@k and pAUC are undefined for "
        f"every group; score a file with both labels in some groups.")))
    if sorted(v.lower() for v in meta["labels"]) not in (["0", "1"],
                                                          ["false", "true"]):
        progress(f"relevant label: {meta['pos_label']!r} (recorded in the model)")
    with finite_scores(data, args.delimiter):
        scores = model.decision_function(data.X)
    names = [f"micro-pAp@{k}", f"prec@{k}", f"pAUC(0, {k}/n-]"]
    rows = [[name, f"{v:.4f}", f"{r:.4f}"] for name, v, r in zip(
        names, ranking_metrics(y, scores, groups, k),
        ranking_metrics(y, None, groups, k))]
    with to_stdout():
        sys.stdout.write(render(["metric", "model", "random"], rows, args.format))
    return 0


def _unique_name(name, taken):
    while name in taken:
        name = f"skpapk_{name}"
    return name


def _rows_as_written(path, header, rows, delimiter, version):
    """The cells of data ``rows`` (in that order) as written, every column,
    read again: refused if the file changed since its ``version``
    (:func:`_version`), whose rows would not be the rows scored. Returns
    the table and the cells that may hold a carriage return (none in a
    file that :func:`skpapk.io._csv._is_plain` accepts)."""
    wanted = set(rows.tolist())
    plain, cells = _cells(path, delimiter, wanted)
    if len(cells) < len(wanted) or _version(path) != version:
        raise CLIError(f"{path} changed while this command read it (its "
                       f"content, or its metadata: another program writes or "
                       f"touches it?); run it again once nothing changes it.")
    columns = zip(*[cells[i] for i in rows]) if len(rows) else [()] * len(header)
    table = pd.DataFrame({i: np.array(c, dtype=object) for i, c in enumerate(
        columns)}, dtype=object).set_axis(header, axis=1)
    return table, [] if plain else [c for i in wanted for c in cells[i]]


def _cells(path, delimiter, wanted):
    """``(plain, {row: its cells})`` of the ``wanted`` data rows, read no
    further than the last. A plain file (no quote, NUL byte or bare carriage
    return: :func:`skpapk.io._csv._is_plain`), checked by the reader, is
    split at the delimiter (:func:`skpapk.io._csv._plain_lines`): far
    faster than the strict tokenizer."""
    last = max(wanted, default=-1)
    if not _is_plain(path):
        return False, {i: fields for i, (_, fields) in enumerate(
            itertools.islice(_rows(path, delimiter), 1, last + 2)) if i in wanted}
    return True, _plain_lines(path, delimiter, wanted)


def _version(path):
    """What tells a rewrite of ``path``: its file, size and times (the
    change time, which no program sets, also moves on a file renamed into
    place with its old modification time, as ``rsync -a`` writes)."""
    stat = os.stat(path)
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns,
            stat.st_ctime_ns)


def cmd_recommend(args, progress):
    model = load_model(args.model, args.command)
    k = model.k if args.k is None else args.k
    stdout = args.out in (None, "-")
    check_input_file(args.file)
    if not stdout:
        check_output(args.out, option="--out", inputs=[args.file, args.model],
                     force=args.force, hint=", or --out - to write to stdout")
    version = _version(args.file)
    data = _read_for_model(args, model, require_label=False)
    with progress.task("scoring and ranking"), finite_scores(data, args.delimiter):
        top = model.recommend(data.X, data.groups, k=k)
        scores = model.decision_function(data.X)[top.indices]
    ranks = top.to_frame()["rank"].to_numpy()
    table, cells = _rows_as_written(data.path, data.header, top.indices,
                                    args.delimiter, version)
    taken, group_col = set(data.header), model.metadata["group_col"]
    table.insert(0, _unique_name("score", taken), [repr(float(s)) for s in scores])
    table.insert(0, _unique_name("rank", taken), ranks)
    table = table[[group_col, *table.columns[:2],
                   *[c for c in data.header if c != group_col]]]
    # csv quotes a \r (a quoted one, as written) only when it ends the lines
    end = "\r\n" if any("\r" in c for c in data.header) or any(
        "\r" in cell for cell in cells) else "\n"
    csv = dict(sep=args.delimiter, index=False, lineterminator=end)
    if stdout:
        with to_stdout(), utf8_stdout() as handle:
            table.to_csv(handle, **csv)
    else:
        with write_output(args.out, option="--out", force=args.force,
                          newline="") as handle:
            table.to_csv(handle, **csv)
    n, top = int(np.count_nonzero(np.diff(top.indptr))), len(table) < len(data.X)
    progress(f"wrote {f'the top {k} rows' if top else 'every row'} of {n} group"
             f"{'s' * (n != 1)} ({len(table)} rows) to "
             f"{'stdout' if stdout else args.out}")
    return 0
