"""Dask inputs as lists of aligned partitions, and the shuffle by group.

A distributed fit works on partitions that hold whole groups (users): the
rows of partition ``p`` are ``X``'s ``p``-th row block (a chunk of a dask
array, a partition of a dask DataFrame) with the ``p``-th blocks of ``y``
and ``groups``. :func:`split_partitions` lays the inputs out so;
:func:`partition_by_group` moves every group's rows into one partition.
"""

import numbers
import warnings

import dask
import dask.array as da
import numpy as np

from ..utils._routing import _stacklevel
from ..utils._validation import group_array


def is_dask_collection(obj):
    """Whether ``obj`` is a dask collection (array, DataFrame, Series...)."""
    return obj is not None and dask.is_dask_collection(obj)


def is_frame(obj):
    """A dask DataFrame or Series (without importing dask.dataframe)."""
    return is_dask_collection(obj) and hasattr(obj, "divisions")


def _rows_of(X, name):
    """Row blocks of a 2-D dask array or dask DataFrame, and its "meta".

    The blocks of dask arrays ``X``, ``y`` and ``groups``
    (:func:`_vector_parts`) keep their graphs as given
    (``optimize_graph=False``): optimised apart, three columns of one
    source no longer share its tasks, and every block of the source was
    computed three times (and, from ``dd.from_delayed(...,
    verify_meta=False)``, lost a dependency). Those of a DataFrame are
    optimised, which reads only the columns used (a DataFrame's own
    arrays are optimised when they are made)."""
    if isinstance(X, da.Array):
        if X.ndim != 2:
            raise ValueError(
                f"{name} must be a 2-D dask array (rows x features), got "
                f"{X.ndim} dimension(s); reshape it, e.g. {name}.reshape(-1, 1) "
                f"for a single feature."
            )
        if X.numblocks[1] > 1:  # whole rows in every block
            X = X.rechunk({1: -1})
        return X, list(X.to_delayed(optimize_graph=False).ravel())
    if is_frame(X):
        if X.ndim != 2:
            raise ValueError(
                f"{name} must hold the feature columns (a dask DataFrame or a "
                f"2-D dask array), got a dask Series; use "
                f"{name}.to_frame() for a single feature."
            )
        return X, list(X.to_delayed())
    raise TypeError(
        f"{name} must be a dask array or a dask DataFrame, got "
        f"{type(X).__name__}; wrap in-memory data with dask.array.from_array."
    )


def _vector_parts(v, name, X, n_parts):
    """Row blocks of ``y`` or ``groups``, aligned with those of ``X``."""
    if v is None:
        return [None] * n_parts
    x_chunks = X.chunks[0] if isinstance(X, da.Array) else None
    known = x_chunks is not None and not any(np.isnan(c) for c in x_chunks)
    if isinstance(v, da.Array):
        if v.ndim != 1:
            raise ValueError(
                f"{name} must be a 1-D dask array (one value per row of X), "
                f"got shape {v.shape}; use {name}.ravel() for a column."
            )
        if known and not any(np.isnan(c) for c in v.chunks[0]):
            if v.shape[0] != X.shape[0]:
                raise ValueError(
                    f"{name} has {v.shape[0]} rows but X has {X.shape[0]}; pass "
                    f"one value per row of X."
                )
            if v.chunks[0] != x_chunks:  # same rows, other blocks: align them
                v = v.rechunk((x_chunks,))
        parts = list(v.to_delayed(optimize_graph=False).ravel())
    elif is_frame(v):
        if v.ndim != 1:
            raise ValueError(
                f"{name} must be a dask Series or a 1-D dask array, got a dask "
                f"DataFrame; select its column, e.g. df['{name}']."
            )
        parts = list(v.to_delayed())
    elif is_dask_collection(v):
        raise TypeError(
            f"{name} must be a dask array or a dask Series, got "
            f"{type(v).__name__}."
        )
    else:
        if not known:
            raise TypeError(
                f"{name} is in memory ({type(v).__name__}) but X's partitions "
                f"have unknown lengths; pass {name} as a dask Series or array "
                f"partitioned like X (e.g. a column of the same dask DataFrame)."
            )
        # composite keys of a list of tuples: one per row, as in memory
        v = group_array(v) if name == "groups" else np.asarray(v)
        if v.ndim != 1:
            raise ValueError(
                f"{name} must be 1-D (one value per row of X), got shape "
                f"{v.shape}; use {name}.ravel() for a column."
            )
        if v.shape[0] != X.shape[0]:
            raise ValueError(
                f"{name} has {v.shape[0]} values but X has {X.shape[0]} rows; "
                f"pass one value per row of X."
            )
        bounds = np.cumsum(x_chunks)[:-1]
        parts = [dask.delayed(piece, pure=True) for piece in np.split(v, bounds)]
    if len(parts) != n_parts:
        raise ValueError(
            f"{name} has {len(parts)} partitions while X has {n_parts}: y and "
            f"groups must be partitioned like X (columns of the same dask "
            f"DataFrame, or dask arrays chunked along X.chunks[0])."
        )
    return parts


