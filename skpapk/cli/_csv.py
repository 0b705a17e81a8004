"""Strict reading of the CSV files of the command line, with pandas.

pandas' C parser reads the columns that are used; it is lenient about
structure (a short line is padded, a quote inside a field is kept), so the
file's structure is checked first: for a file without quotes, NUL bytes or
bare carriage returns, by counting the delimiters of every line with numpy;
otherwise (and to find the line of any problem) by :func:`_rows`, a strict
RFC 4180 reading in Python that names the line of the first problem. Every
error names its line; a cell is echoed cut to a few dozen characters.
"""

import codecs
import mmap
import re

import numpy as np
import pandas as pd

from ._files import check_input_file
from ._labels import distinct_labels
from ._output import CLIError, cut

#: Rows read to decide which columns hold numbers (default features).
SNIFF_ROWS = 1000
#: Bytes of the file checked at a time, and rows parsed at a time.
BLOCK_BYTES = 1 << 24
CHUNK_ROWS = 200_000

_READ_OPTIONS = dict(engine="c", encoding="utf-8-sig", keep_default_na=False,
                     na_values=[], skip_blank_lines=True, quotechar='"',
                     doublequote=True)
#: Names of integer columns that look like identifiers (item ids, ...).
_ID_NAME = re.compile(r"(^|_)(id|ids|key|index)$|id$|^(item|user|movie|product)s?$",
                      re.IGNORECASE)
if int(pd.__version__.split(".")[0]) < 3:  # pandas 3 always reads exactly
    _READ_OPTIONS["float_precision"] = "round_trip"


def split_names(values, option):
    """Column names from repeated and/or comma-separated option values."""
    if values is None:
        return None
    names = [n.strip() for value in values for n in value.split(",") if n.strip()]
    if not names:
        raise CLIError(f"{option} {cut(','.join(values))} names no column; give "
                       f"comma-separated column names, e.g. {option} f1,f2.")
    return names


def _tokens(text, delimiter, line, fail):
    """The fields of a row's ``text`` (no line end); None if a quote is open."""
    fields, pos, n = [], 0, len(text)
    while True:
        if text.startswith('"', pos):
            end = pos + 1
            while True:
                end = text.find('"', end)
                if end < 0:
                    return None
                if not text.startswith('""', end):
                    break
                end += 2
            fields.append(text[pos + 1:end].replace('""', '"'))
            pos = end + 1
            if pos < n and text[pos] != delimiter:
                fail(line + text.count("\n", 0, pos), "text after the closing quote "
                     "of a quoted field; a quote inside a quoted field must be "
                     'doubled ("").')
        else:
            end = text.find(delimiter, pos)
            end = n if end < 0 else end
            if '"' in text[pos:end]:
                fail(line + text.count("\n", 0, pos), 'a quote (") inside an '
                     'unquoted field; quote the whole field and double its quotes '
                     '("55"" TV").')
            fields.append(text[pos:end])
            pos = end
        if pos >= n:
            return fields
        pos += 1  # the delimiter


