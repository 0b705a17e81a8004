"""The cluster the distributed tests run on."""

import warnings

import pytest


@pytest.fixture(scope="module")
def cluster_client():
    """A ``LocalCluster`` of 2 worker processes (1 thread each), per module."""
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dashboard port notes
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                           processes=True,
                                           dashboard_address=":0")
        client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()