def split_partitions(X, y, groups):
    """The aligned row blocks ``(X_p, y_p, groups_p)`` of dask inputs.

    Parameters
    ----------
    X : dask array of shape (n_samples, n_features) or dask DataFrame
    y : dask array, dask Series or array-like of shape (n_samples,)
    groups : dask array, dask Series, array-like of shape (n_samples,) or None
        In-memory ``y`` and ``groups`` are cut along ``X``'s row chunks
        (which must then be known).

    Returns
    -------
    X : dask array or dask DataFrame
        ``X`` with its features in one block.
    parts : list of tuple of Delayed
        ``(X_p, y_p, groups_p)`` for every partition (``groups_p`` is None
        when ``groups`` is).
    """
    X, x_parts = _rows_of(X, "X")
    n_parts = len(x_parts)
    joined = is_frame(X) and is_frame(y) and (groups is None or is_frame(groups))
    if not joined and (y is not None or groups is not None):
        _check_not_disk_shuffled(X, y, groups)  # computed apart: may disagree
    if is_frame(X) and (is_frame(y) or is_frame(groups)):
        return X, _frame_partitions(X, y, groups)
    y_parts = _vector_parts(y, "y", X, n_parts)
    g_parts = _vector_parts(groups, "groups", X, n_parts)
    return X, list(zip(x_parts, y_parts, g_parts))


#: Graph layers of dask's "disk" shuffle (partd): the rows of each output
#: partition come in the order in which its pieces arrive.
_DISK_SHUFFLE = ("diskshuffle", "shuffle-disk", "zpartd")


def _check_not_disk_shuffled(*inputs):
    """Warn about inputs computed apart from a frame shuffled by dask's
    "disk" method: after a shuffle that does not sort the rows of each
    partition (``DataFrame.shuffle``, a merge), every computation orders
    them anew, so ``X``, ``y`` and ``groups`` taken from it one by one
    (``to_dask_array``, a computed column) would not line up, and the fit
    would pair rows with other rows' labels. A warning, not an error: after
    ``sort_values`` or ``set_index`` (a disk shuffle too) the order is
    fixed, and the graph does not tell them apart."""
    for name, v in zip(("X", "y", "groups"), inputs):
        if not is_dask_collection(v):
            continue
        names = {key[0] if isinstance(key, tuple) else key
                 for key in v.__dask_graph__().keys()}
        if any(str(name).startswith(_DISK_SHUFFLE) for name in names):
            warnings.warn(
                f"{name} comes from a DataFrame shuffled by dask's 'disk' "
                f"method (the default without a distributed Client). After a "
                f"shuffle that does not sort each partition's rows "
                f"(DataFrame.shuffle, merge), every computation orders them "
                f"anew: X, y and groups taken from it apart would not line "
                f"up, and the fit would pair rows with other rows' labels. "
                f"Shuffle with skpapk.dask.partition_by_group(df, groups=...) "
                f"or shuffle_method='tasks', persist the DataFrame before "
                f"taking its columns, or pass X as its feature columns and y "
                f"and groups as its Series (they are joined by index). After "
                f"sort_values or set_index the order is fixed: ignore this "
                f"warning.", UserWarning, stacklevel=_stacklevel())
            return


_Y, _GROUPS = "__skpapk_y__", "__skpapk_groups__"


