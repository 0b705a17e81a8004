"""Pictures of rankers in scikit-learn's Display style (matplotlib is optional).

``import skpapk.inspection`` does not import matplotlib; drawing needs it
(``pip install 'skpapk[plot]'``).
"""

from ._base import check_matplotlib_support
from ._group_score import GroupScoreDisplay
from ._surrogate import SurrogateDisplay
from ._training_curve import TrainingCurveDisplay

__all__ = [
    "GroupScoreDisplay",
    "SurrogateDisplay",
    "TrainingCurveDisplay",
    "check_matplotlib_support",
]