def _rows(path, delimiter):
    """``(line, fields)`` of the header and of every data row, strictly read.

    Raises a :class:`CLIError` naming the line of the first problem.
    """
    def fail(line, message):
        raise CLIError(f"{path}, line {line}: {message}")

    blank = " \r" if delimiter == "\t" else " \t\r"
    n_fields, line, pending, start, n_quotes = None, 1, None, 1, 0
    with open(path, "rb") as handle:
        for raw in handle:  # lines end with \n only
            if line == 1 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[3:]
            try:
                piece = raw.decode("utf-8")
            except UnicodeDecodeError:
                fail(line, "not UTF-8 text (save the file as UTF-8 CSV).")
            if "\0" in piece:
                fail(line, "a NUL byte: this is not a text (CSV) file.")
            line += piece.endswith("\n")
            if pending is not None:
                pending.append(piece)
                n_quotes += piece.count('"')
                if n_quotes % 2:  # still inside the quoted field
                    continue
                text = "".join(pending)
            else:
                start, text, n_quotes = line - piece.endswith("\n"), piece, 0
            body = text[:-1] if text.endswith("\n") else text
            body = body[:-1] if body.endswith("\r") else body
            fields = (_tokens(body, delimiter, start, fail) if '"' in body
                      else body.split(delimiter))
            if fields is None:
                pending, n_quotes = [text], text.count('"')
                continue
            pending = None
            if any("\r" in field for field in fields) and ('"' not in body or
                                                         _bare_cr(body)):
                fail(start + body.count("\n", 0, body.find("\r")), "a carriage "
                     "return (\\r) that does not end the line; line ends must be "
                     "\\n or \\r\\n (quote a value that holds one).")
            if len(fields) == 1 and not fields[0].strip(blank) and '"' not in body:
                continue
            if n_fields is None:
                n_fields = _check_header(fields, body, start, delimiter, fail)
            elif len(fields) != n_fields:
                n = len(fields)
                fail(start, f"{n} field{'s' if n > 1 else ''}, but the header has "
                     f"{n_fields}; every line needs one value per column (check "
                     f"the delimiter and the quotes).")
            yield start, fields
    if pending is not None:
        fail(start, "this quoted field is never closed (a quote is missing), so "
             "the rest of the file would be read as one value.")
    if n_fields is None:
        raise CLIError(f"{path} is empty: it needs a header line naming the "
                       f"columns (e.g. user,label,f1,f2) and one line per row.")


def _bare_cr(body):
    """Whether a carriage return of a row with quotes lies outside them."""
    outside = body.split('"')[::2]  # quotes are balanced in a complete row
    return any("\r" in part for part in outside)


def _check_header(fields, text, line, delimiter, fail):
    names = [name.strip() for name in fields]
    if len(names) < 2:
        fail(line, f"the header names one column only ({cut(text, 60)}); the "
             f"file needs a group, a label and feature columns separated by "
             f"{delimiter!r} (see --delimiter).")
    for j, name in enumerate(names):
        if not name:
            fail(line, f"column {j + 1} of the header has no name; name it (a "
                 f"file written by pandas' to_csv without index=False starts "
                 f"with an unnamed index).")
    duplicated = sorted({name for name in names if names.count(name) > 1})
    if duplicated:
        fail(line, f"the header names the column(s) {duplicated} more than "
             f"once; column names must be unique.")
    return len(names)


def _row(path, delimiter, index):
    """``(line, fields)`` of data row ``index`` (0-based), for messages."""
    rows = _rows(path, delimiter)
    header = next(rows)[1]
    for i, (line, fields) in enumerate(rows):
        if i == index:
            return line, dict(zip((h.strip() for h in header), fields))
    raise AssertionError(f"{path} has no row {index}")  # pragma: no cover


def _simple_structure(path, delimiter, n_fields):
    """The number of data rows when every line has ``n_fields`` fields and
    nothing needs :func:`_rows` (no quote, NUL or bare CR; pandas checks
    UTF-8); else None. The file is memory-mapped: blocks are views, not
    copies."""
    with open(path, "rb") as handle:
        try:
            data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file cannot be mapped
            return None
    # not closed by hand: it is unmapped when the last view of it goes
    if data.find(b'"') >= 0 or data.find(b"\0") >= 0:
        return None
    a = np.frombuffer(data, dtype=np.uint8)
    if data.find(b"\r") >= 0:  # only in \r\n line ends (or the last byte)
        after = np.flatnonzero(a == 13) + 1
        if not (a[after[after < a.size]] == 10).all():
            return None
    blank = np.array([32, 13] + ([] if delimiter == "\t" else [9]), dtype=np.uint8)
    delim, n_lines, lo = ord(delimiter), 0, 0
    while lo < a.size:
        hi = data.find(b"\n", lo + BLOCK_BYTES - 1)
        part = a[lo:a.size if hi < 0 else hi + 1]
        ends = np.flatnonzero(part == 10)
        if part[-1] != 10:
            ends = np.append(ends, part.size)
        counts = np.diff(np.searchsorted(np.flatnonzero(part == delim), ends),
                         prepend=0)
        starts = np.concatenate([[0], ends[:-1] + 1])
        wrong = np.flatnonzero(counts + 1 != n_fields)
        for i in wrong:
            if counts[i] or not np.isin(part[starts[i]:ends[i]], blank).all():
                return None
        n_lines += ends.size - wrong.size
        lo += part.size
    return n_lines - 1


