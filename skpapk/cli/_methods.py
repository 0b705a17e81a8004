"""The methods the command line trains: one registry drives options and fits.

Each :class:`Method` says how to build the estimator, which grid of
hyper-parameters to tune, whether features are scaled, whether ``fit``
takes the groups, and whether a fitted model can be saved (a scorer kind of
:mod:`skpapk.cli._model_io`). Adding a method is one entry in
:func:`_registry`, or in :func:`_optional` for one that needs an optional
dependency: the boosted ranker ``boost`` (``PApKBoostRanker``, saved in
LightGBM's text format) appears when both it and LightGBM are installed.

The registry imports no estimator (nor scikit-learn): ``skpapk --help``,
``score`` and ``recommend`` read it without paying for them.
"""

import contextlib
import dataclasses
import importlib
import importlib.util
from collections.abc import Callable

from ._output import CLIError

#: The paper's grids (App. F): eta in 1e-4 ... 0.5 in 1-2-5 steps, lambda in
#: {1e-3, 1e-2, 1e-1, 1}.
PAPER_ETA0 = [1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5]
PAPER_ALPHA = [1e-3, 1e-2, 1e-1, 1.0]


@dataclasses.dataclass(frozen=True)
class Method:
    """One method of the command line.

    Attributes
    ----------
    name : str
        Its name in ``--method`` / ``--methods``.
    label : str
        What the tables show (the paper's name for its methods).
    family : {"ranker", "paper", "pointwise"}
        The library's ranker, a method of the paper's Table 3, or a
        pointwise classifier used as a baseline.
    make : callable
        ``make()`` returns the unfitted estimator.
    grids : dict
        ``{"small": grid, "paper": grid}``, each ``{param: values}``.
    scale : bool
        Whether the features are scaled (``--scale``) before the estimator.
    kind : str or None
        The scorer kind its model files use; None: it cannot be saved (it is
        shown by ``compare`` only).
    fit_groups : bool
        Whether its ``fit`` takes ``groups``.
    """

    name: str
    label: str
    family: str
    make: Callable
    grids: dict
    scale: bool = True
    kind: str = "linear"
    fit_groups: bool = True


def _sgd_grids(has_eta0=True):
    small = {"eta0": [0.01, 0.1, 1.0], "alpha": [1e-3, 1e-1]}
    paper = {"eta0": PAPER_ETA0, "alpha": PAPER_ALPHA}
    if not has_eta0:
        small, paper = {"alpha": small["alpha"]}, {"alpha": paper["alpha"]}
    return {"small": small, "paper": paper}


def _papk_ranker():
    from .. import PApKRanker

    return PApKRanker()


def _papk_grids():
    # PApKRanker's default is the smooth pairwise surrogate fitted by L-BFGS:
    # eta0 (a step size of Algorithm 1) plays no part; alpha does, on the scale
    # of a mean logistic loss (its default is 1e-4).
    return {"small": {"alpha": [1e-5, 1e-4, 1e-3]},
            "paper": {"alpha": [1e-6, 1e-5, 1e-4, 1e-3, 1e-2],
                      "group_weight": ["uniform", "inverse_variance"]}}


def _class(module, name):
    def make():
        return getattr(importlib.import_module(module, __package__), name)()
    return make


def _registry():
    paper = [
        ("avg", "GD-pAp@k-avg", "PApKAvgRanker", ".._ranker"),
        ("max", "GD-pAp@k-max", "PApKMaxRanker", ".._ranker"),
        ("ts", "GD-pAp@k-TS", "PApKTSRanker", ".._ranker"),
        ("ramp", "GD-pAp@k-ramp", "PApKRampRanker", ".._ranker"),
        ("pauc", "SVM-pAUC", "PAUCRanker", ".._baselines"),
        ("preck", "SGD@k-avg", "PrecAtKRanker", ".._baselines"),
    ]
    methods = [Method("papk", "PApKRanker", "ranker", _papk_ranker, _papk_grids())]
    methods += [Method(name, label, "paper", _class(module, cls), _sgd_grids())
                for name, label, cls, module in paper]
    methods += [
        Method("greedy", "Greedy-pAp@k", "paper",
               _class(".._baselines", "GreedyPApKRanker"), _sgd_grids(False)),
        Method("select", "Select-pAp@k", "paper",
               _class(".._baselines", "SelectPApKRanker"), _sgd_grids(False)),
        Method("logreg", "LogisticRegression", "pointwise",
               _class("sklearn.linear_model", "LogisticRegression"),
               {"small": {"C": [0.01, 1.0, 100.0]},
                "paper": {"C": [1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1e3]}},
               fit_groups=False),
        Method("hgb", "HistGradientBoostingClassifier", "pointwise",
               _class("sklearn.ensemble", "HistGradientBoostingClassifier"),
               {"small": {},
                "paper": {"learning_rate": [0.05, 0.1, 0.2],
                          "max_leaf_nodes": [15, 31, 63]}},
               scale=False, kind=None, fit_groups=False),
    ]
    methods += _optional()
    return {m.name: m for m in methods}


