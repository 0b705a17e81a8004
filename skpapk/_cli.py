"""The ``skpapk`` command-line tool: compare, fit, score and recommend on CSV files.

Run ``skpapk --help`` (or ``python -m skpapk --help``). Four subcommands:

- ``compare``: hold out a test split, tune ``eta0`` and ``alpha`` of every
  ranker by per-user cross-validation of micro-pAp@k (paper eq. 17), refit,
  and print the test micro-pAp@k, prec@k and pAUC(0, k/n-] of every method
  next to a uniformly random ranking of the same test groups;
- ``fit``: tune and train one ranker on a CSV file and save it with joblib;
- ``score``: the metrics of a saved model on a labelled CSV file;
- ``recommend``: each group's top-k rows of a CSV file under a saved model.

Results go to stdout, progress to stderr (``--quiet`` silences it). Input
problems (missing file or column, non-numeric feature, non-binary label,
empty file, bad model file, bad option) end with a single line
``skpapk: error: ...`` on stderr and exit status 2.
"""

import argparse
import csv
import io
import os
import sys
import time
import warnings

import joblib
import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from sklearn.model_selection import GridSearchCV, GroupKFold, GroupShuffleSplit
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from ._base import BaseSubgradientRanker
from ._ranker import PApKAvgRanker, PApKMaxRanker, PApKRampRanker, PApKTSRanker
from .metrics import (
    expected_papk_score,
    expected_partial_auc_score,
    expected_precision_at_k_score,
    micro_papk_scorer,
    papk_score,
    partial_auc_score,
    precision_at_k_score,
)
from .model_selection import WithinGroupKFold, within_group_split

__all__ = ["main"]

PROG = "skpapk"

#: Version of the layout of the dictionary saved by ``skpapk fit``.
MODEL_FORMAT = 1

#: eta0 / alpha grids. "paper" is App. F of the paper (eta in 1e-4 ... 0.5 in
#: 1-2-5 steps, lambda in {1e-3, 1e-2, 1e-1, 1}).
GRIDS = {
    "small": {"eta0": [0.01, 0.1, 1.0], "alpha": [1e-3, 1e-1]},
    "paper": {
        "eta0": [1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2,
                 0.5],
        "alpha": [1e-3, 1e-2, 1e-1, 1.0],
    },
}

_PAPK_METHODS = {
    "avg": ("GD-pAp@k-avg", PApKAvgRanker),
    "max": ("GD-pAp@k-max", PApKMaxRanker),
    "ts": ("GD-pAp@k-TS", PApKTSRanker),
    "ramp": ("GD-pAp@k-ramp", PApKRampRanker),
}

#: (CLI name, class name in skpapk._baselines, name in the paper's tables).
_BASELINES = (
    ("pauc", "PAUCRanker", "SVM-pAUC"),
    ("preck", "PrecAtKRanker", "SGD@k-avg"),
    ("greedy", "GreedyPApKRanker", "Greedy-pAp@k"),
    ("select", "SelectPApKRanker", "Select-pAp@k"),
)


class CLIError(Exception):
    """A problem with the user's input, reported as one line, exit status 2."""


def available_methods():
    """The rankers the CLI knows: ``{name: (label, class)}``.

    The four pAp@k rankers always; the baselines of Section 7.3.2 when
    ``skpapk._baselines`` provides them.

    Examples
    --------
    >>> from skpapk._cli import available_methods
    >>> list(available_methods())[:4]
    ['avg', 'max', 'ts', 'ramp']
    """
    methods = dict(_PAPK_METHODS)
    try:
        from . import _baselines
    except ImportError:
        return methods
    for name, class_name, label in _BASELINES:
        cls = getattr(_baselines, class_name, None)
        if cls is not None:
            methods[name] = (label, cls)
    return methods


# ---------------------------------------------------------------------------
# Output helpers
# ---------------------------------------------------------------------------


class _Progress:
    """Progress lines on stderr, prefixed by ``skpapk:``; silent when quiet."""

    def __init__(self, quiet):
        self.quiet = quiet

    def __call__(self, message):
        if not self.quiet:
            print(f"{PROG}: {message}", file=sys.stderr, flush=True)


class _CapturedWarnings:
    """Catch warnings during a command; show each distinct one once after it.

    ``ignore`` lists categories the command reports itself. Under ``quiet``
    every warning is ignored. The filters also reach scikit-learn's joblib
    workers (scikit-learn >= 1.7 passes the warning filters to them; for older
    versions, ``PYTHONWARNINGS=ignore`` is set for the workers started while
    quiet).
    """

    def __init__(self, progress, ignore=()):
        self.progress = progress
        self.ignore = ignore

    def __enter__(self):
        self._catcher = warnings.catch_warnings(record=True)
        self.records = self._catcher.__enter__()
        warnings.simplefilter("ignore" if self.progress.quiet else "always")
        for category in self.ignore:
            warnings.filterwarnings("ignore", category=category)
        self._env = os.environ.get("PYTHONWARNINGS")
        if self.progress.quiet:
            os.environ["PYTHONWARNINGS"] = "ignore"
        return self

    def __exit__(self, *exc_info):
        if self.progress.quiet:
            if self._env is None:
                os.environ.pop("PYTHONWARNINGS", None)
            else:
                os.environ["PYTHONWARNINGS"] = self._env
        self._catcher.__exit__(*exc_info)
        counts = {}
        for record in self.records:
            key = (record.category.__name__, " ".join(str(record.message).split()))
            counts[key] = counts.get(key, 0) + 1
        for (category, message), count in counts.items():
            times = f" (x{count})" if count > 1 else ""
            self.progress(f"warning: {category}: {message}{times}")
        return False


