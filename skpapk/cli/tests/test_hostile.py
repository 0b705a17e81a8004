"""The edges of the command line found by hostile inputs: each a clean error
(one line, exit status 2) or a warning, never a traceback."""

import json
import os
import re
import warnings

import numpy as np
import pytest

from skpapk.cli import main
from skpapk.cli._main import build_parser

from .conftest import FAST, FAST_CV, make_dataset, write_csv

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
    assert_one_line_error(status, out, err, ", line 2: the model's score of "
                          "the row is not a finite number", "other rows")


@pytest.mark.parametrize("scale", ["minmax", "standard"])
def test_fit_names_a_column_too_wide_to_scale_before_tuning(tmp_path, capsys,
                                                            scale):
    # 1e308 beside small values: the scaled fit saved coefficients that
    # overflowed, after the whole tuning, with numpy's RuntimeWarning and
    # scikit-learn's "Input X contains infinity" despite -q
    rows = [[f"u{u}", int(i % 3 == 0), 0.1 * i, -0.2 * u] for u in range(10)
            for i in range(30)]
    rows[4][2] = "1e308"
    path = write_csv(tmp_path / "wide.csv", ["user", "rel", "a", "b"], rows)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status, out, err = run(["fit", path, *FIT, "--scale", scale, "-q",
                                "--out", tmp_path / "m.json"], capsys)
    assert_one_line_error(status, out, err, "wide.csv, line 6: column 'a' holds "
                          "1e+308, and its range is over 1e+300, too large to "
                          "scale; clip or rescale the column")
    assert not (tmp_path / "m.json").exists()
    # trees are not scaled: the same file fits
    pytest.importorskip("lightgbm")
    status, out, err = run(["fit", path, *FIT, "--method", "boost", "-q",
                            "--out", tmp_path / "m.json"], capsys)
    assert status == 0, err


def test_recommend_names_the_line_of_a_score_that_is_not_finite(
        dataset, fitted, tmp_path, capsys):
    model = _model(tmp_path, fitted, scorer={"coef": [1e308] * 5})
    status, out, err = run(["recommend", dataset[0], "--model", model, "-q"],
                           capsys)
    assert_one_line_error(status, out, err, ", line 2: the model's score of "
                          "the row is not a finite number")


def test_a_file_name_longer_than_the_folder_takes_is_refused_first(
        dataset, tmp_path, capsys):
    out_path = tmp_path / ("a" * 300 + ".json")
    status, out, err = run(["fit", "missing.csv", *FIT, "--out", out_path],
                           capsys)
    assert_one_line_error(status, out, err, "missing.csv")  # the input first
    status, out, err = run(["fit", dataset[0], *FIT, "--out", out_path], capsys)
    assert_one_line_error(status, out, err, "--out: the file name 'aaaa",
                          "... (305 characters) is 305 bytes long, and the "
                          "folder takes at most ")
    assert "cross-validation" not in err  # refused before any work


def test_without_pathconf_a_name_is_counted_in_utf16_units(tmp_path, capsys,
                                                           monkeypatch):
    # Windows: no os.pathconf, names of at most 255 UTF-16 units (not bytes)
    from skpapk.cli._files import check_output

    monkeypatch.delattr(os, "pathconf", raising=False)
    check_output(str(tmp_path / ("\u65e5" * 100 + ".json")), option="--out")
    with pytest.raises(Exception, match=r"is 256 units long, and the folder "
                                        r"takes at most 255"):
        check_output(str(tmp_path / ("\u65e5" * 251 + ".json")), option="--out")


def test_a_memory_error_is_one_line(monkeypatch, capsys):
    # --n-features 1000000000 passes the parser: a traceback and status 1
    import skpapk.cli._compare as compare

    def too_big(*args, **kwargs):
        raise MemoryError("Unable to allocate 797. GiB for an array")

    monkeypatch.setattr(compare, "make_engagement_simulation", too_big)
    # (sizes beyond the machine's memory are refused before: see
    # test_compare_refuses_a_simulation_beyond_the_memory)
    status, out, err = run(["compare", "--n-features", "9", "-q"], capsys)
    assert_one_line_error(status, out, err, "not enough memory (Unable to "
                          "allocate 797. GiB for an array); use smaller sizes")


def test_terminal_codes_in_column_names_are_escaped(tmp_path, capsys):
    # a header could retitle the terminal or colour it through the progress
    # lines (the error messages escaped them already)
    rows = [[f"u{u}", int(i < 3), 0.1 * i * (u + 1), 1.0 * ((i * u) % 3)]
            for u in range(4) for i in range(10)]
    path = write_csv(tmp_path / "esc.csv",
                     ["user", "rel", "f1", "x\x1b]0;pwned\x07\x1b[31m"], rows)
    status, out, err = run(["fit", path, *FIT, *FAST, "--out",
                            tmp_path / "m.json"], capsys)
    assert status == 0, err
    assert "\x1b" not in err and "\x07" not in err
    assert "features: f1, 'x\\x1b]0;pwned\\x07\\x1b[31m'" in err


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


