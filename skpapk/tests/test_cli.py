"""End-to-end tests of the ``skpapk`` command-line tool.

Most tests run ``python -m skpapk`` in a subprocess on CSV files written
here; the error paths are launched all at once (one module fixture) to keep
the file fast. A few checks call :func:`skpapk._cli.main` in-process.
"""

import csv
import os
import subprocess
import sys
from pathlib import Path

import joblib
import numpy as np
import pytest

from skpapk import __version__
from skpapk._cli import (
    CLIError,
    available_methods,
    main,
    read_csv,
)
from skpapk.datasets import make_papk_simulation
from skpapk.metrics import (
    expected_papk_score,
    expected_partial_auc_score,
    expected_precision_at_k_score,
    papk_score,
    partial_auc_score,
    precision_at_k_score,
)
from skpapk.model_selection import within_group_split

REPO_ROOT = Path(__file__).resolve().parents[2]
FAST = ["--max-iter", "15", "--cv-folds", "2"]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONWARNINGS", None)
    return env


def run_cli(*args, cwd=None):
    """Run ``python -m skpapk ARGS``; return the CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "skpapk", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=_env(),
                          timeout=120)


def start_cli(*args, cwd=None):
    return subprocess.Popen([sys.executable, "-m", "skpapk", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=cwd, env=_env())


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def make_dataset(seed=0, n_users=12, n_features=3):
    """Rows of a CSV: item id (text), user, features, label yes/no."""
    X, y, g = make_papk_simulation(n_users, n_pos=(3, 12), n_neg=(12, 30),
                                   n_features=n_features, random_state=seed)
    items = np.array([f"item{i}" for i in range(y.shape[0])])
    users = np.array([f"u{v:02d}" for v in g])
    return X, y, users, items


def dataset_csv(path, X, y, users, items, *, label_values=("no", "yes")):
    header = ["item", "user", *[f"f{j}" for j in range(X.shape[1])], "rel"]
    rows = [[it, u, *[repr(float(v)) for v in x], label_values[int(t)]]
            for it, u, x, t in zip(items, users, X, y)]
    return write_csv(path, header, rows)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def dataset(data_dir):
    X, y, users, items = make_dataset()
    path = dataset_csv(data_dir / "train.csv", X, y, users, items)
    return path, X, y, users, items


def parse_csv_text(text):
    rows = list(csv.reader(text.splitlines()))
    return rows[0], rows[1:]


# ---------------------------------------------------------------------------
# fit -> score -> recommend
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fitted(dataset, data_dir):
    path, *_ = dataset
    model = data_dir / "model.joblib"
    proc = run_cli("fit", path, "--group-col", "user", "--label-col", "rel",
                   "--k", 3, "--method", "max", "--out", model, *FAST)
    assert proc.returncode == 0, proc.stderr
    return model, proc


def test_fit_saves_model_with_columns(fitted, dataset):
    model_path, proc = fitted
    model = joblib.load(model_path)
    assert model["feature_cols"] == ["f0", "f1", "f2"]  # 'item' is text: skipped
    assert (model["group_col"], model["label_col"], model["k"]) == ("user", "rel", 3)
    assert model["labels"] == ["no", "yes"]
    assert model["method"] == "max"
    assert model["params"]["eta0"] in (0.01, 0.1, 1.0)
    assert model["params"]["alpha"] in (1e-3, 1e-1)
    assert "not used as features (no numeric value): item" in proc.stderr
    assert "relevant label: 'yes'" in proc.stderr
    assert "max: k=3" in proc.stdout


def _model_scores(model_path, X):
    return joblib.load(model_path)["estimator"].decision_function(X)


def test_recommend_writes_true_top_k_per_group(fitted, dataset, data_dir):
    model_path, _ = fitted
    _, X, y, users, items = dataset
    out = data_dir / "top.csv"
    proc = run_cli("recommend", dataset[0], "--model", model_path, "--out", out)
    assert proc.returncode == 0, proc.stderr
    with open(out, newline="") as f:
        header, rows = parse_csv_text(f.read())
    assert header == ["user", "rank", "score", "item", "f0", "f1", "f2", "rel"]
    scores = _model_scores(model_path, X)
    # Oracle: each user's rows sorted by decreasing score, the first k (ties
    # by row order, as the stable sort of the ranker).
    expected = []
    for user in sorted(set(users.tolist())):
        rows_u = np.flatnonzero(users == user)
        order = rows_u[np.argsort(-scores[rows_u], kind="stable")][:3]
        expected += [[user, str(r + 1), items[i]] for r, i in enumerate(order)]
    assert [[r[0], r[1], r[3]] for r in rows] == expected
    item_index = {it: i for i, it in enumerate(items)}
    got_scores = np.array([float(r[2]) for r in rows])
    np.testing.assert_allclose(got_scores, scores[[item_index[r[3]] for r in rows]],
                               rtol=1e-12)
    # the original columns are copied verbatim
    original = {r[0]: r for r in csv.reader(open(dataset[0], newline=""))}
    assert all(r[3:] == [original[r[3]][0], *original[r[3]][2:]] for r in rows)


def test_recommend_to_stdout_with_k_and_no_label_column(fitted, dataset, data_dir):
    model_path, _ = fitted
    _, X, y, users, items = dataset
    # a file of new candidates without the label column
    path = write_csv(data_dir / "new.csv", ["user", "f0", "f1", "f2", "rank"],
                     [[u, *map(repr, x.tolist()), 7] for u, x in zip(users, X)])
    proc = run_cli("recommend", path, "--model", model_path, "--k", 1)
    assert proc.returncode == 0, proc.stderr
    header, rows = parse_csv_text(proc.stdout)
    # an input column named 'rank' does not collide with the new one
    assert header == ["user", "skpapk_rank", "score", "f0", "f1", "f2", "rank"]
    assert len(rows) == len(set(users.tolist()))
    scores = _model_scores(model_path, X)
    for row in rows:
        assert float(row[2]) == pytest.approx(scores[users == row[0]].max(), rel=1e-12)


def test_score_prints_metrics_and_random_baseline(fitted, dataset):
    model_path, _ = fitted
    _, X, y, users, _ = dataset
    proc = run_cli("score", dataset[0], "--model", model_path, "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    header, rows = parse_csv_text(proc.stdout)
    assert header == ["metric", "model", "random"]
    values = {r[0]: (float(r[1]), float(r[2])) for r in rows}
    scores = _model_scores(model_path, X)
    assert set(values) == {"micro-pAp@3", "prec@3", "pAUC(0, 3/n-]"}
    assert values["micro-pAp@3"][0] == pytest.approx(
        papk_score(y, scores, k=3, groups=users), abs=5e-5)
    assert values["prec@3"][0] == pytest.approx(
        precision_at_k_score(y, scores, k=3, groups=users), abs=5e-5)
    assert values["pAUC(0, 3/n-]"][0] == pytest.approx(
        partial_auc_score(y, scores, k=3, groups=users), abs=5e-5)
    assert values["micro-pAp@3"][1] == pytest.approx(
        expected_papk_score(y, k=3, groups=users), abs=5e-5)
    # a trained model beats a random ranking on its training data
    assert values["micro-pAp@3"][0] > values["micro-pAp@3"][1]


def test_fit_with_fixed_params_skips_tuning(dataset, data_dir):
    model = data_dir / "fixed.joblib"
    proc = run_cli("fit", dataset[0], "--group-col", "user", "--label-col", "rel",
                   "--eta0", 0.5, "--alpha", 0.01, "--features", "f0,f2",
                   "--scale", "none", "--out", model, *FAST)
    assert proc.returncode == 0, proc.stderr
    assert "tuning" not in proc.stderr
    saved = joblib.load(model)
    assert saved["feature_cols"] == ["f0", "f2"]
    assert saved["params"] == {"eta0": 0.5, "alpha": 0.01}
    assert saved["cv_score"] is None
    assert saved["estimator"].named_steps["ranker"].n_features_in_ == 2


# ---------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------


def test_compare_on_csv_reports_every_method_and_the_random_row(dataset):
    path, X, y, users, _ = dataset
    proc = run_cli("compare", "--data", path, "--group-col", "user",
                   "--label-col", "rel", "--k", 3, "--methods", "avg,ts",
                   "--format", "csv", "--random-state", 3, *FAST)
    assert proc.returncode == 0, proc.stderr
    header, rows = parse_csv_text(proc.stdout)
    assert header == ["method", "estimator", "eta0", "alpha", "cv pAp@3",
                      "test pAp@3", "test prec@3", "test pAUC@3", "seconds"]
    assert [r[0] for r in rows] == ["avg", "ts", "random"]
    for row in rows[:2]:
        assert float(row[2]) in (0.01, 0.1, 1.0) and float(row[3]) in (1e-3, 0.1)
        assert all(0 <= float(v) <= 1 for v in row[4:8])
    # the random row is the exact expectation on the same test split
    _, test = within_group_split(y, users, sizes=(0.8, 0.2), random_state=3)
    random_row = rows[2]
    assert float(random_row[5]) == pytest.approx(
        expected_papk_score(y[test], k=3, groups=users[test]), abs=5e-5)
    assert float(random_row[6]) == pytest.approx(
        expected_precision_at_k_score(y[test], k=3, groups=users[test]), abs=5e-5)
    assert float(random_row[7]) == pytest.approx(
        expected_partial_auc_score(y[test], k=3, groups=users[test]), abs=5e-5)
    assert "[2/2] ts" in proc.stderr and "best" in proc.stderr


def test_compare_synthetic_quiet_parallel_has_empty_stderr():
    proc = run_cli("compare", "--n-users", 15, "--methods", "avg,max", "--k", 5,
                   "--quiet", "--n-jobs", 2, *FAST)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.strip().splitlines()
    assert lines[0].split()[:2] == ["method", "estimator"]
    assert [line.split()[0] for line in lines[2:]] == ["avg", "max", "random"]


def test_compare_held_out_users_markdown(dataset):
    path, *_ = dataset
    proc = run_cli("compare", "--data", path, "--group-col", "user",
                   "--label-col", "rel", "--k", 3, "--methods", "avg",
                   "--cv", "group", "--test-size", 0.25, "--format", "markdown",
                   *FAST)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("| method") and set(lines[1]) <= {"|", "-"}
    assert lines[2].startswith("| avg") and lines[3].startswith("| random")
    assert "held-out users" in proc.stderr
    # 12 users, test 25%: 3 held-out users
    assert "test: " in proc.stderr and ", 3 groups" in proc.stderr


def test_compare_in_process_default_table(capsys):
    assert main(["compare", "--n-users", "10", "--methods", "ramp", "--k", "4",
                 *FAST]) == 0
    out, err = capsys.readouterr()
    assert "synthetic: 10 users" in err
    assert "[1/1] ramp" in err
    lines = out.splitlines()
    assert lines[0].split() == ["method", "estimator", "eta0", "alpha", "cv",
                                "pAp@4", "test", "pAp@4", "test", "prec@4", "test",
                                "pAUC@4", "seconds"]
    assert [line.split()[0] for line in lines[2:]] == ["ramp", "random"]


def test_methods_table_lists_papk_rankers_and_baselines_when_importable():
    methods = available_methods()
    assert list(methods)[:4] == ["avg", "max", "ts", "ramp"]
    try:
        from skpapk import _baselines
    except ImportError:
        _baselines = None
    for name, class_name in [("pauc", "PAUCRanker"), ("preck", "PrecAtKRanker"),
                             ("greedy", "GreedyPApKRanker"),
                             ("select", "SelectPApKRanker")]:
        assert (name in methods) == hasattr(_baselines, class_name)


def test_max_iter_option_sets_only_the_epochs_of_subgradient_rankers():
    from skpapk._base import BaseSubgradientRanker
    from skpapk._cli import _make_pipeline, _parse_methods

    assert _parse_methods("all") == list(available_methods())
    for name, (_, cls) in available_methods().items():
        ranker = _make_pipeline(name, k=3, scale="none",
                                max_iter=7).named_steps["ranker"]
        assert ranker.k == 3
        if issubclass(cls, BaseSubgradientRanker):
            assert ranker.max_iter == 7
        elif "max_iter" in cls().get_params():  # e.g. Select's outer rounds
            assert ranker.max_iter == cls().max_iter


# ---------------------------------------------------------------------------
# Entry points, help, version
# ---------------------------------------------------------------------------


def test_version_through_console_script_or_module():
    script = Path(sys.executable).with_name("skpapk")
    if script.exists():  # installed with pip install -e . (pyproject scripts)
        proc = subprocess.run([str(script), "--version"], capture_output=True,
                              text=True, timeout=60)
    else:
        proc = run_cli("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"skpapk {__version__}"


@pytest.mark.parametrize("command", ["compare", "fit", "score", "recommend"])
def test_help_of_every_command(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out, _ = capsys.readouterr()
    assert out.startswith(f"usage: skpapk {command}")
    for option in ("--quiet", "--traceback", "--delimiter"):
        assert option in out
    if command == "compare":
        for option in ("--data", "--methods", "--cv", "--n-jobs", "--grid",
                       "--format", "--n-users"):
            assert option in out


def test_no_command_prints_help(capsys):
    assert main([]) == 0
    out, _ = capsys.readouterr()
    assert "compare" in out and "recommend" in out


# ---------------------------------------------------------------------------
# Error paths: exit 2, one line "skpapk: error: ..." on stderr, no traceback
# ---------------------------------------------------------------------------


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
    nan_cell = write_csv(base / "nan_cell.csv", ["group", "label", "a"],
                         [["g1", 1, 0.5], ["g1", 0, "nan"]])
    three = write_csv(base / "three.csv", ["group", "label", "a"],
                      [["g1", 0, 0.5], ["g1", 1, 0.2], ["g1", 2, 0.3]])
    one_label = write_csv(base / "one_label.csv", ["group", "label", "a"],
                          [["g1", 1, 0.5], ["g1", 1, 0.2]])
    ragged = base / "ragged.csv"
    ragged.write_text("group,label,a\ng1,1,0.5\ng1,0\n")
    text_only = write_csv(base / "text_only.csv", ["group", "label", "name"],
                          [["g1", 1, "x"], ["g1", 0, "y"]])
    bad_model = base / "bad.joblib"
    bad_model.write_bytes(b"this is not a pickle")
    not_dict = base / "list.joblib"
    joblib.dump([1, 2, 3], not_dict)
    numeric_labels = write_csv(base / "numlabels.csv",
                               ["user", "f0", "f1", "f2", "rel"],
                               [["u1", 0.1, 0.2, 0.3, 1], ["u1", 0.1, 0.2, 0.3, 0]])
    nan_label = write_csv(base / "nan_label.csv", ["group", "label", "a"],
                          [["g1", "nan", 0.5], ["g1", 0, 0.2]])
    missing_f2 = write_csv(base / "missing_f2.csv", ["user", "f0", "f1", "rel"],
                           [["u1", 0.1, 0.2, "yes"], ["u1", 0.1, 0.2, "no"]])
    fit = ["fit", "--out", base / "m.joblib", *FAST]
    d = dataset_path
    return {
        "missing_file": (["score", base / "nope.csv", "--model", model_path],
                         "no such file"),
        "missing_model": (["score", d, "--model", base / "nope.joblib"],
                          "no such model file"),
        "invalid_model": (["recommend", d, "--model", bad_model],
                          "not a model file"),
        "model_not_dict": (["score", d, "--model", not_dict], "not a model file"),
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
        "nan_feature": ([*fit, nan_cell], "must be finite"),
        "non_binary_label": ([*fit, three], "must be binary"),
        "single_label": ([*fit, one_label], "single value '1'"),
        "ragged_line": ([*fit, ragged], "line 3: 2 fields"),
        "no_numeric_feature": ([*fit, text_only], "no numeric feature column"),
        "compare_non_binary": (["compare", "--data", three, *FAST], "must be binary"),
        "compare_missing_csv": (["compare", "--data", base / "nope.csv"],
                                "no such file"),
        "unknown_method": (["compare", "--methods", "avg,foo"],
                           "unknown method(s) foo"),
        "score_label_mismatch": (["score", numeric_labels, "--model", model_path],
                                 "trained on the labels no, yes"),
        "usage_unknown_option": ([*fit, d, "--bogus"], "unrecognized arguments"),
        "usage_bad_k": (["compare", "--k", "0"], "expected a positive integer"),
        "usage_missing_out": (["fit", d], "--out"),
        "bad_test_size": (["compare", "--test-size", "1.5"], "--test-size"),
        "movielens_not_found": (["compare", "--data", "movielens", "--path",
                                 base / "nowhere", "--no-download", "-q"],
                                "u.data not found"),
        "path_without_movielens": (["compare", "--path", base], "--path is for"),
        "fit_two_methods": ([*fit, d, "--method", "avg,max"], "one method"),
        "nan_label": ([*fit, nan_label], "line 2: label nan"),
        "score_missing_feature": (["score", missing_f2, "--model", model_path],
                                  "no column 'f2' (the model was trained with it)"),
        "too_many_cv_folds": (["compare", "--data", d, "--group-col", "user",
                               "--label-col", "rel", "--cv", "group",
                               "--cv-folds", "50", "--max-iter", "5", "-q"],
                              "n_splits=50"),
    }


#: Cases run end to end in a subprocess (the CSV problems of the issue, the
#: model file problems and a usage error); the others run main() in-process.
SUBPROCESS_CASES = [
    "missing_model", "invalid_model", "empty_file", "missing_group_col",
    "non_numeric_feature", "non_binary_label",
]
ERROR_NAMES = [
    "missing_file", "missing_model", "invalid_model", "model_not_dict",
    "empty_file", "header_only", "missing_group_col", "missing_label_col",
    "missing_feature", "non_numeric_feature", "explicit_text_feature",
    "empty_feature_cell", "nan_feature", "non_binary_label", "single_label",
    "ragged_line", "no_numeric_feature", "compare_non_binary",
    "compare_missing_csv", "unknown_method", "score_label_mismatch",
    "usage_unknown_option", "usage_bad_k", "usage_missing_out", "bad_test_size",
    "too_many_cv_folds", "movielens_not_found", "path_without_movielens",
    "fit_two_methods", "nan_label", "score_missing_feature",
]


@pytest.fixture(scope="module")
def error_cases(data_dir, dataset, fitted):
    return _error_cases(data_dir / "errors", dataset[0], fitted[0])


@pytest.fixture(scope="module")
def error_results(error_cases):
    """Run the subprocess error cases at once (in parallel)."""
    procs = {name: start_cli(*error_cases[name][0]) for name in SUBPROCESS_CASES}
    results = {}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=180)
        results[name] = (proc.returncode, out, err)
    return results


@pytest.mark.parametrize("name", ERROR_NAMES)
def test_error_is_one_line_with_exit_status_2(error_cases, error_results, name,
                                              capsys):
    args, expected = error_cases[name]
    if name in SUBPROCESS_CASES:
        returncode, out, err = error_results[name]
        assert "Traceback" not in err
    else:
        try:
            returncode = main([str(a) for a in args])
        except SystemExit as exc:  # argparse usage errors
            returncode = exc.code
        out, err = capsys.readouterr()
    assert returncode == 2, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("skpapk: error: ")
    assert expected in lines[0]


def test_error_cases_all_tested(error_cases):
    assert set(error_cases) == set(ERROR_NAMES)
    assert set(SUBPROCESS_CASES) <= set(ERROR_NAMES)


def test_error_in_process_and_traceback_option(tmp_path, capsys):
    path = write_csv(tmp_path / "three.csv", ["group", "label", "a"],
                     [["g1", 0, 0.5], ["g1", 1, 0.2], ["g1", 2, 0.3]])
    assert main(["fit", str(path), "--out", str(tmp_path / "m.joblib")]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("skpapk: error: ") and "3 distinct values" in err
    with pytest.raises(CLIError, match="must be binary"):
        main(["fit", str(path), "--out", str(tmp_path / "m.joblib"), "--traceback"])


# ---------------------------------------------------------------------------
# CSV reading and the random baselines (in-process)
# ---------------------------------------------------------------------------


def test_read_csv_default_features_and_ignore(tmp_path):
    path = write_csv(tmp_path / "d.csv",
                     ["id", "group", "name", "label", "x", "y"],
                     [[1, "a", "foo", "yes", 0.5, " 2"],
                      [2, "a", "bar", "no", 1e-3, "-1"],
                      [3, "b", "baz", "no", 7, "0"]])
    data = read_csv(path, group_col="group", label_col="label")
    assert data.feature_cols == ["id", "x", "y"] and data.skipped_cols == ["name"]
    np.testing.assert_array_equal(data.X, [[1, 0.5, 2], [2, 1e-3, -1], [3, 7, 0]])
    assert data.groups.tolist() == ["a", "a", "b"]
    assert data.labels.tolist() == ["yes", "no", "no"]
    data = read_csv(path, group_col="group", label_col="label", ignore=["id"])
    assert data.feature_cols == ["x", "y"]
    data = read_csv(path, group_col="group", label_col="label", features=["y"])
    assert data.X.shape == (3, 1)


def test_read_csv_numeric_labels_greater_is_relevant(tmp_path, capsys):
    # labels -1 / 1 read as numbers: 1 is relevant (and not '-1' > '1' as text)
    rows = [[f"g{i % 3}", 1 if i % 4 == 0 else -1, np.sin(i), np.cos(i)]
            for i in range(60)]
    path = write_csv(tmp_path / "d.csv", ["group", "label", "a", "b"], rows)
    data = read_csv(path, group_col="group", label_col="label")
    assert data.labels.dtype.kind == "f"
    model = tmp_path / "m.joblib"
    env_before = os.environ.get("PYTHONWARNINGS")
    assert main(["fit", str(path), "--out", str(model), "--k", "2", "-q",
                 "--eta0", "0.1", "--alpha", "0.001", "--max-iter", "5"]) == 0
    assert os.environ.get("PYTHONWARNINGS") == env_before  # quiet mode restores it
    assert joblib.load(model)["labels"] == [-1.0, 1.0]
    _, err = capsys.readouterr()
    assert err == ""




def test_compare_plot_writes_a_png(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "users.png"
    assert main(["compare", "--n-users", "10", "--methods", "avg,max", "--k", "4",
                 "--plot", str(png), "--quiet", *FAST]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert capsys.readouterr().err == ""


def test_compare_plot_into_missing_folder_is_a_clean_error(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    target = tmp_path / "no" / "such" / "p.png"
    assert main(["compare", "--n-users", "10", "--methods", "avg",
                 "--plot", str(target), *FAST]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("skpapk: error:")
    assert "does not exist" in err[0]
