"""fit, score and recommend end to end, on CSV files written here."""

import csv
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from skpapk.cli import _files, main
from skpapk.cli._commands import describe_groups
from skpapk.cli._files import load_model
from skpapk.cli._methods import available_methods, make_model
from skpapk.cli._output import CLIError
from skpapk.metrics import (
    expected_papk_score,
    papk_score,
    partial_auc_score,
    precision_at_k_score,
)

from .conftest import (
    FAST,
    FAST_CV,
    cli_env,
    dataset_csv,
    make_dataset,
    run_cli,
    write_csv,
)

FIT = ["--group-col", "user", "--label-col", "rel"]


def parse_csv_text(text):
    rows = list(csv.reader(text.splitlines()))
    return rows[0], rows[1:]


def model_scores(path, X):
    return load_model(path).decision_function(X)


def test_fit_saves_a_json_model_with_columns_and_labels(fitted):
    model_path, proc = fitted
    content = json.loads(model_path.read_text())
    assert content["feature_cols"] == ["f0", "f1", "f2", "f3", "f4"]
    assert (content["group_col"], content["label_col"], content["k"]) == (
        "user", "rel", 3)
    assert content["labels"] == ["no", "yes"] and content["pos_label"] == "yes"
    assert content["method"] == "max" and content["scorer"]["kind"] == "linear"
    assert content["params"]["eta0"] in (0.01, 0.1, 1.0)
    assert content["params"]["alpha"] in (1e-3, 1e-1)
    assert "not used as features (no number in their first rows): item" in \
        proc.stderr
    assert "relevant label: 'yes'" in proc.stderr
    assert proc.stdout.startswith("max: k=3")


def test_recommend_writes_the_true_top_k_of_every_group(fitted, dataset, data_dir):
    model_path, _ = fitted
    path, X, y, users, items = dataset
    out = data_dir / "top.csv"
    assert main(["recommend", str(path), "--model", str(model_path), "--out",
                 str(out), "-q"]) == 0
    header, rows = parse_csv_text(out.read_text())
    assert header == ["user", "rank", "score", "item", "f0", "f1", "f2", "f3",
                      "f4", "rel"]
    scores = model_scores(model_path, X)
    expected = []  # oracle: each user's rows by decreasing score, the first 3
    for user in sorted(set(users.tolist())):
        rows_u = np.flatnonzero(users == user)
        order = rows_u[np.argsort(-scores[rows_u], kind="stable")][:3]
        expected += [[user, str(r + 1), items[i]] for r, i in enumerate(order)]
    assert [[r[0], r[1], r[3]] for r in rows] == expected
    index = {item: i for i, item in enumerate(items)}
    # equal up to the order of the sums in X @ coef
    np.testing.assert_allclose([float(r[2]) for r in rows],
                               scores[[index[r[3]] for r in rows]], rtol=1e-12)
    with open(path, newline="") as f:
        original = {r[0]: r for r in csv.reader(f)}
    assert all(r[3:] == [original[r[3]][0], *original[r[3]][2:]] for r in rows)


def test_recommend_to_stdout_without_label_column(fitted, dataset, data_dir,
                                                  capsys):
    model_path, _ = fitted
    _, X, y, users, items = dataset
    path = write_csv(data_dir / "new.csv", ["user", "f0", "f1", "f2", "f3", "f4",
                                            "rank"],
                     [[u, *map(repr, x.tolist()), 7] for u, x in zip(users, X)])
    assert main(["recommend", str(path), "--model", str(model_path), "--k", "1",
                 "-q"]) == 0
    header, rows = parse_csv_text(capsys.readouterr().out)
    # an input column named 'rank' does not collide with the new one
    assert header == ["user", "skpapk_rank", "score", "f0", "f1", "f2", "f3",
                      "f4", "rank"]
    assert len(rows) == len(set(users.tolist()))
    scores = model_scores(model_path, X)
    for row in rows:
        assert float(row[2]) == pytest.approx(scores[users == row[0]].max(),
                                              rel=1e-12)


