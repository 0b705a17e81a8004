"""The methods the command line trains: one registry drives options and fits.

A :class:`Method` says how to build the estimator, its grids, whether the
features are scaled and whether its model can be saved (the scorer kind
of :func:`skpapk.io.save_ranker`; None: ``compare`` only). ``boost``
(``PApKBoostRanker``, saved in LightGBM's text format) appears when
LightGBM >= 4.6 is installed. Nothing here imports an estimator before a fit.
"""

import importlib
from typing import NamedTuple

from .._defaults import PAPER_ALPHA_GRID, PAPER_ETA0_GRID
from ._output import CLIError

#: ``compare``'s default methods: the library's rankers, the paper's best
#: baseline on MovieLens, and two pointwise classifiers.
DEFAULT_COMPARE = ("papk", "greedy", "boost", "logreg", "hgb")
#: The hyper-parameter grids of every method (``--grid``): ``small``, a few
#: values, and ``paper``, the paper's grids (App. F) and their like for the
#: other methods. Every :class:`Method` has one grid of each name.
GRID_NAMES = ("small", "paper")
DEFAULT_GRID = "small"
#: ``--scale``: the scaler of each name (module, class), fitted on the
#: training rows of the methods with scaled features; ``"none"``: none.
SCALERS = {"minmax": ("sklearn.preprocessing", "MinMaxScaler"),
           "standard": ("sklearn.preprocessing", "StandardScaler"),
           "none": None}
#: The paper's scaling (min-max), the default of ``--scale``.
DEFAULT_SCALE = "minmax"


class Method(NamedTuple):
    """A method: ``--method`` name, table label, family ("ranker", "paper"
    or "pointwise"), estimator class (module, name), ``{"small": grid,
    "paper": grid}``, scaled features, scorer kind, whether ``fit`` takes
    groups."""

    name: str
    label: str
    family: str
    cls: tuple
    grids: dict
    scale: bool = True
    kind: str = "linear"
    fit_groups: bool = True

    def make(self):
        module, name = self.cls
        return getattr(importlib.import_module(module, __package__), name)()


def _sgd_grids(eta0=True):
    grids = {"small": {"eta0": [0.01, 0.1, 1.0], "alpha": [1e-3, 1e-1]},
             "paper": {"eta0": list(PAPER_ETA0_GRID),
                       "alpha": list(PAPER_ALPHA_GRID)}}
    return grids if eta0 else {g: {"alpha": v["alpha"]} for g, v in grids.items()}


def _registry():
    # PApKRanker's default is the smooth surrogate fitted by L-BFGS: eta0 (a
    # step size of Algorithm 1) plays no part; alpha does (default 1e-4)
    methods = [Method("papk", "PApKRanker", "ranker", ("..", "PApKRanker"),
                      {"small": {"alpha": [1e-5, 1e-4, 1e-3]},
                       "paper": {"alpha": [1e-6, 1e-5, 1e-4, 1e-3, 1e-2],
                                 "group_weight": ["uniform", "inverse_variance"]}})]
    methods += [Method(name, label, "paper", (module, cls), _sgd_grids())
                for name, label, cls, module in [
                    ("avg", "GD-pAp@k-avg", "PApKAvgRanker", ".._ranker"),
                    ("max", "GD-pAp@k-max", "PApKMaxRanker", ".._ranker"),
                    ("ts", "GD-pAp@k-TS", "PApKTSRanker", ".._ranker"),
                    ("ramp", "GD-pAp@k-ramp", "PApKRampRanker", ".._ranker"),
                    ("pauc", "SVM-pAUC", "PAUCRanker", ".._baselines"),
                    ("preck", "SGD@k-avg", "PrecAtKRanker", ".._baselines")]]
    methods += [
        Method("greedy", "Greedy-pAp@k", "paper",
               (".._baselines", "GreedyPApKRanker"), _sgd_grids(False)),
        Method("select", "Select-pAp@k", "paper",
               (".._baselines", "SelectPApKRanker"), _sgd_grids(False)),
        Method("logreg", "LogisticRegression", "pointwise",
               ("sklearn.linear_model", "LogisticRegression"),
               {"small": {"C": [0.01, 1.0, 100.0]},
                "paper": {"C": [1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1e3]}},
               fit_groups=False),
        Method("hgb", "HistGradientBoostingClassifier", "pointwise",
               ("sklearn.ensemble", "HistGradientBoostingClassifier"),
               {"small": {}, "paper": {"learning_rate": [0.05, 0.1, 0.2],
                                       "max_leaf_nodes": [15, 31, 63]}},
               scale=False, kind=None, fit_groups=False)]
    if no_lightgbm() is None:
        methods.append(Method(
            "boost", "PApKBoostRanker", "ranker", ("..", "PApKBoostRanker"),
            {"small": {}, "paper": {"learning_rate": [0.05, 0.1],
                                    "num_leaves": [15, 31]}},
            scale=False, kind="lightgbm"))
    return {m.name: m for m in methods}


