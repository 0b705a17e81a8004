"""Table 3 (MovieLens 100K) across training protocols, side by side.

Reads the chosen cells that ``reproduce_table3_movielens --save-best JSON``
wrote for each protocol and prints, per method, the paper's row and each
protocol's test micro-pAp@k (mean ± std over its runs, users with >= 1
positive and >= k negatives in the test part), then each protocol minus the
paper with the number of cells within 2 points (after rounding to 0.1, as
printed). ``python -m benchmarks run-all --only table3_movielens`` runs it
after the protocols' runs::

    python -m benchmarks.experiments.table3_protocols "A: ...=a.json" ...
"""

import argparse
import json
from pathlib import Path

import numpy as np

from .._common import header, markdown_table
from .reproduce_table3_movielens import KS, METHODS, PAPER, within


def load(path):
    """``{(method, k, run): test micro-pAp@k (%)}`` of one ``--save-best`` file."""
    rows = json.loads(Path(path).read_text())
    return {(m, int(k), int(run)): 100 * float(test) for m, k, run, test, _ in rows}


def tables(protocols, points=2.0):
    """Markdown of the protocols (a list of ``(label, {(m, k, run): score})``)."""
    methods = [m for m in METHODS  # the methods that every protocol ran
               if all(any(key[0] == m for key in cells) for _, cells in protocols)]
    ks = sorted({key[1] for _, cells in protocols for key in cells})
    head = ["method", "protocol"] + [f"k={k}" for k in ks]
    ours, diffs, totals = [], [], {label: [0, 0] for label, _ in protocols}
    for m in methods:
        label = METHODS[m][1]
        paper = np.array([PAPER[m][KS.index(k)] if k in KS else np.nan for k in ks])
        ours.append([label, "paper (Table 3)"] + [f"{v:.1f}" for v in paper])
        for name, cells in protocols:
            values = [[v for (mm, kk, _), v in cells.items() if mm == m and kk == k]
                      for k in ks]
            if not all(values):
                continue
            means = np.array([np.mean(v) for v in values])
            ours.append([label, name] + [f"{np.mean(v):.1f} ± {np.std(v):.1f}"
                                         for v in values])
            diff = means - paper
            close = within(diff[~np.isnan(diff)], points)
            totals[name][0] += int(close.sum())
            totals[name][1] += close.size
            diffs.append([label, name] + [f"{d:+.1f}" for d in diff]
                         + [f"{int(close.sum())} of {close.size}"])
    lines = ["### Test micro-pAp@k (%), mean ± std over runs; users with >= 1 "
             "positive and >= k negatives in the test part", "",
             markdown_table(head, ours), "", "Each protocol minus the paper:", "",
             markdown_table(head + [f"cells within {points:g}"], diffs), ""]
    lines += [f"- {name}: {n} of {total} cells within {points:g} points"
              for name, (n, total) in totals.items()]
    lines += ["", f'("Within {points:g}" counts |difference| <= {points:g} after '
              f"rounding to 0.1.)", ""]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("protocols", nargs="+", metavar="LABEL=JSON",
                        help="a protocol's label and its --save-best file")
    parser.add_argument("--markdown", default=None)
    args = parser.parse_args(argv)
    protocols = []
    for item in args.protocols:
        label, sep, path = item.rpartition("=")
        if not sep or not label:
            parser.error(f"expected LABEL=JSON, got {item!r}")
        protocols.append((label, load(path)))
    text = header("Table 3 (MovieLens 100K) across training protocols") + "\n" \
        + tables(protocols)
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
