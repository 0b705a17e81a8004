"""
=====================================================
Boosted trees for pAp@k, with LightGBM as the engine
=====================================================

:class:`skpapk.PApKBoostRanker` fits gradient-boosted trees (LightGBM) to a
smooth pairwise surrogate of pAp@k: the mean over users of a logistic loss
of each user's (relevant, irrelevant) pairs, computed by
:mod:`skpapk.losses` and handed to LightGBM as a custom objective. Here it is
fitted with ``groups``, stopped early on micro-pAp@k (eq. 17 of Hiranandani
et al., ICML 2020) over validation rows held out inside every user, and
compared on held-out items with scikit-learn's
:class:`~sklearn.ensemble.HistGradientBoostingClassifier`, which fits the
row-wise logistic loss and ignores the users; its ranking is then
explained feature by feature (SHAP values, as ``LGBMRanker.predict`` gives
them). Needs LightGBM (``pip install 'skpapk[lightgbm]'``).
"""

# %%
# Data: 150 simulated users (paper Section 7.1) whose relevant items differ
# from the others in a non-linear way, the norm of their features. Each
# user's items are split 70/30 into training and test items
# (:func:`~skpapk.model_selection.within_group_split`, the paper's held-out
# items protocol).
import matplotlib.pyplot as plt
import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

from skpapk import PApKBoostRanker
from skpapk.datasets import make_papk_simulation
from skpapk.metrics import expected_papk_score, papk_score
from skpapk.model_selection import within_group_split

K = 5
X, y, groups = make_papk_simulation(150, n_pos=(2, 15), n_neg=(20, 60),
                                    n_features=4, random_state=0)
X = np.c_[np.abs(X[:, :2]), X[:, 2:] ** 2]  # relevance no longer linear
train, test = within_group_split(y, groups, sizes=(0.7, 0.3), random_state=0)

# %%
# The boosted ranker. ``early_stopping=True`` holds out 10% of every user's
# relevant and irrelevant training items, scores micro-pAp@5 on them after
# every tree, stops after ``n_iter_no_change`` trees without a gain and
# predicts with the best number of trees (``best_iteration_``).
ranker = PApKBoostRanker(k=K, early_stopping=True, random_state=0)
ranker.fit(X[train], y[train], groups=groups[train])
print(f"trees grown: {ranker.n_iter_}, kept: {ranker.best_iteration_}")

baseline = HistGradientBoostingClassifier(random_state=0).fit(X[train], y[train])
scores = {
    "PApKBoostRanker": ranker.score(X[test], y[test], groups=groups[test]),
    "HistGradientBoostingClassifier": papk_score(
        y[test], baseline.decision_function(X[test]), k=K, groups=groups[test]),
    "random ranking (exact expectation)": expected_papk_score(
        y[test], k=K, groups=groups[test]),
}
for name, value in scores.items():
    print(f"{name:36s} micro-pAp@{K} = {value:.3f}")

# %%
# The validation curve that early stopping followed.
fig, ax = plt.subplots(figsize=(6, 3.5))
rounds = np.arange(1, ranker.n_iter_ + 1)
ax.plot(rounds, ranker.validation_scores_, label="validation micro-pAp@5")
ax.axvline(ranker.best_iteration_, color="gray", ls="--",
           label=f"best_iteration_ = {ranker.best_iteration_}")
ax.set_xlabel("number of trees")
ax.set_ylabel(f"micro-pAp@{K}")
ax.legend(loc="lower right")
fig.tight_layout()

# %%
# Which features the ranking rests on: ``predict(X, pred_contrib=True)``
# returns every feature's contribution to every row's score (LightGBM's
# TreeSHAP; the last column is the trees' expected value, and each row adds
# up to its score), as ``LGBMRanker.predict`` does. The mean absolute
# contribution over the test items ranks the features: the bars are sorted
# by it, the largest on top.
contributions = ranker.predict(X[test], pred_contrib=True)
assert np.allclose(contributions.sum(axis=1), ranker.predict(X[test]))
importance = np.abs(contributions[:, :-1]).mean(axis=0)
names = np.array(["|x0|", "|x1|", "x2 ** 2", "x3 ** 2"])
order = np.argsort(importance)[::-1]
fig, ax = plt.subplots(figsize=(6, 2.5))
ax.barh(names[order], importance[order])
ax.invert_yaxis()
ax.set_xlabel("mean |contribution| to the test scores")
fig.tight_layout()
