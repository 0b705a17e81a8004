"""The benchmark scripts import, and the estimators they define construct.

The scripts run for minutes to hours, so CI does not run them; this catches
what broke two of them once (``PApKBoostRanker``'s ``k`` became
keyword-only and their subclasses passed it by position): every module of
``benchmarks.experiments`` and ``benchmarks.timing`` imports, and every
scikit-learn estimator class it defines builds with its defaults and
clones. Skipped outside a clone (the benchmarks are not installed).
"""

import importlib
import inspect
import os
import pkgutil
from pathlib import Path

import pytest
from sklearn.base import BaseEstimator, clone

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("benchmarks.experiments", "benchmarks.timing")


def _modules():
    if not (ROOT / "benchmarks" / "__init__.py").exists():
        return []
    return [f"{package}.{info.name}" for package in PACKAGES
            for info in pkgutil.iter_modules(
                [str(ROOT / package.replace(".", "/"))])]


@pytest.fixture(autouse=True)
def _environment_kept():
    """Some scripts set OMP_NUM_THREADS when imported: not for the tests after."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.mark.parametrize("name", _modules())
def test_benchmark_module_imports_and_its_estimators_build(name):
    pytest.importorskip("lightgbm")
    pytest.importorskip("dask")
    module = importlib.import_module(name)
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if (issubclass(cls, BaseEstimator) and cls.__module__ == name
                and not inspect.isabstract(cls)):
            estimator = cls()
            assert clone(estimator).get_params() == estimator.get_params()


def test_the_benchmarks_are_found():
    if not (ROOT / "benchmarks").exists():
        pytest.skip("not run from a clone of the repository")
    assert len(_modules()) >= 15


def test_renote_replaces_the_notes_and_keeps_the_runs(tmp_path, monkeypatch):
    if not (ROOT / "benchmarks" / "__init__.py").exists():
        pytest.skip("not run from a clone of the repository")
    main = importlib.import_module("benchmarks.__main__")
    monkeypatch.setattr(main, "NOTES", tmp_path)
    result = main.Result("example", ())
    (tmp_path / "example.md").write_text("old reading\n")
    out = tmp_path / "results"
    out.mkdir()
    path = out / "example.md"
    path.write_text(main._with_notes("# runs\n\n| a | 1 |", result))
    assert "old reading" in path.read_text()
    (tmp_path / "example.md").write_text("new reading\n")
    main.renote(result, out, lambda line: None)
    text = path.read_text()
    assert text.startswith("# runs\n\n| a | 1 |\n\n")
    assert "new reading" in text and "old reading" not in text
    assert text.count(main.NOTES_MARK.format(name="example")) == 1
    path.write_text(main._with_notes("# runs", result, quick=True))
    main.renote(result, out, lambda line: None)
    assert path.read_text().endswith("--only example` --quick: its runs above, "
                                     "in order, then `benchmarks/notes/example.md`; "
                                     "no hand edits.\n")
    # a notes file quoting a --quick command does not make a full run quick
    (tmp_path / "example.md").write_text("run `python -m benchmarks run-all "
                                         "--only example` --quick to try it\n")
    path.write_text(main._with_notes("# runs", result))
    main.renote(result, out, lambda line: None)
    assert path.read_text().endswith("--only example`: its runs above, in "
                                     "order, then `benchmarks/notes/example.md`; "
                                     "no hand edits.\n")
    path.write_text("# edited by hand\n")
    with pytest.raises(SystemExit, match="written before renote existed"):
        main.renote(result, out, lambda line: None)


@pytest.mark.parametrize("name", sorted(
    p.stem for p in (ROOT / "benchmarks" / "results").glob("*.md")))
def test_committed_result_carries_its_current_notes(name):
    """Each committed result file ends with the notes file as it stands and
    ``run-all``'s footer: an edited notes file was re-attached (``renote``)."""
    main = importlib.import_module("benchmarks.__main__")
    result = next(r for r in main.REGISTRY if r.name == name)  # registered
    text = (main.RESULTS / f"{name}.md").read_text()
    mark = main.NOTES_MARK.format(name=name)
    assert text.count(mark) == 1
    runs_text = text.split(mark)[0].rstrip("\n")
    assert text == main._with_notes(runs_text, result)


