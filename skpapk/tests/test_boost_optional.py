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


def test_import_skpapk_does_not_import_lightgbm_or_numba():
    # numba (the pair kernel) loads at the first evaluation of a smooth loss
    code = ("import sys, skpapk, skpapk.losses; "
            "from skpapk import PApKBoostRanker; "
            "from skpapk.losses import LightGBMObjective; "
            "assert 'lightgbm' not in sys.modules, 'lightgbm imported'; "
            "assert 'numba' not in sys.modules, 'numba imported'")
    subprocess.run([sys.executable, "-c", code], check=True)
