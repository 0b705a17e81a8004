"""Helpers shared by the benchmarks (timings and experiments).

Not part of the library: the grids of the paper (App. F), the command, date
and machine written at the top of every result file, the paper's per-split
user filter and a Markdown table writer.
"""

import argparse
import datetime
import math
import os
import platform
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

#: The repository root (the folder holding ``benchmarks/``).
ROOT = Path(__file__).resolve().parent.parent


def _option_type(convert, ok, expected):
    """An argparse ``type`` that refuses values outside ``ok`` by name."""
    def parse(text):
        try:
            value = convert(text)
        except ValueError:
            value = None
        if value is None or not ok(value):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
        return value
    return parse


#: Option types of the scripts: counts, seeds, thread counts, step sizes.
positive_int = _option_type(int, lambda v: v >= 1, "an integer >= 1")
non_negative_int = _option_type(int, lambda v: v >= 0, "an integer >= 0")
n_jobs_int = _option_type(int, lambda v: v != 0, "an integer other than 0 "
                          "(-1: every core)")
positive_float = _option_type(float, lambda v: math.isfinite(v) and v > 0,
                              "a finite number > 0")
non_negative_float = _option_type(float, lambda v: math.isfinite(v) and v >= 0,
                                  "a finite number >= 0")
fraction = _option_type(float, lambda v: 0 < v <= 1, "a number in (0, 1]")
#: A count that may be written as a float (1e6).
float_count = _option_type(float, lambda v: v >= 1 and v == int(v),
                           "a whole number >= 1, e.g. 1e6")



#: The packages whose versions a result file names, where installed.
VERSIONED = ("numpy", "scipy", "scikit-learn", "joblib", "pandas", "numba",
             "lightgbm", "xgboost", "dask", "distributed", "matplotlib")
#: The environment variables that set the threads of the compiled code.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "NUMBA_NUM_THREADS")


def code_version():
    """skpapk's version and the commit of the repository (``+ changes`` when
    the library or the benchmarks differ from it); the version alone where
    git or the repository is not there."""
    import skpapk

    try:
        commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"],
                                cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--", "skpapk", "benchmarks",
             ":!benchmarks/results"], cwd=ROOT, capture_output=True, text=True,
            check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"skpapk {skpapk.__version__}"
    return (f"skpapk {skpapk.__version__} at commit {commit}"
            + (" + changes" if changed else ""))


def machine_info():
    """One line describing the machine, the code, the package versions and
    the thread settings."""
    from importlib.metadata import PackageNotFoundError, version

    versions = []
    for name in VERSIONED:
        try:
            versions.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            continue
    threads = [f"{name}={os.environ[name]}" for name in THREAD_VARIABLES
               if name in os.environ]
    return (f"{platform.platform()}, {platform.processor() or platform.machine()}, "
            f"{os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"{', '.join(versions)}; {code_version()}"
            + (f"; {', '.join(threads)}" if threads else ""))


def _portable(arg):
    """``arg`` without this machine's folders: paths relative to the repository.

    A path inside the repository is written relative to its root; any other
    absolute path (a temporary folder, the data) keeps its file name only.
    ``--option=PATH`` and ``LABEL=PATH`` arguments are shortened after the
    ``=``.
    """
    head, sep, value = arg.rpartition("=") if "=" in arg else ("", "", arg)
    if not os.path.isabs(value):
        return arg
    path = Path(value).resolve()
    if path.is_relative_to(ROOT):
        value = path.relative_to(ROOT).as_posix()
    elif path.is_relative_to(Path(tempfile.gettempdir()).resolve()):
        value = "$TMPDIR/" + path.name
    else:
        value = ".../" + path.name
    return head + sep + value


def command_line(argv=None):
    """The command that is running, for the result files.

    ``python -m benchmarks.<part>.<script> ARGS`` (the way the scripts are
    run), with machine-specific paths shortened by :func:`_portable`.
    """
    spec = getattr(sys.modules["__main__"], "__spec__", None)
    head = (f"python -m {spec.name}" if spec is not None
            else f"python {_portable(os.path.abspath(sys.argv[0]))}")
    args = [_portable(a) for a in (sys.argv[1:] if argv is None else argv)]
    return " ".join([head] + [shlex.quote(a) if set(a) & set(" '\"") else a
                              for a in args])


def header(title, *details):
    """The first lines of a result file: title, command, date and machine.

    ``details`` are more lines (already formatted) put after the machine.
    """
    return "\n".join([f"# {title}", "", f"Command: `{command_line()}`  ",
                      f"Date: {today()}  ", f"Machine: {machine_info()}", "",
                      *details])


def today():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M")


def data_path():
    """Where MovieLens 100K is read from: ``None``, the loader's own search.

    :func:`skpapk.datasets.load_movielens_100k` reads the ``SKPAPK_DATA``
    folder (or its cache); set it rather than passing a path, so that no
    machine path reaches a result file. Never copy the data into the
    repository (its licence forbids redistribution).
    """
    return None


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


def study_heading(title, n_splits, started):
    """The heading of a study over ``n_splits`` MovieLens splits: its title,
    command, date, number of splits, minutes since ``started``
    (``time.perf_counter()``) and machine."""
    import time

    return (f"# {title}\n\nCommand: `{command_line()}`  \nDate: {today()}; "
            f"{n_splits} splits; {(time.perf_counter() - started) / 60:.0f} min"
            f"  \nMachine: {machine_info()}\n")


def chosen_on_validation(candidates, default, val, test, ks, label=str):
    """A Markdown table: at every ``k``, the candidate with the best mean
    validation score, against ``default`` on the test users of every split,
    paired (:func:`skpapk.metrics.paired_comparison`).

    ``val[c, k]`` holds a candidate's validation scores (one a split),
    ``test[c, k]`` its per-user test scores (one array a split, the users in
    the same order for every candidate); ``label`` names a candidate.
    """
    from skpapk.metrics import paired_comparison

    rows = []
    for k in ks:
        best = max(candidates, key=lambda c: np.mean(val[c, k]))
        result = paired_comparison(np.concatenate(test[best, k]),
                                   np.concatenate(test[default, k]),
                                   random_state=0)
        low, high = result.confidence_interval
        rows.append([str(k), label(best),
                     f"{100 * result.mean_difference:+.2f}",
                     f"{100 * result.standard_error:.2f}",
                     f"{result.pvalue:.3g}",
                     f"[{100 * low:+.2f}, {100 * high:+.2f}]"])
    return markdown_table(["k", "chosen on validation", "test - default",
                           "standard error", "p-value", "95% interval"], rows)


def val_test_cells(val, test, candidate, ks):
    """``"validation / test"`` micro-pAp@k cells (%) of one candidate, one a
    ``k``: the means over the splits of ``val[candidate, k]`` (one score a
    split) and of the per-user ``test[candidate, k]`` arrays' means."""
    return [f"{100 * np.mean(val[candidate, k]):.2f} / "
            f"{100 * np.mean([np.nanmean(t) for t in test[candidate, k]]):.2f}"
            for k in ks]


def per_user_papk(y, scores, groups, k):
    """Every user's pAp@k (NaN where undefined, without the warning)."""
    import warnings

    from sklearn.exceptions import UndefinedMetricWarning

    from skpapk.metrics import papk_score

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return papk_score(y, scores, k=k, groups=groups, average=None)
