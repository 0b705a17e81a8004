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
