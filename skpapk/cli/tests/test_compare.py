"""``skpapk compare``: the table, the random row, the verdict."""

import csv

import numpy as np
import pytest

from skpapk.cli import main
from skpapk.cli._compare import verdict
from skpapk.cli._methods import available_methods, parse_methods
from skpapk.cli._output import CLIError, render
from skpapk.datasets import make_engagement_simulation
from skpapk.metrics import (
    expected_papk_score,
    expected_partial_auc_score,
    expected_precision_at_k_score,
    paired_comparison,
    papk_score,
)
from skpapk.model_selection import within_group_split

from .conftest import FAST, run_cli, write_csv


def parse_csv_text(text):
    rows = list(csv.reader(text.splitlines()))
    return rows[0], rows[1:]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_compare_on_csv_every_method_the_random_row_and_the_winner(dataset, capsys):
    path, X, y, users, _ = dataset
    assert main(["compare", "--data", str(path), "--group-col", "user",
                 "--label-col", "rel", "--k", "3", "--methods", "avg,logreg",
                 "--format", "csv", "--random-state", "3", *FAST]) == 0
    out, err = capsys.readouterr()
    header, rows = parse_csv_text(out)
    assert header == ["method", "estimator", "parameters", "cv pAp@3",
                      "test pAp@3", "test prec@3", "test pAUC@3", "seconds"]
    assert [r[0] for r in rows] == ["avg", "logreg", "random"]
    for row in rows[:2]:
        assert all(0 <= float(v) <= 1 for v in row[3:7])
    # the random row is the exact expectation on the same test split
    _, test = within_group_split(y, users, sizes=(0.8, 0.2), random_state=3)
    assert float(rows[2][4]) == pytest.approx(
        expected_papk_score(y[test], k=3, groups=users[test]), abs=5e-5)
    assert float(rows[2][5]) == pytest.approx(
        expected_precision_at_k_score(y[test], k=3, groups=users[test]), abs=5e-5)
    assert float(rows[2][6]) == pytest.approx(
        expected_partial_auc_score(y[test], k=3, groups=users[test]), abs=5e-5)
    # the verdict names the best test row (on stderr: stdout stays a CSV)
    best = max(rows[:2], key=lambda r: float(r[4]))
    assert f"winner: {best[0]} ({best[1]}), test micro-pAp@3 = {best[4]}" in err
    assert "margin over the runner-up" in err
    assert "[2/2] logreg" in err


def test_verdict_margin_and_standard_error():
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(40), 20)
    y = rng.integers(0, 2, groups.shape[0])
    good = y + rng.normal(scale=0.5, size=y.shape[0])
    bad = rng.normal(size=y.shape[0])
    lines = verdict({"a": ("A", "ranker", bad), "b": ("B", "pointwise", good)},
                    y, groups, 5)
    gains_a = papk_score(y, bad, k=5, groups=groups, average=None)
    gains_b = papk_score(y, good, k=5, groups=groups, average=None)
    diff = gains_b - gains_a
    assert lines[0] == f"winner: b (B), test micro-pAp@5 = {gains_b.mean():.4f}"
    se = diff.std(ddof=1) / np.sqrt(diff.size)
    test = paired_comparison(gains_b, gains_a, random_state=0)
    low, high = test.confidence_interval
    assert lines[1] == (f"margin over the runner-up, a (A): {diff.mean():+.4f} "
                        f"(standard error over the 40 test users: {se:.4f}; "
                        f"paired sign-flip p-value {test.pvalue:.3g} "
                        f"({test.n_resamples:,} random flips); 95% "
                        f"interval [{low:+.4f}, {high:+.4f}])")
    assert not test.exact  # 2**40 sign flips: drawn, not enumerated
    assert test.pvalue < 0.05 and low > 0  # b is far better
    assert lines[2].startswith("note: the winner is a pointwise baseline")
    # equal models: not clearly apart
    lines = verdict({"a": ("A", "ranker", good), "b": ("B", "ranker", good + 1)},
                    y, groups, 5)
    assert "not clearly apart" in lines[2]
    # 10 test users: every sign flip enumerated, an exact p-value
    few = groups < 10
    lines = verdict({"a": ("A", "ranker", bad[few]), "b": ("B", "ranker",
                                                           good[few])},
                    y[few], groups[few], 5)
    assert "over the 10 test users" in lines[1] and "random flips" not in lines[1]
    # the same test scores: a tie has no winner (it named the first one)
    lines = verdict({"a": ("A", "ranker", good), "b": ("B", "pointwise", good),
                     "c": ("C", "ranker", bad)}, y, groups, 5)
    assert lines[0] == (f"no winner: a (A) ties with b at test micro-pAp@5 = "
                        f"{gains_b.mean():.4f}")
    assert "not clearly apart" in lines[2] and len(lines) == 3  # no "note:"


