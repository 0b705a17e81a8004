"""read_ranking_csv: a CSV file of ranking data as arrays, with pandas.

pandas' C parser is lenient about structure: a short line is padded, the
extra field of the first line becomes the index, a quote inside a field is
kept. A file without quotes, NUL bytes or bare carriage returns has its
first data line checked, is read by pandas whole (on several cores), then
checked: pandas refuses any other longer line, and a padded line leaves
the last column's cell missing, so a file whose last column has no empty
cell has every line right. Otherwise (a file with quotes, an empty cell in
the last column, a few columns of a wide file) every line's fields are
counted, with numpy, or by :func:`~skpapk.io._csv._rows`, a strict RFC 4180
reading in Python that names the line of the first problem. Every error
names its line; a cell is echoed cut to a few dozen characters.
"""


import os
import re
import stat
import unicodedata
import warnings

import numpy as np
import pandas as pd
from sklearn.utils import Bunch
from sklearn.utils._param_validation import Hidden, validate_params

from ..utils._messages import cut as _cut
from ..utils._routing import _stacklevel
from ._csv import (
    _BLANKS,
    _READ_OPTIONS,
    CSVFormatError,
    _count_rows,
    _is_plain,
    _row,
    _rows,
)

#: Rows read to decide which columns hold numbers (default features).
SNIFF_ROWS = 1000
#: Feature cells of a file small enough to be copied into ``X`` at once;
#: a larger one is copied column by column, each freed once copied.
COPY_CELLS = 1 << 22

#: Names of integer columns that look like identifiers (item ids, ...): ``id``,
#: ``item_id``, ``movie_ids``, ``key``, ``index``; an entity followed by ``id``
#: (``itemid``, ``customerid``); a camel-case ``Id`` (``userId``); a bare entity
#: (``item``, ``users``). Never a word that merely ends in "id" (``paid``,
#: ``valid``, ``rapid``).
_ID_NAME = re.compile(
    r"(^|_)(id|ids|qid|uuid|guid|key|keys|index)$"
    r"|(^|_)(item|user|movie|product|customer|client|session|query|doc|document"
    r"|order|account|article|track|song|artist|album|book|ad|page|shop|store"
    r"|brand|category|member|visitor|row|record)s?_?ids?$"
    r"|(?-i:[a-z0-9]I[dD]s?)$"
    r"|^(item|user|movie|product)s?$", re.IGNORECASE)
#: The blanks around a number, as pandas' parser skips them (C's isspace).
_NUMBER_BLANKS = " \t\n\r\v\f"


def _read_frame(path, delimiter, header, usecols, text_cols):
    """pandas' reading of the file (``text_cols`` as text); a file that
    pandas refuses is read by :func:`_rows`, which names the line."""
    options = dict(sep=delimiter, header=0, names=header, usecols=usecols,
                   dtype=dict.fromkeys(text_cols, object), **_READ_OPTIONS)
    try:  # pandas' DtypeWarning is not hidden: see read_ranking_csv's Notes
        try:
            return pd.read_csv(path, **options)
        except pd.errors.DtypeWarning:
            # raised as an error (-W error): pandas read a long file in
            # pieces, and a column's pieces differ in kind; read as one
            # piece, the column has one kind (the values are the same)
            return pd.read_csv(path, low_memory=False, **options)
    except (pd.errors.ParserError, UnicodeDecodeError):
        for _ in _rows(path, delimiter):  # names the line
            pass
        raise


def _rows_are_lines(frame, n_fields):
    """Whether pandas' reading of a plain file (see :func:`_is_plain`), every
    column, holds every non-blank line as one row of ``n_fields`` fields,
    its first row checked apart.

    pandas refuses a longer line, but for the first (whose extra field it
    reads as the index), and pads a shorter one: its last cell is missing.
    False when a cell of the last column is empty, NaN or missing, which
    only :func:`_rows` can tell apart."""
    if frame.shape[1] != n_fields:  # pragma: no cover - pandas keeps names
        return False
    last = frame.iloc[:, -1]
    if last.dtype.kind in "iub":
        return True
    return not (last.isna().any() or (last.dtype.kind not in "fc"
                                      and (last == "").any()))