def _column(header, name, option, path, for_model):
    if name not in header:
        hint = ("the model was trained with it" if for_model
                else f"choose it with {option}")
        shown = ", ".join(header[:30]) + (", ..." if len(header) > 30 else "")
        raise CLIError(f"{path} has no column {name!r} ({hint}); its columns are: "
                       f"{shown}.")


def _numbers(column):
    """The cells of a column read by pandas as float64 (NaN: not a number)."""
    if column.dtype.kind == "f" or column.dtype.kind in "iu":
        return column.to_numpy(dtype=np.float64)
    return pd.to_numeric(column.astype(str).str.strip(), errors="coerce").to_numpy(
        dtype=np.float64, na_value=np.nan)


class CSVData:
    """A CSV file read for ranking.

    Attributes
    ----------
    path : str
    header : list of str
    X : ndarray of float64 of shape (n_rows, n_features)
    feature_cols, skipped_cols : list of str
        The features, and the columns left out of the default features
        because none of their first values is a number.
    groups : ndarray of object of shape (n_rows,)
        Each row's group id (stripped text).
    labels : ndarray of object of shape (n_rows,) or None
        Each row's label (stripped text); None without a label column.
    id_like_cols : list of str
        Integer features that look like identifiers (by their name, or one
        distinct value per row).
    """


def read_csv(path, *, group_col, label_col=None, features=None, ignore=(),
             require_label=True, delimiter=",", for_model=False):
    """Read a CSV file with a header line into a :class:`CSVData`.

    ``features`` None takes every other column whose first values include a
    number; ``ignore`` lists columns never taken so. ``for_model``: the
    columns are those of a saved model (for messages).

    Raises
    ------
    CLIError
        For every problem in the file, with its line.
    """
    check_input_file(path)
    rows = _rows(path, delimiter)
    header = [h.strip() for h in next(rows)[1]]
    rows.close()
    options = {"group_col": "--group-col", "label_col": "--label-col"}
    _column(header, group_col, options["group_col"], path, for_model)
    read_label = label_col is not None and (require_label or label_col in header)
    if read_label:
        _column(header, label_col, options["label_col"], path, for_model)
        if label_col == group_col:
            raise CLIError(f"--group-col and --label-col both name {group_col!r}; "
                           f"they must be two different columns.")
    reserved = {group_col, label_col} if read_label else {group_col}
    if features is None:
        for name in ignore:
            _column(header, name, "--ignore-cols", path, for_model)
    else:
        for name in features:
            _column(header, name, "--features", path, for_model)
            if name in reserved:
                raise CLIError(f"--features names {name!r}, which is the group or "
                               f"label column; features must be other columns.")
        if len(set(features)) != len(features):
            raise CLIError(f"--features names a column twice: {features}.")
    n_rows = _simple_structure(path, delimiter, len(header))
    if n_rows is None:
        n_rows = sum(1 for _ in _rows(path, delimiter)) - 1  # raises the first
    if n_rows == 0:
        raise CLIError(f"{path} has a header but no data rows.")
    text_cols = [group_col] + ([label_col] if read_label else [])
    usecols = text_cols + [h for h in header if h not in reserved
                           and (features is None and h not in ignore
                                or features is not None and h in features)]
    data = CSVData()
    data.path, data.header, data.skipped_cols = path, header, []
    groups, labels, start, X = [], [], 0, None
    try:
        with pd.read_csv(path, sep=delimiter, header=0, names=header,
                         usecols=usecols, dtype={c: object for c in text_cols},
                         chunksize=CHUNK_ROWS, **_READ_OPTIONS) as reader:
            for chunk in reader:
                if X is None:
                    features = _features(data, chunk, features, usecols[len(
                        text_cols):], group_col, label_col if read_label else None)
                    X = np.empty((n_rows, len(features)), order="F")
                groups.append(_text(chunk[group_col], path, delimiter, group_col,
                                    "group id", start))
                if read_label:
                    labels.append(_text(chunk[label_col], path, delimiter,
                                        label_col, "label", start))
                for name in features:  # text in a column: its bad cell below
                    if chunk[name].dtype.kind not in "fiu":
                        chunk[name] = _numbers(chunk[name])
                X[start:start + chunk.shape[0]] = chunk[features].to_numpy(
                    dtype=np.float64)
                start += chunk.shape[0]
    except UnicodeDecodeError:
        for _ in _rows(path, delimiter):  # names the line
            pass
        raise
    if start != n_rows:  # pragma: no cover - the checks and pandas agree
        raise CLIError(f"{path}: pandas read {start} rows where {n_rows} were "
                       f"counted; please report this file.")
    data.X, data.groups = X, np.concatenate(groups)
    data.labels = np.concatenate(labels) if read_label else None
    if read_label:
        values = distinct_labels([str(v) for v in pd.unique(data.labels)])
        if len(values) > 2:
            third = int(np.argmax(data.labels == values[2]))
            line, _ = _row(path, delimiter, third)
            shown = ", ".join(cut(v, 20) for v in values[:3])
            raise CLIError(
                f"{path}, line {line}: label column {label_col!r} must be binary "
                f"(two values: relevant or not), but it holds a third value "
                f"({shown}); threshold it first, e.g. 1 for rating 5 and 0 "
                f"otherwise.")
    finite = np.isfinite(X)
    if not finite.all():
        i, j = divmod(int(np.argmin(finite)), X.shape[1])
        line, cells = _row(path, delimiter, i)
        raise CLIError(_bad_cell(path, line, features[j], cells[features[j]]))
    return data