def _format_value(value, digits=4):
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    value = float(value)
    if np.isnan(value):
        return "nan"
    return f"{value:.{digits}f}"


def _format_param(value):
    return "-" if value is None else f"{value:g}"


def _render(header, rows, fmt):
    """An aligned plain-text table, CSV or a markdown table, as a string."""
    rows = [[str(cell) for cell in row] for row in rows]
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        return buffer.getvalue()
    widths = [max(len(str(h)), *(len(r[j]) for r in rows)) if rows else len(str(h))
              for j, h in enumerate(header)]
    if fmt == "markdown":
        def line(cells):
            return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
        sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
        return "\n".join([line(header), sep, *(line(r) for r in rows)]) + "\n"

    numeric = [bool(rows) and all(_is_number(r[j]) or r[j] == "-" for r in rows)
               for j in range(len(header))]

    def line(cells):  # plain text: numbers right-aligned, text left-aligned
        out = [c.rjust(w) if num else c.ljust(w)
               for c, w, num in zip(cells, widths, numeric)]
        return "  ".join(out).rstrip()
    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(r) for r in rows)]) + "\n"


# ---------------------------------------------------------------------------
# CSV input
# ---------------------------------------------------------------------------


class CSVData:
    """A CSV file read for ranking: features, labels, groups and raw rows.

    Attributes
    ----------
    path : str
    header : list of str
    rows : list of list of str
        The data rows as read (for ``recommend``).
    X : ndarray of float64 of shape (n_rows, n_features)
    feature_cols : list of str
    groups : ndarray of str
    labels : ndarray or None
        The label column, as numbers when every value is one, else as
        strings; None when not read.
    skipped_cols : list of str
        Columns left out of the default features because no value in them
        is a number.
    """


def _parse_number_column(values, name, lines, path, *, what):
    """Convert a column of strings to finite float64, or fail naming the cell."""
    try:
        out = np.asarray(values).astype(np.float64)
    except ValueError:
        out = None
    if out is not None and np.all(np.isfinite(out)):
        return out
    # Error path only: locate the first bad cell for the message.
    for value, line in zip(values.tolist(), lines):
        try:
            number = float(value)
        except ValueError:
            shown = "an empty value" if value.strip() == "" else f"{value!r}"
            raise CLIError(
                f"{path}, line {line}: {what} column {name!r} holds {shown}, not "
                f"a number; {what}s must be numeric (fix the value, or leave the "
                f"column out with --features / --ignore-cols)."
            ) from None
        if not np.isfinite(number):
            raise CLIError(
                f"{path}, line {line}: {what} column {name!r} holds {value!r}; "
                f"{what}s must be finite numbers (missing values are not "
                f"supported)."
            )
    raise AssertionError("unreachable")  # pragma: no cover


def _is_number(value):
    try:
        float(value)
    except ValueError:
        return False
    return True


def _all_numbers(values):
    try:
        values.astype(np.float64)
    except ValueError:
        return False
    return True


def _split_names(values):
    """Column names from repeated and/or comma-separated option values."""
    if values is None:
        return None
    names = [name.strip() for value in values for name in value.split(",")]
    return [name for name in names if name]


def _normalise_labels(values):
    """Label values as float64 when all are numbers, else as stripped strings."""
    values = np.asarray([v.strip() for v in values])
    try:
        return values.astype(np.float64)
    except ValueError:
        return values


