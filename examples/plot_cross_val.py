"""
===================================================================
Cross-validating pAp@k rankers on held-out users, inside a Pipeline
===================================================================

:func:`~sklearn.model_selection.cross_val_score` with
:func:`skpapk.metrics.micro_papk_scorer` (micro-pAp@k, eq. 17 of Hiranandani
et al., ICML 2020) and :class:`~sklearn.model_selection.GroupShuffleSplit`:
each split trains on some users and scores the others (the paper's Citation
protocol, new users at test time). Under metadata routing the groups go in
``params={"groups": groups}``; the splitter, the ranker's ``fit`` and the
scorer each receive the rows they need.

The rankers are linear. A :class:`~sklearn.pipeline.Pipeline` puts a
:class:`~sklearn.preprocessing.StandardScaler`, or a
:class:`~sklearn.kernel_approximation.Nystroem` feature map (an approximate
kernel ranker), in front of them; routing sends ``groups`` to the ranker
step only.
"""

# %%
# Data: 80 simulated users (paper Section 7.1) whose features are on very
# different scales, which a linear ranker trained by subgradient steps
# dislikes.
import warnings

import matplotlib.pyplot as plt
import numpy as np
import sklearn
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.kernel_approximation import Nystroem
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupShuffleSplit, cross_val_score
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from skpapk import PApKAvgRanker, PApKMaxRanker
from skpapk.datasets import make_papk_simulation
from skpapk.metrics import expected_papk_score, micro_papk_scorer

K = 5
X, y, groups = make_papk_simulation(80, n_pos=(3, 30), n_neg=(40, 80),
                                    random_state=0)
X = X * np.array([1.0, 10.0, 100.0, 0.1, 1000.0])  # badly scaled features
cv = GroupShuffleSplit(n_splits=4, test_size=0.25, random_state=0)
scorer = micro_papk_scorer(K)

# %%
# Five models, the same held-out users for all. ``LogisticRegression`` (a
# pointwise classifier, it ignores the groups) is a common baseline.
models = {
    "avg ranker": PApKAvgRanker(k=K, eta0=0.1, max_iter=100, tol=None),
    "StandardScaler -> avg ranker": make_pipeline(
        StandardScaler(), PApKAvgRanker(k=K, eta0=0.1, max_iter=100, tol=None)),
    "StandardScaler -> max ranker": make_pipeline(
        StandardScaler(), PApKMaxRanker(k=K, eta0=0.1, max_iter=100, tol=None)),
    "StandardScaler -> Nystroem -> avg ranker": make_pipeline(
        StandardScaler(), Nystroem(n_components=50, gamma=0.1, random_state=0),
        PApKAvgRanker(k=K, eta0=0.1, max_iter=100, tol=None)),
    "StandardScaler -> LogisticRegression": make_pipeline(
        StandardScaler(), LogisticRegression()),
}
split_scores, n_warned = {}, {}  # per model: the score of each split
with sklearn.config_context(enable_metadata_routing=True):
    for name, model in models.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            scores = cross_val_score(model, X, y, scoring=scorer, cv=cv,
                                     params={"groups": groups})
        warned = sum(issubclass(w.category, ConvergenceWarning) for w in caught)
        split_scores[name], n_warned[name] = scores, warned
        print(f"{name:41s} micro-pAp@{K} = {scores.mean():.3f} "
              f"+- {scores.std():.3f}" + (f"  warned {warned}/4" if warned else ""))

# %%
# "warned": the cross-validation fits that raised a ``ConvergenceWarning``.
# The subgradient rankers warn when their objective never went below its
# value at the starting point ``w = 0``. Refitted on each split's training
# users, their objective (``objective_curve_``, at ``w = 0`` and at the
# start of every epoch after it) shows why. Unscaled, every step of the avg
# ranker overshoots: its objective is 1 at ``w = 0``, jumps to tens of
# thousands after one epoch and is still in the thousands at the start of
# the 100th (the last it evaluates). The scaler fixes that. The max
# surrogate (paper eq. 24) stays within 10% of its value at ``w = 0``, yet
# the iterate it keeps still ranks far better than chance; the warning's own
# text lists the remedies (a smooth surrogate fitted by L-BFGS,
# ``coef_init``, ``early_stopping=True``).
def span(values):
    """The lowest and highest of the 4 splits' values, as text."""
    low, high = (f"{v:,.0f}" if v >= 100 else f"{v:.3f}" for v in (min(values),
                                                                    max(values)))
    return low if low == high else f"{low}-{high}"


print(f"{'objective over the 4 splits':29s}{'w = 0':>7s}{'after 1 epoch':>15s}"
      f"{'highest':>15s}{'last':>13s}")
for name in ("avg ranker", "StandardScaler -> max ranker"):
    curves = []
    for train, _ in cv.split(X, y, groups):
        model = clone(models[name])
        with sklearn.config_context(enable_metadata_routing=True), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(X[train], y[train], groups=groups[train])
        ranker = model[-1] if isinstance(model, Pipeline) else model
        curves.append(ranker.objective_curve_)
    print(f"{name:29s}{span([c[0] for c in curves]):>7s}"
          f"{span([c[1] for c in curves]):>15s}"
          f"{span([c.max() for c in curves]):>15s}"
          f"{span([c[-1] for c in curves]):>13s}")

# %%
# A random ranking of the test users scores, in expectation:
random_scores = [expected_papk_score(y[test], k=K, groups=groups[test])
                 for _, test in cv.split(X, y, groups)]
print(f"{'random ranking (exact expectation)':41s} micro-pAp@{K} = "
      f"{np.mean(random_scores):.3f}")

# %%
# Every split's score, not only their mean: one colour per split (the same
# held-out users across the rows), the black bar at the mean of the four,
# and the random ranking's exact expectation on each split's test users. The
# three best models differ less from one another than each does from split to
# split.
fig, ax = plt.subplots(figsize=(9, 3.8))
rows = {f"{name} (warned {n_warned[name]}/4)" if n_warned[name] else name:
        split_scores[name] for name in models}
rows["random ranking (exact expectation)"] = np.array(random_scores)
for i, values in enumerate(rows.values()):
    for split, value in enumerate(values):
        ax.scatter(value, i, color=f"C{split}", s=30, zorder=3,
                   label=f"split {split + 1}" if i == 0 else None)
    ax.vlines(values.mean(), i - 0.3, i + 0.3, color="black", lw=2,
              label="mean of the 4 splits" if i == 0 else None)
ax.set_yticks(range(len(rows)), list(rows))
ax.invert_yaxis()
ax.set_xlim(0, 1)
ax.set_xlabel(f"micro-pAp@{K} of the held-out users (GroupShuffleSplit)")
ax.set_title(f"Cross-validated micro-pAp@{K}, split by split")
ax.grid(axis="x", alpha=0.3)
ax.legend(loc="center left", fontsize="small")
fig.tight_layout()
plt.show()
