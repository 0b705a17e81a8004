"""Sphinx configuration of the skpapk documentation.

Build (warnings are errors, the gallery is executed)::

    sphinx-build -W -j 1 -b html doc doc/_build/html
"""

import importlib
import os
import pkgutil
import sys
from pathlib import Path

from docutils import nodes
from sphinx.pycode import ModuleAnalyzer
from sphinx.transforms import SphinxTransform

import skpapk

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "doc" / "sphinxext"))
# The gallery scripts draw with matplotlib: no display during a build.
os.environ.setdefault("MPLBACKEND", "Agg")

project = "skpapk"
author = "skpapk developers"
copyright = "skpapk developers"
version = release = skpapk.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    # links to scikit-learn, NumPy, pandas... without the network
    "external_refs",
]
# every cross-reference must resolve (with -W, a broken one fails the build)
nitpicky = True

templates_path = ["_templates"]
exclude_patterns = ["_build", "_templates"]
root_doc = "index"

# One generated page per public name (api.rst lists them; the test
# skpapk/tests/test_docstrings.py checks that it lists every public name).
autosummary_generate = True
# numpydoc renders the Parameters / Returns / Attributes sections; the
# methods are documented by the class template (_templates/class.rst), so
# numpydoc's own member tables would document them twice.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

html_theme = "pydata_sphinx_theme"
html_title = f"skpapk {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    # the API and example pages have one heading: the page's width goes to
    # their signatures, code and figures instead of an empty "On this page"
    # (a dict gives every page it does not match an empty sidebar, so the
    # other pages are named: they keep "On this page" and the source link)
    "secondary_sidebar_items": {
        "generated/*": [],
        "auto_examples/*": [],
        "index": ["page-toc", "sourcelink"],
        "getting_started": ["page-toc", "sourcelink"],
        "api": ["page-toc", "sourcelink"],
        "whats_new": ["page-toc", "sourcelink"],
        "user_guide/*": ["page-toc", "sourcelink"],
        # the pages without sections: no empty "On this page" beside their
        # code and tables (the last pattern a page matches wins)
        "user_guide/cli": [],
        "user_guide/dask": [],
        "user_guide/benchmarks": [],
    },
}
# pages without sub-pages: no empty "Section Navigation" beside them; the
# API page's sections (on its right) lead to its ~90 pages, which the left
# sidebar would list in one column beside its tables
html_sidebars = {"getting_started": [], "whats_new": [], "api": []}
html_static_path = ["_static"]
html_css_files = ["skpapk.css"]

# The gallery. Only the scripts named plot_*.py are executed at build time
# (their output and figures are rendered); dask/dask_fit.py and
# dask/distributed_search.py are rendered without being run, because each starts
# a dask LocalCluster of worker processes, which takes long and needs more
# cores than a CI build has (tests/test_examples.py runs them).
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py|/_",
    "download_all_examples": False,
    "remove_config_comments": True,
    # the introduction to the metric first, then fitting, evaluating,
    # tuning, comparing
    "within_subsection_order": "gallery_order.ExampleOrder",
    # "Examples using X" at the end of X's API page (the templates'
    # minigallery), and the gallery's code linked to the API pages
    "backreferences_dir": "generated/backreferences",
    "doc_module": ("skpapk",),
}


# "pAp@k", "GD-pAp@k-avg", "micro-pAp@10" read as e-mail addresses to
# docutils, which makes them "mailto:" links; the docs hold no address, so
# every such link goes back to plain text.
class _NoMailto(SphinxTransform):
    default_priority = 500

    def apply(self):
        for ref in list(self.document.findall(nodes.reference)):
            if ref.get("refuri", "").startswith("mailto:"):
                ref.replace_self(nodes.Text(ref.astext()))


# The registries of skpapk.losses (SURROGATES, ...) are documented by a
# "#:" comment where they are defined, a private module; autodoc looks for
# it in the public module that re-exports them, finds none and would show
# the docstring of dict or tuple ("Built-in immutable sequence.") instead.
def _data_comment(fullname):
    """The ``#:`` comment of the module-level name ``fullname``, searched in
    its module and, for a package, in the package's modules."""
    module_name, _, name = fullname.rpartition(".")
    module = importlib.import_module(module_name)
    candidates = [module_name] + [
        f"{module_name}.{info.name}"
        for info in pkgutil.iter_modules(getattr(module, "__path__", []))]
    for candidate in candidates:
        docs = ModuleAnalyzer.for_module(candidate).find_attr_docs()
        if ("", name) in docs:
            return list(docs[("", name)])
    return None


def _document_data(app, what, name, obj, options, lines):
    if what == "data":
        comment = _data_comment(name)
        if comment is not None:
            lines[:] = comment


def setup(app):
    app.add_transform(_NoMailto)
    app.connect("autodoc-process-docstring", _document_data)
