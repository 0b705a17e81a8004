"""
=====================================================================
Looking at rankers: per-user scores, training curves and surrogates
=====================================================================

People judge a recommender by looking. :mod:`skpapk.inspection` draws three
pictures in scikit-learn's Display style (``from_estimator``,
``from_predictions``, ``plot(ax=...)``, the figure and axes kept on the
object, as :class:`~sklearn.metrics.RocCurveDisplay`):

- :class:`~skpapk.inspection.GroupScoreDisplay`: which users does a model
  serve badly? The distribution of each user's pAp@k (Hiranandani et al.,
  ICML 2020) beside that user's exact random-ranking baseline, and against
  the user's number of relevant items (heterogeneous engagement);
- :class:`~skpapk.inspection.TrainingCurveDisplay`: did training converge?
- :class:`~skpapk.inspection.SurrogateDisplay`: how do the four surrogates
  and the pAp@k risk behave along a fit (the paper's Figure 1)?

matplotlib is optional (``pip install 'skpapk[plot]'``).
"""

# %%
# Users with very different engagement: from 1 to 30 relevant items and 30
# to 100 irrelevant ones (the simulation of the paper's Section 7.1, with
# relevant items closer to the others, ``pos_mean=-0.3``, so that the models
# make mistakes). Every
# user's items are split 70/30 into train and test parts.
import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression

from skpapk import PApKAvgRanker, PApKMaxRanker
from skpapk.datasets import make_margin_data, make_papk_simulation
from skpapk.inspection import GroupScoreDisplay, SurrogateDisplay, TrainingCurveDisplay
from skpapk.model_selection import within_group_split

K = 5
X, y, groups = make_papk_simulation(60, n_pos=(1, 30), n_neg=(30, 100),
                                    pos_mean=-0.3, random_state=0)
train, test = within_group_split(y, groups, sizes=(0.7, 0.3), random_state=0)

models = {
    "avg ranker": PApKAvgRanker(k=K, eta0=0.1, max_iter=100, tol=None),
    "max ranker": PApKMaxRanker(k=K, eta0=0.1, max_iter=100, tol=None),
    "logistic regression": LogisticRegression(),
}
for name, model in models.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        if isinstance(model, LogisticRegression):
            model.fit(X[train], y[train])  # pointwise: ignores the users
        else:
            model.fit(X[train], y[train], groups=groups[train])
    if any(issubclass(w.category, ConvergenceWarning) for w in caught):
        print(f"{name}: ConvergenceWarning (the objective never went "
              f"below its value at w_0 = 0)")

# %%
# Per-user pAp@5 on the test items, as box plots, and each user's value
# against its number of relevant test items. Users whose test part has no
# relevant item have no pAp@k: the metric warns and leaves them out.
fig, (ax_box, ax_scatter) = plt.subplots(1, 2, figsize=(14, 4.5))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    disp = GroupScoreDisplay.from_estimator(models, X[test], y[test],
                                            groups=groups[test], k=K, ax=ax_box)
for message in {str(w.message) for w in caught}:
    print(f"warning: {message}")
disp.plot(ax=ax_scatter, kind="scatter")
# the points fill the axes: the legend goes to the right of them
ax_scatter.legend(loc="upper left", bbox_to_anchor=(1.02, 1), fontsize="small")
fig.tight_layout()

baseline = disp.baseline
for name, values in disp.scores.items():
    defined = np.isfinite(values)
    below = np.count_nonzero(values[defined] <= baseline[defined])
    print(f"{name:20s} micro-pAp@{K} = {np.nanmean(values):.3f}; "
          f"{below} of {defined.sum()} users at or below their random baseline")
print(f"{'random ranking':20s} micro-pAp@{K} = {np.nanmean(baseline):.3f} "
      f"(exact expectation)")

# %%
# Did the avg ranker converge? Its objective per epoch (``objective_curve_``;
# rankers with early stopping also record ``validation_scores_``, drawn on a
# second axis). Here the subgradient steps oscillate and settle slightly
# above the objective of ``w_0 = 0`` (where every score ties): on weakly
# separable users the margin-1 surrogates are lowest near ``w = 0``, although
# the direction of ``w`` keeps improving the ranking.
curve = TrainingCurveDisplay.from_estimator(models["avg ranker"])
print(f"avg ranker objective: {curve.objective[0]:.3f} at w_0, "
      f"{curve.objective[-1]:.3f} after {curve.objective.size - 1} epochs")

# %%
# The paper's Figure 1(b): one user whose negatives satisfy the beta-margin
# condition for ``w = 1_d``. Optimising the avg surrogate, the surrogates
# that the condition zeroes (avg and ramp) go to zero; the trace re-runs the
# ranker's deterministic solver and evaluates every surrogate at every
# iterate.
Xm, ym, _ = make_margin_data("beta", n_pos=250, n_neg=2000, k=30, random_state=0)
surrogates = SurrogateDisplay.from_estimator(
    PApKAvgRanker(k=30, eta0=0.01, alpha=1e-3), Xm, ym, max_iter=300)
last = dict(zip(surrogates.columns, surrogates.values[-1]))
print("after 300 epochs: " + ", ".join(f"{c} {v:.4f}" for c, v in last.items()))

# %%
# Show the figures (``figure.savefig("per_user.png")`` saves one).
plt.show()
