"""Benchmark of the distributed fit (skpapk.dask) against the in-memory fit.

The data: ``--rows`` rows x ``--features`` float32 features (default
10,000,000 x 50, 2 GB) of ``--users`` users with the same number of rows
each, 5% to 15% of them relevant (relevant rows shifted along a fixed
random direction), generated block by block on the workers by
``dask.delayed`` tasks: the client never builds ``X``. Each of the
``--partitions`` blocks holds whole users.

On a ``LocalCluster`` of ``--workers`` worker processes (1 thread each) it
times, for Algorithm 1 (``PApKAvgRanker``) and for the default
``PApKRanker`` (smooth pairwise logistic surrogate, L-BFGS):

- every round trip of the fit to the workers (one epoch of Algorithm 1,
  one objective-and-gradient evaluation of L-BFGS): sending ``w``, each
  worker's ``X_p @ w``, surrogate sums and ``X_p.T @ c_p``, gathering
  and adding them up; the median over ``--epochs`` epochs is reported;
- the whole ``fit`` (data generation, checks, preparation, epochs);
- the peak resident memory of every worker process and of the client
  (``resource.getrusage``, maximum RSS since the process started).

The scheduler's overhead per epoch is measured on a tiny dataset (20
users, 2,000 rows) split into 2 to 64 partitions: the distributed epoch
minus the in-memory epoch on the same rows.

Then, unless ``--no-in-memory``, the same data are built in this process
and fitted by the in-memory rankers (seconds per epoch, peak memory). The
numbers and the machine are printed as Markdown (``--out`` writes them to
a file).

Run ``python -m benchmarks.timing.bench_dask`` (defaults above; 1 BLAS thread for
the in-memory fit, as for each worker); ``--rows 1000000`` for a quick run.
"""

import argparse
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one thread, as every worker

import resource  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402

from .._common import command_line, machine_info, markdown_table, positive_int, today  # noqa: E402

#: (label, class name, parameters) of the rankers timed
RANKERS = [
    ("Algorithm 1 (PApKAvgRanker)", "PApKAvgRanker", dict(k=10, tol=None)),
    ("L-BFGS, pairwise logistic (PApKRanker)", "PApKRanker", dict(k=10, tol=None)),
]


