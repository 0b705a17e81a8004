"""Surrogate losses of the pAp@k risk: values, (sub)gradients and Hessians."""

from ._lightgbm import LightGBMObjective
from ._losses import (
    AvgSurrogate,
    BaseSurrogate,
    MaxSurrogate,
    PairwiseHingeSurrogate,
    PAUCSurrogate,
    RampSurrogate,
    TightStructSurrogate,
)
from ._preck import PrecAtKSurrogate
from ._registry import SMOOTH_SURROGATES, SURROGATES, get_surrogate, surrogate_loss
from ._smooth import (
    GROUP_WEIGHTS,
    PairLayout,
    PairwiseLogisticSurrogate,
    SmoothPairwiseSurrogate,
    SoftPApKSurrogate,
    group_weights,
    make_pair_layout,
)

__all__ = [
    "GROUP_WEIGHTS",
    "SMOOTH_SURROGATES",
    "SURROGATES",
    "AvgSurrogate",
    "LightGBMObjective",
    "BaseSurrogate",
    "MaxSurrogate",
    "PAUCSurrogate",
    "PairLayout",
    "PairwiseHingeSurrogate",
    "PairwiseLogisticSurrogate",
    "PrecAtKSurrogate",
    "RampSurrogate",
    "SmoothPairwiseSurrogate",
    "SoftPApKSurrogate",
    "TightStructSurrogate",
    "get_surrogate",
    "group_weights",
    "make_pair_layout",
    "surrogate_loss",
]
