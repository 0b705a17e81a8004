"""Helpers shared by the benchmarks that reproduce the paper's experiments.

Not part of the library: the grids of the paper (App. F), a description of
the machine for the result files, the paper's per-split user filter and a
Markdown table writer.
"""

import datetime
import os
import platform
import sys

import numpy as np

#: Learning-rate grid of App. F: {1e-4, 2e-4, 5e-4, 1e-3, ..., 0.5}.
PAPER_ETA_GRID = (1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5)
#: Regularisation grid of App. F: 10^{-3, ..., 0} (the paper's lambda).
PAPER_ALPHA_GRID = (1e-3, 1e-2, 1e-1, 1.0)


def machine_info():
    """One line describing the machine and the library versions."""
    import joblib
    import scipy
    import sklearn

    return (f"{platform.platform()}, {platform.processor() or platform.machine()}, "
            f"{os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"numpy {np.__version__}, scipy {scipy.__version__}, "
            f"scikit-learn {sklearn.__version__}, joblib {joblib.__version__}")


def command_line():
    """The command that is running, for the result files."""
    return "python " + " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:])


def today():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M")


def paper_user_mask(y_pos, groups, k):
    """Rows of the users the paper's code keeps in a split (one vectorised pass).

    The authors' code (github.com/gaurush-hiranandani/pap-k,
    ``auc-rel-k-cross-validation.py``) trains and scores, in each of the
    train / validation / test parts, only the users with at least one
    positive and at least ``k`` negatives in that part.
    """
    y_pos = np.asarray(y_pos, dtype=bool)
    _, codes = np.unique(groups, return_inverse=True)
    codes = codes.reshape(-1)
    n_pos = np.bincount(codes, weights=y_pos)
    n_neg = np.bincount(codes, weights=~y_pos)
    keep = (n_pos >= 1) & (n_neg >= k)
    return keep[codes]


def markdown_table(header, rows):
    """A GitHub Markdown table from a header and rows of cells."""
    lines = ["| " + " | ".join(str(h) for h in header) + " |",
             "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
