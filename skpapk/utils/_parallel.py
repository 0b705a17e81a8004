"""The machine's resources: the number of threads an ``n_jobs`` /
``n_threads`` parameter stands for, and its memory.

Kept apart from the compiled kernels so that estimators can resolve their
threads without importing numba.
"""

import os


def physical_memory():
    """The machine's physical memory in bytes; None where unknown (no
    ``sysconf``, or -1 for a value it cannot tell)."""
    try:
        page, pages = os.sysconf("SC_PAGE_SIZE"), os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None
    return page * pages if page > 0 and pages > 0 else None



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