def test_a_k_of_5000_digits_in_a_model_file_is_refused(dataset, fitted,
                                                       tmp_path, capsys):
    # the error advised "use sys.set_int_max_str_digits()"
    model = _model(tmp_path, fitted, k=1)
    model.write_text(model.read_text().replace('"k": 1', '"k": ' + "9" * 5000))
    status, out, err = run(["score", dataset[0], "--model", model], capsys)
    assert_one_line_error(status, out, err, "is not a skpapk model file",
                          "value has 5000 digits)")
    assert "sys." not in err


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


@pytest.mark.parametrize("path, message", [
    ("nowhere", "not found at '"),
    (None, "not given (--path not given, SKPAPK_DATA unset or empty) and is "
           "not in the cache"),
])
def test_movielens_path_error_names_the_option(path, message, tmp_path, capsys,
                                               monkeypatch):
    monkeypatch.delenv("SKPAPK_DATA", raising=False)
    monkeypatch.setenv("SCIKIT_LEARN_DATA", str(tmp_path / "cache"))
    where = [] if path is None else ["--path", tmp_path / path]
    status, out, err = run(["compare", "--data", "movielens", *where,
                            "--no-download", "-q"], capsys)
    assert_one_line_error(status, out, err, message)
    assert "--path" in err and "None" not in err
    assert "path=" not in err and "path argument" not in err
    assert "download=False" not in err
    assert path or "--no-download forbids fetching it" in err


def test_movielens_file_that_is_not_the_official_one_names_the_option(
        tmp_path, capsys):
    data = tmp_path / "u.data"  # the format of u.data, not its checksum
    data.write_text("".join(f"{u}\t{i}\t{1 + (u * i) % 5}\t88125{u}{i}\n"
                            for u in range(1, 4) for i in range(1, 4)))
    status, out, err = run(["compare", "--data", "movielens", "--path", data,
                            "--no-download", "-q"], capsys)
    assert_one_line_error(status, out, err, "is not the official MovieLens 100K")
    assert "--path '" in err and "path='" not in err
    assert "load it in Python with check_sha256=False" in err


def test_a_method_that_cannot_use_the_rows_names_no_python_parameter(
        tmp_path, capsys):
    # one user of ten rows: the greedy baseline has no held-out rows for its
    # line searches; the library's message asks for validation_fraction
    rows = [["u1", int(i % 3 == 0), i / 10] for i in range(10)]
    path = write_csv(tmp_path / "one.csv", ["user", "rel", "a"], rows)
    status = main(["fit", str(path), *FIT, "--method", "greedy", "--out",
                   str(tmp_path / "m.json"), "-q", *FAST_CV])
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
                 str(tmp_path / "m.json"), *FAST_CV]) == 0
    err = capsys.readouterr().err
    assert "warning: the integer column(s) item_id look like identifiers" in err
    assert main(["fit", str(path), *FIT, "--method", "logreg", "--ignore-cols",
                 "item_id", "--out", str(tmp_path / "n.json"), *FAST_CV]) == 0
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


@pytest.mark.parametrize("command", ["fit", "recommend"])
@pytest.mark.parametrize("suffix", ["/", "/.", "/../other.json"])
def test_an_out_through_a_file_name_replaces_nothing(command, suffix, dataset,
                                                     fitted, tmp_path, capsys):
    # "in.csv/." is the file in.csv to os.path.realpath, but no path to the
    # system: it replaced the input, or any file, without --force
    victim = tmp_path / "victim.csv"
    victim.write_bytes(dataset[0].read_bytes())
    (tmp_path / "other.json").write_text("precious")
    args = (["fit", victim, *FIT, "--alpha", "0.1"] if command == "fit" else
            ["recommend", victim, "--model", fitted[0]])
    status, out, err = run([*args, "--out", f"{victim}{suffix}"], capsys)
    assert_one_line_error(status, out, err, "--out")
    assert ("names a folder" in err) != suffix.startswith("/..")
    assert victim.read_bytes() == dataset[0].read_bytes()
    assert (tmp_path / "other.json").read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.json",
                                                          "victim.csv"]


def test_an_out_written_meanwhile_is_not_replaced(dataset, tmp_path, capsys,
                                                  monkeypatch):
    # another run wrote --out while this one trained: without --force the
    # model is not put in its place (hard link, which fails on a name)
    from skpapk.cli import _files

    out = tmp_path / "model.json"
    save = _files.save_ranker

    def concurrent(*args, **kwargs):
        out.write_text("the other run's model")
        return save(*args, **kwargs)

    monkeypatch.setattr(_files, "save_ranker", concurrent)
    status, stdout, err = run(["fit", dataset[0], *FIT, "--alpha", "0.1", "-q",
                               "--out", out], capsys)
    assert_one_line_error(status, stdout, err, f"--out {out} appeared while this "
                          "command ran; add --force")
    assert out.read_text() == "the other run's model"
    assert [p.name for p in tmp_path.iterdir()] == ["model.json"]
    status, stdout, err = run(["fit", dataset[0], *FIT, "--alpha", "0.1", "-q",
                               "--out", out, "--force"], capsys)
    assert status == 0 and json.loads(out.read_text())["format"]


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
@pytest.mark.parametrize("command", ["score", "recommend", "recommend --out",
                                     "missing"])
