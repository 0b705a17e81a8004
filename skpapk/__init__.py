"""skpapk: rankers and per-group metrics for top-k recommendation with pAp@k.

The estimators are imported on first use (PEP 562), so that ``import
skpapk`` and ``skpapk --help`` do not pay for importing scikit-learn and
SciPy (the commands that score do: a saved model is a
:class:`~skpapk.BaseRanker`). ``from skpapk import PApKRanker`` works as
usual, and so does ``import skpapk; skpapk.metrics.papk_score``: the public
subpackages are imported on first access too.
"""

from .utils._lazy import attach as _attach

__version__ = "0.1.0"

#: Public name -> the private module that defines it.
_LAZY = {
    "BaseRanker": "._base",
    "Recommendations": "._recommend",
    "GreedyPApKRanker": "._baselines",
    "PAUCRanker": "._baselines",
    "PrecAtKRanker": "._baselines",
    "SelectPApKRanker": "._baselines",
    "PApKBoostRanker": "._boost",
    "BaseLinearRanker": "._linear",
    "PApKAvgRanker": "._ranker",
    "PApKMaxRanker": "._ranker",
    "PApKRampRanker": "._ranker",
    "PApKRanker": "._ranker",
    "PApKTSRanker": "._ranker",
    "recommend": "._recommend",
}

#: The public subpackages, imported on first access (``skpapk.metrics``).
_SUBMODULES = ("cli", "dask", "datasets", "exceptions", "inspection", "io",
               "losses", "metrics", "model_selection")

__getattr__, __dir__, __all__ = _attach(__name__, _LAZY, _SUBMODULES)