def _optional():
    """Methods whose dependency may be missing."""
    out = []
    if importlib.util.find_spec("lightgbm"):
        out.append(Method(
            "boost", "PApKBoostRanker", "ranker",
            _class("..", "PApKBoostRanker"),
            {"small": {}, "paper": {"learning_rate": [0.05, 0.1],
                                    "num_leaves": [15, 31]}},
            scale=False, kind="lightgbm"))
    return out


_METHODS = None


def available_methods():
    """The methods of this installation, ``{name: Method}``, in table order.

    Examples
    --------
    >>> from skpapk.cli._methods import available_methods
    >>> list(available_methods())[:3]
    ['papk', 'avg', 'max']
    """
    global _METHODS
    if _METHODS is None:
        _METHODS = _registry()
    return _METHODS


#: ``compare``'s default methods: the library's rankers, the paper's best
#: baseline on MovieLens, and two pointwise classifiers.
DEFAULT_COMPARE = ("papk", "greedy", "boost", "logreg", "hgb")


def parse_methods(text, *, option="--methods"):
    """Method names from ``'all'``, ``'default'``, ``'paper'`` or a list."""
    methods = available_methods()
    if text == "all":
        return list(methods)
    if text == "default":
        return [m for m in DEFAULT_COMPARE if m in methods]
    if text == "paper":
        return [m for m, spec in methods.items() if spec.family == "paper"]
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in methods]
    if unknown or not names:
        hint = (" (boost needs PApKBoostRanker and LightGBM: pip install lightgbm)"
                if "boost" in unknown else "")
        raise CLIError(f"unknown method(s) {', '.join(unknown) or repr(text)}"
                       f"{hint}; choose from {', '.join(methods)}, or 'default', "
                       f"'paper', 'all' ({option}).")
    if len(set(names)) != len(names):
        raise CLIError(f"{option} names a method twice: {text!r}.")
    return names


def make_model(method, *, k, scale, random_state, max_iter=None, params=None):
    """``Pipeline([("scale", scaler or "passthrough"), ("model", estimator)])``.

    The estimator gets ``k``, ``params`` and ``random_state`` on every
    parameter of that name (nested ones too), so that the same command twice
    gives the same model; ``max_iter`` (epochs) goes to the linear rankers.
    """
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import MinMaxScaler, StandardScaler

    from .._linear import BaseLinearRanker

    spec = available_methods()[method]
    estimator = spec.make()
    own = estimator.get_params(deep=True)
    settings = {name: random_state for name in own
                if name == "random_state" or name.endswith("__random_state")}
    if "k" in own:
        settings["k"] = k
    if max_iter is not None and isinstance(estimator, BaseLinearRanker):
        settings["max_iter"] = max_iter  # epochs; other models' max_iter differ
    for name, value in (params or {}).items():
        if name not in own:
            raise CLIError(f"{spec.label} has no parameter {name!r}.")
        settings[name] = value
    estimator.set_params(**settings)
    scaler = "passthrough"
    if spec.scale and scale != "none":
        scaler = {"minmax": MinMaxScaler, "standard": StandardScaler}[scale]()
    return Pipeline([("scale", scaler), ("model", estimator)])


def grid_for(method, grid_name, fixed=()):
    """The grid to tune, without the parameters fixed on the command line."""
    grid = available_methods()[method].grids[grid_name]
    return {name: list(values) for name, values in grid.items()
            if name not in fixed}


def effective_n_jobs(n_jobs, progress):
    """``--n-jobs`` as a number of processes, capped at the CPUs available."""
    from joblib import cpu_count

    n_cpus = cpu_count()
    if n_jobs < 0:
        return max(1, n_cpus + 1 + n_jobs)
    if n_jobs > n_cpus:
        progress(f"note: --n-jobs {n_jobs} capped at {n_cpus}, the number of "
                 f"CPUs available")
        return n_cpus
    return n_jobs


def limit_threads(n_jobs):
    """At most ``n_jobs`` BLAS and OpenMP threads (HistGradientBoosting's):
    oversubscribed OpenMP threads are many times slower. A no-op without
    threadpoolctl (it comes with scikit-learn; the ``cli`` extra names it)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover
        return contextlib.nullcontext()
    return threadpool_limits(limits=n_jobs)