def _label_text(value):
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def read_csv(path, *, group_col, label_col=None, features=None, ignore=(),
             require_label=True, delimiter=",", for_model=False):
    """Read a CSV file with a header line into a :class:`CSVData`.

    Parameters
    ----------
    path : str
        The file.
    group_col : str
        Column of group (user) ids, read as strings.
    label_col : str or None
        Column of binary relevance labels; read when present in the file or
        when ``require_label``.
    features : list of str or None
        Feature columns; None: every other column whose values are numbers
        (a column with no number at all is skipped and listed in
        ``skipped_cols``; a column mixing numbers and text is an error).
    ignore : sequence of str
        Columns never used as default features (e.g. an item id).
    require_label : bool
        Whether the label column must exist.
    delimiter : str
        Field separator.
    for_model : bool
        The columns are those of a saved model (changes the hint of the
        missing-column message).

    Returns
    -------
    data : CSVData

    Raises
    ------
    CLIError
        For every problem in the file, with the column and line.
    """
    try:
        handle = open(path, newline="", encoding="utf-8-sig")
    except FileNotFoundError:
        raise CLIError(f"{path}: no such file.") from None
    except IsADirectoryError:
        raise CLIError(f"{path} is a folder, not a CSV file.") from None
    with handle:
        try:
            reader = csv.reader(handle, delimiter=delimiter)
            header = next(reader, None)
            if header is None or not any(h.strip() for h in header):
                raise CLIError(
                    f"{path} is empty: it needs a header line naming the columns "
                    f"(e.g. group,label,f1,f2) and one line per row."
                )
            header = [h.strip() for h in header]
            rows, lines = [], []
            for row in reader:
                if not row or (len(row) == 1 and not row[0].strip()):
                    continue  # blank line
                if len(row) != len(header):
                    raise CLIError(
                        f"{path}, line {reader.line_num}: {len(row)} fields, but "
                        f"the header has {len(header)}; every line needs one "
                        f"value per column."
                    )
                rows.append(row)
                lines.append(reader.line_num)
        except UnicodeDecodeError:
            raise CLIError(f"{path} is not a UTF-8 text (CSV) file.") from None
        except csv.Error as exc:
            raise CLIError(f"{path}: not a valid CSV file ({exc}).") from None
    duplicated = sorted({h for h in header if header.count(h) > 1})
    if duplicated:
        raise CLIError(f"{path}: the header names the column(s) {duplicated} more "
                       f"than once; column names must be unique.")
    if not rows:
        raise CLIError(f"{path} has a header but no data rows.")

    def column_index(name, option):
        if name not in header:
            hint = ("the model was trained with it" if for_model
                    else f"choose it with {option}")
            raise CLIError(
                f"{path} has no column {name!r} ({hint}); its columns are: "
                f"{', '.join(header)}."
            )
        return header.index(name)

    table = np.asarray(rows, dtype=str)
    data = CSVData()
    data.path, data.header, data.rows = path, header, rows
    g = column_index(group_col, "--group-col")
    data.groups = np.char.strip(table[:, g])
    empty = np.flatnonzero(data.groups == "")
    if empty.size:
        raise CLIError(f"{path}, line {lines[empty[0]]}: empty group id in column "
                       f"{group_col!r}; every row needs its group (user).")
    data.labels = None
    lab = None
    if label_col is not None and (require_label or label_col in header):
        lab = column_index(label_col, "--label-col")
        if lab == g:
            raise CLIError(f"--group-col and --label-col both name {group_col!r}; "
                           f"they must be two different columns.")
        empty = np.flatnonzero(np.char.strip(table[:, lab]) == "")
        if empty.size:
            raise CLIError(f"{path}, line {lines[empty[0]]}: empty label in column "
                           f"{label_col!r}; every row needs its label.")
        data.labels = _normalise_labels(table[:, lab])
        if data.labels.dtype.kind == "f" and not np.all(np.isfinite(data.labels)):
            bad = np.flatnonzero(~np.isfinite(data.labels))[0]
            raise CLIError(f"{path}, line {lines[bad]}: label {table[bad, lab]!s} "
                           f"in column {label_col!r} is not a finite value.")
        distinct = np.unique(data.labels)
        if distinct.shape[0] > 2:
            shown = ", ".join(_label_text(v) for v in distinct[:5])
            more = ", ..." if distinct.shape[0] > 5 else ""
            raise CLIError(
                f"{path}: label column {label_col!r} must be binary (two "
                f"values, the greater one relevant), but it has "
                f"{distinct.shape[0]} distinct values ({shown}{more}); threshold "
                f"it first, e.g. 1 for rating 5 and 0 otherwise."
            )
    reserved = {group_col} | ({label_col} if lab is not None else set())
    data.skipped_cols = []
    if features is None:
        ignore = list(ignore)
        for name in ignore:
            column_index(name, "--ignore-cols")
        features = []
        for j, name in enumerate(header):
            if name in reserved or name in ignore:
                continue
            if _all_numbers(table[:, j]) or any(_is_number(v) for v in table[:, j]):
                features.append(name)
            else:
                data.skipped_cols.append(name)
        if not features:
            raise CLIError(
                f"{path} has no numeric feature column besides {group_col!r} and "
                f"{label_col!r}; name the features with --features."
            )
    else:
        for name in features:
            if name in reserved:
                raise CLIError(f"--features names {name!r}, which is the group or "
                               f"label column; features must be other columns.")
        if len(set(features)) != len(features):
            raise CLIError(f"--features names a column twice: {features}.")
    columns = [column_index(name, "--features") for name in features]
    data.feature_cols = list(features)
    data.X = np.empty((len(rows), len(columns)), dtype=np.float64)
    for out_j, (name, j) in enumerate(zip(features, columns)):
        data.X[:, out_j] = _parse_number_column(table[:, j], name, lines, path,
                                                what="feature")
    return data


# ---------------------------------------------------------------------------
# Estimators, grids, metrics
# ---------------------------------------------------------------------------


def _make_pipeline(method, *, k, scale, max_iter=None, params=None):
    methods = available_methods()
    label, cls = methods[method]
    estimator = cls()
    own = estimator.get_params()
    settings = {"k": k}
    if max_iter is not None and isinstance(estimator, BaseSubgradientRanker):
        settings["max_iter"] = max_iter  # epochs; other models' max_iter differ
    settings.update(params or {})
    estimator.set_params(**{key: v for key, v in settings.items() if key in own})
    scaler = {"minmax": MinMaxScaler(), "standard": StandardScaler(),
              "none": "passthrough"}[scale]
    return Pipeline([("scale", scaler), ("ranker", estimator)])


def _grid_for(pipeline, grid, fixed):
    """The ``ranker__`` grid over the eta0 / alpha the estimator has."""
    own = pipeline.named_steps["ranker"].get_params()
    return {f"ranker__{name}": list(values) for name, values in grid.items()
            if name in own and name not in fixed}


def _n_candidates(grid):
    return int(np.prod([len(v) for v in grid.values()])) if grid else 1