def test_every_method_failing_says_why_even_when_quiet(tmp_path, capsys):
    # a feature constant within each user: no linear model learns anything
    rows = [[f"u{u}", int(i < 3), float(u)] for u in range(10) for i in range(10)]
    path = write_csv(tmp_path / "flat.csv", ["user", "label", "f1"], rows)
    assert main(["compare", "--data", str(path), "--group-col", "user",
                 "--methods", "papk,logreg", "-q", *FAST]) == 1
    out, err = capsys.readouterr()
    assert "no method could be trained" in out
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "skpapk: error: no method could be trained (papk: "), err
    assert "; logreg: " in lines[0] and "vary within users" in lines[0]


def test_the_protocol_line_says_when_nothing_is_tuned(capsys):
    assert main(["compare", "--n-users", "12", "--methods", "hgb",
                 "--cv-folds", "5", "--k", "4"]) == 0
    err = capsys.readouterr().err
    assert "so --cv-folds is not used" in err
    assert "test part 0.2, no tuning on the rest; k = 4" in err
    assert "5-fold CV" not in err and "KFold CV" not in err
    assert "(within_group_split);" in err


def test_default_compare_on_the_simulation_in_process(capsys):
    assert main(["compare", "--n-users", "30", "--methods", "papk,logreg,hgb",
                 "--k", "5", *FAST]) == 0
    out, err = capsys.readouterr()
    # the shares of skpapk.datasets.make_engagement_simulation's docstring
    assert ("synthetic: 30 users with heterogeneous engagement (1-54% of their "
            "40-199 items relevant for 95% of them") in err
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["method", "estimator"]
    assert [line.split()[0] for line in lines[2:5]] == ["papk", "logreg", "hgb"]
    assert lines[5].split()[0] == "random"
    assert any(line.startswith("winner: ") for line in lines)
    assert lines[-1].startswith("total time: ")


def test_simulation_shows_why_pointwise_models_differ():
    X, y, groups, names = make_engagement_simulation(300, random_state=0)
    activity = X[:, names.index("activity")]
    codes = groups
    share = np.bincount(codes, weights=y) / np.bincount(codes)
    mean_activity = np.bincount(codes, weights=activity) / np.bincount(codes)
    # across users, activity predicts the share of relevant items ...
    assert np.corrcoef(share, mean_activity)[0, 1] > 0.5
    # ... but within a user it does not separate relevant from irrelevant rows
    centred = activity - mean_activity[codes]
    assert abs(centred[y == 1].mean() - centred[y == 0].mean()) < 0.1
    # engagement is heterogeneous: from users with few to users with many
    assert share.min() < 0.05 and share.max() > 0.4


def test_markdown_held_out_users_quiet_parallel(dataset):
    path = dataset[0]
    proc = run_cli("compare", "--data", path, "--group-col", "user",
                   "--label-col", "rel", "--k", 3, "--methods", "avg,max",
                   "--cv", "group", "--test-size", 0.25, "--format", "markdown",
                   "--n-jobs", 2, "--quiet", *FAST)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no warning printed by a joblib worker
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("| method") and set(lines[1]) <= {"|", "-"}
    assert lines[2].startswith("| avg") and lines[4].startswith("| random")


