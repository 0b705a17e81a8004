"""The command line's CSV reading: skpapk.io.read_ranking_csv, whose errors
name the options (its own tests: skpapk/io/tests/test_csv.py), and binary
labels."""

import csv
import json
import os

import pytest

from skpapk.cli._csv import OPTIONS, read_csv, split_names
from skpapk.cli._output import CLIError
from skpapk.io import _csv as io_csv
from skpapk.io import read_ranking_csv

#: Python's names of the reader's arguments: never in the command line's text.
PYTHON_NAMES = [f"{name}=" for name in OPTIONS]


def write(tmp_path, text, name="d.csv"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return str(path)


def raises(message, call, *args, **kwargs):
    """The CLIError of ``call``, whose text holds ``message`` and names no
    Python argument."""
    with pytest.raises(CLIError) as exc:
        call(*args, **kwargs)
    text = str(exc.value)
    assert message in text
    assert not any(name in text for name in PYTHON_NAMES), text
    assert exc.value.status == 2
    return text


def test_options_are_the_reader_arguments():
    assert set(OPTIONS) == set(io_csv.ARGUMENTS)


def test_missing_columns_name_the_options(tmp_path):
    path = write(tmp_path, "user,label,a,b\nu1,1,0.5,1\n")
    text = raises("(choose it with --group-col)", read_csv, path,
                  group_col="group", label_col="label")
    assert text == (f"{path} has no column 'group' (choose it with --group-col); "
                    f"its columns are: user, label, a, b.")
    raises("no column 'rel' (choose it with --label-col)", read_csv, path,
           group_col="user", label_col="rel")
    raises("no column 'c' (choose it with --features)", read_csv, path,
           group_col="user", label_col="label", features=["a", "c"])
    raises("no column 'c' (choose it with --ignore-cols)", read_csv, path,
           group_col="user", label_col="label", ignore_cols=["c"])
    raises("--group-col and --label-col both name 'user'; they must be two "
           "different columns.", read_csv, path, group_col="user",
           label_col="user")
    raises("--features names 'label', which is the group or label column",
           read_csv, path, group_col="user", label_col="label",
           features=["label"])
    raises("--features names a column twice: ['a', 'a'].", read_csv, path,
           group_col="user", label_col="label", features=["a", "a"])
    path = write(tmp_path, "user,label,name\nu1,1,x\n")
    raises("no numeric feature column besides 'user' and 'label'; name the "
           "features with --features.", read_csv, path, group_col="user",
           label_col="label")
    path = write(tmp_path, "user,label,a\nu1,1,0.5\n")
    raises("no numeric feature column besides 'user' and 'label' (--ignore-cols "
           "leaves out 'a'); name the features with --features.", read_csv, path,
           group_col="user", label_col="label", ignore_cols=["a"])


def test_a_model_column_is_not_an_option(tmp_path):
    # score and recommend read the columns of a saved model
    path = write(tmp_path, "user,label,a,b\nu1,1,0.5,1\n")
    text = raises("(the model was trained with it)", read_csv, path,
                  group_col="user", label_col="label", features=["a", "c"],
                  for_model=True)
    assert text == (f"{path} has no column 'c' (the model was trained with it); "
                    f"its columns are: user, label, a, b.")
    assert "choose it" not in text


def test_a_model_column_with_a_bad_cell_is_not_an_option(tmp_path):
    # score and recommend have no --features / --ignore-cols to suggest
    path = write(tmp_path, "user,label,a\nu1,1,0.5\nu1,0,x\n")
    text = raises("(fix the value, or fit the model again without the column "
                  "(skpapk fit --ignore-cols)).", read_csv, path,
                  group_col="user", label_col="label", features=["a"],
                  for_model=True)
    assert "--features" not in text


def test_odd_spaces_in_names(tmp_path):
    # the reader strips spaces and tabs only: --features matches as it does,
    # and a name with other spaces is shown as Python writes it
    path = write(tmp_path, "\u2003user,label,f\u00a0, g\nu1,1,0.5,1\nu1,0,2,3\n")
    text = raises("has no column 'user'", read_csv, path, group_col="user",
                  label_col="label")
    assert text.endswith("its columns are: '\\u2003user', label, 'f\\xa0', g.")
    data = read_csv(path, group_col="\u2003user", label_col="label",
                    features=split_names(["f\u00a0, g "], "--features"))
    assert data.feature_names == ["f\u00a0", "g"]


@pytest.mark.parametrize("cell, message", [
    ("abc", "feature column 'b' holds 'abc', not a number; features must be "
            "numeric (fix the value, or leave the column out with --features / "
            "--ignore-cols)."),
    ("", "feature column 'b' holds an empty value; missing values are not "
         "supported (fill them, or leave the column out with --features / "
         "--ignore-cols)."),
    ("nan", "feature column 'b' holds 'nan'; features must be finite numbers "
            "(missing values are not supported)."),
])
def test_a_bad_feature_cell_names_its_line_and_the_options(tmp_path, cell,
                                                           message):
    rows = [f"g{i % 7},{i % 2},{i},{i / 3}" for i in range(30)]
    rows[20] = f"g1,0,1,{cell}"
    path = write(tmp_path, "group,label,a,b\n" + "\n".join(rows) + "\n")
    text = raises(message, read_csv, path, group_col="group", label_col="label")
    assert text == f"{path}, line 22: {message}"


def test_a_one_column_header_names_the_delimiter_option(tmp_path):
    path = write(tmp_path, "user;label;a\nu1;1;0.5\n")
    text = raises("(see --delimiter)", read_csv, path, group_col="user")
    assert text == (f"{path}, line 1: the header names one column only "
                    f"('user;label;a'); the file needs a group, a label and "
                    f"feature columns separated by ',' (see --delimiter).")
    assert read_csv(path, group_col="user", label_col="label",
                    delimiter=";").X.tolist() == [[0.5]]


@pytest.mark.parametrize("text, message", [
    ("u,l,x\nu1,1,0.5\nu1,0\n", "line 3: 2 fields, but the header has 3"),
    ("", "is empty"),
    ("u,l,x\n", "has a header but no data rows"),
    ("u,l,x\nu1,1,0.5\n,0,1\n", "line 3: empty group id in column 'u'"),
])
def test_file_errors_are_cli_errors(tmp_path, text, message):
    raises(message, read_csv, write(tmp_path, text), group_col="u",
           label_col="l")


def test_no_such_file_or_a_folder(tmp_path):
    raises("no such file", read_csv, str(tmp_path / "nope.csv"), group_col="u")
    raises("is a folder, not a CSV file", read_csv, str(tmp_path),
           group_col="u")


@pytest.mark.skipif(os.name != "posix", reason="a POSIX device")
def test_a_device_is_refused():
    # a pipe too (skpapk/io/tests/test_csv.py); a device does not block
    text = raises("is not a regular file (a pipe or device)", read_csv,
                  os.devnull, group_col="u")
    assert text.startswith(f"{os.devnull} is not a regular file")
    assert "save it to a file first" in text


def test_a_third_label_is_refused_with_its_line(tmp_path):
    rows = [f"g{i % 3},{i % 2},{i}" for i in range(40)]
    rows[25] = "g1,1.0,25"  # 1 written 1.0: the same label
    rows[30] = "g1,2,30"
    rows.insert(5, "")  # lines are physical
    path = write(tmp_path, "group,label,a\n" + "\n".join(rows) + "\n")
    text = raises("must be binary", read_csv, path, group_col="group",
                  label_col="label")
    assert text == (f"{path}: label column 'label' must be binary (two values: "
                    f"relevant or not), but it holds a third value (first seen: "
                    f"'0' on line 2, '1' on line 3, '2' on line 33); threshold "
                    f"it first, e.g. 1 for rating 5 and 0 otherwise.")
    # the library reads the labels as text, whatever their number
    labels = read_ranking_csv(path, group_col="group", label_col="label").labels
    assert (labels[25], labels[30]) == ("1.0", "2")
    rows[31] = "g1,0,30"
    path = write(tmp_path, "group,label,a\n" + "\n".join(rows) + "\n")
    labels = read_csv(path, group_col="group", label_col="label").labels
    assert (labels[25], labels[30]) == ("1.0", "0")


def test_rows_without_labels_are_not_checked(tmp_path):
    path = write(tmp_path, "group,a\ng1,1\n")
    data = read_csv(path, group_col="group", label_col="label",
                    require_label=False, for_model=True)
    assert data.labels is None and data.feature_names == ["a"]


def test_split_names():
    assert split_names(None, "--features") is None
    assert split_names(["a, b", "c", " ,d"], "--features") == ["a", "b", "c", "d"]
    with pytest.raises(CLIError, match="--features ' , ' names no column"):
        split_names([" , "], "--features")


def test_a_name_holding_a_comma_is_quoted_as_in_csv(tmp_path, capsys):
    from skpapk.cli import main

    assert split_names(['"price, eur",f2', ' "a""b" , c'], "--features") == [
        "price, eur", "f2", 'a"b', "c"]
    path = tmp_path / "d.csv"
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["user", "label", "price, eur", "f2"])
        writer.writerows([["u1", i % 2, i, 1.0 / (i + 1)] for i in range(8)])
    out = tmp_path / "m.json"
    # unquoted: two names, and the listing shows which columns there are
    assert main(["fit", str(path), "--group-col", "user", "--features",
                 "price, eur", "--out", str(out)]) == 2
    assert ("has no column 'price' (choose it with --features); its columns "
            "are: user, label, 'price, eur', f2.") in capsys.readouterr().err
    assert main(["fit", str(path), "--group-col", "user", "--features",
                 '"price, eur"', "--alpha", "0.01", "--out", str(out), "-q"]) == 0
    assert json.loads(out.read_text())["feature_cols"] == ["price, eur"]