def test_a_closed_stream(stream, command, dataset, fitted, tmp_path):
    # '>&-' / '2>&-': Python's sys.stdout or sys.stderr is None, and
    # print(file=None) wrote the notes (or errors) into the results
    import subprocess
    import sys

    from .conftest import cli_env

    path = tmp_path / "missing.csv" if command == "missing" else dataset[0]
    name, *out = command.split() if command != "missing" else ["score"]
    args = [name, str(path), "--model", str(fitted[0]),
            *([out[0], str(tmp_path / "top.csv")] if out else [])]
    code = (f"import sys; sys.{stream} = None; from skpapk.cli import main; "
            f"status = main({args!r}); assert sys.{stream} is None; "
            f"sys.exit(status)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, env=cli_env(), timeout=300)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    if stream == "stderr":  # stdout holds the results only
        assert proc.returncode == (2 if command == "missing" else 0)
        assert proc.stderr == "" and "skpapk:" not in proc.stdout
        if command == "recommend":
            assert proc.stdout.startswith("user,rank,score,")
    elif out:  # the results go to a file: stdout is not needed
        assert proc.returncode == 0 and proc.stdout == ""
        assert (tmp_path / "top.csv").read_text().startswith("user,rank,")
    else:  # results with nowhere to go: not thrown away with status 0
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr == ("skpapk: error: stdout is closed, so the results "
                               "would go nowhere; send them to a file (> "
                               "results.txt)\n")


def test_recommend_reads_no_label(dataset, fitted, tmp_path, capsys):
    # new rows have no label yet: blank or other values are written as they are
    lines = dataset[0].read_text().splitlines()
    rel = lines[0].split(",").index("rel")
    edited = [lines[0]] + [",".join(v if j != rel else ("", "7", "yes")[i % 3]
                                    for j, v in enumerate(line.split(",")))
                           for i, line in enumerate(lines[1:])]
    path = tmp_path / "new.csv"
    path.write_text("\n".join(edited) + "\n")
    status, out, err = run(["recommend", path, "--model", fitted[0], "-q"], capsys)
    assert status == 0, err
    assert out.splitlines()[0].startswith("user,rank,score,")
    assert {line.split(",")[-1] for line in out.splitlines()[1:]} <= {"", "7", "yes"}


@pytest.mark.parametrize("change", ["shorter", "rewritten", "renamed"])
def test_recommend_refuses_a_file_changed_while_it_is_read(dataset, fitted,
                                                           tmp_path, capsys,
                                                           monkeypatch, change):
    # its rows are read again for the output: a file cut meanwhile gave a
    # KeyError traceback, one rewritten with as many rows paired the scores
    # with other rows' cells, silently
    from skpapk.cli import _commands

    path = tmp_path / "new.csv"
    path.write_text(dataset[0].read_text())
    read = _commands._read_for_model

    def read_then_change(args, model, **kwargs):
        data = read(args, model, **kwargs)
        lines = path.read_text().splitlines()
        if change == "shorter":
            path.write_text("\n".join(lines[:2]) + "\n")
        elif change == "renamed":  # as rsync -a: a copy moved into place,
            # of the same size and modification time
            other, stat = tmp_path / "other.csv", os.stat(path)
            other.write_text("\n".join([lines[0], *lines[:0:-1]]) + "\n")
            os.utime(other, ns=(stat.st_atime_ns, stat.st_mtime_ns))
            os.replace(other, path)
        else:  # the same rows in another order, and a newer time
            path.write_text("\n".join([lines[0], *lines[:0:-1]]) + "\n")
            os.utime(path, ns=(os.stat(path).st_atime_ns,
                               os.stat(path).st_mtime_ns + 10**9))
        return data

    monkeypatch.setattr(_commands, "_read_for_model", read_then_change)
    status, out, err = run(["recommend", path, "--model", fitted[0], "-q"], capsys)
    assert_one_line_error(status, out, err, "changed while this command read it")


def test_labels_of_a_model_file_are_not_written_raw_to_the_terminal(
        tmp_path, fitted, dataset, capsys):
    # (security review) a model's labels holding an escape sequence reached
    # stderr as they are
    pos_label = json.loads(fitted[0].read_text())["pos_label"]
    model = _model(tmp_path, fitted, labels=["\x1b[31mred", pos_label])
    status, out, err = run(["score", dataset[0], "--model", model], capsys)
    assert_one_line_error(status, out, err, "trained on the labels")
    assert "\x1b" not in err and "\\x1b[31mred" in err


def test_recommend_quotes_a_carriage_return_it_writes(tmp_path, capsys):
    # a quoted \r of the input, written back: csv quotes it only when the
    # lines end in \r\n, so that the file reads back
    rows = [["a\rb", 1, 0.5, 1.0], ["a\rb", 0, 0.1, 2.0], ["b", 1, 0.9, 1.0],
            ["b", 0, 0.3, 2.0], ["c", 1, 0.7, 0.0], ["c", 0, 0.2, 3.0]]
    data = write_csv(tmp_path / "cr.csv", ["user", "rel", "f1", "f2"], rows)
    model, top = tmp_path / "m.json", tmp_path / "top.csv"
    assert run(["fit", data, *FIT, "--alpha", "0.1", "-q", "--out", model],
               capsys)[0] == 0
    assert run(["recommend", data, "--model", model, "--k", 1, "-q", "--out",
                top], capsys)[0] == 0
    assert b'"a\rb"' in top.read_bytes()
    status, out, err = run(["recommend", top, "--model", model, "-q"], capsys)
    assert status == 0, err
    assert "a\rb" in out


@pytest.mark.parametrize("labels, written, ok", [
    (("FALSE", "true"), ("False", "True"), True),
    (("No", "YES"), ("no", "yes"), True),
    (("False", "True"), ("0", "1"), False),
])
def test_score_reads_the_labels_in_any_case(labels, written, ok, tmp_path,
                                            capsys):
    X, y, users, items = make_dataset()
    from .conftest import dataset_csv

    train = dataset_csv(tmp_path / "train.csv", X, y, users, items,
                        label_values=labels)
    test = dataset_csv(tmp_path / "test.csv", X, y, users, items,
                       label_values=written)
    model = tmp_path / "m.json"
    assert run(["fit", train, *FIT, "--alpha", "0.1", "-q", "--out", model],
               capsys)[0] == 0
    status, out, err = run(["score", test, "--model", model, "-q"], capsys)
    reference = run(["score", train, "--model", model, "-q"], capsys)
    if ok:
        assert status == 0 and out == reference[1], err
    else:  # another spelling, not another case: named with its line
        assert_one_line_error(status, out, err, "test.csv, line 2: label column "
                              f"'rel' holds '{written[y[0]]}', but the model was "
                              "trained on the labels", "write the labels as at "
                              "training")


@pytest.mark.parametrize("args, message", [
    (["fit", "--method", "boost", "--scale", "standard"], "--scale: boost "),
    # written on the command line, even with the default value
    (["fit", "--method", "boost", "--scale", "minmax"], "--scale: boost "),
    (["fit", "--method", "logreg", "--max-iter", "3"], "--max-iter: logreg "
     "(LogisticRegression) does not use it (--max-iter sets the iterations of "
     "skpapk's linear rankers only); leave --max-iter out."),
    (["fit", "--method", "greedy", "--max-iter", "3"], "--max-iter: greedy "),
    (["fit", "--features", "f0", "--ignore-cols", "f1"],
     "--ignore-cols leaves columns out of the default features"),
    # compare: an option that none of the methods reads
    (["compare", "--methods", "boost", "--scale", "minmax"], "--scale: boost "),
    (["compare", "--methods", "hgb", "--scale", "standard"], "--scale: hgb "
     "(HistGradientBoostingClassifier) does not use it (trees need no scaling)"),
    (["compare", "--methods", "logreg,hgb", "--max-iter", "5"], "--max-iter: "
     "logreg (LogisticRegression), hgb (HistGradientBoostingClassifier) do not "
     "use it (--max-iter sets the iterations of skpapk's linear rankers only); "
     "leave --max-iter out."),
    (["compare", "--force"], "--force replaces the --plot file, and no --plot"),
    (["recommend", "--force"], "--force replaces the --out file, and no --out"),
    (["recommend", "--force", "--out", "-"], "--force replaces the --out file"),
])
def test_an_option_that_would_be_ignored_is_refused(args, message, dataset,
                                                     fitted, tmp_path, capsys):
    if "boost" in args:
        pytest.importorskip("lightgbm")
    command, *options = args
    files = {"fit": [dataset[0], *FIT, "--out", tmp_path / "m.json"],
             "compare": ["--data", dataset[0], *FIT],
             "recommend": [dataset[0], "--model", fitted[0]]}[command]
    status, out, err = run([command, *files, *options], capsys)
    assert_one_line_error(status, out, err, message)
    assert "not use it" in err or "--force" in err or "--features" in err
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("option", ["fit --out", "compare --plot"])
def test_a_dash_for_a_file_option_is_refused(option, dataset, tmp_path, capsys,
                                             monkeypatch):
    # '-' is stdout for recommend only: fit wrote a file named '-'
    monkeypatch.chdir(tmp_path)
    command, flag = option.split()
    args = {"fit": ["fit", dataset[0], *FIT, "--alpha", "0.1"],
            "compare": ["compare", "--methods", "logreg"]}[command]
    status, out, err = run([*args, flag, "-"], capsys)
    assert_one_line_error(status, out, err, f"{flag} -: ", "./-")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["fit", "fit logreg", "compare"])
