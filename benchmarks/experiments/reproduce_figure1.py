"""Reproduce Figure 1 of Hiranandani et al. (ICML 2020): surrogates per iteration.

Setup (paper Section 7.2): one user, d = 5, 250 positives ~ N(0, I), k = 30,
w = 1_d, margin 1, 2000 negatives ~ N(0.5 * 1_d, I) that satisfy, for w, the

- strong beta-margin condition (Def. 5): the max surrogate is optimised
  (Figure 1(a));
- beta-margin condition (Def. 3): the avg surrogate is optimised (Figure 1(b));
- moderate beta-margin condition (Def. 4): the TS surrogate is optimised
  (Figure 1(c)),

each drawn by :func:`skpapk.datasets.make_margin_data`. At every iterate
``w_t`` of Algorithm 1 (``w_0 = 0``, step ``eta0 / sqrt(t + 1)``, the
library's solver) the four surrogates (avg, max, TS, ramp; the objective
without its ``alpha * ||w||^2`` term) and the pAp@k risk (ties counted as
errors, as in the paper's risk) are recorded with
:func:`skpapk.losses.surrogate_loss` and :func:`skpapk.metrics.papk_score`.
The rankers keep only their last iterate, so the benchmark drives
``skpapk._solver.projected_subgradient`` one epoch at a time through its
resumable state: the iterates are exactly those of
``PApK*Ranker(k=30, eta0=..., alpha=..., max_iter=t, tol=None).fit(X, y)``.

Writes a CSV always and a PNG when matplotlib is installed::

    python -m benchmarks.experiments.reproduce_figure1 \
        --csv figure1_surrogates.csv --png figure1_surrogates.png

(``python -m benchmarks run-all --only figure1_surrogates`` writes the
committed ``benchmarks/results/figure1_surrogates.*`` with its notes.)
"""

import argparse
import csv
import os

import numpy as np

from skpapk._solver import SolverState, projected_subgradient  # noqa: E402
from skpapk.datasets import make_margin_data  # noqa: E402
from skpapk.losses import SURROGATES, surrogate_loss  # noqa: E402
from skpapk.metrics import papk_score  # noqa: E402

from .._common import (  # noqa: E402
    command_line,
    machine_info,
    markdown_table,
    non_negative_float,
    non_negative_int,
    positive_float,
    positive_int,
    today,
)

#: condition -> (surrogate optimised, panel of the paper's Figure 1)
CONDITIONS = {
    "strong_beta": ("max", "(a)"),
    "beta": ("avg", "(b)"),
    "moderate_beta": ("ts", "(c)"),
}
SURROGATE_NAMES = ("avg", "max", "ts", "ramp")
#: what the paper reports at the end of each panel (Section 7.2)
PAPER_CLAIMS = {
    "strong_beta": "all four surrogates go to zero",
    "beta": "ramp and avg go to zero; max and TS do not (they rise in the later half)",
    "moderate_beta": "ramp and TS go to zero",
}


def trace(condition, *, n_iter, eta0, alpha, k, random_state):
    """Surrogates and pAp@k risk at w_0 .. w_n_iter for one condition."""
    X, y, _ = make_margin_data(condition, k=k, random_state=random_state)
    y_pos = y == 1
    codes = np.zeros(y.shape[0], dtype=np.intp)
    loss = SURROGATES[CONDITIONS[condition][0]]()
    state = SolverState.zeros(X.shape[1])
    rows = []
    for t in range(n_iter + 1):
        scores = X @ state.w
        row = {"condition": condition, "optimised": loss.name, "iteration": t}
        for name in SURROGATE_NAMES:
            row[name] = surrogate_loss(y, scores, k=k, surrogate=name)[0]
        row["papk_risk"] = 1.0 - papk_score(y, scores, k=k, ties="error")
        row["w_norm"] = float(np.linalg.norm(state.w))
        rows.append(row)
        if t < n_iter:  # one more epoch of Algorithm 1, from the saved state
            projected_subgradient(X, y_pos, codes, 1, loss=loss, k=k, eta0=eta0,
                                  alpha=alpha, max_iter=1, tol=None, state=state)
    return rows


