"""read_ranking_csv: columns, numbers, groups, labels, errors with lines."""

import csv
import io
import os
import pathlib
import pickle
import re
import signal
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skpapk.io import CSVFormatError, _csv, _ranking_csv, read_ranking_csv
from skpapk.io._csv import _rows


def write(tmp_path, text, name="d.csv"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return str(path)


@pytest.fixture(params=[1 << 24, 7], ids=["block", "7-byte-blocks"])
def blocks(request, monkeypatch):
    """Check the structure with the real block size and with tiny blocks, so
    that lines straddle the block boundaries (and read the lines strictly
    in tiny pieces, joined again)."""
    monkeypatch.setattr(_csv, "BLOCK_BYTES", request.param)
    monkeypatch.setattr(_csv, "_LINE_PIECE", request.param)


def test_a_binary_file_without_line_ends_fails_at_its_first_piece(
        tmp_path, monkeypatch):
    # /dev/zero-like files (a 1 GB disk image, /proc/self/pagemap) were read
    # whole as one line, bytes and text, before the NUL byte was named
    monkeypatch.setattr(_csv, "_LINE_PIECE", 64)
    path = write(tmp_path, b"user,label,x" + b"\0" * 100_000)
    reads = []
    real_open = open

    class Counted:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def __getattr__(self, name):
            return getattr(self.handle, name)

        def readline(self, size=-1):
            reads.append(size)
            return self.handle.readline(size)

    def counting_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        return Counted(handle) if os.fspath(file) == path else handle

    monkeypatch.setattr("builtins.open", counting_open)
    with pytest.raises(CSVFormatError, match="line 1: a NUL byte"):
        list(_rows(path, ","))
    assert 0 < len(reads) <= 2


@pytest.fixture(params=["serial", "parallel"])
def chunks(request, monkeypatch):
    """Read as pandas reads a small file, and as it reads a large one: in
    chunks on several threads (see :func:`_parallel_reads`), so that groups,
    labels, bad cells and bad lines are found across chunk boundaries."""
    if request.param == "parallel" and not _parallel_reads(monkeypatch):
        pytest.skip("this pandas reads every file in one thread")


@pytest.fixture(params=[1 << 22, 7], ids=["one-copy", "column-by-column"])
def copies(request, monkeypatch):
    """Copy the features into X at once, and a column at a time (as for a long
    file), converting columns of text either way."""
    monkeypatch.setattr(_ranking_csv, "COPY_CELLS", request.param)


def _big_text(n=2500):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    users = rng.integers(0, 37, n)
    labels = rng.integers(0, 2, n)
    lines = ["id,user,name,label,a,b"]
    lines += [f"{i},u{u:02d},item {i},{t},{float(x[0])!r},{float(x[1])!r}"
              for i, (u, t, x) in enumerate(zip(users, labels, X))]
    return "\n".join(lines) + "\n", X, users, labels


def test_values_groups_and_default_features(tmp_path, blocks, chunks, copies):
    text, X, users, labels = _big_text(5500)
    path = write(tmp_path, text)
    data = read_ranking_csv(path, group_col="user", label_col="label")
    assert sorted(data) == ["X", "feature_names", "groups", "header",
                            "id_like_columns", "labels", "path",
                            "skipped_columns"]
    assert data.feature_names == ["id", "a", "b"]
    assert data.skipped_columns == ["name"]
    assert data.id_like_columns == ["id"]  # integers, one per row
    assert data.header == ["id", "user", "name", "label", "a", "b"]
    assert data.path == path
    np.testing.assert_array_equal(data.X[:, 1:], X)  # exact: repr round trip
    np.testing.assert_array_equal(data.X[:, 0], np.arange(len(X)))
    assert data.X.dtype == np.float64 and data.X.flags.f_contiguous
    assert data.groups.dtype == object and data.labels.dtype == object
    np.testing.assert_array_equal(data.groups, [f"u{u:02d}" for u in users])
    np.testing.assert_array_equal(data.labels, labels.astype(str))
    data = read_ranking_csv(path, group_col="user", label_col="label",
                            ignore_cols=["id"])
    assert data.feature_names == ["a", "b"] and data.id_like_columns == []
    data = read_ranking_csv(path, group_col="user", label_col="label",
                            features=("b",))
    assert data.X.shape == (len(X), 1) and data.feature_names == ["b"]
    assert data.skipped_columns == []


def test_numbers_are_parsed_exactly(tmp_path):
    # pandas' default parser ("high") may be off by one ulp; read_ranking_csv
    # reads the nearest float64, as Python's float does
    values = [0.1 + 0.2, 1 / 3, 2.2250738585072014e-308, 5e-324,
              1.7976931348623157e308, 123456789.12345679, -0.0]
    rng = np.random.default_rng(1)
    values += rng.normal(size=200).tolist() + (10.0 ** rng.uniform(
        -300, 300, 200)).tolist()
    text = "g,a\n" + "".join(f"u,{v!r}\n" for v in values)
    data = read_ranking_csv(write(tmp_path, text), group_col="g")
    assert data.X[:, 0].tolist() == values
    assert np.signbit(data.X[6, 0])


def test_labels_are_text_and_may_take_any_number_of_values(tmp_path):
    # which label is relevant is the caller's choice: 1 and 1.0 stay apart
    path = write(tmp_path, "g,label,a\nu, 1,0.5\nu,1.0,1\nv,5,2\nv,yes,3\n")
    data = read_ranking_csv(path, group_col="g", label_col="label")
    assert data.labels.tolist() == ["1", "1.0", "5", "yes"]


def test_text_cells_are_stripped_and_blank_lines_skipped(tmp_path):
    path = write(tmp_path, "group,label,x,y\n a ,yes, 0.5,2\n\nb,no ,1e-3,-1\n"
                           "a,no,7,0\n")
    data = read_ranking_csv(path, group_col="group", label_col="label")
    assert data.groups.tolist() == ["a", "b", "a"]
    assert data.labels.tolist() == ["yes", "no", "no"]
    np.testing.assert_array_equal(data.X, [[0.5, 2], [1e-3, -1], [7, 0]])


def test_only_ascii_blanks_are_stripped(tmp_path, chunks):
    # str.strip() took a non-breaking space (U+00A0) and other Unicode spaces
    # off: "\u00a0a" and "a" were silently one group
    rows = ["\u00a0a,1,1,0.5", "a,1\u00a0,2,1", "\u2003a ,\t1,3,2"] * 3
    path = write(tmp_path, "g,y,f\u00a0,h \t\n" + "\n".join(rows) + "\n")
    data = read_ranking_csv(path, group_col="g", label_col="y")
    assert data.groups.tolist() == ["\u00a0a", "a", "\u2003a"] * 3
    assert data.labels.tolist() == ["1", "1\u00a0", "1"] * 3
    assert data.header == ["g", "y", "f\u00a0", "h"]
    assert data.feature_names == ["f\u00a0", "h"]
    with pytest.raises(CSVFormatError, match="has no column 'f'"):
        read_ranking_csv(path, group_col="g", features=["f"])


@pytest.mark.parametrize("cell", ["\u00a01", "1\u00a0", "\u20031"])
@pytest.mark.parametrize("other", ["2", "x"])  # the column: numbers, or text
def test_a_number_with_a_unicode_space_is_not_a_number(tmp_path, chunks, copies,
                                                       cell, other):
    # as pandas' parser (it takes ASCII spaces, tabs, \v and \f off numbers)
    rows = [f"u,{i}" for i in range(20)]
    rows[3], rows[9], rows[15] = "u, 1\t", "u,\x0c1\x0b", f"u,{cell}"
    rows[18] = f"u,{other}"
    path = write(tmp_path, "g,f\n" + "\n".join(rows) + "\n")
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="g", features=["f"])
    assert f"line 17: feature column 'f' holds {cell!r}, not a number" in str(
        exc.value)
    rows[15] = "u,1"
    data = read_ranking_csv(write(tmp_path, "g,f\n" + "\n".join(rows[:18])
                                  + "\n"), group_col="g")
    assert data.X[[3, 9, 15], 0].tolist() == [1, 1, 1]