def test_a_file_without_a_group_of_both_labels_is_refused_up_front(
        command, tmp_path, capsys):
    # fit said "choose another --method" (status 1) or blamed a fold, compare
    # asked for a larger --test-size: no method nor option can help
    path = write_csv(tmp_path / "sep.csv", ["user", "label", "f1"],
                     [[u, int(u < 3), (7 * i % 10) / 10] for u in range(6)
                      for i in range(8)])
    args = {"fit": ["fit", path, "--out", tmp_path / "m.json"],
            "fit logreg": ["fit", path, "--method", "logreg",
                           "--out", tmp_path / "m.json"],
            "compare": ["compare", "--data", path, "--methods", "logreg"]}[command]
    status, out, err = run([*args, "--group-col", "user", "-q"], capsys)
    assert_one_line_error(status, out, err, "sep.csv: no group (column 'user') "
                          "has both a relevant and an irrelevant row", "--group-col")


@pytest.mark.parametrize("n_users, test_size", [(1, "0.2"), (3, "0.9")])
def test_compare_cv_group_with_too_few_users_names_the_options(
        n_users, test_size, tmp_path, capsys):
    # scikit-learn's "With n_samples=1, test_size=0.2 ... the resulting train
    # set will be empty" reached the user
    path = write_csv(tmp_path / "few.csv", ["user", "label", "f1"],
                     [[u, i % 2, i / 8] for u in range(n_users) for i in range(8)])
    status, out, err = run(["compare", "--data", path, "--group-col", "user",
                            "--cv", "group", "--test-size", test_size,
                            "--methods", "logreg", "-q"], capsys)
    assert_one_line_error(status, out, err, f"--test-size {test_size} of "
                          f"{n_users} user", "--cv within-group")
    assert "n_samples" not in err


