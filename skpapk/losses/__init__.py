"""Surrogate losses of the pAp@k risk (values and subgradients)."""

from ._losses import (
    SURROGATES,
    AvgSurrogate,
    BaseSurrogate,
    MaxSurrogate,
    PairwiseHingeSurrogate,
    PAUCSurrogate,
    RampSurrogate,
    TightStructSurrogate,
    surrogate_loss,
)
from ._preck import PrecAtKSurrogate

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
