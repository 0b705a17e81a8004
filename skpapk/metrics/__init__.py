"""Per-group ranking metrics, random-ranking baselines and scikit-learn scorers."""

from ._random import (
    expected_average_precision,
    expected_papk,
    expected_papk_score,
    expected_partial_auc_score,
    expected_precision_at_k_score,
    worst_average_precision,
)
from ._ranking import (
    auc_at_k_score,
    papk_score,
    partial_auc_score,
    roc_auc_score,
)
from ._scorer import micro_papk_scorer, papk_scorer
from ._topk import (
    mean_average_precision_score,
    ndcg_at_k_score,
    precision_at_k_score,
    recall_at_k_score,
)

__all__ = [
    "auc_at_k_score",
    "expected_average_precision",
    "expected_papk",
    "expected_papk_score",
    "expected_partial_auc_score",
    "expected_precision_at_k_score",
    "mean_average_precision_score",
    "micro_papk_scorer",
    "ndcg_at_k_score",
    "papk_score",
    "papk_scorer",
    "partial_auc_score",
    "precision_at_k_score",
    "recall_at_k_score",
    "roc_auc_score",
    "worst_average_precision",
]
