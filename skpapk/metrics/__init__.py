"""Per-group ranking metrics and scikit-learn scorers."""

from ._ranking import papk_score

__all__ = ["papk_score"]