@pytest.mark.parametrize("cell, message", [
    ("abc", "feature column 'b' holds 'abc', not a number; features must be "
            "numeric (fix the value, or leave the column out with features= / "
            "ignore_cols=)."),
    ("", "feature column 'b' holds an empty value; missing values are not "
         "supported (fill them, or leave the column out with features= / "
         "ignore_cols=)."),
    ("nan", "feature column 'b' holds 'nan'; features must be finite numbers "
            "(missing values are not supported)."),
    ("inf", "feature column 'b' holds 'inf'; features must be finite numbers "
            "(fix the value, or leave the column out with features= / "
            "ignore_cols=)."),
    ("-Infinity", "holds '-Infinity'; features must be finite numbers (fix"),
    # a number beyond float64's range: not a missing value
    ("1e400", "feature column 'b' holds '1e400', which is not a finite float64 "
              "number (it overflows: beyond 1.8e308 in magnitude); fix the "
              "value, or leave the column out with features= / ignore_cols=."),
    ("-1e400", "holds '-1e400', which is not a finite float64 number (it "
               "overflows"),
    ("NA", "holds 'NA', not a number"),
    ("1_000", "holds '1_000', not a number"),  # Python's float() reads these,
    ("\uff11", "holds '\uff11', not a number"),  # pandas does not
])
def test_bad_feature_cell_names_line_and_value(tmp_path, chunks, copies, cell,
                                              message):
    rows = [f"g{i % 7},{i % 2},{i},{i / 3}" for i in range(2000)]
    rows[1500] = f"g1,0,1,{cell}"
    rows.insert(10, "")  # a blank line before it: lines are physical
    path = write(tmp_path, "group,label,a,b\n" + "\n".join(rows) + "\n")
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="group", label_col="label")
    assert str(exc.value).startswith(f"{path}, line 1503: ")
    assert message in str(exc.value)
    assert (exc.value.path, exc.value.line, exc.value.column) == (path, 1503, "b")
    assert exc.value.argument is None


def test_a_huge_cell_is_echoed_cut(tmp_path):
    # a 100 kB numeric cell was echoed whole (100 kB on stderr)
    cell = "1" * 100_000 + "x"
    path = write(tmp_path, f"group,label,a\ng1,1,0.5\ng1,0,{cell}\n")
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="group", label_col="label",
                         features=["a"])
    message = str(exc.value)
    assert "line 3: feature column 'a' holds '1111" in message
    assert "(100001 characters)" in message and len(message) < 400


@pytest.mark.parametrize("line_4002, message", [
    ("g1,0,1,2", "line 4002: 4 fields, but the header has 3"),
    ("g1,0", "line 4002: 2 fields, but the header has 3"),  # pandas pads it
    ("g1,0,1", "line 3: feature column 'a' holds 'abc'"),  # no bad line
])
def test_a_structural_problem_is_reported_before_a_bad_cell(
        tmp_path, blocks, chunks, line_4002, message):
    rows = [f"g{i % 7},{i % 2},{i}" for i in range(5000)]
    rows[1] = "g1,0,abc"
    rows[4000] = line_4002
    path = write(tmp_path, "group,label,a\n" + "\n".join(rows) + "\n")
    with pytest.raises(CSVFormatError, match=message):
        read_ranking_csv(path, group_col="group", label_col="label",
                         features=["a"])


def test_blank_lines_and_quoted_newlines(tmp_path):
    rows = [f'g{i % 5},{i % 2},"note\n{i}",{i}' for i in range(3000)]
    rows[2500] = 'g1,0,"x",oops'
    text = ("\n" * 3000 + "group,label,note,a\n" + "\n".join(rows[:1500])
            + "\n" + " \n" * 3000 + "\n".join(rows[1500:]) + "\n" + "\n" * 2000)
    line = 3000 + 1 + 3000 + 3000 + 2000 + 1
    with pytest.raises(CSVFormatError, match=f"line {line}: feature column 'a' "
                                             f"holds 'oops'"):
        read_ranking_csv(write(tmp_path, text), group_col="group",
                         label_col="label", features=["a"])
    rows[2500] = 'g1,0,"x",2500'
    text = "group,label,note,a\n" + "\n".join(rows) + "\n"
    data = read_ranking_csv(write(tmp_path, text), group_col="group",
                            label_col="label", features=["a"])
    np.testing.assert_array_equal(data.X[:, 0], np.arange(3000))