def _group_counts(y_pos, groups):
    labels, codes = np.unique(groups, return_inverse=True)
    n_rows = np.bincount(codes, minlength=labels.shape[0])
    n_pos = np.bincount(codes, weights=y_pos, minlength=labels.shape[0])
    return n_pos.astype(np.intp), (n_rows - n_pos).astype(np.intp)


def _test_metrics(y_pos, scores, groups, k):
    """micro-pAp@k, prec@k, pAUC of scores (undefined groups left out)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return (papk_score(y_pos, scores, k=k, groups=groups),
                precision_at_k_score(y_pos, scores, k=k, groups=groups),
                partial_auc_score(y_pos, scores, k=k, groups=groups))


def _random_metrics(y_pos, groups, k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return (expected_papk_score(y_pos, k=k, groups=groups),
                expected_precision_at_k_score(y_pos, k=k, groups=groups),
                expected_partial_auc_score(y_pos, k=k, groups=groups))


def _describe_groups(y_pos, groups):
    n_pos, n_neg = _group_counts(y_pos, groups)
    undefined = int(np.count_nonzero((n_pos == 0) | (n_neg == 0)))
    text = f"{y_pos.shape[0]} rows, {n_pos.shape[0]} groups"
    if undefined:
        text += (f" ({undefined} without a relevant or an irrelevant row: left out "
                 f"of pAp@k and pAUC)")
    return text


def _tune(pipeline, grid, X, y, groups, *, k, cv, n_jobs, progress, title):
    """GridSearchCV under metadata routing; returns the fitted search or None."""
    t0 = time.perf_counter()
    n_cand = _n_candidates(grid)
    progress(f"{title}: {n_cand} candidate(s) x {cv.get_n_splits()} folds")
    search = GridSearchCV(pipeline, grid, scoring=micro_papk_scorer(k), cv=cv,
                          n_jobs=n_jobs, refit=True, error_score="raise")
    with sklearn.config_context(enable_metadata_routing=True):
        search.fit(X, y, groups=groups)
    best = {key.removeprefix("ranker__"): v for key, v in search.best_params_.items()}
    shown = ", ".join(f"{key}={v:g}" for key, v in best.items()) or "defaults"
    progress(f"{title}: best {shown}, cv micro-pAp@{k} = "
             f"{search.best_score_:.4f} ({time.perf_counter() - t0:.1f} s)")
    return search


def _make_cv(kind, n_splits, random_state):
    if kind == "group":
        return GroupKFold(n_splits=n_splits)
    return WithinGroupKFold(n_splits=n_splits, shuffle=True,
                            random_state=random_state)


def _note_convergence(estimator, progress, title):
    ranker = estimator.named_steps["ranker"] if hasattr(estimator, "named_steps") \
        else estimator
    if not isinstance(ranker, BaseSubgradientRanker):
        return
    max_iter = ranker.max_iter
    if ranker.n_iter_ >= max_iter:
        progress(f"{title}: note: the final fit ran all max_iter={max_iter} "
                 f"epochs (raise --max-iter for a tighter optimum)")


# ---------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------


def _load_compare_data(args, progress):
    """Return X, y_pos (int), groups, description."""
    if args.path is not None and args.data != "movielens":
        raise CLIError("--path is for --data movielens (the u.data file or its "
                       "folder); for a CSV file pass --data FILE.csv.")
    if args.data == "synthetic":
        from .datasets import make_papk_simulation

        X, y, groups = make_papk_simulation(
            args.n_users, n_pos=(5, 60), n_neg=(60, 200),
            n_features=args.n_features, random_state=args.random_state)
        return X, y.astype(np.int64), groups, (
            f"synthetic: {args.n_users} users, {args.n_features} features, 5-60 "
            f"relevant and 60-200 irrelevant rows each (paper Section 7.1)")
    if args.data == "movielens":
        from .datasets import load_movielens_100k

        progress("loading MovieLens 100K (masked NMF features, App. F.1) ...")
        bunch = load_movielens_100k(args.path, random_state=args.random_state,
                                    download=not args.no_download)
        return bunch.data, bunch.target.astype(np.int64), bunch.groups, (
            "MovieLens 100K (App. F.1)")
    data = read_csv(args.data, group_col=args.group_col, label_col=args.label_col,
                    features=_split_names(args.features),
                    ignore=_split_names(args.ignore_cols) or (),
                    delimiter=args.delimiter)
    y_pos, _ = _binary_labels(data, args.label_col)
    _report_columns(data, progress)
    return data.X, y_pos.astype(np.int64), data.groups, data.path


def _binary_labels(data, label_col):
    distinct = np.unique(data.labels)
    if distinct.shape[0] != 2:
        raise CLIError(
            f"{data.path}: label column {label_col!r} has the single value "
            f"{_label_text(distinct[0])!r}; training needs two values (the "
            f"greater one relevant)."
        )
    return data.labels == distinct[1], distinct


def _report_columns(data, progress):
    progress(f"read {data.path}: {len(data.rows)} rows; features: "
             f"{', '.join(data.feature_cols)}")
    if data.skipped_cols:
        progress(f"not used as features (no numeric value): "
                 f"{', '.join(data.skipped_cols)}")


def _split_train_test(args, y, groups):
    if args.cv == "group":
        splitter = GroupShuffleSplit(n_splits=1, test_size=args.test_size,
                                     random_state=args.random_state)
        train, test = next(splitter.split(np.zeros(y.shape[0]), y, groups))
        return np.sort(train), np.sort(test)
    return within_group_split(y, groups, sizes=(1 - args.test_size, args.test_size),
                              random_state=args.random_state)


def _parse_methods(text):
    methods = available_methods()
    if text == "all":
        return list(methods)
    names = _split_names([text])
    unknown = [m for m in names if m not in methods]
    if unknown or not names:
        known = set(_PAPK_METHODS) | {b[0] for b in _BASELINES}
        missing = [m for m in unknown if m in known]
        hint = (f" ({', '.join(missing)}: baseline not installed in this version)"
                if missing else "")
        raise CLIError(f"unknown method(s) {', '.join(unknown) or repr(text)}"
                       f"{hint}; choose from {', '.join(methods)} or 'all'.")
    return names


def _check_plot_path(path):
    """Fail before the (long) tuning when ``--plot`` cannot be written."""
    if path is None:
        return
    from .inspection import check_matplotlib_support

    try:
        check_matplotlib_support("skpapk compare --plot")
    except ImportError as exc:
        raise CLIError(str(exc)) from exc
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CLIError(f"--plot {path}: the folder {folder} does not exist.")


def _write_group_plot(path, y_true, scores, groups, k, progress):
    """Box plots of every method's per-user test pAp@k, beside random ranking."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .inspection import GroupScoreDisplay

    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * (len(scores) + 1)), 4.5))
    GroupScoreDisplay.from_predictions(y_true, scores, groups=groups, k=k, ax=ax)
    ax.set_title(f"test pAp@{k} of each user")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    progress(f"wrote {path}")


