"""Reading CSV files: columns, numbers, groups, labels, errors with lines."""

import threading

import numpy as np
import pytest

from skpapk.cli import _csv
from skpapk.cli._csv import read_csv, read_rows
from skpapk.cli._output import CLIError


def write(tmp_path, text, name="d.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture(params=[1 << 24, 1], ids=["one-chunk", "tiny-chunks"])
def chunks(request, monkeypatch):
    """Also read with chunks of 1000 rows (the smallest), so that errors and
    codes are found across chunk boundaries."""
    monkeypatch.setattr(_csv, "CHUNK_BYTES", request.param)


@pytest.fixture(params=["scan-first", "scan-midway", "scan-last"])
def scan_timing(request, monkeypatch):
    """When the structural scan (a thread beside the parse) ends: before the
    first chunk is parsed, after the third (the chunks parsed before it wait
    in a list), or after the last. Use with ``chunks``."""
    if request.param == "scan-first":
        return request.param
    parsed, go = [0], threading.Event()
    scan_csv, features = _csv.scan_csv, _csv._features
    result = _csv._ScanThread.result

    def waited_result(self):  # the parse waits for the scan: let it end
        go.set()
        return result(self)

    def counted_features(*args, **kwargs):
        features(*args, **kwargs)
        parsed[0] += 1
        if parsed[0] == 3:
            go.set()

    def late_scan(*args, **kwargs):
        scanned = scan_csv(*args, **kwargs)
        if request.param == "scan-midway":
            go.wait(timeout=30)
        else:
            threading.Event().wait(0.3)
        return scanned

    monkeypatch.setattr(_csv, "scan_csv", late_scan)
    monkeypatch.setattr(_csv, "_features", counted_features)
    monkeypatch.setattr(_csv._ScanThread, "result", waited_result)
    return request.param


def _big_text(n=2500):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    users = rng.integers(0, 37, n)
    labels = rng.integers(0, 2, n)
    lines = ["id,user,name,label,a,b"]
    lines += [f"{i},u{u:02d},item {i},{t},{float(x[0])!r},{float(x[1])!r}"
              for i, (u, t, x) in enumerate(zip(users, labels, X))]
    return "\n".join(lines) + "\n", X, users, labels


def test_values_codes_and_default_features(tmp_path, chunks, scan_timing):
    text, X, users, labels = _big_text(5500)
    data = read_csv(write(tmp_path, text), group_col="user", label_col="label")
    assert data.feature_cols == ["id", "a", "b"] and data.skipped_cols == ["name"]
    np.testing.assert_array_equal(data.X[:, 1:], X)  # exact: repr round trip
    np.testing.assert_array_equal(data.X[:, 0], np.arange(len(X)))
    assert data.X.dtype == np.float64
    # groups: codes in the sorted order of the ids
    names = np.array([f"u{u:02d}" for u in users])
    assert data.group_labels.tolist() == sorted(set(names.tolist()))
    np.testing.assert_array_equal(data.group_labels[data.group_codes], names)
    values = np.asarray(data.label_values)[data.label_codes]
    np.testing.assert_array_equal(values, labels.astype(str))
    data = read_csv(write(tmp_path, text), group_col="user", label_col="label",
                    ignore=["id"])
    assert data.feature_cols == ["a", "b"]
    data = read_csv(write(tmp_path, text), group_col="user", label_col="label",
                    features=["b"])
    assert data.X.shape == (len(X), 1)


def test_text_cells_are_stripped_and_blank_lines_skipped(tmp_path):
    path = write(tmp_path, "group,label,x,y\n a ,yes, 0.5,2\n\nb,no ,1e-3,-1\n"
                           "a,no,7,0\n")
    data = read_csv(path, group_col="group", label_col="label")
    assert data.group_labels.tolist() == ["a", "b"]
    assert data.group_codes.tolist() == [0, 1, 0]
    assert data.label_values == ["yes", "no"]
    np.testing.assert_array_equal(data.X, [[0.5, 2], [1e-3, -1], [7, 0]])
    assert data.row_lines.tolist() == [2, 4, 5]


@pytest.mark.parametrize("cell, message", [
    ("abc", "feature column 'b' holds 'abc', not a number"),
    ("", "feature column 'b' holds an empty value"),
    ("nan", "feature column 'b' holds 'nan'; features must be finite"),
    ("inf", "holds 'inf'; features must be finite"),
    ("1e400", "holds '1e400'; features must be finite"),
    ("NA", "holds 'NA', not a number"),
])
def test_bad_feature_cell_names_line_and_value(tmp_path, chunks, cell, message):
    # the bad cell is on line 1503, past the first chunk of 1000 rows
    rows = [f"g{i % 7},{i % 2},{i},{i / 3}" for i in range(2000)]
    rows[1500] = f"g1,0,1,{cell}"
    rows.insert(10, "")  # a blank line before it: lines are physical
    path = write(tmp_path, "group,label,a,b\n" + "\n".join(rows) + "\n")
    with pytest.raises(CLIError) as exc:
        read_csv(path, group_col="group", label_col="label")
    assert ", line 1503: " in str(exc.value)
    assert message in str(exc.value)


def test_a_structural_problem_is_reported_before_a_bad_cell(tmp_path, chunks,
                                                          scan_timing):
    # the parse meets the bad cell (line 3) long before the scan meets the
    # ragged row (line 4002): the structural problem is the one reported, as
    # when the scan ran first
    rows = [f"g{i % 7},{i % 2},{i}" for i in range(5000)]
    rows[1] = "g1,0,abc"
    rows[4000] = "g1,0,1,2"
    path = write(tmp_path, "group,label,a\n" + "\n".join(rows) + "\n")
    with pytest.raises(CLIError, match="line 4002: 4 fields, but the header has 3"):
        read_csv(path, group_col="group", label_col="label", features=["a"])
    rows[4000] = "g1,0,1"
    path = write(tmp_path, "group,label,a\n" + "\n".join(rows) + "\n")
    with pytest.raises(CLIError, match="line 3: feature column 'a' holds 'abc'"):
        read_csv(path, group_col="group", label_col="label", features=["a"])


def test_blocks_of_blank_lines_and_quoted_newlines(tmp_path, chunks):
    # the file is parsed in blocks of whole rows: runs of blank lines longer
    # than a block, and quoted fields holding newlines, across block ends
    rows = [f'g{i % 5},{i % 2},"note\n{i}",{i}' for i in range(3000)]
    text = ("\n" * 3000 + "group,label,note,a\n" + "\n".join(rows[:1500])
            + "\n" + " \n" * 3000 + "\n".join(rows[1500:]) + "\n" + "\n" * 2000)
    data = read_csv(write(tmp_path, text), group_col="group", label_col="label",
                    features=["a"])
    np.testing.assert_array_equal(data.X[:, 0], np.arange(3000))
    assert data.row_lines[0] == 3002 and data.row_lines[1500] == 3000 + 2 + 3000 + 3000


def test_line_numbers_count_quoted_newlines(tmp_path):
    path = write(tmp_path, 'group,label,note,x\ng1,1,"two\nlines",0.5\n'
                           'g1,0,"",abc\n')
    with pytest.raises(CLIError, match="line 4: feature column 'x' holds 'abc'"):
        read_csv(path, group_col="group", label_col="label", features=["x"])


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
    # no label column: fine when it is not required
    data = read_csv(write(tmp_path, "user,a\nu1,0.5\n", "n.csv"), group_col="user",
                    label_col="label", require_label=False)
    assert data.label_codes is None and data.feature_cols == ["a"]


def test_unused_long_text_is_not_kept(tmp_path):
    # a 100,000-character cell made the old reader ask for 37 GiB
    text = "x" * 100_000
    rows = [f"g{i % 3},{i % 2},{text if i == 5 else 'short'},{i}" for i in range(50)]
    path = write(tmp_path, "group,label,note,a\n" + "\n".join(rows) + "\n")
    data = read_csv(path, group_col="group", label_col="label")
    assert data.feature_cols == ["a"] and data.skipped_cols == ["note"]
    assert data.X.nbytes == 50 * 8


def test_read_rows_returns_the_cells_as_written(tmp_path, chunks):
    text, X, users, labels = _big_text(3000)
    path = write(tmp_path, text)
    data = read_csv(path, group_col="user", label_col="label")
    wanted = np.array([2999, 0, 1234, 7])
    rows = read_rows(path, data.header, wanted)
    lines = text.splitlines()[1:]
    assert rows.values.tolist() == [lines[i].split(",") for i in wanted]
    assert read_rows(path, data.header, np.array([], dtype=int)).shape == (0, 6)
