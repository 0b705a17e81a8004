"""The CSV format of ranking data: :class:`CSVFormatError`, and a strict
RFC 4180 scanner (:func:`_rows`) that names the line of the first problem,
for the files and lines that pandas' lenient parser cannot be trusted with.
"""

import codecs
from collections import Counter

import numpy as np
import pandas as pd

from ..utils._messages import cut as _cut

#: How pandas reads the files: as written, no cell taken as missing.
_READ_OPTIONS = dict(engine="c", encoding="utf-8-sig", keep_default_na=False,
                     na_values=[], skip_blank_lines=True, quotechar='"',
                     doublequote=True)
if int(pd.__version__.split(".")[0]) < 3:  # pandas 3 always reads exactly
    _READ_OPTIONS["float_precision"] = "round_trip"
#: Bytes of the file checked at a time.
BLOCK_BYTES = 1 << 24
#: The blanks stripped from the header's names, group ids and labels: ASCII
#: only, so that a non-breaking (or other Unicode) space is kept as written
#: ("\u00a0a" is not "a"). A blank line (skipped) is made of them too, and of
#: a carriage return (a tab-only line is a row when tab is the delimiter).
_BLANKS = " \t"

#: The arguments of :func:`read_ranking_csv` that a message can name.
ARGUMENTS = ("group_col", "label_col", "features", "ignore_cols", "delimiter")


class CSVFormatError(ValueError):
    """A CSV file, or a column asked of it, that :func:`read_ranking_csv` refuses.

    The message names the file and, for a problem in its text, the line
    (1-based, as an editor counts them: blank lines and the lines inside a
    quoted value count). Where the fix is an argument of
    :func:`read_ranking_csv`, it names the argument (``"choose it with
    group_col="``); :meth:`with_names` writes the message with other names
    for the arguments, e.g. the options of a command line.

    Parameters
    ----------
    template : str
        The message, a :meth:`str.format` template: ``{path}``, ``{line}``,
        ``{column}`` and the ``values`` fill it; ``{group_col}``,
        ``{label_col}``, ``{features}``, ``{ignore_cols}`` and
        ``{delimiter}`` are the names of the arguments (see
        :meth:`with_names`); ``{hint}`` is ``hint``. Text from the file is a
        value, never part of the template.
    path : str
        The file.
    line : int, default=None
        The line of the problem; None for a problem of the whole file or of
        the arguments.
    column : str, default=None
        The column of the problem (the one the file lacks, or the one
        holding a bad value), if any.
    argument : str, default=None
        For a column that the file lacks: the argument that names it
        (``"group_col"``, ``"label_col"``, ``"features"`` or
        ``"ignore_cols"``); else None.
    hint : str, default=None
        The advice of a column that the file lacks (``"choose it with
        {group_col}"``), a template naming arguments as ``template`` does.
    **values : dict
        The other fields of ``template``.

    Attributes
    ----------
    path : str
        The file.
    line : int or None
        The line of the problem.
    column : str or None
        The column of the problem.
    argument : str or None
        The argument that names a column the file lacks.
    template : str
        The message's template.
    hint : str or None
        The advice's template.
    values : dict
        The other fields of the template.

    See Also
    --------
    read_ranking_csv : The reader that raises it.

    Examples
    --------
    >>> from skpapk.io import CSVFormatError
    >>> error = CSVFormatError(
    ...     "{path}, line {line}: feature column {column!r} holds {value}; "
    ...     "fix it, or leave the column out with {features}.",
    ...     path="data.csv", line=3, column="f1", value="'abc'")
    >>> print(error)
    data.csv, line 3: feature column 'f1' holds 'abc'; fix it, or leave the
    column out with features=.
    >>> print(error.with_names({"features": "--features"}))
    data.csv, line 3: feature column 'f1' holds 'abc'; fix it, or leave the
    column out with --features.
    """

    def __init__(self, template, *, path, line=None, column=None, argument=None,
                 hint=None, **values):
        self.template, self.hint, self.values = template, hint, values
        self.path, self.line, self.column = path, line, column
        self.argument = argument
        super().__init__(self.with_names())

    def __str__(self):
        return self.with_names()

    def __reduce__(self):  # keyword-only arguments: pickled by their state
        return _rebuild, (type(self), self.args), self.__dict__

    def with_names(self, names=None, *, hint=None):
        """The message, naming the arguments by ``names``.

        Parameters
        ----------
        names : dict, default=None
            Argument name (``"group_col"``, ...) -> the text naming it in
            the message; an argument not in ``names`` is named as Python
            passes it (``group_col=``).
        hint : str, default=None
            Replaces the advice of an error that has one (a column the file
            lacks: ``"choose it with {group_col}"``; a bad feature cell:
            ``"leave the column out with {features} / {ignore_cols}"``), for
            a caller whose columns are not the user's choice (they come from
            a saved model, ...). A template naming arguments, like the
            message.

        Returns
        -------
        message : str
            The message.
        """
        names = {name: f"{name}=" for name in ARGUMENTS} | dict(names or {})
        fields = dict(self.values, path=self.path, line=self.line,
                      column=self.column)
        if self.hint is not None:
            fields["hint"] = (self.hint if hint is None else hint).format(**names)
        return self.template.format(**fields, **names)


