"""
=============================================
The pairs pAp@k counts: the paper's Table 1
=============================================

pAp@k (Budhiraja et al. 2020; Hiranandani et al., ICML 2020) compares a
user's ``beta = min(k, n+)`` highest scored relevant items with the user's
``k`` highest scored irrelevant items: it is the fraction of those
``beta x k`` pairs in which the relevant item scores above the irrelevant
one (Definition 1, eq. 1 of Hiranandani et al., as a gain: 1 - risk).
Every other pair is ignored.

This example draws those pairs for the three rankings of the paper's
Table 1 (eleven items, five relevant, ``k = 2``), and checks the count
against :func:`skpapk.metrics.papk_score`.
"""

# %%
# The three rankings of Table 1, read from the top (``1``: relevant). The
# scores are the positions, the top item highest.
import matplotlib.pyplot as plt
import numpy as np

from skpapk.metrics import papk_score

K = 2
rankings = {
    "f1": [0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0],
    "f2": [1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1],
    "f3": [1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1],
}


def counted_pairs(labels, k):
    """Ranks (0 = top) of the pairs pAp@k compares, and whether each is
    ordered right, from the set definition (a per-user oracle)."""
    labels = np.asarray(labels)
    relevant = np.flatnonzero(labels == 1)  # ranks, best first
    irrelevant = np.flatnonzero(labels == 0)
    beta = min(k, relevant.size)
    return [(i, j, i < j) for i in relevant[:beta] for j in irrelevant[:k]]


# AUC, for comparison, counts every (relevant, irrelevant) pair: all of
# them are the pairs of pAp@k with ``k`` the number of items.
for name, labels in rankings.items():
    pairs = counted_pairs(labels, K)
    by_pairs = sum(right for _, _, right in pairs) / len(pairs)
    all_pairs = counted_pairs(labels, len(labels))
    scores = np.arange(len(labels), 0, -1)
    print(f"{name}: {sum(right for _, _, right in pairs)} of {len(pairs)} "
          f"pairs ordered right; pAp@{K} = {by_pairs:.2f}, "
          f"papk_score = {papk_score(labels, scores, k=K):.2f}; "
          f"AUC = {sum(right for _, _, right in all_pairs)}/{len(all_pairs)}")

# %%
# Each column is one ranking, top first. Green squares are relevant items,
# grey circles irrelevant ones; the filled ones are the top ``beta``
# relevant and top ``k`` irrelevant items. Each line is a counted pair:
# solid blue when the relevant item is above, dashed red when below.
fig, axes = plt.subplots(1, 3, figsize=(8, 4.5), sharey=True)
for ax, (name, labels) in zip(axes, rankings.items()):
    labels = np.asarray(labels)
    pairs = counted_pairs(labels, K)
    top = {i for i, _, _ in pairs} | {j for _, j, _ in pairs}
    for rank, label in enumerate(labels):
        ax.scatter(0, rank, s=180, marker="s" if label else "o",
                   color=("tab:green" if label else "tab:gray")
                   if rank in top else "white",
                   edgecolors="tab:green" if label else "tab:gray", zorder=3)
    for i, j, right in pairs:
        bend = 0.25 + 0.12 * abs(i - j)
        rows = np.linspace(i, j, 30)
        ax.plot(bend * np.sin(np.linspace(0, np.pi, 30)), rows,
                color="tab:blue" if right else "tab:red",
                ls="-" if right else "--", lw=1.2, zorder=2)
    value = papk_score(labels, np.arange(len(labels), 0, -1), k=K)
    ax.set_title(f"{name}: pAp@{K} = {value:.2f}")
    ax.set_xlim(-0.6, 1.6)
    ax.set_xticks([])
axes[0].set_ylim(len(labels) - 0.5, -0.5)
axes[0].set_yticks(range(len(labels)), [f"#{r + 1}" for r in range(len(labels))])
axes[0].set_ylabel("rank")
fig.suptitle(f"The top min(k, n+) x top k pairs of pAp@{K}")
fig.tight_layout()
plt.show()

# %%
# f3 puts two relevant items first: all four pairs are ordered right, so
# pAp@2 is 1, although its AUC is the lowest of the three (12/30): the
# relevant items at the bottom of the list are not among the pairs pAp@k
# compares, while AUC counts every (relevant, irrelevant) pair.
