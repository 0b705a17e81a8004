"""The defaults shared by estimators and objectives are those of
``skpapk._defaults``, stated once."""

import inspect

import pytest

import skpapk
from skpapk import _defaults
from skpapk.losses import SoftPApKSurrogate, surrogate_loss


def _default(callable_, name):
    return inspect.signature(callable_).parameters[name].default


LINEAR = ["PApKRanker", "PApKAvgRanker", "PApKMaxRanker", "PApKTSRanker",
          "PApKRampRanker", "PAUCRanker", "PrecAtKRanker"]


@pytest.mark.parametrize("name", LINEAR)
def test_linear_rankers_share_the_defaults(name):
    params = getattr(skpapk, name)().get_params()
    assert params["k"] == _defaults.K
    assert params["eta0"] == _defaults.ETA0
    assert params["max_iter"] == _defaults.MAX_ITER
    assert params["tol"] == _defaults.TOL
    assert params["n_iter_no_change"] == _defaults.N_ITER_NO_CHANGE
    assert params["validation_fraction"] == _defaults.VALIDATION_FRACTION
    assert params["alpha"] == (_defaults.ALPHA if name == "PApKRanker"
                               else _defaults.HINGE_ALPHA)


def test_temperature_and_group_weight_of_each_model():
    ranker = skpapk.PApKRanker()
    assert ranker.temperature == _defaults.TEMPERATURE
    assert ranker.group_weight == _defaults.GROUP_WEIGHT
    assert _default(surrogate_loss, "temperature") == _defaults.TEMPERATURE
    assert _default(SoftPApKSurrogate, "temperature") == _defaults.TEMPERATURE
    assert (_default(surrogate_loss, "group_weight")
            == _default(SoftPApKSurrogate, "group_weight")
            == _defaults.SURROGATE_GROUP_WEIGHT)
    boost = skpapk.PApKBoostRanker()
    assert boost.temperature == _defaults.BOOST_TEMPERATURE
    assert boost.group_weight == _defaults.GROUP_WEIGHT
    assert boost.k == _defaults.K
    assert boost.truncation_level == _defaults.BOOST_TRUNCATION_LEVEL
    assert ranker.truncation_level == _defaults.TRUNCATION_LEVEL


def _public_callables():
    import importlib

    modules = [skpapk, importlib.import_module("skpapk.losses"),
               importlib.import_module("skpapk.metrics")]
    try:  # an optional dependency: absent from an install without the extra
        modules.append(importlib.import_module("skpapk.dask"))
    except ImportError:
        pass
    for module in modules:
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj):
                yield f"{module.__name__}.{name}", obj


# every default of these parameters, across the public API, is one of the
# constants of ``skpapk._defaults`` (two where two models keep two values)
ALLOWED = {
    "k": {_defaults.K},
    "temperature": {_defaults.TEMPERATURE, _defaults.BOOST_TEMPERATURE},
    "group_weight": {_defaults.GROUP_WEIGHT, _defaults.SURROGATE_GROUP_WEIGHT},
    "alpha": {_defaults.ALPHA, _defaults.HINGE_ALPHA},
    "eta0": {_defaults.ETA0},
    "validation_fraction": {_defaults.VALIDATION_FRACTION,
                            _defaults.GREEDY_VALIDATION_FRACTION},
    "tol": {_defaults.TOL, _defaults.BOOST_TOL},
    "n_iter_no_change": {_defaults.N_ITER_NO_CHANGE,
                         _defaults.BOOST_N_ITER_NO_CHANGE},
    "truncation_level": {_defaults.TRUNCATION_LEVEL,
                         _defaults.BOOST_TRUNCATION_LEVEL},
}


@pytest.mark.parametrize("name, obj", list(_public_callables()),
                         ids=lambda value: value if isinstance(value, str) else "")
def test_every_public_default_comes_from_defaults(name, obj):
    try:
        parameters = inspect.signature(obj).parameters
    except (TypeError, ValueError):  # not introspectable (a C callable)
        pytest.skip(f"{name} has no signature")
    for param, allowed in ALLOWED.items():
        if param in parameters:
            default = parameters[param].default
            if default is inspect.Parameter.empty or default is None:
                continue
            assert default in allowed, (name, param, default)


def test_baselines_and_surrogates_take_their_defaults_from_defaults():
    greedy = skpapk.GreedyPApKRanker()
    assert greedy.n_estimators == _defaults.GREEDY_N_ESTIMATORS
    assert greedy.n_line_search == _defaults.GREEDY_N_LINE_SEARCH
    assert greedy.validation_fraction == _defaults.GREEDY_VALIDATION_FRACTION
    assert greedy.max_iter == _defaults.LOGISTIC_MAX_ITER
    assert greedy.tol == _defaults.TOL
    select = skpapk.SelectPApKRanker()
    assert select.max_iter == _defaults.SELECT_MAX_ITER
    assert select.tol == _defaults.TOL
    assert skpapk.PApKRanker().surrogate == _defaults.SURROGATE
    assert _default(surrogate_loss, "surrogate") == _defaults.LOSS_SURROGATE


def test_boosted_objective_shares_the_boosted_ranker_defaults():
    from skpapk.losses import LightGBMObjective

    objective, boost = LightGBMObjective(), skpapk.PApKBoostRanker()
    for param in ("k", "temperature", "group_weight"):
        assert getattr(objective, param) == getattr(boost, param)
