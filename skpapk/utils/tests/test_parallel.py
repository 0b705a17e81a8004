import pytest

from skpapk.utils._parallel import effective_n_threads


@pytest.mark.parametrize("n_threads, expected", [(1, 1), (3, 3), (None, None),
                                                 (-1, None)])
def test_effective_n_threads(n_threads, expected):
    got = effective_n_threads(n_threads)
    assert got == min(expected or got, effective_n_threads(-1))
    assert got >= 1


@pytest.mark.parametrize("n_threads", [10**6, 10**18])
def test_thread_counts_are_capped_at_the_cores(n_threads):
    # LightGBM crashed the process on n_jobs=10**6 (it could not start them)
    assert effective_n_threads(n_threads) == effective_n_threads(-1)


def test_default_threads_follow_the_openmp_limits():
    # one thread in each worker of a parallel search (it took every CPU)
    from threadpoolctl import threadpool_limits

    every = effective_n_threads(-1)
    with threadpool_limits(limits=1, user_api="openmp"):
        assert effective_n_threads(None) == 1
        assert effective_n_threads(-1) == every


def test_default_threads_are_capped_at_the_cores_too(monkeypatch):
    # scikit-learn's OpenMP count follows OMP_NUM_THREADS=5000 uncapped
    from sklearn.utils import _openmp_helpers

    monkeypatch.setattr(_openmp_helpers, "_openmp_effective_n_threads",
                        lambda n_threads=None: 5000)
    assert effective_n_threads(None) == effective_n_threads(-1)
