"""pytest configuration of skpapk's doctests and tests."""

import importlib.util

import pytest
from _pytest.doctest import DoctestItem
from hypothesis import settings

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


def pytest_collection_modifyitems(config, items):
    """Skip the docstring examples that need LightGBM when it is missing."""
    if _has_lightgbm():
        return
    skip = pytest.mark.skip(
        reason="needs LightGBM: pip install 'skpapk[lightgbm]'")
    for item in items:
        if isinstance(item, DoctestItem) and item.name.startswith(_NEEDS_LIGHTGBM):
            item.add_marker(skip)
