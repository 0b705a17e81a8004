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
