"""Reading CSV files: columns, numbers, groups, labels, errors with lines."""

import csv
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skpapk.cli import _csv
from skpapk.cli._csv import _rows, read_csv
from skpapk.cli._output import CLIError


def write(tmp_path, text, name="d.csv"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return str(path)


@pytest.fixture(params=[1 << 24, 7], ids=["block", "7-byte-blocks"])
def blocks(request, monkeypatch):
    """Check the structure with the real block size and with tiny blocks, so
    that lines straddle the block boundaries."""
    monkeypatch.setattr(_csv, "BLOCK_BYTES", request.param)


@pytest.fixture(params=[200_000, 7], ids=["chunk", "7-row-chunks"])
def chunks(request, monkeypatch):
    """Parse with the real chunks and with chunks of 7 rows, so that groups,
    labels and bad cells are found across chunk boundaries."""
    monkeypatch.setattr(_csv, "CHUNK_ROWS", request.param)


def _big_text(n=2500):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    users = rng.integers(0, 37, n)
    labels = rng.integers(0, 2, n)
    lines = ["id,user,name,label,a,b"]
    lines += [f"{i},u{u:02d},item {i},{t},{float(x[0])!r},{float(x[1])!r}"
              for i, (u, t, x) in enumerate(zip(users, labels, X))]
    return "\n".join(lines) + "\n", X, users, labels


def test_values_groups_and_default_features(tmp_path, blocks, chunks):
    text, X, users, labels = _big_text(5500)
    data = read_csv(write(tmp_path, text), group_col="user", label_col="label")
    assert data.feature_cols == ["id", "a", "b"] and data.skipped_cols == ["name"]
    assert data.id_like_cols == ["id"]  # integers, one per row
    np.testing.assert_array_equal(data.X[:, 1:], X)  # exact: repr round trip
    np.testing.assert_array_equal(data.X[:, 0], np.arange(len(X)))
    assert data.X.dtype == np.float64
    np.testing.assert_array_equal(data.groups, [f"u{u:02d}" for u in users])
    np.testing.assert_array_equal(data.labels, labels.astype(str))
    data = read_csv(write(tmp_path, text), group_col="user", label_col="label",
                    ignore=["id"])
    assert data.feature_cols == ["a", "b"] and data.id_like_cols == []
    data = read_csv(write(tmp_path, text), group_col="user", label_col="label",
                    features=["b"])
    assert data.X.shape == (len(X), 1)


def test_text_cells_are_stripped_and_blank_lines_skipped(tmp_path):
    path = write(tmp_path, "group,label,x,y\n a ,yes, 0.5,2\n\nb,no ,1e-3,-1\n"
                           "a,no,7,0\n")
    data = read_csv(path, group_col="group", label_col="label")
    assert data.groups.tolist() == ["a", "b", "a"]
    assert data.labels.tolist() == ["yes", "no", "no"]
    np.testing.assert_array_equal(data.X, [[0.5, 2], [1e-3, -1], [7, 0]])


@pytest.mark.parametrize("cell, message", [
    ("abc", "feature column 'b' holds 'abc', not a number"),
    ("", "feature column 'b' holds an empty value"),
    ("nan", "feature column 'b' holds 'nan'; features must be finite"),
    ("inf", "holds 'inf'; features must be finite"),
    ("1e400", "holds '1e400'; features must be finite"),
    ("NA", "holds 'NA', not a number"),
    ("1_000", "holds '1_000', not a number"),  # Python's float() reads these,
    ("\uff11", "holds '\uff11', not a number"),  # pandas does not
])
def test_bad_feature_cell_names_line_and_value(tmp_path, chunks, cell, message):
    rows = [f"g{i % 7},{i % 2},{i},{i / 3}" for i in range(2000)]
    rows[1500] = f"g1,0,1,{cell}"
    rows.insert(10, "")  # a blank line before it: lines are physical
    path = write(tmp_path, "group,label,a,b\n" + "\n".join(rows) + "\n")
    with pytest.raises(CLIError) as exc:
        read_csv(path, group_col="group", label_col="label")
    assert ", line 1503: " in str(exc.value)
    assert message in str(exc.value)


def test_a_huge_cell_is_echoed_cut(tmp_path):
    # a 100 kB numeric cell was echoed whole (100 kB on stderr)
    cell = "1" * 100_000 + "x"
    path = write(tmp_path, f"group,label,a\ng1,1,0.5\ng1,0,{cell}\n")
    with pytest.raises(CLIError) as exc:
        read_csv(path, group_col="group", label_col="label", features=["a"])
    message = str(exc.value)
    assert "line 3: feature column 'a' holds '1111" in message
    assert "(100001 characters)" in message and len(message) < 400


def test_a_structural_problem_is_reported_before_a_bad_cell(tmp_path, blocks):
    rows = [f"g{i % 7},{i % 2},{i}" for i in range(5000)]
    rows[1] = "g1,0,abc"
    rows[4000] = "g1,0,1,2"
    path = write(tmp_path, "group,label,a\n" + "\n".join(rows) + "\n")
    with pytest.raises(CLIError, match="line 4002: 4 fields, but the header has 3"):
        read_csv(path, group_col="group", label_col="label", features=["a"])
    rows[4000] = "g1,0"  # pandas would pad it: the check does not
    path = write(tmp_path, "group,label,a\n" + "\n".join(rows) + "\n")
    with pytest.raises(CLIError, match="line 4002: 2 fields, but the header has 3"):
        read_csv(path, group_col="group", label_col="label", features=["a"])
    rows[4000] = "g1,0,1"
    path = write(tmp_path, "group,label,a\n" + "\n".join(rows) + "\n")
    with pytest.raises(CLIError, match="line 3: feature column 'a' holds 'abc'"):
        read_csv(path, group_col="group", label_col="label", features=["a"])


def test_blank_lines_and_quoted_newlines(tmp_path):
    rows = [f'g{i % 5},{i % 2},"note\n{i}",{i}' for i in range(3000)]
    rows[2500] = 'g1,0,"x",oops'
    text = ("\n" * 3000 + "group,label,note,a\n" + "\n".join(rows[:1500])
            + "\n" + " \n" * 3000 + "\n".join(rows[1500:]) + "\n" + "\n" * 2000)
    with pytest.raises(CLIError, match=f"line {3000 + 1 + 3000 + 3000 + 2000 + 1}:"
                                       " feature column 'a' holds 'oops'"):
        read_csv(write(tmp_path, text), group_col="group", label_col="label",
                 features=["a"])
    rows[2500] = 'g1,0,"x",2500'
    text = "group,label,note,a\n" + "\n".join(rows) + "\n"
    data = read_csv(write(tmp_path, text), group_col="group", label_col="label",
                    features=["a"])
    np.testing.assert_array_equal(data.X[:, 0], np.arange(3000))


@pytest.mark.parametrize("text, message", [
    ("group,label,a\ng1,1,0.5\n,0,0.2\n", "line 3: empty group id in column "
                                          "'group'"),
    ("group,label,a\ng1,1,0.5\ng1, ,0.2\n", "line 3: empty label"),
    ("group,label,a\ng1,0,0.5\ng1,1,0.2\ng1,2,0.3\n",
     "line 4: label column 'label' must be binary"),
    ("group,label,name\ng1,1,x\ng1,0,y\n", "no numeric feature column"),
    ("group,label,a\n", "has a header but no data rows"),
])
def test_column_errors(tmp_path, chunks, text, message):
    with pytest.raises(CLIError, match=message):
        read_csv(write(tmp_path, text), group_col="group", label_col="label")


def test_missing_columns_and_options(tmp_path):
    path = write(tmp_path, "user,label,a,b\nu1,1,0.5,1\n")
    with pytest.raises(CLIError, match="no column 'group' \\(choose it with "
                                       "--group-col\\); its columns are: user"):
        read_csv(path, group_col="group", label_col="label")
    with pytest.raises(CLIError, match="the model was trained with it"):
        read_csv(path, group_col="user", label_col="label", features=["c"],
                 for_model=True)
    with pytest.raises(CLIError, match="both name 'user'"):
        read_csv(path, group_col="user", label_col="user")
    with pytest.raises(CLIError, match="which is the group or label column"):
        read_csv(path, group_col="user", label_col="label", features=["label"])
    with pytest.raises(CLIError, match="names a column twice"):
        read_csv(path, group_col="user", label_col="label", features=["a", "a"])
    data = read_csv(write(tmp_path, "user,a\nu1,0.5\n", "n.csv"), group_col="user",
                    label_col="label", require_label=False)
    assert data.labels is None and data.feature_cols == ["a"]


def test_unused_long_text_is_not_a_feature(tmp_path):
    text = "x" * 100_000
    rows = [f"g{i % 3},{i % 2},{text if i == 5 else 'short'},{i}" for i in range(50)]
    path = write(tmp_path, "group,label,note,a\n" + "\n".join(rows) + "\n")
    data = read_csv(path, group_col="group", label_col="label")
    assert data.feature_cols == ["a"] and data.skipped_cols == ["note"]
    assert data.X.nbytes == 50 * 8


def _lines(path):
    rows = _rows(path, ",")
    next(rows)
    return [line for line, _ in rows]


@pytest.mark.parametrize("text, lines", [
    ("u,l,x\nu1,1,0.5\nu1,0,2\n", [2, 3]),
    ("u,l,x\nu1,1,0.5\nu1,0,2", [2, 3]),                   # no final newline
    ("u,l,x\r\nu1,1,0.5\r\n\r\nu1,0,2\r\n", [2, 4]),        # CRLF, blank line
    ("\n\nu,l,x\n  \nu1,1,0.5\n\t\nu1,0,2\n\n", [5, 7]),   # blank lines
    ('u,l,x\nu1,1,"a\nb"\nu1,0,"c""d"\nu2,1,""\n', [2, 4, 5]),  # quotes
    ('"u","l","x,y"\n"u1",1,"0,5"\n', [2]),
    ('u,l,x\nu1,1,"a\rb"\nu1,0,1\r', [2, 3]),               # quoted CR
    ("\ufeffu,l,x\nu1,1,0.5\n", [2]),                      # byte order mark
])
def test_valid_files_rows_and_lines(tmp_path, text, lines):
    assert _lines(write(tmp_path, text)) == lines


@pytest.mark.parametrize("text, line, message", [
    ("u,l,x\nu1,1,0.5\nu1,0\nu2,1,3\n", 3, "2 fields, but the header has 3"),
    ("u,l,x\nu1,1,0.5\nu1,0,1,2\n", 3, "4 fields, but the header has 3"),
    ("u,l,x\nu1,1,0.5\nxyz\n", 3, "1 field, but the header has 3"),
    ("u,l,x\nu1,1,0.5,\n", 2, "4 fields"),
    # an unterminated quote: 6 rows must not silently become 2
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
    ("u,l,x\nu1,1,0.5\nu1,0,caf\xe9\n".encode("latin-1"), 3, "not UTF-8"),
])
def test_structural_errors_name_the_line(tmp_path, blocks, text, line, message):
    path = write(tmp_path, text)
    with pytest.raises(CLIError) as exc:
        read_csv(path, group_col="u", label_col="l", features=["x"])
    assert f"line {line}: " in str(exc.value)
    assert message in str(exc.value)


@pytest.mark.parametrize("text", ["", "\n\n \n"])
def test_empty_file(tmp_path, text):
    with pytest.raises(CLIError, match="is empty"):
        read_csv(write(tmp_path, text), group_col="u")


def test_tab_delimiter_tab_only_line_is_a_row_of_empty_values(tmp_path):
    path = write(tmp_path, "u\tl\tx\nu1\t1\t0.5\n\t\t\n")
    with pytest.raises(CLIError, match="line 3: empty group id"):
        read_csv(path, group_col="u", label_col="l", delimiter="\t")
    path = write(tmp_path, "u\tl\tx\nu1\t1\t0.5\n  \n")
    assert read_csv(path, group_col="u", label_col="l", delimiter="\t").X.shape \
        == (1, 1)


# Random valid CSV files: the rows agree with Python's csv module and pandas.
_cell = st.text(alphabet=st.sampled_from(list('ab ,"\n9.-é')), max_size=6)


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.lists(_cell, min_size=3, max_size=3), max_size=8),
       crlf=st.booleans())