def make_block(b, *, n_blocks, n_rows, n_users, n_features, seed=0):
    """Block ``b``: whole users, ``n_rows // n_users`` rows each."""
    per_user = n_rows // n_users
    users = np.arange(n_users * b // n_blocks, n_users * (b + 1) // n_blocks)
    rng = np.random.default_rng([seed, b])
    n = users.shape[0] * per_user
    groups = np.repeat(users, per_user)
    rate = rng.uniform(0.05, 0.15, users.shape[0])[np.repeat(
        np.arange(users.shape[0]), per_user)]
    y = (rng.random(n) < rate).astype(np.int8)
    X = rng.standard_normal((n, n_features), dtype=np.float32)
    direction = np.random.default_rng(seed).standard_normal(n_features)
    direction = (0.5 * direction / np.linalg.norm(direction) * np.sqrt(n_features))
    X[y == 1] -= direction.astype(np.float32) / np.sqrt(n_features)
    return X, y, groups


def dask_data(n_blocks, **shape):
    """Dask arrays whose blocks the workers make (known shapes)."""
    import dask
    import dask.array as da

    per_user = shape["n_rows"] // shape["n_users"]
    d = shape["n_features"]
    X, y, g = [], [], []
    for b in range(n_blocks):
        n_users = (shape["n_users"] * (b + 1) // n_blocks
                   - shape["n_users"] * b // n_blocks)
        n = n_users * per_user
        x_b, y_b, g_b = dask.delayed(make_block, nout=3)(
            b, n_blocks=n_blocks, **shape)
        X.append(da.from_delayed(x_b, (n, d), np.float32))
        y.append(da.from_delayed(y_b, (n,), np.int8))
        g.append(da.from_delayed(g_b, (n,), np.int64))
    return da.concatenate(X), da.concatenate(y), da.concatenate(g)


def _cpu_timed(func):
    """``func`` returning also its process id and its thread's CPU seconds."""
    def run(part, *args, **kwargs):
        start = time.thread_time()
        out = func(part, *args, **kwargs)
        return out, os.getpid(), time.thread_time() - start
    return run


class RoundTrips:
    """Times every round trip of a distributed fit (one per epoch).

    ``times``: wall seconds of the round trip seen by the client;
    ``busiest``: CPU seconds of the epoch's tasks on the busiest worker
    process; ``cpu``: CPU seconds of all the epoch's tasks.
    """

    def __init__(self):
        from skpapk.dask._oracle import PersistedPartitions

        self.cls, self.original = PersistedPartitions, PersistedPartitions.map
        self.times, self.busiest, self.cpu = [], [], []
        recorder = self

        def timed(parts, func, *args, **kwargs):
            if func.__name__ != "loss_sums":
                return recorder.original(parts, func, *args, **kwargs)
            start = time.perf_counter()
            out = recorder.original(parts, _cpu_timed(func), *args, **kwargs)
            recorder.times.append(time.perf_counter() - start)
            per_worker = {}
            for _, pid, cpu in out:
                per_worker[pid] = per_worker.get(pid, 0.0) + cpu
            recorder.busiest.append(max(per_worker.values()))
            recorder.cpu.append(sum(per_worker.values()))
            return [result for result, _, _ in out]

        PersistedPartitions.map = timed

    def clear(self):
        for values in (self.times, self.busiest, self.cpu):
            values.clear()

    def restore(self):
        self.cls.map = self.original


class LocalEpochs:
    """Times every evaluation of the in-memory objective (one pass over the
    rows: scores, surrogate, gradient) of either solver: wall seconds in
    ``times``, CPU seconds of this process in ``cpu``."""

    def __init__(self):
        from skpapk._linear_loss import InMemoryLinearLoss

        self.times, self.cpu = [], []
        self.cls, self.original = InMemoryLinearLoss, InMemoryLinearLoss._surrogate_at
        original, times, cpu = self.original, self.times, self.cpu

        def timed(loss, *args, **kwargs):
            start, cpu0 = time.perf_counter(), time.process_time()
            out = original(loss, *args, **kwargs)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - cpu0)
            return out

        InMemoryLinearLoss._surrogate_at = timed

    def clear(self):
        self.times.clear()
        self.cpu.clear()

    def restore(self):
        self.cls._surrogate_at = self.original


def peak_rss():
    """Maximum resident set size of this process so far, in bytes (Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def gib(n_bytes):
    return f"{n_bytes / 2**30:.2f}"


def fit_timed(module, name, params, X, y, groups, epochs, recorder):
    ranker = getattr(module, name)(max_iter=epochs, **params)
    recorder.clear()
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ranker.fit(X, y, groups=groups)
    total = time.perf_counter() - start
    return ranker, total, list(recorder.times)


def scheduler_overhead(n_features, epochs, partitions=(2, 16, 64)):
    """Distributed minus in-memory seconds per epoch on 2,048 rows (64 users)."""
    import dask.array as da

    import skpapk.dask

    n_users, per_user = 64, 32
    X, y, g = make_block(0, n_blocks=1, n_rows=n_users * per_user,
                         n_users=n_users, n_features=n_features)
    params = dict(k=10, tol=None)
    rec = LocalEpochs()
    try:
        _, _, local_times = fit_timed(skpapk, "PApKAvgRanker", params, X, y, g,
                                      epochs, rec)
    finally:
        rec.restore()
    local = float(np.median(local_times))
    rows = []
    for n_parts in partitions:
        users = np.diff(np.linspace(0, n_users, n_parts + 1).astype(int))
        chunks = tuple(int(u) * per_user for u in users)
        dX = da.from_array(X, chunks=(chunks, n_features))
        dy, dg = da.from_array(y, chunks=chunks), da.from_array(g, chunks=chunks)
        rec = RoundTrips()
        try:
            _, _, times = fit_timed(skpapk.dask, "PApKAvgRanker", params, dX, dy,
                                    dg, epochs, rec)
        finally:
            rec.restore()
        remote = float(np.median(times))
        rows.append([n_parts, f"{remote * 1e3:.1f}", f"{local * 1e3:.2f}",
                     f"{(remote - local) * 1e3:.1f}"])
    return rows


def epoch_components(n_rows, n_users, n_features, repeat=3):
    """Seconds of the pieces of an epoch on one block, one core (best of 3)."""
    from skpapk.losses import SURROGATES, get_surrogate, make_pair_layout

    X, y, g = make_block(0, n_blocks=1, n_rows=n_rows, n_users=n_users,
                         n_features=n_features)
    y_pos = y == 1
    codes = g - g.min()
    w = np.random.default_rng(0).standard_normal(n_features)
    scores = (X @ w.astype(np.float32)).astype(np.float64)
    coef = np.random.default_rng(1).standard_normal(n_rows).astype(np.float32)
    smooth = get_surrogate("pairwise_logistic", group_weight="inverse_variance")
    layout = make_pair_layout(y_pos, codes, n_users)

    def best(f):
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            f()
            times.append(time.perf_counter() - start)
        return min(times)

    return {
        "X @ w": best(lambda: X @ w.astype(np.float32)),
        "X.T @ c": best(lambda: X.T @ coef),
        "avg surrogate sums": best(lambda: SURROGATES["avg"]().loss_gradient_sums(
            y_pos, scores, codes, n_users, 10)),
        "pairwise logistic sums": best(lambda: smooth.loss_gradient_sums(
            y_pos, scores, codes, n_users, 10, layout=layout)),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=positive_int, default=10_000_000)
    parser.add_argument("--features", type=positive_int, default=50)
    parser.add_argument("--users", type=positive_int, default=100_000)
    parser.add_argument("--workers", type=positive_int, default=2)
    parser.add_argument("--partitions", type=positive_int, default=40)
    parser.add_argument("--epochs", type=positive_int, default=5)
    parser.add_argument("--no-in-memory", action="store_true")
    parser.add_argument(
        "--worker-mmap-threshold", type=int, default=None,
        help="MALLOC_MMAP_THRESHOLD_ of the worker processes, in bytes. Dask "
             "starts its workers with MALLOC_TRIM_THRESHOLD_=65536, which makes "
             "glibc map every allocation over 128 KiB anew (page faults on "
             "every temporary array); a threshold of e.g. 33554432 undoes that.")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    import dask
    from dask.distributed import Client, LocalCluster

    environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ"))
    if args.worker_mmap_threshold is not None:
        environ["MALLOC_MMAP_THRESHOLD_"] = args.worker_mmap_threshold
        dask.config.set({"distributed.nanny.pre-spawn-environ": environ})

    import skpapk.dask

    shape = dict(n_rows=args.rows, n_users=args.users, n_features=args.features)
    load_before = os.getloadavg()
    block_rows = args.rows // args.partitions
    block_users = args.users // args.partitions
    components = epoch_components(block_rows - block_rows % (args.rows // args.users),
                                  block_users, args.features)
    print("epoch components on one partition:",
          {k: round(v, 4) for k, v in components.items()}, flush=True)
    lines = ["# skpapk.dask: distributed fit against in-memory fit", "",
             f"Command: `{command_line()}`", "", f"Date: {today()}", "",
             f"Machine: {machine_info()}", "",
             f"Data: {args.rows:,} rows x {args.features} float32 features "
             f"({gib(args.rows * args.features * 4)} GiB), {args.users:,} users "
             f"of {args.rows // args.users} rows, {args.partitions} partitions of "
             f"whole users, made on the workers. {args.epochs} epochs per fit.", "",
             f"Environment of the worker processes: {environ} (dask's "
             f"`distributed.nanny.pre-spawn-environ`); this process: glibc's "
             f"defaults, 1 BLAS thread.", ""]
    results = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dashboard port notes
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               processes=True, dashboard_address=":0",
                               memory_limit=0)
        client = Client(cluster)
    try:
        X, y, g = dask_data(args.partitions, **shape)
        for label, name, params in RANKERS:
            rec = RoundTrips()
            try:
                ranker, total, times = fit_timed(skpapk.dask, name, params, X, y, g,
                                                 args.epochs, rec)
            finally:
                rec.restore()
            results[label] = {"dask_epoch": float(np.median(times)),
                              "dask_busiest": float(np.median(rec.busiest)),
                              "dask_cpu": float(np.median(rec.cpu)),
                              "dask_evals": len(times), "dask_total": total,
                              "coef": ranker.coef_}
            print(f"{label}: dask {len(times)} round trips, median "
                  f"{np.median(times):.3f} s (CPU: busiest worker "
                  f"{np.median(rec.busiest):.3f} s, all {np.median(rec.cpu):.3f} s),"
                  f" fit {total:.1f} s", flush=True)
        worker_peaks = client.run(peak_rss)
        overhead = scheduler_overhead(args.features, max(args.epochs, 20))
    finally:
        client.close()
        cluster.close()
    client_peak = peak_rss()
    print(f"worker peaks: {[gib(v) for v in worker_peaks.values()]} GiB; "
          f"client {gib(client_peak)} GiB", flush=True)

    local_peak = None
    if not args.no_in_memory:
        start = time.perf_counter()
        X, y, g = map(np.concatenate, zip(*[
            make_block(b, n_blocks=args.partitions, **shape)
            for b in range(args.partitions)]))
        build = time.perf_counter() - start
        for label, name, params in RANKERS:
            rec = LocalEpochs()
            try:
                ranker, total, times = fit_timed(skpapk, name, params, X, y, g,
                                                 args.epochs, rec)
            finally:
                rec.restore()
            gap = float(np.abs(ranker.coef_ - results[label]["coef"]).max())
            results[label].update(local_epoch=float(np.median(times)),
                                  local_cpu=float(np.median(rec.cpu)),
                                  local_evals=len(times), local_total=total,
                                  gap=gap)
            print(f"{label}: in memory {len(times)} evaluations, median "
                  f"{np.median(times):.3f} s (CPU {np.median(rec.cpu):.3f} s), fit "
                  f"{total:.1f} s; max |coef_ difference| {gap:.1e}", flush=True)
        local_peak = peak_rss()
        print(f"in-memory: data built in {build:.1f} s; peak {gib(local_peak)} GiB")

    def cell(r, key, fmt):
        return format(r[key], fmt) if key in r else "-"

    rows = [[label, cell(r, "dask_epoch", ".3f"), cell(r, "dask_busiest", ".3f"),
             cell(r, "dask_cpu", ".3f"), r["dask_evals"], cell(r, "dask_total", ".1f"),
             cell(r, "local_epoch", ".3f"), cell(r, "local_cpu", ".3f"),
             cell(r, "local_total", ".1f"), cell(r, "gap", ".1e")]
            for label, r in results.items()]
    lines += ["## Seconds per epoch", "", markdown_table(
        ["ranker", f"dask, {args.workers} workers: wall s/epoch",
         "CPU s/epoch, busiest worker", "CPU s/epoch, all workers",
         "round trips", "dask fit (s)", "in memory: wall s/epoch",
         "CPU s/epoch", "in-memory fit (s)", "max abs coef_ diff"], rows), "",
        "An epoch: one step of Algorithm 1, or one objective-and-gradient "
        "evaluation of L-BFGS (an iteration takes one or more); medians over "
        "the epochs. Wall: the round trip seen by the client (dask) or the "
        "evaluation (in memory). CPU: the CPU seconds of the epoch's tasks "
        "(thread time, summed per worker process), or of this process: "
        "unlike wall time, not inflated by other jobs sharing the cores. "
        "The fit times include making the data on the workers (dask) and "
        "the input checks.", "",
        "## Peak memory (maximum RSS, GiB)", "", markdown_table(
            ["process", "peak RSS (GiB)"],
            [[f"worker {i}", gib(v)] for i, v in enumerate(worker_peaks.values())]
            + [["client, after the dask fits", gib(client_peak)]]
            + ([["this process after the in-memory fits", gib(local_peak)]]
               if local_peak else [])), "",
        "## Scheduler overhead per epoch (tiny data)", "",
        "Algorithm 1 on 2,048 rows x "
        f"{args.features} features (64 users), same cluster:", "",
        markdown_table(["partitions", "dask epoch (ms)", "in-memory epoch (ms)",
                        "overhead (ms)"], overhead), "",
        "## The pieces of an epoch on one partition (one core, this process)", "",
        f"One partition: {args.users // args.partitions:,} users, "
        f"{(args.users // args.partitions) * (args.rows // args.users):,} rows "
        f"(best of 3, before the cluster starts):", "",
        markdown_table(["piece", "seconds"],
                       [[k, f"{v:.4f}"] for k, v in components.items()]), ""]
    # the on-paper extrapolation, from the measured costs
    part_rows = (args.users // args.partitions) * (args.rows // args.users)
    slope = ((float(overhead[-1][3]) - float(overhead[0][3]))
             / (overhead[-1][0] - overhead[0][0]) / 1e3)  # s per extra partition
    base = float(overhead[0][3]) / 1e3
    target_rows, target_workers = 1e9, 50
    target_parts = int(round(target_rows / part_rows))
    per_worker = target_parts / target_workers
    sched = base + slope * (target_parts - overhead[0][0])
    rows = []
    for label, piece in zip(results, ["avg surrogate sums",
                                      "pairwise logistic sums"]):
        pieces = components["X @ w"] + components["X.T @ c"] + components[piece]
        cpu_per_row = results[label]["dask_cpu"] / args.rows
        rows.append([label, f"{pieces:.3f}", f"{pieces * per_worker:.1f}",
                     f"{cpu_per_row * 1e9:.0f}",
                     f"{cpu_per_row * target_rows / target_workers:.1f}",
                     f"{sched:.1f}"])
    lines += [
        f"## On paper: {target_rows:.0e} rows on {target_workers} workers", "",
        f"{target_rows / target_workers:,.0f} rows per worker, in partitions "
        f"of the size above ({part_rows:,} rows): {target_parts:,} partitions, "
        f"{per_worker:.0f} per worker, run one after the other by a worker's "
        f"thread. Compute per epoch on a worker = the pieces of one partition "
        f"x partitions per worker, or the workers' CPU seconds per row in the "
        f"dask epochs above x rows per worker. Scheduler = the tiny-data "
        f"overhead of {overhead[0][0]} partitions plus {slope * 1e3:.2f} ms per "
        f"extra partition (the slope above, wall time on this shared machine: "
        f"an upper bound).", "",
        markdown_table(["ranker", "pieces of 1 partition (s)",
                        "compute s/epoch (pieces)", "worker CPU ns/row (dask)",
                        "compute s/epoch (dask CPU)", "scheduler s/epoch"],
                       rows), ""]
    lines += [f"Load average (1, 5, 15 min) before: {load_before}, after: "
              f"{os.getloadavg()} (other jobs share the machine).", ""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
