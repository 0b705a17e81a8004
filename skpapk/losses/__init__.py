"""Surrogate losses of the pAp@k risk (values and subgradients)."""

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
from ._registry import SURROGATES, surrogate_loss

__all__ = [
    "SURROGATES",
    "AvgSurrogate",
    "BaseSurrogate",
    "MaxSurrogate",
    "PAUCSurrogate",
    "PairwiseHingeSurrogate",
    "PrecAtKSurrogate",
    "RampSurrogate",
    "TightStructSurrogate",
    "surrogate_loss",
]