@pytest.mark.parametrize("text, message", [
    ("group,label,a\ng1,1,0.5\n,0,0.2\n", "line 3: empty group id in column "
                                          "'group'; every row needs its group id."),
    ("group,label,a\ng1,1,0.5\ng1, ,0.2\n", "line 3: empty label in column "
                                            "'label'"),
    ("group,label,name\ng1,1,x\ng1,0,y\n", "has no numeric feature column "
                                           "besides 'group' and 'label'; name "
                                           "the features with features=."),
    ("group,label,a\n", "has a header but no data rows."),
])
def test_column_errors(tmp_path, chunks, text, message):
    with pytest.raises(CSVFormatError, match=message.replace("(", "\\(")):
        read_ranking_csv(write(tmp_path, text), group_col="group",
                         label_col="label")


def test_no_numeric_feature_without_label(tmp_path):
    path = write(tmp_path, "group,name\ng1,x\n")
    with pytest.raises(CSVFormatError, match="besides 'group'; name the "
                                             "features with features=\\.$"):
        read_ranking_csv(path, group_col="group")


_ID_NAMES = ["id", "ID", "item_id", "itemid", "userId", "itemID", "movie_ids",
             "key", "index", "item", "users", "product_id", "customerid",
             "session_id", "qid"]
# an unanchored "id$" took "paid" and "valid" for identifiers
_NOT_ID_NAMES = ["paid", "valid", "rapid", "humid", "liquid", "Paid", "VALID",
                 "amount_paid", "fluid", "grid", "avoid", "monkey", "reindex",
                 "n_items"]


@pytest.mark.parametrize("name", _ID_NAMES + _NOT_ID_NAMES)
def test_id_like_column_names(tmp_path, name):
    path = write(tmp_path, f"g,{name},f\nu,3,1\nu,3,2\n")
    data = read_ranking_csv(path, group_col="g")
    assert data.feature_names == [name, "f"]
    assert data.id_like_columns == ([name] if name in _ID_NAMES else [])


def test_no_numeric_feature_names_ignore_cols(tmp_path):
    # the only feature left out by ignore_cols: the message said nothing of it
    path = write(tmp_path, "u,y,f,g,name\nu1,1,0.5,2,x\n")
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="u", label_col="y",
                         ignore_cols=["f", "y", "g", "f"])
    assert str(exc.value) == (
        f"{path} has no numeric feature column besides 'u' and 'y' "
        f"(ignore_cols= leaves out 'f', 'g'); name the features with features=.")
    assert exc.value.with_names({"ignore_cols": "--ignore-cols"}).endswith(
        "(--ignore-cols leaves out 'f', 'g'); name the features with features=.")


def test_a_path_from_the_home_folder(tmp_path, monkeypatch):
    write(tmp_path, "u,label,f\nu1,1,0.5\nu1,0,0.7\n")
    monkeypatch.setenv("HOME", str(tmp_path))
    data = read_ranking_csv("~/d.csv", group_col="u", label_col="label")
    assert data.feature_names == ["f"]


def test_a_mistyped_optional_label_col_warns_of_the_leak(tmp_path):
    # require_label=False and label_col not a column: the real label column
    # became a feature without the warning that label_col=None gives
    path = write(tmp_path, "u,label,f\nu1,1,0.5\nu1,0,0.7\n")
    with pytest.warns(UserWarning, match="label_col='lable' is not a column "
                      "\\(require_label=False\\), so the column 'label' is read "
                      "as a feature"):
        data = read_ranking_csv(path, group_col="u", label_col="lable",
                                require_label=False)
    assert data.feature_names == ["label", "f"]


@pytest.mark.parametrize("name", ["label", "Target", "y"])
def test_without_label_col_a_label_column_is_a_feature_unless_ignored(tmp_path,
                                                                      name):
    # documented, not guessed: every numeric column but the group's is a
    # default feature when label_col is None; a label's name is warned about
    path = write(tmp_path, f"u,{name},f\nu1,1,0.5\nu1,0,0.7\n")
    with pytest.warns(UserWarning, match=f"label_col is None, so the column "
                                         f"'{name}' is read as a feature.*pass "
                                         f"label_col='{name}'"):
        data = read_ranking_csv(path, group_col="u")
    assert data.feature_names == [name, "f"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        data = read_ranking_csv(path, group_col="u", ignore_cols=[name])
        assert data.feature_names == ["f"] and data.labels is None
        # named features, or the labels read: no warning
        assert read_ranking_csv(path, group_col="u", features=[name, "f"]
                                ).feature_names == [name, "f"]
        assert read_ranking_csv(path, group_col="u", label_col=name
                                ).feature_names == ["f"]


def test_missing_columns_and_arguments(tmp_path):
    path = write(tmp_path, "user,label,a,b\nu1,1,0.5,1\n")
    for kwargs, argument, column in [
        (dict(group_col="group", label_col="label"), "group_col", "group"),
        (dict(group_col="user", label_col="rel"), "label_col", "rel"),
        (dict(group_col="user", features=["a", "c"]), "features", "c"),
        (dict(group_col="user", ignore_cols=["c"]), "ignore_cols", "c"),
    ]:
        with pytest.raises(CSVFormatError) as exc:
            read_ranking_csv(path, **kwargs)
        assert str(exc.value) == (
            f"{path} has no column {column!r} (choose it with {argument}=); its "
            f"columns are: user, label, a, b.")
        assert (exc.value.argument, exc.value.column) == (argument, column)
        assert exc.value.line is None
    with pytest.raises(CSVFormatError, match="^group_col= and label_col= both "
                                             "name 'user'; they must be two "
                                             "different columns"):
        read_ranking_csv(path, group_col="user", label_col="user")
    with pytest.raises(CSVFormatError, match="^features= names 'label', which is "
                                             "the group or label column"):
        read_ranking_csv(path, group_col="user", label_col="label",
                         features=["label"])
    with pytest.raises(CSVFormatError, match="^features= names a column twice: "
                                             "\\['a', 'a'\\]"):
        read_ranking_csv(path, group_col="user", label_col="label",
                         features=["a", "a"])
    # a label column named but not required, and absent: no labels
    data = read_ranking_csv(write(tmp_path, "user,a\nu1,0.5\n", "n.csv"),
                            group_col="user", label_col="label",
                            require_label=False)
    assert data.labels is None and data.feature_names == ["a"]
    # present: read
    data = read_ranking_csv(path, group_col="user", label_col="label",
                            require_label=False)
    assert data.labels.tolist() == ["1"]
    # ignore_cols is not used when features are named
    data = read_ranking_csv(path, group_col="user", label_col="label",
                            features=["b"], ignore_cols=["b", "nowhere"])
    assert data.feature_names == ["b"]


def test_many_columns_are_listed_cut(tmp_path):
    header = ",".join(f"c{j}" for j in range(40))
    path = write(tmp_path, header + "\n" + ",".join("1" * 40) + "\n")
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="user")
    assert str(exc.value).endswith("its columns are: " + ", ".join(
        f"c{j}" for j in range(30)) + ", ....")


