"""The machine's resources: the number of threads an ``n_jobs`` /
``n_threads`` parameter stands for, and its memory.

Kept apart from the compiled kernels so that estimators can resolve their
threads without importing numba.
"""

import os

#: Where Linux's control groups (v2, then v1) hold the memory limit of the
#: process's container or service.
_CGROUP_LIMITS = ("/sys/fs/cgroup/memory.max",
                  "/sys/fs/cgroup/memory/memory.limit_in_bytes")


def _cgroup_limit():
    """The memory limit of this process's control group in bytes, or None
    (none set: ``max``, or v1's near-2**63 value; not Linux)."""
    for path in _CGROUP_LIMITS:
        try:
            with open(path) as handle:
                text = handle.read().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 2**62:
            return int(text)
        return None
    return None


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