_METHODS = None


def no_lightgbm():
    """Why ``boost`` is missing from this installation (LightGBM missing, or
    older than the boosted ranker needs), or None."""
    from ..utils._lightgbm import LIGHTGBM_MIN, installed_lightgbm, too_old

    found = installed_lightgbm()
    if found is None:
        return "needs LightGBM, which is not installed: pip install 'skpapk[lightgbm]'"
    if found and too_old(found):
        return (f"needs LightGBM >= {'.'.join(map(str, LIGHTGBM_MIN))}, but "
                f"{found} is installed: pip install --upgrade 'skpapk[lightgbm]'")
    return None


def available_methods():
    """The methods of this installation, ``{name: Method}``, in table order."""
    global _METHODS
    if _METHODS is None:
        _METHODS = _registry()
    return _METHODS


def parse_methods(text, *, option="--methods"):
    """Method names from ``'all'``, ``'default'``, ``'paper'`` or a list."""
    methods = available_methods()
    if text in ("all", "paper"):
        return [m for m, spec in methods.items()
                if text == "all" or spec.family == "paper"]
    if text == "default":
        return [m for m in DEFAULT_COMPARE if m in methods]
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in methods]
    if unknown == ["boost"]:
        raise CLIError(f"boost ({option}) {no_lightgbm()}.")
    if unknown or not names:
        hint = f" (boost {no_lightgbm()})" if "boost" in unknown else ""
        many = option == "--methods"  # fit's --method: a model it can save
        choices = [m for m in methods if many or methods[m].kind] + [
            "or 'default', 'paper', 'all'"] * many
        raise CLIError(f"unknown method(s) {', '.join(unknown) or repr(text)}"
                       f"{hint}; choose from {', '.join(choices)} ({option}).")
    if len(set(names)) != len(names):
        raise CLIError(f"{option} names a method twice: {text!r}.")
    return names


def make_model(method, *, k, scale, random_state, max_iter=None, params=None,
               n_threads=1):
    """``Pipeline([("scale", scaler or "passthrough"), ("model", estimator)])``.

    The estimator gets ``k``, ``params`` and ``random_state`` on every
    parameter of that name (nested ones too: the same command twice gives
    the same model); ``max_iter`` goes to skpapk's linear rankers;
    ``n_threads`` to skpapk's rankers' ``n_jobs`` (threads within a fit:
    their default, every core, is many times slower on a busy machine).
    """
    from sklearn.pipeline import Pipeline

    spec = available_methods()[method]
    estimator = spec.make()
    own = estimator.get_params(deep=True)
    settings = {name: random_state for name in own
                if name == "random_state" or name.endswith("__random_state")}
    settings.update({"k": k} if "k" in own else {})
    if spec.family == "ranker" and "n_jobs" in own:
        settings["n_jobs"] = n_threads
    if max_iter is not None and has_epochs(method):
        settings["max_iter"] = max_iter  # other models' max_iter differ
    for name, value in (params or {}).items():
        if name not in own:
            raise CLIError(f"{spec.label} has no parameter {name!r}.")
        settings[name] = value
    estimator.set_params(**settings)
    scaler = "passthrough"
    if spec.scale and SCALERS[scale] is not None:
        module, name = SCALERS[scale]
        scaler = getattr(importlib.import_module(module), name)()
    return Pipeline([("scale", scaler), ("model", estimator)])


def has_epochs(method):
    """Whether ``--max-iter`` reaches ``method``: skpapk's linear
    rankers (other estimators' ``max_iter`` means other things)."""
    from .._linear import BaseLinearRanker

    return isinstance(available_methods()[method].make(), BaseLinearRanker)


def grid_for(method, grid_name, fixed=()):
    """The grid to tune, without the parameters fixed on the command line."""
    grid = available_methods()[method].grids[grid_name]
    return {name: list(v) for name, v in grid.items() if name not in fixed}


def effective_n_jobs(n_jobs, progress):
    """``--n-jobs`` as a number of processes, capped at the CPUs available."""
    import joblib

    n_cpus = joblib.cpu_count()
    if n_jobs > n_cpus:
        progress(f"note: --n-jobs {n_jobs} capped at {n_cpus}, the number of "
                 f"CPUs available")
    return min(joblib.effective_n_jobs(n_jobs), n_cpus)
