"""The structural check of CSV files: errors with their line, rows as pandas."""

import csv
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skpapk.cli import _scan
from skpapk.cli._output import CLIError
from skpapk.cli._scan import scan_csv


def write(tmp_path, text, name="d.csv", encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return str(path)


@pytest.fixture(params=[_scan.BLOCK_SIZE, 1, 5], ids=["block", "1-byte", "5-byte"])
def block_size(request, monkeypatch):
    """Run a test with the real block size and with tiny blocks, so that rows,
    quotes and CRLF pairs straddle the block boundaries."""
    monkeypatch.setattr(_scan, "BLOCK_SIZE", request.param)
    return request.param


@pytest.mark.parametrize("text, n_rows, lines", [
    ("u,l,x\nu1,1,0.5\nu1,0,2\n", 2, [2, 3]),
    ("u,l,x\nu1,1,0.5\nu1,0,2", 2, [2, 3]),                   # no final newline
    ("u,l,x\r\nu1,1,0.5\r\n\r\nu1,0,2\r\n", 2, [2, 4]),        # CRLF, blank line
    ("\n\nu,l,x\n  \nu1,1,0.5\n\t\nu1,0,2\n\n", 2, [5, 7]),   # blank lines
    ('u,l,x\nu1,1,"a\nb"\nu1,0,"c""d"\nu2,1,""\n', 3, [2, 4, 5]),  # quotes
    ('"u","l","x,y"\n"u1",1,"0,5"\n', 1, [2]),
    ('u,l,x\nu1,1,"a\rb"\nu1,0,1\r', 2, [2, 3]),               # quoted CR
    ("\ufeffu,l,x\nu1,1,0.5\n", 1, [2]),                      # byte order mark
])
def test_valid_files_rows_and_lines(tmp_path, block_size, text, n_rows, lines):
    result = scan_csv(write(tmp_path, text))
    assert result.n_rows == n_rows
    assert result.row_lines.tolist() == lines
    assert result.header[0] == "u"


@pytest.mark.parametrize("text, line, message", [
    ("u,l,x\nu1,1,0.5\nu1,0\nu2,1,3\n", 3, "2 fields, but the header has 3"),
    ("u,l,x\nu1,1,0.5\nu1,0,1,2\n", 3, "4 fields, but the header has 3"),
    ("u,l,x\nu1,1,0.5\nxyz\n", 3, "1 field, but the header has 3"),
    ("u,l,x\nu1,1,0.5,\n", 2, "4 fields"),
    # the unterminated quote: 6 rows must not silently become 2
    ('u,l,x\nu1,1,0.5\nu1,0,"2\nu2,1,3\nu2,0,4\nu3,1,5\nu3,0,6\n', 3,
     "never closed"),
    ('u,l,x\nu1,1,"a\nb"\nu1,0,"2\n', 4, "never closed"),
    ('u,l,x\nu1,1,0.5\nu1,0,5"x\n', 3, "inside an unquoted field"),
    ('u,l,x\nu1,1,0.5\nu1,0, "5"\n', 3, "inside an unquoted field"),
    ('u,l,x\nu1,1,0.5\nu1,0,"5"x\n', 3, "text after the closing quote"),
    ('u,l,x\nu1,1,"a\n\nb" c\n', 4, "text after the closing quote"),
    ("u,l,x\nu1,1,0.5\nu1,0,\x00\n", 3, "NUL byte"),
    ("u,l,x\nu1,1,0.5\ru1,0,1\n", 2, "carriage return"),  # old Mac line end
    ("u,l,x\r\nu1,1,0\r5\r\n", 2, "carriage return"),
    ("a\n1\n", 1, "one column only"),
    ("a,b,a\n1,2,3\n", 1, "more than once"),
    (",a,b\n1,2,3\n", 1, "column 1 of the header has no name"),
])
def test_structural_errors_name_the_line(tmp_path, block_size, text, line, message):
    with pytest.raises(CLIError) as exc:
        scan_csv(write(tmp_path, text))
    assert f"line {line}: " in str(exc.value)
    assert message in str(exc.value)


def test_not_utf8_names_the_line(tmp_path, block_size):
    path = write(tmp_path, "u,l,x\nu1,1,0.5\nu1,0,caf\xe9\n".encode("latin-1"))
    with pytest.raises(CLIError, match="line 3: not UTF-8"):
        scan_csv(path)


@pytest.mark.parametrize("text", ["", "\n\n \n"])
def test_empty_file(tmp_path, text):
    with pytest.raises(CLIError, match="is empty"):
        scan_csv(write(tmp_path, text))


def test_tab_delimiter_tab_only_line_is_a_row_of_empty_values(tmp_path):
    # as pandas reads it: three empty fields (the reader then reports the
    # empty group id), while a line of spaces is blank
    path = write(tmp_path, "u\tl\tx\nu1\t1\t0.5\n\t\t\n")
    assert scan_csv(path, delimiter="\t").n_rows == 2
    path = write(tmp_path, "u\tl\tx\nu1\t1\t0.5\n  \n")
    assert scan_csv(path, delimiter="\t").n_rows == 1


def test_row_longer_than_the_limit_is_an_unclosed_quote(tmp_path, monkeypatch):
    monkeypatch.setattr(_scan, "BLOCK_SIZE", 64)
    monkeypatch.setattr(_scan, "MAX_ROW_BYTES", 256)
    text = 'u,l,x\nu1,1,"open\n' + "u2,0,1\n" * 100
    with pytest.raises(CLIError, match="line 2: this quoted field is never closed"):
        scan_csv(write(tmp_path, text))
    text = "u,l,x\nu1,1," + "9" * 1000 + "\n"
    with pytest.raises(CLIError, match="line 2: a row longer than"):
        scan_csv(write(tmp_path, text))


def test_progress_reaches_the_file_size(tmp_path, monkeypatch):
    monkeypatch.setattr(_scan, "BLOCK_SIZE", 16)
    path = write(tmp_path, "u,l,x\n" + "u1,1,0.5\n" * 20)
    seen = []
    scan_csv(path, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == len("u,l,x\n" + "u1,1,0.5\n" * 20)


# Random valid CSV files: the scan agrees with Python's csv module and pandas.
_cell = st.text(alphabet=st.sampled_from(list('ab ,"\n9.-é')), max_size=6)


def _csv_text(rows, crlf):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n" if crlf else "\n")
    writer.writerow(["c0", "c1", "c2"])
    writer.writerows(rows)
    return buffer.getvalue()


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.lists(_cell, min_size=3, max_size=3), max_size=8),
       crlf=st.booleans(), block=st.sampled_from([1, 3, 4096]))
def test_agrees_with_csv_module_and_pandas(tmp_path_factory, rows, crlf, block):
    text = _csv_text(rows, crlf)
    path = tmp_path_factory.mktemp("h") / "d.csv"
    path.write_bytes(text.encode("utf-8"))
    old = _scan.BLOCK_SIZE
    _scan.BLOCK_SIZE = block
    try:
        result = scan_csv(str(path))
    finally:
        _scan.BLOCK_SIZE = old
    # pandas skips blank lines (a row of one empty or blank field is one);
    # so does the scan, so the row counts agree with pandas.
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[],
                        skip_blank_lines=True)
    assert result.n_rows == frame.shape[0]
    reader = csv.reader(io.StringIO(text, newline=""))
    next(reader)
    kept = [r for r in reader if not (len(r) <= 1 and not "".join(r).strip(" \t\r"))]
    assert result.n_rows == len(kept)
    assert np.all(np.diff(result.row_lines) >= 1)