def test_the_warning_of_small_groups_names_cv_folds(tmp_path, capsys):
    # it said "fewer than n_splits=2 rows ... Lower n_splits"
    rows = [[u, i % 2, (5 * i + u) % 7] for u in range(6) for i in range(6)]
    path = write_csv(tmp_path / "small.csv", ["user", "label", "f1"],
                     rows + [[9, 0, 1.0], [10, 1, 2.0]])
    status, out, err = run(["fit", path, "--group-col", "user", "--method",
                            "logreg", "--cv-folds", "2", "--out",
                            tmp_path / "m.json"], capsys)
    assert status == 0, err
    assert "2 of 8 groups have fewer than --cv-folds 2 rows" in err
    assert "Lower --cv-folds to test them" in err and "n_splits" not in err


def test_a_fold_of_a_single_label_is_said_in_cli_terms(tmp_path, capsys):
    # LogisticRegression's "only one class: np.int64(0)" reached the user
    rows = [[u, int(u == 0 and i < 3), (7 * i + u) % 10]
            for u in range(3) for i in range(12 if u == 0 else 8)]
    path = write_csv(tmp_path / "one.csv", ["user", "label", "f1"], rows)
    status, out, err = run(["fit", path, "--group-col", "user", "--method",
                            "logreg", "--cv", "group", "--cv-folds", "3", "-q",
                            "--out", tmp_path / "m.json"], capsys)
    assert_one_line_error(status, out, err, "the training rows of a "
                          "cross-validation fold have no user with both a "
                          "relevant and an irrelevant row, so LogisticRegression "
                          "cannot be trained on them; use fewer --cv-folds, or "
                          "--cv within-group.")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", ["score", "recommend", "fit", "compare"])
def test_a_full_stdout_is_named(command, dataset, fitted, tmp_path):
    # "skpapk: error: [Errno 28] No space left on device" named nothing
    import subprocess
    import sys

    from .conftest import cli_env

    args = {"score": ["score", dataset[0], "--model", fitted[0]],
            "recommend": ["recommend", dataset[0], "--model", fitted[0]],
            "fit": ["fit", dataset[0], *FIT, "--alpha", "0.1", "--out",
                    tmp_path / "m.json"],
            "compare": ["compare", "--n-users", "20", "--methods", "logreg",
                        *FAST_CV]}[command]
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "skpapk", *map(str, args),
                               "-q"], stdout=full, stderr=subprocess.PIPE,
                              text=True, env=cli_env(), timeout=300)
    message = "cannot write the results to stdout: No space left on device."
    if command == "fit":  # (status 2, and a rerun found the model "exists")
        assert proc.returncode == 0 and proc.stderr == (
            f"skpapk: warning: {message} The model is saved to "
            f"{tmp_path / 'm.json'}.\n"), proc.stderr
        assert (tmp_path / "m.json").exists()
    else:
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr == f"skpapk: error: {message}\n", proc.stderr


def test_a_wide_file_names_a_few_features_in_progress(tmp_path, capsys):
    # fit printed a 61,930-character line naming all 3,000 features
    names = [f"feature_{j}" for j in range(3000)]
    rows = [[u, i % 2, *[(i * j + u) % 5 for j in range(3000)], "x"]
            for u in range(2) for i in range(6)]
    path = write_csv(tmp_path / "wide.csv", ["user", "label", *names, "item"],
                     rows)
    status, out, err = run(["fit", path, "--group-col", "user", "--alpha", "1",
                            "--max-iter", "2", "--out", tmp_path / "m.json"],
                           capsys)
    assert status == 0, err
    assert max(map(len, err.splitlines())) < 300, err
    assert "features: feature_0, feature_1," in err
    assert ", ... (3000 in all)" in err


@pytest.mark.parametrize("option, value", [
    ("--k", "1_0"), ("--k", "\uff13"), ("--k", "3 4"), ("--alpha", "1_0"),
    ("--cv-folds", "\u0663"), ("--n-jobs", "-1000"), ("--n-jobs", "-2")])
def test_option_numbers_are_plain_ascii_and_n_jobs_minus_one(option, value,
                                                              capsys):
    # Python's int and float take '1_0' and other scripts' digits; --n-jobs
    # -1000 was silently 1
    status, out, err = run(["fit", "x.csv", "--out", "m.json", option, value],
                           capsys)
    assert_one_line_error(status, out, err, f"argument {option}: expected ")