def _frame_partitions(X, y, groups):
    """Row blocks of a DataFrame ``X`` with its Series ``y`` and ``groups``.

    The Series join ``X`` by index (``X.assign``) and every partition of the
    joined frame is split back into its pieces. Taking each Series'
    partitions separately would not do: after a shuffle, every computation
    of a frame may order the rows of a partition differently (the order in
    which the shuffle's pieces arrive), so separately computed columns
    would not line up.
    """
    columns = {}
    for name, key, v in (("y", _Y, y), ("groups", _GROUPS, groups)):
        if is_frame(v):
            if v.ndim != 1:
                raise ValueError(
                    f"{name} must be a dask Series or a 1-D dask array, got a "
                    f"dask DataFrame; select its column, e.g. df['{name}']."
                )
            if not _joins_within_partitions(X, v):
                raise ValueError(
                    f"{name}'s partitions (divisions {_shown(v.divisions)}) "
                    f"differ from X's ({_shown(X.divisions)}): joining them by "
                    f"index would cut X's partitions, and its users, anew. Take "
                    f"{name} from the same DataFrame as X (e.g. df['{name}'])"
                    + (f", or repartition it like X: "
                       f"{name}.repartition(divisions=X.divisions)."
                       if X.known_divisions else
                       " (X's divisions are unknown, so it cannot be "
                       "repartitioned like X).")
                )
            columns[key] = v
    clash = set(columns) & set(X.columns)
    if clash:
        raise ValueError(f"X has reserved column name(s) {sorted(clash)}; rename them.")
    joined = X.assign(**columns)
    n_parts = joined.npartitions
    y_parts = (None if _Y in columns else _vector_parts(y, "y", X, n_parts))
    g_parts = (None if _GROUPS in columns
               else _vector_parts(groups, "groups", X, n_parts))
    triples = []
    for i, part in enumerate(joined.to_delayed()):
        x, yy, g = dask.delayed(_split_frame, nout=3)(
            part, _Y in columns, _GROUPS in columns)
        triples.append((x, yy if y_parts is None else y_parts[i],
                        g if g_parts is None else g_parts[i]))
    return triples


def _joins_within_partitions(X, v):
    """Whether ``X.assign(v)`` keeps X's partitions: v's boundaries are
    among X's, or both are unknown and as many (partition by partition)."""
    if X.known_divisions and v.known_divisions:
        return set(v.divisions) <= set(X.divisions)
    return (not X.known_divisions and not v.known_divisions
            and X.npartitions == v.npartitions)


def _shown(divisions, most=6):
    """A partition boundary list, cut after ``most`` values."""
    if divisions[0] is None:
        return f"unknown, {len(divisions) - 1} partitions"
    shown = ", ".join(map(str, divisions[:most]))
    return f"[{shown}{', ...' if len(divisions) > most else ''}]"


def _split_frame(frame, has_y, has_groups):
    """``(X, y, groups)`` of a partition joined by :func:`_frame_partitions`."""
    y = frame[_Y] if has_y else None
    groups = frame[_GROUPS] if has_groups else None
    extra = [c for c in (_Y, _GROUPS) if c in frame.columns]
    return frame.drop(columns=extra), y, groups


# --------------------------------------------------------------------------
# The shuffle by group


