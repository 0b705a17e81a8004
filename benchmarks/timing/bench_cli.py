"""Benchmark of the ``skpapk`` command line on a large CSV file.

Generates a CSV file of ``--rows`` rows (default 1,000,000), ``--features``
features (default 20) and ``--users`` users (default 10,000), plus a text
item id and a 0/1 label, into a temporary folder (never into the
repository), then measures, each in its own process, the wall time and the
peak resident memory (``ru_maxrss`` of the process, read by a small
launcher) of

- ``python -c "pandas.read_csv(FILE)"`` (the reference) and
  ``skpapk score FILE --model MODEL``, each ``--repeat`` times (default 5),
  alternately, so that both see the same load of the shared machine: the
  medians are compared;
- ``skpapk fit FILE --alpha 0.001`` (fixed hyper-parameters: PApKRanker
  tunes only ``alpha``);
- with ``--compare``: ``skpapk compare --data FILE`` (its default methods);
- with ``--default-compare N``: ``skpapk compare`` with no option, N times;

and the memory of a process that only imports what ``score`` imports
(skpapk's command line, its ``score`` command and pandas). The targets:
``score`` at most 3x ``pandas.read_csv``; ``fit`` at most 60 s;
``compare`` at most 10 min, on a 2-core machine.

Usage (the committed ``benchmarks/results/cli.md``, with its notes, is
written by ``python -m benchmarks run-all --only cli``)::

    python -m benchmarks.timing.bench_cli --compare --default-compare 3 \\
        --out cli.md
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas as pd

from .._common import command_line, machine_info, non_negative_int, positive_int, today  # noqa: E402

SKPAPK = [sys.executable, "-m", "skpapk"]


def make_csv(path, n_rows, n_features, n_users, seed=0):
    """user,item,label,f0..: 10% relevant rows, shifted by 0.3 in every feature."""
    rng = np.random.default_rng(seed)
    users = rng.integers(0, n_users, n_rows)
    label = (rng.random(n_rows) < 0.1).astype(np.int8)
    X = rng.normal(size=(n_rows, n_features)) + 0.3 * label[:, None]
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(n_features)])
    frame.insert(0, "label", label)
    frame.insert(0, "item", [f"i{i}" for i in range(n_rows)])
    frame.insert(0, "user", [f"u{u}" for u in users])
    frame.to_csv(path, index=False, float_format="%.6f")


#: A small launcher: the measured command is forked from it, not from this
#: process (a fork of a large parent would count the parent's pages in the
#: child's peak RSS until its exec).
_LAUNCHER = """
import resource, subprocess, sys
status = subprocess.call(sys.argv[1:])
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stderr.write(f"\\nSKPAPK_BENCH_MAXRSS_KB={usage.ru_maxrss}\\n")
sys.exit(status)
"""


def measure_rss(command, cwd):
    """Wall time, peak RSS (MB), status, stdout, stderr of one command."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-S", "-c", _LAUNCHER, *command],
                          cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    stderr, _, tail = proc.stderr.rpartition("SKPAPK_BENCH_MAXRSS_KB=")
    return wall, int(tail.strip()) / 1024, proc.returncode, proc.stdout, stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=positive_int, default=1_000_000)
    parser.add_argument("--features", type=positive_int, default=20)
    parser.add_argument("--users", type=positive_int, default=10_000)
    parser.add_argument("--csv", default=None,
                        help="reuse this generated file (made if missing)")
    parser.add_argument("--compare", action="store_true",
                        help="also time skpapk compare on the file (minutes)")
    parser.add_argument("--default-compare", type=non_negative_int, default=0,
                        metavar="N",
                        help="also time 'skpapk compare' with no option N times")
    parser.add_argument("--repeat", type=positive_int, default=5, metavar="N",
                        help="runs of read_csv and of score (alternately)")
    parser.add_argument("--out", default=None, help="write the results (Markdown)")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="skpapk_bench_cli_")
    csv_path = args.csv or os.path.join(folder, "data.csv")
    if not os.path.exists(csv_path):
        t0 = time.perf_counter()
        make_csv(csv_path, args.rows, args.features, args.users)
        print(f"generated {csv_path} in {time.perf_counter() - t0:.0f} s",
              file=sys.stderr)
    size_mb = os.path.getsize(csv_path) / 1e6
    numeric_mb = args.rows * args.features * 8 / 1e6
    # the group column as score holds it: one Python str per row
    group_mb = pd.read_csv(csv_path, usecols=["user"], dtype=object)[
        "user"].memory_usage(deep=True, index=False) / 1e6
    model = os.path.join(folder, "model.json")
    load_before = os.getloadavg()
    rows = []

    def run(name, command, note=""):
        print(f"running {name} ...", file=sys.stderr, flush=True)
        wall, rss, status, stdout, stderr = measure_rss(command, folder)
        if status != 0:
            raise SystemExit(f"{name} failed ({status}):\n{stderr}")
        rows.append((name, wall, rss, note))
        print(f"  {wall:.1f} s, {rss:.0f} MB", file=sys.stderr)
        return stdout

    run("python: import what score imports (baseline)",
        [sys.executable, "-c", "import skpapk.cli._commands, pandas"])
    run("skpapk fit FILE --alpha 0.001",
        [*SKPAPK, "fit", csv_path, "--group-col", "user", "--ignore-cols", "item",
         "--alpha", "0.001", "--out", model, "--force", "-q"])
    reads, scores = [], []
    for i in range(args.repeat):
        run(f"pandas.read_csv(FILE), run {i + 1}",
            [sys.executable, "-c", "import sys, pandas; pandas.read_csv(sys.argv[1])",
             csv_path])
        reads.append(rows[-1][1:3])
        score = run(f"skpapk score FILE --model MODEL, run {i + 1}",
                    [*SKPAPK, "score", csv_path, "--model", model, "-q"])
        scores.append(rows[-1][1:3])
    compare_out = None
    if args.compare:
        compare_out = run("skpapk compare --data FILE (default methods)",
                          [*SKPAPK, "compare", "--data", csv_path, "--group-col",
                           "user", "--ignore-cols", "item", "-q"])
    default_times = []
    for i in range(args.default_compare):
        default_out = run(f"skpapk compare (no option), run {i + 1}",
                          [*SKPAPK, "compare", "-q"])
        default_times.append(rows[-1][1])
    load_after = os.getloadavg()

    by_name = {name: (wall, rss) for name, wall, rss, _ in rows}
    read_wall, read_rss = np.median(reads, axis=0)
    score_wall, score_rss = np.median(scores, axis=0)
    ratios = [s_wall / r_wall for (s_wall, _), (r_wall, _) in zip(scores, reads)]
    fit_wall, _ = by_name["skpapk fit FILE --alpha 0.001"]
    base_rss = by_name["python: import what score imports (baseline)"][1]
    lines = [
        "# The command line on a large CSV file",
        "",
        f"Command: `{command_line()}`  ",
        f"Date: {today()}  ",
        f"Machine: {machine_info()}  ",
        f"Load average (1, 5, 15 min) before: "
        f"{', '.join(f'{v:.1f}' for v in load_before)}; after: "
        f"{', '.join(f'{v:.1f}' for v in load_after)} (the machine is shared)  ",
        f"File: {args.rows:,} rows x {args.features} features, {args.users:,} "
        f"users, a text item id and a 0/1 label: {size_mb:.0f} MB of CSV, "
        f"{numeric_mb:.0f} MB of float64 features. Generated in a temporary "
        f"folder, not kept.",
        "",
        "Each line is one process: wall time (including Python's start and "
        "imports) and peak resident memory (`ru_maxrss`).",
        "",
        "| what | wall time (s) | peak RSS (MB) |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {name} | {wall:.1f} | {rss:.0f} |" for name, wall, rss, _ in rows]
    lines += [
        "",
        "## Against the targets",
        "",
        f"- `score` / `pandas.read_csv`: {score_wall / read_wall:.2f}x the wall "
        f"time, medians of {args.repeat} runs each, {score_wall:.2f} s against "
        f"{read_wall:.2f} s (run by run: "
        f"{', '.join(f'{r:.2f}x' for r in ratios)}; target: at most 3x); peak "
        f"memory {score_rss:.0f} MB against {read_rss:.0f} MB for "
        f"pandas.read_csv.",
        f"- `score`'s peak memory is {score_rss / numeric_mb:.2f}x the numeric "
        f"data ({numeric_mb:.0f} MB) including the {base_rss:.0f} MB the "
        f"process pays for Python, numpy, scipy.special and pandas before "
        f"reading; {(score_rss - base_rss) / numeric_mb:.2f}x without it, "
        f"{(score_rss - base_rss) / (numeric_mb + group_mb):.2f}x the numeric "
        f"data plus the group column ({group_mb:.0f} MB of Python strings) "
        f"(target: at most 3x the numeric data plus the group column).",
        f"- `fit` with a fixed alpha: {fit_wall:.1f} s (target: at most 60 s).",
    ]
    if compare_out is not None:
        wall = by_name["skpapk compare --data FILE (default methods)"][0]
        lines += [f"- `compare --data FILE`, default methods: {wall / 60:.1f} min "
                  f"(target: at most 10 min).", "", "Its output:", "", "```",
                  compare_out.rstrip(), "```"]
    if default_times:
        lines += ["", f"`skpapk compare` with no option: "
                      f"{', '.join(f'{t:.0f}' for t in default_times)} s "
                      f"(median {np.median(default_times):.0f} s). Its output:",
                  "", "```", default_out.rstrip(), "```"]
    lines += ["", "`score`'s output:", "", "```", score.rstrip(), "```", ""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
