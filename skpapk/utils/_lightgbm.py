"""LightGBM, the optional engine of the boosted rankers: whether a
supported release is installed (told without importing it, for the command
line's list of methods) and its import."""

import importlib.metadata
import importlib.util
import re

_INSTALL = (
    "PApKBoostRanker needs LightGBM, an optional dependency of skpapk: install "
    "it with pip install 'skpapk[lightgbm]' (or pip install lightgbm)."
)


#: The oldest LightGBM supported (the ``lightgbm`` extra's floor): older
#: releases pass scikit-learn's ``check_X_y`` the ``force_all_finite=``
#: that scikit-learn 1.8 removed (a ``TypeError`` in their ``fit``).
LIGHTGBM_MIN = (4, 6)


def too_old(found):
    """Whether LightGBM's version string ``found`` is below
    :data:`LIGHTGBM_MIN`."""
    return tuple(int(part) for part in re.findall(r"\d+", found)[:2]) < LIGHTGBM_MIN


def installed_lightgbm():
    """The installed LightGBM's version, read without importing it: None
    when it is not installed, ``""`` when its version is not recorded."""
    if importlib.util.find_spec("lightgbm") is None:
        return None
    try:
        return importlib.metadata.version("lightgbm")
    except importlib.metadata.PackageNotFoundError:  # the import will tell
        return ""


def _import_lightgbm():
    """``lightgbm``, or an ImportError that names the extra to install (or
    to upgrade, below :data:`LIGHTGBM_MIN`)."""
    try:
        import lightgbm
    except ImportError as exc:
        raise ImportError(f"{_INSTALL} ({exc})") from exc
    found = getattr(lightgbm, "__version__", "0")
    if too_old(found):
        raise ImportError(
            f"PApKBoostRanker needs LightGBM >= "
            f"{'.'.join(map(str, LIGHTGBM_MIN))}, but {found} is installed "
            f"(older releases call scikit-learn with an argument that "
            f"scikit-learn 1.8 removed); upgrade it with pip install --upgrade "
            f"'skpapk[lightgbm]' (or pip install --upgrade lightgbm).")
    return lightgbm
