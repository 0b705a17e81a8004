"""The command line: help, version, and every error as one line with status 2."""

import contextlib
import importlib.metadata
import subprocess
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor

import joblib
import pytest

from skpapk import __version__
from skpapk.cli import main
from skpapk.cli._output import CLIError

from .conftest import FAST, cli_env, write_csv


def test_version_through_module():
    proc = subprocess.run([sys.executable, "-m", "skpapk", "--version"],
                          capture_output=True, text=True, env=cli_env(), timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == f"skpapk {__version__}"


def test_console_main_freezes_the_objects_once_main_returns():
    # in a process of its own: frozen objects would change when the garbage
    # of later tests is collected (a joblib weakref callback then raised)
    code = ("import gc\n"
            "from skpapk.cli import _main\n"
            "_main.main = lambda: print(gc.get_freeze_count()) or 3\n"
            "print(_main.console_main(), gc.get_freeze_count() > 0)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, env=cli_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["0", "3", "True"]


def test_commands_in_threads_leave_the_process_settings(dataset, tmp_path):
    # (concurrency review) commands in two threads at once interleaved their
    # warning filters and thread limits: an "ignore every warning" filter
    # and a BLAS limit stayed after them
    from threadpoolctl import threadpool_info

    path = dataset[0]
    filters = list(warnings.filters)
    limits = [(pool["prefix"], pool["num_threads"]) for pool in threadpool_info()]

    def fit(i):
        return main(["fit", str(path), "--group-col", "user", "--label-col", "rel",
                     "--k", "3", "--alpha", "1e-3", "--n-jobs", str(1 + i % 2),
                     "--out", str(tmp_path / f"m{i}.json"), "-q"])

    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(fit, range(6))) == [0] * 6
    assert warnings.filters == filters
    assert [(pool["prefix"], pool["num_threads"])
            for pool in threadpool_info()] == limits


def test_pandas_warning_of_a_column_of_mixed_kinds_is_not_shown(
        dataset, tmp_path, monkeypatch):
    # the library's reader lets pandas' DtypeWarning through; its advice
    # (dtype=, low_memory=) is no option of the command line
    import pandas as pd

    read_csv = pd.read_csv

    def warning_read_csv(*args, **kwargs):  # as pandas on a long mixed file
        warnings.warn("Columns (0: item) have mixed types.", pd.errors.DtypeWarning)
        return read_csv(*args, **kwargs)

    monkeypatch.setattr(pd, "read_csv", warning_read_csv)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["fit", str(dataset[0]), "--group-col", "user",
                     "--label-col", "rel", "--alpha", "1e-3", "--k", "3", "-q",
                     "--out", str(tmp_path / "m.json")]) == 0
    assert [w.category for w in caught] == []


def test_a_command_waits_for_another_threads_command():
    # (review) deterministic: while the lock is held, main does not start
    import threading

    from skpapk.cli import _commands, _main  # noqa: F401 (imported: fast)

    result = []
    with _main._ONE_COMMAND:
        worker = threading.Thread(target=lambda: result.append(main(
            ["score", "no-such-file.csv", "--model", "no-such-model.json"])))
        worker.start()
        worker.join(0.5)
        assert worker.is_alive() and result == []
    worker.join(30)
    assert result == [2]


def test_the_installed_program_is_console_main():
    from skpapk.cli._main import console_main

    scripts = importlib.metadata.entry_points(group="console_scripts",
                                              name="skpapk")
    assert [s.load() for s in scripts] == [console_main], (
        f"the installed skpapk program is {[s.value for s in scripts]}: "
        f"an install older than pyproject.toml? pip install -e . again")