def _require(header, columns, name, argument, path):
    """Fail unless the ``header`` (whose set is ``columns``) has the column
    ``name`` (of ``argument``)."""
    if name not in columns:
        shown = ", ".join(  # a name with odd spaces or a comma: as Python writes it
            h if h.isprintable() and h.strip() == h and "," not in h else repr(h)
            for h in header[:30]) + (", ..." if len(header) > 30 else "")
        same = [h for h in header if unicodedata.normalize("NFC", h)
                == unicodedata.normalize("NFC", name)]
        if same:  # "é" as one character, and as "e" and an accent
            raise CSVFormatError(
                "{path} has no column {column!r}; its column {found} looks the "
                "same, in other Unicode characters ({column_a} in {"
                + argument + "}, {found_a} in the file): {hint}.", path=path,
                column=name, argument=argument, found=repr(same[0]),
                column_a=ascii(name), found_a=ascii(same[0]),
                hint="write the name as the file does, or save the file with "
                     "its names in Unicode's NFC form")
        raise CSVFormatError(
            "{path} has no column {column!r} ({hint}); its columns are: "
            "{columns}.", path=path, column=name, argument=argument,
            hint="choose it with {" + argument + "}", columns=shown)


def _numbers(column):
    """The cells of a column read by pandas as float64 (NaN: not a number)."""
    if column.dtype.kind == "f" or column.dtype.kind in "iu":
        return column.to_numpy(dtype=np.float64)
    return pd.to_numeric(column.astype(str).str.strip(_NUMBER_BLANKS),
                         errors="coerce").to_numpy(dtype=np.float64,
                                                   na_value=np.nan)


def _column_names(argument, names):
    """The column names of ``argument`` (a list-like of str) as a list of str."""
    if isinstance(names, str):
        raise TypeError(f"{argument} must be a list of column names, not a str: "
                        f"write {argument}=[{_cut(names)}] for one column (or "
                        f"['f1', 'f2'] for several).")
    if argument == "features" and isinstance(names, (set, frozenset)):
        raise TypeError("features must be ordered (a list, tuple, array or "
                        "pandas Index), not a set: the columns of X follow its "
                        "order.")
    if getattr(names, "ndim", 1) != 1:
        raise TypeError(f"{argument} must be one-dimensional (a list of column "
                        f"names); got an array of shape {np.shape(names)}.")
    names = list(names)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"{argument} must hold column names (str), got "
                            f"{name!r} of type {type(name).__name__}.")
    return [str(name) for name in names]  # a numpy str_ as a str


def _check_arguments(features, ignore_cols, delimiter):
    """The arguments checked; ``features`` (or None) and ``ignore_cols`` as
    lists of str."""
    if features is not None:
        features = _column_names("features", features)
        if not features:
            raise ValueError("features names no column; give the feature "
                             "columns' names, or None for every numeric column.")
    ignore_cols = _column_names("ignore_cols", ignore_cols)
    if len(delimiter) != 1 or not delimiter.isascii() or delimiter in '"\r\n\0':
        raise ValueError(f"delimiter must be one ASCII character other than a "
                         f"quote, a line end or NUL, e.g. ',', ';' or '\\t'; "
                         f"got {delimiter!r}.")
    return features, ignore_cols


def _check_regular_file(path):
    """Fail, before the file is opened, unless ``path`` is a regular file (or a
    link to one): it is read twice (a pipe would be empty the second time, and
    a device endless). A missing path or a folder: the error of opening it."""
    mode = os.stat(path).st_mode  # FileNotFoundError, PermissionError, ...
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise CSVFormatError("{path} is not a regular file (a pipe or device): the "
                             "file is read twice, so a stream cannot be; save it "
                             "to a file first (e.g. zcat data.csv.gz > data.csv).",
                             path=path)