def test_score_of_a_file_without_a_scorable_group_is_an_error(fitted, dataset,
                                                             tmp_path, capsys):
    # it printed nan for pAp@k and pAUC with exit status 0 (and nothing else
    # under -q)
    model_path, _ = fitted
    path, X, y, users, items = dataset
    one_label = dataset_csv(tmp_path / "no.csv", X, np.zeros_like(y), users,
                            items)
    assert main(["score", str(one_label), "--model", str(model_path),
                 "-q"]) == 2
    assert "no group (column 'user') has both a relevant and an irrelevant row" in \
        capsys.readouterr().err


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_score_prints_the_metrics_and_a_random_ranking(fitted, dataset, capsys):
    model_path, _ = fitted
    path, X, y, users, _ = dataset
    assert main(["score", str(path), "--model", str(model_path), "--format",
                 "csv"]) == 0
    out, err = capsys.readouterr()
    header, rows = parse_csv_text(out)
    assert header == ["metric", "model", "random"]
    values = {r[0]: (float(r[1]), float(r[2])) for r in rows}
    scores = model_scores(model_path, X)
    assert values["micro-pAp@3"][0] == pytest.approx(
        papk_score(y, scores, k=3, groups=users), abs=5e-5)
    assert values["prec@3"][0] == pytest.approx(
        precision_at_k_score(y, scores, k=3, groups=users), abs=5e-5)
    assert values["pAUC(0, 3/n-]"][0] == pytest.approx(
        partial_auc_score(y, scores, k=3, groups=users), abs=5e-5)
    assert values["micro-pAp@3"][1] == pytest.approx(
        expected_papk_score(y, k=3, groups=users), abs=5e-5)
    assert "12 groups" in err
    assert "relevant label: 'yes' (recorded in the model)" in err


def test_describe_groups_counts_the_groups_without_both_labels():
    y, groups = np.array([1, 0, 1, 1, 0, 0, 1]), np.array([*"aabbccd"])
    assert describe_groups(y, groups, error="none") == (
        "7 rows, 4 groups (3 without a relevant or an irrelevant row: left out "
        "of pAp@k and pAUC)")
    with pytest.raises(CLIError, match="^none$"):
        describe_groups(y[2:], groups[2:], error="none")


def test_fixed_parameters_skip_tuning(dataset, tmp_path, capsys):
    model = tmp_path / "fixed.json"
    assert main(["fit", str(dataset[0]), *FIT, "--method", "max", "--eta0", "0.5",
                 "--alpha", "0.01", "--features", "f0,f2", "--scale", "none",
                 "--out", str(model), *FAST]) == 0
    err = capsys.readouterr().err
    assert "cross-validation" not in err
    assert ("note: nothing is tuned (every parameter of the grid is given), so "
            "--cv-folds is not used") in err
    saved = json.loads(model.read_text())
    assert saved["feature_cols"] == ["f0", "f2"]
    assert saved["params"] == {"eta0": 0.5, "alpha": 0.01, "max_iter": 15}
    assert saved["cv"] == {"tuned": False, "score": None}
    assert len(saved["scorer"]["coef"]) == 2


@pytest.mark.parametrize("options, message", [
    (["--method", "papk", "--max-iter", "5"],
     "papk: warning: ConvergenceWarning: the fit reached --max-iter 5 before it "
     "converged; use a larger --max-iter"),
    (["--method", "avg", "--eta0", "1e30", "--alpha", "0", "--scale", "none"],
     "avg: warning: ConvergenceWarning: no step lowered the objective below its "
     "value at w = 0 (too large steps, or a surrogate lowest there); use smaller "
     "steps (--grid paper, or --eta0), or another --method"),
])
@pytest.mark.parametrize("quiet", [False, True])
def test_the_final_fit_convergence_warnings_are_shown(dataset, tmp_path, options,
                                                      message, quiet, capsys):
    # the folds' are not: the tuned papk fits nine folds of max_iter=5
    assert main(["fit", str(dataset[0]), *FIT, *options, "--out",
                 str(tmp_path / "m.json"), "--cv-folds", "3",
                 *["-q"] * quiet]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines()
             if "ConvergenceWarning" in line]
    method = options[1]
    assert all(line.startswith(f"skpapk: {method}: warning: ConvergenceWarning: ")
               for line in lines)
    assert len(lines) == (0 if quiet else 1 if method == "papk" else 2)
    assert quiet or f"skpapk: {message}" in lines
    # the estimators' advice names Python parameters: the command has none
    assert not re.search(r"(?<!-)\b(max_iter|tol|eta0|alpha|coef_init|"
                         r"early_stopping|PApKRanker)\b|surrogate=", "\n".join(lines))


