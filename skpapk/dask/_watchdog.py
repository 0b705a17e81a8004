"""A guard around LightGBM's distributed training: a lost worker ends the fit.

LightGBM's data-parallel training is collective: every worker's training
task exchanges histograms with all the others through LightGBM's own
sockets, in C code that Dask cannot interrupt. When a worker dies during
training, the others wait for it forever, and the dead worker's task,
pinned to its address, never runs again: ``fit`` hangs with no error,
and the surviving workers' threads stay busy.

:func:`guard_training` runs the training call in a thread and watches the
scheduler's workers meanwhile. When a worker present at the start leaves
(or is replaced by a restart at the same address), or after ``timeout``
seconds, it cancels the futures the training submitted, restarts the
surviving workers that ran a training task (the only way to free a thread
stuck in LightGBM's network code, and to clear the network state that a
failed training leaves in its thread, which broke the retry's training now
and then; workers without a nanny cannot be restarted and are named), and
raises :class:`~skpapk.exceptions.WorkerLostError` (or ``TimeoutError``)
saying how to retry.

Before the training starts, :func:`guard_training` collects the workers'
garbage (:func:`collect_garbage`): what a failed training left there must
not be collected during the retry, on the thread that trains.
"""

import contextvars
import gc
import threading
import time

#: Seconds between two looks at the scheduler's workers: a lost worker
#: ends ``fit`` within about this long plus the restart of the others.
POLL_INTERVAL = 0.5

#: Seconds granted to the restart of the workers that trained.
RESTART_TIMEOUT = 60.0

#: Seconds granted to the training call to return once its futures are
#: cancelled (``client.gather`` raises ``CancelledError`` at once).
JOIN_TIMEOUT = 10.0


def _workers(client):
    """``{address: id}`` of the scheduler's workers now (asked, not cached)."""
    try:
        info = client.scheduler_info(n_workers=-1)
    except TypeError:  # pragma: no cover - distributed < 2025 lists them all
        info = client.scheduler_info()
    return {address: worker.get("id", address)
            for address, worker in info["workers"].items()}


def _lost(before, now):
    """The workers of ``before`` gone from ``now``, or replaced at their address."""
    return {address for address, id_ in before.items() if now.get(address) != id_}


def collect_garbage(client):
    """Run the garbage collector on every worker, on its event-loop thread.

    LightGBM's Dask interface frees a worker's LightGBM network only after a
    successful fit. The ``Booster`` of a failed one (a worker lost) stays on
    the surviving workers as cyclic garbage (its traceback's frames), and
    frees LightGBM's network whenever the collector reaches it. LightGBM
    keeps one network per thread, so when that happens on a worker's task
    thread during the next training (the retry), it ends that training:
    "Please initialize the network interface first" on that worker, "Socket
    send error" on the others. Collected here, before the training, the
    garbage is freed on the event-loop thread, whose network is not used.
    Workers that do not answer are skipped (the training reports them).
    """
    client.run(gc.collect, on_error="ignore")


def _running(client, keys):
    """The workers running a task of ``keys`` now."""
    if not keys:
        return set()
    return {address for address, tasks in client.processing().items()
            if keys.intersection(tasks)}


def _cancel(client, keys):
    """Cancel the futures of ``keys``; the workers running them (alive)."""
    from distributed import Future

    running = _running(client, keys)
    if keys:
        client.cancel([Future(key, client) for key in keys], force=True)
    return running


def _restart(client, workers, timeout):
    """Restart ``workers``; the ones that could not be (no nanny, time-out)."""
    if not workers:
        return []
    try:
        status = client.restart_workers(workers, timeout=timeout,
                                        raise_for_error=False)
    except Exception:  # noqa: BLE001 - reported to the user below
        return list(workers)
    return [address for address in workers if status.get(address) != "OK"]


