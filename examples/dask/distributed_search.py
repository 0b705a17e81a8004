"""
=======================================================================
Distributed hyper-parameter search with dask: GridSearchCV on a cluster
=======================================================================

The paper picks ``eta`` and ``lambda`` of every ranker on a grid (App. F:
12 step sizes x 4 regularisations, for every surrogate and every ``k``).
Each (candidate, fold) fit is independent, so the search spreads over a
cluster with joblib's dask backend: wrap ``GridSearchCV(..., n_jobs=-1)``
in ``joblib.parallel_backend("dask")`` with a
:class:`dask.distributed.Client` open. Nothing else changes: metadata
routing (``groups`` to the ranker's ``fit`` and to
:func:`skpapk.metrics.micro_papk_scorer`) works on the workers, since
scikit-learn ships its configuration with every task.

Install the extra: ``pip install "skpapk[dask]"``.

**On a real cluster.** Start a scheduler and workers (``dask scheduler``
on one machine, ``dask worker tcp://scheduler-address:8786`` on the
others, each with the same versions of skpapk, scikit-learn and numpy; or
a ``dask_jobqueue`` / ``dask_kubernetes`` cluster), then replace the
``LocalCluster`` below by::

    client = Client("tcp://scheduler-address:8786")

The data are sent to the workers with the tasks: for large ``X``, scatter
it once (``joblib.parallel_backend("dask", scatter=[X, y, groups])``).
The dashboard (``client.dashboard_link``) shows the fits as they run.

This script runs a small search on a local cluster of 2 worker threads
and checks that it equals the default (local joblib) backend.
"""

# %%
# Data: 40 simulated users (relevant items shifted from the irrelevant ones).
import sys
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, GroupKFold

from skpapk import PApKRanker
from skpapk.metrics import micro_papk_scorer

try:
    import joblib
    from dask.distributed import Client, LocalCluster
except ImportError:  # pragma: no cover - the extra is optional
    print("dask.distributed is not installed: pip install 'skpapk[dask]'")
    sys.exit(0)

rng = np.random.default_rng(0)
n_pos, n_neg = rng.integers(3, 10, 40), rng.integers(20, 40, 40)
groups = np.repeat(np.arange(40), n_pos + n_neg)
y = np.concatenate([np.r_[np.ones(a, int), np.zeros(b, int)]
                    for a, b in zip(n_pos, n_neg)])
X = rng.normal(size=(y.shape[0], 5)) - 0.5 * y[:, None]

# %%
# The search: the paper's kind of grid, scored by micro-pAp@5 on held-out
# users. Routing sends each fold's groups to ``fit`` and to the scorer.
grid = {"surrogate": ["avg", "max"], "eta0": [0.05, 0.5, 5.0],
        "alpha": [1e-3, 1e-2, 1e-1]}


def run_search():
    search = GridSearchCV(PApKRanker(k=5, max_iter=30, tol=None), grid,
                          scoring=micro_papk_scorer(k=5), cv=GroupKFold(4),
                          n_jobs=-1)
    with sklearn.config_context(enable_metadata_routing=True), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return search.fit(X, y, groups=groups)


# %%
# Local cluster (for a real one: ``Client("tcp://scheduler-address:8786")``).
if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        with joblib.parallel_backend("dask"):
            on_dask = run_search()
        print(f"dask workers: {len(client.scheduler_info()['workers'])}")
    local = run_search()
    print(f"best on dask: {on_dask.best_params_}, micro-pAp@5 = "
          f"{on_dask.best_score_:.4f}")
    print(f"best locally: {local.best_params_}, micro-pAp@5 = "
          f"{local.best_score_:.4f}")
    same = np.array_equal(on_dask.cv_results_["mean_test_score"],
                          local.cv_results_["mean_test_score"])
    print(f"same cross-validation scores on both backends: {same}")