def test_unused_long_text_is_not_a_feature(tmp_path):
    text = "x" * 100_000
    rows = [f"g{i % 3},{i % 2},{text if i == 5 else 'short'},{i}" for i in range(50)]
    path = write(tmp_path, "group,label,note,a\n" + "\n".join(rows) + "\n")
    data = read_ranking_csv(path, group_col="group", label_col="label")
    assert data.feature_names == ["a"] and data.skipped_columns == ["note"]
    assert data.X.nbytes == 50 * 8


def test_a_path_like_and_the_file_errors(tmp_path):
    path = pathlib.Path(write(tmp_path, "u,a\nu1,0.5\n"))
    data = read_ranking_csv(path, group_col="u")
    assert data.path == str(path) and isinstance(data.path, str)
    with pytest.raises(FileNotFoundError):
        read_ranking_csv(tmp_path / "nope.csv", group_col="u")
    with pytest.raises(IsADirectoryError):
        read_ranking_csv(tmp_path, group_col="u")


def _wide_header(n, duplicates=()):
    names = [f"f{j}" for j in range(n)]
    for j in duplicates:
        names[j + 1] = names[j]
    return names


def test_a_wide_header_names_its_duplicates(tmp_path):
    # the header's check and the choice of columns were quadratic in the
    # number of columns (20,000 columns: 6 s)
    names = _wide_header(20_000, duplicates=[19_990, 123])
    path = write(tmp_path, ",".join(["u", "y", *names]) + "\n"
                 + ",".join(["u1", "1", *["0"] * 20_000]) + "\n")
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="u", label_col="y")
    assert str(exc.value) == (f"{path}, line 1: the header names the column(s) "
                              f"['f123', 'f19990'] more than once; column names "
                              f"must be unique.")


