"""Links from the docs to the API pages of the libraries skpapk builds on.

:mod:`sphinx.ext.intersphinx` would fetch each project's ``objects.inv``
over the network, which the documentation build does not have (CI builds
offline). These projects name their API pages after the object, so a
reference such as ``:class:`sklearn.pipeline.Pipeline``` is linked by that
rule instead. A name is linked only if it imports: a misspelt one stays
unresolved, and the build (``nitpicky``, warnings as errors) fails on it.
"""

import importlib
import inspect

#: Where a project documents an object named ``page`` (a module-level name;
#: a method or attribute is an anchor on its class's page, or a page of its
#: own for the projects listed in _OWN_PAGES).
_PAGES = {
    "sklearn": "https://scikit-learn.org/stable/modules/generated/{page}.html",
    "numpy": "https://numpy.org/doc/stable/reference/generated/{page}.html",
    "scipy": "https://docs.scipy.org/doc/scipy/reference/generated/{page}.html",
    "pandas": "https://pandas.pydata.org/docs/reference/api/{page}.html",
    "lightgbm": "https://lightgbm.readthedocs.io/en/stable/pythonapi/{page}.html",
    "dask": "https://docs.dask.org/en/stable/generated/{page}.html",
}
#: Projects that give every method a page of its own.
_OWN_PAGES = ("numpy", "scipy", "pandas", "dask")
#: Projects documented on one page, each object an anchor on it.
_ONE_PAGE = {
    "distributed": "https://distributed.dask.org/en/stable/api.html",
    "dask.distributed": "https://distributed.dask.org/en/stable/api.html",
}
_PYTHON = "https://docs.python.org/3/library/{module}.html#{name}"
#: Python's built-in types: documented with their methods in stdtypes.html,
#: except the numbers' constructors, in functions.html.
_BUILTINS = {"str": "stdtypes", "dict": "stdtypes", "list": "stdtypes",
             "tuple": "stdtypes", "bytes": "stdtypes", "int": "functions",
             "float": "functions", "bool": "functions"}


def _resolve(name):
    """``(module, holder, obj)``: the object named ``name``, the object it is
    an attribute of (None for a module-level name) and the module that
    defines the first; None if it does not import."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        module, holder = ".".join(parts[:cut]), None
        try:
            for part in parts[cut:]:
                holder, obj = obj, getattr(obj, part)
        except (AttributeError, ImportError):  # (an experimental estimator)
            return None
        return module, holder, obj
    return None


def external_url(name):
    """The URL of the documentation of ``name`` (a dotted Python name), or
    None if it is not an object of a project listed above."""
    if any(part.startswith("_") for part in name.split(".")):
        return None  # private: no page
    if name.startswith("lightgbm.dask."):  # documented as lightgbm.X
        name = "lightgbm." + name.rpartition(".")[2]
    project = name.split(".")[0]
    if project in _BUILTINS:
        page = _BUILTINS[project] if name == project else "stdtypes"
        return (f"https://docs.python.org/3/library/{page}.html#{name}"
                if _resolve(f"builtins.{name}") else None)
    found = _resolve(name)
    if found is None:
        return None
    module, holder, obj = found
    if inspect.ismodule(obj):
        return None  # modules' pages follow no common rule
    if not (inspect.isclass(obj) or callable(obj)):
        return None  # a constant (numpy.nan): documented on a shared page
    if project == "numpy" and inspect.isclass(obj) and issubclass(
            obj, importlib.import_module("numpy").generic):
        return ("https://numpy.org/doc/stable/reference/arrays.scalars.html#"
                + name)  # the scalar types (numpy.float64) share a page
    for prefix, page in _ONE_PAGE.items():
        if name.startswith(prefix + "."):
            return f"{page}#{name.replace('dask.distributed', 'distributed')}"
    if project in _PAGES:
        if inspect.isclass(holder) and project not in _OWN_PAGES:
            return _PAGES[project].format(page=name.rpartition(".")[0]) + "#" + name
        return _PAGES[project].format(page=name)
    if module in ("gc", "os", "sys", "warnings", "pickle", "json", "pathlib"):
        return _PYTHON.format(module=module, name=name)
    return None


def _missing_reference(app, env, node, contnode):
    from docutils import nodes

    if node.get("refdomain") != "py":
        return None
    url = external_url(node["reftarget"])
    if url is None:
        return None
    link = nodes.reference("", "", internal=False, refuri=url,
                           reftitle=node["reftarget"])
    link += contnode
    return link


def setup(app):
    app.connect("missing-reference", _missing_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