def _message(name, lost, restarted, stuck, elapsed, timeout):
    if lost:
        # the wait without end is LightGBM's issue #5920
        what = (f"Dask worker(s) {', '.join(sorted(lost))} left the cluster "
                f"{elapsed:.0f} s into LightGBM's distributed training, which "
                f"cannot go on without them (the other workers would wait for "
                f"the lost one forever, in LightGBM's network code).")
    else:
        what = (f"LightGBM's distributed training ran past timeout={timeout:g} "
                f"s ({elapsed:.0f} s).")
    done = "Its training tasks were cancelled"
    if restarted:
        done += (f" and the worker(s) that trained "
                 f"({', '.join(sorted(restarted))}) restarted, to free the "
                 f"LightGBM network of their threads")
    done += "."
    if stuck:
        done += (f" Worker(s) {', '.join(sorted(stuck))} could not be restarted "
                 f"(no nanny, or the restart timed out): restart them before "
                 f"the next fit (client.restart_workers([...]) or "
                 f"client.restart()), or their LightGBM threads may block or "
                 f"break it.")
    retry = (" Retry the fit once the cluster has its workers back, e.g. "
             "client.wait_for_workers(n_workers) then "
             f"{name}.fit(...) again; nothing of this fit is kept.")
    return f"{name}.fit stopped: {what} {done}{retry}"


def guard_training(client, train, *, name="fit", timeout=None,
                   poll_interval=POLL_INTERVAL, restart_timeout=RESTART_TIMEOUT):
    """Call ``train()``, which trains on ``client``'s workers; end it if one is lost.

    The workers' garbage is collected first (see :func:`collect_garbage`).

    Parameters
    ----------
    client : distributed.Client
        The client ``train`` submits its tasks with.
    train : callable
        Called with no argument in a thread of this process; its value is
        returned, its exception raised.
    name : str, default="fit"
        What is fitted, for the error message (e.g. the estimator's name).
    timeout : float or None, default=None
        Seconds after which the training is ended as if a worker were lost
        (``TimeoutError``). ``None``: no limit, only lost workers end it.
    poll_interval : float, default=POLL_INTERVAL
        Seconds between two looks at the scheduler's workers.
    restart_timeout : float, default=RESTART_TIMEOUT
        Seconds granted to restart the workers that trained.

    Returns
    -------
    value : object
        What ``train()`` returned.

    Raises
    ------
    skpapk.exceptions.WorkerLostError
        A worker present when ``train`` was called left the cluster (or was
        replaced) before it returned; also when ``train`` raised after a
        worker was lost (then chained to that error).
    TimeoutError
        ``train`` ran past ``timeout``.

    Examples
    --------
    >>> from distributed import Client, LocalCluster
    >>> from skpapk.dask._watchdog import guard_training
    >>> with LocalCluster(n_workers=1, processes=False,
    ...                   dashboard_address=":0") as cluster, Client(cluster) as client:
    ...     guard_training(client, lambda: client.submit(sum, [1, 2]).result())
    3
    """
    from ..exceptions import WorkerLostError

    collect_garbage(client)
    workers = _workers(client)
    before = set(client.futures)
    outcome = {}

    def run():
        try:
            outcome["value"] = train()
        except BaseException as exc:  # noqa: BLE001 - raised by the caller
            outcome["error"] = exc

    # the caller's context variables go with it: the current client of
    # ``client.as_current()`` is one, which LightGBM's dask code looks up
    context = contextvars.copy_context()
    thread = threading.Thread(target=context.run, args=(run,),
                              name=f"skpapk-guarded-{name}", daemon=True)
    start = time.monotonic()
    trained = set()  # the workers seen running a task of the training

    def abort(lost):
        """Cancel, restart the workers that trained, raise (see above)."""
        elapsed = time.monotonic() - start
        trained.update(_cancel(client, set(client.futures) - before))
        survivors = sorted(set(trained) - set(lost))
        stuck = _restart(client, survivors, restart_timeout)
        thread.join(JOIN_TIMEOUT)
        message = _message(name, lost, sorted(set(survivors) - set(stuck)), stuck,
                           elapsed, timeout)
        error = WorkerLostError if lost else TimeoutError
        raise error(message) from outcome.get("error")

    thread.start()
    try:
        while thread.is_alive():
            thread.join(poll_interval)
            if not thread.is_alive():
                break
            trained.update(_running(client, set(client.futures) - before))
            lost = _lost(workers, _workers(client))
            if lost or (timeout is not None and time.monotonic() - start > timeout):
                abort(lost)
    except BaseException:
        if thread.is_alive():  # interrupted (Ctrl-C), or ended above: no orphans
            _cancel(client, set(client.futures) - before)
        raise
    if "error" in outcome:
        lost = _lost(workers, _workers(client))
        if lost:  # e.g. LightGBM's "Socket recv error" on a surviving worker
            abort(lost)
        raise outcome["error"]
    return outcome.get("value")