def test_a_wide_file_keeps_the_columns_order(tmp_path):
    n = 20_000
    names = _wide_header(n)
    path = write(tmp_path, ",".join(["u", *names[:10_000], "y", *names[10_000:]])
                 + "\n" + ",".join(["u1", *map(str, range(10_000)), "1",
                                     *map(str, range(10_000, n))]) + "\n")
    data = read_ranking_csv(path, group_col="u", label_col="y",
                            ignore_cols=names[::2])
    assert data.feature_names == names[1::2]
    np.testing.assert_array_equal(data.X, [np.arange(1, n, 2)])
    data = read_ranking_csv(path, group_col="u", label_col="y",
                            features=names[-1:n // 2:-3])
    assert data.feature_names == names[-1:n // 2:-3]
    np.testing.assert_array_equal(data.X, [np.arange(n - 1, n // 2, -3)])


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
    # row names without a name in the header (R's write.table, pandas'
    # to_csv(index_label=False)): pandas reads them as a RangeIndex
    ("u,l,x\n1,u1,1,0.5\n2,u1,0,2\n3,u2,1,3\n", 2, "4 fields, but the header "
                                                    "has 3"),
    ("u,l,x\n0,1,2.5,9\n1,0,3.5,9\n", 2, "4 fields"),  # a name left out
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
    ("a\n1\n", 1, "the header names one column only ('a'); the file needs a "
                  "group, a label and feature columns separated by ',' (see "
                  "delimiter=)."),
    ("a,b,a\n1,2,3\n", 1, "the header names the column(s) ['a'] more than once"),
    (",a,b\n1,2,3\n", 1, "column 1 of the header has no name"),
    ("u,l,x\nu1,1,0.5\nu1,0,caf\xe9\n".encode("latin-1"), 3, "not UTF-8"),
    ("u,l,x\nu1,1,0.5\n".encode("utf-16"), 1,
     "not UTF-8 text but UTF-16 (Excel's 'Unicode Text') (save the file"),
])
def test_structural_errors_name_the_line(tmp_path, blocks, chunks, text, line,
                                        message):
    path = write(tmp_path, text)
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="u", label_col="l", features=["x"])
    assert str(exc.value).startswith(f"{path}, line {line}: ")
    assert message in str(exc.value)
    assert exc.value.line == line and exc.value.path == path


def test_braces_in_the_file_are_text_not_fields(tmp_path):
    # the file's text is a value of the message, never part of its template
    path = write(tmp_path, "u,l,x\nu1,1,{line}{0}{group_col\n")
    with pytest.raises(CSVFormatError, match="holds '\\{line\\}\\{0\\}"
                                             "\\{group_col', not a number"):
        read_ranking_csv(path, group_col="u", label_col="l", features=["x"])
    path = write(tmp_path, "{u},{0}\n1,2\n", "{x}.csv")
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="{group_col}")
    assert str(exc.value).startswith(f"{path} has no column '{{group_col}}' "
                                     f"(choose it with group_col=); its columns "
                                     f"are: {{u}}, {{0}}.")


@pytest.mark.parametrize("text", ["", "\n\n \n"])
def test_empty_file(tmp_path, text):
    path = write(tmp_path, text)
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="u")
    assert str(exc.value) == (f"{path} is empty: it needs a header line naming "
                              f"the columns (e.g. user,label,f1,f2) and one line "
                              f"per row.")
    assert exc.value.line is None


def test_tab_delimiter_tab_only_line_is_a_row_of_empty_values(tmp_path):
    path = write(tmp_path, "u\tl\tx\nu1\t1\t0.5\n\t\t\n")
    with pytest.raises(CSVFormatError, match="line 3: empty group id"):
        read_ranking_csv(path, group_col="u", label_col="l", delimiter="\t")
    path = write(tmp_path, "u\tl\tx\nu1\t1\t0.5\n  \n")
    assert read_ranking_csv(path, group_col="u", label_col="l",
                            delimiter="\t").X.shape == (1, 1)


def test_other_delimiter(tmp_path):
    path = write(tmp_path, "u;l;x\nu1;1;0,5\n")
    with pytest.raises(CSVFormatError, match="holds '0,5', not a number"):
        read_ranking_csv(path, group_col="u", label_col="l", features=["x"],
                         delimiter=";")
    path = write(tmp_path, "u;l;x\nu1;1;0.5\n")
    assert read_ranking_csv(path, group_col="u", label_col="l",
                            delimiter=";").X.tolist() == [[0.5]]
    with pytest.raises(CSVFormatError, match="one column only"):
        read_ranking_csv(path, group_col="u")


# the arguments: checked before the file is opened
@pytest.mark.parametrize("kwargs, error, message", [
    (dict(group_col=1), TypeError, "'group_col' parameter of read_ranking_csv"),
    (dict(group_col=None), TypeError, "'group_col' parameter"),
    (dict(label_col=0), TypeError, "'label_col' parameter"),
    (dict(features=3), TypeError, "'features' parameter"),
    (dict(ignore_cols=3), TypeError, "'ignore_cols' parameter"),
    (dict(ignore_cols=None), TypeError, "'ignore_cols' parameter"),
    (dict(delimiter=b","), TypeError, "'delimiter' parameter"),
    (dict(require_label="yes"), TypeError, "'require_label' parameter"),
    (dict(features=["a", 1]), TypeError, "features must hold column names "
                                         "\\(str\\), got 1 of type int"),
    (dict(ignore_cols=(None,)), TypeError, "ignore_cols must hold column names"),
    (dict(features=[]), ValueError, "features names no column"),
    (dict(delimiter=""), ValueError, "delimiter must be one ASCII character"),
    (dict(delimiter=";;"), ValueError, "got ';;'"),
    (dict(delimiter='"'), ValueError, "other than a quote, a line end or NUL"),
    (dict(delimiter="\n"), ValueError, "delimiter must be one"),
    (dict(delimiter="\u00a7"), ValueError, "delimiter must be one ASCII"),
    # then read as "a NUL byte: this is not a text (CSV) file"
    (dict(delimiter="\0"), ValueError, "other than a quote, a line end or NUL"),
])
def test_arguments_are_validated(tmp_path, kwargs, error, message):
    # the file does not exist: the arguments are checked first
    with pytest.raises(error, match=message):
        read_ranking_csv(tmp_path / "nope.csv", **{"group_col": "u", **kwargs})


def _fifo(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this platform")
    os.mkfifo(tmp_path / "d.csv")
    return str(tmp_path / "d.csv")


def _device(tmp_path):
    if os.name != "posix":
        pytest.skip("a POSIX device")
    return os.devnull


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="no SIGALRM")
@pytest.mark.parametrize("make", [_fifo, _device], ids=["fifo", "device"])
def test_a_pipe_or_device_is_refused_before_it_is_read(tmp_path, make):
    # it gave a bare "OSError: [Errno 22] Invalid argument" (mmap), or waited
    # forever for a writer to open the pipe
    path = make(tmp_path)

    def waited(signum, frame):
        raise AssertionError("read_ranking_csv opened the pipe")

    previous = signal.signal(signal.SIGALRM, waited)
    signal.alarm(5)
    try:
        with pytest.raises(CSVFormatError) as exc:
            read_ranking_csv(path, group_col="u")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert str(exc.value) == (
        f"{path} is not a regular file (a pipe or device): the file is read "
        f"twice, so a stream cannot be; save it to a file first (e.g. zcat "
        f"data.csv.gz > data.csv).")
    assert exc.value.line is None and isinstance(exc.value, ValueError)


def test_a_link_to_a_file_is_read(tmp_path):
    path = write(tmp_path, "u,a\nu1,0.5\n")
    if not hasattr(os, "symlink"):  # pragma: no cover
        pytest.skip("no symbolic links")
    os.symlink(path, tmp_path / "link.csv")
    assert read_ranking_csv(tmp_path / "link.csv", group_col="u").X.tolist() == [
        [0.5]]


@pytest.mark.parametrize("wrap", [list, tuple, np.array, pd.Index, pd.Series],
                         ids=["list", "tuple", "array", "Index", "Series"])
def test_column_names_may_be_any_list_like(tmp_path, wrap):
    # df.columns[2:] or a numpy array of str were refused
    path = write(tmp_path, "u,y,a,b,c\nu1,1,0.5,1,2\n")
    data = read_ranking_csv(path, group_col="u", label_col="y",
                            features=wrap(["c", "a"]))
    assert data.feature_names == ["c", "a"]
    assert all(type(name) is str for name in data.feature_names)
    np.testing.assert_array_equal(data.X, [[2, 0.5]])
    data = read_ranking_csv(path, group_col="u", label_col="y",
                            ignore_cols=wrap(["b"]))
    assert data.feature_names == ["a", "c"]
    with pytest.raises(CSVFormatError, match="^features= names a column twice"):
        read_ranking_csv(path, group_col="u", features=wrap(["a", "a"]))
    with pytest.raises(TypeError, match="features must hold column names "
                                        "\\(str\\), got "):
        read_ranking_csv(path, group_col="u", features=wrap(["a", None]))
    with pytest.raises(ValueError, match="features names no column"):
        read_ranking_csv(path, group_col="u", features=wrap([]))
    frame = pd.DataFrame(columns=["u", "y", "a", "b"])
    data = read_ranking_csv(path, group_col="u", ignore_cols={"y", "c"},
                            features=None)
    assert data.feature_names == ["a", "b"]
    assert read_ranking_csv(path, group_col="u", label_col="y",
                            features=frame.columns[2:]).feature_names == ["a", "b"]


@pytest.mark.parametrize("argument", ["features", "ignore_cols"])
@pytest.mark.parametrize("value", ["f1", "f1,f2"])
def test_a_bare_str_of_column_names_is_refused(tmp_path, argument, value):
    with pytest.raises(TypeError) as exc:
        read_ranking_csv(tmp_path / "nope.csv", group_col="u",
                         **{argument: value})
    assert str(exc.value) == (
        f"{argument} must be a list of column names, not a str: write "
        f"{argument}=[{value!r}] for one column (or ['f1', 'f2'] for several).")


@pytest.mark.parametrize("value, message", [
    ({"a", "b"}, "features must be ordered (a list, tuple, array or pandas "
                 "Index), not a set"),
    (np.array([["a", "b"]]), "features must be one-dimensional (a list of "
                             "column names); got an array of shape (1, 2)."),
    (np.array("a"), "features must be one-dimensional"),
])
def test_features_must_be_an_ordered_list(tmp_path, value, message):
    with pytest.raises(TypeError, match=re.escape(message)):
        read_ranking_csv(tmp_path / "nope.csv", group_col="u", features=value)


def test_path_is_validated(tmp_path):
    with pytest.raises(TypeError, match="'path' parameter of read_ranking_csv"):
        read_ranking_csv(3, group_col="u")
    with pytest.raises(TypeError):
        read_ranking_csv(str(tmp_path / "x.csv"), "u")  # keyword-only


def test_with_names_names_the_arguments_as_the_caller_does(tmp_path):
    path = write(tmp_path, "user,label,a\nu1,1,x\n")
    options = {"group_col": "--group-col", "label_col": "--label-col",
               "features": "--features", "ignore_cols": "--ignore-cols",
               "delimiter": "--delimiter"}
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="group")
    error = exc.value
    assert error.with_names(options) == (
        f"{path} has no column 'group' (choose it with --group-col); its "
        f"columns are: user, label, a.")
    assert error.with_names({}) == error.with_names() == str(error)
    assert error.with_names(options, hint="the model has it") == (
        f"{path} has no column 'group' (the model has it); its columns are: "
        f"user, label, a.")
    assert error.with_names({"group_col": "GROUP"},
                            hint="set {group_col}") == (
        f"{path} has no column 'group' (set GROUP); its columns are: user, "
        f"label, a.")
    assert isinstance(error, ValueError) and error.args == (str(error),)
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="user", label_col="label",
                         features=["a"])
    error = exc.value
    assert error.with_names(options).endswith(
        "(fix the value, or leave the column out with --features / "
        "--ignore-cols).")
    assert error.with_names(options, hint="fit again without it").endswith(
        "(fix the value, or fit again without it).")  # columns of a model
    assert error.with_names({"features": "FEATURES"}).endswith(
        "leave the column out with FEATURES / ignore_cols=).")
    path = write(tmp_path, "a\n1\n")
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="user")
    assert exc.value.with_names(options).endswith(
        "separated by ',' (see --delimiter).")


