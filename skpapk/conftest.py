"""pytest configuration of skpapk's doctests and tests."""

import importlib.util
import re

import pytest
from _pytest.doctest import DoctestItem
from hypothesis import settings

from skpapk.utils._lightgbm import installed_lightgbm

# The property tests draw the same examples on every machine: seeded in
# pyproject.toml's addopts, and without an example database (one left in a
# checkout, e.g. by a run with another --hypothesis-seed, replays its failing
# examples first). A drawn failure worth keeping becomes an @example.
settings.register_profile("skpapk", database=None)
settings.load_profile("skpapk")

#: Modules whose docstring examples run LightGBM (an optional dependency).
_NEEDS_LIGHTGBM = ("skpapk._boost", "skpapk.losses._lightgbm",
                   "skpapk.metrics._lightgbm")

# skpapk.dask needs the optional extra `dask`: without it, neither its
# modules (doctests) nor its tests can be collected.
collect_ignore = [] if importlib.util.find_spec("dask") else ["dask"]


def _has_lightgbm():
    try:
        import lightgbm  # noqa: F401
    except ImportError:
        return False
    return True


def pytest_configure(config):
    """LightGBM < 4.7 with scikit-learn >= 1.6 warns in every ``predict`` of
    its own estimators (``LGBMRanker``, ``LGBMClassifier``) fitted on an
    array, as if fitted with feature names: its ``feature_names_in_`` held
    the names it makes up (``Column_0``, ...; LightGBM issue #6798, fixed in
    4.7). Tests compare skpapk with such models; skpapk's own estimators keep
    their ``feature_names_in_`` and do not warn."""
    found = installed_lightgbm()
    if found and tuple(int(p) for p in re.findall(r"\d+", found)[:2]) < (4, 7):
        config.addinivalue_line(
            "filterwarnings",
            "ignore:X does not have valid feature names, but LGBM:UserWarning")


def pytest_collection_modifyitems(config, items):
    """Skip the docstring examples that need LightGBM when it is missing."""
    if _has_lightgbm():
        return
    skip = pytest.mark.skip(
        reason="needs LightGBM: pip install 'skpapk[lightgbm]'")
    for item in items:
        if isinstance(item, DoctestItem) and item.name.startswith(_NEEDS_LIGHTGBM):
            item.add_marker(skip)
