"""The docs' links to other projects' API pages (doc/sphinxext/external_refs.py):
the build is offline, so they follow each project's page naming rule."""

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "doc" / "sphinxext" / "external_refs.py"
_SPEC = importlib.util.spec_from_file_location("external_refs", _PATH)
external_refs = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(external_refs)

SK = "https://scikit-learn.org/stable/modules/generated/"


@pytest.mark.parametrize("name, url", [
    ("sklearn.model_selection.GroupKFold",
     SK + "sklearn.model_selection.GroupKFold.html"),
    ("sklearn.pipeline.Pipeline.predict",  # a method: an anchor of its class
     SK + "sklearn.pipeline.Pipeline.html#sklearn.pipeline.Pipeline.predict"),
    ("sklearn.utils.Bunch", SK + "sklearn.utils.Bunch.html"),
    ("numpy.ndarray", "https://numpy.org/doc/stable/reference/generated/"
                      "numpy.ndarray.html"),
    ("scipy.stats.ttest_rel", "https://docs.scipy.org/doc/scipy/reference/"
                              "generated/scipy.stats.ttest_rel.html"),
    ("pandas.read_csv", "https://pandas.pydata.org/docs/reference/api/"
                        "pandas.read_csv.html"),
    ("str.format", "https://docs.python.org/3/library/stdtypes.html#str.format"),
    ("float", "https://docs.python.org/3/library/functions.html#float"),
    ("gc.freeze", "https://docs.python.org/3/library/gc.html#gc.freeze"),
    ("numpy.float64", "https://numpy.org/doc/stable/reference/"
                      "arrays.scalars.html#numpy.float64"),
])
def test_a_name_links_to_its_projects_page(name, url):
    assert external_refs.external_url(name) == url


@pytest.mark.parametrize("name", [
    "sklearn.model_selection.GroupKFolds",  # misspelt: stays a warning
    "sklearn.pipeline.Pipeline.predicts",
    "numpy.not_a_function",
    "skpapk.PApKRanker",  # ours: sphinx resolves it, or warns
    "collections.OrderedDict",  # a module not listed
    "sklearn.model_selection",  # modules: their pages follow no rule
    "scipy.stats",
    "numpy.nan",  # a constant
    "sklearn.utils._param_validation.Interval",  # private: no page
])
def test_a_name_that_does_not_import_or_is_not_listed_gets_no_link(name):
    assert external_refs.external_url(name) is None


def test_lightgbm_and_dask_links():
    pytest.importorskip("lightgbm")
    assert external_refs.external_url("lightgbm.LGBMRanker.fit") == (
        "https://lightgbm.readthedocs.io/en/stable/pythonapi/"
        "lightgbm.LGBMRanker.html#lightgbm.LGBMRanker.fit")
    pytest.importorskip("dask")
    assert external_refs.external_url("lightgbm.dask.DaskLGBMRanker") == (
        "https://lightgbm.readthedocs.io/en/stable/pythonapi/"
        "lightgbm.DaskLGBMRanker.html")
    pytest.importorskip("distributed")
    assert external_refs.external_url("dask.distributed.Client") == (
        "https://distributed.dask.org/en/stable/api.html#distributed.Client")