@pytest.mark.parametrize("max_iter, params", [
    ([], {"eta0": 0.5, "alpha": 0.01}),
    (["--max-iter", "5"], {"eta0": 0.5, "alpha": 0.01, "max_iter": 5}),
])
def test_the_model_file_records_max_iter_when_given(dataset, tmp_path, max_iter,
                                                    params):
    model = tmp_path / "m.json"
    assert main(["fit", str(dataset[0]), *FIT, "--method", "avg", "--eta0", "0.5",
                 "--alpha", "0.01", *max_iter, "--out", str(model), "-q"]) == 0
    assert json.loads(model.read_text())["params"] == params


@pytest.mark.parametrize("quiet", [False, True])
def test_eta0_is_refused_where_unused(dataset, tmp_path, quiet, capsys):
    # papk is fitted by L-BFGS: no step size; a note alone vanished under -q
    model = tmp_path / "papk.json"
    assert main(["fit", str(dataset[0]), *FIT, "--eta0", "1", "--alpha", "0.001",
                 "--out", str(model), *FAST, *["-q"] * quiet]) == 2
    assert capsys.readouterr().err == ("skpapk: error: --eta0: papk (PApKRanker) "
                                       "does not use it (it has no step size); "
                                       "leave --eta0 out.\n")
    assert not model.exists()


@pytest.mark.parametrize("method", ["greedy", "papk", "logreg"])
def test_same_command_twice_gives_byte_identical_models(dataset, tmp_path, method):
    outs = [tmp_path / f"m{i}.json" for i in range(2)]
    for out in outs:
        assert main(["fit", str(dataset[0]), *FIT, "--method", method, "--out",
                     str(out), "-q", *(FAST if method == "papk" else FAST_CV)]) == 0
    assert outs[0].read_bytes() == outs[1].read_bytes()


def test_random_state_reaches_every_estimator():
    for name in available_methods():
        model = make_model(name, k=4, scale="minmax", random_state=123)
        params = model.get_params(deep=True)
        seeds = {v for key, v in params.items() if key.endswith("random_state")}
        assert seeds <= {123}
    greedy = [make_model("greedy", k=4, scale="none", random_state=s)[-1]
              for s in (1, 2)]
    assert [g.random_state for g in greedy] == [1, 2]


def test_text_labels_need_pos_label_and_it_is_recorded(tmp_path, capsys):
    X, y, users, items = make_dataset(seed=3)
    words = dataset_csv(tmp_path / "w.csv", X, y, users, items,
                        label_values=("not_clicked", "clicked"))
    numbers = dataset_csv(tmp_path / "n.csv", X, y, users, items,
                          label_values=("0", "1"))
    common = ["--group-col", "user", "--label-col", "rel", "--method", "max",
              "--eta0", "0.1", "--alpha", "0.01", *FAST]
    # 'not_clicked' > 'clicked' alphabetically: no silent inversion
    assert main(["fit", str(words), "--out", str(tmp_path / "a.json"),
                 *common]) == 2
    assert "--pos-label" in capsys.readouterr().err
    assert main(["fit", str(words), "--out", str(tmp_path / "w.json"),
                 "--pos-label", "clicked", *common]) == 0
    assert "relevant label: 'clicked'" in capsys.readouterr().err
    assert main(["fit", str(numbers), "--out", str(tmp_path / "n.json"), "-q",
                 *common]) == 0
    capsys.readouterr()
    w = json.loads((tmp_path / "w.json").read_text())
    n = json.loads((tmp_path / "n.json").read_text())
    assert w["pos_label"] == "clicked" and w["labels"] == ["not_clicked",
                                                           "clicked"]
    assert w["scorer"] == n["scorer"]  # the same model as with 0/1 labels
    # score reads the words the model knows
    assert main(["score", str(words), "--model", str(tmp_path / "w.json"),
                 "--format", "csv", "-q"]) == 0
    by_words = capsys.readouterr().out
    assert main(["score", str(numbers), "--model", str(tmp_path / "n.json"),
                 "--format", "csv", "-q"]) == 0
    assert capsys.readouterr().out == by_words


