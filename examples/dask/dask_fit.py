"""
=========================================================
One fit across a cluster: the rankers on dask collections
=========================================================

The objective of every linear ranker of skpapk is a mean over users, and so
are its gradient and the epoch of the paper's Algorithm 1. When each
user's rows sit in one partition, every worker computes its partition's
share and the client only adds them up: :mod:`skpapk.dask` fits the
in-memory model exactly, with ``X`` spread over the workers' memory. Switch
by changing the import: ``from skpapk.dask import PApKRanker``.

This script starts a :class:`~distributed.LocalCluster` of 2 worker
processes, generates the data on the workers block by block (the client
never holds it), fits, and checks the result against the in-memory fit.

**On a real cluster.** Start a scheduler and workers (``dask scheduler`` on
one machine, ``dask worker tcp://scheduler-address:8786`` on the others,
each with the same versions of skpapk, scikit-learn and numpy; or a
``dask_jobqueue`` / ``dask_kubernetes`` cluster), and replace the
``LocalCluster`` below by::

    client = Client("tcp://scheduler-address:8786")

For the smooth surrogates (the default), start the workers with
``MALLOC_MMAP_THRESHOLD_=33554432`` in their environment: dask sets
``MALLOC_TRIM_THRESHOLD_``, under which a partition's sums took 10-35%
longer in a plain process (the fits of ``benchmarks/results/dask.md`` took
the same time per epoch with it alone; see :mod:`skpapk.dask`).

Read the data where it lives (``dask.dataframe.read_parquet``,
``dask.array.from_zarr``...), with every user's rows in one partition:
write the files partitioned by user, or shuffle once with
:func:`skpapk.dask.partition_by_group`. Each epoch then moves only
``w`` and a few sums of its size over the network.
"""

# %%
# Data made on the workers: 16 blocks of 200 users, 40 rows each (4 to 8
# relevant), so that every block holds whole users. ``make_block`` runs on
# the worker that keeps the block.
import sys
import time

import numpy as np

import skpapk
from skpapk.datasets import make_papk_simulation

try:
    import dask
    import dask.array as da
    from dask.distributed import Client, LocalCluster

    import skpapk.dask
except ImportError:  # pragma: no cover - the extra is optional
    print("dask is not installed: pip install 'skpapk[dask]'")
    sys.exit(0)

N_BLOCKS, USERS, ROWS, D = 16, 200, 40, 8


def make_block(b):
    """Block ``b``: users ``b * USERS`` to ``(b + 1) * USERS - 1``."""
    rng = np.random.default_rng(b)
    n_pos = rng.integers(4, 9, USERS)
    X, y, groups = make_papk_simulation(
        USERS, n_pos=n_pos, n_neg=ROWS - n_pos, n_features=D, pos_mean=-0.3,
        shuffle=False, random_state=b)
    return X, y, groups + b * USERS


def on_the_workers():
    """Dask arrays whose blocks are made by the workers."""
    blocks = [dask.delayed(make_block, nout=3)(b) for b in range(N_BLOCKS)]
    n = USERS * ROWS
    X = da.concatenate([da.from_delayed(x, (n, D), float) for x, _, _ in blocks])
    y = da.concatenate([da.from_delayed(v, (n,), int) for _, v, _ in blocks])
    g = da.concatenate([da.from_delayed(u, (n,), int) for _, _, u in blocks])
    return X, y, g


# %%
# The cluster: 2 worker processes on this machine. Dask starts them with
# ``spawn``, which imports this script again in each of them; the code that
# must run once, in the client only, sits under ``if __name__ ==
# "__main__":`` in this cell and the next ones.
if __name__ == "__main__":
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=":0")
    client = Client(cluster)
    X, y, groups = on_the_workers()
    print(f"X: {X.shape[0]} rows x {X.shape[1]} features in "
          f"{X.numblocks[0]} partitions of whole users, on "
          f"{len(client.scheduler_info()['workers'])} workers")