def _mix64(x):
    """splitmix64's finaliser: a well-spread uint64 hash of uint64 values."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _int_hash(values):
    """The hash of integers (int64, or uint64 as their bits)."""
    return _mix64(values.astype(np.int64).view(np.uint64))


def _float_hash(values):
    """The hash of floats: an integral one as the integer (``1.0`` as ``1``,
    ``2.0**63`` as ``2**63``: one user for the fit), another by its bits
    (``-0.0`` as ``0.0``)."""
    values = values.astype(np.float64) + 0.0
    hashed = _mix64(values.view(np.uint64))
    integral = np.isfinite(values) & (values == np.floor(values))
    int64 = integral & (values >= -(2.0**63)) & (values < 2.0**63)
    hashed[int64] = _int_hash(values[int64])
    uint64 = integral & (values >= 2.0**63) & (values < 2.0**64)
    hashed[uint64] = _int_hash(values[uint64].astype(np.uint64))
    beyond = integral & ~int64 & ~uint64
    if beyond.any():  # as _object_hash hashes the integer (a Python int)
        from pandas.util import hash_array

        hashed[beyond] = hash_array(np.array([int(v) for v in values[beyond]],
                                             dtype=object))
    return hashed


def _object_hash(groups):
    """The hash of labels of an object array, one per distinct label: a
    number as :func:`_int_hash` or :func:`_float_hash` would hash it (``1``,
    ``1.0``, ``True`` and ``np.int8(1)`` are one user for the fit, as for
    ``numpy.unique``), anything else with :func:`pandas.util.hash_array`."""
    try:
        import pandas as pd
        from pandas.util import hash_array
    except ImportError:  # pragma: no cover - pandas comes with dask
        raise ImportError(
            "partition_by_group needs pandas to hash group labels "
            "that are not numbers; pip install pandas, or encode the "
            "groups as integers."
        ) from None
    if pd.api.types.infer_dtype(groups, skipna=False) in ("string", "bytes"):
        return hash_array(groups)  # the common case: one array call
    # 1 == 1.0 == True: one label; a missing one (None, NaN) a label too,
    # which the fit then refuses with its own message
    codes, uniques = pd.factorize(groups, use_na_sentinel=False)
    uniques = np.asarray(uniques, dtype=object)
    kind = pd.api.types.infer_dtype(uniques, skipna=False)
    if kind in ("integer", "boolean", "floating", "mixed-integer-float"):
        try:  # every label a number of float64's or int64's range
            values = uniques.astype(np.int64 if kind in ("integer", "boolean")
                                    else np.float64)
        except (OverflowError, TypeError, ValueError):
            pass
        else:
            if kind in ("integer", "boolean"):
                return _int_hash(values)[codes]
            if kind == "floating" or np.all(np.abs(values) < 2.0**53):
                return _float_hash(values)[codes]  # ints exact as floats
    hashed = hash_array(uniques)  # mixed kinds: label by label
    for i, label in enumerate(uniques):
        if isinstance(label, (bool, np.bool_, numbers.Integral)):
            value = int(label)
            if -2**63 <= value < 2**64:  # as an int64 or uint64 array
                hashed[i] = _int_hash(np.array(
                    [value], dtype=np.int64 if value < 2**63 else np.uint64))[0]
        elif isinstance(label, numbers.Real):
            hashed[i] = _float_hash(np.array([float(label)]))[0]
    return hashed[codes]


def group_buckets(groups, n_buckets):
    """Partition of every row, a hash of its group label modulo ``n_buckets``.

    The hash depends on the label only (not on the process: Python's
    ``hash`` of a string does), so that every worker sends a group's rows to
    the same partition. Integers and booleans hash by value, floats by their
    bits (``-0.0`` as ``0.0``) unless they are integers (``1.0`` as ``1``),
    strings and other objects with :func:`pandas.util.hash_array`; a
    number in an object array as in a numeric one, so that labels that the
    fit takes for one user (``1`` and ``1.0``) share a partition.
    """
    groups = np.asarray(groups)
    if groups.ndim != 1:
        raise ValueError(f"groups must be 1-D, got shape {groups.shape}.")
    with np.errstate(over="ignore", invalid="ignore"):
        if groups.dtype.kind in "biu":
            hashed = _int_hash(groups)
        elif groups.dtype.kind == "f":
            hashed = _float_hash(groups)
        else:
            hashed = _object_hash(groups.astype(object))
    return (hashed % np.uint64(n_buckets)).astype(np.intp)


def _split_block(block, buckets, n_buckets):
    """The rows of ``block`` going to each of the ``n_buckets`` partitions."""
    order = np.argsort(buckets, kind="stable")
    bounds = np.searchsorted(buckets[order], np.arange(1, n_buckets))
    rows = np.split(order, bounds)
    if hasattr(block, "iloc"):
        return tuple(block.iloc[r] for r in rows)
    return tuple(block[r] for r in rows)


def _concat_blocks(*pieces):
    """Concatenate the pieces of one output partition along the rows."""
    first = pieces[0]
    if hasattr(first, "tocsr"):
        import scipy.sparse as sp

        return sp.vstack(pieces, format="csr")
    return np.concatenate(pieces, axis=0)


def _shuffle_method():
    """Dask's shuffle method, but "tasks" for its "disk" (the default without
    a distributed Client), whose output rows come in another order at every
    computation."""
    method = dask.config.get("dataframe.shuffle.method", None)
    if method is None:
        try:
            from distributed import default_client

            default_client()
            return None  # on a cluster: dask's choice ("p2p")
        except (ImportError, ValueError):
            return "tasks"
    return "tasks" if method == "disk" else method


def partition_by_group(*arrays, groups, npartitions=None):
    """Move every group's rows into one partition (a shuffle by group).

    A distributed fit (:class:`skpapk.dask.PApKRanker` and the other rankers
    of :mod:`skpapk.dask`) needs each user's rows in one partition: the
    surrogate of a user is not a sum over its rows. This helper sends each
    row to the partition ``hash(group) % npartitions``; the fit raises an
    error naming this helper when a group spans partitions.

    Parameters
    ----------
    *arrays : dask DataFrame, or dask arrays
        Either one dask DataFrame, with ``groups`` the name of its group
        (user) column; or dask arrays with the same rows (e.g. ``X`` and
        ``y``; ``X`` may have chunks of SciPy CSR matrices), chunked alike
        along the rows.
    groups : str or dask array
        The DataFrame's group column, or a 1-D dask array of group labels
        (numbers or strings) aligned with the arrays.
    npartitions : int, default=None
        Number of output partitions; ``None`` keeps the number of input
        partitions.

    Returns
    -------
    shuffled : dask DataFrame, or tuple of dask arrays
        The DataFrame shuffled by its group column
        (:meth:`dask.dataframe.DataFrame.shuffle`, by the ``"tasks"`` method
        where dask's default would be ``"disk"``, whose row order changes at
        every computation); or the arrays followed by the groups, each
        partitioned alike by group. The row order inside a partition
        follows the input partitions, so columns computed apart line up;
        the lengths of the new partitions are unknown until computed
        (``compute_chunk_sizes``). Nothing is computed by this call.

    See Also
    --------
    skpapk.dask.PApKRanker : A distributed ranker, which needs every user's
        rows in one partition.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> from skpapk.dask import partition_by_group
    >>> groups = da.from_array(np.array([0, 1, 2, 0, 1, 2]), chunks=3)
    >>> X = da.from_array(np.arange(12.0).reshape(6, 2), chunks=(3, 2))
    >>> X2, g2 = partition_by_group(X, groups=groups, npartitions=2)
    >>> [sorted(set(block.compute().tolist())) for block in g2.to_delayed()]
    [[2], [0, 1]]
    >>> X2.compute()[:, 0].tolist()     # the rows of users 2, then 0 and 1
    [4.0, 10.0, 0.0, 2.0, 6.0, 8.0]
    """
    if not arrays:
        raise TypeError("partition_by_group needs a dask DataFrame or dask arrays.")
    if npartitions is not None and (not isinstance(npartitions, (int, np.integer))
                                    or isinstance(npartitions, bool)
                                    or npartitions < 1):
        raise ValueError(
            f"npartitions must be a positive int or None, got {npartitions!r}."
        )
    first = arrays[0]
    if is_frame(first) and first.ndim == 2:
        if len(arrays) != 1 or not isinstance(groups, str):
            raise TypeError(
                "With a dask DataFrame, pass it alone and groups='<its group "
                "column>', e.g. partition_by_group(df, groups='user')."
            )
        if groups not in first.columns:
            raise ValueError(
                f"groups={groups!r} is not a column of the DataFrame; its "
                f"columns are {list(first.columns)}."
            )
        return first.shuffle(on=groups, npartitions=npartitions or first.npartitions,
                             shuffle_method=_shuffle_method())
    if not all(isinstance(a, da.Array) for a in arrays):
        raise TypeError(
            "partition_by_group takes one dask DataFrame or dask arrays, got "
            f"{[type(a).__name__ for a in arrays]}."
        )
    if not isinstance(groups, da.Array) or groups.ndim != 1:
        raise TypeError(
            "groups must be a 1-D dask array of group labels aligned with the "
            f"arrays, got {type(groups).__name__}; wrap in-memory labels with "
            "dask.array.from_array(groups, chunks=X.chunks[0])."
        )
    chunks = groups.chunks[0]
    names = [f"arrays[{i}]" for i in range(len(arrays))] + ["groups"]
    unknown = [name for name, a in zip(names, [*arrays, groups])
               if np.isnan(a.shape[0])]
    if unknown and len(unknown) < len(names):
        raise ValueError(
            f"{', '.join(unknown)} {'has' if len(unknown) == 1 else 'have'} "
            f"unknown chunk sizes (after a boolean mask...), the other inputs "
            f"known ones, so their rows cannot be matched; call "
            f".compute_chunk_sizes() on {' and '.join(unknown)} first."
        )
    aligned = []
    for i, a in enumerate(arrays):
        if a.shape[0] != groups.shape[0] and not np.isnan(a.shape[0]):
            raise ValueError(
                f"arrays[{i}] has {a.shape[0]} rows but groups has "
                f"{groups.shape[0]}; pass arrays with the same rows."
            )
        if a.ndim == 2 and a.numblocks[1] > 1:
            a = a.rechunk({1: -1})
        if a.chunks[0] != chunks:
            a = a.rechunk({0: chunks})
        aligned.append(a)
    n_in = groups.numblocks[0]
    n_out = n_in if npartitions is None else int(npartitions)
    bucket_tasks = [dask.delayed(group_buckets)(g, n_out)
                    for g in groups.to_delayed().ravel()]
    outputs = []
    for a in [*aligned, groups]:
        blocks = a.to_delayed().ravel()
        pieces = [dask.delayed(_split_block, nout=n_out)(b, bucket, n_out)
                  for b, bucket in zip(blocks, bucket_tasks)]
        tail = a.shape[1:]
        out = [da.from_delayed(
                   dask.delayed(_concat_blocks)(*[p[j] for p in pieces]),
                   shape=(np.nan, *tail), dtype=a.dtype, meta=a._meta)
               for j in range(n_out)]
        outputs.append(da.concatenate(out, axis=0))
    return tuple(outputs)
