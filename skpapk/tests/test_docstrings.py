"""numpydoc validation of every public docstring, as scikit-learn checks its own.

Modelled on scikit-learn's ``sklearn/tests/test_docstrings.py``: every name
in the ``__all__`` of :mod:`skpapk` and of its public subpackages, every
public method and property that skpapk defines on those classes (methods
inherited from scikit-learn, LightGBM or ``builtins``, such as
``get_params`` or the ``set_*_request`` methods of metadata routing, are
scikit-learn's docstrings and are left out, as scikit-learn's test leaves
out what it does not own), is validated by :func:`numpydoc.validate.validate`.
Names starting with ``_`` (private methods, ``__init__``, ``__call__``) are
skipped, as scikit-learn skips them: the class docstring documents the
constructor's parameters, and numpydoc checks them against its signature.
One test per object, so that a failure names it and prints its docstring
and errors.
"""

import importlib
import inspect
import re
from inspect import signature
from pathlib import Path

import pytest

numpydoc_validation = pytest.importorskip("numpydoc.validate")

#: The public (sub)packages and modules: every name of their ``__all__`` is
#: checked. ``skpapk.utils`` has no public names (no ``__all__``: its
#: helpers are private modules), which ``test_public_modules_are_listed``
#: checks.
PUBLIC_MODULES = (
    "skpapk",
    "skpapk.cli",
    "skpapk.dask",
    "skpapk.datasets",
    "skpapk.exceptions",
    "skpapk.inspection",
    "skpapk.io",
    "skpapk.losses",
    "skpapk.metrics",
    "skpapk.model_selection",
    "skpapk.utils",
)

#: Modules that need an optional extra (their objects are skipped without it).
OPTIONAL = {"skpapk.dask": "dask"}

#: Error codes ignored everywhere, with scikit-learn's reasons (its test
#: ignores exactly these three):
#:
#: - RT02 "The first line of the Returns section should contain only the
#:   type": a return value may be named (``self : object``), so that the
#:   description can refer to it;
#: - GL01 "Docstring text (summary) should start in the line immediately
#:   after the opening quotes": PEP 257 puts it on the line of the quotes;
#: - GL02 "Closing quotes should be placed in the line after the last text":
#:   a short property docstring fits on one line.
IGNORED_EVERYWHERE = {"RT02", "GL01", "GL02"}

#: Codes checked on classes and functions but not on methods and properties,
#: as scikit-learn does: ES01 (extended summary), SA01 (See Also) and EX01
#: (Examples). A method is documented in the context of its class, whose
#: docstring has the See Also and Examples sections; one-line summaries are
#: the rule for ``fit``, ``score``, ``loss``, ...
CLASS_AND_FUNCTION_ONLY = {"ES01", "SA01", "EX01"}

#: Codes not checked on functions: ES01 only (scikit-learn ignores it for
#: functions too). Functions must have their See Also (SA01) and Examples
#: (EX01) sections, which scikit-learn does not require of its functions but
#: this project does.
FUNCTION_IGNORED = {"ES01"}


def _defining_class(klass, name):
    """The class of ``klass``'s MRO whose ``__dict__`` holds ``name``."""
    for base in klass.__mro__:
        if name in base.__dict__:
            return base
    return None  # pragma: no cover - dir() lists only attributes of the MRO


def _owned_by_skpapk(klass, name):
    """Whether skpapk wrote the docstring of ``klass.name``.

    The attribute must be found on a class of skpapk, and the object must
    come from skpapk too: scikit-learn puts its metadata-routing methods
    (``set_fit_request``, ...) in the ``__dict__`` of every estimator class
    that has a ``fit``, but generates them (and their docstrings) itself.
    """
    owner = _defining_class(klass, name)
    if owner is None or not owner.__module__.startswith("skpapk"):
        return False
    raw = owner.__dict__[name]
    if isinstance(raw, property):
        func = raw.fget
    elif isinstance(raw, (staticmethod, classmethod)):
        func = raw.__func__
    else:
        func = getattr(klass, name)
    return getattr(func, "__module__", "").startswith("skpapk")


def _import(module_name):
    try:
        return importlib.import_module(module_name)
    except ImportError:
        if module_name in OPTIONAL:
            return None
        raise