def plot(rows, path):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from skpapk.inspection import SurrogateDisplay
    except ImportError:
        print("matplotlib is not installed: no PNG (pip install 'skpapk[plot]')")
        return
    columns = SURROGATE_NAMES + ("papk_risk",)
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6), sharey=True)
    for ax, condition in zip(axes, CONDITIONS):
        part = [r for r in rows if r["condition"] == condition]
        values = np.array([[r[name] for name in columns] for r in part])
        optimised, panel = CONDITIONS[condition]
        SurrogateDisplay(values=values, columns=columns).plot(
            ax=ax, name=f"{panel} {condition} margin, {optimised} optimised")
    for ax in axes[1:]:
        ax.set_ylabel("")
        ax.get_legend().remove()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(f"wrote {path}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-iter", type=positive_int, default=500,
                        help="epochs (the authors' script runs 151)")
    parser.add_argument("--eta0", type=positive_float, nargs=3,
                        default=[0.01, 0.01, 0.01],
                        metavar=("STRONG", "BETA", "MODERATE"),
                        help="step sizes per condition (the authors' script "
                             "uses 2 for max and 3 for avg and TS on min-max "
                             "scaled features; on these raw features such "
                             "steps reach the end in one epoch)")
    parser.add_argument("--alpha", type=non_negative_float, default=1e-3)
    parser.add_argument("--k", type=positive_int, default=30)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--csv", required=True,
                        help="where to write every iteration's surrogates (CSV)")
    parser.add_argument("--png", default=None,
                        help="PNG path (default: the CSV path with .png)")
    parser.add_argument("--markdown", default=None,
                        help="write a summary (command, date, machine) here")
    args = parser.parse_args(argv)

    rows = []
    for condition, eta0 in zip(CONDITIONS, args.eta0):
        rows += trace(condition, n_iter=args.n_iter, eta0=eta0, alpha=args.alpha,
                      k=args.k, random_state=args.seed)
    with open(args.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows({key: (f"{v:.6g}" if isinstance(v, float) else v)
                          for key, v in r.items()} for r in rows)
    print(f"wrote {args.csv} ({len(rows)} rows)")

    header = (["panel", "condition", "optimised", "iteration"]
              + list(SURROGATE_NAMES) + ["pAp@k risk"])
    table = []
    for condition, eta0 in zip(CONDITIONS, args.eta0):
        part = [r for r in rows if r["condition"] == condition]
        shown = sorted({i for i in (0, 10, 50, len(part) // 2, len(part) - 1)
                        if i < len(part)})  # --n-iter may be below 50
        for r in (part[i] for i in shown):
            table.append([CONDITIONS[condition][1], condition, r["optimised"],
                          r["iteration"]] + [f"{r[n]:.4f}" for n in SURROGATE_NAMES]
                         + [f"{r['papk_risk']:.4f}"])
    text = "\n".join([
        f"Command: `{command_line()}`", "", f"Date: {today()}", "",
        f"Machine: {machine_info()}", "",
        f"Setup: d = 5, 250 positives, 2000 negatives, k = {args.k}, w = 1_d, "
        f"margin 1, seed {args.seed}; eta0 = {args.eta0} (strong, beta, "
        f"moderate), alpha = {args.alpha}, {args.n_iter} epochs from w_0 = 0.", "",
        markdown_table(header, table), "",
        "The paper (Section 7.2): "
        + "; ".join(f"{CONDITIONS[c][1]} {c}: {claim}"
                    for c, claim in PAPER_CLAIMS.items())
        + ".", ""])
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("# Figure 1 (behaviour of the surrogates) reproduced\n\n" + text)
        print(f"wrote {args.markdown}")
    plot(rows, args.png or os.path.splitext(args.csv)[0] + ".png")


if __name__ == "__main__":
    main()
