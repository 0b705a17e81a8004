"""skpapk: rankers and per-group metrics for top-k recommendation with pAp@k."""

from ._base import BaseRanker, Recommendations
from ._baselines import (
    GreedyPApKRanker,
    PAUCRanker,
    PrecAtKRanker,
    SelectPApKRanker,
)
from ._boost import PApKBoostRanker
from ._linear import BaseLinearRanker
from ._ranker import (
    PApKAvgRanker,
    PApKMaxRanker,
    PApKRampRanker,
    PApKRanker,
    PApKTSRanker,
)

__version__ = "0.1.0"

__all__ = [
    "BaseRanker",
    "BaseLinearRanker",
    "GreedyPApKRanker",
    "PApKAvgRanker",
    "PApKBoostRanker",
    "PApKMaxRanker",
    "PApKRampRanker",
    "PApKRanker",
    "PApKTSRanker",
    "PAUCRanker",
    "PrecAtKRanker",
    "Recommendations",
    "SelectPApKRanker",
]
