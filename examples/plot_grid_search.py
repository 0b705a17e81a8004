"""
=========================================================================
Tuning a pAp@k ranker with GridSearchCV: held-out users or held-out items
=========================================================================

The paper (Hiranandani et al., ICML 2020, App. F) chooses the learning rate
``eta`` and the regularisation ``lambda`` of every ranker by the micro-pAp@k
(eq. 17) of validation data. In scikit-learn that is a
:class:`~sklearn.model_selection.GridSearchCV` over ``eta0`` and ``alpha``
with :func:`skpapk.metrics.micro_papk_scorer`. The scorer must see each test
fold's groups (users), and the ranker each training fold's: both request
``groups`` through scikit-learn's metadata routing, which this example turns
on with ``sklearn.config_context(enable_metadata_routing=True)``.

Two cross-validation protocols:

- :class:`~sklearn.model_selection.GroupKFold`: each fold holds out whole
  users (the paper's Citation protocol: new users at test time);
- :class:`skpapk.model_selection.WithinGroupKFold`: each fold holds out some
  items of every user (the MovieLens and Behance protocols).

LightGBM's ``LGBMRanker`` takes its groups as sizes of consecutive rows
(``group=``), which a fold cuts: it cannot be tuned this way, with the
groups routed to every fold; these rankers can (XGBoost's ``XGBRanker``
takes them as a ``qid`` column of ``X`` instead).
"""

# %%
# Data: 60 simulated users (paper Section 7.1: relevant items ~ N(-1, I),
# irrelevant ~ N(0, I), d = 5) with 6 to 30 relevant and 40 to 80 irrelevant
# items each, so users differ in how many relevant items they have.
import matplotlib.pyplot as plt
import numpy as np
import sklearn
from sklearn.model_selection import GridSearchCV, GroupKFold

from skpapk import PApKAvgRanker
from skpapk.datasets import make_papk_simulation
from skpapk.metrics import expected_papk_score, micro_papk_scorer, papk_score
from skpapk.model_selection import WithinGroupKFold, within_group_split

K = 5
X, y, groups = make_papk_simulation(60, n_pos=(6, 30), n_neg=(40, 80),
                                    random_state=0)
print(f"{X.shape[0]} rows, {np.unique(groups).size} users, {y.sum()} relevant")

# %%
# The grid. The paper's full grids (App. F) are
# eta0 in {1e-4, 2e-4, 5e-4, 1e-3, 2e-3, ..., 0.2, 0.5} (12 values) and
# alpha in {1e-3, 1e-2, 1e-1, 1}; a subset keeps the example fast.
grid = {"eta0": [1e-3, 1e-2, 0.1, 0.5], "alpha": [1e-3, 1e-1]}
ranker = PApKAvgRanker(k=K, max_iter=100, tol=None)  # 100 epochs, no early stop

# %%
# Held-out users: GroupKFold. The final model is refitted on all the rows.
with sklearn.config_context(enable_metadata_routing=True):
    search_users = GridSearchCV(ranker, grid, scoring=micro_papk_scorer(K),
                                cv=GroupKFold(n_splits=3))
    search_users.fit(X, y, groups=groups)
print(f"GroupKFold:       best {search_users.best_params_}, "
      f"CV micro-pAp@{K} = {search_users.best_score_:.3f}")

# %%
# Held-out items of every user: WithinGroupKFold.
with sklearn.config_context(enable_metadata_routing=True):
    search_items = GridSearchCV(ranker, grid, scoring=micro_papk_scorer(K),
                                cv=WithinGroupKFold(n_splits=3))
    search_items.fit(X, y, groups=groups)
print(f"WithinGroupKFold: best {search_items.best_params_}, "
      f"CV micro-pAp@{K} = {search_items.best_score_:.3f}")

# %%
# Both searches' ``cv_results_``: the mean micro-pAp@5 over the 3 folds of
# every grid point, the error bars one standard deviation across the folds,
# the star at ``best_params_``. On this data the grid changes the score far
# less than the choice of folds does: the best point ties with others or
# wins by a hair.
shift = dict(zip(grid["alpha"], [0.9, 1.1]))  # the two alphas side by side
fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), sharey=True)
for ax, (title, search) in zip(axes, [("held-out users: GroupKFold", search_users),
                                      ("held-out items: WithinGroupKFold",
                                       search_items)]):
    results = search.cv_results_
    eta0 = np.asarray(results["param_eta0"], dtype=float)
    alpha = np.asarray(results["param_alpha"], dtype=float)
    for value in grid["alpha"]:
        rows = alpha == value
        ax.errorbar(eta0[rows] * shift[value], results["mean_test_score"][rows],
                    yerr=results["std_test_score"][rows], marker="o", capsize=3,
                    label=f"alpha = {value:g}")
    best = search.best_index_
    ax.plot(eta0[best] * shift[alpha[best]], search.best_score_, "k*",
            markersize=14, label="best_params_")
    ax.set_xscale("log")
    ax.set_xlabel("eta0 (learning rate)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
axes[0].set_ylabel(f"CV micro-pAp@{K} (mean ± std, 3 folds)")
axes[0].legend(loc="lower left", fontsize="small")
fig.suptitle(f"GridSearchCV over eta0 and alpha: cross-validated micro-pAp@{K}")
fig.tight_layout()
plt.show()

# %%
# Next to a random ranking of the same users: the exact expectation
# (``expected_papk_score``) is the baseline a useful model must beat. The
# paper's protocol tunes on a validation part and scores a separate test
# part of every user; ``within_group_split`` makes those parts.
train, test = within_group_split(y, groups, sizes=(0.7, 0.3), random_state=0)
with sklearn.config_context(enable_metadata_routing=True):
    search = GridSearchCV(ranker, grid, scoring=micro_papk_scorer(K),
                          cv=WithinGroupKFold(n_splits=3))
    search.fit(X[train], y[train], groups=groups[train])
test_score = papk_score(y[test], search.decision_function(X[test]), k=K,
                        groups=groups[test])
random_score = expected_papk_score(y[test], k=K, groups=groups[test])
print(f"test micro-pAp@{K}: tuned ranker {test_score:.3f}, "
      f"random ranking {random_score:.3f}")