def _rebuild(cls, args):
    return cls.__new__(cls, *args)


def _tokens(text, delimiter, line, fail):
    """The fields of a row's ``text`` (no line end), and None; or, when a
    quoted field is left open, the fields before it and the offset of its
    opening quote (where :func:`_rows` tokenizes again, with more lines)."""
    fields, pos, n = [], 0, len(text)
    while True:
        if text.startswith('"', pos):
            end = pos + 1
            while True:
                end = text.find('"', end)
                if end < 0:
                    return fields, pos
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
            return fields, None
        pos += 1  # the delimiter


_NUL_MESSAGE = ("a NUL byte: this is not UTF-8 CSV text (a UTF-16 file "
                "without a byte order mark, or a binary one); save the file "
                "as UTF-8 CSV.")
#: The lines of a CSV file are read in pieces of at most this many bytes.
_LINE_PIECE = 1 << 24


def _lines(handle, nul):
    """The lines of ``handle`` (ending with ``\n`` only), each read in
    pieces of ``_LINE_PIECE`` bytes: a piece holding a NUL byte calls
    ``nul(first piece)`` (which raises) before the rest of its line is
    read, so that a binary file without line ends (``/dev/zero``, a disk
    image) fails at once instead of being read whole, twice (its bytes and
    its text)."""
    while True:
        raw = handle.readline(_LINE_PIECE)
        if not raw:
            return
        if not raw.endswith(b"\n") and len(raw) == _LINE_PIECE:
            pieces = [raw]
            while True:
                if b"\0" in pieces[-1]:
                    nul(pieces[0])
                more = handle.readline(_LINE_PIECE)
                pieces.append(more)
                if not more or more.endswith(b"\n") or len(more) < _LINE_PIECE:
                    break
            raw = b"".join(pieces)
        yield raw


def _rows(path, delimiter):
    """``(line, fields)`` of the header and of every data row, strictly read.

    Raises a :class:`CSVFormatError` naming the line of the first problem.
    """
    def fail(line, template, **values):
        raise CSVFormatError("{path}, line {line}: " + template, path=path,
                             line=line, **values)

    blank = _blank_chars(delimiter)
    n_fields, line, pending, start = None, 1, None, 1
    # a record whose quoted field is open: its lines (``pending``), its
    # fields before that field (``done``), and the lines from the field's
    # opening quote (``tail``, of line ``tail_line``), tokenized again alone
    done, tail, tail_line = [], [], 1
    with open(path, "rb") as handle:
        def not_utf8(raw):
            utf16 = line == 1 and raw.startswith((codecs.BOM_UTF16_LE,
                                                  codecs.BOM_UTF16_BE))
            fail(line, "not UTF-8 text" + " but UTF-16 (Excel's 'Unicode "
                 "Text')" * utf16 + " (save the file as UTF-8 CSV).")

        def nul(first):  # a NUL byte in a line's first pieces
            if line == 1 and first.startswith((codecs.BOM_UTF16_LE,
                                               codecs.BOM_UTF16_BE)):
                not_utf8(first)
            fail(line, _NUL_MESSAGE)

        for raw in _lines(handle, nul):
            if line == 1 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[3:]
            try:
                piece = raw.decode("utf-8")
            except UnicodeDecodeError:
                not_utf8(raw)
            if "\0" in piece:
                fail(line, _NUL_MESSAGE)
            line += piece.endswith("\n")
            if pending is not None:
                pending.append(piece)
                tail.append(piece)
                # a line without a quote outside pairs ("", a quote inside the
                # field) cannot close the open field; one that may close it is
                # read again from the field's opening quote (a parity of
                # quotes took a stray quote after it for an open field): a
                # long quoted field, or many on many lines, costs linear time
                if '"' not in piece.replace('""', ""):
                    continue
                text, first = "".join(tail), tail_line
            else:
                start = first = line - piece.endswith("\n")
                text, done = piece, []
            body = text[:-1] if text.endswith("\n") else text
            body = body[:-1] if body.endswith("\r") else body
            fields, open_at = (_tokens(body, delimiter, first, fail) if '"' in body
                               else (body.split(delimiter), None))
            done.extend(fields)  # in place: linear in a record's fields too
            fields = done
            if open_at is not None:
                done, tail = fields, [text[open_at:]]
                tail_line = first + body.count("\n", 0, open_at)
                pending = pending or [text]
                continue
            if pending is not None:  # the whole record, for the checks below
                body = "".join(pending)
                body = body[:-1] if body.endswith("\n") else body
                body = body[:-1] if body.endswith("\r") else body
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
                fail(start, "{n} field{s}, but the header has {n_fields}; every "
                     "line needs one value per column (check the delimiter and "
                     "the quotes).", n=len(fields), s="s" if len(fields) > 1
                     else "", n_fields=n_fields)
            yield start, fields
    if pending is not None:
        fail(start, "this quoted field is never closed (a quote is missing), so "
             "the rest of the file would be read as one value.")
    if n_fields is None:
        raise CSVFormatError("{path} is empty: it needs a header line naming the "
                             "columns (e.g. user,label,f1,f2) and one line per "
                             "row.", path=path)


