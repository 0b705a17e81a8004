"""Data of the skpapk.dask tests: users cut into partitions of whole users."""

import dask.array as da
import numpy as np
from sklearn.utils import check_random_state

from skpapk.model_selection import within_group_split
from skpapk.tests._helpers import make_grouped_data


def grouped_data(seed=0, n_groups=30, d=4):
    """Rows sorted by user (so that row blocks hold whole users)."""
    return make_grouped_data(seed, n_groups, d, n_pos=(2, 8), n_neg=(10, 25),
                             sep=0.7, random_direction=True, shuffle=False)


def user_chunks(groups, n_parts):
    """Row-chunk sizes cutting sorted ``groups`` into ``n_parts`` blocks of
    whole users."""
    users = np.unique(groups)
    cuts = [np.searchsorted(groups, users[len(users) * i // n_parts])
            for i in range(1, n_parts)]
    bounds = np.r_[0, cuts, groups.shape[0]]
    return tuple(int(b) for b in np.diff(bounds))


def as_dask(X, y, groups, n_parts=3):
    """``(X, y, groups)`` as dask arrays of ``n_parts`` blocks of whole users."""
    chunks = user_chunks(groups, n_parts)
    return (da.from_array(X, chunks=(chunks, X.shape[1])),
            da.from_array(y, chunks=(chunks,)),
            da.from_array(groups, chunks=(chunks,)))


def per_partition_split(y_pos, groups, chunks, fraction, random_state):
    """The rows the distributed early stopping holds out, written out."""
    seeds = check_random_state(random_state).randint(
        np.iinfo(np.int32).max, size=len(chunks))
    bounds = np.r_[0, np.cumsum(chunks)]
    train, val = [], []
    for p, seed in enumerate(seeds):
        rows = np.arange(bounds[p], bounds[p + 1])
        tr, va = within_group_split(y_pos[rows], groups[rows],
                                    sizes=(1 - fraction, fraction),
                                    random_state=int(seed))
        train.append(rows[tr])
        val.append(rows[va])
    return np.concatenate(train), np.concatenate(val)