def cmd_compare(args):
    progress = _Progress(args.quiet)
    methods = _parse_methods(args.methods)
    _check_fraction(args.test_size, "--test-size")
    _check_plot_path(args.plot)
    with _CapturedWarnings(progress, ignore=(UndefinedMetricWarning,
                                             ConvergenceWarning)):
        X, y, groups, description = _load_compare_data(args, progress)
        groups = np.asarray(groups)
        train, test = _split_train_test(args, y, groups)
        if train.size == 0 or test.size == 0:
            raise CLIError("the train / test split left a part empty; use more "
                           "rows per group or another --test-size.")
        protocol = ("held-out users (GroupShuffleSplit test part, GroupKFold CV)"
                    if args.cv == "group" else
                    "held-out rows of every user (within_group_split, "
                    "WithinGroupKFold CV)")
        progress(f"data: {description}")
        progress(f"protocol: {protocol}; test part {args.test_size:g}, "
                 f"{args.cv_folds}-fold CV on the rest; k = {args.k}")
        progress(f"train: {_describe_groups(y[train] == 1, groups[train])}")
        progress(f"test: {_describe_groups(y[test] == 1, groups[test])}")
        cv = _make_cv(args.cv, args.cv_folds, args.random_state)
        y_test, g_test = y[test] == 1, groups[test]
        rows = []
        test_scores = {}
        for i, method in enumerate(methods, 1):
            label = available_methods()[method][0]
            title = f"[{i}/{len(methods)}] {method} ({label})"
            pipeline = _make_pipeline(method, k=args.k, scale=args.scale,
                                      max_iter=args.max_iter)
            grid = _grid_for(pipeline, GRIDS[args.grid], fixed=())
            t0 = time.perf_counter()
            search = _tune(pipeline, grid, X[train], y[train], groups[train],
                           k=args.k, cv=cv, n_jobs=args.n_jobs, progress=progress,
                           title=title)
            seconds = time.perf_counter() - t0
            _note_convergence(search.best_estimator_, progress, title)
            scores = search.best_estimator_.decision_function(X[test])
            test_scores[method] = scores
            papk, prec, pauc = _test_metrics(y_test, scores, g_test, args.k)
            best = search.best_params_
            rows.append([method, label,
                         _format_param(best.get("ranker__eta0")),
                         _format_param(best.get("ranker__alpha")),
                         _format_value(search.best_score_), _format_value(papk),
                         _format_value(prec), _format_value(pauc),
                         f"{seconds:.1f}"])
        papk, prec, pauc = _random_metrics(y_test, g_test, args.k)
        rows.append(["random", "expected, random ranking", "-", "-", "-",
                     _format_value(papk), _format_value(prec), _format_value(pauc),
                     "-"])
        if args.plot is not None:
            _write_group_plot(args.plot, y_test, test_scores, g_test, args.k,
                              progress)
    k = args.k
    header = ["method", "estimator", "eta0", "alpha", f"cv pAp@{k}",
              f"test pAp@{k}", f"test prec@{k}", f"test pAUC@{k}", "seconds"]
    sys.stdout.write(_render(header, rows, args.format))
    return 0


# ---------------------------------------------------------------------------
# fit / score / recommend
# ---------------------------------------------------------------------------


def _check_fraction(value, name):
    if not 0 < value < 1:
        raise CLIError(f"{name} must be a fraction strictly between 0 and 1, got "
                       f"{value:g}.")


