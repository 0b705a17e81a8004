"""The machine's resources: the number of threads an ``n_jobs`` /
``n_threads`` parameter stands for, and its memory.

Kept apart from the compiled kernels so that estimators can resolve their
threads without importing numba.
"""

import os

#: The roots of Linux's control groups (v2, v1) and their memory limits.
_CGROUP_ROOTS = (("/sys/fs/cgroup", "memory.max"),
                 ("/sys/fs/cgroup/memory", "memory.limit_in_bytes"))


def _cgroup_limit_files():
    """The memory limit files of this process's control group and of every
    group above it (a limit set on a parent holds too: systemd's
    ``MemoryMax``, a batch job's), read from ``/proc/self/cgroup``; the
    roots' files last."""
    try:
        with open("/proc/self/cgroup") as handle:
            lines = handle.read().splitlines()
    except OSError:
        lines = []
    files = []
    for line in lines:
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and controllers == "":
            root, name = _CGROUP_ROOTS[0]
        elif "memory" in controllers.split(","):
            root, name = _CGROUP_ROOTS[1]
        else:
            continue
        parts = [part for part in path.split("/") if part and part != ".."]
        files += [os.path.join(root, *parts[:i], name)
                  for i in range(len(parts), 0, -1)]
    return files + [os.path.join(root, name) for root, name in _CGROUP_ROOTS]


def _cgroup_limit():
    """The lowest memory limit of this process's control groups in bytes,
    or None (none set: ``max``, or v1's near-2**63 value; not Linux)."""
    limits = []
    for path in _cgroup_limit_files():
        try:
            with open(path) as handle:
                text = handle.read().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 2**62:
            limits.append(int(text))
    return min(limits, default=None)


def physical_memory():
    """The memory this process may use in bytes: the machine's physical
    memory, or its container's limit (Linux's control groups) when lower;
    None where unknown (no ``sysconf``, or -1 for a value it cannot tell)."""
    try:
        page, pages = os.sysconf("SC_PAGE_SIZE"), os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None
    if not (page > 0 and pages > 0):
        return None
    limit = _cgroup_limit()
    return page * pages if limit is None else min(page * pages, limit)



def effective_n_threads(n_threads):
    """Threads to use: ``None`` the OpenMP threads this process may use, as
    scikit-learn's estimators (all the CPUs, but one in each worker of a
    parallel search, or what ``threadpoolctl`` allows); -1 all the CPUs.

    A count above the CPUs this process may use is capped at them: more
    threads than cores only slow the compiled loops down, and LightGBM
    crashes the process when it cannot start the threads it is given
    (``n_jobs=10**6``)."""
    if n_threads is None:
        from sklearn.utils._openmp_helpers import _openmp_effective_n_threads

        # not capped by scikit-learn where OMP_NUM_THREADS is set
        return max(1, min(_openmp_effective_n_threads(), effective_n_threads(-1)))
    if n_threads == -1:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # pragma: no cover - not on Linux
            return max(1, os.cpu_count() or 1)
    if n_threads < -1:
        return max(1, effective_n_threads(-1) + 1 + n_threads)
    return max(1, min(int(n_threads), effective_n_threads(-1)))
