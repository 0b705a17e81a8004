"""Strict, fast reading of the CSV files of the command line.

Two passes over the file, run side by side in two threads (both spend
most of their time outside the GIL): :func:`~skpapk.cli._scan.scan_csv`
checks its structure (UTF-8, quotes, one value per column on every line)
and counts the rows, while pandas' C parser reads, in chunks, only the
columns that are used: the group and label columns as text, the features
as numbers. Once the scan has counted the rows, the features go straight
into one preallocated float64 matrix (the chunks read before that wait in
a list). Unused columns (item names, long texts) are never stored, and the
groups and labels are kept as integer codes, so the memory peak stays
close to the size of the feature matrix. Nothing is returned before the
scan has passed the whole file, and a structural problem found by the
scan is reported before any problem of a cell.
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd

from ._output import CLIError, Progress
from ._scan import read_header, scan_csv

#: Rows read to decide which columns hold numbers (default features).
SNIFF_ROWS = 1000
#: Target size of a chunk of the file read at once, in bytes.
CHUNK_BYTES = 1 << 24

_READ_OPTIONS = dict(engine="c", encoding="utf-8-sig", keep_default_na=False,
                     na_values=[], skip_blank_lines=True, quotechar='"',
                     doublequote=True, on_bad_lines="error")
if int(pd.__version__.split(".")[0]) < 3:
    # pandas 2's default C float parser can miss the nearest double by an
    # ulp; "round_trip" reads every number exactly (pandas 3 always does,
    # and deprecates the option)
    _READ_OPTIONS["float_precision"] = "round_trip"


class CSVData:
    """A CSV file read for ranking.

    Attributes
    ----------
    path : str
    header : list of str
    n_rows : int
    X : ndarray of float64 of shape (n_rows, n_features)
    feature_cols : list of str
    skipped_cols : list of str
        Columns left out of the default features because none of their
        first values is a number.
    group_codes : ndarray of intp of shape (n_rows,)
        Code of each row's group, in the sorted order of the group ids.
    group_labels : ndarray of object of shape (n_groups,)
        The sorted group ids (strings, stripped).
    label_codes : ndarray of int8 of shape (n_rows,) or None
        Index of each row's label in ``label_values``; None when the file
        has no label column (or it was not asked for).
    label_values : list of str
        The distinct labels (stripped text), in order of appearance.
    row_lines : ndarray of int64 of shape (n_rows,)
        The line where each row starts (for messages).
    """


def check_input_file(path):
    """Fail with one line when ``path`` is not a readable file."""
    if not os.path.exists(path):
        raise CLIError(f"{path}: no such file.")
    if os.path.isdir(path):
        raise CLIError(f"{path} is a folder, not a CSV file.")
    if not os.access(path, os.R_OK):
        raise CLIError(f"{path}: permission denied (cannot read it).")


def split_names(values):
    """Column names from repeated and/or comma-separated option values.

    Examples
    --------
    >>> from skpapk.cli._csv import split_names
    >>> split_names(["a,b", " c "])
    ['a', 'b', 'c']
    """
    if values is None:
        return None
    names = [name.strip() for value in values for name in value.split(",")]
    return [name for name in names if name]


def _column(header, name, option, path, for_model):
    if name not in header:
        hint = ("the model was trained with it" if for_model
                else f"choose it with {option}")
        shown = ", ".join(header[:30]) + (", ..." if len(header) > 30 else "")
        raise CLIError(f"{path} has no column {name!r} ({hint}); its columns are: "
                       f"{shown}.")
    return name


def _is_number(series):
    """Which cells (stripped text) are finite numbers."""
    values = pd.to_numeric(series.astype(str).str.strip(), errors="coerce")
    values = values.to_numpy(dtype=np.float64, na_value=np.nan)
    return np.isfinite(values)


def _sniff_features(path, header, candidates, delimiter):
    """Split ``candidates`` into numeric columns and text-only columns."""
    if not candidates:
        return [], []
    try:
        sample = pd.read_csv(path, sep=delimiter, header=0, names=header,
                             usecols=candidates, dtype=str, nrows=SNIFF_ROWS,
                             **_READ_OPTIONS)
    except pd.errors.ParserError as exc:
        scan_csv(path, delimiter=delimiter)  # says what is wrong, and where
        raise CLIError(f"{path}: not a valid CSV file ({exc}).") from None
    if sample.shape[0] == 0:
        raise CLIError(f"{path} has a header but no data rows.")
    numeric, text = [], []
    for name in candidates:
        (numeric if _is_number(sample[name]).any() else text).append(name)
    return numeric, text


class _Codes:
    """Integer codes of text values (stripped), built chunk by chunk.

    Only the distinct values of a chunk are stripped and looked up (in a
    hash table of the values seen so far, :meth:`pandas.Index.get_indexer`),
    so the cost per row is that of :func:`pandas.factorize`.
    """

    def __init__(self):
        self._seen = pd.Index([], dtype=object)

    def __len__(self):
        return len(self._seen)

    def encode(self, values):
        """``(codes of values, their stripped distinct values)``."""
        codes, uniques = pd.factorize(values, sort=False)
        stripped = np.array([str(u).strip() for u in uniques], dtype=object)
        ids = self._seen.get_indexer(stripped)
        new = np.flatnonzero(ids < 0)
        if new.size:
            fresh, added = pd.factorize(stripped[new], sort=False)
            ids[new] = len(self._seen) + fresh
            self._seen = self._seen.append(pd.Index(added, dtype=object))
        return ids[codes], stripped

    def code(self, value):
        """The code of ``value`` (already seen)."""
        return int(self._seen.get_loc(value))

    def values(self):
        """The distinct values, in order of appearance."""
        return list(self._seen)


class _RowError(Exception):
    """A problem in a data row, reported once the scan gives its line.

    ``message(line)`` is the text of the :class:`CLIError`.
    """

    def __init__(self, row, message):
        super().__init__(row)
        self.row = row
        self.message = message


def _bad_cell(path, name, value):
    """The message (a function of the line) of a feature cell that is not a
    finite number."""
    if value.strip() == "":
        return lambda line: (
            f"{path}, line {line}: feature column {name!r} holds an empty "
            f"value; missing values are not supported (fill them, or leave "
            f"the column out with --features / --ignore-cols).")
    try:
        float(value)
    except ValueError:
        return lambda line: (
            f"{path}, line {line}: feature column {name!r} holds "
            f"{value[:40]!r}, not a number; features must be numeric (fix the "
            f"value, or leave the column out with --features / --ignore-cols).")
    return lambda line: (
        f"{path}, line {line}: feature column {name!r} holds {value!r}; "
        f"features must be finite numbers (missing values are not supported).")


def read_csv(path, *, group_col, label_col=None, features=None, ignore=(),
             require_label=True, delimiter=",", for_model=False, progress=None):
    """Read a CSV file with a header line into a :class:`CSVData`.

    Parameters
    ----------
    path : str
        The file.
    group_col : str
        Column of group (user) ids, read as text.
    label_col : str or None
        Column of binary labels, read as text; read when present in the file
        or when ``require_label``.
    features : list of str or None
        Feature columns; None: every other column whose first values
        include a number (a column with no number there is skipped and
        listed in ``skipped_cols``; a text cell in a chosen column is an
        error).
    ignore : sequence of str
        Columns never used as default features (e.g. an item id).
    require_label : bool
        Whether the label column must exist.
    delimiter : str
        Field separator, one character.
    for_model : bool
        The columns are those of a saved model (changes the hint of the
        missing-column message).
    progress : skpapk.cli._output.Progress or None

    Returns
    -------
    data : CSVData

    Raises
    ------
    CLIError
        For every problem in the file, with its line.
    """
    check_input_file(path)
    progress = progress or Progress(quiet=True)
    header = read_header(path, delimiter=delimiter)
    _column(header, group_col, "--group-col", path, for_model)
    read_label = label_col is not None and (require_label or label_col in header)
    if read_label:
        _column(header, label_col, "--label-col", path, for_model)
        if label_col == group_col:
            raise CLIError(f"--group-col and --label-col both name {group_col!r}; "
                           f"they must be two different columns.")
    reserved = {group_col} | ({label_col} if read_label else set())
    skipped = []
    if features is None:
        for name in ignore:
            _column(header, name, "--ignore-cols", path, for_model)
        candidates = [h for h in header if h not in reserved and h not in ignore]
        features, skipped = _sniff_features(path, header, candidates, delimiter)
        if not features:
            raise CLIError(
                f"{path} has no numeric feature column besides {group_col!r}"
                + (f" and {label_col!r}" if read_label else "")
                + "; name the features with --features.")
    else:
        for name in features:
            _column(header, name, "--features", path, for_model)
            if name in reserved:
                raise CLIError(f"--features names {name!r}, which is the group or "
                               f"label column; features must be other columns.")
        if len(set(features)) != len(features):
            raise CLIError(f"--features names a column twice: {features}.")
    data = CSVData()
    data.path, data.header = path, header
    data.feature_cols, data.skipped_cols = list(features), skipped
    _read_columns(data, group_col, label_col if read_label else None, delimiter,
                  progress)
    return data


class _ScanThread:
    """:func:`scan_csv` in a thread beside the parse; :meth:`stop` cancels it."""

    class _Stopped(Exception):
        pass

    def __init__(self, path, delimiter, pool):
        self.position = 0
        self._stop = threading.Event()
        self.future = pool.submit(scan_csv, path, delimiter=delimiter,
                                  progress=self._progress)

    def _progress(self, position):
        if self._stop.is_set():
            raise self._Stopped
        self.position = position

    def failed(self):
        """Whether the scan has already found a problem."""
        return self.future.done() and self.future.exception() is not None

    def result(self):
        """The :class:`~skpapk.cli._scan.ScanResult` (raises its CLIError)."""
        return self.future.result()

    def stop(self):
        self._stop.set()


def _read_columns(data, group_col, label_col, delimiter, progress):
    path = data.path
    size = os.path.getsize(path)
    with progress.task(f"reading {path}", total=size, unit="bytes") as task, \
            ThreadPoolExecutor(max_workers=1) as pool:
        scan = _ScanThread(path, delimiter, pool)
        try:
            parsed = _parse(data, scan, group_col, label_col, delimiter, task)
        except _RowError as exc:
            result = scan.result()  # a structural problem is reported first
            raise CLIError(exc.message(int(result.row_lines[exc.row]))) from None
        except BaseException:
            scan.stop()
            raise
        result = scan.result()
    groups, label_codes, X, group_coder, label_coder = parsed
    n = result.n_rows
    if n == 0:
        raise CLIError(f"{path} has a header but no data rows.")
    if groups.shape[0] != n:  # pragma: no cover - the scan and pandas agree
        raise CLIError(f"{path}: pandas read {groups.shape[0]} rows, the scan "
                       f"counted {n}; please report this file.")
    labels = np.asarray(group_coder.values(), dtype=object)
    order = np.argsort(labels, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    data.n_rows, data.row_lines = n, result.row_lines
    data.group_labels = labels[order]
    data.group_codes = rank[groups]
    data.X = X
    data.label_codes = label_codes
    data.label_values = label_coder.values() if label_col else []


def _stack(blocks, n_rows, n_features):
    """The feature matrix (column-major), its first rows copied from ``blocks``."""
    X = np.empty((n_rows, n_features), dtype=np.float64, order="F")
    offset = 0
    for block in blocks:
        X[offset:offset + block.shape[0]] = block
        offset += block.shape[0]
    return X


def _parse(data, scan, group_col, label_col, delimiter, task):
    """Read the used columns in chunks (pandas' C parser) while ``scan`` runs.

    Returns ``(group codes, label codes or None, X, group coder, label
    coder)``; a bad cell raises :class:`_RowError` (its line comes from the
    scan).
    """
    path, header, features = data.path, data.header, data.feature_cols
    usecols = [group_col] + ([label_col] if label_col else []) + features
    with open(path, "rb") as handle:  # the row length, from the first MB
        head = handle.read(1 << 20)
    bytes_per_row = max(1.0, len(head) / max(head.count(b"\n"), 1))
    chunksize = int(min(max(CHUNK_BYTES / bytes_per_row, 1000), 1_000_000))
    dtype = {group_col: object}
    if label_col:
        dtype[label_col] = object
    group_coder, label_coder = _Codes(), _Codes()
    groups, labels = [], []
    pending, X, start = [], None, 0  # feature blocks read before the count
    with open(path, "rb") as handle:
        try:
            reader = pd.read_csv(handle, sep=delimiter, header=0, names=header,
                                 usecols=usecols, dtype=dtype,
                                 chunksize=chunksize, **_READ_OPTIONS)
            with reader:
                for chunk in reader:
                    if scan.failed():
                        break  # its error is the one to report
                    stop = start + chunk.shape[0]
                    groups.append(_encode_text(chunk, group_col, group_coder,
                                               start, path, "group id"))
                    if label_col:
                        codes = _encode_text(chunk, label_col, label_coder, start,
                                             path, "label")
                        if len(label_coder) > 2:
                            _too_many_labels(path, label_col, label_coder, codes,
                                             start)
                        labels.append(codes)
                    if X is None and scan.future.done():
                        X = _stack(pending, scan.result().n_rows, len(features))
                        pending = []
                    if X is not None and stop <= X.shape[0]:
                        target = X[start:stop]
                    else:
                        target = np.empty((stop - start, len(features)),
                                          dtype=np.float64, order="F")
                        pending.append(target)
                    _features(chunk, features, target, start, path, header,
                              delimiter)
                    start = stop
                    task.set(min(handle.tell(), scan.position))
        except pd.errors.ParserError as exc:  # pragma: no cover - the scan's first
            scan.result()
            raise CLIError(f"{path}: not a valid CSV file ({exc}).") from None
    result = scan.result()  # the scan's error, if any, before anything else
    if X is None:
        X = _stack(pending, result.n_rows, len(features))
    elif pending:  # pragma: no cover - the scan and pandas agree
        raise CLIError(f"{path}: pandas read more rows than the {X.shape[0]} "
                       f"counted; please report this file.")
    empty = np.zeros(0, dtype=np.intp)
    group_codes = np.concatenate(groups) if groups else empty
    label_codes = (np.concatenate(labels).astype(np.int8) if labels
                   else np.zeros(0, dtype=np.int8)) if label_col else None
    return group_codes, label_codes, X, group_coder, label_coder


def _features(chunk, features, target, start, path, header, delimiter):
    """Write a chunk's feature columns into ``target``; check every cell."""
    for j, name in enumerate(features):
        column = chunk[name]
        if column.dtype.kind not in "biuf":  # text in it
            i = int(np.argmin(_is_number(column)))
            raise _RowError(start + i, _bad_cell(path, name, str(column.iloc[i])))
        target[:, j] = column.to_numpy()
    finite = np.isfinite(target)
    if not finite.all():  # e.g. 1e400: show the first one as written
        i, j = divmod(int(np.argmin(finite.ravel(order="C"))), target.shape[1])
        name = features[j]
        cell = read_rows(path, header, [start + i], delimiter=delimiter)[name].iloc[0]
        raise _RowError(start + i, _bad_cell(path, name, cell))


def _encode_text(chunk, name, coder, start, path, what):
    codes, stripped = coder.encode(chunk[name])
    if "" in stripped:
        empty = coder.code("")
        row = int(np.argmax(codes == empty))
        raise _RowError(start + row, lambda line: (
            f"{path}, line {line}: empty {what} in column {name!r}; every row "
            f"needs its {what}."))
    return codes


def _too_many_labels(path, label_col, coder, codes, start):
    values = coder.values()
    third = int(np.argmax(codes == 2))
    shown = ", ".join(repr(v) for v in values[:3])
    raise _RowError(start + third, lambda line: (
        f"{path}, line {line}: label column {label_col!r} must be binary (two "
        f"values: relevant or not), but it holds a third value ({shown}); "
        f"threshold it first, e.g. 1 for rating 5 and 0 otherwise."))


def read_rows(path, scan_header, indices, *, delimiter=",", progress=None):
    """The text of some rows of a CSV file, every column, in ``indices`` order.

    Parameters
    ----------
    path : str
    scan_header : list of str
        The header (from the first read).
    indices : ndarray of int
        Row numbers (0-based data rows) to return.
    delimiter : str

    Returns
    -------
    rows : pandas.DataFrame of str
        The cells as written in the file (quotes removed), one row per index.
    """
    progress = progress or Progress(quiet=True)
    indices = np.asarray(indices, dtype=np.intp)
    n_wanted = int(indices.max()) + 1 if indices.size else 0
    wanted = np.zeros(n_wanted, dtype=bool)
    wanted[indices] = True
    parts, start = [], 0
    with progress.task(f"copying the chosen rows of {path}", total=n_wanted,
                       unit="rows") as task:
        with pd.read_csv(path, sep=delimiter, header=0, names=scan_header,
                         dtype=str, chunksize=50_000, **_READ_OPTIONS) as reader:
            for chunk in reader:
                if start >= n_wanted:
                    break
                stop = start + chunk.shape[0]
                rows = np.flatnonzero(wanted[start:stop])
                if rows.size:
                    part = chunk.iloc[rows]
                    part.index = rows + start
                    parts.append(part)
                start = stop
                task.set(min(start, n_wanted))
    if not parts:
        return pd.DataFrame(columns=scan_header, dtype=str)
    rows = pd.concat(parts)
    return rows.loc[indices]