def cmd_fit(args):
    progress = _Progress(args.quiet)
    method = _parse_methods(args.method)
    if len(method) != 1:
        raise CLIError(f"--method takes one method, got {args.method!r}.")
    method = method[0]
    data = read_csv(args.file, group_col=args.group_col, label_col=args.label_col,
                    features=_split_names(args.features),
                    ignore=_split_names(args.ignore_cols) or (),
                    delimiter=args.delimiter)
    y_pos, labels = _binary_labels(data, args.label_col)
    _report_columns(data, progress)
    progress(f"relevant label: {_label_text(labels[1])!r} (the greater of "
             f"{_label_text(labels[0])!r} and {_label_text(labels[1])!r})")
    progress(f"data: {_describe_groups(y_pos, data.groups)}")
    fixed = {name: value for name, value in (("eta0", args.eta0),
                                             ("alpha", args.alpha))
             if value is not None}
    pipeline = _make_pipeline(method, k=args.k, scale=args.scale,
                              max_iter=args.max_iter, params=fixed)
    grid = _grid_for(pipeline, GRIDS[args.grid], fixed=fixed)
    y = y_pos.astype(np.int64)
    cv_score = None
    with _CapturedWarnings(progress, ignore=(UndefinedMetricWarning,
                                             ConvergenceWarning)):
        if grid:
            cv = _make_cv(args.cv, args.cv_folds, args.random_state)
            search = _tune(pipeline, grid, data.X, y, data.groups, k=args.k,
                           cv=cv, n_jobs=args.n_jobs, progress=progress,
                           title=f"tuning {method}")
            estimator, cv_score = search.best_estimator_, float(search.best_score_)
        else:
            t0 = time.perf_counter()
            with sklearn.config_context(enable_metadata_routing=True):
                estimator = pipeline.fit(data.X, y, groups=data.groups)
            progress(f"fitted {method} ({time.perf_counter() - t0:.1f} s)")
        _note_convergence(estimator, progress, method)
    ranker = estimator.named_steps["ranker"]
    params = {name: ranker.get_params()[name] for name in ("eta0", "alpha")
              if name in ranker.get_params()}
    model = {
        "skpapk_model": MODEL_FORMAT,
        "skpapk_version": _version(),
        "estimator": estimator,
        "method": method,
        "k": args.k,
        "group_col": args.group_col,
        "label_col": args.label_col,
        "feature_cols": data.feature_cols,
        "labels": labels.tolist(),
        "params": params,
        "cv_score": cv_score,
    }
    try:
        joblib.dump(model, args.out)
    except OSError as exc:
        raise CLIError(f"cannot write the model to {args.out}: "
                       f"{exc.strerror or exc}.") from None
    progress(f"saved the model to {args.out}")
    shown = ", ".join(f"{name}={value:g}" for name, value in params.items())
    cv_text = "" if cv_score is None else f", cv micro-pAp@{args.k}={cv_score:.4f}"
    print(f"{method}: k={args.k}, {shown}{cv_text} -> {args.out}")
    return 0


def _version():
    from . import __version__

    return __version__


def load_model(path):
    """Load and check a model file written by ``skpapk fit``."""
    if not os.path.exists(path):
        raise CLIError(f"{path}: no such model file; create one with "
                       f"'skpapk fit FILE.csv ... --out {path}'.")
    try:
        model = joblib.load(path)
    except Exception as exc:  # any unpickling failure means "not a model file"
        raise CLIError(f"{path} is not a model file written by 'skpapk fit' "
                       f"({type(exc).__name__}).") from None
    keys = {"estimator", "k", "group_col", "label_col", "feature_cols", "labels"}
    if not isinstance(model, dict) or model.get("skpapk_model") != MODEL_FORMAT \
            or not keys <= set(model):
        raise CLIError(f"{path} is not a model file written by 'skpapk fit' "
                       f"(format {MODEL_FORMAT}).")
    return model


def _read_for_model(args, model, *, require_label):
    data = read_csv(args.file, group_col=model["group_col"],
                    label_col=model["label_col"], features=model["feature_cols"],
                    require_label=require_label, delimiter=args.delimiter,
                    for_model=True)
    return data


def cmd_score(args):
    progress = _Progress(args.quiet)
    model = load_model(args.model)
    k = model["k"] if args.k is None else args.k
    data = _read_for_model(args, model, require_label=True)
    labels = np.asarray(model["labels"])
    same_kind = (data.labels.dtype.kind == "f") == (labels.dtype.kind == "f")
    if not same_kind or np.setdiff1d(np.unique(data.labels), labels).size:
        seen = ", ".join(_label_text(v) for v in np.unique(data.labels)[:5])
        raise CLIError(
            f"{data.path}: label column {model['label_col']!r} holds {seen}, but "
            f"the model was trained on the labels "
            f"{', '.join(_label_text(v) for v in labels)}."
        )
    y_pos = data.labels == labels[1]
    progress(f"read {data.path}: {_describe_groups(y_pos, data.groups)}")
    with _CapturedWarnings(progress, ignore=(UndefinedMetricWarning,)):
        scores = model["estimator"].decision_function(data.X)
        values = _test_metrics(y_pos, scores, data.groups, k)
        randoms = _random_metrics(y_pos, data.groups, k)
    names = [f"micro-pAp@{k}", f"prec@{k}", f"pAUC(0, {k}/n-]"]
    rows = [[name, _format_value(v), _format_value(r)]
            for name, v, r in zip(names, values, randoms)]
    sys.stdout.write(_render(["metric", "model", "random"], rows, args.format))
    return 0


def _unique_name(name, taken):
    while name in taken:
        name = f"skpapk_{name}"
    return name