def _runner():
    if not (ROOT / "benchmarks" / "__init__.py").exists():
        pytest.skip("not run from a clone of the repository")
    return importlib.import_module("benchmarks.__main__")


def test_renote_names_a_missing_file_or_a_repeated_marker(tmp_path, monkeypatch):
    main = _runner()
    monkeypatch.setattr(main, "NOTES", tmp_path)
    result = main.Result("example", ())
    with pytest.raises(SystemExit, match="no such result file; write it with "
                                         "run-all --only example --out"):
        main.renote(result, tmp_path, lambda line: None)
    mark = main.NOTES_MARK.format(name="example")
    (tmp_path / "example.md").write_text(f"# runs\n\n{mark}\n\n{mark}\n")
    with pytest.raises(SystemExit, match="has 2 lines .* where one is written"):
        main.renote(result, tmp_path, lambda line: None)


@pytest.mark.parametrize("argv, match", [
    (["run-all", "--only", "table2", "--out", ""], "expected a folder"),
    (["run-all", "--only", "table2", "--out", "FILE"], "is a file; give a folder"),
    (["renote", "table2", "--out", " "], "expected a folder"),
    (["run-all", "--quick", "--only", "table2", "--out", "RESULTS"],
     "not into benchmarks/results/"),
])
def test_runner_refuses_output_folders_before_any_run(
        argv, match, tmp_path, monkeypatch, capsys):
    # --out "" wrote into the committed benchmarks/results/, a file was a
    # raw FileExistsError, --quick could overwrite the committed results
    main = _runner()
    monkeypatch.setattr(main, "build", lambda *a: pytest.fail("a run started"))
    (tmp_path / "file").write_text("")
    argv = [str(tmp_path / "file") if a == "FILE" else str(main.RESULTS)
            if a == "RESULTS" else a for a in argv]
    with pytest.raises(SystemExit):
        main.main(argv)
    assert match in capsys.readouterr().err


@pytest.mark.parametrize("value", ["", "missing", "folder"])
def test_runner_checks_skpapk_data_before_any_run(value, tmp_path, monkeypatch):
    # a wrong path failed in the first MovieLens run, after hours of others
    main = _runner()
    monkeypatch.setattr(main, "build", lambda *a: pytest.fail("a run started"))
    (tmp_path / "folder").mkdir()
    monkeypatch.setenv("SKPAPK_DATA", value and str(tmp_path / value))
    with pytest.raises(SystemExit, match="SKPAPK_DATA.*set it to that file"):
        main.main(["run-all", "--only", "early_stopping_movielens",
                   "--out", str(tmp_path / "out")])


def test_runner_passes_absolute_paths_to_its_runs(tmp_path, monkeypatch):
    # the runs work in the repository root: a relative --out or SKPAPK_DATA
    # sent their files there
    main = _runner()
    (tmp_path / "u.data").write_text("")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SKPAPK_DATA", ".")
    seen = []
    monkeypatch.setattr(main, "build", lambda result, quick, out, log: seen.append(
        (out, os.environ["SKPAPK_DATA"])))
    main.main(["run-all", "--only", "early_stopping_movielens", "--out", "rel"])
    assert seen == [(tmp_path / "rel", str(tmp_path))]


def test_list_prints_the_commands_that_run_all_runs(capsys):
    main = _runner()
    main.main(["list"])
    text = capsys.readouterr().out
    assert "{results}" not in text and "{tmp}" not in text
    assert ("python -m benchmarks.experiments.reproduce_table2 --n-jobs 1 "
            "--markdown ${TMPDIR:-/tmp}/part0.md") in text
    # the shell expands the folder in every argument: none is quoted
    assert "'${TMPDIR" not in text and "${TMPDIR:-/tmp}/" in text.split(
        "python -m benchmarks.experiments.compare_peers")[1].split("\n")[0]


