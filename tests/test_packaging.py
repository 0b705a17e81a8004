"""The packaging of the source tree: licence, one version, the ruff lint."""

import importlib.metadata
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import skpapk

tomllib = pytest.importorskip("tomllib")  # Python >= 3.11

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def pyproject():
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)


def test_the_licence_pyproject_claims_is_shipped(pyproject):
    assert pyproject["project"]["license"] == "BSD-3-Clause"
    assert pyproject["project"]["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License")
    assert "skpapk developers" in text
    assert "Neither the name of the copyright holder" in text  # clause 3


def test_the_version_is_written_once(pyproject):
    project = pyproject["project"]
    assert "version" not in project and "version" in project["dynamic"]
    attr = pyproject["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "skpapk.__version__"
    try:
        installed = importlib.metadata.version("skpapk")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("skpapk is not installed (run pip install -e .)")
    assert installed == skpapk.__version__


def test_ruff_is_configured_and_run_by_ci(pyproject):
    ruff = pyproject["tool"]["ruff"]
    assert ruff["line-length"] == 88
    assert set(ruff["lint"]["select"]) >= {"F", "E", "W", "I"}
    assert any(req.startswith("ruff")
               for req in pyproject["project"]["optional-dependencies"]["test"])
    assert "ruff check ." in (ROOT / ".ci" / "run").read_text()


def test_the_code_passes_ruff():
    executable = shutil.which("ruff")
    if executable is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    proc = subprocess.run([executable, "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_import_skpapk_is_light_and_every_public_name_resolves():
    # the estimators are imported on first use (PEP 562): import skpapk
    # does not import scikit-learn, and every name of __all__ is there
    code = ("import sys, skpapk\n"
            "assert 'sklearn' not in sys.modules, 'sklearn imported'\n"
            "names = [n for n in skpapk.__all__ if n not in dir(skpapk)]\n"
            "assert not names, names\n"
            "from skpapk import *\n"
            "missing = [n for n in skpapk.__all__ if n not in globals()]\n"
            "assert not missing, missing\n"
            "assert skpapk.PApKRanker.__module__ == 'skpapk._ranker'\n"
            "try:\n"
            "    skpapk.NoSuchRanker\n"
            "except AttributeError as exc:\n"
            "    assert 'NoSuchRanker' in str(exc)\n"
            "else:\n"
            "    raise AssertionError('no AttributeError')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