def cmd_recommend(args):
    progress = _Progress(args.quiet)
    model = load_model(args.model)
    k = model["k"] if args.k is None else args.k
    data = _read_for_model(args, model, require_label=False)
    estimator = model["estimator"]
    ranker = estimator.named_steps["ranker"]
    with _CapturedWarnings(progress):
        Xt = estimator[:-1].transform(data.X)
        rec = ranker.recommend(Xt, data.groups, k=k)
        scores = ranker.decision_function(Xt)
    counts = np.diff(rec.indptr)
    group_of = np.repeat(rec.groups, counts)
    rank = np.arange(rec.indices.shape[0]) - np.repeat(rec.indptr[:-1], counts) + 1
    group_col = model["group_col"]
    others = [j for j, name in enumerate(data.header) if name != group_col]
    taken = set(data.header)
    header = [group_col, _unique_name("rank", taken), _unique_name("score", taken)]
    header += [data.header[j] for j in others]
    out = sys.stdout if args.out in (None, "-") else None
    try:
        handle = out or open(args.out, "w", newline="", encoding="utf-8")
    except OSError as exc:
        raise CLIError(f"cannot write {args.out}: {exc.strerror or exc}.") from None
    try:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(
            [g, r, repr(float(s)), *(data.rows[i][j] for j in others)]
            for g, r, i, s in zip(group_of.tolist(), rank.tolist(),
                                  rec.indices.tolist(),
                                  scores[rec.indices].tolist()))
    finally:
        if out is None:
            handle.close()
    where = "stdout" if out is not None else args.out
    progress(f"wrote the top {k} rows of {rec.groups.shape[0]} groups "
             f"({rec.indices.shape[0]} rows) to {where}")
    return 0


# ---------------------------------------------------------------------------
# Argument parsing
# ---------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one ``skpapk: error:`` line."""

    def error(self, message):
        self.exit(2, f"{PROG}: error: {message} (see '{self.prog} --help')\n")


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}")
    if not np.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


def _n_jobs(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}")
    if value == 0:
        raise argparse.ArgumentTypeError("0 jobs is not allowed; use 1, N or -1 "
                                         "(all cores)")
    return value


_EPILOG = """\
Data: one CSV row per (user, item) pair, with a header line: a group (user)
column, a binary label column (any two values; the greater is relevant, e.g.
1 over 0, 'yes' over 'no') and numeric feature columns. Example:

  user,label,f1,f2
  u1,1,0.3,1.2
  u1,0,0.1,-0.4

Quick start:
  skpapk compare                          # built-in synthetic data, < 1 min
  skpapk fit data.csv --group-col user --out model.joblib
  skpapk score test.csv --model model.joblib
  skpapk recommend new.csv --model model.joblib --out top.csv
"""


def _add_csv_options(parser, *, with_features=True):
    parser.add_argument("--group-col", default="group", metavar="COL",
                        help="column of the group (user) ids (default: group)")
    parser.add_argument("--label-col", default="label", metavar="COL",
                        help="column of the binary labels; the greater of its "
                             "two values is relevant (default: label)")
    if with_features:
        parser.add_argument(
            "--features", action="append", metavar="COLS",
            help="comma-separated feature columns (repeatable); default: every "
                 "other column holding numbers (text-only columns such as item "
                 "names are skipped and listed)")
        parser.add_argument(
            "--ignore-cols", action="append", metavar="COLS",
            help="comma-separated numeric columns that are not features (e.g. an "
                 "item id) when --features is not given")


def _add_common(parser):
    parser.add_argument("--delimiter", default=",", metavar="CHAR",
                        help="field separator of the CSV files (default: ,)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print no progress or warnings on stderr")
    parser.add_argument("--traceback", action="store_true",
                        help="on error, show the full Python traceback (for bug "
                             "reports) instead of one line")


def _add_training_options(parser):
    parser.add_argument("--k", type=_positive_int, default=10,
                        help="number of items shown to each user: the k of "
                             "pAp@k (default: 10)")
    parser.add_argument("--grid", choices=sorted(GRIDS), default="small",
                        help="eta0/alpha grid: small = eta0 in {0.01, 0.1, 1}, "
                             "alpha in {0.001, 0.1}; paper = App. F (eta0 1e-4 .. "
                             "0.5, alpha 0.001 .. 1, 48 pairs) (default: small)")
    parser.add_argument("--cv", choices=["within-group", "group"],
                        default="within-group",
                        help="within-group: CV folds (and compare's test part) "
                             "hold out rows of every user (WithinGroupKFold, "
                             "within_group_split: the paper's protocol); group: "
                             "they hold out whole users (GroupKFold, "
                             "GroupShuffleSplit), to rank items for new users "
                             "(default: within-group)")
    parser.add_argument("--cv-folds", type=_positive_int, default=3, metavar="N",
                        help="number of CV folds (default: 3)")
    parser.add_argument("--scale", choices=["minmax", "standard", "none"],
                        default="minmax",
                        help="feature scaling fitted on the training rows "
                             "(default: minmax, as the paper)")
    parser.add_argument("--max-iter", type=_positive_int, default=None, metavar="N",
                        help="maximum number of epochs of the subgradient "
                             "rankers (default: theirs, 200)")
    parser.add_argument("--n-jobs", type=_n_jobs, default=1, metavar="N",
                        help="parallel CV fits (-1: all cores; default: 1)")
    parser.add_argument("--random-state", type=int, default=0, metavar="SEED",
                        help="seed of the data generator, splits and folds "
                             "(default: 0)")