def test_the_error_pickles(tmp_path):
    path = write(tmp_path, "user,a\nu1,x\n")
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, group_col="user", features=["a"])
    error = pickle.loads(pickle.dumps(exc.value))
    assert type(error) is CSVFormatError
    assert str(error) == str(exc.value) and error.args == exc.value.args
    assert (error.path, error.line, error.column) == (path, 2, "a")
    assert error.with_names({"features": "--features"}) == exc.value.with_names(
        {"features": "--features"})


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


def _parallel_reads(patch):
    """Make pandas read even a tiny file in chunks on two threads, as it reads
    a file of 5 MB or more (see the ``chunks`` fixture); False where this
    pandas reads every file in one thread."""
    from pandas.io.parsers import readers

    if not hasattr(readers, "_PARALLEL_READ_MIN_BYTES"):
        return False
    patch.setattr(readers, "_PARALLEL_READ_MIN_BYTES", 64)
    patch.setattr(readers, "_PARALLEL_MIN_CHUNK_ROWS", 3)
    patch.setattr(readers, "_PARALLEL_CHUNK_BYTES", 64)
    patch.setattr(readers, "_default_n_workers", lambda: 2)
    return True


# A line of the file: its fields (group, label, x, item), one dropped or one
# added by the fault; None: a blank line.
_line = st.one_of(
    st.none(),
    st.tuples(st.sampled_from(["ok", "ok", "ok", "drop", "add"]),
              st.integers(0, 3), st.sampled_from(["", "i", "j9"])))


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(_line, min_size=1, max_size=30), parallel=st.booleans())
def test_every_line_with_a_wrong_number_of_fields_is_found(tmp_path_factory,
                                                           lines, parallel):
    # pandas pads a short line and reads the extra field of the first line as
    # an index: the reader must still name the first line whose number of
    # fields is wrong, wherever it lies (in pandas' chunks too), and read the
    # other files exactly; the last column, an item, may be empty
    text, first_bad, rows = ["g,l,x,item"], None, []
    for i, line in enumerate(lines):
        if line is None:
            text.append("")
            continue
        fault, value, item = line
        fields = [f"u{value % 2}", str(value % 2), f"{value}.5", item]
        if fault == "drop":
            del fields[-1 - value % 2]
        elif fault == "add":
            fields.insert(value % 4, str(i))  # a row number: a RangeIndex
        else:
            rows.append(value + 0.5)
        if fault != "ok" and first_bad is None:
            first_bad = i + 2
        text.append(",".join(fields))
    path = tmp_path_factory.mktemp("f") / "d.csv"
    path.write_text("\n".join(text) + "\n")
    with pytest.MonkeyPatch.context() as patch:
        if parallel and not _parallel_reads(patch):
            return
        if first_bad is not None:
            with pytest.raises(CSVFormatError, match="fields, but the header "
                                                     "has 4") as exc:
                read_ranking_csv(path, group_col="g", label_col="l",
                                 features=["x"])
            assert exc.value.line == first_bad
        elif not rows:
            with pytest.raises(CSVFormatError, match="no data rows"):
                read_ranking_csv(path, group_col="g", label_col="l",
                                 features=["x"])
        else:
            data = read_ranking_csv(path, group_col="g", label_col="l",
                                    features=["x"])
            np.testing.assert_array_equal(data.X[:, 0], rows)


@pytest.mark.parametrize("cell, expected", [
    ("18446744073709551616", 2.0**64),  # beyond uint64: pandas keeps text
    ("abc", "line 3: feature column 'self' holds 'abc', not a number"),
])
def test_a_column_named_self(tmp_path, copies, cell, expected):
    # a column name is never a keyword of a pandas method (assign(self=))
    path = write(tmp_path, f"user,label,self,f\nu1,1,5,2\nu1,0,{cell},3\n")
    if isinstance(expected, str):
        with pytest.raises(CSVFormatError, match=expected):
            read_ranking_csv(path, group_col="user", label_col="label")
    else:
        data = read_ranking_csv(path, group_col="user", label_col="label")
        np.testing.assert_array_equal(data.X, [[5, 2], [expected, 3]])