def test_agrees_with_csv_module_and_pandas(tmp_path_factory, rows, crlf):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n" if crlf else "\n")
    writer.writerows([["c0", "c1", "c2"], *rows])
    text = buffer.getvalue()
    path = tmp_path_factory.mktemp("h") / "d.csv"
    path.write_bytes(text.encode("utf-8"))
    found = list(_rows(str(path), ","))[1:]
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[],
                        skip_blank_lines=True)
    assert len(found) == frame.shape[0]
    assert [f for _, f in found] == frame.values.tolist()
    assert all(b > a for (a, _), (b, _) in zip(found, found[1:]))


def _structure_oracle(text, n_fields):
    """Data rows of a quote-free file whose every non-blank line has
    ``n_fields`` fields, else None (a line per line, from the definition)."""
    lines = [line for line in text.split("\n") if line.strip(" \t") != ""]
    if any(line.count(",") != n_fields - 1 for line in lines):
        return None
    return len(lines) - 1


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab,\n \t")), min_size=1,
                    max_size=60),
       n_fields=st.integers(2, 4), block=st.integers(1, 40))
def test_structure_check_counts_fields_of_every_line(tmp_path_factory, text,
                                                     n_fields, block):
    path = tmp_path_factory.mktemp("s") / "d.csv"
    path.write_bytes(text.encode())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_csv, "BLOCK_BYTES", block)
        found = _csv._simple_structure(str(path), ",", n_fields)
    assert found == _structure_oracle(text, n_fields)
