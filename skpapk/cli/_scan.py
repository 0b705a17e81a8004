"""A strict structural check of a CSV file, vectorised over its bytes.

pandas' C parser reads numbers fast, but it is lenient about structure: a
line with too few fields is padded with empty values, and a quote in the
middle of an unquoted field is taken literally. :func:`scan_csv` reads the
file once, block by block, and checks with numpy (no Python loop over
lines) that

- the file is UTF-8 text without NUL bytes;
- every quote follows RFC 4180: a quoted field starts at the beginning of a
  field, a quote inside it is doubled, the closing quote is followed by the
  delimiter or the end of the line, and every quote is closed;
- every line that is not blank has as many fields as the header;
- lines end with LF or CRLF (pandas would end a row at a lone CR).

Under these rules, whether a byte lies inside a quoted field is the parity
of the number of quotes before it, which is what makes the check
vectorisable. The scan also counts the data rows (so that the reader can
allocate the feature matrix once) and records the physical line where each
row starts, for error messages.
"""

import codecs
import csv
import os

import numpy as np

from ._output import CLIError

#: Bytes read at a time: large enough for numpy, small enough for the cache.
BLOCK_SIZE = 1 << 22
#: Longest row accepted (a longer one is almost surely an unclosed quote).
MAX_ROW_BYTES = 1 << 25

_LF, _CR, _QUOTE, _SPACE, _TAB = 10, 13, 34, 32, 9


class ScanResult:
    """What :func:`scan_csv` learned about a file.

    Attributes
    ----------
    header : list of str
        The column names (stripped), from the first non-blank line.
    n_rows : int
        Number of data rows (the non-blank lines after the header; a row
        may span several lines inside a quoted field).
    row_lines : ndarray of int64 of shape (n_rows,)
        The physical line (1-based) where each data row starts.
    size : int
        File size in bytes.
    """

    def __init__(self, header, n_rows, row_lines, size):
        self.header = header
        self.n_rows = n_rows
        self.row_lines = row_lines
        self.size = size


class _Scan:
    def __init__(self, path, delimiter):
        self.path = path
        self.delimiter = delimiter
        self.delim = ord(delimiter)
        # bytes of a blank line (pandas skips such lines)
        self.blank = [_SPACE, _CR] + ([] if delimiter == "\t" else [_TAB])
        self.header = None
        self.n_fields = None
        self.lines = []
        self.n_rows = 0

    def fail(self, line, message):
        raise CLIError(f"{self.path}, line {line}: {message}")

    def buffer(self, buf, line0, eof):
        """Check the complete rows of ``buf`` (which starts at a row start).

        Returns the number of bytes consumed (up to the last newline outside
        quotes; everything at ``eof``) and the number of newlines in them.
        """
        a = np.frombuffer(buf, dtype=np.uint8)
        newlines = np.flatnonzero(a == _LF)
        if a.size and np.any(a == 0):
            pos = int(np.argmax(a == 0))
            self.fail(line0 + int(np.searchsorted(newlines, pos)),
                      "a NUL byte: this is not a text (CSV) file.")
        delims = np.flatnonzero(a == self.delim)
        quotes = np.flatnonzero(a == _QUOTE)
        returns = np.flatnonzero(a == _CR)
        if quotes.size:
            self._check_quotes(a, quotes, newlines, line0)
            before = np.searchsorted(quotes, newlines)
            ends = newlines[(before & 1) == 0]
            delims = delims[(np.searchsorted(quotes, delims) & 1) == 0]
            returns = returns[(np.searchsorted(quotes, returns) & 1) == 0]
        else:
            ends = newlines
        returns = returns[returns + 1 < a.size]  # the last byte: decided later
        bare = returns[a[returns + 1] != _LF]
        if bare.size:  # pandas would end a row there, Python's csv too
            self.fail(line0 + int(np.searchsorted(newlines, bare[0])),
                      "a carriage return (\\r) that does not end the line; "
                      "line ends must be \\n or \\r\\n (quote a value that "
                      "holds one).")
        consumed = int(ends[-1]) + 1 if ends.size else 0
        if eof and consumed < a.size:
            if quotes.size and (np.searchsorted(quotes, a.size) & 1):
                self._unclosed(a, quotes, newlines, line0)
            ends = np.append(ends, a.size)
            consumed = a.size
        elif not ends.size and a.size > MAX_ROW_BYTES:
            if quotes.size and (quotes.size & 1):
                self._unclosed(a, quotes, newlines, line0)
            self.fail(line0, f"a row longer than {MAX_ROW_BYTES >> 20} MB; this "
                             f"is not a CSV file of rows (check the delimiter).")
        if ends.size:
            self._rows(a, ends, delims, newlines, line0)
        n_newlines = int(np.searchsorted(newlines, consumed))
        return consumed, n_newlines

    def _check_quotes(self, a, quotes, newlines, line0):
        opening = (np.arange(quotes.size) & 1) == 0  # buf starts outside quotes
        prev = a[np.maximum(quotes - 1, 0)]
        ok_open = ((prev == self.delim) | (prev == _LF) | (prev == _QUOTE)
                   | (quotes == 0))
        has_next = quotes + 1 < a.size
        nxt = a[np.minimum(quotes + 1, a.size - 1)]
        ok_close = ((nxt == self.delim) | (nxt == _LF) | (nxt == _CR)
                    | (nxt == _QUOTE) | ~has_next)  # end: decided later
        ok = np.where(opening, ok_open, ok_close)
        if ok.all():
            return
        i = int(np.argmin(ok))
        line = line0 + int(np.searchsorted(newlines, quotes[i]))
        if opening[i]:
            self.fail(line, 'a quote (") inside an unquoted field; quote the '
                            'whole field and double its quotes ("55"" TV").')
        self.fail(line, "text after the closing quote of a quoted field; a quote "
                        'inside a quoted field must be doubled ("").')

    def _unclosed(self, a, quotes, newlines, line0):
        last_open = quotes[((np.arange(quotes.size) & 1) == 0)][-1]
        self.fail(line0 + int(np.searchsorted(newlines, last_open)),
                  "this quoted field is never closed (a quote is missing), so "
                  "the rest of the file would be read as one value.")

    def _rows(self, a, ends, delims, newlines, line0):
        counts = np.diff(np.searchsorted(delims, ends), prepend=0)
        starts = np.empty_like(ends)
        starts[0] = 0
        starts[1:] = ends[:-1] + 1
        lines = line0 + np.searchsorted(newlines, starts)
        keep = np.ones(ends.size, dtype=bool)
        for i in np.flatnonzero(counts == 0):  # blank lines (or one-field rows)
            keep[i] = bool(np.isin(a[starts[i]:ends[i]], self.blank,
                                   invert=True).any())
        if self.header is None:
            if not keep.any():
                return
            i = int(np.argmax(keep))
            self._set_header(bytes(a[starts[i]:ends[i]]), int(counts[i]) + 1,
                             int(lines[i]))
            keep[: i + 1] = False
        wrong = np.flatnonzero(keep & (counts + 1 != self.n_fields))
        if wrong.size:
            i = int(wrong[0])
            n = int(counts[i]) + 1
            self.fail(int(lines[i]),
                      f"{n} field{'s' if n > 1 else ''}, but the header has "
                      f"{self.n_fields}; every line needs one value per column "
                      f"(check the delimiter and the quotes).")
        self.lines.append(lines[keep].astype(np.int64))
        self.n_rows += int(np.count_nonzero(keep))

    def _set_header(self, raw, n_fields, line):
        text = raw.decode("utf-8").rstrip("\r")
        names = [name.strip() for name in
                 next(csv.reader([text], delimiter=self.delimiter))]
        if n_fields < 2:
            self.fail(line, f"the header names one column only ({text[:60]!r}); "
                            f"the file needs a group, a label and feature "
                            f"columns separated by {self.delimiter!r} (see "
                            f"--delimiter).")
        for j, name in enumerate(names):
            if not name:
                self.fail(line, f"column {j + 1} of the header has no name; name "
                                f"it (a file written by pandas' to_csv without "
                                f"index=False starts with an unnamed index).")
        duplicated = sorted({name for name in names if names.count(name) > 1})
        if duplicated:
            self.fail(line, f"the header names the column(s) {duplicated} more "
                            f"than once; column names must be unique.")
        self.header, self.n_fields = names, n_fields