def test_option_numbers_may_have_spaces_around_and_minus_zero_is_zero():
    # "$(wc -l < f)" pads with spaces on some systems
    fit = build_parser().commands["fit"]
    args = fit.parse_args(["x.csv", "--out", "m.json", "--k", " 3 ", "--alpha",
                           "-0", "--n-jobs", " -1\t"])
    assert (args.k, args.n_jobs) == (3, -1)
    assert args.alpha == 0 and str(args.alpha) == "0.0"


def test_fit_lists_only_the_methods_it_can_save(capsys):
    # its list of choices held hgb (which fit refuses) and 'all'
    status, out, err = run(["fit", "x.csv", "--out", "m.json", "--method",
                            "PAPK"], capsys)
    assert_one_line_error(status, out, err, "unknown method(s) PAPK; choose "
                          "from papk, avg,")
    assert "hgb" not in err and "'all'" not in err


@pytest.mark.parametrize("command", ["fit", "compare"])
def test_max_iter_help_says_what_it_does_for_papk(command):
    # it said "epochs of the subgradient rankers", yet papk takes it too
    text = " ".join(build_parser().commands[command].format_help().split())
    assert ("--max-iter N maximum number of iterations of skpapk's linear "
            "rankers: L-BFGS iterations of papk, epochs (full subgradient "
            "steps) of the others") in text


def test_recommend_writes_with_the_delimiter_it_reads(dataset, fitted, tmp_path,
                                                      capsys):
    # --delimiter tab read a tab-separated file and wrote commas
    text = dataset[0].read_text().replace(",", "\t")
    (tmp_path / "tab.csv").write_text(text)
    status, out, err = run(["recommend", tmp_path / "tab.csv", "--model",
                            fitted[0], "--delimiter", "tab", "-q"], capsys)
    assert status == 0, err
    assert out.startswith("user\trank\tscore\titem\tf0\t") and "," not in out


def test_counts_and_paths_read_as_english(dataset, fitted, tmp_path, capsys):
    from skpapk.cli._commands import describe_groups

    # "1 groups", "wrote the top 1000000000 rows", "the folder x.csv does
    # not exist" (a file)
    one = np.array(["a", "a"])
    assert describe_groups(np.array([1, 0]), one) == "2 rows, 1 group"
    assert describe_groups(np.array([1]), one[:1]).startswith(
        "1 row, 1 group (1 without")
    status, out, err = run(["recommend", dataset[0], "--model", fitted[0],
                            "--k", "1000000000"], capsys)
    assert status == 0 and f"wrote every row of 12 groups ({len(dataset[2])} " \
        "rows) to stdout" in err, err
    status, out, err = run(["fit", dataset[0], *FIT, "--out",
                            f"{dataset[0]}/m.json"], capsys)
    assert_one_line_error(status, out, err, f"{dataset[0]} is a file, not a "
                          "folder")


@pytest.mark.filterwarnings("ignore")
def test_a_model_that_overflows_when_scaled_is_not_told_to_scale(tmp_path):
    # --scale minmax folded into huge coefficients: "Scale the features"
    import sklearn

    from skpapk.cli._files import save_model
    from skpapk.cli._methods import make_model
    from skpapk.cli._output import CLIError

    X = np.array([[0, 0.0], [1e-3, 1], [2e-3, 0], [0, 1]])
    model = make_model("avg", k=1, scale="minmax", random_state=0, max_iter=2)
    with sklearn.config_context(enable_metadata_routing=True):
        model.fit(X, [1, 0, 1, 0], groups=[0, 0, 1, 1])
    model[-1].coef_ = np.array([1e308, 1.0])
    meta = {"k": 1, "method": "avg", "feature_cols": ["a", "b"],
            "scale": "minmax"}
    with pytest.raises(CLIError, match=r"not finite.*range \(or use --scale "
                                       r"none\), or lower --eta0.$") as info:
        save_model(tmp_path / "m.json", meta, model)
    assert info.value.status == 1 and "Scale the features" not in str(info.value)


def test_ctrl_c_while_a_command_is_imported_is_one_line(monkeypatch, capsys):
    # the command's module was imported outside the try: a traceback
    import importlib

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib, "import_module", interrupt)
    assert main(["compare"]) == 130
    assert capsys.readouterr().err == "skpapk: interrupted\n"


def test_ctrl_c_lost_in_a_c_callback_still_interrupts(monkeypatch, capsys):
    # numba's compiler runs Python callbacks from C, which lose the
    # KeyboardInterrupt (Python reported it as "Exception ignored ..."): the
    # run went on and ended with status 0
    import signal

    from skpapk.cli import _commands

    def score(args, progress):
        try:
            signal.raise_signal(signal.SIGINT)  # as the handler sees Ctrl-C
        except KeyboardInterrupt:
            pass  # lost, as in a C callback
        progress("a later step")  # raises it again
        return 0

    monkeypatch.setattr(_commands, "cmd_score", score)
    # as in a terminal (a background job inherits an ignored SIGINT, which
    # the command leaves ignored)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert main(["score", "x.csv", "--model", "m.json"]) == 130
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)
    assert capsys.readouterr().err == "skpapk: interrupted\n"