@pytest.mark.parametrize("command", ["compare", "fit", "score", "recommend"])
def test_help_of_every_command(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out, _ = capsys.readouterr()
    assert out.startswith(f"usage: skpapk {command}")
    for option in ("--quiet", "--traceback", "--delimiter"):
        assert option in out
    if command in ("compare", "fit"):
        for option in ("--pos-label", "--random-state", "--n-jobs", "--grid"):
            assert option in out
        # fit lists only the methods it can save (hgb is compare's only)
        assert ("hgb" in out) == (command == "compare")
    if command == "compare":
        assert "seconds" in out  # the measured run time


def test_the_guide_lists_every_method_with_its_estimator():
    # the command-line page of the user guide names each method once, in a
    # row with its estimator (hgb as compare's only)
    import re
    from pathlib import Path

    from skpapk.cli._methods import available_methods

    guide = Path(__file__).parents[3] / "doc" / "user_guide" / "cli.rst"
    if not guide.exists():
        pytest.skip("the docs are not beside this installed package")
    table = guide.read_text(encoding="utf-8").split(".. list-table::")[1]
    rows = re.findall(r"\* - (.+?)\n     - (.+?)(?=\n   \*|\n\n)", table, re.S)
    listed = {name: estimator for names, estimator in rows
              for name in re.findall(r"``(\w+)``", names)}
    assert set(listed) == set(available_methods())
    for name, method in available_methods().items():
        text = " ".join(listed[name].split())
        assert method.label in text or type(method.make()).__name__ in text, name
        assert ("compare`` only" in listed[name]) == (method.kind is None)


def test_no_command_prints_help_with_quick_start(capsys):
    assert main([]) == 0
    out, _ = capsys.readouterr()
    assert "compare" in out and "recommend" in out and "model.json" in out


def _error_cases(base, dataset_path, model_path):
    """{name: (args, expected text in the message)}; files made here."""
    base.mkdir(exist_ok=True)
    empty = base / "empty.csv"
    empty.write_text("")
    header_only = write_csv(base / "header_only.csv", ["group", "label", "a"], [])
    nonnum = write_csv(base / "nonnum.csv", ["group", "label", "a", "b"],
                       [["g1", 1, 0.5, 1.0], ["g1", 0, 0.2, "abc"],
                        ["g2", 1, 0.1, 2.0]])
    empty_cell = write_csv(base / "empty_cell.csv", ["group", "label", "a"],
                           [["g1", 1, 0.5], ["g1", 0, ""]])
    three = write_csv(base / "three.csv", ["group", "label", "a"],
                      [["g1", 0, 0.5], ["g1", 1, 0.2], ["g1", 2, 0.3]])
    one_label = write_csv(base / "one_label.csv", ["group", "label", "a"],
                          [["g1", 1, 0.5], ["g1", 1, 0.2]])
    nan_label = write_csv(base / "nan_label.csv", ["group", "label", "a"],
                          [["g1", "nan", 0.5], ["g1", 0, 0.2]])
    two_ones = write_csv(base / "two_ones.csv", ["group", "label", "a"],
                         [["g1", 1, 0.5], ["g1", "1.0", 0.2]])
    ragged = base / "ragged.csv"
    ragged.write_text("group,label,a\ng1,1,0.5\ng1,0\n")
    quote = base / "quote.csv"
    quote.write_text('group,label,a\ng1,1,0.5\ng1,0,"0.2\ng2,1,3\ng2,0,4\n')
    text_only = write_csv(base / "text_only.csv", ["group", "label", "name"],
                          [["g1", 1, "x"], ["g1", 0, "y"]])
    words = write_csv(base / "words.csv", ["group", "label", "a"],
                      [["g1", "clicked", 0.5], ["g1", "not_clicked", 0.2]])
    bad_model = base / "bad.json"
    bad_model.write_bytes(b"this is not a model")
    pickled = base / "model.joblib"
    joblib.dump({"k": 3}, pickled)
    numeric_labels = write_csv(base / "numlabels.csv",
                               ["user", "f0", "f1", "f2", "f3", "f4", "rel"],
                               [["u1", 0.1, 0.2, 0.3, 0, 0, 1],
                                ["u1", 0.1, 0.2, 0.3, 0, 0, 0]])
    missing_f4 = write_csv(base / "missing_f4.csv", ["user", "f0", "f1", "rel"],
                           [["u1", 0.1, 0.2, "yes"], ["u1", 0.1, 0.2, "no"]])
    fit = ["fit", "--out", base / "m.json", *FAST]
    d = dataset_path
    return {
        "missing_file": (["score", base / "nope.csv", "--model", model_path],
                         "no such file"),
        "missing_model": (["score", d, "--model", base / "nope.json"],
                          "no such model file"),
        "invalid_model": (["recommend", d, "--model", bad_model],
                          "not a skpapk model file"),
        "pickle_model": (["score", d, "--model", pickled], "does not load pickles"),
        "empty_file": ([*fit, empty], "is empty"),
        "header_only": ([*fit, header_only], "no data rows"),
        "missing_group_col": ([*fit, d, "--group-col", "usr", "--label-col", "rel"],
                              "no column 'usr'"),
        "missing_label_col": ([*fit, d, "--group-col", "user"], "no column 'label'"),
        "missing_feature": ([*fit, d, "--group-col", "user", "--label-col", "rel",
                             "--features", "f0,f9"], "no column 'f9'"),
        "non_numeric_feature": ([*fit, nonnum],
                                "line 3: feature column 'b' holds 'abc'"),
        "explicit_text_feature": ([*fit, d, "--group-col", "user", "--label-col",
                                   "rel", "--features", "item"],
                                  "feature column 'item' holds 'item0'"),
        "empty_feature_cell": ([*fit, empty_cell], "line 3: feature column 'a' "
                                                    "holds an empty value"),
        "non_binary_label": ([*fit, three], "must be binary"),
        "single_label": ([*fit, one_label], "single value '1'"),
        "nan_label": ([*fit, nan_label], "are words; say which one is relevant"),
        "one_label_two_spellings": ([*fit, two_ones],
                                    "single value '1' (written '1' and '1.0')"),
        "usage_eta0_zero": ([*fit, d, "--method", "avg", "--eta0", "0"],
                            "--eta0: expected a number > 0"),
        # it overflowed: "the starting weights (coef_init ... warm_start)", status 1
        "usage_huge_alpha": ([*fit, d, "--alpha", "1e308"],
                             "--alpha: expected a number from 0 to 1e100"),
        "ragged_line": ([*fit, ragged], "line 3: 2 fields"),
        "unclosed_quote": ([*fit, quote], "line 3: this quoted field is never "
                                          "closed"),
        "words_without_pos_label": ([*fit, words], "--pos-label"),
        "unknown_pos_label": ([*fit, words, "--pos-label", "yes"],
                              "--pos-label 'yes' is not a label"),
        "no_numeric_feature": ([*fit, text_only], "no numeric feature column"),
        "compare_non_binary": (["compare", "--data", three, *FAST], "must be binary"),
        "compare_missing_csv": (["compare", "--data", base / "nope.csv"],
                                "no such file"),
        "unknown_method": (["compare", "--methods", "avg,foo"],
                           "unknown method(s) foo"),
        "score_label_mismatch": (["score", numeric_labels, "--model", model_path],
                                 "trained on the labels no, yes"),
        "usage_unknown_option": ([*fit, d, "--bogus"], "unrecognized arguments: "
                                 "--bogus (see 'skpapk fit --help')"),
        "usage_bad_k": (["compare", "--k", "0"], "expected a positive integer"),
        "usage_missing_out": (["fit", d], "--out"),
        "usage_bad_delimiter": (["score", d, "--model", model_path,
                                 "--delimiter", ";;"], "one ASCII character"),
        "bad_test_size": (["compare", "--test-size", "1.5"], "--test-size"),
        "movielens_not_found": (["compare", "--data", "movielens", "--path",
                                 base / "nowhere", "--no-download", "-q"],
                                "u.data not found"),
        "path_without_movielens": (["compare", "--path", base], "--path is for "
                                   "--data movielens, not --data synthetic"),
        # an option that the --data does not read is refused, not ignored
        "n_users_with_a_csv": (["compare", "--data", d, "--n-users", "10"],
                               "--n-users is for --data synthetic, not --data "),
        "n_users_default_with_a_csv": (["compare", "--data", d, "--n-users",
                                        "500"], "--n-users is for --data "
                                       "synthetic, not --data "),
        "group_col_without_a_csv": (["compare", "--group-col", "user"],
                                    "--group-col is for --data FILE.csv, not "
                                    "--data synthetic"),
        "delimiter_with_movielens": (["compare", "--data", "movielens",
                                      "--delimiter", ";"], "--delimiter is for "
                                     "--data FILE.csv, not --data movielens"),
        "fit_two_methods": ([*fit, d, "--method", "avg,max"], "one method"),
        "fit_unsavable_method": ([*fit, d, "--method", "hgb"],
                                 "cannot be saved as plain data"),
        "fit_eta0_without_eta0": ([*fit, d, "--group-col", "user", "--label-col",
                                   "rel", "--method", "greedy", "--eta0", "0.1"],
                                  "does not use it (no parameter eta0)"),
        "score_missing_feature": (["score", missing_f4, "--model", model_path],
                                  "no column 'f2' (the model was trained with it)"),
        "few_n_features": (["compare", "--n-features", "3"], "at least 5"),
        "too_many_cv_folds": (["compare", "--data", d, "--group-col", "user",
                               "--label-col", "rel", "--cv", "group",
                               "--cv-folds", "50", "--max-iter", "5", "-q"],
                              "--cv-folds 50"),
        # within-group: every method failed in its folds, exit 1
        "too_many_cv_folds_within": (["compare", "--data", d, "--group-col",
                                      "user", "--label-col", "rel", "--cv-folds",
                                      "1000", "--methods", "papk,logreg", "-q"],
                                     "for --cv-folds 1000; use --cv-folds "),
        "one_cv_fold": (["compare", "--cv-folds", "1"],
                        "--cv-folds: expected an integer from 2"),
    }


#: Cases also run end to end in a subprocess.
SUBPROCESS_CASES = ["missing_model", "pickle_model", "ragged_line", "unclosed_quote"]


@pytest.fixture(scope="module")
def error_cases(data_dir, dataset, fitted):
    return _error_cases(data_dir / "errors", dataset[0], fitted[0])


def test_error_is_one_line_with_exit_status_2(error_cases, capsys):
    for name, (args, expected) in error_cases.items():
        try:
            returncode = main([str(a) for a in args])
        except SystemExit as exc:  # argparse usage errors
            returncode = exc.code
        out, err = capsys.readouterr()
        assert returncode == 2, (name, err)
        assert out == "", name
        lines = err.splitlines()
        assert len(lines) == 1, (name, err)
        assert lines[0].startswith("skpapk: error: "), name
        assert expected in lines[0], (name, lines[0])


def test_errors_in_a_subprocess_have_no_traceback(error_cases):
    procs = {name: subprocess.Popen(
        [sys.executable, "-m", "skpapk", *map(str, error_cases[name][0])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env())
        for name in SUBPROCESS_CASES}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 2 and out == "", (name, err)
        assert "Traceback" not in err
        assert err.startswith("skpapk: error: ") and err.count("\n") == 1
        assert error_cases[name][1] in err


def test_traceback_option(tmp_path, capsys):
    path = write_csv(tmp_path / "three.csv", ["group", "label", "a"],
                     [["g1", 0, 0.5], ["g1", 1, 0.2], ["g1", 2, 0.3]])
    with pytest.raises(CLIError, match="must be binary"):
        main(["fit", str(path), "--out", str(tmp_path / "m.json"), "--traceback"])


def test_choices_and_defaults_come_from_the_dispatch(capsys):
    # --grid and --scale list what the registry and the scaler table hold,
    # and the help states the defaults that the parser uses
    from skpapk import _defaults
    from skpapk.cli._main import build_parser
    from skpapk.cli._methods import (
        DEFAULT_GRID,
        DEFAULT_SCALE,
        GRID_NAMES,
        SCALERS,
        available_methods,
    )

    for method in available_methods().values():
        assert tuple(method.grids) == GRID_NAMES, method.name
    fit = build_parser().commands["fit"]
    actions = {a.dest: a for a in fit._actions}
    assert tuple(actions["grid"].choices) == GRID_NAMES
    assert actions["grid"].default == DEFAULT_GRID in GRID_NAMES
    assert list(actions["scale"].choices) == list(SCALERS)
    assert actions["scale"].default == DEFAULT_SCALE in SCALERS
    with pytest.raises(SystemExit):
        main(["fit", "--help"])
    out = " ".join(capsys.readouterr()[0].split())
    assert f"(default: {DEFAULT_GRID})" in out
    assert f"(default: {DEFAULT_SCALE}, as the paper)" in out
    assert f"(default: theirs, {_defaults.MAX_ITER})" in out
    assert "%(default)" not in out


@pytest.mark.parametrize("scale", ["minmax", "standard", "none"])
def test_every_scale_builds_its_scaler(scale):
    from skpapk.cli._methods import SCALERS, make_model

    step = make_model("avg", k=3, scale=scale, random_state=0).named_steps["scale"]
    expected = SCALERS[scale]
    assert (step == "passthrough" if expected is None
            else type(step).__name__ == expected[1])


def test_the_grid_help_shows_the_small_grids_of_the_registry():
    # it showed the subgradient rankers' grid only, not papk's (the default
    # method), whose alpha grid is another
    from skpapk.cli._main import build_parser
    from skpapk.cli._methods import available_methods

    help_text = " ".join(build_parser().commands["fit"].format_help().split())
    small = available_methods()["papk"].grids["small"]["alpha"]
    assert ("papk: alpha in {" + ", ".join(f"{v:.0e}".replace("e-0", "e-")
                                           for v in small) + "}") in help_text
    avg = available_methods()["avg"].grids["small"]
    assert ("eta0 in {" + ", ".join(f"{v:g}" for v in avg["eta0"]) + "} x alpha in {"
            + ", ".join(f"{v:g}" for v in avg["alpha"]) + "}") in help_text


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX locales")
def test_non_ascii_columns_and_labels_under_the_c_locale(tmp_path):
    # LC_ALL=C: Python holds a non-ASCII argument's bytes as surrogates; the
    # names and labels of the UTF-8 file must match them still
    from .conftest import make_dataset

    X, y, users, _ = make_dataset()
    rows = [[u, *[repr(float(v)) for v in x], ("non", "sí")[t]]
            for u, x, t in zip(users, X, y)]
    path = write_csv(tmp_path / "données.csv",
                     ["usér", *[f"fé{j}" for j in range(X.shape[1])], "étiquette"],
                     rows)
    env = {**cli_env(), "LC_ALL": "C", "PYTHONUTF8": "0",
           "PYTHONCOERCECLOCALE": "0"}
    model = tmp_path / "modèle.json"
    for columns in (["--features", "fé0,fé2"], ["--ignore-cols", "fé1"]):
        fit = subprocess.run(
            [sys.executable, "-m", "skpapk", "fit", path, "--group-col", "usér",
             "--label-col", "étiquette", "--pos-label", "sí", *columns, "--out",
             model, "--force", *FAST, "-q"],
            capture_output=True, env=env, timeout=300)
        assert fit.returncode == 0, fit.stderr
    score = subprocess.run([sys.executable, "-m", "skpapk", "score", path,
                            "--model", model, "-q"],
                           capture_output=True, env=env, timeout=300)
    assert score.returncode == 0, score.stderr
    assert b"micro-pAp@" in score.stdout


def test_paths_from_the_home_folder_are_the_files_read(tmp_path, monkeypatch,
                                                       capsys):
    # a quoted "~" (the shell leaves it): the checks and the reading expand
    # it alike (the checks looked for ./~/train.csv, the reader read ~/)
    from .conftest import dataset_csv, make_dataset

    dataset_csv(tmp_path / "train.csv", *make_dataset())
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))  # Windows' home
    monkeypatch.chdir(tmp_path)
    (tmp_path / "~").mkdir()  # a folder named "~" here is not what is read
    assert main(["fit", "~/train.csv", "--group-col", "user", "--label-col",
                 "rel", "--pos-label", "yes", "--out", "~/model.json", *FAST,
                 "-q"]) == 0
    assert (tmp_path / "model.json").is_file()
    for command in (["score", "~/train.csv"], ["recommend", "~/train.csv"]):
        assert main([*command, "--model", "~/model.json", "-q"]) == 0
    assert main(["score", "~/none.csv", "--model", "~/model.json"]) == 2
    assert f"{tmp_path / 'none.csv'}: no such file" in capsys.readouterr().err


def test_errors_keep_the_spaces_of_names(tmp_path, capsys):
    # one line, but "a  b" is not shown as "a b", the name asked for
    path = write_csv(tmp_path / "two  spaces.csv", ["user", "label", "a  b"],
                     [["u1", 1, 0.5], ["u1", 0, 0.7]])
    assert main(["fit", str(path), "--group-col", "user", "--features", "a b",
                 "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err
    assert err == (f"skpapk: error: {path} has no column 'a b' (choose it with "
                   f"--features); its columns are: user, label, a  b.\n")


@pytest.mark.parametrize("argv, exits", [
    (["score", "f.csv", "--model", "nope\x1b[31m.json"], False),  # a path
    (["fit", "f.csv", "--out", "m.json", "--method", "pap\x1b[31mk"], False),
    (["score", "f.csv", "--model", "m.json", "--bogus\x1b[31m"], True),  # argparse
])
def test_terminal_codes_in_arguments_are_shown_escaped(argv, exits, capsys):
    # echoed as they are, they would color (or clear) the terminal
    with pytest.raises(SystemExit) if exits else contextlib.nullcontext():
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("skpapk: error: ") and err.count("\n") == 1
    assert "\x1b" not in err and "\\x1b[31m" in err
