"""A worker killed during LightGBM's distributed training ends ``fit`` with an error.

Without the guard, ``fit`` hangs forever (LightGBM issue #5920): the test
runs ``fit`` in a thread and fails, instead of hanging, when it has not
ended ``LIMIT`` seconds after the kill. The module's cluster (see conftest) is
its own: the test kills one of its workers.
"""

import gc
import operator
import os
import signal
import threading
import time

import numpy as np
import pytest

lgb = pytest.importorskip("lightgbm")
distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")

from skpapk.dask import PApKBoostRanker  # noqa: E402
from skpapk.dask._watchdog import _message, guard_training  # noqa: E402
from skpapk.dask.tests._data import user_chunks  # noqa: E402
from skpapk.datasets import make_papk_simulation  # noqa: E402
from skpapk.exceptions import WorkerLostError  # noqa: E402

#: Seconds ``fit`` may take to raise after the kill (it takes 1-5 s).
LIMIT = 40


def _training_workers(client, timeout):
    """The workers running a LightGBM training task, once there are two."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        busy = [address for address, keys in client.processing().items()
                if any("_train_part" in str(key) for key in keys)]
        if len(busy) == 2:
            return busy
        time.sleep(0.05)
    raise AssertionError(f"no LightGBM training on 2 workers within {timeout} s")


def test_a_killed_worker_ends_the_boosted_fit_and_the_cluster_stays_usable(
        cluster_client):
    client = cluster_client
    X, y, groups = make_papk_simulation(n_users=40, n_pos=(2, 10), n_neg=(20, 60),
                                        shuffle=False, random_state=0)
    chunks = user_chunks(groups, 2)
    dX = da.from_array(X, chunks=(chunks, X.shape[1]))
    dy, dgroups = da.from_array(y, chunks), da.from_array(groups, chunks)
    pids = client.run(os.getpid)
    outcome = {}

    def fit():  # far more rounds than can run before the kill
        ranker = PApKBoostRanker(k=5, n_estimators=10**7, num_leaves=4,
                                 random_state=0)
        try:
            ranker.fit(dX, dy, groups=dgroups)
        except BaseException as exc:  # noqa: BLE001 - checked below
            outcome["error"] = exc

    thread = threading.Thread(target=fit, daemon=True)
    thread.start()
    victim, survivor = _training_workers(client, timeout=60)
    time.sleep(1.0)  # into the boosting rounds
    os.kill(pids[victim], signal.SIGKILL)
    killed = time.monotonic()
    thread.join(LIMIT)
    assert not thread.is_alive(), f"fit still running {LIMIT} s after the kill"
    elapsed = time.monotonic() - killed
    error = outcome.get("error")
    assert isinstance(error, WorkerLostError), repr(error)
    message = str(error)
    assert victim in message and "wait for the lost one forever" in message
    # the survivor is restarted, whether its LightGBM still spins in C or
    # ended on its own ("Socket send error"): the network state a failed
    # training leaves in its thread broke the retry now and then
    assert f"that trained ({survivor}) restarted" in message
    assert "client.wait_for_workers" in message and "Retry" in message
    assert elapsed < LIMIT
    # the cluster computes again, on both workers, and the fit can be retried
    client.wait_for_workers(2, timeout=60)
    assert len(client.run(os.getpid)) == 2
    workers = list(client.scheduler_info(n_workers=-1)["workers"])
    assert [client.submit(operator.add, 1, i, workers=[w], pure=False).result(
        timeout=30) for i, w in enumerate(workers)] == [1, 2]
    ranker = PApKBoostRanker(k=5, n_estimators=3, num_leaves=4, random_state=0)
    assert ranker.fit(dX, dy, groups=dgroups).booster_.num_trees() == 3


class _Finalized:
    """Records the thread its finalizer runs on, as a failed training's
    ``Booster`` frees LightGBM's (per-thread) network on that thread."""

    threads = []
    alive = None

    def __init__(self):
        self.cycle = self  # freed by the cyclic collector only

    def __del__(self):
        _Finalized.threads.append(threading.current_thread().name)


def _leave_old_cyclic_garbage():
    """On a worker: a cycle that becomes garbage in the oldest generation,
    where a full collection is rare (as a traceback kept for a while)."""
    _Finalized.threads.clear()
    _Finalized.alive = _Finalized()
    gc.collect()  # survives: now in the oldest generation
    _Finalized.alive = None  # garbage, until a full collection


def _finalizer_threads():
    return list(_Finalized.threads), threading.current_thread().name


def test_the_guard_collects_the_workers_garbage_before_the_training(
        cluster_client):
    # a failed LightGBM training leaves its Booster as cyclic garbage on the
    # surviving workers; collected during the retry, on its task thread, it
    # frees that thread's LightGBM network and ends the retry (CI saw
    # "Socket send error, Broken pipe"). The guard collects it first, on
    # the workers' event-loop threads.
    client = cluster_client
    client.run(_leave_old_cyclic_garbage)
    seen = guard_training(client, lambda: client.gather([
        client.submit(_finalizer_threads, workers=[w], pure=False)
        for w in client.scheduler_info(n_workers=-1)["workers"]]))
    assert len(seen) == 2
    for threads, task_thread in seen:
        assert len(threads) == 1, threads  # finalized before the task ran
        assert threads[0] != task_thread


def test_the_guard_returns_raises_and_times_out(cluster_client):
    client = cluster_client
    assert guard_training(client, lambda: client.submit(sum, [1, 2]).result()) == 3
    with pytest.raises(ZeroDivisionError):
        guard_training(client, lambda: client.submit(operator.truediv, 1, 0).result())
    # a task pinned to a worker that is not there waits forever, as
    # LightGBM's task of a dead worker: ``timeout`` ends it and cancels it
    def pinned():
        return client.submit(time.sleep, 0, workers=["tcp://127.0.0.1:1"],
                             allow_other_workers=False).result()

    with pytest.raises(TimeoutError, match=r"ran past timeout=0\.5 s.*cancelled\. "
                       r"Retry"):
        guard_training(client, pinned, timeout=0.5, poll_interval=0.1)
    assert not [key for key in client.futures if "sleep" in str(key)]


def test_the_message_names_workers_that_could_not_be_restarted():
    message = _message("PApKBoostRanker", {"tcp://a:1"}, ["tcp://b:2"],
                       ["tcp://c:3"], 12.3, None)
    assert message.startswith("PApKBoostRanker.fit stopped: Dask worker(s) "
                              "tcp://a:1 left the cluster 12 s into")
    assert "(tcp://b:2) restarted" in message
    assert "tcp://c:3 could not be restarted" in message
    assert np.char.count(message, "Retry") == 1
