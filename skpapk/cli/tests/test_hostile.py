"""The edges of the command line found by hostile inputs: each a clean error
(one line, exit status 2) or a warning, never a traceback."""

import json
import os
import warnings

import pytest

from skpapk.cli import main
from skpapk.cli._main import build_parser

from .conftest import FAST, make_dataset, write_csv

FIT = ["--group-col", "user", "--label-col", "rel"]


def run(args, capsys):
    """``main(args)``: its status (argparse's too), stdout and stderr."""
    try:
        status = main([str(a) for a in args])
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status, out, err, *expected):
    assert status == 2 and out == "", err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("skpapk: error: "), err
    for text in expected:
        assert text in lines[0], lines[0]


def _model(tmp_path, fitted, **changes):
    content = json.loads(fitted[0].read_text())
    for key, value in changes.items():
        if value is None:
            content.pop(key)
        elif key == "scorer":
            content["scorer"].update(value)
        else:
            content[key] = value
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(content))
    return path


@pytest.mark.parametrize("command", ["compare", "score", "recommend"])
def test_a_huge_k_is_a_usage_error(command, dataset, fitted, capsys):
    k = str(10**30)
    args = {"compare": ["compare", "--k", k],
            "score": ["score", dataset[0], "--model", fitted[0], "--k", k],
            "recommend": ["recommend", dataset[0], "--model", fitted[0], "--k", k]}
    status, out, err = run(args[command], capsys)
    assert_one_line_error(status, out, err, "expected a positive integer up to")


@pytest.mark.parametrize("k", [10**30, 1e30, 0, True])
def test_a_huge_k_in_a_model_file_is_refused(k, dataset, fitted, tmp_path, capsys):
    model = _model(tmp_path, fitted, k=k)
    status, out, err = run(["score", dataset[0], "--model", model], capsys)
    assert_one_line_error(status, out, err, "is not a skpapk model file",
                          f"its k, {json.dumps(k)}, is not an integer")


@pytest.mark.parametrize("command", ["compare", "fit"])
@pytest.mark.parametrize("seed", ["-1", str(2**32), "9" * 20, "1.5"])
def test_a_seed_out_of_range_is_a_usage_error(command, seed, dataset, tmp_path,
                                              capsys):
    # numpy's seeds are 0 .. 2**32 - 1: the fit failed with exit status 1
    args = {"compare": ["compare"], "fit": ["fit", dataset[0], *FIT, "--out",
                                            tmp_path / "m.json"]}[command]
    status, out, err = run([*args, "--random-state", seed], capsys)
    assert_one_line_error(status, out, err, "--random-state: expected an integer "
                          "from 0 to 4294967295")
    assert build_parser().parse_args(["compare", "--random-state", str(
        2**32 - 1)]).random_state == 2**32 - 1


@pytest.mark.parametrize("option", ["--features", "--ignore-cols"])
@pytest.mark.parametrize("value", [" , ", ""])
def test_a_column_list_naming_no_column_is_a_usage_error(option, value, dataset,
                                                         tmp_path, capsys):
    # --features ' , ' fitted on 0 features: exit status 1
    status, out, err = run(["fit", dataset[0], *FIT, option, value, "--out",
                            tmp_path / "m.json", *FAST], capsys)
    assert_one_line_error(status, out, err, f"{option} {value!r} names no column")


def test_deeply_nested_json_is_refused(dataset, tmp_path, capsys):
    path = tmp_path / "nested.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    status, out, err = run(["score", dataset[0], "--model", path], capsys)
    assert_one_line_error(status, out, err, "nested too deeply")


@pytest.mark.parametrize("version, expected", [
    (None, '"format_version" is missing'),
    ("1", '"format_version" is "1", not a version'),
    (0, '"format_version" is 0, not a version'),
    (3, "written by a newer skpapk (model format 3"),
])
def test_format_version_messages(version, expected, dataset, fitted, tmp_path,
                                 capsys):
    model = _model(tmp_path, fitted, format_version=version)
    status, out, err = run(["score", dataset[0], "--model", model], capsys)
    assert_one_line_error(status, out, err, expected)
    if version != 3:
        assert "newer" not in err


def test_overflowing_coefficients_are_a_clean_error_without_warning(
        dataset, fitted, tmp_path, capsys):
    model = _model(tmp_path, fitted, scorer={"coef": [1e308] * 5})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a RuntimeWarning would raise here
        status, out, err = run(["score", dataset[0], "--model", model, "-q"],
                               capsys)
    assert_one_line_error(status, out, err, "not finite")


def test_a_huge_numeric_cell_is_echoed_cut(tmp_path, capsys):
    path = write_csv(tmp_path / "huge.csv", ["user", "rel", "a"],
                     [["u1", 1, 0.5], ["u1", 0, "9" * 100_000]])
    status, out, err = run(["fit", path, *FIT, "--out", tmp_path / "m.json"],
                           capsys)
    assert_one_line_error(status, out, err, "line 3: feature column 'a' holds "
                          "'9999", "(100000 characters)")
    assert len(err) < 500


def test_score_names_no_option_it_does_not_have(dataset, fitted, tmp_path,
                                                capsys):
    # a model whose label column is its group column: score has neither
    # --group-col nor --label-col to blame
    model = _model(tmp_path, fitted, label_col="user")
    status, out, err = run(["score", dataset[0], "--model", model], capsys)
    assert_one_line_error(status, out, err, "must be distinct column names")
    assert "--group-col" not in err and "--label-col" not in err


