"""Speed of the boosted ranker's objective against LightGBM's own rankers.

Synthetic grouped data (``d = 50`` float64 features, about 15% relevant
rows; a row is relevant when the sum of its first five features plus
Gaussian noise passes a threshold), 100 trees of 31 leaves, learning rate
0.05, ``n_jobs=2``, the same data for every model. Every part fits its
models alternately and reports the median of ``--repeats`` fits:

1. ``table``: 1,000,000 rows (10,000 users x 100 items):
   ``PApKBoostRanker(k=10)`` (with the share of its objective in the fit),
   ``LGBMRanker`` with ``"lambdarank"`` and ``"rank_xendcg"``,
   ``LGBMClassifier``; one objective call; ``PApKRanker(k=10)`` against
   ``LogisticRegression()``.
2. ``long``: 200 users x 5,000 items, ``PApKBoostRanker(k=10)`` (default
   truncation) against lambdarank at equal trees.
3. ``scaling``: fit time from 100,000 to 10,000,000 rows (users x 100),
   and with the list length (100 to 5,000 items a user, about 1,000,000
   rows), against lambdarank (one fit each).
4. ``memory``: peak memory allocated by one objective call (tracemalloc:
   NumPy's allocations; the compiled kernel's scratch is bounded by a few
   arrays of the longest list per thread) at 10,000,000 rows and on
   5,000-item users.
5. ``compile``: the first call in a fresh process with an empty numba
   cache, and with the cache written by that call.
6. ``truncation``: test micro-pAp@10 of the default (truncated) objective
   against the exact one on 2,000-item users.

The committed ``benchmarks/results/boost_speed.md`` is written by
``python -m benchmarks run-all --only boost_speed`` (about 15 minutes on 2
quiet cores), which adds its notes; ``--quick`` runs every part on small
data. The tables go to stdout and, with ``--out``, to a Markdown file.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np

from skpapk import _defaults

from .._common import command_line, machine_info, markdown_table, positive_int, today  # noqa: E402

#: The boosted ranker's default trees, for every model.
TREES = dict(n_estimators=_defaults.BOOST_N_ESTIMATORS,
             num_leaves=_defaults.BOOST_NUM_LEAVES,
             learning_rate=_defaults.BOOST_LEARNING_RATE, n_jobs=2)


def make_data(n_users, n_items, n_features=50, seed=0):
    """Rows sorted by user, about 15% relevant."""
    rng = np.random.default_rng(seed)
    n = n_users * n_items
    X = rng.normal(size=(n, n_features))
    signal = X[:, :5].sum(axis=1) + rng.normal(scale=3.0, size=n)
    y = (signal > 3.88).astype(np.int64)
    groups = np.repeat(np.arange(n_users), n_items)
    return X, y, groups


def models(k=10, trees=TREES):
    import lightgbm as lgb

    from skpapk import PApKBoostRanker

    def lgbm(objective):
        return lambda: lgb.LGBMRanker(objective=objective, verbose=-1, **trees)

    return {
        "PApKBoostRanker(k=10)": lambda: PApKBoostRanker(k=k, **trees),
        "LGBMRanker lambdarank": lgbm("lambdarank"),
        "LGBMRanker rank_xendcg": lgbm("rank_xendcg"),
        "LGBMClassifier": lambda: lgb.LGBMClassifier(verbose=-1, **trees),
    }


def fit(name, estimator, X, y, groups):
    """Fit time of one model (LightGBM's rankers take the group sizes)."""
    start = time.perf_counter()
    if name.startswith("LGBMRanker"):
        estimator.fit(X, y, group=np.bincount(groups))
    elif name.startswith(("LGBMClassifier", "LogisticRegression")):
        estimator.fit(X, y)
    else:
        estimator.fit(X, y, groups=groups)
    return time.perf_counter() - start


def alternate(makers, X, y, groups, repeats):
    """Median fit time of every model, fitted in turn ``repeats`` times."""
    times = {name: [] for name in makers}
    for _ in range(repeats):
        for name, make in makers.items():
            times[name].append(fit(name, make(), X, y, groups))
    return {name: statistics.median(t) for name, t in times.items()}


def objective_share(X, y, groups, trees):
    """Seconds spent in the objective during one fit, and the fit's."""
    from skpapk import PApKBoostRanker

    spent = [0.0]

    class Timed(PApKBoostRanker):
        def _lightgbm_objective(self):
            inner = super()._lightgbm_objective()

            # LightGBM's scikit-learn interface reads the argument count
            def timed(y_true, y_pred, weight, group):
                start = time.perf_counter()
                out = inner(y_true, y_pred, weight, group)
                spent[0] += time.perf_counter() - start
                return out
            return timed

    seconds = fit("PApKBoostRanker", Timed(k=10, **trees), X, y, groups)
    return spent[0], seconds


def one_call(X, y, groups, repeats):
    from skpapk.losses import LightGBMObjective

    objective = LightGBMObjective("pairwise_logistic", k=10, n_jobs=2)
    sizes = np.bincount(groups)
    scores = np.random.default_rng(1).normal(size=y.shape[0])
    objective(y, scores, None, sizes)  # compile, layout
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        objective(y, scores, None, sizes)
        times.append(time.perf_counter() - start)
    n_pos = np.bincount(groups, weights=y)
    pairs = float(np.sum(n_pos * (sizes - n_pos)))
    return statistics.median(times), pairs


def part_table(args, out):
    from sklearn.linear_model import LogisticRegression

    from skpapk import PApKRanker

    n_users = 1000 if args.quick else 10_000
    X, y, groups = make_data(n_users, 100)
    out.append(f"## {X.shape[0]:,} rows: {n_users:,} users x 100 items, {X.shape[1]} "
               f"features, {y.mean():.1%} relevant, {args.repeats} repeats\n")
    medians = alternate(models(), X, y, groups, args.repeats)
    base = medians["LGBMRanker lambdarank"]
    rows = [[name, f"{t:.1f}", f"{t / base:.2f}"] for name, t in medians.items()]
    out.append(markdown_table(["model (100 trees, 31 leaves)", "fit s",
                               "/ lambdarank"], rows))
    spent, seconds = objective_share(X, y, groups, TREES)
    call, pairs = one_call(X, y, groups, args.repeats)
    out.append(f"\nObjective: {spent:.1f} s of a {seconds:.1f} s fit "
               f"({spent / seconds:.0%}); one call {call * 1e3:.0f} ms for "
               f"{pairs / 1e6:.1f} M pairs ({call / pairs * 1e9:.1f} ns a "
               f"pair, 2 threads).\n")
    linear = {"PApKRanker(k=10)": lambda: PApKRanker(k=10),
              "LogisticRegression()": lambda: LogisticRegression()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        medians = alternate(linear, X, y, groups, args.repeats)
    ratio = medians["PApKRanker(k=10)"] / medians["LogisticRegression()"]
    out.append(markdown_table(
        ["linear model", "fit s"],
        [[name, f"{t:.2f}"] for name, t in medians.items()]))
    out.append(f"\nPApKRanker / LogisticRegression: {ratio:.2f}x\n")


def part_long(args, out):
    n_users, n_items = (20, 2000) if args.quick else (200, 5000)
    X, y, groups = make_data(n_users, n_items)
    makers = {name: make for name, make in models().items()
              if name in ("PApKBoostRanker(k=10)", "LGBMRanker lambdarank")}
    medians = alternate(makers, X, y, groups, args.repeats)
    base = medians["LGBMRanker lambdarank"]
    spent, seconds = objective_share(X, y, groups, TREES)
    out.append(f"## Long lists: {n_users} users x {n_items:,} items\n")
    out.append(markdown_table(
        ["model (100 trees)", "fit s", "/ lambdarank"],
        [[name, f"{t:.1f}", f"{t / base:.2f}"] for name, t in medians.items()]))
    out.append(f"\nObjective: {spent:.1f} s of a {seconds:.1f} s fit "
               f"({spent / seconds:.0%}).\n")


def part_scaling(args, out):
    makers = {name: make for name, make in models().items()
              if name in ("PApKBoostRanker(k=10)", "LGBMRanker lambdarank")}
    sizes = (1000, 10_000) if args.quick else (1000, 10_000, 100_000)
    rows = []
    for n_users in sizes:
        X, y, groups = make_data(n_users, 100)
        t = alternate(makers, X, y, groups, 1)
        a, b = t["PApKBoostRanker(k=10)"], t["LGBMRanker lambdarank"]
        rows.append([f"{X.shape[0]:,}", f"{a:.1f}", f"{b:.1f}", f"{a / b:.2f}"])
        del X
    out.append("## Scaling with the rows (users x 100 items, one fit each)\n")
    out.append(markdown_table(["rows", "PApKBoostRanker s", "lambdarank s",
                               "ratio"], rows))
    rows = []
    lengths = (100, 1000) if args.quick else (100, 500, 1000, 2000, 5000)
    n_rows = 100_000 if args.quick else 1_000_000
    for n_items in lengths:
        X, y, groups = make_data(n_rows // n_items, n_items)
        t = alternate(makers, X, y, groups, 1)
        a, b = t["PApKBoostRanker(k=10)"], t["LGBMRanker lambdarank"]
        rows.append([f"{n_items:,}", f"{n_rows // n_items:,}", f"{a:.1f}",
                     f"{b:.1f}", f"{a / b:.2f}"])
    out.append(f"\n## Scaling with the list length ({n_rows:,} rows, one fit "
               f"each)\n")
    out.append(markdown_table(["items a user", "users", "PApKBoostRanker s",
                               "lambdarank s", "ratio"], rows))
    out.append("")


def peak_of_one_call(n_users, n_items):
    from skpapk.losses import LightGBMObjective

    _, y, groups = make_data(n_users, n_items, n_features=1)
    sizes = np.bincount(groups)
    objective = LightGBMObjective("pairwise_logistic", k=10, n_jobs=2,
                                  truncation_level=None)
    scores = np.random.default_rng(1).normal(size=y.shape[0])
    objective(y, scores, None, sizes)  # the layout, built once per fit
    tracemalloc.start()
    objective(y, scores + 1.0, None, sizes)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, y.shape[0]


def part_memory(args, out):
    rows = []
    shapes = ((10_000, 100), (20, 5000)) if args.quick else (
        (100_000, 100), (200, 5000))
    for n_users, n_items in shapes:
        peak, n = peak_of_one_call(n_users, n_items)
        rows.append([f"{n_users:,} x {n_items:,}", f"{peak / 2**20:.0f}",
                     f"{peak / n:.0f}"])
    out.append("## Memory of one objective call (after the first)\n")
    out.append(markdown_table(["users x items", "peak MiB", "bytes a row"], rows))
    out.append("")


COMPILE = textwrap.dedent("""
    import time, numpy as np
    start = time.perf_counter()
    from skpapk.losses import LightGBMObjective
    y = np.r_[np.ones(5), np.zeros(20)]
    LightGBMObjective("pairwise_logistic")(y, np.zeros(25), None, [25])
    LightGBMObjective("soft_papk")(y, np.zeros(25), None, [25])
    print(time.perf_counter() - start)
""")


def part_compile(args, out):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = [float(subprocess.run([sys.executable, "-c", COMPILE], env=env,
                                     capture_output=True, text=True,
                                     check=True).stdout) for _ in range(2)]
    out.append(f"## First call\n\nFresh numba cache: {runs[0]:.1f} s (compiles "
               f"the kernels); cache written: {runs[1]:.1f} s.\n")


def part_truncation(args, out):
    from skpapk import PApKBoostRanker
    from skpapk.metrics import papk_score
    from skpapk.model_selection import within_group_split

    n_users = 10 if args.quick else 100
    X, y, groups = make_data(n_users, 2000, n_features=20, seed=3)
    train, _, test = within_group_split(y, groups, random_state=0)
    rows = []
    for name, level in (("exact (truncation_level=None)", None),
                        ("default", "default")):
        params = {} if level == "default" else {"truncation_level": level}
        ranker = PApKBoostRanker(k=10, random_state=0, **TREES, **params)
        start = time.perf_counter()
        ranker.fit(X[train], y[train], groups=groups[train])
        seconds = time.perf_counter() - start
        score = papk_score(y[test], ranker.decision_function(X[test]), k=10,
                           groups=groups[test])
        rows.append([name, f"{100 * score:.2f}", f"{seconds:.1f}"])
    out.append(f"## Cost of the truncation: {n_users} users x 2,000 items\n")
    out.append(markdown_table(["objective", "test micro-pAp@10 (%)", "fit s"],
                              rows))
    out.append("")


PARTS = {"table": part_table, "long": part_long, "scaling": part_scaling,
         "memory": part_memory, "compile": part_compile,
         "truncation": part_truncation}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="every part on small data, nothing written")
    parser.add_argument("--repeats", type=positive_int, default=3)
    parser.add_argument("--parts", nargs="+", choices=list(PARTS),
                        default=list(PARTS))
    parser.add_argument("--out", default=None,
                        help="write the results (Markdown) to this file")
    args = parser.parse_args(argv)
    out = [f"# Speed of the boosted ranker\n\nCommand: `{command_line()}`  ",
           f"Date: {today()}  ", f"Machine: {machine_info()}\n"]
    print("\n".join(out), flush=True)
    for name in args.parts:
        started = time.perf_counter()
        before = len(out)
        PARTS[name](args, out)
        print("\n".join(out[before:]), flush=True)
        print(f"[{name}: {time.perf_counter() - started:.0f} s]", file=sys.stderr,
              flush=True)
    if args.out:
        Path(args.out).write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
