"""Packages that import their public names on first use (PEP 562)."""

import importlib
import sys


def attach(package, names, submodules=()):
    """``__getattr__``, ``__dir__`` and ``__all__`` of a lazy package.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    names : dict
        Public name -> the (relative) module that defines it.
    submodules : iterable of str, default=()
        Public subpackages, imported on their first access as attributes
        (``import skpapk; skpapk.metrics``, as ``sklearn.linear_model``
        after ``import sklearn``) and listed by ``dir``, not in ``__all__``.

    Returns
    -------
    getattr_, dir_, all_ : callable, callable, list of str
        To assign to the package's ``__getattr__``, ``__dir__`` and
        ``__all__``: a name's module is imported on its first access (then
        the name is a plain attribute of the package).

    Examples
    --------
    >>> import sys, types
    >>> from skpapk.utils._lazy import attach
    >>> pkg = types.ModuleType("pkg")
    >>> sys.modules["pkg"] = pkg
    >>> pkg.__getattr__, pkg.__dir__, pkg.__all__ = attach(
    ...     "pkg", {"sqrt": "math"})
    >>> pkg.sqrt(4.0), "sqrt" in dir(pkg)
    (2.0, True)
    >>> del sys.modules["pkg"]
    """

    submodules = frozenset(submodules)

    def getattr_(name):
        if name in submodules:  # the import sets it on the package
            try:
                return importlib.import_module(f"{package}.{name}")
            except ImportError as exc:  # an optional dependency missing:
                # hasattr() is False, dir() walkers go on; the import
                # statement still raises the ImportError that names the extra
                raise AttributeError(f"module {package!r} has no attribute "
                                     f"{name!r}: {exc}") from exc
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)  # a plain lookup next time
        return value

    def dir_():
        return sorted(set(vars(sys.modules[package])) | set(names) | submodules)

    return getattr_, dir_, sorted(names)