@pytest.mark.parametrize("faults, line, message", [
    ({4: "g1,,1", 8: ",1,1"}, 5, "empty label"),
    ({4: ",1,1", 8: "g1,,1"}, 5, "empty group id"),
    ({4: "g1,1,x", 8: ",1,1"}, 5, "holds 'x', not a number"),
    ({4: "g1,,1", 2: "g1,1,x"}, 3, "holds 'x', not a number"),
    ({4: ",,x"}, 5, "empty group id"),  # in a row: group, label, features
    ({4: "g1,,x"}, 5, "empty label"),
])
def test_the_first_problem_of_the_file_is_reported(tmp_path, chunks, copies,
                                                   faults, line, message):
    rows = [f"g{i % 3},{i % 2},{i}" for i in range(40)]
    for i, text in faults.items():
        rows[i - 1] = text
    path = write(tmp_path, "group,label,a\n" + "\n".join(rows) + "\n")
    with pytest.raises(CSVFormatError, match=message) as exc:
        read_ranking_csv(path, group_col="group", label_col="label")
    assert exc.value.line == line


@pytest.mark.parametrize("text, line, message", [
    # a stray quote after a record of two lines closed: its parity kept the
    # record open to the end of the file ("line 2: ... never closed")
    ('g,l,f\n"a\nb",1,2"\nc,0,3\n', 3, "a quote ... inside an unquoted field"),
    ('g,l,f\n"a\nb"x",1,2\nc,0,3\n', 3, "text after the closing quote"),
    ('g,l,f\n"a\nb,1,2\nc,0,3\n', 2, "this quoted field is never closed"),
])
def test_a_stray_quote_after_a_record_of_several_lines_is_named(tmp_path, text,
                                                                line, message):
    path = tmp_path / "f.csv"
    path.write_bytes(text.encode())
    with pytest.raises(CSVFormatError, match=f"line {line}: {message}"):
        read_ranking_csv(path, group_col="g", label_col="l")


@pytest.mark.parametrize("closed", [True, False])
@pytest.mark.parametrize("n_lines", [10, 1000])
def test_a_long_quoted_field_is_tokenized_once_per_closing_quote(
        tmp_path, monkeypatch, closed, n_lines):
    # every line with a quote re-joined and re-tokenized the whole record:
    # quadratic in the lines of a quoted field ("" on each line: 176 KB took
    # 37 s); a line of paired quotes cannot close the field
    calls = []
    tokens = _csv._tokens
    monkeypatch.setattr(_csv, "_tokens", lambda *a: calls.append(1) or tokens(*a))
    path = tmp_path / "f.csv"
    end = '",1\n1,1,x,2\n' if closed else ""
    path.write_text('g,l,note,f\n1,0,"' + 'say ""hi""\n' * n_lines + end)
    if closed:
        data = read_ranking_csv(path, group_col="g", label_col="l", features=["f"])
        assert data.X.ravel().tolist() == [1.0, 2.0]
        assert data.groups.tolist() == ["1", "1"]
    else:
        with pytest.raises(CSVFormatError, match="line 2: this quoted field is "
                                                 "never closed"):
            read_ranking_csv(path, group_col="g", label_col="l", features=["f"])
    assert len(calls) <= 4  # the record's first line and its closing line


def test_a_utf16_file_without_a_byte_order_mark_is_named(tmp_path):
    # "a NUL byte: this is not a text (CSV) file"
    path = tmp_path / "f.csv"
    path.write_bytes("g,l,f1\na,1,0.5\n".encode("utf-16-le"))
    with pytest.raises(CSVFormatError, match="UTF-16 file without a byte order "
                                             "mark.*save the file as UTF-8 CSV"):
        read_ranking_csv(path, group_col="g", label_col="l")


@pytest.mark.parametrize("middle, line", [(" \t \n" * 5, None), ("\n" * 3, None),
                                          ("\n \n x \n", 5)])
def test_blank_lines_of_a_few_columns_of_a_wide_file(tmp_path, middle, line):
    # the few-columns path counts every line's fields (a Python step per
    # blank line before: 1,000,000 blank lines took 22 s); a line of another
    # number of fields that is not blank is named
    header = ",".join(["g", "l", "f"] + [f"c{i}" for i in range(7)])
    path = tmp_path / "f.csv"
    path.write_text(f"{header}\n1,1,2{',0' * 7}\n{middle}1,0,3{',0' * 7}\n")
    if line is None:
        data = read_ranking_csv(path, group_col="g", label_col="l", features=["f"])
        assert data.X.ravel().tolist() == [2.0, 3.0]
    else:
        with pytest.raises(CSVFormatError, match=f"line {line}: 1 field, but the "
                                                 f"header has 10"):
            read_ranking_csv(path, group_col="g", label_col="l", features=["f"])


def test_the_file_is_read_not_memory_mapped(tmp_path, monkeypatch):
    # (security review) a memory-mapped file that another program cut while
    # it was read killed the process with SIGBUS, no exception; read in
    # blocks, a cut file is an error of the reader at worst
    import mmap

    class Refused(mmap.mmap):  # a type still: pandas checks isinstance
        def __new__(cls, *args, **kwargs):
            raise AssertionError("the file was memory-mapped")

    monkeypatch.setattr(mmap, "mmap", Refused)
    header = ",".join(["g", "l", "f"] + [f"c{i}" for i in range(7)])
    path = tmp_path / "f.csv"
    path.write_text(f"{header}\n1,1,2{',0' * 7}\r\n1,0,3{',0' * 7}\n")
    for features in (None, ["f"]):  # the whole file, and a few columns of it
        data = read_ranking_csv(path, group_col="g", label_col="l",
                                features=features)
        assert data.X[:, data.feature_names.index("f")].tolist() == [2.0, 3.0]