@pytest.mark.parametrize("name, status", [("SIGTERM", 143), ("SIGHUP", 129)])
def test_sigterm_while_writing_leaves_no_temporary_file(monkeypatch, capsys,
                                                        tmp_path, name, status):
    # only SIGINT was handled: docker stop, systemd or a job's timeout
    # (SIGTERM) killed the process beside a 20-40 MB hidden .tmp file
    import signal

    from skpapk.cli import _commands
    from skpapk.utils._files import atomic_write

    sig = getattr(signal, name, None)
    if sig is None:
        pytest.skip(f"no {name} here")
    out = tmp_path / "top.csv"

    def recommend(args, progress):
        with atomic_write(out) as f:
            f.write("user,item\n" * 1000)
            signal.raise_signal(sig)  # as the process receives it
            f.write("never written")
        return 0

    monkeypatch.setattr(_commands, "cmd_score", recommend)
    before = signal.signal(sig, signal.SIG_DFL)
    # a background job's SIGINT is ignored: SIGTERM is handled all the same
    before_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert main(["score", "x.csv", "--model", "m.json"]) == status
        assert signal.getsignal(sig) is signal.SIG_DFL  # given back
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(sig, before)
        signal.signal(signal.SIGINT, before_int)
    assert capsys.readouterr().err == f"skpapk: terminated ({name})\n"
    assert list(tmp_path.iterdir()) == []


def test_a_sigterm_handler_of_the_caller_is_kept(monkeypatch, capsys):
    # main() inside a service that handles SIGTERM itself: left to it
    import signal

    from skpapk.cli import _commands

    seen = []

    def score(args, progress):
        signal.raise_signal(signal.SIGTERM)
        return 0

    monkeypatch.setattr(_commands, "cmd_score", score)
    before = signal.signal(signal.SIGTERM, lambda *args: seen.append(args[0]))
    try:
        assert main(["score", "x.csv", "--model", "m.json"]) == 0
    finally:
        signal.signal(signal.SIGTERM, before)
    assert seen == [signal.SIGTERM]


@pytest.mark.parametrize("argv", [["--bogus"], ["-x"], ["-q"], ["--bogus=1"]])
def test_an_unknown_option_without_a_command_is_an_error(argv, capsys):
    # the help was printed, with status 0
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert capsys.readouterr().err.startswith(
        "skpapk: error: unrecognized arguments: ")


def test_an_error_that_stderr_cannot_take_keeps_status_2(monkeypatch, capsys):
    # the error's print raised OSError (ENOSPC): status 1, a traceback
    class Full:
        def write(self, text):
            raise OSError(28, "No space left on device")

        def flush(self):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr("sys.stderr", Full())
    assert main(["score", "no-such.csv", "--model", "no-such.json"]) == 2


def test_an_encoding_that_cannot_hold_the_summary_is_named(dataset, monkeypatch,
                                                           capsys, tmp_path):
    # fit's summary names the --out path, which an ascii stdout cannot hold:
    # "'ascii' codec can't encode character ...", naming no stream, before
    import io

    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.BytesIO(),
                                                       encoding="ascii"))
    out = tmp_path / "modèle.json"
    status = main(["fit", str(dataset[0]), "--group-col", "user", "--label-col",
                   "rel", "--pos-label", "yes", "--alpha", "0.01", "--out",
                   str(out), "-q"])
    err = capsys.readouterr().err
    assert status == 0 and out.is_file()
    assert err == (
        "skpapk: warning: cannot write the results to stdout: its encoding, "
        "ascii, has no 'è'; set PYTHONIOENCODING=utf-8 (or write to a file). "
        f"The model is saved to {out}.\n"), err


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
def test_recommend_writes_utf8_to_stdout_whatever_its_encoding(
        dataset, fitted, monkeypatch, capsys, tmp_path, encoding):
    # the CSV on stdout was in the terminal's encoding: score could not read
    # Windows' cp1252 back, and ascii stopped part way (an error after rows)
    import io

    raw = io.BytesIO()
    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(raw, encoding=encoding))
    text = dataset[0].read_text(encoding="utf-8").replace(",u00,", ",é00,")
    assert "é00" in text
    path = tmp_path / "accent.csv"
    path.write_text(text, encoding="utf-8")
    status = main(["recommend", str(path), "--model", str(fitted[0]), "-q"])
    assert status == 0, capsys.readouterr().err
    top = tmp_path / "top.csv"
    top.write_bytes(raw.getvalue())
    assert "é00" in raw.getvalue().decode("utf-8")
    monkeypatch.undo()
    assert main(["score", str(top), "--model", str(fitted[0]), "-q"]) == 0


def test_compare_refuses_a_simulation_beyond_the_memory(capsys, monkeypatch):
    # --n-users 10**9: killed by the system (status 137), nothing said
    from skpapk.datasets import _samples_generator

    monkeypatch.setattr(_samples_generator, "physical_memory", lambda: 2**34)
    status = main(["compare", "--n-users", str(10**9), "--methods", "papk"])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith(
        "skpapk: error: --n-users=1000000000 users of up to 199 items: "
        "199000000000 rows of 8 float64 features take 1.19e+04 GiB, more than "
        "this machine's 16 GiB of memory"), err
    assert err.endswith("lower --n-users or --n-features.\n"), err