def test_output_checks_happen_before_any_work(dataset, fitted, tmp_path, capsys):
    path = str(dataset[0])
    # --out is the input: refused, even with --force (also through a link)
    link = tmp_path / "link.csv"
    os.symlink(path, link)
    before = Path(path).read_bytes()
    for out in (path, str(link)):
        assert main(["fit", path, *FIT, "--out", out, "--force", *FAST]) == 2
        err = capsys.readouterr().err
        assert "is an input of this command" in err and "read " not in err
    assert Path(path).read_bytes() == before
    # a missing folder is reported before reading and training
    assert main(["fit", path, *FIT, "--out", str(tmp_path / "no" / "m.json"),
                 *FAST]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and err.count("\n") == 1
    # an existing file is kept unless --force
    existing = tmp_path / "old.json"
    existing.write_text("keep me")
    assert main(["fit", path, *FIT, "--out", str(existing), *FAST]) == 2
    assert "already exists; add --force" in capsys.readouterr().err
    assert existing.read_text() == "keep me"
    assert main(["recommend", path, "--model", str(fitted[0]), "--out",
                 str(fitted[0]), "--force"]) == 2
    assert "is an input" in capsys.readouterr().err


def test_out_through_a_link_replaces_its_target(dataset, fitted, tmp_path,
                                                capsys):
    target, link = tmp_path / "target.csv", tmp_path / "link.csv"
    target.write_text("old")
    os.symlink(target, link)
    args = ["recommend", str(dataset[0]), "--model", str(fitted[0]), "--out",
            str(link), "-q"]
    assert main(args) == 2 and target.read_text() == "old"  # without --force
    assert "already exists" in capsys.readouterr().err
    assert main([*args, "--force"]) == 0
    assert os.path.islink(link) and os.readlink(link) == str(target)
    assert target.read_text().startswith("user,rank,score")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "target.csv"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("command", ["fit", "recommend"])
@pytest.mark.parametrize("kind", ["fifo", "socket"])
def test_an_out_that_is_no_regular_file_is_refused(dataset, fitted, tmp_path,
                                                   command, kind, capsys):
    # --force replaced a named pipe (or a device: /dev/null as root) by a file
    out = tmp_path / kind
    if kind == "fifo":
        os.mkfifo(out)
    else:
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(out))
    args = {"fit": ["fit", str(dataset[0]), *FIT, *FAST],
            "recommend": ["recommend", str(dataset[0]), "--model", str(fitted[0])]}
    assert main([*args[command], "--out", str(out), "--force"]) == 2
    err = capsys.readouterr().err
    assert f"--out {out} is not a regular file" in err and err.count("\n") == 1
    assert ("--out - to write to stdout" in err) == (command == "recommend")
    assert out.is_fifo() if kind == "fifo" else out.is_socket()
    if kind == "socket":
        sock.close()


def test_a_failed_write_leaves_the_old_file_and_no_temporary(dataset, fitted,
                                                             tmp_path,
                                                             monkeypatch, capsys):
    target = tmp_path / "m.json"
    target.write_bytes(fitted[0].read_bytes())
    good = target.read_bytes()

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_files.os, "fsync", broken_fsync)
    assert main(["fit", str(dataset[0]), *FIT, "--method", "avg", "--eta0", "1",
                 "--alpha", "0.1", "--out", str(target), "--force", "-q",
                 *FAST]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert target.read_bytes() == good
    top = tmp_path / "top.csv"
    assert main(["recommend", str(dataset[0]), "--model", str(target), "--out",
                 str(top), "-q"]) == 2
    assert not top.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]