@pytest.mark.parametrize("module, argv", [
    ("experiments.reproduce_table2", ["--runs", "0"]),
    ("experiments.reproduce_figure1", ["--n-iter", "-1", "--csv", "x.csv"]),
    ("experiments.compare_peers", ["--splits", "0"]),
    ("timing.bench_metrics", ["--repeat", "0"]),
    ("timing.bench_metrics", ["--n-groups", "0"]),
    ("timing.bench_scale", ["--density", "2"]),
    ("timing.bench_scale", ["--n-rows", "0.5"]),
    ("experiments.reproduce_table3_movielens", ["--n-jobs", "0"]),
    ("experiments.reproduce_table2", ["--eta0", "nan"]),
])
def test_scripts_refuse_counts_and_sizes_out_of_range(module, argv, capsys):
    # --runs 0 ended on "cannot convert float NaN to integer", --repeat 0
    # printed "inf s" with exit status 0
    if not (ROOT / "benchmarks" / "__init__.py").exists():
        pytest.skip("not run from a clone of the repository")
    script = importlib.import_module(f"benchmarks.{module}")
    with pytest.raises(SystemExit) as exc:
        script.main(argv)
    assert exc.value.code == 2 and "expected " in capsys.readouterr().err


def test_figure1_needs_its_csv_path_and_takes_few_epochs(tmp_path):
    # its default CSV (and PNG) went to the working folder, the repository
    # root when run as documented; --n-iter under 50 was an IndexError
    if not (ROOT / "benchmarks" / "__init__.py").exists():
        pytest.skip("not run from a clone of the repository")
    script = importlib.import_module("benchmarks.experiments.reproduce_figure1")
    with pytest.raises(SystemExit):
        script.main(["--n-iter", "1"])
    pytest.importorskip("matplotlib")
    script.main(["--n-iter", "3", "--csv", str(tmp_path / "f.csv"),
                 "--markdown", str(tmp_path / "f.md")])
    assert "| 3 |" in (tmp_path / "f.md").read_text()


@pytest.mark.parametrize("writes", [True, False])
def test_extra_files_move_with_the_result_once_every_run_wrote_them(
        tmp_path, monkeypatch, writes):
    # (review) without matplotlib the figure's run exited 0 without its PNG,
    # and run-all kept the old one beside a new CSV and Markdown file
    main = _runner()
    out = tmp_path / "out"
    out.mkdir()
    (out / "figure.png").write_text("old")

    def fake_run(run, quick, results, tmp, log):
        assert results != out  # written aside until every run is done
        (results / "figure.csv").write_text("new")
        if writes:
            (results / "figure.png").write_text("new")
        return "# Figure\n\nrows"

    monkeypatch.setattr(main, "_run", fake_run)
    result = main.Result("figure", (main.Run("experiments.x"),),
                         extra_files=("figure.csv", "figure.png"))
    if writes:
        main.build(result, False, out, lambda line: None)
        assert (out / "figure.png").read_text() == "new"
        assert (out / "figure.csv").read_text() == "new"
        assert (out / "figure.md").read_text().startswith("# Figure\n\nrows")
    else:
        with pytest.raises(SystemExit, match=r"^figure: the runs wrote no "
                           r"figure\.png .* no result file was written"):
            main.build(result, False, out, lambda line: None)
        assert (out / "figure.png").read_text() == "old"
        assert not (out / "figure.csv").exists() and not (out / "figure.md").exists()


def test_machine_line_names_the_code_the_packages_and_the_threads(monkeypatch):
    _runner()  # a clone
    common = importlib.import_module("benchmarks._common")
    for name in common.THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    monkeypatch.setenv("MKL_NUM_THREADS", "1")
    line = common.machine_info()
    assert "numpy " in line and "scikit-learn " in line and "skpapk " in line
    assert line.endswith("; OMP_NUM_THREADS=3, MKL_NUM_THREADS=1")
    if (ROOT / ".git").exists():
        assert " at commit " in line