# %%
# The fit: the default ranker (smooth pairwise logistic surrogate, L-BFGS).
# Each iteration sends ``w`` to the workers, each returns its partition's
# loss sum, the weight of its users and ``X_p.T @ c_p``.
if __name__ == "__main__":
    start = time.perf_counter()
    ranker = skpapk.dask.PApKRanker(k=10).fit(X, y, groups=groups)
    seconds = time.perf_counter() - start
    print(f"distributed fit: {ranker.n_iter_} L-BFGS iterations, "
          f"{seconds:.1f} s")

# %%
# The same fit in memory (possible here: the data are small).
if __name__ == "__main__":
    X_np, y_np, g_np = map(np.concatenate,
                           zip(*[make_block(b) for b in range(N_BLOCKS)]))
    local = skpapk.PApKRanker(k=10).fit(X_np, y_np, groups=g_np)
    gap = np.abs(ranker.coef_ - local.coef_).max()
    print(f"in-memory fit: {local.n_iter_} iterations; "
          f"max |coef_ difference| = {gap:.1e}")

# %%
# Rows that arrive mixed up (users spread over partitions) make the
# fit raise an error; a shuffle by user fixes them.
if __name__ == "__main__":
    perm = np.random.default_rng(0).permutation(X.shape[0])
    X_mixed = X[perm].rechunk((10_000, D))  # taken on the workers
    mixed = [a[perm].rechunk(10_000) for a in (y, groups)]
    try:
        skpapk.dask.PApKRanker(k=10).fit(X_mixed, mixed[0], groups=mixed[1])
    except ValueError as exc:
        print("users spanning partitions:", str(exc).split(" (e.g.")[0])
    X_s, y_s, g_s = skpapk.dask.partition_by_group(
        X_mixed, mixed[0], groups=mixed[1])
    shuffled = skpapk.dask.PApKRanker(k=10).fit(X_s, y_s, groups=g_s)
    gap = np.abs(shuffled.coef_ - local.coef_).max()
    print(f"after partition_by_group: max |coef_ difference| = {gap:.1e}")

# %%
# The fitted ranker is an in-memory one: it scores NumPy rows and
# pickles; on dask rows, ``decision_function`` returns a dask array
# and ``score`` adds up every partition's users.
if __name__ == "__main__":
    scores = ranker.decision_function(X)
    print(f"decision_function on dask input: {type(scores).__name__} of "
          f"{scores.numblocks[0]} blocks")
    print(f"micro-pAp@10: distributed {ranker.score(X, y, groups):.4f}, "
          f"in memory {local.score(X_np, y_np, g_np):.4f}")

# %%
# The boosted ranker (needs lightgbm too) trains with LightGBM's Dask
# interface on the same workers. Its objective divides each worker's
# users by the weight of all the users, so its gradients are the
# in-memory ones; the trees differ only where a worker finds other
# feature bins than the in-memory ranker. (LightGBM's workers print
# their network set-up, "[LightGBM] [Info] ...", whatever the verbosity,
# and "[LightGBM] [Warning] Connecting to rank 1 failed, waiting ..." while
# the workers start listening: the training goes on once they connect.)
if __name__ == "__main__":
    try:
        import lightgbm  # noqa: F401
    except ImportError:  # pragma: no cover - the extra is optional
        print("lightgbm is not installed: pip install 'skpapk[lightgbm]'")
    else:
        start = time.perf_counter()
        boosted = skpapk.dask.PApKBoostRanker(k=10, random_state=0).fit(
            X, y, groups=groups)
        seconds = time.perf_counter() - start
        local_boosted = skpapk.PApKBoostRanker(k=10, random_state=0).fit(
            X_np, y_np, groups=g_np)
        print(f"boosted, {boosted.n_iter_} rounds in {seconds:.1f} s: "
              f"micro-pAp@10 distributed {boosted.score(X, y, groups):.4f}, "
              f"in memory {local_boosted.score(X_np, y_np, g_np):.4f}")

# %%
# Close the client, then the cluster.
if __name__ == "__main__":
    client.close()
    cluster.close()