def test_every_candidate_diverging_is_an_error(tmp_path, capsys):
    X, y, users, items = make_dataset(seed=1)
    path = dataset_csv(tmp_path / "huge.csv", X * 1e200, y, users, items)
    assert main(["fit", str(path), *FIT, "--method", "avg", "--scale", "none",
                 "--out", str(tmp_path / "m.json"), *FAST]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("skpapk: error: every candidate of avg (6: alpha in "
                              "{0.001, 0.1}; eta0 in {0.01, 0.1, 1}) diverged")
    assert "--scale" in err[-1]
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("scale", ["minmax", "none"])
def test_constant_features_get_scaling_advice_only_when_unscaled(tmp_path, capsys,
                                                                 scale):
    X, y, users, items = make_dataset(seed=1)
    path = dataset_csv(tmp_path / "const.csv", np.ones_like(X), y, users, items)
    assert main(["fit", str(path), *FIT, "--method", "papk", "--scale", scale,
                 "--out", str(tmp_path / "m.json"), "-q", *FAST]) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "learned nothing" in err
    assert ("--scale minmax or standard" in err) == (scale == "none")


def test_a_model_that_cannot_rank_is_an_error(tmp_path, capsys):
    # every feature is constant within a user: no model can rank a user's items
    X, y, users, items = make_dataset(seed=2)
    codes = np.unique(users, return_inverse=True)[1]
    X = np.column_stack([codes, codes % 3]).astype(float)
    path = dataset_csv(tmp_path / "flat.csv", X, y, users, items)
    assert main(["fit", str(path), *FIT, "--method", "logreg", "-q",
                 "--out", str(tmp_path / "m.json"), *FAST_CV]) == 1
    err = capsys.readouterr().err
    assert "gives every row of each user the same score: it cannot rank" in err
    assert not (tmp_path / "m.json").exists()


def test_notes_grid_edge_and_n_jobs_cap(dataset, tmp_path, capsys):
    assert main(["fit", str(dataset[0]), *FIT, "--method", "logreg", "--n-jobs",
                 "1000", "--out", str(tmp_path / "m.json"), *FAST_CV]) == 0
    err = capsys.readouterr().err
    assert "note: --n-jobs 1000 capped at" in err
    saved = json.loads((tmp_path / "m.json").read_text())
    c = saved["params"]["C"]
    edge = "largest" if c == 100.0 else "smallest" if c == 0.01 else None
    if edge:
        assert f"note: C={c:g} is the {edge} value of the grid" in err
    else:
        assert "value of the grid" not in err


def test_progress_lines_while_working_and_quiet(fitted, dataset, capsys):
    out = str(dataset[0]) + ".top.csv"
    assert main(["recommend", str(dataset[0]), "--model", str(fitted[0]),
                 "--out", out, "--force"]) == 0
    err = capsys.readouterr().err
    assert "scoring and ranking ..." in err  # a long step, without tqdm's bar
    assert "wrote the top 3 rows of 12 groups" in err
    assert main(["recommend", str(dataset[0]), "--model", str(fitted[0]),
                 "--out", out, "--force", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    os.unlink(out)


def test_closed_stdout_ends_quietly(fitted, tmp_path):
    X, y, users, items = make_dataset(seed=4, n_users=40)
    path = dataset_csv(tmp_path / "many.csv", X, y, users, items)
    with subprocess.Popen(
            [sys.executable, "-m", "skpapk", "recommend", str(path), "--model",
             str(fitted[0]), "--k", "1000", "-q"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env()) as proc:
        proc.stdout.readline()
        proc.stdout.close()  # as `| head -1` does
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == 0
    assert err == ""


def test_console_script_and_module(fitted):
    script = os.path.join(os.path.dirname(sys.executable), "skpapk")
    if not os.path.exists(script):
        pytest.skip("skpapk is not installed as a console script")
    proc = subprocess.run([script, "score", str(fitted[0]).replace(
        "model.json", "train.csv"), "--model", str(fitted[0])],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == run_cli("score", str(fitted[0]).replace(
        "model.json", "train.csv"), "--model", fitted[0]).stdout


@pytest.mark.parametrize("command", ["score", "recommend", "--help"])
def test_what_each_command_imports(fitted, dataset, tmp_path, command):
    # --help imports no scikit-learn; score and recommend of a linear model
    # import no LightGBM (they use the library's metrics and rankers, hence
    # scikit-learn)
    args = {"score": ["score", dataset[0], "--model", fitted[0]],
            "recommend": ["recommend", dataset[0], "--model", fitted[0],
                          "--out", tmp_path / "top.csv"],
            "--help": ["--help"]}[command]
    code = ("import sys\n"
            "from skpapk.cli import main\n"
            "try:\n"
            "    status = main(sys.argv[1:])\n"
            "except SystemExit as exc:\n"
            "    status = exc.code\n"
            "heavy = [m for m in ('sklearn', 'scipy.stats', 'lightgbm')\n"
            "         if m in sys.modules]\n"
            "print('STATUS', status, heavy)\n")
    proc = subprocess.run([sys.executable, "-c", code, *map(str, args)],
                          capture_output=True, text=True, env=cli_env(),
                          timeout=120)
    last = proc.stdout.splitlines()[-1]
    assert last.startswith("STATUS 0 "), proc.stdout + proc.stderr
    if command == "--help":
        assert last == "STATUS 0 []"
    else:
        assert "lightgbm" not in last


def test_a_number_written_two_ways_is_one_label_in_fit_and_score(tmp_path):
    # labels 0, 1 and 1.0: fit refused a "third value" and, with 1 and 1.0
    # only, took 1.0 as irrelevant where score counts it as relevant
    X, y, users, items = make_dataset()
    spelled = np.where(y == 1, np.where(np.arange(y.size) % 2, "1", "1.0"), "0")
    header = ["item", "user", *[f"f{j}" for j in range(X.shape[1])], "rel"]
    path = write_csv(tmp_path / "spellings.csv", header, [
        [it, u, *[repr(float(v)) for v in x], label]
        for it, u, x, label in zip(items, users, X, spelled)])
    model = tmp_path / "m.json"
    assert main(["fit", str(path), *FIT, "--out", str(model), "-q", *FAST]) == 0
    saved = json.loads(model.read_text())
    assert saved["labels"][0] == "0" and saved["pos_label"] in ("1", "1.0")
    # the same model as on a file that writes every relevant label as 1
    plain = write_csv(tmp_path / "plain.csv", header, [
        [it, u, *[repr(float(v)) for v in x], str(int(t))]
        for it, u, x, t in zip(items, users, X, y)])
    other = tmp_path / "p.json"
    assert main(["fit", str(plain), *FIT, "--out", str(other), "-q", *FAST]) == 0
    assert saved["scorer"] == json.loads(other.read_text())["scorer"]


@pytest.mark.parametrize("delimiter", [",", "\t"])
def test_recommend_reads_a_plain_file_as_the_strict_reader_does(
        dataset, fitted, tmp_path, delimiter):
    # a file without quotes is split line by line (fast); one quote sends it
    # to the strict tokenizer: the rows written are the same, as written
    lines = dataset[0].read_text(encoding="utf-8").splitlines()
    lines = [line.replace(",", delimiter).replace(delimiter, f" {delimiter}", 1)
             for line in lines]  # a space kept in the first cell
    plain = ["", lines[0], *[x for i, line in enumerate(lines[1:])
                             for x in ([line, " "] if i % 7 else [line])]]
    quoted = list(plain)
    quoted[3] = '"' + quoted[3].split(delimiter)[0] + '"' + quoted[3][
        len(quoted[3].split(delimiter)[0]):]
    outs = []
    for name, rows in (("plain.csv", plain), ("quoted.csv", quoted)):
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(rows).encode() + b"\r\n")
        out = tmp_path / f"top-{name}"
        assert main(["recommend", str(path), "--model", str(fitted[0]), "--out",
                     str(out), "--delimiter", delimiter, "-q"]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert outs[0].count(b"\n") > 10 and b"item" in outs[0]