def _public_objects():
    """``pytest.param(public path, object)`` of every name in a public ``__all__``."""
    for module_name in PUBLIC_MODULES:
        module = _import(module_name)
        if module is None:
            yield pytest.param(
                f"{module_name}.*", None, id=f"{module_name}.*",
                marks=pytest.mark.skip(
                    reason=f"needs the extra {OPTIONAL[module_name]!r}"))
            continue
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                path = f"{module_name}.{name}"
                yield pytest.param(path, obj, id=path)


def _skipped(param):
    """Whether ``param`` is the skipped stand-in of a module not installed."""
    return bool(param.marks)


def _constants():
    """Public names that are data (registries), not classes or functions."""
    for module_name in PUBLIC_MODULES:
        module = _import(module_name)
        for name in getattr(module, "__all__", ()) if module else ():
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                yield f"{module_name}.{name}"


def _methods():
    """``(public path, class, method name)`` of every public skpapk method."""
    for param in _public_objects():
        if _skipped(param):
            yield pytest.param(*param.values, None, marks=param.marks)
            continue
        path, obj = param.values
        if not inspect.isclass(obj):
            continue
        for name in sorted(dir(obj)):
            if name.startswith("_"):
                continue
            raw = inspect.getattr_static(obj, name)
            if not (callable(raw) or isinstance(raw, property)
                    or isinstance(raw, (staticmethod, classmethod))):
                continue
            if _owned_by_skpapk(obj, name):
                yield pytest.param(f"{path}.{name}", obj, name,
                                   id=f"{path}.{name}")


def _import_path(obj, method=None):
    """The path numpydoc imports: the defining module, not the re-export."""
    path = f"{obj.__module__}.{obj.__qualname__}"
    return path if method is None else f"{path}.{method}"


def _filter_errors(errors, kind, klass=None, method=None):
    """The errors that count, given the kind of object ("class", "function",
    "method")."""
    for code, message in errors:
        if code in IGNORED_EVERYWHERE:
            continue
        if kind == "method" and code in CLASS_AND_FUNCTION_ONLY:
            continue
        if kind == "function" and code in FUNCTION_IGNORED:
            continue
        # As scikit-learn: a property has no signature, so numpydoc cannot
        # check its (absent) parameters (PR02 on a "Returns"-like summary).
        if (kind == "method" and code == "PR02"
                and isinstance(inspect.getattr_static(klass, method), property)):
            continue
        yield code, message


def _report(res, name, obj):
    """The docstring and its errors, to read in a failing test's message."""
    try:
        sig = str(signature(obj))
    except (TypeError, ValueError):
        sig = " (no signature: a property)"
    return "\n\n".join([
        str(res["file"]),
        name + sig,
        res["docstring"] or "<no docstring>",
        "# Errors",
        "\n".join(f" - {code}: {message}" for code, message in res["errors"]),
    ])


@pytest.mark.parametrize("path, obj", list(_public_objects()))
def test_public_object_has_a_docstring(path, obj):
    """``help()`` and Sphinx read ``__doc__``: it must be a real docstring."""
    assert obj.__doc__ is not None, f"{path}.__doc__ is None"
    assert obj.__doc__.strip(), f"{path}.__doc__ is empty"
    if inspect.isclass(obj):
        # not the docstring of a base class that the class would inherit
        # if it had none of its own (inspect.getdoc would)
        assert "__doc__" in vars(obj) and vars(obj)["__doc__"], path


@pytest.mark.parametrize("path, obj", list(_public_objects()))
def test_docstring(path, obj):
    """numpydoc validation of a public class or function."""
    kind = "class" if inspect.isclass(obj) else "function"
    res = numpydoc_validation.validate(_import_path(obj))
    res["errors"] = list(_filter_errors(res["errors"], kind))
    if res["errors"]:
        raise ValueError(_report(res, path, obj))


@pytest.mark.parametrize("path, klass, method", list(_methods()))
def test_method_docstring(path, klass, method):
    """numpydoc validation of a public method or property of a public class."""
    res = numpydoc_validation.validate(_import_path(klass, method))
    res["errors"] = list(_filter_errors(res["errors"], "method", klass, method))
    if res["errors"]:
        raise ValueError(_report(res, path, getattr(klass, method)))