@pytest.mark.parametrize("name, ok", [("p.txt", False), ("p.svg", True),
                                      ("p", True), ("p.pgf", None)])
def test_plot_writes_the_format_of_its_extension(name, ok, tmp_path, capsys):
    # p.svg and p.txt held PNG bytes
    pytest.importorskip("matplotlib")
    path = tmp_path / name
    status = main(["compare", "--n-users", "30", "--methods", "logreg",
                   *FAST_CV, "-q", "--plot", str(path)])
    err = capsys.readouterr().err
    if ok is None:  # (review) pgf needs xelatex: a traceback after the run
        import shutil

        if shutil.which("xelatex"):
            pytest.skip("xelatex is installed: pgf can be written")
        assert status == 2 and "cannot write a .pgf file here" in err, err
        return
    if not ok:
        assert status == 2 and err.startswith(
            f"skpapk: error: --plot {path}: matplotlib cannot write a .txt "
            f"file here ("), err
        assert err.endswith("); end the name with .png, .svg or .pdf.\n"), err
        assert not path.exists()
        return
    assert status == 0, err
    head = path.read_bytes()[:64]
    assert (b"<svg" in head or head.startswith(b"<?xml")) == name.endswith(".svg")
    assert head.startswith(b"\x89PNG") == (name == "p")


@pytest.mark.parametrize("label", ["1_0", "\uff11"])
def test_labels_are_numbers_only_as_features_are(label, tmp_path, capsys):
    # Python's float read "1_0" as 10 and a full-width 1 as 1: a label pair
    # 0 / 1_0 trained with 10 relevant
    rows = [[u, label if i % 3 == 0 else "0", i % 5, (i * 7) % 3]
            for u in range(4) for i in range(6)]
    path = write_csv(tmp_path / "d.csv", ["group", "label", "a", "b"], rows)
    status = main(["fit", str(path), "--out", str(tmp_path / "m.json"), "-q",
                   *FAST])
    err = capsys.readouterr().err
    assert status == 2 and "are words; say which one is relevant" in err, err


def test_progress_outside_main_is_not_interrupted_by_an_earlier_run(monkeypatch,
                                                                    capsys):
    # (review) the flag stayed set after an interrupted main: the next
    # Progress()(...) of another caller raised KeyboardInterrupt
    import importlib

    from skpapk.cli._output import INTERRUPTED, Progress

    def interrupt(*args, **kwargs):
        INTERRUPTED.set()
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib, "import_module", interrupt)
    assert main(["compare"]) == 130
    assert not INTERRUPTED.is_set()
    Progress(quiet=True)("a line")


def test_undecodable_bytes_in_the_results_are_named(monkeypatch):
    # (review) "its encoding, utf-8, has no '\udcff'; set PYTHONIOENCODING=utf-8"
    import io

    from skpapk.cli._output import CLIError, to_stdout

    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    with pytest.raises(CLIError, match=r"they hold bytes that are not text "
                                       r"\('\\udcff': a file name of undecodable"):
        with to_stdout():
            print("m\udcff.json")


@pytest.mark.parametrize("option", ["data", "model"])
def test_a_link_to_nothing_is_named_as_such(tmp_path, capsys, option):
    # "l1: no such model file; create one with 'skpapk fit ... --out l1'"
    (tmp_path / "l1").symlink_to(tmp_path / "l2")
    (tmp_path / "l2").symlink_to(tmp_path / "l1")
    (tmp_path / "gone").symlink_to(tmp_path / "missing.json")
    data = tmp_path / "d.csv"
    data.write_text("user,label,x\nu,1,0\nu,0,1\n")
    for link, says in (("l1", "is a loop of symbolic links"),
                       ("gone", "is a symbolic link to .*missing.json, which "
                                "does not exist")):
        path = str(tmp_path / link)
        argv = (["fit", path, "--group-col", "user", "--out",
                 str(tmp_path / "m.json")]
                if option == "data" else ["score", str(data), "--model", path])
        assert main(argv) == 2
        assert re.search(says, capsys.readouterr().err)


def test_the_program_dies_of_sigterm_once_cleaned_up(tmp_path):
    # a parent (a shell, systemd) must see the process killed by the signal,
    # not a normal exit with status 143
    import signal
    import subprocess
    import sys

    if not hasattr(signal, "SIGTERM") or sys.platform == "win32":
        pytest.skip("no SIGTERM to die of here")
    out = tmp_path / "top.csv"
    script = f"""
import signal
from skpapk.cli import _commands, _main
from skpapk.utils._files import atomic_write

def score(args, progress):
    with atomic_write({str(out)!r}) as f:
        f.write("user,item\\\\n")
        signal.raise_signal(signal.SIGTERM)
    return 0

_commands.cmd_score = score
import sys
sys.argv = ["skpapk", "score", "x.csv", "--model", "m.json"]
_main.console_main()
print("not reached")
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == -signal.SIGTERM
    assert proc.stderr == "skpapk: terminated (SIGTERM)\n"
    assert "not reached" not in proc.stdout
    assert list(tmp_path.iterdir()) == []
