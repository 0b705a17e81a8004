"""LightGBM is optional: ``import skpapk`` never imports it, and the boosted
ranker says which extra to install when it is missing (run with or without
LightGBM installed)."""

import re
import subprocess
import sys

import numpy as np
import pytest

from skpapk import PApKBoostRanker


def test_missing_lightgbm_raises_an_import_error_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "lightgbm", None)  # import lightgbm fails
    X = np.arange(8, dtype=float)[:, None]
    y = np.array([0, 1] * 4)
    with pytest.raises(ImportError,
                       match=re.escape("pip install 'skpapk[lightgbm]'")):
        PApKBoostRanker(k=2).fit(X, y)


@pytest.mark.parametrize("version", ["4.0.0", "4.5.0", "3.3.5"])
def test_a_lightgbm_older_than_the_extras_floor_is_named(monkeypatch, version):
    # LightGBM < 4.6 calls check_X_y(force_all_finite=...), which scikit-learn
    # 1.8 removed: its fit raised a TypeError from inside LightGBM
    import types

    fake = types.ModuleType("lightgbm")
    fake.__version__ = version
    monkeypatch.setitem(sys.modules, "lightgbm", fake)
    X = np.arange(8, dtype=float)[:, None]
    y = np.array([0, 1] * 4)
    with pytest.raises(ImportError, match=(
            rf"^PApKBoostRanker needs LightGBM >= 4\.6, but {re.escape(version)} "
            rf"is installed .*pip install --upgrade 'skpapk\[lightgbm\]'")):
        PApKBoostRanker(k=2).fit(X, y)


def test_the_floor_of_the_lightgbm_extra_is_the_one_checked():
    tomllib = pytest.importorskip("tomllib")
    from pathlib import Path

    from skpapk.utils._lightgbm import LIGHTGBM_MIN

    pyproject = Path(__file__).parents[2] / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("not a source checkout")
    with pyproject.open("rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    floor = ">=" + ".".join(map(str, LIGHTGBM_MIN))
    for name, requirements in extras.items():
        for requirement in requirements:
            if requirement.startswith("lightgbm"):
                assert requirement == "lightgbm" + floor, (name, requirement)


def _assert_not_imported(code, modules):
    """Run ``code`` in a fresh Python; none of ``modules`` may be imported."""
    checks = "".join(f"; assert {m!r} not in sys.modules, '{m} imported'"
                     for m in modules)
    subprocess.run([sys.executable, "-c", "import sys; " + code + checks],
                   check=True)


def test_import_skpapk_does_not_import_lightgbm_or_numba():
    # numba (the pair kernel) loads at the first evaluation of a smooth loss
    _assert_not_imported("import skpapk, skpapk.losses; "
                         "from skpapk import PApKBoostRanker; "
                         "from skpapk.losses import LightGBMObjective",
                         ["lightgbm", "numba"])


def test_boosting_with_lightgbms_own_objective_does_not_import_numba():
    # the compiled kernel serves skpapk's objectives only
    pytest.importorskip("lightgbm")
    _assert_not_imported(
        "import numpy as np; from skpapk import PApKBoostRanker; "
        "X = np.arange(40.0).reshape(20, 2); y = np.arange(20) % 3 == 0; "
        "PApKBoostRanker(k=2, objective='lambdarank', n_estimators=2, "
        "min_child_samples=1).fit(X, y, groups=np.arange(20) // 5)", ["numba"])
