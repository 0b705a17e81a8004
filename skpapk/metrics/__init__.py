"""Per-group ranking metrics, random baselines, scorers and paired comparisons.

The public names are imported on first use (PEP 562), so that the metric
kernels (:mod:`skpapk.metrics._kernels`, numpy and :mod:`scipy.special`
only) can be imported without scikit-learn; ``from skpapk.metrics import
papk_score`` works as usual.
"""

from ..utils._lazy import attach as _attach

#: Public name -> the private module that defines it.
_LAZY = {
    "expected_average_precision": "._random",
    "expected_papk": "._random",
    "expected_papk_score": "._random",
    "expected_partial_auc_score": "._random",
    "expected_precision_at_k_score": "._random",
    "worst_average_precision": "._random",
    "auc_at_k_score": "._ranking",
    "papk_score": "._ranking",
    "partial_auc_score": "._ranking",
    "roc_auc_score": "._ranking",
    "micro_papk_lightgbm": "._lightgbm",
    "micro_papk_scorer": "._scorer",
    "paired_comparison": "._comparison",
    "papk_scorer": "._scorer",
    "ranking_report": "._report",
    "mean_average_precision_score": "._topk",
    "ndcg_at_k_score": "._topk",
    "precision_at_k_score": "._topk",
    "recall_at_k_score": "._topk",
}

__getattr__, __dir__, __all__ = _attach(__name__, _LAZY)