def test_huge_numbers_and_names_in_a_model_file(dataset, fitted, tmp_path,
                                                capsys):
    # a 400-digit intercept was an OverflowError traceback with status 1
    model = _model(tmp_path, fitted)
    content = json.loads(model.read_text())
    content["scorer"]["intercept"] = 10**400
    model.write_text(json.dumps(content))
    status, out, err = run(["score", dataset[0], "--model", model], capsys)
    assert_one_line_error(status, out, err, "finite intercept")
    # feature_names_in (save_ranker's, from a DataFrame) must be feature_cols
    content = json.loads(_model(tmp_path, fitted).read_text())
    for names, ok in ((content["feature_cols"], True),
                      (content["feature_cols"][::-1], False)):
        content["feature_names_in"] = names
        model.write_text(json.dumps(content))
        status, out, err = run(["score", dataset[0], "--model", model], capsys)
        if ok:
            assert status == 0 and "warning" not in err.lower(), err
        else:
            assert_one_line_error(status, out, err, "feature_cols and "
                                  "feature_names_in differ")


def test_an_empty_out_is_refused(dataset, capsys):
    status, out, err = run(["fit", dataset[0], *FIT, "--out", "", *FAST], capsys)
    assert_one_line_error(status, out, err, "--out is empty; give a file name.")


def test_movielens_path_error_names_the_option(tmp_path, capsys):
    status, out, err = run(["compare", "--data", "movielens", "--path",
                            tmp_path / "nowhere", "--no-download", "-q"], capsys)
    assert_one_line_error(status, out, err, "--path")
    assert "path=" not in err and "path argument" not in err


def test_a_method_that_cannot_use_the_rows_names_no_python_parameter(
        tmp_path, capsys):
    # one user of ten rows: the greedy baseline has no held-out rows for its
    # line searches; the library's message asks for validation_fraction
    rows = [["u1", int(i % 3 == 0), i / 10] for i in range(10)]
    path = write_csv(tmp_path / "one.csv", ["user", "rel", "a"], rows)
    status = main(["fit", str(path), *FIT, "--method", "greedy", "--out",
                   str(tmp_path / "m.json"), "-q", *FAST])
    err = capsys.readouterr().err
    assert status == 1 and err.startswith("skpapk: error: Greedy-pAp@k cannot "
                                          "be trained on these rows")
    assert "validation_fraction" not in err and "--methods" not in err
    assert err.endswith("or choose another --method.\n")  # fit's option


def test_an_overflowing_scaler_is_named_not_missing_values(tmp_path, capsys):
    # values near 1e300: StandardScaler's variance is inf, the scaled rows NaN;
    # the error said "Input X contains NaN" over two lines, "give each user
    # more rows"
    X, y, users, items = make_dataset(seed=7)
    X[:, 0] *= 1e300
    rows = [[u, *map(repr, x.tolist()), t] for u, x, t in zip(users, X, y)]
    path = write_csv(tmp_path / "huge.csv", ["user", "f0", "f1", "f2", "f3",
                                             "f4", "rel"], rows)
    status, out, err = run(["compare", "--data", path, *FIT, "--methods",
                            "papk,logreg,hgb", "--scale", "standard", *FAST],
                           capsys)
    assert status == 0 and "winner: hgb" in out
    failed = [line for line in err.splitlines() if "failed:" in line]
    assert len(failed) == 2 and "NaN" not in err and "more rows" not in err
    assert failed[0].endswith("failed: PApKRanker cannot be trained on these "
                              "rows: --scale standard overflowed (the scaled "
                              "features are not finite); use --scale minmax or "
                              "none, or rescale the column(s) of huge values.")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")
def test_an_unwritable_out_is_refused_before_reading(dataset, capsys):
    status, out, err = run(["fit", dataset[0], *FIT, "--out", "/proc/m.json",
                            *FAST], capsys)
    assert_one_line_error(status, out, err, "--out /proc/m.json: cannot write")
    assert "read " not in err


def test_integer_id_columns_used_as_features_are_named(tmp_path, capsys):
    X, y, users, items = make_dataset(seed=6)
    rows = [[u, i, *map(repr, x.tolist()), t]
            for i, (u, x, t) in enumerate(zip(users, X, y))]
    path = write_csv(tmp_path / "ids.csv", ["user", "item_id", "f0", "f1", "f2",
                                            "f3", "f4", "rel"], rows)
    assert main(["fit", str(path), *FIT, "--method", "logreg", "--out",
                 str(tmp_path / "m.json"), *FAST]) == 0
    err = capsys.readouterr().err
    assert "warning: the integer column(s) item_id look like identifiers" in err
    assert main(["fit", str(path), *FIT, "--method", "logreg", "--ignore-cols",
                 "item_id", "--out", str(tmp_path / "n.json"), *FAST]) == 0
    assert "look like identifiers" not in capsys.readouterr().err
    help_text = " ".join(run(["fit", "--help"], capsys)[1].split())
    assert "integer columns that look like ids" in help_text


def test_no_grid_is_explained_in_compare(capsys):
    assert main(["compare", "--n-users", "12", "--methods", "avg,hgb", "--k", "4",
                 *FAST]) == 0
    out = capsys.readouterr().out
    assert "cv pAp@4 '-': the method had no grid to tune" in out
    _, help_text, _ = run(["compare", "--help"], capsys)
    assert "'-' for a method with no grid to tune" in " ".join(help_text.split())