def _features(data, chunk, features, candidates, group_col, label_col):
    """The features (by default: the candidates with a number in their first
    rows); set ``data``'s ``feature_cols``, ``skipped_cols``, ``id_like_cols``."""
    head = chunk.iloc[:SNIFF_ROWS]
    if features is None:
        features = [c for c in candidates if np.isfinite(_numbers(head[c])).any()]
        data.skipped_cols = [c for c in candidates if c not in features]
        if not features:
            raise CLIError(
                f"{data.path} has no numeric feature column besides {group_col!r}"
                + (f" and {label_col!r}" if label_col else "")
                + "; name the features with --features.")
    data.feature_cols = list(features)
    data.id_like_cols = [name for name in features if head[name].dtype.kind in "iu"
                         and (_ID_NAME.search(name) or head.shape[0] >= 20 and
                              head[name].nunique() >= 0.9 * head.shape[0])]
    return features


def _text(column, path, delimiter, name, what, start):
    """A text column, stripped (each distinct value once); no empty value."""
    codes, uniques = pd.factorize(column, sort=False)
    stripped = np.array([str(u).strip() for u in uniques], dtype=object)
    if (stripped == "").any():
        row = int(np.argmax(stripped[codes] == ""))
        line, _ = _row(path, delimiter, start + row)
        raise CLIError(f"{path}, line {line}: empty {what} in column {name!r}; "
                       f"every row needs its {what}.")
    return stripped[codes]


def _bad_cell(path, line, name, value):
    where = f"{path}, line {line}: feature column {name!r}"
    fix = "leave the column out with --features / --ignore-cols"
    if value.strip() == "":
        return (f"{where} holds an empty value; missing values are not supported "
                f"(fill them, or {fix}).")
    try:  # as pandas: no digit separator (1_000), no non-ASCII digit
        float(value if value.isascii() and "_" not in value else "?")
    except ValueError:
        return (f"{where} holds {cut(value)}, not a number; features must be "
                f"numeric (fix the value, or {fix}).")
    return (f"{where} holds {cut(value)}; features must be finite numbers "
            f"(missing values are not supported).")