def scan_csv(path, *, delimiter=",", progress=None):
    """Check the structure of a CSV file and count its data rows.

    Parameters
    ----------
    path : str
        The file (UTF-8, with or without a byte order mark).
    delimiter : str
        One ASCII character.
    progress : callable or None
        Called as ``progress(bytes_read)`` after each block; an exception
        it raises stops the scan (a caller's way to cancel it).

    Returns
    -------
    result : ScanResult

    Raises
    ------
    CLIError
        With the physical line of the first problem.

    Examples
    --------
    >>> import os, tempfile
    >>> from skpapk.cli._scan import scan_csv
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "d.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write('user,label,x\\nu1,1,0.5\\n\\nu1,0,"2"\\n')
    >>> result = scan_csv(path)
    >>> result.header, result.n_rows, result.row_lines.tolist()
    (['user', 'label', 'x'], 2, [2, 4])
    """
    scan = _Scan(path, delimiter)
    for _ in _scan_blocks(scan, BLOCK_SIZE, progress):
        pass
    lines = (np.concatenate(scan.lines) if scan.lines
             else np.zeros(0, dtype=np.int64))
    return ScanResult(scan.header, scan.n_rows, lines, os.path.getsize(path))


def read_header(path, *, delimiter=","):
    """The column names, from a scan of the first lines of a CSV file.

    The same checks as :func:`scan_csv`, on the lines up to the header (and
    any other complete line of the first 64 kB): the first problem there is
    the one :func:`scan_csv` would report.

    Examples
    --------
    >>> import os, tempfile
    >>> from skpapk.cli._scan import read_header
    >>> path = os.path.join(tempfile.mkdtemp(), "d.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write('\\nuser, label ,x\\nu1,1,0.5\\n')
    >>> read_header(path)
    ['user', 'label', 'x']
    """
    scan = _Scan(path, delimiter)
    for _ in _scan_blocks(scan, 1 << 16, None):
        if scan.header is not None:
            break
    return scan.header


def _scan_blocks(scan, block_size, progress):
    """Feed the file to ``scan`` block by block; yield after each block."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    path = scan.path
    with open(path, "rb") as handle:
        if handle.read(3) != codecs.BOM_UTF8:
            handle.seek(0)
        rest, line0 = b"", 1
        while True:
            raw = handle.read(block_size)
            eof = not raw
            try:
                decoder.decode(raw, final=eof)
            except UnicodeDecodeError as exc:
                where = rest + raw[: exc.start]
                scan.fail(line0 + where.count(b"\n"),
                          "not UTF-8 text (save the file as UTF-8 CSV).")
            buf = rest + raw
            consumed, n_newlines = scan.buffer(buf, line0, eof)
            rest = buf[consumed:]
            line0 += n_newlines
            if progress is not None:
                progress(handle.tell())
            yield
            if eof:
                break
    if scan.header is None:
        raise CLIError(f"{path} is empty: it needs a header line naming the "
                       f"columns (e.g. user,label,f1,f2) and one line per row.")