def build_parser():
    """The ``argparse`` parser of the ``skpapk`` command."""
    parser = _Parser(
        prog=PROG,
        description="Train, tune and evaluate linear rankers for top-k "
                    "recommendation with the pAp@k\nmetric (Hiranandani et al., "
                    "ICML 2020), on your own CSV files.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                parser_class=_Parser)
    method_names = ", ".join(available_methods())

    compare = sub.add_parser(
        "compare", help="compare the rankers on a data set (tuned by CV)",
        description="Hold out a test part of every user's rows (or of the users "
                    "with --cv group), tune eta0 and alpha of each ranker by "
                    "per-user cross-validation of micro-pAp@k on the rest, refit "
                    "the best, and print test micro-pAp@k, prec@k and "
                    "pAUC(0, k/n-] per method, with a random ranking of the same "
                    "test groups as the baseline. With no option it runs on "
                    "built-in synthetic data in a few seconds.")
    compare.add_argument("--data", default="synthetic", metavar="SOURCE",
                         help="synthetic (built-in, default), movielens "
                              "(MovieLens 100K, see --path) or a CSV file")
    compare.add_argument("--methods", default="all", metavar="LIST",
                         help=f"comma-separated methods or 'all' (default); "
                              f"available: {method_names}")
    compare.add_argument("--test-size", type=float, default=0.2, metavar="FRAC",
                         help="fraction of every user's rows (of the users with "
                              "--cv group) held out for the test (default: 0.2)")
    compare.add_argument("--format", choices=["table", "csv", "markdown"],
                         default="table", help="output format (default: table)")
    compare.add_argument("--n-users", type=_positive_int, default=200, metavar="N",
                         help="synthetic data: number of users (default: 200)")
    compare.add_argument("--n-features", type=_positive_int, default=5,
                         metavar="D",
                         help="synthetic data: number of features (default: 5)")
    compare.add_argument("--path", default=None,
                         help="movielens: the u.data file or its folder (default: "
                              "$SKPAPK_DATA, then the scikit-learn data folder, "
                              "then download)")
    compare.add_argument("--plot", default=None, metavar="PNG",
                         help="also draw each method's per-user test pAp@k "
                              "(box plots, beside a random ranking) into this "
                              "PNG file; needs pip install 'skpapk[plot]'")
    compare.add_argument("--no-download", action="store_true",
                         help="movielens: never download the archive")
    _add_training_options(compare)
    _add_csv_options(compare)
    _add_common(compare)
    compare.set_defaults(func=cmd_compare)

    fit = sub.add_parser(
        "fit", help="train (and tune) a ranker on a CSV file; save it",
        description="Train one ranker on a CSV file and save it with joblib. "
                    "eta0 and alpha are tuned by per-user cross-validation of "
                    "micro-pAp@k unless both are given; the model keeps the "
                    "column names and k, so 'score' and 'recommend' read the "
                    "same columns.")
    fit.add_argument("file", metavar="FILE.csv", help="training data")
    fit.add_argument("--method", default="avg",
                     help=f"one of {method_names} (default: avg)")
    fit.add_argument("--eta0", type=_positive_float, default=None,
                     help="fixed initial step size (default: tuned)")
    fit.add_argument("--alpha", type=_positive_float, default=None,
                     help="fixed regularisation weight (default: tuned)")
    fit.add_argument("--out", required=True, metavar="MODEL.joblib",
                     help="where to save the model")
    _add_training_options(fit)
    _add_csv_options(fit)
    _add_common(fit)
    fit.set_defaults(func=cmd_fit)

    score = sub.add_parser(
        "score", help="metrics of a saved model on a labelled CSV file",
        description="Print micro-pAp@k, prec@k and pAUC(0, k/n-] of a saved "
                    "model on a labelled CSV file (the columns named at fit "
                    "time), with a random ranking of the same groups as the "
                    "baseline.")
    score.add_argument("file", metavar="FILE.csv")
    score.add_argument("--model", required=True, metavar="MODEL.joblib")
    score.add_argument("--k", type=_positive_int, default=None,
                       help="k of the metrics (default: the model's)")
    score.add_argument("--format", choices=["table", "csv", "markdown"],
                       default="table")
    _add_common(score)
    score.set_defaults(func=cmd_score)

    recommend = sub.add_parser(
        "recommend", help="write each group's top-k rows under a saved model",
        description="Score every row of a CSV file with a saved model and write "
                    "each group's k highest scored rows: the group, the rank "
                    "(1..k), the score and the row's other columns. The label "
                    "column is not needed.")
    recommend.add_argument("file", metavar="FILE.csv")
    recommend.add_argument("--model", required=True, metavar="MODEL.joblib")
    recommend.add_argument("--out", default=None, metavar="TOP.csv",
                           help="output CSV (default: stdout)")
    recommend.add_argument("--k", type=_positive_int, default=None,
                           help="rows per group (default: the model's k)")
    _add_common(recommend)
    recommend.set_defaults(func=cmd_recommend)
    return parser


def _one_line(exc):
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def main(argv=None):
    """Run the ``skpapk`` command; return its exit status.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments (``sys.argv[1:]`` when None).

    Returns
    -------
    status : int
        0 on success, 2 on an input or usage error (reported as one line
        ``skpapk: error: ...`` on stderr).

    Examples
    --------
    A missing model file is an input error: one line on stderr, status 2.

    >>> from skpapk._cli import main
    >>> main(["score", "no-such-file.csv", "--model", "no-such-model.joblib"])
    2
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except (CLIError, ValueError, TypeError, OSError) as exc:
        if args.traceback:
            raise
        print(f"{PROG}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