@validate_params(
    {
        "path": [str, os.PathLike],
        "group_col": [str],
        "label_col": [str, None],
        # array-like: a list, tuple, numpy array or pandas Index (df.columns);
        # a str is let through to be refused with its own message
        "features": ["array-like", Hidden(str), None],
        "ignore_cols": ["array-like", Hidden(str)],
        "delimiter": [str],
        "require_label": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def read_ranking_csv(path, *, group_col, label_col=None, features=None,
                     ignore_cols=(), delimiter=",", require_label=True):
    """Read ranking data (groups, labels and numeric features) from a CSV file.

    The file has a header line naming its columns and one line per row (a
    user-item pair): a group column (the user), a label column and feature
    columns. It is read strictly, so that a damaged or misread file is an
    error naming its line, never data silently shifted, padded or lost:

    - its structure follows RFC 4180: UTF-8 text (a byte order mark is
      allowed), one header line of unique, non-empty names, the same number
      of fields on every line, quotes only around whole fields (a quote
      inside one doubled), line ends ``\\n`` or ``\\r\\n``; blank lines are
      skipped;
    - every feature value is a finite number: missing values (an empty
      cell, ``NA``, ``nan``) and infinities are refused, not imputed;
      numbers are parsed exactly (the nearest float64, as Python's
      :class:`float` reads them: pandas 3's parser, or
      ``float_precision="round_trip"`` before pandas 3;
      in a column of integers, ``-0`` is 0, of the same value);
    - every row has a group id and, if a label column is read, a label:
      both are read as text (``"1"`` and ``"1.0"`` stay two strings),
      stripped of surrounding ASCII spaces and tabs (as are the header's
      names); other spaces, such as a non-breaking space, are kept
      (``"\\u00a0a"`` and ``"a"`` are two groups).

    ``path`` must be a regular file: it is read twice (its structure, then
    its values), so a pipe or device (``<(zcat data.csv.gz)``) is refused.

    Every error names the file and the line of the first problem (lines as
    an editor counts them); where the fix is an argument, the message names
    it.

    Parameters
    ----------
    path : str or path-like
        The CSV file.
    group_col : str
        The column of the group (user) ids.
    label_col : str, default=None
        The column of the labels, read as text; None: no labels. With None
        and ``features`` None, *every* numeric column but ``group_col`` is a
        feature: a label column in the file is then read as a feature (the
        label leaks into ``X``) unless it is named in ``ignore_cols`` (or
        the features are named; a default feature named as a label,
        ``label``, ``target``, ``y``..., is warned about).
    features : array-like of str, default=None
        The feature columns, in this order: a list, tuple, numpy array or
        pandas Index of names (``df.columns[2:]``); not a bare str (one
        column: ``["f1"]``). None: every column other than ``group_col``,
        ``label_col`` and ``ignore_cols`` with a number among its first
        1,000 values (a column of text, such as an item name, is left out
        and listed in ``skipped_columns``); with ``label_col`` None, a label
        column is such a column: name it in ``ignore_cols``.
    ignore_cols : array-like of str, default=()
        Columns never taken as default features (e.g. an integer item id,
        or the label column when ``label_col`` is None); used only when
        ``features`` is None. A list, tuple, set, numpy array or pandas
        Index of names; not a bare str.
    delimiter : str, default=","
        The field delimiter: one ASCII character other than a quote, a
        line end or NUL (``";"``, ``"\\t"``, ...).
    require_label : bool, default=True
        Whether the file must have ``label_col``. False: a file without it
        is read with ``labels`` None (rows to rank, not to score).

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        Dictionary-like object with the following attributes.

        X : ndarray of shape (n_rows, n_features), dtype float64
            The features, in column-major (Fortran) order.
        groups : ndarray of shape (n_rows,), dtype object
            Each row's group id (str).
        labels : ndarray of shape (n_rows,), dtype object, or None
            Each row's label (str); None without a label column.
        feature_names : list of str
            The columns of ``X``.
        skipped_columns : list of str
            The columns left out of the default features because none of
            their first 1,000 values is a number (empty when ``features`` is
            given).
        id_like_columns : list of str
            Integer features that look like identifiers (an item id) rather
            than measurements: by their name (``id``, ``item_id``,
            ``itemid``, ``userId``, ``user``, ``key``, ...; not ``paid``),
            or, among the first 1,000 rows when there are at least 20 of
            them, with at least 90% distinct values.
        header : list of str
            The names of every column of the file, stripped of ASCII
            spaces and tabs.
        path : str
            The file.

    Raises
    ------
    CSVFormatError
        A subclass of :class:`ValueError`, for every problem in the file
        (with its line), a column the file lacks, or a ``path`` that is not
        a regular file (a pipe or device); its
        :meth:`~CSVFormatError.with_names` writes the message with other
        names for the arguments.
    FileNotFoundError
        If ``path`` does not exist (other :class:`OSError` when it cannot
        be read).
    TypeError, ValueError
        If an argument has the wrong type or value.

    See Also
    --------
    pandas.read_csv : The parser used for the values, lenient about the
        structure of a file.
    skpapk.datasets.load_movielens_100k : MovieLens 100K as ranking data.

    Notes
    -----
    pandas reads a long file in pieces. When a column that is not left out
    by ``ignore_cols`` holds numbers in some pieces and words in others, it
    warns with a :class:`pandas.errors.DtypeWarning`, which names the
    column (and suggests options of :func:`pandas.read_csv` that this
    reader sets itself). The warning is not hidden: hiding it would change
    the warning filters of every thread. Where warnings are errors, the
    file is read again in one piece instead (same values, more memory). A
    feature column of mixed kinds is then an error naming its first cell
    that is not a number; any other column is left out as usual.

    Examples
    --------
    >>> import os, tempfile
    >>> from skpapk.io import read_ranking_csv
    >>> path = os.path.join(tempfile.mkdtemp(), "train.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("user,item,label,f1,f2\\n"
    ...                 "u1,shoes,1,0.3,1.2\\n"
    ...                 "u1,socks,0,0.1,-0.4\\n"
    ...                 "u2,shoes,0,2.5,0.0\\n"
    ...                 "u2,boots,1,1.5,3.0\\n")
    >>> data = read_ranking_csv(path, group_col="user", label_col="label")
    >>> data.X.shape, data.feature_names, data.skipped_columns
    ((4, 2), ['f1', 'f2'], ['item'])
    >>> data.groups
    array(['u1', 'u1', 'u2', 'u2'], dtype=object)
    >>> y = (data.labels == "1").astype(int)
    >>> y
    array([1, 0, 0, 1])

    An error names the line, or the argument to change:

    >>> with open(path, "a") as f:
    ...     _ = f.write("u3,hats,0,,2.0\\n")
    >>> read_ranking_csv(path, group_col="user", label_col="label")
    Traceback (most recent call last):
        ...
    skpapk.io._csv.CSVFormatError: ...train.csv, line 6: feature column 'f1'
    holds an empty value; missing values are not supported (fill them, or
    leave the column out with features= / ignore_cols=).
    >>> read_ranking_csv(path, group_col="users")
    Traceback (most recent call last):
        ...
    skpapk.io._csv.CSVFormatError: ...train.csv has no column 'users' (choose
    it with group_col=); its columns are: user, item, label, f1, f2.
    """
    features, ignore_cols = _check_arguments(features, ignore_cols, delimiter)
    path = os.path.expanduser(os.fspath(path))  # "~/data.csv", as pandas
    _check_regular_file(path)
    rows = _rows(path, delimiter)
    header = [h.strip(_BLANKS) for h in next(rows)[1]]
    rows.close()
    columns = set(header)
    _require(header, columns, group_col, "group_col", path)
    read_label = label_col is not None and (require_label or label_col in columns)
    if read_label:
        _require(header, columns, label_col, "label_col", path)
        if label_col == group_col:
            raise CSVFormatError("{group_col} and {label_col} both name {column!r}; "
                                 "they must be two different columns.", path=path,
                                 column=group_col)
    reserved = {group_col, label_col} if read_label else {group_col}
    if features is None:
        for name in ignore_cols:
            _require(header, columns, name, "ignore_cols", path)
    else:
        for name in features:
            _require(header, columns, name, "features", path)
            if name in reserved:
                raise CSVFormatError("{features} names {column!r}, which is the "
                                     "group or label column; features must be "
                                     "other columns.", path=path, column=name)
        if len(set(features)) != len(features):
            raise CSVFormatError("{features} names a column twice: {names}.",
                                 path=path, names=list(features))
    text_cols = [group_col] + ([label_col] if read_label else [])
    if features is None:  # sets: a file may have thousands of columns
        left_out = reserved | set(ignore_cols)
        candidates = [h for h in header if h not in left_out]
    else:
        chosen = set(features)
        candidates = [h for h in header if h in chosen]
    # pandas reads a whole file on several cores, but not a subset of its
    # columns: a few columns of a wide file are read alone
    usecols = text_cols + candidates
    usecols = usecols if 2 * len(usecols) < len(header) else None
    n_rows = None
    if usecols is not None or not _is_plain(path):
        n_rows = _count_rows(path, delimiter, len(header))
    else:  # pandas would read an extra field of the first row as the index
        rows = _rows(path, delimiter)
        next(rows), next(rows, None)  # the header and the first row, checked
        rows.close()
    # the columns left out, read all the same (usecols=None), as text: pandas
    # would warn of one whose pieces differ in kind
    used = reserved | set(candidates)
    ignored = [] if usecols is not None else [
        c for c in dict.fromkeys(ignore_cols) if c in columns and c not in used]
    frame = _read_frame(path, delimiter, header, usecols, text_cols + ignored)
    if n_rows is None and not _rows_are_lines(frame, len(header)):
        n_rows = _count_rows(path, delimiter, len(header))  # the first problem
    if n_rows is not None and n_rows != frame.shape[0]:  # pragma: no cover
        raise CSVFormatError("{path}: pandas read {n_read} rows where {n_rows} "
                             "were counted; please report this file.", path=path,
                             n_read=frame.shape[0], n_rows=n_rows)
    if frame.shape[0] == 0:
        raise CSVFormatError("{path} has a header but no data rows.", path=path)
    data = Bunch(path=path, header=header, skipped_columns=[])
    by_default = features is None
    features = _features(data, frame, features, candidates, group_col,
                         label_col if read_label else None,
                         list(dict.fromkeys(c for c in ignore_cols
                                            if c not in reserved)))
    # (first bad row, rank in a row, column): the first problem is reported
    problems = []
    data.groups = _text(frame[group_col], (0, group_col), problems)
    data.labels = (_text(frame[label_col], (1, label_col), problems)
                   if read_label else None)
    columns = _feature_columns(frame, features)
    n_rows = frame.shape[0]
    del frame  # the text columns and those not used freed
    data.X = _features_array(columns, n_rows)
    finite = np.isfinite(data.X)
    if not finite.all():
        i, j = divmod(int(np.argmin(finite)), data.X.shape[1])
        problems.append((i, 2, features[j]))
    if problems:
        row, rank, column = min(problems)
        line, cells = _row(path, delimiter, row)
        if rank == 2:
            raise _bad_cell(path, line, column, cells[column])
        what = ("group id", "label")[rank]
        raise CSVFormatError("{path}, line {line}: empty {what} in column "
                             "{column!r}; every row needs its {what}.", path=path,
                             line=line, column=column, what=what)
    leaked = [c for c in features if c.lower() in _LABEL_NAMES]
    if by_default and not read_label and leaked:
        why = ("label_col is None" if label_col is None else
               f"label_col={label_col!r} is not a column (require_label=False)")
        warnings.warn(f"{path}: {why}, so the column {leaked[0]!r} "
                      f"is read as a feature; if it holds the labels (they "
                      f"would leak into X), pass label_col={leaked[0]!r}, or "
                      f"leave it out with ignore_cols=[{leaked[0]!r}].",
                      UserWarning, stacklevel=_stacklevel())
    return data


#: Names of a label column (lower case), warned about when read as a
#: default feature.
_LABEL_NAMES = frozenset({"label", "labels", "target", "relevance", "relevant",
                          "y"})


def _features(data, frame, features, candidates, group_col, label_col,
              ignored):
    """The features (by default: the candidates with a number in their first
    rows); set ``data``'s ``feature_names``, ``skipped_columns`` and
    ``id_like_columns``. ``ignored``: the columns that ``ignore_cols`` left
    out of the candidates, for the message."""
    head, kinds = frame.iloc[:SNIFF_ROWS], _kinds(frame)
    if features is None:  # the columns of floats at once: there may be many
        floats = [c for c in candidates if kinds[c] == "f"]
        finite = set(np.array(floats, dtype=object)[np.isfinite(
            head[floats].to_numpy(dtype=np.float64)).any(axis=0)])
        features = [c for c in candidates if kinds[c] in "iu" or c in finite
                    or kinds[c] != "f" and np.isfinite(_numbers(head[c])).any()]
        chosen = set(features)
        data.skipped_columns = [c for c in candidates if c not in chosen]
        if not features:
            shown = ", ".join(_cut(c, 40) for c in ignored[:10])
            raise CSVFormatError(
                "{path} has no numeric feature column besides {group!r}"
                + (" and {label!r}" if label_col else "")
                + (" ({ignore_cols} leaves out {ignored})" if ignored else "")
                + "; name the features with {features}.", path=data.path,
                group=group_col, label=label_col,
                ignored=shown + (", ..." if len(ignored) > 10 else ""))
    data.feature_names = list(features)
    data.id_like_columns = [
        name for name in features if kinds[name] in "iu"
        and (_ID_NAME.search(name) or head.shape[0] >= 20
             and head[name].nunique() >= 0.9 * head.shape[0])]
    return features


def _feature_columns(frame, features):
    """The ``features`` of ``frame`` as float64 arrays (NaN: not a number; a
    view of pandas' own array where it has one), for
    :func:`_features_array`: one array per column, or one 2-D array of them
    all for a short file (fewer than ``COPY_CELLS`` cells)."""
    if frame.shape[0] * len(features) > COPY_CELLS:
        return [_numbers(frame[name]) for name in features]
    part = frame[features]
    text = [name for name, kind in _kinds(part).items() if kind not in "fiu"]
    if text:
        part = part.copy()  # not assign(): a column may be named "self"
        for name in text:
            part[name] = _numbers(part[name])
    return [part.to_numpy(dtype=np.float64)]


def _features_array(columns, n_rows):
    """``X`` in column-major order from :func:`_feature_columns`' arrays, each
    released (freed, if nothing else holds it) once copied."""
    n_features = sum(1 if a.ndim == 1 else a.shape[1] for a in columns)
    X = np.empty((n_rows, n_features), order="F")
    j = 0
    for i, values in enumerate(columns):
        width = 1 if values.ndim == 1 else values.shape[1]
        X[:, j:j + width] = values.reshape(n_rows, width)
        j += width
        columns[i] = values = None
    return X


def _kinds(frame):
    """Column name -> the kind of its dtype (one pass over the columns)."""
    return {name: dtype.kind for name, dtype in frame.dtypes.items()}


def _text(column, where, problems):
    """A text column, stripped (each distinct value once); its first empty
    value's ``(row, *where)`` appended to ``problems``."""
    codes, uniques = pd.factorize(column, sort=False)
    stripped = np.array([str(u).strip(_BLANKS) for u in uniques], dtype=object)
    values = stripped[codes]
    if (stripped == "").any():
        problems.append((int(np.argmax(values == "")), *where))
    return values


def _bad_cell(path, line, name, value):
    """The :class:`CSVFormatError` of a feature cell that is not a finite
    number."""
    where = "{path}, line {line}: feature column {column!r}"
    text = value.strip(_NUMBER_BLANKS)
    # as pandas: no digit separator (1_000), no non-ASCII digit or space
    number = (float(text) if text.isascii() and text.isprintable()
              and "_" not in text and _is_float(text) else None)
    if text == "":
        template = (where + " holds an empty value; missing values are not "
                    "supported (fill them, or {hint}).")
    elif number is None:
        template = (where + " holds {value}, not a number; features must be "
                    "numeric (fix the value, or {hint}).")
    elif np.isnan(number):
        template = (where + " holds {value}; features must be finite numbers "
                    "(missing values are not supported).")
    elif text.lstrip("+-").lower() in ("inf", "infinity"):
        template = (where + " holds {value}; features must be finite numbers "
                    "(fix the value, or {hint}).")
    else:  # 1e400: a number beyond float64's range
        template = (where + " holds {value}, which is not a finite float64 "
                    "number (it overflows: beyond 1.8e308 in magnitude); fix the "
                    "value, or {hint}.")
    return CSVFormatError(
        template, path=path, line=line, column=name, value=_cut(value),
        hint="leave the column out with {features} / {ignore_cols}")


def _is_float(text):
    try:
        float(text)
    except ValueError:
        return False
    return True