def _blank_chars(delimiter):
    """The characters of a blank (skipped) line: spaces, carriage returns
    and tabs, but for a tab-delimited file, where a tab-only line is a row."""
    return " \r" if delimiter == "\t" else " \t\r"


def _bare_cr(body):
    """Whether a carriage return of a row with quotes lies outside them."""
    outside = body.split('"')[::2]  # quotes are balanced in a complete row
    return any("\r" in part for part in outside)


def _check_header(fields, text, line, delimiter, fail):
    names = [name.strip(_BLANKS) for name in fields]
    if len(names) < 2:
        fail(line, "the header names one column only ({text}); the file needs "
             "a group, a label and feature columns separated by {char!r} (see "
             "{delimiter}).", text=_cut(text, 60), char=delimiter)
    for j, name in enumerate(names):
        if not name:
            fail(line, "column {j} of the header has no name; name it (a file "
                 "written by pandas' to_csv without index=False starts with an "
                 "unnamed index).", j=j + 1)
    duplicated = sorted(name for name, n in Counter(names).items() if n > 1)
    if duplicated:
        fail(line, "the header names the column(s) {duplicated} more than once; "
             "column names must be unique.", duplicated=duplicated)
    return len(names)


def _row(path, delimiter, index):
    """``(line, fields)`` of data row ``index`` (0-based), for messages."""
    rows = _rows(path, delimiter)
    header = next(rows)[1]
    for i, (line, fields) in enumerate(rows):
        if i == index:
            return line, dict(zip((h.strip(_BLANKS) for h in header), fields))
    raise AssertionError(f"{path} has no row {index}")  # pragma: no cover


def _blocks(path):
    """The file's bytes as ``(data, start, stop)``: ``data[start:stop]``
    holds whole lines (the last block may end without a newline), about
    ``BLOCK_BYTES`` at a time, not copied again once read. Read, not
    memory-mapped: a mapped file that another program cuts meanwhile kills
    the process (SIGBUS)."""
    rest = []  # the pieces of a line that the previous blocks cut
    with open(path, "rb") as handle:
        while chunk := handle.read(BLOCK_BYTES):
            last = chunk.rfind(b"\n") + 1
            if not last:  # no line end: a line longer than a block
                rest.append(chunk)
                continue
            start = 0
            if rest:  # the cut line, ended: joined once
                start = chunk.find(b"\n") + 1
                line = b"".join([*rest, chunk[:start]])
                yield line, 0, len(line)
            if start < last:
                yield chunk, start, last
            rest = [chunk[last:]] if last < len(chunk) else []
    if rest:
        line = b"".join(rest)
        yield line, 0, len(line)


def _plain_block(data, start, stop):
    """Whether ``data[start:stop]`` holds no quote, NUL byte or carriage
    return other than in a ``\\r\\n`` line end (or as the file's last byte):
    lines that pandas and :func:`_rows` split alike."""
    if data.find(b'"', start, stop) >= 0 or data.find(b"\0", start, stop) >= 0:
        return False
    if data.find(b"\r", start, stop) < 0:
        return True
    a = np.frombuffer(data, dtype=np.uint8, count=stop - start, offset=start)
    after = np.flatnonzero(a == 13) + 1
    return bool((a[after[after < a.size]] == 10).all())