def test_public_modules_are_listed():
    """Every public subpackage or module of skpapk is checked here.

    A new public subpackage must be added to ``PUBLIC_MODULES``; one without
    ``__all__`` has no public names, which is only expected of
    ``skpapk.utils``.
    """
    import pkgutil

    import skpapk

    found = {"skpapk"} | {
        f"skpapk.{info.name}" for info in pkgutil.iter_modules(skpapk.__path__)
        if not info.name.startswith("_") and info.name not in ("tests", "conftest")
    }
    assert found == set(PUBLIC_MODULES)
    for module_name in PUBLIC_MODULES:
        module = _import(module_name)
        if module is None or module_name == "skpapk.utils":
            continue
        assert getattr(module, "__all__", None), f"{module_name} has no __all__"


def test_public_subpackages_are_attributes_after_import_skpapk():
    """``import skpapk; skpapk.metrics.papk_score`` works in a fresh process
    (it raised AttributeError unless something had imported it), as
    ``sklearn.linear_model`` after ``import sklearn``; ``dir`` lists them."""
    import subprocess
    import sys

    import skpapk

    names = [m.split(".")[1] for m in PUBLIC_MODULES
             if m.count(".") == 1 and m != "skpapk.utils"
             and (m not in OPTIONAL or _import(m) is not None)]
    code = ("import sys, skpapk; "
            "assert not any(m.startswith('skpapk.metrics') for m in sys.modules); "
            f"print([getattr(skpapk, n).__name__ for n in {names!r}])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str([f"skpapk.{n}" for n in names])
    assert set(names) <= set(dir(skpapk))
    assert set(skpapk.__all__).isdisjoint(names)  # star-imports stay light
    # an optional one whose dependency is missing: hasattr False (dir()
    # walkers such as inspect.getmembers go on), the import statement names
    # the extra
    code = ("import sys, inspect; sys.modules['dask'] = None; import skpapk; "
            "assert not hasattr(skpapk, 'dask'); inspect.getmembers(skpapk); "
            "from skpapk import dask")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True)
    assert proc.returncode == 1 and "pip install 'skpapk[dask]'" in proc.stderr
    assert proc.stderr.rstrip().splitlines()[-1].startswith("ImportError")


def test_the_api_reference_lists_every_public_name():
    """Every name of a public ``__all__`` (but the CLI's ``main`` and the
    registries) under its module's section of ``doc/api.rst``."""
    api = (Path(__file__).parents[2] / "doc" / "api.rst").read_text()
    sections = dict(re.findall(r"\.\. module:: (\S+)\n(.*?)(?=\.\. module::|\Z)",
                               api, flags=re.S))
    missing = []
    for module_name in PUBLIC_MODULES:
        module = _import(module_name)
        if module is None or module_name in ("skpapk.cli", "skpapk.utils"):
            continue
        listed = set(re.findall(r"^   (\w+)$", sections.get(module_name, ""),
                                flags=re.M))
        missing += [f"{module_name}.{name}" for name in module.__all__
                    if name not in listed and name.upper() != name]
    assert missing == []


def test_constants_are_the_registries():
    """The public names that are data: the registries of :mod:`skpapk.losses`.

    They are dicts and tuples, whose ``__doc__`` is the type's; they are
    documented in the API reference (``doc/api.rst``) and in the docstrings
    of the functions that read them, not by numpydoc.
    """
    assert set(_constants()) == {
        "skpapk.losses.GROUP_WEIGHTS",
        "skpapk.losses.SMOOTH_SURROGATES",
        "skpapk.losses.SURROGATES",
    }


def test_the_checks_see_every_kind_of_object():
    """The parametrisation is not empty and reaches methods and properties."""
    paths = {param.values[0] for param in _public_objects() if not _skipped(param)}
    assert {"skpapk.PApKRanker", "skpapk.metrics.papk_score",
            "skpapk.losses.get_surrogate"} <= paths
    methods = {param.values[0] for param in _methods() if not _skipped(param)}
    assert "skpapk.PApKRanker.fit" in methods
    assert "skpapk.PApKBoostRanker.feature_importances_" in methods  # property
    # scikit-learn's methods are not ours to check
    assert "skpapk.PApKRanker.get_params" not in methods
    assert "skpapk.PApKRanker.set_fit_request" not in methods