def test_quoted_fields_over_many_lines_are_tokenized_from_their_opening_quote(
        tmp_path, monkeypatch):
    # (review) a line that closes a field and opens the next ('","') made
    # the whole record be tokenized again at each line: 8,000 lines, 10 s
    seen = []
    tokens = _csv._tokens
    monkeypatch.setattr(_csv, "_tokens",
                        lambda text, *a: seen.append(len(text)) or tokens(text, *a))
    path = tmp_path / "f.csv"
    path.write_text('g,l,f\n1,0,"x\n' + '","\n' * 1000 + '"\n')
    with pytest.raises(CSVFormatError, match="line 2: 1003 fields, but the "
                                             "header has 3"):
        read_ranking_csv(path, group_col="g", label_col="l")
    assert max(seen) < 20  # each line's text alone, not the record so far


@pytest.mark.parametrize("argument", ["group_col", "label_col", "features",
                                      "ignore_cols"])
def test_a_name_in_another_unicode_form_is_named_so(tmp_path, argument):
    # "é" as one character (NFC, as typed) and as "e" + an accent (NFD, as a
    # file may hold it): the names look the same, and the error shows how
    # they differ
    import unicodedata

    nfd = unicodedata.normalize("NFD", "café")
    path = write(tmp_path, f"user,label,{nfd},f\nu1,1,1.0,2.0\nu1,0,2.0,1.0\n")
    kwargs = {"group_col": "user", "label_col": "label"}
    kwargs[argument] = ["café"] if argument in ("features", "ignore_cols") \
        else "café"
    with pytest.raises(CSVFormatError) as exc:
        read_ranking_csv(path, **kwargs)
    assert str(exc.value) == (
        f"{path} has no column 'café'; its column '{nfd}' looks the same, in "
        f"other Unicode characters ('caf\\xe9' in {argument}=, "
        f"'cafe\\u0301' in the file): write the name as the file does, or save "
        f"the file with its names in Unicode's NFC form.")
    kwargs[argument] = [nfd] if argument in ("features", "ignore_cols") else nfd
    assert read_ranking_csv(path, **kwargs).X.shape[0] == 2  # as the file does


@pytest.fixture(scope="module")
def mixed_csv(tmp_path_factory):
    """A long file whose column ``item`` holds integers, then words: pandas
    reads it in pieces of different kinds and warns."""
    n = 300_000
    path = tmp_path_factory.mktemp("mixed") / "f.csv"
    pd.DataFrame({"user": np.arange(n) % 20_000, "label": (np.arange(n) % 3 == 0) * 1,
                  "item": [*range(n // 2), *(f"w{j}" for j in range(n // 2))],
                  "f": np.linspace(0.0, 1.0, n)}).to_csv(path, index=False)
    with pytest.warns(pd.errors.DtypeWarning, match="mixed types"):  # premise
        pd.read_csv(path)
    return path


def test_a_column_left_out_is_not_warned_of(mixed_csv):
    # (review) the reader hid pandas' DtypeWarning with catch_warnings, which
    # is not thread-safe; a column left out is now read as text
    data = read_ranking_csv(mixed_csv, group_col="user", label_col="label",
                            ignore_cols=["item"])
    assert data.feature_names == ["f"] and data.X.shape == (300_000, 1)


@pytest.mark.parametrize("action", ["default", "error"])
def test_pandas_mixed_kinds_warning_reaches_the_caller_or_rereads(mixed_csv,
                                                                  action):
    # a column neither read nor left out by name: pandas' warning reaches
    # the caller; where warnings are errors, the file is read in one piece
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter(action, pd.errors.DtypeWarning)
        data = read_ranking_csv(mixed_csv, group_col="user", label_col="label",
                                features=["f"])
    assert [w.category for w in caught] == (
        [pd.errors.DtypeWarning] if action == "default" else [])
    np.testing.assert_array_equal(data.X[:, 0], np.linspace(0.0, 1.0, 300_000))
    assert data.groups[-1] == str((300_000 - 1) % 20_000)


def _lines_oracle(path, delimiter, wanted):
    """The data rows of a plain file, line by line in Python: the header is
    the first line that is not blank (only spaces, tabs and carriage
    returns, but for a tab-delimited file, where a tab-only line is a row)."""
    blank = " \r" if delimiter == "\t" else " \t\r"
    cells, i = {}, -1
    with open(path, "rb") as handle:
        for raw in handle:
            text = raw.decode("utf-8-sig" if i < 0 else "utf-8").rstrip("\r\n")
            if text.strip(blank):
                if i in wanted:
                    cells[i] = text.split(delimiter)
                i += 1
    return cells


@pytest.mark.parametrize("block", [1 << 24, 7, 1])
@pytest.mark.parametrize("delimiter", [",", "\t"])
@pytest.mark.parametrize("seed", range(6))
def test_plain_lines_are_the_rows_of_a_line_by_line_reading(
        tmp_path, monkeypatch, seed, delimiter, block):
    # (speed) recommend's rows as written were read line by line in Python:
    # 1.3 s of its 4.7 s on a million rows
    monkeypatch.setattr(_csv, "BLOCK_BYTES", block)
    rng = np.random.default_rng(seed)
    end = "\r\n" if seed % 2 else "\n"
    blanks = ["", " ", "\t", " \t "] if delimiter == "," else ["", " "]
    blanks += ["\r"] * (end == "\n")  # "\r\r\n" is not plain
    header = "user" + delimiter + "label" + delimiter + "x"
    # a byte order mark before a blank first line, or before the header
    lines = ["\ufeff", header] if seed % 3 == 1 else ["\ufeff" + header]
    for r in range(int(rng.integers(0, 40))):
        if rng.random() < 0.2:
            lines.append(str(rng.choice(blanks)))
        cells = [" " * int(rng.integers(0, 2)) + f"u{r % 3}", str(r % 2),
                 " " * int(rng.integers(0, 2)) + str(r)]  # rows that start blank
        lines.append(delimiter.join(cells))
    text = end.join(lines) + (end if seed % 3 else "")
    path = tmp_path / "d.csv"
    path.write_bytes(text.encode("utf-8"))
    assert _csv._is_plain(str(path))
    n_rows = sum(1 for line in lines if line.strip(
        " \r\ufeff" if delimiter == "\t" else " \t\r\ufeff")) - 1
    for wanted in ({0}, set(range(n_rows)), set(range(0, n_rows, 3)),
                   {n_rows - 1, n_rows + 5}, set()):
        assert _csv._plain_lines(str(path), delimiter, wanted) == _lines_oracle(
            str(path), delimiter, wanted)
