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
