"""
=====================================================
Boosted trees for pAp@k, with LightGBM as the engine
=====================================================

:class:`skpapk.PApKBoostRanker` fits gradient-boosted trees (LightGBM) to a
pairwise loss of each user's (relevant, irrelevant) pairs, computed by
:mod:`skpapk.losses` and handed to LightGBM as a custom objective. Its
default, ``objective="pairwise_logistic"``, is a smooth surrogate of every
user's AUC, with users weighted by ``group_weight="inverse_variance"``; it
does not read ``k``, which sets the metric it is scored and stopped on
(micro-pAp@k, eq. 17 of Hiranandani et al., ICML 2020). Here it is fitted
with ``groups`` and compared on held-out items with scikit-learn's
:class:`~sklearn.ensemble.HistGradientBoostingClassifier`, which fits the
row-wise logistic loss and ignores the users; then early stopping on
validation rows held out inside every user is shown, and the ranking is
explained feature by feature (SHAP values, as ``LGBMRanker.predict`` gives
them). Needs LightGBM (``pip install 'skpapk[lightgbm]'``).
"""

# %%
# Data: 200 simulated users with heterogeneous engagement
# (:func:`~skpapk.datasets.make_engagement_simulation`). Three ``taste``
# features make an item relevant to its user; *decoys*, a tenth of the
# irrelevant items, have a high ``popularity`` and ``taste_1`` (an
# interaction that trees can split on); and ``activity``, the user's
# engagement, says how many items a user likes but not which ones. Each
# user's items are split 70/30 into training and test items
# (:func:`~skpapk.model_selection.within_group_split`, the paper's held-out
# items protocol).
import matplotlib.pyplot as plt
import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

from skpapk import PApKBoostRanker
from skpapk.datasets import make_engagement_simulation
from skpapk.metrics import expected_papk_score, paired_comparison, papk_score
from skpapk.model_selection import within_group_split

K = 5
X, y, groups, feature_names = make_engagement_simulation(200, random_state=0)
train, test = within_group_split(y, groups, sizes=(0.7, 0.3), random_state=0)

# %%
# The boosted ranker with its defaults, and the classifier. The paired
# comparison over the test users (:func:`~skpapk.metrics.paired_comparison`)
# says whether the gap is larger than its noise: a classifier fitted on all
# rows at once learns that active users have more relevant items, which
# does not order any one user's items. Users whose test items hold no
# relevant one (or no irrelevant one) have no pAp@k: ``zero_division=np.nan``
# leaves them out, as micro-pAp@k does.
ranker = PApKBoostRanker(k=K, random_state=0)
ranker.fit(X[train], y[train], groups=groups[train])
baseline = HistGradientBoostingClassifier(random_state=0).fit(X[train], y[train])

per_user = {
    "PApKBoostRanker": papk_score(
        y[test], ranker.decision_function(X[test]), k=K, groups=groups[test],
        average=None, zero_division=np.nan),
    "HistGradientBoostingClassifier": papk_score(
        y[test], baseline.decision_function(X[test]), k=K, groups=groups[test],
        average=None, zero_division=np.nan),
}
for name, gains in per_user.items():
    print(f"{name:36s} micro-pAp@{K} = {np.nanmean(gains):.3f}")
chance = expected_papk_score(y[test], k=K, groups=groups[test],
                             zero_division=np.nan)
print(f"{'random ranking (exact expectation)':36s} micro-pAp@{K} = {chance:.3f}")
gap = paired_comparison(*per_user.values(), random_state=0)
print(f"ranker - classifier: {gap.mean_difference:+.3f} (standard error "
      f"{gap.standard_error:.3f} over {gap.n_groups} users, "
      f"p = {gap.pvalue:.2g})")

# %%
# Early stopping (``early_stopping=True``) holds out 10% of every user's
# relevant and irrelevant training items, scores micro-pAp@5 on them after
# every tree, stops after ``n_iter_no_change`` trees without a gain and
# predicts with the best number of trees (``best_iteration_``). It is off
# by default: with a few held-out items per user the validation score is
# noisy (the curve below), and an early lucky round can stop the training
# too soon; on other seeds of this data it keeps from 6 to 76 trees.
stopped = PApKBoostRanker(k=K, early_stopping=True, random_state=0)
stopped.fit(X[train], y[train], groups=groups[train])
stopped_test = papk_score(y[test], stopped.decision_function(X[test]), k=K,
                          groups=groups[test], zero_division=np.nan)
print(f"trees grown: {stopped.n_iter_}, kept: {stopped.best_iteration_}, test "
      f"micro-pAp@{K}: {stopped_test:.3f}")

fig, ax = plt.subplots(figsize=(6, 3.5))
rounds = np.arange(1, stopped.n_iter_ + 1)
ax.plot(rounds, stopped.validation_scores_, label=f"validation micro-pAp@{K}")
ax.axvline(stopped.best_iteration_, color="gray", ls="--",
           label=f"best_iteration_ = {stopped.best_iteration_}")
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
order = np.argsort(importance)[::-1]
fig, ax = plt.subplots(figsize=(6, 3))
ax.barh(np.array(feature_names)[order], importance[order])
ax.invert_yaxis()
ax.set_xlabel("mean |contribution| to the test scores")
fig.tight_layout()