def test_a_failing_method_is_shown_and_skipped(tmp_path, capsys):
    from .conftest import dataset_csv, make_dataset

    X, y, users, items = make_dataset(seed=5)
    path = dataset_csv(tmp_path / "huge.csv", X * 1e200, y, users, items)
    assert main(["compare", "--data", str(path), "--group-col", "user",
                 "--label-col", "rel", "--methods", "avg,hgb", "--scale", "none",
                 "--k", "3", *FAST]) == 0
    out, err = capsys.readouterr()
    assert "[1/2] avg: failed: every candidate of avg" in err
    rows = {line.split()[0]: line for line in out.splitlines()[2:5]}
    assert "failed" in rows["avg"]
    assert "winner: hgb" in out
    # its hints name compare's options only (it has no --eta0)
    assert "smaller steps (--grid paper)," in err and "--eta0" not in err


def test_a_failed_row_keeps_the_numbers_right_aligned():
    table = render(["method", "cv", "test"], [["avg", "failed", "-"],
                                              ["logreg", "0.5", "0.25"]], "table")
    assert table.splitlines()[2:] == ["avg     failed     -",
                                      "logreg     0.5  0.25"]


def test_one_test_user_names_the_winner_and_cannot_test_the_margin(capsys):
    # paired_comparison needs two users: the run ended in its error, exit 2
    assert main(["compare", "--n-users", "1", "--methods", "avg,logreg", "--k",
                 "4", "-q", *FAST]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "\nwinner: avg (GD-pAp@k-avg)" in out
    assert ("\nmargin over the runner-up, logreg (LogisticRegression): cannot be "
            "tested: it needs 2 or more test users with both a relevant and an "
            "irrelevant row, got 1\n") in out


def test_csv_format_keeps_the_verdict_under_quiet(capsys):
    # with --format csv the verdict goes to stderr, which -q silenced: lost
    assert main(["compare", "--n-users", "12", "--methods", "avg,logreg",
                 "--format", "csv", "-q", *FAST]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("method,estimator,") and "winner" not in out
    assert err.startswith("skpapk: winner: ")
    assert "skpapk: margin over the runner-up, " in err and "[1/2]" not in err


def test_no_scorable_test_user_is_refused_before_tuning(tmp_path, capsys):
    # 2 relevant rows of 20: the test part (4 rows a user) holds none; every
    # metric was nan, the winner 'nan' and a RuntimeWarning leaked under -q
    rng = np.random.default_rng(0)
    rows = [[f"u{u}", int(i < 2), rng.normal()] for u in range(30)
            for i in range(20)]
    path = write_csv(tmp_path / "sparse.csv", ["group", "label", "a"], rows)
    assert main(["compare", "--data", str(path), "--methods", "papk", *FAST]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "[1/1]" not in err  # nothing tuned
    assert err.splitlines()[-1] == (
        "skpapk: error: no test user has both a relevant and an irrelevant row, "
        "so no method could be scored; use a larger --test-size, or users with "
        "more rows of each label.")


@pytest.mark.parametrize("methods, note", [
    ("hgb", "hgb"), ("logreg,hgb", None), ("boost", "boost"),
    ("hgb,boost", "hgb or boost")])
def test_nothing_to_tune_is_noted_as_by_fit(methods, note, capsys):
    if "boost" in methods:
        pytest.importorskip("lightgbm")
    assert main(["compare", "--n-users", "12", "--methods", methods,
                 "--cv-folds", "2", "--cv", "group"]) == 0
    err = capsys.readouterr().err  # compare has no option to give a parameter
    assert ("note: nothing is tuned" in err) == bool(note)  # --cv: the test part
    assert not note or (f"note: nothing is tuned (no grid for {note} with --grid "
                        f"small), so --cv-folds is not used\n") in err


def test_plot_writes_a_png(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "users.png"
    assert main(["compare", "--n-users", "12", "--methods", "avg,max", "--k", "4",
                 "--plot", str(png), "--quiet", *FAST]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert capsys.readouterr().err == ""
    assert main(["compare", "--n-users", "10", "--methods", "avg",
                 "--plot", str(tmp_path / "no" / "p.png"), *FAST]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not exist" in err[0]


@pytest.mark.parametrize("given", ["path", "folder", "SKPAPK_DATA"])
def test_plot_never_replaces_the_movielens_file(given, tmp_path, capsys,
                                               monkeypatch):
    # --force replaced the u.data that --path (or $SKPAPK_DATA) named
    pytest.importorskip("matplotlib")
    udata = tmp_path / "u.data"
    udata.write_text("1\t1\t5\t0\n")
    source = {"path": ["--path", str(udata)],
              "folder": ["--path", str(tmp_path)], "SKPAPK_DATA": []}[given]
    monkeypatch.setenv("SKPAPK_DATA", str(udata))
    assert main(["compare", "--data", "movielens", *source, "--plot",
                 str(udata), "--force", "--methods", "papk"]) == 2
    err = capsys.readouterr().err
    assert err == (f"skpapk: error: --plot {udata} is an input of this command; "
                   f"write the output to another file.\n")
    assert udata.read_text() == "1\t1\t5\t0\n"


def test_method_lists():
    methods = available_methods()
    assert list(methods)[:2] == ["papk", "avg"]
    assert {"logreg", "hgb", "greedy", "select", "pauc", "preck"} <= set(methods)
    assert parse_methods("all") == list(methods)
    assert parse_methods("default")[:2] == ["papk", "greedy"]
    assert parse_methods("default")[-2:] == ["logreg", "hgb"]
    assert parse_methods("paper") == ["avg", "max", "ts", "ramp", "pauc", "preck",
                                      "greedy", "select"]
    with pytest.raises(CLIError, match="unknown method\\(s\\) foo"):
        parse_methods("avg,foo")
    with pytest.raises(CLIError, match="names a method twice"):
        parse_methods("avg,avg")


@pytest.mark.parametrize("methods", ["boost", "papk,boost"])
def test_boost_without_lightgbm_names_the_extra(monkeypatch, capsys, methods):
    from skpapk.cli import _methods
    from skpapk.utils import _lightgbm

    without = {n: m for n, m in available_methods().items() if n != "boost"}
    monkeypatch.setattr(_methods, "_METHODS", without)
    monkeypatch.setattr(_lightgbm, "installed_lightgbm", lambda: None)
    with pytest.raises(CLIError, match=r"boost \(--methods\) needs LightGBM, "
                       r"which is not installed: pip install 'skpapk\[lightgbm\]'"):
        parse_methods(methods)
    # the default methods (and all) leave it out, and say so
    assert main(["compare", "--n-users", "30", "--methods", "default"]) == 0
    assert ("boost (PApKBoostRanker) is left out: it needs LightGBM, which is not "
            "installed: pip install 'skpapk[lightgbm]'") in capsys.readouterr().err
    monkeypatch.setattr(_methods, "_METHODS", {
        n: m for n, m in without.items() if n in ("papk", "logreg")})
    assert main(["compare", "--n-users", "30", "--methods", "all"]) == 0
    assert "boost (PApKBoostRanker) is left out" in capsys.readouterr().err


@pytest.mark.parametrize("found, listed", [("4.0.0", False), ("4.5.9", False),
                                           ("4.6.0", True), ("5.1", True),
                                           ("", True)])
def test_boost_with_an_old_lightgbm_names_the_upgrade(monkeypatch, capsys, found,
                                                      listed):
    # an old LightGBM: boost is left out, with the upgrade to make (not a
    # traceback from the estimator's import); "": no version recorded
    from skpapk.cli import _methods
    from skpapk.utils import _lightgbm

    pytest.importorskip("lightgbm")
    monkeypatch.setattr(_lightgbm.importlib.metadata, "version",
                        lambda name: found)
    monkeypatch.setattr(_methods, "_METHODS", None)
    assert ("boost" in available_methods()) is listed
    if listed:
        return
    with pytest.raises(CLIError, match=rf"boost \(--method\) needs LightGBM >= "
                       rf"4\.6, but {found} is installed: pip install "
                       rf"--upgrade 'skpapk\[lightgbm\]'\.$"):
        parse_methods("boost", option="--method")
    assert main(["fit", "no-such.csv", "--method", "boost", "--out",
                 "no-such.json"]) == 2
    assert "--upgrade 'skpapk[lightgbm]'" in capsys.readouterr().err