def _is_plain(path):
    """Whether every row of the file is one line that pandas and
    :func:`_rows` split alike (:func:`_plain_block`), and it is not empty."""
    empty = True
    for block in _blocks(path):
        empty = False
        if not _plain_block(*block):
            return False
    return not empty


def _simple_structure(path, delimiter, n_fields):
    """The number of data rows when every line has ``n_fields`` fields and
    nothing needs :func:`_rows` (see :func:`_is_plain`; pandas checks
    UTF-8); else None. One pass, a block of lines at a time."""
    blank = np.frombuffer(_blank_chars(delimiter).encode(), dtype=np.uint8)
    delim, n_lines, empty = ord(delimiter), 0, True
    for data, start, stop in _blocks(path):
        empty = False
        if not _plain_block(data, start, stop):
            return None
        part = np.frombuffer(data, dtype=np.uint8, count=stop - start, offset=start)
        ends = np.flatnonzero(part == 10)
        if part[-1] != 10:
            ends = np.append(ends, part.size)
        counts = np.diff(np.searchsorted(np.flatnonzero(part == delim), ends),
                         prepend=0)
        starts = np.concatenate([[0], ends[:-1] + 1])
        wrong = np.flatnonzero(counts + 1 != n_fields)
        if wrong.size:  # only blank lines may have another number of fields
            if counts[wrong].any():
                return None
            sizes = ends[wrong] - starts[wrong]  # their bytes, gathered
            at = np.repeat(starts[wrong] - (np.cumsum(sizes) - sizes), sizes)
            if not np.isin(part[at + np.arange(sizes.sum())], blank).all():
                return None
        n_lines += ends.size - wrong.size
    return None if empty else n_lines - 1  # an empty file: _rows names it


def _plain_lines(path, delimiter, rows):
    """``{row: its cells}`` of the data ``rows`` (0-based numbers, the
    header not counted) of a plain file (:func:`_is_plain`), split at the
    delimiter as written. Its non-blank lines are numbered with numpy, a
    block at a time, and only the lines of ``rows`` are decoded; the file
    is read no further than the last of them."""
    blank_bytes = _blank_chars(delimiter).encode()
    blank = np.frombuffer(blank_bytes, dtype=np.uint8)
    last = max(rows, default=-1)
    wanted = np.zeros(last + 2, dtype=bool)  # wanted[row + 1]: the header too
    wanted[np.fromiter(rows, dtype=np.int64, count=len(rows)) + 1] = True
    cells, before = {}, -2  # the number of the last non-blank line (-1: header)
    for block, (data, start, stop) in enumerate(_blocks(path)):
        if before >= last:
            break
        if block == 0 and data.startswith(codecs.BOM_UTF8, start):
            start += len(codecs.BOM_UTF8)  # the file's, as pandas reads it
            if start == stop:
                continue
        part = np.frombuffer(data, dtype=np.uint8, count=stop - start, offset=start)
        ends = np.flatnonzero(part == 10)
        if part[-1] != 10:  # the file's last line, without a line end
            ends = np.append(ends, part.size)
        begins = np.concatenate([[0], ends[:-1] + 1])
        # a line is blank when every byte is: most lines start with another
        filled = (begins < ends) & ~np.isin(
            part[np.minimum(begins, part.size - 1)], blank)
        for i in np.flatnonzero(~filled & (begins < ends)).tolist():
            filled[i] = bool(data[start + begins[i]:start + ends[i]].strip(
                blank_bytes))
        numbers = before + np.cumsum(filled)
        take = np.flatnonzero(filled & (numbers <= last)
                              & wanted[np.minimum(numbers, last) + 1])
        for row, low, high in zip(numbers[take].tolist(),
                                  (begins[take] + start).tolist(),
                                  (ends[take] + start).tolist()):
            cells[row] = data[low:high].decode("utf-8").rstrip("\r").split(delimiter)
        before = int(numbers[-1])
    return cells


def _count_rows(path, delimiter, n_fields):
    """The number of data rows, every line checked: raises a
    :class:`CSVFormatError` naming the line of the first problem."""
    n_rows = _simple_structure(path, delimiter, n_fields)
    if n_rows is None:
        n_rows = sum(1 for _ in _rows(path, delimiter)) - 1  # raises the first
    return n_rows
