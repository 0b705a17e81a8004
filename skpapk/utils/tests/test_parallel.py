import pytest

from skpapk.utils._parallel import effective_n_threads


@pytest.mark.parametrize("n_threads, expected", [(1, 1), (3, 3), (None, None),
                                                 (-1, None)])
def test_effective_n_threads(n_threads, expected):
    got = effective_n_threads(n_threads)
    assert got == (expected or effective_n_threads(n_threads))
    assert got >= 1


def test_default_threads_follow_the_openmp_limits():
    # one thread in each worker of a parallel search (it took every CPU)
    from threadpoolctl import threadpool_limits

    every = effective_n_threads(-1)
    with threadpool_limits(limits=1, user_api="openmp"):
        assert effective_n_threads(None) == 1
        assert effective_n_threads(-1) == every
