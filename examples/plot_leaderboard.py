"""
=====================================
A leaderboard of rankers, in small
=====================================

``skpapk compare`` trains the library's rankers and two pointwise
classifiers on a simulation of users with heterogeneous engagement, scores
them on held-out items of every user with micro-pAp@k (the mean over users
of pAp@k; eq. 17 of Hiranandani et al., ICML 2020), and names the winner
with a paired comparison against the runner-up. This example does the same
in a few seconds, without the grid searches: every model keeps its
defaults.

The boosted ranker :class:`skpapk.PApKBoostRanker` needs LightGBM
(``pip install 'skpapk[lightgbm]'``); without it, it is left out.
"""

# %%
# Data: 200 simulated users (:func:`skpapk.datasets.make_engagement_simulation`,
# the data of ``skpapk compare``). For 95% of the users, an expected 1% to
# 54% of their items are relevant (a few have none); a tenth of the irrelevant items are
# decoys that look popular; the ``activity`` feature predicts relevance
# *across* users (engaged users have more relevant items) but not *within*
# one. Every user's items are split
# 70/30 into training and test items, by label
# (:func:`skpapk.model_selection.within_group_split`).
import importlib.util

import matplotlib.pyplot as plt
import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression

from skpapk import PApKRanker
from skpapk.datasets import make_engagement_simulation
from skpapk.metrics import expected_papk_score, paired_comparison, papk_score
from skpapk.model_selection import within_group_split

K = 10
X, y, groups, feature_names = make_engagement_simulation(200, random_state=0)
train, test = within_group_split(y, groups, sizes=(0.7, 0.3), random_state=0)
print(f"{np.unique(groups).size} users, {X.shape[0]} items, "
      f"{y.mean():.0%} relevant")
print("features:", ", ".join(feature_names))

# %%
# The models. The rankers are fitted with ``groups`` (one user id per row):
# their losses compare each user's relevant items with the same user's
# irrelevant ones. The classifiers see rows only. ``n_jobs=1`` keeps
# LightGBM on one thread: the data is small.
models = {"PApKRanker": PApKRanker(k=K)}
if importlib.util.find_spec("lightgbm") is not None:
    from skpapk import PApKBoostRanker

    models["PApKBoostRanker"] = PApKBoostRanker(k=K, n_jobs=1, random_state=0)
models["HistGradientBoostingClassifier"] = HistGradientBoostingClassifier(
    random_state=0)
models["LogisticRegression"] = LogisticRegression()

per_user = {}
for name, model in models.items():
    if name.startswith("PApK"):
        model.fit(X[train], y[train], groups=groups[train])
    else:
        model.fit(X[train], y[train])
    # pAp@k of every test user; NaN for a user whose test items are all
    # relevant or all irrelevant (pAp@k is undefined there)
    per_user[name] = papk_score(
        y[test], model.decision_function(X[test]), k=K, groups=groups[test],
        average=None, zero_division=np.nan)

# %%
# The leaderboard: test micro-pAp@10, best first, above the exact
# expectation of a random ranking of the same test items.
means = {name: float(np.nanmean(values)) for name, values in per_user.items()}
board = sorted(means, key=means.get, reverse=True)
random_ranking = expected_papk_score(y[test], k=K, groups=groups[test],
                                     zero_division=np.nan)
for name in board:
    print(f"{name:34s} micro-pAp@{K} = {means[name]:.3f}")
print(f"{'random ranking (exact expectation)':34s} micro-pAp@{K} = "
      f"{random_ranking:.3f}")

# %%
# Is the winner's lead more than noise? :func:`skpapk.metrics.paired_comparison`
# compares the two best models on the same test users: the mean of the
# per-user differences, its standard error, a sign-flip p-value and a 95%
# bootstrap interval.
best, second = board[:2]
result = paired_comparison(per_user[best], per_user[second], random_state=0)
low, high = result.confidence_interval
print(f"winner: {best}, runner-up: {second}")
print(f"margin {result.mean_difference:+.4f} over {result.n_groups} users "
      f"(standard error {result.standard_error:.4f}, p-value "
      f"{result.pvalue:.3g}, 95% interval [{low:+.4f}, {high:+.4f}])")

# %%
# The same leaderboard as bars, each with the standard error of its mean
# over the test users.
fig, ax = plt.subplots(figsize=(7, 3.5))
errors = [np.nanstd(per_user[name], ddof=1)
          / np.sqrt(np.count_nonzero(~np.isnan(per_user[name])))
          for name in board]
ax.barh(board[::-1], [means[name] for name in board[::-1]], xerr=errors[::-1],
        color="tab:blue", alpha=0.8)
ax.axvline(random_ranking, color="gray", ls="--", label="random ranking")
ax.set_xlabel(f"test micro-pAp@{K}")
ax.set_xlim(0, 1)
ax.legend(loc="lower right")
fig.tight_layout()
